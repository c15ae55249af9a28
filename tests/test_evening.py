"""A club evening: the tables and the partner rotation, the archive keeping it, the standings.

Expected standings come from the engine replaying each table's match (its blocks won and each
block's score), never from the standings query itself.
"""

from __future__ import annotations

import datetime
import itertools
import random
from collections import Counter
from typing import Any

import pytest

from dashboards import recording as rec
from manillen_replay.engine import replay
from manillen_replay.errors import InvalidOptionError
from manillen_replay.evening import (
    Evening,
    club_blocks,
    parse_names,
    partner_counts,
    plan_evening,
    seat_rounds,
)
from manillen_replay.record import Entry
from manillen_replay.store import Store

TWELVE = [f"Player {n}" for n in range(1, 13)]
DAY = datetime.date(2026, 12, 5)


def test_each_table_partners_every_pair_once() -> None:
    seatings = club_blocks(["A", "B", "C", "D"])
    pairs = Counter(frozenset((s[t], s[t + 2])) for s in seatings for t in (0, 1))
    assert set(pairs) == {frozenset(p) for p in itertools.combinations("ABCD", 2)}
    assert set(pairs.values()) == {1}
    assert all(sorted(s) == ["A", "B", "C", "D"] for s in seatings)


@pytest.mark.parametrize("people", [8, 12, 16, 40])
def test_rounds_seat_everyone_once_and_spread_the_partners(people: int) -> None:
    players = [f"P{n}" for n in range(people)]
    rounds = seat_rounds(players, 3)
    for tables in rounds:
        seated = [p for table in tables for p in table]
        assert sorted(seated) == sorted(players)
        assert all(len(table) == 4 for table in tables)
    counts = partner_counts(rounds)
    # three rounds of three partners each: nine partnerships per player; the greedy draw
    # repeats a partner only when it must, so no pair partners more than twice
    per_player = Counter(p for pair, n in counts.items() for p in pair for _ in range(n))
    assert set(per_player.values()) == {9}
    assert max(counts.values()) <= 2
    if people == 16:  # four tables of four: three rounds of new partners exist, and are found
        assert max(counts.values()) == 1


def test_a_later_round_mixes_the_first_rounds_tables() -> None:
    first, second = seat_rounds(TWELVE, 2)
    for table in second:
        # no table of round 2 is a table of round 1 again, and none keeps three of one table
        assert all(len(set(table) & set(old)) <= 2 for old in first)


def test_pasted_names_and_bad_lists() -> None:
    assert parse_names("1. Anna\n2) Bert\n- Carla, Dirk;Eva\n\n  Frans  De Vos ") == [
        "Anna",
        "Bert",
        "Carla",
        "Dirk",
        "Eva",
        "Frans De Vos",
    ]
    with pytest.raises(InvalidOptionError, match="add 3 or leave out 1"):
        seat_rounds([*TWELVE, "Extra"], 1)
    with pytest.raises(InvalidOptionError, match="twice"):
        seat_rounds([*TWELVE[:7], "player 1"], 1)
    with pytest.raises(InvalidOptionError, match="no table 4"):
        plan_evening("e", DAY, "Zwaan", TWELVE, scoresheet_tables=[4])
    with pytest.raises(InvalidOptionError, match="rounds"):
        seat_rounds(TWELVE, 0)
    with pytest.raises(InvalidOptionError):
        plan_evening("e", DAY, "Zwaan", TWELVE, rules={"deals": "many"})


def test_plan_gives_ids_free_in_the_archive() -> None:
    evening = plan_evening("zwaan-2026-12-05", DAY, "Zwaan", TWELVE, taken_ids=["zwaan-2026-12-05-t2"])
    assert [t.match_id for t in evening.tables] == [
        "zwaan-2026-12-05-t1",
        "zwaan-2026-12-05-t2-2",
        "zwaan-2026-12-05-t3",
    ]
    two = plan_evening("x", DAY, "Zwaan", TWELVE[:8], rounds=2, scoresheet_tables=[2])
    assert [(t.round, t.number, t.match_id, t.scoresheet_only) for t in two.tables] == [
        (1, 1, "x-r1-t1", False),
        (1, 2, "x-r1-t2", True),
        (2, 1, "x-r2-t1", False),
        (2, 2, "x-r2-t2", True),
    ]
    assert two.rules_value().format == "fixed"


# --------------------------------------------------------------------------- archive and standings


def table_record(evening: Evening, number: int, rng: random.Random, deals: int) -> Any:
    """A table's match of scoresheet lines entered as the Record page does, ``deals`` of them."""
    table = evening.tables_of(1)[number - 1]
    setup = rec.Setup(table.match_id, table.seats, rules=evening.rules, blocks=table.blocks)
    draft = rec.new_draft(f"d{number}", setup)
    for _ in range(deals):
        team = rng.choice([0, 1, None])
        draft = rec.scoresheet_line(draft, team, rng.randint(1, 30))
        draft, record, _ = rec.finish_deal(draft)
    return rec.to_record(draft, with_current=False), record


def expected_standings(records: list[Any], players: list[str]) -> dict[str, tuple[int, int]]:
    """Blocks won and points per player, from the engine's replay of each match."""
    won: Counter[str] = Counter()
    points: Counter[str] = Counter()
    for record in records:
        result = replay(record)
        won.update({name: n for name, n in result.blocks_won.items()})
        for block in result.blocks:
            for team in (0, 1):
                for name in block.seats[team::2]:
                    points[name] += block.score[team]
        if len(result.blocks) < len(record.match.blocks):  # the block being played
            seating = record.match.blocks[len(result.blocks)]
            for team in (0, 1):
                for name in seating[team::2]:
                    points[name] += result.score[team]
    return {p: (won[p], points[p]) for p in players}


def test_standings_follow_the_saved_deals(store: Store) -> None:
    rng = random.Random(5)
    evening = plan_evening("zwaan", DAY, "Zwaan", TWELVE, rules={"deals": 2})
    store.add_evening(evening)
    assert store.evening("zwaan") == evening
    assert store.standings("zwaan")["blocks_won"].to_list() == [0] * 12
    # tables 1 and 2 finish their three blocks, table 3 is in its second block
    records = [table_record(evening, n, rng, deals)[0] for n, deals in ((1, 6), (2, 6), (3, 3))]
    store.import_entries([Entry(f"t{n}", None, rec.record_json(r)) for n, r in enumerate(records)])
    frame = store.standings("zwaan")
    got = {row["player"]: (row["blocks_won"], row["points"]) for row in frame.iter_rows(named=True)}
    assert got == expected_standings(records, TWELVE)
    # best first: blocks won, then points; level players share a place
    keys = [(-row["blocks_won"], -row["points"]) for row in frame.iter_rows(named=True)]
    assert keys == sorted(keys)
    for a, b in itertools.pairwise(frame.iter_rows(named=True)):
        level = (a["blocks_won"], a["points"]) == (b["blocks_won"], b["points"])
        assert (a["place"] == b["place"]) == level
    assert (
        frame.filter(frame["player"].is_in(evening.tables_of(1)[0].seats))["blocks_played"].to_list()
        == [3] * 4
    )


def test_players_with_no_deal_yet_have_no_place_and_come_after_those_ranked(store: Store) -> None:
    """Two deals in at table 1, its losers (0 blocks, 0 points) shared place 3 with the eight
    players of tables 2 and 3, who had not played: on the big screen they read as having played."""
    evening = plan_evening("zwaan", DAY, "Zwaan", TWELVE, rules={"deals": 2})
    store.add_evening(evening)
    record, _ = table_record(evening, 1, random.Random(5), 1)
    store.import_entries([Entry("t1", None, rec.record_json(record))])
    frame = store.standings("zwaan")
    played = set(evening.tables_of(1)[0].seats)
    rows = list(frame.iter_rows(named=True))
    assert [row["player"] in played for row in rows] == [True] * 4 + [False] * 8
    assert all(row["place"] is not None for row in rows[:4]) and rows[0]["place"] == 1
    assert [row["place"] for row in rows[4:]] == [None] * 8
    assert [row["deals"] for row in rows[4:]] == [0] * 8


def test_an_evening_id_is_kept_once(store: Store) -> None:
    evening = plan_evening("zwaan", DAY, "Zwaan", TWELVE)
    store.add_evening(evening)
    with pytest.raises(Exception, match="already"):
        store.add_evening(evening)
    assert store.evening("nothing") is None


def test_a_save_is_remembered_once(store: Store) -> None:
    assert store.save_done("s1") is None
    store.note_save("s1", "m1", 3)
    store.note_save("s1", "m1", 3)
    assert store.save_done("s1") == "m1"
    assert store.query("SELECT count(*) AS n FROM saves")["n"][0] == 1
