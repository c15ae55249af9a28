"""House rules as a player gives them on the command line, penalties, and who scores in the
three-player game: the behaviours that mutation testing of ``rules.py``
(``make mutate MODULE=manillen_replay/rules.py``) showed no other test defended."""

from __future__ import annotations

from typing import Any

import pytest

from manillen_replay.cards import Card, CardSet, Suit
from manillen_replay.errors import InvalidOptionError
from manillen_replay.rules import VARIANTS, Rules, legal_plays, penalty_effect


@pytest.mark.parametrize(
    ("option", "typed", "meant"),
    [
        ("partner_exempt", "TRUE", True),
        ("partner_exempt", "Yes", True),
        ("cafe.en_face", " on ", True),
        ("klop_on_muil", "1", True),
        ("thirty_carry", "false", False),
        ("cafe.blind_muil", "NO", False),
        ("overtake_plain_suit", "Off", False),
        ("cafe.eternal_klop", "0", False),
        ("max_multiplier", "none", None),
        ("max_multiplier", "NULL", None),
        ("max_multiplier", "", None),
        ("max_multiplier", "4", 4),
        ("target", " 151 ", 151),
        ("extension", "121, 151", (121, 151)),
        ("extension", "151,", (151,)),
    ],
)
def test_a_house_rule_typed_on_the_command_line_means_what_docs_say(
    option: str, typed: str, meant: Any
) -> None:
    """``--rule NAME=VALUE``: true/yes/on/1 and false/no/off/0 in any case, null or none for
    no cap on the multiplier, a list of scores separated by commas."""
    rules = Rules.from_options({option: typed})
    assert getattr(rules, option.removeprefix("cafe.")) == meant


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("partner_exempt", "maybe", "true or false"),
        ("extension", "121,x", "list of scores"),
        ("extension", 121, "list of scores"),
        ("max_multiplier", "0", "number >= 1"),
        ("target", "many", "whole number"),
    ],
)
def test_a_house_rule_of_the_wrong_kind_is_refused_with_what_it_should_be(
    option: str, value: object, message: str
) -> None:
    with pytest.raises(InvalidOptionError, match=message):
        Rules.from_options({option: value})


def test_the_rules_a_record_writes_are_the_changed_ones_as_json_values() -> None:
    """A record keeps the options that differ from the defaults, the extension as a JSON list; the
    variant has its own field and is not an option."""
    rules = Rules.from_options({"variant": "three", "extension": "121,151,181", "cafe.en_face": "true"})
    assert rules.to_options() == {"extension": [121, 151, 181], "cafe": {"en_face": True}}
    assert Rules.from_options(rules.to_options()).extension == rules.extension


@pytest.mark.parametrize("team", [0, 1])
def test_a_penalty_goes_to_the_opponents_or_off_the_offender_as_the_house_rule_says(team: int) -> None:
    """docs: ``penalty_to`` "opponents" scores the points for the other team, "offender" deducts
    them from the offending team; the other score never moves."""
    to_opponents = penalty_effect(team, 30, Rules())
    off_offender = penalty_effect(team, 30, Rules(penalty_to="offender"))
    assert to_opponents[1 - team] == 30 and to_opponents[team] == 0
    assert off_offender[team] == -30 and off_offender[1 - team] == 0


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_in_the_three_player_game_the_dealer_scores_alone_and_each_opponent_scores_their_side(
    dealer: int,
) -> None:
    three = VARIANTS["three"]
    opponents = tuple(seat for seat in range(3) if seat != dealer)
    assert three.side_scorers(0, dealer) == (dealer,)
    assert three.side_scorers(1, dealer) == opponents
    assert VARIANTS["four"].side_scorers(1, dealer) == (1,)


@pytest.mark.parametrize(
    ("option", "value", "meant"),
    [
        ("max_multiplier", "1", 1),
        ("deals", "1", 1),
        ("penalty_points", "0", 0),
        ("penalty_points", "-10", -10),
    ],
)
def test_the_smallest_sensible_values_of_a_house_rule_are_accepted(
    option: str, value: str, meant: int
) -> None:
    """No doubling at all (a cap of 1), a one-deal match, a penalty of nothing (or a bonus)."""
    assert getattr(Rules.from_options({option: value}), option) == meant


@pytest.mark.parametrize(("option", "value"), [("penalty_points", "many"), ("extension", ["121", 151])])
def test_a_penalty_or_an_extension_that_is_no_number_is_refused(option: str, value: object) -> None:
    with pytest.raises(InvalidOptionError, match=r"whole number|list of scores"):
        Rules.from_options({option: value})


def test_what_may_be_played_names_the_suit_led_and_the_card_to_beat() -> None:
    """``manillen legal``: Carla is void in clubs after Anna's A♣, Bert's Q♣ and Dirk's 9♦ (trump
    diamonds): she must over-buy the 9♦, and the answer says so in those words."""
    answer = legal_plays(
        [Card.CA, Card.CQ, Card.D9], CardSet.parse("8D KD 7H"), Suit.D, partner_winning=False, rules=Rules()
    )
    assert answer.cards == CardSet.parse("KD")
    assert (answer.led_suit, answer.winning_card, answer.winning_position, answer.trump) == (
        Suit.C,
        Card.D9,
        2,
        Suit.D,
    )
    assert answer.explain() == "void in clubs: must over-buy 9D with a higher diamonds trump"
    assert answer.explain("Dirk") == "void in clubs: must over-buy Dirk's 9D with a higher diamonds trump"


def test_before_the_lead_nothing_is_led_and_nothing_is_winning() -> None:
    answer = legal_plays([], CardSet.parse("8D KD 7H"), Suit.D, partner_winning=False, rules=Rules())
    assert answer.cards == CardSet.parse("8D KD 7H")
    assert (answer.led_suit, answer.winning_card, answer.winning_position) == (None, None, None)
    assert answer.explain() == "the leader may play any card"
