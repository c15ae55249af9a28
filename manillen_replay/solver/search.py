"""The Python face of the compiled search: positions in, card points out.

A :class:`Position` is what :func:`solve_position` and the cost functions hand to the compiled
kernel; :func:`solve_batch` runs many positions of one deal on several threads (the kernel
releases the GIL), each with its own transposition table from a small pool.
"""

from __future__ import annotations

import itertools
import queue
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial

import numpy as np

from ..cards import CARD_POINTS, CARD_TEXT, DECK_32_MASK, RANKS_PER_SUIT, iter_mask
from ..errors import ManillenError
from ..machine import usable_cores
from ..rules import NO_TRUMP, Rules, legal_core, underbuy_code, winning_position

# The compiled kernel (numba) is imported by the functions that run it, not here: loading numba
# and declaring the kernel costs a third of a second, which every command that only reads this
# module's positions and errors (the archive's, through the analysis) would pay at start-up.

SUIT_PATTERN_POINTS: tuple[int, ...] = tuple(
    sum(CARD_POINTS[rank] for rank in range(RANKS_PER_SUIT) if pattern >> rank & 1)
    for pattern in range(1 << RANKS_PER_SUIT)
)
"""The card points of any set of ranks of one suit (a 9-bit pattern): a mask's points in four
look-ups (positions are counted many times a deal)."""


class SolverError(ManillenError):
    """A position the solver cannot take: wrong variant, cards twice, hands that do not add up."""


@dataclass(frozen=True, slots=True)
class Position:
    """A moment of a four-player deal: who holds what and the cards of the current trick."""

    hands: tuple[int, int, int, int]
    """The cards each seat still holds, as masks."""
    trick: tuple[int, ...]
    """The cards already played to the current trick, the leader's first (at most three)."""
    leader: int
    """The seat that led the current trick (or leads next, with an empty trick)."""

    @property
    def to_play(self) -> int:
        """The seat whose turn it is."""
        return (self.leader + len(self.trick)) % 4

    @property
    def points_in_play(self) -> int:
        """The card points still to be taken: the hands and the cards on the table."""
        cards = self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3]
        for card in self.trick:
            cards |= 1 << card
        return (
            SUIT_PATTERN_POINTS[cards & 511]
            + SUIT_PATTERN_POINTS[cards >> 9 & 511]
            + SUIT_PATTERN_POINTS[cards >> 18 & 511]
            + SUIT_PATTERN_POINTS[cards >> 27 & 511]
        )

    def legal_mask(self, trump: int | None, rules: Rules) -> int:
        """The cards the seat to play may play, by the engine's rules."""
        hand = self.hands[self.to_play]
        if not self.trick:
            return hand
        position = winning_position(self.trick, trump)
        partner_winning = (self.leader + position) % 2 == self.to_play % 2
        return legal_core(
            self.trick[0] // RANKS_PER_SUIT,
            self.trick[position],
            hand,
            NO_TRUMP if trump is None else trump,
            partner_winning,
            rules.partner_exempt,
            underbuy_code(rules),
            rules.overtake_plain_suit,
        )[0]


def check_position(position: Position, rules: Rules, *, first_seat: int = 0) -> None:
    """Refuse what the solver cannot take, with a message that says what is wrong.

    :param first_seat: the number the messages give seat 0 (1 for the command line, which
        counts seats 1 to 4).
    :raises SolverError: for another variant than ``four``, a card held or played twice, a
        card not in the 32-card deck, a trick of four or more cards, or hand sizes that do not
        fit the trick (the seats still to play hold one card more than those who played).
    """
    if rules.variant != "four":
        raise SolverError(f"the solver plays the four-player game only, not {rules.variant!r}")
    if len(position.hands) != 4:
        raise SolverError(f"four hands are needed, got {len(position.hands)}")
    if not 0 <= position.leader <= 3:
        raise SolverError(
            f"the leader is a seat {first_seat} to {3 + first_seat}, not {position.leader + first_seat}"
        )
    if len(position.trick) > 3:
        raise SolverError("a trick holds at most three cards before the seat to play")
    seen = 0
    for mask in (*position.hands, *(1 << c for c in position.trick)):
        if mask & seen:
            names = " ".join(CARD_TEXT[c] for c in iter_mask(mask & seen))
            raise SolverError(f"card given twice: {names}")
        if mask & ~DECK_32_MASK:
            names = " ".join(CARD_TEXT[c] for c in iter_mask(mask & ~DECK_32_MASK))
            raise SolverError(f"not in the 32-card deck: {names}")
        seen |= mask
    size = position.hands[position.to_play].bit_count()
    if size == 0:
        raise SolverError(f"seat {position.to_play + first_seat} is to play but holds no card")
    for offset in range(4):
        seat = (position.leader + offset) % 4
        expected = size - 1 if offset < len(position.trick) else size
        held = position.hands[seat].bit_count()
        if held != expected:
            raise SolverError(
                f"seat {seat + first_seat} holds {held} card{'' if held == 1 else 's'} but should hold "
                f"{expected}: seats that played to the trick hold one card less than the others"
            )


class _Worker:
    """One thread's transposition table and stack; a new generation empties the table."""

    def __init__(self) -> None:
        from . import _kernel

        self.table = _kernel.new_table()
        self.work = _kernel.new_workspace()
        self.generation = 0
        _WORKERS.append(self)

    def next_generation(self) -> int:
        from . import _kernel

        self.generation += 1
        if self.generation % _kernel.GENERATIONS == 0:
            # the table's keys keep only the low bits of the generation: empty it before they repeat
            self.table[:] = 0
        return self.generation


_POOL: queue.SimpleQueue[_Worker] = queue.SimpleQueue()
_WORKERS: list[_Worker] = []
"""Every worker made (as many as threads ever ran at once: a handful), for :func:`nodes_searched`."""


def _visited(worker: _Worker) -> int:
    """Positions ``worker`` has visited in its life (its workspace counts them)."""
    return int(worker.work[3][0])


def nodes_searched() -> int:
    """Positions the search has visited in this process so far: the work done, whatever the
    machine's speed (``make bench`` reports it beside the times)."""
    return sum(map(_visited, list(_WORKERS)))


def nodes_per_worker() -> list[int]:
    """Positions each worker (one per thread that ever solved at once) has visited so far: the
    busier thread's share of a call is what a user waits for when the cores are free."""
    return [_visited(worker) for worker in list(_WORKERS)]


def _borrow() -> _Worker:
    try:
        return _POOL.get_nowait()
    except queue.Empty:
        return _Worker()


class DealTables:
    """Transposition tables kept for every solve of one deal: a position solved for one play (or
    one layout) is known when another play or layout reaches it again.

    Holds one table per thread, borrowed from the pool and given back by :meth:`close` (or at
    the end of a ``with`` block). A table's entries are valid for one trump and one set of
    house rules, so each of those gets a generation of its own, kept while the deal lasts.
    """

    def __init__(self, workers: int = 1) -> None:
        """:param workers: threads the solves of the deal share out (one table each)."""
        self.workers = [_borrow() for _ in range(max(1, workers))]
        self._generations: list[dict[tuple[int, bool, int, bool], int]] = [{} for _ in self.workers]

    def generation(self, index: int, key: tuple[int, bool, int, bool]) -> int:
        """The generation of worker ``index``'s table for one trump and set of rules."""
        known = self._generations[index]
        if key not in known:
            # a deal has at most five trumps: far fewer than the generations a key tells apart
            known[key] = self.workers[index].next_generation()
        return known[key]

    def nodes_searched(self) -> int:
        """Positions these tables' workers have visited so far, over their lives (the work of a
        stretch of solves is the difference of two readings)."""
        return sum(map(_visited, self.workers))

    def close(self) -> None:
        """Give the tables back to the pool."""
        for worker in self.workers:
            _POOL.put(worker)
        self.workers = []

    def __enter__(self) -> DealTables:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def default_workers() -> int:
    """As many worker threads as this process has cores (:func:`usable_cores`)."""
    return usable_cores()


def solve_batch(
    positions: Sequence[Position],
    trump: int | None,
    rules: Rules,
    *,
    every_card: bool = True,
    follows: Sequence[int] | None = None,
    precedes: Sequence[int] | None = None,
    workers: int = 1,
    tables: DealTables | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Solve positions of one deal; values are team 0's card points from each position on.

    :param positions: checked positions (see :func:`check_position`).
    :param trump: the trump suit, ``None`` for muil.
    :param every_card: also value each legal card of the seat to play.
    :param follows: for each position, the card whose play led to it from the position
        before it in the list, or -1: the value found there seeds this one (only with one worker).
    :param precedes: for each position, the card whose play leads from it to the position
        before it in the list, or -1: that card's value is then known, and bounds this
        position's (only with one worker). Solving a deal's positions from the last play back
        to the first this way is what :func:`~manillen_replay.analysis.costs.dd_costs` does.
    :param workers: threads to share the positions among.
    :param tables: the deal's tables, kept between calls (at most one thread per table);
        without them each call starts from empty tables.
    :returns: ``(values, cards)``: ``values[i]`` for position ``i``, and ``cards[i, c]`` for
        card ``c`` (-1 for a card the seat may not play; all -1 without ``every_card``).
    """
    from . import _kernel

    count = len(positions)
    hints = np.full(count, -1, dtype=np.int64)
    for base, cards in ((_kernel.FOLLOWS, follows), (_kernel.PRECEDES, precedes)):
        if cards is not None and workers == 1:
            given = _hints(base, cards)
            hints = np.where(given >= 0, given, hints)
    if workers > 1 or not (hints >= 0).any():
        return solve_groups(
            [(positions, trump)], rules, every_card=every_card, workers=workers, tables=tables
        )[0]
    worker = _borrow() if tables is None else tables.workers[0]
    key = _key(trump, rules)
    try:
        generation = worker.next_generation() if tables is None else tables.generation(0, key)
        return _solve_on(worker, generation, positions, hints, key, every_card=every_card)
    finally:
        if tables is None:
            _POOL.put(worker)


def _key(trump: int | None, rules: Rules) -> tuple[int, bool, int, bool]:
    """What a table's entries hold for: the trump and the three house rules the search plays."""
    return (
        NO_TRUMP if trump is None else int(trump),
        rules.partner_exempt,
        underbuy_code(rules),
        rules.overtake_plain_suit,
    )


CHUNKS_PER_WORKER = 4
"""A thread takes at most 1/(this x threads) of the positions left at a time: big pieces while
many are left, single positions at the end, so no thread waits long for another."""


def solve_groups(
    groups: Sequence[tuple[Sequence[Position], int | None]],
    rules: Rules,
    *,
    every_card: bool = True,
    workers: int = 1,
    tables: DealTables | None = None,
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Positions of one deal in groups of one trump each (a trump review's contracts), shared
    out among threads: each thread takes the next few positions whenever it is free.

    :param groups: ``(positions, trump)`` pairs (``None`` for muil).
    :param workers: threads to share the positions among.
    :param tables: the deal's tables, kept between calls (one thread per table).
    :returns: per group ``(values, cards)``, as :func:`solve_batch`.
    """
    results = [
        (np.zeros(len(positions), dtype=np.int64), np.full((len(positions), 36), -1, dtype=np.int64))
        for positions, _ in groups
    ]
    total = sum(len(positions) for positions, _ in groups)
    threads = max(1, min(workers, total, len(tables.workers) if tables is not None else workers))
    pieces: list[tuple[int, int, int]] = []
    left = total
    for number, (positions, _) in enumerate(groups):
        start = 0
        while start < len(positions):
            size = min(len(positions) - start, max(1, left // (CHUNKS_PER_WORKER * threads)))
            pieces.append((number, start, start + size))
            start += size
            left -= size
    pieces.reverse()
    lock = threading.Lock()
    no_hints = np.full(total, -1, dtype=np.int64)

    def run(index: int) -> None:
        worker = _borrow() if tables is None else tables.workers[index]
        generations: dict[tuple[int, bool, int, bool], int] = {}
        try:
            while True:
                with lock:
                    if not pieces:
                        return
                    number, start, stop = pieces.pop()
                positions, trump = groups[number]
                key = _key(trump, rules)
                if key not in generations:
                    generations[key] = (
                        worker.next_generation() if tables is None else tables.generation(index, key)
                    )
                values, cards = _solve_on(
                    worker, generations[key], positions[start:stop], no_hints[: stop - start], key,
                    every_card=every_card,
                )  # fmt: skip
                results[number][0][start:stop] = values
                results[number][1][start:stop] = cards
        finally:
            if tables is None:
                _POOL.put(worker)

    _run_together([partial(run, index) for index in range(threads)])
    return results


def _run_together(jobs: Sequence[Callable[[], None]]) -> None:
    """Run ``jobs`` at once, the first on the calling thread, the others on :func:`_threads`."""
    others = [_threads().submit(job) for job in jobs[1:]]
    try:
        if jobs:
            jobs[0]()
    finally:
        for future in others:
            future.result()


_EXECUTOR: ThreadPoolExecutor | None = None
_EXECUTOR_LOCK = threading.Lock()


def _threads() -> ThreadPoolExecutor:
    """The threads solves run on, started once per process: two per core, since two reviews
    may share their positions out at once (each caller thread also solves a share itself)."""
    global _EXECUTOR
    with _EXECUTOR_LOCK:
        if _EXECUTOR is None:
            _EXECUTOR = ThreadPoolExecutor(max_workers=2 * default_workers(), thread_name_prefix="solver")
        return _EXECUTOR


def _hints(base: int, cards: Sequence[int]) -> np.ndarray:
    """Job hints ``base + card`` from the second position on, -1 where no card is given."""
    return np.array(
        [base + card if card >= 0 and index > 0 else -1 for index, card in enumerate(cards)], dtype=np.int64
    )


def _solve_on(
    worker: _Worker,
    generation: int,
    positions: Sequence[Position],
    hints: Sequence[int] | np.ndarray,
    key: tuple[int, bool, int, bool],
    *,
    every_card: bool,
) -> tuple[np.ndarray, np.ndarray]:
    """Positions solved in order on one worker's table: the kernel's ``solve_jobs``.

    :param hints: per position, a job hint (``_kernel.FOLLOWS`` or ``PRECEDES`` plus a card) or -1.
    """
    from . import _kernel

    count = len(positions)
    hands = np.array([p.hands for p in positions], dtype=np.int64).reshape(count, 4)
    boards = np.zeros((count, 4), dtype=np.int64)
    for index, position in enumerate(positions):
        boards[index, : len(position.trick)] = position.trick
    ntable = np.array([len(p.trick) for p in positions], dtype=np.int64)
    leaders = np.array([p.leader for p in positions], dtype=np.int64)
    cards = np.full((count, 36), -1, dtype=np.int64)
    values = np.zeros(count, dtype=np.int64)
    _kernel.solve_jobs(
        hands, boards, ntable, leaders, np.asarray(hints, dtype=np.int64), key[0], key[1], key[2], key[3],
        every_card, worker.table, generation, worker.work, cards, values,
    )  # fmt: skip
    return values, cards


def solve_line(
    positions: Sequence[Position],
    played: Sequence[int],
    trump: int | None,
    rules: Rules,
    *,
    workers: int = 1,
) -> tuple[np.ndarray, np.ndarray]:
    """Every position of one line of play and every legal card there: the positions solved from
    the last back to the first (as :func:`solve_batch` with ``precedes``), on ``workers`` threads
    that share one transposition table.

    The first position (all cards out) is most of the work. It is valued card by card
    (:class:`_CardSearch`), each card's first probe at the best value found so far, starting
    from the value of the card actually led (the second position's value, the likeliest value
    of the first): no separate search for the position's own value, which is the best card's.
    With two or more threads, one solves the line back to the second position while the others
    start at once on the first position's other cards (the very first from half the points in
    play, nothing being known yet); each thread takes those cards one at a time, and one with
    no card left to start probes another's card elsewhere in its range. (Solving the second
    position apart, on another thread, so that every card started from its value, searched
    more positions in all: measured in docs/solver.md.) All threads read and write one table
    (:func:`~._kernel.is_entry_of` says why a half-written entry is a miss, not a mix), so a
    position one thread solved is known to the others. Each card's value is exact whichever
    thread finds it.

    :param positions: the positions in the order played; ``positions[i + 1]`` follows from
        ``positions[i]`` by the play of ``played[i]`` (-1 where it does not: an illegal card).
    :param played: the card played from each position.
    :returns: ``(values, cards)`` as :func:`solve_batch`, in the order of ``positions``.
    """
    from . import _kernel

    count = len(positions)
    backwards = list(positions[::-1])
    precedes = list(played[::-1])
    first = positions[0] if count else None
    if count < 2 or first is None or first.trick or played[0] < 0:
        values, cards = solve_batch(backwards, trump, rules, precedes=precedes)
        return values[::-1], cards[::-1]
    threads = max(1, workers)
    with DealTables(threads) as tables:
        key = _key(trump, rules)
        generation = tables.generation(0, key)
        shared = tables.workers[0].table
        best: list[int] = []  # the best value of the first position's cards found so far
        line: list[tuple[np.ndarray, np.ndarray]] = []
        row = np.full(36, -1, dtype=np.int64)
        legal = first.legal_mask(trump, rules)
        twins = _twins(first, legal)
        # lowest first, taken from the end: highest first
        searched = [card for card, twin in twins.items() if twin < 0 and card != played[0]]
        maximising = first.leader % 2 == 0
        lock = threading.Lock()
        started: list[_CardSearch] = []
        probing: list[_CardSearch | None] = [None] * threads  # each thread's card in flight

        def found(value: int) -> None:
            """A card's value is known (called holding ``lock``)."""
            if not best or (value > best[0] if maximising else value < best[0]):
                best[:] = [value]

        def take_cards(index: int) -> None:
            work = tables.workers[index].work
            hands = np.array(first.hands, dtype=np.int64)
            table = np.zeros(4, dtype=np.int64)
            scratch = np.zeros(4, dtype=np.int64)
            in_play = first.points_in_play
            mine: _CardSearch | None = None
            while True:
                with lock:
                    if mine is not None and mine.is_done:
                        mine = None
                    if mine is None and searched:
                        mine = _CardSearch(searched.pop(), 0, in_play)
                        mine.guess = best[0] if best else in_play // 2
                        started.append(mine)
                    target, gamma = mine, -1
                    if mine is not None:
                        gamma = mine.next_gamma(maximising)
                    else:
                        # nothing left to start: probe another thread's card elsewhere in its range
                        for other in sorted(started, key=lambda search: search.low - search.high):
                            gamma = other.spare_gamma()
                            if gamma >= 0:
                                target = other
                                break
                    if target is None or gamma < 0:
                        return
                    target.probing.append(gamma)
                    probing[index] = target
                bound = _kernel.card_bound(
                    hands, table, 0, first.leader, target.card, gamma, key[0], key[1], key[2], key[3],
                    shared, generation, work, scratch,
                )  # fmt: skip
                with lock:
                    probing[index] = None
                    work[3][2] = 0
                    if bound < 0:  # stopped: another thread's probe settled the card meanwhile
                        target.probing.remove(gamma)
                    elif target.record(gamma, int(bound), owner=target is mine):
                        row[target.card] = target.low
                        found(target.low)
                        # the other threads' probes of this card are no longer needed
                        for thread, card_search in enumerate(probing):
                            if card_search is target:
                                tables.workers[thread].work[3][2] = 1

        def solve_rest() -> None:
            hints = _hints(_kernel.PRECEDES, precedes[: count - 1])
            line.append(_solve_on(tables.workers[0], generation, backwards[:-1], hints, key, every_card=True))
            with lock:
                found(int(line[0][0][-1]))
            take_cards(0)

        try:
            _run_together([solve_rest, *(partial(take_cards, index) for index in range(1, threads))])
        finally:
            # a stop request is only ever left unanswered by a thread that failed: never let it
            # reach the next solve on that worker
            for worker in tables.workers:
                worker.work[3][2] = 0
    values_rest, cards_rest = line[0]
    row[played[0]] = values_rest[-1]
    for card, twin in reversed(twins.items()):  # high to low: a twin's twin is valued first
        if twin >= 0:
            row[card] = row[twin]
    legal_values = [int(row[c]) for c in twins]
    top = max(legal_values) if maximising else min(legal_values)
    values = np.concatenate([[top], values_rest[::-1]])
    cards = np.concatenate([row[None, :], cards_rest[::-1]])
    return values, cards


@dataclass(slots=True)
class _CardSearch:
    """One card of a first lead valued probe by probe (``_kernel.card_bound``); threads with
    nothing else to do probe the same card elsewhere in its range, and every probe's bound
    narrows it for all.

    The first probe asks whether the card reaches the best value found so far; each later one
    asks at the bound the last one returned (MTD(f)): fail-soft bounds are mostly tight there.
    Measured on the first leads of the 50 bench deals, one thread: 11.2 million positions,
    against 12.8 million for ``_kernel.card_value``'s steps of 1, 2, 4 and bisection.

    Values are team 0's points; the card's value lies in ``low..high`` and is found when they meet.
    """

    card: int
    low: int
    high: int
    guess: int = 0
    """The first probe's question: does the card reach this (for team 1: stay at or below it)?"""
    probed: bool = False
    """Whether the first probe is in."""
    downward: bool = False
    """Whether the value lies below the first probe's question."""
    probing: list[int] = field(default_factory=list)
    """The probes in flight."""

    @property
    def is_done(self) -> bool:
        return self.low >= self.high

    def next_gamma(self, maximising: bool) -> int:
        """The next probe of the thread that took this card."""
        if not self.probed:
            return self.guess if maximising else self.guess + 1
        return self.high if self.downward else self.low + 1

    def spare_gamma(self) -> int:
        """A probe for a helping thread: the middle of the widest part of the range that no probe
        in flight splits, or -1 when no part holds two values."""
        cuts = sorted({self.low, self.high + 1, *(g for g in self.probing if self.low < g <= self.high)})
        width, gamma = 1, -1
        for below, above in itertools.pairwise(cuts):
            if above - below > width:
                width, gamma = above - below, (below + above) >> 1
        return gamma

    def record(self, gamma: int, bound: int, *, owner: bool) -> bool:
        """Narrow the range by a probe's fail-soft bound; True when that settles the value."""
        self.probing.remove(gamma)
        if self.is_done:
            return False
        reached = bound >= gamma
        if reached:
            self.low = max(self.low, min(bound, self.high))
        else:
            self.high = min(self.high, max(bound, self.low))
        if owner and not self.probed:
            self.probed, self.downward = True, not reached
        return self.is_done


def _twins(position: Position, legal: int) -> dict[int, int]:
    """The legal cards of a trick's lead, lowest first, each with the touching zero-point card
    above it in the same hand whose value it shares (``_kernel.twin_above``), or -1."""
    from . import _kernel

    hands = np.array(position.hands, dtype=np.int64)
    table = np.zeros(4, dtype=np.int64)
    # plain ints: numba types an enum member (a Card) by looking at every member of its class,
    # ~40 microseconds a call holding the GIL, against half a microsecond for an int
    return {
        card: _kernel.twin_above(card, hands, table, 0, position.to_play)
        for card in map(int, iter_mask(legal))
    }


def solve_position(
    hands: tuple[int, ...],
    trick: tuple[int, ...],
    leader: int,
    trump: int | None,
    rules: Rules,
    taken: tuple[int, int] = (0, 0),
) -> dict[int, int]:
    """For the seat to play, each legal card and the card points its team takes from here on.

    Both sides play perfectly with all four hands known. The points of the current trick
    count, the points taken before (``taken``) do not.

    >>> from manillen_replay.cards import CardSet, Card
    >>> hands = tuple(CardSet.parse(h).mask for h in ("AC KC", "10C 8C", "QC 7C", "JC 9C"))
    >>> values = solve_position(hands, (), 0, None, Rules())
    >>> {str(Card(c)): v for c, v in sorted(values.items())}
    {'KC': 6, 'AC': 5}

    :param hands: four card masks, seats 0 to 3.
    :param trick: the cards already played to the current trick, the leader's first.
    :param leader: the seat that led the current trick.
    :param trump: the trump suit (0 to 3) or ``None`` (or :data:`~manillen_replay.rules.NO_TRUMP`) for muil.
    :param rules: the house rules (``partner_exempt``, ``underbuy`` and ``overtake_plain_suit`` matter).
    :param taken: the points each team took before; they must leave room for the cards in play.
    :raises SolverError: for a position the solver cannot take.
    """
    if trump == NO_TRUMP:
        trump = None
    if trump is not None and not 0 <= trump <= 3:
        raise SolverError(f"trump is a suit 0 to 3 or None for muil, not {trump}")
    if len(hands) != 4:
        raise SolverError(f"four hands are needed, got {len(hands)}")
    position = Position((hands[0], hands[1], hands[2], hands[3]), tuple(int(c) for c in trick), leader)
    check_position(position, rules)
    in_play = position.points_in_play
    if min(taken) < 0 or sum(taken) + in_play > 60:
        raise SolverError(f"points taken {taken} and {in_play} in play add up to more than 60")
    _values, cards = solve_batch([position], trump, rules)
    seat = position.to_play
    values: dict[int, int] = {}
    for card in iter_mask(position.legal_mask(trump, rules)):
        team0 = int(cards[0, card])
        values[int(card)] = team0 if seat % 2 == 0 else in_play - team0
    return values
