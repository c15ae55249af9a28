"""Helpers shared by the command modules: reading archives with progress, rule options, output."""

from __future__ import annotations

import contextlib
import difflib
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence, Sized
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TypeVar

import click
from click.core import ParameterSource

from ..archive_defaults import default_archive
from ..cards import Card, Suit
from ..errors import InvalidCardError, InvalidOptionError, InvalidRecordError, printable
from ..record import Entry, Record, iter_entries
from ..record.io import STDIN
from ..record.text import split_matches
from ..rules import Rules

if TYPE_CHECKING:
    from ..engine import MatchResult

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])


def say_when_typing(paths: Sequence[str]) -> None:
    """Tell a person at a terminal that ``-`` waits for records typed or pasted: with nothing
    piped in, the command would seem to hang."""
    if STDIN in paths and sys.stdin.isatty():
        click.echo("reading records from standard input: paste or type them, then Ctrl-D", err=True)


def read_entries(paths: Sequence[str]) -> list[Entry]:
    """Every document in the given files and folders, and in standard input for ``-``.

    :raises click.UsageError: for a path that does not exist (exit code 2).
    """
    say_when_typing(paths)
    try:
        return list(iter_entries(paths))
    except FileNotFoundError as error:
        raise click.UsageError(str(error)) from None
    except OSError as error:
        raise click.UsageError(f"cannot read {error.filename!r}: {error.strerror}") from None


def stream_entries(paths: Sequence[str]) -> Iterator[Entry]:
    """Every document in the given files and folders, read as they are used (a large archive is
    never held whole); every path is checked to exist first.

    :raises click.UsageError: for a path that does not exist (exit code 2).
    """
    for given in paths:
        if given != STDIN and not Path(given).exists():
            raise click.UsageError(f"no such file or folder: {printable(given)!r}")
    say_when_typing(paths)
    return iter_entries(paths)


def count_records(paths: tuple[str, ...]) -> int:
    """How many documents the paths hold (non-blank lines of JSON Lines, the matches of a text
    file, one per .json file); 0 when standard input (``-``) is among them."""
    if STDIN in paths:
        return 0  # standard input is not known until it is read: no bar rather than a wrong one
    total = 0
    for name in paths:
        path = Path(name)
        files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
        for file in files:
            suffix = file.suffix.lower()
            try:
                if suffix == ".jsonl":
                    with file.open("rb") as handle:
                        total += sum(1 for line in handle if line.strip())
                elif suffix == ".mnl":
                    total += len(split_matches(file.read_text(encoding="utf-8", errors="replace"))) or 1
                elif suffix == ".json" or not path.is_dir():
                    total += 1
            except OSError:
                total += 1  # the import reports it as one refused record
    return total


@contextmanager
def written_whole(path: Path) -> Iterator[IO[str]]:
    """A text file written beside ``path`` (a hidden ``.NAME.partial``) and renamed onto it when
    the block ends: a failed or interrupted write (a full disk, a Ctrl-C) leaves ``path`` as it
    was and nothing beside it. A ``path`` that is no regular file (``/dev/null``, a named pipe) is
    written directly. An OSError is raised as it came, for the command to word.
    """
    if path.exists() and not path.is_file():
        # /dev/null, a named pipe: written as they are (renamed over, /dev/null became a file)
        with path.open("w", encoding="utf-8", newline="\n") as handle:
            yield handle
        return
    partial = path.with_name(f".{path.name}.partial")
    try:
        with partial.open("w", encoding="utf-8", newline="\n") as handle:
            yield handle
        partial.replace(path)
    finally:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)


def refuse_to_replace(path: str | Path | None, overwrite: bool, option: str) -> None:
    """A file the user already has is replaced only when asked (``--overwrite``): a mistyped
    name could be their own records. Standard output, ``/dev/null`` and pipes are written as they are.

    :raises click.BadParameter: naming the file and the option that replaces it (exit code 2).
    """
    if path is not None and str(path) != "-" and Path(path).is_file() and not overwrite:
        raise click.BadParameter(
            f"{str(path)!r} exists: choose another file or add --overwrite", param_hint=option
        )


def check_output_file(path: str | Path | None, option: str, what: str = "it") -> None:
    """A file a command will write must have a folder to go in, and must not be an archive:
    asked before the work (a solver review of minutes), not after it. ``-`` (standard output)
    and no file pass.

    :param what: what would be written there, for the message ("the report").
    :raises click.BadParameter: naming the option and the missing folder, or the archive the
        file would destroy (exit code 2; the archive is left as it was).
    """
    from ..record.io import is_duckdb_file

    if path is None or str(path) == "-":
        return
    file = Path(path)
    if not file.parent.is_dir():
        raise click.BadParameter(
            f"{str(path)!r}: there is no folder {str(file.parent)!r} to write it in", param_hint=option
        )
    with contextlib.suppress(OSError):  # unreadable or not a file: writing it says why
        if file.is_file() and is_duckdb_file(file):
            raise click.BadParameter(
                f"{str(path)!r} is an archive (a DuckDB file): writing {what} there would destroy "
                "every match in it; choose another file",
                param_hint=option,
            )


def check_records_file(path: str | Path | None, option: str, matches: int | None) -> None:
    """A file that gets one match a line (JSON Lines) must be named ``.jsonl``, as every reader
    takes a file by its name: a ``.json`` is read as one JSON document (so only a single match
    fits it), a ``.mnl`` as the text notation. Also :func:`check_output_file`.

    :param matches: how many matches will be written, when known beforehand.
    :raises click.BadParameter: for another name (exit code 2), saying which to give.
    """
    from ..record.io import kind_of

    check_output_file(path, option, "the matches")
    if path is None or str(path) == "-" or (Path(path).exists() and not Path(path).is_file()):
        return  # standard output, /dev/null, a pipe: nothing reads it back by its name
    name = Path(path).name
    read_as = kind_of(name)  # as every reader takes the file
    if read_as == "jsonl" or (matches == 1 and name.lower().endswith(".json")):
        return
    kind = "the text notation" if read_as == "mnl" else "one JSON document"
    raise click.BadParameter(
        f"{str(path)!r} would be read back as {kind}, and this writes JSON Lines (one match a "
        f"line): name it {Path(name).stem or name}.jsonl",
        param_hint=option,
    )


def existing_archive(db: str | None, hint: str = "") -> str:
    """The archive a command reads: ``db`` (--db), else $MANILLEN_DB or the default file.

    :raises click.UsageError: when there is no such file (exit code 2, as for every missing file).
    """
    path = db or default_archive()
    if not Path(path).exists():
        raise click.UsageError(
            f"no archive at {path!r}: create one with `manillen import FILE --db {path}`{hint}"
        )
    return path


class ReplayedRecords:
    """The valid records of some files, replayed; each problem of an invalid one goes to stderr.

    Iterate for ``(record, result)`` pairs (only the match ``match_id`` when given); ``invalid``
    then counts the records refused, for the exit code.
    """

    def __init__(self, paths: Sequence[str], match_id: str | None = None, label: str | None = None) -> None:
        self.paths = paths
        self.entries = read_entries(paths)
        self.match_id = match_id
        self.label = label
        self.invalid = 0
        self.matched = 0
        self.seen: list[str] = []
        """The ids of the matches passed over, to suggest one for a mistyped ``--match``."""

    def __iter__(self) -> Iterator[tuple[Record, MatchResult]]:
        # The engine loads here, not with this module: every command imports it, and those over
        # an archive replay nothing.
        from ..engine import replay_entry

        entries = progress(self.entries, self.label) if self.label else iter(self.entries)
        for entry in entries:
            try:
                record, result = replay_entry(entry)
            except InvalidRecordError as error:
                self.invalid += 1
                for problem in error.problems:
                    click.echo(problem.describe(), err=True)
                continue
            if self.match_id is not None and result.id != self.match_id:
                self.seen.append(result.id)
                continue
            self.matched += 1
            yield record, result

    def check_found(self) -> None:
        """Complain when ``--match ID`` named a match none of the files holds.

        Call after iterating. A record that could not be read may be the one asked for, so then
        its problems (already on stderr) are the answer.

        :raises click.UsageError: when no valid record has the id (exit code 2, like a missing file).
        """
        if self.match_id is not None and not self.matched and not self.invalid:
            raise no_such_match(self.match_id, ", ".join(self.paths), self.seen)


def no_such_match(match_id: str, where: str, known: Sequence[str] = ()) -> click.UsageError:
    """The one message (and exit code 2) of every command given a ``--match`` that is not there;
    with the ids ``known`` there, the likeliest meant (a file's name is not its match's id:
    ``--match muil`` for ``muil.json`` holding ``muil-three-manilles``).

    >>> print(no_such_match("muil", "data/samples/", ["muil-three-manilles", "seed-trick"]).message)
    no match with id 'muil' in data/samples/; did you mean 'muil-three-manilles'?
    >>> print(no_such_match("x", "a.json", ["seed-trick"]).message)
    no match with id 'x' in a.json; the match there is 'seed-trick'
    """
    message = f"no match with id {match_id!r} in {where}"
    ids = list(dict.fromkeys(known))
    asked = match_id.lower()
    close = [i for i in ids if asked and asked in i.lower()][:3]
    close += [i for i in difflib.get_close_matches(match_id, ids, n=3, cutoff=0.6) if i not in close]
    if close:
        return click.UsageError(message + "; did you mean " + " or ".join(repr(i) for i in close[:3]) + "?")
    if 0 < len(ids) <= 5:
        there = "the match there is" if len(ids) == 1 else "the matches there are"
        return click.UsageError(f"{message}; {there} " + ", ".join(repr(i) for i in ids))
    return click.UsageError(message)


def player_name(_context: click.Context, _parameter: click.Parameter, value: str | None) -> str | None:
    """``--player`` as a person means it: spaces around a name pasted or typed are not part of it."""
    return value.strip() if value is not None else None


def no_such_player(player: str, players: Iterable[str], where: str) -> click.BadParameter:
    """The one message (and exit code 2) of every command given a ``--player`` who played no deal
    there: a silent "0 findings" would read as a clean sheet."""
    names = ", ".join(sorted(set(players), key=str.lower)) or "none yet"
    return click.BadParameter(
        f"{player!r} played no deal in {where} (players: {names})", param_hint="--player"
    )


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``count`` and the noun, in the plural unless there is one.

    >>> plural(1, "deal"), plural(2, "deal"), plural(0, "match", "matches")
    ('1 deal', '2 deals', '0 matches')
    """
    return f"{count} {noun if count == 1 else many or noun + 's'}"


PROGRESS_MINIMUM = 200
"""Items below which a bulk command is quick enough to need no progress bar."""


def progress(
    items: Iterable[T],
    label: str,
    *,
    total: int | None = None,
    minimum: int = PROGRESS_MINIMUM,
    size: Callable[[T], int] | None = None,
) -> Iterator[T]:
    """Iterate with a progress bar on stderr (its position and the time left) when the work is
    long and a person is watching.

    :param total: how many items there are, for items that cannot tell (a stream); with
        ``size``, how many units of work (deals, when the items are matches).
    :param size: the units of work of an item (``None``: one each).
    """
    length = total if total is not None else len(items) if isinstance(items, Sized) else 0
    if length < minimum or not sys.stderr.isatty():
        yield from items
        return
    if size is None:
        with click.progressbar(items, length=length, label=label, file=sys.stderr, show_pos=True) as bar:
            yield from bar
        return
    with click.progressbar(length=length, label=label, file=sys.stderr, show_pos=True) as units:
        for item in items:
            yield item
            # never past the end: generate's last match may run a few deals over --deals
            units.update(min(size(item), max(0, length - units.pos)))


def rules_option(values: Iterable[str]) -> Rules:
    """Rules from ``--rule NAME=VALUE`` options.

    :raises click.BadParameter: for a malformed or unknown option.
    """
    options: dict[str, Any] = {}
    for item in values:
        if "=" not in item:
            raise click.BadParameter(
                f"{item!r} is not NAME=VALUE (for example partner_exempt=false)", param_hint="--rule"
            )
        name, value = item.split("=", 1)
        name = name.strip()
        if name in options:
            raise click.BadParameter(
                f"{name} is given twice ({name}={options[name]}, then {item.strip()}): keep one",
                param_hint="--rule",
            )
        options[name] = value.strip()
    try:
        return Rules.from_options(options)
    except InvalidOptionError as error:
        raise click.BadParameter(str(error), param_hint="--rule") from None


def _trump_text(_context: click.Context, _parameter: click.Parameter, value: str) -> str:
    """``--trump`` as a suit letter (``none`` for muil), whichever way the suit was typed."""
    if value.strip().lower() in ("none", "muil"):
        return "none"
    try:
        return Suit.parse(value).name
    except InvalidCardError as error:
        raise click.BadParameter(f"{error}, or none for muil") from None


TRUMP_OPTION = click.option(
    "--trump",
    required=True,
    metavar="SUIT",
    callback=_trump_text,
    help="The trump suit: H, D, C or S (or ♥ ♦ ♣ ♠, harten, koeken ...), or none for muil.",
)
"""``--trump H|D|C|S|none`` for the commands that look at one position."""

RULE_OPTION = click.option(
    "--rule",
    "rule_values",
    multiple=True,
    metavar="NAME=VALUE",
    help="A house rule, e.g. partner_exempt=false or underbuy=allowed (repeatable).",
)
"""``--rule NAME=VALUE``, read with :func:`rules_option`."""


def parse_trick(text: str | None) -> list[Card]:
    """The cards of ``--trick``, leader first.

    :raises click.BadParameter: for an unknown card or a card given twice.
    """
    try:
        cards = [Card.parse(part) for part in (text or "").replace(",", " ").split()]
    except InvalidCardError as error:
        raise click.BadParameter(str(error), param_hint="--trick") from None
    if len(set(cards)) != len(cards):
        raise click.BadParameter("a card appears twice in the trick", param_hint="--trick")
    return cards


def echo_json(value: Any) -> None:
    """Print JSON for machines (UTF-8, no ASCII escapes)."""
    click.echo(json.dumps(value, ensure_ascii=False, indent=2))


DEFAULT_SAMPLES = 50
"""Layouts a play of the solver review unless asked otherwise: what its timings are measured at."""
QUIET_OPTION = click.option(
    "--quiet",
    "-q",
    is_flag=True,
    help="No progress on stderr (the solver's: deals done, deals per second, time left).",
)
SAMPLES_OPTION = click.option(
    "--samples",
    default=DEFAULT_SAMPLES,
    show_default=True,
    type=click.IntRange(min=1),
    help="The solver depth: layouts of the hidden cards solved per play and per call reviewed.",
)
"""``--samples`` of the solver depth."""


def _check_cluster(_context: click.Context, _parameter: click.Parameter, value: str | None) -> str | None:
    """A --cluster value that is no address is a usage error, before anything is read or solved."""
    if value is None:
        return None
    from ..cluster import ClusterError, parse_address  # loads the solving layer: only when asked

    try:
        parse_address(value)
    except ClusterError as error:
        raise click.BadParameter(str(error)) from None
    return value


CLUSTER_OPTION = click.option(
    "--cluster",
    "cluster_address",
    metavar="ADDRESS",
    default=None,
    callback=_check_cluster,
    help="Solve on a Dask cluster (`manillen analyze`: with --depth solver), `tcp://HOST:8786` (a "
    "running scheduler) or `local:N` (N worker processes started here). Needs Dask: `make setup` "
    "installs it, as `pip install -e '.[cluster]'` does; see docs/cluster.md.",
)
BATCH_OPTION = click.option(
    "--batch-deals",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Deals per task on the cluster (default: learnt as tasks finish, about 4 seconds of work each).",
)


AUTO_SOLVER_DEALS = 60
"""Up to this much work to review, in four-player deals, the solver review is the default
(`findings FILE`, `analyze`): about 45 seconds at the measured 0.64 to 0.73 s a deal
(docs/solver.md); past it the fast scan (heuristic) is, with a message saying how to get the
solver review. A deal of another variant counts as several
(:data:`~manillen_replay.analysis.effort.FOUR_PLAYER_DEALS`): a single deal of two players with
open table cards is past it."""


def auto_depth(effort: float) -> str:
    """The depth of a review nobody chose one for: ``solver`` for at most :data:`AUTO_SOLVER_DEALS`
    four-player deals' work (:func:`~manillen_replay.analysis.effort.review_effort`),
    ``heuristic`` past it.

    >>> auto_depth(20), auto_depth(5000)
    ('solver', 'heuristic')
    """
    return "solver" if effort <= AUTO_SOLVER_DEALS else "heuristic"


def solver_wait(effort: float) -> str:
    """How long the solver review of this much work takes, for a person: ``effort`` in
    four-player deals.

    >>> solver_wait(20), solver_wait(360)
    ('about 14 s', 'about 4 minutes')
    """
    from ..analysis.effort import SECONDS_PER_DEAL  # the analysis package: not for every command's start

    return duration(effort * SECONDS_PER_DEAL)


def duration(seconds: float) -> str:
    """A rough duration for a person.

    >>> duration(40), duration(150), duration(3 * 3600 + 600)
    ('about 40 s', 'about 3 minutes', 'about 3.2 hours')
    """
    from ..analysis.effort import wait_in_units

    amount, unit = wait_in_units(seconds)
    return f"about {amount:.1f} hours" if unit == "hours" else f"about {amount:.0f} {unit}"


def fast_scan_note(deals: int, effort: float, how: str) -> str:
    """What a command says when it scanned (heuristic) instead of the solver review, and how to
    get the solver review.

    :param effort: the solver review's work for those deals, in four-player deals.
    """
    wait = solver_wait(effort)
    if deals > AUTO_SOLVER_DEALS:
        return (
            f"{plural(deals, 'deal')} to review: more than {AUTO_SOLVER_DEALS}, so the fast scan "
            f"(heuristic depth) ran; for the solver review, which finds the costliest mistakes, "
            f"{how} ({wait} for all of them)"
        )
    # few deals, of the dearer variants
    return (
        f"{plural(deals, 'deal')} to review, whose solver review would take {wait} (the solver takes "
        "longer on a deal of the other variants than of the four-player game), so the fast scan "
        f"(heuristic depth) ran; for the solver review, which finds the costliest mistakes, {how}"
    )


def solver_pending_note(deals: int, effort: float, how: str) -> str:
    """What ``analyze`` says when it had nothing new to scan but the solver has not reviewed
    some deals yet (the fast scan did not run: saying it ran would contradict "analysed 0")."""
    return (
        f"{plural(deals, 'deal')} not reviewed by the solver yet ({solver_wait(effort)} for all of them); "
        f"for the solver review, which finds the costliest mistakes, {how}"
    )


def _archive_name(context: click.Context, parameter: click.Parameter, value: str | None) -> str | None:
    """``--db`` as given, unless it (or $MANILLEN_DB) is empty.

    DuckDB takes an empty name for an archive in memory, so ``--db "$DB"`` with ``DB`` unset
    would import, save rules or analyse into nothing, say it was done and exit 0.

    :raises click.BadParameter: for an empty ``--db`` (exit code 2).
    :raises click.UsageError: for an empty $MANILLEN_DB (exit code 2).
    """
    if context.get_parameter_source(parameter.name or "db") is ParameterSource.COMMANDLINE:
        if value is not None and not value.strip():
            raise click.BadParameter(
                'the archive\'s name is empty (an unset shell variable in --db "$DB"?)', param_hint="--db"
            )
        return value
    environment = os.environ.get("MANILLEN_DB")
    if environment is not None and not environment.strip():
        raise click.UsageError(
            "$MANILLEN_DB is set but empty: set it to the archive's file, "
            "or unset it for manillen.duckdb here"
        )
    return value


DB_OPTION = click.option(
    "--db",
    "db",
    envvar="MANILLEN_DB",
    default="manillen.duckdb",
    show_default=True,
    metavar="FILE",
    callback=_archive_name,
    help="The archive (a DuckDB file); $MANILLEN_DB when set.",
)
"""``--db FILE`` of the commands that read an archive by default from $MANILLEN_DB or the current folder."""


def db_option(help_text: str) -> Callable[[F], F]:
    """``--db FILE`` of the commands that find the archive themselves when it is not given
    (``None``: $MANILLEN_DB or the default file), refused when empty as :data:`DB_OPTION` is."""
    return click.option(
        "--db",
        "db",
        type=click.Path(dir_okay=False),
        default=None,
        metavar="FILE",
        callback=_archive_name,
        help=help_text,
    )


WAIT_OPTION = click.option(
    "--wait",
    type=click.FloatRange(min=0),
    default=60.0,
    show_default=True,
    metavar="SECONDS",
    help="When the dashboard or another command has the archive open, wait this long for it "
    "(DuckDB lets one program write at a time; 0: do not wait).",
)
"""``--wait SECONDS`` of the commands that open an archive the dashboard may be writing to."""
