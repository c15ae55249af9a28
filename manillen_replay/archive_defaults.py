"""What the archive and its command line agree on, in a module light enough for ``manillen --help``.

The store imports DuckDB, polars and Arrow; the command line needs these few values to describe
its options before any of that is loaded. The store re-exports them under its own names.
"""

from __future__ import annotations

import os

ANALYSIS_DEPTHS: tuple[str, ...] = ("rules", "heuristic", "solver")
"""How deep ``manillen analyze`` looks, shallowest first (``matches.analysis_depth``)."""

ANALYSIS_REVISION = 4
"""Which analysis made a match's stored review (``matches.analysis_revision``).

Raised whenever the analysis would store something else for the same record: a finding's words
or severity, a cost, a new kind. A match reviewed by an earlier revision is then analysed again
by ``manillen analyze`` (at its own depth or a deeper one) and by the dashboard's background
review, so that nobody keeps reading a verdict the tool no longer gives. Reviews stored before
the archive kept the revision (schema version 24) count as older than any.

2: the hindsight line named as best play after the card, costs said to the tenth of their
finding's stored points (4.15: "4.2" in both).
3: a trump call is never judged to lose more than perfect play says (the model of club tables'
play made strong suit calls "mistakes" against muil), its words give both and the best suit.
4: a costly card's reason told on the real hands only when they show at least half of what the
layout chosen for the average shows, and the points a card gave away in its own trick said; a
knock judged as a trump call is, never losing more than perfect play says, both said; a card
detector's words without the trick's own figure beside the solver's average, Dutch card names with
their article, a finding's points said to the tenth a half up everywhere.
"""

IMPORT_MEMORY_LIMIT = "64MB"
"""DuckDB's memory limit while importing into an archive file (``manillen import --memory-limit``).

Past it, the rows of the file being imported wait for the commit in temporary files beside the
archive, so memory stays flat however large the file; a higher limit was hardly faster.
"""


QUERY_TIMEOUT = 30.0
"""Seconds a user query may run before it is stopped (``manillen sql --timeout``)."""

QUERY_MEMORY_LIMIT = "2GB"
"""The most memory user queries may take (``manillen sql --memory-limit``; the dashboard's SQL
page). A query that needs more stops with a message instead of taking the server's memory:
user queries cannot spill to disk, as they may not write files."""

QUERY_MAX_ROWS = 10_000
"""The most rows the dashboard's SQL page shows of a result (Datasette shows 1,000): the first
ones are kept, and the page says the result was cut. ``manillen sql`` returns every row."""

QUERY_MAX_BYTES = 32_000_000
"""The most a result of the dashboard's SQL page may hold, in bytes (Datasette caps a page's
rows; rows of long texts need a cap of their own): 300 rows of a megabyte each took the server
from 0.4 to 2.4 GB and ended in Streamlit's own error, one text of 100 MB crashed the browser's
tab. A larger result is refused with what to do; 10,000 rows of a few dozen columns are under 10 MB."""


def default_archive() -> str:
    """The archive commands use without ``--db``: ``$MANILLEN_DB`` or ``manillen.duckdb`` here."""
    return os.environ.get("MANILLEN_DB") or "manillen.duckdb"
