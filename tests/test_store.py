"""The archive: import (idempotent, transactional, in batches), schema, queries, export, locks."""

from __future__ import annotations

import datetime
import gc
import re
import subprocess
import sys
import textwrap
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import duckdb
import msgspec
import polars as pl
import pyarrow as pa
import pytest

from manillen_replay.analysis.accuracy import counts_for_accuracy, deal_accuracy
from manillen_replay.analysis.costs import PlayCost, dd_costs, view_costs
from manillen_replay.cards import CARD_BY_TEXT, CARD_POINTS
from manillen_replay.engine import MatchResult, decode_and_replay
from manillen_replay.errors import ManillenError
from manillen_replay.record import Entry, dumps, load, loads
from manillen_replay.store import (
    SCHEMA_VERSION,
    TABLES,
    AnnotationChangedError,
    ArchiveError,
    ArchiveLockedError,
    ImportSummary,
    NoSuchAnnotationError,
    QueryError,
    QueryRefusedError,
    Store,
    apply_migrations,
    parse_memory_limit,
)
from manillen_replay.store import analyse as store_analyse
from manillen_replay.store.analyse import analyse_archive, cost_frames
from manillen_replay.store.loader import _Loader
from manillen_replay.store.schema import SUMMARY_VIEWS, schema_version_of

from .conftest import BAD_LINE, BAD_LINE_NUMBER, SAMPLE_FINDINGS, SLOPPY_MATCH_ID
from .factories import random_record
from .test_archive_invariants import assert_archive_holds

ROOT = Path(__file__).resolve().parent.parent
SEED_TRICK = ROOT / "data" / "samples" / "seed-trick.json"


def _entries(lines: list[str], source: str = "test.jsonl") -> list[Entry]:
    return [Entry(source, number, line.encode()) for number, line in enumerate(lines, start=1)]


def _count(store: Store, table: str, where: str = "true") -> int:
    return int(store.query(f"SELECT count(*) AS n FROM {table} WHERE {where}")["n"][0])


# --------------------------------------------------------------------------- import


def test_sample_import_loads_every_table(sample_store: Store, sample_records: list[str]) -> None:
    results = [decode_and_replay(line) for line in sample_records]
    played = [d for r in results for d in r.deals if d.tricks]
    assert _count(sample_store, "matches") == len(results)
    assert _count(sample_store, "deals") == sum(len(r.deals) for r in results)
    assert _count(sample_store, "seats") == 4 * len(results)
    assert _count(sample_store, "deal_seats") == 4 * sum(len(r.deals) for r in results)
    assert _count(sample_store, "tricks") == sum(len(d.tricks) for d in played)
    assert _count(sample_store, "plays") == sum(len(t.cards) for d in played for t in d.tricks)
    assert _count(sample_store, "hands") == 4 * sum(1 for r in results for d in r.deals if d.hands)
    assert _count(sample_store, "annotations") == 3
    assert_archive_holds(sample_store, [loads(line) for line in sample_records])


def test_the_fast_scan_pauses_the_collector_while_its_detectors_run(
    store: Store, sample_records: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The detectors of a chunk of matches run with automatic garbage collection paused (it
    scanned the chunk's replays over and over as their tricks were built), and the collector
    runs again once the scan is done, with the same findings stored."""
    store.import_entries(_entries(sample_records))
    collecting: list[bool] = []
    detectors = store_analyse.analyse

    def watched(*args: Any, **kwargs: Any) -> Any:
        collecting.append(gc.isenabled())
        return detectors(*args, **kwargs)

    monkeypatch.setattr(store_analyse, "analyse", watched)
    assert gc.isenabled()
    outcome = analyse_archive(store, depth="heuristic")
    assert len(collecting) == outcome.matches == len(sample_records)
    assert not any(collecting)
    assert gc.isenabled()
    assert _count(store, "findings") == sum(outcome.by_category.values()) > 0


def test_refused_record_goes_to_rejects_with_its_place_and_text(
    sample_store: Store, sample_archive: Path
) -> None:
    rejects = sample_store.query("SELECT * FROM rejects")
    assert rejects.height == 1
    row = rejects.row(0, named=True)
    assert row["source"] == str(sample_archive)
    assert row["line"] == BAD_LINE_NUMBER
    assert row["pointer"] == "/deals/0/dealer"
    assert row["raw"] == BAD_LINE
    assert row["problems"] and row["rejected_at"] is not None


def test_reimport_skips_what_is_already_there(store: Store, sample_records: list[str]) -> None:
    first = store.import_entries(_entries(sample_records))
    plays = _count(store, "plays")
    again = store.import_entries(_entries(sample_records))
    assert (first.imported, first.skipped) == (len(sample_records), 0)
    assert (again.imported, again.replaced, again.skipped, again.deals) == (0, 0, len(sample_records), 0)
    assert _count(store, "plays") == plays
    assert _count(store, "matches") == len(sample_records)
    assert_archive_holds(store, [loads(line) for line in sample_records])


def test_changed_match_replaces_the_old_rows(store: Store) -> None:
    record = random_record(1, deals=4)
    store.import_entries(_entries([dumps(record, pretty=False)]))
    tricks_before = _count(store, "tricks")
    record.match.venue = "Cafe Nieuw"
    record.deals.pop()
    summary = store.import_entries(_entries([dumps(record, pretty=False)]))
    assert (summary.imported, summary.replaced, summary.skipped) == (0, 1, 0)
    assert store.query("SELECT venue FROM matches")["venue"].to_list() == ["Cafe Nieuw"]
    assert _count(store, "deals") == 3
    assert _count(store, "tricks") == tricks_before * 3 // 4
    assert_archive_holds(store, [record])


def test_same_id_twice_in_one_file_is_imported_then_replaced(store: Store) -> None:
    old, new = random_record(2, deals=2), random_record(3, deals=3)
    new.match.id = old.match.id
    summary = store.import_entries(_entries([dumps(old, pretty=False), dumps(new, pretty=False)]))
    assert (summary.imported, summary.replaced) == (1, 1)
    assert _count(store, "deals") == 3
    assert_archive_holds(store, [new])


def test_rejects_describe_the_latest_import_of_a_file(store: Store, sample_archive: Path) -> None:
    store.import_paths([sample_archive])
    second = store.import_paths([sample_archive])
    assert second.refused == 1
    assert _count(store, "rejects") == 1


def test_imports_in_batches_and_reports_progress(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Store, "BATCH_SIZE", 2)
    lines = [dumps(random_record(seed, deals=1), pretty=False) for seed in range(7)]
    steps: list[int] = []
    summary = store.import_entries(_entries(lines), on_progress=steps.append)
    assert len(steps) == 4 and sum(steps) == 7
    assert summary.imported == 7 and _count(store, "matches") == 7
    assert_archive_holds(store, [loads(line) for line in lines])


def _interrupting(entries: list[Entry], after: int) -> Iterator[Entry]:
    for index, entry in enumerate(entries):
        if index == after:
            raise KeyboardInterrupt
        yield entry


def test_interrupted_import_keeps_no_half_file(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Store, "BATCH_SIZE", 2)
    first = _entries([dumps(random_record(seed, deals=1), pretty=False) for seed in range(3)], "one.jsonl")
    second = _entries(
        [dumps(random_record(seed, deals=1), pretty=False) for seed in range(10, 17)], "two.jsonl"
    )
    summary = ImportSummary()
    with pytest.raises(KeyboardInterrupt):
        store.import_entries(_interrupting(first + second, after=len(first) + 5), summary=summary)
    # Two batches of the second file were loaded before Ctrl-C: all of it is rolled back.
    assert store.query("SELECT DISTINCT source FROM matches")["source"].to_list() == ["one.jsonl"]
    assert _count(store, "plays") == 3 * 32
    assert (summary.files, summary.imported) == (1, 3)


def _two_files() -> list[Entry]:
    """``one.jsonl`` with 3 one-deal matches, then ``two.jsonl`` with 7."""
    one = _entries([dumps(random_record(seed, deals=1), pretty=False) for seed in range(3)], "one.jsonl")
    two = _entries([dumps(random_record(seed, deals=1), pretty=False) for seed in range(10, 17)], "two.jsonl")
    return one + two


def _load_failing_at(monkeypatch: pytest.MonkeyPatch, batch: int, failure: Callable[[Any], Any]) -> list[str]:
    """Make the ``batch``-th batch loaded go through ``failure`` (given its loads) first; returns
    the names of the threads that loaded batches."""
    original = Store._load
    threads: list[str] = []
    monkeypatch.setattr(Store, "LOAD_BYTES", 0)  # each batch loaded on its own, as counted here

    def load(self: Store, loads: list[tuple[str, Any]], replaced: list[str]) -> None:
        threads.append(threading.current_thread().name)
        if len(threads) == batch:
            loads = failure(loads)
        original(self, loads, replaced)

    monkeypatch.setattr(Store, "_load", load)
    return threads


def _without_deal_kinds(loads: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """The loads with ``deals.kind``, a NOT NULL column, emptied."""
    return [
        (
            target,
            rows.set_column(rows.column_names.index("kind"), "kind", pa.nulls(rows.num_rows, pa.string())),
        )
        if target == "deals"
        else (target, rows)
        for target, rows in loads
    ]


def test_a_batch_that_fails_in_the_loader_thread_rolls_its_file_back(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """DuckDB refuses the second batch of two.jsonl (a NOT NULL column left empty) in the loader
    thread: the import stops with an ArchiveError, two.jsonl's first batch, already loaded, is
    rolled back with it, and one.jsonl stays."""
    monkeypatch.setattr(Store, "BATCH_SIZE", 2)
    threads = _load_failing_at(monkeypatch, 4, _without_deal_kinds)  # one.jsonl takes batches 1 and 2
    summary = ImportSummary()
    with pytest.raises(ArchiveError, match=r"'two.jsonl' \(that file was rolled back\): NOT NULL constraint"):
        store.import_entries(_two_files(), summary=summary)
    assert set(threads) == {"manillen-import-loader"}
    assert store.query("SELECT DISTINCT source FROM matches")["source"].to_list() == ["one.jsonl"]
    for table, rows in (("matches", 3), ("deals", 3), ("plays", 3 * 32), ("tricks", 3 * 8), ("hands", 3 * 4)):
        assert _count(store, table) == rows, table
    assert (summary.files, summary.imported) == (1, 3)


def test_any_failure_of_the_loader_reaches_the_caller_and_the_archive_stays_usable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fail(loads: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
        raise RuntimeError("the loader broke")

    monkeypatch.setattr(Store, "BATCH_SIZE", 2)
    _load_failing_at(monkeypatch, 1, fail)
    with Store(tmp_path / "a.duckdb") as archive:
        before = _import_state(archive)
        with pytest.raises(RuntimeError, match="the loader broke"):
            archive.import_entries(_two_files())
        assert _count(archive, "matches") == 0
        assert _import_state(archive) == before
        monkeypatch.undo()
        summary = archive.import_entries(_two_files())
        assert (summary.files, summary.imported) == (2, 10)
        assert _count(archive, "matches") == 10


def _import_state(archive: Store) -> tuple[Any, ...]:
    """What an import changes while it runs: DuckDB's memory limit and threads, Python's switch interval."""
    limit, threads = archive.query("SELECT current_setting('memory_limit'), current_setting('threads')").row(
        0
    )
    return limit, threads, sys.getswitchinterval()


def test_import_settings_hold_only_while_importing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[Any, ...]] = []
    original = Store._load

    def load(self: Store, loads: list[tuple[str, Any]], replaced: list[str]) -> None:
        seen.append(_import_state(self))
        original(self, loads, replaced)

    monkeypatch.setattr(Store, "_load", load)
    lines = [dumps(random_record(seed, deals=1), pretty=False) for seed in range(4)]
    with Store(tmp_path / "a.duckdb") as archive:
        before = _import_state(archive)
        archive.import_entries(_entries(lines[:2], "one.jsonl"), memory_limit="100MB")
        assert seen == [("95.3 MiB", 1, 0.0005)]
        assert _import_state(archive) == before
        archive.import_entries(_entries(lines[2:], "two.jsonl"), memory_limit=None)
        assert seen[-1] == (before[0], 1, 0.0005)
    with Store() as memory:  # an in-memory archive has nowhere to move data to: no limit
        archive_limit = _import_state(memory)[0]
        memory.import_entries(_entries(lines, "one.jsonl"), memory_limit="100MB")
        assert seen[-1][0] == archive_limit


def test_an_import_leaves_its_rows_in_the_archive_file(tmp_path: Path) -> None:
    """The import writes what it committed into the file itself, under its memory limit, and
    leaves no write-ahead log for closing the archive to work through without one."""
    path = tmp_path / "a.duckdb"
    with Store(path) as archive:
        archive.import_entries(
            _entries([dumps(random_record(seed, deals=2), pretty=False) for seed in range(3)])
        )
        wal = tmp_path / "a.duckdb.wal"
        assert not wal.exists() or wal.stat().st_size == 0
    with Store(path, read_only=True) as archive:
        assert _count(archive, "matches") == 3


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("64MB", 64_000_000),
        ("1.5 GiB", 3 * 2**29),
        ("2gb", 2 * 10**9),
        (" 512MiB ", 512 * 2**20),
        ("40000KB", 4 * 10**7),
    ],
)
def test_memory_limits_are_sizes_as_duckdb_writes_them(text: str, size: int) -> None:
    assert parse_memory_limit(text) == size


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("lots", "not a memory size"),
        ("64", "not a memory size"),
        ("MB", "not a memory size"),
        ("-64MB", "not a memory size"),
        ("1MB", "too small for DuckDB to work in: give at least 32MB"),
        ("30MiB", "too small"),
    ],
)
def test_memory_limits_that_are_no_sizes_are_refused(store: Store, text: str, says: str) -> None:
    with pytest.raises(ManillenError, match=says):
        parse_memory_limit(text)
    with pytest.raises(ManillenError, match=says):
        store.import_entries(_entries([dumps(random_record(1, deals=1), pretty=False)]), memory_limit=text)
    assert _count(store, "matches") == 0


class _FailingCommit:
    """A connection whose COMMIT fails as DuckDB's does when the disk is full: the transaction ends."""

    def __init__(self, connection: duckdb.DuckDBPyConnection) -> None:
        self._connection = connection

    def execute(self, sql: str, *args: Any) -> Any:
        if sql == "COMMIT":
            self._connection.execute("ROLLBACK")
            raise duckdb.TransactionException("TransactionContext Error: Failed to commit: disk full")
        return self._connection.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._connection, name)


def test_a_commit_that_fails_rolls_the_file_back(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store, "_con", _FailingCommit(store._con))
    with pytest.raises(
        ArchiveError, match=r"'test.jsonl' \(that file was rolled back\): failed to commit: disk full"
    ):
        store.import_entries(
            _entries([dumps(random_record(seed, deals=1), pretty=False) for seed in range(3)])
        )
    monkeypatch.undo()
    assert _count(store, "matches") == 0
    assert store.import_entries(_entries([dumps(random_record(1, deals=1), pretty=False)])).imported == 1


class _CommitCutShort:
    """A connection whose COMMIT is stopped by a Ctrl-C as it ends: DuckDB has committed, then
    says "Query interrupted" with a plain RuntimeError."""

    def __init__(self, connection: duckdb.DuckDBPyConnection) -> None:
        self._connection = connection

    def execute(self, sql: str, *args: Any) -> Any:
        result = self._connection.execute(sql, *args)
        if sql == "COMMIT":
            raise RuntimeError("Query interrupted")
        return result

    def __getattr__(self, name: str) -> Any:
        return getattr(self._connection, name)


def test_a_ctrl_c_as_the_commit_ends_counts_the_file_it_kept(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store, "_con", _CommitCutShort(store._con))
    summary = ImportSummary()
    with pytest.raises(KeyboardInterrupt):
        store.import_entries(_two_files(), summary=summary)
    monkeypatch.undo()
    assert (summary.files, summary.imported) == (1, 3)
    assert _count(store, "matches") == 3


def test_a_ctrl_c_inside_duckdb_is_an_interrupt_and_rolls_the_file_back(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """DuckDB stops a statement for Ctrl-C with RuntimeError("Query interrupted"), in the loader
    thread as anywhere: the caller gets KeyboardInterrupt, the file is rolled back."""

    def interrupt(loads: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
        raise RuntimeError("Query interrupted")

    monkeypatch.setattr(Store, "BATCH_SIZE", 2)
    _load_failing_at(monkeypatch, 3, interrupt)  # one.jsonl takes batches 1 and 2
    summary = ImportSummary()
    with pytest.raises(KeyboardInterrupt):
        store.import_entries(_two_files(), summary=summary)
    assert (summary.files, summary.imported) == (1, 3)
    assert store.query("SELECT DISTINCT source FROM matches")["source"].to_list() == ["one.jsonl"]


def test_cancelling_waits_for_the_loader_through_a_second_ctrl_c() -> None:
    """A ROLLBACK while the loader still writes would leave its later statements outside the
    transaction: cancel() returns only once the loader has stopped, whatever interrupts it."""
    started, release = threading.Event(), threading.Event()

    def load(loads: list[tuple[str, Any]], replaced: list[str]) -> None:
        started.set()
        release.wait(5)

    loader = _Loader(load)
    loader.submit([("rejects", pa.table({"source": ["x"]}))], [])
    started.wait(5)
    thread = loader._thread
    join = thread.join
    calls = []

    def interrupted_join(timeout: float | None = None) -> None:
        calls.append(timeout)
        if len(calls) == 1:
            release.set()
            raise KeyboardInterrupt  # the second Ctrl-C, while cancel() waits
        join(timeout)

    thread.join = interrupted_join  # type: ignore[method-assign]
    loader.cancel()
    assert len(calls) == 2 and not thread.is_alive() and loader.cancelled


def test_a_cancelled_batch_stops_writing_at_its_next_statement(store: Store) -> None:
    class Cancelled:
        cancelled = True

    batch = [("rejects", pa.table({"source": ["x"]}))]
    store._loader = Cancelled()  # type: ignore[assignment]
    store._load(batch, ["some-match"])
    store._loader = None
    assert _count(store, "rejects") == 0


def test_temporary_files_of_a_crashed_import_are_removed_by_the_next(tmp_path: Path) -> None:
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    dead = tmp_path / "a.duckdb.tmp" / f"import-{gone.stdout.strip()}"
    dead.mkdir(parents=True)
    (dead / "duckdb_temp_block-1.block").write_bytes(b"x" * 100)
    with Store(tmp_path / "a.duckdb") as archive:
        archive.import_entries(
            _entries([dumps(random_record(1, deals=1), pretty=False)]), memory_limit="64MB"
        )
    assert not (tmp_path / "a.duckdb.tmp").exists()


def test_running_out_of_memory_says_what_to_do(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import manillen_replay.store.importer as store_module

    monkeypatch.setattr(store_module, "MINIMUM_MEMORY_LIMIT", 1)
    lines = [dumps(random_record(seed, deals=2), pretty=False) for seed in range(3)]
    with Store(tmp_path / "a.duckdb") as archive:
        before = _import_state(archive)
        # Where DuckDB runs out (starting, loading or committing) depends on its own allocations.
        with pytest.raises(
            ArchiveError, match=r"; give the import more memory \(a higher memory limit\)$"
        ) as caught:
            archive.import_entries(_entries(lines), memory_limit="3MB")
        assert _count(archive, "matches") == 0
        # DuckDB's own advice names settings that users cannot reach.
        assert "SET memory_limit" not in str(caught.value)
        assert _import_state(archive) == before
        assert archive.import_entries(_entries(lines)).imported == 3


def test_every_variant_sample_imports() -> None:
    with Store() as archive:
        summary = archive.import_paths(sorted((ROOT / "data" / "samples").glob("*.json")))
        assert summary.refused == 0, [p.describe() for p in summary.rejects]
        frame = archive.query(
            "SELECT m.variant, count(p.card) AS cards FROM matches m JOIN plays p USING (match_id) GROUP BY 1"
        )
        assert frame.height >= 5
        # Every play is attributed to a person (the dummy's cards to the dealer who plays them).
        assert _count(archive, "plays", "player NOT IN (SELECT player FROM seats)") == 0
        assert_archive_holds(
            archive, [load(path) for path in sorted((ROOT / "data" / "samples").glob("*.json"))]
        )


# --------------------------------------------------------------------------- schema contents


def test_plays_of_the_rules_text_trick(store: Store) -> None:
    """The seed's trick, trump diamonds: A leads AC, B QC (vetten), C buys 9D, D must over-buy KD."""
    store.import_paths([SEED_TRICK])
    first = store.query(
        "SELECT * FROM plays WHERE match_id = 'seed-trick' AND deal = 1 AND trick = 1 ORDER BY position"
    )
    assert first["player"].to_list() == ["Anna", "Bert", "Carla", "Dirk"]
    assert first["card"].to_list() == ["AC", "QC", "9D", "KD"]
    assert first["suit"].to_list() == ["C", "C", "D", "D"]
    assert first["rank"].to_list() == ["A", "Q", "9", "K"]
    assert first["points"].to_list() == [4, 2, 0, 3]
    assert first["is_trump"].to_list() == [False, False, True, True]
    assert first["winning_seat"].to_list() == [0, 0, 2, 3]
    assert first["legal"].all()
    assert first["legal_cards"][3].to_list() == ["KD"]
    assert first["clause"][3] == "overbuy"
    assert first["play"].to_list() == [1, 2, 3, 4]
    trick = store.query("SELECT * FROM tricks WHERE match_id = 'seed-trick' AND deal = 1 AND trick = 1").row(
        0, named=True
    )
    assert (trick["leader"], trick["led_suit"], trick["winner"], trick["winner_player"], trick["points"]) == (
        0, "C", 3, "Dirk", 9,
    )  # fmt: skip


def test_violations_are_marked_on_their_plays(sample_store: Store, sample_records: list[str]) -> None:
    line = next(line for line in sample_records if SLOPPY_MATCH_ID in line)
    expected = sorted(
        (d.number, v.trick, v.play, v.kind.value) for d in decode_and_replay(line).deals for v in d.violations
    )
    rows = sample_store.query(
        f"SELECT deal, trick, position, violation FROM plays WHERE match_id = '{SLOPPY_MATCH_ID}' "
        "AND violation IS NOT NULL ORDER BY ALL"
    )
    assert expected and rows.rows() == expected
    assert len(expected) == _count(sample_store, "plays", f"match_id = '{SLOPPY_MATCH_ID}' AND NOT legal")
    # legal is exactly "the card is among legal_cards"
    assert _count(sample_store, "plays", "legal <> list_contains(legal_cards, card)") == 0


def test_tricks_and_deals_agree_with_the_cards(sample_store: Store) -> None:
    mismatched = sample_store.query(
        """
        SELECT t.match_id, t.deal, t.trick FROM tricks t
        JOIN (SELECT match_id, deal, trick, sum(points) AS points, arg_max(winning_seat, position) AS last,
                     arg_min(seat, position) AS first FROM plays GROUP BY ALL) p USING (match_id, deal, trick)
        WHERE t.points <> p.points OR t.winner <> p.last OR t.leader <> p.first
        """
    )
    assert mismatched.height == 0
    assert _count(sample_store, "deals", "kind = 'played' AND points_0 + points_1 <> 60") == 0
    assert _count(sample_store, "hands", "len(cards) <> 8") == 0


def test_hands_hold_their_points_and_trumps(sample_store: Store) -> None:
    hands = sample_store.query(
        "SELECT h.cards, h.points, h.trumps, d.trump FROM hands h JOIN deals d USING (match_id, deal)"
    )
    assert hands.height > 0 and hands["trump"].null_count() < hands.height
    for cards, points, trumps, trump in hands.iter_rows():
        assert points == sum(CARD_POINTS[CARD_BY_TEXT[card]] for card in cards)
        assert trumps == (None if trump is None else sum(card.endswith(trump) for card in cards))


def test_deals_hold_the_engine_scores(sample_store: Store, sample_records: list[str]) -> None:
    for line in sample_records:
        result = decode_and_replay(line)
        stored = sample_store.query("SELECT * FROM deals WHERE match_id = ? ORDER BY deal", [result.id]).rows(
            named=True
        )
        for deal, row in zip(result.deals, stored, strict=True):
            assert row["kind"] == deal.kind.value
            assert row["multiplier"] == deal.multiplier
            assert row["knocks"] == deal.knocks
            assert (row["score_team"], row["score_points"]) == (
                (deal.score.team, deal.score.points) if deal.score else (None, None)
            )
            assert (row["match_score_0"], row["match_score_1"]) == deal.match_score[:2]
            assert row["score_mismatch"] == deal.score_mismatch


def test_player_views(sample_store: Store) -> None:
    deals = _count(sample_store, "deals")
    assert _count(sample_store, "player_deals") == 4 * deals
    summary = sample_store.query("SELECT * FROM player_summary ORDER BY player")
    assert summary["player"].to_list() == ["Anna", "Bert", "Carla", "Dirk"]
    assert summary["cards_played"].sum() == _count(sample_store, "plays")
    assert summary["violations"].sum() == _count(sample_store, "plays", "violation IS NOT NULL")
    assert summary["tricks_won"].sum() == _count(sample_store, "tricks", "winner IS NOT NULL")


# --------------------------------------------------------------------------- queries


@pytest.mark.parametrize(
    "statement",
    [
        "INSERT INTO matches (match_id) VALUES ('x')",
        "UPDATE matches SET venue = 'x'",
        "DELETE FROM plays",
        "DROP TABLE plays",
        "CREATE TABLE x (a INTEGER)",
        "ALTER TABLE plays ADD COLUMN x INTEGER",
        "COPY plays TO '/tmp/out.csv'",
        "ATTACH '/tmp/other.duckdb'",
        "INSTALL httpfs",
        "LOAD httpfs",
        "SET threads = 1",
        "PRAGMA database_list",
        "CALL pragma_version()",
        "SELECT 1; DROP TABLE plays",
    ],
)
def test_user_query_refuses_anything_but_reading(sample_store: Store, statement: str) -> None:
    with pytest.raises(QueryRefusedError):
        sample_store.user_query(statement)
    assert _count(sample_store, "plays") > 0


@pytest.mark.parametrize(
    "query",
    [
        "SELECT * FROM read_csv('/etc/passwd')",
        "SELECT * FROM read_text('/etc/hostname')",
        "SELECT * FROM read_parquet('https://example.com/x.parquet')",
    ],
)
def test_user_query_cannot_reach_files_or_network(sample_store: Store, query: str) -> None:
    with pytest.raises(QueryRefusedError, match="files or reach the network"):
        sample_store.user_query(query)


def test_user_query_errors_are_messages(sample_store: Store) -> None:
    with pytest.raises(QueryError, match="no_such_table"):
        sample_store.user_query("SELECT * FROM no_such_table")
    with pytest.raises(QueryError):
        sample_store.user_query("SELEC 1")
    frame = sample_store.user_query("SELECT player, cards_played FROM player_summary ORDER BY player")
    assert frame.columns == ["player", "cards_played"] and frame.height == 4


def _doc_queries() -> list[str]:
    text = (ROOT / "docs" / "sql.md").read_text(encoding="utf-8")
    # the queries over analyze-files' folders (DIR) run in tests/test_cluster.py, on real parts
    return [q for q in re.findall(r"```sql\n(.*?)```", text, flags=re.DOTALL) if "'DIR/" not in q]


@pytest.fixture(scope="module")
def costed_sample(sample_archive: Path) -> Iterator[tuple[Store, MatchResult, list[PlayCost]]]:
    """The sample archive (with its findings) plus the solver's costs of deal 1 of ``random-0``."""
    with Store() as archive:
        archive.import_paths([sample_archive])
        archive.save_findings([SLOPPY_MATCH_ID, "random-0"], pl.DataFrame(SAMPLE_FINDINGS))
        text = dict(archive.iter_records(match_ids=["random-0"]))["random-0"]
        result = decode_and_replay(text)
        costs = view_costs(result.deals[0], result.rules, samples=3)
        archive.save_costs([result.id], *cost_frames(result, {1: costs}))
        yield archive, result, costs


@pytest.mark.solver
def test_docs_examples_run_on_the_sample(costed_sample: tuple[Store, MatchResult, list[PlayCost]]) -> None:
    archive = costed_sample[0]
    queries = _doc_queries()
    assert len(queries) >= 12
    assert any("player_accuracy" in query for query in queries)
    for query in queries:
        frame = archive.user_query(query)
        assert frame.width > 0 and frame.height > 0, query


def test_docs_describe_every_table_and_column(store: Store) -> None:
    text = (ROOT / "docs" / "sql.md").read_text(encoding="utf-8")
    for row in store.tables().iter_rows(named=True):
        assert f"`{row['name']}`" in text, row["name"]
        for column in row["columns"]:
            name = column.split(" ", 1)[0]
            assert f"`{name}`" in text, f"{row['name']}.{name}"


# --------------------------------------------------------------------------- records, findings, annotations


def test_iter_records_gives_the_stored_matches(sample_store: Store, sample_records: list[str]) -> None:
    stored = dict(sample_store.iter_records())
    assert list(stored) == [decode_and_replay(line).id for line in sample_records]
    only = list(sample_store.iter_records(match_ids=["random-1", SLOPPY_MATCH_ID]))
    assert [mid for mid, _ in only] == ["random-1", SLOPPY_MATCH_ID]
    assert loads(only[0][1]).match.id == "random-1"
    # the matches asked for only, in import order whatever the order asked, from both ends of
    # the archive with others between (read through their span of import order), none unknown
    ids = list(stored)
    ends = list(sample_store.iter_records(match_ids=[ids[-1], "no-such-match", ids[0]]))
    assert [mid for mid, _ in ends] == [ids[0], ids[-1]]
    assert [text for _, text in ends] == [stored[ids[0]], stored[ids[-1]]]
    assert list(sample_store.iter_records(match_ids=[])) == []
    assert list(sample_store.iter_records(match_ids=["no-such-match"])) == []


FINDING = {
    "match_id": "random-0", "deal": 1, "trick": 2, "play": 3, "seat": 1, "player": "Bert",
    "kind": "missed_vetten", "category": "strategy", "severity": "mistake", "card": "7H",
    "better": ["10H"], "points": 5.0, "explanation": "x", "explanation_nl": "y",
}  # fmt: skip


def test_save_findings_replaces_per_detector_and_marks_analysed(store: Store) -> None:
    store.import_entries(
        _entries(
            [dumps(random_record(0, deals=2), pretty=False), dumps(random_record(1, deals=2), pretty=False)]
        )
    )
    frame = pl.DataFrame([FINDING, {**FINDING, "deal": 2}])
    store.save_findings(["random-0"], frame)
    store.save_findings(["random-0"], frame.head(1), detector="coach-x")
    store.save_findings(["random-0"], frame.head(1))  # replaces the two built-in ones
    found = store.query("SELECT detector, count(*) AS n FROM findings GROUP BY 1 ORDER BY 1")
    assert found.rows() == [("builtin", 1), ("coach-x", 1)]
    assert [mid for mid, _ in store.iter_records(only_unanalysed=True)] == ["random-1"]
    store.save_findings(["random-1"], frame.clear(), detector="coach-x")
    assert [mid for mid, _ in store.iter_records(only_unanalysed=True)] == ["random-1"]


def test_save_findings_refuses_bad_frames(store: Store) -> None:
    store.import_entries(_entries([dumps(random_record(0, deals=1), pretty=False)]))
    with pytest.raises(ManillenError, match="no_such_column"):
        store.save_findings(["random-0"], pl.DataFrame([{**FINDING, "no_such_column": 1}]))
    with pytest.raises(ManillenError):
        store.save_findings(["random-0"], pl.DataFrame([{**FINDING, "severity": "catastrophe"}]))
    assert _count(store, "findings") == 0


# --------------------------------------------------------------------------- solver costs


def _solved(store: Store, seeds: tuple[int, ...] = (0, 1)) -> dict[str, tuple[MatchResult, list[PlayCost]]]:
    """Import one-deal matches and their first deal's costs (hindsight only: fast)."""
    records = [random_record(seed, deals=1) for seed in seeds]
    store.import_entries(_entries([dumps(record, pretty=False) for record in records]))
    solved = {}
    for record in records:
        result = decode_and_replay(dumps(record, pretty=False))
        solved[result.id] = (result, dd_costs(result.deals[0], result.rules))
    return solved


@pytest.mark.solver
def test_save_costs_stores_every_play_and_every_legal_card(store: Store) -> None:
    solved = _solved(store)
    for result, costs in solved.values():
        store.save_costs([result.id], *cost_frames(result, {1: costs}))
    result, costs = solved["random-0"]
    rows = store.query(
        "SELECT trick, play, seat, player, card, dd_cost, view_cost, best, legal, forced FROM play_costs "
        "WHERE match_id = 'random-0' ORDER BY trick, play"
    )
    assert rows.height == len(costs) == 32
    plays = store.query(
        "SELECT trick, position AS play, seat, player, card, bit_count(legal_mask) = 1 AS forced FROM plays "
        "WHERE match_id = 'random-0' ORDER BY trick, position"
    )
    assert rows.select("trick", "play", "seat", "player", "card", "forced").rows() == plays.rows()
    assert rows["dd_cost"].to_list() == [c.dd_cost for c in costs]
    assert rows["best"].to_list() == [[str(card) for card in c.best_cards] for c in costs]
    assert rows["view_cost"].null_count() == rows.height  # hindsight only
    values = store.query(
        "SELECT v.trick, v.play, count(*) AS cards, max(v.hindsight) AS top "
        "FROM card_values v WHERE match_id = 'random-0' GROUP BY ALL ORDER BY ALL"
    )
    assert values["cards"].to_list() == [len(c.values) for c in costs]
    assert values["top"].to_list() == [max(v.hindsight for v in c.values.values()) for c in costs]


@pytest.mark.solver
def test_save_costs_replaces_only_the_given_matches(store: Store) -> None:
    solved = _solved(store)
    both = [cost_frames(result, {1: costs}) for result, costs in solved.values()]
    store.save_costs(list(solved), pl.concat([b[0] for b in both]), pl.concat([b[1] for b in both]))
    result, costs = solved["random-0"]
    store.save_costs([result.id], *cost_frames(result, {1: costs[:4]}))
    counts = store.query("SELECT match_id, count(*) AS n FROM play_costs GROUP BY 1 ORDER BY 1").rows()
    assert counts == [("random-0", 4), ("random-1", 32)]
    empty = cost_frames(result, {})
    store.save_costs(["random-1"], *empty)
    assert _count(store, "play_costs") == 4 and _count(store, "card_values", "match_id = 'random-1'") == 0


@pytest.mark.solver
def test_save_costs_refuses_bad_frames_and_keeps_the_old_rows(store: Store) -> None:
    solved = _solved(store, (0,))
    result, costs = solved["random-0"]
    plays, values = cost_frames(result, {1: costs})
    store.save_costs([result.id], plays, values)
    with pytest.raises(ManillenError, match="unknown columns extra"):
        store.save_costs([result.id], plays.with_columns(extra=pl.lit(1)), values)
    with pytest.raises(ManillenError, match="missing columns hindsight"):
        store.save_costs([result.id], plays, values.drop("hindsight"))
    with pytest.raises(ManillenError, match="not being replaced: random-0"):
        store.save_costs(["random-9"], plays, values)
    with pytest.raises(ManillenError, match="could not save costs"):
        store.save_costs([result.id], plays.with_columns(card=pl.lit(None, pl.String)), values)
    assert _count(store, "play_costs") == 32 and _count(store, "card_values") == values.height


@pytest.mark.solver
def test_costs_go_when_a_changed_match_is_imported_again(store: Store) -> None:
    """The costs are of the cards: a new venue keeps them, another deal drops them."""
    solved = _solved(store, (0,))
    result, costs = solved["random-0"]
    store.save_costs([result.id], *cost_frames(result, {1: costs}))
    stored = _count(store, "play_costs")
    record = random_record(0, deals=1)
    record.match.venue = "Cafe Nieuw"
    store.import_entries(_entries([dumps(record, pretty=False)]))
    assert _count(store, "play_costs") == stored > 0
    store.import_entries(_entries([dumps(random_record(0, deals=2), pretty=False)]))
    assert _count(store, "play_costs") == 0 and _count(store, "card_values") == 0


@pytest.mark.solver
def test_player_accuracy_is_the_solvers_accuracy(
    costed_sample: tuple[Store, MatchResult, list[PlayCost]],
) -> None:
    archive, result, costs = costed_sample
    rows = archive.query(
        "SELECT scope, deal, player, cards, accuracy FROM player_accuracy WHERE match_id = ?", [result.id]
    )
    by_seat = deal_accuracy(costs)
    names = result.deals[0].names or result.seats
    expected = {names[seat]: value for seat, value in by_seat.items() if value is not None}
    for scope in ("deal", "match"):
        got = {r["player"]: r["accuracy"] for r in rows.iter_rows(named=True) if r["scope"] == scope}
        assert got.keys() == expected.keys()
        for player, value in expected.items():
            assert got[player] == pytest.approx(value, abs=1e-9)
    chosen = [c for c in costs if counts_for_accuracy(c)]
    assert rows.filter(pl.col("scope") == "match")["cards"].sum() == len(chosen)
    overall = archive.query(
        "SELECT player, accuracy FROM player_accuracy WHERE scope = 'all' ORDER BY player"
    )
    assert overall["player"].to_list() == sorted(expected)


def test_save_findings_records_the_analysis_depth(store: Store) -> None:
    store.import_entries(_entries([dumps(random_record(0, deals=1), pretty=False)]))
    store.save_findings(["random-0"], pl.DataFrame([FINDING]), depth="solver")
    assert store.query("SELECT analysis_depth FROM matches")["analysis_depth"].to_list() == ["solver"]
    with pytest.raises(ManillenError, match="unknown analysis depth 'deep'"):
        store.save_findings(["random-0"], pl.DataFrame([FINDING]), depth="deep")


def test_annotations_add_update_delete(store: Store) -> None:
    store.import_entries(_entries([dumps(random_record(0, deals=2), pretty=False)]))
    first = store.add_annotation("random-0", 2, 3, 1, "coach", "Lead trump here.", ["tempo"])
    second = store.add_annotation("random-0", 1, None, None, "Anna", "Nice deal.")
    assert second == first + 1
    store.update_annotation(first, "Lead a trump here.", None)
    row = store.query("SELECT * FROM annotations WHERE annotation_id = ?", [first]).row(0, named=True)
    assert (row["text"], row["tags"], row["trick"], row["play"]) == ("Lead a trump here.", None, 3, 1)
    store.delete_annotation(second)
    assert _count(store, "annotations") == 1
    for place in [
        ("nope", 1, None, None),
        ("random-0", 3, None, None),
        ("random-0", 1, 9, None),
        ("random-0", 1, 1, 5),
    ]:
        with pytest.raises(ManillenError):
            store.add_annotation(*place, "coach", "x")
    with pytest.raises(ManillenError):
        store.delete_annotation(999)


def test_an_annotation_changed_meanwhile_is_not_overwritten_by_an_edit_begun_before(store: Store) -> None:
    store.import_entries(_entries([dumps(random_record(0, deals=2), pretty=False)]))
    comment = store.add_annotation("random-0", 2, 3, 1, "Jef", "Lead trump here.", ["tempo"])
    first = ("Lead trump here.", ["tempo"])
    store.update_annotation(comment, "Lead the ace of trumps.", ["tempo"], was=first)
    # a second tab, its box filled before that save, saves its own words: refused, told what is there
    with pytest.raises(AnnotationChangedError) as refused:
        store.update_annotation(comment, "Smear here.", None, was=first)
    assert (refused.value.text, refused.value.tags) == ("Lead the ace of trumps.", ["tempo"])
    row = store.query("SELECT text, tags FROM annotations WHERE annotation_id = ?", [comment]).row(0)
    assert row == ("Lead the ace of trumps.", ["tempo"])
    # the tags alone changed meanwhile count too; no tags (NULL) compare as the same
    second = ("Lead the ace of trumps.", ["tempo"])
    store.update_annotation(comment, "Lead the ace of trumps.", None, was=second)
    with pytest.raises(AnnotationChangedError):
        store.update_annotation(comment, "x", None, was=second)
    store.update_annotation(comment, "Smear here.", ["vetten"], was=("Lead the ace of trumps.", None))
    text = store.query("SELECT text FROM annotations WHERE annotation_id = ?", [comment]).item()
    assert text == "Smear here."
    store.delete_annotation(comment)
    with pytest.raises(NoSuchAnnotationError):
        store.update_annotation(comment, "y", None, was=("Smear here.", ["vetten"]))


def test_export_records_gives_back_what_was_imported(store: Store, sample_records: list[str]) -> None:
    store.import_entries(_entries(sample_records))
    assert list(store.iter_export_lines()) == sample_records


def test_export_records_includes_new_annotations(store: Store) -> None:
    record = random_record(0, deals=2)
    store.import_entries(_entries([dumps(record, pretty=False)]))
    store.add_annotation("random-0", 2, 1, None, "coach", "Why not trump?", ["question"])
    exported = loads(next(store.iter_export_lines()))
    notes = exported.deals[1].annotations
    assert isinstance(notes, list) and len(notes) == 1
    assert (notes[0].trick, notes[0].text, notes[0].tags, notes[0].play) == (
        1,
        "Why not trump?",
        ["question"],
        msgspec.UNSET,
    )
    assert exported.deals[0].annotations is msgspec.UNSET


def test_export_parquet_reads_back(sample_db: Path, tmp_path: Path) -> None:
    told: list[tuple[int, int]] = []
    with Store(sample_db, read_only=True) as archive:
        counts = archive.export_parquet(
            tmp_path / "out", on_rows=lambda rows, total: told.append((rows, total))
        )
    # the progress: each table's and summary view's rows once, out of every row (the bar in rows)
    written = (*TABLES, *SUMMARY_VIEWS)
    assert [rows for rows, _ in told] == [counts[table] for table in written]
    assert {total for _, total in told} == {sum(counts.values())}
    with Store(sample_db, read_only=True) as archive:
        for table in written:
            assert counts[table] == _count(archive, table)
        # a view as it read at the export: the documented questions answered from the files alone
        summary = archive.query("SELECT * FROM player_summary ORDER BY player")
    assert set(counts) == set(written) and counts["player_summary"] > 0
    for table in written:
        if table == "plays":
            frame = pl.read_parquet(tmp_path / "out" / "plays" / "**" / "*.parquet", hive_partitioning=True)
            assert set(frame["year"].drop_nulls().unique().to_list()) == {2025, 2026}
            assert frame["year"].null_count() > 0  # the undated matches
        else:
            frame = pl.read_parquet(tmp_path / "out" / f"{table}.parquet")
        assert frame.height == counts[table], table
    assert pl.read_parquet(tmp_path / "out" / "player_summary.parquet").sort("player").equals(summary)
    with Store(sample_db, read_only=True) as archive, pytest.raises(ArchiveError, match="not empty"):
        archive.export_parquet(tmp_path / "out")


def test_every_exported_column_keeps_its_archive_type(sample_db: Path, tmp_path: Path) -> None:
    """Parquet has no HUGEINT: a column of that type (a sum() left uncast) was written as DOUBLE,
    so `deal_ledger.cards` came back as 32.0 in polars and pandas."""
    with Store(sample_db, read_only=True) as archive:
        archive.export_parquet(tmp_path / "out")
        written = {
            table: archive.query(f"SELECT column_name, column_type FROM (DESCRIBE {table})").rows()
            for table in (*TABLES, *SUMMARY_VIEWS)
        }
    changed = []
    for table, columns in written.items():
        assert "HUGEINT" not in {kind for _, kind in columns}, table
        files = (
            f"{tmp_path / 'out' / table}/**/*.parquet"
            if table == "plays"
            else f"{tmp_path / 'out' / table}.parquet"
        )
        read = duckdb.sql(f"SELECT column_name, column_type FROM (DESCRIBE FROM read_parquet('{files}'))")
        kinds = dict(read.fetchall())
        changed += [(table, name, kind, kinds[name]) for name, kind in columns if kinds[name] != kind]
    assert not changed


def test_pandas_reads_the_plays_folder_with_undated_matches_as_the_docs_say(tmp_path: Path) -> None:
    import pandas as pd
    import pyarrow as pa
    import pyarrow.dataset

    dated, undated = random_record(1, deals=1), random_record(2, deals=1)
    day = datetime.date(2026, 12, 4)
    dated = msgspec.structs.replace(dated, match=msgspec.structs.replace(dated.match, date=day))
    with Store(tmp_path / "a.duckdb") as archive:
        archive.import_entries(_entries([dumps(dated, pretty=False), dumps(undated, pretty=False)]))
        archive.export_parquet(tmp_path / "export")
        plays = _count(archive, "plays")
    folder = str(tmp_path / "export" / "plays")
    with pytest.raises(pa.ArrowInvalid, match="dictionaries with nulls"):
        pd.read_parquet(folder)  # why the docs give the partitioning
    years = pyarrow.dataset.partitioning(pa.schema([("year", pa.int32())]), flavor="hive")
    frame = pd.read_parquet(folder, partitioning=years)
    assert len(frame) == plays and 0 < frame["year"].isna().sum() < plays


def test_player_summary_counts_won_and_lost_among_the_deals_played(tmp_path: Path) -> None:
    """A scoresheet-only deal (a score without its cards) is not among ``deals`` (played to the
    end): it is not among the deals won or lost either, so a win rate over them stays a rate."""
    samples = Path(__file__).resolve().parent.parent / "data" / "samples"
    with Store(tmp_path / "samples.duckdb") as archive:
        archive.import_paths([samples])
        assert _count(archive, "deals", "kind = 'scoresheet'") > 0
        rows = archive.query("SELECT player, deals, deals_won, deals_lost FROM player_summary").rows()
        played = dict(
            archive.query(
                "SELECT player, count(*) FILTER (WHERE won) FROM player_deals "
                "WHERE kind = 'played' GROUP BY 1"
            ).rows()
        )
    assert rows and all(won + lost <= deals for _, deals, won, lost in rows)
    assert {player: won for player, _, won, _ in rows} == played


# --------------------------------------------------------------------------- migrations and opening


def test_old_archive_is_upgraded_when_opened(tmp_path: Path) -> None:
    path = tmp_path / "old.duckdb"
    connection = duckdb.connect(str(path))
    assert apply_migrations(connection, upto=1) == [1]
    connection.close()
    with pytest.raises(ArchiveError, match="schema version 1"):
        Store(path, read_only=True)
    with Store(path) as archive:
        assert archive.schema_version == SCHEMA_VERSION == 25
        archive.import_entries(_entries([dumps(random_record(0, deals=1), pretty=False)]))
        assert archive.query("SELECT analysed_at FROM matches")["analysed_at"].to_list() == [None]
        versions = archive.query("SELECT version FROM schema_version ORDER BY 1")["version"].to_list()
        assert versions == list(range(1, 26))
        kept = ("evenings", "evening_tables", "saves", "puzzle_reviews", "club_rules")
        assert [_count(archive, t) for t in kept] == [0] * 5
        columns = archive.query("SELECT * FROM player_findings LIMIT 0").columns
        assert {"points", "deals_played", "points_per_deal"} <= set(columns)
        assert _count(archive, "play_costs") == 0 and _count(archive, "card_values") == 0
        assert {"accuracy", "decisions", "calls"} <= set(
            archive.query("SELECT * FROM player_accuracy LIMIT 0").columns
        )
        assert _count(archive, "call_decisions") == 0
        assert {"cards", "won_back", "luck"} <= set(
            archive.query("SELECT * FROM deal_ledger LIMIT 0").columns
        )
    with Store(path, read_only=True) as archive:
        assert _count(archive, "matches") == 1


def test_a_new_archive_is_made_whole_or_not_at_all(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new archive takes every step in one transaction: a step that fails leaves no table of
    the steps before it; an old archive still keeps each step it took."""
    from manillen_replay.store import schema

    broken = schema.Migration(SCHEMA_VERSION + 1, "a step that fails", "CREATE TABLE matches (x INTEGER)")
    monkeypatch.setattr(schema, "MIGRATIONS", [*schema.MIGRATIONS, broken])
    new = duckdb.connect(str(tmp_path / "new.duckdb"))
    with pytest.raises(duckdb.CatalogException):
        apply_migrations(new)
    assert new.sql("SELECT count(*) FROM duckdb_tables()").fetchall() == [(0,)]
    assert schema_version_of(new) == 0
    old = duckdb.connect(str(tmp_path / "old.duckdb"))
    assert apply_migrations(old, upto=1) == [1]
    with pytest.raises(duckdb.CatalogException):
        apply_migrations(old)
    assert schema_version_of(old) == SCHEMA_VERSION  # the steps that worked, each kept
    monkeypatch.undo()
    assert apply_migrations(new) == [migration.version for migration in schema.MIGRATIONS]


CATALOG = {
    "columns": "SELECT table_name, column_index, column_name, data_type, column_default, is_nullable "
    "FROM duckdb_columns() WHERE schema_name = 'main' AND database_name = current_database()",
    "constraints": "SELECT table_name, constraint_type, constraint_text, expression, constraint_column_names "
    "FROM duckdb_constraints() WHERE schema_name = 'main' AND database_name = current_database()",
    "views": "SELECT view_name, sql FROM duckdb_views() "
    "WHERE NOT internal AND schema_name = 'main' AND database_name = current_database()",
}
"""What a schema is made of: each table's columns (with their defaults and generated values),
each constraint and each view as DuckDB keeps it."""


def test_a_new_archive_made_at_once_is_the_archive_the_steps_make(monkeypatch: pytest.MonkeyPatch) -> None:
    """A new archive takes the latest schema at once, as this process read it back from the first
    archive it built step by step: the same columns, constraints and views as that one and as an
    old archive upgraded one step at a time, the same ``schema_version`` rows, and a match
    stored and read back the same."""
    from manillen_replay.store import schema

    monkeypatch.setattr(schema, "_LATEST_SCHEMAS", {})
    old = duckdb.connect()
    assert apply_migrations(old, upto=1) == [1]
    assert schema._LATEST_SCHEMAS == {}  # read back from a whole new archive only
    assert apply_migrations(old) == [m.version for m in schema.MIGRATIONS[1:]]
    record = dumps(random_record(3, deals=2), pretty=False)
    seen = []
    for _ in ("stepped", "at once"):
        with Store() as archive:
            archive.import_entries(_entries([record]))
            names = archive.query("SELECT view_name FROM duckdb_views() WHERE NOT internal")["view_name"]
            stored = {view: archive.query(f"SELECT * FROM {view} ORDER BY ALL").rows() for view in names}
            versions = archive.query("SELECT version, description FROM schema_version ORDER BY 1").rows()
            catalog = {name: sorted(archive.query(sql).rows(), key=repr) for name, sql in CATALOG.items()}
            seen.append((catalog, versions, stored))
        made = schema._LATEST_SCHEMAS[schema.MIGRATIONS]
        assert made is not None
    kinds = [
        "view" if schema._VIEW_WRITTEN.match(statement) else statement.split("(")[0] for statement in made
    ]
    views = len(seen[0][0]["views"])
    assert all(kind.startswith("CREATE TABLE ") for kind in kinds[:-views])  # the tables, then the views
    assert kinds[-views:] == ["view"] * views and views >= 9
    assert seen[1] == seen[0]
    assert all(seen[0][2][view] for view in ("plays", "hands", "player_deals", "player_summary"))
    assert seen[0][0] == {name: sorted(old.sql(sql).fetchall(), key=repr) for name, sql in CATALOG.items()}


def test_matches_analysed_before_migration_5_count_as_heuristic(tmp_path: Path) -> None:
    path = tmp_path / "old.duckdb"
    with Store(path) as archive:
        archive.import_entries(_entries([dumps(random_record(s, deals=1), pretty=False) for s in (0, 1)]))
    connection = duckdb.connect(str(path))
    # back to schema 4: the analysis depth, the costs, the call decisions and the ledger did not exist yet
    connection.execute("DROP VIEW player_ledger; DROP VIEW deal_ledger")  # migration 7 builds on 5
    connection.execute(
        "DROP VIEW player_accuracy; DROP TABLE play_costs; DROP TABLE card_values; DROP TABLE call_decisions"
    )
    connection.execute("DROP TABLE match_versions")  # migration 10
    connection.execute("DROP TABLE evenings; DROP TABLE evening_tables; DROP TABLE saves")  # migration 12
    connection.execute("ALTER TABLE matches DROP COLUMN analysis_depth")
    connection.execute("DELETE FROM schema_version WHERE version >= 5")
    connection.execute("UPDATE matches SET analysed_at = now() WHERE match_id = 'random-0'")
    connection.close()
    with Store(path) as archive:
        depths = archive.query("SELECT match_id, analysis_depth FROM matches ORDER BY 1").rows()
        assert depths == [("random-0", "heuristic"), ("random-1", None)]


def test_a_club_evening_has_no_team_score_or_winner_and_migration_22_clears_those_stored_before(
    tmp_path: Path,
) -> None:
    """The last block's score and winner were stored beside the first block's seats: a query of
    the evening's winners credited Anna & Carla with an evening Carla lost."""
    evening = (Path(__file__).resolve().parent.parent / "data" / "samples" / "club-evening.json").read_text()
    plain = dumps(random_record(0, deals=2), pretty=False)
    path = tmp_path / "old.duckdb"
    columns = "score_0, score_1, score_2, final_score_0, final_score_1, final_score_2, winner"
    with Store(path) as archive:
        archive.import_entries(_entries([evening, plain]))
        rows = dict(archive.query(f"SELECT match_id, [{columns}] FROM matches").rows())
        assert rows["club-evening-2026-11-27"] == [None] * 7
        assert rows["random-0"][:2] != [None, None]
        kept = rows["random-0"]
    connection = duckdb.connect(str(path))
    # back to schema 21, as an import by the code before left it
    connection.execute(
        "UPDATE matches SET score_0 = 58, score_1 = 24, final_score_0 = 58, final_score_1 = 24, winner = 0 "
        "WHERE match_id = 'club-evening-2026-11-27'"
    )
    for column in ("score_0", "score_1", "final_score_0", "final_score_1"):
        connection.execute(f"ALTER TABLE matches ALTER COLUMN {column} SET NOT NULL")
    connection.execute("DELETE FROM schema_version WHERE version >= 22")
    connection.close()
    with Store(path) as archive:
        rows = dict(archive.query(f"SELECT match_id, [{columns}] FROM matches").rows())
    assert rows == {"club-evening-2026-11-27": [None] * 7, "random-0": kept}


def test_a_match_of_a_fixed_number_of_deals_has_no_target_and_schema_23_clears_the_stored_101(
    tmp_path: Path,
) -> None:
    """A club evening (and any match of a fixed number of deals) plays to no target: the rules'
    default 101 was stored, and a query of targets read it as one."""
    evening = (Path(__file__).resolve().parent.parent / "data" / "samples" / "club-evening.json").read_text()
    plain = dumps(random_record(0, deals=2), pretty=False)
    path = tmp_path / "old.duckdb"
    with Store(path) as archive:
        archive.import_entries(_entries([evening, plain]))
        rows = dict(archive.query("SELECT match_id, [format, target::VARCHAR] FROM matches").rows())
    assert rows == {"club-evening-2026-11-27": ["fixed", None], "random-0": ["target", "101"]}
    connection = duckdb.connect(str(path))
    # back to schema 22, as an import by the code before left it
    connection.execute("UPDATE matches SET target = 101")
    connection.execute("DELETE FROM schema_version WHERE version >= 23")
    connection.close()
    with Store(path) as archive:
        after = dict(archive.query("SELECT match_id, [format, target::VARCHAR] FROM matches").rows())
    assert after == rows


def test_newer_or_foreign_files_are_refused(tmp_path: Path) -> None:
    newer = tmp_path / "newer.duckdb"
    Store(newer).close()
    connection = duckdb.connect(str(newer))
    connection.execute("INSERT INTO schema_version VALUES (99, 'future', now())")
    connection.close()
    with pytest.raises(ArchiveError, match="newer"):
        Store(newer)
    with pytest.raises(ArchiveError, match="no archive"):
        Store(tmp_path / "missing.duckdb", read_only=True)
    text_file = tmp_path / "notes.duckdb"
    text_file.write_text("not a database")
    with pytest.raises(ArchiveError):
        Store(text_file)


HOLD = textwrap.dedent(
    """
    import sys, time
    from manillen_replay.store import Store
    store = Store(sys.argv[1])
    print("ready", flush=True)
    sys.stdin.read()
    """
)


def test_archive_held_by_another_process_gives_a_clear_message(tmp_path: Path) -> None:
    path = tmp_path / "held.duckdb"
    Store(path).close()
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
        for read_only in (False, True):
            with pytest.raises(ArchiveLockedError) as caught:
                Store(path, read_only=read_only)
            message = str(caught.value)
            assert str(path) in message and f"process {holder.pid}" in message
            # the holder is a plain Python program: the advice fits it, not a dashboard
            assert "close that program or wait for it to finish" in message
    finally:
        holder.communicate("", timeout=30)
    with Store(path) as archive:  # free again once the other program is gone
        assert archive.schema_version == SCHEMA_VERSION


IMPORTED_TABLES = (("matches", "EXCLUDE (imported_at)"), ("deals", ""), ("play_rows", ""), ("tricks", ""))
"""Each match, deal, card played and trick an import stores, the clock's column left out."""


def stored_rows(
    store: Store, tables: tuple[tuple[str, str], ...] = IMPORTED_TABLES
) -> dict[str, list[tuple[object, ...]]]:
    """The rows of these tables (each with the columns it leaves out), in order: two imports of
    the same records compare equal."""
    return {
        table: store.query(f"SELECT * {exclude} FROM {table} ORDER BY ALL").rows()
        for table, exclude in tables
    }


def test_club_evening_blocks_are_stored(store: Store) -> None:
    """A club evening's result, each player's blocks won, is in the archive."""
    path = Path(__file__).resolve().parent.parent / "data" / "samples" / "club-evening.json"
    store.import_paths([path])
    assert_archive_holds(store, [load(path)])
    won = store.query("SELECT player, blocks_won, blocks FROM blocks_won ORDER BY player")
    assert won.rows() == [("Anna", 3, 3), ("Bert", 1, 3), ("Carla", 1, 3), ("Dirk", 1, 3)]
    assert store.query("SELECT count(*) AS n FROM blocks")["n"][0] == 6


def test_consecutive_batches_are_loaded_together(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Batches are held until they have ``LOAD_BYTES`` bytes and loaded in one statement a table;
    a match a later batch of the file replaces is in before it is replaced; the archive is the
    one loading each batch alone gives."""
    monkeypatch.setattr(Store, "BATCH_SIZE", 2)
    first = [dumps(random_record(seed, deals=2), pretty=False) for seed in range(5)]
    again = dumps(random_record(1, deals=3), pretty=False)  # random-1 with another deal
    lines = [*first, again, *(dumps(random_record(seed, deals=1), pretty=False) for seed in (7, 8, 9))]
    loaded: list[list[str]] = []
    original = Store._load

    def load(self: Store, loads: list[tuple[str, Any]], replaced: list[str]) -> None:
        loaded.append(replaced)
        original(self, loads, replaced)

    monkeypatch.setattr(Store, "_load", load)
    archives = {}
    for gather in (0, 10**9):
        monkeypatch.setattr(Store, "LOAD_BYTES", gather)
        loaded.clear()
        with Store(tmp_path / f"gathered-{gather}.duckdb") as store:
            summary = store.import_entries(_entries(lines))
            assert (summary.imported, summary.replaced) == (8, 1)
            kept = store.query("SELECT deals FROM matches WHERE match_id = 'random-1'")
            assert kept["deals"].to_list() == [3]
            assert _count(store, "match_versions", "match_id = 'random-1' AND deals = 2") == 1
            archives[gather] = stored_rows(store)
        # Alone: a load a batch of two (the third replaces random-1). Together: the batches
        # before the replacing one in one load, the replacing one alone, the rest in one.
        assert loaded == ([[], [], ["random-1"], [], []] if gather == 0 else [[], ["random-1"], []])
    assert archives[0] == archives[10**9]


def test_the_dashboard_upgrades_an_old_archive_before_serving_it(tmp_path: Path) -> None:
    """Its pages open the archive read-only, where an old schema is refused: `manillen dashboard`
    upgrades it first and says so; a current archive is left as it is, without a word."""
    from click.testing import CliRunner

    from manillen_replay.cli.dashboard import _upgrade
    from manillen_replay.store import ArchiveOutdatedError

    path = tmp_path / "old.duckdb"
    connection = duckdb.connect(str(path))
    apply_migrations(connection, upto=SCHEMA_VERSION - 1)
    connection.close()
    with pytest.raises(ArchiveOutdatedError, match=f"schema version {SCHEMA_VERSION - 1}"):
        Store(path, read_only=True)
    runner = CliRunner()
    with runner.isolation() as (_, err, _):
        _upgrade(path)
        said = err.getvalue().decode()
    assert said == f"upgraded {path} to this version's layout (schema {SCHEMA_VERSION})\n"
    with Store(path, read_only=True) as archive:
        assert archive.schema_version == SCHEMA_VERSION
    with runner.isolation() as (_, err, _):
        _upgrade(path)
        assert err.getvalue() == b""
