"""The dashboard's SQL console: each query in a worker process, on a snapshot of the archive.

A query runs in one of a few warm worker processes (pebble's :class:`~pebble.ProcessPool`), which
is ended by force at the time limit and replaced: DuckDB ignores an interrupt while it folds a
constant (``length(repeat(repeat('x', 100000), 30000))`` took 64 s under a 30-second limit), and
only ending its process stops it. The worker opens a private copy of the archive file, made once
per version of the archive, so a query never holds the archive's own file: a save (an upload, a
comment) is never held up by a query, and a query may show the archive as it was a moment before
a save in progress.
"""

from __future__ import annotations

import atexit
import concurrent.futures
import io
import multiprocessing
import os
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pebble
import polars as pl

from ..archive_defaults import QUERY_MEMORY_LIMIT
from .console import QueryTimeoutError, query_file, reason_words, timeout_message
from .errors import QueryError

WORKERS = 2
"""Worker processes: queries beyond this many wait for a free one (their time starts then)."""
MEMORY_MARGIN = 256 * 10**6
"""What a worker may hold beyond the query's memory limit before it is ended: DuckDB keeps its own
buffers within the limit, but a constant it folds (``repeat(...)``) and the rows handed over are
outside them (a security review's query held 5.9 GB under a 2 GB limit)."""
MEMORY_EXIT = 86
"""The exit code of a worker ended for holding more than its query may."""
WAIT_NOTICE = 0.5
"""Seconds a query waits for a worker before the person is told it waits (``on_wait``)."""
WATCH_SECONDS = 0.02
"""How often a worker looks at its own memory while a query runs."""


@dataclass
class _Snapshot:
    version: int
    path: Path
    users: int = 0
    retired: bool = False


def resident_bytes() -> int | None:
    """This process's resident memory, read from Linux's ``/proc`` (``None`` elsewhere)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


def query_watched(path: str, sql: str, *, allowed_bytes: int, **options: Any) -> bytes:
    """:func:`~.console.query_file` in a worker that ends itself (:data:`MEMORY_EXIT`) once it
    holds ``allowed_bytes`` more than before the query: the hard limit DuckDB's own is not. Where
    ``/proc`` cannot tell the memory held, the query runs under DuckDB's limit alone."""
    before = resident_bytes()
    if before is None:
        return query_file(path, sql, **options)
    done = threading.Event()

    def watch() -> None:
        while not done.wait(WATCH_SECONDS):
            held = resident_bytes()
            if held is not None and held - before > allowed_bytes:
                os._exit(MEMORY_EXIT)  # the pool starts another worker; nothing here is worth keeping

    threading.Thread(target=watch, name="manillen-memory-watch", daemon=True).start()
    try:
        return query_file(path, sql, **options)
    finally:
        done.set()


def _warm() -> None:
    """A new worker's start: the Store, DuckDB and polars loaded before its first query."""
    from . import core  # noqa: F401


class ConsolePool:
    """Worker processes for user queries, and the snapshots of archives they query.

    Thread-safe: the dashboard's sessions share one. Snapshots live in a temporary folder of
    the pool's own, removed by :meth:`close` (also at exit); a snapshot is removed once a newer
    one of the same archive exists and no query uses it.
    """

    def __init__(self, *, workers: int = WORKERS) -> None:
        self._workers = workers
        self._pool: pebble.ProcessPool | None = None
        self._lock = threading.Lock()
        self._folder: Path | None = None
        self._snapshots: dict[str, _Snapshot] = {}
        atexit.register(self.close)

    @contextmanager
    def snapshot(self, source: str, version: int, copy: Callable[[Path], None]) -> Iterator[Path]:
        """A private copy of the archive ``source`` at ``version``, made by ``copy(target)`` (which
        writes the file ``target``, and its ``.wal`` beside it if it has one) when there is none of
        this version yet; kept while the ``with`` block runs.
        """
        with self._lock:
            current = self._snapshots.get(source)
            if current is None or current.version != version:
                if self._folder is None:
                    self._folder = Path(tempfile.mkdtemp(prefix="manillen-console-"))
                folder = Path(tempfile.mkdtemp(prefix=f"v{version}-", dir=self._folder))
                try:
                    copy(folder / Path(source).name)
                except BaseException:
                    shutil.rmtree(folder, ignore_errors=True)
                    raise
                if current is not None:
                    current.retired = True
                    _tidy(current)
                current = self._snapshots[source] = _Snapshot(version, folder / Path(source).name)
            current.users += 1
        try:
            yield current.path
        finally:
            with self._lock:
                current.users -= 1
                _tidy(current)

    def query(
        self,
        path: Path | str,
        sql: str,
        *,
        timeout: float | None,
        max_rows: int | None = None,
        memory_limit: str = QUERY_MEMORY_LIMIT,
        max_bytes: int | None = None,
        on_wait: Callable[[], None] | None = None,
    ) -> pl.DataFrame:
        """A user query on the archive file at ``path`` (a snapshot), in a worker process.

        :param timeout: seconds the query may run once a worker has it; then the worker is ended.
        :param on_wait: called once when no worker has taken the query :data:`WAIT_NOTICE` seconds
            after it was asked (the others' queries hold them, or they are starting), so that the
            person waiting is told why a quick query takes long.
        :raises QueryRefusedError: as :meth:`~manillen_replay.store.Store.user_query`.
        :raises QueryTimeoutError: when it ran past ``timeout`` seconds.
        :raises QueryError: for a query DuckDB cannot run, or one that needed too much memory.
        """
        from .importer import parse_memory_limit

        allowed = parse_memory_limit(memory_limit) + MEMORY_MARGIN
        asked = time.monotonic()
        future = self._pool_of_workers().schedule(
            query_watched,
            args=(str(path), sql),
            kwargs={
                "max_rows": max_rows,
                "memory_limit": memory_limit,
                "max_bytes": max_bytes,
                "allowed_bytes": allowed,
            },
            timeout=timeout,
        )
        if on_wait is not None:
            concurrent.futures.wait([future], timeout=WAIT_NOTICE)
            if not future.done() and not future.running():
                on_wait()
        try:
            data = future.result()
        except concurrent.futures.TimeoutError:
            assert timeout is not None
            stopped = QueryTimeoutError(timeout_message(timeout))
            # the time limit starts when a worker takes the query: what came before was a wait
            stopped.waited = max(0.0, time.monotonic() - asked - timeout)
            raise stopped from None
        except pebble.ProcessExpired as error:
            if error.exitcode == MEMORY_EXIT:
                raise QueryError(
                    reason_words("memory", limit=memory_limit), "memory", limit=memory_limit
                ) from None
            raise QueryError(f"the query's process ended unexpectedly (exit code {error.exitcode})") from None
        return pl.read_ipc(io.BytesIO(data))

    def warm(self) -> None:
        """Start the workers now (they take a few seconds), without waiting for them."""
        self._pool_of_workers().schedule(_warm)

    def _pool_of_workers(self) -> pebble.ProcessPool:
        with self._lock:
            if self._pool is None or not self._pool.active:
                # spawn, not fork: the dashboard's process has DuckDB's and Streamlit's threads
                self._pool = pebble.ProcessPool(
                    max_workers=self._workers,
                    initializer=_warm,
                    context=multiprocessing.get_context("spawn"),
                )
            return self._pool

    def close(self) -> None:
        """End the workers and remove every snapshot (the pool starts again on the next query)."""
        with self._lock:
            pool, self._pool = self._pool, None
            folder, self._folder = self._folder, None
            self._snapshots.clear()
        if pool is not None:
            pool.stop()  # type: ignore[no-untyped-call]  # pebble leaves it unannotated
            pool.join()
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)


def _tidy(snapshot: _Snapshot) -> None:
    """Remove a snapshot that a newer one replaced, once no query uses it (call with the lock)."""
    if snapshot.retired and snapshot.users == 0:
        shutil.rmtree(snapshot.path.parent, ignore_errors=True)
