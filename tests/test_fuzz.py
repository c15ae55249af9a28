"""A seeded mutator over the shipped samples (JSON and the text notation): thousands of bad
documents through the five commands that read records. None may give a traceback, and every
refused one is reported with its file, its line and where in it: a JSON pointer, a line and
column, or for text that is no JSON at all the line and column of the first bad character.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from manillen_replay.cli import cli

ROOT = Path(__file__).resolve().parent.parent
SEED = 13
JSON_CASES = 900
"""JSON Lines mutants (one document a line)."""
FILE_CASES = 100
"""Whole ``.json`` files, for the mutations a line cannot hold (newlines, BOM, UTF-16)."""
TEXT_CASES = 400
"""Matches in the text notation (``.mnl``)."""
IMPORTED_FILES = 25
"""Of the ``.json`` and of the ``.mnl`` files, how many ``import`` also reads (a transaction each)."""
SOLVED_CASES = 150
"""Of the JSON Lines mutants, how many ``costs`` (the solver) also reads."""

NASTY_VALUES: list[Any] = [
    None, True, 0, -1, 7, 2**31, -(2**63), 10**30, 1.5, 1e308, "", "x" * 300, "\ud800", "10H", "ZZ",
    [], [[]], {}, {"a": 1}, ["AH"] * 9, json.loads("[" * 30 + "]" * 30),
]  # fmt: skip
"""Values a mutation puts in place of a part of a record."""

NASTY_BYTES = [
    b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00", b"\\ud800", b'"', b"{", b"]", b",", b"9" * 4400,
    b"[" * 600, b"\xef\xbb\xbf", b"\t", b"\\",
]  # fmt: skip
"""Bytes a mutation puts into the text of a record."""


def _samples(folder: str, suffix: str) -> list[str]:
    return [path.read_text(encoding="utf-8") for path in sorted((ROOT / "data" / folder).glob(f"*{suffix}"))]


def _nodes(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into a JSON value, the value itself first."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _nodes(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _nodes(item, (*path, index))
    return found


def _mutate_tree(rng: random.Random, record: dict[str, Any]) -> Any:
    path = rng.choice(_nodes(record)[1:])
    parent: Any = record
    for part in path[:-1]:
        parent = parent[part]
    last = path[-1]
    action = rng.randrange(5)
    if action == 0 and isinstance(parent, dict):
        del parent[last]
    elif action == 1 and isinstance(parent, dict):
        parent[rng.choice(["extra", "Match", "déal", "\ud800"])] = rng.choice(NASTY_VALUES)
    elif action == 2 and isinstance(parent, list):
        parent.insert(last, parent[last])
    else:
        parent[last] = rng.choice(NASTY_VALUES)
    return record


def _mutate_bytes(rng: random.Random, data: bytes) -> bytes:
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(len(data) + 1)
        action = rng.randrange(4)
        if action == 0:
            data = data[:at] + rng.choice(NASTY_BYTES) + data[at:]
        elif action == 1:
            data = data[:at] + data[at + rng.randint(1, 20) :]
        elif action == 2:
            data = data[:at]
        else:
            data = data[:at] + bytes([rng.randrange(256)]) + data[at + 1 :]
    return data or b"{"


def _json_mutant(rng: random.Random, records: list[dict[str, Any]]) -> bytes:
    record = json.loads(json.dumps(rng.choice(records)))
    if rng.random() < 0.6:
        text = json.dumps(_mutate_tree(rng, record), ensure_ascii=rng.random() < 0.5)
        return text.encode("utf-8", "surrogatepass")
    return _mutate_bytes(rng, json.dumps(record, ensure_ascii=False).encode())


def _text_mutant(rng: random.Random, texts: list[str]) -> bytes:
    lines = rng.choice(texts).splitlines()
    for _ in range(rng.randint(1, 3)):
        if not lines:
            lines = [""]
        at = rng.randrange(len(lines))
        words = lines[at].split(" ")
        action = rng.randrange(5)
        if action == 0:
            words[rng.randrange(len(words))] = rng.choice(
                ["ZZ", "11H", "AH", "dealer", "99", "♥", "\x00", ""]
            )
        elif action == 1:
            del words[rng.randrange(len(words))]
        elif action == 2:
            lines.insert(at, lines[at])
        elif action == 3:
            del lines[at]
            continue
        else:
            words.insert(
                rng.randrange(len(words) + 1), rng.choice(["trump", "klop", "note", "9" * 4400, "\ud800"])
            )
        lines[at] = " ".join(words)
    data = "\n".join(lines).encode("utf-8", "surrogatepass")
    return _mutate_bytes(rng, data) if rng.random() < 0.2 else data


@pytest.fixture(scope="module")
def mutants(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The bad documents, written once: a JSON Lines file, folders of .json and of .mnl files."""
    rng = random.Random(SEED)
    records = [json.loads(text) for text in _samples("samples", ".json")]
    texts = _samples("notation", ".mnl")
    folder = tmp_path_factory.mktemp("fuzz")
    lines = [_json_mutant(rng, records).replace(b"\n", b" ").replace(b"\r", b" ") for _ in range(JSON_CASES)]
    lines = [line if line.strip() else b"{" for line in lines]
    (folder / "mutants.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    (folder / "solved.jsonl").write_bytes(b"\n".join(lines[:SOLVED_CASES]) + b"\n")
    files = folder / "files"
    files.mkdir()
    for number in range(FILE_CASES):
        data = _json_mutant(rng, records)
        if number % 5 == 0:
            data = data.decode("utf-8", "replace").encode(rng.choice(["utf-16", "utf-16-le", "utf-8-sig"]))
        (files / f"m{number:04}.json").write_bytes(data)
    text = folder / "text"
    text.mkdir()
    for number in range(TEXT_CASES):
        (text / f"t{number:04}.mnl").write_bytes(_text_mutant(rng, texts))
    # Each file is a transaction of its own: the import reads a few of them besides the lines.
    few = folder / "few"
    few.mkdir()
    for chosen in [*sorted(files.iterdir())[:IMPORTED_FILES], *sorted(text.iterdir())[:IMPORTED_FILES]]:
        (few / chosen.name).write_bytes(chosen.read_bytes())
    return {"folder": folder, "lines": len(lines)}


def _run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def _no_traceback(result: Result) -> str:
    output = result.output
    assert "Traceback" not in output, output[-3000:]
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code in (0, 1), output[-3000:]
    return output


PLACED = re.compile(
    r"^(?P<source>[^:]+\.(?:jsonl|json|mnl))(?::(?P<line>\d+))?(?::(?P<column>\d+))?: (?P<rest>.+)$"
)
WHERE_IN_TEXT = re.compile(r"^/\S*: |\b(line \d+ )?column \d+\b|byte-order mark|UTF-16|over the limit")


def _check_placed(problems: list[dict[str, Any]], *, lines: bool) -> None:
    """Each problem names its file, its line (JSON Lines, text) and where in the document."""
    for problem in problems:
        assert problem["source"] and problem["message"], problem
        if lines:
            assert isinstance(problem["line"], int) and problem["line"] >= 1, problem
        if READER_SLIP in problem["message"]:
            continue  # placed by its match's line only: test_text_reader_has_no_slips lists them
        located = bool(problem["pointer"]) or problem.get("column") is not None
        assert located or _whole_document(problem["message"]), problem


READER_SLIP = "could not read this match ("
"""How ``Entry.decode`` reports an unexpected error of the text notation's reader."""


def _whole_document(message: str) -> bool:
    """Problems that are about the whole document, placed by it alone (or by line and column)."""
    return bool(
        WHERE_IN_TEXT.search(message)
        or re.match(
            r"(missing|unknown) field|a record is a JSON object|unsupported record|not UTF-8", message
        )
    )


def test_validate_places_every_problem(mutants: dict[str, Any]) -> None:
    folder: Path = mutants["folder"]
    for target, lines in (
        (folder / "mutants.jsonl", True),
        (folder / "files", False),
        (folder / "text", True),
    ):
        result = _run("validate", "--json", str(target))
        _no_traceback(result)
        report = json.loads(result.stdout)
        invalid = [record for record in report["records"] if not record["valid"]]
        assert report["invalid"] == len(invalid) > 0 and report["valid"] > 0
        for record in invalid:
            _check_placed(record["problems"], lines=lines)
        mutants["invalid"] = mutants.get("invalid", 0) + len(invalid)


@pytest.mark.parametrize("command", ["replay", "findings"])
def test_reading_commands_print_placed_messages(mutants: dict[str, Any], command: str) -> None:
    folder: Path = mutants["folder"]
    result = _run(command, str(folder / "mutants.jsonl"), str(folder / "files"), str(folder / "text"))
    _no_traceback(result)
    problems = [line for line in result.stderr.splitlines() if line.startswith(str(folder))]
    if "invalid" not in mutants:  # run alone, without test_validate_places_every_problem before it
        targets = (folder / "mutants.jsonl", folder / "files", folder / "text")
        reports = [json.loads(_run("validate", "--json", str(target)).stdout) for target in targets]
        mutants["invalid"] = sum(report["invalid"] for report in reports)
    assert len(problems) >= mutants["invalid"]
    assert all(PLACED.match(line) for line in problems), [p for p in problems if not PLACED.match(p)][:5]
    assert result.stdout.strip()  # the valid mutants were replayed (or analysed) all the same


def test_costs_reads_bad_documents(mutants: dict[str, Any]) -> None:
    folder: Path = mutants["folder"]
    _no_traceback(_run("costs", "--hindsight", str(folder / "solved.jsonl")))


def test_import_keeps_every_good_record_and_places_every_bad_one(
    mutants: dict[str, Any], tmp_path: Path
) -> None:
    folder: Path = mutants["folder"]
    db = tmp_path / "fuzz.duckdb"
    result = _run("import", str(folder / "mutants.jsonl"), str(folder / "few"), "--db", str(db))
    _no_traceback(result)
    summary = re.search(
        r"imported (\d+) match(?:es)?\b.* skipped (\d+) already present, refused (\d+)", result.stdout
    )
    assert summary is not None, result.output[-2000:]
    imported, skipped, refused = map(int, summary.groups())
    assert refused > 0 and imported > 0 and imported + skipped + refused >= mutants["lines"] + IMPORTED_FILES
    query = "SELECT source, line, pointer, message, length(raw) AS raw FROM rejects"
    rows = json.loads(_run("sql", query, "--db", str(db), "--format", "json").stdout)
    assert len(rows) == refused
    for row in rows:
        assert row["source"] and row["message"] and row["raw"] <= 64 * 1024 + 200
        if row["source"].endswith((".jsonl", ".mnl")):
            assert row["line"] >= 1, row


def test_text_reader_has_no_slips(mutants: dict[str, Any]) -> None:
    result = _run("validate", str(mutants["folder"] / "text"))
    _no_traceback(result)
    assert READER_SLIP not in result.output


# --------------------------------------------------------------------------- the round-trip oracle

ROUND_TRIP_CASES = 1500
"""Records, each mutated by :func:`_round_trip_mutant`, taken JSON -> text -> JSON."""

ROUND_TRIP_TEXTS = [
    "a\rb", "x\u2028y", "\u2029", "n\x85", "\r\n", "tab\there", "#", '"', " lead", "trail ", "", "x\x0cy",
    "anna", "dummy", "trick", "A&B", "a/b", "[t]", "é ♥", "note: x", "\x1e", "a\u2028#b",
]  # fmt: skip
"""Texts put in place of a text of a record: the characters that break lines or need quoting in
the notation."""


def _round_trip_mutant(rng: random.Random, record: dict[str, Any]) -> dict[str, Any]:
    """A text replaced, a list or an object emptied, or a free text field set, one to three times."""
    for _ in range(rng.randint(1, 3)):
        match, deals = record.get("match"), record.get("deals")
        if rng.random() < 0.3 and isinstance(match, dict) and isinstance(deals, list):
            target = match if rng.random() < 0.5 or not deals else rng.choice(deals)
            if target is match:
                target[rng.choice(["notes", "venue", "event", "id"])] = rng.choice(ROUND_TRIP_TEXTS)
            elif isinstance(target, dict):
                note: dict[str, Any] = {
                    "author": rng.choice(ROUND_TRIP_TEXTS),
                    "text": rng.choice(ROUND_TRIP_TEXTS),
                }
                if rng.random() < 0.5:
                    note["tags"] = [rng.choice(ROUND_TRIP_TEXTS)]
                notes = target.get("annotations")
                target["annotations"] = [*notes, note] if isinstance(notes, list) else [note]
            continue
        path = rng.choice(_nodes(record)[1:])
        parent: Any = record
        for part in path[:-1]:
            parent = parent[part]
        value = parent[path[-1]]
        if isinstance(value, str):
            parent[path[-1]] = rng.choice(ROUND_TRIP_TEXTS)
        elif isinstance(value, list):
            parent[path[-1]] = []
        elif isinstance(value, dict):
            parent[path[-1]] = {}
    return record


def _the_same_both_ways(record: Any, source: str) -> bool:
    """JSON -> text -> JSON: the same record (True), or the text refused with placed problems
    (False); never a changed record, never a traceback."""
    from manillen_replay.errors import InvalidRecordError
    from manillen_replay.record import dumps_text, loads_text

    try:
        text = dumps_text(record)
    except InvalidRecordError as error:
        # a record naming too few or too many players: no text would read back, so the writer
        # refuses it as validate does, at the seats
        assert [p.pointer for p in error.problems] == ["/match/seats"], error.problems
        return False
    try:
        back = loads_text(text, source=source)
    except InvalidRecordError as error:
        assert all(p.source == source and p.line for p in error.problems), error.problems
        return False
    assert back == [record], text
    return True


def test_json_to_text_to_json_gives_the_same_record_or_a_message() -> None:
    """Every record that reads as JSON converts to the notation and back unchanged, or the text
    is refused with a placed message: texts holding \\r, U+2028, U+2029, U+0085, empty lists
    (`"tricks": []`) and empty objects among the mutations."""
    from manillen_replay.errors import InvalidRecordError
    from manillen_replay.record import loads

    rng = random.Random(SEED + 31)
    records = [json.loads(text) for text in _samples("samples", ".json")]
    read = same = 0
    for _ in range(ROUND_TRIP_CASES):
        document = json.loads(json.dumps(rng.choice(records)))
        if rng.random() < 0.3:
            document = _mutate_tree(rng, document)
        document = _round_trip_mutant(rng, document)
        try:
            record = loads(json.dumps(document, ensure_ascii=rng.random() < 0.5))
        except InvalidRecordError:
            continue
        read += 1
        same += _the_same_both_ways(record, "round-trip.mnl")
    assert read > ROUND_TRIP_CASES // 10 and same > read // 2, (read, same)


@pytest.mark.parametrize(
    "change",
    [
        {"notes": "one\rtwo"},
        {"notes": "one\u2028two", "venue": "\u2029"},
        {"event": "x\x85y"},
        {"tricks": []},
        {"annotations": []},
    ],
)
def test_round_trip_of_line_breaks_and_empty_tricks(change: dict[str, Any]) -> None:
    """The cases the oracle must keep: the same record back, not a refusal."""
    from manillen_replay.record import loads

    document = json.loads((ROOT / "data" / "samples" / "seed-trick.json").read_text(encoding="utf-8"))
    for key, value in change.items():
        target = document["deals"][0] if isinstance(value, list) else document["match"]
        target[key] = value
    if "tricks" in change:
        document["deals"][0]["recorded_score"] = {"team": 0, "points": 6}
    assert _the_same_both_ways(loads(json.dumps(document)), "case.mnl")


# --------------------------------------------------------------------------- the SQL console's results

SQL_VALUES = [
    "1", "-1", "2.5", "'x'", "NULL", "TRUE", "DATE '2026-12-04'", "DATE 'infinity'", "DATE '-infinity'",
    "TIMESTAMP '290000-01-01'", "TIMESTAMP '2026-12-04 21:00'", "TIMESTAMPTZ 'infinity'", "TIME '12:00'",
    "TIMETZ '12:00:00+02'", "INTERVAL 1 MONTH", "INTERVAL 3 DAY", "union_value(k := 1)", "MAP {'a': 1}",
    "12345678901234567890123456789::VARINT", "340282366920938463463374607431768211455::UHUGEINT",
    "(-170141183460469231731687303715884105727)::HUGEINT", "18446744073709551615::UBIGINT",
    "'0101'::BIT", "'abc'::BLOB", "1.5::DECIMAL(38, 2)", "[1, 2]", "[1, 2]::INTEGER[2]",
    "{'a': 1, 'b': 'x'}", "uuid()", "'a'::ENUM('a', 'b')", "[INTERVAL 1 DAY]", "{'i': INTERVAL 1 DAY}",
]  # fmt: skip
"""DuckDB values of every kind a query can return, the ones a frame cannot hold as they are among them."""


def test_every_sql_result_type_prints_in_every_format(tmp_path: Path) -> None:
    """Seeded: random rows of random typed values, alone, in lists, in unions of two rows and with
    NULLs. `manillen sql` prints each in every format, never a traceback (issue 31: intervals,
    unions, far dates, maps and big numbers raised tracebacks or printed wrong)."""
    from manillen_replay.store import Store

    db = tmp_path / "empty.duckdb"
    Store(db).close()
    rng = random.Random(SEED)
    runner = CliRunner()
    for case in range(40):
        columns = rng.sample(SQL_VALUES, rng.randint(1, 4))
        first = ", ".join(f"{value} AS c{n}" for n, value in enumerate(columns))
        second = ", ".join(
            f"NULL AS c{n}" if rng.random() < 0.5 else f"{v} AS c{n}" for n, v in enumerate(columns)
        )
        query = f"SELECT {first} UNION ALL SELECT {second}" if case % 2 else f"SELECT {first}"
        for output in ("table", "csv", "json"):
            result = runner.invoke(cli, ["sql", query, "--db", str(db), "--format", output])
            assert result.exception is None or isinstance(result.exception, SystemExit), (
                query,
                result.exception,
            )
            assert "Traceback" not in result.output, query
            # a union of two types DuckDB cannot reconcile is refused with DuckDB's reason, not a crash
            assert result.exit_code == 0 or result.output.startswith("Error: the query failed:"), (
                query,
                result.output,
            )
