"""Slips in a record without hands: an illegal play that a small reordering of the lines explains.

Without hands the replay infers each hand from the cards played, so two trick lines typed in
the wrong order, or a line typed starting at the wrong player, move cards between hands and can
make a legal game look illegal. For a hand-less deal with an illegal play, :func:`find_slip`
tries every small reordering of its lines, in a fixed order: two neighbouring lines swapped, the
line of the first illegal play rotated so that another card is the lead, two lines further apart
swapped, one line moved, another line rotated. The first under
which every card of the deal is legal is the slip reported (``record_slip`` in
docs/findings.md); with none, the rule findings stand. With hands given, a rule broken is a rule
broken: nothing is searched.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum

from ..engine.inferred import inferred_leaders, is_legal_without_hands
from ..engine.results import DealResult
from ..rules import Rules, trick_points, winning_position
from .words import card_en, card_nl, team_members


class Reordering(Enum):
    """How the lines of a deal are reordered."""

    SWAP = "swap"
    """Two trick lines change places."""
    MOVE = "move"
    """One trick line moves up or down; the lines in between shift by one."""
    ROTATE = "rotate"
    """One line's cards rotate, so that a later card of the line is the lead (the line was typed
    starting at the wrong player)."""


@dataclass(frozen=True, slots=True)
class Slip:
    """A small reordering of a hand-less deal's lines under which every card is legal."""

    kind: Reordering
    """Swap, move or rotate."""
    trick: int
    """The line changed, counted from 1: the earlier of two swapped, the line moved or rotated."""
    other: int
    """Swap: the later line. Move: the line it goes before (moved up) or after (moved down).
    Rotate: the card of the line that becomes the lead, counted from 1."""
    order: tuple[int, ...]
    """The record's trick numbers in their new order."""
    tricks: tuple[tuple[int, ...], ...]
    """The reordered deal: each trick's cards, leader first."""
    leaders: tuple[int, ...]
    """The seat leading each trick of the reordered deal."""
    points: tuple[int, int]
    """The card points of each side (as ``DealResult.points``) with the lines reordered."""
    others: int
    """How many other reorderings of the search also make every card legal."""


def find_slip(deal: DealResult, rules: Rules) -> Slip | None:
    """The first small reordering that makes every card of a hand-less deal legal.

    :param deal: a replayed deal; only one without hands (``hands_inferred``), complete, with an
        illegal play is searched.
    :param rules: the rules it was played under.
    :returns: the slip, or ``None`` when the deal had hands, no illegal play, or no reordering of
        the search makes every card legal (the illegal plays then stand).
    """
    if not deal.hands_inferred or not deal.violations or deal.points is None:
        return None
    trump = None if deal.trump is None else int(deal.trump)
    tricks = [tuple(int(card) for card in trick.cards) for trick in deal.tricks]
    focus = deal.violations[0].trick - 1
    found: list[tuple[Reordering, int, int, tuple[int, ...], list[tuple[int, ...]]]] = []
    for kind, first, other, order, reordered in _reorderings(tricks, focus):
        if is_legal_without_hands(reordered, deal.dealer, trump, rules):
            found.append((kind, first, other, order, reordered))
    if not found:
        return None
    kind, first, other, order, reordered = found[0]
    leaders = inferred_leaders(reordered, deal.dealer, trump, rules)
    shape = rules.shape
    points = list(deal.points)
    for before, after, leader in zip(deal.tricks, reordered, leaders, strict=True):
        assert before.winner is not None  # a complete deal (it has points)
        points[shape.team_of(before.winner, deal.dealer)] -= before.points
        winner = shape.seat_of_play(leader, winning_position(after, trump), deal.dealer)
        points[shape.team_of(winner, deal.dealer)] += trick_points(after)
    return Slip(
        kind=kind,
        trick=first + 1,
        other=other + 1,
        order=tuple(t + 1 for t in order),
        tricks=tuple(reordered),
        leaders=tuple(leaders),
        points=(points[0], points[1]),
        others=len(found) - 1,
    )


def _reorderings(
    tricks: Sequence[tuple[int, ...]], focus: int
) -> Iterator[tuple[Reordering, int, int, tuple[int, ...], list[tuple[int, ...]]]]:
    """Every small reordering, in the order they are tried (0-based trick numbers): swaps of
    neighbours, then the ``focus`` line (the first illegal play's trick) rotated, then the other
    swaps by distance, moves by distance, and the other lines rotated; at each distance those
    that touch the focus line first. A line typed starting at the wrong player, the commonest
    slip at the table, changes that line alone: named before a move of another line that happens
    to clear the deal too. A move by one place is the swap of two neighbours and is not repeated."""
    n = len(tricks)
    keyed: list[tuple[tuple[int, ...], Reordering, int, int, tuple[int, ...], int]] = []
    for i in range(n):
        for j in range(i + 1, n):
            swap = list(range(n))
            swap[i], swap[j] = j, i
            key = (0 if j - i == 1 else 2, j - i, int(focus not in (i, j)), i, j)
            keyed.append((key, Reordering.SWAP, i, j, tuple(swap), 0))
    for i in range(n):
        for j in range(n):
            if abs(i - j) < 2:
                continue
            rest = [t for t in range(n) if t != i]
            # up: before line j; down: after line j
            at = rest.index(j) if j < i else rest.index(j) + 1
            move = (*rest[:at], i, *rest[at:])
            keyed.append(((3, abs(i - j), int(focus not in (i, j)), i, j), Reordering.MOVE, i, j, move, 0))
    size = len(tricks[0]) if tricks else 0
    for i in range(n):
        for k in range(1, size):
            tier = 1 if i == focus else 4
            keyed.append(((tier, 0, 0, i, k), Reordering.ROTATE, i, k, tuple(range(n)), k))
    keyed.sort(key=lambda item: item[0])
    for _, kind, first, other, order, turn in keyed:
        reordered = [tricks[t] for t in order]
        if turn:
            line = tricks[first]
            reordered[first] = line[turn:] + line[:turn]
        yield kind, first, other, order, reordered


_ORDINAL_EN = ("first", "second", "third", "fourth", "fifth", "sixth")
_ORDINAL_NL = ("eerste", "tweede", "derde", "vierde", "vijfde", "zesde")


def reordering_en(slip: Slip, names: Sequence[str], original: Sequence[Sequence[int]]) -> str:
    """The reordering in English: ``with tricks 4 and 5 the other way round``.

    :param names: the seats' names.
    :param original: the deal's tricks as recorded (to name a rotated line's new lead).
    """
    a, b = slip.trick, slip.other
    if slip.kind is Reordering.SWAP:
        if b == a + 1:
            return f"with tricks {a} and {b} the other way round"
        return f"with the lines of tricks {a} and {b} swapped"
    if slip.kind is Reordering.MOVE:
        return (
            f"with trick {a} moved up before trick {b}"
            if b < a
            else f"with trick {a} moved down after trick {b}"
        )
    card = original[a - 1][b - 1]
    leader = names[slip.leaders[a - 1]]
    return (
        f"with the line of trick {a} starting at its {_ORDINAL_EN[b - 1]} card, "
        f"{card_en(card)}, as {leader}'s lead"
    )


def reordering_nl(slip: Slip, names: Sequence[str], original: Sequence[Sequence[int]]) -> str:
    """The reordering in Dutch: ``met slag 4 en 5 in omgekeerde volgorde``."""
    a, b = slip.trick, slip.other
    if slip.kind is Reordering.SWAP:
        if b == a + 1:
            return f"met slag {a} en {b} in omgekeerde volgorde"
        return f"met de lijnen van slag {a} en {b} van plaats gewisseld"
    if slip.kind is Reordering.MOVE:
        if b < a:
            return f"met slag {a} naar voren geschoven, vóór slag {b}"
        return f"met slag {a} naar achteren geschoven, na slag {b}"
    card = original[a - 1][b - 1]
    leader = names[slip.leaders[a - 1]]
    return (
        f"met de lijn van slag {a} beginnend bij de {_ORDINAL_NL[b - 1]} kaart, {card_nl(card)}, "
        f"waarmee {leader} uitkomt"
    )


def slip_words(
    slip: Slip,
    deal: DealResult,
    names: Sequence[str],
    names_nl: Sequence[str],
    rules: Rules,
    seat: int,
    trick: int,
) -> tuple[str, str]:
    """The ``record_slip`` explanation's first part in English and Dutch: ``A rule broken by Bert
    in trick 5, or a slip in the record: with tricks 4 and 5 the other way round every card is
    legal.``, with the other reorderings that would do and the card points if they change.

    :param names: the seats' names in English, ``names_nl`` in Dutch (only the dummy's differ).
    :param seat: who broke the rule as recorded.
    :param trick: where, counted from 1.
    """
    original = [tuple(int(card) for card in t.cards) for t in deal.tricks]
    # a phrase with a clause of its own is closed by a comma
    en_comma = "," if slip.kind is Reordering.ROTATE else ""
    nl_comma = "" if slip.kind is Reordering.SWAP else ","
    en = (
        f"A rule broken by {names[seat]} in trick {trick}, or a slip in the record: "
        f"{reordering_en(slip, names, original)}{en_comma} every card is legal"
    )
    nl = (
        f"Een regel gebroken door {names_nl[seat]} in slag {trick}, of een fout in de notatie: "
        f"{reordering_nl(slip, names_nl, original)}{nl_comma} is elke kaart toegelaten"
    )
    if slip.others:
        many = slip.others > 1
        en += f" (so would {slip.others} other small reordering{'s' if many else ''})"
        nl += f" (dat kan ook met {slip.others} andere kleine verschuiving{'en' if many else ''})"
    en, nl = en + ".", nl + "."
    if deal.points is not None and slip.points != deal.points:
        shape = rules.shape
        team_of = [shape.team_of(s, deal.dealer) for s in range(shape.players)]
        # team_members leaves the dummy out: the people are named alike in both languages
        first, second = team_members(names, team_of, 0), team_members(names, team_of, 1)
        # a side of one person (three, three_dummy) takes; a team take
        take, halen = ("take", "halen") if len(first) > 1 else ("takes", "haalt")
        first_names, second_names = " & ".join(first), " & ".join(second)
        (p0, p1), (r0, r1) = slip.points, deal.points
        en += (
            f" In that order {first_names} {take} {p0} card points and {second_names} {p1}, "
            f"not {r0} and {r1} as recorded."
        )
        nl += (
            f" In die volgorde {halen} {first_names} {p0} kaartpunten en {second_names} {p1}, "
            f"niet {r0} en {r1} zoals genoteerd."
        )
    return en, nl


__all__ = ["Reordering", "Slip", "find_slip", "reordering_en", "reordering_nl", "slip_words"]
