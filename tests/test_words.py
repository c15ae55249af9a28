"""The explanations' words: every template in English and in Dutch as a Flemish player says it.

One finding of each kind is collected (the demo archive holds most built-in kinds; the rest
come from built positions and from solver findings made from hand-written costs and reviews),
and each explanation is checked in both languages: no record-format card code, cards named with
suit symbols in English and by their Flemish names in Dutch, no English word left in the Dutch,
decimal commas, and one point singular.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from manillen_replay.analysis import Finding, Severity, analyse, analyse_record
from manillen_replay.analysis.call_review import CallOption, CallReview
from manillen_replay.analysis.costs import CardValue, PlayCost
from manillen_replay.analysis.solver_findings import call_findings, cost_findings, curate
from manillen_replay.analysis.words import (
    KIND_NL,
    SEVERITY_NL,
    card_en,
    card_nl,
    cards_nl,
    kind_name,
    more_points_en,
    more_points_nl,
    number_nl,
    points_en,
    points_nl,
    severity_name,
)
from manillen_replay.cards import Card
from manillen_replay.engine import replay
from manillen_replay.record import loads

from .test_analysis import BASE, UNSAFE, record, scoresheet

DEMO = Path(__file__).resolve().parent.parent / "data" / "demo.jsonl"
CODE = re.compile(r"\b(?:10|[6-9JQKA])[HDCS]\b")
"""A card written the record format's way (``10C``, ``KH``): never in an explanation."""
ENGLISH = re.compile(
    r"\b(?:the|and|points?|card|trick|with|would|no klop|scorebord|info|mistake|inaccuracy)\b"
)
"""English words (and the old ``scorebord``) that must not appear in a Dutch explanation."""
SOLVER_KINDS = ("costly_card", "hindsight_only", "trump_choice", "knock_choice")


def _cost(view: float, dd: int) -> PlayCost:
    values = {Card.H7: CardValue(10, 10.0 - view), Card.HA: CardValue(10 + dd, 10.0)}
    return PlayCost(1, 2, 1, Card.H7, dd, view, (Card.HA,), values, deal=1, hindsight_best=(Card.HA,))


def _review(kind: str) -> CallReview:
    if kind == "trump_choice":
        options = (CallOption("muil", 40.0, 20.5), CallOption("H", 31.0, 1.5))
        return CallReview(1, 1, options, "H", 50)
    options = (CallOption("klop", 35.0, 10.5), CallOption("no klop", 35.0, 5.25))
    return CallReview(1, 1, options, "no klop", 50)


@cache
def one_of_each() -> dict[str, Finding]:
    """The first finding of every kind: the demo's, then built positions and solver findings."""
    found: dict[str, Finding] = {}
    with open(DEMO, encoding="utf-8") as lines:
        for line in lines:
            rec = loads(line)
            for finding in analyse(replay(rec), rec):
                found.setdefault(finding.kind, finding)
    unsafe = record(
        UNSAFE, ["KD 7D 10C AD", "10D 7H 8D 8S", "KC 7C JC AC", "QC KS 8C QH"], dealer=3, trump=None
    )
    from .test_slips import LEGAL_22, swapped  # here: test_slips imports this module's checks
    from .test_slips import record as without_hands

    slip = without_hands(swapped(LEGAL_22, 2, 3))  # record_slip: two lines typed the other way round
    for rec in (scoresheet([0, 2], [10, 10]), scoresheet([0, 1, 2], [110, 5, 5]), unsafe, slip):
        for finding in analyse_record(rec):
            found.setdefault(finding.kind, finding)
    deal = replay(record(BASE, ["7C 10C 8C 7S"])).deals[0]
    for finding in cost_findings([_cost(2.5, 6), _cost(0.5, 3)], match="m", deal=deal, players=list("ABCD")):
        found.setdefault(finding.kind, finding)
    for kind in ("trump_choice", "knock_choice"):
        (finding,) = call_findings(_review(kind), match="m", players=list("ABCD"), kind=kind)
        found[kind] = finding
    return found


def test_every_kind_is_collected() -> None:
    assert set(one_of_each()) == set(KIND_NL)


@pytest.mark.parametrize("kind", sorted(KIND_NL))
def test_every_template_speaks_both_languages(kind: str) -> None:
    finding = one_of_each()[kind]
    en, nl = finding.explanation, finding.explanation_nl
    assert not CODE.search(en) and not CODE.search(nl), (en, nl)
    assert not ENGLISH.search(nl), nl
    assert "{" not in en + nl
    if finding.card is not None and kind not in (
        "revoke",
        "failed_to_overtake",
        "failed_to_buy",
        "illegal_underbuy",
    ):
        assert card_en(finding.card) in en
        assert card_nl(finding.card) in nl.lower() or finding.kind == "bare_ace_lost"
    for number in re.findall(r"\d+\.\d", nl):
        pytest.fail(f"a decimal point in Dutch: {number} in {nl!r}")


def test_dutch_card_names_are_the_flemish_ones() -> None:
    assert card_nl(Card.DK) == "koeken heer"
    assert card_nl(Card.C10) == "klaveren manille"
    assert card_nl(Card.SJ) == "schoppen boer"
    assert card_nl(Card.HQ) == "harten vrouw"
    assert cards_nl([Card.DA, Card.DJ, Card.D8]) == "koeken aas, boer en acht"
    assert card_en(Card.C10) == "10♣" and card_en(Card.DA) == "A♦"


def test_one_point_is_singular_in_both_languages() -> None:
    assert points_en(1, "card point") == "1 card point" and points_en(3, "card point") == "3 card points"
    assert points_nl(1, "kaartpunt") == "1 kaartpunt" and points_nl(2, "kaartpunt") == "2 kaartpunten"
    assert points_en(1.5) == "1.5 points" and points_nl(1.5) == "1,5 punten"
    assert more_points_en(1, 1) == "1 more point" and more_points_nl(1, 1) == "1 punt meer"
    assert "2 on the scoresheet" in more_points_en(1, 2) and "2 op het scoreblad" in more_points_nl(1, 2)
    assert number_nl(2.5) == "2,5"


def test_muil_missed_speaks_of_what_would_have_been() -> None:
    nl = one_of_each()["muil_missed"].explanation_nl
    assert "had dubbel geteld" in nl and "als de kaarten hetzelfde gevallen waren" in nl


def test_solver_findings_use_decimal_commas_and_dutch_options() -> None:
    found = one_of_each()
    assert "2,5 kaartpunten" in found["costly_card"].explanation_nl
    assert "2.5 card points" in found["costly_card"].explanation
    choice = found["trump_choice"]
    assert "harten" in choice.explanation_nl and "hearts" in choice.explanation
    knock = found["knock_choice"]
    # what was done, then what it was worth: "No klop was worth 5.2" read as "no knock was worth anything"
    nl = "B klopte niet: met de kaarten van B was dat voor de ploeg gemiddeld 5,3 punten"
    assert knock.explanation_nl.startswith(nl)
    assert knock.explanation.startswith("B did not knock: from B's cards that was worth 5.3 points")
    assert ", a klop " in knock.explanation and ", kloppen " in knock.explanation_nl


def test_kind_and_severity_names_in_dutch() -> None:
    assert kind_name("points_thrown", "nl") == "punten weggegooid"
    assert kind_name("points_thrown", "en") == "points thrown"
    assert [severity_name(s.value, "nl") for s in Severity] == list(SEVERITY_NL.values())
    assert "info" not in SEVERITY_NL.values()


def test_curated_notes_speak_both_languages() -> None:
    """The sentences the solver depth adds (info, judged by the expectation) are Dutch too."""
    found = one_of_each()
    review = _review("knock_choice")
    klop = found["klop_lost"]
    reviews = {(klop.deal or 0, klop.seat or 0): review} if klop.seat is not None else {}
    curated = curate([klop, found["trump_choice"]], knock_reviews=reviews)
    for finding in curated:
        assert finding.severity is Severity.INFO
        assert not ENGLISH.search(finding.explanation_nl), finding.explanation_nl
        assert not CODE.search(finding.explanation_nl) and not CODE.search(finding.explanation)


def test_a_player_who_plays_alone_is_named_not_their_team() -> None:
    """Two players, or the dealer of three, have no team: "cost Mieke's team" and "de ploeg van
    Mieke" read wrong there, in the costly card's words and the calls' alike."""
    from manillen_replay.rules import VARIANTS

    deal = replay(record(BASE, ["7C 10C 8C 7S"])).deals[0]
    costs = [_cost(2.5, 6)]
    (teams,) = cost_findings(costs, match="m", deal=deal, players=list("ABCD"), shape=VARIANTS["four"])
    assert "cost B's team 2.5 card points" in teams.explanation
    assert (
        "kostte de ploeg van B gemiddeld" in teams.explanation_nl
        and "had de ploeg ze" in teams.explanation_nl
    )
    (alone,) = cost_findings(costs, match="m", deal=deal, players=list("ABCD"), shape=VARIANTS["two_open"])
    assert "cost B 2.5 card points" in alone.explanation and "team" not in alone.explanation
    assert "kostte B gemiddeld" in alone.explanation_nl and "had B ze behouden" in alone.explanation_nl
    assert "ploeg" not in alone.explanation_nl
    for kind in ("trump_choice", "knock_choice"):
        (call,) = call_findings(_review(kind), match="m", players=list("ABCD"), kind=kind, alone=True)
        assert "points of the deal for B on average" in call.explanation, call.explanation
        assert "team" not in call.explanation and "ploeg" not in call.explanation_nl, call.explanation_nl


def test_muil_under_a_capot_bonus_says_why_its_score_is_more_than_doubled() -> None:
    """Under capot=double a helper read "8.4 over 30, times 3" (28.2, where 8.4 x 3 is 25.2): the
    factor was guessed from the average score, which the capot layouts' bonus raises. The factor
    is the rules' (doubled), and the capot is named as what adds the rest."""
    from manillen_replay.analysis.solver_findings import _muil_words
    from manillen_replay.rules import Rules

    muil = CallOption("muil", 38.4, 28.2)
    en, nl = _muil_words(muil, Rules(capot="double"))
    assert "8.4 over 30, doubled, and more where one side takes all 60" in en and "times 3" not in en
    assert "8,4 boven 30, verdubbeld, en meer waar een kant alle 60 haalt" in nl
    plain, _ = _muil_words(CallOption("muil", 38.4, 16.8), Rules())
    assert plain.endswith("8.4 over 30, doubled.")
