"""The recorded-game format ``manillen/1``: model, reading, writing and its JSON Schema."""

from .io import Entry, dump, dump_lines, dumps, iter_entries, load, loads
from .model import (
    FORMAT,
    Annotation,
    Deal,
    Declaration,
    MatchInfo,
    Penalty,
    Record,
    RecordedScore,
    RuleOptions,
    json_schema,
)

__all__ = [
    "FORMAT",
    "Annotation",
    "Deal",
    "Declaration",
    "Entry",
    "MatchInfo",
    "Penalty",
    "Record",
    "RecordedScore",
    "RuleOptions",
    "dump",
    "dump_lines",
    "dumps",
    "iter_entries",
    "json_schema",
    "load",
    "loads",
]
