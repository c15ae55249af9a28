"""Why a costly card cost: the line after it and the line after the better card, and the trick
where the points change hands, in English and in Dutch.

The lines come from the search (:func:`~manillen_replay.solver.lines.best_line`, and
:func:`~manillen_replay.solver.lines.variant_line` in the other variants); this module
chooses the cards and the hands to play them on and says what they show. The player did not
see the hidden hands, so the lines that explain a view cost are played on one layout of the
hidden cards among those the player could not tell from the real one: the one whose values of the card
played and of the better card lie closest to their averages over the layouts (the view
values), among the layouts where the better card does better. The words say so. The real
deal's lines (every hand known) go beside them, labelled.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial

from ..cards import CARD_POINTS, Card, iter_mask
from ..engine.results import DealResult, dummy_name
from ..rules import Rules, mask_points
from ..solver.lines import Line, LineTrick, best_lines, cheapest_first, variant_lines
from ..solver.search import DealTables, Position, solve_batch
from ..state import DealState
from .costs import PlayCost, deal_trump
from .layouts import (
    LayoutSampler,
    Moment,
    VariantLayoutSampler,
    VariantView,
    iter_moments,
    iter_variant_views,
)
from .ranking import real_teaches
from .words import card_en, card_nl, number, number_nl, points_en, points_nl, suit_en, suit_nl

REASON_THRESHOLD = 2.0
"""A card gets its reason from this view cost on (card points): an inaccuracy or worse."""
REASON_LAYOUTS = 12
"""Layouts a reason chooses its own from, at most: the first ones the view cost solved
(the same seed draws them again), so the choice costs a fraction of the view cost."""


@dataclass(frozen=True)
class Reason:
    """Why one costly card cost: its line and the better card's, on the layout chosen and on the real deal."""

    deal: int
    """The deal, counted from 1."""
    trick: int
    """The trick of the costly card, counted from 1."""
    play: int
    """Its place in the trick, counted from 1."""
    seat: int
    """Who played it."""
    card: Card
    """The card played."""
    better: Card
    """The better card the lines compare it with."""
    view_played: Line
    """The line after the card played, on the layout chosen (from the player's view)."""
    view_better: Line
    """The line after the better card, on the same layout."""
    real_played: Line
    """The line after the card played, on the real deal (every hand known)."""
    real_better: Line
    """The line after the better card, on the real deal."""
    layouts: int
    """How many layouts the one chosen was chosen from."""
    swing: int | None
    """The trick where the points change hands between the two view lines (``None`` when the
    layout chosen shows no difference)."""
    explanation: str
    """The reason in English."""
    explanation_nl: str
    """The reason in Dutch."""

    def lines(self) -> dict[tuple[str, str], Line]:
        """The four lines by ``(line, layout)``: ``played`` or ``better``, ``view`` or ``real``."""
        return {
            ("played", "view"): self.view_played,
            ("better", "view"): self.view_better,
            ("played", "real"): self.real_played,
            ("better", "real"): self.real_better,
        }


def better_cards(cost: PlayCost) -> tuple[Card, ...]:
    """The better cards of a costly play, those that did not do worse with every hand known
    first (then the cheapest): the card a reason and a finding name first is never one that
    cost more with hindsight than the card played unless every better card did."""
    played = cost.values[cost.card].hindsight if cost.card in cost.values else 0
    better = [c for c in cost.best_cards if c != cost.card]
    return tuple(sorted(better, key=lambda c: (cost.values[c].hindsight < played, cheapest_first(c))))


def _team_values(values: Sequence[int], seat: int, in_play: int) -> list[int]:
    return [v if seat % 2 == 0 or v < 0 else in_play - v for v in values]


def reason_layouts(
    moment: Moment,
    trump: int | None,
    rules: Rules,
    *,
    seed: int,
    deal: int,
    exact: bool | None = None,
    solved: int = REASON_LAYOUTS,
) -> list[tuple[int, int, int, int]]:
    """The layouts of the hidden cards a line from the player's view is chosen among: the first
    of those the view cost solved (the same seed draws them again).

    :param exact: the view cost solved every layout (then every one, at least the first
        :data:`REASON_LAYOUTS`); ``None``: every one when there are at most that many.
    :param solved: how many layouts the view cost solved (at most :data:`REASON_LAYOUTS` are drawn).
    """
    rng = random.Random(f"{seed}:{deal}:{moment.trick}:{moment.play}")
    sampler = LayoutSampler(moment, trump, rules, rng)
    if exact is None:
        exact = sampler.total <= REASON_LAYOUTS
    if exact:
        return sampler.every().hands[: max(REASON_LAYOUTS, solved)]
    return sampler.draw(max(1, min(REASON_LAYOUTS, solved or REASON_LAYOUTS)))


def closest_layout(
    moment: Moment,
    layouts: Sequence[tuple[int, int, int, int]],
    card: int,
    other: int,
    trump: int | None,
    rules: Rules,
    *,
    tables: DealTables,
    means: tuple[float, float] | None = None,
    shown: Sequence[tuple[int, int]] = (),
) -> tuple[tuple[int, int, int, int], tuple[float, float]]:
    """The layout whose values of two cards lie closest to their averages (the view values),
    among those where the two differ the way the averages do (and of those, the ones holding the
    most of ``shown``); and those averages.

    :param card: the card played.
    :param other: the card it is compared with.
    :param means: the two cards' view values for the player's team; without them, their
        averages over ``layouts``.
    :param shown: ``(seat, card)`` of the cards the rest of the trick showed (:func:`rest_of_trick`).
    """
    position = moment.position
    positions = [Position(layout, position.trick, position.leader) for layout in layouts]
    _values, cards = solve_batch(positions, trump, rules, workers=len(tables.workers), tables=tables)
    in_play = position.points_in_play
    pairs = [_team_values([row[card], row[other]], moment.seat, in_play) for row in cards.tolist()]
    likeness = [held_as_shown(layout, shown) for layout in layouts]
    index, means = closest_pair(pairs, means, likeness)
    return layouts[index], means


def rest_of_trick(deal: DealResult, trick: int, play: int) -> list[tuple[int, int]]:
    """``(seat, card)`` of each card played after the given one in its trick, in the game: the
    hidden cards the trick went on to show."""
    played = deal.tricks[trick - 1]
    return [(seat, int(card)) for seat, card in zip(played.seats[play:], played.cards[play:], strict=True)]


def held_as_shown(places: Sequence[int], shown: Sequence[tuple[int, int]]) -> int:
    """How many of the cards the rest of the trick showed a layout puts where they were: in the
    hand (a card mask a seat) of the seat that played them."""
    return sum(places[seat] >> card & 1 for seat, card in shown)


def closest_pair(
    pairs: Sequence[Sequence[float]],
    means: tuple[float, float] | None = None,
    likeness: Sequence[int] | None = None,
) -> tuple[int, tuple[float, float]]:
    """Which of the layouts' two values (one pair a layout) lie closest to their averages, among
    those where the two differ the way the averages do; and those averages. Both what-ifs choose
    their layout so: two cards' values, or two calls'.

    :param means: the averages; without them, the pairs'.
    :param likeness: per layout, how like the game it is (:func:`held_as_shown`): among those where
        the two differ the way the averages do, the most like it are chosen from.

    >>> closest_pair([(10, 20), (14, 12), (12, 15)])
    (2, (12.0, 15.666666666666666))
    >>> closest_pair([(10, 20), (14, 12), (12, 15)], likeness=[1, 0, 0])
    (0, (12.0, 15.666666666666666))
    """
    if means is None:
        means = (sum(p for p, _ in pairs) / len(pairs), sum(o for _, o in pairs) / len(pairs))
    mean_card, mean_other = means
    ranked = []
    for index, (value, against) in enumerate(pairs):
        agrees = against > value if mean_other >= mean_card else against < value
        distance = abs(value - mean_card) + abs(against - mean_other)
        like = likeness[index] if likeness is not None else 0
        ranked.append((not agrees, -like, distance, index))
    return min(ranked)[-1], means


def choose_layout(
    moment: Moment,
    cost: PlayCost,
    better: Card,
    trump: int | None,
    rules: Rules,
    *,
    seed: int,
    deal: int,
    tables: DealTables,
    shown: Sequence[tuple[int, int]] = (),
) -> tuple[tuple[int, int, int, int], int]:
    """The layout of the hidden cards the reason's lines are played on, and how many it was chosen from.

    The layouts are the first of those the view cost solved (:func:`reason_layouts`); the one
    chosen is :func:`closest_layout` to the view values of the card played and the better card,
    among those holding the most of the cards the rest of the trick showed (``shown``).
    """
    layouts = reason_layouts(
        moment, trump, rules, seed=seed, deal=deal, exact=cost.exact, solved=cost.layouts
    )
    if not layouts:
        return moment.position.hands, 0
    means = (cost.values[cost.card].view or 0.0, cost.values[better].view or 0.0)
    layout, _ = closest_layout(
        moment, layouts, cost.card, better, trump, rules, tables=tables, means=means, shown=shown
    )
    return layout, len(layouts)


def _net(trick: LineTrick, team: int, sides: Sequence[int]) -> int:
    """A trick's points for ``team``: what it takes, less what the other team takes."""
    return trick.points if sides[trick.winner] == team else -trick.points


def swing_trick(played: Line, better: Line, team: int) -> int | None:
    """The trick where the points change hands: where ``team`` does best after the better card
    against the card played, counting what it takes and what the other team takes (a trick it
    wins instead of losing, or one the other team takes with fewer of its points); the earliest
    of equal ones, ``None`` when it does better nowhere."""
    gains = [
        (_net(b, team, better.sides) - _net(p, team, played.sides), -p.number, p.number)
        for p, b in zip(played.tricks, better.tricks, strict=True)
    ]
    best = max(gains, default=None)
    return best[2] if best is not None and best[0] > 0 else None


@dataclass(frozen=True)
class _Words:
    """What the sentences need to name people and cards in one language."""

    names: Sequence[str]
    lang: str
    sides: Sequence[int]
    """Each seat's side (:attr:`~manillen_replay.solver.lines.Line.sides`)."""
    people: int
    """The seats people play: the first ones; a later seat (``three_dummy``'s dummy) is the dealer's."""
    unsure: frozenset[int] = frozenset()
    """Cards the layout puts in another hand than the real deal does: the player could not
    have told where they were, and the layout's holder is made up, so they are not named."""
    trump: int | None = None

    def named(self, card: int) -> bool:
        """Whether a card may be named with its holder: where it lies is as true as the words."""
        return card not in self.unsure

    def kind(self, card: int) -> str:
        """A card said without naming it: what holds on every layout where it takes the trick
        (a trump, or the trick's highest card of the suit led: "a higher diamond" left a player
        asking higher than what, and whose)."""
        suit = Card(card).suit
        if self.lang == "en":
            return (
                "a trump" if suit == self.trump else f"the trick's highest {suit_en(suit).removesuffix('s')}"
            )
        return "een troef" if suit == self.trump else f"de hoogste {suit_nl(suit)} in de slag"

    def card(self, card: int) -> str:
        return card_en(card) if self.lang == "en" else f"de {card_nl(card)}"

    def seat(self, seat: int) -> str:
        if seat >= len(self.names):
            return f"seat {seat}"
        if seat >= self.people and self.lang == "nl":
            # the dummy of three_dummy, named after the dealer who plays it, in Dutch
            members = self.members(seat)
            if len(members) == 1:
                return dummy_name(members[0], "nl")
        return self.names[seat]

    def decider(self, seat: int) -> str:
        """Who chose the seat's card, from what they could see: the seat's own player, or for the
        dummy of ``three_dummy`` the one person on its side, the dealer who plays it."""
        if seat < self.people:
            return self.seat(seat)
        members = self.members(seat)
        return members[0] if len(members) == 1 else self.seat(seat)

    def members(self, seat: int) -> list[str]:
        """The names of the people on the seat's side (the dealer plays the dummy of ``three_dummy``,
        so the dummy is not one more of them)."""
        side = self.sides[seat]
        return [self.seat(s) for s, of in enumerate(self.sides[: self.people]) if of == side]

    def team(self, seat: int) -> str:
        names = self.members(seat)
        last = " & ".join(names[-2:])
        return ", ".join([*names[:-2], last])

    def takes(self, seat: int, many: str, one: str) -> str:
        """The verb for the seat's side: ``many`` for a side of several people, ``one`` for one."""
        return many if len(self.members(seat)) > 1 else one

    def points(self, value: float) -> str:
        return points_en(value) if self.lang == "en" else points_nl(value)

    def card_points(self, value: float) -> str:
        return points_en(value, "card point") if self.lang == "en" else points_nl(value, "kaartpunt")

    def number(self, value: float) -> str:
        return number(value) if self.lang == "en" else number_nl(value)


def _lost_with(w: _Words, trick: LineTrick, team: int) -> list[int]:
    """The counting cards ``team`` put into a trick the other team took, those that may be named."""
    return [
        p.card for p in trick.plays if w.sides[p.seat] == team and CARD_POINTS[p.card] and w.named(p.card)
    ]


def _by_seat(trick: LineTrick, cards: Sequence[int]) -> list[tuple[int, list[int]]]:
    """Those of ``cards`` in a trick by the seat that played them, in the order played: a seat
    plays two cards of a trick in ``two_open_fours``, named once."""
    found: dict[int, list[int]] = {}
    for play in trick.plays:
        if play.card in cards:
            found.setdefault(play.seat, []).append(play.card)
    return list(found.items())


def _trick_en(w: _Words, trick: LineTrick, team: int, after: Card) -> str:
    if w.named(trick.winning_card):
        taker = f"{w.seat(trick.winner)}'s {w.card(trick.winning_card)}"
        text = f"after the {w.card(after)}, {taker} takes trick {trick.number} ({w.points(trick.points)})"
    else:
        text = (
            f"after the {w.card(after)}, {w.team(trick.winner)} {w.takes(trick.winner, 'take', 'takes')} "
            f"trick {trick.number} "
            f"({w.points(trick.points)}) with {w.kind(trick.winning_card)}"
        )
    lost = _lost_with(w, trick, team) if w.sides[trick.winner] != team else []
    if lost:
        groups = _by_seat(trick, lost)
        owners = " and ".join(f"{w.seat(s)}'s {' and '.join(map(w.card, cs))}" for s, cs in groups)
        text += f", {owners} with it"
    return text


def _trick_nl(w: _Words, trick: LineTrick, team: int, after: Card) -> str:
    if w.named(trick.winning_card):
        text = (
            f"na {w.card(after)} neemt {w.seat(trick.winner)} slag {trick.number} met "
            f"{w.card(trick.winning_card)} ({w.points(trick.points)})"
        )
    else:
        text = (
            f"na {w.card(after)} {w.takes(trick.winner, 'nemen', 'neemt')} {w.team(trick.winner)} "
            f"slag {trick.number} met "
            f"{w.kind(trick.winning_card)} ({w.points(trick.points)})"
        )
    lost = _lost_with(w, trick, team) if w.sides[trick.winner] != team else []
    if lost:
        groups = _by_seat(trick, lost)
        owners = " en ".join(f"{' en '.join(map(w.card, cs))} van {w.seat(s)}" for s, cs in groups)
        text += f", en {owners} gaat mee" if len(lost) == 1 else f", en {owners} gaan mee"
    return text


def explain(
    played: Line,
    better: Line,
    *,
    seat: int,
    card: Card,
    better_card: Card,
    names: Sequence[str],
    lang: str,
    layouts: int,
    real: tuple[Line, Line] | None = None,
    every: bool = False,
    unsure: frozenset[int] = frozenset(),
    trump: int | None = None,
    people: int | None = None,
    shown: tuple[int, int] = (0, 0),
    game_winner: int | None = None,
) -> str:
    """The reason in words: the trick where the points change hands between the two lines.

    :param played: the line after the card played (on the layout chosen).
    :param better: the line after the better card (on the same layout).
    :param names: the players by seat.
    :param lang: ``en`` or ``nl``.
    :param layouts: how many layouts the one chosen was chosen from (0: the real deal itself).
    :param every: those were every layout the player could not tell apart, not a draw.
    :param real: the two lines on the real deal, to say what they came to with every hand known.
    :param unsure: the cards the layout puts in another hand than the real deal (:func:`misplaced`):
        a trick one of them takes is said by the side that takes it and what kind of card (a
        trump, a higher card of the suit), not by a holder the layout made up.
    :param trump: the trump suit, for those words.
    :param people: how many seats people play (a side is named by its people): the first ones;
        default every seat.
    :param shown: of the cards the others went on to play to the card's trick, how many the layout
        puts where they were, and how many there were (:func:`held_as_shown`): the layout was
        chosen among those holding the most of them, and the words say so.
    :param game_winner: the seat that took the card's trick in the game, when it was finished: a
        line on the layout that gives that trick to the other side says what the game did.
    """
    sides = played.sides
    w = _Words(names, lang, sides, people or len(sides), unsure, trump)
    team = sides[seat]
    who = w.decider(seat)
    swing = swing_trick(played, better, team)
    first_p, first_b = played.tricks[0], better.tricks[0]
    # what the card's own trick costs either way is said too: a 10 thrown on the other side's
    # trick gives five points there, before the later trick where more change hands; on the
    # side's own trick the better card's points are a smear
    gives = _net(first_p, team, sides) < _net(first_b, team, sides)
    smeared = sides[first_p.winner] == team
    parts: list[str] = []
    if lang == "en":
        # the layouts a reason chooses from are the first of those the average was taken over
        # (REASON_LAYOUTS): said so, where "12 such layouts drawn" read against "averaged over 50"
        held, of = shown
        like = (
            ""
            if not held or layouts == 1
            else f" where the others hold the cards they played after it to trick {first_p.number}"
            if held == of
            else " where the others hold the most of the cards they played after it to trick "
            f"{first_p.number}"
        )
        among = (
            f"of all {layouts} such layouts, the one closest to the average{like}"
            if every
            else "the first layout drawn for the average"
            if layouts == 1
            else f"of the first {layouts} layouts drawn for the average, the one closest to it{like}"
        )
        intro = (
            f"Why, on the only way the hidden cards could lie as far as {who} could tell"
            if every and layouts == 1
            else f"Why, on one way the hidden cards could lie as far as {who} could tell ({among})"
            if layouts
            else "Why, with every hand known and the best play after it"
        )
        if swing is not None and swing != first_p.number and sides[first_p.winner] == sides[first_b.winner]:
            here = "on this layout " if layouts else ""
            gave = (
                f", with {w.points(first_p.points)} after the {w.card(card)} against {first_b.points} after "
                f"the {w.card(better_card)}" + (" (smeared on it: vetten)" if smeared else "")
                if gives
                else ""
            )
            parts.append(f"{here}trick {first_p.number} is {w.team(first_p.winner)}'s either way{gave}")
        elif swing is not None and swing != first_p.number:
            # the card's own trick changes sides too, for fewer points: said first, where the words
            # went straight to a later trick and left the reader wondering about this one
            here = "on this layout " if layouts else ""
            parts.append(
                f"{here}trick {first_p.number} goes to {w.team(first_p.winner)} after the {w.card(card)} "
                f"({w.points(first_p.points)}), to {w.team(first_b.winner)} after the "
                f"{w.card(better_card)} ({first_b.points})"
            )
        if swing is None:
            parts.append(
                f"the {w.card(card)} and the {w.card(better_card)} come to the same here; the gap is "
                "in the other layouts"
            )
        else:
            p = next(t for t in played.tricks if t.number == swing)
            b = next(t for t in better.tricks if t.number == swing)
            if sides[p.winner] == sides[b.winner] == team:
                parts.append(
                    f"trick {swing} is {w.team(b.winner)}'s either way, but it holds "
                    f"{w.points(b.points)} after the {w.card(better_card)} against {p.points} after the "
                    f"{w.card(card)}"
                )
            elif sides[p.winner] == sides[b.winner]:
                parts.append(
                    f"trick {swing} goes to {w.team(b.winner)} either way, but it holds "
                    f"{w.points(p.points)} after the {w.card(card)} against {b.points} after the "
                    f"{w.card(better_card)}"
                )
            else:
                parts.append(_trick_en(w, p, team, card))
                parts.append(
                    f"after the {w.card(better_card)} it is {w.team(b.winner)}'s: "
                    f"{w.seat(b.winner)}'s {w.card(b.winning_card)} takes it"
                    if w.named(b.winning_card)
                    else f"after the {w.card(better_card)} it is {w.team(b.winner)}'s, "
                    f"with {w.kind(b.winning_card)}"
                )
        total = (
            f"{w.team(seat)} {w.takes(seat, 'take', 'takes')} {w.card_points(played.taken(team))} from here "
            f"after the {w.card(card)}, "
            f"{better.taken(team)} after the {w.card(better_card)}"
        )
        text = f"{intro}: {'; '.join(parts)}."
        if game_winner is not None and sides[game_winner] != sides[first_p.winner]:
            text += (
                f" In the game {w.team(game_winner)} took trick {first_p.number}: the hidden cards lay "
                "otherwise than on this layout."
            )
        text += f" {total[0].upper()}{total[1:]}."
        if real is not None:
            gap = real[1].taken(team) - real[0].taken(team)
            text += (
                f" With every hand known: {real[0].taken(team)} after the {w.card(card)}, "
                f"{real[1].taken(team)} after the {w.card(better_card)}"
            )
            if gap < 0:
                text += (
                    f": on the real cards the {w.card(better_card)} would have done worse, by "
                    f"{w.card_points(-gap)}; it was the better card from what {who} could see"
                )
            elif gap == 0:
                text += (
                    f": on the real cards the {w.card(better_card)} would have done no better; it was the "
                    f"better card from what {who} could see"
                )
            text += "."
        return text
    held, of = shown
    like = (
        ""
        if not held or layouts == 1
        else f", waarin de anderen de kaarten hebben die ze daarna in slag {first_p.number} speelden"
        if held == of
        else f", waarin de anderen zo veel mogelijk van de kaarten hebben die ze daarna in slag "
        f"{first_p.number} speelden"
    )
    among = (
        f"van de {layouts} mogelijke verdelingen: de verdeling die het dichtst bij het gemiddelde ligt{like}"
        if every
        else "de eerste verdeling getrokken voor het gemiddelde"
        if layouts == 1
        else f"van de eerste {layouts} verdelingen getrokken voor het gemiddelde: de verdeling die er "
        f"het dichtst bij ligt{like}"
    )
    intro = (
        f"Waarom, in de enige verdeling van de verborgen kaarten die {who} kon verwachten"
        if every and layouts == 1
        else f"Waarom, in één verdeling van de verborgen kaarten zoals {who} ze kon verwachten ({among})"
        if layouts
        else "Waarom, met alle kaarten open en het beste spel daarna"
    )
    if swing is not None and swing != first_p.number and sides[first_p.winner] == sides[first_b.winner]:
        # the verb second, as Dutch puts it after an opening phrase
        said = f"is slag {first_p.number}" if layouts else f"slag {first_p.number} is"
        here = "in deze verdeling " if layouts else ""
        gave = (
            f", met {w.points(first_p.points)} na {w.card(card)} tegen {first_b.points} na "
            f"{w.card(better_card)}" + (" (erop gevet)" if smeared else "")
            if gives
            else ""
        )
        parts.append(f"{here}{said} hoe dan ook voor {w.team(first_p.winner)}{gave}")
    elif swing is not None and swing != first_p.number:
        said = f"in deze verdeling gaat slag {first_p.number}" if layouts else f"slag {first_p.number} gaat"
        parts.append(
            f"{said} na {w.card(card)} naar {w.team(first_p.winner)} ({w.points(first_p.points)}), na "
            f"{w.card(better_card)} naar {w.team(first_b.winner)} ({first_b.points})"
        )
    if swing is None:
        parts.append(
            f"{w.card(card)} en {w.card(better_card)} komen hier op hetzelfde uit; het verschil zit "
            "in de andere verdelingen"
        )
    else:
        p = next(t for t in played.tricks if t.number == swing)
        b = next(t for t in better.tricks if t.number == swing)
        if sides[p.winner] == sides[b.winner] == team:
            parts.append(
                f"slag {swing} is hoe dan ook voor {w.team(b.winner)}, maar met {w.points(b.points)} "
                f"na {w.card(better_card)} tegen {p.points} na {w.card(card)}"
            )
        elif sides[p.winner] == sides[b.winner]:
            parts.append(
                f"slag {swing} is hoe dan ook voor {w.team(b.winner)}, maar met {w.points(p.points)} "
                f"na {w.card(card)} tegen {b.points} na {w.card(better_card)}"
            )
        else:
            parts.append(_trick_nl(w, p, team, card))
            parts.append(
                f"na {w.card(better_card)} is die slag voor {w.team(b.winner)}: {w.seat(b.winner)} "
                f"neemt hem met {w.card(b.winning_card)}"
                if w.named(b.winning_card)
                else f"na {w.card(better_card)} is die slag voor {w.team(b.winner)}, met "
                f"{w.kind(b.winning_card)}"
            )
    total = (
        f"{w.team(seat)} {w.takes(seat, 'halen', 'haalt')} vanaf hier {w.card_points(played.taken(team))} "
        f"na {w.card(card)}, "
        f"{better.taken(team)} na {w.card(better_card)}"
    )
    text = f"{intro}: {'; '.join(parts)}."
    if game_winner is not None and sides[game_winner] != sides[first_p.winner]:
        took = w.takes(game_winner, "namen", "nam")
        text += (
            f" In het spel {took} {w.team(game_winner)} slag {first_p.number}: de verborgen kaarten "
            "lagen anders dan in deze verdeling."
        )
    text += f" {total[0].upper()}{total[1:]}."
    if real is not None:
        gap = real[1].taken(team) - real[0].taken(team)
        text += (
            f" Met alle kaarten open: {real[0].taken(team)} na {w.card(card)}, "
            f"{real[1].taken(team)} na {w.card(better_card)}"
        )
        if gap < 0:
            text += (
                f": met de echte kaarten deed {w.card(better_card)} het slechter, met "
                f"{w.card_points(-gap)}; met wat {who} kon weten was het de betere kaart"
            )
        elif gap == 0:
            text += (
                f": met de echte kaarten deed {w.card(better_card)} het niet beter; met wat {who} kon "
                "weten was het de betere kaart"
            )
        text += "."
    return text


def misplaced(layout: Sequence[int], real: Sequence[int]) -> frozenset[int]:
    """The cards a layout of the hidden cards puts in another hand than the real deal does.

    >>> from manillen_replay.cards import CardSet
    >>> real = [CardSet.parse(h).mask for h in ("10D", "AD", "9C", "JC")]
    >>> drawn = [CardSet.parse(h).mask for h in ("10D", "9C", "AD", "JC")]
    >>> sorted(str(Card(c)) for c in misplaced(drawn, real))
    ['9C', 'AD']
    """
    return frozenset(c for mine, theirs in zip(layout, real, strict=True) for c in iter_mask(mine & ~theirs))


def reason_for(
    deal: DealResult,
    rules: Rules,
    moment: Moment,
    cost: PlayCost,
    *,
    names: Sequence[str],
    seed: int = 0,
    tables: DealTables | None = None,
) -> Reason | None:
    """The reason of one costly card: the lines and the words (``None`` without a better card).

    :param deal: the replayed deal.
    :param moment: the play (:func:`~.layouts.iter_moments`, with the inferences).
    :param cost: its costs (:func:`~.costs.view_costs`).
    :param names: the players by seat.
    :param seed: the seed the view costs were drawn with (the layouts are drawn again).
    :param tables: the deal's tables.
    """
    better = better_cards(cost)
    if not better or cost.view_cost is None:
        return None
    chosen = better[0]
    trump = deal_trump(deal)
    own = tables is None
    tables = tables or DealTables(1)
    shown = rest_of_trick(deal, cost.trick, cost.play)
    try:
        layout, count = choose_layout(
            moment, cost, chosen, trump, rules, seed=seed, deal=deal.number, tables=tables, shown=shown
        )
        position = moment.position
        view = best_lines(
            Position(layout, position.trick, position.leader), trump, rules, [cost.card, chosen],
            first_trick=moment.trick, tables=tables,
        )  # fmt: skip
        firsts = [cost.card, chosen]
        real = best_lines(position, trump, rules, firsts, first_trick=moment.trick, tables=tables)
    finally:
        if own:
            tables.close()
    tell = partial(explain, seat=cost.seat, card=cost.card, better_card=chosen, names=names, trump=trump)
    team = real[0].sides[cost.seat]
    if real_teaches(real[1].taken(team) - real[0].taken(team), view[1].taken(team) - view[0].taken(team)):
        # the real cards teach it too: told with the hands the player sees in the replay, not on a
        # layout made up for the average (a coach could not follow "the one closest to it where
        # the others hold the cards they played after it"); the view cost stays what judges it.
        # ranking.told_on_real says the same of the stored lines
        words = {lang: tell(real[0], real[1], lang=lang, layouts=0) for lang in ("en", "nl")}
    else:
        words = {
            lang: tell(
                view[0],
                view[1],
                lang=lang,
                layouts=count,
                real=(real[0], real[1]),
                every=cost.exact and count >= cost.layouts,
                unsure=misplaced(layout, position.hands),
                shown=(held_as_shown(layout, shown) if count else 0, len(shown)),
                game_winner=deal.tricks[cost.trick - 1].winner,
            )
            for lang in ("en", "nl")
        }
    return Reason(
        deal.number, cost.trick, cost.play, cost.seat, cost.card, chosen, view[0], view[1], real[0], real[1],
        count, swing_trick(view[0], view[1], view[0].sides[cost.seat]), words["en"], words["nl"],
    )  # fmt: skip


def variant_reason_layouts(
    view: VariantView, deal: DealResult, rules: Rules, cost: PlayCost, *, seed: int
) -> list[DealState]:
    """:func:`reason_layouts` in the other variants: the first of the layouts (hands and face-down
    table cards) the view cost solved, drawn again with the same seed
    (:class:`~.layouts.VariantLayoutSampler`), each the engine's state after any table move made."""
    moment = view.moment
    rng = random.Random(f"{seed}:{deal.number}:{moment.trick}:{moment.play}")
    sampler = VariantLayoutSampler(view, deal, rules, rng)
    if cost.exact:
        return sampler.every()[: max(REASON_LAYOUTS, cost.layouts)]
    return sampler.draw(max(1, min(REASON_LAYOUTS, cost.layouts or REASON_LAYOUTS)))


def table_places(state: DealState) -> list[int]:
    """Where a state's cards in play lie, one mask a place: each hand, then each table pile."""
    return [*state.hands, *(sum(1 << c for c in pile) for piles in state.table for pile in piles)]


def seat_cards(state: DealState) -> list[int]:
    """The cards each seat of a state still holds, in the hand or on its table: one mask a seat."""
    return [
        hand | sum(1 << card for pile in (state.table[seat] if state.table else ()) for card in pile)
        for seat, hand in enumerate(state.hands)
    ]


def _two_values(state: DealState, cards: tuple[int, int]) -> tuple[int, int]:
    """The points the seat to play's side takes after each of two cards, on one layout: the card
    played as played (a move made is in ``state``), the other the better of moving a table card
    first or not (as the view values count them, :func:`~.costs.variant_layout_row`); only these
    two, not every card."""
    from ..solver.variants import VariantSearch

    search = VariantSearch(state.rules, state.dealer, state.trump)
    seat = state.to_play
    in_play = sum(mask_points(place) for place in table_places(state))
    in_play += sum(CARD_POINTS[c] for c in state.trick)
    played, other = cards
    starts = [(False, state)]
    if state.can_move_to_empty_place(seat):
        starts.append((True, state.move_to_empty_place(seat)))
    others = [(moved, other) for moved, start in starts if start.legal_mask() >> other & 1]
    found = search.choice_values(state, [(False, played), *others])
    if search.side_of(seat) == 1:
        found = {choice: in_play - value for choice, value in found.items()}
    return found[(False, played)], max(found[choice] for choice in others)


def variant_reason_for(
    deal: DealResult, rules: Rules, view: VariantView, cost: PlayCost, *, names: Sequence[str], seed: int = 0
) -> Reason | None:
    """:func:`reason_for` in the variants other than ``four``: the same choice of layout among
    those the player could not tell apart, lines from the variant search
    (:func:`~manillen_replay.solver.lines.variant_line`), the same words (``None`` without a
    better card).

    A seat that moved a table card to its empty fourth place is judged after the move, as its
    view cost is: both lines start from the table after it.

    :param view: the play (:func:`~.layouts.iter_variant_views`).
    :param cost: its costs (:func:`~.costs.variant_view_costs`).
    :param names: the players by seat (the dummy's: the dealer's, who plays it).
    :param seed: the seed the view costs were drawn with (the layouts are drawn again).
    """
    from ..solver.variants import map_searches

    better = better_cards(cost)
    if not better or cost.view_cost is None:
        return None
    chosen = better[0]
    moment = view.moment
    trump = None if deal.trump is None else int(deal.trump)
    real = moment.state.move_to_empty_place(moment.seat) if moment.moved else moment.state
    layouts = variant_reason_layouts(view, deal, rules, cost, seed=seed)
    layout = real
    shown = rest_of_trick(deal, cost.trick, cost.play)
    if layouts:
        pairs = map_searches(partial(_two_values, cards=(cost.card, chosen)), layouts)
        means = (cost.values[cost.card].view or 0.0, cost.values[chosen].view or 0.0)
        likeness = [held_as_shown(seat_cards(state), shown) for state in layouts]
        index, _ = closest_pair(pairs, means, likeness)
        layout = layouts[index]
    firsts = [cost.card, chosen]
    on_view, on_real = map_searches(partial(variant_lines, firsts=firsts), [layout, real])
    count = len(layouts)
    unsure = misplaced(table_places(layout), table_places(real))
    said = partial(
        explain, on_view[0], on_view[1], seat=cost.seat, card=cost.card, better_card=chosen, names=names,
        layouts=count, real=(on_real[0], on_real[1]), every=cost.exact and count >= cost.layouts,
        unsure=unsure, trump=trump, people=rules.shape.people,
        shown=(held_as_shown(seat_cards(layout), shown) if count else 0, len(shown)),
        game_winner=deal.tricks[cost.trick - 1].winner,
    )  # fmt: skip
    words = {lang: said(lang=lang) for lang in ("en", "nl")}
    return Reason(
        deal.number, cost.trick, cost.play, cost.seat, cost.card, chosen, on_view[0], on_view[1],
        on_real[0], on_real[1], count, swing_trick(on_view[0], on_view[1], on_view[0].sides[cost.seat]),
        words["en"], words["nl"],
    )  # fmt: skip


def deal_reasons(
    deal: DealResult,
    rules: Rules,
    costs: Sequence[PlayCost],
    *,
    names: Sequence[str],
    seed: int = 0,
    threshold: float = REASON_THRESHOLD,
    tables: DealTables | None = None,
) -> list[Reason]:
    """The reasons of a deal's costly cards: legal cards that surely cost ``threshold`` or more
    from the player's view (:attr:`~.costs.PlayCost.sure_view_cost`, as the findings judge them).

    Only those are played out, so a deal without a costly card costs nothing more.

    :param costs: the deal's :func:`~.costs.view_costs`.
    :param names: the players by seat.
    :param seed: the seed the view costs were drawn with.
    """
    costly = {
        (c.trick, c.play): c
        for c in costs
        if c.legal and not c.forced and c.sure_view_cost is not None and c.sure_view_cost >= threshold
    }
    if not costly:
        return []
    reasons = []
    if rules.variant != "four":
        for view in iter_variant_views(deal, rules):
            cost = costly.get((view.moment.trick, view.moment.play))
            if cost is not None:
                found = variant_reason_for(deal, rules, view, cost, names=names, seed=seed)
                if found is not None:
                    reasons.append(found)
        return reasons
    for moment in iter_moments(deal, rules):
        cost = costly.get((moment.trick, moment.play))
        if cost is not None:
            found = reason_for(deal, rules, moment, cost, names=names, seed=seed, tables=tables)
            if found is not None:
                reasons.append(found)
    return reasons


def reason_words(reasons: Sequence[Reason]) -> Mapping[tuple[int, int], tuple[str, str]]:
    """Each reason's words by ``(trick, play)``, for :func:`~.solver_findings.cost_findings`."""
    return {(r.trick, r.play): (r.explanation, r.explanation_nl) for r in reasons}


__all__ = [
    "REASON_THRESHOLD",
    "Reason",
    "better_cards",
    "choose_layout",
    "closest_layout",
    "closest_pair",
    "deal_reasons",
    "explain",
    "held_as_shown",
    "misplaced",
    "reason_for",
    "reason_layouts",
    "reason_words",
    "rest_of_trick",
    "seat_cards",
    "swing_trick",
    "table_places",
    "variant_reason_for",
    "variant_reason_layouts",
]
