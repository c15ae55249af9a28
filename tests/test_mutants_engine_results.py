"""The replay's results as their readers take them (``manillen_replay.engine.results``): a deal's
tricks kept in a batch's arrays until asked for (the bulk path's, ``manillen validate`` and the
import), the same deal whichever path replayed it, the same once saved and read back (the
dashboard keeps replays in Streamlit's cache, which pickles them), and a match's illegal plays and
irregularities gathered from its deals in order.
"""

from __future__ import annotations

import json
import pickle
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from manillen_replay import bulk
from manillen_replay.engine import DealResult, MatchResult, decode_and_replay, replay
from manillen_replay.engine.results import TrickResult
from manillen_replay.record import loads

SAMPLES = Path(__file__).resolve().parent.parent / "data" / "samples"


class _Batch:
    """A batch's plays as the engine asks for them (:class:`~manillen_replay.engine.results.
    BatchPlays`): row ``i`` is the tricks of ``rows[i]``; it counts the tricks it builds."""

    def __init__(self, rows: list[list[TrickResult]]) -> None:
        self.rows = rows
        self.trick_counts = [len(tricks) for tricks in rows]
        self.built: list[int] = []
        # the flat arrays are the compiled batch's: a deal reads only the counts and the tricks
        self.first_play: Any = None
        self.seats: Any = None
        self.cards: Any = None
        self.legal: Any = None
        self.clauses: Any = None
        self.winning: Any = None

    def tricks_of(self, row: int) -> list[TrickResult]:
        self.built.append(row)
        return [replace(t, seats=list(t.seats), cards=list(t.cards)) for t in self.rows[row]]


def _sample(name: str) -> MatchResult:
    return decode_and_replay((SAMPLES / f"{name}.json").read_bytes())


def _in_a_batch(result: MatchResult) -> tuple[MatchResult, _Batch]:
    """The match replayed again, each deal's tricks handed to a batch of ``result``'s (row = deal)."""
    again = replace(result, deals=[replace(deal) for deal in result.deals])
    batch = _Batch([list(deal.tricks) for deal in result.deals])
    for row, deal in enumerate(again.deals):
        deal.take_batch_plays(batch, row)
    return again, batch


def test_a_deals_tricks_stay_in_the_batch_until_asked_for_then_are_built_once() -> None:
    """While the tricks are in the batch, the deal counts them without building them and names
    its batch and row; asked for, they are the engine's tricks, built once: asked again, the same
    list, and the deal no longer points at the batch."""
    engine = _sample("illegal-plays")
    result, batch = _in_a_batch(engine)
    for row, (deal, own) in enumerate(zip(result.deals, engine.deals, strict=True)):
        assert deal.batch_plays == (batch, row)
        assert deal.trick_count == len(own.tricks) == 8
    assert batch.built == []
    deal = result.deals[2]
    tricks = deal.tricks
    assert batch.built == [2]
    assert tricks == engine.deals[2].tricks
    assert deal.tricks is tricks and batch.built == [2]
    assert deal.batch_plays is None and deal.trick_count == 8
    # a deal of a shorter row counts its own row, not another's
    batch.trick_counts[1] = 3
    assert result.deals[1].trick_count == 3


def test_tricks_set_on_a_deal_replace_those_of_its_batch() -> None:
    engine = _sample("illegal-plays")
    result, batch = _in_a_batch(engine)
    deal = result.deals[0]
    deal.tricks = engine.deals[0].tricks[:3]
    assert deal.batch_plays is None
    assert deal.trick_count == 3 and [t.number for t in deal.tricks] == [1, 2, 3]
    assert batch.built == []
    fresh = _sample("seed-trick").deals[0]
    assert fresh.batch_plays is None and fresh.trick_count == len(fresh.tricks) == 8


def test_a_deal_is_the_same_whichever_path_replayed_it() -> None:
    """Equal when every field and every trick is equal, whether the tricks were built from a
    batch or played by the engine; any one field or trick apart makes them differ."""
    engine = _sample("illegal-plays")
    result, _ = _in_a_batch(engine)
    assert result.deals == engine.deals
    assert all(a == b for a, b in zip(result.deals, engine.deals, strict=True))
    deal = engine.deals[0]
    for changed in (
        replace(deal, number=9),
        replace(deal, dealer=(deal.dealer + 1) % 4),
        replace(deal, score=None),
        replace(deal, violations=[]),
        replace(deal, counted=False),
        replace(deal, match_score=(0, 0)),
    ):
        assert changed != deal
    fewer = replace(deal)
    fewer.tricks = deal.tricks[:-1]
    assert fewer != deal
    other_cards = replace(deal)
    other_cards.tricks = [deal.tricks[1], deal.tricks[0], *deal.tricks[2:]]
    assert other_cards != deal
    # a deal is never equal to something else than a deal, nor is it an error to ask
    assert (deal == "deal 1") is False and deal != None  # noqa: E711
    assert deal.__eq__(object()) is NotImplemented


@pytest.mark.parametrize("from_batch", [False, True])
def test_a_saved_deal_reads_back_the_same_with_its_tricks(from_batch: bool) -> None:
    """Pickled (as Streamlit's cache keeps the dashboard's replays) and read back: every field
    and every trick, a deal still in its batch included, and no batch kept with it."""
    engine = _sample("illegal-plays")
    result = _in_a_batch(engine)[0] if from_batch else _sample("illegal-plays")
    saved = pickle.dumps(result)
    if from_batch:
        assert all(deal.batch_plays is None for deal in result.deals), "pickling builds the tricks"
    back = pickle.loads(saved)
    assert back.deals == engine.deals
    for deal, own in zip(back.deals, engine.deals, strict=True):
        assert deal.batch_plays is None and deal.trick_count == 8
        assert deal.tricks == own.tricks and deal.violations == own.violations
        assert (deal.score, deal.points, deal.names, deal.hands) == (
            own.score,
            own.points,
            own.names,
            own.hands,
        )
    assert back.violations == engine.violations and back.score == engine.score


def test_a_deal_of_the_compiled_batch_saves_and_compares_as_the_engines(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The bulk path's own batch: the deals it hands back hold their tricks in its arrays, count
    them without building, and compare and pickle as the engine's deals."""
    monkeypatch.setattr(bulk, "COMPILED_MINIMUM", 0)
    lines = [(SAMPLES / f"{name}.json").read_bytes() for name in ("illegal-plays", "seed-trick", "muil")]
    records = [loads(json.dumps(json.loads(line)).encode()) for line in lines]
    fast = bulk.replay_many(records)
    engine = [replay(record) for record in records]
    deals: list[Any] = [deal for result in fast for deal in result.deals]  # type: ignore[union-attr]
    assert any(deal.batch_plays is not None for deal in deals)
    assert [deal.trick_count for deal in deals] == [len(d.tricks) for e in engine for d in e.deals]
    back = pickle.loads(pickle.dumps(fast))
    assert [r.deals for r in back] == [e.deals for e in engine]
    assert [r.deals for r in fast] == [e.deals for e in engine]  # type: ignore[union-attr]


def test_a_matchs_illegal_plays_and_irregularities_are_its_deals_in_order() -> None:
    """What ``manillen replay`` and ``manillen validate`` count and list for a match: every
    deal's illegal plays, then the next deal's, and the same for the irregularities."""
    illegal = _sample("illegal-plays")
    per_deal = [deal.violations for deal in illegal.deals]
    assert sum(map(len, per_deal)) >= 2 and sum(1 for v in per_deal if v) >= 2
    assert illegal.violations == [v for violations in per_deal for v in violations]
    assert [v.trick for v in illegal.violations] == [v.trick for d in per_deal for v in d]
    # a scoresheet whose deals 4 and 9 were dealt out of turn: each of them, and the deal after
    sheet = json.loads((SAMPLES / "scoresheet.json").read_text())
    for index in (3, 8):
        sheet["deals"][index]["dealer"] = (sheet["deals"][index]["dealer"] + 2) % 4
    dealt = decode_and_replay(json.dumps(sheet).encode())
    assert [i.deal for i in dealt.irregularities] == [4, 5, 9, 10]
    assert all(i.message.startswith(f"deal {i.deal} was dealt by ") for i in dealt.irregularities)
    assert dealt.irregularities == [i for deal in dealt.deals for i in deal.irregularities]
    assert _sample("seed-trick").violations == [] and _sample("seed-trick").irregularities == []


def test_an_empty_match_has_nothing_to_report() -> None:
    empty = MatchResult("m", None, ["A", "B", "C", "D"], _sample("seed-trick").rules)
    assert (empty.violations, empty.irregularities) == ([], [])
    deal = DealResult(1, 0, _sample("seed-trick").deals[0].kind)
    assert deal.tricks == [] and deal.trick_count == 0 and deal.batch_plays is None
