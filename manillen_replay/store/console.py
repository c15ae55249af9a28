"""The SQL console: the guard on queries someone typed, the sandbox they run in, results for CSV."""

from __future__ import annotations

import duckdb
import polars as pl

from .connection import StoreBase, _duckdb_message, _frame
from .errors import QueryError, QueryRefusedError

# Statement types a user query may have: reading only. Everything else (INSERT, COPY, ATTACH,
# LOAD/INSTALL, SET, PRAGMA, CALL, ...) is refused before DuckDB sees it.
_READING_STATEMENTS = {duckdb.StatementType.SELECT, duckdb.StatementType.EXPLAIN}


class ConsoleMixin(StoreBase):
    """Running queries someone typed, read-only and away from files and the network."""

    def user_query(self, sql: str) -> pl.DataFrame:
        """The result of a query someone typed, as a polars frame; it may only read the archive.

        The first user query turns off DuckDB's file and network access for this Store for
        good (DuckDB cannot turn it back on), so a Store used for user queries cannot export.

        :raises QueryRefusedError: for anything but one reading statement (no INSERT, DROP,
            COPY, ATTACH, INSTALL, SET, PRAGMA, ...) and for reading files or the network.
        :raises QueryError: for a query DuckDB cannot parse or run.
        """
        check_user_query(self._con, sql)
        self._sandbox()
        with self._con.cursor() as cursor:
            # Even a reading statement runs in a transaction that is always rolled back, so
            # functions with side effects (nextval, ...) leave nothing behind.
            cursor.execute("BEGIN TRANSACTION")
            try:
                return _frame(cursor.sql(sql))
            except duckdb.PermissionException as error:
                raise QueryRefusedError(
                    "queries may not read files or reach the network: "
                    f"only the archive's tables and views are available ({_duckdb_message(error)})"
                ) from None
            except duckdb.Error as error:
                raise QueryError(_duckdb_message(error)) from None
            finally:
                cursor.execute("ROLLBACK")

    def _sandbox(self) -> None:
        if self._sandboxed:
            return
        self._con.execute("SET enable_external_access = false")
        self._con.execute("SET lock_configuration = true")
        self._sandboxed = True


def check_user_query(connection: duckdb.DuckDBPyConnection, sql: str) -> None:
    """Refuse anything but one statement that reads.

    :raises QueryRefusedError: for a writing, configuring or multiple statement.
    :raises QueryError: for a statement DuckDB cannot parse.
    """
    try:
        statements = connection.extract_statements(sql)
    except duckdb.Error as error:
        raise QueryError(_duckdb_message(error)) from None
    if not statements:
        raise QueryRefusedError("the query is empty")
    if len(statements) > 1:
        raise QueryRefusedError(f"one query at a time, please: this text holds {len(statements)} statements")
    statement = statements[0]
    if statement.type not in _READING_STATEMENTS:
        first_word = statement.query.strip().split(None, 1)[0].upper() if statement.query.strip() else "?"
        raise QueryRefusedError(
            f"{first_word} is not allowed: the archive is opened read-only for queries; "
            "only SELECT (with WITH, DESCRIBE, SUMMARIZE, EXPLAIN) may run, and it cannot reach "
            "files or the network"
        )


def flatten_for_csv(frame: pl.DataFrame) -> pl.DataFrame:
    """A query result that CSV can hold: lists (cards, tags) become space-separated text, structs JSON."""
    columns = []
    for name, dtype in frame.schema.items():
        if isinstance(dtype, pl.List | pl.Array):
            columns.append(pl.col(name).cast(pl.List(pl.String)).list.join(" ").alias(name))
        elif isinstance(dtype, pl.Struct):
            columns.append(pl.col(name).struct.json_encode().alias(name))
        else:
            columns.append(pl.col(name))
    return frame.select(columns)
