"""The record format: the published schema, the files in data/, and canonical round trips."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from manillen_replay.errors import InvalidRecordError
from manillen_replay.record import dump_lines, dumps, iter_entries, json_schema, load, loads

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_FILE = ROOT / "schemas" / "manillen-1.schema.json"
# the records the project ships: not the Record page's drafts (data/demo.drafts/, unfinished deals
# a player taps into the demo archive), nor anything else a user's checkout gathers under data/
SHIPPED = ("samples", "demo.jsonl")
DATA_FILES = sorted(
    p
    for p in (ROOT / "data").rglob("*")
    if p.suffix in (".json", ".jsonl") and p.relative_to(ROOT / "data").parts[0] in SHIPPED
)


def test_published_schema_is_the_one_the_model_generates():
    """schemas/manillen-1.schema.json is generated from the model: regenerate with `make schema`."""
    assert json.loads(SCHEMA_FILE.read_text()) == json_schema()


def test_published_schema_is_a_valid_json_schema():
    jsonschema.Draft202012Validator.check_schema(json.loads(SCHEMA_FILE.read_text()))


def test_every_record_file_git_ships_under_data_is_checked() -> None:
    """DATA_FILES leaves out what a user's checkout gathers (the Record page's drafts): it must
    not leave out a record file the repository ships."""
    import shutil
    import subprocess

    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    listed = subprocess.run(
        ["git", "ls-files", "data"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    shipped = {ROOT / name for name in listed if name.endswith((".json", ".jsonl"))}
    assert shipped == set(DATA_FILES)


def test_data_folder_has_the_samples():
    names = {p.stem for p in DATA_FILES}
    assert {
        "seed-trick",
        "muil",
        "klop-tegenklop",
        "thirty-thirty",
        "match-101",
        "illegal-plays",
        "scoresheet",
    } <= names


@pytest.mark.parametrize("path", DATA_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_data_file_validates_against_the_schema(path):
    validator = jsonschema.Draft202012Validator(
        json.loads(SCHEMA_FILE.read_text()), format_checker=jsonschema.FormatChecker()
    )
    entries = list(iter_entries([path]))
    assert entries
    wrong = {
        entry.place: error.message
        for entry in entries
        for error in validator.iter_errors(json.loads(entry.data))
    }
    assert wrong == {}


@pytest.mark.parametrize("path", DATA_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_data_file_round_trips_byte_for_byte(path):
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".jsonl":
        records = [loads(entry.data) for entry in iter_entries([path])]
        assert dump_lines(records) == text
    else:
        assert dumps(load(path)) == text


def test_schema_refuses_what_the_decoder_refuses():
    """The schema and the typed decoder agree on a sample of wrong documents."""
    validator = jsonschema.Draft202012Validator(json_schema(), format_checker=jsonschema.FormatChecker())
    good = json.loads((ROOT / "data" / "samples" / "seed-trick.json").read_text())
    wrong = [
        {**good, "format": "manillen/2"},
        {**good, "match": {**good["match"], "seats": "Anna"}},
        {**good, "deals": [{**good["deals"][0], "dealer": -1}]},
        {**good, "deals": [{**good["deals"][0], "tricks": [["XX"]]}]},
        {**good, "extra": 1},
    ]
    for document in wrong:
        assert list(validator.iter_errors(document))
        with pytest.raises(InvalidRecordError):
            loads(json.dumps(document))


def test_jsonl_entries_carry_their_line_numbers(tmp_path):
    good = (ROOT / "data" / "samples" / "seed-trick.json").read_text()
    line = json.dumps(json.loads(good))
    archive = tmp_path / "club.jsonl"
    archive.write_text(f"{line}\n\n{line}\n")
    assert [e.line for e in iter_entries([archive])] == [1, 3]
    assert [e.place for e in iter_entries([tmp_path])] == [f"{archive}:1", f"{archive}:3"]


def test_missing_path_is_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="no such file or folder"):
        list(iter_entries([tmp_path / "nope.jsonl"]))
