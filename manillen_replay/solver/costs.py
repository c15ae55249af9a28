"""What every card of a deal cost: with hindsight (all hands known) and from the player's view.

``dd_cost`` (hindsight, "double dummy" as bridge players say): the best card's value minus
the value of the card played, solving the real deal with all four hands open.

``view_cost``: the same, but each value is the average over the layouts of the hidden cards
that agree with everything the player had seen (own hand, the cards played, the voids and
other holdings shown by the rules of play, the trump call), each layout solved with all
hands open. A card that only looks bad with hindsight costs nothing here.

Values are card points the player's team takes from that play on, the current trick
included, with best play by both sides.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..cards import CARD_POINTS, Card
from ..engine.results import DealKind, DealResult
from ..rules import Contract, Rules, winning_position
from .layouts import Layouts, Moment, find_layouts, iter_moments
from .search import Position, SolverError, default_workers, solve_batch


@dataclass(frozen=True, slots=True)
class CardValue:
    """What one legal card was worth to the player's team, in card points from that play on."""

    hindsight: int
    """With all four hands known."""
    view: float | None
    """Averaged over the layouts the player could not tell apart (``None`` when not computed)."""


@dataclass(frozen=True)
class PlayCost:
    """One play of a deal with the cost of the card played and the value of every legal card."""

    trick: int
    """The trick, counted from 1."""
    play: int
    """The position in the trick, counted from 1."""
    seat: int
    """Who played."""
    card: Card
    """The card played."""
    dd_cost: int
    """Hindsight cost: card points the team lost against the best card, all hands known."""
    view_cost: float | None
    """Cost from the player's view: expected card points lost (``None`` when not computed)."""
    best_cards: tuple[Card, ...]
    """The best card or cards: by the player's view when computed, otherwise by hindsight."""
    values: Mapping[Card, CardValue]
    """Every legal card and its value."""
    deal: int = 0
    """The deal, counted from 1."""
    legal: bool = True
    """False for an illegal card: the rule finder reports it; its cost is against the legal cards."""
    layouts: int = 0
    """How many layouts the view value averages (0 when not computed or when the play was forced)."""
    exact: bool = False
    """True when those were all the layouts the player could not tell apart, not a sample."""
    hindsight_best: tuple[Card, ...] = field(default=())
    """The best card or cards with all hands known."""

    @property
    def forced(self) -> bool:
        """Whether only one card could be played."""
        return len(self.values) == 1

    def to_json(self) -> dict[str, Any]:
        """The play as JSON: cards as text, values per legal card."""
        return {
            "deal": self.deal,
            "trick": self.trick,
            "play": self.play,
            "seat": self.seat,
            "card": str(self.card),
            "dd_cost": self.dd_cost,
            "view_cost": None if self.view_cost is None else round(self.view_cost, 3),
            "best": [str(c) for c in self.best_cards],
            "legal": self.legal,
            "layouts": self.layouts,
            "exact": self.exact,
            "values": {
                str(card): {
                    "hindsight": value.hindsight,
                    "view": None if value.view is None else round(value.view, 3),
                }
                for card, value in self.values.items()
            },
        }


def deal_trump(deal: DealResult) -> int | None:
    """The trump suit of a deal, ``None`` for muil.

    :raises SolverError: when the record does not say what was played.
    """
    if deal.trump is not None:
        return int(deal.trump)
    if deal.contract in (Contract.MUIL, Contract.BLIND_MUIL):
        return None
    raise SolverError(f"deal {deal.number}: the record does not say the trump or muil")


def can_solve(deal: DealResult, rules: Rules) -> bool:
    """Whether the solver can cost this deal: four players, hands and the contract known, cards played."""
    return (
        rules.variant == "four"
        and deal.kind in (DealKind.PLAYED, DealKind.ABANDONED)
        and deal.hands is not None
        and bool(deal.tricks)
        and (deal.trump is not None or deal.contract in (Contract.MUIL, Contract.BLIND_MUIL))
    )


def _check(deal: DealResult, rules: Rules) -> None:
    if not can_solve(deal, rules):
        if rules.variant != "four":
            raise SolverError(f"the solver plays the four-player game only, not {rules.variant!r}")
        raise SolverError(
            f"deal {deal.number}: nothing to solve (needs the hands, the trump or muil, and played cards)"
        )


def _team_value(team0: int, seat: int, in_play: int) -> int:
    return team0 if seat % 2 == 0 else in_play - team0


def _best(values: Mapping[Card, float]) -> tuple[Card, ...]:
    top = max(values.values())
    return tuple(sorted(card for card, value in values.items() if value >= top - 1e-9))


def dd_costs(result: DealResult, rules: Rules) -> list[PlayCost]:
    """The hindsight cost of every play of a deal, and each legal card's value.

    :param result: a replayed deal (``manillen_replay.engine``) with its hands known.
    :param rules: the match's rules.
    :raises SolverError: for a deal the solver cannot take (see :func:`can_solve`).
    """
    _check(result, rules)
    trump = deal_trump(result)
    moments = [m for m in iter_moments(result, rules)]
    # From the last play back to the first: each position then knows the value of the card
    # played from it (the position after it was solved just before), which bounds its own value
    # and spares valuing that card; the early positions, the costly ones, gain the most.
    backwards = moments[::-1]
    precedes = [m.card if m.is_legal else -1 for m in backwards]
    _values, cards = solve_batch([m.position for m in backwards], trump, rules, precedes=precedes)
    cards = cards[::-1]
    illegal = [m for m in moments if not m.is_legal]
    after_values: dict[int, int] = {}
    if illegal:
        afters = [_after_position(m, trump) for m in illegal]
        values_after, _ = solve_batch([a for a, _ in afters], trump, rules, every_card=False)
        for moment, (_, gained), value in zip(illegal, afters, values_after, strict=True):
            after_values[moment.index] = int(value) + gained
    costs: list[PlayCost] = []
    for moment in moments:
        in_play = moment.position.points_in_play
        row = cards[moment.index]
        values = {
            Card(card): _team_value(int(row[card]), moment.seat, in_play)
            for card in range(36)
            if row[card] >= 0
        }
        if moment.is_legal:
            played = values[Card(moment.card)]
        else:
            played = _team_value(after_values[moment.index], moment.seat, in_play)
        best = max(values.values())
        costs.append(
            PlayCost(
                trick=moment.trick,
                play=moment.play,
                seat=moment.seat,
                card=Card(moment.card),
                dd_cost=max(0, best - played),
                view_cost=None,
                best_cards=_best({c: float(v) for c, v in values.items()}),
                values={card: CardValue(value, None) for card, value in values.items()},
                deal=result.number,
                legal=moment.is_legal,
                hindsight_best=_best({c: float(v) for c, v in values.items()}),
            )
        )
    return costs


def _after_position(moment: Moment, trump: int | None) -> tuple[Position, int]:
    position = moment.position
    hands = list(position.hands)
    hands[moment.seat] &= ~(1 << moment.card)
    trick = (*position.trick, moment.card)
    if len(trick) < 4:
        return Position((hands[0], hands[1], hands[2], hands[3]), trick, position.leader), 0
    winner = (position.leader + winning_position(trick, trump)) % 4
    gained = sum(CARD_POINTS[c] for c in trick) if winner % 2 == 0 else 0
    return Position((hands[0], hands[1], hands[2], hands[3]), (), winner), gained


def view_costs(
    result: DealResult,
    rules: Rules,
    *,
    samples: int = 50,
    seed: int = 0,
    workers: int | None = None,
    hindsight: list[PlayCost] | None = None,
) -> list[PlayCost]:
    """The cost of every play from the player's view, beside the hindsight cost.

    For each play with a choice, the hidden cards are laid out in every way that agrees with
    what the player had seen (all of them when there are at most ``samples``, otherwise
    ``samples`` drawn with a fixed seed), each layout is solved with all hands open, and
    each legal card's values are averaged. Forced plays cost 0 and are not sampled; illegal
    plays get no view cost (the rule finder reports them).

    :param result: a replayed deal with its hands known.
    :param rules: the match's rules.
    :param samples: layouts per play (more settle the estimate; docs/solver.md shows how fast).
    :param seed: the random seed: the same seed gives the same costs.
    :param workers: threads to use (default: one per core).
    :param hindsight: the deal's :func:`dd_costs`, when the caller has them already.
    :raises SolverError: for a deal the solver cannot take, or ``samples`` below 1.
    """
    if samples < 1:
        raise SolverError(f"samples must be at least 1, not {samples}")
    if hindsight is None:
        hindsight = dd_costs(result, rules)
    trump = deal_trump(result)
    moments = list(iter_moments(result, rules))
    chosen: list[tuple[Moment, Layouts]] = []
    positions: list[Position] = []
    for moment, cost in zip(moments, hindsight, strict=True):
        if not moment.is_legal or cost.forced:
            continue
        rng = random.Random(f"{seed}:{result.number}:{moment.trick}:{moment.play}")
        layouts = find_layouts(moment, trump, rules, samples, rng)
        chosen.append((moment, layouts))
        positions.extend(
            Position(layout, moment.position.trick, moment.position.leader) for layout in layouts.hands
        )
    _values, cards = solve_batch(positions, trump, rules, workers=workers or default_workers())
    views: dict[int, tuple[dict[Card, float], Layouts]] = {}
    start = 0
    for moment, layouts in chosen:
        count = len(layouts.hands)
        in_play = moment.position.points_in_play
        block = cards[start : start + count]
        start += count
        legal = [c for c in range(36) if block[0, c] >= 0]
        means = {
            Card(c): sum(_team_value(int(v), moment.seat, in_play) for v in block[:, c]) / count
            for c in legal
        }
        views[moment.index] = (means, layouts)
    costs: list[PlayCost] = []
    for moment, cost in zip(moments, hindsight, strict=True):
        if moment.index not in views:
            view_cost = 0.0 if moment.is_legal else None
            costs.append(_with_view(cost, view_cost, None, 0, False))
            continue
        means, layouts = views[moment.index]
        top = max(means.values())
        view_cost = max(0.0, top - means[cost.card])
        costs.append(_with_view(cost, view_cost, means, len(layouts.hands), layouts.exact))
    return costs


def _with_view(
    cost: PlayCost, view_cost: float | None, means: dict[Card, float] | None, layouts: int, exact: bool
) -> PlayCost:
    values = {
        card: CardValue(value.hindsight, None if means is None else means[card])
        for card, value in cost.values.items()
    }
    return PlayCost(
        trick=cost.trick,
        play=cost.play,
        seat=cost.seat,
        card=cost.card,
        dd_cost=cost.dd_cost,
        view_cost=view_cost,
        best_cards=cost.best_cards if means is None else _best(means),
        values=values,
        deal=cost.deal,
        legal=cost.legal,
        layouts=layouts,
        exact=exact,
        hindsight_best=cost.hindsight_best,
    )
