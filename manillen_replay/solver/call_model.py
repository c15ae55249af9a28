"""The call model: the hidden hands of a call review agree with the calls the table made.

The plain reviews (:mod:`.review`) deal the cards a caller cannot see uniformly at random. That
ignores what the calls gave away: the dealer *chose* that trump, so the dealer is long in it
(in the demo archive the trump maker holds 3.2 trumps on average, the other seats 1.6). Here
each layout of the hidden cards is kept with the probability that the calls made before the
decision would have been made with those hands (rejection sampling: the kept layouts are a
sample from the layouts *given* the calls):

- **the trump call** (trump suit or muil) of the chooser, and the dealer's **en face** pass;
- the probability of a call with a hand is a documented mixture of the two players the
  project models (``manillen_replay.players``): half the club player's policy (muil with three
  manilles or two and a run 10-A-K; else the suit scoring best on three per card, its card
  points and three more for its manille; en face with a flat hand), half the novice's (the
  longest suit), plus a floor (:data:`FLOOR`, :data:`MUIL_FLOOR`) for a call neither would
  make, so no layout is impossible;
- **the tegenklop answer**: after a klop, the dealing team answers tegenklop in a layout when
  the club policy says so for either of its hands (five trumps, or four with the 10 and the
  ace); the klop option's score then counts that layout fourfold instead of double.

Knocks said *before* the decision (a partner's pass) are not used: the order of knocking at
the table is not part of the record's meaning.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..cards import DECK_32_MASK, iter_mask
from ..engine.results import DealResult
from ..players.club import ClubPolicy
from ..players.policy import longest_suit
from ..rules import Contract, Rules
from .costs import deal_trump
from .review import (
    CallReview,
    _check,
    _layouts,
    _team_points,
    contract_name,
    knock_review,
    shuffled_layout,
    trump_review,
)
from .search import SolverError, default_workers

FLOOR = 0.05
"""The probability the model gives a trump suit that neither modelled player would choose."""
MUIL_FLOOR = 0.005
"""The same for muil: without manilles nobody calls it, so its floor is ten times lower."""
TRIES_PER_LAYOUT = 200
"""Candidate layouts drawn per layout kept, at most, before the review settles for fewer."""

CALIBRATED: frozenset[Contract] = frozenset()
"""The contracts whose call reviews are calibrated: over the demo archive their expected card
points came within 1.5 of what the sides took (docs/solver.md, "Calibration"). Until a
contract is here its call findings are ``info``."""

Layout = tuple[int, int, int, int]

_CLUB = ClubPolicy()


def is_calibrated(contract: Contract | None) -> bool:
    """Whether the call reviews of deals with this contract are calibrated (:data:`CALIBRATED`)."""
    return contract in CALIBRATED


def call_likelihood(hand: int, call: str, rules: Rules, *, may_pass: bool) -> float:
    """How likely a player with ``hand`` makes ``call`` (``H``, ``D``, ``C``, ``S``, ``muil``
    or ``en_face``), by the mixture of the club and novice players (module docstring).

    >>> from manillen_replay.cards import Card, mask_of
    >>> hand = mask_of([Card.H10, Card.HA, Card.HK, Card.HQ, Card.HJ, Card.C7, Card.S8, Card.D9])
    >>> [call_likelihood(hand, call, Rules(), may_pass=False) for call in ("H", "S")]
    [1.0, 0.05]
    """
    choice = _CLUB.choose_contract(hand, rules, may_pass=may_pass)
    club = (
        "muil"
        if choice.call == "muil"
        else "en_face"
        if choice.call == "en_face"
        else "HDCS"[choice.suit or 0]
    )
    novice = "HDCS"[longest_suit(hand)]
    probability = 0.5 * (club == call) + 0.5 * (novice == call)
    return max(probability, MUIL_FLOOR if call == "muil" else FLOOR)


def answers_tegenklop(hands: Layout, dealer: int, trump: int | None) -> bool:
    """Whether the dealing team answers a klop with tegenklop in this layout (club policy)."""
    return any(_CLUB.wants_knock(hands[seat], trump, 1) for seat in (dealer, (dealer + 2) % 4))


def _call_weight(deal: DealResult, rules: Rules, viewer: int) -> Callable[[Layout], float]:
    """The probability of the calls made before ``viewer``'s decision, as a function of a layout."""
    chooser = deal.chooser if deal.chooser is not None else deal.dealer
    trump = deal_trump(deal)
    call = contract_name(trump)
    dealer = deal.dealer
    may_pass = rules.en_face
    checks: list[tuple[int, str, bool]] = []
    if deal.en_face and dealer != viewer:
        checks.append((dealer, "en_face", True))
    if chooser != viewer:
        checks.append((chooser, call, may_pass and not deal.en_face))

    def weight(hands: Layout) -> float:
        result = 1.0
        for seat, said, passing in checks:
            result *= call_likelihood(hands[seat], said, rules, may_pass=passing)
        return result

    return weight


def conditioned_layouts(
    deal: DealResult, rules: Rules, seat: int, samples: int, seed: int, what: str
) -> list[Layout]:
    """Layouts of the cards ``seat`` cannot see, drawn given the calls made before its decision.

    :param what: a name that keeps each review's random stream its own.
    """
    assert deal.hands is not None
    own = deal.hands[seat]
    hidden = list(iter_mask(DECK_32_MASK & ~own))
    sizes = [deal.hands[s].bit_count() for s in range(4)]
    rng = random.Random(f"{seed}:{deal.number}:{what}:given-calls")
    weight = _call_weight(deal, rules, seat)
    kept: list[Layout] = []
    for _ in range(samples * TRIES_PER_LAYOUT):
        layout: Layout = shuffled_layout(rng, hidden, own, seat, sizes)
        if rng.random() < weight(layout):
            kept.append(layout)
            if len(kept) == samples:
                break
    if not kept:
        raise SolverError(f"deal {deal.number}: no layout of the hidden cards agrees with the calls")
    return kept


def trump_review_given_calls(
    deal: DealResult, rules: Rules, *, samples: int = 50, seed: int = 0, workers: int | None = None
) -> CallReview:
    """:func:`~.review.trump_review` with the hidden hands drawn given the calls before the
    choice (after en face: the dealer's pass).

    :raises SolverError: for a deal without hands or of another variant.
    """
    _check(deal, rules, samples)
    seat = deal.chooser if deal.chooser is not None else deal.dealer
    layouts = conditioned_layouts(deal, rules, seat, samples, seed, "trump")
    return trump_review(deal, rules, samples=samples, seed=seed, workers=workers, layouts=layouts)


def knock_review_given_calls(
    deal: DealResult,
    rules: Rules,
    *,
    seat: int | None = None,
    samples: int = 50,
    seed: int = 0,
    workers: int | None = None,
    sequential: bool = True,
) -> CallReview:
    """:func:`~.review.knock_review` with the hidden hands drawn given the trump call, and the
    dealing team's tegenklop answer modelled in each layout.

    :param seat: the seat deciding (of the team that did not deal); default: the dealer's left.
    :param sequential: stop once one option is clearly best, as :func:`~.review.knock_review`.
    :raises SolverError: for a deal without hands or contract, or a seat of the dealing team.
    """
    _check(deal, rules, samples)
    trump = deal_trump(deal)
    seat = (deal.dealer + 1) % 4 if seat is None else seat
    if seat % 2 == deal.dealer % 2:
        raise SolverError(f"seat {seat} is of the dealing team: only the other team may knock")
    layouts = conditioned_layouts(deal, rules, seat, samples, seed, f"klop{seat}")
    return knock_review(
        deal,
        rules,
        seat=seat,
        samples=samples,
        seed=seed,
        workers=workers,
        sequential=sequential,
        layouts=layouts,
        klop_knocks=lambda layout: 2 if answers_tegenklop(layout, deal.dealer, trump) else 1,
    )


@dataclass(frozen=True, slots=True)
class CalibrationRow:
    """How far a review's expected card points are from what one side really took."""

    contract: Contract
    """Trump or muil deals."""
    view: str
    """``chooser`` (the trump maker's side, its trump review) or ``knocker`` (the dealer's
    left's side, its knock review)."""
    deals: int
    """How many deals were measured."""
    taken: float
    """Mean card points the side really took."""
    uniform: float
    """Mean expected card points with the hidden hands dealt at random."""
    given_calls: float
    """Mean expected card points with the hidden hands drawn given the calls."""

    @property
    def gap(self) -> float:
        """Expected (given the calls) minus taken: calibrated when within 1.5 either way."""
        return self.given_calls - self.taken


def calibration(
    deals: Iterable[tuple[Rules, DealResult]], *, samples: int = 8, seed: int = 0, workers: int | None = None
) -> list[CalibrationRow]:
    """Each review's expected card points against what the sides took, by contract and view.

    docs/solver.md ("Calibration") gives the figures over the demo archive.

    :param deals: played four-player trump or muil deals with their hands, and their rules.
    :param samples: layouts per deal and view.
    """
    threads = workers or default_workers()
    sums: dict[tuple[Contract, str], list[float]] = {}
    for rules, deal in deals:
        if deal.points is None or deal.contract not in (Contract.TRUMP, Contract.MUIL):
            continue
        trump = deal_trump(deal)
        leader = (deal.dealer + 1) % 4
        chooser = deal.chooser if deal.chooser is not None else deal.dealer
        for view, seat in (("chooser", chooser), ("knocker", leader)):
            given = conditioned_layouts(deal, rules, seat, samples, seed, "calibration")
            uniform = _layouts(deal, seat, samples, seed, "calibration")
            expected = [
                sum(points) / len(points)
                for points in (
                    _team_points(uniform, leader, trump, rules, seat, threads),
                    _team_points(given, leader, trump, rules, seat, threads),
                )
            ]
            row = sums.setdefault((deal.contract, view), [0.0, 0.0, 0.0, 0.0])
            row[0] += 1
            row[1] += deal.points[seat % 2]
            row[2] += expected[0]
            row[3] += expected[1]
    return [
        CalibrationRow(contract, view, int(n), taken / n, uniform / n, given / n)
        for (contract, view), (n, taken, uniform, given) in sums.items()
    ]
