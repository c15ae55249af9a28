"""The cores the solver's threads and a local cluster count (manillen_replay.machine)."""

from __future__ import annotations

from pathlib import Path

import pytest

from manillen_replay import machine
from manillen_replay.solver.search import default_workers


@pytest.fixture
def eight_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(machine.os, "sched_getaffinity", lambda pid: set(range(8)), raising=False)


def quota(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "cpu.max"
    path.write_text(text, encoding="ascii")
    return path


def test_a_container_quota_smaller_than_the_cores_sets_the_count(eight_cores: None, tmp_path: Path) -> None:
    assert machine.usable_cores(quota(tmp_path, "200000 100000\n")) == 2


def test_a_quota_of_part_of_a_core_rounds_up(eight_cores: None, tmp_path: Path) -> None:
    assert machine.usable_cores(quota(tmp_path, "150000 100000\n")) == 2
    assert machine.usable_cores(quota(tmp_path, "5000 100000\n")) == 1


def test_no_quota_leaves_the_cores_the_process_may_run_on(eight_cores: None, tmp_path: Path) -> None:
    assert machine.usable_cores(quota(tmp_path, "max 100000\n")) == 8
    assert machine.usable_cores(tmp_path / "missing") == 8
    assert machine.usable_cores(quota(tmp_path, "not a quota")) == 8


def test_a_quota_larger_than_the_cores_does_not_add_any(eight_cores: None, tmp_path: Path) -> None:
    assert machine.usable_cores(quota(tmp_path, "1600000 100000\n")) == 8


def test_the_cores_a_process_is_pinned_to_count_not_the_machines(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(machine.os, "sched_getaffinity", lambda pid: {3}, raising=False)
    monkeypatch.setattr(machine, "CGROUP_CPU_MAX", tmp_path / "missing")
    assert default_workers() == 1
