"""The deal replay's moments in the variants: open table cards, the dummy, club-evening seating."""

from __future__ import annotations

from pathlib import Path

import pytest

from dashboards.steps import deal_moments
from manillen_replay.engine import decode_and_replay

SAMPLES = Path(__file__).resolve().parent.parent / "data" / "samples"


@pytest.mark.parametrize(
    "name", ["variant-two-open", "variant-two-open-fours", "variant-three-dummy", "variant-three"]
)
def test_every_card_is_shown_before_it_is_played(name):
    """Face-up table cards are shown with the hand, and a card turned up is shown from then on."""
    result = decode_and_replay((SAMPLES / f"{name}.json").read_bytes())
    moments = deal_moments(result.deals[0], result.rules)
    for moment in moments[1:]:
        assert moment.last is not None
        assert moment.last.card in moments[moment.step - 1].hands[moment.last.seat]
        assert moment.last.card not in moment.hands[moment.last.seat]


def test_table_move_turns_up_the_card_under_the_third_pile():
    result = decode_and_replay((SAMPLES / "variant-two-open.json").read_bytes())
    deal = result.deals[0]
    assert deal.table_moves == [(13, 2, 1)]
    moments = deal_moments(deal, result.rules)
    uncovered = deal.table[1][2][0]
    lead, answer = moments[12 * 2 + 1], moments[12 * 2 + 2]
    assert uncovered not in lead.hands[1]
    assert answer.last is not None and answer.last.card != uncovered
    assert uncovered in answer.hands[1]


def test_club_evening_deals_know_their_seating():
    result = decode_and_replay((SAMPLES / "club-evening.json").read_bytes())
    assert result.deals[0].names == ["Anna", "Bert", "Carla", "Dirk"]
    assert result.deals[12].names == ["Anna", "Carla", "Bert", "Dirk"]
    assert result.deals[24].names == ["Anna", "Bert", "Dirk", "Carla"]


@pytest.mark.parametrize("name", ["variant-three", "variant-three-dummy", "variant-six-short", "seed-trick"])
def test_the_points_taken_end_at_the_deals_card_points_the_laid_aside_cards_counted_from_the_start(name):
    """The three-player deal's replay said "Anna 22, Bert & Carla 37" over "Card points 22-38": the
    laid-aside jack was left out of the points taken."""
    result = decode_and_replay((SAMPLES / f"{name}.json").read_bytes())
    deal = next(d for d in result.deals if d.tricks)
    moments = deal_moments(deal, result.rules)
    assert moments[-1].taken == deal.points
    assert moments[0].taken == deal.taken_before_play(result.rules)
    assert (sum(moments[0].taken) > 0) == bool(deal.discards)
