"""The built-in detectors' corrections of issue 30 and the blind spots it named, each on a small
hand-made deal that flags and one close to it that must not.

Seats: Anna 0 and Carla 2 against Bert 1 and Dirk 3; ``record`` builds a one-deal match (trump
diamonds and Bert dealing unless told, so Carla leads trick 1).
"""

from __future__ import annotations

from manillen_replay.analysis import Severity, analyse_record
from manillen_replay.cards import Card
from manillen_replay.engine import replay

from .test_analysis import of_kind, record

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
