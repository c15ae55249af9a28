"""Commands on record files: validate, replay, legal, schema."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from ..cards import Card, CardSet, Suit
from ..engine import decode_and_replay
from ..engine.report import match_to_json, match_to_text
from ..errors import InvalidCardError, InvalidRecordError, RecordError
from ..record import json_schema
from ..rules import legal_plays, trick_points, winning_position
from .common import (
    RULE_OPTION,
    TRUMP_OPTION,
    ReplayedRecords,
    echo_json,
    parse_trick,
    plural,
    progress,
    read_entries,
    rules_option,
)


def _problem_json(problem: RecordError) -> dict[str, Any]:
    return {
        "source": problem.source,
        "line": problem.line,
        "pointer": problem.pointer,
        "message": problem.message,
    }


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON for other programs.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the problems, not the valid records.")
def validate(paths: tuple[str, ...], as_json: bool, quiet: bool) -> None:
    """Check recorded matches: files (.json), archives (.jsonl) or folders of them.

    Every problem that makes a record invalid is printed with its file, line and JSON
    pointer, for example

      data/club.jsonl:14: /deals/3/tricks/5/2: '9S' was already played in trick 2

    Illegal plays (revoke, failed_to_overtake, failed_to_buy, illegal_underbuy), a
    scoresheet that differs from the cards and a dealer out of rotation do not make a
    record invalid: they are counted and shown by `manillen replay`.

    Exit code: 0 when every record is valid, 1 when any is invalid, 2 for usage errors.

    \b
    Example:
      manillen validate data/samples/
    """
    entries = read_entries(paths)
    reports = []
    invalid = 0
    for entry in progress(entries, "validating"):
        report: dict[str, Any] = {"source": entry.source, "line": entry.line}
        try:
            result = decode_and_replay(entry.data, source=entry.source, line=entry.line)
        except InvalidRecordError as error:
            invalid += 1
            report.update(valid=False, problems=[_problem_json(p) for p in error.problems])
            if not as_json:
                for problem in error.problems:
                    click.echo(problem.describe())
        else:
            report.update(
                valid=True,
                id=result.id,
                deals=len(result.deals),
                violations=len(result.violations),
                irregularities=[i.message for i in result.irregularities],
            )
            if not as_json and not quiet:
                notes = []
                if result.violations:
                    notes.append(plural(len(result.violations), "illegal play"))
                if result.irregularities:
                    notes.append(plural(len(result.irregularities), "irregularity", "irregularities"))
                extra = f" ({', '.join(notes)}: see manillen replay)" if notes else ""
                click.echo(
                    f"{entry.place}: ok, match {result.id}, {plural(len(result.deals), 'deal')}{extra}"
                )
        reports.append(report)
    if as_json:
        echo_json({"records": reports, "valid": len(reports) - invalid, "invalid": invalid})
    else:
        click.echo(
            f"{plural(len(reports), 'record')}: {len(reports) - invalid} valid, {invalid} invalid", err=True
        )
    sys.exit(1 if invalid else 0)


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--match", "match_id", metavar="ID", help="Only the match with this id.")
@click.option("--deal", type=click.IntRange(min=1), metavar="N", help="Only deal N (counted from 1).")
@click.option(
    "--json", "as_json", is_flag=True, help="Print the replay as JSON (the contract in docs/cli.md)."
)
@click.option("--ascii", "ascii_only", is_flag=True, help="Write cards as 10H instead of 10♥.")
def replay(
    paths: tuple[str, ...], match_id: str | None, deal: int | None, as_json: bool, ascii_only: bool
) -> None:
    """Replay recorded matches trick by trick.

    For each deal: the declarations, every trick with who played what, the winner and its
    points, the card points, multiplier and score, and the running match score. Illegal
    plays and scoring problems are marked with '!'.

    Exit code 1 when a record is invalid (its problems go to stderr; the others are replayed),
    2 for usage errors: a missing file, or a --match no file holds.

    \b
    Examples:
      manillen replay data/samples/seed-trick.json
      manillen replay data/demo.jsonl --match zwaan-2026-01-09-1 --deal 2 --json
    """
    replayed = ReplayedRecords(paths, match_id)
    matches = []
    for _, result in replayed:
        if as_json:
            data = match_to_json(result)
            if deal is not None:
                data["deals"] = [d for d in data["deals"] if d["deal"] == deal]
            matches.append(data)
        else:
            click.echo(match_to_text(result, symbols=not ascii_only, deal_number=deal))
            click.echo()
    replayed.check_found()
    if as_json:
        echo_json({"matches": matches})
    sys.exit(1 if replayed.invalid else 0)


def _hand_option(text: str | None) -> list[Card]:
    try:
        return list(CardSet.parse(text or ""))
    except InvalidCardError as error:
        raise click.BadParameter(str(error), param_hint="--hand") from None


@click.command()
@TRUMP_OPTION
@click.option("--leader", required=True, type=click.IntRange(0, 3), help="The seat that led the trick (0-3).")
@click.option(
    "--trick", default="", metavar="CARDS", help='The cards on the table, leader first: "AC QC 9D".'
)
@click.option("--hand", default=None, metavar="CARDS", help='The cards of the seat to play: "8D KD 7H".')
@RULE_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
def legal(
    trump: str, leader: int, trick: str, hand: str | None, rule_values: tuple[str, ...], as_json: bool
) -> None:
    """Which cards may be played next, and the rule that decides it.

    Settles arguments at the table. Seats are numbered 0-3 clockwise; seats 0 and 2 are one
    team, 1 and 3 the other. Give the trick so far and the hand of the seat to play; for a
    complete trick (four cards) you get its winner and points instead.

    Example (the rules text's own trick, trump diamonds):

    \b
      manillen legal --trump D --leader 0 --trick "AC QC 9D" --hand "8D KD 7H"

    \b
      Seat 3 to play; seat 2 is winning with 9D.
      May play: KD
      Why: void in clubs: must over-buy 9D with a higher diamonds trump
    """
    rules = rules_option(rule_values)
    trump_suit = None if trump.lower() == "none" else Suit.parse(trump)
    cards = parse_trick(trick)
    held = _hand_option(hand)
    shape = rules.shape
    if len(cards) > shape.trick_size:
        raise click.BadParameter(f"a trick has at most {shape.trick_size} cards", param_hint="--trick")
    clash = set(cards) & set(held)
    if clash:
        raise click.BadParameter(
            f"{' '.join(map(str, clash))} is both on the table and in the hand", param_hint="--hand"
        )
    suit_value = None if trump_suit is None else int(trump_suit)
    if len(cards) == shape.trick_size:
        winner = shape.seat_of_play(leader, winning_position(cards, suit_value))
        points = trick_points(cards)
        if as_json:
            echo_json({"winner": winner, "points": points})
        else:
            click.echo(
                f"Seat {winner} wins the trick with {cards[winning_position(cards, suit_value)]}: "
                f"{points} points."
            )
        return
    seat = shape.seat_of_play(leader, len(cards))
    winning = shape.seat_of_play(leader, winning_position(cards, suit_value)) if cards else None
    partner = winning is not None and shape.team_of(winning, 0) == shape.team_of(seat, 0)
    answer: dict[str, Any] = {"seat": seat, "winning": winning}
    lines = [
        f"Seat {seat} to play"
        + (
            f"; seat {winning} is winning with {cards[winning_position(cards, suit_value)]}."
            if cards
            else ", leading."
        )
    ]
    if hand is not None:
        result = legal_plays(cards, CardSet(held), trump_suit, partner, rules)
        answer["legal"] = [str(c) for c in result.cards.sorted_for_display(trump_suit)]
        answer["rule"] = result.explain()
        answer["clause"] = result.clause.value
        lines.append("May play: " + (" ".join(answer["legal"]) or "(the hand is empty)"))
        lines.append("Why: " + answer["rule"])
    if as_json:
        echo_json(answer)
    else:
        click.echo("\n".join(lines))


@click.command()
def schema() -> None:
    """Print the JSON Schema of the record format (schemas/manillen-1.schema.json).

    \b
    Example:
      manillen schema > manillen-1.schema.json
    """
    click.echo(json.dumps(json_schema(), indent=2, ensure_ascii=False))


COMMANDS: list[click.Command] = [validate, replay, legal, schema]
