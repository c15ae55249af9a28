"""The other variants: hindsight costs and the full analysis, seconds a deal, per variant, against floors.

Run it alone (``python -m bench.variants_bench [DEALS]``) or from the bench suite. For each
variant the solver takes (:data:`manillen_replay.solver.variants.SOLVED_VARIANTS`), generated deals
(club players, who play a random legal card outside the four-player game) are replayed by the
engine and costed with :func:`manillen_replay.analysis.costs.variant_dd_costs`, what
``analyze --depth solver`` runs on such a deal (two threads on a big position's choices). Each
row gives the positions the search visited a deal (load-free), the wall-clock time and the
process's CPU time a deal. Two rows time one ``six_short`` deal in a fresh interpreter, import
included: ``variants.compile`` with an empty numba cache (the first run on a machine compiles
the search), ``variants.fresh_process`` with the cache filled. The floor of the per-deal rows
is the pure-Python reference workload of :mod:`bench.analyze_bench`, timed after each deal in
the same run (the engine's replay of the same deals, ``replay_ms``, is too short to time well).

The ``variants_full.*`` rows time what ``analyze --depth solver`` runs on a deal in full
(:func:`manillen_replay.analysis.deal_analysis.analyse_deal`: hindsight and view costs, the trump
and knock reviews, the findings) on the first deals of each variant, and on as many generated
four-player deals (``variants_full.four``, club players) in the same run: that row is the floor,
and each variant's ratio is its median against the four-player median.
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
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from bench.analyze_bench import reference_workload
from manillen_replay.analysis.costs import can_solve, dd_costs, variant_dd_costs
from manillen_replay.analysis.deal_analysis import analyse_deal
from manillen_replay.engine import DealResult, MatchResult, replay
from manillen_replay.players import GenerateOptions, iter_matches, parse_players
from manillen_replay.record import Record
from manillen_replay.rules import Rules
from manillen_replay.solver.variants import SOLVED_VARIANTS

ROOT = Path(__file__).resolve().parent.parent


def iter_variant_deals(variant: str, seed: int, replay_seconds: list[float]) -> Iterator[DealResult]:
    """Generated deals of ``variant`` the solver can take; ``replay_seconds`` gets each one's
    share of its match's replay time."""
    for _result, _record, deal in iter_variant_matches(variant, seed, replay_seconds):
        yield deal


def iter_variant_matches(
    variant: str, seed: int, replay_seconds: list[float], players: str = "club"
) -> Iterator[tuple[MatchResult, Record, DealResult]]:
    """:func:`iter_variant_deals` with each deal's replayed match and record (``four`` too).

    :param players: the players' profile (``club`` or ``novice``).
    """
    rules = Rules(variant=variant)
    names = ",".join(f"P{seat}:{players}" for seat in range(rules.shape.people))
    options = GenerateOptions(players=tuple(parse_players(names)), rules=rules, seed=seed)
    for generated in iter_matches(options):
        start = time.perf_counter()
        result = replay(generated.record)
        per_deal = (time.perf_counter() - start) / max(1, len(result.deals))
        for deal in result.deals:
            if can_solve(deal, result.rules) and len(deal.tricks) == rules.shape.tricks:
                replay_seconds.append(per_deal)
                yield result, generated.record, deal


def full_analysis_seconds(
    variant: str, deals: int, seed: int, samples: int
) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU seconds of :func:`analyse_deal` on each of the first ``deals`` deals."""
    times: list[float] = []
    cpu: list[float] = []
    for result, record, deal in iter_variant_matches(variant, seed, []):
        start, start_cpu = time.perf_counter(), time.process_time()
        analyse_deal(result, record, deal, samples=samples, seed=seed)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        if len(times) == deals:
            break
    return times, cpu


def full_rows(
    deals: int, seed: int = 1, *, variants: Sequence[str] = SOLVED_VARIANTS, samples: int = 50
) -> list[dict[str, Any]]:
    """One row per variant and one for ``four``: the full analysis's median seconds a deal, the
    four-player median as each variant's floor, and the ratio to it."""
    full_analysis_seconds("four", 1, seed, samples)  # loads the four-player search before the floor
    four, four_cpu = full_analysis_seconds("four", deals, seed, samples)
    floor, cpu_floor = statistics.median(four), statistics.median(four_cpu)
    rows = [_full_row("four", four, four_cpu, floor, cpu_floor, samples)]
    for variant in variants:
        times, cpu = full_analysis_seconds(variant, deals, seed, samples)
        rows.append(_full_row(variant, times, cpu, floor, cpu_floor, samples))
    return rows


def _full_row(
    variant: str, times: list[float], cpu: list[float], floor: float, cpu_floor: float, samples: int
) -> dict[str, Any]:
    """A full-analysis row; ``cpu_ratio`` compares the process's CPU time with the four-player
    game's, which a loaded machine (other processes taking the cores) disturbs less."""
    median = statistics.median(times)
    return {
        "stage": f"variants_full.{variant}",
        "deals": len(times),
        "samples": samples,
        "median_ms": round(median * 1000, 1),
        "max_ms": round(max(times) * 1000, 1),
        "cpu_ms": round(statistics.median(cpu) * 1000, 1),
        "floor": "four",
        "floor_ms": round(floor * 1000, 1),
        "ratio": round(median / floor, 2),
        "cpu_ratio": round(statistics.median(cpu) / cpu_floor, 2) if cpu_floor > 0 else None,
    }


FIRST_DEAL = """
import time
start = time.perf_counter()
from manillen_replay.engine import decode_and_replay
from manillen_replay.analysis.costs import dd_costs
result = decode_and_replay(open("data/samples/variant-six-short.json").read())
dd_costs(result.deals[0], result.rules)
print(time.perf_counter() - start)
"""


def first_deal_seconds(cache: str | None) -> float:
    """Seconds a fresh interpreter takes from import to the costs of one ``six_short`` deal: with
    ``cache`` an empty folder, what the first run on a machine waits for (compiling the search)."""
    env = dict(os.environ)
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = cache
    output = subprocess.run(
        [sys.executable, "-c", FIRST_DEAL], capture_output=True, text=True, check=True, env=env, cwd=ROOT
    )
    return float(output.stdout.strip())


def run(
    deals: int = 10,
    seed: int = 1,
    *,
    variants: Sequence[str] = SOLVED_VARIANTS,
    fresh: bool = True,
    full_deals: int = 0,
    samples: int = 50,
) -> list[dict[str, Any]]:
    """One row per variant: median and 95th percentile seconds a deal, the floor and the ratio.

    :param variants: the variants to time.
    :param fresh: also time one deal in fresh interpreters, with an empty cache and a filled one.
    :param full_deals: also time the full analysis on this many deals of each variant and of
        ``four`` (:func:`full_rows`; 0: not).
    :param samples: layouts per play and per call reviewed, at most, in the full analysis.
    """
    rows: list[dict[str, Any]] = []
    if fresh:
        with tempfile.TemporaryDirectory() as empty:
            compiling = first_deal_seconds(empty)
        loading = first_deal_seconds(None)
        rows += [
            {"stage": "variants.compile", "deals": 1, "median_ms": round(compiling * 1000, 1)},
            {"stage": "variants.fresh_process", "deals": 1, "median_ms": round(loading * 1000, 1)},
        ]
    # this process loads the compiled search before the clock starts
    dd_costs(next(iter_variant_deals("six_short", 99, [])), Rules(variant="six_short"))
    for variant in variants:
        replay_seconds: list[float] = []
        times: list[float] = []
        rules = Rules(variant=variant)
        references: list[float] = []
        positions: list[int] = []
        cpu: list[float] = []
        for deal in iter_variant_deals(variant, seed, replay_seconds):
            start, start_cpu = time.perf_counter(), time.process_time()
            variant_dd_costs(deal, rules, positions)
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
            start = time.perf_counter()
            reference_workload()
            references.append(time.perf_counter() - start)
            if len(times) == deals:
                break
        ordered = sorted(times)
        median = statistics.median(ordered)
        floor = statistics.median(references)
        rows.append(
            {
                "stage": f"variants.{variant}",
                "deals": len(times),
                "median_ms": round(median * 1000, 1),
                "p95_ms": round(ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))] * 1000, 1),
                "max_ms": round(ordered[-1] * 1000, 1),
                "cpu_ms": round(statistics.median(cpu) * 1000, 1),
                "positions": round(statistics.median(positions)),
                "floor": "reference",
                "floor_ms": round(floor * 1000, 1),
                "ratio": round(median / floor, 1),
                "replay_ms": round(statistics.median(replay_seconds[: len(times)]) * 1000, 3),
            }
        )
    if full_deals:
        rows += full_rows(full_deals, seed, variants=variants, samples=samples)
    return rows


def format_rows(rows: Sequence[dict[str, Any]]) -> str:
    """The rows as a fixed-width table."""
    columns = (
        "deals",
        "median ms",
        "p95 ms",
        "max ms",
        "cpu ms",
        "positions",
        "floor ms",
        "ratio",
        "cpu ratio",
    )
    lines = [f"{'stage':<26} " + " ".join(f"{name:>10}" for name in columns)]
    for row in rows:
        cpu_ratio = row.get("cpu_ratio")
        lines.append(
            f"{row['stage']:<26} {row['deals']:>10} {row['median_ms']:>10} {row.get('p95_ms', '-'):>10} "
            f"{row.get('max_ms', '-'):>10} {row.get('cpu_ms', '-'):>10} {row.get('positions', '-'):>10} "
            f"{row.get('floor_ms', '-'):>10} {str(row['ratio']) + 'x' if 'ratio' in row else '-':>10} "
            f"{'-' if cpu_ratio is None else str(cpu_ratio) + 'x':>10}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str]) -> None:
    """``python -m bench.variants_bench [DEALS] [--variants two_open] [--full-only] [--json]``."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.variants_bench",
        description="Time hindsight costs and the full analysis per deal in every variant the solver takes.",
    )
    parser.add_argument("deals", nargs="?", type=int, default=10, help="deals per variant (default 10)")
    parser.add_argument("--seed", type=int, default=1, help="the generator's seed")
    parser.add_argument(
        "--full-deals",
        type=int,
        default=2,
        help="deals per variant (and of four) to time the full analysis on (default 2; 0 skips it)",
    )
    parser.add_argument(
        "--samples", type=int, default=50, help="layouts per play in the full analysis (default 50)"
    )
    parser.add_argument(
        "--variants", default=",".join(SOLVED_VARIANTS), help="comma-separated variants (default: all)"
    )
    parser.add_argument(
        "--full-only", action="store_true", help="only the full analysis's rows (and their four-player floor)"
    )
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    arguments = parser.parse_args(argv)
    variants = arguments.variants.split(",")
    if arguments.full_only:
        rows = full_rows(arguments.full_deals, arguments.seed, variants=variants, samples=arguments.samples)
    else:
        rows = run(
            arguments.deals,
            arguments.seed,
            variants=variants,
            full_deals=arguments.full_deals,
            samples=arguments.samples,
        )
    print(json.dumps(rows) if arguments.json else format_rows(rows))


if __name__ == "__main__":
    main(sys.argv[1:])
