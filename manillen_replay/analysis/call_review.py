"""Trump and knock review: the expected result of each call, from the caller's own hand.

The dealer (or the partner after en face) chooses trump seeing only their own eight cards;
a player of the other team decides to knock (klop) seeing only theirs. For each choice the
other 24 cards are dealt at random many times (a fixed seed), every layout is solved with
best play by both sides, and the results are averaged. The same layouts serve every choice,
so the comparison is fair. Perfect play on open cards flatters every choice alike; what
matters is the difference between them.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, replace

from ..cards import DECK_32_MASK, Card, iter_mask, mask_of
from ..engine.results import DealResult
from ..engine.variation import call_name
from ..rules import Contract, Rules, may_klop, multiplier, side_score, trump_options
from ..solver.search import DealTables, Position, SolverError, default_workers, solve_batch, solve_groups
from .costs import SURE_Z, deal_trump

DECK_POINTS = 60
"""The card points of the four-player game's deck, the only one the reviews solve."""

contract_name = call_name
"""``H``, ``D``, ``C``, ``S`` or ``muil`` (:func:`~manillen_replay.engine.variation.call_name`)."""


def deal_score(points: float, factor: int, rules: Rules) -> float:
    """What a deal scores for a team that took ``points`` of the 60 card points: negative when
    it loses, a capot as the rules' ``capot`` says (the engine's own scoring,
    :func:`~manillen_replay.rules.side_score`).

    >>> deal_score(40, 2, Rules()), deal_score(25, 1, Rules()), deal_score(30, 4, Rules())
    (20, -5, 0)
    >>> deal_score(60, 2, Rules()), deal_score(60, 2, Rules(capot="fixed_30"))
    (60, 30)
    >>> deal_score(0, 1, Rules(capot="double"))
    -60
    """
    return side_score(points, DECK_POINTS, factor, rules)


@dataclass(frozen=True, slots=True)
class CallOption:
    """One possible call and what it brings on average to the caller's team."""

    name: str
    """``H``, ``D``, ``C``, ``S``, ``muil``, or for the knock ``klop`` / ``no klop``."""
    points: float
    """Expected card points of the caller's team (of 60)."""
    score: float
    """Expected deal score of the caller's team, the call's doubling included (negative: a loss)."""
    each_points: tuple[float, ...] = ()
    """The card points of each layout solved, in the review's layout order (``points`` is their mean)."""
    each_score: tuple[float, ...] = ()
    """The deal score of each layout solved, in the same order: two options' gap layout by layout
    tells how sure the gap of their means is (:meth:`CallReview.gap_error`)."""
    bound: bool = False
    """Whether :attr:`points`, :attr:`score` and each layout's are upper bounds, not values: the
    review pruned the option at its early look, as an option solved there (the call made, or
    one leading it) beat it by :data:`PRUNE_MARGIN` on every layout (the option scores at most
    that)."""


@dataclass(frozen=True, slots=True)
class CallReview:
    """The expected result of every option of one call, and the option taken."""

    deal: int
    """The deal, counted from 1."""
    seat: int
    """Who made (or could make) the call."""
    options: tuple[CallOption, ...]
    """Every option, best first; the options pruned (:attr:`CallOption.bound`) after the others."""
    chosen: str | None
    """The option taken at the table (``None`` when the record does not say)."""
    layouts: int
    """How many layouts of the hidden cards were solved."""
    perfect: CallReview | None = None
    """The same review with perfect play by everyone (the solver's own values), when these options
    are what the table takes instead (:func:`~.call_model.trump_review_given_calls`): a call is
    never judged to lose more than perfect play says it loses (:attr:`loss`, :attr:`sure_loss`)."""

    @property
    def best(self) -> CallOption:
        """The option with the best expected score."""
        return self.options[0]

    def option(self, name: str) -> CallOption | None:
        """The option of this name."""
        return next((o for o in self.options if o.name == name), None)

    @property
    def spread(self) -> float:
        """The best option's expected score less the lowest option's: below
        :data:`~.accuracy.DECISION_MARGIN` the call was no real decision. A pruned option's
        bound counts as its score (it scores at most that), so the spread is at least this.

        >>> muil = CallOption("muil", 30, 12, bound=True)
        >>> CallReview(1, 0, (CallOption("H", 40, 10), CallOption("S", 25, -5), muil), "H", 6).spread
        15
        """
        return self.best.score - min(option.score for option in self.options)

    @property
    def loss(self) -> float | None:
        """Expected score given away by the option taken against the best one; with
        :attr:`perfect`, at most what perfect play says it gave away (never below 0 then): a
        model of the table's play may soften the solver's verdict, never make one against it
        (strong hearts called "a mistake, muil is better" where perfect play said hearts).

        >>> table = (CallOption("muil", 40, 24), CallOption("H", 45, 13))
        >>> solved = CallReview(1, 0, (CallOption("H", 48, 17), CallOption("muil", 36, 9)), "H", 2)
        >>> CallReview(1, 0, table, "H", 2).loss, CallReview(1, 0, table, "H", 2, perfect=solved).loss
        (11, 0.0)
        """
        if self.chosen is None or self.option(self.chosen) is None:
            return None
        return self.given_away(self.chosen)

    def given_away(self, name: str) -> float:
        """What option ``name`` gives away against the best one (:attr:`loss` for any option):
        with :attr:`perfect`, at most what perfect play says (never below 0 then).

        >>> table = (CallOption("klop", 20, 8), CallOption("no klop", 20, 4))
        >>> solved = CallReview(1, 1, (CallOption("klop", 22, 9), CallOption("no klop", 22, 7)), None, 2)
        >>> CallReview(1, 1, table, None, 2).given_away("no klop")
        4
        >>> CallReview(1, 1, table, None, 2, perfect=solved).given_away("no klop")
        2
        """
        option = self.option(name)
        gap = 0.0 if option is None else self.best.score - option.score
        solved = self.perfect.option(name) if self.perfect is not None else None
        if self.perfect is None or solved is None:
            return gap
        return min(gap, max(0.0, self.perfect.best.score - solved.score))

    @property
    def own_loss(self) -> float | None:
        """What these options alone say the option taken gave away (:attr:`loss` before
        :attr:`perfect` bounds it)."""
        chosen = self.option(self.chosen) if self.chosen is not None else None
        return None if chosen is None else self.best.score - chosen.score

    def gap_error(self, name: str) -> float:
        """The standard error of the best option's lead over option ``name``, paired layout by
        layout on the layouts both were solved on (0 for the best itself, or without the layouts'
        scores).

        >>> options = (CallOption("H", 40, 10, (), (12, 8)), CallOption("muil", 30, 0, (), (0, 0)))
        >>> review = CallReview(1, 0, options, "muil", 2)
        >>> review.gap_error("muil"), review.gap_error("H")
        (2.0, 0.0)
        """
        option = self.option(name)
        if option is None or option.name == self.best.name:
            return 0.0
        count = min(len(self.best.each_score), len(option.each_score))
        if count < 2:
            return 0.0
        gaps = [a - b for a, b in zip(self.best.each_score[:count], option.each_score[:count], strict=True)]
        mean = sum(gaps) / count
        return math.sqrt(sum((g - mean) ** 2 for g in gaps) / (count - 1) / count)

    def sure_gap(self, name: str) -> float:
        """What the best option surely leads option ``name`` by: the lead less :data:`SURE_Z`
        standard errors (:meth:`gap_error`), never below 0. A call is judged by it, as a card is
        by its sure view cost: a lead the layouts leave unsure of is no finding.

        >>> options = (CallOption("H", 40, 10, (), (12, 8)), CallOption("muil", 30, 0, (), (0, 0)))
        >>> review = CallReview(1, 0, options, "muil", 2)
        >>> review.sure_gap("muil")
        6.0
        """
        option = self.option(name)
        if option is None:
            return 0.0
        return max(0.0, self.best.score - option.score - SURE_Z * self.gap_error(name))

    @property
    def loss_error(self) -> float | None:
        """The standard error of :attr:`loss` (:meth:`gap_error` of the option taken)."""
        return None if self.loss is None or self.chosen is None else self.gap_error(self.chosen)

    @property
    def sure_loss(self) -> float | None:
        """What the option taken surely gave away: :attr:`loss` less :data:`SURE_Z` of its
        standard errors, never below 0 (:meth:`sure_gap`); with :attr:`perfect`, the smaller of
        that and what perfect play surely says."""
        if self.loss is None or self.chosen is None:
            return None
        return self.surely_given_away(self.chosen)

    def surely_given_away(self, name: str) -> float:
        """What option ``name`` surely gives away (:meth:`sure_gap`); with :attr:`perfect`, the
        smaller of that and what perfect play surely says (:attr:`sure_loss` for any option)."""
        sure = self.sure_gap(name)
        if self.perfect is None or self.perfect.option(name) is None:
            return sure  # as given_away: perfect play bounds only an option it has
        return min(sure, self.perfect.sure_gap(name))


def _layouts(
    deal: DealResult, seat: int, samples: int, seed: int, what: str
) -> list[tuple[int, int, int, int]]:
    assert deal.hands is not None
    own = deal.hands[seat]
    hidden = list(iter_mask(DECK_32_MASK & ~own))
    sizes = [deal.hands[s].bit_count() for s in range(4)]
    rng = random.Random(f"{seed}:{deal.number}:{what}")
    return [shuffled_layout(rng, hidden, own, seat, sizes) for _ in range(samples)]


def shuffled_layout(
    rng: random.Random, hidden: list[Card], own: int, seat: int, sizes: list[int]
) -> tuple[int, int, int, int]:
    """One layout of the cards ``seat`` cannot see: ``hidden`` shuffled (in place) and dealt out
    in seat order, ``sizes[s]`` cards to each other seat, ``own`` to ``seat``."""
    rng.shuffle(hidden)
    hands = [0, 0, 0, 0]
    hands[seat] = own
    start = 0
    for other in range(4):
        if other != seat:
            hands[other] = mask_of(hidden[start : start + sizes[other]])
            start += sizes[other]
    return (hands[0], hands[1], hands[2], hands[3])


def _check(deal: DealResult, rules: Rules, samples: int) -> None:
    if rules.variant != "four":
        raise SolverError(f"the solver plays the four-player game only, not {rules.variant!r}")
    if deal.hands is None or any(h.bit_count() != 8 for h in deal.hands):
        raise SolverError(f"deal {deal.number}: the dealt hands are needed")
    if samples < 1:
        raise SolverError(f"samples must be at least 1, not {samples}")


REVIEW_FLOOR = 12
"""Layouts every option of a call gets before the sequential rule may stop it with
:data:`CLEARLY_WORSE_Z` (an option far behind may stop at :data:`EARLY_LOOK`)."""
REVIEW_STEP = 6
"""Layouts added to each option still open per round."""
CLEARLY_WORSE_Z = 2.5
"""An option is clearly worse than the leader when its paired loss exceeds this many standard errors."""
EARLY_LOOK = 6
"""Layouts every option gets first: an option other than the call made that is already
:data:`EARLY_Z` standard errors behind the leader there (a trump suit of one card against one of
four) stops, the others go on to :data:`REVIEW_FLOOR`."""
EARLY_Z = 3.5
"""The standard errors of the look at :data:`EARLY_LOOK`: with five layouts' degrees of freedom a
mean 3.5 standard errors off is rarer (Student's t, about 1%) than one 2.5 off at
:data:`REVIEW_FLOOR` (about 1.5%), so the early look drops no option the floor's look would keep
more often than that look itself errs."""
NEGLIGIBLE_LOSS = 3.0
"""A loss below this is no finding (``findings.CALL_THRESHOLDS.inaccuracy``): once no option can
be this much better than the call made, the review's verdict is settled."""
PRUNE_MARGIN = NEGLIGIBLE_LOSS
"""An option that scores at least this much less than the call made (or an option solved that
leads it) on every layout of the early look is pruned there, when the review can ask a search
only whether an option scores below a ceiling (a ``probe``, :func:`_prune`): never the best
option, so never the one a finding measures the call made against, it gets no exact value, and
its scores are kept as the bounds the probes proved."""


def _margin_z(count: int) -> float:
    """The standard errors a paired gap over ``count`` layouts must clear: :data:`EARLY_Z` below
    :data:`REVIEW_FLOOR` layouts, :data:`CLEARLY_WORSE_Z` from there."""
    return EARLY_Z if count < REVIEW_FLOOR else CLEARLY_WORSE_Z


def _paired_gap(better: Sequence[float], worse: Sequence[float]) -> tuple[float, float]:
    """The mean of ``better - worse`` layout by layout, and :func:`_margin_z` standard errors
    of it (infinite for fewer than two layouts)."""
    count = min(len(better), len(worse))
    if count < 2:
        return 0.0, math.inf
    gaps = [a - b for a, b in zip(better[:count], worse[:count], strict=True)]
    mean = sum(gaps) / count
    return mean, _margin_z(count) * math.sqrt(sum((g - mean) ** 2 for g in gaps) / (count - 1) / count)


def clearly_worse(leader: Sequence[float], other: Sequence[float]) -> bool:
    """Whether an option's scores are clearly below the leader's, layout by layout (paired):
    by :data:`CLEARLY_WORSE_Z` standard errors, :data:`EARLY_Z` on fewer than :data:`REVIEW_FLOOR`.

    >>> clearly_worse([10.0] * 16, [4.0] * 16), clearly_worse([10.0, 0.0] * 8, [0.0, 10.0] * 8)
    (True, False)
    """
    mean, margin = _paired_gap(leader, other)
    return mean > 0 and mean > margin


Request = tuple[str, int, int]
"""An option and the layouts ``start`` to ``stop`` (not included) to solve for it."""

Probe = Callable[[list[tuple[str, list[float]]]], list[list[list[float] | None]]]
"""``probe([(option, ceilings)])``: for each option, for each of the first layouts (one ceiling
each), ``[points, score]`` upper bounds when the option's score there is at most the ceiling
(what the search proved: no more than that), else ``None``."""


def _sequential_scores(
    options: Sequence[str],
    solve: Callable[[list[Request]], list[list[list[float]]]],
    layouts: int,
    sequential: bool,
    chosen: str | None = None,
    *,
    probe: Probe | None = None,
    pruned: set[str] | None = None,
) -> dict[str, list[list[float]]]:
    """Per option, ``[points, score]`` of each layout solved: every option gets the first
    :data:`EARLY_LOOK` layouts, then rounds of :data:`REVIEW_STEP` more go to the options not
    yet clearly worse than the leader (:func:`clearly_worse`; the ``chosen`` one goes on to
    :data:`REVIEW_FLOOR` in any case), until only the leader is left, no option still open can
    be :data:`NEGLIGIBLE_LOSS` better than the ``chosen`` one, or the layouts run out.

    With a ``probe`` (and a ``chosen`` option, the sequential rule on), the early look prunes
    the options clearly out of it (:func:`_prune`): their rows are the probe's bounds, and they
    go no further; the others are solved as before.

    :param solve: ``solve(requests)``: for each request (one per option still open, solved
        together so that every thread stays busy), ``[points, score]`` of its layouts.
    :param layouts: how many layouts there are.
    :param pruned: receives the options pruned, whose rows are upper bounds.
    """
    solved: dict[str, list[list[float]]] = {name: [] for name in options}
    open_options = list(options)
    pruned = set() if pruned is None else pruned
    if probe is not None and sequential and chosen in solved:
        _prune(options, solve, probe, min(layouts, EARLY_LOOK), chosen, solved, pruned)
        open_options = [name for name in options if name not in pruned]
    done = 0
    while open_options and done < layouts:
        upto = layouts if not sequential else min(layouts, done + (REVIEW_STEP if done else EARLY_LOOK))
        requests = [(name, len(solved[name]), upto) for name in open_options if len(solved[name]) < upto]
        for (name, _, _), rows in zip(requests, solve(requests) if requests else [], strict=True):
            solved[name] += rows
        done = upto
        leader = max(open_options, key=lambda name: sum(r[1] for r in solved[name]) / len(solved[name]))
        lead = [r[1] for r in solved[leader]]
        open_options = [
            name
            for name in open_options
            if name == leader
            # the early look never stops the call made: its loss is the finding, and a loss
            # measured on the few layouts that made it look clearly worse is the lucky side
            or (name == chosen and done < REVIEW_FLOOR)
            or not clearly_worse(lead, [r[1] for r in solved[name]])
        ]
        if open_options == [leader]:
            break
        if chosen in solved and all(
            sum(_paired_gap([r[1] for r in solved[name]], [r[1] for r in solved[chosen]])) < NEGLIGIBLE_LOSS
            for name in open_options
            if name != chosen
        ):
            break
    return solved


def _prune(
    options: Sequence[str],
    solve: Callable[[list[Request]], list[list[list[float]]]],
    probe: Probe,
    look: int,
    chosen: str,
    solved: dict[str, list[list[float]]],
    pruned: set[str],
) -> None:
    """The early look of :func:`_sequential_scores` with a probe: the ``chosen`` option is solved
    on the first ``look`` layouts and is the reference; every other option is probed against the
    reference's scores less :data:`PRUNE_MARGIN`, layout by layout, and pruned (its rows the
    probe's bounds) when it stays below on each. Of those that do not, the one above on the most
    layouts is solved; when it leads the reference there, it becomes the reference, and the
    others are probed against it again (a search asked a second time starts from what the first
    probe proved). Each option is solved on the look or pruned, as the reference beats it by the
    margin on every layout: the gap of the means is at least the margin."""
    (solved[chosen],) = solve([(chosen, 0, look)])
    reference = chosen
    waiting = [name for name in options if name != chosen]
    while waiting:
        ceilings = [row[1] - PRUNE_MARGIN for row in solved[reference]]
        above: dict[str, int] = {}
        for name, bounds in zip(waiting, probe([(name, ceilings) for name in waiting]), strict=True):
            if all(bound is not None for bound in bounds):
                solved[name] = [bound for bound in bounds if bound is not None]
                pruned.add(name)
            else:
                above[name] = sum(bound is None for bound in bounds)
        waiting = sorted(above, key=lambda name: -above[name])
        while waiting:
            name = waiting.pop(0)
            (solved[name],) = solve([(name, 0, look)])
            if _mean(r[1] for r in solved[name]) > _mean(r[1] for r in solved[reference]):
                reference = name
                break


def _team_points(
    layouts: list[tuple[int, int, int, int]],
    leader: int,
    trump: int | None,
    rules: Rules,
    seat: int,
    workers: int,
    tables: DealTables | None = None,
) -> list[int]:
    if not layouts:
        return []
    positions = [Position(layout, (), leader) for layout in layouts]
    values, _ = solve_batch(positions, trump, rules, every_card=False, workers=workers, tables=tables)
    return _for_team(values, seat)


def _for_team(values: Iterable[int], seat: int) -> list[int]:
    """Team 0's points of whole deals as the points of ``seat``'s team."""
    return [int(v) if seat % 2 == 0 else 60 - int(v) for v in values]


def trump_review(
    deal: DealResult,
    rules: Rules,
    *,
    samples: int = 50,
    seed: int = 0,
    workers: int | None = None,
    sequential: bool = True,
    layouts: list[tuple[int, int, int, int]] | None = None,
    measure_in_full: bool = False,
    tables: DealTables | None = None,
) -> CallReview:
    """The expected result of each trump suit and of muil, from the chooser's hand.

    Scores use each contract's own doubling (muil x2), en face's and a 30-30 carry's
    (:func:`call_factor`), without knocks.

    :param deal: a replayed deal with its hands known.
    :param rules: the match's rules (``max_multiplier`` caps the doubling).
    :param samples: layouts of the other 24 cards to solve, at most.
    :param seed: the random seed.
    :param workers: threads to use (default: one per core).
    :param sequential: stop solving an option once it is clearly worse than the best one, and
        the whole review once one option is clearly best (:func:`clearly_worse`).
    :param layouts: the hands to solve instead of random ones (``call_model`` draws them given
        the calls).
    :param measure_in_full: when the option chosen is not the best, solve both on every layout
        after the sequential stop. The stop settles *which* option leads, on as few as 12
        layouts, not by how much: the lead measured when it stopped is the lucky side of the
        noise (in the demo, a 5.2-point "loss" on 18 layouts was 0.7 on 50), and a finding
        rests on that loss.
    :param tables: the deal's tables to solve on (one thread each, instead of ``workers``).
    :raises SolverError: for a deal without hands or of another variant.
    """
    _check(deal, rules, samples)
    seat = deal.chooser if deal.chooser is not None else deal.dealer
    chosen = _chosen_contract(deal)
    if layouts is None:
        layouts = _layouts(deal, seat, samples, seed, "trump")
    leader = (deal.dealer + 1) % 4
    threads = workers or default_workers()
    turned = None if deal.trump is None else int(deal.trump)
    assert deal.hands is not None  # _check
    contracts = {contract_name(trump): trump for trump in trump_options(rules, deal.hands[seat], turned)}
    factors = {
        name: call_factor(Contract.TRUMP if trump is not None else Contract.MUIL, deal, rules)
        for name, trump in contracts.items()
    }

    with ExitStack() as stack:
        if tables is None:
            tables = stack.enter_context(DealTables(threads))
        deal_tables = tables
        threads = len(tables.workers)

        def solve(requests: list[Request]) -> list[list[list[float]]]:
            groups = [
                ([Position(layout, (), leader) for layout in layouts[start:stop]], contracts[name])
                for name, start, stop in requests
            ]
            solved = solve_groups(groups, rules, every_card=False, workers=threads, tables=deal_tables)
            return [
                [[float(p), float(deal_score(p, factors[name], rules))] for p in _for_team(values, seat)]
                for (name, _, _), (values, _cards) in zip(requests, solved, strict=True)
            ]

        solved = _sequential_scores(list(contracts), solve, len(layouts), sequential, chosen)
        best = max(solved, key=lambda name: _mean(r[1] for r in solved[name]))
        if measure_in_full and chosen in solved and best != chosen:
            # only the layouts not solved yet: the deal's tables still hold the others
            names = [name for name in (chosen, best) if len(solved[name]) < len(layouts)]
            rest = solve([(name, len(solved[name]), len(layouts)) for name in names])
            for name, rows in zip(names, rest, strict=True):
                solved[name] += rows
    options = [_option_of(name, rows) for name, rows in solved.items()]
    options.sort(key=lambda o: -o.score)
    used = max(len(rows) for rows in solved.values())
    return CallReview(deal.number, seat, tuple(options), chosen, used)


def call_factor(contract: Contract, deal: DealResult, rules: Rules) -> int:
    """The doubling a trump call's option plays for: the contract's own (muil x2) and what every
    option carries alike, on a deal passed en face its x2 and on a deal after a 30-30 the carry's
    x2 (the knock review counts both too), without knocks, under the rules' cap: a choice on a
    carried deal wins or loses twice as much, and under the cap muil may gain less from the
    carry than a trump suit does."""
    return multiplier(contract, deal.en_face, 0, deal.carried, rules)


def _chosen_contract(deal: DealResult) -> str | None:
    try:
        return contract_name(deal_trump(deal))
    except SolverError:
        return None


def _option_of(name: str, rows: list[list[float]], bound: bool = False) -> CallOption:
    """An option from its layouts' ``[points, score]`` rows (upper bounds, when ``bound``)."""
    points = tuple(r[0] for r in rows)
    scores = tuple(r[1] for r in rows)
    return CallOption(name, _mean(points), _mean(scores), points, scores, bound)


def best_first(options: Iterable[CallOption]) -> tuple[CallOption, ...]:
    """Options in a review's order: the best expected score first, the options pruned (whose
    scores are only bounds, :attr:`CallOption.bound`) after the others, so never the best."""
    return tuple(sorted(options, key=lambda o: (o.bound, -o.score)))


def _mean(values: Iterable[float]) -> float:
    items = list(values)
    return sum(items) / len(items)


def knocker(deal: DealResult, rules: Rules, seat: int | None) -> int:
    """The seat a knock review decides for (default: the dealer's left), if it may klop.

    :raises SolverError: for a seat of the dealing team, or one ``klop_by`` does not let knock.
    """
    seat = (deal.dealer + 1) % 4 if seat is None else seat
    if not may_klop(rules, seat, deal.dealer):
        if seat % 2 == deal.dealer % 2:
            raise SolverError(f"seat {seat} is of the dealing team: only the other team may knock")
        raise SolverError(f"seat {seat} may not knock: klop_by is {rules.klop_by}")
    return seat


def knock_review(
    deal: DealResult,
    rules: Rules,
    *,
    seat: int | None = None,
    samples: int = 50,
    seed: int = 0,
    workers: int | None = None,
    sequential: bool = True,
    layouts: list[tuple[int, int, int, int]] | None = None,
    klop_knocks: Callable[[tuple[int, int, int, int]], int] | None = None,
    points_of: Callable[[list[int]], list[float]] | None = None,
    tables: DealTables | None = None,
) -> CallReview:
    """The expected result of knocking (klop) and of not knocking, from a knocker's hand.

    :param deal: a replayed deal with its hands and contract known.
    :param rules: the match's rules (doubling, its cap).
    :param seat: the seat deciding (of the team that did not deal); default: the dealer's left.
    :param samples: layouts of the other 24 cards to solve, at most.
    :param seed: the random seed.
    :param workers: threads to use (default: one per core).
    :param sequential: stop once one option is clearly best (:func:`clearly_worse`).
    :param layouts: the hands to solve instead of random ones (``call_model`` draws them given
        the calls).
    :param klop_knocks: the knocks a klop comes to in a layout (2 when the dealing team would
        answer tegenklop there); default 1 in every layout.
    :param points_of: turns layouts' perfect-play points into the points scored (``call_model``:
        what the table takes); default: as they are.
    :param tables: the deal's tables to solve on (one thread each, instead of ``workers``).
    :raises SolverError: for a deal without hands or contract, or a seat of the dealing team.
    """
    _check(deal, rules, samples)
    trump = deal_trump(deal)
    seat = knocker(deal, rules, seat)
    contract = deal.contract or (Contract.TRUMP if trump is not None else Contract.MUIL)
    if layouts is None:
        layouts = _layouts(deal, seat, samples, seed, f"klop{seat}")
    threads = workers or default_workers()
    factors = [multiplier(contract, deal.en_face, knocks, deal.carried, rules) for knocks in range(3)]
    knocked = [1 if klop_knocks is None else klop_knocks(layout) for layout in layouts]
    points: list[float] = []
    solved_points: list[float] = []  # perfect play's, before points_of
    with ExitStack() as stack:
        if tables is None:
            tables = stack.enter_context(DealTables(threads))
        deal_tables = tables
        threads = len(tables.workers)

        def solve(requests: list[Request]) -> list[list[list[float]]]:
            # both options share each layout's one search: only the doubling differs
            stop = max(stop for _, _, stop in requests)
            if len(points) < stop:
                some = layouts[len(points) : stop]
                solved = _team_points(some, (deal.dealer + 1) % 4, trump, rules, seat, threads, deal_tables)
                solved_points.extend(solved)
                points.extend(solved if points_of is None else points_of(solved))
            return [rows(name, points, start, stop) for name, start, stop in requests]

        def rows(name: str, of: list[float], start: int, stop: int) -> list[list[float]]:
            factor = [factors[0 if name == "no klop" else knocked[index]] for index in range(start, stop)]
            return [[p, deal_score(p, f, rules)] for p, f in zip(of[start:stop], factor, strict=True)]

        chosen = "klop" if deal.knocks >= 1 else "no klop"
        solved = _sequential_scores(["no klop", "klop"], solve, len(layouts), sequential, chosen)
    count = max(len(rows) for rows in solved.values())
    options = sorted((_option_of(name, rows) for name, rows in solved.items()), key=lambda o: -o.score)
    review = CallReview(deal.number, seat, tuple(options), chosen, count)
    if points_of is None:
        return review
    # the table's play is a model: perfect play on the same layouts bounds the verdict, as for
    # a trump call (CallReview.perfect)
    perfect = sorted(
        (_option_of(name, rows(name, solved_points, 0, len(kept))) for name, kept in solved.items()),
        key=lambda o: -o.score,
    )
    return replace(review, perfect=CallReview(deal.number, seat, tuple(perfect), chosen, count))
