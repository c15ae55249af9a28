"""A variation of a replayed deal checked against the rules of play: the cards that could have
been played from one play on, each held by the seat to play and legal in turn.

A variation is what a coach's comment may carry (``annotations[].line`` in the record format):
another card at a play, and the play after it. It replaces the cards from that play on, so the
hands are those the seats held at that play. The other calls the chooser could have made
(:func:`call_choices`) are the deal's other what-if, played out by the solver.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import CARD_POINTS, Card
from ..rules import Contract, Rules, classify_violation, legal_mask, trump_options, winning_position
from .results import DealResult

SUIT_LETTERS = "HDCS"
"""The trump suits' letters, in suit order."""


def call_name(trump: int | None) -> str:
    """A trump call's name: ``H``, ``D``, ``C``, ``S``, or ``muil`` for ``None``."""
    return "muil" if trump is None else SUIT_LETTERS[trump]


def trump_of(call: str) -> int | None:
    """The trump suit of a call's name, ``None`` for muil.

    >>> trump_of("C"), trump_of("muil")
    (2, None)
    """
    return None if call == "muil" else SUIT_LETTERS.index(call)


def chooser_of(deal: DealResult) -> int:
    """Who chose trump: the chooser the record names (en face), else the dealer."""
    return deal.chooser if deal.chooser is not None else deal.dealer


def call_choices(deal: DealResult, rules: Rules) -> list[str]:
    """The other calls the chooser could have made under the rules' ``trump_choice``, as the
    trump review weighs them (:func:`~manillen_replay.rules.trump_options`): none for a deal
    that cannot take a variation, or when the turned card made trump (``turned_card``)."""
    if not can_vary(deal, rules):
        return []
    assert deal.hands is not None  # can_vary
    turned = None if deal.trump is None else int(deal.trump)
    made = call_name(turned)
    options = trump_options(rules, deal.hands[chooser_of(deal)], turned)
    return [name for name in map(call_name, options) if name != made]


@dataclass(frozen=True, slots=True)
class VariationProblem:
    """Why a variation is not a play of the deal: the card it stops at and what is wrong."""

    index: int
    """The card of the variation, counted from 0 (its place in ``line``); -1 for the whole."""
    message: str
    """What is wrong, in words."""


@dataclass(frozen=True, slots=True)
class VariationCard:
    """One card of a variation as it falls on the table."""

    seat: int
    """Who plays it."""
    card: Card
    """The card."""
    trick: int
    """The trick of the deal, counted from 1."""
    winner: int | None
    """Who takes that trick, ``None`` when the variation stops before it is complete."""
    points: int
    """That trick's card points (0 until it is complete)."""


def can_vary(deal: DealResult, rules: Rules) -> bool:
    """Whether a deal can take a variation: the four-player game, its hands known, cards played
    and the trump (or muil) known."""
    return (
        rules.variant == "four"
        and deal.hands is not None
        and bool(deal.tricks)
        and (deal.trump is not None or deal.contract in (Contract.MUIL, Contract.BLIND_MUIL))
    )


def play_variation(
    deal: DealResult, rules: Rules, trick: int, play: int, line: Sequence[int], names: Sequence[str] = ()
) -> list[VariationCard] | VariationProblem:
    """The cards of a variation with who plays each and who takes each trick, or its first problem.

    :param deal: a replayed deal of the four-player game with its hands.
    :param trick: the trick of the play the variation starts at, counted from 1.
    :param play: that play's place in the trick, counted from 1.
    :param line: the cards, the first in place of the card played there.
    :param names: the seats' names for the messages (``seat N`` without them).
    """
    shape = rules.shape
    if rules.variant != "four":
        return VariationProblem(-1, f"variations are for the four-player game, not {rules.variant!r}")
    if not can_vary(deal, rules):
        return VariationProblem(-1, "a variation needs the deal's hands, its trump call and its cards played")
    if not 1 <= trick <= len(deal.tricks) or not 1 <= play <= len(deal.tricks[trick - 1].cards):
        return VariationProblem(-1, f"the deal has no play {play} in trick {trick} to start a variation from")

    def name(seat: int) -> str:
        return names[seat] if seat < len(names) else f"seat {seat}"

    assert deal.hands is not None  # can_vary said so
    held = list(deal.hands)
    for before in deal.tricks[: trick - 1]:
        for seat, gone in zip(before.seats, before.cards, strict=False):
            held[seat] &= ~(1 << gone)
    fork = deal.tricks[trick - 1]
    table: list[int] = [int(card) for card in fork.cards[: play - 1]]
    leader = fork.leader
    for seat, on_table in zip(fork.seats[: play - 1], table, strict=True):
        held[seat] &= ~(1 << on_table)
    trump = None if deal.trump is None else int(deal.trump)
    number = trick
    played: list[VariationCard] = []
    first_of_trick = 0
    for index, card in enumerate(line):
        seat = (leader + len(table)) % shape.players
        if number > shape.tricks or not held[seat]:
            return VariationProblem(index, f"the deal is over before card {index + 1} of the variation")
        if not held[seat] >> card & 1:
            return VariationProblem(
                index, f"{name(seat)} does not hold {Card(card)} at card {index + 1} of the variation"
            )
        winning = winning_position(table, trump) if table else 0
        partner = bool(table) and shape.team_of((leader + winning) % 4, deal.dealer) == shape.team_of(
            seat, deal.dealer
        )
        legal, _clause = legal_mask(table, held[seat], trump, partner, rules)
        if not legal >> card & 1:
            kind = classify_violation(card, table, held[seat], trump).value.replace("_", " ")
            return VariationProblem(
                index, f"{name(seat)} may not play {Card(card)} at card {index + 1} of the variation: {kind}"
            )
        held[seat] &= ~(1 << card)
        table.append(card)
        played.append(VariationCard(seat, Card(card), number, None, 0))
        if len(table) == shape.trick_size:
            winner = (leader + winning_position(table, trump)) % shape.players
            points = sum(CARD_POINTS[c] for c in table)
            for i in range(first_of_trick, len(played)):
                played[i] = VariationCard(played[i].seat, played[i].card, number, winner, points)
            first_of_trick = len(played)
            leader, table, number = winner, [], number + 1
    return played


__all__ = [
    "SUIT_LETTERS",
    "VariationCard",
    "VariationProblem",
    "call_choices",
    "call_name",
    "can_vary",
    "chooser_of",
    "play_variation",
    "trump_of",
]
