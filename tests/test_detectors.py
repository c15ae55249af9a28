"""The built-in detectors' corrections of issue 30 and the blind spots it named, each on a small
hand-made deal that flags and one close to it that must not.

Seats: Anna 0 and Carla 2 against Bert 1 and Dirk 3; ``record`` builds a one-deal match (trump
diamonds and Bert dealing unless told, so Carla leads trick 1).
"""

from __future__ import annotations

from manillen_replay.analysis import Severity, analyse, analyse_record
from manillen_replay.cards import CARD_TEXT, Card
from manillen_replay.engine import replay

from .test_analysis import full_deal, of_kind, play_out, record, view_cost_at

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
