"""The mistakes real players make: an illegal card now and then, a wrong line on the scoresheet."""

from __future__ import annotations

import random

from ..rules import DealScore, classify_violation
from ..state import DealState
from .policy import cards_of


def slip_card(state: DealState, legal: int, rng: random.Random) -> int | None:
    """An illegal card the seat to play could play by mistake, ``None`` when every card is legal.

    The kind of mistake (revoke, failed_to_overtake, failed_to_buy, illegal_underbuy) is drawn
    first, each kind the hand allows as likely, so that the rarer kinds still show up.
    """
    illegal = state.hands[state.to_play] & ~legal
    if not illegal:
        return None
    by_kind: dict[str, list[int]] = {}
    for card in cards_of(illegal):
        kind = classify_violation(card, state.trick, state.hands[state.to_play], state.trump)
        by_kind.setdefault(kind.value, []).append(card)
    kinds = sorted(by_kind)
    cards = by_kind[kinds[rng.randrange(len(kinds))]]
    return cards[rng.randrange(len(cards))]


def miscount(
    score: DealScore | None, factor: int, rng: random.Random, highest: int | None = None
) -> DealScore | None:
    """A wrong scoresheet line for a deal that scored ``score`` at ``factor`` (``None``: 30-30).

    ``highest`` is the most a deal can score under the rules
    (:func:`~manillen_replay.rules.highest_deal_score`): a miscount stays within it, as no one
    writes down a score the game cannot give.

    The mistakes people make at the table: a point or two miscounted, the doubling forgotten,
    the score written in the other team's column, or a near 30-30 taken for one.
    """
    if score is None:
        return DealScore(rng.randrange(2), factor * rng.randint(1, 2))
    kinds = ["count", "team"]
    if factor > 1:
        kinds.append("multiplier")
    if score.points <= 2 * factor:
        kinds.append("tie")
    kind = kinds[rng.randrange(len(kinds))]
    if kind == "team":
        return DealScore(1 - score.team, score.points)
    if kind == "multiplier":
        return DealScore(score.team, score.points // factor)
    if kind == "tie":
        return None
    change = rng.choice((-2, -1, 1, 2)) * factor
    if score.points + change <= 0 or (highest is not None and score.points + change > highest):
        change = -change
    if score.points + change <= 0 or (highest is not None and score.points + change > highest):
        return DealScore(1 - score.team, score.points)
    return DealScore(score.team, score.points + change)
