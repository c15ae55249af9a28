"""The club player: plays by the rules text's "Speeltips".

- leads manilles early (and other cards nobody can beat), while the others still follow;
- smears (vetten) point cards on a trick the partner is sure to take;
- counts the trumps still out and draws out the opponents' trumps with the highest one;
- leads a worthless card of a suit both opponents are void in, so they must spend a trump on
  it ("troeven aftroggelen");
- knocks (klop) with more than four trumps as the non-dealing team;
- calls muil with three manilles, or two and a run 10-A-K;
- keeps track of the voids each seat has shown by not following suit.

Each decision looks at a handful of bit masks: the player must stay cheap enough to generate a
hundred thousand deals for the benchmarks.
"""

from __future__ import annotations

import random

from ..cards import CARD_POINTS, DECK_32_MASK, RANKS_PER_SUIT, SUIT_MASKS
from ..rules import Rules, winning_position
from ..state import DealState
from .policy import BLANK_MASK, TENS_MASK, ContractChoice, DealKnowledge, Policy, cards_of, suit_points

TEN = RANKS_PER_SUIT - 1
ACE = RANKS_PER_SUIT - 2
KING = RANKS_PER_SUIT - 3


def _above(card: int) -> int:
    """The mask of every card numbered above ``card`` (within its suit: the cards that beat it)."""
    return ~((2 << card) - 1)


def _rank(card: int) -> int:
    return card % RANKS_PER_SUIT


def _highest(mask: int) -> int:
    return mask.bit_length() - 1


def _lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


class ClubPolicy(Policy):
    """A seasoned cafe player: counts cards, reads voids, smears for the partner."""

    skill = "club"

    # ------------------------------------------------------------------ declarations

    def choose_contract(self, hand: int, rules: Rules, *, may_pass: bool) -> ContractChoice:
        """Muil with many manilles; else the suit with the most length and honours.

        With en face allowed, a flat hand (no suit longer than two) is passed to the partner.
        """
        manilles = (hand & TENS_MASK).bit_count()
        if manilles >= 3 or (manilles >= 2 and self._has_run(hand)):
            return ContractChoice("muil")
        lengths = [(hand & SUIT_MASKS[suit]).bit_count() for suit in range(4)]
        if may_pass and max(lengths) <= 2 and manilles < 2:
            return ContractChoice("en_face")
        best = max(
            range(4),
            key=lambda suit: (
                3 * lengths[suit] + suit_points(hand, suit) + 3 * (hand >> (suit * RANKS_PER_SUIT + TEN) & 1),
                -suit,
            ),
        )
        return ContractChoice("trump", best)

    @staticmethod
    def _has_run(hand: int) -> bool:
        for suit in range(4):
            base = suit * RANKS_PER_SUIT
            run = (1 << (base + TEN)) | (1 << (base + ACE)) | (1 << (base + KING))
            if hand & run == run:
                return True
        return False

    def wants_knock(self, hand: int, trump: int | None, knocks: int) -> bool:
        """Klop with more than four trumps; tegenklop with five, or four with the 10 and ace."""
        if trump is None:
            return (hand & TENS_MASK).bit_count() >= 3 + knocks
        trumps = hand & SUIT_MASKS[trump]
        count = trumps.bit_count()
        if knocks == 0:
            return count > 4
        if knocks == 1:
            top = (1 << (trump * RANKS_PER_SUIT + TEN)) | (1 << (trump * RANKS_PER_SUIT + ACE))
            return count >= 5 or (count >= 4 and trumps & top == top)
        return count >= 6

    # ------------------------------------------------------------------ cards

    def choose_card(self, state: DealState, legal: int, knowledge: DealKnowledge, rng: random.Random) -> int:
        """The card the tips point to; with one legal card, that card."""
        if not legal & (legal - 1):
            return _highest(legal)
        me = state.to_play
        hand = state.hands[me]
        unseen = DECK_32_MASK & ~knowledge.played & ~hand
        if not state.trick:
            return self._lead(state, me, hand, unseen, knowledge)
        return self._follow(state, me, legal, unseen, knowledge)

    def _lead(self, state: DealState, me: int, hand: int, unseen: int, knowledge: DealKnowledge) -> int:
        trump = state.trump
        voids = knowledge.voids
        opponents = ((me + 1) % 4, (me + 3) % 4)
        trump_mask = SUIT_MASKS[trump] if trump is not None else 0
        opponents_may_trump = False
        if trump is not None:
            opponents_may_trump = bool(unseen & trump_mask) and any(
                not voids[o] >> trump & 1 for o in opponents
            )
            mine = hand & trump_mask
            if mine and opponents_may_trump:
                top = _highest(mine)
                ours = knowledge.chooser_team == me % 2
                # Draw their trumps with one nobody can beat (counting what is still out).
                if not unseen & trump_mask & _above(top) and (ours or mine.bit_count() >= 3):
                    return top
                if ours and mine.bit_count() >= 4:
                    return _lowest(mine)
            if opponents_may_trump:
                # Make them buy a worthless trick: they lose a trump for almost nothing.
                for suit in range(4):
                    if suit == trump or not all(voids[o] >> suit & 1 for o in opponents):
                        continue
                    worthless = hand & SUIT_MASKS[suit] & BLANK_MASK
                    if worthless:
                        return _lowest(worthless)
        # Manilles and other sure cards early, in suits the opponents still follow.
        best = -1
        best_points = -1
        for suit in range(4):
            if suit == trump:
                continue
            mine = hand & SUIT_MASKS[suit]
            if not mine:
                continue
            outstanding = unseen & SUIT_MASKS[suit]
            if opponents_may_trump and (not outstanding or any(voids[o] >> suit & 1 for o in opponents)):
                continue
            top = _highest(mine)
            if not outstanding & _above(top) and CARD_POINTS[top] > best_points:
                best, best_points = top, CARD_POINTS[top]
        if best >= 0:
            return best
        # Otherwise something cheap from the longest plain suit, keeping honours back.
        plain = hand & ~trump_mask or hand
        return min(
            cards_of(plain),
            key=lambda card: (
                CARD_POINTS[card],
                -(hand & SUIT_MASKS[card // RANKS_PER_SUIT]).bit_count(),
                _rank(card),
            ),
        )

    def _follow(self, state: DealState, me: int, legal: int, unseen: int, knowledge: DealKnowledge) -> int:
        trick = state.trick
        trump = state.trump
        position = len(trick)
        best_position = winning_position(trick, trump)
        best = trick[best_position]
        partner_wins = (state.leader + best_position) % 2 == me % 2
        # Opponents still to play after me; with four seats they alternate with the partner.
        later_opponents = [(me + k) % 4 for k in range(1, 4 - position) if k % 2 == 1]
        cards = cards_of(legal)
        if partner_wins:
            if not later_opponents or self._holds(best, later_opponents, unseen, knowledge):
                return max(cards, key=lambda card: self._smear_value(card, trump, unseen))
            return min(cards, key=lambda card: self._discard_cost(card, trump))
        winners = [card for card in cards if _beats(card, best, trump)]
        if winners:
            sure = [card for card in winners if self._holds(card, later_opponents, unseen, knowledge)]
            if sure:
                return min(sure, key=lambda card: (card // RANKS_PER_SUIT == trump, _rank(card)))
            losers = [card for card in cards if not _beats(card, best, trump)]
            if not losers:
                return min(winners, key=lambda card: (card // RANKS_PER_SUIT == trump, _rank(card)))
            cards = losers
        return min(cards, key=lambda card: self._discard_cost(card, trump))

    @staticmethod
    def _holds(card: int, opponents: list[int], unseen: int, knowledge: DealKnowledge) -> bool:
        """Whether no opponent still to play can beat ``card``, by counting cards and voids."""
        suit = card // RANKS_PER_SUIT
        trump = knowledge.trump
        voids = knowledge.voids
        higher_out = unseen & SUIT_MASKS[suit] & _above(card)
        trumps_out = unseen & SUIT_MASKS[trump] if trump is not None else 0
        for opponent in opponents:
            if suit == trump:
                if higher_out and not voids[opponent] >> trump & 1:
                    return False
                continue
            void_here = voids[opponent] >> suit & 1 or not unseen & SUIT_MASKS[suit]
            if not void_here and higher_out:
                return False
            if void_here and trump is not None and trumps_out and not voids[opponent] >> trump & 1:
                return False
        return True

    @staticmethod
    def _smear_value(card: int, trump: int | None, unseen: int) -> int:
        """How good a card is to give to the partner's trick: points, not trumps or sure winners."""
        value = CARD_POINTS[card] * 10
        suit = card // RANKS_PER_SUIT
        if suit == trump:
            value -= 30
        elif not unseen & SUIT_MASKS[suit] & _above(card) and CARD_POINTS[card]:
            value -= 15  # a sure winner takes its own trick later
        return value - _rank(card)

    @staticmethod
    def _discard_cost(card: int, trump: int | None) -> int:
        """What a card is worth keeping: its points, its rank, and more for a trump."""
        return CARD_POINTS[card] * 10 + _rank(card) + (30 if card // RANKS_PER_SUIT == trump else 0)


def _beats(card: int, best: int, trump: int | None) -> bool:
    """Whether ``card`` takes the trick from ``best``."""
    suit = card // RANKS_PER_SUIT
    best_suit = best // RANKS_PER_SUIT
    if suit == best_suit:
        return card > best
    return suit == trump
