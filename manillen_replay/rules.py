"""The rules of Manillen as pure functions: variants, house rules, legal plays, tricks, scoring.

Every house rule and variant is a field of one frozen :class:`Rules` value that is passed
explicitly; nothing here reads files or keeps global settings.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from enum import Enum
from typing import Any, Literal

from .cards import (
    CARD_POINTS,
    DECK_32_MASK,
    DECK_36_MASK,
    RANKS_PER_SUIT,
    SUIT_MASKS,
    Card,
    CardSet,
    Suit,
    iter_mask,
)
from .errors import InvalidOptionError

# --------------------------------------------------------------------------- variants


Sides = Literal["teams", "each", "dealer_alone", "dealer_and_dummy"]


@dataclass(frozen=True)
class Variant:
    """The shape of one way to play: seats, cards, tricks, turn order and who plays with whom.

    Seats are the places that hold cards, numbered as ``match.seats`` (the dummy of
    ``three_dummy`` is seat 3, played by the dealer). Play goes clockwise in the order that
    :meth:`order` gives; in a trick of more cards than seats (``two_open_fours``) it simply goes
    round again. A deal has two sides: side 0 and side 1 (:meth:`team_of`).
    """

    name: str
    """The record format's name of the variant."""
    players: int
    """How many seats hold cards (the dummy included)."""
    people: int
    """How many people play (named in ``match.seats``)."""
    trick_size: int
    """How many cards make a trick."""
    tricks: int
    """How many tricks a deal has."""
    hand_size: int
    """How many cards each person holds in the hand to play from (after any exchange)."""
    table_seats: Literal["none", "all", "dummy"]
    """Who has four face-down and four face-up cards on the table."""
    discards: int
    """How many cards are laid aside and count for the opponents of the trump maker."""
    deck_mask: int
    """The cards in play, as a card-set mask."""
    sides: Sides
    """Who plays with whom: seat mod 2, everyone alone, the dealer alone, or dealer and dummy."""
    dealing: str
    """How the cards are dealt, in the rules' words."""

    def order(self, dealer: int = 0) -> tuple[int, ...]:
        """The seats in clockwise order (with the dummy opposite the dealer in ``three_dummy``)."""
        if self.sides == "dealer_and_dummy":
            return (dealer, (dealer + 1) % 3, 3, (dealer + 2) % 3)
        return tuple(range(self.players))

    def next_seat(self, seat: int, dealer: int = 0) -> int:
        """The seat after ``seat`` clockwise."""
        if self.sides == "dealer_and_dummy":
            order = self.order(dealer)
            return order[(order.index(seat) + 1) % 4]
        return (seat + 1) % self.players

    def seat_of_play(self, leader: int, position: int, dealer: int = 0) -> int:
        """Who plays the card at ``position`` (0-based) of a trick led by ``leader``."""
        if self.sides == "dealer_and_dummy":
            order = self.order(dealer)
            return order[(order.index(leader) + position) % 4]
        return (leader + position) % self.players

    def team_of(self, seat: int, dealer: int) -> int:
        """The side of a seat in a deal dealt by ``dealer``: 0 or 1."""
        if self.sides == "teams":
            return seat % 2
        if self.sides == "each":
            return seat
        if self.sides == "dealer_alone":
            return 0 if seat == dealer else 1
        return 0 if seat in (dealer, 3) else 1

    def plays_alone(self, seat: int, dealer: int) -> bool:
        """Whether the seat's side is one person (the seat's player, or the dealer with the
        dummy): "Mieke's team" reads wrong there.

        >>> VARIANTS["two_open"].plays_alone(1, 0), VARIANTS["three"].plays_alone(2, 0)
        (True, False)
        >>> VARIANTS["three_dummy"].plays_alone(3, 0), VARIANTS["four"].plays_alone(0, 3)
        (True, False)
        """
        if self.sides == "each":
            return True
        if self.sides == "dealer_alone":
            return seat == dealer
        return self.sides == "dealer_and_dummy" and seat in (dealer, 3)

    def next_dealer(self, dealer: int) -> int:
        """Who deals next: the dealer's left."""
        return (dealer + 1) % self.people

    def partner_of(self, seat: int) -> int | None:
        """The first teammate (en face passes the choice there); ``None`` without a partner."""
        if self.sides == "teams":
            return (seat + 2) % self.players
        return None

    @property
    def scorers(self) -> int:
        """How many match scores are kept: one per team, or one per person in the three-player games."""
        return 3 if self.sides in ("dealer_alone", "dealer_and_dummy") else 2

    def side_scorers(self, side: int, dealer: int) -> tuple[int, ...]:
        """The match scores that a side's result goes to (each opponent scores it in ``three``)."""
        if self.scorers == 2:
            return (side,)
        if side == 0:
            return (dealer,)
        return tuple(p for p in range(3) if p != dealer)

    def holds_table(self, seat: int) -> bool:
        """Whether ``seat`` has table cards (four piles of a face-down and a face-up card)."""
        return self.table_seats == "all" or (self.table_seats == "dummy" and seat == 3)

    @property
    def has_en_face(self) -> bool:
        """Whether en face fits: the dealer has a partner to pass the trump choice to
        (``six_short`` passes the choice its own way instead).

        >>> [name for name, variant in VARIANTS.items() if variant.has_en_face]
        ['four', 'six']
        """
        return self.partner_of(0) is not None and self.name != "six_short"

    @property
    def has_redeal(self) -> bool:
        """Whether the small-cards redeal fits: the dealer holds eight cards in the hand."""
        return self.hand_size == 8

    @property
    def deck(self) -> CardSet:
        """The cards in play."""
        return CardSet(self.deck_mask)


VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant("four", 4, 4, 4, 8, 8, "none", 0, DECK_32_MASK, "teams", "3-2-3, eight cards each"),
        Variant(
            "two_open",
            2,
            2,
            2,
            16,
            8,
            "all",
            0,
            DECK_32_MASK,
            "each",
            "4 face down and 4 face up on the table, 8 in the hand, each",
        ),
        Variant(
            "two_open_fours",
            2,
            2,
            4,
            8,
            8,
            "all",
            0,
            DECK_32_MASK,
            "each",
            "4 face down and 4 face up on the table, 8 in the hand, each; tricks of 4",
        ),
        Variant(
            "three",
            3,
            3,
            3,
            10,
            10,
            "none",
            2,
            DECK_32_MASK,
            "dealer_alone",
            "one card aside, 10-10-11; the dealer takes it and lays two aside",
        ),
        Variant(
            "three_dummy",
            4,
            3,
            4,
            8,
            8,
            "dummy",
            0,
            DECK_32_MASK,
            "dealer_and_dummy",
            "8 each; the dealer's dummy partner gets 4 face down and 4 face up",
        ),
        Variant(
            "six", 6, 6, 6, 6, 6, "none", 0, DECK_36_MASK, "teams", "2-2-2, six cards each (with the 6s)"
        ),
        Variant(
            "six_short",
            6,
            6,
            6,
            5,
            5,
            "none",
            2,
            DECK_32_MASK,
            "teams",
            "two aside, 2-1-2; the trump maker takes them and lays two aside",
        ),
    )
}

# --------------------------------------------------------------------------- house rules

PenaltyTo = Literal["opponents", "offender"]
Underbuy = Literal["forbidden", "allowed", "forbidden_with_other_suit", "forced"]
MatchFormat = Literal["target", "fixed"]
Capot = Literal["plain", "double", "fixed_30", "fixed_60"]
Multipliers = Literal["multiplied", "added"]
TrumpChoice = Literal["free", "held_suit", "turned_card"]
KlopBy = Literal["opponents", "left_of_dealer"]


@dataclass(frozen=True)
class Rules:
    """Every house-rule option and the variant, with the defaults of rules.md."""

    variant: str = "four"
    """Which game: ``four`` (the main game) or another player count."""
    target: int = 101
    """The match ends after the deal that takes a team to this score or more."""
    extension: tuple[int, ...] = (121, 151)
    """If both teams stand at or over the target, play on to the next of these."""
    partner_exempt: bool = True
    """No duty to overtake or to buy while your partner is winning the trick."""
    underbuy: Underbuy = "forbidden"
    """Playing a trump below one already on the table, void in the led suit: ``forbidden``
    while any other card may be played; ``allowed`` always; ``forbidden_with_other_suit`` only
    while a card of another suit than trumps is held (a hand of trumps only may underbuy, even
    holding a higher trump); ``forced``: whoever would have to buy cannot beat the trump on the
    table and holds a lower one must play it (void, a trump is compulsory)."""
    overtake_plain_suit: bool = True
    """A follower of a plain (non-trump) suit must beat the winning card when able. ``False`` is
    the French rule: any card of a plain suit will do, only trumps must go higher (following a
    trump lead, and over-buying)."""
    thirty_carry: bool = True
    """After a 30-30 the next deal counts double. ``False``: nobody scores and that is all."""
    max_multiplier: int | None = 4
    """Doublings never take a deal over this factor; ``None`` means no cap."""
    multipliers: Multipliers = "multiplied"
    """How doublings combine: ``multiplied`` (klop on a muil is x4) or ``added`` (each doubling
    adds one to the factor, a quadrupling three: klop on a muil is x3)."""
    muil_double: bool = True
    """Whether a muil (no trump) counts double. ``False``: a muil is scored single."""
    capot: Capot = "plain"
    """A side that takes every card point (capot): ``plain`` scores as any deal, ``double``
    doubles the factor once more, ``fixed_30`` and ``fixed_60`` score that many points whatever
    the factor."""
    trump_choice: TrumpChoice = "free"
    """``free``: any suit or muil; ``held_suit``: only a suit the chooser holds (or muil);
    ``turned_card``: the suit of the dealer's turned last card (the deal's ``turned``), no muil."""
    klop_by: KlopBy = "opponents"
    """Who may klop: any ``opponents`` of the dealer, or only the player ``left_of_dealer`` and
    that player's partner (tegenklop is unchanged)."""
    klop_on_muil: bool = False
    """Whether a muil may be knocked."""
    penalty_points: int = 30
    """What a fault costs when the record gives no amount."""
    penalty_to: PenaltyTo = "opponents"
    """Who a penalty goes to: the opponents score it, or the offender loses it."""
    blind_muil: bool = False
    """Cafe rule: muil called before the dealer sees the cards, quadruple."""
    eternal_klop: bool = False
    """Cafe rule: knock and counter-knock may go on, each doubling."""
    en_face: bool = False
    """Cafe rule: the dealer may pass the trump choice to the partner, double."""
    redeal_small: bool = False
    """Cafe rule: five small cards and a jack allow a redeal, at most twice in a row."""
    format: MatchFormat = "target"
    """``target`` (first to ``target``) or ``fixed`` (a fixed number of deals)."""
    deals: int = 12
    """With ``format: fixed``, the number of deals."""

    def __post_init__(self) -> None:
        conflict = rule_conflict(self)
        if conflict is not None:
            raise InvalidOptionError(conflict)

    @property
    def shape(self) -> Variant:
        """The variant's seats, cards and tricks."""
        return VARIANTS[self.variant]

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> Rules:
        """Rules from option names and values, as a record or the command line give them.

        Cafe rules may be given flat (``blind_muil``) or nested (``cafe: {blind_muil: ...}``)
        or dotted (``cafe.blind_muil``).

        :raises InvalidOptionError: for an unknown option or a value of the wrong kind.
        """
        flat: dict[str, Any] = {}
        typed: dict[str, str] = {}  # each option as it was given, for the message
        for name, value in options.items():
            if name == "cafe" and isinstance(value, Mapping):
                flat.update(value)
                typed.update({str(inner): f"cafe.{inner}" for inner in value})
            else:
                flat[name.removeprefix("cafe.")] = value
                typed[name.removeprefix("cafe.")] = name
        known = {f.name: f for f in fields(cls)}
        values: dict[str, Any] = {}
        for name, value in flat.items():
            if name not in known:
                # the café rules as records and the docs write them: cafe.en_face
                said = sorted(f"cafe.{k}" if k in CAFE_OPTIONS else k for k in known)
                raise InvalidOptionError(
                    f"unknown rule option {typed.get(name, name)!r}; known: {', '.join(said)}"
                )
            values[name] = _check_option(name, value)
        return cls(**values)

    def with_options(self, **options: Any) -> Rules:
        """A copy with some options changed (values checked as in :meth:`from_options`)."""
        return replace(self, **{k: _check_option(k, v) for k, v in options.items()})

    def to_options(self) -> dict[str, Any]:
        """The options that differ from the defaults, as the record format writes them."""
        default = Rules()
        out: dict[str, Any] = {}
        cafe: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if value == getattr(default, f.name):
                continue
            if f.name == "extension":
                value = list(value)
            if f.name in CAFE_OPTIONS:
                cafe[f.name] = value
            elif f.name != "variant":
                out[f.name] = value
        if cafe:
            out["cafe"] = cafe
        return out


def rule_conflict(rules: Rules) -> str | None:
    """Why two options cannot hold together, or ``None`` when they can.

    The trump of ``trump_choice: turned_card`` is no one's choice, so nothing can pass it on
    (``cafe.en_face``, the ``six_short`` passes) and no muil can be called (``cafe.blind_muil``).

    >>> print(rule_conflict(Rules(trump_choice="held_suit", en_face=True)))
    None
    """
    if rules.trump_choice == "turned_card":
        if rules.en_face:
            return (
                "rule options 'trump_choice: turned_card' and 'cafe.en_face' conflict: "
                "the turned card makes trump, there is no choice to pass to the partner"
            )
        if rules.blind_muil:
            return (
                "rule options 'trump_choice: turned_card' and 'cafe.blind_muil' conflict: "
                "the turned card makes trump, no muil can be called"
            )
        if rules.variant == "six_short":
            return (
                "rule option 'trump_choice: turned_card' conflicts with the variant 'six_short': "
                "there the choice of trump passes between teammates"
            )
    return None


def unused_options(rules: Rules) -> list[str]:
    """Why each café rule these rules name has no room in their variant (docs/rules.md, "House
    rules in the variants"): en face needs a partner to pass to, the small-cards redeal an
    eight-card hand. Such an option is never applied; a record holding it stays readable (an
    archive may hold one), while a club's rules are not saved with it and ``validate`` names it.

    >>> unused_options(Rules(variant="three", en_face=True))[0][:56]
    "rule option 'cafe.en_face' does not apply to the variant"
    >>> unused_options(Rules(variant="six", en_face=True))
    []

    An extension given that is not above the target (and the one before it) is never played to
    either: the match ends at the target then, as it would without it.

    >>> unused_options(Rules(extension=(90,)))[0][:57]
    "rule option 'extension' 90 never applies: an extension is"
    """
    shape = VARIANTS[rules.variant]
    said = []
    if rules.extension != Rules().extension and rules.format == "target":
        floor, idle = rules.target, []
        for score in rules.extension:
            if score <= floor:
                idle.append(score)
            floor = max(floor, score)
        if idle:
            scores = ", ".join(str(score) for score in idle)
            said.append(
                f"rule option 'extension' {scores} never {'applies' if len(idle) == 1 else 'apply'}: an "
                f"extension is a score above the target {rules.target} and above the one before it"
            )
    if rules.en_face and not shape.has_en_face:
        fits = _listed([name for name, variant in VARIANTS.items() if variant.has_en_face])
        said.append(
            f"rule option 'cafe.en_face' does not apply to the variant {rules.variant!r}: en face passes "
            f"the trump choice to the dealer's partner, in {fits} only"
        )
    if rules.redeal_small and not shape.has_redeal:
        fits = _listed([name for name, variant in VARIANTS.items() if variant.has_redeal])
        said.append(
            f"rule option 'cafe.redeal_small' does not apply to the variant {rules.variant!r}: the "
            f"small-cards redeal needs eight-card hands, dealt in {fits} only"
        )
    return said


def _listed(names: list[str]) -> str:
    """``'a'``, ``'a' and 'b'``, ``'a', 'b' and 'c'``."""
    quoted = [repr(name) for name in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


CAFE_OPTIONS = ("blind_muil", "eternal_klop", "en_face", "redeal_small")
_CHOICES: dict[str, tuple[str, ...]] = {
    "variant": tuple(VARIANTS),
    "underbuy": ("forbidden", "allowed", "forbidden_with_other_suit", "forced"),
    "penalty_to": ("opponents", "offender"),
    "format": ("target", "fixed"),
    "multipliers": ("multiplied", "added"),
    "capot": ("plain", "double", "fixed_30", "fixed_60"),
    "trump_choice": ("free", "held_suit", "turned_card"),
    "klop_by": ("opponents", "left_of_dealer"),
}
_BOOLEANS = (
    "partner_exempt",
    "overtake_plain_suit",
    "thirty_carry",
    "klop_on_muil",
    "muil_double",
    *CAFE_OPTIONS,
)
_POSITIVE = ("target", "deals")


def _check_option(name: str, value: Any) -> Any:
    if isinstance(value, str) and name not in _CHOICES:
        value = _from_text(name, value)
    if name in _CHOICES:
        if value not in _CHOICES[name]:
            raise InvalidOptionError(
                f"rule option {name!r} cannot be {value!r}: choose {' or '.join(_CHOICES[name])}"
            )
        return value
    if name in _BOOLEANS:
        if not isinstance(value, bool):
            raise InvalidOptionError(f"rule option {name!r} is true or false, not {value!r}")
        return value
    if name == "extension":
        if not isinstance(value, list | tuple) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value
        ):
            raise InvalidOptionError(f"rule option 'extension' is a list of scores, not {value!r}")
        return tuple(value)
    if name == "max_multiplier":
        if value is None or (isinstance(value, int) and not isinstance(value, bool) and value >= 1):
            return value
        raise InvalidOptionError(f"rule option 'max_multiplier' is a number >= 1 or null, not {value!r}")
    if name in _POSITIVE or name == "penalty_points":
        whole = isinstance(value, int) and not isinstance(value, bool)
        if whole and (value > 0 or name == "penalty_points"):
            return value
        if whole:
            raise InvalidOptionError(f"rule option {name!r} is a whole number from 1, not {value!r}")
        raise InvalidOptionError(f"rule option {name!r} is a whole number, not {value!r}")
    return value


def _from_text(name: str, text: str) -> Any:
    """A command-line value (``true``, ``4``, ``null``, ``121,151`` or ``[121, 151]`` as the docs
    write it) as its option type.

    >>> _from_text("extension", "[121, 151]"), _from_text("extension", "121,151")
    ((121, 151), (121, 151))
    """
    lowered = text.strip().lower()
    if name in _BOOLEANS:
        if lowered in ("true", "yes", "1", "on"):
            return True
        if lowered in ("false", "no", "0", "off"):
            return False
        return text
    if name == "max_multiplier" and lowered in ("null", "none", ""):
        return None
    if name == "extension":
        try:
            listed = lowered.replace(" ", "").removeprefix("[").removesuffix("]")
            return tuple(int(part) for part in listed.split(",") if part)
        except ValueError:
            return text
    try:
        return int(lowered)
    except ValueError:
        return text


# --------------------------------------------------------------------------- calls


def trump_options(rules: Rules, hand: int, turned_suit: int | None = None) -> tuple[int | None, ...]:
    """The contracts a chooser holding ``hand`` (a mask) may call: suits, and ``None`` for muil.

    ``trump_choice: held_suit`` leaves the suits of the hand and muil; ``turned_card`` only the
    turned card's suit (none while it is unknown).

    >>> from manillen_replay.cards import CardSet
    >>> trump_options(Rules(trump_choice="held_suit"), CardSet.parse("10H AH 7C").mask)
    (0, 2, None)
    """
    if rules.trump_choice == "turned_card":
        return () if turned_suit is None else (turned_suit,)
    suits = tuple(s for s in range(4) if rules.trump_choice == "free" or hand & SUIT_MASKS[s])
    return (*suits, None)


def may_klop(rules: Rules, seat: int, dealer: int) -> bool:
    """Whether ``seat`` may klop in a deal dealt by ``dealer``: an opponent of the dealing side,
    and under ``klop_by: left_of_dealer`` the dealer's left or that player's partner (in the
    three-player games the dealer's left has no partner of its own: both opponents may).

    >>> may_klop(Rules(variant="six", klop_by="left_of_dealer"), 5, 0)
    False
    """
    shape = rules.shape
    if shape.team_of(seat, dealer) == shape.team_of(dealer, dealer):
        return False
    if rules.klop_by == "opponents":
        return True
    left = shape.next_seat(dealer, dealer)
    partner = shape.partner_of(left)
    return partner is None or seat in (left, partner)


# --------------------------------------------------------------------------- tricks


def winning_position(cards: Sequence[int], trump: int | None) -> int:
    """The position (0-based) of the card winning a trick so far.

    The highest trump wins; without trump, the highest card of the led suit.
    """
    best = 0
    best_card = cards[0]
    best_suit = best_card // RANKS_PER_SUIT
    for position in range(1, len(cards)):
        card = cards[position]
        suit = card // RANKS_PER_SUIT
        if suit == best_suit:
            if card > best_card:
                best, best_card = position, card
        elif suit == trump:
            best, best_card, best_suit = position, card, suit
    return best


def trick_points(cards: Sequence[int]) -> int:
    """The card points in a trick."""
    return sum(CARD_POINTS[c] for c in cards)


# --------------------------------------------------------------------------- legal plays


class Clause(Enum):
    """The rule clause that decides which cards may be played."""

    LEAD = "lead"
    FOLLOW = "follow"
    OVERTAKE = "overtake"
    BUY = "buy"
    OVERBUY = "overbuy"
    NO_UNDERBUY = "no_underbuy"
    FORCED_UNDERBUY = "forced_underbuy"
    ANY = "any"
    MUIL_ANY = "muil_any"
    MUST_UNDERBUY = "must_underbuy"


CLAUSES: tuple[Clause, ...] = tuple(Clause)
"""Clauses by the index :func:`legal_core` returns (0 is the lead)."""


class ViolationKind(Enum):
    """The ways to break the rules of play, by the names players and rules.md use."""

    REVOKE = "revoke"
    """Verzaken: did not follow suit while able to."""
    FAILED_TO_OVERTAKE = "failed_to_overtake"
    """Followed suit below an opponent's winning card while able to beat it."""
    FAILED_TO_BUY = "failed_to_buy"
    """Void, an opponent winning, held a trump that would win (under ``underbuy: forced``, any
    trump), played a non-trump."""
    ILLEGAL_UNDERBUY = "illegal_underbuy"
    """Played a trump lower than a trump on the table while holding another option (under
    ``underbuy: forbidden_with_other_suit``, while holding a card of another suit)."""


def legal_mask(
    trick: Sequence[int],
    playable: int,
    trump: int | None,
    partner_winning: bool,
    rules: Rules,
) -> tuple[int, Clause]:
    """The cards (as a mask) that may be played to ``trick`` from ``playable``, and why.

    :param trick: the cards played to the trick so far, leader first.
    :param playable: the mask of cards the seat may play from (hand, and open table cards).
    :param trump: the trump suit, or ``None`` for muil.
    :param partner_winning: whether the card winning so far belongs to the seat's own team.
    :param rules: the house rules (``partner_exempt`` and ``underbuy`` matter here).
    """
    if not trick:
        return playable, Clause.LEAD
    best = trick[winning_position(trick, trump)]
    return legal_after(trick[0] // RANKS_PER_SUIT, best, playable, trump, partner_winning, rules)


def legal_after(
    led: int, best: int, playable: int, trump: int | None, partner_winning: bool, rules: Rules
) -> tuple[int, Clause]:
    """:func:`legal_mask` for a trick already under way, given its led suit and winning card.

    The replay keeps the winning card as it goes, so it asks this directly.
    """
    mask, code = legal_core(
        led,
        best,
        playable,
        NO_TRUMP if trump is None else trump,
        partner_winning,
        rules.partner_exempt,
        UNDERBUY_CODES[rules.underbuy],
        rules.overtake_plain_suit,
    )
    return mask, CLAUSES[code]


NO_TRUMP = -1
"""The trump suit of a muil deal in :func:`legal_core`."""
(_FOLLOW, _OVERTAKE, _BUY, _OVERBUY, _NO_UNDERBUY, _FORCED_UNDERBUY, _ANY, _MUIL_ANY, _MUST_UNDERBUY) = range(
    1, 10
)
UNDERBUY_ALLOWED, UNDERBUY_FORBIDDEN, UNDERBUY_WITH_OTHER_SUIT, UNDERBUY_FORCED = range(4)
UNDERBUY_CODES: dict[str, int] = {
    "allowed": UNDERBUY_ALLOWED,
    "forbidden": UNDERBUY_FORBIDDEN,
    "forbidden_with_other_suit": UNDERBUY_WITH_OTHER_SUIT,
    "forced": UNDERBUY_FORCED,
}
"""The ``underbuy`` option as :func:`legal_core` takes it (a whole number, for the solver)."""


def underbuy_code(rules: Rules) -> int:
    """The ``underbuy`` option of ``rules`` as :func:`legal_core` takes it."""
    return UNDERBUY_CODES[rules.underbuy]


def legal_core(
    led: int,
    best: int,
    playable: int,
    trump: int,
    partner_winning: bool,
    partner_exempt: bool,
    underbuy: int,
    overtake_plain_suit: bool,
) -> tuple[int, int]:
    """The legal-play rules on plain ints: the one definition that the replay and the solver share.

    Written in the subset of Python that numba compiles, so the solver runs this very function.

    :param led: the suit led.
    :param best: the card winning the trick so far.
    :param playable: the mask of cards the seat may play from.
    :param trump: the trump suit, or :data:`NO_TRUMP`.
    :param underbuy: the ``underbuy`` option as one of :data:`UNDERBUY_CODES`.
    :param overtake_plain_suit: ``False`` is the French rule: following a plain suit, any card
        of it will do (only trumps must go higher).
    :returns: the mask of legal cards, and the clause as an index into :data:`CLAUSES`.
    """
    best_suit = best // RANKS_PER_SUIT
    must_win = not partner_winning or not partner_exempt
    follow = playable & SUIT_MASKS[led]
    if follow:
        if must_win and best_suit == led and (overtake_plain_suit or led == trump):
            beaters = follow & ~((2 << best) - 1)
            if beaters:
                return beaters, _OVERTAKE
        return follow, _FOLLOW
    if trump == NO_TRUMP:
        return playable, _MUIL_ANY
    trumps = playable & SUIT_MASKS[trump]
    if best_suit == trump:
        higher = trumps & ~((2 << best) - 1)
        lower = trumps & ~higher
    else:
        higher = trumps
        lower = 0
    if must_win and higher:
        return higher, (_OVERBUY if best_suit == trump else _BUY)
    if lower and underbuy == UNDERBUY_FORCED and must_win:
        return lower, _MUST_UNDERBUY
    if lower and (underbuy in (UNDERBUY_FORBIDDEN, UNDERBUY_WITH_OTHER_SUIT)):
        # forbidden_with_other_suit: only a card of another suit than trumps forbids it
        spare = SUIT_MASKS[trump] if underbuy == UNDERBUY_WITH_OTHER_SUIT else lower
        if playable & ~spare:
            return playable & ~lower, _NO_UNDERBUY
        return playable, _FORCED_UNDERBUY
    return playable, _ANY


def classify_violation(card: int, trick: Sequence[int], playable: int, trump: int | None) -> ViolationKind:
    """Which rule a card outside the legal set broke.

    :param card: the card played (not in the legal set).
    :param trick: the cards played to the trick before it (never empty: a lead is always legal).
    :param playable: the cards the seat held.
    :param trump: the trump suit, or ``None``.
    """
    led = trick[0] // RANKS_PER_SUIT
    suit = card // RANKS_PER_SUIT
    if suit != led and playable & SUIT_MASKS[led]:
        return ViolationKind.REVOKE
    if suit == led:
        return ViolationKind.FAILED_TO_OVERTAKE
    if suit == trump:
        return ViolationKind.ILLEGAL_UNDERBUY
    return ViolationKind.FAILED_TO_BUY


@dataclass(frozen=True)
class LegalPlays:
    """The answer to "what may I play here?", with the clause that decides it."""

    cards: CardSet
    """The cards that may be played."""
    clause: Clause
    """The rule clause that decides the set."""
    led_suit: Suit | None
    """The suit led, or ``None`` before the lead."""
    winning_card: Card | None
    """The card winning the trick so far."""
    winning_position: int | None
    """Its position in the trick (0-based)."""
    partner_winning: bool
    """Whether that card belongs to the seat's own team."""
    trump: Suit | None = None
    """The trump suit, or ``None`` for muil."""

    def explain(self, winner_name: str | None = None, partner: str = "your partner") -> str:
        """The clause in a player's words, for example ``must follow hearts and beat KH``.

        :param partner: the seat's partner as the reader calls them: ``your partner`` to the
            player asking (``manillen legal``), ``the partner`` to someone watching (a replay).
        """
        led = self.led_suit.english if self.led_suit is not None else ""
        best = str(self.winning_card) if self.winning_card is not None else ""
        who = f"{winner_name}'s " if winner_name else ""
        whose = partner if self.partner_winning else "an opponent"
        trump = self.trump.english if self.trump is not None else ""
        return {
            Clause.LEAD: "the leader may play any card",
            Clause.FOLLOW: f"must follow {led}"
            + (f" ({whose} is winning with {who}{best}; any {led} card will do)" if best else ""),
            Clause.OVERTAKE: f"must follow {led} and beat {who}{best}: {whose} is winning"
            + ("" if not self.partner_winning else " (partner_exempt is off: always try to win)"),
            Clause.BUY: f"void in {led}: must buy (kopen) with a {trump} trump, "
            f"{whose} is winning with {who}{best}"
            + ("" if not self.partner_winning else " (partner_exempt is off: always try to win)"),
            Clause.OVERBUY: f"void in {led}: must over-buy {who}{best} with a higher {trump} trump",
            Clause.NO_UNDERBUY: f"void in {led}: any card but a {trump} trump below {who}{best} "
            "(no underbuying, onderkopen)",
            Clause.FORCED_UNDERBUY: f"void in {led}: only trumps below {who}{best} left, "
            "so underbuying is allowed",
            Clause.ANY: f"void in {led}: any card ({whose} is winning with {who}{best})",
            Clause.MUIL_ANY: f"void in {led}: muil has no trumps, any card may be played",
            Clause.MUST_UNDERBUY: f"void in {led}: must play a {trump} trump even below {who}{best} "
            "(underbuying is forced under these rules)",
        }[self.clause]


def legal_plays(
    trick: Sequence[Card],
    playable: CardSet,
    trump: Suit | None,
    partner_winning: bool,
    rules: Rules,
) -> LegalPlays:
    """Which cards may be played next, and the clause that decides it.

    >>> rules = Rules()
    >>> legal_plays([Card.CA, Card.CQ, Card.D9], CardSet.parse("8D KD 7H"), Suit.D, False, rules).cards
    CardSet.parse('KD')
    """
    mask, clause = legal_mask(trick, playable.mask, trump, partner_winning, rules)
    position = winning_position(trick, trump) if trick else None
    return LegalPlays(
        cards=CardSet(mask),
        clause=clause,
        led_suit=trick[0].suit if trick else None,
        winning_card=trick[position] if position is not None else None,
        winning_position=position,
        partner_winning=partner_winning,
        trump=trump,
    )


# --------------------------------------------------------------------------- scoring


class Contract(Enum):
    """What the dealer (or the partner, en face) made."""

    TRUMP = "trump"
    MUIL = "muil"
    BLIND_MUIL = "blind_muil"


@dataclass(frozen=True)
class DealScore:
    """What a deal scores: one team, a number of points."""

    team: int
    """The team that scores (0 or 1)."""
    points: int
    """The points it scores, multiplier applied."""


def multiplier(contract: Contract, en_face: bool, knocks: int, carried: bool, rules: Rules) -> int:
    """The deal's factor: muil x2 (x1 without ``muil_double``), blind muil twice the muil, en
    face x2, each knock x2, a 30-30 carry x2.

    Combined as ``multipliers`` says (multiplied, or each doubling adding one), then capped by
    ``max_multiplier``.

    >>> multiplier(Contract.MUIL, False, 1, False, Rules())
    4
    >>> multiplier(Contract.MUIL, False, 1, False, Rules(multipliers="added"))
    3
    >>> multiplier(Contract.MUIL, False, 1, False, Rules(muil_double=False))
    2
    """
    factors = [_contract_factor(contract, rules), *([2] if en_face else []), *([2] * knocks)]
    if carried:
        factors.append(2)
    return _capped(_combined(factors, rules), rules)


def _contract_factor(contract: Contract, rules: Rules) -> int:
    muil = 2 if rules.muil_double else 1
    return {Contract.TRUMP: 1, Contract.MUIL: muil, Contract.BLIND_MUIL: 2 * muil}[contract]


def _combined(factors: Sequence[int], rules: Rules) -> int:
    """Doublings together: their product, or under ``multipliers: added`` one plus what each adds."""
    if rules.multipliers == "added":
        return 1 + sum(factor - 1 for factor in factors)
    return functools.reduce(lambda a, b: a * b, factors, 1)


def _capped(factor: int, rules: Rules) -> int:
    return factor if rules.max_multiplier is None else min(factor, rules.max_multiplier)


def capot_factor(factor: int, rules: Rules) -> int:
    """The factor of a capot under ``capot: double``: one doubling more, capped as any other.

    >>> capot_factor(2, Rules(capot="double")), capot_factor(3, Rules(capot="double", multipliers="added"))
    (4, 4)
    """
    return _capped(_combined([factor, 2], rules), rules)


def highest_multiplier(rules: Rules) -> int | None:
    """The largest factor any deal can take under these rules (see :func:`multiplier`): the
    largest contract (muil x2, blind muil x4 with its cafe rule), en face x2 with its cafe rule,
    klop and tegenklop x4 (on a muil only with ``klop_on_muil``), a 30-30 carry x2 with
    ``thirty_carry``, a capot's doubling with ``capot: double``, combined as ``multipliers``
    says, then capped by ``max_multiplier``; ``None`` when nothing bounds it (eternal knocking
    without a cap).

    >>> highest_multiplier(Rules())
    4
    >>> highest_multiplier(Rules(max_multiplier=None))
    8
    >>> highest_multiplier(Rules(max_multiplier=None, eternal_klop=True)) is None
    True
    >>> highest_multiplier(Rules(max_multiplier=None, multipliers="added"))
    4
    """
    contracts = [(Contract.TRUMP, True), (Contract.MUIL, rules.klop_on_muil)]
    if rules.blind_muil:
        contracts.append((Contract.BLIND_MUIL, rules.klop_on_muil))
    extra = [2] * (rules.en_face + rules.thirty_carry + (rules.capot == "double"))
    highest = 0
    for contract, knockable in contracts:
        if knockable and rules.eternal_klop:
            return rules.max_multiplier
        factors = [_contract_factor(contract, rules), *extra, *([2, 2] if knockable else [])]
        highest = max(highest, _combined(factors, rules))
    return _capped(highest, rules)


def highest_deal_score(rules: Rules) -> int | None:
    """The most one deal can score under these rules: the card points over the half (all the
    deck's points taken) times :func:`highest_multiplier`, or a fixed capot score when that is
    more; ``None`` when nothing bounds it.

    >>> highest_deal_score(Rules())
    120
    >>> highest_deal_score(Rules(capot="fixed_60", max_multiplier=1))
    60
    """
    factor = highest_multiplier(rules)
    if factor is None:
        return None
    total = _deck_points(rules.shape.deck_mask)
    return max((total - total // 2) * factor, CAPOT_POINTS.get(rules.capot, 0))


CAPOT_POINTS: dict[str, int] = {"fixed_30": 30, "fixed_60": 60}
"""What a capot scores under the ``capot`` options that fix it, whatever the factor."""


@functools.cache  # one mask a variant, asked for once a record read
def _deck_points(deck: int) -> int:
    return mask_points(deck)


def score_deal(points: Sequence[int], factor: int, rules: Rules | None = None) -> DealScore | None:
    """The score of a deal from each team's card points: ``None`` for a 30-30.

    A side that took every card point (capot) scores as ``rules.capot`` says.

    >>> score_deal([24, 36], 1)
    DealScore(team=1, points=6)
    >>> score_deal([0, 60], 2, Rules(capot="fixed_60")), score_deal([0, 60], 2, Rules(capot="double"))
    (DealScore(team=1, points=60), DealScore(team=1, points=120))
    """
    if points[0] == points[1]:
        return None
    team = 0 if points[0] > points[1] else 1
    return DealScore(team, int(side_score(points[team], sum(points), factor, rules)))


def side_score(taken: float, total: int, factor: int, rules: Rules | None = None) -> float:
    """What a deal scores for a side that took ``taken`` of the deal's ``total`` card points:
    positive when it won, the other side's score negated when it lost, 0 at the half. The one
    formula of a deal's score (:func:`score_deal` is built on it), also for the analysis, which
    scores the points a solved layout gives, or their expectation (a capot only when every
    point is taken: a fraction is never one).

    A side that took every card point, or none (capot), scores as ``rules.capot`` says.

    >>> side_score(40, 60, 2), side_score(25, 60, 1), side_score(30, 60, 4)
    (20, -5, 0)
    >>> side_score(0, 60, 2, Rules(capot="fixed_30")), side_score(60, 60, 2, Rules(capot="double"))
    (-30, 120)
    """
    if 2 * taken == total:
        return 0
    won = 2 * taken > total
    winner = taken if won else total - taken
    if rules is not None and rules.capot != "plain" and winner == total:
        if rules.capot == "double":
            factor = capot_factor(factor, rules)
        else:
            return CAPOT_POINTS[rules.capot] if won else -CAPOT_POINTS[rules.capot]
    score = (winner - total // 2) * factor
    return score if won else -score


def penalty_effect(team: int, points: int, rules: Rules) -> tuple[int, int]:
    """What a penalty on ``team`` does to the two scores."""
    if rules.penalty_to == "opponents":
        return (0, points) if team == 0 else (points, 0)
    return (-points, 0) if team == 0 else (0, -points)


def mask_points(mask: int) -> int:
    """The card points of a mask."""
    return sum(CARD_POINTS[c] for c in iter_mask(mask))


__all__ = [
    "CAFE_OPTIONS",
    "CAPOT_POINTS",
    "CLAUSES",
    "NO_TRUMP",
    "UNDERBUY_CODES",
    "VARIANTS",
    "Clause",
    "Contract",
    "DealScore",
    "LegalPlays",
    "Rules",
    "Variant",
    "ViolationKind",
    "capot_factor",
    "classify_violation",
    "highest_deal_score",
    "highest_multiplier",
    "legal_after",
    "legal_core",
    "legal_mask",
    "legal_plays",
    "may_klop",
    "multiplier",
    "penalty_effect",
    "rule_conflict",
    "score_deal",
    "side_score",
    "trick_points",
    "trump_options",
    "underbuy_code",
    "winning_position",
]
