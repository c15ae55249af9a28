"""The ``manillen puzzles`` command: a player's puzzles, as a file and as a printable page."""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import InvalidCardError, ManillenError
from .common import (
    DB_OPTION,
    WAIT_OPTION,
    check_output_file,
    existing_archive,
    no_such_match,
    no_such_player,
    player_name,
    plural,
    written_whole,
)


@click.command()
@DB_OPTION
@click.option(
    "--player", required=True, metavar="NAME", callback=player_name, help="Whose puzzles (any case)."
)
@click.option("--match", "match_id", metavar="ID", help="Only the puzzles of this match.")
@click.option(
    "--out",
    type=click.Path(dir_okay=False, writable=True, allow_dash=True),
    metavar="FILE.json",
    help="Write the puzzles as JSON here (- for standard output): each with its source, the table as "
    "the player saw it, the options and the answers the solver accepts.",
)
@click.option(
    "--html",
    "page",
    type=click.Path(dir_okay=False, writable=True, allow_dash=True),
    metavar="PAGE.html",
    help="Write a printable page of the puzzles here (- for standard output), the answers after them.",
)
@click.option(
    "--lang",
    type=click.Choice(["en", "nl"]),
    default="en",
    show_default=True,
    help="The language of the page and of the list printed.",
)
@WAIT_OPTION
def puzzles(
    db: str, player: str, match_id: str | None, out: str | None, page: str | None, lang: str, wait: float
) -> None:
    """Make puzzles from a player's own costly decisions, to train on.

    A puzzle is a moment of one of the player's deals as they saw it: their own hand, the
    cards played, the calls and the score, the other hands hidden. It asks what they asked
    themselves then: which card to play, which trump to call, or whether to knock (klop).
    Only decisions the solver reviewed (`manillen analyze --depth solver`) that surely cost
    2 points or more from the player's own view become puzzles, and only when the answer is
    clear: the best option beats every other by 2 points or more, so a near-tie is never a
    puzzle. From the third trick on, a card puzzle also gets drills: which trumps are still
    out, which cards are the masters? Each puzzle names its source (match, deal, trick,
    card) so that a coach can check it in the dashboard's deal replay; the Train page asks
    the same puzzles and brings the missed ones back (docs/puzzles.md).

    Without --out or --html, the puzzles are listed: source, question and answer.

    Examples:

    \b
      manillen import data/samples/cafe-rules.json --db train.duckdb
      manillen analyze --db train.duckdb --samples 10
      manillen puzzles --db train.duckdb --player Bert --out bert.json --html bert.html
    """
    # the store and polars load here, not for `manillen puzzles --help`
    from ..analysis.puzzles import make_puzzles, puzzles_json
    from ..report.puzzles import render_puzzles, source_text
    from ..report.words import say
    from .analysis import opener

    if out == "-" and page == "-":
        raise click.UsageError("only one of --out and --html can be - (standard output)")
    check_output_file(out, "--out", "the puzzles")
    check_output_file(page, "--html", "the puzzles")
    path = existing_archive(db)
    try:
        with opener(path, wait)(True) as store:
            known = store.query(
                "SELECT DISTINCT player FROM player_deals WHERE lower(player) = lower(?)", [player]
            )
            if not known.height:
                players = store.query("SELECT DISTINCT player FROM player_deals")["player"].to_list()
                raise no_such_player(player, players, "the archive")
            name = str(known["player"][0])
            if (
                match_id is not None
                and not store.query("SELECT 1 FROM matches WHERE match_id = ?", [match_id]).height
            ):
                raise no_such_match(match_id, f"the archive {db}")
            if match_id is not None:
                in_match = store.query(
                    "SELECT DISTINCT player FROM player_deals WHERE match_id = ?", [match_id]
                )["player"].to_list()
                if name not in in_match:
                    raise no_such_player(player, in_match, f"match {match_id}")
            costed = store.query("SELECT count(*) AS n FROM play_costs")["n"][0]
            found = make_puzzles(store.puzzle_rows(player=name, match_id=match_id), player=name)
    except ManillenError as error:
        raise click.ClickException(str(error)) from None
    if not costed:
        click.echo(
            f"the archive has no solver costs yet: run `manillen analyze --db {db} --depth solver` first",
            err=True,
        )

    def text_of(kind: str) -> str:
        return puzzles_json(found) if kind == "json" else render_puzzles(found, name, lang)

    outputs = [(target, kind) for target, kind in ((out, "json"), (page, "html")) if target]
    written = []
    for target, kind in outputs:
        if target == "-":
            click.echo(text_of(kind), nl=False)
            written.append("standard output")
            continue
        try:
            with written_whole(Path(target)) as handle:
                handle.write(text_of(kind))
        except OSError as error:
            raise click.ClickException(f"cannot write {target!r}: {error.strerror}") from None
        written.append(target)
    if written:
        # beside the puzzles on standard output, the line that says so goes to stderr
        click.echo(
            f"{plural(len(found), 'puzzle')} for {name}: wrote {' and '.join(written)}",
            err="-" in (out, page),
        )
        return
    from ..analysis.words import and_nl  # the analysis loads only where a listing needs its words

    dutch = lang == "nl"
    count = plural(len(found), "puzzel", "puzzels") if dutch else plural(len(found), "puzzle")
    click.echo(f"{count} {'voor' if dutch else 'for'} {name}")
    for puzzle in found:
        question = say(lang, f"question.{puzzle.kind.value}")
        answers = [_option_words(option, lang) for option in sorted(puzzle.answers)]
        # labelled: the bare cards after the question read as the choices, not the answer; a
        # drill's answer is every card listed (ticked together), a decision's any one of them
        label = "antwoord" if dutch else "answer"
        if puzzle.kind.is_drill:  # every card named: "a, b and c"
            answer = f"{label}: " + and_nl(answers, "en" if dutch else "and")
        else:
            answer = f"{label}: " + f" {'of' if dutch else 'or'} ".join(answers)
        click.echo(f"{source_text(puzzle, lang)}: {question} {answer}")


def _option_words(option: str, lang: str) -> str:
    """A puzzle's answer as the findings say it: a card in Dutch words (``koeken aas``) or with
    its suit's sign (``A♦``), a call as written."""
    from ..analysis.words import card_nl
    from ..cards import Card

    try:
        card = Card.parse(option)
    except InvalidCardError:
        return option
    return card_nl(int(card)) if lang == "nl" else card.symbol


COMMANDS: list[click.Command] = [puzzles]
