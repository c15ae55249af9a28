"""The line: a position played out with best play by all four (manillen_replay.solver.lines)."""

from __future__ import annotations

import random

import pytest

from manillen_replay.cards import CARD_POINTS, Card, CardSet, iter_mask
from manillen_replay.rules import Rules
from manillen_replay.solver import SolverError, solve_position
from manillen_replay.solver.lines import Line, best_line, best_lines, cheapest_first
from manillen_replay.solver.search import Position
from manillen_replay.state import DealState

from .test_solver import random_ending


def position_of(state: DealState) -> Position:
    h = state.hands
    return Position((h[0], h[1], h[2], h[3]), tuple(state.trick), state.leader)


def replay_line(state: DealState, line: Line) -> DealState:
    """Play the line through the rules engine's own state: every card must be legal."""
    for play in line.plays:
        assert play.seat == state.to_play
        assert state.legal_mask() >> play.card & 1, f"{Card(play.card)} is not legal here"
        state = state.apply(play.card)
    return state


def team_value(state: DealState, card: int) -> int:
    """Team 0's points after ``card``, from the solver's per-card values (the seat's side's)."""
    in_play = sum(CardSet(h).points for h in state.hands) + sum(CARD_POINTS[c] for c in state.trick)
    values = solve_position(state.hands, state.trick, state.leader, state.trump, state.rules)
    return values[card] if state.to_play % 2 == 0 else in_play - values[card]


@pytest.mark.parametrize("seed", range(12))
def test_a_line_is_legal_and_its_points_add_up_to_the_positions_value(seed: int) -> None:
    rng = random.Random(seed)
    state = random_ending(rng, rng.choice([3, 4, 5]))
    line = best_line(position_of(state), state.trump, state.rules, first_trick=state.tricks_done + 1)
    end = replay_line(state, line)
    assert not any(end.hands) and not end.trick
    in_play = sum(CardSet(h).points for h in state.hands) + sum(CARD_POINTS[c] for c in state.trick)
    assert sum(trick.points for trick in line.tricks) == in_play
    assert line.value == line.taken(0) == in_play - line.taken(1)
    best = max if state.to_play % 2 == 0 else min
    assert line.value == best(team_value(state, c) for c in iter_mask(state.legal_mask()))
    assert [t.number for t in line.tricks] == list(range(state.tricks_done + 1, 9))
    assert len(line.tricks[0].plays) == 4 and line.tricks[0].plays[: len(state.trick)] == tuple(
        p for p in line.tricks[0].plays if p not in line.plays
    )


@pytest.mark.parametrize("seed", range(6))
def test_a_line_after_a_given_card_is_worth_that_cards_value(seed: int) -> None:
    rng = random.Random(100 + seed)
    state = random_ending(rng, 4)
    for card in iter_mask(state.legal_mask()):
        line = best_line(position_of(state), state.trump, state.rules, first=card)
        assert line.plays[0].card == card
        replay_line(state, line)
        assert line.value == team_value(state, card)


def test_a_line_is_the_same_every_time_and_on_shared_tables() -> None:
    rng = random.Random(7)
    state = random_ending(rng, 6)
    position = position_of(state)
    legal = [int(c) for c in iter_mask(state.legal_mask())]
    alone = [best_line(position, state.trump, state.rules, first=card) for card in legal]
    assert best_lines(position, state.trump, state.rules, legal) == alone
    assert best_lines(position, state.trump, state.rules, legal) == alone


def test_among_equal_cards_the_line_takes_the_cheapest() -> None:
    """Anna leads into four clubs tricks her side takes whatever she leads: she leads the 7."""
    hands = tuple(CardSet.parse(h).mask for h in ("10C AC 7C", "8H 9H JH", "KC QC JC", "7H QH KH"))
    line = best_line(Position(hands, (), 0), 3, Rules())  # spades trump: nobody holds one
    assert line.plays[0].card == Card.C7
    assert (
        cheapest_first(Card.H7) < cheapest_first(Card.C7) < cheapest_first(Card.C8) < cheapest_first(Card.CJ)
    )


def test_a_first_card_that_may_not_be_played_is_refused() -> None:
    hands = tuple(CardSet.parse(h).mask for h in ("AC KC", "8C", "QC 7C", "JC 9C"))
    with pytest.raises(SolverError, match="may not be played"):
        best_line(
            Position((hands[0], hands[1], hands[2], hands[3]), (Card.C10,), 1), None, Rules(), first=Card.CA
        )
