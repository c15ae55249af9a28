"""The ``manillen report`` command: a match review to take home, as one HTML file."""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import ManillenError
from .common import (
    DB_OPTION,
    DEFAULT_SAMPLES,
    SAMPLES_OPTION,
    WAIT_OPTION,
    check_output_file,
    existing_archive,
    no_such_match,
    player_name,
    plural,
    solver_wait,
    written_whole,
)


@click.command()
@DB_OPTION
@click.option("--match", "match_id", required=True, metavar="ID", help="The match to review.")
@click.option(
    "--player",
    metavar="NAME",
    callback=player_name,
    help="Review for this player (any case; the dummy's cards of three_dummy count as its dealer's); "
    "default: everyone.",
)
@click.option(
    "--lang", type=click.Choice(["en", "nl"]), default="en", show_default=True, help="The report's language."
)
@click.option(
    "--out",
    required=True,
    type=click.Path(dir_okay=False, writable=True, allow_dash=True),
    metavar="FILE.html",
    help="Where to write the report (replaced if it exists); - for standard output.",
)
@SAMPLES_OPTION
@WAIT_OPTION
@click.option("--quiet", "-q", is_flag=True, help="No progress of the solver review on stderr.")
def report(
    db: str, match_id: str, player: str | None, lang: str, out: str, samples: int, wait: float, quiet: bool
) -> None:
    """Write a match review as one self-contained HTML file, to mail or open on a phone.

    The file opens with the review: the player's (or each player's) three costliest
    decisions, ranked as `manillen findings --top 3` and the dashboard's Match page rank
    them, each with its cost and its measure, the reason in words, the trump suit, the table
    drawn at that moment, and the better card's line. Then the match (teams, a score chart,
    every deal), accuracy and the luck and skill ledger (the cards against the decisions), for
    the player or everyone. Every coach comment stands where it
    belongs. Styles, charts and card pictures are inside the file: it needs no network, and
    prints on A4. A match the solver has not reviewed yet is reviewed first (costs, accuracy
    and the ledger come from it; progress on stderr, --samples layouts a play), and stored in
    the archive, waiting its turn when the dashboard has it open (--wait).

    Examples:

    \b
      manillen import data/samples/cafe-rules.json --db review.duckdb
      manillen report --db review.duckdb --match cafe-rules --player Anna --lang nl --out anna.html
      manillen findings --db review.duckdb --match cafe-rules --top 3
    """
    # the store and the report's polars load here, not for `manillen report --help`
    from ..analysis.effort import review_effort
    from ..report import make_report
    from ..store import Store
    from ..store.analyse import analyse_archive_in_turns, deals_to_analyse, match_ids_to_analyse
    from .analysis import _progress, opener

    check_output_file(out, "--out", "the report")
    path = existing_archive(db)  # a missing file is a usage error (exit 2), as in every command
    open_store = opener(path, wait)
    try:
        with open_store(True) as store:
            if not store.query("SELECT 1 FROM matches WHERE match_id = ?", [match_id]).height:
                raise no_such_match(match_id, f"the archive {db}")  # exit 2, as in every command
            if (
                player is not None
                and not store.query(
                    "SELECT 1 FROM player_deals WHERE match_id = ? AND lower(player) = lower(?)",
                    [match_id, player],
                ).height
            ):
                try:
                    make_report(store, match_id, player=player, lang=lang)  # says who did play
                except ManillenError as error:  # exit 2, as a --player elsewhere who did not play
                    raise click.BadParameter(str(error), param_hint="--player") from None
            ids = match_ids_to_analyse(store, depth="solver", match_ids=[match_id])
            by_variant = store.deal_counts_by_variant(ids)
            deals = sum(by_variant.values())
            # the progress counts every deal, as the analysis passes them (a redeal too)
            passed = deals_to_analyse(store, ids)
        if ids:
            Store.check_writable(path, "store the solver's review")  # before the review, not after it
            if not quiet and deals:  # a match of the scoresheet only has no cards to review
                # the solver's timings are measured at the default layouts: no guess at others
                expected = f", {solver_wait(review_effort(by_variant))}" if samples == DEFAULT_SAMPLES else ""
                click.echo(
                    f"reviewing match {match_id} with the solver first ({plural(deals, 'deal')}, "
                    f"{plural(samples, 'layout')} a play{expected}); it is stored in the archive",
                    err=True,
                )
            outcome = analyse_archive_in_turns(
                open_store,
                ids,
                depth="solver",
                samples=samples,
                deals=passed,
                progress=None if quiet or not deals else _progress,
            )
            for problem in outcome.problems:
                click.echo(problem, err=True)
        with open_store(True) as store:
            html = make_report(store, match_id, player=player, lang=lang)
    except ManillenError as error:
        raise click.ClickException(str(error)) from None
    if out == "-":
        click.echo(html, nl=False)
        return
    try:
        with written_whole(Path(out)) as handle:  # a failed write leaves an earlier report whole
            handle.write(html)
    except OSError as error:
        raise click.ClickException(f"cannot write {out!r}: {error.strerror}") from None
    click.echo(f"wrote {out} ({len(html.encode()) // 1024} KB): open it in any browser, no network needed")


COMMANDS: list[click.Command] = [report]
