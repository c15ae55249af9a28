"""The built-in detectors' corrections of issue 30 and the blind spots it named, each on a small
hand-made deal that flags and one close to it that must not.

Seats: Anna 0 and Carla 2 against Bert 1 and Dirk 3; ``record`` builds a one-deal match (trump
diamonds and Bert dealing unless told, so Carla leads trick 1).
"""

from __future__ import annotations

import contextlib
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from manillen_replay import bulk
from manillen_replay.analysis import Severity, _by_decider, analyse, analyse_record
from manillen_replay.analysis.batch_gate import batch_gate
from manillen_replay.analysis.costs import CardValue, PlayCost
from manillen_replay.analysis.detectors import MatchAnalysis
from manillen_replay.analysis.findings import sort_key
from manillen_replay.analysis.knowledge import DealKnowledge, PlayView
from manillen_replay.cards import CARD_TEXT, Card, iter_mask
from manillen_replay.engine import MatchResult, replay
from manillen_replay.errors import InvalidRecordError
from manillen_replay.record import Record, loads
from manillen_replay.rules import VARIANTS

from .factories import random_record
from .test_analysis import full_deal, of_kind, play_out, record, view_cost_at
from .test_bulk_replay import generated, house_rules

# --------------------------------------------------------------------------- wasted_trump

# Bert holds one trump (9D) and no club; the opponents hold only the 7D and 8D, Dirk the rest.
LOW_TRUMPS = [
    "AH 10H 8C KC QC 9C 7D 8D",  # Anna
    "KH 9D KS QS JS 9S 8S 7S",  # Bert
    "9H 8H 7H 7C AC JC 10S AS",  # Carla
    "QH JH 10C 10D AD KD QD JD",  # Dirk
]


def test_wasted_trump_does_not_count_a_lead_the_wasted_trump_won() -> None:
    """Bert trumps Dirk's certain 10C with 9D and so leads trick 2, which Anna takes: had he
    discarded, Dirk would have led trick 2. A lead that depended on the wasted trump's trick is
    no later trick it would have bought: it cost nothing that the cards can show."""
    rec = record(LOW_TRUMPS, ["7C 10C 8C 9D", "KH 7H QH AH"])
    (finding,) = of_kind(analyse_record(rec), "wasted_trump")
    assert (finding.trick, finding.seat, finding.card) == (1, 1, Card.D9)
    assert finding.points == 0 and finding.severity is Severity.INFO
    assert "trick 2" not in finding.explanation and "cost nothing" in finding.explanation


# Anna and Carla hold no trump (diamonds); Bert and Dirk hold them all; Bert has no club.
NO_OPPONENT_TRUMPS = [
    "AH 10H JH 8C KC QC 9C 7S",  # Anna
    "9D 8D KH KS QS JS 9S 8S",  # Bert
    "9H 8H 7H 7C AC JC 10S AS",  # Carla
    "10D AD KD QD JD 7D 10C QH",  # Dirk
]


def test_wasted_trump_not_flagged_when_no_opponent_can_hold_a_trump() -> None:
    """Both opponents showed out of trumps in trick 1: Bert's 9D on Dirk's certain 10C can lose
    no later trick to them for want of a trump. (It was a 9-point blunder, counted on trick 3.)"""
    rec = record(NO_OPPONENT_TRUMPS, ["10D 7S 8D 7H", "10C 8C 9D 7C", "KH 9H QH AH"], dealer=2)
    assert of_kind(analyse_record(rec), "wasted_trump") == []
    # the same trump, last to play, while the opponents might still hold one (no trump lead first)
    rec = record(NO_OPPONENT_TRUMPS, ["7C 10C 8C 9D"])
    (finding,) = of_kind(analyse_record(rec), "wasted_trump")
    assert (finding.trick, finding.card) == (1, Card.D9)


# --------------------------------------------------------------------------- bare_ace_lost

# Bert holds AH QH JH and no club; Carla the 10H; Dirk no trump.
ACE_QUEEN_JACK = [
    "KH 9H 8C KC QC JC 9C 7D",  # Anna
    "AH QH JH 7S 8S 10D AD KD",  # Bert
    "10H QD 7H 7C AC JD 9D 8D",  # Carla
    "10C 10S AS KS QS JS 9S 8H",  # Dirk
]


def test_bare_ace_lost_only_for_an_ace_that_was_bare() -> None:
    """Bert's AH is forced under Carla's 10H in trick 3 because Anna led KH and he had to
    overtake: he held AH QH JH, so the ace was not bare (no blote aas)."""
    rec = record(ACE_QUEEN_JACK, ["7C 10C 8C 7S", "9S 7D 8S 7H", "KH AH 10H 8H"])
    deal = replay(rec).deals[0]
    assert deal.tricks[2].legal[1] == 1 << Card.HA  # forced, but not bare
    assert of_kind(analyse_record(rec), "bare_ace_lost") == []


# --------------------------------------------------------------------------- klop_lost

# Carla holds five small trumps (diamonds); Bert, dealing, the three top trumps and four manilles.
FIVE_TRUMP_KNOCK = [
    "KH QH JH 7C 8C 9C 7S 8S",  # Anna
    "10D AD KD 10H AH 10C AC 10S",  # Bert
    "QD JD 9D 8D 7D 7H 8H 9H",  # Carla
    "KC QC JC KS QS JS 9S AS",  # Dirk
]


def test_klop_lost_with_five_trumps_is_a_sound_knock_not_a_mistake() -> None:
    """Carla knocks with five trumps, the club's knock hand, and her team loses: the decision was
    right and the cards lost it, so the finding is info with no points at stake; it says why."""
    rec = record(FIVE_TRUMP_KNOCK, play_out(FIVE_TRUMP_KNOCK, 1, "D"), calls=[(2, "klop")])
    deal = replay(rec).deals[0]
    assert deal.score is not None and deal.score.team == 1 and deal.multiplier == 2
    (finding,) = of_kind(analyse(replay(rec), rec), "klop_lost")
    assert (finding.seat, finding.severity, finding.points) == (2, Severity.INFO, 0)
    assert "5 trumps" in finding.explanation and "5 troeven" in finding.explanation_nl
    # without the record nobody is named, but the knocking team held the five trumps all the same
    (team_finding,) = of_kind(analyse(replay(rec)), "klop_lost")
    assert team_finding.severity is Severity.INFO
    # with four trumps the knock is judged by what it cost, as before
    four = [FIVE_TRUMP_KNOCK[0], FIVE_TRUMP_KNOCK[1], "QD JD 9D 8D 9S 7H 8H 9H", "KC QC JC KS QS JS 7D AS"]
    rec = record(four, play_out(four, 1, "D"), calls=[(2, "klop")])
    (cost,) = of_kind(analyse(replay(rec), rec), "klop_lost")
    assert cost.severity is not Severity.INFO and cost.points > 0


# --------------------------------------------------------------------------- one finding per call


def test_muil_missed_leaves_a_trump_call_the_solver_reviewed_to_trump_choice() -> None:
    """Bert deals with four manilles, makes diamonds and wins: muil_missed at the heuristic depth.
    At the solver depth (costs given) the same call is reviewed as trump_choice, by the expectation:
    one finding per decision, so muil_missed says nothing there."""
    rec = full_deal(strong_seat=1, dealer=1, trump="D")
    result = replay(rec)
    assert len(of_kind(analyse(result, rec), "muil_missed")) == 1
    first = result.deals[0].tricks[0]
    cost = view_cost_at(1, 1, first.leader, CARD_TEXT[first.cards[0]], {CARD_TEXT[first.cards[0]]: 20.0})
    assert of_kind(analyse(result, rec, costs={1: [cost]}), "muil_missed") == []


# --------------------------------------------------------------------------- points_thrown

# Carla holds the 10D; Bert AD QD 8D and no heart.
ACE_UNDER_TEN = [
    "KD JD AH KH 10C AC KC QC",  # Anna
    "AD QD 8D KS QS JS 9S 8S",  # Bert
    "10D 7H 8H 9H 10S AS 7S JC",  # Carla
    "9D 7D 10H QH JH 9C 8C 7C",  # Dirk
]


def test_points_thrown_gives_the_small_trump_as_the_better_card() -> None:
    """Bert throws AD under Carla's 10D in trick 1 (the opponents' certain trick) holding QD and
    8D. The 8D is the cheapest card that does the job: it is the better card, not the QD, although
    the later chance (Bert's lead of trick 3) is seen in the QD's line: the 8D ruffed trick 2."""
    rec = record(ACE_UNDER_TEN, ["10D 7D JD AD", "7H JH AH 8D", "KS AS 9D KD"])
    (finding,) = of_kind(analyse_record(rec), "points_thrown")
    assert (finding.trick, finding.seat, finding.card, finding.better) == (1, 1, Card.DA, (Card.D8,))
    assert finding.points == 4 and finding.severity is Severity.MISTAKE
    assert "8♦" in finding.explanation and "koeken acht" in finding.explanation_nl


# --------------------------------------------------------------------------- trump_overspent

# Bert holds 10D 7D and no club or heart; Carla the AD and KD.
MANILLE_LAST = [
    "AC KC QC JC AH KH 8D 9D",  # Anna
    "10D 7D KS QS JS 9S 8S 7S",  # Bert
    "7C AD KD QH JH 9H 8H 7H",  # Carla
    "8C 9C 10C QD JD 10H 10S AS",  # Dirk
]


def test_trump_overspent_flags_the_trump_manille_spent_last_when_a_small_trump_takes_it() -> None:
    """Last to play on Anna's AC, Bert buys with the 10D while the 7D takes the trick just as
    surely. In trick 2 the 7D falls to Carla's KD, a trick the 10D would have taken: 4 points."""
    rec = record(MANILLE_LAST, ["7C 8C AC 10D", "7D KD JD 8D"])
    found = analyse_record(rec)
    assert [f.kind for f in found] == ["trump_overspent"]
    (finding,) = found
    assert (finding.trick, finding.play, finding.seat, finding.card) == (1, 4, 1, Card.D10)
    assert finding.better == (Card.D7,) and finding.points == 4 and finding.severity is Severity.MISTAKE
    assert "last to play" in finding.explanation and "trick 2" in finding.explanation
    assert "koeken manille" in finding.explanation_nl and "slag 2" in finding.explanation_nl


def test_trump_overspent_not_flagged_when_the_lower_trump_was_safe_too() -> None:
    """Bert holds 10D AD: with the 10D in his hand no trump out beats the AD, so either card is a
    sure trick and spending the 10D costs nothing."""
    hands = list(MANILLE_LAST)
    hands[1], hands[2] = hands[1].replace("7D", "AD"), hands[2].replace("AD", "7D")
    assert of_kind(analyse_record(record(hands, ["7C 8C AC 10D"])), "trump_overspent") == []


# Carla showed out of trumps in trick 1; Bert keeps AD 8D after the 10D fell.
TRUMP_LEAD = [
    "10D 7D KD QD AH KH AC KC",  # Anna
    "AD 9D 8D KS QS JS 9S 8S",  # Bert
    "7H 8H 9H 10H 7C 8C 9C 10C",  # Carla
    "JD QH JH QC JC 10S AS 7S",  # Dirk
]


def test_trump_overspent_on_a_trump_lead_second_to_play() -> None:
    """Anna leads 7D; Bert, second, takes it with the AD although his 8D takes it for certain
    (Carla showed out of trumps, Dirk is his partner). In trick 3 the 8D falls to Anna's KD."""
    rec = record(TRUMP_LEAD, ["10D 9D 7H JD", "7D AD 8H 7S", "8D 9H QC KD"], dealer=3)
    (finding,) = of_kind(analyse_record(rec), "trump_overspent")
    assert (finding.trick, finding.play, finding.seat, finding.card) == (2, 2, 1, Card.DA)
    assert finding.better == (Card.D8,) and finding.points == 5 and finding.severity is Severity.BLUNDER
    assert "last to play" not in finding.explanation


# --------------------------------------------------------------------------- master_trump_smeared

# Dirk leads the 10D; Bert holds AD 7D and no heart, Carla KD QD and no heart.
ACE_ON_MANILLE = [
    "8D 9D AH KH QH JH 7C 8C",  # Anna
    "AD 7D KS QS JS 9S 8S 7S",  # Bert
    "KD QD AC KC QC JC 9C 10C",  # Carla
    "10D JD 10H 9H 8H 7H 10S AS",  # Dirk
]


def test_master_trump_smeared_flags_the_trump_ace_under_the_partners_trump_manille() -> None:
    """Bert puts AD on Dirk's 10D (certain) holding 7D: the AD was a sure trick of its own. In
    trick 2 the 7D is overbought by Carla's KD; the AD would have taken that trick: 7 points."""
    rec = record(ACE_ON_MANILLE, ["10D 8D AD QD", "7H AH 7D KD"], dealer=2)
    found = analyse_record(rec)
    assert [f.kind for f in found] == ["master_trump_smeared"]
    (finding,) = found
    assert (finding.trick, finding.play, finding.seat, finding.card) == (1, 3, 1, Card.DA)
    assert finding.better == (Card.D7,) and finding.points == 7 and finding.severity is Severity.BLUNDER
    assert "Dirk's 10♦" in finding.explanation and "trick 2" in finding.explanation
    assert "koeken aas" in finding.explanation_nl


def test_master_trump_smeared_is_info_when_it_cost_nothing() -> None:
    (finding,) = of_kind(
        analyse_record(record(ACE_ON_MANILLE, ["10D 8D AD QD"], dealer=2)), "master_trump_smeared"
    )
    assert finding.points == 0 and finding.severity is Severity.INFO and "cost nothing" in finding.explanation


def test_master_trump_smeared_not_flagged_when_the_lower_trump_was_a_sure_trick_too() -> None:
    """Bert holds AD KD: with the AD played the KD is the master, so nothing was spent."""
    hands = list(ACE_ON_MANILLE)
    hands[1], hands[2] = hands[1].replace("7D", "KD"), hands[2].replace("KD", "7D")
    assert of_kind(analyse_record(record(hands, ["10D 8D AD QD"], dealer=2)), "master_trump_smeared") == []


def test_trump_overspent_with_costs_stands_only_when_the_lower_trump_was_better_from_the_view() -> None:
    rec = record(MANILLE_LAST, ["7C 8C AC 10D", "7D KD JD 8D"])
    result = replay(rec)
    even = view_cost_at(1, 4, 1, "10D", {"10D": 20.0, "7D": 20.2})
    assert of_kind(analyse(result, rec, costs={1: [even]}), "trump_overspent") == []
    better = view_cost_at(1, 4, 1, "10D", {"10D": 20.0, "7D": 23.0})
    (finding,) = of_kind(analyse(result, rec, costs={1: [better]}), "trump_overspent")
    assert finding.points == 3 and finding.severity is Severity.INACCURACY  # card points: 2, 4, 8
    assert "playing 7♦ was worth 3 card points more on average" in finding.explanation
    assert "spelen van de koeken zeven gemiddeld 3 kaartpunten" in finding.explanation_nl


# --------------------------------------------------------------------------- the scan's gate


class _EveryPlayAsked(MatchAnalysis):
    """The reference: every card-play detector asked about every play, as before the gate."""

    @staticmethod
    def may_find(know: DealKnowledge, view: PlayView, partner: int | None) -> bool:
        return True


def _random_costs(result: MatchResult, rng: random.Random) -> dict[int, list[PlayCost]]:
    """A view value for every legal card of every play, at random: the solver's costs as the
    detectors read them (``view_gains``), so that the gate is checked with costs too."""
    costs: dict[int, list[PlayCost]] = {}
    for deal in result.deals:
        plays = []
        for trick in deal.tricks:
            for position, (seat, card) in enumerate(zip(trick.seats, trick.cards, strict=True)):
                values = {
                    Card(c): CardValue(0, round(rng.uniform(0, 30), 1))
                    for c in iter_mask(trick.legal[position])
                }
                values.setdefault(Card(card), CardValue(0, 10.0))
                top = max(v.view or 0.0 for v in values.values())
                view_cost = top - (values[Card(card)].view or 0.0)
                plays.append(
                    PlayCost(
                        trick.number, position + 1, seat, Card(card), 0, view_cost, (), values, deal.number
                    )
                )
        costs[deal.number] = plays
    return costs


GENERATED_MATCHES = {
    "variant": st.sampled_from(sorted(VARIANTS)),
    "seed": st.integers(1, 10_000),
    "options": house_rules,
    "with_costs": st.booleans(),
    # seeded from one number: random costs for every play of a match, drawn from Hypothesis's
    # own data, ran past the data an example may draw whenever costs were asked for, so that
    # example was dropped (18 of 48 with one seed), and now and then the `data_too_large` health
    # check failed the test (`make check` twice in some sixty runs)
    "pick": st.randoms(use_true_random=True),
}
"""A generated match of any variant under random house rules, with or without random costs."""


def _outcome(analysis: MatchAnalysis) -> object:
    """The findings' rows in order."""
    return [finding.to_row() for finding in sorted(analysis.run(), key=sort_key)]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**GENERATED_MATCHES)
def test_the_card_play_gate_changes_no_finding(
    variant: str, seed: int, options: dict[str, object], with_costs: bool, pick: random.Random
) -> None:
    """The card-play detectors pass over a play that none of them can flag by its cards alone
    (``MatchAnalysis.may_find``): on generated matches of every variant (novices' slips
    included), under random house rules, with and without the solver's costs, the findings are
    those of asking every detector about every play, to the word."""
    house = tuple(sorted(options.items())) if variant == "four" else ()
    for line in generated(variant, seed, house):
        record = loads(line)
        try:
            result = replay(record)
        except InvalidRecordError:
            continue
        costs = _random_costs(result, pick) if with_costs else None
        assert _outcome(MatchAnalysis(result, record, costs=costs)) == _outcome(
            _EveryPlayAsked(result, record, costs=costs)
        )


def test_the_gate_s_examples_with_costs_are_run_not_dropped() -> None:
    """The property above gets matches with random costs and checks them: the costs of a whole
    match, drawn from Hypothesis's own data, ran past what an example may draw, and such an
    example was dropped before it was checked."""
    ran: list[bool] = []

    @settings(max_examples=32, deadline=None, database=None)
    @given(**GENERATED_MATCHES)
    def costs_drawn(
        variant: str, seed: int, options: dict[str, object], with_costs: bool, pick: random.Random
    ) -> None:
        if with_costs:  # the costs of every match, as the property draws them
            for line in generated(variant, seed, ()):
                with contextlib.suppress(InvalidRecordError):
                    _random_costs(replay(loads(line)), pick)
        ran.append(with_costs)

    costs_drawn()
    # with the costs drawn from Hypothesis's data, none of 32 examples had them (six runs); drawn
    # as now, 2 to 13 of 16 (80 runs): 32 examples, so that a run with few does not fail
    assert ran.count(True) >= 3 and len(ran) == 32


def test_the_card_play_gate_passes_over_most_plays_and_keeps_every_finding() -> None:
    """On generated four-player matches the gate passes over most plays, and the reference
    finds card-play findings there, so the comparison above has something to compare."""
    asked = passed = 0
    kinds: set[str] = set()
    original = MatchAnalysis.may_find

    def counting(know: DealKnowledge, view: PlayView, partner: int | None) -> bool:
        nonlocal asked, passed
        asked += 1
        found = original(know, view, partner)
        passed += not found
        return found

    for seed in range(1, 6):
        for line in generated("four", seed):
            record = loads(line)
            result = replay(record)
            kinds.update(f.kind for f in _EveryPlayAsked(result, record).run())
            analysis = MatchAnalysis(result, record)
            analysis.may_find = counting  # type: ignore[method-assign]
            analysis.run()
    assert passed > asked / 2
    assert {"missed_vetten", "points_thrown", "trump_overspent"} <= kinds


# --------------------------------------------------------------------------- the batch's gate


def _bulk_and_reference(
    records: list[Record], pick: random.Random | None = None
) -> list[tuple[MatchResult, Record, dict[int, list[PlayCost]] | None, list[dict[str, Any]]]]:
    """Each record the bulk path replays (its compiled pass takes even a small batch): its result,
    the solver's costs at random (with ``pick``), and the reference findings, every detector asked
    about every play of the engine's replay."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(bulk, "COMPILED_MINIMUM", 0)
        fast = bulk.replay_many(records)
    replayed = []
    for match, result in zip(records, fast, strict=True):
        if isinstance(result, Exception):
            continue
        played = replay(match)
        costs = None if pick is None else _random_costs(played, pick)
        found = sorted(_by_decider(_EveryPlayAsked(played, match, costs=costs).run(), played), key=sort_key)
        replayed.append((result, match, costs, [finding.to_row() for finding in found]))
    return replayed


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**GENERATED_MATCHES)
def test_the_batch_gate_drops_no_finding(
    variant: str, seed: int, options: dict[str, object], with_costs: bool, pick: random.Random
) -> None:
    """The bulk path's gate (``analysis.batch_gate``) asks the card-play detectors only about the
    plays it marks: on generated matches of every variant (novices' slips included), under random
    house rules, and on matches of random legal cards, with and without the solver's costs, the
    findings of the bulk replay's results are those of every detector asked about every play of
    the engine's, to the word."""
    house = tuple(sorted(options.items())) if variant == "four" else ()
    records = [loads(line) for line in generated(variant, seed, house)]
    if variant == "four":
        records.append(random_record(seed, deals=4))
    for result, match, costs, reference in _bulk_and_reference(records, pick if with_costs else None):
        assert [finding.to_row() for finding in analyse(result, match, costs=costs)] == reference


def test_the_batch_gate_keeps_a_master_trump_that_overtook_the_partner_s_sure_winner() -> None:
    """The trump manille put over the partner's sure trump ace (``master_trump_smeared`` since a
    coach's review) is a play the gate marks: the bulk path finds it as every detector asked does."""
    from manillen_replay.record.text import loads_text

    from .test_mutants_detectors import OVERTAKEN

    (record,) = loads_text(OVERTAKEN)
    ((result, match, costs, reference),) = _bulk_and_reference([record])
    found = [finding.to_row() for finding in analyse(result, match, costs=costs)]
    assert found == reference
    assert any(row["kind"] == "master_trump_smeared" and row["trick"] == 3 for row in found)


def test_the_batch_gate_leaves_most_deals_unjudged_and_their_views_as_walked() -> None:
    """On generated four-player matches and random legal games the gate marks fewer than half of
    the deals, while every detector asked about every play finds card-play findings (so the test
    above compares something); the views made from what the gate worked out are those of the
    walk through the deal, play by play."""
    records = [loads(line) for seed in range(1, 4) for line in generated("four", seed)]
    records += [random_record(seed, deals=6) for seed in range(3)]
    replayed = _bulk_and_reference(records)
    kinds = {row["kind"] for _, _, _, reference in replayed for row in reference}
    assert {"missed_vetten", "master_trump_smeared", "trump_overspent", "points_thrown"} <= kinds
    deals = marked = 0
    for result, _, _, _ in replayed:
        for deal in result.deals:
            in_batch = deal.batch_plays
            if in_batch is None:
                continue
            deals += 1
            gate = batch_gate(in_batch[0], result.rules.shape.deck_mask)
            if in_batch[1] not in gate.first_known:
                continue
            marked += 1
            known = gate.known(in_batch[1], 4 * deal.trick_count)
            assert DealKnowledge(deal, result.rules, known).views == DealKnowledge(deal, result.rules).views
    assert deals > 50 and 0 < marked < deals / 2


def test_findings_name_the_players_of_the_deals_block_at_a_club_evening() -> None:
    """Partners change between a club evening's blocks: a finding in the second block names who
    sat at that seat in the second block, not in the first."""
    document = json.loads(Path("data/samples/club-evening.json").read_text(encoding="utf-8"))
    # The second block seats Anna, Carla, Bert, Dirk; deal 14 is dealt by seat 2 where seat 1
    # was due, and deal 17 by seat 0 after seat 0 (two deals out of turn).
    for index, dealer in ((13, 2), (14, 3), (15, 0)):
        document["deals"][index]["dealer"] = dealer
    record = loads(json.dumps(document))
    said = {f.deal: (f.player, f.explanation) for f in MatchAnalysis(replay(record), record).run()}
    assert said[14] == ("Bert", "Deal 14 was dealt by Bert; by rotation it was Carla's turn to deal.")
    assert said[17] == ("Anna", "Deal 17 was dealt by Anna; by rotation it was Carla's turn to deal.")


def test_an_illegal_play_under_the_dummys_winning_card_names_the_dummy() -> None:
    """In ``three_dummy`` the dummy is a seat past the match's three players, and the dealer of
    each deal plays it: a play that broke the rules while the dummy was winning the trick says
    whose dummy it was in that deal (not in the match's last deal), in Dutch ``blinde van Anna``.
    The detectors write both languages with the seat names of that language: ``analyse`` files the
    findings by who chose the card and leaves their words as the detectors made them."""
    said = []
    for seed in range(1, 40):
        for line in generated("three_dummy", seed, ()):
            record = loads(line)
            result = replay(record)
            dealt = {deal.number: deal for deal in result.deals}
            found = analyse(result, record, strategy=False)
            for finding in found:
                if finding.kind in ("failed_to_buy", "failed_to_overtake") and "dummy" in finding.explanation:
                    dealer = result.seats[dealt[finding.deal or 0].dealer]
                    last = dealt[finding.deal or 0].dealer == result.deals[-1].dealer
                    said.append((finding.explanation, finding.explanation_nl, dealer, last))
            if any("dummy" in finding.explanation for finding in found):
                made = MatchAnalysis(result, record, strategy=False).run()
                words = sorted((f.explanation, f.explanation_nl) for f in made)
                assert words == sorted((f.explanation, f.explanation_nl) for f in found)
    assert not all(last for *_, last in said), "no such play in a deal dealt by another than the last"
    for text, dutch, dealer, _ in said:
        assert re.search(rf"{dealer}'s dummy('s winning| was winning)", text), (text, dealer)
        assert re.search(rf"(van|terwijl) blinde van {dealer} ", dutch) and "dummy" not in dutch, dutch


SAMPLES = Path(__file__).resolve().parent.parent / "data" / "samples"


def test_a_three_dummy_side_is_named_by_its_people_not_with_the_dealers_dummy() -> None:
    """The dealer plays the dummy of ``three_dummy``: the side is the dealer's, named ``Anna`` as
    the text replay scores it (``score: Anna +9``), not ``Anna & Anna's dummy``."""
    sample = json.loads((SAMPLES / "variant-three-dummy.json").read_text())
    sample["deals"][0]["recorded_score"] = {"team": 0, "points": 12}  # the cards say 9
    record = loads(json.dumps(sample))
    (finding,) = of_kind(analyse_record(record), "score_mismatch")
    assert "says 12 for Anna, the cards say 9 for Anna " in finding.explanation
    assert "voor Anna, de kaarten zeggen 9 voor Anna " in (finding.explanation_nl or "")
    assert "dummy" not in finding.explanation


def test_a_detector_s_finding_on_a_dummy_card_is_filed_under_the_dealer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The detectors name each seat (``Anna's dummy``), but the dealer chose the dummy's card:
    ``analyse`` files such a finding under the dealer, as ``deal_seats`` and ``plays`` credit the
    card, and keeps the seat and the words; a finding at a person's seat keeps its player."""
    from dataclasses import replace

    from manillen_replay.analysis import Category, Finding

    record = loads((SAMPLES / "variant-three-dummy.json").read_text())
    result = replay(record)
    base = Finding("revoke", Category.RULE, Severity.BLUNDER, result.id, 1, 4, 1, 3, "Anna's dummy", None, (),
                   0.0, "Anna's dummy revoked.", "blinde van Anna verzaakte.")  # fmt: skip
    made = [base, replace(base, seat=1, player="Bert", trick=5)]
    monkeypatch.setattr(MatchAnalysis, "run", lambda self: list(made))
    found = analyse(result, record)
    assert [(f.seat, f.player) for f in found] == [(3, "Anna"), (1, "Bert")]
    assert (
        found[0].explanation == "Anna's dummy revoked."
        and found[0].explanation_nl == "blinde van Anna verzaakte."
    )


def test_a_failed_underbuy_under_forced_underbuying_names_the_duty_it_broke() -> None:
    """Bert, void in diamonds, threw 9♠ under Anna's 10♥ (trump) where the club plays
    `underbuy=forced`: the finding said "buying (kopen) with A♥ 9♥ was required", cards that could
    not beat the 10♥, while `legal` said a trump even below it was the duty."""
    from manillen_replay.record.text import loads_text

    text = "\n".join(
        [
            "match forced",
            "seats Anna Bert Carla Dirk",
            "rules underbuy=forced overtake_plain_suit=false",
            "deal 1  dealer Dirk  trump H",
            "  hand Anna: 10C AC KC 7C 10H 8D KS 7S",
            "  hand Bert: QC 9C AH 9H 8S 9S JD QD",
            "  hand Carla: JC 8C KH QH AD KD 10S AS",
            "  hand Dirk: JH 8H 7H 10D 9D 7D QS JS",
            "  10C QC 8C 7H",
            "  QS 7S 8S 10S",
            "  AD 7D 8D QD",
            "  KD 9D 7C JD",
            "  JC 8H KC 9C",
            "  10D 10H 9S AS",
            "  AC AH KH JS",
            "  9H QH JH KS",
            "",
        ]
    )
    (found,) = [f for f in analyse(replay(loads_text(text)[0])) if f.kind == "failed_to_buy"]
    assert "must play a trump even below the trump winning (underbuying is forced)" in found.explanation
    assert "so A♥ 9♥ was required" in found.explanation and "buying (kopen)" not in found.explanation
    assert "onderkopen is verplicht" in found.explanation_nl
