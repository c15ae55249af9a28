"""Solver benchmark: hindsight costs, view costs and the first call in a fresh process.

Run it alone (``python -m bench.solver_bench [DEALS] [VIEW_DEALS]``) or call :func:`run` from the
bench suite. Deals come from the generator (club and novice players), replayed by the engine.
Times are wall-clock medians and 95th percentiles per deal.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from typing import Any

from manillen_replay.analysis.costs import can_solve, dd_costs, view_costs
from manillen_replay.engine import DealResult, replay
from manillen_replay.players import GenerateOptions, iter_matches, parse_players
from manillen_replay.rules import Rules
from manillen_replay.solver.search import default_workers

PLAYERS = "Anna:club,Bert:novice,Carla:club,Dirk:club"
TARGETS_MS = {"dd_costs": 15.0, "view_costs": 2000.0, "first_call": 1000.0}
"""Issue 8's targets: hindsight costs of a deal, view costs (50 samples, both cores), a fresh start."""

FIRST_CALL = """
import time
start = time.perf_counter()
from manillen_replay.cards import CardSet
from manillen_replay.rules import Rules
from manillen_replay.solver import solve_position
hands = tuple(CardSet.parse(h).mask for h in ("AC KC 9H", "10C 8C 7H", "QC 7C AH", "JC 9C 10H"))
solve_position(hands, (), 0, 0, Rules())
print(time.perf_counter() - start)
"""


def iter_deals(
    seed: int = 1, replay_seconds: list[float] | None = None
) -> Iterator[tuple[DealResult, Rules]]:
    """Generated deals the solver can take, with their rules, endlessly.

    :param replay_seconds: gets, for each deal yielded, the seconds the engine took to replay it
        (its match's replay time shared over the match's deals): the floor of the timings.
    """
    options = GenerateOptions(players=tuple(parse_players(PLAYERS)), seed=seed)
    for generated in iter_matches(options):
        start = time.perf_counter()
        result = replay(generated.record)
        per_deal = (time.perf_counter() - start) / max(1, len(result.deals))
        for deal in result.deals:
            if can_solve(deal, result.rules) and len(deal.tricks) == 8:
                if replay_seconds is not None:
                    replay_seconds.append(per_deal)
                yield deal, result.rules


def _summary(
    stage: str, times: Sequence[float], deals: int, floor: Sequence[float] = (), **extra: Any
) -> dict[str, Any]:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    median = statistics.median(ordered)
    row = {
        "stage": f"solver.{stage}",
        "deals": deals,
        "median_ms": round(median * 1000, 2),
        "p95_ms": round(p95 * 1000, 2),
        "target_ms": TARGETS_MS[stage],
        **extra,
    }
    if floor:
        # The machine is shared and its speed drifts: the ratio to the replay of the same deals,
        # timed in the same run, is what compares across runs.
        floor_median = statistics.median(floor)
        row.update(
            floor="replay", floor_ms=round(floor_median * 1000, 3), ratio=round(median / floor_median, 1)
        )
    return row


def first_call_seconds() -> float:
    """Seconds from a fresh interpreter's import of the solver to its first answer."""
    output = subprocess.run([sys.executable, "-c", FIRST_CALL], capture_output=True, text=True, check=True)
    return float(output.stdout.strip())


def run(
    sizes: Sequence[int] = (200,), *, view_deals: int = 20, samples: int = 50, seed: int = 1
) -> list[dict[str, Any]]:
    """Time the solver; one row per measurement.

    :param sizes: how many deals to time hindsight costs on (one row per size).
    :param view_deals: how many deals to time view costs on (they take seconds each).
    :param samples: layouts per play for view costs.
    :returns: rows with ``stage``, ``deals``, ``median_ms``, ``p95_ms``, ``target_ms``.
    """
    first = [first_call_seconds() for _ in range(3)]
    rows = [_summary("first_call", first, 0, note="import + first solve in a fresh process, 3 runs")]
    replay_seconds: list[float] = []
    deals = iter_deals(seed, replay_seconds)
    # warm up in this process (loads the compiled code) before timing
    warm_deal, warm_rules = next(deals)
    dd_costs(warm_deal, warm_rules)
    for size in sizes:
        times = []
        replay_seconds.clear()
        for _ in range(size):
            deal, rules = next(deals)
            start = time.perf_counter()
            dd_costs(deal, rules)
            times.append(time.perf_counter() - start)
        rows.append(_summary("dd_costs", times, size, replay_seconds))
    workers = default_workers()
    times = []
    replay_seconds.clear()
    for _ in range(view_deals):
        deal, rules = next(deals)
        start = time.perf_counter()
        view_costs(deal, rules, samples=samples, workers=workers)
        times.append(time.perf_counter() - start)
    rows.append(_summary("view_costs", times, view_deals, replay_seconds, samples=samples, workers=workers))
    return rows


def format_rows(rows: Sequence[dict[str, Any]]) -> str:
    """The rows as a fixed-width table, with each median against its target."""
    columns = ("deals", "median ms", "p95 ms", "target ms", "vs target", "replay ms", "ratio")
    lines = [f"{'stage':<20} {columns[0]:>6} " + " ".join(f"{name:>10}" for name in columns[1:])]
    for row in rows:
        if "median_ms" not in row:
            lines.append(f"{row['stage']:<20} {row.get('status', '')}: {row.get('reason', '')}")
            continue
        share = row["median_ms"] / row["target_ms"]
        lines.append(
            f"{row['stage']:<20} {row['deals']:>6} {row['median_ms']:>10} "
            f"{row['p95_ms']:>10} {row['target_ms']:>10} {share:>9.2f}x "
            f"{row.get('floor_ms', '-'):>10} {str(row['ratio']) + 'x' if 'ratio' in row else '-':>10}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str]) -> None:
    """``python -m bench.solver_bench [DEALS] [VIEW_DEALS] [--samples N] [--json]``."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.solver_bench",
        description="Time the solver on generated deals: hindsight costs, view costs, a fresh start.",
    )
    parser.add_argument("deals", nargs="?", type=int, default=200, help="deals for hindsight costs")
    parser.add_argument("view_deals", nargs="?", type=int, default=20, help="deals for view costs")
    parser.add_argument("--samples", type=int, default=50, help="layouts per play for view costs")
    parser.add_argument("--json", action="store_true", help="print the rows as one JSON line")
    arguments = parser.parse_args(argv)
    rows = run((arguments.deals,), view_deals=arguments.view_deals, samples=arguments.samples)
    print(json.dumps(rows) if arguments.json else format_rows(rows))


if __name__ == "__main__":
    main(sys.argv[1:])
