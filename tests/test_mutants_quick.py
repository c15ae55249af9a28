"""The replay of a record whose cards were left unread (``manillen validate``'s quick reading,
:func:`~manillen_replay.record.io.read_cards_unread`), handed plays worked out beforehand.

The engine takes the plays only for a deal its own reading would play from those very cards:
hands and tricks given, the calls' trump, no table cards, nothing laid aside, no table moves. Any
other deal whose cards it would have to read sends the record back to the full reading
(:class:`~manillen_replay.engine.replay.CardsUnread`); a deal without cards (a scoresheet line)
it reads itself. These tests hand it the compiled pass's plays of a record and then change the
record under them, or hand it the plays worked out from a record read in full (which plays a
deal with ``tricks: []``), and compare with the engine's own reading of the same document.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from manillen_replay import bulk
from manillen_replay.engine.replay import CardsUnread, PlayedDeal, replay
from manillen_replay.errors import InvalidRecordError
from manillen_replay.record import Entry, loads
from manillen_replay.record.io import read_cards_unread

from .test_bulk_paths import _comparable
from .test_bulk_replay import compiled_for_every_batch, generated  # noqa: F401 (autouse: one record is a batch too)

READ_IN_FULL = "read in full"
"""What the quick reading of a record gives when it must be read again in full."""

SOURCE, LINE = "club.jsonl", 5


def _entry(document: dict[str, Any]) -> Entry:
    return Entry(SOURCE, LINE, json.dumps(document, separators=(",", ":")).encode())


def _seen(run: Any) -> Any:
    """What a replay gives: its result, or the problems it refuses the record with."""
    try:
        return _comparable(run())
    except InvalidRecordError as error:
        return [(p.pointer, p.message) for p in error.problems]


def _engine(document: dict[str, Any]) -> Any:
    """The engine's own reading of the document, every card read."""
    return _seen(lambda: replay(loads(_entry(document).data), source=SOURCE, line=LINE))


def _quick(document: dict[str, Any], played: dict[int, PlayedDeal] | None) -> Any:
    """The replay of the document read with its cards unread, handed ``played``."""
    record = read_cards_unread(_entry(document))
    assert record is not None
    try:
        return _seen(lambda: replay(record, source=SOURCE, line=LINE, played=played))
    except CardsUnread:
        return READ_IN_FULL


def _worked_out(document: dict[str, Any], *, read_in_full: bool = False) -> dict[int, PlayedDeal]:
    """The plays the compiled pass works out for the document's deals: from their cards' JSON
    text, as validate and the import read them, or from the record read in full (``read_in_full``:
    :func:`~manillen_replay.bulk.replay_many`'s, the scan's)."""
    plan = bulk._Plan() if read_in_full else bulk._UnreadPlan()
    record = _entry(document).decode() if read_in_full else read_cards_unread(_entry(document))
    assert record is not None
    plan.add_record(0, record)
    return plan.play(1)[0]


def _with_variation(deal: dict[str, Any], card: str) -> dict[str, Any]:
    """``deal`` with a comment's variation: the first lead ``card``."""
    note = {"author": "Anna", "text": "what if", "trick": 1, "play": 1, "line": [card]}
    return {**deal, "annotations": [note]}


def _document(seed: int = 3, **options: Any) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(generated("four", seed, tuple(sorted(options.items())))[0])
    return document


def _without(deal: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {key: value for key, value in deal.items() if key not in keys}


def _calls(deal: dict[str, Any], *calls: dict[str, Any]) -> dict[str, Any]:
    return {**deal, "declarations": list(calls)}


CHANGED_UNDER_THE_PLAYS = {
    "hands left out": lambda deal: _without(deal, "hands"),
    "tricks left out": lambda deal: _without(deal, "tricks"),
    "tricks left out, no score": lambda deal: _without(deal, "tricks", "recorded_score"),
    "table cards": lambda deal: {**deal, "table": [[["7H", "8H"]]]},
    "cards laid aside": lambda deal: {**deal, "discards": ["7H", "8H"]},
    "table moves": lambda deal: {**deal, "table_moves": [{"trick": 1, "seat": 0}]},
    "trump of another suit": lambda deal: _calls(
        deal,
        {
            "seat": deal["dealer"],
            "call": "trump",
            "suit": "H" if deal["declarations"][0]["suit"] != "H" else "S",
        },
    ),
    "muil": lambda deal: _calls(deal, {"seat": deal["dealer"], "call": "muil"}),
}
"""A deal changed after the compiled pass worked out its plays, in what the plays do not cover."""


@pytest.mark.parametrize("change", sorted(CHANGED_UNDER_THE_PLAYS))
def test_plays_worked_out_before_the_deal_changed_send_the_record_to_the_full_reading(change: str):
    """The plays of a deal, handed over after its hands or tricks were left out, table cards,
    cards laid aside or table moves were added, or its trump changed, are not taken: the record
    is read again in full (which names what is wrong with it, as the engine does). The deal as
    it was is taken as the engine reads it."""
    document = _document()
    plays = _worked_out(document)
    assert 2 in plays
    assert _quick(document, plays) == _engine(document) != READ_IN_FULL
    document["deals"][2] = CHANGED_UNDER_THE_PLAYS[change](document["deals"][2])
    assert _quick(document, plays) == READ_IN_FULL
    assert _engine(document) != _engine(_document())  # the change matters to the engine


def test_plays_worked_out_for_a_muil_are_not_taken_once_the_calls_are_gone():
    """A muil deal's plays (worked out for no trump, one trick played) handed over after its
    calls were left out: the engine's reading finds no trump call, and so must the full reading
    the record goes to."""
    document = _document()
    deal = document["deals"][2]
    # stopped after the first trick: without trump another seat may win it and lead the next
    muil = _calls({**deal, "tricks": deal["tricks"][:1]}, {"seat": deal["dealer"], "call": "muil"})
    document["deals"][2] = muil
    plays = _worked_out(document)
    assert plays[2].tricks == 1
    assert _quick(document, plays) == _engine(document) != READ_IN_FULL
    document["deals"][2] = _without(document["deals"][2], "declarations")
    assert _quick(document, plays) == READ_IN_FULL
    assert _engine(document) == [
        (
            "/deals/2/declarations",
            "a deal with tricks or hands needs the trump call (declarations): the suit the dealer "
            "chose, or muil (in the text notation `trump H` or `muil` on the deal's line)",
        )
    ]


@pytest.mark.parametrize("shape", ["a scoresheet line", "nothing to replay, with a variation"])
def test_a_deal_without_cards_is_read_at_once_as_the_engine_reads_it(shape: str):
    """A deal without hands or tricks needs no card read: the quick reading gives the engine's
    own result (a scoresheet line) or its one problem (nothing to replay: the variation written
    on it is not looked at, as the engine does not), without the full reading."""
    document = _document()
    deal = document["deals"][2]
    bare = {"dealer": deal["dealer"], "declarations": deal["declarations"]}
    if shape == "a scoresheet line":
        document["deals"][2] = {**bare, "recorded_score": {"team": 0, "points": 2}}
    else:
        document["deals"][2] = _with_variation(bare, deal["hands"][deal["dealer"]][0])
    plays = _worked_out(document)
    assert 2 not in plays
    seen = _quick(document, plays)
    assert seen == _engine(document) != READ_IN_FULL
    if shape != "a scoresheet line":
        assert seen == [("/deals/2", "a deal needs tricks, hands or a recorded_score")]


def test_the_plays_of_a_deal_without_tricks_are_not_taken_for_a_scoresheet_line():
    """The compiled pass works out a deal read in full with its hands and ``tricks: []``
    (nothing played); handed to the replay of the record read with its cards unread, those plays
    would make it an abandoned deal, but with its recorded score the engine reads it as a
    scoresheet line: the record is read in full."""
    document = _document()
    document["deals"][2]["tricks"] = []
    plays = _worked_out(document, read_in_full=True)
    assert plays[2].tricks == 0
    assert _quick(document, plays) == READ_IN_FULL
    assert _engine(document)["deals"][2]["kind"] == "scoresheet"


def test_without_plays_worked_out_every_deal_with_cards_is_read_in_full():
    document = _document()
    assert _quick(document, None) == _quick(document, {}) == READ_IN_FULL
    only_scores = {**document, "deals": [_without(d, "hands", "tricks") for d in document["deals"]]}
    assert _quick(only_scores, None) == _engine(only_scores) != READ_IN_FULL


def test_a_trump_the_dealer_does_not_hold_is_the_one_problem_even_with_a_variation_on_the_deal():
    """Under ``trump_choice: held_suit`` a dealer who calls hearts holding none: the plays worked
    out are not taken and the deal is refused with that one problem, at the calls; the variation
    written on it is not played (the engine plays none on a refused deal)."""
    document = _document(trump_choice="held_suit")
    deal = document["deals"][8]
    held = deal["hands"][deal["dealer"]]
    assert not any(card.endswith("H") for card in held)
    # stopped after the first trick: with hearts trump another seat may win it and lead the next
    deal = _calls(
        {**deal, "tricks": deal["tricks"][:1]}, {"seat": deal["dealer"], "call": "trump", "suit": "H"}
    )
    document["deals"][8] = _with_variation(deal, held[0])
    plays = _worked_out(document)
    assert 8 in plays
    seen = _quick(document, plays)
    assert seen == _engine(document)
    dealer = document["match"]["seats"][deal["dealer"]]
    ((pointer, said),) = seen
    assert pointer == "/deals/8/declarations/0"  # at the call itself
    assert (
        said.startswith(
            f"{dealer} holds no hearts and may not make them trump (trump_choice held_suit: the trump is "
            f"a suit in the hand): {dealer} may call "
        )
        and said.endswith(", or muil")
        and "hearts" not in said.split("may call")[1]
    )


def test_a_redeal_with_its_hands_unread_is_read_in_full():
    """A redeal is judged by the dealer's hand (five small cards and a jack): with its cards
    unread, the record goes to the full reading."""
    document = _document()
    document["match"]["rules"] = {"cafe": {"redeal_small": True}}
    deal = document["deals"][2]
    document["deals"][2] = {
        "dealer": deal["dealer"],
        "hands": deal["hands"],
        "tricks": [],
        "declarations": [{"seat": deal["dealer"], "call": "redeal"}],
    }
    assert _quick(document, _worked_out(document)) == READ_IN_FULL
    assert isinstance(_engine(document), (list, dict))
