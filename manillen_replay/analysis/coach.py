"""Coach detectors: a named SQL query over the archive whose rows become findings.

A detector is a ``.sql`` file that starts with comment lines naming it::

    -- name: trump_into_void
    -- category: strategy
    -- severity: inaccuracy
    -- explanation: {player} led trump {card} in trick {trick} into a known void.
    SELECT match_id, deal, trick, play, seat, card FROM plays WHERE ...

This module reads the header and turns rows into :class:`Finding` values; running the query is
the archive's job (``Store.user_query``, read-only), so nothing here touches a database.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import Card
from ..errors import InvalidCardError, ManillenError
from .detectors import KIND_CATEGORY
from .findings import BUILTIN_DETECTOR, Category, Finding, Severity, Thresholds


class DetectorError(ManillenError):
    """A coach detector that cannot be used: a bad header, a missing column, a bad value."""


REQUIRED_COLUMNS = ("match_id", "deal", "trick", "play", "seat")
"""Columns every coach detector's query must return."""
OPTIONAL_COLUMNS = ("card", "better", "points", "severity", "explanation", "explanation_nl", "player")
"""Columns a coach detector's query may return to fill in more of each finding."""
HEADER_KEYS = ("name", "category", "severity", "thresholds", "explanation", "explanation_nl", "description")
"""The ``-- key: value`` lines a detector file's header may hold."""

_NAME = re.compile(r"^[a-z][a-z0-9_]{0,62}$")
_HEADER_LINE = re.compile(r"^--\s?([A-Za-z_]+)\s*:\s*(.*)$")
_CONTINUATION = re.compile(r"^--\s{2,}(\S.*)$")


@dataclass(frozen=True)
class CoachDetector:
    """A coach's detector: its name and defaults from the header, and its query."""

    name: str
    """The kind its findings get, also its scope in the archive (``findings.detector``)."""
    category: Category
    """The category of its findings (default ``strategy``)."""
    severity: Severity
    """The severity of its findings when the query gives none and no thresholds are set."""
    thresholds: Thresholds | None
    """When set, the severity follows from each row's ``points``."""
    explanation: str
    """An English template; ``{player}``, ``{card}``, ``{trick}``, ... are filled from the row."""
    explanation_nl: str
    """The Dutch template (the English one when the header gives none)."""
    description: str
    """What the detector looks for, for people."""
    sql: str
    """The query."""
    source: str
    """Where it came from, for messages."""


def parse_coach_detector(text: str, source: str = "<detector>") -> CoachDetector:
    """Read a coach detector from the text of its ``.sql`` file.

    >>> d = parse_coach_detector("-- name: late_manille\\nSELECT 1")
    >>> d.name, d.category.value, d.severity.value
    ('late_manille', 'strategy', 'inaccuracy')

    :param source: the file name, for messages.
    :raises DetectorError: for a missing or bad name, an unknown header key or value, or no query.
    """
    header: dict[str, str] = {}
    body: list[str] = []
    in_header = True
    last_key: str | None = None
    for line in text.splitlines():
        stripped = line.strip()
        if not in_header or not stripped.startswith("--"):
            if stripped or body:
                body.append(line)
            continue
        match = _HEADER_LINE.match(stripped)
        continuation = _CONTINUATION.match(stripped)
        if match:
            key = match.group(1).lower()
            if key not in HEADER_KEYS:
                raise DetectorError(
                    f"{source}: unknown header line {stripped!r}; known keys: {', '.join(HEADER_KEYS)}"
                )
            header[key] = match.group(2).strip()
            last_key = key
        elif continuation and last_key is not None:
            header[last_key] += " " + continuation.group(1).strip()
        else:
            # The first comment line that is not 'key: value' ends the header; free text follows.
            in_header = False
    sql = "\n".join(body).strip().rstrip(";").strip()
    name = header.get("name", "")
    if not name:
        raise DetectorError(
            f"{source}: the first comment lines must name the detector, e.g. '-- name: trump_into_void'"
        )
    if not _NAME.match(name):
        raise DetectorError(
            f"{source}: detector name {name!r} must be lower case letters, digits and '_', "
            "starting with a letter"
        )
    if name in KIND_CATEGORY or name == BUILTIN_DETECTOR:
        raise DetectorError(
            f"{source}: {name!r} is a built-in detector; give the coach detector its own name"
        )
    if not sql:
        raise DetectorError(f"{source}: the detector {name!r} has no query after its header")
    try:
        category = Category(header.get("category", "strategy").lower())
    except ValueError:
        names = ", ".join(c.value for c in Category)
        raise DetectorError(f"{source}: unknown category {header['category']!r}: use {names}") from None
    try:
        severity = Severity.parse(header.get("severity", "inaccuracy"))
    except ValueError as error:
        raise DetectorError(f"{source}: {error}") from None
    thresholds = _thresholds(header.get("thresholds"), source)
    explanation = header.get("explanation") or f"{{player}}: {name} in trick {{trick}} of deal {{deal}}."
    return CoachDetector(
        name=name,
        category=category,
        severity=severity,
        thresholds=thresholds,
        explanation=explanation,
        explanation_nl=header.get("explanation_nl") or explanation,
        description=header.get("description", ""),
        sql=sql,
        source=source,
    )


def _thresholds(text: str | None, source: str) -> Thresholds | None:
    if not text:
        return None
    try:
        values = [float(part) for part in text.replace(",", " ").split()]
    except ValueError:
        values = []
    if len(values) != 3 or not values[0] <= values[1] <= values[2]:
        raise DetectorError(
            f"{source}: thresholds {text!r} must be three rising numbers: inaccuracy, mistake, blunder "
            "(e.g. 1, 3, 5)"
        )
    return Thresholds(values[0], values[1], values[2])


def check_columns(detector: CoachDetector, columns: Sequence[str]) -> None:
    """Check that a detector's query returns the columns a finding needs.

    :raises DetectorError: naming the missing columns.
    """
    missing = [c for c in REQUIRED_COLUMNS if c not in columns]
    if missing:
        raise DetectorError(
            f"{detector.source}: the query of {detector.name!r} must return {', '.join(REQUIRED_COLUMNS)}; "
            f"missing: {', '.join(missing)}"
        )


class _Blank(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def coach_findings(
    detector: CoachDetector, rows: Iterable[Mapping[str, Any]], seats: Mapping[str, Sequence[str]]
) -> list[Finding]:
    """The findings of a coach detector from the rows its query returned.

    :param rows: one mapping per row, with at least the :data:`REQUIRED_COLUMNS`.
    :param seats: player names by seat for each match id, to name the player.
    :raises DetectorError: for a row whose card, severity or numbers cannot be read.
    """
    findings = []
    for number, row in enumerate(rows, start=1):
        where = f"{detector.source}: row {number} of {detector.name!r}"
        match = str(row["match_id"])
        deal, trick, play, seat = (_integer(row.get(c), c, where) for c in ("deal", "trick", "play", "seat"))
        names = seats.get(match, ())
        player = row.get("player")
        if player is None and seat is not None and 0 <= seat < len(names):
            player = names[seat]
        card = _card(row.get("card"), where)
        better = tuple(_card(text, where) for text in _texts(row.get("better")))
        points = _number(row.get("points"), where)
        severity = _severity(row.get("severity"), detector, points, where)
        fields = _Blank(row)
        fields.update(
            player=player or "",
            card="" if card is None else str(card),
            better=" ".join(str(c) for c in better if c is not None),
            points=f"{points:g}",
            match=match,
        )
        explanation = row.get("explanation") or detector.explanation.format_map(fields)
        explanation_nl = row.get("explanation_nl") or detector.explanation_nl.format_map(fields)
        findings.append(
            Finding(
                kind=detector.name,
                category=detector.category,
                severity=severity,
                match=match,
                deal=deal,
                trick=trick,
                play=play,
                seat=seat,
                player=None if player is None else str(player),
                card=card,
                better=tuple(c for c in better if c is not None),
                points=points,
                explanation=str(explanation),
                explanation_nl=str(explanation_nl),
                detector=detector.name,
            )
        )
    return findings


def _integer(value: Any, column: str, where: str) -> int | None:
    if value is None:
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        raise DetectorError(f"{where}: {column} must be a whole number, not {value!r}") from None


def _number(value: Any, where: str) -> float:
    if value is None:
        return 0.0
    try:
        return float(value)
    except (TypeError, ValueError):
        raise DetectorError(f"{where}: points must be a number, not {value!r}") from None


def _texts(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return value.replace(",", " ").split()
    return [str(v) for v in value if v is not None]


def _card(value: Any, where: str) -> Card | None:
    if value is None or value == "":
        return None
    try:
        return Card.parse(str(value).strip())
    except InvalidCardError:
        raise DetectorError(f"{where}: {value!r} is not a card (write cards as 10H, AS, KD ...)") from None


def _severity(value: Any, detector: CoachDetector, points: float, where: str) -> Severity:
    if value is not None and value != "":
        try:
            return Severity.parse(str(value))
        except ValueError as error:
            raise DetectorError(f"{where}: {error}") from None
    if detector.thresholds is not None:
        return detector.thresholds.severity(points)
    return detector.severity
