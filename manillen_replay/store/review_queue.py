"""The store's side of the dashboard's background review: which matches still want the solver,
and storing one match's solver results, briefly, once they are solved.

The dashboard's reviewer (``dashboards/reviewer.py``) solves a match outside any write lock and
opens the archive for writing only to call :func:`save_review`; the same rows as
``manillen analyze --depth solver`` (:func:`~manillen_replay.store.analyse.analyse_archive`) writes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..archive_defaults import ANALYSIS_REVISION
from ..engine import MatchResult
from .analyse import store_solved_match

if TYPE_CHECKING:
    from ..analysis.deal_analysis import MatchSolved
    from .core import Store

SOLVER_DEPTH = "solver"
"""The ``matches.analysis_depth`` of a match the solver has reviewed."""


def matches_to_review(store: Store, limit: int | None = None) -> list[str]:
    """The matches the solver has not reviewed yet, or reviewed by an earlier revision of the
    analysis (:data:`~manillen_replay.archive_defaults.ANALYSIS_REVISION`), the newest first
    (date, then import).

    :param limit: at most this many.
    """
    query = (
        "SELECT match_id FROM matches WHERE coalesce(analysis_depth, '') <> ? "
        "OR coalesce(analysis_revision, 0) < ? "
        "ORDER BY date DESC NULLS LAST, import_order DESC"
    )
    if limit is not None:
        query += f" LIMIT {int(limit)}"
    ids: list[str] = store.query(query, [SOLVER_DEPTH, ANALYSIS_REVISION])["match_id"].to_list()
    return ids


def solver_review(store: Store, match_id: str) -> str | None:
    """The solver's review of a match as the archive holds it: ``"current"`` (made by this
    revision of the analysis), ``"outdated"`` (by an earlier one: it is made again in turn), or
    ``None`` (none stored)."""
    frame = store.query(
        "SELECT coalesce(analysis_revision, 0) >= ? AS current FROM matches "
        "WHERE match_id = ? AND analysis_depth = ?",
        [ANALYSIS_REVISION, match_id, SOLVER_DEPTH],
    )
    if frame.height == 0:
        return None
    return "current" if frame["current"][0] else "outdated"


def record_to_review(store: Store, match_id: str) -> str | None:
    """The stored record of a match, ``None`` when the archive no longer holds it."""
    frame = store.query("SELECT record FROM matches WHERE match_id = ?", [match_id])
    return None if frame.height == 0 else str(frame["record"][0])


def save_review(store: Store, record: str, result: MatchResult, solved: MatchSolved) -> bool:
    """Store the solver's review of one match: its costs, reviewed calls, lines and findings, and mark it
    analysed at depth ``solver``, as ``manillen analyze --depth solver`` does.

    Nothing is stored when the archive's record of the match is no longer ``record`` (the match
    was saved again, or replaced by an import, while it was being solved): its new version is
    reviewed in turn.

    :param record: the record text the review was made from (as :func:`record_to_review` gave it).
    :returns: whether the review was stored.
    :raises ArchiveError: when the rows cannot be written.
    """
    if record_to_review(store, result.id) != record:
        return False
    store_solved_match(store, result, solved)
    return True
