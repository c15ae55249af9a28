"""What if another card had been played: the rest of the deal played out after it and after the
card that was played, side by side, trick by trick.

Each line is best play by all four from that card on (:func:`~manillen_replay.solver.lines.best_line`).
With every hand known the lines are played on the real deal. From the player's view they are
played on one layout of the hidden cards the player could not tell from the real one: the one
whose values of the two cards lie closest to their averages over the layouts drawn, as a costly
card's reason chooses it (:func:`~.reasons.closest_layout`).

What if another call had been made (:func:`call_what_if`): the deal played out from the first lead
under the call made and under another contract the chooser could have called, the same way; from
the chooser's view on one layout of the 24 cards the chooser could not see, drawn given the calls
as the trump review draws them (:func:`~.call_model.conditioned_layouts`).
"""

from __future__ import annotations

from contextlib import ExitStack
from dataclasses import dataclass

from ..cards import Card, CardSet
from ..engine.results import DealResult
from ..engine.variation import call_choices, can_vary, chooser_of, trump_of
from ..rules import Contract, Rules
from ..solver.lines import Line, LineTrick, best_line, best_lines
from ..solver.search import DealTables, Position, SolverError, solve_batch
from .call_model import conditioned_layouts
from .call_review import call_factor, contract_name, deal_score
from .costs import deal_trump
from .layouts import Moment, iter_moments
from .reasons import REASON_LAYOUTS, closest_layout, closest_pair, reason_layouts, swing_trick


@dataclass(frozen=True, slots=True)
class TrickPair:
    """One trick of the two lines: who takes it after the card played and after the other card."""

    number: int
    """The trick of the deal, counted from 1."""
    played: LineTrick
    """The trick after the card played."""
    chosen: LineTrick
    """The trick after the card chosen."""
    change: int
    """Card points the player's team takes in this trick after the card chosen, less after the
    card played (negative when it takes fewer): the points that change hands. They add up to
    :attr:`Lines.difference`."""


@dataclass(frozen=True)
class Lines:
    """The two lines on one set of hands: after the card played and after the card chosen."""

    played: Line
    """The line after the card played."""
    chosen: Line
    """The line after the card chosen."""
    team: int
    """The side of the player who chose (0: seats 0 and 2)."""

    @property
    def difference(self) -> int:
        """Card points the player's team takes after the card chosen, less after the card played."""
        return self.chosen.taken(self.team) - self.played.taken(self.team)

    @property
    def swing(self) -> int | None:
        """The trick where the points change hands most in the chosen card's favour
        (:func:`~.reasons.swing_trick`), ``None`` when it does better nowhere."""
        return swing_trick(self.played, self.chosen, self.team)

    def tricks(self) -> list[TrickPair]:
        """The two lines trick by trick, with the points that change hands in each."""

        def taken(trick: LineTrick) -> int:
            return trick.points if trick.winner % 2 == self.team else 0

        return [
            TrickPair(p.number, p, c, taken(c) - taken(p))
            for p, c in zip(self.played.tricks, self.chosen.tricks, strict=True)
        ]


@dataclass(frozen=True)
class WhatIf:
    """Another card at one play of a deal, and what the rest of the deal comes to after it."""

    deal: int
    """The deal, counted from 1."""
    trick: int
    """The trick of the play, counted from 1."""
    play: int
    """Its place in the trick, counted from 1."""
    seat: int
    """Who played."""
    card: Card
    """The card played."""
    chosen: Card
    """The card chosen instead."""
    real: Lines
    """The two lines on the real deal (every hand known)."""
    view: Lines | None
    """The two lines on the layout chosen (from the player's view); ``None`` when the player
    could see every card that mattered (no hidden card)."""
    layouts: int
    """How many layouts the one of :attr:`view` was chosen from."""
    view_values: tuple[float, float]
    """The card played's and the card chosen's value for the player's team, averaged over those
    layouts (card points from that play on)."""

    @property
    def view_difference(self) -> float:
        """The card chosen's average value less the card played's, from the player's view."""
        return self.view_values[1] - self.view_values[0]


def moment_at(deal: DealResult, rules: Rules, trick: int, play: int) -> Moment:
    """The play of a deal at ``trick`` and ``play`` (both from 1), with what everyone knew then.

    :raises SolverError: when the deal has no such play.
    """
    for moment in iter_moments(deal, rules):
        if (moment.trick, moment.play) == (trick, play):
            return moment
    raise SolverError(f"deal {deal.number} has no play {play} in trick {trick}")


def what_if(
    deal: DealResult,
    rules: Rules,
    trick: int,
    play: int,
    chosen: int,
    *,
    seed: int = 0,
    tables: DealTables | None = None,
) -> WhatIf:
    """The rest of the deal after ``chosen`` at one play, and after the card that was played.

    :param deal: a replayed deal of the four-player game with its hands.
    :param trick: the trick of the play, counted from 1.
    :param play: its place in the trick, counted from 1.
    :param chosen: the card played instead (a legal one).
    :param seed: the seed the layouts are drawn with (the review's, to draw the same ones).
    :param tables: the deal's tables to solve on (one thread); without them, its own.
    :raises SolverError: for a deal the solver cannot take, a play it does not have, or a card
        that may not be played there.
    """
    if not can_vary(deal, rules):
        raise SolverError(f"deal {deal.number}: the solver plays out four-player deals with their hands")
    moment = moment_at(deal, rules, trick, play)
    if not moment.legal >> chosen & 1:
        raise SolverError(f"{Card(chosen)} may not be played at play {play} of trick {trick}")
    if not moment.is_legal:
        raise SolverError(
            f"the card played at play {play} of trick {trick} broke the rules: no line after it"
        )
    trump = deal_trump(deal)
    firsts = [moment.card, chosen]
    team = moment.seat % 2
    with ExitStack() as stack:
        if tables is None:
            tables = stack.enter_context(DealTables(1))
        position = moment.position
        real = best_lines(position, trump, rules, firsts, first_trick=trick, tables=tables)
        layouts = reason_layouts(moment, trump, rules, seed=seed, deal=deal.number)
        hidden = any(layout != position.hands for layout in layouts)
        view: Lines | None = None
        if layouts:
            layout, means = closest_layout(moment, layouts, moment.card, chosen, trump, rules, tables=tables)
            if hidden:
                on_layout = Position(layout, position.trick, position.leader)
                lines = best_lines(on_layout, trump, rules, firsts, first_trick=trick, tables=tables)
                view = Lines(lines[0], lines[1], team)
        else:
            means = (float(real[0].taken(team)), float(real[1].taken(team)))
    return WhatIf(
        deal=deal.number,
        trick=trick,
        play=play,
        seat=moment.seat,
        card=Card(moment.card),
        chosen=Card(chosen),
        real=Lines(real[0], real[1], team),
        view=view,
        layouts=len(layouts),
        view_values=means,
    )


@dataclass(frozen=True)
class CallWhatIf:
    """Another call at a deal's trump choice, and what the deal comes to under it."""

    deal: int
    """The deal, counted from 1."""
    seat: int
    """Who chose trump."""
    call: str
    """The call made: ``H``, ``D``, ``C``, ``S`` or ``muil``."""
    chosen: str
    """The call chosen instead."""
    real: Lines
    """The two lines on the real deal (every hand known), from the first lead."""
    view: Lines
    """The two lines on the layout chosen from the chooser's view."""
    layouts: int
    """How many layouts the one of :attr:`view` was chosen from."""
    view_values: tuple[float, float]
    """The call made's and the call chosen's card points for the chooser's team, averaged over
    those layouts."""
    view_scores: tuple[float, float]
    """What the deal scores for the chooser's team under the call made and the call chosen (each
    call's doubling applied, negative: a loss), averaged over those layouts: a capot under a house
    rule scores otherwise than its card points say, so the score of the average would not do."""
    factors: tuple[int, int]
    """The doubling each call plays for (muil x2, en face's and a carry's as well), without
    knocks, as the trump review scores them."""
    rules: Rules
    """The match's rules, which score the deal (a capot as their ``capot`` says)."""

    @property
    def view_difference(self) -> float:
        """The call chosen's average card points less the call made's, from the chooser's view."""
        return self.view_values[1] - self.view_values[0]

    def scores(self, lines: Lines) -> tuple[int, int]:
        """What the deal scores for the chooser's team on the two lines (negative: a loss)."""
        made, chosen = (line.taken(lines.team) for line in (lines.played, lines.chosen))
        return (
            int(deal_score(made, self.factors[0], self.rules)),
            int(deal_score(chosen, self.factors[1], self.rules)),
        )

    def score_difference(self, lines: Lines) -> int:
        """The deal score of the call chosen less the call made's, for the chooser's team."""
        made, chosen = self.scores(lines)
        return chosen - made


def call_what_if(
    deal: DealResult,
    rules: Rules,
    chosen: str,
    *,
    seed: int = 0,
    tables: DealTables | None = None,
) -> CallWhatIf:
    """The deal played out from the first lead under ``chosen`` and under the call made.

    :param chosen: the call made instead (``H``, ``D``, ``C``, ``S`` or ``muil``), one of
        :func:`call_choices`.
    :param seed: the seed the chooser's layouts are drawn with (the trump review's, to draw its first).
    :param tables: the deal's tables to solve on (one thread); without them, its own.
    :raises SolverError: for a deal the solver cannot take, or a call the chooser could not make.
    """
    choices = call_choices(deal, rules)
    if chosen not in choices:
        allowed = ", ".join(choices) or "none"
        raise SolverError(
            f"deal {deal.number}: {chosen!r} is no other call the chooser could make (allowed: {allowed})"
        )
    made = contract_name(deal_trump(deal))
    trumps = (trump_of(made), trump_of(chosen))
    seat = chooser_of(deal)
    team = seat % 2
    start = moment_at(deal, rules, 1, 1).position
    layouts = conditioned_layouts(deal, rules, seat, REASON_LAYOUTS, seed, "trump")

    def team_points(value: int) -> float:
        return float(value if team == 0 else 60 - value)

    with ExitStack() as stack:
        if tables is None:
            tables = stack.enter_context(DealTables(1))

        def lines_on(hands: tuple[int, int, int, int]) -> Lines:
            position = Position(hands, (), start.leader)
            made_line, chosen_line = (best_line(position, trump, rules, tables=tables) for trump in trumps)
            return Lines(made_line, chosen_line, team)

        positions = [Position(layout, (), start.leader) for layout in layouts]
        values = [solve_batch(positions, t, rules, every_card=False, tables=tables)[0] for t in trumps]
        pairs = [(team_points(a), team_points(b)) for a, b in zip(values[0], values[1], strict=True)]
        index, means = closest_pair(pairs)
        real = lines_on(start.hands)
        view = lines_on(layouts[index])
    contract = deal.contract if deal.contract is not None else Contract.TRUMP
    chosen_contract = Contract.MUIL if chosen == "muil" else Contract.TRUMP
    factors = (call_factor(contract, deal, rules), call_factor(chosen_contract, deal, rules))
    scores = (
        sum(deal_score(a, factors[0], rules) for a, _ in pairs) / len(pairs),
        sum(deal_score(b, factors[1], rules) for _, b in pairs) / len(pairs),
    )
    return CallWhatIf(
        deal.number, seat, made, chosen, real, view, len(layouts), means, scores, factors, rules
    )


def line_cards(line: Line) -> list[str]:
    """A line's cards as the record writes them (``10H``), for a variation.

    >>> from manillen_replay.solver.lines import LinePlay
    >>> plays = (LinePlay(0, int(Card.H10)), LinePlay(1, int(Card.HA)))
    >>> line = Line(Position((0, 0, 0, 0), (), 0), plays, (), 0)
    >>> line_cards(line)
    ['10H', 'AH']
    """
    return [str(Card(play.card)) for play in line.plays]


def warm_up() -> None:
    """Load the solver's compiled code (numba keeps it in its cache) on a four-card ending, so
    that the first what-if a person asks for does not wait for it (about a second)."""
    ending = ("AH 7S KD 7C", "KH 8S AD 8C", "QH 9S QD 9C", "JH 10S JD 10C")
    hands = tuple(CardSet.parse(hand).mask for hand in ending)
    with DealTables(1) as tables:
        best_lines(Position((hands[0], hands[1], hands[2], hands[3]), (), 0), 0, Rules(), [
            int(Card.HA), int(Card.S7)], tables=tables)  # fmt: skip


__all__ = [
    "CallWhatIf",
    "Lines",
    "TrickPair",
    "WhatIf",
    "call_what_if",
    "line_cards",
    "moment_at",
    "warm_up",
    "what_if",
]
