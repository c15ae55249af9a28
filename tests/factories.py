"""Random legal games for tests: a deck shuffled by a seeded generator, random legal cards."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

from click.testing import CliRunner

from manillen_replay.cards import CARD_TEXT, DECK_32_MASK, iter_mask, mask_of
from manillen_replay.cli import cli
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


VARIANT_SEEDS = {"two_open": 5}
"""The generator's seed of a variant's one-deal archive when not 3: its first deal is one of the
quicker to solve (two_open's takes about 16 s, the others' a second or less)."""


def analysed_variant_archive(folder: Path, variant: str) -> Path:
    """An archive in ``folder`` of the first played deal of a generated match of ``variant``,
    imported and analysed by ``manillen analyze --depth solver``; its path."""
    out = folder / f"{variant}.jsonl"
    runner = CliRunner()
    seed = str(VARIANT_SEEDS.get(variant, 3))
    made = runner.invoke(
        cli, ["generate", "--variant", variant, "--matches", "1", "--seed", seed, "--out", str(out)]
    )
    assert made.exit_code == 0, made.output
    doc = json.loads(out.read_text().splitlines()[0])
    doc["deals"] = [d for d in doc["deals"] if d.get("tricks")][:1]
    doc["deals"][0].pop("recorded_score", None)
    out.write_text(json.dumps(doc) + "\n")
    db = folder / "club.duckdb"
    imported = runner.invoke(cli, ["import", str(out), "--db", str(db)])
    assert imported.exit_code == 0, imported.output
    analysed = runner.invoke(
        cli, ["analyze", "--db", str(db), "--depth", "solver", "--samples", "2", "--quiet"]
    )
    assert analysed.exit_code == 0, analysed.output
    return db
