"""Commands on record files: validate, replay, legal, schema."""

from __future__ import annotations

import json
import os
import stat
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from ..cards import Card, CardSet, Suit
from ..engine import MatchResult, replay_entry
from ..engine.report import match_to_json, match_to_text
from ..errors import InvalidCardError, InvalidRecordError, NotationError, RecordError
from ..record import RECORD_SUFFIXES, Entry, Record, dump_lines, dumps, dumps_text, json_schema
from ..record.io import STDIN_SOURCE, entries_of, guess_kind, kind_of
from ..rules import legal_plays, trick_points, winning_position
from .common import (
    RULE_OPTION,
    TRUMP_OPTION,
    ReplayedRecords,
    check_output_file,
    count_records,
    echo_json,
    parse_trick,
    plural,
    progress,
    read_entries,
    rules_option,
    say_when_typing,
    stream_entries,
    written_whole,
)


def _problem_json(problem: RecordError) -> dict[str, Any]:
    located: dict[str, Any] = {
        "source": problem.source,
        "line": problem.line,
        "pointer": problem.pointer,
        "message": problem.message,
    }
    if isinstance(problem, NotationError):
        located.update(column=problem.column, hint=problem.hint)
    return located


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON for other programs.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the problems, not the valid records.")
def validate(paths: tuple[str, ...], as_json: bool, quiet: bool) -> None:
    """Check recorded matches: files (.json, .mnl), archives (.jsonl) or folders of them;
    - reads them from standard input.

    Every problem that makes a record invalid is printed with its file, line and JSON
    pointer (for the text notation, .mnl: its line and column), for example

    \b
      data/club.jsonl:14: /deals/3/tricks/5/2: '9S' was already played in trick 2

    Illegal plays (revoke, failed_to_overtake, failed_to_buy, illegal_underbuy), a
    scoresheet that differs from the cards and a dealer out of rotation do not make a
    record invalid: they are counted and shown by `manillen replay`. In a deal without
    hands, an illegal play that a small reordering of the trick lines makes legal is named
    on a line of its own, with the reordering: a rule broken, or a slip in the record.

    Exit code: 0 when every record is valid, 1 when any is invalid, 2 for usage errors.

    \b
    Examples:
      manillen validate data/samples/
      head -n 20 data/demo.jsonl | manillen validate --quiet -
    """
    entries = stream_entries(paths)  # read as validated: a large archive is never held whole
    total = count_records(paths) if sys.stderr.isatty() else None
    reports = []
    checked = invalid = 0
    # Where each match id was last seen, and a hash of its document: a second record of one id
    # is valid on its own, but `import` keeps only one of the two.
    last_seen: dict[str, tuple[str, int | None, int]] = {}
    from ..bulk import replay_entries  # numba loads only for the commands that replay in bulk

    for entry, record, result in replay_entries(progress(entries, "validating", total=total)):
        checked += 1
        report: dict[str, Any] = {"source": entry.source, "line": entry.line}
        if isinstance(result, InvalidRecordError):
            invalid += 1
            report.update(valid=False, problems=[_problem_json(p) for p in result.problems])
            if not as_json:
                for problem in result.problems:
                    click.echo(problem.describe())
        else:
            slips = _slips(entry, result)
            irregularities = _irregularities(entry, result)
            unused = _unused_rules(entry, result)
            again = _seen_before(last_seen, result.id, entry, record)
            report.update(
                valid=True,
                id=result.id,
                deals=len(result.deals),
                violations=len(result.violations),
                irregularities=[irregularity for irregularity, _ in irregularities],
                unused_rules=[rule for rule, _ in unused],
                slips=[slip for slip, _ in slips],
            )
            if again is not None:
                report["same_id_as"], report["same_record"] = again
            if not as_json and not quiet:
                notes = []
                if result.violations:
                    notes.append(plural(len(result.violations), "illegal play"))
                if slips:
                    notes.append(f"{len(slips)} of them possibly a slip in the record")
                if result.irregularities:
                    notes.append(plural(len(result.irregularities), "irregularity", "irregularities"))
                # the replay marks the plays, the reorderings that would make them legal are below
                where = (
                    "see manillen replay"
                    if not slips
                    else "manillen replay marks the plays, the slips are below"
                )
                extra = f" ({', '.join(notes)}: {where})" if notes else ""
                click.echo(
                    f"{entry.place}: ok, match {result.id}, {plural(len(result.deals), 'deal')}{extra}"
                )
                for _, line in slips:
                    click.echo(f"  {line}")
                for _, line in irregularities + unused:
                    click.echo(f"  {line}")
            if not as_json and again is not None:
                click.echo(f"{'  ' if not quiet else entry.place + ': '}{_again_words(result.id, *again)}")
        if as_json:
            reports.append(report)
    if as_json:
        echo_json({"records": reports, "valid": checked - invalid, "invalid": invalid})
    else:
        click.echo(f"{plural(checked, 'record')}: {checked - invalid} valid, {invalid} invalid", err=True)
    sys.exit(1 if invalid else 0)


def _seen_before(
    last_seen: dict[str, tuple[str, int | None, int]], match: str, entry: Entry, record: Record | None
) -> tuple[str, bool] | None:
    """Where a record of this match id came last in the files validated, and whether it was
    the same record as `import` compares them (in canonical form: spacing and key order aside);
    ``None`` the first time. (The file's name is kept once, shared by its records: a
    million-record file costs an id, a line and a hash each.)"""
    digest = hash(entry.data if record is None else dumps(record, pretty=False))
    earlier = last_seen.get(match)
    last_seen[match] = (entry.source, entry.line, digest)
    if earlier is None:
        return None
    source, line, before = earlier
    return (source if line is None else f"{source}:{line}"), before == digest


def _again_words(match: str, earlier: str, same: bool) -> str:
    """What `import` does with a second record of one match id (it compares each with the one
    before it)."""
    if same:
        return f"match {match} again, the same record as {earlier}: import skips it"
    return (
        f"match {match} again, a different record from the one at {earlier}: import keeps this "
        "later record in its place (the earlier goes to the archive's history; --no-replace keeps "
        "the earlier)"
    )


def _slips(entry: Entry, result: MatchResult) -> list[tuple[dict[str, Any], str]]:
    """Each illegal play of a deal without hands that a small reordering of its lines makes
    legal (docs/findings.md, ``record_slip``): its JSON and its line, placed in the file."""
    from ..analysis.record_slips import find_slip, reordering_en

    found: list[tuple[dict[str, Any], RecordError]] = []
    for deal in result.deals:
        slip = find_slip(deal, result.rules)
        if slip is None:
            continue
        names = deal.names or result.seats
        original = [tuple(int(card) for card in trick.cards) for trick in deal.tricks]
        for violation in deal.violations:
            name = names[violation.seat]
            message = (
                f"{name}'s '{violation.card}' in trick {violation.trick} breaks a rule "
                f"({violation.kind.value.replace('_', ' ')}), or the record has a slip: "
                f"{reordering_en(slip, names, original)} every card is legal"
            )
            pointer = f"/deals/{deal.number - 1}/tricks/{violation.trick - 1}/{violation.play - 1}"
            found.append(
                (
                    {
                        "deal": deal.number,
                        "trick": violation.trick,
                        "play": violation.play,
                        "seat": violation.seat,
                        "player": name,
                        "card": str(violation.card),
                        "kind": violation.kind.value,
                        "reordering": slip.kind.value,
                        "order": list(slip.order),
                        "message": message,
                    },
                    RecordError(message, pointer),
                )
            )
    located = entry.locate([problem for _, problem in found]) if found else []
    return [(data, problem.describe()) for (data, _), problem in zip(found, located, strict=True)]


def _irregularities(entry: Entry, result: MatchResult) -> list[tuple[dict[str, Any], str]]:
    """Each irregularity of the match in the players' words, placed in the file (a scoresheet
    line that the cards contradict at that line, any other at its deal): its JSON and its line."""
    from ..engine.report import irregularity_words
    from ..engine.results import IrregularityKind

    kinds = [(deal.number, each.kind) for deal in result.deals for each in deal.irregularities]
    found = [
        RecordError(
            irregularity_words(result, deal, irregularity.kind, irregularity.message),
            f"/deals/{deal.number - 1}"
            + ("/recorded_score" if irregularity.kind is IrregularityKind.SCORE_MISMATCH else ""),
        )
        for deal in result.deals
        for irregularity in deal.irregularities
    ]
    located = entry.locate(found) if found else []
    return [
        ({"deal": deal, "kind": kind.value, **_problem_json(problem)}, problem.describe())
        for (deal, kind), problem in zip(kinds, located, strict=True)
    ]


def _unused_rules(entry: Entry, result: MatchResult) -> list[tuple[dict[str, Any], str]]:
    """Each café rule of the record that its variant has no room for (never applied, so the
    record stays valid), placed at its rules: its JSON and its line."""
    from ..rules import unused_options

    found = [
        RecordError(f"{message}: it is never applied", "/match/rules")
        for message in unused_options(result.rules)
    ]
    located = entry.locate(found) if found else []
    return [(_problem_json(problem), problem.describe()) for problem in located]


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
    """Replay recorded matches trick by trick (- reads them from standard input).

    For each deal: the declarations, every trick with who played what, the winner and its
    points, the card points, multiplier and score, and the running match score. Illegal
    plays and scoring problems are marked with '!'.

    Exit code 1 when a record is invalid (its problems go to stderr; the others are replayed),
    2 for usage errors: a missing file, a --match no file holds, or a --deal the match does not
    have (as in `manillen costs`). Without --match, the matches that have no deal N are left
    out and named on stderr (a usage error when none has it).

    \b
    Examples:
      manillen replay data/samples/seed-trick.json
      manillen replay data/demo.jsonl --match zwaan-2026-01-09-1 --deal 2 --json
    """
    replayed = ReplayedRecords(paths, match_id)
    written = shown = 0
    lacking: list[tuple[str, int]] = []  # of several matches, those with fewer deals are left out, and said
    for _, result in replayed:
        if deal is not None and not any(d.number == deal for d in result.deals):
            if match_id is not None:
                raise click.UsageError(f"match {result.id} has no deal {deal} (it has {len(result.deals)})")
            lacking.append((result.id, len(result.deals)))
            continue
        shown += 1
        if as_json:
            # One match at a time, so memory stays flat however large the archive.
            data = match_to_json(result)
            if deal is not None:
                data["deals"] = [d for d in data["deals"] if d["deal"] == deal]
            text = json.dumps(data, ensure_ascii=False, indent=2).replace("\n", "\n    ")
            click.echo(('{\n  "matches": [\n    ' if not written else ",\n    ") + text, nl=False)
            written += 1
        else:
            click.echo(match_to_text(result, symbols=not ascii_only, deal_number=deal))
            click.echo()
    replayed.check_found()
    if lacking and not shown and not replayed.invalid:
        if len(lacking) == 1:
            match, count = lacking[0]
            raise click.UsageError(f"match {match} has no deal {deal} (it has {count})")
        named = ", ".join(f"{m} ({n})" for m, n in lacking[:5]) + (" ..." if len(lacking) > 5 else "")
        raise click.UsageError(f"no match has a deal {deal}: {named}")
    if as_json:
        click.echo("\n  ]\n}" if written else '{\n  "matches": []\n}')
    if lacking:
        some = ", ".join(f"{m} ({n})" for m, n in lacking[:5])
        some += f" and {len(lacking) - 5} more" if len(lacking) > 5 else ""
        click.echo(
            f"left out {plural(len(lacking), 'match', 'matches')} with no deal {deal} "
            f"(deals they have): {some}",
            err=True,
        )
    sys.exit(1 if replayed.invalid else 0)


def _hand_option(text: str | None) -> list[Card]:
    try:
        cards = [Card.parse(part) for part in (text or "").replace(",", " ").split()]
    except InvalidCardError as error:
        raise click.BadParameter(str(error), param_hint="--hand") from None
    if len(set(cards)) != len(cards):
        raise click.BadParameter("a card appears twice in the hand", param_hint="--hand")
    return cards


@click.command()
@TRUMP_OPTION
@click.option(
    "--leader",
    required=True,
    type=click.IntRange(1, 6),
    help="The seat that led the trick, 1 to 4 clockwise (1 and 3 are partners); in another "
    "variant 1 to its number of players.",
)
@click.option(
    "--trick", default="", metavar="CARDS", help='The cards on the table, leader first: "AC QC 9D".'
)
@click.option("--hand", default=None, metavar="CARDS", help='The cards of the seat to play: "8D KD 7H".')
@RULE_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON (seats from 0).")
def legal(
    trump: str, leader: int, trick: str, hand: str | None, rule_values: tuple[str, ...], as_json: bool
) -> None:
    """Which cards may be played next, and the rule that decides it.

    Settles arguments at the table. Seats are numbered 1 to 4 clockwise; seats 1 and 3 are one
    team, 2 and 4 the other. In another variant (--rule variant=three, ...) the seats are 1 to
    its number of players, and seat 1 deals (the sides of the three-player games follow the
    dealer). Give the trick so far and the hand of the seat to play; for a
    complete trick (four cards) you get its winner and points instead.

    Example (the rules text's own trick, trump diamonds):

    \b
      manillen legal --trump D --leader 1 --trick "AC QC 9D" --hand "8D KD 7H"

    \b
      Seat 4 to play; seat 3 is winning with 9D.
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
    if len(held) > shape.tricks:
        raise click.BadParameter(
            f"a seat holds at most {shape.tricks} cards in {rules.variant!r}, not {len(held)}",
            param_hint="--hand",
        )
    for given, hint in ((cards, "--trick"), (held, "--hand")):
        outside = [card for card in given if not shape.deck_mask >> int(card) & 1]
        if outside:
            raise click.BadParameter(
                f"{' '.join(map(str, outside))} is not in the deck of {rules.variant!r}", param_hint=hint
            )
    clash = set(cards) & set(held)
    if clash:
        raise click.BadParameter(
            f"{' '.join(map(str, clash))} is both on the table and in the hand", param_hint="--hand"
        )
    if leader > shape.players:
        raise click.BadParameter(
            f"seat {leader} does not exist in {rules.variant!r}: seats are 1 to {shape.players}",
            param_hint="--leader",
        )
    if len(cards) == shape.trick_size and hand is not None:
        raise click.BadParameter(
            "the trick is complete: nobody is to play, so there is no hand to check (leave out --hand "
            "for its winner and points)",
            param_hint="--hand",
        )
    suit_value = None if trump_suit is None else int(trump_suit)
    leader -= 1  # counted from 0 inside, as the record counts seats
    if len(cards) == shape.trick_size:
        winner = shape.seat_of_play(leader, winning_position(cards, suit_value))
        points = trick_points(cards)
        if as_json:
            echo_json({"winner": winner, "points": points})
        else:
            click.echo(
                f"Seat {winner + 1} wins the trick with {cards[winning_position(cards, suit_value)]}: "
                f"{plural(points, 'point')}."
            )
        return
    seat = shape.seat_of_play(leader, len(cards))
    winning = shape.seat_of_play(leader, winning_position(cards, suit_value)) if cards else None
    partner = winning is not None and shape.team_of(winning, 0) == shape.team_of(seat, 0)
    answer: dict[str, Any] = {"seat": seat, "winning": winning}
    leads = cards[winning_position(cards, suit_value)] if cards else None
    lines = [
        f"Seat {seat + 1} to play"
        + (f"; seat {(winning or 0) + 1} is winning with {leads}." if cards else ", leading.")
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


_KINDS = ("json", "jsonl", "mnl")


def _read_for_convert(source: str, kind: str | None) -> list[Entry]:
    """The documents of IN: a file (its kind from its name unless given) or ``-`` for stdin."""
    if source != "-":
        if kind is None:
            return read_entries([source])
        try:
            data = Path(source).read_bytes()
        except OSError as error:
            raise click.UsageError(f"cannot read {source!r}: {error.strerror}") from None
        return entries_of(data, source, kind)
    say_when_typing([source])
    data = sys.stdin.buffer.read()
    return entries_of(data, STDIN_SOURCE, kind or guess_kind(data))


def _check_target(target: str) -> None:
    """Refuse an OUT that exists and is not a regular file: the new file is renamed over OUT, which
    would turn a pipe, a device or a link into a plain file.

    :raises click.UsageError: naming what OUT is (exit code 2).
    """
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        return
    except OSError as error:
        raise click.UsageError(f"cannot write {target!r}: {error.strerror}") from None
    if stat.S_ISREG(mode):
        return
    kinds = (
        (stat.S_ISLNK, "a symbolic link"),
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a named pipe"),
        (stat.S_ISCHR, "a device"),
        (stat.S_ISBLK, "a device"),
        (stat.S_ISSOCK, "a socket"),
    )
    kind = next((name for test, name in kinds if test(mode)), "not a file")
    raise click.UsageError(
        f"{target!r} is {kind}, not a regular file: convert writes a new file in its place, so OUT must "
        "be a file or not exist yet (- writes to standard output)"
    )


@click.command()
@click.argument("source", metavar="IN")
@click.argument("target", metavar="OUT")
@click.option(
    "--from",
    "from_kind",
    type=click.Choice(_KINDS),
    help="What IN holds, when its name does not say (default for -: guessed from its first line).",
)
@click.option(
    "--to",
    "to_kind",
    type=click.Choice(_KINDS),
    help="What to write, when OUT's name does not say (default for -: text for JSON input, JSON "
    "Lines for text).",
)
def convert(source: str, target: str, from_kind: str | None, to_kind: str | None) -> None:
    """Convert matches between JSON (.json, .jsonl) and the text notation (.mnl).

    The formats follow from the file names; `-` reads standard input or writes standard
    output. Every match is checked first, as `manillen validate` does: if any is invalid, its
    problems are listed and nothing is written. Output is in the canonical form, so
    converting back gives the same record. A .json file holds one match; for more, write
    .jsonl or .mnl.

    Examples:

    \b
      manillen convert data/samples/seed-trick.json seed-trick.mnl
      manillen convert data/notation/seed-trick.mnl seed-trick.json
      manillen convert data/notation/ - --to jsonl
      cat data/notation/seed-trick.mnl | manillen convert - - --to json

    OUT is a new file or an existing one replaced; an OUT that exists and is not a regular file
    (a folder, a link, a pipe, a device) is a usage error.

    Exit code: 0 when written, 1 when a match is invalid, 2 for usage errors.
    """
    if target != "-":
        _check_target(target)
        check_output_file(target, "OUT", "the matches")
        named = kind_of(target) if target.lower().endswith(RECORD_SUFFIXES) else None
        if to_kind is None and named is None:
            # out.txt was written as JSON, and validate of its folder then passed it by
            raise click.UsageError(
                f"OUT {target!r} does not say what to write: name it .json, .jsonl or .mnl, or give --to"
            )
        if to_kind is not None and named is not None and named != to_kind:
            # text written under out.jsonl: every reader then took it for JSON and refused it
            raise click.UsageError(
                f"--to {to_kind} writes what a .{named} file does not hold, and every reader goes by the "
                f"name: name OUT {Path(target).with_suffix('.' + to_kind)}, or leave --to out"
            )
    if from_kind is None and source != "-" and Path(source).is_dir():
        entries = read_entries([source])
    else:
        entries = _read_for_convert(source, from_kind)
    if to_kind is None:
        if target == "-":
            to_kind = "jsonl" if entries and entries[0].notation else "mnl"
        else:
            to_kind = kind_of(target)
    records = []
    invalid = 0
    for entry in progress(entries, "converting"):
        try:
            record, _ = replay_entry(entry)
        except InvalidRecordError as error:
            invalid += 1
            for problem in error.problems:
                click.echo(problem.describe(), err=True)
            continue
        records.append(record)
    if invalid:
        click.echo(f"{invalid} of {len(entries)} matches invalid: nothing written", err=True)
        sys.exit(1)
    commented = _comment_lines(entries)
    if commented and target != "-" and source != "-" and Path(source).resolve() == Path(target).resolve():
        raise click.UsageError(
            f"no record keeps the # comments of {_first_lines(commented)}: converting the file onto "
            "itself would lose them. Write to another file"
        )
    if to_kind == "json" and len(records) != 1:
        said = "standard input" if source == "-" else source
        raise click.UsageError(
            f"a .json file holds one match, and {said} has {len(records)}: write .jsonl or .mnl"
        )
    text = (
        dumps(records[0])
        if to_kind == "json"
        else dump_lines(records)
        if to_kind == "jsonl"
        else dumps_text(records)
    )
    if target == "-":
        click.echo(text, nl=False)
    else:
        try:
            with written_whole(Path(target)) as handle:
                handle.write(text)
        except OSError as error:
            raise click.ClickException(f"cannot write {target!r}: {error.strerror}") from None
        matches = f"{len(records)} match" + ("" if len(records) == 1 else "es")
        click.echo(f"wrote {matches} to {target}", err=True)
    if commented:
        click.echo(
            f"not carried over: the # comments of {_first_lines(commented)}, which are for the "
            "typist and not part of a record (keep what matters in a notes line, or a note "
            "line on a deal: docs/notation.md)",
            err=True,
        )


def _comment_lines(entries: Sequence[Entry]) -> list[tuple[str, int]]:
    """Each ``#`` comment of the text-notation entries, as (source, line)."""
    from ..record.text import comment_lines

    found = []
    for entry in entries:
        if entry.notation:
            text = entry.data.decode("utf-8", errors="replace").removeprefix("\ufeff")
            found += [(entry.source, (entry.line or 1) + number - 1) for number in comment_lines(text)]
    return found


def _first_lines(places: Sequence[tuple[str, int]], shown: int = 5) -> str:
    """``seed.mnl lines 1, 4 and 9``, the first few said and the rest counted."""
    by_source: dict[str, list[int]] = {}
    for source, line in places:
        by_source.setdefault(source, []).append(line)
    parts = []
    for source, lines in by_source.items():
        # "and 1 more" is no shorter than the line it stands for
        cut = shown if len(lines) > shown + 1 else len(lines)
        said = [str(n) for n in lines[:cut]]
        if len(lines) > cut:
            said.append(f"{len(lines) - cut} more")
        listed = said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]
        parts.append(f"{source} line{'s' if len(lines) > 1 else ''} {listed}")
    return "; ".join(parts)


COMMANDS: list[click.Command] = [validate, replay, legal, convert, schema]
