"""Issue 31's newcomer's list: seats and teams named one way everywhere (players' names, teams A and
B, seats 1 to 4), a club evening's teams block by block, the pages' words in Dutch, symbols on the
Record page, the Record page's replay link after a reload, a Match page with no match chosen, and
the Archive's columns on a phone."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from click.testing import CliRunner
from streamlit.testing.v1 import AppTest

from dashboards import data, drafts
from dashboards import recording as rec
from dashboards.cards import SYMBOLS
from manillen_replay.cli import cli
from manillen_replay.engine import replay
from manillen_replay.record import loads
from manillen_replay.store import Store

from .test_browser import ARTIFACTS, SETTLED_WITH_FONTS
from .test_browser import server as server  # the live dashboard on test_dashboard's archive
from .test_dashboard import (
    APP,
    FINDINGS,
    build_archive,
    fixture_records,
    html_of,
    open_page,
    svg_charts,
    texts,
)
from .test_dashboard import shared_archive as shared_archive  # the module's archive fixture
from .test_dashboard_record import (
    cards_of,
    deal_with_illegal_play,
    entered,
    legal_deal,
    open_at_draft,
    tap,
    type_hands,
    type_seats,
)
from .test_dashboard_record import empty_app as empty_app  # an archive that does not exist yet

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "data" / "samples"


def run(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return result.output


# --------------------------------------------------------------------------- the command line


def test_replay_names_teams_by_their_players_not_team_numbers() -> None:
    """`manillen replay` writes who scored as players say it (Anna & Carla), never "team 0"."""
    text = run("replay", str(SAMPLES / "illegal-plays.json"))
    assert "score: Bert & Dirk +7" in text
    assert "the scoresheet says Anna & Carla scored 17, the cards say Anna & Carla scored 15" in text
    assert not re.search(r"\bteam [01]\b", text), text
    finished = run("replay", str(SAMPLES / "match-101.json"))
    assert re.search(r"Final score \d+-\d+: (Anna & Carla|Bert & Dirk) win\n", finished), finished


def test_replay_names_a_dealer_out_of_rotation_without_seat_numbers(tmp_path: Path) -> None:
    record = json.loads((SAMPLES / "scoresheet.json").read_text())
    record["deals"][1]["dealer"] = 3  # Dirk deals where Bert's turn was
    path = tmp_path / "rotation.json"
    path.write_text(json.dumps(record))
    text = run("replay", str(path))
    assert "! deal 2 was dealt by Dirk; by rotation it was Bert's turn\n" in text
    assert "(seat " not in text


def test_replay_json_keeps_its_numbers_from_zero() -> None:
    """The JSON for programs keeps seats and teams counted from 0 (docs/cli.md)."""
    data = json.loads(run("replay", str(SAMPLES / "illegal-plays.json"), "--json"))
    deal = data["matches"][0]["deals"][0]
    assert deal["score"]["team"] in (0, 1) and deal["dealer"] in range(4)


def test_replay_of_a_club_evening_prints_each_blocks_teams() -> None:
    """Partners rotate between blocks: every block's teams, and each deal's dealer and scorers from
    that block's seating."""
    result = replay(loads((SAMPLES / "club-evening.json").read_text()))
    text = run("replay", str(SAMPLES / "club-evening.json"))
    assert "Teams: Anna & Carla  vs  Bert & Dirk" not in text
    for number, block in enumerate(result.blocks, start=1):
        first, second = " & ".join(block.seats[0::2]), " & ".join(block.seats[1::2])
        assert f"Block {number}: {first}  vs  {second}\n" in text
    assert text.index("Block 2: Anna & Bert  vs  Carla & Dirk") < text.index("Deal 13:")
    assert text.index("Deal 12:") < text.index("Block 2:")
    # deal 14 is the second of block 2, dealt by its seat 1: Carla (Bert in block 1)
    deal = result.deals[13]
    assert f"Deal 14: dealer {deal.names[deal.dealer]}," in text
    assert "Deal 14: dealer Carla," in text
    assert deal.score is not None
    scored = " & ".join(deal.names[deal.score.team :: 2])
    assert f"score: {scored} +" in text.split("Deal 14:")[1].split("Deal 15:")[0]
    only = run("replay", str(SAMPLES / "club-evening.json"), "--deal", "14")
    assert "Block 2: Anna & Bert  vs  Carla & Dirk" in only and "Block 1: " not in only


# --------------------------------------------------------------------------- the dashboard

CARD_CODE = re.compile(r"\b(?:10|[789JQKA])[HDCS]\b")
"""A card written with an English suit letter (9C, AC), as the pages should not write it."""


@pytest.fixture
def app(shared_archive: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[AppTest]:
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(shared_archive))
    yield AppTest.from_file(APP, default_timeout=60)


def test_replay_table_names_the_teams_a_and_b_as_the_archive_does(app: AppTest) -> None:
    """The seats' badges say team A and team B (ploeg A, ploeg B), never team 0 and team 1."""
    for lang, word in (("en", "team"), ("nl", "ploeg")):
        at = AppTest.from_file(APP, default_timeout=60)
        open_page(at, "replay", match="random-2", deal=5, step=0, lang=lang)
        badges = re.findall(r'<span class="mr-badge">([^<]*)</span>', html_of(at))
        teams = sorted({b for b in badges if b.startswith(word)})
        assert teams == [f"{word} A", f"{word} B"], badges


@pytest.fixture
def info_archive(tmp_path: Path) -> Path:
    """The fixture archive with an info finding of Dirk's (the shared archive's has no player)."""
    path = tmp_path / "info.duckdb"
    build_archive(path)
    findings = FINDINGS.with_columns(
        pl.when(pl.col("severity") == "info")
        .then(pl.lit("Dirk"))
        .otherwise(pl.col("player"))
        .alias("player"),
        pl.when(pl.col("severity") == "info").then(pl.lit(3)).otherwise(pl.col("trick")).alias("trick"),
        pl.when(pl.col("severity") == "info").then(pl.lit(1)).otherwise(pl.col("play")).alias("play"),
    )
    with Store(path) as store:
        store.save_findings(["random-0", "random-1", "random-2"], findings)
    return path


def test_players_chart_legend_names_the_severities_in_dutch(
    info_archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In Dutch the month-by-month chart's legend names the severities in Dutch (fout for mistake);
    info findings are no mistakes and stay out of the chart, in either language (neither info
    nor opmerking)."""
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(info_archive))
    at = open_page(AppTest.from_file(APP, default_timeout=60), "players", player="Dirk", lang="nl")
    legend = svg_charts(at)["players_rates"]
    assert ">fout<" in legend and ">mistake<" not in legend
    assert ">opmerking<" not in legend and ">info<" not in legend
    english = open_page(AppTest.from_file(APP, default_timeout=60), "players", player="Dirk")
    assert (
        ">mistake<" in svg_charts(english)["players_rates"]
        and ">info<" not in svg_charts(english)["players_rates"]
    )


@pytest.mark.parametrize(("lang", "illegal"), [("en", "Illegal play"), ("nl", "Onreglementair")])
def test_record_illegal_play_warning_writes_cards_with_suit_symbols(
    empty_app: tuple[AppTest, Path], lang: str, illegal: str
) -> None:
    """The warning names the card as the grid does (9♣), and the winning card in the rule too."""
    at, _ = empty_app
    deal, place = deal_with_illegal_play()
    assert isinstance(deal.hands, list)
    at.run()
    at.query_params["lang"] = lang
    at.switch_page("app_pages/record.py").run()
    type_seats(at)
    at.button(key="record_start").click().run()
    draft_id = str(at.query_params["draft"])
    tap(at, "record_trump_H")
    type_hands(at, draft_id, deal.hands)
    cards = cards_of(deal)
    for card in cards[:place]:
        tap(at, f"record_card_{card}")
    tap(at, f"record_card_{cards[place]}")
    [warning] = [w.value for w in at.warning if illegal in w.value]
    assert SYMBOLS[cards[place]] in warning, warning
    assert not CARD_CODE.search(warning), warning
    # the rule under "who is to play" too; the hands box's typing hint (10H AH 7♥) shows what may be typed
    hits = [c.value for c in at.caption if CARD_CODE.search(c.value) and "10H AH" not in c.value]
    assert not hits, hits


def test_record_page_keeps_the_replay_link_after_a_reload(empty_app: tuple[AppTest, Path]) -> None:
    """Saved deal 1, then the page reloaded (a new session at the draft's address): the link to
    deal 1 in the Deal replay is still there, from the draft, not from the lost session."""
    at, path = empty_app
    draft = entered(legal_deal())
    finished, _, _ = rec.finish_deal(draft)
    drafts.save_match(draft, drafts.folder(path))
    drafts.save(finished, drafts.folder(path))
    open_at_draft(at, draft.draft_id)
    [link] = [e.proto for e in at.get("page_link") if "replay" in e.proto.page]
    assert link.label == "Open deal 1 in the Deal replay"
    assert "match=t-1" in link.query_string and "deal=1" in link.query_string


def test_match_page_without_a_match_says_what_to_do_and_offers_the_newest(app: AppTest) -> None:
    open_page(app, "match")
    assert "Choose a match above, or open one from the Archive page." in texts(app)
    links = [e.proto for e in app.get("page_link")]
    newest = [record.match.id for record in reversed(fixture_records())]
    assert [link.query_string for link in links] == [f"match={m}" for m in newest]
    assert all("match" in link.page for link in links)
    assert "random-2 (2026-03-03: " in links[0].label.replace("\\", "")
    dutch = open_page(AppTest.from_file(APP, default_timeout=60), "match", lang="nl")
    assert "Kies hierboven een partij, of open er een vanaf de pagina Archief." in texts(dutch)
    assert all("lang=nl" in e.proto.query_string for e in dutch.get("page_link"))


def test_match_page_on_an_empty_choice_of_an_empty_archive_still_says_how_to_import(
    empty_app: tuple[AppTest, Path],
) -> None:
    at, _ = empty_app
    open_page(at, "match")
    assert not at.get("page_link")


# --------------------------------------------------------------------------- the Archive on a phone

ARCHIVE_TABLE = '.mr-light-table[data-table="archive_table"]'
ARCHIVE_ROWS = f"{ARCHIVE_TABLE} tbody tr[data-row]"
SHOWN_HEADERS = (
    "box => [...box.querySelectorAll('th')].filter((th) => th.offsetWidth > 0).map((th) => th.textContent)"
)
"""The headers the table shows (a hidden column takes no room)."""
FIRST_ROW = """box => [...box.querySelector('tbody tr[data-row]').cells].filter((td) => td.offsetWidth > 0)
  .map((td) => {
    const cell = td.getBoundingClientRect();
    return {text: td.textContent, left: cell.left, right: cell.right};
  })"""
"""The first row's shown cells, each with its place on the screen."""
SCROLLS = "box => box.querySelector('.scroller').scrollWidth - box.querySelector('.scroller').clientWidth"
"""How far the table's box scrolls sideways."""


@pytest.mark.browser
def test_archive_on_a_phone_shows_the_teams_and_the_final_score(server: str, chromium: Any) -> None:
    """At 390x844 a row shows the match's date, both teams and the final score, all within the
    screen (the table does not scroll sideways); on a computer every column is there."""
    ARTIFACTS.mkdir(exist_ok=True)
    record = fixture_records()[2]  # the newest, first in the list
    teams = [" & ".join(record.match.seats[0::2]), " & ".join(record.match.seats[1::2])]
    for lang, headers in (
        ("en", ["Date", "Team A", "Team B", "Score"]),
        ("nl", ["Datum", "Ploeg A", "Ploeg B", "Score"]),
    ):
        page = chromium.new_page(viewport={"width": 390, "height": 844}, has_touch=True)
        page.goto(f"{server}/?lang={lang}")
        page.locator(ARCHIVE_ROWS).first.wait_for(timeout=30_000)
        page.wait_for_function(SETTLED_WITH_FONTS, timeout=30_000)  # the run over, not a fixed pause
        shot = ARTIFACTS / f"archive-phone-{lang}.png"
        page.screenshot(path=str(shot), full_page=True)
        assert page.locator(ARCHIVE_TABLE).evaluate(SHOWN_HEADERS) == headers
        cells = page.locator(ARCHIVE_TABLE).evaluate(FIRST_ROW)
        shown = [cell["text"] for cell in cells]
        assert shown[0] == str(record.match.date) and shown[1:3] == teams
        assert re.fullmatch(r"\d+-\d+", shown[3])
        assert all(cell["left"] >= 0 and cell["right"] <= 390 for cell in cells), cells
        assert page.locator(ARCHIVE_TABLE).evaluate(SCROLLS) <= 1
        page.close()
    page = chromium.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(f"{server}/")
    page.locator(ARCHIVE_ROWS).first.wait_for(timeout=30_000)
    shown = page.locator(ARCHIVE_TABLE).evaluate(SHOWN_HEADERS)
    assert {"Match", "Venue", "Variant", "Deals", "Findings", "Team A", "Score"} <= set(shown)
    # a column of numbers hidden on a phone still sorts largest first at the first click
    page.locator(f"{ARCHIVE_TABLE} th button", has_text="Findings").click()
    header = page.locator(f"{ARCHIVE_TABLE} th", has_text="Findings")
    assert header.get_attribute("aria-sort") == "descending"
    page.close()
