"""Bad input never breaks the archive (issue 13): every kind of bad document gets a message
with its place, never a traceback, in each of the five commands that read records; one bad
match does not stop the others."""

from __future__ import annotations

import copy
import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner, Result

import manillen_replay.bulk as bulk
import manillen_replay.record.io as record_io
import manillen_replay.store.analyse as analysis_run
from manillen_replay.cli import cli
from manillen_replay.errors import InvalidRecordError
from manillen_replay.record import iter_entries, json_schema, loads
from manillen_replay.store import Store

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "data" / "samples"
SEED = json.loads((SAMPLES / "seed-trick.json").read_text(encoding="utf-8"))
READING_COMMANDS = ("validate", "replay", "findings", "costs", "import")
"""The five commands that read record files."""


def _run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def _analysed(db: Path) -> list[str]:
    """The archive's matches marked analysed, by id."""
    with Store(db, read_only=True) as store:
        return store.query("SELECT match_id FROM matches WHERE analysed_at IS NOT NULL ORDER BY 1")[
            "match_id"
        ].to_list()


def _run_reading(command: str, path: Path, tmp_path: Path) -> Result:
    """One of the five commands on a file; ``costs`` in its fast mode, ``import`` into a new archive."""
    extra = {"costs": ["--hindsight"], "import": ["--db", str(tmp_path / "fuzz.duckdb")]}
    return _run(command, str(path), *extra.get(command, []))


def _assert_message(result: Result, *expected: str) -> str:
    """No traceback; a refusal (exit 1) whose output holds each expected text."""
    output = result.output + (result.stderr if result.stderr_bytes is not None else "")
    assert "Traceback" not in output, output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 1, output
    for text in expected:
        assert text in output, output
    return output


def _seed_with(change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    record = copy.deepcopy(SEED)
    change(record)
    return record


def _write(path: Path, data: bytes | str) -> Path:
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    path.write_bytes(data)
    return path


def _seed_text() -> str:
    return json.dumps(SEED, ensure_ascii=False)


def _with_dealer(digits: str) -> str:
    text = _seed_text()
    start = text.index('"dealer": ') + len('"dealer": ')
    end = start + len(str(SEED["deals"][0]["dealer"]))
    return text[:start] + digits + text[end:]


BAD_DOCUMENTS: dict[str, tuple[str | bytes, tuple[str, ...]]] = {
    "nested 1,000 deep": ("[" * 1000 + "]" * 1000, ("nest more than 20 deep", "deep at column 21")),
    "nested deep in a field": (
        '{"format": "manillen/1", "match": ' + "[" * 1000 + "]" * 1000 + "}",
        ("nest more than 20 deep",),
    ),
    "a number of 4,301 digits": (_with_dealer("9" * 4301), ("/deals/0/dealer", "a number of 4301 digits")),
    "a lone surrogate escape": (
        _seed_text().replace('"Anna"', '"\\ud800"'),
        ("/match/seats/0", "lone surrogate"),
    ),
    "an unknown card that is a lone surrogate": (
        _seed_text().replace('"QC"', '"\\udcff"', 1),
        ("lone surrogate",),
    ),
    "bad UTF-8": (
        _seed_text().encode().replace(b'"Anna"', b'"An\xffna"'),
        ("/match/seats/0", "not UTF-8 text", "save the file as UTF-8"),
    ),
    "UTF-16": (_seed_text().encode("utf-16"), ("UTF-16", "save it as UTF-8")),
    "UTF-16 without a byte-order mark": (_seed_text().encode("utf-16-le"), ("UTF-16",)),
    "a scoresheet beyond any deal": (
        json.dumps(_seed_with(lambda r: r["deals"][0].update(recorded_score={"team": 0, "points": 2**31}))),
        ("/deals/0/recorded_score/points", "out of range"),
    ),
    "a target beyond the archive": (
        json.dumps(_seed_with(lambda r: r["match"].update(rules={"target": 10**12}))),
        ("/match/rules/target", "out of range"),
    ),
}


@pytest.mark.parametrize("command", READING_COMMANDS)
@pytest.mark.parametrize("kind", list(BAD_DOCUMENTS))
def test_bad_document_is_a_message_with_its_place_in_every_command(
    command: str, kind: str, tmp_path: Path
) -> None:
    data, expected = BAD_DOCUMENTS[kind]
    path = _write(tmp_path / "bad.json", data)
    _assert_message(_run_reading(command, path, tmp_path), "bad.json", *expected)


@pytest.mark.parametrize("command", READING_COMMANDS)
def test_an_archive_given_where_records_go_is_said_to_be_one(command: str, tmp_path: Path) -> None:
    archive = tmp_path / "club.duckdb"
    with Store(archive) as store:
        store.import_entries(iter_entries([SAMPLES / "seed-trick.json"]))
    _assert_message(
        _run_reading(command, archive, tmp_path),
        "club.duckdb: this is a DuckDB archive, not a record file: give an archive with --db",
    )


@pytest.mark.parametrize("command", READING_COMMANDS)
@pytest.mark.parametrize(
    ("name", "said"),
    [
        (
            "club.jsonl.gz",
            "club.jsonl.gz: the file is compressed (gzip): decompress it first "
            "(gunzip -c club.jsonl.gz > club.jsonl)",
        ),
        ("club.jsonl", "club.jsonl: the file is compressed (gzip): decompress it first"),
        ("matches.parquet", "matches.parquet: this is a Parquet file, not a record file"),
        ("wide.jsonl", "wide.jsonl: the file is UTF-16 text; save it as UTF-8"),
    ],
)
def test_a_compressed_parquet_or_utf16_file_is_one_message_not_one_a_line(
    command: str, name: str, said: str, tmp_path: Path
) -> None:
    """A gzip file read line by line gave twenty-two refused "records", each said to be UTF-16."""
    import gzip

    lines = (_seed_text().replace("\n", " ") + "\n") * 3
    data = (
        lines.encode("utf-16")
        if name == "wide.jsonl"
        else b"PAR1" + bytes(range(256)) * 4 + b"PAR1"
        if name.endswith(".parquet")
        else gzip.compress(lines.encode())
    )
    output = _assert_message(_run_reading(command, _write(tmp_path / name, data), tmp_path), said)
    assert f"{name}:2" not in output  # not a message for every line


@pytest.mark.parametrize("command", READING_COMMANDS)
def test_one_indented_record_named_jsonl_is_one_message_not_one_a_line(command: str, tmp_path: Path) -> None:
    path = _write(tmp_path / "match.jsonl", (SAMPLES / "seed-trick.json").read_bytes())
    output = _assert_message(
        _run_reading(command, path, tmp_path),
        "match.jsonl: this JSON Lines file holds one JSON document written over many lines",
        "name it .json",
    )
    assert "match.jsonl:2" not in output  # not a message for every line


def test_bad_documents_in_json_lines_name_their_line(tmp_path: Path) -> None:
    lines = [json.dumps(SEED).encode()]
    for data, _ in BAD_DOCUMENTS.values():
        encoded = data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass")
        if b"\n" not in encoded and b"\x00" not in encoded:
            lines.append(encoded)
    path = _write(tmp_path / "bad.jsonl", b"\n".join(lines) + b"\n")
    output = _assert_message(_run("validate", str(path)))
    for number in range(2, len(lines) + 1):
        assert f"bad.jsonl:{number}: " in output
    assert f"{len(lines)} records: 1 valid, {len(lines) - 1} invalid" in output


def test_a_utf8_byte_order_mark_is_read(tmp_path: Path) -> None:
    """Windows editors write a UTF-8 BOM: the record is read as if it were not there."""
    path = _write(tmp_path / "bom.json", b"\xef\xbb\xbf" + _seed_text().encode())
    text = _write(
        tmp_path / "bom.mnl", b"\xef\xbb\xbf" + (ROOT / "data/notation/seed-trick.mnl").read_bytes()
    )
    result = _run("validate", str(path), str(text))
    assert result.exit_code == 0, result.output
    assert "2 records: 2 valid" in result.output


@pytest.mark.parametrize("kind", ["json", "jsonl", "mnl"])
def test_a_utf8_byte_order_mark_on_standard_input_is_read(kind: str) -> None:
    """`convert - -` guesses the kind from the first line after the BOM, as a file by path is read."""
    seed = json.loads(_seed_text())
    other = json.dumps({**seed, "match": {**seed["match"], "id": "seed-trick-2"}}, ensure_ascii=False)
    text = {
        "json": json.dumps(seed, ensure_ascii=False, indent=2),
        "jsonl": f"{_seed_text()}\n{other}\n",
        "mnl": (ROOT / "data/notation/seed-trick.mnl").read_text(encoding="utf-8"),
    }[kind]
    result = CliRunner().invoke(cli, ["convert", "-", "-"], input=b"\xef\xbb\xbf" + text.encode())
    assert result.exit_code == 0, result.output
    if kind == "mnl":
        assert [json.loads(line)["match"]["id"] for line in result.stdout.splitlines()] == ["seed-trick"]
    else:
        matches = [line for line in result.stdout.splitlines() if line.startswith("match ")]
        assert matches == ["match seed-trick", "match seed-trick-2"][: 2 if kind == "jsonl" else 1]


@pytest.mark.parametrize(
    ("pointer", "value"),
    [
        ("/deals/0/recorded_score/points", 2**31),
        ("/match/rules/target", 10**12),
        ("/match/rules/max_multiplier", 2**40),
        ("/deals/0/penalties/0/points", 10**10),
        ("/match/rules/deals", 10**9),
    ],
)
def test_schema_and_model_bound_every_number(pointer: str, value: int) -> None:
    record = copy.deepcopy(SEED)
    record["deals"][0]["recorded_score"] = {"team": 0, "points": 1}
    if "penalties" in pointer:
        record["deals"][0]["penalties"] = [{"team": 0, "points": 1}]
    if "/rules/" in pointer:
        record["match"]["rules"] = {}
    *parents, name = pointer.strip("/").split("/")
    target: Any = record
    for part in parents:
        target = target[int(part)] if part.isdigit() else target.setdefault(part, {})
    target[name] = value
    assert list(jsonschema.Draft202012Validator(json_schema()).iter_errors(record))
    with pytest.raises(InvalidRecordError) as refused:
        loads(json.dumps(record))
    problem = refused.value.problems[0]
    assert problem.pointer == pointer
    assert problem.message.startswith(f"{value} is out of range (maximum ")


@pytest.mark.solver
def test_findings_on_three_dummy_with_a_wrong_scoresheet(tmp_path: Path) -> None:
    record = json.loads((SAMPLES / "variant-three-dummy.json").read_text(encoding="utf-8"))
    record["deals"][0]["recorded_score"] = {"team": 1, "points": 20}
    path = _write(tmp_path / "three.json", json.dumps(record))
    result = _run("findings", str(path))
    assert result.exit_code == 0, result.output
    assert "the scoresheet says 20 for" in result.output


# --------------------------------------------------------------------------- one bad match


def _good(match_id: str) -> str:
    return json.dumps(_seed_with(lambda r: r["match"].update(id=match_id)))


def test_good_bad_good_keeps_both_good_matches(tmp_path: Path) -> None:
    bad = BAD_DOCUMENTS["a target beyond the archive"][0]
    assert isinstance(bad, str)
    path = _write(tmp_path / "mixed.jsonl", "\n".join([_good("one"), bad, _good("two")]) + "\n")
    db = tmp_path / "a.duckdb"
    _assert_message(_run("import", str(path), "--db", str(db)), "mixed.jsonl:2: /match/rules/target")
    with Store(db, read_only=True) as store:
        assert sorted(store.query("SELECT match_id FROM matches")["match_id"]) == ["one", "two"]
        assert store.query("SELECT line FROM rejects")["line"].to_list() == [2]


def test_any_failure_importing_one_record_refuses_it_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = bulk.replay  # the import replays its batches with the bulk path

    def breaks_on_two(record: Any, **kwargs: Any) -> Any:
        if record.match.id == "two":
            raise ZeroDivisionError("a bug in the replay")
        return real(record, **kwargs)

    monkeypatch.setattr(bulk, "replay", breaks_on_two)
    path = _write(tmp_path / "three.jsonl", "\n".join([_good("one"), _good("two"), _good("three")]) + "\n")
    with Store() as store:
        summary = store.import_paths([path])
        assert (summary.imported, summary.refused) == (2, 1)
        assert sorted(store.query("SELECT match_id FROM matches")["match_id"]) == ["one", "three"]
        rejects = store.query("SELECT line, message FROM rejects")
        assert rejects["line"].to_list() == [2]
        assert "ZeroDivisionError: a bug in the replay" in rejects["message"][0]
        # no row of the broken match was left in any table
        assert store.query("SELECT count(*) AS n FROM deals")["n"][0] == 2 * len(SEED["deals"])


def test_a_score_too_large_for_the_archive_refuses_that_match_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = bulk.replay  # the import replays its batches with the bulk path

    def huge(record: Any, **kwargs: Any) -> Any:
        result = real(record, **kwargs)
        if record.match.id == "two":
            result.deals[0].multiplier = 2**40
        return result

    monkeypatch.setattr(bulk, "replay", huge)
    path = _write(tmp_path / "three.jsonl", "\n".join([_good("one"), _good("two"), _good("three")]) + "\n")
    with Store() as store:
        summary = store.import_paths([path])
        assert (summary.imported, summary.refused) == (2, 1)
        assert "more than the archive holds" in store.query("SELECT message FROM rejects")["message"][0]


def test_oversized_record_is_refused_unread_and_rejects_raw_is_capped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(record_io, "MAX_RECORD_BYTES", 4096)
    monkeypatch.setattr(record_io, "RAW_PREFIX", 100)
    import manillen_replay.store.batch as batch

    monkeypatch.setattr(batch, "RAW_PREFIX", 100)
    big = _seed_with(lambda r: r["match"].update(id="big", notes="x" * 10_000))
    big_line = json.dumps(big)
    path = _write(tmp_path / "big.jsonl", "\n".join([_good("one"), big_line, _good("two")]) + "\n")
    with Store() as store:
        summary = store.import_paths([path])
        assert (summary.imported, summary.refused) == (2, 1)
        row = store.query("SELECT line, message, raw FROM rejects").row(0, named=True)
    assert row["line"] == 2
    assert f"the record is {len(big_line):,} bytes, over the limit of 4,096" in row["message"]
    digest = hashlib.sha256(big_line.encode()).hexdigest()
    assert row["raw"].startswith(big_line[:100]) and digest in row["raw"]
    assert len(row["raw"]) < 300


def refuse_reading(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Reading the file called ``name`` fails as a file without read permission does."""
    real = Path.read_bytes

    def read_bytes(self: Path) -> bytes:
        if self.name == name:
            raise PermissionError(13, "Permission denied", str(self))
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)


def test_unreadable_file_is_a_bad_record_and_the_others_go_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = _write(tmp_path / "a.json", _good("one"))
    locked = _write(tmp_path / "b.json", _good("two"))
    last = _write(tmp_path / "c.json", _good("three"))
    refuse_reading(monkeypatch, locked.name)
    # the fast scan: the file is refused on reading, whatever the depth of the review
    for command in ("validate", "replay", "findings --depth heuristic"):
        output = _assert_message(_run(*command.split(), str(first), str(locked), str(last)))
        assert "b.json: cannot read the file: Permission denied" in output
    db = tmp_path / "a.duckdb"
    _assert_message(_run("import", str(tmp_path), "--db", str(db)), "cannot read the file")
    with Store(db, read_only=True) as store:
        assert sorted(store.query("SELECT match_id FROM matches")["match_id"]) == ["one", "three"]


def test_unreadable_folder_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write(tmp_path / "a.json", _good("one"))
    (tmp_path / "locked").mkdir()
    real = os.walk

    def walk(top: Any, onerror: Any = None, **kwargs: Any) -> Any:
        for folder, folders, names in real(top, onerror=onerror, **kwargs):
            if "locked" in folders:
                folders.remove("locked")
                onerror(PermissionError(13, "Permission denied", os.path.join(folder, "locked")))
            yield folder, folders, names

    monkeypatch.setattr(record_io.os, "walk", walk)
    output = _assert_message(_run("validate", str(tmp_path)))
    assert "locked: cannot read the folder: Permission denied" in output
    assert "a.json: ok" in output


def test_a_folder_without_record_files_is_refused_not_passed_as_done(tmp_path: Path) -> None:
    """A folder given by mistake (the wrong one, records not copied yet): every command that reads
    records says there was nothing to read there, and exits with 1, not "0 records" and 0."""
    (tmp_path / "empty" / "inner").mkdir(parents=True)
    (tmp_path / "empty" / "notes.txt").write_text("not a record", encoding="utf-8")
    (tmp_path / "full").mkdir()
    _write(tmp_path / "full" / "a.json", _good("one"))
    empty = tmp_path / "empty"
    said = "empty: no record files in this folder or below it (files ending .json, .jsonl, .mnl)"
    for command in ("validate", "replay"):
        assert said in _assert_message(_run(command, str(empty)))
    db = tmp_path / "a.duckdb"
    imported = _run("import", str(empty), str(tmp_path / "full"), "--db", str(db))
    assert said in _assert_message(imported)
    with Store(db, read_only=True) as store:  # the folder with records is imported all the same
        assert store.query("SELECT match_id FROM matches")["match_id"].to_list() == ["one"]


def test_file_names_in_any_case_and_not_utf8(tmp_path: Path) -> None:
    _write(tmp_path / "UPPER.JSON", _good("upper"))
    name = os.fsdecode(b"caf\xe9.json")
    _write(tmp_path / name, BAD_DOCUMENTS["a target beyond the archive"][0])
    db = tmp_path / "a.duckdb"
    output = _assert_message(_run("import", str(tmp_path), "--db", str(db)))
    assert "caf\\xe9.json: /match/rules/target" in output
    with Store(db, read_only=True) as store:
        assert store.query("SELECT match_id FROM matches")["match_id"].to_list() == ["upper"]
        assert store.query("SELECT source FROM rejects")["source"][0].endswith("caf\\xe9.json")


def test_one_file_by_two_paths_is_read_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    bad = BAD_DOCUMENTS["a target beyond the archive"][0]
    _write(tmp_path / "bad.json", bad)
    entries = list(iter_entries(["bad.json", str(tmp_path / "bad.json"), "./bad.json"]))
    assert [entry.source for entry in entries] == ["bad.json"]
    with Store(tmp_path / "a.duckdb") as store:
        store.import_paths(["bad.json", str(tmp_path / "bad.json")])
        store.import_paths([str(tmp_path / "bad.json")])
        assert store.query("SELECT source FROM rejects")["source"].to_list() == ["bad.json"]


def test_analyze_names_a_match_it_cannot_take_and_stores_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "a.duckdb"
    path = _write(tmp_path / "three.jsonl", "\n".join([_good("one"), _good("two"), _good("three")]) + "\n")
    assert _run("import", str(path), "--db", str(db)).exit_code == 0
    real = analysis_run.analyse

    def breaks_on_two(result: Any, record: Any, **kwargs: Any) -> Any:
        if record.match.id == "two":
            raise KeyError("a bug in a detector")
        return real(result, record, **kwargs)

    monkeypatch.setattr(analysis_run, "analyse", breaks_on_two)
    output = _assert_message(
        _run("analyze", "--db", str(db), "--depth", "heuristic"),
        "match 'two' could not be analysed",
        "KeyError",
    )
    assert "Traceback" not in output
    assert _analysed(db) == ["one", "three"]


def test_analyze_leaves_a_stored_record_that_no_longer_reads_unanalysed(tmp_path: Path) -> None:
    """A record stored by an older, looser version of the program (here a seat named ``dummy``,
    refused since the notation reserved the word) or edited by SQL no longer decodes: ``analyze``
    names the match and what is wrong, analyses the others, counts it as not analysed and leaves
    it unmarked; once its record is put right, the next run analyses it."""
    db = tmp_path / "a.duckdb"
    path = _write(tmp_path / "three.jsonl", "\n".join([_good("one"), _good("two"), _good("three")]) + "\n")
    assert _run("import", str(path), "--db", str(db)).exit_code == 0
    broken = """UPDATE matches SET record = replace(record, '"seats":["Anna"', '"seats":["dummy"') """
    with Store(db) as store:
        store.query(broken + "WHERE match_id = 'two'")
    output = _assert_message(
        _run("analyze", "--db", str(db), "--depth", "heuristic"),
        "match 'two' was not analysed: its stored record no longer reads (archive match two: ",
        "'dummy' is no player's name",
        "analysed 2 matches (2 deals) at the heuristic depth",
        "; 1 match not analysed",
    )
    assert "Traceback" not in output
    assert _analysed(db) == ["one", "three"]
    with Store(db) as store:
        store.query(
            "UPDATE matches SET record = replace(record, '\"dummy\"', '\"Anna\"') WHERE match_id = 'two'"
        )
    again = _run("analyze", "--db", str(db), "--depth", "heuristic")
    assert again.exit_code == 0 and "analysed 1 match (1 deal)" in again.output, again.output


def test_replay_json_streams_the_same_document(tmp_path: Path) -> None:
    """One match at a time on the way out, the same JSON as a whole."""
    result = _run("replay", "--json", str(SAMPLES))
    assert result.exit_code == 0
    matches = json.loads(result.stdout)["matches"]
    assert len(matches) == len(list(SAMPLES.glob("*.json")))
    assert result.stdout == json.dumps({"matches": matches}, ensure_ascii=False, indent=2) + "\n"
    missing = _run("replay", "--json", str(SAMPLES), "--match", "no-such-match")
    assert missing.exit_code == 2 and not missing.stdout  # no such match: a usage error, as in costs


def test_import_counts_and_refuses_an_unreadable_archive_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The progress count and the reader both meet the unreadable JSON Lines file: one refused record."""
    first = _write(tmp_path / "a.jsonl", _good("one") + "\n")
    locked = _write(tmp_path / "b.jsonl", _good("two") + "\n")
    real = Path.open

    def open_(self: Path, *args: Any, **kwargs: Any) -> Any:
        if self.name == locked.name:
            raise PermissionError(13, "Permission denied", str(self))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", open_)
    db = tmp_path / "a.duckdb"
    output = _assert_message(_run("import", str(first), str(locked), "--db", str(db)))
    assert "b.jsonl: cannot read the file: Permission denied" in output
    assert "imported 1 match (" in output and "refused 1" in output


def test_a_row_arrow_cannot_take_refuses_its_match_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When a batch's tables cannot be built, the batch is loaded match by match: the match whose
    own rows fail is refused, the others of the batch keep their order and annotations."""
    import manillen_replay.store.arrow as arrow

    real = arrow._Columns.table

    def table(self: Any) -> Any:
        if "match_id" in self.names and "two" in self.column("match_id"):
            raise OverflowError("a value Arrow cannot hold")
        return real(self)

    monkeypatch.setattr(arrow._Columns, "table", table)
    noted = _seed_with(lambda r: r["match"].update(id="three"))
    noted["deals"][0]["annotations"] = [{"author": "coach", "text": "well played"}]
    lines = [_good("one"), _good("two"), json.dumps(noted)]
    path = _write(tmp_path / "three.jsonl", "\n".join(lines) + "\n")
    with Store() as store:
        summary = store.import_paths([path])
        assert (summary.imported, summary.refused, summary.deals) == (2, 1, 2 * len(SEED["deals"]))
        matches = store.query("SELECT match_id, import_order FROM matches ORDER BY import_order")
        assert matches["match_id"].to_list() == ["one", "three"]
        notes = store.query("SELECT match_id, text, annotation_id FROM annotations ORDER BY annotation_id")
        assert ("three", "well played") in [(m, t) for m, t, _ in notes.rows()]
        assert set(notes["match_id"]) == {"one", "three"} and notes["annotation_id"].is_unique().all()
        reject = store.query("SELECT line, message FROM rejects").row(0, named=True)
        assert reject["line"] == 2 and "OverflowError: a value Arrow cannot hold" in reject["message"]
        assert store.query("SELECT count(*) AS n FROM deals WHERE match_id = 'two'")["n"][0] == 0
