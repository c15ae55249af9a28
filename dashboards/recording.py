"""Recording a four-player match at the table, tap by tap: the Record page's logic, without Streamlit.

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

from manillen_replay.cards import CARD_BY_TEXT, CARD_TEXT, DECK_32_MASK, Card, Rank, Suit, mask_of
from manillen_replay.engine import MatchResult, replay
from manillen_replay.errors import IllegalPlayError, InvalidCardError, InvalidRecordError, ManillenError
from manillen_replay.record import Record, dumps, dumps_text, loads
from manillen_replay.record.model import seat_name_problems
from manillen_replay.rules import LegalPlays, Rules, ViolationKind, trick_points
from manillen_replay.state import DealState

PLAYERS = 4
"""The Record page records the main game: four players in two teams."""
TRICKS = 8
CARDS_PER_TRICK = 4
GRID_RANKS = (Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE, Rank.TEN)
"""The grid's columns: ranks in trick order, the manille (10) last."""
GRID: tuple[tuple[Card, ...], ...] = tuple(tuple(Card.of(rank, suit) for rank in GRID_RANKS) for suit in Suit)
"""The 32-card grid, one row per suit (harten, koeken, klaveren, schoppen)."""
CONTRACT_CALLS = ("trump", "muil", "blind_muil")
KNOCK_CALLS = ("klop", "tegenklop")


class RecordingError(ManillenError):
    """A tap the draft cannot take (a card the seat does not hold, a call out of turn)."""


@dataclass
class Setup:
    """Who plays, where and when, and under which house rules."""

    match_id: str
    """The archive's id of the match (made unique against the archive when set up)."""
    seats: list[str]
    """The four names clockwise, seat 0 first (Anna and Carla against Bert and Dirk)."""
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

    def rules_value(self) -> Rules:
        """The house rules as the engine takes them.

        :raises InvalidOptionError: for an option the rules do not know.
        """
        return Rules.from_options(self.rules)


@dataclass
class DealDraft:
    """The deal being entered."""

    dealer: int
    calls: list[dict[str, Any]] = field(default_factory=list)
    """Declarations in the order spoken, as the record format writes them (``seat``, ``call``, ``suit``)."""
    hands: list[list[str]] | None = None
    """The hands as dealt, when someone typed or tapped them; ``None`` when unknown."""
    plays: list[str] = field(default_factory=list)
    """Every card in the order played (trick after trick)."""
    score: dict[str, int] | None = None
    """A scoresheet line (``team``, ``points``); with ``tie`` for a 30-30."""
    written: dict[str, int] | None = None
    """What the scoresheet says for a deal entered card by card (optional; same form as ``score``):
    the engine compares it with the cards, and a wrong line becomes a ``score_mismatch`` finding."""


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
            raise RecordingError(f"not a draft: {error}") from None


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
    if len(names) != PLAYERS or any(not name for name in names):
        raise RecordingError("four players are needed, one name in each seat")
    # the record format's one rule for names (JSON and the text notation take the same)
    problems = seat_name_problems(names)
    if problems:
        raise RecordingError(problems[0][1])
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
    """Who took it, once it has four cards."""
    points: int | None
    """Its card points, once finished."""


@dataclass(frozen=True)
class Table:
    """The deal being entered, as the engine sees it after the cards tapped so far."""

    tricks: tuple[Trick, ...]
    """Every trick started, the last one possibly under way."""
    to_play: int | None
    """Who plays next; ``None`` when all eight tricks are in (or trump is not made yet)."""
    legal: LegalPlays | None
    """What the seat to play may play (only with the hands)."""
    played: frozenset[Card]
    taken: tuple[int, int]
    """Card points each team took in finished tricks."""
    trump: Suit | None
    contract: str | None
    """``trump``, ``muil`` or ``blind_muil``; ``None`` until it is called."""
    redeal: bool

    @property
    def complete(self) -> bool:
        """Whether all eight tricks are in."""
        return len(self.tricks) == TRICKS and self.tricks[-1].winner is not None

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


def hand_masks(hands: Sequence[Sequence[str]] | None) -> tuple[int, ...] | None:
    """The hands as masks, ``None`` unless all four are full (32 different cards)."""
    if hands is None or len(hands) != PLAYERS or any(len(h) != TRICKS for h in hands):
        return None
    masks = tuple(mask_of(CARD_BY_TEXT[c] for c in hand) for hand in hands)
    if mask_of(CARD_BY_TEXT[c] for hand in hands for c in hand) != DECK_32_MASK:
        return None
    return masks


def table_of(deal: DealDraft, rules: Rules) -> Table:
    """The table after the cards tapped so far, stepped through the engine's deal state.

    Without the hands each seat is taken to hold every card not yet played, so the state still
    says who is to play and who takes each trick; only the legal cards are then unknown.
    """
    contract, trump = contract_of(deal.calls)
    redeal = any(c["call"] == "redeal" for c in deal.calls)
    known = hand_masks(deal.hands)
    if contract is None:
        return Table((), None, None, frozenset(), (0, 0), None, None, redeal)
    state = DealState.start(
        rules, deal.dealer, None if trump is None else int(trump), known or (DECK_32_MASK,) * 4
    )
    tricks: list[Trick] = []
    current: list[Play] = []
    leader = state.to_play
    for text in deal.plays:
        card = CARD_BY_TEXT[text]
        seat = state.to_play
        legal = state.legal() if known else None
        violation = state.violation(card) if known and state.playable(seat) >> card & 1 else None
        if not current:
            leader = seat
        current.append(Play(seat, card, legal, violation))
        trick_number = state.tricks_done + 1
        state = state.apply(card)
        if not state.trick:
            cards = [p.card for p in current]
            tricks.append(Trick(trick_number, leader, tuple(current), state.leader, trick_points(cards)))
            current = []
    if current:
        tricks.append(Trick(state.tricks_done + 1, leader, tuple(current), None, None))
    over = state.is_over
    return Table(
        tricks=tuple(tricks),
        to_play=None if over else state.to_play,
        legal=state.legal() if known and not over else None,
        played=frozenset(CARD_BY_TEXT[c] for c in deal.plays),
        taken=state.taken,
        trump=trump,
        contract=contract,
        redeal=redeal,
    )


# --------------------------------------------------------------------------- taps


def _current(draft: Draft) -> DealDraft:
    if draft.current is None:
        raise RecordingError("no deal is being entered")
    return draft.current


def play_card(draft: Draft, text: str) -> Draft:
    """The draft after the seat to play plays a card (an illegal one too: the record keeps it).

    :raises RecordingError: for a card already played, the deal over, trump not made yet, or
        (hands known) a card the seat to play does not hold.
    """
    deal = _current(draft)
    card = _card(text)
    table = table_of(deal, draft.setup.rules_value())
    if table.contract is None:
        raise RecordingError("make trump first (or muil): the calls come before the cards")
    if table.to_play is None:
        raise RecordingError("all eight tricks are in: save the deal")
    if card in table.played:
        raise RecordingError(f"{card} is already played")
    known = hand_masks(deal.hands)
    if known is not None and not known[table.to_play] >> card & 1:
        name = draft.setup.seats[table.to_play]
        raise RecordingError(f"{name} does not hold {card}: correct the hands or tap {name}'s card")
    return replace(draft, current=replace(deal, plays=[*deal.plays, CARD_TEXT[card]]))


def _card(text: str) -> Card:
    card = CARD_BY_TEXT.get(text.strip())
    if card is None or not DECK_32_MASK >> card & 1:
        raise InvalidCardError(f"unknown card {text!r}")
    return card


def undo_card(draft: Draft) -> Draft:
    """The draft without the last card tapped (or, with no card, without the last call)."""
    deal = _current(draft)
    if deal.plays:
        return replace(draft, current=replace(deal, plays=deal.plays[:-1]))
    if deal.calls:
        return replace(draft, current=replace(deal, calls=deal.calls[:-1]))
    return draft


def undo_trick(draft: Draft) -> Draft:
    """The draft without the trick under way, or without the last finished trick when none is."""
    deal = _current(draft)
    keep = (len(deal.plays) - 1) // CARDS_PER_TRICK * CARDS_PER_TRICK if deal.plays else 0
    return replace(draft, current=replace(deal, plays=deal.plays[:keep]))


def edit_trick(draft: Draft, number: int, cards: Sequence[str]) -> Draft:
    """The draft with an earlier trick's cards replaced (in the order played).

    :raises RecordingError: for a trick not yet played, a wrong number of cards, or a card
        played elsewhere in the deal.
    """
    deal = _current(draft)
    start = (number - 1) * CARDS_PER_TRICK
    if number < 1 or start >= len(deal.plays):
        raise RecordingError(f"trick {number} is not played yet")
    old = deal.plays[start : start + CARDS_PER_TRICK]
    new = [CARD_TEXT[_card(c)] for c in cards]
    if len(new) != len(old):
        raise RecordingError(f"trick {number} needs {len(old)} cards, not {len(new)}")
    rest = deal.plays[:start] + deal.plays[start + len(old) :]
    twice = [c for c in new if c in rest or new.count(c) > 1]
    if twice:
        raise RecordingError(f"{twice[0]} is played twice in this deal")
    plays = [*deal.plays[:start], *new, *deal.plays[start + len(old) :]]
    changed = replace(deal, plays=plays)
    try:  # with the hands known, each card must be in the hand of the seat that plays it
        table_of(changed, draft.setup.rules_value())
    except IllegalPlayError as error:
        raise RecordingError(f"trick {number} cannot be so: {error}") from None
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
        raise RecordingError(problems[0].message)
    return changed


def chooser(deal: DealDraft) -> int:
    """Who makes trump: the dealer, or the partner once the dealer called en face."""
    if any(c["call"] == "en_face" for c in deal.calls):
        return (deal.dealer + 2) % PLAYERS
    return deal.dealer


def set_hands(draft: Draft, hands: Sequence[Sequence[str]] | None) -> Draft:
    """The draft with the hands as dealt (``None`` to forget them).

    :raises RecordingError: for a card unknown or held twice, or a hand not of eight cards.
    """
    deal = _current(draft)
    if hands is None:
        return replace(draft, current=replace(deal, hands=None))
    canonical = [[CARD_TEXT[_card(c)] for c in hand] for hand in hands]
    seen: set[str] = set()
    for seat, hand in enumerate(canonical):
        if len(hand) != TRICKS:
            raise RecordingError(f"{draft.setup.seats[seat]} holds {len(hand)} cards, not {TRICKS}")
        for card in hand:
            if card in seen:
                raise RecordingError(f"{card} is in two hands")
            seen.add(card)
    changed = replace(draft, current=replace(deal, hands=canonical))
    for seat, text in zip(
        (p.seat for t in table_of(deal, draft.setup.rules_value()).tricks for p in t.plays),
        deal.plays,
        strict=True,
    ):
        if text not in canonical[seat]:
            raise RecordingError(f"{draft.setup.seats[seat]} played {text}, which is not in that hand")
    return changed


def parse_hand(text: str) -> list[str]:
    """A hand typed as cards separated by spaces or commas (``10H AH 7♥ ...``), canonical.

    >>> parse_hand("10h, a♥ 7H")
    ['10H', 'AH', '7H']

    :raises InvalidCardError: for a word that is not a card.
    """
    return [CARD_TEXT[_card(word)] for word in re.split(r"[\s,;]+", text) if word]


def hand_being_tapped(deal: DealDraft) -> int | None:
    """The seat whose hand is being tapped in (the first with fewer than eight cards), ``None``
    when all four are full."""
    hands = deal.hands or [[] for _ in range(PLAYERS)]
    return next((seat for seat, hand in enumerate(hands) if len(hand) < TRICKS), None)


def tap_hand_card(draft: Draft, text: str) -> Draft:
    """The draft with one more card in the hand being tapped in, seat 1 to seat 3; the fourth
    hand is then the eight cards left.

    :raises RecordingError: once a card is played, for a card already in a hand, or when the
        hands are full.
    """
    deal = _current(draft)
    if deal.plays:
        raise RecordingError("the hands are tapped in before the first card is played")
    card = CARD_TEXT[_card(text)]
    hands = [list(hand) for hand in deal.hands] if deal.hands else [[] for _ in range(PLAYERS)]
    for holder, hand in enumerate(hands):
        if card in hand:
            raise RecordingError(f"{card} is already in {draft.setup.seats[holder]}'s hand")
    seat = hand_being_tapped(deal)
    if seat is None:
        raise RecordingError("all four hands are full: forget them to tap them again")
    hands[seat].append(card)
    if seat == PLAYERS - 2 and len(hands[seat]) == TRICKS:
        hands[PLAYERS - 1] = last_hand(hands[: PLAYERS - 1])
    return replace(draft, current=replace(deal, hands=hands))


def untap_hand_card(draft: Draft) -> Draft:
    """The draft without the last card tapped into a hand (the filled-in fourth hand goes too)."""
    deal = _current(draft)
    if not deal.hands or deal.plays:
        return draft
    hands = [list(hand) for hand in deal.hands]
    if len(hands[PLAYERS - 1]) == TRICKS:
        hands[PLAYERS - 1] = []
    for hand in reversed(hands):
        if hand:
            hand.pop()
            break
    return replace(draft, current=replace(deal, hands=hands if any(hands) else None))


def last_hand(hands: Sequence[Sequence[str]]) -> list[str]:
    """The fourth hand when three are known: the cards nobody else holds, in grid order."""
    held = {c for hand in hands for c in hand}
    return [CARD_TEXT[c] for row in GRID for c in row if CARD_TEXT[c] not in held]


# --------------------------------------------------------------------------- finishing a deal


def deal_object(deal: DealDraft) -> dict[str, Any]:
    """The deal as a ``manillen/1`` deal object (unfinished tricks included)."""
    out: dict[str, Any] = {"dealer": deal.dealer}
    if hand_masks(deal.hands) is not None:  # hands half tapped in are not part of the record yet
        out["hands"] = deal.hands
    if deal.calls:
        out["declarations"] = deal.calls
    if deal.score is not None:
        out["recorded_score"] = _recorded(deal.score)
        return out
    if deal.plays:
        out["tricks"] = [
            deal.plays[i : i + CARDS_PER_TRICK] for i in range(0, len(deal.plays), CARDS_PER_TRICK)
        ]
    if deal.written is not None:
        out["recorded_score"] = _recorded(deal.written)
    return out


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
    return DealDraft(
        dealer=int(deal["dealer"]),
        calls=[dict(call) for call in deal.get("declarations", [])],
        hands=[list(hand) for hand in deal["hands"]] if deal.get("hands") else None,
        plays=plays,
        score=line if sheet_only else None,
        written=None if sheet_only else line,
    )


def to_record(draft: Draft, *, with_current: bool = True) -> Record:
    """The match recorded so far as a ``manillen/1`` record, decoded by the record layer.

    :raises InvalidRecordError: for a draft that does not make a record (a bad set-up).
    """
    setup = draft.setup
    match: dict[str, Any] = {"id": setup.match_id, "seats": setup.seats}
    for name in ("date", "venue", "event"):
        if getattr(setup, name):
            match[name] = getattr(setup, name)
    if setup.rules:
        match["rules"] = setup.rules
    if setup.blocks:
        match["blocks"] = setup.blocks
    deals = list(draft.deals)
    if with_current and draft.current is not None:
        deals[draft.index : draft.index + 1] = [deal_object(draft.current)]
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
        problems = [Problem(p.pointer, p.message) for p in error.problems]
        if allow_unfinished:
            current = f"/deals/{draft.index}"
            problems = [p for p in problems if p.pointer.startswith(current + "/declarations")]
        return problems
    return []


def finish_deal(draft: Draft) -> tuple[Draft, Record, MatchResult]:
    """The draft with its current deal finished and the next one started, the dealer rotated.

    :returns: the new draft, the match record to save and its replay (the engine's validation).
    :raises RecordingError: when the deal is not complete or the engine refuses it, with the reason.
    """
    deal = _current(draft)
    table = table_of(deal, draft.setup.rules_value())
    if deal.score is None and not table.redeal and not table.complete:
        raise RecordingError(f"the deal is not finished: {table.cards_played} of 32 cards are in")
    problems = check_deal(draft)
    if problems:
        raise RecordingError("; ".join(f"{p.message} (at {p.pointer})" for p in problems))
    record = to_record(draft)
    result = replay(record, source="draft")
    if draft.reopened is not None:
        deals = list(draft.deals)
        deals[draft.reopened] = deal_object(deal)
        parked = draft.parked
        if parked is None or not (parked.calls or parked.plays or parked.hands or parked.score):
            parked = DealDraft(dealer=next_dealer(deals, draft.setup.rules_value()))
        return replace(draft, deals=deals, current=parked, reopened=None, parked=None), record, result
    deals = [*draft.deals, deal_object(deal)]
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
        raise RecordingError(f"deal {draft.number} is reopened already: save it or drop the correction")
    if not 1 <= number <= len(draft.deals):
        raise RecordingError(f"deal {number} is not saved: deals 1 to {len(draft.deals)} are")
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


def _line(team: int | None, points: int) -> dict[str, int]:
    if team is None:
        return {"tie": 1}
    if team not in (0, 1) or points < 0:
        raise RecordingError("a scoresheet line is a team (0 or 1) and its points")
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
