"""The match's score and end, the deal's state as plays are made, the replay and the record
format: the behaviours that mutation testing of ``state.py``, ``engine/`` and ``record/``
(``make mutate MODULE=...``) showed no other test defended."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from manillen_replay.cards import Card, CardSet, Suit, mask_of
from manillen_replay.engine import decode_and_replay
from manillen_replay.engine.inferred import (
    first_illegal_play,
    inferred_hands,
    inferred_leaders,
    is_legal_without_hands,
)
from manillen_replay.engine.report import match_to_json, match_to_text
from manillen_replay.errors import IllegalPlayError
from manillen_replay.rules import Clause, DealScore, Rules, ViolationKind
from manillen_replay.state import DealState, MatchState

DIAMONDS = int(Suit.D)
SAMPLES = Path(__file__).resolve().parent.parent / "data" / "samples"

# --------------------------------------------------------------------------- the match (state.py)


def test_a_team_reaching_the_target_exactly_wins():
    """target: the match ends after the deal that takes a team to this score *or more*."""
    match = MatchState.start(Rules()).apply_deal(DealScore(1, 101), False)
    assert match.finished and match.winner == 1 and match.final_score == (0, 101)


def test_a_match_plays_to_the_target_its_rules_give():
    match = MatchState.start(Rules(target=151)).apply_deal(DealScore(0, 120), False)
    assert (match.target, match.finished) == (151, False)
    match = match.apply_deal(DealScore(0, 31), False)
    assert match.finished and match.winner == 0


def test_a_three_player_match_keeps_a_score_for_each_person():
    """In ``three`` each person scores: the dealer alone, or each of the two opponents."""
    rules = Rules(variant="three")
    match = MatchState.start(rules)
    assert match.score == (0, 0, 0)
    match = match.apply_deal(DealScore(0, 4), False, dealer=2)
    assert match.score == (0, 0, 4)
    match = match.apply_deal(DealScore(1, 2), False, dealer=0)
    assert match.score == (0, 2, 6)


def test_a_penalty_in_the_three_player_game_goes_to_the_persons_of_the_other_side():
    """penalty_to = "opponents": a fault of the dealer's side scores for each opponent."""
    match = MatchState.start(Rules(variant="three")).apply_deal(None, False, penalties=((0, 10),), dealer=1)
    assert match.score == (10, 0, 10)


def test_when_both_teams_pass_the_raised_target_too_the_next_extension_applies():
    """extension (121, 151): both at or over 101, play to 121; both at or over 121 as well, to 151."""
    match = MatchState.start(Rules()).apply_deal(DealScore(0, 95), False).apply_deal(DealScore(1, 90), False)
    match = match.apply_deal(DealScore(0, 10), False, penalties=((0, 30),))
    assert (match.score, match.target, match.finished) == ((105, 120), 121, False)
    match = match.apply_deal(DealScore(0, 20), False, penalties=((0, 10),))
    assert (match.score, match.target, match.finished) == ((125, 130), 151, False)


def test_deals_played_on_after_the_match_is_decided_keep_its_winner_and_final_score():
    """The replay goes on through deals recorded after the match was won; they change neither
    who won nor the score it was won at."""
    match = MatchState.start(Rules()).apply_deal(DealScore(0, 60), False).apply_deal(DealScore(0, 50), False)
    assert match.finished and match.winner == 0 and match.final_score == (110, 0)
    match = match.apply_deal(DealScore(1, 200), False)
    assert match.score == (110, 200)
    assert match.finished and match.winner == 0 and match.final_score == (110, 0)


def test_a_fixed_match_ending_level_is_a_draw():
    """format "fixed": the higher score wins; equal scores after the last deal, nobody does."""
    match = MatchState.start(Rules(format="fixed", deals=2))
    match = match.apply_deal(DealScore(0, 20), False).apply_deal(DealScore(1, 20), False)
    assert match.finished and match.winner is None and match.final_score == (20, 20)


def test_a_fixed_match_records_the_score_it_ended_at():
    match = MatchState.start(Rules(format="fixed", deals=1)).apply_deal(DealScore(1, 8), False)
    assert match.finished and match.winner == 1 and match.final_score == (0, 8)


# --------------------------------------------------------------------------- the deal (state.py)


def four_player_state(trump: int | None, hands: dict[int, str], trick: str = "") -> DealState:
    """A deal of the four-player game dealt by seat 0 (seat 1 leads), with ``trick`` played."""
    masks = tuple(mask_of(Card.parse(c) for c in hands.get(seat, "").split()) for seat in range(4))
    held = list(masks)
    for seat, text in enumerate(trick.split(), start=1):
        held[seat] |= 1 << Card.parse(text)
    state = DealState.start(Rules(), 0, trump, tuple(held))
    for text in trick.split():
        state = state.apply(Card.parse(text))
    return state


@pytest.mark.parametrize(
    ("trump", "hand", "trick", "played", "broken"),
    [
        (DIAMONDS, "7H 7S", "KH", "7S", ViolationKind.REVOKE),
        (DIAMONDS, "7H AH", "9H", "7H", ViolationKind.FAILED_TO_OVERTAKE),
        (DIAMONDS, "7D 7S", "9H", "7S", ViolationKind.FAILED_TO_BUY),
        (DIAMONDS, "7D 7S", "9H KD", "7D", ViolationKind.ILLEGAL_UNDERBUY),
        (None, "7D 7S", "9H KD", "7D", None),
        (DIAMONDS, "7H AH", "9H", "AH", None),
    ],
)
def test_the_rule_a_card_would_break_is_named_before_it_is_played(trump, hand, trick, played, broken):
    """What a replay reports for a wrong card: revoke, failed to overtake, failed to buy, an
    underbuy; nothing for a legal card."""
    seat = 1 + len(trick.split())
    state = four_player_state(trump, {seat: hand}, trick)
    assert state.to_play == seat
    assert state.violation(Card.parse(played)) == broken


def test_a_card_that_breaks_the_rules_is_still_played_unless_the_replay_is_strict():
    """A replay records a revoke and plays on; a strict one refuses it, saying which card, who,
    in which trick and why."""
    state = four_player_state(DIAMONDS, {2: "7H 7S"}, "KH")
    assert state.apply(Card.S7).trick == (Card.HK, Card.S7)
    with pytest.raises(IllegalPlayError, match=r"^illegal play: 7S by seat 2 in trick 1: revoke$"):
        state.apply(Card.S7, strict=True)
    assert state.apply(Card.H7, strict=True).trick == (Card.HK, Card.H7)


def test_a_card_the_seat_does_not_hold_is_refused_naming_seat_and_card():
    state = four_player_state(DIAMONDS, {2: "7H 7S"}, "KH")
    with pytest.raises(IllegalPlayError, match=r"^illegal play: seat 2 does not hold 7C$"):
        state.apply(Card.C7)


def test_what_a_seat_may_play_comes_with_the_clause_that_decides_it():
    """The recording page's "why" for the seat to play: the suit led, the card winning, and the
    cards allowed by the clause in force."""
    overtake = four_player_state(DIAMONDS, {2: "7H AH 7S"}, "9H").legal()
    assert (overtake.cards, overtake.clause) == (CardSet.parse("AH"), Clause.OVERTAKE)
    assert (overtake.led_suit, overtake.winning_card) == (Suit.H, Card.H9)
    buy = four_player_state(DIAMONDS, {2: "7D 7S"}, "9H").legal()
    assert (buy.cards, buy.clause) == (CardSet.parse("7D"), Clause.BUY)
    muil = four_player_state(None, {2: "7D 7S"}, "9H").legal()
    assert (muil.cards, muil.clause) == (CardSet.parse("7D 7S"), Clause.MUIL_ANY)
    partner = four_player_state(DIAMONDS, {3: "8H 10H 7S"}, "9H 7H").legal()
    assert (partner.cards, partner.winning_card) == (CardSet.parse("8H 10H"), Card.H9)


def test_at_the_lead_no_side_is_winning_the_trick_yet():
    state = four_player_state(DIAMONDS, {1: "7H"})
    assert state.to_play == 1 and state.partner_winning() is False


def test_in_the_dummy_game_the_dealers_left_leads_and_the_dummys_tricks_count_for_the_dealer():
    """three_dummy: the dummy sits opposite the dealer, play goes dealer, left, dummy, right."""
    rules = Rules(variant="three_dummy")
    hands = (mask_of([Card.H8]), mask_of([Card.H9]), mask_of([Card.H7]), mask_of([Card.HA]))
    state = DealState.start(rules, 1, None, hands)
    assert state.leader == 2
    state = state.apply(Card.H7).apply(Card.HA)
    assert state.to_play == 0 and not state.partner_winning()
    state = state.apply(Card.H8).apply(Card.H9)
    assert (state.leader, state.taken) == (3, (4, 0))


def test_in_the_three_player_game_the_dealer_plays_alone_against_the_other_two():
    rules = Rules(variant="three")
    hands = (mask_of([Card.HA]), mask_of([Card.H7]), mask_of([Card.H8]))
    state = DealState.start(rules, 0, None, hands)
    assert [state.team_of(seat) for seat in range(3)] == [0, 1, 1]
    state = state.apply(Card.H7).apply(Card.H8).apply(Card.HA)
    assert (state.leader, state.taken) == (0, (4, 0))
    assert DealState.start(rules, 2, None, hands).team_of(2) == 0


def test_in_a_game_without_table_cards_no_card_moves_to_an_empty_place():
    assert four_player_state(DIAMONDS, {1: "7H"}).can_move_to_empty_place(1) is False


def test_a_face_down_table_card_or_another_seats_card_cannot_be_played():
    rules = Rules(variant="two_open")
    table = (((Card.S7, Card.H9),) + ((),) * 3, ((Card.C7, Card.C8),) + ((),) * 3)
    state = DealState.start(rules, 1, DIAMONDS, (mask_of([Card.SA]), mask_of([Card.HK])), table)
    assert state.to_play == 0
    for card in (Card.S7, Card.C8, Card.HK):
        with pytest.raises(IllegalPlayError, match="does not hold"):
            state.apply(card)
    assert state.apply(Card.H9).table[0][0] == (Card.S7,)


def test_moving_a_card_to_a_fourth_place_that_is_not_empty_is_refused_with_the_rule():
    rules = Rules(variant="two_open")
    table = (((Card.S7, Card.H9),) * 4, ((), (), (), ()))
    state = DealState.start(rules, 1, DIAMONDS, (0, 0), table)
    rule = r"^a card moves from the 3rd pile only to an emptied 4th place"
    with pytest.raises(IllegalPlayError, match=rule):
        state.move_to_empty_place(0)


# ------------------------------------------------------------- deals without hands (engine/inferred.py)


def tricks_of(*lines: str) -> list[list[int]]:
    return [[Card.parse(c) for c in line.split()] for line in lines]


def test_without_hands_the_dealers_left_leads_then_each_tricks_winner():
    """Four players, dealer 3: seat 0 leads; A♥ of seat 1 wins, so seat 1 leads the next; A♠ of
    seat 0 (the fourth to play) wins that one. Each seat held the cards it played."""
    tricks = tricks_of("7H AH 8H 9H", "7S 8S 9S AS")
    assert inferred_leaders(tricks, 3, DIAMONDS, Rules()) == [0, 1]
    hands = inferred_hands(tricks, 3, DIAMONDS, Rules())
    assert [CardSet(h) for h in hands] == [CardSet.parse(h) for h in ("7H AS", "AH 7S", "8H 8S", "9H 9S")]


def test_without_hands_the_dummy_game_follows_its_seating():
    """three_dummy, dealer 1: play goes 2, dummy 3, 0, 1; the dummy's A♥ wins, so it leads next."""
    rules = Rules(variant="three_dummy")
    tricks = tricks_of("7H AH 8H 9H", "7S 8S 9S AS")
    assert inferred_leaders(tricks, 1, DIAMONDS, rules) == [2, 3]
    hands = inferred_hands(tricks, 1, DIAMONDS, rules)
    assert [CardSet(h) for h in hands] == [CardSet.parse(h) for h in ("8H 8S", "9H 9S", "7H AS", "AH 7S")]


def test_a_deal_without_hands_is_legal_when_every_seat_plays_by_the_rules():
    """Seat 3 plays J♥ under its partner's winning K♥ though it holds A♥: the partner exemption."""
    tricks = tricks_of("7H KH 8H JH", "7S 8S AH AS")
    assert first_illegal_play(tricks, 3, DIAMONDS, Rules()) is None
    assert is_legal_without_hands(tricks, 3, DIAMONDS, Rules())


def test_a_deal_without_hands_names_the_first_card_that_breaks_a_rule():
    """Seat 2 plays 8♠ on a heart lead and later shows 8♥: a revoke, trick 1, third card."""
    tricks = tricks_of("7H AH 8S 9H", "7S 8H 9S AS")
    assert first_illegal_play(tricks, 3, DIAMONDS, Rules()) == (1, 3)
    assert not is_legal_without_hands(tricks, 3, DIAMONDS, Rules())
    not_exempt = Rules(partner_exempt=False)
    assert first_illegal_play(tricks_of("7H KH 8H JH", "7S 8S AH AS"), 3, DIAMONDS, not_exempt) == (1, 4)


# ------------------------------------------------------------- the replay as read (engine/report.py)


def replayed(name: str):
    return decode_and_replay((SAMPLES / f"{name}.json").read_text())


def lines_of(name: str, **options) -> list[str]:
    return match_to_text(replayed(name), **options).splitlines()


def test_the_text_replay_names_the_sides_of_the_three_player_games():
    three = lines_of("variant-three")
    assert three[1].startswith(
        "Players: Anna, Bert, Carla; each deal the dealer plays alone against the other two"
    )
    assert "  card points: 22-38 (Anna - Bert & Carla)" in three
    assert "  score: Bert & Carla +8" in three and three[-1] == "Score 0-8-8: the match was not finished"
    dummy = lines_of("variant-three-dummy")
    assert "plays alone with a dummy partner against the other two" in dummy[1]
    assert "  score: Anna +9" in dummy
    assert lines_of("variant-two-open")[1] == "Players: Anna  vs  Bert"
    assert lines_of("variant-six-short")[1] == "Teams: Anna & Carla & Emiel  vs  Bert & Dirk & Fien"


def test_the_text_replay_says_each_contract_as_it_was_called():
    text = lines_of("cafe-rules", symbols=False)
    assert "Deal 1: dealer Anna, blind muil, x4" in text
    assert "Deal 2: dealer Bert, trump C klaveren (en face), x2" in text
    assert "Deal 3: dealer Carla, trump S schoppen, klop, tegenklop, klop, x8" in text
    assert "Deal 4: dealer Dirk, no contract recorded" in text
    assert "  redeal: the same dealer deals again" in text
    assert "Deal 1: dealer Anna, trump ♣ klaveren, x1" in lines_of("thirty-thirty")


def test_the_text_replay_shows_illegal_plays_and_a_wrong_scoresheet_in_the_players_words():
    text = lines_of("illegal-plays")
    assert "  ! trick 2: Anna played 8♥: revoke (could play 9♦)" in text
    assert "  ! trick 6: Carla played 7♠: illegal underbuy (could play J♣ K♠)" in text
    assert (
        "  ! deal 2: the scoresheet says Anna & Carla scored 17, the cards say Anna & Carla scored 15" in text
    )


def test_the_text_replay_of_a_thirty_thirty_says_the_next_deal_counts_double():
    text = lines_of("thirty-thirty")
    assert "  30-30: nobody scores, the next deal counts double" in text
    assert "  score: Bert & Dirk +26" in text and "  match score: 0-26" in text


def test_the_text_replay_of_a_finished_match_names_the_winners():
    assert lines_of("scoresheet")[-1] == "Final score 105-42: Anna & Carla win"
    assert lines_of("scoresheet")[-3] == "  match score: 105-42"


def test_the_text_replay_of_one_deal_shows_that_deal_alone():
    text = lines_of("illegal-plays", deal_number=2)
    assert [line for line in text if line.startswith("Deal ")] == ["Deal 2: dealer Bert, trump ♦ koeken, x1"]


def test_the_text_replay_of_a_club_evening_shows_each_block_and_who_won_it():
    text = lines_of("club-evening")
    assert text[1] == "Club evening: the partners change every block"
    assert "Block 2: Anna & Bert  vs  Carla & Dirk" in text
    assert "Block 3, Anna & Dirk  vs  Bert & Carla (58-24): won by Anna & Dirk" in text
    assert text[-1] == "Blocks won: Anna 3, Bert 1, Carla 1, Dirk 1"


def test_the_json_replay_gives_the_sides_of_each_deal_and_the_blocks_of_an_evening():
    three = match_to_json(replayed("variant-three"))
    assert (three["variant"], three["seats"], three["deals"][0]["sides"]) == (
        "three",
        ["Anna", "Bert", "Carla"],
        [[0], [1, 2]],
    )
    evening = json.loads(json.dumps(match_to_json(replayed("club-evening"))))
    assert evening["deals"][0]["sides"] == [[0, 2], [1, 3]]
    assert evening["blocks"][2] == {
        "block": 3,
        "seats": ["Anna", "Bert", "Dirk", "Carla"],
        "score": [58, 24],
        "winner": 0,
        "winners": ["Anna", "Dirk"],
        "finished": True,
    }
    assert evening["blocks_won"] == {"Anna": 3, "Bert": 1, "Carla": 1, "Dirk": 1}


def test_the_json_replay_keeps_the_scoresheets_score_beside_the_cards_score():
    deals = match_to_json(replayed("illegal-plays"))["deals"]
    assert deals[1]["recorded_score"] == {"team": 0, "points": 17} and deals[1]["score_mismatch"] is True
    assert deals[1]["score"] == {"team": 0, "points": 15}
    assert deals[0]["score_mismatch"] is False


def test_without_hands_a_trump_wins_the_trick_and_a_void_seat_must_buy():
    """Trump ♦: seat 1's 7♦ on a heart lead wins, so seat 1 leads next; seat 1 holding 7♦ and
    playing 7♠ on a heart lead it cannot follow fails to buy."""
    tricks = tricks_of("7H 7D 8H 9H", "7S 8S 9S AS")
    assert inferred_leaders(tricks, 3, DIAMONDS, Rules()) == [0, 1]
    assert [CardSet(h) for h in inferred_hands(tricks, 3, DIAMONDS, Rules())][1] == CardSet.parse("7D 7S")
    assert is_legal_without_hands(tricks, 3, DIAMONDS, Rules())
    failed_to_buy = tricks_of("7H 7S 8H 9H", "8S 9S 7D AS")
    assert first_illegal_play(failed_to_buy, 3, DIAMONDS, Rules()) == (1, 2)
    assert not is_legal_without_hands(failed_to_buy, 3, DIAMONDS, Rules())
    assert is_legal_without_hands(failed_to_buy, 3, None, Rules())


def test_without_hands_a_card_once_played_no_longer_obliges_its_seat():
    """Seat 2 played its only heart in trick 1, so its 7♠ on the heart lead of trick 2 is no revoke."""
    tricks = tricks_of("7H AH 8H 9H", "KH 7S QH JH")
    assert first_illegal_play(tricks, 3, DIAMONDS, Rules()) is None


def test_without_hands_the_dummy_game_knows_partners_and_revokes():
    """three_dummy, dealer 1 (sides: 1 with the dummy 3, against 0 and 2). Seat 1 plays J♥ under
    its dummy's winning K♥ while holding A♥: exempt. Seat 0 playing 8♠ on hearts while it holds
    8♥ revokes."""
    rules = Rules(variant="three_dummy")
    assert first_illegal_play(tricks_of("7H KH 8H JH", "7S 8S AH AS"), 1, DIAMONDS, rules) is None
    assert first_illegal_play(tricks_of("7H AH 8S 9H", "7S 8H 9S AS"), 1, DIAMONDS, rules) == (1, 3)
