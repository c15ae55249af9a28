"""Render times of the dashboard's heaviest pages, for ``make bench``.

``measure_render(path)`` runs the app with Streamlit's AppTest (the server side of a page view:
every query, the replay and the HTML and figures sent to the browser) on an archive and returns
seconds per page, cold (first view, nothing cached) and warm (a step or filter change, the way a
person uses the page). The browser's own drawing is not included.

Run it alone: ``python -m dashboards.bench ARCHIVE.duckdb``.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

APP = Path(__file__).resolve().parent / "streamlit_app.py"


def measure_render(path: str | Path, *, repeats: int = 5) -> dict[str, float]:
    """Seconds to render the deal replay and the mistakes page of the archive at ``path``.

    :param path: an archive with matches (and findings, for a meaningful mistakes page).
    :param repeats: warm renders to take the median of.
    :returns: ``replay_cold``, ``replay_warm``, ``mistakes_cold``, ``mistakes_warm``.
    :raises RuntimeError: when a page fails to render.
    """
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    from dashboards.native_inputs import chosen_state, many_text
    from manillen_replay.store import Store

    with Store(path, read_only=True) as store:
        first = store.query(
            "SELECT match_id, deal FROM deals WHERE kind = 'played' ORDER BY match_id, deal LIMIT 1"
        ).row(0)
    os.environ["MANILLEN_DB"] = str(Path(path).resolve())
    st.cache_data.clear()
    st.cache_resource.clear()
    results: dict[str, float] = {}

    def timed(at: AppTest) -> float:
        start = time.perf_counter()
        at.run()
        elapsed = time.perf_counter() - start
        if at.exception:
            raise RuntimeError(f"the page failed: {at.exception[0].value}")
        return elapsed

    at = AppTest.from_file(str(APP), default_timeout=120)
    at.run()
    at.query_params.update({"match": first[0], "deal": str(first[1]), "step": "0"})
    at.switch_page("app_pages/replay.py")
    results["replay_cold"] = timed(at)
    warm = []
    for step in range(1, repeats + 1):
        at.session_state["replay_step"] = step  # what a click of Forward (or the slider) sets
        warm.append(timed(at))
    results["replay_warm"] = statistics.median(warm)

    st.cache_data.clear()
    at.switch_page("app_pages/mistakes.py")
    results["mistakes_cold"] = timed(at)
    severities = ["blunder", "mistake", "inaccuracy", "info"]
    warm = []
    for index in range(repeats):
        chosen = many_text(severities[: 1 + index % len(severities)])
        at.session_state["mistakes_filters"] = chosen_state({"severities": chosen})  # ticked in the filter
        warm.append(timed(at))
    results["mistakes_warm"] = statistics.median(warm)
    return results


def main(argv: list[str]) -> int:
    """Print the render times of an archive given on the command line."""
    if len(argv) != 2:
        print("usage: python -m dashboards.bench ARCHIVE.duckdb", file=sys.stderr)
        return 2
    for name, seconds in measure_render(argv[1]).items():
        print(f"{name:>14}: {seconds * 1000:7.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
