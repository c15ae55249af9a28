"""Reading the archive back: records for analysis, JSON Lines with annotations merged in, Parquet."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import msgspec

from ..record import Annotation, dumps, loads
from .connection import StoreBase, _first, _sql_text
from .errors import ArchiveError
from .schema import TABLES


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

    def export_parquet(self, directory: str | Path, *, overwrite: bool = False) -> dict[str, int]:
        """Write every table as Parquet: ``TABLE.parquet``, and ``plays/year=YYYY/*.parquet``.

        ``plays`` is partitioned by the year of the match date (``__HIVE_DEFAULT_PARTITION__``
        for undated matches), so DuckDB, polars, Spark or Trino can read the folder as it is.

        :param overwrite: replace this export's files in a folder that is not empty.
        :returns: rows written per table.
        :raises ArchiveError: for a folder that is not empty (without ``overwrite``), or a Store
            that ran user queries (file access is off for it).
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
        target.mkdir(parents=True, exist_ok=True)
        counts = {}
        for table in TABLES:
            counts[table] = self._count(table)
            if table == "plays":
                folder = target / "plays"
                if folder.exists():
                    shutil.rmtree(folder)
                self._con.execute(
                    f"""COPY (SELECT p.*, year(m.date) AS year FROM plays p JOIN matches m USING (match_id))
                        TO {_sql_text(str(folder))} (FORMAT parquet, PARTITION_BY (year))"""
                )
            else:
                file = _sql_text(str(target / f"{table}.parquet"))
                self._con.execute(f"COPY (SELECT * FROM {table}) TO {file} (FORMAT parquet)")
        return counts

    def _count(self, table: str) -> int:
        row = _first(self._con.execute(f"SELECT count(*) FROM {table}").fetchall())
        return int(row[0]) if row else 0


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
