"""Commands of the solver: solve a position, cost every card of recorded deals."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import click

from ..cards import Card, CardSet, Suit
from ..errors import InvalidCardError
from .common import RULE_OPTION, TRUMP_OPTION, ReplayedRecords, echo_json, parse_trick, plural, rules_option

if TYPE_CHECKING:  # the solver compiles with numba: it loads when a command solves
    from ..analysis.costs import PlayCost


def _parse_hands(text: str) -> tuple[int, int, int, int]:
    parts = text.split("/")
    if len(parts) != 4:
        got = "nothing" if not text.strip() else f"{len(parts)}: {text!r}"
        raise click.BadParameter(
            "give four hands separated by '/', seats 1 to 4, such as "
            f'"AC KC/10C 8C/QC 7C/JC 9C" (got {got})',
            param_hint="--hands",
        )
    try:
        masks = [CardSet.parse(part).mask for part in parts]
    except InvalidCardError as error:
        raise click.BadParameter(str(error), param_hint="--hands") from None
    return masks[0], masks[1], masks[2], masks[3]


@click.command()
@TRUMP_OPTION
@click.option(
    "--leader",
    required=True,
    type=click.IntRange(1, 4),
    help="The seat that led the current trick, 1 to 4 clockwise (1 and 3 are partners).",
)
@click.option(
    "--hands",
    required=True,
    metavar="H1/H2/H3/H4",
    help='The cards each seat still holds, seats 1 to 4 separated by "/": "AC KC/10C 8C/QC 7C/JC 9C".',
)
@click.option(
    "--trick", default="", metavar="CARDS", help='The cards already on the table, leader first: "KS 10S".'
)
@RULE_OPTION
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help='Print {"seat", "values": {"card": points}} as JSON (seat from 0).',
)
def solve(
    trump: str, leader: int, hands: str, trick: str, rule_values: tuple[str, ...], as_json: bool
) -> None:
    """What every card is worth here, with all hands open and best play on both sides.

    For the seat to play, each card it may play and the card points its team takes from
    here on (the current trick included) if both sides play perfectly afterwards. The best
    card is marked; the others show what they give away. Seats are 1 to 4 clockwise, 1 and 3
    against 2 and 4. The seats that already played to the trick hold one card less.

    Example, an ending of two tricks in clubs without trump (muil):

    \b
      manillen solve --trump none --leader 1 --hands "AC KC/10C 8C/QC 7C/JC 9C"

    \b
      Seat 1 to play, team of seats 1 and 3, muil.
        KC    6 points  best
        AC    5 points  -1

    Exit code 2 for a position that cannot be (a card twice, wrong hand sizes).
    """
    from ..solver import Position, SolverError, solve_position
    from ..solver.search import check_position

    rules = rules_option(rule_values)
    masks = _parse_hands(hands)
    cards = tuple(int(card) for card in parse_trick(trick))
    suit = None if trump.lower() == "none" else int(Suit.parse(trump))
    try:
        # the position checked first with the command's seat numbers (1 to 4) in its messages
        check_position(Position(masks, cards, leader - 1), rules, first_seat=1)
        values = solve_position(masks, cards, leader - 1, suit, rules)
    except SolverError as error:
        raise click.UsageError(str(error)) from None
    seat = (leader - 1 + len(cards)) % 4
    ordered = sorted(values.items(), key=lambda item: (-item[1], -item[0]))
    if as_json:
        echo_json({"seat": seat, "values": {str(Card(card)): points for card, points in ordered}})
        return
    best = ordered[0][1]
    name = "muil" if suit is None else f"trump {Suit(suit).english}"
    table = f"; on the table: {' '.join(str(Card(c)) for c in cards)}" if cards else ""
    click.echo(f"Seat {seat + 1} to play, team of seats {seat % 2 + 1} and {seat % 2 + 3}, {name}{table}.")
    for card, points in ordered:
        mark = "best" if points == best else f"-{best - points}"
        click.echo(f"  {Card(card)!s:<4} {points:>2} {'point ' if points == 1 else 'points'}  {mark}")


def _play_json(match: str, cost: PlayCost) -> dict[str, Any]:
    return {
        "match": match,
        "deal": cost.deal,
        "trick": cost.trick,
        "play": cost.play,
        "seat": cost.seat,
        "card": str(cost.card),
        "dd_cost": cost.dd_cost,
        "view_cost": None if cost.view_cost is None else round(cost.view_cost, 3),
    }


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--match", "match_id", default=None, metavar="ID", help="Only the match with this id.")
@click.option(
    "--deal", "deal_number", default=None, type=click.IntRange(min=1), help="Only this deal (from 1)."
)
@click.option(
    "--samples",
    default=50,
    show_default=True,
    type=click.IntRange(min=1),
    help=(
        "Layouts of the hidden cards drawn per play for the view cost (more: steadier, slower); "
        "a play with at most four times as many left is solved on every one."
    ),
)
@click.option("--seed", default=0, show_default=True, type=int, help="Random seed of the layouts.")
@click.option("--hindsight", is_flag=True, help="Only hindsight costs (fast); view_cost is null.")
@click.option(
    "--workers",
    default=None,
    type=click.IntRange(min=1),
    help="Threads to use (default: one per core this process may use).",
)
@click.option("--json", "as_json", is_flag=True, help='Print {"plays": [...]} as JSON.')
def costs(
    paths: tuple[str, ...],
    match_id: str | None,
    deal_number: int | None,
    samples: int,
    seed: int,
    hindsight: bool,
    workers: int | None,
    as_json: bool,
) -> None:
    """What every card of recorded deals cost, with hindsight and from the player's view.

    dd_cost (hindsight): card points the team lost against the best card, with all four
    hands known. view_cost: the same from what the player could see when playing, averaged
    over the layouts of the hidden cards that agree with it (own hand, cards played, voids
    shown, the trump call). A card that only looks bad with hindsight has a view cost near 0:
    it was not a mistake. docs/solver.md explains both.

    Every variant gets both costs. View costs take a second or two per four-player deal (up to
    a minute in the other variants; a two-player deal with open table cards takes minutes,
    most of them in analyze's trump and knock reviews);
    --hindsight gives the hindsight costs alone, in milliseconds (seconds for two players).
    Deals without hands or contract are skipped.

    \b
    Example:
      manillen costs data/demo.jsonl --match zwaan-2026-01-09-1 --deal 3 --json

    --json prints {"plays": [{"match", "deal", "trick", "play", "seat", "card", "dd_cost",
    "view_cost"}]} for every play. Exit code 1 when a record is invalid, 2 for usage errors
    (a missing file, a --match no file holds, a --deal the match does not have).
    """
    from ..analysis.costs import can_solve, dd_costs, view_costs

    replayed = ReplayedRecords(paths, match_id, label="solving")
    plays: list[dict[str, Any]] = []
    solved = unsolvable = 0
    for _, result in replayed:
        deals = [d for d in result.deals if deal_number is None or d.number == deal_number]
        if deal_number is not None and not deals:
            raise click.UsageError(
                f"match {result.id} has no deal {deal_number} (it has {len(result.deals)})"
            )
        for deal in deals:
            if not can_solve(deal, result.rules):
                if deal_number is not None:
                    raise click.UsageError(
                        f"deal {deal_number} of match {result.id} cannot be solved: the solver needs the "
                        "hands (and table cards), the trump or muil, and the cards played"
                    )
                unsolvable += 1
                continue
            solved += 1
            if hindsight:
                found = dd_costs(deal, result.rules)
            else:
                found = view_costs(deal, result.rules, samples=samples, seed=seed, workers=workers)
            if as_json:
                plays.extend(_play_json(result.id, cost) for cost in found)
            else:
                if solved == 1:  # the columns' units and measures, said once
                    click.echo(COSTS_LEGEND_HINDSIGHT if hindsight else COSTS_LEGEND)
                _echo_deal(result.id, result.seats, deal.number, found)
    replayed.check_found()
    if as_json:
        echo_json({"plays": plays})
    if unsolvable:
        # a scoresheet-only match printed nothing at all, as if every card cost nothing
        click.echo(
            f"{plural(unsolvable, 'deal')} left out: the solver needs the hands (and table cards), the "
            "trump or muil, and the cards played" + ("; no deal here has them" if not solved else ""),
            err=True,
        )
    if replayed.invalid:
        sys.exit(1)


COSTS_LEGEND = (
    "Card points each card cost: hindsight = with every hand known; view = on average from what the "
    "player could see; best = the best cards from the player's view."
)
COSTS_LEGEND_HINDSIGHT = (
    "Card points each card cost with every hand known (hindsight); best = the best cards with every "
    "hand known."
)


def _echo_deal(match: str, seats: list[str], number: int, found: list[PlayCost]) -> None:
    click.echo(f"match {match}, deal {number}")
    click.echo(f"  {'play':<6} {'player':<12} {'card':<5} {'hindsight':>9} {'view':>6}  best")
    for cost in found:
        view = "-" if cost.view_cost is None else f"{cost.view_cost:.1f}"
        name = seats[cost.seat] if cost.seat < len(seats) else f"seat {cost.seat}"
        best = " ".join(str(c) for c in cost.best_cards)
        illegal = "  (illegal)" if not cost.legal else ""
        click.echo(
            f"  {cost.trick}.{cost.play:<4} {name:<12} {cost.card!s:<5} "
            f"{cost.dd_cost:>9} {view:>6}  {best}{illegal}"
        )


COMMANDS: list[click.Command] = [solve, costs]
