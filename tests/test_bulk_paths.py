"""The bulk path agrees with the reference path: the same problems, results, findings and rows.

Each shortcut the bulk path takes is checked against the precise path it stands in for, on
generated matches of every variant and on the same matches broken in the ways records break:

- reading: a deal's cards looked at whole (one superset test, one set) before the card-by-card
  checks that work out pointers (:mod:`manillen_replay.record.io`, ``record.validation``);
- the analysis's winning card and "can a legal card beat it" from the replay's own record,
  against the rules' ``winning_position`` asked card by card;
- the import in batches of a hundred matches against one match a batch.
"""

from __future__ import annotations

import datetime
import functools
import importlib
import json
import random
from pathlib import Path
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from manillen_replay.analysis.knowledge import DealKnowledge
from manillen_replay.cards import iter_mask
from manillen_replay.engine import MatchResult, replay
from manillen_replay.errors import IllegalPlayError, InvalidRecordError
from manillen_replay.players import GenerateOptions, iter_matches, parse_players
from manillen_replay.record import Entry, dumps, loads
from manillen_replay.rules import VARIANTS, Rules, winning_position

record_io = importlib.import_module("manillen_replay.record.io")
validation = importlib.import_module("manillen_replay.record.validation")

SKILLS = ("club", "novice", "club", "novice", "club", "novice")


@functools.cache
def generated(variant: str, seed: int) -> tuple[bytes, ...]:
    """Two generated matches of a variant (slips included), one JSON line each."""
    rules = Rules().with_options(variant=variant)
    players = parse_players(",".join(SKILLS[: rules.shape.people]))
    matches = iter_matches(GenerateOptions(players=tuple(players), rules=rules, seed=seed))
    return tuple(dumps(next(matches).record, pretty=False).encode() for _ in range(2))


def _cards_of(deal: dict[str, Any]) -> list[tuple[list[Any], int]]:
    """Every list of cards in a deal, as (list, index) places."""
    places: list[tuple[list[Any], int]] = []
    for key in ("hands", "tricks"):
        for group in deal.get(key, []):
            places += [(group, i) for i in range(len(group))]
    for piles in deal.get("table", []):
        for pile in piles:
            places += [(pile, i) for i in range(len(pile))]
    places += [(deal["discards"], i) for i in range(len(deal.get("discards", [])))]
    return places


BREAKS = ("none", "respell", "unknown", "twice", "swap", "drop", "trick_card", "score")
"""How a test breaks a record: not at all, a card in another spelling (``th``), a card no deck
has, a card dealt twice, two cards of a hand swapped with another hand's, a card gone from a
hand, a trick's card changed, a recorded score too large."""


def broken(line: bytes, how: str, rng: random.Random) -> bytes:
    """The record of ``line`` broken in one of the :data:`BREAKS` ways (in a random deal)."""
    if how == "none":
        return line
    document = json.loads(line)
    deals = [deal for deal in document["deals"] if deal.get("hands")]
    deal = rng.choice(deals or document["deals"])
    places = _cards_of(deal)
    if how == "score":
        deal["recorded_score"] = {"team": 0, "points": 10**6}
    elif places and how == "respell":
        group, i = rng.choice(places)
        text = group[i]
        group[i] = (text[:-1].replace("10", "T") + text[-1]).lower()
    elif places and how == "unknown":
        group, i = rng.choice(places)
        group[i] = rng.choice(["1H", "ZZ", "6X", "10"])
    elif places and how == "twice":
        (group, i), (other, j) = rng.sample(places, 2) if len(places) > 1 else (places[0], places[0])
        other[j] = group[i]
    elif how == "swap" and len(deal.get("hands", [])) > 1:
        first, second = rng.sample([hand for hand in deal["hands"] if hand] or [[], []], 2)
        if first and second:
            first[0], second[0] = second[0], first[0]
    elif how == "drop" and any(deal.get("hands", [])):
        rng.choice([hand for hand in deal["hands"] if hand]).pop()
    elif how == "trick_card" and deal.get("tricks"):
        trick = rng.choice([trick for trick in deal["tricks"] if trick] or [[""]])
        trick[rng.randrange(len(trick))] = rng.choice(["AH", "7S", "10D", "JC", "KS"])
    return json.dumps(document).encode()


def outcome(data: bytes, *, bulk: bool, strict: bool = False) -> Any:
    """What reading and replaying a document gives, by the bulk path or the reference path:
    the problems (pointer, message, place), or the record and its replay."""
    saved = (record_io._all_canonical, validation._all_different)
    if not bulk:
        record_io._all_canonical = lambda deal: False
        validation._all_different = lambda deal: False
    try:
        record = loads(data, source="club.jsonl", line=7)
        result = replay(record, source="club.jsonl", line=7, strict=strict)
    except InvalidRecordError as error:
        return [(p.pointer, p.message, p.source, p.line) for p in error.problems]
    except IllegalPlayError as error:
        return ("illegal", str(error))
    finally:
        record_io._all_canonical, validation._all_different = saved
    return dumps(record, pretty=False), _comparable(result)


def _comparable(result: MatchResult) -> Any:
    """The result as plain values, every deal's tricks built (the bulk path builds them from
    its batch only when asked: the comparison asks)."""
    for deal in result.deals:
        deal.tricks  # noqa: B018
    return msgspec.to_builtins(result, builtin_types=(datetime.date,), enc_hook=repr)


variants = st.sampled_from(sorted(VARIANTS))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=variants, seed=st.integers(1, 4), how=st.sampled_from(BREAKS), pick=st.randoms())
def test_reading_and_replay_agree_with_the_reference_path(variant, seed, how, pick):
    for line in generated(variant, seed):
        data = broken(line, how, pick)
        bulk = outcome(data, bulk=True)
        assert bulk == outcome(data, bulk=False)
        if how == "none":  # the unbroken record is read and replayed
            assert not isinstance(bulk, list), bulk


def test_the_reference_path_is_really_taken(monkeypatch):
    """The switches the tests use do reach the precise path (else the agreement proves nothing)."""
    line = generated("four", 1)[0]
    calls: list[str] = []
    real_cards, real_groups = validation._dealt_cards, record_io._card_groups
    monkeypatch.setattr(validation, "_dealt_cards", lambda *a: calls.append("cards") or real_cards(*a))
    monkeypatch.setattr(record_io, "_card_groups", lambda *a: calls.append("groups") or real_groups(*a))
    outcome(line, bulk=True)
    assert not calls  # a sound record never needs the precise path
    outcome(line, bulk=False)
    assert {"cards", "groups"} <= set(calls)


@settings(max_examples=40, deadline=None)
@given(variant=variants, seed=st.integers(1, 4))
def test_winning_card_and_beaters_agree_with_the_rules(variant, seed):
    for line in generated(variant, seed):
        record = loads(line)
        result = replay(record)
        for deal in result.deals:
            if deal.hands is None or not deal.tricks:
                continue
            know = DealKnowledge(deal, result.rules)
            for view in know.views:
                if view.position == 0:
                    continue
                earlier = view.trick.cards[: view.position]
                best = earlier[winning_position(earlier, know.trump)]
                assert know.winning_card_before(view) == best
                wins = any(
                    winning_position([*earlier, card], know.trump) == view.position
                    for card in iter_mask(view.legal)
                )
                assert bool(view.legal & know.beaters(best)) == wins


def _rows(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every table of an archive, its rows sorted, the clock's readings (when a row was
    written) left out."""
    from manillen_replay.store import Store

    with Store(path, read_only=True) as store:
        names = store.query(
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = 'main' AND table_type = 'BASE TABLE'"
        )["table_name"].to_list()
        tables = {}
        for name in names:
            frame = store.query(f'SELECT * FROM "{name}"')
            frame = frame.drop(
                [name for name, kind in frame.schema.items() if kind.is_temporal() and name != "date"]
            )
            tables[name] = sorted(frame.rows(), key=repr)
    return tables


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    seed=st.integers(1, 4), hows=st.lists(st.sampled_from(BREAKS), min_size=3, max_size=8), pick=st.randoms()
)
def test_import_in_batches_stores_the_rows_of_one_match_a_batch(tmp_path_factory, seed, hows, pick):
    from manillen_replay.store import Store

    lines = [
        broken(line, how, pick)
        for how in hows
        for variant in ("four", "three")
        for line in generated(variant, seed)
    ]
    entries = [Entry("club.jsonl", number, line) for number, line in enumerate(lines, start=1)]
    folder = tmp_path_factory.mktemp("bulk")
    with Store(folder / "bulk.duckdb") as store:
        bulk = store.import_entries(entries)
    one_by_one = Store.BATCH_SIZE
    try:
        Store.BATCH_SIZE = 1
        with Store(folder / "reference.duckdb") as store:
            reference = store.import_entries(entries)
    finally:
        Store.BATCH_SIZE = one_by_one
    assert (bulk.imported, bulk.replaced, bulk.skipped, bulk.refused, bulk.deals) == (
        reference.imported,
        reference.replaced,
        reference.skipped,
        reference.refused,
        reference.deals,
    )
    # A record refused when read is reported as it is read, one refused by the replay when its
    # batch is replayed: the order of the list follows the batches, the problems do not.
    assert sorted(p.describe() for p in bulk.rejects) == sorted(p.describe() for p in reference.rejects)
    assert _rows(folder / "bulk.duckdb") == _rows(folder / "reference.duckdb")
