"""The Organiser page served on a network: each table's join address with its recorder's token,
the standings' with a viewer's, their QR codes, and the tokens listed with a revoke button each.

The session's token is set as tests/test_access.py does; what a link's token opens is asked of
the server's own gate (the one the middleware asks), never read back from the page's labels.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from streamlit.testing.v1 import AppTest

from dashboards import access, data, evenings
from manillen_replay.access import REQUIRED_ENVIRONMENT, TOKEN_ENVIRONMENT, Role, Visitor, issue, token_file
from manillen_replay.evening import Evening

from .test_dashboard import texts
from .test_dashboard_evening import TWELVE, page, set_up

ORGANISER = "organiser-of-the-club-links"
"""The organiser's token of the served archive (long enough to open it: manillen_replay.access.TOKEN_MIN)."""


@pytest.fixture
def networked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    """An archive that does not exist yet, served to the club: tokens asked, the organiser's
    session (``state["token"]`` is the session's token)."""
    path = tmp_path / "club.duckdb"
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(path))
    monkeypatch.setenv(REQUIRED_ENVIRONMENT, "token")
    monkeypatch.setenv(TOKEN_ENVIRONMENT, ORGANISER)
    state: dict[str, Any] = {"token": ORGANISER, "path": path}
    monkeypatch.setattr(access, "session_token", lambda: state["token"])
    yield state
    data.archive().close()


def join_addresses(at: AppTest) -> list[str]:
    """The join addresses the page shows (its code blocks that carry a token)."""
    return [c.value for c in at.code if "token=" in c.value]


def opened_by(address: str) -> tuple[str, dict[str, str], Visitor | None]:
    """A join address's page, its other parameters, and who its token lets in."""
    parts = urlsplit(address)
    query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
    token = query.pop("token")
    return parts.path.rsplit("/", 1)[-1], query, access.server_gate().visitor(token)


def qr_codes(at: AppTest) -> list[str]:
    """The SVG pictures the page shows."""
    prefix = "data:image/svg+xml;base64,"
    urls = [str(img.url) for image in at.get("image") for img in image.proto.imgs]
    return [base64.b64decode(url[len(prefix) :]).decode() for url in urls if url.startswith(prefix)]


def the_evening() -> Evening:
    evening = evenings.load(evenings.evening_ids()[0])
    assert evening is not None
    return evening


def test_each_table_s_link_carries_its_own_recorder_s_token(networked: dict[str, Any]) -> None:
    at = set_up("\n".join(TWELVE))
    evening = the_evening()
    addresses = join_addresses(at)
    tables = {}
    for address in addresses:
        path, query, visitor = opened_by(address)
        if path == "record":
            assert visitor is not None and visitor.role is Role.RECORDER
            tables[visitor.table] = query["draft"]
    assert tables == {t.key: evenings.draft_id_of(t) for t in evening.tables} and len(tables) == 3
    standings = [opened_by(a) for a in addresses if "/standings?" in a]
    assert standings == [("standings", {"evening": evening.evening_id}, Visitor(Role.VIEWER))]
    organiser = [opened_by(a) for a in addresses if urlsplit(a).path.endswith("/")]
    assert [visitor for *_, visitor in organiser] == [Visitor(Role.ORGANISER)]
    # a QR code of each join address: three tables, the standings, the organiser's own
    assert sorted(qr_codes(at)) == sorted(access.qr_svg(a, scale=5) for a in addresses)
    assert len(addresses) == 5
    # the tables' QR codes on one page to print
    assert any(str(b.proto.id).endswith("-organiser_print_sheet") for b in at.get("download_button"))
    # the issued tokens, listed with a revoke button each and one per table
    keys = [str(b.key) for b in at.button]
    assert sum(k.startswith("organiser_revoke_table_") for k in keys) == 3
    assert sum(k.startswith("organiser_revoke_") and "table" not in k for k in keys) == 4
    # each key as code, not its backticks written out; the notes in the page's language
    lines = [m.value for m in at.markdown if "recorder of table" in m.value or " · viewer · " in m.value]
    first = next(e for e in access.issued_tokens() if e.table == "1")
    escaped = evening.evening_id.replace("-", "\\-")  # markdown_text's escape of each hyphen
    assert f"`{first.key}` · recorder of table 1 · evening {escaped}, table 1" in lines
    at.session_state["lang"] = "nl"
    dutch = [m.value for m in at.run().markdown if "opnemer van tafel 1" in m.value]
    assert dutch == [f"`{first.key}` · opnemer van tafel 1 · avond {escaped}, tafel 1"]


def test_revoking_ends_a_table_s_link_and_a_new_one_opens_it(networked: dict[str, Any]) -> None:
    at = set_up("\n".join(TWELVE))
    before = {opened_by(a)[2]: a for a in join_addresses(at)}
    second = before[Visitor(Role.RECORDER, "2")]
    [entry] = [e for e in access.issued_tokens() if e.table == "2"]
    at.button(key=f"organiser_revoke_{entry.key}").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert opened_by(second)[2] is None
    assert opened_by(before[Visitor(Role.RECORDER, "1")])[2] == Visitor(Role.RECORDER, "1")
    assert not any(opened_by(a)[2] == Visitor(Role.RECORDER, "2") for a in join_addresses(at))
    at.button(key="organiser_new_link_2").click().run()
    assert not at.exception, [e.value for e in at.exception]
    renewed = [a for a in join_addresses(at) if opened_by(a)[2] == Visitor(Role.RECORDER, "2")]
    assert len(renewed) == 1 and renewed[0] != second
    # a table at once: every recorder's token of table 3
    third = before[Visitor(Role.RECORDER, "3")]
    issue(token_file(networked["path"].resolve()), Role.RECORDER, "3", "a second phone")
    at.button(key="organiser_revoke_table_3").click().run()
    assert opened_by(third)[2] is None
    assert not [e for e in access.issued_tokens() if e.table == "3"]


def test_a_new_evening_ends_the_last_evening_s_links(networked: dict[str, Any]) -> None:
    first = join_addresses(set_up("\n".join(TWELVE)))
    assert len({opened_by(a)[2] for a in first} - {Visitor(Role.ORGANISER), None}) == 4
    kept, _ = issue(token_file(networked["path"].resolve()), Role.VIEWER, note="the bar's screen")
    again = join_addresses(set_up("\n".join(TWELVE[4:] + TWELVE[:4])))
    assert {opened_by(a)[2] for a in first} == {Visitor(Role.ORGANISER), None}
    now = {opened_by(a)[2] for a in again}
    assert now == {Visitor(Role.ORGANISER), Visitor(Role.VIEWER), *(Visitor(Role.RECORDER, n) for n in "123")}
    assert access.server_gate().visitor(kept) == Visitor(Role.VIEWER)  # issued by hand: left alone


def test_a_new_session_shows_no_old_token_but_offers_a_new_link(networked: dict[str, Any]) -> None:
    old = {opened_by(a)[2]: a for a in join_addresses(set_up("\n".join(TWELVE)))}
    at = page("organiser")
    assert [opened_by(a)[2] for a in join_addresses(at)] == [Visitor(Role.ORGANISER)]
    assert "can be shown only once" in texts(at)
    at.button(key="organiser_new_link_1").click().run()
    [renewed] = [a for a in join_addresses(at) if "/record?" in a]
    assert opened_by(renewed)[2] == Visitor(Role.RECORDER, "1")
    assert opened_by(old[Visitor(Role.RECORDER, "1")])[2] is None  # ended by its new link
    assert opened_by(old[Visitor(Role.RECORDER, "2")])[2] == Visitor(Role.RECORDER, "2")  # kept


def test_a_recorder_issues_and_revokes_nothing(networked: dict[str, Any]) -> None:
    set_up("\n".join(TWELVE))
    recorder, _ = issue(token_file(networked["path"].resolve()), Role.RECORDER, "1")
    networked["token"] = recorder
    at = page("organiser")  # not offered to them; its address says whose it is
    assert "Only the organiser sets up a club evening" in texts(at) and not at.text_area and not at.exception


def test_on_this_computer_only_the_links_are_plain(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(tmp_path / "club.duckdb"))
    monkeypatch.delenv(REQUIRED_ENVIRONMENT, raising=False)
    monkeypatch.delenv(TOKEN_ENVIRONMENT, raising=False)
    try:
        at = set_up("\n".join(TWELVE))
        codes = [c.value for c in at.code]
        assert sum("record?draft=" in c for c in codes) == 3 and not any("token=" in c for c in codes)
        assert not qr_codes(at) and not token_file((tmp_path / "club.duckdb").resolve()).exists()
    finally:
        data.archive().close()


def test_the_link_helpers_refuse_anyone_but_the_organiser(
    networked: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check is in the code that issues and revokes, whatever the page shows."""
    set_up("\n".join(TWELVE))
    evening = the_evening()
    recorder, _ = issue(token_file(networked["path"].resolve()), Role.RECORDER, "1")
    before = access.issued_tokens()
    monkeypatch.setattr(access, "_in_session", lambda: True)  # as inside a page's script run
    networked["token"] = recorder
    for attempt in (
        lambda: evenings.issue_links(evening),
        lambda: evenings.new_table_link(evening, "2"),
        lambda: access.revoke_table("2"),
    ):
        with pytest.raises(access.AccessRefusedError, match="only the organiser"):
            attempt()
    networked["token"] = ORGANISER
    assert access.issued_tokens() == before


def test_the_links_and_their_buttons_speak_dutch(networked: dict[str, Any]) -> None:
    at = page("organiser", lang="nl")
    at.text_area(key="organiser_players").input("\n".join(TWELVE))
    at.text_input(key="organiser_venue").input("De Zwaan")
    at.button(key="organiser_start").click().run()
    assert not at.exception, [e.value for e in at.exception]
    tables = [a for a in join_addresses(at) if "/record?" in a]
    assert len(tables) == 3 and all(opened_by(a)[1].get("lang") == "nl" for a in tables)
    captions = [str(i.caption) for image in at.get("image") for i in image.proto.imgs]
    assert any(c.startswith("Tafel 2: scan") for c in captions) and any("stand" in c for c in captions)
    labels = {str(b.label) for b in at.button}
    assert {"Intrekken", "Tafel 2 intrekken"} <= labels and "Uitgegeven tokens" in [
        str(h.value) for h in at.subheader
    ]


def test_the_printed_sheet_holds_each_link_s_qr_code_and_address() -> None:
    links = [("Table 1: Anna & Carla – Bert & Dirk", "http://192.168.1.20:8501/record?draft=e1&token=a-b_c")]
    links.append(("<Standings>", "http://192.168.1.20:8501/standings?evening=x&token=d"))
    sheet = evenings.links_sheet_html("Club evening: x", links)
    for heading, address in links:
        assert html.escape(heading) in sheet and html.escape(address) in sheet
        assert access.qr_svg(address, scale=4) in sheet
    assert "<Standings>" not in sheet and sheet.count("<svg") == 2
    # the page names its language (a Dutch organiser's sheet said none)
    assert '<html lang="en">' in sheet
    assert '<html lang="nl">' in evenings.links_sheet_html("Clubavond: x", links, "nl")


def test_the_standings_page_served_on_a_network_points_to_its_join_address(networked: dict[str, Any]) -> None:
    """Its bare address, shown "for anyone on the café's network", was refused to every screen:
    served on a network the page sends people to the viewer's join address instead."""
    set_up("\n".join(TWELVE))
    evening = the_evening()
    at = page("standings", evening=evening.evening_id)
    assert not at.exception, [e.value for e in at.exception]
    assert "the standings' join address" in texts(at)
    assert not [c.value for c in at.code if "/standings?" in c.value]
