"""The store's side of the dashboard's background review: which matches still want the solver,
and storing one match's solver results, briefly, once they are solved.

The dashboard's reviewer (``dashboards/reviewer.py``) solves a match outside any write lock and
opens the archive for writing only to call :func:`save_review`; the same rows as
``manillen analyze --depth solver`` (:func:`~manillen_replay.store.analyse.analyse_archive`) writes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..engine import MatchResult
from .analyse import store_solved_match

if TYPE_CHECKING:
    from ..analysis.deal_analysis import MatchSolved
    from .core import Store

SOLVER_DEPTH = "solver"
"""The ``matches.analysis_depth`` of a match the solver has reviewed."""


def matches_to_review(store: Store, limit: int | None = None) -> list[str]:
    """The matches the solver has not reviewed yet, the newest first (date, then import).

    :param limit: at most this many.
    """
    query = (
        "SELECT match_id FROM matches WHERE coalesce(analysis_depth, '') <> ? "
        "ORDER BY date DESC NULLS LAST, import_order DESC"
    )
    if limit is not None:
        query += f" LIMIT {int(limit)}"
    ids: list[str] = store.query(query, [SOLVER_DEPTH])["match_id"].to_list()
    return ids


def review_depths(store: Store, match_ids: Sequence[str]) -> dict[str, str | None]:
    """How deep each of these matches has been analysed (``None``: not at all), by match id;
    a match not in the archive is left out."""
    frame = store.query(
        "SELECT match_id, analysis_depth FROM matches WHERE list_contains(?, match_id)", [list(match_ids)]
    )
    return {str(m): (None if d is None else str(d)) for m, d in frame.iter_rows()}


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
