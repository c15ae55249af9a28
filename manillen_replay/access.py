"""Who may open a dashboard served beyond this computer: roles, tokens, and the file that keeps them.

A dashboard served on a network (``manillen dashboard --host 0.0.0.0``) answers only visitors who
bring a token, as Jupyter does: the organiser's token is made when the server starts and printed
with a join address and a QR code; the organiser issues a token for each table's recorder and for
viewers (``manillen tokens issue``), and revokes one when it should stop working
(``manillen tokens revoke``). Issued tokens are kept in ``<archive>.access.json`` beside the
archive, hashed: the file lets nobody in who reads it.

This module holds no web server and no Streamlit: the command line issues tokens through it, and
the dashboard's middleware and pages ask it who a token belongs to.
"""

from __future__ import annotations

import enum
import hashlib
import hmac
import json
import os
import secrets
import socket
import sys
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import quote

from .errors import ManillenError

SUFFIX = ".access.json"
"""The token file's name beside the archive: ``club.duckdb`` keeps its tokens in ``club.access.json``."""
TOKEN_ENVIRONMENT = "MANILLEN_TOKEN"
"""The organiser's token of a running dashboard. ``manillen dashboard`` makes a new one at each
start unless this is set (a service manager that wants the same join address after a restart)."""
TOKEN_MIN = 16
"""The fewest characters a chosen organiser's token (``$MANILLEN_TOKEN``) may hold (a new one has
43): the token is the only lock, and a few letters are guessed at hundreds of tries a second."""
REQUIRED_ENVIRONMENT = "MANILLEN_ACCESS"
"""``token`` when every visitor must bring a token (set by ``manillen dashboard`` for ``--host``
beyond this computer, or ``--token``)."""
COOKIE = "manillen_token"
"""The cookie the dashboard keeps a visitor's token in once the join address was opened."""
QUERY = "token"
"""The join address's query parameter: ``http://ADDRESS:PORT/?token=...``."""
LOOPBACK = ("127.0.0.1", "localhost", "::1")
"""The addresses that serve this computer only."""
TABLE_MAX = 20
"""The longest table name a recorder's token is issued for (a number or a short name)."""


class AccessError(ManillenError):
    """A token that cannot be issued or revoked, or a token file that cannot be read."""


class AccessAskedError(AccessError):
    """What was asked cannot be: a recorder's token without a table, a viewer's with one, a
    table name that is not one, a key never issued (the command line's usage errors)."""


class AccessRefusedError(ManillenError):
    """Something only the organiser may do (SQL, an upload, a deletion), asked by another visitor."""


class Role(enum.Enum):
    """What a visitor came as."""

    ORGANISER = "organiser"
    """Everything: the SQL console, uploads, settings, deletions, every table's Record page."""
    RECORDER = "recorder"
    """One table's Record page and the read-only pages."""
    VIEWER = "viewer"
    """The read-only pages and the standings."""


@dataclass(frozen=True)
class Visitor:
    """A visitor's role and, for a recorder, the table they record."""

    role: Role
    table: str | None = None

    @property
    def is_organiser(self) -> bool:
        """Whether this visitor may run SQL, upload, change settings and delete.

        >>> Visitor(Role.ORGANISER).is_organiser, Visitor(Role.VIEWER).is_organiser
        (True, False)
        """
        return self.role is Role.ORGANISER

    @property
    def may_record_any(self) -> bool:
        """Whether this visitor sees the Record page at all (the organiser, or a table's recorder).

        >>> Visitor(Role.RECORDER, "2").may_record_any, Visitor(Role.VIEWER).may_record_any
        (True, False)
        """
        return self.role is not Role.VIEWER

    def may_record(self, table: str | None) -> bool:
        """Whether this visitor may record (and read the draft of) ``table``.

        >>> Visitor(Role.RECORDER, "2").may_record("2"), Visitor(Role.RECORDER, "2").may_record("3")
        (True, False)
        >>> Visitor(Role.VIEWER).may_record("1"), Visitor(Role.ORGANISER).may_record(None)
        (False, True)
        """
        return self.role is Role.ORGANISER or (
            self.role is Role.RECORDER and table is not None and self.table == table
        )


ORGANISER = Visitor(Role.ORGANISER)
"""The organiser, and the one visitor of a dashboard served on this computer only."""


def check_table(table: str) -> str:
    """A table's name as a recorder's token names it: a number or a short name.

    >>> check_table(" 2 ")
    '2'
    >>> check_table("../x")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    manillen_replay.access.AccessAskedError: table '../x' is not a table's name: use letters, digits and ...
    """
    name = table.strip()
    if not name or len(name) > TABLE_MAX or not all(c.isascii() and (c.isalnum() or c == "-") for c in name):
        raise AccessAskedError(
            f"table {table!r} is not a table's name: use letters, digits and dashes (at most {TABLE_MAX})"
        )
    return name


def new_token() -> str:
    """A fresh token: 32 random bytes, URL-safe (as Jupyter's)."""
    return secrets.token_urlsafe(32)


def digest(token: str) -> str:
    """What the token file keeps of a token: its SHA-256, never the token.

    >>> len(digest("abc")), digest("abc") == digest("abc"), digest("abc") == digest("abd")
    (64, True, False)
    """
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class Issued:
    """One token the organiser issued, as the token file keeps it."""

    key: str
    """A short name to revoke it by (``manillen tokens revoke KEY``); not the token."""
    role: Role
    table: str | None
    sha256: str
    issued: str
    """When it was issued (ISO time, UTC)."""
    note: str = ""
    """Who it is for, as the organiser wrote it."""
    expires: str = ""
    """When it stops opening anything (ISO time, UTC); empty: when it is revoked."""

    @property
    def visitor(self) -> Visitor:
        return Visitor(self.role, self.table)

    def expired(self, now: datetime | None = None) -> bool:
        """Whether the token is past its time (one without an end never is)."""
        if not self.expires:
            return False
        return (now or datetime.now(UTC)) >= datetime.fromisoformat(self.expires)

    def to_json(self) -> dict[str, Any]:
        kept = {
            "key": self.key,
            "role": self.role.value,
            "table": self.table,
            "sha256": self.sha256,
            "issued": self.issued,
            "note": self.note,
        }
        return {**kept, "expires": self.expires} if self.expires else kept

    @classmethod
    def from_json(cls, raw: Any) -> Issued:
        """:raises AccessError: when ``raw`` is not an issued token."""
        try:
            role = Role(raw["role"])
            if role is Role.ORGANISER:
                raise ValueError("organiser tokens are not issued")
            table = None if raw.get("table") is None else check_table(str(raw["table"]))
            if (role is Role.RECORDER) != (table is not None):
                raise ValueError("a recorder's token names a table, and only a recorder's")
            sha256 = str(raw["sha256"])
            if len(sha256) != 64:
                raise ValueError("not a SHA-256")
            expires = str(raw.get("expires") or "")
            if expires:
                datetime.fromisoformat(expires)  # a time, or refused
            return cls(
                str(raw["key"]),
                role,
                table,
                sha256,
                str(raw.get("issued", "")),
                str(raw.get("note", "")),
                expires,
            )
        except (KeyError, TypeError, ValueError) as error:
            raise AccessError(f"not an issued token: {error}") from None


def token_file(archive: Path) -> Path:
    """The token file beside an archive.

    >>> token_file(Path("club/club.duckdb")).as_posix()
    'club/club.access.json'
    """
    return archive.with_name(archive.stem + SUFFIX)


def read_issued(path: Path) -> list[Issued]:
    """The tokens kept in a token file; none when it does not exist.

    :raises AccessError: when the file is not a token file.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    except OSError as error:
        raise AccessError(f"cannot read the token file {path}: {error.strerror}") from None
    try:
        raw = json.loads(text)
        entries = raw["tokens"]
        if not isinstance(entries, list):
            raise TypeError("tokens is not a list")
    except (ValueError, KeyError, TypeError) as error:
        raise AccessError(f"{path} is not a token file: {error}") from None
    return [Issued.from_json(entry) for entry in entries]


def _write_issued(path: Path, tokens: Iterable[Issued]) -> None:
    """Write the token file in one step (a temporary file renamed over it), readable by its owner only."""
    text = json.dumps({"tokens": [t.to_json() for t in tokens]}, indent=1) + "\n"
    temporary = path.with_name(path.name + ".tmp")
    try:
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.write(text)
        os.replace(temporary, path)
    except OSError as error:
        with suppress(OSError):
            temporary.unlink()
        raise AccessError(f"cannot write the token file {path}: {error.strerror or error}") from None


_CHANGING = threading.Lock()
"""Held by a thread of this process that reads the token file and writes it again."""


@contextmanager
def _changing(path: Path) -> Iterator[None]:
    """Hold the token file while it is read and written again.

    Two organiser tabs (threads of the dashboard), or the page and ``manillen tokens`` (two
    processes), changing it at the same moment would otherwise each write back what they read,
    and one of two new tokens would be lost. Across processes the lock is ``flock`` on a lock
    file beside it (POSIX; elsewhere only this process's threads wait for each other).
    """
    lock_path = path.with_name(path.name + ".lock")
    with _CHANGING:
        try:
            lock = open(lock_path, "a")  # noqa: SIM115 (closed below, after the change)
        except OSError as error:
            raise AccessError(
                f"cannot write the token file's lock {lock_path}: {error.strerror or error}"
            ) from None
        with lock:
            if sys.platform != "win32":
                import fcntl

                fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
            yield


def issue(
    path: Path, role: Role, table: str | None = None, note: str = "", valid: timedelta | None = None
) -> tuple[str, Issued]:
    """Issue a recorder's token (for ``table``) or a viewer's, and keep its hash in the token file.

    :param valid: how long it opens the dashboard (``None``: until it is revoked).

    :returns: the token (shown once: the file keeps only its hash) and what the file keeps.
    :raises AccessError: for an organiser's token (there is one, made at each start), a recorder
        without a table, a viewer with one, or a table name that is not one; when the token file
        (or its lock beside it) cannot be written.
    """
    if role is Role.ORGANISER:
        raise AccessAskedError(
            "the organiser's token is made when the dashboard starts: issue a recorder's or a viewer's"
        )
    if role is Role.RECORDER and not table:
        raise AccessAskedError("a recorder's token is for one table: name it (--table 2)")
    if role is Role.VIEWER and table:
        raise AccessAskedError("a viewer's token is for every table's read-only pages: give no --table")
    checked = check_table(table) if table else None
    with _changing(path):
        kept = read_issued(path)
        taken = {t.key for t in kept}
        key = secrets.token_hex(3)
        while key in taken:
            key = secrets.token_hex(3)
        token = new_token()
        now = datetime.now(UTC).replace(microsecond=0)
        expires = (now + valid).isoformat() if valid is not None else ""
        entry = Issued(key, role, checked, digest(token), now.isoformat(), note.strip(), expires)
        _write_issued(path, [*kept, entry])
    return token, entry


def revoke(path: Path, key: str) -> Issued:
    """Revoke the issued token named ``key``: it opens nothing from the next request on.

    :raises AccessError: when no issued token has that name, or the token file (or its lock
        beside it) cannot be written.
    """
    with _changing(path):
        kept = read_issued(path)
        found = [t for t in kept if t.key == key.strip()]
        if not found:
            names = ", ".join(t.key for t in kept) or "none"
            raise AccessAskedError(
                f"no issued token is named {key!r} (issued: {names}; see manillen tokens list)"
            )
        _write_issued(path, [t for t in kept if t.key != key.strip()])
    return found[0]


class Gate:
    """Who a token belongs to: the organiser's token of this run, or one issued in the token file.

    The token file is read again whenever it changed, so a token revoked (or issued) while the
    dashboard runs counts from the next request.

    :param organiser: the organiser's token of this run (``None``: only issued tokens open it).
    :param path: the token file.
    """

    def __init__(self, organiser: str | None, path: Path) -> None:
        self.organiser_digest = digest(organiser) if organiser else None
        self.path = path
        self._seen: tuple[int, int] | None = None
        self._issued: dict[str, Issued] = {}

    def _current(self) -> dict[str, Issued]:
        try:
            stat = self.path.stat()
            seen: tuple[int, int] | None = (stat.st_mtime_ns, stat.st_size)
        except OSError:
            seen = None
        if seen != self._seen:
            try:
                issued = read_issued(self.path) if seen is not None else []
            except AccessError:
                issued = []  # a broken file opens nothing; the command line says what is wrong with it
            self._issued = {t.sha256: t for t in issued}
            self._seen = seen
        return self._issued

    def visitor(self, token: str | None) -> Visitor | None:
        """The visitor a token belongs to; ``None`` for no token, a wrong one, a revoked one or
        one past its time."""
        if not token or len(token) > 200:
            return None
        asked = digest(token)
        if self.organiser_digest is not None and hmac.compare_digest(asked, self.organiser_digest):
            return ORGANISER
        found = None
        for kept, entry in self._current().items():
            if hmac.compare_digest(asked, kept):
                found = entry
        return None if found is None or found.expired() else found.visitor


def is_loopback(host: str) -> bool:
    """Whether serving on ``host`` serves this computer only.

    >>> is_loopback("127.0.0.1"), is_loopback("0.0.0.0"), is_loopback("192.168.1.20")
    (True, False, False)
    """
    return host in LOOPBACK or host.startswith("127.")


def lan_address() -> str:
    """This computer's address on its network, as a phone on the same wifi reaches it
    (``127.0.0.1`` when it has none). No packet is sent: a UDP socket is only pointed outwards."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed, only chooses an interface
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def join_address(host: str, port: int, token: str, page: str = "") -> str:
    """The address that opens the dashboard with a token (the token then moves to a cookie).

    >>> join_address("192.168.1.20", 8501, "abc")
    'http://192.168.1.20:8501/?token=abc'
    >>> join_address("::1", 8501, "a b", page="record")
    'http://[::1]:8501/record?token=a%20b'
    """
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/{page}?{QUERY}={quote(token, safe='')}"


def qr_text(address: str) -> str:
    """The address as a QR code drawn in the terminal's characters (two rows of modules a line)."""
    import io

    import segno

    out = io.StringIO()
    segno.make(address, error="m", micro=False).terminal(out=out, compact=True, border=2)
    return out.getvalue()


def qr_svg(address: str, scale: int = 6) -> str:
    """The address as a QR code in SVG, for a page (dark modules on white, a quiet zone round it)."""
    import io

    import segno

    out = io.BytesIO()
    segno.make(address, error="m", micro=False).save(out, kind="svg", scale=scale, border=4, xmldecl=False)
    return out.getvalue().decode("utf-8")
