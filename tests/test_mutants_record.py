"""The record format: the behaviours that mutation testing of ``record/``
(``make mutate MODULE=manillen_replay/record/model.py``, file by file) showed no other test defended."""

from __future__ import annotations

from manillen_replay.record.model import seat_name_problems


def test_every_seat_without_a_name_is_named():
    """A record with two empty seats says so for both, not only the first."""
    assert seat_name_problems(["", "Bert", "  ", "Dirk"]) == [
        (0, "seat 0 has no name"),
        (2, "seat 2 has no name"),
    ]


def test_a_name_with_a_control_character_or_the_dummys_word_is_refused():
    problems = dict(seat_name_problems(["An\tna", "Dummy", "Carla", "Dirk"]))
    assert problems == {
        0: "the name 'An\\tna' holds a control character",
        1: "'Dummy' is no player's name: the notation calls the dummy's seat so",
    }


def test_the_same_name_twice_is_quoted_once():
    assert seat_name_problems(["Anna", "Bert", "Bert", "Dirk"]) == [
        (2, "seats 1 and 2 have the same name ('Bert'): each player sits once")
    ]
