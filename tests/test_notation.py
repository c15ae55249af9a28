"""The text notation ``.mnl``: reading, the canonical written form, round trips and every error."""

from __future__ import annotations

import json
import random
import re
import shlex
from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from manillen_replay.cards import Card, Suit
from manillen_replay.cli import cli
from manillen_replay.engine import replay, replay_entry
from manillen_replay.errors import InvalidRecordError, NotationError
from manillen_replay.record import (
    Annotation,
    MatchInfo,
    Penalty,
    Record,
    dumps,
    dumps_text,
    iter_entries,
    load,
    loads,
    loads_text,
)
from manillen_replay.record.io import entries_of
from manillen_replay.record.model import Deal, RecordedScore
from manillen_replay.rules import VARIANTS
from manillen_replay.store import Store

from .factories import SEATS, random_deal

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "data" / "samples"
NOTATION = ROOT / "data" / "notation"

SPEC_SHAPE = """\
match zwaan-2026-11-28-3
date 2026-11-28
venue Cafe De Zwaan, Roeselare
seats Anna Bert Carla Dirk
rules target=121 cafe.en_face=true

deal 1  dealer Dirk  trump D  klop Anna
  AC QC 9D KD
  7H QD 8H 10H
  10C 9C KS 7D
  8S JS AS 7S
  10S JD 9S KC
  QH JH JC KH
  9H AD QS 8C
  10D 8D 7C AH
  score Bert&Dirk 12         # what the scoresheet said

deal 2  dealer Anna  score Anna&Carla 6
deal 3  dealer Bert  score Bert&Dirk 12     # a scoresheet line only: no cards
deal 4  dealer Carla  score 30-30
"""


def run(*args: str, stdin: str | None = None):
    return CliRunner().invoke(cli, list(args), input=stdin)


def problems_of(text: str, name: str = "game.mnl") -> list[NotationError]:
    """The located problems of a text, as `manillen validate` would list them."""
    found: list[NotationError] = []
    for entry in entries_of(text.encode(), name, "mnl"):
        try:
            replay_entry(entry)
        except InvalidRecordError as error:
            found += [p for p in error.problems if isinstance(p, NotationError)]
            assert len(found) == len(error.problems), "every problem of a text is placed by line"
    return found


# --------------------------------------------------------------------------- reading


def test_the_specs_minimum_shape_reads_as_the_same_match_as_json():
    """The shape of shared/spec/text-notation.md: header, a deal with calls, tricks, scoresheet lines."""
    (record,) = loads_text(SPEC_SHAPE)
    assert record.match.id == "zwaan-2026-11-28-3"
    assert str(record.match.date) == "2026-11-28"
    assert record.match.rules.target == 121 and record.match.rules.cafe.en_face is True
    first = record.deals[0]
    assert first.dealer == 3
    assert [(d.seat, d.call) for d in first.declarations] == [(3, "trump"), (0, "klop")]
    assert first.tricks[0] == ["AC", "QC", "9D", "KD"]
    assert (first.recorded_score.team, first.recorded_score.points) == (1, 12)
    assert record.deals[3].recorded_score is None
    result = replay(record)
    assert [d.kind.value for d in result.deals] == ["played", "scoresheet", "scoresheet", "scoresheet"]
    # The text and the same match written as JSON replay the same, trick by trick.
    again = replay(loads(dumps(record)))
    assert [t.winner for t in again.deals[0].tricks] == [t.winner for t in result.deals[0].tricks]


def test_cards_in_any_case_with_t_and_suit_symbols():
    text = "seats Anna Bert Carla Dirk\ndeal 1 dealer Dirk trump ♦\n  A♣ q♣ 9♦️ kd\n"
    for suit in ("♦", "koeken", "d"):
        (record,) = loads_text(text.replace("trump ♦", f"trump {suit}"))
        assert record.deals[0].tricks == [["AC", "QC", "9D", "KD"]]
        assert record.deals[0].declarations[0].suit == "D"


def test_card_parse_takes_symbols_and_phone_emoji():
    assert Card.parse("10♥") == Card.parse("TH") == Card.parse("t♡") == Card.parse("10♥\ufe0f")
    assert Card.parse("a♠") == Card.parse("AS")
    assert Suit.parse("♣") is Suit.C and Suit.parse("schoppen") is Suit.S


def test_a_json_record_may_write_cards_with_symbols():
    document = json.loads((SAMPLES / "seed-trick.json").read_text())
    document["deals"][0]["tricks"][0] = ["A♣", "q♣", "9♦", "K♦"]
    record = loads(json.dumps(document, ensure_ascii=False))
    assert record.deals[0].tricks[0] == ["AC", "QC", "9D", "KD"]


def test_the_dealer_follows_the_rotation_when_not_written():
    text = "seats Anna Bert Carla Dirk\ndeal 1 dealer Dirk score Anna 6\ndeal 2 score Bert 12\n"
    (record,) = loads_text(text)
    assert [d.dealer for d in record.deals] == [3, 0]


def test_a_match_typed_in_the_notation_and_saved_as_txt_is_read_as_the_notation(tmp_path: Path) -> None:
    """Notepad and phones save as .txt: such a file was read as JSON ("not valid JSON at line 1
    column 1"), a message that told the player nothing they could do."""
    typed = tmp_path / "gisteren.txt"
    typed.write_text("# last night\n" + (NOTATION / "muil.mnl").read_text(), encoding="utf-8-sig")
    as_json = tmp_path / "copy.txt"
    as_json.write_bytes(dumps(loads_text((NOTATION / "muil.mnl").read_text())[0], pretty=False).encode())
    other = tmp_path / "notes.txt"
    other.write_text("bring the cards\n")
    result = CliRunner().invoke(cli, ["validate", str(typed), str(as_json), str(other)])
    assert result.exit_code == 1
    assert "gisteren.txt:1: ok, match muil-three-manilles" in result.stdout
    assert "copy.txt: ok, match muil" in result.stdout
    assert "notes.txt: not valid JSON at line 1 column 1" in result.stdout + result.stderr


def test_a_team_is_both_names_or_either_name_with_spaces_around_the_ampersand():
    text = "seats Anna Bert Carla Dirk\ndeal 1 dealer Dirk score Carla 6\ndeal 2 score bert & dirk 12\n"
    (record,) = loads_text(text)
    assert [(d.recorded_score.team, d.recorded_score.points) for d in record.deals] == [(0, 6), (1, 12)]


def test_several_matches_in_one_file_each_a_document_at_its_first_line(tmp_path):
    path = tmp_path / "evening.mnl"
    first = (NOTATION / "muil.mnl").read_text()
    second = (NOTATION / "klop-tegenklop.mnl").read_text()
    path.write_text(first + "\n" + second)
    entries = list(iter_entries([path]))
    assert [e.line for e in entries] == [1, first.count("\n") + 2]
    assert [replay_entry(e)[0].match.id for e in entries] == ["muil-three-manilles", "klop-tegenklop"]


def test_a_club_evening_names_each_blocks_seating():
    """In block 2 the partners rotate: its scoresheet lines name the new teams."""
    text = (NOTATION / "club-evening.mnl").read_text()
    assert "blocks Anna Bert Carla Dirk / Anna Carla Bert Dirk" in text
    deal13 = next(line for line in text.splitlines() if line.startswith("deal 13 "))
    assert "Anna&Bert" in deal13 or "Carla&Dirk" in deal13
    assert dumps(loads_text(text)[0]) == dumps(load(SAMPLES / "club-evening.json"))


def test_quoted_names_free_text_with_hashes_and_every_optional_part_round_trip():
    record = load(SAMPLES / "seed-trick.json")
    record.match.seats = ["Jan P.", "Bert", "Carla & co", "Dirk"]
    record.match.venue = "Cafe #1, Roeselare"
    record.match.notes = "two\nlines"
    deal = record.deals[0]
    deal.penalties = [Penalty(team=1, points=30, reason="3 cards shown"), Penalty(team=0)]
    deal.annotations = [
        Annotation(author="coach", text="general"),
        Annotation(trick=2, author="Jan P.", text="# not a comment", tags=["good", "a,b", "vetten"]),
        Annotation(trick=3, play=4, author="trick", text="", tags=[]),
    ]
    text = dumps_text(record)
    assert '"Jan P."' in text and '"Cafe #1, Roeselare"' in text
    assert dumps(loads_text(text)[0]) == dumps(record)
    assert dumps_text(loads_text(text)[0]) == text


# --------------------------------------------------------------------------- round trips


def _round_trip(record: Record) -> None:
    text = dumps_text(record)
    (back,) = loads_text(text)
    assert dumps(back) == dumps(record), text
    assert dumps_text(back) == text


@pytest.mark.parametrize("path", sorted(SAMPLES.glob("*.json")), ids=lambda p: p.stem)
def test_every_sample_round_trips_json_text_json(path):
    _round_trip(load(path))


@pytest.mark.parametrize("path", sorted(SAMPLES.glob("*.json")), ids=lambda p: p.stem)
def test_the_shipped_text_of_every_sample_is_its_canonical_text(path):
    """data/notation/ holds each sample as the program writes it, and replays like the JSON."""
    text = (NOTATION / f"{path.stem}.mnl").read_text()
    assert text == dumps_text(load(path))
    assert replay(loads_text(text)[0]).score == replay(load(path)).score


def test_the_demo_archive_round_trips():
    for entry in iter_entries([ROOT / "data" / "demo.jsonl"]):
        _round_trip(entry.decode())


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_generated_archives_of_every_variant_round_trip(tmp_path, variant):
    shape = VARIANTS[variant]
    people = shape.people
    out = tmp_path / "games.jsonl"
    # the café rules the variant has room for: generate refuses one it would never apply
    cafe = ["blind_muil"] + ["en_face"] * shape.has_en_face + ["redeal_small"] * shape.has_redeal
    rules = [word for name in cafe for word in ("--rule", f"cafe.{name}=true")]
    players = ",".join((["club", "novice"] * 3)[:people])
    result = run(
        "generate", "--matches", "3", "--seed", "5", "--variant", variant, "--players", players,
        *rules, "--out", str(out),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    records = [e.decode() for e in iter_entries([out])]
    assert records
    for record in records:
        _round_trip(record)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_random_legal_deals_round_trip(seed):
    rng = random.Random(seed)
    deals = [random_deal(rng, dealer) for dealer in range(rng.randint(1, 4))]
    if rng.random() < 0.5:
        for deal in deals:
            deal.hands = msgspec.UNSET
    record = Record(format="manillen/1", match=MatchInfo(seats=list(SEATS)), deals=deals)
    _round_trip(record)
    assert replay(loads_text(dumps_text(record))[0]).score == replay(record).score


# --------------------------------------------------------------------------- errors


def _the_problem(text: str) -> NotationError:
    problems = problems_of(text)
    assert problems, "the text should be refused"
    return problems[0]


HEAD = "seats Anna Bert Carla Dirk\n"


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        (HEAD + "deal 1 dealer Dirk trump H\n  AC QC 9X KD\n", 3, 9, "unknown card '9X': expected a card"),
        (HEAD + "deal 1 dealer Dirk trump X\n", 2, 26, "expected a suit"),
        (HEAD + "deal 1 dealer Eva trump H\n", 2, 15, "unknown player 'Eva' as dealer: expected one of Anna"),
        (HEAD + "deal 2 dealer Dirk trump H\n", 2, 6, "expected deal number 1"),
        (HEAD + "deal 1 trump H\n", 2, 7, "expected 'dealer NAME' on deal 1"),
        (HEAD + "deal 1 dealer Dirk trump H kloppen Anna\n", 2, 28, "expected a call"),
        (HEAD + "deal 1 dealer Dirk trump H klop\n", 2, 32, "expected the name of the player who says klop"),
        (HEAD + "deal 1 dealer Dirk score Anna\n", 2, 26, "expected 'score TEAM POINTS'"),
        (HEAD + "deal 1 dealer Dirk score Anna&Bert 6\n", 2, 26, "'Anna&Bert' are not on one team"),
        (HEAD + "foo bar\n", 2, 1, "expected a header line"),
        (HEAD + "deal 1 dealer Dirk score Anna 6\nvenue x\n", 3, 1, "must come before the first deal"),
        ("venue x\ndeal 1 dealer Dirk score Anna 6\n", 2, 1, "expected the 'seats' line"),
        (HEAD + "rules target\n", 2, 7, "expected NAME=VALUE"),
        (HEAD + "rules target=abc\ndeal 1 dealer Dirk score Anna 6\n", 2, 7, "expected a whole number"),
        (HEAD + "rules targett=121\ndeal 1 dealer Dirk score Anna 6\n", 2, 7, "unknown field 'targett'"),
        (
            HEAD + "rules target=61 target=101\n",
            2,
            17,
            "target is given twice on this line (target=61 at column 7",
        ),
        (HEAD + "rules cafe.en_face=true cafe.en_face=false\n", 2, 25, "cafe.en_face is given twice"),
        ("date 2026-13-45\n" + HEAD + "deal 1 dealer Dirk score Anna 6\n", 1, 6, "not a valid date"),
        (HEAD + "variant seven\n", 2, 9, "unknown variant 'seven'"),
        (HEAD + 'deal 1 dealer Dirk score Anna 6\n  note coach: "open\n', 3, 15, "no closing quote"),
        (HEAD + "deal 1 dealer Dirk score Anna 6\n  note coach text\n", 3, 18, "expected 'note"),
        (HEAD + "deal 1 dealer Dirk trump H\n  hand Anna: AC\n", 2, 1, "Bert's hand is missing"),
        (HEAD + "deal 1 dealer Dirk trump H\n  table Anna: 7S-10S\n", 3, 15, "expected a pile"),
        (HEAD + "deal 1 dealer Dirk trump H\n  move Anna 3\n", 3, 7, "expected 'move NAME trick T'"),
        ("", 1, 1, "the text is empty"),
        ("# only a comment\n\n# and another\n", 1, 1, "no match here: the text holds only # comments"),
        (
            HEAD + "rules target=1234567890\n",
            2,
            14,
            "1234567890... is too large: a number has at most 9 digits",
        ),
        (HEAD + "rules extension=121,99999999999\n", 2, 21, "is too large: a number has at most 9 digits"),
        (HEAD + "deal 1 dealer Dirk score Anna " + "9" * 12 + "\n", 2, 31, "is too large"),
        (HEAD + "deal 1 dealer Dirk score Anna " + "9" * 5000 + "\n", 2, 31, "5,000 digits"),
        ("seats A B\ndeal 1 dealer A trump H\n hand A: AC\n hand B: KC\n", 1, 7, "played by 4 players"),
    ],
)
def test_every_reading_error_names_line_column_and_what_was_expected(text, line, column, words):
    problem = _the_problem(text)
    assert (problem.line, problem.column) == (line, column), problem.describe()
    assert words in problem.message
    assert problem.describe().startswith(f"game.mnl:{line}:{column}: ")


def test_a_card_typed_twice_in_one_trick_says_so_with_its_place_there():
    """It said "'AC' was already played in trick 1" of trick 1 itself."""
    text = (NOTATION / "seed-trick.mnl").read_text().replace("  AC QC 9D KD", "  AC QC AC KD", 1)
    problem = _the_problem(text)
    assert problem.message.startswith("'AC' was already played in this trick, as its card 1")
    without_hands = "\n".join(line for line in text.splitlines() if "hand " not in line) + "\n"
    assert _the_problem(without_hands).message.startswith(
        "'AC' was already played in this trick, as its card 1"
    )


def test_a_card_dealt_twice_names_the_other_copy_by_line_and_column():
    lines = (NOTATION / "illegal-plays.mnl").read_text().splitlines()
    first = next(n for n, text in enumerate(lines) if text.startswith("  hand Anna:"))
    assert lines[first + 1].startswith("  hand Bert: 10H ")
    lines[first + 1] = lines[first + 1].replace("10H", "QS", 1)
    problem = _the_problem("\n".join(lines) + "\n")
    queen = lines[first].index("QS") + 1
    assert (problem.line, problem.column) == (first + 2, lines[first + 1].index("QS") + 1)
    assert problem.message == f"'QS' was dealt twice (also at line {first + 1}, column {queen})"


def test_a_card_in_the_wrong_hand_says_who_leads_the_trick_and_why():
    text = (NOTATION / "seed-trick.mnl").read_text().replace("  10C 9C KS 7D\n", "  KS 7D 10C 9C\n")
    line = text.splitlines().index("  KS 7D 10C 9C") + 1
    problem = _the_problem(text)
    assert (problem.line, problem.column) == (line, 3)
    assert problem.message == "'KS' is not in Anna's hand in trick 3"
    assert problem.hint == (
        "Anna won trick 2, so trick 3 starts with Anna: the first card on the line is Anna's; "
        "KS was dealt to Carla"
    )


def test_a_short_trick_is_placed_at_its_line_with_who_leads_it():
    problem = _the_problem(HEAD + "deal 1 dealer Dirk trump H\n  AC QC 9D\n")
    assert (problem.line, problem.column) == (3, 3)
    assert "a trick has 4 cards, this one 3" in problem.message
    assert problem.hint.startswith("Anna sits left of the dealer Dirk, so trick 1 starts with Anna")


def test_a_card_played_twice_is_placed_at_the_second_card():
    text = (
        HEAD
        + "deal 1 dealer Dirk trump D\n"
        + "\n".join(
            "  " + line.strip() for line in (NOTATION / "seed-trick.mnl").read_text().splitlines()[11:19]
        ).replace("QH JH JC KH", "QH JH JC AC")
    )
    problem = _the_problem(text)
    assert (problem.line, problem.column) == (8, 12)
    assert problem.message == "'AC' was already played in trick 1"


def test_a_wrong_call_is_placed_at_the_call():
    problem = _the_problem(HEAD + "deal 1 dealer Dirk trump H klop Bert\n  score 30-30\n")
    assert (problem.line, problem.column) == (2, 28)
    assert "Bert is on the dealing team and cannot klop" in problem.message


def test_a_utf16_file_is_named_as_such(tmp_path):
    path = tmp_path / "game.mnl"
    path.write_bytes(HEAD.encode("utf-16"))
    result = run("validate", str(path))
    assert result.exit_code == 1
    assert f"{path}:1:1: the file is UTF-16 text; save it as UTF-8" in result.output


def test_a_utf8_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "game.mnl"
    path.write_bytes(b"\xef\xbb\xbf" + (NOTATION / "muil.mnl").read_bytes())
    assert run("validate", str(path)).exit_code == 0


# --------------------------------------------------------------------------- the commands


@pytest.mark.solver
def test_validate_replay_findings_and_costs_take_mnl_files_and_folders():
    shipped = len(list(NOTATION.glob("*.mnl")))
    assert f"{shipped} valid, 0 invalid" in run("validate", str(NOTATION)).output
    replayed = run("replay", str(NOTATION / "seed-trick.mnl"))
    assert replayed.exit_code == 0 and "Anna A♣    Bert Q♣" in replayed.output
    found = run("findings", str(NOTATION / "illegal-plays.mnl"))
    assert found.exit_code == 0 and "revoke" in found.output
    costs = run("costs", str(NOTATION / "seed-trick.mnl"), "--json")
    assert costs.exit_code == 0 and json.loads(costs.output)


def test_validate_json_output_gives_column_and_hint(tmp_path):
    path = tmp_path / "game.mnl"
    path.write_text(HEAD + "deal 1 dealer Dirk trump H\n  AC QC 9X KD\n")
    report = json.loads(run("validate", str(path), "--json").output)
    (problem,) = report["records"][0]["problems"]
    assert (problem["line"], problem["column"]) == (3, 9)


def test_import_takes_mnl_and_keeps_the_refused_match_at_its_line(tmp_path):
    bad = tmp_path / "bad.mnl"
    bad.write_text(HEAD + "deal 1 dealer Dirk trump H\n  AC QC 9X KD\n")
    with Store(":memory:") as store:
        summary = store.import_paths([NOTATION / "seed-trick.mnl", bad])
        assert (summary.imported, summary.refused) == (1, 1)
        row = store.query("SELECT line, message FROM rejects").row(0)
    assert row[0] == 3 and row[1].startswith("column 9: unknown card '9X'")


def test_a_mistyped_card_is_said_as_one_with_its_pointer_first_in_its_trick_or_not(tmp_path):
    """A helper's "11S JS AS 7S" got "expected a trick ... found '11S'" where the same typo later
    in the line got "unknown card" and its hint; the unknown card had no JSON pointer; a Dutch rank
    letter (heer for K) had no word on it."""
    text = (NOTATION / "seed-trick.mnl").read_text()
    first_trick = next(
        line for line in text.splitlines() if line.startswith("  ") and " hand " not in f" {line}"
    )
    cards = first_trick.split()
    cases = {
        "first": " ".join(["11S", *cards[1:]]),
        "third": " ".join([*cards[:2], "HS", *cards[3:]]),
    }
    for name, typed in cases.items():
        path = tmp_path / f"{name}.mnl"
        path.write_text(text.replace(first_trick, "  " + typed, 1))
        result = run("validate", "--json", str(path))
        (problem,) = json.loads(result.stdout)["records"][0]["problems"]
        assert problem["message"].startswith(f"unknown card {typed.split()[0 if name == 'first' else 2]!r}")
        assert problem["pointer"] == f"/deals/0/tricks/0/{0 if name == 'first' else 2}"
    assert problem["message"].endswith("the ranks are written as in English: boer J, vrouw Q, heer K")


@pytest.mark.parametrize("team", ['"Jan P."&Carla', 'Carla&"Jan P."', '"Jan P." & Carla', 'Carla & "Jan P."'])
def test_a_team_with_a_quoted_name_reads_in_score_and_penalty(team):
    """`score "Jan P."&Carla 1` was refused, and `penalty "Jan P."&Carla 10` read "&Carla 10" as
    its reason."""
    text = f'seats "Jan P." Bert Carla Dirk\ndeal 1 dealer Dirk score {team} 12\n  penalty {team} 10 revoke\n'
    (record,) = loads_text(text)
    deal = record.deals[0]
    assert (deal.recorded_score.team, deal.recorded_score.points) == (0, 12)
    assert [(p.team, p.points, p.reason) for p in deal.penalties] == [(0, 10, "revoke")]
    # a name with '&' in it is one name when quoted
    (record,) = loads_text('seats "A&B" Bert Carla Dirk\ndeal 1 dealer Dirk score "A&B"&Carla 12\n')
    assert record.deals[0].recorded_score.team == 0
    # a team across the sides is still said as one
    problem = _the_problem('seats "Jan P." Bert Carla Dirk\ndeal 1 dealer Dirk score "Jan P."&Bert 12\n')
    assert "'Jan P.&Bert' are not on one team in this deal" in problem.message


def test_a_trump_refused_under_held_suit_is_placed_at_the_call_with_the_suits_one_may_call():
    """It was placed at the deal line's column 1 and named no suit that could be called."""
    text = (NOTATION / "seed-trick.mnl").read_text()
    text = text.replace("\nseats ", "\nrules trump_choice=held_suit\nseats ", 1)
    text = text.replace("trump D", "trump C", 1)
    line_number, line = next((n, t) for n, t in enumerate(text.splitlines(), start=1) if "trump C" in t)
    problem = _the_problem(text)
    assert (problem.line, problem.column) == (line_number, line.index("trump C") + 1)
    assert problem.message.endswith("Dirk may call hearts, diamonds or spades, or muil")


def test_validate_places_a_scoresheet_line_the_cards_contradict(tmp_path):
    """validate said "1 irregularity: see manillen replay", with no line, and the JSON said "team 0"."""
    typed = tmp_path / "sheet.mnl"
    text = (NOTATION / "seed-trick.mnl").read_text() + "  score Anna&Carla 5\n"
    typed.write_text(text)
    line = len(text.splitlines())
    result = run("validate", str(typed))
    assert result.exit_code == 0
    said = f"  {typed}:{line}:9: deal 1: the scoresheet says Anna & Carla scored 5, the cards say Anna & "
    assert said in result.output
    # the JSON places it as a problem is placed, with its deal, kind and the players' names
    [record] = json.loads(run("validate", str(typed), "--json").output)["records"]
    [irregularity] = record["irregularities"]
    assert irregularity["deal"] == 1 and irregularity["kind"] == "score_mismatch"
    assert (irregularity["line"], irregularity["column"]) == (line, 9)
    assert irregularity["pointer"] == "/deals/0/recorded_score"
    assert irregularity["message"].startswith("deal 1: the scoresheet says Anna & Carla scored 5")


def test_validate_names_a_cafe_rule_the_variant_has_no_room_for_and_keeps_the_record_valid(tmp_path):
    """A record keeper's three-player match with `cafe.en_face` passed as "ok" while the option was
    never applied; refused, an archive holding such a record would no longer read it."""
    typed = tmp_path / "three.mnl"
    text = (
        (NOTATION / "variant-three.mnl")
        .read_text()
        .replace("\nseats ", "\nrules cafe.en_face=true\nseats ", 1)
    )
    typed.write_text(text)
    line = next(n for n, t in enumerate(text.splitlines(), start=1) if t.startswith("rules "))
    result = run("validate", str(typed))
    assert result.exit_code == 0 and ": ok, match " in result.output
    said = f"  {typed}:{line}:7: rule option 'cafe.en_face' does not apply to the variant 'three'"
    assert said in result.output and "only: it is never applied" in result.output, result.output
    [record] = json.loads(run("validate", str(typed), "--json").output)["records"]
    [unused] = record["unused_rules"]
    assert record["valid"] and (unused["line"], unused["pointer"]) == (line, "/match/rules")
    plain = json.loads(run("validate", str(NOTATION / "variant-three.mnl"), "--json").output)["records"][0]
    assert plain["unused_rules"] == []


def test_convert_json_to_text_and_back_gives_the_same_bytes(tmp_path):
    text = tmp_path / "seed.mnl"
    back = tmp_path / "seed.json"
    assert run("convert", str(SAMPLES / "seed-trick.json"), str(text)).exit_code == 0
    assert text.read_text() == (NOTATION / "seed-trick.mnl").read_text()
    assert run("convert", str(text), str(back)).exit_code == 0
    assert back.read_bytes() == (SAMPLES / "seed-trick.json").read_bytes()


def test_convert_reads_stdin_and_writes_stdout():
    out = run("convert", "-", "-", "--to", "json", stdin=(NOTATION / "muil.mnl").read_text())
    assert out.exit_code == 0 and out.output == (SAMPLES / "muil.json").read_text()
    guessed = run("convert", "-", "-", stdin=(SAMPLES / "muil.json").read_text())
    assert guessed.output == (NOTATION / "muil.mnl").read_text()
    lines = run("convert", "-", "-", stdin=(NOTATION / "muil.mnl").read_text())
    assert json.loads(lines.output)["match"]["id"] == "muil-three-manilles"


def test_convert_names_the_comments_it_leaves_behind_and_never_converts_them_away_in_place(tmp_path):
    """A typist's # comments vanished without a word, and `convert same.mnl same.mnl` lost them for good."""
    typed = tmp_path / "evening.mnl"
    text = "# De Troef, 4 December\n" + (NOTATION / "muil.mnl").read_text() + "# typed by Jef\n"
    text = text.replace("\nnotes ", '\nevent "Table #1"\nnotes ', 1)  # a # inside quotes is text
    typed.write_text(text)
    lines = text.splitlines()
    commented = [n for n, line in enumerate(lines, start=1) if line.startswith("#")]
    result = run("convert", str(typed), str(tmp_path / "evening.json"))
    assert result.exit_code == 0
    said = f"not carried over: the # comments of {typed} lines {commented[0]} and {commented[1]}"
    assert said in result.output
    before = typed.read_bytes()
    result = run("convert", str(typed), str(typed))
    assert result.exit_code == 2 and "converting the file onto itself would lose them" in result.output
    assert typed.read_bytes() == before
    # without comments: converted as before, in place too, without a word about them
    plain = tmp_path / "plain.mnl"
    plain.write_text((NOTATION / "muil.mnl").read_text())
    result = run("convert", str(plain), str(plain))
    assert result.exit_code == 0 and "not carried over" not in result.output


def test_convert_a_folder_to_json_lines(tmp_path):
    out = tmp_path / "all.jsonl"
    result = run("convert", str(NOTATION), str(out))
    shipped = len(list(NOTATION.glob("*.mnl")))
    assert result.exit_code == 0 and f"wrote {shipped} matches" in result.output
    assert len(out.read_text().splitlines()) == shipped


def test_convert_writes_nothing_when_a_match_is_invalid(tmp_path):
    bad = tmp_path / "bad.mnl"
    bad.write_text(HEAD + "deal 1 dealer Dirk trump H\n  AC QC 9X KD\n")
    out = tmp_path / "out.json"
    result = run("convert", str(bad), str(out))
    assert result.exit_code == 1 and "nothing written" in result.output
    assert f"{bad}:3:9: unknown card" in result.output
    assert not out.exists() and not list(tmp_path.glob(".*partial"))


def test_convert_refuses_many_matches_into_one_json_file(tmp_path):
    result = run("convert", str(NOTATION), str(tmp_path / "one.json"))
    assert result.exit_code == 2 and "a .json file holds one match" in result.output


def test_convert_refuses_an_out_whose_name_says_no_format_unless_told(tmp_path):
    """A helper's `convert base.mnl out.txt` wrote JSON into out.txt, which validate of its
    folder then passed by: the name must say the format, or --to."""
    out = tmp_path / "out.txt"
    result = run("convert", str(NOTATION / "muil.mnl"), str(out))
    assert result.exit_code == 2 and "name it .json, .jsonl or .mnl, or give --to" in result.output
    assert not out.exists()
    told = run("convert", str(NOTATION / "muil.mnl"), str(out), "--to", "mnl")
    assert told.exit_code == 0 and out.read_text() == (NOTATION / "muil.mnl").read_text()


def test_cli_options_take_cards_with_symbols():
    result = run("legal", "--trump", "♦", "--leader", "1", "--trick", "A♣ q♣ 9♦", "--hand", "8♦ kd 7H")
    assert result.exit_code == 0 and "May play: KD" in result.output
    refused = run("legal", "--trump", "x", "--leader", "1")
    assert refused.exit_code == 2 and "unknown suit 'x'" in refused.output


# --------------------------------------------------------------------------- the docs


def _doc_blocks(language: str) -> list[str]:
    text = (ROOT / "docs" / "notation.md").read_text()
    return [part.split("```", 1)[0] for part in text.split(f"```{language}\n")[1:]]


def test_every_notation_example_in_the_docs_is_a_valid_match():
    blocks = _doc_blocks("mnl")
    assert len(blocks) >= 10
    for block in blocks:
        for entry in entries_of(block.encode(), "docs/notation.md", "mnl"):
            record, result = replay_entry(entry)
            assert result.deals, block
            assert not result.irregularities or record.match.id == "club-evening-2026-11-27", block


def test_every_command_in_the_notation_docs_runs_as_written(tmp_path, monkeypatch):
    (tmp_path / "data").symlink_to(ROOT / "data")
    monkeypatch.chdir(tmp_path)
    commands = [line.split("#")[0].strip() for block in _doc_blocks("sh") for line in block.splitlines()]
    assert len(commands) >= 5
    for command in filter(None, commands):
        stdin = None
        if command.startswith("cat "):
            piped, command = command.split(" | ", 1)
            stdin = Path(piped.split()[1]).read_text()
        words = shlex.split(command)  # as a shell splits it: quoted cards are one argument
        assert words[0] == "manillen"
        result = run(*words[1:], stdin=stdin)
        assert result.exit_code == 0, (command, result.output)


@pytest.mark.parametrize(
    ("variant", "seats", "said"),
    [
        (
            "four",
            ["Anna", "Bert", "Carla"],
            "'four' is played by 4 players, the record names 3"
            ": name every player, or give the variant played by 3 (three, three_dummy)",
        ),
        (
            "six",
            ["Anna", "Bert", "Carla", "Dirk"],
            "'six' is played by 6 players, the record names 4"
            ": name every player, or give the variant played by 4 (four)",
        ),
        (
            "three_dummy",
            ["Anna", "Bert"],
            "'three_dummy' is played by 3 players, the record names 2"
            ": name every player, or give the variant played by 2 (two_open, two_open_fours)",
        ),
        (
            "two_open",
            ["Anna", "Bert", "Carla"],
            "'two_open' is played by 2 players, the record names 3"
            ": name only its 2 players, or give the variant played by 3 (three, three_dummy)",
        ),
    ],
)
def test_the_writer_refuses_a_record_naming_too_few_or_too_many_players(
    variant: str, seats: list[str], said: str
) -> None:
    """The format names a player for every seat a person plays (``manillen validate`` and the text
    reader refuse a record without): the writer refuses it with the same words and place, rather
    than write an unnamed seat as ``dummy`` or its number, which no reader takes back."""
    dealer = len(seats) - 1  # the last seat named deals: the seat after it has no name
    record = Record(
        format="manillen/1",
        match=MatchInfo(variant=variant, seats=seats),  # type: ignore[arg-type]
        deals=[Deal(dealer=dealer, recorded_score=RecordedScore(team=0, points=6))],
    )
    with pytest.raises(InvalidRecordError) as refused:
        dumps_text(record)
    (problem,) = refused.value.problems
    assert (problem.pointer, problem.message) == ("/match/seats", said)
    assert str(refused.value) == f"/match/seats: {said}"
    with pytest.raises(InvalidRecordError, match=re.escape(said)):  # as the engine says it
        replay(record)
