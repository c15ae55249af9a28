"""The Organiser and Standings pages, and club tables on the Record page, through AppTest.

Expected standings come from the engine replaying the matches the pages saved (or from the
scoresheet lines typed), never from the standings query the page shows.
"""

from __future__ import annotations

import copy
import datetime
import io
import threading
import zipfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import duckdb
import pytest
from streamlit.testing.v1 import AppTest

from dashboards import access, data, drafts, evenings
from dashboards import recording as rec
from manillen_replay.engine import replay
from manillen_replay.record import loads
from manillen_replay.store import Store

from .test_dashboard import APP, texts

TWELVE = [
    "Anna",
    "Bert",
    "Carla",
    "Dirk",
    "Els",
    "Frans",
    "Griet",
    "Hendrik",
    "Ilse",
    "Jan",
    "Katrien",
    "Luc",
]


@pytest.fixture
def club(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An archive that does not exist yet: the evening's set-up creates it."""
    path = tmp_path / "club.duckdb"
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(path))
    yield path
    data.archive().close()


def page(page_name: str, **query: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    for name, value in query.items():
        at.query_params[name] = value
    at.switch_page(f"app_pages/{page_name}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def set_up(names: str, sheet: tuple[int, ...] = (), **fields: int) -> AppTest:
    """The Organiser page, the names pasted and the form sent (tables ``sheet`` keep only the
    scoresheet)."""
    at = page("organiser")
    at.text_area(key="organiser_players").input(names)
    at.text_input(key="organiser_venue").input("De Zwaan")
    at.multiselect(key="organiser_sheet_tables").set_value(list(sheet))
    for key, value in fields.items():
        at.number_input(key=f"organiser_{key}").set_value(value)
    at.button(key="organiser_start").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def stored(path: Path, sql: str) -> list[tuple[object, ...]]:
    data.archive().close()
    with Store(path, read_only=True) as store:
        return [tuple(row) for row in store.query(sql).iter_rows()]


def test_organiser_sets_up_twelve_players_on_three_tables(club: Path) -> None:
    at = set_up("\n".join(f"{n}. {name}" for n, name in enumerate(TWELVE, start=1)))
    [evening_id] = evenings.evening_ids()
    evening = evenings.load(evening_id)
    assert evening is not None and evening.players == TWELVE
    assert [t.seats for t in evening.tables] == [TWELVE[0:4], TWELVE[4:8], TWELVE[8:12]]
    links = [
        link for link in at.get("page_link") if "draft=" in str(link.proto.page) or link.proto.query_string
    ]
    shown = texts(at)
    for table in evening.tables:
        draft = drafts.load(evenings.draft_id_of(table))
        assert draft is not None
        assert draft.setup.seats == table.seats and draft.setup.blocks == table.blocks
        assert draft.setup.rules["format"] == "fixed" and draft.setup.table == table.key
        assert f"record?draft={draft.draft_id}" in " ".join(c.value for c in at.code)
    assert len(links) >= 3
    assert "Anna & Carla" in shown
    # the standings page: everyone at nought, blocks won then points
    standings = page("standings", evening=evening_id)
    table_html = " ".join(str(h.proto.body) for h in standings.get("html"))
    assert all(name in table_html for name in TWELVE)
    # named as the room knows the evening, not by its id; the table scrolls in its own box
    assert standings.title[0].value == f"Standings: {evening.venue}, {evening.date.day} {evening.date:%b %Y}"
    assert evening_id not in standings.title[0].value
    assert '<div class="standings-scroll"><table class="standings-table">' in table_html
    downloads = [b.proto.label for b in standings.get("download_button")]
    assert "Download the standings (CSV)" in downloads and "CSV for Excel" in downloads


def test_organiser_refuses_a_list_that_does_not_make_tables(club: Path) -> None:
    at = set_up("\n".join(TWELVE[:10]))
    assert any("do not make full tables" in e.value for e in at.error)
    assert evenings.evening_ids() == []


def test_only_the_organiser_sets_up(club: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(access, "current_visitor", lambda: access.Visitor(access.Role.VIEWER))
    at = page("organiser")
    assert not at.text_area and any("Only the organiser" in i.value for i in at.info)


def sheet_team(at: AppTest) -> Any:
    """The scoresheet line's team choice of the deal under way (a form of its own per deal)."""
    return next(radio for radio in at.radio if radio.key.startswith("record_sheet_team_"))


def sheet_points(at: AppTest) -> Any:
    """The scoresheet line's points of the deal under way."""
    return next(box for box in at.number_input if box.key.startswith("record_sheet_points_"))


def record_sheet_line(draft_id: str, team: int, points: int) -> AppTest:
    """A table's phone: the table's link, one scoresheet line saved."""
    at = page("record", draft=draft_id)
    sheet_team(at).set_value(team)
    sheet_points(at).set_value(points)
    at.button(key="record_sheet_save").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_a_scoresheet_table_records_and_the_standings_follow(club: Path) -> None:
    set_up("\n".join(TWELVE[:8]), sheet=(1,), deals=1)
    [evening_id] = evenings.evening_ids()
    evening = evenings.load(evening_id)
    assert evening is not None
    # table 1 keeps only the scoresheet: one deal a block, block 1 to team 0, block 2 to team 1
    first = evening.tables_of(1)[0]
    draft_id = evenings.draft_id_of(first)
    record_sheet_line(draft_id, 0, 7)
    at = record_sheet_line(draft_id, 1, 3)
    assert any(c.value.startswith("Table 1 · Block 3 of 3") for c in at.caption)  # the table named
    # each block's sheet is headed by its name; its deals' column by "#" ("1." read as a row)
    sheets = [m.value for m in at.markdown if m.value.startswith("| # |")]
    assert len(sheets) == 2 and "**Block 1**" in [m.value for m in at.markdown]
    assert not any(m.value.startswith("| 1. |") for m in at.markdown)
    # the next deal's line starts empty: block 2's team and points, kept by their place, named a
    # team of block 3's seating that nobody chose; a save without them asks for them
    assert any("a scoresheet line, without cards for the solver" in m.value for m in at.success)
    assert sheet_team(at).value is None and sheet_points(at).value is None
    at.button(key="record_sheet_save").click().run()
    assert any("Choose the team that scored" in e.value for e in at.error)
    [(record,)] = stored(club, f"SELECT record FROM matches WHERE match_id = '{first.match_id}'")
    result = replay(loads(str(record)))
    # named as people read it, not by the evening's id
    assert loads(str(record)).match.event == "Clubavond" != evening_id
    standings = evenings.standings(evening_id)
    got = {r["player"]: (r["blocks_won"], r["points"]) for r in standings.iter_rows(named=True)}
    for name in first.seats:
        won = result.blocks_won[name]
        points = sum(b.score[b.seats.index(name) % 2] for b in result.blocks)
        assert got[name] == (won, points)
    assert standings["blocks_won"][0] == max(result.blocks_won.values()) > 0
    # the standings page to mail names its language (a Dutch organiser's said none)
    headers = {column: column for column in evenings.STANDINGS_COLUMNS}
    assert '<html lang="nl">' in evenings.standings_html(evening, standings, headers, "Stand", "nl")
    # its CSV has the reader's headings (a Dutch organiser's spreadsheet had English ones)
    dutch = {column: f"kolom {n}" for n, column in enumerate(evenings.STANDINGS_COLUMNS)}
    english = evenings.standings_csv(standings).decode("utf-8").splitlines()
    assert english[0] == ",".join(f'"{column}"' for column in evenings.STANDINGS_COLUMNS)
    # and as a Belgian Excel opens it (a plain CSV was one column there), its rows the same
    opened = evenings.standings_csv(standings, dutch, excel=True).decode("utf-8-sig").splitlines()
    assert opened[0] == ";".join(f'"{heading}"' for heading in dutch.values())
    assert [line.split(";") for line in opened[1:]] == [line.split(",") for line in english[1:]]
    # every player's evening report: Anna played (one match), Els has nothing saved yet
    organiser = page("organiser")
    organiser.selectbox(key="organiser_report_player").set_value("Anna").run()
    assert not organiser.exception, [e.value for e in organiser.exception]
    labels = [getattr(b, "label", None) for b in organiser.get("download_button")]
    assert labels == ["Report of Anna, table 1 (round 1)"]
    organiser.selectbox(key="organiser_report_player").set_value("Els").run()
    assert not organiser.get("download_button") and any("Els" in i.value for i in organiser.info)
    # all of them at once: one report per player of table 1 (the only table with deals saved)
    organiser.button(key="organiser_reports_all").click().run()
    assert not organiser.exception, [e.value for e in organiser.exception]
    labels = [getattr(b, "label", None) for b in organiser.get("download_button")]
    assert labels == ["Download the 4 reports (ZIP)"]
    zipped, count = evenings.all_reports(evening, "en")
    with zipfile.ZipFile(io.BytesIO(zipped)) as files:
        names = sorted(files.namelist())
        assert names == sorted(f"{rec.slug(p)}-{first.match_id}.html" for p in first.seats) and count == 4
        assert all("<html" in files.read(n).decode("utf-8").lower() for n in names)


def test_a_second_set_up_while_tonight_s_evening_has_deals_asks_first(club: Path) -> None:
    """An organiser's sweep: "Set up the evening" tapped again mid-evening set up a second one at
    once, and the tables' links and the standings gave way to an empty evening. With deals saved
    tonight the form says so and sets up nothing until its box is ticked; it offers the running
    evening's format (2 deals a block, where it offered 12)."""
    set_up("\n".join(TWELVE[:8]), sheet=(1,), deals=2)
    [evening_id] = evenings.evening_ids()
    evening = evenings.load(evening_id)
    assert evening is not None
    at = page("organiser")
    assert not any("under way" in w.value for w in at.warning)  # nothing saved yet: no question
    assert at.number_input(key="organiser_deals").value == 2
    record_sheet_line(evenings.draft_id_of(evening.tables_of(1)[0]), 0, 7)
    at = page("organiser")
    said = f"The evening {evening_id} is under way: 1 of its tables has deals saved"
    assert any(said in w.value for w in at.warning), [w.value for w in at.warning]
    at.button(key="organiser_start").click().run()
    assert any("Nothing was set up" in e.value for e in at.error), [e.value for e in at.error]
    assert evenings.evening_ids() == [evening_id]
    at.checkbox(key="organiser_replace_running").check()
    at.button(key="organiser_start").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert len(evenings.evening_ids()) == 2


@pytest.mark.parametrize(("days_ago", "asked"), [(1, True), (2, False)])
def test_an_evening_going_on_past_midnight_is_still_under_way(club: Path, days_ago: int, asked: bool) -> None:
    """Yesterday's evening with deals saved (past midnight) still asks before another is set up;
    one of the day before is over."""
    at = page("organiser")
    at.text_area(key="organiser_players").input("\n".join(TWELVE[:4]))
    at.text_input(key="organiser_venue").input("De Zwaan")
    at.multiselect(key="organiser_sheet_tables").set_value([1])
    at.date_input(key="organiser_date").set_value(datetime.date.today() - datetime.timedelta(days=days_ago))
    at.button(key="organiser_start").click().run()
    [evening_id] = evenings.evening_ids()
    evening = evenings.load(evening_id)
    assert evening is not None
    record_sheet_line(evenings.draft_id_of(evening.tables_of(1)[0]), 0, 7)
    at = page("organiser")
    assert any("is under way" in w.value for w in at.warning) is asked


def test_a_wrong_scoresheet_line_of_a_block_s_last_deal_names_that_block_s_teams(club: Path) -> None:
    """An organiser's sweep: after the last deal of block 1, the page (seated for block 2 by then)
    said "the scoresheet says Anna & Bert +25, the cards say Anna & Bert +6" of Anna & Carla's
    line. The teams are named as they sat in the deal saved."""
    import random

    from .factories import random_deal
    from .test_dashboard_record import cards_of, engine_deal

    set_up("\n".join(TWELVE[:8]), deals=1)
    [evening_id] = evenings.evening_ids()
    evening = evenings.load(evening_id)
    assert evening is not None
    table = evening.tables_of(1)[0]
    draft_id = evenings.draft_id_of(table)
    draft = drafts.load(draft_id)
    assert draft is not None and draft.setup.blocks
    first, second = draft.setup.blocks[0], draft.setup.blocks[1]
    assert {first[0], first[2]} != {second[0], second[2]}  # the partners change with the block
    deal = random_deal(random.Random(7), draft.setup.first_dealer)
    at = page("record", draft=draft_id)
    at.button(key=f"record_trump_{deal.declarations[0].suit}").click().run()  # type: ignore[index, union-attr]
    for card in cards_of(deal):
        at.button(key=f"record_card_{card}").click().run()
    assert not at.exception, [e.value for e in at.exception]
    score = engine_deal(deal).score  # type: ignore[attr-defined]
    at.segmented_control(key=f"record_written_{draft_id}_1").set_value(str(1 - score.team)).run()
    at.number_input(key=f"record_written_points_{draft_id}_1").set_value(score.points + 1).run()
    at.button(key="record_save").click().run()
    assert not at.exception, [e.value for e in at.exception]
    teams = (f"{first[0]} & {first[2]}", f"{first[1]} & {first[3]}")
    said = (
        f"the scoresheet says {teams[1 - score.team]} +{score.points + 1}, "
        f"the cards say {teams[score.team]} +{score.points}"
    )
    assert any(said in w.value for w in at.warning), [w.value for w in at.warning]


def test_a_recorder_of_another_table_is_turned_away(club: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    set_up("\n".join(TWELVE[:8]))
    [evening_id] = evenings.evening_ids()
    evening = evenings.load(evening_id)
    assert evening is not None
    monkeypatch.setattr(access, "current_visitor", lambda: access.Visitor(access.Role.RECORDER, "2"))
    at = page("record", draft=evenings.draft_id_of(evening.tables_of(1)[0]))
    assert any("table 1" in w.value for w in at.warning)
    assert "record_sheet_save" not in [b.key for b in at.button]


def test_two_phones_on_one_table_save_once_and_the_second_is_told(club: Path) -> None:
    set_up("\n".join(TWELVE[:4]), sheet=(1,), deals=1)
    [evening_id] = evenings.evening_ids()
    evening = evenings.load(evening_id)
    assert evening is not None
    draft_id = evenings.draft_id_of(evening.tables[0])
    one, two = page("record", draft=draft_id), page("record", draft=draft_id)
    for at in (one, two):
        sheet_team(at).set_value(0)
        sheet_points(at).set_value(5)
    one.button(key="record_sheet_save").click().run()
    two.button(key="record_sheet_save").click().run()  # the same line, a moment later
    assert any("saved already" in i.value for i in two.info)
    assert stored(club, "SELECT deals FROM matches") == [(1,)]
    # the second phone now shows deal 2; a tap on the first phone's stale page is refused
    sheet_team(two).set_value(1)
    sheet_points(two).set_value(7)
    two.button(key="record_sheet_save").click().run()
    sheet_team(one).set_value(1)
    sheet_points(one).set_value(9)  # not the line the other phone saved
    one.button(key="record_sheet_save").click().run()
    assert any("saved deal 2 meanwhile: this page now shows deal 3" in w.value for w in one.warning), [
        w.value for w in one.warning
    ]
    assert stored(club, "SELECT deals FROM matches") == [(2,)]
    assert stored(club, "SELECT count(*) FROM saves") == [(2,)]


def test_saves_from_many_sessions_at_the_same_moment_land_once(club: Path) -> None:
    """Eight sessions (two phones at each of four tables, each pair saving the same line) save
    at the same moment: every deal is in the archive once, and one phone of each pair is told
    its save was made already."""
    names = [f"{name} {n}" for n in (1, 2) for name in TWELVE[:8]]
    evening = evenings.create(datetime.date(2026, 12, 5), "De Zwaan", names, rules={"deals": 1})
    jobs = []
    for number, table in enumerate(evening.tables, start=1):
        draft = drafts.load(evenings.draft_id_of(table))
        assert draft is not None
        line = rec.scoresheet_line(draft, number % 2, 10 + number)
        finished, _, _ = rec.finish_deal(line)
        jobs += [(copy.deepcopy(line), copy.deepcopy(finished)) for _ in range(2)]
    start = threading.Barrier(len(jobs))

    def save(job: tuple[rec.Draft, rec.Draft]) -> drafts.Saved:
        start.wait()
        return drafts.save_match(job[0], finished=job[1])

    with ThreadPoolExecutor(len(jobs)) as pool:
        saved = list(pool.map(save, jobs))
    by_match: dict[str, list[bool]] = {}
    for one in saved:
        by_match.setdefault(one.match_id, []).append(one.again)
    assert {m: sorted(a) for m, a in by_match.items()} == {t.match_id: [False, True] for t in evening.tables}
    assert stored(club, "SELECT count(*), count(DISTINCT match_id) FROM deals") == [(4, 4)]
    assert stored(club, "SELECT count(*) FROM saves") == [(4,)]
    for table in evening.tables:  # each table's draft file moved on to deal 2, once
        draft = drafts.load(evenings.draft_id_of(table))
        assert draft is not None and len(draft.deals) == 1


def test_an_archive_older_than_the_evenings_is_a_message(club: Path) -> None:
    """An archive from before club evenings (schema 11), not yet upgraded: the two pages say so
    and how to upgrade it, without a traceback."""
    Store(club).close()
    connection = duckdb.connect(str(club))
    connection.execute("DROP TABLE evenings; DROP TABLE evening_tables; DROP TABLE saves")
    connection.execute("ALTER TABLE call_decisions DROP COLUMN loss_error")  # migration 13's
    connection.execute("DELETE FROM schema_version WHERE version >= 12")
    connection.close()
    for name in ("organiser", "standings"):
        at = AppTest.from_file(APP, default_timeout=60)
        at.run()
        at.switch_page(f"app_pages/{name}.py").run()
        assert not at.exception, [e.value for e in at.exception]
        assert any("manillen import --db" in e.value for e in at.error), name


@pytest.mark.parametrize(
    ("address", "here_only"),
    [
        ("http://127.0.0.1:8501/organiser", True),
        ("http://localhost:8501/organiser", True),
        ("http://[::1]:8501/organiser", True),
        ("http://192.168.1.20:8501/organiser?token=x", False),
        ("http://club.local:8501/organiser", False),
    ],
)
def test_an_address_of_this_computer_is_told_apart_from_the_networks(
    monkeypatch: pytest.MonkeyPatch, address: str, here_only: bool
) -> None:
    """The Club evening page gave the tables 127.0.0.1 addresses "to send to their phones", which
    no phone can open: it now warns when the browser reached the dashboard at this computer's
    own address."""
    from types import SimpleNamespace

    from dashboards import ui

    monkeypatch.setattr(ui.st, "context", SimpleNamespace(url=address))
    assert ui.served_here_only() is here_only
    monkeypatch.setattr(ui.st, "context", SimpleNamespace(url=None))
    assert ui.served_here_only() is False


def test_closing_a_club_table_asks_first_and_says_it_cannot_be_reopened(club: Path) -> None:
    """A helper's one tap on Close at a table ended its evening for good: the phone asks first and
    says a club table, once closed, is not reopened; Keep recording keeps it."""
    set_up("\n".join(TWELVE[:8]))
    [evening_id] = evenings.evening_ids()
    evening = evenings.load(evening_id)
    assert evening is not None
    draft_id = evenings.draft_id_of(evening.tables_of(1)[0])
    at = page("record", draft=draft_id)
    at.button(key="record_close").click().run()
    asked = " ".join(w.value for w in at.warning)
    assert "This is a club table: once closed it cannot be opened again" in asked
    at.button(key="record_close_no").click().run()
    assert drafts.load(draft_id) is not None and not any("club table" in w.value for w in at.warning)


def test_the_organiser_is_told_what_is_wrong_with_the_list_in_dutch(club: Path) -> None:
    """A helper's Dutch page said "'ward' is on the list twice" and "7 players do not make full
    tables of four" in English, under "7 spelers: 1 tafels."."""
    at = page("organiser")
    at.session_state["lang"] = "nl"
    at.run()
    at.text_area(key="organiser_players").input("\n".join(TWELVE[:7]))
    at.button(key="organiser_start").click().run()
    assert [e.value for e in at.error] == [
        "7 spelers vullen geen tafels van vier: voeg er 1 toe of laat er 3 weg."
    ]
    assert not any("tafels." in c.value or "tafel." in c.value for c in at.caption)
    at.text_area(key="organiser_players").input("\n".join([*TWELVE[:7], TWELVE[0].lower()]))
    at.button(key="organiser_start").click().run()
    assert [e.value for e in at.error] == [
        f"'{TWELVE[0].lower()}' staat twee keer op de lijst: geef elke speler één keer."
    ]
    assert evenings.evening_ids() == []
    at.text_area(key="organiser_players").input("\n".join(TWELVE[:4]))
    at.button(key="organiser_start").click().run()
    assert "4 spelers: 1 tafel." in [c.value for c in at.caption]
    assert len(evenings.evening_ids()) == 1
