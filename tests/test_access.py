"""Only the club gets in: tokens, roles, revocation, and an attack on the real server.

The attack starts ``manillen dashboard --host 0.0.0.0`` on a free port and asks it, with a plain
HTTP client and a websocket client, for every kind of thing it serves: without a valid token
(none, a wrong one, a revoked one) nothing answers but the health check's ``ok``; a recorder's
token uploads nothing. The pages' role checks (the SQL console, another table's draft) are
tested through AppTest with the session's token, and in a real browser in test_browser_access.py.
"""

from __future__ import annotations

import asyncio
import re
import stat
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

import pytest
import streamlit as st
from click.testing import CliRunner
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket
from streamlit.testing.v1 import AppTest

from bench.record_bench import free_port, serving
from dashboards import access, data, drafts, i18n
from dashboards import recording as rec
from manillen_replay import access as access_module
from manillen_replay.access import (
    COOKIE,
    REQUIRED_ENVIRONMENT,
    TOKEN_ENVIRONMENT,
    AccessError,
    Gate,
    Role,
    Visitor,
    digest,
    issue,
    read_issued,
    revoke,
    token_file,
)
from manillen_replay.cli import cli

from .test_dashboard import APP, build_archive, texts

ORGANISER_TOKEN = "organiser-token-for-the-attack-test-0123456789"


# --------------------------------------------------------------------------- tokens and the file


def test_an_issued_token_is_kept_as_its_hash_only(tmp_path: Path) -> None:
    path = token_file(tmp_path / "club.duckdb")
    token, entry = issue(path, Role.RECORDER, "2", "Anna's phone")
    text = path.read_text()
    assert token not in text and digest(token) in text
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert read_issued(path) == [entry]
    assert entry.visitor == Visitor(Role.RECORDER, "2")
    assert Gate(None, path).visitor(token) == Visitor(Role.RECORDER, "2")


ISSUE_MANY = """
import sys
from pathlib import Path
from manillen_replay.access import Role, issue
for n in range(int(sys.argv[2])):
    issue(Path(sys.argv[1]), Role.RECORDER, str(n % 4 + 1), f"{sys.argv[3]} {n}")
"""


def test_tokens_issued_at_once_by_two_processes_are_all_kept(tmp_path: Path) -> None:
    # the page and `manillen tokens` (or two dashboards) issuing at the same moment: none is lost
    path = token_file(tmp_path / "club.duckdb")
    issuing = [
        subprocess.Popen([sys.executable, "-c", ISSUE_MANY, str(path), "200", who]) for who in ("page", "cli")
    ]
    assert [process.wait(timeout=120) for process in issuing] == [0, 0]
    notes = sorted(entry.note for entry in read_issued(path))
    assert notes == sorted(f"{who} {n}" for who in ("page", "cli") for n in range(200))


def test_a_revoked_token_opens_nothing_from_the_next_request(tmp_path: Path) -> None:
    path = token_file(tmp_path / "club.duckdb")
    gate = Gate("the-organisers", path)
    kept, _ = issue(path, Role.VIEWER)
    gone, entry = issue(path, Role.RECORDER, "1")
    assert gate.visitor(gone) == Visitor(Role.RECORDER, "1")
    revoke(path, entry.key)
    assert gate.visitor(gone) is None
    assert gate.visitor(kept) == Visitor(Role.VIEWER)
    assert gate.visitor("the-organisers") == access.LOCAL_VISITOR


def test_a_token_past_its_time_opens_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A security review: an issued token opened the dashboard until revoked by hand, evening after
    evening. One issued for a time stops at its end; one without keeps working until revoked."""
    import datetime as clock

    path = token_file(tmp_path / "club.duckdb")
    gate = Gate("the-organisers", path)
    tonight, entry = issue(path, Role.VIEWER, valid=clock.timedelta(hours=12))
    lasting, _ = issue(path, Role.VIEWER)
    assert gate.visitor(tonight) == Visitor(Role.VIEWER) and not entry.expired()
    end = clock.datetime.fromisoformat(entry.expires)
    assert end - clock.datetime.fromisoformat(entry.issued) == clock.timedelta(hours=12)
    assert entry.expired(end) and not entry.expired(end - clock.timedelta(seconds=1))
    assert read_issued(path)[0].expires == entry.expires  # kept in the token file

    class Later(clock.datetime):
        @classmethod
        def now(cls, tz: clock.tzinfo | None = None) -> Later:  # type: ignore[override]
            return cls.fromisoformat(entry.expires)

    monkeypatch.setattr(access_module, "datetime", Later)
    assert gate.visitor(tonight) is None
    assert gate.visitor(lasting) == Visitor(Role.VIEWER)
    listed = CliRunner().invoke(cli, ["tokens", "list", "--db", str(tmp_path / "club.duckdb")])
    assert f"{entry.key}  viewer  issued {entry.issued}  expired {entry.expires}" in listed.output


def test_tokens_issue_takes_a_time_and_refuses_one_that_is_not(tmp_path: Path) -> None:
    db = str(tmp_path / "club.duckdb")
    done = CliRunner().invoke(cli, ["tokens", "issue", "viewer", "--valid", "90m", "--db", db])
    assert done.exit_code == 0, done.output
    (entry,) = read_issued(token_file(Path(db)))
    assert f"valid until {entry.expires}" in done.stderr
    for wrong in ("0h", "12", "tomorrow", "1w"):
        refused = CliRunner().invoke(cli, ["tokens", "issue", "viewer", "--valid", wrong, "--db", db])
        assert refused.exit_code == 2 and "is not a time: write 90m, 12h or 7d" in refused.stderr
    assert len(read_issued(token_file(Path(db)))) == 1  # nothing issued for a wrong time


@pytest.mark.parametrize("token", [None, "", "wrong", "the-organisers ", "x" * 5000])
def test_no_token_or_a_wrong_one_is_nobody(tmp_path: Path, token: str | None) -> None:
    assert Gate("the-organisers", token_file(tmp_path / "club.duckdb")).visitor(token) is None


def test_a_broken_token_file_opens_nothing_and_the_command_says_why(tmp_path: Path) -> None:
    archive = tmp_path / "club.duckdb"
    token, _ = issue(token_file(archive), Role.VIEWER)
    token_file(archive).write_text("{not json")
    assert Gate(None, token_file(archive)).visitor(token) is None
    result = CliRunner().invoke(cli, ["tokens", "list", "--db", str(archive)])
    assert result.exit_code == 1 and "is not a token file" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["issue", "recorder"], "name it (--table 2)"),
        (["issue", "viewer", "--table", "2"], "give no --table"),
        (["issue", "recorder", "--table", "../2"], "is not a table's name"),
        (["issue", "viewer", "--address", "nowhere"], "is not HOST:PORT"),
        (["revoke", "abcdef"], "no issued token is named 'abcdef'"),
        (["revoke", "--table", "9"], "no issued token is for table 9"),
        (["revoke"], "name one token"),
    ],
)
def test_the_tokens_command_refuses_in_words(tmp_path: Path, arguments: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, ["tokens", *arguments, "--db", str(tmp_path / "club.duckdb")])
    assert result.exit_code == 2 and message in result.output, (
        result.output
    )  # usage errors, as docs/cli.md says
    assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.mark.parametrize(
    ("address", "says"),
    [
        ("bad address", "'bad address' is not HOST:PORT"),
        ("bad host:8501", "'bad host:8501' is not HOST:PORT"),
        (":8501", "':8501' is not HOST:PORT"),
        ("10.0.0.5:99999", "'10.0.0.5:99999': a port is 1 to 65535, not 99999"),
        ("10.0.0.5:0", "a port is 1 to 65535, not 0"),
    ],
)
def test_a_bad_address_is_refused_before_a_token_is_issued(tmp_path: Path, address: str, says: str) -> None:
    """A token stored and then refused for its address would be kept, shown to no one."""
    db = tmp_path / "club.duckdb"
    result = CliRunner().invoke(cli, ["tokens", "issue", "viewer", "--address", address, "--db", str(db)])
    assert result.exit_code == 2 and says in result.stderr, result.output
    assert "issued" not in result.output and result.stdout == ""
    assert read_issued(token_file(db)) == [] and list(tmp_path.iterdir()) == []


def test_the_tokens_command_issues_lists_and_revokes(tmp_path: Path) -> None:
    db = str(tmp_path / "club.duckdb")
    runner = CliRunner()
    issued = runner.invoke(
        cli, ["tokens", "issue", "recorder", "--table", "2", "--address", "10.0.0.5:8501", "--db", db]
    )
    assert issued.exit_code == 0, issued.output
    address = next(line for line in issued.stdout.splitlines() if line.startswith("http"))
    token = address.split("?token=")[1]
    assert address == f"http://10.0.0.5:8501/record?token={token}"
    assert "▀" in issued.stderr or "█" in issued.stderr  # the QR code, drawn in the terminal
    (entry,) = read_issued(token_file(Path(db)))
    listed = runner.invoke(cli, ["tokens", "list", "--db", db])
    assert f"{entry.key}  recorder table 2" in listed.output and token not in listed.output
    runner.invoke(cli, ["tokens", "issue", "viewer", "--db", db])
    revoked = runner.invoke(cli, ["tokens", "revoke", entry.key, "--db", db])
    assert revoked.exit_code == 0 and [t.role for t in read_issued(token_file(Path(db)))] == [Role.VIEWER]
    runner.invoke(cli, ["tokens", "issue", "recorder", "--table", "3", "--db", db])
    runner.invoke(cli, ["tokens", "issue", "recorder", "--table", "3", "--db", db])
    by_table = runner.invoke(cli, ["tokens", "revoke", "--table", "3", "--db", db])
    assert by_table.exit_code == 0 and by_table.output.count("revoked") == 2
    assert [t.role for t in read_issued(token_file(Path(db)))] == [Role.VIEWER]


def test_a_token_for_an_archive_not_made_yet_is_issued_with_a_note(tmp_path: Path) -> None:
    """A dashboard may serve an archive its Record page has not made yet, so the token is issued;
    but a misspelt name would give a token that opens nothing, so the command says so."""
    db = tmp_path / "club.duckdb"
    result = CliRunner().invoke(cli, ["tokens", "issue", "viewer", "--db", str(db)])
    assert result.exit_code == 0 and len(read_issued(token_file(db))) == 1
    assert f"note: no archive at {db} yet" in result.stderr
    db.write_bytes(b"")
    listed = CliRunner().invoke(cli, ["tokens", "list", "--db", str(db)])
    assert listed.exit_code == 0 and "note:" not in listed.stderr


def test_a_token_file_that_cannot_be_written_is_one_line_naming_it(tmp_path: Path) -> None:
    # as a folder the user may not write to: a link into a missing folder refuses even root
    db = tmp_path / "club.duckdb"
    db.write_bytes(b"")  # an archive is there: no note that it is not
    (tmp_path / "club.access.json.lock").symlink_to(tmp_path / "missing" / "lock")
    result = CliRunner().invoke(cli, ["tokens", "issue", "viewer", "--db", str(db)])
    assert result.exit_code == 1 and result.stdout == "", result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.stderr == (
        f"Error: cannot write the token file's lock {tmp_path / 'club.access.json.lock'}: "
        "No such file or directory\n"
    )
    (tmp_path / "club.access.json.lock").unlink()
    (tmp_path / "club.access.json.tmp").symlink_to(tmp_path / "missing" / "tmp")
    result = CliRunner().invoke(cli, ["tokens", "issue", "viewer", "--db", str(db)])
    assert result.exit_code == 1 and "issued" not in result.output, result.output
    assert result.stderr == (
        f"Error: cannot write the token file {tmp_path / 'club.access.json'}: No such file or directory\n"
    )
    assert read_issued(token_file(db)) == []


def test_the_dashboard_refuses_no_token_beyond_this_computer(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli, ["dashboard", "--db", str(tmp_path / "x.duckdb"), "--host", "0.0.0.0", "--no-token"]
    )
    assert result.exit_code != 0 and "--no-token is refused" in result.output


def test_the_dashboard_refuses_a_file_that_is_no_archive(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A record given as --db: the server started anyway and every page showed the error."""
    from manillen_replay.cli import dashboard as command

    started: list[list[str]] = []
    monkeypatch.setattr(command, "run_forwarding_signals", lambda args, _env: started.append(args) or 0)
    record = tmp_path / "match.json"
    record.write_text('{"format": "manillen/1"}', encoding="utf-8")
    result = CliRunner().invoke(cli, ["dashboard", "--db", str(record)])
    assert result.exit_code == 2 and started == []
    assert f"{str(record.resolve())!r} is not an archive (a DuckDB file)" in result.stderr
    assert CliRunner().invoke(cli, ["dashboard", "--db", str(tmp_path / "new.duckdb")]).exit_code == 0


def test_token_asks_for_a_token_on_this_computer_too(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from manillen_replay.cli import dashboard as command

    started: list[dict[str, str]] = []
    monkeypatch.delenv(TOKEN_ENVIRONMENT, raising=False)

    def run(_args: list[str], environment: dict[str, str]) -> int:
        started.append(environment)
        return 0

    monkeypatch.setattr(command, "run_forwarding_signals", run)
    result = CliRunner().invoke(cli, ["dashboard", "--db", str(tmp_path / "x.duckdb"), "--token"])
    assert result.exit_code == 0, result.output
    token = started[0][TOKEN_ENVIRONMENT]
    assert started[0][REQUIRED_ENVIRONMENT] == "token" and f"/?token={token}" in result.output
    assert len(token) >= 40  # 32 random bytes


def test_a_short_chosen_organiser_token_is_refused_before_serving(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """MANILLEN_TOKEN=a served the club's archive behind a one-letter lock, guessed at 400 tries a
    second; a token of 16 characters or more serves as before."""
    from manillen_replay.cli import dashboard as command

    started: list[dict[str, str]] = []
    monkeypatch.setattr(command, "run_forwarding_signals", lambda _a, env: started.append(env) or 0)
    monkeypatch.setenv(TOKEN_ENVIRONMENT, "a")
    refused = CliRunner().invoke(cli, ["dashboard", "--db", str(tmp_path / "x.duckdb"), "--token"])
    assert refused.exit_code == 1 and not started
    assert "$MANILLEN_TOKEN holds 1 character, too few" in refused.output
    assert "give at least 16" in refused.output and "Traceback" not in refused.output
    monkeypatch.setenv(TOKEN_ENVIRONMENT, "club night: 2026!")
    served = CliRunner().invoke(cli, ["dashboard", "--db", str(tmp_path / "x.duckdb"), "--token"])
    assert served.exit_code == 0 and started[0][TOKEN_ENVIRONMENT] == "club night: 2026!"


def test_a_short_organiser_token_opens_nothing_when_served_by_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """`streamlit run dashboards/streamlit_app.py` with MANILLEN_TOKEN=a served behind it:
    `manillen dashboard` refuses it, and the server's gate opens nothing with it."""
    from dashboards import data

    monkeypatch.setenv(data.DB_ENVIRONMENT, str(tmp_path / "club.duckdb"))
    access._gate.cache_clear()
    for chosen, opens in (("a", False), ("club night: 2026!", True)):
        monkeypatch.setenv(TOKEN_ENVIRONMENT, chosen)
        assert (access.server_gate().visitor(chosen) is not None) is opens
    assert "is shorter than the 16 characters a token needs to be a lock (1): it opens nothing" in caplog.text


def test_the_join_address_s_qr_code_is_its_modules_drawn() -> None:
    """The terminal's drawing is the QR code's matrix, two rows a line (a full block where both
    are dark): read back module by module, it is segno's code of the address."""
    import segno

    from manillen_replay.access import qr_svg, qr_text

    address = "http://10.0.0.5:8501/?token=abc"
    svg = qr_svg(address)
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    matrix = [[bool(m) for m in row] for row in segno.make(address, error="m", micro=False).matrix]
    lines = qr_text(address).splitlines()
    border = (len(lines[0]) - len(matrix)) // 2
    halves = {"█": (True, True), "▀": (True, False), "▄": (False, True), " ": (False, False)}
    # the terminal draws light modules dark (light text on a dark screen): a block is a light module
    drawn = [
        [not halves[c][half] for c in line[border : border + len(matrix)]]
        for line in lines
        for half in (0, 1)
    ]
    assert drawn[border : border + len(matrix)] == matrix


# --------------------------------------------------------------------------- ?draft= stays in its folder


@pytest.fixture
def draft_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "club.drafts"
    drafts.save(rec.new_draft("abc123", rec.Setup("m-1", ["A", "B", "C", "D"])), folder)
    (tmp_path / "secret.json").write_text(rec.new_draft("x", rec.Setup("s", ["E", "F", "G", "H"])).to_json())
    return folder


@pytest.mark.parametrize(
    "asked",
    [
        "../secret",
        "..%2Fsecret",
        "%2e%2e/secret",
        "..\\secret",
        "/etc/passwd",
        "{folder}/../secret",
        "abc123/../../secret",
        "abc123\x00",
        "ab c123",
        "abc１２３",  # fullwidth digits: letters and digits to str.isalnum, no file name of ours
        "",
        "a" * 65,
    ],
)
def test_a_crafted_draft_id_reaches_no_file(draft_folder: Path, asked: str) -> None:
    asked = asked.replace("{folder}", str(draft_folder))
    assert drafts.load(asked, draft_folder) is None
    assert drafts.load("abc123", draft_folder) is not None  # the folder's own draft still loads


def test_a_link_in_the_drafts_folder_is_not_followed(draft_folder: Path) -> None:
    (draft_folder / "linked.json").symlink_to(draft_folder.parent / "secret.json")
    assert drafts.load("linked", draft_folder) is None
    assert [d.draft_id for d in drafts.open_drafts(draft_folder)] == ["abc123"]


def test_a_draft_id_of_another_shape_is_never_written(tmp_path: Path) -> None:
    with pytest.raises(rec.RecordingError, match="not a draft id"):
        drafts.save(rec.new_draft("../x", rec.Setup("m", ["A", "B", "C", "D"])), tmp_path / "d")
    assert not (tmp_path / "x.json").exists()


# --------------------------------------------------------------------------- the middleware


async def _echo(request: Any) -> PlainTextResponse:
    return PlainTextResponse(f"data at {request.url.path}")


async def _stream(websocket: WebSocket) -> None:
    await websocket.accept()
    await websocket.send_text("data")
    await websocket.close()


def _gated(tmp_path: Path) -> tuple[access.TokenGate, dict[str, str]]:
    path = token_file(tmp_path / "club.duckdb")
    recorder, _ = issue(path, Role.RECORDER, "1")
    viewer, _ = issue(path, Role.VIEWER)
    revoked, gone = issue(path, Role.VIEWER)
    revoke(path, gone.key)
    routes = [
        Route("/{path:path}", _echo, methods=["GET", "POST", "PUT", "DELETE", "HEAD"]),
        WebSocketRoute("/_stcore/stream", _stream),
    ]
    app = access.TokenGate(Starlette(routes=routes), Gate("orgs", path), required=True)
    return app, {"organiser": "orgs", "recorder": recorder, "viewer": viewer, "revoked": revoked}


def _call(app: Any, scope: dict[str, Any], incoming: list[dict[str, Any]]) -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return incoming.pop(0) if incoming else {"type": "websocket.disconnect", "code": 1000}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    return sent


def request(
    app: Any, path: str, query: str = "", cookie: str | None = None, method: str = "GET"
) -> tuple[int, dict[bytes, bytes], bytes]:
    headers = [(b"accept", b"text/html")] + (
        [(b"cookie", f"{access.cookie_name()}={cookie}".encode())] if cookie else []
    )
    scope = {
        "type": "http", "method": method, "path": path, "raw_path": path.encode(), "root_path": "",
        "query_string": query.encode(), "headers": headers, "scheme": "http", "server": ("127.0.0.1", 1),
    }  # fmt: skip
    sent = _call(app, scope, [{"type": "http.request", "body": b"", "more_body": False}])
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], dict(start["headers"]), body


def websocket(app: Any, cookie: str | None) -> str:
    headers = [(b"cookie", f"{access.cookie_name()}={cookie}".encode())] if cookie else []
    scope = {"type": "websocket", "path": "/_stcore/stream", "raw_path": b"/_stcore/stream", "root_path": "",
             "query_string": b"", "headers": headers, "scheme": "ws", "subprotocols": []}  # fmt: skip
    sent = _call(app, scope, [{"type": "websocket.connect"}])
    return str(sent[0]["type"])


PATHS = ["/", "/sql", "/record", "/static/js/index.js", "/_stcore/host-config", "/media/x.png",
         "/_stcore/upload_file/s/f", "/component/x/index.html", "/app/static/x"]  # fmt: skip


@pytest.mark.parametrize("path", PATHS)
def test_without_a_token_no_route_answers_with_data(tmp_path: Path, path: str) -> None:
    app, tokens = _gated(tmp_path)
    for cookie in (None, "wrong", tokens["revoked"]):
        status, _, body = request(app, path, cookie=cookie)
        assert status == 403 and b"data" not in body, (path, cookie)
    status, _, body = request(app, path, query="token=wrong")
    assert status == 403 and b"data" not in body
    assert request(app, path, cookie=tokens["viewer"])[0] == (403 if "upload" in path else 200)


def test_only_the_health_check_answers_without_a_token(tmp_path: Path) -> None:
    app, _ = _gated(tmp_path)
    assert request(app, "/_stcore/health")[0] == 200


def test_the_join_address_moves_the_token_into_a_cookie(tmp_path: Path) -> None:
    app, tokens = _gated(tmp_path)
    status, headers, _ = request(app, "/record", query=f"token={tokens['recorder']}&lang=nl")
    assert status == 303 and headers[b"location"] == b"/record?lang=nl"
    cookie = headers[b"set-cookie"].decode()
    assert (
        cookie.startswith(f"{access.cookie_name()}={tokens['recorder']};")
        and "HttpOnly" in cookie
        and "SameSite=Lax" in cookie
    )
    assert request(app, "/record", query="lang=nl", cookie=tokens["recorder"])[0] == 200


@pytest.mark.parametrize(
    "path", ["//evil.example/", "/\\evil.example", "///evil.example/x", "/\\/evil.example"]
)
def test_the_join_address_never_sends_the_browser_to_another_site(tmp_path: Path, path: str) -> None:
    """`//evil.example/?token=...` was answered "location: //evil.example/": a link showing the
    club's address sent an organiser to another site, with a viewer's cookie set."""
    app, tokens = _gated(tmp_path)
    status, headers, _ = request(app, path, query=f"token={tokens['viewer']}")
    assert status == 303
    location = headers[b"location"]
    assert location.startswith(b"/") and not location.startswith((b"//", b"/\\")), location
    assert location.lstrip(b"/\\") == path.lstrip("/\\").encode()


def test_a_link_with_a_wrong_token_leaves_a_signed_in_visitor_signed_in(tmp_path: Path) -> None:
    """A link with ?token=x (posted anywhere) cleared a valid cookie: the organiser was logged out."""
    app, tokens = _gated(tmp_path)
    for wrong in ("x", tokens["revoked"]):
        status, headers, _ = request(app, "/sql", query=f"token={wrong}&lang=nl", cookie=tokens["organiser"])
        assert status == 303 and headers[b"location"] == b"/sql?lang=nl"
        assert b"set-cookie" not in headers
    assert request(app, "/sql", query="lang=nl", cookie=tokens["organiser"])[0] == 200
    # without a valid cookie the wrong token is refused, as before, and a revoked cookie cleared
    assert request(app, "/sql", query="token=x")[0] == 403
    status, headers, _ = request(app, "/sql", query="token=x", cookie=tokens["revoked"])
    assert status == 403 and b"Max-Age=0" in headers[b"set-cookie"]


def test_an_organisers_token_of_any_signs_opens_through_its_cookie(tmp_path: Path) -> None:
    """MANILLEN_TOKEN='club night: 2026!' was written into the cookie quoted and read back
    as quoted: every request after the join address was refused, the organiser locked out."""
    path = token_file(tmp_path / "club.duckdb")
    chosen = "club night: 2026!"
    routes = [Route("/{path:path}", _echo, methods=["GET"])]
    app = access.TokenGate(Starlette(routes=routes), Gate(chosen, path), required=True)
    status, headers, _ = request(app, "/", query=urlencode({"token": chosen}))
    assert status == 303
    kept = headers[b"set-cookie"].decode().split(";")[0].split("=", 1)[1]
    assert kept == "club%20night%3A%202026%21"
    assert request(app, "/sql", cookie=kept)[0] == 200


def test_the_cookie_is_secure_behind_an_https_proxy(tmp_path: Path) -> None:
    app, tokens = _gated(tmp_path)
    scope_headers = [(b"x-forwarded-proto", b"https")]
    scope = {
        "type": "http", "method": "GET", "path": "/", "raw_path": b"/", "root_path": "",
        "query_string": f"token={tokens['viewer']}".encode(), "headers": scope_headers, "scheme": "http",
    }  # fmt: skip
    sent = _call(app, scope, [{"type": "http.request", "body": b"", "more_body": False}])
    assert dict(sent[0]["headers"])[b"set-cookie"].endswith(b"; Secure")
    assert not request(app, "/", query=f"token={tokens['viewer']}")[1][b"set-cookie"].endswith(b"; Secure")


def test_a_revoked_token_s_cookie_is_cleared(tmp_path: Path) -> None:
    app, tokens = _gated(tmp_path)
    _, headers, _ = request(app, "/", cookie=tokens["revoked"])
    assert b"Max-Age=0" in headers[b"set-cookie"]


def test_uploads_are_the_organiser_s_only(tmp_path: Path) -> None:
    app, tokens = _gated(tmp_path)
    for who in ("recorder", "viewer"):
        assert request(app, "/_stcore/upload_file/s/f", cookie=tokens[who], method="PUT")[0] == 403
    assert request(app, "/_stcore/upload_file/s/f", cookie=tokens["organiser"], method="PUT")[0] == 200


def test_the_server_asks_no_internet_service_for_its_address_and_prints_no_tokenless_link(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Served on every address, Streamlit asked checkip.amazonaws.com for the machine's address at
    the start and at each websocket from a foreign page, and printed Local and Network URLs that
    answer 403 without a token, above the join address."""
    from streamlit import config, net_util
    from streamlit.web import bootstrap

    from dashboards.serve import quiet_network_banner

    asked: list[str] = []
    monkeypatch.setattr(net_util, "_make_blocking_http_get", lambda url, timeout: asked.append(url))
    monkeypatch.setattr(net_util, "_external_ip", None)
    monkeypatch.setattr(bootstrap, "_print_url", bootstrap._print_url)
    quiet_network_banner()
    assert net_util.get_external_ip() in (net_util.get_internal_ip(), "127.0.0.1")
    assert asked == []
    monkeypatch.setattr(config, "get_option", lambda name: {"server.headless": True}.get(name))
    bootstrap._print_url(False)
    assert capsys.readouterr().out == ""


def test_the_server_metrics_are_the_organiser_s_only(tmp_path: Path) -> None:
    """A viewer's token read /_stcore/metrics: how many people were connected, every cache's name."""
    app, tokens = _gated(tmp_path)
    for who in ("recorder", "viewer"):
        assert request(app, "/_stcore/metrics", cookie=tokens[who])[0] == 403
    assert request(app, "/_stcore/metrics", cookie=tokens["organiser"])[0] == 200


def test_the_websocket_opens_for_a_valid_token_only(tmp_path: Path) -> None:
    app, tokens = _gated(tmp_path)
    assert websocket(app, None) == "websocket.close"
    assert websocket(app, tokens["revoked"]) == "websocket.close"
    assert websocket(app, "wrong") == "websocket.close"
    assert websocket(app, tokens["viewer"]) == "websocket.accept"


def test_on_this_computer_only_no_token_is_asked(tmp_path: Path) -> None:
    routes = [Route("/{path:path}", _echo)]
    app = access.TokenGate(
        Starlette(routes=routes), Gate(None, token_file(tmp_path / "c.duckdb")), required=False
    )
    assert request(app, "/sql")[0] == 200


@pytest.mark.parametrize(
    ("address", "asked"), [("0.0.0.0", True), ("192.168.1.20", True), ("127.0.0.1", False), (None, False)]
)
def test_a_server_told_to_listen_beyond_this_computer_asks_for_tokens(
    monkeypatch: pytest.MonkeyPatch, address: str | None, asked: bool
) -> None:
    """Also when started as ``streamlit run dashboards/asgi_app.py --server.address 0.0.0.0``."""
    from streamlit import config

    original = config.get_option
    monkeypatch.delenv(REQUIRED_ENVIRONMENT, raising=False)
    monkeypatch.setattr(
        config, "get_option", lambda key: address if key == "server.address" else original(key)
    )
    assert access.access_required() is asked


# --------------------------------------------------------------------------- the pages' roles


@pytest.fixture
def club(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    """An archive served to the club: tokens required, a recorder's token for table 1 and a
    viewer's, and a draft each at tables 1 and 2; the session's token is ``club["token"]``."""
    archive = tmp_path / "club.duckdb"
    build_archive(archive)
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(archive))
    monkeypatch.setenv(REQUIRED_ENVIRONMENT, "token")
    monkeypatch.setenv(TOKEN_ENVIRONMENT, ORGANISER_TOKEN)
    recorder, _ = issue(token_file(archive.resolve()), Role.RECORDER, "1")
    viewer, _ = issue(token_file(archive.resolve()), Role.VIEWER)
    folder = drafts.folder(archive)
    seats = ["Anna", "Bert", "Carla", "Dirk"]
    drafts.save(rec.new_draft("aaaa1111", rec.Setup("one", seats, table="1")), folder)
    drafts.save(rec.new_draft("bbbb2222", rec.Setup("two", seats, table="2")), folder)
    state: dict[str, Any] = {
        "token": None,
        "recorder": recorder,
        "viewer": viewer,
        "organiser": ORGANISER_TOKEN,
    }
    monkeypatch.setattr(access, "session_token", lambda: state["token"])
    navigation = st.navigation

    def offering(pages: list[Any], **options: Any) -> Any:
        state["offered"] = {page.url_path for page in pages if page.visibility == "visible"}
        return navigation(pages, **options)

    monkeypatch.setattr(st, "navigation", offering)
    yield state


def _run(page: str | None = None, **query: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=30)
    for name, value in query.items():
        at.query_params[name] = value
    at.run()
    if page is not None:
        at.switch_page(f"app_pages/{page}.py").run()
    return at


def _offered(club: dict[str, Any]) -> set[str]:
    """The url paths of the pages the sidebar offers the session (``st.navigation``'s visible ones)."""
    _run()
    return set(club["offered"])


def test_the_navigation_follows_the_role(club: dict[str, Any]) -> None:
    club["token"] = club["organiser"]
    assert {"sql", "organiser", "record", "replay", "players", "standings"} <= _offered(club)
    club["token"] = club["recorder"]
    offered = _offered(club)
    assert not {"sql", "organiser"} & offered and {"record", "replay", "players", "standings"} <= offered
    club["token"] = club["viewer"]
    offered = _offered(club)
    assert not {"sql", "organiser", "record"} & offered
    assert {"replay", "players", "standings", "train"} <= offered  # a viewer may train


def test_a_recorder_cannot_open_the_sql_console(club: dict[str, Any]) -> None:
    club["token"] = club["recorder"]
    # its address (a forwarded link) reaches the page, which says whose it is
    at = _run("sql")
    assert not at.text_area and "organiser's only" in texts(at) and not at.exception
    # the page itself refuses too, run without the navigation
    page = AppTest.from_file(str(Path(APP).parent / "app_pages" / "sql.py"), default_timeout=30).run()
    assert not page.text_area and "organiser's only" in texts(page)
    assert not page.exception


def test_sql_uploads_and_deletions_are_refused_in_the_code_that_does_them(
    club: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check is in ``dashboards/data.py`` itself, not only in what the pages show."""
    monkeypatch.setattr(access, "_in_session", lambda: True)  # as inside a page's script run
    club["token"] = club["recorder"]
    with pytest.raises(access.AccessRefusedError, match="only the organiser may run SQL"):
        data.user_query("SELECT count(*) AS n FROM matches")
    with pytest.raises(access.AccessRefusedError, match="upload"):
        data.import_upload("x.json", b"{}")
    with pytest.raises(access.AccessRefusedError, match="delete"):
        data.delete_annotation(1)
    club["token"] = club["organiser"]
    access.require_organiser("run SQL")  # the organiser passes the same check


def test_a_recorder_cannot_read_another_table_s_draft(club: dict[str, Any]) -> None:
    club["token"] = club["recorder"]
    other = _run("record", draft="bbbb2222")
    assert "another table's" in texts(other) and "two" not in texts(other)
    assert "draft" not in other.query_params
    own = _run("record", draft="aaaa1111")
    assert "`one`" in texts(own) and "another table's" not in texts(own)


@pytest.mark.parametrize(
    "asked", ["../club.access", "..%2Fclub.access", "/etc/passwd", "aaaa1111/../bbbb2222"]
)
def test_a_crafted_draft_address_opens_nothing_on_the_record_page(club: dict[str, Any], asked: str) -> None:
    club["token"] = club["organiser"]
    at = _run("record", draft=asked)
    assert "There is no draft ?" in texts(at) and "draft" not in at.query_params
    assert "`one`" not in texts(at) and "`two`" not in texts(at) and not at.exception


def test_a_recorder_is_offered_only_their_table_s_drafts(club: dict[str, Any]) -> None:
    club["token"] = club["recorder"]
    at = _run("record")
    labels = [b.label for b in at.button]
    assert any("(one)" in label for label in labels) and not any("(two)" in label for label in labels)


def test_a_viewer_gets_no_record_page(club: dict[str, Any]) -> None:
    club["token"] = club["viewer"]
    at = _run("record")
    assert "read-only pages" in texts(at) and not at.exception
    assert [b.key for b in at.button] == ["language_switch"]  # nothing to record with
    page = AppTest.from_file(str(Path(APP).parent / "app_pages" / "record.py"), default_timeout=30)
    page.query_params["draft"] = "aaaa1111"
    page.run()
    assert "read-only pages" in texts(page) and "`one`" not in texts(page) and not page.button


def test_a_revoked_session_stops_before_any_page(club: dict[str, Any]) -> None:
    club["token"] = "revoked-or-never-issued"
    at = _run()
    assert "open to the club only" in texts(at) and not at.dataframe
    # a revoked table's phone in Dutch reads it in Dutch (a helper's read English there)
    at.session_state["lang"] = "nl"
    at.run()
    assert "alleen voor de club open" in texts(at) and "open to the club only" not in texts(at)


def test_a_viewer_sees_no_upload_and_no_comment_writing(club: dict[str, Any]) -> None:
    upload, write = i18n.text("archive.upload", "en"), i18n.text("annot.write", "en")

    def boxes() -> set[str]:
        archive = _run()
        replay = _run("replay", match="random-0", deal="1")
        assert not archive.exception and not replay.exception
        return {e.label for e in [*archive.expander, *replay.expander]}

    club["token"] = club["organiser"]
    assert {upload, write} <= boxes()
    for who in ("viewer", "recorder"):
        club["token"] = club[who]
        assert not {upload, write} & boxes(), who


def test_the_organiser_page_s_helpers_are_the_organiser_s_only(
    club: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issuing, listing and revoking from a page, and the organiser's join address to show as a QR code."""
    monkeypatch.setattr(access, "_in_session", lambda: True)
    club["token"] = club["recorder"]
    for attempt in (
        access.issued_tokens,
        lambda: access.issue_token(Role.VIEWER),
        lambda: access.revoke_token("x"),
    ):
        with pytest.raises(access.AccessRefusedError):
            attempt()
    assert access.organiser_join_address() is None
    club["token"] = club["organiser"]
    token, entry = access.issue_token(Role.RECORDER, "3", "the terrace")
    assert access.server_gate().visitor(token) == Visitor(Role.RECORDER, "3")
    assert entry in access.issued_tokens()
    access.revoke_token(entry.key)
    assert access.server_gate().visitor(token) is None
    address = access.organiser_join_address()
    assert address is not None and address.endswith(f"/?token={ORGANISER_TOKEN}")
    assert access.qr_svg(address).startswith("<svg")


# --------------------------------------------------------------------------- the real server


def _get(url: str, cookie: str | None = None, method: str = "GET") -> tuple[int, bytes, dict[str, str]]:
    """Status, body and headers of one request, redirects not followed."""

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: Any, **kwargs: Any) -> None:
            return None

    asked = urllib.request.Request(url, method=method, data=b"x" if method in ("PUT", "POST") else None)
    asked.add_header("Accept", "text/html")
    if cookie:
        asked.add_header("Cookie", f"{COOKIE}_{urlsplit(url).port}={cookie}")
    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(asked, timeout=10) as answer:
            return answer.status, answer.read(), dict(answer.headers)
    except urllib.error.HTTPError as error:
        return error.code, error.read(), dict(error.headers)


def _websocket_status(url: str, cookie: str | None) -> int:
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    headers = {"Cookie": f"{COOKIE}_{urlsplit(url).port}={cookie}"} if cookie else {}
    try:
        with connect(url, additional_headers=headers, subprotocols=["streamlit"], open_timeout=10):  # type: ignore[list-item]
            return 101
    except InvalidStatus as refused:
        return int(refused.response.status_code)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """``manillen dashboard --host 0.0.0.0`` on a free port, with a recorder's, a viewer's and a
    revoked token issued through ``manillen tokens``."""
    archive = tmp_path_factory.mktemp("club") / "club.duckdb"
    build_archive(archive)
    tokens = {}
    manillen = [sys.executable, "-c", "from manillen_replay.cli import main; main()"]
    for name, role in (
        ("recorder", ["recorder", "--table", "1"]),
        ("viewer", ["viewer"]),
        ("revoked", ["viewer"]),
    ):
        arguments = [*manillen, "tokens", "issue", *role, "--db", str(archive)]
        issued = subprocess.run(arguments, capture_output=True, text=True, check=True)
        tokens[name] = issued.stdout.strip()
        tokens[f"{name}_key"] = re.search(r"issued (\w+)", issued.stderr).group(1)  # type: ignore[union-attr]
    revoking = [*manillen, "tokens", "revoke", tokens["revoked_key"], "--db", str(archive)]
    subprocess.run(revoking, check=True, capture_output=True)
    port = free_port()
    command = [*manillen, "dashboard", "--db", str(archive), "--port", str(port), "--host", "0.0.0.0"]
    with serving(command, port, {TOKEN_ENVIRONMENT: ORGANISER_TOKEN}) as address:
        yield {**tokens, "organiser": ORGANISER_TOKEN, "address": address, "archive": str(archive)}


def _static_file(served: dict[str, str]) -> str:
    """The path of one of the frontend's script files, as the page document names it."""
    status, body, _ = _get(served["address"] + "/", served["organiser"])
    assert status == 200
    found = re.search(rb'src="\.?(/?static/[^"]+\.js)"', body)
    assert found, body[:500]
    return "/" + found.group(1).decode().lstrip("/")


SERVER_PATHS = ["/", "/sql", "/record", "/archive", "/?draft=bbbb2222", "/_stcore/host-config",
                "/_stcore/metrics", "/_stcore/script-health-check", "/media/abc.png", "/favicon.png",
                "/component/x/index.html", "/app/static/icon.svg", "/_stcore/bidi-components/x/y.js",
                "/manifest.json", "/_stcore/upload_file/session/file"]  # fmt: skip


def test_the_real_server_answers_no_data_without_a_token(served: dict[str, str]) -> None:
    paths = [*SERVER_PATHS, _static_file(served)]
    for path in paths:
        for cookie in (None, "wrong", served["revoked"]):
            status, body, _ = _get(served["address"] + path, cookie)
            assert status == 403, (path, cookie, status)
            assert body.startswith(b"<!doctype html>") and b"open to the club only" in body
            assert b"alleen voor de club open" in body  # the club's language too
            assert b"streamlit" not in body.lower() and b"club.duckdb" not in body
        status, _, _ = _get(served["address"] + path + ("&" if "?" in path else "?") + "token=wrong")
        assert status == 403, path
    status, body, _ = _get(served["address"] + _static_file(served), served["viewer"])
    assert status == 200 and len(body) > 1000  # the same file opens with a token
    status, body, _ = _get(served["address"] + "/_stcore/health")
    assert (status, body) == (200, b"ok")


def test_the_real_server_s_websocket_needs_a_valid_token(served: dict[str, str]) -> None:
    stream = served["address"].replace("http://", "ws://") + "/_stcore/stream"
    assert _websocket_status(stream, None) == 403
    assert _websocket_status(stream, "wrong") == 403
    assert _websocket_status(stream, served["revoked"]) == 403
    assert _websocket_status(stream, served["recorder"]) == 101


def test_the_real_server_takes_no_upload_but_the_organiser_s(served: dict[str, str]) -> None:
    upload = served["address"] + "/_stcore/upload_file/session/file"
    for who in ("recorder", "viewer"):
        status, body, _ = _get(upload, served[who], method="PUT")
        assert status == 403 and body == access.ORGANISER_ONLY_PAGE, who
    status, body, _ = _get(upload, served["organiser"], method="PUT")
    # past the gate: Streamlit's own answer (no XSRF token, an unknown session), not the gate's
    assert body not in (access.ORGANISER_ONLY_PAGE, access.REFUSED_PAGE), (status, body)


def test_the_real_server_s_join_address_sets_the_cookie(served: dict[str, str]) -> None:
    status, _, headers = _get(served["address"] + f"/record?token={served['recorder']}")
    assert status == 303 and headers["location"] == "/record"
    port = urlsplit(served["address"]).port
    assert headers["set-cookie"].startswith(f"{COOKIE}_{port}={served['recorder']};")


def test_the_real_server_takes_a_token_issued_while_it_runs(served: dict[str, str]) -> None:
    token, entry = issue(token_file(Path(served["archive"]).resolve()), Role.VIEWER)
    assert _get(served["address"] + "/", token)[0] == 200
    revoke(token_file(Path(served["archive"]).resolve()), entry.key)
    assert _get(served["address"] + "/", token)[0] == 403


def test_access_errors_are_manillen_errors() -> None:
    from manillen_replay.errors import ManillenError

    assert issubclass(AccessError, ManillenError) and issubclass(access.AccessRefusedError, ManillenError)
