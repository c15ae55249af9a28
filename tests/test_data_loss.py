"""Issue 31's data-loss cases: nothing recorded or imported is lost without a question.

Two tables recording at once, an upload or import replacing a match, ``make demo`` rebuilding the
archive the dashboard records into, ``convert`` changing a record on the way, and ``convert``
writing over something that is not a file.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dashboards import data, drafts
from dashboards import recording as rec
from manillen_replay.record import Deal
from manillen_replay.store import Store

from .test_dashboard import APP
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
