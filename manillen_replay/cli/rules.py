"""``manillen rules``: a club's rules saved once in the archive, by name (save, list, show, delete)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..errors import InvalidOptionError, ManillenError
from .common import DB_OPTION, RULE_OPTION, echo_json, existing_archive, plural, read_entries, rules_option

if TYPE_CHECKING:  # the store (DuckDB, polars, Arrow) loads when a command opens the archive
    from ..club_rules import ClubRules
    from ..rules import Rules
    from ..store import Store


@contextmanager
def _archive(db: str, *, read_only: bool) -> Iterator[Store]:
    """The archive, every problem opening it a message (a missing one a usage error when read)."""
    from ..store import Store

    if read_only:
        existing_archive(db)
    try:
        store = Store.open_in_turn(db, read_only=read_only, wait=10.0)
    except ManillenError as error:
        raise click.ClickException(str(error)) from None
    try:
        yield store
    finally:
        store.close()


def _rules_of_record(path: str) -> Rules:
    """The rules the matches in a file are played under: one set, else a message.

    :raises click.UsageError: for a missing file or folder, one without a match, or matches under
        other rules.
    """
    from ..engine import rules_of

    if not Path(path).exists():
        raise click.UsageError(f"no such file: {path!r}")
    found: dict[Rules, str] = {}
    for entry in read_entries([path]):
        try:
            found.setdefault(rules_of(entry.decode()), entry.place)
        except ManillenError as error:  # a problem of the record is already placed in the file
            placed = str(error) if str(error).startswith(entry.source) else f"{entry.place}: {error}"
            raise click.ClickException(f"cannot take the rules of {placed}") from None
    if not found:
        raise click.UsageError(f"{path!r} holds no match to take the rules of")
    if len(found) > 1:
        places = ", ".join(list(found.values())[:3])
        raise click.ClickException(
            f"the matches in {path!r} are played under {len(found)} sets of rules ({places}): "
            "give a file of one match, or the options with --rule"
        )
    return next(iter(found))


def _lines(saved: ClubRules) -> list[str]:
    options = saved.describe()
    return [f"  {line}" for line in options] or ["  (the standard rules: every option at its default)"]


@click.group("rules", context_settings={"help_option_names": ["-h", "--help"]})
def rules() -> None:
    """A club's rules saved once in the archive, by name, and chosen by it after.

    `manillen rules save NAME` keeps the variant and the house-rule options (--rule NAME=VALUE,
    or those of a recorded match, --from-record FILE) under a name; `manillen import --rules
    NAME` then writes them into every imported match that names no house rules of its own, and the
    dashboard's Record page offers them by name for a new match. Options that cannot hold
    together are refused when saved, with the reason. The options are listed in docs/rules.md.

    \b
    Examples:
      manillen rules save zwaan --rule underbuy=allowed --rule cafe.en_face=true --db club.duckdb
      manillen rules save kroon --from-record data/samples/house-capot-double.json --db club.duckdb
      manillen rules list --db club.duckdb
      manillen rules show zwaan --db club.duckdb
      manillen rules delete kroon --db club.duckdb
    """


@rules.command("save", short_help="Save a club's rules under NAME.")
@click.argument("name")
@RULE_OPTION
@click.option(
    "--from-record",
    "record_file",
    metavar="FILE",
    help="Take the variant and rules of the match in FILE (.json, .mnl; a .jsonl of matches "
    "played under one set of rules).",
)
@click.option("--replace", is_flag=True, help="Save over the rules kept under NAME.")
@DB_OPTION
def save(name: str, rule_values: tuple[str, ...], record_file: str | None, replace: bool, db: str) -> None:
    """Save a club's rules under NAME (the archive is created when missing).

    The rules are the standard ones with each --rule NAME=VALUE changed (variant=three for a
    variant), or those of the match in --from-record FILE. Options that conflict are refused.

    \b
    Examples:
      manillen rules save dorp --rule underbuy=allowed --rule target=151 --db club.duckdb
      manillen rules save avond --from-record data/samples/club-evening.json --db club.duckdb
    """
    if record_file is not None and rule_values:
        raise click.UsageError("give the options with --rule or take them --from-record FILE, not both")
    from ..club_rules import check_name

    try:  # before the archive is opened (or made): a name that cannot be is a usage error
        check_name(name)
    except InvalidOptionError as error:
        raise click.UsageError(str(error)) from None
    chosen = _rules_of_record(record_file) if record_file is not None else rules_option(rule_values)
    from ..rules import unused_options

    unused = unused_options(chosen)
    if unused:  # a café rule the variant has no room for: saved, it was never applied
        raise click.UsageError(unused[0])
    with _archive(db, read_only=False) as store:
        try:
            saved = store.save_club_rules(name, chosen, replace=replace)
        except ManillenError as error:
            raise click.ClickException(str(error)) from None
    click.echo(f"{db}: saved the club rules {saved.name!r} ({saved.rules.variant})")
    click.echo("\n".join(_lines(saved)))


@rules.command("list", short_help="List the club rules saved.")
@DB_OPTION
def list_(db: str) -> None:
    """List the club rules saved in the archive, each with the options it changes.

    \b
    Example:
      manillen rules list --db club.duckdb
    """
    with _archive(db, read_only=True) as store:
        try:
            saved = store.club_rule_sets()
        except InvalidOptionError as error:
            raise click.ClickException(f"cannot read the saved rules: {error}") from None
    if not saved:
        click.echo(f"{db}: no club rules saved; save some with `manillen rules save NAME --rule ...`")
        return
    click.echo(f"{db}: {plural(len(saved), 'set')} of club rules")
    for one in saved:
        when = one.saved_at.strftime("%Y-%m-%d %H:%M") if one.saved_at else ""
        click.echo(f"{one.name} ({one.rules.variant}, saved {when})")
        click.echo("\n".join(_lines(one)))


@rules.command("show", short_help="Show the club rules saved under NAME.")
@click.argument("name")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the match's `variant` and `rules` as a record writes them (to paste into one).",
)
@DB_OPTION
def show(name: str, as_json: bool, db: str) -> None:
    """Show the club rules saved under NAME: each option that differs from the standard rules.

    \b
    Examples:
      manillen rules show zwaan --db club.duckdb
      manillen rules show zwaan --json --db club.duckdb
    """
    saved = _saved(db, name)
    if as_json:
        echo_json({"variant": saved.rules.variant, "rules": saved.options})
        return
    click.echo(f"{saved.name} ({saved.rules.variant})")
    click.echo("\n".join(_lines(saved)))


@rules.command("delete", short_help="Forget the club rules saved under NAME.")
@click.argument("name")
@DB_OPTION
def delete(name: str, db: str) -> None:
    """Forget the club rules saved under NAME; the matches played under them keep their rules
    (each record holds its own).

    \b
    Example:
      manillen rules delete dorp --db club.duckdb
    """
    with _archive(db, read_only=False) as store:
        deleted = store.delete_club_rules(name)
        if deleted is None:
            raise click.UsageError(_unknown(store, name, db))
    click.echo(f"{db}: deleted the club rules {deleted.name!r}")  # as saved, not as typed


def _saved(db: str, name: str) -> ClubRules:
    """The rules saved under ``name``; a usage error naming those there are when there is none."""
    with _archive(db, read_only=True) as store:
        try:
            saved = store.club_rules(name)
        except InvalidOptionError as error:
            raise click.ClickException(f"cannot read the saved rules {name!r}: {error}") from None
        if saved is None:
            raise click.UsageError(_unknown(store, name, db))
    return saved


def _unknown(store: Store, name: str, db: str) -> str:
    names = [str(n) for n in store.query("SELECT name FROM club_rules ORDER BY lower(name)")["name"]]
    known = f"the saved ones are {', '.join(map(repr, names))}" if names else "none are saved"
    return f"no club rules {name.strip()!r} in {db}: {known}"


COMMANDS: list[click.Command] = [rules]
