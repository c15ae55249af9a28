"""The compiled batch replay (:mod:`manillen_replay.bulk`) agrees with the engine record by record.

The same results (every trick, play, legal set, clause, violation, score), the same problems at
the same pointers, and the same archive rows, on generated matches of every variant, under
random house rules, and broken in the ways records break (a card dealt twice or not held, a
trick's card changed, a hand short of a card, a trump no hand allows, an option no rule has).
"""

from __future__ import annotations

import functools
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from manillen_replay import bulk
from manillen_replay.engine import replay
from manillen_replay.engine import replay as engine_replay
from manillen_replay.errors import InvalidRecordError
from manillen_replay.players import GenerateOptions, iter_matches, parse_players
from manillen_replay.record import Entry, Record, dumps, loads
from manillen_replay.rules import VARIANTS, Rules

from .test_bulk_paths import BREAKS, _comparable, _rows, broken

engine_module = __import__("manillen_replay.engine.replay", fromlist=["_Replay"])

MORE_BREAKS = (*BREAKS, "trump", "rules", "short_trick", "moves")
"""Besides :data:`BREAKS`: a trump call changed to another suit or to muil, a rule option no
rule has, a trick a card short, table moves in a game without table cards."""


@pytest.fixture(autouse=True, scope="module")
def compiled_for_every_batch():
    """The tests' batches are small: the compiled pass takes them all the same."""
    saved = bulk.COMPILED_MINIMUM
    bulk.COMPILED_MINIMUM = 0
    yield
    bulk.COMPILED_MINIMUM = saved


house_rules = st.fixed_dictionaries(
    {
        "underbuy": st.sampled_from(["forbidden", "allowed", "forbidden_with_other_suit", "forced"]),
        "partner_exempt": st.booleans(),
        "overtake_plain_suit": st.booleans(),
        "trump_choice": st.sampled_from(["free", "held_suit", "turned_card"]),
        "muil_double": st.booleans(),
        "capot": st.sampled_from(["plain", "double", "fixed_30", "fixed_60"]),
    }
)


@functools.cache
def generated(variant: str, seed: int, options: tuple[tuple[str, Any], ...] = ()) -> tuple[bytes, ...]:
    """Three generated matches (novices' slips included: illegal plays, scoresheet errors)."""
    rules = Rules().with_options(variant=variant, **dict(options))
    skills = ("club", "novice", "novice", "club", "novice", "club")[: rules.shape.people]
    players = parse_players(",".join(skills))
    matches = iter_matches(GenerateOptions(players=tuple(players), rules=rules, seed=seed))
    return tuple(dumps(next(matches).record, pretty=False).encode() for _ in range(3))


def more_broken(line: bytes, how: str, rng: random.Random) -> bytes:
    """``line`` broken one of the :data:`MORE_BREAKS` ways."""
    if how in BREAKS:
        return broken(line, how, rng)
    document = json.loads(line)
    deal = rng.choice(document["deals"])
    if how == "trump":
        for call in deal.get("declarations", []):
            if call["call"] == "trump":
                if rng.random() < 0.3:
                    call["call"] = "muil"
                    call.pop("suit", None)
                else:
                    call["suit"] = rng.choice("HDCS")
    elif how == "rules":
        document["match"]["rules"] = {"underbuy": "sometimes"}
    elif how == "short_trick" and deal.get("tricks"):
        rng.choice(deal["tricks"]).pop()
    elif how == "moves":
        deal["table_moves"] = [{"seat": 0, "trick": 1}]
    return json.dumps(document).encode()


def _reference(records: list[Record]) -> list[Any]:
    results: list[Any] = []
    for record in records:
        try:
            results.append(replay(record, source="club.jsonl", line=7))
        except InvalidRecordError as error:
            results.append(error)
    return results


def _seen(result: Any) -> Any:
    if isinstance(result, InvalidRecordError):
        return [(p.pointer, p.message, p.source, p.line) for p in result.problems]
    return _comparable(result)


def _agree(lines: list[bytes]) -> list[Any]:
    records = []
    for line in lines:
        try:
            records.append(loads(line, source="club.jsonl", line=7))
        except InvalidRecordError:
            continue  # refused when read: the same reader on both paths
    fast = bulk.replay_many(records, [("club.jsonl", 7)] * len(records))
    reference = _reference(records)
    assert [_seen(r) for r in fast] == [_seen(r) for r in reference]
    return fast


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(sorted(VARIANTS)),
    seed=st.integers(1, 6),
    hows=st.lists(st.sampled_from(MORE_BREAKS), min_size=1, max_size=3),
    pick=st.randoms(),
)
def test_batch_replay_agrees_with_the_engine_on_every_variant(variant, seed, hows, pick):
    lines = [more_broken(line, how, pick) for how in hows for line in generated(variant, seed)]
    _agree(lines)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    options=house_rules,
    seed=st.integers(1, 1_000),
    how=st.sampled_from(MORE_BREAKS),
    pick=st.randoms(),
)
def test_batch_replay_agrees_with_the_engine_under_house_rules(options, seed, how, pick):
    lines = [more_broken(line, how, pick) for line in generated("four", seed, tuple(sorted(options.items())))]
    _agree(lines)


def test_the_compiled_plays_are_really_taken(monkeypatch):
    """Sound four-player deals never reach the engine's card-by-card play (else the agreement
    above would prove nothing), and a deal with a card not held does."""
    calls: list[int] = []
    real = engine_module._Replay.play_tricks

    def counted(self, *args, **kwargs):
        calls.append(1)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(engine_module._Replay, "play_tricks", counted)
    records = [loads(line) for line in generated("four", 1)]
    results = bulk.replay_many(records)
    assert all(not isinstance(r, Exception) for r in results)
    assert sum(len(r.deals) for r in results if not isinstance(r, Exception)) > 10
    assert not calls
    slips = [bulk.replay_many([loads(line) for line in generated("four", seed)]) for seed in range(1, 9)]
    assert any(r.violations for results in slips for r in results if not isinstance(r, Exception))
    assert not calls  # illegal plays are found by the compiled pass too
    engine_replay(records[0])
    assert calls  # the reference path does play card by card
    calls.clear()
    document = json.loads(generated("four", 1)[0])
    hands = document["deals"][0]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]  # a card played from the wrong hand
    outcome = bulk.replay_many([loads(json.dumps(document))])[0]
    assert calls
    assert isinstance(outcome, InvalidRecordError)


def test_a_small_batch_is_played_by_the_engine_without_numba(monkeypatch):
    """Below ``COMPILED_MINIMUM`` deals the engine plays every card: a file of a few matches
    never waits for numba to load."""
    monkeypatch.setattr(bulk, "COMPILED_MINIMUM", 10_000)
    calls: list[int] = []
    real = engine_module._Replay.play_tricks
    monkeypatch.setattr(
        engine_module._Replay, "play_tricks", lambda self, *a, **k: calls.append(1) or real(self, *a, **k)
    )
    records = [loads(line) for line in generated("four", 1)]
    fast = bulk.replay_many(records, [("club.jsonl", 7)] * len(records))
    assert len(calls) == sum(len(record.deals) for record in records)
    assert [_seen(r) for r in fast] == [_seen(r) for r in _reference(records)]


def test_validate_entries_place_problems_as_one_by_one(tmp_path: Path):
    """``replay_entries`` (what ``manillen validate`` reads with) places problems in the file
    as the engine's ``replay_entry`` does, across batches."""
    rng = random.Random(5)
    lines = [more_broken(line, how, rng) for how in MORE_BREAKS for line in generated("four", 2)]
    entries = [Entry("club.jsonl", number, line) for number, line in enumerate(lines, start=1)]
    seen = []
    for entry, _, result in bulk.replay_entries(entries, batch=4):
        seen.append((entry.line, _seen(result)))
    assert seen == _engine_reference(entries)
    assert any(isinstance(result, list) for _, result in seen)


def test_validate_reads_each_document_of_a_small_file_once(monkeypatch):
    """A file too short for the compiled pass (fewer than ``COMPILED_MINIMUM`` deals) is read
    once, each document in full (it was read twice: its cards left unread for the compiled
    pass, then again in full when the pass did not run), with the same results and problems,
    placed as the engine places them."""
    monkeypatch.setattr(bulk, "COMPILED_MINIMUM", 500)
    rng = random.Random(5)
    lines = [more_broken(generated("four", 2)[0], how, rng) for how in MORE_BREAKS]
    entries = [Entry("club.jsonl", number, line) for number, line in enumerate(lines, start=1)]
    assert sum(line.count(b'"tricks"') for line in lines) < bulk.COMPILED_MINIMUM
    reads: list[str] = []
    real_decode, real_unread = Entry.decode, bulk.read_cards_unread
    monkeypatch.setattr(bulk, "read_cards_unread", lambda entry: reads.append("unread") or real_unread(entry))
    monkeypatch.setattr(Entry, "decode", lambda self, **how: reads.append("full") or real_decode(self, **how))
    seen = [(entry.line, _seen(result)) for entry, _, result in bulk.replay_entries(entries)]
    assert reads == ["full"] * len(entries)
    monkeypatch.undo()
    assert seen == _engine_reference(entries)
    assert any(isinstance(result, list) for _, result in seen)


def _engine_reference(entries: list[Entry]) -> list[tuple[int | None, Any]]:
    """Each entry as the engine alone replays it: the result, or the problems it is refused with."""
    from manillen_replay.engine import replay_entry

    reference: list[tuple[int | None, Any]] = []
    for entry in entries:
        try:
            reference.append((entry.line, _comparable(replay_entry(entry)[1])))
        except InvalidRecordError as error:
            reference.append((entry.line, _seen(error)))
    return reference


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    seed=st.integers(1, 6),
    ways=st.lists(
        st.tuples(st.sampled_from(MORE_BREAKS), st.deferred(lambda: st.sampled_from(LAYOUTS))),
        min_size=2,
        max_size=5,
    ),
    pick=st.randoms(),
    variant=st.sampled_from(sorted(VARIANTS)),
)
def test_import_rows_agree_with_the_engine(tmp_path_factory, monkeypatch, seed, ways, pick, variant):
    """The archive's rows from the compiled replay (the records read with their cards left as
    their text and read and checked by it, a chunk at once) are the rows of the engine's, each
    record read in full: records written in the one form the quick reading reads and in the ways
    it leaves to the full reading, or whose replay stops at a deal to play card by card."""
    from manillen_replay.store import Store

    matches = generated("four", seed) + generated(variant, seed)
    lines = [laid_out(more_broken(line, how, pick), layout, pick) for how, layout in ways for line in matches]
    entries = [Entry("club.jsonl", number, line) for number, line in enumerate(lines, start=1)]
    folder = tmp_path_factory.mktemp("compiled")
    read: list[Any] = []
    with monkeypatch.context() as patch:
        real = bulk.read_quickly
        patch.setattr(bulk, "read_quickly", lambda chunk: read.extend(real(chunk)) or read[-len(chunk) :])
        with Store(folder / "fast.duckdb") as store:
            fast = store.import_entries(entries)
    if ("none", "compact") in ways:
        # The sound four-player records written in the one form were read with their cards
        # checked at once.
        assert any(read)

    def one_by_one(records, ready, places):
        assert not any(ready)  # every record was read in full
        results = []
        for record, (source, line) in zip(records, places, strict=True):
            try:
                results.append(replay(record, source=source, line=line))
            except Exception as error:  # as replay_ready hands it back
                results.append(error)
        return results

    with monkeypatch.context() as patch:
        patch.setattr(bulk, "read_quickly", lambda chunk: [None] * len(chunk))
        patch.setattr(bulk, "replay_ready", one_by_one)
        with Store(folder / "reference.duckdb") as store:
            reference = store.import_entries(entries)
    assert (fast.imported, fast.refused, fast.deals) == (
        reference.imported,
        reference.refused,
        reference.deals,
    )
    assert [p.describe() for p in fast.rejects] == [p.describe() for p in reference.rejects]
    assert _rows(folder / "fast.duckdb") == _rows(folder / "reference.duckdb")


def test_validating_one_sample_loads_no_numba():
    """``manillen validate`` of one file stays quick to start: numba is loaded for batches of
    ``COMPILED_MINIMUM`` deals and more, not for a sample."""
    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from manillen_replay.cli import cli\n"
        "result = CliRunner().invoke(cli, ['validate', 'data/samples/seed-trick.json'])\n"
        "print(result.exit_code, 'numba' in sys.modules)\n"
    )
    root = Path(__file__).resolve().parent.parent
    said = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root)
    assert said.stdout.split()[-2:] == ["0", "False"]


def test_the_tricks_are_built_only_when_asked_for(monkeypatch):
    """A bulk result keeps each compiled deal's plays in its batch's arrays: validating reads no
    trick, and asking for one deal's tricks gives the engine's own (pickled the same way)."""
    import pickle

    built: list[int] = []
    real = bulk._BatchPlays._all_lists

    def counted(self):
        built.append(1)
        return real(self)

    monkeypatch.setattr(bulk._BatchPlays, "_all_lists", counted)
    records = [loads(line) for seed in range(1, 4) for line in generated("four", seed)]
    results = bulk.replay_many(records)
    deals = [deal for result in results if not isinstance(result, Exception) for deal in result.deals]
    assert any(deal.batch_plays is not None for deal in deals)
    assert sum(deal.trick_count for deal in deals) > 8 * 10
    assert sum(len(deal.violations) for deal in deals) > 0  # named without building a trick
    assert not built
    saved = pickle.loads(pickle.dumps(results[0]))
    assert built  # pickling builds them: a batch is no part of a saved result
    assert _comparable(saved) == _comparable(engine_replay(records[0]))
    assert _agree([dumps(record, pretty=False).encode() for record in records])


def test_the_import_takes_the_plays_from_the_arrays(tmp_path: Path, monkeypatch):
    """Sound four-player deals go into the archive's plays and tricks without a trick built."""
    from manillen_replay.store import Store, deal_rows

    built: list[int] = []
    real_all, real_add = bulk._BatchPlays._all_lists, deal_rows._DealRows._add_tricks
    monkeypatch.setattr(bulk._BatchPlays, "_all_lists", lambda self: built.append(1) or real_all(self))
    monkeypatch.setattr(deal_rows._DealRows, "_add_tricks", lambda *a: built.append(2) or real_add(*a))
    lines = list(generated("four", 2))
    entries = [Entry("club.jsonl", number, line) for number, line in enumerate(lines, start=1)]
    with Store(tmp_path / "fast.duckdb") as store:
        summary = store.import_entries(entries)
        plays = store.query("SELECT count(*) AS n FROM plays")["n"][0]
    assert not built
    assert summary.imported == len(lines)
    played = [engine_replay(loads(line)) for line in lines]
    assert plays == sum(len(trick.cards) for match in played for deal in match.deals for trick in deal.tricks)


def test_validate_checks_the_cards_of_a_chunk_at_once(monkeypatch):
    """Sound records skip the reader's card checks one deal at a time (the compiled pass and one
    look at the chunk's cards make them) with the engine's results; a record they do not cover
    (a variation in a comment, a card respelt) or that fails them is read in full, its problems
    placed as one by one."""
    from manillen_replay.record import io as record_io

    checked: list[int] = []
    real = record_io.canonicalize_cards
    monkeypatch.setattr(record_io, "canonicalize_cards", lambda record: checked.append(1) or real(record))

    def agree(lines: list[bytes]) -> list[Any]:
        entries = [Entry("club.jsonl", number, line) for number, line in enumerate(lines, start=1)]
        seen = [(entry.line, _seen(result)) for entry, _, result in bulk.replay_entries(entries)]
        assert seen == _engine_reference(entries)
        return seen

    sound = list(generated("four", 3))
    agree(sound)
    reads = len(sound)  # the reference's reads, one a record
    assert len(checked) == reads  # the bulk path checked no record one deal at a time
    document = json.loads(sound[0])
    first = document["deals"][0]
    first["annotations"] = [
        {"trick": 1, "play": 1, "author": "Jef", "text": "or this", "line": [first["tricks"][0][0]]}
    ]
    noted = json.dumps(document).encode()
    checked.clear()
    agree([noted, *sound[1:]])
    assert len(checked) == len(sound) + 1  # the record with a variation was read in full
    rng = random.Random(3)
    for how in ("respell", "unknown", "twice", "score"):
        checked.clear()
        seen = agree([broken(line, how, rng) for line in sound])
        if how != "score":  # a score over the bound is refused before the cards are looked at
            assert len(checked) >= len(sound) + 1  # the bulk path read some in full
        if how != "respell":
            assert any(isinstance(result, list) for _, result in seen)


LONE_CALLS = (
    {"call": "trump", "suit": "H"},
    {"call": "trump", "suit": "S"},
    {"call": "trump"},
    {"call": "muil"},
    {"call": "muil", "suit": "D"},
    {"call": "blind_muil"},
    {"call": "klop"},
    {"call": "pass"},
)
"""One call a deal, as a record may give it: the engine's quick reading must take only the
sound trump and muil calls, and read them as its loop over the calls does."""


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    trump_choice=st.sampled_from(["free", "held_suit", "turned_card"]),
    seed=st.integers(1, 1_000),
    call=st.sampled_from(LONE_CALLS),
    by_dealer=st.booleans(),
    turned=st.booleans(),
    pick=st.randoms(),
)
def test_a_lone_call_reads_as_the_loop_over_the_calls_reads_it(
    trump_choice, seed, call, by_dealer, turned, pick
):
    """The dealer's one call read at once (``read_lone_contract``) gives the results and the
    problems the loop over the calls gives, whatever the call, its seat, a turned card and
    ``trump_choice``; the bulk path gives them too."""
    lines = []
    for line in generated("four", seed, (("trump_choice", trump_choice),)):
        document = json.loads(line)
        deal = pick.choice(document["deals"])
        seat = deal["dealer"] if by_dealer else (deal["dealer"] + 1) % 4
        deal["declarations"] = [{"seat": seat, **call}]
        if turned and deal.get("hands"):
            deal["turned"] = deal["hands"][deal["dealer"]][-1]
        lines.append(json.dumps(document).encode())
    records = []
    for line in lines:
        try:
            records.append(loads(line, source="club.jsonl", line=7))
        except InvalidRecordError:
            continue
    quick = [_seen(result) for result in _reference(records)]
    taken: list[bool] = []
    lone = engine_module._Replay.read_lone_contract

    def noted(self, deal, lone_call, outcome):
        taken.append(lone(self, deal, lone_call, outcome))
        return taken[-1]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(engine_module._Replay, "read_lone_contract", noted)
        assert [_seen(result) for result in _reference(records)] == quick
        assert taken or not records
        patch.setattr(engine_module._Replay, "read_lone_contract", lambda *_: False)
        assert [_seen(result) for result in _reference(records)] == quick
    fast = bulk.replay_many(records, [("club.jsonl", 7)] * len(records))
    assert [_seen(result) for result in fast] == quick


def test_the_lone_call_reading_takes_the_common_calls():
    """The dealer's trump call (and muil) are read at once, so the comparison above compares
    something; a call by another seat, a klop or a muil with a suit are left to the loop."""
    record = loads(generated("four", 3)[0])
    deal = record.deals[0]
    reader = engine_module._Replay(record, None, None, False, ())
    reader.rules = Rules()
    Declaration = type(deal.declarations[0])
    outcome = engine_module.DealResult(number=1, dealer=deal.dealer, kind=engine_module.DealKind.PLAYED)
    for call, expected in (
        (Declaration(seat=deal.dealer, call="trump", suit="C"), True),
        (Declaration(seat=deal.dealer, call="muil"), True),
        (Declaration(seat=deal.dealer, call="muil", suit="C"), False),
        (Declaration(seat=(deal.dealer + 1) % 4, call="trump", suit="C"), False),
        (Declaration(seat=deal.dealer, call="klop"), False),
    ):
        assert reader.read_lone_contract(deal, call, outcome) is expected, call


LAYOUTS = ("compact", "spaced", "escaped", "lower", "empty_tricks", "no_tricks", "turned", "redeal")
"""How a test writes a record for the quick reading of its cards (``manillen validate``): in the
one form records are written in (``compact``: the quick reading reads its cards), with spaces,
a card's character escaped or in lowercase (read again in full), a deal with ``tricks: []`` or
none, a deal's calls left to a turned card or made a redeal with a card turned (the replay
stops at them and the record is read again in full)."""


def laid_out(line: bytes, how: str, rng: random.Random) -> bytes:
    """``line`` written one of the :data:`LAYOUTS` ways (in a random deal)."""
    document = json.loads(line)
    deals = [deal for deal in document["deals"] if deal.get("hands") and deal.get("tricks")]
    deal = rng.choice(deals) if deals else None
    if how == "spaced":
        return json.dumps(document).encode()
    if deal is not None and how == "empty_tricks":
        deal["tricks"] = []
    elif deal is not None and how == "no_tricks":
        del deal["tricks"]
    elif deal is not None and how in ("turned", "redeal"):
        # a card of the trump called, when the dealer holds one: the plays stay those of the calls
        suits = {call.get("suit") for call in deal.get("declarations", []) if call["call"] == "trump"}
        held = deal["hands"][deal["dealer"]]
        deal["turned"] = rng.choice([card for card in held if card[-1] in suits] or held)
        deal["declarations"] = [{"seat": deal["dealer"], "call": "redeal"}] if how == "redeal" else []
    compact = json.dumps(document, separators=(",", ":"))
    if deal is not None and how in ("escaped", "lower"):
        card = rng.choice(deal["hands"][0])
        written = f"\\u{ord(card[0]):04x}{card[1:]}" if how == "escaped" else card.lower()
        compact = compact.replace(f'"{card}"', f'"{written}"', 1)
    return compact.encode()


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(sorted(VARIANTS)),
    seed=st.integers(1, 6),
    ways=st.lists(st.tuples(st.sampled_from(MORE_BREAKS), st.sampled_from(LAYOUTS)), min_size=1, max_size=3),
    batch=st.integers(1, 7),
    pick=st.randoms(),
)
def test_validate_agrees_with_the_engine_on_every_variant(variant, seed, ways, batch, pick):
    """``replay_entries`` (the quick reading of each batch's cards, the compiled plays, the
    engine taking them) gives each document the engine's own result or problems, placed as
    one by one: sound and broken records of every variant, written in the one form the quick
    reading reads and in the ways it leaves to the full reading."""
    lines = [
        laid_out(more_broken(line, how, pick), layout, pick)
        for how, layout in ways
        for line in generated(variant, seed)
    ]
    entries = [Entry("club.jsonl", number, line) for number, line in enumerate(lines, start=1)]
    seen = [(entry.line, _seen(result)) for entry, _, result in bulk.replay_entries(entries, batch=batch)]
    assert seen == _engine_reference(entries)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    options=house_rules,
    seed=st.integers(1, 1_000),
    how=st.sampled_from(MORE_BREAKS),
    layout=st.sampled_from(LAYOUTS),
    pick=st.randoms(),
)
def test_validate_agrees_with_the_engine_under_house_rules(options, seed, how, layout, pick):
    lines = [
        laid_out(more_broken(line, how, pick), layout, pick)
        for line in generated("four", seed, tuple(sorted(options.items())))
    ]
    entries = [Entry("club.jsonl", number, line) for number, line in enumerate(lines, start=1)]
    seen = [(entry.line, _seen(result)) for entry, _, result in bulk.replay_entries(entries)]
    assert seen == _engine_reference(entries)


def _count_stops(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A list that gets an item each time the replay of a record read with its cards unread
    stops at a deal it must play card by card (the record is then read in full)."""
    stops: list[int] = []
    real_play = engine_module._Replay.play_unread_deal

    def counted(self, *args):
        try:
            return real_play(self, *args)
        except engine_module.CardsUnread:
            stops.append(1)
            raise

    monkeypatch.setattr(engine_module._Replay, "play_unread_deal", counted)
    return stops


def test_validate_reads_the_cards_of_compact_records_at_once(monkeypatch):
    """Records in the form they are written in never have their cards read one by one (no
    full reading, nothing played card by card); a deal the replay must play card by card (a
    card turned where the rules turn none) sends its record to the full reading, with the
    engine's problems."""
    decoded: list[int] = []
    real_decode = Entry.decode
    monkeypatch.setattr(Entry, "decode", lambda self, **how: decoded.append(1) or real_decode(self, **how))
    sound = [line for seed in (1, 2) for line in generated("four", seed)]
    lines = [laid_out(line, "compact", random.Random(1)) for line in sound]
    entries = [Entry("club.jsonl", number, line) for number, line in enumerate(lines, start=1)]
    seen = [(entry.line, _seen(result)) for entry, _, result in bulk.replay_entries(entries)]
    assert not decoded
    assert all(not isinstance(result, list) for _, result in seen)
    decoded.clear()
    assert seen == _engine_reference(entries)
    assert len(decoded) == len(entries)  # the reference reads each in full
    decoded.clear()
    unread = _count_stops(monkeypatch)
    turned = [laid_out(lines[0], "turned", random.Random(2)), *lines[1:]]
    entries = [Entry("club.jsonl", number, line) for number, line in enumerate(turned, start=1)]
    seen = [(entry.line, _seen(result)) for entry, _, result in bulk.replay_entries(entries)]
    assert unread and decoded == [1]
    assert isinstance(seen[0][1], list)  # the trump call is missing
    assert seen == _engine_reference(entries)


@st.composite
def card_list_texts(draw, cards: int, most: int) -> bytes:
    """The JSON text of a list of lists of cards, mostly in the form records are written in,
    sometimes changed by a character."""
    from manillen_replay.cards import CARD_TEXT

    lists = draw(st.integers(0, most + 1))
    value = [[draw(st.sampled_from(CARD_TEXT)) for _ in range(cards)] for _ in range(lists)]
    if lists and draw(st.booleans()):
        value[draw(st.integers(0, lists - 1))].pop()
    text = json.dumps(value, separators=(",", ":"))
    if draw(st.integers(0, 2)) == 0:
        at = draw(st.integers(0, len(text) - 1))
        change = draw(st.sampled_from(['"', "\\", " ", ",", "[", "]", "", "1", "0", "h", "X", "é"]))
        text = text[:at] + change + text[at + draw(st.integers(0, 1)) :]
    return text.encode()


@settings(max_examples=200, deadline=None)
@given(texts=st.lists(card_list_texts(2, 3), min_size=1, max_size=6), fewest=st.integers(1, 3))
def test_card_lists_are_read_as_json_reads_them(texts, fewest):
    """A text is read exactly when it is JSON in the one form records are written in: lists of
    the given number of canonical cards, as many lists as allowed, written without spaces or
    escapes (as the records' writer writes them); its cards are then the ones JSON reads,
    whatever the texts beside it."""
    from manillen_replay.cards import CARD_TEXT

    codes, lists, read = bulk.read_card_lists(texts, 2, 3, fewest)
    expected_codes: list[int] = []
    for text, count, was_read in zip(texts, lists.tolist(), read.tolist(), strict=True):
        try:
            value = json.loads(text)
        except ValueError:
            value = None
        canonical = (
            isinstance(value, list)
            and fewest <= len(value) <= 3
            and all(isinstance(one, list) and len(one) == 2 and set(one) <= set(CARD_TEXT) for one in value)
            and json.dumps(value, separators=(",", ":")).encode() == text
        )
        assert was_read == canonical, text
        assert count == (len(value) if canonical else 0)
        if canonical:
            expected_codes += [CARD_TEXT.index(card) for one in value for card in one]
    assert codes.tolist() == expected_codes


DEAL_SHAPES = {
    "scoresheet line": lambda deal: {"dealer": deal["dealer"], "recorded_score": {"team": 0, "points": 2}},
    "nothing to replay": lambda deal: {"dealer": deal["dealer"]},
    "hands, no tricks, a score": lambda deal: {
        **{k: v for k, v in deal.items() if k != "tricks"},
        "recorded_score": {"team": 1, "points": 1},
    },
    "tricks, no hands": lambda deal: {k: v for k, v in deal.items() if k != "hands"},
    "tricks cut short": lambda deal: {**deal, "tricks": deal["tricks"][:5]},
    "no calls": lambda deal: {k: v for k, v in deal.items() if k != "declarations"},
    "muil": lambda deal: {**deal, "declarations": [{"seat": deal["dealer"], "call": "muil"}]},
    "trump of another suit": lambda deal: {
        **deal,
        "declarations": [
            {"seat": deal["dealer"], "call": "trump", "suit": "HDCS"[("HDCS".index(c["suit"]) + 1) % 4]}
            if c.get("suit")
            else c
            for c in deal.get("declarations", [])
        ],
    },
    "table cards": lambda deal: {**deal, "table": [[["7H", "8H"]]]},
    "laid aside": lambda deal: {**deal, "discards": ["7H", "8H"]},
    "table moves": lambda deal: {**deal, "table_moves": [{"trick": 1, "seat": 0}]},
}
"""A deal rewritten into each shape the quick reading of the cards must tell apart: those it
replays from the compiled plays, and those it leaves to the full reading (which names the
problems)."""


@pytest.mark.parametrize("shape", sorted(DEAL_SHAPES))
def test_every_shape_of_deal_reads_quickly_as_the_engine_reads_it(shape: str) -> None:
    """Each record with one deal (the third) rewritten into ``shape``, among sound records in
    the written form, gives through ``replay_entries`` exactly the engine's result or problems:
    the deal's kind, points, score and the match's totals, or the problems at their pointers."""
    lines = []
    for line in generated("four", 3):
        document = json.loads(line)
        document["deals"][2] = DEAL_SHAPES[shape](document["deals"][2])
        lines.append(json.dumps(document, separators=(",", ":")).encode())
    sound = list(generated("four", 4))
    entries = [Entry("club.jsonl", n, line) for n, line in enumerate([*sound, *lines, *sound], start=1)]
    seen = [(entry.line, _seen(result)) for entry, _, result in bulk.replay_entries(entries)]
    assert seen == _engine_reference(entries)


def test_a_trump_not_held_is_refused_by_the_quick_reading_as_by_the_engine() -> None:
    """Under ``trump_choice: held_suit`` a dealer who calls hearts holding none is refused, with
    the engine's problem at its pointer, when validate reads the cards of a batch at once, and
    the sound records around it are read as the engine reads them."""
    options = (("trump_choice", "held_suit"),)
    document = json.loads(generated("four", 3, options)[0])
    deal = document["deals"][8]
    assert not any(card.endswith("H") for card in deal["hands"][deal["dealer"]])
    deal["declarations"] = [{"seat": deal["dealer"], "call": "trump", "suit": "H"}]
    called = json.dumps(document, separators=(",", ":")).encode()
    lines = [*generated("four", 4, options), called, *generated("four", 5, options)]
    entries = [Entry("club.jsonl", number, line) for number, line in enumerate(lines, start=1)]
    seen = [(entry.line, _seen(result)) for entry, _, result in bulk.replay_entries(entries)]
    assert seen == _engine_reference(entries)
    refused = seen[3][1]
    assert isinstance(refused, list) and any(pointer.startswith("/deals/8/") for pointer, *_ in refused)


@pytest.mark.parametrize("hands", [1, 2, 3])
def test_a_deal_short_of_hands_is_refused_whatever_the_cards_after_it(hands: int) -> None:
    """A record's last deal written with fewer than four hands, and the next record's first deal
    starting with the hands it lacks: validate reading the batch's cards at once still refuses
    it with the engine's problem (each deal's cards are its own, not the batch's next ones), and
    reads the next record as the engine does."""
    first, second = (json.loads(line) for line in generated("four", 3)[:2])
    last = first["deals"][-1]
    lacking, last["hands"] = last["hands"][hands:], last["hands"][:hands]
    second["deals"][0]["hands"][: len(lacking)] = lacking
    lines = [json.dumps(document, separators=(",", ":")).encode() for document in (first, second)]
    entries = [Entry("club.jsonl", number, line) for number, line in enumerate(lines, start=1)]
    seen = [(entry.line, _seen(result)) for entry, _, result in bulk.replay_entries(entries)]
    assert seen == _engine_reference(entries)
    deal = len(first["deals"]) - 1
    assert [pointer for pointer, *_ in seen[0][1]] == [f"/deals/{deal}/hands"]  # refused, at its hands


def test_import_reads_in_full_a_record_whose_replay_stops_at_a_deal(tmp_path, monkeypatch):
    """The import's quick reading leaves each deal's cards as their text; a record whose replay
    comes to a deal it must play card by card (a card turned) is read in full and replayed, and
    the archive gets the rows and problems an import reading every record in full gives."""
    from manillen_replay.store import Store

    sound = [line for seed in (1, 2) for line in generated("four", seed)]
    lines = [laid_out(line, "compact", random.Random(1)) for line in sound]
    lines[0] = laid_out(lines[0], "turned", random.Random(2))
    lines[1] = laid_out(lines[1], "redeal", random.Random(3))
    entries = [Entry("club.jsonl", number, line) for number, line in enumerate(lines, start=1)]
    with monkeypatch.context() as patch:
        unread = _count_stops(patch)
        with Store(tmp_path / "fast.duckdb") as store:
            fast = store.import_entries(entries)
    assert unread  # the replay stopped at a deal
    with monkeypatch.context() as patch:
        patch.setattr(bulk, "read_quickly", lambda chunk: [None] * len(chunk))
        with Store(tmp_path / "reference.duckdb") as store:
            reference = store.import_entries(entries)
    counts = (fast.imported, fast.refused, fast.deals)
    assert counts == (reference.imported, reference.refused, reference.deals)
    assert fast.refused >= 1  # the turned card's deal lacks its trump call
    assert [p.describe() for p in fast.rejects] == [p.describe() for p in reference.rejects]
    assert _rows(tmp_path / "fast.duckdb") == _rows(tmp_path / "reference.duckdb")
