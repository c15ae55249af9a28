"""Puzzles from a player's own costly decisions, and the spaced repetition that brings them back.

A puzzle is a moment of a real deal as the player saw it: their own hand, the cards played so
far, the calls and the score; the other hands hidden but for the face-up table cards everyone
sees. It asks what the player asked themselves then (which card, or whether to knock) and
judges the answer with the solver's values from the player's view, the values stored by
``manillen analyze --depth solver`` (``card_values.view``, ``call_decisions``). Only decisions
whose answer is clear become puzzles (:func:`is_clear`): the card played surely cost at least
:data:`COSTLY` card points, and the best card beats every other card by at least :data:`MARGIN`,
so that a near-tie, where a strong player would call two cards equally good, is never a puzzle.
The "what is still out?" drills ask, at the moment of a card puzzle, which trumps the other
three hands still hold and which cards are the masters.

Each puzzle names its source (match, deal, trick and place in the trick) so that a coach can
check it in the deal replay. The answers are scheduled with the Leitner system (:func:`next_box`).
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import polars as pl

from ..cards import Card, CardSet, Rank, Suit, mask_of
from ..engine import DealResult, MatchResult
from ..engine.report import player_names, seat_names
from ..engine.turns import face_up, hands_dealt, iter_turns
from ..errors import ManillenError
from ..rules import Contract
from .costs import NEAR_TIE, SURE_Z
from .solver_findings import CALL_THRESHOLDS

COSTLY = 2.0
"""Card points (of 60) the card played must surely have cost from the player's view, its view
cost less :data:`~.costs.SURE_Z` standard errors, for the decision to make a puzzle: the
findings' lowest severity (``findings.COST_THRESHOLDS``)."""

MARGIN = 2.0
"""Card points by which the accepted cards must beat every other legal card from the player's
view: a smaller gap is a near-tie that a strong player could rightly call either way (measured
on 50 demo puzzles, docs/puzzles.md)."""

CALL_COSTLY = CALL_THRESHOLDS.inaccuracy
"""Expected scoresheet points the call made (a trump, muil, a knock or none) surely gave away,
its loss less :data:`~.costs.SURE_Z` standard errors, for a call to make a puzzle: the call
findings' lowest severity, so that no call is a puzzle that the review calls no mistake."""

DRILL_FROM_TRICK = 3
"""The first trick from which a card puzzle also gets its "what is still out?" drills:
before it nearly every trump is out, and counting is no exercise."""


class PuzzleKind(StrEnum):
    """What a puzzle asks."""

    CARD = "card"
    """Which card do you play?"""
    KNOCK = "knock"
    """Do you knock (klop)?"""
    TRUMP = "trump"
    """Which trump do you call (or muil)?"""
    TRUMPS_OUT = "trumps_out"
    """Which trumps are still out (in the other three hands)?"""
    MASTERS = "masters"
    """Which cards are the masters now: the highest of each suit not played yet?"""

    @property
    def is_drill(self) -> bool:
        """Whether the answer is a set of cards to tick (a "what is still out?" drill)."""
        return self in (PuzzleKind.TRUMPS_OUT, PuzzleKind.MASTERS)


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: the table as the player saw it, the question, and the answers the solver accepts."""

    puzzle_id: str
    """``MATCH/DEAL/TRICK/PLAY`` for a card, ``MATCH/DEAL/knock/SEAT`` and ``MATCH/DEAL/trump/SEAT`` for
    a call, ``MATCH/DEAL/TRICK/PLAY/trumps`` and ``.../masters`` for a drill."""
    kind: PuzzleKind
    match_id: str
    deal: int
    trick: int | None
    """The trick of the decision; ``None`` for a knock (made before the first card)."""
    play: int | None
    """The place in the trick (1 = led); ``None`` for a knock."""
    seat: int
    """The seat whose card or call it is (the dummy's seat for a card of the dummy of ``three_dummy``)."""
    player: str
    """Who decided it: the seat's player, or the dealer for the dummy's card (the dealer plays it),
    as the archive's ``play_costs.player`` names them."""
    names: tuple[str, ...]
    """Each seat's name in this deal (``Anna's dummy`` for the dummy's seat)."""
    names_nl: tuple[str, ...]
    """The same in Dutch (``blinde van Anna`` for the dummy's seat): :meth:`names_in` picks."""
    dealer: int
    trump: Suit | None
    """The trump suit, ``None`` for muil."""
    contract: Contract | None
    knocks: int
    """The klop level reached before the first card (0 for a knock puzzle: it is the question)."""
    hand: CardSet
    """The player's cards at the moment (the card to choose still in it)."""
    held: tuple[int, ...]
    """How many cards each seat may play from at the moment (its face-up table cards included): the
    ones not in :attr:`face_up` are hidden, shown face down."""
    table: tuple[tuple[int, Card], ...]
    """``(seat, card)`` on the table in the current trick, leader first."""
    tricks: tuple[tuple[tuple[int, Card], ...], ...]
    """The tricks played before, each ``(seat, card)`` from its leader: the cards seen."""
    taken: tuple[int, int]
    """Card points taken so far in the deal: the player's side first, then the other."""
    score: tuple[int, ...]
    """The match score before the deal: the player's side first; in the three-player games (a
    score each) the player's own, then the others' in seat order."""
    options: tuple[str, ...]
    """What may be answered: the legal cards (``10H``), ``klop`` and ``no klop``, or every trump
    the player does not hold."""
    answers: frozenset[str]
    """The options the solver accepts (for :attr:`PuzzleKind.TRUMPS_OUT`: the one right set,
    its cards)."""
    played: str
    """What the player chose at the table (empty for a drill)."""
    values: Mapping[str, float] = field(default_factory=dict)
    """Each option's value from the player's view: card points from that play on (a card) or
    expected scoresheet points (a call); a trump option the review pruned has none (its score is
    only a bound, ``call_decisions.options_at_most``)."""
    margin: float = 0.0
    """By how much the accepted answers beat the next option (0 for a drill)."""
    cost: float = 0.0
    """What the player's choice cost from their view."""
    layouts: int = 0
    """Layouts of the hidden cards the values average."""
    date: str | None = None
    """The match date (``2026-08-24``), when the record gives it."""
    explanation: str = ""
    """The finding's reason in words (the line after the better card), when stored."""
    explanation_nl: str = ""
    variant: str = "four"
    """The match's variant: where its seats sit around the table."""
    face_up: tuple[CardSet, ...] = ()
    """Each seat's face-up table cards at the moment (the top card of each of its piles), which
    every player sees: in the variants with table cards, the other seats show them; empty sets
    (or none) in the others."""

    @property
    def shown(self) -> tuple[CardSet, ...]:
        """Each seat's cards the player sees: their own hand, the others' face-up table cards.

        >>> _sample(face_up=(CardSet(0), CardSet(0), CardSet(0), CardSet.parse("AS"))).shown[1:]
        (CardSet.parse('9H KH 7S'), CardSet.parse(''), CardSet.parse('AS'))
        """
        seats = len(self.held)
        face_up = self.face_up or (CardSet(0),) * seats
        return tuple(self.hand if seat == self.seat else face_up[seat] for seat in range(seats))

    @property
    def hidden(self) -> tuple[int, ...]:
        """How many of each seat's cards the player cannot see: :attr:`held` less :attr:`face_up`,
        none of their own.

        >>> _sample(face_up=(CardSet(0), CardSet(0), CardSet.parse("AS 10S"), CardSet(0))).hidden
        (5, 0, 4, 6)
        """
        return tuple(
            0 if seat == self.seat else count - len(shown)
            for seat, (count, shown) in enumerate(zip(self.held, self.shown, strict=True))
        )

    def names_in(self, lang: str) -> tuple[str, ...]:
        """Each seat's name as a page in ``lang`` (``en`` or ``nl``) writes it.

        >>> _sample(names_nl=("Anna", "Bert", "Carla", "blinde van Anna")).names_in("nl")[3]
        'blinde van Anna'
        """
        return self.names_nl if lang == "nl" else self.names

    @property
    def source(self) -> str:
        """Where the puzzle comes from, for a coach to check: ``match zwaan-1, deal 4, trick 3,
        card 2`` (for a knock: ``deal 4, before the first card``).

        >>> _sample().source
        'match m-1, deal 4, trick 3, play 2'
        """
        if self.trick is None:
            return f"match {self.match_id}, deal {self.deal}, before the first card"
        return f"match {self.match_id}, deal {self.deal}, trick {self.trick}, play {self.play}"

    def is_right(self, answer: str | Iterable[str]) -> bool:
        """Whether ``answer`` is accepted: one option (a card as ``10H``, any case; ``klop``), or
        for a drill the cards chosen, which must be exactly the cards asked for.

        >>> puzzle = _sample()
        >>> puzzle.is_right("9h"), puzzle.is_right("KH")
        (True, False)
        """
        if self.kind.is_drill:
            chosen = {answer} if isinstance(answer, str) else set(answer)
            return {_option(a) for a in chosen} == set(self.answers)
        if not isinstance(answer, str):
            return False
        return _option(answer) in self.answers

    def to_json(self) -> dict[str, Any]:
        """The puzzle as JSON (cards as text), as ``manillen puzzles --out`` writes it."""
        return {
            "id": self.puzzle_id,
            "kind": self.kind.value,
            "source": {"match": self.match_id, "deal": self.deal, "trick": self.trick, "play": self.play},
            "date": self.date,
            "player": self.player,
            "seat": self.seat,
            "names": list(self.names),
            "dealer": self.dealer,
            "contract": None if self.contract is None else self.contract.value,
            "trump": None if self.trump is None else self.trump.name,
            "knocks": self.knocks,
            "hand": [str(c) for c in self.hand],
            "held": list(self.held),
            "face_up": [[str(c) for c in cards] for cards in self.face_up],
            "table": [{"seat": s, "card": str(c)} for s, c in self.table],
            "tricks": [[{"seat": s, "card": str(c)} for s, c in trick] for trick in self.tricks],
            "taken": list(self.taken),
            "score": list(self.score),
            "options": list(self.options),
            "answers": sorted(self.answers),
            "played": self.played,
            "values": {k: round(v, 3) for k, v in self.values.items()},
            "margin": round(self.margin, 3),
            "cost": round(self.cost, 3),
            "layouts": self.layouts,
            "explanation": self.explanation,
        }


def _option(text: str) -> str:
    """An answer as the options write it: a card's code (``10H``), a suit's letter (``H``, the
    trump puzzle's options), else the word in lower case (``muil``, ``klop``).

    >>> _option("10h"), _option(" h"), _option("Muil")
    ('10H', 'H', 'muil')
    """
    text = text.strip()
    try:
        return str(Card.parse(text))
    except ValueError:
        return text.upper() if text.upper() in Suit.__members__ else text.lower()


def is_clear(
    values: Mapping[str, float], played: str, view_error: float, *, least: float = COSTLY
) -> tuple[frozenset[str], float] | None:
    """The accepted answers and their margin when a decision makes a clear puzzle, else ``None``.

    Accepted are the options within :data:`~.costs.NEAR_TIE` of the best (sampling noise, or
    cards that are the same: two small cards of one suit); the decision is clear when the choice
    made surely cost at least :data:`COSTLY` (its cost less :data:`~.costs.SURE_Z` times
    ``view_error``) and every other option is at least :data:`MARGIN` below the best.

    :param values: each legal option's value from the player's view.
    :param played: the option chosen at the table.
    :param view_error: the standard error of the chosen option's cost.
    :param least: the least sure cost (:data:`COSTLY` card points for a card).

    >>> answers, margin = is_clear({"9H": 20.0, "8H": 19.95, "KH": 15.0}, "KH", 0.5)
    >>> sorted(answers), margin
    (['8H', '9H'], 5.0)
    >>> is_clear({"9H": 20.0, "AS": 18.5, "KH": 15.0}, "KH", 0.5) is None  # AS nearly as good
    True
    >>> is_clear({"9H": 20.0, "KH": 17.0}, "KH", 1.0) is None  # not surely costly
    True
    """
    if len(values) < 2 or played not in values:
        return None
    top = max(values.values())
    accepted = frozenset(k for k, v in values.items() if v >= top - NEAR_TIE - 1e-9)
    if played in accepted or top - values[played] - SURE_Z * view_error < least:
        return None
    margin = top - max(v for k, v in values.items() if k not in accepted)
    if margin < MARGIN:
        return None
    return accepted, margin


def hands_before(
    deal: DealResult, trick: int, play: int
) -> tuple[tuple[CardSet, ...], tuple[tuple[int, Card], ...], tuple[tuple[tuple[int, Card], ...], ...]]:
    """Each seat's cards just before a play, the cards on the table then, and the tricks before.

    A seat's cards are the ones it may play from, as the replay's visitors get them: its hand and,
    in the variants with table cards, its face-up table cards (a card played from a pile turns up
    the one under it; a seat moving its third pile's top card to its emptied fourth place before
    the play has moved it).

    :raises ManillenError: when the deal has no such play, or its hands are not known.
    """
    hands, _, table, before = _walk_to(deal, trick, play)
    return hands, table, before


def piles_before(deal: DealResult, trick: int, play: int) -> tuple[tuple[CardSet, ...], tuple[CardSet, ...]]:
    """Each seat's table cards just before a play: the face-up ones (the top card of each pile,
    which every player sees) and the face-down ones under them (which nobody sees, their owner
    neither); empty sets in the variants without table cards.

    :raises ManillenError: when the deal has no such play, or its hands are not known.
    """
    hands, piles, _, _ = _walk_to(deal, trick, play)
    face_down = tuple(
        CardSet(mask_of(c for pile in piles[seat] for c in pile[:-1])) if seat < len(piles) else CardSet(0)
        for seat in range(len(hands))
    )
    return face_up(piles, len(hands)), face_down


def _walk_to(
    deal: DealResult, trick: int, play: int
) -> tuple[
    tuple[CardSet, ...],
    list[list[list[int]]],
    tuple[tuple[int, Card], ...],
    tuple[tuple[tuple[int, Card], ...], ...],
]:
    """The deal replayed up to a play: each seat's playable cards, its table piles (bottom card
    first), the trick on the table and the tricks before."""
    table: list[tuple[int, Card]] = []
    before: list[tuple[tuple[int, Card], ...]] = []
    for turn in iter_turns(deal):
        result = turn.trick
        if (result.number, turn.position) == (trick, play):
            return tuple(CardSet(h) for h in turn.before), turn.piles, tuple(table), tuple(before)
        if result.number == trick:
            table.append((result.seats[turn.position - 1], result.cards[turn.position - 1]))
        if result.number < trick and turn.position == len(result.cards):
            before.append(tuple(zip(result.seats, result.cards, strict=True)))
    raise ManillenError(f"deal {deal.number} has no trick {trick} play {play}")


@dataclass(frozen=True)
class PuzzleTables:
    """The archive rows puzzles are made of, as ``Store.puzzle_rows`` returns them."""

    records: pl.DataFrame
    """``match_id``, ``record`` (canonical JSON) and ``date`` of each match concerned."""
    costs: pl.DataFrame
    """``play_costs`` rows of the candidate plays (legal, with a choice, a view cost)."""
    values: pl.DataFrame
    """``card_values`` rows of those plays."""
    calls: pl.DataFrame
    """``call_decisions`` rows of the knocks."""
    findings: pl.DataFrame = field(default_factory=pl.DataFrame)
    """``findings`` rows of the costly cards (``costly_card``): their explanation in words."""


def _side(seat: int, deal: DealResult, result: MatchResult) -> int:
    return result.rules.shape.team_of(seat, deal.dealer)


def _both(pair: Sequence[int], side: int) -> tuple[int, int]:
    return (int(pair[side]), int(pair[1 - side]))


def _score_before(result: MatchResult, deal: DealResult, seat: int) -> tuple[int, ...]:
    """The match score before the deal, the deciding seat's first: its team's and the other's,
    or in the three-player games (a score each) its own and then the others' in seat order."""
    earlier = [d for d in result.deals if d.number < deal.number]
    score = [int(v) for v in (earlier[-1].match_score if earlier else (0,) * result.rules.shape.scorers)]
    if len(score) == 3:
        own = seat if seat < len(score) else deal.dealer  # the dummy's card is its dealer's decision
        return (score[own], *(value for person, value in enumerate(score) if person != own))
    return _both(score, _side(seat, deal, result))


def _taken(deal: DealResult, result: MatchResult, trick: int) -> tuple[int, int]:
    taken = list(deal.taken_before_play(result.rules))  # the laid-aside cards count from the start
    for done in deal.tricks:
        if done.number < trick and done.winner is not None:
            taken[_side(done.winner, deal, result)] += done.points
    return (taken[0], taken[1])


def _moment(result: MatchResult, deal: DealResult, trick: int, play: int, seat: int) -> dict[str, Any]:
    hands, table, tricks = hands_before(deal, trick, play)
    face_up, _ = piles_before(deal, trick, play)
    side = _side(seat, deal, result)
    return {
        "hand": hands[seat],
        "held": tuple(len(h) for h in hands),
        "face_up": face_up if deal.table else (),
        "table": table,
        "tricks": tricks,
        "taken": _both(_taken(deal, result, trick), side),
        "score": _score_before(result, deal, seat),
    }


def _common(result: MatchResult, deal: DealResult, seat: int, date: str | None) -> dict[str, Any]:
    return {
        "match_id": result.id,
        "deal": deal.number,
        "seat": seat,
        "player": player_names(result, deal)[seat],
        "names": tuple(seat_names(result, deal)),
        "names_nl": tuple(seat_names(result, deal, "nl")),
        "dealer": deal.dealer,
        "trump": deal.trump,
        "contract": deal.contract,
        "date": date,
        "variant": result.rules.variant,
    }


def _rows(frame: pl.DataFrame) -> list[dict[str, Any]]:
    return list(frame.iter_rows(named=True)) if frame.height else []


def make_puzzles(tables: PuzzleTables, *, player: str | None = None) -> list[Puzzle]:
    """Every clear puzzle of the matches in ``tables``: card puzzles, knock puzzles and drills.

    :param player: only this player's (any case); ``None`` for everyone's.
    :returns: the puzzles, the newest match first, then by deal, trick and place.
    """
    from ..engine import decode_and_replay

    wanted = None if player is None else player.lower()
    values: dict[tuple[str, int, int, int], dict[str, float]] = {}
    for row in _rows(tables.values):
        if row["view"] is not None:
            key = (row["match_id"], row["deal"], row["trick"], row["play"])
            values.setdefault(key, {})[row["card"]] = float(row["view"])
    reasons = {
        (r["match_id"], r["deal"], r["trick"], r["play"]): (r["explanation"] or "", r["explanation_nl"] or "")
        for r in _rows(tables.findings)
    }
    puzzles: list[Puzzle] = []
    for record in _rows(tables.records):
        result = decode_and_replay(record["record"], source=record["match_id"])
        date = None if record["date"] is None else str(record["date"])
        deals = {deal.number: deal for deal in result.deals}
        costs = tables.costs.filter(pl.col("match_id") == record["match_id"])
        for row in _rows(costs):
            deal = deals.get(row["deal"])
            if deal is None or deal.hands is None or not row["legal"] or row["forced"]:
                continue
            # the dummy's card of three_dummy is its dealer's puzzle, as play_costs.player says
            decider = player_names(result, deal)[row["seat"]]
            if wanted is not None and decider.lower() != wanted:
                continue
            key = (row["match_id"], row["deal"], row["trick"], row["play"])
            options = values.get(key, {})
            clear = is_clear(options, row["card"], float(row["view_error"] or 0.0))
            if clear is None:
                continue
            answers, margin = clear
            moment = _moment(result, deal, row["trick"], row["play"], row["seat"])
            common = _common(result, deal, row["seat"], date)
            reason = reasons.get(key, ("", ""))
            where = f"{result.id}/{deal.number}/{row['trick']}/{row['play']}"
            puzzles.append(
                Puzzle(
                    puzzle_id=where,
                    kind=PuzzleKind.CARD,
                    trick=row["trick"],
                    play=row["play"],
                    knocks=deal.knocks,
                    options=tuple(sorted(options, key=lambda c: int(Card.parse(c)))),
                    answers=answers,
                    played=row["card"],
                    values=options,
                    margin=margin,
                    cost=max(options.values()) - options[row["card"]],
                    layouts=int(row["layouts"] or 0),
                    explanation=reason[0],
                    explanation_nl=reason[1],
                    **common,
                    **moment,
                )
            )
            for drill in _drills(result, deal, row["trick"], row["play"], row["seat"], date, where):
                puzzles.append(drill)
        for row in _rows(tables.calls.filter(pl.col("match_id") == record["match_id"])):
            puzzle = _call_puzzle(result, deals.get(row["deal"]), row, date)
            if puzzle is not None and (wanted is None or puzzle.player.lower() == wanted):
                puzzles.append(puzzle)
    return sorted(puzzles, key=_order)


def _order(puzzle: Puzzle) -> tuple[str, str, int, int, int, str]:
    return (
        "" if puzzle.date is None else str(-datetime.date.fromisoformat(puzzle.date).toordinal()),
        puzzle.match_id,
        puzzle.deal,
        puzzle.trick or 0,
        puzzle.play or 0,
        puzzle.kind.value,
    )


MASTER_RANKS = (Rank.TEN, Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK)
"""The ranks a masters drill offers in each suit: a suit's master is nearly always one of them
(a moment where one is lower gets no masters drill)."""


def _drills(
    result: MatchResult, deal: DealResult, trick: int, play: int, seat: int, date: str | None, where: str
) -> list[Puzzle]:
    """The "what is still out?" drills at the moment of a card puzzle, from :data:`DRILL_FROM_TRICK`
    on: which trumps the other hands hold (in a trump deal), and which cards are the masters."""
    if trick < DRILL_FROM_TRICK:
        return []
    moment = _moment(result, deal, trick, play, seat)
    hands, _, _ = hands_before(deal, trick, play)
    face_up, face_down = piles_before(deal, trick, play)
    deck = sorted(result.rules.shape.deck, key=lambda c: (c.suit, -c.rank))
    asked: list[tuple[PuzzleKind, str, list[Card], set[Card]]] = []
    # which cards are the masters now: the highest of each suit not played yet (the player's
    # own included, and the face-down table cards; the cards on the table count as played)
    unplayed = [c for cards in (*hands, *face_down) for c in cards]
    masters = {
        max(left, key=lambda c: c.rank) for suit in Suit if (left := [c for c in unplayed if c.suit == suit])
    }
    if masters and all(c.rank in MASTER_RANKS for c in masters):  # else one could not be ticked
        asked.append((PuzzleKind.MASTERS, "masters", [c for c in deck if c.rank in MASTER_RANKS], masters))
    # which trumps are still out: the ones the other hands hold; the dealer deciding the dummy's
    # card knows their own hand too. A face-up table card is not out, everyone sees where it is;
    # a face-down one is, its owner does not know it either.
    own = {seat, deal.dealer} if seat >= result.rules.shape.people else {seat}
    if deal.trump is not None:
        others = {c for other, hand in enumerate(hands) if other not in own for c in hand - face_up[other]}
        others |= {c for cards in face_down for c in cards}
        trumps = [c for c in deck if c.suit == deal.trump]
        out = {c for c in trumps if c in others}
        if out:
            asked.append(
                (PuzzleKind.TRUMPS_OUT, "trumps", [c for c in trumps if c not in moment["hand"]], out)
            )
    return [
        Puzzle(
            puzzle_id=f"{where}/{suffix}",
            kind=kind,
            trick=trick,
            play=play,
            knocks=deal.knocks,
            options=tuple(str(c) for c in options),
            answers=frozenset(str(c) for c in answers),
            played="",
            **_common(result, deal, seat, date),
            **moment,
        )
        for kind, suffix, options, answers in asked
    ]


def _call_puzzle(
    result: MatchResult, deal: DealResult | None, row: Mapping[str, Any], date: str | None
) -> Puzzle | None:
    """A trump or knock call as a puzzle, when the review found it clearly costly (its loss less
    :data:`~.costs.SURE_Z` standard errors at least :data:`CALL_COSTLY`) and the best option beats
    every other by :data:`MARGIN` (:func:`is_clear`, on expected deal scores). A knock has two
    options, so the review's ``spread`` is its margin when the options' scores are not stored; a
    trump call needs them (``call_decisions.options``)."""
    if deal is None or deal.hands is None or row["seat"] is None or row["call"] not in ("klop", "trump"):
        return None
    chosen, best, loss = str(row["chosen"]), str(row["best"]), float(row["loss"])
    error = float(row["loss_error"] or 0.0)
    stored = row.get("options")
    pruned = set(row.get("options_at_most") or ())
    if stored:
        scores = {str(k): float(v) for k, v in json.loads(stored).items()}
    elif row["call"] == "klop":
        scores = {best: 0.0, chosen: -loss}
    else:
        return None  # a trump call reviewed before the options were kept: the second best is unknown
    # a pruned option's score is only an upper bound: the puzzle is judged on the values, and
    # kept only when no bound could come within the margin (then the margin is a value too)
    values = {name: score for name, score in scores.items() if name not in pruned}
    clear = is_clear(values, chosen, error, least=CALL_COSTLY)
    if clear is None:
        return None
    answers, margin = clear
    if any(scores[name] > max(values.values()) - margin for name in pruned if name in scores):
        return None
    seat = int(row["seat"])
    knock = row["call"] == "klop"
    return Puzzle(
        puzzle_id=f"{result.id}/{deal.number}/{'knock' if knock else 'trump'}/{seat}",
        kind=PuzzleKind.KNOCK if knock else PuzzleKind.TRUMP,
        trick=None,
        play=None,
        knocks=0,
        hand=hands_dealt(deal)[seat],
        held=tuple(len(h) for h in hands_dealt(deal)),
        face_up=face_up(deal.table, len(deal.hands)) if deal.table else (),
        table=(),
        tricks=(),
        taken=(0, 0),
        score=_score_before(result, deal, seat),
        options=tuple(o for o in CALL_OPTIONS if o in scores),
        answers=answers,
        played=chosen,
        values=values,
        margin=margin,
        cost=max(values.values()) - values[chosen],
        layouts=int(row["layouts"] or 0),
        **(_common(result, deal, seat, date) | ({} if knock else {"trump": None, "contract": None})),
    )


CALL_OPTIONS = ("H", "D", "C", "S", "muil", "klop", "no klop")
"""The options of a call, in the order a puzzle offers them."""


# --------------------------------------------------------------------------- spaced repetition

LEITNER_DAYS = (0, 1, 3, 7, 14, 30)
"""Days until a puzzle in each Leitner box comes back: box 1 (index 0) is the box of a new or
missed puzzle, each right answer moves it one box up, a wrong one back to box 1 (Leitner's
system; these intervals double roughly, as in most of its modern versions)."""

RELEARN = datetime.timedelta(minutes=10)
"""A missed puzzle comes back this much later (Anki's default relearning step), or sooner, after
the other puzzles of the session, when nothing else is left to do (:data:`LEARN_AHEAD`)."""

LEARN_AHEAD = datetime.timedelta(minutes=20)
"""How far ahead a session may bring back a missed puzzle when it has nothing else to show
(Anki's default "learn ahead limit")."""


def next_box(box: int, right: bool, now: datetime.datetime) -> tuple[int, datetime.datetime]:
    """The Leitner box after an answer, and when the puzzle is due again.

    :param box: the puzzle's box before the answer (1 for a new puzzle).

    >>> now = datetime.datetime(2026, 12, 5, 20, 0)
    >>> next_box(1, True, now)
    (2, datetime.datetime(2026, 12, 6, 20, 0))
    >>> next_box(4, False, now)
    (1, datetime.datetime(2026, 12, 5, 20, 10))
    >>> next_box(6, True, now)[0]
    6
    """
    if not right:
        return 1, now + RELEARN
    box = min(box + 1, len(LEITNER_DAYS))
    return box, now + datetime.timedelta(days=LEITNER_DAYS[box - 1])


@dataclass(frozen=True, slots=True)
class Review:
    """Where one puzzle stands for one player (a row of ``puzzle_reviews``)."""

    puzzle_id: str
    box: int
    due_at: datetime.datetime
    right: bool
    """Whether the last answer was right."""


def next_puzzle(
    puzzles: Sequence[Puzzle],
    reviews: Mapping[str, Review],
    now: datetime.datetime,
    *,
    new_left: int,
    skip: Iterable[str] = (),
) -> Puzzle | None:
    """The puzzle to show next: the one longest due first; else a new one (while the session
    may show ``new_left`` more); else a missed one due within :data:`LEARN_AHEAD`; else ``None``.

    :param reviews: the player's reviews by puzzle id.
    :param skip: puzzles not to show now (the one just answered).

    >>> a, b = _sample(), _sample(puzzle_id="m-1/5/1/1")
    >>> now = datetime.datetime(2026, 12, 5, 20, 0)
    >>> next_puzzle([a, b], {}, now, new_left=1).puzzle_id
    'm-1/4/3/2'
    >>> missed = {a.puzzle_id: Review(a.puzzle_id, 1, now + RELEARN, False)}
    >>> next_puzzle([a, b], missed, now, new_left=1).puzzle_id  # a new one before the missed one
    'm-1/5/1/1'
    >>> next_puzzle([a, b], missed, now, new_left=0).puzzle_id  # nothing else left: the missed one
    'm-1/4/3/2'
    """
    skipped = set(skip)
    by_id = {p.puzzle_id: p for p in puzzles if p.puzzle_id not in skipped}
    seen = [reviews[i] for i in by_id if i in reviews]
    due = sorted((r for r in seen if r.due_at <= now), key=lambda r: r.due_at)
    if due:
        return by_id[due[0].puzzle_id]
    if new_left > 0:
        fresh = [p for p in by_id.values() if p.puzzle_id not in reviews]
        if fresh:
            return fresh[0]
    ahead = sorted((r for r in seen if not r.right and r.due_at <= now + LEARN_AHEAD), key=lambda r: r.due_at)
    return by_id[ahead[0].puzzle_id] if ahead else None


DecisionKey = tuple[int, int | None, int | None, str | None]
"""A decision of a match: its deal, trick and play, and ``trump`` or ``klop`` for a call (the
trick and play ``None``), ``None`` for a card."""


def decision_of(puzzle: Puzzle) -> DecisionKey:
    """The decision a puzzle asks again, as a report names the decisions it reviews."""
    call = {PuzzleKind.TRUMP: "trump", PuzzleKind.KNOCK: "klop"}.get(puzzle.kind)
    if call is not None:
        return (puzzle.deal, None, None, call)
    return (puzzle.deal, puzzle.trick, puzzle.play, None)


def evening_puzzles(
    puzzles: Sequence[Puzzle], count: int = 3, explained: Collection[DecisionKey] = ()
) -> list[Puzzle]:
    """The puzzles a report ends with: the card and knock puzzles with the widest margin (the
    clearest), at most one per deal, then in the order of play; none of the ``explained``
    decisions, whose answer the report gives above them.

    >>> [p.puzzle_id for p in evening_puzzles([_sample(), _sample(puzzle_id="x", margin=9.0)], 1)]
    ['x']
    >>> clearer = _sample(puzzle_id="x", margin=9.0, trick=5)
    >>> [p.puzzle_id for p in evening_puzzles([_sample(), clearer], 1, explained=[(4, 5, 2, None)])]
    ['m-1/4/3/2']
    """
    chosen: list[Puzzle] = []
    deals: set[tuple[str, int]] = set()
    for puzzle in sorted(puzzles, key=lambda p: -p.margin):
        if puzzle.kind.is_drill or (puzzle.match_id, puzzle.deal) in deals:
            continue
        if decision_of(puzzle) in explained:
            continue
        chosen.append(puzzle)
        deals.add((puzzle.match_id, puzzle.deal))
        if len(chosen) == count:
            break
    return sorted(chosen, key=_order)


def puzzles_json(puzzles: Sequence[Puzzle]) -> str:
    """A set of puzzles as JSON text, one object per puzzle."""
    return json.dumps([p.to_json() for p in puzzles], ensure_ascii=False, indent=1) + "\n"


def _sample(**changes: Any) -> Puzzle:
    """A puzzle for the examples."""
    values: dict[str, Any] = {
        "puzzle_id": "m-1/4/3/2",
        "kind": PuzzleKind.CARD,
        "match_id": "m-1",
        "deal": 4,
        "trick": 3,
        "play": 2,
        "seat": 1,
        "player": "Bert",
        "names": ("Anna", "Bert", "Carla", "Dirk"),
        "names_nl": ("Anna", "Bert", "Carla", "Dirk"),
        "dealer": 0,
        "trump": Suit.H,
        "contract": Contract.TRUMP,
        "knocks": 0,
        "hand": CardSet.parse("9H KH 7S"),
        "held": (5, 6, 6, 6),
        "table": (),
        "tricks": (),
        "taken": (0, 0),
        "score": (0, 0),
        "options": ("9H", "KH"),
        "answers": frozenset({"9H"}),
        "played": "KH",
        "margin": 3.0,
    }
    return Puzzle(**(values | changes))
