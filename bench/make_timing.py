"""``make check`` and ``make test`` timed as a developer runs them, several runs each.

Issue 36's targets: ``make check`` (the fast loop) in 90 seconds, ``make test`` (everything) in
8 minutes, on a quiet machine of two cores. Each run is one ``make TARGET`` from the repository
root in a fresh process; the load average before and after is kept beside it, since a shared
machine makes absolute times noisy. The floor, measured once per target in the same run, is
pytest collecting the same tests without running them (``--collect-only``): the imports and the
collection every run pays before its first test.

``python -m bench.make_timing`` (default: both targets, three runs each); ``--json`` prints the
rows as JSON on the last line.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TARGET_SECONDS = {"check": 90.0, "test": 480.0}
"""Issue 36's targets, on a quiet machine of two cores."""
SUMMARY = re.compile(r"\b\d+ (failed|passed|errors?|tests? collected)\b.*")
"""pytest's last line: ``1465 passed, 3 skipped in 301.2s`` (``1465 tests collected in 9.1s``,
``1 failed, 1464 passed in 301.2s``)."""
FAILED = re.compile(r"^(?:FAILED|ERROR) (\S+)", re.MULTILINE)
"""A line of pytest's short test summary (``-q`` prints it): ``FAILED tests/test_x.py::test_y - ...``."""


def load_average() -> float:
    """The one-minute load average (how busy the machine was)."""
    return os.getloadavg()[0]


def time_command(command: Sequence[str], cwd: Path = ROOT) -> dict[str, Any]:
    """Run ``command`` once: its wall-clock seconds, exit status, pytest summary and the load
    average before and after."""
    before = load_average()
    used_before = _children_cpu_seconds()
    start = time.perf_counter()
    process = subprocess.run(list(command), cwd=cwd, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    cpu_seconds = _children_cpu_seconds() - used_before
    found = [match.group(0) for match in SUMMARY.finditer(process.stdout)]
    lines = (process.stderr.strip() or process.stdout.strip()).splitlines()
    # which tests failed, from pytest's short summary: a run that fails once in many is told apart
    # by them, not by make's last line
    failures = FAILED.findall(process.stdout)
    return {
        "seconds": round(seconds, 2),
        "cpu_seconds": round(cpu_seconds, 2),
        "status": "ok" if process.returncode == 0 else "failed",
        "summary": found[-1].strip("= ") if found else "",
        "failures": failures,
        "reason": ""
        if process.returncode == 0
        else ("; ".join(failures) or (lines[-1] if lines else f"exit {process.returncode}")),
        "load_before": round(before, 2),
        "load_after": round(load_average(), 2),
    }


def _children_cpu_seconds() -> float:
    """Processor seconds (user and system) of every finished child process so far. Less noisy than
    the wall clock on a busy machine: on a quiet one of two cores, a run takes at least half of it.
    """
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def floor_command(target: str) -> list[str] | None:
    """The pytest command ``make TARGET`` runs (as ``make -n`` prints it), collecting only."""
    command = ["make", "--no-print-directory", "-n", target]
    planned = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False).stdout
    pytest_lines = [line for line in planned.splitlines() if "/pytest " in line]
    return ["sh", "-c", pytest_lines[-1] + " --collect-only"] if pytest_lines else None


def collect_floor(target: str) -> dict[str, Any]:
    """pytest collecting what ``make TARGET`` runs, without running it: the floor."""
    command = floor_command(target)
    if command is None:
        return {"seconds": None, "status": "failed", "reason": f"no pytest line in `make -n {target}`"}
    return time_command(command)


def run(targets: Sequence[str], runs: int) -> list[dict[str, Any]]:
    """Each target's floor, then ``runs`` runs of ``make TARGET``; one row per run."""
    rows: list[dict[str, Any]] = []
    for target in targets:
        print(f"make {target}: collecting (the floor) ...", file=sys.stderr, flush=True)
        floor = collect_floor(target)
        for number in range(1, runs + 1):
            print(f"make {target}: run {number} of {runs} ...", file=sys.stderr, flush=True)
            result = time_command(["make", "--no-print-directory", target])
            rows.append(
                dict(
                    result,
                    target=target,
                    run=number,
                    target_seconds=TARGET_SECONDS.get(target),
                    floor_seconds=floor["seconds"],
                )
            )
    return rows


def format_rows(rows: list[dict[str, Any]]) -> str:
    """The runs as a fixed-width table, each against its target and the collection floor."""
    header = (
        "make", "run", "time s", "cpu s", "target s", "within", "collect s", "x collect", "load", "tests",
    )  # fmt: skip
    body = []
    for row in rows:
        seconds, target, floor = row["seconds"], row.get("target_seconds"), row.get("floor_seconds")
        within = "-" if target is None else ("yes" if seconds <= target else "no")
        body.append(
            (
                row["target"],
                str(row["run"]),
                f"{seconds:.1f}",
                f"{row['cpu_seconds']:.1f}",
                f"{target:.0f}" if target else "-",
                within if row["status"] == "ok" else "failed",
                f"{floor:.1f}" if floor else "-",
                f"{seconds / floor:.1f}x" if floor else "-",
                f"{row['load_before']:.1f}-{row['load_after']:.1f}",
                "; ".join(part for part in (row["summary"], row["reason"]) if part),
            )
        )
    widths = [max(len(line[i]) for line in (header, *body)) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)) for line in body]
    title = "  ".join(cell.ljust(width) for cell, width in zip(header, widths, strict=True))
    return "\n".join([title, "  ".join("-" * width for width in widths), *lines])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.make_timing",
        description="Time `make check` and `make test`, several runs each.",
    )
    parser.add_argument("--targets", default="check,test", help="make targets, comma-separated")
    parser.add_argument("--runs", type=int, default=3, help="runs of each target (default %(default)s)")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON on the last line")
    arguments = parser.parse_args(argv)
    if arguments.runs < 1:
        parser.error("--runs is at least 1")
    targets = [name.strip() for name in arguments.targets.split(",") if name.strip()]
    rows = run(targets, arguments.runs)
    print(json.dumps(rows) if arguments.json else format_rows(rows))
    return 0 if all(row["status"] == "ok" for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
