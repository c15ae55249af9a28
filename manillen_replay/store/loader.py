"""The thread that writes an import's batches through the archive's connection."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any


class _Loader:
    """The one thread that writes a file's batches through the import connection.

    DuckDB lets go of the GIL while it runs a statement, so loading batch N here while the
    main thread decodes, replays and builds batch N+1 keeps both cores busy (the import lowers
    Python's switch interval so that the loader gets the GIL back quickly: see
    :meth:`Store._import_settings`). The queue holds at most ``depth`` batches besides the one
    being loaded, so memory stays bounded. Nothing else may use the connection until
    :meth:`finish` or :meth:`cancel` has returned.
    """

    def __init__(self, load: Callable[[list[tuple[str, Any]], list[str]], None], depth: int = 1) -> None:
        self._load = load
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
        self._work.put((loads, replaced))

    def finish(self) -> None:
        """Wait until every queued batch is loaded.

        :raises Exception: what loading any batch raised.
        """
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
