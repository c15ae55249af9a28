"""The replay engine's reading of a record: the behaviours that mutation testing of ``engine/``
(``make mutate MODULE=manillen_replay/engine``) showed no other test defended."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from manillen_replay.cards import Card
from manillen_replay.engine import ReplayVisitor, decode_and_replay, replay
from manillen_replay.engine.inferred import first_illegal_play
from manillen_replay.engine.report import match_to_json, match_to_text
from manillen_replay.engine.results import MatchResult
from manillen_replay.errors import InvalidRecordError
from manillen_replay.record import loads
from manillen_replay.record.model import Record
from manillen_replay.rules import Rules

from .test_engine import deal_dict, document, problems

SAMPLES = Path(__file__).resolve().parent.parent / "data" / "samples"


@pytest.mark.parametrize(
    ("trump", "calls", "problem"),
    [
        (
            0,
            [{"seat": 0, "call": "trump"}],
            "/deals/0/declarations/0: a trump call needs a suit: H, D, C or S",
        ),
        (
            None,
            [{"seat": 0, "call": "blind_muil"}],
            "/deals/0/declarations/0: 'blind_muil' needs the cafe rule 'blind_muil' (match.rules.cafe)",
        ),
        (
            None,
            [{"seat": 0, "call": "muil"}, {"seat": 1, "call": "klop"}],
            "/deals/0/declarations/1: a muil may not be knocked under these rules (klop_on_muil is false)",
        ),
        (
            0,
            [{"seat": 0, "call": "trump", "suit": "H"}, {"seat": 1, "call": "tegenklop"}],
            "/deals/0/declarations/1: expected 'klop' here, not 'tegenklop': klop and tegenklop alternate, "
            "klop first",
        ),
        (
            0,
            [
                {"seat": 0, "call": "trump", "suit": "H"},
                {"seat": 1, "call": "klop"},
                {"seat": 3, "call": "tegenklop"},
            ],
            "/deals/0/declarations/2: Dirk is not on the dealing team: only the dealing team may tegenklop",
        ),
        (
            0,
            [
                {"seat": 0, "call": "trump", "suit": "H"},
                {"seat": 1, "call": "klop"},
                {"seat": 0, "call": "tegenklop"},
                {"seat": 3, "call": "klop"},
            ],
            "/deals/0/declarations/3: knocking stops at tegenklop without the cafe rule 'eternal_klop'",
        ),
    ],
)
def test_a_call_against_the_rules_is_refused_where_it_stands_with_the_rule(trump, calls, problem):
    deal = deal_dict(dealer=0, trump=trump)
    deal["declarations"] = calls
    assert problems(document([deal])) == [f"club.jsonl:14: {problem}"]


def test_playing_a_card_still_face_down_names_the_card_the_table_and_the_trick():
    doc = json.loads((SAMPLES / "variant-two-open.json").read_text())
    deal = doc["deals"][0]
    down = deal["table"][0][1][0]
    deal["tricks"] = [[deal["tricks"][0][0], down]]
    with pytest.raises(InvalidRecordError) as caught:
        decode_and_replay(json.dumps(doc))
    messages = [p.describe() for p in caught.value.problems]
    assert f"/deals/0/tricks/0/1: '{down}' still lies face down on Anna's table in trick 1" in messages


def test_a_scoresheet_that_disagrees_with_a_thirty_thirty_says_both():
    doc = json.loads((SAMPLES / "thirty-thirty.json").read_text())
    doc["deals"][0]["recorded_score"] = {"team": 0, "points": 5}
    result = decode_and_replay(json.dumps(doc))
    assert [(i.deal, i.message) for i in result.irregularities] == [
        (1, "deal 1: the scoresheet says team 0 scored 5, the cards say 30-30 (nobody scores)")
    ]
    assert "  ! deal 1: the scoresheet says Anna & Carla scored 5, the cards say 30-30 (nobody scores)" in (
        match_to_text(result).splitlines()
    )


def test_a_penalty_keeps_its_reason_and_one_without_a_reason_has_none():
    deals = [
        {
            "dealer": 0,
            "recorded_score": {"team": 0, "points": 10},
            "penalties": [{"team": 0, "reason": "looked at cards before trump"}, {"team": 1, "points": 10}],
        }
    ]
    result = decode_and_replay(document(deals))
    assert match_to_json(result)["deals"][0]["penalties"] == [
        {"team": 0, "points": 30, "reason": "looked at cards before trump"},
        {"team": 1, "points": 10, "reason": ""},
    ]
    text = match_to_text(result).splitlines()
    assert "  penalty: Anna & Carla, 30 points (looked at cards before trump)" in text
    assert "  penalty: Bert & Dirk, 10 points" in text


def scoresheet_match(
    seats: list[str], lines: list[tuple[int, int, int]], rules: dict | None = None, **match
) -> str:
    """A match of scoresheet lines only: ``(dealer, team, points)`` each."""
    deals = [{"dealer": d, "recorded_score": {"team": t, "points": p}} for d, t, p in lines]
    info = {"seats": seats, **match, **({"rules": rules} if rules else {})}
    return json.dumps({"format": "manillen/1", "match": info, "deals": deals})


def test_the_text_replay_names_the_winner_of_a_finished_match_in_each_game():
    """One player "wins", a team "win"; a draw of a fixed match says so."""
    two = decode_and_replay(scoresheet_match(["Anna", "Bert"], [(0, 1, 101)], variant="two_open"))
    assert match_to_text(two).splitlines()[-1] == "Final score 0-101: Bert wins"
    three = decode_and_replay(scoresheet_match(["Anna", "Bert", "Carla"], [(1, 0, 101)], variant="three"))
    assert match_to_text(three).splitlines()[-1] == "Final score 0-101-0: Bert wins"
    four = decode_and_replay(scoresheet_match(["Anna", "Bert", "Carla", "Dirk"], [(0, 1, 101)]))
    assert match_to_text(four).splitlines()[-1] == "Final score 0-101: Bert & Dirk win"
    level = scoresheet_match(
        ["Anna", "Bert", "Carla", "Dirk"], [(0, 0, 5), (1, 1, 5)], {"format": "fixed", "deals": 2}
    )
    assert match_to_text(decode_and_replay(level)).splitlines()[-1] == "Final score 5-5: a draw"


def test_the_text_replay_heads_the_match_with_its_file_and_marks_scoresheet_lines():
    """The file and line a match came from, when it came from one."""
    text = match_to_text(
        decode_and_replay(
            scoresheet_match(["Anna", "Bert"], [(0, 1, 5)], variant="two_open"), source="club.jsonl", line=3
        )
    ).splitlines()
    assert text[0].endswith("  (club.jsonl:3)") and text[0].startswith("Match m-")
    assert text[2:7] == [
        "",
        "Deal 1: dealer Anna, no contract recorded",
        "  scoresheet line only",
        "  score: Bert +5",
        "  match score: 0-5",
    ]
    unnamed = decode_and_replay(scoresheet_match(["Anna", "Bert"], [(0, 1, 5)], variant="two_open"))
    assert match_to_text(unnamed).splitlines()[0] == f"Match {unnamed.id}"


def test_the_text_replay_of_a_thirty_thirty_without_the_carry_rule_promises_no_double():
    doc = json.loads((SAMPLES / "thirty-thirty.json").read_text())
    doc["match"]["rules"] = {"thirty_carry": False}
    assert "  30-30: nobody scores" in match_to_text(decode_and_replay(json.dumps(doc))).splitlines()


def test_the_text_replay_says_a_deal_stopped_early_is_not_scored():
    deal = deal_dict(dealer=0)
    deal["tricks"] = deal["tricks"][:2]
    text = match_to_text(decode_and_replay(document([deal]))).splitlines()
    assert "  abandoned: not scored" in text and "  match score: 0-0" in text


def test_the_json_replay_has_every_field_of_its_contract():
    """docs/cli.md's contract: a program reading ``manillen replay --json`` finds each field."""
    match = match_to_json(decode_and_replay((SAMPLES / "illegal-plays.json").read_text()))
    assert set(match) == {
        "id", "source", "seats", "final_score", "winner", "finished", "variant", "deals", "blocks",
        "blocks_won", "irregularities",
    }  # fmt: skip
    assert match["finished"] is False
    assert match["irregularities"] == [
        {
            "deal": 2,
            "kind": "score_mismatch",
            "message": "deal 2: the scoresheet says team 0 scored 17, the cards say team 0 scored 15",
        }
    ]
    deal = match["deals"][0]
    assert set(deal) == {
        "deal", "dealer", "sides", "kind", "trump", "contract", "en_face", "knocks", "multiplier", "points",
        "score", "recorded_score", "score_mismatch", "penalties", "match_score", "counted", "tricks",
        "violations",
    }  # fmt: skip
    assert (deal["kind"], deal["trump"], deal["contract"], deal["counted"]) == ("played", "H", "trump", True)
    recorded = json.loads((SAMPLES / "illegal-plays.json").read_text())["deals"][0]["tricks"][0]
    assert deal["tricks"][0]["cards"] == recorded
    cafe = match_to_json(decode_and_replay((SAMPLES / "cafe-rules.json").read_text()))["deals"]
    assert (cafe[1]["en_face"], cafe[2]["knocks"], cafe[0]["contract"], cafe[0]["trump"]) == (
        True, 3, "blind_muil", None,
    )  # fmt: skip
    assert cafe[3]["kind"] == "redeal" and cafe[3]["recorded_score"] is None


def test_the_text_replay_of_a_four_player_deal_shows_each_trick_and_the_card_points():
    text = match_to_text(decode_and_replay((SAMPLES / "seed-trick.json").read_text())).splitlines()
    assert "   1.  Anna A♣    Bert Q♣   Carla 9♦    Dirk K♦   -> Dirk +9" in text
    assert "  card points: 23-37" in match_to_text(replayed_sample("illegal-plays")).splitlines()
    assert text[-2] == "" and text[-1].startswith(("Score ", "Final score "))


def test_the_text_replay_heads_each_block_of_an_evening_once():
    text = match_to_text(decode_and_replay((SAMPLES / "club-evening.json").read_text())).splitlines()
    assert text[2:6] == [
        "",
        "Block 1: Anna & Carla  vs  Bert & Dirk",
        "",
        "Deal 1: dealer Anna, no contract recorded",
    ]
    assert [line for line in text if line.startswith("Block 2:")] == [
        "Block 2: Anna & Bert  vs  Carla & Dirk"
    ]


def test_the_three_player_game_is_explained_in_one_sentence():
    assert match_to_text(replayed_sample("variant-three")).splitlines()[1] == (
        "Players: Anna, Bert, Carla; each deal the dealer plays alone against the other two, "
        "and each opponent scores their side's result"
    )


def replayed_sample(name: str) -> MatchResult:
    return decode_and_replay((SAMPLES / f"{name}.json").read_text())


def test_a_dealer_out_of_turn_on_a_scoresheet_line_is_reported_as_such():
    """Not mistaken for a scoresheet that disagrees with the cards."""
    doc = scoresheet_match(["Anna", "Bert", "Carla", "Dirk"], [(0, 0, 10), (2, 1, 4)])
    text = match_to_text(decode_and_replay(doc)).splitlines()
    assert "  ! deal 2 was dealt by Carla; by rotation it was Bert's turn" in text


def test_deals_after_the_match_was_won_are_named_with_the_score_it_was_won_at():
    doc = scoresheet_match(["Anna", "Bert", "Carla", "Dirk"], [(0, 0, 60), (1, 0, 50), (2, 1, 5)])
    assert [i.message for i in decode_and_replay(doc).irregularities] == [
        "the match was already decided at 110-0; deal 3 and any after it do not count"
    ]


def test_a_replay_records_illegal_plays_unless_asked_to_be_strict_and_tells_its_visitors():
    record = loads((SAMPLES / "illegal-plays.json").read_text())
    kinds = {v.kind.value for v in replay(record).violations}
    assert kinds >= {"revoke", "failed_to_overtake", "illegal_underbuy"}

    class CountDeals(ReplayVisitor):
        def __init__(self) -> None:
            self.seen: list[str] = []

        def begin_match(self, record: Record, result: MatchResult) -> None:
            self.seen.append("match")

    visitor = CountDeals()
    decode_and_replay((SAMPLES / "seed-trick.json").read_text(), visitors=[visitor])
    assert visitor.seen == ["match"]


def test_without_hands_a_partner_winning_by_a_trump_exempts_from_overtaking():
    """Trump ♦: seat 1 buys with 7♦; its partner, out of hearts, may then play 7♠ though it
    holds 8♦ (against an opponent winning it would have to buy)."""

    tricks = [[Card.parse(c) for c in line.split()] for line in ("QH 7D 8H 7S", "7C 8C 8D 9C")]
    assert first_illegal_play(tricks, 3, 1, Rules()) is None


def test_without_hands_the_dummy_may_play_under_its_dealer():
    """three_dummy, dealer 1: the dealer leads K♥ and its dummy may play J♥ holding A♥."""

    lines = ("7S 8S 9S AS", "KH 7H JH 8H", "QC 9C AH 7C")
    tricks = [[Card.parse(c) for c in line.split()] for line in lines]
    assert first_illegal_play(tricks, 1, 1, Rules(variant="three_dummy")) is None


def test_a_block_of_an_evening_ending_level_is_won_by_nobody():
    doc = json.loads((SAMPLES / "club-evening.json").read_text())
    doc["deals"][1]["recorded_score"]["points"] += 24
    text = match_to_text(decode_and_replay(json.dumps(doc))).splitlines()
    assert "Block 1, Anna & Carla  vs  Bert & Dirk (56-56): won by nobody (a tie)" in text
    assert text[-1] == "Blocks won: Anna 2, Bert 1, Carla 0, Dirk 1"


def test_an_evening_is_shown_as_an_evening_even_when_the_partners_stay():
    doc = json.loads((SAMPLES / "club-evening.json").read_text())
    doc["match"]["blocks"] = [doc["match"]["seats"]] * 3
    text = match_to_text(decode_and_replay(json.dumps(doc))).splitlines()
    assert text[1:4] == [
        "Club evening: the partners change every block",
        "",
        "Block 1: Anna & Carla  vs  Bert & Dirk",
    ]
    assert text[-2] == "Block 3, Anna & Carla  vs  Bert & Dirk (58-24): won by Anna & Carla"


def test_a_card_played_again_is_named_with_the_trick_it_was_played_in():
    """The last card of trick 1 led again in trick 2: a card played twice, not one missing from a hand."""
    deal = deal_dict(dealer=3, trump=1)
    first = deal["tricks"][0]
    deal["tricks"][1][0] = first[3]
    found = problems(document([deal]))
    assert f"club.jsonl:14: /deals/0/tricks/1/0: '{first[3]}' was already played in trick 1" in found


def test_a_card_of_another_players_hand_is_not_taken_for_a_face_down_table_card():
    doc = json.loads((SAMPLES / "variant-two-open.json").read_text())
    deal = doc["deals"][0]
    leader_card = deal["tricks"][0][0]
    other = next(c for c in deal["hands"][1] if c != leader_card)
    deal["tricks"] = [[leader_card, other]]
    with pytest.raises(InvalidRecordError) as caught:
        decode_and_replay(json.dumps(doc))
    messages = [p.describe() for p in caught.value.problems]
    assert f"/deals/0/tricks/0/1: '{other}' is not in Anna's hand in trick 1" in messages
