"""The perfect-information search, compiled by numba: null-window probes on an explicit stack.

Values are the card points team 0 (seats 0 and 2) takes from a position on, the cards already
on the table included. Team 0 maximises, team 1 minimises. A *probe* asks one question, "does
team 0 take at least ``gamma``?", and answers with a bound ("fail-soft"): ``r >= gamma`` means
at least ``r``, ``r < gamma`` at most ``r``. The exact value comes from bisecting over 0..60
with probes, each bound narrowing the range by more than half when it can.

What makes it fast, in order of effect: move ordering from the known hands (the leader tries
the lead that last cut off at the same ply (a "killer"), then the card that worked before in
this position, then side cards neither opponent can beat, then low cards to the partner's sure
winner, then the other side cards low to high, then trumps low to high; a follower first tries
the cheapest card that takes the trick where the next seat cannot beat it, smears points when
the partner surely wins (keeping a suit's highest card), otherwise plays the cheapest card);
treating touching zero-point cards (9, 8, 7 with no live card between) as one; a transposition
table at trick starts with compact 16-byte entries and an exact key, small enough (2 MB) to
stay in the processor's cache; fail-soft bounds; an exact play-out of the last two tricks; a
sure bound from the top trumps one team holds; at a trick's last card, a look at the table for
the next trick starts first (an enhanced transposition cut-off); and a search loop that calls
nothing taking arrays, since each such call costs reference counting on every node. The search
is a loop over an explicit stack because numba cannot reliably cache a recursive function
(numba issue 6061).

Everything here works on plain ints and numpy arrays; :mod:`.search` is the Python face.
"""

from __future__ import annotations

import numpy as np

from ._jit import compiled, inlined, legal_core, winning_position

MAX_PLIES = 33
"""Eight tricks of four cards, plus the root."""
RANK_POINTS = (0, 0, 0, 0, 1, 2, 3, 4, 5)


def _suit_pattern_points() -> np.ndarray:
    table = np.zeros(512, dtype=np.int64)
    for pattern in range(512):
        table[pattern] = sum(RANK_POINTS[rank] for rank in range(9) if pattern >> rank & 1)
    return table


SUIT_PATTERN_POINTS = _suit_pattern_points()
"""Card points of any set of ranks within one suit (a 9-bit pattern)."""
HIGHEST_RANK = np.array(
    [max((r for r in range(9) if p >> r & 1), default=0) for p in range(512)], dtype=np.int64
)
"""The highest rank in a 9-bit pattern of one suit."""
CARD_POINTS = np.array([RANK_POINTS[card % 9] for card in range(36)], dtype=np.int64)
# Looked up rather than divided: a division by 9 with Python's rounding is a dozen instructions.
CARD_SUIT = np.array([card // 9 for card in range(36)], dtype=np.int64)
CARD_RANK = np.array([card % 9 for card in range(36)], dtype=np.int64)
_DE_BRUIJN = 0x03F79D71B4CB0A89
"""A de Bruijn sequence: the top six bits of its product with a power of two name the power."""
DE_BRUIJN = np.uint64(_DE_BRUIJN)
SHIFT_58 = np.uint64(58)
BIT_INDEX_DE_BRUIJN = np.zeros(64, dtype=np.int64)
for _bit in range(64):
    BIT_INDEX_DE_BRUIJN[((_DE_BRUIJN << _bit) % (1 << 64)) >> 58] = _bit
MIX_1 = np.uint64(0xFF51AFD7ED558CCD)
MIX_2 = np.uint64(0xC4CEB9FE1A85EC53)
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
SHIFT_33 = np.uint64(33)

STOPPED = -1000
"""What :func:`probe` returns when another thread asked it to stop (``work[3][2]`` set): its
answer is no longer needed. Only :func:`card_bound`'s callers ask; every bound a stopped probe
stored is that of a subtree it finished, so the table stays exact."""
STOP_EVERY = 255
"""A probe looks at the stop request every ``STOP_EVERY + 1`` positions."""
FOLLOWS = 100
"""A job hint of ``FOLLOWS + card``: the job's position is the previous one after ``card``."""
PRECEDES = 200
"""A job hint of ``PRECEDES + card``: ``card`` leads from the job's position to the previous one."""
TABLE_BITS = 17
"""The transposition table has 2**TABLE_BITS entries (2 MB per worker). Measured: a larger table
saves a few nodes but loses more to cache misses; a smaller one loses entries."""
GENERATIONS = 256
"""How many generations a table's keys tell apart (see :func:`new_table`)."""
KEY_BITS = (1 << 42) - 1
"""The key part of an entry's word 1; above it: lowest value, highest value, best lead (6 bits each)."""
NO_CARD = 63
"""An entry's best lead when none is known."""
ETC_CARDS = 9
"""Cards left in the hands (two tricks after this one) from which a trick's last card, with a
choice, first looks up the next trick starts its cards lead to. Measured on the 50 bench deals'
hindsight costs (one thread): 14.5 million positions at 9, 15.9 at 13, 17.9 without."""
SECURE_KEY = 50
"""A follower's sort key for a card that wins the trick and that the next seat cannot beat: tried
before every other card, the cheapest such card first."""
SURE_LEAD_KEY = 20
"""A lead's sort key for a side card neither opponent can beat (plus its rank: highest first);
a low card to the partner's sure winner gets just below it (minus its rank: lowest first)."""
KEEP_TOP = 10
"""What smearing on the partner's sure trick takes off a card's key when it is the highest live
card of its suit (a trick of its own later): such cards are smeared after the others."""

# columns of the per-ply scalars in a workspace
(
    _GAMMA,
    _SLOT,
    _COUNT,
    _TRIED,
    _MAXIMISING,
    _COMPLETED,
    _PREVIOUS_LEADER,
    _WIN,
    _LIVE,
    _LIVE_POINTS,
    _TAKEN,
    _BOUND,
    _KEY0,
    _KEY1,
    _KILLER,
) = range(15)


def new_table(bits: int = TABLE_BITS) -> np.ndarray:
    """An empty transposition table: 16 bytes an entry, four to a cache line.

    Word 0 holds the live cards and which are held by seats 1 or 3 (stored mixed with word 1:
    see :func:`is_entry_of`); word 1 the cards held by
    seats 2 or 3, the leader and the generation (together an exact key: 32 cards, each gone or
    in one of four hands), then the lowest and highest value known (team 0's points from that
    trick start on) and the lead that decided the last probe. A table is valid for one trump and
    one set of house rules: the caller passes a new ``generation`` whenever those change, and
    empties the table every :data:`GENERATIONS` generations (the key keeps eight bits of it).
    """
    size = 1 << bits
    buffer = np.zeros(size * 2 + 8, dtype=np.int64)
    offset = (-(buffer.ctypes.data // 8)) % 8
    return buffer[offset : offset + size * 2].reshape(size, 2)


def new_workspace() -> tuple[np.ndarray, ...]:
    """The search's explicit stack, allocated once per worker."""
    return (
        np.zeros((MAX_PLIES, 15), dtype=np.int64),  # per ply: gamma, slot, count, tried, ... (columns above)
        np.zeros((MAX_PLIES, 9, 2), dtype=np.int64),  # per ply: candidate cards and sort keys
        np.zeros((MAX_PLIES, 4), dtype=np.int64),  # per ply: the trick it completed
        np.zeros(3, dtype=np.int64),  # nodes visited, probes made; a stop request (see STOPPED)
    )


@inlined
def _pack(mask: int) -> int:
    """A 32-card mask in 32 bits: each suit's unused rank 0 (the six) left out."""
    return (
        ((mask >> 1) & 0xFF) | ((mask >> 2) & 0xFF00) | ((mask >> 3) & 0xFF0000) | ((mask >> 4) & 0xFF000000)
    )


@inlined
def _entry_key(
    hand0: int, hand1: int, hand2: int, hand3: int, leader: int, generation: int
) -> tuple[int, int]:
    """The two key words of a trick start (see :func:`new_table`)."""
    one, two, three = _pack(hand1), _pack(hand2), _pack(hand3)
    live = _pack(hand0) | one | two | three
    return live | ((one | three) << 32), (two | three) | (leader << 32) | ((generation % GENERATIONS) << 34)


@inlined
def is_entry_of(stored0: int, stored1: int, word0: int, word1: int) -> bool:
    """Whether a table slot's two stored words are an entry for the key ``word0, word1``.

    Word 0 is stored as ``word0 ^ word1`` with the values included (Hyatt's lockless hashing),
    so that threads sharing a table can write without locks or atomics. A slot read while
    another thread rewrites it may give one write's word 0 and another's word 1: for two writes
    of one position with different values the pair fails this check (a miss, never a mix of
    their bounds), and a pair whose word 1 is the reader's own position's holds that position's
    values. A wrong hit would need word 1 of another position with the same seats 2 and 3,
    leader and generation, and word 0 of a third position that differs from the reader's in
    exactly the bits of those words' difference, all in one slot within one read: the values
    are exact whichever thread wrote them.
    """
    return stored0 ^ stored1 == word0 and stored1 & KEY_BITS == word1


@inlined
def card_count(mask: int) -> int:
    """How many cards a mask holds (36 bits at most): bits summed in pairs, nibbles, then bytes."""
    x = mask - ((mask >> 1) & 0x5555555555)
    x = (x & 0x3333333333) + ((x >> 2) & 0x3333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F
    x += x >> 8
    x += x >> 16
    x += x >> 32
    return int(x & 127)


@inlined
def _entry_slot(word0: int, word1: int, size_mask: np.uint64) -> int:
    key = np.uint64(word0) * MIX_1 + np.uint64(word1) * MIX_2
    key ^= key >> SHIFT_33
    key *= GOLDEN
    key ^= key >> SHIFT_33
    return int(key & size_mask)


@inlined
def bit_index(single_bit: int) -> int:
    """The index of the one set bit of ``single_bit``."""
    return int(BIT_INDEX_DE_BRUIJN[(np.uint64(single_bit) * DE_BRUIJN) >> SHIFT_58])


@inlined
def mask_points(mask: int) -> int:
    """The card points of a card mask."""
    return int(
        SUIT_PATTERN_POINTS[mask & 511]
        + SUIT_PATTERN_POINTS[(mask >> 9) & 511]
        + SUIT_PATTERN_POINTS[(mask >> 18) & 511]
        + SUIT_PATTERN_POINTS[(mask >> 27) & 511]
    )


@inlined
def _sure_trump_points(team0_cards: int, team1_cards: int, trump: int) -> tuple[int, int]:
    """Which team holds the highest live trumps in an unbroken run, and their points.

    The highest live trump wins whatever trick it falls in; the next one down can only be
    beaten by it, so while one team holds the run from the top, every card of the run ends in
    that team's tricks. Returns ``(team, points)``, team -1 when nobody holds a trump.
    """
    shift = trump * 9
    ours = (team0_cards >> shift) & 511
    theirs = (team1_cards >> shift) & 511
    if not ours | theirs:
        return -1, 0
    team = 0 if ours >> HIGHEST_RANK[ours | theirs] & 1 else 1
    run, other = (ours, theirs) if team == 0 else (theirs, ours)
    if other:
        run &= ~((2 << HIGHEST_RANK[other]) - 1)
    return team, int(SUIT_PATTERN_POINTS[run])


@inlined
def _beaters(best: int, trump: int) -> int:
    """The cards that beat ``best``, the card winning a trick so far: higher cards of its suit,
    and every trump when it is not one."""
    suit = int(CARD_SUIT[best])
    above = (511 << (suit * 9)) & ~((2 << best) - 1)
    if suit == trump or trump < 0:
        return above
    return above | (511 << (trump * 9))


@inlined
def _unbeatable(hand: int, led: int, trump: int) -> int:
    """The cards that, winning a trick of suit ``led``, a seat holding ``hand`` cannot beat: it
    must follow with a lower card, or is void in the suit and holds no higher trump."""
    led_cards = hand & (511 << (led * 9))
    if led_cards:
        top = led * 9 + int(HIGHEST_RANK[led_cards >> (led * 9)])
        return ~(511 << (led * 9)) | ((511 << (led * 9)) & ~((2 << top) - 1))
    if trump < 0:
        return -1
    trumps = hand & (511 << (trump * 9))
    if trumps:
        top = trump * 9 + int(HIGHEST_RANK[trumps >> (trump * 9)])
        return (511 << (trump * 9)) & ~((2 << top) - 1)
    return -1


@inlined
def _winner_and_points(table: np.ndarray, leader: int, trump: int) -> tuple[int, int]:
    position = winning_position(table, trump)
    points = CARD_POINTS[table[0]] + CARD_POINTS[table[1]] + CARD_POINTS[table[2]] + CARD_POINTS[table[3]]
    return (leader + position) & 3, points


@inlined
def _beats(card: int, best: int, trump: int) -> bool:
    """Whether ``card`` takes the trick from ``best``, the card winning it so far."""
    suit: int = CARD_SUIT[card]
    if suit == CARD_SUIT[best]:
        return card > best
    return suit == trump


@inlined
def _last_two_tricks(
    hand0: int,
    hand1: int,
    hand2: int,
    hand3: int,
    leader: int,
    trump: int,
    partner_exempt: bool,
    underbuy: int,
    overtake_plain_suit: bool,
) -> int:
    """Team 0's points from a trick start with one or two cards in each hand, trying every line.

    At most sixteen ways to play the first of the two tricks; the last one plays itself.
    Faster than probing, and exact, so the probes below it disappear. Plain ints only: no
    array is made or sliced here, which would cost more than the search itself.
    """
    s0, s1, s2, s3 = leader, (leader + 1) & 3, (leader + 2) & 3, (leader + 3) & 3
    by_seat = (hand0, hand1, hand2, hand3)
    h0, h1, h2, h3 = by_seat[s0], by_seat[s1], by_seat[s2], by_seat[s3]
    two = h0 & (h0 - 1) != 0
    up0, up1, up2, up3 = s0 & 1 == 0, s1 & 1 == 0, s2 & 1 == 0, s3 & 1 == 0
    best0 = -1
    rest0 = h0
    while rest0:
        b0 = rest0 & -rest0
        rest0 ^= b0
        c0 = bit_index(b0)
        led = CARD_SUIT[c0]
        best1 = -1
        rest1 = legal_core(led, c0, h1, trump, False, partner_exempt, underbuy, overtake_plain_suit)[0]
        while rest1:
            b1 = rest1 & -rest1
            rest1 ^= b1
            c1 = bit_index(b1)
            w1, top1 = (1, c1) if _beats(c1, c0, trump) else (0, c0)
            best2 = -1
            rest2 = legal_core(led, top1, h2, trump, w1 == 0, partner_exempt, underbuy, overtake_plain_suit)[
                0
            ]
            while rest2:
                b2 = rest2 & -rest2
                rest2 ^= b2
                c2 = bit_index(b2)
                w2, top2 = (2, c2) if _beats(c2, top1, trump) else (w1, top1)
                best3 = -1
                rest3 = legal_core(
                    led, top2, h3, trump, w2 == 1, partner_exempt, underbuy, overtake_plain_suit
                )[0]
                while rest3:
                    b3 = rest3 & -rest3
                    rest3 ^= b3
                    c3 = bit_index(b3)
                    w3 = 3 if _beats(c3, top2, trump) else w2
                    value = CARD_POINTS[c0] + CARD_POINTS[c1] + CARD_POINTS[c2] + CARD_POINTS[c3]
                    if (leader + w3) & 1:
                        value = 0
                    if two:
                        last = (
                            bit_index(h0 ^ b0),
                            bit_index(h1 ^ b1),
                            bit_index(h2 ^ b2),
                            bit_index(h3 ^ b3),
                        )
                        win = w3
                        top = last[w3]
                        points = CARD_POINTS[top]
                        for k in range(1, 4):
                            card = last[(w3 + k) & 3]
                            points += CARD_POINTS[card]
                            if _beats(card, top, trump):
                                win, top = (w3 + k) & 3, card
                        if (leader + win) & 1 == 0:
                            value += points
                    if best3 < 0 or (value > best3 if up3 else value < best3):
                        best3 = value
                if best2 < 0 or (best3 > best2 if up2 else best3 < best2):
                    best2 = best3
            if best1 < 0 or (best2 > best1 if up1 else best2 < best1):
                best1 = best2
        if best0 < 0 or (best1 > best0 if up0 else best1 < best0):
            best0 = best1
    return best0


@compiled
def probe(
    hands: np.ndarray,
    table: np.ndarray,
    ntable: int,
    leader: int,
    gamma: int,
    trump: int,
    partner_exempt: bool,
    underbuy: int,
    overtake_plain_suit: bool,
    tt: np.ndarray,
    generation: int,
    work: tuple[np.ndarray, ...],
) -> int:
    """A bound on team 0's card points from this position on, with best play, around ``gamma``.

    A result ``r >= gamma`` says team 0 takes at least ``r``; ``r < gamma`` says at most ``r``
    ("fail-soft"): a probe often tells more than yes or no, which saves later probes.

    ``hands`` and ``table`` are changed during the search and restored before it returns
    (the table only up to ``ntable``).
    """
    frames, moves, finished_tricks, nodes = work
    size_mask = np.uint64(tt.shape[0] - 1)
    nodes[1] += 1

    enter, descend, finish = 0, 1, 2
    depth = 0
    frames[0, _GAMMA] = gamma
    # within a trick the live cards (hands and table) and their points do not change
    live = hands[0] | hands[1] | hands[2] | hands[3]
    win = 0
    for k in range(ntable):
        live |= 1 << table[k]
        if k > 0 and _beats(table[k], table[win], trump):
            win = k
    live_points = mask_points(live)
    root_cards = card_count(hands[0] | hands[1] | hands[2] | hands[3])
    state = enter
    result = 0
    stopping = False
    while True:
        if state == enter:
            nodes[0] += 1
            frames[depth, _SLOT] = -1
            if nodes[0] & STOP_EVERY == 0 and nodes[2] != 0:
                # unwind through ``finish``, putting the cards back, storing nothing
                stopping, state = True, finish
                continue
            g = frames[depth, _GAMMA]
            state = descend
            if g <= 0:
                result, state = 0, finish
            elif g > live_points:
                result, state = live_points, finish
            first = -1
            if state == finish:
                pass
            elif ntable == 0:
                single = hands[0] & (hands[0] - 1)
                if single == 0:
                    value = _last_two_tricks(
                        hands[0], hands[1], hands[2], hands[3], leader, trump, partner_exempt,
                        underbuy, overtake_plain_suit,
                    )  # fmt: skip
                    result, state = value, finish
                else:
                    word0, word1 = _entry_key(hands[0], hands[1], hands[2], hands[3], leader, generation)
                    slot = _entry_slot(word0, word1, size_mask)
                    first = -1
                    entry = tt[slot, 1]
                    if is_entry_of(tt[slot, 0], entry, word0, word1):
                        if (entry >> 42) & 63 >= g:
                            result, state = (entry >> 42) & 63, finish
                        elif (entry >> 48) & 63 < g:
                            result, state = (entry >> 48) & 63, finish
                        first = (entry >> 54) & 63
                    elif single & (single - 1) == 0:
                        # small enough to solve outright: the exact value settles every later probe
                        value = _last_two_tricks(
                            hands[0], hands[1], hands[2], hands[3], leader, trump, partner_exempt,
                            underbuy, overtake_plain_suit,
                        )  # fmt: skip
                        entry = word1 | (value << 42) | (value << 48) | (NO_CARD << 54)
                        tt[slot, 0] = word0 ^ entry
                        tt[slot, 1] = entry
                        result, state = value, finish
                    if state == descend and trump >= 0:
                        team, sure = _sure_trump_points(hands[0] | hands[2], hands[1] | hands[3], trump)
                        if team == 0 and sure >= g:
                            result, state = sure, finish
                        elif team == 1 and live_points - sure < g:
                            result, state = live_points - sure, finish
                    if state == descend:
                        frames[depth, _SLOT] = slot
                        frames[depth, _KEY0] = word0
                        frames[depth, _KEY1] = word1
            if state == descend:
                # The cards worth trying, best guess first. Of touching zero-point cards in one
                # hand (no live card of the suit between them) only the highest is kept: they
                # win, lose and score alike. (Written out here, not called: a call that takes
                # arrays costs reference counting on every node.)
                seat = (leader + ntable) & 3
                hand = hands[seat]
                partner_high = False
                if ntable == 0:
                    legal = hand
                else:
                    best = table[win]
                    partner_winning = ((leader + win) & 1) == (seat & 1)
                    legal = legal_core(
                        CARD_SUIT[table[0]],
                        best,
                        hand,
                        trump,
                        partner_winning,
                        partner_exempt,
                        underbuy,
                        overtake_plain_suit,
                    )[0]
                    partner_high = partner_winning
                led = CARD_SUIT[table[0]] if ntable > 0 else -1
                led_trump = ntable > 0 and led == trump
                # every hand is known: which cards the next seat could beat is a fact, not a guess
                next_hand = hands[(seat + 1) & 3]
                safe = _unbeatable(next_hand, led, trump) if 0 < ntable < 3 else -1
                partner_sure = partner_high and (ntable == 3 or safe >> table[win] & 1 == 1)
                if ntable == 1:
                    # the partner plays last: does its highest card of the suit (or trump) take the
                    # trick whatever the next seat plays?
                    partner_hand = hands[(seat + 2) & 3]
                    cover_suit = led if partner_hand & (511 << (led * 9)) else trump
                    if cover_suit >= 0 and partner_hand & (511 << (cover_suit * 9)):
                        cover = cover_suit * 9 + HIGHEST_RANK[(partner_hand >> (cover_suit * 9)) & 511]
                        partner_sure = _beats(cover, table[win], trump) and safe >> cover & 1 == 1
                # cards that take the trick and that the next seat cannot beat
                secure = 0
                if 0 < ntable < 3 and not partner_sure:
                    secure = legal & _beaters(table[win], trump) & safe
                suit_seen = -1
                sure_leads = 0
                partner_leads = 0
                count = 0
                rest = legal
                while rest:
                    low = rest & -rest
                    rest ^= low
                    card = bit_index(low)
                    rank = CARD_RANK[card]
                    if rank <= 3:
                        # the next live card above in the suit: our own zero-point card? then skip this one
                        above = live & ~((low << 1) - 1) & (511 << (card - rank))
                        if above:
                            next_low = above & -above
                            if hand & next_low and CARD_RANK[bit_index(next_low)] <= 3:
                                continue
                    if ntable == 0:
                        suit = CARD_SUIT[card]
                        if suit == trump:
                            # trumps low to high, after every side card
                            key = -rank - 10
                        else:
                            if suit != suit_seen:
                                # a new side suit (the cards come suit by suit): which of its leads
                                # neither opponent can beat, and which the partner surely takes
                                suit_seen = suit
                                cards_of_suit = 511 << (suit * 9)
                                opponents_safe = _unbeatable(next_hand, suit, trump) & _unbeatable(
                                    hands[(seat + 3) & 3], suit, trump
                                )
                                sure_leads = opponents_safe & cards_of_suit
                                partner_leads = 0
                                partner_hand = hands[(seat + 2) & 3]
                                cover_suit = suit if partner_hand & cards_of_suit else trump
                                if cover_suit >= 0 and partner_hand & (511 << (cover_suit * 9)):
                                    cover_rank = HIGHEST_RANK[(partner_hand >> (cover_suit * 9)) & 511]
                                    cover = cover_suit * 9 + cover_rank
                                    if opponents_safe >> cover & 1:
                                        # the cards it beats: the lower ones of the suit, or all when it ruffs
                                        below = cards_of_suit & ((1 << cover) - 1)
                                        partner_leads = below if cover_suit == suit else cards_of_suit
                            if low & sure_leads:
                                # a trick of our own, highest first
                                key = SURE_LEAD_KEY + rank
                            elif low & partner_leads:
                                # a low card to the partner's sure winner (or ruff)
                                key = SURE_LEAD_KEY - 1 - rank
                            else:
                                # any other side card, low to high
                                key = -rank
                        if card == first:
                            key = 100
                    elif partner_sure:
                        # smear points on the partner's trick, but keep trumps and the highest
                        # card of a suit (a trick of its own) for later
                        key = rank - (20 if CARD_SUIT[card] == trump and not led_trump else 0)
                        if not live & (511 << (CARD_SUIT[card] * 9)) & ~((low << 1) - 1):
                            key -= KEEP_TOP
                    elif partner_high:
                        # the partner may still be beaten: give little
                        spare_trump = CARD_SUIT[card] == trump and not led_trump
                        key = -CARD_POINTS[card] * 16 - rank - (20 if spare_trump else 0)
                    else:
                        key = -rank - (9 if CARD_SUIT[card] == trump else 0)
                    if low & secure:
                        # a card that takes the trick and that the next seat cannot beat: the
                        # cheapest such card first
                        key = SECURE_KEY - rank
                    if ntable == 0 and card == frames[depth, _KILLER]:
                        # the lead that last cut off at this ply, in whatever position, before even
                        # the table's: measured on demo deals, a fifth fewer nodes (for a follower
                        # the same idea costs a tenth more)
                        key = 101
                    # insertion by descending key
                    position = count
                    while position > 0 and moves[depth, position - 1, 1] < key:
                        moves[depth, position, 0] = moves[depth, position - 1, 0]
                        moves[depth, position, 1] = moves[depth, position - 1, 1]
                        position -= 1
                    moves[depth, position, 0] = card
                    moves[depth, position, 1] = key
                    count += 1
                frames[depth, _COUNT] = count
                frames[depth, _MAXIMISING] = 1 if ((leader + ntable) & 1) == 0 else 0
                frames[depth, _TRIED] = 0
                frames[depth, _BOUND] = -1 if ((leader + ntable) & 1) == 0 else 61
                frames[depth, _WIN] = win
                frames[depth, _LIVE] = live
                frames[depth, _LIVE_POINTS] = live_points
                if ntable == 3 and count > 1 and root_cards - depth >= ETC_CARDS:
                    # the last card of a trick: the table may already know a next trick start
                    # that decides this node, or that every card fails (an enhanced
                    # transposition cut-off): settled without a search. Worth it only where
                    # the trick before the last two is still to come: each look-up costs
                    # about what a position does
                    maximising = (seat & 1) == 0
                    points3 = CARD_POINTS[table[0]] + CARD_POINTS[table[1]] + CARD_POINTS[table[2]]
                    refuted = True
                    bound_all = -1 if maximising else 61
                    for k in range(count):
                        card = moves[depth, k, 0]
                        winner = (leader + (3 if _beats(card, table[win], trump) else win)) & 3
                        gained = points3 + CARD_POINTS[card] if winner & 1 == 0 else 0
                        bit = 1 << card
                        word0, word1 = _entry_key(
                            hands[0] ^ bit if seat == 0 else hands[0],
                            hands[1] ^ bit if seat == 1 else hands[1],
                            hands[2] ^ bit if seat == 2 else hands[2],
                            hands[3] ^ bit if seat == 3 else hands[3],
                            winner,
                            generation,
                        )
                        slot = _entry_slot(word0, word1, size_mask)
                        entry = tt[slot, 1]
                        if not is_entry_of(tt[slot, 0], entry, word0, word1):
                            refuted = False
                            continue
                        low = ((entry >> 42) & 63) + gained
                        high = ((entry >> 48) & 63) + gained
                        if maximising:
                            if low >= g:
                                result, state = low, finish
                                break
                            if high >= g:
                                refuted = False
                            bound_all = max(bound_all, high)
                        else:
                            if high < g:
                                result, state = high, finish
                                break
                            if low < g:
                                refuted = False
                            bound_all = min(bound_all, low)
                    if state == descend and refuted:
                        result, state = bound_all, finish

        elif state == descend:
            card = moves[depth, frames[depth, _TRIED], 0]
            seat = (leader + ntable) & 3
            hands[seat] ^= 1 << card
            table[ntable] = card
            if ntable == 0:
                win = 0
            elif _beats(card, table[win], trump):
                win = ntable
            ntable += 1
            child_gamma = frames[depth, _GAMMA]
            if ntable == 4:
                frames[depth, _PREVIOUS_LEADER] = leader
                frames[depth, _COMPLETED] = 1
                taken = 0
                for k in range(4):
                    finished_tricks[depth, k] = table[k]
                    taken += CARD_POINTS[table[k]]
                winner = (leader + win) & 3
                leader = winner
                ntable = 0
                frames[depth, _TAKEN] = 0
                if winner & 1 == 0:
                    child_gamma -= taken
                    frames[depth, _TAKEN] = taken
                live_points -= taken
                live = hands[0] | hands[1] | hands[2] | hands[3]
            else:
                frames[depth, _COMPLETED] = 0
                frames[depth, _TAKEN] = 0
            depth += 1
            frames[depth, _GAMMA] = child_gamma
            state = enter

        else:  # finish: the node at ``depth`` is decided as ``result``
            slot = frames[depth, _SLOT]
            if slot >= 0 and not stopping:
                g = frames[depth, _GAMMA]
                word0 = frames[depth, _KEY0]
                word1 = frames[depth, _KEY1]
                entry = tt[slot, 1]
                low, high = 0, live_points
                if is_entry_of(tt[slot, 0], entry, word0, word1):
                    low, high = (entry >> 42) & 63, (entry >> 48) & 63
                if result >= g:
                    low = max(low, result)
                else:
                    high = min(high, result)
                entry = word1 | (low << 42) | (high << 48) | (moves[depth, 0, 0] << 54)
                tt[slot, 0] = word0 ^ entry
                tt[slot, 1] = entry
            if depth == 0:
                return STOPPED if stopping else result
            depth -= 1
            if frames[depth, _COMPLETED]:
                leader = frames[depth, _PREVIOUS_LEADER]
                ntable = 3
                for k in range(4):
                    table[k] = finished_tricks[depth, k]
            else:
                ntable -= 1
            win = frames[depth, _WIN]
            live = frames[depth, _LIVE]
            live_points = frames[depth, _LIVE_POINTS]
            card = table[ntable]
            hands[(leader + ntable) & 3] |= 1 << card
            if stopping:
                continue
            maximising = frames[depth, _MAXIMISING] == 1
            result += frames[depth, _TAKEN]
            if (result >= frames[depth, _GAMMA]) == maximising:
                # decisive: remembered as the lead to try first (stored when this node finishes)
                moves[depth, 0, 0] = card
                frames[depth, _KILLER] = card  # the "killer" lead of this ply
                continue
            # not decisive: keep the loosest bound over the cards tried so far
            if maximising:
                if result > frames[depth, _BOUND]:
                    frames[depth, _BOUND] = result
            elif result < frames[depth, _BOUND]:
                frames[depth, _BOUND] = result
            frames[depth, _TRIED] += 1
            if frames[depth, _TRIED] >= frames[depth, _COUNT]:
                result = frames[depth, _BOUND]
            else:
                state = descend


@compiled
def value_between(
    hands: np.ndarray,
    table: np.ndarray,
    ntable: int,
    leader: int,
    low: int,
    high: int,
    trump: int,
    partner_exempt: bool,
    underbuy: int,
    overtake_plain_suit: bool,
    tt: np.ndarray,
    generation: int,
    work: tuple[np.ndarray, ...],
) -> int:
    """Team 0's card points from this position on (the table's cards included), known to lie
    in ``low..high``, by bisection with probes (each probe's bound may narrow more than half)."""
    while low < high:
        gamma = (low + high + 1) >> 1
        bound = probe(
            hands, table, ntable, leader, gamma, trump, partner_exempt, underbuy,
            overtake_plain_suit, tt, generation,
            work,
        )  # fmt: skip
        if bound >= gamma:
            low = min(bound, high)
        else:
            high = max(bound, low)
    return low


@compiled
def value_near(
    hands: np.ndarray,
    table: np.ndarray,
    ntable: int,
    leader: int,
    low: int,
    high: int,
    downward: bool,
    trump: int,
    partner_exempt: bool,
    underbuy: int,
    overtake_plain_suit: bool,
    tt: np.ndarray,
    generation: int,
    work: tuple[np.ndarray, ...],
) -> int:
    """:func:`value_between` for a value that is likely near ``high`` (``downward``) or ``low``.

    Steps of 1, 2, 4, ... away from that end find a bracket, then bisection finishes: a card
    that is not the best usually costs only a few points, and probes far from the value are cheap.
    """
    step = 1
    while low < high:
        gamma = max(low + 1, high - step + 1) if downward else min(high, low + step)
        bound = probe(
            hands, table, ntable, leader, gamma, trump, partner_exempt, underbuy,
            overtake_plain_suit, tt, generation,
            work,
        )  # fmt: skip
        if bound >= gamma:
            low = min(bound, high)
            if downward:
                break
        else:
            high = max(bound, low)
            if not downward:
                break
        step *= 2
    return value_between(
        hands, table, ntable, leader, low, high, trump, partner_exempt, underbuy,
        overtake_plain_suit, tt, generation,
        work,
    )  # fmt: skip


@compiled
def _upper_bound(hands: np.ndarray, table: np.ndarray, ntable: int) -> int:
    high = mask_points(hands[0] | hands[1] | hands[2] | hands[3])
    for k in range(ntable):
        high += CARD_POINTS[table[k]]
    return high


@compiled
def solve_jobs(
    job_hands: np.ndarray,
    job_tables: np.ndarray,
    job_ntable: np.ndarray,
    job_leader: np.ndarray,
    job_hint: np.ndarray,
    trump: int,
    partner_exempt: bool,
    underbuy: int,
    overtake_plain_suit: bool,
    every_card: bool,
    tt: np.ndarray,
    generation: int,
    work: tuple[np.ndarray, ...],
    out_cards: np.ndarray,
    out_value: np.ndarray,
) -> None:
    """Solve many positions of one deal's trump and rules.

    For job ``j``: ``out_value[j]`` is team 0's points from the position on; with
    ``every_card``, ``out_cards[j, c]`` is team 0's points after the seat to play plays card
    ``c`` (-1 for a card it may not play). ``job_hint[j]`` is a guess of ``out_value[j]``
    (-1 for none): a good guess saves most of the bisection. ``FOLLOWS + c`` says that the
    position comes from the previous job's position by the play of card ``c``, whose value
    was just found; ``PRECEDES + c`` that the play of ``c`` leads from it to the previous job's
    position, so that card's value is known already, and the position is worth at least that
    to the side to play (at most, for team 1).
    """
    hands = np.zeros(4, dtype=np.int64)
    table = np.zeros(4, dtype=np.int64)
    scratch = np.zeros(4, dtype=np.int64)
    for job in range(job_hands.shape[0]):
        for seat in range(4):
            hands[seat] = job_hands[job, seat]
            table[seat] = job_tables[job, seat]
        ntable = job_ntable[job]
        leader = job_leader[job]
        low = 0
        high = _upper_bound(hands, table, ntable)
        hint = job_hint[job]
        known_card, known_value = -1, -1
        if hint >= PRECEDES and job > 0:
            known_card = hint - PRECEDES
            hint = -1
            known_value = out_value[job - 1]
            if ntable == 3:
                table[3] = known_card
                winner, taken = _winner_and_points(table, leader, trump)
                if winner & 1 == 0:
                    known_value += taken
            # the card played is often the best: look just beyond its value first
            if (leader + ntable) & 1 == 0:
                low = known_value
            else:
                high = known_value
        elif hint >= FOLLOWS and job > 0 and every_card:
            # this position follows the previous job's play of card ``hint - FOLLOWS``
            played = hint - FOLLOWS
            hint = out_cards[job - 1, played]
            if job_ntable[job - 1] == 3 and hint >= 0:
                for k in range(3):
                    scratch[k] = job_tables[job - 1, k]
                scratch[3] = played
                winner, taken = _winner_and_points(scratch, job_leader[job - 1], trump)
                if winner & 1 == 0:
                    hint -= taken
        if 0 <= hint <= high:
            # two probes confirm a right guess; a wrong one still narrows the range
            bound = probe(
                hands, table, ntable, leader, hint, trump, partner_exempt, underbuy,
                overtake_plain_suit, tt, generation,
                work,
            )  # fmt: skip
            if bound >= hint:
                low = min(bound, high)
                if low < high:
                    bound = probe(
                        hands, table, ntable, leader, low + 1, trump, partner_exempt, underbuy,
                        overtake_plain_suit, tt, generation, work,
                    )  # fmt: skip
                    if bound > low:
                        low = min(bound, high)
                    else:
                        high = low
            else:
                high = bound
        value = value_near(
            hands, table, ntable, leader, low, high, (leader + ntable) & 1 == 1, trump, partner_exempt,
            underbuy, overtake_plain_suit, tt, generation, work,
        ) if known_card >= 0 else value_between(
            hands, table, ntable, leader, low, high, trump, partner_exempt, underbuy,
            overtake_plain_suit, tt,
            generation, work,
        )  # fmt: skip
        out_value[job] = value
        if not every_card:
            continue
        for card in range(36):
            out_cards[job, card] = -1
        seat = (leader + ntable) & 3
        hand = hands[seat]
        if ntable == 0:
            legal = hand
        else:
            position = winning_position(table[:ntable], trump)
            partner_winning = ((leader + position) & 1) == (seat & 1)
            legal = legal_core(
                CARD_SUIT[table[0]],
                table[position],
                hand,
                trump,
                partner_winning,
                partner_exempt,
                underbuy,
                overtake_plain_suit,
            )[0]
        maximising = (seat & 1) == 0
        live = hands[0] | hands[1] | hands[2] | hands[3]
        for k in range(ntable):
            live |= 1 << table[k]
        # high to low, so that a zero-point card can copy the value of its touching twin above
        for card in range(35, -1, -1):
            bit = 1 << card
            if not legal & bit:
                continue
            if card == known_card:
                out_cards[job, card] = known_value
                continue
            twin = _twin_above(card, hand, live)
            if twin >= 0:
                out_cards[job, card] = out_cards[job, twin]
                continue
            # the best card reaches the position's value; one probe tells whether this is one
            low, high = (0, value) if maximising else (value, 60)
            out_cards[job, card] = card_value(
                hands, table, ntable, leader, card, value, low, high, trump, partner_exempt,
                underbuy, overtake_plain_suit, tt, generation, work, scratch,
            )  # fmt: skip


@inlined
def _twin_above(card: int, hand: int, live: int) -> int:
    """The zero-point card just above ``card`` in its suit when the same hand holds it (no live
    card between them), else -1: the two win, lose and score alike, so share one value."""
    rank = CARD_RANK[card]
    if rank > 3:
        return -1
    bit = 1 << card
    above = live & ~((bit << 1) - 1) & (511 << (card - rank))
    if not above:
        return -1
    twin = above & -above
    twin_card = bit_index(twin)
    if hand & twin and CARD_RANK[twin_card] <= 3:
        return twin_card
    return -1


@compiled
def twin_above(card: int, hands: np.ndarray, table: np.ndarray, ntable: int, seat: int) -> int:
    """:func:`_twin_above` of the seat to play in a position, for the Python side."""
    live = hands[0] | hands[1] | hands[2] | hands[3]
    for k in range(ntable):
        live |= 1 << table[k]
    return _twin_above(card, hands[seat], live)


@inlined
def _play_card(
    hands: np.ndarray, table: np.ndarray, ntable: int, leader: int, card: int, trump: int
) -> tuple[int, int, int]:
    """The seat to play plays ``card`` (taken from its hand, put on the table): team 0's points
    from a finished trick, and the next position's cards on the table and leader (with four
    cards down the next position's table is empty: the caller's scratch table)."""
    hands[(leader + ntable) & 3] ^= 1 << card
    table[ntable] = card
    if ntable == 3:
        winner, taken = _winner_and_points(table, leader, trump)
        return (taken if winner & 1 == 0 else 0), 0, winner
    return 0, ntable + 1, leader


@compiled
def card_value(
    hands: np.ndarray,
    table: np.ndarray,
    ntable: int,
    leader: int,
    card: int,
    guess: int,
    low: int,
    high: int,
    trump: int,
    partner_exempt: bool,
    underbuy: int,
    overtake_plain_suit: bool,
    tt: np.ndarray,
    generation: int,
    work: tuple[np.ndarray, ...],
    scratch: np.ndarray,
) -> int:
    """Team 0's points from a position on (the table's cards included) after the seat to play
    plays ``card``, known to lie in ``low..high``; ``guess`` is the likeliest value (the
    position's own value, when known, which the best card reaches).

    One probe asks whether the card reaches ``guess`` (for team 1: stays at or below it), then
    steps away from the probe's bound. ``hands`` and ``table`` are restored before it returns.
    """
    seat = (leader + ntable) & 3
    maximising = (seat & 1) == 0
    gained, child_ntable, child_leader = _play_card(hands, table, ntable, leader, card, trump)
    child_table = scratch if ntable == 3 else table
    child_high = min(_upper_bound(hands, child_table, child_ntable), high - gained)
    child_low = max(0, low - gained)
    gamma = guess - gained if maximising else guess + 1 - gained
    bound = probe(
        hands, child_table, child_ntable, child_leader, gamma, trump, partner_exempt,
        underbuy, overtake_plain_suit, tt, generation, work,
    )  # fmt: skip
    if bound >= gamma:
        child_low = max(child_low, min(bound, child_high))
        downward = False
    else:
        child_high = min(child_high, max(bound, child_low))
        downward = True
    value = child_low
    if child_low < child_high:
        value = value_near(
            hands, child_table, child_ntable, child_leader, child_low, child_high, downward, trump,
            partner_exempt, underbuy, overtake_plain_suit, tt, generation, work,
        )  # fmt: skip
    hands[seat] ^= 1 << card
    return gained + value


@compiled
def card_bound(
    hands: np.ndarray,
    table: np.ndarray,
    ntable: int,
    leader: int,
    card: int,
    gamma: int,
    trump: int,
    partner_exempt: bool,
    underbuy: int,
    overtake_plain_suit: bool,
    tt: np.ndarray,
    generation: int,
    work: tuple[np.ndarray, ...],
    scratch: np.ndarray,
) -> int:
    """One probe of :func:`card_value`: a fail-soft bound around ``gamma`` on team 0's points
    from a position on (the table's cards included) after the seat to play plays ``card``.

    ``r >= gamma`` says at least ``r``, ``r < gamma`` at most ``r``. For callers that choose
    each probe themselves (threads sharing out one card's search). ``hands`` and ``table`` are
    restored before it returns.
    """
    gained, child_ntable, child_leader = _play_card(hands, table, ntable, leader, card, trump)
    child_table = scratch if ntable == 3 else table
    bound = probe(
        hands, child_table, child_ntable, child_leader, gamma - gained, trump, partner_exempt,
        underbuy, overtake_plain_suit, tt, generation, work,
    )  # fmt: skip
    hands[(leader + ntable) & 3] ^= 1 << card
    return gained + bound
