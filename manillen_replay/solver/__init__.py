"""The perfect-information solver: what every card of a deal was worth, with and without hindsight.

- :func:`solve_position`: the value of every legal card in a position, all hands known.
- :func:`dd_costs` / :func:`view_costs`: the cost of every play of a deal, with hindsight and
  from the player's view.
- :func:`deal_accuracy` / :func:`match_accuracy`: accuracy figures from the view costs.
- :func:`trump_review` / :func:`knock_review`: the expected result of each call;
  :func:`trump_review_given_calls` / :func:`knock_review_given_calls` with the hidden hands
  drawn given the calls made (:mod:`.call_model`).
- :func:`curate`: the solver depth's findings, one per play, info where they are no mistake.
- :func:`cost_findings` / :func:`call_findings`: findings for the mistake finder.

docs/solver.md explains both costs and the accuracy figure in a player's words.
"""

from .accuracy import accuracy, card_accuracy, deal_accuracy, match_accuracy
from .call_model import is_calibrated, knock_review_given_calls, trump_review_given_calls
from .costs import CardValue, PlayCost, can_solve, dd_costs, view_costs
from .findings import CALL_THRESHOLDS, COST_THRESHOLDS, call_findings, cost_findings, curate
from .review import CallOption, CallReview, knock_review, trump_review
from .search import Position, SolverError, solve_batch, solve_position

__all__ = [
    "CALL_THRESHOLDS",
    "COST_THRESHOLDS",
    "CallOption",
    "CallReview",
    "CardValue",
    "PlayCost",
    "Position",
    "SolverError",
    "accuracy",
    "call_findings",
    "can_solve",
    "card_accuracy",
    "cost_findings",
    "curate",
    "dd_costs",
    "deal_accuracy",
    "is_calibrated",
    "knock_review",
    "knock_review_given_calls",
    "match_accuracy",
    "solve_batch",
    "solve_position",
    "trump_review",
    "trump_review_given_calls",
    "view_costs",
]
