"""The SQL console: the guard on queries someone typed, the sandbox they run in, results for CSV."""

from __future__ import annotations

import contextlib
import re
import threading
import time
from typing import Any

import duckdb
import polars as pl

from .connection import StoreBase, _duckdb_message, _frame
from .errors import QueryError, QueryRefusedError

# Statement types a user query may have: reading only. Everything else (INSERT, COPY, ATTACH,
# LOAD/INSTALL, SET, PRAGMA, CALL, ...) is refused before DuckDB sees it; an EXPLAIN is judged
# by the statement it explains (EXPLAIN ANALYZE runs it).
_READING_STATEMENTS = {duckdb.StatementType.SELECT}

QUERY_TIMEOUT = 30.0
"""Seconds a user query may run before it is stopped (``manillen sql --timeout``)."""

_LEADING_COMMENTS = re.compile(r"\A(?:\s+|--[^\n]*(?:\n|\Z)|/\*.*?\*/)*", re.DOTALL)
_EXPLAIN = re.compile(r"\AEXPLAIN\s+(?:ANALY[SZ]E\b\s*)?(?:\([^()]*\)\s*)?", re.IGNORECASE)


class QueryTimeoutError(QueryError):
    """A user query stopped because it ran past its time limit."""


class ConsoleMixin(StoreBase):
    """Running queries someone typed, read-only and away from files and the network."""

    _console_lock: threading.Lock

    def user_query(self, sql: str, *, timeout: float | None = QUERY_TIMEOUT) -> pl.DataFrame:
        """The result of a query someone typed, as a polars frame; it may only read the archive.

        The first user query turns off DuckDB's file and network access for this Store for
        good (DuckDB cannot turn it back on), so a Store used for user queries cannot export.
        Each query runs on a cursor of its own: queries from several threads run side by side.

        :param timeout: seconds before the query is stopped; ``None`` for no limit.
        :raises QueryRefusedError: for anything but one reading statement (no INSERT, DROP,
            COPY, ATTACH, INSTALL, SET, PRAGMA, ...) and for reading files or the network.
        :raises QueryTimeoutError: when it ran past ``timeout`` seconds and was stopped.
        :raises QueryError: for a query DuckDB cannot parse or run.
        """
        with self._console_lock:
            check_user_query(self._con, sql)
            try:
                self._sandbox()
                cursor = self._con.cursor()
            except (duckdb.Error, RuntimeError) as error:
                raise QueryError(f"the archive is not open for queries: {_duckdb_message(error)}") from None
        try:
            # Even a reading statement runs in a transaction that is always rolled back, so
            # functions with side effects (nextval, ...) leave nothing behind.
            cursor.execute("BEGIN TRANSACTION")
            return _run_stoppable(cursor, sql, timeout)
        except duckdb.PermissionException as error:
            raise QueryRefusedError(
                "queries may not read files or reach the network: "
                f"only the archive's tables and views are available ({_duckdb_message(error)})"
            ) from None
        except (duckdb.Error, RuntimeError) as error:
            if _stopped(error):
                raise QueryError("the query was interrupted") from None
            raise QueryError(_duckdb_message(error)) from None
        finally:
            with contextlib.suppress(duckdb.Error, RuntimeError):
                cursor.execute("ROLLBACK")
            with contextlib.suppress(duckdb.Error, RuntimeError):
                cursor.close()

    def _sandbox(self) -> None:
        if self._sandboxed:
            return
        # No temporary folder either: DuckDB lists it among the allowed directories, where a
        # query could otherwise write and read files.
        self._con.execute("SET temp_directory = ''")
        self._con.execute("SET enable_external_access = false")
        self._con.execute("SET lock_configuration = true")
        self._sandboxed = True


def _run_stoppable(cursor: duckdb.DuckDBPyConnection, sql: str, timeout: float | None) -> pl.DataFrame:
    """The query's rows, run on a thread of its own while this one waits: a Ctrl-C (which
    Python sees only here) or the time limit interrupts DuckDB, and the query ends cleanly.

    :raises QueryTimeoutError: when it ran past ``timeout`` seconds.
    :raises KeyboardInterrupt: after DuckDB stopped the query for a Ctrl-C.
    """
    outcome: dict[str, Any] = {}
    done = threading.Event()

    def run() -> None:
        try:
            outcome["rows"] = _frame(cursor.sql(sql))
        except BaseException as error:  # handed to the waiting thread, which raises it
            outcome["error"] = error
        finally:
            done.set()

    threading.Thread(target=run, name="manillen-user-query", daemon=True).start()
    deadline = None if timeout is None else time.monotonic() + timeout
    try:
        # Short waits on an Event: a Ctrl-C reaches this thread between them (an interrupted
        # Thread.join can leave the thread looking finished on Python 3.11).
        while not done.wait(_POLL_SECONDS):
            if deadline is not None and time.monotonic() >= deadline:
                break
    except KeyboardInterrupt:
        _stop(cursor, done)
        raise
    if not done.is_set():
        _stop(cursor, done)
        if "rows" not in outcome:
            assert timeout is not None
            raise QueryTimeoutError(
                f"the query ran longer than {timeout:g} second{'' if timeout == 1 else 's'} and "
                "was stopped: ask for less (a WHERE, a LIMIT), or give it more time (--timeout)"
            )
    if "error" in outcome:
        raise outcome["error"]
    rows: pl.DataFrame = outcome["rows"]
    return rows


_POLL_SECONDS = 0.1


def _stop(cursor: duckdb.DuckDBPyConnection, done: threading.Event) -> None:
    """Interrupt the query and wait until DuckDB has let go of it (a second Ctrl-C included)."""
    cursor.interrupt()
    while True:
        try:
            if done.wait(_POLL_SECONDS):
                return
        except KeyboardInterrupt:
            cursor.interrupt()


def _stopped(error: BaseException) -> bool:
    return isinstance(error, duckdb.InterruptException) or "interrupt" in str(error).lower()


def check_user_query(connection: duckdb.DuckDBPyConnection, sql: str) -> None:
    """Refuse anything but one statement that reads; an EXPLAIN only of one that reads.

    :raises QueryRefusedError: for a writing, configuring or multiple statement.
    :raises QueryError: for a statement DuckDB cannot parse.
    """
    statement = _one_statement(connection, sql)
    text = _LEADING_COMMENTS.sub("", statement.query)
    if statement.type == duckdb.StatementType.EXPLAIN:
        explained = _EXPLAIN.match(text)
        if explained is None:
            raise QueryRefusedError("this EXPLAIN is not understood: write EXPLAIN SELECT ...")
        statement = _one_statement(connection, text[explained.end() :])
        text = _LEADING_COMMENTS.sub("", statement.query)
        inside = " inside EXPLAIN"
    else:
        inside = ""
    if statement.type not in _READING_STATEMENTS:
        kind = statement.type.name.replace("_", " ")
        first_word = text.split(None, 1)[0].upper() if text.strip() else kind
        what = first_word if first_word.isalpha() and first_word != "WITH" else kind
        raise QueryRefusedError(
            f"{what} is not allowed{inside}: the archive is opened read-only for queries; "
            "only SELECT (with WITH, DESCRIBE, SUMMARIZE, EXPLAIN) may run, and it cannot reach "
            "files or the network"
        )


def _one_statement(connection: duckdb.DuckDBPyConnection, sql: str) -> Any:
    try:
        statements = connection.extract_statements(sql)
    except (duckdb.Error, RuntimeError) as error:
        raise QueryError(_duckdb_message(error)) from None
    if not statements:
        raise QueryRefusedError("the query is empty")
    if len(statements) > 1:
        raise QueryRefusedError(f"one query at a time, please: this text holds {len(statements)} statements")
    return statements[0]


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
