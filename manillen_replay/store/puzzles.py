"""The rows puzzles are made of, and each player's answers to them (``puzzle_reviews``)."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any

import polars as pl

from .connection import StoreBase, _first, _frame

# The puzzles' analysis (and the solver's positions it reads) is imported by the methods that use
# it: every Store has these methods, few commands call them.
if TYPE_CHECKING:
    from ..analysis.puzzles import PuzzleTables, Review

_CANDIDATES = """
SELECT c.* FROM play_costs c JOIN matches m USING (match_id)
WHERE c.legal AND NOT c.forced AND c.view_cost IS NOT NULL
  AND c.view_cost - 2 * coalesce(c.view_error, 0) >= $min_cost
  AND ($player IS NULL OR lower(c.player) = lower($player))
  AND ($match IS NULL OR c.match_id = $match)
"""
"""The plays that may make a puzzle: legal, chosen, and surely costly from the player's view
(the choosing rule itself is :func:`manillen_replay.analysis.puzzles.is_clear`)."""


class PuzzlesMixin(StoreBase):
    """Puzzles' rows, and the Leitner boxes of each player's answers."""

    def puzzle_rows(
        self, *, player: str | None = None, match_id: str | None = None, min_cost: float = 2.0
    ) -> PuzzleTables:
        """The rows of the plays and knocks that may make puzzles, of one player (any case) or
        everyone, of one match or all.

        :param min_cost: the least sure view cost of a candidate play (card points).
        """
        from ..analysis.puzzles import PuzzleTables

        params: dict[str, Any] = {"player": player, "match": match_id, "min_cost": min_cost}
        with self._con.cursor() as cursor:
            costs = _frame(cursor.sql(_CANDIDATES + " ORDER BY match_id, deal, trick, play", params=params))
            values = _frame(
                cursor.sql(
                    f"SELECT v.* FROM card_values v JOIN ({_CANDIDATES}) c "
                    "USING (match_id, deal, trick, play) ORDER BY match_id, deal, trick, play, card",
                    params=params,
                )
            )
            calls = _frame(
                cursor.sql(
                    "SELECT * FROM call_decisions WHERE call IN ('klop', 'trump') "
                    "AND loss - 2 * coalesce(loss_error, 0) >= $min_cost "
                    "AND ($player IS NULL OR lower(player) = lower($player)) "
                    "AND ($match IS NULL OR match_id = $match)",
                    params=params,
                )
            )
            findings = _frame(
                cursor.sql(
                    f"SELECT f.match_id, f.deal, f.trick, f.play, f.explanation, f.explanation_nl "
                    f"FROM findings f JOIN ({_CANDIDATES}) c USING (match_id, deal, trick, play) "
                    "WHERE f.kind = 'costly_card'",
                    params=params,
                )
            )
            records = _frame(
                cursor.sql(
                    "SELECT match_id, record, date FROM matches WHERE match_id IN "
                    f"(SELECT match_id FROM ({_CANDIDATES}) UNION SELECT match_id FROM call_decisions "
                    "WHERE call IN ('klop', 'trump') AND ($player IS NULL OR lower(player) = lower($player)) "
                    "AND ($match IS NULL OR match_id = $match)) "
                    "ORDER BY date DESC NULLS LAST, match_id",
                    params=params,
                )
            )
        return PuzzleTables(records=records, costs=costs, values=values, calls=calls, findings=findings)

    def puzzle_reviews(self, player: str) -> dict[str, Review]:
        """A player's reviews (any case of the name), by puzzle id."""
        from ..analysis.puzzles import Review

        with self._con.cursor() as cursor:
            rows = cursor.execute(
                "SELECT puzzle_id, box, due_at, last_right FROM puzzle_reviews "
                "WHERE lower(player) = lower(?)",
                [player],
            ).fetchall()
        return {str(r[0]): Review(str(r[0]), int(r[1]), r[2], bool(r[3])) for r in rows}

    def answer_puzzle(
        self, player: str, puzzle_id: str, answer: str, right: bool, now: datetime.datetime | None = None
    ) -> Review:
        """Keep a player's answer to a puzzle and move it to its next Leitner box
        (:func:`~manillen_replay.analysis.puzzles.next_box`).

        :param now: the time of the answer (default: now, local time as the archive keeps it).
        :returns: the puzzle's review after the answer.
        """
        from ..analysis.puzzles import Review, next_box

        self._check_writable()
        now = now or datetime.datetime.now()
        name = player.strip()
        before = _first(
            self._con.execute(
                "SELECT box FROM puzzle_reviews WHERE lower(player) = lower(?) AND puzzle_id = ?",
                [name, puzzle_id],
            ).fetchall()
        )
        box, due = next_box(int(before[0]) if before else 1, right, now)
        self._con.execute(
            """
            INSERT INTO puzzle_reviews VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?)
            ON CONFLICT (player, puzzle_id) DO UPDATE SET
                box = excluded.box, due_at = excluded.due_at, answers = puzzle_reviews.answers + 1,
                misses = puzzle_reviews.misses + excluded.misses, last_answer = excluded.last_answer,
                last_right = excluded.last_right, answered_at = excluded.answered_at
            """,
            [name, puzzle_id, box, due, 0 if right else 1, answer, right, now],
        )
        return Review(puzzle_id, box, due, right)

    def puzzle_review_rows(self, player: str) -> pl.DataFrame:
        """A player's ``puzzle_reviews`` rows, the next due first."""
        with self._con.cursor() as cursor:
            return _frame(
                cursor.sql(
                    "SELECT * FROM puzzle_reviews WHERE lower(player) = lower($p) ORDER BY due_at",
                    params={"p": player},
                )
            )
