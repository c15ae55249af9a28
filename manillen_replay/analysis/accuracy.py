"""Accuracy: one number per player per deal and per match, from the view costs of their cards.

In a player's words: every real decision gets a score: a card you *chose* (more than one card
was allowed, and the cards allowed were not all worth about the same) and a call (trump, muil,
klop) whose options were not all worth about the same.
The best card you could have known to play scores 100%. Each card point you lost on average,
against the best card from what you could see, costs a little: a card that lost 5 points (a
manille's worth) scores 50%, one that lost 10 points 25%, one that lost 2 points 76%. Your
accuracy is the average of those scores. Forced cards do not count, and neither do costs
that only hindsight shows: a card is judged by what you could know.

As a formula: ``card accuracy = 100 x 0.5 ^ (view cost / 5)``; a deal's or a match's accuracy
is the mean over the player's chosen cards in it. (lichess documents its accuracy the same
way: a per-move score from the loss, averaged; the halving every 5 points is ours.)
"""

from __future__ import annotations

from collections.abc import Iterable

from .call_review import CallReview
from .costs import PlayCost

HALF_LIFE_POINTS = 5.0
"""Every 5 card points lost halve a card's accuracy (5 is the manille, the best card)."""


def card_accuracy(view_cost: float) -> float:
    """A card's accuracy in percent from its view cost in card points.

    >>> card_accuracy(0), card_accuracy(5), round(card_accuracy(2), 1)
    (100.0, 50.0, 75.8)

    :raises ValueError: for a negative cost.
    """
    if view_cost < 0:
        raise ValueError(f"a cost is never negative, not {view_cost}")
    return float(100.0 * 0.5 ** (view_cost / HALF_LIFE_POINTS))


DECISION_MARGIN = 1.0
"""A play (or a call) is a real decision when its options' values from the player's view differ
by at least this many card points (for a call: points of expected deal score). Below it the
choice hardly mattered, and counting it would fill everyone's accuracy with easy 100s."""


def counts_for_accuracy(cost: PlayCost) -> bool:
    """Whether a play counts: a legal card chosen among several, with a view cost, and a real
    decision (the legal cards' values from the player's view differ by :data:`DECISION_MARGIN`)."""
    if not cost.legal or cost.forced or cost.view_cost is None:
        return False
    views = [value.view for value in cost.values.values() if value.view is not None]
    return bool(views) and max(views) - min(views) >= DECISION_MARGIN


def call_counts_for_accuracy(review: CallReview) -> bool:
    """Whether a reviewed call counts: the call made is known and the options' expected scores
    differ by at least :data:`DECISION_MARGIN`."""
    return review.loss is not None and review.spread >= DECISION_MARGIN


def _scores(costs: Iterable[PlayCost], calls: Iterable[CallReview], seat: int) -> list[float]:
    scores = [
        card_accuracy(cost.view_cost)
        for cost in costs
        if cost.seat == seat and counts_for_accuracy(cost) and cost.view_cost is not None
    ]
    scores += [
        card_accuracy(max(0.0, review.loss or 0.0))
        for review in calls
        if review.seat == seat and call_counts_for_accuracy(review)
    ]
    return scores


def accuracy(costs: Iterable[PlayCost], seat: int, calls: Iterable[CallReview] = ()) -> float | None:
    """The accuracy of one seat over some plays and calls: ``None`` without a real decision.

    :param costs: plays with view costs (:func:`~manillen_replay.analysis.costs.view_costs`).
    :param seat: the seat (0 to 3, or to 5 in the six-player games).
    :param calls: reviewed calls (trump, muil, klop); a call's expected deal score given away
        counts like a card's view cost.
    """
    scores = _scores(costs, calls, seat)
    if not scores:
        return None
    return sum(scores) / len(scores)


def decisions(costs: Iterable[PlayCost], seat: int, calls: Iterable[CallReview] = ()) -> int:
    """How many real decisions (plays and calls) an accuracy figure of the seat rests on."""
    return len(_scores(costs, calls, seat))


def _seats(plays: Iterable[PlayCost], reviewed: Iterable[CallReview]) -> range:
    """Seats 0 to 3, and more when a variant's plays or calls name more (six players)."""
    return range(max([3, *(cost.seat for cost in plays), *(review.seat for review in reviewed)]) + 1)


def deal_accuracy(costs: Iterable[PlayCost], calls: Iterable[CallReview] = ()) -> dict[int, float | None]:
    """Each seat's accuracy in one deal (or any set of plays), in any variant."""
    plays, reviewed = list(costs), list(calls)
    return {seat: accuracy(plays, seat, reviewed) for seat in _seats(plays, reviewed)}


def match_accuracy(
    deals: Iterable[Iterable[PlayCost]], calls: Iterable[CallReview] = ()
) -> dict[int, float | None]:
    """Each seat's accuracy over a match: the mean over all its real decisions, deal by deal."""
    plays = [cost for deal in deals for cost in deal]
    reviewed = list(calls)
    return {seat: accuracy(plays, seat, reviewed) for seat in _seats(plays, reviewed)}
