"""Reading the luck and skill ledger and everything a match report shows."""

from __future__ import annotations

from typing import Any

import polars as pl

from ..errors import ManillenError
from .connection import StoreBase, _frame
from .findings import biggest_mistakes_sql

LEDGER_SCOPES = ("deal", "match", "evening", "all")
"""The scopes of the ``player_ledger`` view, narrowest first."""

_LEDGER_ORDER = "ORDER BY player, evening NULLS LAST, match_id NULLS LAST, deal NULLS LAST"


class LedgerMixin(StoreBase):
    """The ``deal_ledger`` and ``player_ledger`` views, and a match's rows for a report."""

    def deal_ledger(self, match_id: str) -> pl.DataFrame:
        """The ``deal_ledger`` rows of one match (two per costed deal played to the end), by deal and team."""
        return self._rows("SELECT * FROM deal_ledger WHERE match_id = ? ORDER BY deal, team", [match_id])

    def player_ledger(
        self, scope: str = "all", *, match_id: str | None = None, player: str | None = None
    ) -> pl.DataFrame:
        """``player_ledger`` rows of one scope, optionally of one match and one player (any case).

        :param scope: ``deal``, ``match``, ``evening`` or ``all``.
        :raises ManillenError: for another scope.
        """
        if scope not in LEDGER_SCOPES:
            raise ManillenError(f"unknown ledger scope {scope!r}: use {', '.join(LEDGER_SCOPES)}")
        return self._rows(
            "SELECT * FROM player_ledger WHERE scope = $1 AND ($2 IS NULL OR match_id = $2) "
            f"AND ($3 IS NULL OR lower(player) = lower($3)) {_LEDGER_ORDER}",
            [scope, match_id, player],
        )

    def report_rows(self, match_id: str, *, top: int = 3) -> dict[str, Any]:
        """Everything a match report shows, as stored: the record and the match's rows.

        :param top: how many of each player's costliest decisions ``mistakes`` holds.
        :returns: ``record`` (the canonical record text), and frames ``costs`` (``play_costs``),
            ``values`` (``card_values``), ``findings``, ``annotations``, ``deal_ledger``,
            ``player_ledger`` (scope ``match``), ``accuracy`` (``player_accuracy``, scopes
            ``match`` and ``deal``), ``mistakes`` (each player's ``top`` costliest decisions,
            ranked by ``Store.biggest_mistakes``) and ``lines`` (``finding_lines``) of the match.
        :raises ManillenError: when the archive has no such match.
        """
        record = self._rows("SELECT record FROM matches WHERE match_id = ?", [match_id])
        if not record.height:
            raise ManillenError(f"no match {match_id!r} in the archive")
        where = "WHERE match_id = ?"
        return {
            "record": record["record"][0],
            "costs": self._rows(f"SELECT * FROM play_costs {where} ORDER BY deal, trick, play", [match_id]),
            "values": self._rows(
                f"SELECT * FROM card_values {where} ORDER BY deal, trick, play, card", [match_id]
            ),
            "findings": self._rows(
                f"SELECT * FROM findings {where} "
                "ORDER BY deal NULLS FIRST, trick NULLS FIRST, play NULLS FIRST",
                [match_id],
            ),
            "annotations": self._rows(
                f"SELECT * FROM annotations {where} "
                "ORDER BY deal, trick NULLS FIRST, play NULLS FIRST, annotation_id",
                [match_id],
            ),
            "deal_ledger": self.deal_ledger(match_id),
            "player_ledger": self.player_ledger("match", match_id=match_id),
            "accuracy": self._rows(
                f"SELECT * FROM player_accuracy {where} AND scope IN ('match', 'deal') ORDER BY player, deal",
                [match_id],
            ),
            # the ranking of Store.biggest_mistakes (each_player): the Match page's and findings --top's
            "mistakes": self._rows(biggest_mistakes_sql(), [[match_id], None, max(0, top), True]),
            "lines": self._rows(
                f"SELECT * FROM finding_lines {where} ORDER BY deal, trick, play, line, layout, step",
                [match_id],
            ),
        }

    def _rows(self, sql: str, params: list[Any]) -> pl.DataFrame:
        with self._con.cursor() as cursor:
            return _frame(cursor.sql(sql, params=params))
