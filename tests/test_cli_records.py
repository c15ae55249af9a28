"""The record commands as a user runs them: validate, replay, legal, schema."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from manillen_replay.cli import COMMANDS, cli
from manillen_replay.cli import command as cli_command

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "data" / "samples"


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_validate_valid_files_exit_zero():
    result = run("validate", str(SAMPLES))
    assert result.exit_code == 0, result.output
    assert (
        "illegal-plays.json: ok, match illegal-plays, 4 deals (4 illegal plays, 1 irregularity"
        in result.output
    )


def test_validate_invalid_record_exit_one_with_place(tmp_path):
    good = json.loads((SAMPLES / "seed-trick.json").read_text())
    bad = json.loads(json.dumps(good))
    bad["deals"][0]["tricks"][5][2] = bad["deals"][0]["tricks"][1][0]
    archive = tmp_path / "club.jsonl"
    archive.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n")
    result = run("validate", str(archive))
    assert result.exit_code == 1
    card = bad["deals"][0]["tricks"][1][0]
    assert f"{archive}:2: /deals/0/tricks/5/2: '{card}' was already played in trick 2" in result.output
    assert f"{archive}:1: ok" in result.output


def test_validate_json_output(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(
        '{"format": "manillen/1", "match": {"seats": ["A", "B", "C", "D"]}, "deals": [{"dealer": 7}]}'
    )
    result = run("validate", "--json", str(bad), str(SAMPLES / "muil.json"))
    data = json.loads(result.output)
    assert result.exit_code == 1
    assert data["valid"] == 1 and data["invalid"] == 1
    assert data["records"][0]["problems"][0]["pointer"] == "/deals/0/dealer"


def test_validate_usage_error_exit_two(tmp_path):
    assert run("validate", str(tmp_path / "missing.jsonl")).exit_code == 2
    assert run("validate").exit_code == 2


def test_replay_text_shows_tricks_with_names_symbols_and_scores():
    result = run("replay", str(SAMPLES / "seed-trick.json"))
    assert result.exit_code == 0
    assert "Deal 1: dealer Dirk, trump ♦ koeken, x1" in result.output
    assert "Anna A♣" in result.output and "-> Dirk +9" in result.output
    assert "match score: 1-0" in result.output


def test_replay_ascii_writes_every_suit_as_a_letter():
    """--ascii: the same replay with 10H for 10♥, the trump suit included, for terminals without symbols."""
    with_symbols = run("replay", str(SAMPLES))
    ascii_only = run("replay", "--ascii", str(SAMPLES))
    assert with_symbols.exit_code == ascii_only.exit_code == 0
    assert "10♥" in with_symbols.stdout and "trump ♦ koeken" in with_symbols.stdout
    assert ascii_only.stdout == with_symbols.stdout.translate(str.maketrans("♥♦♣♠", "HDCS"))
    assert ascii_only.stdout.isascii()


def test_validate_quiet_prints_only_the_problems(tmp_path):
    good = json.loads((SAMPLES / "seed-trick.json").read_text())
    bad = json.loads(json.dumps(good))
    bad["deals"][0]["dealer"] = 9
    archive = tmp_path / "club.jsonl"
    archive.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n")
    result = run("validate", "--quiet", str(archive))
    assert result.exit_code == 1
    assert result.stdout == f"{archive}:2: /deals/0/dealer: seat 9 does not exist: seats are 0 to 3\n"
    assert result.stderr == "2 records: 1 valid, 1 invalid\n"
    assert f"{archive}:1: ok" in run("validate", str(archive)).stdout


def test_validate_names_a_match_id_seen_before_as_import_will_treat_it(tmp_path):
    """A second record of one id is valid, but import keeps one: validate says which, comparing
    each record with the one before it (as import does), across the files of the run."""
    first = json.loads((SAMPLES / "seed-trick.json").read_text())
    changed = json.loads(json.dumps(first))
    changed["match"]["venue"] = "Elsewhere"
    # The third line is the second's record in other spacing and key order: the same record.
    respaced = json.dumps(dict(reversed(changed.items())), separators=(",", ":"))
    archive = tmp_path / "club.jsonl"
    archive.write_text(f"{json.dumps(first)}\n{json.dumps(changed)}\n{respaced}\n")
    other = tmp_path / "again.json"
    other.write_text(json.dumps(changed))
    result = run("validate", str(archive), str(other))
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == f"{archive}:1: ok, match seed-trick, 1 deal"
    again = f"  match seed-trick again, a different record from the one at {archive}:1: import keeps this"
    assert lines[2].startswith(again)
    assert lines[4] == f"  match seed-trick again, the same record as {archive}:2: import skips it"
    assert lines[6] == f"  match seed-trick again, the same record as {archive}:3: import skips it"
    assert len(lines) == 7
    quiet = run("validate", "--quiet", str(archive)).stdout.splitlines()
    assert [line.split(": match")[0] for line in quiet] == [f"{archive}:2", f"{archive}:3"]
    records = json.loads(run("validate", "--json", str(archive)).stdout)["records"]
    assert [r.get("same_id_as") for r in records] == [None, f"{archive}:1", f"{archive}:2"]
    assert [r.get("same_record") for r in records] == [None, False, True]
    imported = run("import", "--db", str(tmp_path / "a.duckdb"), str(archive))
    assert "imported 1 match, replaced 1 (2 deals in all), skipped 1 already present" in imported.stdout


def test_replay_json_contract():
    result = run("replay", "--json", str(SAMPLES / "thirty-thirty.json"))
    data = json.loads(result.output)
    match = data["matches"][0]
    assert set(match) >= {"id", "source", "final_score", "winner", "deals"}
    first, second = match["deals"]
    assert set(first) >= {
        "deal",
        "dealer",
        "trump",
        "contract",
        "multiplier",
        "points",
        "score",
        "match_score",
        "tricks",
        "violations",
    }
    assert (first["deal"], first["score"], first["points"]) == (1, None, [30, 30])
    assert second["multiplier"] == 2 and second["score"] == {"team": 1, "points": 26}
    trick = first["tricks"][0]
    assert set(trick) >= {"trick", "leader", "seats", "cards", "winner", "points"}
    assert trick["trick"] == 1 and trick["leader"] == 1 and trick["seats"] == [1, 2, 3, 0]


def test_replay_json_violations_and_filters():
    result = run("replay", "--json", "--match", "illegal-plays", "--deal", "4", str(SAMPLES))
    data = json.loads(result.output)
    assert len(data["matches"]) == 1 and [d["deal"] for d in data["matches"][0]["deals"]] == [4]
    assert data["matches"][0]["deals"][0]["violations"] == [
        {"trick": 6, "play": 4, "seat": 2, "card": "7S", "kind": "illegal_underbuy", "legal": ["JC", "KS"]}
    ]


def test_scoresheet_match_replays_without_tricks():
    data = json.loads(run("replay", "--json", str(SAMPLES / "scoresheet.json")).output)["matches"][0]
    assert data["final_score"] == [105, 42] and data["winner"] == 0
    assert all(d["points"] is None for d in data["deals"])


def test_legal_seed_example():
    result = run("legal", "--trump", "D", "--leader", "1", "--trick", "AC QC 9D", "--hand", "8D KD 7H")
    assert result.exit_code == 0
    assert "May play: KD" in result.output and "over-buy" in result.output


def test_legal_json_open_and_complete_trick():
    data = json.loads(
        run(
            "legal", "--trump", "D", "--leader", "1", "--trick", "AC QC 9D", "--hand", "8D KD 7H", "--json"
        ).output
    )
    assert (
        data["seat"] == 3 and data["winning"] == 2 and data["legal"] == ["KD"] and "over-buy" in data["rule"]
    )
    data = json.loads(
        run("legal", "--trump", "D", "--leader", "1", "--trick", "AC QC 9D KD", "--json").output
    )
    assert data == {"winner": 3, "points": 9}
    data = json.loads(run("legal", "--trump", "none", "--leader", "3", "--json").output)
    assert data == {"seat": 2, "winning": None}


def test_legal_house_rule_option():
    args = ["legal", "--trump", "H", "--leader", "1", "--trick", "KC", "--hand", "7C AC", "--json"]
    assert json.loads(run(*args).output)["legal"] == ["AC"]
    args = ["legal", "--trump", "H", "--leader", "1", "--trick", "KC 8C", "--hand", "7C AC", "--json"]
    assert sorted(json.loads(run(*args).output)["legal"]) == ["7C", "AC"]
    assert json.loads(run(*args, "--rule", "partner_exempt=false").output)["legal"] == ["AC"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--trick", "XX"], "unknown card 'XX'"),
        (["--trick", "AC AC"], "twice"),
        (["--trick", "AC", "--hand", "AC"], "both on the table and in the hand"),
        (["--rule", "nonsense=1"], "unknown rule option"),
        (["--trick", "KC", "--hand", "8D 8D"], "a card appears twice in the hand"),
        (["--trick", "KC", "--hand", "6C 7C"], "6C is not in the deck of 'four'"),
        (["--trick", "6C"], "6C is not in the deck of 'four'"),
        (["--hand", "7C 8C 9C 10C JC QC KC AC 7D"], "a seat holds at most 8 cards in 'four', not 9"),
        (["--trick", "JC 7C 8C 9C", "--hand", "KC"], "the trick is complete: nobody is to play"),
    ],
)
def test_legal_bad_input_is_a_usage_error(args, message):
    result = run("legal", "--trump", "H", "--leader", "1", *args)
    assert result.exit_code == 2 and message in result.output


def test_legal_knows_the_seats_of_the_variant():
    """Seat 4 of a three-player game was taken for seat 1 without a word."""
    three = ("--trump", "H", "--trick", "QS", "--hand", "KS 7S AC", "--rule", "variant=three")
    refused = run("legal", "--leader", "4", *three)
    assert refused.exit_code == 2 and "seat 4 does not exist in 'three': seats are 1 to 3" in refused.output
    answered = run("legal", "--leader", "3", *three)
    assert answered.exit_code == 0 and answered.output.startswith("Seat 1 to play; seat 3 is winning")
    six = run("legal", "--trump", "H", "--leader", "6", "--trick", "QS", "--rule", "variant=six")
    assert six.exit_code == 0 and six.output.startswith("Seat 1 to play")
    assert run("legal", "--trump", "H", "--leader", "5").exit_code == 2  # four players


def test_schema_command_prints_the_published_schema():
    assert json.loads(run("schema").output) == json.loads(
        (ROOT / "schemas" / "manillen-1.schema.json").read_text()
    )


def test_every_command_has_help_and_is_in_the_readme():
    readme = (ROOT / "README.md").read_text()
    for name in COMMANDS:
        command = cli_command(name)
        result = run(name, "--help")
        assert result.exit_code == 0 and "Usage:" in result.output
        assert command.help, f"{name} has no help text"
        assert f"manillen {name}" in readme, f"README does not document `manillen {name}`"


def test_legal_names_who_is_winning_when_partner_exempt_is_off():
    """With partner_exempt=false the duty to overtake holds over the partner too: the answer says so."""
    partner = run("legal", "--trump", "D", "--leader", "1", "--trick", "KH 7H", "--hand", "8H AH",
                  "--rule", "partner_exempt=false")  # fmt: skip
    assert "your partner is winning" in partner.output and "opponent" not in partner.output
    opponent = run("legal", "--trump", "D", "--leader", "1", "--trick", "KH", "--hand", "7H AH",
                   "--rule", "partner_exempt=false")  # fmt: skip
    assert "an opponent is winning" in opponent.output


def test_an_empty_json_lines_file_is_said_to_be_empty_not_passed(tmp_path):
    """A helper's empty .jsonl (a failed phone export) passed validate with 0 records and exit
    code 0, and imported as nothing, where an empty .json or .mnl is refused: it is refused too."""
    empty = tmp_path / "evening.jsonl"
    empty.write_text("\n\n")
    result = run("validate", str(empty))
    assert result.exit_code == 1
    assert (
        result.stdout == f"{empty}: the file is empty: no record in it (JSON Lines holds one match a line)\n"
    )
    imported = run("import", "--db", str(tmp_path / "a.duckdb"), "--quiet", str(empty))
    assert imported.exit_code == 1 and "refused 1" in imported.stdout
    single = tmp_path / "one.json"
    single.write_text("")
    said = run("validate", str(single)).stdout
    assert said == f"{single}: empty: nothing to read here, where a record (a JSON object) should be\n"


def test_a_match_asked_by_its_files_name_suggests_the_matches_id() -> None:
    """`replay data/samples/ --match muil`: a file's name is not its match's id (muil.json holds
    muil-three-manilles), and the refusal named no id to use."""
    samples = str(Path(__file__).resolve().parent.parent / "data" / "samples")
    result = CliRunner().invoke(cli, ["replay", samples, "--match", "muil", "--deal", "1"])
    assert result.exit_code == 2
    assert "did you mean 'house-muil-single' or 'muil-three-manilles'?" in result.output
    one = str(Path(samples) / "seed-trick.json")
    alone = CliRunner().invoke(cli, ["replay", one, "--match", "zzz"])
    assert alone.exit_code == 2 and "the match there is 'seed-trick'" in alone.output


def test_the_samples_readme_gives_each_files_match_id() -> None:
    """The id column is what `--match` takes: each row's id is its file's."""
    import re

    samples = Path(__file__).resolve().parent.parent / "data" / "samples"
    rows = re.findall(r"^\| `([^`]+\.json)` \| `([^`]*)` \|", (samples / "README.md").read_text(), re.M)
    assert {name for name, _ in rows} == {p.name for p in samples.glob("*.json")}
    for name, shown in rows:
        assert json.loads((samples / name).read_text())["match"]["id"] == shown, name


def test_convert_refuses_a_to_the_name_of_out_contradicts(tmp_path: Path) -> None:
    """`convert muil.json out.jsonl --to mnl` wrote text under a JSON Lines name: every reader,
    going by the name, then refused the file line by line."""
    sample = Path(__file__).resolve().parent.parent / "data" / "samples" / "muil.json"
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(cli, ["convert", str(sample), str(out), "--to", "mnl"])
    assert result.exit_code == 2 and not out.exists()
    assert "--to mnl writes what a .jsonl file does not hold" in result.output
    assert f"name OUT {tmp_path / 'out.mnl'}" in result.output  # in its folder, not the current one
    fine = CliRunner().invoke(cli, ["convert", str(sample), str(tmp_path / "out.mnl"), "--to", "mnl"])
    assert fine.exit_code == 0 and (tmp_path / "out.mnl").read_text().startswith("match ")


def _piped(args: list[str], given: bytes, folder: Path | None = None):
    """The command run as a shell runs ``... | manillen ARGS``: its standard input ``given``."""
    import os

    here = os.getcwd()
    if folder is not None:
        os.chdir(folder)
    try:
        return CliRunner().invoke(cli, args, input=given)
    finally:
        os.chdir(here)


def test_a_dash_reads_the_records_from_standard_input_each_kind_guessed(sample_records: list[str]):
    """`manillen validate -` said "no such file or folder: '-'": a pipe is read as a file is,
    JSON Lines, one JSON document over lines and the text notation each told from the bytes."""
    lines = "\n".join(sample_records[:3]) + "\n"
    piped = _piped(["validate", "-"], lines.encode())
    assert piped.exit_code == 0, piped.output
    ids = [json.loads(line)["match"]["id"] for line in sample_records[:3]]
    for number, match in enumerate(ids, start=1):
        assert f"<stdin>:{number}: ok, match {match}," in piped.output
    indented = json.dumps(json.loads(sample_records[0]), indent=2)
    assert f"<stdin>: ok, match {ids[0]}," in _piped(["validate", "-"], indented.encode()).output
    notation = (ROOT / "data" / "notation" / "seed-trick.mnl").read_bytes()
    assert "<stdin>:1: ok, match seed-trick, 1 deal" in _piped(["validate", "-"], notation).output


def test_a_problem_read_from_standard_input_is_placed_at_its_line_and_pointer(sample_records: list[str]):
    broken = json.loads(sample_records[0])
    broken["deals"][0]["dealer"] = 9
    given = (sample_records[1] + "\n" + json.dumps(broken) + "\n").encode()
    result = _piped(["validate", "--quiet", "-"], given)
    assert result.exit_code == 1
    assert "<stdin>:2: /deals/0/dealer: " in result.output
    assert "<stdin>:1" not in result.output


def test_standard_input_given_twice_is_read_once_beside_files(sample_records: list[str], tmp_path: Path):
    (tmp_path / "one.jsonl").write_text(sample_records[0] + "\n")
    result = _piped(["validate", "-", "one.jsonl", "-"], (sample_records[1] + "\n").encode(), tmp_path)
    assert result.exit_code == 0, result.output
    assert result.output.count("<stdin>:1: ok") == 1 and "one.jsonl:1: ok" in result.output
    assert "2 records: 2 valid, 0 invalid" in result.output


def test_a_file_named_dash_is_read_by_its_path(sample_records: list[str], tmp_path: Path):
    (tmp_path / "-").write_text(sample_records[0])
    result = _piped(["validate", "./-"], b"", tmp_path)
    assert result.exit_code == 0 and "- : " not in result.output
    match = json.loads(sample_records[0])["match"]["id"]
    assert f"ok, match {match}" in result.output


def test_replay_and_import_read_standard_input(sample_records: list[str], tmp_path: Path):
    match = json.loads(sample_records[0])["match"]["id"]
    replayed = _piped(["replay", "-"], sample_records[0].encode())
    assert replayed.exit_code == 0 and f"Match {match}  (<stdin>:1)" in replayed.output
    db = str(tmp_path / "piped.duckdb")
    imported = _piped(["import", "-", "--db", db], ("\n".join(sample_records[:2]) + "\n").encode())
    assert imported.exit_code == 0 and "imported 2 matches" in imported.output, imported.output
    asked = run("sql", "SELECT DISTINCT source FROM matches", "--db", db, "--format", "json")
    assert json.loads(asked.output) == [{"source": "<stdin>"}]


def test_a_broken_first_line_of_piped_json_lines_leaves_the_records_after_it_read(sample_records: list[str]):
    """A bad first line made the whole pipe one JSON document: three good records were dropped."""
    given = ('{"format": "manillen/1", "match": \n' + "\n".join(sample_records[:3]) + "\n").encode()
    result = _piped(["validate", "--quiet", "-"], given)
    assert result.exit_code == 1 and "<stdin>:1: " in result.output
    assert "4 records: 3 valid, 1 invalid" in result.output


def test_each_pipes_refused_records_are_kept_beside_the_last_ones(sample_records: list[str], tmp_path: Path):
    """Every pipe is "<stdin>": the second piped import cleared the first one's rejects."""
    db = str(tmp_path / "piped.duckdb")
    assert _piped(["import", "-", "--db", db], b'{"format": "manillen/1"}\n').exit_code == 1
    assert _piped(["import", "-", "--db", db], (sample_records[0] + "\n").encode()).exit_code == 0
    asked = run("sql", "SELECT source, line FROM rejects", "--db", db, "--format", "json")
    assert json.loads(asked.output) == [{"source": "<stdin>", "line": 1}]
