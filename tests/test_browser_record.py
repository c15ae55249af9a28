"""The Record page in a real browser at phone size (390x844): a whole deal entered by clicks.

Starts ``manillen dashboard`` as tests/test_browser.py does, sets up a match by choosing the
archive's names, makes trump, taps the 32 cards of a legal deal in the order played, saves it and
opens it in the Deal replay. Screenshots land in tests/artifacts/ for a person to look at, and
the time the 32 taps took is written beside them (a figure for the notes, never asserted).
"""

from __future__ import annotations

import datetime
import random
import re
import time
from typing import Any

import pytest

from .factories import SEATS, random_deal
from .test_browser import ARTIFACTS, CHROMIUM
from .test_browser import server as server  # the same live dashboard fixture

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium: apt-get install -y chromium"),
]

PHONE = {"width": 390, "height": 844}
SETTLED = """() => {
    const app = document.querySelector('[data-testid="stApp"]');
    return app !== null && app.dataset.testScriptState === 'notRunning'
        && app.dataset.testConnectionState === 'CONNECTED'
        && document.querySelector('[data-stale="true"]') === null;
}"""
"""True once Streamlit's run has finished and no element of the previous run is left on the page:
while a run is under way the previous run's elements stay (stale) until it ends, so a screenshot
or an assertion taken then can see a line twice, once with the old value."""


def settle(page: object) -> None:
    """Wait until the page's run has finished (call it after what the run shows has appeared)."""
    page.wait_for_function(SETTLED, timeout=30_000)  # type: ignore[attr-defined]


def tap_when_settled(page: Any, selector: str) -> None:
    """Tap a button that a run is drawing once that run has finished, as a person who waits for the
    page does: a tap while the run that draws the button is still under way can be lost (seen once
    on a busy machine: the trump tapped right after Start, and the page stayed on the trump choice)."""
    button = page.locator(selector)
    button.wait_for(timeout=30_000)
    settle(page)
    button.click()


def deal_to_tap(seed: int) -> tuple[list[str], str]:
    """A legal deal's 32 cards in the order played, and the trump its dealer made."""
    deal = random_deal(random.Random(seed), 3)
    assert isinstance(deal.tricks, list) and isinstance(deal.declarations, list)
    return [card for trick in deal.tricks for card in trick], deal.declarations[0].suit


def type_names(page: Any) -> None:
    """The four players' names typed into the seats (the browser's own inputs,
    dashboards/native_inputs.py), each ended with Enter."""
    for seat, name in enumerate(SEATS):
        box = page.locator(f'input[name="seat_{seat}"]')
        box.wait_for(timeout=30_000)
        box.click()
        box.fill(name)
        box.press("Enter")


def ready_to_start(chromium: Any, server: str) -> tuple[Any, Any]:
    """A desktop page on the Record page, the four names typed: the page and its Start button,
    enabled, the run over."""
    expect = pytest.importorskip("playwright.sync_api").expect
    page = chromium.new_page(viewport={"width": 1400, "height": 900})
    page.goto(f"{server}/record")
    type_names(page)
    start = page.locator(".st-key-record_start button")
    expect(start).to_be_enabled(timeout=15_000)
    settle(page)
    return page, start


def test_record_a_deal_by_clicks_on_a_phone(server: str, chromium: Any) -> None:
    playwright_api = pytest.importorskip("playwright.sync_api")
    expect = playwright_api.expect
    cards, trump = deal_to_tap(7)
    ARTIFACTS.mkdir(exist_ok=True)
    page = chromium.new_page(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page.goto(f"{server}/record")
    type_names(page)
    date = page.locator('input[name="date"]')
    assert date.get_attribute("type") == "date"
    assert date.input_value() == datetime.date.today().isoformat()
    dealer = page.locator('select[name="dealer"]')
    expect(dealer.locator("option")).to_have_text(SEATS, timeout=15_000)  # named once typed
    assert dealer.input_value() == "3"
    start = page.locator(".st-key-record_start button")
    expect(start).to_be_enabled(timeout=15_000)
    settle(page)
    page.screenshot(path=str(ARTIFACTS / "record-phone-setup.png"), full_page=True)
    start.click()
    tap_when_settled(page, f".st-key-record_trump_{trump} button")
    first = page.locator(f".st-key-record_card_{cards[0]} button")
    expect(first).to_be_enabled(timeout=15_000)
    began = time.monotonic()
    for index, card in enumerate(cards):
        button = page.locator(f".st-key-record_card_{card} button")
        button.click()
        # the page has run again once it counts the card (and greys it out)
        page.get_by_text(re.compile(rf"· {index + 1} of 32 cards in")).wait_for(timeout=15_000)
        expect(button).to_be_disabled(timeout=15_000)
        settle(page)
        status = page.get_by_text(re.compile(r"of 32 cards in"))
        expect(status).to_have_count(1)  # one status line, the new count: no stale copy
        if index == 13:
            page.screenshot(path=str(ARTIFACTS / "record-phone-trick-4.png"), full_page=False)
    tapped = time.monotonic() - began
    save = page.locator(".st-key-record_save button")
    expect(save).to_be_enabled(timeout=15_000)
    settle(page)
    page.screenshot(path=str(ARTIFACTS / "record-phone-deal-done.png"), full_page=True)
    written = page.locator('[data-testid="stButtonGroup"]').filter(has_text="30-30")
    written.scroll_into_view_if_needed()
    expect(written).to_be_visible()  # what the scoresheet says, beside the save button
    page.screenshot(path=str(ARTIFACTS / "record-phone-scoresheet-line.png"))
    save.click()
    link = page.get_by_role("link", name="Open deal 1 in the Deal replay")
    link.wait_for(timeout=60_000)
    settle(page)
    page.locator('[data-testid="stMain"]').evaluate("main => main.scrollTo(0, 0)")
    page.screenshot(path=str(ARTIFACTS / "record-phone-saved.png"))
    link.click()
    page.locator(".mr-trick").wait_for(timeout=30_000)
    page.wait_for_function("() => window.location.pathname.endsWith('/replay')", timeout=10_000)
    assert "deal=1" in page.url and "match=" in page.url
    settle(page)
    page.screenshot(path=str(ARTIFACTS / "record-phone-replay.png"), full_page=True)
    # the same draft on a desktop: deal 2, trump made, two cards in
    page.go_back()
    page.set_viewport_size({"width": 1400, "height": 900})
    tap_when_settled(page, ".st-key-record_trump_C button")
    for index, card in enumerate(("AC", "7C")):
        page.locator(f".st-key-record_card_{card} button").click()
        page.get_by_text(re.compile(rf"· {index + 1} of 32 cards in")).wait_for(timeout=15_000)
        settle(page)
    page.screenshot(path=str(ARTIFACTS / "record-desktop.png"))
    (ARTIFACTS / "record-phone-timing.txt").write_text(
        f"32 cards tapped by Playwright at 390x844 in {tapped:.1f} s ({tapped / 32:.2f} s per tap, "
        "each waiting for the page to grey the card out)\n"
    )
    assert (ARTIFACTS / "record-phone-replay.png").stat().st_size > 10_000


FOCUSED_BUTTON = """() => {
    const active = document.activeElement;
    if (!active || active.tagName !== 'BUTTON') return null;
    const holder = active.closest('[class*="st-key-"]');
    const key = holder ? [...holder.classList].find((name) => name.startsWith('st-key-')) : null;
    return {key, disabled: active.disabled, inGrid: active.closest('.st-key-record_grid') !== null};
}"""
"""The keyed button that has the focus (its ``st-key-`` class), or ``None``."""


def test_cards_entered_from_the_keyboard_keep_the_focus_in_the_grid(server: str, chromium: Any) -> None:
    """An accessibility sweep: each card pressed from the keyboard was greyed out by the run it
    started and the focus fell back to the page's start, so a person recording with the keyboard
    or a screen reader had to Tab through the whole page for every card (dashboards/serve.py's
    FOCUS_SCRIPT). Start leaves the focus on the trumps, the trump on the cards, a card on the
    next card that can still be pressed; a click with the mouse leaves the focus to the browser."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    expect = playwright_api.expect
    cards, trump = deal_to_tap(11)
    page, start = ready_to_start(chromium, server)
    start.focus()
    page.keyboard.press("Enter")
    page.locator(f".st-key-record_trump_{trump} button").wait_for(timeout=30_000)
    settle(page)
    page.wait_for_function(f"({FOCUSED_BUTTON})() !== null", timeout=10_000)
    assert page.evaluate(FOCUSED_BUTTON)["key"].startswith("st-key-record_trump_")
    page.locator(f".st-key-record_trump_{trump} button").focus()
    page.keyboard.press("Enter")
    page.locator(f".st-key-record_card_{cards[0]} button").wait_for(timeout=30_000)
    settle(page)
    page.wait_for_function(f"(() => {{ const f = ({FOCUSED_BUTTON})(); return f && f.inGrid; }})()")
    for index, card in enumerate(cards[:4]):
        button = page.locator(f".st-key-record_card_{card} button")
        button.focus()
        page.keyboard.press("Enter" if index % 2 else " ")
        page.get_by_text(re.compile(rf"· {index + 1} of 32 cards in")).wait_for(timeout=15_000)
        expect(button).to_be_disabled(timeout=15_000)
        settle(page)
        page.wait_for_function(
            f"(() => {{ const f = ({FOCUSED_BUTTON})(); return f && f.inGrid && !f.disabled; }})()",
            timeout=10_000,
        )
        assert page.evaluate(FOCUSED_BUTTON)["key"] != f"st-key-record_card_{card}"
    page.locator(f".st-key-record_card_{cards[4]} button").click()
    page.get_by_text(re.compile(r"· 5 of 32 cards in")).wait_for(timeout=15_000)
    settle(page)
    focused = page.evaluate(FOCUSED_BUTTON)
    assert focused is None or not focused["inGrid"] or focused["disabled"], focused


def test_one_tap_on_start_right_after_the_last_name_starts_the_match(server: str, chromium: Any) -> None:
    """On a phone the last name reaches the page as its box loses the focus: the tap on Start did
    that, on a button still disabled, and a second tap was needed. Typed as a person types (no
    Enter, no tap elsewhere), one tap starts the match."""
    page = chromium.new_page(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page.goto(f"{server}/record")
    for seat, name in enumerate(SEATS):
        box = page.locator(f'input[name="seat_{seat}"]')
        box.wait_for(timeout=30_000)
        box.tap()
        box.fill(name)  # the focus stays in the box: nothing is handed over yet
    settle(page)
    page.locator(".st-key-record_start button").tap()
    page.wait_for_url(re.compile(r"draft="), timeout=30_000)
    page.locator(".st-key-record_trump_H button").wait_for(timeout=30_000)
    page.close()


def test_a_phone_told_another_phone_saved_a_deal_shows_that_deal_on_its_scoresheet(
    server: str, chromium: Any
) -> None:
    """A helper's second phone at a table, still on deal 1 when the first saved it, was told so
    and moved to deal 2, but its scoresheet (outside the part a tap redraws) stayed empty."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    expect = playwright_api.expect
    cards, trump = deal_to_tap(11)
    first, start = ready_to_start(chromium, server)
    start.click()
    tap_when_settled(first, f".st-key-record_trump_{trump} button")
    first.wait_for_function("() => window.location.search.includes('draft=')", timeout=15_000)
    second = chromium.new_page(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    second.goto(first.url)
    second.locator(f".st-key-record_card_{cards[0]} button").wait_for(timeout=30_000)
    settle(second)
    for index, card in enumerate(cards):
        first.locator(f".st-key-record_card_{card} button").click()
        first.get_by_text(re.compile(rf"· {index + 1} of 32 cards in")).wait_for(timeout=15_000)
        settle(first)
    tap_when_settled(first, ".st-key-record_save button")
    first.get_by_role("link", name="Open deal 1 in the Deal replay").wait_for(timeout=60_000)
    # the second phone, on deal 1 with nothing tapped there, taps a card
    second.locator(f".st-key-record_card_{cards[0]} button").click()
    # told that deal 1 was saved, not only that the match changed (an organiser's sweep: "tap again
    # what you meant to" left the player wondering what became of the deal)
    told = "Another phone at this table saved deal 1 meanwhile: this page now shows deal 2."
    expect(second.get_by_text(told, exact=False)).to_be_visible(timeout=30_000)
    sheet = second.locator(".st-key-record_scoresheet")
    expect(sheet).to_be_visible(timeout=30_000)
    expect(sheet.locator("tbody tr").first).to_contain_text("1")
    settle(second)
    second.screenshot(path=str(ARTIFACTS / "record-second-phone-told.png"), full_page=True)
    first.close()
    second.close()
