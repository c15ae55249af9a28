"""The SQL console: the guard on queries someone typed, the sandbox they run in, results for CSV."""

from __future__ import annotations

import contextlib
import datetime
import io
import json
import re
import threading
import time
from typing import Any

import duckdb
import polars as pl

from ..archive_defaults import QUERY_MEMORY_LIMIT, QUERY_TIMEOUT
from ..errors import ManillenError
from .connection import StoreBase, _duckdb_message, _frame, _sql_text
from .errors import ArchiveOutdatedError, QueryError, QueryRefusedError

# Statement types a user query may have: reading only. Everything else (INSERT, COPY, ATTACH,
# LOAD/INSTALL, SET, PRAGMA, CALL, ...) is refused before DuckDB sees it; an EXPLAIN is judged
# by the statement it explains (EXPLAIN ANALYZE runs it).
_READING_STATEMENTS = {duckdb.StatementType.SELECT}


_LEADING_COMMENTS = re.compile(r"\A(?:\s+|--[^\n]*(?:\n|\Z)|/\*.*?\*/)*", re.DOTALL)
_EXPLAIN = re.compile(r"\AEXPLAIN\s+(?:ANALY[SZ]E\b\s*)?(?:\([^()]*\)\s*)?", re.IGNORECASE)


REASONS: dict[str, str] = {
    "files": "queries may not read files or reach the network: only the archive's tables and views are "
    "available",
    "memory": "the query needed more than {limit} of memory and was stopped: ask for less (a WHERE, fewer "
    "columns, a LIMIT)",
    "too_large": "the result holds about {size} MB, more than the {limit} MB a page shows: select fewer "
    "rows or columns, or shorten long texts (left(text, 100))",
    "writes": "{what} is not allowed: the archive is opened read-only for queries; only SELECT (with "
    "WITH, DESCRIBE, SUMMARIZE, EXPLAIN) may run, and it cannot reach files or the network",
    "writes_explain": "{what} is not allowed inside EXPLAIN: the archive is opened read-only for queries; "
    "only SELECT (with WITH, DESCRIBE, SUMMARIZE, EXPLAIN) may run, and it cannot reach files or the "
    "network",
    "comment": "the query holds only a comment: a comment (--) runs to the end of its line, so put the "
    "query on a line of its own",
    "empty": "the query is empty",
    "several": "one query at a time, please: this text holds {count} statements",
    "pivot": "a PIVOT that finds its columns itself first runs a statement of its own, which a query "
    "here may not: name the columns after IN (PIVOT deals ON kind IN ('played', 'redeal') USING "
    "count(*))",
    "too_long": "the query text is {size} characters long, more than the {limit} a query may be",
}
"""Why a query was refused or stopped, by its reason, in English: the errors' words (the SQL page
says each in its own language, by the reason the error carries)."""


def reason_words(reason: str, **values: Any) -> str:
    """A reason's words with its values, whole numbers with thousands apart.

    >>> reason_words("too_large", size=2400, limit=32).split(":")[0]
    'the result holds about 2,400 MB, more than the 32 MB a page shows'
    """
    return REASONS[reason].format(**{k: f"{v:,}" if isinstance(v, int) else v for k, v in values.items()})


class QueryTimeoutError(QueryError):
    """A user query stopped because it ran past its time limit."""

    waited: float = 0.0
    """Seconds the query waited for a free worker of the dashboard's console before its time
    started (other queries held them all)."""
    abandoned: bool = False
    """DuckDB did not stop when interrupted (a query it folds while planning ignores interrupts):
    its thread still runs, so the connection is busy for good and the process should end (the
    command line does) rather than wait for it or close the connection."""


def timeout_message(timeout: float) -> str:
    """What a query stopped at its time limit says.

    >>> timeout_message(1)[:52]
    'the query ran longer than 1 second and was stopped: '
    """
    return (
        f"the query ran longer than {timeout:g} second{'' if timeout == 1 else 's'} and "
        "was stopped: ask for less (a WHERE, a LIMIT), or give it more time (--timeout)"
    )


class ConsoleMixin(StoreBase):
    """Running queries someone typed, read-only and away from files and the network."""

    _console_lock: threading.Lock
    _memory_limit: str = QUERY_MEMORY_LIMIT

    def user_query(
        self,
        sql: str,
        *,
        timeout: float | None = QUERY_TIMEOUT,
        max_rows: int | None = None,
        memory_limit: str = QUERY_MEMORY_LIMIT,
    ) -> pl.DataFrame:
        """The result of a query someone typed, as a polars frame; it may only read the archive.

        The first user query turns off DuckDB's file and network access for this Store for
        good (DuckDB cannot turn it back on), and bounds its memory, so a Store used for user
        queries cannot export. Each query runs on a cursor of its own: queries from several
        threads run side by side. A column of a type a frame cannot show faithfully (intervals,
        unions, big numbers, dates past year 9999, ...) comes back as DuckDB writes it, as text.

        :param timeout: seconds before the query is stopped; ``None`` for no limit.
        :param max_rows: when given, at most one row more than this (so a caller can tell that
            the result was cut).
        :param memory_limit: the most memory this Store's queries may take, set by the first
            user query (DuckDB's size syntax: ``1GB``, ``500MB``).
        :raises QueryRefusedError: for anything but one reading statement (no INSERT, DROP,
            COPY, ATTACH, INSTALL, SET, PRAGMA, ...) and for reading files or the network.
        :raises QueryTimeoutError: when it ran past ``timeout`` seconds and was stopped, or was
            abandoned (``abandoned``) because DuckDB did not stop: this Store must then not be
            used or closed again (its connection stays busy), and the process should end.
        :raises QueryError: for a query DuckDB cannot parse or run, or one that needed more
            memory than the limit.
        """
        with self._console_lock:
            check_user_query(self._con, sql)
            try:
                self._sandbox(memory_limit)
                cursor = self._con.cursor()
            except (duckdb.Error, RuntimeError) as error:
                raise QueryError(f"the archive is not open for queries: {_duckdb_message(error)}") from None
        abandoned = False
        try:
            # Even a reading statement runs in a transaction that is always rolled back, so
            # functions with side effects (nextval, ...) leave nothing behind.
            cursor.execute("BEGIN TRANSACTION")
            return _run_stoppable(cursor, sql, timeout, max_rows)
        except QueryTimeoutError as error:
            abandoned = error.abandoned
            raise
        except duckdb.PermissionException as error:
            raise QueryRefusedError(f"{reason_words('files')} ({_duckdb_message(error)})", "files") from None
        except duckdb.OutOfMemoryException:
            raise QueryError(
                reason_words("memory", limit=self._memory_limit), "memory", limit=self._memory_limit
            ) from None
        except duckdb.CatalogException as error:
            raise QueryError(
                self._with_archive_names(_of_the_query(_duckdb_message(error, where=True), sql))
            ) from None
        except (duckdb.Error, RuntimeError) as error:
            if _stopped(error):
                raise QueryError("the query was interrupted") from None
            raise QueryError(_of_the_query(_duckdb_message(error, where=True), sql)) from None
        finally:
            # An abandoned query still holds its cursor: a ROLLBACK would wait for it.
            if not abandoned:
                with contextlib.suppress(duckdb.Error, RuntimeError):
                    cursor.execute("ROLLBACK")
                with contextlib.suppress(duckdb.Error, RuntimeError):
                    cursor.close()

    def _with_archive_names(self, message: str) -> str:
        """DuckDB's message of a name it does not know, its guess of a system table (``Did you
        mean "pg_enum"?`` for a mistyped ``nope``) replaced by the archive's own tables and views;
        a guess among those (``deals`` for ``deal``) stays."""
        guessed = re.search(r'\nDid you mean "([^"]+)"\?', message)
        if guessed is None or not re.match(r"(pg_|duckdb_|sqlite_|information_schema|pragma_)", guessed[1]):
            return message
        with contextlib.suppress(duckdb.Error, RuntimeError), contextlib.closing(self._con.cursor()) as names:
            found = names.execute(
                "SELECT table_name FROM information_schema.tables "
                "WHERE table_schema = 'main' AND table_name <> 'schema_version' ORDER BY 1"
            ).fetchall()
            listed = ", ".join(name for (name,) in found)
            rest = message[guessed.end() :]  # the query's line, with its caret
            return message[: guessed.start()].rstrip("!") + f": the archive has {listed} (docs/sql.md){rest}"
        return message[: guessed.start()] + message[guessed.end() :]

    def _sandbox(self, memory_limit: str) -> None:
        if self._sandboxed:
            return
        # No temporary folder either: DuckDB lists it among the allowed directories, where a
        # query could otherwise write and read files.
        self._con.execute("SET temp_directory = ''")
        self._con.execute(f"SET memory_limit = {_sql_text(memory_limit)}")
        self._memory_limit = memory_limit
        # no extension installed or loaded at a query's request either: installing one reaches
        # the network and the home folder, and the refusal named the server's paths
        for setting in (
            "autoinstall_known_extensions",
            "autoload_known_extensions",
            "allow_community_extensions",
        ):
            self._con.execute(f"SET {setting} = false")
        self._con.execute("SET enable_external_access = false")
        self._con.execute("SET lock_configuration = true")
        self._sandboxed = True


def query_file(
    path: str,
    sql: str,
    *,
    max_rows: int | None,
    memory_limit: str = QUERY_MEMORY_LIMIT,
    max_bytes: int | None = None,
) -> bytes:
    """A user query on the archive file at ``path``, opened read-only, its rows as Arrow IPC bytes
    (``pl.read_ipc``): what the dashboard's console runs in a worker process that it ends by force
    at the time limit (:mod:`.console_pool`), so the query has none of its own here.

    :raises QueryRefusedError: as :meth:`ConsoleMixin.user_query`.
    :param max_bytes: the most the rows may hold (:data:`QUERY_MAX_BYTES` on the SQL page).
    :raises QueryError: as :meth:`ConsoleMixin.user_query`, when the file cannot be opened, and
        for rows over ``max_bytes``.
    """
    from .core import Store  # the Store is made of this module's mixin

    try:
        store = Store(path, read_only=True)
    except ArchiveOutdatedError:
        # the worker loaded a newer program than the dashboard's (upgraded while it ran): the
        # archive's upgrade advice named the worker's private copy, where it does nothing
        raise QueryError(
            "manillen-replay was upgraded while the dashboard ran, and the archive is not yet upgraded "
            "for it: restart the dashboard (it upgrades the archive when it starts)"
        ) from None
    except ManillenError as error:
        raise QueryError(f"the archive is not open for queries: {error}") from None
    with store:
        frame = store.user_query(sql, timeout=None, max_rows=max_rows, memory_limit=memory_limit)
    size = shown_size(frame) if max_bytes is not None else 0
    if max_bytes is not None and size > max_bytes:
        values = {"size": round(size / 1e6), "limit": round(max_bytes / 1e6)}
        raise QueryError(reason_words("too_large", **values), "too_large", **values)
    buffer = io.BytesIO()
    frame.write_ipc(buffer)
    return buffer.getvalue()


def shown_size(frame: pl.DataFrame) -> int:
    """About how many bytes the rows take once shown or written as text: their size in memory,
    and five bytes more for each true, false and NULL that memory holds in a bit or nothing
    (``SELECT list(true) FROM range(100000000)``, 12.5 MB in memory, took the server 4 GB as the
    page's CSV).

    >>> shown_size(pl.DataFrame({"flags": [[True] * 1000]})) > 5000
    True
    """
    return int(frame.estimated_size()) + 5 * sum(_packed_values(column) for column in frame.get_columns())


def _packed_values(column: pl.Series) -> int:
    """How many booleans and NULL-typed values ``column`` holds, inside lists and structs too."""
    kind = column.dtype
    if kind == pl.Boolean or kind == pl.Null:
        return column.len()
    if isinstance(kind, pl.List):
        return _packed_values(column.list.explode()) if _packs(kind.inner) else 0
    if isinstance(kind, pl.Array):
        return _packed_values(column.arr.explode()) if _packs(kind.inner) else 0
    if isinstance(kind, pl.Struct):
        return sum(_packed_values(column.struct.field(field.name)) for field in kind.fields)
    return 0


def _packs(kind: object) -> bool:
    """Whether values of ``kind`` hold a boolean or a NULL-typed value anywhere."""
    text = str(kind)
    return "Boolean" in text or "Null" in text


def _of_the_query(message: str, sql: str) -> str:
    """A message's ``LINE n:`` quote numbered as the line of the query typed: DuckDB numbers the
    lines of the statement it ran, which wraps the query (its limits, the columns shown as text),
    so "LINE 3" came of a query of one line. A quote no line of the query holds is left out.

    >>> _of_the_query("bad\\n\\nLINE 3: SELECT x\\n        ^", "SELECT x").splitlines()[2]
    'LINE 1: SELECT x'
    """
    head, found, quote = message.partition("\n\nLINE ")
    if not found:
        return message
    number, _, rest = quote.partition(": ")
    quoted = rest.split("\n", 1)[0]
    lines = sql.splitlines()
    at = next((index for index, line in enumerate(lines, start=1) if line == quoted), None)
    if at is None or not number.isdigit():
        return head
    # the caret's line keeps its place: the prefix "LINE n: " may change length
    caret = rest.split("\n", 1)[1] if "\n" in rest else ""
    shift = len(str(at)) - len(number)
    if shift > 0:
        caret = " " * shift + caret
    elif shift < 0:
        caret = caret[-shift:]
    return f"{head}\n\nLINE {at}: {quoted}" + (f"\n{caret}" if caret else "")


def _run_stoppable(
    cursor: duckdb.DuckDBPyConnection,
    sql: str,
    timeout: float | None,
    max_rows: int | None = None,
    grace: float | None = None,
) -> pl.DataFrame:
    """The query's rows, run on a thread of its own while this one waits: a Ctrl-C (which
    Python sees only here) or the time limit interrupts DuckDB, and the query ends cleanly.

    DuckDB does not always stop when interrupted (a constant it folds while planning, such as
    ``length(repeat(repeat('x', 100000), 30000))``, takes its time): ``grace`` seconds after the
    time limit's interrupt this gives up waiting and leaves the thread running.

    :param grace: seconds to wait for DuckDB after the interrupt (:data:`STOP_GRACE_SECONDS`).
    :raises QueryTimeoutError: when it ran past ``timeout`` seconds; ``abandoned`` when DuckDB
        did not stop within ``grace`` seconds of the interrupt.
    :raises KeyboardInterrupt: after DuckDB stopped the query for a Ctrl-C.
    """
    outcome: dict[str, Any] = {}
    done = threading.Event()

    def run() -> None:
        try:
            outcome["rows"] = _shown(cursor.sql(sql), max_rows)
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
        assert timeout is not None
        cursor.interrupt()
        if not done.wait(STOP_GRACE_SECONDS if grace is None else grace):
            error = QueryTimeoutError(timeout_message(timeout))
            error.abandoned = True
            raise error
        raise QueryTimeoutError(timeout_message(timeout))
    if "error" in outcome:
        raise outcome["error"]
    rows: pl.DataFrame = outcome["rows"]
    return rows


_POLL_SECONDS = 0.1
STOP_GRACE_SECONDS = 0.5
"""How long a query past its time limit has to stop once interrupted before it is abandoned."""

_AS_TEXT = (
    "INTERVAL", "UNION", "MAP(", "BIGNUM", "VARINT", "HUGEINT", "BIT", "BLOB", "WITH TIME ZONE", "VARIANT",
    "GEOMETRY", "ENUM(",
)  # fmt: skip
"""DuckDB types (also inside lists, structs and maps) that a polars frame cannot show as they
are: it refuses intervals and unions, shows big numbers and variants as bytes, UHUGEINT's largest
values as negative, and drops a time's offset; a map, a blob, a variant or a geometry cannot go
to CSV (a variant crashed the SQL page's download, a geometry the page itself); an enum's values
are codes in memory, so its texts would pass the page's size limit uncounted. Such columns
come back as DuckDB writes them, as text."""

_TEMPORAL = ("DATE", "TIMESTAMP")
"""Types whose values past the years 1 to 9999 (``infinity``, far timestamps) a frame holds but
cannot show: those columns come back as text too."""


def _shown(relation: duckdb.DuckDBPyRelation | None, max_rows: int | None) -> pl.DataFrame:
    """A user query's rows as a frame every value of which prints as DuckDB would print it."""
    if relation is None:
        return _frame(None)
    if max_rows is not None:
        relation = relation.limit(max_rows + 1)
    names, types = relation.columns, [str(kind).upper() for kind in relation.types]
    if len(set(names)) != len(names):
        # two columns of one name (a join's ON): named apart as DuckDB names them under a LIMIT
        # (match_id, match_id_1), so each is projected, and shown, as any other
        relation = relation.project("*")
        names = relation.columns
    narrowed = {name: kind for name, kind in zip(names, types, strict=True) if _narrower(kind)}
    as_text = {
        name
        for name, kind in zip(names, types, strict=True)
        # dates inside lists and structs: the page's grid draws them as milliseconds since 1970
        if name not in narrowed
        and (
            any(t in kind for t in _AS_TEXT)
            or (any(t in kind for t in _TEMPORAL) and ("[" in kind or "(" in kind))
        )
    }
    if as_text or narrowed:
        relation = _as_text(relation, as_text, narrowed)
    frame = _frame(relation)
    temporal = [
        name
        for name, kind in zip(names, types, strict=True)
        if name not in as_text and any(t in kind for t in _TEMPORAL) and not _printable_dates(frame[name])
    ]
    if temporal:
        frame = _frame(_as_text(relation, set(temporal)))
    return _narrowed(frame, list(narrowed), names) if narrowed else frame


def _narrower(kind: str) -> str | None:
    """The ordinary type a column of DuckDB type ``kind`` is shown in when every value of it fits:
    ``sum()`` of whole numbers is a HUGEINT and ``1.5`` a DECIMAL, which came back as text (sorted
    as text on the page, strings in the JSON) however small their values."""
    if kind in ("HUGEINT", "UHUGEINT") or (kind.startswith("DECIMAL(") and kind.endswith(",0)")):
        return "BIGINT"
    if kind.startswith("DECIMAL("):
        return "DOUBLE"
    return None


def _helper_names(names: list[str], count: int) -> list[tuple[str, str, str]]:
    """Names of the three helper columns of each of ``count`` narrowed columns: the value in its
    ordinary type, whether every value came through exactly, the text; none of them a name the
    query gave."""
    mark = "narrowed"
    while any(name.startswith(mark) for name in names):
        mark = "_" + mark
    return [(f"{mark}{i}_value", f"{mark}{i}_fits", f"{mark}{i}_text") for i in range(count)]


def _as_text(
    relation: duckdb.DuckDBPyRelation, names: set[str], narrowed: dict[str, str] | None = None
) -> duckdb.DuckDBPyRelation:
    """The relation with the columns ``names`` as text, and each column of ``narrowed`` (its
    DuckDB type, in the relation's order) as three (see :func:`_helper_names`, :func:`_narrowed`)."""
    narrowed = narrowed or {}
    helpers = dict(zip(narrowed, _helper_names(relation.columns, len(narrowed)), strict=True))
    columns = []
    for name in relation.columns:
        column = _identifier(name)
        if name in names:
            columns.append(f"CAST({column} AS VARCHAR) AS {column}")
        elif name in helpers:
            kind, (value, fits, text) = narrowed[name], helpers[name]
            narrow = f"TRY_CAST({column} AS {_narrower(kind)})"
            columns += [
                f"{narrow} AS {_identifier(value)}",
                f"COALESCE({column} IS NULL OR TRY_CAST({narrow} AS {kind}) = {column}, false) "
                f"AS {_identifier(fits)}",
                f"CAST({column} AS VARCHAR) AS {_identifier(text)}",
            ]
        else:
            columns.append(column)
    return relation.project(", ".join(columns))


def _narrowed(frame: pl.DataFrame, names: list[str], columns: list[str]) -> pl.DataFrame:
    """Each narrowed column of ``names`` back under its name, in the query's ``columns`` order:
    its ordinary values where every one came through exactly, else DuckDB's text (a sum past 64
    bits)."""
    helpers = dict(zip(names, _helper_names(columns, len(names)), strict=True))
    picked = []
    for name in columns:
        if name in helpers:
            value, fits, text = helpers[name]
            picked.append(frame[value if frame[fits].all() else text].alias(name))
        else:
            picked.append(frame[name])
    return pl.DataFrame(picked)


def _identifier(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


_PYTHON_DATES = (datetime.datetime(1, 1, 1), datetime.datetime(9999, 12, 31, 23, 59, 59))


def _printable_dates(column: pl.Series) -> bool:
    """Whether every date or time of a column lies in the years 1 to 9999, which Python and
    polars can print (DuckDB's ``infinity`` and far timestamps do not); in lists and structs
    too (``list(date)``)."""
    dtype = column.dtype
    if isinstance(dtype, pl.List):
        return _printable_dates(column.explode())
    if isinstance(dtype, pl.Array):
        return _printable_dates(column.arr.explode())
    if isinstance(dtype, pl.Struct):
        return all(_printable_dates(column.struct.field(field.name)) for field in dtype.fields)
    if not isinstance(dtype, (pl.Date, pl.Datetime)):
        return True
    physical = column.to_physical().drop_nulls()
    if physical.is_empty():
        return True
    low, high = _bounds(column.dtype)
    return bool(low <= physical.min() <= high and low <= physical.max() <= high)  # type: ignore[operator]


def _bounds(dtype: pl.DataType) -> tuple[int, int]:
    """The physical values (days, or time units since 1970) of the years 1 to 9999 in a type."""
    epoch = datetime.datetime(1970, 1, 1)
    low, high = (moment - epoch for moment in _PYTHON_DATES)
    if not isinstance(dtype, pl.Datetime):
        return low.days, high.days
    if dtype.time_unit == "ns":  # nanoseconds since 1970 reach only the years 1677 to 2262
        return -(2**63), 2**63 - 1
    per_second = 1_000 if dtype.time_unit == "ms" else 1_000_000
    return int(low.total_seconds()) * per_second, int(high.total_seconds()) * per_second


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


MAX_QUERY_CHARS = 100_000
"""The longest query text taken: DuckDB reads a text before any time or memory limit applies
(a 12 MB text took 41 s and 6 GB past a 3-second, 500 MB limit); a question asked by hand,
however long, is a thousandth of it."""


def check_user_query(connection: duckdb.DuckDBPyConnection, sql: str) -> None:
    """Refuse anything but one statement that reads; an EXPLAIN only of one that reads.

    :raises QueryRefusedError: for a writing, configuring or multiple statement, and for a text
        over :data:`MAX_QUERY_CHARS`.
    :raises QueryError: for a statement DuckDB cannot parse.
    """
    if len(sql) > MAX_QUERY_CHARS:
        values = {"size": len(sql), "limit": MAX_QUERY_CHARS}
        raise QueryRefusedError(reason_words("too_long", **values), "too_long", **values)
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
    if statement.type == duckdb.StatementType.MULTI and re.search(r"\bPIVOT\b", text, re.IGNORECASE):
        # DuckDB makes a PIVOT without IN (...) two statements, the first one finding the columns
        raise QueryRefusedError(reason_words("pivot"), "pivot")
    if statement.type not in _READING_STATEMENTS:
        kind = statement.type.name.replace("_", " ")
        first_word = text.split(None, 1)[0].upper() if text.strip() else kind
        what = first_word if first_word.isalpha() and first_word != "WITH" else kind
        reason = "writes_explain" if inside else "writes"
        raise QueryRefusedError(reason_words(reason, what=what), reason, what=what)


def _one_statement(connection: duckdb.DuckDBPyConnection, sql: str) -> Any:
    try:
        statements = connection.extract_statements(sql)
    except (duckdb.Error, RuntimeError) as error:
        raise QueryError(_duckdb_message(error, where=True)) from None
    if not statements:
        if sql.strip():  # "-- how many\nSELECT 1" typed with a literal \n is one comment line
            raise QueryRefusedError(reason_words("comment"), "comment")
        raise QueryRefusedError(reason_words("empty"), "empty")
    if len(statements) > 1:
        count = len(statements)
        raise QueryRefusedError(reason_words("several", count=count), "several", count=count)
    return statements[0]


def csv_text(frame: pl.DataFrame, *, excel: bool = False) -> str:
    """A query result as CSV (:func:`flatten_for_csv`), its times written as the table and the
    dashboard show them (``2026-03-24 20:15:00``, not ``2026-03-24T20:15:00.000000``).

    :param excel: as a spreadsheet in Belgium or the Netherlands opens it with a double click:
        a byte order mark (else Excel reads ``Zoë`` as ``ZoÃ«``), ``;`` between the values and a
        decimal comma (Excel's list separator and decimals there), and a text that a spreadsheet
        would run as a formula (it starts with ``=``, ``+``, ``-``, ``@``, a tab or a return:
        a player named ``=HYPERLINK(...)``) kept as text by a ``'`` before it.

    >>> import datetime
    >>> print(csv_text(pl.DataFrame({"at": [datetime.datetime(2026, 3, 24, 20, 15)], "cards": [["AS"]]})))
    "at","cards"
    "2026-03-24 20:15:00","AS"
    <BLANKLINE>
    >>> print(csv_text(pl.DataFrame({"player": ["=1+1", "Zoë"], "mean": [1.5, -2.0]}), excel=True))
    \ufeff"player";"mean"
    "'=1+1";1,5
    "Zoë";-2,0
    <BLANKLINE>
    """
    flat = flatten_for_csv(frame)
    if excel:
        flat = flat.with_columns(
            pl.when(pl.col(name).str.contains(FORMULA_START) & ~pl.col(name).str.contains(NUMBERS))
            .then(pl.lit("'") + pl.col(name))
            .otherwise(pl.col(name))
            .alias(name)
            for name, dtype in flat.schema.items()
            if dtype == pl.String
        )
    return flat.write_csv(
        datetime_format="%Y-%m-%d %H:%M:%S%.f",
        time_format="%H:%M:%S%.f",
        date_format="%Y-%m-%d",
        include_bom=excel,
        separator=";" if excel else ",",
        decimal_comma=excel,
        # every text quoted: a reader guessing the format from the first rows (DuckDB's read_csv
        # looks at 20,480) saw no quotes and then failed on a later "x, y"
        quote_style="non_numeric",
    )


FORMULA_START = r"^[=+\-@\t\r]"
"""How a text a spreadsheet would take for a formula starts (OWASP's list for CSV files)."""

NUMBERS = r"^[+-]?\d[\d.,]*(?: [+-]?\d[\d.,]*)*$"
"""A text of numbers only (``-1``, a list ``-1 2``, a number past 64 bits): no formula, kept as it is."""


def flatten_for_csv(frame: pl.DataFrame) -> pl.DataFrame:
    """A query result that CSV can hold: lists (cards, tags) become space-separated text, structs
    JSON; a list column with an item holding a space (a tab, a line break), an empty text or a
    NULL becomes JSON too
    (``["a b","c"]``, ``[1,null]``, ``[""]``), where spaces lost the NULL and split the item, and
    so does a list of lists or of structs (``[["AS"],["KH"]]``, the structs' names kept). A time
    with its zone keeps the zone's offset.

    >>> flatten_for_csv(pl.DataFrame({"cards": [["10S", "AS"]], "n": [[1, None]]})).row(0)
    ('10S AS', '[1,null]')
    >>> flatten_for_csv(pl.DataFrame({"hands": [[["AS"], ["KH", "7C"]]], "e": [[""]]})).row(0)
    ('[["AS"],["KH","7C"]]', '[""]')
    """
    columns = []
    for name, dtype in frame.schema.items():
        if isinstance(dtype, pl.List | pl.Array):
            texts = pl.col(name).cast(pl.List(pl.String))  # an expression: not cast unless asked for
            nested = isinstance(dtype.inner, pl.List | pl.Array | pl.Struct)
            unclear = (
                nested
                or frame.select(
                    texts.list.eval(
                        pl.element().is_null()
                        | pl.element().str.contains(r"\s")
                        | (pl.element().str.len_chars() == 0)
                    )
                    .list.any()
                    .any()
                ).item()
            )
            if unclear:
                values = pl.col(name)
                if isinstance(dtype, pl.Array):
                    values = values.cast(pl.List(dtype.inner))
                columns.append(values.map_elements(_json_list, pl.String).alias(name))
            else:
                columns.append(texts.list.join(" ").alias(name))
        elif isinstance(dtype, pl.Datetime) and dtype.time_zone is not None:
            # one format for every time column: a zone's offset would be dropped from this one
            columns.append(pl.col(name).dt.to_string("%Y-%m-%d %H:%M:%S%.f%:z").alias(name))
        elif isinstance(dtype, pl.Struct):
            # a NULL struct stays NULL: its JSON, the text "null", was a value like any other
            encoded = pl.col(name).struct.json_encode()
            columns.append(pl.when(pl.col(name).is_null()).then(None).otherwise(encoded).alias(name))
        else:
            columns.append(pl.col(name))
    return frame.select(columns)


def _json_list(values: pl.Series) -> str:
    return json.dumps(values.to_list(), ensure_ascii=False, separators=(",", ":"), default=str)
