"""Random legal games for tests: a deck shuffled by a seeded generator, random legal cards."""

from __future__ import annotations

import random

from manillen_replay.cards import CARD_TEXT, DECK_32_MASK, iter_mask, mask_of
from manillen_replay.record import Deal, Declaration, MatchInfo, Record
from manillen_replay.rules import Rules
from manillen_replay.state import DealState

SEATS = ["Anna", "Bert", "Carla", "Dirk"]


def random_deal(rng: random.Random, dealer: int, rules: Rules | None = None, trump: int | None = -1) -> Deal:
    """A complete deal of random legal plays (trump random unless given; None for muil)."""
    rules = rules or Rules()
    deck = list(iter_mask(DECK_32_MASK))
    rng.shuffle(deck)
    hands = tuple(mask_of(deck[i * 8 : (i + 1) * 8]) for i in range(4))
    if trump == -1:
        trump = rng.randrange(4)
    state = DealState.start(rules, dealer, trump, hands)
    tricks: list[list[str]] = []
    current: list[str] = []
    while not state.is_over:
        card = rng.choice(list(iter_mask(state.legal_mask())))
        current.append(CARD_TEXT[card])
        state = state.apply(card)
        if not state.trick:
            tricks.append(current)
            current = []
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


def random_record(seed: int, deals: int = 12, rules: Rules | None = None) -> Record:
    """A match of ``deals`` random legal deals with the dealer in rotation."""
    rng = random.Random(seed)
    return Record(
        format="manillen/1",
        match=MatchInfo(id=f"random-{seed}", seats=list(SEATS)),
        deals=[random_deal(rng, i % 4, rules) for i in range(deals)],
    )
