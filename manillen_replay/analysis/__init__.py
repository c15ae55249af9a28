"""The mistake finder: illegal plays, scoring and procedure problems, and coaching findings.

``analyse(result)`` runs every built-in detector over a replayed match; coach detectors written
in SQL are described by :mod:`.coach` and run through the archive. docs/findings.md defines each
detector and its severity thresholds.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from ..engine import MatchResult, replay
from ..engine.report import player_names
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

if TYPE_CHECKING:
    from .costs import PlayCost


def analyse(
    result: MatchResult,
    record: Record | None = None,
    *,
    strategy: bool = True,
    costs: Mapping[int, Sequence[PlayCost]] | None = None,
) -> list[Finding]:
    """Every built-in finding of a replayed match, ordered by deal, trick and play.

    :param result: the match as the engine replayed it (``decode_and_replay`` or ``replay``).
    :param record: the record it was replayed from, when at hand: it tells who knocked, so
        that ``klop_lost`` can name the player instead of the team.
    :param strategy: also run the strategy detectors; ``False`` gives the rule, scoring and
        procedure findings only (``manillen analyze --depth rules``).
    :param costs: the solver's costs by deal number (``manillen_replay.analysis.costs.view_costs``):
        with them ``missed_vetten``, ``bare_ace_lost`` and ``wasted_trump`` stand only when the
        better card was really better from the player's view, and take their points from it.
    """
    found = MatchAnalysis(result, record, strategy=strategy, costs=costs).run()
    return sorted(_by_decider(found, result), key=sort_key)


def _by_decider(findings: Iterable[Finding], result: MatchResult) -> Iterator[Finding]:
    """The findings, each filed under who chose the card: a card of the dummy of ``three_dummy``
    is the dealer's decision (the dealer plays it), so its finding is the dealer's, as
    ``deal_seats`` and ``plays`` credit the card; its seat, and the words, still say it was the
    dummy's."""
    shape = result.rules.shape
    deals = {deal.number: deal for deal in result.deals}
    for finding in findings:
        deal = deals.get(finding.deal) if finding.deal is not None else None
        if deal is None or finding.seat is None or finding.seat < shape.people:
            yield finding
            continue
        yield replace(finding, player=player_names(result, deal)[finding.seat])


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
