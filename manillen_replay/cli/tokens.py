"""The ``tokens`` command: the dashboard's tokens for a table's recorder and for viewers."""

from __future__ import annotations

import ipaddress
import re
from datetime import timedelta
from pathlib import Path

import click

from ..access import (
    AccessAskedError,
    AccessError,
    Role,
    issue,
    join_address,
    qr_text,
    read_issued,
    revoke,
    token_file,
)
from ..archive_defaults import default_archive
from .common import db_option

DB_OPTION = db_option(
    "The archive the dashboard shows (default: $MANILLEN_DB or manillen.duckdb here); its "
    "tokens are kept beside it, in ARCHIVE.access.json."
)


def _tokens(db: str | None) -> Path:
    """The token file of the archive. A dashboard may serve an archive not made yet (the Record
    page makes it), so a missing one is allowed, but said: a token issued beside a misspelt
    archive name would open nothing."""
    archive = Path(db or default_archive()).resolve()
    if not archive.exists():
        click.echo(
            f"note: no archive at {archive} yet; the tokens are for a dashboard serving that file "
            "(`manillen dashboard --db` with the same name)",
            err=True,
        )
    return token_file(archive)


@click.group()
def tokens() -> None:
    """Issue, list and revoke the tokens that open a dashboard served on a network.

    The organiser's token is made by manillen dashboard --host at each start and opens
    everything. Issue a recorder's token for each table (its Record page and the read-only
    pages) and a viewer's token (the read-only pages): each is shown once, and only its hash is
    kept. A running dashboard takes an issued or revoked token into account at the next request.

    \b
    Examples:
      manillen tokens issue recorder --table 1 --db club.duckdb --address 192.168.1.20:8501
      manillen tokens issue viewer --note "the bar's screen" --db club.duckdb
      manillen tokens list --db club.duckdb
      manillen tokens revoke --table 1 --db club.duckdb
    """


_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
HOST_NAME = re.compile(rf"{_LABEL}(?:\.{_LABEL})*")
"""A host's name or an IPv4 address: labels of letters, digits and hyphens, joined by dots."""


def _address(
    _context: click.Context, _parameter: click.Parameter, value: str | None
) -> tuple[str, int] | None:
    """``--address HOST:PORT`` as its host and port, checked before any token is issued (a token
    stored and then refused for its address would be kept unseen by anyone).

    :raises click.BadParameter: for anything but a host's name or address and a port 1 to 65535.
    """
    if value is None:
        return None
    host, _, port = value.strip().rpartition(":")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    try:
        ipaddress.ip_address(host)
        known_host = True
    except ValueError:
        known_host = HOST_NAME.fullmatch(host) is not None
    if not known_host or not port.isdigit():
        raise click.BadParameter(f"{value!r} is not HOST:PORT (192.168.1.20:8501)")
    if not 1 <= int(port) <= 65535:
        raise click.BadParameter(f"{value!r}: a port is 1 to 65535, not {port}")
    return host, int(port)


DURATION = re.compile(r"(\d+)\s*([mhd])")
"""A token's time: a whole number of minutes, hours or days (``90m``, ``12h``, ``7d``)."""
UNIT = {"m": "minutes", "h": "hours", "d": "days"}


def _valid(_context: click.Context, _parameter: click.Parameter, value: str | None) -> timedelta | None:
    """``--valid 12h`` as a time span, checked before any token is issued.

    :raises click.BadParameter: for anything but a number and m, h or d.
    """
    if value is None:
        return None
    found = DURATION.fullmatch(value.strip().lower())
    if found is None or int(found[1]) == 0:
        raise click.BadParameter(f"{value!r} is not a time: write 90m, 12h or 7d (minutes, hours, days)")
    return timedelta(**{UNIT[found[2]]: int(found[1])})


@tokens.command("issue")
@click.argument("role", type=click.Choice(["recorder", "viewer"]))
@click.option("--table", default=None, metavar="NAME", help="The table a recorder records (1, 2, terrace).")
@click.option(
    "--note", default="", metavar="TEXT", help="Who the token is for, shown by manillen tokens list."
)
@click.option(
    "--address",
    default=None,
    metavar="HOST:PORT",
    callback=_address,
    help="Where the dashboard is reached (192.168.1.20:8501): print the join address and its QR code.",
)
@click.option(
    "--valid",
    default=None,
    metavar="TIME",
    callback=_valid,
    help="How long the token opens the dashboard (90m, 12h, 7d); without it, until it is revoked.",
)
@DB_OPTION
def issue_command(
    role: str,
    table: str | None,
    note: str,
    address: tuple[str, int] | None,
    valid: timedelta | None,
    db: str | None,
) -> None:
    """Issue a token for a table's RECORDER (--table) or a VIEWER, and print it once.

    \b
    Examples:
      manillen tokens issue recorder --table 2 --db club.duckdb
      manillen tokens issue viewer --valid 12h --note "tonight's bar screen" --db club.duckdb
    """
    path = _tokens(db)
    try:
        token, entry = issue(path, Role(role), table, note, valid)
    except AccessAskedError as error:
        raise click.UsageError(str(error)) from None
    except AccessError as error:
        raise click.ClickException(str(error)) from None
    whom = f"table {entry.table}'s recorder" if entry.table else "a viewer"
    until = f", valid until {entry.expires}" if entry.expires else ""
    click.echo(
        f"issued {entry.key} for {whom}{until} (revoke with: manillen tokens revoke {entry.key})", err=True
    )
    if address is None:
        click.echo(token)
        click.echo("it opens the dashboard as http://ADDRESS:PORT/?token=<the token above>", err=True)
        return
    host, port = address
    page = "record" if entry.role is Role.RECORDER else ""
    joined = join_address(host, port, token, page=page)
    click.echo(joined)
    click.echo(qr_text(joined), err=True, nl=False)


@tokens.command("list")
@DB_OPTION
def list_command(db: str | None) -> None:
    """List the issued tokens (their keys, roles and tables; never the tokens).

    \b
    Example:
      manillen tokens list --db club.duckdb
    """
    try:
        issued = read_issued(_tokens(db))
    except AccessError as error:
        raise click.ClickException(str(error)) from None
    if not issued:
        click.echo("no tokens issued", err=True)
    for entry in issued:
        table = f" table {entry.table}" if entry.table else ""
        note = f"  {entry.note}" if entry.note else ""
        ends = ""
        if entry.expires:
            ends = f"  expired {entry.expires}" if entry.expired() else f"  valid until {entry.expires}"
        click.echo(f"{entry.key}  {entry.role.value}{table}  issued {entry.issued}{ends}{note}")


@tokens.command("revoke")
@click.argument("key", required=False)
@click.option(
    "--table", default=None, metavar="NAME", help="Revoke every recorder's token of this table instead."
)
@DB_OPTION
def revoke_command(key: str | None, table: str | None, db: str | None) -> None:
    """Revoke the issued token KEY (from manillen tokens list), or every token of a table: it
    opens nothing from the next request on, and a tab open with it stops at its next click.

    \b
    Examples:
      manillen tokens revoke --table 2 --db club.duckdb
    """
    path = _tokens(db)
    if (key is None) == (table is None):
        raise click.UsageError("name one token (its KEY, from manillen tokens list) or a --table")
    try:
        keys = [key] if key is not None else [t.key for t in read_issued(path) if t.table == table]
        if not keys:
            raise click.UsageError(f"no issued token is for table {table} (see manillen tokens list)")
        for one in keys:
            entry = revoke(path, one)
            whom = f"table {entry.table}'s recorder" if entry.table else "a viewer"
            click.echo(f"revoked {entry.key} ({whom})", err=True)
    except AccessAskedError as error:
        raise click.UsageError(str(error)) from None
    except AccessError as error:
        raise click.ClickException(str(error)) from None


COMMANDS: list[click.Command] = [tokens]
