"""The analysis under the house rules: whatever scores a deal there (the trump and knock reviews,
the call what-if, the call detectors, accuracy) scores it as the engine does under the match's
rules, capot and doublings included; and the solver's legal cards are the engine's under every
``underbuy`` option."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from manillen_replay.analysis import analyse
from manillen_replay.analysis.accuracy import call_counts_for_accuracy
from manillen_replay.analysis.call_review import deal_score, knock_review, trump_review
from manillen_replay.cards import CARD_TEXT, DECK_32_MASK, Card, CardSet, Suit, iter_mask, mask_of
from manillen_replay.engine import replay
from manillen_replay.engine.results import DealResult
from manillen_replay.record import Declaration, MatchInfo, Record, dumps, loads
from manillen_replay.rules import Rules, legal_plays, score_deal, side_score
from manillen_replay.solver import solve_position
from manillen_replay.state import DealState

from .factories import SEATS, deal_record, play_out

SAMPLES = Path(__file__).resolve().parent.parent / "data" / "samples"

CAPOT_HANDS = (
    CardSet.parse("10H AH KH QH JH 9H 8H 7H").mask,
    CardSet.parse("9S 8S 7S 9D 8D 7D 9C 8C").mask,
    CardSet.parse("10S AS KS 10D AD KD 10C AC").mask,
    CardSet.parse("QS JS QD JD KC QC JC 7C").mask,
)
"""Seat 0 (the dealer) holds every heart: with hearts trump it wins every trick, however the
others play, and its team takes all 60 card points (a capot), under perfect play too."""


def capot_record(options: dict[str, Any], *, klop: bool = False) -> Record:
    """The capot deal (hearts trump, each seat's lowest legal card) under ``options``; with
    ``klop``, seat 1 knocked."""
    state = DealState.start(Rules.from_options(options), 0, int(Suit.H), CAPOT_HANDS)
    tricks, _ = play_out(state, lambda s: min(iter_mask(s.legal_mask())))
    deal = deal_record(0, int(Suit.H), CAPOT_HANDS, tricks)
    if klop:
        assert deal.declarations is not None
        deal.declarations.append(Declaration(seat=1, call="klop"))
    record = Record(format="manillen/1", match=MatchInfo(id="capot", seats=list(SEATS)), deals=[deal])
    document = json.loads(dumps(record))
    document["match"]["rules"] = options
    return loads(json.dumps(document))


def capot_deal(options: dict[str, Any], *, klop: bool = False) -> tuple[DealResult, Rules]:
    """The capot deal replayed under ``options``, and the rules it was replayed under."""
    result = replay(capot_record(options, klop=klop))
    return result.deals[0], result.rules


CAPOTS = [
    # options, the capot's score unknocked, knocked once
    ({}, 30, 60),
    ({"capot": "double"}, 60, 120),
    ({"capot": "fixed_30"}, 30, 30),
    ({"capot": "fixed_60"}, 60, 60),
    ({"capot": "double", "multipliers": "added"}, 60, 90),
]


@pytest.mark.parametrize(("options", "unknocked", "knocked"), CAPOTS)
def test_the_engine_scores_the_capot_deal_as_the_option_says(options, unknocked, knocked):
    deal, _ = capot_deal(options)
    assert tuple(deal.points or ()) == (60, 0) and deal.score is not None
    assert (deal.score.team, deal.score.points) == (0, unknocked)
    knocked_deal, _ = capot_deal(options, klop=True)
    assert knocked_deal.score is not None and knocked_deal.score.points == knocked


@pytest.mark.parametrize(("options", "unknocked", "knocked"), CAPOTS)
def test_deal_score_of_the_reviews_is_the_engines_score(options, unknocked, knocked):
    """The reviews' deal score is the engine's, signed for the team asked about."""
    rules = Rules.from_options(options)
    assert (deal_score(60, 1, rules), deal_score(0, 1, rules)) == (unknocked, -unknocked)
    assert deal_score(0, 2, rules) == -knocked
    for points in (0, 13, 29, 30, 31, 47, 60):
        for factor in (1, 2, 3, 4):
            engine = score_deal([points, 60 - points], factor, rules)
            signed = 0 if engine is None else (engine.points if engine.team == 0 else -engine.points)
            assert deal_score(points, factor, rules) == signed == side_score(points, 60, factor, rules)


@pytest.mark.solver
@pytest.mark.parametrize(("options", "unknocked", "knocked"), CAPOTS)
def test_the_trump_review_scores_a_capot_as_the_rules_do(options, unknocked, knocked):
    """Solved on the real hands, hearts takes all 60 card points: the review's score for it is
    the engine's score of the deal, the capot's bonus (or fixed score) included."""
    deal, rules = capot_deal(options)
    review = trump_review(deal, rules, layouts=[CAPOT_HANDS], sequential=False, workers=1)
    hearts = review.option("H")
    assert hearts is not None and hearts.points == 60
    assert deal.score is not None and hearts.score == deal.score.points == unknocked


@pytest.mark.solver
@pytest.mark.parametrize(("options", "unknocked", "knocked"), CAPOTS)
def test_the_knock_review_scores_a_capot_as_the_rules_do(options, unknocked, knocked):
    """Seat 1's side takes nothing: not knocking loses the capot's score, knocking its score
    knocked; under a fixed capot both lose the same, and the call is no decision for accuracy."""
    deal, rules = capot_deal(options)
    review = knock_review(deal, rules, seat=1, layouts=[CAPOT_HANDS], sequential=False, workers=1)
    scores = {option.name: option.score for option in review.options}
    assert scores == {"no klop": -unknocked, "klop": -knocked}
    assert call_counts_for_accuracy(review) is (unknocked != knocked)


@pytest.mark.solver
@pytest.mark.parametrize(("options", "unknocked", "knocked"), CAPOTS)
def test_the_call_what_if_scores_a_capot_as_the_rules_do(options, unknocked, knocked):
    from manillen_replay.analysis.what_if import call_what_if

    deal, rules = capot_deal(options)
    asked = call_what_if(deal, rules, "S")
    made, _ = asked.scores(asked.real)
    assert asked.real.played.taken(0) == 60
    assert deal.score is not None and made == deal.score.points == unknocked


@pytest.mark.parametrize(
    ("options", "cost"),
    [({}, 30), ({"capot": "double"}, 60), ({"capot": "fixed_60"}, None), ({"capot": "fixed_30"}, None)],
)
def test_klop_lost_counts_what_the_knock_cost_under_the_capot_rule(options, cost):
    """Seat 1 knocked and lost a capot: the knock cost what the engine scores with it less
    without it; a fixed capot scores the same either way, so the knock cost nothing."""
    record = capot_record(options, klop=True)
    lost = [f for f in analyse(replay(record), record) if f.kind == "klop_lost"]
    if cost is None:
        assert lost == []
    else:
        [finding] = lost
        assert finding.points == cost and finding.player == "Bert"


# --------------------------------------------------------------------------- the solver's legal cards

UNDERBUYS = ["forbidden", "allowed", "forbidden_with_other_suit", "forced"]
POSITIONS = 3000
"""Endings tried an option: a hand of trumps only, over and under a trump on the table (where
``forbidden_with_other_suit`` differs), comes a few times in 3000."""


@pytest.mark.parametrize("underbuy", UNDERBUYS)
@pytest.mark.parametrize("partner_exempt", [True, False])
def test_the_solvers_legal_cards_are_the_engines_under_each_underbuy_option(underbuy, partner_exempt):
    """On endings of two tricks with one to three cards on the table, the cards the solver
    values are those the replay's rules allow (``legal_plays``), and among them the positions
    where this option allows other cards than the default one are met, so the clause is tested
    (where it can differ at all)."""
    rules = Rules(underbuy=underbuy, partner_exempt=partner_exempt)
    default = Rules(partner_exempt=partner_exempt)
    rng = random.Random(f"{underbuy}{partner_exempt}")
    differing = 0
    for _ in range(POSITIONS):
        deck = list(iter_mask(DECK_32_MASK))
        rng.shuffle(deck)
        hands = tuple(mask_of(deck[seat * 2 : seat * 2 + 2]) for seat in range(4))
        trump = rng.choice([0, 1, 2, 3])
        state = DealState(rules, 0, trump, hands, rng.randrange(4), (), 6)
        for _ in range(rng.randrange(1, 4)):
            state = state.apply(rng.choice(list(iter_mask(state.legal_mask()))))
        seat = state.to_play
        trick = [Card(c) for c in state.trick]
        partner_winning = _partner_winning(state)
        engine = legal_plays(trick, CardSet(state.hands[seat]), Suit(trump), partner_winning, rules).cards
        solved = solve_position(state.hands, state.trick, state.leader, trump, rules)
        assert {CARD_TEXT[c] for c in solved} == {str(c) for c in engine}, (state, underbuy)
        plain = legal_plays(trick, CardSet(state.hands[seat]), Suit(trump), partner_winning, default).cards
        differing += engine != plain
    # Without the partner's exemption a player void in the led suit must always go over a trump
    # on the table when able, so a hand of trumps only never underbuys: there
    # forbidden_with_other_suit plays as the default does.
    differs = underbuy != "forbidden" and (partner_exempt or underbuy != "forbidden_with_other_suit")
    assert (differing > 0) is differs, (underbuy, partner_exempt, differing)


def _partner_winning(state: DealState) -> bool:
    """Whether the card winning the trick so far is the partner's of the seat to play."""
    from manillen_replay.rules import winning_position

    position = winning_position(state.trick, state.trump)
    winner = (state.leader + position) % 4
    return winner % 2 == state.to_play % 2


def test_a_trump_call_finding_naming_a_single_muil_does_not_say_it_doubles():
    """muil_double: false: the review scores muil single, and its finding says so."""
    from manillen_replay.analysis.call_review import CallOption, CallReview
    from manillen_replay.analysis.solver_findings import call_findings

    single = Rules(muil_double=False)
    points = (44.0, 42.0, 46.0, 40.0)
    muil_scores = tuple(deal_score(p, 1, single) for p in points)
    hearts = CallOption("H", 31.0, 1.0, (31.0,) * 4, (1.0,) * 4)
    muil = CallOption("muil", sum(points) / 4, sum(muil_scores) / 4, points, muil_scores)
    review = CallReview(1, 0, (muil, hearts), "H", 4)
    [finding] = call_findings(review, match="m", players=SEATS)
    assert "counts single" in finding.explanation and "doubles" not in finding.explanation
    assert "telt enkel" in finding.explanation_nl


@pytest.mark.solver
@pytest.mark.parametrize(("options", "muil_factor"), [({}, 2), ({"muil_double": False}, 1)])
def test_the_trump_review_scores_muil_as_muil_double_says(options, muil_factor):
    deal, rules = capot_deal(options)
    review = trump_review(deal, rules, layouts=[CAPOT_HANDS], sequential=False, workers=1)
    muil = review.option("muil")
    assert muil is not None
    assert muil.score == (muil.points - 30) * muil_factor


@pytest.mark.solver
@pytest.mark.parametrize(("options", "answered"), [({}, -120), ({"multipliers": "added"}, -90)])
def test_the_knock_review_combines_klop_and_tegenklop_as_multipliers_says(options, answered):
    """A klop answered by tegenklop: x4 multiplied, x3 added; the knocker's side loses 30 over."""
    deal, rules = capot_deal(options)
    review = knock_review(
        deal, rules, seat=1, layouts=[CAPOT_HANDS], sequential=False, workers=1, klop_knocks=lambda _: 2
    )
    assert {o.name: o.score for o in review.options} == {"no klop": -30, "klop": answered}


@pytest.mark.solver
def test_the_trump_review_given_the_calls_offers_only_the_suits_held():
    """The review `analyze --depth solver` runs (layouts given the calls) follows trump_choice too."""
    from manillen_replay.analysis.call_model import trump_review_given_calls

    held = Rules(trump_choice="held_suit")
    hands = (
        CardSet.parse("10H AH KH QH JH 9H 8H 10S").mask,
        CAPOT_HANDS[1],
        CardSet.parse("7H AS KS 10D AD KD 10C AC").mask,
        CAPOT_HANDS[3],
    )
    state = DealState.start(held, 0, int(Suit.H), hands)
    tricks, _ = play_out(state, lambda s: min(iter_mask(s.legal_mask())))
    record = Record(
        format="manillen/1",
        match=MatchInfo(id="held", seats=list(SEATS)),
        deals=[deal_record(0, int(Suit.H), hands, tricks)],
    )
    document = json.loads(dumps(record))
    document["match"]["rules"] = {"trump_choice": "held_suit"}
    result = replay(loads(json.dumps(document)))
    review = trump_review_given_calls(result.deals[0], result.rules, samples=4, workers=1)
    assert {o.name for o in review.options} == {"H", "S", "muil"}  # the dealer holds no D or C


def test_layouts_given_the_calls_read_nothing_into_a_turned_cards_trump():
    """Under trump_choice turned_card the dealer chose nothing: a knocker's layouts are not
    weighed by how likely the dealer was to call that suit, as they are when the choice is free."""
    from manillen_replay.analysis.call_model import _call_weight
    from manillen_replay.analysis.call_review import shuffled_layout

    result = replay(loads((SAMPLES / "house-trump-turned-card.json").read_text()))
    deal = result.deals[0]
    assert deal.hands is not None and result.rules.trump_choice == "turned_card"
    knocker = (deal.dealer + 1) % 4
    own = deal.hands[knocker]
    hidden = list(iter_mask(DECK_32_MASK & ~own))
    rng = random.Random(3)
    layouts = [shuffled_layout(rng, hidden, own, knocker, [8, 8, 8, 8]) for _ in range(40)]
    turned = _call_weight(deal, result.rules, knocker)
    free = _call_weight(deal, Rules(), knocker)
    assert {turned(layout) for layout in layouts} == {1.0}
    assert len({free(layout) for layout in layouts}) > 1
