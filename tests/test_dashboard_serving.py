"""The Streamlit settings ``manillen dashboard`` serves the pages with, what they rely on, and the
addresses its middleware answers itself."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from manillen_replay.cli.dashboard import APP, STREAMLIT_SETTINGS

PAGE_FILES = [APP, *sorted((APP.parent / "app_pages").glob("*.py"))]

SETTINGS_AS_STREAMLIT_READS_THEM = """
import json
import sys

from streamlit import config
from streamlit.web import bootstrap, cli

context = cli.main_run.make_context("run", ["page.py", *sys.argv[1:]])
flags = {k: v for k, v in context.params.items() if k not in ("target", "args")}
bootstrap.load_config_options(flag_options=flags)
names = ("runner.magicEnabled", "runner.postScriptGC", "server.fileWatcherType", "server.headless")
print(json.dumps({name: config.get_option(name) for name in names}))
"""


def test_streamlit_reads_the_settings_as_meant() -> None:
    """Streamlit's own command line takes every setting (a misspelt one would stop the server) and
    turns off magic and the full garbage collection after each run, as the comments say."""
    import json

    answer = subprocess.run(
        [sys.executable, "-c", SETTINGS_AS_STREAMLIT_READS_THEM, *STREAMLIT_SETTINGS],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    options = json.loads(answer.stdout.strip().splitlines()[-1])
    assert options == {
        "runner.magicEnabled": False,
        "runner.postScriptGC": False,
        "server.fileWatcherType": "none",
        "server.headless": True,
    }


def _magic_writes(tree: ast.Module) -> list[str]:
    """The statements Streamlit's magic would write to the page (as ``runner/magic.py`` picks
    them): bare expressions other than calls, docstrings, ``await`` and ``yield``, in the module
    and the functions' bodies (magic does not look into a class's own body)."""
    found = []

    def visit(body: list[ast.stmt], docstring_allowed: bool) -> None:
        for index, node in enumerate(body):
            if isinstance(node, ast.Expr):
                value = node.value
                docstring = index == 0 and docstring_allowed and isinstance(value, ast.Constant)
                if not (docstring or isinstance(value, ast.Call | ast.Await | ast.Yield | ast.YieldFrom)):
                    found.append(f"line {node.lineno}: {ast.unparse(node)[:60]}")
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                visit(node.body, True)
            elif isinstance(node, ast.ClassDef):
                for inner in node.body:
                    if isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef):
                        visit(inner.body, True)
            else:
                for field in ("body", "orelse", "finalbody"):
                    visit(getattr(node, field, None) or [], False)
                for clause in [*getattr(node, "handlers", []), *getattr(node, "cases", [])]:
                    visit(clause.body, False)

    visit(tree.body, True)
    return found


@pytest.mark.parametrize("page", PAGE_FILES, ids=lambda path: path.name)
def test_no_page_writes_through_magic(page: Path) -> None:
    """The server runs with magic off (``--runner.magicEnabled false``): a bare expression in a
    page would silently show nothing, so the pages write everything with ``st.*`` calls."""
    assert _magic_writes(ast.parse(page.read_text(encoding="utf-8"))) == []


def test_the_magic_check_finds_what_magic_would_write() -> None:
    source = (
        '"""Doc."""\nx = 1\nx\nif x:\n    "shown"\nst.write(x)\n'
        'with x:\n    def f():\n        """Doc."""\n        x\n'
        "try:\n    pass\nexcept ValueError:\n    x\n"
    )
    assert _magic_writes(ast.parse(source)) == ["line 3: x", "line 5: 'shown'", "line 10: x", "line 14: x"]


def _served(path: str, query: bytes = b"", method: str = "GET") -> tuple[int, dict[bytes, bytes], list[str]]:
    """What :class:`dashboards.serve.DefaultPageAddress` answers to a request, and what reached
    the app behind it."""
    import asyncio

    from dashboards.serve import DefaultPageAddress

    reached: list[str] = []
    sent: list[dict[str, Any]] = []

    async def app(scope: dict[str, object], receive: object, send: object) -> None:
        reached.append(str(scope["path"]))

    async def receive() -> dict[str, object]:
        return {"type": "http.request", "body": b""}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "method": method, "path": path, "query_string": query, "headers": []}
    asyncio.run(DefaultPageAddress(app)(scope, receive, send))
    start = next((m for m in sent if m["type"] == "http.response.start"), {"status": 0, "headers": []})
    return int(start["status"]), dict(start["headers"]), reached


def test_the_archive_page_s_own_address_leads_to_it() -> None:
    """Streamlit serves its first page at ``/`` only (``/archive`` said "Page not found"): its own
    address answers a redirect there, the language of the address kept; every other address
    reaches Streamlit as it was."""
    status, headers, reached = _served("/archive", b"lang=nl")
    assert (status, headers[b"location"], reached) == (307, b"/?lang=nl", [])
    assert _served("/archive/")[:2] == (307, {b"location": b"/"})
    for path in ("/", "/mistakes", "/archive.png", "/_stcore/health", "/archives"):
        assert _served(path)[2] == [path], path
    assert _served("/archive", method="POST")[2] == ["/archive"]


def test_every_page_stays_compiled_when_the_last_tab_closes() -> None:
    """Streamlit empties its script cache when no tab is open; the served dashboard keeps its pages."""
    from streamlit.runtime.scriptrunner.script_cache import ScriptCache

    from dashboards import serve

    assert [path.resolve() for path in serve.SCRIPTS] == [path.resolve() for path in PAGE_FILES]
    cache = ScriptCache()
    assert serve.keep_compiled(cache, serve.SCRIPTS)
    compiled = {path: cache.get_bytecode(str(path)) for path in serve.SCRIPTS}
    assert all(code.co_filename == str(path) for path, code in compiled.items())
    cache.clear()  # what Streamlit does when the last session ends
    assert all(cache.get_bytecode(str(path)) is code for path, code in compiled.items())
    other = ScriptCache()
    first = other.get_bytecode(str(APP))
    other.clear()  # another cache is not touched
    assert other.get_bytecode(str(APP)) is not first


def test_keeping_the_pages_compiled_gives_way_without_streamlit_s_cache() -> None:
    from dashboards import serve

    assert serve.keep_compiled(None, serve.SCRIPTS) is False


def test_the_server_s_graceful_shutdown_is_bounded_and_gives_way_without_streamlit_s_settings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The bound reaches uvicorn's own settings (which accept it); where Streamlit builds them in
    no function of that name, the server starts as Streamlit has it."""
    import uvicorn
    from streamlit.web.server.starlette import starlette_server

    from dashboards.serve import GRACEFUL_SHUTDOWN_SECONDS, bound_graceful_shutdown

    original = starlette_server._get_uvicorn_config_kwargs
    monkeypatch.setattr(starlette_server, "_get_uvicorn_config_kwargs", original)
    assert bound_graceful_shutdown() is True
    settings = starlette_server._get_uvicorn_config_kwargs()
    assert settings["timeout_graceful_shutdown"] == GRACEFUL_SHUTDOWN_SECONDS
    assert {k: v for k, v in settings.items() if k != "timeout_graceful_shutdown"} == original()
    config = uvicorn.Config(lambda scope, receive, send: None, **settings)
    assert config.timeout_graceful_shutdown == GRACEFUL_SHUTDOWN_SECONDS
    assert bound_graceful_shutdown() is True  # asked again: bound once, not wrapped twice
    assert starlette_server._get_uvicorn_config_kwargs() == settings
    monkeypatch.delattr(starlette_server, "_get_uvicorn_config_kwargs")
    assert bound_graceful_shutdown() is False


STOPPED_AS_UVICORN_STOPS = """
import asyncio, atexit, signal, sys
sys.path.insert(0, {root!r})
import uvicorn
from dashboards.serve import end_cleanly_on_stop_signals

signal.signal(signal.SIGHUP, signal.SIG_DFL)  # as from a terminal: the tests may run under nohup
end_cleanly_on_stop_signals()
atexit.register(lambda: print("cleaned up at exit", flush=True))

async def app(scope, receive, send):
    if scope["type"] == "lifespan":
        message = await receive()
        await send({{"type": "lifespan.startup.complete"}})
        signal.raise_signal(signal.{signal})  # as a service manager's stop, once serving
        await receive()
        await send({{"type": "lifespan.shutdown.complete"}})

uvicorn.Server(uvicorn.Config(app, port={port}, log_level="error")).run()
print("not reached: uvicorn raises the signal again", flush=True)
"""


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
def test_a_stopped_server_runs_what_was_registered_to_run_at_exit(name: str) -> None:
    """uvicorn stops on SIGTERM, then raises it again with the handler it found: with Python's
    default one the process died on the spot and the SQL page's snapshots of the archive stayed
    in the temporary folder. The dashboard's handler ends it as a return would, cleanly."""
    import socket

    with socket.socket() as probe:  # a free port for the server
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    root = str(Path(__file__).resolve().parent.parent)
    script = STOPPED_AS_UVICORN_STOPS.format(root=root, signal=name, port=port)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["cleaned up at exit"]


def test_a_dashboard_started_under_nohup_keeps_serving_through_a_hang_up(tmp_path: Path) -> None:
    """`nohup manillen dashboard ... &` (a club evening's laptop reached over ssh) died on the
    hang-up when the terminal closed: both the command and its server put their own handler over
    the ignored SIGHUP. An ignored hang-up stays ignored; SIGTERM still stops it."""
    import signal
    import socket
    import time
    import urllib.request

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-c", "from manillen_replay.cli import main; main()"]
    command += ["dashboard", "--db", str(tmp_path / "club.duckdb"), "--port", str(port)]

    def as_nohup() -> None:
        signal.signal(signal.SIGHUP, signal.SIG_IGN)

    def healthy() -> bool:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as answer:
                return answer.status == 200
        except OSError:
            return False

    log = tmp_path / "dashboard.log"
    process = subprocess.Popen(command, preexec_fn=as_nohup, stdout=subprocess.DEVNULL, stderr=log.open("w"))
    try:
        deadline = time.monotonic() + 90
        while not healthy():
            assert process.poll() is None and time.monotonic() < deadline, "the dashboard did not start"
            time.sleep(0.5)
        process.send_signal(signal.SIGHUP)
        time.sleep(3)
        assert process.poll() is None and healthy()
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0
        # the stop is in the log, as a service manager's journal keeps it (it looked like a crash)
        said = log.read_text()
        assert " SIGTERM: stopping the dashboard" in said and said.rstrip().endswith("the dashboard stopped")
    finally:
        if process.poll() is None:
            process.kill()
