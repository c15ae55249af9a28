"""A club's saved rules on the dashboard: chosen by name on the Record page (the record started
carries them) and on the Club evening page, and saved from the Record page by the organiser."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from streamlit.testing.v1 import AppTest

from dashboards import access, data, drafts, evenings
from dashboards import recording as rec
from manillen_replay.cli import cli
from manillen_replay.record import dumps, loads
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
    # and said above the table in the words of the house-rules box (an organiser's sweep read the
    # notation, "underbuy=allowed capot=double", on a Dutch page)
    (said,) = [c.value for c in at.caption if c.value.startswith("House rules: ")]
    assert "Play to: 151" in said and "Underbuying (onderkopen): allowed" in said
    assert "Cafe rule: en face" in said and "=" not in said
    at.session_state["lang"] = "nl"
    at.run()
    (gezegd,) = [c.value for c in at.caption if c.value.startswith("Huisregels: ")]
    assert "Spelen tot: 151" in gezegd and "Onderkopen: toegelaten" in gezegd and "Kapot" in gezegd


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
    assert not [c for c in at.caption if c.value.startswith("House rules: ")]


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
    at.toggle(key="organiser_cafe_blind_muil").set_value(True)  # a switch the club's rules stand for
    at.button(key="organiser_start").click().run()
    assert not at.exception, [e.value for e in at.exception]
    # said, where the switch stayed open to change and was silently not used (an organiser's sweep)
    assert any("plays the club rules “De Zwaan”: the switches" in i.value for i in at.info), [
        i.value for i in at.info
    ]
    [evening_id] = evenings.evening_ids()
    evening = evenings.load(evening_id)
    assert evening is not None
    expected = ZWAAN.with_options(format="fixed", deals=8)
    assert evening.rules_value() == expected
    draft = drafts.load(evenings.draft_id_of(evening.tables[0]))
    assert draft is not None and draft.setup.rules_value() == expected


# --------------------------------------------------------------------------- the Archive page's upload


def _upload_lines(*names: str) -> bytes:
    samples = Path(__file__).resolve().parent.parent / "data" / "samples"
    return "".join(
        dumps(loads((samples / f"{name}.json").read_text()), pretty=False) + "\n" for name in names
    ).encode()


def test_archive_upload_with_club_rules_imports_as_manillen_import_rules_does(
    club_app: tuple[AppTest, Path], tmp_path: Path
) -> None:
    """A match naming no rules takes the club's; one naming others is refused with the options
    that differ, line for line as `manillen import --rules` keeps them in another archive."""
    at, path = club_app
    at.switch_page("app_pages/archive.py").run()
    choice = at.selectbox(key="archive_club_rules")
    assert choice.options == ["None: each match's own rules", "De Zwaan", "Drie", "Kroon"]  # every variant's
    upload = _upload_lines("seed-trick", "house-underbuy-allowed", "variant-three")
    at.file_uploader(key="archive_upload").set_value(("club.jsonl", upload, "application/jsonl")).run()
    choice.set_value("De Zwaan").run()
    at.button(key="archive_import").click().run()
    assert not at.exception, [e.value for e in at.exception]
    [summary] = [w.value for w in at.warning]
    assert summary.startswith("club.jsonl: 1 imported, 0 replaced, 0 already present, 2 refused")
    refused = [e.value for e in at.error]
    differs = "capot is plain here, double in 'De Zwaan'"
    assert any("club.jsonl:2: /match/rules" in r and differs in r for r in refused)
    assert any("club.jsonl:3: /match/variant" in r for r in refused)
    with Store(path, read_only=True) as store:
        [(match, record)] = store.query("SELECT match_id, record FROM matches").rows()
        from_page = store.query("SELECT match_id, content_hash, rules FROM matches").rows()
        page_rejects = store.query("SELECT line, pointer, message FROM rejects ORDER BY line").rows()
    from manillen_replay.engine import rules_of

    assert match == "seed-trick" and rules_of(loads(record)) == ZWAAN
    # the same file imported by the command line with the same club's rules: the same archive rows
    other = tmp_path / "cli.duckdb"
    with Store(other) as store:
        store.save_club_rules("De Zwaan", ZWAAN)
    jsonl = tmp_path / "club.jsonl"
    jsonl.write_bytes(upload)
    result = CliRunner().invoke(cli, ["import", str(jsonl), "--rules", "de zwaan", "--db", str(other)])
    assert result.exit_code == 1, result.output
    with Store(other, read_only=True) as store:
        assert store.query("SELECT match_id, content_hash, rules FROM matches").rows() == from_page
        cli_rejects = store.query("SELECT line, pointer, message FROM rejects ORDER BY line").rows()
    places = [(2, "/match/rules"), (3, "/match/variant")]
    assert [(line, pointer) for line, pointer, _ in cli_rejects] == places
    assert [(line, pointer) for line, pointer, _ in page_rejects] == places
    assert cli_rejects == page_rejects  # the same reasons, word for word


def test_archive_upload_without_a_club_keeps_each_matchs_own_rules(club_app: tuple[AppTest, Path]) -> None:
    at, path = club_app
    at.switch_page("app_pages/archive.py").run()
    assert at.selectbox(key="archive_club_rules").value == ""
    upload = _upload_lines("seed-trick", "house-underbuy-allowed")
    at.file_uploader(key="archive_upload").set_value(("club.jsonl", upload, "application/jsonl")).run()
    at.button(key="archive_import").click().run()
    [summary] = [s.value for s in at.success]
    assert summary.startswith("club.jsonl: 2 imported")
    with Store(path, read_only=True) as store:
        rules = dict(store.query("SELECT match_id, rules FROM matches").rows())
    assert rules["seed-trick"] in (None, "{}") and "allowed" in rules["house-underbuy-allowed"]


def test_a_text_match_without_variant_uploaded_with_a_three_player_club_is_analysed_and_linked(
    club_app: tuple[AppTest, Path],
) -> None:
    """Uploaded with the club "Drie", a .mnl without its variant line was imported as the club's
    game, but its id was looked up as a four-player match's: never analysed, and no link."""
    at, path = club_app
    at.switch_page("app_pages/archive.py").run()
    notation = Path(__file__).resolve().parent.parent / "data" / "notation" / "variant-three.mnl"
    typed = "\n".join(line for line in notation.read_text().splitlines() if not line.startswith("variant "))
    at.file_uploader(key="archive_upload").set_value(("thuis.mnl", typed.encode(), "text/plain")).run()
    at.selectbox(key="archive_club_rules").set_value("Drie").run()
    at.button(key="archive_import").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert any(s.value.startswith("thuis.mnl: 1 imported") for s in at.success)
    with Store(path, read_only=True) as store:
        assert store.query("SELECT match_id, variant, analysis_depth FROM matches").rows() == [
            ("sample-three", "three", "heuristic")
        ]
    links = [link.proto for link in at.get("page_link") if "match" in link.proto.page]
    assert [link.label.replace("\\", "") for link in links] == ["sample-three"]


def test_archive_upload_offers_no_club_rules_when_none_are_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "plain.duckdb"
    Store(path).close()
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(path))
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page("app_pages/archive.py").run()
    assert at.file_uploader(key="archive_upload")
    assert not [s for s in at.selectbox if s.key == "archive_club_rules"]


# --------------------------------------------------------------------------- saved from the Club evening page


def test_club_evening_page_saves_its_house_rules_under_a_name_without_starting_an_evening(
    club_app: tuple[AppTest, Path],
) -> None:
    at = page("organiser")
    at.toggle(key="organiser_cafe_en_face").set_value(True)
    at.toggle(key="organiser_partner_exempt").set_value(False)
    at.number_input(key="organiser_deals").set_value(8)
    at.text_input(key="organiser_club_rules_name").input("Het Hoekske")
    at.button(key="organiser_club_rules_save").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert "Saved as the club rules Het Hoekske" in texts(at)
    assert evenings.evening_ids() == []  # saving is not setting up an evening
    with Store(club_app[1], read_only=True) as store:
        saved = store.club_rules("het hoekske")
    # the house rules shown, not the evening's number of deals
    assert saved is not None and saved.rules == Rules(en_face=True, partner_exempt=False)
    # offered at once under Club rules, and played by the evening chosen with them
    assert "Het Hoekske" in at.selectbox(key="organiser_club_rules").options
    at.text_area(key="organiser_players").input("\n".join(["Anna", "Bert", "Carla", "Dirk"]))
    at.selectbox(key="organiser_club_rules").set_value("Het Hoekske")
    at.button(key="organiser_start").click().run()
    [evening_id] = evenings.evening_ids()
    evening = evenings.load(evening_id)
    assert evening is not None and evening.rules_value().en_face and not evening.rules_value().partner_exempt


def test_club_evening_page_refuses_a_name_taken_or_empty_with_the_reason(
    club_app: tuple[AppTest, Path],
) -> None:
    at = page("organiser")
    at.toggle(key="organiser_cafe_blind_muil").set_value(True)
    at.button(key="organiser_club_rules_save").click().run()
    assert any("a club's rules need a name" in e.value for e in at.error)
    at.text_input(key="organiser_club_rules_name").input("de zwaan")
    at.button(key="organiser_club_rules_save").click().run()
    assert any("has club rules 'De Zwaan' already" in e.value for e in at.error)
    with Store(club_app[1], read_only=True) as store:
        kept = store.club_rules("De Zwaan")
    assert kept is not None and kept.rules == ZWAAN
    at.checkbox(key="organiser_club_rules_replace").check()
    at.button(key="organiser_club_rules_save").click().run()
    with Store(club_app[1], read_only=True) as store:
        replaced = store.club_rules("De Zwaan")
    assert replaced is not None and replaced.rules == Rules(blind_muil=True)
