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
    :meth:`Store._import_settings`). Consecutive batches are held back until they have
    ``gather`` rows and then loaded together; the queue holds at most ``depth`` such loads
    besides the one being loaded, so memory stays bounded. Nothing else may use the connection until
    :meth:`finish` or :meth:`cancel` has returned.
    """

    def __init__(
        self, load: Callable[[list[tuple[str, Any]], list[str]], None], depth: int = 1, gather: int = 0
    ) -> None:
        """:param gather: the rows of consecutive batches held back and loaded together, once
        they are at least this many (all at :meth:`finish`): DuckDB's cost per statement,
        and the loader's turns at the GIL, then come once for several batches."""
        self._load = load
        self._gather = gather
        self._held: list[list[tuple[str, Any]]] = []
        self._held_rows = 0
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
        self._held.append(loads)
        self._held_rows += sum(rows.num_rows for _, rows in loads)
        if self._held_rows >= self._gather:
            self._send_held()

    def _send_held(self) -> None:
        held, self._held, self._held_rows = self._held, [], 0
        if len(held) > 1:
            # a column typed otherwise in one batch: the batches go one by one
            with contextlib.suppress(pa.ArrowInvalid, pa.ArrowTypeError):
                held = [_gathered(held)]
        for loads in held:
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
        self._held, self._held_rows = [], 0
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


def _gathered(held: list[list[tuple[str, Any]]]) -> list[tuple[str, Any]]:
    """Several batches' loads as one: each table's rows of every batch, in their order (the
    Arrow tables joined, not copied; a column all null in one batch takes the others' type)."""
    parts: dict[str, list[Any]] = {}
    for loads in held:
        for target, rows in loads:
            parts.setdefault(target, []).append(rows)
    return [
        (target, tables[0] if len(tables) == 1 else pa.concat_tables(tables, promote_options="default"))
        for target, tables in parts.items()
    ]
