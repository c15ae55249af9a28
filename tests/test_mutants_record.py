"""The record format: the behaviours that mutation testing of ``record/``
(``make mutate MODULE=manillen_replay/record/model.py``, file by file) showed no other test defended."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from manillen_replay.cli import cli
from manillen_replay.errors import InvalidRecordError
from manillen_replay.record import loads
from manillen_replay.record.model import seat_name_problems


def test_every_seat_without_a_name_is_named():
    """A record with two empty seats says so for both, not only the first."""
    assert seat_name_problems(["", "Bert", "  ", "Dirk"]) == [
        (0, "seat 0 has no name"),
        (2, "seat 2 has no name"),
    ]


def test_a_name_with_a_control_character_or_the_dummys_word_is_refused():
    problems = dict(seat_name_problems(["An\tna", "Dummy", "Carla", "Dirk"]))
    assert problems == {
        0: "the name 'An\\tna' holds a control character",
        1: "'Dummy' is no player's name: the notation calls the dummy's seat so",
    }


@pytest.mark.parametrize("control", ["\n", "\t", "\x1b[31m", "\x7f", "\x85"])
def test_a_match_id_with_a_control_character_is_refused_at_its_pointer(control: str, tmp_path: Path) -> None:
    """An id is printed in every message and used in addresses and queries: a line break or a
    terminal escape in it would print as a second line or recolour the terminal."""
    document = json.loads((SAMPLES / "seed-trick.json").read_text(encoding="utf-8"))
    document["match"]["id"] = f"zwaan{control}1"
    shown = repr(f"zwaan{control}1")
    assert problems_of(document) == [
        f"/match/id: the match id {shown} holds a control character (a line break, a tab, an escape): "
        "an id is one line of printable text"
    ]
    # the bulk path reads it so too, and the other records of the file are read
    good = json.loads((SAMPLES / "seed-trick.json").read_text(encoding="utf-8"))
    lines = tmp_path / "club.jsonl"
    lines.write_text(json.dumps(good) + "\n" + json.dumps(document) + "\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["validate", str(lines)])
    assert result.exit_code == 1 and f"club.jsonl:2: /match/id: the match id {shown}" in result.output
    assert "1 valid, 1 invalid" in result.output


def test_the_same_name_twice_is_quoted_once():
    assert seat_name_problems(["Anna", "Bert", "Bert", "Dirk"]) == [
        (2, "seats 1 and 2 have the same name ('Bert'): each player sits once")
    ]


SAMPLES = Path(__file__).resolve().parent.parent / "data" / "samples"


def problems_of(doc: dict) -> list[str]:
    with pytest.raises(InvalidRecordError) as caught:
        loads(json.dumps(doc))
    return [p.describe() for p in caught.value.problems]


def test_a_recorded_score_no_deal_can_reach_is_refused_with_the_most_one_can():
    """30 card points over the half times the highest factor: 4 under the default cap, 8 with
    blind muil and no cap."""
    doc = {
        "format": "manillen/1",
        "match": {"seats": ["Anna", "Bert", "Carla", "Dirk"]},
        "deals": [{"dealer": 0, "recorded_score": {"team": 0, "points": 500}}],
    }
    said = "/deals/0/recorded_score/points: a recorded score of 500 points is more than one deal can score"
    assert problems_of(doc) == [
        f"{said} under these rules: at most 120 (30 card points over the half, times the highest factor 4)"
    ]
    doc["match"]["rules"] = {"max_multiplier": None, "cafe": {"blind_muil": True}}
    assert problems_of(doc) == [
        f"{said} under these rules: at most 240 (30 card points over the half, times the highest factor 8)"
    ]


def test_a_card_dealt_to_the_table_or_laid_aside_as_well_as_to_a_hand_is_named_at_both_places():
    two = json.loads((SAMPLES / "variant-two-open.json").read_text())
    card = two["deals"][0]["hands"][1][0]
    two["deals"][0]["table"][0][0][0] = card
    assert problems_of(two) == [
        f"/deals/0/table/0/0/0: '{card}' was dealt twice (also at /deals/0/hands/1/0)"
    ]
    three = json.loads((SAMPLES / "variant-three.json").read_text())
    card = three["deals"][0]["hands"][1][0]
    three["deals"][0]["discards"][0] = card
    assert problems_of(three) == [
        f"/deals/0/discards/0: '{card}' was dealt twice (also at /deals/0/hands/1/0)"
    ]


SAMPLES = Path(__file__).resolve().parent.parent / "data" / "samples"


def _lowered(doc: dict) -> dict:
    """The same record with every card of its first deal in lower case (``10h`` for ``10H``)."""
    deal = doc["deals"][0]
    low = str.lower
    for key in ("hands", "tricks"):
        if key in deal:
            deal[key] = [[low(c) for c in group] for group in deal[key]]
    if "table" in deal:
        deal["table"] = [[[low(c) for c in pile] for pile in piles] for piles in deal["table"]]
    if "discards" in deal:
        deal["discards"] = [low(c) for c in deal["discards"]]
    return doc


@pytest.mark.parametrize("name", ["variant-two-open", "variant-three"])
def test_cards_in_any_accepted_spelling_are_read_as_the_canonical_cards(name):
    """Hands, tricks, table piles and the cards laid aside, written in lower case, read as written
    in capitals: the record is the same."""
    text = (SAMPLES / f"{name}.json").read_text()
    doc = _lowered(json.loads(text))
    doc["deals"][0]["annotations"] = [{"author": "Anna", "text": "or", "trick": 1, "play": 1, "line": ["ah"]}]
    record = loads(json.dumps(doc))
    expected = json.loads(text)
    deal = record.deals[0]
    assert deal.hands == expected["deals"][0]["hands"]
    assert deal.table == expected["deals"][0].get("table", deal.table)
    assert deal.discards == expected["deals"][0].get("discards", deal.discards)
    assert deal.annotations is not None and deal.annotations[0].line == ["AH"]


def test_an_unknown_card_is_named_at_its_place_in_a_pile_the_cards_laid_aside_and_a_variation():
    doc = json.loads((SAMPLES / "variant-two-open.json").read_text())
    doc["deals"][0]["table"][1][0][1] = "zz"
    doc["deals"][0]["annotations"] = [{"author": "Anna", "text": "or", "trick": 1, "play": 1, "line": ["1H"]}]
    with pytest.raises(InvalidRecordError) as caught:
        loads(json.dumps(doc))
    assert [p.describe() for p in caught.value.problems] == [
        "/deals/0/table/1/0/1: unknown card 'zz'",
        "/deals/0/annotations/0/line/0: unknown card '1H'",
    ]
    three = json.loads((SAMPLES / "variant-three.json").read_text())
    three["deals"][0]["discards"][1] = "7X"
    with pytest.raises(InvalidRecordError) as caught:
        loads(json.dumps(three))
    assert [p.describe() for p in caught.value.problems] == ["/deals/0/discards/1: unknown card '7X'"]


def test_a_file_that_is_not_a_record_is_named_in_its_problems(tmp_path: Path):
    from manillen_replay.record import load

    path = tmp_path / "evening.json"
    path.write_text('{"format": "manillen/1"}')
    with pytest.raises(InvalidRecordError) as caught:
        load(path)
    assert all(p.describe().startswith(f"{path}: ") for p in caught.value.problems)
