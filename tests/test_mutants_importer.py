"""The import's core (manillen_replay/store/importer.py: ``import_entries``, ``_import_file``,
``_flush``, ``_load``, and ``_file_committed`` after a Ctrl-C): behaviours the mutation run of
those functions showed no test defended.

What a user relies on when importing: the rows the archive holds afterwards, nothing of a
refused record or a rolled-back file left behind, the counts the import reports (also to a
caller's summary after a failure or a Ctrl-C), and what ``manillen import`` says and exits with.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pytest
from click.testing import CliRunner

from manillen_replay.cli import cli
from manillen_replay.club_rules import ClubRules
from manillen_replay.engine import rules_of
from manillen_replay.errors import RecordError
from manillen_replay.record import Entry, Record, dumps, loads
from manillen_replay.rules import Rules
from manillen_replay.store import ArchiveError, ImportSummary, Store
from manillen_replay.store import batch as batch_module

from .factories import random_record
from .test_archive_invariants import assert_archive_holds
from .test_mutants_store import _refuse_unbuildable_venues
from .test_store import _CommitCutShort

ZWAAN = ClubRules("zwaan", Rules(underbuy="allowed", en_face=True, target=151))


def _line(record: Record) -> str:
    return dumps(record, pretty=False)


def _entries(lines: Sequence[str], source: str = "club.jsonl") -> list[Entry]:
    return [Entry(source, number, line.encode()) for number, line in enumerate(lines, start=1)]


def _count(store: Store, table: str) -> int:
    return int(store.query(f"SELECT count(*) AS n FROM {table}")["n"][0])


# --------------------------------------------------------------------------- a club's rules


def test_an_import_with_a_clubs_rules_stores_them_with_each_match_that_names_none() -> None:
    """``manillen import --rules zwaan``: a record without rules is kept with the club's, so the
    archive says under which rules it was played; one naming other rules is refused alone."""
    plain = random_record(1, deals=1)
    other = json.loads(_line(random_record(2, deals=1)))
    other["match"]["rules"] = {"underbuy": "forbidden"}
    with Store() as store:
        summary = store.import_entries(_entries([_line(plain), json.dumps(other)]), club=ZWAAN)
        assert (summary.imported, summary.refused) == (1, 1)
        assert summary.rejects[0].line == 2 and summary.rejects[0].pointer == "/match/rules"
        [(rules, record)] = store.query("SELECT rules, record FROM matches").rows()
        assert json.loads(rules) == ZWAAN.options
        assert rules_of(loads(record)) == ZWAAN.rules


# --------------------------------------------------------------------------- a batch being cancelled


class _Cancelled:
    """A loader that was cancelled (Ctrl-C, or another batch failed): the file is being rolled back."""

    cancelled = True


def test_a_cancelled_batch_deletes_nothing_of_the_match_it_would_replace() -> None:
    record = random_record(3, deals=2)
    with Store() as store:
        store.import_entries(_entries([_line(record)]))
        store._loader = _Cancelled()  # type: ignore[assignment]
        store._load([], ["random-3"])
        store._loader = None
        assert (_count(store, "matches"), _count(store, "deals"), _count(store, "plays")) == (1, 2, 64)
        assert_archive_holds(store, [record])


def test_a_cancelled_batch_without_replacements_inserts_nothing() -> None:
    with Store() as store:
        store._loader = _Cancelled()  # type: ignore[assignment]
        store._load([("rejects", pa.table({"source": ["x.jsonl"]}))], [])
        store._loader = None
        assert _count(store, "rejects") == 0


# ---------------------------------------------------------------- a file that fails, or is cut short


class _Failing:
    """A connection that fails one statement as DuckDB does: ``fail(sql)`` says which, and how.

    A COMMIT that fails has already ended the transaction (DuckDB rolls it back), as with a
    full disk."""

    def __init__(self, connection: Any, fail: Any) -> None:
        self._connection = connection
        self._fail = fail

    def execute(self, sql: str, *args: Any) -> Any:
        error = self._fail(sql)
        if error is not None:
            if sql == "COMMIT":
                self._connection.execute("ROLLBACK")
            raise error
        return self._connection.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._connection, name)


def _two_files() -> list[Entry]:
    """``one.jsonl`` with 3 one-deal matches, then ``two.jsonl`` with 2."""
    one = _entries([_line(random_record(seed, deals=1)) for seed in range(3)], "one.jsonl")
    return one + _entries([_line(random_record(seed, deals=1)) for seed in (10, 11)], "two.jsonl")


def test_a_file_whose_transaction_cannot_begin_is_refused_with_why_and_nothing_is_written(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """DuckDB refuses to begin (a connection it gave up on): the import says so, naming the file."""
    with Store() as store:

        def begin_refused(sql: str) -> duckdb.Error | None:
            return duckdb.IOException("IO Error: disk full") if sql == "BEGIN TRANSACTION" else None

        monkeypatch.setattr(store, "_con", _Failing(store._con, begin_refused))
        summary = ImportSummary()
        with pytest.raises(ArchiveError) as failed:
            store.import_entries(_two_files(), summary=summary)
        monkeypatch.undo()
        assert str(failed.value) == (
            "could not write to the archive ':memory:' while importing 'one.jsonl' "
            "(that file was rolled back): disk full"
        )
        assert (summary.files, summary.matches) == (0, 0)
        assert _count(store, "matches") == 0
        assert store.import_entries(_two_files()).imported == 5


def _nth_commit_fails(n: int) -> Callable[[str], duckdb.Error | None]:
    """A failure for ``_Failing``: the ``n``-th COMMIT fails as a full disk would make it."""
    commits: list[str] = []

    def fails(sql: str) -> duckdb.Error | None:
        if sql != "COMMIT":
            return None
        commits.append(sql)
        return duckdb.IOException("IO Error: disk full") if len(commits) == n else None

    return fails


def test_a_commit_that_fails_keeps_the_files_before_it_in_the_summary_and_the_archive(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The second file's COMMIT fails (a full disk): the caller's summary holds the first file
    only (what ``manillen import`` reports as kept before the problem), the archive likewise."""
    second_commit_fails = _nth_commit_fails(2)

    with Store() as store:
        monkeypatch.setattr(store, "_con", _Failing(store._con, second_commit_fails))
        summary = ImportSummary()
        with pytest.raises(ArchiveError, match=r"'two.jsonl' \(that file was rolled back\): disk full$"):
            store.import_entries(_two_files(), summary=summary)
        monkeypatch.undo()
        assert (summary.files, summary.imported, summary.deals, summary.matches) == (1, 3, 3, 3)
        assert store.query("SELECT DISTINCT source FROM matches")["source"].to_list() == ["one.jsonl"]


def test_a_ctrl_c_as_the_commit_ends_adds_the_file_to_what_the_caller_already_counted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``summary`` carries an import in parts (files committed before): the file the Ctrl-C cut
    short after it committed is added to it, not counted in its place."""
    with Store() as store:
        monkeypatch.setattr(store, "_con", _CommitCutShort(store._con))
        summary = ImportSummary(imported=4, deals=6, files=2)
        with pytest.raises(KeyboardInterrupt):
            store.import_entries(_two_files(), summary=summary)
        monkeypatch.undo()
        assert (summary.files, summary.imported, summary.deals) == (3, 7, 9)
        assert _count(store, "matches") == 3


class _CommitInterrupted:
    """A connection whose COMMIT a Ctrl-C stops before it lands ("Query interrupted", nothing
    committed); with ``reader_fails`` the import's second connection cannot answer afterwards."""

    def __init__(self, connection: Any, reader_fails: bool = False) -> None:
        self._connection = connection
        self._reader_fails = reader_fails
        self.cut = False

    def execute(self, sql: str, *args: Any) -> Any:
        if sql == "COMMIT":
            self.cut = True
            raise RuntimeError("Query interrupted")
        return self._connection.execute(sql, *args)

    def cursor(self) -> Any:
        return _Reader(self, self._connection.cursor())

    def __getattr__(self, name: str) -> Any:
        return getattr(self._connection, name)


class _Reader:
    def __init__(self, owner: _CommitInterrupted, cursor: Any) -> None:
        self._owner = owner
        self._cursor = cursor

    def execute(self, sql: str, *args: Any) -> Any:
        if self._owner.cut and self._owner._reader_fails:
            raise duckdb.ConnectionException("Connection Error: the archive cannot be read now")
        return self._cursor.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._cursor, name)


def test_a_file_of_refused_records_whose_commit_a_ctrl_c_stopped_is_not_counted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No match of the file tells whether its commit landed: it is not claimed as kept (neither
    is its refused record, which the rollback took away with the file)."""
    with Store() as store:
        monkeypatch.setattr(store, "_con", _CommitInterrupted(store._con))
        summary = ImportSummary()
        with pytest.raises(KeyboardInterrupt):
            store.import_entries(_entries(["{not json", "[]"], "bad.jsonl"), summary=summary)
        monkeypatch.undo()
        assert (summary.files, summary.refused, summary.rejects) == (0, 0, [])
        assert _count(store, "rejects") == 0


def test_a_file_whose_commit_a_ctrl_c_stopped_is_not_counted_when_the_archive_cannot_say(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with Store() as store:
        interrupted = _CommitInterrupted(store._con, reader_fails=True)
        monkeypatch.setattr(store, "_con", interrupted)
        summary = ImportSummary()
        with pytest.raises(KeyboardInterrupt):
            store.import_entries(_entries([_line(random_record(1, deals=1))]), summary=summary)
        monkeypatch.undo()
        assert interrupted.cut
        assert (summary.files, summary.imported) == (0, 0)
        assert _count(store, "matches") == 0


# --------------------------------------------------------------------------- what each match's row says


def test_each_match_is_stamped_with_the_time_of_its_import_batch_by_batch_or_match_by_match(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``matches.imported_at`` says when the match came in, also when its batch had to be loaded
    match by match (a row Arrow could not take in another match)."""
    _refuse_unbuildable_venues(monkeypatch)
    records = [random_record(seed, deals=1) for seed in range(3)]
    with Store() as store:
        start = datetime.datetime.now()
        store.import_entries(_entries([_line(records[0])], "one.jsonl"))
        records[2].match.venue = "Unbuildable"
        store.import_entries(_entries([_line(records[1]), _line(records[2])], "two.jsonl"))
        end = datetime.datetime.now()
        stamps = store.query("SELECT match_id, imported_at FROM matches ORDER BY import_order").rows()
        assert [match for match, _ in stamps] == ["random-0", "random-1"]
        assert all(start <= stamp <= end for _, stamp in stamps)


# --------------------------------------------------------------------------- what `manillen import` says


def test_manillen_import_says_which_file_failed_and_what_was_kept_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The second file's COMMIT fails (a full disk): the message names that file as rolled back
    and sums up the first, which the archive keeps; the exit code is 1."""
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    one.write_text("".join(_line(random_record(seed, deals=1)) + "\n" for seed in range(3)))
    two.write_text("".join(_line(random_record(seed, deals=2)) + "\n" for seed in (10, 11)))
    real = Store.import_paths
    second_commit_fails = _nth_commit_fails(2)

    def import_paths(self: Store, *args: Any, **kwargs: Any) -> ImportSummary:
        self._con = _Failing(self._con, second_commit_fails)  # type: ignore[assignment]
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Store, "import_paths", import_paths)
    db = tmp_path / "club.duckdb"
    result = CliRunner().invoke(cli, ["import", str(one), str(two), "--db", str(db)])
    monkeypatch.undo()
    assert result.exit_code == 1
    assert result.stderr == (
        f"{db}: no archive of that name yet: making a new one\n"
        f"Error: could not write to the archive {str(db)!r} while importing {str(two)!r} (that file "
        "was rolled back): disk full\n(kept before the problem: 1 file; imported 3 matches (3 deals), "
        "replaced 0, skipped 0 already present, refused 0)\n"
    )
    with Store(db, read_only=True) as archive:
        assert archive.query("SELECT DISTINCT source FROM matches")["source"].to_list() == [str(one)]


# --------------------------------------------------------------------------- refused and kept matches


def test_a_match_the_replay_refuses_is_kept_in_rejects_at_its_line_and_nothing_of_it_is_stored() -> None:
    """Its first deal is sound, its second plays a card the player does not hold: the whole match
    is refused with the problem placed in the file, the matches around it are imported."""
    refused = json.loads(_line(random_record(1, deals=2)))
    trick = refused["deals"][1]["tricks"][0]
    trick[0], trick[1] = trick[1], trick[0]
    others = [random_record(0, deals=1), random_record(2, deals=1)]
    with Store() as store:
        summary = store.import_entries(_entries([_line(others[0]), json.dumps(refused), _line(others[1])]))
        assert (summary.imported, summary.refused, summary.deals) == (2, 1, 2)
        [problem] = summary.rejects
        assert (problem.source, problem.line, problem.pointer) == ("club.jsonl", 2, "/deals/1/tricks/0/0")
        assert "is not in" in problem.detail and "hand in trick 1" in problem.detail
        [(source, line, pointer, raw)] = store.query("SELECT source, line, pointer, raw FROM rejects").rows()
        assert (source, line, pointer, json.loads(raw)) == ("club.jsonl", 2, "/deals/1/tricks/0/0", refused)
        for table in ("matches", "deals", "seats", "tricks", "plays", "hands"):
            held = store.query(f"SELECT count(*) AS n FROM {table} WHERE match_id = 'random-1'")["n"][0]
            assert held == 0, table
        assert_archive_holds(store, others)


def test_an_import_told_not_to_replace_counts_each_kept_match_and_imports_the_rest_of_the_batch() -> None:
    """``manillen import --no-replace``: two changed matches kept as the archive has them, each
    counted; the new matches after them in the same batch are imported. Imported again without
    it, both are replaced and counted."""
    first = [random_record(seed, deals=2) for seed in (1, 2)]
    with Store() as store:
        store.import_entries(_entries([_line(r) for r in first], "old.jsonl"))
        changed = [random_record(seed, deals=1) for seed in (1, 2)]
        new = [random_record(seed, deals=1) for seed in (3, 4)]
        summary = store.import_entries(_entries([_line(r) for r in changed + new]), replace=False)
        assert (summary.kept, summary.imported, summary.replaced, summary.deals) == (2, 2, 0, 2)
        assert store.query("SELECT match_id, deals FROM matches ORDER BY match_id").rows() == [
            ("random-1", 2),
            ("random-2", 2),
            ("random-3", 1),
            ("random-4", 1),
        ]
        assert_archive_holds(store, first + new)
        # told to replace, the same file replaces both, each named
        again = store.import_entries(_entries([_line(r) for r in changed]))
        assert (again.replaced, again.deals) == (2, 2)
        assert [r.describe() for r in again.replacements] == [
            "random-1 (2 deals in the archive, 1 deal in club.jsonl:1)",
            "random-2 (2 deals in the archive, 1 deal in club.jsonl:2)",
        ]
        assert_archive_holds(store, changed + new)


def test_a_match_refused_half_way_through_its_rows_leaves_none_and_the_batch_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Its second deal's rows cannot be made (a problem found while storing it): the rows its
    first deal already added are dropped, the match is refused at its line, and the match after
    it in the same batch is imported."""
    original = batch_module._Batch._add_deal

    def add_deal(self: Any, mid: str, record: Record, deal: Any, *args: Any) -> None:
        if mid == "random-1" and deal.number == 2:
            raise RecordError("this deal cannot be stored", "/deals/1")
        original(self, mid, record, deal, *args)

    monkeypatch.setattr(batch_module._Batch, "_add_deal", add_deal)
    records = [random_record(seed, deals=2) for seed in range(3)]
    with Store() as store:
        summary = store.import_entries(_entries([_line(r) for r in records]))
        assert (summary.imported, summary.refused, summary.deals) == (2, 1, 4)
        assert [(r.line, r.pointer, r.detail) for r in summary.rejects] == [
            (2, "/deals/1", "this deal cannot be stored")
        ]
        for table in ("matches", "seats", "deals", "deal_seats", "tricks", "plays", "hands"):
            held = store.query(f"SELECT count(*) AS n FROM {table} WHERE match_id = 'random-1'")["n"][0]
            assert held == 0, table
        assert_archive_holds(store, [records[0], records[2]])
