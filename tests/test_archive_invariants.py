"""What an import must keep: every deal of every record, the card points adding up, the counts agreeing.

:func:`assert_archive_holds` is the check; the tests run it after importing the shipped
archives and random matches of every variant, so an importer that drops a kind of deal (a
redeal, a scoresheet line) or miscounts a trick fails here whichever path it took.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from manillen_replay.engine import DealKind, replay
from manillen_replay.players import parse_players
from manillen_replay.players.generate import GenerateOptions, generate_matches
from manillen_replay.record import Record, dumps, load
from manillen_replay.rules import VARIANTS, Rules, mask_points
from manillen_replay.store import Store

DATA = Path(__file__).resolve().parent.parent / "data"
PLAYERS = "Anna:club,Bert:club,Carla:novice,Dirk:club,Ellen:novice,Frans:club"


def assert_archive_holds(store: Store, records: Sequence[Record]) -> None:
    """Every deal of every record is in the archive, of the same kind, with its tricks and card points."""
    for record in records:
        result = replay(record)
        match_id = record.match.id
        rows = store.query(
            "SELECT deal, kind, tricks, points_0, points_1 FROM deals WHERE match_id = ? ORDER BY deal",
            [match_id],
        )
        assert rows.height == len(record.deals), (
            f"{match_id}: {rows.height} deals stored of {len(record.deals)}"
        )
        stored = store.query("SELECT deals FROM matches WHERE match_id = ?", [match_id])["deals"].to_list()
        assert stored == [len(record.deals)], match_id
        assert Counter(rows["kind"].to_list()) == Counter(deal.kind.value for deal in result.deals), match_id
        assert rows["tricks"].to_list() == [len(deal.tricks) for deal in result.deals], match_id
        tricks = store.query(
            "SELECT deal, sum(points) AS points FROM tricks WHERE match_id = ? GROUP BY deal",
            [match_id],
        )
        per_deal = {row["deal"]: row for row in tricks.iter_rows(named=True)}
        plays = store.query(
            "SELECT deal, count(*) AS n FROM play_rows WHERE match_id = ? GROUP BY deal", [match_id]
        )
        plays_per_deal = dict(zip(plays["deal"].to_list(), plays["n"].to_list(), strict=True))
        for deal, row in zip(result.deals, rows.iter_rows(named=True), strict=True):
            cards = sum(len(trick.cards) for trick in deal.tricks)
            assert plays_per_deal.get(row["deal"], 0) == cards, (match_id, deal.number)
            if deal.kind is not DealKind.PLAYED:
                continue
            shape = result.rules.shape
            taken = row["points_0"] + row["points_1"]
            assert taken == mask_points(shape.deck_mask), (match_id, deal.number)
            in_tricks = per_deal[row["deal"]]["points"]
            # the laid-aside cards count for a side without being played
            assert in_tricks == taken if not shape.discards else in_tricks <= taken, (match_id, deal.number)


def _import(store: Store, records: Sequence[Record]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "matches.jsonl"
        path.write_text("".join(dumps(record, pretty=False) + "\n" for record in records))
        summary = store.import_paths([path])
    assert summary.refused == 0 and summary.imported == len(records)


def test_every_deal_of_the_shipped_archives_is_in_the_archive_redeals_and_scoresheet_lines_included():
    records = [load(path) for path in sorted((DATA / "samples").glob("*.json"))]
    demo = (DATA / "demo.jsonl").read_text().splitlines()
    from manillen_replay.record import loads

    records += [loads(line) for line in demo]
    kinds = Counter(deal.kind for record in records for deal in replay(record).deals)
    # the check below only means something if these kinds are there to be dropped
    assert kinds[DealKind.REDEAL] and kinds[DealKind.SCORESHEET] and kinds[DealKind.PLAYED]
    with Store() as store:
        _import(store, records)
        assert_archive_holds(store, records)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(sorted(VARIANTS)), seed=st.integers(0, 10_000))
def test_random_matches_of_every_variant_keep_every_deal(variant: str, seed: int):
    rules = Rules().with_options(variant=variant)
    players = tuple(parse_players(PLAYERS))[: max(rules.shape.people, 4)]
    made = generate_matches(GenerateOptions(players=players, rules=rules, seed=seed), matches=2)
    records = [match.record for match in made]
    with Store() as store:
        _import(store, records)
        assert_archive_holds(store, records)
