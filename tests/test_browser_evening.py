"""A club evening in a real browser: the organiser sets it up on a phone, four phones (four
browser contexts) record four tables at once, their saves sent at the same moment.

Starts ``manillen dashboard`` on a new archive as tests/test_browser.py does. Every table records
scoresheet lines (one deal a block, so a table's three blocks are three lines); after each round
of saves every phone must say its deal is saved, and table 1's phone drops after the first and
a new one carries on from its link. Then the archive must hold every deal once,
and the Standings page must show what the lines typed make (worked out here from the lines,
not by the page's query). The set-up's time is written to tests/artifacts/ (a figure for the
notes, never asserted).
"""

from __future__ import annotations

import random
import re
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from manillen_replay.evening import club_blocks
from manillen_replay.store import ArchiveLockedError, Store

from .test_browser import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, browser_api, dashboard_served
from .test_browser_record import PHONE, settle

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium: apt-get install -y chromium"),
]

SIXTEEN = [
    "Anna", "Bert", "Carla", "Dirk", "Els", "Frans", "Griet", "Hendrik",
    "Ilse", "Jan", "Katrien", "Luc", "Mieke", "Noah", "Olivia", "Pieter",
]  # fmt: skip
TABLES = 4


@pytest.fixture(scope="module")
def club_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """``manillen dashboard`` on an archive that does not exist yet; its address and file."""
    archive = tmp_path_factory.mktemp("evening") / "club.duckdb"
    with dashboard_served(archive) as address:
        yield address, archive


def expected_standings(lines: dict[int, list[tuple[int, int]]]) -> dict[str, tuple[int, int]]:
    """Blocks won and points per player from each table's lines (one line a block)."""
    won: Counter[str] = Counter()
    points: Counter[str] = Counter()
    for table, table_lines in lines.items():
        four = SIXTEEN[4 * (table - 1) : 4 * table]
        for seating, (team, scored) in zip(club_blocks(four), table_lines, strict=True):
            for name in seating[team::2]:
                won[name] += 1
                points[name] += scored
    return {name: (won[name], points[name]) for name in SIXTEEN}


def read_archive(path: Path, sql: str) -> list[tuple[object, ...]]:
    """Rows from the archive, once the dashboard has let go of it (it does when idle)."""
    deadline = time.monotonic() + 30
    while True:
        try:
            with Store(path, read_only=True) as store:
                return [tuple(row) for row in store.query(sql).iter_rows()]
        except ArchiveLockedError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def test_four_phones_record_four_tables_at_once(club_server: tuple[str, Path]) -> None:
    server, archive = club_server
    playwright_api = browser_api()
    expect = playwright_api.expect
    ARTIFACTS.mkdir(exist_ok=True)
    rng = random.Random(32)
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=["--headless", *CHROMIUM_ARGS]
        )
        try:
            phone = {"viewport": PHONE, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
            # the organiser, on a phone: paste the names, one deal a block, set up
            organiser = browser.new_context(**phone).new_page()
            began = time.monotonic()
            organiser.goto(f"{server}/organiser")
            names = organiser.locator(".st-key-organiser_players textarea")
            names.wait_for(timeout=30_000)
            names.fill("\n".join(SIXTEEN))
            organiser.locator(".st-key-organiser_venue input").fill("De Zwaan")
            deals = organiser.locator(".st-key-organiser_deals input")
            deals.fill("1")
            deals.press("Tab")
            names.press("Tab")
            organiser.locator(".st-key-organiser_start button").click()
            codes = organiser.locator("code", has_text="record?draft=")
            expect(codes).to_have_count(TABLES, timeout=60_000)
            settled_after = time.monotonic() - began
            settle(organiser)
            codes.first.scroll_into_view_if_needed()  # the tables, not the form above them
            organiser.screenshot(path=str(ARTIFACTS / "evening-organiser-phone.png"), full_page=True)
            links = [codes.nth(i).inner_text().strip() for i in range(TABLES)]
            # served on this computer only (127.0.0.1): the page says the addresses are no use to
            # another phone, and how to serve the café's network (the phones here are this computer's)
            warning = organiser.get_by_text("This dashboard is served on this computer only", exact=False)
            expect(warning).to_be_visible()
            (ARTIFACTS / "evening-setup-seconds.txt").write_text(
                f"{settled_after:.1f} s from opening the Organiser page to {TABLES} table links "
                "(16 names pasted, venue typed, one deal a block, one tap), by the browser\n",
                encoding="utf-8",
            )
            # four phones, one per table, each in its own browser context (its own session)
            phones = [browser.new_context(**phone).new_page() for _ in range(TABLES)]
            for page, link in zip(phones, links, strict=True):
                page.goto(link)
                page.get_by_text("Scoresheet line", exact=True).click()
                page.locator(".st-key-record_sheet_save button").wait_for(timeout=30_000)
            lines: dict[int, list[tuple[int, int]]] = {table: [] for table in range(1, TABLES + 1)}
            all_saved: list[float] = []
            for deal in range(1, 4):
                for table, page in enumerate(phones, start=1):
                    team, scored = rng.randrange(2), rng.randint(1, 40)
                    lines[table].append((team, scored))
                    settle(page)
                    seating = club_blocks(SIXTEEN[4 * (table - 1) : 4 * table])[deal - 1]
                    side = f"{seating[team]} & {seating[team + 2]}"  # the block's partners, by name
                    page.locator("[class*=st-key-record_sheet_team_]").get_by_text(side, exact=True).click()
                    box = page.locator("[class*=st-key-record_sheet_points_] input")
                    box.fill(str(scored))
                    box.press("Tab")
                    settle(page)
                # the four saves at the same moment: each click is sent without waiting for its page
                clicked = time.monotonic()
                for page in phones:
                    page.locator(".st-key-record_sheet_save button").click(no_wait_after=True)
                for page in phones:
                    expect(page.get_by_text(re.compile(rf"Deal {deal} is saved"))).to_be_visible(
                        timeout=60_000
                    )
                all_saved.append(time.monotonic() - clicked)
                if deal == 1:
                    # table 1's phone drops (its browser context closed); a new one opens the link
                    phones[0].context.close()
                    phones[0] = browser.new_context(**phone).new_page()
                    phones[0].goto(links[0])
                    expect(phones[0].get_by_text(re.compile(r"Deal 2 · "))).to_be_visible(timeout=30_000)
                    phones[0].get_by_text("Scoresheet line", exact=True).click()
                    phones[0].locator(".st-key-record_sheet_save button").wait_for(timeout=30_000)
            phones[0].screenshot(path=str(ARTIFACTS / "evening-table-phone.png"), full_page=True)
            with (ARTIFACTS / "evening-setup-seconds.txt").open("a", encoding="utf-8") as notes:
                shown = ", ".join(f"{seconds:.1f}" for seconds in all_saved)
                notes.write(f"four saves sent at once, until all four phones said saved: {shown} s\n")
            # the standings, on a big screen
            screen = browser.new_context(viewport={"width": 1600, "height": 900}).new_page()
            screen.goto(organiser.url.replace("/organiser", "/standings"))
            screen.locator(".standings-table").wait_for(timeout=30_000)
            settle(screen)
            screen.screenshot(path=str(ARTIFACTS / "evening-standings.png"), full_page=True)
            rows = screen.locator(".standings-table tbody tr").evaluate_all(
                "rows => rows.map(r => Array.from(r.cells, c => c.innerText))"
            )
            # on a phone, in Dutch (the longest headers): the table scrolls in its own box, and the
            # page does not slide sideways
            small = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
            small.goto(organiser.url.replace("/organiser", "/standings") + "&lang=nl")
            small.locator(".standings-table").wait_for(timeout=30_000)
            settle(small)
            small.screenshot(path=str(ARTIFACTS / "evening-standings-390-nl.png"), full_page=True)
            assert small.evaluate("() => document.documentElement.scrollWidth") <= 390
        finally:
            browser.close()
    shown = {row[1]: (int(row[2]), int(row[3])) for row in rows}
    assert shown == expected_standings(lines)
    order = [(-int(row[2]), -int(row[3])) for row in rows]
    assert order == sorted(order)
    # every deal in the archive once: three per table, one save each
    assert read_archive(archive, "SELECT count(*), count(DISTINCT (match_id, deal)) FROM deals") == [(12, 12)]
    assert read_archive(archive, "SELECT count(*) FROM matches WHERE deals = 3") == [(TABLES,)]
    assert read_archive(archive, "SELECT count(*), count(DISTINCT save_id) FROM saves") == [(12, 12)]
