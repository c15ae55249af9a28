"""The variant search of :mod:`.variants`, compiled by numba: alpha-beta with a transposition table.

One position lives in a few arrays, changed in place on the way down and restored on the way up:
``hands`` (per seat, the hand as a mask), ``piles``/``heights`` (per seat four table piles, bottom
to top, and how many cards each still holds), ``own`` (per seat, every card of its table),
``st`` (the scalars: face-up table cards, cards still in play, their points, the leader, the
cards in the trick, nodes visited), ``trick`` (the cards of the current trick), ``seat_at``
(per leader, who plays each card of a trick) and ``side`` (per seat, its side). ``prm`` holds
the deal's trump and house rules. A choice is ``card`` or ``MOVED + card`` (the seat first moves
its third pile's top card to its empty fourth place).

The search is recursive (simpler than the four-player kernel's explicit stack). The four-player
kernel avoids recursion because numba could not cache a recursive function (numba issue 6061);
this self-recursive one caches and loads again like the rest (``tests/test_solver_variants.py``
runs it in a fresh process), so only the first run on a machine compiles it (about 40 s,
measured by ``make bench``). Legal plays are the engine's own
(:func:`manillen_replay.rules.legal_core`, compiled).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import types
from numba.typed import Dict

from ..cards import CARD_POINTS as _CARD_POINTS
from ..cards import RANKS_PER_SUIT
from ._jit import compiled, inlined, legal_core, winning_position

MOVED = 64
"""Added to a card: the seat moves a table card first."""
NO_CHOICE = -1
CARD_POINTS = np.array([_CARD_POINTS[c] for c in range(36)], dtype=np.int64)
ZERO_POINT_CARDS = sum(1 << card for card in range(36) if _CARD_POINTS[card] == 0)
SUIT_MASK = np.array(
    [((1 << RANKS_PER_SUIT) - 1) << (card - card % RANKS_PER_SUIT) for card in range(36)], dtype=np.int64
)
# scalar slots of ``st`` and ``prm``
TOPS, REMAINING, POINTS, LEADER, SIZE, NODES = range(6)
TRUMP, EXEMPT, FORBIDDEN, OVERTAKE_PLAIN, TRICK_SIZE = range(5)

KEY_TYPE = types.UniTuple(types.int64, 3)  # type: ignore[no-untyped-call]
ENTRY_TYPE = types.UniTuple(types.int64, 3)  # type: ignore[no-untyped-call]


def new_table() -> Dict:
    """An empty transposition table: (cards in play, leader, face-up table cards) to the lowest
    and highest value known and the best choice found. Measured: a fixed-size table of 2**19
    slots that replaces old entries visits twice the positions on a ``two_open`` deal."""
    return Dict.empty(key_type=KEY_TYPE, value_type=ENTRY_TYPE)


@inlined
def _bit_index(bit: int) -> int:
    index = 0
    while bit > 1:
        bit >>= 1
        index += 1
    return index


@inlined
def legal(
    hands: np.ndarray,
    own: np.ndarray,
    st: np.ndarray,
    trick: np.ndarray,
    seat_at: np.ndarray,
    side: np.ndarray,
    prm: np.ndarray,
    seat: int,
) -> int:
    """The cards ``seat`` may play now (a mask)."""
    playable = hands[seat] | (st[TOPS] & own[seat])
    size = st[SIZE]
    if size == 0:
        return int(playable)
    position = winning_position(trick[:size], prm[TRUMP])
    winner = seat_at[st[LEADER], position]
    return legal_core(
        trick[0] // 9,
        trick[position],
        playable,
        prm[TRUMP],
        side[winner] == side[seat],
        prm[EXEMPT] != 0,
        prm[FORBIDDEN] != 0,
        prm[OVERTAKE_PLAIN] != 0,
    )[0]


@inlined
def can_move(heights: np.ndarray, seat: int) -> bool:
    """Whether ``seat`` may move its third pile's top card to its empty fourth place."""
    return bool(heights.shape[1] == 4 and heights[seat, 3] == 0 and heights[seat, 2] >= 2)


@inlined
def do_move(piles: np.ndarray, heights: np.ndarray, st: np.ndarray, seat: int) -> None:
    piles[seat, 3, 0] = piles[seat, 2, 1]
    heights[seat, 3] = 1
    heights[seat, 2] = 1
    st[TOPS] |= 1 << piles[seat, 2, 0]


@inlined
def undo_move(piles: np.ndarray, heights: np.ndarray, st: np.ndarray, seat: int) -> None:
    st[TOPS] ^= 1 << piles[seat, 2, 0]
    piles[seat, 2, 1] = piles[seat, 3, 0]
    heights[seat, 2] = 2
    heights[seat, 3] = 0


@inlined
def take(
    hands: np.ndarray,
    piles: np.ndarray,
    heights: np.ndarray,
    st: np.ndarray,
    seat: int,
    card: int,
) -> int:
    """Take ``card`` from the seat's hand or table; the pile it came from, -1 for the hand, -2 if not held."""
    bit = 1 << card
    if hands[seat] & bit:
        hands[seat] ^= bit
        pile = -1
    else:
        pile = -2
        for p in range(heights.shape[1]):
            h = heights[seat, p]
            if h > 0 and piles[seat, p, h - 1] == card:
                heights[seat, p] = h - 1
                st[TOPS] ^= bit
                if h > 1:
                    st[TOPS] |= 1 << piles[seat, p, h - 2]
                pile = p
                break
        if pile == -2:
            return pile
    st[REMAINING] ^= bit
    st[POINTS] -= CARD_POINTS[card]
    return pile


@inlined
def give_back(
    hands: np.ndarray,
    piles: np.ndarray,
    heights: np.ndarray,
    st: np.ndarray,
    seat: int,
    card: int,
    pile: int,
) -> None:
    bit = 1 << card
    st[REMAINING] |= bit
    st[POINTS] += CARD_POINTS[card]
    if pile == -1:
        hands[seat] |= bit
        return
    h = heights[seat, pile]
    if h > 0:
        st[TOPS] ^= 1 << piles[seat, pile, h - 1]
    piles[seat, pile, h] = card
    heights[seat, pile] = h + 1
    st[TOPS] |= bit


@inlined
def distinct(hands: np.ndarray, st: np.ndarray, trick: np.ndarray, legal_cards: int, seat: int) -> int:
    """``legal_cards`` without the zero-point hand cards touching a higher one of the same hand."""
    live = st[REMAINING]
    for k in range(st[SIZE]):
        live |= 1 << trick[k]
    small = legal_cards & hands[seat] & ZERO_POINT_CARDS
    rest = small
    while rest:
        bit = rest & -rest
        rest ^= bit
        above = live & ~((bit << 1) - 1) & SUIT_MASK[_bit_index(bit)]
        twin = above & -above
        if twin and twin & small:
            legal_cards &= ~bit
    return legal_cards


@inlined
def _order_key(
    st: np.ndarray,
    trick: np.ndarray,
    seat_at: np.ndarray,
    side: np.ndarray,
    prm: np.ndarray,
    seat: int,
    card: int,
) -> int:
    size = st[SIZE]
    rank = card % 9
    if size == 0:
        return -rank  # lead the strong cards first
    position = winning_position(trick[:size], prm[TRUMP])
    best = trick[position]
    ours = side[seat_at[st[LEADER], position]] == side[seat]
    suit = card // 9
    beats = card > best if suit == best // 9 else suit == prm[TRUMP]
    if ours and not beats:
        return int(-CARD_POINTS[card])  # smear points on our side's trick
    if beats:
        return 100 + rank  # win it as cheaply as may be
    return int(200 + CARD_POINTS[card] * 16 + rank)  # or throw the least


@inlined
def options(
    hands: np.ndarray,
    piles: np.ndarray,
    heights: np.ndarray,
    own: np.ndarray,
    st: np.ndarray,
    trick: np.ndarray,
    seat_at: np.ndarray,
    side: np.ndarray,
    prm: np.ndarray,
    seat: int,
    first: int,
) -> np.ndarray:
    """The seat's choices, the likely best first (``first``, from the table, leads)."""
    out = np.empty(72, dtype=np.int64)
    keys = np.empty(72, dtype=np.int64)
    count = 0
    for moved in range(2):
        if moved:
            if not can_move(heights, seat):
                break
            do_move(piles, heights, st, seat)
        cards = distinct(hands, st, trick, legal(hands, own, st, trick, seat_at, side, prm, seat), seat)
        while cards:
            bit = cards & -cards
            cards ^= bit
            card = _bit_index(bit)
            choice = card + MOVED * moved
            key = _order_key(st, trick, seat_at, side, prm, seat, card) + 1000 * moved
            if choice == first:
                key = -(10**6)
            # insertion sort: a dozen choices at most
            k = count
            while k > 0 and keys[k - 1] > key:
                keys[k] = keys[k - 1]
                out[k] = out[k - 1]
                k -= 1
            keys[k] = key
            out[k] = choice
            count += 1
        if moved:
            undo_move(piles, heights, st, seat)
    return out[:count]


@inlined
def _close_trick(
    st: np.ndarray, trick: np.ndarray, seat_at: np.ndarray, side: np.ndarray, prm: np.ndarray, size: int
) -> int:
    """The card at ``size`` completed the trick: its winner leads an empty one; side 0's points from it."""
    winner = seat_at[st[LEADER], winning_position(trick[: size + 1], prm[TRUMP])]
    gained = 0
    if side[winner] == 0:
        for k in range(size + 1):
            gained += CARD_POINTS[trick[k]]
    st[SIZE] = 0
    st[LEADER] = winner
    return int(gained)


@compiled
def value(
    hands: np.ndarray,
    piles: np.ndarray,
    heights: np.ndarray,
    own: np.ndarray,
    st: np.ndarray,
    trick: np.ndarray,
    seat_at: np.ndarray,
    side: np.ndarray,
    prm: np.ndarray,
    tt: Any,
    alpha: int,
    beta: int,
) -> int:
    """Side 0's card points from this position on: exact inside ``alpha..beta``, else a fail-soft bound."""
    st[NODES] += 1
    size = st[SIZE]
    upper = st[POINTS]
    for k in range(size):
        upper += CARD_POINTS[trick[k]]
    if upper == 0:
        return 0
    key = (st[REMAINING], st[LEADER], st[TOPS])
    # one look-up: no position below this one has the same key (it holds fewer cards)
    low, high, first = tt.get(key, (0, upper, NO_CHOICE)) if size == 0 else (0, upper, NO_CHOICE)
    if size == 0:
        if low == high or low >= beta:
            return int(low)
        if high <= alpha:
            return int(high)
        alpha = max(alpha, low)
        beta = min(beta, high)
    first_alpha, first_beta = alpha, beta
    leader = st[LEADER]
    seat = seat_at[leader, size]
    maximising = side[seat] == 0
    best = -1 if maximising else 1 << 20
    best_choice = first
    for choice in options(hands, piles, heights, own, st, trick, seat_at, side, prm, seat, first):
        moved = choice >= MOVED
        card = choice - MOVED if moved else choice
        if moved:
            do_move(piles, heights, st, seat)
        pile = take(hands, piles, heights, st, seat, card)
        trick[size] = card
        if size + 1 == prm[TRICK_SIZE]:
            saved = trick[: size + 1].copy()  # the next trick writes over these places
            gained = _close_trick(st, trick, seat_at, side, prm, size)
            result = gained + value(
                hands, piles, heights, own, st, trick, seat_at, side, prm, tt, alpha - gained, beta - gained
            )
            trick[: size + 1] = saved
            st[LEADER] = leader
            st[SIZE] = size
        else:
            st[SIZE] = size + 1
            result = value(hands, piles, heights, own, st, trick, seat_at, side, prm, tt, alpha, beta)
            st[SIZE] = size
        give_back(hands, piles, heights, st, seat, card, pile)
        if moved:
            undo_move(piles, heights, st, seat)
        if maximising:
            if result > best:
                best = result
                best_choice = choice
                alpha = max(alpha, result)
        elif result < best:
            best = result
            best_choice = choice
            beta = min(beta, result)
        if alpha >= beta:
            break
    if size == 0:
        if best <= first_alpha:
            high = min(high, best)
        elif best >= first_beta:
            low = max(low, best)
        else:
            low = best
            high = best
        tt[key] = (low, high, best_choice)
    return best


@compiled
def between(
    hands: np.ndarray,
    piles: np.ndarray,
    heights: np.ndarray,
    own: np.ndarray,
    st: np.ndarray,
    trick: np.ndarray,
    seat_at: np.ndarray,
    side: np.ndarray,
    prm: np.ndarray,
    tt: Any,
    low: int,
    high: int,
) -> int:
    """The exact value, known to lie in ``low..high``, by null-window probes (bisection)."""
    while low < high:
        gamma = (low + high + 1) >> 1
        bound = value(hands, piles, heights, own, st, trick, seat_at, side, prm, tt, gamma - 1, gamma)
        if bound >= gamma:
            low = min(bound, high)
        else:
            high = max(bound, low)
    return low


@compiled
def after(
    hands: np.ndarray,
    piles: np.ndarray,
    heights: np.ndarray,
    own: np.ndarray,
    st: np.ndarray,
    trick: np.ndarray,
    seat_at: np.ndarray,
    side: np.ndarray,
    prm: np.ndarray,
    tt: Any,
    choice: int,
    probe: int,
) -> int:
    """Side 0's points after the seat to play makes ``choice``: exact with ``probe`` -1, otherwise
    only whether they reach ``probe`` (fail-soft). -1 when the seat does not hold the card."""
    size = st[SIZE]
    leader = st[LEADER]
    seat = seat_at[leader, size]
    moved = choice >= MOVED
    card = choice - MOVED if moved else choice
    if moved:
        do_move(piles, heights, st, seat)
    pile = take(hands, piles, heights, st, seat, card)
    if pile == -2:
        if moved:
            undo_move(piles, heights, st, seat)
        return -1
    trick[size] = card
    saved = trick[: size + 1].copy()
    gained = 0
    if size + 1 == prm[TRICK_SIZE]:
        gained = _close_trick(st, trick, seat_at, side, prm, size)
    else:
        st[SIZE] = size + 1
    upper = st[POINTS]
    for k in range(st[SIZE]):
        upper += CARD_POINTS[trick[k]]
    if probe < 0:
        result = gained + between(hands, piles, heights, own, st, trick, seat_at, side, prm, tt, 0, upper)
    else:
        result = gained + value(
            hands, piles, heights, own, st, trick, seat_at, side, prm, tt, probe - gained - 1, probe - gained
        )
    trick[: size + 1] = saved
    st[LEADER] = leader
    st[SIZE] = size
    give_back(hands, piles, heights, st, seat, card, pile)
    if moved:
        undo_move(piles, heights, st, seat)
    return result
