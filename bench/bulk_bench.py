"""The bulk path at a million deals: each stage against its floor, memory, and the commands end to end.

``python -m bench.bulk_bench`` (also run by ``make bench``; ``--bulk-deals 0`` leaves it out of the
suite) takes the generated archive of ``--deals`` deals (default 1,000,000; made once, then kept
in the user's cache folder, never in git: :data:`CACHE`) and, at ``--baseline`` deals (default
100,000, the first matches of the same archive) and at ``--deals``:

- runs the suite's stages (``decode+validate``, ``replay``, ``import``, ``analyse``), one pass
  each in a fresh process (:mod:`bench.worker`), each against its floor measured in the same run;
- runs ``manillen validate --quiet``, ``manillen import --quiet`` and ``manillen analyze --depth
  heuristic --quiet`` from the shell, as a user runs them, and times each with its peak memory
  (the child process's ``ru_maxrss``).

It prints one table and writes ``bench/bulk.json``. The targets of issue 35 are checked on the
figures: each stage's ratio, the three commands together in at most three minutes at a million
deals, and the import's peak memory at a million deals within 1.3x of its peak at 100,000.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.suite import ensure_archive, run_worker

ROOT = Path(__file__).resolve().parent.parent
SEED = 2026
CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "manillen-replay" / "bench"
"""Where the million-deal archive is kept between runs (about half a gigabyte: outside git)."""

STAGE_TARGETS = {"decode+validate": 4.0, "replay": 2.5, "import": 2.5, "analyse": 1.5}
"""Issue 35's ratio to the floor, stage by stage (lower is better)."""
END_TO_END_TARGET = 180.0
"""Seconds for validate, import and the heuristic scan of a million deals together."""
MEMORY_TARGET = 1.3
"""The import's peak at a million deals over its peak at 100,000."""


def prefix_file(archive: Path, deals: int) -> tuple[Path, int]:
    """A file of the archive's first matches holding at least ``deals`` deals (made once, beside
    the archive), and its number of deals."""
    counts = [int(n) for n in archive.with_suffix(".deals").read_text().split()]
    path = archive.with_name(f"{archive.stem}-first-{deals}.jsonl")
    taken = total = 0
    for count in counts:
        if total >= deals:
            break
        taken += 1
        total += count
    if not path.exists():
        partial = path.with_suffix(".partial")
        with archive.open("rb") as source, partial.open("wb") as target:
            for _ in range(taken):
                target.write(source.readline())
        partial.replace(path)
    return path, total


def run_command(*args: str) -> tuple[float, float, int, str]:
    """``manillen ARGS`` in a fresh process: wall seconds, peak resident MB, exit code and the
    end of what it said on stderr (kept in a file: a pipe nobody reads would stall it)."""
    command = [str(Path(sys.executable).with_name("manillen")), *args]
    with tempfile.TemporaryFile() as said:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=said)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        said.seek(0)
        tail = said.read().decode("utf-8", "replace")[-400:]
    return seconds, usage.ru_maxrss / 1024, process.returncode, tail


def commands(path: Path, deals: int, folder: Path) -> list[dict[str, Any]]:
    """The three bulk commands on one file, in turn, as a user runs them."""
    db = folder / f"bulk-{deals}.duckdb"
    steps = (
        ("manillen validate", ("validate", "--quiet", str(path))),
        ("manillen import", ("import", str(path), "--db", str(db), "--quiet")),
        (
            "manillen analyze --depth heuristic",
            ("analyze", "--db", str(db), "--depth", "heuristic", "--quiet"),
        ),
    )
    rows = []
    for name, args in steps:
        seconds, peak, code, said = run_command(*args)
        rows.append(
            {
                "command": name,
                "deals": deals,
                "seconds": seconds,
                "rate": deals / seconds,
                "peak_rss_mb": round(peak, 1),
                "exit_code": code,
                "stderr_tail": said,
            }
        )
        print(
            f"  {name}: {seconds:.1f} s, {deals / seconds:,.0f} deals/s, {peak:,.0f} MB",
            file=sys.stderr,
            flush=True,
        )
    db.unlink(missing_ok=True)
    return rows


def load_average() -> float:
    return os.getloadavg()[0]


def run(deals: int, baseline: int, stages: list[str], cache: Path = CACHE) -> dict[str, Any]:
    """Every measurement of the bulk bench (see the module's docstring)."""
    archive = ensure_archive(cache, SEED, deals)
    result: dict[str, Any] = {
        "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "load_start": load_average(),
        "stages": [],
        "commands": [],
    }
    # A larger archive made before will do: each size is its first matches.
    held = sum(int(n) for n in archive.with_suffix(".deals").read_text().split())
    with tempfile.TemporaryDirectory(prefix="manillen-bulk-") as folder:
        for size in (baseline, deals):
            path, total = prefix_file(archive, size) if size < held else (archive, held)
            for stage in stages:
                print(f"{stage} at {size:,} deals ...", file=sys.stderr, flush=True)
                row = run_worker(stage, archive, size, 1)
                row.setdefault("deals", size)
                result["stages"].append(row)
            print(f"the commands at {total:,} deals ...", file=sys.stderr, flush=True)
            result["commands"].extend(commands(path, total, Path(folder)))
    result["load_end"] = load_average()
    result["verdicts"] = verdicts(result, deals, baseline)
    return result


def verdicts(result: dict[str, Any], deals: int, baseline: int) -> list[dict[str, Any]]:
    """Each target of issue 35 with the measured figure and whether it is met."""
    found: list[dict[str, Any]] = []
    for row in result["stages"]:
        if row.get("status") != "ok" or row["stage"] not in STAGE_TARGETS:
            continue
        ratio = row["seconds"] / row["floor_seconds"]
        target = STAGE_TARGETS[row["stage"]]
        found.append(
            {
                "target": f"{row['stage']} at {row['deals']:,} deals <= {target}x floor",
                "value": f"{ratio:.2f}x",
                "met": ratio <= target,
            }
        )
    large = [row for row in result["commands"] if row["deals"] >= deals]
    if large:
        total = sum(row["seconds"] for row in large)
        found.append(
            {
                "target": f"validate + import + scan of {large[0]['deals']:,} deals "
                f"<= {END_TO_END_TARGET:.0f} s",
                "value": f"{total:.0f} s",
                "met": total <= END_TO_END_TARGET,
            }
        )
    peaks = {
        row["deals"] >= deals: row["peak_rss_mb"]
        for row in result["commands"]
        if row["command"] == "manillen import"
    }
    if True in peaks and False in peaks:
        ratio = peaks[True] / peaks[False]
        found.append(
            {
                "target": f"import peak at {deals:,} <= {MEMORY_TARGET}x at {baseline:,}",
                "value": f"{ratio:.2f}x ({peaks[True]:.0f} MB / {peaks[False]:.0f} MB)",
                "met": ratio <= MEMORY_TARGET,
            }
        )
    return found


def format_result(result: dict[str, Any]) -> str:
    """The stages, the commands and the verdicts as plain-text tables."""
    lines = [f"{'stage':<18}{'deals':>10}{'deals/s':>10}{'floor deals/s':>15}{'ratio':>8}{'peak MB':>9}"]
    for row in result["stages"]:
        if row.get("status") != "ok":
            lines.append(
                f"{row['stage']:<18}{row['deals']:>10,}  "
                f"{row.get('status')}: {str(row.get('reason', ''))[:60]}"
            )
            continue
        rate = row["deals"] / row["seconds"]
        floor = row["deals"] / row["floor_seconds"]
        lines.append(
            f"{row['stage']:<18}{row['deals']:>10,}{rate:>10,.0f}{floor:>15,.0f}"
            f"{floor / rate:>7.2f}x{row['peak_rss_mb']:>9,.0f}"
        )
    lines += ["", f"{'command':<36}{'deals':>10}{'seconds':>9}{'deals/s':>10}{'peak MB':>9}"]
    for row in result["commands"]:
        lines.append(
            f"{row['command']:<36}{row['deals']:>10,}{row['seconds']:>9.1f}{row['rate']:>10,.0f}{row['peak_rss_mb']:>9,.0f}"
        )
    lines += ["", "issue 35's targets:"]
    for verdict in result["verdicts"]:
        lines.append(
            f"  {'met    ' if verdict['met'] else 'not met'}  {verdict['target']}: {verdict['value']}"
        )
    lines.append(
        f"load average: {result['load_start']:.1f} at the start, {result['load_end']:.1f} at the end"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bulk_bench", description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1_000_000, help="the large size (default 1,000,000)")
    parser.add_argument(
        "--baseline", type=int, default=100_000, help="the size it is compared with (default 100,000)"
    )
    parser.add_argument(
        "--stages", default=",".join(STAGE_TARGETS), help="worker stages to run (default: all four)"
    )
    parser.add_argument(
        "--cache", type=Path, default=CACHE, help="where the generated archive is kept (default: %(default)s)"
    )
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "bulk.json", help="where the figures go")
    arguments = parser.parse_args(argv)
    stages = [name.strip() for name in arguments.stages.split(",") if name.strip()]
    result = run(arguments.deals, arguments.baseline, stages, arguments.cache)
    arguments.out.write_text(json.dumps(result, indent=2) + "\n")
    print(format_result(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
