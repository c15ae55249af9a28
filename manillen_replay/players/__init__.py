"""Simulated players and generated matches: archives that look like real ones, mistakes included.

``novice`` players make trump of their longest suit and play any legal card; ``club`` players
follow the rules text's tips. Each player slips now and then (an illegal card, a wrong score on
the scoresheet) at a rate of their own. Core layer: no I/O.
"""

from .club import ClubPolicy
from .generate import (
    DEFAULT_START,
    DEFAULT_VENUES,
    POLICIES,
    GeneratedMatch,
    GenerateOptions,
    generate_matches,
    iter_matches,
    venue_slug,
)
from .novice import NovicePolicy
from .policy import ContractChoice, DealKnowledge, Policy
from .profiles import DEFAULT_NAMES, DEFAULT_SLIP_RATES, SKILL_NAMES, PlayerProfile, parse_players
from .slips import miscount, slip_card

__all__ = [
    "DEFAULT_NAMES",
    "DEFAULT_SLIP_RATES",
    "DEFAULT_START",
    "DEFAULT_VENUES",
    "POLICIES",
    "SKILL_NAMES",
    "ClubPolicy",
    "ContractChoice",
    "DealKnowledge",
    "GenerateOptions",
    "GeneratedMatch",
    "NovicePolicy",
    "PlayerProfile",
    "Policy",
    "generate_matches",
    "iter_matches",
    "miscount",
    "parse_players",
    "slip_card",
    "venue_slug",
]
