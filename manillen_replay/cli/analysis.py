"""Commands of the mistake finder: analyze an archive, list findings of an archive or of files."""

from __future__ import annotations

import contextlib
import datetime
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from click.core import ParameterSource

from ..analysis import (
    CoachDetector,
    Severity,
    analyse,
    coach_findings,
    parse_coach_detector,
)
from ..analysis.coach import check_columns
from ..analysis.effort import review_effort
from ..archive_defaults import ANALYSIS_DEPTHS, default_archive
from ..errors import ManillenError
from .common import (
    AUTO_SOLVER_DEALS,
    BATCH_OPTION,
    CLUSTER_OPTION,
    DEFAULT_SAMPLES,
    QUIET_OPTION,
    SAMPLES_OPTION,
    WAIT_OPTION,
    ReplayedRecords,
    auto_depth,
    db_option,
    echo_json,
    existing_archive,
    fast_scan_note,
    no_such_match,
    no_such_player,
    player_name,
    plural,
    solver_pending_note,
    solver_wait,
)

if TYPE_CHECKING:  # the store (DuckDB, polars) and the solver (numba) load when a command runs
    import polars as pl

    from ..analysis.ranking import Cost, RankedFinding
    from ..engine import MatchResult
    from ..record import Record
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


def _open_archive(db: str | None, *, read_only: bool, wait: float = 60.0) -> Store:
    path = existing_archive(db, ", or give a record file to `manillen findings FILE`")
    return opener(path, wait)(read_only)


def opener(path: str, wait: float) -> Callable[[bool], Store]:
    """Opens the archive (``True``: read-only) in its turn: when the dashboard or another command
    holds it, says so on stderr and waits up to ``wait`` seconds (``Store.open_in_turn``). An
    archive whose schema is older is upgraded first (that needs a turn to write)."""
    from ..store import ArchiveError, Store

    def tell(message: str) -> None:
        click.echo(message, err=True)

    def said(store: Store) -> Store:
        # as `manillen import` says it: an archive upgraded is one an older version cannot open
        if store.upgraded_from:
            tell(f"{path}: upgraded from schema version {store.upgraded_from} to {store.schema_version}")
        return store

    def open_store(read_only: bool) -> Store:
        try:
            return said(Store.open_in_turn(path, read_only=read_only, wait=wait, on_wait=tell))
        except ArchiveError as error:
            if not read_only or "this program needs" not in str(error):
                raise
        said(Store.open_in_turn(path, wait=wait, on_wait=tell)).close()  # the upgrade
        return Store.open_in_turn(path, read_only=True, wait=wait, on_wait=tell)

    return open_store


def claim_file(path: str) -> Path:
    """The file the ``manillen analyze`` analysing an archive holds (an advisory lock): in the
    system's temporary folder, named after the archive's full path, so nothing is left beside it."""
    import hashlib
    import tempfile

    key = hashlib.sha256(str(Path(path).resolve()).encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"manillen-analyze-{key}.lock"


@contextmanager
def analysis_claim(path: str, wait: float) -> Iterator[None]:
    """The archive's analysis for this run alone: a second ``manillen analyze`` of the archive
    waits (up to ``wait`` seconds, saying so) until the first has finished, then finds what it
    left to do; two runs solved the same matches side by side, each twice as slowly. An advisory
    lock on :func:`claim_file` (POSIX ``flock``: where the system has none, or the file cannot be
    opened, runs are not kept apart).

    :raises click.ClickException: when the other run still holds it after ``wait`` seconds.
    """
    try:
        import fcntl
    except ImportError:  # no flock (Windows): runs are not kept apart
        yield
        return
    try:
        handle = claim_file(path).open("a+", encoding="utf-8")
    except OSError:  # another user's file, say: the archive's own lock still guards the writes
        yield
        return
    with handle:
        deadline = time.monotonic() + wait
        told = False
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError:
                handle.seek(0)
                holder = handle.read().strip() or "?"
                if time.monotonic() >= deadline:
                    raise click.ClickException(
                        f"another manillen analyze (process {holder}) is still analysing {path}: run this "
                        "one again when it has finished (or give --wait SECONDS)"
                    ) from None
                if not told:
                    click.echo(
                        f"another manillen analyze (process {holder}) is analysing {path}: waiting for it "
                        f"(up to {wait:g} s), then this one does what it left",
                        err=True,
                    )
                    told = True
                time.sleep(0.5)
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        try:
            yield
        finally:
            handle.seek(0)
            handle.truncate()
            fcntl.flock(handle, fcntl.LOCK_UN)


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
    store: Store, ids: list[str], samples: int, address: str, batch_deals: int | None, *, quiet: bool
) -> AnalysisOutcome:
    from ..store.analyse import AnalysisOutcome
    from .cluster import ClusterOutcome, Interrupted, analyse_archive_on_cluster

    try:
        done = analyse_archive_on_cluster(
            store,
            ids,
            samples=samples,
            address=address,
            batch_deals=batch_deals,
            progress=None if quiet else _progress,
        )
    except Interrupted as stop:
        # a Ctrl-C is the user's, no error: said as every command says it, with what was kept
        kept = stop.outcome
        assert isinstance(kept, ClusterOutcome)
        click.echo(
            f"interrupted: {kept.stored} of {plural(kept.matches, 'match', 'matches')} came back and "
            f"{'is' if kept.stored == 1 else 'are'} stored; run the same command again to analyse the rest",
            err=True,
        )
        sys.exit(130)
    if not quiet:
        click.echo(done.describe(address), err=True)
    outcome = AnalysisOutcome(
        matches=done.matches,
        deals=done.deals,
        solved=done.solved,
        problems=done.problems,
        unanalysed=done.matches - done.stored,
    )
    outcome.by_category.update(done.findings)
    left = done.matches - done.stored - done.unreadable
    if left:
        outcome.problems.append(
            f"{plural(left, 'match', 'matches')} not stored: run the same command again to retry "
            f"{'it' if left == 1 else 'them'}"
        )
    return outcome


def _solver_start_line(deals: int, with_cards: dict[str, int], matches: int, samples: int) -> str:
    """What the solver review is about to do (``deals`` as its progress counts them) and, at the
    default depth, how long it should take by the pace measured for each variant's deals
    ``with_cards`` (a scoresheet line gives it nothing to search).

    >>> _solver_start_line(20, {"four": 20}, 2, 50)
    'solving 20 deals of 2 matches: about 14 s at the pace measured for their variants'
    >>> _solver_start_line(1, {"two_open": 1}, 1, 10)[-65:]
    'at --samples 10 the time left is told once the first deal is done'
    >>> _solver_start_line(3, {"four": 2}, 1, 50).split(":")[0]
    'solving 3 deals of 1 match (2 of them with cards to solve)'
    """
    what = f"solving {plural(deals, 'deal')} of {plural(matches, 'match', 'matches')}"
    solvable = sum(with_cards.values())
    if solvable < deals:
        # "63 deals to review" from the fast scan beside "solving 112 deals" read as two counts
        what += f" ({solvable or 'none'} of them with cards to solve)"
    if samples != DEFAULT_SAMPLES:
        return f"{what}: at --samples {samples} the time left is told once the first deal is done"
    return f"{what}: {solver_wait(review_effort(with_cards))} at the pace measured for their variants"


class _SolverProgress:
    """The solver's progress on stderr: a bar on a terminal, otherwise a line after the first deal
    (with the first estimate), then every tenth of the work or every :data:`LINE_SECONDS`, and at
    the end.

    Both show the deals done, deals per second and the time left, from the
    :class:`~manillen_replay.analysis.deal_analysis.Progress` the analysis passes after each deal.
    """

    LINE_SECONDS = 30.0
    """At most this long between two lines (when not on a terminal)."""

    def __init__(self, total: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.total = total
        self.bar: Any = None
        self._lines_shown = 0
        self._clock = clock
        self._last_line = clock()
        if sys.stderr.isatty():
            self.bar = click.progressbar(
                length=total,
                label="solving",
                file=sys.stderr,
                show_percent=True,
                # the line says the time left by the deals' measured cost; click's own guess beside
                # it (by deals alone, a third of it at times) read as a second, other answer
                show_eta=False,
                item_show_func=lambda progress: progress.describe() if progress is not None else None,
            )
            self.bar.render_progress()

    def update(self, deals: int, progress: Any) -> None:
        if self.bar is not None:
            self.bar.update(deals, progress)
            return
        step = max(1, self.total // 10)
        now = self._clock()
        if (
            progress.done == 1
            or progress.done >= self.total
            or progress.done // step > self._lines_shown
            or now - self._last_line >= self.LINE_SECONDS
        ):
            self._lines_shown = progress.done // step
            self._last_line = now
            click.echo(f"solving: {progress.describe()}", err=True)

    def render_finish(self) -> None:
        if self.bar is not None:
            self.bar.render_finish()


def _solver_depths(samples: int) -> str:
    """What the solver gave the archive's plays: up to ``samples`` layouts drawn per play, or
    every one where few are left, in every variant (docs/solver.md).

    >>> _solver_depths(50)
    'up to 50 layouts drawn per play, every one where 200 or fewer are left'
    """
    from ..analysis.layouts import EVERY_LAYOUT_FACTOR

    every = samples * EVERY_LAYOUT_FACTOR
    return f"up to {plural(samples, 'layout')} drawn per play, every one where {every} or fewer are left"


def _detector_rows(store: Store, detector: CoachDetector, max_rows: int | None = None) -> pl.DataFrame:
    """A coach detector's rows, its columns checked; a failing query named by its detector and file.

    :raises click.ClickException: for a query DuckDB refuses or rows without the columns needed.
    """
    from ..store import QueryError

    try:
        rows = store.user_query(detector.sql, max_rows=max_rows)
    except QueryError as error:
        raise click.ClickException(f"coach detector {detector.name} ({detector.source}): {error}") from None
    check_columns(detector, rows.columns)
    return rows


def _run_detector(store: Store, detector: CoachDetector) -> int:
    from ..store.analyse import findings_frame

    seats = {
        row[0]: [name for name in row[1:] if name is not None]
        for row in store.query("SELECT match_id, seat0, seat1, seat2, seat3 FROM matches").iter_rows()
    }
    rows = _detector_rows(store, detector)
    found = [f for f in coach_findings(detector, rows.iter_rows(named=True), seats) if f.match in seats]
    store.save_findings(list(seats), findings_frame(found), detector=detector.name)
    return len(found)


DEPTH_HELP = (
    "rules: illegal plays, scoring and procedure only; heuristic: also the strategy detectors (the "
    "fast scan, thousands of deals a second); solver: also every card's and call's cost from the "
    "solver, which finds the costliest mistakes (0.64 to 0.73 s a deal median measured by make "
    "bench on demo deals, 2 cores; docs/solver.md; a deal of another variant takes 0.5 to 140 times as "
    f"long). Default: solver when at most {AUTO_SOLVER_DEALS} four-player deals' work is to be reviewed, "
    "else heuristic (and a message saying how long the solver would take)."
)


def _since(_context: click.Context, _parameter: click.Parameter, value: str | None) -> datetime.date | None:
    if value is None:
        return None
    try:
        return datetime.date.fromisoformat(value.strip())
    except ValueError:
        raise click.BadParameter(
            f"{value!r} is not a date: write it as YYYY-MM-DD, e.g. 2026-11-28"
        ) from None


MATCH_IDS_OPTION = click.option(
    "--match",
    "match_ids",
    multiple=True,
    metavar="ID",
    help="Only this match (repeatable); newest matches are analysed first.",
)
SINCE_OPTION = click.option(
    "--since",
    callback=_since,
    metavar="DATE",
    help="Only the matches dated on or after this day (YYYY-MM-DD; undated matches are left out).",
)


def _selected(store: Store, db: str, match_ids: Sequence[str]) -> list[str] | None:
    """The matches named with --match (all there), or ``None`` for no --match.

    :raises click.UsageError: for an id the archive does not hold (exit code 2).
    """
    if not match_ids:
        return None
    known = set(store.known_match_ids(list(match_ids)))
    for match_id in match_ids:
        if match_id not in known:
            raise no_such_match(match_id, f"the archive {db}")
    return list(dict.fromkeys(match_ids))


@click.command()
@db_option("The archive (default: $MANILLEN_DB or ./manillen.duckdb).")
@click.option(
    "--all",
    "everything",
    is_flag=True,
    help="Analyse every match (of --match, --since) again, not only the new (or shallower) ones.",
)
@click.option(
    "--depth",
    type=click.Choice(ANALYSIS_DEPTHS, case_sensitive=False),
    default=None,
    help=DEPTH_HELP,
)
@MATCH_IDS_OPTION
@SINCE_OPTION
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
@WAIT_OPTION
@QUIET_OPTION
def analyze(
    db: str | None,
    everything: bool,
    depth: str | None,
    match_ids: tuple[str, ...],
    since: datetime.date | None,
    samples: int,
    detector_files: tuple[str, ...],
    cluster_address: str | None,
    batch_deals: int | None,
    wait: float,
    quiet: bool,
) -> None:
    """Find the mistakes in an archive: illegal plays, scoring errors, strategy findings.

    Runs the built-in detectors over every match not analysed yet at this depth, or analysed at it
    by an earlier version of manillen-replay (or over all of them with --all; only the matches of
    --match and --since when given, the newest first) and stores what they find in the archive's
    `findings` table. The solver review (--depth solver, the default for up to 60 four-player
    deals' work) also costs every card of every deal (stored in `play_costs` and `card_values`,
    shown in the dashboard's deal replay), reports costly cards and calls, and sharpens the
    strategy detectors with what each player could see, in every variant (docs/solver.md).
    Progress goes to stderr: first what it is about to solve and, at the default --samples, how
    long that should take; then from the first deal: deals done, deals a second, time left. Then
    runs each coach detector given with --detectors over the whole archive (read-only) and stores
    its rows as findings named after it. List them with `manillen findings` (`--top 3`: the
    costliest).

    The dashboard may stay open: the matches are read and solved beside it, and each one is
    stored in a turn of its own; when the archive is held, the command says by whom and waits
    (--wait).

    \b
    Examples:
      manillen analyze --db club.duckdb --depth heuristic
      manillen import data/samples/klop-tegenklop.json --db klop.duckdb
      manillen analyze --db klop.duckdb --samples 20
      manillen analyze --db club.duckdb --since 2026-08-24 --samples 10
      manillen analyze --db klop.duckdb --match klop-tegenklop --all --samples 10
      manillen analyze --db klop.duckdb --depth solver --samples 20 --all --cluster local:2
      manillen analyze --db club.duckdb --detectors docs/detectors/trump_into_void.sql
    """
    from ..store import Store
    from ..store.analyse import (
        analyse_archive_in_turns,
        deals_to_analyse,
        deeper_match_count,
        match_ids_to_analyse,
        outdated_deeper_counts,
    )

    chosen = depth.lower() if depth is not None else None
    if cluster_address is not None and chosen != "solver":
        raise click.UsageError("--cluster runs the solver: give --depth solver with it")
    # held until the analysis is stored: another solver review of the archive waits for it
    with _messages(), contextlib.ExitStack() as claimed:
        detectors = _read_detectors(detector_files)
        path = existing_archive(db, ", or give a record file to `manillen findings FILE`")
        open_store = opener(path, wait)
        if chosen != "heuristic":  # the fast scan takes seconds: only a solver review is kept apart
            claimed.enter_context(analysis_claim(path, wait))
        with open_store(True) as store:
            selected = _selected(store, path, match_ids)
            for detector in detectors:  # a detector that cannot run is said before the analysis
                _detector_rows(store, detector, max_rows=1)

            def pick(at: str) -> list[str]:
                return match_ids_to_analyse(
                    store, everything=everything, depth=at, match_ids=selected, since=since, newest_first=True
                )

            note = None
            if chosen is None:
                by_variant = store.deal_counts_by_variant(pick("solver"))
                effort = review_effort(by_variant)
                chosen = auto_depth(effort)
            ids = pick(chosen)
            if chosen != "solver" and depth is None:
                pending = sum(by_variant.values())
                if since is not None:
                    how = "give --depth solver, or a later --since DATE, or --match ID"
                elif match_ids:
                    how = "give --depth solver, or fewer matches with --match ID"
                else:
                    how = "give --depth solver, or choose matches with --match ID or --since DATE"
                # nothing new to scan: the fast scan did not run, only the solver review is missing
                note = (
                    fast_scan_note(pending, effort, how) if ids else solver_pending_note(pending, effort, how)
                )
                if click.get_current_context().get_parameter_source("samples") is ParameterSource.COMMANDLINE:
                    note += "; --samples is the solver review's, and the fast scan takes none"
            deals = deals_to_analyse(store, ids)
            with_cards = store.deal_counts_by_variant(ids) if chosen == "solver" and ids else {}
            work = review_effort(with_cards) if with_cards else 0.0  # the time left by it
            if chosen == "solver" and ids and not quiet:
                # said before the first deal is done: off a terminal the first line came after it,
                # minutes for a deal of the two-player game
                started = _solver_start_line(deals, with_cards, len(ids), samples)
                click.echo(started, err=True)
            deeper = deeper_match_count(store, chosen, match_ids=selected, since=since) if everything else 0
            outdated = outdated_deeper_counts(store, chosen, match_ids=selected, since=since)
            if deeper:
                kept = _kept_deeper_note(deeper, chosen)
                note = kept if note is None else f"{note}\n{kept}"
            elif not ids and note is None and not outdated:
                note = _nothing_new_note(store, chosen, scoped=bool(match_ids) or since is not None)
            if outdated:
                older = _outdated_deeper_note(outdated, chosen)
                note = older if note is None else f"{note}\n{older}"
        if ids or detectors:
            Store.check_writable(path, "store the analysis")  # before the work, not after it
        if cluster_address is None:
            outcome = analyse_archive_in_turns(
                open_store,
                ids,
                depth=chosen,
                samples=samples,
                deals=deals,
                work=work,
                progress=None if quiet else _progress,
            )
        else:
            with open_store(False) as store:
                outcome = _analyse_on_cluster(store, ids, samples, cluster_address, batch_deals, quiet=quiet)
        for problem in outcome.problems:
            click.echo(problem, err=True)
        total = sum(outcome.by_category.values())
        detail = ", ".join(f"{count} {name}" for name, count in sorted(outcome.by_category.items()))
        left = (
            f"; {plural(outcome.unanalysed, 'match', 'matches')} not analysed" if outcome.unanalysed else ""
        )
        click.echo(
            f"analysed {plural(outcome.analysed, 'match', 'matches')} ({plural(outcome.deals, 'deal')}) "
            f"at the {chosen} depth: {plural(total, 'finding')}" + (f" ({detail})" if detail else "") + left
        )
        if chosen == "solver":
            depths = _solver_depths(samples)
            click.echo(f"solver: costs of {plural(outcome.solved, 'deal')} stored ({depths})")
        if note is not None:
            click.echo(note, err=True)
        if detectors:
            with open_store(False) as store:
                for detector in detectors:
                    count = _run_detector(store, detector)
                    click.echo(f"coach detector {detector.name}: {plural(count, 'finding')}")
    if outcome.problems:
        sys.exit(1)


def _kept_deeper_note(count: int, depth: str) -> str:
    """Why --all left some matches out: a shallower analysis would replace their deeper one."""
    them, were = ("it", "it was") if count == 1 else ("them", "they were")
    deeper = ANALYSIS_DEPTHS[ANALYSIS_DEPTHS.index(depth) + 1 :]
    again = (
        f"`--all --depth {deeper[0]}`" if len(deeper) == 1 else f"`--all` with the depth {were} analysed at"
    )
    return (
        f"left {plural(count, 'match', 'matches')} analysed deeper than the {depth} depth as {were}: "
        f"this would replace {'its' if count == 1 else 'their'} deeper findings; {again} analyses "
        f"{them} again"
    )


def _outdated_deeper_note(counts: dict[str, int], depth: str) -> str:
    """Why matches analysed by an earlier version were left: their analysis is deeper than this
    run's; which ``--depth`` analyses each of them again."""
    count = sum(counts.values())
    keeps, were, them = ("keeps its", "it was", "it") if count == 1 else ("keep their", "they were", "them")
    ways = [(at, counts[at]) for at in ANALYSIS_DEPTHS if counts.get(at)]
    if len(ways) == 1:
        again = f"`--depth {ways[0][0]}` analyses {them} again"
    else:
        again = ", ".join(f"`--depth {at}` analyses {n} of them again" for at, n in ways)
    return (
        f"{plural(count, 'match', 'matches')} {keeps} analysis by an earlier version of manillen-replay, "
        f"deeper than the {depth} depth as {were} analysed: {again} with this version (the "
        "dashboard's background review does the solver's too)"
    )


def _outdated_note(count: int, by_solver: int, db: str = "club.duckdb") -> str:
    """How many matches an earlier version analysed, and the command that analyses each again
    (plain `analyze` leaves a solver review to `--depth solver`: it would replace its costs), on
    the archive ``db`` (pasted without it, the command would analyse ./manillen.duckdb).

    >>> _outdated_note(3, 3).split(": ")[-1]
    '`manillen analyze --db club.duckdb --depth solver` analyses them again'
    >>> _outdated_note(2, 1).split(": ")[-1][:47]
    '`manillen analyze --db club.duckdb` analyses 1 '
    """
    said = (
        f"{plural(count, 'match', 'matches')} in the archive {'was' if count == 1 else 'were'} analysed "
        "by an earlier version of manillen-replay, whose words and costs may differ from this one's: "
    )
    them = "it" if count == 1 else "them"
    analyze = f"manillen analyze --db {db}"
    if not by_solver:
        return said + f"`{analyze}` analyses {them} again"
    if by_solver == count:
        return said + f"`{analyze} --depth solver` analyses {them} again"
    return (
        said + f"`{analyze}` analyses {count - by_solver} of them again, `{analyze} --depth solver` "
        f"the {by_solver} the solver reviewed"
    )


def _nothing_new_note(store: Store, depth: str, *, scoped: bool) -> str:
    """Why a run analysed nothing, and what to do instead (a second run looked like a failure)."""
    if not scoped and not store.query("SELECT count(*) AS n FROM matches")["n"][0]:
        return "the archive holds no match yet: put some in with `manillen import FILE`"
    which = "each match asked for" if scoped else "every match"
    return (
        f"nothing new: {which} is analysed at the {depth} depth already; add --all to analyse "
        "again, or list the findings with `manillen findings`"
    )


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


def _ranked_json(row: dict[str, Any], rank: int, lang: str) -> dict[str, Any]:
    """A ranked decision's finding in the JSON contract, with its rank, costs and measure."""
    from ..analysis.ranking import row_cost_in_words

    return {
        **row,
        "rank": rank,
        "measure": "view" if row["view_cost"] is not None else "points",
        "cost": row_cost_in_words(row, lang),
    }


def _unknown_kinds(kinds: Sequence[str], stored: Sequence[str] = ()) -> str | None:
    """What to say of a ``--kind`` no finding has, which would read as a clean sheet ("0
    findings"): ``None`` when every kind is built in or stored.

    :param stored: the kinds the archive holds (a coach detector's among them).
    """
    from ..analysis.words import KIND_NL

    unknown = [kind for kind in kinds if kind not in KIND_NL and kind not in stored]
    if not unknown:
        return None
    coach = sorted(set(stored) - set(KIND_NL))
    return f"no finding is of the kind {unknown[0]!r}: the kinds are {', '.join(sorted(KIND_NL))}" + (
        f", and this archive's own {', '.join(coach)}" if coach else ""
    )


def _archive_findings(
    db: str | None,
    player: str | None,
    kinds: list[str],
    minimum: Severity,
    match_id: str | None,
    lang: str,
    top: int | None,
    wait: float,
) -> tuple[list[dict[str, Any]], int, int, tuple[int, int]]:
    """The stored findings (the ``top`` costliest decisions when given), the number of matches not
    analysed yet, of those (in scope) not reviewed by the solver, and of those (in scope) analysed
    by an earlier revision of the analysis (all of them, and those the solver reviewed)."""
    from ..archive_defaults import ANALYSIS_REVISION

    with _open_archive(db, read_only=True, wait=wait) as store:
        if (
            match_id is not None
            and not store.query("SELECT 1 FROM matches WHERE match_id = ?", [match_id]).height
        ):
            raise no_such_match(match_id, f"the archive {db or default_archive()}")
        if player is not None:
            played = store.query(
                "SELECT DISTINCT player FROM player_deals WHERE ($1 IS NULL OR match_id = $1)", [match_id]
            )["player"].to_list()
            if player.lower() not in {name.lower() for name in played}:
                where = (
                    f"match {match_id}" if match_id is not None else f"the archive {db or default_archive()}"
                )
                raise no_such_player(player, played, where)
        if kinds and (
            unknown := _unknown_kinds(
                kinds, store.query("SELECT DISTINCT kind FROM findings")["kind"].to_list()
            )
        ):
            # a coach's detector that found nothing stored no kind: said, not refused
            click.echo(
                f"note: {unknown} (a coach detector's kind is known once it found something)", err=True
            )
        if top is None:
            frame = store.query(_FINDINGS_SQL, [player, kinds, minimum.level + 1, match_id])
        else:
            filtered = bool(kinds) or minimum.level > Severity.INACCURACY.level
            frame = (
                store.biggest_mistakes(
                    None if match_id is None else [match_id],
                    player=player,
                    top=2**31 - 1 if filtered else top,
                )
                .drop("place")
                .rename({"match_id": "match"})
            )
            rows = [
                row
                for row in frame.iter_rows(named=True)
                if (not kinds or row["kind"] in kinds) and Severity(row["severity"]).level >= minimum.level
            ][:top]
        unanalysed = store.query("SELECT count(*) AS n FROM matches WHERE analysed_at IS NULL")["n"][0]
        shallow = store.query(
            "SELECT count(*) AS n FROM matches WHERE coalesce(analysis_depth, '') <> 'solver' "
            "AND ($1 IS NULL OR match_id = $1)",
            [match_id],
        )["n"][0]
        outdated = store.query(
            "SELECT count(*) FILTER (WHERE analysis_depth = 'solver') AS solver, count(*) AS n FROM matches "
            "WHERE analysed_at IS NOT NULL AND coalesce(analysis_revision, 0) < $2 "
            "AND ($1 IS NULL OR match_id = $1)",
            [match_id, ANALYSIS_REVISION],
        ).row(0)
        dummies = set(store.query("SELECT match_id, deal, seat FROM deal_seats WHERE is_dummy").iter_rows())
    if top is not None:
        return (
            [
                _ranked_json(_with_explanation(row, lang, dummies), rank, lang)
                for rank, row in enumerate(rows, start=1)
            ],
            int(unanalysed),
            int(shallow),
            (int(outdated[1]), int(outdated[0])),
        )
    return (
        [_with_explanation(row, lang, dummies) for row in frame.iter_rows(named=True)],
        int(unanalysed),
        int(shallow),
        (int(outdated[1]), int(outdated[0])),
    )


def _with_explanation(row: dict[str, Any], lang: str, dummies: set[tuple[Any, ...]]) -> dict[str, Any]:
    """A stored finding in the JSON contract; ``dummies``: the dummy's seats, by match and deal."""
    english = row["explanation"]
    shown = row["explanation_nl"] if lang == "nl" and row["explanation_nl"] else english
    return {
        **row,
        "better": list(row["better"] or []),
        "explanation": shown,
        "explanation_en": english,
        "explanation_nl": row["explanation_nl"],
        "detector": row["detector"],
        "dummy": (row["match"], row["deal"], row["seat"]) in dummies,
    }


def _ledger_summaries(db: str | None, player: str | None, match_id: str | None) -> list[dict[str, Any]]:
    """Each player's ledger (``player_ledger``): over the match with ``--match``, else over all time."""
    with _open_archive(db, read_only=True) as store:
        rows = store.player_ledger("match" if match_id else "all", match_id=match_id, player=player)
    return [
        {key: (str(value) if key == "evening" and value is not None else value) for key, value in row.items()}
        for row in rows.drop("deal").iter_rows(named=True)
    ]


def _file_depth(
    replayed: ReplayedRecords, depth: str | None
) -> tuple[Iterator[tuple[Record, MatchResult]], str, Counter[str]]:
    """The records of some files with the depth to review them at: ``depth``, or (``None``) the
    solver for at most :data:`~.common.AUTO_SOLVER_DEALS` four-player deals' work, else the fast
    scan. The solver's records are read at once (its progress needs the total); the others
    stream. The counter counts the deals of each variant as they go by."""
    counted: Counter[str] = Counter()

    def counting(pairs: Iterator[tuple[Record, MatchResult]]) -> Iterator[tuple[Record, MatchResult]]:
        for pair in pairs:
            counted[pair[1].rules.variant] += len(pair[1].deals)
            yield pair

    records = counting(iter(replayed))
    if depth is not None and depth != "solver":
        return records, depth, counted
    held = []
    for pair in records:
        held.append(pair)
        if depth is None and review_effort(counted) > AUTO_SOLVER_DEALS:
            return _chain(held, records), "heuristic", counted
    return iter(held), "solver", counted


def _chain(
    first: list[tuple[Record, MatchResult]], rest: Iterator[tuple[Record, MatchResult]]
) -> Iterator[tuple[Record, MatchResult]]:
    yield from first
    yield from rest


def _file_findings(
    paths: Sequence[str],
    player: str | None,
    kinds: list[str],
    minimum: Severity,
    match_id: str | None,
    lang: str,
    *,
    depth: str | None = None,
    samples: int = 50,
    top: int | None = None,
    quiet: bool = False,
) -> tuple[list[dict[str, Any]], int, str | None]:
    """The findings of record files, reviewed on the spot (the solver review for a few deals);
    the number of records refused; a note when the fast scan ran instead of the solver review."""
    from ..analysis import Finding
    from ..analysis.ranking import rank_findings
    from ..engine.report import player_names

    if unknown := _unknown_kinds(kinds):  # no coach detector runs here: before a review of minutes
        raise click.BadParameter(unknown, param_hint="--kind")
    replayed = ReplayedRecords(paths, match_id)
    pairs, chosen, counted = _file_depth(replayed, depth)
    found: list[Finding] = []
    costs: dict[tuple[Any, ...], Cost] = {}
    people: dict[str, int] = {}  # of each match: a seat past them is the dummy's
    played: set[str] = set()  # who played, to refuse a --player who did not
    if chosen == "solver":
        held = list(pairs)
        people = {result.id: result.rules.shape.people for _, result in held}
        played = {name for _, result in held for deal in result.deals for name in player_names(result, deal)}
        if player is not None and held and player.lower() not in {name.lower() for name in played}:
            raise no_such_player(player, played, "these records")  # before the review, not after it
        found, costs = _solve_files(held, counted.total(), samples, quiet)
    else:
        for record, result in pairs:
            people[result.id] = result.rules.shape.people
            played.update(name for deal in result.deals for name in player_names(result, deal))
            found.extend(analyse(result, record, strategy=chosen != "rules"))
    replayed.check_found()
    if player is not None and played and player.lower() not in {name.lower() for name in played}:
        raise no_such_player(player, played, "these records")
    note = None
    if depth is None and chosen != "solver":
        how = "give --depth solver" + (", or choose a match with --match ID" if len(people) > 1 else "")
        note = fast_scan_note(counted.total(), review_effort(counted), how)
    mine = [f for f in found if player is None or (f.player or "").lower() == player.lower()]

    def wanted(finding: Finding) -> bool:
        return (not kinds or finding.kind in kinds) and finding.severity.level >= minimum.level

    if top is None:
        return (
            [f.to_json(lang, people=people.get(f.match)) for f in mine if wanted(f)],
            replayed.invalid,
            note,
        )
    ranked = [r for r in rank_findings(mine, costs) if wanted(r.finding)][:top]
    return (
        [
            _ranked_finding_json(r, rank, lang, people.get(r.finding.match))
            for rank, r in enumerate(ranked, start=1)
        ],
        replayed.invalid,
        note,
    )


def _ranked_finding_json(ranked: RankedFinding, rank: int, lang: str, people: int | None) -> dict[str, Any]:
    from ..analysis.ranking import call_of

    finding = ranked.finding
    row = {
        **finding.to_json(lang, people=people),
        "view_cost": ranked.view_cost,
        "dd_cost": ranked.dd_cost,
        "multiplier": ranked.multiplier,
        "view_points": ranked.view_points,
        "hindsight_best": list(ranked.hindsight_best),
        "call": call_of(finding.kind, finding.trick),
    }
    return _ranked_json(row, rank, lang)


def _solve_files(
    pairs: list[tuple[Record, MatchResult]], deals: int, samples: int, quiet: bool
) -> tuple[list[Any], dict[tuple[Any, ...], Cost]]:
    """The solver review of some matches: their findings, and what each decision cost."""
    from ..analysis.costs import can_solve
    from ..analysis.deal_analysis import ProgressMeter, analyse_match
    from ..analysis.ranking import costs_of_plays

    bar = None if quiet or not deals else _SolverProgress(deals)
    # the time left by each deal's expected work: a two-player open deal is some 140 of the others
    work = sum(
        review_effort({result.rules.variant: sum(can_solve(d, result.rules) for d in result.deals)})
        for _, result in pairs
    )
    listen = (lambda now: bar.update(1, now)) if bar is not None else (lambda now: None)
    meter = ProgressMeter(deals, listen, work=work)
    found: list[Any] = []
    costs: dict[tuple[Any, ...], Cost] = {}
    try:
        for record, result in pairs:
            try:
                match = analyse_match(result, record, samples=samples, on_deal=meter.counter(result.rules))
            except Exception as error:  # one match the solver cannot take: its plain findings
                click.echo(
                    f"match {result.id!r}: the solver review failed ({type(error).__name__}: {error}); "
                    "its findings are the fast scan's: please report it",
                    err=True,
                )
                found.extend(analyse(result, record))
                continue
            for problem in match.problems:
                click.echo(problem, err=True)
            found.extend(match.findings)
            multipliers = {deal.number: deal.multiplier or 1 for deal in result.deals}
            costs.update(
                costs_of_plays(
                    result.id,
                    (
                        (
                            number,
                            c.trick,
                            c.play,
                            c.seat,
                            c.view_cost,
                            c.dd_cost,
                            multipliers[number],
                            tuple(str(card) for card in c.hindsight_best),
                        )
                        for number, plays in match.costs.items()
                        for c in plays
                    ),
                    (
                        (review.deal, review.seat, call, review.loss)
                        for call, review in match.reviews
                        if review.loss is not None
                    ),
                )
            )
    finally:
        if bar is not None:
            bar.render_finish()
    return found, costs


def _hand(finding: dict[str, Any], lang: str) -> str:
    """Whose card it was: the player's own, or the dummy's (``Anna's dummy``), the dealer's
    decision and so under the dealer's name in ``player``."""
    from ..engine.results import dummy_name

    return dummy_name(finding["player"], lang) if finding.get("dummy") else str(finding["player"])


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
        who = f" {_hand(f, lang)}" if f["player"] else ""
        points = f" ({(points_nl if dutch else points_en)(f['points'])})" if f["points"] else ""
        if points and f["kind"] == "hindsight_only":  # read as a cost beside "not a mistake"
            points = f"{points[:-1]} {'met alle kaarten open' if dutch else 'with every hand known'})"
        kind = kind_name(f["kind"], lang) if dutch else f["kind"]  # English: the name --kind takes
        click.echo(f"  {place}{who}: {severity_name(f['severity'], lang)} {kind}{points}")
        click.echo(f"    {f['explanation']}")


def _echo_top(findings: list[dict[str, Any]], top: int, player: str | None, lang: str) -> None:
    from ..analysis.words import kind_name, severity_name

    dutch = lang == "nl"
    if not findings:
        # said why and what else to ask: "No decisions to rank." read as nothing found at all
        click.echo(
            "Geen beslissingen om te rangschikken: geen fout komt tot een onnauwkeurigheid; zonder "
            "--top ziet u elke bevinding, ook de opmerkingen."
            if dutch
            else "No decisions to rank: no mistake reaches an inaccuracy; without --top you see every "
            "finding, the notes (info) too."
        )
        return
    if dutch:
        what = "De duurste beslissing" if top == 1 else f"De {top} duurste beslissingen"
        click.echo(what + (f" van {player}" if player else "") + ":")
    else:
        what = "costliest decision" if top == 1 else f"{top} costliest decisions"
        click.echo(f"{player + chr(39) + 's' if player else 'The'} {what}:")
    places = {"deal": "spel", "trick": "slag", "play": "kaart"} if dutch else {}
    for f in findings:
        place = " ".join(
            f"{places.get(name, name)} {f[name]}" for name in ("deal", "trick", "play") if f[name] is not None
        )
        who = f", {_hand(f, lang)}" if f["player"] else ""
        kind = kind_name(f["kind"], lang) if dutch else f["kind"]
        click.echo(f"{f['rank']:>2}. {f['match']} {place}{who}: {severity_name(f['severity'], lang)} {kind}")
        click.echo(f"    {f['cost']}")
        click.echo(f"    {f['explanation']}")


@click.command()
@click.argument("paths", nargs=-1, type=click.Path())
@db_option(
    "Read the findings stored in this archive (default without PATH: $MANILLEN_DB or ./manillen.duckdb)."
)
@click.option(
    "--player", metavar="NAME", callback=player_name, help="Only findings about this player (any case)."
)
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
    help="Leave out findings below this severity. The list in words leaves out the notes (info) "
    "unless this or --kind is given; --json and --top are as before.",
)
@click.option("--match", "match_id", metavar="ID", help="Only the match with this id.")
@click.option(
    "--top",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Only the N costliest decisions (one finding each, info left out), the costliest first, "
    "by the cost from what the player could see in points of the score (the solver's), then by points.",
)
@click.option(
    "--depth",
    type=click.Choice(ANALYSIS_DEPTHS, case_sensitive=False),
    default=None,
    help="Record files: how deep to review them (default: solver for at most "
    f"{AUTO_SOLVER_DEALS} four-player deals' work, else heuristic, the fast scan). An archive's depth is "
    "`manillen analyze`'s.",
)
@SAMPLES_OPTION
@WAIT_OPTION
@QUIET_OPTION
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
    top: int | None,
    depth: str | None,
    samples: int,
    wait: float,
    quiet: bool,
    as_json: bool,
    lang: str,
) -> None:
    """List the mistakes found, with an explanation in the players' own words.

    Give record files (.json, .jsonl, .mnl, folders, or - for standard input) to review them on
    the spot, without an archive: the solver review (what every card and call cost) for up to 60
    four-player deals' work (a deal of another variant counts as more: one of two players with
    open table cards as 140), the fast scan (heuristic) past that or with --depth heuristic. Or
    read what `manillen analyze` stored in an archive with --db (the default when no file is
    given). --top N lists your
    biggest mistakes: the N costliest decisions, each with its cost from what the player could see
    (and with every hand known).

    \b
    Examples:
      manillen findings data/samples/illegal-plays.json --top 3
      manillen findings data/samples/ --min-severity mistake --depth heuristic
      manillen findings --db club.duckdb --player Carla --kind missed_vetten --lang nl --json
      manillen findings --db klop.duckdb --top 5
    """
    if paths and db is not None:
        raise click.UsageError("give record files or --db, not both")
    if not paths and depth is not None:
        raise click.UsageError(
            "--depth is for record files: an archive's findings are as deep as `manillen analyze` went"
        )
    minimum = Severity.parse(min_severity)
    invalid = 0
    note = None
    with _messages():
        if paths:
            found, invalid, note = _file_findings(
                paths,
                player,
                list(kinds),
                minimum,
                match_id,
                lang,
                depth=None if depth is None else depth.lower(),
                samples=samples,
                top=top,
                quiet=quiet,
            )
        else:
            found, unanalysed, shallow, outdated = _archive_findings(
                db, player, list(kinds), minimum, match_id, lang, top, wait
            )
            if outdated[0]:
                click.echo(_outdated_note(*outdated, db or default_archive()), err=True)
            if unanalysed:
                click.echo(
                    f"{plural(unanalysed, 'match', 'matches')} in the archive "
                    f"{'is' if unanalysed == 1 else 'are'} not analysed yet: run `manillen analyze`",
                    err=True,
                )
            if top is not None and shallow:
                click.echo(
                    f"{plural(shallow, 'match', 'matches')} not reviewed by the solver: their findings "
                    "rank by points, after the costed ones; `manillen analyze --depth solver` (with "
                    "--match ID) costs them",
                    err=True,
                )
    if as_json:
        summaries = [] if paths else _ledger_summaries(db, player, match_id)
        echo_json({"findings": found, "summaries": summaries})
    elif top is not None:
        shown_player = found[0]["player"] if player is not None and found else player
        _echo_top(found, len(found), shown_player, lang)
    else:
        # the notes (info: a card unsure or costly only with hindsight) outnumber the mistakes
        # many times over: the list shows them when asked for, as the dashboard does
        given = click.get_current_context().get_parameter_source("min_severity")
        notes_hidden = given is not ParameterSource.COMMANDLINE and not kinds
        _echo_text([f for f in found if not notes_hidden or f["severity"] != "info"], lang)
        counts = Counter(f["severity"] for f in found)
        from ..analysis.words import severity_count

        detail = ", ".join(severity_count(s, counts[s], lang) for s in reversed(SEVERITIES) if counts[s])
        total = plural(len(found), *(("bevinding", "bevindingen") if lang == "nl" else ("finding",)))
        if notes_hidden and counts["info"]:
            detail += (
                "; de opmerkingen worden niet getoond: --min-severity info toont ze ook"
                if lang == "nl"
                else "; the notes are not shown: --min-severity info lists them too"
            )
        click.echo(total + (f" ({detail})" if detail else ""), err=True)
    if note is not None:
        click.echo(note, err=True)
    sys.exit(1 if invalid else 0)


COMMANDS: list[click.Command] = [analyze, findings]
