"""Every variant of the rules text: 2, 3 and 6 players, open table cards, a dummy, laid-aside
cards, cafe rules in each, and the club evening."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from manillen_replay.cards import CARD_POINTS, DECK_32_MASK, DECK_36_MASK, Card, CardSet, iter_mask, mask_of
from manillen_replay.dealing import Dealt, deal
from manillen_replay.engine import decode_and_replay
from manillen_replay.errors import IllegalPlayError, InvalidRecordError
from manillen_replay.rules import VARIANTS, Contract, Rules
from manillen_replay.state import DealState

SAMPLES = Path(__file__).resolve().parent.parent / "data" / "samples"


def sample(name: str) -> dict:
    return json.loads((SAMPLES / f"{name}.json").read_text())


def replay_doc(doc: dict):
    return decode_and_replay(json.dumps(doc))


def problems(doc: dict) -> list[str]:
    with pytest.raises(InvalidRecordError) as caught:
        replay_doc(doc)
    return [p.describe() for p in caught.value.problems]


# --------------------------------------------------------------------------- every variant plays out


@settings(max_examples=40, deadline=None)
@given(
    variant=st.sampled_from(sorted(VARIANTS)),
    seed=st.integers(0, 2**32),
    dealer=st.integers(0, 2),
    trump=st.sampled_from([None, 0, 1, 2, 3]),
)
def test_random_legal_deals_of_every_variant(variant, seed, dealer, trump):
    """Every variant: all tricks played, every card once, 60 points, legal plays never empty."""
    rules = Rules(variant=variant)
    shape = rules.shape
    rng = random.Random(seed)
    dealt = deal(rules, dealer, rng)
    state = dealt.start(rules, dealer, trump)
    played = []
    while not state.is_over:
        if state.table and state.can_move_to_empty_place(state.to_play) and rng.random() < 0.5:
            state = state.move_to_empty_place(state.to_play)
        mask = state.legal_mask()
        assert mask
        card = rng.choice(list(iter_mask(mask)))
        played.append(card)
        state = state.apply(card, strict=True)
    assert state.tricks_done == shape.tricks
    assert len(played) == shape.tricks * shape.trick_size == len(set(played))
    assert mask_of(played) | dealt.discards == shape.deck_mask
    assert sum(state.taken) == 60


@pytest.mark.parametrize("name", ["two-open", "two-open-fours", "three", "three-dummy", "six", "six-short"])
def test_every_variant_sample_replays_to_sixty_points(name):
    result = replay_doc(sample(f"variant-{name}"))
    deal_result = result.deals[0]
    assert deal_result.points is not None and sum(deal_result.points) == 60
    assert result.violations == [] and result.irregularities == []


def test_six_plays_with_the_sixes_and_four_refuses_them():
    """six: the 6s join (36 cards), 6 each."""
    assert VARIANTS["six"].deck_mask == DECK_36_MASK and VARIANTS["four"].deck_mask == DECK_32_MASK
    doc = sample("variant-six")
    assert sum(len(hand) for hand in doc["deals"][0]["hands"]) == 36
    four = sample("seed-trick")
    four["deals"][0]["hands"][0][0] = "6H"
    assert any("'6H' is not in the deck of 'four'" in p for p in problems(four))


# --------------------------------------------------------------------------- open table cards


def test_two_open_table_cards_count_for_following_suit():
    """Open table cards may be played like hand cards, so they oblige you to follow suit."""
    rules = Rules(variant="two_open")
    table = (((Card.S7, Card.H9),) + ((),) * 3, ((Card.C7, Card.C8),) + ((),) * 3)
    hands = (mask_of([Card.SA]), mask_of([Card.HK]))
    state = DealState.start(rules, 0, 3, hands, table).apply(Card.HK)
    assert state.to_play == 0
    assert CardSet(state.legal_mask()) == CardSet.parse("9H")


def test_face_down_card_is_turned_up_when_the_card_on_it_is_played():
    """When an open table card is played, the card under it is turned face up."""
    rules = Rules(variant="two_open")
    table = (((Card.S7, Card.H9),) + ((),) * 3, ((), (), (), ()))
    state = DealState.start(rules, 0, 3, (mask_of([Card.SA]), mask_of([Card.HK, Card.HQ])), table)
    assert not state.playable(0) >> Card.S7 & 1
    state = state.apply(Card.HK).apply(Card.H9)
    assert state.playable(0) >> Card.S7 & 1


def test_moving_a_card_to_the_emptied_fourth_place_uncovers_the_third_pile():
    """When a player's 4th pile is emptied, a card of the 3rd pile may be moved to the empty place."""
    rules = Rules(variant="two_open")
    table = (((), (), (Card.S7, Card.H9), ()), ((), (), (), ()))
    state = DealState.start(rules, 1, 3, (mask_of([Card.SA]), mask_of([Card.HK])), table)
    assert state.can_move_to_empty_place(0)
    moved = state.move_to_empty_place(0)
    assert moved.playable(0) == mask_of([Card.SA, Card.S7, Card.H9])
    with pytest.raises(IllegalPlayError):
        DealState.start(
            rules, 1, 3, (0, 0), ((((Card.S7, Card.H9),) * 4), ((), (), (), ()))
        ).move_to_empty_place(0)


def test_playing_a_face_down_card_is_refused():
    doc = sample("variant-two-open")
    deal_doc = doc["deals"][0]
    down = deal_doc["table"][0][1][0]
    for _t, trick in enumerate(deal_doc["tricks"]):
        if down in trick:
            break
    deal_doc["tricks"] = deal_doc["tricks"][:1]
    deal_doc["tricks"][0] = [deal_doc["tricks"][0][0], down]
    assert any("face down" in p for p in problems(doc))


def test_two_open_fours_each_player_plays_twice_per_trick():
    result = replay_doc(sample("variant-two-open-fours"))
    trick = result.deals[0].tricks[0]
    assert trick.seats == [1, 0, 1, 0] and len(result.deals[0].tricks) == 8


def test_two_open_sixteen_tricks_of_two():
    result = replay_doc(sample("variant-two-open"))
    assert len(result.deals[0].tricks) == 16 and all(len(t.cards) == 2 for t in result.deals[0].tricks)


# --------------------------------------------------------------------------- three players


def test_three_dealer_alone_discards_count_for_the_opponents_and_each_opponent_scores():
    """three: the dealer discards 2, which count for the opponents; the two opponents each score."""
    doc = sample("variant-three")
    result = replay_doc(doc)
    outcome = result.deals[0]
    discards = sum(CARD_POINTS[Card.parse(c)] for c in doc["deals"][0]["discards"])
    won_by_opponents = sum(t.points for t in outcome.tricks if t.winner != 0)
    assert outcome.points == (60 - won_by_opponents - discards, won_by_opponents + discards)
    assert outcome.score is not None and outcome.score.team == 1
    assert result.score == (0, outcome.score.points, outcome.score.points)
    assert all(len(t.cards) == 3 for t in outcome.tricks) and len(outcome.tricks) == 10


def test_three_needs_the_discards():
    doc = sample("variant-three")
    del doc["deals"][0]["discards"]
    assert any("lays 2 cards aside" in p for p in problems(doc))


def test_three_dummy_dealer_plays_for_the_dummy():
    """three_dummy: the dummy sits opposite the dealer; when it wins, the next lead is from the dummy."""
    result = replay_doc(sample("variant-three-dummy"))
    tricks = result.deals[0].tricks
    assert tricks[0].seats == [1, 3, 2, 0]
    dummy_wins = [t for t in tricks[:-1] if t.winner == 3]
    assert dummy_wins and all(tricks[t.number].leader == 3 for t in dummy_wins)
    assert len(result.score) == 3


def test_three_dummy_makes_no_calls():
    doc = sample("variant-three-dummy")
    doc["deals"][0]["declarations"].append({"seat": 3, "call": "klop"})
    assert any("the dummy makes no calls" in p for p in problems(doc))


# --------------------------------------------------------------------------- six_short trump passing


def test_six_short_choice_passes_to_the_teammates_and_the_third_must_choose():
    doc = sample("variant-six-short")
    assert replay_doc(doc).deals[0].chooser == 2
    calls = doc["deals"][0]["declarations"]
    doc["deals"][0]["declarations"] = [
        {"seat": 0, "call": "pass"},
        {"seat": 2, "call": "pass"},
        {"seat": 4, "call": "pass"},
    ]
    assert any("must choose trump and cannot pass" in p for p in problems(doc))
    doc["deals"][0]["declarations"] = [{"seat": 0, "call": "pass"}, {"seat": 4, "call": "trump", "suit": "H"}]
    assert any("the choice is with Carla" in p for p in problems(doc))
    del calls


def test_pass_is_only_for_six_short():
    doc = sample("seed-trick")
    doc["deals"][0]["declarations"].insert(0, {"seat": 3, "call": "pass"})
    assert any("'pass' is only used in the six_short variant" in p for p in problems(doc))


# --------------------------------------------------------------------------- house rules in every variant


@pytest.mark.parametrize("name", ["variant-three", "variant-two-open"])
def test_en_face_needs_a_partner(name):
    doc = sample(name)
    doc["match"]["rules"] = {"cafe": {"en_face": True}}
    doc["deals"][0]["declarations"] = [
        {"seat": 0, "call": "en_face"},
        {"seat": 1, "call": "trump", "suit": "H"},
    ]
    assert any("en face needs a partner" in p for p in problems(doc))


def test_en_face_in_six_passes_to_the_first_teammate():
    doc = sample("variant-six")
    doc["match"]["rules"] = {"cafe": {"en_face": True}}
    doc["deals"][0]["declarations"] = [
        {"seat": 0, "call": "en_face"},
        {"seat": 2, "call": "trump", "suit": "H"},
    ]
    del doc["deals"][0]["recorded_score"]
    outcome = replay_doc(doc).deals[0]
    assert outcome.en_face and outcome.chooser == 2 and outcome.multiplier == 2


def test_redeal_needs_eight_card_hands():
    doc = sample("variant-six")
    doc["match"]["rules"] = {"cafe": {"redeal_small": True}}
    doc["deals"][0] = {"dealer": 0, "declarations": [{"seat": 0, "call": "redeal"}]}
    assert any("needs eight-card hands" in p for p in problems(doc))


EVERY_OTHER_VARIANT = ["two-open", "two-open-fours", "three", "three-dummy", "six", "six-short"]
CAFE_KNOCKS = {
    "cafe": {"blind_muil": True, "eternal_klop": True},
    "klop_on_muil": True,
    "max_multiplier": None,
}


def variant_doc(
    name: str, *, seed: int | None = None, options: dict | None = None, calls: list[dict] | None = None
) -> dict:
    """The variant's sample with its cards played out again: a complete, legal deal.

    With ``seed`` the cards are dealt afresh and each seat plays a random legal card; without it
    the sample's hands (table piles and laid-aside cards too) stay and each seat plays its lowest
    legal card. ``calls`` replaces the sample's declarations (hearts trump, in ``six_short`` made by
    seat 2); a call of ``muil`` or ``blind_muil`` plays without trump.
    """
    doc = sample(f"variant-{name}")
    if options is not None:
        doc["match"]["rules"] = options
    deal_doc = doc["deals"][0]
    rules = Rules.from_options({**(options or {}), "variant": doc["match"]["variant"]})
    dealer = deal_doc["dealer"]
    deal_doc["declarations"] = calls or deal_doc["declarations"]
    contract = deal_doc["declarations"][-1 if calls is None else 0]
    trump = "HDCS".index(contract["suit"]) if contract["call"] == "trump" else None
    chooser = contract["seat"]
    rng = random.Random(seed)
    if seed is None:
        piles = deal_doc.get("table")
        dealt = Dealt(
            tuple(mask_of(Card.parse(c) for c in hand) for hand in deal_doc["hands"]),
            tuple(tuple(tuple(Card.parse(c) for c in p) for p in seat) or ((), (), (), ()) for seat in piles)
            if piles
            else (),
            mask_of(Card.parse(c) for c in deal_doc.get("discards", [])),
        )
    else:
        dealt = deal(rules, dealer, rng, chooser)
        deal_doc["hands"] = [[str(Card(c)) for c in iter_mask(hand)] for hand in dealt.hands]
        if "table" in deal_doc:
            deal_doc["table"] = [
                [[str(Card(c)) for c in pile] for pile in seat] if any(seat) else [] for seat in dealt.table
            ]
        if "discards" in deal_doc:
            deal_doc["discards"] = [str(Card(c)) for c in iter_mask(dealt.discards)]
    state = dealt.start(rules, dealer, trump, chooser)
    tricks: list[list[str]] = []
    while not state.is_over:
        legal = list(iter_mask(state.legal_mask()))
        card = min(legal) if seed is None else rng.choice(legal)
        if not state.trick:
            tricks.append([])
        tricks[-1].append(str(Card(card)))
        state = state.apply(card, strict=True)
    deal_doc["tricks"] = tricks
    deal_doc.pop("table_moves", None)
    deal_doc.pop("recorded_score", None)
    return doc


def blind_muil_doc(name: str, knocks: list[dict], options: dict) -> dict:
    """The variant's sample dealt again as a blind muil by the dealer, with these knocks."""
    dealer = sample(f"variant-{name}")["deals"][0]["dealer"]
    return variant_doc(name, options=options, calls=[{"seat": dealer, "call": "blind_muil"}, *knocks])


def knocks_of(name: str) -> list[dict]:
    """klop, tegenklop, klop: by the dealer's left and the dealer (in six_short, their teammates)."""
    if name == "six-short":
        return [{"seat": 1, "call": "klop"}, {"seat": 4, "call": "tegenklop"}, {"seat": 3, "call": "klop"}]
    return [{"seat": 1, "call": "klop"}, {"seat": 0, "call": "tegenklop"}, {"seat": 1, "call": "klop"}]


@pytest.mark.parametrize("name", EVERY_OTHER_VARIANT)
def test_blind_muil_and_knocks_in_every_variant(name):
    """Blind muil counts four times; with klop_on_muil and eternal klop each knock doubles it."""
    doc = blind_muil_doc(name, knocks_of(name), CAFE_KNOCKS)
    result = replay_doc(doc)
    outcome = result.deals[0]
    assert result.violations == []
    assert outcome.contract is Contract.BLIND_MUIL and outcome.trump is None
    assert outcome.knocks == 3 and outcome.multiplier == 4 * 2**3
    assert outcome.points is not None and sum(outcome.points) == 60
    winning = max(outcome.points)
    if winning > 30:
        assert outcome.score is not None and outcome.score.points == (winning - 30) * 32


@pytest.mark.parametrize("name", EVERY_OTHER_VARIANT)
def test_blind_muil_cannot_be_knocked_without_klop_on_muil(name):
    """klop_on_muil false: a muil, blind or not, may not be knocked, in every variant."""
    options = {**CAFE_KNOCKS, "klop_on_muil": False}
    doc = blind_muil_doc(name, knocks_of(name)[:1], options)
    assert any(
        "a muil may not be knocked under these rules (klop_on_muil is false)" in p for p in problems(doc)
    )
    unknocked = replay_doc(blind_muil_doc(name, [], options)).deals[0]
    assert unknocked.contract is Contract.BLIND_MUIL and unknocked.multiplier == 4


def test_blind_muil_needs_its_cafe_rule():
    doc = blind_muil_doc("three", [], {"klop_on_muil": True})
    assert any("'blind_muil' needs the cafe rule 'blind_muil' (match.rules.cafe)" in p for p in problems(doc))


# --------------------------------------------------------------------------- club evening


def test_club_evening_three_blocks_rotating_partners():
    """Clubs: 12 deals, partners rotate, 12 more, rotate again, 12 more; each block won by the team
    with more points; the tallies are 3-1-1-1 or 2-2-2-0."""
    result = replay_doc(sample("club-evening"))
    assert [b.winners for b in result.blocks] == [["Anna", "Carla"], ["Anna", "Bert"], ["Anna", "Dirk"]]
    assert result.blocks_won == {"Anna": 3, "Bert": 1, "Carla": 1, "Dirk": 1}
    assert sorted(result.blocks_won.values()) in ([1, 1, 1, 3], [0, 2, 2, 2])
    assert result.finished


def test_club_evening_blocks_need_the_same_four_players():
    doc = sample("club-evening")
    doc["match"]["blocks"][1] = ["Anna", "Carla", "Bert", "Emiel"]
    assert any("a block seats the same four players" in p for p in problems(doc))
    doc = sample("club-evening")
    doc["match"]["rules"] = {}
    assert any("format 'fixed'" in p for p in problems(doc))


def test_club_evening_replay_text_shows_blocks_won():
    from click.testing import CliRunner

    from manillen_replay.cli import cli

    output = CliRunner().invoke(cli, ["replay", str(SAMPLES / "club-evening.json")]).output
    assert "Blocks won: Anna 3, Bert 1, Carla 1, Dirk 1" in output


def test_cafe_rules_sample():
    result = replay_doc(sample("cafe-rules"))
    kinds = [(d.kind.value, d.contract.value if d.contract else None, d.multiplier) for d in result.deals]
    assert kinds[0] == ("played", "blind_muil", 4)
    assert kinds[1] == ("played", "trump", 2) and result.deals[1].en_face and result.deals[1].chooser == 3
    assert kinds[2] == ("played", "trump", 8)
    assert kinds[3][0] == "redeal" and result.deals[4].dealer == result.deals[3].dealer
