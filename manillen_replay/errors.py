"""One exception hierarchy for manillen-replay; every error is also a ValueError."""

from __future__ import annotations


class ManillenError(ValueError):
    """Base of every error this package raises for bad input."""


class InvalidCardError(ManillenError):
    """A card text that names no card of the deck in play."""


class InvalidOptionError(ManillenError):
    """A house-rule option or variant that does not exist or has a wrong value."""


class IllegalPlayError(ManillenError):
    """A play that breaks the rules, raised only in strict replays."""


class RecordError(ManillenError):
    """A record that is not valid, with where the problem is.

    :param message: what is wrong, lowercase, quoting the input.
    :param pointer: JSON pointer into the record (``/deals/3/tricks/5/2``), ``""`` for the whole.
    :param source: the file name, if the record came from a file.
    :param line: the line number in a JSON Lines archive, if any.
    """

    def __init__(
        self, message: str, pointer: str = "", source: str | None = None, line: int | None = None
    ) -> None:
        self.message = message
        self.pointer = pointer
        self.source = source
        self.line = line
        super().__init__(self.describe())

    def describe(self) -> str:
        """The full one-line message: ``file:line: /pointer: message``."""
        place = ""
        if self.source is not None:
            place = self.source + (f":{self.line}" if self.line is not None else "") + ": "
        pointer = f"{self.pointer}: " if self.pointer else ""
        return f"{place}{pointer}{self.message}"

    def located(self, source: str | None, line: int | None) -> RecordError:
        """The same problem, placed in a file (and line)."""
        return RecordError(self.message, self.pointer, source, line)


class InvalidRecordError(ManillenError):
    """A record with one or more problems; ``problems`` lists each one."""

    def __init__(self, problems: list[RecordError]) -> None:
        self.problems = problems
        first = problems[0].describe() if problems else "invalid record"
        more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
        super().__init__(first + more)
