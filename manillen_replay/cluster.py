"""Batches of deals on a Dask cluster: the one module that imports Dask (the ``cluster`` extra).

:func:`open_runner` connects to a scheduler (``tcp://host:8786``) or starts a ``LocalCluster``
(``local:N``) and gives a :class:`~manillen_replay.solving.Runner` for
:func:`~manillen_replay.solving.solve_matches`: batches are Dask tasks
(:func:`~manillen_replay.solving.analyse_batch`), retried by Dask when a worker is lost, and
collected with ``as_completed`` as they finish. docs/cluster.md tells how to start a cluster.
"""

from __future__ import annotations

import logging
import time
import warnings
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from .errors import ManillenError
from .machine import usable_cores
from .solving import BatchTables, DealBatch, analyse_batch

INSTALL_HINT = "pip install -e '.[cluster]' in manillen-replay's folder (make setup does it)"
RETRIES = 2
"""Times Dask runs a batch again when it raised (a lost worker's batches are run again by the
scheduler: ``distributed.scheduler.allowed-failures``, 3 by default)."""


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
    """Runs batches as tasks of a Dask client; Dask runs a task again when its worker is lost.

    The client may still be connecting (a local cluster starting in the background): the
    driver reads and replays the first matches meanwhile, and the first :meth:`submit` waits.
    """

    def __init__(
        self,
        client: Any,
        retries: int = RETRIES,
        threads: int | None = None,
        *,
        workers: int | None = None,
    ) -> None:
        """:param client: a connected ``distributed.Client``, or a ``concurrent.futures.Future`` of one.
        :param retries: how often Dask runs a task again after it raised.
        :param threads: solver threads per batch (``None``: every core of the worker's machine).
        :param workers: the worker threads to count on while the client is still connecting.
        """
        self.threads = threads
        self._distributed = _dask()
        self._client = client
        self.retries = retries
        self._done: Any = None
        self._batches: dict[str, DealBatch] = {}
        self._counted_at = 0.0
        self._workers = workers or 1
        self.start_wait = 0.0
        """Seconds the driver waited for the cluster to be up."""
        self.stop_seconds = 0.0
        """Seconds stopping a local cluster took."""

    @property
    def client(self) -> Any:
        """The connected client (waiting for it the first time, while a local cluster starts)."""
        if isinstance(self._client, Future):
            start = time.perf_counter()
            self._client = self._client.result()
            self.start_wait = time.perf_counter() - start
            self._counted_at = time.monotonic()  # the local cluster's count holds: no need to ask
        return self._client

    @property
    def workers(self) -> int:
        """Worker threads in the cluster now (looked up at most every ten seconds: clusters grow)."""
        now = time.monotonic()
        if not isinstance(self._client, Future) and now - self._counted_at > 10:
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
        if self._done is None:
            self._done = self._distributed.as_completed()
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
def open_runner(
    address: ClusterAddress, *, connect_seconds: float = 10.0, wait_seconds: float = 60.0
) -> Iterator[DaskRunner]:
    """A runner on the cluster at ``address``; a local cluster is started here and stopped after.

    A local cluster starts in a thread of its own, so that the driver reads and replays the
    first matches while the worker processes start.

    :param connect_seconds: how long to try to reach a scheduler: one that runs answers at once,
        so a wrong address or a scheduler not started is said after this, not after a minute.
    :param wait_seconds: how long to wait for a first worker of a scheduler.
    :raises ClusterError: when Dask is not installed or the scheduler cannot be reached.
    """
    distributed = _dask()
    if address.scheduler is None:
        # the workers share this machine: their solver threads share its cores
        threads = max(1, usable_cores() // address.local_workers)
        with ThreadPoolExecutor(1, thread_name_prefix="manillen-cluster-start") as starter:
            starting = starter.submit(_start_local, distributed, address.local_workers)
            runner = DaskRunner(starting, threads=threads, workers=address.local_workers)
            try:
                yield runner
            finally:
                client = starting.result()
                start = time.perf_counter()
                cluster = client.cluster
                client.close()
                cluster.close()
                runner.stop_seconds = time.perf_counter() - start
        return
    try:
        client = distributed.Client(address.scheduler, timeout=f"{connect_seconds:g}s")
    except (OSError, TimeoutError):
        raise ClusterError(
            f"cannot reach the Dask scheduler at {address.scheduler} (tried for {connect_seconds:g} s): "
            f"check the address, and that `dask scheduler` runs on that machine and its port is open "
            "to this one; or solve here with --cluster local:N"
        ) from None
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


def _start_local(distributed: Any, workers: int) -> Any:
    with warnings.catch_warnings():
        # the scheduler's HTTP server moves off a port another program holds, and says so on
        # stderr even under --quiet; it serves nothing this command uses
        warnings.filterwarnings("ignore", message="Port .* is already in use", category=UserWarning)
        cluster = distributed.LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=logging.ERROR,
        )
    try:
        return distributed.Client(cluster)
    except BaseException:
        cluster.close()
        raise
