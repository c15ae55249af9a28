"""Puzzles from a player's own costly decisions: the choosing rule (a clear margin, near-ties
left out), the source and the hidden hands, the Leitner boxes that bring a missed puzzle back,
``manillen puzzles``, the report's three puzzles and the Train page.

The archive holds three random legal matches costed by ``manillen analyze --depth solver`` with
few layouts. Expected puzzles come from the archive's rows by SQL and from the replayed deals,
never from the puzzle code itself.
"""

from __future__ import annotations

import datetime
import json
import re
import shutil
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from manillen_replay.analysis.puzzles import (
    MARGIN,
    RELEARN,
    Puzzle,
    PuzzleKind,
    _call_puzzle,
    _drills,
    _sample,
    hands_before,
    is_clear,
    make_puzzles,
    next_puzzle,
)
from manillen_replay.cards import Card, CardSet
from manillen_replay.cli import cli
from manillen_replay.engine import TrickResult, decode_and_replay
from manillen_replay.engine.replay import ReplayVisitor
from manillen_replay.engine.turns import hands_dealt
from manillen_replay.record import Entry, dumps
from manillen_replay.report import make_report
from manillen_replay.report.puzzles import answer_html
from manillen_replay.report.words import say
from manillen_replay.store import Store

from .conftest import THREE_DUMMY, THREE_DUMMY_COSTLY, TWO_OPEN
from .factories import random_record

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = 6


def build_costed(path: Path) -> Path:
    """Three random matches of four deals, costed by the solver with few layouts."""
    with Store(path) as store:
        store.import_entries(
            [
                Entry("club.jsonl", n, dumps(random_record(n, deals=4), pretty=False).encode())
                for n in range(3)
            ]
        )
    result = CliRunner().invoke(
        cli, ["analyze", "--db", str(path), "--depth", "solver", "--samples", str(SAMPLES), "--quiet"]
    )
    assert result.exit_code == 0, result.output
    return path


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_costed(tmp_path_factory.mktemp("puzzles") / "club.duckdb")


@pytest.fixture
def writable(archive: Path, tmp_path: Path) -> Iterator[Store]:
    copy = tmp_path / "train.duckdb"
    shutil.copy(archive, copy)
    with Store(copy) as store:
        yield store


def trainee(archive: Path) -> str:
    """The player with the most card puzzles."""
    with Store(archive, read_only=True) as store:
        puzzles = make_puzzles(store.puzzle_rows())
    counts: dict[str, int] = {}
    for puzzle in puzzles:
        if puzzle.kind is PuzzleKind.CARD:
            counts[puzzle.player] = counts.get(puzzle.player, 0) + 1
    return max(sorted(counts), key=lambda name: counts[name])


# --------------------------------------------------------------------------- the choosing rule


def test_a_clear_best_card_makes_a_puzzle_with_its_margin() -> None:
    answers, margin = is_clear({"9H": 20.0, "KH": 14.0, "AS": 16.5}, "KH", 0.4)  # type: ignore[misc]
    assert answers == {"9H"} and margin == pytest.approx(3.5)


def test_a_near_tie_is_no_puzzle() -> None:
    # the second card is within the margin: a strong player could call either best
    assert is_clear({"9H": 20.0, "AS": 20.0 - MARGIN + 0.1, "KH": 14.0}, "KH", 0.0) is None
    # at the margin it is a puzzle again
    assert is_clear({"9H": 20.0, "AS": 20.0 - MARGIN, "KH": 14.0}, "KH", 0.0) is not None


def test_cards_equal_within_sampling_noise_are_all_accepted() -> None:
    clear = is_clear({"8C": 18.0, "7C": 17.95, "AC": 12.0}, "AC", 0.0)
    assert clear is not None and clear[0] == {"8C", "7C"}


def test_a_cost_the_layouts_leave_unsure_is_no_puzzle() -> None:
    assert is_clear({"9H": 20.0, "KH": 16.0}, "KH", 1.1) is None  # 4 - 2 x 1.1 < 2
    assert is_clear({"9H": 20.0, "KH": 16.0}, "KH", 0.9) is not None


def test_the_best_card_played_is_no_puzzle() -> None:
    assert is_clear({"9H": 20.0, "KH": 10.0}, "9H", 0.0) is None


def _expected_card_puzzles(store: Store) -> set[tuple[str, int, int, int]]:
    """The plays the rule should choose, by SQL over the stored values."""
    frame = store.query(
        """
        WITH tops AS (
            SELECT match_id, deal, trick, play, max(view) AS top FROM card_values GROUP BY ALL
        ),
        near AS (
            SELECT v.match_id, v.deal, v.trick, v.play,
                   max(v.view) FILTER (WHERE v.view < t.top - 0.1 - 1e-9) AS second,
                   list(v.card) FILTER (WHERE v.view >= t.top - 0.1 - 1e-9) AS accepted,
                   any_value(t.top) AS top
            FROM card_values v JOIN tops t USING (match_id, deal, trick, play) GROUP BY ALL
        )
        SELECT c.match_id, c.deal, c.trick, c.play
        FROM play_costs c JOIN near n USING (match_id, deal, trick, play)
        WHERE c.legal AND NOT c.forced AND c.view_cost - 2 * c.view_error >= 2
          AND NOT list_contains(n.accepted, c.card) AND n.top - n.second >= $margin
        """,
        {"margin": MARGIN},  # type: ignore[arg-type]
    )
    return {tuple(row) for row in frame.iter_rows()}


def test_the_archive_s_puzzles_are_exactly_its_clear_costly_cards(archive: Path) -> None:
    with Store(archive, read_only=True) as store:
        expected = _expected_card_puzzles(store)
        puzzles = make_puzzles(store.puzzle_rows())
        values = store.query("SELECT match_id, deal, trick, play, card, view FROM card_values")
    cards = [p for p in puzzles if p.kind is PuzzleKind.CARD]
    assert {(p.match_id, p.deal, p.trick, p.play) for p in cards} == expected
    assert len(cards) >= 3, "the fixture should give a few puzzles"
    for puzzle in cards:
        rows = values.filter(
            (values["match_id"] == puzzle.match_id)
            & (values["deal"] == puzzle.deal)
            & (values["trick"] == puzzle.trick)
            & (values["play"] == puzzle.play)
        )
        top = rows["view"].max()
        best = set(rows.filter(rows["view"] >= top - 0.1 - 1e-9)["card"].to_list())  # type: ignore[operator]
        assert set(puzzle.answers) == best
        assert all(puzzle.is_right(card) for card in best)
        assert not any(puzzle.is_right(card) for card in set(rows["card"].to_list()) - best)
        assert not puzzle.is_right(puzzle.played)
        assert puzzle.margin >= MARGIN


def test_call_puzzles_are_the_clearly_costly_calls(archive: Path) -> None:
    with Store(archive, read_only=True) as store:
        puzzles = make_puzzles(store.puzzle_rows())
        calls = store.query("SELECT * FROM call_decisions")
        found_calls = store.query(
            "SELECT match_id, deal, seat, kind FROM findings WHERE kind IN ('trump_choice', 'knock_choice')"
        )
    expected = set()
    for row in calls.iter_rows(named=True):
        scores = json.loads(row["options"])
        top = max(scores.values())
        best = {name for name, score in scores.items() if score >= top - 0.1 - 1e-9}
        rest = [score for name, score in scores.items() if name not in best]
        sure = top - scores[row["chosen"]] - 2 * row["loss_error"]
        if row["chosen"] not in best and sure >= 3 and top - max(rest) >= MARGIN:
            kind = "knock" if row["call"] == "klop" else "trump"
            expected.add((f"{row['match_id']}/{row['deal']}/{kind}/{row['seat']}", frozenset(best)))
    found = {(p.puzzle_id, p.answers) for p in puzzles if p.kind in (PuzzleKind.KNOCK, PuzzleKind.TRUMP)}
    assert found == expected and found, "the fixture should give call puzzles"
    # the right answer is accepted as the page hands it over (a suit's letter: every trump
    # puzzle answered with a suit was judged wrong), typed in either case, and a wrong one is not
    for puzzle in puzzles:
        if puzzle.kind in (PuzzleKind.KNOCK, PuzzleKind.TRUMP):
            for answer in puzzle.answers:
                assert puzzle.is_right(answer) and puzzle.is_right(f" {answer.lower()} ")
                assert puzzle.is_right(answer.upper())
            assert not puzzle.is_right(puzzle.played)
    # a call the review calls no mistake is no puzzle either (a sure loss of 2 to 3 was)
    findings = {
        (f"{r['match_id']}/{r['deal']}/{'knock' if r['kind'] == 'knock_choice' else 'trump'}/{r['seat']}")
        for r in found_calls.iter_rows(named=True)
    }
    assert {puzzle_id for puzzle_id, _ in found} <= findings
    for puzzle in puzzles:
        if puzzle.kind is PuzzleKind.TRUMP:
            assert puzzle.trump is None and puzzle.contract is None  # the question's answer is hidden
            assert set(puzzle.options) <= {"H", "D", "C", "S", "muil"}


def test_a_trump_option_pruned_by_the_review_is_offered_but_never_judged_by_its_bound(archive: Path) -> None:
    """An option the trump review pruned (``options_at_most``) has only an upper bound: the
    puzzle offers it, gives it no value, and is made only when no bound could come within the
    margin, so that the margin it states is a value."""
    with Store(archive, read_only=True) as store:
        calls = store.query("SELECT * FROM call_decisions WHERE call = 'trump'")
        records = records_of(store)
    made = 0
    for row in calls.iter_rows(named=True):
        result = decode_and_replay(records[row["match_id"]])
        deal = result.deals[row["deal"] - 1]
        puzzle = _call_puzzle(result, deal, row, None)
        if puzzle is None:
            continue
        runner_up = max(v for k, v in puzzle.values.items() if k not in puzzle.answers)
        losers = [k for k, v in puzzle.values.items() if k != row["chosen"] and v < runner_up]
        if not losers:
            continue
        loser, scores = losers[0], json.loads(row["options"])
        # its bound at its value keeps the puzzle; above the next option's, it could set the margin
        for bound, kept in ((scores[losers[0]], True), (runner_up + 0.5, False)):
            pruned = _call_puzzle(
                result,
                deal,
                row | {"options": json.dumps(scores | {loser: bound}), "options_at_most": [loser]},
                None,
            )
            if not kept:
                assert pruned is None  # the bound might set the margin: no puzzle
                continue
            assert pruned is not None and loser in pruned.options and loser not in pruned.values
            assert pruned.answers == puzzle.answers and pruned.cost == puzzle.cost
        made += 1
    assert made, "the fixture should give trump puzzles"


def records_of(store: Store) -> dict[str, str]:
    """Each match's record, by match id."""
    rows = store.query("SELECT match_id, record FROM matches").iter_rows(named=True)
    return {r["match_id"]: r["record"] for r in rows}


def test_a_puzzle_names_its_source_and_hides_the_other_hands(archive: Path) -> None:
    with Store(archive, read_only=True) as store:
        puzzles = make_puzzles(store.puzzle_rows())
        records = records_of(store)
    for puzzle in puzzles:
        assert f"match {puzzle.match_id}, deal {puzzle.deal}" in puzzle.source
        deal = decode_and_replay(records[puzzle.match_id]).deals[puzzle.deal - 1]
        assert deal.hands is not None
        if puzzle.trick is None or puzzle.play is None:
            assert puzzle.hand.mask == deal.hands[puzzle.seat]
            continue
        assert f"trick {puzzle.trick}, play {puzzle.play}" in puzzle.source
        trick = deal.tricks[puzzle.trick - 1]
        assert trick.seats[puzzle.play - 1] == puzzle.seat
        # the player's hand: dealt, less the cards they played before this one
        earlier = {
            c
            for t in deal.tricks
            for i, (s, c) in enumerate(zip(t.seats, t.cards, strict=True), start=1)
            if s == puzzle.seat and (t.number, i) < (puzzle.trick, puzzle.play)
        }
        dealt = {c for c in Card if c in CardSet(deal.hands[puzzle.seat])}
        assert set(puzzle.hand) == dealt - earlier
        assert sum(puzzle.held) == 32 - 4 * (puzzle.trick - 1) - (puzzle.play - 1)
        if puzzle.kind.is_drill:
            continue  # its options are every trump the player lacks, its answer the ones out
        # the file holds no card still in another hand
        others = {
            str(c)
            for t in deal.tricks
            for i, (s, c) in enumerate(zip(t.seats, t.cards, strict=True), start=1)
            if s != puzzle.seat and (t.number, i) >= (puzzle.trick, puzzle.play)
        }
        text = json.dumps(puzzle.to_json())
        assert not [card for card in others if f'"{card}"' in text], puzzle.puzzle_id


def test_drills_ask_what_the_deal_says_is_still_out(archive: Path) -> None:
    with Store(archive, read_only=True) as store:
        puzzles = make_puzzles(store.puzzle_rows())
        records = records_of(store)
    drills = [p for p in puzzles if p.kind.is_drill]
    assert {p.kind for p in drills} == {PuzzleKind.TRUMPS_OUT, PuzzleKind.MASTERS}
    for drill in drills:
        assert drill.trick is not None and drill.play is not None and drill.trick >= 3
        deal = decode_and_replay(records[drill.match_id]).deals[drill.deal - 1]
        assert deal.hands is not None
        played = {
            c
            for t in deal.tricks
            for i, c in enumerate(t.cards, start=1)
            if (t.number, i) < (drill.trick, drill.play)
        }
        unplayed = [c for hand in deal.hands for c in CardSet(hand) if c not in played]
        if drill.kind is PuzzleKind.TRUMPS_OUT:
            out = {str(c) for c in unplayed if c.suit == deal.trump and c not in drill.hand}
            assert set(drill.answers) == out and out <= set(drill.options)
            assert not set(drill.options) & {str(c) for c in drill.hand}
        else:
            tops = {
                max((c for c in unplayed if c.suit == suit), key=lambda c: c.rank)
                for suit in {c.suit for c in unplayed}
            }
            assert set(drill.answers) == {str(c) for c in tops} <= set(drill.options)
        assert drill.is_right(list(drill.answers)) and not drill.is_right(list(drill.answers)[1:])


def test_the_dealers_puzzles_include_the_dummys_cards(three_dummy_db: Path, tmp_path: Path) -> None:
    """In ``three_dummy`` the dealer plays the dummy, so a costly card of the dummy's is the
    dealer's puzzle (``manillen puzzles --player Anna``), as ``play_costs.player`` files it: its
    seat and name stay the dummy's; its trumps-out drill counts the dealer's own hand as known,
    not out. The costs are set by hand (no solver): the card played 4 card points below the best."""
    result = decode_and_replay(THREE_DUMMY.read_text(encoding="utf-8"))
    deal = result.deals[0]
    dealer, dummy = result.seats[deal.dealer], result.rules.shape.people
    seats = [deal.tricks[trick - 1].seats[play - 1] for trick, play in THREE_DUMMY_COSTLY]
    assert seats == [dummy, deal.dealer, 1]

    def puzzles_of(player: str) -> list[dict[str, Any]]:
        out = tmp_path / f"{player}.json"
        args = ["puzzles", "--db", str(three_dummy_db), "--player", player, "--out", str(out)]
        run = CliRunner().invoke(cli, args)
        assert run.exit_code == 0, run.output
        written: list[dict[str, Any]] = json.loads(out.read_text(encoding="utf-8"))
        return written

    mine = puzzles_of(dealer.lower())
    cards = {(p["source"]["trick"], p["source"]["play"]): p for p in mine if p["kind"] == "card"}
    assert set(cards) == {(3, 1), (3, 3)}
    assert {p["player"] for p in mine} == {dealer}
    assert cards[(3, 1)]["seat"] == dummy and cards[(3, 1)]["names"][dummy] == f"{dealer}'s dummy"
    assert [p["source"]["play"] for p in puzzles_of("Bert") if p["kind"] == "card"] == [4]

    (drill,) = [p for p in mine if p["id"] == f"{result.id}/1/3/1/trumps"]
    assert deal.hands is not None
    played = {c for t in deal.tricks[:2] for c in t.cards}
    left = [{c for c in CardSet(hand) if c not in played and c.suit == deal.trump} for hand in deal.hands]
    assert left[deal.dealer], "the dealer holds a trump: the drill must not count it out"
    opponents = [seat for seat in range(len(left)) if seat not in (deal.dealer, dummy)]
    assert set(drill["answers"]) == {str(c) for seat in opponents for c in left[seat]}


@pytest.mark.parametrize(("lang", "dummy"), [("nl", "blinde van Anna"), ("en", "Anna&#x27;s dummy")])
def test_the_puzzles_page_names_the_dummys_seat_in_its_language(
    three_dummy_db: Path, tmp_path: Path, lang: str, dummy: str
) -> None:
    """``manillen puzzles --html --lang nl`` of the dealer of ``three_dummy`` names the dummy's
    seat in Dutch (``blinde van Anna``) on every table it draws and in the tricks played before,
    never in English; the English page says ``Anna's dummy``."""
    page = tmp_path / "anna.html"
    args = ["puzzles", "--db", str(three_dummy_db), "--player", "Anna", "--html", str(page), "--lang", lang]
    run = CliRunner().invoke(cli, args)
    assert run.exit_code == 0, run.output
    html = page.read_text(encoding="utf-8").replace("sample-three-dummy", "MATCH")  # the match's id
    tables = re.findall(r'<div class="table">', html)
    named = re.findall(r'data-seat="3"><div class="name">([^<]*)</div>', html)
    assert tables and named == [dummy] * len(tables)
    assert ("dummy" in html) is (lang == "en")


@pytest.mark.parametrize(("lang", "leader"), [("nl", "blinde van Anna"), ("en", "Anna&#x27;s dummy")])
def test_a_puzzles_tricks_so_far_name_their_leader_in_the_pages_language(lang: str, leader: str) -> None:
    """A trick the dummy of ``three_dummy`` led is listed under the dummy's seat's name in the
    page's language (the sample deal's dummy leads no trick before its puzzles)."""
    from manillen_replay.analysis.puzzles import _sample
    from manillen_replay.report.puzzles import puzzle_html

    seven, ten = Card.parse("7S"), Card.parse("10S")
    puzzle = _sample(
        names=("Anna", "Bert", "Carla", "Anna's dummy"),
        names_nl=("Anna", "Bert", "Carla", "blinde van Anna"),
        tricks=(((3, seven), (0, ten), (1, Card.parse("8S")), (2, Card.parse("9S"))),),
    )
    html = puzzle_html(puzzle, 1, lang)
    assert re.search(rf"1\. {re.escape(leader)}: ", html)


# --------------------------------------------------------------------------- spaced repetition


def test_a_missed_puzzle_comes_back_after_the_others_and_a_solved_one_days_later(writable: Store) -> None:
    name = writable.query("SELECT player FROM play_costs LIMIT 1")["player"][0]
    puzzles = [p for p in make_puzzles(writable.puzzle_rows(player=name), player=name) if p.trick is not None]
    assert len(puzzles) >= 2 or pytest.skip("the fixture gave this player one puzzle")
    first, second = puzzles[0], puzzles[1]
    now = datetime.datetime(2026, 12, 5, 20, 0)
    missed = writable.answer_puzzle(name, first.puzzle_id, "7H", False, now)
    assert missed.box == 1 and missed.due_at == now + RELEARN
    reviews = writable.puzzle_reviews(name)
    # while there are new puzzles to show, a new one comes first; then the missed one comes back
    shown = next_puzzle(puzzles, reviews, now, new_left=1)
    assert shown is not None and shown.puzzle_id != first.puzzle_id
    back = next_puzzle(puzzles, reviews, now, new_left=0)
    assert back is not None and back.puzzle_id == first.puzzle_id
    # ten minutes later it is due whatever is new
    assert next_puzzle(puzzles, reviews, now + RELEARN, new_left=5).puzzle_id == first.puzzle_id  # type: ignore[union-attr]
    solved = writable.answer_puzzle(name, second.puzzle_id, "9H", True, now)
    assert solved.box == 2 and solved.due_at == now + datetime.timedelta(days=1)
    again = writable.answer_puzzle(name, second.puzzle_id, "9H", True, now + datetime.timedelta(days=1))
    assert again.box == 3 and again.due_at == now + datetime.timedelta(days=4)
    reviews = writable.puzzle_reviews(name)
    only_second = [second]
    assert next_puzzle(only_second, reviews, now + datetime.timedelta(days=2), new_left=0) is None
    assert next_puzzle(only_second, reviews, now + datetime.timedelta(days=4), new_left=0) is second
    rows = writable.puzzle_review_rows(name)
    counts = {r["puzzle_id"]: (r["answers"], r["misses"]) for r in rows.iter_rows(named=True)}
    assert counts == {first.puzzle_id: (1, 1), second.puzzle_id: (2, 0)}


# --------------------------------------------------------------------------- the command


def test_puzzles_command_writes_the_set_and_a_printable_page(archive: Path, tmp_path: Path) -> None:
    name = trainee(archive)
    out, page = tmp_path / "set.json", tmp_path / "set.html"
    result = CliRunner().invoke(
        cli,
        ["puzzles", "--db", str(archive), "--player", name.upper(), "--out", str(out), "--html", str(page)],
    )
    assert result.exit_code == 0, result.output
    written = json.loads(out.read_text(encoding="utf-8"))
    with Store(archive, read_only=True) as store:
        expected = make_puzzles(store.puzzle_rows(player=name), player=name)
    assert [p["id"] for p in written] == [p.puzzle_id for p in expected]
    assert {p["player"] for p in written} == {name}
    html = page.read_text(encoding="utf-8")
    assert html.count('<article class="puzzle"') == len(expected)
    assert html.index('class="answers"') > html.rindex('<article class="puzzle"')  # answers after
    assert not re.search(r"""(src|href)=["']?https?:""", html)


def test_the_listed_puzzles_label_their_answers(archive: Path) -> None:
    """ "card 1: what do you play? JH KH": the accepted cards read as the choices. A drill's
    answer is every card it lists, ticked together: "and", not "or" (a coach read "all of" before
    one card, and letters where the findings show the suit's sign)."""
    name = trainee(archive)
    result = CliRunner().invoke(cli, ["puzzles", "--db", str(archive), "--player", name])
    assert result.exit_code == 0, result.output
    with Store(archive, read_only=True) as store:
        expected = make_puzzles(store.puzzle_rows(player=name), player=name)
    lines = result.output.splitlines()[1:]
    assert len(lines) == len(expected) > 0
    for line, puzzle in zip(lines, expected, strict=True):
        said = [Card.parse(a).symbol if len(a) > 1 and a[-1] in "HDCS" else a for a in sorted(puzzle.answers)]
        if puzzle.kind.is_drill:
            listed = said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]
            assert line.endswith(" answer: " + listed), line
        else:
            assert line.endswith(" answer: " + " or ".join(said)), line
    assert any(p.kind.is_drill for p in expected) and any(not p.kind.is_drill for p in expected)
    # in Dutch, all of it (it printed the English list whatever --lang said)
    result = CliRunner().invoke(cli, ["puzzles", "--db", str(archive), "--player", name, "--lang", "nl"])
    lines = result.output.splitlines()
    assert lines[0].startswith(f"{len(expected)} puzzel") and lines[0].endswith(f" voor {name}")
    for line, puzzle in zip(lines[1:], expected, strict=True):
        assert line.startswith("partij ") and " antwoord: " in line and " answer" not in line, line
        if puzzle.kind.value == "card":
            assert " speelt u? " in line and not re.search(r"\b(10|[AKQJ987])[HDCS]\b", line), line
        assert "allemaal" not in line, line


def test_puzzles_command_says_who_played_for_an_unknown_player(archive: Path) -> None:
    result = CliRunner().invoke(cli, ["puzzles", "--db", str(archive), "--player", "Nobody"])
    assert result.exit_code == 2
    assert "'Nobody' played no deal in the archive (players: Anna, Bert, Carla, Dirk)" in result.output
    result = CliRunner().invoke(cli, ["puzzles", "--db", str(archive), "--player", "anna", "--match", "nope"])
    assert result.exit_code == 2 and "no match with id 'nope'" in result.output
    result = CliRunner().invoke(
        cli, ["puzzles", "--db", str(archive.parent / "none.duckdb"), "--player", "anna"]
    )
    assert result.exit_code == 2 and "no archive at" in result.output


def test_puzzles_to_standard_output_with_a_dash_and_a_missing_folder_said_first(archive: Path) -> None:
    """``--out -`` writes the JSON to standard output (it wrote a file named ``-``), the line
    that says so to stderr; a file in a missing folder is refused before anything is read."""
    runner = CliRunner()
    result = runner.invoke(cli, ["puzzles", "--db", str(archive), "--player", "Anna", "--out", "-"])
    assert result.exit_code == 0, result.output
    assert isinstance(json.loads(result.stdout), list) and "wrote standard output" in result.stderr
    assert not (Path.cwd() / "-").exists()
    both = runner.invoke(
        cli, ["puzzles", "--db", str(archive), "--player", "Anna", "--out", "-", "--html", "-"]
    )
    assert both.exit_code == 2 and "only one of --out and --html can be -" in both.stderr
    missing = archive.parent / "nowhere" / "anna.html"
    result = runner.invoke(cli, ["puzzles", "--db", str(archive), "--player", "Anna", "--html", str(missing)])
    assert (
        result.exit_code == 2
        and f"there is no folder {str(missing.parent)!r} to write it in" in result.stderr
    )


def check_puzzles_example(folder: Path) -> None:
    """What ``manillen puzzles --help``'s example wrote in ``folder``, where the examples test ran
    it as written (tests/test_cli.py): Bert's puzzles, as JSON and as a page."""
    written = json.loads((folder / "bert.json").read_text(encoding="utf-8"))
    assert written and all(p["player"] == "Bert" for p in written)
    assert "Puzzles for Bert" in (folder / "bert.html").read_text(encoding="utf-8")


# --------------------------------------------------------------------------- the report


def test_report_ends_with_the_puzzles_its_review_does_not_answer(archive: Path) -> None:
    """The puzzles are the clearest of the match's decisions (three at most, one a deal) but those
    the report's review explains above them: a coach found the report giving its own puzzles'
    answers away. The fixture's short matches have no other clear decision: no puzzle section."""
    from manillen_replay.analysis.puzzles import decision_of, evening_puzzles
    from manillen_replay.report import REVIEW_TOP, ReportTables, gather

    with Store(archive, read_only=True) as store:
        match = store.query("SELECT match_id FROM play_costs GROUP BY 1 ORDER BY count(*) DESC LIMIT 1")[
            "match_id"
        ][0]
        every = make_puzzles(store.puzzle_rows(match_id=match))
        reviewed = gather(ReportTables(**store.report_rows(match, top=REVIEW_TOP)))
        html = make_report(store, match)
    explained = {(d.deal, d.trick, d.play, d.call) for review in reviewed.reviews for d in review.decisions}
    before = evening_puzzles(every)
    assert before and {decision_of(p) for p in before} & explained  # the review had given them away
    expected = evening_puzzles(every, explained=explained)
    assert len(expected) <= 3 and not {decision_of(p) for p in expected} & explained
    ids = re.findall(r'<article class="puzzle" data-puzzle="([^"]+)"', html)
    assert ids == [p.puzzle_id for p in expected]
    # none left: said where they would be, not a report ending without a word
    said = "No puzzles: every clear decision of this match is explained in the review above."
    assert (said in html) == (not expected)


def test_the_report_s_puzzles_hide_the_other_hands(archive: Path) -> None:
    from manillen_replay.analysis.puzzles import evening_puzzles
    from manillen_replay.report.puzzles import puzzles_section

    with Store(archive, read_only=True) as store:
        chosen = evening_puzzles(make_puzzles(store.puzzle_rows()))
    assert 0 < len(chosen) <= 3
    section = puzzles_section(chosen, "en")
    ids = re.findall(r'<article class="puzzle" data-puzzle="([^"]+)"', section)
    assert ids == [p.puzzle_id for p in chosen]
    for puzzle, article in zip(chosen, section.split('<article class="puzzle"')[1:], strict=True):
        shown = set(re.findall(r'data-card="([^"]+)"', article.split("<details>")[0]))
        on_table = {str(c) for _, c in puzzle.table}
        assert shown - on_table <= {str(c) for c in puzzle.hand}  # no other hand drawn


# --------------------------------------------------------------------------- the Train page


def on_the_page(puzzles: Iterable[Puzzle], source: str, title: str) -> Puzzle:
    """The puzzle a page shows, by the source it names (``From match ...``) and the question in its
    title (a card puzzle and its drills share their source)."""
    return next(
        p
        for p in puzzles
        if f"From {p.source}." == source.strip() and say("en", f"question.{p.kind.value}") in title
    )


@pytest.fixture
def app(archive: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    from streamlit.testing.v1 import AppTest

    from dashboards import data

    from .test_dashboard import APP

    copy = tmp_path / "train.duckdb"
    shutil.copy(archive, copy)
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(copy))
    yield AppTest.from_file(APP, default_timeout=60)


def test_train_page_brings_a_missed_puzzle_back_after_the_others(app: object, archive: Path) -> None:
    from .test_dashboard import open_page

    name = trainee(archive)
    with Store(archive, read_only=True) as store:
        by_id = {p.puzzle_id: p for p in make_puzzles(store.puzzle_rows(player=name), player=name)}
    at = open_page(app, "train")  # type: ignore[arg-type]
    at.selectbox(key="train_player").set_value(name).run()
    assert at.query_params["player"] in (name, [name])  # in the address: a reload keeps the player
    at.number_input(key="train_new_left").set_value(3).run()
    shown: list[str] = []
    verdicts: list[bool] = []
    for turn in range(4):
        assert not at.exception, [e.value for e in at.exception]
        source = next(c.value for c in at.caption if c.value.startswith("From match"))
        puzzle = on_the_page(by_id.values(), source, at.subheader[0].value)
        shown.append(puzzle.puzzle_id)
        if turn == 3:
            assert "Missed earlier: here it is again." in [w.value for w in at.warning]
            break
        pick: Any = at.get("button_group")[0]
        # as the browser shows an option: Streamlit draws a leading symbol as the option's icon
        labels = [f"{o.content_icon} {o.content}".strip() for o in pick.proto.options]
        assert not any(f"{symbol} {symbol}" in label for label in labels for symbol in "♥♦♣♠"), labels
        if puzzle.kind.is_drill:
            pick.set_value(sorted(puzzle.answers) if turn else [])
            next(b for b in at.button if b.label == "Check").click().run()
        else:
            wrong = next(o for o in puzzle.options if o not in puzzle.answers)
            right = sorted(puzzle.answers)[0]
            pick.set_value(wrong if turn == 0 else right).run()
        verdicts.append(bool(at.success))
        assert bool(at.error) is (turn == 0), (puzzle.kind, puzzle.answers, [e.value for e in at.error])
        next(b for b in at.button if b.label == "Next puzzle").click().run()
    assert verdicts == [False, True, True]
    assert shown[3] == shown[0] and len(set(shown[:3])) == 3


@pytest.mark.parametrize(("lang", "dummy"), [("nl", "blinde van Anna"), ("en", "Anna's dummy")])
def test_train_page_names_the_dummys_seat_in_the_pages_language(
    three_dummy_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str, dummy: str
) -> None:
    """The Train page in Dutch (``?lang=nl``) draws a ``three_dummy`` puzzle of the dealer with
    the dummy's seat named ``blinde van Anna``, and nowhere in English."""
    from streamlit.testing.v1 import AppTest

    from dashboards import data

    from .test_dashboard import APP, drawn_text, html_of, open_page, texts

    copy = tmp_path / "three.duckdb"
    shutil.copy(three_dummy_db, copy)
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(copy))
    at = open_page(AppTest.from_file(APP, default_timeout=60), "train", lang=lang, player="Anna")
    assert at.selectbox(key="train_player").value == "Anna"
    assert dummy in drawn_text(at, "train_table")
    page = (html_of(at) + texts(at)).replace("sample-three-dummy", "MATCH")  # the match's id
    assert ("dummy" in page) is (lang == "en")
    # "1 puzzels" was the Dutch (and "1 puzzles" the English) for one puzzle
    progress = next(c.value for c in at.caption if re.match(r"\d+ puzz", c.value))
    count = int(progress.split()[0])
    noun = ("puzzel" if lang == "nl" else "puzzle") + ("" if count == 1 else "s")
    assert progress.startswith(f"{count} {noun}:"), progress


def test_train_page_names_each_earlier_trick_and_who_led_it(app: object, archive: Path) -> None:
    """The cards played before the puzzle were a grid of cards without a word: now under "Tricks
    so far", each row numbered and named by the player who led it (the first card's)."""
    from .test_dashboard import drawn_text, open_page

    name = trainee(archive)
    with Store(archive, read_only=True) as store:
        puzzles = make_puzzles(store.puzzle_rows(player=name), player=name)
    at = open_page(app, "train")  # type: ignore[arg-type]
    at.selectbox(key="train_player").set_value(name).run()
    source = next(c.value for c in at.caption if c.value.startswith("From match"))
    puzzle = on_the_page(puzzles, source, at.subheader[0].value)
    drawn = drawn_text(at, "train_table")
    names = puzzle.names_in("en")
    expected = [f"{n}. {names[trick[0][0]]} led" for n, trick in enumerate(puzzle.tricks, start=1)]
    assert expected, "the first puzzle of this archive comes after earlier tricks"
    assert "Tricks so far" in drawn
    assert all(line in drawn for line in expected), (expected, drawn)


@pytest.mark.parametrize(("lang", "reason"), [("en", "explanation"), ("nl", "explanation_nl")])
def test_a_puzzles_answer_writes_its_reason_with_real_minus_signs(lang: str, reason: str) -> None:
    """The answer's reason is the finding's words, as the review prints them: a negative figure
    gets the report's minus sign (``−2.0``), a score such as ``3-2`` keeps its hyphen."""
    from manillen_replay.analysis.puzzles import _sample
    from manillen_replay.report.puzzles import answer_html

    words = "Bert's K♥ scores -2.0 on average, 3-2 in tricks."
    html = answer_html(_sample(**{reason: words}), lang)
    assert '<p class="explanation">Bert&#x27;s K♥ scores \u22122.0 on average, 3-2 in tricks.</p>' in html


class _HandsSeen(ReplayVisitor):
    """What the replay says each seat could play from at each card: ``(trick, play)`` to masks."""

    def __init__(self) -> None:
        self.seen: dict[tuple[int, int], tuple[int, ...]] = {}

    def play(self, trick: TrickResult, position: int, hands_before: Sequence[int]) -> None:
        self.seen[(trick.number, position + 1)] = tuple(hands_before)


@pytest.mark.parametrize(
    "sample", ["variant-two-open.json", "variant-two-open-fours.json", "variant-three-dummy.json"]
)
def test_hands_before_a_card_are_what_the_replay_could_play_from(sample: str) -> None:
    """Before every card of the table variants, each seat's cards are its hand and its face-up
    table cards, as the replay has them: a card played from a pile turns up the one under it, and
    a third pile's top card moved to the emptied fourth place turns up the card under it."""
    seen = _HandsSeen()
    deal = decode_and_replay(
        THREE_DUMMY.with_name(sample).read_text(encoding="utf-8"), visitors=[seen]
    ).deals[0]
    assert deal.table and len(seen.seen) == sum(len(t.cards) for t in deal.tricks)
    for (trick, play), hands in seen.seen.items():
        assert tuple(h.mask for h in hands_before(deal, trick, play)[0]) == hands, (trick, play)


def test_equal_answers_are_listed_as_a_hand_holds_them() -> None:
    """The answer lists equal answers as the page shows cards (trump first, each suit high to
    low) and calls as the question offers them, never in a set's order: that follows the hash
    seed, so two runs would print the same page differently."""
    tied = frozenset({"9S", "AS", "10H", "7C", "KH", "10S"})
    card = _sample(answers=tied, options=tuple(sorted(tied)), values=dict.fromkeys(tied, 4.0) | {"7C": 4.05})
    listed = answer_html(card, "en").split(": better than")[0]
    shown = re.findall(r'([0-9AKQJ]+)<svg class="suit"[^>]*aria-label="(\w+)"', listed)
    assert shown == [
        ("7", "clubs"),  # the best first
        ("10", "hearts"),
        ("K", "hearts"),
        ("10", "spades"),
        ("A", "spades"),
        ("9", "spades"),
    ]
    calls = frozenset({"muil", "S", "H"})
    call = _sample(
        kind=PuzzleKind.TRUMP,
        trick=None,
        play=None,
        answers=calls,
        values=dict.fromkeys(calls, 1.0),
        options=("H", "D", "C", "S", "muil"),
        played="D",
    )
    listed = answer_html(call, "en").split(": ")[0]
    assert re.findall(r'aria-label="(\w+)"|(muil)', listed) == [("hearts", ""), ("spades", ""), ("", "muil")]


def test_the_reports_puzzles_heading_counts_the_puzzles_it_has() -> None:
    from manillen_replay.report.puzzles import puzzles_section

    one, two = _sample(), _sample(puzzle_id="m-1/5/1/1", deal=5)
    assert "<h2>A puzzle from this match</h2>" in puzzles_section([one], "en")
    assert "<h2>Twee puzzels uit deze partij</h2>" in puzzles_section([one, two], "nl")
    assert "<h2>Three puzzles from this match</h2>" in puzzles_section([one, two, one], "en")
    assert puzzles_section([], "en") == ""
    # the whole table's report: whose decision each puzzle was, and no "your own decisions"
    everyone = puzzles_section([one, two], "en", everyone=True)
    assert "Your own decisions" not in everyone and "as its player saw the table" in everyone
    assert f"<h3>Puzzle 1 ({one.player}): " in everyone and f"<h3>Puzzle 2 ({two.player}): " in everyone
    assert "Your own decisions" in puzzles_section([one], "en") and "<h3>Puzzle 1: " in puzzles_section(
        [one], "en"
    )
    assert "wat speelt u in diens plaats?" in puzzles_section([one], "nl", everyone=True)


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_a_call_puzzles_answer_says_what_the_call_made_cost_as_the_review_does(lang: str) -> None:
    """The review gives a call's loss against the best; the answer's margin is over the second
    best: both are said, so the two figures do not seem to disagree."""
    knock = _sample(
        kind=PuzzleKind.KNOCK,
        trick=None,
        play=None,
        options=("klop", "no klop"),
        answers=frozenset({"klop"}),
        values={"klop": 12.0, "no klop": -10.1},
        played="no klop",
        margin=22.1,
        cost=22.1,
        layouts=24,
    )
    text = re.sub(r"<[^>]+>", "", answer_html(knock, lang))
    assert (
        text
        == {
            "en": "klop: 22.1 points better on the scoresheet on average than any other call "
            "(24 layouts). At the table: no klop, 22.1 points less than the best.",
            "nl": "klop: gemiddeld 22,1 punten beter op het scoreblad dan elke andere keuze "
            "(24 verdelingen). Aan tafel: geen klop, 22,1 punten minder dan de beste.",
        }[lang]
    )


def _puzzles_json(db: Path, player: str, out: Path) -> list[dict[str, Any]]:
    """``manillen puzzles --out`` of one player of the archive ``db``."""
    run = CliRunner().invoke(cli, ["puzzles", "--db", str(db), "--player", player, "--out", str(out)])
    assert run.exit_code == 0, run.output
    written: list[dict[str, Any]] = json.loads(out.read_text(encoding="utf-8"))
    return written


@pytest.mark.parametrize(("sample", "archive"), [(TWO_OPEN, "two_open_db"), (THREE_DUMMY, "three_dummy_db")])
def test_a_table_variants_puzzle_shows_the_face_up_table_cards_and_hides_only_the_hands(
    sample: Path, archive: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """In the variants with table cards every player sees the face-up table cards: a puzzle's
    ``face_up`` are, for each seat, the cards it may play from that it was not dealt in hand (the
    tops of its piles at that moment), and only the rest of its cards count as hidden."""
    db: Path = request.getfixturevalue(archive)
    deal = decode_and_replay(sample.read_text(encoding="utf-8")).deals[0]
    assert deal.hands is not None
    puzzles = [p for who in ("Anna", "Bert") for p in _puzzles_json(db, who, tmp_path / f"{who}.json")]
    assert any(p["trick"] is not None for p in map(lambda p: p["source"], puzzles))
    for puzzle in puzzles:
        trick, play = puzzle["source"]["trick"], puzzle["source"]["play"]
        playable = hands_dealt(deal) if trick is None else hands_before(deal, trick, play)[0]
        tops = [hand - CardSet(dealt) for hand, dealt in zip(playable, deal.hands, strict=True)]
        assert [CardSet.parse(" ".join(cards)) for cards in puzzle["face_up"]] == tops, puzzle["id"]
        assert puzzle["held"] == [len(hand) for hand in playable]
        assert any(tops), "a table variant's puzzle shows table cards"


def test_a_card_moved_to_the_emptied_fourth_place_shows_with_the_card_it_turned_up(
    two_open_db: Path, tmp_path: Path
) -> None:
    """Bert moved his third pile's AH to his emptied fourth place just before his KH of trick 13,
    turning up the 9C under it: both are face up in that puzzle, as Anna's last pile's QS, and the
    puzzle's table draws her QS face up beside her other cards face down."""
    from manillen_replay.report.puzzles import puzzle_html

    with Store(two_open_db, read_only=True) as store:
        puzzles = make_puzzles(store.puzzle_rows(), player="Bert")
    (puzzle,) = [p for p in puzzles if p.puzzle_id.endswith("/13/2")]
    assert puzzle.face_up == (CardSet.parse("QS"), CardSet.parse("AH 9C"))
    assert puzzle.hidden == (puzzle.held[0] - 1, 0)  # Bert hides nothing from himself
    anna = re.search(r'data-seat="0">(.*?)</div></div>', puzzle_html(puzzle, 1, "en"))
    assert anna is not None
    assert f'<span class="hidden">{puzzle.held[0] - 1} cards</span>' in anna[1]
    assert re.findall(r'data-card="(\w+)"', anna[1]) == ["QS"]


def test_the_dummys_cards_all_face_up_are_drawn_and_none_hidden(three_dummy_db: Path) -> None:
    """The dummy of ``three_dummy`` holds all its cards face up on the table: Bert's puzzle draws
    them, and no hidden cards for the dummy."""
    from manillen_replay.report.puzzles import puzzle_html

    with Store(three_dummy_db, read_only=True) as store:
        puzzles = make_puzzles(store.puzzle_rows(), player="Bert")
    puzzle = next(p for p in puzzles if p.kind is PuzzleKind.CARD)
    dummy = len(puzzle.names) - 1
    assert puzzle.seat != dummy and puzzle.hidden[dummy] == 0 and puzzle.face_up[dummy]
    box = re.search(rf'data-seat="{dummy}">(.*?)</div></div>', puzzle_html(puzzle, 1, "en"))
    assert box is not None and 'class="hidden"' not in box[1]
    assert CardSet.parse(" ".join(re.findall(r'data-card="(\w+)"', box[1]))) == puzzle.face_up[dummy]


@pytest.mark.parametrize(("sample", "archive"), [(TWO_OPEN, "two_open_db"), (THREE_DUMMY, "three_dummy_db")])
def test_a_face_up_table_card_is_not_out_and_a_face_down_one_is(
    sample: Path, archive: str, request: pytest.FixtureRequest
) -> None:
    """The drills of a table variant: a face-up table card is not out (everyone sees where it is),
    a face-down one is (nobody knows it, its owner neither); the masters are the highest cards of
    each suit not played, face-down ones included. Checked on the archive's drills and on the
    drills of every later moment of the deal (the two_open one has face-up and face-down trumps)."""
    db: Path = request.getfixturevalue(archive)
    result = decode_and_replay(sample.read_text(encoding="utf-8"))
    deal = result.deals[0]
    assert deal.hands is not None and deal.trump is not None
    with Store(db, read_only=True) as store:
        drills = [p for p in make_puzzles(store.puzzle_rows()) if p.kind.is_drill]
    assert {p.kind for p in drills} == {PuzzleKind.TRUMPS_OUT, PuzzleKind.MASTERS}
    plays = [
        (t.number, n, seat, c)
        for t in deal.tricks
        for n, (seat, c) in enumerate(zip(t.seats, t.cards, strict=True), 1)
    ]
    for trick, play, seat, _ in plays:
        drills += _drills(result, deal, trick, play, seat, None, f"{trick}/{play}")
    dealt = [CardSet(hand) for hand in deal.hands]
    piled = [CardSet(c for pile in piles for c in pile) for piles in deal.table]
    piled += [CardSet(0)] * (len(dealt) - len(piled))
    trumps_seen = {"face up": 0, "face down": 0}
    for drill in drills:
        assert drill.trick is not None and drill.play is not None
        played = {c for trick, play, _, c in plays if (trick, play) < (drill.trick, drill.play)}
        playable = hands_before(deal, drill.trick, drill.play)[0]
        face_up = [hand - hand_dealt for hand, hand_dealt in zip(playable, dealt, strict=True)]
        face_down = {c for cards in piled for c in cards if c not in played} - {c for f in face_up for c in f}
        if drill.kind is PuzzleKind.TRUMPS_OUT:
            dummy = drill.seat >= result.rules.shape.people
            own = {drill.seat, drill.dealer} if dummy else {drill.seat}
            hidden = {c for s, hand in enumerate(dealt) if s not in own for c in hand if c not in played}
            out = {c for c in hidden | face_down if c.suit == deal.trump}
            assert set(drill.answers) == {str(c) for c in out}, drill.puzzle_id
            seen = {c for s in range(len(dealt)) if s not in own for c in face_up[s] if c.suit == deal.trump}
            trumps_seen["face up"] += bool(seen)
            trumps_seen["face down"] += any(c.suit == deal.trump for c in face_down)
        else:
            unplayed = ({c for hand in dealt for c in hand} | {c for cards in piled for c in cards}) - played
            suits = {c.suit for c in unplayed}
            masters = {max((c for c in unplayed if c.suit == suit), key=lambda c: c.rank) for suit in suits}
            assert set(drill.answers) == {str(c) for c in masters}, drill.puzzle_id
    if archive == "two_open_db":  # the dummy of the three_dummy sample has no trump on the table
        assert all(trumps_seen.values()), trumps_seen


def test_train_page_draws_the_dummys_face_up_cards_and_only_hidden_cards_face_down(
    three_dummy_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bert's puzzle of ``three_dummy`` on the Train page: the dummy's cards, all face up on the
    table, are drawn face up and none face down; each other hand is as many card backs as it
    hides."""
    from streamlit.testing.v1 import AppTest

    from dashboards import data

    from .test_dashboard import APP, html_views, open_page

    copy = tmp_path / "three.duckdb"
    shutil.copy(three_dummy_db, copy)
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(copy))
    with Store(copy, read_only=True) as store:
        (puzzle, *_) = make_puzzles(store.puzzle_rows(), player="Bert")
    at = open_page(AppTest.from_file(APP, default_timeout=60), "train", player="Bert")
    drawn = str(html_views(at)["train_table"][1]["html"])
    hands = dict(re.findall(r'<div class="mr-hand" data-seat="(\d)"[^>]*>(.*?)</div>', drawn))
    dummy = len(puzzle.names) - 1
    assert puzzle.seat != dummy and puzzle.face_up[dummy]
    for seat, cards in hands.items():
        shown = CardSet.parse(" ".join(re.findall(r'data-card="(\w+)"', cards)))
        assert shown == puzzle.shown[int(seat)] and cards.count("mr-back") == puzzle.hidden[int(seat)]
    assert (
        CardSet.parse(" ".join(re.findall(r'data-card="(\w+)"', hands[str(dummy)]))) == puzzle.face_up[dummy]
    )
    assert len(hands) == len(puzzle.names)


def test_the_score_before_a_three_player_deal_is_each_players_own_the_deciders_first(tmp_path: Path) -> None:
    """A puzzle of the three-player game said "Score before the deal 24–24 (your team first)" for
    Mieke, who had 0: the match score was read as two teams', where each player keeps a score."""
    from manillen_replay.analysis.puzzles import _score_before

    out = tmp_path / "three.jsonl"
    made = CliRunner().invoke(
        cli, ["generate", "--variant", "three", "--matches", "1", "--seed", "4", "--out", str(out)]
    )
    assert made.exit_code == 0, made.output
    result = decode_and_replay(out.read_text().splitlines()[0].encode())
    before = (0, 0, 0)
    for deal in result.deals:
        for seat in range(3):
            assert _score_before(result, deal, seat) == (
                before[seat],
                *(v for person, v in enumerate(before) if person != seat),
            )
        before = tuple(deal.match_score)
    assert len(set(before)) > 1  # the players' scores differ by the end: the order is tested


def test_the_card_points_so_far_of_a_three_player_puzzle_count_the_laid_aside_cards() -> None:
    """A puzzle's "card points in this deal so far" left out the two cards laid aside, which
    count for the trump maker's opponents from the start (the replay counted them already)."""
    from manillen_replay.analysis.puzzles import _taken

    sample = Path(__file__).resolve().parent.parent / "data" / "samples" / "variant-three.json"
    result = decode_and_replay(sample.read_bytes())
    deal = result.deals[0]
    assert deal.discards and _taken(deal, result, 1) == deal.taken_before_play(result.rules) != (0, 0)
    assert _taken(deal, result, len(deal.tricks) + 1) == deal.points
