"""The bulk path against the engine record by record, in processor time, on a loaded machine.

``python -m bench.bulk_cpu [--deals 10000] [--passes 5]`` times, in one process and in turn
(best of ``--passes`` interleaved passes, ``time.process_time``, which other work on the machine
inflates far less than the clock):

- ``json.loads`` of every line (the floor of decode+validate);
- decode+validate by the bulk path (``bulk.replay_entries``, what ``manillen validate`` does)
  and by the engine line by line (``engine.decode_and_replay``, what it did before);
- the replay of records decoded beforehand by the bulk path (``bulk.replay_many``, 500 a
  batch, automatic collection paused and the young generations collected after each batch, as
  the commands do) and by the engine record by record;
- the trick walk of the same records (the replay's floor, ``bench.worker.trick_walk``);
- the heuristic scan's detectors (``analysis.analyse``, what ``manillen analyze --depth
  heuristic`` runs on each match) on each match just replayed by the engine (the bench's
  ``analyse`` stage, whose floor is the engine's replay), and on each batch just replayed by
  the bulk path (as the command replays and analyses: a deal's tricks are built from the batch's
  arrays when the detectors first read them, so building them is the scan's time; automatic
  collection paused and the young generations collected after each batch, timed with it),
  replays untimed;
- the import (``Store.import_entries`` into a new archive file, as ``manillen import`` puts one
  file: the import stage of ``bench.worker``) and its floor, DuckDB loading the same rows from
  Arrow tables built beforehand (the tables of the first import, read back), in one
  transaction with a checkpoint, with DuckDB's defaults and again as the import runs it (one
  thread, the import's memory limit: ``LIMITED_FLOOR``); all in processor time of every thread
  of the process.

It prints each figure and the seven ratios; bench/README.md quotes them.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import itertools
import json
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from bench.bulk_bench import CACHE, SEED
from bench.suite import ensure_archive
from bench.worker import _arrow_tables, _floor_load, _import, read_prefix, trick_walk
from manillen_replay.analysis import analyse
from manillen_replay.archive_defaults import IMPORT_MEMORY_LIMIT
from manillen_replay.bulk import BATCH_RECORDS, collection_paused, replay_entries, replay_many
from manillen_replay.engine import MatchResult, decode_and_replay, replay
from manillen_replay.errors import InvalidRecordError
from manillen_replay.record import Entry, Record, loads

LIMITED_FLOOR = "DuckDB from Arrow, limited"
"""DuckDB loading the same rows as the import does them: one thread and the import's memory
limit (``IMPORT_MEMORY_LIMIT``), past which the rows waiting for the commit go to temporary
files. Beside the plain floor (DuckDB's defaults: every core, most of the memory), it tells what
the limit itself costs DuckDB from what the import's own work costs."""


def measure(lines: list[bytes], passes: int, only: frozenset[str] = frozenset()) -> dict[str, float]:
    """The best processor seconds of each piece of work over ``passes`` interleaved passes
    (only the pieces named in ``only``, when given)."""
    with contextlib.ExitStack() as stack:
        return _measure(lines, passes, only, stack)


def _measure(
    lines: list[bytes], passes: int, only: frozenset[str], stack: contextlib.ExitStack[Any]
) -> dict[str, float]:
    entries = [Entry("bench.jsonl", number, line) for number, line in enumerate(lines, start=1)]
    replay_many([loads(line) for line in lines[:BATCH_RECORDS]])  # numba's cache loaded

    def batches() -> Iterator[list[Record]]:
        for first in range(0, len(lines), BATCH_RECORDS):
            yield [loads(line) for line in lines[first : first + BATCH_RECORDS]]

    def floor() -> float:
        start = time.process_time()
        for line in lines:
            json.loads(line)
        return time.process_time() - start

    def validate_bulk() -> float:
        start = time.process_time()
        for _ in replay_entries(entries):
            pass
        return time.process_time() - start

    def validate_engine() -> float:
        start = time.process_time()
        for number, line in enumerate(lines, start=1):
            with contextlib.suppress(InvalidRecordError):
                decode_and_replay(line, source="bench.jsonl", line=number)
        return time.process_time() - start

    def replay_bulk() -> float:
        spent = 0.0
        with collection_paused():
            for records in batches():
                start = time.process_time()
                replay_many(records)
                del records
                gc.collect(1)
                spent += time.process_time() - start
        return spent

    def replay_engine() -> float:
        spent = 0.0
        for records in batches():
            start = time.process_time()
            for record in records:
                with contextlib.suppress(InvalidRecordError):
                    replay(record)
            spent += time.process_time() - start
        return spent

    def walk() -> float:
        spent = 0.0
        for records in batches():
            start = time.process_time()
            for record in records:
                trick_walk(record)
            spent += time.process_time() - start
        return spent

    def scan_after_engine() -> float:
        spent = 0.0
        for records in batches():
            for record in records:
                try:
                    result = replay(record)
                except InvalidRecordError:
                    continue
                start = time.process_time()
                analyse(result, record)
                spent += time.process_time() - start
        return spent

    def scan_after_bulk() -> float:
        spent = 0.0
        for records in batches():
            replayed = replay_many(records)
            start = time.process_time()
            with collection_paused():  # as the command analyses a chunk
                for record, result in zip(records, replayed, strict=True):
                    if isinstance(result, MatchResult):
                        analyse(result, record)
            del replayed
            gc.collect(1)
            spent += time.process_time() - start
        return spent

    folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="manillen-bench-")))
    archives = itertools.count()
    tables: dict[str, Any] = {}

    def import_store() -> float:
        path = folder / f"import-{next(archives)}.duckdb"
        start = time.process_time()
        _import(path, lines)
        spent = time.process_time() - start
        if not tables:
            tables.update(_arrow_tables(path))
        path.unlink()
        return spent

    def import_floor() -> float:
        if not tables:
            import_store()
        path = folder / f"floor-{next(archives)}.duckdb"
        spent = _floor_load(tables, path, time.process_time)
        path.unlink()
        return spent

    def import_floor_limited() -> float:
        if not tables:
            import_store()
        path = folder / f"floor-{next(archives)}.duckdb"
        spill = folder / "spill"
        limited = {"threads": "1", "memory_limit": f"'{IMPORT_MEMORY_LIMIT}'", "temp_directory": f"'{spill}'"}
        spent = _floor_load(tables, path, time.process_time, limited)
        path.unlink()
        return spent

    work: dict[str, Callable[[], float]] = {
        "json.loads": floor,
        "decode+validate, bulk": validate_bulk,
        "decode+validate, engine": validate_engine,
        "replay, bulk": replay_bulk,
        "replay, engine": replay_engine,
        "trick walk": walk,
        "scan, engine": scan_after_engine,
        "scan, bulk": scan_after_bulk,
        "import": import_store,
        "DuckDB from Arrow": import_floor,
        LIMITED_FLOOR: import_floor_limited,
    }
    best: dict[str, float] = {}
    for _ in range(passes):
        for name, piece in work.items():
            if only and name not in only:
                continue
            best[name] = min(best.get(name, float("inf")), piece())
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bulk_cpu", description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10_000, help="deals to read (default 10,000)")
    parser.add_argument("--passes", type=int, default=5, help="interleaved passes (default 5)")
    parser.add_argument("--cache", type=Path, default=CACHE, help="where the generated archive is kept")
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="PIECE",
        help="time only this piece, as printed (say --only 'replay, bulk' --only 'scan, bulk'); repeatable",
    )
    arguments = parser.parse_args(argv)
    archive = ensure_archive(arguments.cache, SEED, arguments.deals)
    lines, total = read_prefix(archive, arguments.deals)
    best = measure(lines, arguments.passes, frozenset(arguments.only))
    print(f"{total:,} deals, processor seconds, best of {arguments.passes}:")
    for name, seconds in best.items():
        print(f"  {name:<26}{seconds:8.3f}")
    ratios = [
        *(
            (f"{stage}, {path}", floor)
            for stage, floor in (("decode+validate", "json.loads"), ("replay", "trick walk"))
            for path in ("bulk", "engine")
        ),
        ("scan, engine", "replay, engine"),
        ("scan, bulk", "replay, bulk"),
        ("import", "DuckDB from Arrow"),
        ("import", LIMITED_FLOOR),
    ]
    for piece, floor in ratios:
        if piece in best and floor in best:
            print(f"{piece} / {floor}: {best[piece] / best[floor]:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
