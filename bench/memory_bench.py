"""Peak memory of ``manillen replay --json`` on a generated archive, against ``manillen validate``.

Run as ``python -m bench.memory_bench [--sizes 1000,10000]``. Each command runs in a child
process on the same JSON Lines file, its output thrown away; its peak resident memory is the
child's own (``os.wait4``). The floor is ``manillen validate --quiet`` of the same file: it reads,
decodes and replays every match as ``replay`` does, and keeps nothing. ``replay --json`` streams
(one match at a time), so its peak should stay near the floor's as the archive grows tenfold.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.suite import ROOT, ensure_archive
from bench.worker import read_prefix

COMMANDS = {
    "replay --json": ["replay", "--json"],
    "validate --quiet (floor)": ["validate", "--quiet"],
}


def peak_of(arguments: list[str]) -> tuple[float, float]:
    """Seconds and peak resident memory (MB) of one ``manillen`` command, output discarded."""
    command = [sys.executable, "-c", "from manillen_replay.cli import main; main()", *arguments]
    start = time.perf_counter()
    with open(os.devnull, "wb") as sink:
        process = subprocess.Popen(command, stdout=sink, stderr=sink, cwd=ROOT)
        _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise RuntimeError(f"{' '.join(arguments)} failed with exit status {status}")
    return seconds, usage.ru_maxrss / 1024


def measure(archive: Path, deals: int) -> list[dict[str, Any]]:
    """Both commands on the first ``deals`` deals of the archive."""
    lines, total = read_prefix(archive, deals)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "archive.jsonl")
        path.write_bytes(b"".join(lines))
        size_mb = path.stat().st_size / 2**20
        rows = []
        for name, arguments in COMMANDS.items():
            seconds, peak = peak_of([*arguments, str(path)])
            rows.append(
                {"command": name, "deals": total, "file_mb": size_mb, "seconds": seconds, "peak_mb": peak}
            )
    floor = rows[-1]["peak_mb"]
    for row in rows:
        row["ratio"] = row["peak_mb"] / floor
    return rows


def main(argv: list[str] | None = None) -> int:
    """Measure at each size; print a table, write ``bench/memory.json``."""
    parser = argparse.ArgumentParser(prog="python -m bench.memory_bench", description=__doc__)
    parser.add_argument("--sizes", default="1000,10000", help="deal counts, comma-separated")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--data-dir", type=Path, default=ROOT / "bench" / "out")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "memory.json")
    arguments = parser.parse_args(argv)
    sizes = [int(size) for size in arguments.sizes.split(",") if size.strip()]
    archive = ensure_archive(arguments.data_dir, arguments.seed, max(sizes))
    rows = [row for size in sizes for row in measure(archive, size)]
    print(f"{'command':<26}{'deals':>8}{'file MB':>9}{'time s':>8}{'peak MB':>9}{'ratio':>7}")
    for row in rows:
        print(
            f"{row['command']:<26}{row['deals']:>8,}{row['file_mb']:>9.1f}{row['seconds']:>8.1f}"
            f"{row['peak_mb']:>9.0f}{row['ratio']:>6.2f}x"
        )
    arguments.out.write_text(json.dumps({"rows": rows}, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
