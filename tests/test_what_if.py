"""What if another card had been played (analysis/what_if.py), and the variation a comment keeps
of it: in the record (JSON and the text notation), checked by the replay, in the archive and its
export, and on the deal replay page (AppTest; the browser's is tests/test_browser_what_if.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import duckdb
import msgspec
import pytest

from manillen_replay.cards import CARDS, Card, iter_mask
from manillen_replay.engine import decode_and_replay, replay
from manillen_replay.engine.replay import replay_entry
from manillen_replay.engine.variation import VariationProblem, play_variation
from manillen_replay.errors import InvalidRecordError
from manillen_replay.record import Annotation, Entry, dumps, iter_entries, loads
from manillen_replay.record.text import dumps_text, loads_text
from manillen_replay.store import Store

from .factories import random_record
from .test_dashboard import own_archive

__all__ = ["own_archive"]  # the fixture, shared with test_dashboard.py

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "samples" / "seed-trick.json"


def sample_deal():  # type: ignore[no-untyped-def]
    result = decode_and_replay(SAMPLE.read_bytes())
    index = next(i for i, d in enumerate(result.deals) if d.tricks)
    return result, index


def other_card(deal, rules, trick: int, play: int) -> int:  # type: ignore[no-untyped-def]
    """A legal card at a play other than the one played (the first in card order)."""
    from manillen_replay.analysis.what_if import moment_at

    moment = moment_at(deal, rules, trick, play)
    return next(c for c in iter_mask(moment.legal) if c != moment.card)


def legal_line(deal, rules, trick: int, play: int, choose: int) -> list[int]:  # type: ignore[no-untyped-def]
    """A variation made without the solver: from the play on, each seat's lowest legal card."""
    cards = [choose]
    while True:
        found = play_variation(deal, rules, trick, play, cards)
        assert not isinstance(found, VariationProblem), found
        for card in map(int, CARDS):
            if not isinstance(play_variation(deal, rules, trick, play, [*cards, card]), VariationProblem):
                cards.append(card)
                break
        else:
            return cards


# --------------------------------------------------------------------------- the analysis


@pytest.mark.solver
@pytest.mark.parametrize(("trick", "play"), [(1, 2), (2, 1), (5, 3)])
def test_the_lines_are_legal_and_worth_what_the_solver_says(trick: int, play: int) -> None:
    from manillen_replay.analysis.what_if import line_cards, moment_at, what_if
    from manillen_replay.solver.search import solve_batch

    result, index = sample_deal()
    deal, rules = result.deals[index], result.rules
    chosen = other_card(deal, rules, trick, play)
    asked = what_if(deal, rules, trick, play, chosen)
    moment = moment_at(deal, rules, trick, play)
    assert (asked.card, asked.chosen, asked.seat) == (Card(moment.card), Card(chosen), moment.seat)
    # each line is a play of the real deal by the rules, from the card it starts with to the end
    for line, first in ((asked.real.chosen, chosen), (asked.real.played, moment.card)):
        cards = [int(Card.parse(c)) for c in line_cards(line)]
        assert cards[0] == first
        played = play_variation(deal, rules, trick, play, cards)
        assert not isinstance(played, VariationProblem), played
        assert played[-1].trick == 8 and played[-1].winner is not None
    # the hindsight line's value is the solver's value of the position after the chosen card
    _values, by_card = solve_batch([moment.position], 0 if deal.trump is None else int(deal.trump), rules)
    assert asked.real.chosen.value == int(by_card[0][chosen])
    assert asked.real.played.value == int(by_card[0][moment.card])
    # the points that change hands add up to the difference; the view is its own layout's
    pairs = asked.real.tricks()
    assert [p.number for p in pairs] == list(range(trick, 9))
    assert sum(p.change for p in pairs) == asked.real.difference
    assert asked.layouts >= 1
    if asked.view is not None:
        assert asked.view.played.start.hands != moment.position.hands
        assert asked.view.played.start.hands[moment.seat] == moment.position.hands[moment.seat]


@pytest.mark.solver
def test_a_card_that_may_not_be_played_is_refused() -> None:
    from manillen_replay.analysis.what_if import moment_at, what_if
    from manillen_replay.solver.search import SolverError

    result, index = sample_deal()
    deal, rules = result.deals[index], result.rules
    moment = moment_at(deal, rules, 1, 2)
    illegal = next(int(c) for c in CARDS if not moment.legal >> c & 1)
    with pytest.raises(SolverError, match="may not be played"):
        what_if(deal, rules, 1, 2, illegal)
    with pytest.raises(SolverError, match="no play 5 in trick 1"):
        moment_at(deal, rules, 1, 5)


@pytest.mark.solver
def test_another_call_plays_the_deal_out_under_it_from_the_first_lead() -> None:
    from manillen_replay.analysis.what_if import call_what_if, line_cards, moment_at
    from manillen_replay.engine.variation import call_choices, trump_of
    from manillen_replay.solver.search import solve_batch

    result, index = sample_deal()
    deal, rules = result.deals[index], result.rules
    choices = call_choices(deal, rules)
    assert choices and all(c in ("H", "D", "C", "S", "muil") for c in choices)
    chosen = choices[-1]
    asked = call_what_if(deal, rules, chosen)
    start = moment_at(deal, rules, 1, 1)
    assert asked.chosen == chosen and asked.call not in choices
    for lines in (asked.real, asked.view):
        assert [p.number for p in lines.tricks()] == list(range(1, 9))
        assert sum(p.change for p in lines.tricks()) == lines.difference
        assert lines.team == asked.seat % 2
    # each line is best play under its call from the first lead, worth what the solver says
    for line, call in ((asked.real.chosen, chosen), (asked.real.played, asked.call)):
        (value,), _cards = solve_batch([start.position], trump_of(call), rules, every_card=False)
        assert line.value == int(value)
        assert line.start.hands == start.position.hands and len(line_cards(line)) == 32
    # the line under the call made is a legal play of the real deal (the same trump)
    cards = [int(Card.parse(c)) for c in line_cards(asked.real.played)]
    played = play_variation(deal, rules, 1, 1, cards)
    assert not isinstance(played, VariationProblem), played
    # the chooser's view: a layout that keeps the chooser's hand and hides the rest
    own = start.position.hands[asked.seat]
    assert asked.view.played.start.hands[asked.seat] == own
    assert asked.view.played.start.hands != start.position.hands
    assert asked.layouts >= 1
    # the view's deal scores, averaged layout by layout: under these rules (no capot bonus) a
    # score is linear in the points, so the average score is the score of the average points
    from manillen_replay.analysis.call_review import deal_score

    for points, factor, score in zip(asked.view_values, asked.factors, asked.view_scores, strict=True):
        assert score == pytest.approx(deal_score(points, factor, rules))
    # the deal score: each call's doubling on (its points - 30)
    made, other = asked.scores(asked.real)
    assert made == (asked.real.played.taken(asked.real.team) - 30) * asked.factors[0]
    assert other - made == asked.score_difference(asked.real)
    if chosen == "muil":
        assert asked.factors[1] == 2 * asked.factors[0] or asked.call == "muil"


@pytest.mark.solver
def test_the_calls_offered_follow_the_trump_choice_rule() -> None:
    from dataclasses import replace

    from manillen_replay.analysis.what_if import call_what_if
    from manillen_replay.engine.variation import call_choices, chooser_of
    from manillen_replay.solver.search import SolverError

    result, index = sample_deal()
    deal, rules = result.deals[index], result.rules
    assert deal.hands is not None
    held = {int(Card(c).suit) for c in iter_mask(deal.hands[chooser_of(deal)])}
    made = "muil" if deal.trump is None else "HDCS"[int(deal.trump)]
    free = call_choices(deal, replace(rules, trump_choice="free"))
    assert sorted(free) == sorted(c for c in ("H", "D", "C", "S", "muil") if c != made)
    in_hand = call_choices(deal, replace(rules, trump_choice="held_suit"))
    assert sorted(in_hand) == sorted(c for c in ("muil", *("HDCS"[s] for s in held)) if c != made)
    assert call_choices(deal, replace(rules, trump_choice="turned_card")) == []
    missing = [c for c in free if c not in in_hand]
    if missing:
        with pytest.raises(SolverError, match="no other call"):
            call_what_if(deal, replace(rules, trump_choice="held_suit"), missing[0])
    with pytest.raises(SolverError, match="no other call"):
        call_what_if(deal, rules, made)


# --------------------------------------------------------------------------- the record


def with_variation(line: list[str], *, author: str = "coach", trick: int = 2, play: int = 1) -> dict:
    doc = json.loads(SAMPLE.read_text())
    index = next(i for i, d in enumerate(doc["deals"]) if d.get("tricks"))
    note = {"trick": trick, "play": play, "author": author, "text": "Lead the jack.", "line": line}
    doc["deals"][index].setdefault("annotations", []).append(note)
    return doc


def sample_line() -> list[str]:
    result, index = sample_deal()
    deal = result.deals[index]
    return [str(Card(c)) for c in legal_line(deal, result.rules, 2, 1, other_card(deal, result.rules, 2, 1))]


def test_a_variation_round_trips_through_json_and_the_text_notation() -> None:
    line = sample_line()
    assert len(line) == 28, "from the first card of trick 2 to the end of the deal"
    doc = with_variation([c.lower() for c in line], author="KH")
    record = loads(json.dumps(doc))
    note = record.deals[0].annotations[-1]  # type: ignore[index]
    assert note.line == line, "written back in canonical form"
    assert loads(dumps(record)) == record
    text = dumps_text(record)
    written = next(row for row in text.splitlines() if " line " in row)
    assert written.startswith(f'  note trick 2 play 1 line {" ".join(line)} "KH": ')
    (back,) = loads_text(text)
    assert back == record
    replay(back)  # every card of the variation legal


def test_a_comment_by_an_author_called_line_still_reads_without_a_variation() -> None:
    (record,) = loads_text("seats A B C D\ndeal 1 dealer D score A 6\n  note line [x]: words\n")
    note = record.deals[0].annotations[0]  # type: ignore[index]
    assert (note.author, note.line, note.tags) == ("line", msgspec.UNSET, ["x"])


def test_old_records_without_variations_read_as_before() -> None:
    record = loads(SAMPLE.read_text())
    assert all(n.line is msgspec.UNSET for d in record.deals for n in d.annotations or ())
    assert '"line"' not in dumps(record)


@pytest.mark.parametrize(
    ("change", "pointer", "says"),
    [
        (lambda line: [*line[:3], line[4], line[3], *line[5:]], "line/3", "does not hold"),
        (lambda line: [*line, "7H"], "line/28", "the deal is over before card 29"),
        (lambda line: ["ZZ"], "line/0", "unknown card 'ZZ'"),
    ],
)
def test_a_variation_against_the_rules_is_refused_with_its_place(change, pointer: str, says: str) -> None:  # type: ignore[no-untyped-def]
    doc = with_variation(change(sample_line()))
    with pytest.raises(InvalidRecordError) as refused:
        decode_and_replay(json.dumps(doc).encode(), source="club.json")
    (problem,) = refused.value.problems
    assert problem.pointer.endswith(f"/annotations/1/{pointer}") and says in problem.message
    assert "club.json" in str(refused.value)


def test_a_card_the_rules_forbid_is_named_with_the_rule() -> None:
    result, index = sample_deal()
    deal = result.deals[index]
    line = legal_line(deal, result.rules, 2, 1, other_card(deal, result.rules, 2, 1))
    # the second card of the variation: any card of the second seat's hand that is not legal there
    second = play_variation(deal, result.rules, 2, 1, line[:2])
    assert not isinstance(second, VariationProblem)
    seat = second[1].seat
    held = [c for c in iter_mask(deal.hands[seat])]  # type: ignore[index]
    wrong = next(
        c for c in held
        if isinstance(found := play_variation(deal, result.rules, 2, 1, [line[0], c]), VariationProblem)
        and "may not play" in found.message
    )  # fmt: skip
    doc = with_variation([str(Card(line[0])), str(Card(wrong))])
    with pytest.raises(
        InvalidRecordError, match=r"may not play .* at card 2 of the variation: (revoke|failed)"
    ):
        decode_and_replay(json.dumps(doc).encode())


def test_a_variation_needs_a_play_to_start_at() -> None:
    doc = with_variation(sample_line())
    doc["deals"][0]["annotations"][-1].pop("play")
    with pytest.raises(InvalidRecordError, match="a variation starts at a play"):
        decode_and_replay(json.dumps(doc).encode())


def test_a_bad_variation_in_the_text_notation_names_its_line_and_column(tmp_path: Path) -> None:
    line = sample_line()
    text = dumps_text(loads(json.dumps(with_variation(line))))
    swapped = " ".join([*line[:3], line[4], line[3], *line[5:]])
    written = text.replace(" ".join(line), swapped)
    (tmp_path / "club.mnl").write_text(written)
    (entry,) = iter_entries([tmp_path / "club.mnl"])
    with pytest.raises(InvalidRecordError) as refused:
        replay_entry(entry)
    row = next(n for n, r in enumerate(written.splitlines(), 1) if " line " in r)
    column = written.splitlines()[row - 1].index(" line ") + len(" line " + " ".join(line[:3])) + 2
    assert f"club.mnl:{row}:{column}: " in str(refused.value) and "does not hold" in str(refused.value)


# --------------------------------------------------------------------------- the archive


def test_a_variation_goes_into_the_archive_and_comes_back_in_the_export(tmp_path: Path) -> None:
    line = sample_line()
    doc = with_variation(line)
    with Store(tmp_path / "club.duckdb") as store:
        store.import_entries([Entry("club.jsonl", 1, json.dumps(doc).encode())])
        stored = store.query("SELECT trick, play, line FROM annotations WHERE line IS NOT NULL")
        assert stored.rows() == [(2, 1, line)]
        (exported,) = [loads(text) for text in store.iter_export_lines()]
        assert exported.deals[0].annotations[-1].line == line  # type: ignore[index]
        # a variation added to the archive (the replay page's save) is exported, and reads back
        record = random_record(0, deals=1)
        store.import_entries([Entry("more.jsonl", 1, dumps(record, pretty=False).encode())])
        result = replay(record)
        deal = result.deals[0]
        cards = legal_line(deal, result.rules, 3, 2, other_card(deal, result.rules, 3, 2))
        texts = [str(Card(c)) for c in cards]
        store.add_annotation("random-0", 1, 3, 2, "coach", "Duck here.", ["what-if"], texts)
        again = next(loads(t) for t in store.iter_export_lines() if '"random-0"' in t)
        note = again.deals[0].annotations[0]  # type: ignore[index]
        assert (note.trick, note.play, note.line, note.tags) == (3, 2, texts, ["what-if"])
        replay(again)
    with Store(tmp_path / "club.duckdb", read_only=True) as reopened:
        assert reopened.query("SELECT count(*) AS n FROM annotations WHERE line IS NOT NULL")["n"][0] == 2


def test_a_variation_needs_a_play_in_the_archive_too(tmp_path: Path) -> None:
    from manillen_replay.errors import ManillenError

    with Store() as store:
        store.import_entries([Entry("x.jsonl", 1, dumps(random_record(0, deals=1), pretty=False).encode())])
        with pytest.raises(ManillenError, match="a variation starts at a play"):
            store.add_annotation("random-0", 1, 3, None, "coach", "x", None, ["7H"])


def test_an_archive_from_before_variations_takes_them_after_its_migration(tmp_path: Path) -> None:
    import duckdb

    from manillen_replay.store.schema import apply_migrations

    path = tmp_path / "old.duckdb"
    with duckdb.connect(str(path)) as con:
        apply_migrations(con, upto=13)
        columns = [r[0] for r in con.execute("DESCRIBE annotations").fetchall()]
        assert "line" not in columns
    with Store(path) as store:
        store.import_entries([Entry("x.jsonl", 1, dumps(random_record(0, deals=1), pretty=False).encode())])
        store.add_annotation("random-0", 1, 1, 1, "coach", "x", None, None)
        assert store.query("SELECT line FROM annotations")["line"].to_list() == [None]
    assert Annotation(author="a", text="b").line is msgspec.UNSET


# --------------------------------------------------------------------------- the replay page


def open_replay(archive: Path, monkeypatch: pytest.MonkeyPatch, step: int):  # type: ignore[no-untyped-def]
    """The deal replay of random-0's first deal at ``step``, on ``archive``."""
    from streamlit.testing.v1 import AppTest

    from dashboards import data

    from .test_dashboard import APP, open_page

    monkeypatch.setenv(data.DB_ENVIRONMENT, str(archive))
    page = AppTest.from_file(APP, default_timeout=60)
    return open_page(page, "replay", match="random-0", deal=1, step=step)


def show_both_lines(at) -> None:  # type: ignore[no-untyped-def]
    """From the what-if line to the line as played, then both from the player's view."""
    from .test_dashboard import html_views

    branch = next(radio for radio in at.radio if radio.key.startswith("replay_branch_"))
    assert branch.value == "whatif" and branch.options[-1].startswith("as played: ")
    branch.set_value("whatif_played").run()
    assert "<b>As played</b>" in html_views(at)["replay_table_line"][1]["html"]
    layout = next(radio for radio in at.radio if radio.key == "replay_whatif_layout")
    layout.set_value("view").run()
    assert "closest to the average" in html_views(at)["replay_whatif"][1]["html"]


@pytest.mark.solver
def test_the_replay_plays_another_card_out_steps_both_lines_and_saves_one(
    own_archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from .test_dashboard import html_views, send_click

    at = open_replay(own_archive, monkeypatch, 5)
    assert not at.radio, "the choice is the page's drawing, no Streamlit widget"
    choice = html_views(at)["replay_table"][1]["html"]
    offered = re.findall(r'class="mr-whatif-card" data-send="(\w+)" aria-pressed="false"', choice)
    assert "What if Dirk had played instead of" in choice and len(offered) == 6
    assert "replay_whatif" not in html_views(at)
    card = Card.parse(offered[0])
    send_click(at, "replay_table", str(card))
    assert not at.exception, [e.value for e in at.exception]
    assert f'data-send="{card}" aria-pressed="true"' in html_views(at)["replay_table_line"][1]["html"]
    # the table shows the what-if line from its first card: the card chosen, where the card played lay
    drawn = html_views(at)["replay_table_line"][1]["html"]
    assert "<b>What if</b>" in drawn and f'data-card="{card}"' in drawn[drawn.index('class="mr-trick') :]
    # the two lines side by side: tricks 2 to 8, and what each comes to
    compared = html_views(at)["replay_whatif"][1]["html"]
    assert compared.count("<tr") == 1 + 7 and "instead, then best play" in compared
    assert "a difference of <b>" in compared
    assert "averaged over" in compared
    # step through the what-if line to its end, then through the line after the card played
    send_click(at, "replay_table_line", "2")
    send_click(at, "replay_table_line", "28")
    drawn = html_views(at)["replay_table_line"][1]["html"]
    assert "Tricks of the line" in drawn and "8. " in drawn and 'value="28"' in drawn
    # the line after the card played, and from the player's view: on a layout of the hidden cards
    show_both_lines(at)
    # save the line as a variation with a comment
    at.session_state["replay_whatif_save_open"] = True
    at.run()
    at.text_input(key="replay_whatif_author").set_value("Coach Jan")
    at.text_area(key="replay_whatif_text").set_value("Try the other card.")
    at.button(key="replay_whatif_save").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("Variation saved" in s.value for s in at.success)
    assert any("variation" in e.label for e in at.expander), "the comment lists its variation"
    with Store(own_archive, read_only=True) as store:
        (row,) = store.query(
            "SELECT trick, play, author, text, line, annotation_id FROM annotations WHERE line IS NOT NULL"
        ).rows()
        (exported,) = [loads(t) for t in store.iter_export_lines() if '"random-0"' in t]
    assert row[:4] == (2, 1, "Coach Jan", "Try the other card.") and row[4][0] == str(card)
    assert exported.deals[0].annotations[-1].line == row[4]  # type: ignore[index]
    replay(exported)
    # the saved variation is a line of its own to step through, its cards as saved
    branch = next(radio for radio in at.radio if radio.key.startswith("replay_branch_"))
    (saved_line,) = [o for o in branch.options if o.startswith("variation by Coach Jan: ")]
    assert saved_line.endswith(card.symbol)
    branch.set_value(f"variation_{row[5]}").run()
    drawn = html_views(at)["replay_table_line"][1]["html"]
    assert "<b>Variation</b> by Coach Jan" in drawn and "Try the other card." in drawn
    send_click(at, "replay_table_line", "28")
    drawn = html_views(at)["replay_table_line"][1]["html"]
    on_table = drawn[drawn.index('class="mr-trick') :]
    assert f'data-card="{row[4][-1]}"' in on_table, "its last card on the table"
    # back to the game as played
    send_click(at, "replay_table_line", "-")
    assert "replay_table" in html_views(at) and "replay_whatif" not in html_views(at)
    # the Annotations page lists it with its cards
    from .tables import light_tables

    at.switch_page("app_pages/annotations.py").run()
    listed = light_tables(at)[0].value
    (shown,) = listed.filter(listed["author"] == "Coach Jan")["line"].to_list()
    assert shown.split() == [Card.parse(c).symbol for c in row[4]]


@pytest.mark.solver
def test_the_replay_plays_another_call_out_and_steps_its_line(
    own_archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from .test_dashboard import html_views, send_click

    at = open_replay(own_archive, monkeypatch, 0)
    choice = html_views(at)["replay_table"][1]["html"]
    offered = re.findall(r'class="mr-whatif-card" data-send="(\w+)" aria-pressed="false"', choice)
    assert "had called instead of" in choice and offered, choice[-2000:]
    assert set(offered) <= {"H", "D", "C", "S", "muil"} and len(offered) == len(set(offered))
    call = "muil" if "muil" in offered else offered[0]
    send_click(at, "replay_table", call)
    assert not at.exception, [e.value for e in at.exception]
    drawn = html_views(at)["replay_table_line"][1]["html"]
    assert f'data-send="{call}" aria-pressed="true"' in drawn and "<b>What if</b>" in drawn
    # the two lines side by side from the first trick, in card points and in deal score
    compared = html_views(at)["replay_whatif"][1]["html"]
    assert compared.count("<tr") == 1 + 8 and "instead, then best play" in compared
    # the call made's line starts at the first lead too: none of its tricks was played as shown
    assert "as called, then best play" in compared and "as played, then" not in compared
    assert "a difference of <b>" in compared
    assert "In deal score" in compared and ("(x2)" in compared) == (call == "muil")
    assert not any(e.label.startswith("Save this line") for e in at.expander), "a call is shown, not saved"
    # step through the chosen call's line to its last card
    send_click(at, "replay_table_line", "32")
    drawn = html_views(at)["replay_table_line"][1]["html"]
    assert "Tricks of the line" in drawn and "8. " in drawn and 'value="32"' in drawn
    # the chooser's view in deal score too, and the trump review not run yet on this archive
    assert "for the deal)" in compared and "has not looked at this deal" in compared
    # the line under the call made, and from the chooser's view: on a layout of the hidden cards
    show_both_lines(at)
    send_click(at, "replay_table_line", "-")
    assert "replay_table" in html_views(at) and "replay_whatif" not in html_views(at)

    # once reviewed, the review's own expectations stand beside the view: the finding's figures
    from dashboards import data

    made = next(option for option in ("H", "D", "C", "S", "muil") if option not in offered)
    options = {"H": 1.5, "D": 2.5, "C": 3.5, "S": -4.0, "muil": 9.5}
    monkeypatch.setattr(data, "trump_review", lambda *_: data.TrumpReview(options, frozenset({"H"}), 37))
    at = open_replay(own_archive, monkeypatch, 0)
    send_click(at, "replay_table", call)
    compared = html_views(at)["replay_whatif"][1]["html"]
    review = compared[compared.index("The trump review, whose figures the finding gives, solves 37") :]
    difference = options[call] - options[made]
    shown = f"+{difference:g}" if difference > 0 else f"\N{MINUS SIGN}{-difference:g}"
    assert f"<b>{options[made]:g}</b> for the deal after" in review and f"<b>{shown}</b>" in review
    assert ("<b>at most 1.5</b>" in review) == (call == "H")  # a pruned option's bound is said so


def test_the_trump_review_of_a_deal_is_read_from_the_archive(
    own_archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dashboards import data

    connection = duckdb.connect(str(own_archive))
    try:
        connection.execute(
            "INSERT INTO call_decisions (match_id, deal, seat, player, call, chosen, best, loss, spread, "
            "layouts, options, options_at_most) VALUES "
            "('random-0', 1, 0, 'x', 'trump', 'S', 'muil', 5, 9, 37, '{\"S\": -4.0, \"muil\": 9.5}', ['S']), "
            "('random-0', 1, 1, 'y', 'klop', 'klop', 'klop', 0, 2, 20, '{\"klop\": 1, \"no klop\": 0}', [])"
        )
    finally:
        connection.close()
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(own_archive))
    review = data.trump_review("random-0", 1)
    assert review == data.TrumpReview({"S": -4.0, "muil": 9.5}, frozenset({"S"}), 37)
    assert data.trump_review("random-0", 2) is None  # not reviewed: the page says so


def test_the_report_shows_a_variation_under_its_deal_with_author_and_comment(tmp_path: Path) -> None:
    from manillen_replay.report import make_report

    line = sample_line()
    with Store(tmp_path / "club.duckdb") as store:
        store.import_entries(
            [Entry("club.jsonl", 1, json.dumps(with_variation(line, author="Jan")).encode())]
        )
        match_id = store.query("SELECT match_id FROM matches")["match_id"][0]
        page = make_report(store, match_id, lang="en")
        dutch = make_report(store, match_id, lang="nl")
    comment = page[page.index('data-deal="1"><b>Jan</b>') :]
    comment = comment[: comment.index("</blockquote>")]
    assert "(deal 1, trick 2, play 1)" in comment and "Lead the jack." in comment
    shown = comment[comment.index('class="variation">variation: ') :]
    # the variation's cards by trick: trick 2 (4 cards) to trick 8, each group apart
    assert shown.count(" · ") == 6
    ranks = [Card.parse(c).rank.text for c in line]
    assert [r for r in re.findall(r"([0-9AKQJ]+)<svg", shown)] == ranks
    assert 'class="variation">variant: ' in dutch


def test_a_variation_in_another_variant_is_refused_in_words() -> None:
    doc = json.loads((SAMPLE.parent / "variant-three.json").read_text())
    index = next(i for i, d in enumerate(doc["deals"]) if d.get("tricks"))
    first = doc["deals"][index]["tricks"][0][0]
    note = {"trick": 1, "play": 1, "author": "coach", "text": "x", "line": [first]}
    doc["deals"][index]["annotations"] = [note]
    with pytest.raises(InvalidRecordError) as refused:
        decode_and_replay(json.dumps(doc).encode(), source="three.json")
    (problem,) = refused.value.problems
    assert problem.pointer == f"/deals/{index}/annotations/0/line"
    assert "variations are for the four-player game, not 'three'" in problem.message
    assert str(refused.value).startswith("three.json")
