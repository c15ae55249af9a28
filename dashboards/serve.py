"""Start Streamlit for the dashboard, with the dashboard's libraries imported while it starts.

``manillen dashboard`` runs ``python dashboards/serve.py run dashboards/streamlit_app.py ...``.
Streamlit runs a page's script only once a browser session asks for it, so without this the
first visitor would wait for polars, DuckDB, Arrow, pandas and plotly to import (seconds on a
small machine). Here they import on a thread of their own while the server starts; a page that
needs a module still importing waits for it, as Python's import lock does. Once Streamlit's
runtime is up, the same thread has Plotly load what its figures need (:func:`dashboards.charts.warm`)
and fills the dashboard's caches with what each page shows first (:func:`dashboards.data.warm`),
so the first visitor of a page waits for no query either.
"""

from __future__ import annotations

import importlib
import logging
import sys
import threading
import time
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


RUNTIME_WAIT_SECONDS = 60.0
"""How long the warming waits for Streamlit's runtime before giving up (it never blocks serving)."""


def preload() -> None:
    """Import :data:`PRELOADED`, warm Plotly, then the caches once Streamlit's runtime exists."""
    for name in PRELOADED:
        importlib.import_module(name)
    from dashboards import charts, data

    charts.warm()
    from streamlit.runtime import Runtime

    deadline = time.monotonic() + RUNTIME_WAIT_SECONDS
    while not Runtime.exists():
        if time.monotonic() > deadline:
            return
        time.sleep(0.05)
    try:
        data.warm()
    except Exception:  # an archive that cannot be read is reported by the pages, in words
        logging.getLogger("manillen.dashboard").debug("warming the caches failed", exc_info=True)


def main() -> None:
    """Run Streamlit's command line (``streamlit run ...``) with the preload thread started."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    threading.Thread(target=preload, name="manillen-preload", daemon=True).start()
    from streamlit.web import cli

    cli.main(args=sys.argv[1:], prog_name="streamlit")


if __name__ == "__main__":
    main()
