"""What the analysis stores: findings of the detectors and the solver's costs."""

from __future__ import annotations

import duckdb
import polars as pl
import pyarrow as pa

from ..archive_defaults import ANALYSIS_DEPTHS
from ..errors import ManillenError
from .arrow import _STR
from .connection import StoreBase, _duckdb_message


class FindingsMixin(StoreBase):
    """Saving the analysis's results."""

    def save_findings(
        self,
        match_ids: list[str],
        findings: pl.DataFrame,
        *,
        detector: str = "builtin",
        depth: str = "heuristic",
    ) -> None:
        """Replace the findings of these matches made by ``detector``, in one transaction.

        With the built-in detectors (``detector="builtin"``) the matches are also marked
        analysed (``matches.analysed_at``, and ``matches.analysis_depth`` set to ``depth``); a
        coach detector does not mark them, so the built-in analysis still finds them unanalysed.

        :param findings: the ``findings`` columns except ``finding_id`` and ``detector``.
        :param depth: how deep the built-in analysis went: one of :data:`ANALYSIS_DEPTHS`.
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
        ids = pa.table({"match_id": pa.array(list(match_ids), type=_STR)})
        self._con.execute("BEGIN TRANSACTION")
        self._con.register("_batch_ids", ids)
        self._con.register("_batch_findings", findings.to_arrow())
        try:
            self._con.execute(
                "DELETE FROM findings WHERE detector = ? AND match_id IN (SELECT match_id FROM _batch_ids)",
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
                    "UPDATE matches SET analysed_at = current_localtimestamp(), analysis_depth = ? "
                    "WHERE match_id IN (SELECT match_id FROM _batch_ids)",
                    [depth],
                )
            self._con.execute("COMMIT")
        except BaseException as error:
            self._con.execute("ROLLBACK")
            if isinstance(error, duckdb.Error):
                raise ManillenError(f"could not save findings: {_duckdb_message(error)}") from None
            raise
        finally:
            self._con.unregister("_batch_ids")
            self._con.unregister("_batch_findings")

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
        self._con.execute("BEGIN TRANSACTION")
        try:
            for table in frames:
                self._con.execute(
                    f"DELETE FROM {table} WHERE match_id IN (SELECT unnest(?::VARCHAR[]))", [list(match_ids)]
                )
            for table, frame in frames.items():
                if frame.height:
                    self._con.from_arrow(frame.to_arrow()).query(
                        "_batch", f"INSERT INTO {table} BY NAME SELECT * FROM _batch"
                    )
            self._con.execute("COMMIT")
        except BaseException as error:
            self._con.execute("ROLLBACK")
            if isinstance(error, duckdb.Error):
                raise ManillenError(f"could not save costs: {_duckdb_message(error)}") from None
            raise

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
        self._con.execute("BEGIN TRANSACTION")
        try:
            self._con.execute(
                "DELETE FROM finding_lines WHERE match_id IN (SELECT unnest(?::VARCHAR[]))", [list(match_ids)]
            )
            if lines.height:
                self._con.from_arrow(lines.to_arrow()).query(
                    "_batch", "INSERT INTO finding_lines BY NAME SELECT * FROM _batch"
                )
            self._con.execute("COMMIT")
        except BaseException as error:
            self._con.execute("ROLLBACK")
            if isinstance(error, duckdb.Error):
                raise ManillenError(f"could not save lines: {_duckdb_message(error)}") from None
            raise
