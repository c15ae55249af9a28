"""The dashboard's background review in a real browser: a match uploaded on the Archive page and a
deal saved on the Record page are reviewed by the solver while the dashboard serves, and their
Match page turns to "Review ready" with the biggest mistakes, without a reload.

Starts ``manillen dashboard`` with its review on (``bench.pages.dashboard(review=True)``) and
drives Debian's Chromium with Playwright through the steps of ``bench/review_bench.py``.
Screenshots land in tests/artifacts/ for a person to look at; the seconds are written beside
them (never asserted: the machine is shared).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.pages import dashboard
from bench.record_bench import deal_cards
from bench.review_bench import record_and_review, settle, upload_and_review, wait_review_idle
from manillen_replay.record import dumps

from .factories import random_record
from .test_browser import ARTIFACTS, kept_port
from .test_dashboard_review import build

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def reviewing_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``manillen dashboard`` with its background review, on an archive of one short match (the
    upload and the recorded deal bring two more, each reviewed after the one before)."""
    archive = tmp_path_factory.mktemp("review") / "club.duckdb"
    build(archive, count=1)
    with dashboard(archive, kept_port(), review=True) as address:
        yield address


MISTAKES_BEFORE_DEALS = """() => {
    const headers = [...document.querySelectorAll('h3')].map((header) => header.innerText.trim());
    const mistakes = headers.indexOf('The biggest mistakes');
    return mistakes >= 0 && headers.indexOf('Deals') > mistakes;
}"""
"""True once the Match page shows its heading "The biggest mistakes" above its "Deals"."""


def under_way(page: object) -> None:
    """A screenshot of the Match page while the review runs, when it is caught running."""
    try:
        page.get_by_text(re.compile(r"reviewing this match: deal \d of 4")).wait_for(timeout=15_000)  # type: ignore[attr-defined]
    except Exception:  # reviewed already: nothing to show
        return
    page.screenshot(path=str(ARTIFACTS / "review-match-under-way.png"))  # type: ignore[attr-defined]


def test_an_upload_and_a_recorded_deal_are_reviewed_without_a_reload(
    reviewing_server: str, tmp_path: Path, chromium: Any
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page = chromium.new_page(viewport={"width": 1400, "height": 1000})
    # the match there at the start is reviewed in the background
    idle = wait_review_idle(page, reviewing_server)
    settle(page)
    page.screenshot(path=str(ARTIFACTS / "review-archive-idle.png"))
    record = random_record(11, 4)
    record.match.id = "uploaded-4"
    uploaded = upload_and_review(
        page,
        reviewing_server,
        tmp_path,
        "uploaded-4",
        dumps(record, pretty=False).encode(),
        meanwhile=under_way,
    )
    assert page.get_by_text("Review ready").count() == 1
    boxes = page.locator('[class*="st-key-match_mistake_"]')
    assert 1 <= boxes.count() <= 3
    # the mistakes first, before the deals; read in one look at the page, which may still be
    # drawing its lower part when "Review ready" shows, or be run again (an h3 read between
    # two runs can be missing)
    page.wait_for_function(MISTAKES_BEFORE_DEALS, timeout=30_000)
    link = page.get_by_role("link", name="Show in the Deal replay").first
    assert "match=uploaded-4" in (link.get_attribute("href") or "")
    settle(page)
    page.screenshot(path=str(ARTIFACTS / "review-match-uploaded.png"))
    link.click()
    page.locator(".mr-trick").wait_for(timeout=30_000)
    assert re.search(r"[?&]step=\d+", page.url) and "deal=" in page.url
    # a deal recorded by taps: its match reviewed after the save, the page turning by itself
    trump, cards = deal_cards()
    recorded = record_and_review(page, reviewing_server, trump, cards)
    page.goto(f"{reviewing_server}/match?match={recorded['match']}")
    page.get_by_text("Review ready").wait_for(timeout=60_000)
    settle(page)
    page.screenshot(path=str(ARTIFACTS / "review-match-recorded.png"), full_page=True)
    page.goto(f"{reviewing_server}/match?match={recorded['match']}&lang=nl")
    page.get_by_text("Controle klaar").wait_for(timeout=60_000)
    # its costliest decision, or (a deal of sound cards) the words that none was found
    page.locator(".st-key-match_mistake_1").or_(
        page.get_by_text("Geen fouten gevonden in deze partij.")
    ).wait_for(timeout=30_000)
    settle(page)
    page.screenshot(path=str(ARTIFACTS / "review-match-recorded-nl.png"))
    page.set_viewport_size({"width": 390, "height": 844})  # a phone at the table
    page.goto(f"{reviewing_server}/match?match=uploaded-4")
    page.locator(".st-key-match_mistake_1").wait_for(timeout=30_000)
    settle(page)
    page.screenshot(path=str(ARTIFACTS / "review-match-phone.png"), full_page=True)
    (ARTIFACTS / "review-timing.txt").write_text(
        f"review idle after {idle:.1f} s on the Archive page; upload of 4 deals: imported "
        f"{uploaded['imported']:.2f} s, review ready {uploaded['ready']:.2f} s after the click; "
        f"recorded deal: saved {recorded['saved']:.2f} s, review ready {recorded['ready']:.2f} s "
        "after the click\n"
    )
