"""Your biggest mistakes: the ranking (analysis/ranking.py) and its query (Store.biggest_mistakes)."""

from __future__ import annotations

from typing import Any

import polars as pl
import pytest

from manillen_replay.analysis import Category, Finding, Severity
from manillen_replay.analysis.ranking import (
    DECISION_COLUMNS,
    RankedFinding,
    call_of,
    costs_of_plays,
    rank_findings,
)
from manillen_replay.cards import Card
from manillen_replay.store import Store
from manillen_replay.store.analyse import CALLS_SCHEMA, COSTS_SCHEMA, VALUES_SCHEMA, findings_frame


def finding(
    kind: str,
    severity: str,
    points: float,
    deal: int = 1,
    trick: int | None = 1,
    play: int | None = 1,
    seat: int | None = 0,
    player: str = "Anna",
    match: str = "m1",
    category: Category = Category.STRATEGY,
    better: str = "",
) -> Finding:
    return Finding(
        kind=kind,
        category=category,
        severity=Severity(severity),
        match=match,
        deal=deal,
        trick=trick,
        play=play,
        seat=seat,
        player=player,
        card=None if trick is None else Card.parse("7S"),
        better=tuple(Card.parse(c) for c in better.split()),
        points=points,
        explanation=f"{kind} at {deal}/{trick}/{play}",
        explanation_nl=f"{kind} op {deal}/{trick}/{play}",
    )


# (deal, trick, play, seat, view cost, hindsight cost, the deal's multiplier) of the plays the
# solver costed; deal 5 counts double (a muil, a klop): its card's 4 card points are 8 of the score
PLAYS = [
    (1, 1, 1, 0, 6.5, 4.0, 1, ("KH",)),
    (1, 2, 3, 2, 9.0, 12.0, 1, ("7C", "8C")),
    (1, 3, 2, 1, 2.5, 0.0, 1, ()),
    (2, 1, 4, 3, 0.0, 0.0, 1, ()),
    (5, 2, 1, 1, 4.0, 6.0, 2, ("QS",)),
]
# (deal, seat, call, loss) of the calls reviewed
CALLS = [(1, 3, "trump", 7.0), (2, 1, "klop", 3.5)]

FINDINGS = [
    # one play, three findings: the blunder is kept
    finding("costly_card", "mistake", 6.5, 1, 1, 1, 0, "Anna"),
    finding("missed_vetten", "blunder", 5.0, 1, 1, 1, 0, "Anna"),
    finding("hindsight_only", "info", 4.0, 1, 1, 1, 0, "Anna"),
    # the costliest card from the player's view
    finding("costly_card", "blunder", 18.0, 1, 2, 3, 2, "Carla"),
    finding("costly_card", "inaccuracy", 2.5, 1, 3, 2, 1, "Bert"),
    # a card of a deal that counts double: ranked by its 8 points of the score, not its 4 card points
    finding("costly_card", "mistake", 8.0, 5, 2, 1, 1, "Bert", better="KS"),
    # a trump call and a muil finding are one decision: the trump call
    finding("trump_choice", "mistake", 7.0, 1, None, None, 3, "Dirk"),
    finding("muil_missed", "inaccuracy", 3.0, 1, None, None, 3, "Dirk"),
    # a knock call
    finding("knock_choice", "inaccuracy", 3.5, 2, None, None, 1, "Bert"),
    # a revoke: the solver does not cost an illegal card; a broken rule ranks by its points at stake
    finding("revoke", "blunder", 7.5, 4, 1, 2, 3, "Dirk", category=Category.RULE),
    # not costed by the solver: after every costed one, by points
    finding("wasted_trump", "blunder", 8.0, 3, 4, 2, 0, "Anna"),
    finding("missed_vetten", "mistake", 3.0, 3, 5, 1, 2, "Carla"),
    # info is never ranked
    finding("hindsight_only", "info", 12.0, 1, 6, 1, 0, "Anna"),
]

EXPECTED = [
    ("costly_card", 1, 2, 3),  # view 9.0
    ("costly_card", 5, 2, 1),  # view 4.0 card points, 8.0 of the score
    ("revoke", 4, 1, 2),  # not costed: 7.5 points at stake, the penalty it risks
    ("trump_choice", 1, None, None),  # view 7.0 (the call's loss)
    ("missed_vetten", 1, 1, 1),  # view 6.5, the blunder of the three at that play
    ("knock_choice", 2, None, None),  # view 3.5
    ("costly_card", 1, 3, 2),  # view 2.5
    ("wasted_trump", 3, 4, 2),  # not costed, 8 points
    ("missed_vetten", 3, 5, 1),  # not costed, 3 points
]


def places(ranked: list[RankedFinding]) -> list[tuple[Any, ...]]:
    return [(r.finding.kind, r.finding.deal, r.finding.trick, r.finding.play) for r in ranked]


def test_one_finding_per_decision_the_costliest_from_the_players_view_first() -> None:
    """ "one finding per decision, ranked by the solver's view cost; heuristic findings after
    all solver-costed ones, by points; info left out" """
    ranked = rank_findings(FINDINGS, costs_of_plays("m1", PLAYS, CALLS))
    assert places(ranked) == EXPECTED
    assert [r.view_cost for r in ranked] == [9.0, 4.0, None, 7.0, 6.5, 3.5, 2.5, None, None]
    assert [r.view_points for r in ranked] == [9.0, 8.0, None, 7.0, 6.5, 3.5, 2.5, None, None]
    assert [r.multiplier for r in ranked][:3] == [1, 2, 1]
    assert [r.dd_cost for r in ranked][:5] == [12.0, 6.0, None, None, 4.0]
    assert [r.measure for r in ranked] == ["view", "view", "points"] + ["view"] * 4 + ["points"] * 2


def test_without_costs_findings_rank_by_points() -> None:
    """The heuristic depth: no view costs, so the points at stake decide; a broken rule, weighed
    by its points among the costed decisions, comes before the findings the solver would cost."""
    ranked = rank_findings(FINDINGS)
    assert ranked[0].finding.kind == "revoke"
    rest = [r.finding.points for r in ranked[1:]]
    assert rest == sorted(rest, reverse=True)
    assert len(ranked) == len(EXPECTED)
    assert all(r.view_cost is None and r.measure == "points" for r in ranked)


def test_top_and_player() -> None:
    costs = costs_of_plays("m1", PLAYS, CALLS)
    assert places(rank_findings(FINDINGS, costs, top=3)) == EXPECTED[:3]
    assert places(rank_findings(FINDINGS, costs, player="bert")) == [
        ("costly_card", 5, 2, 1),
        ("knock_choice", 2, None, None),
        ("costly_card", 1, 3, 2),
    ]
    assert rank_findings(FINDINGS, costs, top=0) == []


def test_calls_are_decisions_of_their_own() -> None:
    assert call_of("trump_choice", None) == call_of("muil_missed", None) == "trump"
    assert (
        call_of("knock_choice", None) == call_of("klop_lost", None) == call_of("klop_missed", None) == "klop"
    )
    assert call_of("costly_card", 2) is None
    assert DECISION_COLUMNS == ("match_id", "deal", "trick", "play", "seat", "call")


def _archive(store: Store) -> Store:
    store.save_findings(["m1"], findings_frame(FINDINGS))
    costs = pl.DataFrame(
        [
            ("m1", deal, trick, play, seat, None, "7S", int(dd), view, [], [*best], 10, False, True, False, 0)
            for deal, trick, play, seat, view, dd, _, best in PLAYS
        ],
        schema=COSTS_SCHEMA,
        orient="row",
    )
    calls = pl.DataFrame(
        [
            ("m1", deal, seat, None, call, "x", "y", loss, 10.0, 10, 0.0, None, None)
            for deal, seat, call, loss in CALLS
        ],
        schema=CALLS_SCHEMA,
        orient="row",
    )
    store.save_costs(["m1"], costs, pl.DataFrame(schema=VALUES_SCHEMA), calls)
    # the deals' multipliers, as an import stores them (deal 5 counts double)
    for deal, multiplier in sorted({(deal, multiplier) for deal, *_, multiplier, _ in PLAYS}):
        store._con.execute(
            "INSERT INTO deals (match_id, deal, dealer, dealer_player, dealing_team, kind, en_face, "
            "knocks, carried, multiplier, tricks, tie, has_recorded, score_mismatch, penalty_0, "
            "penalty_1, match_score_0, match_score_1, counted, violations, irregularities) VALUES "
            "('m1', ?, 0, 'Anna', 0, 'played', false, 0, false, ?, 8, false, false, false, 0, 0, 0, 0, "
            "true, 0, [])",
            [deal, multiplier],
        )
    return store


def test_store_biggest_mistakes_ranks_as_the_analysis_does(store: Store) -> None:
    """The SQL (window functions) and the Python ranking follow the one rule of analysis/ranking.py."""
    _archive(store)
    frame = store.biggest_mistakes(top=10)
    got = [(row["kind"], row["deal"], row["trick"], row["play"]) for row in frame.iter_rows(named=True)]
    assert got == EXPECTED
    assert frame["view_cost"].to_list() == [9.0, 4.0, None, 7.0, 6.5, 3.5, 2.5, None, None]
    assert frame["view_points"].to_list() == [9.0, 8.0, None, 7.0, 6.5, 3.5, 2.5, None, None]
    assert frame["rank_points"].to_list() == [9.0, 8.0, 7.5, 7.0, 6.5, 3.5, 2.5, None, None]
    assert frame["multiplier"].to_list()[:3] == [1, 2, 1]
    assert frame["dd_cost"].to_list()[:5] == [12, 6, None, None, 4]
    for column in (
        "match_id", "deal", "trick", "play", "seat", "player", "kind", "severity", "card", "better",
        "points", "view_cost", "dd_cost", "explanation", "explanation_nl",
    ):  # fmt: skip
        assert column in frame.columns
    assert "info" not in frame["severity"].to_list()


def test_store_biggest_mistakes_top_player_and_matches(store: Store) -> None:
    _archive(store)
    assert store.biggest_mistakes().height == 3  # top 3 by default
    bert = store.biggest_mistakes(player="BERT", top=10)
    assert bert["kind"].to_list() == ["costly_card", "knock_choice", "costly_card"]
    assert store.biggest_mistakes(["other"], top=10).height == 0
    assert store.biggest_mistakes(["m1", "other"], top=10).height == len(EXPECTED)


@pytest.mark.parametrize("top", [1, 2, 5])
def test_store_and_analysis_agree_at_every_top(store: Store, top: int) -> None:
    _archive(store)
    expected = places(rank_findings(FINDINGS, costs_of_plays("m1", PLAYS, CALLS), top=top))
    frame = store.biggest_mistakes(top=top)
    assert [(r["kind"], r["deal"], r["trick"], r["play"]) for r in frame.iter_rows(named=True)] == expected


@pytest.mark.parametrize("top", [1, 2])
def test_store_ranks_each_players_own_decisions_for_the_report(store: Store, top: int) -> None:
    """``each_player``: the ``top`` costliest of every player (what the report's "three costliest
    cards" sections show), each the same as ranking that player alone, all in the one order."""
    _archive(store)
    frame = store.biggest_mistakes(["m1"], top=top, each_player=True)
    costs = costs_of_plays("m1", PLAYS, CALLS)
    players = sorted({f.player for f in FINDINGS if f.player})
    for name in players:
        mine = frame.filter(pl.col("player") == name)
        expected = places(rank_findings(FINDINGS, costs, player=name, top=top))
        assert [(r["kind"], r["deal"], r["trick"], r["play"]) for r in mine.iter_rows(named=True)] == expected
        assert mine["place"].to_list() == list(range(1, len(expected) + 1))
    everyone = places(rank_findings(FINDINGS, costs))
    got = [(r["kind"], r["deal"], r["trick"], r["play"]) for r in frame.iter_rows(named=True)]
    assert got == [place for place in everyone if place in got]  # the one order, the costliest first
    assert frame.height > top  # more than one player's


def test_a_calls_loss_is_stored_with_its_standard_error(store: Store) -> None:
    """call_decisions.loss_error: the standard error a call finding's severity is judged by
    (loss - 2 * loss_error), stored beside the loss as play_costs.view_error is beside the cost."""
    from manillen_replay.analysis.call_review import CallOption, CallReview
    from manillen_replay.engine import replay
    from manillen_replay.store.analyse import call_frame

    from .factories import random_record

    result = replay(random_record(2, 1))
    best = CallOption("muil", 38.0, 16.0, (), tuple(16.0 + (5.0 if i % 2 else -5.0) for i in range(20)))
    made = CallOption("H", 34.0, 4.0, (), (4.0,) * 20)
    review = CallReview(result.deals[0].number, 0, (best, made), "H", 20)
    calls = call_frame(result, [("trump", review)])
    store.save_costs(
        [result.id], pl.DataFrame(schema=COSTS_SCHEMA), pl.DataFrame(schema=VALUES_SCHEMA), calls
    )
    (row,) = store.query("SELECT loss, loss_error FROM call_decisions").iter_rows(named=True)
    assert row["loss"] == 12.0
    assert row["loss_error"] == pytest.approx(review.loss_error, abs=1e-3) and row["loss_error"] > 1


def test_a_seat_s_findings_about_the_deal_that_are_no_call_are_each_a_decision(store: Store) -> None:
    """A strategy finding about the whole deal that is no call (a coach detector's, say) is a
    decision named by its kind: two of one seat in one deal both rank, in the SQL as in the
    Python ranking."""
    deal_level = [
        finding("weak_signal", "mistake", 10.0, 4, None, None, 0, "Anna"),
        finding("slow_tempo", "inaccuracy", 5.0, 4, None, None, 0, "Anna"),
    ]
    store.save_findings(["m1"], findings_frame(deal_level))
    frame = store.biggest_mistakes(top=10)
    assert frame["kind"].to_list() == ["weak_signal", "slow_tempo"]
    assert frame["call"].to_list() == ["weak_signal", "slow_tempo"]
    assert places(rank_findings(deal_level)) == [
        ("weak_signal", 4, None, None),
        ("slow_tempo", 4, None, None),
    ]


def test_how_the_table_kept_the_game_is_no_players_decision(store: Store) -> None:
    """A scoresheet that disagrees with the cards (36 points at stake) or a dealer out of turn is
    never among the biggest mistakes, in the SQL as in the Python ranking; a revoke is."""
    kept = [
        finding("score_mismatch", "mistake", 36.0, 4, None, None, 0, "Anna", category=Category.SCORING),
        finding(
            "dealer_out_of_rotation", "inaccuracy", 5.0, 4, None, None, 0, "Anna", category=Category.PROCEDURE
        ),
        finding("revoke", "blunder", 30.0, 4, 2, 3, 1, "Bert", category=Category.RULE),
        finding("missed_vetten", "inaccuracy", 2.0, 4, 3, 1, 2, "Carla"),
    ]
    store.save_findings(["m1"], findings_frame(kept))
    assert store.biggest_mistakes(top=10)["kind"].to_list() == ["revoke", "missed_vetten"]
    assert [r.finding.kind for r in rank_findings(kept)] == ["revoke", "missed_vetten"]


def test_a_card_of_a_deal_that_counts_double_says_both_units_where_it_is_shown(store: Store) -> None:
    """The card of deal 5 ranks by 8 points of the score; its line (findings --top, the Match
    page, the report) says those and the 4 card points they come from, and --json carries both."""
    from manillen_replay.analysis.ranking import row_cost_in_words
    from manillen_replay.cli.analysis import _ranked_finding_json

    ranked = rank_findings(FINDINGS, costs_of_plays("m1", PLAYS, CALLS), player="Bert")
    row = _ranked_finding_json(ranked[0], 1, "en", 4)
    assert (row["view_cost"], row["multiplier"], row["view_points"]) == (4.0, 2, 8.0)
    # the hindsight cost is in card points, and against Q♠, the best card with every hand known,
    # not the K♠ the finding names as better (it read as if the K♠ kept those 6)
    assert row["cost"] == (
        "8 points of the score from what the player could see "
        "(4 card points, counted twice in this deal; 6 card points with every hand known, against Q♠)"
    )
    assert row["hindsight_best"] == ["QS"]
    stored = _archive(store).biggest_mistakes(player="Bert", top=1).row(0, named=True)
    assert row_cost_in_words(stored, "en") == row["cost"]
    words = row_cost_in_words(stored, "nl")
    assert words.startswith("8 punten van de score met wat de speler kon zien (4 kaartpunten, dubbel")
    assert words.endswith("6 kaartpunten met alle kaarten open, tegenover de schoppen vrouw)")


def test_a_cost_graded_below_its_average_says_why_in_both_languages() -> None:
    """ "21.2 points ... inaccuracy" at the top of a ranking read as a contradiction: a card or call
    is graded by what it surely cost, and its line says so where that grades it lower."""
    from manillen_replay.analysis.ranking import graded_words

    card = {"kind": "costly_card", "view_cost": 10.6, "severity": "inaccuracy", "call": None}
    said = "; graded an inaccuracy: its cost differs too much from layout to layout to be sure"
    assert graded_words(card) == said
    assert graded_words(card, "nl").startswith(
        "; beoordeeld als onnauwkeurigheid: de kost verschilt te sterk"
    )
    call = {"kind": "knock_choice", "view_cost": 7.4, "severity": "inaccuracy", "call": "klop"}
    assert graded_words(call).startswith("; graded an inaccuracy")  # 7.4 alone would be a mistake
    assert graded_words({**call, "view_cost": 4.0}) == ""  # an inaccuracy by its average too
    # a finding in words that took the card's place took its grade (curate): said as the card's is
    assert graded_words({**card, "kind": "wasted_trump"}) == said
    assert graded_words({**card, "severity": "info"}).startswith("; graded a note: ")
    assert graded_words({**card, "severity": "blunder"}) == ""
