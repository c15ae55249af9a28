"""What the mistake finder knows of each play and how a finding names the dummy's card: the
behaviours the mutation run of the analysis changed on 2026-12-05 evening (``DealKnowledge``'s
walk over the deal, ``Finding.to_json``'s ``dummy``) showed no other test defended."""

from __future__ import annotations

from pathlib import Path

import pytest

from manillen_replay.analysis import Finding, analyse_record
from manillen_replay.analysis.findings import Category, Severity
from manillen_replay.analysis.knowledge import DealKnowledge
from manillen_replay.cards import RANKS_PER_SUIT, Card
from manillen_replay.engine import MatchResult, decode_and_replay, replay

from .factories import random_record
from .test_analysis import BARE_ACE, of_kind, record

SAMPLES = Path(__file__).resolve().parent.parent / "data" / "samples"


def _replayed_matches() -> list[MatchResult]:
    """Random four-player matches and the shipped samples of the other variants."""
    matches = [replay(random_record(seed, deals=6)) for seed in range(8)]
    for name in ("variant-three.json", "variant-three-dummy.json", "variant-six.json", "illegal-plays.json"):
        matches.append(decode_and_replay((SAMPLES / name).read_text()))
    return matches


def test_each_play_sees_every_earlier_card_and_every_suit_a_player_has_shown_out_of() -> None:
    """A player's knowledge before a card is every card played before it in the deal and, for
    each seat, each suit it failed to follow so far (a second void remembered with the first)."""
    two_voids = 0
    for match in _replayed_matches():
        for deal in match.deals:
            if deal.hands is None:
                continue
            know = DealKnowledge(deal, match.rules)
            plays = [(trick, position) for trick in deal.tricks for position in range(len(trick.cards))]
            assert [(view.trick, view.position) for view in know.views] == plays
            seen = 0
            voids = [0] * know.players
            hands = list(deal.hands)
            for view in know.views:
                trick, position = view.trick, view.position
                card = trick.cards[position]
                played = (card, trick.seats[position], trick.legal[position])
                assert (view.card, view.seat, view.legal) == played
                assert view.seen == seen
                assert view.voids == tuple(voids)
                assert view.hand == hands[view.seat]
                seen |= 1 << card
                hands[view.seat] &= ~(1 << card)
                led = trick.cards[0] // RANKS_PER_SUIT
                if position and card // RANKS_PER_SUIT != led:
                    voids[view.seat] |= 1 << led
                    two_voids += bin(voids[view.seat]).count("1") >= 2
            for trick in deal.tricks:
                for card in trick.cards:
                    assert (card in know.fate) is (trick.winner is not None)
                    if trick.winner is not None:
                        assert know.fate[card] is trick
    assert two_voids  # some player showed out of a second suit after a first


def _finding(seat: int | None) -> Finding:
    return Finding(
        "points_thrown", Category.STRATEGY, Severity.MISTAKE, "m", 1, 2, 3, seat, "Anna",
        Card.parse("AH"), (), 4, "en", "nl",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("seat", "people", "dummy"),
    [(3, 3, True), (2, 3, False), (3, 4, False), (None, 3, False), (3, None, False)],
)
def test_a_finding_in_json_is_the_dummys_card_only_for_the_seat_past_the_players(
    seat: int | None, people: int | None, dummy: bool
) -> None:
    """``three_dummy`` has three people and the dummy in seat 3: its card's finding says
    ``dummy``; a person's card, a finding on the whole table or a game without a dummy does not."""
    assert _finding(seat).to_json(people=people)["dummy"] is dummy


def test_a_bare_ace_of_trumps_lost_under_the_trump_manille_is_no_blote_aas() -> None:
    """docs/findings.md: ``bare_ace_lost`` is about a plain suit's ace. With hearts trump, Bert's
    lone A♥ is his only trump and falls under Anna's 10♥ in trick 2 after he played 7♠ on his
    partner's certain trick: that is trumps running out, not a blote aas to smear."""
    plain = record(BARE_ACE, ["7C 10C 8C 7S", "JH 10H AH 7H"])
    assert of_kind(analyse_record(plain), "bare_ace_lost")  # with diamonds trump, it is one
    trumps = record(BARE_ACE, ["7C 10C 8C 7S", "JH 10H AH 7H"], trump="H")
    deal = replay(trumps).deals[0]
    assert deal.tricks[1].legal[2] == 1 << Card.HA and deal.tricks[1].winner == 0
    assert deal.tricks[0].legal[3] >> Card.HA & 1  # he could have smeared it on trick 1
    assert of_kind(analyse_record(trumps), "bare_ace_lost") == []
