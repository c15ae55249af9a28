"""How long the ``manillen`` command takes to answer, started from the shell as a user starts it.

Each command runs as a fresh process of the installed console script, ``--repeat`` times; the
floor is a bare ``python -c pass`` of the same interpreter, timed in the same run. Run alone with
``python -m bench.startup``; ``make bench`` prints its table after the main one.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
MANILLEN = Path(sys.executable).parent / "manillen"

COMMANDS: tuple[tuple[str, tuple[str, ...], float], ...] = (
    ("manillen --version", ("--version",), 0.3),
    ("manillen --help", ("--help",), 0.3),
    ("manillen report --help", ("report", "--help"), 0.3),
    ("manillen validate (one file)", ("validate", "data/samples/seed-trick.json"), 1.0),
    ("manillen sql (one query, an archive)", ("sql", "--db", "{archive}", "SELECT count(*) FROM deals"), 1.0),
)
"""What is timed, the arguments, and the target in seconds (issue 14). ``{archive}`` stands for
an archive of one sample match, imported before the timing."""


def _time_once(command: list[str]) -> tuple[float, float]:
    """Wall-clock seconds and peak resident MB of one run of ``command`` (from the child's rusage)."""
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited with {process.returncode}")
    return seconds, usage.ru_maxrss / 1024


def _measure(command: list[str], repeat: int) -> dict[str, float]:
    runs = [_time_once(command) for _ in range(repeat)]
    seconds = [s for s, _ in runs]
    return {
        "seconds": min(seconds),
        "seconds_median": statistics.median(seconds),
        "peak_rss_mb": max(mb for _, mb in runs),
    }


def run(repeat: int = 10) -> list[dict[str, Any]]:
    """One row per command: best and median seconds, the floor's, the ratio, peak MB, the target."""
    floor = _measure([sys.executable, "-c", "pass"], repeat)
    rows = []
    with tempfile.TemporaryDirectory(prefix="startup-") as folder:
        archive = str(Path(folder) / "club.duckdb")
        sample = ["import", "data/samples/seed-trick.json", "--db", archive]
        subprocess.run([str(MANILLEN), *sample], cwd=ROOT, capture_output=True, check=True)
        timed = [(name, [a.replace("{archive}", archive) for a in args], t) for name, args, t in COMMANDS]
        measured_rows = [(name, _measure([str(MANILLEN), *args], repeat), t) for name, args, t in timed]
    for name, measured, target in measured_rows:
        rows.append(
            {
                "stage": name,
                **measured,
                "floor": "python -c pass",
                "floor_seconds": floor["seconds"],
                "floor_seconds_median": floor["seconds_median"],
                "ratio": measured["seconds_median"] / floor["seconds_median"],
                "target_seconds": target,
                "meets_target": measured["seconds_median"] < target,
            }
        )
    return rows


def format_rows(rows: list[dict[str, Any]]) -> str:
    """The rows as a text table: median (best) seconds against the floor's, and the target."""
    header = (
        "startup vs python -c pass",
        "median s",
        "best s",
        "floor s",
        "ratio",
        "peak MB",
        "target s",
        "",
    )
    body = [
        (
            row["stage"],
            f"{row['seconds_median']:.3f}",
            f"{row['seconds']:.3f}",
            f"{row['floor_seconds_median']:.3f}",
            f"{row['ratio']:.1f}x",
            f"{row['peak_rss_mb']:.0f}",
            f"< {row['target_seconds']:g}",
            "ok" if row["meets_target"] else "MISSED",
        )
        for row in rows
    ]
    widths = [max(len(cells[i]) for cells in [header, *body]) for i in range(len(header))]
    return "\n".join(
        "  ".join(
            cell.ljust(w) if i == 0 else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(cells, widths, strict=True))
        )
        for cells in [header, *body]
    )


def main(argv: list[str] | None = None) -> int:
    """Print the startup table; ``--json`` prints the rows instead."""
    parser = argparse.ArgumentParser(prog="python -m bench.startup", description=__doc__)
    parser.add_argument("--repeat", type=int, default=10, help="runs of each command (default 10)")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    arguments = parser.parse_args(argv)
    rows = run(arguments.repeat)
    print(json.dumps(rows, indent=2) if arguments.json else format_rows(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
