"""What the mistake finder reports: a :class:`Finding`, its category and its severity."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ..cards import Card


class Category(StrEnum):
    """The four families of findings; the value is what the archive and the JSON hold."""

    RULE = "rule"
    """An illegal play (verzaken, not overtaking, not buying, onderkopen)."""
    SCORING = "scoring"
    """The scoresheet says something else than the cards."""
    PROCEDURE = "procedure"
    """The table did something out of order (who dealt, playing on after the match)."""
    STRATEGY = "strategy"
    """A legal play or call that cost points."""


class Severity(StrEnum):
    """How much a finding matters, lowest first (lichess's inaccuracy, mistake, blunder)."""

    INFO = "info"
    """Worth knowing; no points at stake or none measurable."""
    INACCURACY = "inaccuracy"
    """A small loss."""
    MISTAKE = "mistake"
    """A clear loss."""
    BLUNDER = "blunder"
    """A big loss."""

    @property
    def level(self) -> int:
        """The order of severities: info 0 up to blunder 3."""
        return _LEVELS[self]

    @classmethod
    def parse(cls, text: str) -> Severity:
        """The severity named by ``text`` (any case).

        >>> Severity.parse("Mistake")
        <Severity.MISTAKE: 'mistake'>

        :raises ValueError: for a name that is not a severity.
        """
        try:
            return cls(text.strip().lower())
        except ValueError:
            names = ", ".join(s.value for s in cls)
            raise ValueError(f"unknown severity {text!r}: use {names}") from None


_LEVELS = {Severity.INFO: 0, Severity.INACCURACY: 1, Severity.MISTAKE: 2, Severity.BLUNDER: 3}


@dataclass(frozen=True)
class Thresholds:
    """The points at stake from which a finding is an inaccuracy, a mistake, a blunder.

    Below ``inaccuracy`` a finding is ``info``. docs/findings.md lists each detector's values.
    """

    inaccuracy: float
    """Lowest points for an inaccuracy."""
    mistake: float
    """Lowest points for a mistake."""
    blunder: float
    """Lowest points for a blunder."""

    def severity(self, points: float) -> Severity:
        """The severity of a finding with this many points at stake.

        >>> Thresholds(1, 3, 5).severity(4)
        <Severity.MISTAKE: 'mistake'>
        """
        if points >= self.blunder:
            return Severity.BLUNDER
        if points >= self.mistake:
            return Severity.MISTAKE
        if points >= self.inaccuracy:
            return Severity.INACCURACY
        return Severity.INFO


COST_THRESHOLDS = Thresholds(2.0, 4.0, 8.0)
"""A card judged by the solver: the card points it lost on average from the player's view (its
view cost), not doubled by the deal's multiplier: inaccuracy from 2, mistake from 4, blunder from 8."""


BUILTIN_DETECTOR = "builtin"
"""The detector name of every built-in finding (the archive's scope for re-analysis)."""


@dataclass(frozen=True)
class Finding:
    """One thing the finder noticed in a match, with where, who, what and why."""

    kind: str
    """What was found: ``missed_vetten``, ``revoke``, ... or a coach detector's name."""
    category: Category
    """Rule, scoring, procedure or strategy."""
    severity: Severity
    """Info, inaccuracy, mistake or blunder, from the points at stake."""
    match: str
    """The match id."""
    deal: int | None
    """The deal, counted from 1; ``None`` for a finding about the whole match."""
    trick: int | None
    """The trick, counted from 1; ``None`` for a finding about a whole deal or match."""
    play: int | None
    """The position in the trick, counted from 1; ``None`` when not about one card."""
    seat: int | None
    """The seat (from 0) the finding is about; ``None`` for the table as a whole."""
    player: str | None
    """Who the finding is about: the seat's player (both names for a team); for a card of the
    dummy of ``three_dummy``, the dealer, who chose it (the seat says it was the dummy's)."""
    card: Card | None
    """The card played, when the finding is about a play."""
    better: tuple[Card, ...]
    """The better card or cards (for an illegal play: the legal ones)."""
    points: float
    """The points at stake on the scoresheet (card points times the deal's multiplier)."""
    explanation: str
    """Why, in English, in the players' own words."""
    explanation_nl: str
    """Why, in Dutch (Flemish), in the players' own words."""
    detector: str = BUILTIN_DETECTOR
    """``builtin`` or the name of the coach detector that made it."""

    def to_json(self, lang: str = "en", *, people: int | None = None) -> dict[str, Any]:
        """The finding in the ``manillen findings --json`` contract (docs/findings.md).

        :param lang: ``en`` or ``nl``: which explanation goes in ``explanation``; both are
            also given as ``explanation_en`` and ``explanation_nl``.
        :param people: how many people play the match's game: a seat past them is the dummy of
            ``three_dummy`` (``dummy``: its card, filed under the dealer who chose it).
        """
        return {
            "match": self.match,
            **self._place_and_kind(),
            "points": self.points,
            "explanation": self.explanation_nl if lang == "nl" else self.explanation,
            "explanation_en": self.explanation,
            "explanation_nl": self.explanation_nl,
            "detector": self.detector,
            "dummy": people is not None and self.seat is not None and self.seat >= people,
        }

    def to_row(self) -> dict[str, Any]:
        """The finding as a row of the archive's ``findings`` table (without id and detector)."""
        return {
            "match_id": self.match,
            **self._place_and_kind(),
            "points": float(self.points),
            "explanation": self.explanation,
            "explanation_nl": self.explanation_nl,
        }

    def _place_and_kind(self) -> dict[str, Any]:
        """Where the finding is and what it is: the fields the JSON contract and the archive row share."""
        return {
            "deal": self.deal,
            "trick": self.trick,
            "play": self.play,
            "seat": self.seat,
            "player": self.player,
            "kind": self.kind,
            "category": self.category.value,
            "severity": self.severity.value,
            "card": None if self.card is None else str(self.card),
            "better": [str(card) for card in self.better],
        }


FINDING_COLUMNS: tuple[str, ...] = (
    "match_id",
    "deal",
    "trick",
    "play",
    "seat",
    "player",
    "kind",
    "category",
    "severity",
    "card",
    "better",
    "points",
    "explanation",
    "explanation_nl",
)
"""The columns of :meth:`Finding.to_row`, in the archive's order."""


def finding_columns(findings: Sequence[Finding]) -> dict[str, list[Any]]:
    """The rows of :meth:`Finding.to_row` a column at a time (:data:`FINDING_COLUMNS`): what
    the scan stores, built without a row's dictionary for each finding (a million deals give
    some 400,000 findings).

    >>> finding = Finding("revoke", Category.RULE, Severity.MISTAKE, "m", 1, 2, 3, 0, "Anna",
    ...                   Card.parse("AH"), (Card.parse("7H"),), 4, "en", "nl")
    >>> finding_columns([finding]) == {name: [value] for name, value in finding.to_row().items()}
    True
    """
    return {
        "match_id": [f.match for f in findings],
        "deal": [f.deal for f in findings],
        "trick": [f.trick for f in findings],
        "play": [f.play for f in findings],
        "seat": [f.seat for f in findings],
        "player": [f.player for f in findings],
        "kind": [f.kind for f in findings],
        "category": [f.category.value for f in findings],
        "severity": [f.severity.value for f in findings],
        "card": [None if f.card is None else str(f.card) for f in findings],
        "better": [[str(card) for card in f.better] for f in findings],
        "points": [float(f.points) for f in findings],
        "explanation": [f.explanation for f in findings],
        "explanation_nl": [f.explanation_nl for f in findings],
    }


def sort_key(finding: Finding) -> tuple[str, int, int, int, str]:
    """Order of findings: by match, deal, trick and play (whole-deal findings first), then kind."""
    return (finding.match, finding.deal or 0, finding.trick or 0, finding.play or 0, finding.kind)
