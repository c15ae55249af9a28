"""The compile wait: the first solver review after an install against the second (issue 30).

numba compiles the solver on its first use and caches it (``manillen_replay/solver/_jit.py``);
``make setup`` runs that first use (``make warm``), so no person waits for it. This times
``manillen findings data/samples/seed-trick.json`` (one deal, the solver review, 50 layouts)
from the shell, end to end, in a fresh cache folder: the first run (the compile wait a user
would see without the warm-up), then ``--repeat`` more (what every run after the warm-up
takes), against a floor measured in the same run: the same command at the heuristic depth (the
process, the imports and the replay, without the solver). Run with ``python -m bench.first_review``.
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
SAMPLE = "data/samples/seed-trick.json"


def _time_once(arguments: list[str], cache: str) -> tuple[float, float]:
    """Wall-clock and user+system CPU seconds of one run, from the shell's view (a fresh process)."""
    environment = {**os.environ, "NUMBA_CACHE_DIR": cache}
    started = time.perf_counter()
    process = subprocess.Popen(
        [str(MANILLEN), *arguments],
        cwd=ROOT,
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"manillen {' '.join(arguments)} failed")
    return wall, usage.ru_utime + usage.ru_stime


def run(repeat: int = 3, sample: str = SAMPLE) -> dict[str, Any]:
    """The first run (compiling), the later runs and the floor, each as wall and CPU seconds."""
    review = ["findings", sample, "--quiet"]
    with tempfile.TemporaryDirectory(prefix="numba-") as cache:
        first = _time_once(review, cache)
        later = [_time_once(review, cache) for _ in range(repeat)]
        floor = [_time_once([*review, "--depth", "heuristic"], cache) for _ in range(repeat)]
    later_wall = statistics.median(w for w, _ in later)
    later_cpu = statistics.median(c for _, c in later)
    floor_wall = statistics.median(w for w, _ in floor)
    return {
        "stage": "first solver review vs the next",
        "sample": sample,
        "first_seconds": first[0],
        "first_cpu_seconds": first[1],
        "later_seconds_median": later_wall,
        "later_seconds_best": min(w for w, _ in later),
        "later_cpu_seconds_median": later_cpu,
        "floor": "the same command at --depth heuristic",
        "floor_seconds_median": floor_wall,
        "compile_wait_seconds": first[0] - later_wall,
        "first_vs_later": first[0] / later_wall,
        "later_vs_floor": later_wall / floor_wall,
    }


def format_row(row: dict[str, Any]) -> str:
    return (
        f"{row['stage']} ({row['sample']}):\n"
        f"  first run (compiling) {row['first_seconds']:.1f} s wall, {row['first_cpu_seconds']:.1f} s CPU\n"
        f"  later runs            {row['later_seconds_median']:.1f} s wall median "
        f"(best {row['later_seconds_best']:.1f}), {row['later_cpu_seconds_median']:.1f} s CPU\n"
        f"  floor (heuristic)     {row['floor_seconds_median']:.2f} s wall median\n"
        f"  the compile wait      {row['compile_wait_seconds']:.1f} s: the first run takes "
        f"{row['first_vs_later']:.1f}x the next; the next {row['later_vs_floor']:.1f}x the floor"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--repeat", type=int, default=3, help="later runs and floor runs (default %(default)s)"
    )
    parser.add_argument("--json", action="store_true", help="print the row as JSON")
    arguments = parser.parse_args()
    row = run(arguments.repeat)
    print(json.dumps(row, indent=2) if arguments.json else format_row(row))


if __name__ == "__main__":
    main()
