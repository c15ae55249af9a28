"""Club evenings in the archive: their tables, the saves from each table, and the standings."""

from __future__ import annotations

import json

import polars as pl

from ..errors import ManillenError
from ..evening import Evening, EveningTable
from .connection import StoreBase, _first

STANDINGS_SQL = """
WITH tabled AS (
    SELECT match_id FROM evening_tables WHERE evening_id = $evening
),
block_points AS (
    -- a block's score is the match score after its last counted deal (penalties included)
    SELECT d.match_id, d.block, s.player,
           arg_max(CASE s.team WHEN 0 THEN d.match_score_0 ELSE d.match_score_1 END, d.deal) AS points
    FROM deals d
    JOIN deal_seats s ON s.match_id = d.match_id AND s.deal = d.deal AND NOT s.is_dummy
    WHERE d.match_id IN (SELECT match_id FROM tabled) AND d.block IS NOT NULL
    GROUP BY ALL
),
won AS (
    SELECT b.match_id, p.player, count(*) FILTER (WHERE b.won) AS blocks_won, count(*) AS blocks_played
    FROM blocks b, unnest(b.players) AS p(player)
    WHERE b.match_id IN (SELECT match_id FROM tabled)
    GROUP BY ALL
),
present AS (
    SELECT unnest(players) AS player FROM evenings WHERE evening_id = $evening
)
SELECT CASE WHEN deals > 0 THEN rank() OVER (PARTITION BY deals > 0 ORDER BY blocks_won DESC, points DESC)
       END::INTEGER AS place, * FROM (
SELECT pr.player,
       coalesce((SELECT sum(w.blocks_won) FROM won w WHERE w.player = pr.player), 0)::INTEGER
           AS blocks_won,
       coalesce((SELECT sum(bp.points) FROM block_points bp WHERE bp.player = pr.player), 0)::INTEGER
           AS points,
       coalesce((SELECT sum(w.blocks_played) FROM won w WHERE w.player = pr.player), 0)::INTEGER
           AS blocks_played,
       coalesce((SELECT count(*) FROM deal_seats s JOIN deals d USING (match_id, deal)
                 WHERE s.player = pr.player AND NOT s.is_dummy AND d.counted
                   AND s.match_id IN (SELECT match_id FROM tabled)), 0)::INTEGER AS deals
FROM present pr
)
ORDER BY place NULLS LAST, player
"""
"""Each player of an evening: blocks won, points (their team's score in each block, the block
being played included), blocks finished and deals played; best first (blocks won, then points).
A player with no deal played yet has no place (NULL), after those ranked: level at 0 with those
who played and lost every point, they read as if they had played too."""


class EveningsMixin(StoreBase):
    """Keeping club evenings, the saves from their tables, and their standings."""

    def add_evening(self, evening: Evening) -> None:
        """Keep a new evening and its tables.

        :raises ManillenError: when the archive has an evening with this id already.
        """
        self._check_writable()
        if self.evening_ids().count(evening.evening_id):
            raise ManillenError(f"the archive has an evening {evening.evening_id!r} already")
        with self._transaction(f"keep the evening {evening.evening_id!r}"):
            self._con.execute(
                "INSERT INTO evenings VALUES (?, ?, ?, ?, ?, current_localtimestamp())",
                [evening.evening_id, evening.date, evening.venue, evening.players, json.dumps(evening.rules)],
            )
            frame = pl.DataFrame(
                {
                    "evening_id": [evening.evening_id] * len(evening.tables),
                    "round": [t.round for t in evening.tables],
                    "table_number": [t.number for t in evening.tables],
                    "seats": [t.seats for t in evening.tables],
                    "match_id": [t.match_id for t in evening.tables],
                    "scoresheet_only": [t.scoresheet_only for t in evening.tables],
                },
                schema={
                    "evening_id": pl.String,
                    "round": pl.Int32,
                    "table_number": pl.Int32,
                    "seats": pl.List(pl.String),
                    "match_id": pl.String,
                    "scoresheet_only": pl.Boolean,
                },
            )
            self._con.register("new_evening_tables", frame)
            try:
                self._con.execute("INSERT INTO evening_tables SELECT * FROM new_evening_tables")
            finally:
                self._con.unregister("new_evening_tables")

    def evening_ids(self) -> list[str]:
        """Every evening's id, the latest first."""
        rows = self._con.execute(
            "SELECT evening_id FROM evenings ORDER BY date DESC, created_at DESC"
        ).fetchall()
        return [str(r[0]) for r in rows]

    def evening(self, evening_id: str) -> Evening | None:
        """The evening with this id, ``None`` when there is none."""
        row = _first(
            self._con.execute(
                "SELECT date, venue, players, rules FROM evenings WHERE evening_id = ?", [evening_id]
            ).fetchall()
        )
        if row is None:
            return None
        tables = self._con.execute(
            "SELECT round, table_number, seats, match_id, scoresheet_only FROM evening_tables "
            "WHERE evening_id = ? ORDER BY round, table_number",
            [evening_id],
        ).fetchall()
        return Evening(
            evening_id,
            row[0],
            str(row[1]),
            [str(p) for p in row[2]],
            [
                EveningTable(int(r), int(n), [str(s) for s in seats], str(m), bool(b))
                for r, n, seats, m, b in tables
            ],
            dict(json.loads(str(row[3]))),
        )

    def standings(self, evening_id: str) -> pl.DataFrame:
        """The evening's standings (:data:`STANDINGS_SQL`): each player's ``place`` (players level
        on blocks won and points share a place; none before their first deal), ``blocks_won``,
        ``points``, ``blocks_played`` and ``deals``."""
        with self._con.cursor() as cursor:
            frame: pl.DataFrame = cursor.sql(STANDINGS_SQL, params={"evening": evening_id}).pl()
        return frame

    def save_done(self, save_id: str) -> str | None:
        """The match id a save with this id went into, ``None`` when it was not made."""
        row = _first(self._con.execute("SELECT match_id FROM saves WHERE save_id = ?", [save_id]).fetchall())
        return None if row is None else str(row[0])

    def note_save(self, save_id: str, match_id: str, deals: int) -> None:
        """Remember a save, so that the same save sent again is not made twice."""
        self._check_writable()
        self._con.execute(
            "INSERT INTO saves VALUES (?, ?, ?, current_localtimestamp()) ON CONFLICT DO NOTHING",
            [save_id, match_id, deals],
        )
