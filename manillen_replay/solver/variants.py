"""The values of every card in the variants other than the four-player game: a perfect-information search.

The compiled kernel (:mod:`._kernel`) has the four seats of the main game built in. Every other
variant whose deal the record gives in full (``two_open``, ``two_open_fours``, ``three``,
``three_dummy``, ``six``, ``six_short``) is solved here instead, by one generic search, compiled
in :mod:`._variant_kernel`: null-window alpha-beta over the engine's own seat order
(:meth:`~manillen_replay.rules.Variant.seat_of_play`), sides
(:meth:`~manillen_replay.rules.Variant.team_of`) and legal-play function
(:func:`manillen_replay.rules.legal_core`), with a transposition table at trick starts keyed on
the cards still in play, the face-up table cards and the leader. The plays of a deal are solved
from the last back to the first, so a later play's positions are in the table when an earlier
play's search reaches them; each play's choices are valued card by card from the card played
(:func:`_card_by_card`), on two threads when the position is big.

The open table cards count as the engine counts them: a seat may play its hand and its
face-up table cards, the card under a played one turns up, and a seat whose fourth pile is
empty may first move its third pile's top card there (a choice the search tries both ways).

Values are card points a side takes from a position on, the current trick included; the
laid-aside cards (``three``, ``six_short``) are out of play. docs/solver.md says what each
variant gets and how long a deal takes (``make bench``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from ..cards import CARD_POINTS, RANKS_PER_SUIT, Card, iter_mask
from ..engine.results import DealKind, DealResult
from ..rules import NO_TRUMP, Contract, Rules, mask_points, underbuy_code, winning_position
from ..state import DealState
from . import _variant_kernel
from .search import SolverError, default_workers

T = TypeVar("T")
R = TypeVar("R")

SOLVED_VARIANTS = ("two_open", "two_open_fours", "three", "three_dummy", "six", "six_short")
"""The variants this search takes: every one but ``four``, whose deal a record gives in full."""


@dataclass(frozen=True, slots=True)
class VariantMoment:
    """One play of a variant deal: the engine's state before it and what was played."""

    index: int
    """The play's index in the deal, from 0."""
    trick: int
    """The trick, counted from 1."""
    play: int
    """The position in the trick, counted from 1."""
    seat: int
    """Who played."""
    card: int
    """The card played."""
    moved: bool
    """Whether the seat moved its third pile's top card to its empty fourth place first."""
    state: DealState
    """The deal before the play (and before that move)."""
    legal: int
    """The cards the seat could legally play, as the engine's replay found them (after the move)."""

    @property
    def is_legal(self) -> bool:
        """Whether the card played was legal."""
        return bool(self.legal >> self.card & 1)


def iter_variant_moments(deal: DealResult, rules: Rules) -> Iterator[VariantMoment]:
    """Every play of a replayed variant deal with the engine's state before it.

    :param deal: a replayed deal with its hands (and table piles) known.
    :param rules: the match's rules.
    """
    assert deal.hands is not None
    trump = None if deal.trump is None else int(deal.trump)
    state = DealState.start(rules, deal.dealer, trump, deal.hands, deal.table, deal.taken_before_play(rules))
    moves = set(deal.table_moves)
    index = 0
    for trick in deal.tricks:
        for offset, (seat, card) in enumerate(zip(trick.seats, trick.cards, strict=True)):
            moved = (trick.number, offset + 1, seat) in moves
            yield VariantMoment(
                index, trick.number, offset + 1, seat, int(card), moved, state, trick.legal[offset]
            )
            if moved:
                state = state.move_to_empty_place(seat)
            state = state.apply(int(card))
            index += 1


class VariantSearch:
    """The perfect-information search of one variant deal: one trump, one set of rules, one table.

    :meth:`values` answers for the seat to play in a :class:`~manillen_replay.state.DealState`;
    the transposition table is kept between calls, so every state should come from the same deal.
    The search itself is compiled (:mod:`._variant_kernel`).
    """

    def __init__(self, rules: Rules, dealer: int, trump: int | None) -> None:
        """:param rules: the variant and the house rules.
        :param dealer: the deal's dealer (the sides and, in ``three_dummy``, the seat order depend on it).
        :param trump: the trump suit, ``None`` for muil.
        :raises SolverError: for the four-player game (the compiled solver's) or an unknown variant.
        """
        if rules.variant not in SOLVED_VARIANTS:
            raise SolverError(f"the variant search does not play {rules.variant!r}")
        shape = rules.shape
        kernel = _variant_kernel
        self.rules = rules
        self.trump = trump
        self._players = shape.players
        self._template = kernel.new_position()
        template = self._template
        for leader in range(shape.players):
            for position in range(shape.trick_size):
                template[kernel.SEAT_AT + leader * kernel.MAX_TRICK + position] = shape.seat_of_play(
                    leader, position, dealer
                )
        for seat in range(shape.players):
            template[kernel.SIDE + seat] = shape.team_of(seat, dealer)
        template[kernel.TRUMP] = NO_TRUMP if trump is None else trump
        template[kernel.EXEMPT] = rules.partner_exempt
        template[kernel.UNDERBUY] = underbuy_code(rules)
        template[kernel.OVERTAKE_PLAIN] = rules.overtake_plain_suit
        template[kernel.TRICK_SIZE] = shape.trick_size
        template[kernel.SEATS] = shape.players
        self._pos = template.copy()
        self._table, template[kernel.GENERATION] = _table_and_generation()
        self._work = kernel.new_work()
        self._second_work = kernel.new_work()
        self._nodes = 0

    @property
    def nodes(self) -> int:
        """Positions visited so far (the work done, whatever the machine's speed)."""
        return self._nodes + int(self._pos[_variant_kernel.NODES])

    def side_of(self, seat: int) -> int:
        """The side (0 or 1) a seat plays for."""
        return int(self._template[_variant_kernel.SIDE + seat])

    def _load(self, state: DealState) -> np.ndarray:
        kernel = _variant_kernel
        self._nodes += int(self._pos[kernel.NODES])
        pos = self._pos
        pos[:] = self._template
        tops = 0
        remaining = 0
        for seat, hand in enumerate(state.hands):
            pos[kernel.HANDS + seat] = hand
            remaining |= hand
        for seat, piles in enumerate(state.table):
            for number, pile in enumerate(piles):
                pos[kernel.HEIGHTS + seat * 4 + number] = len(pile)
                for place, card in enumerate(pile):
                    pos[kernel.PILES + seat * 8 + number * 2 + place] = card
                    pos[kernel.OWN + seat] |= 1 << card
                    remaining |= 1 << card
                if pile:
                    tops |= 1 << pile[-1]
        pos[kernel.TOPS] = tops
        pos[kernel.REMAINING] = remaining
        pos[kernel.POINTS] = mask_points(remaining)
        pos[kernel.LEADER] = state.leader
        pos[kernel.SIZE] = len(state.trick)
        pos[kernel.TRICK : kernel.TRICK + len(state.trick)] = state.trick
        if state.trick:
            pos[kernel.WIN] = winning_position(state.trick, state.trump)
            pos[kernel.TRICK_POINTS] = sum(CARD_POINTS[card] for card in state.trick)
        return pos

    def legal(self, state: DealState) -> int:
        """The cards the seat to play may play in ``state``, as the search plays them (a mask)."""
        pos = self._load(state)
        return int(_variant_kernel.legal_cards(pos, state.to_play, False)[0])

    def values(
        self, state: DealState, known: tuple[tuple[bool, int], int] | None = None
    ) -> dict[tuple[bool, int], int]:
        """Side 0's card points from ``state`` on after each choice of the seat to play.

        :param state: a position of this search's deal (the engine's state).
        :param known: a choice whose value is known already (the card played, when the position
            after it was solved first), and that value: it bounds the position's value.
        :returns: for each choice ``(moved, card)`` (``moved``: the seat first moves its third
            pile's top card to its empty fourth place) the points side 0 takes, the current trick
            included, with best play by both sides.
        """
        pos = self._load(state)
        kernel = _variant_kernel
        seat = state.to_play
        maximising = self.side_of(seat) == 0
        out: dict[tuple[bool, int], int] = {}
        best: int | None = None
        if known is not None:
            out[known[0]] = best = known[1]
        pending = [int(c) for c in kernel.options(pos, seat) if _key(int(c)) not in out]
        if len(pending) >= PARALLEL_CHOICES and int(pos[kernel.REMAINING]).bit_count() >= PARALLEL_CARDS:
            # two threads, each its own copy of the position, one table: the values are exact
            # whichever thread found an entry first
            second = pos.copy()
            second[kernel.NODES] = 0
            theirs = _helper().submit(
                _card_by_card, second, self._table, self._second_work, pending[1::2], best, maximising
            )
            try:
                found = _card_by_card(pos, self._table, self._work, pending[0::2], best, maximising)
            finally:
                found.update(theirs.result())
                self._nodes += int(second[kernel.NODES])
        else:
            found = _card_by_card(pos, self._table, self._work, pending, best, maximising)
        out.update((_key(choice), points) for choice, points in found.items())
        # the zero-point twins left out of the search are worth what their higher twin is
        live = int(pos[kernel.REMAINING]) | sum(1 << c for c in state.trick)
        for moved in (False, True):
            if moved and not kernel.movable(pos, seat):
                continue
            legal, kept = (int(mask) for mask in kernel.legal_cards(pos, seat, moved))
            for card in sorted((int(c) for c in iter_mask(legal & ~kept)), reverse=True):
                twin = live & ~((2 << card) - 1) & SUIT_OF_BIT_MASK[card]
                out[(moved, card)] = out[(moved, (twin & -twin).bit_length() - 1)]
        return out

    def choice_values(
        self, state: DealState, choices: Sequence[tuple[bool, int]]
    ) -> dict[tuple[bool, int], int]:
        """Side 0's card points from ``state`` on after each of some of the seat's legal choices
        ``(moved, card)``: :meth:`values` of those alone (each searched in a window around the
        best so far), for a caller that needs two cards' values, not every card's."""
        pos = self._load(state)
        maximising = self.side_of(state.to_play) == 0
        wanted = [card + (_variant_kernel.MOVED if moved else 0) for moved, card in choices]
        found = _card_by_card(pos, self._table, self._work, wanted, None, maximising)
        return {_key(choice): value for choice, value in found.items()}

    def position_value(self, state: DealState, *, low: int = 0, high: int | None = None) -> int:
        """Side 0's card points from ``state`` on with best play by both sides (the position's
        value alone, not each choice's: what a call review needs of a deal's start).

        :param low: a lower bound of the value already known (a :meth:`position_test`'s).
        :param high: an upper bound already known (default: every point in play). With one bound
            known the search starts its probes there, where such a value mostly lies.
        """
        pos = self._load(state)
        in_play = int(pos[_variant_kernel.POINTS] + pos[_variant_kernel.TRICK_POINTS])
        high = in_play if high is None else min(high, in_play)
        guess = (low + high) >> 1 if (low == 0) == (high == in_play) else (low if low > 0 else high)
        return _search(pos, self._table, self._work, low, high, guess, _variant_kernel.NO_CHOICE)

    def position_test(self, state: DealState, gamma: int) -> int:
        """Whether side 0 takes at least ``gamma`` card points from ``state`` on, best play by
        both sides, by one null-window search: a result below ``gamma`` is an upper bound of the
        position's value, one of ``gamma`` or more a lower bound. Far cheaper than
        :meth:`position_value` when the value lies far from ``gamma``; a later
        :meth:`position_value` of the same state on this search starts from the table it left.
        """
        pos = self._load(state)
        return int(
            _variant_kernel.value(pos, self._table, self._work, gamma - 1, gamma, _variant_kernel.NO_CHOICE)
        )

    def choice_worth(
        self, state: DealState, value: int, *, order: Callable[[int], tuple[int, ...]]
    ) -> tuple[bool, int]:
        """The first choice ``(moved, card)`` of the seat to play worth ``value`` (side 0's points
        from ``state`` on, the position's value) to its side: cards in ``order``, each without a
        move before with one. One null-window probe a choice, not its exact value: what a line
        (:func:`~.lines.variant_line`) needs at each card.

        :raises SolverError: when no choice is worth ``value`` (it was not the position's value).
        """
        pos = self._load(state)
        kernel = _variant_kernel
        seat = state.to_play
        choices = []
        for moved in (False, True):
            if moved and not kernel.movable(pos, seat):
                continue
            legal = int(kernel.legal_cards(pos, seat, moved)[0])
            choices += [(order(card), moved, card) for card in iter_mask(legal)]
        choices.sort()
        if len(choices) == 1:
            return choices[0][1], choices[0][2]
        maximising = self.side_of(seat) == 0
        for _order, moved, card in choices:
            choice = card + (kernel.MOVED if moved else 0)
            if maximising:
                worth = kernel.value(pos, self._table, self._work, value - 1, value, choice) >= value
            else:
                worth = kernel.value(pos, self._table, self._work, value, value + 1, choice) <= value
            if worth:
                return moved, card
        raise SolverError(f"no choice of seat {seat} is worth {value}: not the position's value")

    def value_after(self, state: DealState, card: int, *, moved: bool = False) -> int:
        """Side 0's card points from ``state`` on when the seat to play plays ``card`` (legal or not).

        :param moved: the seat first moves its third pile's top card to its empty fourth place.
        :raises SolverError: when the seat cannot play the card at all.
        """
        pos = self._load(state)
        choice = card + (_variant_kernel.MOVED if moved else 0)
        if _variant_kernel.value(pos, self._table, self._work, 0, 1, choice) < 0:
            raise SolverError(f"seat {state.to_play} cannot play {Card(card)}: not in its hand or face up")
        in_play = int(pos[_variant_kernel.POINTS] + pos[_variant_kernel.TRICK_POINTS])
        return _search(pos, self._table, self._work, 0, in_play, in_play >> 1, choice)


PARALLEL_CHOICES = 4
"""A position's choices are shared by two threads when it has at least this many to value..."""
PARALLEL_CARDS = 20
"""...and at least this many cards in play (below, a thread's start costs more than it saves)."""
_HELPER: ThreadPoolExecutor | None = None
_TABLE: np.ndarray | None = None
_GENERATION = 0
_TABLE_LOCK = threading.Lock()


def _table_and_generation() -> tuple[np.ndarray, int]:
    """The process's one transposition table (made on first use, 64 MB: allocated once, not per
    deal) and a new generation for a search to mark its entries with."""
    global _TABLE, _GENERATION
    with _TABLE_LOCK:
        if _TABLE is None:
            _TABLE = _variant_kernel.new_table()
        _GENERATION += 1
        if _GENERATION == _variant_kernel.GENERATIONS:
            _TABLE[:] = 0  # the oldest entries would look like new ones again
            _GENERATION = 1
        return _TABLE, _GENERATION


def _helper() -> ThreadPoolExecutor:
    """The one thread that values half a big position's choices (the caller's thread the rest)."""
    global _HELPER
    if _HELPER is None:
        _HELPER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="variant-search")
    return _HELPER


_LAYOUTS: ThreadPoolExecutor | None = None
_LAYOUTS_LOCK = threading.Lock()


def map_searches(solve: Callable[[T], R], items: Sequence[T]) -> list[R]:
    """``solve`` of each item, in order, on one thread per core: for many small searches (the
    layouts of a view cost or of a call review, each a :class:`VariantSearch` of its own), which
    a position too small for :data:`PARALLEL_CARDS` would leave on one core. The searches share
    the process's table, each under its own generation, so the values do not depend on the threads."""
    global _LAYOUTS
    if len(items) < 2:
        return [solve(item) for item in items]
    with _LAYOUTS_LOCK:
        if _LAYOUTS is None:
            _LAYOUTS = ThreadPoolExecutor(max_workers=default_workers(), thread_name_prefix="variant-layouts")
    return list(_LAYOUTS.map(solve, items))


def _key(choice: int) -> tuple[bool, int]:
    """A kernel's choice as ``(moved, card)``."""
    return choice >= _variant_kernel.MOVED, choice % _variant_kernel.MOVED


def _card_by_card(
    pos: np.ndarray,
    table: np.ndarray,
    work: np.ndarray,
    choices: list[int],
    best: int | None,
    maximising: bool,
) -> dict[int, int]:
    """The exact value of each choice, side 0's points, in ``pos``.

    Card by card from the card played (``best``, its value, when known): whether a choice beats
    the best so far is one probe, and its exact value a search from that probe's fail-soft
    bound. The position's own value is the best of its choices, so it is not searched first (a
    search that repeats most of the choices' work: measured, 3 to 6 % more positions on two_open
    deals). One window below the best instead of the two probes searched a quarter more.
    """
    in_play = int(pos[_variant_kernel.POINTS] + pos[_variant_kernel.TRICK_POINTS])
    out: dict[int, int] = {}
    for choice in choices:
        if best is None:
            found = _search(pos, table, work, 0, in_play, in_play >> 1, choice)
        elif maximising:
            bound = int(_variant_kernel.value(pos, table, work, best, best + 1, choice))
            low, high = (bound, in_play) if bound > best else (0, bound)
            found = _search(pos, table, work, low, high, bound, choice)
        else:
            bound = int(_variant_kernel.value(pos, table, work, best - 1, best, choice))
            low, high = (0, bound) if bound < best else (bound, in_play)
            found = _search(pos, table, work, low, high, bound, choice)
        out[choice] = found
        best = found if best is None else (max(best, found) if maximising else min(best, found))
    return out


def _search(
    pos: np.ndarray, table: np.ndarray, work: np.ndarray, low: int, high: int, guess: int, only: int
) -> int:
    """The exact value of ``pos`` after the choice ``only``, known to lie in ``low..high``, by
    null-window probes from ``guess`` (MTD(f)): each probe's fail-soft bound is the next guess.
    Measured on two_open deals: fewer positions than bisection, since a choice's value is mostly
    near its first bound, and a probe far from the value costs the most."""
    guess = min(max(guess, low), high)
    while low < high:
        gamma = guess + 1 if guess == low else guess  # "does side 0 take at least gamma?"
        bound = int(_variant_kernel.value(pos, table, work, gamma - 1, gamma, only))
        if bound >= gamma:
            low = guess = min(bound, high)
        else:
            high = guess = max(bound, low)
    return low


def _ours(value: int, side: int, in_play: int) -> int:
    """Side 0's points as the points of ``side``."""
    return value if side == 0 else in_play - value


ZERO_POINT_CARDS = sum(1 << card for card in range(36) if CARD_POINTS[card] == 0)
"""The 6s, 7s, 8s and 9s."""
SUIT_OF_BIT_MASK = [((1 << RANKS_PER_SUIT) - 1) << (card - card % RANKS_PER_SUIT) for card in range(36)]
"""For each card, the mask of its suit."""


def can_solve_variant(deal: DealResult, rules: Rules) -> bool:
    """Whether the variant search can cost this deal: a variant it plays, the deal known in full,
    the contract known and cards played."""
    return (
        rules.variant in SOLVED_VARIANTS
        and deal.kind in (DealKind.PLAYED, DealKind.ABANDONED)
        and deal.hands is not None
        and bool(deal.tricks)
        and (deal.trump is not None or deal.contract in (Contract.MUIL, Contract.BLIND_MUIL))
    )


@dataclass(frozen=True, slots=True)
class PlayValues:
    """What every legal card of one play of a variant deal was worth, all hands known."""

    moment: VariantMoment
    """The play."""
    values: dict[Card, int]
    """Each legal card's card points for the player's side (a table card's best over moving first)."""
    played: int
    """The same for the card played, as played (an illegal card's too)."""


def variant_values(result: DealResult, rules: Rules, positions: list[int] | None = None) -> list[PlayValues]:
    """The value of every legal card at every play of a variant deal, all hands known.

    A card's value is the best over the seat's choice to move a table card first (when it
    could); the card played is valued as played, move or not, so a needless move shows as a cost.

    :param result: a replayed deal of a variant (:data:`SOLVED_VARIANTS`) with its cards known.
    :param rules: the match's rules.
    :param positions: when given, gets the number of positions the search visited (the work
        done, whatever the machine's load: for ``bench/variants_bench.py``).
    :raises SolverError: for a deal the search cannot take (see :func:`can_solve_variant`).
    """
    if not can_solve_variant(result, rules):
        raise SolverError(
            f"deal {result.number}: nothing to solve (needs a variant the search plays, the hands, "
            "the trump or muil, and played cards)"
        )
    trump = None if result.trump is None else int(result.trump)
    search = VariantSearch(rules, result.dealer, trump)
    moments = list(iter_variant_moments(result, rules))
    deck_points = mask_points(rules.shape.deck_mask)
    plays: list[PlayValues] = []
    # from the last play back: the table then holds the later positions an earlier search meets,
    # and the value of the card played is the value of the position after it, solved just before
    after: int | None = None
    for number in range(len(moments) - 1, -1, -1):
        moment = moments[number]
        state = moment.state
        known = None
        if after is not None and moment.is_legal:
            following = moments[number + 1].state
            known = ((moment.moved, moment.card), after + following.taken[0] - state.taken[0])
        in_play = deck_points - sum(state.taken)  # the laid-aside cards count as taken
        side = search.side_of(moment.seat)

        choices = search.values(state, known)
        to_play = max if side == 0 else min
        after = to_play(choices.values())
        values: dict[Card, int] = {}
        for (_moved, card), value in choices.items():
            values[Card(card)] = max(values.get(Card(card), -1), _ours(value, side, in_play))
        played = choices.get((moment.moved, moment.card))
        if played is None:  # an illegal card: valued all the same, against the legal ones
            played = search.value_after(state, moment.card, moved=moment.moved)
        plays.append(PlayValues(moment, values, _ours(played, side, in_play)))
    if positions is not None:
        positions.append(search.nodes)
    return plays[::-1]
