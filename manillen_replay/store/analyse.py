"""The built-in analysis run over an archive: read each match back, replay it, find its mistakes
(and with the solver cost its cards), store the findings. ``manillen analyze`` and the dashboard
(after an upload or a recorded deal) both run :func:`analyse_archive`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import polars as pl

from ..analysis import Finding, analyse
from ..engine import MatchResult, replay
from ..errors import InvalidRecordError
from ..record import Record, loads
from ..solving import (
    CARD_KINDS,
    COSTS_SCHEMA,
    VALUES_SCHEMA,
    cost_frames,
    findings_frame,
    solver_findings,
)
from .schema import ANALYSIS_DEPTHS

if TYPE_CHECKING:  # the solver (and numba) load only for depth solver
    from ..solver import PlayCost
    from .core import Store

Progress = Callable[[int, str, int], Any]
"""Makes a progress bar (``update(n)``, ``render_finish()``) from a total, a label and the
smallest total worth a bar."""

CHUNK = 500
"""Matches analysed and saved per transaction."""
SOLVER_CHUNK = 1
"""Matches solved and saved per transaction: a match takes a minute, so each is kept at once."""


def _chunks(items: Sequence[str], size: int) -> Iterator[list[str]]:
    for start in range(0, len(items), size):
        yield list(items[start : start + size])


@dataclass
class AnalysisOutcome:
    """What one run of the built-in analysis did."""

    matches: int = 0
    deals: int = 0
    solved: int = 0
    """Deals the solver costed."""
    by_category: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)


def _solve_match(
    result: MatchResult, record: Record, samples: int, outcome: AnalysisOutcome, bar: Any
) -> tuple[list[Finding], dict[int, list[PlayCost]]]:
    from ..solver import SolverError, can_solve, view_costs

    costs: dict[int, list[PlayCost]] = {}
    extra: list[Finding] = []
    for deal in result.deals:
        if can_solve(deal, result.rules):
            try:
                found = view_costs(deal, result.rules, samples=samples)
                extra += solver_findings(result, record, deal, found, samples)
            except SolverError as error:
                outcome.problems.append(f"match {result.id!r} deal {deal.number}: the solver failed: {error}")
            else:
                costs[deal.number] = found
                outcome.solved += 1
        if bar is not None:
            bar.update(1)
    findings = analyse(result, record, costs=costs)
    # The built-in card finding at a play explains in words what the costly card's number says.
    explained = {(f.deal, f.trick, f.play) for f in findings if f.kind in CARD_KINDS}
    findings += [f for f in extra if f.kind != "costly_card" or (f.deal, f.trick, f.play) not in explained]
    return findings, costs


def match_ids_to_analyse(
    store: Store,
    *,
    everything: bool = False,
    depth: str = "heuristic",
    match_ids: Sequence[str] | None = None,
) -> list[str]:
    """The matches not analysed yet at ``depth`` (or shallower), in import order; all with ``everything``.

    :param match_ids: only these matches.
    """
    rank = ANALYSIS_DEPTHS.index(depth) + 1
    conditions = []
    params: list[Any] = []
    if not everything:
        conditions.append(
            f"(analysed_at IS NULL OR list_position({list(ANALYSIS_DEPTHS)}, "
            f"coalesce(analysis_depth, 'heuristic')) < {rank})"
        )
    if match_ids is not None:
        conditions.append("list_contains(?, match_id)")
        params.append(list(match_ids))
    where = f"WHERE {' AND '.join(conditions)}" if conditions else ""
    query = f"SELECT match_id FROM matches {where} ORDER BY import_order"
    ids: list[str] = store.query(query, params or None)["match_id"].to_list()
    return ids


def analyse_archive(
    store: Store,
    *,
    everything: bool = False,
    depth: str = "heuristic",
    samples: int = 50,
    match_ids: Sequence[str] | None = None,
    progress: Progress | None = None,
) -> AnalysisOutcome:
    """Run the built-in analysis over an archive and store what it finds: what ``manillen analyze``
    does, and what the dashboard does after an upload or a recorded deal.

    :param everything: analyse every match again, not only the new (or shallower) ones.
    :param depth: ``rules``, ``heuristic`` (the default) or ``solver`` (:data:`ANALYSIS_DEPTHS`).
    :param samples: with the solver, layouts of the hidden cards solved per play and per call.
    :param match_ids: only these matches (still only the new ones unless ``everything``).
    :param progress: makes a progress bar from ``(total, label, minimum)``, or ``None`` for none.
    :raises ArchiveError: when the findings cannot be written.
    """
    ids = match_ids_to_analyse(store, everything=everything, depth=depth, match_ids=match_ids)
    outcome = AnalysisOutcome(matches=len(ids))
    solving = depth == "solver"
    if solving:
        total = store.query(
            "SELECT count(*) AS n FROM deals WHERE tricks > 0 AND list_contains(?, match_id)", [ids]
        )["n"][0]
        bar = progress(int(total), "solving", 1) if progress else None
    else:
        bar = progress(len(ids), "analysing", 50) if progress else None
    try:
        for chunk in _chunks(ids, SOLVER_CHUNK if solving else CHUNK):
            found: list[Finding] = []
            match_costs: dict[str, tuple[MatchResult, dict[int, list[PlayCost]]]] = {}
            for match_id, data in list(store.iter_records(match_ids=chunk)):
                try:
                    record = loads(data, source=f"archive match {match_id}")
                    result = replay(record, source=f"archive match {match_id}")
                except InvalidRecordError as error:
                    outcome.problems.append(f"match {match_id!r} no longer replays: {error}")
                    continue
                outcome.deals += len(result.deals)
                if solving:
                    findings, costs = _solve_match(result, record, samples, outcome, bar)
                    found.extend(findings)
                    match_costs[match_id] = (result, costs)
                else:
                    found.extend(analyse(result, record, strategy=depth != "rules"))
            if solving:  # costs first: a match is marked analysed only once they are in
                frames = [cost_frames(result, costs) for result, costs in match_costs.values()]
                frames = frames or [(pl.DataFrame(schema=COSTS_SCHEMA), pl.DataFrame(schema=VALUES_SCHEMA))]
                store.save_costs(
                    list(match_costs), pl.concat([f[0] for f in frames]), pl.concat([f[1] for f in frames])
                )
            store.save_findings(chunk, findings_frame(found), depth=depth)
            outcome.by_category.update(f.category.value for f in found)
            if bar is not None and not solving:
                bar.update(len(chunk))
    finally:
        if bar is not None:
            bar.render_finish()
    return outcome
