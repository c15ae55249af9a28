"""What a player could know at each play, and the layouts of the hidden cards that agree with it.

A player sees their own hand, every card played and who played it, and the trump call. From
the plays they also learn what others do *not* hold: a seat that did not follow suit has none
of that suit, a seat that did not overtake or buy while an opponent was winning holds nothing
that would have won, a seat that underbought holds nothing else. Those inferences come from
the engine's own legal-play function (:func:`manillen_replay.rules.legal_core`): a card
``y`` is ruled out for a seat when holding it would have made the card played illegal. Every
sampled layout is checked against the full rule again, so a rule that does not work card by
card could never slip a wrong layout through. Illegal plays (recorded as violations) teach
nothing and are skipped.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..cards import RANKS_PER_SUIT, iter_mask
from ..engine.results import DealResult
from ..rules import NO_TRUMP, Rules, legal_core, underbuy_code, winning_position
from ..solver.search import Position


@dataclass(frozen=True, slots=True)
class Inference:
    """A legal play by another seat, and what it tells about that seat's hand."""

    seat: int
    """Who played."""
    card: int
    """The card played."""
    led: int
    """The suit led."""
    best: int
    """The card winning the trick before the play."""
    partner_winning: bool
    """Whether the seat's partner was winning."""
    played_before: int
    """The cards the seat had played before this play."""


@dataclass(frozen=True, slots=True)
class Moment:
    """One play of a deal: the position before it and what everyone knew then."""

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
    position: Position
    """All four hands and the trick before the play."""
    legal: int
    """The cards the seat could legally play (from the engine)."""
    forbidden: tuple[int, int, int, int]
    """Per seat, the cards everyone knows it does not hold (shown by its earlier plays)."""
    inferences: tuple[Inference, ...]
    """The earlier plays that taught something, to check layouts against."""
    played_by: tuple[int, int, int, int]
    """Per seat, the cards it has played so far (before this play)."""

    @property
    def is_legal(self) -> bool:
        """Whether the card played was legal."""
        return bool(self.legal >> self.card & 1)


def iter_moments(deal: DealResult, rules: Rules, *, inferences: bool = True) -> Iterator[Moment]:
    """Every play of a deal with the position before it and the public inferences so far.

    :param deal: a replayed deal whose hands are known (``deal.hands``).
    :param rules: the match's rules.
    :param inferences: work out what each play showed; without it every moment's
        ``forbidden`` and ``inferences`` stay empty (for hindsight, where all hands are known,
        this is most of the time spent here).
    """
    assert deal.hands is not None
    trump = None if deal.trump is None else int(deal.trump)
    trump_code = NO_TRUMP if trump is None else trump
    exempt = rules.partner_exempt
    underbuy = underbuy_code(rules)
    hands = list(deal.hands)
    forbidden = [0, 0, 0, 0]
    played_by = [0, 0, 0, 0]
    shown: list[Inference] = []
    played = 0
    index = 0
    for trick in deal.tricks:
        cards = [int(c) for c in trick.cards]
        for offset, (seat, card) in enumerate(zip(trick.seats, cards, strict=True)):
            before = tuple(cards[:offset])
            position = Position((hands[0], hands[1], hands[2], hands[3]), before, trick.leader)
            moment = Moment(
                index,
                trick.number,
                offset + 1,
                seat,
                card,
                position,
                trick.legal[offset],
                (forbidden[0], forbidden[1], forbidden[2], forbidden[3]),
                tuple(shown),
                (played_by[0], played_by[1], played_by[2], played_by[3]),
            )
            yield moment
            if offset and moment.is_legal and inferences:
                best_position = winning_position(before, trump)
                partner = (trick.leader + best_position) % 2 == seat % 2
                inference = Inference(
                    seat, card, before[0] // RANKS_PER_SUIT, before[best_position], partner, played_by[seat]
                )
                shown.append(inference)
                # every card this seat might still have held: not played before, not this one
                for other in iter_mask(rules.shape.deck_mask & ~played & ~(1 << card)):
                    pair = (1 << card) | (1 << other)
                    allowed = legal_core(
                        inference.led,
                        inference.best,
                        pair,
                        trump_code,
                        partner,
                        exempt,
                        underbuy,
                        rules.overtake_plain_suit,
                    )[0]
                    if not allowed >> card & 1:
                        forbidden[seat] |= 1 << other
            hands[seat] &= ~(1 << card)
            played |= 1 << card
            played_by[seat] |= 1 << card
            index += 1


def agrees(moment: Moment, layout: Sequence[int], trump: int | None, rules: Rules) -> bool:
    """Whether a layout of the hands at ``moment`` agrees in full with every earlier inference.

    The hand a seat held at an earlier play is its hand now plus the cards it played since.
    """
    trump_code = NO_TRUMP if trump is None else trump
    for inference in moment.inferences:
        held = layout[inference.seat] | (moment.played_by[inference.seat] & ~inference.played_before)
        allowed = legal_core(
            inference.led,
            inference.best,
            held,
            trump_code,
            inference.partner_winning,
            rules.partner_exempt,
            underbuy_code(rules),
            rules.overtake_plain_suit,
        )[0]
        if not allowed >> inference.card & 1:
            return False
    return True


@dataclass(frozen=True, slots=True)
class Layouts:
    """The layouts of the hidden cards one player averages over at one play."""

    hands: list[tuple[int, int, int, int]]
    """Each layout: all four hands (the player's own as it was)."""
    exact: bool
    """True when these are all the layouts there are (each counted once), False when sampled."""
    total: int
    """How many layouts agree with what the player knew."""


def _compositions(count: int, limits: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Ways to split ``count`` cards among seats, at most ``limits[i]`` to seat ``i``."""
    if len(limits) == 1:
        if count <= limits[0]:
            yield (count,)
        return
    for first in range(min(count, limits[0]) + 1):
        for rest in _compositions(count - first, limits[1:]):
            yield (first, *rest)


def _splits(
    groups: Sequence[tuple[tuple[int, ...], list[int]]], needs: dict[int, int]
) -> Iterator[tuple[tuple[tuple[int, ...], ...], int]]:
    """Every way to say how many cards of each group go to each of its seats, with its weight
    (the number of layouts it stands for)."""
    if not groups:
        if all(n == 0 for n in needs.values()):
            yield (), 1
        return
    (seats, cards), rest = groups[0], groups[1:]
    for parts in _compositions(len(cards), [needs[s] for s in seats]):
        remaining = dict(needs)
        for seat, part in zip(seats, parts, strict=True):
            remaining[seat] -= part
        ways = math.factorial(len(cards))
        for part in parts:
            ways //= math.factorial(part)
        for tail, weight in _splits(rest, remaining):
            yield (parts, *tail), ways * weight


def _assignments(
    groups: Sequence[tuple[tuple[int, ...], list[int]]], split: Sequence[tuple[int, ...]]
) -> Iterator[dict[int, int]]:
    """Every layout (seat -> mask of hidden cards) of one split."""
    if not groups:
        yield {}
        return
    (seats, cards), parts = groups[0], split[0]

    def deal_group(index: int, left: list[int]) -> Iterator[dict[int, int]]:
        if index == len(seats):
            yield {}
            return
        for chosen in itertools.combinations(left, parts[index]):
            rest = [c for c in left if c not in chosen]
            mask = sum(1 << c for c in chosen)
            for tail in deal_group(index + 1, rest):
                yield {seats[index]: mask, **tail}

    for head in deal_group(0, cards):
        for tail in _assignments(groups[1:], split[1:]):
            merged = dict(tail)
            for seat, mask in head.items():
                merged[seat] = merged.get(seat, 0) | mask
            yield merged


def _group(
    hidden: int, others: Sequence[int], forbidden: Sequence[int]
) -> list[tuple[tuple[int, ...], list[int]]]:
    by_seats: dict[tuple[int, ...], list[int]] = {}
    for card in iter_mask(hidden):
        seats = tuple(s for s in others if not forbidden[s] >> card & 1)
        by_seats.setdefault(seats, []).append(int(card))
    return sorted(by_seats.items())


class LayoutSampler:
    """The layouts that agree with what the player at one moment knew: counted once, drawn as needed.

    Layouts are drawn uniformly at random (with replacement) from ``rng``, one after the
    other, so drawing 20 and then 30 more gives the same 50 as drawing 50 at once.
    """

    def __init__(self, moment: Moment, trump: int | None, rules: Rules, rng: random.Random) -> None:
        """:param moment: the play, with the true hands (only the player's own and the counts are used).
        :param rng: the random source (seeded by the caller, so results repeat).
        """
        self.moment = moment
        self._trump = trump
        self._rules = rules
        self._rng = rng
        viewer = moment.seat
        hands = moment.position.hands
        others = [s for s in range(4) if s != viewer]
        hidden = 0
        for seat in others:
            hidden |= hands[seat]
        needs = {seat: hands[seat].bit_count() for seat in others}
        forbidden: Sequence[int] = moment.forbidden
        groups = _group(hidden, others, forbidden)
        splits = [] if any(not seats for seats, _ in groups) else list(_splits(groups, needs))
        if not splits:
            # the inferences contradict each other (a record with an unflagged oddity): ignore them
            forbidden = (0, 0, 0, 0)
            groups = _group(hidden, others, forbidden)
            splits = list(_splits(groups, needs))
        self._groups = groups
        self._splits = splits
        self._check = forbidden is moment.forbidden
        self._cumulative = list(itertools.accumulate(weight for _, weight in splits))
        self.total = sum(weight for _, weight in splits)
        """How many layouts agree with what the player knew (before the full check)."""

    def _full(self, partial: dict[int, int]) -> tuple[int, int, int, int]:
        layout = [0, 0, 0, 0]
        layout[self.moment.seat] = self.moment.position.hands[self.moment.seat]
        for seat, mask in partial.items():
            layout[seat] = mask
        return (layout[0], layout[1], layout[2], layout[3])

    def _agrees(self, layout: tuple[int, int, int, int]) -> bool:
        return not self._check or agrees(self.moment, layout, self._trump, self._rules)

    def every(self) -> Layouts:
        """Every layout once: the exact average (only for a small :attr:`total`)."""
        found = [
            self._full(partial) for split, _ in self._splits for partial in _assignments(self._groups, split)
        ]
        found = [layout for layout in found if self._agrees(layout)]
        return Layouts(found, True, len(found))

    def draw(self, count: int) -> list[tuple[int, int, int, int]]:
        """The next ``count`` layouts drawn at random (fewer only when draws keep failing the full check)."""
        rng = self._rng
        drawn: list[tuple[int, int, int, int]] = []
        for _ in range(count):
            # a layout that fails the full check is drawn again (never replaced by the true one)
            for _attempt in range(50):
                pick = rng.randrange(self.total)
                split = self._splits[_bisect(self._cumulative, pick)][0]
                partial: dict[int, int] = {}
                for (seats, cards), parts in zip(self._groups, split, strict=True):
                    shuffled = rng.sample(cards, len(cards))
                    start = 0
                    for seat, part in zip(seats, parts, strict=True):
                        partial[seat] = partial.get(seat, 0) | sum(
                            1 << c for c in shuffled[start : start + part]
                        )
                        start += part
                candidate = self._full(partial)
                if self._agrees(candidate):
                    drawn.append(candidate)
                    break
        return drawn


def find_layouts(
    moment: Moment, trump: int | None, rules: Rules, samples: int, rng: random.Random
) -> Layouts:
    """The layouts the player at ``moment`` averages over: all of them when there are at most
    ``samples``, otherwise ``samples`` drawn uniformly at random (with replacement).

    :param moment: the play, with the true hands (only the player's own and the counts are used).
    :param samples: how many layouts to draw.
    :param rng: the random source (seeded by the caller, so results repeat).
    """
    sampler = LayoutSampler(moment, trump, rules, rng)
    if sampler.total <= samples:
        return sampler.every()
    return Layouts(sampler.draw(samples), False, sampler.total)


def _bisect(cumulative: Sequence[int], pick: int) -> int:
    """The index of the first cumulative weight above ``pick``."""
    low, high = 0, len(cumulative) - 1
    while low < high:
        middle = (low + high) // 2
        if cumulative[middle] > pick:
            high = middle
        else:
            low = middle + 1
    return low
