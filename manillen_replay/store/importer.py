"""The import pipeline: records into the archive, one transaction per file, in Arrow batches.

The main thread decodes, replays and builds batches (:mod:`.batch`); a loader thread
(:mod:`.loader`) writes them; DuckDB spills to a folder of the import's own (:mod:`.processes`).
"""

from __future__ import annotations

import contextlib
import datetime
import gc
import hashlib
import io
import itertools
import json
import re
import shutil
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

import duckdb
import polars as pl

from ..archive_defaults import ANALYSIS_DEPTHS, IMPORT_MEMORY_LIMIT
from ..club_rules import ClubRules, with_club_rules
from ..errors import InvalidRecordError, ManillenError, RecordError
from ..record import Entry, Record, dumps, iter_entries
from ..record.io import STDIN_SOURCE
from .connection import StoreBase, _duckdb_message, _first, _interrupted, _sql_text
from .errors import ArchiveError, NoSuchVersionError
from .export import _merge_annotations
from .processes import _spill_folder
from .schema import _MATCH_TABLES, ANALYSIS_TABLES

# The pipeline's parts (the batches' Arrow tables, the loader thread, the replay: pyarrow, numpy and
# the engine) are imported by the methods that import records, so that a Store opened to read
# (`manillen sql`, `findings --db`, `export`, the rules) does not load them.
if TYPE_CHECKING:
    from ..engine import MatchResult
    from ..engine.replay import PlayedDeal
    from .batch import CommentKey, _Batch, _Pending
    from .loader import _Loader


@dataclass(frozen=True)
class Replacement:
    """A match in the archive that an import replaced (or, asked first, would replace) with other
    content under the same id; the replaced version is kept in ``match_versions``."""

    match_id: str
    deals_before: int | None
    """Deals of the match in the archive, or in the earlier record of the same file (``None``
    when not known)."""
    deals_after: int
    """Deals of the match that replaces it."""
    place: str
    """Where the replacing record is (``file`` or ``file:line``)."""
    earlier_place: str | None = None
    """Where the replaced record is when it came earlier in the same import (a file holding
    two records of one match id); ``None`` when it was in the archive."""
    comments: int = 0
    """The coach comments the archive had on the match that stay with the new version (those on a
    deal, trick or play it still has), beside the new record's own."""
    analysis_kept: bool = False
    """Whether the match's analysis stays: only its date, venue, event or notes changed."""

    def describe(self) -> str:
        """``zwaan-1 (15 deals in the archive, 1 deal in club.jsonl:3)``, or for a match twice in
        one file ``zwaan-1 (15 deals in club.jsonl:1, 1 deal in club.jsonl:3)``; the coach
        comments it keeps after them (``; its 4 coach comments kept``)."""
        where = "the archive" if self.earlier_place is None else self.earlier_place
        before = "" if self.deals_before is None else f"{_deals(self.deals_before)} in {where}, "
        kept = ""
        if self.comments:
            comments = "coach comment" if self.comments == 1 else f"{self.comments} coach comments"
            kept = f"; its {comments} kept"
        if self.analysis_kept:
            kept += "; its analysis kept: only the match's details changed"
        return f"{self.match_id} ({before}{_deals(self.deals_after)} in {self.place}{kept})"


def _deals(count: int) -> str:
    return f"{count} deal" + ("" if count == 1 else "s")


@dataclass(frozen=True)
class RestoredVersion:
    """What putting back an earlier version of a match did (:meth:`ImportMixin.restore_version`)."""

    version: int
    """The version put back."""
    summary: ImportSummary
    """What its import did (``skipped`` when the match was already so, ``refused`` with its problems)."""
    analysis: bool
    """Whether the version's analysis (findings, the solver's costs and reviews) came back with it."""


@dataclass
class ImportSummary:
    """What an import did; filled as it goes, so a caller holding it sees the files committed."""

    imported: int = 0
    """Matches new to the archive."""
    replaced: int = 0
    """Known matches (same id) whose content changed: the old rows were replaced."""
    skipped: int = 0
    """Matches already in the archive with the same content."""
    kept: int = 0
    """Known matches whose content changed, left as they were (an import told not to replace)."""
    refused: int = 0
    """Invalid records, kept in the ``rejects`` table."""
    deals: int = 0
    """Deals loaded (of imported and replaced matches)."""
    files: int = 0
    """Files whose transaction was committed."""
    rejects: list[RecordError] = field(default_factory=list)
    """Every problem of every refused record kept, with its place (the first
    :data:`~.batch.MAX_REJECTS_KEPT` of a file, then one saying how many more)."""
    not_kept: int = 0
    """Refused records past the first :data:`~.batch.MAX_REJECTS_KEPT` of their file: counted in
    ``refused``, their problems not kept."""
    replacements: list[Replacement] = field(default_factory=list)
    """Each match replaced (its earlier version kept in ``match_versions``)."""
    comments_added: int = 0
    """Coach comments added to matches the archive already held the same game of (counted in
    ``skipped``): a record that differs from the archive's only by its comments."""
    underway: str | None = None
    """The file being imported, not committed yet (what an interrupted import rolled back)."""

    @property
    def matches(self) -> int:
        """Every match handled, refused or not."""
        return self.imported + self.replaced + self.skipped + self.kept + self.refused

    def add(self, other: ImportSummary) -> None:
        """Count another (committed) part of the import in."""
        self.imported += other.imported
        self.replaced += other.replaced
        self.skipped += other.skipped
        self.kept += other.kept
        self.refused += other.refused
        self.not_kept += other.not_kept
        self.deals += other.deals
        self.files += other.files
        self.rejects.extend(other.rejects)
        self.replacements.extend(other.replacements)
        self.comments_added += other.comments_added


class _Loaded(NamedTuple):
    """A match loaded in the file's transaction: its content hash (what a later record of the
    same id is compared with), where it came from and its deals (named when such a record
    replaces it)."""

    content_hash: str
    source: str
    line: int | None
    deals: int

    @property
    def place(self) -> str:
        return self.source if self.line is None else f"{self.source}:{self.line}"


@dataclass
class _FileState:
    """What one file's import carries from batch to batch inside its transaction."""

    order: int
    """The next ``matches.import_order``."""
    annotation_id: int
    """The next ``annotations.annotation_id``."""
    columns: dict[str, list[str]]
    """The columns of each table the import writes, in the table's order."""
    loaded: dict[str, _Loaded] = field(default_factory=dict)
    """Each match loaded in this transaction (not yet visible to other readers)."""
    replace: bool = True
    """Whether a known match with other content replaces the archive's (else it is kept)."""
    club: ClubRules | None = None
    """A club's rules for the records that name none (see :meth:`ImportMixin.import_entries`)."""
    before_commit: Callable[[duckdb.DuckDBPyConnection, ImportSummary], None] | None = None
    """Run on the archive's connection once the file's rows are loaded, inside its transaction
    (see :meth:`ImportMixin.import_entries`)."""


@dataclass
class _Committed:
    """What the archive holds of matches a file's records would change (:func:`_committed_games`)."""

    same_game: set[str] = field(default_factory=set)
    """The records that are the archive's game with other coach comments only."""
    same_play: set[str] = field(default_factory=set)
    """The records whose seats, rules and deals are the archive's: only the match's date, venue,
    event or notes differ, and the analysis (which those do not touch) stays."""
    comments: dict[str, set[CommentKey]] = field(default_factory=dict)
    """The coach comments the archive has on each match (each as :data:`~.batch.CommentKey`)."""


DETAILS = ("date", "venue", "event", "notes")
"""The fields of a record's ``match`` no analysis reads: a record changing only these keeps it."""


def _committed_games(reader: duckdb.DuckDBPyConnection, records: dict[str, tuple[Record, str]]) -> _Committed:
    """What the archive holds of these matches (by match id: the record and its canonical text)
    against the records that would change them."""
    from .batch import game_text

    found = _Committed()
    if not records:
        return found
    rows = reader.execute(
        """SELECT m.match_id, m.record,
                  (SELECT list([a.deal::VARCHAR, a.trick::VARCHAR, a.play::VARCHAR, a.author, a.text])
                   FROM annotations a WHERE a.match_id = m.match_id)
           FROM matches m WHERE m.match_id IN (SELECT unnest(?::VARCHAR[]))""",
        [list(records)],
    ).fetchall()
    for mid, stored, notes in rows:
        found.comments[mid] = {
            (int(deal), _number(trick), _number(play), str(author), str(text))
            for deal, trick, play, author, text in notes or []
        }
        record, canonical = records[mid]
        game = game_text(record, canonical)
        if stored == game:
            found.same_game.add(mid)
        elif _without_details(stored) == _without_details(game):
            found.same_play.add(mid)
    return found


def _without_details(text: str) -> Any:
    """A record's JSON without the match's :data:`DETAILS`."""
    document = json.loads(text)
    match = document.get("match")
    if isinstance(match, dict):
        for name in DETAILS:
            match.pop(name, None)
    return document


def game_digest(record_text: str) -> str:
    """The SHA-256 of a stored record's game (``matches.record``) without the match's
    :data:`DETAILS`: what an analysis made elsewhere (``manillen analyze-files``) is checked
    against, as an import keeps a match's analysis when only those changed."""
    game = json.dumps(_without_details(record_text), ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(game.encode()).hexdigest()


def _comments_kept(comments: set[CommentKey], tricks: Sequence[Sequence[int]]) -> int:
    """How many of a replaced match's coach comments have their deal, trick and play in the
    version replacing it (the others stay in the version kept).

    :param tricks: the new version's cards in each trick, deal by deal.

    >>> _comments_kept({(1, 2, 4, "a", "x"), (1, None, None, "a", "y"), (2, None, None, "a", "z")}, [[4, 4]])
    2
    """
    kept = 0
    for deal, trick, play, _author, _text in comments:
        if deal > len(tricks):
            continue
        sizes = tricks[deal - 1]
        if trick is not None and (trick > len(sizes) or (play is not None and play > sizes[trick - 1])):
            continue
        kept += 1
    return kept


def _written_tricks(record: Record) -> list[list[int]]:
    """A record's cards in each trick, deal by deal, as written (before it is replayed)."""
    return [
        [len(trick) for trick in deal.tricks] if isinstance(deal.tricks, list) else []
        for deal in record.deals
    ]


def _number(text: str | None) -> int | None:
    return None if text is None else int(text)


def _committed_hashes(reader: duckdb.DuckDBPyConnection, ids: list[str]) -> dict[str, str]:
    """The content hash of each of these matches already committed to the archive."""
    if not ids:
        return {}
    rows = reader.execute(
        "SELECT match_id, content_hash FROM matches WHERE match_id IN (SELECT unnest(?::VARCHAR[]))", [ids]
    ).fetchall()
    return {row[0]: row[1] for row in rows}


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
            f"a memory limit of {text.strip()!r} is too small for DuckDB to work in: give at least "
            f"{MINIMUM_MEMORY_LIMIT // 10**6}MB"
        )
    return size


class ImportMixin(StoreBase):
    """Importing records into the archive (see :meth:`import_entries`)."""

    _loader: _Loader | None

    LOAD_BYTES: ClassVar[int] = 16_000_000
    """Bytes of Arrow tables held back before the loader writes (some three batches): one
    statement a table for many batches costs DuckDB less than one a batch; each table waits
    until it holds half of this (see :class:`~.loader._Loader`)."""

    def import_paths(
        self,
        paths: Iterable[str | Path],
        on_progress: Callable[[int], None] | None = None,
        *,
        summary: ImportSummary | None = None,
        memory_limit: str | None = IMPORT_MEMORY_LIMIT,
        replace: bool = True,
        club: ClubRules | None = None,
    ) -> ImportSummary:
        """Import every record in ``.json`` files, ``.jsonl`` archives and folders of them.

        :param on_progress: called after each batch with the number of records it handled.
        :param summary: see :meth:`import_entries`.
        :param memory_limit: see :meth:`import_entries`.
        :param replace: see :meth:`import_entries`.
        :param club: see :meth:`import_entries`.
        :raises FileNotFoundError: for a path that does not exist (files before it are committed).
        :raises ArchiveError: when the archive cannot be written (that file is rolled back).
        :raises ManillenError: for a memory limit that is not a size (before anything is read).
        """
        return self.import_entries(
            iter_entries(paths),
            on_progress=on_progress,
            summary=summary,
            memory_limit=memory_limit,
            replace=replace,
            club=club,
        )

    def import_entries(
        self,
        entries: Iterable[Entry],
        *,
        on_progress: Callable[[int], None] | None = None,
        summary: ImportSummary | None = None,
        memory_limit: str | None = IMPORT_MEMORY_LIMIT,
        replace: bool = True,
        club: ClubRules | None = None,
        before_commit: Callable[[duckdb.DuckDBPyConnection, ImportSummary], None] | None = None,
    ) -> ImportSummary:
        """Import records: one transaction per source file, loaded in Arrow batches.

        A record already present with the same content is skipped; one whose id is known but
        whose content changed replaces the old rows, and the old version is kept in
        ``match_versions`` (:meth:`restore_version` puts it back); an invalid one goes to
        ``rejects``.

        :param entries: documents, as :func:`manillen_replay.record.iter_entries` yields them.
        :param on_progress: called after each batch with the number of records it handled.
        :param summary: counts of the files committed so far are added to it as the import goes
            (pass one to see what was kept when the import is interrupted); new when omitted.
        :param memory_limit: how much memory DuckDB may hold while importing into an archive
            file (see :func:`parse_memory_limit`) before it moves data it is writing to temporary
            files beside the archive; ``None`` leaves DuckDB's own limit (most of the machine's
            memory). An in-memory archive has no limit: its data cannot go anywhere else.
        :param replace: ``False`` keeps the archive's version of a known match whose content
            changed (counted in ``kept``) instead of replacing it.
        :param club: a club's rules (``manillen import --rules NAME``): written into each record
            that names no house rules (or no variant) of its own, so the archive keeps them with
            the match; a record that names others than the club's is refused (see
            :func:`~manillen_replay.club_rules.with_club_rules`), the others go on.
        :param before_commit: called with the archive's connection and the file's counts once a
            file's rows are loaded, inside its transaction, so that what it writes goes in with
            them or not at all (:meth:`restore_version` puts a version's analysis back so).
        :raises ArchiveError: when the archive cannot be written; the current file is rolled back.
        :raises ManillenError: for a memory limit that is not a size (before anything is read).
        :raises KeyboardInterrupt: re-raised after the current file is rolled back.
        """
        from ..bulk import collection_paused

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
            stack.enter_context(collection_paused())
            for source, group in itertools.groupby(entries, key=lambda entry: entry.source):
                state = _FileState(
                    order=0,
                    annotation_id=0,
                    columns=columns,
                    replace=replace,
                    club=club,
                    before_commit=before_commit,
                )
                self._import_file(source, group, state, reader, summary, on_progress)
            self._checkpoint()
        return summary

    def replacements_of(
        self, entries: Iterable[Entry], *, club: ClubRules | None = None
    ) -> list[Replacement]:
        """The matches in the archive that importing these records would replace: the same id
        with other content (asked before an import that should not replace without a question;
        the archive may be open read-only). With ``club``, each record as the import with those
        club rules would keep it (:meth:`import_entries`)."""
        from ..engine import match_id

        pending: dict[str, tuple[str, Record, str, str]] = {}
        for entry in entries:
            try:
                record = entry.decode(variant=None if club is None else club.rules.variant)
                if club is not None:
                    with_club_rules(record, club)
                canonical = dumps(record, pretty=False)
            except Exception:  # a record the import would refuse replaces nothing
                continue
            digest = hashlib.sha256(canonical.encode()).hexdigest()
            pending[match_id(record)] = (digest, record, canonical, entry.place)
        if not pending:
            return []
        rows = self._con.execute(
            "SELECT match_id, content_hash, deals FROM matches "
            "WHERE match_id IN (SELECT unnest(?::VARCHAR[])) ORDER BY import_order",
            [list(pending)],
        ).fetchall()
        changed = {
            mid: (pending[mid][1], pending[mid][2]) for mid, digest, _ in rows if digest != pending[mid][0]
        }
        held = _committed_games(self._con, changed)
        return [
            Replacement(
                mid,
                int(deals),
                len(pending[mid][1].deals),
                pending[mid][3],
                comments=_comments_kept(held.comments.get(mid, set()), _written_tricks(pending[mid][1])),
                analysis_kept=mid in held.same_play,
            )
            for mid, _, deals in rows
            if mid in changed and mid not in held.same_game
        ]

    def restore_version(self, match: str, version: int | None = None) -> RestoredVersion:
        """Put an earlier version of a match back (the latest one kept, or ``version``), as an
        import of that record, with the analysis it had when it was replaced (its findings, costs
        and reviews): the version it replaces is kept in turn, with its own analysis, so a restore
        is undone the same way. All of it goes in one transaction.

        :returns: the version restored, what the import did, and whether its analysis came back.
        :raises NoSuchVersionError: when the archive keeps no such version of the match.
        :raises ArchiveError: when the archive cannot be written.
        """
        self._check_writable()
        rows = self._con.execute(
            "SELECT version, record FROM match_versions WHERE match_id = ? ORDER BY version DESC",
            [match],
        ).fetchall()
        chosen = [row for row in rows if version is None or row[0] == version]
        if not chosen:
            kept = ", ".join(str(row[0]) for row in reversed(rows))
            if not rows:
                raise NoSuchVersionError(f"the archive keeps no earlier version of match {match!r}")
            raise NoSuchVersionError(
                f"match {match!r} has no version {version}: the versions kept are {kept}"
            )
        number, text = chosen[0]
        entry = Entry(f"version {number} of {match}", None, str(text).encode())
        analysis: list[bool] = []

        def put_back(con: duckdb.DuckDBPyConnection, counts: ImportSummary) -> None:
            if counts.replaced:
                analysis.append(_put_back_analysis(con, match, int(number)))

        summary = self.import_entries([entry], before_commit=put_back)
        return RestoredVersion(int(number), summary, any(analysis))

    def _load_columns(self) -> dict[str, list[str]]:
        """The columns of each table an import writes, in the table's order."""
        from .batch import _LOAD_ORDER

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
                if name == "temp_directory" and _sql_text(_current(self._con, name)) == value:
                    # still this process's folder from an import before whose rows spilled there:
                    # DuckDB refuses to switch away from a folder it used, and to it again
                    continue
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
        state: _FileState,
        reader: duckdb.DuckDBPyConnection,
        summary: ImportSummary,
        on_progress: Callable[[int], None] | None,
    ) -> None:
        """One file in one transaction; its counts join ``summary`` only once it is committed.

        :param state: the import's settings for the file (its columns, ``replace``, ``club``,
            ``before_commit``); the numbers it starts from are read inside the transaction.
        """
        from ..bulk import read_quickly
        from .batch import _Batch
        from .loader import _Loader

        counts = ImportSummary()
        summary.underway = source
        loader: _Loader | None = None
        committing = False
        try:
            self._con.execute("BEGIN TRANSACTION")
            # The rejects of a file describe its latest import only; every pipe is "<stdin>", and
            # one pipe's import is no newer version of another's: their rejects are all kept
            if source != STDIN_SOURCE:
                self._con.execute("DELETE FROM rejects WHERE source = ?", [source])
            state.order = self._next_value("matches", "import_order")
            state.annotation_id = self._next_value("annotations", "annotation_id")
            # From here until loader.finish() only the loader thread uses self._con.
            self._analysis_kept: set[str] = set()
            loader = self._loader = _Loader(self._load, gather=self.LOAD_BYTES)
            batch = _Batch()
            documents = iter(entries)
            # A chunk fills the batch: its records are all pending when the batch goes (the
            # collection after it then scans no record read ahead).
            while chunk := list(itertools.islice(documents, self.BATCH_SIZE - len(batch.pending))):
                # Without club rules (which may change a record's rules), the reader's checks of
                # each deal's cards are made for the chunk at once by the replay's compiled pass.
                quick = read_quickly(chunk) if state.club is None else [None] * len(chunk)
                for entry, ready in zip(chunk, quick, strict=True):
                    item = self._decode(entry, batch, counts, state.club, ready)
                    if item is None:
                        continue
                    if item.match_id in batch.pending:
                        # The same id twice: send what is pending first, so the second copy is
                        # compared with the first (skipped, or replacing it).
                        self._flush(batch, state, reader, counts, loader, on_progress)
                        batch = _Batch()
                    batch.pending[item.match_id] = item
                del chunk, quick, entry, ready
                if len(batch.pending) >= self.BATCH_SIZE:
                    self._flush(batch, state, reader, counts, loader, on_progress)
                    batch = _Batch()
            self._flush(batch, state, reader, counts, loader, on_progress)
            if counts.not_kept:
                rest = _Batch()
                rest.reject_rest(source, counts)
                loader.submit(_loads(rest.tables(), state), [])
            loader.finish()
            if state.before_commit is not None:
                state.before_commit(self._con, counts)
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
                summary.underway = None
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
        summary.underway = None

    def _decode(
        self,
        entry: Entry,
        batch: _Batch,
        counts: ImportSummary,
        club: ClubRules | None = None,
        ready: tuple[Record, dict[int, PlayedDeal]] | None = None,
    ) -> _Pending | None:
        """One entry decoded (with the club's rules, when given and it names none) and hashed,
        or ``None`` when it is not a record or names other rules than the club's (then rejected).

        :param ready: the record already read, and its plays, by :func:`~manillen_replay.bulk.read_quickly`.
        """
        from ..engine import match_id
        from .batch import _Pending

        played = None
        try:
            if ready is not None:
                record, played = ready
            else:
                record = entry.decode(variant=None if club is None else club.rules.variant)
            if club is not None:
                with_club_rules(record, club)
            canonical = dumps(record, pretty=False)
        except InvalidRecordError as error:
            batch.reject(entry, error.problems, counts)
            return None
        except RecordError as error:
            batch.reject(entry, [error], counts)
            return None
        except Exception as error:  # one record that breaks the reader must not stop the others
            batch.reject(entry, [_failure("read", error)], counts)
            return None
        digest = hashlib.sha256(canonical.encode()).hexdigest()
        return _Pending(entry, record, match_id(record), canonical, digest, played)

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
        from ..bulk import replay_many, replay_ready
        from ..engine.replay import CardsUnread
        from .batch import add_new_comments

        handled = len(batch.pending) + batch.rejected
        known = _committed_hashes(reader, [mid for mid in batch.pending if mid not in state.loaded])
        known.update((mid, state.loaded[mid].content_hash) for mid in batch.pending if mid in state.loaded)
        now = datetime.datetime.now()
        ids = iter(range(state.annotation_id, 1 << 62))
        replaced: list[str] = []
        added: list[tuple[_Pending, MatchResult, int, int]] = []
        changed = [mid for mid, old in known.items() if old != batch.pending[mid].content_hash]
        committed = [mid for mid in changed if mid not in state.loaded]
        before = _committed_deals(reader, committed)
        held = _committed_games(
            reader, {mid: (batch.pending[mid].record, batch.pending[mid].canonical) for mid in committed}
        )
        comments = held.comments
        todo: list[tuple[str, _Pending, str | None]] = []
        for mid, item in batch.pending.items():
            old = known.get(mid)
            if old == item.content_hash:
                counts.skipped += 1
                continue
            if mid in held.same_game:
                # the same game with other comments (an export of the archive, a version put
                # back): the archive's match and its analysis stay; comments it lacks are added
                counts.skipped += 1
                counts.comments_added += add_new_comments(
                    item.record, mid, comments[mid], batch.annotations, ids, now
                )
                continue
            if old is not None and not state.replace:
                counts.kept += 1
                continue
            todo.append((mid, item, old))
        replays = replay_ready(
            [item.record for _, item, _ in todo],
            [item.played for _, item, _ in todo],
            [(item.entry.source, item.entry.line) for _, item, _ in todo],
        )
        for (mid, item, old), replayed in zip(todo, replays, strict=True):
            mark = batch.mark()
            first_id = next(ids)
            try:
                if isinstance(replayed, CardsUnread):
                    # A deal of a record read quickly that must be played card by card: the
                    # record read in full (the same canonical text, so the same hash) and replayed.
                    item.record = item.entry.decode()
                    replayed = replay_many([item.record], [(item.entry.source, item.entry.line)])[0]
                if isinstance(replayed, Exception):
                    raise replayed
                result = replayed
                counts.deals += batch.add_match(
                    item, result, state.order, itertools.chain([first_id], ids), now
                )
            except InvalidRecordError as error:
                batch.reject(item.entry, error.problems, counts)
                continue
            except RecordError as error:
                batch.undo(mark)
                batch.reject(item.entry, [error], counts)
                continue
            except Exception as error:  # a match the replay or the rows cannot take is refused alone
                batch.undo(mark)
                batch.reject(item.entry, [_failure("import", error)], counts)
                continue
            added.append((item, result, state.order, first_id))
            state.order += 1
            earlier = state.loaded.get(mid)
            state.loaded[mid] = _Loaded(
                item.content_hash, item.entry.source, item.entry.line, len(result.deals)
            )
            if old is None:
                counts.imported += 1
            else:
                replaced.append(mid)
                counts.replaced += 1
                if mid in held.same_play and earlier is None:
                    self._analysis_kept.add(mid)  # read by the loader thread (_load), after this
                counts.replacements.append(
                    Replacement(
                        mid,
                        before.get(mid),
                        len(result.deals),
                        item.entry.place,
                        comments=_comments_kept(
                            comments.get(mid, set()), [[len(t.cards) for t in d.tricks] for d in result.deals]
                        ),
                        analysis_kept=mid in held.same_play,
                    )
                    if earlier is None
                    else Replacement(mid, earlier.deals, len(result.deals), item.entry.place, earlier.place)
                )
        state.annotation_id = next(ids)
        if replaced or len(batch.matches) or len(batch.annotations) or batch.rejected:
            try:
                tables = batch.tables()
            except Exception:  # a row Arrow cannot take: find its match, refuse it alone
                self._submit_one_by_one(batch, added, replaced, state, counts, loader, now)
            else:
                loader.submit(_loads(tables, state), replaced)
        batch.pending.clear()
        # Automatic collection is paused: free any young cycles, batch by batch, once the batch's
        # replays are dropped (a collection scans every young object still alive).
        del added, replays, todo
        gc.collect(1)
        if on_progress is not None and handled:
            on_progress(handled)

    def _submit_one_by_one(
        self,
        batch: _Batch,
        added: list[tuple[_Pending, MatchResult, int, int]],
        replaced: list[str],
        state: _FileState,
        counts: ImportSummary,
        loader: _Loader,
        now: datetime.datetime,
    ) -> None:
        """Load a batch whose tables could not be built match by match, refusing the matches
        whose own rows cannot be built; each keeps the import order and annotation ids it had."""
        from .batch import _Batch

        refused = _Batch()
        refused.rejects.rows.extend(batch.rejects.rows)
        for item, result, order, first_id in added:
            single = _Batch()
            single.add_match(item, result, order, itertools.count(first_id), now)
            mid = item.match_id
            try:
                tables = single.tables()
            except Exception as error:
                counts.deals -= len(result.deals)
                if mid in replaced:
                    counts.replaced -= 1
                    counts.replacements = [r for r in counts.replacements if r.match_id != mid]
                else:
                    counts.imported -= 1
                state.loaded.pop(mid, None)
                refused.reject(item.entry, [_failure("store", error)], counts)
                continue
            loader.submit(_loads(tables, state), [mid] if mid in replaced else [])
        if len(refused.rejects):
            loader.submit(_loads(refused.tables(), state), [])

    def _next_value(self, table: str, column: str) -> int:
        row = _first(self._con.execute(f"SELECT coalesce(max({column}), 0) + 1 FROM {table}").fetchall())
        return int(row[0]) if row else 1

    def _load(self, loads: list[tuple[str, Any]], replaced: list[str]) -> None:
        """Load one batch: delete the replaced matches, insert the rows.

        :param loads: each archive table and the Arrow table of its rows, columns in its order.
        """
        con = self._con
        loader = self._loader
        if replaced:
            _keep_versions(con, replaced)
        # a match whose cards are the same (its venue corrected, say) keeps its analysis
        analysed = [mid for mid in replaced if mid not in self._analysis_kept]
        for table in (*_MATCH_TABLES, "matches") if replaced else ():
            if loader is not None and loader.cancelled:
                return
            if table == "annotations":
                continue  # a coach's comments stay with the new version (_drop_stray_comments)
            gone = analysed if table in ANALYSIS_TABLES else replaced
            con.execute(f"DELETE FROM {table} WHERE match_id IN (SELECT unnest(?::VARCHAR[]))", [gone])
        for target, rows in loads:
            if loader is not None and loader.cancelled:
                return  # the file is being rolled back: stop writing to it
            con.from_arrow(rows).insert_into(target)
        if replaced:
            _drop_stray_comments(con, replaced)
            kept = [mid for mid in replaced if mid in self._analysis_kept]
            if kept:
                _restore_depth(con, kept)


def _current(con: duckdb.DuckDBPyConnection, setting: str) -> str:
    row = _first(con.execute("SELECT current_setting(?)", [setting]).fetchall())
    return "" if row is None else str(row[0])


def _restore_depth(con: duckdb.DuckDBPyConnection, matches: list[str]) -> None:
    """The depth and time of the analysis kept with a replaced match (its version just kept in
    ``match_versions`` has them), on its new row."""
    con.execute(
        """UPDATE matches m SET analysed_at = v.analysed_at, analysis_depth = v.analysis_depth,
                                analysis_revision = v.analysis_revision
           FROM match_versions v
           WHERE m.match_id IN (SELECT unnest(?::VARCHAR[])) AND v.match_id = m.match_id
             AND v.version = (SELECT max(w.version) FROM match_versions w WHERE w.match_id = m.match_id)""",
        [matches],
    )


def _drop_stray_comments(con: duckdb.DuckDBPyConnection, replaced: list[str]) -> None:
    """Of the coach comments the replaced matches kept, drop those on a deal, trick or play the
    new version does not have (the version kept in ``match_versions`` still holds them), and those
    the new record brought again (the same place, author and text: the earlier one stays)."""
    con.execute(
        """DELETE FROM annotations a
           WHERE a.match_id IN (SELECT unnest(?::VARCHAR[]))
             AND (NOT EXISTS (SELECT 1 FROM deals d WHERE d.match_id = a.match_id AND d.deal = a.deal)
                  OR (a.trick IS NOT NULL AND NOT EXISTS (
                        SELECT 1 FROM tricks t WHERE t.match_id = a.match_id AND t.deal = a.deal
                          AND t.trick = a.trick AND (a.play IS NULL OR a.play <= t.cards)))
                  OR EXISTS (
                        SELECT 1 FROM annotations b WHERE b.match_id = a.match_id AND b.deal = a.deal
                          AND b.trick IS NOT DISTINCT FROM a.trick
                          AND b.play IS NOT DISTINCT FROM a.play AND b.author = a.author
                          AND b.text = a.text AND b.annotation_id < a.annotation_id))""",
        [replaced],
    )


def _committed_deals(reader: duckdb.DuckDBPyConnection, ids: list[str]) -> dict[str, int]:
    """The number of deals of each of these matches already committed to the archive."""
    if not ids:
        return {}
    rows = reader.execute(
        "SELECT match_id, deals FROM matches WHERE match_id IN (SELECT unnest(?::VARCHAR[]))", [ids]
    ).fetchall()
    return {row[0]: int(row[1]) for row in rows}


def _keep_versions(con: duckdb.DuckDBPyConnection, replaced: list[str]) -> None:
    """Copy the matches about to be replaced into ``match_versions``: each record as ``manillen
    export --records`` would write it (the archive's annotations merged back in), numbered after
    the match's earlier versions."""
    rows = con.execute(
        """
        SELECT m.match_id,
               (SELECT coalesce(max(v.version), 0) + 1 FROM match_versions v WHERE v.match_id = m.match_id),
               m.record, m.deals, m.source, m.line, m.imported_at, m.analysed_at, m.analysis_depth,
               m.analysis_revision,
               (SELECT list({'deal': a.deal, 'trick': a.trick, 'play': a.play, 'author': a.author,
                             'text': a.text, 'tags': a.tags, 'line': a.line} ORDER BY a.annotation_id)
                FROM annotations a WHERE a.match_id = m.match_id)
        FROM matches m WHERE m.match_id IN (SELECT unnest(?::VARCHAR[]))
        ORDER BY m.import_order
        """,
        [replaced],
    ).fetchall()
    if not rows:
        return
    records = [_merge_annotations(row[2], row[10] or []) for row in rows]
    now = datetime.datetime.now()
    table = pl.DataFrame(
        {
            "match_id": [row[0] for row in rows],
            "version": [row[1] for row in rows],
            "record": records,
            "content_hash": [hashlib.sha256(r.encode()).hexdigest() for r in records],
            "deals": [row[3] for row in rows],
            "source": [row[4] for row in rows],
            "line": [row[5] for row in rows],
            "imported_at": [row[6] for row in rows],
            "replaced_at": [now] * len(rows),
            "analysed_at": [row[7] for row in rows],
            "analysis_depth": [row[8] for row in rows],
            "analysis_revision": [row[9] for row in rows],
        },
        schema={
            "match_id": pl.String,
            "version": pl.Int32,
            "record": pl.String,
            "content_hash": pl.String,
            "deals": pl.Int32,
            "source": pl.String,
            "line": pl.Int32,
            "imported_at": pl.Datetime("us"),
            "replaced_at": pl.Datetime("us"),
            "analysed_at": pl.Datetime("us"),
            "analysis_depth": pl.String,
            "analysis_revision": pl.Int32,
        },
    )
    con.from_arrow(table.to_arrow()).query(
        "_versions", "INSERT INTO match_versions BY NAME SELECT * FROM _versions"
    )
    _keep_analysis(con, {row[0]: row[1] for row in rows})


def _keep_analysis(con: duckdb.DuckDBPyConnection, versions: dict[str, int]) -> None:
    """Keep the analysis of the matches about to be replaced with their versions in
    ``match_version_analysis``: each analysis table's rows of a match, as Arrow IPC (the table's
    own columns and types, whatever a later schema adds)."""
    kept: list[dict[str, Any]] = []
    for table in ANALYSIS_TABLES:
        rows = con.sql(
            f"SELECT * FROM {table} WHERE match_id IN (SELECT unnest(?::VARCHAR[]))", params=[list(versions)]
        ).pl()
        for (match,), frame in rows.partition_by("match_id", as_dict=True, maintain_order=True).items():
            buffer = io.BytesIO()
            frame.write_ipc(buffer, compression="zstd")
            kept.append(
                {
                    "match_id": match,
                    "version": versions[str(match)],
                    "table_name": table,
                    "row_count": frame.height,
                    "rows": buffer.getvalue(),
                }
            )
    if kept:
        frame = pl.DataFrame(
            kept,
            schema={
                "match_id": pl.String,
                "version": pl.Int32,
                "table_name": pl.String,
                "row_count": pl.Int32,
                "rows": pl.Binary,
            },
        )
        con.from_arrow(frame.to_arrow()).query(
            "_analysis", "INSERT INTO match_version_analysis BY NAME SELECT * FROM _analysis"
        )


def _put_back_analysis(con: duckdb.DuckDBPyConnection, match: str, version: int) -> bool:
    """Put the analysis kept with a version of a match back (the match's rows are that version's
    now and carry no analysis); the findings get new ids after the archive's, in their order.

    :returns: whether the version had any analysis to put back.
    """
    analysed = _first(
        con.execute(
            "SELECT analysed_at, analysis_depth, analysis_revision FROM match_versions "
            "WHERE match_id = ? AND version = ?",
            [match, version],
        ).fetchall()
    )
    kept = con.execute(
        "SELECT table_name, rows FROM match_version_analysis WHERE match_id = ? AND version = ?",
        [match, version],
    ).fetchall()
    if analysed is None or (analysed[0] is None and not kept):
        return False
    # The restore's import keeps the analysis of a version that differs only in its details (the
    # same game): the version's rows came back beside it, every finding and cost twice. The
    # deeper of the two stays (the newer at the same depth), the other goes, whole.
    now = _first(
        con.execute(
            "SELECT analysed_at, analysis_depth, coalesce(analysis_revision, 0) FROM matches "
            "WHERE match_id = ?",
            [match],
        ).fetchall()
    )
    if now is not None and now[0] is not None:
        rank = {depth: place for place, depth in enumerate(ANALYSIS_DEPTHS)}
        current = (rank.get(now[1] or "heuristic", 0), int(now[2]))
        kept_with_it = (rank.get(analysed[1] or "heuristic", 0), int(analysed[2] or 0))
        if current >= kept_with_it:
            return True  # the match's own analysis, as deep and as new, is the same game's
    for table in ANALYSIS_TABLES:
        con.execute(f"DELETE FROM {table} WHERE match_id = ?", [match])
    for table, data in kept:
        if table not in ANALYSIS_TABLES:
            continue
        frame = pl.read_ipc(io.BytesIO(data))
        columns = {
            row[0]
            for row in con.execute(
                "SELECT column_name FROM duckdb_columns() WHERE schema_name = 'main' AND table_name = ?",
                [table],
            ).fetchall()
        }
        frame = frame.select([name for name in frame.columns if name in columns])
        if table == "findings":
            # the ids a replaced version's findings had may have been given to others since
            start = _first(con.execute("SELECT coalesce(max(finding_id), 0) FROM findings").fetchall())[0]
            frame = frame.sort("finding_id").with_columns(
                (pl.int_range(1, frame.height + 1, dtype=pl.Int64) + int(start)).alias("finding_id")
            )
        con.from_arrow(frame.to_arrow()).query("_kept", f"INSERT INTO {table} BY NAME SELECT * FROM _kept")
    con.execute(
        "UPDATE matches SET analysed_at = ?, analysis_depth = ?, analysis_revision = ? WHERE match_id = ?",
        [analysed[0], analysed[1], analysed[2], match],
    )
    return True


def _loads(tables: dict[str, Any], state: _FileState) -> list[tuple[str, Any]]:
    """What the loader writes of a batch's tables: each non-empty one, in the archive's column order."""
    from .batch import _LOAD_ORDER, _arranged

    return [
        (target, _arranged(tables[name], state.columns[target]))
        for name, target in _LOAD_ORDER
        if tables[name].num_rows
    ]


def _failure(doing: str, error: Exception) -> RecordError:
    """A record that made the importer fail, as a problem of that record."""
    return RecordError(f"could not {doing} this record ({type(error).__name__}: {error}); please report it")


def _file_committed(reader: duckdb.DuckDBPyConnection, state: _FileState) -> bool:
    """Whether the file's transaction reached the archive, asked through another connection
    (for a COMMIT that a Ctrl-C cut short: it may have finished first)."""
    if not state.loaded:
        return False
    match, loaded = next(iter(state.loaded.items()))
    try:
        return _committed_hashes(reader, [match]).get(match) == loaded.content_hash
    except (duckdb.Error, RuntimeError):
        return False


def _import_failure(error: duckdb.Error) -> str:
    """Why DuckDB could not import; running out of memory comes with what to do about it,
    instead of DuckDB's own advice (settings the user cannot reach)."""
    message = _duckdb_message(error).split("\n\nPossible solutions")[0].strip()
    if isinstance(error, duckdb.OutOfMemoryException) or "(SET memory_limit" in str(error):
        message += "; give the import more memory (a higher memory limit)"
    elif isinstance(error, duckdb.FatalException):
        message += "; DuckDB gave up on the archive for this run: open it again (files committed before stay)"
    return message
