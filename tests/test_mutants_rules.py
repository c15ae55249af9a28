"""House rules as a player gives them on the command line, penalties, and who scores in the
three-player game: the behaviours that mutation testing of ``rules.py``
(``make mutate MODULE=manillen_replay/rules.py``) showed no other test defended."""

from __future__ import annotations

from typing import Any

import pytest

from manillen_replay.errors import InvalidOptionError
from manillen_replay.rules import VARIANTS, Rules, penalty_effect


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
