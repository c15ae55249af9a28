"""The game archive: one DuckDB file with every match, deal, trick and card; all SQL lives here.

A :class:`Store` opens (or creates) an archive, brings its schema up to date with numbered
migrations, imports records in bulk (Arrow tables loaded with ``INSERT ... SELECT`` inside one
transaction per file) and answers queries as polars frames. Table and column names are a public
interface documented in ``docs/sql.md``; they change only through a new migration.
"""

from __future__ import annotations

import contextlib
import datetime
import gc
import hashlib
import itertools
import os
import queue
import re
import shutil
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import duckdb
import msgspec
import numpy as np
import polars as pl
import pyarrow as pa

from .cards import CARD_POINTS, CARD_TEXT, Rank, Suit
from .engine import DealKind, DealResult, MatchResult, match_id, replay
from .errors import InvalidRecordError, ManillenError, RecordError
from .record import Annotation, Entry, Record, dumps, iter_entries, loads
from .rules import Clause

# --------------------------------------------------------------------------- errors


class ArchiveError(ManillenError):
    """The archive cannot be opened, upgraded or written."""


class ArchiveLockedError(ArchiveError):
    """Another program (or another open Store in this one) holds the archive file."""


class QueryRefusedError(ManillenError):
    """A user query that would change the archive or reach files or the network."""


class QueryError(ManillenError):
    """A user query that DuckDB cannot run (a syntax error, an unknown column, ...)."""


# --------------------------------------------------------------------------- schema

# The card texts indexed by the card number (suit * 9 + rank), so the views can turn a mask
# of cards into their texts.
_CARD_TEXT_SQL = "[" + ", ".join(f"'{text}'" for text in CARD_TEXT) + "]"
_CLAUSES: tuple[Clause, ...] = tuple(Clause)
_CLAUSE_CODE_BY_ID: dict[int, int] = {id(clause): code for code, clause in enumerate(_CLAUSES)}
_RANKS_PER_SUIT = 9


def _cards_of_mask_sql(mask: str) -> str:
    """SQL for the card texts of a bit mask column, lowest card first (no lambda, so it may
    define a generated column)."""
    bits = ", ".join(f"(({mask} >> {card}) & 1) = 1" for card in range(len(CARD_TEXT)))
    return f"list_where({_CARD_TEXT_SQL}, [{bits}])"


_MIGRATION_1 = """
CREATE TABLE matches (
    match_id VARCHAR PRIMARY KEY,
    import_order BIGINT NOT NULL,
    source VARCHAR,
    line INTEGER,
    date DATE,
    venue VARCHAR,
    event VARCHAR,
    notes VARCHAR,
    variant VARCHAR NOT NULL,
    players INTEGER NOT NULL,
    seat0 VARCHAR,
    seat1 VARCHAR,
    seat2 VARCHAR,
    seat3 VARCHAR,
    seat4 VARCHAR,
    seat5 VARCHAR,
    rules VARCHAR NOT NULL,
    format VARCHAR NOT NULL,
    target INTEGER,
    deals INTEGER NOT NULL,
    score_0 INTEGER NOT NULL,
    score_1 INTEGER NOT NULL,
    score_2 INTEGER,
    final_score_0 INTEGER NOT NULL,
    final_score_1 INTEGER NOT NULL,
    final_score_2 INTEGER,
    winner INTEGER,
    finished BOOLEAN NOT NULL,
    violations INTEGER NOT NULL,
    irregularities INTEGER NOT NULL,
    record VARCHAR NOT NULL,
    content_hash VARCHAR NOT NULL,
    imported_at TIMESTAMP NOT NULL
);
CREATE TABLE seats (
    match_id VARCHAR NOT NULL,
    seat INTEGER NOT NULL,
    player VARCHAR NOT NULL,
    team INTEGER NOT NULL
);
CREATE TABLE deal_seats (
    match_id VARCHAR NOT NULL,
    deal INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    player VARCHAR NOT NULL,
    team INTEGER NOT NULL,
    is_dummy BOOLEAN NOT NULL
);
CREATE TABLE deals (
    match_id VARCHAR NOT NULL,
    deal INTEGER NOT NULL,
    block INTEGER,
    dealer INTEGER NOT NULL,
    dealer_player VARCHAR NOT NULL,
    dealing_team INTEGER NOT NULL,
    kind VARCHAR NOT NULL,
    contract VARCHAR,
    trump VARCHAR,
    chooser INTEGER,
    en_face BOOLEAN NOT NULL,
    knocks INTEGER NOT NULL,
    carried BOOLEAN NOT NULL,
    multiplier INTEGER,
    tricks INTEGER NOT NULL,
    points_0 INTEGER,
    points_1 INTEGER,
    tie BOOLEAN NOT NULL,
    score_team INTEGER,
    score_points INTEGER,
    has_recorded BOOLEAN NOT NULL,
    recorded_team INTEGER,
    recorded_points INTEGER,
    score_mismatch BOOLEAN NOT NULL,
    penalty_0 INTEGER NOT NULL,
    penalty_1 INTEGER NOT NULL,
    match_score_0 INTEGER NOT NULL,
    match_score_1 INTEGER NOT NULL,
    match_score_2 INTEGER,
    counted BOOLEAN NOT NULL,
    violations INTEGER NOT NULL,
    irregularities VARCHAR[] NOT NULL
);
CREATE TABLE declarations (
    match_id VARCHAR NOT NULL,
    deal INTEGER NOT NULL,
    position INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    player VARCHAR NOT NULL,
    call VARCHAR NOT NULL,
    suit VARCHAR
);
CREATE TABLE hand_rows (
    match_id VARCHAR NOT NULL,
    deal INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    player VARCHAR NOT NULL,
    points INTEGER NOT NULL,
    trumps INTEGER,
    mask BIGINT NOT NULL
);
CREATE VIEW hands AS SELECT *, HAND_CARDS AS cards FROM hand_rows;
CREATE TABLE tricks (
    match_id VARCHAR NOT NULL,
    deal INTEGER NOT NULL,
    trick INTEGER NOT NULL,
    leader INTEGER NOT NULL,
    leader_player VARCHAR NOT NULL,
    led_suit VARCHAR NOT NULL,
    cards INTEGER NOT NULL,
    winner INTEGER,
    winner_player VARCHAR,
    winner_team INTEGER,
    points INTEGER NOT NULL
);
CREATE TABLE play_rows (
    match_id VARCHAR NOT NULL,
    deal INTEGER NOT NULL,
    trick INTEGER NOT NULL,
    position INTEGER NOT NULL,
    play INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    player VARCHAR NOT NULL,
    team INTEGER NOT NULL,
    card VARCHAR NOT NULL,
    suit VARCHAR NOT NULL,
    rank VARCHAR NOT NULL,
    points INTEGER NOT NULL,
    is_trump BOOLEAN NOT NULL,
    legal BOOLEAN NOT NULL,
    violation VARCHAR,
    winning_seat INTEGER NOT NULL,
    clause VARCHAR NOT NULL,
    legal_mask BIGINT NOT NULL
);
CREATE VIEW plays AS SELECT *, LEGAL_CARDS AS legal_cards FROM play_rows;
CREATE TABLE annotations (
    annotation_id BIGINT PRIMARY KEY,
    match_id VARCHAR NOT NULL,
    deal INTEGER NOT NULL,
    trick INTEGER,
    play INTEGER,
    author VARCHAR NOT NULL,
    text VARCHAR NOT NULL,
    tags VARCHAR[],
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
CREATE TABLE findings (
    finding_id BIGINT PRIMARY KEY,
    match_id VARCHAR NOT NULL,
    deal INTEGER,
    trick INTEGER,
    play INTEGER,
    seat INTEGER,
    player VARCHAR,
    kind VARCHAR NOT NULL,
    category VARCHAR NOT NULL CHECK (category IN ('rule', 'scoring', 'procedure', 'strategy')),
    severity VARCHAR NOT NULL CHECK (severity IN ('info', 'inaccuracy', 'mistake', 'blunder')),
    card VARCHAR,
    better VARCHAR[],
    points DOUBLE,
    explanation VARCHAR,
    explanation_nl VARCHAR,
    detector VARCHAR NOT NULL
);
CREATE TABLE rejects (
    source VARCHAR,
    line INTEGER,
    pointer VARCHAR NOT NULL,
    message VARCHAR NOT NULL,
    problems VARCHAR[] NOT NULL,
    raw VARCHAR NOT NULL,
    rejected_at TIMESTAMP NOT NULL
);
CREATE VIEW player_deals AS
SELECT
    d.match_id,
    d.deal,
    m.date,
    m.variant,
    d.block,
    s.seat,
    s.player,
    s.team,
    d.dealer = s.seat AS is_dealer,
    d.dealing_team = s.team AS on_dealing_team,
    d.kind,
    d.contract,
    d.trump,
    d.multiplier,
    d.knocks,
    CASE s.team WHEN 0 THEN d.points_0 ELSE d.points_1 END AS points_taken,
    CASE s.team WHEN 0 THEN d.points_1 ELSE d.points_0 END AS points_given,
    CASE WHEN d.score_team = s.team THEN d.score_points ELSE 0 END AS score_for,
    CASE WHEN d.score_team = 1 - s.team THEN d.score_points ELSE 0 END AS score_against,
    d.score_team = s.team AS won,
    d.tie,
    coalesce(t.tricks_won, 0) AS tricks_won,
    coalesce(p.cards_played, 0) AS cards_played,
    coalesce(p.violations, 0) AS violations,
    d.counted
FROM deals d
JOIN matches m USING (match_id)
JOIN deal_seats s ON s.match_id = d.match_id AND s.deal = d.deal AND NOT s.is_dummy
LEFT JOIN (
    SELECT match_id, deal, winner_player AS player, count(*) AS tricks_won
    FROM tricks WHERE winner IS NOT NULL GROUP BY ALL
) t ON t.match_id = d.match_id AND t.deal = d.deal AND t.player = s.player
LEFT JOIN (
    SELECT match_id, deal, player, count(*) AS cards_played, count(violation) AS violations
    FROM plays GROUP BY ALL
) p ON p.match_id = d.match_id AND p.deal = d.deal AND p.player = s.player;
CREATE VIEW player_summary AS
SELECT
    pd.player,
    count(DISTINCT pd.match_id) AS matches,
    count(*) FILTER (WHERE pd.kind = 'played') AS deals,
    count(*) FILTER (WHERE pd.kind = 'played' AND pd.is_dealer) AS deals_dealt,
    count(*) FILTER (WHERE pd.won) AS deals_won,
    count(*) FILTER (WHERE pd.score_against > 0) AS deals_lost,
    round(avg(pd.points_taken) FILTER (WHERE pd.kind = 'played'), 2)::DOUBLE AS avg_points_taken,
    sum(pd.score_for)::BIGINT AS score_for,
    sum(pd.score_against)::BIGINT AS score_against,
    sum(pd.tricks_won)::BIGINT AS tricks_won,
    sum(pd.cards_played)::BIGINT AS cards_played,
    sum(pd.violations)::BIGINT AS violations,
    round(100.0 * sum(pd.violations) / nullif(sum(pd.cards_played), 0), 2)::DOUBLE
        AS violations_per_100_cards,
    (SELECT count(*) FROM matches m JOIN seats s USING (match_id)
     WHERE s.player = pd.player AND m.winner = s.team AND m.format = 'target') AS matches_won
FROM player_deals pd
GROUP BY pd.player;
CREATE VIEW player_findings AS
WITH cards AS (
    SELECT p.player, date_trunc('month', coalesce(m.date, m.imported_at::DATE))::DATE AS month,
           count(*) AS cards_played
    FROM plays p JOIN matches m USING (match_id)
    GROUP BY ALL
), found AS (
    SELECT f.player, date_trunc('month', coalesce(m.date, m.imported_at::DATE))::DATE AS month,
           f.kind, f.category, f.severity, count(*) AS findings
    FROM findings f JOIN matches m USING (match_id)
    WHERE f.player IS NOT NULL
    GROUP BY ALL
)
SELECT found.player, found.month, found.kind, found.category, found.severity, found.findings,
       coalesce(cards.cards_played, 0) AS cards_played,
       round(100.0 * found.findings / nullif(cards.cards_played, 0), 3)::DOUBLE AS per_100_cards
FROM found LEFT JOIN cards USING (player, month);
""".replace("LEGAL_CARDS", _cards_of_mask_sql("legal_mask")).replace("HAND_CARDS", _cards_of_mask_sql("mask"))

_MIGRATION_2 = """
ALTER TABLE matches ADD COLUMN analysed_at TIMESTAMP;
"""

_MIGRATION_3 = """
CREATE OR REPLACE VIEW player_findings AS
WITH months AS (
    SELECT p.player, date_trunc('month', coalesce(m.date, m.imported_at::DATE))::DATE AS month,
           count(*) AS cards_played, count(DISTINCT (p.match_id, p.deal)) AS deals_played
    FROM plays p JOIN matches m USING (match_id)
    GROUP BY ALL
), found AS (
    SELECT f.player, date_trunc('month', coalesce(m.date, m.imported_at::DATE))::DATE AS month,
           f.kind, f.category, f.severity, count(*) AS findings, sum(coalesce(f.points, 0)) AS points
    FROM findings f JOIN matches m USING (match_id)
    WHERE f.player IS NOT NULL
    GROUP BY ALL
)
SELECT found.player, found.month, found.kind, found.category, found.severity, found.findings,
       coalesce(months.cards_played, 0) AS cards_played,
       round(100.0 * found.findings / nullif(months.cards_played, 0), 3)::DOUBLE AS per_100_cards,
       found.points::DOUBLE AS points,
       coalesce(months.deals_played, 0) AS deals_played,
       round(found.points / nullif(months.deals_played, 0), 3)::DOUBLE AS points_per_deal
FROM found LEFT JOIN months USING (player, month);
"""

_MIGRATION_4 = """
CREATE TABLE blocks (
    match_id VARCHAR NOT NULL,
    block INTEGER NOT NULL,
    team INTEGER NOT NULL,
    players VARCHAR[] NOT NULL,
    score INTEGER NOT NULL,
    won BOOLEAN NOT NULL
);
CREATE VIEW blocks_won AS
SELECT b.match_id, p.player, count(*) FILTER (WHERE b.won) AS blocks_won, count(*) AS blocks
FROM blocks b, unnest(b.players) AS p(player)
GROUP BY b.match_id, p.player;
"""

_MIGRATION_5 = """
ALTER TABLE matches ADD COLUMN analysis_depth VARCHAR;
UPDATE matches SET analysis_depth = 'heuristic' WHERE analysed_at IS NOT NULL;
CREATE TABLE play_costs (
    match_id VARCHAR NOT NULL,
    deal INTEGER NOT NULL,
    trick INTEGER NOT NULL,
    play INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    player VARCHAR,
    card VARCHAR NOT NULL,
    dd_cost INTEGER NOT NULL,
    view_cost DOUBLE,
    best VARCHAR[] NOT NULL,
    hindsight_best VARCHAR[] NOT NULL,
    layouts INTEGER NOT NULL,
    exact BOOLEAN NOT NULL,
    legal BOOLEAN NOT NULL,
    forced BOOLEAN NOT NULL
);
CREATE TABLE card_values (
    match_id VARCHAR NOT NULL,
    deal INTEGER NOT NULL,
    trick INTEGER NOT NULL,
    play INTEGER NOT NULL,
    card VARCHAR NOT NULL,
    hindsight INTEGER NOT NULL,
    view DOUBLE
);
CREATE VIEW player_accuracy AS
SELECT CASE WHEN grouping(match_id) = 1 THEN 'all' WHEN grouping(deal) = 1 THEN 'match' ELSE 'deal' END
           AS scope,
       match_id, deal, player,
       count(*) AS cards,
       avg(100.0 * pow(0.5, view_cost / 5.0)) AS accuracy,
       avg(view_cost) AS avg_view_cost,
       avg(dd_cost) AS avg_dd_cost
FROM play_costs
WHERE legal AND NOT forced AND view_cost IS NOT NULL AND player IS NOT NULL
GROUP BY GROUPING SETS ((match_id, deal, player), (match_id, player), (player));
"""


@dataclass(frozen=True)
class Migration:
    """One numbered step of the schema; an archive records each step it has taken."""

    version: int
    """The schema version after this step."""
    description: str
    """What the step changes, for the ``schema_version`` table."""
    sql: str
    """The statements, run in one transaction."""


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "tables and views of the first archive", _MIGRATION_1),
    Migration(2, "matches.analysed_at: when the built-in detectors last ran", _MIGRATION_2),
    Migration(3, "player_findings: points lost and deals played per month", _MIGRATION_3),
    Migration(4, "blocks and blocks_won: the result of a club evening", _MIGRATION_4),
    Migration(
        5,
        "play_costs, card_values and player_accuracy: the solver's costs; matches.analysis_depth",
        _MIGRATION_5,
    ),
)
"""Every schema step, in order; the last version is the one this code reads and writes."""

SCHEMA_VERSION = MIGRATIONS[-1].version

ANALYSIS_DEPTHS: tuple[str, ...] = ("rules", "heuristic", "solver")
"""How deep ``manillen analyze`` looks, shallowest first (``matches.analysis_depth``)."""

TABLES: tuple[str, ...] = (
    "matches", "seats", "deal_seats", "deals", "declarations", "hands", "tricks", "plays",
    "annotations", "findings", "rejects", "blocks", "play_costs", "card_values",
)  # fmt: skip
"""The public tables, in the order ``export --parquet`` writes them (``hands`` and ``plays`` are
views over ``hand_rows`` and ``play_rows`` that add the card lists; the export has the lists)."""

_MATCH_TABLES = (
    "seats",
    "deal_seats",
    "deals",
    "declarations",
    "hand_rows",
    "tricks",
    "play_rows",
    "annotations",
    "findings",
    "blocks",
    "play_costs",
    "card_values",
)

# Statement types a user query may have: reading only. Everything else (INSERT, COPY, ATTACH,
# LOAD/INSTALL, SET, PRAGMA, CALL, ...) is refused before DuckDB sees it.
_READING_STATEMENTS = {duckdb.StatementType.SELECT, duckdb.StatementType.EXPLAIN}


def schema_version_of(connection: duckdb.DuckDBPyConnection) -> int:
    """The schema version of an open archive: 0 for a new, empty one."""
    exists = _first(
        connection.execute(
            "SELECT count(*) FROM duckdb_tables() "
            "WHERE table_name = 'schema_version' AND schema_name = 'main'"
        ).fetchall()
    )
    if not exists or not exists[0]:
        return 0
    row = _first(connection.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchall())
    return int(row[0]) if row else 0


def apply_migrations(connection: duckdb.DuckDBPyConnection, upto: int | None = None) -> list[int]:
    """Bring an archive's schema up to ``upto`` (default: the latest); each step in one transaction.

    :param connection: a writable connection to the archive.
    :param upto: stop after this version (tests build old archives this way).
    :returns: the versions applied, oldest first.
    :raises ArchiveError: when the archive was made by a newer version of this program.
    """
    current = schema_version_of(connection)
    if current > SCHEMA_VERSION:
        raise ArchiveError(
            f"the archive has schema version {current}, newer than this program's {SCHEMA_VERSION}: "
            "upgrade manillen-replay to open it"
        )
    applied = []
    for migration in MIGRATIONS:
        if migration.version <= current or (upto is not None and migration.version > upto):
            continue
        connection.execute("BEGIN TRANSACTION")
        try:
            connection.execute(
                "CREATE TABLE IF NOT EXISTS schema_version "
                "(version INTEGER PRIMARY KEY, description VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL)"
            )
            connection.execute(migration.sql)
            connection.execute(
                "INSERT INTO schema_version VALUES (?, ?, current_localtimestamp())",
                [migration.version, migration.description],
            )
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        applied.append(migration.version)
    return applied


# --------------------------------------------------------------------------- import results


@dataclass
class ImportSummary:
    """What an import did; filled as it goes, so a caller holding it sees the files committed."""

    imported: int = 0
    """Matches new to the archive."""
    replaced: int = 0
    """Known matches (same id) whose content changed: the old rows were replaced."""
    skipped: int = 0
    """Matches already in the archive with the same content."""
    refused: int = 0
    """Invalid records, kept in the ``rejects`` table."""
    deals: int = 0
    """Deals loaded (of imported and replaced matches)."""
    files: int = 0
    """Files whose transaction was committed."""
    rejects: list[RecordError] = field(default_factory=list)
    """Every problem of every refused record, with its place."""

    @property
    def matches(self) -> int:
        """Every match handled, refused or not."""
        return self.imported + self.replaced + self.skipped + self.refused

    def add(self, other: ImportSummary) -> None:
        """Count another (committed) part of the import in."""
        self.imported += other.imported
        self.replaced += other.replaced
        self.skipped += other.skipped
        self.refused += other.refused
        self.deals += other.deals
        self.files += other.files
        self.rejects.extend(other.rejects)


@dataclass
class _Pending:
    """A decoded record waiting for the batch to be loaded."""

    entry: Entry
    record: Record
    match_id: str
    canonical: str
    """The record in canonical form (what the content hash is of)."""
    content_hash: str


@dataclass
class _FileState:
    """What one file's import carries from batch to batch inside its transaction."""

    order: int
    """The next ``matches.import_order``."""
    annotation_id: int
    """The next ``annotations.annotation_id``."""
    columns: dict[str, list[str]]
    """The columns of each table the import writes, in the table's order."""
    loaded: dict[str, str] = field(default_factory=dict)
    """Content hash of each match loaded in this transaction (not yet visible to other readers)."""


class _Loader:
    """The one thread that writes a file's batches through the import connection.

    DuckDB lets go of the GIL while it runs a statement, so loading batch N here while the
    main thread decodes, replays and builds batch N+1 keeps both cores busy (the import lowers
    Python's switch interval so that the loader gets the GIL back quickly: see
    :meth:`Store._import_settings`). The queue holds at most ``depth`` batches besides the one
    being loaded, so memory stays bounded. Nothing else may use the connection until
    :meth:`finish` or :meth:`cancel` has returned.
    """

    def __init__(self, load: Callable[[list[tuple[str, Any]], list[str]], None], depth: int = 1) -> None:
        self._load = load
        self._work: queue.Queue[tuple[list[tuple[str, Any]], list[str]] | None] = queue.Queue(maxsize=depth)
        self._error: BaseException | None = None
        self._cancelled = False
        self._thread = threading.Thread(target=self._run, name="manillen-import-loader", daemon=True)
        self._thread.start()

    @property
    def cancelled(self) -> bool:
        """Whether :meth:`cancel` was called: the batch under way stops at its next statement."""
        return self._cancelled

    def _run(self) -> None:
        while (work := self._work.get()) is not None:
            # After a failure or a cancel the rest is only drained, so a waiting put returns.
            if self._error is None and not self._cancelled:
                try:
                    self._load(*work)
                except BaseException as error:  # handed to the main thread as it is
                    self._error = error
            del work  # let go of the batch's Arrow tables before waiting for the next

    def submit(self, loads: list[tuple[str, Any]], replaced: list[str]) -> None:
        """Queue a batch (see :meth:`Store._load`); waits while the queue is full.

        :raises Exception: what loading an earlier batch raised (a ``duckdb.Error``, ...).
        """
        self._raise_failure()
        self._work.put((loads, replaced))

    def finish(self) -> None:
        """Wait until every queued batch is loaded.

        :raises Exception: what loading any batch raised.
        """
        self._work.put(None)
        self._thread.join()
        self._raise_failure()

    def cancel(self) -> None:
        """Drop the batches not started and wait for the one under way to stop at its next
        statement; the connection is then free for the ROLLBACK.

        A second Ctrl-C meanwhile does not cut the wait short: a ROLLBACK while the loader
        still writes would leave its later statements outside the transaction.
        """
        self._cancelled = True
        stop_sent = False
        while self._thread.is_alive():
            try:
                if not stop_sent:
                    self._work.put(None)
                    stop_sent = True
                self._thread.join()
            except KeyboardInterrupt:
                continue

    def _raise_failure(self) -> None:
        if self._error is not None:
            raise self._error


@contextlib.contextmanager
def _automatic_gc_paused() -> Iterator[None]:
    """Pause Python's automatic cyclic garbage collection for a bulk import.

    A batch keeps thousands of replay objects alive; every automatic full collection scans them
    all again, which cost about a fifth of the import time. The import collects the young
    generations itself after each batch instead, so memory stays flat.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _committed_hashes(reader: duckdb.DuckDBPyConnection, ids: list[str]) -> dict[str, str]:
    """The content hash of each of these matches already committed to the archive."""
    if not ids:
        return {}
    rows = reader.execute(
        "SELECT match_id, content_hash FROM matches WHERE match_id IN (SELECT unnest(?::VARCHAR[]))", [ids]
    ).fetchall()
    return {row[0]: row[1] for row in rows}


@dataclass
class _Columns:
    """Rows of one table being built for a batch; they become Arrow columns at the end."""

    names: tuple[str, ...]
    types: dict[str, Any] = field(default_factory=dict)
    rows: list[tuple[Any, ...]] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.rows)

    def add(self, *values: Any) -> None:
        # A tuple per row, turned into columns once per batch: far cheaper than a list per column.
        self.rows.append(values)

    def column(self, name: str) -> list[Any]:
        """The values of one column, in row order."""
        index = self.names.index(name)
        return [row[index] for row in self.rows]

    def table(self) -> Any:
        """The columns as an Arrow table; types not given are inferred from the values."""
        columns: list[Any] = list(zip(*self.rows, strict=True)) or [()] * len(self.names)
        if len(columns) != len(self.names):
            raise ValueError(f"rows of {len(columns)} values for the {len(self.names)} columns {self.names}")
        return pa.table(
            {
                name: _arrow_array(values, self.types.get(name))
                for name, values in zip(self.names, columns, strict=True)
            }
        )


def _arrow_array(values: Sequence[Any], kind: Any) -> Any:
    """An Arrow array of the values; small ints go through ``bytes``, which converts them a
    hundred times faster than pyarrow does one by one."""
    if kind == _U8:
        return pa.Array.from_buffers(_U8, len(values), [None, pa.py_buffer(bytes(values))])
    return pa.array(values, type=kind)


_U8, _I32, _I64, _STR = pa.uint8(), pa.int32(), pa.int64(), pa.string()
_STRINGS = pa.list_(_STR)
_TIME = pa.timestamp("us")

# Texts the per-card columns take, as Arrow dictionaries: a card column is then its card
# numbers (indices into these), which costs neither Python nor SQL a look-up per card.
_CARD_TEXTS = pa.array(CARD_TEXT, _STR)
_SUIT_TEXTS = pa.array([suit.name for suit in Suit], _STR)
_RANK_TEXTS = pa.array([rank.text for rank in Rank], _STR)
_CLAUSE_TEXTS = pa.array([clause.value for clause in _CLAUSES], _STR)
_POINTS_OF_CARD = np.array(CARD_POINTS, np.int32)
_NO_SEAT = 255
"""Stands for "no one" among seats kept as bytes (a trick's winner before it is complete)."""
_NO_SUIT = 255
"""Stands for "no trump" among suits kept as bytes."""


def _small(values: list[int]) -> Any:
    """Small non-negative ints (cards, seats, counts) as a numpy array, by way of ``bytes``."""
    return np.frombuffer(bytes(values), np.uint8)


def _wide(values: list[int]) -> Any:
    """Ints of up to 64 bits (card masks) as a numpy array."""
    return np.fromiter(values, np.int64, len(values))


def _starts(counts: Any) -> Any:
    """Where each group's rows begin among the flat rows: 0, then the running total before it."""
    starts = np.zeros(len(counts), np.int64)
    np.cumsum(counts[:-1], out=starts[1:])
    return starts


def _texts(indices: Any, dictionary: Any, missing: Any = None) -> Any:
    """A text column as an Arrow dictionary: ``dictionary[indices]``, null where ``missing``."""
    mask = None if missing is None or not missing.any() else missing
    return pa.DictionaryArray.from_arrays(pa.array(indices.astype(np.int32), mask=mask), dictionary)


class _DealRows:
    """The seats, hands, tricks and plays of a batch's deals, kept flat.

    Python only gathers each deal's numbers (a few list appends per trick); numpy spreads the
    per-deal values over the rows and Arrow dictionaries give the texts, so building the
    largest tables costs no Python work per card and no SQL look-ups.
    """

    def __init__(self) -> None:
        # Per deal.
        self.match: list[int] = []
        """The row of the deal's match in the batch's ``matches``."""
        self.number: list[int] = []
        self.trump: list[int] = []
        """The trump suit, or :data:`_NO_SUIT`."""
        self.trick_size: list[int] = []
        self.seated: list[int] = []
        """The seats taken by people; the seats after them are dummies."""
        self.seat_count: list[int] = []
        self.hand_count: list[int] = []
        self.trick_count: list[int] = []
        # Per seat of each deal.
        self.names: list[str] = []
        """Who played the seat (the dealer plays the dummy)."""
        self.teams: list[int] = []
        self.masks: list[int] = []
        """The hand dealt to the seat, when the record has the hands."""
        # Per trick, and per play.
        self.trick_sizes: list[int] = []
        self.seats: list[int] = []
        self.cards: list[int] = []
        self.legal: list[int] = []
        self.clauses: list[Clause] = []
        self.winning: list[int] = []
        self.violations: list[tuple[int, int, str]] = []
        """``(deal's row, play index in the deal, kind)`` of each illegal play."""

    def add(
        self,
        match: int,
        deal: DealResult,
        trick_size: int,
        names: list[str],
        teams: list[int],
        seated: int,
    ) -> None:
        """One deal's rows."""
        row = len(self.number)
        self.match.append(match)
        self.number.append(deal.number)
        self.trump.append(_NO_SUIT if deal.trump is None else deal.trump)
        self.trick_size.append(trick_size)
        self.seated.append(seated)
        self.seat_count.append(len(names))
        self.names += names
        self.teams += teams
        hands = deal.hands or ()
        self.hand_count.append(len(hands))
        self.masks += hands
        tricks = deal.tricks
        self.trick_count.append(len(tricks))
        sizes, seats, cards, legal, clauses, winning = (
            self.trick_sizes, self.seats, self.cards, self.legal, self.clauses, self.winning
        )  # fmt: skip
        for trick in tricks:
            sizes.append(len(trick.cards))
            seats += trick.seats
            cards += trick.cards
            legal += trick.legal
            clauses += trick.clauses
            winning += trick.winning
        for violation in deal.violations:
            self.violations.append(
                (row, (violation.trick - 1) * trick_size + violation.play - 1, violation.kind.value)
            )

    def tables(self, match_ids: list[str]) -> dict[str, Any]:
        """``deal_seats``, ``hands``, ``tricks`` and ``plays`` as Arrow tables."""
        deals = len(self.number)
        ids = pa.array(match_ids, _STR)
        match = np.array(self.match, np.int32)
        number = np.array(self.number, np.int32)
        trump = _small(self.trump)
        trick_size = _small(self.trick_size).astype(np.int64)
        names = pa.array(self.names, _STR)
        teams = _small(self.teams)
        seat_count = _small(self.seat_count)
        first_name = _starts(seat_count)

        def spread(counts: Any) -> tuple[Any, Any]:
            """For rows grouped by deal: each row's deal, and its place within the deal."""
            of_deal = np.repeat(np.arange(deals), counts)
            return of_deal, np.arange(len(of_deal)) - _starts(counts)[of_deal]

        tables = {}
        seat_deal, seat = spread(seat_count)
        tables["deal_seats"] = pa.table(
            {
                "match_id": _texts(match[seat_deal], ids),
                "deal": number[seat_deal],
                "seat": seat.astype(np.int32),
                "player": names,
                "team": teams,
                "is_dummy": seat >= _small(self.seated)[seat_deal],
            }
        )
        hand_deal, hand_seat = spread(_small(self.hand_count))
        masks = _wide(self.masks)
        held = ((masks[:, None] >> np.arange(len(CARD_TEXT))) & 1).astype(np.int32)
        hand_trump = trump[hand_deal]
        no_trump = hand_trump == _NO_SUIT
        per_suit = held.reshape(len(masks), len(Suit), _RANKS_PER_SUIT).sum(axis=2)
        tables["hands"] = pa.table(
            {
                "match_id": _texts(match[hand_deal], ids),
                "deal": number[hand_deal],
                "seat": hand_seat.astype(np.int32),
                "player": _texts(first_name[hand_deal] + hand_seat, names),
                "points": held @ _POINTS_OF_CARD,
                "trumps": pa.array(
                    per_suit[np.arange(len(masks)), np.where(no_trump, 0, hand_trump)], mask=no_trump
                ),
                "mask": masks,
            }
        )
        trick_deal, trick_index = spread(_small(self.trick_count))
        sizes = _small(self.trick_sizes).astype(np.int64)
        play_trick = np.repeat(np.arange(len(sizes)), sizes)
        trick_first = _starts(sizes)
        position = np.arange(len(play_trick)) - trick_first[play_trick]
        play_deal = trick_deal[play_trick]
        seats = _small(self.seats)
        cards = _small(self.cards)
        legal = _wide(self.legal)
        winning = _small(self.winning)
        name_of_play = first_name[play_deal] + seats
        suit = cards // _RANKS_PER_SUIT
        codes = np.frombuffer(bytes(map(_CLAUSE_CODE_BY_ID.__getitem__, map(id, self.clauses))), np.uint8)
        kinds = sorted({kind for _, _, kind in self.violations})
        violation = np.zeros(len(cards), np.int32)
        lawful = np.ones(len(cards), bool)
        if self.violations:
            play_first = _starts(np.bincount(play_deal, minlength=deals))
            for row, index, kind in self.violations:
                violation[play_first[row] + index] = kinds.index(kind)
                lawful[play_first[row] + index] = False
        tables["plays"] = pa.table(
            {
                "match_id": _texts(match[play_deal], ids),
                "deal": number[play_deal],
                "trick": (trick_index[play_trick] + 1).astype(np.int32),
                "position": (position + 1).astype(np.int32),
                "play": (trick_index[play_trick] * trick_size[play_deal] + position + 1).astype(np.int32),
                "seat": seats,
                "player": _texts(name_of_play, names),
                "team": teams[name_of_play],
                "card": _texts(cards, _CARD_TEXTS),
                "suit": _texts(suit, _SUIT_TEXTS),
                "rank": _texts(cards % _RANKS_PER_SUIT, _RANK_TEXTS),
                "points": _POINTS_OF_CARD[cards],
                "is_trump": suit == trump[play_deal],
                "legal": ((legal >> cards) & 1).astype(bool),
                "violation": _texts(violation, pa.array(kinds, _STR), missing=lawful),
                "winning_seat": winning,
                "clause": _texts(codes, _CLAUSE_TEXTS),
                "legal_mask": legal,
            }
        )
        # A trick's rows come from its plays: the first card's seat led, the seat winning after
        # the last card took it (once complete), the points are its cards'.
        played = sizes > 0
        first_play = trick_first[played]
        last_play = first_play + sizes[played] - 1
        owner = trick_deal[played]
        complete = sizes[played] == trick_size[owner]
        winner = np.where(complete, winning[last_play], _NO_SEAT)
        leader = seats[first_play]
        winner_name = first_name[owner] + np.where(complete, winner, 0)
        tables["tricks"] = pa.table(
            {
                "match_id": _texts(match[owner], ids),
                "deal": number[owner],
                "trick": (trick_index[played] + 1).astype(np.int32),
                "leader": leader,
                "leader_player": _texts(first_name[owner] + leader, names),
                "led_suit": _texts(suit[first_play], _SUIT_TEXTS),
                "cards": sizes[played].astype(np.int32),
                "winner": pa.array(winner, mask=~complete),
                "winner_player": _texts(winner_name, names, missing=~complete),
                "winner_team": pa.array(teams[winner_name], mask=~complete),
                "points": np.add.reduceat(_POINTS_OF_CARD[cards], first_play)
                if len(first_play)
                else np.zeros(0, np.int32),
            }
        )
        return tables


class _Batch:
    """Rows of up to :attr:`Store.BATCH_SIZE` matches, turned into Arrow tables and loaded together.

    The per-match and per-deal tables are built row by row; the seats, hands, tricks and plays
    of each deal go to :class:`_DealRows`, which builds them from flat numbers.
    """

    def __init__(self) -> None:
        self.pending: dict[str, _Pending] = {}
        self.rows = _DealRows()
        self.rejected = 0
        self.rejects = _Columns(
            ("source", "line", "pointer", "message", "problems", "raw", "rejected_at"),
            {"line": _I32, "problems": _STRINGS, "rejected_at": _TIME},
        )
        self.matches = _Columns(
            ("match_id", "import_order", "source", "line", "date", "venue", "event", "notes", "variant",
             "players", "seat0", "seat1", "seat2", "seat3", "seat4", "seat5", "rules", "format", "target",
             "deals", "score_0", "score_1", "score_2", "final_score_0", "final_score_1", "final_score_2",
             "winner", "finished", "violations", "irregularities", "record", "content_hash", "imported_at"),
            {"line": _I32, "date": pa.date32(), "venue": _STR, "event": _STR, "notes": _STR, "seat2": _STR,
             "seat3": _STR, "seat4": _STR, "seat5": _STR, "target": _I32, "score_2": _I32,
             "final_score_2": _I32, "winner": _I32, "imported_at": _TIME},
        )  # fmt: skip
        self.seats = _Columns(("match_id", "seat", "player", "team"))
        self.blocks = _Columns(
            ("match_id", "block", "team", "players", "score", "won"), {"block": _I32, "team": _I32}
        )
        self.deals = _Columns(
            ("match_id", "deal", "block", "dealer", "dealer_player", "dealing_team", "kind", "contract",
             "trump", "chooser", "en_face", "knocks", "carried", "multiplier", "tricks", "points_0",
             "points_1", "tie", "score_team", "score_points", "has_recorded", "recorded_team",
             "recorded_points", "score_mismatch", "penalty_0", "penalty_1", "match_score_0",
             "match_score_1", "match_score_2", "counted", "violations", "irregularities"),
            {"block": _I32, "match_score_2": _I32, "contract": _STR, "trump": _STR, "chooser": _I32,
             "multiplier": _I32, "points_0": _I32, "points_1": _I32, "score_team": _I32,
             "score_points": _I32, "recorded_team": _I32, "recorded_points": _I32,
             "irregularities": _STRINGS},
        )  # fmt: skip
        self.declarations = _Columns(
            ("match_id", "deal", "position", "seat", "player", "call", "suit"), {"suit": _STR}
        )
        self.annotations = _Columns(
            ("annotation_id", "match_id", "deal", "trick", "play", "author", "text", "tags",
             "created_at", "updated_at"),
            {"annotation_id": _I64, "trick": _I32, "play": _I32, "tags": _STRINGS, "created_at": _TIME,
             "updated_at": _TIME},
        )  # fmt: skip

    def reject(self, entry: Entry, problems: list[RecordError], counts: ImportSummary) -> None:
        """Keep a refused record, with every problem, for the ``rejects`` table."""
        located = [p if p.source is not None else p.located(entry.source, entry.line) for p in problems]
        if not located:
            located = [RecordError("invalid record", "", entry.source, entry.line)]
        counts.refused += 1
        counts.rejects.extend(located)
        self.rejected += 1
        more = f" (and {len(located) - 1} more problems)" if len(located) > 1 else ""
        self.rejects.add(
            entry.source, entry.line, located[0].pointer, located[0].message + more,
            [f"{p.pointer}: {p.message}" if p.pointer else p.message for p in located],
            entry.data.decode("utf-8", errors="replace").rstrip("\r\n"), datetime.datetime.now(),
        )  # fmt: skip

    def add_match(
        self,
        item: _Pending,
        result: MatchResult,
        order: int,
        annotation_ids: Iterator[int],
        now: datetime.datetime,
    ) -> int:
        """Add one replayed match's rows; returns its number of deals."""
        record, mid = item.record, item.match_id
        info = record.match
        people = result.seats
        rules = result.rules
        shape = rules.shape
        violations = sum(len(d.violations) for d in result.deals)
        irregularities = sum(len(d.irregularities) for d in result.deals)
        stored = _strip_annotations(record, item.canonical, mid, self.annotations, annotation_ids, now)
        score, final = _three(result.score), _three(result.final_score)
        self.matches.add(
            mid, order, item.entry.source, item.entry.line,
            _unset(info.date), _unset(info.venue), _unset(info.event), _unset(info.notes),
            rules.variant, len(people), *(people + [None] * 6)[:6],
            msgspec.json.encode(_unset(info.rules) or {}).decode(), rules.format, rules.target,
            len(result.deals), *score, *final, result.winner, result.finished, violations, irregularities,
            stored, item.content_hash, now,
        )  # fmt: skip
        for seat, name in enumerate(people):
            # The sides of the three-player games depend on the dealer; the match's own
            # seats table gives the side when seat 0 deals.
            self.seats.add(mid, seat, name, shape.team_of(seat, 0))
        for played in result.blocks:
            for team in (0, 1):
                self.blocks.add(
                    mid, played.number, team, played.seats[team::2], played.score[team], played.winner == team
                )
        blocks = [] if _unset(info.blocks) is None else info.blocks
        counted = 0
        for deal in result.deals:
            block = counted // rules.deals if blocks else None
            seating = blocks[block] if blocks and block is not None and block < len(blocks) else people
            self._add_deal(mid, record, deal, block, seating, result)
            counted += deal.kind in _SCORED_KINDS
        return len(result.deals)

    def _add_deal(
        self,
        mid: str,
        record: Record,
        deal: DealResult,
        block: int | None,
        seating: list[str],
        result: MatchResult,
    ) -> None:
        shape = result.rules.shape
        number = deal.number
        dealer = deal.dealer
        # Seats beyond the people (the dummy of three_dummy) are played by the dealer.
        names = [seating[s] if s < len(seating) else seating[dealer] for s in range(shape.players)]
        teams = [shape.team_of(seat, dealer) for seat in range(len(names))]
        self.rows.add(len(self.matches) - 1, deal, shape.trick_size, names, teams, len(seating))
        penalty = [0, 0]
        for team, points, _reason in deal.penalties:
            penalty[team] += points
        score, recorded, taken = deal.score, deal.recorded, deal.points
        self.deals.add(
            mid, number, None if block is None else block + 1, dealer, names[dealer],
            shape.team_of(dealer, dealer), deal.kind.value,
            None if deal.contract is None else deal.contract.value,
            None if deal.trump is None else deal.trump.name,
            deal.chooser, deal.en_face, deal.knocks, deal.carried, deal.multiplier, len(deal.tricks),
            None if taken is None else taken[0], None if taken is None else taken[1],
            deal.tie, None if score is None else score.team, None if score is None else score.points,
            deal.has_recorded, None if recorded is None else recorded.team,
            None if recorded is None else recorded.points, deal.score_mismatch, penalty[0], penalty[1],
            *_three(deal.match_score), deal.counted, len(deal.violations),
            [irregularity.kind.value for irregularity in deal.irregularities],
        )  # fmt: skip
        calls = record.deals[number - 1].declarations
        if calls is not msgspec.UNSET:
            for position, call in enumerate(calls, start=1):
                self.declarations.add(
                    mid, number, position, call.seat, names[call.seat], call.call, _unset(call.suit)
                )

    def tables(self) -> dict[str, Any]:
        """The batch as Arrow tables, by table name."""
        tables = {
            name: getattr(self, name).table()
            for name in ("matches", "seats", "deals", "declarations", "annotations", "blocks", "rejects")
        }
        tables.update(self.rows.tables(self.matches.column("match_id")))
        return tables


_SCORED_KINDS = (DealKind.PLAYED, DealKind.SCORESHEET)


def _three(scores: Sequence[int]) -> tuple[int | None, ...]:
    """Two team scores, or three personal ones (the three-player games), as three columns."""
    return (*scores[:3], *([None] * (3 - len(scores[:3]))))


def _unset(value: Any) -> Any:
    return None if value is msgspec.UNSET else value


def _strip_annotations(
    record: Record, canonical: str, mid: str, rows: _Columns, ids: Iterator[int], now: datetime.datetime
) -> str:
    """The canonical record without its annotations, which go to the annotations table.

    An explicit empty list stays in the record so that exporting gives back the same bytes.

    :param canonical: the whole record in canonical form: the answer when it has no annotations.
    """
    moved: list[tuple[int, list[Annotation]]] = []
    for number, deal in enumerate(record.deals, start=1):
        notes = deal.annotations
        if notes is msgspec.UNSET or not notes:
            continue
        for note in notes:
            rows.add(
                next(ids), mid, number, _unset(note.trick), _unset(note.play), note.author, note.text,
                _unset(note.tags), now, now,
            )  # fmt: skip
        moved.append((number, notes))
        deal.annotations = msgspec.UNSET
    if not moved:
        return canonical
    text = dumps(record, pretty=False)
    for number, notes in moved:
        record.deals[number - 1].annotations = notes
    return text


_LOAD_ORDER: tuple[tuple[str, str], ...] = (
    ("matches", "matches"),
    ("seats", "seats"),
    ("deal_seats", "deal_seats"),
    ("deals", "deals"),
    ("declarations", "declarations"),
    ("hands", "hand_rows"),
    ("plays", "play_rows"),
    ("tricks", "tricks"),
    ("annotations", "annotations"),
    ("blocks", "blocks"),
    ("rejects", "rejects"),
)
"""Each Arrow table of a batch and the archive table it goes into, in loading order.

The batch's tables arrive complete, with the archive table's columns in its order, and go in
with ``insert_into``: of the ways into DuckDB, the one that needs the GIL least often, which the
loader thread waits for at every turn (see :meth:`Store._import_settings`).
"""


def _arranged(table: Any, columns: list[str]) -> Any:
    """The table's columns in the archive table's order; columns it lacks (added by a later
    migration, such as ``matches.analysed_at``) are null.

    :raises ValueError: for a column the archive table does not have (a bug, not bad input).
    """
    given = set(table.column_names)
    strays = sorted(given - set(columns))
    if strays:
        raise ValueError(f"batch columns {strays} are not in the table's columns {columns}")
    rows = table.num_rows
    return pa.table([table[name] if name in given else pa.nulls(rows) for name in columns], names=columns)


# --------------------------------------------------------------------------- the store


_LOCK_PATTERN = re.compile(r"Conflicting lock is held in (?P<program>.*?) \(PID (?P<pid>\d+)\)")


def _describe_process(pid: int, program: str) -> str:
    """What a process is, for a person: its command line when the system tells us."""
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return f"{program} (process {pid})"
    words = [part.decode(errors="replace") for part in raw.split(b"\0") if part]
    if not words:
        return f"{program} (process {pid})"
    command = " ".join(Path(words[0]).name if i == 0 else w for i, w in enumerate(words))
    if len(command) > 120:
        command = command[:117] + "..."
    return f"process {pid} ({command})"


def _locked_message(path: str, detail: str) -> str:
    match = _LOCK_PATTERN.search(detail)
    holder = _describe_process(int(match["pid"]), match["program"]) if match else "another program"
    return (
        f"the archive {path!r} is in use by {holder}; DuckDB lets one program write to an archive at a time. "
        "Close the dashboard or wait for the other import to finish, then try again"
    )


IMPORT_MEMORY_LIMIT = "64MB"
"""DuckDB's memory limit while importing into an archive file (``manillen import --memory-limit``).

Past it, the rows of the file being imported wait for the commit in temporary files beside the
archive, so memory stays flat however large the file; a higher limit was hardly faster.
"""

_IMPORT_SWITCH_INTERVAL = 0.0005
"""Python's thread switch interval (seconds) while importing: see :meth:`Store._import_settings`."""

MINIMUM_MEMORY_LIMIT = 32_000_000
"""The smallest import memory limit taken, in bytes: with half of it, committing a file of
100,000 deals ran out of memory."""

_SIZE = re.compile(r"(?P<number>\d+(?:\.\d+)?)\s*(?P<unit>[kmgt]i?b|b)", re.IGNORECASE)
_UNIT_BYTES = {"b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12}
_UNIT_BYTES.update({"kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40})


def parse_memory_limit(text: str) -> int:
    """A memory size in bytes: a number and a unit, as DuckDB writes them (``MB`` is 1000 ** 2,
    ``MiB`` 1024 ** 2).

    >>> parse_memory_limit("128MB")
    128000000
    >>> parse_memory_limit("1.5 GiB")
    1610612736

    :raises ManillenError: for text that is not a size, or a size under
        :data:`MINIMUM_MEMORY_LIMIT`.
    """
    found = _SIZE.fullmatch(text.strip())
    if found is None:
        raise ManillenError(f"{text!r} is not a memory size: write a number and a unit, such as 256MB or 1GB")
    size = int(float(found["number"]) * _UNIT_BYTES[found["unit"].lower()])
    if size < MINIMUM_MEMORY_LIMIT:
        raise ManillenError(
            f"a memory limit of {text.strip()!r} is too small to import: give at least "
            f"{MINIMUM_MEMORY_LIMIT // 10**6}MB"
        )
    return size


class Store:
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
        self._sandboxed = False
        self._loader: _Loader | None = None
        """The thread writing the current import's batches, while a file is being imported."""
        in_memory = self.path == ":memory:"
        if read_only and not in_memory and not Path(self.path).exists():
            raise ArchiveError(
                f"no archive at {self.path!r}: create one with `manillen import FILE --db {self.path}`"
            )
        try:
            self._con = duckdb.connect(self.path, read_only=read_only and not in_memory)
        except duckdb.IOException as error:
            if "lock" in str(error).lower():
                raise ArchiveLockedError(_locked_message(self.path, str(error))) from None
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

    def _prepare(self) -> None:
        version = schema_version_of(self._con)
        if version > SCHEMA_VERSION:
            raise ArchiveError(
                f"the archive {self.path!r} has schema version {version}, newer than this program's "
                f"{SCHEMA_VERSION}: upgrade manillen-replay to open it"
            )
        if version < SCHEMA_VERSION:
            if self.read_only:
                if version == 0:
                    raise ArchiveError(f"{self.path!r} is not a manillen archive (no schema_version table)")
                raise ArchiveError(
                    f"the archive {self.path!r} has schema version {version}, this program needs "
                    f"{SCHEMA_VERSION}: upgrade it with `manillen import --db {self.path}` (no files needed)"
                )
            try:
                apply_migrations(self._con)
            except duckdb.Error as error:
                raise ArchiveError(
                    f"cannot upgrade the archive {self.path!r}: {_duckdb_message(error)}"
                ) from None

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

    # ----------------------------------------------------------------- import

    def import_paths(
        self,
        paths: Iterable[str | Path],
        on_progress: Callable[[int], None] | None = None,
        *,
        summary: ImportSummary | None = None,
        memory_limit: str | None = IMPORT_MEMORY_LIMIT,
    ) -> ImportSummary:
        """Import every record in ``.json`` files, ``.jsonl`` archives and folders of them.

        :param on_progress: called after each batch with the number of records it handled.
        :param summary: see :meth:`import_entries`.
        :param memory_limit: see :meth:`import_entries`.
        :raises FileNotFoundError: for a path that does not exist (files before it are committed).
        :raises ArchiveError: when the archive cannot be written (that file is rolled back).
        :raises ManillenError: for a memory limit that is not a size (before anything is read).
        """
        return self.import_entries(
            iter_entries(paths), on_progress=on_progress, summary=summary, memory_limit=memory_limit
        )

    def import_entries(
        self,
        entries: Iterable[Entry],
        *,
        on_progress: Callable[[int], None] | None = None,
        summary: ImportSummary | None = None,
        memory_limit: str | None = IMPORT_MEMORY_LIMIT,
    ) -> ImportSummary:
        """Import records: one transaction per source file, loaded in Arrow batches.

        A record already present with the same content is skipped; one whose id is known but
        whose content changed replaces the old rows; an invalid one goes to ``rejects``.

        :param entries: documents, as :func:`manillen_replay.record.iter_entries` yields them.
        :param on_progress: called after each batch with the number of records it handled.
        :param summary: counts of the files committed so far are added to it as the import goes
            (pass one to see what was kept when the import is interrupted); new when omitted.
        :param memory_limit: how much memory DuckDB may hold while importing into an archive
            file (see :func:`parse_memory_limit`) before it moves data it is writing to temporary
            files beside the archive; ``None`` leaves DuckDB's own limit (most of the machine's
            memory). An in-memory archive has no limit: its data cannot go anywhere else.
        :raises ArchiveError: when the archive cannot be written; the current file is rolled back.
        :raises ManillenError: for a memory limit that is not a size (before anything is read).
        :raises KeyboardInterrupt: re-raised after the current file is rolled back.
        """
        self._check_writable()
        limit = None if memory_limit is None else parse_memory_limit(memory_limit)
        summary = summary if summary is not None else ImportSummary()
        with contextlib.ExitStack() as stack:
            try:
                stack.enter_context(self._import_settings(limit))
                columns = self._load_columns()
                reader = stack.enter_context(contextlib.closing(self._con.cursor()))
            except duckdb.Error as error:
                raise ArchiveError(
                    f"could not start importing into the archive {self.path!r}: {_import_failure(error)}"
                ) from None
            except OSError as error:
                raise ArchiveError(
                    f"could not make the folder for the import's temporary files beside {self.path!r}: "
                    f"{error.strerror or error}"
                ) from None
            stack.enter_context(_automatic_gc_paused())
            for source, group in itertools.groupby(entries, key=lambda entry: entry.source):
                self._import_file(source, group, columns, reader, summary, on_progress)
            self._checkpoint()
        return summary

    def _load_columns(self) -> dict[str, list[str]]:
        """The columns of each table an import writes, in the table's order."""
        rows = self._con.execute(
            "SELECT table_name, list(column_name ORDER BY column_index) FROM duckdb_columns() "
            "WHERE schema_name = 'main' AND table_name IN (SELECT unnest(?::VARCHAR[])) GROUP BY table_name",
            [[target for _, target in _LOAD_ORDER]],
        ).fetchall()
        return {table: list(names) for table, names in rows}

    def _checkpoint(self) -> None:
        """Write what the import committed into the archive file now, under the import's memory
        limit; left to closing the archive, this checkpoint took memory in proportion to the
        import. Failing here loses nothing: the commits stand, and closing checkpoints again."""
        if self.path == ":memory:" or self._sandboxed:
            return
        try:
            self._con.execute("CHECKPOINT")
        except duckdb.Error:
            pass
        except RuntimeError as error:
            if _interrupted(error):
                raise KeyboardInterrupt from None
            raise

    @contextlib.contextmanager
    def _import_settings(self, memory_limit: int | None) -> Iterator[None]:
        """DuckDB and the interpreter set up for an import; put back afterwards, so the Store's
        queries are not held to them.

        DuckDB runs on one thread: the other core builds the next batch. Under ``memory_limit``
        (bytes) DuckDB writes the rows a file's transaction holds until its commit to its
        temporary folder instead of keeping them all, so memory stays flat as files grow; an
        in-memory archive has nowhere else to put them and gets no limit. The loader thread needs
        the GIL for a moment between long stretches inside DuckDB, many times a batch; with
        Python's default switch interval (5 ms) each such moment waits out the main thread's
        slice, which made the loader slower than loading on the main thread.
        """
        settings: dict[str, str] = {}
        spill = None
        if not self._sandboxed:  # user queries locked DuckDB's configuration: import as it is
            settings["threads"] = "1"
            if memory_limit is not None and self.path != ":memory:":
                settings["memory_limit"] = f"'{memory_limit}B'"
                spill = _spill_folder(self.path)
                settings["temp_directory"] = _sql_text(str(spill))
        interval = sys.getswitchinterval()
        changed: list[str] = []
        try:
            for name, value in settings.items():
                self._con.execute(f"SET {name} = {value}")
                changed.append(name)
            sys.setswitchinterval(_IMPORT_SWITCH_INTERVAL)
            yield
        finally:
            sys.setswitchinterval(interval)
            for name in changed:
                # one failed reset (a connection DuckDB gave up on) must not hide why the import ended
                with contextlib.suppress(duckdb.Error, RuntimeError):
                    self._con.execute(f"RESET {name}")
            if spill is not None:
                shutil.rmtree(spill, ignore_errors=True)
                with contextlib.suppress(OSError):
                    spill.parent.rmdir()  # only when no other import's folder is left in it

    def _import_file(
        self,
        source: str,
        entries: Iterable[Entry],
        columns: dict[str, list[str]],
        reader: duckdb.DuckDBPyConnection,
        summary: ImportSummary,
        on_progress: Callable[[int], None] | None,
    ) -> None:
        """One file in one transaction; its counts join ``summary`` only once it is committed."""
        counts = ImportSummary()
        loader: _Loader | None = None
        committing = False
        state = _FileState(order=0, annotation_id=0, columns=columns)
        try:
            self._con.execute("BEGIN TRANSACTION")
            # The rejects of a file describe its latest import only.
            self._con.execute("DELETE FROM rejects WHERE source = ?", [source])
            state = _FileState(
                order=self._next_value("matches", "import_order"),
                annotation_id=self._next_value("annotations", "annotation_id"),
                columns=columns,
            )
            # From here until loader.finish() only the loader thread uses self._con.
            loader = self._loader = _Loader(self._load)
            batch = _Batch()
            for entry in entries:
                item = self._decode(entry, batch, counts)
                if item is None:
                    continue
                if item.match_id in batch.pending or len(batch.pending) >= self.BATCH_SIZE:
                    # A full batch, or the same id twice: send what is pending first, so the
                    # second copy is compared with the first (skipped, or replacing it).
                    self._flush(batch, state, reader, counts, loader, on_progress)
                    batch = _Batch()
                batch.pending[item.match_id] = item
            self._flush(batch, state, reader, counts, loader, on_progress)
            loader.finish()
            committing = True
            self._con.execute("COMMIT")
        except BaseException as error:
            if loader is not None:
                loader.cancel()
            # A COMMIT that failed (out of memory, a full disk) has already ended the transaction,
            # a BEGIN that failed has not started one, and a connection DuckDB gave up on (a
            # failed checkpoint) refuses everything: in each case there is nothing to roll back.
            with contextlib.suppress(duckdb.Error):
                self._con.execute("ROLLBACK")
            interrupted = isinstance(error, KeyboardInterrupt) or _interrupted(error)
            if committing and interrupted and _file_committed(reader, state):
                # Ctrl-C came as the commit ended: the file is in the archive, so count it.
                summary.add(counts)
                summary.files += 1
            if interrupted:
                raise KeyboardInterrupt from None
            if isinstance(error, duckdb.Error):
                raise ArchiveError(
                    f"could not write to the archive {self.path!r} while importing {source!r} "
                    f"(that file was rolled back): {_import_failure(error)}"
                ) from None
            raise
        finally:
            self._loader = None
        summary.add(counts)
        summary.files += 1

    def _decode(self, entry: Entry, batch: _Batch, counts: ImportSummary) -> _Pending | None:
        """One entry decoded and hashed, or ``None`` when it is not a record (then rejected)."""
        try:
            record = loads(entry.data, source=entry.source, line=entry.line)
        except InvalidRecordError as error:
            batch.reject(entry, error.problems, counts)
            return None
        canonical = dumps(record, pretty=False)
        digest = hashlib.sha256(canonical.encode()).hexdigest()
        return _Pending(entry, record, match_id(record), canonical, digest)

    def _flush(
        self,
        batch: _Batch,
        state: _FileState,
        reader: duckdb.DuckDBPyConnection,
        counts: ImportSummary,
        loader: _Loader,
        on_progress: Callable[[int], None] | None,
    ) -> None:
        """Replay the batch's new and changed records and hand their rows to the loader."""
        handled = len(batch.pending) + batch.rejected
        known = _committed_hashes(reader, [mid for mid in batch.pending if mid not in state.loaded])
        known.update((mid, state.loaded[mid]) for mid in batch.pending if mid in state.loaded)
        now = datetime.datetime.now()
        ids = iter(range(state.annotation_id, 1 << 62))
        replaced: list[str] = []
        for mid, item in batch.pending.items():
            old = known.get(mid)
            if old == item.content_hash:
                counts.skipped += 1
                continue
            try:
                result = replay(item.record, source=item.entry.source, line=item.entry.line)
            except InvalidRecordError as error:
                batch.reject(item.entry, error.problems, counts)
                continue
            counts.deals += batch.add_match(item, result, state.order, ids, now)
            state.order += 1
            state.loaded[mid] = item.content_hash
            if old is None:
                counts.imported += 1
            else:
                replaced.append(mid)
                counts.replaced += 1
        state.annotation_id = next(ids)
        if replaced or len(batch.matches) or batch.rejected:
            tables = batch.tables()
            loads = [
                (target, _arranged(tables[name], state.columns[target]))
                for name, target in _LOAD_ORDER
                if tables[name].num_rows
            ]
            loader.submit(loads, replaced)
        batch.pending.clear()
        gc.collect(1)  # automatic collection is paused: free any young cycles, batch by batch
        if on_progress is not None and handled:
            on_progress(handled)

    def _next_value(self, table: str, column: str) -> int:
        row = _first(self._con.execute(f"SELECT coalesce(max({column}), 0) + 1 FROM {table}").fetchall())
        return int(row[0]) if row else 1

    def _load(self, loads: list[tuple[str, Any]], replaced: list[str]) -> None:
        """Load one batch: delete the replaced matches, insert the rows.

        :param loads: each archive table and the Arrow table of its rows, columns in its order.
        """
        con = self._con
        loader = self._loader
        for table in (*_MATCH_TABLES, "matches") if replaced else ():
            if loader is not None and loader.cancelled:
                return
            con.execute(f"DELETE FROM {table} WHERE match_id IN (SELECT unnest(?::VARCHAR[]))", [replaced])
        for target, rows in loads:
            if loader is not None and loader.cancelled:
                return  # the file is being rolled back: stop writing to it
            con.from_arrow(rows).insert_into(target)

    # ----------------------------------------------------------------- queries

    def query(self, sql: str, params: list[Any] | None = None) -> pl.DataFrame:
        """The result of a trusted query (this program's own SQL) as a polars frame.

        :raises QueryError: when DuckDB cannot run it.
        """
        with self._con.cursor() as cursor:
            try:
                return _frame(cursor.sql(sql, params=params or None))
            except duckdb.Error as error:
                raise QueryError(f"query failed: {_duckdb_message(error)}") from None

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

    # ----------------------------------------------------------------- records

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
        if match_ids is not None:
            conditions.append("list_contains(?, match_id)")
            params.append(list(match_ids))
        where = f"WHERE {' AND '.join(conditions)}" if conditions else ""
        cursor = self._con.cursor()
        try:
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
                                     'text': a.text, 'tags': a.tags} ORDER BY a.annotation_id)
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

    # ----------------------------------------------------------------- findings and annotations

    def save_findings(
        self,
        match_ids: list[str],
        findings: pl.DataFrame,
        *,
        detector: str = "builtin",
        depth: str = "heuristic",
    ) -> None:
        """Replace the findings of these matches made by ``detector``, in one transaction.

        With the built-in detectors (``detector="builtin"``) the matches are also marked
        analysed (``matches.analysed_at``, and ``matches.analysis_depth`` set to ``depth``); a
        coach detector does not mark them, so the built-in analysis still finds them unanalysed.

        :param findings: the ``findings`` columns except ``finding_id`` and ``detector``.
        :param depth: how deep the built-in analysis went: one of :data:`ANALYSIS_DEPTHS`.
        :raises ManillenError: for columns the table does not have or values it does not allow,
            or an unknown depth.
        """
        self._check_writable()
        if depth not in ANALYSIS_DEPTHS:
            raise ManillenError(f"unknown analysis depth {depth!r}: use {', '.join(ANALYSIS_DEPTHS)}")
        unknown = sorted(set(findings.columns) - set(self._columns("findings")) - {"finding_id", "detector"})
        if unknown or {"finding_id", "detector"} & set(findings.columns):
            bad = unknown or sorted({"finding_id", "detector"} & set(findings.columns))
            raise ManillenError(f"findings frame has columns the table does not take: {', '.join(bad)}")
        ids = pa.table({"match_id": pa.array(list(match_ids), type=_STR)})
        self._con.execute("BEGIN TRANSACTION")
        self._con.register("_batch_ids", ids)
        self._con.register("_batch_findings", findings.to_arrow())
        try:
            self._con.execute(
                "DELETE FROM findings WHERE detector = ? AND match_id IN (SELECT match_id FROM _batch_ids)",
                [detector],
            )
            if findings.height:
                self._con.execute(
                    """INSERT INTO findings BY NAME
                       SELECT (SELECT coalesce(max(finding_id), 0) FROM findings) + row_number() OVER ()
                                  AS finding_id,
                              *, ?::VARCHAR AS detector
                       FROM _batch_findings""",
                    [detector],
                )
            if detector == "builtin":
                self._con.execute(
                    "UPDATE matches SET analysed_at = current_localtimestamp(), analysis_depth = ? "
                    "WHERE match_id IN (SELECT match_id FROM _batch_ids)",
                    [depth],
                )
            self._con.execute("COMMIT")
        except BaseException as error:
            self._con.execute("ROLLBACK")
            if isinstance(error, duckdb.Error):
                raise ManillenError(f"could not save findings: {_duckdb_message(error)}") from None
            raise
        finally:
            self._con.unregister("_batch_ids")
            self._con.unregister("_batch_findings")

    def save_costs(self, match_ids: list[str], costs: pl.DataFrame, values: pl.DataFrame) -> None:
        """Replace the solver's costs of these matches, in one transaction.

        :param match_ids: the matches whose ``play_costs`` and ``card_values`` rows are replaced
            (a match without rows in the frames loses its old ones).
        :param costs: rows of ``play_costs`` (every column, any order).
        :param values: rows of ``card_values`` (every column, any order).
        :raises ManillenError: for columns the tables do not have or values they do not allow,
            or rows of a match not in ``match_ids``.
        """
        self._check_writable()
        frames = {"play_costs": costs, "card_values": values}
        for table, frame in frames.items():
            columns = self._columns(table)
            unknown = sorted(set(frame.columns) - set(columns))
            missing = sorted(set(columns) - set(frame.columns))
            if unknown or missing:
                detail = "; ".join(
                    part
                    for part in (
                        f"unknown columns {', '.join(unknown)}" if unknown else "",
                        f"missing columns {', '.join(missing)}" if missing else "",
                    )
                    if part
                )
                raise ManillenError(f"{table} frame does not fit the table: {detail}")
            if frame.height:
                strays = set(frame["match_id"].unique().to_list()) - set(match_ids)
                if strays:
                    raise ManillenError(
                        f"{table} frame has rows of matches not being replaced: {', '.join(sorted(strays))}"
                    )
        self._con.execute("BEGIN TRANSACTION")
        try:
            for table in frames:
                self._con.execute(
                    f"DELETE FROM {table} WHERE match_id IN (SELECT unnest(?::VARCHAR[]))", [list(match_ids)]
                )
            for table, frame in frames.items():
                if frame.height:
                    self._con.from_arrow(frame.to_arrow()).query(
                        "_batch", f"INSERT INTO {table} BY NAME SELECT * FROM _batch"
                    )
            self._con.execute("COMMIT")
        except BaseException as error:
            self._con.execute("ROLLBACK")
            if isinstance(error, duckdb.Error):
                raise ManillenError(f"could not save costs: {_duckdb_message(error)}") from None
            raise

    def add_annotation(
        self,
        match_id: str,
        deal: int,
        trick: int | None,
        play: int | None,
        author: str,
        text: str,
        tags: Sequence[str] | None = None,
    ) -> int:
        """Comment on a deal, a trick or one play; returns the new ``annotation_id``.

        :param deal: the deal, counted from 1.
        :param trick: the trick (from 1), or ``None`` for the whole deal.
        :param play: the position in the trick (from 1), or ``None``; needs ``trick``.
        :raises ManillenError: when the match, deal, trick or play does not exist.
        """
        self._check_writable()
        self._check_place(match_id, deal, trick, play)
        if not author.strip() or not text.strip():
            raise ManillenError("an annotation needs an author and a text")
        row = _first(
            self._con.execute(
                """INSERT INTO annotations
               SELECT coalesce(max(annotation_id), 0) + 1, ?, ?, ?, ?, ?, ?, ?,
                      current_localtimestamp(), current_localtimestamp()
               FROM annotations RETURNING annotation_id""",
                [match_id, deal, trick, play, author, text, None if tags is None else list(tags)],
            ).fetchall()
        )
        assert row is not None
        return int(row[0])

    def update_annotation(self, annotation_id: int, text: str, tags: Sequence[str] | None = None) -> None:
        """Change an annotation's text and tags.

        :raises ManillenError: when there is no such annotation.
        """
        self._check_writable()
        row = _first(
            self._con.execute(
                "UPDATE annotations SET text = ?, tags = ?, updated_at = current_localtimestamp() "
                "WHERE annotation_id = ? RETURNING annotation_id",
                [text, None if tags is None else list(tags), annotation_id],
            ).fetchall()
        )
        if row is None:
            raise ManillenError(f"no annotation {annotation_id}")

    def delete_annotation(self, annotation_id: int) -> None:
        """Remove an annotation.

        :raises ManillenError: when there is no such annotation.
        """
        self._check_writable()
        row = _first(
            self._con.execute(
                "DELETE FROM annotations WHERE annotation_id = ? RETURNING annotation_id", [annotation_id]
            ).fetchall()
        )
        if row is None:
            raise ManillenError(f"no annotation {annotation_id}")

    def _check_place(self, mid: str, deal: int, trick: int | None, play: int | None) -> None:
        row = _first(
            self._con.execute(
                """SELECT (SELECT count(*) FROM matches WHERE match_id = $1),
                      (SELECT tricks FROM deals WHERE match_id = $1 AND deal = $2),
                      (SELECT cards FROM tricks WHERE match_id = $1 AND deal = $2 AND trick = $3)""",
                [mid, deal, trick],
            ).fetchall()
        )
        assert row is not None
        matches, tricks, cards = row
        if not matches:
            raise ManillenError(f"no match {mid!r} in the archive")
        if tricks is None:
            raise ManillenError(f"match {mid!r} has no deal {deal}")
        if play is not None and trick is None:
            raise ManillenError("an annotation on a play needs its trick")
        if trick is not None and cards is None:
            raise ManillenError(f"deal {deal} of {mid!r} has no trick {trick}")
        if play is not None and not 1 <= play <= cards:
            raise ManillenError(f"trick {trick} of deal {deal} has no play {play}")

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


# --------------------------------------------------------------------------- helpers


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
            )
        )
    for number, deal_notes in by_deal.items():
        if 1 <= number <= len(record.deals):
            record.deals[number - 1].annotations = deal_notes
    return dumps(record, pretty=False)


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


def _frame(relation: duckdb.DuckDBPyRelation | None) -> pl.DataFrame:
    """A query's rows as a polars frame (an empty frame for a statement that returns nothing)."""
    return pl.DataFrame() if relation is None else relation.pl()


def _first(rows: list[Any]) -> Any:
    """The first row of a fully fetched result (DuckDB 2 wants results read to the end)."""
    return rows[0] if rows else None


def _interrupted(error: BaseException) -> bool:
    """Whether DuckDB stopped a statement for a Ctrl-C: it says so with a plain RuntimeError."""
    return isinstance(error, RuntimeError) and "interrupted" in str(error).lower()


def _file_committed(reader: duckdb.DuckDBPyConnection, state: _FileState) -> bool:
    """Whether the file's transaction reached the archive, asked through another connection
    (for a COMMIT that a Ctrl-C cut short: it may have finished first)."""
    if not state.loaded:
        return False
    match, content_hash = next(iter(state.loaded.items()))
    try:
        return _committed_hashes(reader, [match]).get(match) == content_hash
    except (duckdb.Error, RuntimeError):
        return False


def _spill_folder(archive: str) -> Path:
    """This process's folder for what DuckDB moves out of memory during an import, inside
    ``ARCHIVE.tmp/``; folders left there by processes that no longer run (a crash, a kill) go.

    DuckDB removes only its own files when it closes, so a private folder per process, removed
    after the import, is what keeps crashed imports from piling up files beside the archive.
    """
    parent = Path(archive + ".tmp")
    if parent.is_dir():
        for folder in parent.glob("import-*"):
            pid = folder.name.removeprefix("import-")
            if pid.isdigit() and int(pid) != os.getpid() and not _process_alive(int(pid)):
                shutil.rmtree(folder, ignore_errors=True)
    folder = parent / f"import-{os.getpid()}"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists, under another user
    return True


def _import_failure(error: duckdb.Error) -> str:
    """Why DuckDB could not import; running out of memory comes with what to do about it,
    instead of DuckDB's own advice (settings the user cannot reach)."""
    message = _duckdb_message(error).split("\n\nPossible solutions")[0].strip()
    if isinstance(error, duckdb.OutOfMemoryException) or "(SET memory_limit" in str(error):
        message += "; give the import more memory (a higher memory limit)"
    elif isinstance(error, duckdb.FatalException):
        message += "; DuckDB gave up on the archive for this run: open it again (files committed before stay)"
    return message


def _sql_text(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _duckdb_message(error: BaseException) -> str:
    """DuckDB's message without its class prefix and help links, lowercase first letter."""
    text = str(error).strip()
    text = re.sub(r"^[A-Za-z ]*Error: ", "", text)
    text = text.split("\n\nLINE ")[0]
    if not text:
        return "unknown error"
    # "Catalog Error" becomes "catalog error", but "NOT NULL ..." stays as it is.
    return text[:1].lower() + text[1:] if not text[1:2].isupper() else text


def default_archive() -> str:
    """The archive commands use without ``--db``: ``$MANILLEN_DB`` or ``manillen.duckdb`` here."""
    return os.environ.get("MANILLEN_DB") or "manillen.duckdb"


__all__ = [
    "ANALYSIS_DEPTHS",
    "IMPORT_MEMORY_LIMIT",
    "MIGRATIONS",
    "MINIMUM_MEMORY_LIMIT",
    "SCHEMA_VERSION",
    "TABLES",
    "ArchiveError",
    "ArchiveLockedError",
    "ImportSummary",
    "Migration",
    "QueryError",
    "QueryRefusedError",
    "Store",
    "apply_migrations",
    "check_user_query",
    "default_archive",
    "flatten_for_csv",
    "parse_memory_limit",
    "schema_version_of",
]
