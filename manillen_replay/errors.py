"""One exception hierarchy for manillen-replay; every error is also a ValueError."""

from __future__ import annotations

import re


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
    :param unfinished: the record only stops short (en face with the partner's call still to
        come): what is being recorded at the table may go on to make it valid.
    """

    def __init__(
        self,
        message: str,
        pointer: str = "",
        source: str | None = None,
        line: int | None = None,
        *,
        unfinished: bool = False,
    ) -> None:
        self.message = printable(message)
        self.pointer = printable(pointer)
        self.source = None if source is None else printable(source)
        self.line = line
        self.unfinished = unfinished
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
        return RecordError(self.message, self.pointer, source, line, unfinished=self.unfinished)

    @property
    def detail(self) -> str:
        """The message with whatever places it within its line, for a table of problems."""
        return self.message


def printable(text: str) -> str:
    """The text with anything that is no character (a lone surrogate from a ``\\ud800`` escape,
    a file name byte that is not UTF-8) written as an escape, so it can be printed and stored.

    >>> printable("caf\\udce9.json"), printable("\\ud800")
    ('caf\\\\xe9.json', '\\\\ud800')
    """
    if text.isascii() or not _SURROGATE.search(text):
        return text
    return _SURROGATE.sub(_escape, text)


_SURROGATE = re.compile("[\\ud800-\\udfff]")


def _escape(found: re.Match[str]) -> str:
    code = ord(found.group())
    # os.fsdecode turns each byte of a file name that is not UTF-8 into U+DC80..U+DCFF
    return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\u{code:04x}"


class InvalidRecordError(ManillenError):
    """A record with one or more problems; ``problems`` lists each one."""

    def __init__(self, problems: list[RecordError]) -> None:
        self.problems = problems
        first = problems[0].describe() if problems else "invalid record"
        super().__init__(first + more_problems(len(problems)))


def more_problems(count: int) -> str:
    """What a message naming the first of ``count`` problems adds for the others.

    >>> more_problems(1), more_problems(2), more_problems(3)
    ('', ' (and 1 more problem)', ' (and 2 more problems)')
    """
    others = count - 1
    return f" (and {others} more problem{'s' if others > 1 else ''})" if others > 0 else ""


class NotationError(RecordError):
    """A problem in a match typed in the text notation, placed by line and column.

    :param column: the 1-based column in the line.
    :param hint: advice in the player's terms (who leads a trick, and why).
    """

    def __init__(
        self,
        message: str,
        pointer: str = "",
        source: str | None = None,
        line: int | None = None,
        column: int | None = None,
        *,
        hint: str | None = None,
    ) -> None:
        self.column = column
        self.hint = hint
        super().__init__(message, pointer, source, line)

    def describe(self) -> str:
        """The full one-line message: ``file:line:column: message (hint)``."""
        place = "" if self.source is None else self.source
        if self.line is not None:
            place += f":{self.line}" if place else f"line {self.line}"
            if self.column is not None:
                place += f":{self.column}"
        hint = f" ({self.hint})" if self.hint else ""
        return f"{place}: {self.message}{hint}" if place else self.message + hint

    @property
    def detail(self) -> str:
        """The message with its column and hint."""
        column = f"column {self.column}: " if self.column is not None else ""
        return f"{column}{self.message}" + (f" ({self.hint})" if self.hint else "")

    def located(self, source: str | None, line: int | None) -> RecordError:
        """The same problem in a file; its line is already the file's own."""
        return NotationError(self.message, self.pointer, source, self.line, self.column, hint=self.hint)
