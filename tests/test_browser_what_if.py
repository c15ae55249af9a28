"""What if another card had been played, in a real browser (Chromium via Playwright) at phone and
laptop size: fork a card in the deal replay, step through both lines, save the line as a
variation, find it again after the server restarts, and in the records ``manillen export`` writes.

Screenshots land in tests/artifacts/ (``what-if-choice-390.png``: the table on the what-if line
and the cards to choose from; ``what-if-390.png``: the two lines side by side and the saving;
the same at 1500) for a person to look at.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from manillen_replay.cards import Card

from .test_browser import (
    ARTIFACTS,
    NEXT_FRAME,
    SETTLED_WITH_FONTS,
    browser_api,
    browser_page,
    dashboard_served,
)
from .test_dashboard import build_archive

pytestmark = pytest.mark.browser

# random-0's first deal: trick 2 is led by a seat with seven legal cards (the AppTest's play too)
MATCH, DEAL, STEP = "random-0", 1, 5


def html_host(page: Any, selector: str) -> Any:
    """The drawing (dashboards/html_view.py) that holds ``selector`` in its shadow root."""
    return page.locator(f'[data-testid^="stBidiComponent"] {selector}')


def wait_line_card(page: Any, shown: int) -> None:
    """Wait for the table to show card ``shown`` of a line (its slider's value)."""
    page.locator(f'input[type="range"][name="step"][value="{shown}"]').wait_for(timeout=15_000)


def press_to_line_card(page: Any, key: str, shown: int) -> None:
    """Press ``key`` on the page until the table shows card ``shown``: a key pressed while the
    page is still drawn anew after a click can reach the copy being replaced (on a busy
    machine), and a person then presses it again; three presses at the most."""
    card = page.locator(f'input[type="range"][name="step"][value="{shown}"]')
    for _ in range(2):
        page.locator("h1").click()
        page.keyboard.press(key)
        try:
            card.wait_for(timeout=7_500)
            return
        except browser_api().Error:
            continue
    page.locator("h1").click()
    page.keyboard.press(key)
    wait_line_card(page, shown)


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1500, 1150)])
def test_fork_a_card_step_both_lines_save_it_and_find_it_again(
    width: int, height: int, tmp_path: Path, chromium: Any
) -> None:
    archive = tmp_path / "club.duckdb"
    build_archive(archive)
    comment = f"Lead the other card ({width} px)."
    with dashboard_served(archive) as address, browser_page(chromium) as page:
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{address}/replay?match={MATCH}&deal={DEAL}&step={STEP}")
        question = page.get_by_role("group", name="What if")
        question.wait_for(timeout=30_000)
        # fork: the first other card; the table shows its line from that card on
        other = question.get_by_role("button").first
        symbol = other.inner_text().strip()
        other.click()
        browser_api().expect(other).to_have_attribute("aria-pressed", "true", timeout=15_000)
        page.get_by_text("What if", exact=True).first.wait_for(timeout=15_000)
        compared = page.locator('table[data-name="whatif"]')
        compared.wait_for(timeout=15_000)
        assert compared.locator("tbody tr").count() == 7, "tricks 2 to 8 side by side"
        wait_line_card(page, 1)
        # the page's run after the click draws the choice anew: for a moment the old copy is there too
        browser_api().expect(question).to_have_count(1, timeout=15_000)
        question.scroll_into_view_if_needed()
        page.evaluate(NEXT_FRAME)  # the scroll drawn, rather than a fixed pause
        page.screenshot(path=str(ARTIFACTS / f"what-if-choice-{width}.png"))
        # step through the what-if line with the keys, as through the deal
        press_to_line_card(page, "ArrowRight", 2)
        page.keyboard.press("End")
        wait_line_card(page, 28)
        # and through the line after the card played
        page.get_by_text("as played: ", exact=False).first.click()
        page.get_by_text("As played", exact=True).wait_for(timeout=15_000)
        page.get_by_role("button", name="Forward").click()
        wait_line_card(page, 2)
        # save the what-if line as a variation with a comment
        page.get_by_text("Save this line as a variation", exact=True).click()
        page.get_by_label("Your name").fill("Coach Jan")
        page.get_by_label("Your name").press("Enter")
        page.get_by_label("Comment", exact=True).first.fill(comment)
        page.get_by_role("button", name="Save variation").click()
        page.get_by_text("Variation saved with your comment.").wait_for(timeout=15_000)
        page.get_by_text(f"variation {symbol}", exact=False).first.wait_for(timeout=15_000)
        page.wait_for_function(SETTLED_WITH_FONTS, timeout=30_000)  # the run over, not a fixed pause
        compared.scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / f"what-if-{width}.png"), full_page=True)
        # nothing runs off the side of a phone
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width + 1
    # a restart: the variation is the archive's, shown with its comment on the play
    with dashboard_served(archive) as address, browser_page(chromium) as page:
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{address}/replay?match={MATCH}&deal={DEAL}&step={STEP}")
        saved = page.get_by_text(f"Coach Jan: {comment} (variation {symbol})", exact=False)
        saved.first.wait_for(timeout=30_000)
        page.get_by_text("Variation:", exact=False).first.wait_for(timeout=15_000)
        # and a line to step through, its cards as saved
        page.get_by_text("variation by Coach Jan", exact=False).first.click()
        page.get_by_text(comment, exact=False).first.wait_for(timeout=15_000)
        wait_line_card(page, 1)
        press_to_line_card(page, "End", 28)
    # and in the records the archive exports
    out = tmp_path / "export.jsonl"
    exported = subprocess.run(
        [sys.executable, "-c", "from manillen_replay.cli import main; main()", "export",
         "--records", str(out), "--db", str(archive)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert exported.returncode == 0, exported.stderr
    record = next(json.loads(line) for line in out.read_text().splitlines() if f'"{MATCH}"' in line)
    (note,) = [n for n in record["deals"][DEAL - 1]["annotations"] if n.get("line")]
    assert (note["trick"], note["play"], note["author"], note["text"]) == (2, 1, "Coach Jan", comment)
    assert Card.parse(note["line"][0]).symbol == symbol and len(note["line"]) == 28


def test_fork_the_call_at_phone_size_and_step_its_line(tmp_path: Path, chromium: Any) -> None:
    """Before the first card the fork is another call: its line and the call made's side by side,
    in card points and deal score (``what-if-call-choice-390.png``: the table at the line's last
    card and the calls to choose from; ``what-if-call-390.png``: the two lines side by side)."""
    archive = tmp_path / "club.duckdb"
    build_archive(archive)
    width = 390
    with dashboard_served(archive) as address, browser_page(chromium) as page:
        page.set_viewport_size({"width": width, "height": 844})
        page.goto(f"{address}/replay?match={MATCH}&deal={DEAL}&step=0")
        question = page.get_by_role("group", name="had called instead of")
        question.wait_for(timeout=30_000)
        value = question.get_by_role("button").last.get_attribute("data-send")
        other = question.locator(f'button[data-send="{value}"]').first
        call = other.inner_text().strip()
        other.click()
        compared = page.locator('table[data-name="whatif"]')
        compared.wait_for(timeout=15_000)
        # the run after the click draws the choice anew: for a moment the old copy is there too
        browser_api().expect(question).to_have_count(1, timeout=15_000)
        pressed = question.locator('button[aria-pressed="true"]')
        browser_api().expect(pressed).to_have_attribute("data-send", value, timeout=15_000)
        assert compared.locator("tbody tr").count() == 8, "every trick from the first lead"
        page.get_by_text("In deal score", exact=False).first.wait_for(timeout=15_000)
        assert call in compared.locator("thead").inner_text()
        wait_line_card(page, 1)
        press_to_line_card(page, "End", 32)
        browser_api().expect(question).to_have_count(1, timeout=15_000)
        question.scroll_into_view_if_needed()
        page.evaluate(NEXT_FRAME)  # the scroll drawn, rather than a fixed pause
        page.screenshot(path=str(ARTIFACTS / f"what-if-call-choice-{width}.png"))
        compared.scroll_into_view_if_needed()
        page.evaluate(NEXT_FRAME)  # the scroll drawn, rather than a fixed pause
        page.screenshot(path=str(ARTIFACTS / f"what-if-call-{width}.png"))
        assert page.get_by_text("Save this line as a variation", exact=True).count() == 0
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width + 1


def test_the_line_the_table_shows_stays_chosen_when_the_language_changes(
    tmp_path: Path, chromium: Any
) -> None:
    """The browser sends a choice back as its words: after "Nederlands" the what-if line's English
    words matched no option, "De tafel toont" chose nothing and the board showed the game again."""
    archive = tmp_path / "club.duckdb"
    build_archive(archive)
    with dashboard_served(archive) as address, browser_page(chromium) as page:
        page.set_viewport_size({"width": 1500, "height": 1150})
        page.goto(f"{address}/replay?match={MATCH}&deal={DEAL}&step={STEP}")
        question = page.get_by_role("group", name="What if")
        question.wait_for(timeout=30_000)
        other = question.get_by_role("button").first
        other.click()
        browser_api().expect(other).to_have_attribute("aria-pressed", "true", timeout=15_000)
        wait_line_card(page, 1)
        shows = page.get_by_role("radiogroup", name="The table shows")
        chosen = shows.get_by_role("radio", checked=True)
        browser_api().expect(chosen).to_have_count(1, timeout=15_000)
        english = chosen.evaluate("input => input.closest('label').innerText").strip()
        assert english.startswith("what if")
        page.get_by_role("button", name="Nederlands").click()
        toont = page.get_by_role("radiogroup", name="De tafel toont")
        toont.wait_for(timeout=15_000)
        chosen = toont.get_by_role("radio", checked=True)
        browser_api().expect(chosen).to_have_count(1, timeout=15_000)
        dutch = chosen.evaluate("input => input.closest('label').innerText").strip()
        assert dutch != "het spel zoals gespeeld" and dutch != english, dutch
        wait_line_card(page, 1)  # the board still on the what-if line
        page.screenshot(path=str(ARTIFACTS / "what-if-nl-kept.png"))
