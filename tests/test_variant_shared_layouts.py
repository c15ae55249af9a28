"""The first play's layouts of a variant deal, shared by its view cost and its leader's knock review
(:class:`manillen_replay.analysis.costs.VariantRows`): the same values as each part's own searches,
each layout solved once."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bench.variants_bench import iter_variant_matches
from manillen_replay.analysis import costs as costs_module
from manillen_replay.analysis.call_review import CallReview
from manillen_replay.analysis.costs import VariantRows, variant_view_costs
from manillen_replay.analysis.variant_calls import _row_side_points, _side_points, variant_knock_review
from manillen_replay.engine import DealResult, MatchResult
from manillen_replay.record import Record
from manillen_replay.rules import may_klop

CHEAP = ["six_short", "six", "three_dummy", "three"]
"""Variants whose searches from the deal's start take milliseconds (``two_open``'s take a second)."""


def _deals(variant: str, count: int) -> Iterator[tuple[MatchResult, Record, DealResult]]:
    for number, found in enumerate(iter_variant_matches(variant, 5, [])):
        if number == count:
            return
        yield found


@pytest.mark.parametrize("variant", CHEAP)
def test_a_first_play_row_gives_every_seats_points_of_the_whole_deal(variant: str) -> None:
    """The best card's value on a layout of the first play, turned into a seat's points of the
    whole deal, is what a search of that layout's position value gives that seat (the laid-aside
    cards to the trump maker's opponents), for the leader's side and the other."""
    checked = 0
    for result, _record, deal in _deals(variant, 2):
        rules = result.rules
        trump = None if deal.trump is None else int(deal.trump)
        shared = VariantRows.at_start(deal, rules, samples=5, seed=3)
        solved = shared.rows(0, 5)
        layouts = VariantRows.at_start(deal, rules, samples=5, seed=3).sampler.draw(5)
        assert len(solved) == len(layouts) == 5
        for (kept, row, _), layout in zip(solved, layouts, strict=True):
            assert kept == layout
            for seat in range(rules.shape.players):
                assert _row_side_points(row, deal, rules, layout, shared.seat, seat) == _side_points(
                    deal, rules, layout, trump, seat
                ), (deal.number, seat)
                checked += 1
    assert checked >= 10


@pytest.mark.parametrize("variant", CHEAP)
def test_the_leaders_knock_review_scores_the_first_plays_layouts(variant: str) -> None:
    """With the first play's layouts, the leader's knock review scores each of them, in their
    order, as a search of its own would: those the view cost solves in any case from their rows,
    the others from a row solved already or from the position's value alone."""
    result, _record, deal = next(_deals(variant, 1))
    rules = result.rules
    shared = VariantRows.at_start(deal, rules, samples=10, seed=2)
    seat = shared.seat
    assert may_klop(rules, seat, deal.dealer)
    shared.sure = 3  # as if the view cost stopped at 3: past them the review solves alone
    shared.rows(6, 8)  # two of those the view cost went on to
    review = variant_knock_review(deal, rules, seat, samples=10, seed=2, start=shared, sequential=False)
    assert review.layouts == 10
    layouts = VariantRows.at_start(deal, rules, samples=10, seed=2).sampler.draw(10)
    trump = None if deal.trump is None else int(deal.trump)
    expected = tuple(float(_side_points(deal, rules, layout, trump, seat)) for layout in layouts)
    no_klop = review.option("no klop")
    assert no_klop is not None and no_klop.each_points == expected
    assert shared.row(4) is None and shared.row(6) is not None


def test_view_costs_and_the_knock_review_solve_each_first_play_layout_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Shared, the first play's layouts are solved once, whoever asks first and however many each
    asks for; the view costs are then the same as with layouts of their own, and the review the
    same as on its own copy of those layouts."""
    result, _record, deal = next(_deals("six_short", 1))
    rules = result.rules
    seat = VariantRows.at_start(deal, rules, samples=16, seed=1).seat
    alone_costs = variant_view_costs(deal, rules, samples=16, seed=1)
    alone_review = variant_knock_review(
        deal, rules, seat, samples=16, seed=1, start=VariantRows.at_start(deal, rules, samples=16, seed=1)
    )

    solved: list[object] = []
    solve = costs_module.variant_layout_row

    def counting(*args: Any, **kwargs: Any) -> tuple[list[float], int]:
        solved.append(args[3])
        return solve(*args, **kwargs)

    monkeypatch.setattr(costs_module, "variant_layout_row", counting)
    shared = VariantRows.at_start(deal, rules, samples=16, seed=1)
    review = variant_knock_review(deal, rules, seat, samples=16, seed=1, start=shared)
    by_review = len(solved)
    costs = variant_view_costs(deal, rules, samples=16, seed=1, first_play=shared)
    first = costs[0].layouts
    assert review == alone_review
    assert costs == alone_costs
    # the first play's layouts beyond the review's are the only new ones of that play
    first_play_solves = len(solved) - by_review - sum(cost.layouts for cost in costs[1:])
    assert by_review == min(review.layouts, shared.sure)
    assert first_play_solves == max(0, first - by_review)


def test_the_full_analysis_reviews_the_leaders_knock_on_the_first_plays_layouts() -> None:
    """``analyse_deal`` hands the first play's layouts to the leader's knock review: its review
    is the one on those layouts, and the first play's view cost is the one on them too."""
    from manillen_replay.analysis.deal_analysis import analyse_deal

    result, record, deal = next(_deals("six_short", 1))
    rules = result.rules
    analysed = analyse_deal(result, record, deal, samples=16, seed=4)
    shared = VariantRows.at_start(deal, rules, samples=16, seed=4)
    (review,) = [r for call, r in analysed.reviews if call == "klop" and r.seat == shared.seat]
    assert review == variant_knock_review(deal, rules, shared.seat, samples=16, seed=4, start=shared)
    assert analysed.costs[0] == variant_view_costs(deal, rules, samples=16, seed=4, plays={0})[0]
    # the solver's findings alone review the calls as the full analysis does
    from manillen_replay.analysis.deal_analysis import solver_findings

    reviews: list[tuple[str, CallReview]] = []
    solver_findings(result, record, deal, analysed.costs, 16, seed=4, reviews=reviews)
    assert reviews == analysed.reviews
