"""A deal card by card as the players saw it: each seat's playable cards before and after each card.

In the variants with table cards a seat plays from its hand and from the face-up top cards of its
table piles; a card played from a pile turns up the one under it, and a seat may move its third
pile's top card to its emptied fourth place first. The puzzles, the report and the Replay page
walk a deal this one way.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..cards import CardSet, mask_of
from ..errors import ManillenError
from .results import DealResult, TrickResult


def hands_dealt(deal: DealResult) -> tuple[CardSet, ...]:
    """Each seat's cards before the first card: its hand as dealt and, in the variants with table
    cards, its face-up table cards (all a caller sees of their own cards).

    :raises ManillenError: when the hands are not known.
    """
    if deal.hands is None:
        raise ManillenError(f"deal {deal.number}: the hands are not known")
    tops = face_up(deal.table, len(deal.hands))
    return tuple(CardSet(int(h)) | tops[seat] for seat, h in enumerate(deal.hands))


def face_up(piles: Sequence[Sequence[Sequence[int]]], seats: int) -> tuple[CardSet, ...]:
    """Each seat's face-up table cards: the top card of each of its piles (bottom to top)."""
    return tuple(
        CardSet(mask_of(pile[-1] for pile in piles[seat] if pile)) if seat < len(piles) else CardSet(0)
        for seat in range(seats)
    )


@dataclass(frozen=True, slots=True)
class Turn:
    """One card of a deal as :func:`iter_turns` walks them: the cards each seat may play from just
    before it and just after it."""

    trick: TrickResult
    position: int
    """The card's place in the trick, counted from 1."""
    before: tuple[int, ...]
    """Each seat's playable cards (masks) just before the card: its hand and its face-up table
    cards, a table move made before the card done."""
    after: tuple[int, ...]
    """The same just after it: the card gone, the table card under it turned up."""
    piles: list[list[list[int]]]
    """Each seat's table piles (bottom card first) just before the card; the walk changes them
    as it goes on, so read them before asking for the next card."""


def iter_turns(deal: DealResult) -> Iterator[Turn]:
    """Every card of a deal in the order played, with the cards each seat may play from around it
    (a card played from a pile turns up the one under it; a seat moving its third pile's top card
    to its emptied fourth place before a card has moved it).

    :raises ManillenError: when the deal's hands are not known.
    """
    hands = [h.mask for h in hands_dealt(deal)]
    piles = [[list(pile) for pile in seat_piles] for seat_piles in deal.table]
    moves = {(number, position): seat for number, position, seat in deal.table_moves}
    for result in deal.tricks:
        for position, (seat, card) in enumerate(zip(result.seats, result.cards, strict=True), start=1):
            if (result.number, position) in moves:
                third, fourth = piles[seat][2], piles[seat][3]
                fourth.append(third.pop())
                if third:
                    hands[seat] |= 1 << third[-1]
            before = tuple(hands)
            hands[seat] &= ~(1 << int(card))
            turned = None
            for pile in piles[seat] if piles else ():
                if pile and pile[-1] == card:
                    turned = pile
                    break
            if turned is not None and len(turned) > 1:
                hands[seat] |= 1 << turned[-2]
            yield Turn(result, position, before, tuple(hands), piles)
            if turned is not None:
                turned.pop()
