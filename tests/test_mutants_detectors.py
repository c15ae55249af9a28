"""What the card-play detectors tell a player, read in full: the behaviours that mutation testing of
``analysis/detectors.py`` (``make mutate MODULE=manillen_replay/analysis/detectors.py``, the
card-play functions) showed no other test defended.

Each finding is read whole, as ``manillen findings`` prints it (docs/findings.md): who played which
card in which trick, on whose card, what the better card was and what it cost, in English and in
Dutch, with and without the solver's view of the play. The positions are those of
``tests/test_analysis.py`` and ``tests/test_detectors.py``, a few built beside them, deals of the
demo (``data/demo.jsonl``, each read against its cards) and two random matches of
``tests/factories.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from manillen_replay.analysis import Category, Finding, Severity, analyse, analyse_record
from manillen_replay.analysis.costs import PlayCost
from manillen_replay.cards import Card
from manillen_replay.engine import decode_and_replay, replay
from manillen_replay.record import Record, loads
from manillen_replay.record.model import RecordedScore

from .factories import random_record
from .test_analysis import (
    BARE_ACE,
    BASE,
    ONE_TRUMP,
    THROWN,
    UNSAFE,
    VETTEN,
    called,
    full_deal,
    hands_with,
    of_kind,
    play_out,
    record,
    scoresheet,
    view_cost_at,
)
from .test_detectors import ACE_ON_MANILLE, ACE_UNDER_TEN, MANILLE_LAST, TRUMP_LEAD


def _read(finding: Finding) -> tuple[object, ...]:
    """A finding as a player reads it: where, who, which card, the better ones, the points, the words."""
    return (
        finding.kind,
        finding.deal,
        finding.trick,
        finding.play,
        finding.player,
        str(finding.card),
        [str(c) for c in finding.better],
        finding.points,
        finding.severity,
        finding.explanation,
        finding.explanation_nl,
    )


def _only(rec: Record, kind: str, costs: dict[int, list[PlayCost]] | None = None) -> Finding:
    found = analyse(replay(rec), rec, costs=costs) if costs is not None else analyse_record(rec)
    (finding,) = of_kind(found, kind)
    return finding


# --------------------------------------------------------------------------- missed_vetten


def test_missed_vetten_reads_in_full() -> None:
    """Bert keeps K♥ back from Dirk's certain 10♣ and Anna's A♥ takes it in trick 2."""
    assert _read(_only(record(BASE, VETTEN), "missed_vetten")) == (
        "missed_vetten", 1, 1, 4, "Bert", "7S", ["KH"], 3.0, Severity.MISTAKE,
        "Bert played 7♠ on Dirk's winning 10♣ in trick 1 while holding K♥: smearing it (vetten) would "
        "have brought 3 more points. Dirk was certain to take the trick, and K♥ went to the opponents "
        "in trick 2.",
        "Bert speelde de schoppen zeven op de winnende klaveren manille van Dirk in slag 1 met de harten "
        "heer in de hand: de harten heer vetten had 3 punten meer opgebracht. Dirk won de slag zeker, en de "
        "harten heer ging in slag 2 naar de tegenstanders.",
    )  # fmt: skip


def test_missed_vetten_under_klop_says_the_scoresheet_counts_double() -> None:
    rec = record(BASE, VETTEN, calls=[(0, "klop")])
    finding = _only(rec, "missed_vetten")
    assert (finding.points, finding.severity) == (6.0, Severity.BLUNDER)
    assert finding.explanation == (
        "Bert played 7♠ on Dirk's winning 10♣ in trick 1 while holding K♥: smearing it (vetten) would "
        "have brought 3 more card points (6 on the scoresheet: the deal counted double). Dirk was "
        "certain to take the trick, and K♥ went to the opponents in trick 2."
    )
    assert (
        "3 kaartpunten meer (6 op het scoreblad: het spel telde dubbel) opgebracht" in finding.explanation_nl
    )


def test_missed_vetten_with_the_solvers_view_adds_what_the_player_could_see() -> None:
    costs = {1: [view_cost_at(1, 4, 1, "7S", {"7S": 20.0, "KH": 22.5, "8S": 20.0, "9S": 19.0})]}
    finding = _only(record(BASE, VETTEN), "missed_vetten", costs)
    assert (finding.points, finding.severity, finding.better) == (2.5, Severity.INACCURACY, (Card.HK,))
    # the trick's 3 points are not said beside the 2.5 on average (a coach read "would have brought
    # 2 more points" and "worth 1.1 card points more on average" as two costs of one card)
    assert "holding K♥: smearing it (vetten) was the better play. Dirk was" in finding.explanation
    assert (
        "met de harten heer in de hand: de harten heer vetten was beter geweest. Dirk won"
        in finding.explanation_nl
    )
    assert finding.explanation.endswith(
        "in trick 2. From what Bert could see, smearing K♥ was worth 2.5 card points more on average "
        "over the ways the other cards could lie."
    )
    assert finding.explanation_nl.endswith(
        "in slag 2 naar de tegenstanders. Met wat Bert kon weten, was het vetten van de harten heer "
        "gemiddeld 2,5 kaartpunten meer waard, over alle mogelijke verdelingen van de andere kaarten."
    )


# --------------------------------------------------------------------------- bare_ace_lost


def test_bare_ace_lost_reads_in_full() -> None:
    rec = record(BARE_ACE, ["7C 10C 8C 7S", "JH 10H AH 7H"])
    assert _read(_only(rec, "bare_ace_lost")) == (
        "bare_ace_lost", 1, 1, 4, "Bert", "7S", ["AH"], 4.0, Severity.MISTAKE,
        "Bert's bare ace A♥ (blote aas) fell under Anna's manille 10♥ in trick 2. In trick 1 Dirk was "
        "certain to take the trick with 10♣, and Bert could have smeared A♥ on it (vetten) instead of "
        "playing 7♠: 4 more points.",
        "De blote aas (harten aas) van Bert viel in slag 2 onder de harten manille van Anna. In slag 1 "
        "won Dirk de slag zeker met de klaveren manille, en Bert kon de aas erop vetten in plaats van "
        "de schoppen zeven te spelen: 4 punten meer.",
    )  # fmt: skip


def test_bare_ace_lost_with_the_solvers_view_takes_its_points_from_it() -> None:
    rec = record(BARE_ACE, ["7C 10C 8C 7S", "JH 10H AH 7H"])
    costs = {1: [view_cost_at(1, 4, 1, "7S", {"7S": 15.0, "AH": 18.0, "8S": 15.0, "9S": 15.0})]}
    finding = _only(rec, "bare_ace_lost", costs)
    assert (finding.points, finding.severity) == (3.0, Severity.INACCURACY)
    assert finding.explanation.endswith(
        "instead of playing 7♠. From what Bert could see, smearing A♥ was worth "
        "3 card points more on average over the ways the other cards could lie."
    )  # the ace's 4 points in the trick are not said beside the average over the layouts
    assert finding.explanation_nl.endswith(
        "te spelen. Met wat Bert kon weten, was het vetten van de harten aas gemiddeld 3 kaartpunten "
        "meer waard, over alle mogelijke verdelingen van de andere kaarten."
    )
    # the play that was reported as a bare ace is not reported again as a missed smear
    assert of_kind(analyse(replay(rec), rec, costs=costs), "missed_vetten") == []


# --------------------------------------------------------------------------- wasted_trump

WASTED = ["7C 10C 8C 9D", "KH 7H QH AH", "KC 8S AC JC"]
"""Bert trumps Dirk's certain 10♣ with his only trump; in trick 3 it would have bought A♣ and K♣."""


def test_wasted_trump_reads_in_full_with_the_trick_it_cost() -> None:
    assert _read(_only(record(ONE_TRUMP, WASTED), "wasted_trump")) == (
        "wasted_trump", 1, 1, 4, "Bert", "9D", ["KH", "7S", "8S", "9S", "JS", "QS", "KS"], 8.0,
        Severity.BLUNDER,
        "Bert trumped with 9♦ in trick 1, a trick Dirk was certain to take with 10♣, while a discard "
        "was possible (K♥ K♠ Q♠ J♠ 9♠ 8♠ 7♠). In trick 3 Bert had no trump left and 9♦ would have "
        "taken it: 8 points went to the opponents.",
        "Bert kocht met de koeken negen (troef) in slag 1, een slag die Dirk zeker won met de klaveren "
        "manille, terwijl afgooien kon (harten heer, schoppen heer, vrouw, boer, negen, acht en zeven). In "
        "slag 3 had Bert geen troef meer en had de koeken negen de slag genomen: 8 punten gingen naar de "
        "tegenstanders.",
    )  # fmt: skip


def test_wasted_trump_that_cost_nothing_says_so() -> None:
    finding = _only(record(BASE, ["7C 10C 8C QD"]), "wasted_trump")
    assert [str(c) for c in finding.better] == ["KH", "7S", "8S", "9S"]
    assert finding.explanation == (
        "Bert trumped with Q♦ in trick 1, a trick Dirk was certain to take with 10♣, while a discard "
        "was possible (K♥ 9♠ 8♠ 7♠). It cost nothing this time."
    )
    assert finding.explanation_nl == (
        "Bert kocht met de koeken vrouw (troef) in slag 1, een slag die Dirk zeker won met de klaveren "
        "manille, terwijl afgooien kon (harten heer, schoppen negen, acht en zeven). Deze keer kostte het "
        "niets."
    )


def test_wasted_trump_with_the_solvers_view_names_the_best_discard_first() -> None:
    legal = ["KH", "9D", "KS", "QS", "JS", "9S", "8S", "7S"]
    views = {**dict.fromkeys(legal, 30.0), "7S": 34.0, "8S": 33.0}
    costs = {1: [view_cost_at(1, 4, 1, "9D", views)]}
    finding = _only(record(ONE_TRUMP, WASTED), "wasted_trump", costs)
    assert (finding.points, finding.severity, finding.better) == (4.0, Severity.MISTAKE, (Card.S7, Card.S8))
    assert finding.explanation == (
        "Bert trumped with 9♦ in trick 1, a trick Dirk was certain to take with 10♣, while a discard was "
        "possible (8♠ 7♠). From what Bert could see, discarding 7♠ was worth 4 card points more on "
        "average over the ways the other cards could lie. In trick 3 Bert had no trump left and 9♦ would "
        "have taken it: 8 points went to the opponents."
    )
    assert finding.explanation_nl == (
        "Bert kocht met de koeken negen (troef) in slag 1, een slag die Dirk zeker won met de klaveren "
        "manille, terwijl afgooien kon (schoppen acht en zeven). Met wat Bert kon weten, was het afgooien "
        "van de schoppen zeven gemiddeld 4 kaartpunten meer waard, over alle mogelijke verdelingen van de "
        "andere kaarten. In slag 3 had Bert geen troef meer en had de koeken negen de slag genomen: 8 punten "
        "gingen naar de tegenstanders."
    )


# --------------------------------------------------------------------------- points_thrown, unsafe_vetten


def test_points_thrown_reads_in_full() -> None:
    """Dirk, last, throws the master 10♣ onto Anna's 10♦ in a muil instead of J♠."""
    rec = record(THROWN, ["10D 7D JD 10C", "7C 9C 7S AC", "KC 8C QC 8S"], dealer=3, trump=None)
    assert _read(_only(rec, "points_thrown")) == (
        "points_thrown", 1, 1, 4, "Dirk", "10C", ["JS"], 8.0, Severity.BLUNDER,
        "Dirk threw 10♣ onto Anna's 10♦ in trick 1, a trick the opponents were certain to take, while "
        "J♠ could be given instead: no card left could take 10♣ (a master), so keeping it would have "
        "saved 4 card points (8 on the scoresheet: the deal counted double).",
        "Dirk gooide de klaveren manille op de koeken manille van Anna in slag 1, een slag die de "
        "tegenstanders zeker wonnen, terwijl de schoppen boer ook mocht: geen kaart kon de manille nog "
        "nemen, dus had Dirk met de manille achter de hand 4 kaartpunten (8 op het scoreblad: het spel "
        "telde dubbel) gespaard.",
    )  # fmt: skip


def test_points_thrown_in_a_plain_deal_names_the_cheapest_card() -> None:
    rec = record(ACE_UNDER_TEN, ["10D 7D JD AD", "7H JH AH 8D", "KS AS 9D KD"])
    assert _read(_only(rec, "points_thrown")) == (
        "points_thrown", 1, 1, 4, "Bert", "AD", ["8D"], 4.0, Severity.MISTAKE,
        "Bert threw A♦ onto Carla's 10♦ in trick 1, a trick the opponents were certain to take, while "
        "8♦ could be given instead: no card left could take A♦ (a master), so keeping it would have "
        "saved 4 points.",
        "Bert gooide de koeken aas op de koeken manille van Carla in slag 1, een slag die de tegenstanders "
        "zeker wonnen, terwijl de koeken acht ook mocht: geen kaart kon de aas nog nemen, dus had Bert "
        "met de aas achter de hand 4 punten gespaard.",
    )  # fmt: skip


def test_unsafe_vetten_reads_in_full() -> None:
    """Carla smears 10♣ on Anna's K♦ before Dirk, who takes it with A♦, has played."""
    tricks = ["KD 7D 10C AD", "10D 7H 8D 8S", "KC 7C JC AC", "QC KS 8C QH"]
    rec = record(UNSAFE, tricks, dealer=3, trump=None)
    assert _read(_only(rec, "unsafe_vetten")) == (
        "unsafe_vetten", 1, 1, 3, "Carla", "10C", ["7S"], 10.0, Severity.BLUNDER,
        "Carla smeared 10♣ (vetten) on Anna's K♦ in trick 1 before the trick was safe: an opponent still "
        "to play could beat it, and Dirk took the trick. No card left could take 10♣ (a master); giving "
        "7♠ would have saved 5 card points (10 on the scoresheet: the deal counted double).",
        "Carla vette de klaveren manille op de koeken heer van Anna in slag 1 voor de slag zeker was: een "
        "tegenstander na Carla kon er nog over, en Dirk won de slag. Geen kaart kon de manille nog "
        "nemen; met de schoppen zeven was 5 kaartpunten (10 op het scoreblad: het spel telde dubbel) "
        "gespaard.",
    )  # fmt: skip


# ------------------------------------------------------------- trump_overspent, master_trump_smeared


def test_trump_overspent_last_to_play_reads_in_full() -> None:
    rec = record(MANILLE_LAST, ["7C 8C AC 10D", "7D KD JD 8D"])
    assert _read(_only(rec, "trump_overspent")) == (
        "trump_overspent", 1, 1, 4, "Bert", "10D", ["7D"], 4.0, Severity.MISTAKE,
        "Bert took trick 1, last to play, with 10♦ while 7♦ would have taken it for certain: no trump "
        "out could beat 10♦: kept back, it would have won a later trick for certain. In trick 2, 7♦ fell to "
        "the opponents; "
        "10♦ in its place would have taken that trick: 4 points went to the opponents.",
        "Bert nam slag 1 als laatste met de koeken manille, terwijl de koeken zeven de slag ook zeker had "
        "genomen: geen troef kon de koeken manille nog nemen: achter de hand gehouden had die later zeker "
        "een slag gewonnen. "
        "In slag 2 viel de koeken zeven bij de tegenstanders; de koeken manille had in de plaats die slag "
        "genomen: 4 punten gingen naar de tegenstanders.",
    )  # fmt: skip


def test_trump_overspent_second_to_play_does_not_say_last() -> None:
    rec = record(TRUMP_LEAD, ["10D 9D 7H JD", "7D AD 8H 7S", "8D 9H QC KD"], dealer=3)
    finding = _only(rec, "trump_overspent")
    assert finding.explanation.startswith(
        "Bert took trick 2 with A♦ while 8♦ would have taken it for certain"
    )
    assert finding.explanation_nl.startswith("Bert nam slag 2 met de koeken aas, terwijl de koeken acht")


def test_trump_overspent_with_the_solvers_view_reads_in_full() -> None:
    rec = record(MANILLE_LAST, ["7C 8C AC 10D", "7D KD JD 8D"])
    costs = {1: [view_cost_at(1, 4, 1, "10D", {"10D": 20.0, "7D": 23.0})]}
    finding = _only(rec, "trump_overspent", costs)
    assert (finding.points, finding.severity) == (3.0, Severity.INACCURACY)
    assert finding.explanation == (
        "Bert took trick 1, last to play, with 10♦ while 7♦ would have taken it for certain: no trump out "
        "could beat 10♦: kept back, it would have won a later trick for certain. From what Bert could see, "
        "playing 7♦ was worth 3 card points more on average over the ways the other cards could lie. "
        "In trick 2, 7♦ fell to the opponents; 10♦ in its place would have taken that trick: 4 points "
        "went to the opponents."
    )
    assert finding.explanation_nl == (
        "Bert nam slag 1 als laatste met de koeken manille, terwijl de koeken zeven de slag ook zeker had "
        "genomen: geen troef kon de koeken manille nog nemen: achter de hand gehouden had die later zeker "
        "een slag gewonnen. "
        "Met wat Bert kon weten, was het spelen van de koeken zeven gemiddeld 3 kaartpunten meer waard, over "
        "alle mogelijke verdelingen van de andere kaarten. "
        "In slag 2 viel de koeken zeven bij de tegenstanders; de koeken manille had in de plaats die slag "
        "genomen: 4 punten gingen naar de tegenstanders."
    )


def test_master_trump_smeared_reads_in_full() -> None:
    rec = record(ACE_ON_MANILLE, ["10D 8D AD QD", "7H AH 7D KD"], dealer=2)
    assert _read(_only(rec, "master_trump_smeared")) == (
        "master_trump_smeared", 1, 1, 3, "Bert", "AD", ["7D"], 7.0, Severity.BLUNDER,
        "Bert put A♦ on Dirk's 10♦ in trick 1, a trick their side was certain to take, while 7♦ could be "
        "played: no trump out could beat A♦: kept back, it would have won a later trick for certain. In "
        "trick 2, 7♦ fell to "
        "the opponents; A♦ in its place would have taken that trick: 7 points went to the opponents.",
        "Bert legde de koeken aas op de koeken manille van Dirk in slag 1, een slag die hun ploeg zeker won, "
        "terwijl de koeken zeven ook mocht: geen troef kon de koeken aas nog nemen: achter de hand gehouden "
        "had die later zeker een slag gewonnen. In slag 2 viel de koeken zeven bij de tegenstanders; de "
        "koeken aas had in de plaats die slag genomen: 7 punten gingen naar de tegenstanders.",
    )  # fmt: skip


OVERTAKEN = """match overtaken
seats Anna Bert Carla Dirk

deal 1  dealer Dirk  trump S
  hand Anna: AS 9S 10H AH KD QD JC 7C
  hand Bert: KS QS KH 7H 10D 7D 9C 8C
  hand Carla: 10S 7S QH JH AD 8D 10C KC
  hand Dirk: JS 8S 9H 8H JD 9D AC QC
  JC 8C 10C QC
  JH 8H AH 7H
  AS QS 10S 8S
  7S JS 9S KS
  7D AD 9D KD
  8D JD QD 10D
  9C KC AC 7C
  9H 10H KH QH
"""
"""A coach's deal: Anna leads A♠ (trumps) in trick 3, the only higher trump being her partner
Carla's 10♠, and Carla overtakes it with the 10♠ while holding 7♠; Bert's K♠ takes the 7♠ in
trick 4."""


def test_the_trump_manille_over_the_partner_s_sure_trump_ace_is_a_smeared_master_trump() -> None:
    """A coach's review: overtaking the partner's sure winner with the trump manille got no word
    finding, only a costly card's line played out; it is ``master_trump_smeared``, said as a
    player says it (overtook)."""
    from manillen_replay.record.text import loads_text

    (rec,) = loads_text(OVERTAKEN)
    (finding,) = of_kind(analyse_record(rec), "master_trump_smeared")
    assert (finding.trick, finding.play, finding.player, finding.card) == (3, 3, "Carla", Card.S10)
    assert finding.better == (Card.S7,)
    assert finding.explanation == (
        "Carla overtook Anna's A♠ with 10♠ in trick 3, a trick their side was certain to take, while 7♠ "
        "could be played: no trump out could beat 10♠: kept back, it would have won a later trick for "
        "certain. In trick 4, 7♠ fell to the opponents; 10♠ in its place would have taken that trick: 4 "
        "points went to the opponents."
    )
    assert finding.explanation_nl.startswith(
        "Carla nam de schoppen aas van Anna over met de schoppen manille in slag 3, een slag die hun "
        "ploeg zeker won, terwijl de schoppen zeven ook mocht"
    )


def test_master_trump_smeared_that_cost_nothing_says_so() -> None:
    finding = _only(record(ACE_ON_MANILLE, ["10D 8D AD QD"], dealer=2), "master_trump_smeared")
    assert finding.explanation.endswith(
        "kept back, it would have won a later trick for certain. It cost nothing this time."
    )
    assert finding.explanation_nl.endswith(
        "had die later zeker een slag gewonnen. Deze keer kostte het niets."
    )


# --------------------------------------------------------------------------- the demo's wasted trumps

DEMO = Path(__file__).resolve().parent.parent / "data" / "demo.jsonl"


def _demo(match_id: str) -> Record:
    with open(DEMO, encoding="utf-8") as lines:
        return next(loads(line) for line in lines if f'"id":"{match_id}"' in line)


def _card_play(match_id: str, deal: int) -> list[tuple[object, ...]]:
    """The card-play findings of one deal of the demo: kind, trick, play, player, card, the better
    cards, the points and the explanation."""
    rec = _demo(match_id)
    return [
        (f.kind, f.trick, f.play, f.player, str(f.card), [str(c) for c in f.better], f.points, f.explanation)
        for f in analyse_record(rec)
        if f.deal == deal and f.trick is not None and f.category is Category.STRATEGY
    ]


# Each deal was read against its cards (hands and tricks): the trick a kept trump would have taken
# is one the opponents took, in which the player, with no trump left, led or discarded; a lead that
# only came to the player through the wasted trump's own trick is none (the partner would have led).
DEMO_WASTED_TRUMPS = {
    # the player led trick 8 with no trump left; the kept 10♠ (the top trump) takes it
    ("hoekske-2026-02-11-4", 8): [
        ("wasted_trump", 1, 4, "Jozef", "10S", ["7D", "QD", "9C", "10C"], 9.0,
         "Jozef trumped with 10♠ in trick 1, a trick Griet was certain to take with K♥, while a discard "
         "was possible (Q♦ 7♦ 10♣ 9♣). In trick 8 Jozef had no trump left and 10♠ would have taken it: "
         "9 points went to the opponents."),
    ],
    # the lead of trick 6 came from a later trick Frans took with a second trump, not from trick 3's
    ("hoekske-2026-05-15-1", 12): [
        ("wasted_trump", 3, 4, "Frans", "10C", ["9D", "JD", "7S", "8S"], 8.0,
         "Frans trumped with 10♣ in trick 3, a trick Hendrik was certain to take with 7♣, while a discard "
         "was possible (J♦ 9♦ 8♠ 7♠). In trick 6 Frans had no trump left and 10♣ would have taken it: "
         "8 points went to the opponents."),
    ],
    # Carla, void in hearts and out of trumps, discards 10♣ on Dirk's A♥ in trick 8
    ("sport-2026-04-10-4", 5): [
        ("wasted_trump", 6, 4, "Carla", "AD", ["10C"], 15.0,
         "Carla trumped with A♦ in trick 6, a trick Jozef was certain to take with A♠, while a discard "
         "was possible (10♣). In trick 8 Carla had no trump left and A♦ would have taken it: 15 points "
         "went to the opponents."),
    ],
    ("hoekske-2026-01-30-2", 3): [
        ("wasted_trump", 3, 4, "Hendrik", "10C", ["7S", "JS", "KS"], 8.0,
         "Hendrik trumped with 10♣ in trick 3, a trick Carla was certain to take with 10♦, while a "
         "discard was possible (K♠ J♠ 7♠). In trick 7 Hendrik had no trump left and 10♣ would have taken "
         "it: 8 points went to the opponents."),
    ],
    ("zwaan-2026-01-24-1", 16): [
        ("wasted_trump", 5, 4, "Carla", "10H", ["AD", "7S", "QS"], 4.0,
         "Carla trumped with 10♥ in trick 5, a trick Jozef was certain to take with K♣, while a discard "
         "was possible (A♦ Q♠ 7♠). In trick 8 Carla had no trump left and 10♥ would have taken it: "
         "4 points went to the opponents."),
    ],
    # Carla leads trumps (7♥) in trick 7 and Griet takes it with A♥: the kept 10♥ follows and takes it
    ("hoekske-2026-03-16-2", 7): [
        ("wasted_trump", 5, 4, "Anna", "10H", ["QC", "KC", "JS"], 6.0,
         "Anna trumped with 10♥ in trick 5, a trick Hendrik was certain to take with 10♦, while a discard "
         "was possible (K♣ Q♣ J♠). In trick 7 Anna had no trump left and 10♥ would have taken it: "
         "6 points went to the opponents."),
    ],
    # Hendrik ruffed Bert's K♠ lead with 7♦ and Ilse, last and void in spades, overtrumped him
    ("zwaan-2026-01-09-4", 1): [
        ("wasted_trump", 3, 4, "Ilse", "10D", ["8H", "9H"], 0.0,
         "Ilse trumped with 10♦ in trick 3, a trick Hendrik was certain to take with 7♦, while a discard "
         "was possible (9♥ 8♥). It cost nothing this time."),
    ],
    # Jozef led trick 7 only because the wasted 10♣ and his next trumps kept taking the tricks; in
    # trick 8 Bert leads trumps (A♣) and Jozef, last, would have followed with the 10♣ kept
    ("hoekske-2026-02-13-1", 1): [
        ("wasted_trump", 5, 4, "Jozef", "10C", ["8H", "10H", "AD"], 13.0,
         "Jozef trumped with 10♣ in trick 5, a trick Griet was certain to take with Q♠, while a discard "
         "was possible (10♥ 8♥ A♦). In trick 8 Jozef had no trump left and 10♣ would have taken it: "
         "13 points went to the opponents."),
    ],
    # Bert still held J♦ when Griet led diamonds in trick 5: he had to follow, a kept trump changes nothing
    ("zwaan-2026-01-18-2", 9): [
        ("wasted_trump", 3, 4, "Bert", "10S", ["JD", "7C"], 0.0,
         "Bert trumped with 10♠ in trick 3, a trick Dirk was certain to take with J♠, while a discard "
         "was possible (J♦ 7♣). It cost nothing this time."),
    ],
    # the lead of trick 7 came to Frans through the wasted 10♦'s trick and the next he took
    ("zwaan-2026-01-09-5", 5): [
        ("wasted_trump", 5, 4, "Frans", "10D", ["8C"], 0.0,
         "Frans trumped with 10♦ in trick 5, a trick Ilse was certain to take with 9♦, while a discard "
         "was possible (8♣). It cost nothing this time."),
    ],
    # Carla led trick 7 only because the wasted A♥ took trick 6; trick 7 is not the last. In trick 8
    # Hendrik leads trumps (7♥), Frans takes it with 9♥: the A♥ kept, played last, beats both
    ("zwaan-2026-01-21-1", 14): [
        ("wasted_trump", 6, 4, "Carla", "AH", ["9D", "AD"], 2.0,
         "Carla trumped with A♥ in trick 6, a trick Els was certain to take with 10♠, while a discard "
         "was possible (A♦ 9♦). In trick 8 Carla had no trump left and A♥ would have taken it: 2 points "
         "went to the opponents."),
    ],
    # clubs trumps: Jozef discards on Carla's certain J♠ in trick 6, which Dirk ruffs after him (no
    # trick for the kept 10♣: it was the partner's to take); in trick 7 Dirk leads trumps (J♣)
    ("sport-2026-04-10-4", 8): [
        ("wasted_trump", 3, 4, "Jozef", "10C", ["9H", "KH", "7D", "QD", "KD"], 2.0,
         "Jozef trumped with 10♣ in trick 3, a trick Carla was certain to take with K♠, while a discard "
         "was possible (K♥ 9♥ K♦ Q♦ 7♦). In trick 7 Jozef had no trump left and 10♣ would have taken it: "
         "2 points went to the opponents."),
    ],
    ("sport-2026-01-13-2", 8): [
        ("wasted_trump", 5, 4, "Jozef", "7D", ["9H", "QH"], 0.0,
         "Jozef trumped with 7♦ in trick 5, a trick Dirk was certain to take with A♣, while a discard "
         "was possible (Q♥ 9♥). It cost nothing this time."),
    ],
    ("zwaan-2026-01-21-3", 1): [
        ("wasted_trump", 1, 4, "Hendrik", "10D", ["8H", "9H", "JH", "9C", "AC"], 0.0,
         "Hendrik trumped with 10♦ in trick 1, a trick Carla was certain to take with 10♠, while a discard "
         "was possible (J♥ 9♥ 8♥ A♣ 9♣). It cost nothing this time."),
        ("missed_vetten", 7, 3, "Hendrik", "8H", ["JH"], 1.0,
         "Hendrik played 8♥ on Carla's winning 8♦ in trick 7 while holding J♥: smearing it (vetten) would "
         "have brought 1 more point. Carla was certain to take the trick, and J♥ went to the opponents in "
         "trick 8."),
    ],
}  # fmt: skip


@pytest.mark.parametrize(("match_id", "deal"), list(DEMO_WASTED_TRUMPS))
def test_the_demos_wasted_trumps_name_the_trick_the_trump_would_have_taken(match_id: str, deal: int) -> None:
    """docs/findings.md: a wasted trump costs the points of the later trick the opponents took that
    the kept trump would have bought, or nothing when no trick shows it."""
    assert _card_play(match_id, deal) == DEMO_WASTED_TRUMPS[match_id, deal]


# --------------------------------------------------------------------------- wasted_trump: what it cost

# ONE_TRUMP, but Anna holds A♣ and Carla 7♦: after trick 1 Carla has no club and holds Q♦ J♦.
OVERBOUGHT = [
    "AH 10H 8C KC QC 9C AC KD",  # Anna
    "KH 9D KS QS JS 9S 8S 7S",  # Bert
    "9H 8H 7H 7C 7D QD JD 8D",  # Carla
    "JH QH 10C JC 10S AS 10D AD",  # Dirk
]
# The same, but Carla keeps a club (9♣) and Anna the 7♦: Carla must follow clubs in trick 3.
FOLLOWED = [
    "AH 10H 8C KC QC 7D AC KD",  # Anna
    "KH 9D KS QS JS 9S 8S 7S",  # Bert
    "9H 8H 7H 7C 9C QD JD 8D",  # Carla
    "JH QH 10C JC 10S AS 10D AD",  # Dirk
]


def test_a_wasted_trump_costs_nothing_where_an_opponent_after_the_player_would_have_overbought_it() -> None:
    """Trick 3: Anna leads A♣, Bert (no club, no trump left) discards. Had Bert kept his 9♦ and
    trumped, Carla, after him and out of clubs, holds Q♦ and J♦ and would have overbought it: the
    trick proves nothing. When Carla must follow clubs, the kept 9♦ takes the trick (A♣ and J♣)."""
    tricks = ["7C 10C 8C 9D", "KH 7H QH AH"]
    overbought = _only(record(OVERBOUGHT, [*tricks, "AC 8S 8H JC"]), "wasted_trump")
    assert (overbought.points, overbought.severity) == (0.0, Severity.INFO)
    assert overbought.explanation.endswith("It cost nothing this time.")
    followed = _only(record(FOLLOWED, [*tricks, "AC 8S 9C JC"]), "wasted_trump")
    assert (followed.points, followed.severity) == (5.0, Severity.BLUNDER)
    assert followed.explanation.endswith(
        "In trick 3 Bert had no trump left and 9♦ would have taken it: 5 points went to the opponents."
    )


# Bert's only trump is 9♦; Carla leads trumps in trick 3 with the 8♦ and Anna follows with the 7♦.
TRUMP_LED_LATER = [
    "7D 8H JH 10H 8C QC KC AC",  # Anna
    "9D KH QH JS 7S 8S 9S KS",  # Bert
    "7C AH 8D JD QD KD AD 10D",  # Carla
    "10C 7H 9H QS 9C JC AS 10S",  # Dirk
]
# The same, but Anna leads trick 3 with the 8♦, and Carla, after Bert, holds the higher trumps.
TRUMP_LED_OVERTAKEN = [
    "8D 8H JH 10H 8C QC KC AC",  # Anna
    "9D KH QH JS 7S 8S 9S KS",  # Bert
    "7C AH 7D JD QD KD AD 10D",  # Carla
    "10C 7H 9H QS 9C JC AS 10S",  # Dirk
]


def test_a_wasted_trump_would_have_taken_a_later_trick_led_in_trumps() -> None:
    """docs/findings.md: Bert, out of trumps, discards J♠ on Carla's trump lead 8♦ in trick 3 (Dirk
    discards Q♠, Anna follows with 7♦): the 9♦ kept, which he would have had to play there, beats
    both trumps, and Bert plays last: 3 points. When Anna leads the 8♦ and Carla, after Bert, holds
    J♦ and higher, she would have overtaken the kept 9♦: the trick proves nothing."""
    tricks = ["7C 10C 8C 9D"]
    led = _only(record(TRUMP_LED_LATER, [*tricks, "KH AH 7H 8H", "8D QS 7D JS"]), "wasted_trump")
    assert (led.trick, led.points, led.severity) == (1, 3.0, Severity.MISTAKE)
    assert led.explanation.endswith(
        "In trick 3 Bert had no trump left and 9♦ would have taken it: 3 points went to the opponents."
    )
    assert led.explanation_nl.endswith(
        "In slag 3 had Bert geen troef meer en had de koeken negen de slag genomen: 3 punten gingen naar de "
        "tegenstanders."
    )
    overtaken = _only(record(TRUMP_LED_OVERTAKEN, [*tricks, "KH AH 7H 10H", "8D JS 7D QS"]), "wasted_trump")
    assert (overtaken.points, overtaken.severity) == (0.0, Severity.INFO)
    assert overtaken.explanation.endswith("It cost nothing this time.")


def test_a_wasted_trump_under_klop_costs_the_later_trick_doubled() -> None:
    finding = _only(record(ONE_TRUMP, WASTED, calls=[(0, "klop")]), "wasted_trump")
    assert (finding.points, finding.severity) == (16.0, Severity.BLUNDER)
    assert finding.explanation.endswith("9♦ would have taken it: 16 points went to the opponents.")
    assert finding.explanation_nl.endswith("de slag genomen: 16 punten gingen naar de tegenstanders.")


def test_a_wasted_trump_with_the_solvers_view_keeps_the_discards_worth_half_a_card_point_best_first() -> None:
    """docs/findings.md: with the solver's costs a discard must be worth at least half a card point
    more from the player's view; ``better`` lists them best first, and the points are the best one's
    gain (to two decimals) times the deal's multiplier."""
    rec = record(ONE_TRUMP, WASTED, calls=[(0, "klop")])
    legal = ["KH", "9D", "KS", "QS", "JS", "9S", "8S", "7S"]
    views = {**dict.fromkeys(legal, 30.0), "8S": 31.234, "7S": 30.5}
    finding = _only(rec, "wasted_trump", {1: [view_cost_at(1, 4, 1, "9D", views)]})
    assert finding.better == (Card.S8, Card.S7)
    # judged on the solver's scale (1.2 card points: info), not on the scoresheet's 2.47
    assert (finding.points, finding.severity) == (2.47, Severity.INFO)
    assert "(8♠ 7♠). From what Bert could see, discarding 8♠ was worth 1.2 card points" in finding.explanation


# Bert's only trump is 9♦; Dirk holds no trump and no club but the 10♣; Carla keeps K♣ Q♣ J♣.
ONE_POINT = [
    "AH 8C 9C AC 10D AD KD 7D",  # Anna
    "KH 9D KS QS JS 9S 8S 7S",  # Bert
    "7H 7C JC QC KC QD JD 8D",  # Carla
    "10H QH JH 9H 8H 10C 10S AS",  # Dirk
]


def test_a_wasted_trump_that_cost_one_point_says_it_in_the_singular() -> None:
    """Trick 3: Anna leads 9♣, Bert (no club, no trump left) discards, Carla takes it with J♣: the
    kept 9♦ would have bought that trick, 1 point ("1 punt ging"). With Q♣ under klop: 2 card points
    doubled, 4 points ("4 punten gingen")."""
    tricks = ["7C 10C 8C 9D", "KH 7H QH AH"]
    one = _only(record(ONE_POINT, [*tricks, "9C 8S JC 8H"]), "wasted_trump")
    assert (one.points, one.severity) == (1.0, Severity.INACCURACY)
    assert one.explanation.endswith("9♦ would have taken it: 1 point went to the opponents.")
    assert one.explanation_nl.endswith("de slag genomen: 1 punt ging naar de tegenstanders.")
    doubled = _only(record(ONE_POINT, [*tricks, "9C 8S QC 8H"], calls=[(0, "klop")]), "wasted_trump")
    assert (doubled.points, doubled.severity) == (4.0, Severity.MISTAKE)
    assert doubled.explanation_nl.endswith("de slag genomen: 4 punten gingen naar de tegenstanders.")


# ------------------------------------------------------------- points_thrown: the kept card's chance

# docs/findings.md: a master point card thrown to the opponents is flagged only when a later trick
# shows that keeping it would have paid: a trick the player led, a trick of its suit the partner led
# and no trump took (any such trick for a trump), or a trick the team took on which the player
# discarded; the search stops where the player really gave the cheaper card.
DEMO_THROWN = {
    # spades trumps: Els throws the master 10♥ onto Hendrik's trump lead in trick 7; in trick 8 Carla
    # takes Hendrik's club lead while Els, out of clubs, discards J♦: the 10♥ could have gone there
    ("zwaan-2026-01-21-1", 6): [
        ("points_thrown", 7, 2, "Els", "10H", ["JD"], 4.0),
    ],
    # the master K♠ (trumps) would have taken trick 8, which Ilse led in trumps for the team
    ("zwaan-2026-07-02-5", 23): [
        ("missed_vetten", 5, 4, "Jozef", "8C", ["KC"], 3.0),
        ("points_thrown", 6, 4, "Els", "KS", ["JS"], 2.0),
    ],
    ("zwaan-2026-01-21-3", 10): [
        ("missed_vetten", 5, 3, "Els", "7D", ["QH"], 4.0),
    ],
    # the better card is the cheapest that does the job (Q♠, not K♦)
    ("hoekske-2026-04-18-1", 14): [
        ("points_thrown", 5, 4, "Jozef", "AD", ["QS"], 2.0),
    ],
    # Bert's A♦ thrown with only A♣ beside it: a card of the same points is no cheaper card
    ("zwaan-2026-01-09-5", 13): [],
    # a point card thrown where no later trick gives the kept card a chance: nothing is said
    ("zwaan-2026-02-02-2", 3): [],
    ("sport-2026-01-13-1", 2): [],
    ("zwaan-2026-01-09-1", 10): [],
    ("zwaan-2026-01-09-3", 21): [],
}  # fmt: skip


@pytest.mark.parametrize(("match_id", "deal"), list(DEMO_THROWN))
def test_the_demos_thrown_points_are_flagged_only_with_a_later_chance_for_the_kept_card(
    match_id: str, deal: int
) -> None:
    assert [found[:7] for found in _card_play(match_id, deal)] == DEMO_THROWN[match_id, deal]


def test_a_card_kept_for_the_partners_lead_of_its_suit_counts_only_without_a_trump_in_that_trick() -> None:
    """A random match (``tests/factories.py``, seed 90), deal 5, hearts trumps: Bert leads Q♥ in
    trick 4, and Carla and Anna, out of trumps, throw their master 10♣ and K♣ onto it. Carla leads
    7♣ in trick 6 (the 10♣ led instead takes it); Anna follows with J♣ on Carla's club lead, a trick
    no trump took (K♣ kept would have taken it): both cards had a later chance."""
    rec = random_record(90, deals=6)
    found = [
        (f.kind, f.trick, f.player, str(f.card), [str(c) for c in f.better], f.points)
        for f in analyse_record(rec)
        if f.deal == 5 and f.kind == "points_thrown"
    ]
    assert found == [
        ("points_thrown", 4, "Carla", "10C", ["7C"], 5.0),
        ("points_thrown", 4, "Anna", "KC", ["9C"], 3.0),
    ]


DEMO_SPENT_TRUMPS = {
    # Carla's A♦ takes trick 3, but Hendrik, after her, held K♦ and Q♦: her 7♦ would not have held it;
    # in trick 1, last to play, she overtook her partner Els's J♦ with the master 10♦ (cost nothing)
    ("zwaan-2026-01-21-4", 8): [
        ("master_trump_smeared", 1, 4, "Carla", "10D", ["7D"], 0.0),
    ],
    # clubs trumps: Hendrik puts A♣ on Frans's trump lead 10♣; his 8♣ falls to the opponents in trick 8
    ("zwaan-2026-01-09-3", 19): [
        ("master_trump_smeared", 7, 4, "Hendrik", "AC", ["8C"], 3.0),
    ],
}  # fmt: skip


@pytest.mark.parametrize(("match_id", "deal"), list(DEMO_SPENT_TRUMPS))
def test_the_demos_spent_trumps_only_where_the_lower_trump_did_the_job_for_certain(
    match_id: str, deal: int
) -> None:
    assert [found[:7] for found in _card_play(match_id, deal)] == DEMO_SPENT_TRUMPS[match_id, deal]


# --------------------------------------------------------------------------- the solver's view of a play


def test_a_play_whose_costs_lack_a_candidate_card_is_judged_by_the_cards_alone() -> None:
    """The solver's values of Bert's play miss the K♥ (a cost row from an older run, say): the
    view cannot compare it, so the smear is judged as without costs, at K♥'s 3 points."""
    partial = view_cost_at(1, 4, 1, "7S", {"7S": 20.0, "8S": 20.0, "9S": 19.0})
    finding = _only(record(BASE, VETTEN), "missed_vetten", {1: [partial]})
    assert (finding.points, finding.severity) == (3.0, Severity.MISTAKE)
    assert "on average over the ways" not in finding.explanation


def test_a_smear_worth_no_more_from_the_players_view_at_zero_card_points_is_not_flagged() -> None:
    """Every card worth 0 card points from Bert's view (his team takes nothing more whatever he
    plays): keeping K♥ back was no mistake he could see."""
    nothing = view_cost_at(1, 4, 1, "7S", {"7S": 0.0, "KH": 0.0, "8S": 0.0, "9S": 0.0})
    rec = record(BASE, VETTEN)
    assert of_kind(analyse(replay(rec), rec, costs={1: [nothing]}), "missed_vetten") == []


# ------------------------------------------------------------------ trump_overspent: two lower trumps

# MANILLE_LAST, but Bert holds 8♦ beside 7♦ (Anna the K♠): two lower trumps would have taken trick 1.
TWO_LOWER = [
    "AC KC QC JC AH KH KS 9D",  # Anna
    "10D 8D 7D QS JS 9S 8S 7S",  # Bert
    "7C AD KD QH JH 9H 8H 7H",  # Carla
    "8C 9C 10C QD JD 10H 10S AS",  # Dirk
]


def test_trump_overspent_counts_the_costliest_trick_a_lower_trump_fell_in() -> None:
    """Bert spends 10♦ last to play on Anna's A♣. His 8♦ falls to Carla's K♦ in trick 2 (4 points),
    his 7♦ to her A♦ in trick 3 (9 points): the 10♦ in the 7♦'s place would have taken trick 3, the
    costlier one, and that is what the finding counts."""
    rec = record(TWO_LOWER, ["7C 8C AC 10D", "8D KD JD 9D", "AD QD KS 7D"])
    finding = _only(rec, "trump_overspent")
    assert (finding.better, finding.points, finding.severity) == ((Card.D7, Card.D8), 9.0, Severity.BLUNDER)
    assert finding.explanation.endswith(
        "while 7♦ or 8♦ would have taken it for certain: no trump out could beat 10♦: kept back, it would "
        "have won a later trick for certain. In trick 3, 7♦ fell to the opponents; 10♦ in its place would "
        "have taken that trick: "
        "9 points went to the opponents."
    )


def test_trump_overspent_under_klop_costs_the_later_trick_doubled() -> None:
    finding = _only(
        record(MANILLE_LAST, ["7C 8C AC 10D", "7D KD JD 8D"], calls=[(0, "klop")]), "trump_overspent"
    )
    assert (finding.points, finding.severity) == (8.0, Severity.BLUNDER)
    assert finding.explanation_nl.endswith("die slag genomen: 8 punten gingen naar de tegenstanders.")


def test_trump_overspent_with_the_solvers_view_lists_the_lower_trumps_best_first() -> None:
    """With the solver's costs a lower trump must be worth at least half a card point more (the 7♦
    exactly that); the better trumps are listed best first, and the points are the best one's gain
    to two decimals, doubled by the klop, on the solver's scale an info (1.2 card points)."""
    rec = record(TWO_LOWER, ["7C 8C AC 10D"], calls=[(0, "klop")])
    views = {
        "10D": 20.0,
        "8D": 21.234,
        "7D": 20.5,
        "QS": 20.0,
        "JS": 20.0,
        "9S": 20.0,
        "8S": 20.0,
        "7S": 20.0,
    }
    finding = _only(rec, "trump_overspent", {1: [view_cost_at(1, 4, 1, "10D", views)]})
    assert finding.better == (Card.D8, Card.D7)
    assert (finding.points, finding.severity) == (2.47, Severity.INFO)
    assert finding.explanation.endswith(
        "while 8♦ or 7♦ would have taken it for certain: no trump out could beat 10♦: kept back, it would "
        "have won a later trick for certain. From what Bert could see, playing 8♦ was worth 1.2 card points "
        "more on average over the ways the other cards could lie."
    )


# MANILLE_LAST, but Dirk holds no trump and Anna J♦ K♦: Bert's 7♦ falls in a trick of 1 point.
ONE_POINT_TRUMP = [
    "AC KC QC JC AH KH JD KD",  # Anna
    "10D 7D KS QS JS 9S 8S 7S",  # Bert
    "7C AD 9D QD 8D QH JH 9H",  # Carla
    "8C 9C 10C 8H 7H 10H 10S AS",  # Dirk
]


def test_a_spent_trump_that_cost_one_point_says_it_in_the_singular() -> None:
    """Trick 2: Bert leads 7♦, Carla 9♦, Dirk (no trump) 7♥, Anna J♦: 1 point, which the 10♦ kept
    would have taken ("1 punt ging")."""
    finding = _only(record(ONE_POINT_TRUMP, ["7C 8C AC 10D", "7D 9D 7H JD"]), "trump_overspent")
    assert (finding.points, finding.severity) == (1.0, Severity.INACCURACY)
    assert finding.explanation.endswith("would have taken that trick: 1 point went to the opponents.")
    assert finding.explanation_nl.endswith("die slag genomen: 1 punt ging naar de tegenstanders.")


DEMO_SMEARS = {
    # Carla's A♣ on Frans's 8♣ in trick 5 was her own trick in the end: no unsafe smear
    ("zwaan-2026-01-21-2", 8): [
        ("bare_ace_lost", 4, 3, "Carla", "9S", ["AD"], 8.0),
        ("points_thrown", 6, 2, "Els", "AS", ["8D"], 8.0),
        ("points_thrown", 6, 4, "Hendrik", "JH", ["7D"], 2.0),
    ],
    # Hendrik's A♥ on Anna's 9♣ in trick 6 while he could ruff: whether to ruff is the question there
    ("zwaan-2026-07-30-1", 4): [],
    # the K♥ just above the Q♥ played is a card to smear as any other
    ("zwaan-2026-01-09-3", 18): [
        ("missed_vetten", 3, 4, "Hendrik", "QH", ["KH"], 1.0),
    ],
    # trick 4: Hendrik keeps A♣ back (the top club: a judgement call, not flagged), and Q♣ is
    # weighed all the same
    ("zwaan-2026-01-09-1", 2): [
        ("missed_vetten", 4, 4, "Hendrik", "7C", ["QC"], 2.0),
    ],
}  # fmt: skip


@pytest.mark.parametrize(("match_id", "deal"), list(DEMO_SMEARS))
def test_the_demos_smears_are_judged_on_every_card_of_the_hand(match_id: str, deal: int) -> None:
    assert [found[:7] for found in _card_play(match_id, deal)] == DEMO_SMEARS[match_id, deal]


def test_missed_vetten_with_several_cards_to_smear_names_the_best_and_lists_them_best_first() -> None:
    """zwaan-2026-02-02-3, deal 3, trick 3: Carla plays 7♣ on Frans's certain 10♠ holding K♦, Q♦ and
    J♣, all lost later. By the cards the K♦ (3 points) is the card to smear; with the solver's view
    the one worth most from where Carla sat (K♦ here, 1.234 card points, to two decimals), the
    others listed after it best first, the Q♦ (exactly half a card point) among them."""
    rec = _demo("zwaan-2026-02-02-3")
    assert _card_play("zwaan-2026-02-02-3", 3) == [
        ("missed_vetten", 3, 4, "Carla", "7C", ["KD", "QD", "JC"], 3.0,
         "Carla played 7♣ on Frans's winning 10♠ in trick 3 while holding K♦: smearing it (vetten) would "
         "have brought 3 more points. Frans was certain to take the trick, and K♦ went to the opponents "
         "in trick 4."),
    ]  # fmt: skip
    view = view_cost_at(3, 4, 1, "7C", {"7C": 10.0, "QD": 10.5, "KD": 11.234, "JC": 10.6})
    (finding,) = [
        f for f in of_kind(analyse(replay(rec), rec, costs={3: [view]}), "missed_vetten") if f.deal == 3
    ]
    assert (finding.better, finding.points, finding.severity) == (
        (Card.DK, Card.CJ, Card.DQ),
        1.23,
        Severity.INFO,
    )
    assert finding.explanation.endswith(
        "smearing K♦ was worth 1.2 card points more on average over the ways the other cards could lie."
    )


def test_a_wasted_trump_looks_past_a_trick_a_higher_trump_took() -> None:
    """A random match (seed 234), deal 6, hearts trumps: Carla ruffs Anna's certain Q♣ with 7♥ in
    trick 3. In trick 7 Dirk's 8♥ takes a trick she discarded on: 7♥ kept would not have beaten it.
    In trick 8, out of clubs and trumps, she discards on Dirk's 10♣: the 7♥ would have taken those
    10 points."""
    rec = random_record(234, deals=6)
    (finding,) = [f for f in of_kind(analyse_record(rec), "wasted_trump") if f.deal == 6]
    assert (finding.trick, finding.player, finding.card, finding.points) == (3, "Carla", Card.H7, 10.0)
    assert finding.explanation.endswith(
        "In trick 8 Carla had no trump left and 7♥ would have taken it: 10 points went to the opponents."
    )


def test_points_thrown_with_the_solvers_view_names_the_card_worth_most_from_the_players_view() -> None:
    """Dirk throws the master 10♣ in a muil (counted double) holding J♠, Q♠, K♣, K♠, A♣, A♠, all
    cheaper. With the solver's costs the card to give is the one worth most from Dirk's view, the
    lower card of two worth alike (Q♠ before K♠), and the points are its gain, doubled; a card worth
    exactly half a card point more (J♠) is enough for the finding to stand."""
    rec = record(THROWN, ["10D 7D JD 10C", "7C 9C 7S AC", "KC 8C QC 8S"], dealer=3, trump=None)
    cheaper = {"KC": 20.2, "AC": 20.2, "AS": 20.2}
    views = {"10C": 20.0, **cheaper, "QS": 21.234, "KS": 21.234, "JS": 20.5}
    finding = _only(rec, "points_thrown", {1: [view_cost_at(1, 4, 3, "10C", views)]})
    assert (finding.better, finding.points, finding.severity) == ((Card.SQ,), 2.47, Severity.INFO)
    assert finding.explanation.startswith("Dirk threw 10♣ onto Anna's 10♦ in trick 1")
    # the 10's own points are not said as its cost beside the average over the layouts (a coach
    # read "would have saved 4 card points" before "cost 9.9 card points on average")
    assert "no card left could take 10♣ (a master), so it was worth keeping." in finding.explanation
    assert "dus was de manille beter gehouden." in finding.explanation_nl
    assert "saved" not in finding.explanation and "gespaard" not in finding.explanation_nl
    assert finding.explanation_nl.startswith("Dirk gooide de klaveren manille op de koeken manille van Anna")
    assert finding.explanation.endswith(
        "From what Dirk could see, giving Q♠ was worth 1.2 card points more on average over the ways the "
        "other cards could lie."
    )
    assert finding.explanation_nl.endswith(
        "Met wat Dirk kon weten, was het geven van de schoppen vrouw gemiddeld 1,2 kaartpunten meer waard, "
        "over alle mogelijke verdelingen van de andere kaarten."
    )
    only_half = {"10C": 20.0, **cheaper, "QS": 20.2, "KS": 20.2, "JS": 20.5}
    finding = _only(rec, "points_thrown", {1: [view_cost_at(1, 4, 3, "10C", only_half)]})
    assert (finding.better, finding.points) == ((Card.SJ,), 1.0)
    nothing = {"10C": 20.0, **cheaper, "QS": 20.2, "KS": 20.2, "JS": 20.2}
    found = analyse(replay(rec), rec, costs={1: [view_cost_at(1, 4, 3, "10C", nothing)]})
    assert of_kind(found, "points_thrown") == []


# --------------------------------------------------------------------------- rule and scoresheet detectors

# Diamonds trumps, Carla leads: Dirk holds 7♥ J♥ Q♥ under her hearts, Anna 9♥ and 10♥.
FOLLOWERS = [
    "10H 9H 8C KC QC JC 9C 7D",  # Anna
    "KH 7S 8S 9S 10D AD KD QD",  # Bert
    "8H AH 7C AC 10C JD 9D 8D",  # Carla
    "7H JH QH 10S AS KS QS JS",  # Dirk
]


def test_a_revoke_with_two_legal_cards_names_them_in_the_plural() -> None:
    """Dirk plays J♠ on Carla's 8♥ holding three hearts, of which J♥ and Q♥ would overtake her."""
    assert _read(_only(record(FOLLOWERS, ["8H JS 9H KH"]), "revoke")) == (
        "revoke", 1, 1, 2, "Dirk", "JS", ["JH", "QH"], 30.0, Severity.BLUNDER,
        "Dirk played J♠ in trick 1 while still holding hearts: that is a revoke (verzaken). Legal were: "
        "Q♥ J♥.",
        "Dirk speelde de schoppen boer in slag 1 met nog harten in de hand: dat is verzaken. Toegelaten "
        "waren: harten vrouw en boer.",
    )  # fmt: skip


def test_failing_to_overtake_with_two_cards_that_could_says_they_could_in_the_plural() -> None:
    assert _read(_only(record(FOLLOWERS, ["8H 7H 9H KH"]), "failed_to_overtake")) == (
        "failed_to_overtake", 1, 1, 2, "Dirk", "7H", ["JH", "QH"], 30.0, Severity.BLUNDER,
        "Dirk followed with 7♥ under Carla's winning 8♥ in trick 1 while able to beat it with Q♥ J♥: an "
        "opponent was winning, so overtaking was required.",
        "Dirk volgde met de harten zeven onder de winnende harten acht van Carla in slag 1, terwijl de "
        "harten vrouw en boer erover konden: een tegenstander won, dus was overnemen verplicht.",
    )  # fmt: skip


def test_failing_to_overtake_the_partner_names_the_house_rule_that_requires_it() -> None:
    """With ``partner_exempt`` off Anna must take Carla's A♥ with her 10♥; with it on (the default)
    her 9♥ is legal and nothing is said."""
    tricks = ["AH 7H 9H KH"]
    strict = called(record(FOLLOWERS, tricks), [(1, "trump", "D")], partner_exempt=False)
    finding = _only(strict, "failed_to_overtake")
    assert (finding.player, str(finding.card), [str(c) for c in finding.better]) == ("Anna", "9H", ["10H"])
    assert finding.explanation == (
        "Anna followed with 9♥ under Carla's winning A♥ in trick 1 while able to beat it with 10♥: the house "
        "rules make you take the trick even from your partner, so overtaking was required."
    )
    assert finding.explanation_nl == (
        "Anna volgde met de harten negen onder de winnende harten aas van Carla in slag 1, terwijl de "
        "harten manille erover kon: de huisregels vragen de slag zelfs van uw partner over te nemen, dus "
        "was overnemen verplicht."
    )
    assert analyse_record(record(FOLLOWERS, tricks)) == []


# The three-player game: Anna deals and plays alone against Bert and Carla.
THREE_PLAYERS = {
    "format": "manillen/1",
    "match": {"id": "three", "variant": "three", "seats": ["Anna", "Bert", "Carla"]},
    "deals": [
        {
            "dealer": 0,
            "hands": [
                "7S QS 10S JC 10H AH KH QD KD AD".split(),
                "8S 8C QC 7H 8H 9H JH QH 7D 8D".split(),
                "9S 7C 9C KC AC 10C JS KS AS 9D".split(),
            ],
            "discards": ["JD", "10D"],
            "declarations": [{"seat": 0, "call": "trump", "suit": "H"}],
            "tricks": [["8S", "9S", "7S"], ["7C", "JC", "8C"]],
        }
    ],
}


def test_in_the_three_player_game_the_dealer_and_the_others_are_opponents() -> None:
    """Anna, the dealer, plays 7♠ under Carla's 9♠ holding Q♠ and 10♠; Bert plays 8♣ under Anna's J♣
    holding Q♣: both failed to overtake an opponent (the sides are the dealer's and the others')."""
    found = analyse_record(loads(json.dumps(THREE_PLAYERS)))
    assert [(f.kind, f.trick, f.player, str(f.card)) for f in found] == [
        ("failed_to_overtake", 1, "Anna", "7S"),
        ("failed_to_overtake", 2, "Bert", "8C"),
    ]
    assert [f.explanation for f in found] == [
        "Anna followed with 7♠ under Carla's winning 9♠ in trick 1 while able to beat it with 10♠ Q♠: an "
        "opponent was winning, so overtaking was required.",
        "Bert followed with 8♣ under Anna's winning J♣ in trick 2 while able to beat it with Q♣: an "
        "opponent was winning, so overtaking was required.",
    ]
    assert [f.explanation_nl.split(": ")[1] for f in found] == [
        "een tegenstander won, dus was overnemen verplicht."
    ] * 2


def test_a_scoresheet_that_wrote_30_30_for_a_won_deal_says_so_in_both_languages() -> None:
    """docs/findings.md, score_mismatch: the sheet says nobody scored, the cards say the deal was won."""
    hands = hands_with(0)
    tricks = play_out(hands, 1, "D")
    won = replay(record(hands, tricks)).deals[0].score
    assert won is not None and won.team == 0
    finding = _only(record(hands, tricks, recorded=None), "score_mismatch")
    assert (finding.points, finding.severity) == (float(won.points), Severity.BLUNDER)
    assert finding.explanation == (
        f"Deal 1: the scoresheet says 30-30, nobody scores, the cards say {won.points} for Anna & Carla "
        f"({won.points} points apart)."
    )
    assert finding.explanation_nl == (
        f"Spel 1: op het scoreblad staat 30-30, niemand scoort, de kaarten zeggen {won.points} voor Anna & "
        f"Carla ({won.points} punten verschil)."
    )
    # written for the other team: the difference counts both sides
    other = _only(record(hands, tricks, recorded=RecordedScore(team=1, points=won.points)), "score_mismatch")
    assert other.points == 2 * won.points


# --------------------------------------------------------------------------- call detectors: one point

# Three deals won 31 to 29 (diamonds trumps, Bert deals): the winners score 1 point, doubled 2.
KLOP_BY_ONE = (
    [
        "7D 8C 8D KD 9D 8H JC 10D",  # Anna: five trumps
        "7C 9S 8S KC 10C AD JH QS",
        "7S 7H 9C AC 9H QD KS AS",
        "KH JS QH JD 10H AH 10S QC",
    ],
    ["9C QC JC 7C", "JD KD AD QD", "9S KS 10S 7D", "8C 10C AC 10H", "KC 7H KH 10D", "8D JH 7S AH",
     "8H 8S 9H QH", "JS 9D QS AS"],
)  # fmt: skip
MUIL_BY_ONE = (
    [
        "7H KH 9H KC 9S QH 8S QS",
        "10C JH 10H QD 10S AH JC 10D",  # Bert, the dealer: four manilles
        "JD AD 7D 7S KD 8C AS AC",
        "9C JS 9D KS 8H 7C 8D QC",
    ],
    ["7D 8D 7H 10D", "10S 7S JS QS", "10H JD 8H QH", "KD 9D 9S QD", "AD 7C 8S JC", "8C QC KC 10C",
     "AH AC 9C 9H", "JH AS KS KH"],
)  # fmt: skip
KNOCK_BY_ONE = (
    [
        "7C QD 8D JC AH AS QC 10H",  # Anna knocks with two trumps
        "JS 8S 7S 8H 10D JD 10C 7D",
        "KH 8C 10S JH KD 9S QH AD",
        "9H 7H KS KC 9C 9D QS AC",
    ],
    ["KD 9D 8D 10D", "10C 8C KC JC", "8S 10S QS AS", "QH 9H AH 8H", "QC 7D AD 9C", "9S KS QD JS",
     "7C JD JH AC", "7S KH 7H 10H"],
)  # fmt: skip


def test_a_call_worth_a_single_point_is_still_a_finding() -> None:
    """docs/findings.md: a call's finding counts what it would have changed on the scoresheet, one
    point included (an inaccuracy): a klop missed, a muil missed and a knock lost by 31 to 29."""
    klop = _only(record(*KLOP_BY_ONE), "klop_missed")
    assert _read(klop)[4:] == (
        "Anna", "None", [], 1.0, Severity.INACCURACY,
        "Anna held 5 trumps (10♦ K♦ 9♦ 8♦ 7♦) and the team won deal 1 with 1 point without knocking: klop "
        "would have made it 2 (1 more).",
        "Anna had 5 troeven (koeken manille, heer, negen, acht en zeven) en de ploeg won spel 1 met 1 punt "
        "zonder te kloppen: met klop was dat 2 geworden (1 meer).",
    )  # fmt: skip
    muil = _only(record(*MUIL_BY_ONE), "muil_missed")
    assert (muil.player, muil.points, muil.severity) == ("Bert", 1.0, Severity.INACCURACY)
    assert muil.explanation == (
        "Bert dealt with 4 manilles (10♥ 10♦ 10♣ 10♠), made diamonds trump and won 1 point: muil would have "
        "counted double, 2 (1 more), had the cards fallen the same way."
    )
    knock = _only(record(*KNOCK_BY_ONE, calls=[(0, "klop")]), "klop_lost")
    assert (knock.player, knock.points, knock.severity) == ("Anna", 1.0, Severity.INACCURACY)
    assert knock.explanation == (
        "Anna knocked (klop) on deal 1 and lost it: the opponents scored 2 instead of 1 (1 more)."
    )
    assert knock.explanation_nl == (
        "Anna klopte in spel 1 en verloor: de tegenstanders scoorden 2 in plaats van 1 (1 meer)."
    )


def test_a_klop_missed_on_a_capot_is_scored_as_the_house_rules_score_a_capot() -> None:
    """Anna's team takes all 60 card points. A capot doubled (``capot: double``) scores 60, with klop
    120; a fixed capot (``capot: fixed_30``) scores 30 whatever was called: no klop was missed."""

    def klop_missed(capot: str) -> list[Finding]:
        rec = called(full_deal(strong_seat=0, dealer=1, trump="D"), [(1, "trump", "D")], capot=capot)
        return of_kind(analyse_record(rec), "klop_missed")

    (double,) = klop_missed("double")
    assert (double.points, double.severity) == (60.0, Severity.BLUNDER)
    assert double.explanation.endswith(
        "won deal 1 with 60 points without knocking: klop would have made it 120 (60 more)."
    )
    assert klop_missed("fixed_30") == []


def test_a_klop_missed_right_after_a_30_30_deal_counts_the_carried_doubling() -> None:
    """The sample's deal 1 ends 30-30, so deal 2 counts double: Anna's team wins it with 60 points
    holding five trumps, and klop would have made it 120, not 60."""
    thirty = json.loads((DEMO.parent / "samples" / "thirty-thirty.json").read_text(encoding="utf-8"))
    second = full_deal(strong_seat=0, dealer=1, trump="D").deals[0]
    thirty["deals"][1] = json.loads(msgspec.json.encode(second))
    finding = _only(loads(json.dumps(thirty)), "klop_missed")
    assert (finding.deal, finding.points, finding.severity) == (2, 60.0, Severity.BLUNDER)
    assert finding.explanation == (
        "Anna held 5 trumps (10♦ A♦ K♦ Q♦ J♦) and the team won deal 2 with 60 points without knocking: klop "
        "would have made it 120 (60 more)."
    )


# --------------------------------------------------------------------------- card play: who was where

# Diamonds trumps: Anna, Carla's partner, is out of clubs by trick 3 and keeps K♦ back.
HIGHER_TRUMP_BEFORE = [
    "8C KD 8H 9H 10H AS 10S JH",  # Anna
    "9D KH 7S 8S 9S JS QS KS",  # Bert: his only trump is 9♦
    "7C AH AC 9C QC KC QH 7D",  # Carla
    "10C JC 7H 8D JD QD AD 10D",  # Dirk
]


def test_a_wasted_trump_counts_a_trick_where_only_an_opponent_before_the_player_held_a_higher_trump() -> None:
    """Trick 3: Carla leads A♣, Dirk follows, Anna (out of clubs, K♦ held) discards on her partner's
    ace, Bert discards last. The kept 9♦ would have bought the trick: Anna, who played before Bert,
    could not have over-bought it (docs/findings.md: only an opponent after the player counts)."""
    rec = record(HIGHER_TRUMP_BEFORE, ["7C 10C 8C 9D", "KH AH 7H 8H", "AC JC 9H 7S"])
    finding = _only(rec, "wasted_trump")
    assert (finding.points, finding.severity) == (5.0, Severity.BLUNDER)
    assert finding.explanation.endswith(
        "In trick 3 Bert had no trump left and 9♦ would have taken it: 5 points went to the opponents."
    )


# Diamonds trumps: Bert's only trump is 9♦; Carla holds J♦ Q♦ K♦, Anna 8♦ A♦ 10♦.
LATER_TRICKS = [
    "9H QH 8C AS 9C 8D AD 10D",  # Anna
    "9D KH 8H 7S 9S QS 10S KS",  # Bert
    "7C AH 10H 8S JD AC QD KD",  # Carla
    "10C 7H JS JC JH 7D QC KC",  # Dirk
]


def test_a_wasted_trump_looks_past_a_trick_followed_and_a_lead_an_opponent_would_have_ruffed() -> None:
    """After the wasted 9♦: in trick 3 Bert follows hearts (no trick for a trump), in trick 5 he
    leads Q♠ and Carla ruffs with J♦ (the 9♦ led instead would have fallen to it too); in trick 6,
    out of clubs and trumps, he discards last on Anna's 8♦ ruff: the kept 9♦ would have taken it."""
    tricks = ["7C 10C 8C 9D", "KH AH 7H 9H", "10H JH QH 8H", "8S JS AS 10S", "QS JD QC 9C", "AC JC 8D 7S"]
    finding = _only(record(LATER_TRICKS, tricks), "wasted_trump")
    assert (finding.points, finding.severity) == (5.0, Severity.BLUNDER)
    assert finding.explanation.endswith(
        "In trick 6 Bert had no trump left and 9♦ would have taken it: 5 points went to the opponents."
    )


def test_points_thrown_names_the_player_winning_just_before_the_card_thrown() -> None:
    """zwaan-2026-01-21-3, deal 7, trick 6 (clubs trumps): Carla leads 8♥, Els takes the lead with
    Q♥, and Hendrik, third, throws the master 10♦ on it: the card was thrown onto Els's Q♥."""
    (thrown,) = [found for found in _card_play("zwaan-2026-01-21-3", 7) if found[0] == "points_thrown"]
    assert thrown == (
        "points_thrown", 6, 3, "Hendrik", "10D", ["9D"], 5.0,
        "Hendrik threw 10♦ onto Els's Q♥ in trick 6, a trick the opponents were certain to take, while 9♦ "
        "could be given instead: no card left could take 10♦ (a master), so keeping it would have saved 5 "
        "points.",
    )  # fmt: skip


# THROWN, but Dirk holds 7♥ and J♥ for J♠ and Q♠: the 7♥ guards a jack that is no master.
JACK_GUARDED = [
    "10D AD KD JS 8H 9H 7C 8C",  # Anna
    "7D 8D 9D QS QH 9C JC QC",  # Bert
    "JD QD KH AH 10H 7S 8S 9S",  # Carla
    "10C AC KC 10S AS KS 7H JH",  # Dirk
]


def test_points_thrown_keeps_the_last_guard_of_a_jack_and_names_the_jack_to_give() -> None:
    """docs/findings.md: a cheaper card is one the player could give without baring a point card
    that needs a guard. Dirk's 7♥ is the J♥'s only companion (Q♥ to 10♥ unseen), so the card to
    give instead of the master 10♣ is the J♥ itself (4 card points saved, doubled in the muil)."""
    rec = record(JACK_GUARDED, ["10D 7D JD 10C", "7C 9C 7S AC", "KC 8C QC 8S"], dealer=3, trump=None)
    finding = _only(rec, "points_thrown")
    assert (finding.better, finding.points, finding.severity) == ((Card.HJ,), 8.0, Severity.BLUNDER)
    assert finding.explanation == (
        "Dirk threw 10♣ onto Anna's 10♦ in trick 1, a trick the opponents were certain to take, while J♥ "
        "could be given instead: no card left could take 10♣ (a master), so keeping it would have saved 4 "
        "card points (8 on the scoresheet: the deal counted double)."
    )


# --------------------------------------------------------------------------- the run over a match

SAMPLES = DEMO.parent / "samples"


def test_the_rules_depth_judges_every_deal_of_the_match() -> None:
    """``manillen analyze --depth rules`` (no strategy): the illegal plays and the wrong scoresheet of
    all four deals of the sample, not only the first deal's, and only the strategy findings left out."""
    result = decode_and_replay((SAMPLES / "illegal-plays.json").read_text(encoding="utf-8"))
    rules_only = [(f.deal, f.kind) for f in analyse(result, strategy=False)]
    assert rules_only == [
        (1, "revoke"),
        (2, "score_mismatch"),
        (2, "failed_to_overtake"),
        (3, "failed_to_buy"),
        (4, "illegal_underbuy"),
    ]
    every = [(f.deal, f.kind) for f in analyse(result) if f.category is not Category.STRATEGY]
    assert every == rules_only


def test_a_deal_dealt_out_of_turn_after_a_redeal_names_the_dealer_who_deals_again() -> None:
    """The sample's deal 4 is thrown in (redeal): Dirk deals deal 5 again. Anna dealing it is out of
    rotation, and the finding names Dirk, not Anna (the next seat), as the one whose turn it was."""
    match = json.loads((SAMPLES / "cafe-rules.json").read_text(encoding="utf-8"))
    match["deals"][4] = {"dealer": 0, "recorded_score": {"team": 1, "points": 6}}
    (finding,) = of_kind(analyse_record(loads(json.dumps(match))), "dealer_out_of_rotation")
    assert (finding.deal, finding.player, finding.severity) == (5, "Anna", Severity.INFO)
    assert finding.explanation == "Deal 5 was dealt by Anna; by rotation it was Dirk's turn to deal."
    assert finding.explanation_nl == "Spel 5 werd gedeeld door Anna; volgens de beurt moest Dirk delen."


def test_deals_played_on_after_the_match_was_won_are_named_in_both_languages() -> None:
    """Anna and Carla reach 110 in deal 1: the deals after it do not count, one or several."""
    (one,) = of_kind(analyse_record(scoresheet([0, 1], [110, 5])), "played_on_after_match_won")
    assert (one.deal, one.severity) == (2, Severity.INFO)
    assert (
        one.explanation == "The match was already decided at 110-0; deal 2 was played on and does not count."
    )
    assert one.explanation_nl == "De partij was al beslist bij 110-0; spel 2 werd nog gespeeld en telt niet."
    (three,) = of_kind(analyse_record(scoresheet([0, 1, 2, 3], [110, 5, 5, 7])), "played_on_after_match_won")
    assert three.explanation == (
        "The match was already decided at 110-0; deals 2 to 4 were played on and do not count."
    )
    assert three.explanation_nl == (
        "De partij was al beslist bij 110-0; spellen 2 tot 4 werden nog gespeeld en tellen niet."
    )


# Each deal read against its cards (hands, tricks, who took each).
DEMO_BARE_ACES = {
    # clubs trumps: Hendrik's illegal underbuy in trick 6 is a rule finding; the plays after it are
    # judged all the same: Frans's A♣ on Bert's certain 8♣ in trick 7, J♣ lost to Ilse's K♣ in trick 8
    ("zwaan-2026-01-09-4", 8): [
        ("master_trump_smeared", 7, 4, "Frans", "AC", ["JC"], 9.0),
    ],
    # hearts trumps: Jozef's A♠ falls bare under Els's 10♠ in trick 6; in trick 1 he put K♠ on
    # Carla's certain Q♠ (Carla's A♣, forced over J♣ in trick 5 with 7♣ beside it, is not bare and
    # does not end the search)
    ("zwaan-2026-04-29-1", 8): [
        ("bare_ace_lost", 1, 4, "Jozef", "KS", ["AS"], 1.0),
    ],
    # muil: Carla's A♥ and Anna's 10♥ are both discards in trick 8, which Carla's partner Dirk takes
    ("sport-2026-01-26-4", 2): [],
    # spades trumps: Jozef's A♣ falls bare under Dirk's 10♣ in trick 6; the last chance to smear it
    # was trick 5 (Anna's master A♠), reported as the bare ace, trick 4 as the smear missed (Anna's
    # bare A♥ in trick 1 fell under her partner's 10♥, no loss, and does not end the search)
    ("sport-2026-05-23-4", 10): [
        ("missed_vetten", 4, 3, "Jozef", "7D", ["AC", "QD"], 4.0),
        ("bare_ace_lost", 5, 3, "Jozef", "7C", ["AC"], 4.0),
    ],
    # Bert's A♣ falls bare under Ilse's 10♣ in trick 4; in trick 3 he put A♥ on Anna's certain A♠,
    # a card worth as much: no chance to save points
    ("sport-2026-02-08-2", 4): [],
    # hearts trumps: Carla's A♠ falls bare under Ilse's 10♠ in trick 5; in trick 2 she put K♥ on
    # Els's certain 7♥ (Els's bare A♣ under Anna's 10♣ in trick 1, with no chance before it, does
    # not end the search)
    ("sport-2026-07-10-1", 12): [
        ("bare_ace_lost", 2, 4, "Carla", "KH", ["AS"], 1.0),
        ("wasted_trump", 6, 4, "Els", "JH", ["JD", "AD"], 0.0),
    ],
}  # fmt: skip


@pytest.mark.parametrize(("match_id", "deal"), list(DEMO_BARE_ACES))
def test_the_demos_bare_aces_and_the_plays_after_an_illegal_card(match_id: str, deal: int) -> None:
    assert [found[:7] for found in _card_play(match_id, deal)] == DEMO_BARE_ACES[match_id, deal]


def test_a_bare_ace_lost_to_a_ruff_does_not_end_the_search_for_a_later_one() -> None:
    """A random match (seed 55), deal 6, diamonds trumps: in trick 3 Anna's bare A♠ falls to Dirk's
    A♦ ruff (no manille in that trick: no blote aas), and Bert puts 7♥ on that certain trick holding
    A♥ and 7♥. In trick 4 his A♥, bare, falls under Carla's 10♥: the bare ace is reported."""
    rec = random_record(55, deals=8)
    found = [f for f in analyse_record(rec) if f.deal == 6 and f.category is Category.STRATEGY]
    assert [
        (f.kind, f.trick, f.player, str(f.card), [str(c) for c in f.better], f.points) for f in found
    ] == [("bare_ace_lost", 3, "Bert", "7H", ["AH"], 4.0)]
    assert found[0].explanation.startswith(
        "Bert's bare ace A♥ (blote aas) fell under Carla's manille 10♥ in trick 4."
    )


# Diamonds trumps: Anna's only heart is A♥, Bert's spades A♠ 7♠; Carla holds 10♥ and 10♠.
TWO_BARE_ACES = [
    "AH 9S 7C 8C 8D 9D JD QD",  # Anna
    "AS 7S 10C AC KC QC JC 9C",  # Bert
    "10H 7H 8H 9H JH QH KH 10S",  # Carla
    "7D 8S JS QS KS KD AD 10D",  # Dirk
]


def test_a_bare_ace_that_fell_with_its_partners_manille_does_not_end_the_search() -> None:
    """Trick 1: Carla leads 10♥, Dirk ruffs, Anna's bare A♥ falls with her partner's manille (no blote
    aas: the manille was no opponent's), and Bert discards 7♠ on Dirk's certain ruff. Trick 2: Bert's
    A♠, bare, falls under Carla's 10♠: reported at trick 1."""
    finding = _only(record(TWO_BARE_ACES, ["10H 7D AH 7S", "8S 9S AS 10S"]), "bare_ace_lost")
    assert (finding.trick, finding.player, finding.card, finding.points) == (1, "Bert", Card.S7, 4.0)
    assert finding.explanation.startswith(
        "Bert's bare ace A♠ (blote aas) fell under Carla's manille 10♠ in trick 2."
    )


# Diamonds trumps, Anna deals: Anna's hearts A♥ 7♥, Bert's spades A♠ 7♠.
ACES_IN_TURN = [
    "7H AH 9S JS QS KS 7D 8D",  # Anna
    "7C AS 7S 9C JC 10C 9D JD",  # Bert
    "AC 8H 10S 9H JH QC KC KD",  # Carla
    "8C 10H 8S QH KH QD AD 10D",  # Dirk
]


def test_a_bare_ace_the_solver_did_not_find_worth_smearing_does_not_end_the_search() -> None:
    """Anna discards 7♥ on Carla's certain A♣ (trick 1) and her bare A♥ falls under Dirk's 10♥ in
    trick 2, where Bert discards 7♠ on that certain trick; his bare A♠ falls under Carla's 10♠ in
    trick 3. Both are reported; with the solver's view of Anna's play (the A♥ worth 0.2 card points
    more: no better from where she sat) only Bert's."""
    rec = record(ACES_IN_TURN, ["7C AC 8C 7H", "8H 10H AH 7S", "8S 9S AS 10S"], dealer=0)
    assert [(f.trick, f.player) for f in of_kind(analyse_record(rec), "bare_ace_lost")] == [
        (1, "Anna"),
        (2, "Bert"),
    ]
    views = {**dict.fromkeys(ACES_IN_TURN[0].split(), 10.0), "AH": 10.2}
    found = analyse(replay(rec), rec, costs={1: [view_cost_at(1, 4, 0, "7H", views)]})
    assert [(f.trick, f.player, f.points) for f in of_kind(found, "bare_ace_lost")] == [(2, "Bert", 4.0)]


# BARE_ACE, but Bert holds J♠ for 9♠ (Dirk the 9♠): he plays the J♠ on Dirk's certain 10♣.
BARE_ACE_JACK = [
    "KH 10H 8C KC QC JC 9C 7D",  # Anna
    "AH 7S 8S JS 10D AD KD QD",  # Bert
    "8H 9H 7H 7C AC JD 9D 8D",  # Carla
    "JH QH 10C 10S AS KS QS 9S",  # Dirk
]


def test_bare_ace_lost_counts_the_points_of_the_card_played_instead() -> None:
    """docs/findings.md: points = (4 − the card played's points) × multiplier: J♠ for A♥, 3 points."""
    finding = _only(record(BARE_ACE_JACK, ["7C 10C 8C JS", "JH 10H AH 7H"]), "bare_ace_lost")
    assert (finding.card, finding.points, finding.severity) == (Card.SJ, 3.0, Severity.MISTAKE)
    assert finding.explanation.endswith("instead of playing J♠: 3 more points.")
    assert finding.explanation_nl.endswith("in plaats van de schoppen boer te spelen: 3 punten meer.")


def test_bare_ace_lost_with_the_solvers_view_at_half_a_card_point_and_under_klop() -> None:
    """With the solver's costs smearing the ace must be worth at least half a card point more (half
    is enough); the points are the gain to two decimals times the multiplier."""
    tricks = ["7C 10C 8C 7S", "JH 10H AH 7H"]
    half = {"7S": 15.0, "AH": 15.5, "8S": 15.0, "9S": 15.0}
    finding = _only(record(BARE_ACE, tricks), "bare_ace_lost", {1: [view_cost_at(1, 4, 1, "7S", half)]})
    assert (finding.points, finding.severity) == (0.5, Severity.INFO)
    less = {"7S": 15.0, "AH": 15.49, "8S": 15.0, "9S": 15.0}
    rec = record(BARE_ACE, tricks)
    assert (
        of_kind(analyse(replay(rec), rec, costs={1: [view_cost_at(1, 4, 1, "7S", less)]}), "bare_ace_lost")
        == []
    )
    odd = {"7S": 15.0, "AH": 16.234, "8S": 15.0, "9S": 15.0}
    doubled = record(BARE_ACE, tricks, calls=[(0, "klop")])
    finding = _only(doubled, "bare_ace_lost", {1: [view_cost_at(1, 4, 1, "7S", odd)]})
    assert (finding.points, finding.severity) == (2.47, Severity.INFO)
    assert finding.explanation.endswith(
        "smearing A♥ was worth 1.2 card points more on average over the ways the other cards could lie."
    )


def test_a_wasted_trump_whose_later_trick_held_no_points_says_it_cost_nothing() -> None:
    """The demo's hoekske-2026-04-07-4, deal 3: Hendrik ruffs Griet's certain trick with A♦. In
    trick 7, out of trumps, the A♦ would have taken a trick of no card points: nothing went to the
    opponents, and the finding says so instead of "0 points went to the opponents"."""
    (finding,) = [
        f for f in of_kind(analyse_record(_demo("hoekske-2026-04-07-4")), "wasted_trump") if f.deal == 3
    ]
    assert (finding.trick, finding.player, finding.card, finding.points) == (5, "Hendrik", Card.DA, 0.0)
    assert finding.explanation.endswith(
        "In trick 7 Hendrik had no trump left and A♦ would have taken it, a trick without points: "
        "it cost nothing this time."
    )
    assert finding.explanation_nl.endswith(
        "In slag 7 had Hendrik geen troef meer en had de koeken aas de slag genomen, een slag zonder punten: "
        "deze keer kostte het niets."
    )
    assert "0 points" not in finding.explanation
