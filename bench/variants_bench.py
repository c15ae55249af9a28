"""Hindsight costs in the other variants: seconds a deal, per variant, against the replay floor.

Run it alone (``python -m bench.variants_bench [DEALS]``) or from the bench suite. For each
variant the solver takes (:data:`manillen_replay.solver.variants.SOLVED_VARIANTS`), generated deals
(club players, who play a random legal card outside the four-player game) are replayed by the
engine and costed with :func:`manillen_replay.solver.dd_costs`, what ``analyze --depth solver``
runs on such a deal. The first deal of the run compiles the search (the compiled variant search
is not cached on disk); its time is reported on its own, the others are timed after it. The floor
is the engine's replay of the same deals, timed in the same run.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from typing import Any

from manillen_replay.engine import DealResult, replay
from manillen_replay.players import GenerateOptions, iter_matches, parse_players
from manillen_replay.rules import Rules
from manillen_replay.solver import can_solve, dd_costs
from manillen_replay.solver.variants import SOLVED_VARIANTS


def iter_variant_deals(variant: str, seed: int, replay_seconds: list[float]) -> Iterator[DealResult]:
    """Generated deals of ``variant`` the solver can take; ``replay_seconds`` gets each one's
    share of its match's replay time."""
    rules = Rules(variant=variant)
    names = ",".join(f"P{seat}:club" for seat in range(rules.shape.people))
    options = GenerateOptions(players=tuple(parse_players(names)), rules=rules, seed=seed)
    for generated in iter_matches(options):
        start = time.perf_counter()
        result = replay(generated.record)
        per_deal = (time.perf_counter() - start) / max(1, len(result.deals))
        for deal in result.deals:
            if can_solve(deal, result.rules) and len(deal.tricks) == rules.shape.tricks:
                replay_seconds.append(per_deal)
                yield deal


def compile_seconds() -> float:
    """Seconds the first variant deal of a process takes (it compiles the search)."""
    seconds: list[float] = []
    deal = next(iter_variant_deals("six_short", 99, seconds))
    start = time.perf_counter()
    dd_costs(deal, Rules(variant="six_short"))
    return time.perf_counter() - start


def run(deals: int = 10, seed: int = 1) -> list[dict[str, Any]]:
    """One row per variant: median and 95th percentile seconds a deal, the floor and the ratio."""
    rows: list[dict[str, Any]] = [
        {"stage": "variants.first_deal", "deals": 1, "median_ms": round(compile_seconds() * 1000, 1)}
    ]
    for variant in SOLVED_VARIANTS:
        replay_seconds: list[float] = []
        times: list[float] = []
        rules = Rules(variant=variant)
        for deal in iter_variant_deals(variant, seed, replay_seconds):
            start = time.perf_counter()
            dd_costs(deal, rules)
            times.append(time.perf_counter() - start)
            if len(times) == deals:
                break
        ordered = sorted(times)
        median = statistics.median(ordered)
        floor = statistics.median(replay_seconds[: len(times)])
        rows.append(
            {
                "stage": f"variants.{variant}",
                "deals": len(times),
                "median_ms": round(median * 1000, 1),
                "p95_ms": round(ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))] * 1000, 1),
                "max_ms": round(ordered[-1] * 1000, 1),
                "floor": "replay",
                "floor_ms": round(floor * 1000, 3),
                "ratio": round(median / floor),
            }
        )
    return rows


def format_rows(rows: Sequence[dict[str, Any]]) -> str:
    """The rows as a fixed-width table."""
    columns = ("deals", "median ms", "p95 ms", "max ms", "replay ms", "ratio")
    lines = [f"{'stage':<26} " + " ".join(f"{name:>10}" for name in columns)]
    for row in rows:
        lines.append(
            f"{row['stage']:<26} {row['deals']:>10} {row['median_ms']:>10} {row.get('p95_ms', '-'):>10} "
            f"{row.get('max_ms', '-'):>10} {row.get('floor_ms', '-'):>10} "
            f"{str(row['ratio']) + 'x' if 'ratio' in row else '-':>10}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str]) -> None:
    """``python -m bench.variants_bench [DEALS] [--json]``."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.variants_bench",
        description="Time hindsight costs per deal in every variant the solver takes.",
    )
    parser.add_argument("deals", nargs="?", type=int, default=10, help="deals per variant (default 10)")
    parser.add_argument("--seed", type=int, default=1, help="the generator's seed")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    arguments = parser.parse_args(argv)
    rows = run(arguments.deals, arguments.seed)
    print(json.dumps(rows) if arguments.json else format_rows(rows))


if __name__ == "__main__":
    main(sys.argv[1:])
