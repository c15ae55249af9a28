"""The variants' trump review with and without pruning by probes: same verdicts, processor time.

For generated deals of each variant (club players, :func:`bench.variants_bench.iter_variant_matches`),
:func:`~manillen_replay.analysis.variant_calls.variant_trump_review` runs twice on the same
layouts: with the options an exact option beats by ``PRUNE_MARGIN`` on every layout of the early
look pruned by null-window probes (``prune=True``, what ``analyze --depth solver`` runs), and
without (``prune=False``, every option solved as before). A deal's row says whether the best
option and the loss of the call made are the same, which options were pruned, and the processor
seconds of each review; every pruned option's bounds are checked against the values the review
without pruning solved on the same layouts (a bound below a value stops the bench). The floor of
the CPU times is the review without pruning itself, timed in the same process on the same deal
just before, so the ratio is the cut.

Run alone: ``python -m bench.trump_prune_bench [--variants six_short,three] [--deals 25] [--seed 7]
[--json]``. ``two_open``'s reviews take a minute of CPU a deal (the two together).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections.abc import Iterator, Sequence
from typing import Any

from bench.variants_bench import iter_variant_matches
from manillen_replay.analysis.variant_calls import variant_trump_review
from manillen_replay.solver.variants import SOLVED_VARIANTS


def deal_rows(variant: str, deals: int, seed: int, samples: int = 50) -> Iterator[dict[str, Any]]:
    """One row per generated deal of ``variant`` whose trump call had a choice (up to ``deals``),
    each as soon as it is timed."""
    for number, (result, _record, deal) in enumerate(iter_variant_matches(variant, seed, [])):
        if number == deals:
            break
        start = time.process_time()
        full = variant_trump_review(deal, result.rules, samples=samples, seed=0, prune=False)
        full_cpu = time.process_time() - start
        start = time.process_time()
        pruned = variant_trump_review(deal, result.rules, samples=samples, seed=0)
        pruned_cpu = time.process_time() - start
        if full is None or pruned is None:
            continue
        bounds = [option for option in pruned.options if option.bound]
        for option in bounds:
            solved = full.option(option.name)
            assert solved is not None
            if any(s > b for s, b in zip(solved.each_score, option.each_score, strict=False)):
                raise AssertionError(f"{variant} deal {number}: {option.name}'s bound is below its value")
        yield {
            "variant": variant,
            "deal": number,
            "chosen": full.chosen,
            "best": full.best.name,
            "same_best": full.best.name == pruned.best.name,
            "loss": round(full.loss or 0.0, 3),
            "same_loss": full.loss == pruned.loss,
            "pruned": [option.name for option in bounds],
            "cpu_s": round(full_cpu, 3),
            "pruned_cpu_s": round(pruned_cpu, 3),
        }


def summary(variant: str, rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """A variant's deals in one row: agreement, options pruned, processor seconds and their ratio."""
    full = sum(row["cpu_s"] for row in rows)
    pruned = sum(row["pruned_cpu_s"] for row in rows)
    return {
        "variant": variant,
        "deals": len(rows),
        "same_best": sum(row["same_best"] for row in rows),
        "same_loss": sum(row["same_loss"] for row in rows),
        "deals_pruned": sum(bool(row["pruned"]) for row in rows),
        "options_pruned": sum(len(row["pruned"]) for row in rows),
        "cpu_s": round(full, 1),
        "pruned_cpu_s": round(pruned, 1),
        "cpu_ratio": round(pruned / full, 3) if full > 0 else None,
        "median_ratio": round(statistics.median(r["pruned_cpu_s"] / r["cpu_s"] for r in rows), 3)
        if rows
        else None,
        "load": round(os.getloadavg()[0], 1),
    }


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m bench.trump_prune_bench``."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.trump_prune_bench",
        description="The variants' trump review with and without pruning: agreement and CPU seconds.",
    )
    parser.add_argument("--variants", default=",".join(SOLVED_VARIANTS), help="comma-separated variants")
    parser.add_argument("--deals", type=int, default=25, help="generated deals per variant (default 25)")
    parser.add_argument("--seed", type=int, default=7, help="the generator's seed (default 7)")
    parser.add_argument("--json", action="store_true", help="print every deal's row as JSON lines")
    arguments = parser.parse_args(argv)
    for variant in arguments.variants.split(","):
        rows = []
        for row in deal_rows(variant, arguments.deals, arguments.seed):
            rows.append(row)
            if arguments.json:
                print(json.dumps(row), flush=True)
        print(json.dumps(summary(variant, rows)), flush=True)


if __name__ == "__main__":
    main()
