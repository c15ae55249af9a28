"""Reading and writing records: ``loads``/``load``/``dumps``/``dump`` and archives.

The fast path decodes with msgspec straight into the typed model. Only a document that fails
it takes the slow path, where the published JSON Schema lists every problem with its pointer.
"""

from __future__ import annotations

import errno
import functools
import hashlib
import itertools
import json
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from ..cards import CARD_BY_TEXT, CARD_TEXT
from ..errors import InvalidRecordError, ManillenError, NotationError, RecordError, printable
from ..rules import VARIANTS
from .model import FORMAT, Deal, Record, json_schema, match_id_problem, seat_name_problems
from .text import is_text_name, looks_like_notation, parse_located, parse_match, split_matches
from .validation import normalize, record_problems, scores_over

RECORD_SUFFIXES = (".json", ".jsonl", ".mnl")
"""The file endings a folder of records is read for, in any case (``MATCH.JSON`` too)."""

MAX_RECORD_BYTES = 8 * 2**20
"""The largest document (a ``.json`` file, a JSON Lines line) and the largest text file
(``.mnl``, read whole) read, in bytes: a long club evening with notes is under 200 kB. A larger
one is refused, unread past its start, with the size in its message (docs/format.md)."""

MAX_DEPTH = 20
"""How deeply a document may nest lists and objects; a record needs 6 at most."""

RAW_PREFIX = 64 * 2**10
"""How much of a refused document the archive keeps (``rejects.raw``), in bytes; the rest is
named by its size and SHA-256 (docs/format.md)."""

_BOM = b"\xef\xbb\xbf"
_LONG_NUMBER = re.compile(r"\d{4000,}")

_decoder = msgspec.json.Decoder(Record)
_CANONICAL = frozenset(CARD_TEXT)
_encoder = msgspec.json.Encoder()


@dataclass(frozen=True)
class Entry:
    """One document of an archive, not yet decoded."""

    source: str
    """The file it came from."""
    line: int | None
    """Its line in a JSON Lines file, ``None`` for a ``.json`` file."""
    data: bytes
    """The document's bytes."""
    notation: bool = False
    """Whether it is a match in the text notation (from a ``.mnl`` file), not JSON."""
    refusal: str | None = None
    """Why the document is refused before decoding (a file that cannot be read, a document
    over :data:`MAX_RECORD_BYTES`); ``data`` then holds at most the start of it."""
    size: int | None = None
    """The whole document's size in bytes when ``data`` holds only its start."""
    digest: str | None = None
    """The SHA-256 of the whole document when ``data`` holds only its start."""

    @property
    def place(self) -> str:
        """``file:line`` or ``file``."""
        return self.source if self.line is None else f"{self.source}:{self.line}"

    def decode(self, *, variant: str | None = None) -> Record:
        """The record this document holds, in JSON or in the text notation.

        :param variant: the variant a match in the text notation without a ``variant`` line is
            read as (:func:`~.text.parse_match`): a club's, whose rules fill it in.
        :raises InvalidRecordError: listing its problems, each placed in the file.
        """
        if self.refusal is not None:
            raise InvalidRecordError([RecordError(self.refusal, "", self.source, self.line)])
        if not self.notation:
            return loads(self.data, source=self.source, line=self.line)
        text = _text_of(self)
        long_number = _LONG_NUMBER.search(text)
        if long_number is not None:  # more digits than Python turns into a number
            before = text[: long_number.start()]
            line = (self.line or 1) + before.count("\n")
            column = long_number.start() - (before.rfind("\n") + 1) + 1
            problem = f"a number of {len(long_number.group()):,} digits is no number a match holds"
            raise InvalidRecordError([NotationError(problem, "", self.source, line, column)])
        try:
            return parse_match(text, first_line=self.line or 1, source=self.source, variant=variant)
        except ManillenError:
            raise
        except Exception as error:  # a reader's slip must still be a message placed in the file
            message = str(error).split(";")[0]
            problem = f"could not read this match ({type(error).__name__}: {message}); please report it"
            raise InvalidRecordError([NotationError(problem, "", self.source, self.line or 1)]) from None

    def locate(self, problems: Iterable[RecordError]) -> list[RecordError]:
        """Problems found in the decoded record (by the replay), placed in this file: the JSON
        pointer, or the text's line and column with a hint."""
        problems = list(problems)
        if not self.notation or self.refusal is not None:  # a refused text was never parsed
            return [p if p.source is not None else p.located(self.source, self.line) for p in problems]
        if all(isinstance(p, NotationError) for p in problems):
            return problems
        parsed = parse_located(_text_of(self), first_line=self.line or 1, source=self.source)
        return [parsed.locate(p) for p in problems]


def _text_of(entry: Entry) -> str:
    """The text of a notation document.

    :raises InvalidRecordError: when it is not UTF-8 text.
    """
    data = entry.data.removeprefix(_BOM)
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        reason = "the file is UTF-16 text; save it as UTF-8"
    else:
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as error:
            before = data[: error.start]
            line = (entry.line or 1) + before.count(b"\n")
            column = error.start - (before.rfind(b"\n") + 1) + 1
            raise InvalidRecordError(
                [
                    NotationError(
                        "this is not UTF-8 text; save the file as UTF-8", "", entry.source, line, column
                    )
                ]
            ) from None
    raise InvalidRecordError([NotationError(reason, "", entry.source, 1, 1)])


def loads(data: bytes | str, *, source: str | None = None, line: int | None = None) -> Record:
    """The record in one JSON document, cards in canonical form.

    A UTF-8 byte-order mark at the start is allowed (Windows editors write one); a UTF-16
    document is refused with advice.

    :raises InvalidRecordError: listing every problem, each with its JSON pointer.
    """
    data = data.removeprefix(_BOM) if isinstance(data, bytes) else data.removeprefix("\ufeff")
    if isinstance(data, str) and _has_surrogate(data):  # a lone surrogate: no UTF-8, told as such
        data = data.encode("utf-8", "surrogatepass")
    try:
        record = _decoder.decode(data)
    except (msgspec.ValidationError, msgspec.DecodeError) as error:
        problems = [p.located(source, line) for p in explain_decode_error(data, error)]
        raise InvalidRecordError(problems) from None
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if may_repeat_keys(raw, record):
        repeated = repeated_key_problems(raw.decode("utf-8", "surrogateescape"))
        if repeated:
            raise InvalidRecordError([p.located(source, line) for p in repeated])
    unknown = canonicalize_cards(record)
    if unknown:
        raise InvalidRecordError([p.located(source, line) for p in unknown])
    named = [
        RecordError(m, f"/match/seats/{seat}", source, line)
        for seat, m in seat_name_problems(record.match.seats)
    ]
    bad_id = match_id_problem(record.match.id)
    if bad_id is not None:
        named.insert(0, RecordError(bad_id, "/match/id", source, line))
    if named:
        raise InvalidRecordError(named)
    normalize(record)
    problems = record_problems(record)
    if problems:
        raise InvalidRecordError([p.located(source, line) for p in problems])
    return record


class _DealCardsUnread(Deal, kw_only=True):
    """A deal whose hands and tricks are kept as their JSON text, undecoded."""

    hands: msgspec.Raw | msgspec.UnsetType = msgspec.UNSET  # type: ignore[assignment]
    tricks: msgspec.Raw | msgspec.UnsetType = msgspec.UNSET  # type: ignore[assignment]


class _RecordCardsUnread(Record, kw_only=True):
    deals: list[_DealCardsUnread]  # type: ignore[assignment]


_cards_unread_decoder = msgspec.json.Decoder(_RecordCardsUnread)


def read_cards_unread(entry: Entry) -> Record | None:
    """The record of a JSON document with each deal's ``hands`` and ``tricks`` left as their
    JSON text (:class:`msgspec.Raw`), everything else read and checked as :func:`loads` reads it
    (the checks of each deal's cards are the caller's: known, canonical, none dealt twice);
    ``None`` for a document anything else is wrong with, or that is not a JSON document's bytes:
    the caller then reads it with :meth:`Entry.decode`, which says what is wrong.

    The cards are most of a document: the bulk path reads the cards of a whole batch at once
    from their text (:mod:`manillen_replay.bulk`), and never makes a string of each. Such a
    record is for the replay of its plays worked out beforehand only: anything that would read
    its cards one by one must read the document again with :meth:`Entry.decode`.
    """
    if entry.notation or entry.refusal is not None or not isinstance(entry.data, bytes):
        return None
    data = entry.data.removeprefix(_BOM)
    try:
        record: Record = _cards_unread_decoder.decode(data)
    except (msgspec.ValidationError, msgspec.DecodeError):
        return None
    if (
        may_repeat_keys(data, record)
        or seat_name_problems(record.match.seats)
        or match_id_problem(record.match.id)
    ):
        return None
    normalize(record)
    if scores_over(record):
        return None
    return record


def may_repeat_keys(data: bytes, record: Record) -> bool:
    """Whether a JSON document may give a key twice in one object, which the decoder reads as
    the last one given (RFC 8259 leaves it open): ``False`` proves it does not, quickly.

    The record written back is the document itself for everything this program writes. Else
    every key the document gives is a field of the record (unknown ones are refused), and each
    key is one colon outside texts: a colon more in the document than in the record written
    back (with the same texts and the same cards, ``msgspec.Raw`` is written as read) is a key
    given twice, or a field written with its default value, or a colon written ``\\u003a``;
    :func:`repeated_key_problems` tells which.
    """
    written = _encoder.encode(record)
    if data.startswith(written) and not data[len(written) :].strip():
        return False
    return b"\\u003" in data or data.count(b":") != written.count(b":")


_JSON_TOKEN = re.compile(r'\s*(?:("(?:[^"\\]|\\.)*")|([{}\[\]:,])|([^\s{}\[\]:,"]+))', re.DOTALL)


def repeated_key_problems(text: str) -> list[RecordError]:
    """Each key given again in one object of a JSON document (one that decodes), at the JSON
    pointer of the key, with the lines and columns of both, so that a file typed by hand says
    which of the two to take out.

    >>> for problem in repeated_key_problems('{"deals": [{"dealer": 0,\\n "dealer": 1}]}'):
    ...     print(problem.pointer, problem.message[:61])
    /deals/0/dealer 'dealer' is given twice in one object (line 1 column 13, then
    """
    problems: list[RecordError] = []
    # each open object: its pointer, the keys given so far with where, whether a key comes next,
    # and the last key; each open list: its pointer and the index of the value being read
    stack: list[tuple[str, dict[str, int], list[Any]]] = []
    position = 0
    while position < len(text):
        found = _JSON_TOKEN.match(text, position)
        if found is None or found.end() == position:
            break
        position = found.end()
        string, mark = found[1], found[2]
        frame = stack[-1] if stack else None
        if string is not None and frame is not None and frame[2][0] == "key":
            key = json.loads(string)
            first = frame[1].get(key)
            if first is not None:
                where = f"{_where(text, first)}, then {_where(text, found.start(1))}"
                problems.append(
                    RecordError(
                        f"{printable(key)!r} is given twice in one object ({where}): a reader keeps "
                        "the last one only; give it once",
                        f"{frame[0]}/{_pointer_part(key)}",
                    )
                )
            else:
                frame[1][key] = found.start(1)
            frame[2][:] = ["value", key]
        elif mark in ("{", "["):
            if frame is None:
                pointer = ""
            elif frame[2][0] == "value":
                pointer = f"{frame[0]}/{_pointer_part(frame[2][1])}"
            else:
                pointer = f"{frame[0]}/{frame[2][1]}"
            stack.append((pointer, {}, ["key", ""] if mark == "{" else ["item", 0]))
        elif mark in ("}", "]"):
            stack.pop()
        elif mark == "," and frame is not None:
            state = frame[2]
            state[:] = ["key", ""] if state[0] == "value" else ["item", state[1] + 1]
    return problems


def _where(text: str, offset: int) -> str:
    """A place in a document: its line and column, or its column in a document of one line (a
    JSON Lines archive's line: the file's line is told before)."""
    return _line_column(text, offset) if "\n" in text else f"column {offset + 1}"


def _pointer_part(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def cards_are_unread(deal: Deal) -> bool:
    """Whether the deal's cards were left as their JSON text (:func:`read_cards_unread`)."""
    return isinstance(deal, _DealCardsUnread)


def load(path: str | Path) -> Record:
    """The record in a ``.json`` file.

    :raises InvalidRecordError: for a document that is not a valid record.
    :raises OSError: when the file cannot be read.
    """
    return loads(Path(path).read_bytes(), source=str(path))


def dumps(record: Record, *, pretty: bool = True) -> str:
    """The record in canonical form: ``pretty`` for a ``.json`` file, else one line for JSON Lines.

    >>> from manillen_replay.record.model import MatchInfo
    >>> dumps(Record(format="manillen/1", match=MatchInfo(seats=["A", "B", "C", "D"]), deals=[]))
    '{\\n  "format": "manillen/1",\\n  "match": {"seats": ["A", "B", "C", "D"]},\\n  "deals": []\\n}\\n'
    """
    if not pretty:
        return _encoder.encode(record).decode()
    return _pretty(msgspec.to_builtins(record), 0) + "\n"


def dump(record: Record, path: str | Path) -> None:
    """Write one record to a ``.json`` file in canonical form."""
    Path(path).write_text(dumps(record), encoding="utf-8")


def dump_lines(records: Iterable[Record]) -> str:
    """Records as a JSON Lines archive, one canonical line each."""
    return "".join(dumps(r, pretty=False) + "\n" for r in records)


STDIN = "-"
"""The path that stands for standard input, as for most command-line tools (``./-`` is a file)."""

STDIN_SOURCE = "<stdin>"
"""How standard input is named in messages and in the archive."""


def iter_entries(paths: Iterable[str | Path]) -> Iterator[Entry]:
    """Every document in ``.json`` files, ``.jsonl`` archives, ``.mnl`` text files and folders of
    them, and in standard input for the path ``-`` (its kind guessed by :func:`guess_kind`).

    Blank lines in JSON Lines are skipped; each match of a text file is one document, whose
    line is the match's first line; a folder is read in name order, its files' endings in any
    case. A file read twice (given by two paths) is read once. A file or folder that cannot be
    read, a folder without any record file, and a document over :data:`MAX_RECORD_BYTES`, come
    as a refused :class:`Entry` saying why, so that the others are still read.

    :raises FileNotFoundError: for a path that does not exist.
    """
    import sys

    seen: set[Path] = set()
    stdin_read = False
    for given in paths:
        if isinstance(given, str) and given == STDIN:
            if not stdin_read:  # a second "-" would find it at its end: read once, as a file is
                stdin_read = True
                data = sys.stdin.buffer.read()
                yield from entries_of(data, STDIN_SOURCE, guess_kind(data))
            continue
        path = Path(given)
        if not path.exists():
            raise FileNotFoundError(f"no such file or folder: {printable(str(path))!r}")
        yield from _entries_below(path, seen)


def _entries_below(path: Path, seen: set[Path]) -> Iterator[Entry]:
    if not path.is_dir():
        yield from _entries_in_file(path, seen)
        return
    problems: list[OSError] = []
    files: list[Path] = []
    for folder, _folders, names in os.walk(path, onerror=problems.append):
        files.extend(Path(folder, name) for name in names if _is_record_name(name))
    for problem in problems:
        where = source_name(Path(problem.filename)) if problem.filename else source_name(path)
        yield _refused(where, f"cannot read the folder: {problem.strerror}")
    if not files and not problems:
        # a folder given by mistake (the wrong one, or records not yet copied) must not pass as done
        endings = ", ".join(RECORD_SUFFIXES)
        yield _refused(
            source_name(path), f"no record files in this folder or below it (files ending {endings})"
        )
    for file in sorted(files):
        if file.is_file():
            yield from _entries_in_file(file, seen)
        elif file.is_symlink():  # a record's name that leads nowhere (or round in a loop): said
            try:
                file.resolve(strict=True)
                why = "it is not a file"
            except RuntimeError:  # Python before 3.13 says a loop so
                why = "it is a link that leads round in a loop"
            except OSError as error:
                loop = error.errno == errno.ELOOP
                why = f"it is a link {'that leads round in a loop' if loop else 'to no file'}"
            yield _refused(source_name(file), f"cannot read this record file: {why}")


def _is_record_name(name: str) -> bool:
    return name.lower().endswith(RECORD_SUFFIXES)


def is_duckdb_file(path: Path) -> bool:
    """Whether the file starts as DuckDB's database files do (``DUCK`` after an 8-byte checksum):
    an archive given where records go (``manillen import club.duckdb``) is said to be one."""
    with path.open("rb") as handle:
        return handle.read(12)[8:] == b"DUCK"


def _entries_in_file(path: Path, seen: set[Path]) -> Iterator[Entry]:
    try:
        identity = path.resolve()
    except OSError:
        identity = path.absolute()
    if identity in seen:
        return
    seen.add(identity)
    source = source_name(path)
    kind = kind_of(path.name)
    try:
        if not _is_record_name(path.name) and is_duckdb_file(path):
            yield _refused(source, "this is a DuckDB archive, not a record file: give an archive with --db")
            return
        if kind == "jsonl":
            with path.open("rb") as handle:
                why = not_text_of_records(handle.read(4), path.name)
                if why is not None:  # one refusal for the file, not one for each of its "lines"
                    yield _refused(source, why)
                    return
                handle.seek(0)
                if _one_document_over_lines(handle):
                    yield _refused(source, ONE_DOCUMENT_OVER_LINES)
                    return
                handle.seek(0)
                empty = True
                for entry in _lines(handle, source):
                    empty = False
                    yield entry
            if empty:  # a failed export must not pass as an archive with nothing wrong in it
                yield _refused(source, EMPTY_JSON_LINES)
            return
        if path.stat().st_size > MAX_RECORD_BYTES:  # asked before reading: the file is read whole
            with path.open("rb") as handle:
                yield _oversized(source, None, handle, notation=kind == "mnl")
            return
        data = path.read_bytes()  # at most the limit, unless it grew since: entries_of refuses it then
    except OSError as error:
        yield _refused(source, f"cannot read the file: {error.strerror or error}")
        return
    if kind == "json" and not _is_record_name(path.name) and looks_like_notation(data):
        kind = "mnl"  # typed in the notation and saved as .txt: "not valid JSON" told nobody what to do
    yield from entries_of(data, source, kind)


def not_text_of_records(start: bytes, name: str, *, utf16: bool = True) -> str | None:
    r"""Why a file that starts with ``start`` (its first bytes) holds no records as text, or
    ``None``: compressed (gzip), a Parquet table, or UTF-16 text. Read line by line, a gzip file
    gave twenty-two refused "records", each said to be UTF-16.

    :param utf16: whether UTF-16 text is said here: a file read line by line (JSON Lines); a file
        read whole says it itself, placed in its text.

    >>> not_text_of_records(b"\x1f\x8b\x08\x00", "club.jsonl.gz").split(":")[0]
    'the file is compressed (gzip)'
    >>> not_text_of_records(b'{"fo', "m.json") is None
    True
    """
    if start[:2] == b"\x1f\x8b":
        stem, dot, suffix = name.rpartition(".")
        plain = (
            name[:-3]
            if name.lower().endswith(".gz")
            else f"{stem}-plain{dot}{suffix}"
            if dot
            else f"{name}.jsonl"
        )
        return f"the file is compressed (gzip): decompress it first (gunzip -c {name} > {plain})"
    if start == b"PAR1":
        return (
            "this is a Parquet file, not a record file (.json, .jsonl or .mnl): the analysis parts of "
            "manillen analyze-files go to manillen import-analysis DIR"
        )
    if utf16 and (start[:2] in (b"\xff\xfe", b"\xfe\xff") or (len(start) >= 2 and b"\x00" in start)):
        return "the file is UTF-16 text; save it as UTF-8"
    return None


EMPTY_JSON_LINES = "the file is empty: no record in it (JSON Lines holds one match a line)"

ONE_DOCUMENT_OVER_LINES = (
    "this JSON Lines file holds one JSON document written over many lines, not one match a line: "
    "name it .json (a .json file holds one match, written as you like)"
)


def _one_document_over_lines(handle: Any) -> bool:
    """Whether a JSON Lines file is rather one indented JSON document (a ``.json`` file given
    the wrong name): read its first line, and the whole file only when that line could start one
    (:func:`_indented_document`)."""
    if handle.readline(64).strip().removeprefix(_BOM).strip() not in (b"{", b"["):
        return False
    handle.seek(0)
    return _indented_document(handle.read(MAX_RECORD_BYTES + 1))


def _indented_document(data: bytes) -> bool:
    """Whether the bytes of a JSON Lines file are one JSON value over many lines: the first line
    a lone ``{`` or ``[`` (which no line of JSON Lines can be) and the whole one JSON value."""
    if len(data) > MAX_RECORD_BYTES:
        return False
    end = data.find(b"\n")  # the first line only: a split would copy the whole archive
    first = data[: end if end >= 0 else len(data)].strip().removeprefix(_BOM).strip()
    if first not in (b"{", b"["):
        return False
    try:
        json.loads(data)
    except ValueError:
        return False
    return True


def _lines(handle: Any, source: str) -> Iterator[Entry]:
    """The documents of a JSON Lines file, a line over :data:`MAX_RECORD_BYTES` unread past its
    start; lines split as :func:`~manillen_replay.record.text.split_lines` splits them."""
    number = 0
    while True:
        text = handle.readline(MAX_RECORD_BYTES + 2)
        if not text:
            return
        number += 1
        line = text.removesuffix(b"\n").removesuffix(b"\r")
        if len(line) > MAX_RECORD_BYTES:
            yield _oversized(source, number, handle, text)
        elif line.strip():
            yield Entry(source, number, line)


def _oversized(
    source: str, line: int | None, handle: Any, start: bytes = b"", *, notation: bool = False
) -> Entry:
    """A refused document: its start, its size and hash, the rest of it read past (to its line's
    end), a megabyte at a time; ``notation`` for a whole text file. A JSON Lines document is its
    line without the line's end (``\\n``, ``\\r\\n``), as :func:`split_lines` reads it: the same
    document has the same size and hash whichever way it was read (a file, standard input, an
    upload)."""
    digest = hashlib.sha256()
    size = 0
    kept = b""
    held = b""  # a "\r" ending a piece: the document's, unless the line ends right after it
    piece = start
    while True:
        body = held + piece
        held = b""
        ended = line is not None and (body.endswith(b"\n") or not piece)
        if line is not None:
            body = body.removesuffix(b"\n").removesuffix(b"\r") if ended else body
            if not ended and body.endswith(b"\r"):
                body, held = body[:-1], b"\r"
        digest.update(body)
        size += len(body)
        if len(kept) < RAW_PREFIX:
            kept += body[: RAW_PREFIX - len(kept)]
        if ended:
            break
        piece = handle.readline(2**20) if line is not None else handle.read(2**20)
        if not piece and line is None:
            break
    return Entry(
        source,
        line,
        kept,
        notation,
        refusal=_too_large_text(size) if notation else _too_large(size),
        size=size,
        digest=digest.hexdigest(),
    )


def _too_large(size: int) -> str:
    return f"the record is {size:,} bytes, over the limit of {MAX_RECORD_BYTES:,}: it was not read"


def _too_large_text(size: int) -> str:
    return (
        f"the text (.mnl) file is {size:,} bytes, over the limit of {MAX_RECORD_BYTES:,}: it was not "
        "read (split it into smaller files between two matches; each can then be converted to JSON "
        "Lines, .jsonl, which has no such limit)"
    )


def _refused(source: str, why: str) -> Entry:
    return Entry(printable(source), None, b"", refusal=why)


def source_name(path: Path) -> str:
    """How a file is named in messages and in the archive: relative to the working folder when
    inside it, else absolute, so that two spellings of one path name the same file."""
    full = Path(os.path.abspath(path))  # ".." and "." gone, symbolic links kept as given
    try:
        name = str(full.relative_to(Path.cwd()))
    except (ValueError, OSError):
        name = str(full)
    return printable(name)


def kind_of(name: str) -> str:
    """How a file of this name holds its matches: ``json``, ``jsonl`` or ``mnl`` (the text notation).

    >>> kind_of("club.JSONL"), kind_of("avond.mnl"), kind_of("match.json")
    ('jsonl', 'mnl', 'json')
    """
    lowered = name.lower()
    return "mnl" if is_text_name(lowered) else "jsonl" if lowered.endswith(".jsonl") else "json"


def guess_kind(data: bytes) -> str:
    """What bytes without a file name hold (standard input), as :func:`kind_of` says for a name:
    the text notation unless they start with ``{``; one JSON document over several lines when the
    first line is no whole document and the next goes on with it (indented, or a ``"``, ``}`` or
    ``]``), else JSON Lines: a broken first line of JSON Lines is that line's problem, and the
    records after it are still read.

    >>> guess_kind(b'{"a": 1}\\n{"a": 2}\\n'), guess_kind(b'{\\n  "a": 1\\n}'), guess_kind(b"match m\\n")
    ('jsonl', 'json', 'mnl')
    >>> guess_kind(b'{"a": \\n{"a": 2}\\n')
    'jsonl'
    """
    text = data.removeprefix(_BOM).lstrip()
    if not text.startswith(b"{"):
        return "mnl"
    first, _, rest = text.partition(b"\n")
    try:
        json.loads(first)
    except ValueError:
        following = next((line for line in rest.split(b"\n") if line.strip()), b"")
        if following[:1] in (b" ", b"\t", b'"', b"}", b"]"):
            return "json"
    return "jsonl"


def split_lines(data: bytes) -> list[tuple[int, bytes]]:
    """The lines of a JSON Lines file, numbered from 1: split at each ``\\n`` only, a ``\\r``
    before it dropped. The one rule of every reader (files, uploads, standard input, and the text
    notation's :func:`~manillen_replay.record.text.lines_of`): a ``\\r`` elsewhere is JSON's
    whitespace, and U+2028, U+2029 and U+0085 are characters of a text, not line breaks.

    >>> split_lines(b'{"a": 1}\\r\\n{"b":\\r 2}\\n')
    [(1, b'{"a": 1}'), (2, b'{"b":\\r 2}')]
    """
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    return [(number, line.removesuffix(b"\r")) for number, line in enumerate(lines, start=1)]


def entries_of(data: bytes, source: str, kind: str) -> list[Entry]:
    """The documents in the bytes of one file (or of standard input) of a kind (:func:`kind_of`)."""
    why = not_text_of_records(data[:4], Path(source).name, utf16=kind == "jsonl")
    if why is not None:  # an upload of a .jsonl.gz, say
        return [_refused(source, why)]
    if kind == "jsonl" and _indented_document(data):
        return [_refused(source, ONE_DOCUMENT_OVER_LINES)]
    if kind == "jsonl":
        entries = [Entry(source, n, text) for n, text in split_lines(data) if text.strip()]
        if not entries:  # an upload or a pipe with nothing in it is refused as an empty file is
            return [_refused(source, EMPTY_JSON_LINES)]
    elif kind == "json":
        entries = [Entry(source, None, data)]
    elif len(data) > MAX_RECORD_BYTES:  # a text file is read whole: the limit is the file's
        return [
            Entry(
                source,
                None,
                data[:RAW_PREFIX],
                True,
                refusal=_too_large_text(len(data)),
                size=len(data),
                digest=hashlib.sha256(data).hexdigest(),
            )
        ]
    else:
        try:
            chunks = split_matches(data.removeprefix(_BOM).decode("utf-8"))
        except UnicodeDecodeError:
            chunks = []
        # An empty or undecodable text is one document, so that reading it says what is wrong.
        entries = [Entry(source, first, chunk.encode(), notation=True) for first, chunk in chunks] or [
            Entry(source, 1, data, notation=True)
        ]
    return [_limited(entry) for entry in entries]


def _limited(entry: Entry) -> Entry:
    """The entry, or when it is over :data:`MAX_RECORD_BYTES` a refused one holding its start."""
    if len(entry.data) <= MAX_RECORD_BYTES:
        return entry
    return Entry(
        entry.source,
        entry.line,
        entry.data[:RAW_PREFIX],
        entry.notation,
        refusal=_too_large(len(entry.data)),
        size=len(entry.data),
        digest=hashlib.sha256(entry.data).hexdigest(),
    )


def canonicalize_cards(record: Record) -> list[RecordError]:
    """Rewrite every card in canonical form (``th`` -> ``10H``); the unknown ones as problems."""
    problems: list[RecordError] = []
    for d, deal in enumerate(record.deals):
        if _all_canonical(deal):  # nearly every deal: no group to look at one by one
            continue
        for where, group in _card_groups(deal):
            if _CANONICAL.issuperset(group):
                continue
            for i, text in enumerate(group):
                if text in CARD_BY_TEXT:
                    group[i] = CARD_TEXT[CARD_BY_TEXT[text]]
                else:
                    problems.append(RecordError(f"unknown card {text!r}", f"/deals/{d}/{where}/{i}"))
    return problems


def _all_canonical(deal: Deal) -> bool:
    """Whether every card of a deal is already written in canonical form."""
    chain = itertools.chain.from_iterable
    return (
        (deal.hands is msgspec.UNSET or _CANONICAL.issuperset(chain(deal.hands)))
        and (deal.tricks is msgspec.UNSET or _CANONICAL.issuperset(chain(deal.tricks)))
        and (deal.table is msgspec.UNSET or _CANONICAL.issuperset(chain(chain(deal.table))))
        and (deal.discards is msgspec.UNSET or _CANONICAL.issuperset(deal.discards))
        and all(
            note.line is msgspec.UNSET or _CANONICAL.issuperset(note.line) for note in deal.annotations or ()
        )
    )


def _card_groups(deal: Deal) -> Iterator[tuple[str, list[str]]]:
    """Every list of cards in a deal, with its pointer below the deal."""
    if deal.hands is not msgspec.UNSET:
        for g, group in enumerate(deal.hands):
            yield f"hands/{g}", group
    if deal.tricks is not msgspec.UNSET:
        for g, group in enumerate(deal.tricks):
            yield f"tricks/{g}", group
    if deal.table is not msgspec.UNSET:
        for seat, piles in enumerate(deal.table):
            for p, pile in enumerate(piles):
                yield f"table/{seat}/{p}", pile
    if deal.discards is not msgspec.UNSET:
        yield "discards", deal.discards
    for n, note in enumerate(deal.annotations or ()):
        if note.line is not msgspec.UNSET:
            yield f"annotations/{n}/line", note.line


# --------------------------------------------------------------------------- problems


def best_match(errors: list[Any]) -> Any:
    """The most telling of some schema errors (jsonschema's own choice)."""
    import jsonschema

    return jsonschema.exceptions.best_match(errors)


@functools.cache
def _validator() -> Any:
    import jsonschema

    # JSON Schema counts 1.0 as an integer; the decoder takes whole numbers written as such only,
    # so the words for its refusal must come from a validator that refuses 1.0 too
    whole = jsonschema.Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda _checker, value: isinstance(value, int) and not isinstance(value, bool)
    )
    strict = jsonschema.validators.extend(jsonschema.Draft202012Validator, type_checker=whole)
    return strict(json_schema(), format_checker=jsonschema.FormatChecker())


def explain_decode_error(data: bytes | str, error: Exception) -> list[RecordError]:
    """Every problem of a document that the fast decoder refused, in words, with pointers.

    Never raises for any input: a document too deep, with numbers too long, with text that is
    not UTF-8 or not characters is described like any other problem.
    """
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    if raw[:2] in (b"\xff\xfe", b"\xfe\xff") or b"\x00" in raw[:4]:
        return [RecordError("the file is UTF-16 text; save it as UTF-8")]
    text = raw.decode("utf-8", "surrogateescape")
    depth, deep_at = _nesting(text)
    if depth > MAX_DEPTH:
        where = _where(text, deep_at)
        return [
            RecordError(
                f"lists and objects nest more than {MAX_DEPTH} deep at {where}; a record needs 6 at most"
            )
        ]
    try:
        document = json.loads(
            text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_no_constant
        )
    except _NotJsonNumber as bad:
        # Python's json reads NaN and Infinity, which JSON has not (nor the fast decoder)
        where = _where(text, _offset_of(raw, error, bad.written, text))
        return [
            RecordError(
                f"not valid JSON at {where}: {bad.written} is no number in JSON (it has no NaN or Infinity)"
            )
        ]
    except json.JSONDecodeError as bad:
        if not text.strip():
            return [RecordError("empty: nothing to read here, where a record (a JSON object) should be")]
        # json's "Invalid control character at" leaves the place to the caller: it is told before
        said = bad.msg.lower().removesuffix(" at")
        cut = said.startswith("unterminated") or bad.pos >= len(text.rstrip())
        if said == "unterminated string starting":
            said = "a text starts here and does not end"
        if cut:
            # the commonest cause: a line cut off (a copy, an upload or a phone export that stopped)
            said += "; the document ends before it is complete: was it cut off?"
        if said == "extra data" and text[bad.pos :].lstrip().startswith("{"):
            # a second record after the first: a .json holds one match (an export to .json did this)
            said += (
                "; the file holds more than one JSON document: one match a line is JSON Lines, named .jsonl"
            )
        return [RecordError(f"not valid JSON at {_where(text, bad.pos)}: {said}")]
    except (ValueError, RecursionError):
        return [_msgspec_problem(error)]
    strange = _first_strange_text(document)
    if strange is not None:
        pointer, value = strange
        offset = raw.find(_undecodable_byte(value)) if _has_undecodable(value) else -1
        if offset >= 0:
            where = _where(text, len(raw[:offset].decode("utf-8", "surrogateescape")))
            return [RecordError(f"this is not UTF-8 text (at {where}); save the file as UTF-8", pointer)]
        return [
            RecordError(
                "a text holds a lone surrogate escape (such as \\ud800), which is no character", pointer
            )
        ]
    try:
        return _schema_problems(document, error)
    except RecursionError:
        return [_msgspec_problem(error)]


def _schema_problems(document: Any, error: Exception) -> list[RecordError]:
    if not isinstance(document, dict):
        return [RecordError(f"a record is a JSON object, not {_json_type(document)}")]
    if document.get("format") != FORMAT:
        found = document.get("format")
        shown = repr(found) if isinstance(found, str) and len(found) <= 40 else _short(found)
        what = "no 'format' field" if found is None else f"format {shown}"
        return [RecordError(f"unsupported record: {what}; this tool reads {FORMAT!r}", "/format")]
    match = document.get("match")
    named = match.get("variant", "four") if isinstance(match, dict) else "four"
    shape = VARIANTS.get(named, VARIANTS["four"]) if isinstance(named, str) else VARIANTS["four"]
    problems = [_describe(e, (shape.people, shape.players)) for e in _validator().iter_errors(document)]
    problems.sort(key=lambda p: _pointer_key(p.pointer))
    return problems or [_msgspec_problem(error)]


def _msgspec_problem(error: Exception) -> RecordError:
    """The fast decoder's own message, with its pointer."""
    message = str(error).split(" - at ")[0]
    return RecordError(message[:1].lower() + message[1:], _msgspec_pointer(str(error)))


class _TooLong(int):
    """A whole number with more digits than Python converts (4,300): kept by its digit count."""

    digits: int


def _parse_int(digits: str) -> int:
    if len(digits) <= 4000:
        return int(digits)
    # far past every bound of the schema, on the number's side of 0, so that the range is what is told
    negative = digits.startswith("-")
    number = _TooLong(-(10**18) if negative else 10**18)
    number.digits = len(digits) - negative
    return number


class _TooLarge(float):
    """A number past the largest a float holds (``1e400``): infinite, kept with its text."""

    written: str


def _parse_float(written: str) -> float:
    number = float(written)
    if number not in (float("inf"), float("-inf")):
        return number
    large = _TooLarge(number)
    large.written = written
    return large


class _NotJsonNumber(ValueError):
    def __init__(self, written: str) -> None:
        super().__init__(written)
        self.written = written


def _no_constant(written: str) -> Any:
    raise _NotJsonNumber(written)


def _offset_of(raw: bytes, error: Exception, written: str, text: str) -> int:
    """Where in the text the fast decoder stopped (its ``(byte N)``), or else where the word
    first is."""
    said = re.search(r"\(byte (\d+)\)", str(error))
    if said is not None:
        offset = len(raw[: int(said.group(1))].decode("utf-8", "surrogateescape"))
        # the decoder stops past a minus sign: the place is the word's first character
        return offset - 1 if text[offset - 1 : offset] == "-" and written.startswith("-") else offset
    return max(text.find(written), 0)


def _nesting(text: str) -> tuple[int, int]:
    """The deepest nesting of lists and objects in JSON text, and where it first goes past
    :data:`MAX_DEPTH`; without recursion, so that no depth can overflow the stack."""
    depth = deepest = 0
    at = -1
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return 0, at
    in_string = escaped = False
    for index, char in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if depth == MAX_DEPTH + 1:
                    at = index
                    break
        elif char in "]}":
            depth -= 1
    return deepest, at


def _line_column(text: str, offset: int) -> str:
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return f"line {line} column {column}"


def _first_strange_text(document: Any) -> tuple[str, str] | None:
    """The pointer and value of the first key or text holding a surrogate (an undecodable byte
    or a lone ``\\ud800`` escape), walking without recursion."""
    stack: list[tuple[str, Any]] = [("", document)]
    while stack:
        pointer, value = stack.pop()
        if isinstance(value, str):
            if _has_surrogate(value):
                return pointer, value
        elif isinstance(value, dict):
            for key, item in reversed(value.items()):
                if _has_surrogate(key):
                    return pointer, key
                stack.append((f"{pointer}/{key}", item))
        elif isinstance(value, list):
            stack.extend((f"{pointer}/{i}", item) for i, item in reversed(list(enumerate(value))))
    return None


def _has_surrogate(text: str) -> bool:
    return any("\ud800" <= char <= "\udfff" for char in text)


def _has_undecodable(text: str) -> bool:
    return any("\udc80" <= char <= "\udcff" for char in text)


def _undecodable_byte(text: str) -> bytes:
    first = next(char for char in text if "\udc80" <= char <= "\udcff")
    return bytes([ord(first) - 0xDC00])


def _describe(error: Any, seats: tuple[int, int] = (4, 4)) -> RecordError:
    """A schema error in words, with its pointer.

    :param seats: the match's people and players (its variant's), for a seat out of range.
    """
    pointer = "".join(f"/{part}" for part in error.absolute_path)
    value = error.instance
    kind = error.validator
    if kind == "required":
        # one error per field missing, each naming its own (two fields missing were said as the
        # first one twice)
        named = re.fullmatch(r"'(.+)' is a required property", str(error.message))
        missing = [name for name in error.validator_value if name not in value]
        return RecordError(f"missing field {named.group(1) if named else missing[0]!r}", pointer)
    if kind == "additionalProperties":
        allowed = set(error.schema.get("properties", {}))
        extra = sorted(k for k in value if k not in allowed)
        return RecordError(f"unknown field {extra[0]!r} (known: {', '.join(sorted(allowed))})", pointer)
    if kind == "pattern":
        return RecordError(f"unknown card {value!r}", pointer)
    if kind == "type":
        expected = _schema_type(error.validator_value)
        return RecordError(f"expected {expected}, found {_found(value)}{_what_it_is(error.schema)}", pointer)
    if kind == "enum":
        options = ", ".join(repr(v) for v in error.validator_value)
        return RecordError(f"{_short(value)} is not allowed here; use one of {options}", pointer)
    if kind in ("minimum", "maximum"):
        if pointer.endswith(("/seat", "/dealer")) and isinstance(value, int) and len(str(value)) < 8:
            # said as the replay says a seat past the match's ("seats are 0 to 3"), not "maximum 5",
            # the bound of the six-player game
            last = (seats[0] if pointer.endswith("/dealer") else seats[1]) - 1
            return RecordError(f"seat {value} does not exist: seats are 0 to {last}", pointer)
        return RecordError(f"{_short(value)} is out of range ({kind} {error.validator_value})", pointer)
    if kind in ("minItems", "maxItems", "minLength", "maxLength"):
        limit = int(error.validator_value)
        if kind == "minLength" and not value:
            return RecordError("the text is empty: give one", pointer)
        unit = "items" if kind.endswith("Items") else "characters"
        held = f"{len(value)} {unit}" if len(value) != 1 else f"1 {unit[:-1]}"
        if kind.startswith("min"):
            return RecordError(f"{_short(value)} is too short: {held}, at least {limit} needed", pointer)
        return RecordError(f"{_short(value)} is too long: {held}, at most {limit}", pointer)
    if kind == "format":
        return RecordError(
            f"{_short(value)} is not a valid {error.validator_value} (use YYYY-MM-DD)", pointer
        )
    if kind in ("anyOf", "oneOf"):
        # a problem inside the value (a field of an object) tells more than "expected an object
        # or null, found an object": {"team": "Anna & Carla", "points": 12} names its team field
        telling = [e for e in error.context or () if e.validator != "type" or e.relative_path]
        if telling:  # the value has the type of one choice, and a problem of its own: say that
            return _describe(best_match(telling), seats)
        sub = min(error.context, key=lambda e: len(e.schema), default=None) if error.context else None
        if sub is not None and sub.validator == "type":
            types = " or ".join(
                _schema_type(s.get("type", "object" if "$ref" in s else "null"))
                for s in error.validator_value
            )
            return RecordError(f"expected {types}, found {_found(value)}", pointer)
        return RecordError(f"{_short(value)} does not fit here", pointer)
    return RecordError(error.message.lower(), pointer)


def _what_it_is(schema: Any) -> str:
    """What a scalar field holds, from the schema, after a type error: "; a team: 0 (seats 0 and
    2) or 1 (seats 1 and 3)" (nothing for objects and lists, whose descriptions are long)."""
    description = str(schema.get("description", "")) if isinstance(schema, dict) else ""
    if not description or schema.get("type") in ("object", "array") or len(description) > 80:
        return ""
    return f"; {description[0].lower()}{description[1:].rstrip('.')}"


def _schema_type(name: Any) -> str:
    return {
        "object": "an object",
        "array": "a list",
        "string": "a text",
        "integer": "a whole number",
        "boolean": "true or false",
        "null": "null",
        "number": "a number",
    }.get(str(name), str(name))


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a text"
    if isinstance(value, list):
        return "a list"
    return "an object"


def _found(value: Any) -> str:
    """A value found where another type belongs: its type and the value (``null`` once)."""
    return "null" if value is None else f"{_json_type(value)} {_short(value)}"


def _short(value: Any) -> str:
    if isinstance(value, _TooLong):
        return f"a number of {value.digits} digits"
    if isinstance(value, _TooLarge):
        return f"{value.written} (past the largest number, about 1.8e308)"
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def _pointer_key(pointer: str) -> list[Any]:
    return [int(p) if p.isdigit() else p for p in pointer.split("/")[1:]]


def _msgspec_pointer(message: str) -> str:
    if "- at `$" not in message:
        return ""
    path = message.split("- at `$", 1)[1].rstrip("`")
    return path.replace("[", "/").replace("]", "").replace(".", "/")


# --------------------------------------------------------------------------- canonical layout

_WIDTH = 100


def _pretty(value: Any, depth: int) -> str:
    """Objects one key a line; short lists and flat objects on one line, as people write them."""
    flat = json.dumps(value, ensure_ascii=False)
    pad = "  " * (depth + 1)
    if isinstance(value, dict):
        if _is_flat(value) and len(flat) + 2 * depth <= _WIDTH:
            return flat
        items = [
            f"{pad}{json.dumps(k, ensure_ascii=False)}: {_pretty(v, depth + 1)}" for k, v in value.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + "  " * depth + "}"
    if isinstance(value, list):
        if not value or (_is_flat(value) and len(flat) + 2 * depth <= _WIDTH):
            return flat
        return "[\n" + ",\n".join(pad + _pretty(v, depth + 1) for v in value) + "\n" + "  " * depth + "]"
    return flat


def _is_flat(value: Any) -> bool:
    """Scalars, and containers of scalars or of lists of scalars."""
    items = value.values() if isinstance(value, dict) else value
    for item in items:
        if isinstance(item, dict):
            return False
        if isinstance(item, list) and any(isinstance(x, dict | list) for x in item):
            return False
    return True
