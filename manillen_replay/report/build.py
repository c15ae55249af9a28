"""What a report shows, gathered from a match's archive rows and its replay: pure, no I/O.

:func:`gather` takes the match's rows as the store hands them (:class:`ReportTables`) and the
replayed match, and returns a :class:`Report`: plain values for :mod:`.render` to draw.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from ..cards import Card, CardSet, Suit
from ..engine import DealKind, DealResult, MatchResult, replay
from ..errors import ManillenError
from ..record import loads
from ..rules import Contract

COSTLIEST = 5
"""How many of the costliest decisions a report shows."""


@dataclass(frozen=True)
class ReportTables:
    """A match's rows from the archive, as ``Store.report_tables`` returns them."""

    record: str
    """The match in the record format (canonical JSON)."""
    costs: pl.DataFrame
    """``play_costs`` rows of the match."""
    values: pl.DataFrame
    """``card_values`` rows of the match."""
    findings: pl.DataFrame
    """``findings`` rows of the match."""
    annotations: pl.DataFrame
    """``annotations`` rows of the match."""
    deal_ledger: pl.DataFrame
    """``deal_ledger`` rows of the match."""
    player_ledger: pl.DataFrame
    """``player_ledger`` rows of the match (scope ``match``)."""
    accuracy: pl.DataFrame
    """``player_accuracy`` rows of the match (scopes ``match`` and ``deal``)."""


@dataclass(frozen=True, slots=True)
class Comment:
    """A coach's (or player's) comment, and where it belongs."""

    deal: int
    trick: int | None
    play: int | None
    author: str
    text: str
    tags: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class DealLine:
    """One deal of the match as the deal list shows it."""

    number: int
    dealer: str
    kind: DealKind
    contract: Contract | None
    trump: Suit | None
    en_face: bool
    knocks: int
    multiplier: int | None
    points: tuple[int, int] | None
    scoring_team: int | None
    """The team that scored (``None``: nobody, or not known)."""
    scored: int
    tie: bool
    match_score: tuple[int, ...]
    comments: tuple[Comment, ...]
    """Every comment on the deal, its tricks and plays."""
    ledger: tuple[dict[str, Any], ...] = ()
    """The ``deal_ledger`` rows of the deal, one per team (empty when not costed)."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One costly card, with the table as it was when it was played."""

    deal: int
    trick: int
    play: int
    seat: int
    player: str
    card: Card
    view_cost: float
    dd_cost: int
    better: Card | None
    """The best card from the player's view (the best with hindsight when no view was computed)."""
    better_view_cost: float | None
    better_dd_cost: int | None
    explanation: str
    """The finding's explanation in the report's language, or empty."""
    hands: tuple[CardSet, ...]
    """What each seat held just before the card (the player's hand still with it)."""
    table: tuple[tuple[int, Card], ...]
    """``(seat, card)`` already on the table in the trick."""
    names: tuple[str, ...]
    dealer: int
    trump: Suit | None
    comments: tuple[Comment, ...]
    """Comments on this play or its trick."""
    contract: Contract | None = None
    """The deal's contract (``TRUMP`` with :attr:`trump` its suit, ``MUIL``...)."""
    en_face: bool = False
    knocks: int = 0


@dataclass(frozen=True, slots=True)
class PlayerLine:
    """One player's accuracy and ledger over the match."""

    name: str
    team: int
    accuracy: float | None
    cards_chosen: int
    ledger: dict[str, Any] | None


@dataclass(frozen=True)
class Report:
    """Everything one report shows."""

    match_id: str
    lang: str
    player: str | None
    """The player the report is for, ``None`` for everyone."""
    date: str | None
    venue: str | None
    event: str | None
    team_names: tuple[str, str]
    finished: bool
    final_score: tuple[int, ...]
    winner: int | None
    deals: tuple[DealLine, ...]
    players: tuple[PlayerLine, ...]
    decisions: tuple[Decision, ...]
    match_comments: tuple[Comment, ...] = ()
    costed: bool = False
    samples: int | None = None
    """The most layouts any play's view cost averaged (the ``--samples`` of the analysis)."""
    extra: dict[str, Any] = field(default_factory=dict)
    first_team: int = 0
    """The team every table, chart and score of the report shows first: the player's team, or
    the first seat's team in a report for everyone."""

    @property
    def team_order(self) -> tuple[int, int]:
        """The two teams in the order the report shows them, :attr:`first_team` first."""
        return (self.first_team, 1 - self.first_team)


def _rows(frame: pl.DataFrame) -> list[dict[str, Any]]:
    return list(frame.iter_rows(named=True))


def _comments(frame: pl.DataFrame) -> list[Comment]:
    out = [
        Comment(
            deal=int(row["deal"]),
            trick=row["trick"],
            play=row["play"],
            author=row["author"] or "",
            text=row["text"] or "",
            tags=tuple(row.get("tags") or ()),
        )
        for row in _rows(frame)
    ]
    return sorted(out, key=lambda c: (c.deal, c.trick or 0, c.play or 0))


def _hands_before(
    deal: DealResult, trick: int, play: int
) -> tuple[tuple[CardSet, ...], tuple[tuple[int, Card], ...]]:
    """Each seat's cards just before the play, and the cards on the table then."""
    assert deal.hands is not None
    hands = [int(h) for h in deal.hands]
    table: list[tuple[int, Card]] = []
    for result in deal.tricks:
        for position, (seat, card) in enumerate(zip(result.seats, result.cards, strict=True), start=1):
            if (result.number, position) == (trick, play):
                return tuple(CardSet(h) for h in hands), tuple(table)
            if result.number == trick:
                table.append((seat, card))
            hands[seat] &= ~(1 << int(card))
    raise ManillenError(f"deal {deal.number} has no trick {trick} play {play}")


def gather(tables: ReportTables, *, player: str | None = None, lang: str = "en") -> Report:
    """The report of one match, for one player or (``player=None``) for everyone.

    :param tables: the match's archive rows.
    :param player: a player of the match (any case), or ``None``.
    :param lang: ``en`` or ``nl``: the language of the explanations.
    :raises ManillenError: for a player who did not play in the match, or a record that no
        longer replays.
    """
    record = loads(tables.record, source="the archive")
    match = replay(record, source="the archive")
    info = record.match
    names_by_deal = {deal.number: (deal.names or list(match.seats)) for deal in match.deals}
    everyone = sorted({name for names in names_by_deal.values() for name in names} | set(match.seats))
    chosen: str | None = None
    if player is not None:
        chosen = next((name for name in everyone if name.lower() == player.lower()), None)
        if chosen is None:
            raise ManillenError(
                f"{player!r} did not play in match {match.id!r}: the players are {', '.join(everyone)}"
            )
    comments = _comments(tables.annotations)
    ledger_rows = _rows(tables.deal_ledger)
    deals = tuple(
        DealLine(
            number=deal.number,
            dealer=names_by_deal[deal.number][deal.dealer],
            kind=deal.kind,
            contract=deal.contract,
            trump=deal.trump,
            en_face=deal.en_face,
            knocks=deal.knocks,
            multiplier=deal.multiplier,
            points=deal.points,
            scoring_team=deal.score.team if deal.score is not None else None,
            scored=deal.score.points if deal.score is not None else 0,
            tie=deal.tie,
            match_score=tuple(deal.match_score),
            comments=tuple(c for c in comments if c.deal == deal.number),
            ledger=tuple(
                sorted((r for r in ledger_rows if r["deal"] == deal.number), key=lambda r: r["team"])
            ),
        )
        for deal in match.deals
    )
    shape = match.rules.shape
    team_names = tuple(
        " & ".join(match.seats[s] for s in range(len(match.seats)) if shape.team_of(s, 0) == side)
        for side in (0, 1)
    )
    accuracy = {
        row["player"]: row
        for row in _rows(tables.accuracy)
        if row["scope"] == "match" and row["player"] is not None
    }
    ledgers = {row["player"]: row for row in _rows(tables.player_ledger)}
    shown = [chosen] if chosen is not None else list(match.seats)
    lines = [
        PlayerLine(
            name=name,
            team=shape.team_of(match.seats.index(name), 0) if name in match.seats else 0,
            accuracy=accuracy[name]["accuracy"] if name in accuracy else None,
            cards_chosen=int(accuracy[name]["cards"]) if name in accuracy else 0,
            ledger=ledgers.get(name),
        )
        for name in shown
    ]
    # one team order in the whole report: the player's team first (the first seat's for everyone),
    # and the players of the first team before the others (in seat order within a team)
    first_team = 1 if chosen is not None and lines and lines[0].team == 1 else 0
    players = tuple(sorted(lines, key=lambda line: line.team != first_team))
    decisions = tuple(_costliest(tables, match, names_by_deal, chosen, lang, comments))
    samples = int(tables.costs["layouts"].max() or 0) if tables.costs.height else None  # type: ignore[arg-type]
    return Report(
        match_id=match.id,
        lang=lang,
        player=chosen,
        date=str(info.date) if isinstance(info.date, datetime.date) else None,
        venue=info.venue if isinstance(info.venue, str) else None,
        event=info.event if isinstance(info.event, str) else None,
        team_names=(team_names[0], team_names[1]),
        finished=match.finished,
        final_score=tuple(match.final_score if match.finished else match.score),
        winner=match.winner,
        deals=deals,
        players=players,
        decisions=decisions,
        costed=tables.costs.height > 0,
        samples=samples or None,
        first_team=first_team,
    )


def _costliest(
    tables: ReportTables,
    match: MatchResult,
    names_by_deal: dict[int, list[str]],
    player: str | None,
    lang: str,
    comments: Sequence[Comment],
) -> list[Decision]:
    if not tables.costs.height:
        return []
    costs = tables.costs.filter(pl.col("legal") & ~pl.col("forced"))
    if player is not None:
        costs = costs.filter(pl.col("player").str.to_lowercase() == player.lower())
    costs = costs.with_columns(pl.col("view_cost").fill_null(0.0).alias("_view")).filter(
        (pl.col("_view") > 0) | (pl.col("dd_cost") > 0)
    )
    top = costs.sort(
        ["_view", "dd_cost", "deal", "trick", "play"], descending=[True, True, False, False, False]
    ).head(COSTLIEST)
    deals = {deal.number: deal for deal in match.deals}
    explanations = {
        (row["deal"], row["trick"], row["play"]): (row["explanation_nl"] if lang == "nl" else None)
        or row["explanation"]
        for row in _rows(tables.findings.filter(pl.col("kind").is_in(["costly_card", "hindsight_only"])))
    }
    other = {
        (row["deal"], row["trick"], row["play"]): (row["explanation_nl"] if lang == "nl" else None)
        or row["explanation"]
        for row in _rows(tables.findings.filter(pl.col("trick").is_not_null()))
    }
    out = []
    for row in _rows(top):
        place = (row["deal"], row["trick"], row["play"])
        values = {
            Card.parse(v["card"]): v
            for v in _rows(
                tables.values.filter(
                    (pl.col("deal") == row["deal"])
                    & (pl.col("trick") == row["trick"])
                    & (pl.col("play") == row["play"])
                )
            )
        }
        card = Card.parse(row["card"])
        # A card the player's view found as good as the best has only a hindsight cost: then the
        # better card is the one hindsight shows.
        view_best = [Card.parse(c) for c in row["best"] or []]
        best = (
            view_best
            if row["_view"] > 0 and view_best
            else [Card.parse(c) for c in row["hindsight_best"] or []]
        )
        better = next((c for c in best if c != card), None)
        top_view = max((v["view"] for v in values.values() if v["view"] is not None), default=None)
        top_dd = max((v["hindsight"] for v in values.values()), default=None)
        better_view = better_dd = None
        if better is not None and better in values:
            view = values[better]["view"]
            better_view = None if view is None or top_view is None else max(0.0, top_view - view)
            better_dd = None if top_dd is None else top_dd - values[better]["hindsight"]
        deal = deals[row["deal"]]
        hands, table = _hands_before(deal, row["trick"], row["play"])
        out.append(
            Decision(
                deal=row["deal"],
                trick=row["trick"],
                play=row["play"],
                seat=row["seat"],
                player=row["player"] or f"seat {row['seat']}",
                card=card,
                view_cost=float(row["_view"]),
                dd_cost=int(row["dd_cost"]),
                better=better,
                better_view_cost=better_view,
                better_dd_cost=better_dd,
                explanation=explanations.get(place) or other.get(place) or "",
                hands=hands,
                table=table,
                names=tuple(names_by_deal[row["deal"]]),
                dealer=deal.dealer,
                trump=deal.trump,
                contract=deal.contract,
                en_face=deal.en_face,
                knocks=deal.knocks,
                comments=tuple(
                    c
                    for c in comments
                    if c.deal == row["deal"] and c.trick == row["trick"] and c.play in (None, row["play"])
                ),
            )
        )
    return out
