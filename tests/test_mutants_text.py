"""The text notation ``.mnl``: the behaviours that mutation testing of ``record/text.py``
(``make mutate MODULE=manillen_replay/record/text.py``) showed no other test defended: what each
typed line means, and the line, column and words a bad line or a card the replay refuses gets."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from manillen_replay.club_rules import ClubRules, with_club_rules
from manillen_replay.engine import replay_entry
from manillen_replay.errors import InvalidRecordError, RecordError
from manillen_replay.record import Record, loads_text
from manillen_replay.record.io import entries_of
from manillen_replay.rules import VARIANTS, Rules

NOTATION = Path(__file__).resolve().parent.parent / "data" / "notation"
HEAD = "seats Anna Bert Carla Dirk\n"
SCORED = HEAD + "deal 1 dealer Dirk score Anna 6\n"
TURNED = (NOTATION / "house-trump-turned-card.mnl").read_text(encoding="utf-8")
THREE = (NOTATION / "variant-three.mnl").read_text(encoding="utf-8")
TWO_OPEN = (NOTATION / "variant-two-open.mnl").read_text(encoding="utf-8")


def problems(text: str, name: str = "game.mnl") -> list[str]:
    """The problems of a text as `manillen validate` prints them: file, line, column, words."""
    found: list[str] = []
    for entry in entries_of(text.encode(), name, "mnl"):
        try:
            replay_entry(entry)
        except InvalidRecordError as error:
            found += [problem.describe() for problem in error.problems]
    return found


def read(text: str) -> Record:
    (record,) = loads_text(text)
    return record


def line_of(text: str, start: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if line.strip().startswith(start))


# --------------------------------------------------------------------------- penalties


@pytest.mark.parametrize(
    ("typed", "penalty"),
    [
        (
            "penalty Bert&Dirk 30 looked at the cards",
            {"team": 1, "points": 30, "reason": "looked at the cards"},
        ),
        ("penalty Carla", {"team": 0}),
        ("penalty Anna 30", {"team": 0, "points": 30}),
        ('penalty Anna "30"', {"team": 0, "reason": "30"}),
        ('penalty Dirk ""', {"team": 1, "reason": ""}),
        ('penalty Dirk 5 "shown # early"', {"team": 1, "points": 5, "reason": "shown # early"}),
        ("penalty Dirk 5 shown # a comment", {"team": 1, "points": 5, "reason": "shown"}),
    ],
)
def test_a_penalty_line_reads_its_team_points_and_reason(typed: str, penalty: dict[str, object]) -> None:
    """A number after the team is the points, a quoted one is the reason; an empty quoted reason
    is kept as written, and nothing after the team means neither."""
    (read_penalty,) = read(f"{SCORED}  {typed}\n").deals[0].penalties  # type: ignore[misc]
    assert msgspec.to_builtins(read_penalty) == penalty


def test_penalty_points_out_of_range_are_placed_at_the_points_in_their_deal() -> None:
    text = (
        SCORED + "  penalty Bert 3\ndeal 2 score Bert 12\n  penalty Bert 3 late\n  penalty Anna 99999 late\n"
    )
    assert problems(text) == ["game.mnl:6:16: 99999 is out of range (maximum 30720)"]


# --------------------------------------------------------------------------- reading errors


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (SCORED + "  penalty\n", "3:10: expected 'penalty TEAM [POINTS] [reason]'"),
        (
            SCORED + "  penalty Eva 30\n",
            "3:11: unknown player 'Eva' as a team: expected one of Anna, Bert, Carla, Dirk (the seats line)",
        ),
        (
            SCORED + "  penalty Anna 9999999999\n",
            "3:16: 9999999999... is too large: a number has at most 9 digits",
        ),
        (
            SCORED + "  penalty Anna&Bert\n",
            "3:11: 'Anna&Bert' are not on one team in this deal: the teams are Anna & Carla and Bert & Dirk",
        ),
        (
            TURNED.replace("turned JH", "turned"),
            f"{line_of(TURNED, 'turned')}:3: expected one card after 'turned', such as turned KD",
        ),
        (
            TURNED.replace("turned JH", "turned JH AS"),
            f"{line_of(TURNED, 'turned')}:3: expected one card after 'turned', such as turned KD",
        ),
        (
            TWO_OPEN.replace("table Anna:", "table Eva:"),
            "9:9: unknown player 'Eva' as the table's owner: expected one of Anna, Bert (the seats line)",
        ),
        (TWO_OPEN.replace("table Anna:", "table Anna Bert:"), "9:14: expected 'table NAME: cards'"),
        (
            TWO_OPEN.replace("  table Anna: 7S/10S QS/KD 8H/7D 7C/10D\n", "  table\n"),
            "9:8: expected 'table NAME: cards'",
        ),
    ],
)
def test_a_bad_line_is_named_with_its_line_column_and_words(text: str, said: str) -> None:
    assert problems(text)[0] == f"game.mnl:{said}"


# --------------------------------------------------------------------------- the replay's problems, placed


def test_a_turned_card_the_dealer_does_not_hold_is_placed_at_the_card() -> None:
    text = TURNED.replace("turned JH", "turned AS")
    assert problems(text) == [
        f"game.mnl:{line_of(text, 'turned')}:10: the turned card AS is not in Carla's hand"
    ]
    assert read(TURNED).deals[0].turned == "JH"


@pytest.mark.parametrize(
    ("discards", "said"),
    [
        ("discards JH JH", "15: 'JH' was dealt twice (also at line 10, column 12)"),
        ("discards JH 7H", "15: '7H' was dealt twice (also at line 9, column 18)"),
        ("discards JH", "3: 'three' lays 2 cards aside; the record gives 1"),
    ],
)
def test_the_cards_laid_aside_are_placed_at_the_card_or_at_the_line(discards: str, said: str) -> None:
    text = THREE.replace("discards JH 7D", discards)
    assert problems(text) == [f"game.mnl:{line_of(text, 'discards')}:{said}"]
    assert read(THREE).deals[0].discards == ["JH", "7D"]


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (
            ("  table Bert: QD/8D AS/JD 9C/AH 8S/QH\n", ""),
            "9:3: the table piles of Bert are missing: 4 piles in 'two_open', a face-down card under a "
            "face-up one (in the notation a line `table Bert: 7S/10S QS/KD 8H/7D 7C/10D`, face-down/face-up)",
        ),
        (
            ("table Anna: 7S/10S QS/KD 8H/7D 7C/10D", "table Anna: 7S/10S QS/KD 8H/7D"),
            "9:9: Anna has 4 table piles, the record 3",
        ),
        (("7C/10D", "7C/9H"), "9:37: '9H' was dealt twice (also at line 7, column 14)"),
        (("7C/10D", "9H/10D"), "9:34: '9H' was dealt twice (also at line 7, column 14)"),
        (
            ("table Bert: QD/8D", "table Bert: QD/9H"),
            "10:18: '9H' was dealt twice (also at line 7, column 14)",
        ),
        (
            ("move Bert trick 13 play 2", "move Bert trick 3 play 2"),
            "11:3: Bert can move a card only from a 3rd pile of two to an emptied 4th place",
        ),
    ],
)
def test_the_table_piles_and_moves_of_a_two_player_game_are_placed(
    change: tuple[str, str], said: str
) -> None:
    """A table's problem at its owner's name, a pile's card at the card (face down, or face up after
    the slash), a wrong move at its line."""
    assert problems(TWO_OPEN.replace(*change)) == [f"game.mnl:{said}"]


# --------------------------------------------------------------------------- table moves


@pytest.mark.parametrize(
    ("typed", "move"),
    [
        ("move Bert trick 13 play 2", {"seat": 1, "trick": 13, "play": 2}),
        ("move anna TRICK 4", {"seat": 0, "trick": 4}),
        ("move Bert trick 13 PLAY 1", {"seat": 1, "trick": 13, "play": 1}),
    ],
)
def test_a_move_line_reads_the_player_the_trick_and_the_play(typed: str, move: dict[str, int]) -> None:
    """``move NAME trick T [play P]``: the play is optional, the words in any case."""
    text = TWO_OPEN.replace("move Bert trick 13 play 2", typed)
    (read_move,) = loads_text(text)[0].deals[0].table_moves  # type: ignore[misc]
    assert msgspec.to_builtins(read_move) == move


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("move Bert 13 2", "7: expected 'move NAME trick T' or 'move NAME trick T play P'"),
        ("move Bert trick", "7: expected 'move NAME trick T' or 'move NAME trick T play P'"),
        (
            "move Eva trick 13",
            "8: unknown player 'Eva' as the player who moves: expected one of Anna, Bert (the seats line)",
        ),
        ("move Bert trick x", "19: expected the trick number (counted from 1)"),
        ("move Bert trick 0", "19: expected the trick number (counted from 1)"),
        ("move Bert trick 13 play", "26: expected the play number (counted from 1)"),
        ("move Bert trick 13 play two", "27: expected the play number (counted from 1)"),
        ("move Bert trick 13 at 2", "22: expected 'play P' or the end of the line"),
    ],
)
def test_a_bad_move_line_is_named_with_its_column_and_words(typed: str, said: str) -> None:
    text = TWO_OPEN.replace("move Bert trick 13 play 2", typed)
    assert problems(text)[0] == f"game.mnl:11:{said}"


# --------------------------------------------------------------------------- notes and variations

VARIATION = (
    (Path(__file__).resolve().parent.parent / "docs" / "notation.md")
    .read_text(encoding="utf-8")
    .split("### A variation")[1]
    .split("```mnl\n")[1]
    .split("```")[0]
)
"""docs/notation.md's example of a comment with a variation (trick 7, play 1)."""
VARIATION_CARDS = "line 10H 8S KD 8H AH KS AS AC"


@pytest.mark.parametrize(
    ("typed", "note"),
    [
        ("note coach: general", {"author": "coach", "text": "general"}),
        (
            "note TRICK 2 Play 3 coach [good, vetten]: Nice.",
            {"trick": 2, "play": 3, "author": "coach", "tags": ["good", "vetten"], "text": "Nice."},
        ),
        ("note trick 2 KH: x", {"trick": 2, "author": "KH", "text": "x"}),
        (
            'note coach [a, "b, c", d]: see [x]',
            {"author": "coach", "tags": ["a", "b, c", "d"], "text": "see [x]"},
        ),
        (
            "note trick 7 play 1 line 10H 8S kd coach: three cards",
            {"trick": 7, "play": 1, "line": ["10H", "8S", "KD"], "author": "coach", "text": "three cards"},
        ),
        (
            "note trick 7 play 1 line 10H coach: one card",
            {"trick": 7, "play": 1, "line": ["10H"], "author": "coach", "text": "one card"},
        ),
    ],
)
def test_a_note_line_reads_its_trick_play_variation_author_tags_and_text(
    typed: str, note: dict[str, object]
) -> None:
    (read_note,) = read(f"{SCORED}  {typed}\n").deals[0].annotations  # type: ignore[misc]
    assert msgspec.to_builtins(read_note) == note


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("note trick 2: x", "3:15: expected the author of the note before ':'"),
        ("note trick coach: x", "3:14: expected the trick number (counted from 1)"),
        ("note trick 2 play x coach: y", "3:21: expected the play number (counted from 1)"),
        ("note coach text", "3:18: expected 'note [trick T [play P]] AUTHOR [tags]: text'"),
        ("note trick 17 coach: x", "3:3: 17 is out of range (maximum 16)"),
    ],
)
def test_a_bad_note_line_is_named_with_its_column_and_words(typed: str, said: str) -> None:
    assert problems(f"{SCORED}  {typed}\n")[0] == f"game.mnl:{said}"


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (
            ("note trick 7 play 1 line", "note trick 7 line"),
            "16: a variation starts at a play: give its trick and play",
        ),
        (
            ("note trick 7 play 1 line", "note line"),
            "8: a variation starts at a play: give its trick and play",
        ),
        ((VARIATION_CARDS, VARIATION_CARDS + " 7S"), "53: the deal is over before card 9 of the variation"),
        (
            (VARIATION_CARDS, VARIATION_CARDS[:-5] + "AC AS"),
            "47: Dirk does not hold AC at card 7 of the variation",
        ),
    ],
)
def test_a_variation_the_replay_refuses_is_placed_at_its_word_or_its_card(
    change: tuple[str, str], said: str
) -> None:
    assert problems(VARIATION) == []
    text = VARIATION.replace(*change)
    assert problems(text) == [f"game.mnl:{line_of(text, 'note')}:{said}"]


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ('note coach [a"b, "c]: x', "3:20: this quoted tag has no closing quote"),
        # the brackets are the ones after the author, whatever the author or the text hold
        ('note "a[b" [p"q, "r]: z', "3:20: this quoted tag has no closing quote"),
        ('note coach [a"b, "c]: see [x]', "3:20: this quoted tag has no closing quote"),
        ("note coach good]: x", "3:14: expected tags in brackets such as [good, vetten] before ':'"),
        ("note coach [good: x", "3:14: expected tags in brackets such as [good, vetten] before ':'"),
    ],
)
def test_a_notes_tags_outside_brackets_or_unclosed_are_named_at_their_column(typed: str, said: str) -> None:
    assert problems(f"{SCORED}  {typed}\n") == [f"game.mnl:{said}"]


# --------------------------------------------------------------------------- hands, scores, tricks

SEED = (NOTATION / "seed-trick.mnl").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("text", "line", "said"),
    [
        (
            TWO_OPEN,
            "  table Bert: QD/8D AS/JD 9C/AH 8S/QH\n",
            "Bert's table is given twice (line 10 has it already)",
        ),
        (THREE, "  discards JH 7D\n", "the cards laid aside is given twice (line 10 has it already)"),
    ],
)
def test_a_deal_line_given_twice_is_refused_not_overwritten(text: str, line: str, said: str) -> None:
    """The second of two lines for one thing won without a word (the first lost)."""
    assert text.count(line) == 1
    changed = text.replace(line, line + line)
    assert said in problems(changed)[0] and "keep one" in problems(changed)[0]


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (("  hand Anna: AC 10C KC JC 8C 7C QD JS\n", "  hand\n"), "8:7: expected 'hand NAME: cards'"),
        (
            ("hand Anna:", "hand Eva:"),
            "8:8: unknown player 'Eva' as the hand's owner: "
            "expected one of Anna, Bert, Carla, Dirk (the seats line)",
        ),
        (("hand Bert:", "hand Anna:"), "9:8: Anna's hand is given twice"),
        ((" QD JS\n", " JS\n"), "8:8: Anna's hand has 7 cards; each seat is dealt 8"),
        (("AC 10C KC", "AC 10C QC"), "9:14: 'QC' was dealt twice (also at line 8, column 21)"),
    ],
)
def test_a_bad_hand_line_or_hand_is_named_at_its_owner_or_card(change: tuple[str, str], said: str) -> None:
    assert problems(SEED.replace(*change))[0] == f"game.mnl:{said}"


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            HEAD + "deal 1 dealer Dirk\n  score Anna 6 more\n",
            "3:16: nothing may follow the score but a # comment",
        ),
        (
            HEAD.replace("seats", "rules target=-5\nseats") + "deal 1 dealer Dirk\n",
            "1:7: -5 is out of range (minimum 1)",
        ),
        (
            SCORED + "  score Bert 6\n",
            "3:3: the score of deal 1 is given twice (line 2 has it already): keep one",
        ),
        (
            HEAD.replace("seats", "date 2026-01-02\ndate 2026-02-03\nseats") + "deal 1 dealer Dirk\n",
            "2:1: the 'date' line is given twice (line 1 has it already): keep one",
        ),
        (
            HEAD + "deal 1 dealer Dirk\n  score\n",
            "3:8: expected 'score TEAM POINTS' (TEAM as Anna&Carla or one name) or 'score 30-30'",
        ),
        (SCORED + "  trump H\n", "3:3: 'trump' belongs on the deal line or before the first deal"),
        (SCORED + "  Dealer Anna\n", "3:3: 'Dealer' belongs on the deal line or before the first deal"),
        (
            SCORED + "  foo\n",
            "3:3: expected a trick (its cards in the order played) or one of "
            "hand, table, discards, turned, move, score, penalty, note, found 'foo'",
        ),
    ],
)
def test_a_line_after_the_deal_that_is_no_trick_is_named(text: str, said: str) -> None:
    assert problems(text) == [f"game.mnl:{said}"]


def test_a_score_line_after_the_tricks_reads_as_the_deals_score() -> None:
    text = HEAD + "deal 1 dealer Dirk\n  score bert 12  # the sheet\n"
    score = read(text).deals[0].recorded_score
    assert msgspec.to_builtins(score) == {"team": 1, "points": 12}


# --------------------------------------------------------------------------- rules

DEAL = "deal 1 dealer Dirk score Anna 6\n"


@pytest.mark.parametrize("none", ["none", "null", "NULL", "None"])
def test_a_rule_set_to_none_or_null_in_any_case_reads_as_no_value(none: str) -> None:
    rules = read(f"{HEAD}rules max_multiplier={none} target=61\n{DEAL}").match.rules
    assert (rules.max_multiplier, rules.target) == (None, 61)  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("target=123456789", "123456789 is out of range (maximum 10000)"),
        ("extension=121,abc", 'expected a list, found a text "121,abc"'),
        ("extension=121,123456789", "123456789 is out of range (maximum 10000)"),
        ("target==121", 'expected a whole number, found a text "=121"'),
        ("=121", "expected NAME=VALUE such as target=121 or cafe.en_face=true, found '=121'"),
        ("target=", "expected NAME=VALUE such as target=121 or cafe.en_face=true, found 'target='"),
    ],
)
def test_a_rule_value_is_a_number_up_to_nine_digits_and_a_list_only_of_numbers(typed: str, said: str) -> None:
    assert problems(f"{HEAD}rules {typed}\n{DEAL}") == [f"game.mnl:2:7: {said}"]


def test_a_rule_value_of_ten_digits_is_refused_at_the_number() -> None:
    assert problems(f"{HEAD}rules target=1234567890\n{DEAL}") == [
        "game.mnl:2:14: 1234567890... is too large: a number has at most 9 digits"
    ]


@pytest.mark.parametrize(
    ("typed", "extension"),
    [
        ("extension=121,151", [121, 151]),
        ("extension=121,151,181", [121, 151, 181]),
        ("extension=121", [121]),
        ("extension=", []),
    ],
)
def test_extension_reads_as_a_list_of_targets(typed: str, extension: list[int]) -> None:
    """``extension=121,151`` two extensions, ``extension=121`` one, ``extension=`` none."""
    assert read(f"{HEAD}rules {typed}\n{DEAL}").match.rules.extension == extension  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("extension", "7: expected NAME=VALUE such as target=121 or cafe.en_face=true, found 'extension'"),
        ("target=121 cafe.en_face=maybe", '18: expected true or false, found a text "maybe"'),
        ("cafe.en_face=true target=abc", '25: expected a whole number, found a text "abc"'),
    ],
)
def test_a_bad_rule_is_named_at_its_own_name_value_pair(typed: str, said: str) -> None:
    assert problems(f"{HEAD}rules {typed}\n{DEAL}") == [f"game.mnl:2:{said}"]


# --------------------------------------------------------------------------- header lines


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (f"venue\n{HEAD}{DEAL}", "1:6: expected a value after 'venue'"),
        (f"venue   # to fill in\n{HEAD}{DEAL}", "1:9: expected a value after 'venue'"),
        (f"variant\n{HEAD}{DEAL}", "1:8: expected a value after 'variant'"),
        (f"seats\n{DEAL}", "1:6: expected a value after 'seats'"),
        (
            f"variant seven\n{HEAD}{DEAL}",
            f"1:9: unknown variant 'seven': expected one of {', '.join(VARIANTS)}",
        ),
        (f"{HEAD}variant two_open\n{DEAL}", "2:1: write the 'variant' line before the 'seats' line"),
        ("deal 1 dealer Dirk score Anna 6\n", "1:1: expected the 'seats' line before the first deal"),
        ("seats Anna , Bert Carla Dirk\n" + DEAL, "1:12: seat 1 has no name"),
        (
            "seats Anna anna Bert bert\n" + DEAL,
            "1:12: seats 0 and 1 have the same name ('Anna' and 'anna'): each player sits once",
        ),
        # the seats line is refused for its names before a later line is read with them
        (
            "seats Anna Bert anna Dirk\ndeal 1 dealer ANNA score Bert 6\n",
            "1:17: seats 0 and 2 have the same name ('Anna' and 'anna'): each player sits once",
        ),
        (
            "seats  Anna Bert Carla\ndeal 1 dealer Anna score Anna 6\n",
            "1:8: 'four' is played by 4 players, the record names 3"
            ": name every player, or give the variant played by 3 (three, three_dummy)",
        ),
    ],
)
def test_a_bad_header_line_is_named_with_its_column_and_words(text: str, said: str) -> None:
    assert problems(text) == [f"game.mnl:{said}"]


def test_an_empty_quoted_header_text_is_kept_as_written() -> None:
    assert read(f'venue ""\n{HEAD}{DEAL}').match.venue == ""


@pytest.mark.parametrize(
    ("typed", "seats"),
    [
        ("seats Anna, Bert, Carla, Dirk", ["Anna", "Bert", "Carla", "Dirk"]),
        ('seats "Anna," Bert Carla MAX', ["Anna,", "Bert", "Carla", "MAX"]),
        ("seats ,Anna Bert Carla Dirk", [",Anna", "Bert", "Carla", "Dirk"]),
        ("seats Anna, Bert, Carla, MAX,", ["Anna", "Bert", "Carla", "MAX"]),
    ],
)
def test_a_comma_after_a_seats_name_separates_and_a_quoted_or_leading_one_is_the_names(
    typed: str, seats: list[str]
) -> None:
    assert read(f"{typed}\ndeal 1 dealer Bert score Bert 6\n").match.seats == seats


def test_a_variant_other_than_the_clubs_is_refused_at_the_variants_name() -> None:
    """``manillen import --rules`` refuses a match of another variant at its ``variant`` line."""
    (entry,) = entries_of(THREE.encode(), "game.mnl", "mnl")
    with pytest.raises(RecordError) as caught:
        with_club_rules(entry.decode(), ClubRules("vier", Rules()))
    (placed,) = entry.locate([caught.value])
    line = line_of(THREE, "variant")
    assert placed.describe() == (
        f"game.mnl:{line}:9: the match plays the variant three, the club's rules 'vier' are for four: "
        "import it with the club's rules saved for three (one name a variant; `manillen rules list` shows "
        "them), or without --rules for the standard rules"
    )


# --------------------------------------------------------------------------- deal lines


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (f"{HEAD}deal\n", "2:5: expected deal number 1 (deals are counted from 1), found 'nothing'"),
        (
            f"{HEAD}  deal   # the first\n",
            "2:7: expected deal number 1 (deals are counted from 1), found 'nothing'",
        ),
        (
            f"{SCORED}deal 3 score Anna 6\n",
            "3:6: expected deal number 2 (deals are counted from 1), found '3'",
        ),
        (
            f"{SCORED}deal 3\n",
            "3:6: expected deal number 2 (deals are counted from 1), found '3'",
        ),
        (f"{HEAD}deal 1\n", "2:7: expected 'dealer NAME' on deal 1 (later deals follow the rotation)"),
        (f"{HEAD}deal 1 dealer\n", "2:14: expected the dealer's name after 'dealer'"),
        (f"{HEAD}deal 1 dealer   # Dirk?\n", "2:14: expected the dealer's name after 'dealer'"),
        # the replay's problem with a whole deal is placed at the word 'deal'
        (f"{SCORED}  deal 2\n", "3:3: a deal needs tricks, hands or a recorded_score"),
    ],
)
def test_a_bad_deal_line_is_named_with_its_column_and_words(text: str, said: str) -> None:
    assert problems(text) == [f"game.mnl:{said}"]


def test_a_deal_line_of_only_its_number_follows_the_rotation() -> None:
    text = f"{SCORED}deal 2\n  score Bert 12\n"
    assert problems(text) == []
    assert [deal.dealer for deal in read(text).deals] == [3, 0]


def test_a_dealer_the_replay_refuses_is_placed_at_the_dealers_name() -> None:
    three_dummy = (NOTATION / "variant-three-dummy.mnl").read_text(encoding="utf-8")
    text = three_dummy.replace("dealer Anna", "dealer  dummy", 1)
    assert problems(text) == [
        f"game.mnl:{line_of(text, 'deal 1')}:17: seat 3 does not exist: seats are 0 to 2"
    ]


BLOCKS = (
    "seats Anna Bert Carla Dirk\n"
    "rules format=fixed deals=2 cafe.redeal_small=true\n"
    "blocks Anna Bert Carla Dirk / Anna Carla Bert Dirk\n"
)
"""Blocks of two deals: Anna plays with Carla in the first, with Bert in the second."""
ABANDONED = "".join(SEED.splitlines(keepends=True)[6:13])
"""The seed deal (dealt by Dirk) with its hands and its first two tricks only."""


@pytest.mark.parametrize(
    ("before", "next_number", "dealers"),
    [
        ("deal 1 dealer Anna score Anna&Carla 6\n", 2, [0, 1, 2]),
        # a redeal is dealt again by the same dealer and counts for no block, score written or not
        ("deal 1 dealer Anna redeal\ndeal 2 score Anna&Carla 6\n", 3, [0, 0, 1, 2]),
        ("deal 1 dealer Anna redeal score Anna&Carla 6\ndeal 2 score Anna&Carla 6\n", 3, [0, 0, 1, 2]),
        # an abandoned deal (its hands, fewer tricks and no score) counts for no block either
        (ABANDONED + "deal 2 score Anna&Carla 6\n", 3, [3, 0, 1, 2]),
    ],
)
def test_a_blocks_seating_changes_after_its_counted_deals(
    before: str, next_number: int, dealers: list[int]
) -> None:
    """The second block's teams are read from the deal after the first block's two counted deals:
    ``Anna&Bert`` is no team before it."""
    text = (
        f"{BLOCKS}{before}deal {next_number} score Anna&Carla 6\ndeal {next_number + 1} score Anna&Bert 6\n"
    )
    assert problems(text) == []
    assert [deal.dealer for deal in read(text).deals] == dealers
    early = f"{BLOCKS}{before}deal {next_number} score Anna&Bert 6\n"
    assert problems(early) == [
        f"game.mnl:{early.count(chr(10))}:14: 'Anna&Bert' are not on one team in this deal"
        ": the teams are Anna & Carla and Bert & Dirk"
    ]


# --------------------------------------------------------------------------- calls on the deal line


@pytest.mark.parametrize(
    ("calls", "said"),
    [
        ("trump H dealer Anna", "28: write the dealer first: 'deal N dealer NAME' then the calls"),
        ("trump H Dealer Anna", "28: write the dealer first: 'deal N dealer NAME' then the calls"),
        ("score", "25: expected 'score TEAM POINTS' (TEAM as Anna&Carla or one name) or 'score 30-30'"),
        (
            "score Anna 6 foo",
            "33: expected a call (trump S, muil, blind muil, en face, klop NAME, tegenklop NAME, pass, "
            "redeal) or 'score', found 'foo'",
        ),
        ("en", "22: expected 'en face'"),
        ("blind", "25: expected 'blind muil'"),
        ("blind foo", "25: expected 'blind muil'"),
        (
            "trump",
            "25: expected a suit: H, D, C or S (or ♥ ♦ ♣ ♠, harten, koeken, klaveren, schoppen) "
            "after 'trump'",
        ),
        (
            "trump H klop Eva",
            "33: unknown player 'Eva' as the player who says klop: expected one of Anna, Bert, Carla, Dirk "
            "(the seats line)",
        ),
        # a word of the deal line after klop is no one's name: the klop lacks its player
        ("trump H klop score Anna 6", "32: expected the name of the player who says klop after 'klop'"),
    ],
)
def test_a_bad_call_on_the_deal_line_is_named_with_its_column_and_words(calls: str, said: str) -> None:
    assert problems(f"{HEAD}deal 1 dealer Dirk {calls}\n") == [f"game.mnl:2:{said}"]


def test_calls_after_the_score_on_the_deal_line_are_read() -> None:
    (deal,) = read(f"{HEAD}deal 1 dealer Dirk score Anna 6 trump H\n").deals
    assert msgspec.to_builtins(deal.declarations) == [{"seat": 3, "call": "trump", "suit": "H"}]
    assert msgspec.to_builtins(deal.recorded_score) == {"team": 0, "points": 6}


def test_a_trump_suit_typed_as_a_phones_emoji_reads_as_its_suit() -> None:
    """A phone's keyboard sends the suit symbol with an emoji selector (U+FE0F) after it."""
    (deal,) = read(f"{HEAD}deal 1 dealer Dirk trump \u2665\ufe0f score Anna 6\n").deals
    assert msgspec.to_builtins(deal.declarations) == [{"seat": 3, "call": "trump", "suit": "H"}]


# --------------------------------------------------------------------------- the score on the deal line


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (f"{HEAD}deal 1 dealer Dirk score Anna 99999\n", "2:31: 99999 is out of range (maximum 30720)"),
        (f"{SCORED}deal 2 score Bert 99999\n", "3:19: 99999 is out of range (maximum 30720)"),
    ],
)
def test_a_deal_lines_score_out_of_range_is_placed_at_its_points(text: str, said: str) -> None:
    assert problems(text) == [f"game.mnl:{said}"]


@pytest.mark.parametrize("tie", ["30-30", "30/30"])
def test_a_tie_on_the_deal_line_reads_as_no_score_and_the_calls_after_it_are_read(tie: str) -> None:
    (deal,) = read(f"{HEAD}deal 1 dealer Dirk score {tie} trump H\n").deals
    assert deal.recorded_score is None
    assert msgspec.to_builtins(deal.declarations) == [{"seat": 3, "call": "trump", "suit": "H"}]


def test_a_quoted_name_with_an_ampersand_is_one_players_team() -> None:
    text = 'seats "Tom&Jerry" Bert Carla Dirk\ndeal 1 dealer Dirk score "Tom&Jerry" 6\n'
    assert problems(text) == []
    assert msgspec.to_builtins(read(text).deals[0].recorded_score) == {"team": 0, "points": 6}


# --------------------------------------------------------------------------- naming a player

THREE_DUMMY = (NOTATION / "variant-three-dummy.mnl").read_text(encoding="utf-8")
FOUR_NAMES = "Anna, Bert, Carla, Dirk"


@pytest.mark.parametrize(
    ("dealer", "seat"),
    [("2", 2), ("02", 2), ("dirk", 3), ("DIRK", 3)],
)
def test_a_player_is_named_by_name_in_any_case_or_by_seat_number(dealer: str, seat: int) -> None:
    assert read(f"{HEAD}deal 1 dealer {dealer} score Anna 6\n").deals[0].dealer == seat


@pytest.mark.parametrize(
    ("text", "said"),
    [
        # seat numbers are one or two digits below the number of seats
        (
            f"{HEAD}deal 1 dealer 4 score Anna 6\n",
            f"2:15: unknown player '4' as dealer: expected one of {FOUR_NAMES}",
        ),
        (
            f"{HEAD}deal 1 dealer 002 score Anna 6\n",
            f"2:15: unknown player '002' as dealer: expected one of {FOUR_NAMES}",
        ),
        (
            f"{HEAD}deal 1 dealer Jo score Anna 6\n",
            f"2:15: unknown player 'Jo' as dealer: expected one of {FOUR_NAMES}",
        ),
        # only a game with a dummy has a seat called so
        (
            f"{HEAD}deal 1 dealer dummy score Anna 6\n",
            f"2:15: unknown player 'dummy' as dealer: expected one of {FOUR_NAMES}",
        ),
        (
            THREE_DUMMY.replace("dealer Anna", "dealer Eva", 1),
            f"{line_of(THREE_DUMMY, 'deal 1')}:16: unknown player 'Eva' as dealer: "
            "expected one of Anna, Bert, Carla or dummy",
        ),
        # a club evening's block names its own seating
        (
            f"{BLOCKS}deal 1 dealer Anna score Anna&Carla 6\ndeal 2 score Anna&Carla 6\ndeal 3 score Eva 6\n",
            "6:14: unknown player 'Eva' as a team: expected one of Anna, Carla, Bert, Dirk",
        ),
    ],
)
def test_an_unknown_player_is_named_with_the_seats_one_may_name(text: str, said: str) -> None:
    """A later block of a club evening names its own seating, not the seats line's; a number typed
    for a seat is told that seats count from 0 (the dashboard's and legal's from 1)."""
    where = "this block's seating" if "Anna, Carla, Bert" in said else "the seats line"
    numbers = "; a seat number counts from 0 (Anna) to 3" if said.split("'")[1].isdigit() else ""
    assert problems(text) == [f"game.mnl:{said} ({where}){numbers}"]


# --------------------------------------------------------------------------- free text after a word


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            f'venue "De Zwaan" Roeselare\n{HEAD}{DEAL}',
            "1:18: nothing may follow the closing quote but a # comment",
        ),
        # a quoted value is placed at its opening quote
        (f'date "2026-13-45"\n{HEAD}{DEAL}', '1:6: "2026-13-45" is not a valid date (use YYYY-MM-DD)'),
    ],
)
def test_a_quoted_header_value_is_placed_at_its_quote_and_ends_the_line(text: str, said: str) -> None:
    assert problems(text) == [f"game.mnl:{said}"]


def test_a_hash_inside_a_quoted_author_does_not_end_the_notes_text() -> None:
    (note,) = read(f'{SCORED}  note "coach #1": well played # aside\n').deals[0].annotations  # type: ignore[misc]
    assert msgspec.to_builtins(note) == {"author": "coach #1", "text": "well played"}


# --------------------------------------------------------------------------- commas between words

CARD_WORDS = (
    "expected a card such as 10H, T\u2665, a\u2660 or qd "
    "(rank 10 T A K Q J 9 8 7, then H D C S or \u2665 \u2666 \u2663 \u2660)"
)


def test_a_tricks_cards_may_be_separated_by_commas() -> None:
    assert read(f"{HEAD}deal 1 dealer Dirk trump D\n  AC, QC, 9D, KD\n").deals[0].tricks == [
        ["AC", "QC", "9D", "KD"]
    ]


@pytest.mark.parametrize(
    ("trick", "said"),
    [
        ("AC , QC 9D KD", f"6: unknown card ',': {CARD_WORDS}"),
        ("AC, QX, 9D, KD", f"7: unknown card 'QX': {CARD_WORDS}"),
    ],
)
def test_a_bad_card_among_commas_is_named_at_its_column(trick: str, said: str) -> None:
    assert problems(f"{HEAD}deal 1 dealer Dirk trump D\n  {trick}\n") == [f"game.mnl:3:{said}"]


def test_a_comma_after_a_one_letter_name_separates_it() -> None:
    assert read("seats A B C D\ndeal 1 dealer D, score A 6\n").deals[0].dealer == 3


@pytest.mark.parametrize(
    ("typed", "penalty"),
    [
        ("penalty Anna & Carla looked at the cards", {"team": 0, "reason": "looked at the cards"}),
        ("penalty Bert, looked at the cards", {"team": 1, "reason": "looked at the cards"}),
        ("penalty Dirk 5 shown # early # twice", {"team": 1, "points": 5, "reason": "shown"}),
    ],
)
def test_a_penalty_reason_starts_after_a_joined_team_and_ends_at_the_first_hash(
    typed: str, penalty: dict[str, object]
) -> None:
    (read_penalty,) = read(f"{SCORED}  {typed}\n").deals[0].penalties  # type: ignore[misc]
    assert msgspec.to_builtins(read_penalty) == penalty


def test_a_team_written_with_spaces_around_the_ampersand_is_placed_at_its_first_name() -> None:
    assert problems(f"{HEAD}deal 1 dealer Dirk score Anna & Bert 6\n") == [
        "game.mnl:2:26: 'Anna&Bert' are not on one team in this deal"
        ": the teams are Anna & Carla and Bert & Dirk"
    ]


def test_the_dummys_missing_table_says_the_line_that_gives_it() -> None:
    """ "the table lists 4 seats' piles; the record has 0" left a typist of three_dummy without a
    word of what to add: the dummy's table, written `table dummy: ...`."""
    typed = (
        Path(__file__).resolve().parent.parent / "data" / "notation" / "variant-three-dummy.mnl"
    ).read_text()
    without = "\n".join(line for line in typed.splitlines() if not line.strip().startswith("table dummy:"))
    assert without != typed
    (entry,) = entries_of(without.encode(), "thuis.mnl", "mnl")
    with pytest.raises(InvalidRecordError) as refused:
        replay_entry(entry)
    said = str(refused.value)
    assert "the table piles of Anna's dummy are missing: 4 piles in 'three_dummy'" in said
    assert "`table dummy: 7S/10S QS/KD 8H/7D 7C/10D`" in said
