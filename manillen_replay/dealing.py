"""Dealing a shuffled deck the way each variant deals it (pure: the caller brings the randomness)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from .cards import CARD_POINTS, iter_mask, mask_of
from .rules import Rules
from .state import DealState, Stacks


@dataclass(frozen=True)
class Dealt:
    """The cards of one deal before the first lead."""

    hands: tuple[int, ...]
    """The hand of each seat (the dummy's is empty), after any exchange with laid-aside cards."""
    table: tuple[Stacks, ...]
    """Each seat's four table piles (bottom, top), or empty piles where a seat has none."""
    discards: int
    """The cards laid aside, which count for the trump maker's opponents."""

    def start(self, rules: Rules, dealer: int, trump: int | None, chooser: int | None = None) -> DealState:
        """The deal's state before the opening lead, laid-aside points already counted."""
        shape = rules.shape
        taken = [0, 0]
        if self.discards:
            maker = dealer if chooser is None else chooser
            taken[1 - shape.team_of(maker, dealer)] = sum(CARD_POINTS[c] for c in iter_mask(self.discards))
        return DealState.start(rules, dealer, trump, self.hands, self.table, (taken[0], taken[1]))


def deal(rules: Rules, dealer: int, rng: random.Random, chooser: int | None = None) -> Dealt:
    """Shuffle and deal as the variant says.

    In ``three`` the dealer (in ``six_short`` the trump maker, ``chooser``) takes the laid-aside
    cards and lays aside two at random; a player would choose them, which the caller may redo.
    """
    shape = rules.shape
    deck = list(iter_mask(shape.deck_mask))
    rng.shuffle(deck)
    table: list[Stacks] = []
    hands: list[int] = []
    if shape.table_seats != "none":
        for seat in range(shape.players):
            if shape.holds_table(seat):
                piles = tuple((deck.pop(), deck.pop()) for _ in range(4))
                table.append(piles)
            else:
                table.append(((), (), (), ()))
    for seat in range(shape.players):
        size = 0 if seat >= shape.people else shape.hand_size
        hands.append(mask_of(deck.pop() for _ in range(size)))
    discards = 0
    if shape.discards:
        maker = dealer if chooser is None else chooser
        pool = list(iter_mask(hands[maker])) + deck
        rng.shuffle(pool)
        discards = mask_of(pool[: shape.discards])
        hands[maker] = mask_of(pool[shape.discards :])
        deck = []
    assert not deck, "every card is dealt"
    return Dealt(tuple(hands), tuple(table), discards)
