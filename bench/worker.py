"""One stage at one size, in a fresh interpreter so that its peak memory is its own.

Run by the suite as ``python -m bench.worker STAGE ARCHIVE DEALS REPEAT``; prints one JSON
object as its last line of output. Times are wall-clock seconds (``time.perf_counter``) of the
work only: reading the archive into memory happens before the clock starts.
"""

from __future__ import annotations

import gc
import importlib
import itertools
import json
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from manillen_replay.cards import CARD_BY_TEXT, CARD_POINTS
from manillen_replay.engine import MatchResult, replay
from manillen_replay.record import Entry, Record, loads
from manillen_replay.rules import Rules, winning_position

Result = dict[str, Any]


def peak_rss_mb() -> float:
    """The process's peak resident memory so far (``ru_maxrss``, kilobytes on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def read_prefix(archive: Path, deals: int) -> tuple[list[bytes], int]:
    """The first lines of the archive that hold at least ``deals`` deals, and their deal count.

    The deal count of every line is in the sidecar file ``ARCHIVE.deals`` (one number a line)
    that the suite writes with the archive.
    """
    counts = [int(n) for n in archive.with_suffix(".deals").read_text().split()]
    lines: list[bytes] = []
    total = 0
    with archive.open("rb") as handle:
        for line, count in zip(handle, counts, strict=False):
            if total >= deals:
                break
            lines.append(line)
            total += count
    return lines, total


def trick_walk(record: Record) -> int:
    """The replay floor: every card looked up once, each trick's winner and points, nothing else."""
    total = 0
    for deal in record.deals:
        trump: int | None = None
        calls = deal.declarations if isinstance(deal.declarations, list) else []
        for call in calls:
            if call.call == "trump" and isinstance(call.suit, str):
                trump = "HDCS".index(call.suit)
        tricks = deal.tricks if isinstance(deal.tricks, list) else []
        for trick in tricks:
            cards = [CARD_BY_TEXT[text] for text in trick]
            total += winning_position(cards, trump) + sum(CARD_POINTS[card] for card in cards)
    return total


# --------------------------------------------------------------------------- stages
# Each stage yields, for every pass over the same lines, the stage's seconds and then the floor's.
# The peak memory is read as soon as the first stage time is in, before its floor runs.


def stage_decode(lines: list[bytes]) -> Iterator[float]:
    """decode+validate: what ``manillen validate`` does per record (the bulk path:
    ``bulk.replay_entries``); floor: ``json.loads``."""
    from manillen_replay.bulk import replay_entries

    entries = [Entry("bench.jsonl", number, line) for number, line in enumerate(lines, start=1)]
    while True:
        start = time.perf_counter()
        for _ in replay_entries(entries):
            pass
        yield time.perf_counter() - start
        start = time.perf_counter()
        for line in lines:
            json.loads(line)
        yield time.perf_counter() - start


def stage_replay(lines: list[bytes]) -> Iterator[float]:
    """replay: the bulk path (``bulk.replay_many``, a batch of records at a time, as validate,
    import and the scan replay) on records decoded beforehand; floor: the bare trick walk."""
    from manillen_replay.bulk import BATCH_RECORDS, collection_paused, replay_many

    clock = time.perf_counter
    while True:
        stage = floor = 0.0
        with collection_paused():  # as the bulk commands replay: collected once a batch
            for first in range(0, len(lines), BATCH_RECORDS):
                records = [loads(line) for line in lines[first : first + BATCH_RECORDS]]
                start = clock()
                replay_many(records)
                stage += clock() - start
                start = clock()
                for record in records:
                    trick_walk(record)
                floor += clock() - start
                del records
                start = clock()
                gc.collect(1)  # the batch's garbage, as the bulk commands collect it
                stage += clock() - start
        yield stage
        yield floor


def _after_replay(lines: list[bytes], work: Callable[[Record, MatchResult], object]) -> Iterator[float]:
    """Passes of ``work`` on matches replayed just before it; each pass yields the work's
    seconds, then the replay's (the floor)."""
    clock = time.perf_counter
    while True:
        stage = floor = 0.0
        for line in lines:
            record = loads(line)
            start = clock()
            result = replay(record)
            middle = clock()
            work(record, result)
            floor += middle - start
            stage += clock() - middle
        yield stage
        yield floor


def stage_analyse(lines: list[bytes]) -> Iterator[float]:
    """analyse: every built-in detector on replayed matches; floor: the replay they need."""
    from manillen_replay.analysis import analyse

    return _after_replay(lines, lambda record, result: analyse(result, record))


def stage_solve(lines: list[bytes]) -> Iterator[float]:
    """solve: the hindsight cost of every play (``solver.dd_costs``) of each deal the solver
    takes, on matches replayed beforehand; floor: the replay."""
    from manillen_replay.analysis.costs import can_solve, dd_costs

    def solve(_: Record, result: MatchResult) -> None:
        for deal in result.deals:
            if can_solve(deal, result.rules):
                dd_costs(deal, result.rules)

    return _after_replay(lines, solve)


def _warm_up_solver() -> None:
    """One solve before the clock and the baseline: the compiled search loads on first use."""
    from manillen_replay.cards import CardSet
    from manillen_replay.solver import solve_position

    hands = tuple(CardSet.parse(h).mask for h in ("AC KC 9H", "10C 8C 7H", "QC 7C AH", "JC 9C 10H"))
    solve_position(hands, (), 0, 0, Rules())


def _import(path: Path, lines: list[bytes]) -> None:
    """The lines into a new archive file as ``manillen import`` puts one file: one transaction,
    the command's default memory limit."""
    from manillen_replay.store import IMPORT_MEMORY_LIMIT, Store  # duckdb loads only where used

    entries = [Entry("bench.jsonl", number, line) for number, line in enumerate(lines, start=1)]
    with Store(path) as store:
        summary = store.import_entries(entries, memory_limit=IMPORT_MEMORY_LIMIT)
    if summary.refused:
        raise RuntimeError(f"the store refused {summary.refused} generated records: {summary.rejects[:1]}")


def _arrow_tables(path: Path) -> dict[str, Any]:
    """Every non-empty base table of an imported archive, as ready-made Arrow tables."""
    from manillen_replay.store import Store

    with Store(path, read_only=True) as store:
        names = store.query(
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = 'main' AND table_type = 'BASE TABLE'"
        )["table_name"].to_list()
        tables = {name: store.query(f'SELECT * FROM "{name}"').to_arrow() for name in names}
    return {name: table for name, table in tables.items() if table.num_rows}


def _floor_load(
    tables: dict[str, Any],
    path: Path,
    clock: Callable[[], float] = time.perf_counter,
    settings: dict[str, str] | None = None,
) -> float:
    """DuckDB loading the same rows from Arrow tables built beforehand, in one transaction
    (timed by ``clock``: the wall clock, or ``time.process_time`` for the processor time of
    every thread), with DuckDB's ``settings`` (``SET name = value``; its defaults without)."""
    import duckdb  # the floor bypasses the store on purpose: raw DuckDB is what we compare with

    connection = duckdb.connect(str(path))
    try:
        for index, (name, table) in enumerate(tables.items()):
            connection.register(f"arrow_{index}", table)
            connection.execute(f'CREATE TABLE "{name}" AS SELECT * FROM arrow_{index} LIMIT 0')
        for name, value in (settings or {}).items():
            connection.execute(f"SET {name} = {value}")
        start = clock()
        connection.execute("BEGIN TRANSACTION")
        for index, name in enumerate(tables):
            connection.execute(f'INSERT INTO "{name}" SELECT * FROM arrow_{index}')
        connection.execute("COMMIT")
        connection.execute("CHECKPOINT")
        return clock() - start
    finally:
        connection.close()


def stage_import(lines: list[bytes]) -> Iterator[float]:
    """import: Store.import_entries into a new archive file; floor: DuckDB loading Arrow tables."""

    with tempfile.TemporaryDirectory(prefix="manillen-bench-") as folder:
        tables: dict[str, Any] | None = None
        for attempt in itertools.count():
            path = Path(folder) / f"import-{attempt}.duckdb"
            start = time.perf_counter()
            _import(path, lines)
            yield time.perf_counter() - start
            if tables is None:
                tables = _arrow_tables(path)
            path.unlink()
            floor_path = Path(folder) / f"floor-{attempt}.duckdb"
            yield _floor_load(tables, floor_path)
            floor_path.unlink()


STAGE_RUNNERS: dict[str, Callable[[list[bytes]], Iterator[float]]] = {
    "decode+validate": stage_decode,
    "replay": stage_replay,
    "import": stage_import,
    "analyse": stage_analyse,
    "solve": stage_solve,
}


WARM_UP: dict[str, tuple[str, ...]] = {
    "decode+validate": ("manillen_replay.engine", "manillen_replay.bulk", "manillen_replay.solver.plays"),
    "replay": ("manillen_replay.engine", "manillen_replay.bulk", "manillen_replay.solver.plays"),
    "import": ("manillen_replay.store", "duckdb", "polars", "pyarrow"),
    "analyse": ("manillen_replay.analysis",),
    "solve": ("manillen_replay.solver",),
}
"""Libraries each stage loads, imported before the baseline so that +MB is the work's own."""


def run_stage(stage: str, lines: list[bytes], repeat: int) -> Result:
    """Time ``repeat`` passes of a stage; memory is read after the first."""
    for module in WARM_UP.get(stage, ()):
        importlib.import_module(module)
    if stage == "solve":
        _warm_up_solver()
    baseline = peak_rss_mb()
    passes = STAGE_RUNNERS[stage](lines)
    stage_times: list[float] = []
    floor_times: list[float] = []
    peak = baseline
    for index in range(repeat):
        stage_times.append(next(passes))
        if index == 0:
            peak = peak_rss_mb()
        floor_times.append(next(passes))
    return {
        "status": "ok",
        "seconds": min(stage_times),
        "seconds_median": statistics.median(stage_times),
        "floor_seconds": min(floor_times),
        "floor_seconds_median": statistics.median(floor_times),
        "baseline_rss_mb": round(baseline, 1),
        "peak_rss_mb": round(peak, 1),
    }


def run_dashboard(lines: list[bytes], repeat: int) -> Result:
    """The dashboard's heaviest pages rendered on an archive of these records, findings included.

    ``dashboards.bench.measure_render`` (the dashboard's own measurement, with Streamlit's
    AppTest) takes its repeats itself and returns seconds per page view.
    """
    from dashboards.bench import measure_render
    from manillen_replay.cli import cli  # the archive's findings, made as a user makes them

    with tempfile.TemporaryDirectory(prefix="manillen-bench-") as folder:
        path = Path(folder) / "dashboard.duckdb"
        _import(path, lines)
        # The fast scan at every size: left to choose, `analyze` would run the solver review on an
        # archive of up to 60 deals (the test's tiny one: half a minute of solving on one core)
        # and the fast scan on the bench's sizes, and the pages read the same findings either way.
        cli.main(["analyze", "--db", str(path), "--depth", "heuristic"], standalone_mode=False)
        baseline = peak_rss_mb()
        pages: dict[str, float] = measure_render(path, repeats=max(repeat, 3))
        return {
            "status": "ok",
            "pages": {
                name: {"seconds": seconds, "seconds_median": seconds} for name, seconds in pages.items()
            },
            "baseline_rss_mb": round(baseline, 1),
            "peak_rss_mb": round(peak_rss_mb(), 1),
        }


def main(argv: list[str]) -> int:
    """``STAGE ARCHIVE DEALS REPEAT``: print the stage's result as one JSON line."""
    stage, archive, deals, repeat = argv[0], Path(argv[1]), int(argv[2]), int(argv[3])
    lines, total = read_prefix(archive, deals)
    result = run_dashboard(lines, repeat) if stage == "dashboard" else run_stage(stage, lines, repeat)
    result.update(stage=stage, deals=total, matches=len(lines))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
