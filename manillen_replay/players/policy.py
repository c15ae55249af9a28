"""What a simulated player decides, and what every player at the table can see.

A policy is stateless: the generator keeps the public facts of the deal in a
:class:`DealKnowledge` (cards played, voids shown) and asks the policy of the seat to play.
Cards are ints and card sets bit masks, as in :mod:`manillen_replay.cards`, because a
generator makes millions of plays.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from ..cards import CARD_POINTS, RANKS_PER_SUIT, SUIT_MASKS
from ..rules import Rules, winning_position
from ..state import DealState

TENS_MASK = sum(1 << (suit * RANKS_PER_SUIT + RANKS_PER_SUIT - 1) for suit in range(4))
"""The four manilles."""
SMALL_MASK = sum(1 << (suit * RANKS_PER_SUIT + rank) for suit in range(4) for rank in (1, 2, 3))
"""Every 7, 8 and 9: the small cards of the redeal rule."""
JACKS_MASK = sum(1 << (suit * RANKS_PER_SUIT + 4) for suit in range(4))
"""The four jacks."""
BLANK_MASK = SMALL_MASK
"""Cards worth no points (the 7, 8 and 9 of each suit)."""


class ContractChoice(NamedTuple):
    """What a dealer (or the partner after en face) says."""

    call: str
    """``trump``, ``muil`` or ``en_face`` (pass the choice to the partner)."""
    suit: int | None = None
    """The trump suit with ``trump``."""


class DealKnowledge:
    """The public facts of one deal: trump, who made it, the cards played, the voids shown."""

    __slots__ = ("chooser_team", "played", "rules", "trump", "voids")

    def __init__(self, rules: Rules, trump: int | None, chooser_team: int) -> None:
        self.rules = rules
        self.trump = trump
        self.chooser_team = chooser_team
        self.played = 0
        """Every card played so far, the current trick included."""
        self.voids = [0] * rules.shape.players
        """Per seat, a bit for each suit the seat has shown it no longer holds."""

    def observe(self, state: DealState, card: int) -> None:
        """Note a card about to be played in ``state``: a seat that does not follow is void.

        A seat that neither follows nor buys while an opponent wins with a plain card has no
        trump left either, because it would have had to buy.
        """
        trick = state.trick
        if trick:
            led = trick[0] // RANKS_PER_SUIT
            suit = card // RANKS_PER_SUIT
            if suit != led:
                seat = state.to_play
                self.voids[seat] |= 1 << led
                trump = self.trump
                if trump is not None and suit != trump:
                    best = trick[winning_position(trick, trump)]
                    must_win = not state.partner_winning() or not self.rules.partner_exempt
                    if must_win and best // RANKS_PER_SUIT != trump:
                        self.voids[seat] |= 1 << trump
        self.played |= 1 << card


class Policy:
    """How one kind of player declares and plays; override what differs."""

    skill = "policy"

    def wants_blind_muil(self, rng: random.Random) -> bool:
        """Whether to call blind muil before seeing the cards (cafe rule)."""
        return False

    def wants_redeal(self, hand: int) -> bool:
        """Whether to throw in five small cards and a jack (cafe rule; the hand qualifies)."""
        return True

    def choose_contract(self, hand: int, rules: Rules, *, may_pass: bool) -> ContractChoice:
        """Trump, muil, or (``may_pass``: en face allowed) pass the choice to the partner."""
        return ContractChoice("trump", longest_suit(hand))

    def wants_knock(self, hand: int, trump: int | None, knocks: int) -> bool:
        """Whether to knock now; ``knocks`` were said before (0: klop, 1: tegenklop, ...)."""
        return False

    def choose_card(self, state: DealState, legal: int, knowledge: DealKnowledge, rng: random.Random) -> int:
        """The card to play from ``legal`` (a non-empty mask)."""
        raise NotImplementedError


def cards_of(mask: int) -> list[int]:
    """The cards of a mask, lowest first."""
    cards = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards


def suit_lengths(hand: int) -> list[int]:
    """How many cards of each suit a hand holds."""
    return [(hand & SUIT_MASKS[suit]).bit_count() for suit in range(4)]


def suit_points(hand: int, suit: int) -> int:
    """The card points a hand holds in one suit."""
    return sum(CARD_POINTS[card] for card in cards_of(hand & SUIT_MASKS[suit]))


def longest_suit(hand: int) -> int:
    """The suit with the most cards; between equals, the one with more points, then the first."""
    return max(
        range(4), key=lambda suit: ((hand & SUIT_MASKS[suit]).bit_count(), suit_points(hand, suit), -suit)
    )


def is_small_hand(hand: int) -> bool:
    """Five small cards (7, 8, 9) and a jack: the cafe rule's reason for a redeal."""
    return (hand & SMALL_MASK).bit_count() >= 5 and bool(hand & JACKS_MASK)
