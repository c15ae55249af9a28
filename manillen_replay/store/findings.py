"""What the analysis stores: findings of the detectors and the solver's costs."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import Any

import polars as pl

from ..archive_defaults import ANALYSIS_DEPTHS, ANALYSIS_REVISION
from ..errors import ManillenError
from .connection import StoreBase, _frame, _sql_text


def _sql_list(values: Iterable[str]) -> str:
    return "[" + ", ".join(_sql_text(value) for value in values) + "]"


def _order_by(order: Iterable[tuple[str, bool]]) -> str:
    """``ORDER BY`` of a ranking order (``manillen_replay.analysis.ranking``): missing values last."""
    return ", ".join(f"{column} {'DESC' if descending else 'ASC'} NULLS LAST" for column, descending in order)


@functools.cache
def biggest_mistakes_sql() -> str:
    """The decisions of :meth:`FindingsMixin.biggest_mistakes`: the rule of
    :mod:`manillen_replay.analysis.ranking` (one finding per decision, the costliest first) in SQL.

    Written on first use: the ranking loads the analysis (and the engine), which a Store opened
    for anything else (`manillen sql`, `rules`, `export`) does not need.
    """
    from ..analysis.findings import Category
    from ..analysis.ranking import (
        CALL_OF_KIND,
        DECISION_COLUMNS,
        KEEP_ORDER,
        RANK_ORDER,
        RANKED_CATEGORIES,
        RANKED_SEVERITIES,
        SEVERITY_ORDER,
    )

    rule = _sql_text(Category.RULE.value)
    call_case = (
        "CASE WHEN f.trick IS NOT NULL THEN NULL "
        + " ".join(
            f"WHEN f.kind = {_sql_text(kind)} THEN {_sql_text(call)}" for kind, call in CALL_OF_KIND.items()
        )
        + " ELSE f.kind END"
    )
    return f"""
WITH ranked AS (
    SELECT f.match_id, f.deal, f.trick, f.play, f.seat, f.player, f.kind, f.category, f.severity,
           f.card, coalesce(f.better, []) AS better, f.points, f.explanation, f.explanation_nl,
           f.detector, {call_case} AS call,
           list_position({_sql_list(SEVERITY_ORDER)}, f.severity) - 1 AS severity_level,
           coalesce(s.is_dummy, FALSE) AS dummy
    FROM findings f
    LEFT JOIN deal_seats s ON s.match_id = f.match_id AND s.deal = f.deal AND s.seat = f.seat
    WHERE list_contains({_sql_list(RANKED_SEVERITIES)}, f.severity)
      AND list_contains({_sql_list(RANKED_CATEGORIES)}, f.category)
      AND ($1::VARCHAR[] IS NULL OR list_contains($1::VARCHAR[], f.match_id))
      AND ($2::VARCHAR IS NULL OR lower(f.player) = lower($2::VARCHAR))
),
costed AS (
    SELECT r.*,
           -- greatest() skips a NULL: a cost the solver did not give must stay NULL
           CASE WHEN r.trick IS NOT NULL AND c.view_cost IS NOT NULL THEN greatest(c.view_cost, 0.0)
                WHEN r.trick IS NULL AND d.loss IS NOT NULL THEN greatest(d.loss, 0.0) END AS view_cost,
           CASE WHEN r.trick IS NOT NULL THEN c.dd_cost END AS dd_cost,
           CASE WHEN r.trick IS NOT NULL THEN c.hindsight_best END AS hindsight_best,
           -- a card point counts the deal's multiplier in the score; a call's loss is in score points
           CASE WHEN r.trick IS NOT NULL THEN coalesce(g.multiplier, 1) ELSE 1 END AS multiplier
    FROM ranked r
    LEFT JOIN play_costs c
           ON c.match_id = r.match_id AND c.deal = r.deal AND c.trick = r.trick AND c.play = r.play
    LEFT JOIN call_decisions d
           ON r.trick IS NULL AND d.match_id = r.match_id AND d.deal = r.deal AND d.seat = r.seat
          AND d.call = r.call
    LEFT JOIN deals g ON g.match_id = r.match_id AND g.deal = r.deal
),
weighed AS (
    -- a broken rule, which the solver does not cost, ranks by its points at stake (ranking.rank_points)
    SELECT *, view_cost * multiplier AS view_points,
           coalesce(view_cost * multiplier, CASE WHEN category = {rule} THEN points END) AS rank_points
    FROM costed
),
kept AS (
    SELECT *, row_number() OVER (
               PARTITION BY {", ".join(DECISION_COLUMNS)} ORDER BY {_order_by(KEEP_ORDER)}) AS keep
    FROM weighed
),
placed AS (
    -- the place among everyone's decisions, or ($4) among the player's own
    SELECT * EXCLUDE (keep), row_number() OVER (
               PARTITION BY CASE WHEN $4::BOOLEAN THEN lower(player) END
               ORDER BY {_order_by(RANK_ORDER)}) AS place
    FROM kept WHERE keep = 1
)
SELECT * FROM placed WHERE place <= $3
ORDER BY {_order_by(RANK_ORDER)}
"""


class FindingsMixin(StoreBase):
    """Saving the analysis's results."""

    def biggest_mistakes(
        self,
        match_ids: Sequence[str] | None = None,
        *,
        player: str | None = None,
        top: int = 3,
        each_player: bool = False,
    ) -> pl.DataFrame:
        """The costliest decisions, one finding each, the costliest first ("your biggest mistakes").

        The rule is :mod:`manillen_replay.analysis.ranking`'s: one finding per decision (a card:
        match, deal, trick, play; a call: match, deal, seat and the trump or knock call), the most
        severe kept; ranked by the cost from the player's view in points of the score
        (``view_points``: ``play_costs.view_cost`` times the deal's multiplier for a card,
        ``call_decisions.loss`` for a call), then, for the findings the solver did not cost, by
        their points. ``info`` findings are left out.

        :param match_ids: only these matches (all when ``None``).
        :param player: only this player's decisions (any case).
        :param top: at most this many rows (with ``each_player``, this many of each player's).
        :param each_player: ``top`` of each player rather than of everyone (the report's
            "three costliest cards" of each player); still in one order, the costliest first.
        :returns: the ``findings`` columns (``match_id``, ``deal``, ``trick``, ``play``, ``seat``,
            ``player``, ``kind``, ``category``, ``severity``, ``card``, ``better``, ``points``,
            ``explanation``, ``explanation_nl``, ``detector``) with ``call``,
            ``severity_level``, ``dummy`` (a card of the dummy of ``three_dummy``, filed under the
            dealer who chose it), ``view_cost``, ``dd_cost``, ``hindsight_best`` (the cards
            ``dd_cost`` is counted against), ``multiplier`` (the deal's for a
            card, 1 for a call), ``view_points`` and ``place`` (1 for the costliest,
            of everyone's or, with ``each_player``, of the player's).
        """
        params: list[Any] = [None if match_ids is None else list(match_ids), player, max(0, top), each_player]
        with self._con.cursor() as cursor:
            return _frame(cursor.sql(biggest_mistakes_sql(), params=params))

    def save_findings(
        self,
        match_ids: list[str],
        findings: pl.DataFrame,
        *,
        detector: str = "builtin",
        depth: str = "heuristic",
        revision: int = ANALYSIS_REVISION,
    ) -> None:
        """Replace the findings of these matches made by ``detector``, in one transaction.

        With the built-in detectors (``detector="builtin"``) the matches are also marked
        analysed (``matches.analysed_at``, ``matches.analysis_depth`` set to ``depth`` and
        ``matches.analysis_revision`` to :data:`~manillen_replay.archive_defaults.ANALYSIS_REVISION`); a
        coach detector does not mark them, so the built-in analysis still finds them unanalysed.

        :param findings: the ``findings`` columns except ``finding_id`` and ``detector``.
        :param depth: how deep the built-in analysis went: one of :data:`ANALYSIS_DEPTHS`.
        :param revision: the revision of the analysis that made the findings (this one's, unless
            they were made elsewhere by another: ``manillen import-analysis``).
        :raises ManillenError: for columns the table does not have or values it does not allow,
            or an unknown depth.
        """
        self._check_writable()
        if depth not in ANALYSIS_DEPTHS:
            raise ManillenError(f"unknown analysis depth {depth!r}: use {', '.join(ANALYSIS_DEPTHS)}")
        unknown = sorted(set(findings.columns) - set(self._columns("findings")) - {"finding_id", "detector"})
        if unknown or {"finding_id", "detector"} & set(findings.columns):
            bad = unknown or sorted({"finding_id", "detector"} & set(findings.columns))
            raise ManillenError(f"findings frame has columns the table does not take: {', '.join(bad)}")
        ids = pl.DataFrame({"match_id": match_ids}, schema={"match_id": pl.String}).to_arrow()
        self._con.register("_batch_ids", ids)
        self._con.register("_batch_findings", findings.to_arrow())
        try:
            with self._transaction("save findings"):
                self._con.execute(
                    "DELETE FROM findings "
                    "WHERE detector = ? AND match_id IN (SELECT match_id FROM _batch_ids)",
                    [detector],
                )
                if findings.height:
                    self._con.execute(
                        """INSERT INTO findings BY NAME
                           SELECT (SELECT coalesce(max(finding_id), 0) FROM findings) + row_number() OVER ()
                                      AS finding_id,
                                  *, ?::VARCHAR AS detector
                           FROM _batch_findings""",
                        [detector],
                    )
                if detector == "builtin":
                    self._con.execute(
                        "UPDATE matches SET analysed_at = current_localtimestamp(), analysis_depth = ?, "
                        "analysis_revision = ? WHERE match_id IN (SELECT match_id FROM _batch_ids)",
                        [depth, revision],
                    )
        finally:
            self._con.unregister("_batch_ids")
            self._con.unregister("_batch_findings")

    def game_hashes(self, match_ids: list[str]) -> dict[str, tuple[str, str]]:
        """What an analysis made elsewhere is checked against, for each of these matches: the
        SHA-256 of its record as the archive holds it (without the coach comments,
        ``matches.record``: what parts written before kept), and of its game without the match's
        details (:func:`~.importer.game_digest`: what parts keep, so that a venue put right
        does not leave the analysis out)."""
        from .importer import game_digest

        rows = self._con.execute(
            "SELECT match_id, sha256(record), record FROM matches WHERE list_contains(?, match_id)",
            [list(match_ids)],
        ).fetchall()
        return {str(match_id): (str(digest), game_digest(record)) for match_id, digest, record in rows}

    def solver_samples(self, match_ids: list[str]) -> dict[str, int]:
        """The layouts a play of each of these matches' solver review drew at most (a play solved
        on every layout left not counted), for the matches reviewed by the solver."""
        rows = self._con.execute(
            "SELECT c.match_id, coalesce(max(c.layouts) FILTER (WHERE NOT c.exact), max(c.layouts)) "
            "FROM play_costs c JOIN matches m USING (match_id) "
            "WHERE m.analysis_depth = 'solver' AND list_contains(?, c.match_id) GROUP BY 1",
            [list(match_ids)],
        ).fetchall()
        return {str(match_id): int(layouts or 0) for match_id, layouts in rows}

    def known_match_ids(self, match_ids: list[str]) -> list[str]:
        """Those of ``match_ids`` the archive holds, in the order given."""
        held = {
            row[0]
            for row in self._con.execute(
                "SELECT match_id FROM matches WHERE list_contains(?, match_id)", [list(match_ids)]
            ).fetchall()
        }
        return [match_id for match_id in match_ids if match_id in held]

    def deal_count(self, match_ids: list[str]) -> int:
        """How many deals these matches have."""
        rows = self._con.execute(
            "SELECT count(*) FROM deals WHERE list_contains(?, match_id)", [list(match_ids)]
        ).fetchall()
        return int(rows[0][0]) if rows else 0

    def deal_counts_by_variant(self, match_ids: list[str]) -> dict[str, int]:
        """How many deals with cards these matches have, by variant (what the solver review's work
        depends on: a deal of the scoresheet only, without its hands, gives it nothing to search)."""
        rows = self._con.execute(
            "SELECT m.variant, count(*) FROM deals d JOIN matches m USING (match_id) "
            "WHERE list_contains(?, d.match_id) "
            "AND EXISTS (SELECT 1 FROM hands h WHERE h.match_id = d.match_id AND h.deal = d.deal) "
            "GROUP BY m.variant",
            [list(match_ids)],
        ).fetchall()
        return {str(variant): int(count) for variant, count in rows}

    def save_costs(
        self,
        match_ids: list[str],
        costs: pl.DataFrame,
        values: pl.DataFrame,
        calls: pl.DataFrame | None = None,
    ) -> None:
        """Replace the solver's costs of these matches, in one transaction.

        :param match_ids: the matches whose ``play_costs`` and ``card_values`` rows are replaced
            (a match without rows in the frames loses its old ones).
        :param costs: rows of ``play_costs`` (every column, any order).
        :param values: rows of ``card_values`` (every column, any order).
        :param calls: rows of ``call_decisions`` (every column, any order); when given, these
            matches' call rows are replaced too.
        :raises ManillenError: for columns the tables do not have or values they do not allow,
            or rows of a match not in ``match_ids``.
        """
        self._check_writable()
        frames = {"play_costs": costs, "card_values": values}
        if calls is not None:
            frames["call_decisions"] = calls
        for table, frame in frames.items():
            columns = self._columns(table)
            unknown = sorted(set(frame.columns) - set(columns))
            missing = sorted(set(columns) - set(frame.columns))
            if unknown or missing:
                detail = "; ".join(
                    part
                    for part in (
                        f"unknown columns {', '.join(unknown)}" if unknown else "",
                        f"missing columns {', '.join(missing)}" if missing else "",
                    )
                    if part
                )
                raise ManillenError(f"{table} frame does not fit the table: {detail}")
            if frame.height:
                strays = set(frame["match_id"].unique().to_list()) - set(match_ids)
                if strays:
                    raise ManillenError(
                        f"{table} frame has rows of matches not being replaced: {', '.join(sorted(strays))}"
                    )
        with self._transaction("save costs"):
            for table in frames:
                self._con.execute(
                    f"DELETE FROM {table} WHERE match_id IN (SELECT unnest(?::VARCHAR[]))", [list(match_ids)]
                )
            for table, frame in frames.items():
                if frame.height:
                    self._con.from_arrow(frame.to_arrow()).query(
                        "_batch", f"INSERT INTO {table} BY NAME SELECT * FROM _batch"
                    )

    def save_lines(self, match_ids: list[str], lines: pl.DataFrame) -> None:
        """Replace the lines of these matches' costly cards (``finding_lines``), in one transaction.

        :param match_ids: the matches whose ``finding_lines`` rows are replaced (a match without
            rows in the frame loses its old ones).
        :param lines: rows of ``finding_lines`` (every column, any order).
        :raises ManillenError: for columns the table does not have or values it does not allow,
            or rows of a match not in ``match_ids``.
        """
        self._check_writable()
        columns = set(self._columns("finding_lines"))
        if set(lines.columns) != columns:
            unknown = sorted(set(lines.columns) - columns)
            missing = sorted(columns - set(lines.columns))
            raise ManillenError(
                f"finding_lines frame does not fit the table: unknown columns {', '.join(unknown) or '-'}; "
                f"missing columns {', '.join(missing) or '-'}"
            )
        strays = set(lines["match_id"].unique().to_list()) - set(match_ids) if lines.height else set()
        if strays:
            raise ManillenError(
                f"finding_lines frame has rows of matches not being replaced: {', '.join(sorted(strays))}"
            )
        with self._transaction("save lines"):
            self._con.execute(
                "DELETE FROM finding_lines WHERE match_id IN (SELECT unnest(?::VARCHAR[]))", [list(match_ids)]
            )
            if lines.height:
                self._con.from_arrow(lines.to_arrow()).query(
                    "_batch", "INSERT INTO finding_lines BY NAME SELECT * FROM _batch"
                )
