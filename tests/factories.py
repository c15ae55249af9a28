"""Random legal games for tests: a deck shuffled by a seeded generator, random legal cards."""

from __future__ import annotations

import random
from collections.abc import Callable

from manillen_replay.cards import CARD_TEXT, DECK_32_MASK, iter_mask, mask_of
from manillen_replay.record import Deal, Declaration, MatchInfo, Record
from manillen_replay.rules import Rules
from manillen_replay.state import DealState

SEATS = ["Anna", "Bert", "Carla", "Dirk"]


def deal_hands(rng: random.Random) -> tuple[int, ...]:
    """Eight cards to each of four seats from a shuffled 32-card deck."""
    deck = list(iter_mask(DECK_32_MASK))
    rng.shuffle(deck)
    return tuple(mask_of(deck[i * 8 : (i + 1) * 8]) for i in range(4))


def deal_record(dealer: int, trump: int | None, hands: tuple[int, ...], tricks: list[list[str]]) -> Deal:
    """A deal as the record format writes it, the dealer's call included."""
    call = (
        Declaration(seat=dealer, call="muil")
        if trump is None
        else Declaration(seat=dealer, call="trump", suit="HDCS"[trump])
    )
    return Deal(
        dealer=dealer,
        hands=[[CARD_TEXT[c] for c in iter_mask(h)] for h in hands],
        declarations=[call],
        tricks=tricks,
    )


def play_out(state: DealState, choose: Callable[[DealState], int]) -> tuple[list[list[str]], DealState]:
    """Play a deal to its end, ``choose`` picking each card; the tricks as texts, and the end."""
    tricks: list[list[str]] = []
    current: list[str] = []
    while not state.is_over:
        card = choose(state)
        current.append(CARD_TEXT[card])
        state = state.apply(card)
        if not state.trick:
            tricks.append(current)
            current = []
    return tricks, state


def random_deal(rng: random.Random, dealer: int, rules: Rules | None = None, trump: int | None = -1) -> Deal:
    """A complete deal of random legal plays (trump random unless given; None for muil)."""
    hands = deal_hands(rng)
    if trump == -1:
        trump = rng.randrange(4)
    state = DealState.start(rules or Rules(), dealer, trump, hands)
    tricks, _ = play_out(state, lambda s: rng.choice(list(iter_mask(s.legal_mask()))))
    return deal_record(dealer, trump, hands, tricks)


def random_record(seed: int, deals: int = 12, rules: Rules | None = None) -> Record:
    """A match of ``deals`` random legal deals with the dealer in rotation."""
    rng = random.Random(seed)
    return Record(
        format="manillen/1",
        match=MatchInfo(id=f"random-{seed}", seats=list(SEATS)),
        deals=[random_deal(rng, i % 4, rules) for i in range(deals)],
    )
