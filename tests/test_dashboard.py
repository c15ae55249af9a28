"""The dashboard through Streamlit's AppTest, page by page, on an archive built here.

The archive holds three random legal matches (tests/factories.py) with dates and venues, three
findings placed by hand (so their counts and places are known) and nothing else. Expected cards
come from the records themselves, replayed with the engine, never from the dashboard's own code.
"""

from __future__ import annotations

import datetime
import html
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl
from xml.etree import ElementTree

import duckdb
import polars as pl
import pytest
from streamlit.proto.WidgetStates_pb2 import WidgetStates
from streamlit.testing.v1 import AppTest

from dashboards import cards, charts, data, html_view, i18n, ui
from dashboards.native_inputs import chosen_state, many, many_text, sent_state
from manillen_replay.cards import CARD_BY_TEXT, Card, CardSet, Suit
from manillen_replay.engine import decode_and_replay
from manillen_replay.record import Entry, Record, dumps, loads
from manillen_replay.rules import Clause
from manillen_replay.state import DealState
from manillen_replay.store import Store

from .factories import random_record
from .tables import TRIGGERS, ask_for_grid, click_row, light_table, light_tables

APP = str(Path(__file__).resolve().parent.parent / "dashboards" / "streamlit_app.py")
VENUES = ("Cafe De Zwaan", "Het Anker", "Cafe De Zwaan")
FINDINGS = pl.DataFrame(
    {
        "match_id": ["random-0", "random-0", "random-1"],
        "deal": [1, 1, 2],
        "trick": [1, None, 3],
        "play": [3, None, 2],
        "seat": [None, None, None],
        "player": ["Dirk", None, "Bert"],
        "kind": ["missed_vetten", "klop_missed", "wasted_trump"],
        "category": ["strategy", "strategy", "strategy"],
        "severity": ["mistake", "info", "blunder"],
        "card": ["JS", None, "10H"],
        "better": [["AH"], None, ["7C"]],
        "points": [4.0, 2.0, 8.0],
        "explanation": ["Dirk could have smeared the ace.", "A klop was possible.", "Bert wasted a trump."],
        "explanation_nl": ["Dirk kon de aas vetten.", None, "Bert verspilde een troef."],
    },
    schema_overrides={"seat": pl.Int32, "card": pl.String},
)


def fixture_records() -> list[Record]:
    """The archive's three matches, 12 deals each."""
    records = []
    for index in range(3):
        record = random_record(index, 12)
        record.match.date = datetime.date(2026, 1 + index, 1 + index)
        record.match.venue = VENUES[index]
        records.append(record)
    return records


def build_archive(path: Path) -> None:
    """Import the fixture matches and their findings into a new archive file."""
    entries = [
        Entry("fixture.jsonl", number, dumps(record, pretty=False).encode())
        for number, record in enumerate(fixture_records(), start=1)
    ]
    with Store(path) as store:
        summary = store.import_entries(entries)
        assert summary.imported == 3
        store.save_findings(["random-0", "random-1", "random-2"], FINDINGS)


@pytest.fixture(scope="module")
def shared_archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An archive the read-only tests share."""
    path = tmp_path_factory.mktemp("archive") / "club.duckdb"
    build_archive(path)
    return path


@pytest.fixture
def own_archive(tmp_path: Path) -> Path:
    """An archive for one test that writes to it."""
    path = tmp_path / "own.duckdb"
    build_archive(path)
    return path


@pytest.fixture
def app(shared_archive: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[AppTest]:
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(shared_archive))
    yield AppTest.from_file(APP, default_timeout=30)


def open_page(at: AppTest, page: str, **query: object) -> AppTest:
    """Run the app once, then the page with these query parameters."""
    at.run()
    for name, value in query.items():
        at.query_params[name] = str(value)
    at.switch_page(f"app_pages/{page}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def open_expander(at: AppTest, key: str) -> AppTest:
    """Open the expander ``key`` as a click does (its content is drawn only once it is open)."""
    at.session_state[key] = True
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def html_of(at: AppTest) -> str:
    """The page's HTML: its ``st.html`` bodies, its markdown and its ``dashboards.html_view``
    drawings (the replay's card table is one)."""
    return "\n".join(
        [element.proto.body for element in at.get("html")]
        + [str(element.value) for element in at.markdown]
        + [drawn["html"] for _, drawn in html_views(at).values()]
    )


def html_views(at: AppTest) -> dict[str, tuple[str, dict[str, object]]]:
    """The page's ``dashboards.html_view`` drawings by key: the element's id and what it was handed
    (``html``, ``clicks``, ``keys``)."""
    found = {}
    for element in at.get("bidi_component"):
        proto = element.proto
        if proto.component_name in html_view.NAMES.values():
            handed = json.loads(proto.json if proto.WhichOneof("data") == "json" else proto.mixed.json)
            found[proto.id.rsplit("-", 1)[-1]] = (proto.id, handed)
    return found


def send_click(at: AppTest, key: str, value: str) -> AppTest:
    """Run the page as after a click in the drawing ``key`` sent ``value`` (its ``data-send``), as
    the browser sends it: the component's ``clicked`` trigger."""
    states = WidgetStates()
    states.CopyFrom(at._tree.get_widget_states())
    state = states.widgets.add()
    state.id = TRIGGERS.format(id=html_views(at)[key][0])
    state.json_trigger_value = json.dumps([{"event": "clicked", "value": value}])
    at._run(states)
    assert not at.exception, [e.value for e in at.exception]
    return at


def drawn_text(at: AppTest, key: str) -> str:
    """The text of the drawing ``key``, as a person reads it (tags dropped)."""
    return html.unescape(re.sub(r"<[^>]+>", "", str(html_views(at)[key][1]["html"])))


def html_blocks(at: AppTest) -> list[str]:
    """The HTML the page draws: its markdown with HTML in it and its ``dashboards.html_view``
    elements (the pictures, rows of figures and small tables), in the order they are drawn."""
    blocks = [str(e.value) for e in at.get("markdown") if "<" in str(e.value)]
    for element in at.get("bidi_component"):
        if element.proto.component_name in html_view.NAMES.values():
            proto = element.proto
            blocks.append(
                json.loads(proto.json if proto.WhichOneof("data") == "json" else proto.mixed.json)["html"]
            )
    return blocks


def svg_charts(at: AppTest) -> dict[str, str]:
    """The page's static charts: each chart's key (``data-chart``) and its markup."""
    charts = {}
    start = re.compile(r'<div class="mr-charts?" data-chart="([^"]+)"')
    for block in html_blocks(at):
        found = list(start.finditer(block))
        ends = [here.start() for here in found[1:]] + [len(block)]
        for here, end in zip(found, ends[: len(found)], strict=True):
            charts[here.group(1)] = block[here.start() : end]
    return charts


def native_fields(at: AppTest) -> list[dict[str, object]]:
    """Every field of the page's native inputs (``dashboards.native_inputs``), as handed to the browser."""
    return [
        field
        for element in at.get("bidi_component")
        if element.proto.component_name == "manillen_native_inputs"
        for field in json.loads(element.proto.json)["fields"]
    ]


def native_inputs_of(at: AppTest) -> dict[str, dict[str, object]]:
    """Each of the page's native input components by the names of its fields: its fields, the
    values handed to the browser, and whether they are laid out in a row."""
    found = {}
    for element in at.get("bidi_component"):
        if element.proto.component_name == "manillen_native_inputs":
            handed = json.loads(element.proto.json)
            found[",".join(f["name"] for f in handed["fields"])] = handed
    return found


REPLAY_SLIDER = re.compile(r'<input type="range" name="step" min="0" max="(\d+)" step="1" value="(\d+)"')


def replay_slider(at: AppTest) -> tuple[int, int]:
    """The last step and the step the replay's slider (in its table's drawing) shows."""
    found = REPLAY_SLIDER.search(str(html_views(at)["replay_table"][1]["html"]))
    assert found is not None
    return int(found[1]), int(found[2])


def replay_position(at: AppTest) -> tuple[str, int, int]:
    """The match and deal the replay's drop-downs show, and the step its slider shows."""
    position = native_inputs_of(at)["match,deal"]["values"]
    return str(position["match"]), int(position["deal"]), replay_slider(at)[1]


def replay_step(at: AppTest) -> int:
    """The step the replay's slider shows."""
    return replay_position(at)[2]


def drag_replay_slider(at: AppTest, step: int) -> AppTest:
    """Move the replay's step slider to ``step``, as a person does in the browser (it sends the
    value it was let go at)."""
    return send_click(at, "replay_table", str(step))


def replay_links(at: AppTest, key: str) -> list[tuple[str, str]]:
    """The lines of the drawing ``key`` that move the replay when clicked: text and step sent."""
    found = re.findall(
        r'<button type="button" class="mr-link" data-send="(\d+)">(.*?)</button>',
        str(html_views(at)[key][1]["html"]),
    )
    return [(html.unescape(re.sub(r"<[^>]+>", "", text)), step) for step, text in found]


def press_replay(at: AppTest, name: str) -> AppTest:
    """Click the replay's ``start``, ``back``, ``forward`` or ``end`` button (the step it sends)."""
    found = re.search(
        rf'data-send="(\d+)" data-button="{name}"', str(html_views(at)["replay_table"][1]["html"])
    )
    assert found is not None, name
    return send_click(at, "replay_table", found[1])


def replay_texts(at: AppTest) -> str:
    """Every text of the replay page: its messages and markdown and its drawings' texts."""
    return "\n".join([texts(at)] + [drawn_text(at, key) for key in html_views(at)])


def tick_interactive_charts(at: AppTest, page: str, on: bool) -> None:
    """Tick (or clear) the page's Interactive charts checkbox, as a click in the browser does."""
    assert "on" in [field["name"] for field in native_fields(at)]
    at.session_state[f"{page}_interactive_box"] = chosen_state({"on": "true" if on else ""})
    at.run()


def cards_in(fragment: str) -> list[str]:
    return re.findall(r'data-card="([0-9TJQKA]+[HDCS])"', fragment)


def hand_html(page_html: str, seat: int) -> str:
    match = re.search(rf'<div class="mr-hand" data-seat="{seat}"[^>]*>(.*?)</div>', page_html)
    assert match is not None
    return match.group(1)


def trick_html(page_html: str) -> str:
    match = re.search(r'<div class="mr-trick"[^>]*>(.*)</div></div>', page_html)
    assert match is not None
    return match.group(1)


FIGURE = re.compile(
    r'<div class="mr-metric" data-metric="([^"]*)"[^>]*>.*?<div class="value"[^>]*>([^<]*)</div></div>'
)


def figures(at: AppTest) -> dict[str, str]:
    """The figures the page shows under their labels (``ui.figures``, ``ui.metric``), label to value."""
    found = {}
    for block in html_blocks(at):
        for shown in re.finditer(FIGURE, block):
            found[html.unescape(shown[1])] = html.unescape(shown[2])
    return found


def texts(at: AppTest) -> str:
    """Every message and markdown text on the page, joined."""
    parts = [
        e.value
        for kind in ("markdown", "info", "warning", "error", "success", "caption")
        for e in at.get(kind)
    ]
    return "\n".join(str(p) for p in parts)


# --------------------------------------------------------------------------- archive


def test_warming_leaves_each_page_s_first_view_cached(
    shared_archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``data.warm`` (run by serve.py while the server starts) asks what the pages first show,
    with the pages' own default arguments: afterwards those views run no query."""
    import streamlit as st

    monkeypatch.setenv(data.DB_ENVIRONMENT, str(shared_archive))
    monkeypatch.setattr(sys, "argv", ["streamlit_app.py"])
    st.cache_data.clear()
    data.warm()
    queries: list[str] = []
    real_frame = data._frame
    monkeypatch.setattr(
        data, "_frame", lambda path, sql, params=None: queries.append(sql) or real_frame(path, sql, params)
    )
    newest, first_player = data.match_ids()[0], data.players()[0]
    data.counts()
    data.matches()
    data.findings(data.FindingFilter(severities=data.MISTAKE_SEVERITIES))
    data.finding_rates(data.FindingFilter(severities=data.MISTAKE_SEVERITIES))
    data.match_ledger(newest)
    data.replayed(newest)
    data.player_summary(first_player)
    data.partners(first_player)
    assert queries == []
    data.player_summary(data.players()[-1])  # a view not warmed does query
    assert queries


def test_archive_counts_matches_deals_players_and_findings(app: AppTest) -> None:
    at = open_page(app, "archive")
    # the findings as the Mistakes page and the review count them: the note (info) left out
    assert figures(at) == {"Matches": "3", "Deals": "36", "Players": "4", "Findings": "2"}
    table = light_tables(at)[0].value
    assert len(table) == 3
    assert sorted(table["findings"].to_list()) == [0, 1, 1]
    mistakes = open_page(AppTest.from_file(APP, default_timeout=30), "mistakes")
    assert mistakes.subheader[0].value == "2 findings"


def test_archive_draws_the_upload_box_only_once_opened(app: AppTest) -> None:
    at = open_page(app, "archive")
    assert not at.file_uploader
    open_expander(at, "archive_upload_open")
    assert at.file_uploader(key="archive_upload")


def test_archive_upload_box_says_its_words_in_the_page_s_language(app: AppTest) -> None:
    """Streamlit writes its uploader's button and limits in English only ("Upload", "200MB per
    file"): the box carries the page's words in their place (the browser side is
    tests/test_browser_layout.py)."""
    app.run()
    app.session_state["lang"] = "nl"
    at = open_expander(app.switch_page("app_pages/archive.py").run(), "archive_upload_open")
    assert at.file_uploader(key="archive_upload").label == "Partijen importeren"
    style = next(
        element.proto.body for element in at.get("html") if "stFileUploaderDropzone" in element.proto.body
    )
    assert '"Bestand kiezen"' in style and '"Laat het bestand hier los"' in style
    assert '"of sleep het hierheen · tot 200 MB · .json, .jsonl, .mnl"' in style
    assert ".st-key-archive_upload_box" in style  # this uploader's only


def test_archive_filters_offer_no_english_select_all(app: AppTest) -> None:
    """Streamlit's multiselect adds "Select all" (English only, in Nederlands too): the filters
    leave it out, since none ticked already means all."""
    at = open_expander(open_page(app, "archive"), "archive_filters_open")
    for key in ("archive_players", "archive_venues", "archive_variants"):
        assert at.multiselect(key=key).proto.select_all == 0, key


def test_archive_filters_by_venue(app: AppTest) -> None:
    at = open_expander(open_page(app, "archive"), "archive_filters_open")
    at.multiselect(key="archive_venues").select("Het Anker").run()
    table = light_tables(at)[0].value
    assert table["venue"].to_list() == ["Het Anker"]
    assert table["match_id"].to_list() == ["random-1"]


def test_archive_lists_a_club_evening_by_the_blocks_won(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The partners change every block: block 1's teams beside block 3's score (58-24) named the
    wrong winners. A club evening's row gives the blocks won; a six-player match its three a side;
    a three-player one its three players and their three scores (it read "Anna & Carla | Bert |
    0-8", Carla with Anna and her 8 left out)."""
    path = tmp_path / "evening.duckdb"
    samples = Path(__file__).resolve().parent.parent / "data" / "samples"
    with Store(path) as store:
        store.import_paths(
            [samples / f"{name}.json" for name in ("club-evening", "variant-six", "variant-three")]
        )
        three = store.query("SELECT * FROM matches WHERE variant = 'three'").row(0, named=True)
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(path))
    at = open_page(AppTest.from_file(APP, default_timeout=60), "archive")
    rows = {row["match_id"]: row for row in light_tables(at)[0].texts.iter_rows(named=True)}
    evening = rows["club-evening-2026-11-27"]
    assert (evening["team_0"], evening["team_1"], evening["score"]) == (
        "Blocks won: Anna 3, Bert 1, Carla 1, Dirk 1",
        "",
        "",
    )
    # an evening before its first block is over has no blocks won yet: said, not block 1's teams
    with Store(path, read_only=True) as store:
        first = json.loads(
            store.query("SELECT record FROM matches WHERE match_id = 'club-evening-2026-11-27'").item()
        )
    first["match"]["id"] = "evening-under-way"
    first["deals"] = first["deals"][:3]
    summary, _ = data.import_upload("under-way.json", json.dumps(first).encode())
    assert summary.imported == 1
    at = open_page(AppTest.from_file(APP, default_timeout=60), "archive")
    rows = {row["match_id"]: row for row in light_tables(at)[0].texts.iter_rows(named=True)}
    assert (rows["evening-under-way"]["team_0"], rows["evening-under-way"]["team_1"]) == (
        "Blocks won: none yet, the first block under way",
        "",
    )
    six = next(
        row
        for match, row in rows.items()
        if match not in ("club-evening-2026-11-27", "evening-under-way", three["match_id"])
    )
    assert six["team_0"].count(" & ") == 2 and six["team_1"].count(" & ") == 2
    alone = rows[three["match_id"]]
    assert alone["team_0"] == " · ".join(three[f"seat{seat}"] for seat in range(3)) and alone["team_1"] == ""
    assert alone["score"] == "-".join(str(three[f"final_score_{seat}"]) for seat in range(3))


def test_the_match_page_of_a_club_evening_names_each_blocks_people(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Deal 36 was dealt by Carla and won by Anna & Dirk (block 3's seating): the page named the
    dealer and the team from block 1's seats, and the result as block 1's teams' score."""
    path = tmp_path / "evening.duckdb"
    with Store(path) as store:
        store.import_paths(
            [Path(__file__).resolve().parent.parent / "data" / "samples" / "club-evening.json"]
        )
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(path))
    at = open_page(AppTest.from_file(APP, default_timeout=60), "match", match="club-evening-2026-11-27")
    assert not at.exception, [e.value for e in at.exception]
    assert "Blocks won: Anna 3, Bert 1, Carla 1, Dirk 1" in [h.value for h in at.subheader]
    assert any("Club evening: the partners change every block" in c.value for c in at.caption)
    deals = light_tables(at)[0].texts
    last = deals.filter(pl.col("deal") == "36").row(0, named=True)
    assert (last["dealer"], last["outcome"]) == ("Carla", "Anna & Dirk +8")
    # no match score chart: a line per seat pair named block 1's people over every block's scores
    assert "match_chart" not in svg_charts(at) and not at.get("plotly_chart")


def test_an_evening_two_deals_in_is_an_evening_on_the_match_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table two deals into the evening had a score chart of its first block's pairs, which
    from block 2 on would name the wrong people: no block finished, no seating change seen yet."""
    document = json.loads(
        (Path(__file__).resolve().parent.parent / "data" / "samples" / "club-evening.json").read_text()
    )
    document["deals"] = document["deals"][:2]
    document["match"]["event"] = "Clubavond"  # as the Record page names an evening's matches
    path = tmp_path / "evening.duckdb"
    with Store(path) as store:
        store.import_entries([Entry("evening.json", None, json.dumps(document).encode())])
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(path))
    at = open_page(AppTest.from_file(APP, default_timeout=60), "match", match="club-evening-2026-11-27")
    assert not at.exception, [e.value for e in at.exception]
    assert any("Club evening: the partners change every block" in c.value for c in at.caption)
    assert "match_chart" not in svg_charts(at) and not at.get("plotly_chart")
    # "Clubavond — Clubavond: de partners wisselen elk blok": the event is what the line says
    at.query_params["lang"] = "nl"
    at = open_page(at, "match", match="club-evening-2026-11-27", lang="nl")
    (said,) = [c.value for c in at.caption if "de partners wisselen elk blok" in c.value]
    assert said.count("Clubavond") == 1


def test_archive_table_has_scores_not_team_numbers_and_no_blank_columns(app: AppTest) -> None:
    """Whole scores as "101-62" under one header, no "None" cells, no column of nothing but blanks."""
    at = open_page(app, "archive")
    table = light_tables(at)[0].texts
    labels = light_tables(at)[0].labels
    assert all(re.fullmatch(r"\d+-\d+", score) for score in table["score"])
    # the teams are A and B, as on the Record page: team "0" is a programmer's count
    assert {"Team A", "Team B"} <= set(labels)
    assert not [label for label in labels if re.search(r"\b[01]\b", label)]
    assert "event" not in table.columns  # the fixture's matches name no event
    # an evening table's id (cafe-t-hoekske-tielt-2026-12-07-t1) pushed the last column out of a
    # laptop's page: the ids, as the venues and teams, may break over lines
    columns = {column["name"]: column["align"] for column in light_tables(at)[0].data["columns"]}
    assert columns["match_id"].split()[0] == "wrap" and columns["venue"].split()[0] == "wrap"
    assert "None" not in {cell for row in table.rows() for cell in row}


def test_archive_row_click_opens_the_match_in_this_session(app: AppTest) -> None:
    """A click on a row (sent by the light table's script) switches to that match's page, in
    the same session: the language chosen stays, and the grid's scripts are never needed."""
    at = open_page(app, "archive")
    table = light_table(at, "archive_table")
    assert table.labels[:3] == ["Match", "Date", "Venue"]
    second = table.texts["match_id"][1]
    assert table.links is not None and table.links[1] == f"match?match={second}"
    at.session_state["lang"] = "nl"
    at.run()
    assert light_table(at, "archive_table").labels[:3] == ["Partij", "Datum", "Locatie"]
    click_row(at, "archive_table", 1)
    assert at.title[0].value.endswith(second)
    assert at.query_params["match"] == [second] or at.query_params["match"] == second
    assert at.session_state["lang"] == "nl"
    assert not at.dataframe
    # AppTest's next run would go back to the page it was told to open: follow the switch
    at.switch_page("app_pages/match.py").run()
    click_row(at, "match_deals", 2)
    assert at.title[0].value.startswith("Spel 3")
    assert at.query_params["deal"] in ("3", ["3"]) and at.query_params["step"] in ("0", ["0"])
    assert at.session_state["lang"] == "nl"


def test_interactive_tables_show_the_data_grid_only_when_asked(app: AppTest) -> None:
    """The first view has no data grid; the table's "Interactive tables" button brings it (same
    headers, rows still leading to their match), with a toggle that brings the light table back."""
    at = open_page(app, "archive")
    assert not at.dataframe and not at.toggle
    ask_for_grid(at, "archive_table")
    assert not light_tables(at)
    grid = at.dataframe[0]
    assert grid.value["match_id"].tolist() == ["random-2", "random-1", "random-0"]  # newest first
    assert "None" not in grid.value.astype(str).to_numpy()
    assert at.session_state["archive_table_grid_targets"][0] == {"match": "random-2"}
    assert at.toggle(key="archive_grid").value is True
    at.toggle(key="archive_grid").set_value(False).run()
    assert not at.dataframe and light_table(at, "archive_table").texts.height == 3


def test_language_comes_from_and_goes_to_the_address(app: AppTest) -> None:
    """A reload keeps Dutch: ?lang=nl starts the session in Dutch, and choosing it writes it there."""
    at = app
    at.query_params["lang"] = "nl"
    at.run()
    assert at.session_state["lang"] == "nl"
    assert at.query_params["lang"] == ["nl"] or at.query_params["lang"] == "nl"
    at.switch_page("app_pages/archive.py").run()
    assert at.title[0].value == "Archief"
    at.session_state["lang"] = "en"
    at.run()
    assert "lang" not in at.query_params


def test_the_language_switch_is_one_button_named_for_the_other_language(app: AppTest) -> None:
    """The sidebar's switch says ``Nederlands`` in English and ``English`` in Dutch; a click turns
    the page (and the address) into that language in the same session, and back."""
    at = open_page(app, "archive", match="random-1")
    switch = at.sidebar.button(key=ui.LANGUAGE_SWITCH_KEY)
    assert switch.label == "Nederlands" and not at.sidebar.get("button_group")
    switch.click().run()
    assert at.title[0].value == "Archief"
    assert at.query_params["lang"] in ("nl", ["nl"])
    assert at.query_params["match"] in ("random-1", ["random-1"])
    switch = at.sidebar.button(key=ui.LANGUAGE_SWITCH_KEY)
    assert switch.label == "English"
    switch.click().run()
    assert at.title[0].value == "Archive" and "lang" not in at.query_params
    assert at.sidebar.button(key=ui.LANGUAGE_SWITCH_KEY).label == "Nederlands"


def test_archive_in_dutch(app: AppTest) -> None:
    at = app
    at.run()
    at.session_state["lang"] = "nl"
    at.switch_page("app_pages/archive.py").run()
    assert at.title[0].value == "Archief"
    assert set(figures(at)) == {"Partijen", "Spellen", "Spelers", "Bevindingen"}


def test_a_missing_archive_shows_how_to_import(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(tmp_path / "none.duckdb"))
    for page in ("archive", "replay", "mistakes", "players", "sql"):
        at = open_page(AppTest.from_file(APP, default_timeout=30), page)
        assert "manillen import" in texts(at), page
        assert not at.error


def test_the_sidebar_names_the_archive_file_as_plain_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The path is plain text, not a code span (which costs every page the monospace font), and
    shown as it is: its underscores and stars are no markdown."""
    path = tmp_path / "club_2026*.duckdb"
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(path))
    at = open_page(AppTest.from_file(APP, default_timeout=30), "sql")
    caption = at.sidebar.caption[0].value
    assert "`" not in caption
    assert caption.endswith("club\\_2026\\*\\.duckdb")
    # every sign escaped, nothing else changed: markdown shows exactly the path
    assert re.sub(r"\\(.)", r"\1", caption) == f"Archive file: {path.name}"  # the file, not its folder
    assert not re.search(r"(?<!\\)[_*`]", caption)


def test_an_empty_archive_shows_how_to_import(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "empty.duckdb"
    Store(path).close()
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(path))
    at = open_page(AppTest.from_file(APP, default_timeout=30), "archive")
    assert "The archive is empty" in texts(at)
    assert at.file_uploader


# --------------------------------------------------------------------------- match


def test_match_lists_every_deal_with_score_and_findings(app: AppTest) -> None:
    at = open_page(app, "match", match="random-1")
    result = decode_and_replay(dumps(fixture_records()[1], pretty=False))
    deals = light_tables(at)[0].value
    assert len(deals) == 12
    assert deals["match_score"].to_list() == [f"{d.match_score[0]}-{d.match_score[1]}" for d in result.deals]
    assert deals["findings"].to_list() == [1 if n == 2 else 0 for n in range(1, 13)]
    # selecting a deal replays it in this tab
    assert at.session_state["match_deals_targets"][1] == {"match": "random-1", "deal": 2, "step": 0}
    chart = svg_charts(at)["match_chart"]
    assert "Anna &amp; Carla" in chart
    # the line starts at 0-0 before deal 1, as the report's does, and has a point a deal after it
    points = re.findall(r"<title>Anna &amp; Carla · (\d+): (-?\d+)</title>", chart)
    assert points[0] == ("0", "0") and [int(deal) for deal, _ in points[:13]] == list(range(13))
    assert not at.get("plotly_chart")


def test_match_is_chosen_in_the_browser_s_own_drop_down_and_kept_for_the_session(app: AppTest) -> None:
    """No Streamlit combo box for a new tab to load: the match and the report's person are native
    drop-downs; a pick shows that match, goes into the address and survives a trip away."""
    at = open_page(app, "match")
    assert not at.selectbox
    [field] = [f for f in native_fields(at) if f["name"] == "match"]
    options = [value for value, _ in field["options"]]  # type: ignore[attr-defined]
    assert options[0] == "" and sorted(options[1:]) == sorted(data.match_ids())
    assert not light_tables(at)  # nothing chosen yet: no match drawn
    at.session_state["match_choice"] = chosen_state({"match": "random-1"})
    at.run()
    assert at.query_params["match"] == "random-1" and len(light_tables(at)[0].value) == 12
    assert not [f for f in native_fields(at) if f["name"] == "player"]  # the report's box is closed
    open_expander(at, "match_report_open")
    persons = [f for f in native_fields(at) if f["name"] == "player"]
    assert [value for value, _ in persons[0]["options"]][1:] == ["Anna", "Bert", "Carla", "Dirk"]  # type: ignore[index]
    at.switch_page("app_pages/sql.py").run()
    at.query_params.clear()
    at.switch_page("app_pages/match.py").run()  # away and back, no address: still that match
    assert at.query_params["match"] == "random-1"


def test_match_unknown_id_says_so(app: AppTest) -> None:
    at = open_page(app, "match", match="no-such-match")
    assert "no-such-match" in texts(at)


def test_a_link_to_a_deal_or_player_the_archive_lacks_says_what_is_shown_instead(app: AppTest) -> None:
    """A mistyped or stale link showed another deal or player without a word."""
    at = open_page(app, "replay", match="random-0", deal=99)
    assert [w.value for w in at.warning] == [
        "Match random-0 has no deal 99 with cards to replay: deal 1 is shown."
    ]
    at.run()  # once said, stepping on does not say it again
    assert not at.warning
    at = open_page(AppTest.from_file(APP, default_timeout=30), "players", player="Nobody")
    (said,) = [w.value for w in at.warning]
    assert said.startswith("There is no player Nobody in the archive: ") and said.endswith(" is shown.")
    at.run()
    assert not at.warning
    at = open_page(AppTest.from_file(APP, default_timeout=30), "train", player="Nobody")
    assert [w.value for w in at.warning][:1] == [said]
    at = open_page(AppTest.from_file(APP, default_timeout=30), "replay", match="random-0", deal=2)
    assert not at.warning


def test_the_train_page_without_puzzles_says_both_things_a_puzzle_needs(app: AppTest) -> None:
    """It said puzzles come from decisions that clearly cost 2 or more, beside a Mistakes page
    listing such a mistake: the other condition (one card clearly the best) was left unsaid."""
    at = open_page(app, "train")
    said = " ".join(i.value for i in at.info)
    assert "clearly cost 2 card points or more" in said and "clearly better than every other" in said


# --------------------------------------------------------------------------- deal replay


def expected_position(
    match_index: int, deal_index: int, step: int
) -> tuple[list[str], list[list[str]], int, set[str]]:
    """Trick on the table, hands, seat to play and its legal cards after ``step`` cards, from the record."""
    record = fixture_records()[match_index]
    deal = record.deals[deal_index]
    trump = "HDCS".index(deal.declarations[0].suit) if deal.declarations[0].call == "trump" else None
    hands = tuple(CardSet(CARD_BY_TEXT[c] for c in hand).mask for hand in deal.hands)
    state = DealState.start(decode_and_replay(dumps(record)).rules, deal.dealer, trump, hands)
    plays = [card for trick in deal.tricks for card in trick]
    for card in plays[:step]:
        state = state.apply(CARD_BY_TEXT[card])
    on_table = plays[(step - 1) // 4 * 4 : step] if step else []
    held = [[str(c) for c in CardSet(mask)] for mask in state.hands]
    return on_table, held, state.to_play, {str(c) for c in CardSet(state.legal_mask())}


@pytest.mark.parametrize("step", [0, 3, 4, 6, 32])
def test_replay_shows_the_right_cards_at_step(app: AppTest, step: int) -> None:
    at = open_page(app, "replay", match="random-2", deal=5, step=step)
    page = html_of(at)
    on_table, held, to_play, legal = expected_position(2, 4, step)
    assert cards_in(trick_html(page)) == on_table
    for seat in range(4):
        assert sorted(cards_in(hand_html(page, seat))) == sorted(held[seat])
    if step < 32:
        marked = re.findall(
            r'class="mr-card [^"]*mr-legal[^"]*" data-card="([^"]+)"', hand_html(page, to_play)
        )
        assert set(marked) == legal
    assert replay_step(at) == step


def test_replay_says_the_card_s_place_in_its_trick_as_the_mistakes_page_does(app: AppTest) -> None:
    """ "Play 19" on the replay was the card of the deal, "Play 3" on the Mistakes page the place
    in the trick: a coach telling a player "go to play 3" landed on another card."""
    at = open_page(app, "replay", match="random-0", deal=2, step=7)
    deal = fixture_records()[0].deals[1]
    card = Card.parse(deal.tricks[1][2])  # type: ignore[index]
    page = html_of(at)
    assert "<b>Trick 2 of 8</b> — play 3: " in page and f"played {cards.inline_card(card)}" in page
    assert "Card of the deal" in page and "Play 7" not in page


def test_replay_lists_the_tricks_so_far_and_a_click_jumps_to_one(app: AppTest) -> None:
    """At step 6: trick 1 complete with its winner, trick 2 with two cards; trick 1 jumps to step 4."""
    at = open_page(app, "replay", match="random-0", deal=2, step=6)
    lines = replay_links(at, "replay_table")
    labels = [text for text, _ in lines]
    assert len(labels) == 2 and "+" in labels[0].split("→")[-1] and "→" not in labels[1]
    deal = fixture_records()[0].deals[1]
    shown = [Card.parse(card) for card in deal.tricks[0]]
    assert all(f"{card.rank.text}{card.suit.symbol}" in labels[0] for card in shown)
    assert [step for _, step in lines] == ["4", "8"]
    send_click(at, "replay_table", lines[0][1])
    assert replay_step(at) == 4


def test_replay_steps_with_the_arrow_keys_and_draws_the_table_first(app: AppTest) -> None:
    """Left and Right (Home, End) step the replay; the buttons come after the table, for phones:
    the table, the buttons, the slider and the tricks are one drawing, in that order."""
    at = open_page(app, "replay", match="random-0", deal=2, step=5)
    _, table = html_views(at)["replay_table"]
    assert table["clicks"] is True
    assert table["keys"] == {"Home": "0", "ArrowLeft": "4", "ArrowRight": "6", "End": "32"}
    drawn = str(table["html"])
    order = [
        drawn.index(part) for part in ('class="mr-table"', 'data-button="start"', 'type="range"', "mr-links")
    ]
    assert order == sorted(order)
    buttons = re.findall(
        r'data-send="(\d+)" data-button="(\w+)" aria-label="([^"]+)" aria-keyshortcuts="(\w+)"', drawn
    )
    assert buttons == [
        ("0", "start", "Start", "Home"),
        ("4", "back", "Back", "ArrowLeft"),
        ("6", "forward", "Forward", "ArrowRight"),
        ("32", "end", "End", "End"),
    ]
    table_column = next(
        c for c in at.columns if "replay_table" in "".join(str(x.proto) for x in c.children.values())
    )
    assert len(table_column.children) == 1, "the table column is one element"


def test_replay_step_controls_move_and_update_the_address(app: AppTest) -> None:
    at = open_page(app, "replay", match="random-0", deal=2, step=5)
    press_replay(at, "forward")
    assert replay_step(at) == 6
    assert at.query_params["step"] == ["6"] or at.query_params["step"] == "6"
    press_replay(at, "back")
    press_replay(at, "back")
    assert replay_step(at) == 4
    press_replay(at, "end")
    assert replay_step(at) == 32
    press_replay(at, "forward")
    assert replay_step(at) == 32
    press_replay(at, "start")
    assert replay_step(at) == 0
    press_replay(at, "back")
    assert replay_step(at) == 0
    assert cards_in(trick_html(html_of(at))) == []
    send_click(at, "replay_table", "99")  # a step past the end (a slider of a longer deal) is the end
    assert replay_step(at) == 32


def test_replay_match_deal_and_step_are_the_browser_s_own_inputs(app: AppTest) -> None:
    """The match and deal are native drop-downs in a row over the table, the step a native range
    slider in the table's drawing: no Streamlit drop-down, slider or button (their scripts cost a
    new tab 29 files; the sidebar's language button is among the scripts every page loads)."""
    at = open_page(app, "replay", match="random-0", deal=2, step=5)
    assert not at.selectbox and not at.slider and not at.main.button
    inputs = native_inputs_of(at)
    fields = {f["name"]: f for f in inputs["match,deal"]["fields"]}
    assert inputs["match,deal"]["row"] is True
    assert [value for value, _ in fields["match"]["options"]] == data.match_ids()
    assert [value for value, _ in fields["deal"]["options"]] == [str(n) for n in range(1, 13)]
    assert replay_slider(at) == (32, 5)
    assert replay_position(at) == ("random-0", 2, 5)


def test_replay_choosing_a_deal_or_match_opens_its_first_step(app: AppTest) -> None:
    at = open_page(app, "replay", match="random-0", deal=2, step=5)
    at.session_state["replay_position"] = sent_state({"match": "random-0", "deal": "4"})
    at.run()
    assert replay_position(at) == ("random-0", 4, 0)
    assert at.title[0].value == "Deal 4 of random-0"
    assert {k: at.query_params[k] for k in ("deal", "step")} in (
        {"deal": "4", "step": "0"},
        {"deal": ["4"], "step": ["0"]},
    )
    drag_replay_slider(at, 7)
    at.session_state["replay_position"] = sent_state({"match": "random-1", "deal": "4"})
    at.run()
    assert replay_position(at) == ("random-1", 1, 0)


def test_replay_a_click_moves_the_step_once(app: AppTest) -> None:
    """A click is sent once: the runs after it (a drop-down's state sent again, any rerun) keep the
    step where the click left it, and the keys follow the step shown."""
    at = open_page(app, "replay", match="random-0", deal=2, step=5)
    drag_replay_slider(at, 9)
    assert replay_step(at) == 9
    at.session_state["replay_position"] = chosen_state({"match": "random-0", "deal": "2"})
    at.run()
    assert replay_step(at) == 9
    press_replay(at, "forward")
    press_replay(at, "forward")
    assert replay_step(at) == 11
    assert at.query_params["step"] in ("11", ["11"])
    assert html_views(at)["replay_table"][1]["keys"] == {
        "Home": "0",
        "ArrowLeft": "10",
        "ArrowRight": "12",
        "End": "32",
    }


def test_replay_running_points_follow_the_tricks(app: AppTest) -> None:
    result = decode_and_replay(dumps(fixture_records()[0], pretty=False))
    deal = result.deals[2]
    at = open_page(app, "replay", match="random-0", deal=3, step=8)
    taken = [0, 0]
    for trick in deal.tricks[:2]:
        assert trick.winner is not None
        taken[trick.winner % 2] += trick.points
    assert list(figures(at).values()) == [str(taken[0]), str(taken[1])]
    drag_replay_slider(at, 32)
    assert list(figures(at).values()) == [str(p) for p in deal.points]
    assert f"Card points {deal.points[0]}-{deal.points[1]}" in replay_texts(at)


def test_replay_says_the_house_rule_that_made_a_capot_s_score(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "Card points 0-60; Bert & Dirk score 60" beside x1 read as a wrong sum under capot: double."""
    archive = tmp_path / "capot.duckdb"
    sample = Path(__file__).resolve().parent.parent / "data" / "samples" / "house-capot-double.json"
    with Store(archive) as store:
        store.import_paths([sample])
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(archive))
    at = open_page(
        AppTest.from_file(APP, default_timeout=30), "replay", match="house-capot-double", deal=1, step=32
    )
    assert "Card points 0-60; Bert & Dirk score 60 (capot: every card point, so x2 under the house rule)" in (
        replay_texts(at)
    )


def test_replay_shows_the_findings_of_the_play(app: AppTest) -> None:
    at = open_page(app, "replay", match="random-0", deal=1, step=3)
    facts = str(html_views(at)["replay_facts"][1]["html"])
    box = re.search(r'<div class="mr-box mr-warning">(.*?)</div>', facts)
    assert box is not None and "Dirk could have smeared the ace." in box[1]
    drag_replay_slider(at, 4)
    assert "Dirk could have smeared the ace." not in replay_texts(at)
    assert "No findings for this play." in replay_texts(at)


def test_replay_opens_the_deal_s_findings_before_the_first_card(app: AppTest) -> None:
    """A call's finding (a trump choice, a klop) links to the step before the first card: there
    the deal's findings are shown open, not behind a closed box; after it they fold away."""
    opened = '<details data-name="deal-findings" open><summary>Findings for the whole deal (1)</summary>'
    at = open_page(app, "replay", match="random-0", deal=1, step=0)
    notes = "".join(str(drawn["html"]) for _, drawn in html_views(at).values())
    assert opened in notes and "A klop was possible." in notes
    drag_replay_slider(at, 3)
    notes = "".join(str(drawn["html"]) for _, drawn in html_views(at).values())
    assert opened not in notes and '<details data-name="deal-findings"><summary>' in notes


def test_replay_findings_in_dutch(app: AppTest) -> None:
    at = app
    at.run()
    at.session_state["lang"] = "nl"
    for name, value in {"match": "random-0", "deal": "1", "step": "3"}.items():
        at.query_params[name] = value
    at.switch_page("app_pages/replay.py").run()
    assert "Dirk kon de aas vetten." in drawn_text(at, "replay_facts")
    assert 'data-button="forward" aria-label="Verder"' in str(html_views(at)["replay_table"][1]["html"])
    assert "Slagen tot nu toe" in drawn_text(at, "replay_table")


def test_replay_draws_the_link_and_the_comment_form_only_once_opened(app: AppTest) -> None:
    """A new tab loads the script of every kind of element shown first: the play's address is
    part of the drawing (a closed box), the comment form waits for a click."""
    at = open_page(app, "replay", match="random-1", deal=2, step=5)
    assert not at.code and not at.text_area and not at.radio
    link = re.search(
        r'<details data-name="link"><summary>Link to this play</summary>'
        r'<code class="mr-address">(.*?)</code>',
        str(html_views(at)["replay_facts"][1]["html"]),
    )
    assert link is not None and html.unescape(link[1]) == "replay?match=random-1&deal=2&step=5"
    open_expander(at, "replay_annot_open")
    assert at.text_area(key="replay_annot_text").value == ""
    assert at.button(key="replay_annot_add")
    press_replay(at, "forward")
    assert at.text_area(key="replay_annot_text"), "the form stays open while stepping"


def test_replay_finding_button_jumps_to_its_play(app: AppTest) -> None:
    at = open_page(app, "replay", match="random-1", deal=2, step=0)
    (text, step), *_ = replay_links(at, "replay_facts")
    assert text.startswith("3.2 Bert: ") and text.endswith(")") and step == "10"
    send_click(at, "replay_facts", step)
    assert replay_step(at) == 10
    assert "Bert wasted a trump." in replay_texts(at)


def test_replay_counts_the_deal_s_findings_as_the_match_page_does_the_notes_apart(
    own_archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A helper's review: the Match page said 2 findings for a deal, its replay "Findings (3)",
    counting an info note the Match page leaves out. The replay counts them apart."""
    with Store(own_archive) as store:
        store._con.execute(
            "INSERT INTO findings SELECT (SELECT max(finding_id) + 1 FROM findings), match_id, deal, 5, 1, "
            "seat, player, 'hindsight_only', 'strategy', 'info', card, better, 1.0, 'A note.', 'Een noot.', "
            "detector FROM findings WHERE match_id = 'random-1' AND deal = 2 AND trick IS NOT NULL LIMIT 1"
        )
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(own_archive))
    app = AppTest.from_file(APP, default_timeout=30)
    counted = data.findings_per_deal("random-1")[2]
    at = open_page(app, "replay", match="random-1", deal=2, step=0)
    facts = str(html_views(at)["replay_facts"][1]["html"])
    with Store(own_archive, read_only=True) as store:
        whole = store.query(
            "SELECT count(*) AS n FROM findings WHERE match_id = 'random-1' AND deal = 2 AND trick IS NULL "
            "AND severity <> 'info'"
        )["n"][0]
    assert f"Findings at the cards ({counted - whole}, and 1 note)" in facts
    marked = [text for text, _ in replay_links(at, "replay_facts")]
    assert sum(text.endswith("(note)") for text in marked) == 1  # which of them is the note
    assert any(text.startswith("5.1 ") and text.endswith(": hindsight only (note)") for text in marked)
    at.session_state["lang"] = "nl"
    assert f"Bevindingen bij de kaarten ({counted - whole}, en 1 opmerking)" in str(
        html_views(at.run())["replay_facts"][1]["html"]
    )


# --------------------------------------------------------------------------- annotations


def test_coach_adds_edits_and_deletes_a_comment(own_archive: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(own_archive))
    at = open_page(AppTest.from_file(APP, default_timeout=30), "replay", match="random-0", deal=1, step=3)
    open_expander(at, "replay_annot_open")
    at.text_input(key="replay_author_input").input("Coach Jef").run()
    assert "Commenting as Coach Jef." in texts(at)
    at.text_area(key="replay_annot_text").input("Smear the ace here.").run()
    at.text_input(key="replay_annot_tags").input("vetten, good").run()
    at.button(key="replay_annot_add").click().run()
    assert "Comment saved." in texts(at)
    assert at.text_area(key="replay_annot_text").value == ""
    comment_id = 1
    assert at.text_area(key=f"replay_edit_text_{comment_id}").value == "Smear the ace here."

    at.switch_page("app_pages/annotations.py").run()
    listed = light_tables(at)[0].value
    assert listed["text"].to_list() == ["Smear the ace here."]
    assert at.caption[0].value.split(" · ")[0] == "1 comment"  # one, not "1 comments"
    assert listed["where"].to_list() == ["trick 1, play 3"]
    assert listed["tags"].to_list() == ["vetten, good"]
    assert at.session_state["annotations_table_targets"] == [{"match": "random-0", "deal": 1, "step": 3}]

    at.switch_page("app_pages/replay.py").run()
    at.text_area(key=f"replay_edit_text_{comment_id}").input("Smear the ace, Dirk.").run()
    at.button(key=f"replay_save_{comment_id}").click().run()
    at.switch_page("app_pages/annotations.py").run()
    assert light_tables(at)[0].value["text"].to_list() == ["Smear the ace, Dirk."]

    at.switch_page("app_pages/replay.py").run()
    at.button(key=f"replay_delete_{comment_id}").click().run()
    assert "Comment deleted." in texts(at)
    at.switch_page("app_pages/annotations.py").run()
    assert "No comments yet" in texts(at)


def test_saving_a_comment_keeps_its_tags_as_typed(own_archive: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The tags shown are escaped for markdown; the box to edit them holds them as typed, so a save
    (and every save after it) stores what the coach typed, not a backslash more each time."""
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(own_archive))
    with Store(own_archive) as store:
        comment_id = store.add_annotation(
            "random-0", 1, 1, 3, "Coach Jef", "Smear.", ["slecht_spel", "c*d", "[x]"]
        )
    at = open_page(AppTest.from_file(APP, default_timeout=30), "replay", match="random-0", deal=1, step=3)
    assert at.text_input(key=f"replay_edit_tags_{comment_id}").value == "slecht_spel, c*d, [x]"
    for text in ("Smear the ace.", "Smear the ace, Dirk."):
        at.text_area(key=f"replay_edit_text_{comment_id}").input(text).run()
        at.button(key=f"replay_save_{comment_id}").click().run()
        assert "Comment saved." in texts(at)
    assert data.deal_annotations("random-0", 1)["tags"].to_list() == [["slecht_spel", "c*d", "[x]"]]


def _two_tabs_on_a_comment(
    own_archive: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[int, AppTest, AppTest]:
    """A coach comment on a play, and two tabs open at it."""
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(own_archive))
    with Store(own_archive) as store:
        comment_id = store.add_annotation("random-0", 1, 1, 3, "Coach Jef", "Smear.", ["vetten"])
    at = open_page(AppTest.from_file(APP, default_timeout=30), "replay", match="random-0", deal=1, step=3)
    other = open_page(AppTest.from_file(APP, default_timeout=30), "replay", match="random-0", deal=1, step=3)
    return int(comment_id), at, other


def test_a_comment_deleted_in_another_tab_keeps_the_edit(
    own_archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    comment_id, at, other = _two_tabs_on_a_comment(own_archive, monkeypatch)
    other.button(key=f"replay_delete_{comment_id}").click().run()
    assert "Comment deleted." in texts(other)
    # typed and saved in one go, as in a browser: the click sends the text with it
    at.text_area(key=f"replay_edit_text_{comment_id}").input("Smear the ace, Dirk.")
    at.button(key=f"replay_save_{comment_id}").click().run()
    said = " ".join(e.value for e in at.error)
    assert "deleted meanwhile" in said and "in use by another program" not in said
    open_expander(at, "replay_annot_open")
    assert at.text_area(key="replay_annot_text").value == "Smear the ace, Dirk."
    assert at.text_input(key="replay_annot_tags").value == "vetten"
    # deleting it again in the first tab says it is gone, not that the archive is busy
    other.run()
    assert f"replay_delete_{comment_id}" not in [b.key for b in other.button]


def test_a_comment_changed_in_another_tab_is_not_overwritten_unseen(
    own_archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    comment_id, at, other = _two_tabs_on_a_comment(own_archive, monkeypatch)
    other.text_area(key=f"replay_edit_text_{comment_id}").input("Smear the ten, not the ace.")
    other.button(key=f"replay_save_{comment_id}").click().run()
    assert "Comment saved." in texts(other)
    at.text_area(key=f"replay_edit_text_{comment_id}").input("Trump it.")
    at.button(key=f"replay_save_{comment_id}").click().run()
    said = " ".join(e.value for e in at.error)
    assert "changed meanwhile" in said and "Smear the ten, not the ace." in said and "vetten" in said
    with Store(own_archive, read_only=True) as store:
        kept = store.query("SELECT text FROM annotations WHERE annotation_id = ?", [comment_id]).item()
    assert kept == "Smear the ten, not the ace."
    # this tab's words are still in its box; saving again, knowingly, replaces the other tab's
    assert at.text_area(key=f"replay_edit_text_{comment_id}").value == "Trump it."
    at.button(key=f"replay_save_{comment_id}").click().run()
    assert "Comment saved." in texts(at)
    with Store(own_archive, read_only=True) as store:
        kept = store.query("SELECT text FROM annotations WHERE annotation_id = ?", [comment_id]).item()
    assert kept == "Trump it."


HOLDER = """
import sys
from manillen_replay.store import Store
store = Store(sys.argv[1], read_only=sys.argv[2] == "read")
print("holding", flush=True)
sys.stdin.readline()
"""


def hold_archive(path: Path, mode: str) -> subprocess.Popen[str]:
    """Another program holding the archive: ``read`` (a second dashboard) or ``write`` (an import)."""
    process = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path), mode],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None and process.stdout.readline().strip() == "holding"
    return process


def test_a_comment_waits_while_another_program_reads_the_archive(
    own_archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(own_archive))
    at = open_page(AppTest.from_file(APP, default_timeout=30), "replay", match="random-0", deal=1, step=3)
    open_expander(at, "replay_annot_open")
    at.text_input(key="replay_author_input").input("Coach Jef").run()
    at.text_area(key="replay_annot_text").input("Do not lose me.").run()
    process = hold_archive(own_archive, "read")
    try:
        at.button(key="replay_annot_add").click().run()
        assert any("in use by another program" in e.value for e in at.error)
        assert at.text_area(key="replay_annot_text").value == "Do not lose me."
        assert "Comment saved." not in texts(at)
    finally:
        process.communicate("\n", timeout=30)
    at.button(key="replay_annot_add").click().run()
    assert "Comment saved." in texts(at)
    assert "Do not lose me." in [e.label.split(": ", 1)[-1] for e in at.expander]


def test_a_comment_survives_an_archive_locked_for_writing(
    own_archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(own_archive))
    at = open_page(AppTest.from_file(APP, default_timeout=30), "replay", match="random-0", deal=1, step=3)
    open_expander(at, "replay_annot_open")
    at.text_input(key="replay_author_input").input("Coach Jef").run()
    at.text_area(key="replay_annot_text").input("Keep me too.").run()
    data.archive().close()
    process = hold_archive(own_archive, "write")
    try:
        at.button(key="replay_annot_add").click().run()
        assert not at.exception
        assert any("in use by" in e.value for e in at.error)
    finally:
        process.communicate("\n", timeout=30)
    at.run()
    assert at.text_area(key="replay_annot_text").value == "Keep me too."


# --------------------------------------------------------------------------- mistakes


MISTAKES_FILTERS = "matches,players,kinds,categories,severities,depths,date_from,date_to,show_info"
"""The Mistakes page's filters (one row of native inputs), by their names."""


def filter_mistakes(at: AppTest, **chosen: str | list[str]) -> AppTest:
    """Choose in the Mistakes page's filters as a person does in the browser (a list for a
    filter of several choices, a date as ISO text, ``show_info`` "true" or "")."""
    values = dict(native_inputs_of(at)[MISTAKES_FILTERS]["values"])
    values |= {name: many_text(value) if isinstance(value, list) else value for name, value in chosen.items()}
    at.session_state["mistakes_filters"] = chosen_state(values)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_mistakes_lists_filters_and_links_to_the_play(app: AppTest) -> None:
    at = open_page(app, "mistakes")
    assert at.subheader[0].value == "2 findings"  # info is hidden by default
    assert light_tables(at)[0].value["severity"].to_list() == ["blunder", "mistake"]
    filter_mistakes(at, show_info="true")
    assert at.subheader[0].value == "3 findings"
    table = light_tables(at)[0].value
    assert table["severity"].to_list() == ["blunder", "mistake", "info"]
    assert at.session_state["mistakes_table_targets"] == [
        {"match": "random-1", "deal": 2, "step": 10},
        {"match": "random-0", "deal": 1, "step": 3},
        {"match": "random-0", "deal": 1, "step": 0},
    ]
    shown = light_table(at, "mistakes_table").texts
    assert "None" not in {cell for row in shown.rows() for cell in row}
    # the deal-level finding's trick, play and player are blank cells, not "None"
    assert shown.row(2, named=True) | {"trick": "", "play": "", "player": ""} == shown.row(2, named=True)
    assert shown["points"].to_list() == ["8", "4", "2"]  # whole points stay whole, not "8.0"
    filter_mistakes(at, severities=["blunder"])
    assert at.subheader[0].value == "1 finding"
    assert light_tables(at)[0].value["player"].to_list() == ["Bert"]
    assert "wasted trump" in svg_charts(at)["mistakes_chart"]
    filter_mistakes(at, severities=[])
    click_row(at, "mistakes_table", 1)
    assert at.title[0].value == "Deal 1 of random-0"  # the second row: Dirk's mistake
    assert {k: at.query_params[k] for k in ("match", "deal", "step")} in (
        {"match": "random-0", "deal": "1", "step": "3"},
        {"match": ["random-0"], "deal": ["1"], "step": ["3"]},
    )


def test_mistakes_offer_the_chosen_players_matches_and_show_the_date_on_a_phone(
    own_archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Match filter offered all 301 matches with a player chosen, and a phone's rows showed no
    date: a player's mistakes of tonight and of last month looked alike."""

    def offered() -> list[str]:
        field = next(f for f in native_fields(at) if f["name"] == "matches")
        return [value for value, _ in field["options"]]  # type: ignore[union-attr]

    with Store(own_archive) as store:  # another table's players at random-1
        store.query("UPDATE seats SET player = 'Z' || player WHERE match_id = 'random-1'")
        seats = store.query("SELECT match_id, player FROM seats")
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(own_archive))
    at = open_page(AppTest.from_file(APP, default_timeout=60), "mistakes")
    everyone = offered()
    player = seats["player"][0]
    theirs = set(seats.filter(pl.col("player") == player)["match_id"])
    others = [m for m in everyone if m not in theirs]
    assert others, "the sample archive has a match the player did not play"
    filter_mistakes(at, players=[player])
    assert offered() == [m for m in everyone if m in theirs]
    filter_mistakes(at, players=[player], matches=[others[0]])  # a match chosen stays offered
    assert others[0] in offered()
    on_phone = [c["name"] for c in light_table(at, "mistakes_table").data["columns"] if "phone" in c["align"]]
    assert on_phone[:2] == ["date", "deal"]


def test_mistakes_write_large_counts_as_the_archive_page_does(
    app: AppTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "1496 findings" here, "4 640" deals on the Archive page: one way of writing a count."""
    real = data.findings

    def many(chosen: data.FindingFilter, limit: int = 1000) -> tuple[int, pl.DataFrame]:
        return 1496, real(chosen, limit)[1]

    monkeypatch.setattr(data, "findings", many)
    at = open_page(app, "mistakes")
    assert at.subheader[0].value == "1 496 findings"
    assert any(
        c.value.startswith("Showing the ") and c.value.endswith(" most serious of 1 496.") for c in at.caption
    )


def test_mistakes_write_the_cards_with_their_suit_symbols(app: AppTest) -> None:
    """The card played and the better cards as the deal replay writes them (10♥), not as stored
    (10H: the suit letters are English), in both languages."""
    for language in ("en", "nl"):
        app.session_state["lang"] = language
        at = open_page(app, "mistakes")
        assert at.title[0].value == {"en": "Mistakes", "nl": "Fouten"}[language]
        shown = light_table(at, "mistakes_table").texts
        assert shown["card"].to_list() == ["10♥", "J♠"], language
        assert shown["better"].to_list() == ["7♣", "A♥"], language


def test_mistakes_give_the_points_at_stake_to_a_tenth(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A solver's cost times a doubled deal's multiplier (22.28) is said as the Match page and
    the replay say it, 22.3; whole points stay whole."""
    path = tmp_path / "tenths.duckdb"
    january = fixture_records()[0]
    with Store(path) as store:
        store.import_entries([Entry("x.jsonl", 1, dumps(january, pretty=False).encode())])
        found = FINDINGS.filter(pl.col("match_id") == "random-0").with_columns(
            pl.Series("points", [22.28, 30.0])
        )
        store.save_findings(["random-0"], found)
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(path))
    at = AppTest.from_file(APP, default_timeout=30)
    at.session_state["lang"] = "en"
    shown = light_table(open_page(at, "mistakes"), "mistakes_table").texts
    assert shown["points"].to_list() == ["22.3"]  # the other finding is info, not listed


def test_mistakes_of_one_match_from_the_match_page_s_link(app: AppTest) -> None:
    """The Match page links to its match's findings: the Mistakes page opens with that match
    chosen in its Match filter; a match without findings is said to have none."""
    at = open_page(app, "match", match="random-1")
    (link,) = [p for p in at.get("page_link") if p.proto.label == "All the findings of this match"]
    assert link.proto.page.endswith("mistakes") or "mistakes" in link.proto.page
    at = open_page(AppTest.from_file(APP, default_timeout=30), "mistakes", match="random-1")
    table = light_table(at, "mistakes_table").texts
    assert set(table["match_id"].to_list()) == {"random-1"}
    # the rate is of that match's cards: Bert's 96 (12 deals of 8), not the archive's
    rates = data.finding_rates(data.FindingFilter(matches=("random-1",)))
    assert rates.select("player", "findings", "cards").rows() == [("Bert", 1, 96)]
    at = open_page(AppTest.from_file(APP, default_timeout=30), "mistakes", match="random-2")
    assert [w.value for w in at.warning] == [
        "Match random-2 has no findings in the archive (not analysed yet, or no such match)."
    ]
    assert len(set(light_table(at, "mistakes_table").texts["match_id"].to_list())) > 1


def test_the_match_page_s_review_of_one_player_links_to_that_player_s_findings(app: AppTest) -> None:
    """With "Whose mistakes: Bert" the link opens the Mistakes page on Bert's findings of the
    match (it chose the match and left every player)."""
    at = open_page(app, "match", match="random-1")
    values = dict(native_inputs_of(at)["whose"]["values"])
    at.session_state["match_review_for"] = chosen_state({**values, "whose": "Bert"})
    at.run()
    (link,) = [p for p in at.get("page_link") if p.proto.label == "All Bert's findings of this match"]
    assert dict(parse_qsl(link.proto.query_string))["player"] == "Bert"
    at = open_page(AppTest.from_file(APP, default_timeout=30), "mistakes", match="random-1", player="Bert")
    assert set(light_table(at, "mistakes_table").texts["player"].to_list()) == {"Bert"}
    # the same link without a player: every player of the match again
    del at.query_params["player"]
    at = open_page(at, "mistakes", match="random-1")
    assert native_inputs_of(at)[MISTAKES_FILTERS]["values"]["players"] == "[]"


def test_mistakes_explanations_are_a_line_under_each_row(app: AppTest) -> None:
    """The explanation is sentences: a line under its row's cells rather than a twelfth column
    (which made the table 1230 px wide in a 938 px page); the finding's kind may wrap."""
    table = light_table(open_page(app, "mistakes"), "mistakes_table")
    assert table.detail == "text" and all(table.texts["text"])
    kind = next(column for column in table.data["columns"] if column["name"] == "kind")
    assert kind["align"] == "wrap phone"  # it may wrap, and is one of the columns a phone shows
    on_phone = [column["name"] for column in table.data["columns"] if "phone" in column["align"].split()]
    assert on_phone == ["date", "deal", "player", "kind", "points"]  # the card is in the line under it


def test_a_kind_keeps_its_colour_whatever_else_the_archive_holds(app: AppTest) -> None:
    """The colours went by the kinds the archive held, so a kind's colour moved when the solver's
    review brought a new kind (costly card went from blue to pink): every built-in kind has its
    own colour, in their sorted order."""
    from manillen_replay.analysis.words import KIND_NL

    picture = svg_charts(open_page(app, "mistakes"))["mistakes_chart"]
    for kind in ("missed_vetten", "wasted_trump"):
        colour = charts.KIND_COLOURS[sorted(KIND_NL).index(kind)]
        legend = re.search(
            rf'fill="{re.escape(colour)}"[^>]*/>\s*<text[^>]*>{kind.replace("_", " ")}<', picture
        )
        assert colour in picture and legend is not None, (kind, colour)


def test_mistakes_rate_is_per_hundred_cards(app: AppTest) -> None:
    at = open_page(app, "mistakes")
    rates = data.finding_rates(data.FindingFilter(players=("Dirk",)))
    # Dirk played 8 cards in each of 36 deals and has one finding
    assert rates.select("player", "kind", "findings", "cards").rows() == [("Dirk", "missed_vetten", 1, 288)]
    assert rates["per_100"][0] == pytest.approx(100 / 288, abs=0.01)
    assert "mistakes_chart" in svg_charts(at)


def test_mistakes_warn_when_the_matches_were_analysed_at_different_depths_and_filter_by_one(
    own_archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A league's dashboard reviewed its newest matches by the solver in the background: those
    had 1.97 findings a deal against 0.29, so the rate chart made whoever played lately look worse."""
    connection = duckdb.connect(str(own_archive))
    connection.execute("UPDATE matches SET analysis_depth = 'solver' WHERE match_id = 'random-1'")
    connection.close()
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(own_archive))
    at = open_page(AppTest.from_file(APP, default_timeout=30), "mistakes")
    assert at.subheader[0].value == "2 findings"
    (warned,) = [w.value for w in at.warning]
    assert warned.startswith("These matches were analysed at different depths: 1 by the solver's review, 2")
    filter_mistakes(at, depths=["heuristic"])
    assert at.subheader[0].value == "1 finding"  # Bert's blunder of random-1 is the solver's
    assert light_tables(at)[0].value["player"].to_list() == ["Dirk"] and not at.warning
    assert data.finding_rates(data.FindingFilter(depths=("solver",)))["player"].to_list() == ["Bert"]
    # the Players page's months say so too: the solver's reviewed months looked worse
    players = open_page(AppTest.from_file(APP, default_timeout=30), "players", player="Bert")
    assert any(
        w.value.startswith("Of this player's matches 1 were analysed by the solver") for w in players.warning
    )


def test_mistakes_do_not_warn_of_depths_when_the_solver_reviewed_none(
    own_archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The quick check beside rules only is no solver's review: "0 by the solver's review" was said."""
    connection = duckdb.connect(str(own_archive))
    connection.execute("UPDATE matches SET analysis_depth = 'rules' WHERE match_id = 'random-1'")
    connection.close()
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(own_archive))
    at = open_page(AppTest.from_file(APP, default_timeout=30), "mistakes")
    assert at.subheader[0].value == "2 findings" and not at.warning


def test_a_player_of_a_deal_or_two_is_left_out_of_the_rate_chart_and_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One deal's findings rate (25 per 100 cards) squeezed every regular player's bar under 3."""
    path = tmp_path / "club.duckdb"
    build_archive(path)
    newcomer = random_record(7, 1)
    newcomer.match.id, newcomer.match.seats = "newcomers", ["Marc", "Rita", "Johan", "Noel"]
    regular = random_record(8, 10)  # ten deals: 80 cards, the least that is drawn
    regular.match.id, regular.match.seats = "regulars", ["Wim", "Xavi", "Yves", "Zoe"]
    with Store(path) as store:
        store.import_entries(
            [
                Entry("new.jsonl", n, dumps(r, pretty=False).encode())
                for n, r in enumerate([newcomer, regular], 1)
            ]
        )
        found = FINDINGS.head(1).with_columns(match_id=pl.lit("newcomers"), player=pl.lit("Noel"))
        store.save_findings(["newcomers"], found)
        wims = FINDINGS.head(1).with_columns(match_id=pl.lit("regulars"), player=pl.lit("Wim"))
        store.save_findings(["regulars"], wims)
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(path))
    at = open_page(AppTest.from_file(APP, default_timeout=30), "mistakes")
    chart = svg_charts(at)["mistakes_chart"]
    assert "Dirk" in chart and "Wim" in chart and "Noel" not in chart
    assert any(c.value.startswith("Not drawn: Noel, with fewer than 80 cards played") for c in at.caption)
    # chosen in the filter, the newcomer is drawn
    filter_mistakes(at, players=["Dirk", "Noel"])
    chart = svg_charts(at)["mistakes_chart"]
    assert "Noel" in chart and not any(c.value.startswith("Not drawn") for c in at.caption)


# --------------------------------------------------------------------------- players


def test_players_page_for_a_chosen_player(app: AppTest) -> None:
    at = open_page(app, "players", player="Bert")
    metrics = figures(at)
    assert metrics["Deals played"] == "36"
    assert metrics["Matches"] == "3"
    assert metrics["Findings"] == "1"
    # a figure's explanation rests on the ? beside its label, as st.metric's help did
    helped = re.compile(r'data-metric="muil by the team".*?title="deals won / deals"')
    assert any(helped.search(block) for block in html_blocks(at))
    assert {"players_points", "players_trumps", "players_rates", "players_partners"} <= set(svg_charts(at))
    table = next(block for block in html_blocks(at) if 'data-table="players_partners"' in block)
    table = table[table.index('data-table="players_partners"') :]
    rows = re.findall(r"<tr><td>(.*?)</td>(.*?)</tr>", table)
    assert [name for name, _ in rows] == ["Dirk"]
    deals, points, won = re.findall(r">([^<]*)</td>", rows[0][1])
    expected = data.partners("Bert").row(0, named=True)
    assert (deals, points) == ("36", f"{expected['points_per_deal']:.2f}".replace("-", "−"))
    assert re.fullmatch(r"\d{1,3}\.\d%", won)  # a percentage like every other on the page, one decimal
    assert not at.dataframe  # no data grid for four numbers: its scripts would slow every new tab


def test_players_figures_in_dutch_have_a_decimal_comma_and_a_real_minus_sign(app: AppTest) -> None:
    """Dutch writes 0,44 where English writes 0.44, and every page writes a negative number with
    the same minus sign (−, not the hyphen of -10.6)."""
    at = open_players_in_dutch(app)
    table = next(block for block in html_blocks(at) if 'data-table="players_partners"' in block)
    row = re.findall(r"<tr><td>(.*?)</td>(.*?)</tr>", table[table.index('data-table="players_partners"') :])[
        0
    ]
    _, points, won = re.findall(r">([^<]*)</td>", row[1])
    expected = data.partners("Bert").row(0, named=True)["points_per_deal"]
    assert points == f"{expected:.2f}".replace(".", ",").replace("-", "\u2212")
    assert re.fullmatch(r"\d{1,3},\d%", won)
    pictures = svg_charts(at)
    for name in ("players_points", "players_rates", "players_partners"):
        numbers = re.findall(r">([−+]?\d+(?:[.,]\d+)?)</text>", pictures[name])
        assert numbers and not any("." in n for n in numbers), (name, numbers)
        assert not re.search(r">-\d", pictures[name]), name


def test_players_rate_line_drops_to_zero_in_months_without_findings(app: AppTest) -> None:
    """Bert played in January, February and March and has one finding: the other months are 0."""
    open_page(app, "players", player="Bert")
    rates = data.rate_over_time("Bert")
    assert rates["month"].to_list() == [datetime.date(2026, m, 1) for m in (1, 2, 3)]
    assert sorted(rates["per_100"].to_list())[:2] == [0, 0] and max(rates["per_100"]) > 0


def test_players_rate_line_breaks_in_a_month_not_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Dirk played in January and March only: February is on the axis with no rate, and no line
    joins January to March as if they were neighbours (issue 14: gaps are not bridged)."""
    path = tmp_path / "two-months.duckdb"
    january, _, march = fixture_records()
    with Store(path) as store:
        store.import_entries(
            [Entry("x.jsonl", n, dumps(r, pretty=False).encode()) for n, r in enumerate((january, march), 1)]
        )
        # both analysed: March's without a finding
        store.save_findings(["random-0", march.match.id], FINDINGS.filter(pl.col("match_id") == "random-0"))
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(path))
    rates = data.rate_over_time("Dirk")
    assert rates["month"].unique(maintain_order=True).to_list() == [
        datetime.date(2026, m, 1) for m in (1, 2, 3)
    ]
    per_month = {
        m: rates.filter(pl.col("month") == m).sort("severity")["per_100"].to_list() for m in rates["month"]
    }
    assert all(v is None for v in per_month[datetime.date(2026, 2, 1)])
    assert max(per_month[datetime.date(2026, 1, 1)]) > 0 and per_month[datetime.date(2026, 3, 1)] == [0]
    labelled = rates.with_columns(pl.col("month").cast(pl.String))
    picture = charts.rate_over_time_svg(labelled, title="t", y_title="y")
    assert "2026-02-01" in picture and "<polyline" not in picture  # points only: no line across


def test_the_rates_count_the_cards_of_analysed_matches_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A match waiting for its analysis has no findings yet: its cards made Dirk's rate look
    better and drew its month as a 0 (no mistakes). The rate, the month line and the SQL view
    leave it out until it is analysed."""
    path = tmp_path / "waiting.duckdb"
    january, _, march = fixture_records()
    with Store(path) as store:
        store.import_entries(
            [Entry("x.jsonl", n, dumps(r, pretty=False).encode()) for n, r in enumerate((january, march), 1)]
        )
        store.save_findings(["random-0"], FINDINGS.filter(pl.col("match_id") == "random-0"))
        view = store.query(
            "SELECT sum(cards_played) FROM (SELECT DISTINCT player, month, cards_played "
            "FROM player_findings WHERE player = 'Dirk')"
        ).item()
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(path))
    january_cards = 8 * len(january.deals)
    rates = data.finding_rates(data.FindingFilter(players=("Dirk",)))
    assert rates["cards"].unique().to_list() == [january_cards]
    assert view == january_cards
    months = data.rate_over_time("Dirk")
    assert months["month"].unique().to_list() == [datetime.date(2026, 1, 1)]  # March waits: no 0 drawn
    with data.archive().writing() as store:  # as the dashboard's own review stores it
        store.save_findings([march.match.id], FINDINGS.filter(pl.col("match_id") == march.match.id))
    rates = data.finding_rates(data.FindingFilter(players=("Dirk",)))
    assert rates["cards"].unique().to_list() == [january_cards + 8 * len(march.deals)]


def test_players_rate_line_leaves_info_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """info is no mistake, and the solver's (hindsight only) came month by month as its review
    went: a month it had reached jumped beside one it had not."""
    path = tmp_path / "info.duckdb"
    january, _, _ = fixture_records()
    with Store(path) as store:
        store.import_entries([Entry("x.jsonl", 1, dumps(january, pretty=False).encode())])
        info = FINDINGS.filter(pl.col("match_id") == "random-0").with_columns(
            pl.lit("Dirk").alias("player"), pl.lit("info").alias("severity")
        )
        store.save_findings(["random-0"], info)
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(path))
    assert data.rate_over_time("Dirk").height == 0


def open_players_in_dutch(at: AppTest) -> AppTest:
    """The Players page of Bert, in Dutch (the language chosen before the page is opened)."""
    at.run()
    at.session_state["lang"] = "nl"
    at.query_params["player"] = "Bert"
    return at.switch_page("app_pages/players.py").run()


def test_players_months_and_labels_in_dutch(app: AppTest) -> None:
    at = open_players_in_dutch(app)
    months = svg_charts(at)["players_rates"]
    assert "jan 2026" in months and "Jan 2026" not in months
    # the months in their order, not the alphabet's (feb, jan, mrt)
    assert months.index("jan 2026") < months.index("feb 2026") < months.index("mrt 2026")


# --------------------------------------------------------------------------- charts

CHART_PAGES = [
    ("match", {"match": "random-1"}, {"match_chart"}),
    ("mistakes", {}, {"mistakes_chart"}),
    (
        "players",
        {"player": "Bert"},
        {"players_points", "players_trumps", "players_rates", "players_partners"},
    ),
]


@pytest.mark.parametrize(("page", "query", "keys"), CHART_PAGES)
def test_chart_pages_first_draw_svg_and_plotly_on_demand(
    app: AppTest, page: str, query: dict[str, str], keys: set[str]
) -> None:
    """A first view loads no plotly.js: every chart is an SVG picture until the person asks."""
    at = open_page(app, page, **query)
    pictures = svg_charts(at)
    assert set(pictures) == keys
    assert not at.get("plotly_chart")
    for markup in pictures.values():
        # a wide and a narrow drawing, each a whole SVG document with a title and tooltips
        drawings = re.findall(r'<svg class="chart".*?</svg>', markup)
        assert len(drawings) == 2
        for drawing in drawings:
            ElementTree.fromstring(drawing)
            assert "<title>" in drawing
    tick_interactive_charts(at, page, True)
    assert not at.exception
    assert not svg_charts(at)
    assert len(at.get("plotly_chart")) == len(keys)
    # the choice is kept for the session: away to another page and back
    at.switch_page("app_pages/archive.py").run()
    at.switch_page(f"app_pages/{page}.py").run()
    assert len(at.get("plotly_chart")) == len(keys)
    tick_interactive_charts(at, page, False)
    assert set(svg_charts(at)) == keys and not at.get("plotly_chart")


def test_chart_pictures_speak_dutch(app: AppTest) -> None:
    at = open_players_in_dutch(app)
    pictures = svg_charts(at)
    assert "Punten per spel, als gever of niet" in pictures["players_points"]
    assert "als gever" in pictures["players_points"] and "as dealer" not in pictures["players_points"]
    assert "boven de staven: spellen samen" in pictures["players_partners"]
    assert "Interactieve grafieken" in [field["label"] for field in native_fields(at)]


def test_interactive_charts_give_plotly_dutch_tips_and_numbers_on_a_dutch_page(app: AppTest) -> None:
    """plotly.js says its toolbar's tips in English unless given a dictionary: a Dutch page gives
    one (and a decimal comma), an English page leaves Plotly as it is."""
    at = open_players_in_dutch(app)
    tick_interactive_charts(at, "players", True)
    configs = [json.loads(chart.proto.config) for chart in at.get("plotly_chart")]
    assert len(configs) == 4
    for config in configs:
        assert config["locale"] == "nl"
        dutch = config["locales"]["nl"]
        assert dutch["dictionary"]["Reset axes"] == "Assen terugzetten"
        assert dutch["format"] == {"decimal": ",", "thousands": "."}
    at.session_state["lang"] = "en"
    assert all(json.loads(chart.proto.config) == {} for chart in at.run().get("plotly_chart"))


def test_match_deals_name_the_trump_in_the_game_s_own_words_in_both_languages(app: AppTest) -> None:
    """Troef and the Flemish suit names are the game's words (docs/dashboard.md): the English view
    says ``troef ♦ koeken`` as the Dutch one does, never an English suit name."""
    record = fixture_records()[1]
    trumps = [
        d.declarations[0].suit for d in record.deals if d.declarations and d.declarations[0].call == "trump"
    ]
    assert trumps
    suit = Suit.parse(trumps[0])
    english = light_tables(open_page(app, "match", match="random-1"))[0].value["contract"].to_list()
    assert f"troef {suit.symbol} {suit.dutch}" in english
    assert not any(s.english in text for text in english for s in Suit)
    app.session_state["lang"] = "nl"
    dutch = light_tables(app.run())[0].value["contract"].to_list()
    assert f"troef {suit.symbol} {suit.dutch}" in dutch


# --------------------------------------------------------------------------- SQL


def type_query(at: AppTest, query: str) -> None:
    """Type ``query`` into the SQL page's box."""
    at.text_area(key="sql_query").input(query).run()


def test_sql_runs_a_query_and_offers_csv(app: AppTest) -> None:
    at = open_page(app, "sql")
    type_query(at, "SELECT count(*) AS n FROM deals")
    at.button(key="sql_run_button").click().run()
    assert at.dataframe[0].value["n"].tolist() == [36]
    assert at.get("download_button")


def test_sql_offers_a_csv_for_excel_beside_the_plain_one(app: AppTest) -> None:
    """A Belgian Excel opened the plain CSV as one column, its accents garbled."""
    at = open_page(app, "sql")
    type_query(at, "SELECT 'Zoë' AS player, 2.5 AS mean, '=1+1' AS note")
    at.button(key="sql_run_button").click().run()
    buttons = {button.proto.label: button for button in at.get("download_button")}
    assert set(buttons) == {"Download CSV", "CSV for Excel"}
    assert len(at.get("download_button")) == 2
    assert buttons["CSV for Excel"].proto.help.startswith("Opens in Excel as it is on a Belgian")
    shown = pl.from_pandas(at.dataframe[0].value)
    assert data.csv_bytes(shown).decode() == '"player","mean","note"\n"Zoë",2.5,"=1+1"\n'
    excel = data.csv_bytes(shown, excel=True).decode("utf-8-sig")
    assert excel == '"player";"mean";"note"\n"Zoë";2,5;"\'=1+1"\n'


def test_sql_shows_a_date_as_a_day(app: AppTest) -> None:
    """The grid wrote a DATE as 2026-01-09 00:00:00: it is a day, as the CSV and the command
    write it (checked in Chromium: the grid shows 2026-01-16)."""
    at = open_page(app, "sql")
    type_query(at, "SELECT match_id, date FROM matches ORDER BY 1 LIMIT 2")
    at.button(key="sql_run_button").click().run()
    config = json.loads(at.dataframe[0].proto.columns)
    assert config["date"]["type_config"] == {"type": "date", "format": "YYYY-MM-DD"}
    assert "match_id" not in config


@pytest.mark.parametrize("statement", ["DROP TABLE matches", "INSERT INTO seats VALUES ('x', 0, 'y', 0)"])
def test_sql_refuses_writes_clearly(app: AppTest, statement: str) -> None:
    at = open_page(app, "sql")
    type_query(at, statement)
    at.button(key="sql_run_button").click().run()
    assert at.error and at.error[0].value.startswith("Refused:")
    assert not at.dataframe


def test_sql_reports_a_bad_query(app: AppTest) -> None:
    at = open_page(app, "sql")
    type_query(at, "SELECT nothing FROM nowhere")
    at.button(key="sql_run_button").click().run()
    assert at.error and at.error[0].value.startswith("The query failed:")
    # as lines of text, nothing in them read as markdown
    assert "\n```text\n" in at.error[0].value and "nowhere" in at.error[0].value


def test_a_query_runs_once_when_asked_not_at_every_rerun(
    app: AppTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An edit, a click elsewhere or the language runs the page again: the last result stays
    shown, and the query is not run again (after a time-out it held a worker 30 s more each time)."""
    ran: list[str] = []
    real = data.user_query

    def counted(sql: str, *args: Any, **kwargs: Any) -> Any:
        ran.append(sql)
        return real(sql, *args, **kwargs)

    monkeypatch.setattr(data, "user_query", counted)
    at = open_page(app, "sql")
    type_query(at, "SELECT 40 + 2 AS answer")
    at.button(key="sql_run_button").click().run()
    type_query(at, "SELECT 'not run yet' AS other")  # typed, not run
    at.session_state["lang"] = "nl"
    at.run()
    assert ran == ["SELECT 40 + 2 AS answer"]
    assert at.dataframe[0].value["answer"].tolist() == [42]
    type_query(at, "   ")
    at.button(key="sql_run_button").click().run()
    assert ran == ["SELECT 40 + 2 AS answer"] and "Typ eerst een vraag" in at.info[0].value


def test_a_query_error_is_shown_as_text_not_as_markdown(app: AppTest) -> None:
    """What the person typed comes back in the message: an image's address in it made the
    organiser's browser fetch it, and stars or underscores restyled the text."""
    at = open_page(app, "sql")
    type_query(at, "SELECT CAST('![p](http://192.0.2.2:8845/x.png) *big*' AS INTEGER)")
    at.button(key="sql_run_button").click().run()
    message = at.error[0].value
    # inside a fenced block (a fence longer than any run of backticks in it), where markdown
    # reads no image, link or star: the message as it came, on lines of its own
    said = "could not convert string '![p](http://192.0.2.2:8845/x.png) *big*' to INT32"
    # and DuckDB's quote of the query's line with its caret, in the same block
    assert f"\n```text\n{said}\n\nLINE " in message and message.endswith("^\n```")


def test_an_example_fills_the_box_and_runs_even_over_what_was_typed(app: AppTest) -> None:
    at = open_page(app, "sql")
    type_query(at, "SELECT 'typed' AS mine")
    _, query = data.example_queries()[0]
    at.button(key="sql_example_0").click().run()
    assert not at.exception
    assert at.text_area(key="sql_query").value == query
    assert at.dataframe  # it ran
    # and the box stays as it is from then on: typing again runs what was typed
    type_query(at, "SELECT 41 + 1 AS answer")
    at.button(key="sql_run_button").click().run()
    assert at.dataframe[0].value["answer"].tolist() == [42]


def test_sql_examples_have_dutch_titles_in_dutch(app: AppTest) -> None:
    """The examples are named by docs/sql.md's English sentences; in Dutch each has its Dutch
    title (a comment beside it in the guide), the same queries in the same order."""
    english = data.example_queries()
    dutch = data.example_queries(lang="nl")
    assert [query for _, query in dutch] == [query for _, query in english]
    assert all(nl != en for (nl, _), (en, _) in zip(dutch, english, strict=True)), "an example without Dutch"
    app.run()
    app.session_state["lang"] = "nl"
    at = app.switch_page("app_pages/sql.py").run()
    assert not at.exception
    shown = [at.button(key=f"sql_example_{index}").label for index in range(len(dutch))]
    assert shown == [title for title, _ in dutch]
    assert shown[0] == "De partijen, de nieuwste eerst"


def test_example_queries_take_their_dutch_title_from_the_comment_above(tmp_path: Path) -> None:
    guide = tmp_path / "sql.md"
    guide.write_text(
        "Who deals most?\n\n<!-- nl: Wie geeft het vaakst? -->\n```sql\nSELECT 1\n```\n\n"
        "Muil won:\n\n```sql\nSELECT 2\n```\n",
        encoding="utf-8",
    )
    assert data.example_queries(guide) == [("Who deals most?", "SELECT 1"), ("Muil won", "SELECT 2")]
    assert data.example_queries(guide, lang="nl") == [
        ("Wie geeft het vaakst?", "SELECT 1"),
        ("Muil won", "SELECT 2"),
    ]


def test_example_queries_come_from_the_sql_guide(tmp_path: Path) -> None:
    guide = tmp_path / "sql.md"
    guide.write_text(
        "# SQL\n\n## Who deals most?\n\n```sql\nSELECT dealer_player, count(*) FROM deals GROUP BY 1\n```\n\n"
        "Muil won by the dealer's team:\n```sql\nSELECT count(*) FROM deals WHERE contract = 'muil'\n```\n",
        encoding="utf-8",
    )
    assert data.example_queries(guide) == [
        ("Who deals most?", "SELECT dealer_player, count(*) FROM deals GROUP BY 1"),
        ("Muil won by the dealer's team", "SELECT count(*) FROM deals WHERE contract = 'muil'"),
    ]


def test_example_titles_are_whole_sentences_and_every_example_may_run(tmp_path: Path) -> None:
    """A paragraph's first line stops mid-sentence: the button shows its first sentence instead
    ("Who underbuys most? An underbuy is a trump played, by a player void in the led suit, below a"
    was cut there). An example reading the analysis's Parquet files is not offered: the page may
    not read files."""
    guide = tmp_path / "sql.md"
    guide.write_text(
        "Who underbuys most? An underbuy is a trump played, by a player void in the led suit, below a\n"
        "trump already on the table.\n\n```sql\nSELECT 1\n```\n\n"
        "Over every part, weigh the match rows:\n\n"
        "```sql\nSELECT * FROM read_parquet('DIR/x/*.parquet')\n```\n",
        encoding="utf-8",
    )
    assert data.example_queries(guide) == [("Who underbuys most?", "SELECT 1")]
    for title, query in data.example_queries():  # the real guide's
        assert title.count("`") % 2 == 0 and title.count("(") == title.count(")"), title
        assert len(title) <= 90 and "read_parquet" not in query, title


def test_csv_download_flattens_lists() -> None:
    frame = pl.DataFrame({"card": ["9D"], "better": [["7C", "AH"]]})
    assert data.csv_bytes(frame) == b'"card","better"\n"9D","7C AH"\n'


def test_db_from_script_arguments() -> None:
    assert data.archive_path(["app.py", "--db", "x.duckdb"]) == Path("x.duckdb")
    assert data.archive_path(["app.py", "--db=y.duckdb"]) == Path("y.duckdb")


def test_the_reason_for_a_play_writes_the_winning_card_with_its_symbol() -> None:
    """Both languages name the winning card 10♦, not 10D (D is the English diamonds)."""
    from manillen_replay.rules import Rules, legal_plays

    trick = [Card.parse("10D")]
    legal = legal_plays(trick, CardSet.parse("QD KD 7S"), Suit.D, partner_winning=False, rules=Rules())
    reason = i18n.explain_clause(legal, "nl", "Ilse")
    assert "10♦ van Ilse" in reason and "10D" not in reason
    english = i18n.explain_clause(legal, "en", "Ilse")  # the deal replay's, as the Record page's
    assert "Ilse's 10♦" in english and "10D" not in english
    # the page watches the player: "your partner is winning" spoke to the coach reading it
    ours = legal_plays(
        [Card.parse("AC")], CardSet.parse("QC KD"), Suit.D, partner_winning=True, rules=Rules()
    )
    assert "(the partner is winning with Ilse's A♣" in i18n.explain_clause(ours, "en", "Ilse")
    assert "(de partner heeft de slag met A♣ van Ilse" in i18n.explain_clause(ours, "nl", "Ilse")
    assert "your partner is winning" in ours.explain("Ilse")  # `manillen legal` asks as the player


@pytest.mark.parametrize("clause", list(Clause))
def test_every_rule_clause_is_said_in_both_languages(clause: Clause) -> None:
    """The forced underbuy (a house rule) had no Dutch words: the Dutch Deal replay and Record
    page stopped with a KeyError at such a card."""
    from manillen_replay.rules import LegalPlays

    legal = LegalPlays(CardSet.parse("8D"), clause, Suit.C, Card.parse("KD"), 1, False, Suit.D)
    for lang in ("en", "nl"):
        said = i18n.explain_clause(legal, lang, "Ilse")
        assert said and "{" not in said and "KD" not in said


def test_the_table_writes_the_sides_a_and_b_on_every_page_that_draws_it() -> None:
    """The deal replay and the Train page draw one table: its badges say team A and B, as the
    Archive and Record pages name the teams, never team 0 and 1."""
    from dashboards import cards

    html = cards.table_html(
        names=["Anna", "Bert", "Carla", "Dirk"],
        hands=[CardSet.parse("AC"), CardSet.parse("KC"), CardSet.parse("QC"), CardSet.parse("JC")],
        table=[],
        trump=None,
        dealer=3,
        to_play=0,
        may_play=None,
        winning=None,
        labels={"dealer": "gever", "to_play": "aan zet", "team": "ploeg {team}"},
    )
    badges = re.findall(r'<span class="mr-badge">([^<]*)</span>', html)
    assert sorted(b for b in badges if b.startswith("ploeg")) == ["ploeg A", "ploeg A", "ploeg B", "ploeg B"]


def test_a_six_seat_tricks_cards_in_a_row_each_name_their_player() -> None:
    """Six seats share the table's sides, so the trick lies in a row: "10♠ 9♠ Q♦" said nobody's
    name, where the four-player table puts each card beside its player."""
    from dashboards import cards
    from manillen_replay.cards import Card

    names = ["Anna", "Bert", "Carla", "Dirk", "Emiel", "Fien"]
    played = [(1, Card.parse("10S")), (2, Card.parse("9S")), (3, Card.parse("QD"))]
    html = cards.table_html(
        names=names, hands=[CardSet(0)] * 6, table=played, trump=None, dealer=0, to_play=4,
        may_play=None, winning=1,
    )  # fmt: skip
    shown = re.findall(
        r'<div class="mr-trick-played" data-seat="(\d)">.*?<span class="mr-trick-who">(\w+)</span>', html
    )
    assert shown == [("1", "Bert"), ("2", "Carla"), ("3", "Dirk")]
    four = cards.table_html(
        names=names[:4], hands=[CardSet(0)] * 4, table=played, trump=None, dealer=0, to_play=0,
        may_play=None, winning=1,
    )  # fmt: skip
    assert "mr-trick-who" not in four  # each card lies on its player's side


def test_a_screen_reader_hears_whose_cards_the_legal_ones_and_the_trick_winner() -> None:
    """Read aloud, the table ran "Carla team B 10 ♦ K ♦ 9 ♦ 10 ♥ Q ♦": a hand ran into the trick,
    the trick's cards said nobody's name, and the green and gold outlines said nothing."""
    from dashboards import cards
    from manillen_replay.cards import Card

    words = {"hand": "kaarten van {name}", "trick": "op tafel", "may_play": "mag", "winning": "wint"}
    html = cards.table_html(
        names=["Anna", "Bert", "Carla", "Dirk"],
        hands=[CardSet.parse("AC KH"), CardSet.parse("KC"), CardSet.parse("QC"), CardSet.parse("JC")],
        table=[(2, Card.parse("10C")), (3, Card.parse("7C"))],
        trump=None, dealer=1, to_play=0, may_play=CardSet.parse("AC"), winning=2, labels=words,
    )  # fmt: skip
    groups = re.findall(r'role="group" aria-label="([^"]*)"', html)
    assert groups == [
        "kaarten van Anna",
        "kaarten van Bert",
        "kaarten van Carla",
        "kaarten van Dirk",
        "op tafel",
    ]
    drawn = re.findall(
        r'data-card="(\w+)"><span>[^<]*</span><span class="mr-suit">[^<]*</span>'
        r'(?:<span class="mr-sr"> \(([^)]*)\)</span>)?</span>',
        html,
    )
    # the KH may not be played, the 7C does not win
    assert [(card, said) for card, said in drawn if said] == [("AC", "mag"), ("10C", "wint")]
    trick = html.split('aria-label="op tafel"', 1)[1]
    assert re.findall(r'<span class="mr-sr">(\w+): </span>', trick) == ["Carla", "Dirk"]


def test_every_built_in_finding_kind_has_a_colour_of_its_own() -> None:
    """A coach tells the kinds apart in the stacked bars of the Mistakes and Players pages."""
    from dashboards import charts
    from manillen_replay.analysis.detectors import KIND_CATEGORY
    from manillen_replay.analysis.solver_findings import KIND_CATEGORY as SOLVER_KINDS

    kinds = sorted(set(KIND_CATEGORY) | set(SOLVER_KINDS))
    colours = charts.kind_colours(kinds, kinds)
    assert len(set(colours.values())) == len(kinds)


@pytest.mark.parametrize("illegal", [[0, 0], [-9, 3]])
def test_the_ledger_s_bars_match_by_match_add_up_to_the_decisions_line(illegal: list[int]) -> None:
    """Own, partner's and opponents' decisions and, when any changed something, illegal cards:
    each match's bars add up to its line (points taken less the cards' points)."""
    from dashboards import charts

    rows = pl.DataFrame(
        {
            "match_id": ["a", "b"],
            "evening": [datetime.date(2026, 1, 9), None],
            "given_away": [10, 4],
            "partner_given_away": [7, 0],
            "won_back": [5, 6],
            "illegal": illegal,
            "cards": [60, 40],
        }
    ).with_columns(
        points=pl.col("cards")
        - pl.col("given_away")
        - pl.col("partner_given_away")
        + pl.col("won_back")
        + pl.col("illegal")
    )
    names = {key: key for key in ("own", "partner", "opponents", "illegal", "net")}
    figure = charts.ledger_matches_figure(rows, title="t", step_names=names, y_title="y")
    bars = [trace for trace in figure.data if trace.type == "bar"]
    [line] = [trace for trace in figure.data if trace.type == "scatter"]
    assert [sum(bar.y[i] for bar in bars) for i in range(2)] == list(line.y)
    assert ("illegal" in [bar.name for bar in bars]) is any(illegal)


def test_every_finding_kind_and_variant_has_a_dutch_label() -> None:
    """Nederlands shows no English name of a finding kind, a severity or a variant."""
    from manillen_replay.analysis.detectors import KIND_CATEGORY
    from manillen_replay.analysis.solver_findings import KIND_CATEGORY as SOLVER_KINDS
    from manillen_replay.analysis.words import KIND_NL
    from manillen_replay.rules import VARIANTS

    for kind in [*KIND_CATEGORY, *SOLVER_KINDS]:
        assert kind in KIND_NL and i18n.label_of("kind", kind, "nl") == KIND_NL[kind], kind
    for variant in VARIANTS:
        assert f"variant.{variant}" in i18n.LABELS, variant
    dutch = [i18n.text(key, "nl") for key in i18n.LABELS if key.startswith("col.")]
    assert sorted({d for d in dutch if dutch.count(d) > 1}) == [], "two columns with one Dutch name"


# --------------------------------------------------------------------------- import and filters

SAMPLES = Path(__file__).resolve().parent.parent / "data" / "samples"
REFUSED_LINE = '{"format": "manillen/1", "match": {"seats": ["A", "B", "C", "D"]}, "deals": [{"dealer": 9}]}'
"""A record the importer refuses: seat 9 does not exist (its problem is at /deals/0/dealer)."""


def one_line(name: str) -> str:
    return dumps(loads((SAMPLES / f"{name}.json").read_text()), pretty=False)


def uploaded(archive: Path, monkeypatch: pytest.MonkeyPatch, upload: tuple[str, bytes, str]) -> AppTest:
    """The Archive page after ``(name, bytes, type)`` was uploaded and **Import** clicked."""
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(archive))
    at = open_expander(
        open_page(AppTest.from_file(APP, default_timeout=30), "archive"), "archive_upload_open"
    )
    at.file_uploader(key="archive_upload").set_value(upload).run()
    at.button(key="archive_import").click().run()
    return at


def test_an_empty_upload_is_refused_as_manillen_import_refuses_an_empty_file(
    own_archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An empty .jsonl said "0 imported, 0 replaced, 0 already present, 0 refused", no reason."""
    at = uploaded(own_archive, monkeypatch, ("empty.jsonl", b"\n", "application/jsonl"))
    assert not at.exception
    (refused,) = [e.value for e in at.error]
    assert refused.startswith("Refused: empty.jsonl: the file is empty: no record in it"), refused


def test_archive_page_imports_an_upload_and_reports_like_manillen_import(
    own_archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Upload a .jsonl with a new match, a refused line and a match already there: the summary,
    the refused record with its file, line and pointer, and the rejects table all say so."""
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(own_archive))
    present = dumps(fixture_records()[0], pretty=False)
    upload = "\n".join([one_line("variant-three"), REFUSED_LINE, present]) + "\n"
    at = open_expander(
        open_page(AppTest.from_file(APP, default_timeout=30), "archive"), "archive_upload_open"
    )
    at.file_uploader(key="archive_upload").set_value(
        ("club.jsonl", upload.encode(), "application/jsonl")
    ).run()
    at.button(key="archive_import").click().run()
    assert not at.exception
    count = len(loads(one_line("variant-three")).deals)
    deals = f"{count} deal" if count == 1 else f"{count} deals"
    assert [w.value for w in at.warning] == [
        f"club.jsonl: 1 imported, 0 replaced, 1 already present, 1 refused ({deals})."
    ]
    (refused,) = [e.value for e in at.error]
    assert refused.startswith("Refused: club.jsonl:2: /deals/0/dealer: ")
    assert figures(at)["Matches"] == "4"
    assert "sample-three" in light_tables(at)[0].value["match_id"].to_list()
    # a link to each match of the file the archive holds now (one without a date sank to the end
    # of every list), the refused line's none
    links = [link.proto for link in at.get("page_link") if "match" in link.proto.page]
    assert [link.label.replace("\\", "") for link in links] == ["sample-three", fixture_records()[0].match.id]
    assert "match=sample-three" in links[0].query_string
    with Store(own_archive, read_only=True) as store:
        rejects = store.query("SELECT source, line, pointer, raw FROM rejects").rows()
        new = store.query(
            "SELECT analysed_at, (SELECT count(*) FROM findings f WHERE f.match_id = m.match_id) AS n "
            "FROM matches m WHERE match_id = 'sample-three'"
        ).row(0, named=True)
    assert rejects == [("club.jsonl", 2, "/deals/0/dealer", REFUSED_LINE)]
    # the new match was analysed by the dashboard itself, no `manillen analyze` needed
    assert new["analysed_at"] is not None
    found = "1 finding" if new["n"] == 1 else f"{new['n']} findings"
    assert [i.value for i in at.info] == [f"Analysed 1 match ({deals}): {found}."]


def test_archive_page_upload_of_good_records_is_a_success(
    own_archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = uploaded(
        own_archive, monkeypatch, ("muil.json", (SAMPLES / "muil.json").read_bytes(), "application/json")
    )
    assert [s.value for s in at.success] == [
        "muil.json: 1 imported, 0 replaced, 0 already present, 0 refused (1 deal)."
    ]
    assert not at.error and not at.warning


@pytest.fixture(scope="module")
def mixed_archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture archive plus the undated three- and six-player samples (Emiel and Fien play
    only there), and a rule finding on random-2 beside the three strategy ones."""
    path = tmp_path_factory.mktemp("mixed") / "club.duckdb"
    build_archive(path)
    with Store(path) as store:
        summary = store.import_paths([SAMPLES / "variant-three.json", SAMPLES / "variant-six.json"])
        assert summary.imported == 2
        revoke = FINDINGS.head(1).with_columns(
            match_id=pl.lit("random-2"), player=pl.lit("Anna"), kind=pl.lit("revoke"),
            category=pl.lit("rule"), severity=pl.lit("blunder"), explanation=pl.lit("Anna revoked."),
        )  # fmt: skip
        store.save_findings(["random-2"], revoke)
        store.add_annotation("random-0", 1, None, None, "Coach Jef", "Well dealt.", ["good"])
        store.add_annotation("random-1", 2, 3, None, "Anna", "Trick three.", ["tempo", "good"])
        store.add_annotation("random-2", 4, 1, 2, "Coach Jef", "Smear here.", ["vetten"])
    return path


@pytest.fixture
def mixed(mixed_archive: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(mixed_archive))
    return AppTest.from_file(APP, default_timeout=30)


def shown_matches(at: AppTest) -> list[str]:
    return sorted(light_tables(at)[0].value["match_id"].to_list())


def test_archive_filters_by_player_variant_and_date(mixed: AppTest) -> None:
    at = open_page(mixed, "archive")
    every = ["random-0", "random-1", "random-2", "sample-six", "sample-three"]
    assert shown_matches(at) == every
    assert not at.multiselect  # drawn once the filter box is opened
    open_expander(at, "archive_filters_open")
    at.multiselect(key="archive_players").select("Emiel").run()
    assert shown_matches(at) == ["sample-six"]
    at.multiselect(key="archive_players").unselect("Emiel").select("Dirk").run()
    assert shown_matches(at) == ["random-0", "random-1", "random-2", "sample-six"]
    at.multiselect(key="archive_players").unselect("Dirk").run()
    at.multiselect(key="archive_variants").select("three").run()
    assert shown_matches(at) == ["sample-three"]
    at.multiselect(key="archive_variants").unselect("three").run()
    assert shown_matches(at) == every
    assert not at.date_input  # the browser's own date fields, as on the Mistakes page
    dates = native_inputs_of(at)["date_from,date_to"]
    assert [field["kind"] for field in dates["fields"]] == ["date", "date"]
    assert dates["values"] == {"date_from": "2026-01-01", "date_to": "2026-03-03"}  # the archive's dates
    at.session_state["archive_dates"] = chosen_state({"date_from": "2026-01-15", "date_to": "2026-02-15"})
    at.run()
    assert shown_matches(at) == ["random-1"]
    assert "1 of 5 matches shown" in texts(at)
    at.multiselect(key="archive_venues").select("Het Anker").run()
    at.session_state["archive_filters_open"] = False
    at.run()
    assert not at.multiselect
    assert shown_matches(at) == ["random-1"], "the choices stay in force while the box is closed"
    assert "1 of 5 matches shown (filters: 2)" in texts(at)


def shown_findings(at: AppTest) -> list[tuple[str, str]]:
    table = light_tables(at)[0].value
    return sorted(zip(table["match_id"].to_list(), table["kind"].to_list(), strict=True))


def test_mistakes_filter_by_player_kind_category_and_date(mixed: AppTest) -> None:
    at = open_page(mixed, "mistakes")
    assert at.subheader[0].value == "3 findings"  # the info finding waits for the checkbox
    assert not at.multiselect and not at.toggle and not at.date_input  # the browser's own inputs
    filter_mistakes(at, show_info="true")
    assert at.subheader[0].value == "4 findings"
    filter_mistakes(at, players=["Bert"])
    assert shown_findings(at) == [("random-1", "wasted trump")]
    filter_mistakes(at, players=[], kinds=["missed_vetten"])
    assert shown_findings(at) == [("random-0", "missed vetten")]
    filter_mistakes(at, kinds=[], categories=["rule"])
    assert shown_findings(at) == [("random-2", "revoke")]
    filter_mistakes(at, categories=[])
    assert at.subheader[0].value == "4 findings"
    filter_mistakes(at, date_from="2026-02-01", date_to="2026-03-03")
    assert shown_findings(at) == [("random-1", "wasted trump"), ("random-2", "revoke")]
    # the wrong way round is the same range; an emptied date is the archive's first
    filter_mistakes(at, date_from="2026-03-03", date_to="2026-02-01")
    assert shown_findings(at) == [("random-1", "wasted trump"), ("random-2", "revoke")]
    filter_mistakes(at, date_from="", date_to="2026-02-02")
    assert shown_findings(at) == [
        ("random-0", "klop missed"),
        ("random-0", "missed vetten"),
        ("random-1", "wasted trump"),
    ]


def test_mistakes_filters_offer_the_archive_s_choices_and_are_kept_for_the_session(mixed: AppTest) -> None:
    at = open_page(mixed, "mistakes")
    handed = native_inputs_of(at)[MISTAKES_FILTERS]
    fields = {f["name"]: f for f in handed["fields"]}
    assert handed["row"] is True
    assert [f["kind"] for f in handed["fields"]] == ["multi"] * 6 + ["date", "date", "checkbox"]
    assert [value for value, _ in fields["players"]["options"]] == ["Anna", "Bert", "Dirk"]
    # newest first, as the Archive lists them (a league's 2,000 ids alphabetically began with its oldest)
    assert [value for value, _ in fields["matches"]["options"]] == ["random-2", "random-1", "random-0"]
    assert ("missed_vetten", "missed vetten") in [tuple(o) for o in fields["kinds"]["options"]]
    assert (fields["date_from"]["minimum"], fields["date_to"]["maximum"]) == ("2026-01-01", "2026-03-03")
    assert fields["players"]["placeholder"] == "All"
    filter_mistakes(at, players=["Bert", "nobody"], date_from="2026-02-01")
    assert many(str(native_inputs_of(at)[MISTAKES_FILTERS]["values"]["players"])) == ["Bert"]
    at.switch_page("app_pages/archive.py").run()
    at.switch_page("app_pages/mistakes.py").run()
    values = native_inputs_of(at)[MISTAKES_FILTERS]["values"]
    assert (many(str(values["players"])), values["date_from"]) == (["Bert"], "2026-02-01")
    assert shown_findings(at) == [("random-1", "wasted trump")]


def test_mistakes_filters_in_dutch(mixed: AppTest) -> None:
    at = mixed
    at.run()
    at.session_state["lang"] = "nl"
    at.switch_page("app_pages/mistakes.py").run()
    fields = {f["name"]: f for f in native_inputs_of(at)[MISTAKES_FILTERS]["fields"]}
    assert fields["players"]["placeholder"] == "Alle"
    assert dict(map(tuple, fields["severities"]["options"]))["blunder"] == i18n.label_of(
        "severity", "blunder", "nl"
    )
    assert (
        fields["date_from"]["label"] == "Datums: van" and fields["date_to"]["label"] == "Datums: tot en met"
    )
    assert fields["show_info"]["label"].startswith("Toon ook opmerkingen")
    assert fields["depths"]["label"] == "Analyse"
    assert dict(map(tuple, fields["depths"]["options"]))["heuristic"] == "snelle controle"


def shown_comments(at: AppTest) -> list[str]:
    return sorted(light_tables(at)[0].value["text"].to_list())


def test_annotations_filter_by_author_and_tag(mixed: AppTest) -> None:
    at = open_page(mixed, "annotations")
    assert at.multiselect(key="annotations_authors").proto.select_all == 0  # no English "Select all"
    assert at.multiselect(key="annotations_tags").proto.select_all == 0
    assert shown_comments(at) == ["Smear here.", "Trick three.", "Well dealt."]
    at.multiselect(key="annotations_authors").select("Coach Jef").run()
    assert shown_comments(at) == ["Smear here.", "Well dealt."]
    at.multiselect(key="annotations_tags").select("good").run()
    assert shown_comments(at) == ["Well dealt."]
    at.multiselect(key="annotations_authors").unselect("Coach Jef").run()
    assert shown_comments(at) == ["Trick three.", "Well dealt."]
    at.multiselect(key="annotations_tags").select("vetten").run()
    assert shown_comments(at) == ["Smear here.", "Trick three.", "Well dealt."]


def test_app_test_runs_share_a_compiled_script_and_compile_an_edited_one_again(tmp_path: Path) -> None:
    """tests/conftest.py gives AppTest's runs one script cache per process (AppTest gave each run an
    empty one, so each tap parsed and compiled the page again): a second run reuses the bytecode,
    and a script edited on disk runs as edited."""
    from streamlit.runtime.scriptrunner.script_cache import ScriptCache
    from streamlit.testing.v1 import app_test

    script = tmp_path / "page.py"
    script.write_text("import streamlit as st\n\nst.markdown('one')\n", encoding="utf-8")
    at = AppTest.from_file(str(script)).run()
    assert [m.value for m in at.markdown] == ["one"]
    shared = app_test.ScriptCache()
    assert isinstance(shared, ScriptCache) and shared is app_test.ScriptCache()
    compiled = shared.get_bytecode(str(script))
    assert at.run().markdown[0].value == "one" and shared.get_bytecode(str(script)) is compiled
    script.write_text("import streamlit as st\n\nst.markdown('two')\n", encoding="utf-8")
    assert [m.value for m in at.run().markdown] == ["two"]
    assert shared.get_bytecode(str(script)) is not compiled


def test_a_chart_of_counts_steps_by_whole_numbers() -> None:
    """A helper's Players page drew "Trump choice as dealer" for a count of 1 with ticks at 0.2,
    0.4, 0.6 and 0.8 of a deal, in the picture and in Plotly's chart."""
    choices = pl.DataFrame({"choice": ["♥ harten", "muil"], "deals": [1, 0]})
    picture = charts.trump_choices_svg(choices, title="Trump choice as dealer", y_title="deals")
    ticks = re.findall(r'<text x="[\d.]+" y="[\d.]+" text-anchor="end">([^<]+)</text>', picture)
    assert ticks == ["0", "1"], ticks
    figure = charts.trump_choices_figure(choices, title="t", y_title="deals")
    assert (figure.layout.yaxis.tick0, figure.layout.yaxis.dtick) == (0, 1.0)
    many = pl.DataFrame({"choice": ["♥ harten", "♠ schoppen"], "deals": [12, 3]})
    assert charts.trump_choices_figure(many, title="t", y_title="deals").layout.yaxis.dtick == 5.0
    # the value under the pointer to a tenth (d3's format): it read "6,476274" on the Players page
    points = pl.DataFrame({"role": ["als gever", "niet"], "points_per_deal": [6.476274, 3.2]})
    shown = charts.dealer_points_figure(points, title="t", y_title="p", decimal=",").layout
    assert (shown.yaxis.hoverformat, shown.separators) == (",.1~f", ", ")


@pytest.mark.parametrize("page", ["players", "train"])
def test_a_player_in_an_address_is_found_in_any_case(app: AppTest, page: str) -> None:
    """A helper's /train?player=frans said there was no such player and trained Bert, where
    `manillen puzzles --player frans` took the name in any case."""
    at = open_page(app, page, player="dIRK")
    assert not any("There is no player" in w.value for w in at.warning)
    if page == "players":
        assert at.query_params["player"] in ("Dirk", ["Dirk"])
    else:
        assert at.session_state["train_player"] == "Dirk"


def test_standings_without_a_club_evening_rank_the_players_by_matches_won(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A league's archive of ordinary matches had no standings at all: "There is no club evening"."""
    samples = Path(__file__).resolve().parent.parent / "data" / "samples"
    files = [p for p in sorted(samples.glob("*.json")) if p.name != "club-evening.json"]
    path = tmp_path / "league.duckdb"
    with Store(path) as store:
        store.import_paths(files)
    expected: dict[str, list[int]] = {}
    for file in files:
        result = decode_and_replay(file.read_text())
        if result.rules.format != "target" or not result.finished:
            continue
        shape = result.rules.shape
        scored = sum(d.kind.value in ("played", "scoresheet") for d in result.deals)
        for seat, player in enumerate(result.seats):
            side = seat if shape.scorers == 3 else shape.team_of(seat, 0)
            tally = expected.setdefault(player, [0, 0, 0])
            tally[0] += 1
            tally[1] += result.winner == side
            tally[2] += scored  # a scoresheet line counts: a league kept on scoresheets had 0 deals
    assert expected
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(path))
    at = open_page(AppTest.from_file(APP, default_timeout=30), "standings")
    table = light_table(at, "standings_league").value
    assert {
        r["player"]: [r["matches"], r["won"], r["deals"]] for r in table.iter_rows(named=True)
    } == expected
    assert table["won"].to_list() == sorted(table["won"].to_list(), reverse=True)
    assert "There is no club evening in this archive yet" in texts(at)
