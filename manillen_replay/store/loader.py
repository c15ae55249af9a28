"""The thread that writes an import's batches through the archive's connection."""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Callable
from typing import Any

import pyarrow as pa


class _Loader:
    """The one thread that writes a file's batches through the import connection.

    DuckDB lets go of the GIL while it runs a statement, so loading batch N here while the
    main thread decodes, replays and builds batch N+1 keeps both cores busy (the import lowers
    Python's switch interval so that the loader gets the GIL back quickly: see
    :meth:`Store._import_settings`). Consecutive batches are held back and each
    table's rows loaded together (see ``gather``); the queue holds at most ``depth`` such loads
    besides the one being loaded, so memory stays bounded. Nothing else may use the connection until
    :meth:`finish` or :meth:`cancel` has returned.
    """

    def __init__(
        self, load: Callable[[list[tuple[str, Any]], list[str]], None], depth: int = 1, gather: int = 0
    ) -> None:
        """:param gather: the bytes of Arrow tables held back before loading (all of them go at
        :meth:`finish`). Once the held tables reach it, each archive table holding at least
        half of it is loaded, its rows of every batch held in one statement (with the next
        largest while the rest would still reach ``gather``, or when none holds half); the
        others wait for more, so what is held stays under ``gather`` and one batch. DuckDB's
        cost per statement (a few milliseconds, whatever its rows) and the loader's turns at
        the GIL then come once for many batches of the small tables (seats, declarations,
        deals) instead of once a load: 71 statements instead of 176 for 100,000 deals."""
        self._load = load
        self._gather = gather
        self._held: dict[str, list[Any]] = {}
        """Each archive table's Arrow tables waiting, in the order of their batches."""
        self._held_bytes: dict[str, int] = {}
        self._work: queue.Queue[tuple[list[tuple[str, Any]], list[str]] | None] = queue.Queue(maxsize=depth)
        self._error: BaseException | None = None
        self._cancelled = False
        self._thread = threading.Thread(target=self._run, name="manillen-import-loader", daemon=True)
        self._thread.start()

    @property
    def cancelled(self) -> bool:
        """Whether :meth:`cancel` was called: the batch under way stops at its next statement."""
        return self._cancelled

    def _run(self) -> None:
        while (work := self._work.get()) is not None:
            # After a failure or a cancel the rest is only drained, so a waiting put returns.
            if self._error is None and not self._cancelled:
                try:
                    self._load(*work)
                except BaseException as error:  # handed to the main thread as it is
                    self._error = error
            del work  # let go of the batch's Arrow tables before waiting for the next

    def submit(self, loads: list[tuple[str, Any]], replaced: list[str]) -> None:
        """Queue a batch (see :meth:`Store._load`); waits while the queue is full.

        :raises Exception: what loading an earlier batch raised (a ``duckdb.Error``, ...).
        """
        self._raise_failure()
        if replaced:
            # The rows of a match it replaces may be held: they go in before it is deleted.
            self._send_held()
            self._work.put((loads, replaced))
            return
        for target, rows in loads:
            self._held.setdefault(target, []).append(rows)
            self._held_bytes[target] = self._held_bytes.get(target, 0) + rows.nbytes
        if sum(self._held_bytes.values()) < self._gather:
            return
        ready = [target for target, size in self._held_bytes.items() if size >= self._gather // 2]
        waiting = sorted((t for t in self._held if t not in ready), key=self._held_bytes.__getitem__)
        left = sum(self._held_bytes[target] for target in waiting)
        while waiting and (left >= self._gather or not ready):
            largest = waiting.pop()
            ready.append(largest)
            left -= self._held_bytes[largest]
        self._send_held(ready)

    def _send_held(self, targets: list[str] | None = None) -> None:
        """Queue the rows held of these archive tables (of every table when ``None``) as one load."""
        loads: list[tuple[str, Any]] = []
        for target in list(self._held) if targets is None else targets:
            tables = self._held.pop(target)
            del self._held_bytes[target]
            loads.extend(_gathered(target, tables))
        if loads:
            self._work.put((loads, []))

    def finish(self) -> None:
        """Wait until every queued batch is loaded.

        :raises Exception: what loading any batch raised.
        """
        self._send_held()
        self._work.put(None)
        self._thread.join()
        self._raise_failure()

    def cancel(self) -> None:
        """Drop the batches not started and wait for the one under way to stop at its next
        statement; the connection is then free for the ROLLBACK.

        A second Ctrl-C meanwhile does not cut the wait short: a ROLLBACK while the loader
        still writes would leave its later statements outside the transaction.
        """
        self._cancelled = True
        self._held, self._held_bytes = {}, {}
        stop_sent = False
        while self._thread.is_alive():
            try:
                if not stop_sent:
                    self._work.put(None)
                    stop_sent = True
                self._thread.join()
            except KeyboardInterrupt:
                continue

    def _raise_failure(self) -> None:
        if self._error is not None:
            raise self._error


def _gathered(target: str, tables: list[Any]) -> list[tuple[str, Any]]:
    """One table's rows of several batches as one load, in their order (the Arrow tables joined,
    not copied; a column all null in one batch takes the others' type); batches whose columns
    do not join (a column typed otherwise in one) one by one."""
    if len(tables) > 1:
        with contextlib.suppress(pa.ArrowInvalid, pa.ArrowTypeError):
            return [(target, pa.concat_tables(tables, promote_options="default"))]
    return [(target, rows) for rows in tables]
