"""A club's saved rules chosen on the Record page in a real browser at phone size (390x844).

Starts ``manillen dashboard`` on an archive holding a club's rules, chooses them in the new
match's **Club rules** select (the browser's own), and starts the match: the target shown is the
club's, and the club's cafe rule (en face) is a call at the table. A screenshot of the set-up
lands in tests/artifacts/ for a person to look at.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.record_bench import type_seat_names
from dashboards import drafts
from manillen_replay.rules import Rules
from manillen_replay.store import Store

from .factories import SEATS
from .test_browser import ARTIFACTS, CHROMIUM, dashboard_served
from .test_browser_record import PHONE, settle

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium: apt-get install -y chromium"),
]

ZWAAN = Rules(en_face=True, target=151, capot="double")


@pytest.fixture(scope="module")
def club_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    archive = tmp_path_factory.mktemp("browser-club") / "club.duckdb"
    with Store(archive) as store:
        store.save_club_rules("De Zwaan", ZWAAN)
    with dashboard_served(archive) as address:
        yield address, archive


def test_choose_a_clubs_rules_for_a_new_match_on_a_phone(
    club_server: tuple[str, Path], chromium: Any
) -> None:
    playwright_api = pytest.importorskip("playwright.sync_api")
    expect = playwright_api.expect
    server, archive = club_server
    ARTIFACTS.mkdir(exist_ok=True)
    page = chromium.new_page(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page.goto(f"{server}/record")
    type_seat_names(page, SEATS)
    club = page.locator('select[name="club"]')
    expect(club.locator("option")).to_have_text(["Standard rules", "De Zwaan"], timeout=15_000)
    club.select_option("De Zwaan")
    target = page.locator('input[name="target_club-de-zwaan"]')
    expect(target).to_have_value("151", timeout=15_000)  # the club's, shown to change
    start = page.locator(".st-key-record_start button")
    expect(start).to_be_enabled(timeout=15_000)
    settle(page)
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= PHONE["width"], f"the set-up is {wide} px wide on a {PHONE['width']} px phone"
    start.scroll_into_view_if_needed()  # the club's select, the house rules and the target
    page.screenshot(path=str(ARTIFACTS / "record-phone-club-rules.png"))
    start.click()
    expect(page.locator(".st-key-record_en_face button")).to_be_visible(timeout=30_000)
    draft_id = page.url.split("draft=")[1].split("&")[0]
    draft = drafts.load(draft_id, drafts.folder(archive))
    assert draft is not None and draft.setup.rules_value() == ZWAAN


def test_upload_a_file_with_a_clubs_rules_on_the_archive_page(
    club_server: tuple[str, Path], tmp_path: Path, chromium: Any
) -> None:
    """The Archive page's upload, Club rules chosen: the match naming no rules is kept with the
    club's, and the summary says so."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    expect = playwright_api.expect
    server, archive = club_server
    upload = tmp_path / "seed.json"
    upload.write_bytes(
        (Path(__file__).resolve().parent.parent / "data" / "samples" / "seed-trick.json").read_bytes()
    )
    page = chromium.new_page(viewport={"width": 1200, "height": 900})
    page.goto(f"{server}/archive")
    choice = page.get_by_role("combobox", name="Club rules")
    expect(choice).to_have_value("None: each match's own rules", timeout=30_000)
    choice.click()
    page.get_by_role("option", name="De Zwaan").click()
    expect(choice).to_have_value("De Zwaan", timeout=15_000)
    page.locator('input[type="file"]').set_input_files(str(upload))
    page.locator(".st-key-archive_import button").click(timeout=30_000)
    expect(page.get_by_text("seed.json: 1 imported")).to_be_visible(timeout=60_000)
    with Store(archive, read_only=True) as store:
        [(rules,)] = store.query("SELECT rules FROM matches WHERE match_id = 'seed-trick'").rows()
    assert Rules.from_options(json.loads(rules)) == ZWAAN
