"""Immutable deal and match states: ``apply`` returns the next state, so a replay can step back."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple

from .cards import CARD_POINTS, Card, CardSet, Suit
from .errors import IllegalPlayError
from .rules import (
    DealScore,
    LegalPlays,
    Rules,
    ViolationKind,
    classify_violation,
    legal_mask,
    legal_plays,
    penalty_effect,
    winning_position,
)


class DealState(NamedTuple):
    """One moment of a deal: who holds what, the trick on the table, the points taken."""

    rules: Rules
    """The house rules and variant."""
    dealer: int
    """The dealer's seat."""
    trump: int | None
    """The trump suit (a :class:`Suit` value), ``None`` for muil."""
    hands: tuple[int, ...]
    """The cards each seat still holds, as masks."""
    leader: int
    """The seat that led (or leads) the current trick."""
    trick: tuple[int, ...] = ()
    """The cards of the current trick, leader first."""
    tricks_done: int = 0
    """How many tricks are complete."""
    taken: tuple[int, int] = (0, 0)
    """The card points each team has taken."""

    @classmethod
    def start(cls, rules: Rules, dealer: int, trump: int | None, hands: tuple[int, ...]) -> DealState:
        """The deal before the opening lead, which is by the dealer's left."""
        return cls(rules, dealer, trump, hands, rules.shape.next_seat(dealer))

    @property
    def to_play(self) -> int:
        """The seat whose turn it is."""
        return self.rules.shape.seat_of_play(self.leader, len(self.trick))

    @property
    def is_over(self) -> bool:
        """Whether every trick has been played."""
        return self.tricks_done >= self.rules.shape.tricks

    def team_of(self, seat: int) -> int:
        """The team a seat plays for in this deal."""
        return self.rules.shape.team_of(seat, self.dealer)

    def partner_winning(self) -> bool:
        """Whether the trick so far is won by the team of the seat to play."""
        if not self.trick:
            return False
        shape = self.rules.shape
        winner = shape.seat_of_play(self.leader, winning_position(self.trick, self.trump))
        return shape.team_of(winner, self.dealer) == shape.team_of(self.to_play, self.dealer)

    def legal_mask(self) -> int:
        """The cards the seat to play may play, as a mask."""
        return legal_mask(
            self.trick, self.hands[self.to_play], self.trump, self.partner_winning(), self.rules
        )[0]

    def legal(self) -> LegalPlays:
        """The cards the seat to play may play, and the clause that decides it."""
        return legal_plays(
            [Card(c) for c in self.trick],
            CardSet(self.hands[self.to_play]),
            None if self.trump is None else Suit(self.trump),
            self.partner_winning(),
            self.rules,
        )

    def violation(self, card: int) -> ViolationKind | None:
        """The rule a card would break if played now, ``None`` when it is legal."""
        seat = self.to_play
        if self.legal_mask() >> card & 1:
            return None
        return classify_violation(card, self.trick, self.hands[seat], self.trump)

    def apply(self, card: int, *, strict: bool = False) -> DealState:
        """The state after the seat to play plays ``card``.

        :param strict: raise on a card that breaks the rules of play (it is played otherwise).
        :raises IllegalPlayError: for a card the seat does not hold, or an illegal one if strict.
        """
        seat = self.to_play
        if not self.hands[seat] >> card & 1:
            raise IllegalPlayError(f"illegal play: seat {seat} does not hold {Card(card)}")
        if strict:
            kind = self.violation(card)
            if kind is not None:
                raise IllegalPlayError(
                    f"illegal play: {Card(card)} by seat {seat} in trick {self.tricks_done + 1}: {kind.value}"
                )
        hands = list(self.hands)
        hands[seat] &= ~(1 << card)
        trick = (*self.trick, card)
        shape = self.rules.shape
        if len(trick) < shape.trick_size:
            return self._replace(hands=tuple(hands), trick=trick)
        winner = shape.seat_of_play(self.leader, winning_position(trick, self.trump))
        team = shape.team_of(winner, self.dealer)
        taken = list(self.taken)
        taken[team] += sum(CARD_POINTS[c] for c in trick)
        return self._replace(
            hands=tuple(hands),
            trick=(),
            leader=winner,
            tricks_done=self.tricks_done + 1,
            taken=(taken[0], taken[1]),
        )


@dataclass(frozen=True)
class MatchState:
    """The running match: scores, the target in force, and whether it is decided."""

    rules: Rules
    """The house rules."""
    score: tuple[int, int] = (0, 0)
    """Each team's match score."""
    target: int = 101
    """The target in force (raised by an extension)."""
    deals_scored: int = 0
    """Deals that counted (played or from the scoresheet), redeals and abandoned ones not."""
    carry: bool = False
    """Whether the next deal counts double after a 30-30."""
    winner: int | None = None
    """The team that won, once the match is decided (``None`` for a draw or while it runs)."""
    finished: bool = False
    """Whether the match is decided."""
    final_score: tuple[int, int] | None = None
    """The score at the moment the match was decided."""

    @classmethod
    def start(cls, rules: Rules) -> MatchState:
        """A match before its first deal."""
        return cls(rules=rules, target=rules.target)

    def apply_deal(
        self, score: DealScore | None, tie: bool, penalties: tuple[tuple[int, int], ...] = ()
    ) -> MatchState:
        """The match after a deal that counted.

        :param score: what the deal scored, ``None`` when nobody scored.
        :param tie: whether the deal was a 30-30 (the next deal then counts double).
        :param penalties: ``(team, points)`` of each fault in the deal.
        """
        totals = list(self.score)
        if score is not None:
            totals[score.team] += score.points
        for team, points in penalties:
            effect = penalty_effect(team, points, self.rules)
            totals[0] += effect[0]
            totals[1] += effect[1]
        state = replace(self, score=(totals[0], totals[1]), deals_scored=self.deals_scored + 1, carry=tie)
        if self.finished:
            return state
        return state._decide()

    def _decide(self) -> MatchState:
        a, b = self.score
        if self.rules.format == "fixed":
            if self.deals_scored < self.rules.deals:
                return self
            return replace(self, finished=True, winner=_leader(a, b), final_score=self.score)
        target = self.target
        if max(a, b) < target:
            return self
        if min(a, b) >= target:
            later = [t for t in self.rules.extension if t > target]
            if later and max(a, b) < later[0]:
                return replace(self, target=later[0])
            if later:
                return replace(self, target=later[0])._decide()
        return replace(self, finished=True, winner=_leader(a, b), final_score=self.score)


def _leader(a: int, b: int) -> int | None:
    if a == b:
        return None
    return 0 if a > b else 1
