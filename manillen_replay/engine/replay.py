"""Replay of a record through the rules: checks every deal, scores it, and drives visitors.

Problems that make a record invalid (record-format.md) are collected, each with its JSON
pointer, and raised together; plays that break the rules of play are replayed and reported.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from msgspec import UNSET

from ..cards import CARD_BY_TEXT, CARD_POINTS, RANKS_PER_SUIT, Card, CardSet, Suit, mask_of
from ..errors import IllegalPlayError, InvalidOptionError, InvalidRecordError, RecordError
from ..record.io import dumps
from ..record.model import Deal, Declaration, Record
from ..rules import (
    CLAUSES,
    NO_TRUMP,
    Clause,
    Contract,
    DealScore,
    Rules,
    classify_violation,
    legal_core,
    multiplier,
    score_deal,
    winning_position,
)
from ..state import MatchState
from .results import (
    DealKind,
    DealResult,
    Irregularity,
    IrregularityKind,
    MatchResult,
    TrickResult,
    Violation,
)


class ReplayVisitor:
    """Receives a replay as it happens; override what you need (python-chess's pgn visitors)."""

    def begin_match(self, record: Record, result: MatchResult) -> None:
        """Before the first deal."""

    def begin_deal(self, deal: Deal, result: DealResult) -> None:
        """Before a deal's plays, with its declarations already read."""

    def play(self, trick: TrickResult, position: int, hands_before: Sequence[int]) -> None:
        """After each card: ``trick`` holds it at ``position``; ``hands_before`` as it was played."""

    def end_trick(self, trick: TrickResult, result: DealResult) -> None:
        """After a trick is complete."""

    def end_deal(self, result: DealResult) -> None:
        """After a deal is scored."""

    def end_match(self, result: MatchResult) -> None:
        """After the last deal."""


def rules_of(record: Record) -> Rules:
    """The rules a record is played under: its variant and options over the defaults.

    :raises InvalidOptionError: for an option value the rules do not know.
    """
    from msgspec import to_builtins

    options = to_builtins(record.match.rules) if record.match.rules is not UNSET else {}
    if record.match.variant is not UNSET:
        options["variant"] = record.match.variant
    return Rules.from_options(options)


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
) -> MatchResult:
    """Replay a whole match.

    :param source: the file the record came from, for messages.
    :param line: its line in a JSON Lines archive.
    :param strict: raise at the first illegal play instead of reporting it.
    :param visitors: called as the replay goes.
    :raises InvalidRecordError: listing every problem that makes the record invalid.
    :raises IllegalPlayError: in strict mode, at the first play that breaks the rules.
    """
    return _Replay(record, source, line, strict, visitors).run()


class _Replay:
    def __init__(
        self,
        record: Record,
        source: str | None,
        line: int | None,
        strict: bool,
        visitors: Sequence[ReplayVisitor],
    ) -> None:
        self.record = record
        self.source = source
        self.line = line
        self.strict = strict
        self.visitors = visitors
        self.problems: list[RecordError] = []

    def problem(self, pointer: str, message: str) -> None:
        self.problems.append(RecordError(message, pointer, self.source, self.line))

    def run(self) -> MatchResult:
        record = self.record
        try:
            rules = rules_of(record)
        except InvalidOptionError as error:
            self.problem("/match/rules", str(error))
            raise InvalidRecordError(self.problems) from None
        shape = rules.shape
        if not shape.supported:
            self.problem(
                "/match/variant",
                f"variant {rules.variant!r} is not supported yet; this version replays 'four'",
            )
            raise InvalidRecordError(self.problems)
        seats = list(record.match.seats)
        if len(seats) != shape.players:
            self.problem(
                "/match/seats",
                f"{rules.variant!r} is played by {shape.players} players, the record names {len(seats)}",
            )
            raise InvalidRecordError(self.problems)
        self.rules = rules
        self.names = seats
        source = self.source if self.line is None else f"{self.source}:{self.line}"
        result = MatchResult(id=match_id(record), source=source, seats=seats, rules=rules)
        for visitor in self.visitors:
            visitor.begin_match(record, result)
        match = MatchState.start(rules)
        previous_dealer: int | None = None
        previous_redeal = False
        redeals_in_row = 0
        announced_over = False
        for index, deal in enumerate(record.deals):
            pointer = f"/deals/{index}"
            if deal.dealer >= shape.players:
                self.problem(
                    f"{pointer}/dealer",
                    f"seat {deal.dealer} does not exist: seats are 0 to {shape.players - 1}",
                )
                continue
            outcome = DealResult(number=index + 1, dealer=deal.dealer, kind=DealKind.PLAYED)
            if previous_dealer is not None:
                expected = previous_dealer if previous_redeal else shape.next_seat(previous_dealer)
                if deal.dealer != expected:
                    outcome.irregularities.append(
                        Irregularity(
                            IrregularityKind.DEALER_OUT_OF_ROTATION,
                            index + 1,
                            f"deal {index + 1} was dealt by {self.names[deal.dealer]} (seat {deal.dealer}); "
                            f"by rotation it was {self.names[expected]}'s turn (seat {expected})",
                        )
                    )
            if not self.read_declarations(deal, outcome, pointer, redeals_in_row):
                previous_dealer, previous_redeal = deal.dealer, False
                continue
            outcome.carried = match.carry
            if outcome.contract is not None:
                outcome.multiplier = multiplier(
                    outcome.contract, outcome.en_face, outcome.knocks, match.carry, rules
                )
            if outcome.kind is DealKind.REDEAL:
                redeals_in_row += 1
            else:
                redeals_in_row = 0
            for visitor in self.visitors:
                visitor.begin_deal(deal, outcome)
            if outcome.kind is not DealKind.REDEAL and not self.play_deal(deal, outcome, pointer):
                previous_dealer, previous_redeal = deal.dealer, False
                continue
            self.read_penalties(deal, outcome, pointer)
            if outcome.kind in (DealKind.PLAYED, DealKind.SCORESHEET):
                if match.finished:
                    outcome.counted = False
                    if not announced_over:
                        announced_over = True
                        a, b = match.final_score or match.score
                        outcome.irregularities.append(
                            Irregularity(
                                IrregularityKind.PLAYED_ON_AFTER_MATCH_WON,
                                index + 1,
                                f"the match was already decided at {a}-{b}; deal {index + 1} "
                                "and any after it do not count",
                            )
                        )
                match = match.apply_deal(
                    outcome.score,
                    outcome.tie,
                    tuple((team, points) for team, points, _ in outcome.penalties),
                )
            outcome.match_score = match.score
            previous_dealer = deal.dealer
            previous_redeal = outcome.kind is DealKind.REDEAL
            result.deals.append(outcome)
            for visitor in self.visitors:
                visitor.end_deal(outcome)
        if self.problems:
            raise InvalidRecordError(self.problems)
        result.score = match.score
        result.final_score = match.final_score or match.score
        result.winner = match.winner
        result.finished = match.finished
        for visitor in self.visitors:
            visitor.end_match(result)
        return result

    # ------------------------------------------------------------------ declarations

    def read_declarations(self, deal: Deal, outcome: DealResult, pointer: str, redeals_in_row: int) -> bool:
        rules = self.rules
        shape = rules.shape
        dealer = deal.dealer
        calls: list[Declaration] = [] if deal.declarations is UNSET else deal.declarations
        before = len(self.problems)
        stage = "contract"
        knocks_by: list[int] = []
        for i, call in enumerate(calls):
            where = f"{pointer}/declarations/{i}"
            name = self.names[call.seat] if call.seat < len(self.names) else f"seat {call.seat}"
            if call.seat >= shape.players:
                self.problem(
                    f"{where}/seat", f"seat {call.seat} does not exist: seats are 0 to {shape.players - 1}"
                )
                return False
            team = shape.team_of(call.seat, dealer)
            dealing_team = shape.team_of(dealer, dealer)
            if call.call != "trump" and call.suit is not UNSET:
                self.problem(f"{where}/suit", f"a {call.call!r} call takes no suit")
            if call.call == "redeal":
                if not rules.redeal_small:
                    self.problem(where, "a redeal needs the cafe rule 'redeal_small' (match.rules.cafe)")
                elif i != 0 or len(calls) > 1:
                    self.problem(where, "a redeal is the only call of its deal")
                elif call.seat != dealer:
                    self.problem(where, f"only the dealer may demand a redeal, not {name}")
                elif redeals_in_row >= 2:
                    self.problem(
                        where, "a third redeal in a row is not allowed: the third deal must be played"
                    )
                elif deal.tricks is not UNSET and deal.tricks:
                    self.problem(f"{pointer}/tricks", "a redealt deal has no tricks")
                else:
                    outcome.kind = DealKind.REDEAL
                    if deal.hands is not UNSET and 0 <= dealer < len(deal.hands):
                        self.check_redeal_hand(deal.hands[dealer], where)
                continue
            if stage == "contract":
                if call.call == "en_face":
                    if not rules.en_face:
                        self.problem(where, "'en_face' needs the cafe rule 'en_face' (match.rules.cafe)")
                    elif call.seat != dealer:
                        self.problem(where, f"only the dealer may call en face, not {name}")
                    else:
                        outcome.en_face = True
                        stage = "partner"
                    continue
                if call.call in ("trump", "muil", "blind_muil"):
                    if call.seat != dealer:
                        self.problem(
                            where,
                            f"{name} (seat {call.seat}) may not make trump: the dealer is seat {dealer}",
                        )
                        continue
                    self.read_contract(call, outcome, where, partner=False)
                    stage = "knocks"
                    continue
            elif stage == "partner":
                partner = (dealer + 2) % shape.players
                if call.call in ("trump", "muil"):
                    if call.seat != partner:
                        self.problem(
                            where,
                            f"after en face the dealer's partner (seat {partner}) makes trump, not {name}",
                        )
                        continue
                    self.read_contract(call, outcome, where, partner=True)
                    stage = "knocks"
                    continue
                if call.call == "en_face":
                    self.problem(where, "en face cannot be passed back: the partner must make trump")
                    continue
            elif stage == "knocks" and call.call in ("klop", "tegenklop"):
                wanted = "klop" if len(knocks_by) % 2 == 0 else "tegenklop"
                limit = None if rules.eternal_klop else 2
                if outcome.contract in (Contract.MUIL, Contract.BLIND_MUIL) and not rules.klop_on_muil:
                    self.problem(where, "a muil may not be knocked under these rules (klop_on_muil is false)")
                elif limit is not None and len(knocks_by) >= limit:
                    self.problem(where, "knocking stops at tegenklop without the cafe rule 'eternal_klop'")
                elif call.call != wanted:
                    self.problem(
                        where,
                        f"expected {wanted!r} here, not {call.call!r}: "
                        "klop and tegenklop alternate, klop first",
                    )
                elif call.call == "klop" and team == dealing_team:
                    self.problem(
                        where,
                        f"{name} is on the dealing team and cannot klop; "
                        "the dealing team answers with tegenklop",
                    )
                elif call.call == "tegenklop" and team != dealing_team:
                    self.problem(
                        where, f"{name} is not on the dealing team: only the dealing team may tegenklop"
                    )
                else:
                    knocks_by.append(call.seat)
                continue
            if call.call == "pass":
                self.problem(where, "'pass' is only used in the six_short variant")
            elif call.call in ("klop", "tegenklop"):
                self.problem(where, f"{call.call!r} comes after trump is made")
            else:
                self.problem(where, f"{call.call!r} is out of order here")
        outcome.knocks = len(knocks_by)
        if outcome.kind is not DealKind.REDEAL and stage == "partner":
            self.problem(f"{pointer}/declarations", "after en face the partner's trump call is missing")
        return len(self.problems) == before

    def read_contract(self, call: Declaration, outcome: DealResult, where: str, *, partner: bool) -> None:
        outcome.chooser = call.seat
        if call.call == "trump":
            if call.suit is UNSET:
                self.problem(where, "a trump call needs a suit: H, D, C or S")
                return
            outcome.contract = Contract.TRUMP
            outcome.trump = Suit[call.suit]
        elif call.call == "muil":
            outcome.contract = Contract.MUIL
        elif not self.rules.blind_muil:
            self.problem(where, "'blind_muil' needs the cafe rule 'blind_muil' (match.rules.cafe)")
        else:
            outcome.contract = Contract.BLIND_MUIL

    def check_redeal_hand(self, hand: list[str], where: str) -> None:
        cards = [CARD_BY_TEXT[c] for c in hand if c in CARD_BY_TEXT]
        small = sum(1 for c in cards if c.rank.text in ("7", "8", "9"))
        jacks = sum(1 for c in cards if c.rank.text == "J")
        if small < 5 or jacks < 1:
            self.problem(
                where,
                f"a redeal needs five small cards (7, 8, 9) and a jack; the dealer held {' '.join(hand)}",
            )

    # ------------------------------------------------------------------ cards and plays

    def play_deal(self, deal: Deal, outcome: DealResult, pointer: str) -> bool:
        shape = self.rules.shape
        before = len(self.problems)
        tricks = [] if deal.tricks is UNSET else deal.tricks
        has_hands = deal.hands is not UNSET
        if not tricks:
            if deal.recorded_score is not UNSET:
                outcome.kind = DealKind.SCORESHEET
                self.read_recorded(deal, outcome)
                if outcome.recorded is None:
                    outcome.tie = True
                else:
                    outcome.score = outcome.recorded
                if has_hands:
                    outcome.hands = self.read_hands(deal, pointer)
                return len(self.problems) == before
            if not has_hands:
                self.problem(pointer, "a deal needs tricks, hands or a recorded_score")
                return False
        if outcome.contract is None:
            self.problem(
                f"{pointer}/declarations", "a deal with tricks or hands needs the trump call (declarations)"
            )
            return False
        for t, trick in enumerate(tricks):
            if len(trick) != shape.trick_size:
                self.problem(
                    f"{pointer}/tricks/{t}", f"a trick has {shape.trick_size} cards, this one {len(trick)}"
                )
        if len(tricks) > shape.tricks:
            self.problem(f"{pointer}/tricks", f"a deal has {shape.tricks} tricks, this one {len(tricks)}")
        if len(self.problems) > before:
            return False
        trump = None if outcome.trump is None else int(outcome.trump)
        played = [[CARD_BY_TEXT[c] for c in trick] for trick in tricks]
        if has_hands:
            hands = self.read_hands(deal, pointer)
            if hands is None:
                return False
        else:
            if len(tricks) < shape.tricks:
                self.problem(
                    f"{pointer}/tricks",
                    f"{len(tricks)} of {shape.tricks} tricks and no hands: "
                    "a deal may stop early only when its hands are given",
                )
                return False
            hands = self.hands_from_tricks(played, deal.dealer, trump, pointer)
            if hands is None:
                return False
        outcome.hands = hands
        return self.play_tricks(played, hands, outcome, trump, pointer)

    def read_hands(self, deal: Deal, pointer: str) -> tuple[int, ...] | None:
        shape = self.rules.shape
        hands_text = deal.hands if deal.hands is not UNSET else []
        ok = True
        if len(hands_text) != shape.players:
            self.problem(
                f"{pointer}/hands", f"{shape.players} hands are dealt, the record has {len(hands_text)}"
            )
            return None
        masks = [mask_of([CARD_BY_TEXT[text] for text in hand]) for hand in hands_text]
        union = 0
        for mask in masks:
            union |= mask
        if (
            union == shape.deck_mask
            and all(len(h) == shape.hand_size for h in hands_text)
            and (union.bit_count() == sum(len(h) for h in hands_text))
        ):
            return tuple(masks)
        seen: dict[int, str] = {}
        masks = []
        for s, hand in enumerate(hands_text):
            if len(hand) != shape.hand_size:
                self.problem(
                    f"{pointer}/hands/{s}",
                    f"{self.names[s]}'s hand has {len(hand)} cards; each seat is dealt {shape.hand_size}",
                )
                ok = False
            mask = 0
            for i, text in enumerate(hand):
                card = CARD_BY_TEXT[text]
                where = f"{pointer}/hands/{s}/{i}"
                if not shape.deck_mask >> card & 1:
                    self.problem(where, f"{text!r} is not in the deck of {self.rules.variant!r}")
                    ok = False
                elif card in seen:
                    self.problem(where, f"{text!r} was dealt twice (also at {seen[card]})")
                    ok = False
                else:
                    seen[card] = where
                mask |= 1 << card
            masks.append(mask)
        if ok:
            missing = shape.deck_mask & ~mask_of(seen)
            if missing:
                self.problem(f"{pointer}/hands", f"cards missing from the deal: {CardSet(missing)}")
                ok = False
        return tuple(masks) if ok else None

    def hands_from_tricks(
        self, played: list[list[Card]], dealer: int, trump: int | None, pointer: str
    ) -> tuple[int, ...] | None:
        shape = self.rules.shape
        masks = [0] * shape.players
        seen: dict[int, int] = {}
        leader = shape.next_seat(dealer)
        ok = True
        for t, trick in enumerate(played):
            for i, card in enumerate(trick):
                where = f"{pointer}/tricks/{t}/{i}"
                if not shape.deck_mask >> card & 1:
                    self.problem(where, f"'{card}' is not in the deck of {self.rules.variant!r}")
                    ok = False
                elif card in seen:
                    self.problem(where, f"'{card}' was already played in trick {seen[card] + 1}")
                    ok = False
                seen.setdefault(card, t)
                masks[shape.seat_of_play(leader, i)] |= 1 << card
            leader = shape.seat_of_play(leader, winning_position(trick, trump))
        return tuple(masks) if ok else None

    def play_tricks(
        self,
        played: list[list[Card]],
        hands: tuple[int, ...],
        outcome: DealResult,
        trump: int | None,
        pointer: str,
    ) -> bool:
        rules = self.rules
        shape = rules.shape
        dealer = outcome.dealer
        team_of = [shape.team_of(s, dealer) for s in range(shape.players)]
        holding = list(hands)
        taken = [0, 0]
        played_in: dict[int, int] = {}
        leader = shape.next_seat(dealer)
        visitors = self.visitors
        players = shape.players
        trump_code = NO_TRUMP if trump is None else trump
        exempt = rules.partner_exempt
        forbid = rules.underbuy == "forbidden"
        for t, cards in enumerate(played):
            seats: list[int] = []
            legals: list[int] = []
            clauses: list[Clause] = []
            winning: list[int] = []
            trick = TrickResult(t + 1, leader, seats, cards, legals, clauses, winning)
            led = cards[0] // RANKS_PER_SUIT if cards else 0
            best = best_suit = best_seat = 0
            for i, card in enumerate(cards):
                seat = (leader + i) % players
                hand = holding[seat]
                if not hand >> card & 1:
                    where = f"{pointer}/tricks/{t}/{i}"
                    if card in played_in:
                        self.problem(where, f"'{card}' was already played in trick {played_in[card] + 1}")
                    else:
                        self.problem(
                            where,
                            f"'{card}' is not in {self.names[seat]}'s hand (seat {seat}) in trick {t + 1}",
                        )
                    return False
                suit = card // RANKS_PER_SUIT
                if i:
                    legal, code = legal_core(
                        led, best, hand, trump_code, team_of[best_seat] == team_of[seat], exempt, forbid
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
                            f"illegal play: '{card}' by {self.names[seat]} in trick {t + 1}: {kind.value}"
                            + (f" ({self.source})" if self.source else "")
                        )
                    outcome.violations.append(Violation(t + 1, i + 1, seat, card, kind, CardSet(legal)))
                played_in[card] = t
                seats.append(seat)
                legals.append(legal)
                clauses.append(clause)
                winning.append(best_seat)
                if visitors:
                    for visitor in visitors:
                        visitor.play(trick, i, tuple(holding))
                holding[seat] = hand & ~(1 << card)
            if len(cards) == shape.trick_size:
                trick.winner = best_seat
                trick.points = sum([CARD_POINTS[c] for c in cards])
                taken[team_of[best_seat]] += trick.points
                leader = best_seat
            outcome.tricks.append(trick)
            for visitor in visitors:
                visitor.end_trick(trick, outcome)
        if len(played) < shape.tricks:
            outcome.kind = DealKind.ABANDONED
            return True
        outcome.points = (taken[0], taken[1])
        assert outcome.multiplier is not None
        outcome.score = score_deal(outcome.points, outcome.multiplier)
        outcome.tie = outcome.score is None
        return True

    def read_recorded(self, deal: Deal, outcome: DealResult) -> None:
        if deal.recorded_score is UNSET:
            return
        outcome.has_recorded = True
        recorded = deal.recorded_score
        outcome.recorded = None if recorded is None else DealScore(recorded.team, recorded.points)

    def read_penalties(self, deal: Deal, outcome: DealResult, pointer: str) -> None:
        if outcome.kind is DealKind.PLAYED:
            self.read_recorded(deal, outcome)
            if outcome.has_recorded and outcome.recorded != outcome.score:
                outcome.score_mismatch = True
                outcome.irregularities.append(
                    Irregularity(
                        IrregularityKind.SCORE_MISMATCH,
                        outcome.number,
                        f"deal {outcome.number}: the scoresheet says {_say_score(outcome.recorded)}, "
                        f"the cards say {_say_score(outcome.score)}",
                    )
                )
        if deal.penalties is UNSET:
            return
        for penalty in deal.penalties:
            points = self.rules.penalty_points if penalty.points is UNSET else penalty.points
            reason = "" if penalty.reason is UNSET else penalty.reason
            outcome.penalties.append((penalty.team, points, reason))


def _say_score(score: DealScore | None) -> str:
    if score is None:
        return "30-30 (nobody scores)"
    return f"team {score.team} scored {score.points}"


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

    return replay(
        loads(data, source=source, line=line), source=source, line=line, strict=strict, visitors=visitors
    )


__all__ = ["ReplayVisitor", "decode_and_replay", "match_id", "replay", "rules_of"]
