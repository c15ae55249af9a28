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
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..cards import RANKS_PER_SUIT, iter_mask
from ..engine.results import DealResult
from ..rules import NO_TRUMP, Rules, legal_core, underbuy_code, winning_position
from ..solver.search import Position
from ..state import DealState

if TYPE_CHECKING:
    from ..solver.variants import VariantMoment


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
    return all(
        _allowed(
            inference,
            layout[inference.seat] | (moment.played_by[inference.seat] & ~inference.played_before),
            trump_code,
            rules,
        )
        for inference in moment.inferences
    )


def _allowed(inference: Inference | VariantInference, held: int, trump_code: int, rules: Rules) -> bool:
    """Whether the card an inference saw played was legal from the hand ``held`` (the one check
    both the four-player and the variants' layouts make of each earlier play)."""
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
    return bool(allowed >> inference.card & 1)


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
    hidden: int, others: Sequence[int], forbidden: Mapping[int, int]
) -> list[tuple[tuple[int, ...], list[int]]]:
    by_seats: dict[tuple[int, ...], list[int]] = {}
    for card in iter_mask(hidden):
        seats = tuple(s for s in others if not forbidden[s] >> card & 1)
        by_seats.setdefault(seats, []).append(int(card))
    return sorted(by_seats.items())


class HiddenCardSampler:
    """The ways to deal some hidden cards into places of given sizes, counted once, drawn as needed.

    A place is a seat's hand or any other spot a card may lie unseen (a face-down table card,
    the laid-aside cards): a key with how many cards it takes and the cards it cannot hold.
    Layouts are drawn uniformly at random (with replacement) from ``rng``, one after the other,
    so drawing 20 and then 30 more gives the same 50 as drawing 50 at once; a draw that fails
    ``accepts`` (the full rule, when the per-card inferences cannot say it all) is drawn again.
    """

    def __init__(
        self,
        hidden: int,
        needs: dict[int, int],
        forbidden: Mapping[int, int],
        rng: random.Random,
        accepts: Callable[[dict[int, int]], bool] | None = None,
    ) -> None:
        """:param hidden: the cards to deal (a mask).
        :param needs: per place, how many of them it takes (they add up to the hidden cards).
        :param forbidden: per place, the cards it cannot hold; when they leave no way to deal the
            cards (a record with an unflagged oddity), they are ignored, and so is ``accepts``.
        :param rng: the random source (seeded by the caller, so results repeat).
        :param accepts: the full check of a layout (place -> mask), when there is one.
        """
        places = sorted(needs)
        self._rng = rng
        groups = _group(hidden, places, forbidden)
        splits = [] if any(not seats for seats, _ in groups) else list(_splits(groups, needs))
        if not splits:
            groups = _group(hidden, places, dict.fromkeys(places, 0))
            splits = list(_splits(groups, needs))
            accepts = None
        self._groups = groups
        self._splits = splits
        self._accepts = accepts
        self._cumulative = list(itertools.accumulate(weight for _, weight in splits))
        self.total = sum(weight for _, weight in splits)
        """How many layouts agree with the places' sizes and exclusions (before the full check)."""

    def _agrees(self, partial: dict[int, int]) -> bool:
        return self._accepts is None or self._accepts(partial)

    def every(self) -> list[dict[int, int]]:
        """Every layout once (only for a small :attr:`total`), those the full check accepts."""
        found = (partial for split, _ in self._splits for partial in _assignments(self._groups, split))
        return [partial for partial in found if self._agrees(partial)]

    def draw(self, count: int) -> list[dict[int, int]]:
        """The next ``count`` layouts drawn at random (fewer only when draws keep failing the full check)."""
        rng = self._rng
        drawn: list[dict[int, int]] = []
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
                if self._agrees(partial):
                    drawn.append(partial)
                    break
        return drawn


class LayoutSampler:
    """The layouts that agree with what the player at one moment of a four-player deal knew:
    counted once, drawn as needed (:class:`HiddenCardSampler`, each other seat's hand a place)."""

    def __init__(self, moment: Moment, trump: int | None, rules: Rules, rng: random.Random) -> None:
        """:param moment: the play, with the true hands (only the player's own and the counts are used).
        :param rng: the random source (seeded by the caller, so results repeat).
        """
        self.moment = moment
        self._trump = trump
        self._rules = rules
        viewer = moment.seat
        hands = moment.position.hands
        others = [s for s in range(4) if s != viewer]
        hidden = 0
        for seat in others:
            hidden |= hands[seat]
        self._cards = HiddenCardSampler(
            hidden,
            {seat: hands[seat].bit_count() for seat in others},
            dict(enumerate(moment.forbidden)),
            rng,
            lambda partial: agrees(moment, self._full(partial), trump, rules),
        )
        self.total = self._cards.total
        """How many layouts agree with what the player knew (before the full check)."""

    def _full(self, partial: dict[int, int]) -> tuple[int, int, int, int]:
        layout = [0, 0, 0, 0]
        layout[self.moment.seat] = self.moment.position.hands[self.moment.seat]
        for seat, mask in partial.items():
            layout[seat] = mask
        return (layout[0], layout[1], layout[2], layout[3])

    def every(self) -> Layouts:
        """Every layout once: the exact average (only for a small :attr:`total`)."""
        found = [self._full(partial) for partial in self._cards.every()]
        return Layouts(found, True, len(found))

    def draw(self, count: int) -> list[tuple[int, int, int, int]]:
        """The next ``count`` layouts drawn at random (fewer only when draws keep failing the full check)."""
        return [self._full(partial) for partial in self._cards.draw(count)]


EVERY_LAYOUT_FACTOR = 4
"""A play whose layouts number at most this many times the samples asked for is solved on every
one of them. Few layouts mean few cards left, each solved in microseconds; drawn (with
replacement), 50 draws out of 60 layouts left a fifth of them unseen and some counted twice, and
read a card that cost 3.3 card points as 2.5, too unsure to be called a mistake."""


def solves_every(total: int, samples: int) -> bool:
    """Whether a play with ``total`` layouts is averaged over all of them rather than ``samples``
    drawn (:data:`EVERY_LAYOUT_FACTOR`).

    >>> solves_every(60, 50), solves_every(200, 50), solves_every(201, 50)
    (True, True, False)
    """
    return total <= samples * EVERY_LAYOUT_FACTOR


def find_layouts(
    moment: Moment, trump: int | None, rules: Rules, samples: int, rng: random.Random
) -> Layouts:
    """The layouts the player at ``moment`` averages over: all of them when there are few
    (:func:`solves_every`), otherwise ``samples`` drawn uniformly at random (with replacement).

    :param moment: the play, with the true hands (only the player's own and the counts are used).
    :param samples: how many layouts to draw.
    :param rng: the random source (seeded by the caller, so results repeat).
    """
    sampler = LayoutSampler(moment, trump, rules, rng)
    if solves_every(sampler.total, samples):
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


# --------------------------------------------------------------------------- the other variants


@dataclass(frozen=True, slots=True)
class VariantInference:
    """A legal play by a seat of a variant deal, and what it tells about that seat's hand."""

    seat: int
    """Who played."""
    card: int
    """The card played (from the hand or face up from the table)."""
    led: int
    """The suit led."""
    best: int
    """The card winning the trick before the play."""
    partner_winning: bool
    """Whether the seat's side was winning."""
    hand_played_before: int
    """The cards the seat had played from its hand before this play."""
    tops: int
    """The seat's face-up table cards then: held as surely as the hand."""


@dataclass(frozen=True, slots=True)
class VariantView:
    """One play of a variant deal and what everyone knew then (:class:`Moment`'s counterpart)."""

    moment: VariantMoment
    """The play, with the engine's state before it (every hand and table card)."""
    forbidden: tuple[int, ...]
    """Per seat, the cards everyone knows it does not hold in the hand (shown by its plays)."""
    inferences: tuple[VariantInference, ...]
    """The earlier plays that taught something, to check layouts against."""
    hand_played: tuple[int, ...]
    """Per seat, the cards it has played from its hand so far (before this play)."""


def iter_variant_views(deal: DealResult, rules: Rules) -> Iterator[VariantView]:
    """Every play of a variant deal with the public inferences so far, as :func:`iter_moments`
    finds them in the four-player game: the engine's rule function, card by card, on the
    seat's hand and its face-up table cards.

    :param deal: a replayed variant deal whose cards are known.
    :param rules: the match's rules.
    """
    # imported here, as the solver's kernel is: the variant search's module loads numba
    from ..solver.variants import iter_variant_moments

    trump_code = NO_TRUMP if deal.trump is None else int(deal.trump)
    players = rules.shape.players
    forbidden = [0] * players
    hand_played = [0] * players
    shown: list[VariantInference] = []
    played = 0
    for moment in iter_variant_moments(deal, rules):
        yield VariantView(moment, tuple(forbidden), tuple(shown), tuple(hand_played))
        state = moment.state.move_to_empty_place(moment.seat) if moment.moved else moment.state
        seat, card = moment.seat, moment.card
        from_hand = bool(state.hands[seat] >> card & 1)
        if state.trick and moment.is_legal:
            tops = state.playable(seat) & ~state.hands[seat]
            inference = VariantInference(
                seat,
                card,
                state.trick[0] // RANKS_PER_SUIT,
                state.trick[winning_position(state.trick, state.trump)],
                state.partner_winning(),
                hand_played[seat],
                tops,
            )
            shown.append(inference)
            for other in iter_mask(rules.shape.deck_mask & ~played & ~(1 << card) & ~tops):
                if not _allowed(inference, (1 << card) | (1 << other) | tops, trump_code, rules):
                    forbidden[seat] |= 1 << other
        if from_hand:
            hand_played[seat] |= 1 << card
        played |= 1 << card


def variant_agrees(view: VariantView, hands: Sequence[int], trump: int | None, rules: Rules) -> bool:
    """Whether the hands of a layout agree in full with every earlier inference of ``view``
    (the hand a seat held then is its hand now plus the hand cards it played since)."""
    trump_code = NO_TRUMP if trump is None else trump
    return all(
        _allowed(
            inference,
            hands[inference.seat]
            | (view.hand_played[inference.seat] & ~inference.hand_played_before)
            | inference.tops,
            trump_code,
            rules,
        )
        for inference in view.inferences
    )


def seats_seen(seat: int, dealer: int, rules: Rules) -> frozenset[int]:
    """The seats whose hands the person playing ``seat`` sees: their own, and in ``three_dummy``
    the dealer plays the dummy (which has no hand, only table cards) as well as their own."""
    if rules.shape.sides == "dealer_and_dummy" and seat in (dealer, 3):
        return frozenset((dealer, 3))
    return frozenset((seat,))


ASIDE = -1
"""The place of the laid-aside cards among a variant layout's places (a seat's hand is its seat)."""
UNDER = 100
"""A face-down table card's place: ``UNDER + seat * 4 + pile``."""


class VariantLayoutSampler:
    """The layouts of the cards the person at one play of a variant deal could not see, as
    :class:`LayoutSampler` draws them in the four-player game.

    Hidden are the other seats' hands, every face-down table card (their owner does not see them
    either), and the laid-aside cards to anyone but the one who laid them aside. Seen are the
    person's own hand (the dealer's and the dummy's in ``three_dummy``), every face-up table card
    and every card played. A hand cannot hold what its plays ruled out (:func:`iter_variant_views`).
    """

    def __init__(
        self,
        view: VariantView,
        deal: DealResult,
        rules: Rules,
        rng: random.Random,
        *,
        viewer: int | None = None,
    ) -> None:
        """:param view: the play.
        :param deal: the deal (who laid cards aside, and which).
        :param rng: the random source (seeded by the caller, so results repeat).
        :param viewer: the seat whose view it is (default: the seat to play).
        """
        self.view = view
        moment = view.moment
        # a seat that moved a table card first saw the card it turned up before choosing its card
        state = moment.state.move_to_empty_place(moment.seat) if moment.moved else moment.state
        self.state = state
        seat = view.moment.seat if viewer is None else viewer
        seen = seats_seen(seat, deal.dealer, rules)
        trump = None if deal.trump is None else int(deal.trump)
        needs: dict[int, int] = {}
        hidden = 0
        for other, hand in enumerate(state.hands):
            if other not in seen and hand:
                needs[other] = hand.bit_count()
                hidden |= hand
        for owner, piles in enumerate(state.table):
            for number, pile in enumerate(piles):
                if len(pile) > 1:
                    needs[UNDER + owner * 4 + number] = len(pile) - 1
                    hidden |= sum(1 << card for card in pile[:-1])
        chooser = deal.dealer if deal.chooser is None else deal.chooser
        if deal.discards and chooser not in seen:
            needs[ASIDE] = deal.discards.bit_count()
            hidden |= deal.discards
        forbidden = {place: view.forbidden[place] if 0 <= place < UNDER else 0 for place in needs}
        self._cards = HiddenCardSampler(
            hidden,
            needs,
            forbidden,
            rng,
            lambda partial: variant_agrees(view, self._hands(partial), trump, rules),
        )
        self.total = self._cards.total
        """How many layouts agree with what the person knew (before the full check)."""

    def _hands(self, partial: dict[int, int]) -> list[int]:
        hands = list(self.state.hands)
        for place, mask in partial.items():
            if 0 <= place < UNDER:
                hands[place] = mask
        return hands

    def state_of(self, partial: dict[int, int]) -> DealState:
        """The engine's state of one layout: its hands and face-down table cards in place (the
        laid-aside cards are out of play: they only leave the others' places)."""
        table = self.state.table
        if table:
            table = tuple(
                tuple(
                    (*_cards_of(partial[UNDER + owner * 4 + number]), pile[-1])
                    if UNDER + owner * 4 + number in partial
                    else pile
                    for number, pile in enumerate(piles)
                )
                for owner, piles in enumerate(table)
            )
        return self.state._replace(hands=tuple(self._hands(partial)), table=table)

    def every(self) -> list[DealState]:
        """Every layout once (only for a small :attr:`total`)."""
        return [self.state_of(partial) for partial in self._cards.every()]

    def draw(self, count: int) -> list[DealState]:
        """The next ``count`` layouts drawn at random."""
        return [self.state_of(partial) for partial in self._cards.draw(count)]


def _cards_of(mask: int) -> tuple[int, ...]:
    return tuple(int(card) for card in iter_mask(mask))
