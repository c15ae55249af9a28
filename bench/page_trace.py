"""Where a page's time in a new tab goes: marks, scripts and the renderer's main thread.

An engineer's tool beside ``bench.pages`` (not part of ``make bench``): it opens, in turn, tabs
of the bare page (``bench.pages.FLOOR_PAGE``), the bare page with the dashboard's sidebar (the
same ``st.navigation``, icons, language switch and caption; no page content beyond the bare
page's), and dashboard pages, and reports for each the median of:

- marks, ms after the navigation began: the document's response, ``DOMContentLoaded``, the
  websocket created, open, its first message, the script running and done, the page drawn
  (``bench.pages.LOADED``, checked every 10 ms in the page);
- the scripts (JavaScript files) and fonts the tab loaded, and which the bare page did not;
- with ``--trace``: a Chrome performance trace of separate tabs, the renderer main thread's
  self time by kind of work (compiling and evaluating the bundle, running JavaScript, style and
  layout, paint, garbage collection) between the navigation and the page drawn.

Run: ``python -m bench.page_trace [--runs 5] [--trace]``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from bench.pages import (
    CHROMIUM,
    CHROMIUM_ARGS,
    FLOOR_APP,
    FLOOR_PAGE,
    LOADED,
    ROOT,
    dashboard,
    demo_archive,
    page_addresses,
)
from bench.record_bench import STREAMLIT_FLAGS, free_port, serving

NAV_PAGE = """
import sys

import streamlit as st

sys.path.insert(0, {root!r})
from dashboards import i18n

params = st.query_params
ICON = {icon!r}
if not params.get("noconfig"):
    st.set_page_config(page_title="Manillen replay", page_icon=ICON, layout="wide")
if params.get("langbutton"):
    st.sidebar.button("Nederlands", key="lang_other")
elif not params.get("noseg"):
    st.sidebar.segmented_control(
        "Language / Taal", i18n.LANGUAGES, format_func=i18n.LANGUAGE_NAMES.__getitem__,
        default="en", required=True, key="lang",
    )


def bare():
    st.title("Floor")
    st.write("A bare Streamlit page, served with the dashboard's settings.")
    st.button("Again", key="floor_again")
    st.caption("0 clicks")


def blank():
    st.text("blank")


icons = not params.get("noicons")
names = ["archive", "record", "match", "replay", "mistakes", "players", "sql", "annotations"]
marks = ["inventory_2", "edit_note", "show_chart", "playing_cards", "report", "groups", "database", "comment"]
pages = [
    st.Page(blank if params.get("blank") else bare, title=name.title(), url_path=name, default=i == 0,
            icon=f":material/{{mark}}:" if icons else None)
    for i, (name, mark) in enumerate(zip(names, marks))
]
page = st.navigation(pages, position="hidden" if params.get("nonav") else "sidebar")
if not params.get("nocaption"):
    st.sidebar.caption("Archive: bench/out/demo.duckdb")
page.run()
"""
"""The bare page's content under the dashboard's frame (``dashboards/streamlit_app.py``): the
page's configuration and icon, the language switch, eight pages with material icons and the
archive's caption. Query parameters take parts away: ``noconfig``, ``noseg``, ``langbutton``
(the language switch one button), ``noicons``, ``nocaption``, ``nonav`` (the navigation
hidden), ``blank`` (one line of text as the page's content)."""

MARKS = """() => {
  const marks = window.__marks = {};
  const now = () => performance.now();
  const Original = window.WebSocket;
  window.WebSocket = function (...args) {
    const socket = new Original(...args);
    marks.ws_created ??= now();
    socket.addEventListener('open', () => { marks.ws_open ??= now(); });
    let messages = 0;
    socket.addEventListener('message', () => {
      messages += 1;
      if (messages === 1) marks.ws_first_message ??= now();
      if (messages === 2) marks.ws_second_message ??= now();
      marks.ws_last_message = now();
      marks.ws_messages = messages;
    });
    return socket;
  };
  window.WebSocket.prototype = Original.prototype;
  Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
  new MutationObserver(() => {
    const app = document.querySelector('[data-testid="stApp"]');
    marks.app_mounted ??= app ? now() : undefined;
    const state = app && app.getAttribute('data-test-script-state');
    if (state === 'running') marks.script_running ??= now();
    if (marks.script_running !== undefined && state === 'notRunning') marks.script_done ??= now();
    if (document.querySelector('[data-testid="stSidebarNav"]')) marks.sidebar_nav ??= now();
    if (document.querySelector('[data-testid="stMain"] [data-testid="stElementContainer"]'))
      marks.first_element ??= now();
  }).observe(document, {attributes: true, subtree: true, childList: true});
  let tasks = 0, taskMs = 0;
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) { tasks += 1; taskMs += entry.duration; }
      marks.long_tasks = tasks; marks.long_task_ms = taskMs;
    }).observe({type: 'longtask', buffered: true});
  } catch (e) {}
  const loaded = LOADED_FUNCTION;
  const poll = () => {
    if (marks.drawn === undefined && loaded()) { marks.drawn = now(); return; }
    setTimeout(poll, 10);
  };
  poll();
}"""

COLLECT = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const resources = performance.getEntriesByType('resource').map((r) => ({
    name: r.name.split('/').pop().split('?')[0], type: r.initiatorType, start: r.startTime,
    end: r.responseEnd, size: r.decodedBodySize, transfer: r.transferSize,
  }));
  const paints = Object.fromEntries(performance.getEntriesByType('paint').map((p) => [p.name, p.startTime]));
  return {
    marks: {
      ...window.__marks,
      response_end: nav.responseEnd, dom_content_loaded: nav.domContentLoadedEventEnd,
      load: nav.loadEventEnd, first_paint: paints['first-paint'],
      first_contentful_paint: paints['first-contentful-paint'],
    },
    resources,
  };
}"""

ORDER = (
    "response_end",
    "dom_content_loaded",
    "ws_created",
    "ws_open",
    "ws_first_message",
    "ws_second_message",
    "app_mounted",
    "first_paint",
    "first_contentful_paint",
    "script_running",
    "sidebar_nav",
    "first_element",
    "script_done",
    "ws_last_message",
    "load",
    "net_first_sent",
    "net_last_received",
    "server_span",
    "drawn",
    "long_tasks",
    "long_task_ms",
)


@contextmanager
def floor_servers(folder: Path) -> Iterator[dict[str, str]]:
    """The bare page served as the dashboard is, the same without the middleware, and the bare
    page under the dashboard's sidebar (:data:`NAV_PAGE`), served as the dashboard is."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "floor_page.py").write_text(FLOOR_PAGE.format(root=str(ROOT)), encoding="utf-8")
    (folder / "floor_app.py").write_text(FLOOR_APP.format(root=str(ROOT)), encoding="utf-8")
    nav = folder / "nav"
    nav.mkdir(exist_ok=True)
    icon = str(ROOT / "dashboards" / "static" / "icon.svg")
    (nav / "floor_page.py").write_text(NAV_PAGE.format(root=str(ROOT), icon=icon), encoding="utf-8")
    (nav / "floor_app.py").write_text(FLOOR_APP.format(root=str(ROOT)), encoding="utf-8")
    scripts = {
        "bare": folder / "floor_app.py",
        "bare, plain serving": folder / "floor_page.py",
        "nav": nav / "floor_app.py",
    }
    addresses = {}
    with ExitStack() as stack:
        for name, script in scripts.items():
            port = free_port()
            command = [sys.executable, "-m", "streamlit", "run", str(script), "--server.port", str(port)]
            command += ["--server.address", "127.0.0.1", *STREAMLIT_FLAGS]
            addresses[name] = stack.enter_context(serving(command, port))
        yield addresses


def open_tab(context: Any, url: str, trace: Any = None, cpu: bool = False) -> dict[str, Any]:
    """One new tab of ``url``: its marks (ms), its resources and the seconds to drawn as the bench
    times it; with ``trace`` (the browser), a performance trace of the tab too; with ``cpu``, a
    sampling CPU profile of its main thread (ms not idle, and by script file)."""
    page = context.new_page()
    if trace is not None:
        trace.start_tracing(page=page, categories=TRACE_CATEGORIES)
    network = context.new_cdp_session(page)
    network.send("Network.enable")
    frames: list[tuple[str, float]] = []
    network.on(
        "Network.requestWillBeSent",
        lambda e: frames.append(("document", e["timestamp"])) if e.get("type") == "Document" else None,
    )
    network.on("Network.webSocketFrameSent", lambda e: frames.append(("out", e["timestamp"])))
    network.on("Network.webSocketFrameReceived", lambda e: frames.append(("in", e["timestamp"])))
    if cpu:
        session = context.new_cdp_session(page)
        session.send("Profiler.enable")
        session.send("Profiler.setSamplingInterval", {"interval": 250})
        session.send("Profiler.start")
    started = time.perf_counter()
    page.goto(url)
    page.wait_for_function(
        "() => window.__marks && window.__marks.drawn !== undefined", timeout=60_000, polling=20
    )
    seconds = time.perf_counter() - started
    profile = session.send("Profiler.stop")["profile"] if cpu else None
    page.wait_for_timeout(50)
    raw = trace.stop_tracing() if trace is not None else None
    result = page.evaluate(COLLECT)
    result["seconds"] = seconds
    # the websocket's frames as the network saw them (not when the busy page handled them): the
    # server's answer from the page's first message (its rerun request) to the last (script done)
    start = next((t for kind, t in frames if kind == "document"), None)
    sent = [t for kind, t in frames if kind == "out"]
    received = [t for kind, t in frames if kind == "in"]
    if start is not None and sent and received:
        result["marks"]["net_first_sent"] = (sent[0] - start) * 1000
        result["marks"]["net_last_received"] = (received[-1] - start) * 1000
        result["marks"]["server_span"] = (received[-1] - sent[0]) * 1000
    if raw is not None:
        result["main_thread"] = main_thread(json.loads(raw), result["marks"])
    if profile is not None:
        result["cpu"] = cpu_split(profile)
    page.close()
    return result


TRACE_CATEGORIES = [
    "devtools.timeline",
    "v8",
    "v8.execute",
    "blink",
    "blink.user_timing",
    "loading",
    "disabled-by-default-devtools.timeline",
    "toplevel",
]

GROUPS = {
    "compile scripts": ("v8.compile", "v8.compileModule", "V8.CompileCode", "v8.produceModuleCache"),
    "evaluate the bundle": ("v8.evaluateModule", "EvaluateScript"),
    "run JavaScript": (
        "FunctionCall",
        "v8.callFunction",
        "TimerFire",
        "EventDispatch",
        "FireAnimationFrame",
        "RunMicrotasks",
        "v8.run",
        "HandlePostMessage",
        "XHRReadyStateChange",
    ),
    "garbage collection": ("MinorGC", "MajorGC", "V8.GC_SCAVENGER", "BlinkGC.AtomicPhase"),
    "parse HTML and CSS": ("ParseHTML", "ParseAuthorStyleSheet"),
    "style and layout": ("UpdateLayoutTree", "Layout", "RecalculateStyles"),
    "paint": ("Paint", "PrePaint", "Layerize", "Commit", "UpdateLayer", "CompositeLayers"),
}
"""Trace events by the kind of work they are; an event inside another of these counts for the
outer one (a React render's layout inside JavaScript is JavaScript's), the rest of a task's time
is ``other`` (loading files, messages between processes, scheduling)."""

PHASES = (
    ("to DOMContentLoaded", "dom_content_loaded"),
    ("to first message", "ws_first_message"),
    ("to script done", "script_done"),
    ("to drawn", "drawn"),
)
"""The phases of a tab the main thread's busy time is split into, each ending at a mark."""


def main_thread(trace: dict[str, Any], marks: dict[str, float]) -> dict[str, float]:
    """The tab's renderer main thread from its navigation to ``drawn`` (ms): busy time by kind
    of work (:data:`GROUPS`) and by phase (:data:`PHASES`), ``busy`` in all, ``span`` the window."""
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    navigations = [
        e
        for e in events
        if e.get("name") == "navigationStart"
        and str(e.get("args", {}).get("data", {}).get("documentLoaderURL", "")).startswith("http")
    ]
    if not navigations:
        return {}
    navigation = navigations[-1]
    thread, origin = (navigation["pid"], navigation["tid"]), navigation["ts"]
    end = origin + marks["drawn"] * 1000
    spans = sorted(
        (
            e
            for e in events
            if (e.get("pid"), e.get("tid")) == thread
            and e.get("ph") == "X"
            and "dur" in e
            and origin <= e["ts"] < end
        ),
        key=lambda e: (e["ts"], -e["dur"]),
    )
    lookup = {name: group for group, names in GROUPS.items() for name in names}
    result: dict[str, float] = defaultdict(float)
    stack: list[tuple[float, str | None]] = []  # (end, group of the outermost grouped ancestor)
    for e in spans:
        while stack and stack[-1][0] <= e["ts"]:
            stack.pop()
        outer = stack[-1][1] if stack else None
        duration = min(e["dur"], end - e["ts"]) / 1000
        if not stack:  # a task of its own: busy time, in the phase it starts in
            result["busy"] += duration
            at = (e["ts"] - origin) / 1000
            phase = next((name for name, mark in PHASES if at < (marks.get(mark) or 0)), PHASES[-1][0])
            result[phase] += duration
        group = lookup.get(e["name"])
        if group is not None and outer is None:
            result[group] += duration
            outer = group
        stack.append((e["ts"] + e["dur"], outer))
    result["other"] = result["busy"] - sum(result[g] for g in GROUPS)
    result["span"] = marks["drawn"]
    return {key: round(value, 1) for key, value in result.items()}


def cpu_split(profile: dict[str, Any]) -> dict[str, float]:
    """A CPU profile's sampled time (ms) by script file, ``(program)`` (the browser's own work:
    style, layout, parsing, loading) and ``(garbage collector)``; ``busy`` is all but idle."""
    nodes = {node["id"]: node["callFrame"] for node in profile["nodes"]}
    split: dict[str, float] = defaultdict(float)
    for sample, delta in zip(profile["samples"], profile["timeDeltas"], strict=True):
        frame = nodes[sample]
        split[frame["url"].rsplit("/", 1)[-1] or frame["functionName"] or "(native)"] += delta / 1000
    split["busy"] = sum(v for k, v in split.items() if k != "(idle)")
    return dict(split)


def _median(values: list[float]) -> float | None:
    values = [v for v in values if v is not None]
    return round(statistics.median(values), 1) if values else None


def summary(tabs: list[dict[str, Any]]) -> dict[str, Any]:
    """The median marks, main-thread split and resources of the tabs of one page."""
    marks = {k: _median([t["marks"].get(k) for t in tabs]) for k in ORDER}
    marks["seconds"] = round(statistics.median(t["seconds"] for t in tabs), 3)
    cpus = [t["cpu"] for t in tabs if t.get("cpu")]
    threads = [t["main_thread"] for t in tabs if t.get("main_thread")]
    groups = sorted({g for t in threads for g in t})
    last = tabs[-1]["resources"]
    return {
        "marks": marks,
        "main_thread": {g: _median([t.get(g) for t in threads]) for g in groups} if threads else {},
        "cpu": {k: _median([c.get(k, 0.0) for c in cpus]) for k in {k for c in cpus for k in c}}
        if cpus
        else {},
        "scripts": sorted(r["name"] for r in last if r["name"].endswith(".js")),
        "script_kb": round(sum(r["size"] for r in last if r["name"].endswith(".js")) / 1024),
        "other": sorted(r["name"] for r in last if not r["name"].endswith(".js")),
    }


@contextmanager
def dashboard_with(archive: Path, flags: list[str], root: Path = ROOT) -> Iterator[str]:
    """The dashboard served as ``manillen dashboard`` serves it, with Streamlit ``flags`` added,
    from the checkout at ``root`` (another worktree's pages: the A/B of a code change)."""
    port = free_port()
    command = [
        sys.executable,
        str(root / "dashboards" / "serve.py"),
        "run",
        str(root / "dashboards" / "asgi_app.py"),
    ]
    command += ["--server.address", "127.0.0.1", "--server.port", str(port), *STREAMLIT_FLAGS, *flags]
    with serving(command, port, {"MANILLEN_DB": str(archive)}) as address:
        yield address


def run(
    runs: int,
    trace: bool,
    pages: list[str],
    variants: list[str],
    cpu: bool = False,
    flags: list[str] | None = None,
    b_root: Path | None = None,
    own_profile: bool = False,
) -> dict[str, Any]:
    """Tabs of each target in turn, ``runs`` rounds (one tab of each per round); with ``flags``,
    each dashboard page also from a second server started with those Streamlit flags added
    (``PAGE B``), the first started the same way without them (``PAGE A``); with ``b_root``, the
    second serves the pages of that checkout; with ``own_profile``, each target also in a browser
    with a profile on disk (``NAME (own profile)``), as a person's browser is."""
    flags = flags or ([] if b_root is None else ["--server.headless", "true"])
    from playwright.sync_api import sync_playwright

    load = [round(os.getloadavg()[0], 2)]
    folder = ROOT / "bench" / "out"
    archive = demo_archive(folder)
    addresses = page_addresses(archive)
    with (
        dashboard_with(archive, []) if flags else dashboard(archive) as server,
        dashboard_with(archive, flags, b_root or ROOT) if flags else dashboard(archive) as server_b,
        floor_servers(folder / "trace") as floors,
        sync_playwright() as playwright,
    ):
        targets = {
            "bare": f"{floors['bare']}/",
            "bare, plain serving": f"{floors['bare, plain serving']}/",
        }
        for variant in variants:
            targets[f"nav{'?' + variant if variant else ''}"] = (
                f"{floors['nav']}/{'?' + variant if variant else ''}"
            )
        for page in pages:
            if flags:
                targets[f"{page} A"] = f"{server}/{addresses[page]}"
                targets[f"{page} B"] = f"{server_b}/{addresses[page]}"
            else:
                targets[page] = f"{server}/{addresses[page]}"
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        init = MARKS.replace("LOADED_FUNCTION", LOADED)
        contexts = {}
        for name, url in targets.items():
            context = browser.new_context(viewport={"width": 1400, "height": 1000})
            context.add_init_script(f"({init})()")
            open_tab(context, url)  # fill the profile's HTTP cache, as the bench's profiles are
            contexts[name] = context
        if own_profile:
            # a browser with a profile on disk, as a person's is (the bench's are like private
            # windows): the same targets, visited a few times first, as a regular visitor has
            folder_of_profile = tempfile.mkdtemp(prefix="page-trace-profile-")
            kept = playwright.chromium.launch_persistent_context(
                folder_of_profile,
                executable_path=str(CHROMIUM),
                args=CHROMIUM_ARGS,
                viewport={"width": 1400, "height": 1000},
            )
            kept.add_init_script(f"({init})()")
            for name, url in list(targets.items()):
                for _ in range(3):
                    open_tab(kept, url)
                targets[f"{name} (own profile)"] = url
                contexts[f"{name} (own profile)"] = kept
        tabs: dict[str, list[dict[str, Any]]] = defaultdict(list)
        traced: dict[str, list[dict[str, Any]]] = defaultdict(list)
        shuffle = random.Random(14)
        for _ in range(runs):  # each round in an order of its own: no target always follows another
            order = list(targets.items())
            shuffle.shuffle(order)
            for name, url in order:
                tabs[name].append(open_tab(contexts[name], url, cpu=cpu))
        if trace:
            for _ in range(max(1, runs // 2)):
                for name, url in targets.items():
                    traced[name].append(open_tab(contexts[name], url, trace=browser))
        if own_profile:
            kept.close()
            shutil.rmtree(folder_of_profile, ignore_errors=True)
        browser.close()
    load.append(round(os.getloadavg()[0], 2))
    result = {"load_average": load, "runs": runs, "targets": {}}
    for name in targets:
        row = summary(tabs[name])
        row["seconds_each"] = [round(t["seconds"], 3) for t in tabs[name]]
        # each tab over the bare page's tab of the same round: the pair waited on the same load
        row["vs_bare"] = round(
            statistics.median(
                t["seconds"] / b["seconds"] for t, b in zip(tabs[name], tabs["bare"], strict=True)
            ),
            3,
        )
        if trace:
            row["main_thread"] = summary(traced[name])["main_thread"]
            row["traced_marks"] = summary(traced[name])["marks"]
        result["targets"][name] = row
    return result


def format_result(result: dict[str, Any]) -> str:
    """Marks (ms) of each target as columns, then the main thread's split, then the extra scripts."""
    names = list(result["targets"])
    rows = [("mark (ms)", *names)]
    for key in (*ORDER, "seconds"):
        rows.append((key, *(_cell(result["targets"][n]["marks"].get(key)) for n in names)))
    if any(result["targets"][n]["main_thread"] for n in names):
        groups = sorted({g for n in names for g in result["targets"][n]["main_thread"]})
        rows.append(("main thread (ms)", *([""] * len(names))))
        for g in groups:
            rows.append((g, *(_cell(result["targets"][n]["main_thread"].get(g)) for n in names)))
    if any(result["targets"][n].get("cpu") for n in names):
        top = sorted({k for n in names for k, v in result["targets"][n]["cpu"].items() if v and v >= 15})
        rows.append(("CPU profile (ms)", *([""] * len(names))))
        for k in sorted(top, key=lambda k: -(result["targets"]["bare"]["cpu"].get(k) or 0)):
            rows.append((k[:40], *(_cell(result["targets"][n]["cpu"].get(k)) for n in names)))
    rows.append(("vs bare (median of rounds)", *(f"{result['targets'][n]['vs_bare']:.2f}" for n in names)))
    rows.append(("scripts", *(str(len(result["targets"][n]["scripts"])) for n in names)))
    rows.append(("script KB", *(str(result["targets"][n]["script_kb"]) for n in names)))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = [
        "  ".join(
            c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True))
        )
        for r in rows
    ]
    for n in names:
        if n.endswith(" A") and f"{n[:-2]} B" in result["targets"]:
            a, b = result["targets"][n]["seconds_each"], result["targets"][f"{n[:-2]} B"]["seconds_each"]
            ratios = [x / y for x, y in zip(a, b, strict=True)]
            lines.append(
                f"{n[:-2]}: A/B of each round, median {statistics.median(ratios):.3f}, A faster in "
                f"{sum(r < 1 for r in ratios)} of {len(ratios)}; median A {statistics.median(a):.3f} s, "
                f"B {statistics.median(b):.3f} s"
            )
    bare = set(result["targets"]["bare"]["scripts"])
    for n in names:
        extra = sorted(set(result["targets"][n]["scripts"]) - bare)
        lines.append(f"{n}: scripts beyond the bare page's ({len(extra)}): {', '.join(extra)}")
        lines.append(f"{n}: other files: {', '.join(result['targets'][n]['other'])}")
    lines.append(
        f"load average (1 min) at start and end: {result['load_average']}; tabs per target: {result['runs']}"
    )
    return "\n".join(lines)


def _cell(value: float | None) -> str:
    return "-" if value is None else f"{value:g}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.page_trace", description=__doc__)
    parser.add_argument("--runs", type=int, default=5, help="tabs of each target, taken in turn")
    parser.add_argument("--trace", action="store_true", help="also trace the renderer's main thread")
    parser.add_argument("--pages", default="replay,match,annotations", help="dashboard pages, by key")
    parser.add_argument(
        "--variants",
        default=",noicons=1,noseg=1,blank=1",
        help="variants of the bare page with the sidebar (query strings; empty: all of it)",
    )
    parser.add_argument("--cpu", action="store_true", help="a CPU profile of every timed tab")
    parser.add_argument("--flags", default="", help="Streamlit flags of a second dashboard server (A/B)")
    parser.add_argument("--b-root", type=Path, help="serve B from this checkout (a worktree of other code)")
    parser.add_argument(
        "--own-profile", action="store_true", help="each target also in a browser with a profile on disk"
    )
    parser.add_argument("--json", type=Path, help="also write the result here")
    arguments = parser.parse_args(argv)
    variants = arguments.variants.split(",") if arguments.variants != "-" else []
    pages = [p for p in arguments.pages.split(",") if p]
    result = run(
        arguments.runs,
        arguments.trace,
        pages,
        variants,
        arguments.cpu,
        arguments.flags.split(),
        arguments.b_root,
        arguments.own_profile,
    )
    if arguments.json:
        arguments.json.write_text(json.dumps(result, indent=1), encoding="utf-8")
    print(format_result(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
