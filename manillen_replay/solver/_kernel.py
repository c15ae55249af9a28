"""The perfect-information search, compiled by numba: null-window probes on an explicit stack.

Values are the card points team 0 (seats 0 and 2) takes from a position on, the cards already
on the table included. Team 0 maximises, team 1 minimises. A *probe* answers one yes/no
question, "does team 0 take at least ``gamma``?", and the exact value comes from bisecting
over 0..60 with probes (cheaper here than full-window alpha-beta or MTD(f)).

What makes it fast, in order of effect: move ordering (the leader tries the card that worked
before, then high to low; a follower plays high when the partner wins, otherwise the cheapest
card); treating touching zero-point cards (9, 8, 7 with no live card between) as one; a
transposition table at trick starts keyed by all four hands with a well-mixed hash; and a sure
bound from the top trumps one team holds. The search is a loop over an explicit stack because
numba cannot reliably cache a recursive function (numba issue 6061).

Everything here works on plain ints and numpy arrays; :mod:`.search` is the Python face.
"""

from __future__ import annotations

import numpy as np

from ._jit import compiled, legal_core, winning_position

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
BIT_INDEX_MOD37 = np.zeros(37, dtype=np.int64)
for _bit in range(36):
    # 2 is a primitive root modulo 37, so each of the 36 powers of two leaves its own remainder.
    BIT_INDEX_MOD37[(1 << _bit) % 37] = _bit
CARD_POINTS = np.array([RANK_POINTS[card % 9] for card in range(36)], dtype=np.int64)
MIX_1 = np.uint64(0xFF51AFD7ED558CCD)
MIX_2 = np.uint64(0xC4CEB9FE1A85EC53)
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
SHIFT_33 = np.uint64(33)

FOLLOWS = 100
"""A job hint of ``FOLLOWS + card``: the job's position is the previous one after ``card``."""
TABLE_BITS = 18
"""The transposition table has 2**TABLE_BITS entries (about 13 MB per worker)."""


# columns of the per-ply scalars in a workspace
_GAMMA, _SLOT, _COUNT, _TRIED, _MAXIMISING, _COMPLETED, _PREVIOUS_LEADER = range(7)
# columns of a transposition-table row
_STAMP, _LOW, _HIGH, _BEST = 4, 5, 6, 7


def new_table(bits: int = TABLE_BITS) -> np.ndarray:
    """An empty transposition table: one 64-byte row per entry, aligned to cache lines.

    A row holds the four hands, the key stamp (leader + 4 * generation), the lowest and highest
    value known (team 0's points from that trick start on) and the lead that decided the last
    probe. A table is only valid for one trump and one set of house rules: the caller passes a
    new ``generation`` whenever those change, which empties the table at once.
    """
    size = 1 << bits
    buffer = np.full(size * 8 + 8, -1, dtype=np.int64)
    offset = (-(buffer.ctypes.data // 8)) % 8
    return buffer[offset : offset + size * 8].reshape(size, 8)


def new_workspace() -> tuple[np.ndarray, ...]:
    """The search's explicit stack and scratch arrays, allocated once per worker."""
    return (
        np.zeros((MAX_PLIES, 7), dtype=np.int64),  # per ply: gamma, slot, moves, tried, ...
        np.zeros((MAX_PLIES, 9, 2), dtype=np.int64),  # per ply: candidate cards and sort keys
        np.zeros((MAX_PLIES, 4), dtype=np.int64),  # per ply: the trick it completed
        np.zeros(8, dtype=np.int64),  # scratch tables for the last trick and the root
        np.zeros(2, dtype=np.int64),  # nodes visited and probes made, for the benchmark
    )


@compiled
def _mix(value: np.uint64) -> np.uint64:
    value ^= value >> SHIFT_33
    value *= MIX_1
    value ^= value >> SHIFT_33
    value *= MIX_2
    value ^= value >> SHIFT_33
    return value


@compiled
def _slot(hands: np.ndarray, leader: int, size_mask: np.uint64) -> int:
    key = _mix(np.uint64(hands[0]) + np.uint64(leader) * GOLDEN)
    key = _mix(key ^ np.uint64(hands[1]))
    key = _mix(key + np.uint64(hands[2]))
    key = _mix(key ^ (np.uint64(hands[3]) * GOLDEN))
    return int(key & size_mask)


@compiled
def bit_index(single_bit: int) -> int:
    """The index of the one set bit of ``single_bit``."""
    return int(BIT_INDEX_MOD37[single_bit % 37])


@compiled
def mask_points(mask: int) -> int:
    """The card points of a card mask."""
    return int(
        SUIT_PATTERN_POINTS[mask & 511]
        + SUIT_PATTERN_POINTS[(mask >> 9) & 511]
        + SUIT_PATTERN_POINTS[(mask >> 18) & 511]
        + SUIT_PATTERN_POINTS[(mask >> 27) & 511]
    )


@compiled
def _count(mask: int) -> int:
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@compiled
def _sure_trump_points(hands: np.ndarray, trump: int) -> tuple[int, int]:
    """Which team holds the highest live trumps in an unbroken run, and their points.

    The highest live trump wins whatever trick it falls in; the next one down can only be
    beaten by it, so while one team holds the run from the top, every card of the run ends in
    that team's tricks. Returns ``(team, points)``, team -1 when nobody holds a trump.
    """
    shift = trump * 9
    ours = ((hands[0] | hands[2]) >> shift) & 511
    theirs = ((hands[1] | hands[3]) >> shift) & 511
    if not ours | theirs:
        return -1, 0
    team = 0 if ours >> HIGHEST_RANK[ours | theirs] & 1 else 1
    run, other = (ours, theirs) if team == 0 else (theirs, ours)
    if other:
        run &= ~((2 << HIGHEST_RANK[other]) - 1)
    return team, int(SUIT_PATTERN_POINTS[run])


@compiled
def _winner_and_points(table: np.ndarray, leader: int, trump: int) -> tuple[int, int]:
    position = winning_position(table, trump)
    points = CARD_POINTS[table[0]] + CARD_POINTS[table[1]] + CARD_POINTS[table[2]] + CARD_POINTS[table[3]]
    return (leader + position) & 3, points


@compiled
def _legal_now(hand: int, table: np.ndarray, ntable: int, leader: int, trump: int, partner_exempt: bool,
               underbuy_forbidden: bool) -> int:  # fmt: skip
    """The engine's legal cards for the seat to play, as a mask."""
    if ntable == 0:
        return hand
    position = winning_position(table[:ntable], trump)
    partner_winning = ((leader + position) & 1) == ((leader + ntable) & 1)
    return legal_core(
        table[0] // 9, table[position], hand, trump, partner_winning, partner_exempt, underbuy_forbidden
    )[0]


@compiled
def _last_two_tricks(
    hands: np.ndarray,
    leader: int,
    trump: int,
    partner_exempt: bool,
    underbuy_forbidden: bool,
    table: np.ndarray,
) -> int:
    """Team 0's points from a trick start with one or two cards in each hand, trying every line.

    At most sixteen ways to play the first of the two tricks; the last one plays itself.
    Faster than probing, and exact, so the probes below it disappear.
    """
    seats = np.empty(4, dtype=np.int64)
    for k in range(4):
        seats[k] = (leader + k) & 3
    last = table[4:8]
    table = table[:4]
    two = hands[leader] & (hands[leader] - 1) != 0
    best = np.empty(4, dtype=np.int64)
    best[0] = -1
    rest0 = hands[seats[0]]
    while rest0:
        bit0 = rest0 & -rest0
        rest0 ^= bit0
        table[0] = bit_index(bit0)
        best[1] = -1
        rest1 = _legal_now(hands[seats[1]], table, 1, leader, trump, partner_exempt, underbuy_forbidden)
        while rest1:
            bit1 = rest1 & -rest1
            rest1 ^= bit1
            table[1] = bit_index(bit1)
            best[2] = -1
            rest2 = _legal_now(hands[seats[2]], table, 2, leader, trump, partner_exempt, underbuy_forbidden)
            while rest2:
                bit2 = rest2 & -rest2
                rest2 ^= bit2
                table[2] = bit_index(bit2)
                best[3] = -1
                rest3 = _legal_now(
                    hands[seats[3]], table, 3, leader, trump, partner_exempt, underbuy_forbidden
                )
                while rest3:
                    bit3 = rest3 & -rest3
                    rest3 ^= bit3
                    table[3] = bit_index(bit3)
                    winner, taken = _winner_and_points(table, leader, trump)
                    value = taken if winner & 1 == 0 else 0
                    if two:
                        played = (bit0, bit1, bit2, bit3)
                        for k in range(4):
                            seat = (winner + k) & 3
                            last[k] = bit_index(hands[seat] ^ played[(seat - leader) & 3])
                        last_winner, last_taken = _winner_and_points(last, winner, trump)
                        if last_winner & 1 == 0:
                            value += last_taken
                    if best[3] < 0 or (value > best[3] if seats[3] & 1 == 0 else value < best[3]):
                        best[3] = value
                if best[2] < 0 or (best[3] > best[2] if seats[2] & 1 == 0 else best[3] < best[2]):
                    best[2] = best[3]
            if best[1] < 0 or (best[2] > best[1] if seats[1] & 1 == 0 else best[2] < best[1]):
                best[1] = best[2]
        if best[0] < 0 or (best[1] > best[0] if seats[0] & 1 == 0 else best[1] < best[0]):
            best[0] = best[1]
    return int(best[0])


@compiled
def _candidates(
    hands: np.ndarray,
    table: np.ndarray,
    ntable: int,
    leader: int,
    trump: int,
    partner_exempt: bool,
    underbuy_forbidden: bool,
    first: int,
    moves: np.ndarray,
) -> int:
    """The cards worth trying for the seat to play, best guess first; returns how many.

    Of touching zero-point cards in one hand (no live card of the suit between them) only
    the highest is kept: they win, lose and score alike.
    """
    seat = (leader + ntable) & 3
    hand = hands[seat]
    partner_high = False
    if ntable == 0:
        legal = hand
    else:
        position = winning_position(table[:ntable], trump)
        best = table[position]
        partner_winning = ((leader + position) & 1) == (seat & 1)
        legal = legal_core(
            table[0] // 9, best, hand, trump, partner_winning, partner_exempt, underbuy_forbidden
        )[0]
        partner_high = partner_winning
    live = hands[0] | hands[1] | hands[2] | hands[3]
    for k in range(ntable):
        live |= 1 << table[k]
    count = 0
    rest = legal
    while rest:
        low = rest & -rest
        rest ^= low
        card = bit_index(low)
        rank = card % 9
        if rank <= 3:
            # the next live card above in the suit: if it is our own zero-point card, skip this one
            above = live & ~((low << 1) - 1) & (511 << (card - rank))
            if above:
                next_low = above & -above
                if hand & next_low and bit_index(next_low) % 9 <= 3:
                    continue
        if ntable == 0:
            key = 100 if card == first else rank
        elif partner_high:
            # smear points on the partner's trick, but keep trumps for later
            key = rank - (20 if card // 9 == trump and trump != table[0] // 9 else 0)
        else:
            key = -rank - (9 if card // 9 == trump else 0)
        # insertion by descending key
        position = count
        while position > 0 and moves[position - 1, 1] < key:
            moves[position, 0] = moves[position - 1, 0]
            moves[position, 1] = moves[position - 1, 1]
            position -= 1
        moves[position, 0] = card
        moves[position, 1] = key
        count += 1
    return count


@compiled
def probe(
    hands: np.ndarray,
    table: np.ndarray,
    ntable: int,
    leader: int,
    gamma: int,
    trump: int,
    partner_exempt: bool,
    underbuy_forbidden: bool,
    tt: np.ndarray,
    generation: int,
    work: tuple[np.ndarray, ...],
) -> bool:
    """Whether team 0 takes at least ``gamma`` card points from this position on, with best play.

    ``hands`` and ``table`` are changed during the search and restored before it returns
    (the table only up to ``ntable``).
    """
    frames, moves, finished_tricks, scratch, nodes = work
    size_mask = np.uint64(tt.shape[0] - 1)
    nodes[1] += 1

    enter, descend, finish = 0, 1, 2
    depth = 0
    frames[0, _GAMMA] = gamma
    state = enter
    result = False
    while True:
        if state == enter:
            nodes[0] += 1
            frames[depth, _SLOT] = -1
            g = frames[depth, _GAMMA]
            state = descend
            if g <= 0:
                result, state = True, finish
            elif ntable == 0:
                remaining = hands[0] | hands[1] | hands[2] | hands[3]
                points = mask_points(remaining)
                if g > points:
                    result, state = False, finish
                elif _count(hands[0]) == 1:
                    value = _last_two_tricks(
                        hands, leader, trump, partner_exempt, underbuy_forbidden, scratch
                    )
                    result, state = value >= g, finish
                else:
                    slot = _slot(hands, leader, size_mask)
                    first = -1
                    if (
                        tt[slot, _STAMP] == leader + 4 * generation
                        and tt[slot, 0] == hands[0]
                        and tt[slot, 1] == hands[1]
                        and tt[slot, 2] == hands[2]
                        and tt[slot, 3] == hands[3]
                    ):
                        if tt[slot, _LOW] >= g:
                            result, state = True, finish
                        elif tt[slot, _HIGH] < g:
                            result, state = False, finish
                        first = tt[slot, _BEST]
                    elif _count(hands[0]) == 2:
                        # small enough to solve outright: the exact value settles every later probe
                        value = _last_two_tricks(
                            hands, leader, trump, partner_exempt, underbuy_forbidden, scratch
                        )
                        for seat in range(4):
                            tt[slot, seat] = hands[seat]
                        tt[slot, _STAMP] = leader + 4 * generation
                        tt[slot, _LOW] = value
                        tt[slot, _HIGH] = value
                        tt[slot, _BEST] = -1
                        result, state = value >= g, finish
                    if state == descend and trump >= 0:
                        team, sure = _sure_trump_points(hands, trump)
                        if team == 0 and sure >= g:
                            result, state = True, finish
                        elif team == 1 and points - sure < g:
                            result, state = False, finish
                    if state == descend:
                        frames[depth, _SLOT] = slot
                        frames[depth, _COUNT] = _candidates(
                            hands,
                            table,
                            0,
                            leader,
                            trump,
                            partner_exempt,
                            underbuy_forbidden,
                            first,
                            moves[depth],
                        )
            else:
                pending = 0
                for k in range(ntable):
                    pending += CARD_POINTS[table[k]]
                if g > mask_points(hands[0] | hands[1] | hands[2] | hands[3]) + pending:
                    result, state = False, finish
                else:
                    frames[depth, _COUNT] = _candidates(
                        hands,
                        table,
                        ntable,
                        leader,
                        trump,
                        partner_exempt,
                        underbuy_forbidden,
                        -1,
                        moves[depth],
                    )
            if state == descend:
                frames[depth, _MAXIMISING] = 1 if ((leader + ntable) & 1) == 0 else 0
                frames[depth, _TRIED] = 0

        elif state == descend:
            card = moves[depth, frames[depth, _TRIED], 0]
            seat = (leader + ntable) & 3
            hands[seat] ^= 1 << card
            table[ntable] = card
            ntable += 1
            child_gamma = frames[depth, _GAMMA]
            if ntable == 4:
                winner, taken = _winner_and_points(table, leader, trump)
                frames[depth, _PREVIOUS_LEADER] = leader
                frames[depth, _COMPLETED] = 1
                for k in range(4):
                    finished_tricks[depth, k] = table[k]
                leader = winner
                ntable = 0
                if winner & 1 == 0:
                    child_gamma -= taken
            else:
                frames[depth, _COMPLETED] = 0
            depth += 1
            frames[depth, _GAMMA] = child_gamma
            state = enter

        else:  # finish: the node at ``depth`` is decided as ``result``
            slot = frames[depth, _SLOT]
            if slot >= 0:
                g = frames[depth, _GAMMA]
                same = (
                    tt[slot, _STAMP] == leader + 4 * generation
                    and tt[slot, 0] == hands[0]
                    and tt[slot, 1] == hands[1]
                    and tt[slot, 2] == hands[2]
                    and tt[slot, 3] == hands[3]
                )
                if not same:
                    for seat in range(4):
                        tt[slot, seat] = hands[seat]
                    tt[slot, _STAMP] = leader + 4 * generation
                    tt[slot, _LOW] = 0
                    tt[slot, _HIGH] = mask_points(hands[0] | hands[1] | hands[2] | hands[3])
                tt[slot, _BEST] = moves[depth, 0, 0]
                if result:
                    if g > tt[slot, _LOW]:
                        tt[slot, _LOW] = g
                elif g - 1 < tt[slot, _HIGH]:
                    tt[slot, _HIGH] = g - 1
            if depth == 0:
                return result
            depth -= 1
            if frames[depth, _COMPLETED]:
                leader = frames[depth, _PREVIOUS_LEADER]
                ntable = 3
                for k in range(4):
                    table[k] = finished_tricks[depth, k]
            else:
                ntable -= 1
            card = table[ntable]
            hands[(leader + ntable) & 3] |= 1 << card
            maximising = frames[depth, _MAXIMISING] == 1
            if result == maximising:
                # decisive: remembered as the lead to try first (stored when this node finishes)
                moves[depth, 0, 0] = card
                continue
            frames[depth, _TRIED] += 1
            if frames[depth, _TRIED] >= frames[depth, _COUNT]:
                result = not maximising
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
    underbuy_forbidden: bool,
    tt: np.ndarray,
    generation: int,
    work: tuple[np.ndarray, ...],
) -> int:
    """Team 0's card points from this position on (the table's cards included), known to lie
    in ``low..high``, by bisection with probes."""
    while low < high:
        gamma = (low + high + 1) >> 1
        if probe(
            hands,
            table,
            ntable,
            leader,
            gamma,
            trump,
            partner_exempt,
            underbuy_forbidden,
            tt,
            generation,
            work,
        ):
            low = gamma
        else:
            high = gamma - 1
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
    underbuy_forbidden: bool,
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
        if downward:
            gamma = max(low + 1, high - step + 1)
            if probe(
                hands,
                table,
                ntable,
                leader,
                gamma,
                trump,
                partner_exempt,
                underbuy_forbidden,
                tt,
                generation,
                work,
            ):
                low = gamma
                break
            high = gamma - 1
        else:
            gamma = min(high, low + step)
            if probe(
                hands,
                table,
                ntable,
                leader,
                gamma,
                trump,
                partner_exempt,
                underbuy_forbidden,
                tt,
                generation,
                work,
            ):
                low = gamma
            else:
                high = gamma - 1
                break
        step *= 2
    return value_between(
        hands,
        table,
        ntable,
        leader,
        low,
        high,
        trump,
        partner_exempt,
        underbuy_forbidden,
        tt,
        generation,
        work,
    )


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
    underbuy_forbidden: bool,
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
    was just found.
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
        if hint >= FOLLOWS and job > 0 and every_card:
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
            # two probes confirm a right guess; a wrong one still halves the range
            if probe(
                hands,
                table,
                ntable,
                leader,
                hint,
                trump,
                partner_exempt,
                underbuy_forbidden,
                tt,
                generation,
                work,
            ):
                low = hint
                if hint < high:
                    if probe(
                        hands, table, ntable, leader, hint + 1, trump, partner_exempt, underbuy_forbidden,
                        tt, generation, work,
                    ):  # fmt: skip
                        low = hint + 1
                    else:
                        high = hint
            else:
                high = hint - 1
        value = value_between(
            hands,
            table,
            ntable,
            leader,
            low,
            high,
            trump,
            partner_exempt,
            underbuy_forbidden,
            tt,
            generation,
            work,
        )
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
                table[0] // 9,
                table[position],
                hand,
                trump,
                partner_winning,
                partner_exempt,
                underbuy_forbidden,
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
            rank = card % 9
            if rank <= 3:
                above = live & ~((bit << 1) - 1) & (511 << (card - rank))
                if above:
                    twin = above & -above
                    twin_card = bit_index(twin)
                    if hand & twin and twin_card % 9 <= 3:
                        out_cards[job, card] = out_cards[job, twin_card]
                        continue
            hands[seat] ^= bit
            table[ntable] = card
            if ntable == 3:
                winner, taken = _winner_and_points(table, leader, trump)
                gained = taken if winner & 1 == 0 else 0
                child_table, child_ntable, child_leader = scratch, 0, winner
            else:
                gained = 0
                child_table, child_ntable, child_leader = table, ntable + 1, leader
            child_high = _upper_bound(hands, child_table, child_ntable)
            # the best card reaches the position's value; one probe tells whether this is one
            if maximising:
                if probe(
                    hands, child_table, child_ntable, child_leader, value - gained, trump,
                    partner_exempt, underbuy_forbidden, tt, generation, work,
                ):  # fmt: skip
                    card_value = value
                else:
                    card_value = gained + value_near(
                        hands, child_table, child_ntable, child_leader, 0, value - 1 - gained, True, trump,
                        partner_exempt, underbuy_forbidden, tt, generation, work,
                    )  # fmt: skip
            elif not probe(
                hands, child_table, child_ntable, child_leader, value + 1 - gained, trump,
                partner_exempt, underbuy_forbidden, tt, generation, work,
            ):  # fmt: skip
                card_value = value
            else:
                card_value = gained + value_near(
                    hands, child_table, child_ntable, child_leader, max(value + 1 - gained, 0), child_high,
                    False, trump, partner_exempt, underbuy_forbidden, tt, generation, work,
                )  # fmt: skip
            hands[seat] ^= bit
            out_cards[job, card] = card_value
