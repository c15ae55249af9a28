"""A Dask worker preload for tests: the worker that first runs a given deal kills its own process.

``tests/test_cluster.py`` names this file in Dask's ``distributed.worker.preload`` setting, so
each worker process of a ``LocalCluster`` runs :func:`dask_setup` as it starts. The batch
holding deal ``$MANILLEN_KILL_DEAL`` (``MATCH_ID/NUMBER``) kills its worker with SIGKILL, mid-task,
the first time it runs: the marker file ``$MANILLEN_KILL_MARKER`` (written just before, with the
killed process's id) says it has happened, so the batch run again elsewhere goes through, and
leaves the id of the process that finished it in ``MARKER.done``.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

from manillen_replay import solving

_analyse_batch = solving.analyse_batch


def _killing_analyse_batch(batch: solving.DealBatch) -> solving.BatchTables:
    marker = Path(os.environ["MANILLEN_KILL_MARKER"])
    match_id, _, number = os.environ["MANILLEN_KILL_DEAL"].rpartition("/")
    if (match_id, int(number)) in batch.deals:
        if not marker.exists():
            marker.write_text(str(os.getpid()))
            os.kill(os.getpid(), signal.SIGKILL)  # a real death: no exception, no goodbye to the scheduler
        tables = _analyse_batch(batch)
        marker.with_suffix(".done").write_text(str(os.getpid()))
        return tables
    return _analyse_batch(batch)


def dask_setup(worker: Any) -> None:
    """Dask's preload hook: tasks that name ``solving.analyse_batch`` find the killing one."""
    solving.analyse_batch = _killing_analyse_batch
