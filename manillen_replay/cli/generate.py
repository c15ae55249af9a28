"""The generate command: archives of simulated matches, for demos, tests and benchmarks."""

from __future__ import annotations

import datetime
import sys
from collections.abc import Iterator
from contextlib import nullcontext
from itertools import islice
from pathlib import Path

import click

from ..errors import InvalidOptionError
from ..players import (
    DEFAULT_START,
    DEFAULT_VENUES,
    GeneratedMatch,
    GenerateOptions,
    iter_matches,
    parse_players,
)
from ..players.profiles import DEFAULT_SLIP_RATES
from ..record import dumps
from ..rules import VARIANTS, unused_options
from .common import (
    check_records_file,
    plural,
    progress,
    refuse_to_replace,
    rules_option,
    written_whole,
)


def default_players(people: int) -> str:
    """The players without --players: one club player per seat of the variant, Anna, Bert, ...

    >>> default_players(3)
    'club,club,club'
    """
    return ",".join(["club"] * people)


def _rates_help() -> str:
    return ", ".join(f"{skill} {play:g}/{score:g}" for skill, (play, score) in DEFAULT_SLIP_RATES.items())


@click.command()
@click.option(
    "--matches", type=click.IntRange(min=1), metavar="N", help="How many matches to generate (default: one)."
)
@click.option(
    "--deals",
    type=click.IntRange(min=1),
    metavar="N",
    help="Instead of --matches: stop after the match that brings the total to N deals.",
)
@click.option("--seed", type=int, default=1, show_default=True, help="Same seed, same output, byte for byte.")
@click.option(
    "--players",
    "players_spec",
    default=None,
    metavar="SPEC",
    help="Who plays: comma-separated [NAME:]SKILL[@PLAY[/SCORE]] entries (see above); default one "
    "club player for each seat of the variant (Anna, Bert, Carla, Dirk, ...).",
)
@click.option(
    "--slip-rate",
    type=click.FloatRange(0, 1),
    metavar="RATE",
    help="Chance of an illegal card at each play where one is in hand, for every player "
    f"whose SPEC entry gives none. Defaults PLAY/SCORE by skill: {_rates_help()}.",
)
@click.option(
    "--score-error-rate",
    type=click.FloatRange(0, 1),
    metavar="RATE",
    help="Chance of a wrong scoresheet line per deal a player counts (default by skill).",
)
@click.option(
    "--rule",
    "rule_values",
    multiple=True,
    metavar="NAME=VALUE",
    help="A house rule for every match, e.g. target=151 or cafe.en_face=true (repeatable).",
)
@click.option(
    "--variant",
    type=click.Choice(sorted(VARIANTS)),
    help="Which game: four (default), two_open, two_open_fours, three, three_dummy, six, six_short. "
    "Give as many --players as the variant seats (a larger list is a pool).",
)
@click.option(
    "--venue",
    "venues",
    multiple=True,
    metavar="NAME",
    help="A venue where evenings are played (repeatable; default three West-Flemish cafes).",
)
@click.option(
    "--start-date",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    default=DEFAULT_START.isoformat(),
    show_default=True,
    help="The date of the first evening; later evenings follow every one to four days.",
)
@click.option("--event", metavar="TEXT", help="An event name written in every match.")
@click.option(
    "--id-prefix",
    default="",
    metavar="TEXT",
    help="Put TEXT before every match id. Another seed makes matches with the same ids "
    "(venue, date, number), which replace each other in one store: give each file its own prefix.",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    help="Write the archive (JSON Lines) to this file instead of standard output.",
)
@click.option("--overwrite", is_flag=True, help="Replace the --out file if it exists.")
@click.option(
    "--summary",
    is_flag=True,
    help="Print, on standard error, each player's matches, wins and average score margin.",
)
def generate(
    matches: int | None,
    deals: int | None,
    seed: int,
    players_spec: str | None,
    slip_rate: float | None,
    score_error_rate: float | None,
    rule_values: tuple[str, ...],
    variant: str | None,
    venues: tuple[str, ...],
    start_date: datetime.datetime,
    event: str | None,
    id_prefix: str,
    out: Path | None,
    overwrite: bool,
    summary: bool,
) -> None:
    """Generate an archive of simulated matches (JSON Lines, one match a line).

    No public archive of recorded Manillen games exists, so this makes realistic ones: for
    demos, tests and benchmarks. Matches are played to the target (or the fixed number of
    deals) of the house rules, with the dealer in rotation, grouped in evenings at a venue.
    Same options and seed, same bytes.

    \b
    Players (--players SPEC), comma-separated entries [NAME:]SKILL[@PLAY[/SCORE]]:
      SKILL   novice  makes trump of its longest suit, plays any legal card
              club    plays by the rules text's tips: leads manilles early, smears
                      (vetten) on a partner's sure trick, counts trumps, draws them,
                      knocks with more than four trumps, calls muil with manilles
      PLAY    chance of an illegal card (revoke, failed_to_overtake, failed_to_buy,
              illegal_underbuy) at each play where the hand holds one
      SCORE   chance of a wrong scoresheet line per deal the player counts
              (the losing team counts, as at the table)
    Four entries seat 0-3 (partners: first and third, second and fourth). More than
    four make a pool: each evening draws a table of four, partners rotating.

    \b
    Examples:
      manillen generate --variant six
      manillen generate --matches 10 --seed 7 > ten.jsonl
      manillen generate --matches 10 --seed 8 --id-prefix s8- > ten-more.jsonl
      manillen generate --matches 200 --players club,novice,club,novice --summary --out club-novice.jsonl
      manillen generate --deals 2000 --slip-rate 0 --out no-slips.jsonl
      manillen generate --matches 50 --players "Anna:club@0.01,Bert:novice,Carla:club,Dirk:novice"
      manillen generate --matches 20 --rule target=151 --rule cafe.en_face=true
      manillen generate --matches 5 --variant three --players Anna:club,Bert:novice,Carla:club

    The club player's card play is the four-player game's; in the other variants every
    player chooses trump, knocks and slips in character but plays a random legal card.
    """
    if matches is not None and deals is not None:
        raise click.UsageError("give either --matches N or --deals N, not both")
    if matches is None and deals is None:
        matches = 1  # one match to look at: what a first try wants
    check_records_file(out, "--out", matches)
    refuse_to_replace(out, overwrite, "--out")
    rules = rules_option(rule_values)
    if variant is not None:
        given = rules.variant if any(v.split("=", 1)[0].strip() == "variant" for v in rule_values) else None
        if given is not None and given != variant:
            raise click.UsageError(f"--variant {variant} and --rule variant={given} name two games: give one")
        rules = rules.with_options(variant=variant)
    unused = unused_options(rules)
    if unused:
        # every record would carry an option that is never applied (validate then names it)
        raise click.BadParameter("; ".join(unused), param_hint="--rule")
    spec = players_spec if players_spec is not None else default_players(rules.shape.people)
    try:
        players = parse_players(spec, slip_rate=slip_rate, score_error_rate=score_error_rate)
    except InvalidOptionError as error:
        raise click.BadParameter(str(error), param_hint="--players") from None
    if len(players) < rules.shape.people:
        raise click.BadParameter(
            f"{len(players)} players given; a table of {rules.variant!r} needs {rules.shape.people} "
            "(give more to draw each evening's table from a pool)",
            param_hint="--players",
        )
    options = GenerateOptions(
        players=tuple(players),
        rules=rules,
        seed=seed,
        venues=tuple(venues) or DEFAULT_VENUES,
        start=start_date.date(),
        event=event,
        id_prefix=id_prefix,
    )
    generated = _take(iter_matches(options), matches, deals)
    tally = _Tally()
    opened = False
    # written beside --out and renamed onto it at the end: an interrupted run leaves the file as it was
    try:
        with nullcontext(sys.stdout) if out is None else written_whole(out) as handle:
            opened = True
            # by matches, or by deals for --deals N (a stream of matches whose number is not known)
            by_deals = matches is None and deals is not None
            for match in progress(
                generated,
                "generating",
                total=(deals if by_deals else matches) if out is not None else 0,
                size=(lambda made: len(made.record.deals)) if by_deals else None,
            ):
                handle.write(dumps(match.record, pretty=False) + "\n")
                tally.add(match)
    except OSError as error:
        if out is None:
            raise  # the pipe's reader went away: as any command printing to it
        if not opened:  # a place that cannot be a file: the option is wrong
            raise click.BadParameter(
                f"cannot write {str(out)!r}: {error.strerror}", param_hint="--out"
            ) from None
        raise click.ClickException(f"cannot write {str(out)!r}: {error.strerror}") from None
    if out is not None:
        click.echo(
            f"wrote {plural(tally.matches, 'match', 'matches')}, {plural(tally.deals, 'deal')} to {out}",
            err=True,
        )
    if summary:
        click.echo(tally.describe(), err=True)


def _take(
    source: Iterator[GeneratedMatch], matches: int | None, deals: int | None
) -> Iterator[GeneratedMatch]:
    if matches is not None:
        yield from islice(source, matches)
        return
    assert deals is not None
    total = 0
    for match in source:
        if total >= deals:
            return
        total += match.deals
        yield match


class _Tally:
    """Matches, wins and score margins per player, for --summary."""

    def __init__(self) -> None:
        self.matches = 0
        self.deals = 0
        self.played: dict[str, int] = {}
        self.won: dict[str, int] = {}
        self.margin: dict[str, int] = {}

    def add(self, match: GeneratedMatch) -> None:
        self.matches += 1
        self.deals += match.deals
        people = match.record.match.seats
        for seat, name in enumerate(people):
            # Scores are kept per team (seat mod 2), or per player with two or three players.
            mine = seat if len(match.final_score) == len(people) else seat % 2
            self.played[name] = self.played.get(name, 0) + 1
            self.won[name] = self.won.get(name, 0) + (match.winner == mine)
            others = [score for index, score in enumerate(match.final_score) if index != mine]
            margin = match.final_score[mine] - max(others)
            self.margin[name] = self.margin.get(name, 0) + margin

    def describe(self) -> str:
        lines = [
            f"{plural(self.matches, 'match', 'matches')}, {plural(self.deals, 'deal')}",
            "player        matches   won   win%   avg margin",
        ]
        for name in sorted(self.played, key=lambda n: (-self.won[n] / self.played[n], n)):
            played = self.played[name]
            lines.append(
                f"{name:<12} {played:>8} {self.won[name]:>5} {100 * self.won[name] / played:>6.1f}"
                f" {self.margin[name] / played:>+12.1f}"
            )
        return "\n".join(lines)


COMMANDS: list[click.Command] = [generate]
