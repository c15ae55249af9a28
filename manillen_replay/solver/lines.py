"""The line: a position played out to the end with best play by all four (DDS's ``AnalysePlay``,
the principal variation of a chess engine).

Positions in, the cards in order out, with who played them, who took each trick and its points:
no words and no judging (those are :mod:`manillen_replay.analysis.reasons`'s). Among cards of
equal value the line takes the cheapest (fewest card points, then the lowest rank, then the
suit's order), so the same position always gives the same line.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass

from ..cards import CARD_POINTS, RANKS_PER_SUIT, iter_mask
from ..rules import NO_TRUMP, Rules, winning_position
from .search import DealTables, Position, SolverError, check_position, solve_batch


@dataclass(frozen=True, slots=True)
class LinePlay:
    """One card of a line."""

    seat: int
    """Who played it."""
    card: int
    """The card."""


@dataclass(frozen=True, slots=True)
class LineTrick:
    """One trick of a line: the cards on the table when the line starts are its first trick's."""

    number: int
    """The trick's number in the deal, counted from 1 (``first_trick`` given to :func:`best_line`)."""
    leader: int
    """The seat that led it."""
    plays: tuple[LinePlay, ...]
    """Its cards, the leader's first (those already on the table at the start included)."""
    winner: int
    """The seat that took it."""
    points: int
    """Its card points."""

    @property
    def winning_card(self) -> int:
        """The card that took the trick."""
        return next(play.card for play in self.plays if play.seat == self.winner)


@dataclass(frozen=True, slots=True)
class Line:
    """A position played out to the end of the deal."""

    start: Position
    """The position the line starts from."""
    plays: tuple[LinePlay, ...]
    """The cards played from the start, in order (not the cards already on the table)."""
    tricks: tuple[LineTrick, ...]
    """Every trick from the current one to the last."""
    value: int
    """Card points team 0 (seats 0 and 2) takes from the start on, the table's cards included:
    the start's value when the line is best play from its first card."""

    def taken(self, team: int) -> int:
        """Card points ``team`` takes over the line."""
        return sum(trick.points for trick in self.tricks if trick.winner % 2 == team)


def cheapest_first(card: int) -> tuple[int, int, int]:
    """The line's tie-break among cards of equal value: fewest points, lowest rank, suit order.

    >>> from manillen_replay.cards import Card
    >>> sorted([Card.DA, Card.H7, Card.C7], key=cheapest_first) == [Card.H7, Card.C7, Card.DA]
    True
    """
    return (CARD_POINTS[card], card % RANKS_PER_SUIT, card // RANKS_PER_SUIT)


def best_line(
    position: Position,
    trump: int | None,
    rules: Rules,
    *,
    first: int | None = None,
    first_trick: int = 1,
    tables: DealTables | None = None,
) -> Line:
    """Play ``position`` out to the end with best play by all four, everyone seeing every hand.

    At each card the seat to play takes a card of the best value for its side (the search's
    value of every legal card); among equal ones the cheapest (:func:`cheapest_first`).

    :param position: the start (checked by :func:`~.search.check_position`).
    :param trump: the trump suit, ``None`` (or ``NO_TRUMP``) for muil.
    :param rules: the house rules.
    :param first: the card the seat to play plays first, whatever its value (it must be legal):
        the line "after this card".
    :param first_trick: the number of the current trick in the deal, for :attr:`LineTrick.number`.
    :param tables: the deal's tables to solve on (one thread); without them the line has its own.
    :raises SolverError: for a position the solver cannot take or a ``first`` card it may not play.
    """
    if trump == NO_TRUMP:
        trump = None
    check_position(position, rules)
    if first is not None and not position.legal_mask(trump, rules) >> first & 1:
        raise SolverError(f"card {first} may not be played from this position")
    hands = list(position.hands)
    trick = list(position.trick)
    leader = position.leader
    plays: list[LinePlay] = []
    trick_plays = [LinePlay((leader + offset) % 4, card) for offset, card in enumerate(trick)]
    tricks: list[LineTrick] = []
    number = first_trick
    with ExitStack() as stack:
        if tables is None:
            tables = stack.enter_context(DealTables(1))
        while hands[(leader + len(trick)) % 4]:
            here = Position((hands[0], hands[1], hands[2], hands[3]), tuple(trick), leader)
            seat = here.to_play
            legal = [int(c) for c in iter_mask(here.legal_mask(trump, rules))]
            if first is not None and not plays:
                card = first
            elif len(legal) == 1:
                card = legal[0]
            else:
                _values, cards = solve_batch([here], trump, rules, tables=tables)
                row = cards[0]
                # team 0's points: seats 0 and 2 take the most, seats 1 and 3 the least
                sign = 1 if seat % 2 == 0 else -1
                card = min(legal, key=lambda c: (-sign * int(row[c]), cheapest_first(c)))
            hands[seat] &= ~(1 << card)
            trick.append(card)
            play = LinePlay(seat, card)
            plays.append(play)
            trick_plays.append(play)
            if len(trick) == 4:
                winner = (leader + winning_position(trick, trump)) % 4
                points = sum(CARD_POINTS[c] for c in trick)
                tricks.append(LineTrick(number, leader, tuple(trick_plays), winner, points))
                number += 1
                leader, trick, trick_plays = winner, [], []
    value = sum(t.points for t in tricks if t.winner % 2 == 0)
    return Line(position, tuple(plays), tuple(tricks), value)


def best_lines(
    position: Position,
    trump: int | None,
    rules: Rules,
    firsts: Sequence[int],
    *,
    first_trick: int = 1,
    tables: DealTables | None = None,
) -> list[Line]:
    """:func:`best_line` after each of ``firsts``, on one set of tables (the lines share most
    positions' neighbours, so the later ones are quicker).

    :param tables: the deal's tables (one thread); without them the lines get their own.
    """
    with ExitStack() as stack:
        if tables is None:
            tables = stack.enter_context(DealTables(1))
        return [
            best_line(position, trump, rules, first=card, first_trick=first_trick, tables=tables)
            for card in firsts
        ]
