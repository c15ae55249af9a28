"""``manillen report`` and the ledger views: a small costed archive, its report's content, that the
report stands alone, the SQL ledger against the Python one, and the report in a phone-sized browser.

The archive holds two random legal matches of three deals and one sloppy match (illegal cards),
costed by ``manillen analyze --depth solver`` with few layouts so it stays quick. Expected values
come from the archive's own rows and the solver run again, never from the report's code.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from html import escape
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from manillen_replay import __version__
from manillen_replay.analysis.costs import can_solve, view_costs
from manillen_replay.analysis.ledger import deal_ledger
from manillen_replay.cli import cli
from manillen_replay.engine import DealKind, decode_and_replay
from manillen_replay.record import Entry, MatchInfo, Record, dumps
from manillen_replay.report import make_report
from manillen_replay.store import Store

from .conftest import costed_by_hand, sloppy_deal
from .factories import random_record
from .test_browser import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS

SAMPLES = 4
ROOT = Path(__file__).resolve().parent.parent
MATCH = "random-0"


def _records() -> list[Record]:
    records = [random_record(index, deals=3) for index in range(2)]
    rng = random.Random(11)
    records.append(
        Record(
            format="manillen/1",
            match=MatchInfo(id="slips", seats=["Anna", "Bert", "Carla", "Dirk"]),
            deals=[sloppy_deal(rng, index % 4, slip=0.4) for index in range(3)],
        )
    )
    return records


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The costed archive, with a comment on the deal and on the match's costliest card (as ranked)."""
    path = tmp_path_factory.mktemp("report") / "club.duckdb"
    with Store(path) as store:
        store.import_entries(
            [Entry("club.jsonl", n, dumps(r, pretty=False).encode()) for n, r in enumerate(_records(), 1)]
        )
    result = CliRunner().invoke(
        cli, ["analyze", "--db", str(path), "--depth", "solver", "--samples", str(SAMPLES)]
    )
    assert result.exit_code == 0, result.output
    with Store(path) as store:
        worst = first_card(store)[1:]
        store.add_annotation(MATCH, 2, None, None, "coach", "Deal two: count the trumps <before> you lead.")
        store.add_annotation(
            MATCH, worst[0], worst[1], worst[2], "coach", "Keep the manille here.", ["tempo"]
        )
    return path


def first_card(store: Store) -> tuple[str, int, int, int]:
    """The player, deal, trick and play of the match's costliest card as the archive ranks it."""
    ranked = store.biggest_mistakes([MATCH], top=50).filter(pl.col("trick").is_not_null())
    row = ranked.row(0, named=True)
    return row["player"], row["deal"], row["trick"], row["play"]


Place = tuple[int, int | None, int | None]
"""A decision in the report: deal, trick and play (trick and play ``None`` for a call)."""


def costliest(path: Path, player: str | None) -> list[Place]:
    """The decisions the report should show, in its order: each player's three costliest as the
    archive ranks them (``Store.biggest_mistakes``, the Match page's and ``findings --top``'s
    rule), player by player in the report's team order (the first seat's team first)."""
    with Store(path, read_only=True) as store:
        seats = list(
            store.query("SELECT seat0, seat1, seat2, seat3 FROM matches WHERE match_id = ?", [MATCH]).row(0)
        )
        names = [player] if player is not None else [seats[0], seats[2], seats[1], seats[3]]
        out: list[Place] = []
        for name in names:
            frame = store.biggest_mistakes([MATCH], player=name, top=3)
            out += [(r["deal"], r["trick"], r["play"]) for r in frame.iter_rows(named=True)]
    return out


def decisions_in(html: str) -> list[Place]:
    found = re.findall(
        r'<article class="decision" data-deal="(\d+)" (?:data-trick="(\d+)" data-play="(\d+)"|data-call)',
        html,
    )
    return [(int(d), int(t) if t else None, int(p) if p else None) for d, t, p in found]


def test_report_opens_with_each_players_three_costliest_cards_as_the_archive_ranks_them(
    archive: Path,
) -> None:
    """The review comes first, one section a player ("Anna's three costliest decisions in this match"),
    from the archive's ranking (the Match page's boxes and ``findings --top``), not a ranking of
    the report's own: each decision with its cost and the measure, and its reason."""
    with Store(archive, read_only=True) as store:
        html = make_report(store, MATCH)
        seats = store.query("SELECT seat0, seat1, seat2, seat3 FROM matches WHERE match_id = ?", [MATCH]).row(
            0
        )
        ranked = {name: store.biggest_mistakes([MATCH], player=name, top=3) for name in seats}
    assert f"{seats[0]} &amp; {seats[2]}" in html and f"{seats[1]} &amp; {seats[3]}" in html
    assert decisions_in(html) == costliest(archive, None)
    lines = 0
    assert html.index('id="review"') < html.index('id="score"') < html.index('id="deals"')
    for name, frame in ranked.items():
        if not frame.height:
            assert f"{name}: no costly decision in this match." in html
            continue
        count = {1: "costliest decision", 2: "two costliest decisions", 3: "three costliest decisions"}[
            frame.height
        ]
        section = html[html.index(f'<section class="player-review" data-player="{name}">') :]
        section = section[: section.index("</section>")]
        assert f"{name}&#x27;s {count} in this match" in section
        for row in frame.iter_rows(named=True):
            where = (
                f'data-deal="{row["deal"]}" data-trick="{row["trick"]}" data-play="{row["play"]}"'
                if row["trick"] is not None
                else f'data-deal="{row["deal"]}" data-call="{row["call"]}"'
            )
            article = section[section.index(where) :]
            article = article[: article.index("</article>")]
            if row["view_cost"] is not None and row["trick"] is not None:
                assert "card points from what the player could see" in article
                assert f"({int(row['dd_cost'])} with every hand known)" in article
            elif row["view_cost"] is not None:
                assert "of the deal&#x27;s expected score from what the player could see" in article
            # the reason in words, its negative figures with the report's minus sign
            assert escape(re.sub(r"(?<![\w-])-(?=\d)", "\u2212", row["explanation"])) in article
            if 'class="line"' in article:  # the better card's line, as the solver's review stored it
                lines += 1
                with Store(archive, read_only=True) as store:
                    taken = store.query(
                        "SELECT team_points FROM finding_lines WHERE match_id = ? AND deal = ? AND trick = ? "
                        "AND play = ? AND line = 'better' AND layout = 'view' LIMIT 1",
                        [MATCH, row["deal"], row["trick"], row["play"]],
                    ).item()
                assert f"take {taken} card points from here" in article
    assert lines  # the costly card's line is there
    for name in seats:
        assert f'data-player="{name}"' in html  # everyone's ledger row
    assert "accuracy-1" in html and "ledger-1" in html  # the formulas' versions in the footer
    assert "five costliest" not in html
    # each player's accuracy with the decisions it rests on (the calls too), then the cards chosen
    with Store(archive, read_only=True) as store:
        rows = store.query(
            "SELECT player, decisions, cards FROM player_accuracy WHERE scope = 'match' AND match_id = ?",
            [MATCH],
        ).rows()
    table = html[html.index('id="accuracy"') : html.index("</table>", html.index('id="accuracy"'))]
    for name, decisions, cards in rows:
        row = table[table.index(f">{name}<") :]
        cells = re.findall(r'<td class="num" data-label="[^"]*">([^<]*)</td>', row)[:3]
        assert cells[1:] == [str(decisions), str(cards)], (name, cells)


def test_report_for_one_player_shows_only_their_decisions_and_the_comments_where_they_belong(
    archive: Path,
) -> None:
    with Store(archive, read_only=True) as store:
        name, deal, trick, _ = first_card(store)
        others = [
            n
            for n in store.query("SELECT player FROM seats WHERE match_id = ?", [MATCH])["player"]
            if n != name
        ]
    out = archive.parent / "one.html"
    result = CliRunner().invoke(
        cli, ["report", "--db", str(archive), "--match", MATCH, "--player", name.upper(), "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    html = out.read_text(encoding="utf-8")
    assert f"Match review for {name}" in html
    expected = costliest(archive, name)
    assert decisions_in(html) == expected
    assert "costliest decision" in html and f'<section class="player-review" data-player="{name}">' in html
    assert not any(f'<section class="player-review" data-player="{other}">' in html for other in others)
    # the play comment sits in the article of the costliest card, the deal comment after deal 2's row
    first = html.index(f'data-deal="{deal}" data-trick="{trick}"')
    article = html[first : html.index("</article>", first)]
    assert "Keep the manille here." in article and "tempo" in article
    deal_row = html.index('<tr data-deal="2">')
    assert html.index("count the trumps &lt;before&gt; you lead.") > deal_row
    assert html.index("count the trumps") < html.index('<tr data-deal="3">')
    assert "<before>" not in html  # comments are escaped
    with Store(archive, read_only=True) as store:
        ledger = store.player_ledger("match", match_id=MATCH, player=name).row(0, named=True)
    row = html[html.index(f'<tr data-player="{name}">') :]
    row = row[: row.index("</tr>")]
    assert f">{ledger['cards']}<" in row and f">{ledger['points']}<" in row


def test_report_references_nothing_outside_itself(archive: Path) -> None:
    with Store(archive, read_only=True) as store:
        html = make_report(store, MATCH, lang="nl")
    assert not re.search(r"https?://", html)
    assert not re.search(r"\b(src|href|xlink:href)\s*=", html)
    assert "url(" not in html and "@import" not in html and "<link" not in html and "<script" not in html
    assert "<svg" in html and "<style>" in html and "@media print" in html and "size: A4" in html
    assert "Partijbespreking" in html and "duurste beslissing" in html
    # its cards and suits are named to a screen reader in Dutch too ("7 spades" was read out)
    labels = re.findall(r'aria-label="([^"]*)"', html)
    english = [label for label in labels if re.search(r"\b(hearts|diamonds|clubs|spades)\b", label)]
    assert labels and not english
    assert any(re.fullmatch(r"(harten|koeken|klaveren|schoppen) \w+", label) for label in labels)


def test_report_without_costs_says_how_to_get_them(tmp_path: Path) -> None:
    path = tmp_path / "plain.duckdb"
    with Store(path) as store:
        store.import_entries([Entry("a.jsonl", 1, dumps(random_record(5, deals=2), pretty=False).encode())])
        html = make_report(store, "random-5")
    assert "manillen analyze --depth solver" in html
    assert decisions_in(html) == []
    assert '<tr data-deal="2">' in html


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_a_scoresheet_only_report_says_there_are_no_cards_to_review(tmp_path: Path, lang: str) -> None:
    """Telling a player to run the solver on a match with no cards played would send them to
    a command that can add nothing."""
    sheet = ROOT / "data" / "samples" / "scoresheet.json"
    with Store(tmp_path / "sheet.duckdb") as store:
        store.import_paths([sheet])
        (match_id,) = store.query("SELECT match_id FROM matches")["match_id"].to_list()
        html = make_report(store, match_id, lang=lang)
    words = {"en": "recorded as a scoresheet only", "nl": "alleen als scoreblad opgenomen"}[lang]
    assert words in html and "manillen analyze --depth solver" not in html


def test_a_club_evening_report_gives_each_block_its_own_teams(tmp_path: Path) -> None:
    """The partners change every block: the result is the blocks won, and every block's and
    deal's figures show the player's team *of that block* first (Dirk won block 3 with Anna)."""
    with Store(tmp_path / "evening.duckdb") as store:
        store.import_paths([ROOT / "data" / "samples" / "club-evening.json"])
        dirk = make_report(store, "club-evening-2026-11-27", player="Dirk")
        everyone = make_report(store, "club-evening-2026-11-27", lang="nl")
    result = dirk.split('<p class="final">')[1].split("</p>")[0]
    assert result == "<b>Blocks won: Anna 3, Bert 1, Carla 1, Dirk 1</b>"
    assert "Anna &amp; Carla won" not in dirk and 'id="score"' not in dirk  # no chart over mixed teams
    blocks = [re.sub(r"<[^>]+>", "|", row) for row in re.findall(r'<tr data-block="\d">(.*?)</tr>', dirk)]
    shown = [
        [cell for cell in row.split("|") if cell and not cell.startswith(("Block", "Teams", "Score"))]
        for row in blocks
    ]
    assert [cells[:4] for cells in shown] == [
        ["1", "Bert &amp; Dirk against Anna &amp; Carla", "32-56", "Anna &amp; Carla"],
        ["2", "Carla &amp; Dirk against Anna &amp; Bert", "30-48", "Anna &amp; Bert"],
        ["3", "Anna &amp; Dirk against Bert &amp; Carla", "58-24", "Anna &amp; Dirk"],
    ]
    assert "Block 3: Anna &amp; Dirk against Bert &amp; Carla" in dirk
    last = dirk.split('<tr data-deal="36">')[1].split("</tr>")[0]
    assert ">58-24<" in last  # Dirk's team of block 3 first
    first = dirk.split('<tr data-deal="12">')[1].split("</tr>")[0]
    assert ">32-56<" in first  # ... and of block 1
    assert "Gewonnen blokken: Anna 3, Bert 1, Carla 1, Dirk 1" in everyone
    assert "Blok 2: Anna &amp; Bert tegen Carla &amp; Dirk" in everyone  # the first seat's team first


def test_a_club_evening_report_with_a_block_under_way(tmp_path: Path) -> None:
    """Halfway through the third block (30 of 36 deals): the report was an IndexError, on the Club
    evening page and from the command line, all evening long."""
    document = json.loads((ROOT / "data" / "samples" / "club-evening.json").read_text(encoding="utf-8"))
    document["deals"] = document["deals"][:30]
    with Store(tmp_path / "evening.duckdb") as store:
        store.import_entries([Entry("evening.json", None, json.dumps(document).encode())])
        dirk = make_report(store, "club-evening-2026-11-27", player="Dirk")
        # the block's score so far: its last deal's (an evening has no match score of its own)
        last_deal = "SELECT match_score_0, match_score_1 FROM deals ORDER BY deal DESC LIMIT 1"
        score = store.query(last_deal).row(0)
    row = re.sub(r"<[^>]+>", "|", dirk.split('<tr data-block="3">')[1].split("</tr>")[0])
    cells = [cell for cell in row.split("|") if cell and cell not in ("Block", "Teams", "Score", "Won by")]
    # Dirk plays with Anna in block 3: their team (team 0 of its seating) first
    assert cells == ["3", "Anna &amp; Dirk against Bert &amp; Carla", f"{score[0]}-{score[1]}", "under way"]
    assert "Blocks won: Anna 2, Bert 1, Carla 1, Dirk 0" in dirk  # the two blocks over


def test_a_club_evening_two_deals_in_is_reported_as_an_evening(tmp_path: Path) -> None:
    """Two deals into the first block, no seating change seen yet: the report drew the score chart
    of block 1's pairs; it shows the block under way instead."""
    document = json.loads((ROOT / "data" / "samples" / "club-evening.json").read_text(encoding="utf-8"))
    document["deals"] = document["deals"][:2]
    with Store(tmp_path / "evening.duckdb") as store:
        store.import_entries([Entry("evening.json", None, json.dumps(document).encode())])
        dirk = make_report(store, "club-evening-2026-11-27", player="Dirk")
    assert '<tr data-block="1">' in dirk and "under way" in dirk
    assert '<svg class="chart' not in dirk


@pytest.mark.parametrize(
    ("args", "message", "code"),
    [
        # a --match the archive does not hold is a usage error in every command (docs/cli.md)
        (["--match", "nope"], "no match with id 'nope' in the archive", 2),
        (["--match", MATCH, "--player", "Zoe"], "'Zoe' did not play", 2),
    ],
)
def test_report_bad_match_or_player_is_a_message(
    archive: Path, args: list[str], message: str, code: int
) -> None:
    result = CliRunner().invoke(
        cli, ["report", "--db", str(archive), *args, "--out", str(archive.parent / "x.html")]
    )
    assert result.exit_code == code
    assert message in result.output and "Traceback" not in result.output


THREE_DUMMY_MATCH = "sample-three-dummy"


def report_three_dummy(db: Path, out: Path, *args: str) -> tuple[int, str]:
    """``manillen report`` of the ``three_dummy`` sample: the exit code, and the page (the match's
    id, which says ``dummy``, left out) or the command's output when it fails."""
    run = CliRunner().invoke(
        cli, ["report", "--db", str(db), "--match", THREE_DUMMY_MATCH, *args, "--out", str(out)]
    )
    if run.exit_code:
        return run.exit_code, run.output
    return 0, out.read_text(encoding="utf-8").replace(THREE_DUMMY_MATCH, "MATCH")


@pytest.mark.parametrize("player", [None, "Anna"])
def test_a_dutch_report_names_the_dummys_seat_in_dutch(
    three_dummy_db: Path, tmp_path: Path, player: str | None
) -> None:
    """``manillen report --lang nl`` of a ``three_dummy`` match, for everyone or for the dealer,
    names the dummy's seat ``blinde van Anna`` on every table it draws (the review's and the
    puzzles'), and never in English; the English report says ``Anna's dummy``."""
    whom = [] if player is None else ["--player", player]
    code, html = report_three_dummy(three_dummy_db, tmp_path / "nl.html", *whom, "--lang", "nl")
    assert code == 0, html
    named = re.findall(r'data-seat="3"><div class="name">([^<]*)</div>', html)
    assert named and set(named) == {"blinde van Anna"}
    assert "dummy" not in html
    code, english = report_three_dummy(three_dummy_db, tmp_path / "en.html", *whom)
    assert code == 0, english
    assert re.findall(r'data-seat="3"><div class="name">([^<]*)</div>', english) == [
        "Anna&#x27;s dummy"
    ] * len(named)
    # each keeps a score: the deals' figures are the shown player's side of each deal, so named
    assert escape(f"in card points for {player or 'Anna'}'s side in each deal") in english


def test_a_three_player_reports_deal_figures_are_the_shown_players_side_first(tmp_path: Path) -> None:
    """The deals' card points were the dealer's side's of seat 0 whoever the report was for and
    whoever dealt: Bert's report showed Anna's side first in a deal Bert dealt alone."""
    source, db = tmp_path / "three.jsonl", tmp_path / "club.duckdb"
    runner = CliRunner()
    made = runner.invoke(
        cli, ["generate", "--variant", "three", "--matches", "1", "--seed", "4", "--out", str(source)]
    )
    assert made.exit_code == 0, made.output
    doc = json.loads(source.read_text().splitlines()[0])
    doc["deals"] = [deal for deal in doc["deals"] if deal.get("tricks")][:2]  # dealt by two players
    source.write_text(json.dumps(doc) + "\n")
    assert runner.invoke(cli, ["import", str(source), "--db", str(db)]).exit_code == 0
    (match,) = json.loads(runner.invoke(cli, ["replay", str(source), "--json"]).stdout)["matches"]
    seats = match["seats"]

    def points_shown(player: str) -> list[str]:
        out = tmp_path / f"{player}.html"
        run = runner.invoke(
            cli, ["report", "--db", str(db), "--match", match["id"], "--player", player, "--samples", "1",
                  "--out", str(out)],
        )  # fmt: skip
        assert run.exit_code == 0, run.output
        rows = re.findall(r'<tr data-deal="\d+">(.*?)</tr>', out.read_text(encoding="utf-8"), re.S)
        return [re.sub(r"<[^>]+>", "", re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)[3]) for row in rows]

    for deal, shown in zip(
        match["deals"], zip(*(points_shown(name) for name in seats), strict=True), strict=True
    ):
        for seat, text in enumerate(shown):
            side = next(index for index, members in enumerate(deal["sides"]) if seat in members)
            assert text == f"{deal['points'][side]}-{deal['points'][1 - side]}", (deal["deal"], seats[seat])


def test_the_match_pages_dutch_download_names_the_dummys_seat_in_dutch(
    three_dummy_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Match page's Download report in Dutch is the same report: ``blinde van Anna``."""
    from dashboards import data

    monkeypatch.setenv(data.DB_ENVIRONMENT, str(three_dummy_db))
    try:
        made = data.report_html(THREE_DUMMY_MATCH, None, "nl").decode("utf-8")
    finally:
        data.archive().close()
    assert "blinde van Anna" in made and "dummy" not in made.replace(THREE_DUMMY_MATCH, "MATCH")


def test_the_dealers_report_reviews_the_dummys_cards(three_dummy_db: Path, tmp_path: Path) -> None:
    """The dummy's cards of ``three_dummy`` are its dealer's decisions: ``--player Anna`` reviews
    them with her own, as the archive ranks Anna's (``findings.player`` is the dealer)."""
    with Store(three_dummy_db, read_only=True) as store:
        ranked = store.biggest_mistakes([THREE_DUMMY_MATCH], player="Anna", top=3)
    expected = [(r["deal"], r["trick"], r["play"]) for r in ranked.iter_rows(named=True)]
    assert (1, 3, 1) in expected and ranked.filter(pl.col("trick") == 3)["seat"].sort().to_list() == [0, 3]
    code, html = report_three_dummy(three_dummy_db, tmp_path / "anna.html", "--player", "anna")
    assert code == 0, html
    assert decisions_in(html) == expected


@pytest.mark.parametrize("asked", ["Anna's dummy", "blinde van anna"])
def test_the_dummy_is_no_player_of_a_report(three_dummy_db: Path, tmp_path: Path, asked: str) -> None:
    """``--player`` takes people: the dummy's seat of ``three_dummy`` (in English or Dutch) is
    refused, the message naming the dealer whose decisions its cards are and the real players."""
    code, output = report_three_dummy(three_dummy_db, tmp_path / "dummy.html", "--player", asked)
    assert code == 2 and "Traceback" not in output
    assert f"{asked!r} is the dummy's seat" in output and "not a player" in output
    assert "its cards are Anna's decisions" in output
    assert output.rstrip().endswith("the players are Anna, Bert, Carla")
    assert not (tmp_path / "dummy.html").exists()


def seats_at(html: str, trick: int, play: int) -> dict[str, tuple[str, list[str]]]:
    """The table drawn with the decision of ``trick`` and ``play``: each seat's name, by its place
    (``s`` the decider's), and the cards shown in its hand."""
    article = re.search(
        rf'<article class="decision" data-deal="1" data-trick="{trick}" data-play="{play}".*?</article>', html
    )
    assert article, (trick, play)
    boxes = re.findall(
        r'<div class="seat at-(\w+)[^"]*" data-seat="\d"><div class="name">([^<]*)<'
        r'.*?<div class="hand">(.*?)</div></div>',
        article.group(0),
    )
    return {place: (name, re.findall(r'data-card="(\w+)"', hand)) for place, name, hand in boxes}


@pytest.mark.parametrize(("player", "lang"), [(None, "en"), ("Anna", "nl"), ("Bert", "en")])
def test_a_two_player_report_shows_the_open_table_cards(
    two_open_db: Path, tmp_path: Path, lang: str, player: str | None
) -> None:
    """A report of the two-player game with open table cards (``two_open``) draws its two seats
    face to face, each with the cards it could play from: its hand and its face-up table cards,
    as the deal replay shows them (a card played from a pile turns up the one under it; Bert's
    AH moved to his emptied fourth place turns up his 9C)."""
    whom = ["--player", player] if player else []
    run = CliRunner().invoke(
        cli,
        [
            "report",
            "--db",
            str(two_open_db),
            "--match",
            "sample-two-open",
            "--lang",
            lang,
            *whom,
            "--out",
            str(tmp_path / "two.html"),
        ],
    )
    assert run.exit_code == 0, run.output
    html = (tmp_path / "two.html").read_text(encoding="utf-8")
    if player != "Bert":  # Anna's KD from her table piles, Bert's 8D on the table
        assert seats_at(html, 1, 2) == {
            "s": ("Anna", ["9H", "10D", "AD", "KD", "7D", "10C", "AC", "KC", "8C", "10S", "JS", "9S"]),
            "n": ("Bert", ["10H", "AH", "KH", "QH", "JH", "7H", "QD", "JD", "9D", "QC", "JC", "KS"]),
        }
    if player != "Anna":
        bert, anna = seats_at(html, 13, 2)["s"], seats_at(html, 13, 2)["n"]
        assert bert == ("Bert", ["10H", "AH", "KH", "9C"]) and anna == ("Anna", ["AC", "KC", "QS"])


def test_a_six_player_report_draws_every_seat_clockwise(tmp_path: Path) -> None:
    """In the six-player game the table has two seats on each side: the decider at the bottom,
    the next two up the left, the one opposite at the top, the last two down the right (Carla
    plays the second card of trick 1 after Bert's lead)."""
    db = costed_by_hand(ROOT / "data" / "samples" / "variant-six.json", ((1, 2),), tmp_path / "six.duckdb")
    with Store(db, read_only=True) as store:
        html = make_report(store, "sample-six")
    places = {place: name for place, (name, _) in seats_at(html, 1, 2).items()}
    assert places == {"s": "Carla", "sw": "Dirk", "nw": "Emiel", "n": "Fien", "ne": "Anna", "se": "Bert"}
    held = {place: len(cards) for place, (_, cards) in seats_at(html, 1, 2).items()}
    assert held == {"s": 6, "sw": 6, "nw": 6, "n": 6, "ne": 6, "se": 5}  # Bert led trick 1


def test_sql_ledger_equals_the_python_ledger_deal_by_deal(archive: Path) -> None:
    """The archive's ``deal_ledger`` view and :func:`deal_ledger` on the solver's costs computed
    again (same seed, same layouts) agree on every costed deal, the sloppy match's illegal cards
    included."""
    with Store(archive, read_only=True) as store:
        records = dict(store.iter_records())
        rows = {
            (r["match_id"], r["deal"], r["team"]): r
            for r in store.query("SELECT * FROM deal_ledger").iter_rows(named=True)
        }
        # every reviewed call's loss: a knock judged by a klop_missed finding as well
        calls = store.query(
            "SELECT match_id, deal, seat % 2 AS team, sum(greatest(loss, 0.0)) AS calls FROM call_decisions "
            "GROUP BY ALL"
        )
    call_points = {(r["match_id"], r["deal"], r["team"]): r["calls"] for r in calls.iter_rows(named=True)}
    checked = illegal = 0
    for match_id, text in records.items():
        match = decode_and_replay(text.decode())
        for deal in match.deals:
            if deal.kind is not DealKind.PLAYED or not can_solve(deal, match.rules):
                continue
            ledger = deal_ledger(deal, view_costs(deal, match.rules, samples=SAMPLES))
            for team in ledger.teams:
                row = rows[(match_id, deal.number, team.team)]
                assert (row["cards"], row["given_away"], row["won_back"], row["illegal"], row["points"]) == (
                    team.cards,
                    team.given_away,
                    team.won_back,
                    team.illegal,
                    team.points,
                )
                assert row["mistakes"] == pytest.approx(team.mistakes)
                assert row["luck"] == pytest.approx(team.luck)
                reviewed = call_points.get((match_id, deal.number, team.team))
                assert row["calls"] == (None if reviewed is None else pytest.approx(reviewed))
                illegal += row["illegal_cards"] > 0
                checked += 1
    assert checked == len(rows) > 10
    assert illegal  # the sloppy match's illegal cards are covered


def test_player_ledger_adds_up_in_every_scope(archive: Path) -> None:
    with Store(archive, read_only=True) as store:
        frame = store.query("SELECT * FROM player_ledger")
        deals = store.player_ledger("deal", player="anna")
        total = store.player_ledger("all", player="ANNA").row(0, named=True)
    assert set(frame["scope"].unique().to_list()) == {"deal", "match", "evening", "all"}
    for row in frame.iter_rows(named=True):
        assert (
            row["cards"] - row["given_away"] - row["partner_given_away"] + row["won_back"] + row["illegal"]
            == row["points"]
        ), row
    assert total["deals"] == deals.height
    for column in ("cards", "given_away", "won_back", "points"):
        assert total[column] == deals[column].sum()


def check_report_example(folder: Path) -> None:
    """What ``manillen report --help``'s examples wrote in ``folder``, where the examples test ran
    them as written (tests/test_cli.py): Anna's Dutch report, her costliest decisions as the
    archive ranks them, or the line saying she made none."""
    html = (folder / "anna.html").read_text(encoding="utf-8")
    assert "Partijbespreking voor Anna" in html
    with Store(folder / "review.duckdb", read_only=True) as store:
        ranked = store.biggest_mistakes(["cafe-rules"], player="Anna", top=3)
    assert len(decisions_in(html)) == ranked.height
    assert ranked.height or "Anna: geen dure beslissing in deze partij." in html


@pytest.fixture
def report_file(archive: Path) -> Iterator[Path]:
    out = archive.parent / "phone.html"
    with Store(archive, read_only=True) as store:  # the player of the costliest card: a table drawn
        out.write_text(make_report(store, MATCH, player=first_card(store)[0]), encoding="utf-8")
    yield out


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium: apt-get install -y chromium")
def test_report_opens_offline_at_phone_width(report_file: Path) -> None:
    playwright_api = pytest.importorskip("playwright.sync_api")
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / "report-phone.png"
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=["--headless", "--disable-gpu", *CHROMIUM_ARGS]
        )
        try:
            context = browser.new_context(viewport={"width": 390, "height": 844}, offline=True)
            page = context.new_page()
            requests: list[str] = []
            page.on("request", lambda request: requests.append(request.url))
            page.goto(report_file.as_uri())
            page.locator("article.decision").first.wait_for(timeout=15_000)
            with Store(report_file.parent / "club.duckdb", read_only=True) as store:
                name, _, trick, _ = first_card(store)
            assert page.locator("article.decision").count() == len(
                costliest(report_file.parent / "club.duckdb", name)
            )
            # nothing wider than the phone: wide tables scroll inside their own box
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            # the legend's two, and the four hands and the trick of the costly card's table at least
            assert page.locator("svg.card").count() >= 2 + 4 * (9 - trick)
            page.screenshot(path=str(shot), full_page=True)
            page.emulate_media(media="print")
            assert page.evaluate("getComputedStyle(document.querySelector('.table')).backgroundColor") in (
                "rgb(255, 255, 255)",
            )
        finally:
            browser.close()
    assert requests == [report_file.as_uri()]  # the page itself, nothing else
    assert shot.stat().st_size > 10_000


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium: apt-get install -y chromium")
def test_a_puzzles_folded_answer_prints_unfolded() -> None:
    """On paper nothing unfolds: the report's stylesheet prints a puzzle's answer under it."""
    from manillen_replay.report.puzzles import PUZZLE_STYLE
    from manillen_replay.report.render import STYLE

    playwright_api = pytest.importorskip("playwright.sync_api")
    markup = (
        f"<style>{STYLE}{PUZZLE_STYLE}</style><div class='puzzle'><details><summary>Answer</summary>"
        "<p id='answer'>K♥: better than any other card</p></details></div>"
    )
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=["--headless", "--disable-gpu", *CHROMIUM_ARGS]
        )
        try:
            page = browser.new_page()
            page.set_content(markup)
            assert not page.locator("#answer").is_visible()  # folded on the screen
            page.emulate_media(media="print")
            assert page.locator("#answer").is_visible()
        finally:
            browser.close()


# --------------------------------------------------------------------------- dashboard


@pytest.fixture
def app(archive: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    from streamlit.testing.v1 import AppTest

    from dashboards import data

    from .test_dashboard import APP

    monkeypatch.setenv(data.DB_ENVIRONMENT, str(archive))
    yield AppTest.from_file(APP, default_timeout=60)


def test_match_page_shows_the_ledger_and_offers_the_report(app: object, archive: Path) -> None:
    from .tables import light_tables
    from .test_dashboard import open_expander, open_page, svg_charts, tick_interactive_charts

    at = open_page(app, "match", match=MATCH)  # type: ignore[arg-type]
    assert "The cards and the decisions (solver)" in [s.value for s in at.subheader]
    table = next(frame.value for frame in light_tables(at) if "won_back" in frame.value.columns)
    with Store(archive, read_only=True) as store:
        expected = store.player_ledger("match", match_id=MATCH)
    assert sorted(table["player"]) == sorted(expected["player"].to_list())
    for row in expected.iter_rows(named=True):
        shown = table.filter(table["player"] == row["player"]).row(0, named=True)
        assert (shown["cards"], shown["points"], shown["given_away"]) == (
            row["cards"],
            row["points"],
            -row["given_away"],  # a step down, written with its sign as the waterfall draws it
        )
    # a waterfall per player, the report's picture, on one scale; the Plotly waterfall on demand
    pictures = svg_charts(at)["match_ledger_chart"]  # type: ignore[arg-type]
    assert pictures.count('<svg class="chart"') == len(expected)
    for name in expected["player"].to_list():
        assert f"{name}: where the points came from" in pictures
    tick_interactive_charts(at, "match", True)
    assert any(chart.proto.spec and "waterfall" in chart.proto.spec for chart in at.get("plotly_chart"))  # type: ignore[attr-defined]
    # the report's box is drawn closed (no download script on a first view), then opened
    assert not at.get("download_button")
    assert "Report to take home" in [box.label for box in at.expander]  # type: ignore[attr-defined]
    open_expander(at, "match_report_open")  # type: ignore[arg-type]
    buttons = [b.proto.label for b in at.get("download_button")]
    assert "Download report" in buttons


def test_report_for_the_download_is_the_command_s_file(
    archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dashboards import data

    monkeypatch.setenv(data.DB_ENVIRONMENT, str(archive))
    made = data.report_html(MATCH, "Bert", "nl").decode("utf-8")
    out = archive.parent / "bert.html"
    result = CliRunner().invoke(
        cli,
        [
            "report",
            "--db",
            str(archive),
            "--match",
            MATCH,
            "--player",
            "Bert",
            "--lang",
            "nl",
            "--out",
            str(out),
        ],
    )
    data.archive().close()
    assert result.exit_code == 0, result.output
    assert made == out.read_text(encoding="utf-8")


def test_players_page_shows_the_ledger_match_by_match(app: object, archive: Path) -> None:
    from .test_dashboard import open_page, texts

    at = open_page(app, "players", player="Anna")  # type: ignore[arg-type]
    with Store(archive, read_only=True) as store:
        total = store.player_ledger("all", player="Anna").row(0, named=True)
    assert f"Over {total['deals']} costed deals: the cards {total['cards']}" in texts(at)
    assert "The cards and the decisions (solver)" in [s.value for s in at.subheader]


def test_findings_json_summarises_each_players_ledger(archive: Path) -> None:
    import json

    run = CliRunner()
    over_match = json.loads(
        run.invoke(cli, ["findings", "--db", str(archive), "--match", MATCH, "--json"]).output
    )["summaries"]
    all_time = json.loads(
        run.invoke(cli, ["findings", "--db", str(archive), "--player", "bert", "--json"]).output
    )["summaries"]
    with Store(archive, read_only=True) as store:
        expected = store.player_ledger("match", match_id=MATCH)
        bert = store.player_ledger("all", player="Bert").row(0, named=True)
    assert {row["player"] for row in over_match} == set(expected["player"].to_list())
    assert all(row["scope"] == "match" and row["match_id"] == MATCH for row in over_match)
    (summary,) = all_time
    assert summary["scope"] == "all" and summary["player"] == "Bert"
    assert (summary["cards"], summary["given_away"], summary["won_back"], summary["points"]) == (
        bert["cards"],
        bert["given_away"],
        bert["won_back"],
        bert["points"],
    )


def test_deal_list_shows_the_ledger_of_the_players_team(archive: Path) -> None:
    with Store(archive, read_only=True) as store:
        html = make_report(store, MATCH, player="Bert")
        seat = store.query("SELECT seat FROM seats WHERE match_id = ? AND player = 'Bert'", [MATCH]).item()
        rows = store.deal_ledger(MATCH).filter(team=seat % 2)
    assert rows.height == 3
    for row in rows.iter_rows(named=True):
        start = html.index(f'<tr data-deal="{row["deal"]}">')
        cells = html[start : html.index("</tr>", start)]
        assert f">{row['cards']}-{60 - row['cards']}<" in cells
        decisions = row["won_back"] - row["given_away"] + row["illegal"]
        shown = "0" if decisions == 0 else ("+" if decisions > 0 else "−") + str(abs(decisions))
        assert f">{shown}<" in cells


def test_deal_list_counts_illegal_cards_in_the_decisions(archive: Path) -> None:
    """An illegal card costs its team points, and the deal list's "decisions" column says so: in the
    sloppy match each team's decisions are what it won back, less what it gave away, plus (a
    negative number) its illegal cards, for both teams of every deal."""
    illegal = 0
    with Store(archive, read_only=True) as store:
        for player in ("Anna", "Bert"):
            html = make_report(store, "slips", player=player)
            seat = store.query(
                "SELECT seat FROM seats WHERE match_id = 'slips' AND player = ?", [player]
            ).item()
            rows = store.deal_ledger("slips").filter(team=seat % 2)
            assert rows.height == 3
            for row in rows.iter_rows(named=True):
                start = html.index(f'<tr data-deal="{row["deal"]}">')
                cells = html[start : html.index("</tr>", start)]
                decisions = row["won_back"] - row["given_away"] + row["illegal"]
                shown = "0" if decisions == 0 else ("+" if decisions > 0 else "−") + str(abs(decisions))
                assert f">{shown}<" in cells
                illegal += row["illegal"] != 0
    assert illegal  # the sloppy match's illegal cards change some team's decisions


def _figures_text(html: str) -> str:
    """The report's visible text, the styles and the footer's version number left out."""
    html = re.sub(r"<style>.*?</style>", "", html, flags=re.S).replace(__version__, "")
    return re.sub(r"<[^>]+>", " ", html)


def test_report_in_dutch_writes_decimal_commas_and_real_minus_signs(archive: Path) -> None:
    with Store(archive, read_only=True) as store:
        english = _figures_text(make_report(store, MATCH, lang="en"))
        dutch = _figures_text(make_report(store, MATCH, lang="nl"))
    decimals = re.findall(r"\d+\.\d+", english)
    assert decimals  # accuracy, the ledger and the costs have decimals in this archive
    assert not re.search(r"\d\.\d", dutch)
    assert sorted(re.findall(r"\d+,\d+", dutch)) == sorted(d.replace(".", ",") for d in decimals)
    for text in (english, dutch):
        assert not re.search(r"(?<![\w-])-\d", text)  # a negative figure has the minus sign, not a hyphen
    assert "\u2212" in english and "\u2212" in dutch


@pytest.mark.parametrize("player", [None, "Mieke"])
def test_a_three_player_report_gives_each_player_a_score_and_each_deal_the_side_that_scored(
    tmp_path: Path, player: str | None
) -> None:
    """The report set seat 0 against seats 1 and 2 for the whole match: "Final score 37-112-58:
    Piet & Mieke won" where Piet won alone, each deal's points to a fixed "team" whoever dealt,
    and the score chart's "Piet & Mieke" line was Piet's, Mieke's not drawn."""
    source, db, out = tmp_path / "three.jsonl", tmp_path / "club.duckdb", tmp_path / "three.html"
    runner = CliRunner()
    players = "Jan:club,Piet:club,Mieke:club"
    made = runner.invoke(
        cli,
        [
            "generate",
            "--variant",
            "three",
            "--matches",
            "1",
            "--seed",
            "4",
            "--players",
            players,
            "--out",
            str(source),
        ],
    )
    assert made.exit_code == 0, made.output
    # the scoresheet's lines only: the scores are the same, and there is nothing for the solver
    doc = json.loads(source.read_text().splitlines()[0])
    for deal in doc["deals"]:
        for cards in ("hands", "tricks", "discards"):
            deal.pop(cards, None)
    source.write_text(json.dumps(doc) + "\n")
    assert runner.invoke(cli, ["import", str(source), "--db", str(db)]).exit_code == 0
    (match,) = json.loads(runner.invoke(cli, ["replay", str(source), "--json"]).stdout)["matches"]
    seats = match["seats"]
    whom = [] if player is None else ["--player", player]
    run = runner.invoke(cli, ["report", "--db", str(db), "--match", match["id"], *whom, "--out", str(out)])
    assert run.exit_code == 0, run.output
    html = out.read_text(encoding="utf-8")
    assert f'<p class="team-names">{" · ".join(seats)}</p>' in html
    score = "-".join(str(value) for value in match["final_score"])
    assert escape(f"Final score {score}: {seats[match['winner']]} won") in html
    outcomes = re.findall(r'<tr data-deal="(\d+)">(.*?)</tr>', html)
    said = {int(number): row for number, row in outcomes}
    for deal in match["deals"]:
        if deal["score"] is None or deal["score"].get("team") is None:
            continue
        side = " &amp; ".join(seats[s] for s in deal["sides"][deal["score"]["team"]])
        assert f"{side} +{deal['score']['points']}" in said[deal["deal"]], deal["deal"]
    chart = html[html.index("Score deal by deal") :]
    assert all(name in chart for name in seats)
