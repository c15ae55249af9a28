"""A club evening in a real browser: the dashboard served with ``--host``, opened by join addresses.

Starts ``manillen dashboard --host 0.0.0.0`` with a recorder's token for table 1 issued through
``manillen tokens``, and a draft at each of tables 1 and 2. A phone without a token gets the
refusal page; the recorder's join address opens the Record page, leaves the token out of the
address bar, offers no SQL page, resumes table 1's draft and refuses table 2's.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from bench.record_bench import free_port, serving
from dashboards import drafts
from dashboards import recording as rec
from manillen_replay.access import TOKEN_ENVIRONMENT

from .test_browser import CHROMIUM
from .test_browser_record import settle
from .test_dashboard import build_archive

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium: apt-get install -y chromium"),
]

MANILLEN = [sys.executable, "-c", "from manillen_replay.cli import main; main()"]
SEATS = ["Anna", "Bert", "Carla", "Dirk"]


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    archive = tmp_path_factory.mktemp("club") / "club.duckdb"
    build_archive(archive)
    folder = drafts.folder(archive)
    drafts.save(rec.new_draft("aaaa1111", rec.Setup("table-one-match", SEATS, table="1")), folder)
    drafts.save(rec.new_draft("bbbb2222", rec.Setup("table-two-match", SEATS, table="2")), folder)
    issued = subprocess.run(
        [*MANILLEN, "tokens", "issue", "recorder", "--table", "1", "--db", str(archive)],
        capture_output=True,
        text=True,
        check=True,
    )
    port = free_port()
    command = [*MANILLEN, "dashboard", "--db", str(archive), "--port", str(port), "--host", "0.0.0.0"]
    with serving(command, port, {TOKEN_ENVIRONMENT: "organiser-of-the-browser-test"}) as address:
        yield {"address": address, "recorder": issued.stdout.strip()}


def test_a_recorder_s_phone_records_its_own_table_only(club: dict[str, str], chromium: Any) -> None:
    playwright_api = pytest.importorskip("playwright.sync_api")
    expect = playwright_api.expect
    address = club["address"]
    stranger = chromium.new_page()
    answer = stranger.goto(f"{address}/record?draft=aaaa1111")
    assert answer is not None and answer.status == 403
    assert "open to the club only" in stranger.content() and "table-one-match" not in stranger.content()

    page = chromium.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(f"{address}/record?token={club['recorder']}")
    expect(page.get_by_text("Record a match").first).to_be_visible(timeout=30_000)
    settle(page)
    assert "token=" not in page.url  # moved into the cookie
    cookies = page.context.cookies()
    assert any(c["name"].startswith("manillen_token_") and c["httpOnly"] for c in cookies)
    # the drafts offered: the table's own, once the page's run has drawn them (on a busy machine
    # the run that reads the cookie can still be under way when the title is there)
    page.wait_for_function(
        "() => document.documentElement.innerHTML.includes('table-one-match')", timeout=30_000
    )
    settle(page)
    assert "table-two-match" not in page.content()
    page.goto(f"{address}/sql")
    settle(page)
    expect(page.get_by_role("textbox", name="Query")).to_have_count(0)
    assert not page.locator('[data-testid="stSidebarNavLink"][href$="/sql"]').count()

    page.goto(f"{address}/record?draft=bbbb2222")
    expect(page.get_by_text("another table's").first).to_be_visible(timeout=30_000)
    settle(page)
    assert "table-two-match" not in page.content()
    page.goto(f"{address}/record?draft=aaaa1111")
    expect(page.get_by_text("table-one-match").first).to_be_visible(timeout=30_000)


def test_the_refusal_needs_no_script_and_names_no_archive(club: dict[str, str]) -> None:
    """What a stranger gets is the gate's own few lines, not Streamlit's page."""
    import urllib.error
    import urllib.request

    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{club['address']}/", timeout=10)
    body = refused.value.read().decode()
    assert refused.value.code == 403 and "<script" not in body and "club.duckdb" not in body


def test_the_organiser_s_join_address_opens_the_sql_console(club: dict[str, str], chromium: Any) -> None:
    playwright_api = pytest.importorskip("playwright.sync_api")
    expect = playwright_api.expect
    page = chromium.new_page()
    page.goto(f"{club['address']}/sql?token=organiser-of-the-browser-test")
    expect(page.get_by_role("textbox", name="Query")).to_be_visible(timeout=30_000)
    assert "token=" not in page.url
