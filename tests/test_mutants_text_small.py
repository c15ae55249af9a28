"""The text notation ``.mnl``, its small helpers: the behaviours that mutation testing of
``record/text.py`` (``make mutate MODULE=manillen_replay/record/text.py``) showed no other test
defended in the splitting of a file into matches, the ``blocks`` line, a line's cards, a hand's or
a table's owner and cards, the numbers of a move or a note, and the place of a bad line: what a
typed line means, and the file, line, column and words a bad one gets."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from manillen_replay.cli import cli
from manillen_replay.errors import InvalidRecordError
from manillen_replay.record import loads_text
from manillen_replay.record.text import parse_located, parse_match, split_matches

from .test_mutants_text import HEAD, SCORED, problems, read

# --------------------------------------------------------------------------- matches of a file


def test_a_match_line_after_content_starts_the_next_match_at_its_own_line() -> None:
    text = "# friday\n\nMatch a\n" + SCORED + "\n# second\nmatch b\n" + SCORED
    assert split_matches(text) == [
        (1, "# friday\n\nMatch a\n" + SCORED + "\n# second\n"),
        (8, "match b\n" + SCORED),
    ]
    assert [record.match.id for record in loads_text(text)] == ["a", "b"]


def test_a_match_whose_name_has_several_words_still_starts_the_next_match() -> None:
    text = "match club night\n" + SCORED + "match second round\n" + SCORED
    assert [first for first, _ in split_matches(text)] == [1, 4]
    assert [record.match.id for record in loads_text(text)] == ["club night", "second round"]


@pytest.mark.parametrize("comment", ["## friday", "# friday # round 2", "   #a #b"])
def test_a_comment_holding_several_hashes_is_no_content_before_the_match(comment: str) -> None:
    text = comment + "\nmatch a\n" + SCORED
    assert split_matches(text) == [(1, text)]
    assert [record.match.id for record in loads_text(text)] == ["a"]


def test_the_matches_of_a_text_carry_no_byte_order_mark() -> None:
    assert split_matches("\ufeffmatch a\n" + SCORED) == [(1, "match a\n" + SCORED)]


@pytest.mark.parametrize("text", ["", "\n", "  \n\t\n"])
def test_a_blank_text_holds_no_match(text: str) -> None:
    assert split_matches(text) == []
    assert loads_text(text) == []


def test_a_text_of_comments_only_is_told_so_at_its_first_line() -> None:
    assert split_matches("# friday\n\n# nothing yet\n") == [(1, "# friday\n\n# nothing yet\n")]
    with pytest.raises(InvalidRecordError) as raised:
        loads_text("# friday\n\n# nothing yet\n", source="club.mnl")
    assert [problem.describe() for problem in raised.value.problems] == [
        "club.mnl:1:1: no match here: the text holds only # comments"
    ]


def test_a_bad_line_of_a_later_match_is_placed_in_its_file() -> None:
    text = "match a\n" + SCORED + "\nmatch b\n" + HEAD + "foo bar\n"
    with pytest.raises(InvalidRecordError) as raised:
        loads_text(text, source="club.mnl")
    assert [problem.describe() for problem in raised.value.problems] == [
        "club.mnl:7:1: expected a header line (match, date, venue, event, notes, variant, seats, "
        "rules, blocks) or a 'deal' line, found 'foo'"
    ]


@pytest.mark.parametrize("reader", [parse_match, parse_located])
def test_a_match_read_alone_counts_its_lines_from_1(reader: Callable[[str], object]) -> None:
    with pytest.raises(InvalidRecordError) as raised:
        reader(HEAD + "foo bar\n")
    assert [problem.describe() for problem in raised.value.problems] == [
        "line 2:1: expected a header line (match, date, venue, event, notes, variant, seats, "
        "rules, blocks) or a 'deal' line, found 'foo'"
    ]


# --------------------------------------------------------------------------- the blocks line

FIXED = HEAD + "rules format=fixed\n"


def test_a_blocks_line_splits_at_a_slash_or_a_bar_but_not_a_quoted_one() -> None:
    record = read(FIXED + 'blocks Anna Bert Carla Dirk | Anna Carla Bert Dirk / "|" Bert Carla Dirk\n')
    assert record.match.blocks == [
        ["Anna", "Bert", "Carla", "Dirk"],
        ["Anna", "Carla", "Bert", "Dirk"],
        ["|", "Bert", "Carla", "Dirk"],
    ]


def test_a_bad_block_is_placed_at_its_first_name_and_named() -> None:
    text = FIXED + "blocks  Anna Bert Carla Dirk | Anna Carla Bert\ndeal 1 dealer Dirk score Anna 6\n"
    assert problems(text) == [
        "game.mnl:3:32: block 2 seats Anna, Carla, Bert: a block seats the same four players: "
        "Anna, Bert, Carla, Dirk"
    ]
    # a name mistyped in a block is said at the blocks line, not at a deal of that block
    text = FIXED + "blocks  Anna Bert Carla Dirk | Anna Carla Bert Dirk | Anna Bert Dirk Carl\n"
    assert problems(text + "deal 1 dealer Dirk score Anna 6\n") == [
        "game.mnl:3:70: block 3 seats 'Carl', who is not on the seats line: a block seats the same four "
        "players: Anna, Bert, Carla, Dirk"
    ]


def test_a_deal_past_the_last_block_is_one_too_many() -> None:
    """A block left out of the blocks line read as a deal whose team was "not on one team"."""
    text = FIXED.replace("format=fixed", "format=fixed deals=1")
    text += "blocks  Anna Bert Carla Dirk | Anna Carla Bert Dirk\n"
    text += "deal 1 dealer Dirk score Anna 6\n" + "".join(f"deal {n} score Anna 6\n" for n in range(2, 4))
    assert problems(text) == [
        "game.mnl:6:1: the club evening has 2 blocks of 1 deal (the blocks line); this deal is one too many"
    ]


# --------------------------------------------------------------------------- a hand's or table's owner


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("hand : 7H", "game.mnl:3:5: expected 'hand NAME: cards'"),
        ("  hand   : 7H", "game.mnl:3:7: expected 'hand NAME: cards'"),
        ("table : 7S/10S", "game.mnl:3:6: expected 'table NAME: cards'"),
        ("hand", "game.mnl:3:5: expected 'hand NAME: cards'"),
        ("hand Anna Bert: 7H", "game.mnl:3:11: expected 'hand NAME: cards'"),
    ],
)
def test_a_hand_or_table_without_its_owner_is_told_so_after_its_word(line: str, said: str) -> None:
    assert problems(SCORED + line + "\n") == [said]


def test_a_table_without_a_colon_reads_its_owner_then_its_piles() -> None:
    assert problems(SCORED + "table Anna 7S/10S KD/QD\n") == []
    assert read(SCORED + "table Anna 7S/10S KD/QD\n").deals[0].table == [
        [["7S", "10S"], ["KD", "QD"]],
        [],
        [],
        [],
    ]
    assert read(SCORED + "table Bert: 7S/10S\n").deals[0].table == [[], [["7S", "10S"]], [], []]


def test_an_owner_alone_has_an_empty_hand_or_table() -> None:
    assert read(SCORED + "table Anna\n").deals[0].table == [[], [], [], []]
    hands = "hand Anna\nhand Bert: 7H\nhand Carla\nhand Dirk\n"
    assert read(SCORED + hands).deals[0].hands == [[], ["7H"], [], []]


# --------------------------------------------------------------------------- numbers

AT_MOST = "is too large: a number has at most 9 digits"
TOO_LARGE = f"1234567890... {AT_MOST}"


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("move Anna trick 1234567890", f"game.mnl:3:17: {TOO_LARGE}"),
        ("note trick 1234567890 Anna: x", f"game.mnl:3:12: {TOO_LARGE}"),
    ],
)
def test_a_trick_number_of_ten_digits_is_refused_at_the_number(line: str, said: str) -> None:
    assert problems(SCORED + line + "\n") == [said]


@pytest.mark.parametrize(
    ("line", "said"),
    [
        # nine digits are a number the rules can refuse; ten are too many to read
        ("move Anna trick 123456789", "game.mnl:3:1: 123456789 is out of range (maximum 16)"),
        ("note trick 123456789 Anna: x", "game.mnl:3:1: 123456789 is out of range (maximum 16)"),
        # a long number is shown by its first 12 digits
        (
            "move Anna trick 12345678901234",
            "game.mnl:3:17: 123456789012... is too large: a number has at most 9 digits",
        ),
    ],
)
def test_a_number_of_nine_digits_is_read_and_a_longer_one_shown_by_its_start(line: str, said: str) -> None:
    assert problems(SCORED + line + "\n") == [said]


# --------------------------------------------------------------------------- the place of a bad line


def test_a_variation_of_cards_only_is_told_it_lacks_its_author() -> None:
    assert problems(SCORED + "note line AH KH: text\n") == [
        "game.mnl:3:16: expected the author of the note before ':'"
    ]


def test_validate_gives_a_bad_line_its_line_and_column_and_no_json_pointer(tmp_path: Path) -> None:
    game = tmp_path / "game.mnl"
    game.write_text(SCORED + "hand : 7H\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["validate", "--json", str(game)])
    assert result.exit_code == 1
    (record,) = json.loads(result.stdout)["records"]
    assert record["problems"] == [
        {
            "source": str(game),
            "line": 3,
            "pointer": "",
            "message": "expected 'hand NAME: cards'",
            "column": 5,
            "hint": None,
        }
    ]


# --------------------------------------------------------------------------- the rules line


@pytest.mark.parametrize(
    ("rules", "said"),
    [
        ("rules target=12345678901234", f"game.mnl:2:14: 123456789012... {AT_MOST}"),
        ("rules extension=1234567890,1234567890", f"game.mnl:2:17: 1234567890... {AT_MOST}"),
        ("rules  extension=121,1234567890", f"game.mnl:2:22: 1234567890... {AT_MOST}"),
        # the same digits inside an earlier part of the list: placed at the part refused
        ("rules extension=x1234567890,1234567890", f"game.mnl:2:29: 1234567890... {AT_MOST}"),
        ("rules extension=1234567890a,1234567890", f"game.mnl:2:29: 1234567890... {AT_MOST}"),
    ],
)
def test_a_rule_number_too_long_is_placed_at_its_own_part_of_the_list(rules: str, said: str) -> None:
    assert problems(HEAD + rules + "\ndeal 1 dealer Dirk score Anna 6\n") == [said]
