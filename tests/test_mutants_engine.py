"""The replay engine's reading of a record: the behaviours that mutation testing of ``engine/``
(``make mutate MODULE=manillen_replay/engine``) showed no other test defended."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from manillen_replay.cards import Card
from manillen_replay.engine import DealKind, ReplayVisitor, decode_and_replay, replay
from manillen_replay.engine.inferred import first_illegal_play
from manillen_replay.engine.report import match_to_json, match_to_text
from manillen_replay.engine.results import MatchResult
from manillen_replay.errors import IllegalPlayError, InvalidRecordError
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
    assert (
        f"/deals/0/tricks/0/1: '{down}' still lies face down on Anna's table in trick 1; a card a move "
        "turns up needs its `move` line" in messages
    )


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
        "capot", "score", "recorded_score", "score_mismatch", "penalties", "match_score", "counted", "tricks",
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
    # each block's score starts again: it is the block's, not the match's
    scores = [line for line in text if line.startswith("  block score: ")]
    assert scores and not any(line.startswith("  match score: ") for line in text)


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


def test_an_evening_a_deal_short_names_its_unfinished_block_and_has_no_team_result():
    """One scoresheet line left out: the evening read "ok" and its third block vanished without a
    word, and its JSON gave the last block's score and winner beside the first block's seats."""
    doc = json.loads((SAMPLES / "club-evening.json").read_text())
    del doc["deals"][-1]
    result = decode_and_replay(json.dumps(doc))
    text = match_to_text(result).splitlines()
    assert text[-2] == "Block 3 of 3 not finished: 11 of 12 deals; the evening was not finished"
    assert text[-1] == "Blocks won: Anna 2, Bert 1, Carla 1, Dirk 0"
    assert not result.finished and result.evening
    document = match_to_json(result)
    assert (document["final_score"], document["winner"], document["finished"]) == (None, None, False)
    # the block under way is in the JSON too, as the text says it: its seating, its score so far
    under_way = document["blocks"][-1]
    assert (under_way["block"], under_way["finished"], under_way["winner"], under_way["winners"]) == (
        3,
        False,
        None,
        [],
    )
    assert under_way["score"] == list(result.deals[-1].match_score)
    assert under_way["seats"] == list(result.deals[-1].names[:4])
    whole = match_to_json(decode_and_replay((SAMPLES / "club-evening.json").read_text()))
    assert (whole["final_score"], whole["winner"], whole["finished"]) == (None, None, True)
    assert "not finished" not in match_to_text(decode_and_replay((SAMPLES / "club-evening.json").read_text()))


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


# --------------------------------------------------------------------------- the calls of a deal

CAFE = {"cafe": {"blind_muil": True, "eternal_klop": True, "en_face": True, "redeal_small": True}}
SIX_SEATS = ["Anna", "Bert", "Carla", "Dirk", "Emiel", "Fien"]


def trump(seat: int, suit: str = "H") -> dict:
    return {"seat": seat, "call": "trump", "suit": suit}


def call(seat: int, name: str) -> dict:
    return {"seat": seat, "call": name}


def calls_refused(
    calls: list[dict], *, variant: str = "four", rules: dict | None = None, **deal
) -> list[str]:
    """The problems of a scoresheet deal dealt by Anna with these calls (no cards needed)."""
    seats = {"four": SIX_SEATS[:4], "three_dummy": SIX_SEATS[:3], "six_short": SIX_SEATS}[variant]
    match = {"seats": seats, "variant": variant, **({"rules": rules} if rules else {})}
    line = {"dealer": 0, "declarations": calls, "recorded_score": {"team": 0, "points": 5}, **deal}
    with pytest.raises(InvalidRecordError) as caught:
        decode_and_replay(json.dumps({"format": "manillen/1", "match": match, "deals": [line]}))
    return [p.describe() for p in caught.value.problems]


@pytest.mark.parametrize(
    ("calls", "options", "expected"),
    [
        ([call(4, "klop"), trump(0)], {}, ["0/seat: seat 4 does not exist: seats are 0 to 3"]),
        (
            [call(3, "klop"), call(1, "klop"), trump(0)],
            {"variant": "three_dummy"},
            [
                "0/seat: the dummy makes no calls: the dealer calls for it",
                "1: 'klop' comes after trump is made",
            ],
        ),
        ([trump(0), {"seat": 1, "call": "klop", "suit": "H"}], {}, ["1/suit: a 'klop' call takes no suit"]),
        (
            [call(1, "redeal"), call(1, "klop")],
            {"rules": CAFE},
            ["0: a redeal is the only call of its deal", "1: 'klop' comes after trump is made"],
        ),
        ([call(1, "redeal")], {"rules": CAFE}, ["0: only the dealer may demand a redeal, not Bert"]),
        (
            [call(0, "pass"), call(1, "klop"), trump(0)],
            {},
            ["0: 'pass' is only used in the six_short variant", "1: 'klop' comes after trump is made"],
        ),
        (
            [call(1, "pass"), trump(0)],
            {"variant": "six_short"},
            ["0: Bert may not pass: the choice of trump is with Anna"],
        ),
        (
            [call(0, "pass"), call(2, "pass"), call(4, "pass"), trump(4)],
            {"variant": "six_short"},
            ["2: the third teammate must choose trump and cannot pass"],
        ),
        (
            [call(0, "en_face"), call(2, "en_face"), trump(2)],
            {"rules": CAFE},
            ["1: en face cannot be passed back: the partner must make trump"],
        ),
        (
            [call(0, "en_face"), trump(0)],
            {},
            ["0: 'en_face' needs the cafe rule 'en_face' (match.rules.cafe)"],
        ),
        (
            [call(0, "en_face"), trump(0)],
            {"variant": "six_short", "rules": CAFE},
            ["0: en face needs a partner to pass to; 'six_short' has none"],
        ),
        ([call(1, "en_face"), trump(0)], {"rules": CAFE}, ["0: only the dealer may call en face, not Bert"]),
        (
            [trump(1), call(2, "klop"), trump(0)],
            {},
            ["0: Bert may not make trump: the dealer, Anna, chooses", "1: 'klop' comes after trump is made"],
        ),
        (
            [call(0, "en_face"), trump(0), trump(2)],
            {"rules": CAFE},
            ["1: Anna may not make trump: the choice is with Carla"],
        ),
        (
            [call(0, "en_face"), call(2, "blind_muil"), call(1, "klop"), trump(2)],
            {"rules": CAFE},
            [
                "1: a blind muil is called by the dealer before seeing the cards",
                "2: 'klop' comes after trump is made",
            ],
        ),
        (
            [call(0, "pass"), call(2, "blind_muil"), trump(2)],
            {"variant": "six_short", "rules": CAFE},
            ["1: a blind muil is called by the dealer before seeing the cards"],
        ),
        ([trump(0), trump(0, "S")], {}, ["1: 'trump' is out of order here"]),
        ([call(1, "klop"), trump(0)], {}, ["0: 'klop' comes after trump is made"]),
        ([call(2, "tegenklop"), trump(0)], {}, ["0: 'tegenklop' comes after trump is made"]),
        ([call(0, "en_face")], {"rules": CAFE}, [": after en face the partner's trump call is missing"]),
        (
            [call(0, "blind_muil")],
            {"rules": {"trump_choice": "turned_card"}, "turned": "JH"},
            ["0: no muil under trump_choice turned_card: the turned card's suit is trump"],
        ),
    ],
)
def test_a_call_out_of_turn_or_against_the_rules_is_refused_alone_where_it_stands(calls, options, expected):
    """Each wrong call is named once, at its place, and the calls after it are still read."""
    at = "/deals/0/declarations"
    assert calls_refused(calls, **options) == [at + ("" if w[0] == ":" else "/") + w for w in expected]


def test_two_teammates_may_pass_the_choice_of_trump_on_in_six_short():
    match = {"seats": SIX_SEATS, "variant": "six_short"}
    calls = [call(0, "pass"), call(2, "pass"), trump(4, "S")]
    line = {"dealer": 0, "declarations": calls, "recorded_score": {"team": 0, "points": 5}}
    deal = decode_and_replay(json.dumps({"format": "manillen/1", "match": match, "deals": [line]})).deals[0]
    assert (deal.chooser, deal.trump.english if deal.trump else None) == (4, "spades")


def test_a_redeal_with_tricks_is_refused_at_its_tricks():
    tricks = [["7H", "8H", "9H", "10H"]]
    assert calls_refused([call(0, "redeal")], rules=CAFE, tricks=tricks) == [
        "/deals/0/tricks: a redealt deal has no tricks"
    ]


# --------------------------------------------------------------------------- the cards of a deal


def replay_problems(doc: dict | bytes) -> list[str]:
    """The problems the replay finds in a record built in code, as the Record page builds its
    drafts: no decoding checked it first."""
    record = msgspec.convert(json.loads(doc) if isinstance(doc, bytes) else doc, Record)
    with pytest.raises(InvalidRecordError) as caught:
        replay(record, source="draft")
    return [p.describe().removeprefix("draft: ") for p in caught.value.problems]


def sample(name: str) -> dict:
    return json.loads((SAMPLES / f"{name}.json").read_text())


def four_player_deal(change) -> bytes:
    deal = deal_dict()
    change(deal)
    return document([deal])


def two_open(change) -> dict:
    doc = sample("variant-two-open")
    change(doc["deals"][0])
    return doc


def three(change) -> dict:
    doc = sample("variant-three")
    change(doc["deals"][0])
    return doc


def _set(key, value):
    return lambda deal: deal.__setitem__(key, value(deal) if callable(value) else value)


@pytest.mark.parametrize(
    ("doc", "expected"),
    [
        (
            four_player_deal(_set("hands", lambda d: d["hands"][:3])),
            ["/deals/0/hands: 4 hands are dealt, the record has 3"],
        ),
        (
            four_player_deal(lambda d: d["hands"][1].__setitem__(0, d["hands"][0][0])),
            ["/deals/0/hands/1/0: '8H' was dealt twice (also at /deals/0/hands/0/0)"],
        ),
        (
            four_player_deal(lambda d: d["hands"][0].__setitem__(0, "6H")),
            ["/deals/0/hands/0/0: '6H' is not in the deck of 'four'"],
        ),
        (
            four_player_deal(lambda d: d["hands"][0].append(d["hands"][1].pop())),
            [
                "/deals/0/hands/0: Anna's hand has 9 cards; each seat is dealt 8",
                "/deals/0/hands/1: Bert's hand has 7 cards; each seat is dealt 8",
            ],
        ),
        (four_player_deal(_set("table", [])), ["/deals/0/table: 'four' has no table cards"]),
        (four_player_deal(_set("discards", ["7H"])), ["/deals/0/discards: 'four' lays no cards aside"]),
        (
            two_open(lambda d: d.pop("table")),
            [
                "/deals/0/table: the table piles of Anna and Bert are missing: 4 piles each in 'two_open', "
                "a face-down card under a face-up one (in the notation a line `table Anna: 7S/10S QS/KD "
                "8H/7D 7C/10D`, face-down/face-up)"
            ],
        ),
        (
            two_open(lambda d: d["table"].__setitem__(0, d["table"][0][:3])),
            ["/deals/0/table/0: Anna has 4 table piles, the record 3"],
        ),
        (
            two_open(lambda d: d["table"][1][0].__setitem__(0, d["table"][0][0][0])),
            ["/deals/0/table/1/0/0: '7S' was dealt twice (also at /deals/0/table/0/0/0)"],
        ),
        (
            three(_set("discards", ["JH", "10H"])),
            ["/deals/0/discards/1: '10H' was dealt twice (also at /deals/0/hands/0/0)"],
        ),
        (
            three(_set("discards", ["JH"])),
            ["/deals/0/discards: 'three' lays 2 cards aside; the record gives 1"],
        ),
        (three(_set("discards", ["JH", "JH"])), ["/deals/0/discards: a card is laid aside twice"]),
    ],
)
def test_a_deal_whose_cards_do_not_make_the_deck_is_refused_at_the_card(doc, expected):
    """The replay checks the cards of a record built in code (a draft of the Record page) as
    the decoder checks a file's: each problem once, at the hand, pile or card."""
    assert replay_problems(doc) == expected


def test_the_replay_keeps_the_hands_the_table_and_the_cards_laid_aside():
    """What the analysis and the replay's pictures start from: the deal as dealt."""

    def mask(cards: list[str]) -> int:
        return sum(1 << int(Card.parse(card)) for card in cards)

    doc = sample("variant-two-open")
    deal = decode_and_replay(json.dumps(doc)).deals[0]
    given = doc["deals"][0]
    assert deal.hands == tuple(mask(hand) for hand in given["hands"])
    assert deal.table == tuple(
        tuple(tuple(int(Card.parse(card)) for card in pile) for pile in piles) for piles in given["table"]
    )
    doc = sample("variant-three")
    deal = decode_and_replay(json.dumps(doc)).deals[0]
    assert deal.discards == mask(doc["deals"][0]["discards"])
    assert deal.hands == tuple(mask(hand) for hand in doc["deals"][0]["hands"])


def without_hands(doc: dict, change) -> bytes:
    deal = doc["deals"][0]
    deal.pop("hands")
    deal.pop("recorded_score", None)
    change(deal["tricks"], deal)
    return json.dumps(doc).encode()


@pytest.mark.parametrize(
    ("doc", "expected"),
    [
        (
            without_hands(
                json.loads(four_player_deal(lambda d: None)),
                lambda tricks, _: tricks[1].__setitem__(0, tricks[0][3]),
            ),
            "/deals/0/tricks/1/0: 'QH' was already played in trick 1",
        ),
        (
            without_hands(
                json.loads(four_player_deal(lambda d: None)), lambda tricks, _: tricks[1].__setitem__(0, "6H")
            ),
            "/deals/0/tricks/1/0: '6H' is not in the deck of 'four'",
        ),
        (
            without_hands(
                sample("variant-three"), lambda tricks, deal: tricks[2].__setitem__(1, deal["discards"][0])
            ),
            "/deals/0/tricks/2/1: 'JH' was laid aside",
        ),
    ],
)
def test_a_deal_without_hands_is_refused_at_a_card_played_twice_laid_aside_or_not_in_the_deck(doc, expected):
    """The hands are rebuilt from the tricks: a card that cannot be in them is named where played."""
    assert problems(doc) == [f"club.jsonl:14: {expected}"]


# --------------------------------------------------------------------------- the plays


def test_a_three_dummy_deal_dealt_by_bert_is_led_by_carla_and_plays_as_if_anna_dealt():
    """The dummy sits opposite whoever deals: Bert's deal goes Bert, Carla, dummy, Anna, and the
    same cards seated one place on play out the same."""
    doc = sample("variant-three-dummy")
    anna_dealt = decode_and_replay(json.dumps(doc)).deals[0]
    deal = doc["deals"][0]
    hands = deal["hands"]
    deal["hands"] = [hands[2], hands[0], hands[1], hands[3]]
    deal["dealer"] = 1
    deal["declarations"][0]["seat"] = 1
    bert_dealt = decode_and_replay(json.dumps(doc)).deals[0]
    assert bert_dealt.tricks[0].leader == 2 and bert_dealt.tricks[0].seats == [2, 3, 0, 1]
    assert (bert_dealt.points, bert_dealt.score) == (anna_dealt.points, anna_dealt.score)


def test_each_play_keeps_the_cards_it_could_play_the_rule_that_said_so_and_who_was_winning():
    """What the analysis explains a play with (docs/findings.md): the legal cards, the clause,
    and the seat winning the trick after each card."""
    trick = decode_and_replay((SAMPLES / "seed-trick.json").read_text()).deals[0].tricks[0]
    assert [str(card) for card in trick.cards] == ["AC", "QC", "9D", "KD"]
    assert [clause.name for clause in trick.clauses] == ["LEAD", "FOLLOW", "ANY", "OVERBUY"]
    assert trick.winning == [0, 0, 2, 3]
    assert all(
        len(trick.legal) == 4 and legal >> int(card) & 1
        for legal, card in zip(trick.legal, trick.cards, strict=True)
    )
    assert trick.legal[3] & ~(1 << int(trick.cards[3])) == 0  # the over-buy with K♦ was the one card


def test_a_visitor_sees_every_play_with_the_hands_before_it_and_every_trick_once_taken():
    seen: list[tuple[int, int, bool]] = []
    taken: list[tuple[int, int | None, int]] = []

    class Watch(ReplayVisitor):
        def play(self, trick, position, hands_before) -> None:
            card = trick.cards[position]
            seen.append((trick.number, position, bool(hands_before[trick.seats[position]] >> int(card) & 1)))

        def end_trick(self, trick, result) -> None:
            taken.append((trick.number, trick.winner, result.number))

    tricks = decode_and_replay((SAMPLES / "seed-trick.json").read_text(), visitors=[Watch()]).deals[0].tricks
    assert seen == [(trick.number, position, True) for trick in tricks for position in range(4)]
    assert taken == [(trick.number, trick.winner, 1) for trick in tricks]
    assert taken[0] == (1, 3, 1)


def test_a_strict_replay_stops_at_the_first_illegal_play_naming_it_the_player_the_trick_and_the_file():
    data = (SAMPLES / "illegal-plays.json").read_text()
    first = replay(loads(data)).violations[0]
    with pytest.raises(IllegalPlayError) as caught:
        decode_and_replay(data, strict=True, source="evening.json")
    names = ["Anna", "Bert", "Carla", "Dirk"]
    assert str(caught.value) == (
        f"illegal play: '{first.card}' by {names[first.seat]} in trick {first.trick}: {first.kind.value} "
        "(evening.json)"
    )
    with pytest.raises(IllegalPlayError) as caught:
        decode_and_replay(data, strict=True)
    assert str(caught.value).endswith(first.kind.value)


def test_a_card_played_by_the_wrong_seat_is_the_only_problem_named():
    deal = deal_dict()
    first = deal["tricks"][0]
    first[1], first[2] = first[2], first[1]  # Bert leads: Dirk's card now comes in Carla's turn
    assert problems(document([deal])) == [
        f"club.jsonl:14: /deals/0/tricks/0/1: '{first[1]}' is not in Carla's hand in trick 1"
    ]


def test_a_table_move_is_kept_with_its_trick_and_play_and_may_leave_the_play_out():
    """A two-player deal's move of a face-down card: the seat's first play of the trick when the
    record gives no play."""
    doc = sample("variant-two-open")
    assert decode_and_replay(json.dumps(doc)).deals[0].table_moves == [(13, 2, 1)]
    del doc["deals"][0]["table_moves"][0]["play"]
    assert decode_and_replay(json.dumps(doc)).deals[0].table_moves == [(13, 2, 1)]


@pytest.mark.parametrize(
    ("variant", "move", "expected"),
    [
        (
            "variant-two-open",
            {"seat": 1, "trick": 13, "play": 1},
            "Bert plays no card there in trick 13 to move before",
        ),
        (
            "variant-two-open",
            {"seat": 1, "trick": 1},
            "Bert can move a card only from a 3rd pile of two to an emptied 4th place",
        ),
        ("variant-three-dummy", {"seat": 0, "trick": 2}, "Anna has no table cards to move"),
    ],
)
def test_a_table_move_that_cannot_be_made_is_refused_at_the_move(variant, move, expected):
    """The move alone is named: the deal stops there, and a variation written on it is not
    judged (it would be told the deal's cards were not played)."""
    doc = sample(variant)
    deal = doc["deals"][0]
    first = deal["tricks"][0][0]
    deal["annotations"] = [{"author": "Anna", "text": "as played", "trick": 1, "play": 1, "line": [first]}]
    moves = deal.setdefault("table_moves", [])
    moves.append(move)
    at = len(moves) - 1
    assert problems(json.dumps(doc).encode()) == [f"club.jsonl:14: /deals/0/table_moves/{at}: {expected}"]


def test_a_table_move_written_too_early_is_the_one_problem_not_the_card_it_would_uncover():
    """Bert's move of the A of hearts to his emptied 4th place written at trick 1 instead of 13,
    while his 4th pile still holds its cards: the move is refused, and the deal stops there (the
    9 of clubs under the ace, which he plays later, is not also named as not in his hand)."""
    doc = sample("variant-two-open")
    deal = doc["deals"][0]
    assert deal["table"][1][2] == ["9C", "AH"] and deal["table_moves"] == [
        {"seat": 1, "trick": 13, "play": 2}
    ]
    deal["table_moves"] = [{"seat": 1, "trick": 1}]
    assert problems(json.dumps(doc).encode()) == [
        "club.jsonl:14: /deals/0/table_moves/0: Bert can move a card only from a 3rd pile of two to "
        "an emptied 4th place"
    ]


def changed(doc: dict | bytes, *changes) -> dict:
    """The document with its first deal changed by each ``change(deal)`` in turn."""
    doc = json.loads(doc) if isinstance(doc, bytes) else doc
    for change in changes:
        change(doc["deals"][0])
    return doc


def _drop(*keys):
    return lambda deal: [deal.pop(key) for key in keys]


@pytest.mark.parametrize(
    ("doc", "expected"),
    [
        (
            changed(
                document([deal_dict()]),
                _drop("tricks"),
                _set("recorded_score", {"team": 0, "points": 5}),
                _set("hands", lambda d: d["hands"][:3]),
            ),
            "/deals/0/hands: 4 hands are dealt, the record has 3",
        ),
        (
            changed(document([deal_dict()]), _drop("tricks", "hands")),
            "/deals/0: a deal needs tricks, hands or a recorded_score",
        ),
        (
            changed(document([deal_dict()]), _drop("declarations")),
            "/deals/0/declarations: a deal with tricks or hands needs the trump call (declarations)"
            ": the suit the dealer "
            "chose, or muil (in the text notation `trump H` or `muil` on the deal's line)",
        ),
        (
            changed(document([deal_dict()]), lambda d: d["tricks"].append(d["tricks"][0])),
            "/deals/0/tricks/8: a deal has 8 tricks, this one 9: trick 9 repeats trick 1",
        ),
        (
            # a trick copied further on in a deal cut short: one problem, not each card again
            changed(document([deal_dict()]), lambda d: d["tricks"].__setitem__(5, d["tricks"][2])),
            "/deals/0/tricks/5: trick 6 repeats trick 3: the same cards in the same order (typed twice?)",
        ),
        (
            # a trick typed twice: said at the copy
            changed(document([deal_dict()]), lambda d: d["tricks"].insert(3, d["tricks"][2])),
            "/deals/0/tricks/3: a deal has 8 tricks, this one 9: trick 4 repeats trick 3",
        ),
        (
            changed(sample("variant-two-open"), _drop("hands")),
            "/deals/0/hands: 'two_open' needs the hands and the table cards",
        ),
        (
            changed(document([deal_dict()]), _drop("hands"), lambda d: d["tricks"].pop()),
            "/deals/0/tricks: 7 of 8 tricks and no hands: "
            "a deal may stop early only when its hands are given",
        ),
        (
            changed(sample("variant-three"), _drop("hands"), _set("discards", ["JH"])),
            "/deals/0/discards: 'three' lays 2 cards aside; the record gives 1",
        ),
        (
            changed(sample("variant-three"), _drop("hands", "discards")),
            "/deals/0/discards: 'three' lays 2 cards aside; the record gives 0",
        ),
    ],
)
def test_a_deal_missing_what_its_play_needs_is_refused_with_what_is_missing(doc, expected):
    assert replay_problems(doc) == [expected]


def test_a_deal_given_its_hands_and_trump_but_no_tricks_is_an_abandoned_deal():
    deal = deal_dict()
    del deal["tricks"]
    assert decode_and_replay(document([deal])).deals[0].kind is DealKind.ABANDONED


# --------------------------------------------------------------------------- redeals, blocks, the match


def test_a_redeal_against_the_rules_is_refused_with_the_rule():
    assert calls_refused([call(0, "redeal")]) == [
        "/deals/0/declarations/0: a redeal needs the cafe rule 'redeal_small' (match.rules.cafe)"
    ]
    assert calls_refused([call(0, "redeal")], variant="six_short", rules=CAFE) == [
        "/deals/0/declarations/0: the small-cards redeal needs eight-card hands; 'six_short' deals fewer"
    ]
    deal = deal_dict()
    deal["declarations"] = [call(0, "redeal")]
    del deal["tricks"]
    held = " ".join(deal["hands"][0])
    assert replay_problems(document([deal], rules=CAFE)) == [
        "/deals/0/declarations/0: a redeal needs five small cards (7, 8, 9) and a jack; "
        f"the dealer held {held}"
    ]


def redeal(dealer: int) -> dict:
    return {"dealer": dealer, "declarations": [call(dealer, "redeal")]}


def scored(dealer: int) -> dict:
    return {"dealer": dealer, "declarations": [trump(dealer)], "recorded_score": {"team": 0, "points": 5}}


def test_after_a_redeal_the_same_dealer_deals_again_but_not_a_third_time_in_a_row():
    deals = [redeal(0), redeal(0), scored(0), scored(1)]
    result = decode_and_replay(document(deals, rules=CAFE))
    assert [(deal.kind.value, deal.dealer) for deal in result.deals] == [
        ("redeal", 0), ("redeal", 0), ("scoresheet", 0), ("scoresheet", 1),
    ]  # fmt: skip
    assert result.irregularities == []
    moved_on = decode_and_replay(document([redeal(0), scored(1)], rules=CAFE))
    assert [(i.deal, i.message) for i in moved_on.irregularities] == [
        (2, "deal 2 was dealt by Bert; by rotation it was Anna's turn")
    ]
    assert problems(document([redeal(0), redeal(0), redeal(0)], rules=CAFE)) == [
        "club.jsonl:14: /deals/2/declarations/0: a third redeal in a row is not allowed: "
        "the third deal must be played"
    ]


def evening(change) -> dict:
    doc = sample("club-evening")
    change(doc)
    return doc


@pytest.mark.parametrize(
    ("doc", "expected"),
    [
        (
            evening(lambda doc: doc["match"]["blocks"][0].reverse()),
            "/match/blocks/0: the first block's seating must be match.seats",
        ),
        (
            evening(lambda doc: doc["match"]["blocks"].__setitem__(1, ["Anna", "Bert", "Carla", "Emiel"])),
            "/match/blocks/1: a block seats the same four players: Anna, Bert, Carla, Dirk",
        ),
        (
            evening(lambda doc: doc["match"].pop("rules")),
            "/match/blocks: blocks (a club evening) need the four-player game with format 'fixed'",
        ),
        (
            evening(lambda doc: doc["deals"].append(doc["deals"][-1])),
            "/deals/36: the club evening has 3 blocks of 12 deals; this deal is one too many",
        ),
        (
            changed(document([deal_dict()]), _set("dealer", 4)),
            "/deals/0/dealer: seat 4 does not exist: seats are 0 to 3",
        ),
        (
            json.loads(document([deal_dict()], seats=["Anna", "Bert", "Carla"])),
            "/match/seats: 'four' is played by 4 players, the record names 3"
            ": name every player, or give the variant played by 3 (three, three_dummy)",
        ),
        (
            json.loads(
                document([deal_dict()], rules={"trump_choice": "turned_card", "cafe": {"en_face": True}})
            ),
            "/match/rules: rule options 'trump_choice: turned_card' and 'cafe.en_face' conflict: "
            "the turned card makes trump, there is no choice to pass to the partner",
        ),
    ],
)
def test_a_match_whose_seats_blocks_or_dealer_do_not_fit_its_game_is_refused_at_them(doc, expected):
    assert replay_problems(doc) == [expected]


def redeal_with_hand(dealer_hand: str) -> bytes:
    """Anna's redeal, the hands given: hers, and the rest of the deck dealt to the others."""
    mine = dealer_hand.split()
    rest = [f"{rank}{suit}" for suit in "HDCS" for rank in ("7", "8", "9", "10", "J", "Q", "K", "A")]
    rest = [card for card in rest if card not in mine]
    hands = [mine, rest[:8], rest[8:16], rest[16:]]
    return document([{"dealer": 0, "hands": hands, "declarations": [call(0, "redeal")]}], rules=CAFE)


def test_a_redeal_takes_five_small_cards_and_a_jack_in_the_dealers_hand():
    assert decode_and_replay(redeal_with_hand("7H 8H 9H 7D 8D JH AH KH")).deals[0].kind is DealKind.REDEAL
    assert problems(redeal_with_hand("7H 8H 9H 7D 8D AH KH QH")) == [
        "club.jsonl:14: /deals/0/declarations/0: a redeal needs five small cards (7, 8, 9) and a jack; "
        "the dealer held 7H 8H 9H 7D 8D AH KH QH"
    ]
    assert problems(redeal_with_hand("7H 8H 9H JD AD AH KH QH"))[0].endswith(
        "the dealer held 7H 8H 9H JD AD AH KH QH"
    )


def test_a_redeal_may_give_an_empty_list_of_tricks():
    deal = redeal(0)
    deal["tricks"] = []
    assert decode_and_replay(document([deal], rules=CAFE)).deals[0].kind is DealKind.REDEAL


def test_an_archive_entry_is_replayed_as_coming_from_its_file_and_line(tmp_path: Path):
    """``manillen replay`` and the other commands read archives entry by entry: the result names
    the file and line, a strict replay stops at an illegal play, visitors see the match."""
    from manillen_replay.engine import replay_entry
    from manillen_replay.record import iter_entries

    illegal = json.dumps(json.loads((SAMPLES / "illegal-plays.json").read_text()))
    archive = tmp_path / "club.jsonl"
    archive.write_text(
        scoresheet_match(["Anna", "Bert"], [(0, 1, 5)], variant="two_open") + "\n" + illegal + "\n"
    )
    first, second = iter_entries([archive])
    seen: list[str] = []

    class Watch(ReplayVisitor):
        def begin_match(self, record: Record, result: MatchResult) -> None:
            seen.append(f"{' & '.join(record.match.seats)} at {result.source}")

    _, result = replay_entry(first, visitors=[Watch()])
    assert seen == [f"Anna & Bert at {archive}:1"] and result.source == f"{archive}:1"
    assert replay_entry(second)[1].violations
    with pytest.raises(IllegalPlayError):
        replay_entry(second, strict=True)


def test_every_deal_dealt_by_a_seat_that_does_not_exist_is_named():
    """The dummy is no dealer: seats are the people's."""
    deals = [scored(4), scored(0), scored(5)]
    assert problems(document(deals)) == [
        "club.jsonl:14: /deals/0/dealer: seat 4 does not exist: seats are 0 to 3",
        "club.jsonl:14: /deals/2/dealer: seat 5 does not exist: seats are 0 to 3",
    ]
    three = document([scored(3)], seats=["Anna", "Bert", "Carla"], variant="three_dummy")
    assert problems(three) == ["club.jsonl:14: /deals/0/dealer: seat 3 does not exist: seats are 0 to 2"]


def test_each_deal_with_wrong_calls_is_named_not_only_the_first():
    first, second = scored(0), scored(1)
    first["declarations"] = [trump(1)]
    second["declarations"] = [trump(2)]
    assert problems(document([first, second])) == [
        "club.jsonl:14: /deals/0/declarations/0: Bert may not make trump: the dealer, Anna, chooses",
        "club.jsonl:14: /deals/1/declarations/0: Carla may not make trump: the dealer, Bert, chooses",
    ]


def test_redeals_in_a_row_are_counted_from_the_last_played_deal():
    deals = [scored(0), redeal(1), redeal(1), scored(1)]
    assert [deal.kind.value for deal in decode_and_replay(document(deals, rules=CAFE)).deals] == [
        "scoresheet", "redeal", "redeal", "scoresheet",
    ]  # fmt: skip


def test_deals_played_on_after_the_match_was_won_are_flagged_once_and_none_counts():
    doc = scoresheet_match(["Anna", "Bert", "Carla", "Dirk"], [(0, 0, 60), (1, 0, 50), (2, 1, 5), (3, 1, 5)])
    result = decode_and_replay(doc)
    assert [(i.deal, i.kind.value) for i in result.irregularities] == [(3, "played_on_after_match_won")]
    assert [deal.counted for deal in result.deals] == [True, True, False, False]


def test_a_visitor_is_told_each_deal_as_it_begins():
    begun: list[tuple[int, int]] = []

    class Watch(ReplayVisitor):
        def begin_deal(self, deal, result) -> None:
            begun.append((deal.dealer, result.number))

    decode_and_replay(document([scored(0), scored(1)]), visitors=[Watch()])
    assert begun == [(0, 1), (1, 2)]


def test_a_variation_without_its_trick_and_play_is_refused_at_its_line():
    deal = deal_dict()
    deal["annotations"] = [{"author": "Anna", "text": "better", "line": [deal["tricks"][0][0]]}]
    assert problems(document([deal])) == [
        "club.jsonl:14: /deals/0/annotations/0/line: a variation starts at a play: give its trick and play"
    ]


def test_a_comment_on_a_trick_or_play_the_deal_has_not_is_refused_at_its_number():
    """A comment on trick 9 of eight, or on play 5 of a trick of four, was valid and stored
    against nothing."""
    deal = deal_dict()
    tricks = len(deal["tricks"])
    deal["annotations"] = [
        {"trick": tricks, "play": 4, "author": "Anna", "text": "the last card"},
        {"trick": tricks + 1, "author": "Anna", "text": "after the last trick"},
        {"trick": 2, "play": 5, "author": "Anna", "text": "a fifth card"},
    ]
    assert problems(document([deal])) == [
        f"club.jsonl:14: /deals/0/annotations/1/trick: there is no trick {tricks + 1} to comment on: "
        f"the deal has {tricks} tricks",
        "club.jsonl:14: /deals/0/annotations/2/play: there is no play 5 to comment on: trick 2 has 4 cards",
    ]
    sheet = json.loads(scoresheet_match(["Anna", "Bert", "Carla", "Dirk"], [(0, 0, 9)]))
    sheet["deals"][0]["annotations"] = [{"trick": 1, "author": "Anna", "text": "?"}]
    assert problems(json.dumps(sheet))[-1].endswith(
        "/deals/0/annotations/0/trick: there is no trick 1 to comment on: the deal has no tricks"
    )


# --------------------------------------------------------------------------- what a deal result keeps


def _mask(cards: list[str]) -> int:
    return sum(1 << int(Card.parse(card)) for card in cards)


def test_a_scoresheet_line_given_with_its_hands_keeps_them():
    """A scoresheet line may give the hands dealt (for the analysis), without the tricks."""
    deal = deal_dict()
    del deal["tricks"]
    deal["recorded_score"] = {"team": 1, "points": 7}
    result = decode_and_replay(document([deal])).deals[0]
    assert result.kind is DealKind.SCORESHEET
    assert result.hands == tuple(_mask(hand) for hand in deal["hands"])
    assert result.score is not None and (result.score.team, result.score.points) == (1, 7)


def test_a_deal_without_hands_keeps_the_hands_its_tricks_show_and_the_cards_laid_aside():
    """The hands rebuilt from the tricks are marked as inferred; the cards laid aside are kept."""
    doc = sample("variant-three")
    given = doc["deals"][0]
    hands = tuple(_mask(hand) for hand in given["hands"])
    with_hands = decode_and_replay(json.dumps(doc)).deals[0]
    assert (with_hands.hands, with_hands.hands_inferred) == (hands, False)
    del given["hands"]
    inferred = decode_and_replay(json.dumps(doc)).deals[0]
    assert (inferred.hands, inferred.hands_inferred) == (hands, True)
    assert inferred.discards == _mask(given["discards"])
    assert (inferred.points, inferred.score) == (with_hands.points, with_hands.score)


# --------------------------------------------------------------------------- trump_choice, at its place


def _house(name: str) -> dict:
    return json.loads((SAMPLES / f"house-{name}.json").read_text())


def _unscored(doc: dict) -> dict:
    doc["deals"][0].pop("recorded_score", None)
    return doc


@pytest.mark.parametrize(
    ("doc", "expected"),
    [
        (
            changed(_house("trump-turned-card"), _set("turned", "9H")),
            "/deals/0/turned: the turned card 9H is not in Carla's hand",
        ),
        (
            changed(_unscored(_house("trump-turned-card")), lambda d: d["declarations"][0].update(suit="S")),
            "/deals/0/declarations: JH was turned: hearts are trump, not spades",
        ),
        (
            {**_house("trump-turned-card"), "match": {**_house("trump-turned-card")["match"], "rules": {}}},
            "/deals/0/turned: a turned card needs the rule trump_choice: turned_card",
        ),
        (
            changed(
                _unscored(_house("trump-held-suit")),
                lambda d: d["declarations"][0].update(suit="H"),
                _set("tricks", []),
            ),
            "/deals/0/declarations/0: Dirk holds no hearts and may not make them trump "
            "(trump_choice held_suit: the trump is a suit in the hand): Dirk may call diamonds, clubs or "
            "spades, or muil",
        ),
    ],
)
def test_a_trump_against_trump_choice_is_refused_at_the_turned_card_or_the_call(doc, expected):
    assert replay_problems(doc) == [expected]


def _swap(deal: dict, first: tuple[str, int], second: tuple[str, int], card: str, other: str) -> None:
    """Swap ``card`` (in ``deal[first[0]][first[1]]``) with ``other`` (in the second place)."""
    a = deal[first[0]] if first[1] < 0 else deal[first[0]][first[1]]
    b = deal[second[0]] if second[1] < 0 else deal[second[0]][second[1]]
    a[a.index(card)], b[b.index(other)] = other, card


def test_under_held_suit_the_cards_laid_aside_count_as_held_by_the_trump_maker():
    """In ``three`` the dealer takes the card laid aside before choosing, and lays two aside
    after: a suit among those two was held when trump was made. In ``six_short`` whoever makes
    trump takes the cards laid aside, the dealer or a teammate the choice was passed to."""
    doc = sample("variant-three")
    doc["match"]["rules"] = {"trump_choice": "held_suit"}
    deal = doc["deals"][0]
    _swap(deal, ("hands", 0), ("discards", -1), "7C", "JH")  # Anna's one club laid aside
    for key in ("tricks", "recorded_score"):
        deal.pop(key)
    deal["declarations"] = [trump(0, "C")]
    assert decode_and_replay(json.dumps(doc)).deals[0].trump.name == "C"

    doc = sample("variant-six-short")
    doc["match"]["rules"] = {"trump_choice": "held_suit"}
    deal = doc["deals"][0]
    _swap(deal, ("hands", 2), ("hands", 0), "10H", "KD")  # Carla's hearts only among the aside
    for key in ("tricks", "recorded_score"):
        deal.pop(key)
    assert deal["declarations"][1] == trump(2, "H")
    assert decode_and_replay(json.dumps(doc)).deals[0].trump.name == "H"


# --------------------------------------------------------------------------- variations, visitors, evenings


def test_a_variation_that_plays_out_is_accepted_and_a_wrong_one_is_refused_at_its_card():
    deal = deal_dict()
    first = deal["tricks"][0]
    deal["annotations"] = [{"author": "Anna", "text": "as played", "trick": 1, "play": 1, "line": first}]
    assert decode_and_replay(document([deal])).deals[0].tricks[0].cards == [Card.parse(c) for c in first]
    deal["annotations"][0]["line"] = [first[0], first[0]]
    assert problems(document([deal]))[0].startswith("club.jsonl:14: /deals/0/annotations/0/line/1: ")
    doc = sample("variant-three")
    doc["deals"][0]["annotations"] = [
        {"author": "Anna", "text": "x", "trick": 1, "play": 1, "line": [doc["deals"][0]["tricks"][0][0]]}
    ]
    assert replay_problems(doc) == [
        "/deals/0/annotations/0/line: variations are for the four-player game, not 'three'"
    ]


def test_a_visitor_is_told_each_deal_scored_and_the_match_at_its_end():
    ended: list[tuple[int, int | None]] = []
    matches: list[tuple[tuple[int, ...], bool]] = []

    class Watch(ReplayVisitor):
        def end_deal(self, result) -> None:
            ended.append((result.number, None if result.score is None else result.score.points))

        def end_match(self, result) -> None:
            matches.append((tuple(result.final_score), result.finished))

    decode_and_replay(document([scored(0), scored(1)]), visitors=[Watch()])
    assert ended == [(1, 5), (2, 5)]
    assert matches == [((10, 0), False)]


@pytest.mark.parametrize(("deals", "blocks"), [(18, 1), (24, 2), (36, 3)])
def test_an_evening_stopped_within_a_block_closes_only_the_blocks_played_out(deals: int, blocks: int):
    """A club evening of three blocks of 12 deals: a block closes when its twelve deals are
    played, and the evening is finished only with its last block."""
    doc = sample("club-evening")
    doc["deals"] = doc["deals"][:deals]
    result = decode_and_replay(json.dumps(doc))
    assert [block.number for block in result.blocks] == list(range(1, blocks + 1))
    assert result.finished is (blocks == 3)


def test_a_redeal_whose_hands_stop_before_the_dealers_is_not_checked_against_them():
    """Only the dealer's hand shows whether a redeal was allowed; a record that gives fewer
    hands is taken at its word."""
    deal = redeal(2)
    deal["hands"] = [
        ["7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH"],
        ["7D", "8D", "9D", "10D", "JD", "QD", "KD", "AD"],
    ]
    assert decode_and_replay(document([deal], rules=CAFE)).deals[0].kind is DealKind.REDEAL


def test_the_dummys_table_move_is_kept_like_a_players():
    """``three_dummy``: the dummy's piles follow the two-player game's rule, a card of its 3rd
    pile moved to its emptied 4th place (the dealer moves it for the dummy, seat 3)."""
    doc = sample("variant-three-dummy")
    deal = doc["deals"][0]
    piles = deal["table"][3]
    piles[2], piles[3] = piles[3], piles[2]  # the 4th pile empties after trick 2, the 3rd holds two
    deal["table_moves"] = [{"seat": 3, "trick": 3}]
    result = decode_and_replay(json.dumps(doc)).deals[0]
    assert result.table_moves == [(3, 1, 3)]
    assert result.tricks[2].seats[0] == 3 and str(result.tricks[2].cards[0]) == "10D"


def test_a_match_without_an_id_keeps_the_id_archives_already_hold():
    """A match without ``match.id`` is known by an id made from its content: the same record
    always gets the same id, however its file is laid out, and a changed record another. The id
    is stored in every archive it was imported into (and in links to its pages), so the way it
    is made must not change: the one below is the id this record got when it was first stored."""
    doc = json.loads((SAMPLES / "seed-trick.json").read_text())
    del doc["match"]["id"]
    # the record as it was when the id below was first stored (the sample's comment was since
    # corrected: Bert could not know his queen would come home)
    doc["deals"][0]["annotations"] = [
        {"trick": 1, "play": 2, "author": "coach", "tags": ["good"],
         "text": "Vetten: Bert smears his queen on the trick Dirk will take."}
    ]  # fmt: skip
    stored = "m-80e3816da330f5b6"
    assert decode_and_replay(json.dumps(doc)).id == stored
    assert decode_and_replay(json.dumps(doc, indent=4)).id == stored
    doc["match"]["venue"] = "Elders"
    assert decode_and_replay(json.dumps(doc)).id not in (stored, "")
    assert decode_and_replay(json.dumps(doc)).id.startswith("m-")
    assert len(decode_and_replay(json.dumps(doc)).id) == len(stored)


# --------------------------------------------------------------------------- plays worked out beforehand


class _Plays:
    """A batch's plays as the engine asks for them (:class:`~manillen_replay.engine.results.BatchPlays`):
    here each row is one deal's tricks as the engine's own replay played them."""

    def __init__(self, rows: list[list]) -> None:
        self.rows = rows

    @property
    def trick_counts(self) -> list[int]:
        return [len(tricks) for tricks in self.rows]

    def tricks_of(self, row: int) -> list:
        from dataclasses import replace as copied

        return [
            copied(t, seats=list(t.seats), cards=list(t.cards), legal=list(t.legal)) for t in self.rows[row]
        ]


def _worked_out(result: MatchResult, trump_of=lambda deal: deal.trump) -> dict:
    """Each deal's plays as the bulk path hands them over (:class:`PlayedDeal`), made here from
    the engine's own replay: its tricks, the hands, the points, the illegal plays."""
    from manillen_replay.engine.replay import PlayedDeal
    from manillen_replay.rules import NO_TRUMP

    plays = _Plays([list(deal.tricks) for deal in result.deals])
    ready = {}
    for index, deal in enumerate(result.deals):
        trump = trump_of(deal)
        ready[index] = PlayedDeal(
            plays,
            index,
            NO_TRUMP if trump is None else int(trump),
            deal.hands,
            deal.points,
            list(deal.violations),
            len(deal.tricks),
        )
    return ready


def _emptied(ready: dict) -> dict:
    """The same hand-over with nothing played: taken, each deal would stop before its first trick."""
    from dataclasses import replace

    for played in ready.values():
        played.plays.rows[played.row].clear()
    return {index: replace(played, violations=[], tricks=0) for index, played in ready.items()}


def _deals(result: MatchResult) -> list[tuple]:
    return [
        (
            d.kind,
            d.hands,
            d.points,
            d.score,
            d.tie,
            [(v.trick, v.play, v.seat, v.card, v.kind, v.legal) for v in d.violations],
            [(t.number, t.seats, t.cards, t.winner, t.points) for t in d.tricks],
        )
        for d in result.deals
    ]


@pytest.mark.parametrize(
    "name",
    [
        "illegal-plays",
        "seed-trick",
        "muil",
        "klop-tegenklop",
        "house-trump-held-suit",  # a revoke in trick 2: the hand as it was then held the suit led
        "house-capot-double",
        "house-capot-fixed-60",
    ],
)
def test_plays_worked_out_beforehand_give_the_engines_own_result(name: str):
    """The bulk path works out the plays of many deals at once and hands them to the replay: the
    result (the illegal plays found again from each play's legal cards, the points, the score)
    is the engine's own."""
    record = loads((SAMPLES / f"{name}.json").read_text())
    engine = replay(record)
    taken = replay(record, played=_worked_out(engine))
    assert _deals(taken) == _deals(engine)
    assert (taken.score, taken.final_score, taken.winner) == (engine.score, engine.final_score, engine.winner)
    if name in ("illegal-plays", "house-trump-held-suit"):
        assert taken.violations and len(taken.violations) == len(engine.violations)
    if name == "house-trump-held-suit":
        assert [v.kind.value for v in taken.violations] == ["revoke"]
    if name.startswith("house-capot"):
        assert taken.deals[0].score is not None and taken.deals[0].score.points == 60


def test_a_deal_stopped_early_with_its_plays_worked_out_is_abandoned_unscored():
    deal = deal_dict()
    deal["tricks"] = deal["tricks"][:5]
    record = loads(document([deal]))
    engine = replay(record)
    taken = replay(record, played=_worked_out(engine))
    assert taken.deals[0].kind is DealKind.ABANDONED and taken.deals[0].score is None
    assert [t.number for t in taken.deals[0].tricks] == [1, 2, 3, 4, 5]


def test_plays_worked_out_for_another_trump_a_strict_replay_or_visitors_are_not_taken():
    """The replay takes the plays only for what they were worked out for: the same trump, and a
    replay that neither stops at an illegal play nor shows its plays to visitors."""
    record = loads((SAMPLES / "illegal-plays.json").read_text())
    engine = replay(record)
    wrong = _emptied(_worked_out(engine))
    other_trump = _emptied(_worked_out(engine, trump_of=lambda deal: (int(deal.trump) + 1) % 4))
    for ready, made_up in zip(other_trump.values(), wrong.values(), strict=True):
        assert ready.trump != made_up.trump
    assert _deals(replay(record, played=other_trump)) == _deals(engine)
    assert [d.kind for d in replay(record, played=wrong).deals] == [DealKind.ABANDONED] * 4
    with pytest.raises(IllegalPlayError):
        replay(record, played=wrong, strict=True)
    assert _deals(replay(record, played=wrong, visitors=[ReplayVisitor()])) == _deals(engine)
    muil = loads((SAMPLES / "muil.json").read_text())  # worked out for no trump, and taken
    emptied = _emptied(_worked_out(replay(muil)))
    assert {d.kind for d in replay(muil, played=emptied).deals} == {DealKind.ABANDONED}


def test_under_held_suit_after_en_face_the_partners_hand_decides():
    """Dirk deals holding no hearts and passes the choice to Bert (en face), who holds the Q♥:
    Bert may make hearts; clubs, which only Dirk holds, he may not."""
    doc = _unscored(_house("trump-held-suit"))
    doc["match"]["rules"] = {"trump_choice": "held_suit", "cafe": {"en_face": True}}
    deal = doc["deals"][0]
    deal["tricks"] = []
    deal["declarations"] = [call(3, "en_face"), trump(1, "H")]
    assert decode_and_replay(json.dumps(doc)).deals[0].trump.name == "H"
    _swap(deal, ("hands", 1), ("hands", 0), "KC", "JH")  # Bert's one club to Anna
    deal["declarations"] = [call(3, "en_face"), trump(1, "C")]
    assert replay_problems(doc) == [
        "/deals/0/declarations/1: Bert holds no clubs and may not make them trump "
        "(trump_choice held_suit: the trump is a suit in the hand): Bert may call hearts, diamonds or "
        "spades, or muil"
    ]


def test_a_klop_by_a_player_the_house_rule_leaves_out_names_who_may():
    doc = _house("klop-left-of-dealer")
    doc["deals"][0]["declarations"][1]["seat"] = 3  # Dirk, the third opponent
    assert replay_problems(doc) == [
        "/deals/0/declarations/1: Dirk may not klop: under klop_by left_of_dealer only Fien "
        "(the dealer's left) or that player's partner knocks"
    ]


def test_each_variation_of_a_deal_is_checked_at_its_own_place_with_the_players_names():
    """Comments without a variation are skipped, a variation without its play is refused at its
    line, and a variation whose first card the player does not hold at its first card."""
    deal = deal_dict()
    first = deal["tricks"][0]
    dealers = deal["hands"][0][0]
    deal["annotations"] = [
        {"author": "Anna", "text": "just a comment"},
        {"author": "Anna", "text": "from the lead", "trick": 1, "line": [first[0]]},
        {"author": "Anna", "text": "the dealer's card instead", "trick": 1, "play": 1, "line": [dealers]},
    ]
    assert problems(document([deal])) == [
        "club.jsonl:14: /deals/0/annotations/1/line: a variation starts at a play: give its trick and play",
        f"club.jsonl:14: /deals/0/annotations/2/line/0: Bert does not hold {dealers} "
        "at card 1 of the variation",
    ]


def test_plays_worked_out_for_a_trump_the_chooser_does_not_hold_are_refused_under_held_suit():
    """Dirk holds no hearts: the plays of a hearts deal, worked out beforehand, do not make the
    call legal under ``trump_choice: held_suit``."""
    doc = _unscored(_house("trump-held-suit"))
    doc["deals"][0]["declarations"][0]["suit"] = "H"
    doc["deals"][0]["tricks"] = doc["deals"][0]["tricks"][:1]  # stopped before hearts change who leads
    free = json.loads(json.dumps(doc))
    free["match"]["rules"] = {}
    ready = _worked_out(replay(loads(json.dumps(free))))
    with pytest.raises(InvalidRecordError) as refused:
        replay(loads(json.dumps(doc)), played=ready)
    assert [p.describe() for p in refused.value.problems] == [
        "/deals/0/declarations/0: Dirk holds no hearts and may not make them trump "
        "(trump_choice held_suit: the trump is a suit in the hand): Dirk may call diamonds, clubs or "
        "spades, or muil"
    ]


def test_a_redeal_built_in_code_may_give_an_empty_list_of_tricks():
    """The Record page builds its records in code, where a redeal's tricks may be an empty list
    rather than left out (a file's empty list is read as none)."""
    doc = json.loads(document([redeal(0)], rules=CAFE))
    doc["deals"][0]["tricks"] = []
    record = msgspec.convert(doc, Record)
    assert record.deals[0].tricks == []
    assert replay(record).deals[0].kind is DealKind.REDEAL
