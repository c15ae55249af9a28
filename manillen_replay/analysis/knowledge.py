"""What a player could know at each play of a deal, and what became of each card.

Detectors judge a play only by what the player could see: the cards already played, the
cards in their own hand, and the suits an opponent has shown out of (a player who did not
follow a suit has none left). Hindsight (who took each card) only ever narrows a finding.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from ..cards import CARD_POINTS, RANKS_PER_SUIT, SUIT_MASKS
from ..engine.results import DealResult, TrickResult
from ..rules import Rules, winning_position


def suit_of(card: int) -> int:
    """The suit (a :class:`~manillen_replay.cards.Suit` value) of a card."""
    return card // RANKS_PER_SUIT


def higher_of_suit(card: int) -> int:
    """The mask of the cards of the same suit that beat ``card``."""
    return SUIT_MASKS[card // RANKS_PER_SUIT] & ~((2 << card) - 1)


def points_of(card: int) -> int:
    """Card points: 10 = 5, A = 4, K = 3, Q = 2, J = 1."""
    return CARD_POINTS[card]


class PlayView(NamedTuple):
    """One play as the player saw it just before putting the card down."""

    trick: TrickResult
    """The trick the play belongs to (complete: hindsight is available)."""
    position: int
    """The position in the trick, from 0."""
    seat: int
    """Who played."""
    card: int
    """The card played."""
    hand: int
    """The player's cards just before the play (mask)."""
    legal: int
    """The cards the player could legally play (mask)."""
    seen: int
    """Every card played before this one in the deal, this trick's earlier cards included."""
    voids: tuple[int, ...]
    """Per seat, the suits it has shown out of so far (a bit per suit)."""


class DealKnowledge:
    """A replayed deal seen play by play, with the fate of every card."""

    def __init__(self, deal: DealResult, rules: Rules) -> None:
        """
        :param deal: a replayed deal with its hands known (``deal.hands`` not ``None``).
        :param rules: the match's rules (variant shape and deck).
        """
        self.deal = deal
        self.rules = rules
        shape = rules.shape
        self.players = shape.players
        self.trick_size = shape.trick_size
        self.deck = shape.deck_mask
        self.trump = None if deal.trump is None else int(deal.trump)
        self.trump_mask = 0 if self.trump is None else SUIT_MASKS[self.trump]
        self.team = tuple(shape.team_of(seat, deal.dealer) for seat in range(shape.players))
        self.views: list[PlayView] = []
        self.fate: dict[int, TrickResult] = {}
        """For each card, the complete trick it fell in."""
        self._walk()

    def _walk(self) -> None:
        assert self.deal.hands is not None
        hands = list(self.deal.hands)
        seen = 0
        voids = [0] * self.players
        shown: tuple[int, ...] = tuple(voids)
        views = self.views
        for trick in self.deal.tricks:
            cards = trick.cards
            led = cards[0] // RANKS_PER_SUIT if cards else 0
            for position, seat in enumerate(trick.seats):
                card = cards[position]
                views.append(
                    PlayView(trick, position, seat, card, hands[seat], trick.legal[position], seen, shown)
                )
                hands[seat] &= ~(1 << card)
                seen |= 1 << card
                if position and card // RANKS_PER_SUIT != led and not voids[seat] >> led & 1:
                    voids[seat] |= 1 << led
                    shown = tuple(voids)
            if trick.winner is not None:
                for card in cards:
                    self.fate[card] = trick

    def plays_of(self, seat: int, before_trick: int) -> Iterator[PlayView]:
        """The seat's plays in the tricks before trick number ``before_trick``."""
        for view in self.views:
            if view.trick.number >= before_trick:
                return
            if view.seat == seat:
                yield view

    def view_at(self, trick: int, position: int) -> PlayView:
        """The play at ``position`` (from 0) of trick number ``trick`` (every earlier trick complete)."""
        return self.views[(trick - 1) * self.trick_size + position]

    def is_trump(self, card: int) -> bool:
        """Whether the card is of the trump suit (never in muil)."""
        return bool(self.trump_mask >> card & 1)

    def unknown(self, view: PlayView) -> int:
        """The cards the player could not see: not played yet and not in their own hand."""
        return self.deck & ~view.seen & ~view.hand

    def lost_later(self, card: int, seat: int) -> TrickResult | None:
        """The trick in which ``card`` went to the opponents of ``seat``, if it did."""
        trick = self.fate.get(card)
        if trick is None or trick.winner is None or self.team[trick.winner] == self.team[seat]:
            return None
        return trick

    def is_master(self, card: int, view: PlayView) -> bool:
        """Whether no card the player cannot see beats ``card`` in its own suit.

        Such a card may win a trick of its own later, so keeping it back is never flagged.
        """
        return not higher_of_suit(card) & self.unknown(view)

    def partner_seat_winning(self, view: PlayView) -> int | None:
        """The partner's seat when the partner is winning the trick before this play."""
        if view.position == 0:
            return None
        winner = view.trick.winning[view.position - 1]
        if winner == view.seat or self.team[winner] != self.team[view.seat]:
            return None
        return winner

    def winning_card_before(self, view: PlayView) -> int:
        """The card winning the trick just before this play (the play must not be a lead)."""
        return view.trick.cards[winning_position(view.trick.cards[: view.position], self.trump)]

    def partner_certain(self, view: PlayView) -> bool:
        """Whether the partner's card was certain to take the trick, as far as the player knew.

        Certain means: no opponent still to play can hold a card that beats it. An opponent
        may hold any card the player cannot see, except those of suits the opponent has shown
        out of. A non-trump card is beaten by a higher card of its suit or by any trump (the
        opponent may be void in the led suit); a trump only by a higher trump. For a finding to
        stand the team must also have taken the trick (hindsight only narrows).
        """
        if self.partner_seat_winning(view) is None:
            return False
        trick = view.trick
        if trick.winner is None or self.team[trick.winner] != self.team[view.seat]:
            return False
        best = self.winning_card_before(view)
        unknown = self.unknown(view)
        for later in range(view.position + 1, self.trick_size):
            seat = (trick.leader + later) % self.players
            if self.team[seat] == self.team[view.seat]:
                continue
            possible = unknown
            for suit in range(4):
                if view.voids[seat] >> suit & 1:
                    possible &= ~SUIT_MASKS[suit]
            if possible & higher_of_suit(best):
                return False
            if not self.is_trump(best) and possible & self.trump_mask:
                return False
        return True
