"""Tests written for the mutants of the code changed for speed (issue 35), run again (issue 36):
each states what a reader of a replay, an analysis or an archive relies on, which those
mutants left unsaid (docs/testing.md)."""

from __future__ import annotations

import json

import pytest

from manillen_replay.analysis.detectors import MatchAnalysis
from manillen_replay.cards import Card
from manillen_replay.engine import decode_and_replay, replay
from manillen_replay.engine.results import IrregularityKind
from manillen_replay.errors import InvalidRecordError
from manillen_replay.record import loads
from manillen_replay.rules import DealScore

from .test_bulk_replay import generated
from .test_engine import deal_dict, document
from .test_mutants_engine import _worked_out, call, calls_refused


def test_a_lone_muil_of_the_dealer_is_refused_when_the_turned_card_makes_trump():
    """Under ``trump_choice: turned_card`` the dealer's one call may not be a muil, as when
    other calls come with it."""
    rules = {"trump_choice": "turned_card"}
    refused = [
        "/deals/0/declarations/0: no muil under trump_choice turned_card: the turned card's suit is trump"
    ]
    assert calls_refused([call(0, "muil")], rules=rules) == refused
    assert calls_refused([call(0, "muil"), call(1, "klop")], rules=rules)[:1] == refused


def test_a_scoresheet_giving_the_deals_points_to_the_other_team_is_a_mismatch():
    """The scoresheet wrote the winners' points to the losers: the same number, the wrong team."""
    deal, played = next(
        (deal, played)
        for deal in map(deal_dict, range(1, 50))
        if (played := decode_and_replay(document([deal])).deals[0]).score is not None
    )
    assert played.score is not None
    deal["recorded_score"] = {"team": 1 - played.score.team, "points": played.score.points}
    checked = decode_and_replay(document([deal])).deals[0]
    assert checked.score == played.score and checked.score_mismatch
    assert checked.recorded == DealScore(1 - played.score.team, played.score.points)
    (irregularity,) = checked.irregularities
    assert irregularity.kind is IrregularityKind.SCORE_MISMATCH
    deal["recorded_score"] = {"team": played.score.team, "points": played.score.points}
    agreed = decode_and_replay(document([deal])).deals[0]
    assert not agreed.score_mismatch and agreed.recorded == agreed.score and not agreed.irregularities


def test_a_record_refused_names_the_same_problems_with_its_plays_worked_out_beforehand():
    """A record with a bad call in its first deal and a bad variation in its second: the
    replay that takes the plays the bulk path worked out names the same problems as the one
    that plays the cards itself (validate and import go either way)."""
    first, second = deal_dict(seed=1, dealer=0), deal_dict(seed=2, dealer=1)
    sound = loads(document([first, second]))
    ready = _worked_out(replay(sound))
    first["declarations"].append({"seat": 2, "call": "tegenklop"})
    second["annotations"] = [
        {"author": "Anna", "text": "the lead instead", "trick": 1, "play": 1, "line": ["9S", "9S"]}
    ]
    broken = loads(document([first, second]))
    told = []
    for played in (None, ready):
        with pytest.raises(InvalidRecordError) as refused:
            replay(broken, played=played)
        told.append([problem.describe() for problem in refused.value.problems])
    assert (
        told[0]
        == told[1]
        == [
            "/deals/0/declarations/1: expected 'klop' here, not 'tegenklop': klop and tegenklop alternate, "
            "klop first"
        ]
    )


def test_a_trump_given_under_the_opponents_trump_with_a_cheaper_card_to_give_is_points_thrown():
    """Under ``underbuy: allowed`` a player who cannot follow may trump under an opponent's
    higher trump. Carla gives J♦ (a trump, 1 point) to Bert's Q♦ in a trick the opponents were
    certain to take, while 8♠ (nothing) was hers to give: the point was thrown away. (A
    generated match: the club's novices play such cards.)"""
    (line,) = [
        line
        for line in generated("four", 25, (("underbuy", "allowed"),))
        if json.loads(line)["match"]["id"] == "sport-2026-01-13-1"
    ]
    record = loads(line)
    result = replay(record)
    trick = result.deals[12].tricks[6]
    assert result.deals[12].trump is not None and result.deals[12].trump.name == "D"
    assert trick.cards[3] == Card.DJ and trick.seats[3] == 2 and Card.DQ in trick.cards[:3]
    assert trick.cards[0] // 9 != 1  # not led in trumps: Carla could not follow
    assert trick.legal[3] >> Card.S8 & 1 and trick.winner != 2 and trick.winner % 2 != 0
    thrown = [
        (f.deal, f.trick, f.play, f.player, f.card, f.better, f.points)
        for f in MatchAnalysis(result, record).run()
        if f.kind == "points_thrown"
    ]
    assert (13, 7, 4, "Carla", Card.DJ, (Card.S8,), 1.0) in thrown
