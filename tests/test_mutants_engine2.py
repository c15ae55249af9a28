"""Who sits in each seat of a deal and who chose its cards (``manillen_replay.engine.report``'s
``seat_names`` and ``player_names``): in ``three_dummy`` the dealer plays the dummy, so the
archive's costs of the dummy's cards (``play_costs.player``) are the dealer's, while the seat
itself is named as the dummy's ('Anna's dummy', 'blinde van Anna' in Dutch)."""

from __future__ import annotations

import polars as pl
import pytest

from manillen_replay.analysis.costs import PlayCost
from manillen_replay.cards import CARDS
from manillen_replay.engine import decode_and_replay
from manillen_replay.engine.report import player_names, seat_names
from manillen_replay.engine.results import MatchResult
from manillen_replay.store.analyse import cost_frames

from .test_bulk_replay import generated


def _costs_of_every_seat(result: MatchResult) -> pl.DataFrame:
    """The ``play_costs`` rows of one card of every seat in every deal of ``result``."""
    seats = result.rules.shape.players
    costs = {
        deal.number: [
            PlayCost(
                trick=1, play=seat + 1, seat=seat, card=CARDS[seat], dd_cost=0, view_cost=None,
                best_cards=(), values={},
            )
            for seat in range(seats)
        ]
        for deal in result.deals
    }  # fmt: skip
    plays, _ = cost_frames(result, costs)
    return plays


@pytest.mark.parametrize("seed", [1, 2])
def test_the_costs_of_the_dummys_cards_are_the_dealers_of_each_deal(seed: int) -> None:
    """Each deal of a ``three_dummy`` match, whoever deals it: the dummy's card is filed under the
    dealer who chose it, the three people's under their own names; the seat is the dummy's."""
    for line in generated("three_dummy", seed):
        result = decode_and_replay(line)
        plays = _costs_of_every_seat(result)
        assert {deal.dealer for deal in result.deals} == {0, 1, 2}  # every person deals
        for deal in result.deals:
            dealer = result.seats[deal.dealer]
            assert seat_names(result, deal) == [*result.seats, f"{dealer}'s dummy"]
            assert seat_names(result, deal, "nl") == [*result.seats, f"blinde van {dealer}"]
            assert player_names(result, deal) == [*result.seats, dealer]
            players = plays.filter(pl.col("deal") == deal.number).sort("seat")["player"].to_list()
            assert players == [*result.seats, dealer]


@pytest.mark.parametrize("variant", ["four", "three", "two_open", "six"])
def test_without_a_dummy_every_card_is_its_seats_players(variant: str) -> None:
    """No dummy: each seat's cards are its own player's, whoever deals."""
    for line in generated(variant, 1):
        result = decode_and_replay(line)
        plays = _costs_of_every_seat(result)
        for deal in result.deals:
            assert seat_names(result, deal) == seat_names(result, deal, "nl") == list(result.seats)
            assert player_names(result, deal) == list(result.seats)
            players = plays.filter(pl.col("deal") == deal.number).sort("seat")["player"].to_list()
            assert players == list(result.seats)


@pytest.mark.parametrize("variant", ["three_dummy", "four", "three"])
def test_a_deal_result_without_names_is_seated_from_the_match(variant: str) -> None:
    """A deal result that carries no seating of its own (``DealResult.names`` is empty unless the
    replay fills it) is seated from the match: the dummy, if the game has one, named after that
    deal's dealer, and its cards the dealer's."""
    result = decode_and_replay(generated(variant, 1)[0])
    for deal in result.deals:
        dealer = result.seats[deal.dealer]
        deal.names = []
        dummy = [f"{dealer}'s dummy"] if variant == "three_dummy" else []
        assert seat_names(result, deal) == [*result.seats, *dummy]
        dummy_nl = [f"blinde van {dealer}"] if variant == "three_dummy" else []
        assert seat_names(result, deal, "nl") == [*result.seats, *dummy_nl]
        assert player_names(result, deal) == [*result.seats, *([dealer] if dummy else [])]
