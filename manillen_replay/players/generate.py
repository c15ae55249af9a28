"""Whole matches from simulated players: records that look like a club's archive.

Everything random comes from one ``random.Random(seed)``, so the same options give the same
matches, byte for byte. Matches are grouped in evenings: a venue, a date, a table of four
players (drawn from the pool when more are given, partners rotating from match to match).
"""

from __future__ import annotations

import datetime
import random
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import msgspec

from ..cards import CARD_POINTS, CARD_TEXT, DECK_32_MASK, RANKS_PER_SUIT, CardSet
from ..dealing import Dealt
from ..dealing import deal as deal_cards
from ..errors import InvalidOptionError
from ..record import Deal, Declaration, MatchInfo, Record, RecordedScore, RuleOptions
from ..record.model import SuitLetter, TableMove
from ..rules import (
    Contract,
    DealScore,
    Rules,
    highest_deal_score,
    may_klop,
    multiplier,
    score_deal,
    trump_options,
)
from ..state import MatchState
from .club import ClubPolicy
from .novice import NovicePolicy
from .policy import DealKnowledge, Policy, cards_of, is_small_hand, longest_suit
from .profiles import PlayerProfile
from .slips import miscount, slip_card

POLICIES: dict[str, Policy] = {"novice": NovicePolicy(), "club": ClubPolicy()}
"""The policy of each skill."""

DEFAULT_VENUES: tuple[str, ...] = ("Cafe De Zwaan, Roeselare", "'t Hoekske, Izegem", "Cafe Sport, Tielt")
"""Where generated matches are played when no venue is given."""

DEFAULT_START = datetime.date(2026, 1, 9)
"""The date of the first generated evening when none is given."""

MAX_DEALS_PER_MATCH = 200
"""A guard: a match still undecided after this many deals stops (none came close in tests)."""

_SUIT_LETTERS: tuple[SuitLetter, ...] = ("H", "D", "C", "S")
_DECK = cards_of(DECK_32_MASK)
_SLUG_NOISE = {"cafe", "café", "de", "den", "het", "t", "'t", "in", "bij", "zaal", "herberg"}


@dataclass(frozen=True)
class GenerateOptions:
    """What to generate: who plays, under which rules, where and when."""

    players: tuple[PlayerProfile, ...]
    """Four players (seats 0-3, partners 0 and 2), or a larger pool to draw tables from."""
    rules: Rules = field(default_factory=Rules)
    """The house rules and the variant of every match."""
    seed: int = 0
    """The seed of the one random generator."""
    venues: tuple[str, ...] = DEFAULT_VENUES
    """The venues evenings are played at."""
    start: datetime.date = DEFAULT_START
    """The date of the first evening."""
    event: str | None = None
    """An event name written in every match, if any."""
    id_prefix: str = ""
    """Put before every match id, so that archives generated with other seeds can share a store."""


@dataclass(frozen=True)
class GeneratedMatch:
    """A generated record with its outcome, so callers need not replay it to know who won."""

    record: Record
    """The match in the record format."""
    final_score: tuple[int, ...]
    """Each team's (or, in the three-player games, person's) score when the match was decided."""
    winner: int | None
    """The team that won (``None`` for a draw)."""

    @property
    def deals(self) -> int:
        """How many deals the record holds (redeals included)."""
        return len(self.record.deals)


def iter_matches(options: GenerateOptions) -> Iterator[GeneratedMatch]:
    """Generated matches, without end: take as many as you need.

    A prefix of the matches does not depend on how many are taken.

    :raises InvalidOptionError: for fewer players than the variant seats, or no venue.
    """
    people = options.rules.shape.people
    if len(options.players) < people:
        raise InvalidOptionError(
            f"a table of {options.rules.variant!r} needs {people} players, {len(options.players)} given "
            "(give more to draw each evening's table from a pool)"
        )
    if not options.venues:
        raise InvalidOptionError("give at least one venue")
    rng = random.Random(options.seed)
    pool = list(options.players)
    day = options.start
    evening = 0
    while True:
        if evening:
            day += datetime.timedelta(days=rng.randint(1, 4))
        evening += 1
        venue = options.venues[rng.randrange(len(options.venues))]
        table = pool if len(pool) == people else rng.sample(pool, people)
        for number in range(1, rng.randint(2, 5) + 1):
            seats = table if len(pool) == people or people != 4 else _rotate_partners(table, number)
            info = MatchInfo(
                id=_match_id(options, venue, day, number),
                date=day,
                venue=venue,
                seats=[p.name for p in seats],
            )
            if options.event is not None:
                info.event = options.event
            if options.rules.variant != "four":
                info.variant = options.rules.variant  # type: ignore[assignment]
            rule_options = _rule_options(options.rules)
            if rule_options is not None:
                info.rules = rule_options
            yield _MatchMaker(rng, options.rules, seats).play(info)


def generate_matches(
    options: GenerateOptions, *, matches: int | None = None, deals: int | None = None
) -> list[GeneratedMatch]:
    """A number of matches, or as many as it takes to reach a number of deals.

    :param matches: stop after this many matches.
    :param deals: stop after the match that brings the total to this many deals.
    :raises InvalidOptionError: as :func:`iter_matches`, or when neither or both counts are given.
    """
    if (matches is None) == (deals is None):
        raise InvalidOptionError("give either a number of matches or a number of deals")
    out: list[GeneratedMatch] = []
    total = 0
    for match in iter_matches(options):
        if (matches is not None and len(out) >= matches) or (deals is not None and total >= deals):
            break
        out.append(match)
        total += match.deals
    return out


def _match_id(options: GenerateOptions, venue: str, day: datetime.date, number: int) -> str:
    """``zwaan-2026-01-09-1``; a variant's matches end in its name, so that the generated archives
    of two variants never replace each other's matches in one store."""
    variant = "" if options.rules.variant == "four" else f"-{options.rules.variant.replace('_', '-')}"
    return f"{options.id_prefix}{venue_slug(venue)}-{day.isoformat()}-{number}{variant}"


def venue_slug(venue: str) -> str:
    """A short id part for a venue: ``Cafe De Zwaan, Roeselare`` -> ``zwaan``.

    >>> venue_slug("'t Hoekske, Izegem")
    'hoekske'
    """
    words = re.findall(r"[\w']+", venue.split(",")[0].lower())
    kept = [w.strip("'") for w in words if w not in _SLUG_NOISE and w.strip("'")]
    return "-".join(kept or [w.strip("'") for w in words if w.strip("'")] or ["venue"])


def _rotate_partners(table: Sequence[PlayerProfile], number: int) -> list[PlayerProfile]:
    """Seatings in which the first player partners each of the others in turn."""
    a, b, c, d = table
    return [[a, b, c, d], [a, c, b, d], [a, b, d, c]][(number - 1) % 3]


def _rule_options(rules: Rules) -> RuleOptions | None:
    options = rules.to_options()
    return msgspec.convert(options, RuleOptions) if options else None


class _Outcome(NamedTuple):
    """What a generated deal did to the match."""

    redeal: bool
    """Thrown in: the same dealer deals again, nothing counts."""
    score: DealScore | None
    """What the cards score (``None``: nobody scores)."""
    tie: bool
    """A 30-30: the next deal counts double."""


class _MatchMaker:
    """Plays one match deal by deal with the seats' policies."""

    def __init__(self, rng: random.Random, rules: Rules, seats: Sequence[PlayerProfile]) -> None:
        self.rng = rng
        self.rules = rules
        self.shape = rules.shape
        self.seats = list(seats)
        # The club player's card play reasons about four seats; the other variants are played
        # with the novice's card choice (every player still calls trump and knocks in character).
        self.policies = [POLICIES[p.skill] for p in seats]
        self.card_policies = self.policies if rules.variant == "four" else [POLICIES["novice"]] * len(seats)
        if self.shape.players > len(self.seats):  # the dummy is played by the dealer
            self.policies = [*self.policies, self.policies[0]]
            self.card_policies = [*self.card_policies, self.card_policies[0]]

    def play(self, info: MatchInfo) -> GeneratedMatch:
        match = MatchState.start(self.rules)
        dealer = self.rng.randrange(self.shape.people)
        redeals_in_row = 0
        deals: list[Deal] = []
        while not match.finished and len(deals) < MAX_DEALS_PER_MATCH:
            deal, outcome = self.play_deal(dealer, redeals_in_row, match.carry)
            deals.append(deal)
            if outcome.redeal:
                redeals_in_row += 1
                continue
            redeals_in_row = 0
            match = match.apply_deal(outcome.score, outcome.tie, dealer=dealer)
            dealer = self.shape.next_dealer(dealer)
        record = Record(format="manillen/1", match=info, deals=deals)
        final = match.final_score or match.score
        return GeneratedMatch(record, tuple(final), match.winner)

    def play_deal(self, dealer: int, redeals_in_row: int, carried: bool) -> tuple[Deal, _Outcome]:
        rng = self.rng
        rules = self.rules
        shape = self.shape
        policies = self.policies
        if rules.variant == "four":
            # The four-player deal keeps its own shuffle so that archives stay byte-identical.
            deck = list(_DECK)
            rng.shuffle(deck)
            hands = tuple(sum(1 << card for card in deck[seat * 8 : seat * 8 + 8]) for seat in range(4))
            dealt = Dealt(hands, (), 0)
        else:
            dealt = _keep_best(deal_cards(rules, dealer, rng), dealer)
            hands = dealt.hands
        hand_text = [_hand_text(hand) for hand in hands]
        declarations: list[Declaration] = []
        en_face = False
        chooser = dealer
        turned: int | None = None
        if rules.trump_choice == "turned_card":
            # the dealer's last card: the four-player deal gives the dealer deck[dealer * 8 + 7]
            turned = deck[dealer * 8 + 7] if rules.variant == "four" else hands[dealer].bit_length() - 1
            contract, trump = Contract.TRUMP, turned // RANKS_PER_SUIT
            declarations.append(Declaration(seat=dealer, call="trump", suit=_SUIT_LETTERS[trump]))
        elif rules.blind_muil and policies[dealer].wants_blind_muil(rng):
            contract, trump = Contract.BLIND_MUIL, None
            declarations.append(Declaration(seat=dealer, call="blind_muil"))
        else:
            if (
                rules.redeal_small
                and shape.has_redeal
                and redeals_in_row < 2
                and is_small_hand(hands[dealer])
                and policies[dealer].wants_redeal(hands[dealer])
            ):
                redeal = Deal(
                    dealer=dealer, hands=hand_text, declarations=[Declaration(seat=dealer, call="redeal")]
                )
                return redeal, _Outcome(True, None, False)
            partner = shape.partner_of(dealer) if rules.variant != "six_short" else None
            may_pass = rules.en_face and partner is not None
            choice = policies[dealer].choose_contract(hands[dealer], rules, may_pass=may_pass)
            if choice.call == "en_face" and partner is not None:
                en_face = True
                declarations.append(Declaration(seat=dealer, call="en_face"))
                chooser = partner
                choice = policies[chooser].choose_contract(hands[chooser], rules, may_pass=False)
            if choice.call == "muil":
                contract, trump = Contract.MUIL, None
                declarations.append(Declaration(seat=chooser, call="muil"))
            else:
                contract, trump = Contract.TRUMP, choice.suit
                if trump not in trump_options(rules, hands[chooser]):
                    trump = longest_suit(hands[chooser])
                declarations.append(Declaration(seat=chooser, call="trump", suit=_SUIT_LETTERS[trump or 0]))
        knocks = self.knock(dealer, hands, trump, contract, declarations)
        tricks, taken, moves = self.play_tricks(dealer, dealt, trump, chooser)
        factor = multiplier(contract, en_face, knocks, carried, rules)
        score = score_deal(taken, factor, rules)
        deal = Deal(
            dealer=dealer,
            hands=hand_text,
            declarations=declarations,
            tricks=tricks,
            recorded_score=self.scoresheet(score, factor, dealer),
        )
        if dealt.table:
            deal.table = [[[CARD_TEXT[c] for c in pile] for pile in piles if pile] for piles in dealt.table]
        if dealt.discards:
            deal.discards = _hand_text(dealt.discards)
        if moves:
            deal.table_moves = moves
        if turned is not None:
            deal.turned = CARD_TEXT[turned]
        return deal, _Outcome(False, score, score is None)

    def knock(
        self,
        dealer: int,
        hands: tuple[int, ...],
        trump: int | None,
        contract: Contract,
        declarations: list[Declaration],
    ) -> int:
        """Klop by the non-dealing team, tegenklop by the dealers, on while the cafe rule allows."""
        rules = self.rules
        if contract is not Contract.TRUMP and not rules.klop_on_muil:
            return 0
        limit = 8 if rules.eternal_klop else 2
        knocks = 0
        shape = self.shape
        people = range(shape.people)
        dealing = shape.team_of(dealer, dealer)
        knockers = tuple(s for s in people if may_klop(rules, s, dealer))
        answerers = tuple(s for s in people if shape.team_of(s, dealer) == dealing)
        while knocks < limit:
            order = knockers if knocks % 2 == 0 else answerers
            knocker = next((s for s in order if self.policies[s].wants_knock(hands[s], trump, knocks)), None)
            if knocker is None:
                break
            declarations.append(Declaration(seat=knocker, call="klop" if knocks % 2 == 0 else "tegenklop"))
            knocks += 1
        return knocks

    def play_tricks(
        self, dealer: int, dealt: Dealt, trump: int | None, chooser: int
    ) -> tuple[list[list[str]], tuple[int, int], list[TableMove]]:
        """Every trick, each seat's policy choosing, now and then a slip."""
        rng = self.rng
        policies = self.card_policies
        slip_rates = [p.slip_rate for p in self.seats]
        slip_rates += [slip_rates[dealer]] * (self.shape.players - len(slip_rates))
        state = dealt.start(self.rules, dealer, trump, chooser)
        knowledge = DealKnowledge(self.rules, trump, self.shape.team_of(chooser, dealer))
        tricks: list[list[str]] = []
        current: list[str] = []
        moves: list[TableMove] = []
        while not state.is_over:
            seat = state.to_play
            if state.table and state.can_move_to_empty_place(seat):
                # Uncovering another card can only help, so a player always makes the move.
                state = state.move_to_empty_place(seat)
                moves.append(TableMove(seat=seat, trick=state.tricks_done + 1, play=len(state.trick) + 1))
            legal = state.legal_mask()
            card = None
            if slip_rates[seat] and rng.random() < slip_rates[seat]:
                card = slip_card(state, legal, rng)
            if card is None:
                card = policies[seat].choose_card(state, legal, knowledge, rng)
            knowledge.observe(state, card)
            current.append(CARD_TEXT[card])
            state = state.apply(card)
            if not state.trick:
                tricks.append(current)
                current = []
        return tricks, state.taken, moves

    def scoresheet(self, score: DealScore | None, factor: int, dealer: int) -> RecordedScore | None:
        """The line written down: counted by a player of the losing team, now and then wrong."""
        rng = self.rng
        shape = self.shape
        people = range(shape.people)
        losers = [s for s in people if score is None or shape.team_of(s, dealer) != score.team] or list(
            people
        )
        writer = losers[rng.randrange(len(losers))]
        written = score
        if rng.random() < self.seats[writer].score_error_rate:
            written = miscount(score, factor, rng, highest_deal_score(self.rules))
        return None if written is None else RecordedScore(team=written.team, points=written.points)


def _keep_best(dealt: Dealt, maker: int) -> Dealt:
    """The trump maker's choice of the cards to lay aside: those worth least.

    :func:`manillen_replay.dealing.deal` lays aside random cards of the maker's hand and the
    laid-aside ones; a player keeps the point cards.
    """
    if not dealt.discards:
        return dealt
    hands = list(dealt.hands)
    pool = sorted(cards_of(hands[maker] | dealt.discards), key=lambda c: (CARD_POINTS[c], c % RANKS_PER_SUIT))
    laid = sum(1 << c for c in pool[: dealt.discards.bit_count()])
    hands[maker] = (hands[maker] | dealt.discards) & ~laid
    return Dealt(tuple(hands), dealt.table, laid)


def _hand_text(hand: int) -> list[str]:
    return [CARD_TEXT[card] for card in CardSet(hand).sorted_for_display()]


__all__ = [
    "DEFAULT_START",
    "DEFAULT_VENUES",
    "POLICIES",
    "GenerateOptions",
    "GeneratedMatch",
    "generate_matches",
    "iter_matches",
    "venue_slug",
]
