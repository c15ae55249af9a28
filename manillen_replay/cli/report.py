"""The ``manillen report`` command: a match review to take home, as one HTML file."""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import ManillenError
from .common import existing_archive, no_such_match


@click.command()
@click.option(
    "--db",
    envvar="MANILLEN_DB",
    default="manillen.duckdb",
    show_default=True,
    metavar="FILE",
    help="The archive (a DuckDB file); $MANILLEN_DB when set.",
)
@click.option("--match", "match_id", required=True, metavar="ID", help="The match to review.")
@click.option("--player", metavar="NAME", help="Review for this player (any case); default: everyone.")
@click.option(
    "--lang", type=click.Choice(["en", "nl"]), default="en", show_default=True, help="The report's language."
)
@click.option(
    "--out",
    required=True,
    type=click.Path(dir_okay=False, writable=True),
    metavar="FILE.html",
    help="Where to write the report (replaced if it exists).",
)
def report(db: str, match_id: str, player: str | None, lang: str, out: str) -> None:
    """Write a match review as one self-contained HTML file, to mail or open on a phone.

    The file holds the match (teams, a score chart, every deal), and for the player (or
    everyone): accuracy, the luck and skill ledger (the cards against the decisions), and the
    five costliest decisions, each with the table drawn at that moment, the card played, the
    better card with both costs, and the explanation. Every coach comment stands where it
    belongs. Styles, charts and card pictures are inside the file: it needs no network, and
    prints on A4. Costs, accuracy and the ledger need `manillen analyze --depth solver` first.

    Examples:

    \b
      manillen import data/samples/cafe-rules.json --db review.duckdb
      manillen analyze --db review.duckdb --depth solver --samples 10
      manillen report --db review.duckdb --match cafe-rules --player Anna --lang nl --out anna.html
    """
    # the store and the report's polars load here, not for `manillen report --help`
    from ..report import make_report
    from ..store import Store

    existing_archive(db)  # a missing file is a usage error (exit 2), as in every command
    try:
        with Store(db, read_only=True) as store:
            if not store.query("SELECT 1 FROM matches WHERE match_id = ?", [match_id]).height:
                raise no_such_match(match_id, f"the archive {db}")  # exit 2, as in every command
            html = make_report(store, match_id, player=player, lang=lang)
    except ManillenError as error:
        raise click.ClickException(str(error)) from None
    try:
        Path(out).write_text(html, encoding="utf-8")
    except OSError as error:
        raise click.ClickException(f"cannot write {out!r}: {error.strerror}") from None
    click.echo(f"wrote {out} ({len(html.encode()) // 1024} KB): open it in any browser, no network needed")


COMMANDS: list[click.Command] = [report]
