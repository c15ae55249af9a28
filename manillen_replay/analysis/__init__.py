"""The mistake finder: illegal plays, scoring and procedure problems, and coaching findings.

``analyse(result)`` runs every built-in detector over a replayed match; coach detectors written
in SQL are described by :mod:`.coach` and run through the archive. docs/findings.md defines each
detector and its severity thresholds.
"""

from __future__ import annotations

from ..engine import MatchResult, replay
from ..record import Record
from .coach import CoachDetector, DetectorError, coach_findings, parse_coach_detector
from .detectors import KIND_CATEGORY, MatchAnalysis
from .findings import (
    BUILTIN_DETECTOR,
    FINDING_COLUMNS,
    Category,
    Finding,
    Severity,
    Thresholds,
    sort_key,
)


def analyse(result: MatchResult, record: Record | None = None) -> list[Finding]:
    """Every built-in finding of a replayed match, ordered by deal, trick and play.

    :param result: the match as the engine replayed it (``decode_and_replay`` or ``replay``).
    :param record: the record it was replayed from, when at hand: it tells who knocked, so
        that ``klop_lost`` can name the player instead of the team.
    """
    return sorted(MatchAnalysis(result, record).run(), key=sort_key)


def analyse_record(record: Record, *, source: str | None = None, line: int | None = None) -> list[Finding]:
    """Replay a record and find everything in it.

    :raises InvalidRecordError: when the record is not valid.
    """
    return analyse(replay(record, source=source, line=line), record)


__all__ = [
    "BUILTIN_DETECTOR",
    "FINDING_COLUMNS",
    "KIND_CATEGORY",
    "Category",
    "CoachDetector",
    "DetectorError",
    "Finding",
    "Severity",
    "Thresholds",
    "analyse",
    "analyse_record",
    "coach_findings",
    "parse_coach_detector",
]
