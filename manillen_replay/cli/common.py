"""Helpers shared by the command modules: reading archives with progress, rule options, output."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, TypeVar

import click

from ..errors import InvalidOptionError
from ..record import Entry, iter_entries
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


def echo_json(value: Any) -> None:
    """Print JSON for machines (UTF-8, no ASCII escapes)."""
    click.echo(json.dumps(value, ensure_ascii=False, indent=2))
