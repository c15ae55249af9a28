"""The dashboard's ASGI wrapper: the page document tells the browser where the server is."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse
from starlette.routing import Route

from dashboards.serve import BaseAddress

DOCUMENT = "<html><head><title>Streamlit</title></head><body></body></html>"


async def _page(request: object) -> HTMLResponse:
    return HTMLResponse(DOCUMENT)


async def _health(request: object) -> PlainTextResponse:
    return PlainTextResponse("ok")


HOST_CONFIG = {"allowedOrigins": ["https://example.test"], "useExternalAuthToken": False}
ASKED: list[str] = []


async def _host_config(request: Any) -> JSONResponse:
    ASKED.append(request.url.path)
    return JSONResponse(HOST_CONFIG)


ROUTES = [
    Route("/sql", _page),
    Route("/", _page),
    Route("/_stcore/health", _health),
    Route("/_stcore/host-config", _host_config),
]
APP = BaseAddress(Starlette(routes=ROUTES))


def get(path: str, app: BaseAddress = APP, **headers: str) -> tuple[dict[str, str], str]:
    """The response headers and body of ``GET path`` through the middleware ``app``."""
    scope = {
        "type": "http",
        "method": "GET",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "scheme": "http",
        "server": ("127.0.0.1", 8501),
        "headers": [(k.replace("_", "-").encode(), v.encode()) for k, v in headers.items()],
    }
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    start, *bodies = sent
    assert start["status"] == 200
    body = b"".join(m.get("body", b"") for m in bodies)
    return {k.decode(): v.decode() for k, v in start["headers"]}, body.decode()


def test_a_page_document_names_the_path_the_server_saw() -> None:
    headers, text = get("/sql", accept="text/html", accept_encoding="gzip")
    head = text.split("<title>")[0]
    assert 'const seen = "/sql"' in head and "BACKEND_BASE_URL" in head
    assert text.endswith("<title>Streamlit</title></head><body></body></html>")
    assert int(headers["content-length"]) == len(text.encode())
    assert "content-encoding" not in headers


def test_the_root_document_names_an_empty_path() -> None:
    assert 'const seen = ""' in get("/", accept="text/html")[1]


def test_other_requests_pass_through_unchanged() -> None:
    assert get("/_stcore/health", accept="text/html")[1] == "ok"  # not HTML: as it was
    assert get("/sql", accept="*/*")[1] == DOCUMENT


def test_the_page_is_given_the_host_config_the_server_answers_asked_once() -> None:
    """With the server's address and its host config in the page, Streamlit's frontend opens its
    websocket at once instead of waiting for ``/_stcore/host-config`` (it still asks, in the
    background). The config is the app's own answer, asked the first time a page is served."""
    app = BaseAddress(Starlette(routes=ROUTES))
    ASKED.clear()
    for path in ("/sql", "/", "/sql"):
        head = get(path, app, accept="text/html")[1].split("<title>")[0]
        assert "HOST_CONFIG: " + json.dumps(HOST_CONFIG) in head
    assert ASKED == ["/_stcore/host-config"]


def test_no_host_config_is_given_when_the_server_has_none() -> None:
    app = BaseAddress(Starlette(routes=ROUTES[:3]))  # host-config answers 404
    head = get("/sql", app, accept="text/html")[1].split("<title>")[0]
    assert "BACKEND_BASE_URL: base}" in head and "HOST_CONFIG" not in head


def test_a_server_with_its_own_url_prefix_names_the_page_below_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``server.baseUrlPath`` set the server's paths carry the prefix: the page's path below
    it is what the browser's address ends with, and the host config is asked under the prefix."""
    import dashboards.serve as serve

    monkeypatch.setattr(serve, "server_prefix", lambda: "/manillen")
    prefixed = [Route("/manillen" + r.path, r.endpoint) for r in ROUTES]  # type: ignore[attr-defined]
    app = BaseAddress(Starlette(routes=[*prefixed, Route("/other", _page)]))
    ASKED.clear()
    head = get("/manillen/sql", app, accept="text/html")[1].split("<title>")[0]
    assert 'const seen = "/sql"' in head and "HOST_CONFIG" in head
    assert 'const seen = ""' in get("/manillen/", app, accept="text/html")[1]
    assert ASKED == ["/manillen/_stcore/host-config"]
    assert get("/other", app, accept="text/html")[1] == DOCUMENT  # outside the prefix: untouched


@pytest.mark.parametrize(("setting", "prefix"), [("", ""), ("manillen", "/manillen"), ("/a/b/", "/a/b")])
def test_the_server_prefix_is_streamlits_base_url_path(setting: str, prefix: str) -> None:
    from streamlit import config

    from dashboards.serve import server_prefix

    before = config.get_option("server.baseUrlPath")
    config.set_option("server.baseUrlPath", setting)
    try:
        assert server_prefix() == prefix
    finally:
        config.set_option("server.baseUrlPath", before)


def test_streamlit_run_finds_the_dashboards_app_and_the_benchs_floor(tmp_path: Path) -> None:
    """``streamlit run`` serves a file as an ASGI app only when its source assigns
    ``app = st.App(...)`` (found by reading it, not running it); otherwise it would run the file
    as a page script and show an empty page."""
    from streamlit.web.server.app_discovery import discover_asgi_app

    from bench.pages import FLOOR_APP
    from manillen_replay.cli.dashboard import SERVED

    floor = tmp_path / "floor_app.py"
    floor.write_text(FLOOR_APP.format(root="/nowhere"), encoding="utf-8")
    for path in (SERVED, floor):
        found = discover_asgi_app(path)
        assert found.is_asgi_app and found.app_name == "app", path


def test_the_preload_warms_what_a_first_visit_would_wait_for(monkeypatch: pytest.MonkeyPatch) -> None:
    """Once Streamlit's runtime is up, the preload thread fills the pages' caches (the Record
    page's default venue among them) and runs Streamlit's once-a-process REPL check, which a first
    visitor's script run would otherwise pay (0.3 s in cProfile of the server)."""
    from streamlit import delta_generator
    from streamlit.runtime import Runtime

    from dashboards import charts, data, drafts, serve

    warmed: list[str] = []
    monkeypatch.setattr(Runtime, "exists", staticmethod(lambda: True))
    monkeypatch.setattr(charts, "warm", lambda: warmed.append("plotly"))
    monkeypatch.setattr(data, "warm", lambda: warmed.append("caches"))
    monkeypatch.setattr(drafts, "last_venue", lambda: warmed.append("venue"))
    monkeypatch.setattr(delta_generator, "_use_warning_has_been_displayed", False)
    serve.preload()
    assert warmed == ["plotly", "caches", "venue"]
    assert delta_generator._use_warning_has_been_displayed  # the first run's check is done


def test_the_preload_compiles_every_page_into_the_runtime_s_script_cache(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The running server's script cache gets the entry point and every page before any tab asks."""
    from types import SimpleNamespace

    from streamlit.runtime import Runtime
    from streamlit.runtime.scriptrunner.script_cache import ScriptCache

    from dashboards import charts, data, drafts, serve

    cache = ScriptCache()
    monkeypatch.setattr(Runtime, "exists", staticmethod(lambda: True))
    monkeypatch.setattr(Runtime, "instance", classmethod(lambda cls: SimpleNamespace(_script_cache=cache)))
    for module, name in ((charts, "warm"), (data, "warm"), (drafts, "last_venue")):
        monkeypatch.setattr(module, name, lambda: None)
    serve.preload()
    assert sorted(cache._cache) == sorted(os.path.abspath(script) for script in serve.SCRIPTS)
    cache.clear()  # the last tab closed
    assert len(cache._cache) == len(serve.SCRIPTS)


def test_the_cached_data_modules_are_imported_only_once_the_runtime_exists(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Declared before Streamlit's runtime exists, every ``st.cache_data`` function logs "No
    runtime found, using MemoryCacheStorageManager" at the start of `manillen dashboard`: the
    preload imports the modules that declare them only once the runtime is up."""
    from streamlit.runtime import Runtime

    from dashboards import charts, data, drafts, serve

    started = {"runtime": False}
    imported: list[tuple[str, bool]] = []

    def runtime_exists() -> bool:
        was = started["runtime"]
        started["runtime"] = True  # the runtime starts while the preload waits
        return was

    monkeypatch.setattr(Runtime, "exists", staticmethod(runtime_exists))
    monkeypatch.setattr(
        serve.importlib, "import_module", lambda name: imported.append((name, started["runtime"]))
    )
    monkeypatch.setattr(serve.time, "sleep", lambda seconds: None)
    monkeypatch.setattr(charts, "warm", lambda: None)
    monkeypatch.setattr(data, "warm", lambda: None)
    monkeypatch.setattr(drafts, "last_venue", lambda: None)
    serve.preload()
    assert [name for name, _ in imported] == [*serve.PRELOADED, *serve.WITH_RUNTIME]
    assert all(running for name, running in imported if name in serve.WITH_RUNTIME)
    assert not any(running for name, running in imported if name in serve.PRELOADED)


SERVE_UNTIL_THE_PRELOAD = """
import sys, threading
sys.argv = ["serve.py", "run", "app.py"]
def start(thread):
    package = sys.modules.get("streamlit")
    whole = package is not None and not getattr(package.__spec__, "_initializing", False)
    print("streamlit whole" if whole else "streamlit not imported whole")
    raise SystemExit(0)
threading.Thread.start = start
from dashboards import serve
serve.main()
"""


def test_streamlit_is_imported_whole_before_the_preload_thread_starts() -> None:
    """Imported by the launcher and the preload thread at once, Streamlit's package could be run
    twice and the server not start ("DeltaGeneratorSingleton instance already exists!", seen
    once in a browser test's server): the launcher imports it before it starts the thread."""
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run(
        [sys.executable, "-c", SERVE_UNTIL_THE_PRELOAD], capture_output=True, text=True, cwd=root, check=True
    )
    assert done.stdout.strip() == "streamlit whole"


def test_the_language_script_reads_the_parameter_the_pages_write() -> None:
    """The page's ``<html lang>`` comes from the address's parameter that the language switch
    writes: one name for both."""
    from dashboards import ui
    from dashboards.serve import LANGUAGE_PARAMETER, language_script

    assert LANGUAGE_PARAMETER == ui.LANGUAGE_KEY
    assert f".get({json.dumps(ui.LANGUAGE_KEY)})".encode() in language_script()
