"""Reading records (``record/io.py``): the behaviours that its mutation run
(``make mutate MODULE=manillen_replay/record/io.py``) showed no other test defended: what a
document over the size limit is refused with, read from a file, from standard input or uploaded,
and the messages and JSON pointers a bad document gets."""

from __future__ import annotations

import copy
import hashlib
import json
import os
import subprocess
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner, Result

from manillen_replay.cli import cli
from manillen_replay.engine import replay_entry
from manillen_replay.errors import InvalidRecordError
from manillen_replay.record import dump, dump_lines, dumps, iter_entries, load, loads
from manillen_replay.record.io import (
    MAX_RECORD_BYTES,
    RAW_PREFIX,
    Entry,
    entries_of,
    read_cards_unread,
)
from manillen_replay.record.model import Annotation, Deal, MatchInfo, Record
from manillen_replay.store import Store

from .test_bad_input import refuse_reading
from .test_slips import LEGAL_22, record, swapped

ROOT = Path(__file__).resolve().parent.parent
SEED = json.loads((ROOT / "data" / "samples" / "seed-trick.json").read_text(encoding="utf-8"))
LIMIT = f"{MAX_RECORD_BYTES:,}"


def _run(*args: str, stdin: bytes | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=stdin)


def _document(size: int) -> bytes:
    """A JSON document of exactly ``size`` bytes (a record's start, its notes filled up)."""
    head = b'{"format": "manillen/1", "notes": "'
    return head + b"x" * (size - len(head) - 2) + b'"}'


def _good_line(match_id: str) -> bytes:
    return json.dumps({**SEED, "match": {**SEED["match"], "id": match_id}}).encode()


def _too_large(size: int) -> str:
    return f"the record is {size:,} bytes, over the limit of {LIMIT}: it was not read"


def _refused_whole(entry: Entry, document: bytes) -> None:
    """The entry refuses ``document`` by its size: its start kept, the whole one's size and hash."""
    assert entry.refusal == _too_large(len(document))
    assert entry.data == document[:RAW_PREFIX]
    assert (entry.size, entry.digest) == (len(document), hashlib.sha256(document).hexdigest())


# --------------------------------------------------------------------------- the size limit


def test_a_json_lines_record_over_the_limit_on_standard_input_is_refused_at_its_line() -> None:
    big = _document(MAX_RECORD_BYTES + 37)
    result = _run("convert", "-", "-", "--from", "jsonl", stdin=b"\n" + big + b"\r\n")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"<stdin>:2: {_too_large(MAX_RECORD_BYTES + 37)}",
        "1 of 1 matches invalid: nothing written",
    ]


@pytest.mark.parametrize("kind", ["json", "jsonl"])
def test_a_record_over_the_limit_keeps_its_start_size_and_hash_for_the_rejects(kind: str) -> None:
    """What the archive's ``rejects.raw`` keeps of it: its first 64 KiB, and the size and SHA-256 of
    the whole record (an upload, standard input)."""
    big = _document(MAX_RECORD_BYTES + 1)
    [entry] = entries_of(big, "club.jsonl", kind)
    assert (entry.source, entry.line, entry.notation) == ("club.jsonl", 1 if kind == "jsonl" else None, False)
    _refused_whole(entry, big)
    with pytest.raises(InvalidRecordError) as caught:
        entry.decode()
    place = "club.jsonl:1" if kind == "jsonl" else "club.jsonl"
    assert [p.describe() for p in caught.value.problems] == [f"{place}: {entry.refusal}"]


def test_a_record_of_exactly_the_limit_is_read() -> None:
    exact = _document(MAX_RECORD_BYTES)
    for kind in ("json", "jsonl"):
        [entry] = entries_of(exact, "club.jsonl", kind)
        assert entry.refusal is None and entry.data == exact
        with pytest.raises(InvalidRecordError, match="missing field 'match'"):
            entry.decode()


@pytest.mark.parametrize("line_end", [b"\n", b"\r\n", b""])
def test_a_record_over_the_limit_is_the_same_refusal_from_a_file_as_from_standard_input(
    tmp_path: Path, line_end: bytes
) -> None:
    """Its size and hash are the record's, without the line's end, however it was read; the
    records after it are read."""
    big = _document(MAX_RECORD_BYTES + 5)
    data = _good_line("before") + b"\n" + big + line_end + (_good_line("after") + b"\n" if line_end else b"")
    path = tmp_path / "club.jsonl"
    path.write_bytes(data)
    from_file = list(iter_entries([path]))
    from_stdin = entries_of(data, str(path), "jsonl")
    assert [(e.line, e.refusal is None) for e in from_file] == [(1, True), (2, False)] + (
        [(3, True)] if line_end else []
    )
    assert from_file == from_stdin
    _refused_whole(from_file[1], big)
    read = [e.decode().match.id for e in from_file if e.refusal is None]
    assert read == (["before", "after"] if line_end else ["before"])


def test_a_line_far_over_the_limit_is_never_held_whole(tmp_path: Path) -> None:
    """A JSON Lines record five times the limit is read past a piece at a time: reading it takes
    about the limit's memory, not the record's (a huge line cannot exhaust it)."""
    big = _document(5 * MAX_RECORD_BYTES)
    path = tmp_path / "club.jsonl"
    path.write_bytes(big + b"\n" + _good_line("next") + b"\n")
    tracemalloc.start()
    try:
        first, second = iter_entries([path])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    _refused_whole(first, big)
    assert second.decode().match.id == "next"
    assert peak < 3 * MAX_RECORD_BYTES


@pytest.mark.parametrize("line_end", [b"\n", b"\r\n"])
def test_a_line_one_byte_over_the_limit_ends_where_its_line_ends(tmp_path: Path, line_end: bytes) -> None:
    """The piece read to find the line too long may hold the whole line and its end (or the
    ``\\r`` only): the next line is still a record of its own."""
    big = _document(MAX_RECORD_BYTES + 1)
    path = tmp_path / "club.jsonl"
    path.write_bytes(big + line_end + _good_line("next") + line_end)
    first, second = iter_entries([path])
    _refused_whole(first, big)
    assert (second.line, second.decode().match.id) == (2, "next")


def test_a_carriage_return_inside_a_record_over_the_limit_is_its_own(tmp_path: Path) -> None:
    """A ``\\r`` inside the record, at the end of the piece read to find the line too long: the
    record's, kept in its size and hash (only one right before the line's end is not)."""
    big = bytearray(_document(MAX_RECORD_BYTES + 100))
    big[MAX_RECORD_BYTES + 1] = ord("\r")
    path = tmp_path / "club.jsonl"
    path.write_bytes(bytes(big) + b"\n")
    [from_file] = iter_entries([path])
    _refused_whole(from_file, bytes(big))


MNL_MESSAGE = (
    "the text (.mnl) file is {size:,} bytes, over the limit of {limit}: it was not read "
    "(split it into smaller files between two matches; each can then be converted to JSON Lines, "
    ".jsonl, which has no such limit)"
)


def _big_text(size: int) -> bytes:
    """A text file of ``size`` bytes that is no match (its start is not UTF-8)."""
    return b"\xff\xfe not text " + b"x" * (size - 12)


def test_a_text_file_over_the_limit_is_one_refused_record_with_the_whole_files_size_and_hash(
    tmp_path: Path,
) -> None:
    data = _big_text(MAX_RECORD_BYTES + 3 * 2**20 + 7)
    path = tmp_path / "evening.mnl"
    path.write_bytes(data)
    [from_file] = iter_entries([path])
    [uploaded] = entries_of(data, str(path), "mnl")
    assert from_file == uploaded
    message = MNL_MESSAGE.format(size=len(data), limit=LIMIT)
    assert (from_file.source, from_file.line, from_file.refusal) == (str(path), None, message)
    assert from_file.data == data[:RAW_PREFIX]
    assert (from_file.size, from_file.digest) == (len(data), hashlib.sha256(data).hexdigest())
    result = _run("validate", str(path))
    assert result.exit_code == 1 and f"{path}: {message}" in result.output


def test_a_text_file_of_exactly_the_limit_is_read_and_one_byte_more_is_refused() -> None:
    exact = _big_text(MAX_RECORD_BYTES)
    [entry] = entries_of(exact, "evening.mnl", "mnl")
    assert entry.refusal is None and entry.data == exact
    with pytest.raises(InvalidRecordError, match="UTF-16"):  # read: what is wrong is its text
        entry.decode()
    [over] = entries_of(exact + b"x", "evening.mnl", "mnl")
    assert over.refusal == MNL_MESSAGE.format(size=MAX_RECORD_BYTES + 1, limit=LIMIT)


def test_an_unreadable_file_keeps_nothing_of_it_in_the_rejects(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    locked = tmp_path / "locked.json"
    locked.write_bytes(_good_line("locked"))
    refuse_reading(monkeypatch, locked.name)
    [entry] = iter_entries([locked])
    assert (entry.data, entry.refusal) == (b"", "cannot read the file: Permission denied")
    with Store() as store:
        store.import_entries([entry])
        row = store.query("SELECT message, raw FROM rejects").row(0, named=True)
    assert row == {"message": "cannot read the file: Permission denied", "raw": ""}


# --------------------------------------------------------------------------- a bad document's messages

DEAL: list[str | int] = ["deals", 0]


def _set(path: list[str | int], value: object) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        node: Any = doc
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return change


def _drop(path: list[str | int]) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        node: Any = doc
        for key in path[:-1]:
            node = node[key]
        del node[path[-1]]

    return change


def _problems(text: str | bytes) -> list[str]:
    with pytest.raises(InvalidRecordError) as caught:
        loads(text, source="club.jsonl", line=7)
    return [p.describe() for p in caught.value.problems]


def _changed(change: Callable[[dict[str, Any]], None]) -> str:
    doc = copy.deepcopy(SEED)
    change(doc)
    return json.dumps(doc)


SEAT = "; a seat number, clockwise from 0"
TEAM = "; a team: 0 (seats 0 and 2) or 1 (seats 1 and 3)"
CALLS = "'blind_muil', 'en_face', 'klop', 'muil', 'pass', 'redeal', 'tegenklop', 'trump'"
VARIANTS = "'four', 'six', 'six_short', 'three', 'three_dummy', 'two_open', 'two_open_fours'"
DEAL_FIELDS = (
    "annotations, dealer, declarations, discards, hands, penalties, recorded_score, table, table_moves, "
    "tricks, turned"
)

# each kind of schema problem, in the words `manillen validate` prints it, at its JSON pointer: the
# type found and the value, what the field holds (a scalar's description), the values allowed
SCHEMA_PROBLEMS: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "a missing field": (_drop([*DEAL, "dealer"]), "/deals/0: missing field 'dealer'"),
    "a missing field among others": (
        _set([*DEAL, "recorded_score"], {"team": 1}),
        "/deals/0/recorded_score: missing field 'points'",
    ),
    "the seats missing": (_drop(["match", "seats"]), "/match: missing field 'seats'"),
    "an unknown field": (
        _set([*DEAL, "colour"], 1),
        f"/deals/0: unknown field 'colour' (known: {DEAL_FIELDS})",
    ),
    "null for a number": (
        _set([*DEAL, "dealer"], None),
        f"/deals/0/dealer: expected a whole number, found null{SEAT}",
    ),
    "true for a number": (
        _set([*DEAL, "dealer"], True),
        f"/deals/0/dealer: expected a whole number, found a boolean true{SEAT}",
    ),
    "a fraction": (
        _set([*DEAL, "dealer"], 1.5),
        f"/deals/0/dealer: expected a whole number, found a number 1.5{SEAT}",
    ),
    "a name for a seat number": (
        _set([*DEAL, "dealer"], "Dirk"),
        f'/deals/0/dealer: expected a whole number, found a text "Dirk"{SEAT}',
    ),
    "a list for a number": (
        _set([*DEAL, "dealer"], [3]),
        f"/deals/0/dealer: expected a whole number, found a list [3]{SEAT}",
    ),
    "an object for a number": (
        _set([*DEAL, "dealer"], {"seat": 3}),
        f'/deals/0/dealer: expected a whole number, found an object {{"seat": 3}}{SEAT}',
    ),
    "a seat past the last": (
        _set([*DEAL, "dealer"], 9),
        "/deals/0/dealer: seat 9 does not exist: seats are 0 to 3",
    ),
    "a seat below 0": (
        _set([*DEAL, "dealer"], -1),
        "/deals/0/dealer: seat -1 does not exist: seats are 0 to 3",
    ),
    "a name for the seats": (
        _set(["match", "seats"], "Anna"),
        '/match/seats: expected a list, found a text "Anna"',
    ),
    "one seat": (
        _set(["match", "seats"], ["Anna"]),
        '/match/seats: ["Anna"] is too short: 1 item, at least 2 needed',
    ),
    "seven seats": (
        _set(["match", "seats"], list("ABCDEFG")),
        '/match/seats: ["A", "B", "C", "D", "E", "F", "G"] is too long: 7 items, at most 6',
    ),
    "a number for a name": (
        _set(["match", "seats", 1], 7),
        "/match/seats/1: expected a text, found a whole number 7",
    ),
    "an empty name": (_set(["match", "seats", 1], ""), "/match/seats/1: the text is empty: give one"),
    "a list for the match": (_set(["match"], []), "/match: expected an object, found a list []"),
    "a text for a deal": (_set(["deals", 0], "x"), '/deals/0: expected an object, found a text "x"'),
    "a number for a card": (
        _set([*DEAL, "tricks", 0, 0], 10),
        "/deals/0/tricks/0/0: expected a text, found a whole number 10",
    ),
    "a number for the turned card": (
        _set([*DEAL, "turned"], 5),
        "/deals/0/turned: expected a text, found a whole number 5; the dealer's last card, turned face up: "
        "its suit is trump (turned_card)",
    ),
    "a text for the hands": (
        _set([*DEAL, "hands"], "AC"),
        '/deals/0/hands: expected a list, found a text "AC"',
    ),
    "a date written otherwise": (
        _set(["match", "date"], "28/11/2026"),
        '/match/date: "28/11/2026" is not a valid date (use YYYY-MM-DD)',
    ),
    "an unknown variant": (
        _set(["match", "variant"], "five"),
        f'/match/variant: "five" is not allowed here; use one of {VARIANTS}',
    ),
    "a long unknown variant": (
        _set(["match", "variant"], "v" * 60),
        f'/match/variant: "{"v" * 36}... is not allowed here; use one of {VARIANTS}',
    ),
    "a value of other characters": (
        _set(["match", "variant"], "vier\u2665"),
        f'/match/variant: "vier\u2665" is not allowed here; use one of {VARIANTS}',
    ),
    "a value of exactly 40 characters": (
        _set(["match", "variant"], "v" * 38),
        f'/match/variant: "{"v" * 38}" is not allowed here; use one of {VARIANTS}',
    ),
    "a value of 41 characters": (
        _set(["match", "variant"], "v" * 39),
        f'/match/variant: "{"v" * 36}... is not allowed here; use one of {VARIANTS}',
    ),
    "an unknown call": (
        _set([*DEAL, "declarations", 0, "call"], "trumps"),
        f'/deals/0/declarations/0/call: "trumps" is not allowed here; use one of {CALLS}',
    ),
    "yes for true": (
        _set(["match", "rules"], {"partner_exempt": "yes"}),
        '/match/rules/partner_exempt: expected true or false, found a text "yes"',
    ),
    "a text for a number or null": (
        _set(["match", "rules"], {"max_multiplier": "4"}),
        '/match/rules/max_multiplier: expected a whole number or null, found a text "4"',
    ),
    "a number or null out of range": (
        _set(["match", "rules"], {"max_multiplier": 0}),
        "/match/rules/max_multiplier: 0 is out of range (minimum 1)",
    ),
    "a text for a score or null": (
        _set([*DEAL, "recorded_score"], "12"),
        '/deals/0/recorded_score: expected an object or null, found a text "12"',
    ),
    "a team's names for its number": (
        _set([*DEAL, "recorded_score"], {"team": "Anna & Carla", "points": 12}),
        f'/deals/0/recorded_score/team: expected a whole number, found a text "Anna & Carla"{TEAM}',
    ),
    "a third team": (
        _set([*DEAL, "recorded_score"], {"team": 2, "points": 12}),
        "/deals/0/recorded_score/team: 2 is out of range (maximum 1)",
    ),
    "an empty trick": (
        _set([*DEAL, "tricks", 0], []),
        "/deals/0/tricks/0: [] is too short: 0 items, at least 1 needed",
    ),
    "a table pile of one card": (
        _set([*DEAL, "table"], [[["AC"]]]),
        '/deals/0/table/0/0: ["AC"] is too short: 1 item, at least 2 needed',
    ),
    "another format": (
        _set(["format"], "manillen/2"),
        "/format: unsupported record: format 'manillen/2'; this tool reads 'manillen/1'",
    ),
    "a number for the format": (
        _set(["format"], 2),
        "/format: unsupported record: format 2; this tool reads 'manillen/1'",
    ),
    "a long format": (
        _set(["format"], "x" * 50),
        f"/format: unsupported record: format \"{'x' * 36}...; this tool reads 'manillen/1'",
    ),
    "a format of exactly 40 characters": (
        _set(["format"], "m" * 40),
        f"/format: unsupported record: format '{'m' * 40}'; this tool reads 'manillen/1'",
    ),
    "a format of 41 characters": (
        _set(["format"], "m" * 41),
        f"/format: unsupported record: format \"{'m' * 36}...; this tool reads 'manillen/1'",
    ),
    "no format": (
        _drop(["format"]),
        "/format: unsupported record: no 'format' field; this tool reads 'manillen/1'",
    ),
}


@pytest.mark.parametrize("kind", list(SCHEMA_PROBLEMS))
def test_each_kind_of_schema_problem_is_told_in_words_at_its_pointer(kind: str) -> None:
    change, said = SCHEMA_PROBLEMS[kind]
    assert _problems(_changed(change)) == [f"club.jsonl:7: {said}"]


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("[1, 2]", "a record is a JSON object, not a list"),
        ('"x"', "a record is a JSON object, not a text"),
        ("5", "a record is a JSON object, not a whole number"),
        ("null", "a record is a JSON object, not null"),
        ("true", "a record is a JSON object, not a boolean"),
        ('{"format": "manillen/1",\n "match": }', "not valid JSON at line 2 column 11: expecting value"),
    ],
)
def test_a_document_that_is_no_record_says_what_it_is(text: str, said: str) -> None:
    assert _problems(text) == [f"club.jsonl:7: {said}"]


def test_every_problem_is_listed_in_the_order_of_its_pointer() -> None:
    """Deal 2 before deal 10 (the numbers compared as numbers), a deal's dealer before its tricks."""

    def change(doc: dict[str, Any]) -> None:
        doc["deals"] = [copy.deepcopy(doc["deals"][0]) for _ in range(11)]
        doc["deals"][10]["dealer"] = "x"
        doc["deals"][2]["tricks"][0][0] = "ZZ"
        doc["deals"][2]["dealer"] = -1

    assert _problems(_changed(change)) == [
        "club.jsonl:7: /deals/2/dealer: seat -1 does not exist: seats are 0 to 3",
        "club.jsonl:7: /deals/2/tricks/0/0: unknown card 'ZZ'",
        f'club.jsonl:7: /deals/10/dealer: expected a whole number, found a text "x"{SEAT}',
    ]


TEXT = json.dumps(SEED, indent=1)
"""The seed record, one field or list item a line: a problem's line and column are easy to find."""


def _with_dealer(number: str) -> str:
    return TEXT.replace('"dealer": 3', f'"dealer": {number}')


@pytest.mark.parametrize(
    ("text", "said"),
    [
        # a whole number of more digits than Python turns into a number is named by its count
        (_with_dealer("9" * 4000), f"/deals/0/dealer: {'9' * 37}... is out of range (maximum 5)"),
        (_with_dealer("9" * 4001), "/deals/0/dealer: a number of 4001 digits is out of range (maximum 5)"),
        (
            _with_dealer("-" + "9" * 4001),
            "/deals/0/dealer: a number of 4001 digits is out of range (minimum 0)",
        ),
        (
            TEXT.replace('"seats"', f'"rules": {{"target": {"9" * 4001}}}, "seats"'),
            "/match/rules/target: a number of 4001 digits is out of range (maximum 10000)",
        ),
        # Python's json reads NaN and Infinity; JSON has neither: said at the word, not as a number
        (
            _with_dealer("NaN"),
            "not valid JSON at line 17 column 14: NaN is no number in JSON (it has no NaN or Infinity)",
        ),
        (
            _with_dealer("-Infinity"),
            "not valid JSON at line 17 column 14: -Infinity is no number in JSON (it has no NaN or Infinity)",
        ),
        # JSON Schema takes 3.0 as a whole number, the decoder does not: said in the same words
        (_with_dealer("3.0"), f"/deals/0/dealer: expected a whole number, found a number 3.0{SEAT}"),
        (TEXT + " x", "not valid JSON at line 130 column 3: extra data"),
        # a second record after the first (a .json written with several matches) says what it is
        (
            TEXT + TEXT,
            "not valid JSON at line 130 column 2: extra data; the file holds more than one JSON document: "
            "one match a line is JSON Lines, named .jsonl",
        ),
        # nothing at all (an empty .json, a JSON Lines archive's empty line): said as such
        ("", "empty: nothing to read here, where a record (a JSON object) should be"),
        ("  \t", "empty: nothing to read here, where a record (a JSON object) should be"),
        # a document of one line (a JSON Lines archive's line, whose line is told before): its column
        (
            '{"format": "manillen/1", "match',
            "not valid JSON at column 26: a text starts here and does not "
            "end; the document ends before it is complete: was it cut off?",
        ),
        (
            '{"format": "manillen/1",',
            "not valid JSON at column 25: expecting property name enclosed in "
            "double quotes; the document ends before it is complete: was it cut off?",
        ),
        # a NUL byte past the first four is no sign of UTF-16
        ('{"ab\x00": 1}', "not valid JSON at column 5: invalid control character"),
    ],
    ids=[
        "4000 digits",
        "4001 digits",
        "-4001 digits",
        "a target of 4001",
        "NaN",
        "-Infinity",
        "3.0",
        "extra data",
        "two documents",
        "empty",
        "blank",
        "cut in a text",
        "cut after a comma",
        "NUL",
    ],
)
def test_numbers_and_broken_json_are_told_where_they_are(text: str, said: str) -> None:
    assert _problems(text) == [f"club.jsonl:7: {said}"]


def test_a_number_past_a_floats_range_is_named_as_written_not_as_infinity() -> None:
    past = "1e400 (past the largest number, about 1.8e308)"
    assert _problems(_with_dealer("1e400")) == [
        f"club.jsonl:7: /deals/0/dealer: expected a whole number, found a number {past}{SEAT}",
        f"club.jsonl:7: /deals/0/dealer: {past} is out of range (maximum 5)",
    ]


def test_nesting_past_twenty_is_told_at_its_line_and_column_and_twenty_is_read() -> None:
    head = '{"format": "manillen/1",\n  "match": '
    deep = head + "[" * 20 + "]" * 20 + "}"  # with the record's own object: 21 deep
    assert _problems(deep) == [
        "club.jsonl:7: lists and objects nest more than 20 deep at line 2 column 31; a record needs 6 at most"
    ]
    assert _problems("\n" + deep) == [
        "club.jsonl:7: lists and objects nest more than 20 deep at line 3 column 31; a record needs 6 at most"
    ]
    # on the second line, after a first one that is empty: its column counts from that line's start
    flat = '{"format": "manillen/1",  "match": '
    assert _problems("\n" + flat + "[" * 20 + "]" * 20 + "}") == [
        f"club.jsonl:7: lists and objects nest more than 20 deep at line 2 column {len(flat) + 20}; "
        "a record needs 6 at most"
    ]
    twenty = head.replace(",\n", ', "deals": [],\n') + "[" * 19 + "]" * 19 + "}"  # 21 brackets, 20 deep
    assert _problems(twenty) == [
        f"club.jsonl:7: /match: expected an object, found a list {'[' * 19}{']' * 19}",
    ]


def test_nesting_is_counted_past_closed_lists_and_a_text_ending_in_a_backslash() -> None:
    """Lists closed before the deep one, and a text ending in an escaped backslash (its closing
    quote is no escape): the 21st level is still found, on its own line and column."""
    head = '{"format": "manillen/1", "notes": "C:\\\\", "a": [[], [[]], {"b": []}],\n "match": '
    assert _problems(head + "[" * 20 + "]" * 20 + "}") == [
        "club.jsonl:7: lists and objects nest more than 20 deep at line 2 column 30; a record needs 6 at most"
    ]


def test_brackets_inside_a_text_are_no_nesting() -> None:
    """Thirty brackets in a text, after an escaped quote: the record's own problem is told."""
    text = TEXT.replace('"notes": "', '"notes": "\\" ' + "[{" * 15 + '", "x": "')
    assert _problems(text) == [
        "club.jsonl:7: /match: unknown field 'x' (known: blocks, date, event, id, notes, rules, seats, "
        "variant, venue)"
    ]


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (
            TEXT.encode().replace(b'"Carla"', b'"Car\xffla"'),
            "/match/seats/2: this is not UTF-8 text (at line 11 column 8); save the file as UTF-8",
        ),
        (
            TEXT.encode().replace(b'"Carla"', b'"Car\x80la"'),
            "/match/seats/2: this is not UTF-8 text (at line 11 column 8); save the file as UTF-8",
        ),
        (
            TEXT.encode().replace(b'"Carla"', b'"Car\xffla"').replace(b'"Dirk"', b'"Di\xffrk"'),
            "/match/seats/2: this is not UTF-8 text (at line 11 column 8); save the file as UTF-8",
        ),
        (
            TEXT.encode().replace(b'"venue"', b'"ven\xffue"'),
            "/match: this is not UTF-8 text (at line 6 column 7); save the file as UTF-8",
        ),
        (
            TEXT.replace('"Carla"', '"\\ud800"'),
            "/match/seats/2: a text holds a lone surrogate escape (such as \\ud800), which is no character",
        ),
        (
            TEXT.replace('"Carla"', '"\\udfff"'),
            "/match/seats/2: a text holds a lone surrogate escape (such as \\ud800), which is no character",
        ),
        (
            TEXT.replace('"venue"', '"\\udc80"'),
            "/match: a text holds a lone surrogate escape (such as \\ud800), which is no character",
        ),
        (
            TEXT.replace('"Carla"', '"\ud800"'),
            "/match/seats/2: this is not UTF-8 text (at line 11 column 5); save the file as UTF-8",
        ),
        (TEXT.encode("utf-16"), "the file is UTF-16 text; save it as UTF-8"),
        # a first character whose two bytes hold no 0: only the byte-order mark tells
        (b"\xff\xfe" + ("\u03a9" + TEXT).encode("utf-16-le"), "the file is UTF-16 text; save it as UTF-8"),
        (("\ufeff\u03a9" + TEXT).encode("utf-16-be"), "the file is UTF-16 text; save it as UTF-8"),
        (TEXT.encode("utf-16-le"), "the file is UTF-16 text; save it as UTF-8"),
        (TEXT.encode("utf-16-be"), "the file is UTF-16 text; save it as UTF-8"),
    ],
    ids=[
        "byte in a text",
        "the lowest such byte",
        "the first of two",
        "byte in a key",
        "escape",
        "the highest escape",
        "escape in a key",
        "surrogate",
        "utf-16",
        "le",
        "be",
        "omega after the mark",
        "omega after the big-endian mark",
    ],
)
def test_text_that_is_not_characters_is_told_at_its_field_line_and_column(
    data: str | bytes, said: str
) -> None:
    assert _problems(data) == [f"club.jsonl:7: {said}"]


def test_a_byte_order_mark_is_read_past() -> None:
    text = _with_dealer("-3")
    said = ["club.jsonl:7: /deals/0/dealer: seat -3 does not exist: seats are 0 to 3"]
    assert _problems("\ufeff" + text) == said
    assert _problems(b"\xef\xbb\xbf" + text.encode()) == said


# --------------------------------------------------------------------------- a document's place in its file

NOTATION = ROOT / "data" / "notation"
MUIL = (NOTATION / "muil.mnl").read_bytes()
SEED_TEXT = (NOTATION / "seed-trick.mnl").read_bytes()
SECOND = MUIL.count(b"\n") + 2
"""The line the second match of ``muil.mnl`` + a blank line + ``seed-trick.mnl`` starts at."""


def _told(entry: Entry) -> list[str]:
    """What reading and replaying the document says is wrong with it, as the commands print it."""
    with pytest.raises(InvalidRecordError) as caught:
        replay_entry(entry)
    return [p.describe() for p in caught.value.problems]


def _evening(second: bytes) -> list[Entry]:
    """The entries of a text file of two matches, ``muil.mnl`` and then ``second``."""
    entries = entries_of(MUIL + b"\n" + second, "evening.mnl", "mnl")
    assert [e.line for e in entries] == [1, SECOND]
    assert replay_entry(entries[0])[0].match.id == "muil-three-manilles"
    return entries


def test_a_replay_problem_of_a_second_match_is_told_at_its_line_and_column_in_the_file() -> None:
    illegal = SEED_TEXT.replace(b"  AC QC 9D KD", b"  AC 9C QC KD").replace(
        b"  10C 9C KS 7D", b"  10C QC KS 7D"
    )
    told = _told(_evening(illegal)[1])
    assert len(told) == 1
    assert told[0].startswith(f"evening.mnl:{SECOND + 11}:9: 'QC' is not in Carla's hand in trick 1 (")


@pytest.mark.parametrize(("kind", "place"), [("jsonl", "club.jsonl:2"), ("json", "club.jsonl")])
def test_a_replay_problem_of_a_json_record_is_told_at_its_line_and_pointer(kind: str, place: str) -> None:
    doc = copy.deepcopy(SEED)
    trick = doc["deals"][0]["tricks"][0]
    trick[1], trick[2] = trick[2], trick[1]
    data = json.dumps(doc).encode()
    [entry] = entries_of(b"\n" + data if kind == "jsonl" else data, "club.jsonl", kind)
    assert _told(entry) == [f"{place}: /deals/0/tricks/0/1: '9D' is not in Bert's hand in trick 1"]


def test_a_reading_problem_of_a_second_match_is_told_at_its_line_in_the_file() -> None:
    second = SEED_TEXT.replace(b"  AC QC 9D KD", b"  AC QC 9X KD")
    [told] = _told(_evening(second)[1])
    assert told.startswith(f"evening.mnl:{SECOND + 11}:9: unknown card '9X': ")


def test_a_number_too_long_in_the_notation_is_told_at_its_line_and_column() -> None:
    """4,000 digits and more are named by their count, in the match's own lines of the file."""
    second = SEED_TEXT.replace(b"deal 1  dealer", b"deal 1" + b"0" * 4000 + b"  dealer")
    assert _told(_evening(second)[1]) == [
        f"evening.mnl:{SECOND + 6}:6: a number of 4,001 digits is no number a match holds"
    ]
    [shorter] = entries_of(
        SEED_TEXT.replace(b"deal 1  dealer", b"deal 1" + b"0" * 3998 + b"  dealer"), "e.mnl", "mnl"
    )
    assert _told(shorter)[0].startswith(
        "e.mnl:7:6: expected deal number 1 (deals are counted from 1), found '100"
    )


def test_text_that_is_not_utf8_is_told_at_its_line_and_column_in_the_file() -> None:
    """One byte that is not UTF-8 makes the whole file one document, read from its first line."""
    entries = entries_of(
        MUIL + b"\n" + SEED_TEXT.replace(b"Cafe De Zwaan", b"Caf\xe9 De Zwaan"), "e.mnl", "mnl"
    )
    assert [e.line for e in entries] == [1]
    assert _told(entries[0]) == [f"e.mnl:{SECOND + 2}:10: this is not UTF-8 text; save the file as UTF-8"]
    first_byte = Entry("e.mnl", None, b"\xff" + SEED_TEXT, notation=True)
    assert _told(first_byte) == ["e.mnl:1:1: this is not UTF-8 text; save the file as UTF-8"]


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be"])
def test_a_utf16_text_file_is_told_to_be_saved_as_utf8(codec: str) -> None:
    data = SEED_TEXT.decode().encode(codec)
    if codec != "utf-16":  # a byte-order mark written by hand, as editors do
        data = ("\ufeff".encode(codec)) + data
    [entry] = entries_of(data, "e.mnl", "mnl")
    assert _told(entry) == ["e.mnl:1:1: the file is UTF-16 text; save it as UTF-8"]


def test_a_utf8_byte_order_mark_before_a_text_is_read_past() -> None:
    [entry] = entries_of(b"\xef\xbb\xbf" + SEED_TEXT, "e.mnl", "mnl")
    assert replay_entry(entry)[0].match.id == "seed-trick"
    assert (
        replay_entry(Entry("e.mnl", 4, b"\xef\xbb\xbf" + SEED_TEXT, notation=True))[0].match.id
        == "seed-trick"
    )


def test_a_slip_of_the_notation_reader_is_a_message_placed_in_the_file(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import manillen_replay.record.io as record_io

    def slip(*args: Any, **kwargs: Any) -> Any:
        raise ValueError("no such thing; at offset 12")

    monkeypatch.setattr(record_io, "parse_match", slip)
    [entry] = entries_of(SEED_TEXT, "e.mnl", "mnl")
    assert _told(entry) == [
        "e.mnl:1: could not read this match (ValueError: no such thing); please report it"
    ]
    placed = Entry("e.mnl", SECOND, SEED_TEXT, notation=True)
    assert _told(placed) == [
        f"e.mnl:{SECOND}: could not read this match (ValueError: no such thing); please report it"
    ]


def test_validate_json_places_a_slip_of_the_notation_reader_at_its_line_without_a_pointer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import manillen_replay.record.io as record_io

    def slip(*args: Any, **kwargs: Any) -> Any:
        raise ValueError("no such thing; at offset 12")

    monkeypatch.setattr(record_io, "parse_match", slip)
    path = tmp_path / "evening.mnl"
    path.write_bytes(SEED_TEXT)
    result = _run("validate", str(path), "--json")
    assert result.exit_code == 1
    [problem] = json.loads(result.output)["records"][0]["problems"]
    assert problem == {
        "source": str(path),
        "line": 1,
        "pointer": "",
        "message": "could not read this match (ValueError: no such thing); please report it",
        "column": None,
        "hint": None,
    }


def test_validate_places_a_possible_slip_of_a_json_lines_record_at_its_line_and_pointer(
    tmp_path: Path,
) -> None:
    """The slip's problem is found after the replay, unplaced: it is told at the record's line."""
    path = tmp_path / "club.jsonl"
    slipped = dumps(record(swapped(LEGAL_22, 2, 3)), pretty=False).encode()
    path.write_bytes(_good_line("first") + b"\n" + slipped + b"\n")
    run = _run("validate", str(path))
    assert run.exit_code == 0, run.output
    assert f"  {path}:2: /deals/0/tricks/2/3: Dirk's '8H' in trick 3 breaks a rule" in run.stdout


# --------------------------------------------------------------------------- what is read

SAMPLES = ROOT / "data" / "samples"


def _lower_one_group(doc: dict[str, Any], group: str) -> None:
    """Write one list of cards of the first deal in lower case (``10h``), the rest as it was."""
    deal = doc["deals"][0]
    if group == "hands":
        deal["hands"][2] = [card.lower() for card in deal["hands"][2]]
    elif group == "tricks":
        deal["tricks"][3] = [card.lower() for card in deal["tricks"][3]]
    elif group == "table":
        deal["table"][1][2] = [card.lower() for card in deal["table"][1][2]]
    elif group == "discards":
        deal["discards"] = [card.lower() for card in deal["discards"]]
    else:
        deal["annotations"] = [{"author": "Anna", "text": "or", "trick": 1, "play": 1, "line": ["ah"]}]


@pytest.mark.parametrize(
    ("sample", "group"),
    [
        ("seed-trick", "hands"),
        ("seed-trick", "tricks"),
        ("variant-two-open", "table"),
        ("variant-three", "discards"),
        ("seed-trick", "annotations"),
    ],
)
def test_one_group_of_cards_in_lower_case_is_read_as_the_canonical_cards(sample: str, group: str) -> None:
    """Every other card of the deal already canonical: that one group is still rewritten."""
    text = (SAMPLES / f"{sample}.json").read_text(encoding="utf-8")
    doc = json.loads(text)
    _lower_one_group(doc, group)
    record = loads(json.dumps(doc))
    expected = json.loads(text)["deals"][0]
    deal = record.deals[0]
    if group == "annotations":
        assert isinstance(deal.annotations, list) and deal.annotations[0].line == ["AH"]
    else:
        assert getattr(deal, group) == expected[group]


def test_a_records_own_problems_are_placed_in_its_file_and_line() -> None:
    """Unknown cards, seat names and a card dealt twice: each named with the file and line."""
    unknown = copy.deepcopy(SEED)
    unknown["deals"][0]["tricks"][1][2] = "zz"
    assert _problems(json.dumps(unknown)) == ["club.jsonl:7: /deals/0/tricks/1/2: unknown card 'zz'"]
    names = copy.deepcopy(SEED)
    names["match"]["seats"] = ["Anna", "Anna", "  ", "Dirk"]
    assert _problems(json.dumps(names)) == [
        "club.jsonl:7: /match/seats/1: seats 0 and 1 have the same name ('Anna'): each player sits once",
        "club.jsonl:7: /match/seats/2: seat 2 has no name",
    ]
    twice = copy.deepcopy(SEED)
    hands = twice["deals"][0]["hands"]
    hands[1][0] = hands[0][0]
    assert _problems(json.dumps(twice)) == [
        f"club.jsonl:7: /deals/0/hands/1/0: '{hands[0][0]}' was dealt twice (also at /deals/0/hands/0/0)"
    ]


@pytest.mark.parametrize(
    ("data", "line", "column", "message"),
    [
        # the byte-order mark is no column of the first line
        (b"\xef\xbb\xbfmatch x\xff\n", 1, 8, "this is not UTF-8 text; save the file as UTF-8"),
        (b"seats Anna Bert Carla Dirk\nmatch \xff\n", 2, 7, "this is not UTF-8 text; save the file as UTF-8"),
        ("seats Anna".encode("utf-16"), 1, 1, "the file is UTF-16 text; save it as UTF-8"),
        (
            SEED_TEXT.replace(b"deal 1  dealer", b"deal 1" + b"0" * 4000 + b"  dealer"),
            7,
            6,
            "a number of 4,001 digits is no number a match holds",
        ),
    ],
    ids=["after the mark", "second line", "utf-16", "a long number"],
)
def test_validate_json_places_a_text_that_is_no_utf8_by_line_and_column_without_a_pointer(
    tmp_path: Path, data: bytes, line: int, column: int, message: str
) -> None:
    path = tmp_path / "evening.mnl"
    path.write_bytes(data)
    result = _run("validate", str(path), "--json")
    assert result.exit_code == 1
    [problem] = json.loads(result.output)["records"][0]["problems"]
    assert problem == {
        "source": str(path),
        "line": line,
        "pointer": "",
        "message": message,
        "column": column,
        "hint": None,
    }


def test_cards_in_lower_case_in_a_later_deal_are_read_as_the_canonical_cards() -> None:
    """The first deal already canonical: the later ones are still looked at."""
    text = (SAMPLES / "match-101.json").read_text(encoding="utf-8")
    doc = json.loads(text)
    doc["deals"][1]["tricks"] = [[card.lower() for card in trick] for trick in doc["deals"][1]["tricks"]]
    record = loads(json.dumps(doc))
    assert record.deals[1].tricks == json.loads(text)["deals"][1]["tricks"]


def test_nesting_is_counted_from_the_depth_a_closed_list_leaves() -> None:
    """A list closed inside the match's object leaves the depth at 2, not 1: 19 lists more go past 20."""
    text = '{"format": "manillen/1", "match": {"a": [], "b": ' + "[" * 19 + "]" * 19 + "}}"
    assert _problems(text) == [
        "club.jsonl:7: lists and objects nest more than 20 deep at column 68; a record needs 6 at most"
    ]


# --------------------------------------------------------------------------- files and folders read


def test_a_path_that_does_not_exist_is_named_in_the_message(tmp_path: Path) -> None:
    missing = tmp_path / "avond" / "club.jsonl"
    with pytest.raises(FileNotFoundError) as caught:
        list(iter_entries([missing]))
    assert str(caught.value) == f"no such file or folder: {str(missing)!r}"


def test_files_whose_real_path_cannot_be_found_are_each_read_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without its real path a file is known by its absolute one: two files are still two, one
    file given twice is read once."""
    for name in ("a.json", "b.json"):
        (tmp_path / name).write_bytes(_good_line(name.removesuffix(".json")))

    def resolve(self: Path, strict: bool = False) -> Path:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "resolve", resolve)
    monkeypatch.chdir(tmp_path)
    entries = list(iter_entries(["a.json", "b.json", tmp_path / "a.json"]))
    assert [(e.source, e.decode().match.id) for e in entries] == [("a.json", "a"), ("b.json", "b")]


def test_a_json_file_of_exactly_the_limit_is_read_and_one_byte_more_is_refused(tmp_path: Path) -> None:
    exact = _document(MAX_RECORD_BYTES)
    (tmp_path / "exact.json").write_bytes(exact)
    (tmp_path / "over.json").write_bytes(_document(MAX_RECORD_BYTES + 1))
    read, over = iter_entries([tmp_path])
    assert (read.source.endswith("exact.json"), read.refusal, read.data) == (True, None, exact)
    _refused_whole(over, _document(MAX_RECORD_BYTES + 1))


def test_a_json_lines_record_of_exactly_the_limit_ending_in_crlf_is_read_without_its_line_end(
    tmp_path: Path,
) -> None:
    """The ``\\r\\n`` is the line's end, not the record's: the record is read whole (not refused as
    one byte over), and what is kept of it (for ``rejects.raw``) holds no ``\\r``."""
    exact = _document(MAX_RECORD_BYTES)
    path = tmp_path / "club.jsonl"
    path.write_bytes(_good_line("first") + b"\r\n" + exact + b"\r\n" + _good_line("last") + b"\r\n")
    first, middle, last = iter_entries([path])
    assert (middle.line, middle.refusal, middle.data) == (2, None, exact)
    assert (first.data, last.data) == (_good_line("first"), _good_line("last"))


# --------------------------------------------------------------------------- the canonical layout


def _layout_record(seat: str, text: str) -> Record:
    return Record(
        format="manillen/1",
        match=MatchInfo(notes="n" * 100, seats=["Zoë", "Bert", "Carla", seat]),
        deals=[Deal(dealer=0, annotations=[Annotation(author="Zoë", text=text)])],
    )


@pytest.mark.parametrize("room", [100, 101])
def test_a_list_or_object_is_written_on_one_line_while_it_and_its_indent_fit_in_100(room: int) -> None:
    """The seats (two levels in: 4 characters of indent) and a comment (four levels: 8) on one
    line up to 100 characters, one item a line past it; other characters than ASCII as they are,
    each counted once."""
    seat = "D" * (room - 4 - len('["Zoë", "Bert", "Carla", ""]'))
    text = "é" * (room - 8 - len('{"author": "Zoë", "text": ""}'))
    if room <= 100:
        seats = f'["Zoë", "Bert", "Carla", "{seat}"]'
        comment = f'{{"author": "Zoë", "text": "{text}"}}'
    else:
        seats = f'[\n      "Zoë",\n      "Bert",\n      "Carla",\n      "{seat}"\n    ]'
        comment = f'{{\n          "author": "Zoë",\n          "text": "{text}"\n        }}'
    assert dumps(_layout_record(seat, text)) == (
        "{\n"
        '  "format": "manillen/1",\n'
        '  "match": {\n'
        f'    "notes": "{"n" * 100}",\n'
        f'    "seats": {seats}\n'
        "  },\n"
        '  "deals": [\n'
        "    {\n"
        '      "dealer": 0,\n'
        '      "annotations": [\n'
        f"        {comment}\n"
        "      ]\n"
        "    }\n"
        "  ]\n"
        "}\n"
    )


def test_dump_writes_the_canonical_layout_in_utf8_whatever_the_systems_locale(tmp_path: Path) -> None:
    """Also where the system's own encoding is not UTF-8 (here ASCII: the C locale with Python's
    UTF-8 mode off), which would refuse the ♥ or write it otherwise."""
    record = _layout_record("Dirk", "Zoë speelt de 10♥ bij")
    path = tmp_path / "match.json"
    dump(record, path)
    assert path.read_bytes() == dumps(record).encode("utf-8")
    assert load(path) == record
    ascii_locale = {
        "LC_ALL": "C",
        "PYTHONUTF8": "0",
        "PYTHONCOERCECLOCALE": "0",
        # the package this test reads (a mutation run's copy too)
        "PYTHONPATH": os.pathsep.join(sys.path),
    }
    code = (
        "import sys; from manillen_replay.record import dump, loads; "
        "dump(loads(sys.stdin.buffer.read()), sys.argv[1])"
    )
    elsewhere = tmp_path / "elsewhere.json"
    subprocess.run(
        [sys.executable, "-c", code, str(elsewhere)],
        input=dumps(record).encode("utf-8"),
        env={**os.environ, **ascii_locale},
        check=True,
        capture_output=True,
    )
    assert elsewhere.read_bytes() == path.read_bytes()


def test_dump_lines_writes_one_canonical_line_a_record_in_order() -> None:
    first, second = _layout_record("Dirk", "één"), _layout_record("Dina", "twee")
    written = dump_lines([first, second])
    assert written == dumps(first, pretty=False) + "\n" + dumps(second, pretty=False) + "\n"
    assert [loads(line) for line in written.splitlines()] == [first, second]
    assert "\n" not in dumps(first, pretty=False)


# --------------------------------------------------------------------------- the bulk replay's reading


def _seed_with(change: Callable[[dict[str, Any]], None]) -> bytes:
    doc = copy.deepcopy(SEED)
    change(doc)
    return json.dumps(doc).encode()


def _over_its_rules(doc: dict[str, Any]) -> None:
    doc["match"]["rules"] = {"max_multiplier": 1}
    doc["deals"][0]["recorded_score"] = {"team": 0, "points": 40}


def _no_rules(doc: dict[str, Any]) -> None:
    doc["match"]["rules"] = {"cafe": {}}
    doc["deals"][0]["penalties"] = []


def _as_read(record: Record) -> Any:
    """A record as plain JSON values: one read with its cards unread (kept as their JSON text)
    and one read in full compare equal when they hold the same cards."""
    return msgspec.json.decode(msgspec.json.encode(record))


@pytest.mark.parametrize(
    "data",
    [
        _good_line("plain"),
        b"\xef\xbb\xbf" + _good_line("after a byte-order mark"),
        _seed_with(_no_rules),
        _seed_with(lambda doc: doc["match"]["seats"].__setitem__(1, "Anna")),
        _seed_with(_over_its_rules),
        _seed_with(lambda doc: doc.pop("deals")),
        b'{"format": "manillen/1", ',
    ],
    ids=[
        "plain",
        "byte-order mark",
        "empty rules",
        "a seat twice",
        "a score over its rules",
        "no deals",
        "broken",
    ],
)
def test_a_record_read_with_its_cards_unread_is_the_record_loads_reads(data: bytes) -> None:
    """The quick read of ``manillen validate`` and ``import`` on many records: the same record as
    :func:`loads` (empty rules dropped alike), its cards still as written, or ``None`` where
    ``loads`` refuses the document."""
    try:
        expected = loads(data)
    except InvalidRecordError:
        assert read_cards_unread(Entry("club.jsonl", 1, data)) is None
    else:
        quick = read_cards_unread(Entry("club.jsonl", 1, data))
        assert quick is not None and _as_read(quick) == _as_read(expected)


def test_the_cards_a_quick_read_leaves_are_checked_after() -> None:
    """Cards in lower case are left as written, for the check made after on many records at
    once; a text file's match and a refused document are not read quickly at all."""
    lower = _seed_with(lambda doc: doc["deals"][0]["tricks"][0].__setitem__(0, "ac"))
    quick = read_cards_unread(Entry("club.jsonl", 1, lower))
    assert quick is not None and isinstance(quick.deals[0].tricks, msgspec.Raw)
    assert msgspec.json.decode(quick.deals[0].tricks)[0][0] == "ac"
    read = loads(lower).deals[0].tricks
    assert isinstance(read, list) and read[0][0] == "AC"  # the full read writes it canonical
    assert read_cards_unread(Entry("evening.mnl", 1, _good_line("text"), notation=True)) is None
    assert read_cards_unread(Entry("club.jsonl", 1, _good_line("refused"), refusal="too large")) is None


@pytest.mark.parametrize(
    ("sample", "field", "value", "said"),
    [
        ("variant-six.json", "dealer", 7, "seat 7 does not exist: seats are 0 to 5"),
        ("variant-three-dummy.json", "dealer", 6, "seat 6 does not exist: seats are 0 to 2"),
        ("seed-trick.json", "dealer", 6, "seat 6 does not exist: seats are 0 to 3"),
    ],
)
def test_a_seat_out_of_range_is_said_with_the_variants_seats(
    sample: str, field: str, value: int, said: str
) -> None:
    """A seat past the six-player game's was "out of range (maximum 5)" in a four-player match,
    whose seat 4 was "seats are 0 to 3": one wording, the match's own seats."""
    root = Path(__file__).resolve().parent.parent
    document = json.loads((root / "data" / "samples" / sample).read_text(encoding="utf-8"))
    document["deals"][0][field] = value
    with pytest.raises(InvalidRecordError) as caught:
        loads(json.dumps(document))
    assert [p.message for p in caught.value.problems if p.pointer == f"/deals/0/{field}"] == [said]


def test_two_fields_missing_are_each_named() -> None:
    """A record of its format alone misses its match and its deals: each problem names its own
    field (the first was said twice), and the message counts one more problem, not "problems"."""
    with pytest.raises(InvalidRecordError) as caught:
        Entry("club.jsonl", 4, b'{"format":"manillen/1"}').decode()
    assert [p.describe() for p in caught.value.problems] == [
        "club.jsonl:4: missing field 'match'",
        "club.jsonl:4: missing field 'deals'",
    ]
    assert str(caught.value) == "club.jsonl:4: missing field 'match' (and 1 more problem)"
