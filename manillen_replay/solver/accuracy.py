"""Accuracy: one number per player per deal and per match, from the view costs of their cards.

In a player's words: every card you *chose* (more than one card was allowed) gets a score.
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


def counts_for_accuracy(cost: PlayCost) -> bool:
    """Whether a play counts: a legal card chosen among several, with a view cost."""
    return cost.legal and not cost.forced and cost.view_cost is not None


def accuracy(costs: Iterable[PlayCost], seat: int) -> float | None:
    """The accuracy of one seat over some plays (a deal, a match): ``None`` without a chosen card.

    :param costs: plays with view costs (:func:`~manillen_replay.solver.view_costs`).
    :param seat: the seat (0 to 3).
    """
    scores = [
        card_accuracy(cost.view_cost)
        for cost in costs
        if cost.seat == seat and counts_for_accuracy(cost) and cost.view_cost is not None
    ]
    if not scores:
        return None
    return sum(scores) / len(scores)


def deal_accuracy(costs: Iterable[PlayCost]) -> dict[int, float | None]:
    """Each seat's accuracy in one deal (or any set of plays)."""
    plays = list(costs)
    return {seat: accuracy(plays, seat) for seat in range(4)}


def match_accuracy(deals: Iterable[Iterable[PlayCost]]) -> dict[int, float | None]:
    """Each seat's accuracy over a match: the mean over all its chosen cards, deal by deal."""
    plays = [cost for deal in deals for cost in deal]
    return {seat: accuracy(plays, seat) for seat in range(4)}
