"""The variant search of :mod:`.variants`, compiled by numba: alpha-beta with a transposition table.

A position lives in one int64 array, ``pos``, changed in place on the way down and restored on
the way up (the slots are named below): per seat its hand (a card mask), every card of its
table (``OWN``), its side, and four table piles bottom to top with how many cards each still
holds; per leader, who plays each card of a trick (``SEAT_AT``); the cards of the tricks being
played (each trick from its own base, so a later trick never writes over an earlier one); the
scalars (face-up table cards, cards still in play, their points, the leader, the cards in the
trick, the winning position and the points in it, nodes visited); and the deal's trump and
house rules. One array, not a dozen, because every call that takes arrays pays reference
counting for each of them, on every node. A choice is ``card`` or ``MOVED + card`` (the seat
first moves its third pile's top card to its empty fourth place).

What makes it fast, measured on generated deals (``python -m bench.variants_bench``, which
reports the positions searched): one array for the position and a loop over an explicit stack,
so no node pays for calls; a transposition table of fixed size at trick starts, buckets of
four, exact keys (the cards in play, the face-up table cards and the leader fix a position of
one deal; a generation tells the searches sharing the table apart), the entry that holds the
most cards kept; stored without locks (word 0 XOR word 1, as the four-player kernel does) so
threads share it; in tricks of two cards, before the second card is searched, a look at the
table (and the sure bound) for the next trick's start after each of its choices, an enhanced
transposition cut-off (:data:`CUTOFF_CARDS` says what it saves where); a sure bound from the
top trumps one side holds; move ordering after the
four-player kernel's (the lead that last cut off at this depth, then the leads that cut off
most, side suits high to low and trumps low to high; a follower smears points on its side's
trick, wins cheaply or throws the least); touching zero-point cards of one hand searched once.

The search is a loop, not a recursion: numba caches a recursive function, but one loaded from
the cache crashed as soon as it recursed (numba issue 6061; ``tests/test_solver_variants.py``
runs the search in a fresh process from the cache). Only the first run on a machine compiles
it (``make bench`` measures how long).
Legal plays are the engine's own (:func:`manillen_replay.rules.legal_core`, compiled).
"""

from __future__ import annotations

import numpy as np

from ..cards import CARD_POINTS as _CARD_POINTS
from ..cards import RANKS_PER_SUIT
from ..rules import NO_TRUMP
from ._jit import compiled, inlined, legal_core
from ._kernel import HIGHEST_RANK, SUIT_PATTERN_POINTS, _entry_slot
from ._kernel import bit_index as _bit_index
from ._kernel import card_count as _count

MOVED = 64
"""Added to a card: the seat moves a table card first."""
NO_CHOICE = -1
CARD_POINTS = np.array([_CARD_POINTS[c] for c in range(36)], dtype=np.int64)
ZERO_POINT_CARDS = sum(1 << card for card in range(36) if _CARD_POINTS[card] == 0)
SUIT_MASK = np.array(
    [((1 << RANKS_PER_SUIT) - 1) << (card - card % RANKS_PER_SUIT) for card in range(36)], dtype=np.int64
)

MAX_SEATS = 6
MAX_TRICK = 6
MAX_DEPTH = 40
"""Plies from a root to the end of a deal, and one more (36 cards at most)."""
MAX_CHOICES = 48
# slots of ``pos``
HANDS = 0
OWN = HANDS + MAX_SEATS
SIDE = OWN + MAX_SEATS
SEAT_AT = SIDE + MAX_SEATS  # leader * MAX_TRICK + position
PILES = SEAT_AT + MAX_SEATS * MAX_TRICK  # seat * 8 + pile * 2 + place
HEIGHTS = PILES + MAX_SEATS * 8  # seat * 4 + pile
TRICK = HEIGHTS + MAX_SEATS * 4  # trick cards from TRICK + BASE
(
    TOPS,
    REMAINING,
    POINTS,
    LEADER,
    SIZE,
    WIN,
    TRICK_POINTS,
    BASE,
    NODES,
    TRUMP,
    EXEMPT,
    UNDERBUY,
    OVERTAKE_PLAIN,
    TRICK_SIZE,
    SEATS,
    GENERATION,
) = range(TRICK + 36 + MAX_TRICK, TRICK + 36 + MAX_TRICK + 16)
POSITION_SLOTS = GENERATION + 1

TABLE_BITS = 22
"""The table has 2**TABLE_BITS entries, 16 bytes each (64 MB). Measured on six generated
two_open deals, positions searched: buckets of two, 2**18 entries 234 M, 2**20 114 M, 2**22
85 M; buckets of four, 2**21 89 M, 2**22 83 M. The table is the search's main lever there. The
call reviews' searches from a deal's start (two_open, ten of them) searched 16 % fewer positions
with 2**22 entries than with 2**21, for the same time (2**23 and 2**24 saved 4 % and 6 % more)."""
REMAINING_BITS = (1 << 36) - 1
KEY_TOPS = (1 << 36) - 1
"""Word 1 of an entry: the face-up table cards, then lowest value, highest value and best choice
plus one (7 bits each). Word 0: the cards in play, the leader (3 bits) and their count (6 bits)."""


CUTOFF_CARDS = 12
"""Tricks of two cards (``two_open``) look up the next trick's starts before the second card is
searched (:func:`_transposition_cutoff`), with this many cards in play or more: nearer the end
the look costs more than it saves. Measured, alternated with the search without it in one
process: ``two_open``'s searches from a deal's start 25 % fewer positions and 10 % less time;
``two_open_fours`` and ``three`` 14 % and 13 % fewer positions but 5 % and 15 % more time (a
trick's last card comes every fourth or third ply there, each look a miss in the caches)."""
WAYS = 4
"""Entries a key may take: a bucket of four, one cache line."""
GENERATIONS = 1 << 16
"""How many searches a table tells apart (word 0 keeps the generation above bit 45)."""


def new_table(bits: int = TABLE_BITS) -> np.ndarray:
    """An empty transposition table. Searches share one, each with its own generation
    (:data:`GENERATION` in the position): a table is valid for one deal, one trump and one set
    of rules, and a generation names those."""
    return np.zeros((1 << bits, 2), dtype=np.int64)


# columns of ``work``: per depth the choices, their sort keys, the lead that last cut off there
# (the "killer"), then the search's frame
KILLER = 2 * MAX_CHOICES
(
    F_ALPHA,
    F_BETA,
    F_FIRST_ALPHA,
    F_FIRST_BETA,
    F_LOW,
    F_HIGH,
    F_SLOT,
    F_WORD0,
    F_SEAT,
    F_MAXIMISING,
    F_BEST,
    F_BEST_CHOICE,
    F_COUNT,
    F_TRIED,
    F_SIZE,
    F_LEADER,
    F_WIN,
    F_TRICK_POINTS,
    F_PILE,
    F_GAINED,
) = range(KILLER + 1, KILLER + 21)
WORK_COLUMNS = KILLER + 21
_ENTER, _DESCEND, _RETURN = range(3)
HISTORY = MAX_DEPTH
"""The row of ``work`` that counts, per card, how much searching its cut-offs as a lead saved."""


def new_work() -> np.ndarray:
    """A search's scratch space and explicit stack (the columns above)."""
    work = np.zeros((MAX_DEPTH + 1, WORK_COLUMNS), dtype=np.int64)
    work[:, KILLER] = NO_CHOICE
    return work


def new_position() -> np.ndarray:
    """An empty position array (see the module's docstring)."""
    return np.zeros(POSITION_SLOTS, dtype=np.int64)


@inlined
def _beats(card: int, best: int, trump: int) -> bool:
    """Whether ``card`` takes the trick from ``best``, as :func:`~manillen_replay.rules.winning_position`
    decides."""
    if card // 9 == best // 9:
        return card > best
    return card // 9 == trump


@inlined
def legal(pos: np.ndarray, seat: int) -> int:
    """The cards ``seat`` may play now (a mask)."""
    playable = pos[HANDS + seat] | (pos[TOPS] & pos[OWN + seat])
    size = pos[SIZE]
    if size == 0:
        return int(playable)
    base = TRICK + pos[BASE]
    position = pos[WIN]
    winner = pos[SEAT_AT + pos[LEADER] * MAX_TRICK + position]
    return legal_core(
        pos[base] // 9,
        pos[base + position],
        playable,
        pos[TRUMP],
        pos[SIDE + winner] == pos[SIDE + seat],
        pos[EXEMPT] != 0,
        pos[UNDERBUY],
        pos[OVERTAKE_PLAIN] != 0,
    )[0]


@inlined
def can_move(pos: np.ndarray, seat: int) -> bool:
    """Whether ``seat`` may move its third pile's top card to its empty fourth place."""
    return bool(pos[HEIGHTS + seat * 4 + 3] == 0 and pos[HEIGHTS + seat * 4 + 2] >= 2)


@inlined
def do_move(pos: np.ndarray, seat: int) -> None:
    """Move the third pile's top card to the empty fourth place: the card under it turns up."""
    pos[PILES + seat * 8 + 6] = pos[PILES + seat * 8 + 5]
    pos[HEIGHTS + seat * 4 + 3] = 1
    pos[HEIGHTS + seat * 4 + 2] = 1
    pos[TOPS] |= 1 << pos[PILES + seat * 8 + 4]


@inlined
def undo_move(pos: np.ndarray, seat: int) -> None:
    """Undo :func:`do_move`."""
    pos[TOPS] ^= 1 << pos[PILES + seat * 8 + 4]
    pos[PILES + seat * 8 + 5] = pos[PILES + seat * 8 + 6]
    pos[HEIGHTS + seat * 4 + 2] = 2
    pos[HEIGHTS + seat * 4 + 3] = 0


@inlined
def take(pos: np.ndarray, seat: int, card: int) -> int:
    """Take ``card`` from the seat's hand or table; the pile it came from, -1 for the hand, -2 if not held."""
    bit = 1 << card
    if pos[HANDS + seat] & bit:
        pos[HANDS + seat] ^= bit
        pile = -1
    else:
        pile = -2
        for p in range(4):
            h = pos[HEIGHTS + seat * 4 + p]
            if h > 0 and pos[PILES + seat * 8 + p * 2 + h - 1] == card:
                pos[HEIGHTS + seat * 4 + p] = h - 1
                pos[TOPS] ^= bit
                if h > 1:
                    pos[TOPS] |= 1 << pos[PILES + seat * 8 + p * 2 + h - 2]
                pile = p
                break
        if pile == -2:
            return pile
    pos[REMAINING] ^= bit
    pos[POINTS] -= CARD_POINTS[card]
    return pile


@inlined
def give_back(pos: np.ndarray, seat: int, card: int, pile: int) -> None:
    """Undo :func:`take`."""
    bit = 1 << card
    pos[REMAINING] |= bit
    pos[POINTS] += CARD_POINTS[card]
    if pile == -1:
        pos[HANDS + seat] |= bit
        return
    h = pos[HEIGHTS + seat * 4 + pile]
    if h > 0:
        pos[TOPS] ^= 1 << pos[PILES + seat * 8 + pile * 2 + h - 1]
    pos[PILES + seat * 8 + pile * 2 + h] = card
    pos[HEIGHTS + seat * 4 + pile] = h + 1
    pos[TOPS] |= bit


@inlined
def _live(pos: np.ndarray) -> int:
    """The cards in play and in the current trick."""
    live = pos[REMAINING]
    base = TRICK + pos[BASE]
    for k in range(pos[SIZE]):
        live |= 1 << pos[base + k]
    return int(live)


@inlined
def distinct(pos: np.ndarray, legal_cards: int, seat: int) -> int:
    """``legal_cards`` without the zero-point hand cards touching a higher one of the same hand."""
    live = _live(pos)
    hand = pos[HANDS + seat]
    small = legal_cards & hand & ZERO_POINT_CARDS
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
def _order_key(pos: np.ndarray, work: np.ndarray, seat: int, card: int, killer: int) -> int:
    """Lower first."""
    size = pos[SIZE]
    rank = card % 9
    suit = card // 9
    trump = pos[TRUMP]
    if size == 0:
        if card == killer:
            return -(1 << 58)
        # the leads that cut off most, then side suits high to low and trumps low to high (as
        # the four-player kernel measured)
        return int(-work[HISTORY, card] * 32 + (10 + rank if suit == trump else 8 - rank))
    best = pos[TRICK + pos[BASE] + pos[WIN]]
    ours = pos[SIDE + pos[SEAT_AT + pos[LEADER] * MAX_TRICK + pos[WIN]]] == pos[SIDE + seat]
    beats = _beats(card, best, trump)
    if ours and not beats:
        return int(-CARD_POINTS[card])  # smear points on our side's trick
    if beats:
        return 100 + rank  # win it as cheaply as may be
    return int(200 + CARD_POINTS[card] * 16 + rank)  # or throw the least


@inlined
def _fill_choices(pos: np.ndarray, work: np.ndarray, depth: int, seat: int, first: int) -> int:
    """The seat's choices into ``work[depth]``, the likely best first (``first``, from the table,
    leads); how many."""
    count = 0
    killer = work[depth, KILLER]
    for moved in range(2):
        if moved:
            if not can_move(pos, seat):
                break
            do_move(pos, seat)
        cards = distinct(pos, legal(pos, seat), seat)
        while cards:
            bit = cards & -cards
            cards ^= bit
            card = _bit_index(bit)
            choice = card + MOVED * moved
            key = _order_key(pos, work, seat, card, killer) + 1000 * moved
            if choice == first:
                key = -(1 << 60)
            # insertion sort: two dozen choices at most
            k = count
            while k > 0 and work[depth, MAX_CHOICES + k - 1] > key:
                work[depth, MAX_CHOICES + k] = work[depth, MAX_CHOICES + k - 1]
                work[depth, k] = work[depth, k - 1]
                k -= 1
            work[depth, MAX_CHOICES + k] = key
            work[depth, k] = choice
            count += 1
        if moved:
            undo_move(pos, seat)
    return count


@compiled
def options(pos: np.ndarray, seat: int) -> np.ndarray:
    """The seat's choices, the likely best first (the search's own order)."""
    work = new_work_compiled()
    count = _fill_choices(pos, work, 0, seat, NO_CHOICE)
    return work[0, :count].copy()


@inlined
def new_work_compiled() -> np.ndarray:
    work = np.zeros((MAX_DEPTH + 1, WORK_COLUMNS), dtype=np.int64)
    work[:, KILLER] = NO_CHOICE
    return work


@inlined
def _sure_bounds(pos: np.ndarray, upper: int) -> tuple[int, int]:
    """Side 0's points at a trick start lie in the pair: the run of highest live trumps one side
    holds ends in that side's tricks (nothing beats the top trump, and only it the next one)."""
    trump = pos[TRUMP]
    if trump == NO_TRUMP:
        return 0, upper
    remaining = pos[REMAINING]
    shift = trump * 9
    cards0 = 0
    cards1 = 0
    for seat in range(pos[SEATS]):
        cards = (pos[HANDS + seat] | (pos[OWN + seat] & remaining)) >> shift & 511
        if pos[SIDE + seat] == 0:
            cards0 |= cards
        else:
            cards1 |= cards
    if not cards0 | cards1:
        return 0, upper
    top = HIGHEST_RANK[cards0 | cards1]
    if cards0 >> top & 1:
        run = cards0
        if cards1:
            run &= ~((2 << HIGHEST_RANK[cards1]) - 1)
        return int(SUIT_PATTERN_POINTS[run]), upper
    run = cards1
    if cards0:
        run &= ~((2 << HIGHEST_RANK[cards0]) - 1)
    return 0, upper - int(SUIT_PATTERN_POINTS[run])


@inlined
def _slot(word0: int, tops: int, size_mask: np.uint64) -> int:
    """The key's bucket: the four-player kernel's hash. As an int64: the uint64 it gives, met with
    the int64 of a frame, would make a float."""
    return np.int64(_entry_slot(word0, tops, size_mask))  # type: ignore[return-value]


@compiled
def value(pos: np.ndarray, tt: np.ndarray, work: np.ndarray, alpha: int, beta: int, only: int) -> int:
    """Side 0's card points from this position on: exact inside ``alpha..beta``, else a fail-soft
    bound. With ``only`` a choice (not :data:`NO_CHOICE`), the points after that choice (-1 when
    the seat does not hold the card).

    A loop over an explicit stack (``work``'s frame columns), not a recursion: numba's cache
    loads a recursive function that recurses only to crash in it (numba issue 6061)."""
    size_mask = np.uint64(tt.shape[0] - WAYS)
    depth = 0
    work[0, F_ALPHA] = alpha
    work[0, F_BETA] = beta
    state = _ENTER
    result = 0
    while True:
        if state == _ENTER:
            pos[NODES] += 1
            size = pos[SIZE]
            upper = pos[POINTS] + pos[TRICK_POINTS]
            if upper == 0:
                result = 0
                state = _RETURN
                continue
            a = work[depth, F_ALPHA]
            b = work[depth, F_BETA]
            low = 0
            high = upper
            first = NO_CHOICE
            slot = -1
            leader = pos[LEADER]
            forced = depth == 0 and only != NO_CHOICE
            if size == 0 and not forced:
                remaining = pos[REMAINING]
                tops = pos[TOPS]
                word0 = remaining | (leader << 36) | (_count(remaining) << 39) | (pos[GENERATION] << 45)
                slot = _slot(word0, tops, size_mask)
                for other in range(WAYS):
                    stored1 = tt[slot + other, 1]
                    if tt[slot + other, 0] ^ stored1 == word0 and stored1 & KEY_TOPS == tops:
                        low = (stored1 >> 36) & 127
                        high = (stored1 >> 43) & 127
                        first = ((stored1 >> 50) & 127) - 1
                        break
                sure_low, sure_high = _sure_bounds(pos, upper)
                low = max(low, sure_low)
                high = min(high, sure_high)
                if low >= high or low >= b:
                    result = low
                    state = _RETURN
                    continue
                if high <= a:
                    result = high
                    state = _RETURN
                    continue
                a = max(a, low)
                b = min(b, high)
                work[depth, F_WORD0] = word0
            work[depth, F_ALPHA] = a
            work[depth, F_BETA] = b
            work[depth, F_FIRST_ALPHA] = a
            work[depth, F_FIRST_BETA] = b
            work[depth, F_LOW] = low
            work[depth, F_HIGH] = high
            work[depth, F_SLOT] = slot
            seat = pos[SEAT_AT + leader * MAX_TRICK + size]
            work[depth, F_SEAT] = seat
            maximising = pos[SIDE + seat] == 0
            work[depth, F_MAXIMISING] = maximising
            work[depth, F_BEST] = -1 if maximising else 1 << 20
            work[depth, F_BEST_CHOICE] = first
            if forced:
                work[depth, 0] = only
                work[depth, F_COUNT] = 1
            else:
                count = _fill_choices(pos, work, depth, seat, first)
                work[depth, F_COUNT] = count
                if size == 1 and pos[TRICK_SIZE] == 2 and _count(pos[REMAINING]) >= CUTOFF_CARDS:
                    cut, bound = _transposition_cutoff(
                        pos, tt, work, depth, seat, maximising, a, b, size_mask
                    )
                    if cut:
                        result = bound
                        state = _RETURN
                        continue
            work[depth, F_TRIED] = 0
            work[depth, F_SIZE] = size
            work[depth, F_LEADER] = leader
            work[depth, F_WIN] = pos[WIN]
            work[depth, F_TRICK_POINTS] = pos[TRICK_POINTS]
            state = _DESCEND
        elif state == _DESCEND:
            tried = work[depth, F_TRIED]
            if tried == work[depth, F_COUNT]:
                best = work[depth, F_BEST]
                slot = work[depth, F_SLOT]
                if slot >= 0:
                    low = work[depth, F_LOW]
                    high = work[depth, F_HIGH]
                    if best <= work[depth, F_FIRST_ALPHA]:
                        high = min(high, best)
                    elif best >= work[depth, F_FIRST_BETA]:
                        low = max(low, best)
                    else:
                        low = best
                        high = best
                    entry = pos[TOPS] | (low << 36) | (high << 43) | ((work[depth, F_BEST_CHOICE] + 1) << 50)
                    _store(tt, slot, work[depth, F_WORD0], entry)
                result = best
                state = _RETURN
                continue
            choice = work[depth, tried]
            seat = work[depth, F_SEAT]
            size = work[depth, F_SIZE]
            moved = choice >= MOVED
            card = choice - MOVED if moved else choice
            if moved:
                do_move(pos, seat)
            pile = take(pos, seat, card)
            if pile == -2:  # only when ``only`` is not the seat's
                if moved:
                    undo_move(pos, seat)
                return -1
            work[depth, F_PILE] = pile
            base = TRICK + pos[BASE]
            pos[base + size] = card
            if size > 0 and _beats(card, pos[base + pos[WIN]], pos[TRUMP]):
                pos[WIN] = size
            pos[TRICK_POINTS] += CARD_POINTS[card]
            gained = 0
            if size + 1 == pos[TRICK_SIZE]:
                winner = pos[SEAT_AT + pos[LEADER] * MAX_TRICK + pos[WIN]]
                if pos[SIDE + winner] == 0:
                    gained = pos[TRICK_POINTS]
                pos[SIZE] = 0
                pos[LEADER] = winner
                pos[WIN] = 0
                pos[TRICK_POINTS] = 0
                pos[BASE] += size + 1
            else:
                pos[SIZE] = size + 1
            work[depth, F_GAINED] = gained
            work[depth + 1, F_ALPHA] = work[depth, F_ALPHA] - gained
            work[depth + 1, F_BETA] = work[depth, F_BETA] - gained
            depth += 1
            state = _ENTER
        else:  # _RETURN: ``result`` is the value of the node at ``depth``
            if depth == 0:
                return result
            depth -= 1
            result += work[depth, F_GAINED]
            size = work[depth, F_SIZE]
            if pos[SIZE] == 0 and size + 1 == pos[TRICK_SIZE]:
                pos[BASE] -= size + 1
            pos[SIZE] = size
            pos[LEADER] = work[depth, F_LEADER]
            pos[WIN] = work[depth, F_WIN]
            pos[TRICK_POINTS] = work[depth, F_TRICK_POINTS]
            tried = work[depth, F_TRIED]
            choice = work[depth, tried]
            seat = work[depth, F_SEAT]
            moved = choice >= MOVED
            card = choice - MOVED if moved else choice
            give_back(pos, seat, card, work[depth, F_PILE])
            if moved:
                undo_move(pos, seat)
            cutoff = False
            if work[depth, F_MAXIMISING]:
                if result > work[depth, F_BEST]:
                    work[depth, F_BEST] = result
                    work[depth, F_BEST_CHOICE] = choice
                    if result > work[depth, F_ALPHA]:
                        work[depth, F_ALPHA] = result
            elif result < work[depth, F_BEST]:
                work[depth, F_BEST] = result
                work[depth, F_BEST_CHOICE] = choice
                if result < work[depth, F_BETA]:
                    work[depth, F_BETA] = result
            if work[depth, F_ALPHA] >= work[depth, F_BETA]:
                cutoff = True
            if cutoff:
                if size == 0 and work[depth, F_SLOT] >= 0:
                    work[depth, KILLER] = choice  # the lead that cut off at this depth
                    left = MAX_DEPTH - depth
                    work[HISTORY, card] += left * left
                work[depth, F_TRIED] = work[depth, F_COUNT]
            else:
                work[depth, F_TRIED] = tried + 1
            state = _DESCEND


@inlined
def _find(tt: np.ndarray, slot: int, word0: int, tops: int) -> int:
    """The row of the key's entry in its bucket, -1 when it has none."""
    for other in range(WAYS):
        stored1 = tt[slot + other, 1]
        if tt[slot + other, 0] ^ stored1 == word0 and stored1 & KEY_TOPS == tops:
            return slot + other
    return -1


@inlined
def _transposition_cutoff(
    pos: np.ndarray,
    tt: np.ndarray,
    work: np.ndarray,
    depth: int,
    seat: int,
    maximising: bool,
    alpha: int,
    beta: int,
    size_mask: np.uint64,
) -> tuple[bool, int]:
    """Before the last card of a trick is searched: whether one of the seat's choices leads to a
    next trick whose stored bound (or sure bound) already cuts this position off, and the bound
    (an enhanced transposition cut-off, as the four-player kernel has: the next trick's start was
    often searched through another order of the same cards)."""
    size = pos[SIZE]
    base = TRICK + pos[BASE]
    trump = pos[TRUMP]
    for tried in range(work[depth, F_COUNT]):
        choice = work[depth, tried]
        moved = choice >= MOVED
        card = choice - MOVED if moved else choice
        if moved:
            do_move(pos, seat)
        pile = take(pos, seat, card)
        win = size if _beats(card, pos[base + pos[WIN]], trump) else pos[WIN]
        winner = pos[SEAT_AT + pos[LEADER] * MAX_TRICK + win]
        gained = pos[TRICK_POINTS] + CARD_POINTS[card] if pos[SIDE + winner] == 0 else 0
        upper = pos[POINTS]
        low = 0
        high = upper
        if upper > 0:
            remaining = pos[REMAINING]
            tops = pos[TOPS]
            word0 = remaining | (winner << 36) | (_count(remaining) << 39) | (pos[GENERATION] << 45)
            row = _find(tt, _slot(word0, tops, size_mask), word0, tops)
            if row >= 0:
                stored1 = tt[row, 1]
                low = (stored1 >> 36) & 127
                high = (stored1 >> 43) & 127
            sure_low, sure_high = _sure_bounds(pos, upper)
            low = max(low, sure_low)
            high = min(high, sure_high)
        give_back(pos, seat, card, pile)
        if moved:
            undo_move(pos, seat)
        if maximising and gained + low >= beta:
            return True, gained + low
        if not maximising and gained + high <= alpha:
            return True, gained + high
    return False, 0


@inlined
def _store(tt: np.ndarray, slot: int, word0: int, word1: int) -> None:
    """Write an entry into the key's own slot of its bucket if it has one, else over the bucket's
    entry of another deal or, when all are this deal's, the one that holds fewest cards (the least
    work saved); each word in one store (see the module's docstring)."""
    tops = word1 & KEY_TOPS
    generation = word0 >> 45
    target = slot
    least = 64
    for other in range(WAYS):
        stored0 = tt[slot + other, 0] ^ tt[slot + other, 1]
        if stored0 == word0 and tt[slot + other, 1] & KEY_TOPS == tops:
            target = slot + other
            break
        worth = (stored0 >> 39) & 63 if stored0 >> 45 == generation else -1
        if worth < least:
            least = worth
            target = slot + other
    tt[target, 0] = word0 ^ word1
    tt[target, 1] = word1


@compiled
def legal_cards(pos: np.ndarray, seat: int, moved: bool) -> tuple[int, int]:
    """The cards ``seat`` may play (after moving a table card first, when ``moved``), and those of
    them the search tries (without the zero-point twins)."""
    if moved:
        do_move(pos, seat)
    cards = legal(pos, seat)
    kept = distinct(pos, cards, seat)
    if moved:
        undo_move(pos, seat)
    return cards, kept


@compiled
def movable(pos: np.ndarray, seat: int) -> bool:
    """Whether ``seat`` may move its third pile's top card to its empty fourth place."""
    return can_move(pos, seat)
