"""The luck and skill ledger: how much of a deal's card points came from the cards, how much from play.

For each deal and team (the four-player game, which the solver costs):

- **the cards**: what the deal was worth to the team with best play by everyone from the first
  lead on, under the call made, all hands known (the value of the first lead's best card);
- **given away**: the hindsight costs (``dd_cost``) of the team's own cards;
- **won back**: the hindsight costs of the opponents' cards;
- **illegal cards**: what illegal cards (of either side) changed for the team; 0 without one.
  The rules' penalty for them is scored apart.

With hindsight costs the parts add up exactly: ``points = cards - given_away + won_back +
illegal``. Each card moves the value of the deal by exactly its hindsight cost, away from the
side that played it, so the values telescope from the first lead to the last trick.

From the player's view the decisions are the **mistakes** (view costs, what the player could have
known); the rest is **luck**: ``luck = points - cards + mistakes - opponent_mistakes - illegal``,
the hindsight cost that nobody could have seen, for and against the team.

Calls (trump, muil, klop) are reviewed apart, in expected scoresheet points from the caller's own
hand (:mod:`manillen_replay.analysis.call_review`): they are reported beside the card points, not in the sum.

Pure arithmetic over the solver's costs, no I/O; the archive's ``deal_ledger`` and
``player_ledger`` views (docs/sql.md) compute the same figures in SQL.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..cards import CARD_POINTS, iter_mask
from ..engine.results import DealKind, DealResult
from ..errors import ManillenError

if TYPE_CHECKING:
    from .costs import PlayCost

FORMULA_VERSION = "ledger-1"
"""The version of the ledger's formulas, printed in reports beside the accuracy formula's."""


class LedgerError(ManillenError):
    """A deal the ledger cannot split: not played to the end, or costs that do not fit the deal."""


@dataclass(frozen=True, slots=True)
class TeamLedger:
    """One team's card points in one deal, split into the cards and the decisions (card points of 60)."""

    team: int
    """The team: 0 (seats 0 and 2) or 1 (seats 1 and 3)."""
    cards: int
    """What the deal was worth to the team with best play from the first lead on, all hands known."""
    given_away: int
    """Hindsight costs of the team's legal cards: points its own decisions gave away."""
    won_back: int
    """Hindsight costs of the opponents' legal cards: points their decisions gave to this team."""
    illegal: int
    """What illegal cards of either side changed for the team (their penalty is scored apart)."""
    points: int
    """The card points the team took."""
    mistakes: float | None
    """View costs of the team's legal cards: what it gave away that it could have known."""
    opponent_mistakes: float | None
    """View costs of the opponents' legal cards."""
    calls: float | None = None
    """Expected scoresheet points the team's calls gave away (the call review), when reviewed."""

    @property
    def decisions(self) -> int:
        """The decisions' share of the points: ``won_back - given_away + illegal``."""
        return self.won_back - self.given_away + self.illegal

    @property
    def luck(self) -> float | None:
        """What hindsight shows and nobody could have seen: the points not explained by the cards
        and the mistakes of both sides (positive: it went the team's way)."""
        if self.mistakes is None or self.opponent_mistakes is None:
            return None
        return self.points - self.cards + self.mistakes - self.opponent_mistakes - self.illegal


@dataclass(frozen=True, slots=True)
class SeatLedger:
    """What one seat's own cards did in a deal."""

    seat: int
    """The seat."""
    given_away: int
    """Hindsight costs of the seat's legal cards."""
    mistakes: float | None
    """View costs of the seat's legal cards (``None`` without view costs)."""
    illegal: int
    """What the seat's illegal cards changed for its team (positive: they gained)."""
    calls: float | None = None
    """Expected scoresheet points the seat's calls gave away, when reviewed."""


@dataclass(frozen=True, slots=True)
class DealLedger:
    """A deal's ledger: per team and per seat."""

    deal: int
    """The deal, counted from 1."""
    multiplier: int
    """The deal's factor: a card point is worth this many scoresheet points when it decides the deal."""
    teams: tuple[TeamLedger, TeamLedger]
    """Team 0's and team 1's ledger."""
    seats: tuple[SeatLedger, ...]
    """Each seat's own share, by seat."""


@dataclass(frozen=True, slots=True)
class PlayerLedger:
    """One player's ledger over some deals (a match, an evening, all time), in card points."""

    deals: int
    """Deals counted."""
    cards: int
    """What the team's cards were worth with best play."""
    given_away: int
    """Given away by the player's own decisions (hindsight costs of the player's cards)."""
    partner_given_away: int
    """Given away by the partner's decisions."""
    won_back: int
    """Won back by the opponents' decisions."""
    illegal: int
    """What illegal cards changed for the team."""
    points: int
    """Card points the team took: ``cards - given_away - partner_given_away + won_back + illegal``."""
    mistakes: float | None
    """The player's own view costs."""
    partner_mistakes: float | None
    """The partner's view costs."""
    opponent_mistakes: float | None
    """The opponents' view costs."""
    luck: float | None
    """The rest, from the team's view (see :attr:`TeamLedger.luck`)."""
    calls: float | None
    """Expected scoresheet points the player's own calls gave away, where reviewed."""


def _team_of(seat: int) -> int:
    return seat % 2


def _best(cost: PlayCost) -> int:
    return max(value.hindsight for value in cost.values.values())


def deal_ledger(
    deal: DealResult, costs: Sequence[PlayCost], *, calls: Mapping[int, float] | None = None
) -> DealLedger:
    """Split a played deal's card points into the cards and each side's decisions.

    :param deal: the replayed deal, played to the end (``DealKind.PLAYED``) with its hands known.
    :param costs: every play's costs in order (:func:`~manillen_replay.analysis.costs.dd_costs` or
        :func:`~manillen_replay.analysis.costs.view_costs`); with hindsight costs only, the view figures
        are ``None``.
    :param calls: expected scoresheet points given away by each seat's calls
        (:attr:`~manillen_replay.analysis.call_review.CallReview.loss`), for the seats reviewed.
    :raises LedgerError: for a deal not played to the end, or costs that are not the deal's plays.
    """
    if deal.kind is not DealKind.PLAYED or deal.points is None or deal.hands is None:
        raise LedgerError(f"deal {deal.number}: only a deal played to the end has a ledger")
    plays = [(trick, seat) for trick in deal.tricks for seat in trick.seats]
    if len(plays) != len(costs) or any(
        cost.seat != seat or (cost.trick, cost.play) != (trick.number, trick.seats.index(seat) + 1)
        for cost, (trick, seat) in zip(costs, plays, strict=True)
    ):
        raise LedgerError(f"deal {deal.number}: the costs are not those of the deal's {len(plays)} plays")
    total = sum(CARD_POINTS[card] for hand in deal.hands for card in iter_mask(hand))
    # Team 0's sure points plus its value from each moment on: the first is the cards' worth,
    # after the last play it is the points taken; each legal card moves it by its hindsight cost.
    gauge: list[int] = []
    taken = [0, 0]
    index = 0
    for trick in deal.tricks:
        for _ in trick.seats:
            cost = costs[index]
            best = _best(cost)
            in_play = total - taken[0] - taken[1]
            team0 = best if _team_of(cost.seat) == 0 else in_play - best
            gauge.append(taken[0] + team0)
            index += 1
        if trick.winner is not None:
            taken[_team_of(trick.winner)] += trick.points
    gauge.append(deal.points[0])
    illegal_seat = [0, 0, 0, 0]
    for position, cost in enumerate(costs):
        if not cost.legal:
            change = gauge[position + 1] - gauge[position]  # for team 0
            illegal_seat[cost.seat] += change if _team_of(cost.seat) == 0 else -change
    viewed = all(cost.view_cost is not None for cost in costs if cost.legal)
    seats = tuple(
        SeatLedger(
            seat=seat,
            given_away=sum(c.dd_cost for c in costs if c.seat == seat and c.legal),
            mistakes=sum(c.view_cost or 0.0 for c in costs if c.seat == seat and c.legal) if viewed else None,
            illegal=illegal_seat[seat],
            calls=None if calls is None else calls.get(seat),
        )
        for seat in range(4)
    )
    cards0 = gauge[0]
    teams = []
    for team in (0, 1):
        own = [s for s in seats if _team_of(s.seat) == team]
        other = [s for s in seats if _team_of(s.seat) != team]
        illegal = sum(s.illegal for s in own) - sum(s.illegal for s in other)
        own_calls = [s.calls for s in own if s.calls is not None]
        teams.append(
            TeamLedger(
                team=team,
                cards=cards0 if team == 0 else total - cards0,
                given_away=sum(s.given_away for s in own),
                won_back=sum(s.given_away for s in other),
                illegal=illegal,
                points=deal.points[team],
                mistakes=sum(s.mistakes or 0.0 for s in own) if viewed else None,
                opponent_mistakes=sum(s.mistakes or 0.0 for s in other) if viewed else None,
                calls=sum(own_calls) if own_calls else None,
            )
        )
    return DealLedger(deal.number, deal.multiplier or 1, (teams[0], teams[1]), seats)


def _sum_or_none(values: Iterable[float | None]) -> float | None:
    present = list(values)
    if not present or any(v is None for v in present):
        return None
    return float(sum(v for v in present if v is not None))


def player_ledger(ledgers: Iterable[DealLedger], seats: Iterable[int]) -> PlayerLedger:
    """One player's ledger over several deals.

    :param ledgers: the deals' ledgers.
    :param seats: the player's seat in each of those deals, in the same order.
    """
    rows = list(zip(ledgers, seats, strict=True))
    calls = [ledger.seats[seat].calls for ledger, seat in rows]
    present_calls = [c for c in calls if c is not None]

    def team(ledger: DealLedger, seat: int) -> TeamLedger:
        return ledger.teams[_team_of(seat)]

    def partner(ledger: DealLedger, seat: int) -> SeatLedger:
        return ledger.seats[(seat + 2) % 4]

    return PlayerLedger(
        deals=len(rows),
        cards=sum(team(ledger, seat).cards for ledger, seat in rows),
        given_away=sum(ledger.seats[seat].given_away for ledger, seat in rows),
        partner_given_away=sum(partner(ledger, seat).given_away for ledger, seat in rows),
        won_back=sum(team(ledger, seat).won_back for ledger, seat in rows),
        illegal=sum(team(ledger, seat).illegal for ledger, seat in rows),
        points=sum(team(ledger, seat).points for ledger, seat in rows),
        mistakes=_sum_or_none(ledger.seats[seat].mistakes for ledger, seat in rows),
        partner_mistakes=_sum_or_none(partner(ledger, seat).mistakes for ledger, seat in rows),
        opponent_mistakes=_sum_or_none(team(ledger, seat).opponent_mistakes for ledger, seat in rows),
        luck=_sum_or_none(team(ledger, seat).luck for ledger, seat in rows),
        calls=sum(present_calls) if present_calls else None,
    )
