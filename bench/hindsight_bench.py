"""Hindsight costs alone (``solver.dd_costs``) on the deals of :mod:`bench.analyze_bench`.

For one and two threads: milliseconds a deal (median, p95), the positions searched a deal (the
work done, whatever the load), and with two threads the busier thread's positions (what the user
waits for when both cores are free; it varies a little run to run), and the processor time a
deal (both threads' CPU seconds, which a loaded machine inflates far less than the clock). The
floor is the pure-Python reference workload of :mod:`bench.analyze_bench`, timed before and
after each pass in the same process; the load average is printed beside it, since the times of
a busy machine say little.

Run alone: ``python -m bench.hindsight_bench [--deals 40] [--workers 1 2] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections.abc import Sequence
from typing import Any

from bench.analyze_bench import _p95, _reference_seconds, demo_slice


def run(deals: int = 40, workers: Sequence[int] = (1, 2)) -> dict[str, Any]:
    """Time ``dd_costs`` of every deal of the demo slice, once per thread count in ``workers``.

    :returns: the deal count and one row per thread count.
    """
    from manillen_replay.analysis.costs import can_solve, dd_costs
    from manillen_replay.engine import replay
    from manillen_replay.record import loads
    from manillen_replay.solver.search import nodes_per_worker

    lines, _ = demo_slice(deals)
    solvable = []
    for line in lines:
        result = replay(loads(line))
        solvable += [(deal, result.rules) for deal in result.deals if can_solve(deal, result.rules)]
    dd_costs(*solvable[0])  # load the compiled search before the clock
    rows = []
    for threads in workers:
        references = _reference_seconds()
        seconds, positions, busier, cpu = [], [], [], []
        for deal, rules in solvable:
            before = nodes_per_worker()
            start, start_cpu = time.perf_counter(), time.process_time()
            dd_costs(deal, rules, workers=threads)
            seconds.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
            after = nodes_per_worker()
            spent = [a - b for a, b in zip(after, before + [0] * (len(after) - len(before)), strict=True)]
            positions.append(sum(spent))
            busier.append(max(spent))
        references += _reference_seconds()
        floor = statistics.median(references)
        rows.append(
            {
                "workers": threads,
                "median_ms": statistics.median(seconds) * 1e3,
                "p95_ms": _p95(seconds) * 1e3,
                "cpu_median_ms": statistics.median(cpu) * 1e3,
                "floor_ms": floor * 1e3,
                "ratio": statistics.median(seconds) / floor,
                "positions_median": statistics.median(positions),
                "positions_total": sum(positions),
                "busier_median": statistics.median(busier),
                "busier_total": sum(busier),
                "load": os.getloadavg()[0],
            }
        )
    return {"deals": len(solvable), "rows": rows}


def format_result(result: dict[str, Any]) -> str:
    """The result as a table, one line per thread count."""
    lines = [
        f"dd_costs on {result['deals']} deals of data/demo.jsonl (the analyze bench's slice)",
        "  threads  median ms   p95 ms  cpu ms  floor ms  x floor  positions a deal (in all)"
        "  busier thread (in all)  load",
    ]
    for row in result["rows"]:
        lines.append(
            f"  {row['workers']:>7}  {row['median_ms']:>9.2f}  {row['p95_ms']:>7.1f}"
            f"  {row['cpu_median_ms']:>6.2f}  {row['floor_ms']:>8.1f}"
            f"  {row['ratio']:>6.2f}x  {row['positions_median']:>10,.0f} ({row['positions_total']:>11,})"
            f"  {row['busier_median']:>9,.0f} ({row['busier_total']:>11,})  {row['load']:>4.1f}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m bench.hindsight_bench [--deals N] [--workers N ...] [--json]``."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.hindsight_bench", description="Time the hindsight costs alone on demo deals."
    )
    parser.add_argument("--deals", type=int, default=40, help="at least this many deals (default 40)")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="thread counts (default 1 2)")
    parser.add_argument("--json", action="store_true", help="print the result as one JSON line")
    arguments = parser.parse_args(argv)
    result = run(arguments.deals, arguments.workers)
    print(json.dumps(result) if arguments.json else format_result(result))


if __name__ == "__main__":
    main()
