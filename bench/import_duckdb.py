"""DuckDB's part of the import under other settings: the loader's statements replayed on DuckDB alone.

``python -m bench.import_duckdb [--deals 100000] [--setting LIMIT[/ROW_GROUP]] ...`` imports the
first ``--deals`` deals of the generated archive once (``Store.import_entries``, the default
settings), keeping each statement the loader thread runs (an archive table and its Arrow rows)
in an Arrow stream file, then, for each ``--setting``, in a fresh process: makes a new archive
(the Store's schema), opens it with DuckDB alone, runs those statements in one transaction on one
thread as the import does (``threads = 1``, a temporary folder), commits and checkpoints. The
setting is DuckDB's memory limit (``none``: DuckDB's own) and, after a slash, the row group size
the archive is attached with (``ATTACH ... (ROW_GROUP_SIZE n)``; the Store opens with DuckDB's
default of 122,880). It prints, per setting, the processor seconds of the inserts, the commit and
the checkpoint, the system time, what waited in the temporary folder just before the commit, the
peak memory over the process's own before the first statement, the archive's size, and the
processor seconds of two reads of the archive made (:data:`SCANS`).

The main thread's Python (decoding, replay, rows) is left out: this is the loader's and the
commit's work, to tell which DuckDB settings pay at which size.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.bulk_bench import CACHE, SEED
from bench.suite import ensure_archive
from bench.worker import read_prefix

DEFAULT_SETTINGS = ("64MB", "none", "256MB", "64MB/16384", "64MB/32768")


def capture(lines: list[bytes], folder: Path) -> list[tuple[str, str]]:
    """Import the lines, keeping each of the loader's statements as ``(file, archive table)``."""
    import pyarrow as pa

    from manillen_replay.record import Entry
    from manillen_replay.store import Store

    statements: list[tuple[str, str]] = []

    class Capturing(Store):
        def _load(self, loads: list[tuple[str, Any]], replaced: list[str]) -> None:
            if replaced:
                raise RuntimeError("the generated archive replaces no match")
            for target, rows in loads:
                name = f"{len(statements):05d}-{target}.arrows"
                # A stream, not a file: joined batches carry a dictionary of their own each.
                with pa.OSFile(str(folder / name), "wb") as sink, pa.ipc.new_stream(sink, rows.schema) as out:
                    out.write_table(rows)
                statements.append((name, target))

    entries = [Entry("bench.jsonl", number, line) for number, line in enumerate(lines, start=1)]
    with Capturing(folder / "captured.duckdb") as store:
        store.import_entries(entries)
    (folder / "captured.duckdb").unlink()
    return statements


def replay(folder: Path, statements: list[tuple[str, str]], setting: str) -> dict[str, Any]:
    """Run the captured statements on a new archive under ``setting`` (in this process)."""
    import duckdb
    import pyarrow as pa

    from manillen_replay.store import Store

    limit, _, row_group = setting.partition("/")
    work = Path(tempfile.mkdtemp(prefix="replay-", dir=folder))
    path = work / "archive.duckdb"
    Store(path).close()  # the archive's tables, as an import finds them
    if row_group:
        connection = duckdb.connect()
        connection.execute(f"ATTACH '{path}' AS archive (ROW_GROUP_SIZE {int(row_group)})")
        connection.execute("USE archive")
    else:
        connection = duckdb.connect(str(path))
    connection.execute("SET threads = 1")
    if limit != "none":
        connection.execute(f"SET memory_limit = '{limit}'")
        connection.execute(f"SET temp_directory = '{work / 'spill'}'")
    baseline = _high_water_mb()
    before = resource.getrusage(resource.RUSAGE_SELF)
    inserting = 0.0
    connection.execute("BEGIN TRANSACTION")
    for name, target in statements:
        with pa.OSFile(str(folder / name)) as source:
            rows = pa.ipc.open_stream(source).read_all()
        start = time.process_time()
        connection.from_arrow(rows).insert_into(target)
        inserting += time.process_time() - start
        del rows
    spilled = sum(f.stat().st_size for f in (work / "spill").rglob("*") if f.is_file())
    start = time.process_time()
    connection.execute("COMMIT")
    committing = time.process_time() - start
    start = time.process_time()
    connection.execute("CHECKPOINT")
    checkpointing = time.process_time() - start
    after = resource.getrusage(resource.RUSAGE_SELF)
    stored = {
        target: connection.execute(f'SELECT count(*) FROM "{target}"').fetchall()[0][0]
        for target in sorted({target for _, target in statements})
    }
    connection.close()
    size = path.stat().st_size
    scans = {name: _scan_seconds(path, sql) for name, sql in SCANS.items()}
    return {
        "setting": setting,
        "insert_seconds": inserting,
        "commit_seconds": committing,
        "checkpoint_seconds": checkpointing,
        "system_seconds": after.ru_stime - before.ru_stime,
        "spilled_mb": spilled / 1e6,
        "peak_mb": _high_water_mb() - baseline,
        "file_mb": size / 1e6,
        "load": os.getloadavg()[0],
        "rows": stored,
        **scans,
    }


SCANS = {
    "group_by_seconds": "SELECT player, count(*), avg(points), count_if(is_trump) FROM plays GROUP BY player",
    "records_seconds": "SELECT sum(length(record)) FROM matches",
}
"""Two reads of the archive made, in a fresh read-only connection with DuckDB's default threads:
a GROUP BY over every play (as a ``manillen sql`` query), and every record's text (what
``manillen analyze`` reads)."""


def _high_water_mb() -> float:
    """This process's peak resident memory so far (Linux's ``VmHWM``): not ``ru_maxrss``, which a
    process started by another keeps from its parent (the parent here held the records)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM in /proc/self/status (this bench reads Linux's figures)")


def _scan_seconds(path: Path, sql: str) -> float:
    """The best processor seconds of three runs of the query on the archive at ``path``."""
    import duckdb

    connection = duckdb.connect(str(path), read_only=True)
    try:
        best = float("inf")
        for _ in range(3):
            start = time.process_time()
            connection.execute(sql).fetchall()
            best = min(best, time.process_time() - start)
        return best
    finally:
        connection.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.import_duckdb", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--deals", type=int, default=100_000, help="deals to import (default 100,000)")
    parser.add_argument(
        "--setting",
        action="append",
        default=[],
        metavar="LIMIT[/ROW_GROUP]",
        help=f"a memory limit (or none), a row group size; repeated (default {' '.join(DEFAULT_SETTINGS)})",
    )
    parser.add_argument("--cache", type=Path, default=CACHE, help="where the generated archive is kept")
    parser.add_argument("--replay", nargs=2, metavar=("FOLDER", "SETTING"), help=argparse.SUPPRESS)
    arguments = parser.parse_args(argv)
    if arguments.replay:  # one setting, in the fresh process the parent started
        folder = Path(arguments.replay[0])
        statements = [tuple(pair) for pair in json.loads((folder / "statements.json").read_text())]
        print(json.dumps(replay(folder, statements, arguments.replay[1])))  # type: ignore[arg-type]
        return 0
    archive = ensure_archive(arguments.cache, SEED, arguments.deals)
    lines, total = read_prefix(archive, arguments.deals)
    with tempfile.TemporaryDirectory(prefix="manillen-bench-") as name:
        folder = Path(name)
        statements = capture(lines, folder)
        del lines
        (folder / "statements.json").write_text(json.dumps(statements))
        print(f"{total:,} deals, {len(statements)} statements; processor seconds:")
        print(
            f"{'setting':<14}{'insert':>8}{'commit':>8}{'ckpt':>7}{'total':>8}{'system':>8}{'spilled MB':>11}"
            f"{'+peak MB':>9}{'file MB':>8}{'group by':>9}{'records':>8}{'load':>6}"
        )
        for setting in arguments.setting or DEFAULT_SETTINGS:
            said = subprocess.run(
                [sys.executable, "-m", "bench.import_duckdb", "--replay", str(folder), setting],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            row = json.loads(said.splitlines()[-1])
            whole = row["insert_seconds"] + row["commit_seconds"] + row["checkpoint_seconds"]
            print(
                f"{setting:<14}{row['insert_seconds']:>8.2f}{row['commit_seconds']:>8.2f}"
                f"{row['checkpoint_seconds']:>7.2f}{whole:>8.2f}{row['system_seconds']:>8.1f}"
                f"{row['spilled_mb']:>11.0f}{row['peak_mb']:>9.0f}{row['file_mb']:>8.0f}"
                f"{row['group_by_seconds']:>9.3f}{row['records_seconds']:>8.3f}{row['load']:>6.1f}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
