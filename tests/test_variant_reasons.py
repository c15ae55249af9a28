"""The lines of the variants other than the four-player game (manillen_replay.solver.lines'
``variant_line``) and the reasons of their costly cards (manillen_replay.analysis.reasons)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from manillen_replay.cards import CARD_POINTS, Card, CardSet, iter_mask
from manillen_replay.rules import Rules
from manillen_replay.solver import SolverError
from manillen_replay.solver.lines import Line, cheapest_first, variant_line, variant_lines
from manillen_replay.solver.variants import SOLVED_VARIANTS, VariantSearch
from manillen_replay.state import DealState

from .test_solver_variants import _choices, brute_force, random_state

pytestmark = pytest.mark.solver


def replay_line(state: DealState, line: Line) -> DealState:
    """Play the line through the engine's own state: every card legal (after its move, if any)."""
    for play in line.plays:
        assert play.seat == state.to_play
        if play.moved:
            state = state.move_to_empty_place(play.seat)
        assert state.legal_mask() >> play.card & 1, f"{Card(play.card)} is not legal here"
        state = state.apply(play.card)
    return state


def in_play(state: DealState) -> int:
    """The card points still to be taken: hands, table piles and the trick on the table."""
    points = sum(CardSet(hand).points for hand in state.hands) + sum(CARD_POINTS[c] for c in state.trick)
    return points + sum(CARD_POINTS[c] for piles in state.table for pile in piles for c in pile)


def assert_line_adds_up(state: DealState, line: Line) -> DealState:
    """The line is legal, ends the deal, and its tricks and value add up as the engine counts them."""
    end = replay_line(state, line)
    assert end.is_over
    shape = state.rules.shape
    assert [t.number for t in line.tricks] == list(range(state.tricks_done + 1, shape.tricks + 1))
    assert all(len(t.plays) == shape.trick_size for t in line.tricks)
    assert sum(t.points for t in line.tricks) == in_play(state)
    assert line.value == line.taken(0) == end.taken[0] - state.taken[0]
    assert line.taken(1) == end.taken[1] - state.taken[1]
    assert line.sides == tuple(state.team_of(seat) for seat in range(shape.players))
    # each trick's winner is the engine's: the leader of the next
    for trick, following in zip(line.tricks, line.tricks[1:], strict=False):
        assert following.leader == trick.winner
        assert trick.winning_card in [p.card for p in trick.plays]
    return end


@settings(max_examples=12, deadline=None)
@given(
    variant=st.sampled_from(SOLVED_VARIANTS),
    seed=st.integers(0, 2**32),
    late=st.integers(0, 100),
)
def test_a_variant_line_is_legal_and_worth_the_positions_value(variant: str, seed: int, late: int):
    """On random deals of every variant (house rules at random, table moves at random), from a
    position in the second half of the deal: the line is legal by the engine, ends the deal with
    the points it says, and is worth the search's value of the position."""
    shape = Rules(variant=variant).shape
    cards = shape.tricks * shape.trick_size
    plays = cards // 2 + late * (cards // 2 - 1) // 100
    state, rules = random_state(variant, seed, plays, seed % 2**16)
    search = VariantSearch(rules, state.dealer, state.trump)
    line = variant_line(state, search)
    assert_line_adds_up(state, line)
    assert line.value == VariantSearch(rules, state.dealer, state.trump).position_value(state)


@pytest.mark.parametrize("variant", SOLVED_VARIANTS)
def test_a_variant_line_takes_the_cheapest_best_choice_at_every_card(variant: str):
    """On endings of each variant, every choice of the line is one of the best by a plain minimax
    over the engine's states, the cheapest of them (without a move before with one); after a given
    first card the line is worth that card's value."""
    shape = Rules(variant=variant).shape
    left = {2: 4, 3: 3, 4: 2, 6: 2}[shape.trick_size]
    for seed in range(4):
        offset = random.Random(seed).randrange(shape.trick_size)
        start, _rules = random_state(variant, seed, (shape.tricks - left) * shape.trick_size + offset, seed)
        line = variant_line(start)
        assert line.value == brute_force(start)
        state = start
        for play in line.plays:
            choices = _choices(state)
            best = (max if state.team_of(state.to_play) == 0 else min)(v for _, _, v in choices)
            cheapest = min(((cheapest_first(card), moved, card) for moved, card, v in choices if v == best))
            assert (play.moved, play.card) == (cheapest[1], cheapest[2])
            if play.moved:
                state = state.move_to_empty_place(play.seat)
            state = state.apply(play.card)
        firsts = [card for card in iter_mask(start.legal_mask())]
        values = {card: v for moved, card, v in _choices(start) if not moved}
        for card, after in zip(firsts, variant_lines(start, firsts), strict=True):
            assert after.plays[0].card == card and not after.plays[0].moved
            assert after.value == values[card]
            assert_line_adds_up(start, after)


def test_a_variant_line_refuses_a_card_the_seat_may_not_play():
    state, _rules = random_state("three", 5, 9)
    deck = Rules(variant="three").shape.deck_mask
    illegal = next(c for c in iter_mask(deck) if not state.legal_mask() >> c & 1)
    with pytest.raises(SolverError, match="may not be played"):
        variant_line(state, first=illegal)
    if not state.table:
        with pytest.raises(SolverError, match="cannot move a table card"):
            variant_line(state, first=next(iter_mask(state.legal_mask())), moved=True)
