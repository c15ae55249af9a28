"""Replay results for people (text with suit symbols) and for machines (the JSON contract)."""

from __future__ import annotations

import re
from typing import Any

from ..cards import CARDS, Card
from ..rules import CAPOT_POINTS, Contract, DealScore, capot_factor
from .results import DealKind, DealResult, IrregularityKind, MatchResult, dummy_name


def match_to_json(result: MatchResult) -> dict[str, Any]:
    """One match in the ``manillen replay --json`` contract (docs/cli.md)."""
    return {
        "id": result.id,
        "source": result.source,
        "seats": result.seats,
        "final_score": None if result.evening else list(result.final_score),
        "winner": result.winner,
        "finished": result.finished,
        "variant": result.rules.variant,
        "deals": [deal_to_json(d, result) for d in result.deals],
        "blocks": [
            {
                "block": b.number,
                "seats": b.seats,
                "score": list(b.score),
                "winner": b.winner,
                "winners": b.winners,
                "finished": True,
            }
            for b in result.blocks
        ]
        + _block_under_way(result),
        "blocks_won": result.blocks_won,
        "irregularities": [
            {"deal": i.deal, "kind": i.kind.value, "message": i.message} for i in result.irregularities
        ],
    }


def deal_to_json(deal: DealResult, result: MatchResult | None = None) -> dict[str, Any]:
    """One deal in the ``manillen replay --json`` contract."""
    sides: list[list[int]] = [[], []]
    if result is not None:
        shape = result.rules.shape
        for seat in range(shape.players):
            sides[shape.team_of(seat, deal.dealer)].append(seat)
    return {
        "deal": deal.number,
        "dealer": deal.dealer,
        "sides": sides,
        "kind": deal.kind.value,
        "trump": deal.trump.name if deal.trump is not None else None,
        "contract": deal.contract.value if deal.contract is not None else None,
        "en_face": deal.en_face,
        "knocks": deal.knocks,
        "multiplier": deal.multiplier,
        "points": list(deal.points) if deal.points is not None else None,
        "capot": is_capot(deal),
        "score": {"team": deal.score.team, "points": deal.score.points} if deal.score else None,
        "recorded_score": (
            ({"team": deal.recorded.team, "points": deal.recorded.points} if deal.recorded else None)
            if deal.has_recorded
            else None
        ),
        "score_mismatch": deal.score_mismatch,
        "penalties": [{"team": t, "points": p, "reason": r} for t, p, r in deal.penalties],
        "match_score": list(deal.match_score),
        "counted": deal.counted,
        "tricks": [
            {
                "trick": t.number,
                "leader": t.leader,
                "seats": t.seats,
                "cards": [str(c) for c in t.cards],
                "winner": t.winner,
                "points": t.points,
            }
            for t in deal.tricks
        ],
        "violations": [
            {
                "trick": v.trick,
                "play": v.play,
                "seat": v.seat,
                "card": str(v.card),
                "kind": v.kind.value,
                "legal": [str(c) for c in v.legal],
            }
            for v in deal.violations
        ],
    }


def seat_names(result: MatchResult, deal: DealResult, lang: str = "en") -> list[str]:
    """The name of every seat in a deal, the dummy of ``three_dummy`` included (a club evening's
    deal: who sat there in that deal's block), in English or Dutch (``nl``): the dummy's seat is
    ``Anna's dummy`` or ``blinde van Anna``, the people's names are the same in both."""
    names = list(deal.names) if deal.names else list(result.seats)
    shape = result.rules.shape
    if not deal.names and shape.players > len(names):
        names.append(dummy_name(names[deal.dealer], lang))
    elif lang != "en":
        # the replay names the dummy in English; its seat is the one past the people
        for seat in range(shape.people, min(shape.players, len(names))):
            names[seat] = dummy_name(names[deal.dealer], lang)
    return names


def player_names(result: MatchResult, deal: DealResult) -> list[str]:
    """Who chose the cards of every seat in a deal: the seat's player, and the dealer for the
    dummy of ``three_dummy`` (who plays it), as the archive's ``deal_seats`` and ``plays`` name
    them. :func:`seat_names` names the seats themselves (``Anna's dummy``)."""
    names = seat_names(result, deal)
    shape = result.rules.shape
    for seat in range(shape.people, min(shape.players, len(names))):
        names[seat] = names[deal.dealer]
    return names


def side_name(result: MatchResult, deal: DealResult, side: int) -> str:
    """A side of a deal as players name it, by its people: ``Anna & Carla`` (a team), ``Anna``
    (one player), the people of that deal's seating (a club evening rotates partners)."""
    shape = result.rules.shape
    names = seat_names(result, deal)
    return " & ".join(names[seat] for seat in range(shape.people) if shape.team_of(seat, deal.dealer) == side)


def _side_names(result: MatchResult, deal: DealResult) -> str:
    shape = result.rules.shape
    if shape.sides == "teams":
        return ""
    return f" ({side_name(result, deal, 0)} - {side_name(result, deal, 1)})"


def _scored(result: MatchResult, deal: DealResult, score: DealScore | None) -> str:
    """``Anna & Carla scored 17``, or a 30-30."""
    if score is None:
        return "30-30 (nobody scores)"
    return f"{side_name(result, deal, score.team)} scored {score.points}"


def irregularity_words(result: MatchResult, deal: DealResult, kind: IrregularityKind, message: str) -> str:
    """An irregularity in the players' words: teams by their names, players without the record's
    seat numbers (the JSON keeps the engine's message)."""
    if kind is IrregularityKind.SCORE_MISMATCH and deal.has_recorded:
        return (
            f"deal {deal.number}: the scoresheet says {_scored(result, deal, deal.recorded)}, "
            f"the cards say {_scored(result, deal, deal.score)}"
        )
    return re.sub(r" \(seat \d+\)", "", message)


def _win(result: MatchResult, side: int) -> str:
    """``Anna & Carla win`` (a team), ``Anna wins`` (one player)."""
    shape = result.rules.shape
    alone = sum(shape.team_of(seat, 0) == side for seat in range(shape.people)) == 1
    return f"{_match_side(result, side)} {'wins' if alone else 'win'}"


def is_capot(deal: DealResult) -> bool:
    """Whether one side took every card point of a played deal."""
    return deal.points is not None and bool(deal.tricks) and min(deal.points) == 0 < max(deal.points)


def capot_bonus(result: MatchResult, deal: DealResult) -> tuple[str, int] | None:
    """What a house rule made of a deal's capot: ``("double", factor)`` or ``("fixed", points)``;
    ``None`` for no capot, or one scored as any deal (``capot: plain``)."""
    rules = result.rules
    if not is_capot(deal) or rules.capot == "plain" or deal.multiplier is None:
        return None
    if rules.capot == "double":
        return "double", capot_factor(deal.multiplier, rules)
    return "fixed", CAPOT_POINTS[rules.capot]


def _capot_note(result: MatchResult, deal: DealResult) -> str:
    """Why a capot scores what it does under a house rule: "x1 ... +60" read as a wrong sum."""
    bonus = capot_bonus(result, deal)
    if bonus is None:
        return ""
    kind, value = bonus
    made = f"so x{value}" if kind == "double" else str(value)
    return f" (capot: every card point, {made} under the house rule)"


def _teams(names: list[str]) -> str:
    """The two teams of a four-player seating, partners opposite: ``Anna & Carla  vs  Bert & Dirk``."""
    return " & ".join(names[0::2]) + "  vs  " + " & ".join(names[1::2])


def _seating_changes(result: MatchResult) -> bool:
    """Whether the partners change during the match (a club evening's blocks)."""
    people = result.rules.shape.people
    return bool(result.blocks) or any(d.names and d.names[:people] != result.seats for d in result.deals)


def _card(card: int, symbols: bool) -> str:
    c: Card = CARDS[card]
    return c.symbol if symbols else str(c)


def _contract(deal: DealResult, symbols: bool) -> str:
    if deal.contract is None:
        return "no contract recorded"
    if deal.contract is Contract.TRUMP and deal.trump is not None:
        text = f"trump {deal.trump.symbol if symbols else deal.trump.name} {deal.trump.dutch}"
    else:
        text = deal.contract.value.replace("_", " ")
    if deal.en_face:
        text += " (en face)"
    if deal.knocks:
        text += ", " + ", ".join(["klop", "tegenklop"][i % 2] for i in range(deal.knocks))
    return text


def _deals_under_way(result: MatchResult) -> int:
    """The counted deals of an evening's block not finished (those past its finished blocks)."""
    return sum(deal.counted for deal in result.deals) - len(result.blocks) * result.rules.deals


def _block_under_way(result: MatchResult) -> list[dict[str, Any]]:
    """An evening's block not finished, as far as its deals went (the text says it is not
    finished; the JSON left it out): its seating, its score so far, no winner."""
    if not result.evening or len(result.blocks) >= result.planned_blocks or not result.deals:
        return []
    last = result.deals[-1]
    if _deals_under_way(result) <= 0:
        return []
    seats = list(last.names[: result.rules.shape.people]) if last.names else list(result.seats)
    return [
        {
            "block": len(result.blocks) + 1,
            "seats": seats,
            "score": list(last.match_score),
            "winner": None,
            "winners": [],
            "finished": False,
        }
    ]


def match_to_text(result: MatchResult, *, symbols: bool = True, deal_number: int | None = None) -> str:
    """The match trick by trick, as a person reads it in a terminal."""
    names = result.seats
    lines = [f"Match {result.id}" + (f"  ({result.source})" if result.source else "")]
    blocks = _seating_changes(result)
    people = result.rules.shape.people
    lines.append("Club evening: the partners change every block" if blocks else _sides(result))
    seating: list[str] = []
    block_number, announced = 0, False
    for deal in result.deals:
        names = seat_names(result, deal)
        if blocks and names[:people] != seating:
            seating, block_number, announced = names[:people], block_number + 1, False
        if deal_number is not None and deal.number != deal_number:
            continue
        lines.append("")
        if blocks and not announced:  # each block's teams over its first deal shown
            lines.extend([f"Block {block_number}: {_teams(seating)}", ""])
            announced = True
        head = f"Deal {deal.number}: dealer {names[deal.dealer]}, {_contract(deal, symbols)}"
        if deal.multiplier is not None:
            head += f", x{deal.multiplier}"
        lines.append(head)
        if deal.kind is DealKind.REDEAL:
            lines.append("  redeal: the same dealer deals again")
        elif deal.kind is DealKind.SCORESHEET:
            lines.append("  scoresheet line only")
        width = max(len(n) for n in names)
        for trick in deal.tricks:
            plays = "  ".join(
                f"{names[s]:>{width}} {_card(c, symbols):<3}"
                for s, c in zip(trick.seats, trick.cards, strict=True)
            )
            tail = f"-> {names[trick.winner]} +{trick.points}" if trick.winner is not None else "(unfinished)"
            lines.append(f"  {trick.number:>2}. {plays}  {tail}")
        for v in deal.violations:
            legal = " ".join(_card(c, symbols) for c in v.legal)
            lines.append(
                f"  ! trick {v.trick}: {names[v.seat]} played {_card(v.card, symbols)}: "
                f"{v.kind.value.replace('_', ' ')} (could play {legal})"
            )
        if deal.points is not None:
            lines.append(f"  card points: {deal.points[0]}-{deal.points[1]}" + _side_names(result, deal))
        if deal.kind is DealKind.ABANDONED:
            lines.append("  abandoned: not scored")
        elif deal.score is not None:
            lines.append(
                f"  score: {side_name(result, deal, deal.score.team)} +{deal.score.points}"
                + _capot_note(result, deal)
            )
        elif deal.tie:
            carry = ", the next deal counts double" if result.rules.thirty_carry else ""
            lines.append(f"  30-30: nobody scores{carry}")
        for team, points, reason in deal.penalties:
            lines.append(
                f"  penalty: {side_name(result, deal, team)}, {points} points"
                + (f" ({reason})" if reason else "")
            )
        for irregularity in deal.irregularities:
            lines.append(f"  ! {irregularity_words(result, deal, irregularity.kind, irregularity.message)}")
        # a club evening's score starts again at each block: "match score" read as the evening's
        lines.append(f"  {'block score' if result.blocks else 'match score'}: {_dash(deal.match_score)}")
    lines.append("")
    per_person = result.rules.shape.scorers == 3
    if result.evening:
        for block in result.blocks:
            won = " & ".join(block.winners) or "nobody (a tie)"
            lines.append(f"Block {block.number}, {_teams(block.seats)} ({_dash(block.score)}): won by {won}")
        planned = result.planned_blocks
        if len(result.blocks) < planned:
            counted = _deals_under_way(result)
            lines.append(
                f"Block {len(result.blocks) + 1} of {planned} not finished: {counted} of "
                f"{result.rules.deals} deals; the evening was not finished"
            )
        lines.append("Blocks won: " + ", ".join(f"{name} {n}" for name, n in result.blocks_won.items()))
    elif result.finished:
        if result.winner is None:
            won = "a draw"
        else:
            won = f"{names[result.winner]} wins" if per_person else _win(result, result.winner)
        lines.append(f"Final score {_dash(result.final_score)}: {won}")
    else:
        lines.append(f"Score {_dash(result.score)}: the match was not finished")
    return "\n".join(lines)


def _match_side(result: MatchResult, side: int) -> str:
    """A side of the match by its people (the seating of its first deal)."""
    if result.deals:
        return side_name(result, result.deals[0], side)
    return " & ".join(result.seats[side::2])


def _dash(score: tuple[int, ...] | list[int]) -> str:
    return "-".join(str(s) for s in score)


def _sides(result: MatchResult) -> str:
    names = result.seats
    sides = result.rules.shape.sides
    if sides == "teams":
        return "Teams: " + " & ".join(names[0::2]) + "  vs  " + " & ".join(names[1::2])
    if sides == "each":
        return "Players: " + "  vs  ".join(names)
    dummy = " with a dummy partner" if sides == "dealer_and_dummy" else ""
    return (
        f"Players: {', '.join(names)}; each deal the dealer plays alone{dummy} against the other two, "
        "and each opponent scores their side's result"
    )
