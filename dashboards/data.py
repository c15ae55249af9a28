"""Cached access to the archive for the pages: one read-only Store per file, cached query results.

The archive is a DuckDB file. The dashboard shares one read-only connection per file
(``st.cache_resource``), opened when a page reads and closed again once nobody has read for a
second (:data:`IDLE_SECONDS`), so that ``manillen import`` or ``manillen analyze`` in another
process can open the file between the dashboard's reads. It caches every query result
(``st.cache_data``), keyed by the file, its ``version`` and the widget values, so a change of
filter is one query and going back is free. To save a comment, import an upload or store the
background review's results (``dashboards/reviewer.py``) it opens the file for writing just long
enough; the version then moves on so every cached result is refreshed, as it does when another
program changed the file meanwhile (:meth:`Archive.notice_changes`).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl
import streamlit as st
from streamlit.runtime.caching.cache_utils import CachedFunc

from dashboards import access
from dashboards.limits import (
    UPLOAD_MAX_MB,
    UPLOAD_MAX_RECORDS,
    upload_limits,
)
from manillen_replay.analysis.puzzles import Puzzle, Review, make_puzzles
from manillen_replay.archive_defaults import QUERY_MAX_BYTES, QUERY_MAX_ROWS
from manillen_replay.cards import Card
from manillen_replay.club_rules import ClubRules
from manillen_replay.engine import DealResult, MatchResult, decode_and_replay
from manillen_replay.errors import ManillenError
from manillen_replay.record import Entry
from manillen_replay.record.io import entries_of, kind_of
from manillen_replay.rules import VARIANTS, Rules
from manillen_replay.store import QUERY_TIMEOUT as QUERY_TIMEOUT  # the pages say it, tests change it
from manillen_replay.store import ArchiveLockedError, ImportSummary, RestoredVersion, Store, csv_text
from manillen_replay.store.analyse import AnalysisOutcome, analyse_archive, match_ids_to_analyse
from manillen_replay.store.console_pool import ConsolePool
from manillen_replay.store.importer import Replacement
from manillen_replay.store.review_queue import solver_review as stored_solver_review

if TYPE_CHECKING:  # the solver (and numba) loads only once a what-if is asked for
    from manillen_replay.analysis.what_if import CallWhatIf, WhatIf

DB_ENVIRONMENT = "MANILLEN_DB"
"""The environment variable that names the archive (``manillen dashboard`` sets it)."""
DEFAULT_DB = "manillen.duckdb"
"""The archive when nothing names one: the same default as ``manillen import``."""
DOCS = Path(__file__).resolve().parent.parent / "docs"


def archive_path(argv: Sequence[str] | None = None) -> Path:
    """The archive the dashboard shows: ``-- --db FILE`` after the script, else ``$MANILLEN_DB``.

    >>> archive_path(["app.py", "--db", "club.duckdb"]).name
    'club.duckdb'
    """
    args = list(sys.argv[1:] if argv is None else argv[1:])
    for index, arg in enumerate(args):
        if arg == "--db" and index + 1 < len(args):
            return Path(args[index + 1])
        if arg.startswith("--db="):
            return Path(arg.split("=", 1)[1])
    return Path(os.environ.get(DB_ENVIRONMENT) or DEFAULT_DB)


IDLE_SECONDS = 1.0
"""The read-only connection is closed once the archive has not been read for this long, so that
``manillen analyze`` or ``manillen import`` in another process may open the file for writing
between the dashboard's reads (DuckDB lets no other process write while a connection is open)."""
LOCKED_RETRY_SECONDS = 2.0
"""How long opening the archive is retried while another program holds it for writing, before
the page says so: a command that waited its turn for the file holds it for moments only."""
_RETRY_PAUSE = 0.05


def _open_retrying(path: Path, *, read_only: bool, patience: float = LOCKED_RETRY_SECONDS) -> Store:
    """``Store(path)``, tried again for ``patience`` seconds while another program holds the file.

    :raises ArchiveLockedError: when it is still held after that.
    """
    deadline = time.monotonic() + patience
    while True:
        try:
            return Store(path, read_only=read_only)
        except ArchiveLockedError:
            if time.monotonic() >= deadline:
                raise
            time.sleep(_RETRY_PAUSE)


@dataclass
class Archive:
    """One archive file, shared by every browser session of this dashboard process.

    Sessions run in threads; a DuckDB connection is not safe for two threads at once, so every
    use holds ``lock``. The read-only connection is opened on the first read and closed again
    once nobody has read for :data:`IDLE_SECONDS` (a thread of its own watches), so the
    dashboard never holds the file while it is idle.
    """

    path: Path
    """The DuckDB file."""
    version: int = 0
    """Moves on whenever the file was changed or (re)opened: part of every cache key."""
    lock: threading.RLock = field(default_factory=threading.RLock)
    idle_seconds: float = IDLE_SECONDS
    """Seconds without a read after which the read-only connection is closed."""
    _store: Store | None = None
    _last_used: float = 0.0
    _closer: threading.Thread | None = None
    _stamp: tuple[int, ...] | None = None
    """The file's size and time (and its write-ahead log's) when the connection was last closed."""

    def exists(self) -> bool:
        """Whether the file is there (an archive not yet imported into is not)."""
        return self.path.exists()

    def is_open(self) -> bool:
        """Whether the read-only connection is open now (it closes itself when idle)."""
        return self._store is not None

    def _open(self) -> Store:
        """The read-only store, opened if it is closed (call with ``lock`` held)."""
        if self._store is None:
            if not self.exists():
                raise FileNotFoundError(str(self.path))
            self._store = _open_retrying(self.path, read_only=True)
            self._last_used = time.monotonic()
            if self._stamp is not None and self._stamp != self._file_stamp():
                self.version += 1  # another program (manillen analyze, import) wrote it meanwhile
            self._stamp = None
        if self._closer is None or not self._closer.is_alive():
            self._closer = threading.Thread(target=self._close_when_idle, name="archive-idle", daemon=True)
            self._closer.start()
        return self._store

    @contextmanager
    def reading(self) -> Iterator[Store]:
        """The read-only store, opened on first use (and again after an idle close).

        :raises FileNotFoundError: when the archive file does not exist.
        :raises ManillenError: when the file cannot be opened (another program holds it for
            writing for longer than :data:`LOCKED_RETRY_SECONDS`).
        """
        with self.lock:
            try:
                yield self._open()
            finally:
                self._last_used = time.monotonic()

    def copy_to(self, target: Path) -> None:
        """Copy the file (and its write-ahead log, if any) to ``target``, the read-only
        connection open meanwhile so that no program, this one included, writes it during the
        copy (DuckDB lets nobody write while a connection reads): the SQL page's snapshot.

        :raises FileNotFoundError: when the archive file does not exist.
        :raises ManillenError: when the file cannot be opened.
        """
        with self.lock:
            self._open()
            try:
                shutil.copyfile(self.path, target)
                wal = self.path.with_name(self.path.name + ".wal")
                if wal.exists():
                    shutil.copyfile(wal, target.with_name(target.name + ".wal"))
            finally:
                self._last_used = time.monotonic()

    def _close_when_idle(self) -> None:
        """Close the read-only connection once it has been idle for ``idle_seconds`` (a thread)."""
        while True:
            with self.lock:
                if self._store is None:
                    return
                idle = time.monotonic() - self._last_used
                if idle >= self.idle_seconds:
                    self.close()
                    return
                wait = max(self.idle_seconds - idle, _RETRY_PAUSE)
            time.sleep(wait)

    @contextmanager
    def writing(self) -> Iterator[Store]:
        """The store opened for writing, briefly; the read-only one is reopened on the next read.

        :raises ArchiveLockedError: when another program holds the archive (for longer than
            :data:`LOCKED_RETRY_SECONDS`).
        """
        with self.lock:
            self.close()
            try:
                with _open_retrying(self.path, read_only=False) as store:
                    yield store
            finally:
                self.version += 1
                self._stamp = self._file_stamp()

    def close(self) -> None:
        """Close the read-only connection (it is reopened on the next read)."""
        with self.lock:
            if self._store is not None:
                self._store.close()
                self._store = None
                self._stamp = self._file_stamp()

    def notice_changes(self) -> None:
        """Move ``version`` on when another program wrote the file while the connection was closed
        (two ``stat`` calls): the pages' cached results are then read again."""
        with self.lock:
            if self._store is None and self._stamp is not None and self._stamp != self._file_stamp():
                self._stamp = self._file_stamp()
                self.version += 1

    def _file_stamp(self) -> tuple[int, ...]:
        """The size and modification time of the file and of its write-ahead log (0 when absent)."""
        stamp: list[int] = []
        for path in (self.path, self.path.with_name(self.path.name + ".wal")):
            try:
                info = path.stat()
            except OSError:
                stamp += [0, 0]
            else:
                stamp += [info.st_size, info.st_mtime_ns]
        return tuple(stamp)


@st.cache_resource(show_spinner=False)
def _archive(path: str) -> Archive:
    return Archive(Path(path))


def archive_at(path: Path | str) -> Archive:
    """The shared :class:`Archive` of the file at ``path`` (the background reviewer's way in)."""
    return _archive(str(Path(path).resolve()))


def archive() -> Archive:
    """The archive of this dashboard, shared by every session (its version moved on when another
    program changed the file since the last look)."""
    current = _archive(str(archive_path().resolve()))
    current.notice_changes()
    return current


def _frame(path: str, sql: str, params: Sequence[Any] | None = None) -> pl.DataFrame:
    with _archive(path).reading() as store:
        return store.query(sql, list(params) if params is not None else None)


def _key(current: Archive) -> tuple[str, int]:
    return str(current.path), current.version


# --------------------------------------------------------------------------- archive page


@st.cache_data(show_spinner=False)
def _counts(path: str, version: int) -> dict[str, int]:
    row = _frame(
        path,
        """
        SELECT
          (SELECT count(*) FROM matches) AS matches,
          (SELECT count(*) FROM deals) AS deals,
          (SELECT count(DISTINCT player) FROM seats) AS players,
          (SELECT count(*) FROM findings WHERE severity <> 'info') AS findings
        """,
    ).row(0, named=True)
    return {name: int(value or 0) for name, value in row.items()}


def counts() -> dict[str, int]:
    """Matches, deals, players and findings in the archive (the notes, ``info``, left out, as the
    Mistakes page and the review leave them out: 1 871 here beside 1 413 there read as a
    contradiction); all zero for a missing file."""
    current = archive()
    if not current.exists():
        return {"matches": 0, "deals": 0, "players": 0, "findings": 0}
    return _counts(*_key(current))


@st.cache_data(show_spinner=False)
def _players(path: str, version: int) -> list[str]:
    frame = _frame(path, "SELECT DISTINCT player FROM seats ORDER BY player")
    return [str(name) for name in frame["player"].to_list()]


def players() -> list[str]:
    """Every player name in the archive, sorted."""
    return _players(*_key(archive()))


@st.cache_data(show_spinner=False)
def _choices(path: str, version: int, column: str) -> list[str]:
    frame = _frame(path, f"SELECT DISTINCT {column} AS v FROM matches WHERE {column} IS NOT NULL ORDER BY 1")
    return [str(v) for v in frame["v"].to_list()]


def venues() -> list[str]:
    """Every venue named in the archive."""
    return _choices(*_key(archive()), "venue")


def variants() -> list[str]:
    """Every variant in the archive."""
    return _choices(*_key(archive()), "variant")


@st.cache_data(show_spinner=False)
def _date_range(path: str, version: int) -> tuple[Any, Any]:
    row = _frame(path, "SELECT min(date) AS first, max(date) AS last FROM matches").row(0)
    return row[0], row[1]


def date_range() -> tuple[Any, Any]:
    """The first and last match date (``None`` when no match has a date)."""
    return _date_range(*_key(archive()))


@st.cache_data(show_spinner=False)
def _matches(
    path: str,
    version: int,
    players: tuple[str, ...],
    venues: tuple[str, ...],
    variants: tuple[str, ...],
    dates: tuple[Any, Any] | None,
) -> pl.DataFrame:
    where = ["TRUE"]
    params: list[Any] = []
    for name in players:
        where.append("m.match_id IN (SELECT match_id FROM seats WHERE player = ?)")
        params.append(name)
    if venues:
        where.append(f"m.venue IN ({', '.join('?' for _ in venues)})")
        params.extend(venues)
    if variants:
        where.append(f"m.variant IN ({', '.join('?' for _ in variants)})")
        params.extend(variants)
    if dates is not None:
        where.append("m.date BETWEEN ? AND ?")
        params.extend(dates)
    # the three-player games score each player apart, with sides that change with the dealer:
    # their players are listed together, and their three scores (Carla was listed with Anna, 0)
    alone = ", ".join(f"'{name}'" for name, variant in VARIANTS.items() if variant.scorers == 3)
    return _frame(
        path,
        f"""
        WITH evening AS (  -- a club evening's partners change every block: its result is the blocks won
            SELECT match_id, string_agg(player || ' ' || blocks_won, ', ' ORDER BY blocks_won DESC, player)
                   AS blocks_won
            FROM blocks_won GROUP BY match_id
        )
        SELECT m.match_id, m.date, m.venue, m.event, m.variant,
               CASE WHEN m.variant IN ({alone}) THEN concat_ws(' · ', m.seat0, m.seat1, m.seat2)
                    ELSE concat_ws(' & ', m.seat0, m.seat2, m.seat4) END AS team_0,
               CASE WHEN m.variant IN ({alone}) THEN NULL
                    ELSE concat_ws(' & ', m.seat1, m.seat3, m.seat5) END AS team_1,
               m.final_score_0, m.final_score_1, m.final_score_2, m.winner,
               m.deals,
               (SELECT count(*) FROM findings f WHERE f.match_id = m.match_id AND f.severity <> 'info')
                   AS findings,
               e.blocks_won,
               -- a club evening keeps no team score (its teams change): one before its first block
               -- is over has no blocks won yet either
               (e.blocks_won IS NOT NULL OR m.score_0 IS NULL) AS evening
        FROM matches m LEFT JOIN evening e USING (match_id)
        WHERE {" AND ".join(where)}
        ORDER BY m.date DESC NULLS LAST, m.import_order DESC
        """,
        params,
    )


def matches(
    players: Sequence[str] = (),
    venues: Sequence[str] = (),
    variants: Sequence[str] = (),
    dates: tuple[Any, Any] | None = None,
) -> pl.DataFrame:
    """The matches that pass the filters (every given player sat at the table), newest first."""
    return _matches(*_key(archive()), tuple(players), tuple(venues), tuple(variants), dates)


@st.cache_data(show_spinner=False)
def _match_ids(path: str, version: int) -> list[str]:
    # an evening's third match (recorded last) before its first, as "newest first" says
    frame = _frame(path, "SELECT match_id FROM matches ORDER BY date DESC NULLS LAST, import_order DESC")
    return [str(v) for v in frame["match_id"].to_list()]


def match_ids() -> list[str]:
    """Every match id, newest first."""
    return _match_ids(*_key(archive()))


class UploadRefusedError(ManillenError):
    """An upload over the dashboard's limits, refused before any of it is imported."""


def entries_from_upload(name: str, data: bytes) -> list[Entry]:
    """The documents of an uploaded file: one ``.json`` match, a line of ``.jsonl`` each, or
    each match of a ``.mnl`` text, numbered by their line. Lines split as every reader splits
    them (``manillen_replay.record.io.split_lines``: at ``\\n`` only, a ``\\r`` before it dropped).

    :raises UploadRefusedError: for a file over :func:`upload_limits` (larger, or more lines or
        matches), saying which limit and that ``manillen import`` takes it.
    """
    most_bytes, most_records = upload_limits()
    if len(data) > most_bytes:
        raise UploadRefusedError(
            f"{name} is {len(data):,} bytes, over the upload limit of {most_bytes:,} "
            f"({most_bytes // 2**20} MiB, the setting {UPLOAD_MAX_MB}): import it with manillen import"
        )
    kind = kind_of(name)
    lines = data.count(b"\n") + (not data.endswith(b"\n"))
    if kind == "jsonl" and lines > most_records:
        raise UploadRefusedError(
            f"{name} has {lines:,} lines, over the upload limit of {most_records:,} records "
            f"(the setting {UPLOAD_MAX_RECORDS}): import it with manillen import"
        )
    entries = entries_of(data, name, kind)
    if len(entries) > most_records:
        raise UploadRefusedError(
            f"{name} holds {len(entries):,} matches, over the upload limit of {most_records:,} records "
            f"(the setting {UPLOAD_MAX_RECORDS}): import it with manillen import"
        )
    return entries


def upload_replacements(name: str, data: bytes, club: ClubRules | None = None) -> list[Replacement]:
    """The archive's matches an uploaded file would replace (same id, other content), to ask
    before importing it; none when the archive does not exist yet. With ``club``, the records
    as :func:`import_upload` with those club rules would keep them.

    :raises UploadRefusedError: for a file over the upload limits (:func:`entries_from_upload`).
    """
    access.require_organiser("upload matches")
    current = archive()
    if not current.exists():
        return []
    with current.reading() as store:
        return store.replacements_of(entries_from_upload(name, data), club=club)


def import_upload(
    name: str, data: bytes, *, replace: bool = True, club: ClubRules | None = None
) -> tuple[ImportSummary, AnalysisOutcome]:
    """Import an uploaded file into the archive and analyse what is new (the default depth,
    as ``manillen analyze`` does), opening the archive for writing just for this. The new
    matches then go to the front of the background review's queue (:mod:`dashboards.reviewer`),
    for the solver's costs.

    :param replace: ``False`` keeps the archive's version of a known match whose content
        changed; a replaced match's earlier version is kept in ``match_versions`` either way.
    :param club: a club's saved rules, applied as ``manillen import --rules NAME`` applies them
        (the store's own import does it): a match naming no house rules takes the club's, one
        naming others is refused with the options that differ.
    :raises ArchiveLockedError: when another program holds the archive.
    :raises UploadRefusedError: for a file over the upload limits, before the archive is opened.
    """
    access.require_organiser("upload matches")
    entries = entries_from_upload(name, data)
    with archive().writing() as store:
        summary = store.import_entries(entries, replace=replace, club=club)
        # this upload's matches only (imported, replaced or kept as they were): the others
        # waiting for an analysis, an earlier version's among them, are the background review's
        new = match_ids_to_analyse(store, match_ids=_record_ids(entries, club), outdated=False)
        outcome = analyse_archive(store, match_ids=new)
    from dashboards import reviewer

    reviewer.request(new)
    return summary, outcome


def upload_match_ids(name: str, data: bytes, club: ClubRules | None = None) -> list[str]:
    """The ids of an upload's matches the archive holds now, in the file's order: the links the
    Archive page offers after an import (a match without a date sank to the end of its lists)."""
    held = set(match_ids())
    return [mid for mid in dict.fromkeys(_record_ids(entries_from_upload(name, data), club)) if mid in held]


def _record_ids(entries: list[Entry], club: ClubRules | None = None) -> list[str]:
    """The match ids of the records among ``entries`` that read (the others were refused), each
    record read as the import read it: with a club's rules, a text match without a variant line
    is the club's variant, and a record without an id takes it from its content with the club's
    rules in it."""
    from manillen_replay.club_rules import with_club_rules
    from manillen_replay.engine import match_id

    ids = []
    for entry in entries:
        try:
            record = entry.decode(variant=None if club is None else club.rules.variant)
            if club is not None:
                with_club_rules(record, club)
            ids.append(match_id(record))
        except ManillenError:
            continue
    return ids


def restore_version(match_id: str) -> RestoredVersion:
    """Put back the latest earlier version of a match (``manillen import --restore``), with its
    analysis as it was; a version the solver had not reviewed is analysed at the default depth
    and goes to the front of the background review's queue, as an upload's new matches do.

    :raises ArchiveError: when the archive keeps no earlier version of it.
    :raises ArchiveLockedError: when another program holds the archive.
    """
    access.require_organiser("put back an earlier version of a match")
    with archive().writing() as store:
        restored = store.restore_version(match_id)
        analyse_archive(store, match_ids=[match_id])
    from dashboards import reviewer

    reviewer.request([match_id])  # nothing to do when the solver's review came back with it
    return restored


# --------------------------------------------------------------------------- one match


@st.cache_data(show_spinner=False, max_entries=256)
def _record(path: str, version: int, match_id: str) -> str | None:
    frame = _frame(path, "SELECT record FROM matches WHERE match_id = ?", [match_id])
    return None if frame.height == 0 else str(frame["record"][0])


def record(match_id: str) -> str | None:
    """The canonical record of a match, ``None`` when the archive has no such match."""
    return _record(*_key(archive()), match_id)


@st.cache_data(show_spinner=False, max_entries=256)
def _replayed(path: str, version: int, match_id: str) -> MatchResult | None:
    text = _record(path, version, match_id)
    return None if text is None else decode_and_replay(text, source=match_id)


def replayed(match_id: str) -> MatchResult | None:
    """The match replayed by the engine (cached), ``None`` when there is no such match.

    :raises InvalidRecordError: when the stored record no longer replays (should not happen).
    """
    return _replayed(*_key(archive()), match_id)


@st.cache_data(show_spinner=False, max_entries=256)
def _match_info(path: str, version: int, match_id: str) -> dict[str, Any]:
    frame = _frame(path, "SELECT date, venue, event, variant FROM matches WHERE match_id = ?", [match_id])
    return {} if frame.height == 0 else frame.row(0, named=True)


def match_info(match_id: str) -> dict[str, Any]:
    """Date, venue, event and variant of a match."""
    return _match_info(*_key(archive()), match_id)


@st.cache_data(show_spinner=False, max_entries=256)
def _findings_per_deal(path: str, version: int, match_id: str) -> dict[int, int]:
    frame = _frame(
        path,
        "SELECT deal, count(*) AS n FROM findings WHERE match_id = ? AND deal IS NOT NULL "
        "AND severity <> 'info' GROUP BY deal",
        [match_id],
    )
    return {int(d): int(n) for d, n in frame.iter_rows()}


def findings_per_deal(match_id: str) -> dict[int, int]:
    """How many findings each deal of a match has."""
    return _findings_per_deal(*_key(archive()), match_id)


FINDING_COLUMNS = (
    "finding_id, match_id, deal, trick, play, seat, player, kind, category, severity, card, better, "
    "points, explanation, explanation_nl, detector"
)


@st.cache_data(show_spinner=False, max_entries=256)
def _deal_findings(path: str, version: int, match_id: str, deal: int) -> pl.DataFrame:
    return _frame(
        path,
        f"SELECT {FINDING_COLUMNS} FROM findings WHERE match_id = ? AND (deal = ? OR deal IS NULL) "
        "ORDER BY trick NULLS FIRST, play NULLS FIRST, finding_id",
        [match_id, deal],
    )


def deal_findings(match_id: str, deal: int) -> pl.DataFrame:
    """The findings of one deal (and of the whole match, with ``deal`` NULL)."""
    return _deal_findings(*_key(archive()), match_id, deal)


@st.cache_data(show_spinner=False, max_entries=256)
def _trump_review(path: str, version: int, match_id: str, deal: int) -> pl.DataFrame:
    return _frame(
        path,
        "SELECT options, options_at_most, layouts FROM call_decisions "
        "WHERE match_id = ? AND deal = ? AND call = 'trump' AND options IS NOT NULL",
        [match_id, deal],
    )


@dataclass(frozen=True)
class TrumpReview:
    """What the solver's trump review of a deal expects of each call (``call_decisions``)."""

    scores: dict[str, float]
    """Each option's expected deal score for the chooser's team (``H``, ..., ``muil``)."""
    at_most: frozenset[str]
    """The options whose score is only an upper bound (pruned by a probe)."""
    layouts: int
    """The layouts of the hidden cards it solved."""


def trump_review(match_id: str, deal: int) -> TrumpReview | None:
    """The stored trump review of a deal, ``None`` before ``manillen analyze --depth solver``
    (or for a deal without a trump call)."""
    rows = _trump_review(*_key(archive()), match_id, deal)
    if rows.is_empty():
        return None
    row = rows.row(0, named=True)
    scores = {str(name): float(value) for name, value in json.loads(row["options"]).items()}
    return TrumpReview(scores, frozenset(row["options_at_most"] or ()), int(row["layouts"]))


# --------------------------------------------------------------------------- what if

_solver_loading = threading.Lock()
_solver_started = False


def prepare_what_if() -> None:
    """Load the solver (numba and its compiled code) in a thread of its own, once per server, when
    a play that can be forked is first shown: loading takes a second or two, so a person choosing
    a card then waits only for the search (docs/dashboard.md)."""
    global _solver_started
    with _solver_loading:
        if _solver_started:
            return
        _solver_started = True

    def load() -> None:
        from manillen_replay.analysis.what_if import warm_up

        warm_up()

    # not a daemon: numba stopped halfway by the end of the process aborts it
    threading.Thread(target=load, name="what-if-solver").start()


def _deal_of(path: str, version: int, match_id: str, deal: int) -> tuple[DealResult, Rules]:
    result = _replayed(path, version, match_id)
    if result is None:
        raise ManillenError(f"no match {match_id!r} in the archive")
    dealt = next((d for d in result.deals if d.number == deal), None)
    if dealt is None:
        raise ManillenError(f"match {match_id!r} has no deal {deal}")
    return dealt, result.rules


@st.cache_data(show_spinner=False, max_entries=128)
def _what_if(path: str, version: int, match_id: str, deal: int, trick: int, play: int, card: str) -> WhatIf:
    from manillen_replay.analysis.what_if import what_if as play_out  # loads the solver

    dealt, rules = _deal_of(path, version, match_id, deal)
    return play_out(dealt, rules, trick, play, int(Card.parse(card)))


def what_if(match_id: str, deal: int, trick: int, play: int, card: str) -> WhatIf:
    """The rest of the deal after ``card`` at one play, and after the card played
    (:func:`manillen_replay.analysis.what_if.what_if`): cached per version of the archive, deal,
    play and card, so going back to a card asked before is free.

    :raises ManillenError: for a play or card the solver cannot take (a ``SolverError``).
    """
    return _what_if(*_key(archive()), match_id, deal, trick, play, card)


@st.cache_data(show_spinner=False, max_entries=64)
def _call_what_if(path: str, version: int, match_id: str, deal: int, call: str) -> CallWhatIf:
    from manillen_replay.analysis.what_if import call_what_if as play_out  # loads the solver

    dealt, rules = _deal_of(path, version, match_id, deal)
    return play_out(dealt, rules, call)


def call_what_if(match_id: str, deal: int, call: str) -> CallWhatIf:
    """The deal played out under another ``call`` and under the call made
    (:func:`manillen_replay.analysis.what_if.call_what_if`), cached as :func:`what_if` is.

    :raises ManillenError: for a deal or call the solver cannot take (a ``SolverError``).
    """
    return _call_what_if(*_key(archive()), match_id, deal, call)


# --------------------------------------------------------------------------- annotations

ANNOTATION_COLUMNS = (
    "annotation_id, match_id, deal, trick, play, author, text, tags, created_at, updated_at, line"
)


@st.cache_data(show_spinner=False, max_entries=256)
def _deal_annotations(path: str, version: int, match_id: str, deal: int) -> pl.DataFrame:
    return _frame(
        path,
        f"SELECT {ANNOTATION_COLUMNS} FROM annotations WHERE match_id = ? AND deal = ? "
        "ORDER BY trick NULLS FIRST, play NULLS FIRST, annotation_id",
        [match_id, deal],
    )


def deal_annotations(match_id: str, deal: int) -> pl.DataFrame:
    """The coach comments on one deal, its tricks and its plays."""
    return _deal_annotations(*_key(archive()), match_id, deal)


@st.cache_data(show_spinner=False)
def _all_annotations(path: str, version: int) -> pl.DataFrame:
    return _frame(
        path,
        f"SELECT {ANNOTATION_COLUMNS} FROM annotations "
        "ORDER BY updated_at DESC NULLS LAST, annotation_id DESC",
    )


def all_annotations() -> pl.DataFrame:
    """Every coach comment in the archive, the latest first."""
    return _all_annotations(*_key(archive()))


def add_annotation(
    match_id: str,
    deal: int,
    trick: int | None,
    play: int | None,
    author: str,
    text: str,
    tags: list[str],
    line: list[str] | None = None,
) -> int:
    """Store a new comment (opening the archive for writing just for this), with a variation
    (``line``: the cards from the play on) when it has one.

    :raises ArchiveLockedError: when another program holds the archive.
    """
    access.require_organiser("write coach comments")
    with archive().writing() as store:
        return int(store.add_annotation(match_id, deal, trick, play, author, text, tags, line))


def update_annotation(
    annotation_id: int, text: str, tags: list[str], was: tuple[str, list[str] | None] | None = None
) -> None:
    """Change a comment's text and tags, if it still says ``was`` (the text and tags the edit
    began from; see :meth:`~manillen_replay.store.Store.update_annotation`).

    :raises ArchiveLockedError: when another program holds the archive.
    :raises AnnotationChangedError: when someone else changed it since.
    """
    access.require_organiser("change coach comments")
    with archive().writing() as store:
        store.update_annotation(annotation_id, text, tags, was=was)


def delete_annotation(annotation_id: int) -> None:
    """Delete a comment.

    :raises ArchiveLockedError: when another program holds the archive.
    """
    access.require_organiser("delete coach comments")
    with archive().writing() as store:
        store.delete_annotation(annotation_id)


# --------------------------------------------------------------------------- club rules


@st.cache_data(show_spinner=False)
def _club_rule_sets(path: str, version: int) -> list[ClubRules]:
    with _archive(path).reading() as store:
        return store.club_rule_sets()


def club_rule_sets() -> list[ClubRules]:
    """Every club's rules saved in the archive, by name (none without an archive).

    :raises ManillenError: for saved options this program does not know (a newer one saved them).
    """
    current = archive()
    return _club_rule_sets(*_key(current)) if current.exists() else []


def save_club_rules(name: str, rules: Rules, *, replace: bool = False) -> ClubRules:
    """Keep ``rules`` in the archive under ``name`` (the organiser only).

    :raises ManillenError: for a name refused or taken (unless ``replace``), or when another
        program holds the archive.
    """
    access.require_organiser("save a club's rules")
    with archive().writing() as store:
        return store.save_club_rules(name, rules, replace=replace)


def parse_tags(text: str) -> list[str]:
    """Tags typed as ``good, vetten`` (commas or semicolons), trimmed, without repeats (``X`` is
    ``x`` again: the first spelling stays).

    >>> parse_tags(" good, vetten;good , Vetten")
    ['good', 'vetten']
    """
    tags: dict[str, str] = {}
    for part in re.split(r"[,;]", text):
        tag = part.strip()
        if tag:
            tags.setdefault(tag.casefold(), tag)
    return list(tags.values())


# --------------------------------------------------------------------------- SQL page


@st.cache_resource(show_spinner=False)
def _console_pool() -> ConsolePool:
    return ConsolePool()


def warm_console() -> None:
    """Start the SQL page's worker processes (once), so that its first query does not wait for them."""
    _console_pool().warm()


def user_query(
    sql: str,
    timeout: float | None = None,
    max_rows: int = QUERY_MAX_ROWS,
    on_wait: Callable[[], None] | None = None,
) -> pl.DataFrame:
    """A user's own query, read-only (``Store.user_query``); not cached, so errors show each time.

    The query runs in a worker process of its own (:class:`ConsolePool`), so that one session's
    long query does not hold up the pages of the others, on a snapshot of the archive (copied
    once per ``version``), so that it never holds the archive's file and a save never waits for
    it; it is ended after ``timeout`` seconds, even one that DuckDB cannot interrupt, or when it
    needs more than :data:`~manillen_replay.archive_defaults.QUERY_MEMORY_LIMIT`, and gives at
    most ``max_rows`` rows and one more (so the page can say the result was cut), holding at most
    :data:`~manillen_replay.archive_defaults.QUERY_MAX_BYTES` (a larger result is refused).

    :param timeout: seconds; ``None`` for :data:`QUERY_TIMEOUT` (read when called).
    :raises QueryRefusedError: for a write or file or network access.
    :raises QueryError: for a query DuckDB cannot run, or one stopped at its time limit.
    """
    access.require_organiser("run SQL")
    timeout = QUERY_TIMEOUT if timeout is None else timeout
    current = archive()
    pool = _console_pool()
    with pool.snapshot(str(current.path), current.version, current.copy_to) as snapshot:
        return pool.query(
            snapshot, sql, timeout=timeout, max_rows=max_rows, max_bytes=QUERY_MAX_BYTES, on_wait=on_wait
        )


def csv_bytes(frame: pl.DataFrame, *, excel: bool = False) -> bytes:
    """A result as CSV, the same as ``manillen sql --format csv`` (or ``--format excel``) writes it."""
    return csv_text(frame, excel=excel).encode()


def example_queries(path: Path | None = None, lang: str = "en") -> list[tuple[str, str]]:
    """The example queries of ``docs/sql.md``: ``(title, sql)`` for each ```` ```sql ```` block.

    The title is the first sentence of the nearest paragraph above the block (a paragraph's
    first line may stop mid-sentence), or else its heading. In Dutch (``lang="nl"``) it is the
    block's Dutch title, a comment on the line above it (``<!-- nl: De partijen -->``: the guide
    is English, its readers do not see the comment), or the English one where it has none.
    Examples that read files the analysis wrote (``read_parquet('DIR/...')``) are left out: the
    page's queries may not read files.
    """
    source = path or DOCS / "sql.md"
    if not source.exists():
        return []
    examples: list[tuple[str, str]] = []
    title = dutch = ""
    lines = source.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.strip().startswith("```sql"):
            body = []
            index += 1
            while index < len(lines) and not lines[index].strip().startswith("```"):
                body.append(lines[index])
                index += 1
            query = "\n".join(body).strip()
            if query and not _READS_FILES.search(query):
                shown = dutch if lang == "nl" and dutch else title
                examples.append((shown or query.splitlines()[0], query))
            title = dutch = ""
        elif named := _DUTCH_TITLE.fullmatch(line.strip()):
            dutch = named.group(1).strip()
        elif line.startswith("#"):
            title = line.strip().lstrip("#").strip().rstrip(":")
        elif line.strip() and (index == 0 or not lines[index - 1].strip()):
            # the nearest paragraph above the query (or else its heading): its first sentence
            paragraph = [line.strip()]
            while index + 1 < len(lines) and lines[index + 1].strip() and lines[index + 1][:3] != "```":
                index += 1
                paragraph.append(lines[index].strip())
            title = _title_of(" ".join(paragraph)).rstrip(":")
        index += 1
    return examples


_DUTCH_TITLE = re.compile(r"<!--\s*nl:\s*(.*?)\s*-->")
"""An example's Dutch title in docs/sql.md, on the line above its query."""
_READS_FILES = re.compile(r"\bread_(parquet|csv|json|text|blob)\w*\s*\(", re.IGNORECASE)


def _title_of(paragraph: str, longest: int = 90) -> str:
    """A paragraph as a button's title: its first sentence, and the next ones while the title
    stays within ``longest`` characters (a paragraph's first line may stop mid-sentence; a title
    must not). Sentences end at ``.``, ``?`` or ``!`` before a space, outside brackets and
    backticks.

    >>> _title_of("Does dealing pay? Net points per deal as dealer and not")
    'Does dealing pay? Net points per deal as dealer and not'
    >>> _title_of("Who underbuys most? An underbuy is a trump (led `low.`) played below a trump, " * 2)
    'Who underbuys most?'
    """
    ends = []
    depth = 0
    quoted = False
    for position, char in enumerate(paragraph):
        if char == "`":
            quoted = not quoted
        elif not quoted and char in "([":
            depth += 1
        elif not quoted and char in ")]":
            depth = max(0, depth - 1)
            if not depth and paragraph[position - 1 : position] in (".", "?", "!"):
                ends.append(position + 1)  # a sentence in brackets: "(Knocks are made ...)"
        elif (
            not quoted
            and not depth
            and char in ".?!"
            and paragraph[position + 1 : position + 2].strip() == ""
        ):
            ends.append(position + 1)
    ends.append(len(paragraph))
    title = paragraph[: ends[0]]
    for end in ends[1:]:
        if end > longest:
            break
        title = paragraph[:end]
    return title.strip()


# --------------------------------------------------------------------------- mistakes page

SEVERITIES = ("info", "inaccuracy", "mistake", "blunder")
"""Severities from least to most serious, as the findings table stores them."""
MISTAKE_SEVERITIES = SEVERITIES[1:]
"""What the Mistakes page lists unless asked for more: info findings are not mistakes."""
MISTAKE_ROWS = (100, 1000)
"""The Mistakes page's table rows: the most serious first, and at most this many on demand."""


@dataclass(frozen=True)
class FindingFilter:
    """The Mistakes page's filters; empty means everything."""

    players: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()
    severities: tuple[str, ...] = ()
    dates: tuple[Any, Any] | None = None
    matches: tuple[str, ...] = ()
    depths: tuple[str, ...] = ()
    """How deep the matches were analysed (``matches.analysis_depth``): the solver's review finds
    far more than the quick check, so players are compared over one depth."""

    def where(self, alias: str = "f") -> tuple[str, list[Any]]:
        """The SQL condition on ``findings`` (as ``alias``) joined with ``matches m``, and its parameters."""
        parts = ["TRUE"]
        params: list[Any] = []
        for column, values in (
            ("match_id", self.matches),
            ("player", self.players),
            ("kind", self.kinds),
            ("category", self.categories),
            ("severity", self.severities),
        ):
            if values:
                parts.append(f"{alias}.{column} IN ({', '.join('?' for _ in values)})")
                params.extend(values)
        if self.dates is not None:
            parts.append("m.date BETWEEN ? AND ?")
            params.extend(self.dates)
        if self.depths:
            parts.append(f"m.analysis_depth IN ({', '.join('?' for _ in self.depths)})")
            params.extend(self.depths)
        return " AND ".join(parts), params


@st.cache_data(show_spinner=False)
def _finding_choices(path: str, version: int) -> dict[str, list[str]]:
    frame = _frame(
        path,
        "SELECT list(DISTINCT kind ORDER BY kind) AS kinds, "
        "list(DISTINCT category ORDER BY category) AS categories, "
        "list(DISTINCT player ORDER BY player) FILTER (WHERE player IS NOT NULL) AS players, "
        # the matches newest first, as the Archive lists them: a league's 2,000 ids in alphabetical
        # order put its oldest club's first
        "(SELECT list(match_id ORDER BY date DESC NULLS LAST, import_order DESC) FROM matches "
        "WHERE match_id IN (SELECT match_id FROM findings)) AS matches FROM findings",
    )
    row = frame.row(0, named=True)
    return {
        name: [str(v) for v in (row[name] or [])] for name in ("kinds", "categories", "players", "matches")
    }


def finding_choices() -> dict[str, list[str]]:
    """The kinds, categories, players and matches that occur in the findings (for the filter boxes)."""
    return _finding_choices(*_key(archive()))


@st.cache_data(show_spinner=False)
def _matches_played(path: str, version: int, players: tuple[str, ...]) -> set[str]:
    frame = _frame(
        path, "SELECT DISTINCT match_id FROM seats WHERE list_contains(?, player)", [list(players)]
    )
    return {str(v) for v in frame["match_id"]}


def matches_played(players: Sequence[str]) -> set[str]:
    """The matches any of ``players`` sat in (the Mistakes page's match filter, once players are
    chosen: a player's dozen matches, not the archive's 300)."""
    return _matches_played(*_key(archive()), tuple(players))


@st.cache_data(show_spinner=False)
def _findings(path: str, version: int, chosen: FindingFilter, limit: int) -> tuple[int, pl.DataFrame]:
    where, params = chosen.where()
    severity_rank = "list_position(['info', 'inaccuracy', 'mistake', 'blunder'], f.severity)"
    total = _frame(
        path, f"SELECT count(*) AS n FROM findings f JOIN matches m USING (match_id) WHERE {where}", params
    )
    rows = _frame(
        path,
        f"""
        SELECT m.date, f.match_id, f.deal, f.trick, f.play, f.player, f.kind, f.category, f.severity,
               f.card, f.better, f.points, f.explanation, f.explanation_nl,
               coalesce(s.is_dummy, FALSE) AS dummy
        FROM findings f JOIN matches m USING (match_id)
        -- the dummy's card of three_dummy is filed under the dealer who chose it (f.player)
        LEFT JOIN deal_seats s ON s.match_id = f.match_id AND s.deal = f.deal AND s.seat = f.seat
        WHERE {where}
        -- the most points at stake first, as the Match page ranks the biggest mistakes (a
        -- severity is judged on card points, so a card of a doubled deal ranked under a smaller
        -- blunder); info after every mistake
        ORDER BY f.severity = 'info', f.points DESC NULLS LAST, {severity_rank} DESC,
                 m.date DESC NULLS LAST, f.match_id, f.deal, f.trick, f.play
        LIMIT {int(limit)}
        """,
        params,
    )
    return int(total["n"][0]), rows


def findings(chosen: FindingFilter, limit: int = 1000) -> tuple[int, pl.DataFrame]:
    """How many findings pass the filters, and the ``limit`` most serious of them (``dummy``: a
    card of the dummy of ``three_dummy``, whose ``player`` is the dealer who chose it)."""
    return _findings(*_key(archive()), chosen, limit)


@st.cache_data(show_spinner=False)
def _finding_rates(path: str, version: int, chosen: FindingFilter) -> pl.DataFrame:
    where, params = chosen.where()
    # the cards of analysed matches only: one waiting for its analysis has no findings yet
    card_where = ["m.analysis_depth IS NOT NULL"]
    card_params: list[Any] = []
    if chosen.matches:
        card_where.append(f"p.match_id IN ({', '.join('?' for _ in chosen.matches)})")
        card_params.extend(chosen.matches)
    if chosen.players:
        card_where.append(f"p.player IN ({', '.join('?' for _ in chosen.players)})")
        card_params.extend(chosen.players)
    if chosen.dates is not None:
        card_where.append("m.date BETWEEN ? AND ?")
        card_params.extend(chosen.dates)
    if chosen.depths:
        card_where.append(f"m.analysis_depth IN ({', '.join('?' for _ in chosen.depths)})")
        card_params.extend(chosen.depths)
    return _frame(
        path,
        f"""
        WITH cards AS (
            SELECT p.player, count(*) AS cards
            FROM plays p JOIN matches m USING (match_id)
            WHERE {" AND ".join(card_where)}
            GROUP BY p.player
        ), found AS (
            SELECT f.player, f.kind, count(*) AS findings
            FROM findings f JOIN matches m USING (match_id)
            WHERE f.player IS NOT NULL AND {where}
            GROUP BY ALL
        )
        SELECT found.player, found.kind, found.findings, cards.cards,
               round(100.0 * found.findings / cards.cards, 2) AS per_100
        FROM found JOIN cards USING (player)
        ORDER BY found.player, found.kind
        """,
        card_params + params,
    )


def finding_rates(chosen: FindingFilter) -> pl.DataFrame:
    """Findings per 100 cards played by player and kind, under the filters (``player, kind, per_100``);
    the cards of analysed matches only."""
    return _finding_rates(*_key(archive()), chosen)


@st.cache_data(show_spinner=False)
def _depth_counts(
    path: str, version: int, joined: str, where: tuple[str, ...], params: tuple[Any, ...]
) -> dict[str, int]:
    frame = _frame(
        path,
        f"SELECT m.analysis_depth, count(DISTINCT m.match_id) AS n FROM matches m {joined} "
        f"WHERE {' AND '.join(('m.analysis_depth IS NOT NULL', *where))} GROUP BY 1",
        list(params),
    )
    return {str(depth): int(n) for depth, n in frame.iter_rows()}


def analysed_depths(chosen: FindingFilter) -> dict[str, int]:
    """How many analysed matches under the filters' matches, dates and depths are at each depth."""
    on_matches = FindingFilter(dates=chosen.dates, matches=chosen.matches, depths=chosen.depths)
    where, params = on_matches.where(alias="m")
    return _depth_counts(*_key(archive()), "", (where,), tuple(params))


def player_depths(player: str) -> dict[str, int]:
    """How many of a player's analysed matches are at each depth."""
    return _depth_counts(*_key(archive()), "JOIN seats s USING (match_id)", ("s.player = ?",), (player,))


@st.cache_data(show_spinner=False)
def _league_table(path: str, version: int) -> pl.DataFrame:
    return _frame(
        path,
        """
        WITH played AS (
            SELECT s.player, s.match_id,
                   -- the three-player games score each person: their winner is a seat
                   coalesce(CASE WHEN m.variant IN ('three', 'three_dummy') THEN m.winner = s.seat
                                 ELSE m.winner = s.team END, false) AS won
            FROM seats s JOIN matches m USING (match_id)
            WHERE m.format = 'target' AND m.finished AND s.player IS NOT NULL
        ), deals AS (
            -- the deals that scored, a scoresheet line among them (a league kept on scoresheets)
            SELECT pd.player, count(*) FILTER (WHERE pd.kind IN ('played', 'scoresheet')) AS deals,
                   sum(pd.score_for - pd.score_against)
                       FILTER (WHERE pd.kind IN ('played', 'scoresheet')) AS net
            FROM player_deals pd JOIN played p USING (player, match_id)
            GROUP BY pd.player
        )
        SELECT p.player, count(*) AS matches, count(*) FILTER (WHERE p.won) AS won,
               round(100.0 * count(*) FILTER (WHERE p.won) / count(*), 1)::DOUBLE AS won_pct,
               coalesce(d.deals, 0) AS deals,
               round(d.net / nullif(d.deals, 0), 2)::DOUBLE AS net_per_deal
        FROM played p LEFT JOIN deals d USING (player)
        GROUP BY p.player, d.deals, d.net
        ORDER BY won DESC, won_pct DESC, p.player
        """,
    )


def league_table() -> pl.DataFrame:
    """Every player's finished matches to a target: played, won, the share won, their deals and
    the points their side scored less conceded a deal; the most matches won first (a league's
    standings beside the club evenings')."""
    return _league_table(*_key(archive()))


# --------------------------------------------------------------------------- players page


@st.cache_data(show_spinner=False)
def _player_summary(path: str, version: int, player: str) -> dict[str, Any]:
    frame = _frame(path, "SELECT * FROM player_summary WHERE player = ?", [player])
    return {} if frame.height == 0 else frame.row(0, named=True)


def player_summary(player: str) -> dict[str, Any]:
    """The ``player_summary`` row of one player (empty when unknown)."""
    return _player_summary(*_key(archive()), player)


@st.cache_data(show_spinner=False)
def _dealer_points(path: str, version: int, player: str) -> pl.DataFrame:
    return _frame(
        path,
        """
        SELECT is_dealer, count(*) AS deals, avg(score_for - score_against) AS points_per_deal
        FROM player_deals WHERE player = ? AND kind = 'played'
        GROUP BY is_dealer ORDER BY is_dealer DESC
        """,
        [player],
    )


def dealer_points(player: str) -> pl.DataFrame:
    """Net points per deal (scored minus conceded), as dealer and not.

    :returns: ``is_dealer, deals, points_per_deal``.
    """
    return _dealer_points(*_key(archive()), player)


@st.cache_data(show_spinner=False)
def _trump_choices(path: str, version: int, player: str) -> pl.DataFrame:
    return _frame(
        path,
        """
        SELECT coalesce(d.trump, d.contract) AS choice, count(*) AS deals,
               count(*) FILTER (WHERE d.score_team = d.dealing_team) AS won
        FROM deals d
        WHERE d.dealer_player = ? AND d.contract IS NOT NULL AND d.en_face = FALSE
        GROUP BY ALL ORDER BY deals DESC
        """,
        [player],
    )


def trump_choices(player: str) -> pl.DataFrame:
    """What a player made as dealer: ``choice`` (H, D, C, S, muil, blind_muil), ``deals``, ``won``."""
    return _trump_choices(*_key(archive()), player)


@st.cache_data(show_spinner=False)
def _contract_records(path: str, version: int, player: str) -> pl.DataFrame:
    return _frame(
        path,
        """
        SELECT
          count(*) FILTER (WHERE contract IN ('muil', 'blind_muil') AND on_dealing_team) AS muil,
          count(*) FILTER (WHERE contract IN ('muil', 'blind_muil') AND on_dealing_team AND won) AS muil_won,
          count(*) FILTER (WHERE knocks > 0 AND NOT on_dealing_team) AS klop,
          count(*) FILTER (WHERE knocks > 0 AND NOT on_dealing_team AND won) AS klop_won,
          count(*) FILTER (WHERE knocks > 0 AND on_dealing_team) AS knocked_against,
          count(*) FILTER (WHERE knocks > 0 AND on_dealing_team AND won) AS knocked_against_won
        FROM player_deals WHERE player = ? AND kind = 'played'
        """,
        [player],
    )


def contract_records(player: str) -> dict[str, int]:
    """Muil and klop deals of the player's team and how many it won."""
    row = _contract_records(*_key(archive()), player).row(0, named=True)
    return {name: int(value or 0) for name, value in row.items()}


@st.cache_data(show_spinner=False)
def _rate_over_time(path: str, version: int, player: str) -> pl.DataFrame:
    return _frame(
        path,
        """
        WITH played AS (
            SELECT date_trunc('month', coalesce(m.date, m.imported_at::DATE))::DATE AS month,
                   count(*) AS cards
            FROM plays p JOIN matches m USING (match_id)
            -- analysed matches only: a month waiting for its analysis has no findings yet, and
            -- drew a 0 that read as a month without mistakes
            WHERE p.player = $1 AND m.analysis_depth IS NOT NULL
            GROUP BY 1
        ), months AS (  -- every month from the first played to the last, played or not
            SELECT range::DATE AS month
            FROM range((SELECT min(month) FROM played)::TIMESTAMP,
                       (SELECT max(month) FROM played)::TIMESTAMP + INTERVAL 1 MONTH, INTERVAL 1 MONTH)
        ), found AS (  -- mistakes only: info (hindsight only, a knock lost) is no mistake, and
                       -- came in with the solver's review, month by month as it went
            SELECT month, severity, sum(findings) AS findings
            FROM player_findings WHERE player = $1 AND severity <> 'info' GROUP BY ALL
        ), shown AS (
            SELECT DISTINCT severity FROM found
        )
        -- a month played without findings is a 0 on the line; a month not played at all has no
        -- rate (null): the line breaks there instead of joining the months around it
        SELECT months.month, shown.severity,
               round(100.0 * coalesce(found.findings, 0) / played.cards, 2) AS per_100
        FROM months CROSS JOIN shown
        LEFT JOIN played ON played.month = months.month
        LEFT JOIN found ON found.month = months.month AND found.severity = shown.severity
        ORDER BY months.month, shown.severity
        """,
        [player],
    )


def rate_over_time(player: str) -> pl.DataFrame:
    """Findings per 100 cards month by month and severity (``month, severity, per_100``): every
    month from the player's first analysed match to the last, ``per_100`` null in a month with no
    analysed match (not played, or waiting for its analysis)."""
    return _rate_over_time(*_key(archive()), player)


@st.cache_data(show_spinner=False)
def _partners(path: str, version: int, player: str) -> pl.DataFrame:
    return _frame(
        path,
        """
        SELECT partner.player AS partner, count(*) AS deals,
               round(avg(me.score_for - me.score_against), 2) AS points_per_deal,
               round(100 * avg(CASE WHEN me.won THEN 1.0 ELSE 0.0 END), 1) AS won_share
        FROM player_deals me
        JOIN player_deals partner
          ON partner.match_id = me.match_id AND partner.deal = me.deal
         AND partner.team = me.team AND partner.seat <> me.seat
        WHERE me.player = ? AND me.kind = 'played'
        GROUP BY partner.player ORDER BY deals DESC
        """,
        [player],
    )


def partners(player: str) -> pl.DataFrame:
    """Each partner of a player: ``partner, deals, points_per_deal, won_share``."""
    return _partners(*_key(archive()), player)


# --------------------------------------------------------------------------- solver costs


@st.cache_data(show_spinner=False, max_entries=256)
def _deal_costs(path: str, version: int, match_id: str, deal: int) -> tuple[pl.DataFrame, pl.DataFrame]:
    costs = _frame(
        path,
        "SELECT trick, play, seat, player, card, dd_cost, view_cost, best, hindsight_best, layouts, exact, "
        "legal, forced FROM play_costs WHERE match_id = ? AND deal = ? ORDER BY trick, play",
        [match_id, deal],
    )
    values = _frame(
        path,
        "SELECT trick, play, card, hindsight, view FROM card_values WHERE match_id = ? AND deal = ? "
        "ORDER BY trick, play, view DESC NULLS LAST, hindsight DESC, card",
        [match_id, deal],
    )
    return costs, values


def deal_costs(match_id: str, deal: int) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The solver's costs of one deal: its ``play_costs`` and ``card_values`` rows (both empty
    when ``manillen analyze --depth solver`` has not costed it)."""
    return _deal_costs(*_key(archive()), match_id, deal)


@st.cache_data(show_spinner=False, max_entries=256)
def _deal_lines(path: str, version: int, match_id: str, deal: int) -> pl.DataFrame:
    return _frame(
        path,
        "SELECT trick, play, line, layout, first_card, step, line_trick, seat, card, held, winner, "
        "trick_points, team_points, layouts FROM finding_lines WHERE match_id = ? AND deal = ? "
        "ORDER BY trick, play, line, layout, step",
        [match_id, deal],
    )


def deal_lines(match_id: str, deal: int) -> pl.DataFrame:
    """The solver's lines of one deal's costly cards (``finding_lines``: after the card played and
    after the better card, on the layout chosen and on the real deal); empty when none are stored."""
    return _deal_lines(*_key(archive()), match_id, deal)


@st.cache_data(show_spinner=False, max_entries=256)
def _match_accuracy(path: str, version: int, match_id: str) -> pl.DataFrame:
    return _frame(
        path,
        "SELECT scope, deal, player, cards, calls, decisions, accuracy, avg_view_cost, avg_dd_cost "
        "FROM player_accuracy "
        "WHERE match_id = ? ORDER BY deal NULLS FIRST, player",
        [match_id],
    )


def match_accuracy(match_id: str) -> pl.DataFrame:
    """Each player's accuracy in a match (``scope`` ``match``) and in each of its deals (``deal``)."""
    return _match_accuracy(*_key(archive()), match_id)


@st.cache_data(show_spinner=False, max_entries=256)
def _biggest_mistakes(path: str, version: int, match_id: str, player: str | None, top: int) -> pl.DataFrame:
    with _archive(path).reading() as store:
        return store.biggest_mistakes([match_id], player=player, top=top)


def biggest_mistakes(match_id: str, player: str | None = None, top: int = 3) -> pl.DataFrame:
    """The costliest decisions of a match (``Store.biggest_mistakes``), of one player or of
    everyone: the costliest from the player's own view first, one finding per decision."""
    return _biggest_mistakes(*_key(archive()), match_id, player, top)


@st.cache_data(show_spinner=False, max_entries=256)
def _solver_review(path: str, version: int, match_id: str) -> str | None:
    with _archive(path).reading() as store:
        return stored_solver_review(store, match_id)


def solver_review(match_id: str) -> str | None:
    """The solver's review of a match in the archive: ``"current"``, ``"outdated"`` (made by an
    earlier version of the analysis, reviewed again in the background) or ``None``."""
    return _solver_review(*_key(archive()), match_id)


@st.cache_data(show_spinner=False)
def _player_accuracy(path: str, version: int, player: str) -> dict[str, Any]:
    frame = _frame(
        path,
        "SELECT cards, calls, decisions, accuracy, avg_view_cost FROM player_accuracy "
        "WHERE scope = 'all' AND player = ?",
        [player],
    )
    return {} if frame.height == 0 else frame.row(0, named=True)


def player_accuracy(player: str) -> dict[str, Any]:
    """A player's accuracy over every costed deal (``decisions``, ``cards``, ``calls``,
    ``accuracy``); empty without costs."""
    return _player_accuracy(*_key(archive()), player)


@st.cache_data(show_spinner=False, max_entries=256)
def _ledger(path: str, version: int, scope: str, match_id: str | None, player: str | None) -> pl.DataFrame:
    with _archive(path).reading() as store:
        return store.player_ledger(scope, match_id=match_id, player=player)


def match_ledger(match_id: str) -> pl.DataFrame:
    """Each player's ledger over one match (``player_ledger``, scope ``match``); empty without costs."""
    return _ledger(*_key(archive()), "match", match_id, None)


def match_dates(match_ids: list[str]) -> dict[str, Any]:
    """Each match's own date (``None`` for a match recorded without one)."""
    with archive().reading() as store:
        frame = store.query(
            "SELECT match_id, date FROM matches WHERE list_contains(?, match_id)", [match_ids]
        )
    return dict(frame.iter_rows())


def player_ledger(player: str, scope: str = "match") -> pl.DataFrame:
    """One player's ledger rows of a scope (``match``, ``evening`` or ``all``); empty without costs."""
    return _ledger(*_key(archive()), scope, None, player)


@st.cache_data(show_spinner=False, max_entries=32)
def _report(path: str, version: int, match_id: str, player: str | None, lang: str) -> bytes:
    from manillen_replay.report import make_report

    with _archive(path).reading() as store:
        return make_report(store, match_id, player=player, lang=lang).encode("utf-8")


def report_html(match_id: str, player: str | None, lang: str) -> bytes:
    """The match report (``manillen report``) as UTF-8 HTML, for one player or everyone.

    :raises ManillenError: for a player not in the match.
    """
    return _report(*_key(archive()), match_id, player, lang)


# --------------------------------------------------------------------------- after the review


def refresh_after_review(path: Path, *, rewarm: bool = True, match_id: str | None = None) -> None:
    """After the background review stored a match: drop the cached results of the archive's
    earlier versions and fill the caches again with what each page shows first (:func:`warm`).

    Every cached result is keyed by the archive's version, so those of an earlier version are
    never read again; kept, they would pile up with every match the review stores (hundreds
    while it works through an archive). Only for the dashboard's own archive.

    :param rewarm: fill the caches again (skipped while someone waits for the next review).
    :param match_id: the match just reviewed: only its Match page is filled in (:func:`warm_match`),
        the rest is left to a later :func:`warm`.
    """
    if Path(path).resolve() != archive().path.resolve():
        return
    for value in list(globals().values()):
        # the resources are kept: the archive's handle, and the SQL page's worker processes and
        # snapshots (a pool dropped here kept its processes and its copy of the archive)
        if isinstance(value, CachedFunc) and value not in (_archive, _console_pool):
            value.clear()
    if match_id is not None:
        warm_match(match_id)
    elif rewarm:
        warm()


def warm_after_review(path: Path) -> None:
    """Fill the caches with what each page shows first (:func:`warm`), after the background
    review said a match is ready (whose own page :func:`refresh_after_review` filled before).
    Only for the dashboard's own archive."""
    if Path(path).resolve() == archive().path.resolve():
        warm()


# --------------------------------------------------------------------------- warming


def warm_match(match_id: str) -> None:
    """Fill the caches with what the Match page of ``match_id`` shows first (the page's own
    arguments, so it finds them under the same keys): what a person waits for after a review."""
    if not archive().exists():
        return
    match_ids()
    matches()
    solver_review(match_id)
    if replayed(match_id) is None:
        return
    for per_match in (match_info, findings_per_deal, match_accuracy, match_ledger):
        per_match(match_id)
    biggest_mistakes(match_id)


def warm() -> None:
    """Fill the caches with what each page shows first, so the first visitor waits for no query.

    Run once by ``dashboards/serve.py`` while the server starts: the Archive, Mistakes and
    Annotations pages unfiltered, and the Match, Deal replay and Players pages for the newest
    match (the Archive table's first row) and the first player. The arguments are the pages'
    defaults, so the pages find these results under the same cache keys.
    """
    if not archive().exists():
        return
    for listing in (counts, players, venues, variants, date_range, matches, match_ids, finding_choices):
        listing()
    all_annotations()
    unfiltered = FindingFilter(severities=MISTAKE_SEVERITIES)
    findings(unfiltered)
    finding_rates(unfiltered)
    ids = match_ids()
    if ids:
        newest = ids[0]
        result = replayed(newest)
        for per_match in (match_info, findings_per_deal, match_accuracy, match_ledger):
            per_match(newest)
        playable = [deal.number for deal in result.deals if deal.tricks] if result else []
        if playable:
            deal_findings(newest, playable[0])
            deal_costs(newest, playable[0])
            deal_annotations(newest, playable[0])
    names = players()
    if names:
        first = names[0]
        for per_player in (
            player_summary,
            player_accuracy,
            dealer_points,
            trump_choices,
            contract_records,
            rate_over_time,
            partners,
        ):
            per_player(first)
        finding_rates(FindingFilter(players=(first,)))
        player_ledger(first, "match")
        player_ledger(first, "all")


# --------------------------------------------------------------------------- puzzles


@st.cache_data(show_spinner=False)
def _costs_stamp(path: str, version: int) -> tuple[str, int]:
    row = _frame(
        path, "SELECT CAST(max(analysed_at) AS VARCHAR) AS last, count(*) AS matches FROM matches"
    ).row(0)
    return (str(row[0]), int(row[1]))


@st.cache_data(show_spinner=False, max_entries=64)
def _puzzles(path: str, stamp: tuple[str, int], player: str) -> list[Puzzle]:
    with _archive(path).reading() as store:
        tables = store.puzzle_rows(player=player)
    return make_puzzles(tables, player=player)


def puzzles(player: str) -> list[Puzzle]:
    """A player's puzzles (:func:`manillen_replay.analysis.puzzles.make_puzzles`), made again only
    when an analysis or an import changed the archive: an answer kept does not remake them."""
    current = archive()
    return _puzzles(str(current.path), _costs_stamp(*_key(current)), player)


@st.cache_data(show_spinner=False)
def _puzzle_reviews(path: str, version: int, player: str) -> dict[str, Review]:
    with _archive(path).reading() as store:
        return store.puzzle_reviews(player)


def puzzle_reviews(player: str) -> dict[str, Review]:
    """Where each of a player's puzzles stands: its Leitner box, when it is due again."""
    return _puzzle_reviews(*_key(archive()), player)


def answer_puzzle(player: str, puzzle_id: str, answer: str, right: bool) -> Review:
    """Keep an answer to a puzzle (anyone who may view the archive may train).

    :raises ArchiveLockedError: when another program holds the archive.
    """
    with archive().writing() as store:
        return store.answer_puzzle(player, puzzle_id, answer, right)
