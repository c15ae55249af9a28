"""What every part of a :class:`~manillen_replay.store.Store` shares: the DuckDB connection,
and small helpers for DuckDB's answers and messages.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import Any, ClassVar

import duckdb
import polars as pl

from .errors import ArchiveError


class StoreBase:
    """The open archive every part of the Store works on; :class:`~manillen_replay.store.Store` sets it up."""

    BATCH_SIZE: ClassVar[int]
    path: str
    read_only: bool
    _con: duckdb.DuckDBPyConnection
    _sandboxed: bool
    """Whether user queries turned DuckDB's file and network access off (for good)."""

    def _columns(self, table: str) -> list[str]:
        rows = self._con.execute(
            "SELECT column_name FROM information_schema.columns "
            "WHERE table_name = ? ORDER BY ordinal_position",
            [table],
        ).fetchall()
        return [row[0] for row in rows]

    def _check_writable(self) -> None:
        if self.read_only:
            raise ArchiveError(f"the archive {self.path!r} is open read-only")

    @contextlib.contextmanager
    def _transaction(self, doing: str) -> Iterator[None]:
        """The block in one transaction (see :func:`transaction`), a DuckDB error in it an
        :class:`ArchiveError` that names the archive and what was being done.

        :param doing: what the block does, for the message ("save findings").
        :raises ArchiveError: when DuckDB refuses the block or cannot write it (a write-ahead log
            that cannot be created, a full disk); nothing of the block is kept.
        """
        try:
            with transaction(self._con):
                yield
        except duckdb.InterruptException:
            raise KeyboardInterrupt from None  # a Ctrl-C DuckDB caught in a statement: nothing kept
        except duckdb.Error as error:
            raise ArchiveError(
                f"could not {doing} in the archive {self.path!r}: {_duckdb_message(error)}"
            ) from None


@contextlib.contextmanager
def transaction(connection: duckdb.DuckDBPyConnection) -> Iterator[None]:
    """The block in one transaction: committed when it ends, rolled back when it raises.

    The error raised is the one that ended the block. A COMMIT that failed (the archive's
    write-ahead log cannot be created or written: no permission, a full disk) has already ended
    the transaction, so the ROLLBACK after it fails too, and its "no transaction is active" would
    hide the real cause.
    """
    connection.execute("BEGIN TRANSACTION")
    try:
        yield
        connection.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(duckdb.Error):
            connection.execute("ROLLBACK")
        raise


# --------------------------------------------------------------------------- helpers


def _frame(relation: duckdb.DuckDBPyRelation | None) -> pl.DataFrame:
    """A query's rows as a polars frame (an empty frame for a statement that returns nothing)."""
    return pl.DataFrame() if relation is None else relation.pl()


def _first(rows: list[Any]) -> Any:
    """The first row of a fully fetched result (DuckDB 2 wants results read to the end)."""
    return rows[0] if rows else None


def _interrupted(error: BaseException) -> bool:
    """Whether DuckDB stopped a statement for a Ctrl-C: it says so with a plain RuntimeError."""
    return isinstance(error, RuntimeError) and "interrupted" in str(error).lower()


def _sql_text(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _duckdb_message(error: BaseException, *, where: bool = False) -> str:
    """DuckDB's message without its class prefix and help links, lowercase first letter.

    :param where: keep the query's line DuckDB quotes, with its caret under the place (a user's
        query: in fifteen lines, "syntax error at or near "="" alone did not say which ``=``).
    """
    text = str(error).strip()
    text = re.sub(r"^[A-Za-z ]*Error: ", "", text)
    text, _, line = text.partition("\n\nLINE ")
    # DuckDB's advice to install an extension or SET a setting: neither may a query here do
    text = re.split(r"\s*(?:Please try installing|\.?\s*Use \"?SET )", text)[0].rstrip(" .\n") or text
    if not text:
        return "unknown error"
    # "Catalog Error" becomes "catalog error", but "NOT NULL ..." stays as it is.
    text = text[:1].lower() + text[1:] if not text[1:2].isupper() else text
    return f"{text}\n\nLINE {line.rstrip()}" if where and line.strip() else text
