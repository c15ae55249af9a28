"""What this machine lets a process use: its cores, as the solver's threads and a local cluster
should count them."""

from __future__ import annotations

import os
from pathlib import Path

CGROUP_CPU_MAX = Path("/sys/fs/cgroup/cpu.max")
"""Where a container's processor quota is (cgroup v2): ``"200000 100000"`` is two cores' worth."""


def usable_cores(cpu_max: Path | None = None) -> int:
    """The cores this process may use: those it is allowed to run on, fewer when its container's
    quota is smaller (a container on a big machine sees every core of the machine, and one
    thread per core of it would only wait for its share).

    :param cpu_max: the quota file (default :data:`CGROUP_CPU_MAX`).

    >>> usable_cores() >= 1
    True
    """
    allowed = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    try:
        quota, period = (cpu_max or CGROUP_CPU_MAX).read_text(encoding="ascii").split()
        if quota != "max" and int(period) > 0:
            allowed = min(allowed, max(1, -(-int(quota) // int(period))))
    except (OSError, ValueError):
        pass  # no cgroup v2 quota here: the affinity says it all
    return max(1, allowed)
