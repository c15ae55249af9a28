"""Your biggest mistakes: one finding per decision, the costliest first.

A **decision** is a card played (match, deal, trick, play) or a call (match, deal, who called,
and which call: the trump call, muil included, or the knock). Several findings can stand at one
decision (a detector's and the solver's); the ranking keeps one, the most severe. Decisions are
ranked by what they cost **from the player's own view, in points of the score**
(``view_points``): for a card, the solver's view cost (the card points given away on average
over the layouts the player could not tell apart) times the deal's multiplier, which is what
those card points are worth in the score (a muil or a klop counts them twice); for a call, the
expected deal score given away. So a card and a call are weighed in one unit, the costliest
first. A broken rule (a revoke: the solver does not cost an illegal card) is weighed by its
points at stake, the penalty it risks, among the costed ones: a revoke left after every costed
card was missing from a report's three costliest decisions. Other findings the solver did not
cost (the ``heuristic`` depth) come after every costed one, by their points at stake. ``info``
findings are never ranked, nor those that are no player's decision (a scoresheet that disagrees
with the cards, a dealer out of turn).

The rule is defined once, here, as column names and orders: :func:`rank_findings` applies it to
findings in Python (``manillen findings FILE --top N``), and
:meth:`manillen_replay.store.Store.biggest_mistakes` turns the same constants into SQL window
functions over the archive.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .findings import Category, Finding, Severity

CALL_OF_KIND: Mapping[str, str] = {
    "trump_choice": "trump",
    "muil_missed": "trump",
    "knock_choice": "klop",
    "klop_missed": "klop",
    "klop_lost": "klop",
}
"""The call a whole-deal finding judges, named as ``call_decisions.call`` names it: ``trump``
(trump or muil) or ``klop``. Another finding without a trick is a decision of its own kind."""

DECISION_COLUMNS: tuple[str, ...] = ("match_id", "deal", "trick", "play", "seat", "call")
"""What one decision is: findings equal in these columns are about the same decision (``call``
is ``None`` for a card, else :data:`CALL_OF_KIND`'s name or the finding's kind)."""

SEVERITY_ORDER: tuple[str, ...] = tuple(s.value for s in Severity)
"""The severities, lowest first: ``severity_level`` is the index in this list."""

RANKED_SEVERITIES: tuple[str, ...] = tuple(s.value for s in Severity if s is not Severity.INFO)
"""The severities that are ranked (``info`` is left out)."""

RANKED_CATEGORIES: tuple[str, ...] = (Category.RULE.value, Category.STRATEGY.value)
"""The categories that are a player's decision: a card or a call, legal or not. A scoresheet
that disagrees with the cards (``scoring``) or a dealer out of turn (``procedure``) is how the
table kept the game, not a decision of a player, so it is never among the biggest mistakes."""

KEEP_ORDER: tuple[tuple[str, bool], ...] = (("severity_level", True), ("points", True), ("kind", False))
"""Which finding of a decision is kept: the first in this order, ``(column, descending)``: the
most severe, then the most points, then by kind's name."""


def real_teaches(real_gap: int, view_gap: int | None) -> bool:
    """Whether a costly card's reason is told on the real hands rather than on a layout of the
    hidden cards: the better card takes more than the card played on the real hands too, and
    at least half as much more as on the layout chosen from the player's view (the one whose
    values lie closest to the view cost). A real deal where the card cost 1 point told a card
    that cost 12.6 on average, and read as if it hardly mattered.

    :param real_gap: what the better card takes more than the card played, with every hand known.
    :param view_gap: the same on the layout chosen (``None``: there is none).

    >>> real_teaches(10, 12), real_teaches(1, 12), real_teaches(0, 0), real_teaches(3, None)
    (True, False, False, True)
    >>> real_teaches(6, 12), real_teaches(5, 12)  # exactly half is enough
    (True, False)
    """
    return real_gap > 0 and (view_gap is None or 2 * real_gap >= view_gap)


def told_on_real(lines: Iterable[Mapping[str, Any]]) -> bool:
    """Whether a costly card's reason is told on the real hands (:func:`~.reasons.reason_for`,
    :func:`real_teaches`). The report and the Deal replay then show its better line on the real
    hands first.

    :param lines: the ``finding_lines`` rows of the play (any columns beside ``line``,
        ``layout`` and ``team_points``).

    >>> rows = [{"line": "played", "layout": "real", "team_points": 21},
    ...         {"line": "better", "layout": "real", "team_points": 31},
    ...         {"line": "played", "layout": "view", "team_points": 18},
    ...         {"line": "better", "layout": "view", "team_points": 30}]
    >>> told_on_real(rows), told_on_real(rows[:1]), told_on_real(rows[:2])
    (True, False, True)
    >>> rows[3]["team_points"] = 40
    >>> told_on_real(rows)
    False
    """
    taken: dict[tuple[str, str], int] = {}
    for row in lines:
        taken.setdefault((str(row["layout"]), str(row["line"])), int(row["team_points"]))
    if ("real", "better") not in taken or ("real", "played") not in taken:
        return False
    view = ("view", "better") in taken and ("view", "played") in taken
    view_gap = taken["view", "better"] - taken["view", "played"] if view else None
    return real_teaches(taken["real", "better"] - taken["real", "played"], view_gap)


RANK_ORDER: tuple[tuple[str, bool], ...] = (
    ("rank_points", True),
    ("points", True),
    ("severity_level", True),
    ("dd_cost", True),
    ("match_id", False),
    ("deal", False),
    ("trick", False),
    ("play", False),
    ("seat", False),
)
"""The order of the decisions, ``(column, descending)``; a missing value (``None``, SQL's NULL)
comes last in every column, so the findings without a view cost follow every costed one.
``rank_points`` is ``view_points``, or a broken rule's points at stake (:func:`rank_points`)."""


def rank_points(view_points: float | None, category: str, points: float | None) -> float | None:
    """What ranks a decision: its view cost in points of the score, or for a broken rule (which
    the solver does not cost) its points at stake; ``None`` for any other finding not costed.

    >>> rank_points(4.5, "strategy", 8.0), rank_points(None, "rule", 30.0), rank_points(None, "strategy", 8.0)
    (4.5, 30.0, None)
    """
    if view_points is not None:
        return view_points
    return points if category == Category.RULE.value else None


MEASURES: Mapping[str, str] = {
    "view": "from what the player could see",
    "hindsight": "with every hand known",
    "points": "points at stake (not solver-costed)",
}
"""The names of the measures, for a person: the view cost, the hindsight (double-dummy) cost,
and a heuristic finding's points."""


def call_of(kind: str, trick: int | None) -> str | None:
    """The call a finding is about (:data:`CALL_OF_KIND`), ``None`` for a card (a finding with a trick).

    >>> call_of("knock_choice", None), call_of("costly_card", 3), call_of("score_mismatch", None)
    ('klop', None, 'score_mismatch')
    """
    if trick is not None:
        return None
    return CALL_OF_KIND.get(kind, kind)


Cost = tuple[float | None, float | None, int, tuple[str, ...]]
"""What the solver said of one decision: ``(view cost, hindsight cost, multiplier, hindsight
best)``, the multiplier being the deal's for a card (its card points count that many times in the
score) and 1 for a call (its cost is in points of the score already); the hindsight best, the
cards the hindsight cost is counted against (none for a call)."""

Costs = Mapping[tuple[Any, ...], Cost]
"""What the solver said of each decision, by its :data:`DECISION_COLUMNS` values."""


@dataclass(frozen=True)
class RankedFinding:
    """A decision's finding, with what the decision cost."""

    finding: Finding
    """The finding kept for the decision."""
    view_cost: float | None
    """What it cost from the player's view (card points for a card, the expected deal score
    for a call); ``None`` when the solver did not cost it."""
    dd_cost: float | None
    """What it cost with every hand known (card points), ``None`` when not costed."""
    multiplier: int = 1
    """What a card point of the deal counts in the score (the deal's multiplier; 1 for a call)."""
    hindsight_best: tuple[str, ...] = ()
    """The best cards with every hand known, which ``dd_cost`` is counted against."""

    @property
    def view_points(self) -> float | None:
        """The view cost in points of the score: what ranks it."""
        return None if self.view_cost is None else self.view_cost * self.multiplier

    @property
    def measure(self) -> str:
        """Which cost ranks it: ``view`` (the solver's view cost) or ``points`` (a heuristic finding's)."""
        return "view" if self.view_cost is not None else "points"


def decision_of(row: Mapping[str, Any]) -> tuple[Any, ...]:
    """The decision of a finding row (``Finding.to_row()`` with ``call``): its :data:`DECISION_COLUMNS`."""
    return tuple(row[column] for column in DECISION_COLUMNS)


def order_key(row: Mapping[str, Any], order: Iterable[tuple[str, bool]]) -> tuple[Any, ...]:
    """A sort key for a row following ``order`` (``(column, descending)``, missing values last)."""
    key: list[Any] = []
    for column, descending in order:
        value = row[column]
        if value is None:
            key.append((1, 0))
        elif descending:
            if isinstance(value, str):
                raise TypeError(f"cannot order the text column {column!r} descending")
            key.append((0, -value))
        else:
            key.append((0, value))
    return tuple(key)


def _row(finding: Finding, costs: Costs) -> dict[str, Any]:
    row = finding.to_row()
    row["call"] = call_of(finding.kind, finding.trick)
    row["severity_level"] = SEVERITY_ORDER.index(finding.severity.value)
    view, hindsight, multiplier, best = costs.get(decision_of(row), (None, None, 1, ()))
    row["view_cost"] = None if view is None else max(0.0, float(view))
    row["view_points"] = None if view is None else row["view_cost"] * multiplier
    row["rank_points"] = rank_points(row["view_points"], finding.category.value, finding.points)
    row["dd_cost"] = hindsight
    row["multiplier"] = multiplier
    row["hindsight_best"] = list(best)
    return row


def rank_findings(
    findings: Iterable[Finding],
    costs: Costs | None = None,
    *,
    player: str | None = None,
    top: int | None = None,
) -> list[RankedFinding]:
    """The costliest decisions among ``findings``, one finding per decision, the costliest first.

    :param costs: the solver's costs of the decisions (:func:`costs_of_plays`); without them every
        finding is ranked by its points.
    :param player: only this player's decisions (any case).
    :param top: at most this many (all when ``None``).
    """
    rows = [
        (_row(f, costs or {}), f)
        for f in findings
        if f.severity is not Severity.INFO
        and f.category.value in RANKED_CATEGORIES
        and (player is None or (f.player or "").lower() == player.lower())
    ]
    kept: dict[tuple[Any, ...], tuple[dict[str, Any], Finding]] = {}
    for row, finding in sorted(rows, key=lambda pair: order_key(pair[0], KEEP_ORDER)):
        kept.setdefault(decision_of(row), (row, finding))
    ranked = sorted(kept.values(), key=lambda pair: order_key(pair[0], RANK_ORDER))
    if top is not None:
        ranked = ranked[: max(0, top)]
    return [
        RankedFinding(
            finding, row["view_cost"], row["dd_cost"], row["multiplier"], tuple(row["hindsight_best"])
        )
        for row, finding in ranked
    ]


def costs_of_plays(
    match: str,
    plays: Iterable[tuple[int, int, int, int, float | None, float | None, int, tuple[str, ...]]],
    calls: Iterable[tuple[int, int, str, float | None]] = (),
) -> dict[tuple[Any, ...], Cost]:
    """The :data:`Costs` of one match from the solver's results.

    :param plays: ``(deal, trick, play, seat, view cost, hindsight cost, the deal's multiplier,
        the hindsight best cards)`` of each play.
    :param calls: ``(deal, seat, call, loss)`` of each reviewed call (``trump`` or ``klop``).
    """
    out: dict[tuple[Any, ...], Cost] = {
        (match, deal, trick, play, seat, None): (view, hindsight, multiplier, best)
        for deal, trick, play, seat, view, hindsight, multiplier, best in plays
    }
    for deal, seat, call, loss in calls:
        out[(match, deal, None, None, seat, call)] = (loss, None, 1, ())
    return out


MEASURES_NL: Mapping[str, str] = {
    "view": "met wat de speler kon zien",
    "hindsight": "met alle kaarten open",
    "points": "punten op het spel (niet door de solver berekend)",
}
""":data:`MEASURES` in Dutch."""


def hindsight_against(
    card: str | None, better: Sequence[str], hindsight_best: Sequence[str]
) -> tuple[str, ...]:
    """The cards a hindsight cost is to be said against: the best cards with every hand known,
    when the better card named first is none of them (the cost read as that card's); else none.

    >>> hindsight_against("8S", ["AS"], ["QD"]), hindsight_against("8S", ["QD", "AS"], ["QD"])
    (('QD',), ())
    """
    best = tuple(c for c in hindsight_best if c != card)
    return best if best and better and better[0] not in best else ()


def row_cost_in_words(row: Mapping[str, Any], lang: str = "en") -> str:
    """:func:`cost_in_words` of a ranked row (:meth:`Store.biggest_mistakes
    <manillen_replay.store.Store.biggest_mistakes>`' or :func:`rank_findings`')."""
    against = hindsight_against(row.get("card"), row.get("better") or (), row.get("hindsight_best") or ())
    words = cost_in_words(
        row["view_cost"], row["dd_cost"], row["points"], row["call"], lang, row.get("multiplier"), against
    )
    return words + graded_words(row, lang)


def graded_words(row: Mapping[str, Any], lang: str = "en") -> str:
    """Why a costly card or call is graded below what its average cost alone would make it: it is
    judged by what it surely cost over the layouts solved ("21.2 points ... inaccuracy" at the top
    of a ranking read as a contradiction). Empty where the two agree, or for other kinds.

    >>> graded_words({"kind": "costly_card", "view_cost": 10.6, "severity": "inaccuracy"})
    '; graded an inaccuracy: its cost differs too much from layout to layout to be sure'
    >>> graded_words({"kind": "costly_card", "view_cost": 10.6, "severity": "blunder"})
    ''
    """
    from .findings import COST_THRESHOLDS
    from .solver_findings import CALL_THRESHOLDS, WORD_KINDS
    from .words import severity_name

    # a missed or lost klop is judged as a knock_choice is, by the knock review's sure loss; a
    # finding in words that took a costly card's place took its grade too (curate)
    thresholds = {
        **dict.fromkeys(WORD_KINDS, COST_THRESHOLDS),
        "costly_card": COST_THRESHOLDS,
        "trump_choice": CALL_THRESHOLDS,
        "knock_choice": CALL_THRESHOLDS,
        "klop_missed": CALL_THRESHOLDS,
        "klop_lost": CALL_THRESHOLDS,
    }
    kind, view, severity = row.get("kind"), row.get("view_cost"), row.get("severity")
    if kind not in thresholds or view is None or severity not in SEVERITY_ORDER:
        return ""
    plain = thresholds[kind].severity(float(view)).value
    if SEVERITY_ORDER.index(severity) >= SEVERITY_ORDER.index(plain):
        return ""
    if lang == "nl":
        return (
            f"; beoordeeld als {severity_name(severity, 'nl')}: de kost verschilt te sterk van verdeling "
            "tot verdeling om zeker te zijn"
        )
    # "info" is a note in the findings' words ("so this is a note, not a mistake")
    named = (
        "a note" if severity == "info" else f"an {severity}" if severity[0] in "aeiou" else f"a {severity}"
    )
    return f"; graded {named}: its cost differs too much from layout to layout to be sure"


def cost_in_words(
    view_cost: float | None,
    dd_cost: float | None,
    points: float | None,
    call: str | None,
    lang: str = "en",
    multiplier: int | None = 1,
    against: Sequence[str] = (),
) -> str:
    """What a ranked decision cost, with the measure named; a card of a deal that counts its
    card points more than once (``multiplier``) in points of the score first, as it is ranked.

    :param against: the cards the hindsight cost is counted against, to name
        (:func:`hindsight_against`).

    >>> cost_in_words(4.5, 9, 9.0, None)
    '4.5 card points from what the player could see (9 with every hand known)'
    >>> cost_in_words(2.1, 10, 2.1, None, against=["QD"])
    '2.1 card points from what the player could see (10 with every hand known, against Q♦)'
    >>> cost_in_words(11.14, 0, 22.28, None, multiplier=2).split(" (")[0]
    '22.3 points of the score from what the player could see'
    >>> cost_in_words(11.14, 0, 22.28, None, multiplier=2).split(" (")[1]
    '11.14 card points, counted twice in this deal; 0 card points with every hand known)'
    >>> cost_in_words(6.95, 8, 13.9, None, multiplier=2).split(" (")[1]
    '6.95 card points, counted twice in this deal; 8 card points with every hand known)'
    >>> cost_in_words(12.6, 1, 25.2, None, multiplier=2).split("; ")[1]
    '1 card point with every hand known)'
    >>> cost_in_words(7.26, None, 7.3, "trump")
    "7.3 points of the deal's expected score from what the player could see"
    >>> cost_in_words(10.745, None, 10.75, "trump").split(" of")[0]
    '10.8 points'
    >>> cost_in_words(None, None, 3.0, None, "nl")
    '3 punten op het spel (niet door de solver berekend)'
    """
    from ..cards import Card
    from .words import (
        card_points_counted,
        counted_en,
        counted_nl,
        number,
        number_nl,
        or_en,
        or_nl,
        points_en,
        points_nl,
    )

    dutch = lang == "nl"
    measures = MEASURES_NL if dutch else MEASURES
    amount = points_nl if dutch else points_en
    if view_cost is None:
        return f"{(number_nl if dutch else number)(points or 0.0)} {measures['points']}"
    if call is not None:
        # to the tenth of the finding's stored points, as its words give them: the loss itself,
        # 10.745, said "10.7" here beside the list's "10.8" of the 10.75 stored
        of_score = "van de verwachte score van het spel" if dutch else "of the deal's expected score"
        said = view_cost if points is None else points
        return f"{amount(said)} {of_score} {measures['view']}"
    factor = multiplier or 1
    # to two decimals where one would not multiply out: 6.95 x 2 is the 13.9 shown, 7 x 2 not
    card_points = card_points_counted(view_cost, factor, lang)
    hindsight = None
    if dd_cost is not None:
        # in a deal that counts twice the headline is in points of the score: this one is not
        single = round(dd_cost, 1) == 1
        unit = (
            ""
            if factor == 1
            else (" kaartpunt" if single else " kaartpunten")
            if dutch
            else (" card point" if single else " card points")
        )
        hindsight = f"{(number_nl if dutch else number)(round(dd_cost, 1))}{unit} {measures['hindsight']}"
        if against and dd_cost > 0:
            cards = [Card.parse(c) for c in against]
            hindsight += f", tegenover de {or_nl(cards)}" if dutch else f", against {or_en(cards)}"
    if factor == 1:
        return f"{card_points} {measures['view']}" + (f" ({hindsight})" if hindsight else "")
    of_score = "van de score" if dutch else "of the score"
    counted = (
        f"{card_points}, {counted_nl(factor)} geteld in dit spel"
        if dutch
        else f"{card_points}, counted {counted_en(factor)} in this deal"
    )
    detail = f"{counted}; {hindsight}" if hindsight else counted
    return f"{amount(round(view_cost * factor, 2))} {of_score} {measures['view']} ({detail})"
