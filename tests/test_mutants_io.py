"""Reading records (``record/io.py``): the behaviours that its mutation run
(``make mutate MODULE=manillen_replay/record/io.py``) showed no other test defended: what a
document over the size limit is refused with, read from a file, from standard input or uploaded,
and the messages and JSON pointers a bad document gets."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from manillen_replay.cli import cli
from manillen_replay.errors import InvalidRecordError
from manillen_replay.record import iter_entries
from manillen_replay.record.io import MAX_RECORD_BYTES, RAW_PREFIX, Entry, entries_of
from manillen_replay.store import Store

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


MNL_MESSAGE = (
    "the text (.mnl) file is {size:,} bytes, over the limit of {limit}: it was not read "
    "(split it into smaller files, or convert it to JSON Lines, .jsonl)"
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
    real = Path.read_bytes

    def read_bytes(self: Path) -> bytes:
        if self.name == locked.name:
            raise PermissionError(13, "Permission denied", str(self))
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    [entry] = iter_entries([locked])
    assert (entry.data, entry.refusal) == (b"", "cannot read the file: Permission denied")
    with Store() as store:
        store.import_entries([entry])
        row = store.query("SELECT message, raw FROM rejects").row(0, named=True)
    assert row == {"message": "cannot read the file: Permission denied", "raw": ""}
