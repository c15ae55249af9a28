"""Recording every variant with the Record page's logic (dashboards/recording.py).

Each sample record of a variant (``data/samples/variant-*.json``) is entered as a recorder
would: the set-up, the calls, the cards dealt that the variant needs, then every card tapped in
turn. What is expected comes from the sample and from the engine replaying it, never from the
recording code.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dashboards import recording as rec
from manillen_replay.engine import replay
from manillen_replay.record import load
from manillen_replay.rules import VARIANTS, Rules

SAMPLES = Path(__file__).resolve().parents[1] / "data" / "samples"
VARIANT_SAMPLES = sorted(SAMPLES.glob("variant-*.json"))


def sample(path: Path) -> dict[str, Any]:
    return dict(json.loads(path.read_text()))


def setup_of(document: dict[str, Any]) -> rec.Setup:
    match = document["match"]
    return rec.Setup(
        match_id=match["id"],
        seats=list(match["seats"]),
        rules=dict(match.get("rules", {})),
        first_dealer=document["deals"][0]["dealer"],
        variant=match.get("variant", "four"),
    )


def dealt_slots(deal: dict[str, Any], rules: Rules) -> list[str]:
    """The sample deal's cards in the order the page taps them in (:func:`rec.slots`)."""
    out: list[str] = []
    for slot in rec.slots(rules):
        if slot.kind == "discards":
            out += deal["discards"]
        elif slot.kind == "table":
            assert slot.seat is not None
            out += [card for pile in deal["table"][slot.seat] for card in pile]
        else:
            assert slot.seat is not None
            out += deal["hands"][slot.seat]
    return out


def enter(document: dict[str, Any], *, tap_dealt: str) -> rec.Draft:
    """A draft with the sample's first deal entered; ``tap_dealt``: ``all`` (every slot tapped),
    ``needed`` (only what the variant's record cannot do without: table piles, laid-aside cards)."""
    setup = setup_of(document)
    rules = setup.rules_value()
    deal = document["deals"][0]
    draft = rec.new_draft("d-" + setup.variant, setup)
    for call in deal["declarations"]:
        draft = rec.add_call(draft, call["seat"], call["call"], call.get("suit"))
    cards = dealt_slots(deal, rules)
    if tap_dealt == "needed":
        needed = [s for s in rec.slots(rules) if s.kind != "hand"]
        cards = cards[: sum(s.size for s in needed if s.kind == "table")] + (
            deal["discards"] if rules.shape.discards else []
        )
        assert draft.current is not None
        draft = rec.set_hands(
            draft,
            None,
            [[c for pile in piles for c in pile] for piles in deal["table"]] if "table" in deal else None,
            deal.get("discards"),
        )
    else:
        for card in cards:
            if rec.slot_being_tapped(draft.current or rec.DealDraft(0), rules) is None:
                break  # the last slot was filled with the cards left
            draft = rec.tap_hand_card(draft, card)
    moves = {(m["trick"], m["play"]) for m in deal.get("table_moves", [])}
    for number, trick in enumerate(deal["tricks"], start=1):
        for play, card in enumerate(trick, start=1):
            if (number, play) in moves:
                draft = rec.move_to_empty_place(draft)
            draft = rec.play_card(draft, card)
    return draft


@pytest.mark.parametrize("path", VARIANT_SAMPLES, ids=lambda p: p.stem)
@pytest.mark.parametrize("tap_dealt", ["all", "needed"])
def test_each_variant_records_to_the_samples_cards_and_result(path: Path, tap_dealt: str) -> None:
    document = sample(path)
    draft = enter(document, tap_dealt=tap_dealt)
    finished, record, result = rec.finish_deal(draft)
    expected = replay(load(path))
    want, got = document["deals"][0], json.loads(rec.record_json(record))["deals"][0]
    assert got["tricks"] == want["tricks"]
    assert got.get("table") == want.get("table")
    assert sorted(got.get("discards", [])) == sorted(want.get("discards", []))  # the last slot: grid order
    assert got.get("table_moves") == want.get("table_moves")
    if tap_dealt == "all" or "table" in want:  # the table variants' hands follow from the piles and plays
        assert [sorted(h) for h in got["hands"]] == [sorted(h) for h in want["hands"]]
    assert result.deals[0].score == expected.deals[0].score
    assert result.deals[0].points == expected.deals[0].points
    assert json.loads(rec.record_json(record))["match"]["variant"] == document["match"]["variant"]
    assert finished.current is not None and finished.current.dealer == rec.next_dealer(
        finished.deals, finished.setup.rules_value()
    )


@pytest.mark.parametrize("path", VARIANT_SAMPLES, ids=lambda p: p.stem)
def test_table_follows_the_engine_in_each_variant(path: Path) -> None:
    """Who plays each card and who takes each trick are the engine's, trick by trick."""
    document = sample(path)
    draft = enter(document, tap_dealt="all")
    assert draft.current is not None
    table = rec.table_of(draft.current, draft.setup.rules_value())
    engine = replay(load(path)).deals[0]
    assert [t.winner for t in table.tricks] == [t.winner for t in engine.tricks]
    assert [[p.seat for p in t.plays] for t in table.tricks] == [list(t.seats) for t in engine.tricks]
    assert table.taken == engine.points
    assert table.complete and table.to_play is None


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_set_up_wants_as_many_names_as_the_variant_has_people(variant: str) -> None:
    people = VARIANTS[variant].people
    names = ["Anna", "Bert", "Carla", "Dirk", "Emiel", "Fien", "Gust"]
    ok = rec.new_draft("d", rec.Setup("m", names[:people], variant=variant))
    assert ok.setup.rules_value().variant == variant
    with pytest.raises(rec.RecordingError, match=f"{people} players are needed"):
        rec.new_draft("d", rec.Setup("m", names[: people + 1], variant=variant))


def test_old_draft_without_a_variant_loads_as_the_main_game() -> None:
    draft = rec.new_draft("d", rec.Setup("m", ["Anna", "Bert", "Carla", "Dirk"]))
    raw = json.loads(draft.to_json())
    del raw["setup"]["variant"]
    for key in ("table", "discards"):
        del raw["current"][key]
    again = rec.Draft.from_json(json.dumps(raw))
    assert again.setup.variant == "four" and again.setup.rules_value() == Rules()


def test_variant_draft_round_trips_with_its_table_and_laid_aside_cards() -> None:
    document = sample(SAMPLES / "variant-two-open.json")
    draft = enter(document, tap_dealt="needed")
    again = rec.Draft.from_json(draft.to_json())
    assert again == draft


def test_face_down_card_is_refused_until_it_turns_up() -> None:
    document = sample(SAMPLES / "variant-two-open.json")
    document["deals"][0]["tricks"] = []
    draft = enter(document, tap_dealt="needed")
    # Anna (seat 1 leads: dealer 0) ... Bert leads; his face-down 8D lies under QD... take one
    deal = document["deals"][0]
    face_down = deal["table"][1][0][0]  # the first pile's lower card of seat 1, who leads
    with pytest.raises(rec.RecordingError, match="face down"):
        rec.play_card(draft, face_down)
    open_card = deal["table"][0][0][1]  # seat 0's face-up card is not seat 1's to play
    with pytest.raises(rec.RecordingError, match="another seat's table"):
        rec.play_card(draft, open_card)
    played = rec.play_card(draft, deal["table"][1][0][1])  # the face-up card on it
    assert played.current is not None and played.current.plays == [deal["table"][1][0][1]]


def test_a_card_the_dummy_does_not_have_is_refused_naming_the_dummy() -> None:
    """ "? heeft 8♥ niet: ... tik de kaart van ?": the dummy's seat has no name in the set-up; the
    refusal names it as the page does, by the dealer who plays it."""
    document = sample(SAMPLES / "variant-three-dummy.json")
    deal = document["deals"][0]
    plays = [card for trick in deal["tricks"] for card in trick]
    document["deals"][0]["tricks"] = []
    draft = enter(document, tap_dealt="needed")
    rules = draft.setup.rules_value()
    dummy = rules.shape.people  # the seat after the people's
    for card in plays:
        assert draft.current is not None
        if rec.table_of(draft.current, rules).to_play == dummy:
            break
        draft = rec.play_card(draft, card)
    else:
        pytest.fail("the dummy never played")
    dealer = document["match"]["seats"][deal["dealer"]]
    someone_elses = deal["hands"][(deal["dealer"] + 1) % dummy][-1]
    with pytest.raises(rec.RecordingError) as refused:
        rec.play_card(draft, someone_elses)
    assert refused.value.said("nl").startswith(f"De blinde van {dealer} heeft ")  # a sentence opens
    assert refused.value.said("en").startswith(f"{dealer}'s dummy does not hold ")


def test_a_dummys_table_typed_wrong_is_refused_naming_the_dummy() -> None:
    """ "the dummy's table: 7 cards, not 8" (in Dutch lower case at a sentence's start) where the
    field above said whose: named as the page names it, by the dealer who plays it."""
    document = sample(SAMPLES / "variant-three-dummy.json")
    deal = document["deals"][0]
    document["deals"][0]["tricks"] = []
    draft = rec.new_draft("d", setup_of(document))
    dealer = document["match"]["seats"][deal["dealer"]]
    short = [[card for pile in piles for card in pile] for piles in deal["table"]]
    short[3] = short[3][:-1]
    with pytest.raises(rec.RecordingError) as refused:
        rec.set_hands(draft, None, table=short)
    assert refused.value.said("en") == f"{dealer}'s dummy's table: 7 cards, not 8"
    assert refused.value.said("nl") == f"De tafel van de blinde van {dealer}: 7 kaarten, niet 8"


def test_six_short_passes_move_the_trump_choice_to_the_teammates() -> None:
    document = sample(SAMPLES / "variant-six-short.json")
    draft = rec.new_draft("d", setup_of(document))
    rules = draft.setup.rules_value()
    assert draft.current is not None
    assert rec.chooser(draft.current, rules) == 0
    draft = rec.add_call(draft, 0, "pass")
    assert draft.current is not None and rec.chooser(draft.current, rules) == 2
    with pytest.raises(rec.RecordingError):
        rec.add_call(draft, 0, "trump", "H")  # the choice is no longer the dealer's


def test_each_deal_of_the_cafe_rules_sample_records_to_its_result() -> None:
    """Blind muil, en face (the dealer's partner makes trump), eternal klop and the redeal, called
    as the page calls them and scored as the sample is."""
    path = SAMPLES / "cafe-rules.json"
    document = sample(path)
    expected = replay(load(path))
    draft = rec.new_draft("cafe", setup_of(document))
    for number, deal in enumerate(document["deals"]):
        assert draft.current is not None and draft.current.dealer == deal["dealer"]
        for call in deal["declarations"]:
            draft = rec.add_call(draft, call["seat"], call["call"], call.get("suit"))
        for trick in deal.get("tricks", []):
            for card in trick:
                draft = rec.play_card(draft, card)
        draft, _, result = rec.finish_deal(draft)
        assert result.deals[number].score == expected.deals[number].score
        assert result.deals[number].multiplier == expected.deals[number].multiplier


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_en_face_passes_the_trump_choice_to_the_dealer_s_partner(dealer: int) -> None:
    setup = rec.Setup(
        match_id="m",
        seats=["Anna", "Bert", "Carla", "Dirk"],
        rules={"cafe": {"en_face": True}},
        first_dealer=dealer,
    )
    rules = setup.rules_value()
    draft = rec.add_call(rec.new_draft("d", setup), dealer, "en_face")  # the partner's call still to come
    partner = (dealer + 2) % 4
    assert draft.current is not None and rec.chooser(draft.current, rules) == partner
    with pytest.raises(rec.RecordingError):
        rec.add_call(draft, dealer, "trump", "C")  # the choice is the partner's now
    draft = rec.add_call(draft, partner, "trump", "C")
    assert draft.current is not None
    assert draft.current.calls == [
        {"seat": dealer, "call": "en_face"},
        {"seat": partner, "call": "trump", "suit": "C"},
    ]


@pytest.mark.parametrize(
    ("variant", "word", "seats"),
    [
        ("four", "klop", [1, 3]),
        ("two_open", "klop", [1]),
        ("three", "klop", [1, 2]),
        ("six", "klop", [1, 3, 5]),
    ],
)
def test_who_may_knock_follows_the_variants_sides(variant: str, word: str, seats: list[int]) -> None:
    deal = rec.DealDraft(0, calls=[{"seat": 0, "call": "trump", "suit": "H"}])
    assert rec.knockers(deal, Rules(variant=variant)) == (word, seats)


def test_scoresheet_line_of_a_three_player_match_counts_for_the_sides() -> None:
    draft = rec.new_draft("d", rec.Setup("m", ["Anna", "Bert", "Carla"], variant="three", first_dealer=0))
    draft, record, result = rec.finish_deal(rec.scoresheet_line(draft, 1, 6))
    assert result.deals[0].match_score == (0, 6, 6)  # each opponent of the dealer scores it
    assert json.loads(rec.record_json(record))["match"]["variant"] == "three"


def test_a_face_down_card_of_the_3rd_pile_played_without_the_move_makes_it() -> None:
    """Played straight away, the card under the 3rd pile's top can only have come by the move."""
    document = sample(SAMPLES / "variant-two-open.json")
    deal = document["deals"][0]
    (move,) = deal["table_moves"]
    moved_at = next(
        i
        for i, card in enumerate(c for t in deal["tricks"] for c in t)
        if card == deal["table"][move["seat"]][2][0]
    )
    draft = enter({**document, "deals": [{**deal, "table_moves": [], "tricks": []}]}, tap_dealt="needed")
    for card in [c for t in deal["tricks"] for c in t][: moved_at + 1]:
        draft = rec.play_card(draft, card)
    assert draft.current is not None
    table = rec.table_of(draft.current, draft.setup.rules_value())
    assert [seat for _, _, seat in table.moves] == [move["seat"]]


def test_saved_two_player_deal_reopens_with_its_move() -> None:
    document = sample(SAMPLES / "variant-two-open.json")
    draft = enter(document, tap_dealt="needed")
    finished, _, _ = rec.finish_deal(draft)
    reopened = rec.reopen(finished, 1)
    assert reopened.current is not None
    assert (
        rec.deal_object(reopened.current, reopened.setup.rules_value())["table_moves"]
        == (document["deals"][0]["table_moves"])
    )


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_scoresheet_line_counts_in_every_variant(variant: str) -> None:
    shape = VARIANTS[variant]
    names = ["Anna", "Bert", "Carla", "Dirk", "Emiel", "Fien"][: shape.people]
    draft = rec.new_draft("d", rec.Setup("m", names, variant=variant, first_dealer=0))
    draft, record, result = rec.finish_deal(rec.scoresheet_line(draft, 0, 5))
    want = [0] * shape.scorers
    for scorer in shape.side_scorers(0, 0):
        want[scorer] = 5
    assert list(result.deals[0].match_score) == want
    assert draft.current is not None and draft.current.dealer == shape.next_dealer(0)
    assert rec.Draft.from_json(draft.to_json()).setup.variant == variant
    assert json.loads(rec.record_json(record))["deals"] == [
        {"dealer": 0, "recorded_score": {"team": 0, "points": 5}}
    ]


def test_cards_dealt_that_do_not_fit_the_cards_played_are_refused() -> None:
    document = sample(SAMPLES / "variant-three-dummy.json")
    deal = document["deals"][0]
    draft = enter(document, tap_dealt="needed")
    piles = [[c for pile in piles for c in pile] for piles in deal["table"]]
    swapped = [list(p) for p in piles]
    played_from_dummy = deal["tricks"][0][1]  # the dummy plays second in the first trick
    (holder,) = [hand for hand in deal["hands"] if deal["tricks"][0][0] in hand]
    swapped[3][swapped[3].index(played_from_dummy)] = holder[1]
    with pytest.raises(rec.RecordingError, match="do not fit the cards played"):
        rec.set_hands(draft, None, swapped, None)


def test_turned_card_goes_into_the_record_and_must_match_the_trump() -> None:
    path = SAMPLES / "house-trump-turned-card.json"
    document = sample(path)
    deal = document["deals"][0]
    draft = rec.new_draft("d", setup_of(document))
    with pytest.raises(rec.RecordingError, match="house rule"):
        rec.set_turned(rec.new_draft("d", rec.Setup("m", document["match"]["seats"])), deal["turned"])
    draft = rec.set_turned(draft, deal["turned"].lower())
    for call in deal["declarations"]:
        draft = rec.add_call(draft, call["seat"], call["call"], call.get("suit"))
    with pytest.raises(rec.RecordingError, match="are trump"):
        rec.set_turned(draft, "7S")
    for card in [c for trick in deal["tricks"] for c in trick]:
        draft = rec.play_card(draft, card)
    _, record, result = rec.finish_deal(draft)
    assert json.loads(rec.record_json(record))["deals"][0]["turned"] == deal["turned"]
    assert result.deals[0].score == replay(load(path)).deals[0].score


def played_out(name: str) -> tuple[dict[str, Any], rec.Draft]:
    """A sample's first deal with its calls and plays alone: no card dealt tapped or typed."""
    document = sample(SAMPLES / f"{name}.json")
    deal = document["deals"][0]
    draft = rec.new_draft("d", setup_of(document))
    for call in deal["declarations"]:
        draft = rec.add_call(draft, call["seat"], call["call"], call.get("suit"))
    for card in [c for trick in deal["tricks"] for c in trick]:
        draft = rec.play_card(draft, card)  # the plays alone: whose turn still follows the engine
    return deal, draft


def test_a_two_player_deal_played_out_without_its_table_piles_is_not_saved() -> None:
    _, draft = played_out("variant-two-open")
    assert draft.current is not None and rec.missing_dealt(draft.current, draft.setup.rules_value()) == [
        "table"
    ]
    with pytest.raises(
        rec.RecordingError, match="the table piles of this game are needed: type them"
    ) as refused:
        rec.finish_deal(draft)
    assert "tap them" not in str(refused.value)  # a card is played: tapping the cards dealt is over


@pytest.mark.parametrize("name", ["variant-three", "variant-six-short"])
def test_the_cards_laid_aside_of_a_deal_played_out_are_the_two_nobody_played(name: str) -> None:
    deal, draft = played_out(name)
    rules = draft.setup.rules_value()
    assert draft.current is not None and rec.missing_dealt(draft.current, rules) == []
    # the page's points count the two cards nobody played for the side that did not make trump, as
    # the save does: they added up to 55 of 60 until the cards laid aside were typed
    shown = rec.table_of(draft.current, rules).taken
    _, record, result = rec.finish_deal(draft)
    assert shown == result.deals[0].points and sum(shown) == 60
    assert sorted(json.loads(rec.record_json(record))["deals"][0]["discards"]) == sorted(deal["discards"])
    assert result.deals[0].score == replay(load(SAMPLES / f"{name}.json")).deals[0].score
    undone = rec.undo_card(draft)  # one card short: nothing to lay aside yet
    assert undone.current is not None and rec.missing_dealt(undone.current, rules) == ["discards"]
    # with the scoresheet's line written too: the save refused the deal for want of the laid-aside
    # cards, which the page said need not be given
    scored = rec.write_score(draft, result.deals[0].score.team, result.deals[0].score.points)
    _, record, again = rec.finish_deal(scored)
    assert sorted(json.loads(rec.record_json(record))["deals"][0]["discards"]) == sorted(deal["discards"])
    assert again.deals[0].score == result.deals[0].score and not again.deals[0].score_mismatch
