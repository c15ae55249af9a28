"""What the user waits for: ``manillen analyze --depth solver`` end to end on demo deals.

A fixed slice of ``data/demo.jsonl`` (the first matches that hold at least ``--deals`` deals
the solver takes) is imported into a fresh archive (not timed), then analysed at depth
``solver`` the way the command does it (``store.analyse.analyse_archive``: replay, costs,
reviews, findings, storing), ``--repeat`` times, each pass into a fresh archive. Per deal:
wall-clock seconds, each part's seconds (:data:`PARTS`), and the deal's share of its match's
storing and of the rest (replay, built-in detectors, frames).

The floor is a pure-Python reference workload (:func:`reference_workload`, code of its own
that no change to the project makes faster or slower), timed in the same process between
the matches. Every time is also given as a ratio to it, which is what compares across runs
on a shared machine whose speed drifts.

Run alone: ``python -m bench.analyze_bench [--deals 40] [--repeat 3] [--samples 50] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "data" / "demo.jsonl"
PARTS = ("hindsight costs", "view costs", "trump review", "knock review", "storing", "rest")
"""Where a deal's time goes; ``rest`` is replay, built-in detectors and building the rows."""
TARGETS_S = {"deal": (1.0, 3.0), "hindsight costs": (0.008, None)}
"""Issue 16's targets in seconds: (median, 95th percentile)."""


def reference_workload() -> int:
    """A fixed pure-Python workload (about 25 ms here): small-int arithmetic, dicts, lists, calls.

    Like the replay and the layouts, it is interpreted Python; unlike them it never changes.
    """
    counts: dict[int, int] = {}
    total = 0
    for n in range(1, 6_000):
        key = (n * 2_654_435_761) & 1023
        counts[key] = counts.get(key, 0) + (n & 7)
        total += _collatz_steps(n & 255)
    return total + sum(sorted(counts.values())[:10])


def _collatz_steps(n: int) -> int:
    steps = 0
    while n > 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


def _reference_seconds(times: int = 3) -> list[float]:
    seconds = []
    for _ in range(times):
        start = time.perf_counter()
        reference_workload()
        seconds.append(time.perf_counter() - start)
    return seconds


def demo_slice(deals: int) -> tuple[list[str], int]:
    """The first lines of the demo archive that hold at least ``deals`` deals the solver takes."""
    from manillen_replay.analysis.costs import can_solve
    from manillen_replay.engine import replay
    from manillen_replay.record import loads

    lines: list[str] = []
    found = 0
    with DEMO.open(encoding="utf-8") as handle:
        for line in handle:
            if found >= deals:
                break
            result = replay(loads(line))
            found += sum(can_solve(deal, result.rules) for deal in result.deals)
            lines.append(line)
    return lines, found


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def one_pass(lines: Sequence[str], samples: int, folder: Path, number: int) -> dict[str, Any]:
    """Import the slice into a new archive, then analyse it at depth solver; times per deal."""
    from manillen_replay.analysis.deal_analysis import MatchSolved
    from manillen_replay.store import Store
    from manillen_replay.store.analyse import analyse_archive

    source = folder / f"slice-{number}.jsonl"
    source.write_text("".join(lines), encoding="utf-8")
    deals: list[dict[str, float]] = []
    references: list[float] = _reference_seconds()
    before = len(references)
    rss: list[float] = []
    clock = {"last": 0.0, "cpu": 0.0}

    def on_match(match: MatchSolved, storing: float) -> None:
        now = time.perf_counter()
        wall = now - clock["last"]
        spent = sum(d.wall for d in match.deals)
        count = max(1, len(match.deals))
        rest = max(0.0, wall - spent - storing) / count
        for analysed in match.deals:
            row = {part: analysed.seconds.get(part, 0.0) for part in PARTS[:4]}
            row.update(storing=storing / count, rest=rest)
            # the parts overlap (the call reviews run beside the view costs): the deal's own clock
            row["deal"] = analysed.wall + row["storing"] + rest
            row["nodes"] = analysed.nodes
            for part in PARTS[:4]:
                row[f"nodes {part}"] = analysed.part_nodes.get(part, 0)
            deals.append(row)
        rss.append(_rss_mb())
        references.extend(_reference_seconds())  # the floor, beside the work, never inside it
        clock["last"] = time.perf_counter()

    load = [os.getloadavg()[0]]
    with Store(folder / f"pass-{number}.duckdb") as store:
        store.import_paths([source])
        cpu_start = time.process_time()
        start = clock["last"] = time.perf_counter()
        outcome = analyse_archive(store, depth="solver", samples=samples, on_match=on_match)
        wall = time.perf_counter() - start - sum(references[before:])
        cpu = time.process_time() - cpu_start
    load.append(os.getloadavg()[0])
    if outcome.problems:
        raise RuntimeError("; ".join(outcome.problems))
    return {"deals": deals, "wall": wall, "cpu": cpu, "references": references, "rss": rss, "load": load}


def _p95(values: Sequence[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def run(deals: int = 40, repeat: int = 3, samples: int = 50) -> dict[str, Any]:
    """Time ``analyze --depth solver`` on the demo slice ``repeat`` times.

    :returns: the slice, each pass's figures and the summary rows (per part: median, p95,
        share of the time, and the median against the reference workload's).
    """
    from manillen_replay.rules import Rules
    from manillen_replay.solver import solve_position

    lines, found = demo_slice(deals)
    # load the compiled solver once, as any later process does in half a second
    solve_position((1 << 1, 1 << 2, 1 << 3, 1 << 4), (), 0, 0, Rules())
    passes = []
    with tempfile.TemporaryDirectory(prefix="analyze-bench-") as folder:
        for number in range(repeat):
            passes.append(one_pass(lines, samples, Path(folder), number))
    return {
        "matches": len(lines),
        "deals": found,
        "samples": samples,
        "passes": [_summary(p) for p in passes],
    }


def _summary(figures: dict[str, Any]) -> dict[str, Any]:
    deals = figures["deals"]
    reference = statistics.median(figures["references"])
    total = sum(d["deal"] for d in deals)
    rows = []
    for part in ("deal", *PARTS):
        values = [d[part] for d in deals]
        median = statistics.median(values)
        target = TARGETS_S.get(part, (None, None))
        counted = "nodes" if part == "deal" else f"nodes {part}"
        rows.append(
            {
                "part": part,
                "positions_median": (
                    statistics.median(d[counted] for d in deals) if counted in deals[0] else None
                ),
                "median_s": round(median, 4),
                "p95_s": round(_p95(values), 4),
                "share": round(sum(values) / total, 3) if total else None,
                "ratio": round(median / reference, 2),
                "target_median_s": target[0],
                "target_p95_s": target[1],
            }
        )
    return {
        "nodes_median": statistics.median(d["nodes"] for d in deals),
        "nodes_total": sum(d["nodes"] for d in deals),
        "wall_s": round(figures["wall"], 2),
        "per_deal_s": round(figures["wall"] / max(1, len(deals)), 3),
        "cores_used": round(figures["cpu"] / figures["wall"], 2) if figures["wall"] else None,
        "reference_s": round(reference, 4),
        "reference_spread": [round(min(figures["references"]), 4), round(max(figures["references"]), 4)],
        "rss_mb_after_first_match": round(figures["rss"][0], 1),
        "rss_mb_at_end": round(figures["rss"][-1], 1),
        "load_average": [round(value, 2) for value in figures.get("load", [])],
        "rows": rows,
    }


def format_result(result: dict[str, Any]) -> str:
    """Each pass as a table: per part the median and p95 per deal, share, ratio to the floor."""
    out = [
        f"analyze --depth solver on {result['deals']} deals of data/demo.jsonl "
        f"({result['matches']} matches, {result['samples']} layouts), {os.cpu_count()} cores; "
        "the call reviews run beside the view costs, so the parts' seconds overlap "
        "(shares add up to more than 100%); positions: median a deal"
    ]
    for number, figures in enumerate(result["passes"], start=1):
        out.append(
            f"pass {number}: {figures['wall_s']} s, {figures['per_deal_s']} s a deal, "
            f"{figures['cores_used']} cores busy; "
            f"floor (reference workload) {figures['reference_s'] * 1000:.1f} ms "
            f"({figures['reference_spread'][0] * 1000:.1f}-{figures['reference_spread'][1] * 1000:.1f}); "
            f"peak RSS {figures['rss_mb_after_first_match']} MB after the first match, "
            f"{figures['rss_mb_at_end']} MB at the end"
            + (
                f"; positions searched: {figures['nodes_median']:,.0f} a deal (median), "
                f"{figures['nodes_total']:,} in all"
                if "nodes_median" in figures
                else ""
            )
            + (
                "; load average (1 min) at start and end: " + ", ".join(map(str, figures["load_average"]))
                if figures.get("load_average")
                else ""
            )
        )
        out.append(
            f"  {'part':<16} {'median s':>9} {'p95 s':>8} {'share':>6} {'x floor':>8} {'target':>12} "
            f"{'positions':>11}"
        )
        for row in figures["rows"]:
            target = "" if row["target_median_s"] is None else f"<= {row['target_median_s']}"
            if row["target_p95_s"] is not None:
                target += f" / {row['target_p95_s']}"
            share = "" if row["share"] is None else f"{row['share']:.0%}"
            positions = row.get("positions_median")
            out.append(
                f"  {row['part']:<16} {row['median_s']:>9.4f} {row['p95_s']:>8.4f} {share:>6} "
                f"{row['ratio']:>7.2f}x {target:>12} {'' if positions is None else f'{positions:,.0f}':>11}"
            )
    return "\n".join(out)


def main(argv: Sequence[str]) -> None:
    """``python -m bench.analyze_bench [--deals N] [--repeat N] [--samples N] [--json]``."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.analyze_bench",
        description="Time `manillen analyze --depth solver` end to end on a slice of data/demo.jsonl.",
    )
    parser.add_argument("--deals", type=int, default=40, help="at least this many deals (default 40)")
    parser.add_argument("--repeat", type=int, default=3, help="passes, each into a new archive (default 3)")
    parser.add_argument("--samples", type=int, default=50, help="layouts per play and per call (default 50)")
    parser.add_argument("--json", action="store_true", help="print the result as one JSON line")
    arguments = parser.parse_args(argv)
    result = run(arguments.deals, arguments.repeat, arguments.samples)
    print(json.dumps(result) if arguments.json else format_result(result))


if __name__ == "__main__":
    main(sys.argv[1:])
