"""The browser's own inputs (dashboards/native_inputs.py): what the page reads back from them."""

from __future__ import annotations

from dashboards.native_inputs import MARK, STATE, Field, _merged, chosen_state, many, many_text, sent_state

FIELDS = [
    Field("name", "Name"),
    Field("date", "Date", "date", value="2026-12-01"),
    Field("dealer", "Dealer", "select", value="3", options=[("0", "Anna"), ("3", "Dirk")]),
]


def test_each_field_shows_its_value_until_something_is_typed() -> None:
    assert _merged(FIELDS, None) == {"name": "", "date": "2026-12-01", "dealer": "3"}
    assert _merged(FIELDS, chosen_state({"name": "Anna", "dealer": "0"})) == {
        "name": "Anna",
        "date": "2026-12-01",
        "dealer": "0",
    }


def test_a_choice_outside_the_options_and_unknown_names_are_ignored() -> None:
    state = chosen_state({"dealer": "7", "other": "x", "date": ""})
    assert _merged(FIELDS, state) == {"name": "", "date": "", "dealer": "3"}


def test_a_state_of_another_shape_is_no_choice() -> None:
    assert _merged(FIELDS, {"chosen": "Anna"}) == _merged(FIELDS, None)
    assert _merged(FIELDS, {"chosen": {"name": None}})["name"] == ""


def test_a_multi_field_keeps_only_values_among_its_options() -> None:
    fields = [Field("who", "Who", "multi", value='["Anna"]', options=[("Anna", "Anna"), ("Dirk", "Dirk")])]
    assert many(_merged(fields, None)["who"]) == ["Anna"]
    assert many(_merged(fields, chosen_state({"who": many_text(["Dirk", "Zoë"])}))["who"]) == ["Dirk"]
    assert many(_merged(fields, chosen_state({"who": "Dirk"}))["who"]) == []  # not a JSON list: none


def test_a_state_sent_by_the_browser_carries_a_new_mark_each_time() -> None:
    first, second = sent_state({"step": "3"}), sent_state({"step": "3"})
    assert first[STATE][MARK] != second[STATE][MARK]
    assert _merged([Field("step", "Step", "number", value="0", minimum=0)], first) == {"step": "3"}
