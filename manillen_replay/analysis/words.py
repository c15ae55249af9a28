"""Small phrases shared by the explanations, in English and Dutch (Flemish players' terms)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..cards import Card, Suit


def cards_text(cards: Iterable[Card]) -> str:
    """Cards as the record format writes them, separated by spaces: ``AH KH 7C``."""
    return " ".join(str(card) for card in cards)


def suit_en(suit: int) -> str:
    """The English name of a suit."""
    return Suit(suit).english


def suit_nl(suit: int) -> str:
    """The Flemish name of a suit (harten, koeken, klaveren, schoppen)."""
    return Suit(suit).dutch


def number(points: float) -> str:
    """Points without a needless ``.0``."""
    return str(int(points)) if float(points).is_integer() else f"{points:g}"


def factor_en(multiplier: int) -> str:
    """How a deal's multiplier is said in English."""
    return {2: "double", 4: "quadruple"}.get(multiplier, f"x{multiplier}")


def factor_nl(multiplier: int) -> str:
    """How a deal's multiplier is said in Dutch."""
    return {2: "dubbel", 4: "viervoudig"}.get(multiplier, f"x{multiplier}")


def points_en(points: float, noun: str = "points") -> str:
    """``1 point``, ``3 points`` (``noun`` is the plural: ``card points``)."""
    return f"{number(points)} {noun[:-1] if points == 1 else noun}"


def points_nl(points: float, noun: str = "punten") -> str:
    """``1 punt``, ``3 punten`` (``noun`` is the plural: ``kaartpunten``)."""
    return f"{number(points)} {noun[:-2] if points == 1 else noun}"


def more_points_en(card_points: int, multiplier: int) -> str:
    """``4 more points``, or with a multiplier ``4 more card points (8 on the scoresheet ...)``."""
    if multiplier == 1:
        return f"{card_points} more {'point' if card_points == 1 else 'points'}"
    return (
        f"{card_points} more {'card point' if card_points == 1 else 'card points'} "
        f"({card_points * multiplier} on the scoresheet: the deal counted {factor_en(multiplier)})"
    )


def more_points_nl(card_points: int, multiplier: int) -> str:
    """The Dutch of :func:`more_points_en`."""
    if multiplier == 1:
        return f"{points_nl(card_points)} meer"
    return (
        f"{points_nl(card_points, 'kaartpunten')} meer ({card_points * multiplier} op het scorebord: "
        f"het spel telde {factor_nl(multiplier)})"
    )


def team_names(names: Sequence[str], team_of: Sequence[int], team: int) -> str:
    """The names of a team's players, joined with ``&`` (``Anna & Carla``).

    :param team_of: the team of each seat.
    """
    # not strict: three_dummy's dummy has a seat (and a team) but no player's name
    return " & ".join(name for name, seat_team in zip(names, team_of, strict=False) if seat_team == team)
