"""Deals recorded without hands: the hands inferred from the tricks, and their legality.

Without hands the replay takes each seat's hand to be the cards it played: the first card of a
trick line is its leader's (the dealer's left in the first trick, each trick's winner in the
next), and the others follow clockwise. The same cards in another order of lines give other
hands, so whether every card is legal depends on the order the lines were typed in. These are
pure functions on a deal's tricks, for checking a reordered deal as the replay would.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..rules import Rules, legal_mask, winning_position


def inferred_leaders(
    tricks: Sequence[Sequence[int]], dealer: int, trump: int | None, rules: Rules
) -> list[int]:
    """The seat that leads each trick: the dealer's left, then each trick's winner.

    :param tricks: the cards of each trick in the order played, leader first.
    :param trump: the trump suit, or ``None`` for muil.
    """
    shape = rules.shape
    leader = shape.next_seat(dealer, dealer)
    leaders = []
    for cards in tricks:
        leaders.append(leader)
        leader = shape.seat_of_play(leader, winning_position(cards, trump), dealer)
    return leaders


def inferred_hands(
    tricks: Sequence[Sequence[int]], dealer: int, trump: int | None, rules: Rules
) -> tuple[int, ...]:
    """Each seat's hand (a card mask) as the cards it played, in :func:`inferred_leaders`' order."""
    shape = rules.shape
    hands = [0] * shape.players
    for leader, cards in zip(inferred_leaders(tricks, dealer, trump, rules), tricks, strict=True):
        for position, card in enumerate(cards):
            hands[shape.seat_of_play(leader, position, dealer)] |= 1 << card
    return tuple(hands)


def first_illegal_play(
    tricks: Sequence[Sequence[int]], dealer: int, trump: int | None, rules: Rules
) -> tuple[int, int] | None:
    """The first play that breaks a rule when the hands are inferred from ``tricks``.

    The same rules as the replay's (:func:`manillen_replay.rules.legal_mask`), for the variants
    that may be recorded without hands (no table cards). The tricks must hold distinct cards.

    :returns: ``(trick, play)``, both counted from 1, or ``None`` when every card is legal.
    """
    shape = rules.shape
    holding = list(inferred_hands(tricks, dealer, trump, rules))
    leaders = inferred_leaders(tricks, dealer, trump, rules)
    for t, (leader, cards) in enumerate(zip(leaders, tricks, strict=True)):
        for position, card in enumerate(cards):
            seat = shape.seat_of_play(leader, position, dealer)
            if position:
                winner = shape.seat_of_play(leader, winning_position(cards[:position], trump), dealer)
                partner_winning = shape.team_of(winner, dealer) == shape.team_of(seat, dealer)
                legal, _ = legal_mask(cards[:position], holding[seat], trump, partner_winning, rules)
                if not legal >> card & 1:
                    return t + 1, position + 1
            holding[seat] &= ~(1 << card)
    return None


def is_legal_without_hands(
    tricks: Sequence[Sequence[int]], dealer: int, trump: int | None, rules: Rules
) -> bool:
    """Whether every card of ``tricks`` is legal with the hands inferred from them."""
    return first_illegal_play(tricks, dealer, trump, rules) is None


__all__ = ["first_illegal_play", "inferred_hands", "inferred_leaders", "is_legal_without_hands"]
