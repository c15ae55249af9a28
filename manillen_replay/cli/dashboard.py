"""The ``dashboard`` command: the Streamlit app on this machine, browsing the archive read-only."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import click

from ..access import (
    REQUIRED_ENVIRONMENT,
    TOKEN_ENVIRONMENT,
    TOKEN_MIN,
    is_loopback,
    join_address,
    lan_address,
    new_token,
    qr_text,
    token_file,
)
from ..archive_defaults import default_archive
from ..errors import ManillenError
from .common import db_option, plural

APP = Path(__file__).resolve().parents[2] / "dashboards" / "streamlit_app.py"
"""The app's entry point: ``dashboards/`` sits beside the package in the repository."""
SERVED = APP.parent / "asgi_app.py"
"""What Streamlit runs: the entry point as an ``st.App`` that tells each new tab where the server
is, so a tab opened at a page's address does not probe that address first (``dashboards/asgi_app.py``)."""
STREAMLIT_SETTINGS = (
    "--server.headless", "true",
    "--browser.gatherUsageStats", "false",
    "--client.toolbarMode", "viewer",
    # no watcher polling the pages' files for edits in every session: a user does not edit them
    "--server.fileWatcherType", "none",
    # Streamlit drops its compiled scripts whenever no tab is open, so a person's first tab
    # compiles the entry point and the page again; magic (writing bare expressions, which no
    # page has) rewrites their syntax tree first, the larger part of that
    "--runner.magicEnabled", "false",
    # no full garbage collection after every run of a page: it holds the interpreter while the
    # run's last message (script finished) waits to be sent; Python still collects on its own
    "--runner.postScriptGC", "false",
)  # fmt: skip
"""The settings Streamlit serves the dashboard with (the benches serve their floors with them)."""


@click.command()
@db_option("The archive to show (default: $MANILLEN_DB or manillen.duckdb here).")
@click.option(
    "--port", type=click.IntRange(1, 65535), default=8501, show_default=True, help="The port to serve on."
)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    metavar="ADDRESS",
    help="The address to listen on: 127.0.0.1 is this computer only; 0.0.0.0 serves the club's "
    "network, where every visitor needs a token (the join address printed at start).",
)
@click.option(
    "--token/--no-token",
    "token_asked",
    default=None,
    help="Ask visitors for a token even on 127.0.0.1 (the default beyond it; --no-token is refused there).",
)
def dashboard(db: str | None, port: int, host: str, token_asked: bool | None) -> None:
    """Open the archive in the dashboard, in your browser at http://127.0.0.1:PORT.

    Pages: Archive, Record, Club evening, Standings, Match, Deal replay, Mistakes, Train,
    Players, SQL and Annotations (see docs/dashboard.md). The archive is opened read-only for
    browsing; saving a coach comment, importing an upload or saving a recorded deal opens it
    for writing for a moment, and so does the solver's review, which goes through the matches
    not yet reviewed in the background, the newest first, storing what `manillen analyze
    --depth solver` would ($MANILLEN_REVIEW=off starts the dashboard without it). Stop with
    Ctrl-C (or SIGTERM: the Streamlit server is stopped with it).

    Served beyond this computer (--host 0.0.0.0), the dashboard answers only visitors with a
    token: it prints the organiser's join address (http://ADDRESS:PORT/?token=...) and its QR
    code at start (a new token each start, unless $MANILLEN_TOKEN holds one). The Club evening
    page gives each table of an evening a join address with its recorder's token, and a QR code
    to scan; or issue tokens yourself: manillen tokens issue (see docs/dashboard.md, "A club
    evening" and "Sharing on a network").

    \b
    Examples:
      manillen dashboard --db data/demo.duckdb --port 8501
      manillen dashboard --db club.duckdb --host 0.0.0.0     # the club's wifi: prints the join address
    """
    if not (APP.exists() and SERVED.exists()):
        raise click.ClickException(
            f"the dashboard files are missing: expected {APP}. The dashboard runs from a checkout of "
            "the manillen-replay repository (the dashboards/ folder beside manillen_replay/)."
        )
    beyond = not is_loopback(host)
    chosen = os.environ.get(TOKEN_ENVIRONMENT)
    if (beyond or token_asked) and chosen and len(chosen) < TOKEN_MIN:
        raise click.ClickException(
            f"${TOKEN_ENVIRONMENT} holds {plural(len(chosen), 'character')}, too few for a token "
            f"anyone on the network could try to guess: give at least {TOKEN_MIN} (python -c "
            '"import secrets; print(secrets.token_urlsafe(32))" makes one), or unset it for a new one '
            "at each start"
        )
    archive = Path(db or default_archive()).resolve()
    if archive.is_file() and not _looks_like_an_archive(archive):
        # as every command says it: a page after page of this error, in a served dashboard, helps nobody
        raise click.UsageError(
            f"{str(archive)!r} is not an archive (a DuckDB file): give the archive's file with --db "
            f"(a record file is imported into one: manillen import {archive} --db club.duckdb)"
        )
    if not archive.exists():
        click.echo(
            f"no archive at {archive} yet: the dashboard will show how to import matches "
            f"(manillen import FILE --db {archive}).",
            err=True,
        )
    else:
        _upgrade(archive)
    if beyond and token_asked is False:
        raise click.ClickException(
            f"--no-token is refused with --host {host}: served beyond this computer, the dashboard "
            "needs a token (drop --no-token, or serve on 127.0.0.1)"
        )
    command, added = streamlit_command(archive, host, port)
    environment = {**os.environ, **added}
    if host in ("0.0.0.0", "::"):
        # every address of this computer: the join address below is the one to give out
        where = f"port {port} of every network address of this computer (join with the address below)"
    else:
        where = f"http://{host}:{port}"
    click.echo(f"Manillen dashboard on {where}, showing {archive} (Ctrl-C stops it)", err=True)
    if beyond or token_asked:
        token = chosen or new_token()
        environment.update({TOKEN_ENVIRONMENT: token, REQUIRED_ENVIRONMENT: "token"})
        announce_join(host, port, token, archive)
    returncode = run_forwarding_signals(command, environment)
    if returncode not in (0, -signal.SIGINT, -signal.SIGTERM, 130):
        raise click.ClickException(f"streamlit stopped with exit code {returncode}")


def _upgrade(archive: Path) -> None:
    """An archive of an earlier version of this program, upgraded before it is served: the pages
    open it read-only, and said on every page that it needs `manillen import --db` first."""
    from ..store import ArchiveOutdatedError, Store

    try:
        Store(archive, read_only=True).close()
    except ArchiveOutdatedError:
        try:
            with Store(archive) as store:
                click.echo(
                    f"upgraded {archive} to this version's layout (schema {store.schema_version})", err=True
                )
        except ManillenError as error:  # held by another program: the pages say what to do
            click.echo(f"could not upgrade {archive}: {error}", err=True)
    except ManillenError:  # the pages say what is wrong with it, in the reader's language
        pass


def _looks_like_an_archive(path: Path) -> bool:
    """Whether a file starts as DuckDB's database files do, read without loading DuckDB."""
    from ..record.io import is_duckdb_file

    try:
        return is_duckdb_file(path)
    except OSError:
        return True  # unreadable: the dashboard's pages say why


def streamlit_command(archive: Path, host: str, port: int) -> tuple[list[str], dict[str, str]]:
    """What ``manillen dashboard`` runs: Streamlit's command line serving the dashboard on
    ``host`` and ``port``, and what it adds to the environment (the archive to show)."""
    command = [
        sys.executable, str(APP.parent / "serve.py"), "run", str(SERVED),
        "--server.address", host,
        "--server.port", str(port),
        *STREAMLIT_SETTINGS,
    ]  # fmt: skip
    return command, {"MANILLEN_DB": str(archive)}


def announce_join(host: str, port: int, token: str, archive: Path) -> None:
    """Print the organiser's join address and its QR code (as Jupyter prints its token's address)."""
    reached = lan_address() if host in ("0.0.0.0", "::") else host
    address = join_address(reached, port, token)
    click.echo(
        "Every visitor needs a token. The organiser's join address (keep it to yourself; it opens "
        f"everything):\n    {address}",
        err=True,
    )
    if reached != "127.0.0.1" and not is_loopback(reached):
        click.echo(f"or, on this computer:\n    {join_address('127.0.0.1', port, token)}", err=True)
    click.echo(qr_text(address), err=True, nl=False)
    click.echo(
        "A club evening: open the Club evening page with this address; setting up the evening "
        "gives each table a join address and a QR code of its own.\n"
        f"A token for table 1's recorder: manillen tokens issue recorder --table 1 --db {archive}\n"
        f"A viewer's token: manillen tokens issue viewer --db {archive} (issued tokens are kept, "
        f"hashed, in {token_file(archive)}; manillen tokens revoke KEY ends one)",
        err=True,
    )


FORWARDED = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
"""Signals that stop the dashboard: passed on to the Streamlit server, which stops cleanly."""


def run_forwarding_signals(command: list[str], environment: dict[str, str]) -> int:
    """Run ``command`` as a child, pass it each signal in :data:`FORWARDED`, wait for it to end.

    A service manager, a container or ``kill`` stops ``manillen dashboard`` with SIGTERM; without
    this the Streamlit child would be orphaned and keep serving.

    :returns: the child's exit code (negative: the signal that ended it).
    """
    child = subprocess.Popen(command, env=environment)
    received: list[int] = []

    def forward(signum: int, _frame: object) -> None:
        if not received:  # said in the log: a stop by a service manager looked like a crash
            name = signal.Signals(signum).name
            click.echo(f"{time.strftime('%H:%M:%S')} {name}: stopping the dashboard", err=True)
        received.append(signum)
        if child.poll() is None:
            child.send_signal(signum)

    # a signal the shell set to be ignored (SIGHUP under `nohup`) stays ignored here, and so in the
    # child, which inherits it: a dashboard left running after its terminal closed kept dying
    forwarded = [number for number in FORWARDED if signal.getsignal(number) is not signal.SIG_IGN]
    previous = {number: signal.signal(number, forward) for number in forwarded}
    try:
        returncode = child.wait()
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
    if received:
        click.echo(f"{time.strftime('%H:%M:%S')} the dashboard stopped", err=True)
    return returncode


COMMANDS: list[click.Command] = [dashboard]
