"""The novice: makes trump of the longest suit and plays any legal card."""

from __future__ import annotations

import random

from ..state import DealState
from .policy import DealKnowledge, Policy, cards_of

BLIND_MUIL_CHANCE = 0.03
"""How often a novice gambles on blind muil when the cafe rule allows it."""


class NovicePolicy(Policy):
    """Knows the rules, not the game: longest suit for trump, a random legal card, never knocks."""

    skill = "novice"

    def wants_blind_muil(self, rng: random.Random) -> bool:
        """Now and then, for the thrill of it."""
        return rng.random() < BLIND_MUIL_CHANCE

    def choose_card(self, state: DealState, legal: int, knowledge: DealKnowledge, rng: random.Random) -> int:
        """Any legal card, each as likely."""
        cards = cards_of(legal)
        return cards[rng.randrange(len(cards))] if len(cards) > 1 else cards[0]
