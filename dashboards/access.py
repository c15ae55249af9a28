"""Who is visiting the dashboard, and what they may do: the organiser, a table's recorder, a viewer.

Served on this computer only (``manillen dashboard`` without ``--host``) the one visitor is the
organiser. Served beyond it, a visitor's token decides the role (see ``manillen dashboard --help``
and :mod:`manillen_replay.access`, which keeps the tokens).

Two guards, one decision: :class:`TokenGate`, the ASGI middleware in front of Streamlit, answers
no request, file or websocket without a valid token (from ``?token=`` in the join address, then
from the HttpOnly cookie it sets) and refuses uploads to everyone but the organiser; in a page,
:func:`current_visitor` asks the same token file who the session's cookie belongs to, so a token
revoked while a tab is open stops that tab at its next rerun.
"""

from __future__ import annotations

import functools
import logging
import os
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from http.cookies import CookieError, SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, quote, unquote, urlencode, urlsplit

from manillen_replay.access import (
    COOKIE,
    ORGANISER,
    QUERY,
    REQUIRED_ENVIRONMENT,
    TOKEN_ENVIRONMENT,
    TOKEN_MIN,
    AccessRefusedError,
    Gate,
    Issued,
    Role,
    Visitor,
    is_loopback,
    issue,
    lan_address,
    qr_svg,
    read_issued,
    revoke,
    token_file,
)

__all__ = [
    "LOCAL_VISITOR",
    "AccessRefusedError",
    "Role",
    "TokenGate",
    "Visitor",
    "admit",
    "current_visitor",
    "issue_token",
    "issued_tokens",
    "join_address_here",
    "organiser_join_address",
    "qr_svg",
    "require_organiser",
    "revoke_table",
    "revoke_token",
]

LOCAL_VISITOR = ORGANISER
"""The one visitor of a dashboard served on this computer only."""
NOBODY = Visitor(Role.VIEWER)
"""What :func:`current_visitor` answers for a session whose token no longer opens anything (it
may do least; :func:`admit` stops such a session's pages before they run)."""
COOKIE_SECONDS = 7 * 24 * 3600
"""How long a browser keeps the token's cookie: a week of club evenings (revoking ends it sooner)."""
HEALTH = "/_stcore/health"
"""The one route answered without a token: it says ``ok`` and nothing else (a proxy's health check)."""
UPLOAD = "/_stcore/upload_file"
"""Streamlit's upload route: the organiser's only."""
METRICS = "/_stcore/metrics"
"""Streamlit's server metrics (sessions connected, the name and size of every cache): nothing
a page needs, and a viewer's token read who else was connected; the organiser's only."""

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def access_required() -> bool:
    """Whether every visitor must bring a token: ``manillen dashboard --host`` beyond this computer
    (or ``--token``) says so, and so does a Streamlit server told to listen beyond it."""
    if os.environ.get(REQUIRED_ENVIRONMENT, "").lower() == "token":
        return True
    try:
        from streamlit import config

        address = config.get_option("server.address")
    except Exception:  # no Streamlit configuration: not a server
        return False
    return bool(address) and not is_loopback(str(address))


@functools.cache
def _gate(organiser: str | None, path: Path) -> Gate:
    return Gate(organiser, path)


def server_gate() -> Gate:
    """The gate of this server: the organiser's token it was started with, the archive's token file.
    A chosen token shorter than :data:`~manillen_replay.access.TOKEN_MIN` opens nothing (``manillen
    dashboard`` refuses to start with one; ``streamlit run`` by hand served behind it)."""
    from dashboards.data import archive_path

    chosen = os.environ.get(TOKEN_ENVIRONMENT) or None
    if chosen is not None and len(chosen) < TOKEN_MIN:
        logging.getLogger(__name__).error(
            "$%s is shorter than the %d characters a token needs to be a lock (%d): it opens nothing",
            TOKEN_ENVIRONMENT, TOKEN_MIN, len(chosen),
        )  # fmt: skip
        chosen = None
    return _gate(chosen, token_file(archive_path().resolve()))


def cookie_name(port: int | None = None) -> str:
    """The cookie that keeps this server's token, one per port: a browser keeps cookies per host,
    not per port, and two dashboards on one computer (8501 and 8502) must not overwrite or clear
    each other's.

    >>> cookie_name(8502)
    'manillen_token_8502'
    """
    if port is None:
        try:
            from streamlit import config

            port = int(config.get_option("server.port"))
        except Exception:  # no Streamlit configuration: its default port
            port = 8501
    return f"{COOKIE}_{port}"


def session_token() -> str | None:
    """The token of the running Streamlit session: the cookie its websocket was opened with."""
    import streamlit as st

    try:
        kept = st.context.cookies.get(cookie_name())
    except Exception:  # no session's context (a test's bare script run)
        return None
    # written quoted (cookie_header): a token of the organiser's own choosing may hold any sign
    return None if kept is None else unquote(kept)


def _in_session() -> bool:
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    return get_script_run_ctx(suppress_warning=True) is not None


def session_visitor() -> Visitor | None:
    """The visitor of the running session; ``None`` when its token opens nothing (any more)."""
    if not access_required() or not _in_session():
        return LOCAL_VISITOR  # this computer only, or the server's own work (warming, the review)
    return server_gate().visitor(session_token())


def current_visitor() -> Visitor:
    """The visitor of the running Streamlit session (the organiser when served on this computer only)."""
    return session_visitor() or NOBODY


def require_organiser(action: str) -> None:
    """Refuse ``action`` unless the session's visitor is the organiser: the check that runs in
    the code that does it (SQL, an import, a deletion), whatever a page shows.

    :raises AccessRefusedError: naming the action.
    """
    if not current_visitor().is_organiser:
        raise AccessRefusedError(f"only the organiser may {action}")


def admit() -> Visitor:
    """The session's visitor, or the page stopped with why (a revoked or missing token)."""
    visitor = session_visitor()
    if visitor is None:
        import streamlit as st

        st.error(refused_text())  # a revoked table's phone reads it
        st.stop()
    return visitor


def refused_text() -> str:
    """Why a token no longer opens the dashboard, in the page's language."""
    from dashboards import ui

    return REFUSED_TEXT_NL if ui.lang() == "nl" else REFUSED_TEXT


# --------------------------------------------------------------------------- for the Organiser page


def join_address_here(token: str, page: str = "", params: Mapping[str, str] | None = None) -> str:
    """The join address of this dashboard as the visitor's browser reached it (its scheme, host,
    port and the server's own prefix), with ``token``: what a phone at the same wifi opens.

    :param page: the page's url path (``record`` for a recorder), ``""`` for the first page.
    :param params: the page's own address parameters (``draft``, ``evening``), kept in the
        address the gate redirects to once it took the token.
    """
    import streamlit as st

    from dashboards.serve import server_prefix

    try:
        url = st.context.url or ""
    except Exception:  # no session's context
        url = ""
    origin = (
        "/".join(url.split("/")[:3]) if url.startswith(("http://", "https://")) else "http://127.0.0.1:8501"
    )
    origin = reachable_origin(origin, _listening_on())
    before = urlencode(dict(params)) + "&" if params else ""
    return f"{origin}{server_prefix()}/{page}?{before}{QUERY}={quote(token, safe='')}"


def _listening_on() -> str:
    try:
        from streamlit import config

        return str(config.get_option("server.address") or "")
    except Exception:  # no Streamlit configuration
        return ""


def reachable_origin(origin: str, listening_on: str) -> str:
    """The origin a phone on the same wifi reaches: a page opened on the server's own computer
    (``http://localhost:8501``) names this computer by its network address instead, when the
    server listens beyond it.

    >>> reachable_origin("http://192.168.1.20:8501", "0.0.0.0")
    'http://192.168.1.20:8501'
    >>> reachable_origin("http://127.0.0.1:8501", "127.0.0.1")  # this computer only: as it is
    'http://127.0.0.1:8501'
    """
    parts = urlsplit(origin)
    host = parts.hostname or ""
    if not is_loopback(host) or not listening_on or is_loopback(listening_on):
        return origin
    found = lan_address() if listening_on in ("0.0.0.0", "::") else listening_on
    if is_loopback(found):
        return origin
    shown = f"[{found}]" if ":" in found else found
    return f"{parts.scheme}://{shown}" + (f":{parts.port}" if parts.port else "")


def organiser_join_address() -> str | None:
    """The organiser's join address for this run (``None`` when no token is asked, or to anyone
    but the organiser): to show as a QR code (:func:`qr_svg`) on the Organiser page."""
    token = os.environ.get(TOKEN_ENVIRONMENT)
    if not token or not access_required() or not current_visitor().is_organiser:
        return None
    return join_address_here(token)


def _token_file() -> Path:
    from dashboards.data import archive_path

    return token_file(archive_path().resolve())


def issued_tokens() -> list[Issued]:
    """The tokens the organiser issued (never the tokens themselves: their keys, roles, tables).

    :raises AccessRefusedError: to anyone but the organiser.
    :raises AccessError: when the token file is not one.
    """
    require_organiser("list the tokens")
    return read_issued(_token_file())


def issue_token(role: Role, table: str | None = None, note: str = "") -> tuple[str, Issued]:
    """Issue a recorder's or a viewer's token from a page (``manillen tokens issue``): the token is
    shown once, with :func:`join_address_here` and its QR code.

    :raises AccessRefusedError: to anyone but the organiser.
    :raises AccessError: as :func:`manillen_replay.access.issue` does.
    """
    require_organiser("issue tokens")
    return issue(_token_file(), role, table, note)


def revoke_token(key: str) -> Issued:
    """Revoke an issued token from a page (``manillen tokens revoke``).

    :raises AccessRefusedError: to anyone but the organiser.
    :raises AccessError: when no issued token has that key.
    """
    require_organiser("revoke tokens")
    return revoke(_token_file(), key)


def revoke_table(table: str) -> list[Issued]:
    """Revoke every recorder's token of ``table`` at once (``manillen tokens revoke --table``).

    :raises AccessRefusedError: to anyone but the organiser.
    :raises AccessError: when the token file is not one.
    """
    require_organiser("revoke tokens")
    path = _token_file()
    return [revoke(path, t.key) for t in read_issued(path) if t.table == table]


# --------------------------------------------------------------------------- the middleware

REFUSED_TEXT = (
    "This dashboard is open to the club only, and your token does not open it (any more). "
    "Open the join address the organiser gives you: it ends in ?token=..."
)
REFUSED_TEXT_NL = (
    "Dit dashboard is alleen voor de club open, en uw token opent het niet (meer). Open het adres "
    "dat de organisator u geeft: het eindigt op ?token=..."
)
REFUSED_PAGE = (
    "<!doctype html><html lang=en><meta charset=utf-8><meta name=viewport "
    "content='width=device-width'><title>Manillen: a token is needed</title>"
    f"<body style='font-family:sans-serif;max-width:36em;margin:2em auto'><p>{REFUSED_TEXT}</p>"
    f"<p lang=nl>{REFUSED_TEXT_NL}</p>"
).encode()
ORGANISER_ONLY_PAGE = b"only the organiser may do this"


def _cookie_token(scope: Scope, name: str) -> str | None:
    header = b"; ".join(v for k, v in scope.get("headers") or [] if k == b"cookie")
    if not header:
        return None
    try:
        jar: SimpleCookie = SimpleCookie(header.decode("latin-1"))
    except CookieError:
        return None
    morsel = jar.get(name)
    return unquote(morsel.value) if morsel is not None else None


def _query(scope: Scope) -> list[tuple[str, str]]:
    return parse_qsl((scope.get("query_string") or b"").decode("latin-1"), keep_blank_values=True)


def _is_https(scope: Scope) -> bool:
    headers = dict(scope.get("headers") or [])
    forwarded = headers.get(b"x-forwarded-proto", b"").split(b",")[0].strip().lower()
    return scope.get("scheme") in ("https", "wss") or forwarded == b"https"


def cookie_header(token: str, *, secure: bool, clear: bool = False, name: str | None = None) -> bytes:
    """The ``Set-Cookie`` that keeps (or clears) a token: HttpOnly, so no script reads it; SameSite
    Lax, so another site's page cannot send it with its requests.

    >>> cookie_header("abc", secure=True, name="manillen_token_8501").decode()
    'manillen_token_8501=abc; Path=/; Max-Age=604800; HttpOnly; SameSite=Lax; Secure'
    """
    age = 0 if clear else COOKIE_SECONDS
    value = "" if clear else quote(token, safe="-_.~")
    text = f"{name or cookie_name()}={value}; Path=/; Max-Age={age}; HttpOnly; SameSite=Lax" + (
        "; Secure" if secure else ""
    )
    return text.encode("latin-1")


class TokenGate:
    """ASGI middleware: without a valid token no route, file, upload or websocket answers.

    The token comes from the address (``?token=``, the join address; a page asked with it is
    answered with a redirect to the same address without it, and a cookie holding it) or else
    from that cookie. Only :data:`HEALTH` answers without one. Uploads and the server's metrics
    are refused to every visitor but the organiser. On a dashboard served on this computer only,
    it lets everything by.

    :param gate: who a token belongs to (default: :func:`server_gate`, made at the first request).
    :param required: whether a token is needed (default: :func:`access_required`).
    """

    def __init__(self, app: ASGIApp, gate: Gate | None = None, required: bool | None = None) -> None:
        self.app = app
        self._gate = gate
        self._required = required

    @functools.cached_property
    def required(self) -> bool:
        """Asked at the first request, as :attr:`cookie` is: ``streamlit run ... --server.address``
        may be read after the middleware is built."""
        return access_required() if self._required is None else self._required

    @functools.cached_property
    def cookie(self) -> str:
        """This server's cookie name, asked at the first request: by then Streamlit has read the
        port from its command line (the middleware may be built before)."""
        return cookie_name()

    @property
    def gate(self) -> Gate:
        if self._gate is None:
            self._gate = server_gate()
        return self._gate

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket") or not self.required:
            await self.app(scope, receive, send)
            return
        from dashboards.serve import server_prefix

        prefix = server_prefix()
        path = str(scope.get("path", "/"))
        below = path[len(prefix) :] if path.startswith(prefix) else path
        if kind == "http" and below == HEALTH:
            await self.app(scope, receive, send)
            return
        query = _query(scope)
        asked = [v for k, v in query if k == QUERY]
        rest = [(k, v) for k, v in query if k != QUERY]
        page = kind == "http" and scope.get("method") in ("GET", "HEAD")
        visitor = self.gate.visitor(asked[-1]) if asked else None
        if visitor is not None and page:
            await self._keep_and_redirect(scope, send, rest, token=asked[-1])
            return
        if visitor is None:
            # a link with a wrong token leaves the visitor signed in as they were: a valid cookie was
            # cleared by any such link posted anywhere, an organiser logged out by a click
            visitor = self.gate.visitor(_cookie_token(scope, self.cookie))
            if visitor is not None and asked and page:
                await self._keep_and_redirect(scope, send, rest, token=None)
                return
        if visitor is None:
            await self._refuse(scope, receive, send, REFUSED_PAGE, clear_cookie=True)
            return
        if below.startswith((UPLOAD, METRICS)) and not visitor.is_organiser:
            await self._refuse(scope, receive, send, ORGANISER_ONLY_PAGE, clear_cookie=False)
            return
        await self.app(scope, receive, send)

    async def _keep_and_redirect(
        self, scope: Scope, send: Send, rest: list[tuple[str, str]], *, token: str | None
    ) -> None:
        """Send the browser to the same page without the token in its address; with ``token``,
        kept in the cookie."""
        raw = scope.get("raw_path") or quote(str(scope.get("path", "/"))).encode()
        # one slash in front: "//evil.example/" (or "/\\evil.example") is another site to a browser
        path = b"/" + bytes(raw).split(b"?")[0].lstrip(b"/\\")
        location = (scope.get("root_path") or "").encode() + path
        if rest:
            location += b"?" + urlencode(rest).encode("latin-1")
        headers = [
            (b"location", location),
            (b"cache-control", b"no-store"),
            (b"referrer-policy", b"no-referrer"),
            (b"content-length", b"0"),
        ]
        if token is not None:
            headers.append((b"set-cookie", cookie_header(token, secure=_is_https(scope), name=self.cookie)))
        await send({"type": "http.response.start", "status": 303, "headers": headers})
        await send({"type": "http.response.body", "body": b""})

    async def _refuse(
        self, scope: Scope, receive: Receive, send: Send, body: bytes, *, clear_cookie: bool
    ) -> None:
        if scope["type"] == "websocket":
            await receive()  # websocket.connect; closing before accepting answers the handshake 403
            await send({"type": "websocket.close", "code": 1008})
            return
        content_type = (
            b"text/html; charset=utf-8" if body.startswith(b"<!doctype") else b"text/plain; charset=utf-8"
        )
        headers = [
            (b"content-type", content_type),
            (b"content-length", str(len(body)).encode()),
            (b"cache-control", b"no-store"),
        ]
        if clear_cookie and _cookie_token(scope, self.cookie) is not None:  # a revoked token's cookie goes
            headers.append(
                (b"set-cookie", cookie_header("", secure=_is_https(scope), clear=True, name=self.cookie))
            )
        await send({"type": "http.response.start", "status": 403, "headers": headers})
        await send({"type": "http.response.body", "body": body})
