"""Perft: the number of legal play sequences from fixed deals, as a regression check.

Each figure is counted twice, by the engine and by the literal reading of the rules in
test_properties, and pinned so that any change to the legal-play rules shows up here.
"""

from __future__ import annotations

import random

import pytest

from manillen_replay.cards import Card, iter_mask
from manillen_replay.rules import Rules
from manillen_replay.state import DealState

from .factories import deal_hands
from .test_properties import naive_legal


def perft(state: DealState, depth: int, oracle: bool = False) -> int:
    if depth == 0 or state.is_over:
        return 1
    moves = oracle_moves(state) if oracle else list(iter_mask(state.legal_mask()))
    return sum(perft(state.apply(card), depth - 1, oracle) for card in moves)


def start(seed: int, trump: int | None, rules: Rules) -> DealState:
    return DealState.start(rules, 0, trump, deal_hands(random.Random(seed)))


# (seed, trump, rules, depth, nodes)
PINNED = [
    (1, 0, Rules(), 4, 37),
    (1, None, Rules(), 4, 37),
    (2, 3, Rules(partner_exempt=False), 4, 47),
    (3, 1, Rules(underbuy="allowed"), 4, 143),
    (4, 2, Rules(), 8, 3488),
]


@pytest.mark.parametrize(("seed", "trump", "rules", "depth", "expected"), PINNED)
def test_perft(seed, trump, rules, depth, expected):
    state = start(seed, trump, rules)
    nodes = perft(state, depth)
    assert nodes == perft(state, depth, oracle=True)
    assert nodes == expected


def oracle_moves(state: DealState) -> list[Card]:
    """The legal cards by the literal reading of the rules (test_properties), in card order."""
    hand = [Card(c) for c in iter_mask(state.hands[state.to_play])]
    trick = [Card(c) for c in state.trick]
    return sorted(naive_legal(hand, trick, state.trump, state.partner_winning(), state.rules))


def test_legal_counts_along_a_fixed_line():
    """At each of the 32 steps of a fixed line of play, the number of legal cards; at every step the
    engine's legal cards are the oracle's, so a pinned count cannot be re-pinned from a wrong engine."""
    state = start(7, 1, Rules())
    rng = random.Random(7)
    counts = []
    while not state.is_over:
        moves = list(iter_mask(state.legal_mask()))
        assert moves == oracle_moves(state), f"step {len(counts) + 1}"
        counts.append(len(moves))
        state = state.apply(rng.choice(moves))
    assert counts == [
        8,
        2,
        2,
        1,
        7,
        1,
        2,
        3,
        6,
        2,
        1,
        4,
        5,
        1,
        1,
        1,
        4,
        1,
        1,
        2,
        3,
        3,
        3,
        1,
        2,
        2,
        1,
        2,
        1,
        1,
        1,
        1,
    ]
