"""The replay engine: records through the rules, with visitors."""

from .replay import ReplayVisitor, decode_and_replay, match_id, replay, replay_entry, rules_of
from .results import (
    BlockResult,
    DealKind,
    DealResult,
    Irregularity,
    IrregularityKind,
    MatchResult,
    TrickResult,
    Violation,
)

__all__ = [
    "BlockResult",
    "DealKind",
    "DealResult",
    "Irregularity",
    "IrregularityKind",
    "MatchResult",
    "ReplayVisitor",
    "TrickResult",
    "Violation",
    "decode_and_replay",
    "match_id",
    "replay",
    "replay_entry",
    "rules_of",
]
