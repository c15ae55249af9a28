"""Reading and writing records: ``loads``/``load``/``dumps``/``dump`` and archives.

The fast path decodes with msgspec straight into the typed model. Only a document that fails
it takes the slow path, where the published JSON Schema lists every problem with its pointer.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from ..cards import CARD_BY_TEXT, CARD_TEXT
from ..errors import InvalidRecordError, NotationError, RecordError
from .model import FORMAT, Deal, Record, json_schema
from .text import is_text_name, parse_located, parse_match, split_matches

RECORD_SUFFIXES = (".json", ".jsonl", ".mnl")
"""The file endings a folder of records is read for."""

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

    @property
    def place(self) -> str:
        """``file:line`` or ``file``."""
        return self.source if self.line is None else f"{self.source}:{self.line}"

    def decode(self) -> Record:
        """The record this document holds, in JSON or in the text notation.

        :raises InvalidRecordError: listing its problems, each placed in the file.
        """
        if not self.notation:
            return loads(self.data, source=self.source, line=self.line)
        return parse_match(_text_of(self), first_line=self.line or 1, source=self.source)

    def locate(self, problems: Iterable[RecordError]) -> list[RecordError]:
        """Problems found in the decoded record (by the replay), placed in this file: the JSON
        pointer, or the text's line and column with a hint."""
        problems = list(problems)
        if not self.notation:
            return [p if p.source is not None else p.located(self.source, self.line) for p in problems]
        if all(isinstance(p, NotationError) for p in problems):
            return problems
        parsed = parse_located(_text_of(self), first_line=self.line or 1, source=self.source)
        return [parsed.locate(p) for p in problems]


def _text_of(entry: Entry) -> str:
    """The text of a notation document.

    :raises InvalidRecordError: when it is not UTF-8 text.
    """
    data = entry.data
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

    :raises InvalidRecordError: listing every problem, each with its JSON pointer.
    """
    try:
        record = _decoder.decode(data)
    except (msgspec.ValidationError, msgspec.DecodeError) as error:
        problems = [p.located(source, line) for p in explain_decode_error(data, error)]
        raise InvalidRecordError(problems) from None
    unknown = canonicalize_cards(record)
    if unknown:
        raise InvalidRecordError([p.located(source, line) for p in unknown])
    return record


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


def iter_entries(paths: Iterable[str | Path]) -> Iterator[Entry]:
    """Every document in ``.json`` files, ``.jsonl`` archives, ``.mnl`` text files and folders of them.

    Blank lines in JSON Lines are skipped; each match of a text file is one document, whose
    line is the match's first line; a folder is read in name order.

    :raises FileNotFoundError: for a path that does not exist.
    """
    for path in paths:
        path = Path(path)
        if not path.exists():
            raise FileNotFoundError(f"no such file or folder: {str(path)!r}")
        if path.is_dir():
            children = sorted(p for p in path.rglob("*") if p.suffix in RECORD_SUFFIXES and p.is_file())
            yield from iter_entries(children)
        elif path.suffix == ".jsonl":
            with path.open("rb") as handle:
                for number, text in enumerate(handle, start=1):
                    if text.strip():
                        yield Entry(str(path), number, text)
        else:
            yield from entries_of(path.read_bytes(), str(path), "mnl" if is_text_name(path.name) else "json")


def kind_of(name: str) -> str:
    """How a file of this name holds its matches: ``json``, ``jsonl`` or ``mnl`` (the text notation).

    >>> kind_of("club.JSONL"), kind_of("avond.mnl"), kind_of("match.json")
    ('jsonl', 'mnl', 'json')
    """
    lowered = name.lower()
    return "mnl" if is_text_name(lowered) else "jsonl" if lowered.endswith(".jsonl") else "json"


def entries_of(data: bytes, source: str, kind: str) -> list[Entry]:
    """The documents in the bytes of one file (or of standard input) of a kind (:func:`kind_of`)."""
    if kind == "jsonl":
        return [Entry(source, n, text) for n, text in enumerate(data.splitlines(), start=1) if text.strip()]
    if kind == "json":
        return [Entry(source, None, data)]
    try:
        chunks = split_matches(data.decode("utf-8"))
    except UnicodeDecodeError:
        chunks = []
    # An empty or undecodable text is one document, so that reading it says what is wrong.
    return [Entry(source, first, chunk.encode(), notation=True) for first, chunk in chunks] or [
        Entry(source, 1, data, notation=True)
    ]


def canonicalize_cards(record: Record) -> list[RecordError]:
    """Rewrite every card in canonical form (``th`` -> ``10H``); the unknown ones as problems."""
    problems: list[RecordError] = []
    for d, deal in enumerate(record.deals):
        for where, group in _card_groups(deal):
            if _CANONICAL.issuperset(group):
                continue
            for i, text in enumerate(group):
                if text in CARD_BY_TEXT:
                    group[i] = CARD_TEXT[CARD_BY_TEXT[text]]
                else:
                    problems.append(RecordError(f"unknown card {text!r}", f"/deals/{d}/{where}/{i}"))
    return problems


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


# --------------------------------------------------------------------------- problems


@functools.cache
def _validator() -> Any:
    import jsonschema

    schema = json_schema()
    return jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())


def explain_decode_error(data: bytes | str, error: Exception) -> list[RecordError]:
    """Every problem of a document that the fast decoder refused, in words, with pointers."""
    try:
        document = json.loads(data)
    except (json.JSONDecodeError, UnicodeDecodeError) as bad:
        where = f" at line {bad.lineno} column {bad.colno}" if isinstance(bad, json.JSONDecodeError) else ""
        reason = bad.msg if isinstance(bad, json.JSONDecodeError) else str(bad)
        return [RecordError(f"not valid JSON{where}: {reason.lower()}")]
    if not isinstance(document, dict):
        return [RecordError(f"a record is a JSON object, not {_json_type(document)}")]
    if document.get("format") != FORMAT:
        found = document.get("format")
        what = "no 'format' field" if found is None else f"format {found!r}"
        return [RecordError(f"unsupported record: {what}; this tool reads {FORMAT!r}", "/format")]
    problems = [_describe(e) for e in _validator().iter_errors(document)]
    problems.sort(key=lambda p: _pointer_key(p.pointer))
    if not problems:
        problems = [RecordError(str(error).split(" - at ")[0].lower(), _msgspec_pointer(str(error)))]
    return problems


def _describe(error: Any) -> RecordError:
    pointer = "".join(f"/{part}" for part in error.absolute_path)
    value = error.instance
    kind = error.validator
    if kind == "required":
        missing = [name for name in error.validator_value if name not in value]
        return RecordError(f"missing field {missing[0]!r}", pointer)
    if kind == "additionalProperties":
        allowed = set(error.schema.get("properties", {}))
        extra = sorted(k for k in value if k not in allowed)
        return RecordError(f"unknown field {extra[0]!r} (known: {', '.join(sorted(allowed))})", pointer)
    if kind == "pattern":
        return RecordError(f"unknown card {value!r}", pointer)
    if kind == "type":
        return RecordError(
            f"expected {_schema_type(error.validator_value)}, found {_json_type(value)} {_short(value)}",
            pointer,
        )
    if kind == "enum":
        options = ", ".join(repr(v) for v in error.validator_value)
        return RecordError(f"{_short(value)} is not allowed here; use one of {options}", pointer)
    if kind in ("minimum", "maximum"):
        return RecordError(f"{value} is out of range ({kind} {error.validator_value})", pointer)
    if kind in ("minItems", "maxItems", "minLength"):
        return RecordError(
            f"{_short(value)} is too {'short' if kind.startswith('min') else 'long'} "
            f"({kind} {error.validator_value})",
            pointer,
        )
    if kind == "format":
        return RecordError(
            f"{_short(value)} is not a valid {error.validator_value} (use YYYY-MM-DD)", pointer
        )
    if kind == "anyOf":
        sub = min(error.context, key=lambda e: len(e.schema), default=None) if error.context else None
        if sub is not None and sub.validator == "type":
            types = " or ".join(_schema_type(s.get("type", "null")) for s in error.validator_value)
            return RecordError(f"expected {types}, found {_json_type(value)} {_short(value)}", pointer)
        return RecordError(f"{_short(value)} does not fit here", pointer)
    return RecordError(error.message.lower(), pointer)


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


def _short(value: Any) -> str:
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
