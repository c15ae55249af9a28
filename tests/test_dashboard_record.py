"""The Record page: its logic (dashboards/recording.py) against the engine, and the page through AppTest.

Expected winners, points, scores and illegal plays come from the engine replaying the record the
deal was taken from (or from the archive the page saved into), never from the page's own code.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from dashboards import data, drafts
from dashboards import recording as rec
from dashboards.cards import SYMBOLS
from dashboards.native_inputs import chosen_state
from manillen_replay.cards import CARD_TEXT, iter_mask
from manillen_replay.engine import replay
from manillen_replay.record import Deal, Declaration, MatchInfo, Record, loads, loads_text
from manillen_replay.rules import Rules
from manillen_replay.state import DealState
from manillen_replay.store import Store

from .factories import SEATS, deal_hands, deal_record, play_out, random_deal
from .test_dashboard import APP, build_archive, fixture_records, open_expander, texts

# --------------------------------------------------------------------------- deals to enter


def legal_deal(seed: int = 7, dealer: int = 3) -> Deal:
    """A complete deal of random legal cards with its hands and the dealer's trump call."""
    return random_deal(random.Random(seed), dealer)


def deal_with_illegal_play() -> tuple[Deal, int]:
    """A complete deal whose cards are legal except one, and that play's place (0-based)."""
    for seed in range(100):
        rng = random.Random(seed)
        hands = deal_hands(rng)
        state = DealState.start(Rules(), 3, 0, hands)
        count = 0
        slipped: list[int] = []

        def choose(s: DealState, rng: random.Random = rng, slipped: list[int] = slipped) -> int:
            nonlocal count
            count += 1
            wrong = s.playable(s.to_play) & ~s.legal_mask()
            if count > 8 and wrong and not slipped:
                slipped.append(count - 1)
                return rng.choice(list(iter_mask(wrong)))
            return rng.choice(list(iter_mask(s.legal_mask())))

        tricks, _ = play_out(state, choose)
        if slipped:
            return deal_record(3, 0, hands, tricks), slipped[0]
    raise AssertionError("no deal with an illegal play in 100 seeds")


def cards_of(deal: Deal) -> list[str]:
    assert isinstance(deal.tricks, list)
    return [card for trick in deal.tricks for card in trick]


def engine_deal(deal: Deal) -> object:
    record = Record(format="manillen/1", match=MatchInfo(seats=list(SEATS)), deals=[deal])
    return replay(record).deals[0]


def setup(match_id: str = "t-1", dealer: int = 3) -> rec.Setup:
    return rec.Setup(match_id=match_id, seats=list(SEATS), date="2026-12-01", first_dealer=dealer)


def entered(deal: Deal, *, with_hands: bool = True) -> rec.Draft:
    """A draft with the deal's calls, (hands) and every card tapped in through the logic."""
    draft = rec.new_draft("abc", setup(dealer=deal.dealer))
    assert isinstance(deal.declarations, list) and isinstance(deal.hands, list)
    for call in deal.declarations:
        draft = rec.add_call(draft, call.seat, call.call, call.suit if isinstance(call.suit, str) else None)
    if with_hands:
        draft = rec.set_hands(draft, deal.hands)
    for card in cards_of(deal):
        draft = rec.play_card(draft, card)
    return draft


# --------------------------------------------------------------------------- the logic


@pytest.mark.parametrize("with_hands", [True, False])
def test_table_follows_the_engine_trick_by_trick(with_hands: bool) -> None:
    deal = legal_deal()
    draft = entered(deal, with_hands=with_hands)
    assert draft.current is not None
    table = rec.table_of(draft.current, Rules())
    expected = engine_deal(deal)
    assert table.complete
    assert [(t.leader, t.winner, t.points) for t in table.tricks] == [
        (t.seats[0], t.winner, t.points)
        for t in expected.tricks  # type: ignore[attr-defined]
    ]
    assert table.taken == expected.points  # type: ignore[attr-defined]
    assert (table.legal is not None) is False  # the deal is over: nobody to play
    assert table.to_play is None


def test_seat_to_play_and_legal_cards_are_the_engines() -> None:
    deal = legal_deal(seed=11)
    draft = rec.new_draft("abc", setup(dealer=deal.dealer))
    draft = rec.add_call(draft, deal.dealer, "trump", "HDCS"[engine_deal(deal).trump])  # type: ignore[attr-defined]
    assert isinstance(deal.hands, list)
    draft = rec.set_hands(draft, deal.hands)
    expected = engine_deal(deal)
    for trick in expected.tricks:  # type: ignore[attr-defined]
        for position, card in enumerate(trick.cards):
            assert draft.current is not None
            table = rec.table_of(draft.current, Rules())
            assert table.to_play == trick.seats[position]
            assert table.legal is not None and table.legal.cards.mask == trick.legal[position]
            draft = rec.play_card(draft, CARD_TEXT[card])


def test_illegal_play_is_kept_and_named_like_the_engine_does() -> None:
    deal, place = deal_with_illegal_play()
    draft = entered(deal)
    assert draft.current is not None
    illegal = rec.table_of(draft.current, Rules()).illegal()
    expected = engine_deal(deal).violations  # type: ignore[attr-defined]
    assert [(number, p.violation) for number, p in illegal] == [(v.trick, v.kind) for v in expected]
    assert len(illegal) == 1 and illegal[0][0] == place // 4 + 1


def test_card_not_in_the_hand_is_refused_with_the_name() -> None:
    deal = legal_deal()
    draft = entered(deal)
    assert draft.current is not None and isinstance(deal.hands, list)
    draft = rec.undo_trick(rec.undo_card(draft))
    table = rec.table_of(draft.current, Rules())  # type: ignore[arg-type]
    assert table.to_play is not None
    other = next(c for c in deal.hands[(table.to_play + 1) % 4] if rec.CARD_BY_TEXT[c] not in table.played)
    with pytest.raises(rec.RecordingError, match=SEATS[table.to_play]):
        rec.play_card(draft, other)


def test_undo_card_and_trick() -> None:
    deal = legal_deal()
    cards = cards_of(deal)
    draft = entered(deal)
    assert draft.current is not None
    assert rec.undo_card(draft).current.plays == cards[:-1]  # type: ignore[union-attr]
    assert rec.undo_trick(draft).current.plays == cards[:28]  # type: ignore[union-attr]
    half = rec.undo_card(rec.undo_card(rec.undo_trick(draft)))  # trick 7 with two cards
    assert rec.undo_trick(half).current.plays == cards[:24]  # type: ignore[union-attr]


def test_edit_an_earlier_trick_then_the_leaders_follow() -> None:
    deal = legal_deal()
    cards = cards_of(deal)
    draft = entered(deal, with_hands=False)
    swapped = [cards[1], cards[0], cards[2], cards[3]]
    edited = rec.edit_trick(draft, 1, swapped)
    assert edited.current is not None and edited.current.plays[:4] == swapped
    with pytest.raises(rec.RecordingError, match="typed twice in trick 1"):
        rec.edit_trick(draft, 1, [cards[1], cards[1], cards[2], cards[3]])
    with pytest.raises(rec.RecordingError, match="not played yet"):
        rec.edit_trick(rec.undo_trick(rec.undo_trick(draft)), 8, cards[:4])


def test_a_card_recorded_in_the_wrong_trick_is_put_right_with_one_edit() -> None:
    """Two cards of one seat swapped between tricks: typing either trick as it was swaps them back
    (each trick alone found the other's copy: "played twice", and no order of edits got out)."""
    deal = legal_deal()
    cards = cards_of(deal)
    right = entered(deal)  # the cards dealt known: each card must be its seat's
    assert right.current is not None
    assert isinstance(deal.hands, list)
    seat_of = {card: seat for seat, hand in enumerate(deal.hands) for card in hand}
    # a card of trick 1 and one of a later trick that the same seat played, swapped when recorded
    first = next(i for i in range(4) for j in range(8, 32) if seat_of[cards[i]] == seat_of[cards[j]])
    later = next(j for j in range(8, 32) if seat_of[cards[first]] == seat_of[cards[j]])
    wrong = list(cards)
    wrong[first], wrong[later] = wrong[later], wrong[first]
    draft = dataclasses.replace(right, current=dataclasses.replace(right.current, plays=wrong))
    fixed = rec.edit_trick(draft, 1, cards[:4])
    assert fixed.current is not None and fixed.current.plays == cards


def test_calls_are_checked_by_the_engine_at_once() -> None:
    draft = rec.new_draft("abc", setup(dealer=3))
    with pytest.raises(rec.RecordingError, match="may not make trump"):
        rec.add_call(draft, 0, "trump", "H")
    draft = rec.add_call(draft, 3, "trump", "H")
    with pytest.raises(rec.RecordingError, match="dealing team"):
        rec.add_call(draft, 1, "klop")
    assert rec.add_call(draft, 0, "klop").current.calls[-1] == {"seat": 0, "call": "klop"}  # type: ignore[union-attr]


def test_finish_deal_rotates_the_dealer_and_scores_like_the_engine() -> None:
    deal = legal_deal(dealer=3)
    finished, record, result = rec.finish_deal(entered(deal))
    assert finished.current is not None and finished.current.dealer == 0
    assert result.deals[0].score == engine_deal(deal).score  # type: ignore[attr-defined]
    assert loads_text(rec.share_text(finished))[0].deals == record.deals


def test_unfinished_deal_is_not_saved() -> None:
    draft = rec.undo_card(entered(legal_deal()))
    with pytest.raises(rec.RecordingError, match="31 of 32"):
        rec.finish_deal(draft)


def test_a_dealer_chosen_for_a_deal_already_saved_changes_nothing() -> None:
    """Lijn bewaren, then a quick tap on the next deal: the page sent the saved deal's dealer picker
    again, and its dealer (Bert) became the next deal's, the rotation a seat behind from then on."""
    draft = rec.new_draft("abc", setup(dealer=1))
    draft, _, _ = rec.finish_deal(rec.scoresheet_line(draft, 1, 6))
    assert draft.number == 2 and draft.current is not None and draft.current.dealer == 2
    assert not rec.set_dealer(draft, 1, 1)  # deal 1's picker, from the page before the save
    assert draft.current.dealer == 2
    assert rec.set_dealer(draft, 2, 3) and draft.current.dealer == 3  # this deal's own picker
    draft = rec.add_call(draft, 3, "trump", "H")
    assert draft.current is not None and not rec.set_dealer(draft, 2, 0)  # under way: no picker
    assert draft.current.dealer == 3


def test_scoresheet_lines_count_for_the_match() -> None:
    draft = rec.new_draft("abc", setup())
    draft, _, _ = rec.finish_deal(rec.scoresheet_line(draft, 1, 12))
    draft, _, result = rec.finish_deal(rec.scoresheet_line(draft, None))
    assert result.deals[0].match_score == (0, 12)
    assert result.deals[1].tie and result.deals[1].kind.value == "scoresheet"
    assert draft.current is not None and draft.current.dealer == 1  # 3, then 0, then 1


def test_draft_round_trips_through_json() -> None:
    draft = rec.undo_card(entered(legal_deal()))
    assert rec.Draft.from_json(draft.to_json()) == draft
    with pytest.raises(rec.RecordingError):
        rec.Draft.from_json("{}")


def test_set_up_refuses_what_the_record_cannot_hold() -> None:
    with pytest.raises(rec.RecordingError, match="same name"):
        rec.new_draft("x", rec.Setup("m", ["Anna", "Bert", "Anna", "Dirk"]))
    with pytest.raises(rec.RecordingError, match="same name"):  # one player at the table
        rec.new_draft("x", rec.Setup("m", ["Anna", "Bert", "anna", "Dirk"]))
    with pytest.raises(rec.RecordingError, match="dummy"):  # the notation's word for a seat
        rec.new_draft("x", rec.Setup("m", ["Anna", "Bert", "Dummy", "Dirk"]))
    # a name of two words is a name in JSON and in the notation (quoted) alike
    draft = rec.new_draft("x", rec.Setup("m", ["Anna M", "Bert", "Carla", "Dirk"]))
    assert loads_text(rec.share_text(draft, with_current=True))[0].match.seats[0] == "Anna M"


def test_hands_typed_with_symbols_and_the_fourth_filled_in() -> None:
    deal = legal_deal()
    assert isinstance(deal.hands, list)
    three = [rec.parse_hand(" ".join(h).replace("H", "♥").lower()) for h in deal.hands[:3]]
    assert three == [list(h) for h in deal.hands[:3]]
    assert sorted(rec.last_hand(three)) == sorted(deal.hands[3])


# --------------------------------------------------------------------------- the page


@pytest.fixture
def empty_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[AppTest, Path]]:
    """The app on an archive that does not exist yet (the first deal saved creates it)."""
    path = tmp_path / "table.duckdb"
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(path))
    yield AppTest.from_file(APP, default_timeout=60), path


SETUP_FIELDS = "record_setup"
"""The key of the new match's inputs (``record.SETUP_FIELDS``; importing a page would run it)."""


def setup_inputs(at: AppTest) -> dict[str, Any]:
    """The new match's inputs as the page hands them to the browser: ``fields``, the ``values``
    they show and the ``lists`` of names and venues they suggest (dashboards/native_inputs.py)."""
    [inputs] = [e for e in at.get("bidi_component") if e.proto.component_name == "manillen_native_inputs"]
    shown: dict[str, Any] = json.loads(inputs.proto.json)
    return shown


def type_setup(at: AppTest, **typed: str) -> None:
    """Type or choose in the new match's inputs as a person does (``seat_0="Anna"``,
    ``date="2026-11-30"``, ``dealer="1"``), then the page runs again."""
    at.session_state[SETUP_FIELDS] = chosen_state(setup_inputs(at)["values"] | typed)
    at.run()


def type_seats(at: AppTest, names: list[str] = SEATS) -> None:
    type_setup(at, **{f"seat_{seat}": name for seat, name in enumerate(names)})


def start_match(at: AppTest, names: list[str] = SEATS) -> str:
    """Open the Record page, type four names and start; the draft id from the page address."""
    at.run()
    at.switch_page("app_pages/record.py").run()
    type_seats(at, names)
    at.button(key="record_start").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return str(at.query_params["draft"])


def test_the_replay_s_address_left_on_the_record_page_gives_way_to_the_draft_s(
    empty_app: tuple[AppTest, Path],
) -> None:
    """An organiser's sweep: Back from the Deal replay sometimes left the replay's address on the
    Record page (record?match=...&deal=2&step=0), and a reload then opened an empty new match
    instead of the table's. The page writes its draft's address again."""
    at, _ = empty_app
    draft_id = start_match(at)
    at.query_params.clear()
    at.query_params.update({"match": "t-1", "deal": "2", "step": "0"})
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert dict(at.query_params) == {"draft": draft_id}, dict(at.query_params)


def tap(at: AppTest, key: str) -> None:
    at.button(key=key).click().run()
    assert not at.exception, [e.value for e in at.exception]


def open_at_draft(at: AppTest, draft_id: str) -> AppTest:
    """The Record page opened at a draft's address, as a new browser session (a reload, a phone
    that slept) opens it."""
    at.run()
    at.query_params["draft"] = draft_id
    at.switch_page("app_pages/record.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def type_hands(at: AppTest, draft_id: str, hands: list[list[str]], number: int = 1) -> None:
    for seat, hand in enumerate(hands[:3]):
        # the box's key ends with how many cards of the hand were tapped (0 here)
        box = next(b for b in at.text_input if b.key.startswith(f"record_hand_{draft_id}_{number}_{seat}_"))
        box.input(" ".join(hand))
    tap(at, "record_use_hands")


def test_hands_typed_in_part_or_wrong_are_said_not_dropped(empty_app: tuple[AppTest, Path]) -> None:
    """One hand of three cards and the others empty: "Use these hands" dropped them without a
    word; a card mistyped gave "unknown card" alone."""
    at, _ = empty_app
    deal = legal_deal()
    draft_id = start_match(at)
    tap(at, f"record_trump_{'HDCS'[engine_deal(deal).trump]}")  # type: ignore[attr-defined]
    assert isinstance(deal.hands, list)
    type_hands(at, draft_id, [deal.hands[0][:3], [], [], []])
    assert [e.value.replace("\\", "") for e in at.error] == [  # shown as text: markdown escaped
        "Bert's hand is empty: type every hand, or none. The last one fills itself once the others "
        "hold 8 cards each."
    ]
    type_hands(
        at, draft_id, [["![p](http://192.0.2.2/r.png)", *deal.hands[0][1:]], deal.hands[1], deal.hands[2], []]
    )
    # what was typed comes back as text: as markdown, the browser fetched the image
    assert any("\\!\\[p\\]\\(http" in e.value for e in at.error), [e.value for e in at.error]
    type_hands(at, draft_id, [["7X", *deal.hands[0][1:]], deal.hands[1], deal.hands[2], []])
    assert any(
        "unknown card '7X': a card is its rank (7 8 9 10 J Q K A) and its suit" in e.value.replace("\\", "")
        for e in at.error
    )


def test_the_dutch_page_says_why_a_step_is_refused_in_dutch(empty_app: tuple[AppTest, Path]) -> None:
    """A Dutch club's table read the Record page's refusals in English ("7X ... unknown card",
    "AH is dealt twice") under Dutch labels."""
    at, _ = empty_app
    deal = legal_deal()
    draft_id = start_match(at)
    at.session_state["lang"] = "nl"
    at.run()
    tap(at, f"record_trump_{'HDCS'[engine_deal(deal).trump]}")  # type: ignore[attr-defined]
    assert isinstance(deal.hands, list)
    type_hands(at, draft_id, [deal.hands[0][:3], [], [], []])
    assert [e.value.replace("\\", "") for e in at.error] == [
        "De hand van Bert is leeg: typ elke hand, of geen enkele. De laatste vult zichzelf zodra de "
        "andere elk 8 kaarten hebben."
    ]
    type_hands(at, draft_id, [["7X", *deal.hands[0][1:]], deal.hands[1], deal.hands[2], []])
    assert [e.value.replace("\\", "") for e in at.error] == [
        "onbekende kaart '7X': een kaart is haar waarde (7 8 9 10, J boer, Q vrouw, K heer, A aas) en "
        "haar kleur (H harten, D koeken, C klaveren, S schoppen, of ♥ ♦ ♣ ♠), zoals 10H of Q♠"
    ]
    twice = deal.hands[1][0]
    type_hands(at, draft_id, [[twice, *deal.hands[0][1:]], deal.hands[1], deal.hands[2], []])
    # the card as the grid shows it, with its suit's symbol
    assert [e.value for e in at.error] == [f"{SYMBOLS[twice]} is twee keer gedeeld"]


def test_a_refusal_is_said_in_either_language_with_its_parts() -> None:
    """The words of a refusal, its slot's name and the reason it wraps, in each language; its text
    (logs, tests) stays the English."""
    deal = legal_deal()
    assert isinstance(deal.hands, list)
    draft = rec.add_call(rec.new_draft("abc", setup(dealer=deal.dealer)), deal.dealer, "muil")
    for card in deal.hands[0]:
        draft = rec.tap_hand_card(draft, card)
    with pytest.raises(rec.RecordingError) as caught:
        rec.tap_hand_card(rec.untap_hand_card(draft), deal.hands[0][0])
    first = SYMBOLS[deal.hands[0][0]]  # as the grid shows it: 10♥
    assert str(caught.value) == f"{first} is already in Anna's hand"
    assert rec.said(caught.value, "nl") == f"{first} zit al in de hand van Anna"
    hands = [list(hand) for hand in deal.hands]
    hands[1] = hands[1][:7]
    with pytest.raises(rec.RecordingError) as caught:
        rec.set_hands(draft, hands)
    assert rec.said(caught.value, "en") == "Bert's hand: 7 cards, not 8" == str(caught.value)
    assert rec.said(caught.value, "nl") == "De hand van Bert: 7 kaarten, niet 8"  # a sentence opens with it
    # a reason the engine gives is said as the engine says it, in either language
    engine = rec.RecordingError("engine", message="illegal play: seat 2 does not hold 7C")
    assert rec.said(engine, "nl") == str(engine) == "illegal play: seat 2 does not hold 7C"


def test_a_refused_tap_is_said_in_a_toast_too(empty_app: tuple[AppTest, Path]) -> None:
    """An organiser's sweep: a refused tap was said above the grid only, off a phone's screen, so
    the tap seemed to do nothing. The refusal is said in a toast as well."""
    at, _ = empty_app
    start_match(at)
    tap(at, "record_trump_H")
    assert not at.toast
    # what a refused tap leaves for the run (a disabled card cannot be tapped here: a token
    # revoked since, another phone's late tap, are what the page refuses at the table)
    at.session_state["record_notice"] = [("error", "Only table 2's recorder may record this match.")]
    at.run()
    assert [e.value for e in at.error] == ["Only table 2's recorder may record this match."]
    assert [toast.value for toast in at.toast] == ["Only table 2's recorder may record this match."]
    at.session_state["record_notice"] = [("warning", "A warning stays in the page.")]
    at.run()
    assert not at.toast


def test_page_records_a_whole_deal_saves_and_analyses_it(empty_app: tuple[AppTest, Path]) -> None:
    at, path = empty_app
    deal = legal_deal()
    draft_id = start_match(at)
    assert "Anna & Carla" in texts(at) or at.button(key="record_trump_H")
    trump = "HDCS"[engine_deal(deal).trump]  # type: ignore[attr-defined]
    tap(at, f"record_trump_{trump}")
    assert {"record_klop_0", "record_klop_2"} <= {b.key for b in at.button}  # Dirk deals: Anna or Carla
    assert "record_klop_1" not in {b.key for b in at.button}
    tap(at, "record_klop_2")
    tap(at, "record_tegenklop_1")
    assert "Klop Carla · Tegenklop Bert" in texts(at)
    cards = cards_of(deal)
    assert isinstance(deal.declarations, list)
    deal.declarations += [Declaration(seat=2, call="klop"), Declaration(seat=1, call="tegenklop")]
    expected = engine_deal(deal)
    for index, card in enumerate(cards):
        tap(at, f"record_card_{card}")
        assert at.button(key=f"record_card_{card}").disabled  # greyed out once played
        if index % 4 == 3:
            trick = expected.tricks[index // 4]  # type: ignore[attr-defined]
            took = f"Trick {trick.number}: {SEATS[trick.winner]} takes {trick.points}"
            assert took in texts(at)
    tap(at, "record_save")
    assert "Deal 1 is saved in the archive. The quick check found" in texts(at)
    # the count said is the review's (its ranked decisions, no notes), as the review panel lists them
    said = re.search(r"The quick check found (no mistake|1 mistake|(\d+) mistakes) in the match", texts(at))
    assert said is not None, texts(at)
    with Store(path, read_only=True) as store:
        ranked = store.biggest_mistakes(
            [store.query("SELECT match_id FROM matches")["match_id"][0]], top=1000
        )
        noted = store.query("SELECT count(*) AS n FROM findings")["n"][0]
    counted = (
        0 if said.group(1) == "no mistake" else 1 if said.group(1) == "1 mistake" else int(said.group(2))
    )
    assert counted == ranked.height <= noted
    with Store(path, read_only=True) as store:
        row = store.query("SELECT match_id, analysed_at FROM matches").row(0, named=True)
        tricks = store.query("SELECT count(*) AS n FROM tricks")["n"][0]
        stored = store.query("SELECT score_team, score_points FROM deals").row(0, named=True)
    assert row["analysed_at"] is not None and tricks == 8
    score = expected.score  # type: ignore[attr-defined]
    assert (stored["score_team"], stored["score_points"]) == (score.team, score.points)
    saved = drafts.load(draft_id, drafts.folder(path))
    assert saved is not None and len(saved.deals) == 1
    assert saved.current is not None and saved.current.dealer == 0
    link = at.get("page_link")[0].proto
    assert "replay" in link.page and f"match={row['match_id']}" in link.query_string


def test_page_undo_card_and_trick(empty_app: tuple[AppTest, Path]) -> None:
    at, _ = empty_app
    cards = cards_of(legal_deal())
    start_match(at)
    tap(at, "record_trump_H")
    for card in cards[:6]:
        tap(at, f"record_card_{card}")
    tap(at, "record_undo_card")
    assert not at.button(key=f"record_card_{cards[5]}").disabled
    assert at.button(key=f"record_card_{cards[4]}").disabled
    tap(at, "record_undo_trick")
    assert not at.button(key=f"record_card_{cards[4]}").disabled
    assert at.button(key=f"record_card_{cards[3]}").disabled
    assert "4 of 32 cards in" in texts(at)


def test_page_warns_at_once_on_an_illegal_play(empty_app: tuple[AppTest, Path]) -> None:
    at, _ = empty_app
    deal, place = deal_with_illegal_play()
    assert isinstance(deal.hands, list)
    draft_id = start_match(at)
    tap(at, "record_trump_H")
    type_hands(at, draft_id, deal.hands)
    cards = cards_of(deal)
    for card in cards[:place]:
        tap(at, f"record_card_{card}")
        assert "Illegal play" not in texts(at)
    tap(at, f"record_card_{cards[place]}")
    warnings = [w.value for w in at.warning]
    kind = engine_deal(deal).violations[0].kind.value.replace("_", " ")  # type: ignore[attr-defined]
    played = SYMBOLS[cards[place]]  # written as the grid writes it: 9♣, not 9C
    assert any("Illegal play" in w and played in w and kind in w for w in warnings), warnings
    assert at.button(key=f"record_card_{cards[place]}").disabled  # kept as played
    # still said after a rerun and in the other language (it was said once, at the tap)
    at.run()
    assert any("Illegal play" in w.value and played in w.value for w in at.warning)
    at.session_state["lang"] = "nl"
    at.run()
    assert any("Onreglementair gespeeld" in w.value and played in w.value for w in at.warning)
    at.session_state["lang"] = "en"
    at.run()
    for card in cards[place + 1 :]:
        tap(at, f"record_card_{card}")
    warnings = [w.value for w in at.warning]
    said = "1 illegal play in this deal: it is kept, and the analysis reports it. A penalty the table gave"
    assert any(w.startswith(said) and "(penalty TEAM POINTS;" in w for w in warnings), warnings


def tap_an_illegal_deal(at: AppTest) -> tuple[Deal, int, str]:
    """A new match, and a deal with an illegal play tapped in whole (its hands typed): the deal,
    the illegal card's place among its cards and the draft's id."""
    deal, place = deal_with_illegal_play()
    assert isinstance(deal.hands, list)
    draft_id = start_match(at)
    tap(at, "record_trump_H")
    type_hands(at, draft_id, deal.hands)
    for card in cards_of(deal):
        tap(at, f"record_card_{card}")
    return deal, place, draft_id


def test_a_deal_with_an_illegal_play_and_a_wrong_scoresheet_says_both_apart(
    empty_app: tuple[AppTest, Path],
) -> None:
    """ "The quick check found 1 mistake" over a scoresheet warning read as one mistake where the
    Mistakes page listed two: the count says it is besides the scoresheet's."""
    at, _ = empty_app
    deal, _, draft_id = tap_an_illegal_deal(at)
    score = engine_deal(deal).score  # type: ignore[attr-defined]
    at.segmented_control(key=f"record_written_{draft_id}_1").set_value(str(1 - score.team)).run()
    at.number_input(key=f"record_written_points_{draft_id}_1").set_value(max(score.points, 1)).run()
    tap(at, "record_save")
    (success,) = [s.value for s in at.success]
    # the count is the review's (the biggest mistakes), which leaves the scoresheet's mistake out
    found = re.search(
        r"Besides the scoresheet's mistake below, the quick check found (\d+) mistakes? in the match", success
    )
    assert found and int(found.group(1)) >= 1
    assert any("scoresheet disagrees" in w.value for w in at.warning)


def test_page_outlines_the_legal_cards_when_hands_are_known(empty_app: tuple[AppTest, Path]) -> None:
    at, _ = empty_app
    deal = legal_deal()
    assert isinstance(deal.hands, list)
    draft_id = start_match(at)
    tap(at, f"record_trump_{'HDCS'[engine_deal(deal).trump]}")  # type: ignore[attr-defined]
    type_hands(at, draft_id, deal.hands)
    first = cards_of(deal)[0]
    tap(at, f"record_card_{first}")
    trick = engine_deal(deal).tricks[0]  # type: ignore[attr-defined]
    legal = [CARD_TEXT[c] for c in iter_mask(trick.legal[1])]
    styles = "\n".join(e.proto.body for e in at.get("html"))
    for card in legal:
        assert f".st-key-record_card_{card} button" in styles
    outsiders = set(deal.hands[trick.seats[1]]) - set(legal)
    assert not any(f".st-key-record_card_{card} button" in styles for card in outsiders)


def five_cards_in(at: AppTest, trump: str) -> tuple[str, list[str]]:
    """A new match, trump made and the first five cards of a legal deal tapped: its draft id and
    the deal's cards."""
    cards = cards_of(legal_deal())
    draft_id = start_match(at)
    tap(at, f"record_trump_{trump}")
    for card in cards[:5]:
        tap(at, f"record_card_{card}")
    return draft_id, cards


def test_page_resumes_from_the_draft_in_a_new_session(empty_app: tuple[AppTest, Path]) -> None:
    at, _ = empty_app
    draft_id, cards = five_cards_in(at, "C")
    # the phone dropped: a new browser session opens the page address again
    again = open_at_draft(AppTest.from_file(APP, default_timeout=60), draft_id)
    assert "5 of 32 cards in" in texts(again)
    assert all(again.button(key=f"record_card_{c}").disabled for c in cards[:5])
    # and without the address, the draft is offered to carry on
    fresh = AppTest.from_file(APP, default_timeout=60)
    fresh.run()
    fresh.switch_page("app_pages/record.py").run()
    tap(fresh, f"record_resume_{draft_id}")
    assert "5 of 32 cards in" in texts(fresh)


def test_page_scoresheet_mode_and_share_as_text(empty_app: tuple[AppTest, Path]) -> None:
    at, path = empty_app
    start_match(at)
    at.segmented_control(key="record_mode").set_value("sheet").run()
    next(r for r in at.radio if r.key.startswith("record_sheet_team_")).set_value(1).run()
    next(n for n in at.number_input if n.key.startswith("record_sheet_points_")).set_value(12).run()
    tap(at, "record_sheet_save")
    at.segmented_control(key="record_mode").set_value("sheet").run()
    tap(at, "record_sheet_tie")
    page = texts(at)
    assert "| 1 | Dirk | scoresheet | 0 | 12 (+12) |" in page
    assert "30-30" in page
    tap(at, "record_share_button")
    shared = loads_text(at.code[0].value)[0]
    with Store(path, read_only=True) as store:
        stored = loads(str(store.query("SELECT record FROM matches")["record"][0]))
    assert shared.deals == stored.deals and len(stored.deals) == 2
    assert stored.deals[1].recorded_score is None
    assert not any("under way" in c.value for c in at.caption)  # no deal begun: nothing left out
    # a deal begun is left out of the text until it is saved, and the page says so
    at.segmented_control(key="record_mode").set_value("cards").run()
    tap(at, "record_trump_H")
    assert len(loads_text(at.code[0].value)[0].deals) == 2
    assert any("deal 3, under way, joins it once saved" in c.value for c in at.caption)


def test_page_offers_archive_names_and_copies_their_rules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "club.duckdb"
    build_archive(path)
    house = Record(
        format="manillen/1",
        match=MatchInfo(id="house", seats=list(SEATS), date=datetime.date(2026, 6, 1), rules=loads(
            '{"format":"manillen/1","match":{"seats":["A","B","C","D"],"rules":{"target":121,'
            '"underbuy":"forced","capot":"fixed_60","cafe":{"en_face":true}}},"deals":[]}'
        ).match.rules),
        deals=[legal_deal()],
    )  # fmt: skip
    with Store(path) as store:
        store.import_entries([rec_entry(house)])
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(path))
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page("app_pages/record.py").run()
    inputs = setup_inputs(at)
    assert set(SEATS) <= set(inputs["lists"]["names"])  # the archive's names offered as one types
    assert all(f["suggest"] == "names" for f in inputs["fields"] if f["name"].startswith("seat_"))
    type_seats(at)
    source = next(f for f in setup_inputs(at)["fields"] if f["name"] == "source")
    assert source["kind"] == "radio" and not source["disabled"]  # these four played before
    type_setup(at, source="last")
    assert setup_inputs(at)["values"]["target_last"] == "121"  # their last match's target
    tap(at, "record_start")
    draft = drafts.load(str(at.query_params["draft"]), drafts.folder(path))
    # the house rules without a widget on the page (underbuy forced, capot) come along too
    expected = {"target": 121, "underbuy": "forced", "capot": "fixed_60", "cafe": {"en_face": True}}
    assert draft is not None and draft.setup.rules == expected
    assert draft.setup.match_id not in ("house", "random-0")
    assert at.button(key="record_en_face")  # the cafe rule brings its call


def rec_entry(record: Record) -> object:
    from manillen_replay.record import Entry

    return Entry("house.json", None, rec.record_json(record))


def test_upload_takes_text_notation_and_is_analysed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "club.duckdb"
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(path))
    source = Path(__file__).resolve().parent.parent / "data" / "notation" / "illegal-plays.mnl"
    summary, analysis = data.import_upload(source.name, source.read_bytes())
    data.archive().close()
    expected = len(loads_text(source.read_text(encoding="utf-8")))
    assert summary.imported == expected and analysis.matches == expected
    with Store(path, read_only=True) as store:
        unanalysed = store.query("SELECT count(*) AS n FROM matches WHERE analysed_at IS NULL")["n"][0]
        illegal = store.query("SELECT count(*) AS n FROM findings WHERE category = 'rule'")["n"][0]
    violations = sum(len(replay(r).violations) for r in loads_text(source.read_text(encoding="utf-8")))
    assert unanalysed == 0 and illegal == violations > 0


def test_dashboard_host_option_lets_a_phone_reach_the_record_page(monkeypatch: pytest.MonkeyPatch) -> None:
    """--host beyond this computer serves the network with a token: the join address is printed,
    and the server is told to ask for it; on 127.0.0.1 nothing is asked."""
    from click.testing import CliRunner

    from manillen_replay.access import REQUIRED_ENVIRONMENT, TOKEN_ENVIRONMENT
    from manillen_replay.cli import dashboard as command

    started: list[tuple[list[str], dict[str, str]]] = []

    def run(args: list[str], environment: dict[str, str]) -> int:
        started.append((args, environment))
        return 0

    monkeypatch.delenv(TOKEN_ENVIRONMENT, raising=False)
    monkeypatch.delenv(REQUIRED_ENVIRONMENT, raising=False)
    monkeypatch.setattr(command, "run_forwarding_signals", run)
    result = CliRunner().invoke(
        command.dashboard, ["--db", "x.duckdb", "--host", "0.0.0.0", "--port", "8600"]
    )
    assert result.exit_code == 0, result.output
    args, environment = started[0]
    assert args[args.index("--server.address") + 1] == "0.0.0.0"
    assert environment[REQUIRED_ENVIRONMENT] == "token"
    assert f"http://127.0.0.1:8600/?token={environment[TOKEN_ENVIRONMENT]}" in result.output
    CliRunner().invoke(command.dashboard, ["--db", "x.duckdb"])
    args, environment = started[1]
    assert args[args.index("--server.address") + 1] == "127.0.0.1"
    assert REQUIRED_ENVIRONMENT not in environment and TOKEN_ENVIRONMENT not in environment


def test_page_edits_an_earlier_trick(empty_app: tuple[AppTest, Path]) -> None:
    at, path = empty_app
    cards = cards_of(legal_deal())
    draft_id = start_match(at)
    tap(at, "record_trump_S")
    for card in cards[:8]:
        tap(at, f"record_card_{card}")
    swapped = [cards[2], cards[0], cards[1], cards[3]]
    # the latest trick is offered first: a trick tapped wrong is mostly the one just finished
    assert at.selectbox(key="record_edit_number_2").value == 2
    at.selectbox(key="record_edit_number_2").set_value(1).run()
    at.text_input(key="record_edit_cards_1_8").input(" ".join(swapped).lower())
    tap(at, "record_edit_apply")
    saved = drafts.load(draft_id, drafts.folder(path))
    assert saved is not None and saved.current is not None
    assert saved.current.plays == swapped + cards[4:8]
    table = rec.table_of(saved.current, Rules())
    leader = table.tricks[1].leader
    assert f"2. {SEATS[leader]} leads" in texts(at)  # the next trick follows the new winner
    # each card with who played it: a trick tapped in the wrong order shows at a glance
    first = table.tricks[0]
    written = [f"{p.card.rank.text}{p.card.suit.symbol}" for p in first.plays]
    said = ", ".join(
        f"{SEATS[p.seat]} {f':red[{text}]' if p.card.suit.is_red else text}"
        for p, text in zip(first.plays, written, strict=True)
    )
    assert f"1. {SEATS[first.leader]} leads: {said} → " in texts(at)


def test_closing_a_match_asks_first_and_says_what_is_lost(empty_app: tuple[AppTest, Path]) -> None:
    """A helper's one tap on Close ended a club table's evening for good and lost the deal under
    way: Close asks first, saying the deal under way is lost; Keep recording keeps the draft."""
    at, path = empty_app
    draft_id, cards = five_cards_in(at, "S")
    tap(at, "record_close")
    assert "Close this match? Its saved deals stay in the archive" in texts(at)
    assert "Deal 1, under way (6 cards and calls tapped), is not saved and will be lost." in texts(at)
    assert "club table" not in texts(at)
    assert drafts.load(draft_id, drafts.folder(path)) is not None  # nothing ended by the first tap
    tap(at, "record_close_no")
    assert "Close this match?" not in texts(at)
    saved = drafts.load(draft_id, drafts.folder(path))
    assert saved is not None and saved.current is not None and saved.current.plays == cards[:5]
    tap(at, "record_close")
    tap(at, "record_close_yes")
    assert drafts.load(draft_id, drafts.folder(path)) is None
    assert at.button(key="record_start")  # a new match


def test_page_in_dutch(empty_app: tuple[AppTest, Path]) -> None:
    at, _ = empty_app
    at.run()
    at.session_state["lang"] = "nl"
    at.switch_page("app_pages/record.py").run()
    assert at.title[0].value == "Een partij opnemen"
    assert at.button(key="record_start").label == "Beginnen met opnemen"
    open_expander(at, "record_house_rules_open")
    # Streamlit's drop-down would say "Choose an option" while nothing is chosen
    assert at.selectbox(key="record_cap_default").proto.placeholder == "Kies een optie"


def test_hands_tapped_in_first_then_the_fourth_is_filled() -> None:
    deal = legal_deal()
    assert isinstance(deal.hands, list)
    draft = rec.add_call(rec.new_draft("abc", setup(dealer=deal.dealer)), deal.dealer, "muil")
    for hand in deal.hands[:3]:
        for card in hand:
            draft = rec.tap_hand_card(draft, card)
    assert draft.current is not None and draft.current.hands is not None
    assert sorted(draft.current.hands[3]) == sorted(deal.hands[3])
    assert rec.hand_being_tapped(draft.current) is None
    with pytest.raises(rec.RecordingError, match="already in Anna's hand"):
        rec.tap_hand_card(rec.untap_hand_card(draft), deal.hands[0][0])
    undone = rec.untap_hand_card(draft)
    assert undone.current is not None and undone.current.hands is not None
    assert undone.current.hands[3] == [] and len(undone.current.hands[2]) == 7
    assert "hands" not in rec.deal_object(undone.current)  # half-tapped hands stay out of the record


def test_page_taps_the_hands_first_then_outlines_legal_cards(empty_app: tuple[AppTest, Path]) -> None:
    at, _ = empty_app
    deal = legal_deal()
    assert isinstance(deal.hands, list)
    draft_id = start_match(at)
    tap(at, f"record_trump_{'HDCS'[engine_deal(deal).trump]}")  # type: ignore[attr-defined]
    at.segmented_control(key=f"record_tap_mode_{draft_id}_1").set_value("hands").run()
    assert "Tap Anna's hand: 0 of 8" in texts(at)
    for hand in deal.hands[:3]:
        for card in hand:
            tap(at, f"record_card_{card}")
    assert "The four hands are in" in texts(at)
    at.segmented_control(key=f"record_tap_mode_{draft_id}_1").set_value("plays").run()
    assert "Hands (known)" in [e.label for e in at.expander]
    first = cards_of(deal)[0]
    tap(at, f"record_card_{first}")
    legal = [CARD_TEXT[c] for c in iter_mask(engine_deal(deal).tricks[0].legal[1])]  # type: ignore[attr-defined]
    styles = "\n".join(e.proto.body for e in at.get("html"))
    assert all(f".st-key-record_card_{card} button" in styles for card in legal)


def _three_of_annas_cards_tapped(at: AppTest) -> tuple[Deal, str]:
    """A new match whose first deal has trump made and three of Anna's cards tapped in (Hands
    first); the deal they come from and the draft's id."""
    deal = legal_deal()
    assert isinstance(deal.hands, list)
    draft_id = start_match(at)
    tap(at, "record_trump_C")
    at.segmented_control(key=f"record_tap_mode_{draft_id}_1").set_value("hands").run()
    for card in deal.hands[0][:3]:
        tap(at, f"record_card_{card}")
    return deal, draft_id


def test_a_hand_begun_and_left_for_the_cards_played_is_said(empty_app: tuple[AppTest, Path]) -> None:
    """Three of Anna's cards tapped, then "Cards played" chosen: the three stayed in silence, a
    part of a hand the deal does not save."""
    at, _ = empty_app
    deal, draft_id = _three_of_annas_cards_tapped(at)
    assert not [w for w in at.warning if "not finished" in w.value]  # still tapping them: no warning
    at.segmented_control(key=f"record_tap_mode_{draft_id}_1").set_value("plays").run()
    tap(at, f"record_card_{cards_of(deal)[0]}")
    (said,) = [w.value for w in at.warning if "The cards dealt are not finished" in w.value]
    assert said.startswith("The cards dealt are not finished: Anna has 3 of 8.")


def test_page_opened_again_while_the_hands_are_tapped_goes_on_tapping_them(
    empty_app: tuple[AppTest, Path],
) -> None:
    """A reload (a phone that slept) in the middle of the hands: the next card tapped is the
    next card dealt, not the first card played; and Undo card there cannot take back the call."""
    at, path = empty_app
    deal, draft_id = _three_of_annas_cards_tapped(at)
    assert "record_undo_card" not in {b.key for b in at.button}  # the hands' own undo only
    again = open_at_draft(AppTest.from_file(APP, default_timeout=60), draft_id)
    assert again.segmented_control(key=f"record_tap_mode_{draft_id}_1").value == "hands"
    assert "Tap Anna's hand: 3 of 8" in texts(again)
    tap(again, f"record_card_{deal.hands[0][3]}")
    draft = drafts.load(draft_id, drafts.folder(path))
    assert draft is not None and draft.current is not None and draft.current.hands is not None
    assert draft.current.hands[0] == deal.hands[0][:4] and not draft.current.plays
    assert draft.current.calls == [{"seat": 3, "call": "trump", "suit": "C"}]


def test_page_says_a_decided_match_is_over_and_keeps_a_deal_played_after_the_end_aside(
    empty_app: tuple[AppTest, Path],
) -> None:
    """A match of one deal (a fixed number of deals) is decided once that deal is saved: the page
    says so and offers the next deal only as one played after the end."""
    at, path = empty_app
    deal = legal_deal()
    one_deal = rec.Setup(
        match_id="t-1", seats=list(SEATS), rules={"format": "fixed", "deals": 1}, first_dealer=deal.dealer
    )
    draft = entered(deal)
    draft = rec.Draft(draft.draft_id, one_deal, current=draft.current)
    finished, _, result = rec.finish_deal(draft)
    assert result.finished
    drafts.save_match(draft, drafts.folder(path))
    drafts.save(finished, drafts.folder(path))
    open_at_draft(at, draft.draft_id)
    assert "The match is decided: close it to record the next match." in " ".join(i.value for i in at.info)
    [box] = [e for e in at.expander if e.label.startswith("A deal played after the end")]
    assert box.button(key="record_trump_H")  # the deal's calls are inside the box, not on the page
    assert [b for b in at.main.button if b.key == "record_trump_H"] == [box.button(key="record_trump_H")]


# --------------------------------------------------------------------------- scoresheet beside the cards


def test_scoresheet_line_beside_the_cards_is_checked_by_the_engine() -> None:
    deal = legal_deal()
    score = engine_deal(deal).score  # type: ignore[attr-defined]
    right = rec.write_score(entered(deal), score.team, score.points)
    _, record, result = rec.finish_deal(right)
    assert record.deals[0].recorded_score.points == score.points  # type: ignore[union-attr]
    assert not result.deals[0].score_mismatch and len(result.deals[0].tricks) == 8
    wrong = rec.write_score(entered(deal), 1 - score.team, score.points)
    _, _, result = rec.finish_deal(wrong)
    assert result.deals[0].score_mismatch and result.deals[0].score == score  # the cards count
    assert "recorded_score" not in rec.deal_object(rec.forget_score(wrong).current)  # type: ignore[arg-type]
    with pytest.raises(rec.RecordingError, match="team"):
        rec.write_score(entered(deal), 2, 5)


def test_a_scoresheet_line_chosen_for_one_deal_never_lands_in_the_next() -> None:
    """Tapping Save sends the points box's value as it loses focus, and that change could arrive
    after the deal was saved: deal 1's line (team 1, 6 points) was written into deal 2, where
    team 1 is another side, and saved as a mismatch nobody wrote. A team without its points is
    no line (the box starts empty, not at a 0 that was saved as "+0")."""
    deal = legal_deal()
    draft = entered(deal)
    number = draft.number
    chosen = rec.choose_sheet_line(draft, draft.draft_id, number, "1", 6)
    assert chosen.current is not None and chosen.current.written == {"team": 1, "points": 6}
    assert rec.choose_sheet_line(draft, draft.draft_id, number, "1", None).current.written is None  # type: ignore[union-attr]
    assert rec.choose_sheet_line(chosen, draft.draft_id, number, "tie", None).current.written == {"tie": 1}  # type: ignore[union-attr]
    assert rec.choose_sheet_line(chosen, draft.draft_id, number, "none", None).current.written is None  # type: ignore[union-attr]
    saved, _, _ = rec.finish_deal(chosen)
    assert saved.number == number + 1 and saved.current is not None and saved.current.written is None
    late = rec.choose_sheet_line(saved, draft.draft_id, number, "1", 6)
    assert late is saved  # deal 1's late change: nothing written into deal 2
    assert rec.choose_sheet_line(saved, draft.draft_id, number + 1, "0", 4).current.written == {  # type: ignore[union-attr]
        "team": 0,
        "points": 4,
    }
    other = rec.choose_sheet_line(chosen, "another-draft", number, "0", 3)
    assert other is chosen


def test_page_saves_a_wrong_scoresheet_line_as_a_score_mismatch(empty_app: tuple[AppTest, Path]) -> None:
    at, path = empty_app
    deal = legal_deal()
    draft_id = start_match(at)
    tap(at, f"record_trump_{'HDCS'[engine_deal(deal).trump]}")  # type: ignore[attr-defined]
    for card in cards_of(deal):
        tap(at, f"record_card_{card}")
    score = engine_deal(deal).score  # type: ignore[attr-defined]
    at.segmented_control(key=f"record_written_{draft_id}_1").set_value(str(1 - score.team)).run()
    at.number_input(key=f"record_written_points_{draft_id}_1").set_value(score.points).run()
    saved = drafts.load(draft_id, drafts.folder(path))
    assert saved is not None and saved.current is not None  # kept in the draft before saving
    assert saved.current.written == {"team": 1 - score.team, "points": score.points}
    tap(at, "record_save")
    teams = ("Anna & Carla", "Bert & Dirk")  # the page names the teams, not "team 0"
    said = (
        f"deal 1: the scoresheet says {teams[1 - score.team]} +{score.points}, "
        f"the cards say {teams[score.team]} +{score.points}"
    )
    assert any("scoresheet disagrees" in w.value and said in w.value for w in at.warning), [
        w.value for w in at.warning
    ]
    # the success above it does not say "no mistake" over the scoresheet's (a legal deal: no other)
    (success,) = [s.value for s in at.success]
    assert "Besides the scoresheet's mistake below, the quick check found no mistake" in success
    # said in the page's language when shown: switched to Dutch after the save, all of it is Dutch
    at.session_state["lang"] = "nl"
    at.run()
    (warning,) = [w.value for w in at.warning]
    assert warning.startswith("Het scoreblad klopt niet met de kaarten: spel 1: het scoreblad zegt ")
    assert "the scoresheet says" not in warning
    with Store(path, read_only=True) as store:
        stored = store.query("SELECT score_team, recorded_team, score_mismatch FROM deals").row(0, named=True)
        kinds = store.query("SELECT kind FROM findings")["kind"].to_list()
    assert stored == {"score_team": score.team, "recorded_team": 1 - score.team, "score_mismatch": True}
    assert "score_mismatch" in kinds


# --------------------------------------------------------------------------- reopening a saved deal


def test_reopen_a_saved_deal_and_save_it_in_its_place() -> None:
    first, second = legal_deal(seed=7, dealer=3), legal_deal(seed=8, dealer=0)
    draft, _, _ = rec.finish_deal(entered(first))
    assert isinstance(second.declarations, list) and second.declarations[0].suit is not None
    draft = rec.add_call(draft, 0, "trump", str(second.declarations[0].suit))
    for card in cards_of(second):
        draft = rec.play_card(draft, card)
    draft, _, _ = rec.finish_deal(draft)
    draft = rec.play_card(rec.add_call(draft, 1, "muil"), cards_of(second)[0])  # deal 3 under way
    reopened = rec.reopen(draft, 1)
    assert reopened.number == 1 and reopened.current is not None
    assert reopened.current.plays == cards_of(first) and reopened.current.dealer == 3
    with pytest.raises(rec.RecordingError, match="reopened already"):
        rec.reopen(reopened, 2)
    assert rec.drop_reopened(reopened) == draft
    cards = cards_of(first)
    with pytest.raises(rec.RecordingError, match="does not hold"):  # the hands are known
        rec.edit_trick(reopened, 1, [cards[1], cards[0], cards[2], cards[3]])
    # the scoresheet line added, then saved: deal 1 is replaced, deal 2 stays, deal 3 comes back
    saved, record, result = rec.finish_deal(rec.write_score(reopened, 0, 2))
    assert len(record.deals) == 2 and record.deals[1] == rec.to_record(draft, with_current=False).deals[1]
    assert record.deals[0].tricks == rec.to_record(draft, with_current=False).deals[0].tricks
    assert result.deals[0].has_recorded and result.deals[0].score_mismatch
    assert saved.reopened is None and saved.current == draft.current and len(saved.deals) == 2
    with pytest.raises(rec.RecordingError, match="not saved"):
        rec.reopen(saved, 3)


def test_page_reopens_a_saved_deal_and_replaces_the_match(empty_app: tuple[AppTest, Path]) -> None:
    at, path = empty_app
    deal = legal_deal()
    cards = cards_of(deal)
    draft_id = start_match(at)
    trump = "HDCS"[engine_deal(deal).trump]  # type: ignore[attr-defined]
    tap(at, f"record_trump_{trump}")
    for card in cards:
        tap(at, f"record_card_{card}")
    tap(at, "record_save")
    at.segmented_control(key="record_mode").set_value("sheet").run()
    tap(at, "record_sheet_tie")  # deal 2: a 30-30 line
    at.segmented_control(key="record_mode").set_value("cards").run()
    tap(at, "record_trump_H")  # deal 3 begun
    assert "Correct a saved deal" in [e.label for e in at.expander]
    assert "record_reopen_number" not in {s.key for s in at.selectbox}  # drawn only once opened
    open_expander(at, "record_reopen_open")
    at.selectbox(key="record_reopen_number").set_value(1).run()
    tap(at, "record_reopen")
    assert "Deal 1 is reopened" in texts(at)
    assert all(at.button(key=f"record_card_{c}").disabled for c in cards)
    at.segmented_control(key=f"record_written_{draft_id}_1").set_value("tie").run()
    tap(at, "record_undo_card")
    tap(at, f"record_card_{cards[-1]}")
    tap(at, "record_save")
    assert "Deal 1 is saved in the archive" in texts(at)
    with Store(path, read_only=True) as store:
        matches = store.query("SELECT count(*) AS n FROM matches")["n"][0]
        deals = store.query("SELECT deal, score_mismatch FROM deals ORDER BY deal").rows()
    assert matches == 1  # replaced, not added
    assert deals[0] == (1, True) and len(deals) == 2  # the cards never make 30-30
    saved = drafts.load(draft_id, drafts.folder(path))
    assert saved is not None and saved.reopened is None and saved.current is not None
    assert saved.current.calls == [{"seat": 1, "call": "trump", "suit": "H"}]  # deal 3 waits, untouched
    assert at.subheader[0].value == "Deal 3 · Bert deals" and "Calls:** troef " in texts(at)
    # reopened and saved as it was: said so, not "saved already by another phone" (an organiser's sweep)
    open_expander(at, "record_reopen_open")
    at.selectbox(key="record_reopen_number").set_value(2).run()
    tap(at, "record_reopen")
    tap(at, "record_sheet_tie")
    assert "Deal 2 is as it was saved: nothing changed in the archive." in texts(at)
    assert "another phone" not in texts(at)


# --------------------------------------------------------------------------- the house rules box


def test_page_draws_the_house_rules_only_once_opened_and_keeps_them_closed(
    empty_app: tuple[AppTest, Path],
) -> None:
    """Choices made in the box and the box closed again still reach the record that is started."""
    at, path = empty_app
    at.run()
    at.switch_page("app_pages/record.py").run()
    assert "More house rules" in [e.label for e in at.expander]
    assert not at.toggle and "record_cap_default" not in {s.key for s in at.selectbox}
    assert not [h for h in at.get("html") if "record_grid" in h.proto.body]  # the grid's style waits too
    open_expander(at, "record_house_rules_open")
    assert at.toggle(key="record_partner_exempt_default").value is True  # the defaults, as before
    assert at.selectbox(key="record_cap_default").value == 4
    at.toggle(key="record_partner_exempt_default").set_value(False)
    at.toggle(key="record_en_face_default").set_value(True)
    at.selectbox(key="record_cap_default").set_value(0)  # no cap
    at.run()
    at.session_state["record_house_rules_open"] = False  # closed again, as a click does
    at.run()
    assert not at.toggle
    open_expander(at, "record_house_rules_open")  # opened again: the choices are still there
    assert at.toggle(key="record_partner_exempt_default").value is False
    assert at.selectbox(key="record_cap_default").value == 0  # shown as "no cap", not as nothing chosen
    at.session_state["record_house_rules_open"] = False
    at.run()
    type_seats(at)
    tap(at, "record_start")
    draft = drafts.load(str(at.query_params["draft"]), drafts.folder(path))
    assert draft is not None
    assert draft.setup.rules == {"partner_exempt": False, "max_multiplier": None, "cafe": {"en_face": True}}
    rules = draft.setup.rules_value()
    assert not rules.partner_exempt and rules.en_face and rules.max_multiplier is None
    assert at.button(key="record_en_face")  # the cafe rule is in force at the table
    tap(at, "record_en_face")  # Dirk deals and leaves the choice to his partner
    assert not at.error, [e.value for e in at.error]
    assert "Bert makes trump:" in texts(at) and "En face Dirk" in texts(at)
    tap(at, "record_trump_C")
    draft = drafts.load(str(at.query_params["draft"]), drafts.folder(path))
    assert draft is not None and draft.current is not None
    assert draft.current.calls == [{"seat": 3, "call": "en_face"}, {"seat": 1, "call": "trump", "suit": "C"}]


def test_page_starts_with_the_default_rules_when_the_box_stays_closed(
    empty_app: tuple[AppTest, Path],
) -> None:
    at, path = empty_app
    draft_id = start_match(at)
    draft = drafts.load(draft_id, drafts.folder(path))
    assert draft is not None and draft.setup.rules_value() == Rules()
    assert [h for h in at.get("html") if "record_grid" in h.proto.body]  # the table's buttons styled
    assert "record_en_face" not in {b.key for b in at.button}


# --------------------------------------------------------------------------- the new match's inputs


def test_page_sets_up_with_the_browsers_own_inputs_and_sensible_defaults(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Names, date, venue and first dealer are the browser's own inputs (no Streamlit drop-down,
    date or text input for a new tab to load); today, the latest match's venue and the fourth
    seat dealing are the defaults; the dealer list names the players once typed."""
    path = tmp_path / "club.duckdb"
    build_archive(path)
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(path))
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page("app_pages/record.py").run()
    assert not (at.selectbox or at.date_input or at.text_input or at.radio or at.number_input)
    inputs = setup_inputs(at)
    kinds = {f["name"]: f["kind"] for f in inputs["fields"]}
    assert kinds == {
        "variant": "select",  # the main game unless another is chosen
        "seat_0": "text", "seat_1": "text", "seat_2": "text", "seat_3": "text",
        "date": "date", "venue": "text", "dealer": "select", "source": "radio", "target_default": "number",
    }  # fmt: skip
    latest = max(fixture_records(), key=lambda record: str(record.match.date))
    assert inputs["values"]["date"] == datetime.date.today().isoformat()
    assert inputs["values"]["venue"] == latest.match.venue
    assert set(inputs["lists"]["venues"]) == {r.match.venue for r in fixture_records()}
    assert inputs["values"]["dealer"] == "3" and inputs["values"]["variant"] == "four"
    dealer = next(f for f in inputs["fields"] if f["name"] == "dealer")
    assert [label for _, label in dealer["options"]] == ["seat 1", "seat 2", "seat 3", "seat 4"]
    # Start is never disabled (a phone's tap on it is what hands the last name over): without the
    # names it says what is missing and starts nothing
    tap(at, "record_start")
    assert "draft" not in at.query_params
    assert [e.value for e in at.error] == [
        "Four different names, clockwise: seats 1 and 3 play together against 2 and 4."
    ]
    source = next(f for f in inputs["fields"] if f["name"] == "source")
    assert source["disabled"] and inputs["values"]["source"] == "default"  # no players, no last match
    assert inputs["values"]["target_default"] == str(Rules().target)
    type_seats(at)
    dealer = next(f for f in setup_inputs(at)["fields"] if f["name"] == "dealer")
    assert [label for _, label in dealer["options"]] == SEATS
    type_setup(at, date="2026-11-30", venue="  Cafe De Zwaan  ", dealer="1", target_default="51")
    tap(at, "record_start")
    draft = drafts.load(str(at.query_params["draft"]), drafts.folder(path))
    assert draft is not None and draft.setup.seats == SEATS
    assert draft.setup.rules_value().target == 51
    assert (draft.setup.date, draft.setup.venue, draft.setup.first_dealer) == (
        "2026-11-30",
        "Cafe De Zwaan",
        1,
    )
    assert draft.setup.match_id.startswith("2026-11-30")


def test_page_starts_a_match_without_a_date_when_it_is_emptied(empty_app: tuple[AppTest, Path]) -> None:
    at, path = empty_app
    at.run()
    at.switch_page("app_pages/record.py").run()
    assert setup_inputs(at)["values"]["venue"] == ""  # no archive yet: no venue to suggest
    type_setup(at, **{f"seat_{seat}": name for seat, name in enumerate(SEATS)}, date="")
    tap(at, "record_start")
    draft = drafts.load(str(at.query_params["draft"]), drafts.folder(path))
    assert draft is not None and draft.setup.date == "" and draft.setup.first_dealer == 3


def test_a_phone_writing_over_a_version_it_has_not_read_is_refused(tmp_path: Path) -> None:
    # two phones at one table opened the same draft; the first taps, then the second taps on
    # what it read: the second is refused and the first phone's tap stays, whatever their order
    first = rec.Draft(draft_id=drafts.new_id(), setup=rec.Setup(match_id="m", seats=list(SEATS)))
    drafts.save(first, tmp_path)
    one, two = drafts.load(first.draft_id, tmp_path), drafts.load(first.draft_id, tmp_path)
    assert one is not None and two is not None and one.version == two.version
    one.setup.seats = [*SEATS[:3], "Els"]
    drafts.save(one, tmp_path)
    two.setup.seats = [*SEATS[:3], "Frans"]
    with pytest.raises(drafts.DraftChangedError):
        drafts.save(two, tmp_path)
    kept = drafts.load(first.draft_id, tmp_path)
    assert kept is not None and kept.setup.seats[3] == "Els" and kept.version == one.version
    kept.setup.seats = [*SEATS[:3], "Frans"]
    drafts.save(kept, tmp_path)  # read again, its tap goes through
    again = drafts.load(first.draft_id, tmp_path)
    assert again is not None and again.version == one.version + 1
