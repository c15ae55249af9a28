"""A club's rules saved once, by name: the value, the archive's table, `manillen rules` and
`manillen import --rules`."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner, Result
from msgspec import UNSET

from manillen_replay.cli import cli
from manillen_replay.club_rules import ClubRules, check_name, with_club_rules
from manillen_replay.engine import replay, rules_of
from manillen_replay.errors import InvalidOptionError, ManillenError, RecordError
from manillen_replay.record import dumps, iter_entries, load, loads
from manillen_replay.rules import Rules
from manillen_replay.store import Store, apply_migrations

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "data" / "samples"
NOTATION = ROOT / "data" / "notation"
ZWAAN = Rules(underbuy="allowed", en_face=True, target=151)


def _run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def _no_traceback(result: Result) -> None:
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


# --------------------------------------------------------------------------- the value


def test_an_option_given_twice_is_refused_not_the_last_one_kept() -> None:
    result = _run("rules", "save", "dup", "--rule", "target=61", "--rule", "target=101", "--db", ":memory:")
    assert (
        result.exit_code == 2
        and "target is given twice (target=61, then target=101): keep one" in result.output
    )


def test_a_record_without_rules_takes_the_clubs_and_replays_under_them() -> None:
    record = load(SAMPLES / "seed-trick.json")
    with_club_rules(record, ClubRules("zwaan", ZWAAN))
    assert replay(record).rules == ZWAAN
    # written as a record writes its rules, so the record read back says them itself
    document = json.loads(dumps(record, pretty=False))
    assert document["match"]["rules"] == {"target": 151, "underbuy": "allowed", "cafe": {"en_face": True}}
    assert "variant" not in document["match"]  # the four-player game needs no variant
    assert rules_of(loads(dumps(record))) == ZWAAN


def test_a_variant_club_writes_its_variant_into_the_record() -> None:
    three = Rules(variant="three", klop_on_muil=True)
    document = json.loads((SAMPLES / "variant-three.json").read_text())
    del document["match"]["variant"]
    record = loads(json.dumps(document))
    with_club_rules(record, ClubRules("drie", three))
    assert record.match.variant == "three" and replay(record).rules == three


def test_a_record_with_the_clubs_own_rules_is_left_as_it_is() -> None:
    record = load(SAMPLES / "house-underbuy-allowed.json")
    before = dumps(record)
    with_club_rules(record, ClubRules("vrij", Rules(underbuy="allowed")))
    assert dumps(record) == before


def test_a_record_with_other_rules_is_refused_naming_each_option_that_differs() -> None:
    record = load(SAMPLES / "house-capot-double.json")
    with pytest.raises(RecordError) as caught:
        with_club_rules(record, ClubRules("zwaan", ZWAAN))
    error = caught.value
    assert error.pointer == "/match/rules"
    for difference in (
        "capot is double here, plain in 'zwaan'",
        "underbuy is forbidden here, allowed in 'zwaan'",
        "cafe.en_face is false here, true in 'zwaan'",
        "target is 101 here, 151 in 'zwaan'",
    ):
        assert difference in error.message


def test_a_record_of_another_variant_is_refused_at_its_variant() -> None:
    record = load(SAMPLES / "variant-six.json")
    with pytest.raises(RecordError) as caught:
        with_club_rules(record, ClubRules("vier", Rules()))
    assert caught.value.pointer == "/match/variant"
    assert "the match plays the variant six, the club's rules 'vier' are for four" in caught.value.message


def test_a_record_naming_only_the_clubs_variant_takes_the_clubs_house_rules() -> None:
    """A variant is the game, not a house rule: a record that names the variant and no rules
    takes the club's rules for that variant."""
    three = Rules(variant="three", muil_double=False)
    record = load(SAMPLES / "variant-three.json")
    assert record.match.variant == "three" and record.match.rules is UNSET
    with_club_rules(record, ClubRules("drie", three))
    assert replay(record).rules == three
    with pytest.raises(RecordError) as caught:
        with_club_rules(load(SAMPLES / "variant-three.json"), ClubRules("vier", Rules(muil_double=False)))
    assert caught.value.pointer == "/match/variant"


@pytest.mark.parametrize("name", ["", "   ", "standard", "Standard", "a\tb", "x" * 61])
def test_a_name_that_names_nothing_or_the_standard_rules_is_refused(name: str) -> None:
    with pytest.raises(InvalidOptionError):
        check_name(name)


def test_conflicting_options_cannot_make_rules_to_save() -> None:
    with pytest.raises(InvalidOptionError, match="conflict"):
        Rules.from_options({"trump_choice": "turned_card", "cafe": {"en_face": True}})


def test_a_cafe_rule_the_variant_has_no_room_for_is_not_saved(tmp_path: Path) -> None:
    """Saved, it was dropped without a word when the Record page started a match with it."""
    db = str(tmp_path / "club.duckdb")
    asked = ("--rule", "variant=three", "--rule", "cafe.en_face=true")
    result = _run("rules", "save", "bad", *asked, "--db", db)
    assert result.exit_code == 2, result.output
    assert "'cafe.en_face' does not apply to the variant 'three'" in result.output
    with Store(db) as store:  # the store refuses it too (the dashboard saves through it)
        with pytest.raises(InvalidOptionError, match="does not apply to the variant 'three'"):
            store.save_club_rules("bad", Rules(variant="three", en_face=True))
        assert store.club_rule_sets() == []


# --------------------------------------------------------------------------- the archive


def test_rules_saved_in_the_archive_read_back_the_same(tmp_path: Path) -> None:
    path = tmp_path / "club.duckdb"
    variants = {
        "zwaan": ZWAAN,
        "kroon": Rules(capot="fixed_60", max_multiplier=None, extension=(131,)),
        "drie": Rules(variant="three_dummy", trump_choice="turned_card"),
        "gewoon": Rules(),
    }
    with Store(path) as archive:
        for name, rules in variants.items():
            saved = archive.save_club_rules(name, rules)
            assert saved.name == name and saved.rules == rules and saved.saved_at is not None
    with Store(path, read_only=True) as archive:
        assert {one.name: one.rules for one in archive.club_rule_sets()} == variants
        assert [one.name for one in archive.club_rule_sets()] == sorted(variants)
        assert archive.club_rules("ZWAAN") is not None and archive.club_rules("ZWAAN").rules == ZWAAN  # type: ignore[union-attr]
        assert archive.club_rules("nergens") is None
        row = archive.query("SELECT variant, rules FROM club_rules WHERE name = 'drie'").row(0)
    # the record format's own rules object, the variant beside it
    assert row == ("three_dummy", json.dumps({"trump_choice": "turned_card"}))


def test_a_name_is_saved_once_whatever_its_case_unless_replaced(store: Store) -> None:
    store.save_club_rules("Zwaan", ZWAAN)
    with pytest.raises(ManillenError, match="has club rules 'Zwaan' already"):
        store.save_club_rules("zwaan", Rules())
    replaced = store.save_club_rules("zwaan", Rules(), replace=True)
    assert [(one.name, one.rules) for one in store.club_rule_sets()] == [("zwaan", Rules())]
    assert replaced.rules == Rules()
    deleted = store.delete_club_rules("ZWAAN")
    assert deleted is not None and deleted.name == "zwaan" and store.delete_club_rules("zwaan") is None
    assert store.club_rule_sets() == []


def test_an_archive_of_schema_15_gets_the_table_when_opened(tmp_path: Path) -> None:
    path = tmp_path / "old.duckdb"
    connection = duckdb.connect(str(path))
    apply_migrations(connection, upto=15)
    connection.close()
    with Store(path) as archive:
        assert archive.club_rule_sets() == []
        archive.save_club_rules("zwaan", ZWAAN)
        assert archive.club_rules("zwaan") is not None


def test_import_with_club_rules_writes_them_into_records_without_and_refuses_others(store: Store) -> None:
    club = store.save_club_rules("zwaan", ZWAAN)
    paths = [SAMPLES / "seed-trick.json", SAMPLES / "house-capot-double.json", SAMPLES / "muil.json"]
    summary = store.import_paths(paths, club=club)
    assert (summary.imported, summary.refused) == (2, 1)
    [problem] = summary.rejects
    assert problem.source is not None and problem.source.endswith("house-capot-double.json")
    assert problem.pointer == "/match/rules" and "capot is double here" in problem.message
    for match, rules_text, record_text in store.query(
        "SELECT match_id, rules, record FROM matches ORDER BY match_id"
    ).rows():
        assert json.loads(rules_text) == ZWAAN.to_options(), match
        assert rules_of(loads(record_text)) == ZWAAN  # the stored record says its rules itself
    rejected = store.query("SELECT pointer, message FROM rejects").rows()
    assert rejected[0][0] == "/match/rules" and "'zwaan'" in rejected[0][1]


def test_a_text_match_without_a_variant_line_is_read_as_the_clubs_variant(
    store: Store, tmp_path: Path
) -> None:
    """A three-player club's .mnl without `variant three` was refused at its seats line ("'four'
    is played by 4 players, the record names 3") where the same match in JSON took the club's."""
    typed = tmp_path / "thuis.mnl"
    typed.write_text(
        "\n".join(
            line
            for line in (NOTATION / "variant-three.mnl").read_text().splitlines()
            if not line.startswith("variant ")
        )
    )
    alone = Store(tmp_path / "alone.duckdb")
    try:
        refused = alone.import_paths([typed])
    finally:
        alone.close()
    assert refused.refused == 1 and "'four' is played by 4 players" in refused.rejects[0].message
    club = store.save_club_rules("thuis", Rules(variant="three"))
    summary = store.import_paths([typed], club=club)
    assert (summary.imported, summary.refused) == (1, 0), summary.rejects
    assert store.query("SELECT variant FROM matches").rows() == [("three",)]
    replaced = store.replacements_of(list(iter_entries([typed])), club=club)
    assert replaced == []  # read as the import reads it: the same record, nothing to replace


def test_replacements_asked_before_an_import_with_club_rules_are_those_it_makes(store: Store) -> None:
    """A match imported without rules is changed by importing it again with a club's (its record
    now says them): the question asked first names it; without the club nothing changes."""
    club = store.save_club_rules("zwaan", ZWAAN)
    paths = [SAMPLES / "seed-trick.json", SAMPLES / "house-capot-double.json"]
    store.import_paths(paths)
    assert store.replacements_of(iter_entries(paths)) == []
    [replacement] = store.replacements_of(iter_entries(paths), club=club)
    assert replacement.match_id == "seed-trick"  # the other is refused by the club: replaces nothing
    summary = store.import_paths(paths, club=club)
    assert [r.match_id for r in summary.replacements] == ["seed-trick"]


# --------------------------------------------------------------------------- the command line


def test_rules_save_list_show_delete(tmp_path: Path) -> None:
    db = str(tmp_path / "club.duckdb")
    saved = _run(
        "rules", "save", "zwaan", "--rule", "underbuy=allowed", "--rule", "cafe.en_face=true", "--db", db
    )
    assert saved.exit_code == 0, saved.output
    assert "saved the club rules 'zwaan'" in saved.stdout and "  cafe.en_face=true" in saved.stdout
    taken = _run(
        "rules", "save", "kroon", "--from-record", str(SAMPLES / "house-capot-double.json"), "--db", db
    )
    assert taken.exit_code == 0 and "  capot=double" in taken.stdout
    listing = _run("rules", "list", "--db", db)
    assert listing.exit_code == 0
    assert listing.stdout.index("kroon (four") < listing.stdout.index("zwaan (four")
    shown = _run("rules", "show", "zwaan", "--json", "--db", db)
    assert json.loads(shown.stdout) == {
        "variant": "four",
        "rules": {"underbuy": "allowed", "cafe": {"en_face": True}},
    }
    assert _run("rules", "show", "zwaan", "--db", db).stdout.splitlines()[1:] == [
        "  underbuy=allowed",
        "  cafe.en_face=true",
    ]
    gone = _run("rules", "delete", "KROON", "--db", db)  # any case; said as saved
    assert gone.exit_code == 0 and "deleted the club rules 'kroon'" in gone.stdout
    missing = _run("rules", "show", "kroon", "--db", db)
    assert missing.exit_code == 2
    assert "no club rules 'kroon' in" in missing.stderr and "the saved ones are 'zwaan'" in missing.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--rule", "trump_choice=turned_card", "--rule", "cafe.en_face=true"],
            "'trump_choice: turned_card' and 'cafe.en_face' conflict",
        ),
        (["--rule", "underbuy=sometimes"], "underbuy"),
        (["--rule", "nonsense=1"], "unknown rule option 'nonsense'"),
        (["--from-record", "nowhere.json"], "no such file: 'nowhere.json'"),
        (["--from-record", str(SAMPLES / "muil.json"), "--rule", "target=61"], "not both"),
    ],
)
def test_rules_save_refuses_bad_options_with_a_message(tmp_path: Path, args: list[str], message: str) -> None:
    result = _run("rules", "save", "zwaan", *args, "--db", str(tmp_path / "club.duckdb"))
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    _no_traceback(result)


@pytest.mark.parametrize(
    ("name", "message"), [("", "need a name"), ("Standard", "'standard' names the rules")]
)
def test_rules_save_refuses_a_name_that_cannot_be_as_a_usage_error_making_no_archive(
    tmp_path: Path, name: str, message: str
) -> None:
    result = _run("rules", "save", name, "--rule", "target=61", "--db", str(tmp_path / "club.duckdb"))
    assert result.exit_code == 2 and message in result.stderr, result.output  # as docs/cli.md says
    assert not (tmp_path / "club.duckdb").exists()
    _no_traceback(result)


def test_rules_save_takes_the_rules_of_a_folder_of_matches_played_under_one_set(tmp_path: Path) -> None:
    folder = tmp_path / "kroon"
    folder.mkdir()
    (folder / "one.json").write_bytes((SAMPLES / "house-capot-double.json").read_bytes())
    result = _run("rules", "save", "kroon", "--from-record", str(folder), "--db", str(tmp_path / "c.duckdb"))
    assert result.exit_code == 0, result.output
    assert "capot=double" in result.output
    mixed = _run("rules", "save", "all", "--from-record", str(SAMPLES), "--db", str(tmp_path / "c.duckdb"))
    assert mixed.exit_code == 1 and "sets of rules" in mixed.stderr


def test_rules_save_refuses_a_name_taken_unless_replace(tmp_path: Path) -> None:
    db = str(tmp_path / "club.duckdb")
    assert _run("rules", "save", "zwaan", "--db", db).exit_code == 0
    again = _run("rules", "save", "Zwaan", "--rule", "target=61", "--db", db)
    assert again.exit_code == 1 and "has club rules 'zwaan' already" in again.stderr
    replaced = _run("rules", "save", "Zwaan", "--rule", "target=61", "--replace", "--db", db)
    assert replaced.exit_code == 0 and "target=61" in replaced.stdout


def test_rules_save_from_a_file_of_matches_under_two_sets_of_rules_is_refused(tmp_path: Path) -> None:
    both = tmp_path / "both.jsonl"
    both.write_text(
        "\n".join(
            json.dumps(json.loads((SAMPLES / n).read_text())) for n in ("muil.json", "house-target-61.json")
        )
    )
    result = _run("rules", "save", "x", "--from-record", str(both), "--db", str(tmp_path / "c.duckdb"))
    assert result.exit_code == 1 and "played under 2 sets of rules" in result.stderr


def test_rules_list_of_a_missing_archive_is_a_usage_error(tmp_path: Path) -> None:
    result = _run("rules", "list", "--db", str(tmp_path / "none.duckdb"))
    assert result.exit_code == 2 and "no archive at" in result.stderr
    assert not (tmp_path / "none.duckdb").exists()


def test_import_rules_applies_to_matches_without_and_refuses_the_others(tmp_path: Path) -> None:
    db = str(tmp_path / "club.duckdb")
    assert _run("rules", "save", "zwaan", "--rule", "underbuy=allowed", "--db", db).exit_code == 0
    result = _run(
        "import",
        str(SAMPLES / "seed-trick.json"),
        str(NOTATION / "house-capot-double.mnl"),
        str(SAMPLES / "house-underbuy-allowed.json"),
        "--rules",
        "zwaan",
        "--db",
        db,
    )
    assert result.exit_code == 1, result.output
    assert "imported 2 matches" in result.stdout and "refused 1" in result.stdout
    # the notation file's match is placed by its line and column, the JSON's by its pointer
    assert "house-capot-double.mnl:" in result.stderr
    assert "capot is double here, plain in 'zwaan'" in result.stderr
    with Store(db, read_only=True) as archive:
        rules = dict(archive.query("SELECT match_id, rules FROM matches").rows())
    assert json.loads(rules["seed-trick"]) == {"underbuy": "allowed"}


def test_import_rules_names_the_saved_ones_when_the_name_is_unknown(tmp_path: Path) -> None:
    db = str(tmp_path / "club.duckdb")
    assert _run("rules", "save", "zwaan", "--db", db).exit_code == 0
    result = _run("import", str(SAMPLES / "seed-trick.json"), "--rules", "kroon", "--db", db)
    assert result.exit_code == 2
    assert "no club rules 'kroon'" in result.stderr and "'zwaan'" in result.stderr
    with Store(db, read_only=True) as archive:
        assert archive.query("SELECT count(*) AS n FROM matches")["n"][0] == 0
    no_archive = _run(
        "import", str(SAMPLES / "seed-trick.json"), "--rules", "zwaan", "--db", str(tmp_path / "x.duckdb")
    )
    assert no_archive.exit_code == 2 and "no archive at" in no_archive.stderr


def test_rules_save_from_a_record_whose_options_conflict_is_refused_with_the_reason(tmp_path: Path) -> None:
    record = tmp_path / "conflict.json"
    record.write_text(
        json.dumps(
            {
                "format": "manillen/1",
                "match": {
                    "seats": ["A", "B", "C", "D"],
                    "rules": {"trump_choice": "turned_card", "cafe": {"blind_muil": True}},
                },
                "deals": [],
            }
        )
    )
    db = tmp_path / "c.duckdb"
    result = _run("rules", "save", "x", "--from-record", str(record), "--db", str(db))
    assert result.exit_code == 1
    assert f"cannot take the rules of {record}: rule options 'trump_choice: turned_card'" in result.stderr
    assert "no muil can be called" in result.stderr
    _no_traceback(result)
