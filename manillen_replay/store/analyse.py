"""The built-in analysis run over an archive: read each match back, replay it, find its mistakes
(and with the solver cost its cards), store the findings. The dashboard (after an upload or a
recorded deal) runs :func:`analyse_archive` on its open Store; ``manillen analyze`` and
``manillen report`` run :func:`analyse_archive_in_turns`, which opens the archive to write only
while it stores, so that the solver's minutes pass beside the dashboard.
"""

from __future__ import annotations

import datetime
import gc
import json
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import polars as pl

from ..analysis import FINDING_COLUMNS, Finding, analyse
from ..analysis.findings import finding_columns
from ..archive_defaults import ANALYSIS_DEPTHS, ANALYSIS_REVISION
from ..bulk import collection_paused, replay_entries, replay_many
from ..engine import MatchResult
from ..engine.report import player_names, seat_names
from ..errors import InvalidRecordError
from ..record import Entry, Record, loads

if TYPE_CHECKING:  # the solver (and numba) load only for depth solver
    from ..analysis.call_review import CallReview
    from ..analysis.costs import PlayCost
    from ..analysis.deal_analysis import MatchSolved, ProgressMeter
    from ..analysis.reasons import Reason
    from .core import Store

Progress = Callable[[int, str, int], Any]
"""Makes a progress bar (``update(n, item)``, ``render_finish()``) from a total, a label and the
smallest total worth a bar. With the solver, ``item`` is a
:class:`~manillen_replay.analysis.deal_analysis.Progress` after each deal (deals done, deals per
second, time left), for the bar to show beside it."""

_PLACE_SCHEMA: dict[str, Any] = {
    "match_id": pl.Utf8,
    "deal": pl.Int32,
    "trick": pl.Int32,
    "play": pl.Int32,
    "seat": pl.Int32,
    "player": pl.Utf8,
}
"""The columns that place a finding or a cost: the match, the deal, the play and who made it."""

FINDINGS_SCHEMA: dict[str, Any] = {
    **_PLACE_SCHEMA,
    "kind": pl.Utf8,
    "category": pl.Utf8,
    "severity": pl.Utf8,
    "card": pl.Utf8,
    "better": pl.List(pl.Utf8),
    "points": pl.Float64,
    "explanation": pl.Utf8,
    "explanation_nl": pl.Utf8,
}
assert tuple(FINDINGS_SCHEMA) == FINDING_COLUMNS

COSTS_SCHEMA: dict[str, Any] = {
    **_PLACE_SCHEMA,
    "card": pl.Utf8,
    "dd_cost": pl.Int32,
    "view_cost": pl.Float64,
    "best": pl.List(pl.Utf8),
    "hindsight_best": pl.List(pl.Utf8),
    "layouts": pl.Int32,
    "exact": pl.Boolean,
    "legal": pl.Boolean,
    "forced": pl.Boolean,
    "view_error": pl.Float64,
}
"""The columns of the archive's ``play_costs`` table."""
VALUES_SCHEMA: dict[str, Any] = {
    "match_id": pl.Utf8,
    "deal": pl.Int32,
    "trick": pl.Int32,
    "play": pl.Int32,
    "card": pl.Utf8,
    "hindsight": pl.Int32,
    "view": pl.Float64,
}
"""The columns of the archive's ``card_values`` table."""

CHUNK = 500
"""Matches analysed in one piece without the solver: each piece's findings are stored in the
order its records are stored in, the pieces in the order the matches are asked for, so the
findings (and their ids) are the same whatever the chunks (below)."""
CHUNK_MOST = 2000
"""Matches analysed and saved per transaction at most without the solver; a chunk is a whole
number of :data:`CHUNK` pieces. What a chunk holds until it is stored (its records, read twice,
and its findings) weighs: the scan of 100,000 deals peaked at 490 MB with chunks of 500
matches, 574 MB with chunks of up to 2,000 and 657 MB of up to 5,000."""
TURN_SECONDS = 2.0
"""Seconds of analysis a chunk aims at without the solver: it grows, a :data:`CHUNK` at a
time up to :data:`CHUNK_MOST` matches, until analysing it takes this long. Each chunk ends in a
turn to write, whose closing checkpoints the archive (writes its changes into the file, what
the dashboard reads): fewer, larger chunks checkpoint less often, while a dashboard or another
command still gets the archive between two chunks."""
SOLVER_CHUNK = 1
"""Matches solved and saved per transaction: a match takes a minute, so each is kept at once."""


def findings_frame(findings: Iterable[Finding]) -> pl.DataFrame:
    """Findings as a frame with the archive's ``findings`` columns (for ``Store.save_findings``)."""
    return pl.DataFrame(finding_columns(list(findings)), schema=FINDINGS_SCHEMA)


def cost_frames(
    result: MatchResult, costs: Mapping[int, Sequence[PlayCost]]
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The solver's costs of a match as ``play_costs`` and ``card_values`` rows (for ``Store.save_costs``).

    :param result: the replayed match (its id and who sat where in each deal).
    :param costs: each deal's costs by deal number (``manillen_replay.analysis.costs.view_costs``).
    """
    plays: list[tuple[Any, ...]] = []
    values: list[tuple[Any, ...]] = []
    by_number = {deal.number: deal for deal in result.deals}
    for number, found in costs.items():
        names = player_names(result, by_number[number])  # the dummy's card is its dealer's decision
        for cost in found:
            plays.append(
                (
                    result.id, number, cost.trick, cost.play, cost.seat,
                    names[cost.seat] if cost.seat < len(names) else None, str(cost.card), cost.dd_cost,
                    cost.view_cost, [str(c) for c in cost.best_cards], [str(c) for c in cost.hindsight_best],
                    cost.layouts, cost.exact, cost.legal, cost.forced,
                    None if cost.view_cost is None else cost.view_error,
                )
            )  # fmt: skip
            values.extend(
                (result.id, number, cost.trick, cost.play, str(card), value.hindsight, value.view)
                for card, value in cost.values.items()
            )
    return (
        pl.DataFrame(plays, schema=COSTS_SCHEMA, orient="row"),
        pl.DataFrame(values, schema=VALUES_SCHEMA, orient="row"),
    )


CALLS_SCHEMA: dict[str, Any] = {
    "match_id": pl.Utf8,
    "deal": pl.Int32,
    "seat": pl.Int32,
    "player": pl.Utf8,
    "call": pl.Utf8,
    "chosen": pl.Utf8,
    "best": pl.Utf8,
    "loss": pl.Float64,
    "spread": pl.Float64,
    "layouts": pl.Int32,
    "loss_error": pl.Float64,
    "options": pl.Utf8,
    "options_at_most": pl.List(pl.Utf8),
}
"""The columns of the archive's ``call_decisions`` table."""


def call_frame(result: MatchResult, reviews: Iterable[tuple[str, CallReview]]) -> pl.DataFrame:
    """The reviewed calls of a match as ``call_decisions`` rows (for ``Store.save_costs``).

    :param reviews: each review with what it judged: ``trump`` (trump or muil) or ``klop``.
    """
    by_number = {deal.number: deal for deal in result.deals}
    rows = []
    for call, review in reviews:
        if review.chosen is None or review.loss is None:
            continue
        names = seat_names(result, by_number[review.deal])
        rows.append(
            (
                result.id, review.deal, review.seat, names[review.seat] if review.seat < len(names) else None,
                call, review.chosen, review.best.name, round(review.loss, 3),
                round(review.spread, 3), review.layouts, round(review.loss_error or 0.0, 3),
                json.dumps({option.name: round(option.score, 3) for option in review.options}),
                [option.name for option in review.options if option.bound],
            )
        )  # fmt: skip
    return pl.DataFrame(rows, schema=CALLS_SCHEMA, orient="row")


LINES_SCHEMA: dict[str, Any] = {
    "match_id": pl.Utf8,
    "deal": pl.Int32,
    "trick": pl.Int32,
    "play": pl.Int32,
    "line": pl.Utf8,
    "layout": pl.Utf8,
    "first_card": pl.Utf8,
    "step": pl.Int32,
    "line_trick": pl.Int32,
    "seat": pl.Int32,
    "player": pl.Utf8,
    "card": pl.Utf8,
    "held": pl.List(pl.Utf8),
    "winner": pl.Int32,
    "trick_points": pl.Int32,
    "team_points": pl.Int32,
    "layouts": pl.Int32,
}
"""The columns of the archive's ``finding_lines`` table."""


def lines_frame(result: MatchResult, reasons: Mapping[int, Sequence[Reason]]) -> pl.DataFrame:
    """The lines of a match's costly cards as ``finding_lines`` rows (for ``Store.save_lines``):
    per reason four lines (``played`` and ``better``, on the ``view`` layout and the ``real``
    deal), one row per card from the costly play on.

    :param reasons: each deal's reasons by deal number (:func:`~.analysis.reasons.deal_reasons`).
    """
    from ..cards import CARDS, iter_mask

    by_number = {deal.number: deal for deal in result.deals}
    rows: list[tuple[Any, ...]] = []
    for number, found in reasons.items():
        names = seat_names(result, by_number[number])
        for reason in found:
            team = reason.view_played.sides[reason.seat]
            for (line_name, layout), line in reason.lines().items():
                trick_of = {play: trick for trick in line.tricks for play in trick.plays}
                for step, (play, mask) in enumerate(zip(line.plays, line.held(), strict=True), 1):
                    held = [str(CARDS[c]) for c in iter_mask(mask)]
                    trick = trick_of[play]
                    rows.append(
                        (
                            result.id, number, reason.trick, reason.play, line_name, layout,
                            str(CARDS[line.plays[0].card]), step, trick.number, play.seat,
                            names[play.seat] if play.seat < len(names) else None, str(CARDS[play.card]), held,
                            trick.winner, trick.points, line.taken(team),
                            reason.layouts if layout == "view" else None,
                        )
                    )  # fmt: skip
    return pl.DataFrame(rows, schema=LINES_SCHEMA, orient="row")


def next_chunk_size(size: int, seconds: float) -> int:
    """Matches in the next chunk of the scan without the solver, after a chunk of ``size``
    matches took ``seconds`` to analyse: as many as take :data:`TURN_SECONDS`, a whole number of
    :data:`CHUNK` pieces, at most :data:`CHUNK_MOST`.

    >>> next_chunk_size(500, 1.0), next_chunk_size(500, 4.0), next_chunk_size(1500, 0.1)
    (1000, 500, 2000)
    """
    pieces = round(size * TURN_SECONDS / max(seconds, 1e-3) / CHUNK)
    return CHUNK * max(1, min(CHUNK_MOST // CHUNK, pieces))


def _in_pieces(records: list[tuple[str, bytes]], chunk: Sequence[str]) -> list[tuple[str, bytes]]:
    """A chunk's records (read in the order they are stored) piece by piece: the matches of
    its first :data:`CHUNK` first, then the next :data:`CHUNK`, each piece's in the order they
    are stored, as a chunk of :data:`CHUNK` matches reads them. The findings are stored in this
    order, so they and their ids are the same whatever the chunks."""
    piece = {match_id: index // CHUNK for index, match_id in enumerate(chunk)}
    return sorted(records, key=lambda record: piece[record[0]])  # stable: stored order in a piece


@dataclass
class AnalysisOutcome:
    """What one run of the built-in analysis did."""

    matches: int = 0
    """Matches asked for."""
    deals: int = 0
    solved: int = 0
    """Deals the solver costed."""
    by_category: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)
    unanalysed: int = 0
    """Matches asked for but left unmarked, each named in ``problems``: a stored record that no
    longer decodes, a match the analysis could not take, or one changed while it was analysed.
    The next run tries them again."""

    @property
    def analysed(self) -> int:
        """Matches analysed and stored."""
        return self.matches - self.unanalysed


def _bar_listener(bar: Any) -> Callable[[Any], None]:
    """Moves ``bar`` on by a deal, with the progress for it to show (nothing without a bar)."""

    def listen(now: Any) -> None:
        if bar is not None:
            bar.update(1, now)

    return listen


def match_ids_to_analyse(
    store: Store,
    *,
    everything: bool = False,
    depth: str = "heuristic",
    match_ids: Sequence[str] | None = None,
    since: datetime.date | None = None,
    newest_first: bool = False,
    outdated: bool = True,
) -> list[str]:
    """The matches not analysed yet at ``depth`` (or only shallower, or at ``depth`` or shallower by
    an earlier revision of the analysis: :data:`~manillen_replay.archive_defaults.ANALYSIS_REVISION`),
    in import order; with ``everything``, those analysed at ``depth`` too. A match analysed deeper
    is never taken (even by an earlier revision: :func:`outdated_deeper_counts` counts those): a
    solver review replaced by the fast scan's findings would be lost, its costs left behind
    (:func:`deeper_match_count` counts them, for the command to say so).

    :param match_ids: only these matches.
    :param since: only the matches dated on or after this day (an undated match is left out).
    :param newest_first: the newest matches first (by date, undated last, then the last imported
        first), not in import order.
    :param outdated: also the matches analysed by an earlier revision; ``False``: only those not
        analysed at ``depth`` at all (an upload's new matches, not the archive's whole backlog).
    """
    compared = "<=" if everything else "<"
    conditions, params = _depth_scope(depth, compared, match_ids, since, outdated=outdated)
    where = f"WHERE {' AND '.join(conditions)}"
    order = "date DESC NULLS LAST, import_order DESC" if newest_first else "import_order"
    query = f"SELECT match_id FROM matches {where} ORDER BY {order}"
    ids: list[str] = store.query(query, params or None)["match_id"].to_list()
    return ids


def deeper_match_count(
    store: Store,
    depth: str,
    *,
    match_ids: Sequence[str] | None = None,
    since: datetime.date | None = None,
) -> int:
    """How many of the matches (of ``match_ids``, ``since``) are analysed deeper than ``depth``."""
    conditions, params = _depth_scope(depth, ">", match_ids, since)
    query = f"SELECT count(*) AS n FROM matches WHERE {' AND '.join(conditions)}"
    return int(store.query(query, params or None)["n"][0])


def outdated_deeper_counts(
    store: Store,
    depth: str,
    *,
    match_ids: Sequence[str] | None = None,
    since: datetime.date | None = None,
) -> dict[str, int]:
    """How many of the matches (of ``match_ids``, ``since``) keep an analysis deeper than ``depth``
    made by an earlier revision of the analysis, by the depth it went to: one at ``depth`` would
    replace it, so it waits for a run at its own depth."""
    conditions, params = _depth_scope(depth, ">", match_ids, since)
    query = (
        "SELECT coalesce(analysis_depth, 'heuristic') AS depth, count(*) AS n FROM matches "
        f"WHERE {' AND '.join(conditions)} AND coalesce(analysis_revision, 0) < {ANALYSIS_REVISION} "
        "GROUP BY 1"
    )
    return {str(d): int(n) for d, n in store.query(query, params or None).iter_rows()}


def _depth_scope(
    depth: str,
    compared: str,
    match_ids: Sequence[str] | None,
    since: datetime.date | None,
    *,
    outdated: bool = False,
) -> tuple[list[str], list[Any]]:
    """The conditions on ``matches`` for a match's depth ``compared`` to ``depth`` (a match not
    analysed counts as shallower than any; with ``outdated`` a match analysed at ``depth`` or
    shallower by an earlier revision of the analysis too), within ``match_ids`` and ``since``."""
    rank = ANALYSIS_DEPTHS.index(depth) + 1
    done = f"list_position({list(ANALYSIS_DEPTHS)}, coalesce(analysis_depth, 'heuristic'))"
    unanalysed = "TRUE" if compared.startswith("<") else "FALSE"
    compare = f"{done} {compared} {rank}"
    if outdated:
        older = f"coalesce(analysis_revision, 0) < {ANALYSIS_REVISION}"
        compare = f"({compare} OR ({done} <= {rank} AND {older}))"
    conditions = [f"(CASE WHEN analysed_at IS NULL THEN {unanalysed} ELSE {compare} END)"]
    params: list[Any] = []
    if match_ids is not None:
        conditions.append("list_contains(?, match_id)")
        params.append(list(match_ids))
    if since is not None:
        conditions.append("date >= ?")
        params.append(since)
    return conditions, params


def deals_to_analyse(store: Store, match_ids: Sequence[str]) -> int:
    """How many deals these matches have: what the solver's progress counts (one per deal, as
    :func:`~manillen_replay.analysis.deal_analysis.analyse_match` tells after each)."""
    return store.deal_count(list(match_ids))


@dataclass
class _Analysed:
    """What one chunk of matches gave, waiting to be stored."""

    ids: list[str]
    """The matches analysed (those that failed left out): their findings are replaced."""
    findings: list[Finding] = field(default_factory=list)
    solved: dict[str, tuple[MatchResult, MatchSolved]] = field(default_factory=dict)
    calls: list[pl.DataFrame] = field(default_factory=lambda: [pl.DataFrame(schema=CALLS_SCHEMA)])
    lines: list[pl.DataFrame] = field(default_factory=lambda: [pl.DataFrame(schema=LINES_SCHEMA)])
    deals: dict[str, int] = field(default_factory=dict)
    """Each match's deals, counted in the outcome: taken back for a match not stored."""


def _analyse_chunk(
    records: Iterable[tuple[str, bytes]],
    chunk: Sequence[str],
    *,
    depth: str,
    samples: int,
    meter: ProgressMeter | None,
    outcome: AnalysisOutcome,
) -> _Analysed:
    """Replay and analyse some matches (no archive needed: the solver works outside its lock).

    Without the solver, automatic garbage collection is paused for the chunk, as the bulk
    replay pauses it: the detectors build every trick of the chunk and a view of every play, and
    the collection would otherwise scan the chunk's replays again every few hundred objects
    (nearly as much of the fast scan's time again as the detectors); what the chunk left is
    collected once it is done. The solver's chunk is one match of a minute's search, left to
    the collector.
    """
    if meter is not None:
        return _analyse_replays(records, chunk, depth=depth, samples=samples, meter=meter, outcome=outcome)
    with collection_paused():
        done = _analyse_replays(records, chunk, depth=depth, samples=samples, meter=meter, outcome=outcome)
    gc.collect(1)
    return done


def _replayed(
    records: Iterable[tuple[str, bytes]], *, quickly: bool
) -> Iterator[tuple[str, Record | None, MatchResult | Exception]]:
    """Each stored match decoded and replayed: its record (``None`` when it no longer decodes)
    and its result or what the replay raised.

    ``quickly`` (the scan without the solver) reads them as ``manillen validate`` reads a file
    (:func:`~manillen_replay.bulk.replay_entries`): the cards of a piece of :data:`CHUNK`
    matches at once, not a string for each card of each record; the records' cards are then left
    unread, which the detectors do not need (they read the replay). A piece at a time: the
    tricks of a piece's deals are built together when the detectors first ask for one, and held
    until the piece is done (a chunk of 5,000 matches replayed at once peaked at 1.1 GB on
    100,000 deals, 490 MB a piece at a time). The solver reads each record in full.
    """
    places = [(match_id, f"archive match {match_id}", data) for match_id, data in records]
    if quickly:
        entries = [Entry(source, None, data) for _, source, data in places]
        for (match_id, _, _), (_, record, result) in zip(
            places, replay_entries(entries, batch=CHUNK), strict=True
        ):
            yield match_id, record, result
        return
    decoded: list[tuple[str, str, Record]] = []
    for match_id, source, data in places:
        try:
            decoded.append((match_id, source, loads(data, source=source)))
        except InvalidRecordError as error:
            yield match_id, None, error
    replays = replay_many([record for *_, record in decoded], [(source, None) for _, source, _ in decoded])
    for (match_id, _, record), replayed in zip(decoded, replays, strict=True):
        yield match_id, record, replayed


def _analyse_replays(
    records: Iterable[tuple[str, bytes]],
    chunk: Sequence[str],
    *,
    depth: str,
    samples: int,
    meter: ProgressMeter | None,
    outcome: AnalysisOutcome,
) -> _Analysed:
    failed: set[str] = set()
    done = _Analysed(ids=[])
    for match_id, record, replayed in _replayed(records, quickly=meter is None):
        if isinstance(replayed, InvalidRecordError):
            # a record stored by an older, looser version of the program, or edited by SQL: left
            # unmarked, so that the run after its record is fixed takes it
            failed.add(match_id)
            outcome.problems.append(unreadable_match(match_id, replayed))
            continue
        if isinstance(replayed, Exception):
            raise replayed
        assert record is not None
        result = replayed
        try:
            if meter is not None:
                from ..analysis.deal_analysis import analyse_match

                match = analyse_match(result, record, samples=samples, on_deal=meter.counter(result.rules))
                findings = match.findings
                calls = call_frame(result, match.reviews)
                lines = lines_frame(result, match.reasons)
            else:
                findings = list(analyse(result, record, strategy=depth != "rules"))
        except Exception as error:  # one match the analysis cannot take must not stop the others
            failed.add(match_id)
            outcome.problems.append(
                f"match {match_id!r} could not be analysed ({type(error).__name__}: {error}); "
                "it stays unanalysed, the other matches were stored: please report it"
            )
            continue
        outcome.deals += len(result.deals)
        done.deals[match_id] = len(result.deals)
        done.findings.extend(findings)
        if meter is not None:
            outcome.problems.extend(match.problems)
            outcome.solved += len(match.deals)
            done.solved[match_id] = (result, match)
            done.calls.append(calls)
            done.lines.append(lines)
    done.ids = [match_id for match_id in chunk if match_id not in failed]
    outcome.unanalysed += len(failed)
    return done


def unreadable_match(match_id: str, error: InvalidRecordError) -> str:
    """What to tell of a stored match whose record no longer decodes (or replays): which match,
    what is wrong, and that it stays unanalysed until its record is fixed."""
    return (
        f"match {match_id!r} was not analysed: its stored record no longer reads ({error}); "
        "it stays unanalysed, and the next run tries it again: import a corrected file of the match"
    )


def _store_chunk(
    store: Store,
    done: _Analysed,
    *,
    depth: str,
    outcome: AnalysisOutcome,
    on_match: Callable[[MatchSolved, float], None] | None,
) -> None:
    start = time.perf_counter()
    if depth == "solver":  # costs first: a match is marked analysed only once they are in
        frames = [cost_frames(result, match.costs) for result, match in done.solved.values()]
        frames = frames or [(pl.DataFrame(schema=COSTS_SCHEMA), pl.DataFrame(schema=VALUES_SCHEMA))]
        store.save_costs(
            list(done.solved),
            pl.concat([f[0] for f in frames]),
            pl.concat([f[1] for f in frames]),
            pl.concat(done.calls),
        )
        store.save_lines(list(done.solved), pl.concat(done.lines))
    store.save_findings(done.ids, findings_frame(done.findings), depth=depth)
    if on_match is not None:
        for _, match in done.solved.values():
            on_match(match, (time.perf_counter() - start) / max(1, len(done.solved)))
    outcome.by_category.update(f.category.value for f in done.findings)


def store_solved_match(store: Store, result: MatchResult, solved: MatchSolved) -> None:
    """Store the solver's review of one match (costs, reviewed calls, the costly cards' lines,
    findings) and mark it analysed at depth ``solver``, as ``manillen analyze`` stores each match.

    :raises ArchiveError: when the rows cannot be written.
    """
    done = _Analysed(
        ids=[result.id],
        findings=list(solved.findings),
        solved={result.id: (result, solved)},
        calls=[call_frame(result, solved.reviews)],
        lines=[lines_frame(result, solved.reasons)],
    )
    _store_chunk(store, done, depth="solver", outcome=AnalysisOutcome(matches=1), on_match=None)


def _drop_changed(
    done: _Analysed, read: Mapping[str, bytes], now: Mapping[str, bytes], outcome: AnalysisOutcome
) -> None:
    """Leave out of ``done`` the matches whose record changed (or went) while they were analysed
    with the archive closed (the dashboard's Record page adds deals to a match): their results
    would overwrite the newer match's."""
    changed = [match_id for match_id in done.ids if now.get(match_id) != read.get(match_id)]
    if not changed:
        return
    gone = set(changed)
    outcome.unanalysed += len(gone)
    # neither analysed nor costed in the command's last lines: nothing of them was stored
    outcome.deals -= sum(done.deals.get(match_id, 0) for match_id in gone)
    outcome.solved -= sum(len(done.solved[match_id][1].deals) for match_id in gone if match_id in done.solved)
    done.ids = [match_id for match_id in done.ids if match_id not in gone]
    done.findings = [f for f in done.findings if f.match not in gone]
    done.solved = {match_id: solved for match_id, solved in done.solved.items() if match_id not in gone}
    done.calls = [frame.filter(~pl.col("match_id").is_in(list(gone))) for frame in done.calls]
    done.lines = [frame.filter(~pl.col("match_id").is_in(list(gone))) for frame in done.lines]
    for match_id in changed:
        outcome.problems.append(
            f"match {match_id!r} changed in the archive while it was being analysed: it was not "
            "stored; run the same command again to analyse it as it is now"
        )


def _meter(
    total: int, progress: Progress | None, depth: str, matches: int, work: float = 0.0
) -> tuple[Any, ProgressMeter | None]:
    """The progress bar and, with the solver, the meter that moves it a deal at a time (``work``:
    the deals' expected work, for the time left)."""
    if depth != "solver":
        return (progress(matches, "analysing", 50) if progress else None), None
    from ..analysis.deal_analysis import ProgressMeter

    bar = progress(total, "solving", 1) if progress else None
    return bar, ProgressMeter(total, _bar_listener(bar), work=work)


def analyse_archive(
    store: Store,
    *,
    everything: bool = False,
    depth: str = "heuristic",
    samples: int = 50,
    match_ids: Sequence[str] | None = None,
    progress: Progress | None = None,
    on_match: Callable[[MatchSolved, float], None] | None = None,
) -> AnalysisOutcome:
    """Run the built-in analysis over an archive and store what it finds: what the dashboard does
    after an upload or a recorded deal (``manillen analyze`` runs :func:`analyse_archive_in_turns`,
    which holds the archive only while it stores).

    :param everything: analyse every match again, not only the new (or shallower) ones.
    :param depth: ``rules``, ``heuristic`` (the default) or ``solver`` (:data:`ANALYSIS_DEPTHS`).
    :param samples: with the solver, layouts of the hidden cards solved per play and per call.
    :param match_ids: only these matches (still only the new ones unless ``everything``).
    :param progress: makes a progress bar from ``(total, label, minimum)``, or ``None`` for none.
    :param on_match: with the solver, called after each match is stored, with what the solver
        found (each deal's seconds per part) and the seconds storing it took (``make bench``).
    :raises ArchiveError: when the findings cannot be written.
    """
    ids = match_ids_to_analyse(store, everything=everything, depth=depth, match_ids=match_ids)
    # one store open for the whole run: its turns to read and to write are always its own
    return analyse_archive_in_turns(
        lambda _read_only: nullcontext(store),
        ids,
        depth=depth,
        samples=samples,
        progress=progress,
        on_match=on_match,
    )


Opener = Callable[[bool], "AbstractContextManager[Store]"]
"""Opens the archive, read-only (``True``) or to write, waiting for its turn (``Store.open_in_turn``)."""


def analyse_archive_in_turns(
    open_store: Opener,
    ids: Sequence[str],
    *,
    depth: str = "heuristic",
    samples: int = 50,
    deals: int | None = None,
    work: float = 0.0,
    progress: Progress | None = None,
    on_match: Callable[[MatchSolved, float], None] | None = None,
) -> AnalysisOutcome:
    """The built-in analysis of these matches, holding the archive only while it reads and stores.

    Each chunk of matches (one match with the solver; without it as many pieces of
    :data:`CHUNK` as take :data:`TURN_SECONDS` to analyse) is analysed with the archive closed,
    then stored with the archive open to write, in the turn that also reads the next chunk (the
    first is read with the archive open read-only, beside the dashboard's readers): a dashboard
    or another command waits minutes less, and a command that waits for its turn to write has
    solved its match meanwhile.

    :param open_store: opens the archive (``True``: read-only), waiting for its turn.
    :param ids: the matches, in the order to analyse them (:func:`match_ids_to_analyse`).
    :param deals: how many deals they hold (:func:`deals_to_analyse`), for the solver's progress.
    :param work: their expected work in four-player deals (:func:`~manillen_replay.analysis.effort.
        review_effort` of ``Store.deal_counts_by_variant``), for its time left; 0: by deals.
    :raises ArchiveError: when the findings cannot be written, or the archive stays held.
    """
    outcome = AnalysisOutcome(matches=len(ids))
    solving = depth == "solver"
    if solving and deals is None:
        with open_store(True) as store:
            deals = deals_to_analyse(store, ids)
    bar, meter = _meter(deals or 0, progress, depth, len(ids), work)
    size = SOLVER_CHUNK if solving else CHUNK
    chunk = list(ids[:size])
    try:
        if chunk:
            with open_store(True) as store:
                records = _in_pieces(list(store.iter_records(match_ids=chunk)), chunk)
        start = len(chunk)
        while chunk:
            began = time.perf_counter()
            done = _analyse_chunk(records, chunk, depth=depth, samples=samples, meter=meter, outcome=outcome)
            if not solving:
                size = next_chunk_size(len(chunk), time.perf_counter() - began)
            following = list(ids[start : start + size])
            start += len(following)
            # One turn to write stores this chunk and reads the next: a turn less per chunk
            # (each open reads the archive's catalog), and the archive is still free to others
            # while a chunk is analysed.
            with open_store(False) as store:
                _drop_changed(done, dict(records), dict(store.iter_records(match_ids=done.ids)), outcome)
                _store_chunk(store, done, depth=depth, outcome=outcome, on_match=on_match)
                if following:
                    records = _in_pieces(list(store.iter_records(match_ids=following)), following)
            if bar is not None and not solving:
                bar.update(len(chunk))
            chunk = following
    finally:
        if bar is not None:
            bar.render_finish()
    return outcome
