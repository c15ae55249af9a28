"""The record format ``manillen/1``: its model, JSON and the text notation, and its JSON Schema."""

from .io import RECORD_SUFFIXES, Entry, dump, dump_lines, dumps, iter_entries, load, loads
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
from .text import dumps_text, is_text_name, loads_text

__all__ = [
    "FORMAT",
    "RECORD_SUFFIXES",
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
    "dumps_text",
    "is_text_name",
    "iter_entries",
    "json_schema",
    "load",
    "loads",
    "loads_text",
]
