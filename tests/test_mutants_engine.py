"""The replay engine's reading of a record: the behaviours that mutation testing of ``engine/``
(``make mutate MODULE=manillen_replay/engine``) showed no other test defended."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from manillen_replay.engine import decode_and_replay
from manillen_replay.engine.report import match_to_json, match_to_text
from manillen_replay.errors import InvalidRecordError

from .test_engine import deal_dict, document, problems

SAMPLES = Path(__file__).resolve().parent.parent / "data" / "samples"


@pytest.mark.parametrize(
    ("trump", "calls", "problem"),
    [
        (
            0,
            [{"seat": 0, "call": "trump"}],
            "/deals/0/declarations/0: a trump call needs a suit: H, D, C or S",
        ),
        (
            None,
            [{"seat": 0, "call": "blind_muil"}],
            "/deals/0/declarations/0: 'blind_muil' needs the cafe rule 'blind_muil' (match.rules.cafe)",
        ),
        (
            None,
            [{"seat": 0, "call": "muil"}, {"seat": 1, "call": "klop"}],
            "/deals/0/declarations/1: a muil may not be knocked under these rules (klop_on_muil is false)",
        ),
        (
            0,
            [{"seat": 0, "call": "trump", "suit": "H"}, {"seat": 1, "call": "tegenklop"}],
            "/deals/0/declarations/1: expected 'klop' here, not 'tegenklop': klop and tegenklop alternate, "
            "klop first",
        ),
        (
            0,
            [
                {"seat": 0, "call": "trump", "suit": "H"},
                {"seat": 1, "call": "klop"},
                {"seat": 3, "call": "tegenklop"},
            ],
            "/deals/0/declarations/2: Dirk is not on the dealing team: only the dealing team may tegenklop",
        ),
        (
            0,
            [
                {"seat": 0, "call": "trump", "suit": "H"},
                {"seat": 1, "call": "klop"},
                {"seat": 0, "call": "tegenklop"},
                {"seat": 3, "call": "klop"},
            ],
            "/deals/0/declarations/3: knocking stops at tegenklop without the cafe rule 'eternal_klop'",
        ),
    ],
)
def test_a_call_against_the_rules_is_refused_where_it_stands_with_the_rule(trump, calls, problem):
    deal = deal_dict(dealer=0, trump=trump)
    deal["declarations"] = calls
    assert problems(document([deal])) == [f"club.jsonl:14: {problem}"]


def test_playing_a_card_still_face_down_names_the_card_the_table_and_the_trick():
    doc = json.loads((SAMPLES / "variant-two-open.json").read_text())
    deal = doc["deals"][0]
    down = deal["table"][0][1][0]
    deal["tricks"] = [[deal["tricks"][0][0], down]]
    with pytest.raises(InvalidRecordError) as caught:
        decode_and_replay(json.dumps(doc))
    messages = [p.describe() for p in caught.value.problems]
    assert f"/deals/0/tricks/0/1: '{down}' still lies face down on Anna's table in trick 1" in messages


def test_a_scoresheet_that_disagrees_with_a_thirty_thirty_says_both():
    doc = json.loads((SAMPLES / "thirty-thirty.json").read_text())
    doc["deals"][0]["recorded_score"] = {"team": 0, "points": 5}
    result = decode_and_replay(json.dumps(doc))
    assert [(i.deal, i.message) for i in result.irregularities] == [
        (1, "deal 1: the scoresheet says team 0 scored 5, the cards say 30-30 (nobody scores)")
    ]
    assert "  ! deal 1: the scoresheet says Anna & Carla scored 5, the cards say 30-30 (nobody scores)" in (
        match_to_text(result).splitlines()
    )


def test_a_penalty_keeps_its_reason_and_one_without_a_reason_has_none():
    deals = [
        {
            "dealer": 0,
            "recorded_score": {"team": 0, "points": 10},
            "penalties": [{"team": 0, "reason": "looked at cards before trump"}, {"team": 1, "points": 10}],
        }
    ]
    result = decode_and_replay(document(deals))
    assert match_to_json(result)["deals"][0]["penalties"] == [
        {"team": 0, "points": 30, "reason": "looked at cards before trump"},
        {"team": 1, "points": 10, "reason": ""},
    ]
    text = match_to_text(result).splitlines()
    assert "  penalty: Anna & Carla, 30 points (looked at cards before trump)" in text
    assert "  penalty: Bert & Dirk, 10 points" in text
