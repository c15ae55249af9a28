"""The dashboard's ASGI wrapper: the page document tells the browser where the server is."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.responses import HTMLResponse, PlainTextResponse
from starlette.routing import Route

from dashboards.asgi_app import BaseAddress

DOCUMENT = "<html><head><title>Streamlit</title></head><body></body></html>"


async def _page(request: object) -> HTMLResponse:
    return HTMLResponse(DOCUMENT)


async def _health(request: object) -> PlainTextResponse:
    return PlainTextResponse("ok")


APP = BaseAddress(
    Starlette(routes=[Route("/sql", _page), Route("/", _page), Route("/_stcore/health", _health)])
)


def get(path: str, **headers: str) -> tuple[dict[str, str], str]:
    """The response headers and body of ``GET path`` through the middleware."""
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

    asyncio.run(APP(scope, receive, send))
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


def test_a_server_with_its_own_url_prefix_is_left_to_streamlit(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``server.baseUrlPath`` set the server's paths carry the prefix: nothing is injected."""
    import dashboards.asgi_app as asgi_app

    real = asgi_app.st.get_option
    monkeypatch.setattr(
        asgi_app.st, "get_option", lambda name: "manillen" if name == "server.baseUrlPath" else real(name)
    )
    assert get("/sql", accept="text/html")[1] == DOCUMENT
