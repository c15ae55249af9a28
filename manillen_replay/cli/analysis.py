"""Commands of the mistake finder: analyze an archive, list findings of an archive or of files."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..analysis import (
    CoachDetector,
    Severity,
    analyse,
    coach_findings,
    parse_coach_detector,
)
from ..analysis.coach import check_columns
from ..archive_defaults import ANALYSIS_DEPTHS, default_archive
from ..errors import ManillenError
from .common import (
    BATCH_OPTION,
    CLUSTER_OPTION,
    SAMPLES_OPTION,
    ReplayedRecords,
    echo_json,
    existing_archive,
    no_such_match,
    plural,
)

if TYPE_CHECKING:  # the store (DuckDB, polars) and the solver (numba) load when a command runs
    from ..store import Store
    from ..store.analyse import AnalysisOutcome

SEVERITIES = [s.value for s in Severity]


@contextmanager
def _messages() -> Iterator[None]:
    """Turn the package's errors into one-line messages (exit code 1)."""
    try:
        yield
    except ManillenError as error:
        raise click.ClickException(str(error)) from None


def _open_archive(db: str | None, *, read_only: bool) -> Store:
    from ..store import Store

    path = existing_archive(db, ", or give a record file to `manillen findings FILE`")
    return Store(path, read_only=read_only)


def _read_detectors(paths: Sequence[str]) -> list[CoachDetector]:
    detectors = []
    for path in paths:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as error:
            raise click.BadParameter(
                f"cannot read {path!r}: {error.strerror}", param_hint="--detectors"
            ) from None
        except UnicodeDecodeError:
            raise click.BadParameter(f"{path!r} is not a UTF-8 text file", param_hint="--detectors") from None
        detectors.append(parse_coach_detector(text, source=path))
    names = Counter(d.name for d in detectors)
    twice = [name for name, count in names.items() if count > 1]
    if twice:
        raise click.BadParameter(f"two detector files are both named {twice[0]!r}", param_hint="--detectors")
    return detectors


def _progress(total: int, label: str, minimum: int = 50) -> Any:
    """A progress bar on stderr when a person is watching and the work takes a while; the
    solver's progress always (a bar on a terminal, lines otherwise)."""
    if label == "solving":
        return _SolverProgress(total) if total else None
    show = total >= minimum and sys.stderr.isatty()
    return click.progressbar(length=total, label=label, file=sys.stderr, show_pos=True) if show else None


def _analyse_on_cluster(
    store: Store, everything: bool, samples: int, address: str, batch_deals: int | None, *, quiet: bool
) -> AnalysisOutcome:
    from ..store.analyse import AnalysisOutcome, match_ids_to_analyse
    from .cluster import analyse_archive_on_cluster

    ids = match_ids_to_analyse(store, everything=everything, depth="solver")
    try:
        done = analyse_archive_on_cluster(
            store,
            ids,
            samples=samples,
            address=address,
            batch_deals=batch_deals,
            progress=None if quiet else _progress,
        )
    except KeyboardInterrupt:
        raise click.ClickException(
            "interrupted: the matches that came back are stored; run the same command again to "
            "analyse the rest"
        ) from None
    if not quiet:
        click.echo(done.describe(address), err=True)
    outcome = AnalysisOutcome(
        matches=done.matches, deals=done.deals, solved=done.solved, problems=done.problems
    )
    outcome.by_category.update(done.findings)
    left = done.matches - done.stored
    if left:
        outcome.problems.append(
            f"{plural(left, 'match', 'matches')} not stored: run the same command again to retry "
            f"{'it' if left == 1 else 'them'}"
        )
    return outcome


class _SolverProgress:
    """The solver's progress on stderr: a bar on a terminal, otherwise a line every tenth of the work.

    Both show the deals done, deals per second and the time left, from the
    :class:`~manillen_replay.analysis.deal_analysis.Progress` the analysis passes after each deal.
    """

    def __init__(self, total: int) -> None:
        self.total = total
        self.bar: Any = None
        self._lines_shown = 0
        if sys.stderr.isatty():
            self.bar = click.progressbar(
                length=total,
                label="solving",
                file=sys.stderr,
                show_percent=True,
                item_show_func=lambda progress: progress.describe() if progress is not None else None,
            )
            self.bar.render_progress()

    def update(self, deals: int, progress: Any) -> None:
        if self.bar is not None:
            self.bar.update(deals, progress)
            return
        step = max(1, self.total // 10)
        if progress.done >= self.total or progress.done // step > self._lines_shown:
            self._lines_shown = progress.done // step
            click.echo(f"solving: {progress.describe()}", err=True)

    def render_finish(self) -> None:
        if self.bar is not None:
            self.bar.render_finish()


def _solver_depths(store: Store, samples: int) -> str:
    """What the solver gave the archive's plays: layouts for the four-player game, hindsight costs
    only for the other variants (docs/solver.md)."""
    ((four, others),) = store.query(
        "SELECT count(*) FILTER (WHERE variant = 'four'), count(*) FILTER (WHERE variant <> 'four') "
        "FROM matches"
    ).rows()
    if not others:
        return f"{plural(samples, 'layout')} per play"
    if not four:
        return "hindsight costs only: the variants other than four get no layouts"
    return f"{plural(samples, 'layout')} per play; the variants other than four: hindsight costs only"


def _run_detector(store: Store, detector: CoachDetector) -> int:
    from ..store.analyse import findings_frame

    seats = {
        row[0]: [name for name in row[1:] if name is not None]
        for row in store.query("SELECT match_id, seat0, seat1, seat2, seat3 FROM matches").iter_rows()
    }
    rows = store.user_query(detector.sql)
    check_columns(detector, rows.columns)
    found = [f for f in coach_findings(detector, rows.iter_rows(named=True), seats) if f.match in seats]
    store.save_findings(list(seats), findings_frame(found), detector=detector.name)
    return len(found)


@click.command()
@click.option(
    "--db",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE",
    help="The archive (default: $MANILLEN_DB or ./manillen.duckdb).",
)
@click.option(
    "--all",
    "everything",
    is_flag=True,
    help="Analyse every match again, not only the new (or shallower) ones.",
)
@click.option(
    "--depth",
    type=click.Choice(ANALYSIS_DEPTHS, case_sensitive=False),
    default="heuristic",
    show_default=True,
    help="rules: illegal plays, scoring and procedure only; heuristic: also the strategy detectors; "
    "solver: also every card's cost from the solver, stored in the archive (seconds a deal: "
    "0.64 to 0.73 s median measured by make bench on demo deals, 2 cores, 30x to 35x its floor; "
    "docs/solver.md).",
)
@SAMPLES_OPTION
@click.option(
    "--detectors",
    "detector_files",
    multiple=True,
    type=click.Path(dir_okay=False),
    metavar="FILE.sql",
    help="A coach detector (a named SQL query) to run as well; repeatable. See docs/findings.md.",
)
@CLUSTER_OPTION
@BATCH_OPTION
@click.option(
    "--quiet",
    "-q",
    is_flag=True,
    help="No progress on stderr (with --depth solver: deals done, deals per second, time left).",
)
def analyze(
    db: str | None,
    everything: bool,
    depth: str,
    samples: int,
    detector_files: tuple[str, ...],
    cluster_address: str | None,
    batch_deals: int | None,
    quiet: bool,
) -> None:
    """Find the mistakes in an archive: illegal plays, scoring errors, strategy findings.

    Runs the built-in detectors over every match not analysed yet at this depth (or over
    all of them with --all) and stores what they find in the archive's `findings` table.
    With --depth solver the solver also costs every card of every deal (stored in
    `play_costs` and `card_values`, shown in the dashboard's deal replay), reports costly
    cards and calls, and sharpens the strategy detectors with what each player could see;
    the other variants than the four-player game get hindsight costs only (docs/solver.md).
    Then runs each coach detector given with --detectors over the whole archive (read-only)
    and stores its rows as findings named after it. List them with `manillen findings`.

    \b
    Examples:
      manillen analyze --db club.duckdb
      manillen import data/samples/klop-tegenklop.json --db klop.duckdb
      manillen analyze --db klop.duckdb --depth solver --samples 20
      manillen analyze --db klop.duckdb --depth solver --samples 20 --all --cluster local:2
      manillen analyze --db club.duckdb --detectors docs/detectors/trump_into_void.sql
    """
    from ..store.analyse import analyse_archive

    depth = depth.lower()
    if cluster_address is not None and depth != "solver":
        raise click.UsageError("--cluster runs the solver: give --depth solver with it")
    with _messages():
        detectors = _read_detectors(detector_files)
        if cluster_address is not None:
            from ..cluster import parse_address

            parse_address(cluster_address)
        with _open_archive(db, read_only=False) as store:
            if cluster_address is None:
                outcome = analyse_archive(
                    store,
                    everything=everything,
                    depth=depth,
                    samples=samples,
                    progress=None if quiet else _progress,
                )
            else:
                outcome = _analyse_on_cluster(
                    store, everything, samples, cluster_address, batch_deals, quiet=quiet
                )
            for problem in outcome.problems:
                click.echo(problem, err=True)
            total = sum(outcome.by_category.values())
            detail = ", ".join(f"{count} {name}" for name, count in sorted(outcome.by_category.items()))
            click.echo(
                f"analysed {plural(outcome.matches, 'match', 'matches')} ({plural(outcome.deals, 'deal')}): "
                f"{plural(total, 'finding')}" + (f" ({detail})" if detail else "")
            )
            if depth == "solver":
                depths = _solver_depths(store, samples)
                click.echo(f"solver: costs of {plural(outcome.solved, 'deal')} stored ({depths})")
            for detector in detectors:
                count = _run_detector(store, detector)
                click.echo(f"coach detector {detector.name}: {plural(count, 'finding')}")
    if outcome.problems:
        sys.exit(1)


_FINDINGS_SQL = """
SELECT match_id AS match, deal, trick, play, seat, player, kind, category, severity, card,
       coalesce(better, []) AS better, points, explanation, explanation_nl, detector
FROM findings
WHERE ($1 IS NULL OR lower(player) = lower($1))
  AND (len($2) = 0 OR list_contains($2, kind))
  AND list_position(['info', 'inaccuracy', 'mistake', 'blunder'], severity) >= $3
  AND ($4 IS NULL OR match_id = $4)
ORDER BY match_id, coalesce(deal, 0), coalesce(trick, 0), coalesce(play, 0), kind
"""


def _archive_findings(
    db: str | None, player: str | None, kinds: list[str], minimum: Severity, match_id: str | None, lang: str
) -> tuple[list[dict[str, Any]], int]:
    with _open_archive(db, read_only=True) as store:
        if (
            match_id is not None
            and not store.query("SELECT 1 FROM matches WHERE match_id = ?", [match_id]).height
        ):
            raise no_such_match(match_id, f"the archive {db or default_archive()}")
        frame = store.query(_FINDINGS_SQL, [player, kinds, minimum.level + 1, match_id])
        unanalysed = store.query("SELECT count(*) AS n FROM matches WHERE analysed_at IS NULL")["n"][0]
    out = []
    for row in frame.iter_rows(named=True):
        english = row["explanation"]
        shown = row["explanation_nl"] if lang == "nl" and row["explanation_nl"] else english
        out.append(
            {
                **row,
                "explanation": shown,
                "explanation_en": english,
                "explanation_nl": row["explanation_nl"],
                "detector": row["detector"],
            }
        )
    return out, int(unanalysed)


def _ledger_summaries(db: str | None, player: str | None, match_id: str | None) -> list[dict[str, Any]]:
    """Each player's ledger (``player_ledger``): over the match with ``--match``, else over all time."""
    with _open_archive(db, read_only=True) as store:
        rows = store.player_ledger("match" if match_id else "all", match_id=match_id, player=player)
    return [
        {key: (str(value) if key == "evening" and value is not None else value) for key, value in row.items()}
        for row in rows.drop("deal").iter_rows(named=True)
    ]


def _file_findings(
    paths: Sequence[str],
    player: str | None,
    kinds: list[str],
    minimum: Severity,
    match_id: str | None,
    lang: str,
) -> tuple[list[dict[str, Any]], int]:
    out = []
    replayed = ReplayedRecords(paths, match_id)
    for record, result in replayed:
        for finding in analyse(result, record):
            if player is not None and (finding.player or "").lower() != player.lower():
                continue
            if kinds and finding.kind not in kinds:
                continue
            if finding.severity.level < minimum.level:
                continue
            out.append(finding.to_json(lang))
    replayed.check_found()
    return out, replayed.invalid


def _echo_text(findings: list[dict[str, Any]], lang: str = "en") -> None:
    from ..analysis.words import kind_name, points_en, points_nl, severity_name

    dutch = lang == "nl"
    places = {"deal": "spel", "trick": "slag", "play": "kaart"} if dutch else {}
    current = None
    for f in findings:
        if f["match"] != current:
            current = f["match"]
            click.echo(f"{'partij' if dutch else 'match'} {current}")
        place = " ".join(
            f"{places.get(name, name)} {f[name]}" for name in ("deal", "trick", "play") if f[name] is not None
        )
        who = f" {f['player']}" if f["player"] else ""
        points = f" ({(points_nl if dutch else points_en)(f['points'])})" if f["points"] else ""
        kind = kind_name(f["kind"], lang) if dutch else f["kind"]  # English: the name --kind takes
        click.echo(f"  {place}{who}: {severity_name(f['severity'], lang)} {kind}{points}")
        click.echo(f"    {f['explanation']}")


@click.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option(
    "--db",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE",
    help="Read the findings stored in this archive (default without PATH: $MANILLEN_DB or "
    "./manillen.duckdb).",
)
@click.option("--player", metavar="NAME", help="Only findings about this player (any case).")
@click.option(
    "--kind",
    "kinds",
    multiple=True,
    metavar="KIND",
    help="Only this kind (missed_vetten, revoke, ... or a coach detector's name); repeatable.",
)
@click.option(
    "--min-severity",
    type=click.Choice(SEVERITIES, case_sensitive=False),
    default="info",
    help="Leave out findings below this severity.",
)
@click.option("--match", "match_id", metavar="ID", help="Only the match with this id.")
@click.option(
    "--json", "as_json", is_flag=True, help="Print the findings as JSON (the contract in docs/findings.md)."
)
@click.option("--lang", type=click.Choice(["en", "nl"]), default="en", help="Language of the explanations.")
def findings(
    paths: tuple[str, ...],
    db: str | None,
    player: str | None,
    kinds: tuple[str, ...],
    min_severity: str,
    match_id: str | None,
    as_json: bool,
    lang: str,
) -> None:
    """List the mistakes found, with an explanation in the players' own words.

    Give record files (.json, .jsonl or folders) to analyse them on the spot, without an
    archive; or read what `manillen analyze` stored in an archive with --db (the default
    when no file is given).

    \b
    Examples:
      manillen findings data/samples/ --min-severity mistake
      manillen findings --db club.duckdb --player Bert --kind missed_vetten --lang nl --json
    """
    if paths and db is not None:
        raise click.UsageError("give record files or --db, not both")
    minimum = Severity.parse(min_severity)
    invalid = 0
    with _messages():
        if paths:
            found, invalid = _file_findings(paths, player, list(kinds), minimum, match_id, lang)
        else:
            found, unanalysed = _archive_findings(db, player, list(kinds), minimum, match_id, lang)
            if unanalysed:
                click.echo(
                    f"{plural(unanalysed, 'match', 'matches')} in the archive "
                    f"{'is' if unanalysed == 1 else 'are'} not analysed yet: run `manillen analyze`",
                    err=True,
                )
    if as_json:
        summaries = [] if paths else _ledger_summaries(db, player, match_id)
        echo_json({"findings": found, "summaries": summaries})
    else:
        _echo_text(found, lang)
        counts = Counter(f["severity"] for f in found)
        if lang == "nl":
            from ..analysis.words import severity_name

            detail = ", ".join(
                f"{severity_name(s, 'nl')} {counts[s]}" for s in reversed(SEVERITIES) if counts[s]
            )
            total = plural(len(found), "bevinding", "bevindingen")
            click.echo(total + (f": {detail}" if detail else ""), err=True)
        else:
            detail = ", ".join(f"{counts[s]} {s}" for s in reversed(SEVERITIES) if counts[s])
            click.echo(plural(len(found), "finding") + (f" ({detail})" if detail else ""), err=True)
    sys.exit(1 if invalid else 0)


COMMANDS: list[click.Command] = [analyze, findings]
