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
import threading
from collections.abc import Collection, Mapping
from contextlib import ExitStack
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Protocol

import numpy as np

from ..cards import CARD_POINTS, CARDS, Card, iter_mask
from ..engine.results import DealKind, DealResult
from ..rules import Contract, Rules, mask_points, winning_position
from ..solver.search import DealTables, Position, SolverError, default_workers, solve_batch, solve_line
from ..state import DealState
from .layouts import (
    LayoutSampler,
    Moment,
    VariantLayoutSampler,
    iter_moments,
    iter_variant_views,
    solves_every,
)


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
    view_error: float = 0.0
    """The standard error of ``view_cost`` over the sampled layouts (0 when every layout was
    solved, or not computed): how far the estimate may be off."""

    @property
    def forced(self) -> bool:
        """Whether only one card could be played."""
        return len(self.values) == 1

    @property
    def sure_view_cost(self) -> float | None:
        """The view cost less :data:`SURE_Z` standard errors: what the card surely lost from the
        player's view, by which it is judged (an estimate that 50 layouts leave unsure is no
        finding; docs/solver.md)."""
        if self.view_cost is None:
            return None
        return max(0.0, self.view_cost - SURE_Z * self.view_error)

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
    """Whether the solver can cost this deal: hands and the contract known, cards played.

    The other variants than ``four`` are solved by the variant search (:mod:`..solver.variants`).
    """
    if rules.variant != "four":
        from ..solver.variants import can_solve_variant

        return can_solve_variant(deal, rules)
    return (
        deal.kind in (DealKind.PLAYED, DealKind.ABANDONED)
        and deal.hands is not None
        and bool(deal.tricks)
        and (deal.trump is not None or deal.contract in (Contract.MUIL, Contract.BLIND_MUIL))
    )


def _check(deal: DealResult, rules: Rules) -> None:
    if not can_solve(deal, rules):
        raise SolverError(
            f"deal {deal.number}: nothing to solve (needs the hands, the trump or muil, and played cards)"
        )


def _team_value(team0: int, seat: int, in_play: int) -> int:
    return team0 if seat % 2 == 0 else in_play - team0


NEAR_TIE = 0.1
"""Card points of the player's view within which a card counts as one of the best: averages over
sampled layouts that close are a tie, so a costly card's finding names every such card as the
better one, not whichever the sample put a hair ahead."""


def _best(values: Mapping[Card, float]) -> tuple[Card, ...]:
    """The best cards by the player's view: every card within :data:`NEAR_TIE` of the top, the
    best first (equal ones in card order).

    >>> _best({Card.H9: 6.0, Card.H8: 5.95, Card.HK: 3.0, Card.HA: 5.8})
    (Card.H9, Card.H8)
    """
    top = max(values.values())
    near = [card for card, value in values.items() if value >= top - NEAR_TIE - 1e-9]
    return tuple(sorted(near, key=lambda card: (-values[card], card)))


def dd_costs(result: DealResult, rules: Rules, *, workers: int | None = None) -> list[PlayCost]:
    """The hindsight cost of every play of a deal, and each legal card's value.

    :param result: a replayed deal (``manillen_replay.engine``) with its hands known.
    :param rules: the match's rules.
    :param workers: threads to use (default: one per core); the values do not depend on it.
    :raises SolverError: for a deal the solver cannot take (see :func:`can_solve`).
    """
    if rules.variant != "four":
        return variant_dd_costs(result, rules)
    _check(result, rules)
    trump = deal_trump(result)
    moments = list(iter_moments(result, rules, inferences=False))
    # From the last play back to the first: each position then knows the value of the card
    # played from it (the position after it was solved just before), which bounds its own value
    # and spares valuing that card; the early positions, the costly ones, gain the most. The
    # first lead, most of the work, is shared among the threads.
    cards_played = [m.card if m.is_legal else -1 for m in moments]
    _values, cards = solve_line(
        [m.position for m in moments], cards_played, trump, rules, workers=workers or default_workers()
    )
    illegal = [m for m in moments if not m.is_legal]
    after_values: dict[int, int] = {}
    if illegal:
        afters = [_after_position(m, trump) for m in illegal]
        values_after, _ = solve_batch([a for a, _ in afters], trump, rules, every_card=False)
        for moment, (_, gained), value in zip(illegal, afters, values_after, strict=True):
            after_values[moment.index] = int(value) + gained
    costs: list[PlayCost] = []
    rows: list[list[int]] = cards.tolist()
    for moment in moments:
        row = rows[moment.index]
        if moment.seat % 2 == 0:
            values = {card: row[card] for card in iter_mask(moment.legal) if row[card] >= 0}
        else:
            in_play = moment.position.points_in_play
            values = {card: in_play - row[card] for card in iter_mask(moment.legal) if row[card] >= 0}
        if moment.is_legal:
            played = values[moment.card]  # type: ignore[index]  # a Card is its int
        else:
            played = _team_value(after_values[moment.index], moment.seat, moment.position.points_in_play)
        costs.append(hindsight_cost(moment, values, played, result.number))
    return costs


def variant_dd_costs(result: DealResult, rules: Rules, positions: list[int] | None = None) -> list[PlayCost]:
    """The hindsight cost of every play of a deal of a variant other than ``four``.

    :param positions: when given, gets the number of positions the search visited.
    :raises SolverError: for a deal the variant search cannot take.
    """
    from ..solver.variants import variant_values

    return [
        hindsight_cost(play.moment, play.values, play.played, result.number)
        for play in variant_values(result, rules, positions)
    ]


class Play(Protocol):
    """What :func:`hindsight_cost` needs of a play: a four-player :class:`~.layouts.Moment`
    or a variant's moment."""

    @property
    def trick(self) -> int: ...
    @property
    def play(self) -> int: ...
    @property
    def seat(self) -> int: ...
    @property
    def card(self) -> int: ...
    @property
    def is_legal(self) -> bool: ...


def hindsight_cost(moment: Play, values: Mapping[Card, int], played: int, deal: int) -> PlayCost:
    """A play's hindsight cost from every legal card's value for the player's side.

    :param values: each legal card's card points for the player's side, all hands known.
    :param played: the same for the card played (an illegal card's too).
    :param deal: the deal's number.
    """
    ordered = sorted(values.items())
    top = max(values.values())
    best_cards = tuple([card for card, value in ordered if value == top])
    return PlayCost(
        trick=moment.trick,
        play=moment.play,
        seat=moment.seat,
        card=CARDS[moment.card],
        dd_cost=max(0, top - played),
        view_cost=None,
        best_cards=best_cards,
        values={card: _hindsight_only(value) for card, value in ordered},
        deal=deal,
        legal=moment.is_legal,
        hindsight_best=best_cards,
    )


_HINDSIGHT_ONLY = tuple(CardValue(points, None) for points in range(61))


def _hindsight_only(points: int) -> CardValue:
    """A card's value with hindsight only: one shared object per value (a deal makes ~150)."""
    return _HINDSIGHT_ONLY[points] if 0 <= points <= 60 else CardValue(points, None)


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


SURE_Z = 2.0
"""Standard errors taken off a sampled view cost before it is judged (:attr:`PlayCost.sure_view_cost`):
a card is called a mistake only when the layouts show it surely cost that much."""

VIEW_FLOOR = 12
"""Layouts every sampled play gets before the sequential rule may stop it (16 before: measured
against 200 layouts, 12 with steps of :data:`VIEW_STEP` stay as close, docs/solver.md)."""
VIEW_STEP = 4
"""Layouts added to each unsettled play per round: small steps stop a play closer to where its
verdict settles (the call reviews run beside, so the extra rounds' waits cost little)."""
VIEW_SETTLED_SE = 0.15
"""A play is settled when the standard error of the gap (best card minus card played) is this
small: the cost is then known to about 0.3 card point."""
VIEW_BANDS = (2.0, 4.0, 8.0)
"""Severity edges of a card's view cost (the same as ``findings.COST_THRESHOLDS``)."""
VIEW_BAND_Z = 3.0
"""A play is also settled when the gap lies this many standard errors inside one severity band."""


def _band(cost: float) -> int:
    return sum(cost >= edge for edge in VIEW_BANDS)


def is_settled(gaps: np.ndarray) -> bool:
    """Whether a play's verdict is settled by the gaps (best card minus card played) of its layouts.

    Settled when the standard error of their mean is at most :data:`VIEW_SETTLED_SE`, or when
    the mean lies :data:`VIEW_BAND_Z` standard errors inside one severity band.

    >>> bool(is_settled(np.zeros(16))), bool(is_settled(np.array([0.0, 10.0] * 8)))
    (True, False)
    """
    count = len(gaps)
    if count < 2:
        return False
    mean = float(gaps.mean())
    error = float(gaps.std(ddof=1)) / count**0.5
    if error <= VIEW_SETTLED_SE:
        return True
    return _band(max(0.0, mean - VIEW_BAND_Z * error)) == _band(mean + VIEW_BAND_Z * error)


@dataclass
class _Sampled:
    """One play's layouts and values so far, for the sequential rule."""

    moment: Moment
    sampler: LayoutSampler
    exact: bool
    pending: list[tuple[int, int, int, int]]
    values: list[np.ndarray] = field(default_factory=list)
    """Per round solved: the team's value of each card (-1 rows for illegal cards), one row a layout."""
    count: int = 0

    def table(self) -> np.ndarray:
        return np.concatenate(self.values) if self.values else np.zeros((0, 36))


def view_costs(
    result: DealResult,
    rules: Rules,
    *,
    samples: int = 50,
    seed: int = 0,
    workers: int | None = None,
    hindsight: list[PlayCost] | None = None,
    sequential: bool = True,
    tables: DealTables | None = None,
    first_play: VariantRows | None = None,
) -> list[PlayCost]:
    """The cost of every play from the player's view, beside the hindsight cost.

    For each play with a choice, the hidden cards are laid out in every way that agrees with
    what the player had seen (all of them when there are at most ``samples``, otherwise drawn
    with a fixed seed), each layout is solved with all hands open, and each legal card's
    values are averaged. With ``sequential`` a play stops drawing once its verdict is settled
    (:func:`is_settled`, after at least :data:`VIEW_FLOOR` layouts); otherwise, and at most,
    it gets ``samples``. Forced plays cost 0 and are not sampled; illegal plays get no view
    cost (the rule finder reports them). The other variants than ``four`` are costed by
    :func:`variant_view_costs` (``workers`` and ``tables`` are the four-player search's).

    :param result: a replayed deal with its hands known.
    :param rules: the match's rules.
    :param samples: layouts per play at most (more settle the estimate; docs/solver.md shows how fast).
    :param seed: the random seed: the same seed gives the same costs.
    :param workers: threads to use (default: one per core).
    :param hindsight: the deal's :func:`dd_costs`, when the caller has them already.
    :param sequential: stop sampling a play once its verdict is settled.
    :param tables: the deal's tables to solve on (one thread each, instead of ``workers``).
    :param first_play: a variant's first play's layouts, when a knock review shares them
        (:func:`variant_view_costs`).
    :raises SolverError: for a deal the solver cannot take, or ``samples`` below 1.
    """
    if samples < 1:
        raise SolverError(f"samples must be at least 1, not {samples}")
    if hindsight is None:
        hindsight = dd_costs(result, rules)
    if rules.variant != "four":
        return variant_view_costs(
            result,
            rules,
            samples=samples,
            seed=seed,
            hindsight=hindsight,
            sequential=sequential,
            first_play=first_play,
        )
    trump = deal_trump(result)
    moments = list(iter_moments(result, rules))
    sampled: list[_Sampled] = []
    for moment, cost in zip(moments, hindsight, strict=True):
        if not moment.is_legal or cost.forced:
            continue
        rng = random.Random(f"{seed}:{result.number}:{moment.trick}:{moment.play}")
        sampler = LayoutSampler(moment, trump, rules, rng)
        if solves_every(sampler.total, samples):
            sampled.append(_Sampled(moment, sampler, True, sampler.every().hands))
        else:
            first = min(samples, VIEW_FLOOR) if sequential else samples
            sampled.append(_Sampled(moment, sampler, False, sampler.draw(first)))
    with ExitStack() as stack:
        if tables is None:
            tables = stack.enter_context(DealTables(workers or default_workers()))
        threads = len(tables.workers)
        active = sampled
        while active:
            positions = [
                Position(layout, item.moment.position.trick, item.moment.position.leader)
                for item in active
                for layout in item.pending
            ]
            _values, cards = solve_batch(positions, trump, rules, workers=threads, tables=tables)
            start = 0
            still: list[_Sampled] = []
            for item in active:
                block = cards[start : start + len(item.pending)]
                start += len(item.pending)
                item.count += len(item.pending)
                item.pending = []
                if item.moment.seat % 2:
                    in_play = item.moment.position.points_in_play
                    block = np.where(block >= 0, in_play - block, -1)
                item.values.append(block)
                if item.exact or item.count >= samples:
                    continue
                table = item.table()
                legal = table[0] >= 0
                averages = np.where(legal, table.mean(axis=0), -np.inf)
                gaps = table[:, int(averages.argmax())] - table[:, item.moment.card]
                if is_settled(gaps.astype(np.float64)):
                    continue
                item.pending = item.sampler.draw(min(VIEW_STEP, samples - item.count))
                if item.pending:
                    still.append(item)
            active = still
    views: dict[int, tuple[dict[Card, float], int, bool, float]] = {}
    for item in sampled:
        table = item.table()
        if not len(table):
            continue
        legal = [c for c in range(36) if table[0, c] >= 0]
        means = {Card(c): float(table[:, c].mean()) for c in legal}
        error = 0.0
        if not item.exact and len(table) > 1:
            best = max(legal, key=lambda c: means[Card(c)])
            gaps = (table[:, best] - table[:, item.moment.card]).astype(np.float64)
            error = float(gaps.std(ddof=1)) / len(table) ** 0.5
        views[item.moment.index] = (means, len(table), item.exact, error)
    costs: list[PlayCost] = []
    for moment, cost in zip(moments, hindsight, strict=True):
        if moment.index not in views:
            view_cost = 0.0 if moment.is_legal else None
            costs.append(_with_view(cost, view_cost, None, 0, False))
            continue
        means, count, exact, error = views[moment.index]
        top = max(means.values())
        view_cost = max(0.0, top - means[cost.card])
        costs.append(_with_view(cost, view_cost, means, count, exact, error))
    return costs


def _with_view(
    cost: PlayCost,
    view_cost: float | None,
    means: dict[Card, float] | None,
    layouts: int,
    exact: bool,
    error: float = 0.0,
) -> PlayCost:
    # a variant's seat that moved a table card first is judged after the move, where a card it
    # could have played without the move may not be allowed: that card has no view value
    values = {
        card: CardValue(value.hindsight, None if means is None else means.get(card))
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
        view_error=error,
    )


def variant_view_costs(
    result: DealResult,
    rules: Rules,
    *,
    samples: int = 50,
    seed: int = 0,
    hindsight: list[PlayCost] | None = None,
    sequential: bool = True,
    positions: list[int] | None = None,
    plays: Collection[int] | None = None,
    first_play: VariantRows | None = None,
) -> list[PlayCost]:
    """:func:`view_costs` for a variant other than ``four``: the same layouts, rule and stopping.

    The layouts deal out what the person to play could not see (the other hands, the face-down
    table cards, the laid-aside cards they did not lay aside: :class:`~.layouts.VariantLayoutSampler`),
    each is solved by the variant search (:class:`~manillen_replay.solver.variants.VariantSearch`),
    and each legal card's value (the better of moving a table card first or not) is averaged;
    the card played is valued as played, as its hindsight cost is.

    :param positions: when given, gets the number of positions the searches visited.
    :param plays: the plays (indexes from 0) to cost from the player's view; the others keep
        their hindsight cost alone (default: every play).
    :param first_play: the first play's solved layouts (:meth:`VariantRows.at_start`), when the
        same person's knock review shares them; made here otherwise.
    :raises SolverError: for a deal the variant search cannot take, or ``samples`` below 1.
    """
    if samples < 1:
        raise SolverError(f"samples must be at least 1, not {samples}")
    if hindsight is None:
        hindsight = variant_dd_costs(result, rules)
    views: dict[int, tuple[dict[Card, float], int, bool, float, float]] = {}
    searched = 0
    for number, (view, cost) in enumerate(zip(iter_variant_views(result, rules), hindsight, strict=True)):
        moment = view.moment
        if not moment.is_legal or cost.forced or (plays is not None and number not in plays):
            continue
        if first_play is not None and number == 0:
            source = first_play
        else:
            rng = random.Random(f"{seed}:{result.number}:{moment.trick}:{moment.play}")
            source = VariantRows(
                VariantLayoutSampler(view, result, rules, rng), rules, result, samples, sequential
            )
        exact = source.exact
        want = source.available if exact or not sequential else min(samples, VIEW_FLOOR)
        rows: list[list[float]] = []
        while want:
            solved = source.rows(len(rows), len(rows) + want)
            if not solved:
                break  # draws that keep failing the full check
            for _layout, row, nodes in solved:
                rows.append(row)
                searched += nodes
            if exact or len(rows) >= samples:
                break
            table = np.array(rows)
            legal = table[0, :36] >= 0
            averages = np.where(legal, table[:, :36].mean(axis=0), -np.inf)
            if is_settled(table[:, int(averages.argmax())] - table[:, 36]):
                break
            want = min(VIEW_STEP, samples - len(rows))
        if not rows:
            continue
        table = np.array(rows)
        legal_cards = [c for c in range(36) if table[0, c] >= 0]
        means = {Card(c): float(table[:, c].mean()) for c in legal_cards}
        means_played = float(table[:, 36].mean())
        error = 0.0
        if not exact and len(table) > 1:
            best = max(legal_cards, key=lambda c: means[Card(c)])
            error = float((table[:, best] - table[:, 36]).std(ddof=1)) / len(table) ** 0.5
        views[number] = (means, len(table), exact, error, means_played)
    if positions is not None:
        positions.append(searched)
    costs: list[PlayCost] = []
    for number, cost in enumerate(hindsight):
        if plays is not None and number not in plays:
            costs.append(cost)
            continue
        if number not in views:
            costs.append(_with_view(cost, 0.0 if cost.legal else None, None, 0, False))
            continue
        means, count, exact, error, played = views[number]
        costs.append(_with_view(cost, max(0.0, max(means.values()) - played), means, count, exact, error))
    return costs


class VariantRows:
    """The layouts of one play of a variant deal, drawn as they are asked for and kept, each
    solved for every card (:func:`variant_layout_row`) once, so that two reviews of the same
    moment from the same view share them: the first play's view cost and the knock review of
    the person who leads it (in every variant the first to lead may knock, and decides from what
    they see then).

    Thread-safe: the call reviews run beside the view costs, and whichever asks first for a
    layout draws it (in the seed's order) and solves it, while the other waits for it.
    """

    def __init__(
        self,
        sampler: VariantLayoutSampler,
        rules: Rules,
        deal: DealResult,
        samples: int,
        sequential: bool = True,
    ) -> None:
        """:param sampler: the play's layouts (its seed fixes them, in order).
        :param samples: layouts at most; when no more agree with what was seen, each is solved once.
        :param sequential: whether the view cost may stop before ``samples`` (:attr:`sure`).
        """
        self.sampler = sampler
        self.seat = sampler.view.moment.seat
        """Whose view it is: the person to play."""
        self.exact = solves_every(sampler.total, samples)
        """Whether these are every layout, not a random draw."""
        self._every = sampler.every() if self.exact else None
        self.available = len(self._every) if self._every is not None else samples
        """How many layouts there are to ask for."""
        self.sure = self.available if self.exact or not sequential else min(samples, VIEW_FLOOR)
        """How many of them the view cost solves in any case: the layouts past these another
        review may rather solve for less than every card."""
        trump = None if deal.trump is None else int(deal.trump)
        moment = sampler.view.moment
        self._solve = partial(
            variant_layout_row, rules, deal.dealer, trump, seat=moment.seat, card=moment.card
        )
        self._layouts: list[DealState] = []
        self._rows: dict[int, tuple[list[float], int]] = {}
        self._lock = threading.Lock()

    @classmethod
    def at_start(
        cls, deal: DealResult, rules: Rules, *, samples: int, seed: int, sequential: bool = True
    ) -> VariantRows:
        """The first play's layouts, as its view cost draws them (:func:`variant_view_costs`)."""
        view = next(iter_variant_views(deal, rules))
        rng = random.Random(f"{seed}:{deal.number}:{view.moment.trick}:{view.moment.play}")
        return cls(VariantLayoutSampler(view, deal, rules, rng), rules, deal, samples, sequential)

    @classmethod
    def to_share(
        cls, deal: DealResult, rules: Rules, *, samples: int, seed: int, sequential: bool = True
    ) -> VariantRows | None:
        """:meth:`at_start`, or ``None`` when the first card was not a legal one: the view costs
        leave such a play to the rule finder, and its row has no value for the card played."""
        if not next(iter_variant_views(deal, rules)).moment.is_legal:
            return None
        return cls.at_start(deal, rules, samples=samples, seed=seed, sequential=sequential)

    def _draw(self, stop: int) -> None:
        have = len(self._layouts)
        if have < stop:
            if self._every is not None:
                self._layouts += self._every[have:stop]
            else:
                self._layouts += self.sampler.draw(stop - have)

    def layouts(self, start: int, stop: int) -> list[DealState]:
        """Layouts ``start`` to ``stop`` (fewer when draws keep failing the full check), solved or not."""
        with self._lock:
            self._draw(stop)
            return self._layouts[start:stop]

    def row(self, index: int) -> list[float] | None:
        """Layout ``index``'s row, if it was solved."""
        with self._lock:
            solved = self._rows.get(index)
            return None if solved is None else solved[0]

    def rows(self, start: int, stop: int) -> list[tuple[DealState, list[float], int]]:
        """Layouts ``start`` to ``stop`` (fewer when draws keep failing the full check), each
        with its row of values (:func:`variant_layout_row`) and the positions its search visited
        (counted by whoever solved it first; 0 for a layout already solved)."""
        from ..solver.variants import map_searches

        with self._lock:
            self._draw(stop)
            indexes = range(start, min(stop, len(self._layouts)))
            missing = [index for index in indexes if index not in self._rows]
            fresh = map_searches(self._solve, [self._layouts[index] for index in missing])
            self._rows.update(zip(missing, fresh, strict=True))
            new = set(missing)
            return [
                (self._layouts[index], self._rows[index][0], self._rows[index][1] if index in new else 0)
                for index in indexes
            ]


def variant_layout_row(
    rules: Rules, dealer: int, trump: int | None, state: DealState, *, seat: int, card: int
) -> tuple[list[float], int]:
    """One layout's values for the seat's side: per card (the better of moving first or not;
    -1 for a card it may not play), then the card played without a move (a move made is in
    ``state`` already: :class:`~.layouts.VariantLayoutSampler`); and the positions searched.
    Each layout gets a search of its own: the table's key says which cards are in play, not who
    holds them."""
    from ..solver.variants import VariantSearch

    search = VariantSearch(rules, dealer, trump)
    choices = search.values(state)
    in_play = sum(mask_points(hand) for hand in state.hands) + sum(CARD_POINTS[c] for c in state.trick)
    for piles in state.table:
        for pile in piles:
            in_play += sum(CARD_POINTS[c] for c in pile)
    ours = search.side_of(seat) == 0
    row = [-1.0] * 37
    for (_moved, choice), value in choices.items():
        row[choice] = max(row[choice], float(value if ours else in_play - value))
    value = choices[(False, card)]
    row[36] = float(value if ours else in_play - value)
    return row, search.nodes
