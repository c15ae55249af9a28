"""The built-in detectors: illegal plays, scoring and procedure problems, and strategy mistakes.

Each detector's precise definition and severity thresholds are in docs/findings.md; the
thresholds live beside each detector here. Points at stake are scoresheet points: card points
times the deal's multiplier for a card, the difference in the deal's score for a call.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from msgspec import UNSET

from ..cards import CARDS, SUIT_MASKS, Card, CardSet, Rank, Suit, iter_mask
from ..engine.report import seat_names
from ..engine.results import DealKind, DealResult, IrregularityKind, MatchResult, TrickResult, Violation
from ..record.model import Record
from ..rules import Contract, DealScore, ViolationKind, may_klop, multiplier, score_deal, winning_position
from .findings import COST_THRESHOLDS, Category, Finding, Severity, Thresholds
from .knowledge import (
    POORER_THAN,
    RICHER_THAN,
    DealKnowledge,
    PlayView,
    higher_of_suit,
    points_of,
    seat_teams,
    suit_of,
)
from .record_slips import Slip, find_slip, slip_words
from .words import (
    RANK_NL,
    and_nl,
    card_en,
    card_nl,
    card_points_en,
    card_points_nl,
    cards_en,
    cards_nl,
    factor_en,
    factor_nl,
    more_points_en,
    more_points_nl,
    or_en,
    or_nl,
    points_en,
    points_nl,
    suit_en,
    suit_nl,
    team_names,
)

if TYPE_CHECKING:  # the solver imports the analysis, not the other way round
    from ..engine.results import BatchPlays
    from .batch_gate import BatchGate
    from .costs import PlayCost

RULE_THRESHOLDS = Thresholds(1, 10, 20)
"""Illegal plays: the points are the fault's price if the table had called it (``penalty_points``)."""
SCORE_THRESHOLDS = Thresholds(1, 3, 10)
"""score_mismatch: the points the scoresheet is off by, both teams together."""
CARD_THRESHOLDS = Thresholds(1, 3, 5)
"""Card-level strategy (missed_vetten, bare_ace_lost, wasted_trump, ...) without the solver's costs:
scoresheet points (with them, :func:`card_severity`)."""
CALL_THRESHOLDS = Thresholds(1, 6, 15)
"""Calls (klop_missed, klop_lost, muil_missed): the difference in the deal's score."""
KLOP_TRUMPS = 5
"""The club's knock rule: a player dealt this many trumps or more knocks (klop_missed when the
team did not, and a lost knock with them is a sound call, not a mistake: klop_lost is info)."""

VIEW_MARGIN = 0.5
"""With the solver's costs, a better card must be worth at least this many card points more on
average, from the player's view, for a strategy finding to stand (half the smallest card)."""

_WITH_PLAYS = (DealKind.PLAYED, DealKind.ABANDONED)


def _batch_gate() -> Callable[[BatchPlays, int], BatchGate]:
    """:func:`.batch_gate.batch_gate`, imported when a deal of the bulk replay first asks for it
    (numpy is loaded there already; a file of a few matches is analysed without it)."""
    from .batch_gate import batch_gate

    return batch_gate


MANILLES = sum(1 << Card.of(Rank.TEN, suit) for suit in Suit)
"""The four tens (manilles), as a mask."""

STRATEGY_VARIANTS = ("four",)
"""Variants the strategy detectors judge; the others get the rule, scoring and procedure ones."""

KIND_CATEGORY: dict[str, Category] = {
    "revoke": Category.RULE,
    "failed_to_overtake": Category.RULE,
    "failed_to_buy": Category.RULE,
    "illegal_underbuy": Category.RULE,
    "score_mismatch": Category.SCORING,
    "dealer_out_of_rotation": Category.PROCEDURE,
    "record_slip": Category.PROCEDURE,
    "played_on_after_match_won": Category.PROCEDURE,
    "missed_vetten": Category.STRATEGY,
    "bare_ace_lost": Category.STRATEGY,
    "wasted_trump": Category.STRATEGY,
    "points_thrown": Category.STRATEGY,
    "unsafe_vetten": Category.STRATEGY,
    "trump_overspent": Category.STRATEGY,
    "master_trump_smeared": Category.STRATEGY,
    "klop_missed": Category.STRATEGY,
    "klop_lost": Category.STRATEGY,
    "muil_missed": Category.STRATEGY,
}
"""Every built-in kind and its category."""


class MatchAnalysis:
    """Runs every built-in detector over one replayed match."""

    def __init__(
        self,
        result: MatchResult,
        record: Record | None = None,
        *,
        strategy: bool = True,
        costs: Mapping[int, Sequence[PlayCost]] | None = None,
    ) -> None:
        """
        :param result: the replayed match.
        :param record: the record it came from; only needed to say who knocked.
        :param strategy: run the strategy detectors (``False``: rule, scoring, procedure only).
        :param costs: the solver's costs of the plays, by deal number
            (:func:`manillen_replay.analysis.costs.view_costs`); with them the card-play detectors
            measure the points at stake from the player's view.
        """
        self.result = result
        self.record = record
        self.rules = result.rules
        self.names: Sequence[str] = result.seats
        # the same seats in Dutch: only the dummy's differs (``blinde van Anna``)
        self.names_nl: Sequence[str] = result.seats
        self.dummy = self.rules.shape.players > self.rules.shape.people
        self.seatings: dict[tuple[tuple[str, ...], int], tuple[tuple[str, ...], tuple[str, ...]]] = {}
        self.findings: list[Finding] = []
        # The strategy detectors reason about two pairs of partners holding eight cards each.
        self.strategy = strategy and self.rules.variant in STRATEGY_VARIANTS
        self.costs = costs or {}
        self.deal_costs: dict[tuple[int, int], PlayCost] = {}

    def run(self) -> list[Finding]:
        """Every finding of the match, in the order of the deals."""
        self.procedure()
        shape = self.rules.shape
        gated: object = None  # the batch whose gate is at hand (a match's deals share one)
        gate: BatchGate | None = None
        for deal in self.result.deals:
            in_batch = deal.batch_plays  # before anything builds its tricks (they leave the batch then)
            self.name_seats(deal)
            team_of = seat_teams(shape, deal.dealer)
            if deal.violations:
                slip = find_slip(deal, self.rules)
                for violation in deal.violations:
                    self.illegal_play(deal, violation, slip)
            if deal.score_mismatch:
                self.score_mismatch(deal, team_of)
            if not self.strategy:
                continue
            if deal.kind in _WITH_PLAYS and deal.hands is not None and deal.trick_count:
                if self.costs:  # without them deal_costs stays empty: no dict a deal
                    self.deal_costs = {(c.trick, c.play): c for c in self.costs.get(deal.number, ())}
                if in_batch is None:
                    self.card_play(DealKnowledge(deal, self.rules))
                else:
                    # A deal of the bulk replay: its batch's gate says which plays may give a
                    # finding, so most deals need neither their tricks nor their view built.
                    batch, row = in_batch
                    if batch is not gated:
                        gated, gate = batch, _batch_gate()(batch, shape.deck_mask)
                    assert gate is not None
                    plays = gate.plays.get(row, ())
                    bare = row in gate.bare_aces
                    if plays or bare:
                        known = gate.known(row, deal.trick_count * shape.trick_size)
                        self.card_play(DealKnowledge(deal, self.rules, known), plays, bare_aces=bare)
            if deal.kind is DealKind.PLAYED and deal.points is not None:
                self.calls(deal, team_of)
        return self.findings

    # ------------------------------------------------------------------ helpers

    def name_seats(self, deal: DealResult) -> None:
        """The deal's seat names for the findings' words (:attr:`names`, :attr:`names_nl`).

        Naming the seats costs more than most deals' detectors, and a match has a seating or two:
        each is named once (and once for each dealer in a variant with a dummy, named after its
        dealer).
        """
        key = (tuple(deal.names), deal.dealer if self.dummy else -1)
        named = self.seatings.get(key)
        if named is None:
            named = self.seatings[key] = (
                tuple(seat_names(self.result, deal)),
                tuple(seat_names(self.result, deal, "nl")),
            )
        self.names, self.names_nl = named

    def add(
        self,
        kind: str,
        severity: Severity,
        deal: int | None,
        *,
        trick: int | None = None,
        play: int | None = None,
        seat: int | None = None,
        player: str | None = None,
        card: int | None = None,
        better: tuple[int, ...] = (),
        points: float = 0.0,
        en: str,
        nl: str,
    ) -> Finding:
        finding = Finding(
            kind=kind,
            category=KIND_CATEGORY[kind],
            severity=severity,
            match=self.result.id,
            deal=deal,
            trick=trick,
            play=play,
            seat=seat,
            player=player if player is not None else (None if seat is None else self.names[seat]),
            card=None if card is None else CARDS[card],
            better=tuple(CARDS[c] for c in better),
            points=float(points),
            explanation=en,
            explanation_nl=nl,
        )
        self.findings.append(finding)
        return finding

    def view_gains(self, view: PlayView, cards: Sequence[int]) -> dict[int, float] | None:
        """How many card points more than the card played each of ``cards`` was worth on average,
        from the player's view (the solver's ``values``); ``None`` without view values here."""
        cost = self.deal_costs.get((view.trick.number, view.position + 1))
        if cost is None:
            return None
        values = {int(card): value.view for card, value in cost.values.items()}
        played = values.get(view.card)
        if played is None or any(values.get(card) is None for card in cards):
            return None
        return {card: float(values[card] or 0.0) - played for card in cards}

    # ------------------------------------------------------------------ rule

    def illegal_play(self, deal: DealResult, violation: Violation, slip: Slip | None = None) -> None:
        """revoke, failed_to_overtake, failed_to_buy, illegal_underbuy: the engine's violations.

        With ``slip`` (a deal without hands that a small reordering of its lines makes legal) the
        play is a ``record_slip`` instead: a rule broken, or a slip in the record.
        """
        trick = deal.tricks[violation.trick - 1]
        position = violation.play - 1
        name, name_nl = self.names[violation.seat], self.names_nl[violation.seat]
        trump = None if deal.trump is None else int(deal.trump)
        best_position = winning_position(trick.cards[:position], trump)
        winner, best = trick.seats[best_position], trick.cards[best_position]
        winner_en, winner_nl = self.names[winner], self.names_nl[winner]
        led = suit_of(trick.cards[0])
        shown = [int(c) for c in violation.legal.sorted_for_display(deal.trump)]
        legal, legal_nl = cards_en(shown), cards_nl(shown)
        can_nl = "konden" if len(shown) > 1 else "kon"
        t = violation.trick
        opponent = self.rules.shape.team_of(winner, deal.dealer) != self.rules.shape.team_of(
            violation.seat, deal.dealer
        )
        who_en = (
            "an opponent was winning"
            if opponent
            else "the house rules make you take the trick even from your partner"
        )
        who_nl = (
            "een tegenstander won"
            if opponent
            else "de huisregels vragen de slag zelfs van uw partner over te nemen"
        )
        card, card_nl_ = card_en(violation.card), card_nl(violation.card)
        best_en, best_nl = card_en(best), card_nl(best)
        kind = violation.kind
        if kind is ViolationKind.REVOKE:
            en = (
                f"{name} played {card} in trick {t} while still holding {suit_en(led)}: that is a revoke "
                f"(verzaken). Legal {'were' if len(shown) > 1 else 'was'}: {legal}."
            )
            nl = (
                f"{name_nl} speelde de {card_nl_} in slag {t} met nog {suit_nl(led)} in de hand: "
                f"dat is verzaken. Toegelaten {'waren' if len(shown) > 1 else 'was'}: {legal_nl}."
            )
        elif kind is ViolationKind.FAILED_TO_OVERTAKE:
            en = (
                f"{name} followed with {card} under {winner_en}'s winning {best_en} in trick {t} "
                f"while able to beat it with {legal}: {who_en}, so overtaking was required."
            )
            nl = (
                f"{name_nl} volgde met de {card_nl_} onder de winnende {best_nl} van {winner_nl} "
                f"in slag {t}, terwijl de {legal_nl} erover {can_nl}: {who_nl}, dus was overnemen verplicht."
            )
        elif kind is ViolationKind.FAILED_TO_BUY and not any(
            winning_position([*trick.cards[:position], card_], trump) == position for card_ in shown
        ):
            # no card allowed could beat the trump winning: the duty was to play a trump below it
            # (underbuy: forced), which "buying (kopen) was required" contradicted
            en = (
                f"{name}, void in {suit_en(led)}, played {card} in trick {t} while {winner_en} was "
                f"winning with {best_en}: under these rules one who cannot follow must play a trump even "
                f"below the trump winning (underbuying is forced), so {legal} was required."
            )
            nl = (
                f"{name_nl} had geen {suit_nl(led)} meer en speelde de {card_nl_} in slag {t} terwijl "
                f"{winner_nl} won met de {best_nl}: volgens deze regels moet wie niet kan volgen troef "
                f"spelen, ook onder de winnende troef (onderkopen is verplicht), dus was de {legal_nl} "
                "verplicht."
            )
        elif kind is ViolationKind.FAILED_TO_BUY:
            en = (
                f"{name}, void in {suit_en(led)}, played {card} in trick {t} while {winner_en} was "
                f"winning with {best_en}: {who_en}, so buying (kopen) with {legal} was required."
            )
            nl = (
                f"{name_nl} had geen {suit_nl(led)} meer en speelde de {card_nl_} in slag {t} terwijl "
                f"{winner_nl} won met de {best_nl}: {who_nl}, dus was kopen met de {legal_nl} verplicht."
            )
        else:
            en = (
                f"{name} underbought (onderkopen) with {card} below {best_en} in trick {t} "
                f"while holding other cards that were allowed: {legal}."
            )
            nl = (
                f"{name_nl} kocht onder (onderkopen) met de {card_nl_} onder de {best_nl} in slag {t}, "
                f"terwijl andere kaarten mochten: {legal_nl}."
            )
        if slip is not None:
            slip_en, slip_nl = slip_words(
                slip, deal, self.names, self.names_nl, self.rules, violation.seat, t
            )
            self.add(
                "record_slip",
                Severity.INFO,
                deal.number,
                trick=t,
                play=violation.play,
                seat=violation.seat,
                card=violation.card,
                en=f"{slip_en} As recorded: {en}",
                nl=f"{slip_nl} Zoals genoteerd: {nl}",
            )
            return
        points = self.rules.penalty_points
        self.add(
            kind.value,
            RULE_THRESHOLDS.severity(points),
            deal.number,
            trick=t,
            play=violation.play,
            seat=violation.seat,
            card=violation.card,
            better=tuple(violation.legal),
            points=points,
            en=en,
            nl=nl,
        )

    # ------------------------------------------------------------------ scoring and procedure

    def score_mismatch(self, deal: DealResult, team_of: tuple[int, ...]) -> None:
        """score_mismatch: the scoresheet differs from what the cards say."""
        written = _effect(deal.recorded)
        counted = _effect(deal.score)
        points = sum(
            abs(written.get(team, 0) - counted.get(team, 0)) for team in written.keys() | counted.keys()
        )

        def say(score: DealScore | None, lang: str) -> str:
            if score is None:
                return "30-30, nobody scores" if lang == "en" else "30-30, niemand scoort"
            names = team_names(self.names_nl if lang == "nl" else self.names, team_of, score.team)
            return f"{score.points} for {names}" if lang == "en" else f"{score.points} voor {names}"

        n = deal.number
        en = (
            f"Deal {n}: the scoresheet says {say(deal.recorded, 'en')}, "
            f"the cards say {say(deal.score, 'en')} ({points_en(points)} apart)."
        )
        nl = (
            f"Spel {n}: op het scoreblad staat {say(deal.recorded, 'nl')}, de kaarten zeggen "
            f"{say(deal.score, 'nl')} ({points_nl(points)} verschil)."
        )
        self.add("score_mismatch", SCORE_THRESHOLDS.severity(points), n, points=points, en=en, nl=nl)

    def procedure(self) -> None:
        """dealer_out_of_rotation and played_on_after_match_won, from the engine's irregularities."""
        deals = self.result.deals
        by_number = {deal.number: index for index, deal in enumerate(deals)}
        for deal in deals:
            if deal.irregularities:
                self.name_seats(deal)
            for irregularity in deal.irregularities:
                n = irregularity.deal
                if irregularity.kind is IrregularityKind.DEALER_OUT_OF_ROTATION:
                    index = by_number[n]
                    previous = deals[index - 1] if index else None
                    dealer = deal.dealer
                    if previous is None:
                        continue
                    expected = (
                        previous.dealer
                        if previous.kind is DealKind.REDEAL
                        else self.rules.shape.next_seat(previous.dealer)
                    )
                    en = (
                        f"Deal {n} was dealt by {self.names[dealer]}; by rotation it was "
                        f"{self.names[expected]}'s turn to deal."
                    )
                    nl = (
                        f"Spel {n} werd gedeeld door {self.names_nl[dealer]}; volgens de beurt moest "
                        f"{self.names_nl[expected]} delen."
                    )
                    self.add("dealer_out_of_rotation", Severity.INFO, n, seat=dealer, en=en, nl=nl)
                elif irregularity.kind is IrregularityKind.PLAYED_ON_AFTER_MATCH_WON:
                    decided = "-".join(str(points) for points in self.result.final_score)
                    later = [d.number for d in deals if not d.counted]
                    last = later[-1] if later else n
                    if last == n:
                        en_span, nl_span = (
                            f"deal {n} was played on and does not",
                            f"spel {n} werd nog gespeeld en telt",
                        )
                    else:
                        en_span = f"deals {n} to {last} were played on and do not"
                        nl_span = f"spellen {n} tot {last} werden nog gespeeld en tellen"
                    en = f"The match was already decided at {decided}; {en_span} count."
                    nl = f"De partij was al beslist bij {decided}; {nl_span} niet."
                    self.add("played_on_after_match_won", Severity.INFO, n, en=en, nl=nl)

    # ------------------------------------------------------------------ card play

    def card_play(
        self, know: DealKnowledge, plays: Sequence[int] | None = None, *, bare_aces: bool = True
    ) -> None:
        """The card-play detectors over one deal's plays, at most one finding a play.

        Most plays can give no finding whatever the player knew: a card without points thrown
        to the opponents, a trump with no lower trump beside it. Such a play is passed over
        before the costly questions of what the player could know (:meth:`may_find`).

        :param plays: only these plays (by their index in ``know.views``): the others can give
            no finding (:func:`~.batch_gate.batch_gate` says so of a batch's deals).
        :param bare_aces: ``False`` when no bare ace can have been lost in the deal.
        """
        deal = know.deal
        factor = deal.multiplier or 1
        saved = self.bare_aces(know, factor) if bare_aces else set()
        team = know.team
        may_find = self.may_find
        views = know.views if plays is None else [know.view(play) for play in plays]
        for view in views:
            trick, position, seat, card, _, legal, _, _ = view
            if not position or not legal >> card & 1:
                continue  # an illegal card is a rule finding; judging its strategy would count it twice
            if saved and (trick.number, position) in saved:
                continue
            # the partner's seat when the partner is winning the trick before this play, as
            # know.partner_seat_winning says (here for every play: a call less each)
            winning = trick.winning[position - 1]
            partner = winning if winning != seat and team[winning] == team[seat] else None
            if not may_find(know, view, partner):
                continue
            if partner is not None and know.partner_certain(view):
                if not know.is_trump(view.card):
                    self.missed_vetten(know, view, factor)
                elif suit_of(view.trick.cards[0]) != know.trump and view.legal & ~know.trump_mask:
                    self.wasted_trump(know, view, factor)  # a ruff where a discard was possible
                else:
                    self.master_trump_smeared(know, view, factor)  # only trumps to play
            elif know.is_trump(view.card) and view.trick.winning[view.position] == view.seat:
                self.trump_overspent(know, view, factor)
            elif partner is not None:
                self.unsafe_vetten(know, view, factor)
            elif know.opponents_certain(view):
                self.points_thrown(know, view, factor)

    @staticmethod
    def may_find(know: DealKnowledge, view: PlayView, partner: int | None) -> bool:
        """Whether any card-play detector :meth:`card_play` may ask about this play can find
        something in it, by the cards alone: each detector's first condition on the card played
        and the legal cards, which it checks again itself (``False`` means none can; ``True``
        proves nothing)."""
        card, legal, trump_mask = view.card, view.legal, know.trump_mask
        if trump_mask >> card & 1:
            # trump_overspent and master_trump_smeared need a lower legal trump; wasted_trump a
            # discard on a trick not led in trumps (only with the partner winning); points_thrown
            # a cheaper card to give than the trump (one that did not take the trick, the
            # partner not winning)
            lower_trump = legal & trump_mask & ((1 << card) - 1)
            if partner is None:
                if view.trick.winning[view.position] == view.seat:
                    return bool(lower_trump)
                return bool(legal & POORER_THAN[points_of(card)])
            return bool(lower_trump) or (
                suit_of(view.trick.cards[0]) != know.trump and bool(legal & ~trump_mask)
            )
        points = points_of(card)
        if partner is None:
            return bool(legal & POORER_THAN[points])  # points_thrown: a cheaper card to give
        # missed_vetten: a legal card worth more that could be smeared; unsafe_vetten: a point
        # card lost to the opponents while no trump could be played, a cheaper card to give
        winner = view.trick.winner
        return bool(legal & ~trump_mask & RICHER_THAN[points]) or (
            bool(legal & POORER_THAN[points])
            and not legal & trump_mask
            and winner is not None
            and know.team[winner] != know.team[view.seat]
        )

    def cheaper_cards(self, know: DealKnowledge, view: PlayView) -> list[int]:
        """The legal cards worth fewer points than the card played that the player could give
        instead without baring a card that needs a guard: a card is kept when it is the last
        companion of a point card of its suit that is not a master (throwing it would leave,
        say, an ace bare under the unseen manille). Cheapest first."""
        played = points_of(view.card)
        cheaper = []
        for card in iter_mask(view.legal & ~(1 << view.card)):
            if points_of(card) >= played:
                continue
            rest = view.hand & SUIT_MASKS[suit_of(card)] & ~(1 << card)
            if (
                rest.bit_count() == 1
                and points_of(rest.bit_length() - 1)
                and not know.is_master(rest.bit_length() - 1, view)
            ):
                continue
            cheaper.append(int(card))
        return sorted(cheaper, key=lambda c: (points_of(c), c))

    def kept_choice(
        self, know: DealKnowledge, view: PlayView, factor: int
    ) -> tuple[int, float, dict[int, float] | None] | None:
        """For a point card given to the opponents: the cheaper card to give instead and the
        points that keeping the card played saves, or ``None`` when keeping it was no better.

        The card played must be a master (a sure winner later, :meth:`DealKnowledge.is_master`):
        only then is keeping it surely worth its points; a card that may fall to the opponents
        anyway is not judged. A later chance for the kept card (:meth:`kept_card_chance`) with
        any cheaper card given must show that keeping it would have paid; the card to give is the
        cheapest. With the solver's costs the cheaper card must also be worth
        :data:`VIEW_MARGIN` more from the player's view, and the points are that difference.
        """
        if not points_of(view.card) or not know.is_master(view.card, view):
            return None
        cheaper = self.cheaper_cards(know, view)
        if not any(self.kept_card_chance(know, view, c) for c in cheaper):
            return None
        # The chance shows that keeping the card would have paid; the card to give instead is
        # then the cheapest that does the job (a small trump, not a point card), whichever card's
        # line showed the chance.
        gains = self.view_gains(view, cheaper)
        if gains is not None:
            cheaper = [c for c in cheaper if gains[c] >= VIEW_MARGIN]
            if not cheaper:
                return None
            best = max(cheaper, key=lambda c: (gains[c], -c))
            return best, round(gains[best] * factor, 2), gains
        best = cheaper[0]
        return best, (points_of(view.card) - points_of(best)) * factor, None

    def kept_card_chance(self, know: DealKnowledge, view: PlayView, given: int) -> TrickResult | None:
        """The first later trick in which the card played, had it been kept (and ``given``
        played instead), would have come home to the team (hindsight, which only narrows): a
        trick the player led (the master, led instead, takes it unless an opponent void in its
        suit held a trump), a trick of its suit that the partner led and no trump took (the
        master takes it; an opponent's lead is not counted, as the opponents could have led
        something else), or a trick the team took on which the player discarded (the card could
        have been smeared there). The search ends at the trick where the player really played
        ``given``: from there on the tricks would have gone otherwise (``given`` may have won
        the lead that a later trick relies on)."""
        card, seat = view.card, view.seat
        suit = suit_of(card)
        team = know.team
        for later in know.plays_after(seat, view.trick.number):
            trick = later.trick
            if trick.winner is None:
                continue
            led = suit_of(trick.cards[0])
            if later.position == 0:
                ruffed = any(
                    team[other] != team[seat]
                    and not know.view_at(trick.number, p).hand & SUIT_MASKS[suit]
                    and know.view_at(trick.number, p).hand & know.trump_mask
                    for p, other in enumerate(trick.seats)
                    if p
                )
                if not ruffed:
                    return trick
            elif led == suit and suit_of(later.card) == suit and team[trick.leader] == team[seat]:
                if not any(know.is_trump(c) for c in trick.cards) or know.is_trump(card):
                    return trick
            elif (
                team[trick.winner] == team[seat]
                and suit_of(later.card) != led
                and not know.is_trump(later.card)
            ):
                return trick
            if later.card == given:
                return None
        return None

    def points_thrown(self, know: DealKnowledge, view: PlayView, factor: int) -> None:
        """A master point card thrown onto a trick the opponents were certain to take."""
        self.kept_card_finding("points_thrown", know, view, factor)

    def unsafe_vetten(self, know: DealKnowledge, view: PlayView, factor: int) -> None:
        """A master point card smeared on the partner's trick before it was certain, and lost."""
        trick = view.trick
        if trick.winner is None or know.team[trick.winner] == know.team[view.seat]:
            return
        if know.is_trump(view.card) or view.legal & know.trump_mask:
            # A trump on the partner's trick is wasted_trump's business; and with a trump to
            # play the question was whether to ruff, not what to smear (the solver judges that).
            return
        self.kept_card_finding("unsafe_vetten", know, view, factor)

    def kept_card_finding(self, kind: str, know: DealKnowledge, view: PlayView, factor: int) -> None:
        """points_thrown or unsafe_vetten: a master given to the opponents while a cheaper card
        could be given instead (:meth:`kept_choice`)."""
        choice = self.kept_choice(know, view, factor)
        if choice is None:
            return
        keep, points, gains = choice
        trick = view.trick
        taker_seat = trick.winner if trick.winner is not None else 0
        name, taker = self.names[view.seat], self.names[taker_seat]
        name_nl, taker_nl = self.names_nl[view.seat], self.names_nl[taker_seat]
        t = trick.number
        x, y, winning = card_en(view.card), card_en(keep), know.winning_card_before(view)
        x_nl, y_nl, rank_nl = card_nl(view.card), card_nl(keep), RANK_NL[CARDS[view.card].rank]
        lost = points_of(view.card) - points_of(keep)
        saved_en, saved_nl = card_points_en(lost, factor), card_points_nl(lost, factor)
        # with the solver's costs the card's points in this trick are not its cost (the average
        # over the layouts is, said next): "would have saved 5 card points" stood before "cost
        # 9.9 card points on average" and "18 with every hand known", three figures for one card
        if kind == "points_thrown":
            leader, leader_nl = (
                self.names[trick.winning[view.position - 1]],
                self.names_nl[trick.winning[view.position - 1]],
            )
            kept_en = (
                "it was worth keeping" if gains is not None else f"keeping it would have saved {saved_en}"
            )
            kept_nl = (
                f"was de {rank_nl} beter gehouden"
                if gains is not None
                else f"had {name_nl} met de {rank_nl} achter de hand {saved_nl} gespaard"
            )
            en = (
                f"{name} threw {x} onto {leader}'s {card_en(winning)} in trick {t}, a trick the opponents "
                f"were certain to take, while {y} could be given instead: no card left could take {x} "
                f"(a master), so {kept_en}."
            )
            nl = (
                f"{name_nl} gooide de {x_nl} op de {card_nl(winning)} van {leader_nl} in slag {t}, "
                f"een slag die de tegenstanders zeker wonnen, terwijl de {y_nl} ook mocht: geen kaart kon "
                f"de {rank_nl} nog nemen, dus {kept_nl}."
            )
        else:
            partner = know.partner_seat_winning(view)
            assert partner is not None
            mate, mate_nl = self.names[partner], self.names_nl[partner]
            kept_en = "would have kept it" if gains is not None else f"would have saved {saved_en}"
            kept_nl = (
                f"had {name_nl} de {rank_nl} gehouden" if gains is not None else f"was {saved_nl} gespaard"
            )
            en = (
                f"{name} smeared {x} (vetten) on {mate}'s {card_en(winning)} in trick {t} before the trick "
                f"was safe: an opponent still to play could beat it, and {taker} took the trick. No card "
                f"left could take {x} (a master); giving {y} {kept_en}."
            )
            nl = (
                f"{name_nl} vette de {x_nl} op de {card_nl(winning)} van {mate_nl} in slag {t} voor de slag "
                f"zeker was: een tegenstander na {name_nl} kon er nog over, en {taker_nl} won de slag. "
                f"Geen kaart kon de {rank_nl} nog nemen; met de {y_nl} {kept_nl}."
            )
        if gains is not None:
            en += _view_en(name, y, gains[keep], "giving")
            nl += _view_nl(name_nl, y_nl, gains[keep], "geven")
        self.add(
            kind,
            card_severity(points, None if gains is None else gains[keep]),
            know.deal.number,
            trick=t,
            play=view.position + 1,
            seat=view.seat,
            card=view.card,
            better=(keep,),
            points=points,
            en=en,
            nl=nl,
        )

    def smear_candidates(self, know: DealKnowledge, view: PlayView) -> list[int]:
        """Legal non-trump point cards worth more than the card played, not masters, lost later."""
        played_points = points_of(view.card)
        candidates = []
        for card in iter_mask(view.legal & ~know.trump_mask & ~(1 << view.card)):
            # The top card of its suit may win a trick of its own even while trumps are out:
            # keeping it back is a judgement call, not flagged.
            if points_of(card) <= played_points or know.is_top(card, view):
                continue
            if know.lost_later(card, view.seat) is None:
                continue
            candidates.append(int(card))
        return candidates

    def missed_vetten(self, know: DealKnowledge, view: PlayView, factor: int) -> None:
        """A point card kept back from a trick the partner was certain to take, and lost later."""
        candidates = self.smear_candidates(know, view)
        if not candidates:
            return
        gains = self.view_gains(view, candidates)
        if gains is not None:
            # Smearing must really have been better from what the player could see.
            candidates = [c for c in candidates if gains[c] >= VIEW_MARGIN]
            if not candidates:
                return
            best = max(candidates, key=lambda c: (gains[c], c))
        else:
            best = max(candidates, key=lambda c: (points_of(c), c))
        gained = points_of(best) - points_of(view.card)
        points: float = gained * factor if gains is None else round(gains[best] * factor, 2)
        partner = know.partner_seat_winning(view)
        assert partner is not None
        name, mate = self.names[view.seat], self.names[partner]
        name_nl, mate_nl = self.names_nl[view.seat], self.names_nl[partner]
        winning = know.winning_card_before(view)
        lost = know.lost_later(best, view.seat)
        assert lost is not None
        t = view.trick.number
        x, y = card_en(view.card), card_en(best)
        x_nl, y_nl = card_nl(view.card), card_nl(best)
        # with the solver's costs, the trick's own gain is not said as the card's worth (the
        # average over the layouts follows): "would have brought 2 more points" stood beside "worth
        # 1.1 card points more on average"
        brought_en = (
            "was the better play"
            if gains is not None
            else f"would have brought {more_points_en(gained, factor)}"
        )
        brought_nl = (
            "was beter geweest" if gains is not None else f"had {more_points_nl(gained, factor)} opgebracht"
        )
        en = (
            f"{name} played {x} on {mate}'s winning {card_en(winning)} in trick {t} while holding "
            f"{y}: smearing it (vetten) {brought_en}. "
            f"{mate} was certain to take the trick, and {y} went to the opponents in trick {lost.number}."
        )
        nl = (
            f"{name_nl} speelde de {x_nl} op de winnende {card_nl(winning)} van {mate_nl} in slag {t} "
            f"met de {y_nl} in de hand: de {y_nl} vetten {brought_nl}. "
            f"{mate_nl} won de slag zeker, en de {y_nl} ging in slag {lost.number} naar de tegenstanders."
        )
        if gains is not None:
            en += _view_en(name, y, gains[best])
            nl += _view_nl(name_nl, y_nl, gains[best])
            order = sorted(candidates, key=lambda c: -gains[c])
        else:
            order = sorted(candidates, key=lambda c: -points_of(c))
        self.add(
            "missed_vetten",
            card_severity(points, None if gains is None else gains[best]),
            know.deal.number,
            trick=t,
            play=view.position + 1,
            seat=view.seat,
            card=view.card,
            better=tuple(order),
            points=points,
            en=en,
            nl=nl,
        )

    def bare_aces(self, know: DealKnowledge, factor: int) -> set[tuple[int, int]]:
        """bare_ace_lost: a non-trump ace forced under its manille, reported at the last chance to save it.

        :returns: the (trick, position) of each play reported, so missed_vetten does not repeat it.
        """
        reported: set[tuple[int, int]] = set()
        ace_rank, trump_mask = int(Rank.ACE), know.trump_mask
        for view in know.views:
            card = view.card
            if card % 9 != ace_rank or trump_mask >> card & 1 or view.legal != 1 << card:
                continue
            if view.hand & SUIT_MASKS[suit_of(card)] != 1 << card:
                continue  # not bare: forced to overtake from A-Q-J, say, is no blote aas
            trick = view.trick
            if trick.winner is None or know.team[trick.winner] == know.team[view.seat]:
                continue
            manille = CARDS[card + 1]
            if manille not in trick.cards:
                continue
            holder = trick.seats[trick.cards.index(manille)]
            if know.team[holder] == know.team[view.seat]:
                continue
            chance = None
            for earlier in know.plays_of(view.seat, trick.number):
                if (
                    earlier.position
                    and earlier.legal >> card & 1
                    and points_of(earlier.card) < points_of(card)
                    and know.partner_certain(earlier)
                ):
                    chance = earlier
            if chance is None:
                continue
            gains = self.view_gains(chance, [card])
            if gains is not None and gains[card] < VIEW_MARGIN:
                continue  # from what the player could see, smearing the ace was no better
            reported.add((chance.trick.number, chance.position))
            partner = know.partner_seat_winning(chance)
            assert partner is not None
            name, mate, taker = self.names[view.seat], self.names[partner], self.names[holder]
            name_nl, mate_nl, taker_nl = (
                self.names_nl[view.seat],
                self.names_nl[partner],
                self.names_nl[holder],
            )
            gained = points_of(card) - points_of(chance.card)
            points: float = gained * factor if gains is None else round(gains[card] * factor, 2)
            ace, ten, played = card_en(card), card_en(manille), card_en(chance.card)
            winning = card_en(know.winning_card_before(chance))
            ace_nl, ten_nl, played_nl = card_nl(card), card_nl(manille), card_nl(chance.card)
            winning_nl = card_nl(know.winning_card_before(chance))
            t, c = trick.number, chance.trick.number
            more_en = "" if gains is not None else f": {more_points_en(gained, factor)}"
            more_nl = "" if gains is not None else f": {more_points_nl(gained, factor)}"
            en = (
                f"{name}'s bare ace {ace} (blote aas) fell under {taker}'s manille {ten} in trick {t}. "
                f"In trick {c} {mate} was certain to take the trick with {winning}, and {name} could have "
                f"smeared {ace} on it (vetten) instead of playing {played}{more_en}."
            )
            nl = (
                f"De blote aas ({ace_nl}) van {name_nl} viel in slag {t} onder de {ten_nl} van {taker_nl}. "
                f"In slag {c} won {mate_nl} de slag zeker met de {winning_nl}, en {name_nl} kon de aas "
                f"erop vetten in plaats van de {played_nl} te spelen{more_nl}."
            )
            if gains is not None:
                en += _view_en(name, ace, gains[card])
                nl += _view_nl(name_nl, ace_nl, gains[card])
            self.add(
                "bare_ace_lost",
                card_severity(points, None if gains is None else gains[card]),
                know.deal.number,
                trick=c,
                play=chance.position + 1,
                seat=view.seat,
                card=chance.card,
                better=(card,),
                points=points,
                en=en,
                nl=nl,
            )
        return reported

    def wasted_trump(self, know: DealKnowledge, view: PlayView, factor: int) -> None:
        """A trump on a trick the partner was certain to take, while a losing card could be discarded."""
        led = suit_of(view.trick.cards[0])
        if know.trump is None or led == know.trump:
            return
        trump = view.card
        if points_of(trump) and not know.is_master(trump, view):
            # A point trump that a higher unseen trump may still take is smeared, not wasted.
            return
        if not know.opponents_may_hold(view, know.unknown(view) & know.trump_mask):
            # Neither opponent can hold a trump: no trick of theirs can need this one.
            return
        discards = [int(c) for c in iter_mask(view.legal & ~know.trump_mask) if not know.is_master(c, view)]
        if not discards:
            return
        gains = self.view_gains(view, discards)
        if gains is not None:
            # The trump was wasted only if a discard was really better from the player's view.
            discards = [c for c in discards if gains[c] >= VIEW_MARGIN]
            if not discards:
                return
            discards.sort(key=lambda c: -gains[c])
        cost = self.trump_later_needed(know, view, trump)
        points: float = 0 if cost is None else cost.points * factor
        if gains is not None:
            points = round(gains[discards[0]] * factor, 2)
        partner = know.partner_seat_winning(view)
        assert partner is not None
        name, mate = self.names[view.seat], self.names[partner]
        name_nl, mate_nl = self.names_nl[view.seat], self.names_nl[partner]
        t = view.trick.number
        winning = know.winning_card_before(view)
        shown = [int(c) for c in CardSet(sum(1 << c for c in discards)).sorted_for_display()]
        en = (
            f"{name} trumped with {card_en(trump)} in trick {t}, a trick {mate} was certain to take with "
            f"{card_en(winning)}, while a discard was possible ({cards_en(shown)})."
        )
        nl = (
            f"{name_nl} kocht met de {card_nl(trump)} (troef) in slag {t}, een slag die {mate_nl} zeker won "
            f"met de {card_nl(winning)}, terwijl afgooien kon ({cards_nl(shown)})."
        )
        if gains is not None:
            en += _view_en(name, card_en(discards[0]), gains[discards[0]], "discarding")
            nl += _view_nl(name_nl, card_nl(discards[0]), gains[discards[0]], "afgooien")
        elif cost is None:
            en += " It cost nothing this time."
            nl += " Deze keer kostte het niets."
        if cost is not None and cost.points == 0:
            en += (
                f" In trick {cost.number} {name} had no trump left and {card_en(trump)} would have taken it, "
                "a trick without points: it cost nothing this time."
            )
            nl += (
                f" In slag {cost.number} had {name_nl} geen troef meer en had de {card_nl(trump)} de slag "
                "genomen, een slag zonder punten: deze keer kostte het niets."
            )
        elif cost is not None:
            en += (
                f" In trick {cost.number} {name} had no trump left and {card_en(trump)} would have taken it: "
                f"{points_en(cost.points * factor)} went to the opponents."
            )
            gone = "ging" if cost.points * factor == 1 else "gingen"
            nl += (
                f" In slag {cost.number} had {name_nl} geen troef meer en had de {card_nl(trump)} de slag "
                f"genomen: {points_nl(cost.points * factor)} {gone} naar de tegenstanders."
            )
        self.add(
            "wasted_trump",
            card_severity(points, None if gains is None else gains[discards[0]]),
            know.deal.number,
            trick=t,
            play=view.position + 1,
            seat=view.seat,
            card=trump,
            better=tuple(discards),
            points=points,
            en=en,
            nl=nl,
        )

    def trump_later_needed(self, know: DealKnowledge, view: PlayView, trump: int) -> TrickResult | None:
        """The later trick the opponents took that the wasted trump would have bought for the team.

        Either the player led it holding no trump at all, and no opponent held a higher trump
        (the kept trump, led instead, takes it); or the player was void in the led suit and
        held no trump at all, an opponent was winning when the player's turn came, the wasted
        trump beats every trump in the trick, and no opponent after the player held a higher
        trump while void in the led suit (that opponent would have had to over-buy) or, in a
        trick led in trumps, at all (that opponent would have had to overtake).

        A lead counts only when it did not depend on the wasted trump's trick: not while the
        player has taken every trick since (the partner would have led instead), except the
        last trick when the wasted trump was a master: it takes the last trick whoever leads.
        """
        seat = view.seat
        team = know.team
        # While the player keeps taking the tricks from the wasted trump's on, the player leads
        # the next only because the wasted trump took its trick: had the partner taken it, the
        # partner would have led. Such a lead proves nothing about the kept trump.
        chained = view.trick.winner == seat
        for later in know.plays_after(seat, view.trick.number):
            trick = later.trick
            led_by_chain = chained
            chained = chained and trick.winner == seat
            if trick.winner is None or team[trick.winner] == team[seat]:
                continue
            if later.position == 0:
                # A lead: with no trump left the player led another card; the kept trump, led
                # instead, takes the trick when no opponent holds a higher trump.
                if later.hand & know.trump_mask:
                    continue
                if led_by_chain and not (later.hand.bit_count() == 1 and know.is_master(trump, view)):
                    # The lead came from the wasted trump's trick, except in the last trick,
                    # which a master trump takes whoever leads.
                    continue
                if not any(
                    team[other] != team[seat] and know.view_at(trick.number, p).hand & higher_of_suit(trump)
                    for p, other in enumerate(trick.seats)
                ):
                    return trick
                continue
            # Void in the led suit with no trump left: the kept trump would have bought the trick,
            # or, on a trump lead, followed suit with it.
            led = suit_of(trick.cards[0])
            if later.hand & (SUIT_MASKS[led] | know.trump_mask):
                continue
            if team[trick.winning[later.position - 1]] == team[seat]:
                continue
            if any(know.is_trump(c) and c > trump for c in trick.cards):
                continue
            # An opponent after the player with a higher trump would have taken it back: by
            # over-buying when void in the led suit, by overtaking when trumps were led.
            overbought = False
            for position in range(later.position + 1, len(trick.cards)):
                other = know.view_at(trick.number, position)
                if team[other.seat] != team[seat] and (led == know.trump or not other.hand & SUIT_MASKS[led]):
                    overbought = overbought or bool(other.hand & higher_of_suit(trump))
            if not overbought:
                return trick
        return None

    def trump_overspent(self, know: DealKnowledge, view: PlayView, factor: int) -> None:
        """A master trump that took a trick a lower trump, which an opponent could still beat
        later, would have taken for certain (issue 30: the 10 of trumps spent last to play)."""
        trick = view.trick
        earlier = trick.cards[: view.position]
        team = know.team
        opponents_after = [s for s in know.later_seats(view) if team[s] != team[view.seat]]

        def takes_it(lower: int) -> bool:
            if winning_position([*earlier, lower], know.trump) != view.position:
                return False
            if any(know.can_beat(view, seat, lower) for seat in opponents_after):
                return False
            # hindsight narrows: with the cards really played after it, it still takes the trick
            swapped = [*earlier, lower, *trick.cards[view.position + 1 :]]
            return winning_position(swapped, know.trump) == view.position

        self.spent_trump_finding("trump_overspent", know, view, factor, takes_it)

    def master_trump_smeared(self, know: DealKnowledge, view: PlayView, factor: int) -> None:
        """A master trump on a trick the partner was certain to take, while a lower trump that an
        opponent could still beat later was allowed: the trump ace under the partner's trump
        manille, or the trump manille over the partner's sure trump ace (a coach's review found
        that overtaking told by no word finding, only by a line played out)."""
        trick = view.trick
        team = know.team

        def same_side(lower: int) -> bool:
            swapped = [*trick.cards[: view.position], lower, *trick.cards[view.position + 1 :]]
            winner = trick.seats[winning_position(swapped, know.trump)]
            return trick.winner is not None and team[winner] == team[trick.winner]

        self.spent_trump_finding("master_trump_smeared", know, view, factor, same_side)

    def spent_trump_finding(
        self, kind: str, know: DealKnowledge, view: PlayView, factor: int, does_the_job: Callable[[int], bool]
    ) -> None:
        """trump_overspent or master_trump_smeared: the card played is a master trump (a sure
        trick later), and a legal lower trump that an opponent may still beat did the job in
        this trick (``does_the_job``) and would have kept the master trump back."""
        card = view.card
        if not know.is_master(card, view):
            return
        lower = [
            int(c)
            for c in iter_mask(view.legal & know.trump_mask)
            if c < card and know.opponent_may_beat(c, view) and does_the_job(c)
        ]
        if not lower:
            return
        gains = self.view_gains(view, lower)
        if gains is not None:
            lower = [c for c in lower if gains[c] >= VIEW_MARGIN]
            if not lower:
                return
            lower.sort(key=lambda c: (-gains[c], c))
        costs = [(c, self.master_later_needed(know, view, c)) for c in lower]
        lost = max(
            ((c, trick) for c, trick in costs if trick is not None),
            key=lambda pair: pair[1].points,
            default=None,
        )
        points: float = 0.0 if lost is None else lost[1].points * factor
        if gains is not None:
            points = round(gains[lower[0]] * factor, 2)
        name, name_nl, t = self.names[view.seat], self.names_nl[view.seat], view.trick.number
        master, master_nl = card_en(card), card_nl(card)
        cheapest = lower[0]
        instead, instead_nl = or_en(lower), or_nl(lower)
        sure_en = f"no trump out could beat {master}: kept back, it would have won a later trick for certain."
        sure_nl = (
            f"geen troef kon de {master_nl} nog nemen: achter de hand gehouden had die later zeker een slag "
            "gewonnen."
        )
        if kind == "trump_overspent":
            last = view.position == know.trick_size - 1
            en = (
                f"{name} took trick {t}{', last to play,' if last else ''} with {master} while {instead} "
                f"would have taken it for certain: {sure_en}"
            )
            nl = (
                f"{name_nl} nam slag {t}{' als laatste' if last else ''} met de {master_nl}, "
                f"terwijl de {instead_nl} de slag ook zeker had genomen: {sure_nl}"
            )
        else:
            partner = know.partner_seat_winning(view)
            assert partner is not None
            mate, mate_nl = self.names[partner], self.names_nl[partner]
            winning = know.winning_card_before(view)
            if view.trick.winning[view.position] == view.seat:
                # the partner's sure winner overtaken: said as a player says it
                en = (
                    f"{name} overtook {mate}'s {card_en(winning)} with {master} in trick {t}, a trick their "
                    f"side was certain to take, while {instead} could be played: {sure_en}"
                )
                nl = (
                    f"{name_nl} nam de {card_nl(winning)} van {mate_nl} over met de {master_nl} in slag {t}, "
                    f"een slag die hun ploeg zeker won, terwijl de {instead_nl} ook mocht: {sure_nl}"
                )
            else:
                en = (
                    # their side's trick: the master trump itself may be what takes it
                    f"{name} put {master} on {mate}'s {card_en(winning)} in trick {t}, a trick their side "
                    f"was certain to take, while {instead} could be played: {sure_en}"
                )
                nl = (
                    f"{name_nl} legde de {master_nl} op de {card_nl(winning)} van {mate_nl} in slag {t}, "
                    f"een slag die hun ploeg zeker won, terwijl de {instead_nl} ook mocht: {sure_nl}"
                )
        if gains is not None:
            en += _view_en(name, card_en(cheapest), gains[cheapest], "playing")
            nl += _view_nl(name_nl, card_nl(cheapest), gains[cheapest], "spelen")
        elif lost is None:
            en += " It cost nothing this time."
            nl += " Deze keer kostte het niets."
        if lost is not None:
            small, trick = lost
            went = trick.points * factor
            en += (
                f" In trick {trick.number}, {card_en(small)} fell to the opponents; {master} in its place "
                f"would have taken that trick: {points_en(went)} went to the opponents."
            )
            gone = "ging" if went == 1 else "gingen"
            nl += (
                f" In slag {trick.number} viel de {card_nl(small)} bij de tegenstanders; de {master_nl} had "
                f"in de plaats die slag genomen: {points_nl(went)} {gone} naar de tegenstanders."
            )
        self.add(
            kind,
            card_severity(points, None if gains is None else gains[lower[0]]),
            know.deal.number,
            trick=t,
            play=view.position + 1,
            seat=view.seat,
            card=card,
            better=tuple(lower),
            points=points,
            en=en,
            nl=nl,
        )

    def master_later_needed(self, know: DealKnowledge, view: PlayView, lower: int) -> TrickResult | None:
        """The later trick the opponents took in which the player really played ``lower``, and
        which the master trump played now would have taken in its place. The two lines are the
        same up to there: ``lower`` played now would have left the trick to the same seat."""
        fate = know.fate.get(lower)
        if fate is None or fate.number <= view.trick.number or fate.winner is None:
            return None
        if know.team[fate.winner] == know.team[view.seat]:
            return None
        position = fate.cards.index(CARDS[lower])
        swapped = [*fate.cards[:position], view.card, *fate.cards[position + 1 :]]
        return fate if winning_position(swapped, know.trump) == position else None

    # ------------------------------------------------------------------ calls

    def calls(self, deal: DealResult, team_of: tuple[int, ...]) -> None:
        """klop_missed, klop_lost and muil_missed: the deal's calls against its result."""
        if deal.contract is None or deal.multiplier is None or deal.points is None:
            return
        score = deal.score
        if score is None:
            return
        dealing = team_of[deal.dealer]
        if deal.contract is Contract.TRUMP and deal.trump is not None:
            if deal.knocks == 0 and score.team != dealing:
                self.klop_missed(deal, team_of)
            if deal.knocks:
                self.klop_lost(deal, team_of)
            # With the solver's costs the deal's trump call is reviewed too (trump_choice, by the
            # expectation): one finding per decision, so muil_missed leaves the call to it.
            reviewed = deal.number in self.costs
            if (
                score.team == dealing
                and not deal.en_face
                and deal.chooser in (None, deal.dealer)
                and not reviewed
            ):
                self.muil_missed(deal, team_of)
        elif deal.knocks:
            self.klop_lost(deal, team_of)

    def deal_factor(self, deal: DealResult, contract: Contract, knocks: int) -> int:
        """The multiplier the deal would have had with another contract or number of knocks."""
        return multiplier(contract, deal.en_face, knocks, deal.carried, self.rules)

    def winners_score(self, deal: DealResult, contract: Contract, knocks: int) -> int:
        """What the deal's winners would have scored with another contract or number of knocks,
        the cards falling the same way: scored as the engine scores it (a capot as the rules'
        ``capot`` says: a fixed capot's score is the same whatever was called)."""
        assert deal.points is not None
        score = score_deal(deal.points, self.deal_factor(deal, contract, knocks), self.rules)
        return 0 if score is None else score.points

    def klop_missed(self, deal: DealResult, team_of: tuple[int, ...]) -> None:
        """The non-dealing team won holding five or more trumps in one hand and did not knock."""
        assert deal.hands is not None and deal.trump is not None and deal.score is not None
        trumps = SUIT_MASKS[deal.trump]
        holders = [
            seat
            for seat, hand in enumerate(deal.hands)
            if team_of[seat] == deal.score.team
            and (hand & trumps).bit_count() >= KLOP_TRUMPS
            and may_klop(self.rules, seat, deal.dealer)  # klop_by: not every opponent may
        ]
        if not holders:
            return
        holder = holders[0]
        assert deal.contract is not None
        with_klop = self.winners_score(deal, deal.contract, 1)
        gain = with_klop - deal.score.points
        if gain <= 0:
            return
        name, name_nl = self.names[holder], self.names_nl[holder]
        held = [int(c) for c in CardSet(deal.hands[holder] & trumps).sorted_for_display(deal.trump)]
        count = len(held)
        n = deal.number
        en = (
            f"{name} held {count} trumps ({cards_en(held)}) and the team won deal {n} with "
            f"{points_en(deal.score.points)} without knocking: klop would have made it {with_klop} "
            f"({gain} more)."
        )
        nl = (
            f"{name_nl} had {count} troeven ({cards_nl(held)}) en de ploeg won spel {n} met "
            f"{points_nl(deal.score.points)} zonder te kloppen: met klop was dat {with_klop} geworden "
            f"({gain} meer)."
        )
        self.add("klop_missed", CALL_THRESHOLDS.severity(gain), n, seat=holder, points=gain, en=en, nl=nl)

    def knockers(self, deal: DealResult) -> list[int] | None:
        """Who knocked, in order, when the record is at hand."""
        if self.record is None or deal.number > len(self.record.deals):
            return None
        declarations = self.record.deals[deal.number - 1].declarations
        if declarations is UNSET:
            return None
        return [d.seat for d in declarations if d.call in ("klop", "tegenklop")]

    def klop_lost(self, deal: DealResult, team_of: tuple[int, ...]) -> None:
        """A team knocked (klop, or tegenklop) and lost the deal: what its knocks cost."""
        assert deal.score is not None and deal.contract is not None
        losers = 1 - deal.score.team
        dealing = team_of[deal.dealer]
        # Knocks alternate, the non-dealing team first: the losers' first knock is the 1st or 2nd.
        first = 0 if losers != dealing else 1
        if deal.knocks <= first:
            return
        without = self.winners_score(deal, deal.contract, first)
        cost = deal.score.points - without
        if cost <= 0:
            return
        knockers = self.knockers(deal)
        seat = knockers[first] if knockers is not None and len(knockers) > first else None
        who = self.names[seat] if seat is not None else team_names(self.names, team_of, losers)
        who_nl = self.names_nl[seat] if seat is not None else team_names(self.names_nl, team_of, losers)
        call = "klop" if first == 0 else "tegenklop"
        n = deal.number
        en = (
            f"{who} knocked ({call}) on deal {n} and lost it: the opponents scored {deal.score.points} "
            f"instead of {without} ({cost} more)."
        )
        # "Dirk klopte (tegenklop)" reads oddly to a Flemish player: one gives tegenklop
        knocked_nl = "klopte" if call == "klop" else "gaf tegenklop"
        nl = (
            f"{who_nl} {knocked_nl} in spel {n} en verloor: de tegenstanders scoorden {deal.score.points} "
            f"in plaats van {without} ({cost} meer)."
        )
        severity, points = CALL_THRESHOLDS.severity(cost), float(cost)
        sound = self.knock_rule_holder(deal, team_of, losers, seat)
        if sound is not None:
            # Judge the decision, not the outcome: with the club's knock hand the call was right.
            holder, count = sound
            severity, points = Severity.INFO, 0.0
            en += (
                f" {self.names[holder]} held {count} trumps: knocking was the right call, and the cards, "
                "not the call, lost the deal."
            )
            nl += (
                f" {self.names_nl[holder]} had {count} troeven: kloppen was juist, en de kaarten, niet de "
                "klop, verloren het spel."
            )
        self.add("klop_lost", severity, n, seat=seat, player=who, points=points, en=en, nl=nl)

    def knock_rule_holder(
        self, deal: DealResult, team_of: tuple[int, ...], team: int, seat: int | None
    ) -> tuple[int, int] | None:
        """The knocker holding :data:`KLOP_TRUMPS` trumps or more, and how many; when who knocked
        is unknown (``seat`` ``None``), any player of the knocking team holding them."""
        if deal.trump is None or deal.hands is None:
            return None
        trumps = SUIT_MASKS[deal.trump]
        seats = [seat] if seat is not None else [s for s in range(len(team_of)) if team_of[s] == team]
        for holder in seats:
            count = (deal.hands[holder] & trumps).bit_count()
            if count >= KLOP_TRUMPS:
                return holder, count
        return None

    def muil_missed(self, deal: DealResult, team_of: tuple[int, ...]) -> None:
        """The dealer held three or more manilles, made trump and won: what muil would have added."""
        assert deal.hands is not None and deal.score is not None and deal.trump is not None
        held = deal.hands[deal.dealer] & MANILLES
        if held.bit_count() < 3:
            return
        manilles = list(iter_mask(held))
        knocks = deal.knocks if self.rules.klop_on_muil else 0
        with_muil = self.winners_score(deal, Contract.MUIL, knocks)
        gain = with_muil - deal.score.points
        if gain <= 0:
            return
        name, name_nl = self.names[deal.dealer], self.names_nl[deal.dealer]
        n = deal.number
        count = len(manilles)
        suits = and_nl([CARDS[c].suit.dutch for c in manilles])
        en = (
            f"{name} dealt with {count} manilles ({cards_en(manilles)}), made {suit_en(deal.trump)} trump "
            f"and won {points_en(deal.score.points)}: muil would have counted {factor_en(2)}, {with_muil} "
            f"({gain} more), had the cards fallen the same way."
        )
        nl = (
            f"{name_nl} deelde met {count} manilles ({suits}), maakte {suit_nl(deal.trump)} troef en won "
            f"{points_nl(deal.score.points)}: muil had {factor_nl(2)} geteld, {with_muil} ({gain} meer), "
            "als de kaarten hetzelfde gevallen waren."
        )
        self.add(
            "muil_missed", CALL_THRESHOLDS.severity(gain), n, seat=deal.dealer, points=gain, en=en, nl=nl
        )


def card_severity(points: float, gain: float | None) -> Severity:
    """A card detector's severity: by the points at stake (:data:`CARD_THRESHOLDS`), or with the
    solver's costs by ``gain``, the card points the better card was worth more on average from the
    player's view, on the scale of a ``costly_card`` (:data:`~.findings.COST_THRESHOLDS`).

    The solver's scale is in card points, so a card is as bad in a muil or under klop as in a plain
    deal, and a play keeps one severity whichever finding tells of it (the blind re-read for issue 30
    found a smear of 2.6 card points in a muil called a blunder that its ``costly_card`` would not
    have reported).

    >>> card_severity(8, None).value, card_severity(8, 4.0).value, card_severity(5.3, 2.64).value
    ('blunder', 'mistake', 'inaccuracy')
    """
    if gain is None:
        return CARD_THRESHOLDS.severity(points)
    return COST_THRESHOLDS.severity(gain)


VIEW_SENTENCES = (
    re.compile(r" From what [^,]+ could see, .+? more on average over the ways the other cards could lie\."),
    re.compile(
        r" Met wat [^,]+ kon weten, was .+? meer waard, over alle mogelijke verdelingen van de "
        r"andere kaarten\."
    ),
)
"""The sentences :func:`_view_en` and :func:`_view_nl` write: a finding that takes the solver's
costly card's words (which give the same cost) leaves them out."""


def _view_en(name: str, card: str, gain: float, verb: str = "smearing") -> str:
    # the solver's average over the layouts, said as such: "(solver)" was the program's word, and
    # beside the trick's own "2 more points" the 1.1 read as a contradiction
    return (
        f" From what {name} could see, {verb} {card} was worth {points_en(gain, 'card point')} "
        "more on average over the ways the other cards could lie."
    )


def _view_nl(name: str, card: str, gain: float, verb: str = "vetten") -> str:
    return (
        f" Met wat {name} kon weten, was het {verb} van de {card} gemiddeld {points_nl(gain, 'kaartpunt')} "
        "meer waard, over alle mogelijke verdelingen van de andere kaarten."
    )


def _effect(score: DealScore | None) -> dict[int, int]:
    return {} if score is None else {score.team: score.points}
