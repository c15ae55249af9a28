"""The store's errors: an archive that cannot be opened or written, a user query refused or failed."""

from __future__ import annotations

from typing import Any

from ..errors import ManillenError


class ArchiveError(ManillenError):
    """The archive cannot be opened, upgraded or written."""


class ArchiveLockedError(ArchiveError):
    """Another program (or another open Store in this one) holds the archive file."""


class NoSuchVersionError(ArchiveError):
    """A match's earlier version asked for that the archive does not keep (a usage error)."""


class NoSuchAnnotationError(ArchiveError):
    """A coach's comment to change or delete that is no longer in the archive (deleted meanwhile,
    from another tab or by another coach)."""


class AnnotationChangedError(ArchiveError):
    """A coach's comment changed by someone else (another tab, another coach) since the edit of
    it began: saving would overwrite their words unseen. ``text`` and ``tags`` are what it says now."""

    def __init__(self, message: str, text: str, tags: list[str] | None) -> None:
        super().__init__(message)
        self.text = text
        self.tags = tags


class ArchiveOutdatedError(ArchiveError):
    """An archive of an earlier schema, opened read-only: opened for writing, it is upgraded."""


class _Reasoned(ManillenError):
    """An error a page may say in its own words: ``reason`` names which of its kinds it is (the
    dashboard's ``sql.reason.*`` words), ``values`` fill those words; the message is English."""

    def __init__(self, message: str, reason: str | None = None, **values: Any) -> None:
        super().__init__(message)
        self.reason = reason
        self.values = values

    def __reduce__(self) -> tuple[Any, ...]:
        # the SQL page's queries run in worker processes: the reason crosses with the message
        return _rebuilt, (type(self), str(self), self.reason, self.values, self.__dict__)


def _rebuilt(
    kind: type[_Reasoned], message: str, reason: str | None, values: dict[str, Any], state: dict[str, Any]
) -> _Reasoned:
    error = kind(message, reason, **values)
    error.__dict__.update(state)
    return error


class QueryRefusedError(_Reasoned):
    """A user query that would change the archive or reach files or the network."""


class QueryError(_Reasoned):
    """A user query that DuckDB cannot run (a syntax error, an unknown column, ...)."""
