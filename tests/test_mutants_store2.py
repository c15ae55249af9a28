"""How the import's loader thread holds batches back and loads them together: the behaviours the
mutation run of ``store/loader.py`` (changed 2026-12-05 evening) showed no other test defended.
Each load here is recorded instead of written, so what reaches DuckDB, and in how many
statements, can be read off."""

from __future__ import annotations

import json
import random
import threading
from typing import Any

import pyarrow as pa
import pytest

from manillen_replay import bulk
from manillen_replay.bulk import COMPILED_MINIMUM
from manillen_replay.club_rules import ClubRules
from manillen_replay.record import Entry, dumps
from manillen_replay.rules import Rules
from manillen_replay.store import Store
from manillen_replay.store.loader import _Loader

from .factories import random_record
from .test_bulk_replay import generated, laid_out
from .test_store import stored_rows


def _rows(count: int, note: str | None = "x") -> list[tuple[str, Any]]:
    """One batch's loads: ``count`` rows of the table ``deals``."""
    return [("deals", pa.table({"deal": list(range(count)), "note": [note] * count}))]


def _numbers(count: int, table: str = "deals") -> tuple[str, Any]:
    """``count`` rows of one 64-bit column for ``table``: 8 bytes a row, as the loader counts them."""
    return (table, pa.table({"deal": pa.array(range(count), pa.int64())}))


def _recording(gather: int) -> tuple[_Loader, list[tuple[list[tuple[str, Any]], list[str]]]]:
    loaded: list[tuple[list[tuple[str, Any]], list[str]]] = []
    return _Loader(lambda loads, replaced: loaded.append((loads, replaced)), gather=gather), loaded


def _shape(loaded: list[tuple[list[tuple[str, Any]], list[str]]]) -> list[list[tuple[str, int]]]:
    """Each load's tables and their rows."""
    return [[(target, rows.num_rows) for target, rows in loads] for loads, _ in loaded]


def test_batches_are_held_until_they_reach_the_bytes_asked_then_loaded_in_one_statement() -> None:
    """With 96 bytes (12 rows of 8 bytes) to gather: 5, 4 and 2 rows wait (88 bytes), a fourth
    batch of 1 makes 96 and the four go in one load; then 11 rows wait and 3 more make 14, loaded
    together; nothing is left."""
    loader, loaded = _recording(gather=96)
    for count in (5, 4, 2, 1, 11, 3):
        loader.submit([_numbers(count)], [])
    loader.finish()
    assert _shape(loaded) == [[("deals", 12)], [("deals", 14)]]
    assert loaded[0][0][0][1].column("deal").to_pylist() == [0, 1, 2, 3, 4, 0, 1, 2, 3, 0, 1, 0]


def test_the_rows_left_at_the_end_are_loaded_by_finish() -> None:
    loader, loaded = _recording(gather=96)
    for count in (5, 2):
        loader.submit([_numbers(count)], [])
    loader.finish()
    assert _shape(loaded) == [[("deals", 7)]]


def test_a_small_table_waits_while_the_large_one_is_loaded() -> None:
    """With 160 bytes to gather, a batch of 15 plays and 2 seats (136 bytes) waits; with the next
    (272 bytes) the plays, past half of 160, are loaded alone and the seats (32 bytes) wait for
    more: at :meth:`finish`, one statement for the seats of both batches."""
    loader, loaded = _recording(gather=160)
    for _ in range(2):
        loader.submit([_numbers(15, "plays"), _numbers(2, "seats")], [])
    loader.finish()
    assert _shape(loaded) == [[("plays", 30)], [("seats", 4)]]


def test_with_no_table_at_half_the_largest_is_loaded() -> None:
    """100 bytes to gather, held as 40, 32, 24 and 8 bytes: no table holds half, so the largest
    goes and the other 64 bytes wait."""
    loader, loaded = _recording(gather=100)
    loader.submit([_numbers(5, "a"), _numbers(4, "b"), _numbers(3, "c"), _numbers(1, "d")], [])
    loader.finish()
    assert _shape(loaded) == [[("a", 5)], [("b", 4), ("c", 3), ("d", 1)]]


def test_the_next_largest_go_while_the_rest_would_still_reach_what_is_gathered() -> None:
    """100 bytes to gather, held as 56, 48, 40 and 16 bytes: the 56 (past half) go, and the 48 with
    them, since the 104 left would still be 100 or more; 56 bytes wait."""
    loader, loaded = _recording(gather=100)
    loader.submit([_numbers(7, "a"), _numbers(6, "b"), _numbers(5, "c"), _numbers(2, "d")], [])
    loader.finish()
    assert _shape(loaded) == [[("a", 7), ("b", 6)], [("c", 5), ("d", 2)]]


def test_a_table_holding_exactly_half_is_loaded() -> None:
    """96 bytes to gather, held as 48, 48 and 8 bytes: both tables at exactly half go together;
    the 8 bytes wait."""
    loader, loaded = _recording(gather=96)
    loader.submit([_numbers(6, "a"), _numbers(6, "b"), _numbers(1, "c")], [])
    loader.finish()
    assert _shape(loaded) == [[("a", 6), ("b", 6)], [("c", 1)]]


def test_batches_whose_columns_do_not_join_are_loaded_one_by_one() -> None:
    """A column typed otherwise in one batch (numbers, not text): each batch is loaded as it is,
    in its order, instead of the import failing."""
    loader, loaded = _recording(gather=100)
    loader.submit(_rows(2), [])
    loader.submit([("deals", pa.table({"deal": [7], "note": [3]}))], [])
    loader.finish()
    statements = [(target, rows.column("note").to_pylist()) for loads, _ in loaded for target, rows in loads]
    assert statements == [("deals", ["x", "x"]), ("deals", [3])]


def test_a_column_without_a_value_in_one_batch_is_loaded_with_the_others_together() -> None:
    """A batch whose notes are all missing (its column typed null) still joins the others' load."""
    loader, loaded = _recording(gather=100)
    loader.submit(_rows(2), [])
    loader.submit(_rows(3, note=None), [])
    loader.finish()
    assert len(loaded) == 1
    ((target, rows),) = loaded[0][0]
    assert target == "deals" and rows.column("note").to_pylist() == ["x", "x", None, None, None]
    assert rows.schema.field("note").type == pa.string()


def test_at_most_one_load_waits_besides_the_one_being_loaded() -> None:
    """The memory bound: while a load is under way a second is queued and a third submit waits."""
    started, release = threading.Event(), threading.Event()

    def load(loads: list[tuple[str, Any]], replaced: list[str]) -> None:
        started.set()
        release.wait(5)

    loader = _Loader(load)
    loader.submit(_rows(1), [])
    assert started.wait(5)
    loader.submit(_rows(1), [])
    third = threading.Thread(target=loader.submit, args=(_rows(1), []))
    third.start()
    third.join(0.3)
    assert third.is_alive()  # waits for room in the queue
    release.set()
    third.join(5)
    assert not third.is_alive()
    loader.finish()


def test_records_imported_under_a_clubs_rules_are_played_by_them() -> None:
    """``manillen import --rules``: records that name no rules are replayed under the club's
    (which card was legal, who took each trick), as the same records naming them would be, in a
    file long enough for the compiled reading of the cards (which plays by a record's own rules)."""
    options = (("underbuy", "allowed"), ("trump_choice", "held_suit"))
    club = ClubRules("zwaan", Rules().with_options(**dict(options)))
    named = [line for seed in range(1, 30) for line in generated("four", seed, options)]
    unnamed = []
    for line in named:
        document = json.loads(line)
        del document["match"]["rules"]
        unnamed.append(json.dumps(document, separators=(",", ":")).encode())
    assert sum(len(json.loads(line)["deals"]) for line in named) >= COMPILED_MINIMUM
    archives = []
    for lines, rules in ((named, None), (unnamed, club)):
        with Store() as store:
            entries = [Entry("club.jsonl", number, line) for number, line in enumerate(lines, start=1)]
            summary = store.import_entries(entries, club=rules)
            assert summary.refused == 0 and summary.imported > 10
            archives.append(stored_rows(store))
    assert archives[0] == archives[1]


def test_progress_counts_the_records_sent_early_for_a_match_given_twice() -> None:
    """A match's second copy in a file sends what is pending first: those records count in the
    progress the import reports (the progress bar reaches the file's records)."""
    lines = [dumps(random_record(seed, deals=1), pretty=False).encode() for seed in (1, 2, 1, 3)]
    steps: list[int] = []
    with Store() as store:
        entries = [Entry("club.jsonl", number, line) for number, line in enumerate(lines, start=1)]
        store.import_entries(entries, on_progress=steps.append)
    assert sum(steps) == 4 and len(steps) == 2


@pytest.mark.parametrize("layout", ["no_tricks", "turned"])
def test_a_record_the_quick_reading_must_leave_is_imported_as_when_read_in_full(
    layout: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a file long enough for the compiled reading of the cards, a record with a deal it
    must play card by card (its hands without tricks, or a card turned where the rules turn
    none) is read in full and imported, or refused, as it is when the engine reads every record
    (a file too short for the compiled reading): the same rows, or the same problems at the same
    place."""
    lines = [line for seed in range(1, 30) for line in generated("four", seed)]
    lines[0] = laid_out(lines[0], layout, random.Random(3))
    assert sum(len(json.loads(line)["deals"]) for line in lines) >= COMPILED_MINIMUM
    entries = [Entry("club.jsonl", number, line) for number, line in enumerate(lines, start=1)]
    archives = []
    for fewest in (COMPILED_MINIMUM, 10**9):
        monkeypatch.setattr(bulk, "COMPILED_MINIMUM", fewest)
        with Store() as store:
            store.import_entries(entries)
            archives.append(
                stored_rows(
                    store,
                    (
                        ("matches", "EXCLUDE (imported_at, import_order)"),
                        ("deals", ""),
                        ("play_rows", ""),
                        ("rejects", "EXCLUDE (rejected_at)"),
                    ),
                )
            )
    assert archives[0] == archives[1]
