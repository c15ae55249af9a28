"""Recording a match at the table, tap by tap: the Record page's logic, without Streamlit.

Every variant is recorded the same way: its seats, tricks, table piles and laid-aside cards come
from :attr:`Rules.shape <manillen_replay.rules.Rules.shape>`, never from numbers written here.

A :class:`Draft` is everything typed or tapped so far: the match set-up, the deals already
finished and the deal being entered (its dealer, calls, optional hands and the cards in the order
played). It is plain data that goes to JSON and back (:meth:`Draft.to_json`), so every tap can be
kept in a draft file and a closed tab resumes where it was.

Everything the table needs to know comes from the rules engine, never from rules written here:
:func:`table_of` walks the cards through :class:`~manillen_replay.state.DealState` (who is to
play, who took a trick and its points, the legal cards and the rule a card broke, exactly as the
replay decides them), and :func:`check_deal` replays the match record the draft makes with
:func:`~manillen_replay.engine.replay`, the whole validation the archive's import runs.
"""

from __future__ import annotations

import datetime
import json
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from dashboards import i18n
from manillen_replay.cards import (
    CARD_BY_TEXT,
    CARD_POINTS,
    CARD_TEXT,
    DECK_32_MASK,
    DECK_36_MASK,
    Card,
    CardSet,
    Rank,
    Suit,
    iter_mask,
    mask_of,
)
from manillen_replay.engine import MatchResult, replay
from manillen_replay.errors import IllegalPlayError, InvalidCardError, InvalidRecordError, ManillenError
from manillen_replay.record import Record, dumps, dumps_text, loads
from manillen_replay.record.model import seat_name_problems
from manillen_replay.rules import LegalPlays, Rules, ViolationKind, may_klop, trick_points
from manillen_replay.state import DealState, Stacks

PLAYERS = 4
"""The main game's players: four in two teams (the default; a variant's come from its shape)."""
TRICKS = 8
CARDS_PER_TRICK = 4
PILES = 4
"""Table piles per seat that has table cards, each a face-down card under a face-up one."""
GRID_RANKS = (Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE, Rank.TEN)
"""The grid's columns: ranks in trick order, the manille (10) last."""
GRID: tuple[tuple[Card, ...], ...] = tuple(tuple(Card.of(rank, suit) for rank in GRID_RANKS) for suit in Suit)
"""The 32-card grid, one row per suit (harten, koeken, klaveren, schoppen)."""
GRID_36: tuple[tuple[Card, ...], ...] = tuple(
    tuple(Card.of(rank, suit) for rank in (Rank.SIX, *GRID_RANKS)) for suit in Suit
)
"""The six-player game's grid: the 6s first in each row."""


def grid_of(rules: Rules) -> tuple[tuple[Card, ...], ...]:
    """The grid of the variant's deck: 32 cards, or 36 with the 6s (``six``).

    >>> len(grid_of(Rules(variant="six"))[0]), len(grid_of(Rules())[0])
    (9, 8)
    """
    return GRID_36 if rules.shape.deck_mask == DECK_36_MASK else GRID


CONTRACT_CALLS = ("trump", "muil", "blind_muil")
KNOCK_CALLS = ("klop", "tegenklop")


class RecordingError(ManillenError):
    """A tap the draft cannot take (a card the seat does not hold, a call out of turn).

    Its words are the label ``refuse.<key>`` of :mod:`dashboards.i18n`, so the Record page says
    them in the reader's language (:meth:`said`); ``str()`` is the English. A value that is a
    :class:`Words` (a slot's name, another refusal given as the reason) or a suit is said in the
    same language; anything else as it prints.
    """

    def __init__(self, key: str, **values: Any) -> None:
        self.words = Words(f"refuse.{key}", values)
        super().__init__(self.said("en"))

    def said(self, lang: str) -> str:
        return self.words.said(lang)


@dataclass(frozen=True)
class Words:
    """A label of :mod:`dashboards.i18n` and its values, to be said in a language."""

    key: str
    values: dict[str, Any] = field(default_factory=dict)

    def said(self, lang: str) -> str:
        return i18n.text(self.key, lang, **{k: _said(v, lang, k) for k, v in self.values.items()})


def _said(value: Any, lang: str, name: str = "") -> Any:
    """A value as the page writes it: a card with its suit's symbol (``10♥``, as the grid shows
    it), a suit by its name in ``lang``."""
    if isinstance(value, (Words, RecordingError)):
        return value.said(lang)
    if isinstance(value, Suit):
        return value.dutch if lang == "nl" else value.english
    if isinstance(value, Card) or (name == "card" and isinstance(value, str) and value in CARD_BY_TEXT):
        return CARD_BY_TEXT[str(value)].symbol
    return value


class UnknownCardError(RecordingError, InvalidCardError):
    """A typed card that names no card, or one the game's pack has not."""


def said(error: ManillenError, lang: str) -> str:
    """Why a tap was refused, in ``lang`` where the words are the Record page's own (the engine's
    reasons and the record format's stay in English)."""
    return error.said(lang) if isinstance(error, RecordingError) else str(error)


@dataclass
class Setup:
    """Who plays, where and when, and under which variant and house rules."""

    match_id: str
    """The archive's id of the match (made unique against the archive when set up)."""
    seats: list[str]
    """The players' names clockwise, seat 0 first (in the main game Anna and Carla against Bert
    and Dirk); as many as the variant has people (the dummy of ``three_dummy`` has no name)."""
    date: str = ""
    """ISO date, empty when not given."""
    venue: str = ""
    event: str = ""
    rules: dict[str, Any] = field(default_factory=dict)
    """House-rule options as the record format writes them (``Rules.to_options``)."""
    first_dealer: int = PLAYERS - 1
    """Who deals the first deal (by default the last seat, so seat 0 leads)."""
    blocks: list[list[str]] | None = None
    """A club evening's table (``format: fixed``): the seating of each block, partners rotating
    (the first is ``seats``); ``None`` for a match without blocks."""
    scoresheet_only: bool = False
    """The table keeps only the scoresheet: the page opens on the scoresheet line."""
    table: str = ""
    """The club table it is recorded at (its number): a table's recorder sees and records only
    that table's drafts. Empty for a match without a table."""
    variant: str = "four"
    """The record format's ``match.variant`` (a draft written before variants were recorded is
    the main game)."""

    def rules_value(self) -> Rules:
        """The variant and house rules as the engine takes them.

        :raises InvalidOptionError: for an option the rules do not know.
        """
        return Rules.from_options({**self.rules, "variant": self.variant})


@dataclass
class DealDraft:
    """The deal being entered."""

    dealer: int
    calls: list[dict[str, Any]] = field(default_factory=list)
    """Declarations in the order spoken, as the record format writes them (``seat``, ``call``, ``suit``)."""
    hands: list[list[str]] | None = None
    """The hands as dealt, when someone typed or tapped them; ``None`` when unknown. One list a
    seat holding cards (the dummy's hand of ``three_dummy`` stays empty)."""
    plays: list[str] = field(default_factory=list)
    """Every card in the order played (trick after trick)."""
    score: dict[str, int] | None = None
    """A scoresheet line (``team``, ``points``); with ``tie`` for a 30-30."""
    written: dict[str, int] | None = None
    """What the scoresheet says for a deal entered card by card (optional; same form as ``score``):
    the engine compares it with the cards, and a wrong line becomes a ``score_mismatch`` finding."""
    table: list[list[str]] | None = None
    """The table cards of the variants that have them, one list a seat: pile by pile, the
    face-down card then the face-up one on it (``None`` until tapped or typed)."""
    discards: list[str] | None = None
    """The laid-aside cards of ``three`` and ``six_short`` (``None`` until tapped or typed)."""
    turned: str | None = None
    """The dealer's turned last card, whose suit is trump (house rule ``trump_choice:
    turned_card``); ``None`` when not given."""
    moves: list[int] = field(default_factory=list)
    """The two-player game's moves of a 3rd pile's top card to the emptied 4th place: each is
    the number of cards played before it (the move comes just before the next card)."""


@dataclass
class Draft:
    """A match being recorded: the set-up, the finished deals and the deal being entered."""

    draft_id: str
    setup: Setup
    deals: list[dict[str, Any]] = field(default_factory=list)
    """Finished deals as ``manillen/1`` deal objects (already validated and saved)."""
    current: DealDraft | None = None
    updated: str = ""
    """When it was last changed (ISO time), to sort the drafts offered for resuming."""
    reopened: int | None = None
    """The index in ``deals`` of the saved deal ``current`` corrects; ``None`` for a new deal."""
    parked: DealDraft | None = None
    """The new deal put aside while a saved deal is reopened, taken up again once it is saved."""
    version: int = 0
    """How many times the draft file was written: a phone that writes over a version it has not
    read (another phone at the same table wrote meanwhile) is told (``drafts.save``)."""

    @property
    def index(self) -> int:
        """Where ``current`` goes in the match: its reopened place, or after the saved deals."""
        return len(self.deals) if self.reopened is None else self.reopened

    @property
    def number(self) -> int:
        """The number of the deal being entered (counted from 1)."""
        return self.index + 1

    def to_json(self) -> str:
        """The draft as JSON (what a draft file holds)."""
        return json.dumps(asdict(self), ensure_ascii=False, indent=1)

    @classmethod
    def from_json(cls, text: str) -> Draft:
        """A draft read back from :meth:`to_json`.

        :raises RecordingError: when the text is not a draft.
        """
        try:
            raw = json.loads(text)
            setup = Setup(**raw["setup"])
            current = DealDraft(**raw["current"]) if raw.get("current") else None
            parked = DealDraft(**raw["parked"]) if raw.get("parked") else None
            return cls(
                raw["draft_id"],
                setup,
                list(raw.get("deals", [])),
                current,
                raw.get("updated", ""),
                raw.get("reopened"),
                parked,
                int(raw.get("version", 0)),
            )
        except (ValueError, KeyError, TypeError) as error:
            raise RecordingError("not_draft", message=error) from None


# --------------------------------------------------------------------------- set-up


def slug(text: str) -> str:
    """A name made safe for an id: lower case ASCII words joined by dashes.

    >>> slug("Café 't Hoekske, Kortrijk")
    'cafe-t-hoekske-kortrijk'
    """
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")


def suggest_match_id(date: str, venue: str, taken: Sequence[str]) -> str:
    """An id for a new match from its date and venue, not one of ``taken``.

    >>> suggest_match_id("2026-11-28", "De Zwaan", ["2026-11-28-de-zwaan-1"])
    '2026-11-28-de-zwaan-2'
    """
    stem = "-".join(part for part in (date, slug(venue)) if part) or "match"
    number = 1
    while f"{stem}-{number}" in taken:
        number += 1
    return f"{stem}-{number}"


def rename(draft: Draft, match_id: str) -> Draft:
    """The draft with another match id (the archive held another match under its own)."""
    return replace(draft, setup=replace(draft.setup, match_id=match_id))


def new_draft(draft_id: str, setup: Setup) -> Draft:
    """A draft for a new match: its first deal starts with the first dealer.

    Names follow the record format's rule (:func:`~manillen_replay.record.model.seat_name_problems`):
    distinct in more than case, none called ``dummy``; a name of two words is written quoted in
    the text notation.

    :raises RecordingError: for a set-up the engine would refuse (names, rules).
    """
    names = [name.strip() for name in setup.seats]
    try:
        people = setup.rules_value().shape.people
    except ManillenError as error:
        raise RecordingError("engine", message=error) from None
    if len(names) != people or any(not name for name in names):
        raise RecordingError("players_needed", people=people)
    # the record format's one rule for names (JSON and the text notation take the same)
    problems = seat_name_problems(names)
    if problems:
        raise RecordingError("engine", message=problems[0][1])
    setup = replace(setup, seats=names)
    setup.rules_value()  # the rules must be ones the engine knows
    return Draft(draft_id, setup, [], DealDraft(dealer=setup.first_dealer))


def seating(draft: Draft) -> list[str]:
    """The names in seat order for the deal being entered: a club table's partners rotate from
    block to block (each block is ``rules.deals`` deals, redeals not counted).

    >>> setup = Setup("m", ["A", "B", "C", "D"], rules={"format": "fixed", "deals": 1},
    ...               blocks=[["A", "B", "C", "D"], ["A", "C", "B", "D"]])
    >>> draft = Draft("d", setup, [{"dealer": 3, "recorded_score": {"team": 0, "points": 4}}])
    >>> seating(draft)
    ['A', 'C', 'B', 'D']
    """
    number = block_of(draft)
    return draft.setup.seats if number is None or not draft.setup.blocks else draft.setup.blocks[number]


def block_of(draft: Draft) -> int | None:
    """The block (counted from 0) of the deal being entered at a club table, ``None`` elsewhere."""
    blocks = draft.setup.blocks
    if not blocks:
        return None
    played = sum(
        not any(call.get("call") == "redeal" for call in deal.get("declarations", []))
        for deal in draft.deals[: draft.index]
    )
    per_block = max(draft.setup.rules_value().deals, 1)
    return min(played // per_block, len(blocks) - 1)


# --------------------------------------------------------------------------- the cards dealt


@dataclass(frozen=True)
class Slot:
    """One place the dealt cards are tapped or typed into: a seat's hand, a seat's table piles
    (face-down then face-up, pile by pile) or the laid-aside cards."""

    kind: str
    """``hand``, ``table`` or ``discards``."""
    seat: int | None
    """The seat whose hand or table it is; ``None`` for the laid-aside cards."""
    size: int
    """How many cards it takes."""


def slots(rules: Rules) -> list[Slot]:
    """Where the dealt cards go, in the order they are tapped in: the table piles (what lies
    open first), then the hands, then the laid-aside cards; the last is filled with the cards left.

    >>> [(s.kind, s.seat, s.size) for s in slots(Rules(variant="three_dummy"))]
    [('table', 3, 8), ('hand', 0, 8), ('hand', 1, 8), ('hand', 2, 8)]
    >>> [(s.kind, s.seat, s.size) for s in slots(Rules(variant="three"))][-1]
    ('discards', None, 2)
    """
    shape = rules.shape
    tables = [Slot("table", seat, 2 * PILES) for seat in range(shape.players) if shape.holds_table(seat)]
    hands = [Slot("hand", seat, shape.hand_size) for seat in range(shape.people)]
    discards = [Slot("discards", None, shape.discards)] if shape.discards else []
    return tables + hands + discards


def slot_cards(deal: DealDraft, slot: Slot) -> list[str]:
    """The cards tapped into a slot so far."""
    if slot.kind == "discards":
        return list(deal.discards or [])
    held = deal.table if slot.kind == "table" else deal.hands
    assert slot.seat is not None
    return list(held[slot.seat]) if held and slot.seat < len(held) else []


def _with_slot(deal: DealDraft, slot: Slot, cards: list[str], rules: Rules) -> DealDraft:
    if slot.kind == "discards":
        return replace(deal, discards=cards or None)
    players = rules.shape.players
    assert slot.seat is not None
    if slot.kind == "table":
        table = [list(p) for p in deal.table] if deal.table else [[] for _ in range(players)]
        table[slot.seat] = cards
        return replace(deal, table=table if any(table) else None)
    hands = [list(h) for h in deal.hands] if deal.hands else [[] for _ in range(players)]
    hands[slot.seat] = cards
    return replace(deal, hands=hands if any(hands) else None)


def piles_of(cards: Sequence[str]) -> list[list[str]]:
    """A seat's table cards (face-down, face-up, pile by pile) as the record's piles.

    >>> piles_of(["7S", "10S", "QS", "KD"])
    [['7S', '10S'], ['QS', 'KD']]
    """
    return [list(cards[i : i + 2]) for i in range(0, len(cards), 2)]


@dataclass(frozen=True)
class Dealt:
    """Every card of the deal placed: the hands, the table piles and the laid-aside cards."""

    hands: tuple[int, ...]
    table: tuple[Stacks, ...]
    """Each seat's piles (bottom to top); ``()`` in the variants without table cards."""
    discards: int


def dealt_of(deal: DealDraft, rules: Rules) -> Dealt | None:
    """The deal's cards as masks, ``None`` unless every slot is full and the deck is dealt once."""
    shape = rules.shape
    texts = [slot_cards(deal, slot) for slot in slots(rules)]
    if any(len(cards) != slot.size for cards, slot in zip(texts, slots(rules), strict=True)):
        return None
    every = [CARD_BY_TEXT[c] for cards in texts for c in cards]
    if len(every) != len(set(every)) or mask_of(every) != shape.deck_mask:
        return None
    hands = tuple(
        mask_of(CARD_BY_TEXT[c] for c in (deal.hands or [])[seat]) if seat < shape.people else 0
        for seat in range(shape.players)
    )
    return Dealt(hands, _stacks(deal, rules), mask_of(CARD_BY_TEXT[c] for c in deal.discards or []))


def _stacks(deal: DealDraft, rules: Rules) -> tuple[Stacks, ...]:
    """The table piles as the deal state takes them, ``()`` unless every seat's are all in."""
    shape = rules.shape
    if shape.table_seats == "none" or not deal.table:
        return ()
    table = list(deal.table) + [[] for _ in range(shape.players - len(deal.table))]
    if any(len(table[s]) != (2 * PILES if shape.holds_table(s) else 0) for s in range(shape.players)):
        return ()
    return tuple(
        tuple(tuple(CARD_BY_TEXT[c] for c in pile) for pile in piles_of(table[s]))
        for s in range(shape.players)
    )


def missing_dealt(deal: DealDraft, rules: Rules) -> list[str]:
    """What the record of a deal played out still needs of the cards dealt: ``table`` (the table
    piles of the games that have them) and ``discards`` (the cards laid aside).

    >>> missing_dealt(DealDraft(0), Rules(variant="three"))
    ['discards']
    """
    shape = rules.shape
    missing = []
    if shape.table_seats != "none" and not _stacks(deal, rules):
        missing.append("table")
    if shape.discards and len(deal.discards or []) != shape.discards and not _unplayed(deal, rules):
        missing.append("discards")
    return missing


def _unplayed(deal: DealDraft, rules: Rules) -> list[str]:
    """The cards laid aside of a deal played out without them: the cards nobody played (they
    lay aside the whole deal); none before the last trick is in."""
    shape = rules.shape
    if not shape.discards or len(deal.plays) != shape.tricks * shape.trick_size:
        return []
    left = shape.deck_mask & ~mask_of(CARD_BY_TEXT[c] for c in deal.plays)
    return [CARD_TEXT[card] for card in iter_mask(left)] if left.bit_count() == shape.discards else []


def hand_masks(hands: Sequence[Sequence[str]] | None) -> tuple[int, ...] | None:
    """The main game's hands as masks, ``None`` unless all four are full (32 different cards)."""
    if hands is None or len(hands) != PLAYERS or any(len(h) != TRICKS for h in hands):
        return None
    return dealt.hands if (dealt := dealt_of(DealDraft(0, hands=[list(h) for h in hands]), Rules())) else None


# --------------------------------------------------------------------------- the table


@dataclass(frozen=True)
class Play:
    """One card as tapped, as the engine sees it."""

    seat: int
    card: Card
    legal: LegalPlays | None
    """What the seat could play (``None`` when the hands are not known)."""
    violation: ViolationKind | None
    """The rule the card broke (only known with the hands)."""


@dataclass(frozen=True)
class Trick:
    """A trick on the table or finished."""

    number: int
    """Counted from 1."""
    leader: int
    plays: tuple[Play, ...]
    winner: int | None
    """Who took it, once it has all its cards."""
    points: int | None
    """Its card points, once finished."""


@dataclass(frozen=True)
class Table:
    """The deal being entered, as the engine sees it after the cards tapped so far."""

    tricks: tuple[Trick, ...]
    """Every trick started, the last one possibly under way."""
    to_play: int | None
    """Who plays next; ``None`` when every trick is in (or trump is not made yet)."""
    legal: LegalPlays | None
    """What the seat to play may play (only with the hands)."""
    played: frozenset[Card]
    taken: tuple[int, int]
    """Card points each side took in finished tricks (and the laid-aside cards, once known)."""
    trump: Suit | None
    contract: str | None
    """``trump``, ``muil`` or ``blind_muil``; ``None`` until it is called."""
    redeal: bool
    deal_tricks: int = TRICKS
    """How many tricks the variant's deal has."""
    deal_cards: int = TRICKS * CARDS_PER_TRICK
    """How many cards are played in the variant's deal."""
    moves: tuple[tuple[int, int, int], ...] = ()
    """``(trick, play, seat)`` of each card moved from a 3rd pile to an emptied 4th place just
    before that seat's play (the two-player game): the record's ``table_moves``."""
    open_cards: tuple[frozenset[Card], ...] = ()
    """Each seat's face-up table cards now (empty without table cards, or before they are in)."""
    can_move: bool = False
    """Whether the seat to play may now move its 3rd pile's top card to its emptied 4th place."""
    dealt_on_table: frozenset[Card] = frozenset()
    """Every card dealt onto the table piles (empty until they are in)."""
    under_move: Card | None = None
    """The face-down card under the 3rd pile's top of the seat to play, when that top may be
    moved to the emptied 4th place: tapped, it is played with the move made just before."""

    @property
    def complete(self) -> bool:
        """Whether every trick is in."""
        return len(self.tricks) == self.deal_tricks and self.tricks[-1].winner is not None

    @property
    def cards_played(self) -> int:
        """How many cards are tapped."""
        return sum(len(t.plays) for t in self.tricks)

    def illegal(self) -> list[tuple[int, Play]]:
        """``(trick number, play)`` of every card that broke a rule of play."""
        return [(t.number, p) for t in self.tricks for p in t.plays if p.violation is not None]


def contract_of(calls: Sequence[dict[str, Any]]) -> tuple[str | None, Suit | None]:
    """The contract called (``trump``, ``muil``, ``blind_muil`` or ``None``) and the trump suit."""
    for call in calls:
        if call["call"] in CONTRACT_CALLS:
            return call["call"], Suit[call["suit"]] if call["call"] == "trump" else None
    return None, None


def _start(deal: DealDraft, rules: Rules, trump: Suit | None) -> tuple[DealState, bool]:
    """The deal state before the lead, and whether every card's place is known.

    Cards whose place is not known yet are taken to be in every hand: the state still says who
    is to play and who takes each trick; only the legal cards are then unknown.
    """
    shape = rules.shape
    dealt = dealt_of(deal, rules)
    known = dealt is not None
    if dealt is not None:
        hands, stacks, discards = dealt.hands, dealt.table, dealt.discards
    else:
        stacks = _stacks(deal, rules)
        discards = mask_of(CARD_BY_TEXT[c] for c in deal.discards or []) if deal.discards else 0
        on_table = mask_of(CARD_BY_TEXT[c] for piles in deal.table or [] for c in piles) if stacks else 0
        rest = shape.deck_mask & ~on_table & ~discards
        hands = tuple(0 if stacks and seat >= shape.people else rest for seat in range(shape.players))
    taken = [0, 0]
    if discards and len(deal.discards or []) == shape.discards:
        taken[1 - shape.team_of(chooser(deal, rules), deal.dealer)] += sum(
            CARD_POINTS[c] for c in CardSet(discards)
        )
    state = DealState.start(
        rules, deal.dealer, None if trump is None else int(trump), hands, stacks, (taken[0], taken[1])
    )
    return state, known


def table_of(deal: DealDraft, rules: Rules) -> Table:
    """The table after the cards tapped so far, stepped through the engine's deal state.

    A card lying face down under a 3rd pile's top while the 4th place is empty is played after
    moving that top card to the empty place (the only way it can be played).

    :raises IllegalPlayError: for a card the seat to play cannot hold (hands or table known).
    """
    shape = rules.shape
    contract, trump = contract_of(deal.calls)
    redeal = any(c["call"] == "redeal" for c in deal.calls)
    tricks_in, cards_in = shape.tricks, shape.tricks * shape.trick_size
    if contract is None:
        return Table((), None, None, frozenset(), (0, 0), None, None, redeal, tricks_in, cards_in)
    state, known = _start(deal, rules, trump)
    on_table = frozenset(Card(c) for piles in state.table for pile in piles for c in pile)
    tricks: list[Trick] = []
    current: list[Play] = []
    moves: list[tuple[int, int, int]] = []
    leader = state.to_play
    for index, text in enumerate(deal.plays):
        card = CARD_BY_TEXT[text]
        seat = state.to_play
        trick_number = state.tricks_done + 1
        if (index in deal.moves and state.can_move_to_empty_place(seat)) or _needs_move(state, seat, card):
            state = state.move_to_empty_place(seat)
            moves.append((trick_number, len(current) + 1, seat))
        legal = state.legal() if known else None
        violation = state.violation(card) if known and state.playable(seat) >> card & 1 else None
        if not current:
            leader = seat
        current.append(Play(seat, card, legal, violation))
        state = state.apply(card)
        if not state.trick:
            cards = [p.card for p in current]
            tricks.append(Trick(trick_number, leader, tuple(current), state.leader, trick_points(cards)))
            current = []
    if current:
        tricks.append(Trick(state.tricks_done + 1, leader, tuple(current), None, None))
    over = state.is_over
    moved = len(deal.plays) in deal.moves and not over and state.can_move_to_empty_place(state.to_play)
    if moved:  # moved before the next card: that card may be the one turned up
        state = state.move_to_empty_place(state.to_play)
    open_cards = tuple(frozenset(Card(pile[-1]) for pile in piles if pile) for piles in state.table)
    can_move = not over and not moved and state.can_move_to_empty_place(state.to_play)
    taken = state.taken
    if (
        rules.shape.discards
        and len(deal.discards or []) != rules.shape.discards
        and (left := _unplayed(deal, rules))
    ):
        # the cards nobody played lie aside, and count for the side that did not make trump (as
        # the save counts them): before, the two sides added up to 55 of 60 until they were typed
        side = 1 - rules.shape.team_of(chooser(deal, rules), deal.dealer)
        extra = sum(CARD_POINTS[CARD_BY_TEXT[c]] for c in left)
        taken = (taken[0] + extra, taken[1]) if side == 0 else (taken[0], taken[1] + extra)
    return Table(
        tricks=tuple(tricks),
        to_play=None if over else state.to_play,
        legal=state.legal() if known and not over else None,
        played=frozenset(CARD_BY_TEXT[c] for c in deal.plays),
        taken=taken,
        trump=trump,
        contract=contract,
        redeal=redeal,
        moves=tuple(moves),
        open_cards=open_cards,
        can_move=can_move,
        under_move=Card(state.table[state.to_play][2][-2]) if can_move else None,
        dealt_on_table=on_table,
        deal_tricks=tricks_in,
        deal_cards=cards_in,
    )


def _needs_move(state: DealState, seat: int, card: int) -> bool:
    """Whether ``card`` is the face-down card of the seat's 3rd pile, playable only once its top
    card is moved to the emptied 4th place."""
    if not state.can_move_to_empty_place(seat) or state.playable(seat) >> card & 1:
        return False
    return state.table[seat][2][-2] == card


# --------------------------------------------------------------------------- taps


def _current(draft: Draft) -> DealDraft:
    if draft.current is None:
        raise RecordingError("no_deal")
    return draft.current


def _checked_table(draft: Draft, deal: DealDraft) -> Table:
    """The table of ``deal``, or the first card the seat to play cannot take, refused in the
    players' names.

    :raises RecordingError: for a card not held, lying face down, or on another seat's table.
    """
    rules = draft.setup.rules_value()
    try:
        return table_of(deal, rules)
    except IllegalPlayError:
        pass
    state, _ = _start(deal, rules, contract_of(deal.calls)[1])
    names = seating(draft)
    for number, text in enumerate(deal.plays, start=1):
        card, seat = CARD_BY_TEXT[text], state.to_play
        if (number - 1 in deal.moves and state.can_move_to_empty_place(seat)) or _needs_move(
            state, seat, card
        ):
            state = state.move_to_empty_place(seat)
        if state.playable(seat) >> card & 1:
            state = state.apply(card)
            continue
        name = _seat_name(names, seat, deal.dealer)
        if state.table and any(card in pile for pile in state.table[seat]):
            raise RecordingError("face_down", card=card, name=name, number=number)
        if any(_open_mask(state, other) >> card & 1 for other in range(len(state.table))):
            raise RecordingError("open_elsewhere", card=card, name=name, number=number)
        raise RecordingError("not_held", card=card, name=name)
    raise RecordingError("dealt_unfit")


def _open_mask(state: DealState, seat: int) -> int:
    """A seat's face-up table cards in a deal state, as a mask."""
    return state.playable(seat) & ~state.hands[seat]


def play_card(draft: Draft, text: str) -> Draft:
    """The draft after the seat to play plays a card (an illegal one too: the record keeps it).

    :raises RecordingError: for a card already played, the deal over, trump not made yet, or
        (cards dealt known) a card the seat to play does not hold or that lies face down.
    """
    deal = _current(draft)
    rules = draft.setup.rules_value()
    card = _card(text, rules.shape.deck_mask)
    table = table_of(deal, rules)
    if table.contract is None:
        raise RecordingError("calls_first")
    if table.to_play is None:
        raise RecordingError("deal_over")
    if card in table.played:
        raise RecordingError("played_already", card=card)
    changed = replace(deal, plays=[*deal.plays, CARD_TEXT[card]])
    _checked_table(draft, changed)
    return replace(draft, current=changed)


def _card(text: str, deck: int = DECK_32_MASK) -> Card:
    card = CARD_BY_TEXT.get(text.strip())
    if card is None:
        raise UnknownCardError("unknown_card", text=repr(text))
    if not deck >> card & 1:
        raise UnknownCardError("not_in_pack", card=card)
    return card


def move_to_empty_place(draft: Draft) -> Draft:
    """The draft with the seat to play moving its 3rd pile's top card to its emptied 4th place,
    turning up the card under it (the two-player game), before its next card.

    :raises RecordingError: when the seat to play has no such move (its 4th place is not empty,
        or its 3rd pile has no card under the top one, or the table piles are not in).
    """
    deal = _current(draft)
    table = table_of(deal, draft.setup.rules_value())
    if not table.can_move:
        raise RecordingError("no_move")
    return replace(draft, current=replace(deal, moves=sorted({*deal.moves, len(deal.plays)})))


def undo_card(draft: Draft) -> Draft:
    """The draft without the last card tapped (or the move made before the next card; with no
    card, without the last call)."""
    deal = _current(draft)
    if len(deal.plays) in deal.moves:
        return replace(draft, current=replace(deal, moves=[m for m in deal.moves if m != len(deal.plays)]))
    if deal.plays:
        kept = [m for m in deal.moves if m < len(deal.plays)]  # a move before this card stays
        return replace(draft, current=replace(deal, plays=deal.plays[:-1], moves=kept))
    if deal.calls:
        return replace(draft, current=replace(deal, calls=deal.calls[:-1]))
    return draft


def undo_trick(draft: Draft) -> Draft:
    """The draft without the trick under way, or without the last finished trick when none is."""
    deal = _current(draft)
    size = draft.setup.rules_value().shape.trick_size
    keep = (len(deal.plays) - 1) // size * size if deal.plays else 0
    return replace(
        draft, current=replace(deal, plays=deal.plays[:keep], moves=[m for m in deal.moves if m < keep])
    )


def edit_trick(draft: Draft, number: int, cards: Sequence[str]) -> Draft:
    """The draft with an earlier trick's cards replaced (in the order played).

    A card typed that another trick holds changes places with the card it replaces in this
    trick (a card recorded in the wrong trick).

    :raises RecordingError: for a trick not yet played, a wrong number of cards, a card typed
        twice, or a trick that cannot be so (a card its seat does not hold).
    """
    deal = _current(draft)
    rules = draft.setup.rules_value()
    size = rules.shape.trick_size
    start = (number - 1) * size
    if number < 1 or start >= len(deal.plays):
        raise RecordingError("trick_not_played", number=number)
    old = deal.plays[start : start + size]
    new = [CARD_TEXT[_card(c, rules.shape.deck_mask)] for c in cards]
    if len(new) != len(old):
        raise RecordingError("trick_size", number=number, size=len(old), count=len(new))
    twice = [c for c in new if new.count(c) > 1]
    if twice:
        raise RecordingError("typed_twice", card=twice[0], number=number)
    plays = [*deal.plays[:start], *new, *deal.plays[start + len(old) :]]
    # a card typed here that another trick holds swaps places with the card it replaced here:
    # a card recorded in the wrong trick is put right with one edit (editing either trick alone
    # found the other trick's copy, and no order of edits got out of it)
    spare = [c for c in old if c not in new]  # as many as the cards new here: no card is typed twice
    for place, card in enumerate(new):
        if card in old or card not in deal.plays:
            continue
        back = old[place] if old[place] in spare else spare[0]  # the card it took the place of
        spare.remove(back)
        plays[next(i for i, c in enumerate(plays) if c == card and not start <= i < start + len(old))] = back
    changed = replace(deal, plays=plays)
    try:  # with the cards dealt known, each card must be where the seat that plays it can take it
        table_of(changed, rules)
    except IllegalPlayError as error:
        raise RecordingError("trick_cannot", number=number, message=error) from None
    return replace(draft, current=changed)


def add_call(draft: Draft, seat: int, call: str, suit: str | None = None) -> Draft:
    """The draft with one more call; the engine checks it at once.

    :raises RecordingError: with the engine's reason for a call out of order or by the wrong seat.
    """
    deal = _current(draft)
    entry: dict[str, Any] = {"seat": seat, "call": call}
    if suit is not None:
        entry["suit"] = suit
    changed = replace(draft, current=replace(deal, calls=[*deal.calls, entry], plays=list(deal.plays)))
    problems = [p for p in check_deal(changed, allow_unfinished=True) if "/declarations" in p.pointer]
    if problems:
        raise RecordingError("engine", message=problems[0].message)
    return changed


def set_turned(draft: Draft, text: str | None) -> Draft:
    """The draft with the dealer's turned last card (``None`` or empty to forget it); under
    ``trump_choice: turned_card`` its suit is trump.

    :raises RecordingError: without that house rule, or for a card that is not one, or one whose
        suit is not the trump already made.
    """
    deal = _current(draft)
    rules = draft.setup.rules_value()
    if not text or not text.strip():
        return replace(draft, current=replace(deal, turned=None))
    if rules.trump_choice != "turned_card":
        raise RecordingError("turned_needs_rule")
    card = _card(text, rules.shape.deck_mask)
    _, trump = contract_of(deal.calls)
    if trump is not None and card.suit is not trump:
        raise RecordingError("turned_other_suit", card=card, suit=card.suit, trump=trump)
    return replace(draft, current=replace(deal, turned=CARD_TEXT[card]))


def chooser(deal: DealDraft, rules: Rules | None = None) -> int:
    """Who makes trump: the dealer, the partner once the dealer called en face, or in
    ``six_short`` the teammate the choice was passed to."""
    shape = (rules or Rules()).shape
    seat = deal.dealer
    for call in deal.calls:
        if call["call"] == "en_face":
            partner = shape.partner_of(deal.dealer)
            seat = seat if partner is None else partner  # seat 0 is a partner too
        elif call["call"] == "pass":
            seat = (seat + 2) % shape.players
    return seat


def knockers(deal: DealDraft, rules: Rules) -> tuple[str, list[int]]:
    """The knock that can come next (``klop`` or ``tegenklop``) and who may call it; no one once
    klop and tegenklop are called without eternal knocking.

    >>> knockers(DealDraft(0, calls=[{"seat": 0, "call": "trump", "suit": "H"}]), Rules(variant="three"))
    ('klop', [1, 2])
    """
    shape = rules.shape
    knocks = [c for c in deal.calls if c["call"] in KNOCK_CALLS]
    if len(knocks) >= 2 and not rules.eternal_klop:
        return "klop", []
    dealing = shape.team_of(deal.dealer, deal.dealer)
    if len(knocks) % 2 == 0:
        return "klop", [s for s in range(shape.people) if may_klop(rules, s, deal.dealer)]
    return "tegenklop", [s for s in range(shape.people) if shape.team_of(s, deal.dealer) == dealing]


def set_hands(
    draft: Draft,
    hands: Sequence[Sequence[str]] | None,
    table: Sequence[Sequence[str]] | None = None,
    discards: Sequence[str] | None = None,
) -> Draft:
    """The draft with the cards as dealt: the hands, and in the variants that have them the
    table cards (face-down, face-up, pile by pile) and the laid-aside cards. ``None`` for all
    three forgets them.

    :raises RecordingError: for a card unknown or dealt twice, a slot of the wrong size, or a
        card played that the cards dealt do not allow.
    """
    deal = _current(draft)
    rules = draft.setup.rules_value()
    if hands is None and table is None and discards is None:
        return replace(draft, current=replace(deal, hands=None, table=None, discards=None))
    deck = rules.shape.deck_mask
    canonical = replace(deal, hands=None, table=None, discards=None)
    given: dict[str, Any] = {"hand": hands, "table": table, "discards": discards}
    seen: set[str] = set()
    for slot in slots(rules):
        source = given[slot.kind]
        if source is None:
            continue
        cards = [CARD_TEXT[_card(c, deck)] for c in (source if slot.seat is None else source[slot.seat])]
        if len(cards) != slot.size:
            raise RecordingError("slot_size", slot=_slot_name(draft, slot), count=len(cards), size=slot.size)
        for card in cards:
            if card in seen:
                raise RecordingError("dealt_twice", card=card)
            seen.add(card)
        canonical = _with_slot(canonical, slot, cards, rules)
    try:
        _checked_table(draft, canonical)
    except RecordingError as error:
        raise RecordingError("dealt_unfit_because", reason=error) from None
    return replace(draft, current=canonical)


def parse_hand(text: str) -> list[str]:
    """A hand typed as cards separated by spaces or commas (``10H AH 7♥ ...``), canonical.

    >>> parse_hand("10h, a♥ 7H")
    ['10H', 'AH', '7H']

    :raises InvalidCardError: for a word that is not a card.
    """
    return [CARD_TEXT[_card(word, DECK_36_MASK)] for word in re.split(r"[\s,;]+", text) if word]


def slot_being_tapped(deal: DealDraft, rules: Rules | None = None) -> Slot | None:
    """The slot being tapped in (the first not full), ``None`` when all are full."""
    return next((s for s in slots(rules or Rules()) if len(slot_cards(deal, s)) < s.size), None)


def set_dealer(draft: Draft, number: int, dealer: int) -> bool:
    """Deal ``number``'s dealer chosen; ``False`` (nothing changed) when that deal is no longer
    the one being recorded (saved since: a picker sent again from the page before) or is under
    way (its calls or cards are in)."""
    deal = draft.current
    if deal is None or draft.number != number or deal.calls or deal.plays:
        return False
    deal.dealer = dealer
    return True


def part_dealt(deal: DealDraft, rules: Rules | None = None) -> Slot | None:
    """The first place the cards dealt were begun in and not finished (Anna's hand with 3 of its
    8 cards), ``None`` when there is none: what was tapped there is no hand the deal can keep."""
    return next((s for s in slots(rules or Rules()) if 0 < len(slot_cards(deal, s)) < s.size), None)


def dealing_under_way(deal: DealDraft, rules: Rules | None = None) -> bool:
    """Whether the cards dealt are being tapped in: some are in, not all, and no card is played
    yet. A page opened again on such a deal (a reload, a phone that slept) goes on tapping them,
    instead of taking the next card tapped for the first card played."""
    if deal.plays or slot_being_tapped(deal, rules) is None:
        return False
    return any(slot_cards(deal, slot) for slot in slots(rules or Rules()))


def hand_being_tapped(deal: DealDraft) -> int | None:
    """The main game's seat whose hand is being tapped in, ``None`` when all four are full."""
    slot = slot_being_tapped(deal)
    return None if slot is None else slot.seat


def tap_hand_card(draft: Draft, text: str) -> Draft:
    """The draft with one more card in the slot being tapped in (table piles, hands, laid-aside
    cards in the order of :func:`slots`); the last slot is then the cards left.

    :raises RecordingError: once a card is played, for a card already placed, or when every
        slot is full.
    """
    deal = _current(draft)
    rules = draft.setup.rules_value()
    if deal.plays:
        raise RecordingError("tap_before_play")
    card = CARD_TEXT[_card(text, rules.shape.deck_mask)]
    every = slots(rules)
    for placed in every:
        if card in slot_cards(deal, placed):
            raise RecordingError("placed_already", card=card, slot=_slot_name(draft, placed))
    slot = slot_being_tapped(deal, rules)
    if slot is None:
        raise RecordingError("all_dealt_in")
    changed = _with_slot(deal, slot, [*slot_cards(deal, slot), card], rules)
    open_slots = [s for s in every if len(slot_cards(changed, s)) < s.size]
    if len(open_slots) == 1 and not slot_cards(changed, open_slots[0]):
        changed = _with_slot(changed, open_slots[0], rest_of(changed, rules), rules)
    return replace(draft, current=changed)


def _seat_name(names: Sequence[str], seat: int, dealer: int) -> str | Words:
    """Who a refusal names for a seat: its player, or for the dummy's seat, which has no name of
    its own, the dealer who plays it ("Anna's dummy": "?" and "the dummy" said nobody)."""
    return names[seat] if seat < len(names) else Words("replay.dummy_of", {"name": names[dealer]})


def _slot_name(draft: Draft, slot: Slot) -> Words:
    if slot.seat is None:
        return Words("record.needed_discards")
    dealer = draft.current.dealer if draft.current is not None else draft.setup.first_dealer
    name = _seat_name(seating(draft), slot.seat, dealer)
    return Words("refuse.slot_table" if slot.kind == "table" else "refuse.slot_hand", {"name": name})


def untap_hand_card(draft: Draft) -> Draft:
    """The draft without the last card tapped in (the filled-in last slot goes too)."""
    deal = _current(draft)
    rules = draft.setup.rules_value()
    if deal.plays:
        return draft
    every = slots(rules)
    if slot_being_tapped(deal, rules) is None:
        deal = _with_slot(deal, every[-1], [], rules)
    for slot in reversed(every):
        cards = slot_cards(deal, slot)
        if cards:
            deal = _with_slot(deal, slot, cards[:-1], rules)
            break
    return replace(draft, current=deal)


def rest_of(deal: DealDraft, rules: Rules) -> list[str]:
    """The cards of the deck not yet tapped into any slot, in grid order."""
    held = {c for slot in slots(rules) for c in slot_cards(deal, slot)}
    return [CARD_TEXT[c] for row in grid_of(rules) for c in row if CARD_TEXT[c] not in held]


def last_hand(hands: Sequence[Sequence[str]]) -> list[str]:
    """The fourth hand when three are known: the cards nobody else holds, in grid order."""
    held = {c for hand in hands for c in hand}
    return [CARD_TEXT[c] for row in GRID for c in row if CARD_TEXT[c] not in held]


def side_names(names: Sequence[str], side: int, dealer: int, rules: Rules) -> list[str]:
    """Who plays for a side (0 or 1) in a deal dealt by ``dealer``.

    >>> side_names(["A", "B", "C"], 1, 0, Rules(variant="three"))
    ['B', 'C']
    """
    shape = rules.shape
    return [names[s] for s in range(shape.people) if shape.team_of(s, dealer) == side]


def scorer_names(names: Sequence[str], rules: Rules) -> list[str]:
    """The columns of the match score: the two teams, or each person in the three-player games.

    >>> scorer_names(["A", "B", "C", "D", "E", "F"], Rules(variant="six"))
    ['A & C & E', 'B & D & F']
    """
    shape = rules.shape
    if shape.scorers != 2:
        return list(names[: shape.people])
    return [" & ".join(side_names(names, side, 0, rules)) for side in (0, 1)]


def short_names(names: Sequence[str]) -> dict[str, str]:
    """Each player's first name (the first word) for a scoresheet a phone must fit, unless two
    players would then share one: the full names.

    >>> short_names(["Anna-Maria Vandenbroucke", "Bert", "Carla"])["Anna-Maria Vandenbroucke"]
    'Anna-Maria'
    >>> short_names(["Jan Peeters", "Jan Claes"])["Jan Claes"]
    'Jan Claes'
    """
    first = {name: (name.split() or [name])[0] for name in names}
    if len(set(first.values())) < len(set(names)):
        return {name: name for name in names}
    return first


# --------------------------------------------------------------------------- finishing a deal


def deal_object(deal: DealDraft, rules: Rules | None = None) -> dict[str, Any]:
    """The deal as a ``manillen/1`` deal object (unfinished tricks included).

    The cards dealt go in once every slot is full. In the variants with table cards the record
    needs the hands as well: once the table piles are in and every trick is played, each hand
    is the cards its seat played from the hand (the cards played less its table cards).
    """
    rules = rules or Rules()
    shape = rules.shape
    out: dict[str, Any] = {"dealer": deal.dealer}
    hands = deal.hands if dealt_of(deal, rules) is not None else _hands_from_plays(deal, rules)
    if hands is not None:  # cards half tapped in are not part of the record yet
        out["hands"] = [list(h) for h in hands] + [[] for _ in range(shape.players - len(hands))]
        if shape.table_seats != "none":
            table = list(deal.table or [])
            out["table"] = [piles_of(table[s]) if s < len(table) else [] for s in range(shape.players)]
    if deal.discards and len(deal.discards) == shape.discards:
        out["discards"] = list(deal.discards)
    if deal.turned is not None:
        out["turned"] = deal.turned
    if deal.calls:
        out["declarations"] = deal.calls
    if deal.score is not None:
        out["recorded_score"] = _recorded(deal.score)
        return out
    if deal.plays:
        size = shape.trick_size
        out["tricks"] = [deal.plays[i : i + size] for i in range(0, len(deal.plays), size)]
        moves = _moves(deal, rules)
        if moves:
            out["table_moves"] = [{"seat": seat, "trick": trick, "play": play} for trick, play, seat in moves]
    if deal.written is not None:
        out["recorded_score"] = _recorded(deal.written)
    return out


def _moves(deal: DealDraft, rules: Rules) -> tuple[tuple[int, int, int], ...]:
    if rules.shape.table_seats == "none" or not _stacks(deal, rules):
        return ()
    try:
        return table_of(deal, rules).moves
    except IllegalPlayError:
        return ()


def _hands_from_plays(deal: DealDraft, rules: Rules) -> list[list[str]] | None:
    """The hands of a table variant's deal played out, from its table piles and its plays."""
    shape = rules.shape
    if shape.table_seats == "none" or not _stacks(deal, rules) or deal.score is not None:
        return None
    try:
        table = table_of(deal, rules)
    except IllegalPlayError:
        return None
    if not table.complete:
        return None
    on_table = {c for piles in deal.table or [] for c in piles}
    hands: list[list[str]] = [[] for _ in range(shape.players)]
    for trick in table.tricks:
        for play in trick.plays:
            if CARD_TEXT[play.card] not in on_table:
                hands[play.seat].append(CARD_TEXT[play.card])
    return hands


def _recorded(line: dict[str, int]) -> dict[str, int] | None:
    """A scoresheet line as the record's ``recorded_score`` (``None`` is a 30-30)."""
    return None if line.get("tie") else {"team": line["team"], "points": line["points"]}


def deal_draft(deal: dict[str, Any]) -> DealDraft:
    """A saved deal object (as :func:`deal_object` wrote it) back as a deal to edit."""
    plays = [card for trick in deal.get("tricks", []) for card in trick]
    line: dict[str, int] | None = None
    if "recorded_score" in deal:
        recorded = deal["recorded_score"]
        line = {"tie": 1} if recorded is None else {"team": recorded["team"], "points": recorded["points"]}
    sheet_only = line is not None and "tricks" not in deal
    table = [[c for pile in piles for c in pile] for piles in deal["table"]] if deal.get("table") else None
    starts = [0]
    for trick in deal.get("tricks", []):
        starts.append(starts[-1] + len(trick))
    moves = [starts[m["trick"] - 1] + m.get("play", 1) - 1 for m in deal.get("table_moves", [])]
    return DealDraft(
        dealer=int(deal["dealer"]),
        calls=[dict(call) for call in deal.get("declarations", [])],
        hands=[list(hand) for hand in deal["hands"]] if deal.get("hands") else None,
        plays=plays,
        score=line if sheet_only else None,
        written=None if sheet_only else line,
        table=table,
        discards=list(deal["discards"]) if deal.get("discards") else None,
        turned=deal.get("turned"),
        moves=moves,
    )


def to_record(draft: Draft, *, with_current: bool = True) -> Record:
    """The match recorded so far as a ``manillen/1`` record, decoded by the record layer.

    :raises InvalidRecordError: for a draft that does not make a record (a bad set-up).
    """
    setup = draft.setup
    match: dict[str, Any] = {"id": setup.match_id, "seats": setup.seats}
    if setup.variant != "four":
        match["variant"] = setup.variant
    for name in ("date", "venue", "event"):
        if getattr(setup, name):
            match[name] = getattr(setup, name)
    if setup.rules:
        match["rules"] = setup.rules
    if setup.blocks:
        match["blocks"] = setup.blocks
    deals = list(draft.deals)
    if with_current and draft.current is not None:
        deals[draft.index : draft.index + 1] = [deal_object(draft.current, setup.rules_value())]
    document = {"format": "manillen/1", "match": match, "deals": deals}
    return loads(json.dumps(document, ensure_ascii=False), source=f"draft {setup.match_id}")


@dataclass(frozen=True)
class Problem:
    """Why the engine refuses the deal as it stands."""

    pointer: str
    message: str


def check_deal(draft: Draft, *, allow_unfinished: bool = False) -> list[Problem]:
    """What the engine says against the match with the current deal: empty when it is valid.

    :param allow_unfinished: leave out the complaints that only say the deal is not finished
        (used while calls are being made, before any card).
    """
    try:
        record = to_record(draft)
        replay(record, source="draft")
    except InvalidRecordError as error:
        if not allow_unfinished:
            return [Problem(p.pointer, p.message) for p in error.problems]
        current = f"/deals/{draft.index}/declarations"
        return [
            Problem(p.pointer, p.message)
            for p in error.problems
            if p.pointer.startswith(current) and not p.unfinished
        ]
    return []


def finish_deal(draft: Draft) -> tuple[Draft, Record, MatchResult]:
    """The draft with its current deal finished and the next one started, the dealer rotated.

    :returns: the new draft, the match record to save and its replay (the engine's validation).
    :raises RecordingError: when the deal is not complete or the engine refuses it, with the reason.
    """
    deal = _current(draft)
    rules = draft.setup.rules_value()
    table = _checked_table(draft, deal)
    if deal.score is None and not table.redeal and not table.complete:
        raise RecordingError("not_finished", played=table.cards_played, cards=table.deal_cards)
    missing = missing_dealt(deal, rules) if deal.score is None and not table.redeal else []
    if missing:
        named = [Words(f"record.needed_{m}") for m in missing]
        what = named[0] if len(named) == 1 else Words("refuse.both", {"first": named[0], "second": named[1]})
        raise RecordingError("dealt_needed" if deal.plays else "dealt_needed_or_tap", what=what)
    # a deal played out lays aside the cards nobody played, with a scoresheet line written too (the
    # line made the save refuse the deal for want of the laid-aside cards)
    unplayed = [] if table.redeal else _unplayed(deal, rules)
    if unplayed and len(deal.discards or []) != rules.shape.discards:
        deal = replace(deal, discards=unplayed)
        draft = replace(draft, current=deal)
    problems = check_deal(draft)
    if problems:
        raise RecordingError("engine", message="; ".join(f"{p.message} (at {p.pointer})" for p in problems))
    record = to_record(draft)
    result = replay(record, source="draft")
    if draft.reopened is not None:
        deals = list(draft.deals)
        deals[draft.reopened] = deal_object(deal, rules)
        parked = draft.parked
        if parked is None or not (parked.calls or parked.plays or parked.hands or parked.score):
            parked = DealDraft(dealer=next_dealer(deals, draft.setup.rules_value()))
        return replace(draft, deals=deals, current=parked, reopened=None, parked=None), record, result
    deals = [*draft.deals, deal_object(deal, rules)]
    finished = replace(
        draft, deals=deals, current=DealDraft(dealer=next_dealer(deals, draft.setup.rules_value()))
    )
    return finished, record, result


def next_dealer(deals: Sequence[dict[str, Any]], rules: Rules) -> int:
    """Who deals after these deals: the same dealer after a redeal, else the next in the rotation."""
    last = deals[-1]
    if any(call["call"] == "redeal" for call in last.get("declarations", [])):
        return int(last["dealer"])
    return rules.shape.next_dealer(int(last["dealer"]))


def reopen(draft: Draft, number: int) -> Draft:
    """The draft with saved deal ``number`` (from 1) back on the table to correct; the deal in
    progress is put aside until the corrected deal is saved again (or the correction dropped).

    :raises RecordingError: for a deal not saved, or while another saved deal is reopened.
    """
    if draft.reopened is not None:
        raise RecordingError("reopened_already", number=draft.number)
    if not 1 <= number <= len(draft.deals):
        raise RecordingError("not_saved", number=number, saved=len(draft.deals))
    current = deal_draft(draft.deals[number - 1])
    return replace(draft, current=current, reopened=number - 1, parked=draft.current)


def drop_reopened(draft: Draft) -> Draft:
    """The draft without the correction of a reopened deal: the saved deal stays as it was."""
    if draft.reopened is None:
        return draft
    return replace(draft, current=draft.parked, reopened=None, parked=None)


def scoresheet_line(draft: Draft, team: int | None, points: int = 0) -> Draft:
    """The current deal as a scoresheet line only: ``team`` and its points, or ``None`` for 30-30.

    :raises RecordingError: for negative points or a team other than 0 and 1.
    """
    deal = _current(draft)
    return replace(draft, current=DealDraft(dealer=deal.dealer, calls=[], score=_line(team, points)))


def write_score(draft: Draft, team: int | None, points: int = 0) -> Draft:
    """The current deal (entered card by card) with what the scoresheet says beside its cards:
    ``team`` and its points, or ``None`` for 30-30. The engine compares it with the cards.

    :raises RecordingError: for negative points or a team other than 0 and 1.
    """
    deal = _current(draft)
    return replace(draft, current=replace(deal, written=_line(team, points)))


def forget_score(draft: Draft) -> Draft:
    """The current deal without a scoresheet line beside its cards."""
    deal = _current(draft)
    return replace(draft, current=replace(deal, written=None))


def choose_sheet_line(
    draft: Draft, draft_id: str, number: int, choice: str | None, points: int | None
) -> Draft:
    """The scoresheet line chosen on the page for deal ``number`` of draft ``draft_id``: a team
    (``"0"``, ``"1"``) with its points, ``"tie"`` for 30-30, anything else for none.

    The draft unchanged when the line was chosen for another deal than the one under way: the
    page's points box sends its value when it loses focus, which tapping Save causes, and that
    can arrive after the deal was saved (it wrote deal 1's line, team 1 of deal 1's sides, into
    deal 2). A team without its points yet is no line.
    """
    if draft.draft_id != draft_id or draft.number != number or draft.current is None:
        return draft
    if choice in ("0", "1"):
        return forget_score(draft) if points is None else write_score(draft, int(choice), int(points))
    if choice == "tie":
        return write_score(draft, None)
    return forget_score(draft)


def _line(team: int | None, points: int) -> dict[str, int]:
    if team is None:
        return {"tie": 1}
    if team not in (0, 1) or points < 0:
        raise RecordingError("sheet_line")
    return {"team": team, "points": points}


def match_score(draft: Draft) -> MatchResult | None:
    """The finished deals replayed (the running score as on a scoresheet), ``None`` before any."""
    if not draft.deals:
        return None
    return replay(to_record(draft, with_current=False), source="draft")


def share_text(draft: Draft, *, with_current: bool = False) -> str:
    """The match in the text notation, to paste into a message."""
    return dumps_text(to_record(draft, with_current=with_current))


def record_json(record: Record) -> bytes:
    """A record as the canonical JSON the archive stores."""
    return dumps(record, pretty=False).encode()


def now() -> str:
    """The current time as the drafts write it."""
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
