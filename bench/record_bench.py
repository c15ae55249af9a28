"""Record page benchmark: how long a tap on the card grid takes to show, in a real browser.

Starts ``manillen dashboard`` on an empty archive and, beside it, a plain Streamlit page (one
``st.button`` and a count) served by the same Streamlit with the same flags; drives both with
Playwright in Debian's Chromium (headless, ``--no-sandbox --disable-gpu
--disable-background-networking``). Each pass records one deal by tapping its 32 cards (the cards of
a generated deal in the order played) and clicks the plain button 32 times.

Timed in the page itself (``performance.now()``): from the tap (``click()`` on the button) to the
first frame showing that card greyed out (``greyed``), and to Streamlit's run being over with
nothing stale left on the page (``settled``: the next tap finds the page ready). The floor is the
plain button: click to the first frame showing the new count, and to its run over. It is what
Streamlit itself needs for any click (the websocket round trip, a script run, the browser's
render), so the ratio is the Record page's own share. Run it alone with
``python -m bench.record_bench [PASSES] [--json]``; the suite runs it as the ``record`` stage.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from manillen_replay.cli.dashboard import STREAMLIT_SETTINGS
from manillen_replay.players import GenerateOptions, iter_matches, parse_players

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
PHONE = {"width": 390, "height": 844}
SEATS = ("Anna", "Bert", "Carla", "Dirk")
STREAMLIT_FLAGS = STREAMLIT_SETTINGS
"""The flags ``manillen dashboard`` starts Streamlit with, used for the floor's page too."""

FLOOR_APP = """
import streamlit as st

st.session_state.setdefault("taps", 0)


def tap():
    st.session_state.taps += 1


st.button("Tap", key="floor_tap", on_click=tap)
st.caption(f"{st.session_state.taps} taps")
"""

# Both measurements run inside the page: click, then wait frame by frame until it shows.
TIMED_TAP = """async ([selector, shown]) => {
    const settled = () => {
        const app = document.querySelector('[data-testid="stApp"]');
        return app && app.dataset.testScriptState === 'notRunning'
            && document.querySelector('[data-stale="true"]') === null;
    };
    const frame = () => new Promise(resolve => requestAnimationFrame(resolve));
    const start = performance.now();
    document.querySelector(selector).click();
    let greyed = null;
    while (performance.now() - start < 30000) {
        await frame();
        if (greyed === null && new Function('return ' + shown)()) greyed = performance.now() - start;
        if (greyed !== null && settled()) return [greyed, performance.now() - start];
    }
    return [greyed, null];
}"""


def deal_cards(seed: int = 2026) -> tuple[str, list[str]]:
    """A generated deal's trump suit and its 32 cards in the order played."""
    options = GenerateOptions(players=tuple(parse_players(",".join(f"{s}:club" for s in SEATS))), seed=seed)
    for generated in iter_matches(options):
        for deal in generated.record.deals:
            calls = deal.declarations if isinstance(deal.declarations, list) else []
            trump = next((c.suit for c in calls if c.call == "trump" and isinstance(c.suit, str)), None)
            if trump and isinstance(deal.tricks, list) and len(deal.tricks) == 8:
                return trump, [card for trick in deal.tricks for card in trick]
    raise RuntimeError("the generator made no trump deal")


def free_port() -> int:
    """A TCP port free on this machine now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def serving(
    command: Sequence[str],
    port: int,
    environment: dict[str, str] | None = None,
    prefix: str = "",
    start: Callable[..., Any] = subprocess.Popen,
) -> Iterator[str]:
    """A Streamlit server started by ``command`` on ``port``; its address once it answers its
    health check. Stopped (with its children) on leaving.

    :param prefix: the server's own path prefix (Streamlit's ``server.baseUrlPath``: ``/manillen``),
        part of the address.
    :param environment: added to this process's environment. The dashboard's background review
        (``dashboards/reviewer.py``) is off unless it says ``MANILLEN_REVIEW``: the benches and
        browser tests check and time pages on archives that must not change under them while the
        solver fills them in (``bench.pages.dashboard(review=True)`` turns it on).
    :param start: what starts ``command``, taking ``subprocess.Popen``'s arguments (the tests
        fork their servers from a process that imported the dashboard's libraries once).
    :raises RuntimeError: with the server's error output when it does not start within a minute.
    """
    # a session of its own, so stopping it stops streamlit when a command starts it as a child
    process = start(
        list(command),
        cwd=ROOT,
        env={**os.environ, "MANILLEN_REVIEW": "off", **(environment or {})},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
        text=True,
    )
    address = f"http://127.0.0.1:{port}{prefix}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{address}/_stcore/health", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    problem = process.stderr.read() if process.stderr and process.poll() is not None else ""
                    raise RuntimeError(f"streamlit did not start ({' '.join(command)}): {problem}") from None
                time.sleep(0.05)  # a start takes about 2 s: asked often, it is used as soon as it answers
        yield address
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)


@contextmanager
def streamlit_server(script: Path, environment: dict[str, str]) -> Iterator[str]:
    """``streamlit run script`` on a free port, with the dashboard's flags; its address."""
    port = free_port()
    command = [sys.executable, "-m", "streamlit", "run", str(script), "--server.port", str(port)]
    command += ["--server.address", "127.0.0.1", *STREAMLIT_FLAGS]
    with serving(command, port, environment) as address:
        yield address


def _settle(page: Any) -> None:
    page.wait_for_function(
        "() => document.querySelector('[data-testid=\"stApp\"]')?.dataset.testScriptState === 'notRunning'"
        " && document.querySelector('[data-stale=\"true\"]') === null",
        timeout=30_000,
    )


def _timed(page: Any, selector: str, shown: str) -> tuple[float, float]:
    greyed, settled = page.evaluate(TIMED_TAP, [selector, shown])
    if greyed is None or settled is None:
        raise RuntimeError(f"the page did not show the tap on {selector} within 30 s")
    return greyed / 1000, settled / 1000


def type_seat_names(page: Any, names: Sequence[str]) -> None:
    """Type the players' names into the Record page's seats as a person does: each seat's input
    (the browser's own, dashboards/native_inputs.py) once it is drawn, the name, then Enter."""
    for seat, name in enumerate(names):
        box = page.locator(f'input[name="seat_{seat}"]')
        box.wait_for(timeout=30_000)
        box.fill(name)
        box.press("Enter")


def record_pass(page: Any, address: str, trump: str, cards: Sequence[str]) -> list[tuple[float, float]]:
    """Set up a new match, make trump and tap the 32 cards: (greyed, settled) seconds per tap."""
    page.goto(f"{address}/record")
    type_seat_names(page, SEATS)
    _settle(page)
    page.locator(".st-key-record_start button:enabled").wait_for(timeout=30_000)
    page.locator(".st-key-record_start button").click()
    # the trump tapped once the run drawing it is over, as a person who looks does (and as the
    # Record page's tests do, tests/test_browser_record.py: a tap during that run was once lost)
    page.locator(f".st-key-record_trump_{trump} button").wait_for(timeout=30_000)
    _settle(page)
    page.locator(f".st-key-record_trump_{trump} button").click()
    page.locator(f".st-key-record_card_{cards[0]} button:enabled").wait_for(timeout=30_000)
    _settle(page)
    times = []
    for card in cards:
        selector = f".st-key-record_card_{card} button"
        times.append(_timed(page, selector, f"document.querySelector('{selector}')?.disabled === true"))
    page.locator(".st-key-record_close button").click()  # the draft goes; the next pass starts afresh
    page.locator(".st-key-record_close_yes button").click()  # Close asks first: the deal is not saved
    page.locator(".st-key-record_start").wait_for(timeout=30_000)
    return times


def floor_pass(page: Any, address: str, clicks: int) -> list[tuple[float, float]]:
    """The plain button clicked ``clicks`` times: (shown, settled) seconds per click."""
    page.goto(address)
    page.locator(".st-key-floor_tap button").wait_for(timeout=30_000)
    _settle(page)
    selector = ".st-key-floor_tap button"
    start = int(page.get_by_text("taps").inner_text().split()[0])
    times = []
    for n in range(start + 1, start + clicks + 1):
        shown = (
            "[...document.querySelectorAll('[data-testid=\"stCaptionContainer\"]')]"
            f".some(e => e.innerText === '{n} taps')"
        )
        times.append(_timed(page, selector, shown))
    return times


def _stats(values: Sequence[float]) -> dict[str, float]:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {"median_ms": round(statistics.median(ordered) * 1000, 1), "p95_ms": round(p95 * 1000, 1)}


def run(passes: int = 3) -> list[dict[str, Any]]:
    """Record ``passes`` deals by taps and click the floor's button as often; one row per figure.

    :returns: rows with ``stage``, ``taps``, ``median_ms``, ``p95_ms`` and the floor's figures.
    :raises RuntimeError: without Chromium or Playwright, or when a page does not answer.
    """
    if not CHROMIUM.exists():
        raise RuntimeError(f"needs Debian's chromium at {CHROMIUM}")
    from playwright.sync_api import sync_playwright

    trump, cards = deal_cards()
    taps: list[tuple[float, float]] = []
    clicks: list[tuple[float, float]] = []
    deals: list[float] = []
    floors: list[float] = []
    with tempfile.TemporaryDirectory(prefix="manillen-record-bench-") as folder:
        floor_script = Path(folder) / "floor_app.py"
        floor_script.write_text(FLOOR_APP, encoding="utf-8")
        archive = {"MANILLEN_DB": str(Path(folder) / "table.duckdb")}
        app = ROOT / "dashboards" / "streamlit_app.py"
        with (
            streamlit_server(app, archive) as dashboard,
            streamlit_server(floor_script, {}) as floor,
            sync_playwright() as playwright,
        ):
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
            try:
                page = browser.new_page(viewport=PHONE, is_mobile=True, has_touch=True)
                record_pass(page, dashboard, trump, cards)  # warm-up: imports, caches, first draft
                floor_pass(page, floor, 5)
                for _ in range(passes):
                    clicked = floor_pass(page, floor, len(cards))
                    tapped = record_pass(page, dashboard, trump, cards)
                    clicks += clicked
                    taps += tapped
                    floors.append(sum(settled for _, settled in clicked))
                    deals.append(sum(settled for _, settled in tapped))
            finally:
                browser.close()
    floor_shown = _stats([shown for shown, _ in clicks])
    floor_settled = _stats([settled for _, settled in clicks])
    rows = []
    for stage, values, floor_figures in (
        ("record.tap_to_greyed", [g for g, _ in taps], floor_shown),
        ("record.tap_to_settled", [s for _, s in taps], floor_settled),
    ):
        figures = _stats(values)
        rows.append(
            {
                "stage": stage,
                "taps": len(values),
                **figures,
                "floor": "st.button page",
                "floor_median_ms": floor_figures["median_ms"],
                "floor_p95_ms": floor_figures["p95_ms"],
                "ratio": round(figures["median_ms"] / floor_figures["median_ms"], 1),
            }
        )
    deal_median = statistics.median(deals)
    floor_median = statistics.median(floors)
    rows.append(
        {
            "stage": "record.deal_32_taps",
            "taps": len(cards),
            "deals": len(deals),
            "median_s": round(deal_median, 2),
            "worst_s": round(max(deals), 2),
            "floor": "32 st.button clicks",
            "floor_median_s": round(floor_median, 2),
            "ratio": round(deal_median / floor_median, 1),
        }
    )
    return rows


def format_rows(rows: Sequence[dict[str, Any]]) -> str:
    """The rows as a fixed-width table."""
    head = f"{'stage':<24} {'taps':>5} {'median':>10} {'p95/worst':>10} {'floor':>10} {'floor p95':>10}"
    head += f" {'ratio':>7}"
    lines = [head]
    for row in rows:
        if "ratio" not in row:
            lines.append(f"{row['stage']:<24} {row.get('status', '')}: {row.get('reason', '')}")
        elif "median_ms" in row:
            lines.append(
                f"{row['stage']:<24} {row['taps']:>5} {row['median_ms']:>8} ms {row['p95_ms']:>7} ms "
                f"{row['floor_median_ms']:>7} ms {row['floor_p95_ms']:>7} ms {row['ratio']:>6}x"
            )
        else:
            lines.append(
                f"{row['stage']:<24} {row['taps']:>5} {row['median_s']:>9} s {row['worst_s']:>8} s "
                f"{row['floor_median_s']:>8} s {'':>10} {row['ratio']:>6}x"
            )
    return "\n".join(lines)


def main(argv: Sequence[str]) -> None:
    """``python -m bench.record_bench [PASSES] [--json]``."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.record_bench",
        description="Time taps on the Record page's card grid in Chromium against a plain st.button page.",
    )
    parser.add_argument("passes", nargs="?", type=int, default=3, help="deals recorded (32 taps each)")
    parser.add_argument("--json", action="store_true", help="print the rows as one JSON line")
    arguments = parser.parse_args(argv)
    rows = run(arguments.passes)
    print(json.dumps(rows) if arguments.json else format_rows(rows))


if __name__ == "__main__":
    main(sys.argv[1:])
