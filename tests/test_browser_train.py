"""The Train page in a real browser (Chromium via Playwright), on a phone (390x844) and a desktop:
three puzzles solved, the first one wrong, and the wrong one comes back after the other two.

The archive is test_puzzles.py's (three random matches costed by the solver), copied for each
screen so that each starts with no answers. Screenshots land in tests/artifacts/ for a person to
look at.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from manillen_replay.analysis.puzzles import Puzzle, make_puzzles
from manillen_replay.cards import Card, Suit
from manillen_replay.store import Store

from .test_browser import ARTIFACTS, SETTLED_WITH_FONTS, dashboard_served
from .test_puzzles import build_costed, on_the_page, trainee

pytestmark = pytest.mark.browser

SCREENS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1500, "height": 1150}}


@pytest.fixture(scope="module")
def costed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_costed(tmp_path_factory.mktemp("train") / "club.duckdb")


@pytest.fixture
def server(costed: Path, tmp_path: Path) -> Iterator[str]:
    archive = tmp_path / "club.duckdb"
    shutil.copy(costed, archive)
    with dashboard_served(archive) as address:
        yield address


def shown_puzzle(page: Any, puzzles: list[Puzzle], other_than: str = "") -> Puzzle:
    """The puzzle on the page, found by the source it names and its question, once it is another
    than ``other_than`` (a rerun draws the new title and source one after the other)."""
    for _ in range(60):
        caption = page.get_by_text("From match").first
        caption.wait_for(timeout=30_000)
        title = page.locator("h3").filter(has_text="Puzzle ").first.inner_text()
        try:
            found = on_the_page(puzzles, caption.inner_text(), title)
        except StopIteration:
            found = None
        if found is not None and found.puzzle_id != other_than:
            return found
        page.wait_for_timeout(250)
    raise AssertionError(f"no new puzzle on the page after {other_than}")


def pill(page: Any, option: str) -> Any:
    """The answer's button: a card by its symbol (``9♣``), a trump call by its suit's symbol and
    name (``♥ harten``), a knock or muil by its words."""
    if option in Suit.__members__:
        label = rf"{re.escape(Suit[option].symbol)}\s*\w+"
    else:
        words = {"klop": "klop", "no klop": "no klop", "muil": "muil"}
        label = re.escape(words.get(option) or Card.parse(option).symbol)
    # Streamlit's pills are buttons with another role: found by their exact text
    return page.locator("button").filter(has_text=re.compile(f"^{label}$"))


@pytest.mark.parametrize("screen", list(SCREENS))
def test_three_puzzles_one_wrong_and_the_wrong_one_comes_back(
    costed: Path, server: str, screen: str, chromium: Any
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    name = trainee(costed)
    with Store(costed, read_only=True) as store:
        puzzles = make_puzzles(store.puzzle_rows(player=name), player=name)
    page = chromium.new_page(viewport=SCREENS[screen], has_touch=screen == "phone")
    page.goto(f"{server}/train?player={name}")
    new = page.get_by_label("New puzzles left this session")
    new.wait_for(timeout=30_000)
    new.fill("3")
    new.press("Enter")
    page.get_by_text("Puzzle 1:").wait_for(timeout=15_000)
    page.wait_for_function(SETTLED_WITH_FONTS, timeout=30_000)  # the run over, not a fixed pause
    seen = []
    for turn in range(3):
        puzzle = shown_puzzle(page, puzzles, seen[-1] if seen else "")
        seen.append(puzzle.puzzle_id)
        page.locator(".mr-table").wait_for(timeout=15_000)
        if turn == 0:
            page.screenshot(path=str(ARTIFACTS / f"train-{screen}-puzzle.png"), full_page=True)
        if puzzle.kind.value == "trump":  # its suits drawn once each: "♥ harten", not "♥ ♥ harten"
            page.screenshot(path=str(ARTIFACTS / f"train-{screen}-trump.png"), full_page=True)
        if puzzle.kind.is_drill:
            for card in [] if turn == 0 else sorted(puzzle.answers):
                pill(page, card).click()
            page.get_by_role("button", name="Check").click()
        else:
            wrong = next(o for o in puzzle.options if o not in puzzle.answers)
            pill(page, wrong if turn == 0 else sorted(puzzle.answers)[0]).click()
        verdict = "Not this time" if turn == 0 else "Right!"
        page.get_by_text(verdict).wait_for(timeout=15_000)
        if turn == 0:
            page.wait_for_function(SETTLED_WITH_FONTS, timeout=30_000)  # the run over, not a fixed pause
            page.screenshot(path=str(ARTIFACTS / f"train-{screen}-wrong.png"), full_page=True)
        page.get_by_role("button", name="Next puzzle").click()
        page.get_by_text(f"Puzzle {turn + 2}:").wait_for(timeout=15_000)
    page.get_by_text("Missed earlier: here it is again.").wait_for(timeout=15_000)
    assert shown_puzzle(page, puzzles, seen[-1]).puzzle_id == seen[0]
    assert len(set(seen)) == 3
    # the hidden hands are face down: only the player's own cards are drawn in the hands
    drawn = page.locator(".mr-hand [data-card]").evaluate_all("cards => cards.map(c => c.dataset.card)")
    first = next(p for p in puzzles if p.puzzle_id == seen[0])
    assert set(drawn) == {str(c) for c in first.hand}
    assert page.locator(".mr-back").count() == sum(first.held) - len(first.hand)
    # nothing wider than the screen on a phone
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= SCREENS[screen]["width"]
    page.wait_for_function(SETTLED_WITH_FONTS, timeout=30_000)  # the run over, not a fixed pause
    page.screenshot(path=str(ARTIFACTS / f"train-{screen}-again.png"), full_page=True)
