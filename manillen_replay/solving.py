"""The solver depth of the analysis in batches of deals: records in, result tables out.

The unit of work is a deal. :func:`analyse_batch` takes a :class:`DealBatch` (records and the
deals of them to analyse) and returns :class:`BatchTables`: the ``play_costs`` and
``card_values`` rows of those deals and the solver's own findings about them. It is a pure
function of the record, the deal, ``samples`` and ``seed``: every random layout is drawn from
a generator seeded with the seed, the deal's number and the moment, so a deal gives the same
rows whichever batch, process or machine analyses it, and in whatever order.

:func:`solve_matches` is the driver around it: it cuts the deals of a stream of matches into
batches, hands them to a :class:`Runner` (in this process, or a Dask cluster through
:mod:`manillen_replay.cluster`), and as the last deal of a match comes back merges the
match's tables with the built-in findings (which the costs sharpen) into a
:class:`SolvedMatch`, ready to be stored or written.
"""

from __future__ import annotations

import math
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import polars as pl

from .analysis import Finding, analyse
from .cards import Card
from .engine import MatchResult, replay
from .errors import InvalidRecordError, ManillenError
from .record import Record, loads
from .store.analyse import (
    CALLS_SCHEMA,
    COSTS_SCHEMA,
    FINDINGS_SCHEMA,
    LINES_SCHEMA,
    VALUES_SCHEMA,
    call_frame,
    cost_frames,
    findings_frame,
    lines_frame,
)

if TYPE_CHECKING:  # the solver (and numba) load only when a deal is solved
    from .analysis.call_review import CallReview
    from .analysis.costs import PlayCost

__all__ = [
    "CALLS_SCHEMA",
    "COSTS_SCHEMA",
    "FINDINGS_SCHEMA",
    "LINES_SCHEMA",
    "VALUES_SCHEMA",
    "findings_frame",
]


def costs_from_frames(play_costs: pl.DataFrame, card_values: pl.DataFrame) -> dict[int, list[PlayCost]]:
    """The :class:`~manillen_replay.analysis.costs.PlayCost` of each deal back from its table rows.

    The inverse of :func:`cost_frames` for one match: every field is in the rows, so the
    costs the detectors read are the very ones the solver gave.
    """
    from .analysis.costs import CardValue, PlayCost

    values: dict[tuple[int, int, int], dict[Card, CardValue]] = {}
    for deal, trick, play, card, hindsight, view in card_values.select(
        "deal", "trick", "play", "card", "hindsight", "view"
    ).iter_rows():
        values.setdefault((deal, trick, play), {})[Card.parse(card)] = CardValue(hindsight, view)
    costs: dict[int, list[PlayCost]] = {}
    for row in play_costs.iter_rows(named=True):
        key = (row["deal"], row["trick"], row["play"])
        costs.setdefault(row["deal"], []).append(
            PlayCost(
                trick=row["trick"],
                play=row["play"],
                seat=row["seat"],
                card=Card.parse(row["card"]),
                dd_cost=row["dd_cost"],
                view_cost=row["view_cost"],
                best_cards=tuple(Card.parse(c) for c in row["best"]),
                values=values.get(key, {}),
                deal=row["deal"],
                legal=row["legal"],
                layouts=row["layouts"],
                exact=row["exact"],
                hindsight_best=tuple(Card.parse(c) for c in row["hindsight_best"]),
                view_error=row.get("view_error") or 0.0,  # none in rows written before it was kept
            )
        )
    return costs


ACCURACY_SCHEMA: dict[str, Any] = {
    "scope": pl.Utf8,
    "match_id": pl.Utf8,
    "deal": pl.Int32,
    "player": pl.Utf8,
    "cards": pl.Int64,
    "calls": pl.Int64,
    "decisions": pl.Int64,
    "accuracy": pl.Float64,
    "avg_view_cost": pl.Float64,
    "avg_dd_cost": pl.Float64,
}
"""The columns of the archive's ``player_accuracy`` view."""
SPREAD_MINIMUM = 1.0
"""A decision counts when its options differ by a card point or more (as the view has it)."""


def accuracy_frame(
    play_costs: pl.DataFrame, card_values: pl.DataFrame, call_decisions: pl.DataFrame
) -> pl.DataFrame:
    """The ``deal`` and ``match`` rows of the archive's ``player_accuracy`` view, from the same rows.

    As the view: each chosen card (legal, not forced, its cards' view values a point or more
    apart) and each reviewed call (options a point or more apart) scores
    ``100 x 0.5 ^ (cost / 5)``, and the accuracy is the mean. The ``all`` rows are left out: they
    span every part (docs/sql.md shows how to get them from the ``match`` rows).
    """
    from .analysis.accuracy import HALF_LIFE_POINTS

    keys = ["match_id", "deal", "trick", "play"]
    spreads = card_values.group_by(keys).agg((pl.col("view").max() - pl.col("view").min()).alias("spread"))
    cards = (
        play_costs.join(spreads, on=keys, how="inner")
        .filter(
            pl.col("legal")
            & ~pl.col("forced")
            & pl.col("view_cost").is_not_null()
            & pl.col("player").is_not_null()
            & (pl.col("spread") >= SPREAD_MINIMUM)
        )
        .select(
            "match_id",
            pl.col("deal").cast(pl.Int32),
            "player",
            pl.col("view_cost").alias("cost"),
            pl.col("dd_cost").cast(pl.Float64),
            pl.lit("card").alias("what"),
        )
    )
    calls = call_decisions.filter(
        pl.col("player").is_not_null() & (pl.col("spread") >= SPREAD_MINIMUM)
    ).select(
        "match_id",
        pl.col("deal").cast(pl.Int32),
        "player",
        pl.max_horizontal(pl.col("loss"), pl.lit(0.0)).alias("cost"),
        pl.lit(None, dtype=pl.Float64).alias("dd_cost"),
        pl.lit("call").alias("what"),
    )
    decisions = pl.concat([cards, calls]).with_columns(
        score=100.0 * pl.lit(0.5).pow(pl.col("cost") / HALF_LIFE_POINTS)
    )
    is_card = pl.col("what") == "card"
    figures = [
        is_card.sum().alias("cards"),
        (~is_card).sum().alias("calls"),
        pl.len().alias("decisions"),
        pl.col("score").mean().alias("accuracy"),
        pl.col("cost").filter(is_card).mean().alias("avg_view_cost"),
        pl.col("dd_cost").mean().alias("avg_dd_cost"),
    ]
    deals = decisions.group_by("match_id", "deal", "player", maintain_order=True).agg(figures)
    matches = decisions.group_by("match_id", "player", maintain_order=True).agg(figures)
    return pl.concat(
        [
            deals.with_columns(scope=pl.lit("deal")),
            matches.with_columns(scope=pl.lit("match"), deal=pl.lit(None, dtype=pl.Int32)),
        ],
        how="diagonal",
    ).select([pl.col(name).cast(dtype) for name, dtype in ACCURACY_SCHEMA.items()])


def merged_findings(
    result: MatchResult,
    record: Record,
    costs: Mapping[int, Sequence[PlayCost]],
    extra: Sequence[Finding],
    knock_reviews: Mapping[tuple[int, int], CallReview],
) -> pl.DataFrame:
    """A match's findings at the solver depth, curated as a plain run curates them.

    :param costs: the costed deals' plays by deal number.
    :param extra: the solver's findings of those deals (:func:`solver_findings`), in deal order.
    :param knock_reviews: the knock review of each (deal, seat) reviewed.
    """
    from .analysis.call_model import is_calibrated
    from .analysis.solver_findings import curate

    calibrated = [deal.number for deal in result.deals if is_calibrated(deal.contract)]
    found = curate(
        [*analyse(result, record, costs=costs), *extra],
        knock_reviews=knock_reviews,
        calibrated_deals=calibrated,
    )
    return findings_frame(found)


# --------------------------------------------------------------------------- one batch


@dataclass(frozen=True)
class DealBatch:
    """Deals to analyse, with the records they come from: one task for a worker."""

    records: Mapping[str, bytes]
    """Each match's record as JSON, by match id."""
    deals: tuple[tuple[str, int], ...]
    """``(match id, deal number)`` of each deal to analyse."""
    samples: int
    """Layouts of the hidden cards per play and per call reviewed."""
    seed: int = 0
    """The random seed: with the deal's number and the moment it fixes every layout."""
    threads: int | None = None
    """Solver threads per deal (default: one per core of the worker); results do not depend on it."""


@dataclass(frozen=True)
class DealProblem:
    """A deal (or a whole match) that could not be analysed, in words."""

    match_id: str
    """The match."""
    deal: int | None
    """The deal, ``None`` for the whole match."""
    message: str
    """What went wrong, naming the match and the deal."""
    retry: bool = False
    """True when the match must not be stored without this deal (the next run tries it again);
    False for a deal the solver refuses, which a plain run also leaves out."""


@dataclass
class BatchTables:
    """What :func:`analyse_batch` found in a batch of deals."""

    play_costs: pl.DataFrame
    """``play_costs`` rows of the deals costed."""
    card_values: pl.DataFrame
    """``card_values`` rows of the deals costed."""
    call_decisions: pl.DataFrame
    """``call_decisions`` rows of the calls reviewed."""
    findings: list[Finding]
    """The solver's own findings about those deals, in deal order (the driver curates them with
    the match's built-in findings, so they travel as findings, not rows)."""
    knock_reviews: list[tuple[str, CallReview]]
    """The knock reviews of those deals with their match id (the curation weighs knock findings by them)."""
    problems: list[DealProblem] = field(default_factory=list)
    """Deals that could not be analysed."""
    seconds: float = 0.0
    """Wall-clock seconds the batch took."""
    finding_lines: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(schema=LINES_SCHEMA))
    """``finding_lines`` rows of the deals costed: the lines of their costly cards."""


def analyse_batch(batch: DealBatch) -> BatchTables:
    """Analyse a batch of deals with the solver: a pure function of the records, deals, samples and seed.

    One bad record or one deal the solver refuses becomes a :class:`DealProblem` naming the
    match and the deal; the other deals of the batch are analysed all the same.

    :param batch: the deals and their records.
    """
    from .analysis.costs import can_solve
    from .analysis.deal_analysis import analyse_deal

    start = time.perf_counter()
    replayed: dict[str, tuple[Record, MatchResult] | None] = {}
    problems: list[DealProblem] = []
    costs_frames: list[pl.DataFrame] = []
    values_frames: list[pl.DataFrame] = []
    calls_frames: list[pl.DataFrame] = []
    lines_frames: list[pl.DataFrame] = []
    found: list[Finding] = []
    knocks: list[tuple[str, CallReview]] = []
    for match_id, number in batch.deals:
        if match_id not in replayed:
            replayed[match_id] = _replay_stored(match_id, batch.records.get(match_id), problems)
        match = replayed[match_id]
        if match is None:
            continue
        record, result = match
        deal = next((d for d in result.deals if d.number == number), None)
        if deal is None or not can_solve(deal, result.rules):
            continue
        try:
            # The very function of the plain run, so a deal's results do not depend on where it ran.
            analysed = analyse_deal(
                result, record, deal, samples=batch.samples, seed=batch.seed, workers=batch.threads
            )
            costs, reviews, extra = analysed.costs, analysed.reviews, analysed.findings
        except ManillenError as error:
            problems.append(
                DealProblem(match_id, number, f"match {match_id!r} deal {number}: the solver failed: {error}")
            )
            continue
        except Exception as error:  # a bug must not cost the other deals of the batch
            problems.append(
                DealProblem(
                    match_id,
                    number,
                    f"match {match_id!r} deal {number}: the analysis failed: {type(error).__name__}: {error}",
                    retry=True,
                )
            )
            continue
        plays, values = cost_frames(result, {number: costs})
        costs_frames.append(plays)
        values_frames.append(values)
        calls_frames.append(call_frame(result, reviews))
        lines_frames.append(lines_frame(result, {number: analysed.reasons}))
        found.extend(extra)
        knocks.extend((match_id, review) for call, review in reviews if call == "klop")
    return BatchTables(
        _concat(costs_frames, COSTS_SCHEMA),
        _concat(values_frames, VALUES_SCHEMA),
        _concat(calls_frames, CALLS_SCHEMA),
        found,
        knocks,
        problems,
        time.perf_counter() - start,
        _concat(lines_frames, LINES_SCHEMA),
    )


def _replay_stored(
    match_id: str, data: bytes | None, problems: list[DealProblem]
) -> tuple[Record, MatchResult] | None:
    source = f"match {match_id}"
    if data is None:
        problems.append(
            DealProblem(match_id, None, f"match {match_id!r}: no record in the batch", retry=True)
        )
        return None
    try:
        record = loads(data, source=source)
        return record, replay(record, source=source)
    except InvalidRecordError as error:
        problems.append(
            DealProblem(match_id, None, f"match {match_id!r} does not replay: {error}", retry=True)
        )
        return None


def _concat(frames: list[pl.DataFrame], schema: dict[str, Any]) -> pl.DataFrame:
    return pl.concat(frames) if frames else pl.DataFrame(schema=schema)


# --------------------------------------------------------------------------- the driver


class Runner(Protocol):
    """Runs batches somewhere (here, or on a cluster) and hands back each as it finishes."""

    @property
    def slots(self) -> int:
        """How many batches to keep handed out at once (enough to keep every worker busy)."""
        ...

    @property
    def workers(self) -> int:
        """How many batches run at the same time."""
        ...

    @property
    def threads(self) -> int | None:
        """Solver threads for each batch (``None``: one per core of the worker's machine)."""
        ...

    def submit(self, batch: DealBatch) -> None:
        """Start a batch."""

    def next_done(self) -> tuple[DealBatch, BatchTables | BaseException]:
        """Wait for a batch started earlier to finish: its tables, or the error that ended it."""
        ...


class RunHere:
    """A :class:`Runner` that analyses each batch in this process, one after the other."""

    slots = 1
    workers = 1
    threads = None

    def __init__(self) -> None:
        self._queue: deque[DealBatch] = deque()

    def submit(self, batch: DealBatch) -> None:
        """Queue a batch: it runs when :meth:`next_done` asks for it."""
        self._queue.append(batch)

    def next_done(self) -> tuple[DealBatch, BatchTables | BaseException]:
        """Analyse the oldest queued batch."""
        batch = self._queue.popleft()
        return batch, analyse_batch(batch)


class TimedRunner:
    """A :class:`Runner` that counts the batches and the seconds spent waiting for them.

    The rest of a run's time is the driver's own work (reading, replaying, merging, storing):
    when it nears the whole, the driver, not the cluster, sets the pace.
    """

    def __init__(self, runner: Runner) -> None:
        self.runner = runner
        self.batches = 0
        self.deals = 0
        self.waited = 0.0
        """Seconds spent in :meth:`next_done`, waiting for the workers."""

    @property
    def slots(self) -> int:
        """The wrapped runner's."""
        return self.runner.slots

    @property
    def workers(self) -> int:
        """The wrapped runner's."""
        return self.runner.workers

    @property
    def threads(self) -> int | None:
        """The wrapped runner's."""
        return self.runner.threads

    def submit(self, batch: DealBatch) -> None:
        """Count the batch and pass it on."""
        self.batches += 1
        self.deals += len(batch.deals)
        self.runner.submit(batch)

    def next_done(self) -> tuple[DealBatch, BatchTables | BaseException]:
        """Pass on, timing the wait."""
        start = time.perf_counter()
        try:
            return self.runner.next_done()
        finally:
            self.waited += time.perf_counter() - start


@dataclass
class MatchToSolve:
    """A match read and replayed by the driver, with its record to send to the workers."""

    record: Record
    """The record."""
    result: MatchResult
    """The replay."""
    data: bytes
    """The record as JSON (what a worker decodes)."""
    tag: Any = None
    """What the caller wants back with the :class:`SolvedMatch` (the file part it came from)."""


@dataclass
class SolvedMatch:
    """A match whose every deal came back: its tables, ready to store."""

    match_id: str
    """The match."""
    play_costs: pl.DataFrame
    """Its ``play_costs`` rows."""
    card_values: pl.DataFrame
    """Its ``card_values`` rows."""
    call_decisions: pl.DataFrame
    """Its ``call_decisions`` rows."""
    findings: pl.DataFrame
    """Every finding: the built-in detectors' (sharpened by the costs) and the solver's."""
    deals: int
    """Deals in the match."""
    solved: int
    """Deals the solver costed."""
    problems: list[str]
    """What went wrong, in words (deals the solver refused, a task that failed)."""
    complete: bool
    """False when a deal could not be analysed for a reason a re-run may not meet: do not store it."""
    tag: Any = None
    """The :attr:`MatchToSolve.tag` it came with."""
    finding_lines: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(schema=LINES_SCHEMA))
    """Its ``finding_lines`` rows: the lines of its costly cards."""


@dataclass
class _Pending:
    match: MatchToSolve
    waiting: set[int]
    plays: list[pl.DataFrame] = field(default_factory=list)
    values: list[pl.DataFrame] = field(default_factory=list)
    calls: list[pl.DataFrame] = field(default_factory=list)
    lines: list[pl.DataFrame] = field(default_factory=list)
    extra: dict[int, list[Finding]] = field(default_factory=dict)
    knocks: dict[tuple[int, int], CallReview] = field(default_factory=dict)
    problems: list[DealProblem] = field(default_factory=list)


class BatchSizer:
    """How many deals to put in the next batch: a few seconds of work, and enough batches for all.

    It starts small and learns the seconds a deal takes from the batches that come back.
    """

    def __init__(self, workers: int, *, target_seconds: float = 4.0, fixed: int | None = None) -> None:
        """:param workers: batches that run at once.
        :param target_seconds: the work a batch should hold.
        :param fixed: always this many deals (``--batch-deals``).
        """
        self.workers = workers
        self.target_seconds = target_seconds
        self.fixed = fixed
        self._seconds = 0.0
        self._deals = 0

    def learn(self, deals: int, seconds: float) -> None:
        """A batch of ``deals`` deals took ``seconds``."""
        self._deals += deals
        self._seconds += seconds

    def size(self, remaining: int | None = None) -> int:
        """Deals for the next batch; ``remaining``, when known, keeps two batches per worker to the end."""
        if self.fixed is not None:
            return self.fixed
        size = (
            2
            if not self._deals
            else max(1, round(self.target_seconds * self._deals / max(self._seconds, 1e-6)))
        )
        if remaining is not None:
            size = min(size, max(1, math.ceil(remaining / (2 * self.workers))))
        return min(size, 500)


def solve_matches(
    matches: Iterable[MatchToSolve],
    runner: Runner,
    *,
    samples: int,
    seed: int = 0,
    sizer: BatchSizer | None = None,
    total_deals: int | None = None,
    on_deals: Callable[[int, float], None] | None = None,
) -> Iterator[SolvedMatch]:
    """Analyse the deals of ``matches`` in batches on ``runner``; yield each match once all of it is back.

    Matches come back in the order they finish, not the order given. A batch that fails (a
    worker lost more often than the runner retries, say) makes its matches incomplete
    (:attr:`SolvedMatch.complete` false), never the others.

    :param samples: layouts per play and per call reviewed.
    :param seed: the random seed.
    :param sizer: how many deals a batch holds (default: learnt as they come back).
    :param total_deals: deals in all, when known (to keep batches small enough near the end).
    :param on_deals: called with a number of deals just done and their expected work (in
        four-player deals, :func:`~.analysis.effort.review_effort`; none for a deal the solver
        does not take), for a progress bar whose time left weighs each variant's deals.
    """
    from .analysis.costs import can_solve
    from .analysis.effort import review_effort

    def work_of(deals: Sequence[tuple[str, int]]) -> float:
        variants = Counter(pending[match_id].match.result.rules.variant for match_id, _ in deals)
        return review_effort(variants)

    sizer = sizer or BatchSizer(runner.workers)
    source = iter(matches)
    pending: dict[str, _Pending] = {}
    queued: deque[tuple[str, int]] = deque()
    handed_out = 0
    deals_read = 0
    exhausted = False
    while True:
        while handed_out < runner.slots:
            remaining = None if total_deals is None else max(1, total_deals - deals_read + len(queued))
            size = sizer.size(remaining)
            while len(queued) < size and not exhausted:
                match = next(source, None)
                if match is None:
                    exhausted = True
                    break
                result = match.result
                numbers = [d.number for d in result.deals if can_solve(d, result.rules)]
                deals_read += len(result.deals)
                if on_deals is not None and len(result.deals) > len(numbers):
                    on_deals(len(result.deals) - len(numbers), 0.0)
                entry = _Pending(match, set(numbers))
                if not numbers:
                    yield _finish(entry)
                    continue
                pending[result.id] = entry
                queued.extend((result.id, n) for n in numbers)
            if not queued:
                break
            deals = tuple(queued.popleft() for _ in range(min(size, len(queued))))
            records = {mid: pending[mid].match.data for mid in dict.fromkeys(mid for mid, _ in deals)}
            runner.submit(DealBatch(records, deals, samples, seed, runner.threads))
            handed_out += 1
        if not handed_out:
            return
        batch, outcome = runner.next_done()
        handed_out -= 1
        if on_deals is not None:
            on_deals(len(batch.deals), work_of(batch.deals))
        if isinstance(outcome, BaseException):
            _fail(batch, outcome, pending)
        else:
            sizer.learn(len(batch.deals), outcome.seconds)
            _collect(batch, outcome, pending)
        for match_id in dict.fromkeys(mid for mid, _ in batch.deals):
            entry = pending[match_id]
            if not entry.waiting:
                del pending[match_id]
                yield _finish(entry)


def _fail(batch: DealBatch, error: BaseException, pending: dict[str, _Pending]) -> None:
    by_match: dict[str, list[int]] = {}
    for match_id, number in batch.deals:
        by_match.setdefault(match_id, []).append(number)
    for match_id, numbers in by_match.items():
        entry = pending[match_id]
        entry.waiting -= set(numbers)
        which = ", ".join(str(n) for n in numbers)
        message = f"match {match_id!r} deals {which}: the task failed: {type(error).__name__}: {error}"
        entry.problems.append(DealProblem(match_id, numbers[0], message, retry=True))


def _collect(batch: DealBatch, tables: BatchTables, pending: dict[str, _Pending]) -> None:
    for match_id, number in batch.deals:
        pending[match_id].waiting.discard(number)
    for key, plays in tables.play_costs.partition_by("match_id", as_dict=True).items():
        pending[str(key[0])].plays.append(plays)
    for key, values in tables.card_values.partition_by("match_id", as_dict=True).items():
        pending[str(key[0])].values.append(values)
    for key, calls in tables.call_decisions.partition_by("match_id", as_dict=True).items():
        pending[str(key[0])].calls.append(calls)
    for key, lines in tables.finding_lines.partition_by("match_id", as_dict=True).items():
        pending[str(key[0])].lines.append(lines)
    for finding in tables.findings:
        pending[finding.match].extra.setdefault(finding.deal or 0, []).append(finding)
    for match_id, review in tables.knock_reviews:
        pending[match_id].knocks[(review.deal, review.seat)] = review
    for problem in tables.problems:
        pending[problem.match_id].problems.append(problem)


def _finish(entry: _Pending) -> SolvedMatch:
    result, record = entry.match.result, entry.match.record
    plays = _concat(entry.plays, COSTS_SCHEMA).sort("deal", "trick", "play", maintain_order=True)
    values = _concat(entry.values, VALUES_SCHEMA).sort("deal", "trick", "play", maintain_order=True)
    calls = _concat(entry.calls, CALLS_SCHEMA).sort("deal", maintain_order=True)
    costs = costs_from_frames(plays, values)
    extra = [finding for number in sorted(entry.extra) for finding in entry.extra[number]]
    findings = merged_findings(result, record, dict(sorted(costs.items())), extra, entry.knocks)
    problems = sorted(entry.problems, key=lambda p: (p.deal or 0, p.message))
    return SolvedMatch(
        result.id,
        plays,
        values,
        calls,
        findings,
        len(result.deals),
        len(costs),
        [p.message for p in problems],
        not any(p.retry for p in problems),
        entry.match.tag,
        _concat(entry.lines, LINES_SCHEMA).sort("deal", "trick", "play", maintain_order=True),
    )
