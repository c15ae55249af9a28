"""Start Streamlit for the dashboard, with the dashboard's libraries imported while it starts.

``manillen dashboard`` runs ``python dashboards/serve.py run dashboards/streamlit_app.py ...``.
Streamlit runs a page's script only once a browser session asks for it, so without this the
first visitor would wait for polars, DuckDB, Arrow, pandas and plotly to import (seconds on a
small machine). Here they import on a thread of their own while the server starts; a page that
needs a module still importing waits for it, as Python's import lock does. Once Streamlit's
runtime is up, the same thread has Plotly load what its figures need (:func:`dashboards.charts.warm`)
and fills the dashboard's caches with what each page shows first (:func:`dashboards.data.warm`),
so the first visitor of a page waits for no query either. It also starts the background review
(:mod:`dashboards.reviewer`), whose thread loads the compiled solver before its first match.

It also holds what each page document is served with (:class:`BaseAddress`, the middleware of
``dashboards/asgi_app.py``, and :class:`DefaultPageAddress`, which gives the first page the
address of its own the others have), in a module of its own: a process may build one ``st.App`` only,
and the page-load bench serves its bare page through the same middleware.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import json
import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PRELOADED = (
    # first: :func:`main` imports it before it starts the preload, so no thread sees another's
    # half-imported pandas (Plotly, which Streamlit imports, looks pandas up in sys.modules
    # without waiting for it) or half-imported Streamlit
    "streamlit",
    "pandas",
    "pyarrow",
    "polars",
    "duckdb",
    "PIL.Image",  # the tab's icon goes through Streamlit's image code, which imports it
    "dashboards.charts",
    "dashboards.cards",
    "dashboards.steps",
)
"""The modules every page needs, imported while the server starts, in this order."""
WITH_RUNTIME = ("dashboards.data", "dashboards.ui")
"""The modules that declare ``st.cache_data`` functions, imported once Streamlit's runtime exists:
declared before it, each logs "No runtime found, using MemoryCacheStorageManager" (harmless,
since the real cache is chosen at the first call, but a user starting the dashboard sees it)."""


# --------------------------------------------------------------------------- the page document

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

HOST_CONFIG_PATH = "/_stcore/host-config"
"""Streamlit's route for the host configuration, under the server's own prefix."""

_SCRIPT = (
    "<script>(() => {{ const seen = {seen}; const path = window.location.pathname;"
    " if (!path.endsWith(seen)) return;"
    " const base = window.location.origin + path.slice(0, path.length - seen.length) + '/';"
    " window.__streamlit = Object.assign({{}}, window.__streamlit, {{BACKEND_BASE_URL: base{extra}}});"
    " }})()</script>"
)
"""Sets the server's address from the page's: the browser's path less the page's own path below
the server (under a proxy that serves the dashboard at ``/manillen/`` the two differ by
``/manillen``), and with it the host configuration."""


LANGUAGE_PARAMETER = "lang"
"""The address's query parameter naming the page's language (``dashboards.ui.LANGUAGE_KEY``)."""

_LANGUAGE_SCRIPT = (
    "<script>(() => {{ const known = {known};"
    " const mark = () => {{ const asked = new URLSearchParams(window.location.search).get({parameter});"
    " document.documentElement.lang = known.includes(asked) ? asked : known[0]; }};"
    " for (const name of ['pushState', 'replaceState']) {{ const original = history[name];"
    " history[name] = function (...args) {{ const done = original.apply(this, args); mark();"
    " return done; }}; }}"
    " window.addEventListener('popstate', mark); mark(); }})()</script>"
)
"""Keeps ``<html lang>`` the page's language, which the address names (``?lang=nl``) and the
page changes without a reload when the language is switched: screen readers and the browser's
spelling and translation offers read it (Streamlit's page says ``en`` whatever is shown)."""


def language_script() -> bytes:
    """The ``<script>`` that keeps ``<html lang>`` the language the address names.

    >>> b'const known = ["en", "nl"]' in language_script()
    True
    """
    from dashboards.i18n import LANGUAGES

    return _LANGUAGE_SCRIPT.format(known=_json(list(LANGUAGES)), parameter=_json(LANGUAGE_PARAMETER)).encode()


FOCUS_SCRIPT = (
    b"<script>(() => { let kept = null;"
    b" const keyed = (element) => element && element.closest('[class*=\"st-key-\"]');"
    b" const keyOf = (holder) => holder"
    b" ? [...holder.classList].find((name) => name.startsWith('st-key-')) || null : null;"
    b" document.addEventListener('click', (event) => {"
    b" const button = event.detail === 0 && event.target.closest ? event.target.closest('button') : null;"
    b" const holder = keyed(button); const scope = holder ? keyed(holder.parentElement) : null;"
    b" kept = holder ? { button, scope: keyOf(scope),"
    b" index: scope ? [...scope.querySelectorAll('button')].indexOf(button) : 0, at: Date.now() } : null;"
    b" }, true);"
    b" const restore = () => { if (kept === null) return;"
    b" if (Date.now() - kept.at > 15000) { kept = null; return; }"
    b" const active = document.activeElement; const lost = !active || active === document.body"
    b" || (active === kept.button && (active.disabled || !active.isConnected));"
    b" if (!lost) { if (active !== kept.button) kept = null; return; }"
    b" const scope = kept.scope && document.querySelector('.' + CSS.escape(kept.scope));"
    b" const buttons = scope ? [...scope.querySelectorAll('button')] : [];"
    b" const after = buttons.slice(kept.index).find((b) => !b.disabled);"
    b" const before = buttons.slice(0, kept.index).reverse().find((b) => !b.disabled);"
    b" const next = after || before"
    b" || document.querySelector('.st-key-record_grid button:not(:disabled),"
    b" .st-key-record_calls button:not(:disabled)');"
    b" if (!next || next === active) return; kept.button = next; next.focus(); };"
    b" new MutationObserver(restore).observe(document.documentElement,"
    b" { subtree: true, childList: true, attributes: true, attributeFilter: ['disabled'] });"
    b" document.addEventListener('pointerdown', () => { kept = null; }, true); })()</script>"
)
"""Keeps the keyboard's place when a button pressed from the keyboard is disabled or drawn
again by the run it starts: the Record page greys out each card as it is entered, and the focus
fell back to the page's start, so a person recording with the keyboard or a screen reader had to
Tab through the whole page again for every card. The focus goes to the same button when it can
still be pressed, else to the next one of its keyed group (``st.container(key=...)``: the card
grid, the calls) that can, else the one before; when the group is gone (the trump is made and
the calls give way to the cards; Start gives way to the calls), to the first of the Record
page's card grid or calls (``record_grid``, ``record_calls``). A focused button that is disabled
counts as lost: the browser keeps it focused until a later change. Only a press from the
keyboard (a click whose ``detail`` is 0) is followed: a tap or a mouse click leaves the focus
where the browser puts it."""


PHONE_STYLE = (
    b"<style>@media (max-width: 640px) { h1 { font-size: 1.8rem !important; overflow-wrap: anywhere; } "
    b"h2 { font-size: 1.5rem !important; } h3 { font-size: 1.3rem !important; } "
    b'[data-testid="stMainBlockContainer"] { padding-top: 4rem !important; } '
    b'[data-testid="stMainBlockContainer"] [data-testid="stPageLink-NavLink"], '
    b'[data-testid="stMainBlockContainer"] [data-testid="stPageLink-NavLink"] * '
    b"{ white-space: normal !important; text-overflow: clip !important; overflow: visible !important; "
    b"height: auto !important; } } "
    b'@media (hover: none) { [data-testid="stCode"] > div:has([data-testid="stElementToolbarButton"]), '
    b'[data-testid="stCode"] > div:has([data-testid="stElementToolbarButton"]) * '
    b"{ opacity: 1 !important; visibility: visible !important; } } "
    b'[data-testid="stCaptionContainer"] { color: inherit !important; opacity: 0.78 !important; }</style>'
)
"""On a phone, a page's title at Streamlit's 2.75rem took three lines for a match's id ("Partij
2026-12-07-t-hoekske-izegem-1") and pushed the card table half a screen down: smaller there, an
id broken where it must be, and less of Streamlit's room above it. A link in the page (the
Match page's newest matches: "zwaan-2026-08-20-1 (2026-08-20: Griet & Ilse against ...") wraps
rather than end cut off before the players. In the page served, not a style element of every
page's run. A code block's copy button (the Record page's Share as text) shows without a mouse
over it: on a touch screen it stayed hidden until the block was tapped. A caption (the Match
page's explanation of a mistake, "Click a row ...") is the text's colour at 78%: Streamlit's 60%
gave 3.9:1 against white, under the 4.5:1 that small text needs to be read (the browser tests
measure it in the light and the dark theme)."""


def _json(value: object) -> str:
    """``value`` as JSON that cannot end the ``<script>`` it sits in."""
    return json.dumps(value).replace("<", "\\u003c")


def base_address_script(path: str, host_config: dict[str, Any] | None = None) -> bytes:
    """The ``<script>`` that tells a page at ``path`` (below the server) where the server is.

    :param path: the page's path below the server's own prefix (``/sql``; ``/`` for the first page).
    :param host_config: what the server answers at ``/_stcore/host-config``, given to the page too.

    >>> b"const seen = \\"/sql\\"" in base_address_script("/sql")
    True
    >>> b"</script><" in base_address_script("/</script><b>")
    False
    >>> b'HOST_CONFIG: {"allowedOrigins": []}' in base_address_script("/", {"allowedOrigins": []})
    True
    """
    extra = f", HOST_CONFIG: {_json(host_config)}" if host_config is not None else ""
    return _SCRIPT.format(seen=_json(path.rstrip("/")), extra=extra).encode()


def inject(document: bytes, script: bytes) -> bytes:
    """``document`` with ``script`` as the first element of its ``<head>`` (unchanged without one).

    >>> inject(b"<html><head><title>x</title></head></html>", b"<script></script>")
    b'<html><head><script></script><title>x</title></head></html>'
    """
    head = document.find(b"<head>")
    if head < 0:
        return document
    at = head + len(b"<head>")
    return document[:at] + script + document[at:]


def server_prefix() -> str:
    """The server's own prefix (``server.baseUrlPath``) as a path: ``""`` or ``/manillen``."""
    from streamlit import config

    prefix = str(config.get_option("server.baseUrlPath") or "").strip("/")
    return f"/{prefix}" if prefix else ""


async def _answer(app: ASGIApp, scope: Scope) -> tuple[int, bytes]:
    """The status and body ``app`` answers to the (GET) request ``scope``."""
    sent: list[Message] = []

    async def receive() -> Message:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Message) -> None:
        sent.append(message)

    await app(scope, receive, send)
    status = next((m.get("status", 500) for m in sent if m["type"] == "http.response.start"), 500)
    return int(status), b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


class BaseAddress:
    """ASGI middleware: the page document (``GET`` asking for HTML) gets :func:`base_address_script`.

    Only page documents are touched, served uncompressed (a few kilobytes); every other request,
    and the websocket, pass through as they are. The host configuration is asked of the app
    itself, once, the first time a page is served: it is whatever Streamlit would answer.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.host_config: dict[str, Any] | None = None

    async def _host_config(self, scope: Scope, prefix: str) -> dict[str, Any] | None:
        if self.host_config is None:
            path = prefix + HOST_CONFIG_PATH
            asked = {
                **scope,
                "path": path,
                "raw_path": path.encode(),
                "query_string": b"",
                "headers": [(k, v) for k, v in scope["headers"] if k in (b"host", b"user-agent")],
            }
            status, body = await _answer(self.app, asked)
            try:
                answer = json.loads(body) if status == 200 else None
            except ValueError:
                answer = None
            self.host_config = answer if isinstance(answer, dict) else None
        return self.host_config

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = dict(scope.get("headers") or [])
        prefix = server_prefix()
        path = str(scope.get("path", "/"))
        if (
            scope["type"] != "http"
            or scope.get("method") != "GET"
            or b"text/html" not in headers.get(b"accept", b"")
            or scope.get("root_path")
            or not (path == prefix or path.startswith(prefix + "/"))
        ):
            await self.app(scope, receive, send)
            return
        scope = dict(scope)
        scope["headers"] = [(k, v) for k, v in scope["headers"] if k != b"accept-encoding"]
        script = base_address_script(path[len(prefix) :] or "/", await self._host_config(scope, prefix))
        script += language_script() + FOCUS_SCRIPT + PHONE_STYLE
        start: Message | None = None
        body: list[bytes] = []

        async def send_injected(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                start = message
                return
            if message["type"] != "http.response.body" or start is None:
                await send(message)
                return
            body.append(message.get("body", b""))
            if message.get("more_body"):
                return
            document = b"".join(body)
            kept = [(k, v) for k, v in start.get("headers", []) if k.lower() != b"content-length"]
            content_type = dict(kept).get(b"content-type", b"")
            if start.get("status") == 200 and content_type.startswith(b"text/html"):
                document = inject(document, script)
            await send({**start, "headers": [*kept, (b"content-length", str(len(document)).encode())]})
            await send({"type": "http.response.body", "body": document})

        await self.app(scope, receive, send_injected)


DEFAULT_PAGE = "archive"
"""The url path of the page Streamlit serves at the root (``st.Page(..., default=True)``)."""


class DefaultPageAddress:
    """ASGI middleware: the default page's own address (``/archive``) opens it, at ``/``.

    Streamlit serves its default page at the root only: at ``/archive`` its frontend asks the
    server for a page of that name, finds none and says "Page not found" over the default page.
    Every other page has an address of its own, so this one answers a redirect to the root, the
    query string (``?lang=nl``) kept.
    """

    def __init__(self, app: ASGIApp, path: str = DEFAULT_PAGE) -> None:
        self.app = app
        self.path = path.strip("/")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        prefix = server_prefix()
        if (
            scope["type"] != "http"
            or scope.get("method") not in ("GET", "HEAD")
            or str(scope.get("path", "")).rstrip("/") != f"{prefix}/{self.path}"
        ):
            await self.app(scope, receive, send)
            return
        query = scope.get("query_string") or b""
        root = f"{scope.get('root_path') or ''}{prefix}/".encode()
        location = root + (b"?" + query if query else b"")
        await send({"type": "http.response.start", "status": 307, "headers": [(b"location", location)]})
        await send({"type": "http.response.body", "body": b""})


def page_middleware() -> list[Any]:
    """The middleware the dashboard's ``st.App`` is built with: ``st.App(script,
    middleware=page_middleware())`` (the page-load bench builds its bare page's the same way, so
    that its floor is served as the dashboard is). ``streamlit run`` finds an app only when the
    file assigns ``app = st.App(...)`` itself, so each file builds its own.

    Starlette is imported here, not with this module: the launcher starts its preload first.
    """
    from starlette.middleware import Middleware

    from dashboards.access import TokenGate

    # the gate first (outermost): nothing behind it answers a visitor without a token
    return [Middleware(TokenGate), Middleware(DefaultPageAddress), Middleware(BaseAddress)]


# --------------------------------------------------------------------------- the preload

RUNTIME_WAIT_SECONDS = 60.0
"""How long the warming waits for Streamlit's runtime before giving up (it never blocks serving)."""


def preload() -> None:
    """Import :data:`PRELOADED` and warm Plotly; once Streamlit's runtime exists, import
    :data:`WITH_RUNTIME`, fill the caches and compile the pages (:func:`keep_compiled`)."""
    for name in PRELOADED:
        importlib.import_module(name)
    from dashboards import charts

    charts.warm()
    from streamlit.runtime import Runtime

    deadline = time.monotonic() + RUNTIME_WAIT_SECONDS
    while not Runtime.exists():
        if time.monotonic() > deadline:
            return
        time.sleep(0.05)
    for name in WITH_RUNTIME:
        importlib.import_module(name)
    from dashboards import data

    _warm_streamlit()
    try:
        if _SERVING:
            start_review()
    except Exception:  # the pages then show no review state; serving goes on
        logging.getLogger("manillen.dashboard").warning("the background review did not start", exc_info=True)
    try:
        data.warm()
        from dashboards import drafts

        drafts.last_venue()  # the Record page's default venue
    except Exception:  # an archive that cannot be read is reported by the pages, in words
        logging.getLogger("manillen.dashboard").debug("warming the caches failed", exc_info=True)
    try:
        keep_compiled(getattr(Runtime.instance(), "_script_cache", None), SCRIPTS)
    except Exception:  # a page that does not compile is reported by Streamlit when it is opened
        logging.getLogger("manillen.dashboard").debug("compiling the pages failed", exc_info=True)


REVIEW_ENVIRONMENT = "MANILLEN_REVIEW"
"""Set to ``off`` to run the dashboard without its background review (the solver's costs then
come from ``manillen analyze --depth solver`` only)."""


_SERVING = False
"""Set by :func:`main`: this process is the dashboard's server, where the background review runs
(a test that calls :func:`preload` by itself starts none)."""


def start_review() -> None:
    """Start the background review (:mod:`dashboards.reviewer`): its thread first loads the
    compiled solver (one small deal solved), then reviews the archive's matches, newest first."""
    import os

    if os.environ.get(REVIEW_ENVIRONMENT, "").lower() in ("off", "0", "false", "no"):
        return
    from dashboards import reviewer

    reviewer.start()


def _warm_streamlit() -> None:
    """Have Streamlit do now what it does in the first script run after the server starts.

    The first element any script draws makes Streamlit check, once per process, whether it runs
    in a Python REPL (to print a warning): ``inspect.stack()`` on the script's thread, which
    resolves the path of every imported module, 0.3 s of the first visitor's page on this
    machine (cProfile of the server). Done here, on a thread with a short stack, the check finds
    the runtime running and prints nothing; later runs skip it. (A private function of
    Streamlit's, looked up: without it, the first visit pays as before.)
    """
    from streamlit import delta_generator

    check = getattr(delta_generator, "_maybe_print_use_warning", None)
    if callable(check):
        check()


SCRIPTS = (
    ROOT / "dashboards" / "streamlit_app.py",
    *sorted((ROOT / "dashboards" / "app_pages").glob("*.py")),
)
"""The scripts Streamlit runs for a tab: the entry point and every page."""


def keep_compiled(cache: Any, scripts: tuple[Path, ...]) -> bool:
    """Compile ``scripts`` into Streamlit's script cache now, and keep them there while the server runs.

    Streamlit drops its compiled scripts whenever no tab is open, so that a page edited since is
    compiled again; a person who opens the dashboard with no other tab of it open then waits for
    the entry point and the page to compile: 7 to 73 ms for the Deal replay in a running server on
    this machine (2026-12-04, other work beside it), 9 ms for the Record page on its own.
    ``manillen dashboard`` watches no files (``server.fileWatcherType none``), so an edited page
    takes a restart of the server. (Streamlit's runtime keeps the cache
    in a private attribute, looked up: without it, or without the cache's two methods, each tab
    compiles as before and this returns False.)

    :param cache: Streamlit's ``ScriptCache`` of the running server.
    """
    if not (callable(getattr(cache, "get_bytecode", None)) and callable(getattr(cache, "clear", None))):
        return False
    for script in scripts:
        cache.get_bytecode(str(script))
    cache.clear = lambda: None  # this one cache, for the server's lifetime
    return True


GRACEFUL_SHUTDOWN_SECONDS = 3
"""How long a stopping server (SIGTERM, Ctrl-C) lets the requests under way finish before it
ends them and stops."""


def bound_graceful_shutdown(seconds: int = GRACEFUL_SHUTDOWN_SECONDS) -> bool:
    """Have the server Streamlit starts (uvicorn) stop within ``seconds`` of being asked.

    Streamlit leaves uvicorn's graceful shutdown unbounded: a stopping server waits for every
    request under way to finish and every connection to close. A visitor whose browser asked for
    one of the larger scripts and stopped reading (a phone whose Wi-Fi dropped, a laptop closed)
    kept ``manillen dashboard`` from stopping at all; so did, now and then, connections a
    browser had just opened when the server was stopped (seen in the tests: a server waiting on
    three such connections for as long as it was let run). With the bound, what is under way
    after ``seconds`` is cancelled and the server stops. (Streamlit builds uvicorn's settings in
    a private function, looked up: without it the shutdown stays as Streamlit has it, and this
    returns False.)
    """
    from streamlit.web.server.starlette import starlette_server

    settings = getattr(starlette_server, "_get_uvicorn_config_kwargs", None)
    if not callable(settings):
        return False
    if getattr(settings, "graceful_shutdown_bound", None) == seconds:
        return True

    def bounded() -> dict[str, Any]:
        return {**settings(), "timeout_graceful_shutdown": seconds}

    bounded.graceful_shutdown_bound = seconds  # type: ignore[attr-defined]
    starlette_server._get_uvicorn_config_kwargs = bounded
    return True


REVIEW_STOP_SECONDS = 2.0
"""How long a stopping server waits for the background review to leave the step under way."""


def end_cleanly_on_stop_signals() -> None:
    """Have SIGTERM and SIGHUP (unless it is ignored, as ``nohup`` does) end the process as a
    return from ``main`` does, running what was
    registered to run at exit: the SQL page's worker processes are ended and its snapshots of
    the archive removed (:class:`~manillen_replay.store.console_pool.ConsolePool`).

    uvicorn stops the server on such a signal, then puts back the handler it found and raises
    the signal again; with Python's default handler that killed the process on the spot, and
    every snapshot stayed in the temporary folder. This handler is the one it finds.
    """

    def stop(_signum: int, _frame: object) -> None:
        review = sys.modules.get("dashboards.reviewer")  # loaded by a serving dashboard only
        if review is not None:
            review.stop_all(REVIEW_STOP_SECONDS)
        # what is registered to run at exit runs, then the process ends here: Python's own
        # finalisation unwound the daemon threads still in native code (DuckDB's, numba's), and
        # now and then the process aborted instead ("FATAL: exception not rethrown", exit -6)
        atexit._run_exitfuncs()
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        os._exit(0)

    def hang_up(_signum: int, _frame: object) -> None:
        signal.raise_signal(signal.SIGTERM)  # uvicorn stops on SIGTERM only: SIGHUP becomes one

    signal.signal(signal.SIGTERM, stop)
    # started by `nohup` (a club evening's laptop over ssh) a hang-up is to be ignored, and stays so
    if signal.getsignal(signal.SIGHUP) is not signal.SIG_IGN:
        signal.signal(signal.SIGHUP, hang_up)


def quiet_network_banner() -> None:
    """No look-up of this machine's address on the internet, and no address without a token.

    Served on every address, Streamlit asked checkip.amazonaws.com for the machine's external
    address at the start (for its banner) and again at every websocket opened from a foreign page
    (a fallback of its origin check, asked again whenever it found none): a dashboard at a club
    sends nothing out. Its banner printed Local and Network URLs, which answer 403 without a
    token, above the join address ``manillen dashboard`` prints: a volunteer shared the wrong one.
    The machine's network address stands in for the external one (it is allowed already)."""
    from streamlit import net_util
    from streamlit.web import bootstrap

    net_util._external_ip = net_util.get_internal_ip() or "127.0.0.1"
    bootstrap._print_url = lambda *_args, **_kwargs: None


def main() -> None:
    """Run Streamlit's command line (``streamlit run ...``) with the preload thread started."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    global _SERVING
    _SERVING = True
    # Streamlit whole before the preload starts: imported by two threads at once, a start of the
    # server failed now and then (one thread's import of Streamlit's package broke off in a
    # circular import of its submodules, and the other's ran the package again: "DeltaGenerator
    # Singleton instance already exists!"); the launcher needs it first anyway
    import streamlit  # noqa: F401

    threading.Thread(target=preload, name="manillen-preload", daemon=True).start()
    bound_graceful_shutdown()
    end_cleanly_on_stop_signals()
    quiet_network_banner()
    from streamlit.web import cli

    from dashboards.limits import upload_limits

    # the upload box names the Archive page's own limit, not Streamlit's 200 MB
    most_bytes, _ = upload_limits()
    upload = ["--server.maxUploadSize", str(max(1, -(-most_bytes // 2**20)))]
    cli.main(args=[*sys.argv[1:], *upload], prog_name="streamlit")


if __name__ == "__main__":
    main()
