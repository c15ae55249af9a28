"""The store's errors: an archive that cannot be opened or written, a user query refused or failed."""

from __future__ import annotations

from ..errors import ManillenError


class ArchiveError(ManillenError):
    """The archive cannot be opened, upgraded or written."""


class ArchiveLockedError(ArchiveError):
    """Another program (or another open Store in this one) holds the archive file."""


class ArchiveOutdatedError(ArchiveError):
    """An archive of an earlier schema, opened read-only: opened for writing, it is upgraded."""


class QueryRefusedError(ManillenError):
    """A user query that would change the archive or reach files or the network."""


class QueryError(ManillenError):
    """A user query that DuckDB cannot run (a syntax error, an unknown column, ...)."""
