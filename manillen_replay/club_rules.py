"""A club's rules saved once, by name: the value, its name's rule, and how it meets a record.

Pure data and rules, no I/O (the archive keeps the rule sets:
:mod:`manillen_replay.store.club_rules`). A saved rule set is written exactly as a record's
match writes its rules: the ``variant`` and the ``rules`` object (:meth:`Rules.to_options`), so
a club's rules put into a record read back as the same :class:`Rules`.

A record meets a club's rules (``manillen import --rules NAME``) in one of two ways:

- what it does not name (no ``match.rules``, no ``match.variant``) it takes from the club
  (:func:`with_club_rules`), so the archive keeps a record that says under which rules it was
  played;
- what it names must be the club's (its variant, and its house rules read as the club's
  variant's), else the record is refused, with the options that differ, rather than silently
  replayed under other rules.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, fields
from typing import Any, cast

import msgspec
from msgspec import UNSET

from .errors import InvalidOptionError, ManillenError, RecordError
from .record import Record, RuleOptions
from .record.model import VariantName
from .rules import CAFE_OPTIONS, Rules

STANDARD = "standard"
"""The name of the rules with every option at its default: no club may save rules under it."""

MAX_NAME_LENGTH = 60
"""The longest name of a saved rule set (a club's or a café's name fits)."""


@dataclass(frozen=True)
class ClubRules:
    """A club's rules, saved by name."""

    name: str
    """The name it was saved under (``zwaan``, ``De Zwaan``)."""
    rules: Rules
    """The rules: the variant and every house-rule option."""
    saved_at: datetime.datetime | None = None
    """When it was saved (``None`` before it is)."""

    @property
    def options(self) -> dict[str, Any]:
        """The ``rules`` object a record's match writes for these rules (``{}`` for the standard ones)."""
        return self.rules.to_options()

    def describe(self) -> list[str]:
        """Each option that differs from the standard rules as ``NAME=VALUE`` (as ``--rule``
        takes it), the variant first; empty for the standard rules.

        >>> ClubRules("zwaan", Rules(underbuy="allowed", en_face=True)).describe()
        ['underbuy=allowed', 'cafe.en_face=true']
        """
        return option_lines(self.rules)


def option_lines(rules: Rules) -> list[str]:
    """The options of ``rules`` that differ from the standard ones, as ``NAME=VALUE``.

    >>> option_lines(Rules(variant="three", max_multiplier=None, extension=(131,)))
    ['variant=three', 'extension=131', 'max_multiplier=none']
    """
    standard = Rules()
    lines = []
    for option in fields(Rules):
        value = getattr(rules, option.name)
        if value == getattr(standard, option.name):
            continue
        name = f"cafe.{option.name}" if option.name in CAFE_OPTIONS else option.name
        lines.append(f"{name}={_text(value)}")
    return lines


def _text(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value)
    return str(value)


def check_name(name: str) -> str:
    """The name a rule set is saved under, trimmed.

    >>> check_name("  De Zwaan ")
    'De Zwaan'

    :raises InvalidOptionError: for an empty name, one with control characters, one longer than
        :data:`MAX_NAME_LENGTH`, or ``standard`` (the rules nobody changed).
    """
    trimmed = name.strip()
    if not trimmed:
        raise InvalidOptionError("a club's rules need a name, such as the club's or the café's")
    if not trimmed.isprintable():
        raise InvalidOptionError(f"the name {trimmed!r} holds a control character")
    if len(trimmed) > MAX_NAME_LENGTH:
        raise InvalidOptionError(f"the name {trimmed[:20]!r}... is longer than {MAX_NAME_LENGTH} characters")
    if trimmed.casefold() == STANDARD:
        raise InvalidOptionError(
            f"{STANDARD!r} names the rules with every option at its default: choose another name"
        )
    return trimmed


def rules_from_saved(variant: str, options_json: str) -> Rules:
    """The rules kept as a variant and a record's ``rules`` object in JSON.

    >>> rules_from_saved("four", '{"underbuy": "allowed"}').underbuy
    'allowed'

    :raises InvalidOptionError: for options the rules do not know (kept by a newer program).
    """
    options = msgspec.json.decode(options_json.encode())
    if not isinstance(options, dict):
        raise InvalidOptionError(f"saved rules are not a rules object: {options_json[:60]!r}")
    return Rules.from_options({**options, "variant": variant})


def has_own_rules(record: Record) -> bool:
    """Whether a record names house rules of its own (a ``rules`` object)."""
    return record.match.rules is not UNSET


def with_club_rules(record: Record, club: ClubRules) -> None:
    """Fill in what a record leaves unnamed with a club's rules (see the module's docstring):
    a ``match.rules`` it lacks becomes the club's, and so does a ``match.variant`` it lacks;
    what it names must be the club's.

    The record is changed in place (the club's ``rules`` written only when some option is not
    standard, its ``variant`` only when it is not the four-player game).

    :raises RecordError: when the record names another variant (at ``/match/variant``) or other
        house rules (at ``/match/rules``, naming each option that differs) than the club's.
        Rules the rules engine cannot take at all are left for the replay to refuse.
    """
    named = record.match.variant
    if named is not UNSET and named != club.rules.variant:
        raise RecordError(
            f"the match plays the variant {named}, the club's rules {club.name!r} are for "
            f"{club.rules.variant}: import it with the club's rules saved for {named} (one name a "
            "variant; `manillen rules list` shows them), or without --rules for the standard rules",
            "/match/variant",
        )
    if has_own_rules(record):
        try:
            own = Rules.from_options(
                {**msgspec.to_builtins(record.match.rules), "variant": club.rules.variant}
            )
        except ManillenError:
            return  # the replay says what is wrong with them, where
        if own != club.rules:
            differ = _differences(own, club.rules)
            raise RecordError(
                f"the match names its own rules, not the club's rules {club.name!r}: "
                + "; ".join(
                    f"{name} is {mine} here, {theirs} in {club.name!r}" for name, mine, theirs in differ
                )
                + f" (import it without --rules, or take its rules out to play it under {club.name!r})",
                "/match/rules",
            )
    elif club.options:
        record.match.rules = msgspec.convert(club.options, RuleOptions)
    if named is UNSET and club.rules.variant != Rules().variant:
        record.match.variant = cast(VariantName, club.rules.variant)


def _differences(own: Rules, club: Rules) -> list[tuple[str, str, str]]:
    """``(option, the record's value, the club's value)`` for each option that differs."""
    found = []
    for option in fields(Rules):
        mine, theirs = getattr(own, option.name), getattr(club, option.name)
        if mine != theirs:
            name = f"cafe.{option.name}" if option.name in CAFE_OPTIONS else option.name
            found.append((name, _text(mine), _text(theirs)))
    return found


__all__ = [
    "MAX_NAME_LENGTH",
    "STANDARD",
    "ClubRules",
    "check_name",
    "has_own_rules",
    "option_lines",
    "rules_from_saved",
    "with_club_rules",
]
