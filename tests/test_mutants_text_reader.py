"""The text notation ``.mnl``, its reader: the behaviours that mutation testing of
``record/text.py`` (``make mutate MODULE=manillen_replay/record/text.py``) showed no other test
defended in the splitting of a line into words, a note's tags, the reading of the lines in turn
and the making of each deal: what a typed line means, and the line, column and words a bad one
gets."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner

from manillen_replay.cli import cli
from manillen_replay.record import Record
from manillen_replay.record.text import parse_located, parse_match

from .test_mutants_text import HEAD, SCORED, problems, read

# --------------------------------------------------------------------------- the lines in turn


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("# only a comment\n", "game.mnl:1:1: no match here: the text holds only # comments"),
        ("\n   \n# a comment\n\n", "game.mnl:1:1: no match here: the text holds only # comments"),
        (
            "venue Kortrijk\n",
            "game.mnl:1:1: expected a 'seats' line naming the players clockwise, seat 0 first",
        ),
        # placed at the match's first line that holds something
        (
            "\n# friday\nmatch a\nvenue Kortrijk\n",
            "game.mnl:3:1: expected a 'seats' line naming the players clockwise, seat 0 first",
        ),
        # and in a file of several matches, at the line of the file where that match starts
        (
            "match a\n" + SCORED + "\nmatch b\n\nvenue Kortrijk\n",
            "game.mnl:5:1: expected a 'seats' line naming the players clockwise, seat 0 first",
        ),
        (
            HEAD + "foo bar\n",
            "game.mnl:2:1: expected a header line (match, date, venue, event, notes, variant, seats, "
            "rules, blocks) or a 'deal' line, found 'foo'",
        ),
        (
            HEAD + '  "Anna" bar\n',
            "game.mnl:2:3: expected a header line (match, date, venue, event, notes, variant, seats, "
            "rules, blocks) or a 'deal' line, found 'Anna'",
        ),
    ],
)
def test_a_text_without_a_match_or_its_seats_is_told_so_at_its_first_line(text: str, said: str) -> None:
    assert problems(text) == [said]


def test_validate_gives_a_problem_of_the_text_itself_no_json_pointer(tmp_path: Path) -> None:
    """A problem with the text as a whole is placed by line and column; it has no pointer into a
    JSON record (there is none yet)."""
    game = tmp_path / "game.mnl"
    game.write_text("# nothing recorded yet\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["validate", "--json", str(game)])
    assert result.exit_code == 1
    (record,) = json.loads(result.stdout)["records"]
    assert record["problems"] == [
        {
            "source": str(game),
            "line": 1,
            "pointer": "",
            "message": "no match here: the text holds only # comments",
            "column": 1,
            "hint": None,
        }
    ]


@pytest.mark.parametrize("read_one", [parse_match, lambda text: parse_located(text).record])
def test_the_match_readers_skip_a_byte_order_mark(read_one: Callable[[str], Record | None]) -> None:
    """The functions the file readers call for one match take its text with the byte-order mark
    an editor may have saved at its start, as `loads_text` does."""
    record = read_one("\ufeff" + SCORED)
    assert record is not None
    assert record.match.seats == ["Anna", "Bert", "Carla", "Dirk"]
    assert msgspec.to_builtins(record.deals[0].recorded_score) == {"team": 0, "points": 6}


# --------------------------------------------------------------------------- a line's words


@pytest.mark.parametrize(
    ("typed", "seats", "score"),
    [
        # a quote right after a word starts a quoted name; a # right after a word starts a comment
        ('seats Anna"Bert Smit" Carla Dirk', ["Anna", "Bert Smit", "Carla", "Dirk"], 6),
        ("seats Anna Bert Carla Dirk#clockwise", ["Anna", "Bert", "Carla", "Dirk"], 6),
    ],
)
def test_a_word_ends_at_a_quote_or_a_comment_written_against_it(
    typed: str, seats: list[str], score: int
) -> None:
    record = read(f"{typed}\ndeal 1 dealer Dirk score Anna {score}#the sheet\n")
    assert record.match.seats == seats
    assert msgspec.to_builtins(record.deals[0].recorded_score) == {"team": 0, "points": score}


def test_a_quoted_word_ends_at_its_closing_quote() -> None:
    """What follows the closing quote is the next word, even without a space."""
    record = read(f'{HEAD}deal 1 dealer "Dirk"trump H score Anna 6\n  penalty "Bert" 5 late\n')
    (deal,) = msgspec.to_builtins(record.deals)
    assert deal["dealer"] == 3
    assert deal["declarations"] == [{"seat": 3, "call": "trump", "suit": "H"}]
    assert deal["penalties"] == [{"team": 1, "points": 5, "reason": "late"}]


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        (
            'deal 1 dealer "Eva" score Anna 6',
            "2:15: unknown player 'Eva' as dealer: expected one of Anna, Bert, Carla, Dirk (the seats line)",
        ),
        (
            'deal 1 dealer Dirk klop "Eva"',
            "2:25: unknown player 'Eva' as the player who says klop: expected one of Anna, Bert, Carla, "
            "Dirk (the seats line)",
        ),
    ],
)
def test_a_quoted_word_is_placed_at_its_opening_quote(typed: str, said: str) -> None:
    assert problems(f"{HEAD}{typed}\n") == [f"game.mnl:{said}"]


@pytest.mark.parametrize(
    ("typed", "note"),
    [
        ("note coach:text", {"author": "coach", "text": "text"}),
        ('note coach:"quoted"  ', {"author": "coach", "text": "quoted"}),
        ("note coach [good]:see: this", {"author": "coach", "tags": ["good"], "text": "see: this"}),
        ('note "Anna B" [good]: well', {"author": "Anna B", "tags": ["good"], "text": "well"}),
        ('note coach ["a:b"]: c', {"author": "coach", "tags": ["a:b"], "text": "c"}),
    ],
)
def test_a_notes_text_starts_right_after_its_first_colon(typed: str, note: dict[str, object]) -> None:
    """The first ``:`` outside quotes ends the author and tags; the text is all that follows it."""
    (read_note,) = read(f"{SCORED}  {typed}\n").deals[0].annotations  # type: ignore[misc]
    assert msgspec.to_builtins(read_note) == note


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ('  note coach: "open', "3:15: this quoted text has no closing quote"),
        ('  penalty Anna 5 "late', "3:18: this quoted text has no closing quote"),
        ('seats "Anna Bert Carla Dirk', "1:7: this quoted text has no closing quote"),
    ],
)
def test_a_quote_left_open_is_named_at_the_quote(typed: str, said: str) -> None:
    text = typed + "\n" if typed.startswith("seats") else f"{SCORED}{typed}\n"
    assert problems(text) == [f"game.mnl:{said}"]


def test_a_colon_inside_a_comment_does_not_end_a_notes_author() -> None:
    # the missing colon is named where the note's words end, not at the comment's end
    assert problems(f"{SCORED}  note coach # later: x\n") == [
        "game.mnl:3:13: expected 'note [trick T [play P]] AUTHOR [tags]: text'"
    ]
    assert problems(f'{SCORED}  note trick 1 "Anna B" [good]   # later: x\n') == [
        "game.mnl:3:31: expected 'note [trick T [play P]] AUTHOR [tags]: text'"
    ]
    assert problems(f"{SCORED}  note # later: x\n") == [
        "game.mnl:3:7: expected 'note [trick T [play P]] AUTHOR [tags]: text'"
    ]


# --------------------------------------------------------------------------- a note's tags


@pytest.mark.parametrize(
    ("tags", "read_tags"),
    [
        ('[good,vetten, "a b",c ,, ]', ["good", "vetten", "a b", "c"]),
        ('["a", b, c]', ["a", "b", "c"]),
        ('["a",b]', ["a", "b"]),
        ("[, good]", ["good"]),
        ("[,good]", ["good"]),
        (r'["say \"hi\"", x]', ['say "hi"', "x"]),
    ],
)
def test_a_notes_tags_are_split_at_commas_outside_quotes_and_empty_ones_dropped(
    tags: str, read_tags: list[str]
) -> None:
    (read_note,) = read(f"{SCORED}  note coach {tags}: x\n").deals[0].annotations  # type: ignore[misc]
    assert msgspec.to_builtins(read_note) == {"author": "coach", "tags": read_tags, "text": "x"}


# --------------------------------------------------------------------------- a deal made


@pytest.mark.parametrize(
    ("seats", "hands", "said"),
    [
        # a hand missing is named by its player, the first missing one in seat order
        (
            "seats Anna Bert Carla Dirk\n",
            "  hand Anna: AC\n  hand Bert: KC\n",
            "2:1: deal 1: Carla's hand is missing: give every hand or none",
        ),
        # a seats line naming too few players for the game is said there, before any deal (a name
        # left out read as "seat 3's hand is missing", counted from 0, at the deal)
        (
            "seats Anna Bert Carla\n",
            "  hand Anna: AC\n  hand Bert: KC\n  hand Carla: QC\n",
            "1:7: 'four' is played by 4 players, the record names 3"
            ": name every player, or give the variant played by 3 (three, three_dummy)",
        ),
    ],
)
def test_a_missing_hand_is_named_at_its_deal_line(seats: str, hands: str, said: str) -> None:
    text = f"{seats}deal 1 dealer Anna trump H\n{hands}"
    assert problems(text) == [f"game.mnl:{said}"]
