"""The text notation's writer and the hints a bad trick gets: the behaviours that mutation testing
of ``record/text.py`` (``make mutate MODULE=manillen_replay/record/text.py``) showed no other test
defended. The writer's text is the one canonical form: each test states the exact lines written
for a match and that reading them gives the same match back."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from manillen_replay.engine import replay_entry
from manillen_replay.errors import InvalidRecordError, RecordError
from manillen_replay.record import Record, dumps, dumps_text, loads, loads_text
from manillen_replay.record.io import entries_of

NOTATION = Path(__file__).resolve().parent.parent / "data" / "notation"
SEATS = ["Anna", "Bert", "Carla", "Dirk"]
HEAD = "seats Anna Bert Carla Dirk\n"


def record_of(deals: list[dict[str, Any]], **match: Any) -> Record:
    """A match as the record layer decodes it (as a draft on the Record page becomes one)."""
    document = {"format": "manillen/1", "match": {"seats": SEATS, **match}, "deals": deals}
    return loads(json.dumps(document, ensure_ascii=False))


def scored(**deal: Any) -> dict[str, Any]:
    """Deal 1, dealt by Dirk, with the scoresheet's line and whatever else is given."""
    return {"dealer": 3, "recorded_score": {"team": 0, "points": 6}, **deal}


def written_lines(record: Record) -> list[str]:
    """The lines written for the match's deals, after the header and its blank line."""
    return dumps_text(record).split("\n\n", 1)[1].splitlines()


def round_trips(record: Record) -> bool:
    """Reading the written text gives the same match, and writing that gives the same text."""
    text = dumps_text(record)
    (back,) = loads_text(text)
    return dumps(back) == dumps(record) and dumps_text(back) == text


# --------------------------------------------------------------------------- penalties


@pytest.mark.parametrize(
    ("penalty", "line"),
    [
        ({"team": 1, "reason": "late"}, "  penalty Bert&Dirk late"),
        (
            {"team": 1, "points": 30, "reason": "looked at the cards"},
            "  penalty Bert&Dirk 30 looked at the cards",
        ),
        # a reason that starts with a digit would read as the points
        ({"team": 0, "reason": "30"}, '  penalty Anna&Carla "30"'),
        ({"team": 0, "points": 5, "reason": "3 cards shown"}, '  penalty Anna&Carla 5 "3 cards shown"'),
        # an empty reason would read as none, a '#' would start a comment
        ({"team": 1, "reason": ""}, '  penalty Bert&Dirk ""'),
        ({"team": 1, "reason": "shown # early"}, '  penalty Bert&Dirk "shown # early"'),
        ({"team": 1, "reason": " spaced"}, '  penalty Bert&Dirk " spaced"'),
        ({"team": 1, "reason": "x"}, "  penalty Bert&Dirk x"),
        ({"team": 1, "reason": "x7"}, "  penalty Bert&Dirk x7"),
        ({"team": 0}, "  penalty Anna&Carla"),
    ],
)
def test_a_penalty_is_written_with_its_reason_quoted_only_where_it_would_not_read_back(
    penalty: dict[str, Any], line: str
) -> None:
    record = record_of([scored(penalties=[penalty])])
    assert written_lines(record) == ["deal 1  dealer Dirk  score Anna&Carla 6", line]
    assert round_trips(record)


# --------------------------------------------------------------------------- notes


@pytest.mark.parametrize(
    ("note", "line"),
    [
        ({"author": "coach", "text": "general"}, "  note coach: general"),
        # a card as the author reads as a card only after a variation: quoted there, plain elsewhere
        ({"trick": 2, "author": "KH", "text": "x"}, "  note trick 2 KH: x"),
        (
            {"trick": 7, "play": 1, "line": ["10H", "8S"], "author": "KH", "text": "x"},
            '  note trick 7 play 1 line 10H 8S "KH": x',
        ),
        # the words of the note's line are quoted as an author, in any case
        ({"author": "trick", "text": "x"}, '  note "trick": x'),
        ({"author": "Play", "text": "x"}, '  note "Play": x'),
        ({"author": "LINE", "text": "x"}, '  note "LINE": x'),
        ({"author": "[", "text": "x"}, '  note "[": x'),
        ({"author": "tricks", "text": "x"}, "  note tricks: x"),
        # a call's word or the dummy's is quoted as an author, in any case, a capital X is not
        ({"author": "Score", "text": "x"}, '  note "Score": x'),
        ({"author": "Dummy", "text": "x"}, '  note "Dummy": x'),
        ({"author": "Xavier", "text": "x"}, "  note Xavier: x"),
        # a tag is quoted where a comma or a bracket would end it, and only there
        (
            {"author": "coach", "text": "x", "tags": ["Xmas", "a]", "[b", "c,d", "good"]},
            '  note coach [Xmas, "a]", "[b", "c,d", good]: x',
        ),
    ],
)
def test_a_note_is_written_with_its_author_and_tags_quoted_only_where_needed(
    note: dict[str, Any], line: str
) -> None:
    record = record_of([scored(annotations=[note])])
    assert written_lines(record)[-1] == line
    assert round_trips(record)


# --------------------------------------------------------------------------- hands, moves, names


def test_an_empty_hand_of_a_player_is_written_as_an_empty_hand_line() -> None:
    """A deal being recorded (the Record page's shared text) may have hands still empty: each
    player's hand line is written, so the text reads back as the same deal."""
    deal = {
        "dealer": 3,
        "hands": [["AC", "KC"], [], ["QC"], []],
        "declarations": [{"call": "trump", "suit": "H", "seat": 3}],
    }
    record = record_of([deal])
    assert written_lines(record) == [
        "deal 1  dealer Dirk  trump H",
        "  hand Anna: AC KC",
        "  hand Bert:",
        "  hand Carla: QC",
        "  hand Dirk:",
    ]
    assert round_trips(record)


@pytest.mark.parametrize(
    ("seats", "written"),
    [
        (["Xavier", "Bert", "Carla", "Dirk"], "seats Xavier Bert Carla Dirk"),
        # the words of the deal line read as calls, not names
        (["Anna", "Pass", "Carla", "KLOP"], 'seats Anna "Pass" Carla "KLOP"'),
        (["Anna", "Dealer", "Face", "Dirk"], 'seats Anna "Dealer" "Face" Dirk'),
        # quoted text keeps its letters as typed, not as JSON's escapes
        (["Jérôme V.", "Bert", "Zoë", "Dirk"], 'seats "Jérôme V." Bert Zoë Dirk'),
    ],
)
def test_a_name_is_quoted_when_it_holds_a_space_or_is_one_of_the_notations_words(
    seats: list[str], written: str
) -> None:
    record = record_of([scored()], seats=seats)
    assert dumps_text(record).splitlines()[0] == written
    assert round_trips(record)


def test_a_move_without_its_play_is_written_without_play() -> None:
    text = (NOTATION / "variant-two-open.mnl").read_text(encoding="utf-8")
    (record,) = loads_text(text.replace("move Bert trick 13 play 2", "move Bert trick 13"))
    assert "  move Bert trick 13" in written_lines(record)
    assert round_trips(record)


def test_a_seat_outside_the_variant_is_written_as_its_number_and_refused_when_read() -> None:
    """The record layer takes any seat up to the largest table's; the text keeps the number, so
    reading it back names the same seat instead of another player or the dummy."""
    record = record_of([{"dealer": 4, "recorded_score": {"team": 0, "points": 6}}])
    assert written_lines(record) == ["deal 1  dealer 4  score Anna&Carla 6"]
    with pytest.raises(InvalidRecordError) as caught:
        loads_text(dumps_text(record))
    assert [p.describe() for p in caught.value.problems] == [
        "line 3:16: unknown player '4' as dealer: expected one of Anna, Bert, Carla, Dirk (the seats line); "
        "a seat number counts from 0 (Anna) to 3"
    ]


@pytest.mark.parametrize(
    ("variant", "seats", "team", "score"),
    [
        ("four", ['"Jan P."', "Bert", "Carla", "Dirk"], 0, 'score "Jan P." 6'),
        ("four", ["Anna", "Bert", '"Carla V."', "Dirk"], 0, "score Anna 6"),
        ("four", ["Anna", '"Bert V."', "Carla", "Dirk"], 1, 'score "Bert V." 6'),
        ("two_open", ['"Jan P."', "Bert"], 0, 'score "Jan P." 6'),
    ],
)
def test_a_team_with_a_quoted_name_is_written_as_its_first_name(
    variant: str, seats: list[str], team: int, score: str
) -> None:
    """'&' between quoted names would not read back: one name, the team's first, stands for it."""
    names = [json.loads(s) if s.startswith('"') else s for s in seats]
    dealer = len(names) - 1
    record = loads(
        json.dumps(
            {
                "format": "manillen/1",
                "match": {"variant": variant, "seats": names},
                "deals": [{"dealer": dealer, "recorded_score": {"team": team, "points": 6}}],
            }
        )
    )
    assert written_lines(record) == [f"deal 1  dealer {seats[dealer]}  {score}"]
    assert round_trips(record)


# --------------------------------------------------------------------------- the header and the file


def test_matches_are_written_one_after_the_other_with_a_blank_line_between() -> None:
    first = record_of([scored()], id="a")
    second = record_of([scored()], id="b")
    one = "match {}\nseats Anna Bert Carla Dirk\n\ndeal 1  dealer Dirk  score Anna&Carla 6\n"
    text = dumps_text([first, second])
    assert text == one.format("a") + "\n" + one.format("b")
    assert [r.match.id for r in loads_text(text)] == ["a", "b"]


def test_the_rules_line_writes_a_list_with_commas_and_nested_rules_with_dots() -> None:
    record = record_of([scored()], rules={"target": 121, "extension": [151, 181], "cafe": {"en_face": True}})
    assert "rules target=121 extension=151,181 cafe.en_face=true" in dumps_text(record).splitlines()
    assert round_trips(record)


@pytest.mark.parametrize(
    ("venue", "line"),
    [
        ("Cafe De Zwaan", "venue Cafe De Zwaan"),
        ('"De Zwaan", Roeselare', 'venue "\\"De Zwaan\\", Roeselare"'),
        ('De "Zwaan"', 'venue De "Zwaan"'),
        ("Zwaan #2", 'venue "Zwaan #2"'),
    ],
)
def test_a_header_text_is_quoted_when_it_starts_with_a_quote_or_holds_a_hash(venue: str, line: str) -> None:
    record = record_of([scored()], venue=venue)
    assert dumps_text(record).splitlines()[0] == line
    assert round_trips(record)


# --------------------------------------------------------------------------- the hint a bad trick gets


def hinted(text: str) -> list[tuple[str, str | None]]:
    """Each problem of a text as `manillen validate` prints it, and its hint."""
    found: list[tuple[str, str | None]] = []
    for entry in entries_of(text.encode(), "game.mnl", "mnl"):
        try:
            replay_entry(entry)
        except InvalidRecordError as error:
            found += [(problem.describe(), getattr(problem, "hint", None)) for problem in error.problems]
    return found


def test_a_card_after_the_first_is_named_with_whose_card_it_is() -> None:
    """The hint counts the cards of the line round the table from the leader."""
    text = (NOTATION / "seed-trick.mnl").read_text(encoding="utf-8")
    (problem,) = hinted(text.replace("  10C 9C KS 7D\n", "  10C KS 9C 7D\n"))
    assert problem[0].startswith("game.mnl:14:7: 'KS' is not in Bert's hand in trick 3")
    assert problem[1] == (
        "Anna won trick 2, so trick 3 starts with Anna: the first card on the line is Anna's, "
        "card 2 is Bert's; KS was dealt to Carla"
    )


THREE_DUMMY = (NOTATION / "variant-three-dummy.mnl").read_text(encoding="utf-8")


def test_the_dummys_card_is_named_the_dummys_in_the_hint() -> None:
    (problem,) = hinted(THREE_DUMMY.replace("  10C 7D QC 9C\n", "  10C QC 7D 9C\n"))
    assert problem[0].startswith(
        "game.mnl:11:7: 'QC' is not on Anna's dummy's table in trick 1"
    )  # it has no hand
    assert problem[1] == (
        "Bert sits left of the dealer Anna, so trick 1 starts with Bert: the first card on the line "
        "is Bert's, card 2 is the dummy's; QC was dealt to Carla"
    )


def test_whose_card_the_hint_names_follows_the_dummys_place_for_any_dealer() -> None:
    """Dealt by Bert, the dummy sits between Carla and Anna: the second card is the dummy's."""
    text = THREE_DUMMY.replace("dealer Anna", "dealer Bert").replace("  10C 7D QC 9C\n", "  QC 10C 7D 9C\n")
    (problem,) = hinted(text)
    assert problem[0].startswith("game.mnl:11:6: '10C' is not on Bert's dummy's table in trick 1")
    assert problem[1] == (
        "Carla sits left of the dealer Bert, so trick 1 starts with Carla: the first card on the line "
        "is Carla's, card 2 is the dummy's; 10C was dealt to Bert"
    )


@pytest.mark.parametrize(
    ("tricks", "hint"),
    [
        # with the dummy opposite the dealer Bert, Carla sits at his left
        (
            "  QC 8C 7C\n",
            "Carla sits left of the dealer Bert, so trick 1 starts with Carla: the first card on the "
            "line is Carla's",
        ),
        # Carla, Bert's dummy, Anna and Bert play trick 1: its fourth card, the ace, is Bert's
        (
            "  QC 8C 7C AC\n  KD 8D 9D\n",
            "Bert won trick 1, so trick 2 starts with Bert: the first card on the line is Bert's",
        ),
    ],
)
def test_who_leads_a_trick_follows_the_dummys_place_for_any_dealer(tricks: str, hint: str) -> None:
    text = f"{THREE_DUMMY}\ndeal 2  dealer Bert  trump H\n{tricks}"
    ((said, given),) = hinted(text)
    assert "a trick has 4 cards, this one 3" in said
    assert given == hint


def test_a_problem_of_the_whole_match_is_placed_at_the_matchs_first_line() -> None:
    """A second match in a file: its own first line, not the file's."""
    text = f"match a\n{HEAD}deal 1 dealer Dirk score Anna 6\n\n# the next one\nmatch b\n{HEAD}"
    first, second = entries_of(text.encode(), "game.mnl", "mnl")
    for entry, line in ((first, 1), (second, 6)):
        for pointer in ("", "/match", "/nothing/here"):
            (placed,) = entry.locate([RecordError("the match is refused", pointer)])
            assert placed.describe() == f"game.mnl:{line}:1: the match is refused"


# --------------------------------------------------------------------------- a club evening's blocks

BLOCKS = (
    "seats Anna Bert Carla Dirk\n"
    "rules cafe.redeal_small=true format=fixed deals=2\n"
    "blocks Anna Bert Carla Dirk / Anna Carla Bert Dirk\n"
)
"""Blocks of two deals: Anna plays with Carla in the first, with Bert in the second."""
SEED = (NOTATION / "seed-trick.mnl").read_text(encoding="utf-8")
SEED_START = "".join(SEED.splitlines(keepends=True)[6:13])
"""The seed deal (dealt by Dirk) with its hands and its first two tricks only: an abandoned deal."""


@pytest.mark.parametrize(
    "before",
    [
        "deal 1  dealer Anna  score Anna&Carla 6\n",
        # a redeal counts for no block, score written or not
        "deal 1  dealer Anna  redeal\n\ndeal 2  dealer Anna  score Anna&Carla 6\n",
        "deal 1  dealer Anna  redeal  score Anna&Carla 6\n\ndeal 2  dealer Anna  score Anna&Carla 6\n",
        # nor does an abandoned deal (its hands, fewer tricks and no score)
        SEED_START + "\ndeal 2  dealer Anna  score Anna&Carla 6\n",
    ],
)
def test_each_deal_is_written_with_the_names_of_its_blocks_seating(before: str) -> None:
    """The block's size is the rules' ``deals``: after two counted deals Anna plays with Bert, and
    the dealer, the fourth seat's turn, is Bert in the second block's seating."""
    number = sum(line.startswith("deal ") for line in before.splitlines()) + 1
    last = (
        f"deal {number}  dealer Bert  score Anna&Carla 6\n\n"
        f"deal {number + 1}  dealer Bert  score Anna&Bert 6\n"
    )
    text = f"{BLOCKS}\n{before}\n{last}"
    assert dumps_text(loads_text(text)[0]) == text


FIRST_DEALS = SEED.splitlines(keepends=True)[6:19]
"""The seed deal, dealt by Dirk: its deal line, four hands and eight tricks."""


@pytest.mark.parametrize(
    ("first", "team"),
    [
        # a played deal counts for its block, with its score or without
        ("".join(FIRST_DEALS), "Anna&Bert"),
        # so does a deal of its hands and a score, and none of its tricks
        ("".join(FIRST_DEALS[:5]) + "  score Anna&Carla 6\n", "Anna&Bert"),
        # a deal stopped after two tricks is abandoned, its score or not
        ("".join(FIRST_DEALS[:7]) + "  score Anna&Carla 6\n", "Anna&Carla"),
    ],
)
def test_a_deal_with_its_hands_counts_for_its_block_when_played_or_scored_without_tricks(
    first: str, team: str
) -> None:
    """As the replay counts them: deal 3 is in the second block (Anna plays with Bert) only when
    deal 1 counted."""
    text = (
        f"{BLOCKS}\n{first}\ndeal 2  dealer Anna  score Anna&Carla 6\n\ndeal 3  dealer Bert  score {team} 6\n"
    )
    assert dumps_text(loads_text(text)[0]) == text


@pytest.mark.parametrize(
    ("rules", "text", "said"),
    [
        # a block of one deal: Anna plays with Bert from the second
        ("format=fixed deals=1", "score Anna&Bert 6", []),
        # without the rule, a block is the rules' 12 deals
        ("format=fixed", "score Anna&Carla 6", []),
        ("deals=0", "score Anna&Carla 6", ["game.mnl:2:7: 0 is out of range (minimum 1)"]),
    ],
)
def test_a_blocks_number_of_deals_is_the_rules_deals(rules: str, text: str, said: list[str]) -> None:
    typed = (
        f"{HEAD}rules {rules}\nblocks Anna Bert Carla Dirk / Anna Carla Bert Dirk\n"
        f"deal 1 dealer Anna score Anna&Carla 6\ndeal 2 {text}\n"
    )
    assert [problem for problem, _ in hinted(typed)] == said


def test_en_face_without_a_partner_is_refused_by_the_replay_not_read_as_a_missing_name() -> None:
    """After en face in a game without partners, the trump call without a name is still the
    dealer's: the replay then says why en face is refused."""
    text = "variant three\nseats Anna Bert Carla\nrules cafe.en_face=true\n"
    text += "deal 1 dealer Anna en face trump H\n  score Anna 6\n"
    assert [problem for problem, _ in hinted(text)] == [
        "game.mnl:4:20: en face needs a partner to pass to; 'three' has none"
    ]
