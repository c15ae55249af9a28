"""A match report to take home: one self-contained HTML file a coach can mail or a player open offline.

:func:`make_report` reads a match from the archive and returns the page; :mod:`.build` gathers
what it shows, :mod:`.render` writes the HTML and :mod:`.svg` draws the cards and the charts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .build import REVIEW_TOP, Report, ReportTables, gather
from .render import render
from .words import LANGUAGES

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..analysis.puzzles import Puzzle
    from ..store import Store


def make_report(store: Store, match_id: str, *, player: str | None = None, lang: str = "en") -> str:
    """The HTML report of one match, for one player or for everyone.

    :param store: an open archive (read-only is enough).
    :param match_id: the match.
    :param player: a player of the match (any case), or ``None`` for everyone.
    :param lang: ``en`` or ``nl``.
    :raises ManillenError: for an unknown match, a player not in it, or an unknown language.
    """
    from ..errors import ManillenError

    if lang not in LANGUAGES:
        raise ManillenError(f"unknown report language {lang!r}: use {' or '.join(LANGUAGES)}")
    from ..analysis.puzzles import make_puzzles

    tables = ReportTables(**store.report_rows(match_id, top=REVIEW_TOP))
    report = gather(tables, player=player, lang=lang)
    puzzles = make_puzzles(store.puzzle_rows(match_id=match_id, player=report.player), player=report.player)
    return render(with_puzzles(report, puzzles))


def with_puzzles(report: Report, puzzles: Sequence[Puzzle]) -> Report:
    """The report with the puzzles it ends with, chosen among the match's (``make_puzzles``): a
    decision its review explains is no puzzle, its answer being on the page already."""
    import dataclasses

    from ..analysis.puzzles import evening_puzzles

    explained = {(d.deal, d.trick, d.play, d.call) for review in report.reviews for d in review.decisions}
    chosen = tuple(evening_puzzles(puzzles, explained=explained))
    return dataclasses.replace(
        report, puzzles=chosen, puzzles_explained=not chosen and bool(evening_puzzles(puzzles))
    )


__all__ = [
    "LANGUAGES",
    "REVIEW_TOP",
    "Report",
    "ReportTables",
    "gather",
    "make_report",
    "render",
    "with_puzzles",
]
