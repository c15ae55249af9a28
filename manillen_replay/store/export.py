"""Reading the archive back: records for analysis, JSON Lines with annotations merged in, Parquet."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

import duckdb
import msgspec

from ..record import Annotation, dumps, loads
from .connection import StoreBase, _duckdb_message, _first, _interrupted, _sql_text
from .errors import ArchiveError
from .schema import SUMMARY_VIEWS, TABLES


class ExportMixin(StoreBase):
    """Reading stored records back and exporting the archive."""

    def iter_records(
        self, *, only_unanalysed: bool = False, match_ids: list[str] | None = None
    ) -> Iterator[tuple[str, bytes]]:
        """``(match_id, canonical record JSON)`` of stored matches, in import order.

        The record is stored without its annotations (they live in the ``annotations`` table);
        read in chunks, so memory stays flat however large the archive.

        :param only_unanalysed: only matches the built-in detectors have not seen since import.
        :param match_ids: only these matches.
        """
        conditions = []
        params: list[Any] = []
        if only_unanalysed:
            conditions.append("analysed_at IS NULL")
        cursor = self._con.cursor()
        try:
            if match_ids is not None:
                # The matches' span of import order too: a filter on it leaves the stored records
                # outside it unread, where the ids alone have every record read (an archive
                # analysed a chunk at a time was read whole for each chunk: quadratic in its size).
                ids = list(match_ids)
                first, last = cursor.execute(
                    "SELECT min(import_order), max(import_order) FROM matches "
                    "WHERE match_id IN (SELECT unnest(?))",
                    [ids],
                ).fetchone() or (None, None)
                conditions.append("import_order BETWEEN ? AND ? AND match_id IN (SELECT unnest(?))")
                params += [first, last, ids]
            where = f"WHERE {' AND '.join(conditions)}" if conditions else ""
            cursor.execute(f"SELECT match_id, record FROM matches {where} ORDER BY import_order", params)
            while rows := cursor.fetchmany(self.BATCH_SIZE):
                for mid, text in rows:
                    yield mid, text.encode()
        finally:
            cursor.close()

    def iter_export_lines(self) -> Iterator[str]:
        """Every stored match as one canonical JSON Lines line, annotations merged back in."""
        cursor = self._con.cursor()
        try:
            cursor.execute(
                """
                SELECT m.record,
                       (SELECT list({'deal': a.deal, 'trick': a.trick, 'play': a.play, 'author': a.author,
                                     'text': a.text, 'tags': a.tags, 'line': a.line} ORDER BY a.annotation_id)
                        FROM annotations a WHERE a.match_id = m.match_id) AS notes
                FROM matches m ORDER BY m.import_order
                """
            )
            while rows := cursor.fetchmany(self.BATCH_SIZE):
                for text, notes in rows:
                    yield _merge_annotations(text, notes or [])
        finally:
            cursor.close()

    def export_records(self, out: IO[str]) -> int:
        """Write every match to ``out`` as JSON Lines (the record format); returns how many."""
        count = 0
        for line in self.iter_export_lines():
            out.write(line + "\n")
            count += 1
        return count

    def export_parquet(
        self,
        directory: str | Path,
        *,
        overwrite: bool = False,
        on_rows: Callable[[int, int], None] | None = None,
    ) -> dict[str, int]:
        """Write every table as Parquet: ``TABLE.parquet``, and ``plays/year=YYYY/*.parquet``.

        ``plays`` is partitioned by the year of the match date (``__HIVE_DEFAULT_PARTITION__``
        for undated matches), so DuckDB, polars, Spark or Trino can read the folder as it is.

        All or nothing: the export is written into a new folder beside ``directory`` and moved
        into place when every table is written, so a Ctrl-C or a full disk leaves ``directory``
        as it was (and a new export into it is not refused as "not empty").

        :param overwrite: replace this export's files in a folder that is not empty.
        :param on_rows: told ``(rows written, rows in all)`` after each table, for a progress bar.
        :returns: rows written per table.
        :raises ArchiveError: for a folder that is not empty (without ``overwrite``), a Store
            that ran user queries (file access is off for it), or a folder that cannot be written
            (no permission, a full disk); nothing was written then.
        :raises KeyboardInterrupt: when interrupted; nothing was written either.
        """
        if self._sandboxed:
            raise ArchiveError(
                "this Store ran user queries with file access turned off: open a new one to export"
            )
        target = Path(directory)
        if target.exists() and not target.is_dir():
            raise ArchiveError(f"{str(target)!r} is a file, not a folder")
        if target.exists() and any(target.iterdir()) and not overwrite:
            raise ArchiveError(
                f"the folder {str(target)!r} is not empty: choose an empty one or overwrite it"
            )
        staging: Path | None = None
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".partial", dir=target.parent))
            # mkdtemp's folder is the owner's only (0700): renamed into place, the export was
            # unreadable to the colleague or service it is written for; a folder as mkdir makes it
            staging.chmod(0o777 & ~_umask())
            counts = self._write_parquet(staging, on_rows)
            _move_in(staging, target)
        except BaseException as error:
            if staging is not None:
                shutil.rmtree(staging, ignore_errors=True)
            if isinstance(error, KeyboardInterrupt) or _interrupted(error):
                raise KeyboardInterrupt from None
            if isinstance(error, duckdb.Error):
                reason = _write_failure(error)
            elif isinstance(error, OSError):
                reason = error.strerror or str(error)
            else:
                raise
            raise ArchiveError(
                f"could not write the Parquet export to {str(target)!r} (nothing was written): {reason}"
            ) from None
        return counts

    def _write_parquet(
        self, folder: Path, on_rows: Callable[[int, int], None] | None = None
    ) -> dict[str, int]:
        """Every table and summary view written as Parquet into ``folder`` (new and empty); rows
        per table and view."""
        counts = {table: self._count(table) for table in (*TABLES, *SUMMARY_VIEWS)}
        total = sum(counts.values())
        for table in (*TABLES, *SUMMARY_VIEWS):
            if table == "plays":
                self._con.execute(
                    f"""COPY (SELECT p.*, year(m.date) AS year FROM plays p JOIN matches m USING (match_id))
                        TO {_sql_text(str(folder / "plays"))} (FORMAT parquet, PARTITION_BY (year))"""
                )
            else:
                file = _sql_text(str(folder / f"{table}.parquet"))
                self._con.execute(f"COPY (SELECT * FROM {table}) TO {file} (FORMAT parquet)")
            if on_rows is not None:
                on_rows(counts[table], total)
        return counts

    def _count(self, table: str) -> int:
        row = _first(self._con.execute(f"SELECT count(*) FROM {table}").fetchall())
        return int(row[0]) if row else 0


def _write_failure(error: duckdb.Error) -> str:
    r"""Why DuckDB could not write a file, in its words; a failed write of its own thread comes
    as a JSON object inside the message, of which the words are kept.

    >>> _write_failure(duckdb.IOException(
    ...     'IO Error: async write failed: {"exception_type":"IO","exception_message":'
    ...     '"Could not write file \\"x.parquet\\": No space left on device","errno":"28"}'))
    'could not write file "x.parquet": No space left on device'
    """
    message = _duckdb_message(error)
    start = message.find("{")
    if start >= 0:
        try:
            inner = json.loads(message[start:])["exception_message"]
        except (ValueError, KeyError, TypeError):
            return message
        return _duckdb_message(duckdb.IOException(str(inner)))
    return message


def _move_in(staging: Path, target: Path) -> None:
    """Put a finished export (the folder ``staging``) in the place of ``target``.

    A missing or empty ``target`` is replaced by renaming the folder, in one step. An earlier
    export overwritten keeps the files that are not the export's: each of the export's files (and
    the ``plays`` folder) takes the place of its old one, and only renames are left to fail.
    """
    if not target.exists() or not any(target.iterdir()):
        if target.exists():
            target.rmdir()
        staging.rename(target)
        return
    for part in sorted(staging.iterdir()):
        old = target / part.name
        if part.is_dir() and old.is_dir():
            aside = staging / f"{part.name}.old"
            old.rename(aside)
            part.rename(old)
            shutil.rmtree(aside)
        else:
            part.replace(old)
    staging.rmdir()


def _merge_annotations(text: str, notes: list[dict[str, Any]]) -> str:
    """A stored record with the annotations table's rows put back into its deals."""
    if not notes:
        return text
    record = loads(text)
    by_deal: dict[int, list[Annotation]] = {}
    for note in notes:
        by_deal.setdefault(note["deal"], []).append(
            Annotation(
                trick=msgspec.UNSET if note["trick"] is None else note["trick"],
                play=msgspec.UNSET if note["play"] is None else note["play"],
                author=note["author"],
                text=note["text"],
                tags=msgspec.UNSET if note["tags"] is None else list(note["tags"]),
                line=msgspec.UNSET if note.get("line") is None else list(note["line"]),
            )
        )
    for number, deal_notes in by_deal.items():
        if 1 <= number <= len(record.deals):
            record.deals[number - 1].annotations = deal_notes
    return dumps(record, pretty=False)


def _umask() -> int:
    """The process's umask (read by setting it, and put back at once)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
