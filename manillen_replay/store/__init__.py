"""The game archive: one DuckDB file with every match, deal, trick and card; all SQL lives here.

A :class:`Store` opens (or creates) an archive, brings its schema up to date with numbered
migrations, imports records in bulk (Arrow tables loaded with ``INSERT ... SELECT`` inside one
transaction per file) and answers queries as polars frames. Table and column names are a public
interface documented in ``docs/sql.md``; they change only through a new migration.

One module per concern:

- :mod:`.core`: the :class:`Store` itself (open, migrate, close, trusted queries), composed of
- :mod:`.importer`: the import pipeline, built from :mod:`.batch` (a batch of records),
  :mod:`.deal_rows` and :mod:`.arrow` (its rows as Arrow tables), :mod:`.loader` (the thread
  that writes them) and :mod:`.processes` (the archive's lock holder, spill folders);
- :mod:`.console`: queries someone typed, and the guard they pass first;
- :mod:`.export`: records read back, JSON Lines and Parquet export;
- :mod:`.findings` and :mod:`.annotations`: what analysis and coaches add;
- :mod:`.club_rules`: a club's rules saved by name;
- :mod:`.ledger`: the luck and skill ledger, and a match's rows for its report;
- :mod:`.schema`: tables, views and migrations; :mod:`.errors`: the store's errors;
  :mod:`.connection`: what every part shares.
"""

from __future__ import annotations

from ..archive_defaults import ANALYSIS_DEPTHS, IMPORT_MEMORY_LIMIT, QUERY_TIMEOUT, default_archive
from .console import QueryTimeoutError, check_user_query, csv_text, flatten_for_csv
from .core import Store
from .errors import (
    AnnotationChangedError,
    ArchiveError,
    ArchiveLockedError,
    ArchiveOutdatedError,
    NoSuchAnnotationError,
    NoSuchVersionError,
    QueryError,
    QueryRefusedError,
)
from .importer import MINIMUM_MEMORY_LIMIT, ImportSummary, RestoredVersion, parse_memory_limit
from .ledger import LEDGER_SCOPES
from .schema import (
    MIGRATIONS,
    SCHEMA_VERSION,
    TABLES,
    Migration,
    apply_migrations,
    schema_version_of,
)

__all__ = [
    "ANALYSIS_DEPTHS",
    "IMPORT_MEMORY_LIMIT",
    "LEDGER_SCOPES",
    "MIGRATIONS",
    "MINIMUM_MEMORY_LIMIT",
    "QUERY_TIMEOUT",
    "SCHEMA_VERSION",
    "TABLES",
    "AnnotationChangedError",
    "ArchiveError",
    "ArchiveLockedError",
    "ArchiveOutdatedError",
    "ImportSummary",
    "Migration",
    "NoSuchAnnotationError",
    "NoSuchVersionError",
    "QueryError",
    "QueryRefusedError",
    "QueryTimeoutError",
    "RestoredVersion",
    "Store",
    "apply_migrations",
    "check_user_query",
    "csv_text",
    "default_archive",
    "flatten_for_csv",
    "parse_memory_limit",
    "schema_version_of",
]
