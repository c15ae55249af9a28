"""Accuracy over real decisions only: flat choices do not count, calls do."""

from __future__ import annotations

import pytest

from manillen_replay.analysis.accuracy import DECISION_MARGIN, accuracy, decisions
from manillen_replay.analysis.call_review import CallOption, CallReview
from manillen_replay.analysis.costs import CardValue, PlayCost
from manillen_replay.cards import Card


def play(seat: int, view_cost: float, spread: float) -> PlayCost:
    """A play whose two legal cards' view values differ by ``spread``; the card played lost ``view_cost``."""
    values = {Card.HA: CardValue(10, 10.0), Card.H7: CardValue(10, 10.0 - spread)}
    return PlayCost(1, 1, seat, Card.H7, 0, view_cost, (Card.HA,), values, deal=1, hindsight_best=(Card.HA,))


def call(seat: int, chosen: float, best: float) -> CallReview:
    options = tuple(
        sorted((CallOption("klop", 30.0, best), CallOption("no klop", 30.0, chosen)), key=lambda o: -o.score)
    )
    return CallReview(1, seat, options, "no klop", 50)


def test_a_choice_between_cards_worth_the_same_is_no_decision() -> None:
    """Two cards a quarter point apart: counting that easy 100% would flatter everyone."""
    flat = play(0, 0.0, DECISION_MARGIN / 4)
    real = play(0, 5.0, 5.0)
    assert accuracy([flat, real], 0) == pytest.approx(50)
    assert decisions([flat, real], 0) == 1
    assert accuracy([flat], 0) is None


def test_calls_count_as_decisions() -> None:
    """A knock left out that gave away 10 expected points scores 25%, like a 10-point card."""
    real = play(0, 0.0, 5.0)
    knock = call(0, chosen=-5.0, best=5.0)
    assert accuracy([real], 0, [knock]) == pytest.approx((100 + 25) / 2)
    assert decisions([real], 0, [knock]) == 2
    assert decisions([real], 0, [call(1, 0.0, 10.0)]) == 1  # another seat's call
    assert decisions([], 0, [call(0, 0.0, 0.5)]) == 0  # options worth the same: no decision
