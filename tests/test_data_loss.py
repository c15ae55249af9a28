"""Issue 31's data-loss cases: nothing recorded or imported is lost without a question.

Two tables recording at once, an upload or import replacing a match, ``make demo`` rebuilding the
archive the dashboard records into, ``convert`` changing a record on the way, and ``convert``
writing over something that is not a file.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import duckdb
import msgspec
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from dashboards import data, drafts
from dashboards import recording as rec
from manillen_replay.archive_defaults import ANALYSIS_REVISION
from manillen_replay.cli import cli
from manillen_replay.errors import InvalidRecordError
from manillen_replay.record import (
    Annotation,
    Deal,
    Entry,
    Record,
    RecordedScore,
    dumps,
    dumps_text,
    loads,
    loads_text,
)
from manillen_replay.store import ArchiveError, Store, importer
from manillen_replay.store.analyse import analyse_archive
from manillen_replay.store.schema import ANALYSIS_TABLES

from .factories import random_record
from .test_dashboard import APP, open_expander, open_page, texts
from .test_dashboard_record import cards_of, legal_deal, start_match

# --------------------------------------------------------------------------- two tables at once


def _table(draft_id: str, match_id: str, deal: Deal) -> rec.Draft:
    """A table's draft with one deal entered card by card, ready to save."""
    setup = rec.Setup(match_id=match_id, seats=["Anna", "Bert", "Carla", "Dirk"], date="2026-12-04",
                      venue="De Zwaan", first_dealer=deal.dealer)  # fmt: skip
    draft = rec.new_draft(draft_id, setup)
    assert isinstance(deal.declarations, list) and isinstance(deal.hands, list)
    for call in deal.declarations:
        draft = rec.add_call(draft, call.seat, call.call, call.suit if isinstance(call.suit, str) else None)
    draft = rec.set_hands(draft, deal.hands)
    for card in cards_of(deal):
        draft = rec.play_card(draft, card)
    return draft


@pytest.fixture
def archive(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The dashboard's archive (not there yet) in a folder of its own, closed afterwards."""
    path = tmp_path / "table.duckdb"
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(path))
    yield path
    data.archive().close()


def _stored(path: Path) -> dict[str, int]:
    """Each match in the archive and its number of deals."""
    data.archive().close()
    with Store(path, read_only=True) as store:
        frame = store.query("SELECT match_id, deals FROM matches ORDER BY match_id")
    return dict(zip(frame["match_id"].to_list(), frame["deals"].to_list(), strict=True))


def test_a_new_match_id_is_unique_against_open_drafts(archive: Path) -> None:
    """Two phones at one venue on one day: the second table's match gets its own id although the
    first has saved nothing yet (its id is only in its draft)."""
    folder = drafts.folder(archive)
    first = rec.new_draft("aaaa1111", rec.Setup("2026-12-04-de-zwaan-1", ["A", "B", "C", "D"]))
    drafts.save(first, folder)
    taken = drafts.taken_ids([], folder)
    assert rec.suggest_match_id("2026-12-04", "De Zwaan", taken) == "2026-12-04-de-zwaan-2"


def test_two_tables_starting_on_the_record_page_get_two_ids(archive: Path) -> None:
    """The page itself: two sessions (two phones) start a match with the same date and venue."""
    ids = []
    for names in (["Anna", "Bert", "Carla", "Dirk"], ["Els", "Frans", "Griet", "Hendrik"]):
        at = AppTest.from_file(APP, default_timeout=60)
        draft_id = start_match(at, names)
        draft = drafts.load(draft_id, drafts.folder(archive))
        assert draft is not None
        ids.append(draft.setup.match_id)
    assert ids[0] != ids[1]


def test_a_save_never_replaces_another_tables_match(archive: Path) -> None:
    """Two drafts with one id (made before ids were unique against drafts, or at the very same
    moment): each table's deals are kept, the second under a new id, and its next deal goes to
    its own match."""
    one = _table("aaaa1111", "2026-12-04-de-zwaan-1", legal_deal(seed=7, dealer=3))
    two = _table("bbbb2222", "2026-12-04-de-zwaan-1", legal_deal(seed=11, dealer=3))
    for draft in (one, two):
        drafts.save(draft, drafts.folder(archive))
    saved_one = drafts.save_match(one)
    assert saved_one.match_id == "2026-12-04-de-zwaan-1" and saved_one.renamed_from is None
    saved_two = drafts.save_match(two)
    assert saved_two.renamed_from == "2026-12-04-de-zwaan-1"
    assert saved_two.match_id == "2026-12-04-de-zwaan-2"
    assert _stored(archive) == {"2026-12-04-de-zwaan-1": 1, "2026-12-04-de-zwaan-2": 1}
    # table two goes on under its new id: deal 2 replaces its own match, not table one's
    two, _, _ = rec.finish_deal(two)
    two = rec.rename(two, saved_two.match_id)
    deal = legal_deal(seed=12, dealer=0)
    assert isinstance(deal.declarations, list)
    two = rec.add_call(two, 0, "trump", str(deal.declarations[0].suit))
    for card in cards_of(deal):
        two = rec.play_card(two, card)
    again = drafts.save_match(two)
    assert again.renamed_from is None and again.match_id == "2026-12-04-de-zwaan-2"
    # and table one's own second save replaces its own first
    one, _, _ = rec.finish_deal(one)
    one = rec.add_call(one, 0, "trump", str(deal.declarations[0].suit))
    for card in cards_of(deal):
        one = rec.play_card(one, card)
    assert drafts.save_match(one).renamed_from is None
    assert _stored(archive) == {"2026-12-04-de-zwaan-1": 2, "2026-12-04-de-zwaan-2": 2}


def test_a_tables_match_corrected_by_an_upload_stays_the_tables(archive: Path) -> None:
    """The organiser replaces a table's match with a corrected file (Archive page, Replace): the
    table's next deal goes after the archive's deals, in the same match, rather than into a match
    of a new id holding the uncorrected deals again (which the evening's standings never count)."""
    table = _table("aaaa1111", "2026-12-04-de-zwaan-1", legal_deal(seed=7, dealer=3))
    drafts.save(table, drafts.folder(archive))
    assert drafts.save_match(table).match_id == "2026-12-04-de-zwaan-1"
    saved, _, result = rec.finish_deal(table)
    # the organiser's correction: the scoresheet line the table forgot, in the same match
    corrected = json.loads(rec.record_json(rec.to_record(saved, with_current=False)))
    score = result.deals[0].score
    assert score is not None and "recorded_score" not in corrected["deals"][0]
    corrected["deals"][0]["recorded_score"] = {"team": score.team, "points": score.points}
    data.archive().close()
    with Store(archive) as store:
        summary = store.import_entries([Entry("fix.json", None, json.dumps(corrected).encode())])
        assert summary.replaced == 1
    deal = legal_deal(seed=12, dealer=0)
    assert isinstance(deal.declarations, list)
    going_on = rec.add_call(saved, 0, "trump", str(deal.declarations[0].suit))
    for card in cards_of(deal):
        going_on = rec.play_card(going_on, card)
    finished, _, _ = rec.finish_deal(going_on)
    second = drafts.save_match(going_on, finished=finished)
    assert second.adopted and second.renamed_from is None and second.match_id == "2026-12-04-de-zwaan-1"
    assert _stored(archive) == {"2026-12-04-de-zwaan-1": 2}
    with Store(archive, read_only=True) as store:
        stored = json.loads(store.query("SELECT record FROM matches").item())
    assert stored["deals"][0] == corrected["deals"][0] and second.draft is not None
    assert second.draft.deals == stored["deals"]  # the table's page now holds the archive's deals


# --------------------------------------------------------------------------- replacing a match


def _shortened(record: Record, deals: int) -> Record:
    """The same match (same id) with only its first deals: an upload that lost most of it."""
    return msgspec.structs.replace(record, deals=record.deals[:deals])


def _entry(record: Record, source: str = "club.jsonl") -> Entry:
    return Entry(source, 1, dumps(record, pretty=False).encode())


def test_a_replaced_match_is_kept_and_can_be_restored() -> None:
    """A 15-deal match replaced by a 1-deal record under its id: the 15 deals (and a comment added
    in the archive) are kept in match_versions and come back with restore_version."""
    whole = random_record(3, deals=15)
    with Store() as store:
        store.import_entries([_entry(whole)])
        store.add_annotation("random-3", 2, None, None, "Coach", "why not the ace?", ["lead"])
        assert store.replacements_of([_entry(_shortened(whole, 1))])[0].deals_before == 15
        summary = store.import_entries([_entry(_shortened(whole, 1), "phone.jsonl")])
        assert summary.replaced == 1
        assert [r.describe() for r in summary.replacements] == [
            "random-3 (15 deals in the archive, 1 deal in phone.jsonl:1)"
        ]
        kept = store.query("SELECT version, deals, source FROM match_versions").rows()
        assert kept == [(1, 15, "club.jsonl")]
        restored = store.restore_version("random-3")
        assert restored.version == 1 and restored.summary.replaced == 1 and not restored.analysis
        assert store.query("SELECT deals FROM matches").rows() == [(15,)]
        notes = store.query("SELECT deal, author, text FROM annotations").rows()
        assert notes == [(2, "Coach", "why not the ace?")]
        # the 1-deal version it replaced is kept in turn: a restore is undone the same way
        assert store.query("SELECT version, deals FROM match_versions ORDER BY 1").rows() == [(1, 15), (2, 1)]
        with pytest.raises(ArchiveError, match="no version 9: the versions kept are 1, 2"):
            store.restore_version("random-3", 9)
        with pytest.raises(ArchiveError, match="no earlier version"):
            store.restore_version("random-4")


def _comments(store: Store) -> list[tuple[object, ...]]:
    return store.query(
        "SELECT deal, trick, play, author, text FROM annotations ORDER BY annotation_id"
    ).rows()


def test_a_corrected_match_keeps_the_coach_comments_it_still_has_a_place_for() -> None:
    """A record correcting a match (its venue, its last deal gone) replaces it: the comments a coach
    added in the archive stay, but for the one on the deal the correction took out (kept with the
    earlier version), and the record's own comments come beside them, a repeated one once."""
    whole = random_record(3, deals=3)
    with Store() as store:
        store.import_entries([_entry(whole)])
        store.add_annotation("random-3", 1, 2, 1, "Coach", "why not the ace?", ["lead"])
        counted = store.add_annotation("random-3", 2, None, None, "Coach", "well counted")
        store.add_annotation("random-3", 3, 1, None, "Coach", "this deal goes")
        corrected = _shortened(whole, 2)
        corrected.match.venue = "Cafe Nieuw"
        corrected.deals[1].annotations = [
            Annotation(author="Coach", text="well counted"),
            Annotation(author="Jef", text="agreed", trick=1),
        ]
        asked = store.replacements_of([_entry(corrected, "phone.jsonl")])
        assert [r.describe() for r in asked] == [
            "random-3 (3 deals in the archive, 2 deals in phone.jsonl:1; its 2 coach comments kept)"
        ]
        summary = store.import_entries([_entry(corrected, "phone.jsonl")])
        assert summary.replaced == 1 and [r.describe() for r in summary.replacements] == [
            r.describe() for r in asked
        ]
        assert _comments(store) == [
            (1, 2, 1, "Coach", "why not the ace?"),
            (2, None, None, "Coach", "well counted"),
            (2, 1, None, "Jef", "agreed"),
        ]
        assert store.query("SELECT tags FROM annotations WHERE text = 'why not the ace?'")[
            "tags"
        ].to_list() == [["lead"]]
        # the repeated comment is the archive's own, as written (its id and time), not the record's copy
        assert (
            store.query("SELECT annotation_id FROM annotations WHERE text = 'well counted'").item() == counted
        )
        kept = loads(store.query("SELECT record FROM match_versions").item())
        assert [note.text for note in kept.deals[2].annotations] == ["this deal goes"]


def test_the_same_game_with_other_comments_is_skipped_and_adds_the_new_comments() -> None:
    """An export of the archive imported again, or a version put back and its original file imported
    again: the game is the archive's, so the match and its solver review stay; comments the archive
    lacks are added, once."""
    whole = random_record(3, deals=2)
    with Store() as store:
        store.import_entries([_entry(whole)])
        analyse_archive(store, depth="solver", samples=2, match_ids=["random-3"])
        store.add_annotation("random-3", 1, None, None, "Coach", "mind the trumps")
        exported = [Entry("export.jsonl", 1, line.encode()) for line in store.iter_export_lines()]
        for _ in range(2):
            again = store.import_entries(exported)
            assert (again.skipped, again.replaced, again.comments_added) == (1, 0, 0)
        with_more = loads(exported[0].data.decode())
        with_more.deals[1].annotations = [Annotation(author="Jef", text="nice squeeze", trick=6, play=2)]
        added = store.import_entries([_entry(with_more, "jef.jsonl")])
        assert (added.skipped, added.replaced, added.comments_added) == (1, 0, 1)
        assert added.matches == 1
        assert store.replacements_of([_entry(with_more, "jef.jsonl")]) == []
        assert _comments(store) == [
            (1, None, None, "Coach", "mind the trumps"),
            (2, 6, 2, "Jef", "nice squeeze"),
        ]
        assert store.query("SELECT analysis_depth FROM matches").item() == "solver"
        assert store.query("SELECT count(*) FROM match_versions").item() == 0
        # a real correction after a restore: the original file is the same game again, skipped
        store.import_entries([_entry(_shortened(whole, 1), "phone.jsonl")])
        store.restore_version("random-3")
        original = store.import_entries([_entry(whole)])
        assert (original.skipped, original.replaced) == (1, 0)
        assert store.query("SELECT deals FROM matches").item() == 2


def test_a_match_whose_details_alone_changed_keeps_its_analysis() -> None:
    """Its venue corrected, the cards the same: the replaced match keeps its solver review (every
    analysis row, its depth) and says so; a card changed drops the review, kept with the version."""
    whole = random_record(3, deals=2)
    with Store() as store:
        store.import_entries([_entry(whole)])
        analyse_archive(store, depth="solver", samples=2, match_ids=["random-3"])
        reviewed = _analysis(store, "random-3")
        depth = store.query("SELECT analysis_depth, analysed_at, analysis_revision FROM matches").rows()
        assert depth[0][2] == ANALYSIS_REVISION
        corrected = loads(dumps(whole, pretty=False))
        corrected.match.venue = "Cafe Sport, Izegem"
        asked = store.replacements_of([_entry(corrected, "fix.jsonl")])
        summary = store.import_entries([_entry(corrected, "fix.jsonl")])
        assert summary.replaced == 1 and asked[0].analysis_kept
        assert (
            summary.replacements[0]
            .describe()
            .endswith("in fix.jsonl:1; its analysis kept: only the match's details changed)")
        )
        assert store.query("SELECT venue FROM matches").item() == "Cafe Sport, Izegem"
        assert _analysis(store, "random-3") == reviewed
        assert (
            store.query("SELECT analysis_depth, analysed_at, analysis_revision FROM matches").rows() == depth
        )
        # a card changed is another game: its review goes with the version kept
        changed = loads(dumps(corrected, pretty=False))
        changed.deals[1].hands[0], changed.deals[1].hands[1] = (
            changed.deals[1].hands[1],
            changed.deals[1].hands[0],
        )
        again = store.import_entries([_entry(changed, "fix.jsonl")])
        assert again.replaced + again.refused == 1 and not any(r.analysis_kept for r in again.replacements)
        if again.replaced:
            assert not any(_analysis(store, "random-3").values())
            assert store.query("SELECT analysis_depth FROM matches").item() is None


def test_restoring_a_version_whose_details_alone_differ_brings_its_analysis_back_once() -> None:
    """docs/cli.md's restore example after a change of date alone: the replaced match kept its
    review, the restore put the version's kept review back beside it, every finding twice."""
    whole = random_record(3, deals=2)
    with Store() as store:
        store.import_entries([_entry(whole)])
        analyse_archive(store, depth="solver", samples=2, match_ids=["random-3"])
        reviewed = _analysis(store, "random-3")
        counts = {table: len(rows) for table, rows in reviewed.items()}
        corrected = loads(dumps(whole, pretty=False))
        corrected.match.venue = "Cafe Sport, Izegem"
        assert store.import_entries([_entry(corrected, "fix.jsonl")]).replacements[0].analysis_kept
        for _ in range(2):  # back to the first version, then to the corrected one, then again
            restored = store.restore_version("random-3")
            assert restored.summary.replaced == 1
            assert {table: len(rows) for table, rows in _analysis(store, "random-3").items()} == counts
        assert _analysis(store, "random-3") == reviewed


def test_restoring_a_version_of_the_same_game_keeps_the_deeper_review() -> None:
    """The match's solver review, made after a change of venue, was thrown away for the quick
    check the earlier version had kept: the same cards, a shallower analysis put back."""
    whole = random_record(3, deals=2)
    with Store() as store:
        store.import_entries([_entry(whole)])
        analyse_archive(store, match_ids=["random-3"])  # the quick check only
        corrected = loads(dumps(whole, pretty=False))
        corrected.match.venue = "Cafe Sport, Izegem"
        store.import_entries([_entry(corrected, "fix.jsonl")])
        analyse_archive(store, depth="solver", samples=2, match_ids=["random-3"])
        reviewed = _analysis(store, "random-3")
        restored = store.restore_version("random-3")
        assert restored.summary.replaced == 1 and restored.analysis
        assert store.query("SELECT analysis_depth FROM matches").item() == "solver"
        assert _analysis(store, "random-3") == reviewed
        assert store.query("SELECT venue FROM matches").item() != "Cafe Sport, Izegem"


def test_manillen_import_says_what_happened_to_the_coach_comments(tmp_path: Path) -> None:
    db, first = tmp_path / "club.duckdb", tmp_path / "club.jsonl"
    whole = random_record(3, deals=2)
    first.write_text(dumps(whole, pretty=False) + "\n")
    runner = CliRunner()
    assert runner.invoke(cli, ["import", str(first), "--db", str(db), "--quiet"]).exit_code == 0
    with Store(db) as store:
        store.add_annotation("random-3", 1, None, None, "Coach", "a good start")
    exported = tmp_path / "export.jsonl"
    assert runner.invoke(cli, ["export", "--records", str(exported), "--db", str(db)]).exit_code == 0
    again = runner.invoke(cli, ["import", str(exported), "--db", str(db)])
    assert "imported 0 matches (0 deals), replaced 0, skipped 1 already present, refused 0" in again.stdout
    more = loads(exported.read_text())
    more.deals[1].annotations = [Annotation(author="Jef", text="nice")]
    exported.write_text(dumps(more, pretty=False) + "\n")
    added = runner.invoke(cli, ["import", str(exported), "--db", str(db)])
    assert "skipped 1 already present (1 coach comment added to them: the same games" in added.stdout
    corrected = _shortened(whole, 1)
    first.write_text(dumps(corrected, pretty=False) + "\n")
    replaced = runner.invoke(cli, ["import", str(first), "--db", str(db)])
    assert "replaced random-3 (2 deals in the archive, 1 deal in " in replaced.stderr
    assert "club.jsonl:1; its coach comment kept)" in replaced.stderr


def _analysis(store: Store, match: str) -> dict[str, list[tuple[object, ...]]]:
    """Every analysis row of a match, table by table, in order, without the findings' ids."""
    rows = {}
    for table in ANALYSIS_TABLES:
        frame = store.query(f"SELECT * FROM {table} WHERE match_id = ?", [match])
        if table == "findings":
            frame = frame.sort("finding_id").drop("finding_id")
        rows[table] = sorted(frame.rows(), key=repr) if table != "findings" else frame.rows()
    return rows


def test_a_restored_version_comes_back_with_its_analysis() -> None:
    """The solver's review of a match replaced by an upload comes back when the version is put
    back: every analysis row as it was, the findings under new ids, the depth it was analysed to."""
    whole = random_record(3, deals=2)
    with Store() as store:
        store.import_entries([_entry(whole), _entry(random_record(4, deals=1))])
        analyse_archive(store, depth="solver", samples=4, match_ids=["random-3"])
        reviewed = _analysis(store, "random-3")
        assert reviewed["play_costs"] and reviewed["card_values"] and reviewed["call_decisions"]
        store.import_entries([_entry(_shortened(whole, 1), "phone.jsonl")])
        assert not any(_analysis(store, "random-3").values())
        kept = "SELECT analysis_revision FROM match_versions WHERE match_id = 'random-3' AND version = 1"
        assert store.query(kept).item() == ANALYSIS_REVISION
        # as if an earlier version of the analysis had made it: it comes back as that one's
        store.query("UPDATE match_versions SET analysis_revision = 0 WHERE match_id = 'random-3'")
        # the version that replaced it, and another match, take finding ids meanwhile
        analyse_archive(store, match_ids=["random-3", "random-4"])
        scanned = _analysis(store, "random-3")
        assert (
            store.query("SELECT analysis_depth FROM matches WHERE match_id = 'random-3'").item()
            == "heuristic"
        )
        restored = store.restore_version("random-3")
        assert (restored.version, restored.summary.replaced, restored.analysis) == (1, 1, True)
        assert _analysis(store, "random-3") == reviewed
        depth = store.query(
            "SELECT analysis_depth, analysed_at IS NOT NULL, analysis_revision FROM matches "
            "WHERE match_id = 'random-3'"
        )
        assert depth.rows() == [("solver", True, 0)]  # so the dashboard reviews it again
        ids = store.query("SELECT count(*) AS n, count(DISTINCT finding_id) AS d FROM findings").row(0)
        assert ids[0] == ids[1]
        # the scanned version it replaced kept its own analysis, and comes back with it in turn
        again = store.restore_version("random-3", 2)
        assert again.analysis and _analysis(store, "random-3") == scanned
        assert (
            store.query("SELECT analysis_depth FROM matches WHERE match_id = 'random-3'").item()
            == "heuristic"
        )


def test_a_restore_whose_analysis_cannot_be_put_back_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    whole = random_record(3, deals=2)
    with Store() as store:
        store.import_entries([_entry(whole)])
        analyse_archive(store, match_ids=["random-3"])
        store.import_entries([_entry(_shortened(whole, 1), "phone.jsonl")])

        def fails(*_: object) -> bool:
            raise duckdb.IOException("disk full")

        monkeypatch.setattr(importer, "_put_back_analysis", fails)
        with pytest.raises(ArchiveError, match="rolled back"):
            store.restore_version("random-3")
        assert store.query("SELECT deals FROM matches").rows() == [(1,)]
        assert store.query("SELECT version FROM match_versions").rows() == [(1,)]


def test_an_import_told_not_to_replace_keeps_the_archives_match() -> None:
    whole = random_record(3, deals=15)
    with Store() as store:
        store.import_entries([_entry(whole)])
        summary = store.import_entries([_entry(_shortened(whole, 1))], replace=False)
        assert (summary.kept, summary.replaced, summary.deals) == (1, 0, 0)
        assert store.query("SELECT deals FROM matches").rows() == [(15,)]


def test_cli_import_names_what_it_replaced_and_restore_puts_it_back(tmp_path: Path) -> None:
    db, whole, short = tmp_path / "club.duckdb", tmp_path / "whole.json", tmp_path / "short.json"
    record = random_record(3, deals=15)
    whole.write_text(dumps(record))
    short.write_text(dumps(_shortened(record, 1)))
    runner = CliRunner()
    assert runner.invoke(cli, ["import", str(whole), "--db", str(db)]).exit_code == 0
    kept = runner.invoke(cli, ["import", str(short), "--no-replace", "--db", str(db)])
    assert kept.exit_code == 0 and "kept 1 as they were" in kept.stdout
    done = runner.invoke(cli, ["import", str(short), "--db", str(db), "-q"])
    assert done.exit_code == 0, done.output
    assert f"replaced random-3 (15 deals in the archive, 1 deal in {short})" in done.stderr
    assert f"manillen import --restore random-3 --db {db}" in done.stderr
    back = runner.invoke(cli, ["import", "--restore", "random-3", "--db", str(db)])
    assert back.exit_code == 0 and "restored version 1 of match random-3 (15 deals)" in back.stdout
    assert "which had not been analysed; analyse it with `manillen analyze" in back.stdout
    with Store(db, read_only=True) as store:
        assert store.query("SELECT deals FROM matches").rows() == [(15,)]
    missing = runner.invoke(cli, ["import", "--restore", "random-9", "--db", str(db)])
    assert missing.exit_code == 2 and "no earlier version of match 'random-9'" in missing.stderr
    assert "Traceback" not in missing.output
    with Store(db) as store:
        analyse_archive(store, match_ids=["random-3"])
    runner.invoke(cli, ["import", str(short), "--db", str(db), "-q"])
    with_analysis = runner.invoke(cli, ["import", "--restore", "random-3", "--version", "3", "--db", str(db)])
    assert (
        "restored version 3 of match random-3 (15 deals) with its analysis as it was" in with_analysis.stdout
    )
    alone = runner.invoke(cli, ["import", "--version", "2", "--db", str(db)])
    assert alone.exit_code == 2 and "--version N goes with --restore" in alone.stderr


def test_cli_restore_that_cannot_write_the_archive_is_no_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder the archive's temporary files could not go in was a usage error (exit 2, the
    usage printed, "... Operation not permitted in club.duckdb"): an archive that cannot be
    written ends in its own words, exit code 1, as the other commands end it."""
    from manillen_replay.store import ArchiveError

    db = tmp_path / "club.duckdb"
    with Store(db) as store:
        store.import_entries([_entry(random_record(3, deals=2))])
        store.import_entries([_entry(_shortened(random_record(3, deals=2), 1))])

    def refused(self: Store, match: str, version: int | None = None) -> None:
        raise ArchiveError(
            f"could not make the folder for the import's temporary files beside {db!r}: denied"
        )

    monkeypatch.setattr(Store, "restore_version", refused)
    result = CliRunner().invoke(cli, ["import", "--restore", "random-3", "--db", str(db)])
    assert result.exit_code == 1 and "Usage:" not in result.stderr
    assert result.stderr.strip().endswith("temporary files beside " + repr(db) + ": denied")


def test_archive_upload_asks_before_replacing_and_offers_the_old_version_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "club.duckdb"
    whole = random_record(3, deals=15)
    with Store(path) as store:
        store.import_entries([_entry(whole)])
        store.add_annotation("random-3", 1, None, None, "Coach", "a good start")
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(path))
    at = open_expander(
        open_page(AppTest.from_file(APP, default_timeout=30), "archive"), "archive_upload_open"
    )
    upload = dumps(_shortened(whole, 1), pretty=False).encode()
    at.file_uploader(key="archive_upload").set_value(("phone.json", upload, "application/json")).run()
    at.button(key="archive_import").click().run()
    assert not at.exception, [e.value for e in at.exception]
    (question,) = [w.value for w in at.warning]
    assert "phone.json holds 1 match the archive already has" in question
    assert (
        "random-3: 15 deals in the archive, 1 deal in the file; its coach comment stays with it" in question
    )
    assert _stored(path) == {"random-3": 15}  # nothing replaced before the answer
    at.button(key="archive_replace_no").click().run()
    assert "Kept as they were in the archive: 1 match." in texts(at)
    assert _stored(path) == {"random-3": 15}
    scanned = _scanned(path)  # the upload analysed what was not yet: the 15 deals kept
    assert scanned[1] is not None
    at.button(key="archive_import").click().run()
    at.button(key="archive_replace_yes").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert (
        "Replaced random-3: 15 deals in the archive before, 1 deal now. Its earlier version is kept. "
        "Its coach comment stays with it." in texts(at)
    )
    assert "(1 deal)." in texts(at)  # one, not "1 deals"
    assert _stored(path) == {"random-3": 1}
    at.button(key="archive_restore_random-3").click().run()
    assert "Version 1 of random-3 is back (15 deals), with its analysis as it was." in texts(at)
    assert _stored(path) == {"random-3": 15}
    assert _scanned(path) == scanned
    # the original file again is the game put back (its comment merged in): nothing to ask
    original = dumps(whole, pretty=False).encode()
    at.file_uploader(key="archive_upload").set_value(("club.json", original, "application/json")).run()
    at.button(key="archive_import").click().run()
    assert not at.warning and "club.json: 0 imported, 0 replaced, 1 already present" in texts(at)
    assert _scanned(path) == scanned


def _scanned(path: Path) -> tuple[int, str | None]:
    """How many findings the archive's one match has, and how deep its analysis went."""
    with Store(path, read_only=True) as store:
        depth = store.query("SELECT analysis_depth FROM matches").item()
        return store.query("SELECT count(*) FROM findings").item(), depth


# --------------------------------------------------------------------------- make demo


ROOT = Path(__file__).resolve().parent.parent


def _make_recipe(target: str) -> list[str]:
    """The command lines of a Makefile target, as written (make's own variables unexpanded)."""
    lines = (ROOT / "Makefile").read_text(encoding="utf-8").splitlines()
    start = lines.index(next(line for line in lines if line.startswith(f"{target}:")))
    recipe = []
    for line in lines[start + 1 :]:
        if not line.startswith("\t"):
            break
        recipe.append(line[1:])
    return recipe


def test_make_demo_keeps_the_matches_recorded_into_the_demo_archive(archive: Path) -> None:
    """A deal saved on the Record page into the demo archive survives `make demo-db` (which
    `make demo` runs first), and its draft's "saved" stays true."""
    table = _table("aaaa1111", "2026-12-04-de-zwaan-1", legal_deal(seed=7, dealer=3))
    finished, _, _ = rec.finish_deal(table)
    assert drafts.save_match(table, finished=finished).match_id == "2026-12-04-de-zwaan-1"
    data.archive().close()
    recipe = _make_recipe("demo-db")
    assert not any(word in line.split() for line in recipe for word in ("rm", "mv", "cp"))
    bin_folder = ROOT / ".venv" / "bin"
    for _ in range(2):  # and again: a second make demo changes nothing
        for line in recipe:
            command = line.replace("$(BIN)", str(bin_folder)).replace("$(DEMO_DB)", str(archive))
            done = subprocess.run(["bash", "-c", command], cwd=ROOT, capture_output=True, text=True)
            assert done.returncode == 0, (command, done.stderr)
    stored = _stored(archive)
    assert stored["2026-12-04-de-zwaan-1"] == 1
    assert len(stored) == 1 + sum(1 for line in (ROOT / "data" / "demo.jsonl").open() if line.strip())
    assert drafts.load("aaaa1111", drafts.folder(archive)) is not None


def test_drafts_folders_are_not_committed() -> None:
    ignored = subprocess.run(
        ["git", "check-ignore", "data/demo.drafts/abc.json", "club.drafts/abc.json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert ignored.stdout.split() == ["data/demo.drafts/abc.json", "club.drafts/abc.json"]


# --------------------------------------------------------------------------- one rule for seat names

NAME_CHARACTERS = st.sampled_from([*"AaBbÉé ZzAnna&\"#:/|,[]=-_.'01239\t\n", "dummy", "deal", "x"])
"""Letters in both cases, the notation's special characters, digits, spaces and control
characters, and words the notation reads (a name of them is quoted, or refused)."""


def _named(record: Record, names: list[str]) -> Record:
    return msgspec.structs.replace(record, match=msgspec.structs.replace(record.match, seats=names))


def _with_sheet_line(record: Record) -> Record:
    """The match with one more deal as a scoresheet line only (a team written by its names)."""
    line = Deal(dealer=len(record.deals) % 4, recorded_score=RecordedScore(team=1, points=4))
    return msgspec.structs.replace(record, deals=[*record.deals, line])


@settings(max_examples=150, deadline=None)
@given(names=st.lists(st.lists(NAME_CHARACTERS, min_size=0, max_size=4).map("".join), min_size=4, max_size=4))
def test_json_to_text_to_json_is_the_same_record_or_refused(names: list[str]) -> None:
    """JSON -> text -> JSON gives the same record back, or the JSON is refused with a message
    naming the seat: never a changed record (two seats named alike once moved a dealer)."""
    document = dumps(_named(_with_sheet_line(random_record(5, deals=4)), names), pretty=False)
    try:
        record = loads(document, source="club.jsonl", line=3)
    except InvalidRecordError as error:
        assert error.problems and all(p.pointer.startswith("/match/seats/") for p in error.problems)
        assert all(p.describe().startswith("club.jsonl:3: /match/seats/") for p in error.problems)
        return
    back = loads_text(dumps_text(record))
    assert len(back) == 1 and dumps(back[0]) == dumps(record)


def test_two_seats_with_one_name_are_refused_in_json_text_and_the_record_page(tmp_path: Path) -> None:
    """The issue's case: seats Anna Bert Anna Dirk converted to text and back moved deal 4's
    dealer from seat 2 to seat 0, exit code 0. Now every way in refuses it, with the place."""
    record = _named(random_record(5, deals=4), ["Anna", "Bert", "Anna", "Dirk"])
    source = tmp_path / "dup.json"
    source.write_text(dumps(record))
    converted = CliRunner().invoke(cli, ["convert", str(source), str(tmp_path / "dup.mnl")])
    assert converted.exit_code == 1 and not (tmp_path / "dup.mnl").exists()
    assert f"{source}: /match/seats/2: seats 0 and 2 have the same name ('Anna')" in converted.stderr
    text = "match m\nseats Anna Bert anna Dirk\ndeal 1 dealer Dirk score Anna 6\n"
    with pytest.raises(InvalidRecordError, match=r"game.mnl:2:17: seats 0 and 2 have the same name"):
        Entry("game.mnl", None, text.encode(), notation=True).decode()
    with pytest.raises(rec.RecordingError, match="same name"):
        rec.new_draft("x", rec.Setup("m", ["Anna", "Bert", "ANNA", "Dirk"]))


# --------------------------------------------------------------------------- convert's OUT


SEED_TRICK = ROOT / "data" / "samples" / "seed-trick.json"


@pytest.mark.parametrize("kind", ["fifo", "symlink", "folder", "device"])
def test_convert_refuses_an_out_that_is_not_a_regular_file(kind: str, tmp_path: Path) -> None:
    """A pipe, a link, a folder or a device stays what it is (as root, /dev/full became a file)."""
    out = tmp_path / "out.mnl"
    if kind == "fifo":
        os.mkfifo(out)
    elif kind == "symlink":
        (tmp_path / "target.mnl").write_text("kept\n")
        out.symlink_to(tmp_path / "target.mnl")
    elif kind == "folder":
        out.mkdir()
    else:  # a device node of its own, like /dev/full (never the real one: old code replaced it)
        try:
            os.mknod(out, stat.S_IFCHR | 0o600, os.makedev(1, 7))
        except PermissionError:
            pytest.skip("making a device node needs root")
    before = os.lstat(out)
    result = CliRunner().invoke(cli, ["convert", str(SEED_TRICK), str(out)])
    assert result.exit_code == 2, result.output
    assert "not a regular file" in result.stderr and "Traceback" not in result.output
    after = os.lstat(out)
    assert (after.st_mode, after.st_ino) == (before.st_mode, before.st_ino)
    if kind == "symlink":
        assert (tmp_path / "target.mnl").read_text() == "kept\n"


def test_convert_still_replaces_a_regular_file(tmp_path: Path) -> None:
    out = tmp_path / "out.mnl"
    out.write_text("old\n")
    result = CliRunner().invoke(cli, ["convert", str(SEED_TRICK), str(out)])
    assert result.exit_code == 0 and out.read_text().startswith("match seed-trick")


# --------------------------------------------------------------------------- smaller items


def test_a_crafted_draft_address_is_not_shown_as_markdown(archive: Path) -> None:
    """`record?draft=[here](https://example.invalid)` must not put a working link on the page."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.query_params["draft"] = "[here](https://example.invalid) **now**"
    at.switch_page("app_pages/record.py").run()
    assert not at.exception, [e.value for e in at.exception]
    (warning,) = [w.value for w in at.warning]
    assert "There is no draft" in warning
    assert "example.invalid" not in warning and "](" not in warning and "**" not in warning
    at.query_params["draft"] = "abc123"
    at.switch_page("app_pages/record.py").run()
    assert "There is no draft abc123 beside this archive" in texts(at)


def test_archive_upload_with_one_match_twice_names_both_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The earlier record is in the upload itself, not the archive: its line is named, and no
    deal count is left unknown ("? in the archive")."""
    path = tmp_path / "club.duckdb"
    whole = random_record(5, deals=3)
    Store(path).close()
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(path))
    at = open_expander(
        open_page(AppTest.from_file(APP, default_timeout=30), "archive"), "archive_upload_open"
    )
    upload = "".join(dumps(r, pretty=False) + "\n" for r in (whole, _shortened(whole, 1))).encode()
    at.file_uploader(key="archive_upload").set_value(("evening.jsonl", upload, "application/x-ndjson")).run()
    at.button(key="archive_import").click().run()
    assert not at.exception, [e.value for e in at.exception]
    shown = texts(at)
    assert "random-5 is twice in the file, with other content: 3 deals at evening.jsonl:1, " in shown
    assert "1 deal at evening.jsonl:2" in shown
    assert "evening.jsonl:2. The later is kept" in shown
    assert "?" not in shown
    assert _stored(path) == {"random-5": 1}
