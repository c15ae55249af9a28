"""The line: a position played out to the end with best play by all (DDS's ``AnalysePlay``,
the principal variation of a chess engine): the four-player game's (:func:`best_line`) and every
other variant's (:func:`variant_line`, tricks of 2, 3 or 6 cards and the table piles' moves).

Positions in, the cards in order out, with who played them, who took each trick and its points:
no words and no judging (those are :mod:`manillen_replay.analysis.reasons`'s). Among cards of
equal value the line takes the cheapest (fewest card points, then the lowest rank, then the
suit's order), so the same position always gives the same line.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..cards import CARD_POINTS, RANKS_PER_SUIT, iter_mask
from ..errors import IllegalPlayError
from ..rules import NO_TRUMP, Rules, winning_position
from ..state import DealState
from .search import DealTables, Position, SolverError, check_position, solve_batch

if TYPE_CHECKING:  # the variant search's module loads numba: imported when a variant's line is asked for
    from .variants import VariantSearch

FOUR_SIDES = (0, 1, 0, 1)
"""The four-player game's sides by seat: seats 0 and 2 against 1 and 3."""


@dataclass(frozen=True, slots=True)
class LinePlay:
    """One card of a line."""

    seat: int
    """Who played it."""
    card: int
    """The card."""
    moved: bool = False
    """Whether the seat first moved its third pile's top card to its empty fourth place (the
    two-player games' table piles), as the engine plays such a move."""


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

    start: Position | DealState
    """The position the line starts from (a variant's: the engine's state)."""
    plays: tuple[LinePlay, ...]
    """The cards played from the start, in order (not the cards already on the table)."""
    tricks: tuple[LineTrick, ...]
    """Every trick from the current one to the last."""
    value: int
    """Card points side 0 (seats 0 and 2 in the four-player game) takes from the start on, the
    table's cards included: the start's value when the line is best play from its first card."""
    sides: tuple[int, ...] = FOUR_SIDES
    """The side (0 or 1) each seat plays for."""

    def taken(self, team: int) -> int:
        """Card points side ``team`` takes over the line."""
        return sum(trick.points for trick in self.tricks if self.sides[trick.winner] == team)

    def held(self) -> list[int]:
        """For each card of :attr:`plays`, what its seat could play from just before it (a mask):
        the hand, and in the variants with table cards the face-up ones (after its move)."""
        found = []
        if isinstance(self.start, Position):
            hands = list(self.start.hands)
            for play in self.plays:
                found.append(hands[play.seat])
                hands[play.seat] &= ~(1 << play.card)
            return found
        state = self.start
        for play in self.plays:
            if play.moved:
                state = state.move_to_empty_place(play.seat)
            found.append(state.playable(play.seat))
            state = state.apply(play.card)
        return found


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
    """Play a four-player ``position`` out to the end with best play by all four, everyone seeing every hand.

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


def variant_line(
    state: DealState,
    search: VariantSearch | None = None,
    *,
    first: int | None = None,
    moved: bool = False,
) -> Line:
    """:func:`best_line` for the variants other than ``four``: play the engine's ``state`` out to
    the end with best play by all, everyone seeing every card (hands, face-down table cards).

    At each card the seat to play takes the first choice, in the tie-break's order (the cheapest
    card, :func:`cheapest_first`; playing a card without moving a table card before moving
    one), that is worth the position's value to its side: one null-window probe of the variant
    search a choice, the position's value carried from the card before. A seat's move of its
    third pile's top card to its empty fourth place is a choice like a card, shown on the card
    that follows it (:attr:`LinePlay.moved`).

    :param state: the start, a state of a variant deal (:data:`~.variants.SOLVED_VARIANTS`).
    :param search: the deal's search (its table holds the positions solved before); without it
        the line has its own.
    :param first: the card the seat to play plays first, whatever its value (it must be legal).
    :param moved: the seat moves a table card to its empty fourth place before ``first``.
    :raises SolverError: for a variant the search does not play, or a ``first`` card (or move)
        the seat may not play.
    """
    if search is None:
        search = _search_of(state)
    shape = state.rules.shape
    sides = tuple(state.team_of(seat) for seat in range(shape.players))
    if first is not None:
        _check_first(state, first, moved)
    start = state
    plays: list[LinePlay] = []
    trick_plays = [
        LinePlay(shape.seat_of_play(state.leader, offset, state.dealer), card)
        for offset, card in enumerate(state.trick)
    ]
    tricks: list[LineTrick] = []
    value: int | None = None  # side 0's points from ``state`` on, once known
    while not state.is_over:
        seat = state.to_play
        if first is not None and not plays:
            move, card = moved, first
        else:
            if value is None:
                value = search.position_value(state)
            move, card = search.choice_worth(state, value, order=cheapest_first)
        before = state
        if move:
            state = state.move_to_empty_place(seat)
        state = state.apply(card)
        if value is not None:
            value -= state.taken[0] - before.taken[0]
        play = LinePlay(seat, card, move)
        plays.append(play)
        trick_plays.append(play)
        if state.tricks_done > before.tricks_done:
            cards = [p.card for p in trick_plays]
            points = sum(CARD_POINTS[c] for c in cards)
            number = state.tricks_done
            tricks.append(LineTrick(number, before.leader, tuple(trick_plays), state.leader, points))
            trick_plays = []
    total = sum(t.points for t in tricks if sides[t.winner] == 0)
    return Line(start, tuple(plays), tuple(tricks), total, sides)


def _check_first(state: DealState, card: int, moved: bool) -> None:
    """Refuse a first card the seat may not play (or a move it may not make)."""
    seat = state.to_play
    if moved:
        try:
            state = state.move_to_empty_place(seat)
        except IllegalPlayError as error:
            raise SolverError(f"seat {seat} cannot move a table card here: {error}") from None
    if not state.legal_mask() >> card & 1:
        raise SolverError(f"card {card} may not be played from this position")


def variant_lines(state: DealState, firsts: Sequence[int], search: VariantSearch | None = None) -> list[Line]:
    """:func:`variant_line` after each of ``firsts`` on one search (the later lines find most of
    their positions in its table)."""
    if search is None:
        search = _search_of(state)
    return [variant_line(state, search, first=card) for card in firsts]


def _search_of(state: DealState) -> VariantSearch:
    """A new variant search of ``state``'s deal."""
    from .variants import VariantSearch

    return VariantSearch(state.rules, state.dealer, state.trump)
