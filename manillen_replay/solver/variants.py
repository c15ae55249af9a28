"""Hindsight costs in the variants other than the four-player game: a perfect-information search.

The compiled kernel (:mod:`._kernel`) has the four seats of the main game built in. Every other
variant whose deal the record gives in full (``two_open``, ``two_open_fours``, ``three``,
``three_dummy``, ``six``, ``six_short``) is solved here instead, by one generic search in plain
Python: alpha-beta over the engine's own seat order (:meth:`~manillen_replay.rules.Variant.
seat_of_play`), sides (:meth:`~manillen_replay.rules.Variant.team_of`) and legal-play function
(:func:`manillen_replay.rules.legal_core`), with a transposition table at trick starts keyed on
the cards still in play, the face-up table cards and the leader. One table serves every play
of a deal, solved from the last play back to the first, so a later play's positions are known
when an earlier play's search reaches them.

The open table cards count as the engine counts them: a seat may play its hand and its
face-up table cards, the card under a played one turns up, and a seat whose fourth pile is
empty may first move its third pile's top card there (a choice the search tries both ways).

Values are card points a side takes from a position on, the current trick included; the
laid-aside cards (``three``, ``six_short``) are out of play. docs/solver.md says what each
variant gets and how long a deal takes (``make bench``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ..cards import CARD_POINTS, RANKS_PER_SUIT, Card
from ..engine.results import DealKind, DealResult
from ..rules import NO_TRUMP, Contract, Rules, legal_core, winning_position
from ..state import DealState
from .costs import CardValue, PlayCost
from .search import SolverError

SOLVED_VARIANTS = ("two_open", "two_open_fours", "three", "three_dummy", "six", "six_short")
"""The variants this search takes: every one but ``four``, whose deal a record gives in full."""

_NO_PILE = -1
_BIG = 1 << 20


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
    shape = rules.shape
    taken = [0, 0]
    if deal.discards:
        chooser = deal.dealer if deal.chooser is None else deal.chooser
        taken[1 - shape.team_of(chooser, deal.dealer)] = _points(deal.discards)
    state = DealState.start(rules, deal.dealer, trump, deal.hands, deal.table, (taken[0], taken[1]))
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


def _points(mask: int) -> int:
    total = 0
    while mask:
        low = mask & -mask
        total += CARD_POINTS[low.bit_length() - 1]
        mask ^= low
    return total


class VariantSearch:
    """The perfect-information search of one variant deal: one trump, one set of rules, one table.

    :meth:`values` answers for the seat to play in a :class:`~manillen_replay.state.DealState`;
    the transposition table is kept between calls, so every state should come from the same deal.
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
        self.rules = rules
        self.trump = trump
        self._trump_code = NO_TRUMP if trump is None else trump
        self._exempt = rules.partner_exempt
        self._forbidden = rules.underbuy == "forbidden"
        self._overtake_plain = rules.overtake_plain_suit
        self._size = shape.trick_size
        self._seat_at = [
            [shape.seat_of_play(leader, position, dealer) for position in range(shape.trick_size)]
            for leader in range(shape.players)
        ]
        self._side = [shape.team_of(seat, dealer) for seat in range(shape.players)]
        self._table: dict[tuple[int, int, int], tuple[int, int, tuple[bool, int] | None]] = {}
        self.nodes = 0
        """Positions visited so far (the work done, whatever the machine's speed)."""
        # the position being searched, changed in place and restored on the way back
        self._hands: list[int] = []
        self._piles: list[list[list[int]]] = []
        self._own_table: list[int] = []
        self._tops = 0
        self._remaining = 0
        self._remaining_points = 0
        self._trick: list[int] = []
        self._leader = 0

    def side_of(self, seat: int) -> int:
        """The side (0 or 1) a seat plays for."""
        return self._side[seat]

    def _load(self, state: DealState) -> None:
        self._hands = list(state.hands)
        self._piles = [[list(pile) for pile in piles] for piles in state.table] or [[] for _ in state.hands]
        self._own_table = [0] * len(self._hands)
        self._tops = 0
        remaining = 0
        for seat, piles in enumerate(self._piles):
            remaining |= self._hands[seat]
            for pile in piles:
                for card in pile:
                    self._own_table[seat] |= 1 << card
                    remaining |= 1 << card
                if pile:
                    self._tops |= 1 << pile[-1]
        self._remaining = remaining
        self._remaining_points = _points(remaining)
        self._trick = list(state.trick)
        self._leader = state.leader

    def _playable(self, seat: int) -> int:
        return self._hands[seat] | (self._tops & self._own_table[seat])

    def _legal(self, seat: int) -> int:
        playable = self._playable(seat)
        trick = self._trick
        if not trick:
            return playable
        position = winning_position(trick, self.trump)
        winner = self._seat_at[self._leader][position]
        return legal_core(
            trick[0] // RANKS_PER_SUIT,
            trick[position],
            playable,
            self._trump_code,
            self._side[winner] == self._side[seat],
            self._exempt,
            self._forbidden,
            self._overtake_plain,
        )[0]

    def _can_move(self, seat: int) -> bool:
        piles = self._piles[seat]
        return bool(piles) and not piles[3] and len(piles[2]) >= 2

    def _move(self, seat: int) -> None:
        piles = self._piles[seat]
        piles[3].append(piles[2].pop())
        self._tops |= 1 << piles[2][-1]

    def _unmove(self, seat: int) -> None:
        piles = self._piles[seat]
        self._tops ^= 1 << piles[2][-1]
        piles[2].append(piles[3].pop())

    def _take(self, seat: int, card: int) -> int:
        """Take ``card`` from the seat's hand or table; the pile it came from, or -1."""
        bit = 1 << card
        self._remaining ^= bit
        self._remaining_points -= CARD_POINTS[card]
        if self._hands[seat] & bit:
            self._hands[seat] ^= bit
            return _NO_PILE
        for number, pile in enumerate(self._piles[seat]):
            if pile and pile[-1] == card:
                pile.pop()
                self._tops ^= bit
                if pile:
                    self._tops |= 1 << pile[-1]
                return number
        raise SolverError(f"seat {seat} cannot play {Card(card)}: not in its hand or face up on its table")

    def _give_back(self, seat: int, card: int, pile_number: int) -> None:
        bit = 1 << card
        self._remaining |= bit
        self._remaining_points += CARD_POINTS[card]
        if pile_number == _NO_PILE:
            self._hands[seat] |= bit
            return
        pile = self._piles[seat][pile_number]
        if pile:
            self._tops ^= 1 << pile[-1]
        pile.append(card)
        self._tops |= bit

    def _options(self, seat: int, first: tuple[bool, int] | None = None) -> list[tuple[bool, int]]:
        """The seat's choices, the likely best first: each legal card, and each after the move.

        Of touching zero-point cards in the hand (a 9 and an 8 with no card between still in
        play) only the higher is tried: they win and lose the same tricks and legal plays.
        """
        options = [(False, card) for card in self._ordered(self._legal(seat), seat)]
        if self._can_move(seat):
            self._move(seat)
            options += [(True, card) for card in self._ordered(self._legal(seat), seat)]
            self._unmove(seat)
        if first is not None and first in options:
            options.remove(first)
            options.insert(0, first)
        return options

    def _distinct(self, legal: int, seat: int) -> int:
        """``legal`` without the zero-point hand cards that touch a higher one of the same hand."""
        hand = self._hands[seat]
        live = self._remaining
        for card in self._trick:
            live |= 1 << card
        small = legal & hand & ZERO_POINT_CARDS
        rest = small
        while rest:
            bit = rest & -rest
            rest ^= bit
            above = live & ~((bit << 1) - 1) & SUIT_OF_BIT_MASK[bit.bit_length() - 1]
            twin = above & -above
            if twin and twin & small:
                legal &= ~bit
        return legal

    def _ordered(self, legal: int, seat: int) -> list[int]:
        legal = self._distinct(legal, seat)
        cards = []
        while legal:
            low = legal & -legal
            cards.append(low.bit_length() - 1)
            legal ^= low
        trick = self._trick
        if not trick:
            # lead the strong cards first: they win their trick or draw the opponents' strength
            cards.sort(key=lambda c: -(c % RANKS_PER_SUIT))
            return cards
        position = winning_position(trick, self.trump)
        best = trick[position]
        ours = self._side[self._seat_at[self._leader][position]] == self._side[seat]
        trump = self.trump

        def key(card: int) -> tuple[int, int]:
            suit = card // RANKS_PER_SUIT
            beats = card > best if suit == best // RANKS_PER_SUIT else suit == trump
            if ours and not beats:
                return (0, -CARD_POINTS[card])  # smear points on our side's trick
            if beats:
                return (1, card % RANKS_PER_SUIT)  # win it as cheaply as may be
            return (2, CARD_POINTS[card] * 16 + card % RANKS_PER_SUIT)  # or throw the least

        cards.sort(key=key)
        return cards

    def _value(self, alpha: int, beta: int) -> int:
        """Side 0's card points from this position on: exact inside ``alpha..beta``, else a bound
        ("fail-soft": at least the result when it is ``>= beta``, at most when ``<= alpha``)."""
        self.nodes += 1
        trick = self._trick
        size = len(trick)
        key = (0, 0, 0)
        first: tuple[bool, int] | None = None
        if size == 0:
            upper = self._remaining_points
            if upper == 0:
                return 0
            key = (self._remaining, self._leader, self._tops)
            entry = self._table.get(key)
            if entry is not None:
                low, high, first = entry
                if low == high or low >= beta:
                    return low
                if high <= alpha:
                    return high
                alpha, beta = max(alpha, low), min(beta, high)
        first_alpha, first_beta = alpha, beta
        leader = self._leader
        seat = self._seat_at[leader][size]
        maximising = self._side[seat] == 0
        best = -1 if maximising else _BIG
        best_choice = first
        for choice in self._options(seat, first):
            moved, card = choice
            if moved:
                self._move(seat)
            pile = self._take(seat, card)
            trick.append(card)
            if size + 1 == self._size:
                winner = self._seat_at[leader][winning_position(trick, self.trump)]
                gained = sum(CARD_POINTS[c] for c in trick) if self._side[winner] == 0 else 0
                self._trick, self._leader = [], winner
                value = gained + self._value(alpha - gained, beta - gained)
                self._trick, self._leader = trick, leader
            else:
                value = self._value(alpha, beta)
            trick.pop()
            self._give_back(seat, card, pile)
            if moved:
                self._unmove(seat)
            if maximising:
                if value > best:
                    best, best_choice = value, choice
                    alpha = max(alpha, value)
            elif value < best:
                best, best_choice = value, choice
                beta = min(beta, value)
            if alpha >= beta:
                break
        if size == 0:
            entry = self._table.get(key)
            low, high = (0, self._remaining_points) if entry is None else entry[:2]
            if best <= first_alpha:
                high = min(high, best)
            elif best >= first_beta:
                low = max(low, best)
            else:
                low = high = best
            self._table[key] = (low, high, best_choice)
        return best

    def _between(self, low: int, high: int) -> int:
        """The exact value, known to lie in ``low..high``, by null-window probes (bisection)."""
        while low < high:
            gamma = (low + high + 1) >> 1
            bound = self._value(gamma - 1, gamma)
            if bound >= gamma:
                low = min(bound, high)
            else:
                high = max(bound, low)
        return low

    def _in_play(self) -> int:
        return self._remaining_points + sum(CARD_POINTS[c] for c in self._trick)

    def _after(self, seat: int, card: int, moved: bool, probe: int | None) -> int:
        """Side 0's points after the seat plays ``card``: exact, or with ``probe`` only whether
        they reach it (a result ``>= probe`` then means "at least")."""
        if moved:
            self._move(seat)
        pile = self._take(seat, card)
        trick, leader = self._trick, self._leader
        trick.append(card)
        gained = 0
        if len(trick) == self._size:
            winner = self._seat_at[leader][winning_position(trick, self.trump)]
            gained = sum(CARD_POINTS[c] for c in trick) if self._side[winner] == 0 else 0
            self._trick, self._leader = [], winner
        if probe is None:
            value = gained + self._between(0, self._in_play())
        else:
            value = gained + self._value(probe - gained - 1, probe - gained)
        self._trick, self._leader = trick, leader
        trick.pop()
        self._give_back(seat, card, pile)
        if moved:
            self._unmove(seat)
        return value

    def legal(self, state: DealState) -> int:
        """The cards the seat to play may play in ``state``, as the search plays them (a mask)."""
        self._load(state)
        return self._legal(state.to_play)

    def values(self, state: DealState) -> dict[tuple[bool, int], int]:
        """Side 0's card points from ``state`` on after each choice of the seat to play.

        :param state: a position of this search's deal (the engine's state).
        :returns: for each choice ``(moved, card)`` (``moved``: the seat first moves its third
            pile's top card to its empty fourth place) the points side 0 takes, the current trick
            included, with best play by both sides.
        """
        self._load(state)
        seat = state.to_play
        maximising = self._side[seat] == 0
        value = self._between(0, self._in_play())
        out: dict[tuple[bool, int], int] = {}
        for moved, card in self._options(seat):
            # the best choice reaches the position's value: one probe tells whether this one does
            if maximising:
                bound = self._after(seat, card, moved, value)
                out[(moved, card)] = value if bound >= value else self._after(seat, card, moved, None)
            else:
                bound = self._after(seat, card, moved, value + 1)
                out[(moved, card)] = value if bound <= value else self._after(seat, card, moved, None)
        # the zero-point twins left out of the search are worth what their higher twin is
        for moved in (False, True):
            if moved and not self._can_move(seat):
                continue
            if moved:
                self._move(seat)
            legal = self._legal(seat)
            kept = self._distinct(legal, seat)
            if moved:
                self._unmove(seat)
            live = self._remaining | sum(1 << c for c in self._trick)
            for card in sorted(_cards(legal & ~kept), reverse=True):
                twin = live & ~((2 << card) - 1) & SUIT_OF_BIT_MASK[card]
                out[(moved, card)] = out[(moved, (twin & -twin).bit_length() - 1)]
        return out

    def value_after(self, state: DealState, card: int, *, moved: bool = False) -> int:
        """Side 0's card points from ``state`` on when the seat to play plays ``card`` (legal or not).

        :param moved: the seat first moves its third pile's top card to its empty fourth place.
        :raises SolverError: when the seat cannot play the card at all.
        """
        self._load(state)
        return self._after(state.to_play, card, moved, None)


def _ours(value: int, side: int, in_play: int) -> int:
    """Side 0's points as the points of ``side``."""
    return value if side == 0 else in_play - value


def _cards(mask: int) -> list[int]:
    cards = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards


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


def variant_dd_costs(result: DealResult, rules: Rules) -> list[PlayCost]:
    """The hindsight cost of every play of a variant deal, and each legal card's value.

    A card's value is the best over the seat's choice to move a table card first (when it
    could); the card played is valued as played, move or not, so a needless move shows as a cost.

    :param result: a replayed deal of a variant (:data:`SOLVED_VARIANTS`) with its cards known.
    :param rules: the match's rules.
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
    deck_points = _points(rules.shape.deck_mask)
    costs: list[PlayCost] = []
    # from the last play back: the table then holds the later positions an earlier search meets
    for moment in reversed(moments):
        state = moment.state
        in_play = deck_points - sum(state.taken)  # the laid-aside cards count as taken
        side = search.side_of(moment.seat)

        choices = search.values(state)
        values: dict[Card, int] = {}
        for (_moved, card), value in choices.items():
            values[Card(card)] = max(values.get(Card(card), -1), _ours(value, side, in_play))
        played = choices.get((moment.moved, moment.card))
        if played is None:  # an illegal card: valued all the same, against the legal ones
            played = search.value_after(state, moment.card, moved=moment.moved)
        best = max(values.values())
        best_cards = tuple(sorted(card for card, value in values.items() if value == best))
        costs.append(
            PlayCost(
                trick=moment.trick,
                play=moment.play,
                seat=moment.seat,
                card=Card(moment.card),
                dd_cost=max(0, best - _ours(played, side, in_play)),
                view_cost=None,
                best_cards=best_cards,
                values={card: CardValue(value, None) for card, value in sorted(values.items())},
                deal=result.number,
                legal=moment.is_legal,
                hindsight_best=best_cards,
            )
        )
    return costs[::-1]
