"""Who sits at the table: a name, a skill, and how often the player slips.

A player SPEC is text a person types: comma-separated entries ``[NAME:]SKILL[@PLAY[/SCORE]]``,
for example ``Anna:club,Bert:novice@0.02,Carla:club,Dirk:novice``. ``PLAY`` is the chance of an
illegal card at each play where the hand holds one, ``SCORE`` the chance of writing a wrong
score on the scoresheet for a deal the player counts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import InvalidOptionError
from ..record.model import seat_name_problems

SKILL_NAMES: tuple[str, ...] = ("novice", "club")
"""The skills a player can have, weakest first."""

DEFAULT_SLIP_RATES: dict[str, tuple[float, float]] = {
    # (illegal play per chance, scoresheet error per deal counted). A chance to play an illegal
    # card comes up at roughly 40% of plays, so 0.001 makes a club player revoke or fail to
    # overtake about once in eight matches, and a novice about once a match.
    "novice": (0.008, 0.03),
    "club": (0.001, 0.005),
}
"""Slip rates of each skill when the SPEC and the options give none."""

DEFAULT_NAMES: tuple[str, ...] = (
    "Anna", "Bert", "Carla", "Dirk", "Els", "Frans", "Griet", "Hendrik",
    "Ilse", "Jozef", "Karel", "Lieve", "Marc", "Nele", "Omer", "Paula",
)  # fmt: skip
"""Names given to players the SPEC leaves unnamed, in seat order."""


@dataclass(frozen=True)
class PlayerProfile:
    """One simulated player."""

    name: str
    """The name written in ``match.seats``."""
    skill: str
    """One of :data:`SKILL_NAMES`: how the player chooses trump and cards."""
    slip_rate: float
    """Chance of an illegal card at each play where the hand holds one."""
    score_error_rate: float
    """Chance of writing a wrong score for a deal this player counts."""


def parse_players(
    spec: str, *, slip_rate: float | None = None, score_error_rate: float | None = None
) -> list[PlayerProfile]:
    """The players a SPEC describes.

    >>> [p.name for p in parse_players("club,novice,club,novice")]
    ['Anna', 'Bert', 'Carla', 'Dirk']
    >>> parse_players("Anna:club@0.01/0.02,novice,club,novice")[0]
    PlayerProfile(name='Anna', skill='club', slip_rate=0.01, score_error_rate=0.02)

    :param spec: comma-separated ``[NAME:]SKILL[@PLAY[/SCORE]]`` entries, as many as the variant
        seats or more.
    :param slip_rate: the illegal-play rate of entries that give none (default: by skill).
    :param score_error_rate: the scoresheet error rate of entries that give none (default: by skill).
    :raises InvalidOptionError: for an unknown skill, a bad rate, fewer than two players or a
        name used twice.
    """
    entries = [part.strip() for part in spec.split(",")]
    if any(not entry for entry in entries):
        raise InvalidOptionError(f"empty entry in player spec {spec!r}: entries are separated by one comma")
    if len(entries) < 2:
        raise InvalidOptionError(
            f"player spec {spec!r} names {len(entries)} player; a table needs two or more "
            "(give more to draw each evening's table from a pool)"
        )
    for rate, what in ((slip_rate, "slip rate"), (score_error_rate, "score error rate")):
        if rate is not None:
            _check_rate(rate, what)
    profiles = [
        _parse_entry(entry, index, slip_rate, score_error_rate) for index, entry in enumerate(entries)
    ]
    seen: set[str] = set()
    for profile in profiles:
        if profile.name in seen:
            raise InvalidOptionError(f"player {profile.name!r} appears twice in {spec!r}")
        seen.add(profile.name)
    # the record format's own rule for seat names, so that no generated record is refused by it
    # ('dummy' is the notation's, 'Anna' and 'anna' one player at the table)
    for _, problem in seat_name_problems([profile.name for profile in profiles])[:1]:
        # counted from 1 as the spec's entries, not as seats: a pool has more entries than seats
        said = re.sub(
            r"\bseats (\d+) and (\d+)", lambda m: f"entries {int(m[1]) + 1} and {int(m[2]) + 1}", problem
        )
        raise InvalidOptionError(f"player spec {spec!r}: {said} (the record format's rule for names)")
    return profiles


def _parse_entry(
    entry: str, index: int, slip_rate: float | None, score_error_rate: float | None
) -> PlayerProfile:
    body, _, rates = entry.partition("@")
    name, _, skill = body.rpartition(":")
    name = name.strip() or (DEFAULT_NAMES[index] if index < len(DEFAULT_NAMES) else f"Player {index + 1}")
    skill = skill.strip().lower()
    if skill not in SKILL_NAMES:
        raise InvalidOptionError(
            f"unknown skill {skill!r} in {entry!r}: use {' or '.join(SKILL_NAMES)} (for example Anna:club)"
        )
    play_default, score_default = DEFAULT_SLIP_RATES[skill]
    play = play_default if slip_rate is None else slip_rate
    score = score_default if score_error_rate is None else score_error_rate
    if rates:
        play_text, _, score_text = rates.partition("/")
        play = _parse_rate(play_text, entry)
        if score_text:
            score = _parse_rate(score_text, entry)
    return PlayerProfile(name=name, skill=skill, slip_rate=play, score_error_rate=score)


def _parse_rate(text: str, entry: str) -> float:
    try:
        rate = float(text)
    except ValueError:
        raise InvalidOptionError(
            f"{text!r} in {entry!r} is not a rate: write a number such as 0.01"
        ) from None
    _check_rate(rate, f"rate in {entry!r}")
    return rate


def _check_rate(rate: float, what: str) -> None:
    if not 0.0 <= rate <= 1.0:
        raise InvalidOptionError(f"{what} {rate!r} is not a chance between 0 and 1")
