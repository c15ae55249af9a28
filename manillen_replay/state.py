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

Stacks = tuple[tuple[int, ...], ...]
"""One seat's table cards: four piles, each bottom to top; only the top card lies face up."""


def table_tops(stacks: Stacks) -> int:
    """The face-up (playable) table cards of one seat, as a mask."""
    mask = 0
    for pile in stacks:
        if pile:
            mask |= 1 << pile[-1]
    return mask


class DealState(NamedTuple):
    """One moment of a deal: who holds what, the trick on the table, the points taken."""

    rules: Rules
    """The house rules and variant."""
    dealer: int
    """The dealer's seat."""
    trump: int | None
    """The trump suit (a :class:`Suit` value), ``None`` for muil."""
    hands: tuple[int, ...]
    """The cards each seat still holds in the hand, as masks."""
    leader: int
    """The seat that led (or leads) the current trick."""
    trick: tuple[int, ...] = ()
    """The cards of the current trick, leader first."""
    tricks_done: int = 0
    """How many tricks are complete."""
    taken: tuple[int, int] = (0, 0)
    """The card points each side has taken (laid-aside cards included)."""
    table: tuple[Stacks, ...] = ()
    """Each seat's table cards (empty in variants without them)."""

    @classmethod
    def start(
        cls,
        rules: Rules,
        dealer: int,
        trump: int | None,
        hands: tuple[int, ...],
        table: tuple[Stacks, ...] = (),
        taken: tuple[int, int] = (0, 0),
    ) -> DealState:
        """The deal before the opening lead, which is by the dealer's left.

        :param taken: points the sides start with (the laid-aside cards' points).
        """
        shape = rules.shape
        return cls(rules, dealer, trump, hands, shape.next_seat(dealer, dealer), (), 0, taken, table)

    @property
    def to_play(self) -> int:
        """The seat whose turn it is."""
        return self.rules.shape.seat_of_play(self.leader, len(self.trick), self.dealer)

    @property
    def is_over(self) -> bool:
        """Whether every trick has been played."""
        return self.tricks_done >= self.rules.shape.tricks

    def playable(self, seat: int) -> int:
        """The cards ``seat`` may play from: the hand and the face-up table cards."""
        if self.table:
            return self.hands[seat] | table_tops(self.table[seat])
        return self.hands[seat]

    def team_of(self, seat: int) -> int:
        """The side a seat plays for in this deal."""
        return self.rules.shape.team_of(seat, self.dealer)

    def partner_winning(self) -> bool:
        """Whether the trick so far is won by the side of the seat to play."""
        if not self.trick:
            return False
        shape = self.rules.shape
        winner = shape.seat_of_play(self.leader, winning_position(self.trick, self.trump), self.dealer)
        return shape.team_of(winner, self.dealer) == shape.team_of(self.to_play, self.dealer)

    def legal_mask(self) -> int:
        """The cards the seat to play may play, as a mask."""
        playable = self.playable(self.to_play)
        return legal_mask(self.trick, playable, self.trump, self.partner_winning(), self.rules)[0]

    def legal(self) -> LegalPlays:
        """The cards the seat to play may play, and the clause that decides it."""
        return legal_plays(
            [Card(c) for c in self.trick],
            CardSet(self.playable(self.to_play)),
            None if self.trump is None else Suit(self.trump),
            self.partner_winning(),
            self.rules,
        )

    def violation(self, card: int) -> ViolationKind | None:
        """The rule a card would break if played now, ``None`` when it is legal."""
        if self.legal_mask() >> card & 1:
            return None
        return classify_violation(card, self.trick, self.playable(self.to_play), self.trump)

    def can_move_to_empty_place(self, seat: int) -> bool:
        """Whether ``seat`` may move the top card of its third pile to its emptied fourth place."""
        if not self.table or not self.table[seat]:
            return False
        piles = self.table[seat]
        return not piles[3] and len(piles[2]) >= 2

    def move_to_empty_place(self, seat: int) -> DealState:
        """The state after ``seat`` moves its third pile's top card to the empty fourth place,
        which turns up the card under it.

        :raises IllegalPlayError: when the fourth place is not empty or the third pile has no card under.
        """
        if not self.can_move_to_empty_place(seat):
            raise IllegalPlayError(
                "a card moves from the 3rd pile only to an emptied 4th place, uncovering another"
            )
        piles = list(self.table[seat])
        piles[3] = (piles[2][-1],)
        piles[2] = piles[2][:-1]
        table = list(self.table)
        table[seat] = tuple(piles)
        return self._replace(table=tuple(table))

    def apply(self, card: int, *, strict: bool = False) -> DealState:
        """The state after the seat to play plays ``card``.

        :param strict: raise on a card that breaks the rules of play (it is played otherwise).
        :raises IllegalPlayError: for a card the seat cannot play, or an illegal one if strict.
        """
        seat = self.to_play
        hands = self.hands
        table = self.table
        if hands[seat] >> card & 1:
            hands = (*hands[:seat], hands[seat] & ~(1 << card), *hands[seat + 1 :])
        elif table and table_tops(table[seat]) >> card & 1:
            piles = tuple(pile[:-1] if pile and pile[-1] == card else pile for pile in table[seat])
            table = (*table[:seat], piles, *table[seat + 1 :])
        else:
            raise IllegalPlayError(f"illegal play: seat {seat} does not hold {Card(card)}")
        if strict:
            kind = self.violation(card)
            if kind is not None:
                raise IllegalPlayError(
                    f"illegal play: {Card(card)} by seat {seat} in trick {self.tricks_done + 1}: {kind.value}"
                )
        trick = (*self.trick, card)
        shape = self.rules.shape
        if len(trick) < shape.trick_size:
            return self._replace(hands=hands, trick=trick, table=table)
        winner = shape.seat_of_play(self.leader, winning_position(trick, self.trump), self.dealer)
        team = shape.team_of(winner, self.dealer)
        taken = list(self.taken)
        taken[team] += sum(CARD_POINTS[c] for c in trick)
        return self._replace(
            hands=hands,
            trick=(),
            leader=winner,
            tricks_done=self.tricks_done + 1,
            taken=(taken[0], taken[1]),
            table=table,
        )


@dataclass(frozen=True)
class MatchState:
    """The running match: scores, the target in force, and whether it is decided.

    Scores are kept per team, or per person in the three-player games (``Variant.scorers``).
    """

    rules: Rules
    """The house rules."""
    score: tuple[int, ...] = (0, 0)
    """Each team's (or person's) match score."""
    target: int = 101
    """The target in force (raised by an extension)."""
    deals_scored: int = 0
    """Deals that counted (played or from the scoresheet), redeals and abandoned ones not."""
    carry: bool = False
    """Whether the next deal counts double after a 30-30."""
    winner: int | None = None
    """The winning team (or person), once the match is decided; ``None`` for a draw or while it runs."""
    finished: bool = False
    """Whether the match is decided."""
    final_score: tuple[int, ...] | None = None
    """The score at the moment the match was decided."""

    @classmethod
    def start(cls, rules: Rules) -> MatchState:
        """A match before its first deal."""
        return cls(rules=rules, score=(0,) * rules.shape.scorers, target=rules.target)

    def apply_deal(
        self,
        score: DealScore | None,
        tie: bool,
        penalties: tuple[tuple[int, int], ...] = (),
        dealer: int = 0,
    ) -> MatchState:
        """The match after a deal that counted.

        :param score: what the deal scored (a side and its points), ``None`` when nobody scored.
        :param tie: whether the deal was a 30-30 (the next deal then counts double, unless the
            house rule ``thirty_carry`` is off).
        :param penalties: ``(side, points)`` of each fault in the deal.
        :param dealer: the deal's dealer (the sides of the three-player games follow the dealer).
        """
        rules = self.rules
        shape = rules.shape
        totals = list(self.score)
        if score is not None:
            if len(totals) == 2:  # one score a side: the side's own (shape.side_scorers)
                totals[score.team] += score.points
            else:
                for scorer in shape.side_scorers(score.team, dealer):
                    totals[scorer] += score.points
        if penalties:
            _add_penalties(totals, penalties, rules, dealer)
        # Built directly, its fields set in one go: dataclasses.replace inspects the fields on
        # every call, and a frozen dataclass's __init__ sets each one through object.__setattr__.
        state = _new_state(MatchState)
        state.__dict__.update(
            rules=self.rules,
            score=tuple(totals),
            target=self.target,
            deals_scored=self.deals_scored + 1,
            carry=tie and self.rules.thirty_carry,
            winner=self.winner,
            finished=self.finished,
            final_score=self.final_score,
        )
        if self.finished:
            return state
        # What _decide answers at once for most deals: a fixed number of deals not all played,
        # or no score at the target yet.
        if rules.format == "fixed":
            if state.deals_scored < rules.deals:
                return state
        elif max(totals) < self.target:
            return state
        return state._decide()

    def apply_penalties(self, penalties: tuple[tuple[int, int], ...], dealer: int = 0) -> MatchState:
        """The match after the penalties of a deal that does not count (abandoned, or dealt
        again): applied as recorded, as every penalty is (rules.md), the deal itself not counted.

        :param penalties: ``(side, points)`` of each fault in the deal.
        :param dealer: the deal's dealer (the sides of the three-player games follow the dealer).
        """
        if not penalties or self.finished:
            return self
        totals = list(self.score)
        _add_penalties(totals, penalties, self.rules, dealer)
        return replace(self, score=tuple(totals))._decide()

    def _decide(self) -> MatchState:
        score = self.score
        if self.rules.format == "fixed":
            if self.deals_scored < self.rules.deals:
                return self
            return replace(self, finished=True, winner=_leader(score), final_score=score)
        over = [s for s in score if s >= self.target]
        if not over:
            return self
        if len(over) > 1:
            later = [t for t in self.rules.extension if t > self.target]
            if later:
                return replace(self, target=later[0])._decide()
        return replace(self, finished=True, winner=_leader(score), final_score=score)


def _add_penalties(
    totals: list[int], penalties: tuple[tuple[int, int], ...], rules: Rules, dealer: int
) -> None:
    """Add each ``(side, points)`` fault to the match ``totals``, as ``penalty_to`` says."""
    for side, points in penalties:
        effect = penalty_effect(side, points, rules)
        for other in (0, 1):
            for scorer in rules.shape.side_scorers(other, dealer):
                totals[scorer] += effect[other]


_new_state = object.__new__


def _leader(score: tuple[int, ...]) -> int | None:
    best = max(score)
    leaders = [i for i, s in enumerate(score) if s == best]
    return leaders[0] if len(leaders) == 1 else None
