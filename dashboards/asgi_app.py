"""The dashboard as Streamlit serves it for ``manillen dashboard``: ``st.App`` over the entry point.

``streamlit run dashboards/asgi_app.py`` finds :data:`app` and serves ``streamlit_app.py`` with one
addition, :class:`BaseAddress`. A page's address is a path (``/sql``, ``/replay``), and Streamlit's
page cannot tell whether that path is the page or the folder the server lives under: in each new
tab it first asks ``/sql/_stcore/health``, gets a 404, waits a tenth of a second and asks again at
``/``. Told where the server is (``window.__streamlit.BACKEND_BASE_URL``, Streamlit's setting for
pages served by a host), it connects at once. ``streamlit run dashboards/streamlit_app.py`` still
works; its tabs probe as before.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

import streamlit as st
from starlette.middleware import Middleware

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

_SCRIPT = (
    "<script>(() => {{ const seen = {seen}; const path = window.location.pathname;"
    " if (!path.endsWith(seen)) return;"
    " const base = window.location.origin + path.slice(0, path.length - seen.length) + '/';"
    " window.__streamlit = Object.assign({{}}, window.__streamlit, {{BACKEND_BASE_URL: base}});"
    " }})()</script>"
)
"""Sets the server's address from the page's: the browser's path less the path the server saw
(under a proxy that serves the dashboard at ``/manillen/`` the two differ by ``/manillen``)."""


def base_address_script(path: str) -> bytes:
    """The ``<script>`` that tells a page at server path ``path`` where the server is.

    >>> b"const seen = \\"/sql\\"" in base_address_script("/sql")
    True
    >>> b"</script><" in base_address_script("/</script><b>")
    False
    """
    seen = json.dumps(path.rstrip("/")).replace("<", "\\u003c")
    return _SCRIPT.format(seen=seen).encode()


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


class BaseAddress:
    """ASGI middleware: the page document (``GET`` asking for HTML) gets :func:`base_address_script`.

    Only page documents are touched, served uncompressed (a few kilobytes); every other request,
    and the websocket, pass through as they are.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = dict(scope.get("headers") or [])
        if (
            scope["type"] != "http"
            or scope.get("method") != "GET"
            or b"text/html" not in headers.get(b"accept", b"")
            or scope.get("root_path")
            or st.get_option("server.baseUrlPath")  # the server's own prefix: let Streamlit probe
        ):
            await self.app(scope, receive, send)
            return
        scope = dict(scope)
        scope["headers"] = [(k, v) for k, v in scope["headers"] if k != b"accept-encoding"]
        script = base_address_script(str(scope.get("path", "/")))
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


app = st.App(Path(__file__).resolve().parent / "streamlit_app.py", middleware=[Middleware(BaseAddress)])
"""The dashboard's ASGI app, found by ``streamlit run`` (see the module's description)."""
