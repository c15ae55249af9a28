"""The typed model of the record format ``manillen/1``: one match per document.

Field names are a public contract (``docs/format.md``, ``schemas/manillen-1.schema.json``).
Optional fields default to ``UNSET`` so that a field that was absent stays absent when written
back, and ``recorded_score: null`` (a 30-30) stays apart from no recorded score at all.
"""

from __future__ import annotations

import datetime
from typing import Annotated, Literal

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType

FORMAT = "manillen/1"

CARD_PATTERN = "^(10|[TtAaKkQqJj6789])([HhDdCcSs]|[♥♦♣♠♡♢♧♤]\ufe0f?)$"
# The pattern goes to the schema only: the decoder checks each card with one dictionary look-up
# (record.io.canonicalize_cards), several times faster than a regular expression per card.
CardText = Annotated[
    str,
    Meta(
        extra_json_schema={"pattern": CARD_PATTERN},
        description="A card: rank (10 or T, A, K, Q, J, 9, 8, 7, and 6 in 'six') then suit "
        "(H, D, C, S, or a symbol ♥ ♦ ♣ ♠); lower case accepted. Written back as 10H, AS, ...",
    ),
]
Seat = Annotated[int, Meta(ge=0, le=5, description="A seat number, clockwise from 0.")]
Team = Annotated[int, Meta(ge=0, le=1, description="A team: 0 (seats 0 and 2) or 1 (seats 1 and 3).")]
MAX_MULTIPLIER = 1024
"""The largest ``max_multiplier`` a record may set."""
MAX_POINTS = 30 * MAX_MULTIPLIER
"""The most a deal can score (30 card points over the half, at the largest multiplier): the
bound of every number of points a record writes down."""
MAX_TARGET = 10_000
"""The largest target (and extension) a record may set; clubs play to 101, 121 or 151."""
MAX_DEALS = 1_000
"""The most deals one record holds; a club evening is 36."""
MAX_TRICKS = 16
"""The most tricks of a deal (the two-player games: 16 cards each)."""
MAX_TRICK_SIZE = 6
"""The most cards of a trick (the six-player games)."""

Points = Annotated[int, Meta(ge=0, le=MAX_POINTS)]
TrickNumber = Annotated[int, Meta(ge=1, le=MAX_TRICKS, description="A trick, counted from 1.")]
PlayNumber = Annotated[int, Meta(ge=1, le=MAX_TRICK_SIZE, description="A play of a trick, counted from 1.")]
Goal = Annotated[int, Meta(ge=1, le=MAX_TARGET)]
SuitLetter = Literal["H", "D", "C", "S"]
VariantName = Literal["four", "two_open", "two_open_fours", "three", "three_dummy", "six", "six_short"]
Call = Literal["trump", "muil", "blind_muil", "en_face", "pass", "klop", "tegenklop", "redeal"]


class _Base(Struct, kw_only=True, omit_defaults=True, forbid_unknown_fields=True):
    pass


class CafeOptions(_Base, kw_only=True):
    """Cafe rules (cafe-regels): all off unless the match turns them on."""

    blind_muil: bool | UnsetType = UNSET
    eternal_klop: bool | UnsetType = UNSET
    en_face: bool | UnsetType = UNSET
    redeal_small: bool | UnsetType = UNSET


class RuleOptions(_Base, kw_only=True):
    """House-rule options; every one omitted takes its default (docs/rules.md)."""

    target: Goal | UnsetType = UNSET
    extension: Annotated[list[Goal], Meta(max_length=16)] | UnsetType = UNSET
    partner_exempt: bool | UnsetType = UNSET
    underbuy: Literal["forbidden", "allowed", "forbidden_with_other_suit", "forced"] | UnsetType = UNSET
    overtake_plain_suit: bool | UnsetType = UNSET
    thirty_carry: bool | UnsetType = UNSET
    max_multiplier: Annotated[int, Meta(ge=1, le=MAX_MULTIPLIER)] | UnsetType | None = UNSET
    klop_on_muil: bool | UnsetType = UNSET
    penalty_points: Points | UnsetType = UNSET
    penalty_to: Literal["opponents", "offender"] | UnsetType = UNSET
    multipliers: Literal["multiplied", "added"] | UnsetType = UNSET
    muil_double: bool | UnsetType = UNSET
    capot: Literal["plain", "double", "fixed_30", "fixed_60"] | UnsetType = UNSET
    trump_choice: Literal["free", "held_suit", "turned_card"] | UnsetType = UNSET
    klop_by: Literal["opponents", "left_of_dealer"] | UnsetType = UNSET
    cafe: CafeOptions | UnsetType = UNSET
    format: Literal["target", "fixed"] | UnsetType = UNSET
    deals: Annotated[int, Meta(ge=1, le=MAX_DEALS)] | UnsetType = UNSET


RESERVED_NAMES = ("dummy",)
"""Words the text notation reads as a seat, so no player may be called so (any case)."""


def match_id_problem(match_id: str | UnsetType) -> str | None:
    """What is wrong with a match's id, ``None`` when nothing is: an id names the match in every
    message, address and query, so it is one line of printable text.

    >>> match_id_problem("zwaan-1") is None, "control character" in match_id_problem("zwaan" + chr(10) + "1")
    (True, True)
    """
    if isinstance(match_id, str) and not match_id.isprintable():
        return (
            f"the match id {match_id!r} holds a control character (a line break, a tab, an escape): "
            "an id is one line of printable text"
        )
    return None


def seat_name_problems(names: list[str]) -> list[tuple[int, str]]:
    """What is wrong with the names of the seats, as ``(seat, message)``: empty when nothing is.

    One rule for JSON records, the text notation and the dashboard's Record page, so that a
    match converts between them unchanged: every seat has a name, without spaces at its start or
    end and without control characters, no name is a word the notation reserves (``dummy``), and
    the names differ in more than case (``Anna`` and ``anna`` would be one player at the table,
    and a name in the notation names one seat only).

    >>> for seat, message in seat_name_problems(["Anna", "Bert", "anna", " Dirk"]):
    ...     print(seat, message)
    2 seats 0 and 2 have the same name ('Anna' and 'anna'): each player sits once
    3 the name ' Dirk' starts or ends with a space
    """
    problems: list[tuple[int, str]] = []
    seen: dict[str, int] = {}
    for seat, name in enumerate(names):
        if not name.strip():
            problems.append((seat, f"seat {seat} has no name"))
            continue
        if name != name.strip():
            problems.append((seat, f"the name {name!r} starts or ends with a space"))
        elif not name.isprintable():
            problems.append((seat, f"the name {name!r} holds a control character"))
        elif name.casefold() in RESERVED_NAMES:
            problems.append((seat, f"{name!r} is no player's name: the notation calls the dummy's seat so"))
        key = name.strip().casefold()
        if key in seen:
            first = names[seen[key]]
            same = f"{first!r}" if first == name else f"{first!r} and {name!r}"
            problems.append(
                (seat, f"seats {seen[key]} and {seat} have the same name ({same}): each player sits once")
            )
        else:
            seen[key] = seat
    return problems


class MatchInfo(_Base, kw_only=True):
    """Who played, where and when, and under which rules."""

    id: (
        Annotated[str, Meta(min_length=1, description="One line of printable text, no control characters.")]
        | UnsetType
    ) = UNSET
    date: datetime.date | UnsetType = UNSET
    venue: str | UnsetType = UNSET
    event: str | UnsetType = UNSET
    notes: str | UnsetType = UNSET
    variant: VariantName | UnsetType = UNSET
    seats: Annotated[
        list[Annotated[str, Meta(min_length=1)]],
        Meta(
            min_length=2,
            max_length=6,
            description="The players clockwise, seat 0 first: names without spaces at their ends or "
            "control characters, distinct in more than case, none 'dummy' (seat_name_problems).",
        ),
    ]
    rules: RuleOptions | UnsetType = UNSET
    blocks: (
        Annotated[
            list[Annotated[list[Annotated[str, Meta(min_length=1)]], Meta(min_length=4, max_length=4)]],
            Meta(
                min_length=1,
                description="Club evening (format fixed): the seating of each block of `deals` deals; "
                "partners rotate between blocks. The first block's seating is `seats`.",
            ),
        ]
        | UnsetType
    ) = UNSET


class Declaration(_Base, kw_only=True):
    """One call, in the order spoken."""

    seat: Seat
    call: Call
    suit: SuitLetter | UnsetType = UNSET


class RecordedScore(_Base, kw_only=True):
    """What was written on the scoresheet for a deal."""

    team: Team
    points: Points


class Penalty(_Base, kw_only=True):
    """A fault (misdeal, looking at cards early, cheating) by a team."""

    team: Team
    points: Points | UnsetType = UNSET
    reason: str | UnsetType = UNSET


class Annotation(_Base, kw_only=True):
    """A comment on a deal, a trick (``trick``) or one play (``trick`` and ``play``), 1-based.

    A comment on a play may carry a variation (``line``): the cards that could have been played
    from that play on, in order, the first in place of the card played. The replay checks each
    card against the rules of play.
    """

    trick: TrickNumber | UnsetType = UNSET
    play: PlayNumber | UnsetType = UNSET
    author: str
    text: str
    tags: list[str] | UnsetType = UNSET
    line: (
        Annotated[
            list[CardText],
            Meta(
                min_length=1,
                max_length=MAX_TRICKS * MAX_TRICK_SIZE,
                description="A variation: the cards played from this play on, in order, the first "
                "in place of the card played (needs ``trick`` and ``play``).",
            ),
        ]
        | UnsetType
    ) = UNSET


Pile = Annotated[
    list[CardText],
    Meta(min_length=2, max_length=2, description="A table pile: [face_down, face_up]."),
]


Trick = Annotated[list[CardText], Meta(min_length=1, description="A trick: its cards in the order played.")]


class TableMove(_Base, kw_only=True):
    """Two-player games: before its play in ``trick`` (at position ``play`` of the trick, by
    default its first), ``seat`` moved the top card of its third pile to its emptied fourth
    place, turning up the card under it."""

    seat: Seat
    trick: TrickNumber
    play: PlayNumber | UnsetType = UNSET


class Deal(_Base, kw_only=True):
    """One deal: the cards, the calls, the tricks as played, what was written down."""

    dealer: Seat
    hands: (
        Annotated[list[list[CardText]], Meta(min_length=2, description="Per seat: the cards dealt to it.")]
        | UnsetType
    ) = UNSET
    table: (
        Annotated[
            list[list[Pile]],
            Meta(description="Per seat: its 4 table piles (two-player games, the dummy), [] for the others."),
        ]
        | UnsetType
    ) = UNSET
    discards: (
        Annotated[
            list[CardText], Meta(description="Cards laid aside; they count for the trump maker's opponents.")
        ]
        | UnsetType
    ) = UNSET
    table_moves: list[TableMove] | UnsetType = UNSET
    turned: (
        Annotated[
            CardText,
            Meta(description="The dealer's last card, turned face up: its suit is trump (turned_card)."),
        ]
        | UnsetType
    ) = UNSET
    declarations: Annotated[list[Declaration], Meta(max_length=64)] | UnsetType = UNSET
    tricks: list[Trick] | UnsetType = UNSET
    recorded_score: RecordedScore | UnsetType | None = UNSET
    penalties: Annotated[list[Penalty], Meta(max_length=16)] | UnsetType = UNSET
    annotations: list[Annotation] | UnsetType = UNSET


class Record(_Base, kw_only=True):
    """One match ("partij"): the document a ``.json`` file or a ``.jsonl`` line holds."""

    format: Literal["manillen/1"]
    match: MatchInfo
    deals: Annotated[list[Deal], Meta(max_length=MAX_DEALS)]


def json_schema() -> dict[str, object]:
    """The JSON Schema of the format, generated from this model."""
    body = msgspec.json.schema(Record)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://manillen-replay.invalid/schemas/manillen-1.schema.json",
        "title": "Manillen recorded match, format manillen/1",
        "description": "One match per document; see docs/format.md.",
        **body,
    }
