"""A club's saved rules on the dashboard: chosen by name on the Record page (the record started
carries them) and on the Club evening page, and saved from the Record page by the organiser."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dashboards import access, data, drafts, evenings
from dashboards import recording as rec
from manillen_replay.rules import Rules
from manillen_replay.store import Store

from .test_dashboard import APP, open_expander, texts
from .test_dashboard_evening import page
from .test_dashboard_record import setup_inputs, tap, type_seats, type_setup

ZWAAN = Rules(underbuy="allowed", en_face=True, target=151, capot="double")
"""A club's rules with a toggle (en face), selectors (underbuy, capot) and a number (target)
on the page, so each kind is seen to reach the record."""


@pytest.fixture
def club_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[AppTest, Path]]:
    """The app on an archive with no match yet, but two clubs' rules and a three-player club's."""
    path = tmp_path / "club.duckdb"
    with Store(path) as store:
        store.save_club_rules("De Zwaan", ZWAAN)
        store.save_club_rules("Kroon", Rules(muil_double=False))
        store.save_club_rules("Drie", Rules(variant="three"))
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(path))
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page("app_pages/record.py").run()
    assert not at.exception, [e.value for e in at.exception]
    yield at, path
    data.archive().close()


def test_record_page_offers_the_archives_club_rules_and_the_match_carries_them(
    club_app: tuple[AppTest, Path],
) -> None:
    at, path = club_app
    club = next(f for f in setup_inputs(at)["fields"] if f["name"] == "club")
    assert club["kind"] == "select"
    # the standard rules first, then each club's for the game chosen (four players), by name
    assert [value for value, _ in club["options"]] == ["", "De Zwaan", "Kroon"]
    assert setup_inputs(at)["values"]["club"] == ""
    type_seats(at)
    type_setup(at, club="De Zwaan")
    inputs = setup_inputs(at)
    assert inputs["values"]["target_club-de-zwaan"] == "151"  # the club's target shown to change
    assert next(f for f in inputs["fields"] if f["name"] == "source")["disabled"]
    open_expander(at, "record_house_rules_open")
    assert at.selectbox(key="record_underbuy_club-de-zwaan").value == "allowed"  # the club's, to change
    assert at.selectbox(key="record_capot_club-de-zwaan").value == "double"
    assert at.toggle(key="record_en_face_club-de-zwaan").value is True
    tap(at, "record_start")
    draft = drafts.load(str(at.query_params["draft"]), drafts.folder(path))
    assert draft is not None
    assert draft.setup.rules_value() == ZWAAN
    record = rec.to_record(draft)
    assert record.match.rules is not None
    from manillen_replay.engine import rules_of

    assert rules_of(record) == ZWAAN  # the record the match is saved as says the club's rules
    assert at.button(key="record_en_face")  # the club's cafe rule is in force at the table


def test_record_page_offers_a_clubs_rules_for_the_game_chosen(club_app: tuple[AppTest, Path]) -> None:
    at, path = club_app
    type_setup(at, variant="three")
    club = next(f for f in setup_inputs(at)["fields"] if f["name"] == "club")
    assert [value for value, _ in club["options"]] == ["", "Drie"]
    type_seats(at, ["Anna", "Bert", "Carla"])
    type_setup(at, club="Drie")
    tap(at, "record_start")
    draft = drafts.load(str(at.query_params["draft"]), drafts.folder(path))
    assert draft is not None and draft.setup.variant == "three"
    assert draft.setup.rules_value().variant == "three"


def test_record_page_keeps_the_standard_rules_when_no_club_is_chosen(club_app: tuple[AppTest, Path]) -> None:
    at, path = club_app
    type_seats(at)
    tap(at, "record_start")
    draft = drafts.load(str(at.query_params["draft"]), drafts.folder(path))
    assert draft is not None and draft.setup.rules == {} and draft.setup.rules_value() == Rules()


def test_record_page_without_saved_club_rules_shows_no_club_select(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(tmp_path / "none.duckdb"))
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page("app_pages/record.py").run()
    assert "club" not in {f["name"] for f in setup_inputs(at)["fields"]}


def test_organiser_saves_the_house_rules_chosen_under_a_name_for_the_next_match(
    club_app: tuple[AppTest, Path],
) -> None:
    at, path = club_app
    open_expander(at, "record_house_rules_open")
    at.toggle(key="record_partner_exempt_default").set_value(False)
    at.toggle(key="record_blind_muil_default").set_value(True)
    at.run()
    open_expander(at, "record_club_save_open")
    at.text_input(key="record_club_rules_name").input("Het Hoekske").run()
    tap(at, "record_club_rules_save")
    assert "Saved as the club rules Het Hoekske" in texts(at)
    with Store(path, read_only=True) as store:
        saved = store.club_rules("het hoekske")
    assert saved is not None and saved.rules == Rules(partner_exempt=False, blind_muil=True)
    # offered at once, by its name
    club = next(f for f in setup_inputs(at)["fields"] if f["name"] == "club")
    assert "Het Hoekske" in [value for value, _ in club["options"]]
    # a name taken is refused with the reason, unless replaced
    at.text_input(key="record_club_rules_name").input("de zwaan").run()
    tap(at, "record_club_rules_save")
    assert any("has club rules 'De Zwaan' already" in e.value for e in at.error)
    with Store(path, read_only=True) as store:
        kept = store.club_rules("De Zwaan")
    assert kept is not None and kept.rules == ZWAAN


def test_a_recorder_is_not_offered_to_save_club_rules_nor_let(
    club_app: tuple[AppTest, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    at, _ = club_app
    monkeypatch.setattr(access, "current_visitor", lambda: access.Visitor(access.Role.RECORDER, "1"))
    at.switch_page("app_pages/record.py").run()
    assert "club" in {f["name"] for f in setup_inputs(at)["fields"]}  # chosen, yes
    assert "Save these rules for the club" not in [e.label for e in at.expander]
    with pytest.raises(access.AccessRefusedError, match="only the organiser may save a club's rules"):
        data.save_club_rules("Stiekem", Rules())


def test_club_evening_plays_the_club_rules_chosen(club_app: tuple[AppTest, Path]) -> None:
    at = page("organiser")
    assert at.selectbox(key="organiser_club_rules").options == ["Standard rules", "De Zwaan", "Kroon"]
    at.text_area(key="organiser_players").input("\n".join(["Anna", "Bert", "Carla", "Dirk"]))
    at.text_input(key="organiser_venue").input("De Zwaan")
    at.number_input(key="organiser_deals").set_value(8)
    at.selectbox(key="organiser_club_rules").set_value("De Zwaan")
    at.button(key="organiser_start").click().run()
    assert not at.exception, [e.value for e in at.exception]
    [evening_id] = evenings.evening_ids()
    evening = evenings.load(evening_id)
    assert evening is not None
    expected = ZWAAN.with_options(format="fixed", deals=8)
    assert evening.rules_value() == expected
    draft = drafts.load(evenings.draft_id_of(evening.tables[0]))
    assert draft is not None and draft.setup.rules_value() == expected
