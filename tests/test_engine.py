"""The replay engine: declarations, scoring through a match, and every kind of invalid record."""

from __future__ import annotations

import json
import random

import msgspec
import pytest

from manillen_replay.engine import DealKind, IrregularityKind, decode_and_replay, match_id
from manillen_replay.errors import IllegalPlayError, InvalidRecordError
from manillen_replay.record import dumps, loads
from manillen_replay.rules import Contract, ViolationKind

from .factories import SEATS, random_deal, random_record

SEED_HANDS = [
    ["AC", "10C", "KC", "JC", "8C", "7C", "QD", "JS"],
    ["QC", "9C", "AH", "KH", "9H", "8H", "10S", "AS"],
    ["9D", "10D", "AD", "JD", "10H", "QH", "KS", "7S"],
    ["8D", "KD", "7D", "JH", "7H", "QS", "9S", "8S"],
]


def document(deals: list[dict], rules: dict | None = None, **match: object) -> bytes:
    info = {"seats": list(SEATS), **match}
    if rules:
        info["rules"] = rules
    return json.dumps({"format": "manillen/1", "match": info, "deals": deals}).encode()


def deal_dict(seed: int = 1, dealer: int = 0, trump: int | None = 0) -> dict:
    """A random legal deal as the JSON a user would write."""
    return msgspec.to_builtins(random_deal(random.Random(seed), dealer, trump=trump))


def problems(data: bytes) -> list[str]:
    with pytest.raises(InvalidRecordError) as caught:
        decode_and_replay(data, source="club.jsonl", line=14)
    return [p.describe() for p in caught.value.problems]


# --------------------------------------------------------------------------- turn order and declarations


def test_first_trick_led_by_dealers_left():
    """The player to the dealer's left (dealer + 1) leads the first trick."""
    for dealer in range(4):
        result = decode_and_replay(document([deal_dict(dealer=dealer)]))
        assert result.deals[0].tricks[0].leader == (dealer + 1) % 4


def test_seed_trick_inside_a_full_deal():
    """Trump diamonds, dealer Dirk: Anna leads AC, Bert QC, Carla 9D, Dirk must over-buy with KD."""
    deal = {
        "dealer": 3,
        "hands": SEED_HANDS,
        "declarations": [{"seat": 3, "call": "trump", "suit": "D"}],
        "tricks": [["AC", "QC", "9D", "KD"]],
    }
    result = decode_and_replay(document([deal]))
    trick = result.deals[0].tricks[0]
    assert (trick.winner, trick.points, result.deals[0].kind) == (3, 9, DealKind.ABANDONED)
    assert result.violations == []
    deal["tricks"] = [["AC", "QC", "9D", "8D"]]
    result = decode_and_replay(document([deal]))
    assert [(v.kind, str(v.card)) for v in result.violations] == [(ViolationKind.ILLEGAL_UNDERBUY, "8D")]


def test_klop_by_non_dealing_team_and_tegenklop_by_dealers_team():
    deal = deal_dict(dealer=0)
    deal["declarations"] += [{"seat": 1, "call": "klop"}, {"seat": 2, "call": "tegenklop"}]
    result = decode_and_replay(document([deal]))
    assert (result.deals[0].knocks, result.deals[0].multiplier) == (2, 4)


def test_klop_by_the_dealing_team_is_refused():
    deal = deal_dict(dealer=0)
    deal["declarations"].append({"seat": 2, "call": "klop"})
    assert problems(document([deal])) == [
        "club.jsonl:14: /deals/0/declarations/1: Carla is on the dealing team and cannot klop; "
        "the dealing team answers with tegenklop"
    ]


def test_trump_call_by_a_non_dealer_is_refused():
    deal = deal_dict(dealer=0)
    deal["declarations"] = [{"seat": 1, "call": "trump", "suit": "H"}]
    assert "may not make trump: the dealer, Anna, chooses" in problems(document([deal]))[0]


def test_knocking_stops_at_tegenklop_without_eternal_klop():
    deal = deal_dict(dealer=0)
    deal["declarations"] += [
        {"seat": 1, "call": "klop"},
        {"seat": 0, "call": "tegenklop"},
        {"seat": 3, "call": "klop"},
    ]
    assert "eternal_klop" in problems(document([deal]))[0]
    result = decode_and_replay(
        document([deal], rules={"cafe": {"eternal_klop": True}, "max_multiplier": None})
    )
    assert result.deals[0].multiplier == 8


def test_klop_on_muil_needs_the_option():
    deal = deal_dict(dealer=0, trump=None)
    deal["declarations"].append({"seat": 1, "call": "klop"})
    assert "klop_on_muil" in problems(document([deal]))[0]
    result = decode_and_replay(document([deal], rules={"klop_on_muil": True}))
    assert (result.deals[0].contract, result.deals[0].multiplier) == (Contract.MUIL, 4)


def test_en_face_passes_the_choice_to_the_partner():
    deal = deal_dict(dealer=0, trump=2)
    deal["declarations"] = [{"seat": 0, "call": "en_face"}, {"seat": 2, "call": "trump", "suit": "C"}]
    assert "cafe rule 'en_face'" in problems(document([deal]))[0]
    result = decode_and_replay(document([deal], rules={"cafe": {"en_face": True}}))
    outcome = result.deals[0]
    assert (outcome.en_face, outcome.chooser, outcome.multiplier, outcome.tricks[0].leader) == (True, 2, 2, 1)
    deal["declarations"] = [{"seat": 0, "call": "en_face"}, {"seat": 2, "call": "en_face"}]
    assert any(
        "cannot be passed back" in p for p in problems(document([deal], rules={"cafe": {"en_face": True}}))
    )


def test_blind_muil_needs_the_option_and_quadruples():
    deal = deal_dict(dealer=0, trump=None)
    deal["declarations"] = [{"seat": 0, "call": "blind_muil"}]
    assert "blind_muil" in problems(document([deal]))[0]
    result = decode_and_replay(document([deal], rules={"cafe": {"blind_muil": True}}))
    assert result.deals[0].multiplier == 4


def test_redeal_keeps_the_dealer_and_is_limited_to_two():
    redeal = {"dealer": 0, "declarations": [{"seat": 0, "call": "redeal"}]}
    assert "redeal_small" in problems(document([redeal]))[0]
    rules = {"cafe": {"redeal_small": True}}
    result = decode_and_replay(document([redeal, redeal, deal_dict(dealer=0)], rules=rules))
    assert [d.kind for d in result.deals] == [DealKind.REDEAL, DealKind.REDEAL, DealKind.PLAYED]
    assert result.irregularities == []
    assert "third redeal" in problems(document([redeal, redeal, redeal], rules=rules))[0]
    with_hand = dict(
        redeal, hands=[["10H", "AH", "KH", "QH", "JH", "10S", "AS", "KS"], ["7C"], ["8C"], ["9C"]]
    )
    assert any("five small cards" in p for p in problems(document([with_hand], rules=rules)))


def test_dealer_out_of_rotation_is_reported_not_refused():
    result = decode_and_replay(document([deal_dict(1, dealer=0), deal_dict(2, dealer=2)]))
    kinds = [i.kind for i in result.irregularities]
    assert kinds == [IrregularityKind.DEALER_OUT_OF_ROTATION]
    assert "Bert's turn" in result.irregularities[0].message


# --------------------------------------------------------------------------- scoring through a match


def test_recorded_score_mismatch_is_reported():
    deal = deal_dict(seed=2, dealer=0)
    result = decode_and_replay(document([deal]))
    truth = result.deals[0].score
    assert truth is not None
    deal["recorded_score"] = {"team": truth.team, "points": truth.points + 2}
    result = decode_and_replay(document([deal]))
    assert result.deals[0].score_mismatch
    assert result.irregularities[0].kind is IrregularityKind.SCORE_MISMATCH
    deal["recorded_score"] = {"team": truth.team, "points": truth.points}
    assert not decode_and_replay(document([deal])).deals[0].score_mismatch


def test_scoresheet_lines_count_for_the_match():
    deals = [{"dealer": i % 4, "recorded_score": {"team": i % 2, "points": 20}} for i in range(10)]
    deals[3]["recorded_score"] = None
    result = decode_and_replay(document(deals))
    assert result.deals[3].tie and result.deals[4].carried
    assert result.score == (100, 80) and not result.finished
    assert all(d.kind is DealKind.SCORESHEET for d in result.deals)


def test_thirty_thirty_makes_the_next_deal_count_double():
    tie = next(
        (seed for seed in range(3000) if decode_and_replay(document([deal_dict(seed)])).deals[0].tie), None
    )
    assert tie is not None, "no 30-30 among 3000 random deals"
    first = deal_dict(tie, dealer=0)
    second = next(
        d
        for d in (deal_dict(s, dealer=1) for s in range(tie + 1, tie + 50))
        if not decode_and_replay(document([d])).deals[0].tie
    )
    result = decode_and_replay(document([first, second]))
    assert result.deals[0].score is None and result.deals[1].carried and result.deals[1].multiplier == 2
    score = result.deals[1].score
    assert score is not None and score.points == 2 * (result.deals[1].points[score.team] - 30)


THIRTY_THIRTY = {"dealer": 0, "recorded_score": None}
"""A scoresheet line of a 30-30: nobody scores, the next counted deal is doubled."""


def _not_a_tie(dealer: int) -> dict:
    return next(
        d
        for d in (deal_dict(seed, dealer=dealer) for seed in range(50))
        if not decode_and_replay(document([d])).deals[0].tie
    )


@pytest.mark.parametrize("between", ["redeal", "abandoned"])
def test_a_redeal_or_an_abandoned_deal_keeps_the_30_30_carry(between: str) -> None:
    """rules.md: an abandoned deal "does not use up a pending 30-30 carry; neither does a redeal"."""
    if between == "redeal":
        middle, next_dealer = {"dealer": 1, "declarations": [{"seat": 1, "call": "redeal"}]}, 1
    else:
        middle, next_dealer = deal_dict(seed=3, dealer=1), 2
        middle["tricks"] = middle["tricks"][:2]
    played = _not_a_tie(next_dealer)
    result = decode_and_replay(
        document([THIRTY_THIRTY, middle, played], rules={"cafe": {"redeal_small": True}})
    )
    tie, skipped, counted = result.deals
    assert tie.tie and skipped.kind is DealKind(between) and skipped.score is None
    assert counted.carried and counted.multiplier == 2
    assert counted.score is not None and counted.points is not None
    assert counted.score.points == 2 * (counted.points[counted.score.team] - 30)
    assert result.score[counted.score.team] == counted.score.points
    # and the carry is used up by the deal that counted
    after = decode_and_replay(document([THIRTY_THIRTY, middle, played, _not_a_tie(next_dealer + 1)],
                                       rules={"cafe": {"redeal_small": True}}))  # fmt: skip
    assert not after.deals[3].carried and after.deals[3].multiplier == 1


def test_past_the_last_extension_the_higher_score_wins() -> None:
    """rules.md: both teams over the target play on to 121, then 151; "past the last extension the
    higher score wins". One scoresheet line with a penalty takes both over 151."""
    line = {"dealer": 0, "recorded_score": {"team": 0, "points": 120}}  # at most 30 x 4 (test_readers.py)
    line["penalties"] = [
        {"team": 1, "points": 50, "reason": "misdeal"},
        {"team": 0, "points": 160, "reason": "revoke"},
    ]
    result = decode_and_replay(document([line, {"dealer": 1, "recorded_score": {"team": 1, "points": 20}}]))
    assert result.deals[0].match_score == (170, 160)
    assert result.finished and result.winner == 0 and result.final_score == (170, 160)
    assert not result.deals[1].counted  # played on after it was decided


def test_match_played_on_after_it_was_won():
    deals = [{"dealer": i % 4, "recorded_score": {"team": 0, "points": 60}} for i in range(3)]
    result = decode_and_replay(document(deals))
    assert result.finished and result.final_score == (120, 0) and result.winner == 0
    assert [i.kind for i in result.irregularities] == [IrregularityKind.PLAYED_ON_AFTER_MATCH_WON]
    assert result.deals[2].counted is False


def test_penalties_go_to_the_opponents_by_default():
    deals = [
        {
            "dealer": 0,
            "recorded_score": {"team": 0, "points": 10},
            "penalties": [{"team": 0, "reason": "looked at cards before trump"}],
        }
    ]
    assert decode_and_replay(document(deals)).score == (10, 30)
    assert decode_and_replay(document(deals, rules={"penalty_to": "offender"})).score == (-20, 0)


def test_abandoned_deal_is_replayed_not_scored():
    deal = deal_dict(dealer=0)
    deal["tricks"] = deal["tricks"][:3]
    result = decode_and_replay(document([deal]))
    assert result.deals[0].kind is DealKind.ABANDONED and result.score == (0, 0)


@pytest.mark.parametrize("stopped", ["abandoned", "redeal"])
def test_penalties_are_applied_as_recorded_in_a_deal_that_does_not_count(stopped: str) -> None:
    """rules.md: penalties are applied as recorded, an abandoned deal is not scored. The penalty of
    an abandoned deal (a player who looked at the cards before trump) was shown and not applied:
    the fault stands though the deal does not, and the deal is not counted (a 30-30 carry waits)."""
    deal = deal_dict(dealer=0)
    if stopped == "abandoned":
        deal["tricks"] = deal["tricks"][:2]
    else:
        deal = {"dealer": 0, "declarations": [{"seat": 0, "call": "redeal"}]}
    deal["penalties"] = [{"team": 0, "reason": "looked at cards before trump"}]
    result = decode_and_replay(document([deal], rules={"cafe": {"redeal_small": True}}))
    (first,) = result.deals
    assert first.kind is (DealKind.ABANDONED if stopped == "abandoned" else DealKind.REDEAL)
    assert first.score is None and first.match_score == (0, 30) and result.score == (0, 30)
    offender = decode_and_replay(
        document([deal], rules={"cafe": {"redeal_small": True}, "penalty_to": "offender"})
    )
    assert offender.score == (-30, 0)


def test_hands_may_be_left_out_when_every_trick_is_recorded():
    deal = deal_dict(dealer=1)
    full = decode_and_replay(document([deal]))
    del deal["hands"]
    short = decode_and_replay(document([deal]))
    assert short.deals[0].hands == full.deals[0].hands and short.deals[0].points == full.deals[0].points


def test_match_id_is_derived_from_the_content_when_absent():
    record = random_record(3, 2)
    record.match.id = msgspec.UNSET
    assert match_id(record) == match_id(loads(dumps(record)))
    assert match_id(record).startswith("m-")


def test_strict_mode_raises_at_the_first_illegal_play():
    deal = {
        "dealer": 3,
        "hands": SEED_HANDS,
        "declarations": [{"seat": 3, "call": "trump", "suit": "D"}],
        "tricks": [["AC", "QC", "9D", "8D"]],
    }
    with pytest.raises(IllegalPlayError, match="illegal_underbuy"):
        decode_and_replay(document([deal]), strict=True)


# --------------------------------------------------------------------------- invalid records


def test_invalid_not_json():
    assert problems(b'{"format": "manillen/1",')[0].startswith("club.jsonl:14: not valid JSON")


def test_invalid_wrong_format():
    assert problems(b'{"format": "manillen/2", "match": {}, "deals": []}') == [
        "club.jsonl:14: /format: unsupported record: format 'manillen/2'; this tool reads 'manillen/1'"
    ]


def test_invalid_field_of_the_wrong_type():
    deal = deal_dict()
    deal["dealer"] = "Anna"
    assert problems(document([deal])) == [
        'club.jsonl:14: /deals/0/dealer: expected a whole number, found a text "Anna"; '
        "a seat number, clockwise from 0"
    ]


@pytest.mark.parametrize("team", ["Anna & Carla", ["Anna", "Carla"]])
def test_invalid_team_names_in_the_recorded_score(team: object) -> None:
    """Team names where the scoresheet's team number goes: the message names the field and what it
    holds, not "expected an object or null, found an object" (issue 14)."""
    deal = deal_dict()
    deal["recorded_score"] = {"team": team, "points": 12}
    (problem,) = problems(document([deal]))
    assert problem.startswith("club.jsonl:14: /deals/0/recorded_score/team: expected a whole number, found ")
    assert problem.endswith("; a team: 0 (seats 0 and 2) or 1 (seats 1 and 3)")


def test_invalid_unknown_card():
    deal = deal_dict()
    deal["tricks"][2][1] = "11H"
    assert problems(document([deal])) == ["club.jsonl:14: /deals/0/tricks/2/1: unknown card '11H'"]


def test_invalid_card_dealt_twice_or_missing():
    deal = deal_dict()
    deal["hands"][1][0] = deal["hands"][0][0]
    found = problems(document([deal]))
    assert "was dealt twice" in found[0] and found[0].startswith("club.jsonl:14: /deals/0/hands/1/0: ")


def test_invalid_card_missing_from_the_deal():
    deal = deal_dict()
    deal["hands"][1][0] = "6H"
    assert "'6H' is not in the deck of 'four'" in problems(document([deal]))[0]


def test_invalid_hand_of_the_wrong_size():
    deal = deal_dict()
    deal["hands"][2] = deal["hands"][2][:7]
    assert "Carla's hand has 7 cards; each seat is dealt 8" in problems(document([deal]))[0]


def test_invalid_play_of_a_card_the_seat_does_not_hold():
    deal = {
        "dealer": 3,
        "hands": SEED_HANDS,
        "declarations": [{"seat": 3, "call": "trump", "suit": "D"}],
        "tricks": [["AC", "9D", "QC", "KD"]],
    }
    assert problems(document([deal])) == [
        "club.jsonl:14: /deals/0/tricks/0/1: '9D' is not in Bert's hand in trick 1"
    ]


def test_invalid_card_already_played():
    deal = {
        "dealer": 3,
        "hands": SEED_HANDS,
        "declarations": [{"seat": 3, "call": "trump", "suit": "D"}],
        "tricks": [["AC", "QC", "9D", "KD"], ["8D", "JC", "9C", "9D"]],
    }
    found = problems(document([deal]))
    assert found == ["club.jsonl:14: /deals/0/tricks/1/3: '9D' was already played in trick 1"]


def test_invalid_trick_of_the_wrong_length():
    deal = deal_dict()
    deal["tricks"][4] = deal["tricks"][4][:3]
    assert problems(document([deal])) == ["club.jsonl:14: /deals/0/tricks/4: a trick has 4 cards, this one 3"]


def test_invalid_seat_number_out_of_range():
    deal = deal_dict()
    deal["dealer"] = 4
    assert problems(document([deal])) == [
        "club.jsonl:14: /deals/0/dealer: seat 4 does not exist: seats are 0 to 3"
    ]


def test_invalid_unknown_field():
    deal = deal_dict()
    deal["tricsk"] = []
    assert "/deals/0: unknown field 'tricsk'" in problems(document([deal]))[0]


def test_every_problem_is_listed_not_only_the_first():
    bad = deal_dict()
    bad["tricks"][0] = bad["tricks"][0][:2]
    other = deal_dict(2)
    other["declarations"] = [{"seat": 2, "call": "klop"}]
    assert len(problems(document([bad, other]))) == 2


def test_t_and_lower_case_are_accepted_and_written_canonically():
    deal = deal_dict()
    deal["hands"] = [[c.replace("10", "T").lower() for c in hand] for hand in deal["hands"]]
    record = loads(document([deal]))
    assert all(card in record.deals[0].hands[0] for card in deal_dict()["hands"][0])


@pytest.mark.parametrize(("thirty_carry", "factor"), [(True, 2), (False, 1)])
def test_thirty_carry_option_decides_the_next_deals_multiplier(thirty_carry, factor):
    """thirty_carry = false: the deal after a 30-30 counts single (the sample's deal 2 doubles by default)."""
    from pathlib import Path

    sample = Path(__file__).resolve().parent.parent / "data" / "samples" / "thirty-thirty.json"
    data = json.loads(sample.read_text())
    data["match"].setdefault("rules", {})["thirty_carry"] = thirty_carry
    result = decode_and_replay(json.dumps(data).encode())
    assert result.deals[0].tie
    assert result.deals[1].multiplier == factor and result.deals[1].carried is thirty_carry


def test_the_format_guides_example_replays_as_the_guide_says() -> None:
    """docs/format.md's first record (an abandoned deal with a penalty) ends `match score: 0-30`,
    as the guide says below it: the penalty counts though the deal does not."""
    import re
    from pathlib import Path

    guide = (Path(__file__).resolve().parent.parent / "docs" / "format.md").read_text(encoding="utf-8")
    example = re.search(r"```json\n(.*?)```", guide, re.DOTALL)
    said = " ".join(guide.split())
    assert (
        example is not None
        and "example above, an abandoned deal with a penalty, ends `match score: 0-30`" in said
    )
    result = decode_and_replay(example.group(1))
    (deal,) = result.deals
    assert deal.kind is DealKind.ABANDONED and deal.penalties and result.score == (0, 30)
