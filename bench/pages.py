"""Page loads of the dashboard in a real browser, as a person waits for them, on the demo archive.

Starts ``manillen dashboard`` on the demo archive (``data/demo.jsonl`` imported and analysed
into ``bench/out/demo.duckdb``, once), drives Debian's Chromium with Playwright, and times:

- ``first visit``: a new tab (a new Streamlit session) opening the page's address, the first
  time that page is shown since the server started (its queries not cached yet);
- ``new tab``: the same again, now that the server has the page's data cached;
- ``in session``: clicking the page in the sidebar from another page of the same tab;
- ``replay step``: the Forward button of the deal replay, until the card is on the table.

A page counts as loaded when Streamlit's script has finished (``data-test-script-state`` is
``notRunning``), no element is still a placeholder, and every chart has drawn its SVG. The
floor is the server's bare health answer (``/_stcore/health``), fetched by the same browser in
the same run. Run alone with ``python -m bench.pages``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bench.record_bench import free_port, serving

ROOT = Path(__file__).resolve().parent.parent
MANILLEN = Path(sys.executable).parent / "manillen"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
TARGET_SECONDS = 1.0
"""Issue 14: every page and a replay step under a second on the demo archive, first visit included."""

LOADED = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  if (!app || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
  if (document.querySelector('[data-testid="stSkeleton"]')) return false;
  const main = document.querySelector('[data-testid="stMain"]');
  if (!main || !main.querySelector('[data-testid="stElementContainer"]')) return false;
  for (const chart of document.querySelectorAll('[data-testid="stPlotlyChart"]')) {
    if (!chart.querySelector('.main-svg')) return false;
  }
  return true;
}"""
"""True once a page is drawn: the script done, no placeholder left, every chart drawn."""


def demo_archive(folder: Path) -> Path:
    """The demo archive, imported and analysed as ``make demo-db`` does, made once in ``folder``."""
    archive = folder / "demo.duckdb"
    source = ROOT / "data" / "demo.jsonl"
    if archive.exists() and archive.stat().st_mtime > source.stat().st_mtime:
        return archive
    folder.mkdir(parents=True, exist_ok=True)
    archive.unlink(missing_ok=True)
    for arguments in (["import", str(source), "--db", str(archive)], ["analyze", "--db", str(archive)]):
        subprocess.run([str(MANILLEN), *arguments], check=True, capture_output=True)
    return archive


@contextmanager
def dashboard(archive: Path) -> Iterator[str]:
    """``manillen dashboard`` on a free port (the shared helper of the benches and browser tests)."""
    port = free_port()
    with serving([str(MANILLEN), "dashboard", "--db", str(archive), "--port", str(port)], port) as address:
        yield address


def page_addresses(archive: Path) -> dict[str, str]:
    """Each page's address (relative), with the first match and deal of the archive."""
    from manillen_replay.store import Store

    with Store(archive, read_only=True) as store:
        match_id, deal = store.query(
            "SELECT match_id, deal FROM deals WHERE kind = 'played' ORDER BY match_id, deal LIMIT 1"
        ).row(0)
    return {
        "archive": "",
        "record": "record",
        "match": f"match?match={match_id}",
        "replay": f"replay?match={match_id}&deal={deal}&step=0",
        "mistakes": "mistakes",
        "players": "players",
        "sql": "sql",
        "annotations": "annotations",
    }


def _open(browser: Any, url: str, external: set[str]) -> tuple[float, Any]:
    """Seconds from asking for ``url`` in a new tab to the page drawn; the tab.

    :param external: collects every address the tab asks for outside the dashboard's server.
    """
    server = url.split("/", 3)[:3]
    origin = "/".join(server)
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.on(
        "request",
        lambda request: (
            None if request.url.startswith((origin, "data:", "blob:")) else external.add(request.url)
        ),
    )
    page = context.new_page()
    started = time.perf_counter()
    page.goto(url)
    page.wait_for_function(LOADED, timeout=60_000, polling=20)
    return time.perf_counter() - started, page


def _step_seconds(page: Any, steps: int) -> list[float]:
    """Seconds of each click of Forward in the replay until the card is on the table."""
    forward = page.get_by_role("button", name="Forward")
    seconds = []
    for _ in range(steps):
        shown = int(page.locator(".mr-trick").get_attribute("data-cards") or 0)
        started = time.perf_counter()
        forward.click()
        page.locator(f'.mr-trick[data-cards="{(shown + 1) % 5 or 1}"]').wait_for(timeout=30_000)
        page.wait_for_function(LOADED, timeout=30_000, polling=20)
        seconds.append(time.perf_counter() - started)
    return seconds


WATCH_RUNS = """() => {
  window.__manillenRan = false;
  new MutationObserver(() => {
    const app = document.querySelector('[data-testid="stApp"]');
    if (app && app.getAttribute('data-test-script-state') !== 'notRunning') window.__manillenRan = true;
  }).observe(document.body, {attributes: true, subtree: true, childList: true,
                             attributeFilter: ['data-test-script-state']});
}"""
"""Notes when the page's script starts again, so a wait after a click is for the new page."""


def _in_session_seconds(page: Any, title: str) -> float:
    """Seconds from clicking ``title`` in the sidebar to that page drawn."""
    page.evaluate(WATCH_RUNS)
    started = time.perf_counter()
    page.locator('[data-testid="stSidebarNav"]').get_by_text(title, exact=True).click()
    page.wait_for_function(f"() => window.__manillenRan && ({LOADED})()", timeout=60_000, polling=20)
    return time.perf_counter() - started


TITLES = {
    "archive": "Archive",
    "record": "Record",
    "match": "Match",
    "replay": "Deal replay",
    "mistakes": "Mistakes",
    "players": "Players",
    "sql": "SQL",
    "annotations": "Annotations",
}
"""Each page's name in the English sidebar."""


def run(runs: int = 3, steps: int = 10, folder: Path | None = None) -> dict[str, Any]:
    """Every page's load times, a replay step's, and the floor; see the module's description.

    :param runs: new-tab visits per page after the first (the median is reported).
    :param steps: replay steps timed.
    """
    from playwright.sync_api import sync_playwright

    archive = demo_archive(folder or ROOT / "bench" / "out")
    addresses = page_addresses(archive)
    rows: list[dict[str, Any]] = []
    external: set[str] = set()
    with dashboard(archive) as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            floor = []
            for _ in range(max(3, runs)):
                context = browser.new_context()
                page = context.new_page()
                started = time.perf_counter()
                page.goto(f"{server}/_stcore/health")
                floor.append(time.perf_counter() - started)
                context.close()
            floor_seconds = statistics.median(floor)
            for name, relative in addresses.items():
                first, page = _open(browser, f"{server}/{relative}", external)
                page.context.close()
                again = []
                for _ in range(runs):
                    seconds, page = _open(browser, f"{server}/{relative}", external)
                    again.append(seconds)
                    page.context.close()
                rows.append({"page": name, "first_visit": first, "new_tab": statistics.median(again)})
            # in session: from the archive page, click each other page in the sidebar
            _, page = _open(browser, f"{server}/", external)
            for row in rows:
                if row["page"] != "archive":
                    row["in_session"] = _in_session_seconds(page, TITLES[row["page"]])
            page.context.close()
            _, page = _open(browser, f"{server}/{addresses['replay']}", external)
            step = _step_seconds(page, steps)
            page.context.close()
        finally:
            browser.close()
    rows.append({"page": "replay step", "first_visit": max(step), "new_tab": statistics.median(step)})
    for row in rows:
        worst = max(v for k, v in row.items() if k in ("first_visit", "new_tab", "in_session"))
        row["meets_target"] = worst < TARGET_SECONDS
    return {
        "archive": str(archive.relative_to(ROOT)) if archive.is_relative_to(ROOT) else str(archive),
        "floor": "the server's /_stcore/health in a new tab",
        "floor_seconds": floor_seconds,
        "target_seconds": TARGET_SECONDS,
        "rows": rows,
        "external_requests": sorted(external),
    }


def format_result(result: dict[str, Any]) -> str:
    """The page loads as a text table (seconds; the floor's in the header)."""
    floor = result["floor_seconds"]
    header = ("page load (browser)", "first visit s", "new tab s", "in session s", "vs floor", "")
    body = []
    for row in result["rows"]:
        session = row.get("in_session")
        body.append(
            (
                row["page"],
                f"{row['first_visit']:.2f}",
                f"{row['new_tab']:.2f}",
                "-" if session is None else f"{session:.2f}",
                f"{row['first_visit'] / floor:.0f}x",
                "ok" if row["meets_target"] else f"over {result['target_seconds']:g} s",
            )
        )
    widths = [max(len(cells[i]) for cells in [header, *body]) for i in range(len(header))]
    lines = [
        "  ".join(
            c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        )
        for cells in [header, *body]
    ]
    lines.append(
        f"floor: {result['floor']} {floor:.3f} s; replay step: first visit column = slowest of the steps, "
        "new tab column = median"
    )
    if result["external_requests"]:
        lines.append("requests outside the dashboard: " + ", ".join(result["external_requests"]))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Print the page-load table; ``--json`` prints the result instead."""
    parser = argparse.ArgumentParser(prog="python -m bench.pages", description=__doc__)
    parser.add_argument("--runs", type=int, default=3, help="new-tab visits per page after the first")
    parser.add_argument("--steps", type=int, default=10, help="replay steps timed")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    arguments = parser.parse_args(argv)
    result = run(arguments.runs, arguments.steps)
    print(json.dumps(result, indent=2) if arguments.json else format_result(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
