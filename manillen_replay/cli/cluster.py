"""The solver depth on many cores: `analyze --cluster` for an archive, `analyze-files` and `import-analysis`.

Both go through :func:`manillen_replay.solving.solve_matches`; Dask loads (from
:mod:`manillen_replay.cluster`) only when ``--cluster`` is given.
"""

from __future__ import annotations

import contextlib
import glob
import json
import os
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
import polars as pl
from msgspec import UNSET

from ..archive_defaults import ANALYSIS_REVISION
from ..engine import replay
from ..errors import InvalidRecordError
from ..record import RECORD_SUFFIXES, Entry, Record, dumps, iter_entries, loads
from ..store import Store
from .common import (
    BATCH_OPTION,
    CLUSTER_OPTION,
    QUIET_OPTION,
    SAMPLES_OPTION,
    db_option,
    existing_archive,
    plural,
)

if TYPE_CHECKING:
    from ..solving import MatchToSolve, Runner, SolvedMatch, TimedRunner
    from ..store.analyse import Progress

PART_TABLES = (
    "play_costs", "card_values", "call_decisions", "findings", "finding_lines", "player_accuracy", "matches"
)  # fmt: skip
"""What ``analyze-files`` writes for each input part, one folder per table; ``matches`` last."""
READ_CHUNK = 200
"""Matches read from the archive at a time."""
FLUSH_SECONDS = 1.0
"""Matches that came back are stored together at most this long after the first of them."""


def _runner(address: str | None) -> AbstractContextManager[Runner]:
    """A Dask runner for ``--cluster``, or this process without it."""
    from ..solving import RunHere

    if address is None:
        return nullcontext(RunHere())
    from ..cluster import open_runner, parse_address

    return open_runner(parse_address(address))


# --------------------------------------------------------------------------- analyze --cluster


@dataclass
class _OnCluster:
    """How a run on a cluster went: what ``describe`` says of it."""

    workers: int = 0
    """Worker threads when the run started."""
    runner: TimedRunner | None = None
    """The batches handed out and the time spent waiting for them."""
    seconds: float = 0.0
    """From the cluster's start to the last match stored or part written."""

    def describe(self, address: str) -> str:
        """The run on the cluster in a line: tasks, their size, the cluster's start and stop, and
        how busy the driver was (``make bench`` reads it)."""
        runner = self.runner
        if runner is None or not runner.batches:
            return f"cluster {address}: nothing to solve"
        cluster = runner.runner
        start_wait = getattr(cluster, "start_wait", 0.0)
        stop = getattr(cluster, "stop_seconds", 0.0)
        busy = max(0.0, self.seconds - runner.waited - start_wait)
        return (
            f"cluster {address}: {plural(self.workers, 'worker')}, {plural(runner.batches, 'task')} of "
            f"{runner.deals / runner.batches:.1f} deals on average; the driver waited "
            f"{start_wait:.2f} s for the cluster to start and {stop:.2f} s for it to stop, and was busy "
            f"{busy:.2f} s of {self.seconds:.2f} s"
        )


@dataclass
class ClusterOutcome(_OnCluster):
    """What ``analyze --cluster`` did."""

    matches: int = 0
    deals: int = 0
    solved: int = 0
    stored: int = 0
    """Matches stored."""
    unreadable: int = 0
    """Matches whose stored record no longer reads: left unmarked, not solved."""
    findings: dict[str, int] = field(default_factory=dict)
    """Findings stored, by category."""
    problems: list[str] = field(default_factory=list)


def _archive_matches(store: Store, ids: Sequence[str], outcome: ClusterOutcome) -> Iterator[MatchToSolve]:
    from ..solving import MatchToSolve
    from ..store.analyse import unreadable_match

    for start in range(0, len(ids), READ_CHUNK):
        # read a chunk at once: the driver writes to the archive between the matches it yields
        for match_id, data in list(store.iter_records(match_ids=list(ids[start : start + READ_CHUNK]))):
            try:
                record = loads(data, source=f"archive match {match_id}")
                result = replay(record, source=f"archive match {match_id}")
            except InvalidRecordError as error:
                # left unmarked, as the plain run leaves it: tried again once its record is fixed
                outcome.unreadable += 1
                outcome.problems.append(unreadable_match(match_id, error))
                continue
            outcome.deals += len(result.deals)
            yield MatchToSolve(record, result, data)


def _store(store: Store, solved: list[SolvedMatch], outcome: ClusterOutcome) -> None:
    """Store matches that came back: costs first, as a match counts analysed once its findings are in."""
    if not solved:
        return
    ids = [s.match_id for s in solved]
    store.save_costs(
        ids,
        pl.concat([s.play_costs for s in solved]),
        pl.concat([s.card_values for s in solved]),
        pl.concat([s.call_decisions for s in solved]),
    )
    store.save_lines(ids, pl.concat([s.finding_lines for s in solved]))
    findings = pl.concat([s.findings for s in solved])
    store.save_findings(ids, findings, depth="solver")
    outcome.stored += len(solved)
    for category, count in findings["category"].value_counts().iter_rows():
        outcome.findings[category] = outcome.findings.get(category, 0) + count


def _deal_progress(
    total: int, work: float, progress: Progress | None
) -> tuple[Any, Callable[[int, float], None]]:
    """The solver's progress display for ``total`` deals (``None`` without ``progress``), and what
    to call with each number of deals done and their work (``solve_matches``' ``on_deals``).

    :param work: the deals' expected work in four-player deals, so that the time left weighs a
        variant's deal as the solver does (a two-player deal with open table cards is a hundred
        four-player deals' work).
    """
    from ..analysis.deal_analysis import ProgressMeter

    bar = progress(total, "solving", 1) if progress is not None and total else None
    meter = ProgressMeter(total, lambda now: None, work=work)

    def on_deals(deals: int, done_work: float) -> None:
        meter.advance(deals, done_work)
        if bar is not None:
            bar.update(deals, meter.progress())

    return bar, on_deals


def analyse_archive_on_cluster(
    store: Store,
    ids: Sequence[str],
    *,
    samples: int,
    address: str,
    batch_deals: int | None,
    progress: Progress | None = None,
) -> ClusterOutcome:
    """Solve these matches of the archive on a cluster, storing each match as all of it comes back.

    :param ids: the matches, in the order to hand them out.
    :param address: ``--cluster``.
    :param batch_deals: deals per task (default: learnt).
    :param progress: makes the progress display from ``(total, "solving", 1)`` (``manillen analyze``'s,
        the plain run's), or ``None`` for none.
    :raises ClusterError: without Dask, for a bad address or an unreachable scheduler.
    """
    from ..solving import BatchSizer, TimedRunner, solve_matches

    outcome = ClusterOutcome(matches=len(ids))
    if not ids:
        return outcome  # no cluster to start (or to reach) for nothing
    from ..analysis.effort import review_effort

    total = store.deal_count(list(ids))
    bar, on_deals = _deal_progress(total, review_effort(store.deal_counts_by_variant(list(ids))), progress)
    waiting: list[SolvedMatch] = []
    first_wait = 0.0
    try:
        with _runner(address) as cluster:
            runner = outcome.runner = TimedRunner(cluster)
            outcome.workers = runner.workers
            started = time.perf_counter()
            sizer = BatchSizer(runner.workers, fixed=batch_deals)
            for solved in solve_matches(
                _archive_matches(store, ids, outcome),
                runner,
                samples=samples,
                sizer=sizer,
                total_deals=total,
                on_deals=on_deals if bar is not None else None,
            ):
                outcome.problems.extend(solved.problems)
                if not solved.complete:
                    continue  # not stored: the next run takes it again
                outcome.solved += solved.solved
                if not waiting:
                    first_wait = time.monotonic()
                waiting.append(solved)
                if time.monotonic() - first_wait >= FLUSH_SECONDS:
                    _store(store, waiting, outcome)
                    waiting = []
            _store(store, waiting, outcome)
            outcome.seconds = time.perf_counter() - started
    except KeyboardInterrupt:
        _store(store, waiting, outcome)  # what came back is kept
        raise Interrupted(outcome) from None
    finally:
        if bar is not None:
            bar.render_finish()
    return outcome


# --------------------------------------------------------------------------- analyze-files


def expand_patterns(patterns: Sequence[str]) -> list[Path]:
    """The input parts: each file the patterns name (globs, ``**`` too; folders: the files in them).

    Record files (``.json``, ``.jsonl``, ``.mnl``) and the archive's Parquet export
    (``matches.parquet``, with its ``record`` column) are parts; a folder gives those inside it.

    A file named twice, however spelt (``x.jsonl``, ``./x.jsonl``, its full path, a link to it),
    is one part: solved twice, its matches would be counted twice by whoever reads the folder.

    :raises click.UsageError: for a pattern that names nothing.
    """
    parts: dict[Path, None] = {}
    seen: set[str] = set()
    for pattern in patterns:
        found = sorted(glob.glob(pattern, recursive=True)) or ([pattern] if Path(pattern).exists() else [])
        if not found:
            raise click.UsageError(f"no file matches {pattern!r}")
        for name in found:
            path = Path(name)
            children = sorted(path.rglob("*")) if path.is_dir() else [path]
            for child in children:
                if child.is_file() and (child.suffix in RECORD_SUFFIXES or child.name == "matches.parquet"):
                    real = os.path.realpath(child)
                    if real not in seen:
                        seen.add(real)
                        parts[child] = None
    return list(parts)


def part_name(path: Path) -> str:
    """The name of a part's files in each table's folder, from the input's path as given.

    >>> part_name(Path("league/2025/jan.jsonl"))
    'part-league_2025_jan.jsonl.parquet'
    """
    cleaned = re.sub(r"[^A-Za-z0-9._-]+", "_", os.path.normpath(str(path)).lstrip("/\\"))
    return f"part-{cleaned.lstrip('.')}.parquet"


INPUTS_FOLDER = "_inputs"
"""Beside the tables' folders: each part's input as it was solved (its size and modification
time), so that an input changed since (a refused record mended) is solved again. The leading
underscore keeps Spark and Hive-style readers out of it."""


def input_stamp(path: Path, samples: int | None = None) -> dict[str, int | str]:
    """What says an input file is the one a part was solved from: its size and modification time,
    and the layouts a play it was solved with (a part of 1 layout passed as one of 3), and the
    revision of the analysis that solved it; with its full path (``path``), by which a later run
    that spells the file otherwise finds its part."""
    stat = path.stat()
    stamp: dict[str, int | str] = {"size": stat.st_size, "mtime_ns": stat.st_mtime_ns}
    if samples is not None:
        stamp["samples"] = samples
    # a part an earlier revision of the analysis made is solved again, as `manillen analyze` does
    stamp["revision"] = ANALYSIS_REVISION
    stamp["path"] = os.path.realpath(path)
    return stamp


def _same_input(kept: Any, stamp: dict[str, int | str]) -> bool:
    """Whether a part's kept stamp is ``stamp``, the path aside (a folder moved, or a stamp from
    before paths were kept, still names the same file's part)."""
    return isinstance(kept, dict) and {k: v for k, v in kept.items() if k != "path"} == {
        k: v for k, v in stamp.items() if k != "path"
    }


def _parts_by_input(out: Path) -> dict[str, str]:
    """Each input's full path and the name of the part solved from it, as the stamps kept under
    ``out`` say (those that name one)."""
    named: dict[str, str] = {}
    for kept in sorted((out / INPUTS_FOLDER).glob("*.parquet.json")):
        with contextlib.suppress(OSError, ValueError):
            stamp = json.loads(kept.read_text(encoding="utf-8"))
            if isinstance(stamp, dict) and isinstance(stamp.get("path"), str):
                named.setdefault(stamp["path"], kept.name.removesuffix(".json"))
    return named


def is_part_written(out: Path, name: str, source: Path | None = None, samples: int | None = None) -> bool:
    """Whether every table of a part is there and readable (``matches``, written last, says the
    part is whole) and, given the ``source`` it is solved from (and the ``samples`` asked), whether
    that file is unchanged since and was solved so; a part written before inputs were stamped
    counts as written."""
    if not all((out / table / name).exists() for table in PART_TABLES):
        return False
    # a file cut short (a disk that filled, a copy broken off) is no part: written again
    for table in PART_TABLES:
        try:
            pl.read_parquet_schema(out / table / name)
        except (OSError, pl.exceptions.PolarsError):
            return False
    if source is None:
        return True
    try:
        kept = json.loads((out / INPUTS_FOLDER / f"{name}.json").read_text(encoding="utf-8"))
    except FileNotFoundError:
        return True
    except (OSError, ValueError):
        return False
    return _same_input(kept, input_stamp(source, samples))


def _entries_of_part(path: Path) -> Iterator[Entry]:
    if path.suffix == ".parquet":
        frame = pl.read_parquet(path, columns=["match_id", "record"])
        for number, text in enumerate(frame["record"].to_list(), start=1):
            yield Entry(str(path), number, text.encode())
        return
    yield from iter_entries([path])


@dataclass
class _Part:
    path: Path
    name: str
    read: int = 0
    all_read: bool = False
    solved: list[tuple[int, SolvedMatch]] = field(default_factory=list)
    """Matches back, with their place in the part."""
    complete: bool = True
    games: dict[str, str] = field(default_factory=dict)
    """Each match's :func:`game_hash`, as the archive will hold its record."""


@dataclass
class FilesOutcome(_OnCluster):
    """What ``analyze-files`` did."""

    parts: int = 0
    skipped: int = 0
    written: int = 0
    matches: int = 0
    deals: int = 0
    invalid: int = 0
    problems: list[str] = field(default_factory=list)


def _file_matches(
    parts: Sequence[_Part], outcome: FilesOutcome, finished: list[_Part]
) -> Iterator[MatchToSolve]:
    from ..solving import MatchToSolve

    for part in parts:
        for entry in _entries_of_part(part.path):
            try:
                record = entry.decode()
                result = replay(record, source=entry.source, line=entry.line)
            except InvalidRecordError as error:
                outcome.invalid += 1
                for problem in error.problems:
                    outcome.problems.append(problem.describe())
                continue
            part.read += 1
            outcome.matches += 1
            outcome.deals += len(result.deals)
            part.games[result.id] = game_hash(record)
            data = entry.data if not entry.notation else dumps(record, pretty=False).encode()
            yield MatchToSolve(record, result, data, tag=(part, part.read))
        part.all_read = True
        if len(part.solved) == part.read:
            finished.append(part)


def game_hash(record: Record) -> str:
    """The SHA-256 of a record's game as an archive stores it (``matches.record``: the canonical
    record without its coach comments), the match's date, venue, event and notes left out, which
    a part keeps with each match: ``import-analysis`` loads a part's analysis only onto the game
    it was made from (a match whose venue was put right since is still that game)."""
    from ..store.batch import game_text
    from ..store.importer import game_digest

    return game_digest(game_text(record, dumps(record, pretty=False)))


def write_part(
    out: Path,
    name: str,
    solved: Sequence[SolvedMatch],
    *,
    samples: int,
    seed: int,
    stamp: dict[str, int | str] | None = None,
    games: Mapping[str, str] | None = None,
) -> None:
    """Write a part's tables, each atomically (a hidden file renamed into place), ``matches`` last.

    :param solved: the part's matches, in the order to write them.
    :param stamp: the input's :func:`input_stamp` as it was read, kept under :data:`INPUTS_FOLDER`.
    :param games: each match's :func:`game_hash` (``matches.game_hash``; null without).
    """
    from ..solving import (
        CALLS_SCHEMA,
        COSTS_SCHEMA,
        FINDINGS_SCHEMA,
        LINES_SCHEMA,
        VALUES_SCHEMA,
        accuracy_frame,
    )

    def rows(attribute: str, schema: dict[str, Any]) -> pl.DataFrame:
        frames = [getattr(s, attribute) for s in solved]
        return pl.concat(frames) if frames else pl.DataFrame(schema=schema)

    plays = rows("play_costs", COSTS_SCHEMA)
    values = rows("card_values", VALUES_SCHEMA)
    calls = rows("call_decisions", CALLS_SCHEMA)
    tables = {
        "play_costs": plays,
        "card_values": values,
        "call_decisions": calls,
        "findings": rows("findings", FINDINGS_SCHEMA),
        "finding_lines": rows("finding_lines", LINES_SCHEMA),
        "player_accuracy": accuracy_frame(plays, values, calls),
        "matches": pl.DataFrame(
            {
                "match_id": [s.match_id for s in solved],
                "deals": [s.deals for s in solved],
                "deals_costed": [s.solved for s in solved],
                "samples": [samples] * len(solved),
                "seed": [seed] * len(solved),
                "game_hash": [(games or {}).get(s.match_id) for s in solved],
                "analysis_revision": [ANALYSIS_REVISION] * len(solved),
            },
            schema={"match_id": pl.Utf8, "deals": pl.Int32, "deals_costed": pl.Int32, "samples": pl.Int32,
                    "seed": pl.Int64, "game_hash": pl.Utf8, "analysis_revision": pl.Int32},
        ),
    }  # fmt: skip
    if stamp is not None:
        folder = out / INPUTS_FOLDER
        folder.mkdir(parents=True, exist_ok=True)
        hidden = folder / f".{name}.json.writing"
        hidden.write_text(json.dumps(stamp), encoding="utf-8")
        os.replace(hidden, folder / f"{name}.json")
    for table, frame in tables.items():
        folder = out / table
        folder.mkdir(parents=True, exist_ok=True)
        hidden = folder / f".{name}.writing"
        frame.write_parquet(hidden)
        os.replace(hidden, folder / name)


def _deals_in(parts: Sequence[_Part]) -> tuple[int, float]:
    """The deals of the parts' readable records and their expected work in four-player deals
    (those with cards, by variant), for the progress's estimate: read without replaying (a
    thousandth of the solver's time), the records that do not read left out."""
    from ..analysis.effort import review_effort

    deals = 0
    with_cards: Counter[str] = Counter()
    for part in parts:
        for entry in _entries_of_part(part.path):
            with contextlib.suppress(InvalidRecordError):
                record = entry.decode()
                deals += len(record.deals)
                variant = "four" if record.match.variant is UNSET else str(record.match.variant)
                with_cards[variant] += sum(deal.hands is not UNSET for deal in record.deals)
    return deals, review_effort(with_cards)


def analyse_files(
    patterns: Sequence[str],
    out: Path,
    *,
    samples: int,
    address: str | None,
    batch_deals: int | None,
    progress: Progress | None = None,
) -> FilesOutcome:
    """Solve the matches of the input parts and write each part's tables under ``out`` once it is whole.

    Parts already written are skipped, so a run cut short resumes where it stopped.

    :param progress: makes the progress display from ``(total deals, "solving", 1)``, as
        ``manillen analyze`` does, or ``None`` for none.
    """
    from ..errors import ManillenError
    from ..solving import BatchSizer, TimedRunner, solve_matches

    outcome = FilesOutcome()
    # a file solved before under another spelling of its path keeps that part's name
    earlier = _parts_by_input(out)
    inputs = expand_patterns(patterns)
    parts = [_Part(path, earlier.get(os.path.realpath(path), part_name(path))) for path in inputs]
    named: dict[str, Path] = {}
    for part in parts:
        # parts/p1.jsonl and parts_p1.jsonl made one part's files: the second overwrote the first
        if part.name in named:
            raise ManillenError(
                f"{str(named[part.name])!r} and {str(part.path)!r} would write the same part "
                f"({part.name}): rename one of them, or solve them into separate folders"
            )
        named[part.name] = part.path
    outcome.parts = len(parts)
    todo = [p for p in parts if not is_part_written(out, p.name, p.path, samples)]
    stamps = {p.name: input_stamp(p.path, samples) for p in todo}  # as read, not as it may be when written
    outcome.skipped = len(parts) - len(todo)
    if not todo:
        return outcome
    total, work = _deals_in(todo)
    bar, on_deals = _deal_progress(total, work, progress)
    finished: list[_Part] = []

    def write_finished() -> None:
        while finished:
            part = finished.pop(0)
            if part.complete:
                in_order = [solved for _, solved in sorted(part.solved, key=lambda pair: pair[0])]
                stamp = stamps[part.name]
                write_part(out, part.name, in_order, samples=samples, seed=0, stamp=stamp, games=part.games)
                outcome.written += 1

    try:
        with _runner(address) as cluster:
            runner: Runner = cluster
            if address is not None:
                runner = outcome.runner = TimedRunner(cluster)
                outcome.workers = runner.workers
            started = time.perf_counter()
            sizer = BatchSizer(runner.workers, fixed=batch_deals)
            for solved in solve_matches(
                _file_matches(todo, outcome, finished),
                runner,
                samples=samples,
                sizer=sizer,
                total_deals=total,
                on_deals=on_deals if bar is not None else None,
            ):
                part, place = solved.tag
                outcome.problems.extend(solved.problems)
                part.complete = part.complete and solved.complete
                part.solved.append((place, solved))
                if part.all_read and len(part.solved) == part.read:
                    finished.append(part)
                write_finished()
            write_finished()
            outcome.seconds = time.perf_counter() - started
    except KeyboardInterrupt:
        raise Interrupted(outcome) from None
    finally:
        if bar is not None:
            bar.render_finish()
    return outcome


class Interrupted(KeyboardInterrupt):
    """A Ctrl-C that stopped a run on the cluster, with what it did before (what it kept)."""

    def __init__(self, outcome: ClusterOutcome | FilesOutcome) -> None:
        super().__init__()
        self.outcome = outcome


# --------------------------------------------------------------------------- commands


@click.command("analyze-files")
@click.argument("patterns", nargs=-1, required=True, metavar="PATTERN...")
@click.option(
    "--out",
    required=True,
    type=click.Path(file_okay=False),
    metavar="DIR",
    help="Where to write the Parquet parts (one folder per table; docs/sql.md).",
)
@SAMPLES_OPTION
@CLUSTER_OPTION
@BATCH_OPTION
@QUIET_OPTION
def analyze_files(
    patterns: tuple[str, ...],
    out: str,
    samples: int,
    cluster_address: str | None,
    batch_deals: int | None,
    quiet: bool,
) -> None:
    """Solve record files too big for one archive, writing the results as Parquet.

    Takes record files (.json, .jsonl, .mnl), folders of them, glob patterns (quote them to
    use `**`) or the archive's Parquet export (matches.parquet). For each input part it writes
    play_costs, card_values, call_decisions, findings, finding_lines, player_accuracy and matches under DIR,
    one file per part in a folder per table: what `manillen analyze --depth solver` stores. A
    part already written from the same input with the same --samples is skipped, so a run cut
    short resumes where it stopped; an input changed since (a refused record mended), or asked
    with other --samples, is solved again. Two inputs whose parts would share a name
    (parts/p1.jsonl and parts_p1.jsonl) are refused. DuckDB,
    polars, Spark or Trino read DIR as it is; `manillen import-analysis` loads it into an
    archive.

    \b
    Examples:
      manillen analyze-files data/samples/klop-tegenklop.json --out analysis/ --samples 5
      manillen analyze-files data/samples/muil.json --out analysis/ --samples 5 --cluster local:2
    """
    from ..errors import ManillenError
    from .analysis import _progress

    if Path(out).exists() and not Path(out).is_dir():
        raise click.BadParameter(
            f"{out!r} is not a folder: give a folder to write the parts into", param_hint="--out"
        )
    try:
        outcome = analyse_files(
            patterns,
            Path(out),
            samples=samples,
            address=cluster_address,
            batch_deals=batch_deals,
            progress=None if quiet else _progress,
        )
    except Interrupted as stop:
        done = stop.outcome
        assert isinstance(done, FilesOutcome)
        verb = "is" if done.written == 1 else "are"
        click.echo(
            f"interrupted: {plural(done.written, 'part')} written before the stop {verb} kept "
            f"({done.skipped} already there); run the same command again to write the rest",
            err=True,
        )
        sys.exit(130)
    except ManillenError as error:
        raise click.ClickException(str(error)) from None
    except OSError as error:
        raise click.ClickException(f"cannot write under {out!r}: {error.strerror}") from None
    for problem in outcome.problems:
        click.echo(problem, err=True)
    if cluster_address is not None and not quiet and outcome.written:
        click.echo(outcome.describe(cluster_address), err=True)
    click.echo(
        f"{plural(outcome.parts, 'part')}: {outcome.written} written, {outcome.skipped} already there; "
        f"{plural(outcome.matches, 'match', 'matches')} ({plural(outcome.deals, 'deal')}) solved, "
        f"{plural(outcome.invalid, 'invalid record')}"
    )
    if outcome.problems or outcome.written + outcome.skipped < outcome.parts:
        sys.exit(1)


@click.command("import-analysis")
@click.argument("directory", type=click.Path(exists=True, file_okay=False), metavar="DIR")
@db_option("The archive (default: $MANILLEN_DB or ./manillen.duckdb); it must hold the matches.")
def import_analysis(directory: str, db: str | None) -> None:
    """Load what `manillen analyze-files` wrote into an archive, part by part.

    Each part replaces the costs and built-in findings of its matches and marks them
    analysed at the solver depth, in the same transactions as `manillen analyze`. Matches
    the archive does not hold are counted and left out: import their records first. A match
    whose record in the archive is no longer the one the part was solved from (imported again
    with other cards, say; a date or venue put right leaves it the same game) is left out and
    named: run analyze-files on its new record. A part
    that cannot be read (a file cut short or missing) is left out whole, named, and the others
    are loaded; the exit code is then 1.

    Example:

      manillen import-analysis analysis/ --db club.duckdb
    """
    from ..errors import ManillenError

    path = existing_archive(db)
    root = Path(directory)
    parts = sorted(p.name for p in (root / "matches").glob("part-*.parquet"))
    # a part is whole once its matches file is there, written last: the others were cut short
    unfinished = sorted(
        {p.name for table in PART_TABLES for p in (root / table).glob("part-*.parquet")} - set(parts)
    )
    if not parts:
        raise click.ClickException(f"{directory!r} holds no parts written by `manillen analyze-files`")
    loaded = missing = deeper = 0
    stale: list[str] = []
    unread: list[str] = []
    try:
        with Store(path) as store:
            for name in parts:
                try:
                    frames = _read_part(root, name)
                except _UnreadablePart as error:
                    unread.append(str(error))
                    continue
                outcome = _load_part(store, frames)
                loaded += outcome.loaded
                missing += outcome.missing
                deeper += outcome.deeper
                stale.extend(outcome.stale)
    except ManillenError as error:
        raise click.ClickException(str(error)) from None
    read = len(parts) - len(unread)
    click.echo(f"{plural(read, 'part')}: analysis of {plural(loaded, 'match', 'matches')} loaded")
    if missing:
        click.echo(
            f"{plural(missing, 'match', 'matches')} not in the archive "
            f"{'was' if missing == 1 else 'were'} left out: import their records first",
            err=True,
        )
    if deeper:
        part, review = ("its part", "its") if deeper == 1 else ("their parts", "their")
        click.echo(
            f"{plural(deeper, 'match', 'matches')} already reviewed by the solver with more layouts a "
            f"play than {part} kept {review} deeper review",
            err=True,
        )
    for match_id in stale[:SHOWN_STALE]:
        click.echo(
            f"{match_id}: left out, its record in the archive is not the one the part was solved from "
            "(imported again since, or under a club's rules): run manillen analyze-files on the "
            "archive's record (manillen export --parquet, then its matches.parquet)",
            err=True,
        )
    if len(stale) > SHOWN_STALE:
        click.echo(f"... and {len(stale) - SHOWN_STALE} more matches changed since their part", err=True)
    for problem in unread:
        click.echo(problem, err=True)
    if unfinished:
        click.echo(
            f"{plural(len(unfinished), 'part')} not finished (no matches file: its run was cut short) "
            f"left out: {', '.join(unfinished[:3])}{', ...' if len(unfinished) > 3 else ''}; manillen "
            "analyze-files writes them",
            err=True,
        )
    if unread:
        sys.exit(1)


SHOWN_STALE = 20
"""The matches changed since their part that import-analysis names, one line each; the rest are counted."""


class _UnreadablePart(Exception):
    """A part whose files cannot all be read: its words name the file."""


def _read_part(root: Path, name: str) -> dict[str, pl.DataFrame]:
    """Every table of a part, read before anything of it is written (a file cut short stopped
    the load half way: costs stored, findings not).

    :raises _UnreadablePart: naming the file, and what to do.
    """
    frames: dict[str, pl.DataFrame] = {}
    for table in ("matches", "play_costs", "card_values", "call_decisions", "findings", "finding_lines"):
        file = root / table / name
        if table == "finding_lines" and not file.exists():
            continue  # parts written before the lines were kept have none
        try:
            frames[table] = pl.read_parquet(file)
        except (OSError, pl.exceptions.PolarsError) as error:
            said = error.strerror if isinstance(error, OSError) else None
            reason = said or (str(error).splitlines() or ["unreadable"])[0]
            raise _UnreadablePart(
                f"{file}: left out, this part cannot be read ({reason}): delete the part's files "
                f"(part {name} in each folder) and run manillen analyze-files again to write it"
            ) from None
    return frames


@dataclass
class _PartLoaded:
    """What loading one part did (:func:`_load_part`)."""

    loaded: int = 0
    missing: int = 0
    """Its matches the archive does not hold."""
    deeper: int = 0
    """Its matches the archive's solver review had solved with more layouts a play: kept."""
    stale: list[str] = field(default_factory=list)
    """Its matches whose record in the archive is another than the part's."""


def _load_part(store: Store, frames: Mapping[str, pl.DataFrame]) -> _PartLoaded:
    """Load one part read whole: its matches the archive holds, as the part's record of them, but
    those the archive's solver review solved with more layouts a play (as ``manillen analyze``
    leaves a reviewed match alone)."""
    matches = frames["matches"]
    done = _PartLoaded()
    known = store.known_match_ids(matches["match_id"].to_list())
    done.missing = matches.height - len(known)
    if known and "game_hash" in matches.columns:  # parts written before it was kept cannot be checked
        games = dict(zip(matches["match_id"].to_list(), matches["game_hash"].to_list(), strict=True))
        held = store.game_hashes(known)
        done.stale = [
            mid for mid in known if games.get(mid) is not None and games[mid] not in held.get(mid, ())
        ]
        known = [mid for mid in known if mid not in done.stale]
    if known:
        samples = dict(zip(matches["match_id"].to_list(), matches["samples"].to_list(), strict=True))
        reviewed = store.solver_samples(known)
        kept = [mid for mid in known if reviewed.get(mid, 0) > (samples.get(mid) or 0)]
        done.deeper = len(kept)
        known = [mid for mid in known if mid not in kept]
    if known:

        def part(table: str) -> pl.DataFrame:
            return frames[table].filter(pl.col("match_id").is_in(known))

        store.save_costs(known, part("play_costs"), part("card_values"), part("call_decisions"))
        if "finding_lines" in frames:
            store.save_lines(known, part("finding_lines"))
        # a part of an earlier revision (or from before parts kept it) is stored as that one's,
        # so that `manillen analyze` and the dashboard review its matches again
        revisions = (
            matches["analysis_revision"].fill_null(0) if "analysis_revision" in matches.columns else None
        )
        revision = 0 if revisions is None else min(int(r) for r in revisions.to_list())
        store.save_findings(known, part("findings"), depth="solver", revision=revision)
    done.loaded = len(known)
    return done


COMMANDS: list[click.Command] = [analyze_files, import_analysis]
