"""The :class:`Store`: an open archive, composed of the import, console, export, findings and
annotation parts.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import duckdb
import polars as pl

from .annotations import AnnotationsMixin
from .club_rules import ClubRulesMixin
from .connection import _duckdb_message, _frame
from .console import ConsoleMixin
from .errors import ArchiveError, ArchiveLockedError, ArchiveOutdatedError, QueryError
from .evenings import EveningsMixin
from .export import ExportMixin
from .findings import FindingsMixin
from .importer import ImportMixin
from .ledger import LedgerMixin
from .processes import ArchiveBusyError
from .puzzles import PuzzlesMixin
from .schema import SCHEMA_VERSION, apply_migrations, schema_version_of

if TYPE_CHECKING:
    from .loader import _Loader


def is_record_file(path: Path) -> bool:
    """Whether ``path`` is an existing record file (by its name, and no DuckDB file inside):
    given where an archive goes, it is said to be one."""
    from ..record.io import RECORD_SUFFIXES, is_duckdb_file

    try:
        return path.name.lower().endswith(RECORD_SUFFIXES) and path.is_file() and not is_duckdb_file(path)
    except OSError:
        return False  # unreadable: DuckDB's own error says why


def _check_is_archive(path: Path) -> None:
    """An existing file given as the archive must be a DuckDB file: DuckDB's own words for
    another file say nothing of what to do (and for a ``.json`` record, that it "cannot launch
    in-memory database in read-only mode").

    :raises ArchiveError: naming the file, with what to do with a record file.
    """
    from ..record.io import is_duckdb_file

    if is_record_file(path):
        raise ArchiveError(
            f"{str(path)!r} is a record file, not an archive: give it without --db (`manillen "
            f"findings {path}`), or import it into one (`manillen import {path} --db club.duckdb`)"
        )
    try:
        if not path.is_file() or is_duckdb_file(path):
            return
    except OSError:
        return  # unreadable: DuckDB's own error says why
    what = "an empty file" if path.stat().st_size == 0 else "not a DuckDB file"
    raise ArchiveError(
        f"{str(path)!r} is {what}, not an archive: give the archive's file (`manillen import` makes one)"
    )


class Store(
    ImportMixin,
    ConsoleMixin,
    ExportMixin,
    FindingsMixin,
    AnnotationsMixin,
    LedgerMixin,
    EveningsMixin,
    PuzzlesMixin,
    ClubRulesMixin,
):
    """An open game archive.

    :param path: the DuckDB file (created when missing), or ``":memory:"``.
    :param read_only: open for reading only; several readers may share the file, no writer.
    :raises ArchiveLockedError: when another program holds the file.
    :raises ArchiveError: when the file is missing (read-only), not an archive, or too new.
    """

    BATCH_SIZE = 100
    """Matches per Arrow batch (some 1,500 deals): large enough that DuckDB's cost per statement
    stays small, small enough that the three batches an import holds at a time (one being built,
    one queued, one being loaded) keep its memory low."""

    def __init__(self, path: str | Path = ":memory:", *, read_only: bool = False) -> None:
        self.path = str(path)
        self.read_only = read_only
        self.upgraded_from: int | None = None
        """The schema version the file had before this open upgraded it (0: none, a new or empty
        file), else ``None``."""
        self._sandboxed = False
        self._console_lock = threading.Lock()
        """Held while a user query is checked and given its cursor (see :meth:`user_query`)."""
        self._loader: _Loader | None = None
        self._analysis_kept: set[str] = set()
        """The matches an import replaces that keep their analysis (only their details changed)."""
        """The thread writing the current import's batches, while a file is being imported."""
        in_memory = self.path == ":memory:"
        if read_only and not in_memory and not Path(self.path).exists():
            raise ArchiveError(
                f"no archive at {self.path!r}: create one with `manillen import FILE --db {self.path}`"
            )
        if not in_memory:
            _check_is_archive(Path(self.path))
        try:
            self._con = duckdb.connect(self.path, read_only=read_only and not in_memory)
        except duckdb.IOException as error:
            if "lock" in str(error).lower():
                raise ArchiveBusyError(self.path, str(error)) from None
            raise ArchiveError(f"cannot open the archive {self.path!r}: {_duckdb_message(error)}") from None
        except duckdb.ConnectionException as error:
            raise ArchiveLockedError(
                f"the archive {self.path!r} is already open in this program with other settings "
                f"(read-only or not): close that Store first ({_duckdb_message(error)})"
            ) from None
        except duckdb.Error as error:
            raise ArchiveError(f"cannot open the archive {self.path!r}: {_duckdb_message(error)}") from None
        try:
            self._prepare()
        except BaseException:
            self._con.close()
            raise

    @staticmethod
    def check_writable(path: str | Path, doing: str) -> None:
        """Whether the archive file can be written, asked of the file system without opening it
        in DuckDB (which would wait for its turn): a command that will store what it works out
        for minutes (the solver's review) asks first, rather than lose the work at the end.

        :param doing: what would be stored, for the message ("store the solver's review").
        :raises ArchiveError: when the file, or its folder (where DuckDB keeps its log), cannot
            be written.
        """
        file = Path(path)
        try:
            os.close(os.open(file, os.O_RDWR))
        except OSError as error:
            raise ArchiveError(
                f"cannot {doing} in the archive {str(path)!r}: it cannot be written ({error.strerror}); "
                "copy it somewhere you may write, or ask its owner"
            ) from None
        folder = file.resolve().parent
        if not os.access(folder, os.W_OK | os.X_OK):
            raise ArchiveError(
                f"cannot {doing} in the archive {str(path)!r}: its folder {str(folder)!r} cannot be written "
                "(DuckDB keeps the archive's log beside it); copy it somewhere you may write"
            )

    def _prepare(self) -> None:
        version = schema_version_of(self._con)
        if version > SCHEMA_VERSION:
            raise ArchiveError(
                f"the archive {self.path!r} has schema version {version}, newer than this program's "
                f"{SCHEMA_VERSION}: upgrade manillen-replay to open it"
            )
        if version == 0 and not self.read_only:
            # another program's DuckDB file: the archive's tables would be written in beside its own
            others = [
                row[0]
                for row in self._con.execute(
                    "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() "
                    "UNION ALL SELECT view_name FROM duckdb_views() "
                    "WHERE database_name = current_database() AND NOT internal ORDER BY 1"
                ).fetchall()
            ]
            if others:
                shown = ", ".join(others[:5]) + (", ..." if len(others) > 5 else "")
                raise ArchiveError(
                    f"{self.path!r} is not a manillen archive: it is a DuckDB file of another program "
                    f"(tables {shown}), left as it was; give another --db"
                )
        if version < SCHEMA_VERSION:
            if self.read_only:
                if version == 0:
                    raise ArchiveError(f"{self.path!r} is not a manillen archive (no schema_version table)")
                raise ArchiveOutdatedError(
                    f"the archive {self.path!r} has schema version {version}, this program needs "
                    f"{SCHEMA_VERSION}: upgrade it with `manillen import --db {self.path}` (no files needed)"
                )
            try:
                apply_migrations(self._con)
                self.upgraded_from = version
            except duckdb.Error as error:
                raise ArchiveError(
                    f"cannot upgrade the archive {self.path!r}: {_duckdb_message(error)}"
                ) from None

    @classmethod
    def open_in_turn(
        cls,
        path: str | Path,
        *,
        read_only: bool = False,
        wait: float = 60.0,
        on_wait: Callable[[str], None] | None = None,
        poll: float = 0.25,
    ) -> Store:
        """Open the archive, waiting up to ``wait`` seconds while another program holds its lock.

        DuckDB lets one program write to a file at a time (and no reader beside a writer): a
        command that finds the archive held by the dashboard or another command waits its turn
        instead of giving up at once.

        :param wait: seconds to wait at most (0: do not wait).
        :param on_wait: told once, in words, who has the archive and that this waits for it.
        :param poll: seconds between two tries.
        :raises ArchiveLockedError: when the archive is still held after ``wait`` seconds, saying
            by whom and what to do.
        :raises ArchiveError: as :class:`Store` does.
        """
        deadline = time.monotonic() + max(0.0, wait)
        told = False
        while True:
            try:
                return cls(path, read_only=read_only)
            except ArchiveBusyError as busy:
                left = deadline - time.monotonic()
                if left <= 0:
                    if wait <= 0:
                        raise
                    raise ArchiveLockedError(busy.gave_up_message(wait)) from None
                if on_wait is not None and not told:
                    on_wait(busy.waiting_message(wait))
                    told = True
                time.sleep(min(poll, left))

    # ----------------------------------------------------------------- lifecycle

    def close(self) -> None:
        """Close the archive; a Store cannot be used after this."""
        with contextlib.suppress(duckdb.Error):  # a connection DuckDB gave up on closes all the same
            self._con.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def schema_version(self) -> int:
        """The archive's schema version (:data:`SCHEMA_VERSION` once open)."""
        return schema_version_of(self._con)

    def query(self, sql: str, params: list[Any] | None = None) -> pl.DataFrame:
        """The result of a trusted query (this program's own SQL) as a polars frame.

        :raises QueryError: when DuckDB cannot run it.
        """
        with self._con.cursor() as cursor:
            try:
                return _frame(cursor.sql(sql, params=params or None))
            except duckdb.Error as error:
                raise QueryError(f"query failed: {_duckdb_message(error)}") from None

    def tables(self) -> pl.DataFrame:
        """The public tables and views with their columns and types (``name``, ``kind``, ``columns``)."""
        return self.query(
            """
            SELECT table_name AS name,
                   any_value(CASE WHEN t.table_type = 'VIEW' THEN 'view' ELSE 'table' END) AS kind,
                   list(column_name || ' ' || data_type ORDER BY ordinal_position) AS columns
            FROM information_schema.columns c
            JOIN information_schema.tables t USING (table_schema, table_name)
            WHERE table_schema = 'main' AND table_name NOT LIKE '\\_%' ESCAPE '\\'
            GROUP BY table_name ORDER BY table_name
            """
        )
