"""The deal replay in a real browser (Chromium via Playwright): its one drawing of the table, the
step buttons, the slider and the tricks, clicked and keyed as a person does.

The server and the archive are test_browser.py's (the archive of test_dashboard.py). Screenshots
land in tests/artifacts/ for a person to look at.
"""

from __future__ import annotations

from typing import Any

import pytest

from .test_browser import ARTIFACTS, SETTLED_WITH_FONTS, _luminance, browser_page, server

__all__ = ["server"]  # the fixture, shared with test_browser.py

pytestmark = pytest.mark.browser

REPLAY = "replay?match=random-1&deal=2&step=5"

STEP_BUTTONS = """() => {
  const host = [...document.querySelectorAll('[data-testid^="stBidiComponent"]')]
    .find((h) => h.shadowRoot && h.shadowRoot.querySelector('.mr-steps'));
  return [...host.shadowRoot.querySelectorAll('.mr-steps button')].map((button) => {
    const inside = button.querySelector('.mr-step');
    const shown = (part) => getComputedStyle(button.querySelector(part)).display !== 'none';
    return {name: button.dataset.button, word: shown('.mr-word'), hint: shown('kbd'),
            fits: inside.scrollWidth <= inside.clientWidth && inside.clientWidth <= button.clientWidth};
  });
}"""
"""Each step button: whether its word and its key hint are shown, and whether what it shows fits."""


def step_of(page: Any) -> str:
    return str(page.evaluate("() => new URL(location.href).searchParams.get('step')"))


def wait_step(page: Any, step: int) -> None:
    """Wait for the address, then the slider, to show ``step``."""
    page.wait_for_function(
        f"() => new URL(location.href).searchParams.get('step') === '{step}'", timeout=15_000
    )
    page.locator(f'input[type="range"][name="step"][value="{step}"]').wait_for(timeout=15_000)


def test_replay_keys_step_outside_text_fields_and_clicks_jump(server: str, chromium: Any) -> None:
    """Home/Left/Right/End step the replay with the focus anywhere but in a text field; Enter on a
    focused step button steps again and again; a click on a trick of the list or on a finding
    shows its play; the position stays in the address."""
    with browser_page(chromium) as page:
        page.goto(f"{server}/{REPLAY}")
        wait_step(page, 5)
        page.locator("h1").click()  # the focus on the page, not in a field
        for key, step in (("ArrowRight", 6), ("ArrowLeft", 5), ("End", 32), ("Home", 0), ("ArrowRight", 1)):
            page.keyboard.press(key)
            wait_step(page, step)
        page.locator('.mr-trick[data-cards="1"]').wait_for(timeout=15_000)
        # Enter on a focused Forward steps, and Forward keeps the focus in the new drawing
        page.get_by_role("button", name="Forward").focus()
        page.keyboard.press("Enter")
        wait_step(page, 2)
        page.keyboard.press("Enter")
        wait_step(page, 3)
        page.keyboard.press("End")
        wait_step(page, 32)
        page.locator("button.mr-link", has_text="3. Dirk").click()  # the third trick of the list
        wait_step(page, 12)
        assert page.locator(".mr-trick [data-card]").count() == 4
        # read aloud: the trick a group of its own, each card with its player, the winner said
        spoken = page.get_by_role("group", name="on the table").aria_snapshot()
        assert spoken.count(": ") >= 4 and "(winning so far)" in spoken, spoken
        page.locator("button.mr-link", has_text="3.2 Bert").click()  # the deal's finding on trick 3, play 2
        wait_step(page, 10)
        page.get_by_text("Bert wasted a trump.").wait_for(timeout=15_000)
        # a key typed in a text field is the field's: the comment form's author
        page.get_by_text("Write a comment", exact=True).click()
        author = page.get_by_label("Your name")
        author.click()
        author.press("ArrowLeft")
        author.press("End")
        page.wait_for_timeout(1000)
        assert step_of(page) == "10"
        # the drawing takes the keys again once the focus left the field
        page.locator("h1").click()
        page.keyboard.press("ArrowRight")
        wait_step(page, 11)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_replay_step_buttons_fit_and_read_in_both_themes(server: str, scheme: str, chromium: Any) -> None:
    """At 1400 px each step button shows its word and its key hint without cutting either; at phone
    width the words (no hints) and the table first; the drawing's text reads on the theme's
    background. Screenshots in English and Dutch for a person to look at."""
    for width, height in ((1400, 1500), (390, 2400)):
        for lang in ("en", "nl"):
            page = chromium.new_page(viewport={"width": width, "height": height}, color_scheme=scheme)
            page.goto(f"{server}/{REPLAY}&lang={lang}")
            wait_step(page, 5)
            page.wait_for_function(SETTLED_WITH_FONTS, timeout=30_000)  # not a fixed pause: 8 a test
            page.screenshot(path=str(ARTIFACTS / f"replay-{scheme}-{width}-{lang}.png"))
            buttons = page.evaluate(STEP_BUTTONS)
            assert [b["name"] for b in buttons] == ["start", "back", "forward", "end"]
            assert all(b["word"] and b["fits"] for b in buttons), buttons
            assert all(b["hint"] == (width > 1000) for b in buttons), buttons
            table = page.locator(".mr-table").bounding_box()
            start = page.get_by_role("button", name="Start" if lang == "en" else "Begin")
            assert table is not None and table["y"] < start.bounding_box()["y"]
            contract = page.get_by_text("Contract:" if lang == "en" else "Aankondiging:").first
            colour = contract.evaluate("b => getComputedStyle(b).color")
            background = page.evaluate(
                "() => getComputedStyle(document.querySelector('.stApp')).backgroundColor"
            )
            assert (_luminance(colour) > _luminance(background)) == (scheme == "dark")
            page.close()
    assert (ARTIFACTS / f"replay-{scheme}-390-nl.png").stat().st_size > 10_000
