"""The Record page through AppTest, one full deal of each variant.

Each sample record of a variant (``data/samples/variant-*.json``) is entered by tapping the
page's buttons as a recorder does: the game chosen at set-up, the names, the calls, the cards
dealt (tapped on the grid), any move of a 3rd pile's card, then every card played. The record
the page saves into the archive must hold the sample's cards, pass ``manillen validate`` and
replay to the sample's result.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from streamlit.proto.SelectWidgetFilterMode_pb2 import SelectWidgetFilterMode
from streamlit.testing.v1 import AppTest

from dashboards import data, drafts
from manillen_replay.cli import cli
from manillen_replay.engine import replay
from manillen_replay.record import load, loads
from manillen_replay.rules import Rules
from manillen_replay.store import Store

from .test_dashboard import APP, open_expander, texts
from .test_dashboard_record import setup_inputs, tap, type_setup
from .test_recording_variants import VARIANT_SAMPLES, dealt_slots

SAMPLES = Path(__file__).resolve().parents[1] / "data" / "samples"


@pytest.fixture
def empty_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[AppTest, Path]]:
    path = tmp_path / "table.duckdb"
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(path))
    yield AppTest.from_file(APP, default_timeout=60), path


def start_variant(at: AppTest, variant: str, names: list[str], dealer: int) -> str:
    at.run()
    at.switch_page("app_pages/record.py").run()
    type_setup(at, variant=variant)
    fields = [f["name"] for f in setup_inputs(at)["fields"]]
    assert [f for f in fields if f.startswith("seat_")] == [f"seat_{s}" for s in range(len(names))]
    type_setup(at, **{f"seat_{seat}": name for seat, name in enumerate(names)}, dealer=str(dealer))
    tap(at, "record_start")
    return str(at.query_params["draft"])


def test_the_first_dealer_follows_the_number_of_players_until_chosen(empty_app: tuple[AppTest, Path]) -> None:
    """Four players' default, seat 4, stayed when six were chosen: the fifth seat led every deal
    of a helper's six-player match. The last seat deals first in every game; a dealer chosen
    stays while the game does."""
    at, _ = empty_app
    at.run()
    at.switch_page("app_pages/record.py").run()
    assert setup_inputs(at)["values"]["dealer"] == "3"
    type_setup(at, variant="six")
    assert setup_inputs(at)["values"]["dealer"] == "5"
    type_setup(at, variant="three")
    assert setup_inputs(at)["values"]["dealer"] == "2"
    type_setup(at, dealer="0")
    type_setup(at, seat_0="Jef")  # another input changed: the chosen dealer stays
    assert setup_inputs(at)["values"]["dealer"] == "0"
    type_setup(at, variant="four")
    assert setup_inputs(at)["values"]["dealer"] == "3"


def saved_record(path: Path) -> dict[str, Any]:
    with Store(path, read_only=True) as store:
        return dict(json.loads(store.query("SELECT record FROM matches")["record"][0]))


def tap_calls_and_cards_dealt(at: AppTest, match: dict[str, Any], deal: dict[str, Any]) -> str:
    """Start the sample's match, tap its first deal's calls and every card dealt, and switch the
    grid back to the cards played; the draft's id."""
    draft_id = start_variant(at, match["variant"], match["seats"], deal["dealer"])
    for call in deal["declarations"]:
        tap(at, f"record_trump_{call['suit']}" if call["call"] == "trump" else f"record_{call['call']}")
    at.segmented_control(key=f"record_tap_mode_{draft_id}_1").set_value("hands").run()
    for card in dealt_slots(deal, Rules(variant=match["variant"])):
        if at.button(key="record_untap") and "Every card dealt is in" in texts(at):
            break  # the last place took the cards left
        tap(at, f"record_card_{card}")
    assert "Every card dealt is in" in texts(at)
    at.segmented_control(key=f"record_tap_mode_{draft_id}_1").set_value("plays").run()
    return draft_id


def test_a_third_pile_s_hidden_card_tapped_without_the_move_is_played_with_it(
    empty_app: tuple[AppTest, Path],
) -> None:
    """As docs/dashboard.md says: the face-down card the move turns up is not greyed out, and
    tapped it is played with the move made just before."""
    at, path = empty_app
    document = json.loads((SAMPLES / "variant-two-open.json").read_text())
    match, deal = document["match"], document["deals"][0]
    assert deal["table_moves"], "the sample has a move"
    tap_calls_and_cards_dealt(at, match, deal)
    for trick in deal["tricks"]:
        for card in trick:
            assert not at.button(key=f"record_card_{card}").disabled, card
            tap(at, f"record_card_{card}")  # never the move button
    tap(at, "record_save")
    saved = saved_record(path)["deals"][0]
    assert saved["tricks"] == deal["tricks"]
    # the sample's player moved at trick 13 and played another card; tapped straight on, the
    # move is made just before the hidden card is played, at trick 14
    assert deal["table_moves"] == [{"seat": 1, "trick": 13, "play": 2}]
    assert saved["table_moves"] == [{"seat": 1, "trick": 14, "play": 1}]


def test_on_the_dummy_s_turn_only_its_open_cards_can_be_tapped(empty_app: tuple[AppTest, Path]) -> None:
    """The dummy holds no hand: on its turn every card but its open ones was tappable, and a tap
    on another's card was refused only after it (a helper's phone check)."""
    at, _ = empty_app
    document = json.loads((SAMPLES / "variant-three-dummy.json").read_text())
    match, deal = document["match"], document["deals"][0]
    tap_calls_and_cards_dealt(at, match, deal)
    from dashboards import recording as rec
    from manillen_replay.cards import CARD_TEXT

    rules = Rules(variant="three_dummy")
    checked = 0
    for trick in deal["tricks"]:
        for card in trick:
            shown = rec.table_of(at.session_state["record_draft"].current, rules)
            if shown.to_play == rules.shape.people:  # the dummy's seat
                enabled = {
                    b.key.removeprefix("record_card_")
                    for b in at.button
                    if b.key and b.key.startswith("record_card_") and not b.disabled
                }
                allowed = {CARD_TEXT[c] for c in shown.open_cards[shown.to_play]}
                if shown.under_move is not None:
                    allowed.add(CARD_TEXT[shown.under_move])
                assert card in enabled and enabled <= allowed, (card, enabled, allowed)
                checked += 1
            tap(at, f"record_card_{card}")
    assert checked >= 3  # the dummy played after winning tricks 2 to 4


@pytest.mark.parametrize("sample", VARIANT_SAMPLES, ids=lambda p: p.stem)
def test_page_records_a_full_deal_of_each_variant(
    sample: Path, empty_app: tuple[AppTest, Path], tmp_path: Path
) -> None:
    at, path = empty_app
    document = json.loads(sample.read_text())
    match, deal = document["match"], document["deals"][0]
    rules = Rules(variant=match["variant"])
    draft_id = tap_calls_and_cards_dealt(at, match, deal)
    moves = {(m["trick"], m["play"]) for m in deal.get("table_moves", [])}
    for number, trick in enumerate(deal["tricks"], start=1):
        for play, card in enumerate(trick, start=1):
            if (number, play) in moves:
                tap(at, "record_move")
            assert not at.button(key=f"record_card_{card}").disabled, (number, play, card)
            tap(at, f"record_card_{card}")
            assert at.button(key=f"record_card_{card}").disabled  # greyed out once played
    assert f"All {rules.shape.tricks} tricks are in" in texts(at)
    tap(at, "record_save")
    assert "Deal 1 is saved in the archive. The quick check found" in texts(at)
    record = saved_record(path)
    assert record["match"]["variant"] == match["variant"]
    assert record["deals"][0]["tricks"] == deal["tricks"]
    assert record["deals"][0].get("table_moves") == deal.get("table_moves")
    assert record["deals"][0].get("table") == deal.get("table")
    assert sorted(record["deals"][0].get("discards", [])) == sorted(deal.get("discards", []))
    written = tmp_path / "saved.json"
    written.write_text(json.dumps(record))
    result = CliRunner().invoke(cli, ["validate", str(written)])
    assert result.exit_code == 0 and ": ok," in result.output, result.output
    got, want = replay(loads(json.dumps(record))).deals[0], replay(load(sample)).deals[0]
    assert (got.score, got.points, got.violations) == (want.score, want.points, want.violations)
    saved = drafts.load(draft_id, drafts.folder(path))
    assert saved is not None and saved.setup.variant == match["variant"]


@pytest.mark.parametrize("variant", ["two_open", "three", "six_short"])
def test_page_saves_a_scoresheet_line_in_each_kind_of_variant(
    variant: str, empty_app: tuple[AppTest, Path]
) -> None:
    at, path = empty_app
    people = Rules(variant=variant).shape.people
    names = ["Anna", "Bert", "Carla", "Dirk", "Emiel", "Fien"][:people]
    start_variant(at, variant, names, 0)
    at.segmented_control(key="record_mode").set_value("sheet").run()
    radio = next(r for r in at.radio if r.key.startswith("record_sheet_team_"))
    labels = list(radio.options)  # as shown
    assert len(labels) == 2 and labels[0].startswith("Anna")  # the dealer's side first
    radio.set_value(1)
    next(n for n in at.number_input if n.key.startswith("record_sheet_points_")).set_value(7)
    tap(at, "record_sheet_save")
    record = saved_record(path)
    assert record["deals"] == [{"dealer": 0, "recorded_score": {"team": 1, "points": 7}}]
    result = replay(loads(json.dumps(record)))
    shape = Rules(variant=variant).shape
    want = [0] * shape.scorers
    for scorer in shape.side_scorers(1, 0):
        want[scorer] = 7
    assert list(result.deals[0].match_score) == want
    header = next(m.value for m in at.markdown if m.value.startswith("| #"))
    assert all(name in header for name in names)  # every player has a place on the scoresheet


def test_the_scoresheet_names_the_players_by_their_first_names(empty_app: tuple[AppTest, Path]) -> None:
    """At a phone's width a long name took the sheet's room and broke "Bert" and "Total" in the
    middle: the sheet writes first names (full ones where two would be the same)."""
    at, _ = empty_app
    start_variant(at, "three_dummy", ["Anna-Maria Vandenbroucke", "Bert", "Carla"], 1)
    at.segmented_control(key="record_mode").set_value("sheet").run()
    next(r for r in at.radio if r.key.startswith("record_sheet_team_")).set_value(0)
    next(n for n in at.number_input if n.key.startswith("record_sheet_points_")).set_value(6)
    tap(at, "record_sheet_save")
    sheet = next(m.value for m in at.markdown if m.value.startswith("| #"))
    head, _, first, total = sheet.splitlines()
    assert head.endswith("| Anna-Maria | Bert | Carla |") and "Vandenbroucke" not in sheet
    assert first.startswith("| 1 | Bert |") and total.startswith("| | **Total** | |")


def test_page_names_the_dealer_s_side_of_three_dummy_by_the_dealer_alone(
    empty_app: tuple[AppTest, Path],
) -> None:
    """The dealer plays the dummy: the side is the dealer's, named as the replay, the text replay
    and the findings name it (``Anna``, not ``Anna & dummy``)."""
    at, _ = empty_app
    start_variant(at, "three_dummy", ["Anna", "Bert", "Carla"], 0)
    at.segmented_control(key="record_mode").set_value("sheet").run()
    assert list(next(r for r in at.radio if r.key.startswith("record_sheet_team_")).options) == [
        "Anna",
        "Bert & Carla",
    ]


def test_page_names_the_dummy_by_the_dealer_who_plays_it(empty_app: tuple[AppTest, Path]) -> None:
    """The dummy was "dummy" (in Dutch "blinde", no article): "blinde is aan de beurt". It is the
    dealer's, named as the Deal replay names it."""
    at, _ = empty_app
    start_variant(at, "three_dummy", ["Anna", "Bert", "Carla"], 0)
    tap(at, "record_trump_H")
    draft_id = str(at.query_params["draft"])
    at.segmented_control(key=f"record_tap_mode_{draft_id}_1").set_value("hands").run()
    assert "Tap Anna's dummy's table, pile 1: the face-down card" in texts(at)
    at.session_state["lang"] = "nl"
    at.run()
    assert "blinde van Anna" in texts(at) and "van blinde," not in texts(at)
    # with its article, and a capital where it opens the sentence ("van blinde van Anna" lacked "de")
    assert "Tik de tafel van de blinde van Anna, stapel 1" in texts(at)
    from dashboards import i18n

    dummy = i18n.text("replay.dummy_of", "nl", name="Anna")
    turn = i18n.text("record.to_play", "nl", name=dummy, trick=4)
    assert turn == "De blinde van Anna is aan de beurt · slag 4"


def test_page_asks_each_place_of_the_cards_dealt_for_its_own_count(empty_app: tuple[AppTest, Path]) -> None:
    """Every box of the six-player short deal said "eight cards", the laid-aside cards' too, under
    a help about table piles that game has not."""
    at, _ = empty_app
    start_variant(at, "six_short", ["Anna", "Bert", "Carla", "Dirk", "Emiel", "Fien"], 0)
    tap(at, "record_trump_H")
    hints = {
        box.key.split("_")[1]: box.proto.placeholder for box in at.text_input if box.key.startswith("record_")
    }
    assert hints["hand"] == "5 cards, e.g. 10H AH KD 8D QC" and hints["discards"] == "2 cards, e.g. 10H AH"
    assert not any("pile" in caption.value for caption in at.caption)


@pytest.mark.parametrize(
    ("variant", "names", "trump", "laid_aside", "piles"),
    [
        ("two_open", ["Anna", "Bert"], "record_trump_H", False, True),
        ("three_dummy", ["Anna", "Bert", "Carla"], "record_trump_H", False, True),
        ("six", ["Anna", "Bert", "Carla", "Dirk", "Emiel", "Fien"], "record_trump_H", False, False),
        ("six_short", ["Anna", "Bert", "Carla", "Dirk", "Emiel", "Fien"], "record_trump_H", True, False),
    ],
)
def test_the_cards_dealt_help_speaks_of_what_the_game_deals(
    empty_app: tuple[AppTest, Path], variant: str, names: list[str], trump: str, laid_aside: bool, piles: bool
) -> None:
    """It spoke of cards laid aside in two_open and three_dummy, which lay none aside, and of
    them in the six-player game too."""
    at, _ = empty_app
    start_variant(at, variant, names, 0)
    tap(at, trump)
    (help_text,) = [c.value for c in at.caption if c.value.startswith("Type the cards as dealt")]
    assert ("laid aside" in help_text) is laid_aside, help_text
    assert ("table piles" in help_text) is piles, help_text


@pytest.mark.parametrize(
    ("variant", "offered"),
    [
        ("four", {"blind_muil", "eternal_klop", "en_face", "redeal_small"}),
        ("three_dummy", {"blind_muil", "eternal_klop", "redeal_small"}),
        ("two_open", {"blind_muil", "eternal_klop", "redeal_small"}),
        ("six", {"blind_muil", "eternal_klop", "en_face"}),
        ("six_short", {"blind_muil", "eternal_klop"}),
    ],
)
def test_the_house_rules_offer_the_cafe_rules_that_apply_in_the_game(
    empty_app: tuple[AppTest, Path], variant: str, offered: set[str]
) -> None:
    """En face could be switched on for three_dummy, where nobody can take the choice, and the
    match started without a word: a café rule is offered only where it applies (docs/rules.md)."""
    from manillen_replay.rules import CAFE_OPTIONS

    from .test_dashboard import open_expander
    from .test_dashboard_record import type_setup

    at, _ = empty_app
    at.run()
    at.switch_page("app_pages/record.py").run()
    type_setup(at, variant=variant)
    open_expander(at, "record_house_rules_open")
    shown = {toggle.key.removeprefix("record_").removesuffix("_default") for toggle in at.toggle}
    assert shown & set(CAFE_OPTIONS) == offered


def test_the_cards_dealt_box_says_the_piles_are_needed_only_until_they_are_in(
    empty_app: tuple[AppTest, Path],
) -> None:
    """With the piles tapped and in use it still said "needed: the table piles", its boxes empty."""
    at, _ = empty_app
    document = json.loads(
        (Path(__file__).resolve().parent.parent / "data" / "samples" / "variant-two-open.json").read_text()
    )
    match, deal = document["match"], document["deals"][0]
    draft_id = start_variant(at, match["variant"], match["seats"], deal["dealer"])
    tap(at, f"record_trump_{deal['declarations'][0]['suit']}")
    assert [e.label for e in at.expander if e.label.startswith("Cards dealt")] == [
        "Cards dealt (needed: the table piles)"
    ]
    # said before the first card, not only when Save is refused after the last
    assert any(c.value.startswith("This game needs the table piles") for c in at.caption)
    at.segmented_control(key=f"record_tap_mode_{draft_id}_1").set_value("hands").run()
    for card in [c for piles in deal["table"] for pile in piles for c in pile]:
        tap(at, f"record_card_{card}")
    assert not any("needed" in e.label for e in at.expander if e.label.startswith("Cards dealt"))
    at.segmented_control(key=f"record_tap_mode_{draft_id}_1").set_value("plays").run()
    assert not any(c.value.startswith("This game needs the table piles") for c in at.caption)
    tables = {b.key.rsplit("_", 2)[1]: b.value for b in at.text_input if b.key.startswith("record_table_")}
    assert tables == {
        str(seat): " ".join(c for pile in piles for c in pile) for seat, piles in enumerate(deal["table"])
    }


def test_the_calls_name_who_made_trump_after_a_pass(empty_app: tuple[AppTest, Path]) -> None:
    """ "Pass Anna · Trump ♥" never said that Carla made it."""
    at, _ = empty_app
    start_variant(at, "six_short", ["Anna", "Bert", "Carla", "Dirk", "Emiel", "Fien"], 0)
    tap(at, "record_pass")
    tap(at, "record_trump_H")
    assert "Pass Anna · troef :red[♥] harten Carla" in texts(at)


def test_a_pass_tapped_by_mistake_is_taken_back(empty_app: tuple[AppTest, Path]) -> None:
    """Before trump was made no undo was shown: a helper's mistaken "Pass" could only be recorded
    or the match closed. "Undo the last call" takes back a pass, the dealer to choose again."""
    at, path = empty_app
    draft_id = start_variant(at, "six_short", ["Anna", "Bert", "Carla", "Dirk", "Emiel", "Fien"], 0)
    assert not [b for b in at.button if b.key == "record_undo_call"]  # no call yet: nothing to take back
    tap(at, "record_pass")
    tap(at, "record_trump_H")
    tap(at, "record_undo_card")  # the trump call first, as before
    assert "Pass Anna" in texts(at) and "Trump" not in texts(at)
    tap(at, "record_undo_call")  # then the pass
    draft = drafts.load(draft_id, drafts.folder(path))
    assert draft is not None and draft.current is not None and draft.current.calls == []
    (dealer,) = [
        b for b in at.selectbox if b.key.startswith("record_dealer_")
    ]  # the dealer can be chosen again
    assert not [b for b in at.button if b.key == "record_undo_call"]
    # tapped, not typed: a filter to type in opened the phone's keyboard over the six names
    assert dealer.proto.filter_mode == SelectWidgetFilterMode.FILTER_MODE_NONE


def test_page_offers_the_house_rules_of_a_club(empty_app: tuple[AppTest, Path]) -> None:
    """The rules beyond the toggles (underbuying, capot, doublings, trump choice, who knocks,
    penalties, the club format) are chosen in the box and reach the draft."""
    at, path = empty_app
    at.run()
    at.switch_page("app_pages/record.py").run()
    open_expander(at, "record_house_rules_open")
    at.selectbox(key="record_underbuy_default").set_value("forced")
    at.selectbox(key="record_capot_default").set_value("fixed_60")
    at.selectbox(key="record_multipliers_default").set_value("added")
    at.selectbox(key="record_klop_by_default").set_value("left_of_dealer")
    at.selectbox(key="record_format_default").set_value("fixed")
    at.number_input(key="record_deals_default").set_value(6)
    at.toggle(key="record_muil_double_default").set_value(False)
    at.run()
    type_setup(at, variant="six", **{f"seat_{s}": n for s, n in enumerate("ABCDEF")})
    tap(at, "record_start")
    draft = drafts.load(str(at.query_params["draft"]), drafts.folder(path))
    assert draft is not None and draft.setup.variant == "six"
    rules = draft.setup.rules_value()
    assert (rules.underbuy, rules.capot, rules.multipliers, rules.klop_by) == (
        "forced",
        "fixed_60",
        "added",
        "left_of_dealer",
    )
    assert (rules.format, rules.deals, rules.muil_double, rules.variant) == ("fixed", 6, False, "six")
    assert "record_klop_3" in {b.key for b in at.button} or at.button(key="record_trump_H")


def test_page_takes_the_table_piles_typed_and_the_hands_from_the_cards_played(
    empty_app: tuple[AppTest, Path],
) -> None:
    """Typed instead of tapped: each table's piles as one line; the hands are left out."""
    at, path = empty_app
    sample = SAMPLES / "variant-two-open-fours.json"
    document = json.loads(sample.read_text())
    match, deal = document["match"], document["deals"][0]
    draft_id = start_variant(at, match["variant"], match["seats"], deal["dealer"])
    tap(at, "record_trump_H")
    assert "Cards dealt (needed: the table piles)" in [e.label for e in at.expander]
    for seat, piles in enumerate(deal["table"]):
        box = next(b for b in at.text_input if b.key.startswith(f"record_table_{draft_id}_1_{seat}_"))
        box.input(" ".join(c for p in piles for c in p))
    tap(at, "record_use_hands")
    assert not at.error, [e.value for e in at.error]
    assert "Open on the table: Anna" in texts(at)
    moves = {(m["trick"], m["play"]) for m in deal["table_moves"]}
    for number, trick in enumerate(deal["tricks"], start=1):
        for play, card in enumerate(trick, start=1):
            if (number, play) in moves:
                tap(at, "record_move")
            tap(at, f"record_card_{card}")
    tap(at, "record_save")
    assert "Deal 1 is saved in the archive. The quick check found" in texts(at)
    record = saved_record(path)["deals"][0]
    assert [sorted(h) for h in record["hands"]] == [sorted(h) for h in deal["hands"]]
    assert record["table"] == deal["table"] and record["table_moves"] == deal["table_moves"]


def test_page_records_the_turned_card_under_that_house_rule(empty_app: tuple[AppTest, Path]) -> None:
    at, path = empty_app
    sample = SAMPLES / "house-trump-turned-card.json"
    document = json.loads(sample.read_text())
    deal = document["deals"][0]
    at.run()
    at.switch_page("app_pages/record.py").run()
    open_expander(at, "record_house_rules_open")
    at.selectbox(key="record_trump_choice_default").set_value("turned_card")
    at.run()
    type_setup(at, **{f"seat_{s}": n for s, n in enumerate(document["match"]["seats"])}, dealer="2")
    tap(at, "record_start")
    draft_id = str(at.query_params["draft"])
    assert "record_muil" not in {b.key for b in at.button}  # the turned card makes trump: no muil
    at.text_input(key=f"record_turned_{draft_id}_1").input(deal["turned"]).run()
    assert [b.key for b in at.button if b.key and b.key.startswith("record_trump_") and not b.disabled] == [
        "record_trump_H"
    ]
    tap(at, "record_trump_H")
    for card in [c for trick in deal["tricks"] for c in trick]:
        tap(at, f"record_card_{card}")
    tap(at, "record_save")
    record = saved_record(path)
    assert record["match"]["rules"] == {"trump_choice": "turned_card"}
    assert record["deals"][0]["turned"] == deal["turned"]
    assert replay(loads(json.dumps(record))).deals[0].score == replay(load(sample)).deals[0].score
