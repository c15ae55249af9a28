"""Replay of a record through the rules: checks every deal, scores it, and drives visitors.

Problems that make a record invalid (record-format.md) are collected, each with its JSON
pointer, and raised together; plays that break the rules of play are replayed and reported.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from msgspec import UNSET

from ..cards import CARD_BY_TEXT, CARD_POINTS, RANKS_PER_SUIT, Card, CardSet, Suit, mask_of
from ..errors import IllegalPlayError, InvalidOptionError, InvalidRecordError, RecordError
from ..record.io import Entry, cards_are_unread, dumps
from ..record.model import Deal, Declaration, Record
from ..record.validation import record_rules, seats_problem
from ..rules import (
    CLAUSES,
    NO_TRUMP,
    Clause,
    Contract,
    DealScore,
    Rules,
    classify_violation,
    legal_core,
    may_klop,
    multiplier,
    score_deal,
    trump_options,
    underbuy_code,
    winning_position,
)
from ..state import MatchState
from .results import (
    BatchPlays,
    BlockResult,
    DealKind,
    DealResult,
    Irregularity,
    IrregularityKind,
    MatchResult,
    TrickResult,
    Violation,
    dummy_name,
)
from .variation import VariationProblem, play_variation


class ReplayVisitor:
    """Receives a replay as it happens; override what you need (python-chess's pgn visitors)."""

    def begin_match(self, record: Record, result: MatchResult) -> None:
        """Before the first deal."""

    def begin_deal(self, deal: Deal, result: DealResult) -> None:
        """Before a deal's plays, with its declarations already read."""

    def play(self, trick: TrickResult, position: int, hands_before: Sequence[int]) -> None:
        """After each card: ``trick`` holds it at ``position``; ``hands_before`` as it was played
        (each seat's playable cards: the hand and any face-up table cards)."""

    def end_trick(self, trick: TrickResult, result: DealResult) -> None:
        """After a trick is complete."""

    def end_deal(self, result: DealResult) -> None:
        """After a deal is scored."""

    def end_match(self, result: MatchResult) -> None:
        """After the last deal."""


@dataclass(slots=True)  # not frozen: its __init__ then sets fields directly, for every deal of a batch
class PlayedDeal:
    """A deal's plays worked out beforehand (the bulk path's compiled pass over many deals,
    :mod:`manillen_replay.bulk`), with what they were worked out for.

    The replay takes them only when the deal is what they assumed (the same trump, no table
    cards, no visitors): otherwise it plays the cards itself.
    """

    plays: BatchPlays
    """The batch's plays: the deal's tricks are built from them when first asked for."""
    row: int
    """The deal's row in the batch."""
    trump: int
    """The trump suit assumed, or :data:`~manillen_replay.rules.NO_TRUMP`."""
    hands: tuple[int, ...]
    """The hands as dealt, checked against the deck: each card dealt once."""
    taken: tuple[int, int]
    violations: Sequence[Violation]
    """The plays that broke the rules of play."""
    tricks: int
    """How many tricks the deal has (complete ones: the compiled pass takes no other)."""


class CardsUnread(Exception):
    """The replay came to a deal whose cards were left unread (the bulk path's quick reading,
    :func:`~manillen_replay.record.io.read_cards_unread`) and that it must play card by card:
    the caller reads the document in full and replays that instead. Not a problem of the record."""


def rules_of(record: Record) -> Rules:
    """The rules a record is played under: its variant and options over the defaults.

    :raises InvalidOptionError: for an option value the rules do not know.
    """
    return record_rules(record)


def match_id(record: Record) -> str:
    """The match's id, or a stable one derived from its content when the record has none."""
    if record.match.id is not UNSET:
        return record.match.id
    digest = hashlib.sha256(dumps(record, pretty=False).encode()).hexdigest()
    return f"m-{digest[:16]}"


def replay(
    record: Record,
    *,
    source: str | None = None,
    line: int | None = None,
    strict: bool = False,
    visitors: Sequence[ReplayVisitor] = (),
    played: Mapping[int, PlayedDeal] | None = None,
) -> MatchResult:
    """Replay a whole match.

    :param source: the file the record came from, for messages.
    :param line: its line in a JSON Lines archive.
    :param strict: raise at the first illegal play instead of reporting it.
    :param visitors: called as the replay goes.
    :param played: plays worked out beforehand, by the deal's index (the bulk path).
    :raises InvalidRecordError: listing every problem that makes the record invalid.
    :raises IllegalPlayError: in strict mode, at the first play that breaks the rules.
    """
    return _Replay(record, source, line, strict, visitors, played).run()


def decode_and_replay(
    data: bytes | str,
    *,
    source: str | None = None,
    line: int | None = None,
    strict: bool = False,
    visitors: Sequence[ReplayVisitor] = (),
) -> MatchResult:
    """Decode one document and replay it: the whole validation of a record.

    :raises InvalidRecordError: for a document that is not a valid record.
    """
    from ..record.io import loads

    record = loads(data, source=source, line=line)
    return replay(record, source=source, line=line, strict=strict, visitors=visitors)


def replay_entry(
    entry: Entry, *, strict: bool = False, visitors: Sequence[ReplayVisitor] = ()
) -> tuple[Record, MatchResult]:
    """Decode one document of an archive (JSON or the text notation) and replay it.

    :raises InvalidRecordError: its problems placed in the file: a JSON pointer, or for text
        the line and column with a hint in the player's terms.
    """
    record = entry.decode()
    try:
        return record, replay(record, source=entry.source, line=entry.line, strict=strict, visitors=visitors)
    except InvalidRecordError as error:
        raise InvalidRecordError(entry.locate(error.problems)) from None


_SUITS = {suit.name: suit for suit in Suit}


@functools.lru_cache(maxsize=64)
def _deal_scores(rules: Rules) -> dict[tuple[tuple[int, int], int], DealScore | None]:
    """The deal scores met under ``rules``, by card points and factor, filled as the replays
    meet them: an archive's deals share a few hundred, so :func:`score_deal` runs once for each
    (a frozen value, shared by the deals as a scoresheet's equal score already is)."""
    return {}


def _say_score(score: DealScore | None) -> str:
    if score is None:
        return "30-30 (nobody scores)"
    return f"team {score.team} scored {score.points}"


def _dash(score: Sequence[int]) -> str:
    return "-".join(str(s) for s in score)


class _Replay:
    def __init__(
        self,
        record: Record,
        source: str | None,
        line: int | None,
        strict: bool,
        visitors: Sequence[ReplayVisitor],
        played: Mapping[int, PlayedDeal] | None = None,
    ) -> None:
        self.played: Mapping[int, PlayedDeal] = {} if played is None or strict or visitors else played
        self.record = record
        self.source = source
        self.line = line
        self.strict = strict
        self.visitors = visitors
        self.problems: list[RecordError] = []
        self.names: list[str] = []
        self.scores: dict[tuple[tuple[int, int], int], DealScore | None] = {}
        """Each deal score met by its card points and factor (:func:`_deal_scores`)."""

    def problem(self, pointer: str, message: str, *, unfinished: bool = False) -> None:
        self.problems.append(RecordError(message, pointer, self.source, self.line, unfinished=unfinished))

    def seat_name(self, seat: int) -> str:
        return self.names[seat] if seat < len(self.names) else f"seat {seat}"

    def _missing_piles(self, seats: Sequence[int]) -> str:
        """That these seats' table piles are missing, with how they are written."""
        shape = self.rules.shape
        names = " and ".join(self.seat_name(s) for s in seats)
        typed = "dummy" if seats[0] >= shape.people else self.seat_name(seats[0])  # the notation's word
        return (
            f"the table piles of {names} are missing: 4 piles {'each ' if len(seats) > 1 else ''}in "
            f"{self.rules.variant!r}, a face-down card under a face-up one (in the notation a line "
            f"`table {typed}: 7S/10S QS/KD 8H/7D 7C/10D`, face-down/face-up)"
        )

    # ------------------------------------------------------------------ the match

    def run(self) -> MatchResult:
        record = self.record
        try:
            rules = rules_of(record)
        except InvalidOptionError as error:
            self.problem("/match/rules", str(error))
            raise InvalidRecordError(self.problems) from None
        shape = rules.shape
        self.scores = _deal_scores(rules)
        people = list(record.match.seats)
        seats_wrong = seats_problem(rules.variant, people)
        if seats_wrong is not None:
            self.problem("/match/seats", seats_wrong)
            raise InvalidRecordError(self.problems)
        blocks = self.read_blocks(rules, people)
        self.rules = rules
        self.shape = shape
        source = self.source if self.line is None else f"{self.source}:{self.line}"
        result = MatchResult(id=match_id(record), source=source, seats=people, rules=rules)
        for visitor in self.visitors:
            visitor.begin_match(record, result)
        match = MatchState.start(rules)
        previous_dealer: int | None = None
        previous_redeal = False
        redeals_in_row = 0
        announced_over = False
        block_number = 0
        factors: dict[tuple[str, bool, int, bool], int] = {}
        has_dummy = shape.players > shape.people
        visitors = self.visitors
        for index, deal in enumerate(record.deals):
            pointer = f"/deals/{index}"
            if blocks and match.finished and block_number < len(blocks):
                result.blocks.append(self.close_block(block_number, blocks, match))
                block_number += 1
                if block_number < len(blocks):
                    match = MatchState.start(rules)
            if blocks and block_number >= len(blocks):
                self.problem(
                    pointer,
                    f"the club evening has {len(blocks)} blocks of {rules.deals} deals; "
                    "this deal is one too many",
                )
                break
            seating = blocks[block_number] if blocks else people
            self.names = (
                [*seating, dummy_name(seating[deal.dealer])]
                if has_dummy and deal.dealer < len(seating)
                else seating
            )
            if deal.dealer >= shape.people:
                self.problem(
                    f"{pointer}/dealer",
                    f"seat {deal.dealer} does not exist: seats are 0 to {shape.people - 1}",
                )
                continue
            outcome = DealResult(
                number=index + 1, dealer=deal.dealer, kind=DealKind.PLAYED, names=list(self.names)
            )
            if previous_dealer is not None:
                expected = previous_dealer if previous_redeal else shape.next_dealer(previous_dealer)
                if deal.dealer != expected:
                    outcome.irregularities.append(
                        Irregularity(
                            IrregularityKind.DEALER_OUT_OF_ROTATION,
                            index + 1,
                            f"deal {index + 1} was dealt by {self.names[deal.dealer]}; "
                            f"by rotation it was {self.names[expected]}'s turn",
                        )
                    )
            if not self.read_declarations(deal, outcome, pointer, redeals_in_row):
                previous_dealer, previous_redeal = deal.dealer, False
                continue
            outcome.carried = match.carry
            if outcome.contract is not None:
                # A match has a handful of different factors: each worked out once.
                # Keyed by the contract's text: an enum member's hash is worked out in Python.
                key = (outcome.contract._value_, outcome.en_face, outcome.knocks, match.carry)
                factor = factors.get(key)
                if factor is None:
                    factor = factors[key] = multiplier(
                        outcome.contract, outcome.en_face, outcome.knocks, match.carry, rules
                    )
                outcome.multiplier = factor
            redeals_in_row = redeals_in_row + 1 if outcome.kind is DealKind.REDEAL else 0
            for visitor in visitors:
                visitor.begin_deal(deal, outcome)
            if outcome.kind is not DealKind.REDEAL and not self.play_deal(deal, outcome, pointer):
                previous_dealer, previous_redeal = deal.dealer, False
                continue
            self.check_variations(deal, outcome, pointer)
            self.read_scoresheet(deal, outcome)
            if outcome.kind in (DealKind.PLAYED, DealKind.SCORESHEET):
                if match.finished:
                    outcome.counted = False
                    if not announced_over:
                        announced_over = True
                        outcome.irregularities.append(
                            Irregularity(
                                IrregularityKind.PLAYED_ON_AFTER_MATCH_WON,
                                index + 1,
                                "the match was already decided at "
                                f"{_dash(match.final_score or match.score)}; "
                                f"deal {index + 1} and any after it do not count",
                            )
                        )
                match = match.apply_deal(
                    outcome.score,
                    outcome.tie,
                    tuple([(team, points) for team, points, _ in outcome.penalties])
                    if outcome.penalties
                    else (),
                    dealer=deal.dealer,
                )
            elif outcome.penalties:  # an abandoned (or redealt) deal's faults count as recorded too
                match = match.apply_penalties(
                    tuple([(team, points) for team, points, _ in outcome.penalties]), dealer=deal.dealer
                )
            outcome.match_score = match.score
            previous_dealer = deal.dealer
            previous_redeal = outcome.kind is DealKind.REDEAL
            result.deals.append(outcome)
            for visitor in visitors:
                visitor.end_deal(outcome)
        if self.problems:
            raise InvalidRecordError(self.problems)
        if blocks:
            if match.finished and block_number < len(blocks):
                result.blocks.append(self.close_block(block_number, blocks, match))
            result.blocks_won = {name: sum(name in b.winners for b in result.blocks) for name in people}
            result.planned_blocks = len(blocks)
        result.score = match.score
        result.final_score = match.final_score or match.score
        result.winner = None if blocks else match.winner  # an evening's result is blocks_won
        result.finished = match.finished and (not blocks or len(result.blocks) == len(blocks))
        for visitor in self.visitors:
            visitor.end_match(result)
        return result

    def read_blocks(self, rules: Rules, people: list[str]) -> list[list[str]]:
        blocks = self.record.match.blocks
        if blocks is UNSET:
            return []
        if rules.format != "fixed" or rules.variant != "four":
            self.problem(
                "/match/blocks", "blocks (a club evening) need the four-player game with format 'fixed'"
            )
        elif blocks[0] != people:
            self.problem("/match/blocks/0", "the first block's seating must be match.seats")
        for b, seating in enumerate(blocks):
            if sorted(seating) != sorted(people):
                self.problem(
                    f"/match/blocks/{b}", f"a block seats the same four players: {', '.join(people)}"
                )
        if self.problems:
            raise InvalidRecordError(self.problems)
        return [list(b) for b in blocks]

    def close_block(self, number: int, blocks: list[list[str]], match: MatchState) -> BlockResult:
        seating = blocks[number]
        winner = match.winner
        winners = [] if winner is None else [seating[winner], seating[winner + 2]]
        return BlockResult(number + 1, seating, match.score, winner, winners)

    # ------------------------------------------------------------------ declarations

    def read_declarations(self, deal: Deal, outcome: DealResult, pointer: str, redeals_in_row: int) -> bool:
        rules = self.rules
        shape = self.shape
        dealer = deal.dealer
        calls: list[Declaration] = [] if deal.declarations is UNSET else deal.declarations
        if len(calls) == 1 and self.read_lone_contract(deal, calls[0], outcome):
            return True
        before = len(self.problems)
        stage = "contract"
        chooser = dealer
        passes = 0
        knocks_by: list[int] = []
        turned = None if deal.turned is UNSET else CARD_BY_TEXT.get(deal.turned)
        if (
            rules.trump_choice == "turned_card"
            and turned is not None
            and not any(call.call in ("trump", "muil", "blind_muil") for call in calls)
        ):
            # the turned card makes trump: a record may leave the call out
            outcome.contract, outcome.trump, outcome.chooser = Contract.TRUMP, turned.suit, dealer
            stage = "knocks"
        for i, call in enumerate(calls):
            where = f"{pointer}/declarations/{i}"
            if call.seat >= shape.players:
                self.problem(
                    f"{where}/seat", f"seat {call.seat} does not exist: seats are 0 to {shape.players - 1}"
                )
                return False
            if call.seat >= shape.people:
                self.problem(f"{where}/seat", "the dummy makes no calls: the dealer calls for it")
                continue
            if call.call != "trump" and call.suit is not UNSET:
                self.problem(f"{where}/suit", f"a {call.call!r} call takes no suit")
            if call.call == "redeal":
                self.read_redeal(deal, outcome, call, i, len(calls), redeals_in_row, where, pointer)
                continue
            if stage in ("contract", "partner"):
                if call.call == "pass":
                    if rules.variant != "six_short":
                        self.problem(where, "'pass' is only used in the six_short variant")
                    elif call.seat != chooser:
                        self.problem(
                            where,
                            f"{self.seat_name(call.seat)} may not pass: "
                            f"the choice of trump is with {self.seat_name(chooser)}",
                        )
                    elif passes == 2:
                        self.problem(where, "the third teammate must choose trump and cannot pass")
                    else:
                        passes += 1
                        chooser = (chooser + 2) % shape.players
                    continue
                if call.call == "en_face":
                    partner = shape.partner_of(dealer)
                    if stage == "partner":
                        self.problem(where, "en face cannot be passed back: the partner must make trump")
                    elif not rules.en_face:
                        self.problem(where, "'en_face' needs the cafe rule 'en_face' (match.rules.cafe)")
                    elif partner is None or not shape.has_en_face:
                        self.problem(where, f"en face needs a partner to pass to; {rules.variant!r} has none")
                    elif call.seat != dealer:
                        self.problem(
                            where, f"only the dealer may call en face, not {self.seat_name(call.seat)}"
                        )
                    else:
                        outcome.en_face = True
                        chooser = partner
                        stage = "partner"
                    continue
                if call.call in ("trump", "muil", "blind_muil"):
                    if call.seat != chooser:
                        self.problem(
                            where,
                            f"{self.seat_name(call.seat)} may not make trump: "
                            + (
                                f"the dealer, {self.seat_name(dealer)}, chooses"
                                if chooser == dealer
                                else f"the choice is with {self.seat_name(chooser)}"
                            ),
                        )
                        continue
                    if call.call == "blind_muil" and (stage == "partner" or passes):
                        self.problem(where, "a blind muil is called by the dealer before seeing the cards")
                        continue
                    self.read_contract(call, outcome, where)
                    stage = "knocks"
                    continue
            elif stage == "knocks" and call.call in ("klop", "tegenklop"):
                self.read_knock(call, outcome, knocks_by, where)
                continue
            if call.call in ("klop", "tegenklop"):
                self.problem(where, f"{call.call!r} comes after trump is made")
            else:
                self.problem(where, f"{call.call!r} is out of order here")
        outcome.knocks = len(knocks_by)
        if outcome.kind is not DealKind.REDEAL and stage == "partner":
            self.problem(
                f"{pointer}/declarations",
                "after en face the partner's trump call is missing",
                unfinished=True,
            )
        return len(self.problems) == before

    def read_lone_contract(self, deal: Deal, call: Declaration, outcome: DealResult) -> bool:
        """Nearly every deal: the dealer's one call, a trump suit or muil, makes the contract.
        Read here at once when it is that: the calls' loop of :meth:`read_declarations` finds no
        problem in it (the dealer is a seat, and the one to choose) and reads it as
        :meth:`read_contract` does. ``False`` for any other call: the loop reads it."""
        dealer = deal.dealer
        if call.seat != dealer or deal.turned is not UNSET:
            return False
        if call.call == "trump" and call.suit is not UNSET:
            outcome.contract, outcome.trump, outcome.chooser = Contract.TRUMP, _SUITS[call.suit], dealer
            return True
        if call.call == "muil" and call.suit is UNSET and self.rules.trump_choice != "turned_card":
            outcome.contract, outcome.chooser = Contract.MUIL, dealer
            return True
        return False

    def read_redeal(
        self,
        deal: Deal,
        outcome: DealResult,
        call: Declaration,
        i: int,
        count: int,
        redeals_in_row: int,
        where: str,
        pointer: str,
    ) -> None:
        if cards_are_unread(deal):
            raise CardsUnread
        rules = self.rules
        if not rules.redeal_small:
            self.problem(where, "a redeal needs the cafe rule 'redeal_small' (match.rules.cafe)")
        elif not rules.shape.has_redeal:
            self.problem(
                where, f"the small-cards redeal needs eight-card hands; {rules.variant!r} deals fewer"
            )
        elif i != 0 or count > 1:
            self.problem(where, "a redeal is the only call of its deal")
        elif call.seat != deal.dealer:
            self.problem(where, f"only the dealer may demand a redeal, not {self.seat_name(call.seat)}")
        elif redeals_in_row >= 2:
            self.problem(where, "a third redeal in a row is not allowed: the third deal must be played")
        elif deal.tricks is not UNSET and deal.tricks:
            self.problem(f"{pointer}/tricks", "a redealt deal has no tricks")
        else:
            outcome.kind = DealKind.REDEAL
            if deal.hands is not UNSET and 0 <= deal.dealer < len(deal.hands):
                hand = deal.hands[deal.dealer]
                cards = [CARD_BY_TEXT[c] for c in hand]
                small = sum(1 for c in cards if c.rank.text in ("7", "8", "9"))
                if small < 5 or not any(c.rank.text == "J" for c in cards):
                    self.problem(
                        where,
                        "a redeal needs five small cards (7, 8, 9) and a jack; "
                        f"the dealer held {' '.join(hand)}",
                    )

    def read_contract(self, call: Declaration, outcome: DealResult, where: str) -> None:
        outcome.chooser = call.seat
        if call.call == "trump":
            if call.suit is UNSET:
                self.problem(where, "a trump call needs a suit: H, D, C or S")
                return
            outcome.contract = Contract.TRUMP
            outcome.trump = Suit[call.suit]
        elif self.rules.trump_choice == "turned_card":
            self.problem(where, "no muil under trump_choice turned_card: the turned card's suit is trump")
        elif call.call == "muil":
            outcome.contract = Contract.MUIL
        elif not self.rules.blind_muil:
            self.problem(where, "'blind_muil' needs the cafe rule 'blind_muil' (match.rules.cafe)")
        else:
            outcome.contract = Contract.BLIND_MUIL

    def read_knock(self, call: Declaration, outcome: DealResult, knocks_by: list[int], where: str) -> None:
        rules = self.rules
        name = self.seat_name(call.seat)
        side = rules.shape.team_of(call.seat, outcome.dealer)
        dealing_side = rules.shape.team_of(outcome.dealer, outcome.dealer)
        wanted = "klop" if len(knocks_by) % 2 == 0 else "tegenklop"
        if outcome.contract in (Contract.MUIL, Contract.BLIND_MUIL) and not rules.klop_on_muil:
            self.problem(where, "a muil may not be knocked under these rules (klop_on_muil is false)")
        elif not rules.eternal_klop and len(knocks_by) >= 2:
            self.problem(where, "knocking stops at tegenklop without the cafe rule 'eternal_klop'")
        elif call.call != wanted:
            self.problem(
                where,
                f"expected {wanted!r} here, not {call.call!r}: klop and tegenklop alternate, klop first",
            )
        elif call.call == "klop" and side == dealing_side:
            self.problem(
                where,
                f"{name} is on the dealing team and cannot klop; the dealing team answers with tegenklop",
            )
        elif call.call == "tegenklop" and side != dealing_side:
            self.problem(where, f"{name} is not on the dealing team: only the dealing team may tegenklop")
        elif call.call == "klop" and not may_klop(rules, call.seat, outcome.dealer):
            left = rules.shape.next_seat(outcome.dealer, outcome.dealer)
            self.problem(
                where,
                f"{name} may not klop: under klop_by left_of_dealer only {self.seat_name(left)} "
                "(the dealer's left) or that player's partner knocks",
            )
        else:
            knocks_by.append(call.seat)

    # ------------------------------------------------------------------ cards and plays

    def play_deal(self, deal: Deal, outcome: DealResult, pointer: str) -> bool:
        if cards_are_unread(deal):
            return self.play_unread_deal(deal, outcome, pointer)
        shape = self.shape
        before = len(self.problems)
        tricks = [] if deal.tricks is UNSET else deal.tricks
        has_hands = deal.hands is not UNSET
        if not tricks:
            if deal.recorded_score is not UNSET:
                outcome.kind = DealKind.SCORESHEET
                if has_hands:
                    self.read_cards(deal, outcome, pointer)
                return len(self.problems) == before
            if not has_hands:
                self.problem(pointer, "a deal needs tricks, hands or a recorded_score")
                return False
        if outcome.contract is None:
            self.problem(
                f"{pointer}/declarations",
                "a deal with tricks or hands needs the trump call (declarations): the suit the dealer "
                "chose, or muil (in the text notation `trump H` or `muil` on the deal's line)",
            )
            return False
        trump = None if outcome.trump is None else int(outcome.trump)
        ready = self.played.get(outcome.number - 1)
        if (
            ready is not None
            and has_hands
            and ready.trump == (NO_TRUMP if trump is None else trump)
            and deal.table is UNSET
            and not deal.discards
            and deal.table_moves is UNSET
        ):
            # The tricks' sizes and number were checked with the plays, and the hands against
            # the deck (read_cards's quick case).
            outcome.hands = ready.hands
            if not self.check_trump_choice(deal, outcome, ready.hands, 0, pointer):
                return False
            return self.take_played(ready, outcome)
        for t, trick in enumerate(tricks):
            if len(trick) != shape.trick_size:
                self.problem(
                    f"{pointer}/tricks/{t}", f"a trick has {shape.trick_size} cards, this one {len(trick)}"
                )
        # a trick typed twice (a line copied, anywhere in the deal): said once, at the copy, rather
        # than as each of its cards played again or as the last trick one too many
        twice = next((t for t in range(1, len(tricks)) if tricks[t] and tricks[t] in tricks[:t]), None)
        repeats = ""
        if twice is not None:
            repeats = f"trick {twice + 1} repeats trick {tricks.index(tricks[twice]) + 1}"
        if len(tricks) > shape.tricks:
            at = shape.tricks if twice is None else twice
            said = f"a deal has {shape.tricks} tricks, this one {len(tricks)}"
            self.problem(f"{pointer}/tricks/{at}", f"{said}: {repeats}" if repeats else said)
        elif twice is not None:
            self.problem(
                f"{pointer}/tricks/{twice}", f"{repeats}: the same cards in the same order (typed twice?)"
            )
        if len(self.problems) > before:
            return False
        card_of = CARD_BY_TEXT.__getitem__
        played = [list(map(card_of, trick)) for trick in tricks]
        if has_hands:
            cards = self.read_cards(deal, outcome, pointer)
            if cards is None:
                return False
            hands, table, discards = cards
        else:
            if shape.table_seats != "none":
                self.problem(
                    f"{pointer}/hands", f"{self.rules.variant!r} needs the hands and the table cards"
                )
                return False
            if len(tricks) < shape.tricks:
                self.problem(
                    f"{pointer}/tricks",
                    f"{len(tricks)} of {shape.tricks} tricks and no hands: "
                    "a deal may stop early only when its hands are given",
                )
                return False
            laid_aside = self.read_discards(deal, pointer, required=shape.discards > 0)
            if laid_aside is None:
                return False
            reconstructed = self.hands_from_tricks(played, deal.dealer, trump, laid_aside, pointer)
            if reconstructed is None:
                return False
            hands, table, discards = reconstructed, (), laid_aside
            outcome.hands = hands
            outcome.hands_inferred = True
            outcome.discards = discards
        if not self.check_trump_choice(deal, outcome, hands, discards, pointer):
            return False
        return self.play_tricks(deal, played, hands, table, outcome, trump, pointer)

    def play_unread_deal(self, deal: Deal, outcome: DealResult, pointer: str) -> bool:
        """:meth:`play_deal` of a deal whose cards were left unread: a deal without cards (a
        scoresheet line), or one whose plays were worked out beforehand and that
        :meth:`play_deal` would take as they are; any other raises :class:`CardsUnread`."""
        if deal.hands is UNSET and deal.tricks is UNSET:
            if deal.recorded_score is not UNSET:
                outcome.kind = DealKind.SCORESHEET
                return True
            self.problem(pointer, "a deal needs tricks, hands or a recorded_score")
            return False
        ready = self.played.get(outcome.number - 1)
        if (
            ready is None
            or ready.tricks == 0  # no tricks: a scoresheet line with its hands, read in full
            or deal.hands is UNSET
            or deal.tricks is UNSET
            or outcome.contract is None
            or ready.trump != (NO_TRUMP if outcome.trump is None else int(outcome.trump))
            or deal.table is not UNSET
            or deal.discards
            or deal.table_moves is not UNSET
        ):
            raise CardsUnread
        outcome.hands = ready.hands
        if not self.check_trump_choice(deal, outcome, ready.hands, 0, pointer):
            return False
        return self.take_played(ready, outcome)

    def check_variations(self, deal: Deal, outcome: DealResult, pointer: str) -> None:
        """Each comment's trick and play are ones the deal has (a comment on trick 9 of eight was
        stored against nothing); each variation (``line``) starts at a play, and every card is
        held and legal in turn (:func:`~.variation.play_variation`)."""
        for n, note in enumerate(deal.annotations or ()):
            where = f"{pointer}/annotations/{n}"
            if note.trick is not UNSET:
                tricks = outcome.trick_count
                if note.trick > tricks:
                    had = "no tricks" if not tricks else "1 trick" if tricks == 1 else f"{tricks} tricks"
                    self.problem(
                        f"{where}/trick", f"there is no trick {note.trick} to comment on: the deal has {had}"
                    )
                    continue
                if note.play is not UNSET and note.play > (size := len(outcome.tricks[note.trick - 1].cards)):
                    self.problem(
                        f"{where}/play",
                        f"there is no play {note.play} to comment on: trick {note.trick} has {size} cards",
                    )
                    continue
            if note.line is UNSET:
                continue
            if note.trick is UNSET or note.play is UNSET:
                self.problem(f"{where}/line", "a variation starts at a play: give its trick and play")
                continue
            cards = [CARD_BY_TEXT[text] for text in note.line]
            found = play_variation(outcome, self.rules, note.trick, note.play, cards, self.names)
            if isinstance(found, VariationProblem):
                place = f"{where}/line" if found.index < 0 else f"{where}/line/{found.index}"
                self.problem(place, found.message)

    def check_trump_choice(
        self, deal: Deal, outcome: DealResult, hands: Sequence[int], discards: int, pointer: str
    ) -> bool:
        """``trump_choice`` once the hands are known: a held suit, or the turned card's suit."""
        rules = self.rules
        turned = None if deal.turned is UNSET else CARD_BY_TEXT.get(deal.turned)
        if deal.turned is not UNSET and rules.trump_choice != "turned_card":
            self.problem(f"{pointer}/turned", "a turned card needs the rule trump_choice: turned_card")
            return False
        if rules.trump_choice == "free" or outcome.contract is not Contract.TRUMP:
            return True
        chooser = deal.dealer if outcome.chooser is None else outcome.chooser
        # the cards laid aside are the trump maker's (taken in before choosing, laid aside after):
        # the dealer's in ``three``, in ``six_short`` also a teammate's the choice was passed to
        held = hands[chooser] | discards
        name = self.seat_name(chooser)
        suit = outcome.trump
        assert suit is not None
        if turned is not None:
            before = len(self.problems)
            if not held >> int(turned) & 1:
                self.problem(f"{pointer}/turned", f"the turned card {turned} is not in {name}'s hand")
            elif turned.suit is not suit:
                self.problem(
                    f"{pointer}/declarations",
                    f"{turned} was turned: {turned.suit.english} are trump, not {suit.english}",
                )
            return len(self.problems) == before
        options = trump_options(rules.with_options(trump_choice="held_suit"), held)
        if int(suit) not in options:
            may = [Suit(s).english for s in options if s is not None]
            said = ", ".join(may[:-1]) + f" or {may[-1]}" if len(may) > 1 else "".join(may)
            calls = [] if deal.declarations is UNSET else deal.declarations
            # at the trump call itself (the last one, where a choice passed on is called)
            at = next((i for i in range(len(calls) - 1, -1, -1) if calls[i].call == "trump"), None)
            self.problem(
                f"{pointer}/declarations" + ("" if at is None else f"/{at}"),
                f"{name} holds no {suit.english} and may not make them trump "
                f"(trump_choice {rules.trump_choice}: the trump is a suit in the hand): {name} may call "
                + (f"{said}, or muil" if said else "muil"),
            )
            return False
        return True

    def read_discards(self, deal: Deal, pointer: str, *, required: bool) -> int | None:
        shape = self.rules.shape
        given = [] if deal.discards is UNSET else deal.discards
        if len(given) != shape.discards and (required or given):
            if shape.discards:
                self.problem(
                    f"{pointer}/discards",
                    f"{self.rules.variant!r} lays {shape.discards} cards aside; "
                    f"the record gives {len(given)}",
                )
            else:
                self.problem(f"{pointer}/discards", f"{self.rules.variant!r} lays no cards aside")
            return None
        mask = mask_of(CARD_BY_TEXT[c] for c in given)
        if len(given) and mask.bit_count() != len(given):
            self.problem(f"{pointer}/discards", "a card is laid aside twice")
            return None
        return mask

    def read_cards(
        self, deal: Deal, outcome: DealResult, pointer: str
    ) -> tuple[tuple[int, ...], tuple[tuple[tuple[int, ...], ...], ...], int] | None:
        """The hands, the table piles and the laid-aside cards, all checked against the deck."""
        shape = self.rules.shape
        hands_text = deal.hands if deal.hands is not UNSET else []
        if len(hands_text) != shape.players:
            self.problem(
                f"{pointer}/hands", f"{shape.players} hands are dealt, the record has {len(hands_text)}"
            )
            return None
        masks = [mask_of(map(CARD_BY_TEXT.__getitem__, hand)) for hand in hands_text]
        discards = self.read_discards(deal, pointer, required=shape.discards > 0)
        table_text = deal.table if deal.table is not UNSET else []
        if discards is None:
            return None
        if shape.table_seats == "none" and deal.table is UNSET:
            union = discards
            for mask in masks:
                union |= mask
            if (
                union == shape.deck_mask
                and all(len(h) == shape.hand_size for h in hands_text)
                and union.bit_count() == sum(len(h) for h in hands_text) + shape.discards
            ):
                outcome.hands = tuple(masks)
                outcome.discards = discards
                return tuple(masks), (), discards
        ok = True
        seen: dict[int, str] = {}

        def place(text: str, where: str) -> None:
            nonlocal ok
            card = CARD_BY_TEXT[text]
            if not shape.deck_mask >> card & 1:
                self.problem(where, f"{text!r} is not in the deck of {self.rules.variant!r}")
                ok = False
            elif card in seen:
                self.problem(where, f"{text!r} was dealt twice (also at {seen[card]})")
                ok = False
            else:
                seen[card] = where

        for s, hand in enumerate(hands_text):
            size = 0 if s >= shape.people else shape.hand_size
            if len(hand) != size:
                self.problem(
                    f"{pointer}/hands/{s}",
                    f"{self.seat_name(s)}'s hand has {len(hand)} cards; each seat is dealt {size}",
                )
                ok = False
            for i, text in enumerate(hand):
                place(text, f"{pointer}/hands/{s}/{i}")
        stacks: list[tuple[tuple[int, ...], ...]] = []
        if shape.table_seats != "none":
            holders = [s for s in range(shape.players) if shape.holds_table(s)]
            if not table_text:
                # said with what to give: "the table lists 4 seats' piles; the record has 0" left a
                # typist of three_dummy wondering what a table was
                self.problem(f"{pointer}/table", self._missing_piles(holders))
                return None
            if len(table_text) != shape.players:
                self.problem(
                    f"{pointer}/table",
                    f"the table lists {shape.players} seats' piles; the record has {len(table_text)}",
                )
                return None
            for s, piles in enumerate(table_text):
                wanted = 4 if shape.holds_table(s) else 0
                if len(piles) != wanted:
                    self.problem(
                        f"{pointer}/table/{s}",
                        self._missing_piles([s])
                        if wanted and not piles
                        else f"{self.seat_name(s)} has {wanted} table piles, the record {len(piles)}",
                    )
                    ok = False
                for p, pile in enumerate(piles):
                    for i, text in enumerate(pile):
                        place(text, f"{pointer}/table/{s}/{p}/{i}")
                stacks.append(tuple(tuple(CARD_BY_TEXT[c] for c in pile) for pile in piles))
        elif deal.table is not UNSET:
            self.problem(f"{pointer}/table", f"{self.rules.variant!r} has no table cards")
            ok = False
        given_discards = [] if deal.discards is UNSET else deal.discards
        for i, text in enumerate(given_discards):
            place(text, f"{pointer}/discards/{i}")
        if ok:
            missing = shape.deck_mask & ~mask_of(seen)
            if missing:
                self.problem(f"{pointer}/hands", f"cards missing from the deal: {CardSet(missing)}")
                ok = False
        if not ok:
            return None
        outcome.hands = tuple(masks)
        outcome.table = tuple(stacks)
        outcome.discards = discards
        return tuple(masks), tuple(stacks), discards

    def hands_from_tricks(
        self, played: list[list[Card]], dealer: int, trump: int | None, discards: int, pointer: str
    ) -> tuple[int, ...] | None:
        shape = self.rules.shape
        masks = [0] * shape.players
        seen: dict[int, int] = {}
        leader = shape.next_seat(dealer, dealer)
        ok = True
        for t, trick in enumerate(played):
            for i, card in enumerate(trick):
                where = f"{pointer}/tricks/{t}/{i}"
                if not shape.deck_mask >> card & 1:
                    self.problem(where, f"'{card}' is not in the deck of {self.rules.variant!r}")
                    ok = False
                elif card in seen or discards >> card & 1:
                    laid = (
                        "laid aside"
                        if discards >> card & 1
                        else f"already played in this trick, as its card {trick.index(card) + 1}"
                        if seen[card] == t
                        else f"already played in trick {seen[card] + 1}"
                    )
                    self.problem(where, f"'{card}' was {laid}")
                    ok = False
                seen.setdefault(card, t)
                masks[shape.seat_of_play(leader, i, dealer)] |= 1 << card
            leader = shape.seat_of_play(leader, winning_position(trick, trump), dealer)
        return tuple(masks) if ok else None

    def play_tricks(
        self,
        deal: Deal,
        played: list[list[Card]],
        hands: tuple[int, ...],
        table: tuple[tuple[tuple[int, ...], ...], ...],
        outcome: DealResult,
        trump: int | None,
        pointer: str,
    ) -> bool:
        rules = self.rules
        shape = rules.shape
        dealer = outcome.dealer
        order = shape.order(dealer)
        players = len(order)
        place_of = {seat: position for position, seat in enumerate(order)}
        team_of = [shape.team_of(s, dealer) for s in range(shape.players)]
        holding = list(hands)
        stacks = [[list(pile) for pile in piles] for piles in table]
        if stacks:
            for seat, piles in enumerate(stacks):
                for pile in piles:
                    holding[seat] |= 1 << pile[-1]
        moves = self.read_moves(deal, pointer)
        if moves is None:
            return False
        taken = list(outcome.taken_before_play(rules))  # the laid-aside cards, the maker's opponents'
        leader = shape.next_seat(dealer, dealer)
        visitors = self.visitors
        trump_code = NO_TRUMP if trump is None else trump
        exempt = rules.partner_exempt
        underbuy = underbuy_code(rules)
        overtake_plain = rules.overtake_plain_suit
        for t, cards in enumerate(played):
            seats: list[int] = []
            legals: list[int] = []
            clauses: list[Clause] = []
            winning: list[int] = []
            trick = TrickResult(t + 1, leader, seats, cards, legals, clauses, winning)
            led = cards[0] // RANKS_PER_SUIT if cards else 0
            best = best_suit = best_seat = 0
            start = place_of[leader]
            for i, card in enumerate(cards):
                seat = order[(start + i) % players]
                move = None
                if stacks:
                    move = moves.pop((t + 1, seat, i + 1), None)
                    if move is None and seat not in seats:
                        move = moves.pop((t + 1, seat, 0), None)
                if move is not None:
                    if not self.move_to_empty_place(stacks[seat], seat, move, holding):
                        return False
                    outcome.table_moves.append((t + 1, i + 1, seat))
                hand = holding[seat]
                if not hand >> card & 1:
                    self.not_held(card, seat, t, i, played, stacks, pointer)
                    return False
                suit = card // RANKS_PER_SUIT
                if i:
                    legal, code = legal_core(
                        led,
                        best,
                        hand,
                        trump_code,
                        team_of[best_seat] == team_of[seat],
                        exempt,
                        underbuy,
                        overtake_plain,
                    )
                    clause = CLAUSES[code]
                    if suit == best_suit:
                        if card > best:
                            best, best_seat = card, seat
                    elif suit == trump:
                        best, best_suit, best_seat = card, suit, seat
                else:
                    legal, clause = hand, Clause.LEAD
                    best, best_suit, best_seat = card, suit, seat
                if not legal >> card & 1:
                    kind = classify_violation(card, cards[:i], hand, trump)
                    if self.strict:
                        raise IllegalPlayError(
                            f"illegal play: '{card}' by {self.seat_name(seat)} in trick {t + 1}: {kind.value}"
                            + (f" ({self.source})" if self.source else "")
                        )
                    outcome.violations.append(Violation(t + 1, i + 1, seat, card, kind, CardSet(legal)))
                seats.append(seat)
                legals.append(legal)
                clauses.append(clause)
                winning.append(best_seat)
                if visitors:
                    for visitor in visitors:
                        visitor.play(trick, i, tuple(holding))
                holding[seat] = hand & ~(1 << card)
                if stacks:
                    for pile in stacks[seat]:
                        if pile and pile[-1] == card:
                            pile.pop()
                            if pile:
                                holding[seat] |= 1 << pile[-1]
                            break
            if len(cards) == shape.trick_size:
                trick.winner = best_seat
                trick.points = sum([CARD_POINTS[c] for c in cards])
                taken[team_of[best_seat]] += trick.points
                leader = best_seat
            outcome.tricks.append(trick)
            for visitor in visitors:
                visitor.end_trick(trick, outcome)
        for (trick_number, seat, _), where in moves.items():
            self.problem(
                where, f"{self.seat_name(seat)} plays no card there in trick {trick_number} to move before"
            )
        if self.problems:
            return False
        if len(played) < shape.tricks:
            outcome.kind = DealKind.ABANDONED
            return True
        outcome.points = (taken[0], taken[1])
        assert outcome.multiplier is not None
        outcome.score = score_deal(outcome.points, outcome.multiplier, self.rules)
        outcome.tie = outcome.score is None
        return True

    def take_played(self, ready: PlayedDeal, outcome: DealResult) -> bool:
        """:meth:`play_tricks` of a deal whose plays were worked out beforehand."""
        outcome.take_batch_plays(ready.plays, ready.row)
        outcome.violations += ready.violations
        if self.problems:
            return False
        if ready.tricks < self.shape.tricks:
            outcome.kind = DealKind.ABANDONED
            return True
        outcome.points = points = ready.taken
        factor = outcome.multiplier
        assert factor is not None
        key = (points, factor)
        if key in self.scores:
            score = self.scores[key]
        else:
            score = self.scores[key] = score_deal(points, factor, self.rules)
        outcome.score = score
        outcome.tie = score is None
        return True

    def read_moves(self, deal: Deal, pointer: str) -> dict[tuple[int, int, int], str] | None:
        """Table moves by (trick, seat, play), play 0 meaning the seat's first play of the trick."""
        if deal.table_moves is UNSET:
            return {}
        moves: dict[tuple[int, int, int], str] = {}
        for m, move in enumerate(deal.table_moves):
            where = f"{pointer}/table_moves/{m}"
            if not self.rules.shape.holds_table(move.seat):
                self.problem(where, f"{self.seat_name(move.seat)} has no table cards to move")
                return None
            moves[(move.trick, move.seat, 0 if move.play is UNSET else move.play)] = where
        return moves

    def move_to_empty_place(self, piles: list[list[int]], seat: int, where: str, holding: list[int]) -> bool:
        if piles[3] or len(piles[2]) < 2:
            self.problem(
                where,
                f"{self.seat_name(seat)} can move a card only from a 3rd pile of two to an emptied 4th place",
            )
            return False
        piles[3].append(piles[2].pop())
        holding[seat] |= 1 << piles[2][-1]
        return True

    def not_held(
        self,
        card: int,
        seat: int,
        t: int,
        i: int,
        played: list[list[Card]],
        stacks: list[list[list[int]]],
        pointer: str,
    ) -> None:
        where = f"{pointer}/tricks/{t}/{i}"
        name = self.seat_name(seat)
        # Looked up only here, on the error path, so the replay keeps no index of played cards.
        earlier = next((n for n in range(t + 1) if card in played[n][: i if n == t else None]), None)
        if earlier == t:  # typed twice in one trick: its place there is what finds the slip
            place = played[t].index(Card(card)) + 1
            self.problem(where, f"'{Card(card)}' was already played in this trick, as its card {place}")
        elif earlier is not None:
            self.problem(where, f"'{Card(card)}' was already played in trick {earlier + 1}")
        elif stacks and any(card in pile for pile in stacks[seat]):
            # the players' own piles (the two-player games) are the ones a move turns a card up in
            moves = (
                "; a card a move turns up needs its `move` line"
                if self.rules.shape.table_seats == "all"
                else ""
            )
            self.problem(
                where, f"'{Card(card)}' still lies face down on {name}'s table in trick {t + 1}{moves}"
            )
        else:
            # the dummy holds no hand, only its table; a card on another seat's table is said where it lies
            held = "on {}'s table" if seat >= self.rules.shape.people else "in {}'s hand"
            elsewhere = next(
                (
                    other
                    for other, piles in enumerate(stacks)
                    if other != seat and any(card in p for p in piles)
                ),
                None,
            )
            lies = "" if elsewhere is None else f": it lies on {self.seat_name(elsewhere)}'s table"
            self.problem(where, f"'{Card(card)}' is not {held.format(name)} in trick {t + 1}{lies}")

    def read_scoresheet(self, deal: Deal, outcome: DealResult) -> None:
        if deal.recorded_score is not UNSET:
            outcome.has_recorded = True
            recorded = deal.recorded_score
            score = outcome.score
            if recorded is None:
                outcome.recorded = None
            elif score is not None and score.team == recorded.team and score.points == recorded.points:
                outcome.recorded = score  # the same score: one (frozen) object for both
            else:
                outcome.recorded = DealScore(recorded.team, recorded.points)
        if outcome.kind is DealKind.SCORESHEET:
            outcome.tie = outcome.recorded is None
            outcome.score = outcome.recorded
        elif outcome.kind is DealKind.PLAYED and outcome.has_recorded and outcome.recorded != outcome.score:
            outcome.score_mismatch = True
            outcome.irregularities.append(
                Irregularity(
                    IrregularityKind.SCORE_MISMATCH,
                    outcome.number,
                    f"deal {outcome.number}: the scoresheet says {_say_score(outcome.recorded)}, "
                    f"the cards say {_say_score(outcome.score)}",
                )
            )
        if deal.penalties is not UNSET:
            for penalty in deal.penalties:
                points = self.rules.penalty_points if penalty.points is UNSET else penalty.points
                reason = "" if penalty.reason is UNSET else penalty.reason
                outcome.penalties.append((penalty.team, points, reason))


__all__ = [
    "CardsUnread",
    "PlayedDeal",
    "ReplayVisitor",
    "decode_and_replay",
    "match_id",
    "replay",
    "replay_entry",
    "rules_of",
]
