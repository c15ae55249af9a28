"""Helpers shared by the command modules: reading archives with progress, rule options, output."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, TypeVar

import click

from ..cards import Card, Suit
from ..engine import MatchResult, replay_entry
from ..errors import InvalidCardError, InvalidOptionError, InvalidRecordError
from ..record import Entry, Record, iter_entries
from ..rules import Rules

T = TypeVar("T")


def read_entries(paths: Sequence[str]) -> list[Entry]:
    """Every document in the given files and folders.

    :raises click.UsageError: for a path that does not exist (exit code 2).
    """
    try:
        return list(iter_entries(paths))
    except FileNotFoundError as error:
        raise click.UsageError(str(error)) from None
    except OSError as error:
        raise click.UsageError(f"cannot read {error.filename!r}: {error.strerror}") from None


class ReplayedRecords:
    """The valid records of some files, replayed; each problem of an invalid one goes to stderr.

    Iterate for ``(record, result)`` pairs (only the match ``match_id`` when given); ``invalid``
    then counts the records refused, for the exit code.
    """

    def __init__(self, paths: Sequence[str], match_id: str | None = None, label: str | None = None) -> None:
        self.entries = read_entries(paths)
        self.match_id = match_id
        self.label = label
        self.invalid = 0
        self.matched = 0

    def __iter__(self) -> Iterator[tuple[Record, MatchResult]]:
        entries = progress(self.entries, self.label) if self.label else iter(self.entries)
        for entry in entries:
            try:
                record, result = replay_entry(entry)
            except InvalidRecordError as error:
                self.invalid += 1
                for problem in error.problems:
                    click.echo(problem.describe(), err=True)
                continue
            if self.match_id is not None and result.id != self.match_id:
                continue
            self.matched += 1
            yield record, result


def progress(items: Sequence[T], label: str, *, minimum: int = 200) -> Iterator[T]:
    """Iterate with a progress bar on stderr when the work is long and a person is watching."""
    if len(items) < minimum or not sys.stderr.isatty():
        yield from items
        return
    with click.progressbar(items, label=label, file=sys.stderr, show_pos=True) as bar:
        yield from bar


def rules_option(values: Iterable[str]) -> Rules:
    """Rules from ``--rule NAME=VALUE`` options.

    :raises click.BadParameter: for a malformed or unknown option.
    """
    options: dict[str, Any] = {}
    for item in values:
        if "=" not in item:
            raise click.BadParameter(
                f"{item!r} is not NAME=VALUE (for example partner_exempt=false)", param_hint="--rule"
            )
        name, value = item.split("=", 1)
        options[name.strip()] = value.strip()
    try:
        return Rules.from_options(options)
    except InvalidOptionError as error:
        raise click.BadParameter(str(error), param_hint="--rule") from None


def _trump_text(_context: click.Context, _parameter: click.Parameter, value: str) -> str:
    """``--trump`` as a suit letter (``none`` for muil), whichever way the suit was typed."""
    if value.strip().lower() in ("none", "muil"):
        return "none"
    try:
        return Suit.parse(value).name
    except InvalidCardError as error:
        raise click.BadParameter(f"{error}, or none for muil") from None


TRUMP_OPTION = click.option(
    "--trump",
    required=True,
    metavar="SUIT",
    callback=_trump_text,
    help="The trump suit: H, D, C or S (or ♥ ♦ ♣ ♠, harten, koeken ...), or none for muil.",
)
"""``--trump H|D|C|S|none`` for the commands that look at one position."""

RULE_OPTION = click.option(
    "--rule",
    "rule_values",
    multiple=True,
    metavar="NAME=VALUE",
    help="A house rule, e.g. partner_exempt=false or underbuy=allowed (repeatable).",
)
"""``--rule NAME=VALUE``, read with :func:`rules_option`."""


def parse_trick(text: str | None) -> list[Card]:
    """The cards of ``--trick``, leader first.

    :raises click.BadParameter: for an unknown card or a card given twice.
    """
    try:
        cards = [Card.parse(part) for part in (text or "").replace(",", " ").split()]
    except InvalidCardError as error:
        raise click.BadParameter(str(error), param_hint="--trick") from None
    if len(set(cards)) != len(cards):
        raise click.BadParameter("a card appears twice in the trick", param_hint="--trick")
    return cards


def echo_json(value: Any) -> None:
    """Print JSON for machines (UTF-8, no ASCII escapes)."""
    click.echo(json.dumps(value, ensure_ascii=False, indent=2))
