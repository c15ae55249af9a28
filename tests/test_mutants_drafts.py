"""The Record page's drafts and saves (dashboards/drafts.py): behaviours a mutation run showed no
fast test defended.

Each test calls the module as the Record page does (no page in between, so that a mutation run
takes minutes): where a draft file goes and how it is refused, read and listed, what a save into
the archive does with a second tap, another phone or another table, and what a new match is
offered from the archive (the venue and the house rules of the last match).
"""

from __future__ import annotations

import datetime
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dashboards import data, drafts
from dashboards import recording as rec
from manillen_replay.record import Entry, MatchInfo, Record, dumps
from manillen_replay.rules import Rules
from manillen_replay.store import Store

from .factories import SEATS
from .test_dashboard_record import cards_of, legal_deal


@pytest.fixture
def archive(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The dashboard's archive (not there yet) in a folder of its own, closed afterwards."""
    path = tmp_path / "club.duckdb"
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(path))
    yield path
    data.archive().close()


def _setup(match_id: str = "2026-12-04-de-zwaan-1", seats: list[str] = SEATS) -> rec.Setup:
    return rec.Setup(
        match_id=match_id, seats=list(seats), date="2026-12-04", venue="De Zwaan", first_dealer=3
    )


def _played(draft_id: str, match_id: str = "2026-12-04-de-zwaan-1", seed: int = 7) -> rec.Draft:
    """A table's draft with its first deal entered card by card, ready to save."""
    deal = legal_deal(seed=seed, dealer=3)
    draft = rec.new_draft(draft_id, _setup(match_id))
    assert isinstance(deal.declarations, list) and isinstance(deal.hands, list)
    for call in deal.declarations:
        draft = rec.add_call(draft, call.seat, call.call, call.suit if isinstance(call.suit, str) else None)
    draft = rec.set_hands(draft, deal.hands)
    for card in cards_of(deal):
        draft = rec.play_card(draft, card)
    return draft


def _stored(path: Path) -> dict[str, int]:
    """Each match in the archive and its number of deals."""
    data.archive().close()
    with Store(path, read_only=True) as store:
        frame = store.query("SELECT match_id, deals FROM matches ORDER BY match_id")
    return dict(zip(frame["match_id"].to_list(), frame["deals"].to_list(), strict=True))


def _import(path: Path, *matches: dict[str, Any]) -> None:
    """Import matches of one legal deal each, ``matches`` giving their ``match`` objects, in order."""
    one = Record(format="manillen/1", match=MatchInfo(seats=list(SEATS)), deals=[legal_deal()])
    deal = json.loads(dumps(one))
    entries = []
    for number, match in enumerate(matches, start=1):
        document = {"format": "manillen/1", "match": {"seats": list(SEATS), **match}, "deals": deal["deals"]}
        entries.append(Entry("club.jsonl", number, json.dumps(document).encode()))
    data.archive().close()
    with Store(path) as store:
        summary = store.import_entries(entries)
    assert summary.imported == len(matches), summary.rejects


# --------------------------------------------------------------------------- draft files


def test_the_drafts_folder_is_beside_the_archive(archive: Path) -> None:
    assert drafts.folder(Path("/clubs/club.duckdb")) == Path("/clubs/club.drafts")
    assert drafts.folder() == archive.with_name("club.drafts")  # the dashboard's own archive


def test_a_draft_saved_without_a_folder_goes_beside_the_dashboards_archive(archive: Path) -> None:
    draft = drafts.save(rec.new_draft("abc123", _setup()))
    assert (archive.with_name("club.drafts") / "abc123.json").is_file()
    loaded = drafts.load("abc123")
    assert loaded is not None and loaded.setup == draft.setup
    assert [d.draft_id for d in drafts.open_drafts()] == ["abc123"]
    drafts.discard("abc123")
    assert drafts.load("abc123") is None and drafts.open_drafts() == []


def test_new_draft_ids_are_eight_hex_digits_and_differ() -> None:
    """Short enough for a page address (``?draft=``), and two tables never share one."""
    ids = {drafts.new_id() for _ in range(50)}
    assert len(ids) == 50
    assert all(len(i) == 8 and int(i, 16) >= 0 and drafts.is_draft_id(i) for i in ids)


def test_each_save_stamps_the_draft_and_moves_its_version_on(tmp_path: Path) -> None:
    draft = rec.new_draft("abc123", _setup())
    saved = drafts.save(draft, tmp_path)
    assert saved is draft and saved.version == 1 and saved.updated
    drafts.save(saved, tmp_path)
    loaded = drafts.load("abc123", tmp_path)
    assert loaded is not None and loaded.version == 2 == saved.version


def test_a_draft_id_that_is_no_draft_id_is_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(rec.RecordingError) as refused:
        drafts.save(rec.new_draft("x/y", _setup()), tmp_path)
    assert str(refused.value) == "'x/y' is not a draft id: letters and digits only"
    assert list(tmp_path.iterdir()) == []


def test_the_draft_limit_counts_open_drafts_only_and_refuses_at_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Up to MAX_DRAFTS open drafts; a file that is no draft (a left temporary file) does not
    count; past the limit the message says how many and what to do; an open draft still saves."""
    monkeypatch.setattr(drafts, "MAX_DRAFTS", 3)
    (tmp_path / "left.tmp").write_text("{}")
    for draft_id in ("aaa", "bbb"):
        drafts.save(rec.new_draft(draft_id, _setup()), tmp_path)
    third = drafts.save(rec.new_draft("ccc", _setup()), tmp_path)  # two open: a third is taken
    with pytest.raises(rec.RecordingError) as refused:
        drafts.save(rec.new_draft("ddd", _setup()), tmp_path)
    assert str(refused.value) == (
        "there are 3 open drafts already, the most kept beside an archive: finish or discard one "
        "(Record page, Carry on) before starting another"
    )
    assert drafts.load("ddd", tmp_path) is None
    drafts.save(third, tmp_path)
    drafts.discard("aaa", tmp_path)
    drafts.save(rec.new_draft("ddd", _setup()), tmp_path)  # one finished: room again
    assert sorted(d.draft_id for d in drafts.open_drafts(tmp_path)) == ["bbb", "ccc", "ddd"]


def test_a_draft_of_exactly_the_size_limit_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    draft = drafts.save(rec.new_draft("abc123", _setup()), tmp_path)
    size = (tmp_path / "abc123.json").stat().st_size
    monkeypatch.setattr(drafts, "MAX_DRAFT_BYTES", size)
    assert drafts.load("abc123", tmp_path) is not None
    drafts.save(draft, tmp_path)  # written again at the very same size: still taken
    assert (tmp_path / "abc123.json").stat().st_size == size
    monkeypatch.setattr(drafts, "MAX_DRAFT_BYTES", size - 1)
    assert drafts.load("abc123", tmp_path) is None


def test_names_beyond_ascii_come_back_from_a_draft_file(tmp_path: Path) -> None:
    seats = ["Séverine", "Jörg", "Zoë", "Ōta"]
    drafts.save(rec.new_draft("abc123", _setup(seats=seats)), tmp_path)
    loaded = drafts.load("abc123", tmp_path)
    assert loaded is not None and loaded.setup.seats == seats


def test_open_drafts_come_latest_changed_first(tmp_path: Path) -> None:
    stamps = {"aaa": "2026-12-04T20:00:00+00:00", "bbb": "2026-12-04T19:00:00+00:00"}
    stamps["ccc"] = "2026-12-04T21:00:00+00:00"
    for draft_id, stamp in stamps.items():  # the time each was last changed, as the page wrote it
        drafts.save(rec.new_draft(draft_id, _setup()), tmp_path)
        path = tmp_path / f"{draft_id}.json"
        path.write_text(json.dumps({**json.loads(path.read_text()), "updated": stamp}))
    assert [d.draft_id for d in drafts.open_drafts(tmp_path)] == ["ccc", "aaa", "bbb"]
    assert drafts.open_drafts(tmp_path / "none") == []  # no folder yet: nothing open


def test_open_drafts_reads_only_the_newest_files_up_to_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder filled past MAX_DRAFTS (by hand) lists the most recently written files."""
    for number, draft_id in enumerate(("aaa", "bbb", "ccc", "ddd")):
        drafts.save(rec.new_draft(draft_id, _setup()), tmp_path)
        os.utime(tmp_path / f"{draft_id}.json", (1_800_000_000 + number, 1_800_000_000 + number))
    os.utime(tmp_path / "aaa.json", (1_900_000_000, 1_900_000_000))  # written last
    (tmp_path / "gone.json").symlink_to(tmp_path / "nowhere.json")  # a link to nothing is skipped
    monkeypatch.setattr(drafts, "MAX_DRAFTS", 2)
    assert sorted(d.draft_id for d in drafts.open_drafts(tmp_path)) == ["aaa", "ddd"]


def test_discard_removes_only_that_draft(tmp_path: Path) -> None:
    for draft_id in ("aaa", "bbb"):
        drafts.save(rec.new_draft(draft_id, _setup()), tmp_path)
    (tmp_path.parent / "outside.json").write_text("{}")
    drafts.discard("aaa", tmp_path)
    drafts.discard("aaa", tmp_path)  # twice (two phones): no error
    drafts.discard("../outside", tmp_path)  # no draft id: nothing removed
    assert [d.draft_id for d in drafts.open_drafts(tmp_path)] == ["bbb"]
    assert (tmp_path.parent / "outside.json").exists()


def test_taken_ids_are_the_archives_and_every_open_drafts(tmp_path: Path) -> None:
    drafts.save(rec.new_draft("aaa", _setup("2026-12-04-de-zwaan-2")), tmp_path)
    taken = drafts.taken_ids(["2026-12-04-de-zwaan-1"], tmp_path)
    assert sorted(taken) == ["2026-12-04-de-zwaan-1", "2026-12-04-de-zwaan-2"]


# --------------------------------------------------------------------------- saving into the archive


def test_a_saved_deal_is_in_the_archive_analysed_and_its_finished_draft_written(
    archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dashboards import reviewer

    asked: list[list[str]] = []
    monkeypatch.setattr(reviewer, "request", lambda ids, path=None: asked.append(list(ids)))
    draft = drafts.save(_played("aaaa1111"), drafts.folder(archive))
    finished, _, _ = rec.finish_deal(draft)
    saved = drafts.save_match(draft, finished=finished)
    assert (saved.match_id, saved.renamed_from, saved.again) == ("2026-12-04-de-zwaan-1", None, False)
    assert saved.summary.imported == 1 and saved.analysis.matches == 1 and saved.analysis.deals == 1
    assert asked == [["2026-12-04-de-zwaan-1"]]  # the background review takes it first
    assert _stored(archive) == {"2026-12-04-de-zwaan-1": 1}
    with Store(archive, read_only=True) as store:
        assert store.query("SELECT analysed_at FROM matches")["analysed_at"].is_not_null().all()
    on_file = drafts.load("aaaa1111", drafts.folder(archive))
    assert on_file is not None and on_file.deals == finished.deals and len(on_file.deals) == 1
    assert on_file.version == draft.version + 1  # written over the version it was saved from
    assert saved.draft is finished


def test_a_save_analyses_only_its_own_match_and_names_where_it_came_from(archive: Path) -> None:
    _import(archive, {"id": "upload-1", "date": "2026-06-01"})  # imported, never analysed
    draft = _played("aaaa1111")
    saved = drafts.save_match(draft)
    assert saved.analysis.matches == 1
    with Store(archive, read_only=True) as store:
        rows = store.query(
            "SELECT match_id, source, analysed_at IS NOT NULL AS analysed FROM matches ORDER BY 1"
        )
    assert rows.rows() == [
        ("2026-12-04-de-zwaan-1", "recorded match 2026-12-04-de-zwaan-1", True),
        ("upload-1", "club.jsonl", False),
    ]


def test_a_save_writes_its_finished_draft_over_the_version_another_phone_wrote_meanwhile(
    archive: Path, tmp_path: Path
) -> None:
    """The other phone at the table tapped (a newer version on file, the same saved deals): the
    save goes through and its finished draft is the newest version, so the other phone's stale
    copy cannot be written over it."""
    where = tmp_path / "phones"
    draft = drafts.save(_played("aaaa1111"), where)
    other = drafts.load("aaaa1111", where)
    assert other is not None
    tapped = drafts.save(rec.undo_card(other), where)
    finished, _, _ = rec.finish_deal(draft)
    drafts.save_match(draft, where, finished=finished)
    on_file = drafts.load("aaaa1111", where)
    assert on_file is not None and on_file.deals == finished.deals and on_file.version == tapped.version + 1
    with pytest.raises(drafts.DraftChangedError):
        drafts.save(tapped, where)


def test_a_save_writes_its_finished_draft_when_none_was_written_before(archive: Path, tmp_path: Path) -> None:
    where = tmp_path / "phones"
    draft = _played("aaaa1111")
    finished, _, _ = rec.finish_deal(draft)
    saved = drafts.save_match(draft, where, finished=finished)
    on_file = drafts.load("aaaa1111", where)
    assert saved.draft is finished and on_file is not None and on_file.deals == finished.deals


def test_a_new_id_is_free_of_every_match_in_the_archive(archive: Path) -> None:
    """Uploads hold the draft's id and the next one: the match goes under the first id free."""
    _import(archive, {"id": "2026-12-04-de-zwaan-1"}, {"id": "2026-12-04-de-zwaan-2"})
    saved = drafts.save_match(_played("aaaa1111"))
    assert saved.match_id == "2026-12-04-de-zwaan-3"
    assert _stored(archive) == {f"2026-12-04-de-zwaan-{n}": 1 for n in (1, 2, 3)}


def test_the_same_save_sent_twice_is_made_once(archive: Path) -> None:
    draft = drafts.save(_played("aaaa1111"), drafts.folder(archive))
    finished, _, _ = rec.finish_deal(draft)
    drafts.save_match(draft, finished=finished)
    written = drafts.load("aaaa1111", drafts.folder(archive))
    again = drafts.save_match(draft, finished=finished)
    assert again.again and again.match_id == "2026-12-04-de-zwaan-1"
    assert again.summary.skipped == 1 and again.summary.imported == 0
    assert again.analysis.matches == 0  # nothing analysed again
    assert _stored(archive) == {"2026-12-04-de-zwaan-1": 1}
    # the draft file already held the finished deal: left as it was
    assert drafts.load("aaaa1111", drafts.folder(archive)) == written == again.draft


def test_a_save_whose_phone_dropped_before_the_draft_was_written_writes_it_when_sent_again(
    archive: Path,
) -> None:
    draft = drafts.save(_played("aaaa1111"), drafts.folder(archive))
    finished, _, _ = rec.finish_deal(draft)
    drafts.save_match(draft)  # the match is in; the phone lost its connection before the draft
    again = drafts.save_match(draft, finished=finished)
    assert again.again and again.draft is not None and len(again.draft.deals) == 1
    on_file = drafts.load("aaaa1111", drafts.folder(archive))
    assert on_file is not None and on_file.deals == finished.deals
    assert on_file.version == draft.version + 1 and on_file.setup.match_id == again.match_id


def test_a_save_sent_again_writes_the_draft_over_the_version_another_phone_wrote_meanwhile(
    archive: Path,
) -> None:
    """The first save's phone dropped before its draft was written; the table's other phone wrote
    the draft since (a tap). Sent again, the finished deal is written as the newest version, so
    the other phone's stale copy cannot be written over it."""
    folder = drafts.folder(archive)
    draft = drafts.save(_played("aaaa1111"), folder)
    finished, _, _ = rec.finish_deal(draft)
    drafts.save_match(draft)
    other = drafts.load("aaaa1111", folder)
    assert other is not None
    tapped = drafts.save(rec.undo_card(other), folder)  # the other phone's tap: a newer version
    drafts.save_match(draft, finished=finished)
    on_file = drafts.load("aaaa1111", folder)
    assert on_file is not None and on_file.deals == finished.deals and on_file.version == tapped.version + 1
    with pytest.raises(drafts.DraftChangedError) as refused:
        drafts.save(tapped, folder)
    assert str(refused.value) == (
        "another phone at this table changed the match meanwhile: the page now shows it as that "
        "phone left it; tap again what you meant to"
    )


def test_a_save_sent_again_writes_the_draft_when_no_draft_file_was_ever_written(
    archive: Path, tmp_path: Path
) -> None:
    where = tmp_path / "phones"
    draft = _played("aaaa1111")
    finished, _, _ = rec.finish_deal(draft)
    drafts.save_match(draft, where)
    again = drafts.save_match(draft, where, finished=finished)
    on_file = drafts.load("aaaa1111", where)
    assert again.again and on_file is not None and on_file.deals == finished.deals


def test_a_save_from_a_phone_that_missed_the_other_phones_deal_is_refused(
    archive: Path, tmp_path: Path
) -> None:
    where = tmp_path / "phones"  # a drafts folder of its own: the check reads the drafts there
    one = drafts.save(_played("aaaa1111", seed=7), where)
    two = drafts.load("aaaa1111", where)  # the second phone at the table
    assert two is not None
    finished, _, _ = rec.finish_deal(one)
    drafts.save_match(one, where, finished=finished)
    other = _played("aaaa1111", seed=11)  # phone two entered a deal of its own meanwhile
    other.version = two.version
    with pytest.raises(drafts.DraftChangedError) as refused:
        drafts.save_match(other, where)
    assert str(refused.value) == (
        "another phone at this table saved a deal meanwhile: the page now shows the match as that "
        "phone left it"
    )
    assert _stored(archive) == {"2026-12-04-de-zwaan-1": 1}
    with Store(archive, read_only=True) as store:
        kept = store.query("SELECT record FROM matches")["record"][0]
    ours = json.loads(dumps(rec.to_record(one)))["deals"][0]["tricks"]
    assert json.loads(kept)["deals"][0]["tricks"] == ours


def test_a_save_under_an_id_taken_meanwhile_gets_an_id_free_of_the_archive_and_of_open_drafts(
    archive: Path, tmp_path: Path
) -> None:
    """An upload took the id; another table's open draft (in this drafts folder) holds the next."""
    _import(archive, {"id": "2026-12-04-de-zwaan-1"})
    where = tmp_path / "phones"
    drafts.save(rec.new_draft("bbbb2222", _setup("2026-12-04-de-zwaan-2")), where)
    draft = drafts.save(_played("aaaa1111"), where)
    finished, _, _ = rec.finish_deal(draft)
    saved = drafts.save_match(draft, where, finished=finished)
    assert saved.renamed_from == "2026-12-04-de-zwaan-1" and saved.match_id == "2026-12-04-de-zwaan-3"
    assert saved.draft is not None and saved.draft.setup.match_id == "2026-12-04-de-zwaan-3"
    on_file = drafts.load("aaaa1111", where)
    assert on_file is not None and on_file.setup.match_id == "2026-12-04-de-zwaan-3"
    assert _stored(archive) == {"2026-12-04-de-zwaan-1": 1, "2026-12-04-de-zwaan-3": 1}


def test_a_tables_second_deal_replaces_its_own_match(archive: Path) -> None:
    draft = drafts.save(_played("aaaa1111"), drafts.folder(archive))
    finished, _, _ = rec.finish_deal(draft)
    drafts.save_match(draft, finished=finished)
    deal = legal_deal(seed=12, dealer=0)
    assert isinstance(deal.declarations, list)
    second = rec.add_call(finished, 0, "trump", str(deal.declarations[0].suit))
    for card in cards_of(deal):
        second = rec.play_card(second, card)
    saved = drafts.save_match(second)
    assert saved.renamed_from is None and saved.summary.replaced == 1
    assert _stored(archive) == {"2026-12-04-de-zwaan-1": 2}


# --------------------------------------------------------------------------- a new match's defaults


def test_the_venue_offered_is_the_latest_matchs_that_names_one(archive: Path) -> None:
    assert drafts.last_venue() is None  # no archive yet
    _import(
        archive,
        {"id": "a", "date": "2026-06-01", "venue": "De Zwaan"},
        {"id": "b", "date": "2026-07-01", "venue": "'t Hoekske"},
        {"id": "c", "date": "2026-08-01"},  # the latest names no venue
        {"id": "d", "venue": "Somewhere"},  # no date: older than any dated match
    )
    assert drafts.last_venue() == "'t Hoekske"
    _import(archive, {"id": "e", "date": "2026-07-01", "venue": "De Kroon"})  # same day, imported later
    assert drafts.last_venue() == "De Kroon"


def test_no_venue_is_offered_when_no_match_names_one(archive: Path) -> None:
    _import(archive, {"id": "a", "date": "2026-06-01"})
    assert drafts.last_venue() is None


def _options(**options: Any) -> dict[str, Any]:
    return Rules.from_options(options).to_options()


def test_the_rules_offered_are_those_of_the_latest_match_where_all_these_players_sat(archive: Path) -> None:
    assert drafts.last_rules(SEATS) is None  # no archive yet
    others = ["Anna", "Els", "Frans", "Griet"]
    _import(
        archive,
        {"id": "a", "date": "2026-06-01", "rules": {"target": 121}},
        {"id": "b", "date": "2026-07-01", "rules": {"target": 151}},
        {"id": "c", "date": "2026-08-01", "rules": {"target": 201}, "seats": others},
        {"id": "d", "rules": {"target": 301}},  # no date: older than any dated match
    )
    assert drafts.last_rules(SEATS) == _options(target=151)
    assert drafts.last_rules(["Bert", "Dirk"]) == _options(target=151)
    assert drafts.last_rules(["Anna", "Els"]) == _options(target=201)
    assert drafts.last_rules(["Anna"]) == _options(target=201)
    assert drafts.last_rules(["Bert", "Els"]) is None  # never at one table
    assert drafts.last_rules([]) is None
    _import(archive, {"id": "e", "date": "2026-07-01", "rules": {"target": 91}})  # same day, later
    assert drafts.last_rules(SEATS) == _options(target=91)


def test_a_three_player_games_rules_are_not_offered_for_a_four_player_match(archive: Path) -> None:
    from manillen_replay.players import parse_players
    from manillen_replay.players.generate import GenerateOptions, generate_matches

    _import(archive, {"id": "a", "date": "2026-06-01", "rules": {"target": 121}})
    rules = Rules().with_options(variant="three")
    players = tuple(parse_players("Anna:club,Bert:club,Carla:club"))
    made = generate_matches(GenerateOptions(players=players, rules=rules, seed=3), matches=1)
    record = made[0].record
    assert record.match.seats == ["Anna", "Bert", "Carla"]
    record.match.date = datetime.date(2026, 9, 1)
    data.archive().close()
    with Store(archive) as store:
        assert store.import_entries([Entry("three.jsonl", 1, dumps(record, pretty=False).encode())]).imported
    assert drafts.last_rules(["Anna", "Bert", "Carla"]) == _options(target=121)


def test_a_draft_over_the_size_limit_is_refused_and_left_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    where = tmp_path / "club" / "club.drafts"  # no folder yet, nor its parent
    draft = drafts.save(rec.new_draft("abc123", _setup()), where)
    before = (draft.version, draft.updated)
    monkeypatch.setattr(drafts, "MAX_DRAFT_BYTES", 100)
    with pytest.raises(rec.RecordingError) as refused:
        drafts.save(draft, where)
    message = str(refused.value)
    assert message.startswith("this draft would be ") and message.endswith(
        " bytes, over the limit of 100 for a draft: shorten its notes, or save the match and start a new one"
    )
    assert (draft.version, draft.updated) == before  # as it was: the page can still save it
    monkeypatch.undo()
    assert drafts.save(draft, where).version == 2


def test_a_draft_refused_for_its_size_keeps_the_version_it_had(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not only a first save: a draft saved twice and then refused is still at its second version,
    so the page's next save is the third."""
    draft = drafts.save(drafts.save(rec.new_draft("abc123", _setup()), tmp_path), tmp_path)
    assert draft.version == 2
    monkeypatch.setattr(drafts, "MAX_DRAFT_BYTES", 100)
    with pytest.raises(rec.RecordingError):
        drafts.save(draft, tmp_path)
    assert draft.version == 2
    monkeypatch.undo()
    assert drafts.save(draft, tmp_path).version == 3


def test_a_match_the_archive_refuses_is_not_saved_and_the_page_is_told_why(archive: Path) -> None:
    """The Record page checks each deal before it offers to save; a record refused all the same
    (here a trump call by the wrong seat and a pass, put in the draft behind the page's back) leaves the
    archive as it was, and the refusal names the match and each problem at its place in the record."""
    draft = drafts.save(_played("aaaa1111"), drafts.folder(archive))
    finished, _, _ = rec.finish_deal(draft)
    finished.deals[0]["declarations"][0]["seat"] = 0
    finished.deals[0]["declarations"].append({"seat": 1, "call": "pass"})
    finished.current = None  # no next deal begun
    with pytest.raises(rec.RecordingError) as refused:
        drafts.save_match(finished)
    assert str(refused.value) == (
        "recorded match 2026-12-04-de-zwaan-1: /deals/0/declarations/0: Anna may not make trump: "
        "the dealer, Dirk, chooses; recorded match 2026-12-04-de-zwaan-1: /deals/0/declarations/1: "
        "'pass' is only used in the six_short variant"
    )
    assert not archive.exists() or _stored(archive) == {}


@pytest.mark.parametrize("name", ["variant-six-short", "variant-three"])
def test_a_deal_played_out_is_saved_with_the_cards_nobody_played_laid_aside(
    archive: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """The save imported the draft's own current deal, without the laid-aside cards finish_deal
    worked out: "/deals/0/discards: 'six_short' lays 2 cards aside; the record gives 0"."""
    from dashboards import reviewer

    from .test_recording_variants import played_out

    monkeypatch.setattr(reviewer, "request", lambda ids, path=None: None)
    deal, draft = played_out(name)
    draft = drafts.save(draft, drafts.folder(archive))
    finished, _, _ = rec.finish_deal(draft)
    saved = drafts.save_match(draft, finished=finished)
    assert saved.summary.imported == 1
    with Store(archive, read_only=True) as store:
        record = json.loads(str(store.query("SELECT record FROM matches")["record"][0]))
    assert sorted(record["deals"][0]["discards"]) == sorted(deal["discards"])
