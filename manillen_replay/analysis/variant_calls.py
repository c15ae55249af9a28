"""Trump and knock review in the variants other than ``four``: the four-player review's questions
(:mod:`.call_review`) asked of the variant search.

The caller sees their own hand and every face-up table card (and, having made trump with the
laid-aside cards, the cards they laid aside); everything else is dealt out at random as the view
costs deal it (:class:`~.layouts.VariantLayoutSampler`, at the deal's start), each layout is
solved for each option by :class:`~manillen_replay.solver.variants.VariantSearch`, and the
options' expected deal scores are compared with the four-player review's sequential rule.

What differs from the four-player review, and why:

- The layouts are drawn uniformly, not given the calls (:mod:`.call_model` is fitted to the
  four-player game only): a variant's call findings are ``info``, as an uncalibrated contract's
  are in the four-player game.
- Where the trump maker takes the laid-aside cards and lays two aside (``three``, ``six_short``),
  each option is played with the hand and the laid-aside cards as they were: which two cards
  another trump would have laid aside is not searched.
- The first to lead may knock in every variant, and sees at the first lead what it saw when it
  knocked: its knock review takes the first play's layouts, in that play's order and from its
  seed, and the searches the first play's view cost makes of them (:class:`~.costs.VariantRows`).
"""

from __future__ import annotations

import random

from ..engine.results import DealResult
from ..engine.variation import call_name
from ..rules import Contract, Rules, mask_points, may_klop, multiplier, trump_options
from ..solver.search import SolverError
from ..solver.variants import VariantSearch, can_solve_variant, map_searches
from ..state import DealState
from .call_review import (
    CallReview,
    Request,
    _option_of,
    _sequential_scores,
    best_first,
    call_factor,
    deal_score,
)
from .costs import VariantRows, deal_trump
from .layouts import VariantLayoutSampler, iter_variant_views

DECK_POINTS = 60
"""Card points of every variant's deck (the 6s of ``six`` are worth nothing)."""


def _start_layouts(
    deal: DealResult, rules: Rules, seat: int, samples: int, seed: int, what: str
) -> list[DealState]:
    """Up to ``samples`` layouts of what ``seat`` could not see when the deal started."""
    view = next(iter_variant_views(deal, rules))
    rng = random.Random(f"{seed}:{deal.number}:{what}")
    sampler = VariantLayoutSampler(view, deal, rules, rng, viewer=seat)
    return sampler.every() if sampler.total <= samples else sampler.draw(samples)


def _side_points(deal: DealResult, rules: Rules, state: DealState, trump: int | None, seat: int) -> int:
    """The card points ``seat``'s side takes in the whole deal from ``state`` (the deal's start)
    under ``trump``, best play by both sides: the laid-aside cards go to the trump maker's
    opponents, whichever they are in the layout."""
    return _StartSearch(deal, rules, state, trump, seat).points()


class _StartSearch:
    """One layout's search from the deal's start under one contract, in the card points of
    ``seat``'s side (:func:`_side_points`): the exact points, or a probe of whether they stay
    within a ceiling. What a probe proved is kept, and the exact search that may follow it
    starts there, on the same search's table."""

    def __init__(self, deal: DealResult, rules: Rules, state: DealState, trump: int | None, seat: int):
        self._search = VariantSearch(rules, deal.dealer, trump)
        self._state = state._replace(trump=trump)
        self._in_play = sum(mask_points(hand) for hand in state.hands) + sum(
            mask_points(sum(1 << card for card in pile)) for piles in state.table for pile in piles
        )
        maker = deal.dealer if deal.chooser is None else deal.chooser
        maker_side = self._search.side_of(maker)
        mine = self._search.side_of(seat) == maker_side
        # the side's points are offset + sign * side 0's points from the start
        self._sign = 1 if (maker_side == 0) == mine else -1
        self._offset = (0 if mine else DECK_POINTS) + (self._in_play if maker_side == 1 else 0) * (
            1 if mine else -1
        )
        self._low = self._side(0 if self._sign > 0 else self._in_play)
        self._high = self._side(self._in_play if self._sign > 0 else 0)

    def _side(self, value: int) -> int:
        """Side 0's points as the points of ``seat``'s side."""
        return self._offset + self._sign * value

    def _value(self, points: int) -> int:
        """The points of ``seat``'s side as side 0's."""
        return (points - self._offset) * self._sign

    def points(self) -> int:
        """The exact points, from what a probe proved (if any)."""
        low, high = sorted((self._value(self._low), self._value(self._high)))
        return self._side(self._search.position_value(self._state, low=low, high=high))

    def at_most(self, ceiling: int) -> int | None:
        """An upper bound of the points, at most ``ceiling``, when the side takes no more than
        that (one probe); ``None`` when it takes more."""
        if ceiling >= self._high:
            return self._high
        if ceiling < self._low:
            return None
        # side 0's points that would take the side above the ceiling, or leave it within it
        gamma = self._value(ceiling) + (1 if self._sign > 0 else 0)
        found = self._side(self._search.position_test(self._state, gamma))
        if found > ceiling:
            self._low = max(self._low, found)
            return None
        self._high = min(self._high, found)
        return self._high


def _check(deal: DealResult, rules: Rules, samples: int) -> None:
    if not can_solve_variant(deal, rules):
        raise SolverError(f"deal {deal.number}: the variant search cannot take this deal")
    if samples < 1:
        raise SolverError(f"samples must be at least 1, not {samples}")


def variant_trump_review(
    deal: DealResult,
    rules: Rules,
    *,
    samples: int = 50,
    seed: int = 0,
    sequential: bool = True,
    prune: bool = True,
) -> CallReview | None:
    """The expected deal score of each trump suit and of muil, from what the trump maker saw
    (``None`` when the rules left one option only).

    :param sequential: stop solving an option once it is clearly worse than the best one, and
        the whole review once one option is clearly best (:func:`~.call_review.clearly_worse`).
    :param prune: with ``sequential``, prune at the early look the options that the call made
        (or an option solved that leads it) beats by :data:`~.call_review.PRUNE_MARGIN` on every
        layout, proved by one null-window probe a layout instead of an exact value (their scores
        are then upper bounds, :attr:`~.call_review.CallOption.bound`; ``_prune`` in
        :mod:`.call_review` says how).
    :raises SolverError: for a deal the variant search cannot take.
    """
    _check(deal, rules, samples)
    assert deal.hands is not None
    seat = deal.dealer if deal.chooser is None else deal.chooser
    turned = None if deal.trump is None else int(deal.trump)
    contracts = {call_name(trump): trump for trump in trump_options(rules, deal.hands[seat], turned)}
    if len(contracts) < 2:
        return None
    factors = {
        name: call_factor(Contract.TRUMP if trump is not None else Contract.MUIL, deal, rules)
        for name, trump in contracts.items()
    }
    layouts = _start_layouts(deal, rules, seat, samples, seed, "trump")
    # a layout's search of an option, kept from its probe to its exact value
    searches: dict[tuple[str, int], _StartSearch] = {}

    def search(name: str, index: int) -> _StartSearch:
        return searches.pop((name, index), None) or _StartSearch(
            deal, rules, layouts[index], contracts[name], seat
        )

    def solve(requests: list[Request]) -> list[list[list[float]]]:
        jobs = [(name, index) for name, start, stop in requests for index in range(start, stop)]
        found = iter(map_searches(lambda job: search(*job).points(), jobs))
        return [
            [
                [float(p), float(deal_score(p, factors[name], rules))]
                for p in (next(found) for _ in range(start, stop))
            ]
            for name, start, stop in requests
        ]

    def probe(asked: list[tuple[str, list[float]]]) -> list[list[list[float] | None]]:
        jobs = [(name, index, ceiling) for name, ceilings in asked for index, ceiling in enumerate(ceilings)]

        def at_most(job: tuple[str, int, float]) -> int | None:
            name, index, ceiling = job
            points = _points_within(ceiling, factors[name], rules)
            if points is None:
                return None  # no card points score that little
            # kept: the option's exact value, or another probe, may follow, and start from this
            probed = searches[name, index] = search(name, index)
            return probed.at_most(points)

        found = iter(map_searches(at_most, jobs))
        answers: list[list[list[float] | None]] = []
        for name, ceilings in asked:
            bounds = [next(found) for _ in ceilings]
            answers.append(
                [
                    None if b is None else [float(b), float(deal_score(b, factors[name], rules))]
                    for b in bounds
                ]
            )
        return answers

    chosen = call_name(deal_trump(deal))
    pruned: set[str] = set()
    solved = _sequential_scores(
        list(contracts),
        solve,
        len(layouts),
        sequential,
        chosen,
        probe=probe if prune else None,
        pruned=pruned,
    )
    options = best_first(_option_of(name, rows, name in pruned) for name, rows in solved.items())
    return CallReview(deal.number, seat, options, chosen, max(len(rows) for rows in solved.values()))


def _points_within(ceiling: float, factor: int, rules: Rules) -> int | None:
    """The most card points (of 60) whose deal score at ``factor`` is at most ``ceiling``
    (``None`` when even none scores more): the score grows with the points.

    >>> _points_within(-5.0, 1, Rules()), _points_within(-5.0, 2, Rules()), _points_within(-61.0, 2, Rules())
    (25, 27, None)
    """
    fitting = [p for p in range(DECK_POINTS + 1) if deal_score(p, factor, rules) <= ceiling]
    return fitting[-1] if fitting else None


def _row_side_points(
    row: list[float], deal: DealResult, rules: Rules, state: DealState, leader: int, seat: int
) -> int:
    """:func:`_side_points` from a layout's row of the first play's view cost (``state``, led by
    ``leader``): the best card's value is the leader's side's points from the deal's start."""
    in_play = sum(mask_points(hand) for hand in state.hands) + sum(
        mask_points(sum(1 << card for card in pile)) for piles in state.table for pile in piles
    )
    shape = rules.shape
    side = shape.team_of(seat, deal.dealer)
    best = int(max(row[:36]))
    mine = best if side == shape.team_of(leader, deal.dealer) else in_play - best
    maker = deal.dealer if deal.chooser is None else deal.chooser
    makers_side = side == shape.team_of(maker, deal.dealer)
    return mine if makers_side else mine + DECK_POINTS - in_play


def variant_knock_review(
    deal: DealResult,
    rules: Rules,
    seat: int,
    *,
    samples: int = 50,
    seed: int = 0,
    sequential: bool = True,
    start: VariantRows | None = None,
) -> CallReview:
    """The expected deal score of knocking (klop) and of not knocking, from what ``seat`` saw
    (a seat the rules let knock: :func:`~manillen_replay.rules.may_klop`).

    :param start: the first play's layouts (:meth:`~.costs.VariantRows.at_start`): when
        ``seat`` leads first, its view then is its view when it knocked, so the review takes
        those layouts, and the searches of those the first play's view cost solves.
    :raises SolverError: for a deal the variant search cannot take, or a seat that may not knock.
    """
    _check(deal, rules, samples)
    if not may_klop(rules, seat, deal.dealer):
        raise SolverError(f"seat {seat} may not knock in this deal")
    trump = deal_trump(deal)
    contract = deal.contract or (Contract.TRUMP if trump is not None else Contract.MUIL)
    factors = [multiplier(contract, deal.en_face, knocks, deal.carried, rules) for knocks in range(2)]
    points: list[int] = []
    if start is not None and start.seat == seat:
        count = start.available
        shared = start

        def more(stop: int) -> list[int]:
            # the layouts the view cost solves in any case are taken from it; past them, one
            # it solved already is taken, and the others get the position's value alone (a
            # third of the search that values every card, on two_open's first lead)
            surely = [
                _row_side_points(row, deal, rules, layout, shared.seat, seat)
                for layout, row, _ in shared.rows(len(points), min(stop, shared.sure))
            ]
            first = len(points) + len(surely)
            rest = shared.layouts(first, stop) if stop > first else []
            rows = [shared.row(index) for index in range(first, first + len(rest))]

            def value(job: tuple[DealState, list[float] | None]) -> int:
                layout, row = job
                if row is not None:
                    return _row_side_points(row, deal, rules, layout, shared.seat, seat)
                return _side_points(deal, rules, layout, trump, seat)

            return surely + map_searches(value, list(zip(rest, rows, strict=True)))
    else:
        layouts = _start_layouts(deal, rules, seat, samples, seed, f"klop{seat}")
        count = len(layouts)

        def more(stop: int) -> list[int]:
            rest = layouts[len(points) : stop]
            return map_searches(lambda layout: _side_points(deal, rules, layout, trump, seat), rest)

    def solve(requests: list[Request]) -> list[list[list[float]]]:
        # both options share each layout's one search: only the doubling differs
        points.extend(more(max(stop for _, _, stop in requests)))
        return [
            [
                [float(p), float(deal_score(p, factors[0 if name == "no klop" else 1], rules))]
                for p in points[start:stop]
            ]
            for name, start, stop in requests
        ]

    chosen = "klop" if deal.knocks >= 1 else "no klop"
    solved = _sequential_scores(["no klop", "klop"], solve, count, sequential, chosen)
    options = best_first(_option_of(name, rows) for name, rows in solved.items())
    return CallReview(deal.number, seat, options, chosen, max(len(rows) for rows in solved.values()))


def variant_call_reviews(
    deal: DealResult,
    rules: Rules,
    knocked: list[int],
    samples: int,
    *,
    seed: int = 0,
    start: VariantRows | None = None,
) -> list[tuple[str, CallReview]]:
    """A variant deal's calls reviewed, each with what it judged (``trump`` or ``klop``): the
    trump call (when the rules left a choice), then the knocker's klop or, when nobody knocked,
    each seat's that could have (when the contract may be knocked).

    :param knocked: who knocked, in order (the first is reviewed).
    :param start: the first play's layouts, shared with its view cost (:func:`variant_knock_review`).
    """
    reviewed: list[tuple[str, CallReview]] = []
    if deal.contract is Contract.BLIND_MUIL:
        return reviewed  # called before looking at the cards: no choice to review
    trump = variant_trump_review(deal, rules, samples=samples, seed=seed)
    if trump is not None:
        reviewed.append(("trump", trump))
    if deal.contract is Contract.MUIL and not rules.klop_on_muil:
        return reviewed
    seats = knocked[:1] or [s for s in range(rules.shape.players) if may_klop(rules, s, deal.dealer)]
    reviewed += [
        ("klop", variant_knock_review(deal, rules, seat, samples=samples, seed=seed, start=start))
        for seat in seats
    ]
    return reviewed
