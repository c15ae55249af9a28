"""Commands on the game archive: import, sql, export."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..archive_defaults import IMPORT_MEMORY_LIMIT, QUERY_MEMORY_LIMIT, QUERY_TIMEOUT
from ..errors import ManillenError
from ..record.io import STDIN
from .common import (
    DB_OPTION,
    PROGRESS_MINIMUM,
    WAIT_OPTION,
    check_output_file,
    check_records_file,
    count_records,
    existing_archive,
    plural,
    progress,
    refuse_to_replace,
    say_when_typing,
    written_whole,
)

if TYPE_CHECKING:  # the store (DuckDB, polars, Arrow) loads when a command opens an archive
    import polars as pl

    from ..club_rules import ClubRules
    from ..store import ImportSummary, Store

SHOWN_REJECTS = 20
"""Refused records listed one by one after an import; the rest are in the rejects table."""

TABLE_ROWS = 1000
"""Rows ``--format table`` prints; more need csv or json."""


def _place(path: str | Path) -> str:
    """Where a command wrote, as the user reads it: ``-`` is standard output."""
    return "standard output" if str(path) == "-" else str(path)


@contextmanager
def _open(db: str, *, read_only: bool, wait: float = 0.0) -> Iterator[Store]:
    """The archive, with every problem opening it turned into a message.

    :param wait: seconds to wait, saying so, while the dashboard or another command holds it.
    """
    from ..store import Store

    if read_only:
        existing_archive(db)  # a missing file is a usage error, as in every command
    elif db != ":memory:" and not Path(db).parent.is_dir():
        # DuckDB's own words ("cannot open file ...: No such file or directory") hid the folder
        raise click.UsageError(
            f"there is no folder {str(Path(db).parent)!r} for the archive {db!r}: create it first, "
            "or give --db a file in a folder that exists"
        )
    try:
        store = Store.open_in_turn(
            db, read_only=read_only, wait=wait, on_wait=lambda message: click.echo(message, err=True)
        )
    except ManillenError as error:
        raise click.ClickException(str(error)) from None
    try:
        yield store
    finally:
        store.close()


def _say_summary(summary: ImportSummary) -> str:
    kept = f", kept {summary.kept} as they were (--no-replace)" if summary.kept else ""
    deals = f"({plural(summary.deals, 'deal')})"
    # the deals written are the new matches' and the replaced ones': said after both when some
    # were replaced ("imported 0 matches (15 deals), replaced 1" gave the deals to no match)
    written = (
        f"imported {plural(summary.imported, 'match', 'matches')}, replaced {summary.replaced} "
        f"({plural(summary.deals, 'deal')} in all)"
        if summary.replaced
        else f"imported {plural(summary.imported, 'match', 'matches')} {deals}, replaced 0"
    )
    comments = ""
    if summary.comments_added:
        added = plural(summary.comments_added, "coach comment")
        comments = f" ({added} added to them: the same games, with comments the archive lacked)"
    return f"{written}, skipped {summary.skipped} already present{comments}{kept}, refused {summary.refused}"


def _say_replacements(summary: ImportSummary, db: str) -> None:
    """Name every match replaced, with its deals before and after, and how to get it back."""
    shown = summary.replacements[:SHOWN_REJECTS]
    for replaced in shown:
        click.echo(f"replaced {replaced.describe()}", err=True)
    if len(summary.replacements) > len(shown):
        click.echo(f"... and {len(summary.replacements) - len(shown)} more replaced", err=True)
    if shown:
        first = shown[0].match_id
        click.echo(
            "the earlier versions are kept in the archive's match_versions table: "
            f"`manillen import --restore {first} --db {db}` puts {first}'s back",
            err=True,
        )


def _check_memory_limit(_context: click.Context, _parameter: click.Parameter, value: str) -> str:
    """The --memory-limit text, once it is known to be a size DuckDB can work in."""
    from ..store import parse_memory_limit

    try:
        parse_memory_limit(value)
    except ManillenError as error:
        raise click.BadParameter(str(error)) from None
    return value


@click.command("import")
@click.argument("paths", nargs=-1, type=click.Path())
@DB_OPTION
@click.option("--quiet", "-q", is_flag=True, help="No progress bar and no list of refused records.")
@click.option(
    "--memory-limit",
    default=IMPORT_MEMORY_LIMIT,
    show_default=True,
    metavar="SIZE",
    callback=_check_memory_limit,
    help="Memory DuckDB may hold while importing (such as 256MB or 2GB); past it, the rows waiting "
    "for the file's commit go to temporary files beside the archive.",
)
@click.option(
    "--no-replace",
    is_flag=True,
    help="Keep the archive's version of a match whose id is known but whose content changed "
    "(counted as kept) instead of replacing it.",
)
@click.option(
    "--rules",
    "club_name",
    metavar="NAME",
    help="Write the club rules saved under NAME (manillen rules save) into every match that names "
    "no house rules of its own; a match that names others (or another variant) is refused, the "
    "others imported.",
)
@click.option(
    "--restore",
    "restore_id",
    metavar="MATCH",
    help="Put back the latest earlier version of match MATCH (kept when an import replaced it), "
    "with the analysis it had then; the version it replaces is kept in turn. No PATHS with it.",
)
@click.option(
    "--version",
    "restore_version",
    type=click.IntRange(min=1),
    metavar="N",
    help="With --restore: version N (see the match_versions table) instead of the latest.",
)
@WAIT_OPTION
def import_(
    paths: tuple[str, ...],
    db: str,
    quiet: bool,
    memory_limit: str,
    no_replace: bool,
    club_name: str | None,
    restore_id: str | None,
    restore_version: int | None,
    wait: float,
) -> None:
    """Put recorded matches into the archive: files (.json, .mnl), archives (.jsonl) or folders
    (- reads them from standard input).

    Importing is safe to repeat: a match already in the archive is skipped, and a match whose
    id is known but whose content changed replaces the old one; each match replaced is named
    with its deals before and after, and the old version is kept in the archive's
    `match_versions` table, so `--restore MATCH` puts it back (`--no-replace` keeps the
    archive's versions instead). Each file is imported in one transaction, so an interrupted
    import (Ctrl-C, a crash, a full disk) leaves no half match. Refused records are listed and
    kept in the archive's `rejects` table with their file, line, JSON pointer and text.

    With --rules NAME, a club's rules saved in the archive (`manillen rules save NAME`) fill in
    what each match leaves unnamed: a match without `rules` takes the club's house rules, one
    without `variant` the club's variant, so the archive keeps each match with the rules it was
    played under. What a match names must be the club's: another variant, or other house rules,
    and it is refused, with the options that differ.

    Without PATHS, creates the archive or upgrades an older one to this version's schema.

    Memory stays flat however large a file is: what DuckDB holds is capped by --memory-limit,
    and the rows of a file waiting for its commit go to temporary files beside the archive.

    Exit code: 0 when every record was imported or already present, 1 when any was refused.

    \b
    Examples:
      manillen import data/demo.jsonl
      manillen import data/samples/ --db club.duckdb
      manillen import data/demo.jsonl --db big.duckdb --memory-limit 1GB
      manillen rules save zwaan --rule underbuy=allowed --rule cafe.en_face=true --db club.duckdb
      manillen import data/demo.jsonl --rules zwaan --db club.duckdb
    """
    from ..store import SCHEMA_VERSION, ImportSummary

    if restore_version is not None and restore_id is None:
        raise click.UsageError("--version N goes with --restore MATCH")
    _refuse_record_as_archive(db, paths, restoring=restore_id is not None)
    if restore_id is not None:
        if paths or no_replace or club_name is not None:
            raise click.UsageError("--restore MATCH takes no PATHS, no --no-replace and no --rules")
        _restore(db, restore_id, restore_version, wait)
        return
    missing = [p for p in paths if p != STDIN and not Path(p).exists()]
    if missing:
        raise click.UsageError(f"no such file or folder: {missing[0]!r}")
    if club_name is not None:
        existing_archive(db, " and save the club's rules with `manillen rules save NAME`")
    summary = ImportSummary()
    new = not Path(db).exists()
    with _open(db, read_only=False, wait=wait) as store:
        if new and not quiet:  # a mistyped --db would otherwise fill a new archive in silence
            click.echo(f"{db}: no archive of that name yet: making a new one", err=True)
        if not paths:  # the upgrade the other commands' message sends here: said, not "imported 0"
            if new:
                click.echo(f"{db}: a new, empty archive (schema version {SCHEMA_VERSION})")
            elif store.upgraded_from == 0:
                click.echo(
                    f"{db}: an empty DuckDB file, now an empty archive (schema version {SCHEMA_VERSION})"
                )
            elif store.upgraded_from is not None:
                click.echo(f"{db}: upgraded from schema version {store.upgraded_from} to {SCHEMA_VERSION}")
            else:
                click.echo(f"{db}: already at schema version {SCHEMA_VERSION}: nothing to upgrade or import")
            return
        club = _club_rules(store, club_name, db) if club_name is not None else None
        say_when_typing(paths)
        total = count_records(paths) if paths else 0
        show_bar = not quiet and total >= PROGRESS_MINIMUM and sys.stderr.isatty()
        try:
            if show_bar:
                with click.progressbar(
                    length=total, label="importing", file=sys.stderr, show_pos=True
                ) as bar:
                    store.import_paths(
                        paths,
                        on_progress=bar.update,
                        summary=summary,
                        memory_limit=memory_limit,
                        replace=not no_replace,
                        club=club,
                    )
            else:
                store.import_paths(
                    paths, summary=summary, memory_limit=memory_limit, replace=not no_replace, club=club
                )
        except KeyboardInterrupt:
            rolled_back = (
                f"; {summary.underway!r}, still being imported, was rolled back" if summary.underway else ""
            )
            click.echo(
                f"\ninterrupted: {plural(summary.files, 'file')} {'was' if summary.files == 1 else 'were'} "
                f"kept whole ({_say_summary(summary)}){rolled_back}",
                err=True,
            )
            sys.exit(130)
        except (ManillenError, OSError) as error:
            raise click.ClickException(
                f"{error}\n(kept before the problem: {plural(summary.files, 'file')}; "
                f"{_say_summary(summary)})"
            ) from None
    _say_replacements(summary, db)  # even with --quiet: a replaced match is never silent
    if not quiet:
        refused = [problem.describe() for problem in summary.rejects]
        for line in refused[:SHOWN_REJECTS]:
            click.echo(line, err=True)
        if len(refused) > SHOWN_REJECTS:
            click.echo(
                f"... and {len(refused) - SHOWN_REJECTS} more problems: "
                f'manillen sql "SELECT * FROM rejects" --db {db}',
                err=True,
            )
    click.echo(f"{db}: {_say_summary(summary)}")
    sys.exit(1 if summary.refused else 0)


def _club_rules(store: Store, name: str, db: str) -> ClubRules:
    """The club rules saved under ``name``, or a usage error naming those that are saved."""
    try:
        saved = store.club_rules(name)
    except ManillenError as error:
        raise click.ClickException(f"cannot read the club rules {name!r}: {error}") from None
    if saved is None:
        names = [one.name for one in store.club_rule_sets()]
        known = f"the saved ones are {', '.join(map(repr, names))}" if names else "none are saved"
        raise click.UsageError(
            f"no club rules {name.strip()!r} in {db} ({known}): save them with `manillen rules save NAME`"
        )
    return saved


def _refuse_record_as_archive(db: str, paths: tuple[str, ...], *, restoring: bool = False) -> None:
    """A record file given as ``--db`` to import into (or to restore a match in): the archive's
    own message would send the user to ``manillen findings``, which is not what an import was for."""
    import shlex

    from ..store.core import is_record_file

    if not is_record_file(Path(db)):
        return
    if restoring:
        raise click.ClickException(
            f"{db!r} is a record file, not an archive: --db names the archive that holds the match's "
            "earlier versions (`manillen import --restore MATCH --db club.duckdb`)"
        )
    which = {0: "it", 1: "both"}.get(len(paths), "them all")
    raise click.ClickException(
        f"{db!r} is a record file, not an archive: --db names the archive to import into, a DuckDB "
        f"file (`manillen import {shlex.join([*paths, db])} --db club.duckdb` imports {which})"
    )


def _restore(db: str, match: str, version: int | None, wait: float) -> None:
    """``import --restore MATCH [--version N]``: an earlier version of a match put back."""
    from ..store import NoSuchVersionError

    existing_archive(db)
    with _open(db, read_only=False, wait=wait) as store:
        try:
            restored = store.restore_version(match, version)
        except NoSuchVersionError as error:
            raise click.UsageError(f"{error} in {db}") from None
        except ManillenError as error:  # the archive could not be written: its own words, exit 1
            raise click.ClickException(str(error)) from None
    number, summary = restored.version, restored.summary
    if summary.refused:
        for problem in summary.rejects:
            click.echo(problem.describe(), err=True)
        raise click.ClickException(f"version {number} of {match} could not be restored")
    if summary.skipped:
        click.echo(f"{db}: match {match} is already as version {number} has it: nothing changed")
        return
    _say_replacements(summary, db)
    if restored.analysis:
        click.echo(
            f"{db}: restored version {number} of match {match} ({plural(summary.deals, 'deal')}) "
            "with its analysis as it was"
        )
    else:
        click.echo(
            f"{db}: restored version {number} of match {match} ({plural(summary.deals, 'deal')}), "
            f"which had not been analysed; analyse it with `manillen analyze --db {db}`"
        )


FORMATS = ("table", "csv", "excel", "json")
"""What `manillen sql --format` writes."""

FORMAT_OF_NAME = {".csv": ("csv", "excel"), ".json": ("json",)}
"""The formats a file of each ending may hold; the first is the one its name asks for (any other
name, ``result.txt``, takes what ``--format`` says, a table by default)."""


def _format_for(out: str | None, asked: str | None) -> str:
    """The format to write: the one asked for, else the one ``--out``'s name says, else a table.
    A table written as ``x.csv`` (the default before the name was read) opened as one column of
    box drawing; a name that says another format, or one this command does not write, is a
    usage error naming what to give.

    :raises click.BadParameter: for a name and a format that disagree (exit code 2).
    """
    if out is None or out == "-":
        return asked or "table"
    ending = Path(out).suffix.lower()
    fits = FORMAT_OF_NAME.get(ending)
    if fits is None:
        if ending not in OTHER_FORMATS:  # notes.md, result.log, no ending: what --format says
            return asked or "table"
        raise click.BadParameter(
            f"{out!r}: sql writes a table, CSV (.csv) or JSON (.json), not {OTHER_FORMATS[ending]}",
            param_hint="--out",
        )
    if asked is None:
        return fits[0]
    if asked not in fits:
        raise click.BadParameter(
            f"--format {asked} does not write what a {ending} file holds, and every program goes by "
            f"the name: name it {Path(out).with_suffix(_ENDING[asked])}, or leave --format out",
            param_hint="--out",
        )
    return asked


_ENDING = {"table": ".txt", "csv": ".csv", "excel": ".csv", "json": ".json"}

OTHER_FORMATS = {
    ".parquet": "Parquet: `manillen export --parquet DIR` writes the tables so",
    ".xlsx": "an Excel workbook: --format excel writes a CSV file Excel opens (name it .csv)",
    ".xls": "an Excel workbook: --format excel writes a CSV file Excel opens (name it .csv)",
    ".jsonl": "JSON Lines: --format json writes one JSON array (name it .json)",
    ".tsv": "tab-separated values: name it .csv",
    ".gz": "a compressed file: it writes plain text (pipe it through gzip: --out - | gzip)",
}
"""File endings of formats other programs read by the name, which `sql` does not write."""


def _render(frame: pl.DataFrame, output_format: str) -> str:
    import polars as pl

    from ..store import csv_text, flatten_for_csv

    if output_format == "json":
        return frame.write_json() + "\n"
    if output_format in ("csv", "excel"):
        return csv_text(frame, excel=output_format == "excel")
    shown = frame.head(TABLE_ROWS)
    # a struct printed its values only ({1,[1, 2]}): with its fields' names, as JSON, as in csv
    structs = [
        name
        for name, dtype in shown.schema.items()
        if isinstance(dtype, pl.Struct)
        or (isinstance(dtype, pl.List | pl.Array) and isinstance(dtype.inner, pl.Struct))
    ]
    if structs:
        shown = shown.with_columns(flatten_for_csv(shown.select(structs)))
    with pl.Config(
        tbl_rows=-1,
        tbl_cols=-1,
        tbl_width_chars=10_000,
        fmt_str_lengths=200,
        fmt_table_cell_list_len=-1,
        tbl_hide_dataframe_shape=True,
        tbl_hide_column_data_types=True,
    ):
        text = str(shown) + "\n"
    if frame.height > TABLE_ROWS:  # the query asked for one row more than shown: no more were read
        text += (
            f"(more than {TABLE_ROWS:,} rows, the first {TABLE_ROWS:,} shown: "
            "use --format csv or json for all)\n"
        )
    else:
        text += f"({plural(frame.height, 'row')})\n"
    return text


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("query")
@DB_OPTION
@click.option(
    "--format",
    "output_format",
    type=click.Choice(FORMATS),
    help="table for people (its first 1,000 rows); csv, or json (an array with one object per row) "
    "for programs; excel, a CSV that Excel opens as it is in Belgium (; between values, decimal "
    "commas, accents kept, formulas kept as text). Default: from --out's name (.csv, .json), "
    "else table.",
)
@click.option(
    "--out", type=click.Path(dir_okay=False, writable=True), help="Write to FILE instead of the screen."
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=QUERY_TIMEOUT,
    show_default=True,
    metavar="SECONDS",
    help="Stop the query after this many seconds.",
)
@click.option(
    "--memory-limit",
    default=QUERY_MEMORY_LIMIT,
    show_default=True,
    metavar="SIZE",
    callback=_check_memory_limit,
    help="Stop a query that needs more memory than this (DuckDB's sizes: 500MB, 2GB).",
)
@WAIT_OPTION
def sql(
    query: str,
    db: str,
    output_format: str | None,
    out: str | None,
    timeout: float,
    memory_limit: str,
    wait: float,
) -> None:
    """Ask the archive a question in SQL (DuckDB's dialect); QUERY "-" reads it from stdin.

    The archive is opened read-only: statements that write (INSERT, UPDATE, DELETE, DROP,
    CREATE, COPY, ATTACH, INSTALL, SET, ...) are refused, and queries cannot read files or
    reach the network. A query that runs longer than --timeout seconds, or needs more memory
    than --memory-limit, is stopped. Values a table cannot show as they are (intervals,
    unions, maps, numbers past 64 bits, the date 'infinity') are written as DuckDB writes
    them. The tables and views are described in docs/sql.md.

    \b
    Examples:
      manillen sql "SELECT player, deals_won, violations FROM player_summary"
      manillen sql "SELECT * FROM plays WHERE violation IS NOT NULL" --out faults.csv
      manillen sql "SELECT * FROM player_summary" --format excel --out spelers.csv
    """
    from ..store import QueryError, QueryRefusedError, QueryTimeoutError

    check_output_file(out, "--out", "the result")
    output_format = _format_for(out, output_format)
    if query == "-":
        query = sys.stdin.read()
    with _open(db, read_only=True, wait=wait) as store:
        try:
            # a table for people shows its first rows only: the others are not even read
            shown = TABLE_ROWS if output_format == "table" else None
            frame = store.user_query(query, timeout=timeout, max_rows=shown, memory_limit=memory_limit)
        except QueryRefusedError as error:
            raise click.ClickException(f"refused: {error}") from None
        except QueryTimeoutError as error:
            if error.abandoned:
                # DuckDB ignored the interrupt and its thread still runs: waiting for it (or
                # closing the archive) would keep the command going, so end the process now.
                click.echo(f"Error: {error}", err=True)
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(1)
            raise click.ClickException(str(error)) from None
        except KeyboardInterrupt:
            click.echo("interrupted: the query was stopped", err=True)
            sys.exit(130)
        except QueryError as error:
            # a limit reached says so itself ("the query needed more than 2GB of memory and was
            # stopped"): "the query failed: the query needed ..." said it twice, and as a failure
            said = str(error) if error.reason is not None else f"the query failed: {error}"
            raise click.ClickException(said) from None
    text = _render(frame, output_format)
    if out is None or out == "-":  # `-` is standard output, as for every command that writes
        click.echo(text, nl=False)
        return
    try:
        with written_whole(Path(out)) as handle:
            handle.write(text)
    except OSError as error:
        raise click.ClickException(f"cannot write {out!r}: {error.strerror}") from None
    rows = (
        f"the first {TABLE_ROWS:,} rows" if output_format == "table" and frame.height > TABLE_ROWS else None
    )
    click.echo(f"wrote {rows or plural(frame.height, 'row')} to {out}", err=True)


@click.command()
@click.option("--parquet", "parquet_dir", metavar="DIR", help="Write every table as Parquet into DIR.")
@click.option(
    "--records",
    "records_file",
    metavar="FILE",
    help="Write every match in the record format, one per line (JSON Lines); - for stdout.",
)
@DB_OPTION
@WAIT_OPTION
@click.option("--overwrite", is_flag=True, help="Replace an earlier export in DIR or FILE.")
def export(parquet_dir: str | None, records_file: str | None, db: str, overwrite: bool, wait: float) -> None:
    """Write the archive out: as Parquet for other tools, or as records.

    --parquet DIR writes TABLE.parquet for each table, and plays/year=YYYY/*.parquet for the
    plays, partitioned by match year (undated matches under year=__HIVE_DEFAULT_PARTITION__),
    so DuckDB, polars, Spark or Trino read the folder as it is; and the summary views as they
    read now (player_summary.parquet, player_deals, deal_ledger, ...).

    --records FILE writes the matches back in the record format, with the annotations of the
    archive in each deal: what was imported comes back byte for byte. It holds matches and
    comments only (not saved rules, earlier versions, analysis or evenings): to keep
    everything, copy the archive file.

    \b
    Examples:
      manillen export --parquet export/
      manillen export --records backup.jsonl --db club.duckdb
    """
    from ..store import ArchiveError
    from ..store.connection import _interrupted

    if (parquet_dir is None) == (records_file is None):
        raise click.UsageError("give one of --parquet DIR or --records FILE")
    with _open(db, read_only=True, wait=wait) as store:
        if parquet_dir is not None:
            bar: Any = None

            def written(rows: int, total: int) -> None:
                # rows, not tables: the plays are most of an archive, and of the time
                nonlocal bar
                if bar is None and total >= PARQUET_PROGRESS_ROWS and sys.stderr.isatty():
                    bar = click.progressbar(length=total, label="exporting", file=sys.stderr, show_pos=True)
                if bar is not None:
                    bar.update(rows)

            try:
                counts = store.export_parquet(parquet_dir, overwrite=overwrite, on_rows=written)
            except KeyboardInterrupt:
                click.echo(f"\ninterrupted: nothing was written to {parquet_dir}", err=True)
                sys.exit(130)
            except ArchiveError as error:
                if "not empty" in str(error):  # as a file that exists: asked again with --overwrite
                    raise click.BadParameter(f"{error} (add --overwrite)", param_hint="--parquet") from None
                raise click.ClickException(str(error)) from None
            finally:
                if bar is not None:
                    bar.render_finish()
            details = ", ".join(f"{table} {rows}" for table, rows in counts.items())
            click.echo(f"wrote {plural(len(counts), 'table')} to {parquet_dir}: {details} rows", err=True)
            return
        assert records_file is not None
        try:
            if records_file == "-":
                count = store.export_records(sys.stdout)
            else:
                count = _write_records(store, Path(records_file), overwrite)
        except (KeyboardInterrupt, RuntimeError) as error:
            if not isinstance(error, KeyboardInterrupt) and not _interrupted(error):
                raise
            kept = "what was written before stays" if records_file == "-" else "nothing was written"
            click.echo(f"\ninterrupted: {kept} to {_place(records_file)}", err=True)
            sys.exit(130)
        click.echo(f"wrote {plural(count, 'match', 'matches')} to {_place(records_file)}", err=True)


PARQUET_PROGRESS_ROWS = 200_000
"""From this many rows (about 3,000 deals) ``export --parquet`` shows its progress on a terminal."""


def _write_records(store: Store, path: Path, overwrite: bool) -> int:
    if path.is_dir():
        raise click.BadParameter(f"{str(path)!r} is a folder: give a file to write", param_hint="--records")
    total = int(store.query("SELECT count(*) AS n FROM matches")["n"][0])
    check_records_file(path, "--records", total)
    refuse_to_replace(path, overwrite, "--records")
    count = 0
    try:
        with written_whole(path) as handle:  # a failed export never leaves half a file
            for line in progress(store.iter_export_lines(), "exporting", total=total):
                handle.write(line + "\n")
                count += 1
    except OSError as error:
        raise click.ClickException(f"cannot write {str(path)!r}: {error.strerror}") from None
    return count


COMMANDS: list[click.Command] = [import_, sql, export]
