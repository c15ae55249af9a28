"""Batches of deals on a Dask cluster: the one module that imports Dask (the ``cluster`` extra).

:func:`open_runner` connects to a scheduler (``tcp://host:8786``) or starts a ``LocalCluster``
(``local:N``) and gives a :class:`~manillen_replay.solving.Runner` for
:func:`~manillen_replay.solving.solve_matches`: batches are Dask tasks
(:func:`~manillen_replay.solving.analyse_batch`), retried by Dask when a worker is lost, and
collected with ``as_completed`` as they finish. docs/cluster.md tells how to start a cluster.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from .errors import ManillenError
from .solving import BatchTables, DealBatch, analyse_batch

INSTALL_HINT = "pip install 'manillen-replay[cluster]'"
RETRIES = 2
"""Times Dask runs a batch again on another worker when its worker is lost."""


class ClusterError(ManillenError):
    """A cluster address that does not parse, Dask missing, or a scheduler that cannot be reached."""


@dataclass(frozen=True)
class ClusterAddress:
    """Where to run: a scheduler's address, or a local cluster of some worker processes."""

    scheduler: str | None
    """``tcp://host:8786`` (any address Dask's ``Client`` takes), ``None`` for a local cluster."""
    local_workers: int = 0
    """Worker processes of the local cluster (``local:N``)."""

    def __str__(self) -> str:
        return self.scheduler or f"local:{self.local_workers}"


def parse_address(text: str) -> ClusterAddress:
    """A ``--cluster`` value: ``local:N`` or a scheduler address.

    >>> parse_address("local:2")
    ClusterAddress(scheduler=None, local_workers=2)
    >>> parse_address("tcp://10.0.0.5:8786").scheduler
    'tcp://10.0.0.5:8786'

    :raises ClusterError: for ``local:`` without a number of workers of at least 1, or an
        address without a protocol.
    """
    value = text.strip()
    if value.startswith("local:") or value == "local":
        count = value.partition(":")[2]
        if not count.isdigit() or int(count) < 1:
            raise ClusterError(f"{text!r}: give the number of worker processes, as in local:2")
        return ClusterAddress(None, int(count))
    if "://" not in value:
        raise ClusterError(f"{text!r} is not a scheduler address: write tcp://HOST:8786 or local:N")
    return ClusterAddress(value)


def _dask() -> Any:
    try:
        import distributed
    except ImportError:
        raise ClusterError(f"--cluster needs Dask, which is not installed: {INSTALL_HINT}") from None
    return distributed


class DaskRunner:
    """Runs batches as tasks of a Dask client; each one is tried again when its worker is lost."""

    def __init__(self, client: Any, retries: int = RETRIES, threads: int | None = None) -> None:
        """:param client: a connected ``distributed.Client``.
        :param retries: how often Dask runs a task again after losing its worker.
        :param threads: solver threads per batch (``None``: every core of the worker's machine).
        """
        self.threads = threads
        self._distributed = _dask()
        self.client = client
        self.retries = retries
        self._done = self._distributed.as_completed()
        self._batches: dict[str, DealBatch] = {}
        self._counted_at = 0.0
        self._workers = 1

    @property
    def workers(self) -> int:
        """Worker threads in the cluster now (looked up at most every ten seconds: clusters grow)."""
        now = time.monotonic()
        if now - self._counted_at > 10:
            self._workers = max(1, sum(self.client.nthreads().values()))
            self._counted_at = now
        return self._workers

    @property
    def slots(self) -> int:
        """Two batches per worker thread: one running, one waiting, so none idles between tasks."""
        return 2 * self.workers

    def submit(self, batch: DealBatch) -> None:
        """Send a batch to the cluster."""
        future = self.client.submit(analyse_batch, batch, retries=self.retries, pure=False)
        self._batches[future.key] = batch
        self._done.add(future)

    def next_done(self) -> tuple[DealBatch, BatchTables | BaseException]:
        """The next batch to finish (in any order), with its tables or the error that ended it."""
        future = next(self._done)
        batch = self._batches.pop(future.key)
        try:
            tables: BatchTables = future.result()
        except Exception as error:  # the task's error (KilledWorker once retries ran out), or cancelled
            return batch, error
        finally:
            future.release()
        return batch, tables


@contextmanager
def open_runner(address: ClusterAddress, *, wait_seconds: float = 60.0) -> Iterator[DaskRunner]:
    """A runner on the cluster at ``address``; a local cluster is started here and stopped after.

    :param wait_seconds: how long to wait for a first worker of a scheduler.
    :raises ClusterError: when Dask is not installed or the scheduler cannot be reached.
    """
    distributed = _dask()
    if address.scheduler is None:
        cluster = distributed.LocalCluster(
            n_workers=address.local_workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=logging.ERROR,
        )
        try:
            # the workers share this machine: their solver threads share its cores
            threads = max(1, (os.cpu_count() or 1) // address.local_workers)
            with distributed.Client(cluster) as client:
                yield DaskRunner(client, threads=threads)
        finally:
            cluster.close()
        return
    try:
        client = distributed.Client(address.scheduler, timeout=f"{int(wait_seconds)}s")
    except (OSError, TimeoutError) as error:
        raise ClusterError(f"cannot reach the Dask scheduler at {address.scheduler}: {error}") from None
    try:
        client.wait_for_workers(1, timeout=wait_seconds)
    except TimeoutError:
        client.close()
        raise ClusterError(
            f"the Dask scheduler at {address.scheduler} has no worker after {wait_seconds:g} s: "
            "start some with `dask worker " + address.scheduler + "`"
        ) from None
    try:
        yield DaskRunner(client)
    finally:
        client.close()
