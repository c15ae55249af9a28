"""The solver's whole analysis of a deal: costs, findings and the calls reviewed, as one pure function.

``manillen analyze --depth solver`` runs :func:`analyse_match` on every match; a cluster worker
can run :func:`analyse_deal` on any deal in any order: each deal's random layouts come from
its own seed (the run's seed, the deal's number and the moment), so the result does not depend
on which deals are analysed together or in what order.

Each part's seconds are kept (:data:`PARTS`) so that ``make bench`` can say where the time goes,
and a :class:`ProgressMeter` turns "one more deal done" into what a progress bar shows.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, MutableMapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field

from ..engine import DealResult, MatchResult
from ..record import Record
from ..rules import Contract, Rules
from ..solver.search import DealTables, SolverError, default_workers, nodes_searched
from . import Finding, analyse
from .call_model import is_calibrated
from .call_review import CallReview
from .costs import PlayCost, VariantRows, can_solve, dd_costs, view_costs
from .reasons import Reason, deal_reasons, reason_words
from .solver_findings import call_findings, cost_findings, curate

PARTS = ("hindsight costs", "view costs", "trump review", "knock review")
"""The parts of a deal's analysis whose seconds are kept, in the order they run."""


@contextmanager
def _timed(seconds: MutableMapping[str, float], part: str) -> Iterator[None]:
    start = time.perf_counter()
    try:
        yield
    finally:
        seconds[part] = seconds.get(part, 0.0) + time.perf_counter() - start


@contextmanager
def _part_tables(workers: int, nodes: MutableMapping[str, int] | None, part: str) -> Iterator[DealTables]:
    """The deal's tables for one part, whose positions searched are added to ``nodes[part]``:
    counted on the part's own tables, as the parts run at the same time."""
    with DealTables(workers) as tables:
        start = tables.nodes_searched()
        try:
            yield tables
        finally:
            if nodes is not None:
                with _NODES_LOCK:
                    nodes[part] = nodes.get(part, 0) + tables.nodes_searched() - start


_NODES_LOCK = threading.Lock()


@dataclass
class DealAnalysis:
    """What the solver found in one deal."""

    deal: int
    """The deal, counted from 1."""
    costs: list[PlayCost]
    """Every play's costs (hindsight and view)."""
    findings: list[Finding]
    """The solver's own findings: costly cards, costs only hindsight shows, trump and knock calls."""
    seconds: dict[str, float] = field(default_factory=dict)
    """Wall-clock seconds of each part (:data:`PARTS`; the call reviews run beside the view costs)."""
    reviews: list[tuple[str, CallReview]] = field(default_factory=list)
    """Each call reviewed, with what it judged (``trump`` or ``klop``)."""
    nodes: int = 0
    """Positions the search visited for this deal (counted over the process: exact when one deal
    is analysed at a time)."""
    part_nodes: dict[str, int] = field(default_factory=dict)
    """The same per part (:data:`PARTS`): the work each part did, whatever the machine's speed."""
    wall: float = 0.0
    """Wall-clock seconds of the whole deal (the parts overlap: the call reviews run beside the
    view costs)."""
    reasons: list[Reason] = field(default_factory=list)
    """Why each costly card cost (view cost of an inaccuracy or more): its line and the better
    card's, and the words, which are also in the card's finding."""
    reason_nodes: int = 0
    """Positions the reasons' lines searched (apart from :attr:`nodes` and :attr:`part_nodes`;
    their seconds are ``seconds["reasons"]``)."""


@dataclass
class MatchSolved:
    """What the solver found in one match, with the built-in findings it sharpened."""

    findings: list[Finding]
    """Every finding of the match: the built-in detectors' (with the costs) and the solver's."""
    costs: dict[int, list[PlayCost]]
    """Each costed deal's plays, by deal number."""
    deals: list[DealAnalysis]
    """Each costed deal's analysis, with its seconds per part."""
    reviews: list[tuple[str, CallReview]] = field(default_factory=list)
    """Every call reviewed in the match, with what it judged (``trump`` or ``klop``)."""
    problems: list[str] = field(default_factory=list)
    """Deals the solver could not take, in words."""
    reasons: dict[int, list[Reason]] = field(default_factory=dict)
    """Each costed deal's reasons (:attr:`DealAnalysis.reasons`), by deal number."""


def _names(result: MatchResult, deal: DealResult) -> list[str]:
    """Who played each seat in a deal (partners change between the blocks of a club evening;
    the dealer plays the dummy of ``three_dummy``, whose cards are the dealer's decisions)."""
    names = list(deal.names) if deal.names else list(result.seats)
    while names and len(names) < result.rules.shape.players:
        names.append(names[deal.dealer])
    return names


def knockers(record: Record, deal: DealResult) -> list[int]:
    """Who called klop in a deal, in order (tegenklop is the other team's answer, not reviewed)."""
    calls = record.deals[deal.number - 1].declarations if deal.number <= len(record.deals) else None
    return [d.seat for d in calls or () if d.call == "klop"] if isinstance(calls, list) else []


def call_reviews(
    result: MatchResult,
    record: Record,
    deal: DealResult,
    samples: int,
    *,
    seed: int = 0,
    seconds: MutableMapping[str, float] | None = None,
    nodes: MutableMapping[str, int] | None = None,
    workers: int | None = None,
    start: VariantRows | None = None,
) -> list[tuple[str, CallReview]]:
    """The deal's calls reviewed, each with what it judged (``trump`` or ``klop``): the trump
    call, then the knocker's klop or, when nobody knocked, each seat's that could have.

    The calls are reviewed with the hidden hands drawn given the calls made (:mod:`.call_model`).

    :param samples: layouts of the hidden cards solved for each call reviewed, at most.
    :param seed: the random seed of the reviews' layouts.
    :param seconds: gets the seconds of the trump and the knock review.
    :param nodes: gets the positions searched by the trump and the knock review.
    :param workers: threads per review (default: one per core).
    :param start: a variant's first play's layouts, which the first player's knock review
        shares with that play's view cost (:func:`~.variant_calls.variant_knock_review`).
    """
    # looked up when called, so that a test can put a review of its own in place
    from .call_model import knock_review_given_calls as knock_review
    from .call_model import trump_review_given_calls as trump_review

    spent: MutableMapping[str, float] = {} if seconds is None else seconds
    threads = workers or default_workers()
    rules = result.rules
    if rules.variant != "four":
        from .variant_calls import variant_call_reviews

        with _timed(spent, "trump review"):
            return variant_call_reviews(deal, rules, knockers(record, deal), samples, seed=seed, start=start)
    full_hands = deal.hands is not None and all(hand.bit_count() == 8 for hand in deal.hands)
    if not full_hands or deal.contract is Contract.BLIND_MUIL:
        return []  # blind muil is called before looking at the cards: no choice to review
    with _timed(spent, "trump review"), _part_tables(threads, nodes, "trump review") as tables:
        reviewed = [("trump", trump_review(deal, rules, samples=samples, seed=seed, tables=tables))]
    if deal.contract is Contract.MUIL and not rules.klop_on_muil:
        return reviewed
    # A knocker is reviewed for knocking; when nobody knocked, each player who could have is
    # reviewed for not knocking.
    seats = knockers(record, deal)[:1] or [(deal.dealer + 1) % 4, (deal.dealer + 3) % 4]

    def review_knock(seat: int) -> CallReview:
        with _part_tables(threads, nodes, "knock review") as tables:
            return knock_review(deal, rules, seat=seat, samples=samples, seed=seed, tables=tables)

    with _timed(spent, "knock review"), ThreadPoolExecutor(max_workers=len(seats)) as pool:
        # two seats' reviews at once: while one waits for its slowest layout, the other's use the core
        reviewed += [("klop", review) for review in pool.map(review_knock, seats)]
    return reviewed


def _findings(
    result: MatchResult,
    deal: DealResult,
    costs: Sequence[PlayCost],
    reviews: Sequence[tuple[str, CallReview]],
    reasons: Sequence[Reason] = (),
) -> list[Finding]:
    names = _names(result, deal)
    shape = result.rules.shape
    found = cost_findings(
        costs, match=result.id, deal=deal, players=names, reasons=reason_words(reasons), shape=shape
    )
    for call, review in reviews:
        kind = "knock_choice" if call == "klop" else "trump_choice"
        alone = shape.plays_alone(review.seat, deal.dealer)
        hand = deal.hands[review.seat] if deal.hands and review.seat < len(deal.hands) else None
        found += call_findings(
            review, match=result.id, players=names, kind=kind, alone=alone, rules=result.rules, hand=hand
        )
    return found


def solver_findings(
    result: MatchResult,
    record: Record,
    deal: DealResult,
    costs: Sequence[PlayCost],
    samples: int,
    *,
    seed: int = 0,
    seconds: MutableMapping[str, float] | None = None,
    sequential: bool = True,
    reviews: list[tuple[str, CallReview]] | None = None,
) -> list[Finding]:
    """The solver's findings of one deal: costly cards, costs only hindsight shows, trump and knock calls.

    The calls are reviewed by :func:`call_reviews`.

    :param costs: the deal's view costs.
    :param samples: layouts of the hidden cards solved for each call reviewed.
    :param seed: the random seed of the reviews' layouts.
    :param seconds: gets the seconds of the trump and the knock review.
    :param sequential: kept for the reviews' own callers; the calls given the calls made are
        always reviewed sequentially.
    :param reviews: when given, receives each call review with what it judged (``trump`` or
        ``klop``): for accuracy and for :func:`~.findings.curate`.
    """
    # the variants' leader's knock is reviewed on the first play's layouts, as analyse_deal does
    four = result.rules.variant == "four"
    start = None if four else VariantRows.to_share(deal, result.rules, samples=samples, seed=seed)
    reviewed = call_reviews(result, record, deal, samples, seed=seed, seconds=seconds, start=start)
    if reviews is not None:
        reviews += reviewed
    return _findings(result, deal, costs, reviewed)


def analyse_deal(
    result: MatchResult,
    record: Record,
    deal: DealResult,
    *,
    samples: int = 50,
    seed: int = 0,
    sequential: bool = True,
    workers: int | None = None,
) -> DealAnalysis:
    """The solver's analysis of one deal the solver can take (:func:`~.costs.can_solve`).

    The call reviews run beside the view costs (neither needs the other): while one part's
    threads wait for their slowest position, or run Python between rounds, the other's use the
    cores. Each part's seconds are its own wall-clock time, so they overlap.

    :param result: the replayed match the deal belongs to (its rules and players).
    :param record: the match's record (who knocked).
    :param deal: the deal.
    :param samples: layouts of the hidden cards per play and per call reviewed.
    :param seed: the random seed; with the deal's number and the moment it fixes every layout.
    :param sequential: stop sampling a play or a call once its verdict is settled; without it
        every sampled play and call gets ``samples`` layouts (as before issue 16).
    :param workers: threads per part (default: one per core); the values do not depend on it.
    :raises SolverError: for a deal the solver cannot take.
    """
    start = time.perf_counter()
    seconds: dict[str, float] = {}
    part_nodes: dict[str, int] = {}
    nodes = nodes_searched()
    threads = workers or default_workers()
    with _timed(seconds, "hindsight costs"):
        hindsight = dd_costs(deal, result.rules)
    part_nodes["hindsight costs"] = nodes_searched() - nodes  # alone: the process's count is its own
    # a variant's first play is seen as its leader saw it when knocking: one set of layouts
    # serves that play's view cost and that knock review, solved once
    start_rows = (
        None
        if result.rules.variant == "four"
        else VariantRows.to_share(deal, result.rules, samples=samples, seed=seed, sequential=sequential)
    )
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="call-reviews") as pool:
        reviewing = pool.submit(
            call_reviews, result, record, deal, samples, seed=seed, seconds=seconds, nodes=part_nodes,
            workers=threads, start=start_rows,
        )  # fmt: skip
        with _timed(seconds, "view costs"), _part_tables(threads, part_nodes, "view costs") as tables:
            costs = view_costs(
                deal,
                result.rules,
                samples=samples,
                seed=seed,
                hindsight=hindsight,
                sequential=sequential,
                tables=tables,
                first_play=start_rows,
            )
        # the reasons need the costs, not the reviews: they run while the reviews finish
        reason_nodes: dict[str, int] = {}
        with _timed(seconds, "reasons"), _part_tables(threads, reason_nodes, "reasons") as tables:
            reasons = deal_reasons(
                deal, result.rules, costs, names=_names(result, deal), seed=seed, tables=tables
            )
        reviews = reviewing.result()
    found = _findings(result, deal, costs, reviews, reasons)
    searched = reason_nodes.get("reasons", 0)
    return DealAnalysis(
        deal.number,
        costs,
        found,
        seconds,
        reviews,
        nodes_searched() - nodes - searched,
        part_nodes,
        time.perf_counter() - start,
        reasons,
        searched,
    )


def analyse_match(
    result: MatchResult,
    record: Record,
    *,
    samples: int = 50,
    seed: int = 0,
    on_deal: Callable[[DealResult], None] | None = None,
) -> MatchSolved:
    """The solver's analysis of every deal of a match it can take, merged with the built-in findings.

    :param samples: layouts of the hidden cards per play and per call reviewed.
    :param seed: the random seed (see :func:`analyse_deal`).
    :param on_deal: called after each deal of the match (costed or not), for a progress bar.
    """
    deals: list[DealAnalysis] = []
    problems: list[str] = []
    for deal in result.deals:
        if can_solve(deal, result.rules):
            try:
                analysed = analyse_deal(result, record, deal, samples=samples, seed=seed)
            except SolverError as error:
                problems.append(f"match {result.id!r} deal {deal.number}: the solver failed: {error}")
            else:
                deals.append(analysed)
        if on_deal is not None:
            on_deal(deal)
    return merge_deals(result, record, deals, problems)


def merge_deals(
    result: MatchResult, record: Record, deals: Sequence[DealAnalysis], problems: list[str]
) -> MatchSolved:
    """Every costed deal's analysis merged with the built-in findings of the match, curated: the
    match as :func:`analyse_match` gives it (the dashboard's review solves its deals one by one,
    keeping those it solved before, and merges them here).

    :param deals: the analyses of the deals the solver costed, in deal order.
    :param problems: what went wrong on the way (a deal the solver failed on), kept in the result.
    """
    costs: dict[int, list[PlayCost]] = {analysed.deal: analysed.costs for analysed in deals}
    extra: list[Finding] = [finding for analysed in deals for finding in analysed.findings]
    reviews = [review for analysed in deals for review in analysed.reviews]
    # the variants' calls are reviewed on layouts drawn uniformly, not given the calls: their
    # findings stay information, as an uncalibrated contract's (analysis/variant_calls.py)
    four = result.rules.variant == "four"
    calibrated = [deal.number for deal in result.deals if four and is_calibrated(deal.contract)]
    knocks = {(review.deal, review.seat): review for call, review in reviews if call == "klop"}
    findings = curate(
        [*analyse(result, record, costs=costs), *extra], knock_reviews=knocks, calibrated_deals=calibrated
    )
    reasons = {analysed.deal: analysed.reasons for analysed in deals}
    return MatchSolved(findings, costs, list(deals), reviews, problems, reasons)


@dataclass(frozen=True, slots=True)
class Progress:
    """How far a long analysis has got: what a progress bar shows."""

    done: int
    """Deals done."""
    total: int
    """Deals to do."""
    elapsed: float
    """Seconds since the start."""
    work_done: float = 0.0
    """The deals done's expected work, in four-player deals (:func:`~.effort.review_effort`)."""
    work_total: float = 0.0
    """The expected work of all the deals; 0 when not known (the time left then goes by deals)."""

    @property
    def rate(self) -> float | None:
        """Deals per second so far (``None`` before the first deal)."""
        return self.done / self.elapsed if self.done and self.elapsed > 0 else None

    @property
    def remaining(self) -> float | None:
        """Seconds left (``None`` before the first deal): at the pace so far per unit of expected
        work when the work is known, so that a two-player open deal still to come (some 140
        four-player deals' work) is not counted as one deal; else at the rate of deals so far.

        >>> Progress(1, 2, 10.0, work_done=1.0, work_total=141.0).remaining
        1400.0
        >>> Progress(1, 2, 10.0).remaining
        10.0
        """
        if self.done >= self.total:
            return 0.0 if self.done else None
        if self.work_total > 0 and self.work_done > 0 and self.elapsed > 0:
            return max(0.0, self.work_total - self.work_done) * self.elapsed / self.work_done
        rate = self.rate
        return None if rate is None else max(0, self.total - self.done) / rate

    def describe(self) -> str:
        """The progress in words, for a bar's side.

        >>> Progress(10, 40, 20.0).describe()
        '10/40 deals, 0.5 deals/s, 1:00 left'

        A fast rate (deals taken from the archive's cache) reads as a whole number, not as
        ``1.18e+05``:

        >>> Progress(36, 36, 0.0125).describe()
        '36/36 deals, 2,880 deals/s, 0:00 left'
        """
        text = f"{self.done}/{self.total} deals"
        if self.rate is None or self.remaining is None:
            return text
        minutes, secs = divmod(round(self.remaining), 60)
        hours, minutes = divmod(minutes, 60)
        left = f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
        rate = f"{self.rate:,.0f}" if self.rate >= 1000 else f"{self.rate:.3g}"
        return f"{text}, {rate} deals/s, {left} left"


class ProgressMeter:
    """Counts deals done and tells a listener (a terminal bar, the dashboard) after each one."""

    def __init__(
        self,
        total: int,
        listener: Callable[[Progress], None],
        clock: Callable[[], float] = time.monotonic,
        *,
        work: float = 0.0,
    ):
        """:param total: deals to do.
        :param listener: called with the :class:`Progress` after each deal.
        :param clock: seconds, for tests.
        :param work: the deals' expected work in four-player deals (:func:`~.effort.review_effort`
            of their variants), for the time left; 0: by deals alone.
        """
        self.total = total
        self.work_total = work
        self.work_done = 0.0
        self.done = 0
        self._listener = listener
        self._clock = clock
        self._start = clock()

    def advance(self, deals: int = 1, work: float = 0.0) -> None:
        """Count ``deals`` more deals done (``work`` their expected work) and tell the listener."""
        self.done += deals
        self.work_done += work
        self._listener(self.progress())

    def count(self, deal: DealResult) -> None:
        """One deal done: for :func:`analyse_match`'s ``on_deal``."""
        self.advance()

    def counter(self, rules: Rules) -> Callable[[DealResult], None]:
        """``on_deal`` for a match of these rules: each deal counted with its expected work (its
        variant's, none for a deal the solver does not take), as the meter's ``work`` counts it."""
        from .effort import review_effort

        weight = review_effort({rules.variant: 1})

        def count(deal: DealResult) -> None:
            self.advance(1, weight if can_solve(deal, rules) else 0.0)

        return count

    def progress(self) -> Progress:
        """The progress now."""
        return Progress(self.done, self.total, self._clock() - self._start, self.work_done, self.work_total)
