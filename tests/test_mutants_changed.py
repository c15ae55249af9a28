"""Tests written for the mutants of the code changed for speed (issue 35), run again (issue 36):
each states what a reader of a replay, an analysis or an archive relies on, which those
mutants left unsaid (docs/testing.md)."""

from __future__ import annotations

import json

import msgspec
import pytest

from manillen_replay.analysis import analyse_record
from manillen_replay.analysis.detectors import MatchAnalysis
from manillen_replay.cards import Card
from manillen_replay.engine import decode_and_replay, replay
from manillen_replay.engine.results import IrregularityKind
from manillen_replay.errors import InvalidRecordError
from manillen_replay.record import loads
from manillen_replay.record.model import Record
from manillen_replay.record.validation import record_rules
from manillen_replay.rules import DealScore, Rules
from manillen_replay.store import Store
from manillen_replay.store import batch as batch_module

from .factories import random_record
from .test_bulk_replay import generated
from .test_engine import deal_dict, document
from .test_mutants_detectors import _demo
from .test_mutants_engine import _house, _unscored, _worked_out, call, calls_refused, replay_problems, sample
from .test_mutants_store import _entries, _line


def test_a_lone_muil_of_the_dealer_is_refused_when_the_turned_card_makes_trump() -> None:
    """Under ``trump_choice: turned_card`` the dealer's one call may not be a muil, as when
    other calls come with it."""
    rules = {"trump_choice": "turned_card"}
    refused = [
        "/deals/0/declarations/0: no muil under trump_choice turned_card: the turned card's suit is trump"
    ]
    assert calls_refused([call(0, "muil")], rules=rules) == refused
    assert calls_refused([call(0, "muil"), call(1, "klop")], rules=rules)[:1] == refused


def test_a_scoresheet_giving_the_deals_points_to_the_other_team_is_a_mismatch() -> None:
    """The scoresheet wrote the winners' points to the losers: the same number, the wrong team."""
    deal, played = next(
        (deal, played)
        for deal in map(deal_dict, range(1, 50))
        if (played := decode_and_replay(document([deal])).deals[0]).score is not None
    )
    assert played.score is not None
    deal["recorded_score"] = {"team": 1 - played.score.team, "points": played.score.points}
    checked = decode_and_replay(document([deal])).deals[0]
    assert checked.score == played.score and checked.score_mismatch
    assert checked.recorded == DealScore(1 - played.score.team, played.score.points)
    (irregularity,) = checked.irregularities
    assert irregularity.kind is IrregularityKind.SCORE_MISMATCH
    deal["recorded_score"] = {"team": played.score.team, "points": played.score.points}
    agreed = decode_and_replay(document([deal])).deals[0]
    assert not agreed.score_mismatch and agreed.recorded == agreed.score and not agreed.irregularities


def test_a_record_refused_names_the_same_problems_with_its_plays_worked_out_beforehand() -> None:
    """A record with a bad call in its first deal and a bad variation in its second: the
    replay that takes the plays the bulk path worked out names the same problems as the one
    that plays the cards itself (validate and import go either way)."""
    first, second = deal_dict(seed=1, dealer=0), deal_dict(seed=2, dealer=1)
    sound = loads(document([first, second]))
    ready = _worked_out(replay(sound))
    first["declarations"].append({"seat": 2, "call": "tegenklop"})
    second["annotations"] = [
        {"author": "Anna", "text": "the lead instead", "trick": 1, "play": 1, "line": ["9S", "9S"]}
    ]
    broken = loads(document([first, second]))
    told = []
    for played in (None, ready):
        with pytest.raises(InvalidRecordError) as refused:
            replay(broken, played=played)
        told.append([problem.describe() for problem in refused.value.problems])
    assert (
        told[0]
        == told[1]
        == [
            "/deals/0/declarations/1: expected 'klop' here, not 'tegenklop': klop and tegenklop alternate, "
            "klop first"
        ]
    )


def test_a_trump_given_under_the_opponents_trump_with_a_cheaper_card_to_give_is_points_thrown() -> None:
    """Under ``underbuy: allowed`` a player who cannot follow may trump under an opponent's
    higher trump. Carla gives J♦ (a trump, 1 point) to Bert's Q♦ in a trick the opponents were
    certain to take, while 8♠ (nothing) was hers to give: the point was thrown away. (A
    generated match: the club's novices play such cards.)"""
    (line,) = [
        line
        for line in generated("four", 25, (("underbuy", "allowed"),))
        if json.loads(line)["match"]["id"] == "sport-2026-01-13-1"
    ]
    record = loads(line)
    result = replay(record)
    trick = result.deals[12].tricks[6]
    assert result.deals[12].trump is not None and result.deals[12].trump.name == "D"
    assert trick.cards[3] == Card.DJ and trick.seats[3] == 2 and Card.DQ in trick.cards[:3]
    assert trick.cards[0] // 9 != 1  # not led in trumps: Carla could not follow
    assert trick.legal[3] >> Card.S8 & 1 and trick.winner != 2 and trick.winner % 2 != 0
    thrown = [
        (f.deal, f.trick, f.play, f.player, f.card, f.better, f.points)
        for f in MatchAnalysis(result, record).run()
        if f.kind == "points_thrown"
    ]
    assert (13, 7, 4, "Carla", Card.DJ, (Card.S8,), 1.0) in thrown


def test_a_deals_penalties_are_kept_when_read_and_empty_lists_only_are_dropped() -> None:
    """A penalty written in the record is read and counted; an empty list reads as none."""
    deal = deal_dict()
    deal["penalties"] = [{"team": 1, "points": 3, "reason": "cards shown"}]
    record = loads(document([deal]))
    assert [(p.team, p.points, p.reason) for p in record.deals[0].penalties] == [(1, 3, "cards shown")]
    assert replay(record).deals[0].penalties == [(1, 3, "cards shown")]
    deal["penalties"] = []
    assert loads(document([deal])).deals[0].penalties is msgspec.UNSET


def test_the_rules_of_a_record_are_its_variants_and_options_whatever_was_read_before() -> None:
    """Records of different variants and options read one after the other each get their own
    rules: the rules met before are reused only for the same variant and options."""
    seen = []
    for variant, options in (
        (None, None),
        ("six", None),
        ("three", None),
        (None, {"underbuy": "allowed"}),
        ("six", {"underbuy": "allowed"}),
        (None, None),
        ("six", None),
    ):
        match: dict = {
            "seats": ["Anna", "Bert", "Carla", "Dirk", "Eva", "Fien"][
                : 3 if variant == "three" else 6 if variant == "six" else 4
            ]
        }
        if variant:
            match["variant"] = variant
        if options:
            match["rules"] = options
        record = msgspec.convert({"format": "manillen/1", "match": match, "deals": []}, Record)
        rules = record_rules(record)
        assert rules == Rules().with_options(**{"variant": variant or "four", **(options or {})})
        seen.append((rules.variant, rules.underbuy))
    assert seen[0] == seen[-2] and seen[1] == seen[-1] and len(set(seen)) == 5


def _scoresheet_lines(points: list[int], rules: dict) -> bytes:
    """A match of scoresheet lines only (no cards), each deal won by Anna & Carla."""
    deals = [{"dealer": n % 4, "recorded_score": {"team": 0, "points": p}} for n, p in enumerate(points)]
    return document(deals, rules=rules)


def test_a_recorded_score_at_the_most_one_deal_scores_is_read_and_only_those_over_it_refused() -> None:
    """Without doublings a deal scores at most 30 (60 under capot fixed_60): a scoresheet line
    of exactly that is read; a line over it is refused at its place, and the message says what
    bounds it (the card points and the factor, or the capot's fixed score)."""
    plain = {"max_multiplier": 1}
    assert [d.recorded_score.points for d in loads(_scoresheet_lines([30, 12], plain)).deals] == [30, 12]
    with pytest.raises(InvalidRecordError) as refused:
        loads(_scoresheet_lines([30, 31, 30], plain))
    assert [(p.pointer, p.message) for p in refused.value.problems] == [
        (
            "/deals/1/recorded_score/points",
            "a recorded score of 31 points is more than one deal can score under these rules: "
            "at most 30 (30 card points over the half, times the highest factor 1)",
        )
    ]
    capot = {"max_multiplier": 1, "capot": "fixed_60"}
    assert [d.recorded_score.points for d in loads(_scoresheet_lines([60], capot)).deals] == [60]
    with pytest.raises(InvalidRecordError) as refused:
        loads(_scoresheet_lines([61, 60], capot))
    assert [(p.pointer, p.message) for p in refused.value.problems] == [
        (
            "/deals/0/recorded_score/points",
            "a recorded score of 61 points is more than one deal can score under these rules: "
            "at most 60 (a capot's fixed score (fixed_60))",
        )
    ]


def _with_penalty(deal: int, points: int, **rules: str) -> Record:
    """Two deals of a match not finished (Bert & Dirk score 22 and 10, Anna & Carla nothing),
    with a penalty on Anna & Carla in one deal."""
    document = json.loads(_line(random_record(0, deals=2)))
    document["deals"][deal]["penalties"] = [{"team": 0, "points": points}]
    if rules:
        document["match"]["rules"] = rules
    return loads(json.dumps(document))


def _imported(record: Record) -> tuple[int, int]:
    with Store() as store:
        summary = store.import_entries(_entries([_line(record)]))
        return summary.imported, summary.refused


def test_the_archives_integer_bound_holds_for_every_number_of_a_match_with_penalties(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The archive's INTEGER columns bound every number of a match, a penalty's and a score
    below zero too (lowered here to the match's own numbers, as in the store's tests): a
    penalty in the last deal does not hide the target from the bound, and a score exactly at
    minus the bound (a penalty on the offenders, who scored nothing) fits."""
    late = _with_penalty(1, 1)
    result = replay(late)
    target = result.rules.target
    assert target is not None and not result.finished and max(result.score) < target
    monkeypatch.setattr(batch_module, "INTEGER_LIMIT", target - 1)
    assert _imported(late) == (0, 1)
    early = _with_penalty(0, 300, penalty_to="offender")
    assert [deal.match_score[0] for deal in replay(early).deals] == [-300, -300]
    monkeypatch.setattr(batch_module, "INTEGER_LIMIT", 300)
    assert _imported(early) == (1, 0)
    monkeypatch.setattr(batch_module, "INTEGER_LIMIT", 299)
    assert _imported(early) == (0, 1)


def test_a_wasted_trump_whose_later_trick_held_no_points_is_told_whole() -> None:
    """The demo's hoekske-2026-04-07-4, deal 3: the finding says what was wasted, where and what
    could be discarded, and then that the later trick the trump would have taken held no points
    (the zero-point wording added since: the whole sentence, in both languages)."""
    (finding,) = [
        f for f in analyse_record(_demo("hoekske-2026-04-07-4")) if f.kind == "wasted_trump" and f.deal == 3
    ]
    assert finding.explanation == (
        "Hendrik trumped with A♦ in trick 5, a trick Griet was certain to take with Q♥, while a "
        "discard was possible (9♣ 10♠ J♠). In trick 7 Hendrik had no trump left and A♦ would have "
        "taken it, a trick without points: it cost nothing this time."
    )
    assert finding.explanation_nl == (
        "Hendrik kocht met de koeken aas (troef) in slag 5, een slag die Griet zeker won met de harten "
        "vrouw, terwijl afgooien kon (klaveren negen, schoppen manille en boer). In slag 7 had "
        "Hendrik geen troef meer en had de koeken aas de slag genomen, een slag zonder punten: deze "
        "keer kostte het niets."
    )


def _held_suit_refused(deal: dict) -> dict:
    """The dealer makes trump a suit the dealer does not hold, under ``held_suit`` (set on the
    match by the caller)."""
    held = {card[-1] for card in deal["hands"][deal["dealer"]]}
    deal["declarations"] = [{"seat": deal["dealer"], "call": "trump", "suit": sorted(set("HDCS") - held)[0]}]
    return deal


def _played_again_by_its_player(deal: dict) -> None:
    """Without hands, the first lead played again by the same player in a later trick (in place
    of that player's own card there)."""
    match = {"format": "manillen/1", "match": {"seats": ["Anna", "Bert", "Carla", "Dirk"]}, "deals": [deal]}
    tricks = replay(loads(json.dumps(match))).deals[0].tricks
    leader = tricks[0].seats[0]
    later = tricks[3].seats.index(leader)
    deal["tricks"][3][later] = deal["tricks"][0][0]
    deal.pop("hands")


def _not_held(deal: dict) -> None:
    """The second and third cards of the first trick played in each other's turn."""
    first = deal["tricks"][0]
    first[1], first[2] = first[2], first[1]


def _turned_and_not_held(deal: dict) -> None:
    """A card turned where the rules turn none (``trump_choice`` free), and a card played out of
    its player's turn after it."""
    deal["turned"] = deal["hands"][deal["dealer"]][0]
    _not_held(deal)


REFUSED_DEALS = {
    "a short trick": lambda deal: deal["tricks"][0].pop(),
    "no trump call": lambda deal: deal.pop("declarations"),
    "a card dealt twice": lambda deal: deal["hands"][0].__setitem__(0, deal["hands"][1][0]),
    "stopped early without hands": lambda deal: (
        deal.pop("hands"),
        deal["tricks"].__delitem__(slice(5, None)),
    ),
    "no hands and a card played twice": lambda deal: (
        deal.pop("hands"),
        deal["tricks"][1].__setitem__(0, deal["tricks"][0][0]),
    ),
    "nothing to replay": lambda deal: (deal.pop("hands"), deal.pop("tricks")),
    "a seat that does not exist": lambda deal: deal["declarations"][0].__setitem__("seat", 5),
    "a trump not held under held_suit": _held_suit_refused,
    "table moves in a game without table cards": lambda deal: deal.__setitem__(
        "table_moves", [{"trick": 1, "seat": 0}]
    ),
    "a card not held": _not_held,
    "a turned card without the rule, and a card not held": _turned_and_not_held,
    "no hands and a card played twice by its player": _played_again_by_its_player,
    "no hands and a card not in the deck": lambda deal: (
        deal.pop("hands"),
        deal["tricks"][2].__setitem__(1, "6H"),
    ),
}


@pytest.mark.parametrize("how", sorted(REFUSED_DEALS))
def test_a_deal_refused_for_its_calls_or_cards_is_told_only_that_with_a_variation_on_it(how: str) -> None:
    """A deal the replay refuses is named for what is wrong with it; a variation written on it
    (a comment with a line of cards) is not judged as well, since the deal it would start from
    was not replayed (it would be told it needs the deal's hands, trump call and cards)."""
    deal = deal_dict(seed=5, dealer=2)
    REFUSED_DEALS[how](deal)
    rules = {"trump_choice": "held_suit"} if "held_suit" in how else None
    match = {"format": "manillen/1", "match": {"seats": ["Anna", "Bert", "Carla", "Dirk"]}, "deals": [deal]}
    if rules:
        match["match"]["rules"] = rules
    told = replay_problems(json.loads(json.dumps(match)))
    deal["annotations"] = [{"author": "Anna", "text": "the 7 instead", "trick": 1, "play": 1, "line": ["7H"]}]
    assert replay_problems(match) == told
    assert len(told) == 1, told


def test_a_trump_refused_under_held_suit_is_told_alone_with_its_plays_worked_out_beforehand() -> None:
    """Dirk makes hearts without holding one (``held_suit``), and a variation is written on the
    deal: with the plays the bulk path worked out or without, the deal is refused for the trump
    alone, the variation not judged."""
    doc = _unscored(_house("trump-held-suit"))
    doc["deals"][0]["declarations"][0]["suit"] = "H"
    doc["deals"][0]["tricks"] = doc["deals"][0]["tricks"][:1]
    free = json.loads(json.dumps(doc))
    free["match"]["rules"] = {}
    ready = _worked_out(replay(loads(json.dumps(free))))
    doc["deals"][0]["annotations"] = [
        {"author": "Anna", "text": "the 9 instead", "trick": 1, "play": 1, "line": ["9S"]}
    ]
    for played in (None, ready):
        with pytest.raises(InvalidRecordError) as refused:
            replay(loads(json.dumps(doc)), played=played)
        assert [problem.describe() for problem in refused.value.problems] == [
            "/deals/0/declarations/0: Dirk holds no hearts and may not make them trump "
            "(trump_choice held_suit: the trump is a suit in the hand): Dirk may call diamonds, clubs "
            "or spades, or muil"
        ]


@pytest.mark.parametrize(
    ("name", "refused"),
    [
        ("variant-two-open", "/deals/0/hands: 'two_open' needs the hands and the table cards"),
        ("variant-three", "/deals/0/discards: 'three' lays 2 cards aside; the record gives 0"),
    ],
)
def test_a_variant_deal_refused_for_its_cards_is_told_only_that_with_a_variation_on_it(
    name: str, refused: str
) -> None:
    """The same in the games with table cards or cards laid aside: a deal of ``two_open``
    without its hands and table cards, a deal of ``three`` without the two cards laid aside,
    each with a variation written on it."""
    doc = sample(name)
    deal = doc["deals"][0]
    deal.pop("hands")
    deal.pop("discards", None)
    deal.pop("recorded_score", None)
    first = deal["tricks"][0][0]
    deal["annotations"] = [{"author": "Anna", "text": "as played", "trick": 1, "play": 1, "line": [first]}]
    assert replay_problems(doc) == [refused]


def test_a_card_outside_the_deck_is_the_one_problem_of_a_deal_without_hands_under_held_suit() -> None:
    """Carla deals, holding one heart (the A), and makes hearts under ``held_suit``; the record
    gives no hands and writes her ace as the 6 of spades, in no four-player deck: that card is
    the deal's one problem (the hands the tricks would give are not judged, where Carla would
    hold no hearts)."""
    deal = deal_dict(seed=1, dealer=2)
    assert [card for card in deal["hands"][2] if card.endswith("H")] == ["AH"]
    assert deal["declarations"] == [{"seat": 2, "call": "trump", "suit": "H"}]
    deal.pop("hands")
    (t, i), *_ = [
        (t, i) for t, trick in enumerate(deal["tricks"]) for i, card in enumerate(trick) if card == "AH"
    ]
    deal["tricks"][t][i] = "6S"
    match = {
        "format": "manillen/1",
        "match": {"seats": ["Anna", "Bert", "Carla", "Dirk"], "rules": {"trump_choice": "held_suit"}},
        "deals": [deal],
    }
    assert replay_problems(match) == [f"/deals/0/tricks/{t}/{i}: '6S' is not in the deck of 'four'"]
