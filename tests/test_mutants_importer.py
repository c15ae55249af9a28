"""The import's core (manillen_replay/store/importer.py: ``import_entries``, ``_import_file``,
``_flush``, ``_load``): behaviours the mutation run of those functions showed no test defended.

What a user relies on when importing: the rows the archive holds afterwards, nothing of a
refused record or a rolled-back file left behind, the counts and progress the import reports,
and what ``manillen import`` says and exits with.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import pyarrow as pa

from manillen_replay.club_rules import ClubRules
from manillen_replay.engine import rules_of
from manillen_replay.record import Entry, Record, dumps, loads
from manillen_replay.rules import Rules
from manillen_replay.store import Store

from .factories import random_record
from .test_archive_invariants import assert_archive_holds

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
        store._load([], [record.match.id])
        store._loader = None
        assert (_count(store, "matches"), _count(store, "deals"), _count(store, "plays")) == (1, 2, 64)
        assert_archive_holds(store, [record])


def test_a_cancelled_batch_without_replacements_inserts_nothing() -> None:
    with Store() as store:
        store._loader = _Cancelled()  # type: ignore[assignment]
        store._load([("rejects", pa.table({"source": ["x.jsonl"]}))], [])
        store._loader = None
        assert _count(store, "rejects") == 0
