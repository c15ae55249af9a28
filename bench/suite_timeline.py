"""Where ``make test``'s two processes spend the clock: each test file's start and end on each.

``make test`` hands whole files to two pytest-xdist processes (``--dist loadfile``). The suite's
clock is the later process's end, so a process left without work while the other finishes a
long file is time lost; this shows whether that happens, and what handing out the longest files
first would have given with the same tests' times.

Record a run (one file per process, written when it ends), then read it::

    MANILLEN_TEST_TIMELINE=/tmp/timeline make test
    python -m bench.suite_timeline /tmp/timeline

Each row is a test: its file, start and end (seconds since the epoch) and the processor seconds
of its process and of the commands it ran and waited for. A file's processor seconds well under
its clock seconds are waits (a server starting, a browser, a pause), when the process leaves its
core idle.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ENVIRONMENT = "MANILLEN_TEST_TIMELINE"
"""Where to write the timeline: the path's prefix, one ``PREFIX.<process>.jsonl`` per process."""

LOW_WATER = 2
"""pytest-xdist gives a process its next file once 2 or fewer of its tests are left to run."""


def _processor_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


class Recorder:
    """A pytest plugin writing each test's row to ``PREFIX.<process>.jsonl`` at the session's end."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.rows: list[dict[str, Any]] = []

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Iterator[None]:
        start, used = time.time(), _processor_seconds()
        try:
            return (yield)
        finally:
            self.rows.append(
                {
                    "test": item.nodeid,
                    "start": start,
                    "end": time.time(),
                    "cpu": _processor_seconds() - used,
                }
            )

    def pytest_sessionfinish(self) -> None:
        if not self.rows:
            return  # the controlling process of an xdist run runs no test
        process = os.environ.get("PYTEST_XDIST_WORKER", "main")
        lines = "".join(json.dumps(row) + "\n" for row in self.rows)
        Path(f"{self.prefix}.{process}.jsonl").write_text(lines, encoding="utf-8")


@dataclass
class FileRun:
    process: str
    file: str
    start: float
    end: float
    cpu: float
    tests: list[float]
    """Each test's clock seconds, in the order run."""


def read(prefix: str) -> list[FileRun]:
    """Each file's run, in the order the files started, times from the first test's start."""
    runs: list[FileRun] = []
    for path in sorted(Path(prefix).parent.glob(Path(prefix).name + ".*.jsonl")):
        process = path.name[len(Path(prefix).name) + 1 : -len(".jsonl")]
        current: FileRun | None = None
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            file = row["test"].split("::")[0]
            if current is None or current.file != file:
                current = FileRun(process, file, row["start"], row["end"], 0.0, [])
                runs.append(current)
            current.end = row["end"]
            current.cpu += row["cpu"]
            current.tests.append(row["end"] - row["start"])
    if not runs:
        raise SystemExit(f"no timeline at {prefix}.*.jsonl: run the tests with {ENVIRONMENT}={prefix}")
    origin = min(run.start for run in runs)
    for run in runs:
        run.start -= origin
        run.end -= origin
    return sorted(runs, key=lambda run: run.start)


def simulate(files: Sequence[Sequence[float]], processes: int = 2) -> list[float]:
    """When each process would end if whole files (each a list of its tests' seconds) were handed
    out in this order as pytest-xdist's loadfile does: one file each to begin with, then the next
    to a process as soon as ``LOW_WATER`` or fewer of its tests are left (or it has none).

    A process is handed its second file at once when its first has two tests or fewer, so the
    long file here waits behind the short one while the other process runs out of work:

    >>> simulate([[1.0] * 4, [5.0], [10.0]])
    [4.0, 15.0]
    >>> simulate([[10.0], [5.0], [1.0] * 4, [2.0], [2.0]])
    [14.0, 9.0]
    """
    queue = [list(tests) for tests in files]
    pending: list[list[float]] = [[] for _ in range(processes)]
    clock = [0.0] * processes
    for index in range(processes):
        if queue:
            pending[index].extend(queue.pop(0))
    for index in range(processes):
        if queue and len(pending[index]) <= LOW_WATER:
            pending[index].extend(queue.pop(0))
    while any(pending):
        index = min((i for i in range(processes) if pending[i]), key=lambda i: clock[i] + pending[i][0])
        clock[index] += pending[index].pop(0)
        for other in range(processes):
            if queue and not pending[other]:  # idle until now, then handed the next file
                clock[other] = max(clock[other], clock[index])
                pending[other].extend(queue.pop(0))
        if queue and len(pending[index]) <= LOW_WATER:
            pending[index].extend(queue.pop(0))
    return clock


def report(runs: Sequence[FileRun], longest: int = 12) -> str:
    processes = sorted({run.process for run in runs})
    ends = {process: max(run.end for run in runs if run.process == process) for process in processes}
    clock = max(ends.values())
    busy = sum(sum(run.tests) for run in runs)
    lines = [
        f"{len(runs)} files on {len(processes)} processes; the last test ends at {clock:.0f} s",
        *(f"  {process} ends at {ends[process]:.0f} s" for process in processes),
        f"tests' clock seconds together {busy:.0f}: {busy / len(processes):.0f} s each if shared evenly",
        f"processor seconds {sum(run.cpu for run in runs):.0f}",
    ]
    first_free = min(ends.values())
    tail = [run for run in runs if run.end > first_free]
    lines.append(f"while a process had nothing left ({first_free:.0f} s to {clock:.0f} s), the other ran:")
    lines += [f"  {run.process} {run.file} {run.start:.0f}-{run.end:.0f} s" for run in tail]
    by_length = sorted(runs, key=lambda run: -sum(run.tests))
    ends_longest_first = simulate([run.tests for run in by_length], len(processes))
    lines.append(
        "the same files handed out longest first would end at "
        + ", ".join(f"{end:.0f} s" for end in ends_longest_first)
    )
    lines.append(f"the {longest} longest files (clock s, processor s, start s, process):")
    lines += [
        f"  {sum(run.tests):7.1f} {run.cpu:7.1f} {run.start:6.0f} {run.process} {run.file}"
        for run in by_length[:longest]
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("prefix", help=f"the path given as {ENVIRONMENT} when the tests ran")
    parser.add_argument("--longest", type=int, default=12, help="how many of the longest files to list")
    arguments = parser.parse_args(argv)
    print(report(read(arguments.prefix), arguments.longest))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
