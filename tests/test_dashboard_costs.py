"""The solver's costs in the dashboard: card values on the deal replay, accuracy on the match and
players pages, through Streamlit's AppTest.

The archive holds two random legal matches; the solver costed deal 1 of ``random-0`` (few
layouts, so it stays fast) and nothing else. Expected values come from the solver's own output
and the record replayed with the engine, never from the dashboard's code.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import polars as pl
import pytest
from streamlit.testing.v1 import AppTest

from dashboards import data
from manillen_replay.analysis.accuracy import match_accuracy
from manillen_replay.analysis.costs import PlayCost, view_costs
from manillen_replay.cards import CardSet
from manillen_replay.engine import MatchResult, decode_and_replay
from manillen_replay.record import Entry, dumps
from manillen_replay.store import Store
from manillen_replay.store.analyse import cost_frames

from .factories import analysed_variant_archive, random_record
from .tables import light_tables
from .test_dashboard import APP, figures, open_page, texts

SAMPLES = 4
Solved = tuple[Path, MatchResult, list[PlayCost]]


@pytest.fixture(scope="module")
def solved(tmp_path_factory: pytest.TempPathFactory) -> Solved:
    """An archive with deal 1 of ``random-0`` costed by the solver; the match and those costs."""
    records = [random_record(index, 3) for index in range(2)]
    path = tmp_path_factory.mktemp("costs") / "club.duckdb"
    result = decode_and_replay(dumps(records[0], pretty=False))
    costs = view_costs(result.deals[0], result.rules, samples=SAMPLES)
    with Store(path) as store:
        store.import_entries(
            [Entry("club.jsonl", n, dumps(r, pretty=False).encode()) for n, r in enumerate(records, 1)]
        )
        plays, values = cost_frames(result, {1: costs})
        store.save_costs([result.id], plays, values)
    return path, result, costs


@pytest.fixture
def app(solved: Solved, monkeypatch: pytest.MonkeyPatch) -> Iterator[AppTest]:
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(solved[0]))
    yield AppTest.from_file(APP, default_timeout=60)


def costs_table(at: AppTest) -> list[dict[str, object]] | None:
    """The replay page's card values as rows, ``None`` when the page shows none: each row's
    values, and the marks beside them as ``best`` (view), ``hindsight_best`` and ``played``."""
    for frame in light_tables(at):
        table = frame.value
        if {"card", "view", "hindsight"} <= set(table.columns):
            notes = frame.notes
            marks = pl.DataFrame(
                {"best": notes["view"], "hindsight_best": notes["hindsight"], "played": notes["card"]}
            )
            return list(pl.concat([table, marks], how="horizontal").to_dicts())
    return None


def step_of_play(cost: PlayCost) -> int:
    return (cost.trick - 1) * 4 + cost.play


def test_replay_shows_every_legal_card_with_both_values(app: AppTest, solved: Solved) -> None:
    _, result, costs = solved
    chosen = next(c for c in costs if not c.forced and c.view_cost is not None)
    at = open_page(app, "replay", match=result.id, deal=1, step=step_of_play(chosen))
    rows = costs_table(at)
    assert rows is not None
    legal = CardSet(result.deals[0].tricks[chosen.trick - 1].legal[chosen.play - 1])
    # each card with its suit symbol (7♣), as the rest of the page writes it
    shown = {str(row["card"]) for row in rows}
    assert shown == {card.symbol for card in legal} == {card.symbol for card in chosen.values}
    for row in rows:
        value = chosen.values[next(card for card in chosen.values if card.symbol == row["card"])]
        assert row["hindsight"] == value.hindsight
        assert value.view is not None and abs(float(str(row["view"])) - value.view) <= 0.05
        assert (row["best"] == "★") == (row["card"] in {c.symbol for c in chosen.best_cards})
        assert (row["played"] == "◀") == (row["card"] == chosen.card.symbol)
        assert (row["hindsight_best"] == "★") == (row["card"] in {c.symbol for c in chosen.hindsight_best})
    page = texts(at)
    view = f"{chosen.view_cost:.1f}".rstrip("0").rstrip(".")
    assert f"**{view}** card points" in page and f"**{chosen.dd_cost}** with hindsight" in page
    assert f"{SAMPLES} layouts" in page or f"{chosen.layouts} layouts" in page


def test_replay_forced_play_says_it_costs_nothing(app: AppTest, solved: Solved) -> None:
    _, result, costs = solved
    forced = next(c for c in costs if c.forced)
    at = open_page(app, "replay", match=result.id, deal=1, step=step_of_play(forced))
    assert costs_table(at) is None
    assert "the only card" in texts(at)


def test_replay_without_costs_shows_no_values(app: AppTest, solved: Solved) -> None:
    _, result, _ = solved
    at = open_page(app, "replay", match=result.id, deal=2, step=3)
    assert costs_table(at) is None
    assert "What each card was worth" not in texts(at)


def test_replay_costs_in_dutch(app: AppTest, solved: Solved) -> None:
    _, result, costs = solved
    chosen = next(c for c in costs if not c.forced and c.view_cost is not None)
    app.run()
    app.session_state["lang"] = "nl"
    for name, value in {"match": result.id, "deal": 1, "step": step_of_play(chosen)}.items():
        app.query_params[name] = str(value)
    app.switch_page("app_pages/replay.py").run()
    assert not app.exception
    assert "Wat elke kaart waard was" in texts(app) and "achteraf" in texts(app)
    # the values with a decimal comma, as Dutch writes them (the view's are one decimal)
    shown = next(frame for frame in light_tables(app) if frame.key == "replay_costs")
    assert all(re.fullmatch(r"\d+,\d", text) for text in shown.texts["view"]), shown.texts["view"]
    assert shown.labels == ["Kaart", "Zicht", "Achteraf"]


def test_match_page_shows_accuracy_per_player(app: AppTest, solved: Solved) -> None:
    _, result, costs = solved
    at = open_page(app, "match", match=result.id)
    expected = {
        result.seats[seat]: value for seat, value in match_accuracy([costs]).items() if value is not None
    }
    tables = [frame.value for frame in light_tables(at)]
    accuracy = next(table for table in tables if "accuracy" in table.columns)
    shown = dict(zip(accuracy["player"], accuracy["accuracy"], strict=True))
    assert shown.keys() == expected.keys()
    for player, value in expected.items():
        assert abs(shown[player] - value) < 1e-9
    by_deal = next(
        table for table in tables if "deal" in table.columns and set(expected) <= set(table.columns)
    )
    assert by_deal["deal"].to_list() == [1]  # only deal 1 was costed
    written = next(t for t in light_tables(at) if t.key == "match_accuracy")
    assert all(re.fullmatch(r"\d{1,3}\.\d%", text) for text in written.texts["accuracy"])
    assert written.labels[:2] == ["Player", "Accuracy"]
    assert "Accuracy (solver)" in [s.value for s in at.subheader]


def test_match_tables_in_dutch_write_a_decimal_comma_and_a_real_minus_sign(
    app: AppTest, solved: Solved
) -> None:
    """The tables write their numbers as the page's language does: 48,6% and −10,6 in Dutch (the
    English page wrote luck as -10.6 with a hyphen, the Players page −0.44 with a minus sign)."""
    _, result, _ = solved
    app.run()
    app.session_state["lang"] = "nl"
    app.query_params["match"] = result.id
    at = app.switch_page("app_pages/match.py").run()
    assert not at.exception
    tables = {frame.key: frame.texts for frame in light_tables(at)}
    assert all(re.fullmatch(r"\d{1,3},\d%", text) for text in tables["match_accuracy"]["accuracy"])
    luck = [text for text in tables["match_ledger"]["luck"] if text]
    assert luck and all(re.fullmatch(r"[+\u2212]\d+,\d|0,0", text) for text in luck), luck
    assert not any("-" in text or "." in text for row in tables["match_ledger"].rows() for text in row[1:])
    # the decisions' steps with their signs, as the waterfalls draw them: given away is down
    own = tables["match_ledger"]["given_away"].to_list()
    assert own and all(re.fullmatch(r"\u2212\d+|\+0", text) for text in own), own
    assert all(re.fullmatch(r"\+\d+", text) for text in tables["match_ledger"]["won_back"])


def test_match_without_costs_shows_no_accuracy(app: AppTest, solved: Solved) -> None:
    at = open_page(app, "match", match="random-1")
    assert "Accuracy (solver)" not in [s.value for s in at.subheader]


def test_players_page_shows_accuracy_over_costed_deals(app: AppTest, solved: Solved) -> None:
    _, result, costs = solved
    seat, value = next((s, v) for s, v in match_accuracy([costs]).items() if v is not None)
    at = open_page(app, "players", player=result.seats[seat])
    metrics = figures(at)
    assert metrics["Accuracy (solver)"] == f"{value:.1f}%"


def test_players_ledger_labels_an_undated_match_without_its_import_day(
    solved: Solved, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "klop-tegenklop (2026-12-07)": a match recorded without a date was labelled with the day
    it was imported, read as the day it was played."""
    import duckdb

    from .test_dashboard import svg_charts

    copy = tmp_path / "undated.duckdb"
    shutil.copy(solved[0], copy)
    with duckdb.connect(str(copy)) as connection:
        connection.execute("UPDATE matches SET date = NULL WHERE match_id = 'random-0'")
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(copy))
    _, result, costs = solved
    at = open_page(AppTest.from_file(APP, default_timeout=60), "players", player=result.seats[costs[0].seat])
    drawn = svg_charts(at)["players_ledger"]
    assert "random-0" in drawn and "random-0 (" not in drawn


@pytest.fixture(scope="module")
def variant_archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A six-player deal (three against three) analysed in full, as every variant is."""
    return analysed_variant_archive(tmp_path_factory.mktemp("six"), "six")


def test_a_variant_deal_shows_both_values_of_every_card(
    variant_archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The replay of a variant shows each legal card's value from the player's view and with
    hindsight, and the layouts, as for four players; the match page's ledger has one row per
    player of the six."""
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(variant_archive))
    with Store(variant_archive, read_only=True) as store:
        ((match_id,),) = store.query("SELECT match_id FROM matches").rows()
        trick, play, layouts = store.query(
            "SELECT trick, play, layouts FROM play_costs WHERE NOT forced ORDER BY trick, play LIMIT 1"
        ).rows()[0]
        ((players,),) = store.query("SELECT count(DISTINCT player) FROM deal_seats").rows()
    at = open_page(
        AppTest.from_file(APP, default_timeout=60),
        "replay",
        match=match_id,
        deal=1,
        step=(trick - 1) * 6 + play,
    )
    tables = [frame for frame in light_tables(at) if "hindsight" in frame.value.columns]
    assert len(tables) == 1
    assert list(tables[0].value.columns) == ["card", "view", "hindsight"]
    page = texts(at)
    assert f"{layouts} layouts" in page and "(no view cost)" not in page
    at = open_page(AppTest.from_file(APP, default_timeout=60), "match", match=match_id)
    ledgers = [frame.value for frame in light_tables(at) if "partner_given_away" in frame.value.columns]
    assert len(ledgers) == 1 and len(ledgers[0]) == players == 6


def test_a_card_of_a_doubled_deal_says_its_points_in_the_score(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The replay gave "K♠ cost 11.1 card points" beside a finding of "22.3 points at stake" in a
    muil deal, with nothing tying the two: the line under the cost says the score's figure."""
    text = (Path(__file__).resolve().parents[1] / "data" / "samples" / "muil.json").read_text()
    result = decode_and_replay(text)
    assert result.deals[0].multiplier == 2
    costs = view_costs(result.deals[0], result.rules, samples=SAMPLES)
    path = tmp_path / "muil.duckdb"
    with Store(path) as store:
        store.import_entries([Entry("muil.json", None, text.encode())])
        store.save_costs([result.id], *cost_frames(result, {1: costs}))
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(path))

    def shown_at(cost: PlayCost) -> str:
        page = AppTest.from_file(APP, default_timeout=60)
        return texts(open_page(page, "replay", match=result.id, deal=1, step=step_of_play(cost)))

    chosen = next(c for c in costs if not c.forced and c.view_cost)
    doubled = f"{round(chosen.view_cost * 2, 1):.1f}".rstrip("0").rstrip(".")
    said = f"This deal counts twice: from the player's view that is **{doubled}** points of the score."
    page = shown_at(chosen)
    assert said in page
    # the card's cost multiplies out to that figure (9.95 written 9.9 beside 19.9 did not)
    written = re.search(r"cost \*\*([0-9.]+)\*\* card points from", page)
    assert written and round(float(written.group(1)) * 2, 1) == round(chosen.view_cost * 2, 1)
    free = next(c for c in costs if c.forced or c.view_cost == 0)  # a card that cost nothing
    assert "This deal counts" not in shown_at(free)


def test_no_mistakes_found_still_says_what_the_small_costs_add_up_to(app: AppTest, solved: Solved) -> None:
    """A helper's review: "No mistakes found for Jef" beside a ledger of 7.8 card points of own
    decisions read as a contradiction. Below the threshold of a finding, the page says so and
    what the smaller costs add up to, for everyone and for one player, as the ledger sums them."""
    from dashboards import native_inputs

    _, result, costs = solved
    at = open_page(app, "match", match=result.id)
    everyone = sum(max(0.0, c.view_cost) for c in costs if c.view_cost is not None and c.legal)
    shown = texts(at).splitlines()
    assert "No mistakes found in this match." in shown
    (said,) = [text for text in shown if text.startswith("No decision surely cost 2 card points or more")]
    added = float(re.search(r"add up to ([\d.]+) card points", said)[1])  # type: ignore[index]
    assert added == pytest.approx(everyone, abs=0.06)
    # the section it points to by the name the page gives it ("the Match page's ledger" was said on
    # the Match page itself, which has no section of that name)
    assert "the mistakes column of The cards and the decisions" in said
    assert any(str(h.value).startswith("The cards and the decisions") for h in at.subheader)
    player = result.seats[costs[0].seat]
    own = sum(
        max(0.0, c.view_cost)
        for c in costs
        if c.view_cost is not None and c.legal and c.seat == costs[0].seat
    )
    at.session_state["match_review_for"] = native_inputs.chosen_state({"whose": player})
    shown = texts(at.run()).splitlines()
    assert f"No mistakes found for {player}." in shown
    (said,) = [text for text in shown if text.startswith("No decision surely cost")]
    assert float(re.search(r"add up to ([\d.]+) card points", said)[1]) == pytest.approx(own, abs=0.06)  # type: ignore[index]


HOSTILE = '<iframe srcdoc="&lt;script&gt;parent.alert(5)&lt;/script&gt;"></iframe>'


def test_a_players_name_in_the_cards_costs_is_text_never_html(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A security review's name ``<iframe srcdoc=...>`` ran its script in the organiser's browser
    on the Deal replay: the costs' sentences (markdown that draws the card's HTML) took the name
    as HTML. It is text there, as on every other page."""
    record = random_record(0, 1)
    record.match.seats = [HOSTILE if seat == 1 else name for seat, name in enumerate(record.match.seats)]
    result = decode_and_replay(dumps(record, pretty=False))
    costs = view_costs(result.deals[0], result.rules, samples=2)
    path = tmp_path / "club.duckdb"
    with Store(path) as store:
        store.import_entries([Entry("club.jsonl", 1, dumps(record, pretty=False).encode())])
        plays, values = cost_frames(result, {1: costs})
        store.save_costs([result.id], plays, values)
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(path))
    shown = [c for c in costs if c.seat == 1]
    assert any(c.forced for c in shown) or any(not c.forced for c in shown)
    for cost in shown[:4]:  # forced or not: both sentences name the player
        at = open_page(AppTest.from_file(APP, default_timeout=60), "replay", match=result.id, deal=1,
                       step=step_of_play(cost))  # fmt: skip
        drawn = [m.value for m in at.markdown if m.allow_html]
        assert drawn and not any(re.search(r"(?<!\\)<(/?)iframe", text) for text in drawn), drawn
        assert any("\\<iframe" in text for text in drawn)  # the name, shown as typed


ILLEGAL_PLAYS = Path(__file__).resolve().parent.parent / "data" / "samples" / "illegal-plays.json"


def test_replay_says_an_illegal_card_has_no_value_and_lists_the_legal_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A record keeper read "9♠ cost 0 card points with hindsight" over a table without the 9♠:
    a free card, where it broke the house rule."""
    result = decode_and_replay(ILLEGAL_PLAYS.read_text())
    # deal 1: Anna's revoke (8♥) where only 9♦ was legal, which read "8♥ was the only card Anna
    # could play: it costs nothing"; deal 3: Dirk's 9♠ where three cards were legal
    for deal in (result.deals[0], result.deals[2]):
        _shows_no_value(deal, result, tmp_path / f"club-{deal.number}.duckdb", monkeypatch)


def _shows_no_value(deal, result, path, monkeypatch):  # type: ignore[no-untyped-def]
    violation = deal.violations[0]
    costs = view_costs(deal, result.rules, samples=SAMPLES)
    illegal = next(c for c in costs if (c.trick, c.play) == (violation.trick, violation.play))
    assert not illegal.legal
    with Store(path) as store:
        store.import_paths([ILLEGAL_PLAYS])
        plays, values = cost_frames(result, {deal.number: costs})
        store.save_costs([result.id], plays, values)
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(path))
    at = open_page(AppTest.from_file(APP, default_timeout=60), "replay", match=result.id, deal=deal.number,
                   step=step_of_play(illegal))  # fmt: skip
    page = texts(at)
    assert "broke a rule (see the finding), so the solver gives it no value" in page
    assert "with hindsight" not in page
    rows = costs_table(at)
    if len(violation.legal) == 1:  # nothing to compare: the one legal card named
        (legal,) = violation.legal
        assert rows is None and f"{legal.symbol}</b> was the only card" in page, page
    else:
        # the legal cards' values, with hindsight only where the deal has no view costs
        (table,) = [f.value for f in light_tables(at) if {"card", "hindsight"} <= set(f.value.columns)]
        assert "the only card" not in page
        assert set(table["card"].to_list()) == {card.symbol for card in violation.legal}
