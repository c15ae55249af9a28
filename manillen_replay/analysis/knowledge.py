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
from ..rules import Rules, Variant, winning_position


def suit_of(card: int) -> int:
    """The suit (a :class:`~manillen_replay.cards.Suit` value) of a card."""
    return card // RANKS_PER_SUIT


def higher_of_suit(card: int) -> int:
    """The mask of the cards of the same suit that beat ``card``."""
    return SUIT_MASKS[card // RANKS_PER_SUIT] & ~((2 << card) - 1)


def points_of(card: int) -> int:
    """Card points: 10 = 5, A = 4, K = 3, Q = 2, J = 1."""
    return CARD_POINTS[card]


RICHER_THAN: tuple[int, ...] = tuple(
    sum(1 << card for card in range(len(CARD_POINTS)) if CARD_POINTS[card] > points) for points in range(6)
)
"""By card points (0 to 5), the mask of the cards worth more."""
POORER_THAN: tuple[int, ...] = tuple(
    sum(1 << card for card in range(len(CARD_POINTS)) if CARD_POINTS[card] < points) for points in range(6)
)
"""By card points (0 to 5), the mask of the cards worth less (none for a card without points)."""


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


_TEAMS: dict[tuple[str, int, int], tuple[int, ...]] = {}
"""Each seat's side, by who sits together, how many seats and the dealer (a deal at a time
otherwise)."""


def seat_teams(shape: Variant, dealer: int) -> tuple[int, ...]:
    """Each seat's side in a deal dealt by ``dealer`` (``shape.team_of``), worked out once for
    every deal of every match alike."""
    key = (shape.sides, shape.players, dealer)
    team = _TEAMS.get(key)
    if team is None:
        team = _TEAMS[key] = tuple(shape.team_of(seat, dealer) for seat in range(shape.players))
    return team


class DealKnowledge:
    """A replayed deal seen play by play, with the fate of every card."""

    def __init__(
        self, deal: DealResult, rules: Rules, known: tuple[list[int], list[int], list[int]] | None = None
    ) -> None:
        """
        :param deal: a replayed deal with its hands known (``deal.hands`` not ``None``).
        :param rules: the match's rules (variant shape and deck).
        :param known: for a deal of four players, before each of its plays in order: the
            player's hand, the cards seen, and each seat's suits shown out of, four bits a seat
            (seat 0 lowest), as the bulk path's gate worked them out for the batch
            (:func:`~.batch_gate.batch_gate`); then a play's view is made only when asked for.
        """
        self.deal = deal
        self.rules = rules
        shape = rules.shape
        self.players = shape.players
        self.trick_size = shape.trick_size
        self.deck = shape.deck_mask
        self.trump = None if deal.trump is None else int(deal.trump)
        self.trump_mask = 0 if self.trump is None else SUIT_MASKS[self.trump]
        self.team = seat_teams(shape, deal.dealer)
        self._tricks = deal.tricks
        self._known = known
        self._views: list[PlayView] | None = None
        self._fate: dict[int, TrickResult] | None = None

    @property
    def views(self) -> list[PlayView]:
        """Every play of the deal as its player saw it, in order."""
        if self._views is None:
            if self._known is None:
                self._views = self._walk()
            else:
                self._views = [self._view(index) for index in range(len(self._known[0]))]
        return self._views

    @property
    def fate(self) -> dict[int, TrickResult]:
        """For each card, the complete trick it fell in."""
        if self._fate is None:
            self._fate = {
                card: trick for trick in self._tricks if trick.winner is not None for card in trick.cards
            }
        return self._fate

    def _walk(self) -> list[PlayView]:
        assert self.deal.hands is not None
        hands = list(self.deal.hands)
        seen = 0
        voids = [0] * self.players
        shown: tuple[int, ...] = tuple(voids)
        views: list[PlayView] = []
        add = views.append
        make = tuple.__new__  # PlayView's own __new__ is a Python function: a call more a play
        per_suit = RANKS_PER_SUIT
        for trick in self._tricks:
            cards = trick.cards
            led = cards[0] // per_suit if cards else 0
            plays = zip(range(len(cards)), trick.seats, cards, trick.legal, strict=True)
            for position, seat, card, legal in plays:
                add(make(PlayView, (trick, position, seat, card, hands[seat], legal, seen, shown)))
                bit = 1 << card
                hands[seat] &= ~bit
                seen |= bit
                if position and card // per_suit != led and not voids[seat] >> led & 1:
                    voids[seat] |= 1 << led
                    shown = tuple(voids)
        return views

    def _view(self, index: int) -> PlayView:
        """The play at ``index`` from what the batch's gate worked out (``known``)."""
        assert self._known is not None
        hands, seen, voids = self._known
        trick = self._tricks[index // self.trick_size]
        position = index % self.trick_size
        shown = voids[index]
        return tuple.__new__(
            PlayView,
            (
                trick,
                position,
                trick.seats[position],
                trick.cards[position],
                hands[index],
                trick.legal[position],
                seen[index],
                (shown & 15, shown >> 4 & 15, shown >> 8 & 15, shown >> 12),
            ),
        )

    def view(self, index: int) -> PlayView:
        """The play at ``index`` in the deal (from 0, every earlier trick complete)."""
        if self._views is None and self._known is not None:
            return self._view(index)
        return self.views[index]

    def plays_of(self, seat: int, before_trick: int) -> Iterator[PlayView]:
        """The seat's plays in the tricks before trick number ``before_trick``."""
        for view in self.views:
            if view.trick.number >= before_trick:
                return
            if view.seat == seat:
                yield view

    def plays_after(self, seat: int, after_trick: int) -> Iterator[PlayView]:
        """The seat's plays in the tricks after trick number ``after_trick``, in order."""
        size = self.trick_size
        for trick in self._tricks[after_trick:]:
            first = (trick.number - 1) * size
            for position, player in enumerate(trick.seats):
                if player == seat:
                    yield self.view(first + position)

    def view_at(self, trick: int, position: int) -> PlayView:
        """The play at ``position`` (from 0) of trick number ``trick`` (every earlier trick complete)."""
        return self.view((trick - 1) * self.trick_size + position)

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
        """Whether ``card`` is a sure winner later, as far as the player knew.

        No card the player cannot see beats it in its own suit (every higher card is played or
        in the player's own hand), and, for a card that is not a trump, no opponent can still
        hold a trump: an opponent may be void in the suit and ruff it. A trump is a master
        once every higher trump is gone or in the player's hand.
        """
        unknown = self.unknown(view)
        if higher_of_suit(card) & unknown:
            return False
        return self.is_trump(card) or not self.opponents_may_hold(view, unknown & self.trump_mask)

    def is_top(self, card: int, view: PlayView) -> bool:
        """Whether no card the player cannot see beats ``card`` in its own suit (a trump may
        still ruff it: :meth:`is_master` says whether it is a sure winner)."""
        return not higher_of_suit(card) & self.unknown(view)

    def possible_cards(self, view: PlayView, seat: int) -> int:
        """The cards ``seat`` may hold as far as the player of ``view`` knew: any unseen card,
        except those of the suits ``seat`` has shown out of."""
        possible = self.unknown(view)
        for suit in range(4):
            if view.voids[seat] >> suit & 1:
                possible &= ~SUIT_MASKS[suit]
        return possible

    def opponents_may_hold(self, view: PlayView, cards: int) -> bool:
        """Whether an opponent of the player may hold one of ``cards`` (a mask)."""
        if not cards:
            return False
        own = self.team[view.seat]
        return any(
            self.team[seat] != own and self.possible_cards(view, seat) & cards for seat in range(self.players)
        )

    def opponent_may_beat(self, card: int, view: PlayView) -> bool:
        """Whether an opponent may hold a higher card of ``card``'s suit, as far as the player
        knew (for a trump: whether it may still be lost to a higher one)."""
        return self.opponents_may_hold(view, self.unknown(view) & higher_of_suit(card))

    def can_beat(self, view: PlayView, seat: int, best: int) -> bool:
        """Whether ``seat``, still to play in the trick, may hold a card that beats ``best``:
        a higher card of its suit, or for a card that is not a trump any trump (the seat may
        be void in the led suit)."""
        possible = self.possible_cards(view, seat)
        if possible & higher_of_suit(best):
            return True
        return not self.is_trump(best) and bool(possible & self.trump_mask)

    def beaters(self, best: int) -> int:
        """The mask of the cards that take a trick from ``best``, the card winning it: a higher
        card of its suit, and any trump when it is not one."""
        return higher_of_suit(best) | (0 if self.is_trump(best) else self.trump_mask)

    def later_seats(self, view: PlayView) -> Iterator[int]:
        """The seats still to play in the trick after this play."""
        trick = view.trick
        for later in range(view.position + 1, self.trick_size):
            yield (trick.leader + later) % self.players

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
        trick = view.trick
        # The replay kept the seat winning after each play: its card, unless the seat played
        # twice so far (the two-player games), when the rules say which of the two wins.
        earlier = trick.seats[: view.position]
        winner = trick.winning[view.position - 1]
        at = earlier.index(winner)
        if winner in earlier[at + 1 :]:
            return trick.cards[winning_position(trick.cards[: view.position], self.trump)]
        return trick.cards[at]

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
        own = self.team[view.seat]
        return not any(
            self.team[seat] != own and self.can_beat(view, seat, best) for seat in self.later_seats(view)
        )

    def opponents_certain(self, view: PlayView) -> bool:
        """Whether the opponents were certain to take the trick, as far as the player knew.

        An opponent is winning before the play, none of the player's legal cards beats the
        winning card, and the partner, if still to play, cannot hold a card that beats it
        (the mirror of :meth:`partner_certain`). The opponents must also really have taken it.
        """
        if view.position == 0:
            return False
        trick = view.trick
        own = self.team[view.seat]
        if trick.winner is None or self.team[trick.winner] == own:
            return False
        if self.team[trick.winning[view.position - 1]] == own:
            return False
        best = self.winning_card_before(view)
        if view.legal & self.beaters(best):
            return False
        return not any(
            self.team[seat] == own and self.can_beat(view, seat, best) for seat in self.later_seats(view)
        )
