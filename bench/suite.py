"""The benchmark suite: every stage at every size, one table, and ``bench/results.json``.

Each (stage, size) runs in a fresh interpreter (:mod:`bench.worker`) so that the peak memory
reported is that stage's own. The input is a generated archive (club and novice players,
slips included) kept in ``bench/out/`` and made once per seed and size.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench import (
    analyze_bench,
    cluster_bench,
    make_timing,
    pages,
    record_bench,
    review_bench,
    solver_bench,
    startup,
    variants_bench,
)
from manillen_replay.players import GenerateOptions, iter_matches, parse_players
from manillen_replay.record import dumps

ROOT = Path(__file__).resolve().parent.parent
STAGES: tuple[tuple[str, str], ...] = (
    ("decode+validate", "json.loads"),
    ("replay", "trick walk"),
    ("import", "duckdb from arrow"),
    ("analyse", "replay"),
    ("solve", "replay"),
    ("dashboard", "-"),
)
"""Each stage and the floor it is compared with (bench/README.md explains them)."""
RECORD_STAGE = "record"
"""Taps on the Record page in Chromium (:mod:`bench.record_bench`): not sized in deals, its own table."""

DEFAULT_SIZES = (1_000, 10_000, 100_000)
SOLVE_MAX = 1_000
"""The solver takes tens of milliseconds a deal: larger sizes are skipped unless --solve-max says."""
BENCH_PLAYERS = "Anna:club,Bert:novice,Carla:club,Dirk:club,Els:novice,Frans:club,Griet:club,Hendrik:novice"
"""A mixed pool, default slip rates: the archive carries the mistakes the finder looks for."""


GENERATOR_SOURCES = ("players", "rules.py", "dealing.py", "record/model.py")
"""The code a generated archive depends on: a change to any of it makes the cached archive stale."""


def generator_fingerprint() -> str:
    """A short hash of the generator's code, part of a cached archive's name."""
    package = ROOT / "manillen_replay"
    digest = hashlib.sha256()
    for name in GENERATOR_SOURCES:
        source = package / name
        for path in sorted(source.rglob("*.py")) if source.is_dir() else [source]:
            digest.update(path.relative_to(package).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:10]


def ensure_archive(folder: Path, seed: int, deals: int) -> Path:
    """The generated archive of at least ``deals`` deals, made now unless already there.

    Next to it, ``.deals`` holds each line's number of deals so that workers can take a
    prefix of a given size without decoding. The name carries :func:`generator_fingerprint`:
    an archive made by an older generator (one that, say, wrote a score the rules now refuse)
    is removed and made again rather than measured.
    """
    fingerprint = generator_fingerprint()
    stem = f"archive-seed{seed}-{fingerprint}"
    for stale in folder.glob(f"archive-seed{seed}-*"):
        if not stale.name.startswith(f"{stem}-"):
            print(f"removing {stale} (made by an older generator)", file=sys.stderr)
            stale.unlink()
    # Any archive of the seed that is large enough will do: a smaller one is a prefix of it.
    made = []
    for existing in folder.glob(f"{stem}-*.jsonl"):
        size = existing.stem.rsplit("-", 1)[1]
        if size.isdigit() and int(size) >= deals and existing.with_suffix(".deals").exists():
            made.append((int(size), existing))
    if made:
        return min(made)[1]
    path = folder / f"{stem}-{deals}.jsonl"
    counts_path = path.with_suffix(".deals")
    folder.mkdir(parents=True, exist_ok=True)
    print(f"generating {deals:,} deals into {path} (once) ...", file=sys.stderr, flush=True)
    start = time.perf_counter()
    options = GenerateOptions(players=tuple(parse_players(BENCH_PLAYERS)), seed=seed)
    total = 0
    counts: list[str] = []
    partial = path.with_suffix(".partial")
    with partial.open("w", encoding="utf-8", newline="\n") as handle:
        for match in iter_matches(options):
            if total >= deals:
                break
            handle.write(dumps(match.record, pretty=False) + "\n")
            counts.append(str(match.deals))
            total += match.deals
    counts_path.write_text("\n".join(counts) + "\n")
    partial.replace(path)
    seconds = time.perf_counter() - start
    print(f"generated {total:,} deals in {seconds:.1f} s ({total / seconds:,.0f} deals/s)", file=sys.stderr)
    return path


def run_worker(stage: str, archive: Path, deals: int, repeat: int) -> dict[str, Any]:
    """One stage at one size in a fresh interpreter; a crash becomes a row, not the end of the run."""
    output, error = _run_module("bench.worker", stage, str(archive), str(deals), str(repeat))
    if error:
        return {"stage": stage, "deals": deals, "status": "failed", "reason": error}
    result: dict[str, Any] = json.loads(output)
    return result


def run_solver_latency(deals: int, view_deals: int, samples: int) -> list[dict[str, Any]]:
    """The solver's time per deal (median, 95th percentile) against issue 8's targets, measured in
    a fresh interpreter (:mod:`bench.solver_bench`)."""
    arguments = (str(deals), str(view_deals), "--samples", str(samples), "--json")
    output, error = _run_module("bench.solver_bench", *arguments)
    if error:
        return [{"stage": "solver", "deals": deals, "status": "failed", "reason": error}]
    rows: list[dict[str, Any]] = json.loads(output)
    return rows


def run_variants(deals: int) -> list[dict[str, Any]]:
    """Hindsight costs and the full analysis per deal in every other variant, the latter against
    the four-player game's (:mod:`bench.variants_bench`), in a fresh interpreter: its first deal
    compiles the variant search."""
    output, error = _run_module("bench.variants_bench", str(deals), "--json")
    if error:
        return [{"stage": "variants", "deals": deals, "status": "failed", "reason": error}]
    rows: list[dict[str, Any]] = json.loads(output)
    return rows


def run_cluster(deals: int, samples: int) -> list[dict[str, Any]]:
    """`analyze --depth solver` plain and on local clusters of 1 and 2 workers (bench/cluster_bench.py)."""
    output, error = _run_module("bench.cluster_bench", str(deals), "--samples", str(samples), "--json")
    if error:
        return [{"stage": "cluster", "status": "failed", "reason": error}]
    rows: list[dict[str, Any]] = json.loads(output)
    return rows


def run_analyze_bench(deals: int, repeat: int, samples: int) -> dict[str, Any]:
    """``analyze --depth solver`` end to end on demo deals (:mod:`bench.analyze_bench`), in a fresh
    interpreter."""
    arguments = ("--deals", str(deals), "--repeat", str(repeat), "--samples", str(samples), "--json")
    output, error = _run_module("bench.analyze_bench", *arguments)
    if error:
        return {"status": "failed", "reason": error}
    result: dict[str, Any] = json.loads(output)
    return result


def record_stage_only(stages: list[str]) -> bool:
    """Whether only the record stage runs (no archive to make, no table of sized stages)."""
    return set(stages) == {RECORD_STAGE}


def run_record_latency(passes: int) -> list[dict[str, Any]]:
    """The Record page's taps in Chromium against a plain st.button page, in a fresh interpreter
    (:mod:`bench.record_bench`)."""
    output, error = _run_module("bench.record_bench", str(passes), "--json")
    if error:
        return [{"stage": "record", "status": "failed", "reason": error}]
    rows: list[dict[str, Any]] = json.loads(output)
    return rows


def _run_module(module: str, *args: str) -> tuple[str, str]:
    """Run ``python -m module args`` from the repository root: its last line of output, or an error."""
    environment = dict(
        os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    )
    command = [sys.executable, "-m", module, *args]
    process = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=environment, check=False)
    lines = process.stdout.strip().splitlines()
    if process.returncode != 0 or not lines:
        return "", (process.stderr.strip().splitlines() or ["no output"])[-1]
    return lines[-1], ""


def rows_of(result: dict[str, Any], floor: str) -> list[dict[str, Any]]:
    """The table rows of one worker result (the dashboard gives one row per page)."""
    base = {
        "stage": result["stage"],
        "deals": result.get("deals"),
        "matches": result.get("matches"),
        "status": result["status"],
        "floor": floor,
    }
    if result["status"] != "ok":
        return [dict(base, reason=result.get("reason", ""))]
    memory = {"peak_rss_mb": result["peak_rss_mb"], "baseline_rss_mb": result["baseline_rss_mb"]}
    if "pages" in result:
        return [
            dict(
                base,
                stage=f"dashboard: {page}",
                floor="-",
                **memory,
                **timing,
                rate=None,
                floor_rate=None,
                ratio=None,
            )
            for page, timing in result["pages"].items()
        ]
    deals = result["deals"]
    rate = deals / result["seconds"] if result["seconds"] else None
    floor_rate = deals / result["floor_seconds"] if result["floor_seconds"] else None
    return [
        dict(
            base,
            seconds=result["seconds"],
            seconds_median=result["seconds_median"],
            rate=rate,
            floor_seconds=result["floor_seconds"],
            floor_rate=floor_rate,
            ratio=floor_rate / rate if rate and floor_rate else None,
            **memory,
        )
    ]


def format_table(rows: list[dict[str, Any]]) -> str:
    """The rows as a fixed-width text table."""
    header = ("stage", "deals", "time s", "deals/s", "floor", "floor deals/s", "ratio", "peak MB", "+MB")
    body: list[tuple[str, ...]] = []
    for row in rows:
        deals = f"{row['deals']:,}" if row.get("deals") is not None else "-"
        if row["status"] != "ok":
            body.append((row["stage"], deals, row["status"], "", row["floor"], "", "", "", ""))
            continue
        body.append(
            (
                row["stage"],
                deals,
                f"{row['seconds']:.3f}",
                _number(row.get("rate")),
                row["floor"],
                _number(row.get("floor_rate")),
                f"{row['ratio']:.1f}x" if row.get("ratio") else "-",
                f"{row['peak_rss_mb']:.0f}",
                f"{row['peak_rss_mb'] - row['baseline_rss_mb']:+.0f}",
            )
        )
    widths = [max(len(line[i]) for line in (header, *body)) for i in range(len(header))]
    left = {0, 4}

    def line(cells: tuple[str, ...]) -> str:
        return "  ".join(
            c.ljust(w) if i in left else c.rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        )

    out = [line(header), "  ".join("-" * w for w in widths)]
    out += [line(cells) for cells in body]
    notes = sorted(
        {f"{row['stage']}: {row['reason']}" for row in rows if row["status"] != "ok" and row.get("reason")}
    )
    return "\n".join([*out, "", *notes] if notes else out)


def _number(value: float | None) -> str:
    return f"{value:,.0f}" if value else "-"


def parse_arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench",
        description="Run every benchmark stage at every size and print one table (see bench/README.md).",
    )
    parser.add_argument(
        "--sizes",
        default=",".join(map(str, DEFAULT_SIZES)),
        help="deal counts, comma-separated (default %(default)s); e.g. 200 for a smoke run",
    )
    parser.add_argument(
        "--repeat", type=int, default=3, help="passes per stage and size; the best is reported"
    )
    parser.add_argument(
        "--stages",
        default=",".join([*(name for name, _ in STAGES), RECORD_STAGE]),
        help="stages to run, comma-separated (default: all)",
    )
    parser.add_argument(
        "--solve-max",
        type=int,
        default=SOLVE_MAX,
        help="the largest size the solve stage runs at, in one pass (default %(default)s)",
    )
    parser.add_argument(
        "--variant-deals",
        type=int,
        default=6,
        help="with the solve stage: deals per variant to time the other variants' hindsight costs on "
        "(0 skips it)",
    )
    parser.add_argument(
        "--solver-deals",
        type=int,
        default=200,
        help="with the solve stage: deals to time the solver's hindsight costs on, one by one, for the "
        "median and 95th percentile per deal (default %(default)s; 0 leaves the solver's latency out)",
    )
    parser.add_argument(
        "--view-deals",
        type=int,
        default=20,
        help="with the solve stage: deals to time view costs on (default %(default)s)",
    )
    parser.add_argument(
        "--analyze-deals",
        type=int,
        default=40,
        help="with the solve stage: demo deals to time `analyze --depth solver` on, end to end "
        "(default %(default)s; 0 leaves it out)",
    )
    parser.add_argument(
        "--analyze-repeat", type=int, default=3, help="passes of that end-to-end run (default %(default)s)"
    )
    parser.add_argument(
        "--samples", type=int, default=50, help="layouts per play for view costs (default %(default)s)"
    )
    parser.add_argument(
        "--startup-runs",
        type=int,
        default=15,
        help="runs of each `manillen` startup timed against `python -c pass` (0: none; default %(default)s)",
    )
    parser.add_argument(
        "--page-runs",
        type=int,
        default=3,
        help="new-tab visits per dashboard page in Chromium after the first, on the demo archive "
        "(0: no browser; default %(default)s)",
    )
    parser.add_argument(
        "--review-passes",
        type=int,
        default=3,
        help="deals recorded and 16-deal matches uploaded in Chromium, each timed until the "
        "dashboard's background review is ready (0: none; default %(default)s)",
    )
    parser.add_argument(
        "--cluster-deals",
        type=int,
        default=12,
        help="with the solve stage: deals to run `analyze --depth solver` on plain and with --cluster "
        "local:1 and local:2 (default %(default)s; 0 leaves the cluster out)",
    )
    parser.add_argument(
        "--record-deals",
        type=int,
        default=3,
        help="with the record stage: deals recorded by 32 taps each in Chromium (default %(default)s; "
        "0 leaves it out)",
    )
    parser.add_argument(
        "--make-runs",
        type=int,
        default=0,
        help="runs of `make check` and `make test` each, timed against issue 36's targets "
        "(bench/make_timing.py; default %(default)s: minutes a run)",
    )
    parser.add_argument("--seed", type=int, default=2026, help="seed of the generated archive")
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=ROOT / "bench" / "out",
        help="where the generated archive is kept (default bench/out)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=ROOT / "bench" / "results.json",
        help="where the results are written as JSON (default bench/results.json)",
    )
    arguments = parser.parse_args(argv)
    try:
        arguments.size_list = [
            int(size.replace("_", "")) for size in arguments.sizes.split(",") if size.strip()
        ]
    except ValueError:
        parser.error(f"--sizes takes whole numbers separated by commas, not {arguments.sizes!r}")
    if not arguments.size_list or min(arguments.size_list) < 1:
        parser.error("--sizes needs at least one positive number of deals")
    if arguments.repeat < 1:
        parser.error("--repeat is at least 1")
    known = [*dict(STAGES), RECORD_STAGE]
    arguments.stage_list = [name.strip() for name in arguments.stages.split(",") if name.strip()]
    unknown = [name for name in arguments.stage_list if name not in known]
    if unknown:
        parser.error(f"unknown stage {unknown[0]!r}; stages: {', '.join(known)}")
    return arguments


def main(argv: list[str] | None = None) -> int:
    """Run the suite; print the table on stdout, progress on stderr; write the JSON results."""
    arguments = parse_arguments(argv)
    only_record = record_stage_only(arguments.stage_list)
    archive = (
        None if only_record else ensure_archive(arguments.data_dir, arguments.seed, max(arguments.size_list))
    )
    floors = dict(STAGES)
    rows: list[dict[str, Any]] = []
    started = time.perf_counter()
    for stage in arguments.stage_list:
        if stage == RECORD_STAGE:
            continue
        for size in arguments.size_list:
            if stage == "solve" and size > arguments.solve_max:
                reason = (
                    f"over --solve-max {arguments.solve_max:,} deals (the solver takes tens of ms a deal)"
                )
                rows.append(
                    {
                        "stage": stage,
                        "deals": size,
                        "status": "skipped",
                        "floor": floors[stage],
                        "reason": reason,
                    }
                )
                continue
            print(f"{stage} at {size:,} deals ...", file=sys.stderr, flush=True)
            # The solver is slow and steady: one pass is enough, and three would take minutes.
            repeat = 1 if stage == "solve" else arguments.repeat
            assert archive is not None
            result = run_worker(stage, archive, size, repeat)
            rows.extend(rows_of(result, floors[stage]))
    if not only_record:
        print(format_table(rows))
    solver_rows: list[dict[str, Any]] = []
    if "solve" in arguments.stage_list and arguments.solver_deals > 0:
        print("solver latency ...", file=sys.stderr, flush=True)
        solver_rows = run_solver_latency(arguments.solver_deals, arguments.view_deals, arguments.samples)
        print()
        print(solver_bench.format_rows(solver_rows))
    variant_rows: list[dict[str, Any]] = []
    if "solve" in arguments.stage_list and arguments.variant_deals > 0:
        print("hindsight costs in the other variants ...", file=sys.stderr, flush=True)
        variant_rows = run_variants(arguments.variant_deals)
        print()
        print(variants_bench.format_rows(variant_rows) if "reason" not in variant_rows[0] else variant_rows)
    startup_rows: list[dict[str, Any]] = []
    if arguments.startup_runs > 0:
        print("startup of the manillen command ...", file=sys.stderr, flush=True)
        startup_rows = startup.run(repeat=arguments.startup_runs)
        print()
        print(startup.format_rows(startup_rows))
    page_loads: dict[str, Any] = {}
    if arguments.page_runs > 0:
        print("dashboard page loads in chromium ...", file=sys.stderr, flush=True)
        try:
            page_loads = pages.run(runs=arguments.page_runs, folder=arguments.data_dir)
        except Exception as error:  # a browser that cannot start must not lose the other figures
            page_loads = {"status": "failed", "reason": f"{type(error).__name__}: {error}"}
            print(f"\npage loads failed: {page_loads['reason']}")
        else:
            print()
            print(pages.format_result(page_loads))
    review: dict[str, Any] = {}
    if arguments.review_passes > 0 and arguments.page_runs > 0:
        print("the dashboard's background review in chromium ...", file=sys.stderr, flush=True)
        try:
            review = review_bench.run(passes=arguments.review_passes)
        except Exception as error:  # a browser that cannot start must not lose the other figures
            review = {"status": "failed", "reason": f"{type(error).__name__}: {error}"}
            print(f"\nreview failed: {review['reason']}")
        else:
            print()
            print(review_bench.format_result(review))
    cluster_rows: list[dict[str, Any]] = []
    if "solve" in arguments.stage_list and arguments.cluster_deals > 0:
        print("solver depth on a local cluster ...", file=sys.stderr, flush=True)
        cluster_rows = run_cluster(arguments.cluster_deals, arguments.samples)
        print()
        print(cluster_bench.format_rows(cluster_rows))
    analyze: dict[str, Any] = {}
    if "solve" in arguments.stage_list and arguments.analyze_deals > 0:
        print("analyze --depth solver, end to end ...", file=sys.stderr, flush=True)
        analyze = run_analyze_bench(arguments.analyze_deals, arguments.analyze_repeat, arguments.samples)
        print()
        print(analyze_bench.format_result(analyze) if "passes" in analyze else f"analyze: {analyze}")
    record_rows: list[dict[str, Any]] = []
    if RECORD_STAGE in arguments.stage_list and arguments.record_deals > 0:
        print("record page taps in chromium ...", file=sys.stderr, flush=True)
        record_rows = run_record_latency(arguments.record_deals)
        print()
        print(record_bench.format_rows(record_rows))
    make_rows: list[dict[str, Any]] = []
    if arguments.make_runs > 0:
        print("make check and make test ...", file=sys.stderr, flush=True)
        make_rows = make_timing.run(("check", "test"), arguments.make_runs)
        print()
        print(make_timing.format_rows(make_rows))
    results = {
        "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "machine": {
            "python": platform.python_version(),
            "platform": platform.platform(),
            "cpus": os.cpu_count(),
        },
        "seed": arguments.seed,
        "repeat": arguments.repeat,
        "sizes": arguments.size_list,
        "seconds_total": round(time.perf_counter() - started, 1),
        "memory": "peak_rss_mb is the worker process's ru_maxrss after the first pass; "
        "baseline_rss_mb is ru_maxrss once the input was read and the stage's libraries imported",
        "rows": rows,
        "solver": solver_rows,
        "startup": startup_rows,
        "page_loads": page_loads,
        "review": review,
        "cluster": cluster_rows,
        "analyze": analyze,
        "record": record_rows,
        "variants": variant_rows,
        "make": make_rows,
    }
    arguments.out.parent.mkdir(parents=True, exist_ok=True)
    arguments.out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(f"results written to {arguments.out}", file=sys.stderr)
    return 0
