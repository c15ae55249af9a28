"""Start Streamlit for the dashboard, with the dashboard's libraries imported while it starts.

``manillen dashboard`` runs ``python dashboards/serve.py run dashboards/streamlit_app.py ...``.
Streamlit runs a page's script only once a browser session asks for it, so without this the
first visitor would wait for polars, DuckDB, Arrow, pandas and plotly to import (seconds on a
small machine). Here they import on a thread of their own while the server starts; a page that
needs a module still importing waits for it, as Python's import lock does.
"""

from __future__ import annotations

import importlib
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PRELOADED = (
    "dashboards.data",
    "dashboards.charts",
    "dashboards.cards",
    "dashboards.steps",
    "dashboards.ui",
    "pandas",
    "pyarrow",
    "polars",
    "duckdb",
)
"""The modules every page needs, in the order they are imported."""


def preload() -> None:
    """Import :data:`PRELOADED`."""
    for name in PRELOADED:
        importlib.import_module(name)


def main() -> None:
    """Run Streamlit's command line (``streamlit run ...``) with the preload thread started."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    threading.Thread(target=preload, name="manillen-preload", daemon=True).start()
    from streamlit.web import cli

    cli.main(args=sys.argv[1:], prog_name="streamlit")


if __name__ == "__main__":
    main()
