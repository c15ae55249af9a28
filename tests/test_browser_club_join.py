"""A club evening on the café's wifi, in a real browser: ``manillen dashboard --host 0.0.0.0``.

The organiser opens their join address on a phone and sets up twelve players on three tables;
the page shows each table's join address (a recorder's token for that table) with its QR code,
and the standings' (a viewer's token). Table 2's phone opens its join address, records a deal
there and is refused table 1's; the big screen's link opens the standings, and the SQL page's
address only says whose it is.
The time from opening the page to the three table links is written to tests/artifacts/ (a
figure for the notes, never asserted).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.record_bench import free_port, serving
from manillen_replay.access import TOKEN_ENVIRONMENT
from manillen_replay.evening import club_blocks
from manillen_replay.store import ArchiveLockedError, Store

from .test_browser import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, browser_api, dashboard_command
from .test_browser_record import PHONE, settle
from .test_dashboard_evening import TWELVE

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium: apt-get install -y chromium"),
]

ORGANISER = "organiser-of-the-club-evening"


@pytest.fixture(scope="module")
def networked_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """``manillen dashboard --host 0.0.0.0`` on an archive that does not exist yet."""
    archive = tmp_path_factory.mktemp("club-join") / "club.duckdb"
    port = free_port()
    command = [*dashboard_command(archive, port), "--host", "0.0.0.0"]
    with serving(command, port, {TOKEN_ENVIRONMENT: ORGANISER}) as address:
        yield address, archive


def saved_deals(path: Path) -> list[tuple[object, ...]]:
    """Each saved match's id and deals, once the dashboard has let go of the archive."""
    deadline = time.monotonic() + 30
    while True:
        try:
            with Store(path, read_only=True) as store:
                return [tuple(r) for r in store.query("SELECT match_id, deals FROM matches").iter_rows()]
        except ArchiveLockedError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def test_an_evening_on_the_wifi_from_the_organiser_s_phone(networked_server: tuple[str, Path]) -> None:
    server, archive = networked_server
    playwright_api = browser_api()
    expect = playwright_api.expect
    ARTIFACTS.mkdir(exist_ok=True)
    phone = {"viewport": PHONE, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=["--headless", *CHROMIUM_ARGS]
        )
        try:
            organiser = browser.new_context(**phone).new_page()
            began = time.monotonic()
            organiser.goto(f"{server}/organiser?token={ORGANISER}")
            names = organiser.locator(".st-key-organiser_players textarea")
            names.wait_for(timeout=30_000)
            names.fill("\n".join(TWELVE))
            organiser.locator(".st-key-organiser_venue input").fill("De Zwaan")
            deals = organiser.locator(".st-key-organiser_deals input")
            deals.fill("1")
            deals.press("Tab")
            organiser.locator(".st-key-organiser_start button").click()
            codes = organiser.locator("code", has_text=re.compile(r"/record\?draft=\w+&token="))
            expect(codes).to_have_count(3, timeout=60_000)
            took = time.monotonic() - began
            settle(organiser)
            (ARTIFACTS / "club-join-setup-seconds.txt").write_text(
                f"{took:.1f} s from opening the Organiser page (organiser's join address, a phone) to "
                "the three tables' join addresses (12 names pasted, venue typed, one deal a block, "
                "one tap), served with --host 0.0.0.0, by the browser\n",
                encoding="utf-8",
            )
            tables = [organiser.locator(f".st-key-organiser_table_1_{n}") for n in (1, 2, 3)]
            for table in tables:  # each table's QR code drawn, beside its join address
                expect(table.locator("img")).to_have_count(1)
                assert table.locator("img").evaluate("i => i.naturalWidth") > 0
            codes.first.scroll_into_view_if_needed()
            organiser.screenshot(path=str(ARTIFACTS / "club-join-organiser-phone.png"), full_page=True)
            links = [tables[n].locator("code").inner_text().strip() for n in range(3)]
            screen_link = organiser.locator(".st-key-organiser_standings_link code").inner_text().strip()
            assert "/standings?evening=" in screen_link and "token=" in screen_link
            with (ARTIFACTS / "club-join-setup-seconds.txt").open("a", encoding="utf-8") as notes:
                notes.write(f"the page was opened at {server}; its join addresses name {links[0][:30]}...\n")

            # table 2's phone: its join address, one scoresheet line saved
            table_phone = browser.new_context(**phone).new_page()
            table_phone.goto(links[1])
            table_phone.get_by_text("Scoresheet line", exact=True).click()
            table_phone.locator(".st-key-record_sheet_save button").wait_for(timeout=30_000)
            assert "token=" not in table_phone.url
            settle(table_phone)
            first_block = club_blocks(TWELVE[4:8])[0]
            side = f"{first_block[0]} & {first_block[2]}"
            table_phone.locator("[class*=st-key-record_sheet_team_]").get_by_text(side, exact=True).click()
            points = table_phone.locator("[class*=st-key-record_sheet_points_] input")
            points.fill("23")
            points.press("Tab")
            settle(table_phone)
            table_phone.locator(".st-key-record_sheet_save button").click()
            expect(table_phone.get_by_text(re.compile(r"Deal 1 is saved"))).to_be_visible(timeout=60_000)
            # table 1's address, without its token: this phone's token is table 2's
            table_phone.goto(links[0].split("&token=")[0])
            expect(table_phone.get_by_text("another table's").first).to_be_visible(timeout=30_000)
            settle(table_phone)
            assert table_phone.locator(".st-key-record_sheet_save button").count() == 0

            # the big screen: the standings, not the SQL page
            screen = browser.new_context(viewport={"width": 1600, "height": 900}).new_page()
            screen.goto(screen_link)
            screen.locator(".standings-table").wait_for(timeout=30_000)
            settle(screen)
            assert "Els" in screen.locator(".standings-table").inner_text()
            assert screen.locator('[data-testid="stSidebarNavLink"]').count() > 0  # let in, then
            # the same host as the link (a page opened on 127.0.0.1 hands out the network address)
            screen.goto(screen_link.split("/standings?")[0] + "/sql")
            settle(screen)
            refusal = screen.get_by_text("The SQL console is the organiser's only.")
            expect(refusal).to_be_visible(timeout=30_000)
            expect(screen.get_by_role("textbox", name="Query")).to_have_count(0)
            expect(screen.get_by_text("Page not found")).to_have_count(0)  # the page is there: it says whose
            assert not screen.locator('[data-testid="stSidebarNavLink"][href$="/sql"]').count()
        finally:
            browser.close()
    [(match_id, deals)] = saved_deals(archive)
    assert deals == 1 and str(match_id).endswith("t2")
