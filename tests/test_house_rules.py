"""House rules that other Manillen programs and clubs play: one test per clause, named after it.

Each option has a sample in ``data/samples/house-*.json`` that replays here, under its rule and,
where the rule changes something, under the default rules for the difference.
"""

from __future__ import annotations

import json
import random
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from manillen_replay.cards import Card, CardSet, Suit
from manillen_replay.cli import cli
from manillen_replay.engine import decode_and_replay, replay
from manillen_replay.engine.results import DealResult
from manillen_replay.errors import InvalidOptionError, InvalidRecordError
from manillen_replay.record import dumps, loads
from manillen_replay.record.text import dumps_text, loads_text
from manillen_replay.rules import (
    Clause,
    Contract,
    DealScore,
    Rules,
    ViolationKind,
    classify_violation,
    highest_deal_score,
    highest_multiplier,
    legal_plays,
    may_klop,
    multiplier,
    score_deal,
    trump_options,
)
from manillen_replay.solver import solve_position

SAMPLES = Path(__file__).resolve().parent.parent / "data" / "samples"


def sample(name: str) -> dict[str, Any]:
    return json.loads((SAMPLES / f"house-{name}.json").read_text())


def replayed(document: dict[str, Any]) -> DealResult:
    return replay(loads(json.dumps(document))).deals[0]


def under(document: dict[str, Any], rules: dict[str, Any]) -> DealResult:
    """The sample's deal replayed under other rules, its written score and turned card left out."""
    other = json.loads(json.dumps(document))
    other["match"]["rules"] = rules
    other["deals"][0].pop("recorded_score", None)
    other["deals"][0].pop("turned", None)
    return replayed(other)


def refusal(document: dict[str, Any]) -> str:
    with pytest.raises(InvalidRecordError) as refused:
        replay(loads(json.dumps(document)))
    return " | ".join(problem.message for problem in refused.value.problems)


def hands_before(deal: DealResult, trick: int) -> list[int]:
    assert deal.hands is not None
    held = list(deal.hands)
    for done in deal.tricks[: trick - 1]:
        for seat, card in zip(done.seats, done.cards, strict=True):
            held[seat] &= ~(1 << card)
    return held


def legal(trick: str, hand: str, trump: Suit, partner_winning: bool, rules: Rules) -> set[str]:
    played = [Card.parse(t) for t in trick.split()]
    plays = legal_plays(played, CardSet.parse(hand), trump, partner_winning, rules)
    return {str(card) for card in plays.cards}


# --------------------------------------------------------------------------- underbuying


def test_underbuy_allowed_lets_a_trump_go_below_one_on_the_table():
    """underbuy: allowed: void in the led suit, a trump below one on the table may always be played."""
    document = sample("underbuy-allowed")
    assert replayed(document).violations == []
    kinds = [v.kind for v in under(document, {}).violations]
    assert kinds == [ViolationKind.ILLEGAL_UNDERBUY]
    assert legal("AH AC", "JC 8D", Suit.C, True, Rules(underbuy="allowed")) == {"JC", "8D"}


def test_underbuy_forbidden_with_other_suit_only_while_holding_another_suit():
    """underbuy: forbidden_with_other_suit: underbuying is forbidden while holding a card of another
    suit than trumps; a hand of trumps only may underbuy, even holding a higher trump."""
    rules = Rules(underbuy="forbidden_with_other_suit")
    # partner winning with QS, spades trump: only trumps in hand, the lower one is allowed
    assert legal("JH QS", "7S AS", Suit.S, True, rules) == {"7S", "AS"}
    assert legal("JH QS", "7S AS", Suit.S, True, Rules()) == {"AS"}
    # a card of another suit forbids the underbuy
    assert legal("JH QS", "7S 9D", Suit.S, True, rules) == {"9D"}
    # only lower trumps: forced as under the default rules
    assert legal("JH QS", "7S 8S", Suit.S, False, rules) == {"7S", "8S"}
    document = sample("underbuy-other-suit")
    assert replayed(document).violations == []
    assert [v.kind for v in under(document, {}).violations] == [ViolationKind.ILLEGAL_UNDERBUY]


def test_underbuy_forced_when_one_cannot_follow():
    """underbuy: forced: void in the led suit, unable to beat an opponent's trump and holding a lower
    one, a trump must be played (below the one on the table)."""
    rules = Rules(underbuy="forced")
    plays = legal_plays(
        [Card.parse(t) for t in "8D 7H 10H".split()], CardSet.parse("AH QC AC JS"), Suit.H, False, rules
    )
    assert {str(c) for c in plays.cards} == {"AH"}
    assert plays.clause is Clause.MUST_UNDERBUY
    assert "underbuying is forced" in plays.explain()
    # the partner winning: no duty (partner_exempt), any card
    assert legal("8D 7H 10H", "AH QC", Suit.H, True, rules) == {"AH", "QC"}
    # without partner_exempt the duty holds for the partner's trick too
    assert legal("8D 7H 10H", "AH QC", Suit.H, True, Rules(underbuy="forced", partner_exempt=False)) == {"AH"}
    document = sample("underbuy-forced")
    deal = replayed(document)
    assert deal.violations == []
    assert Clause.MUST_UNDERBUY in deal.tricks[4].clauses
    assert [v.kind for v in under(document, {}).violations] == [ViolationKind.ILLEGAL_UNDERBUY]


def test_underbuy_forced_a_plain_card_instead_is_a_failed_to_buy():
    """A plain card played where the trump was compulsory is named failed_to_buy."""
    played = [Card.parse(t) for t in "8D 7H 10H".split()]
    hand = CardSet.parse("AH QC AC JS").mask
    assert classify_violation(Card.parse("QC"), played, hand, Suit.H) is ViolationKind.FAILED_TO_BUY
    document = sample("underbuy-forced")
    deal = document["deals"][0]
    assert deal["tricks"][4] == ["8D", "7H", "10H", "AH"]
    deal["tricks"] = [*deal["tricks"][:4], ["8D", "7H", "10H", "QC"]]  # Bert keeps AH: the deal stops
    deal.pop("recorded_score")
    result = replayed(document)
    assert [(v.trick, v.seat, v.kind) for v in result.violations] == [(5, 1, ViolationKind.FAILED_TO_BUY)]


@pytest.mark.parametrize(
    ("name", "trick", "option", "default"),
    [
        ("underbuy-forced", 5, {"AH"}, {"QC", "AC", "JS"}),
        ("underbuy-other-suit", 7, {"7S", "AS"}, {"AS"}),
    ],
)
def test_the_solver_plays_the_underbuy_option(name, trick, option, default):
    """The solver's legal cards are the option's: it values exactly the cards the rule allows."""
    document = sample(name)
    deal = replayed(document)
    held = hands_before(deal, trick)
    played = deal.tricks[trick - 1]
    for seat, card in zip(played.seats[:3], played.cards[:3], strict=True):
        held[seat] &= ~(1 << card)
    position = (tuple(held), tuple(played.cards[:3]), played.seats[0])
    trump = None if deal.trump is None else int(deal.trump)
    rules = Rules.from_options(document["match"]["rules"])
    assert {str(Card(c)) for c in solve_position(*position, trump, rules)} == option
    assert {str(Card(c)) for c in solve_position(*position, trump, Rules())} == default


# --------------------------------------------------------------------------- capot


def test_capot_plain_scores_as_any_deal():
    """capot: plain (the default): all 60 card points score (60 - 30) x the factor."""
    assert score_deal([60, 0], 2, Rules()) == DealScore(0, 60)


def test_capot_double_is_a_bonus_on_the_multiplier():
    """capot: double: a capot doubles the factor once more, capped by max_multiplier."""
    assert score_deal([0, 60], 1, Rules(capot="double")) == DealScore(1, 60)
    assert score_deal([0, 60], 4, Rules(capot="double")) == DealScore(1, 120)  # the cap of 4
    assert score_deal([1, 59], 1, Rules(capot="double")) == DealScore(1, 29)  # not a capot
    assert highest_multiplier(Rules(capot="double", max_multiplier=None)) == 16
    deal = replayed(sample("capot-double"))
    assert deal.points == (0, 60) and deal.score == DealScore(1, 60)
    assert under(sample("capot-double"), {}).score == DealScore(1, 30)


@pytest.mark.parametrize(("value", "points"), [("fixed_30", 30), ("fixed_60", 60)])
def test_capot_fixed_score(value, points):
    """capot: fixed_30 / fixed_60: a capot scores that many points, whatever the factor."""
    assert score_deal([60, 0], 4, Rules(capot=value)) == DealScore(0, points)
    assert highest_deal_score(Rules(capot=value, max_multiplier=1)) == max(30, points)
    document = sample(f"capot-{value.replace('_', '-')}")
    deal = replayed(document)
    assert 0 in (deal.points or ()) and deal.score is not None and deal.score.points == points
    plain = under(document, {})
    assert plain.score is not None and plain.score.points == 30 * plain.multiplier


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("capot-double", "+60 (capot: every card point, so x2 under the house rule)"),
        ("capot-fixed-30", "+30 (capot: every card point, 30 under the house rule)"),
        ("capot-fixed-60", "+60 (capot: every card point, 60 under the house rule)"),
    ],
)
def test_a_capot_s_score_says_the_house_rule_that_made_it(name, said):
    """`replay` wrote "x1 ... card points 0-60 ... score +60": read as a wrong sum."""
    from manillen_replay.engine.report import match_to_json, match_to_text

    result = replay(loads(json.dumps(sample(name))))
    assert f"  score: Bert & Dirk {said}" in match_to_text(result, symbols=False).splitlines()
    assert match_to_json(result)["deals"][0]["capot"] is True
    plain = replay(loads((SAMPLES / "seed-trick.json").read_text()))
    assert "capot" not in match_to_text(plain) and match_to_json(plain)["deals"][0]["capot"] is False


# --------------------------------------------------------------------------- multipliers


def test_multipliers_added_rather_than_multiplied():
    """multipliers: added: each doubling adds one to the factor (klop and tegenklop x3, not x4)."""
    added = Rules(multipliers="added", max_multiplier=None)
    assert multiplier(Contract.TRUMP, False, 2, False, added) == 3
    assert multiplier(Contract.MUIL, True, 1, True, added) == 5  # 1 + muil + en face + klop + carry
    assert multiplier(Contract.BLIND_MUIL, False, 0, False, added.with_options(blind_muil=True)) == 4
    assert multiplier(Contract.MUIL, True, 1, True, Rules(max_multiplier=None)) == 16
    assert multiplier(Contract.TRUMP, False, 5, False, Rules(multipliers="added", max_multiplier=4)) == 4
    document = sample("multipliers-added")
    deal = replayed(document)
    assert (deal.knocks, deal.multiplier) == (2, 3)
    assert under(document, {}).multiplier == 4


def test_muil_without_doubling():
    """muil_double: false: a muil (no trump) counts single; blind muil counts double."""
    single = Rules(muil_double=False)
    assert multiplier(Contract.MUIL, False, 0, False, single) == 1
    assert multiplier(Contract.BLIND_MUIL, False, 0, False, single.with_options(blind_muil=True)) == 2
    document = sample("muil-single")
    deal = replayed(document)
    assert deal.contract is Contract.MUIL and deal.multiplier == 1
    assert under(document, {}).multiplier == 2


# --------------------------------------------------------------------------- the trump call


def test_trump_choice_held_suit_only_among_suits_the_chooser_holds():
    """trump_choice: held_suit: the chooser names a suit in the hand (or muil)."""
    assert trump_options(Rules(trump_choice="held_suit"), CardSet.parse("10H 7C").mask) == (0, 2, None)
    assert trump_options(Rules(), CardSet.parse("10H 7C").mask) == (0, 1, 2, 3, None)
    document = sample("trump-held-suit")
    assert replayed(document).trump is Suit.S
    deal = document["deals"][0]
    chooser_hand = deal["hands"][deal["declarations"][0]["seat"]]
    missing = next(s for s in "HDCS" if not any(card.endswith(s) for card in chooser_hand))
    deal["declarations"][0]["suit"] = missing
    deal.pop("recorded_score")
    deal["tricks"] = []  # the other trump would change the tricks: the deal as dealt and called
    assert "may not make them trump" in refusal(document)
    document["match"]["rules"] = {}
    assert replayed(document).trump is Suit[missing]


def test_trump_choice_turned_card_the_dealers_last_card_makes_trump():
    """trump_choice: turned_card: the suit of the dealer's turned last card is trump; no muil."""
    document = sample("trump-turned-card")
    deal = replayed(document)
    assert document["deals"][0]["turned"] == "JH" and deal.trump is Suit.H
    other = json.loads(json.dumps(document))
    other["deals"][0]["declarations"][0]["suit"] = "S"
    other["deals"][0].pop("recorded_score")
    assert "hearts are trump, not spades" in refusal(other)
    muil = json.loads(json.dumps(document))
    muil["deals"][0]["declarations"][0] = {"seat": 2, "call": "muil"}
    assert "no muil under trump_choice turned_card" in refusal(muil)
    stolen = json.loads(json.dumps(document))
    stolen["deals"][0]["turned"] = "9H"  # Anna's card
    assert "not in Carla's hand" in refusal(stolen)
    free = json.loads(json.dumps(document))
    free["match"]["rules"] = {}
    assert "needs the rule trump_choice: turned_card" in refusal(free)


# --------------------------------------------------------------------------- knocking


def test_klop_by_left_of_dealer_only_that_player_or_the_partner_knocks():
    """klop_by: left_of_dealer: only the dealer's left or that player's partner may klop."""
    six = Rules(variant="six", klop_by="left_of_dealer")
    assert [seat for seat in range(6) if may_klop(six, seat, 4)] == [1, 5]
    assert [seat for seat in range(6) if may_klop(Rules(variant="six"), seat, 4)] == [1, 3, 5]
    assert [seat for seat in range(4) if may_klop(Rules(klop_by="left_of_dealer"), seat, 0)] == [1, 3]
    document = sample("klop-left-of-dealer")
    assert replayed(document).knocks == 1
    document["deals"][0]["declarations"][1]["seat"] = 3  # Dirk, the third opponent
    assert "Dirk may not klop" in refusal(document)
    document["match"]["rules"] = {}
    document["deals"][0].pop("recorded_score")
    assert replayed(document).knocks == 1


# --------------------------------------------------------------------------- the match


def test_a_game_to_61_instead_of_101():
    """target: 61: the match ends after the deal that takes a team to 61 or more."""
    result = replay(loads((SAMPLES / "house-target-61.json").read_text()))
    assert result.finished and max(result.final_score) >= 61
    assert max(result.deals[-2].match_score) < 61
    document = sample("target-61")
    document["match"]["rules"] = {}
    assert not replay(loads(json.dumps(document))).finished


# --------------------------------------------------------------------------- conflicts


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"trump_choice": "turned_card", "cafe": {"en_face": True}}, "no choice to pass"),
        ({"trump_choice": "turned_card", "cafe": {"blind_muil": True}}, "no muil can be called"),
        ({"trump_choice": "turned_card", "variant": "six_short"}, "passes between teammates"),
    ],
)
def test_conflicting_options_are_refused_with_a_clear_message(options, message):
    """Where two options conflict, the rules (and a record with them) are refused, naming both."""
    with pytest.raises(InvalidOptionError, match=message):
        Rules.from_options(options)
    document = sample("trump-turned-card")
    rules = {k: v for k, v in options.items() if k != "variant"}
    document["match"]["rules"] = rules
    if "variant" in options:
        document["match"]["variant"] = options["variant"]
        document["match"]["seats"] = ["Anna", "Bert", "Carla", "Dirk", "Els", "Fien"]
    assert "trump_choice: turned_card" in refusal(document)


def test_unknown_values_of_the_new_options_are_named():
    for name in ("underbuy", "capot", "multipliers", "trump_choice", "klop_by"):
        with pytest.raises(InvalidOptionError, match=f"rule option {name!r} cannot be 'sometimes'"):
            Rules.from_options({name: "sometimes"})


# --------------------------------------------------------------------------- record, notation, generator


@pytest.mark.parametrize("path", sorted(SAMPLES.glob("house-*.json")), ids=lambda p: p.stem)
def test_every_house_rule_sample_round_trips_through_the_notation(path):
    """The samples replay as written (their scores agree) and survive JSON -> text -> JSON."""
    record = loads(path.read_text())
    result = replay(record)
    assert not any(deal.score_mismatch for deal in result.deals)
    text = dumps_text(record)
    if "turned" in path.stem:
        assert f"  turned {record.deals[0].turned}" in text
    assert dumps(loads_text(text)[0]) == dumps(record)


@pytest.mark.parametrize(
    "rule",
    [
        "underbuy=forced",
        "underbuy=forbidden_with_other_suit",
        "capot=fixed_60",
        "multipliers=added",
        "muil_double=false",
        "trump_choice=held_suit",
        "trump_choice=turned_card",
        "klop_by=left_of_dealer",
        "target=61",
    ],
)
def test_generate_plays_each_house_rule(rule):
    """`manillen generate --rule`: matches under each option that replay without problems."""
    seed = random.Random(rule).randrange(1000)
    result = CliRunner().invoke(cli, ["generate", "--matches", "2", "--seed", str(seed), "--rule", rule])
    assert result.exit_code == 0, result.output
    name, _, value = rule.partition("=")
    for line in result.stdout.splitlines():
        assert name in json.loads(line)["match"]["rules"]
        replayed_match = decode_and_replay(line)
        assert str(getattr(replayed_match.rules, name)).lower() == value
        if name == "trump_choice" and value == "turned_card":
            assert all(json.loads(line)["deals"][i].get("turned") for i in range(len(replayed_match.deals)))


def test_every_option_is_in_the_docs_table_with_its_default():
    """docs/rules.md's table of house-rule options names every field of Rules with its default."""
    text = (SAMPLES.parent.parent / "docs" / "rules.md").read_text()
    table = text.split("## House-rule options", 1)[1].split("\n\n", 2)[1]
    rows = {}
    for line in table.splitlines()[2:]:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        rows[cells[0].strip("`").removeprefix("cafe.")] = json.loads(cells[1])
    defaults = Rules()
    for name in (f.name for f in fields(Rules) if f.name != "variant"):
        written = rows[name]
        value = getattr(defaults, name)
        assert (list(value) if isinstance(value, tuple) else value) == written, name


def test_a_recorded_score_over_the_capot_bound_is_refused_naming_the_capot():
    """The most a deal can score counts a fixed capot score: 60 under capot fixed_60 without
    doublings, and a scoresheet line over it is refused, saying why."""
    document = sample("capot-fixed-60")
    document["match"]["rules"]["max_multiplier"] = 1
    assert replayed(document).score == DealScore(1, 60)
    document["deals"][0]["recorded_score"]["points"] = 61
    with pytest.raises(InvalidRecordError) as refused:
        loads(json.dumps(document))
    assert [problem.message for problem in refused.value.problems] == [
        "a recorded score of 61 points is more than one deal can score under these rules: "
        "at most 60 (a capot's fixed score (fixed_60))"
    ]


def test_the_trump_review_weighs_only_the_calls_the_rule_allows():
    """trump_choice in the call review: held_suit leaves the suits the chooser holds and muil,
    turned_card only the turned suit; free rules all four suits and muil."""
    from manillen_replay.analysis.call_review import trump_review

    names = {}
    for name in ("trump-held-suit", "trump-turned-card"):
        result = replay(loads((SAMPLES / f"house-{name}.json").read_text()))
        deal = result.deals[0]
        for rules in (result.rules, Rules()):
            review = trump_review(deal, rules, samples=2, workers=1, sequential=False)
            names[name, rules == Rules()] = {option.name for option in review.options}
    assert names["trump-held-suit", False] == {"D", "C", "S", "muil"}  # Dirk holds no hearts
    assert names["trump-turned-card", False] == {"H"}
    assert names["trump-held-suit", True] == names["trump-turned-card", True] == {"H", "D", "C", "S", "muil"}


def test_trump_choice_turned_card_needs_no_trump_call():
    """Under turned_card the turned card makes trump: a deal may give it without a trump call,
    knocks and all."""
    document = sample("trump-turned-card")
    deal = document["deals"][0]
    deal["declarations"] = [{"seat": 3, "call": "klop"}]
    deal.pop("recorded_score")
    result = replayed(document)
    assert (result.contract, result.trump, result.chooser, result.knocks) == (Contract.TRUMP, Suit.H, 2, 1)
    called = replayed(sample("trump-turned-card"))
    assert result.points == called.points and result.multiplier == 2
    assert result.score is not None and called.score is not None
    assert result.score.points == 2 * called.score.points


def test_every_house_rule_sample_is_described_in_the_samples_readme_and_rules_doc():
    """Each house-*.json sample has its row in data/samples/README.md and in docs/rules.md."""
    readme = (SAMPLES / "README.md").read_text()
    rules_doc = (SAMPLES.parent.parent / "docs" / "rules.md").read_text()
    for path in sorted(SAMPLES.glob("house-*.json")):
        assert f"`{path.name}`" in readme, path.name
        assert f"`{path.stem}`" in rules_doc, path.name
