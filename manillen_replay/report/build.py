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

from ..analysis.ranking import told_on_real
from ..cards import Card, CardSet, Suit
from ..engine import DealKind, DealResult, MatchResult, replay
from ..engine.report import player_names, seat_names, side_name
from ..errors import ManillenError
from ..record import loads
from ..rules import Contract

REVIEW_TOP = 3
"""How many of each player's costliest decisions the report's review shows (the Match page's
boxes show as many)."""


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
    mistakes: pl.DataFrame = field(default_factory=pl.DataFrame)
    """Each player's costliest decisions, ranked by the archive (``Store.biggest_mistakes`` with
    ``each_player``): the report shows them in this order and never ranks them again."""
    lines: pl.DataFrame = field(default_factory=pl.DataFrame)
    """``finding_lines`` rows of the match: the line after each costly card and after the better card."""


@dataclass(frozen=True, slots=True)
class Comment:
    """A coach's (or player's) comment, and where it belongs."""

    deal: int
    trick: int | None
    play: int | None
    author: str
    text: str
    tags: tuple[str, ...] = ()
    line: tuple[Card, ...] = ()
    """A variation: the cards that could have been played from the play on."""


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
    block: int | None = None
    """A club evening's deal: its block's place in :attr:`Report.blocks`."""
    scoring_names: str | None = None
    """The three-player games' side that scored (``Jan & Piet``, or the dealer alone): their
    sides change with the dealer, so no fixed team name says it."""
    shown_side: int | None = None
    """The three-player games' side, in this deal, of the player the report shows first (its
    figures come first); ``None`` in the games of fixed teams."""


@dataclass(frozen=True, slots=True)
class BlockLine:
    """One block of a club evening (the partners change between blocks)."""

    number: int
    first_deal: int
    """The number of its first deal."""
    team_names: tuple[str, str]
    """Its two teams (``Anna & Bert``), team 0 first."""
    score: tuple[int, ...]
    winner: int | None
    """The team that won the block, ``None`` for a tie."""
    first_team: int
    """The team this block's figures show first: the report's player's, or the first seat's."""
    finished: bool = True
    """Whether the block is over (else it is under way: its score so far, no winner)."""


@dataclass(frozen=True, slots=True)
class LineTrick:
    """One trick of a solver line: its cards in the order played, who took it and its points."""

    number: int
    cards: tuple[tuple[int, Card], ...]
    """``(seat, card)`` in the order played (the trick under way: from the decision on)."""
    winner: int
    points: int


@dataclass(frozen=True, slots=True)
class BetterLine:
    """The line after the better card, best play by all four, against the line after the card played."""

    layout: str
    """``view``: on the layout of the hidden cards the reason chose; ``real``: on the real cards."""
    card: Card
    """The better card, the line's first."""
    tricks: tuple[LineTrick, ...]
    taken: int
    """Card points the player's team takes from the decision on after the better card."""
    taken_played: int | None
    """The same after the card played (``None`` when not stored)."""
    layouts: int | None
    """Of how many layouts the ``view`` one was chosen."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One of a player's costliest decisions, as the archive ranked it: a card, or a call."""

    deal: int
    trick: int | None
    """``None`` for a call (trump, muil or klop)."""
    play: int | None
    seat: int
    player: str
    card: Card | None
    """The card played (``None`` for a call)."""
    kind: str
    """The finding's kind (``costly_card``, ``trump_choice``...)."""
    call: str | None
    """``trump`` or ``klop`` for a call (the ranking's ``call``), ``None`` for a card."""
    cost: str
    """What it cost, its measure named (``4.5 card points from what the player could see (9 with every
    hand known)``), in the report's language."""
    view_cost: float | None
    dd_cost: float | None
    better: tuple[Card, ...]
    """The better cards (every one within a hair of the best), the first the line's."""
    explanation: str
    """The finding's explanation (the reason in words) in the report's language, or empty."""
    hands: tuple[CardSet, ...]
    """What each seat could play from just before the card (the player's hand still with it): its
    hand and its face-up table cards; for a call, as dealt (with the face-up table cards)."""
    table: tuple[tuple[int, Card], ...]
    """``(seat, card)`` already on the table in the trick."""
    names: tuple[str, ...]
    dealer: int
    trump: Suit | None
    comments: tuple[Comment, ...]
    """Comments on this play or its trick (on the deal, for a call)."""
    contract: Contract | None = None
    """The deal's contract (``TRUMP`` with :attr:`trump` its suit, ``MUIL``...)."""
    en_face: bool = False
    knocks: int = 0
    line: BetterLine | None = None
    """The better card's line, when the solver's review stored it."""
    rank: int = 1
    """The place among the player's costliest, 1 first."""
    held: tuple[int, ...] = ()
    """For a table as the decider saw it (a puzzle): how many hidden cards each seat holds, drawn
    face down beside the cards ``hands`` shows of it (its face-up table cards); empty when every
    hand is shown."""
    team_seats: tuple[int, ...] = ()
    """The seats people play on the decider's side (the dummy of ``three_dummy`` is the dealer's);
    empty: the four-player game's, the decider's and the partner's."""
    variant: str = "four"
    """The match's variant: where its seats sit around the table (a line of the four-player game
    is best play "by all four")."""


@dataclass(frozen=True, slots=True)
class PlayerReview:
    """One player's costliest decisions, the costliest first."""

    name: str
    team: int
    decisions: tuple[Decision, ...]


@dataclass(frozen=True, slots=True)
class PlayerLine:
    """One player's accuracy and ledger over the match."""

    name: str
    team: int
    accuracy: float | None
    cards_chosen: int
    ledger: dict[str, Any] | None
    decisions: int = 0
    """The decisions the accuracy rests on: the cards chosen and the calls reviewed."""


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
    reviews: tuple[PlayerReview, ...]
    """Each player's costliest decisions (only the player's in a report for one), in the
    report's team order."""
    match_comments: tuple[Comment, ...] = ()
    costed: bool = False
    cards_played: bool = True
    """Whether any deal has its cards played recorded (a scoresheet-only match has nothing for
    the solver to review)."""
    samples: int | None = None
    """The most layouts any play's view cost averaged (the ``--samples`` of the analysis)."""
    extra: dict[str, Any] = field(default_factory=dict)
    puzzles: tuple[Any, ...] = ()
    """The puzzles the report ends with (:class:`~manillen_replay.analysis.puzzles.Puzzle`):
    three clear ones from the match's costly decisions, of the player or of everyone."""
    puzzles_explained: bool = False
    """Whether the match's clear decisions were all left out of the puzzles as its review explains
    them: said where the puzzles would be, rather than a report ending without a word."""
    first_team: int = 0
    """The team every table, chart and score of the report shows first: the player's team, or
    the first seat's team in a report for everyone."""
    blocks: tuple[BlockLine, ...] = ()
    """A club evening's blocks: the teams change from block to block, so each deal's figures
    show the player's team of its block first (:meth:`deal_team_order`)."""
    blocks_won: tuple[tuple[str, int], ...] = ()
    """A club evening's result: the blocks each player won, the most first."""
    scorer_names: tuple[str, ...] = ()
    """The three-player games' players, who each keep a score of their own (the final score, the
    winner and the score chart are theirs); empty in the games of fixed teams."""

    @property
    def decisions(self) -> tuple[Decision, ...]:
        """Every decision of :attr:`reviews`, player by player."""
        return tuple(d for review in self.reviews for d in review.decisions)

    @property
    def team_order(self) -> tuple[int, int]:
        """The two teams in the order the report shows them, :attr:`first_team` first."""
        return (self.first_team, 1 - self.first_team)

    def deal_team_order(self, deal: DealLine) -> tuple[int, int]:
        """The two teams of a deal in the order the report shows them: its block's (a club
        evening), the shown player's side of the deal (the three-player games), else
        :attr:`team_order`."""
        if deal.shown_side is not None:
            return (deal.shown_side, 1 - deal.shown_side)
        if deal.block is None:
            return self.team_order
        first = self.blocks[deal.block].first_team
        return (first, 1 - first)


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
            line=tuple(Card.parse(card) for card in row.get("line") or ()),
        )
        for row in _rows(frame)
    ]
    return sorted(out, key=lambda c: (c.deal, c.trick or 0, c.play or 0))


def gather(tables: ReportTables, *, player: str | None = None, lang: str = "en") -> Report:
    """The report of one match, for one player or (``player=None``) for everyone.

    :param tables: the match's archive rows.
    :param player: a player of the match (any case), or ``None``: a person, the dummy's cards
        of ``three_dummy`` being its dealer's.
    :param lang: ``en`` or ``nl``: the language of the explanations and of the dummy's seat.
    :raises ManillenError: for a player who did not play in the match (the dummy's seat
        included), or a record that no longer replays.
    """
    record = loads(tables.record, source="the archive")
    match = replay(record, source="the archive")
    info = record.match
    names_by_deal = {deal.number: seat_names(match, deal, lang) for deal in match.deals}
    # people only: the dummy of three_dummy is no player, its cards are its dealer's decisions
    everyone = sorted({name for deal in match.deals for name in player_names(match, deal)} | set(match.seats))
    chosen: str | None = None
    if player is not None:
        chosen = next((name for name in everyone if name.lower() == player.lower()), None)
        if chosen is None:
            raise ManillenError(_not_a_player(match, player, everyone))
    comments = _comments(tables.annotations)
    ledger_rows = _rows(tables.deal_ledger)
    blocks, block_of = _blocks(match, chosen)
    shape = match.rules.shape
    per_person = shape.scorers == 3
    shown_seat = match.seats.index(chosen) if chosen in match.seats else 0

    def side_names(deal: DealResult) -> str | None:
        """The three-player games' side that scored the deal, by name."""
        if not per_person or deal.score is None or deal.score.team is None:
            return None
        return side_name(match, deal, deal.score.team)

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
            block=block_of.get(deal.number),
            scoring_names=side_names(deal),
            shown_side=shape.team_of(shown_seat, deal.dealer) if per_person else None,
        )
        for deal in match.deals
    )
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
            decisions=int(accuracy[name]["decisions"] or 0) if name in accuracy else 0,
        )
        for name in shown
    ]
    # one team order in the whole report: the player's team first (the first seat's for everyone),
    # and the players of the first team before the others (in seat order within a team)
    first_team = 1 if chosen is not None and lines and lines[0].team == 1 else 0
    players = tuple(sorted(lines, key=lambda line: line.team != first_team))
    reviews = tuple(
        PlayerReview(
            line.name,
            line.team,
            tuple(_ranked(tables, match, names_by_deal, line.name, lang, comments)),
        )
        for line in players
    )
    # the layouts drawn at most (a play with few left was solved on every one, up to four times as many)
    drawn = tables.costs.filter(~pl.col("exact")) if "exact" in tables.costs.columns else tables.costs
    samples = int(drawn["layouts"].max() or 0) if drawn.height else None  # type: ignore[arg-type]
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
        reviews=reviews,
        costed=tables.costs.height > 0,
        cards_played=any(deal.kind is DealKind.PLAYED for deal in match.deals),
        samples=samples or None,
        first_team=first_team,
        blocks=blocks,
        blocks_won=tuple(sorted(match.blocks_won.items(), key=lambda item: (-item[1], item[0]))),
        scorer_names=tuple(match.seats[: shape.people]) if per_person else (),
    )


def _blocks(match: MatchResult, chosen: str | None) -> tuple[tuple[BlockLine, ...], dict[int, int]]:
    """A club evening's blocks, and the block of each deal (a block starts where the seating
    changes), each with the chosen player's team first (else the team of its first seat); the
    block under way too, with its score so far and no winner yet."""
    shape = match.rules.shape
    people = shape.people
    block_of: dict[int, int] = {}
    seatings: list[tuple[int, list[str]]] = []  # each block's first deal and seating
    reached: list[tuple[int, ...]] = []  # each block's score after its last deal so far
    for deal in match.deals:
        names = list(deal.names[:people]) if deal.names else list(match.seats)
        if not seatings or names != seatings[-1][1]:
            seatings.append((deal.number, names))
            reached.append(())
        block_of[deal.number] = len(seatings) - 1
        reached[-1] = tuple(deal.match_score)
    if not match.evening and len(seatings) < 2:
        return (), {}
    lines = []
    for place, (first_deal, seats) in enumerate(seatings):
        team_names = tuple(
            " & ".join(seats[s] for s in range(len(seats)) if shape.team_of(s, 0) == side) for side in (0, 1)
        )
        if place < len(match.blocks):
            done = match.blocks[place]
            score, winner, finished = tuple(done.score), done.winner, True
        else:  # under way: the score its deals made so far (a block's score starts at 0-0)
            score, winner, finished = reached[place], None, False
        lines.append(
            BlockLine(
                number=place + 1,
                first_deal=first_deal,
                team_names=(team_names[0], team_names[1]),
                score=score,
                winner=winner,
                first_team=shape.team_of(seats.index(chosen), 0) if chosen in seats else 0,
                finished=finished,
            )
        )
    return tuple(lines), block_of


def _not_a_player(match: MatchResult, asked: str, everyone: Sequence[str]) -> str:
    """Why ``asked`` gets no report: not in the match, or the dummy's seat of ``three_dummy``
    (in either language), whose cards count under the dealer who played them."""
    people = match.rules.shape.people
    for deal in match.deals:
        for lang in ("en", "nl"):
            names = seat_names(match, deal, lang)
            for seat in range(people, len(names)):
                if names[seat].lower() == asked.lower():
                    dealer = names[deal.dealer]
                    return (
                        f"{asked!r} is the dummy's seat in match {match.id!r}, not a player: "
                        f"its cards are {dealer}'s decisions, in {dealer}'s review; "
                        f"the players are {', '.join(everyone)}"
                    )
    return f"{asked!r} did not play in match {match.id!r}: the players are {', '.join(everyone)}"


def _line(tables: ReportTables, deal: int, trick: int, play: int) -> BetterLine | None:
    """The better card's line of a play, on the hands its reason is told on: the real cards when
    they punish the card too (the reason then says "with every hand known", and a line on a
    made-up layout beside it drew cards the hands above do not hold), else the layout the reason
    chose (the real cards when only those are stored)."""
    lines = tables.lines
    if not lines.height:
        return None
    here = lines.filter((pl.col("deal") == deal) & (pl.col("trick") == trick) & (pl.col("play") == play))
    for layout in ("real", "view") if told_on_real(_rows(here)) else ("view", "real"):
        better = _rows(here.filter((pl.col("line") == "better") & (pl.col("layout") == layout)))
        if not better:
            continue
        played = _rows(here.filter((pl.col("line") == "played") & (pl.col("layout") == layout)))
        tricks: dict[int, list[dict[str, Any]]] = {}
        for row in better:
            tricks.setdefault(int(row["line_trick"]), []).append(row)
        return BetterLine(
            layout=layout,
            card=Card.parse(better[0]["first_card"]),
            tricks=tuple(
                LineTrick(
                    number,
                    tuple((int(r["seat"]), Card.parse(r["card"])) for r in rows),
                    int(rows[-1]["winner"]),
                    int(rows[-1]["trick_points"]),
                )
                for number, rows in tricks.items()
            ),
            taken=int(better[0]["team_points"]),
            taken_played=int(played[0]["team_points"]) if played else None,
            layouts=better[0]["layouts"],
        )
    return None


def _team_seats(match: MatchResult, dealer: int, seat: int) -> tuple[int, ...]:
    """The seats people play on ``seat``'s side of a deal dealt by ``dealer`` (none in the
    four-player game: the seat's and its partner's, :attr:`Decision.team_seats`)."""
    shape = match.rules.shape
    if match.rules.variant == "four":
        return ()
    side = shape.team_of(seat, dealer)
    return tuple(s for s in range(shape.people) if shape.team_of(s, dealer) == side)


def _ranked(
    tables: ReportTables,
    match: MatchResult,
    names_by_deal: dict[int, list[str]],
    player: str,
    lang: str,
    comments: Sequence[Comment],
) -> list[Decision]:
    """A player's costliest decisions in the order the archive ranked them (:attr:`ReportTables.mistakes`)."""
    from ..analysis.puzzles import hands_before
    from ..analysis.ranking import row_cost_in_words
    from ..engine.turns import hands_dealt

    if not tables.mistakes.height:
        return []
    deals = {deal.number: deal for deal in match.deals}
    out = []
    mine = tables.mistakes.filter(pl.col("player").str.to_lowercase() == player.lower())
    for rank, row in enumerate(_rows(mine), start=1):
        deal = deals.get(row["deal"])
        if deal is None or deal.hands is None or row["seat"] is None:
            continue
        trick, play = row["trick"], row["play"]
        if trick is not None and play is not None:
            hands, table, _ = hands_before(deal, trick, play)
        else:
            hands, table = hands_dealt(deal), ()
        seat = int(row["seat"])
        out.append(
            Decision(
                deal=row["deal"],
                trick=trick,
                play=play,
                seat=seat,
                player=row["player"] or player,
                card=Card.parse(row["card"]) if row["card"] else None,
                kind=row["kind"],
                call=row["call"] if trick is None else None,
                cost=row_cost_in_words(row, lang),
                view_cost=row["view_cost"],
                dd_cost=row["dd_cost"],
                better=tuple(Card.parse(c) for c in row["better"] or ()),
                explanation=((row["explanation_nl"] if lang == "nl" else None) or row["explanation"] or ""),
                hands=hands,
                table=table,
                names=tuple(names_by_deal[row["deal"]]),
                dealer=deal.dealer,
                trump=deal.trump,
                contract=deal.contract,
                en_face=deal.en_face,
                knocks=deal.knocks,
                team_seats=_team_seats(match, deal.dealer, seat),
                variant=match.rules.variant,
                comments=tuple(
                    c
                    for c in comments
                    if c.deal == row["deal"]
                    and (c.trick is None if trick is None else c.trick == trick and c.play in (None, play))
                ),
                line=_line(tables, row["deal"], trick, play) if trick is not None else None,
                rank=rank,
            )
        )
    return out
