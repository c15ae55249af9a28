"""The core does no I/O of its own: importing it loads none of the edge libraries."""

from __future__ import annotations

import subprocess
import sys

import pytest

CORE = [
    "manillen_replay.errors",
    "manillen_replay.cards",
    "manillen_replay.rules",
    "manillen_replay.state",
    "manillen_replay.record",
    "manillen_replay.engine",
    "manillen_replay.analysis",
    "manillen_replay.analysis.ledger",
    "manillen_replay.players",
    "manillen_replay.club_rules",
]
EDGE = ["duckdb", "streamlit", "plotly", "click", "polars", "pyarrow"]


@pytest.mark.parametrize("module", CORE)
def test_core_module_imports_no_edge_library(module):
    code = (
        "import importlib, sys\n"
        f"importlib.import_module({module!r})\n"
        f"print(','.join(m for m in {EDGE!r} if m in sys.modules))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert loaded == ""


def test_store_import_loads_no_pandas():
    """Importing the store (as ``manillen report`` and every dashboard page do) leaves pandas out:
    it takes a third of a second to load and only the dashboard's tables need it."""
    code = "import sys\nimport manillen_replay.store\nprint('pandas' in sys.modules)"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "False"
