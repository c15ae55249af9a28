"""The ``manillen`` command as a newcomer meets it: a quick start, and examples that run as written."""

from __future__ import annotations

import contextlib
import importlib
import inspect
import io
import json
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from manillen_replay.cli import COMMANDS, cli, command
from manillen_replay.cli.common import plural

from . import forked_commands
from .test_puzzles import check_puzzles_example
from .test_report import check_report_example

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent

HEAVY = [
    "duckdb",
    "polars",
    "pyarrow",
    "numba",
    "streamlit",
    "plotly",
    "manillen_replay.solver",
    "manillen_replay.store",
]
"""What a command loads only when it runs: together they take seconds to import."""

ORDER = ["generate", "rules", "import", "sql", "export", "analyze", "findings"]
"""Commands whose examples use what earlier ones made (a generated file, an archive)."""

SERVERS = {"dashboard"}
"""Commands that serve until stopped: their examples are parsed, not run (see test_dashboard_stop)."""


@pytest.mark.parametrize(
    "argv",
    [[], ["--help"], ["--version"], ["validate", "--help"], ["report", "--help"], ["puzzles", "--help"]],
)
def test_cli_import_and_help_load_no_heavy_module(argv: list[str]) -> None:
    """`manillen --help` answers at once: the store, polars and the solver load with their command."""
    code = (
        "import sys\n"
        "from manillen_replay.cli import cli\n"
        f"try:\n    cli({argv!r}, prog_name='manillen') if {bool(argv)!r} else None\n"
        "except SystemExit:\n    pass\n"
        f"print(','.join(m for m in {HEAVY!r} if m in sys.modules), file=sys.stderr)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stderr.strip() == ""


def test_archive_commands_that_search_nothing_load_no_compiled_solver(tmp_path: Path) -> None:
    """`manillen import`, `sql` and `findings --db` start without numba: the archive and the
    analysis read the solver's positions and errors, and only a search loads its compiled kernel
    (a third of a second of every such command's start)."""
    archive = str(tmp_path / "club.duckdb")
    runs = [
        ["import", str(ROOT / "data" / "samples" / "seed-trick.json"), "--db", archive],
        ["sql", "--db", archive, "SELECT count(*) FROM deals"],
        ["findings", "--db", archive],
    ]
    code = (
        "import sys\n"
        "from manillen_replay.cli import cli\n"
        f"for argv in {runs!r}:\n"
        "    try:\n        cli(argv, prog_name='manillen')\n"
        "    except SystemExit as end:\n        assert not end.code, (argv, end.code)\n"
        "kernels = ('numba', 'manillen_replay.solver._kernel', 'manillen_replay.solver._variant_kernel')\n"
        "print('loaded:', ','.join(m for m in kernels if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-1] == "loaded: "
    assert "1 match" in done.stderr and "0 findings" in done.stderr  # the import and findings ran


def test_archive_commands_that_import_nothing_load_no_pipeline(sample_db: Path, tmp_path: Path) -> None:
    """`manillen rules list` and `export --parquet` start without the import's pipeline (its
    Arrow batches and loader, the bulk replay: pyarrow and numpy, a third of such a command's
    start), the engine or the analysis; `sql` without those modules either (its frame comes
    through pyarrow)."""
    runs = [
        ["rules", "list", "--db", str(sample_db)],
        ["export", "--parquet", str(tmp_path / "out"), "--db", str(sample_db)],
    ]
    query = ["sql", "--db", str(sample_db), "SELECT count(*) AS n FROM deals"]
    unused = [
        "manillen_replay.bulk",
        "manillen_replay.store.batch",
        "manillen_replay.store.loader",
        "manillen_replay.engine",
        "manillen_replay.analysis",
    ]
    code = (
        "import sys\n"
        "from manillen_replay.cli import cli\n"
        "def loaded(names):\n    return ','.join(m for m in names if m in sys.modules)\n"
        f"for argv in {runs!r}:\n"
        "    try:\n        cli(argv, prog_name='manillen')\n"
        "    except SystemExit as end:\n        assert not end.code, (argv, end.code)\n"
        f"print('read:', loaded({[*unused, 'pyarrow', 'numpy']!r}))\n"
        "try:\n"
        f"    cli({query!r}, prog_name='manillen')\n"
        "except SystemExit as end:\n    assert not end.code, end.code\n"
        f"print('sql:', loaded({unused!r}))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    said = [line for line in done.stdout.splitlines() if line.startswith(("read:", "sql:"))]
    assert said == ["read: ", "sql: "], done.stdout
    assert (tmp_path / "out" / "deals.parquet").is_file()  # the export ran


PANDAS_REFUSED = (
    "import builtins\n"
    "real = builtins.__import__\n"
    "tried = []\n"
    "def guard(name, *args, **kwargs):\n"
    "    if name.split('.')[0] == 'pandas':\n"
    "        tried.append(name)\n"
    "        raise ImportError('pandas refused')\n"
    "    return real(name, *args, **kwargs)\n"
    "builtins.__import__ = guard\n"
    "from manillen_replay.cli import cli\n"
)
"""The start of a script in which every import of pandas is refused and noted in ``tried``
(pyarrow goes on without pandas when importing it fails, so refusing alone proves nothing)."""


def test_the_fast_scan_of_an_archive_loads_no_pandas(tmp_path: Path) -> None:
    """`manillen analyze --depth heuristic` stores its findings without pandas: pyarrow imports
    pandas (a fifth of a second) for any Arrow array it builds from Python values, so the
    findings go to the archive from polars."""
    archive = str(tmp_path / "club.duckdb")
    sample = str(ROOT / "data" / "samples" / "illegal-plays.json")
    subprocess.run([BIN / "manillen", "import", sample, "--db", archive], capture_output=True, check=True)
    # pyarrow goes on without pandas when importing it fails: the guard notes every attempt.
    code = (
        PANDAS_REFUSED + "try:\n"
        f"    cli(['analyze', '--db', {archive!r}, '--depth', 'heuristic', '--all'], prog_name='manillen')\n"
        "finally:\n"
        "    print('pandas tried:', tried)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert "pandas tried: []" in done.stdout.splitlines(), done.stdout
    assert "analysed 1 match (4 deals) at the heuristic depth: 6 findings" in done.stdout


def test_import_loads_no_pandas(tmp_path: Path) -> None:
    """`manillen import` builds its Arrow tables without pandas (a fifth of a second of every
    import, even of one match), through a match that replaces another (its old version kept)
    and a refused record. pyarrow goes on without pandas when importing it fails, so the guard
    notes every attempt instead of failing it."""
    archive = str(tmp_path / "club.duckdb")
    sample = ROOT / "data" / "samples" / "illegal-plays.json"
    changed = tmp_path / "changed.jsonl"
    document = json.loads(sample.read_text())
    document["match"]["venue"] = "De Zwaan"
    changed.write_text(json.dumps(document) + "\n" + '{"not": "a record"}\n')
    code = (
        PANDAS_REFUSED + "for path in " + repr([str(sample), str(changed)]) + ":\n"
        "    try:\n"
        f"        cli(['import', path, '--db', {archive!r}], prog_name='manillen')\n"
        "    except SystemExit as end:\n"
        "        print('exit', end.code)\n"
        "print('pandas tried:', tried)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "pandas tried: []"
    assert "replaced 1 (" in done.stdout and "refused 1" in done.stdout


def test_every_command_of_every_module_is_registered() -> None:
    """A command added to a module's COMMANDS is reachable: it has its line in cli.COMMANDS."""
    import pkgutil

    import manillen_replay.cli as package

    defined = {}
    for module in pkgutil.iter_modules(package.__path__):
        loaded = importlib.import_module(f"manillen_replay.cli.{module.name}")
        defined.update({c.name: module.name for c in getattr(loaded, "COMMANDS", [])})
    assert defined == {name: module for name, (module, _) in COMMANDS.items()}


def test_help_lists_every_command_with_its_short_help() -> None:
    """The listing of `manillen --help` is the commands' own short help, whole."""
    listing = CliRunner().invoke(cli, ["--help"]).output
    for name, (_, short) in COMMANDS.items():
        assert re.search(rf"^  {name} +{re.escape(short)}$", listing, re.M), name
        assert command(name).name == name and command(name).get_short_help_str(200) == short


def test_plural_says_one_deal_and_two_deals() -> None:
    assert [plural(n, "deal") for n in (0, 1, 2)] == ["0 deals", "1 deal", "2 deals"]
    assert plural(1, "irregularity", "irregularities") == "1 irregularity"


@pytest.mark.parametrize("name", list(COMMANDS))
def test_help_shows_each_indented_line_whole_at_80_columns(name: str) -> None:
    """An example (or its output) in a command's help stays one line in an 80-column terminal:
    click re-wraps a paragraph that has no \\b before it, and the example no longer reads as typed."""
    doc = inspect.cleandoc(command(name).help or "")
    environment = {**os.environ, "COLUMNS": "80"}
    shown = subprocess.run(
        [str(BIN / "manillen"), name, "--help"], capture_output=True, text=True, env=environment, check=True
    ).stdout
    lines = {line.strip() for line in shown.splitlines()}
    for line in doc.splitlines():
        if line.startswith("  ") and line.strip() not in ("", "\\b"):
            assert line.strip() in lines, f"manillen {name} --help re-wraps: {line.strip()}"


@pytest.mark.parametrize("name", ["replay", "costs"])
def test_a_deal_the_match_does_not_have_is_a_usage_error_in_replay_and_costs(name: str) -> None:
    """Same situation, one exit code: `replay --deal 99` printed the match without deals, exit 0."""
    sample = str(ROOT / "data" / "samples" / "seed-trick.json")
    result = CliRunner().invoke(
        cli, [name, sample, "--deal", "2", *(["--hindsight"] if name == "costs" else [])]
    )
    assert result.exit_code == 2
    assert "match seed-trick has no deal 2 (it has 1)" in result.output


def test_replay_of_a_folder_leaves_out_the_matches_without_the_deal_and_names_them() -> None:
    """`replay data/samples/ --deal 2` printed the first match's deal 2, then stopped with a usage
    error at a match of one deal: the rest were never replayed."""
    result = CliRunner().invoke(cli, ["replay", str(ROOT / "data" / "samples"), "--deal", "2"])
    assert result.exit_code == 0, result.output
    assert "Deal 2" in result.stdout and result.stdout.count("Deal 1 ") == 0
    assert "left out " in result.stderr and "with no deal 2 (deals they have): " in result.stderr
    assert "seed-trick (1)" in result.stderr or " more" in result.stderr
    none = CliRunner().invoke(cli, ["replay", str(ROOT / "data" / "samples"), "--deal", "99"])
    assert (
        none.exit_code == 2
        and "no match has a deal 99: " in none.output
        and not none.stdout.startswith("Match")
    )


ARCHIVE_READERS = {
    "sql": ["SELECT 1"],
    "findings": [],
    "export": ["--records", "out.jsonl"],
    "analyze": [],
    "report": ["--match", "seed-trick", "--player", "Anna", "--out", "r.html"],
    "import-analysis": ["."],
}
"""The commands that read an archive, each with what it needs besides --db."""


@pytest.mark.parametrize("name", list(ARCHIVE_READERS))
def test_a_missing_archive_is_a_usage_error_in_every_command(name: str, tmp_path: Path) -> None:
    """Same situation, one exit code: a missing --db file is exit 2, as every missing file is
    (sql, findings, export, analyze, report and import-analysis said so with exit 1)."""
    missing = str(tmp_path / "none.duckdb")
    with contextlib.chdir(tmp_path):
        result = CliRunner().invoke(cli, [name, *ARCHIVE_READERS[name], "--db", missing])
    assert result.exit_code == 2, result.output
    message = f"no archive at {missing!r}: create one with `manillen import FILE --db {missing}`"
    assert message in result.output
    assert "Traceback" not in result.output and not (tmp_path / "none.duckdb").exists()


def test_a_file_or_archive_the_system_refuses_is_one_line_in_any_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What no command put in words itself still ends in one line naming the file (exit 1)."""
    import duckdb

    from manillen_replay.cli import tokens as tokens_module
    from manillen_replay.store import Store

    def refused(*_args: object, **_kwargs: object) -> None:
        raise PermissionError(13, "Permission denied", str(tmp_path / "served.access.json"))

    monkeypatch.setattr(tokens_module, "issue", refused)
    (tmp_path / "served.duckdb").write_bytes(b"")  # the archive is there: no note that it is not
    result = CliRunner().invoke(cli, ["tokens", "issue", "viewer", "--db", str(tmp_path / "served.duckdb")])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.output
    assert result.stderr == f"Error: cannot use {str(tmp_path / 'served.access.json')!r}: Permission denied\n"

    def full(*_args: object, **_kwargs: object) -> None:
        raise duckdb.IOException('IO Error: Could not write file "club.duckdb.wal": No space left on device')

    monkeypatch.setattr(Store, "save_club_rules", full)
    db = str(tmp_path / "club.duckdb")
    result = CliRunner().invoke(cli, ["rules", "save", "vrij", "--db", db])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.output
    assert result.stderr == (
        "Error: the archive could not be read or written: "
        'could not write file "club.duckdb.wal": No space left on device\n'
    )


def test_a_one_point_trick_and_a_one_point_card_say_point() -> None:
    trick = CliRunner().invoke(cli, ["legal", "--trump", "D", "--leader", "1", "--trick", "JC 7C 8C 9C"])
    assert trick.output == "Seat 1 wins the trick with JC: 1 point.\n"
    card = CliRunner().invoke(cli, ["solve", "--trump", "none", "--leader", "1", "--hands", "JC/7C/8C/9C"])
    assert "  JC    1 point   best\n" in card.output


@pytest.mark.parametrize(
    ("hands", "trick", "said"),
    [
        ("AC KC/10C 8C/QC 7C/JC", "", "seat 4 holds 1 card but should hold 2"),
        ("KC 9D/10C 8C/QC 7C/JC 9C", "AC", "seat 1 holds 2 cards but should hold 1"),
        ("AC KC/10C 8C/QC 7C", "", "four hands separated by '/', seats 1 to 4, such as "),
        ("AC KC/10C 8C/QC 7C", "", "(got 3: 'AC KC/10C 8C/QC 7C')"),
        ("", "", "(got nothing)"),
    ],
)
def test_solve_names_the_seats_as_its_options_do(hands: str, trick: str, said: str) -> None:
    """--leader and --hands count seats 1 to 4: so do the messages on a position that cannot be."""
    result = CliRunner().invoke(
        cli, ["solve", "--trump", "H", "--leader", "1", "--hands", hands, "--trick", trick]
    )
    assert result.exit_code == 2 and said in result.output, result.output


def test_output_in_an_encoding_without_the_suits_symbols_is_written_not_a_traceback() -> None:
    """A Windows console redirected to a file writes cp1252, which has no ♥: the symbol is
    written escaped and the command ends as usual."""
    sample = Path(__file__).resolve().parent.parent / "data" / "samples" / "seed-trick.json"
    done = subprocess.run(
        [sys.executable, "-c", "from manillen_replay.cli import main; main()", "replay", str(sample)],
        capture_output=True,
        env={**os.environ, "PYTHONIOENCODING": "cp1252"},
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode("cp1252")
    assert b"trump \\u2666 koeken" in done.stdout and b"Traceback" not in done.stderr


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs Linux's /dev/full")
@pytest.mark.parametrize("args", [["replay", "SAMPLE"], ["convert", "SAMPLE", "-", "--to", "mnl"]])
def test_output_redirected_to_a_full_disk_is_one_line_not_a_traceback(args: list[str]) -> None:
    """`export --records - > backup.jsonl` on a full disk ended in a 30-line traceback: one line
    says the output is incomplete, exit code 1."""
    sample = Path(__file__).resolve().parent.parent / "data" / "samples" / "seed-trick.json"
    given = [str(sample) if arg == "SAMPLE" else arg for arg in args]
    command = [sys.executable, "-c", "from manillen_replay.cli import main; main()", *given]
    with open("/dev/full", "w") as full:
        done = subprocess.run(command, stdout=full, stderr=subprocess.PIPE, check=False)
    err = done.stderr.decode()
    assert done.returncode == 1, err
    assert "could not write the output: No space left on device; what was written is incomplete" in err
    assert "Traceback" not in err


def _help_examples() -> list[tuple[str, str, str | None]]:
    """``(command, example, output shown under it or None)`` from every command's --help."""
    found = []
    names = sorted(COMMANDS, key=lambda n: ORDER.index(n) if n in ORDER else len(ORDER))
    helps = []
    for name in names:
        shown_command = command(name)
        with click.Context(shown_command, info_name=f"manillen {name}") as context:
            helps.append((name, shown_command.get_help(context)))
        if isinstance(shown_command, click.Group):  # each subcommand's help, in the order defined
            for sub_name, sub in shown_command.commands.items():
                with click.Context(sub, info_name=f"manillen {name} {sub_name}") as context:
                    helps.append((name, sub.get_help(context)))
    for name, text in helps:
        lines = text.splitlines()
        for index, line in enumerate(lines):
            # a line that starts with `manillen`, or pipes into it (`cat x.mnl | manillen convert - -`)
            hit = re.fullmatch(r"\s*(?:Example: )?((?:[a-z]\S*[^|]*\| *)?manillen \S.*)", line)
            if hit is None:
                continue
            # Output shown under an example: the indented lines after one blank line.
            shown: list[str] = []
            if (
                index + 2 < len(lines)
                and not lines[index + 1].strip()
                and lines[index + 2].startswith("    ")
            ):
                rest = lines[index + 2 :]
                for following in rest:
                    if not following.strip() or re.match(r"\s*manillen ", following):
                        break
                    shown.append(following[4:])
            found.append((name, hit.group(1), "\n".join(shown) if shown else None))
    return found


def test_help_examples_are_found() -> None:
    """The extraction the next test relies on sees every command's examples."""
    commands = {name for name, _, _ in _help_examples()}
    assert commands == set(COMMANDS)
    shown = {name: out for name, _, out in _help_examples() if out}
    piped = {example for _, example, _ in _help_examples() if "|" in example}
    assert "cat data/notation/seed-trick.mnl | manillen convert - - --to json" in piped
    assert "May play: KD" in shown["legal"] and "KC    6 points  best" in shown["solve"]


def test_every_example_in_the_readme_and_in_help_runs_as_written(tmp_path: Path) -> None:
    """Each example, typed into a shell in a folder with the repository's data/ and docs/, succeeds.

    The README's come first, in order, as a newcomer follows them; then each command's --help,
    the commands that make files and archives first.
    """
    examples = [(None, line, None) for line in sh_examples(ROOT / "README.md")] + _help_examples()
    failed = run_examples(examples, tmp_path)
    assert not failed, "\n".join(failed)
    # the files the report's and the puzzles' examples promise, checked where they were written
    # rather than by running those solver reviews a second time
    check_report_example(tmp_path)
    check_puzzles_example(tmp_path)


DOCS_RUN_ELSEWHERE = {"cluster.md": "tests/test_cluster.py, with a local scheduler for its templates"}
"""Docs whose examples another test runs through `run_examples`."""


@pytest.mark.parametrize(
    "doc", sorted(p.name for p in (ROOT / "docs").glob("*.md") if p.name not in DOCS_RUN_ELSEWHERE)
)
def test_every_example_in_the_docs_runs_as_written(doc: str, tmp_path: Path) -> None:
    """Each `manillen` line of a docs/*.md ``sh`` block succeeds, in order, in a fresh folder with
    the repository's data/ and docs/, as the README's do (cluster.md's: DOCS_RUN_ELSEWHERE)."""
    examples = sh_examples(ROOT / "docs" / doc)
    failed = run_examples([(None, line, None) for line in examples], tmp_path)
    assert not failed, "\n".join(failed)


def test_every_command_line_in_a_docs_code_block_is_run_or_a_synopsis() -> None:
    """An example cannot hide from the tests above: outside ``sh`` blocks, a `manillen` line of
    the docs is a synopsis (its optional parts in [brackets]), not something to type."""
    hidden = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        language = None
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("```"):
                language = line.strip()[3:] if language is None else None
            elif language not in (None, "sh", "python") and RUNS_MANILLEN.match(line) and "[" not in line:
                hidden.append(f"{path.name}: {line}")
    assert not hidden, "write these in a ```sh block:\n" + "\n".join(hidden)


def test_a_template_line_is_parsed_not_run_and_says_so(tmp_path: Path) -> None:
    """The one kind of docs line the examples tests do not run: a reader's own scheduler's."""
    template = "manillen analyze --db none.duckdb --depth solver --cluster tcp://scheduler:8786"
    examples = [(None, f"{template}  # template", None), (None, template, None)]
    assert run_examples(examples, tmp_path) == [
        f"{template}: a template (a tcp:// scheduler) says so in a comment"
    ]


def test_a_line_that_ran_already_runs_again_only_when_output_is_shown_under_it(tmp_path: Path) -> None:
    """The README and --help share examples: a second copy is not run, unless output is shown
    under it (checked on its own run); a line that failed runs, and fails, again."""
    append = "manillen generate --matches 1 --seed 1 >> twice.jsonl"
    legal = "manillen legal --trump D --leader 1 --trick 'AC QC 9D' --hand '8D KD 7H' | tee -a legal.txt"
    missing = "manillen validate none.json"
    examples: list[tuple[str | None, str, str | None]] = [
        (None, append, None),
        (None, f"{append}  # again", None),
    ]
    examples += [
        (None, legal, None),
        ("legal", legal, "May play: KD"),
        (None, missing, None),
        (None, missing, None),
    ]
    failed = run_examples(examples, tmp_path)
    assert [line.split(" (exit")[0] for line in failed] == [missing, missing]
    assert len((tmp_path / "twice.jsonl").read_text(encoding="utf-8").splitlines()) == 1
    assert (tmp_path / "legal.txt").read_text(encoding="utf-8").count("May play: KD") == 2


@pytest.mark.parametrize(
    "line",
    [
        "manillen legal --trump D --leader 1 --trick 'AC QC 9D' --hand '8D KD 7H'",
        "manillen validate none.json",
        "manillen replay data/samples/seed-trick.json --json",
        "manillen import data/samples/seed-trick.json --db forked.duckdb",
        "manillen nonsense",
        # the solver, whose compiled code the fork server loaded (tests/forked_solver.py)
        "manillen costs data/samples/seed-trick.json --json",
    ],
)
def test_a_forked_example_runs_as_bash_runs_it(line: str, tmp_path: Path) -> None:
    """An example run in a forked process (``forked_commands``) ends, prints and writes as the same
    line run by bash: exit code, standard output and error, and the files it makes."""
    words = shlex.split(line, comments=True)
    assert forked_commands.forkable(line, words)
    results = []
    for way in ("bash", "forked"):
        folder = tmp_path / way
        folder.mkdir()
        (folder / "data").symlink_to(ROOT / "data")
        environment = {k: v for k, v in os.environ.items() if k != "MANILLEN_DB"}
        environment["PATH"] = f"{BIN}{os.pathsep}{environment.get('PATH', '')}"
        if way == "bash":
            done = subprocess.run(["bash", "-c", line], cwd=folder, env=environment, capture_output=True)
            result = (done.returncode, done.stdout.decode(), done.stderr.decode())
        else:
            result = forked_commands.run(words, folder, environment)
        results.append((*result, sorted(p.name for p in folder.iterdir())))
    assert results[1] == results[0]


SHOWS_ITSELF = """
import json, os, sys
from pathlib import Path
shown = [sys.argv, os.getcwd(), os.environ.get("SHOWN"), sys.path[0], os.getpgid(0) == os.getpid()]
Path("shown.json").write_text(json.dumps(shown))
print("to the error stream", file=sys.stderr)
sys.exit(3)
"""


def test_a_forked_script_runs_as_python_runs_it(tmp_path: Path) -> None:
    """``forked_commands.ForkedScript`` (the browser tests' dashboard servers) runs ``python SCRIPT
    ARGS`` as Python does: the same arguments, folder, environment, ``sys.path[0]``, error output
    and exit code, in a session of its own when asked."""
    script = tmp_path / "scripts" / "show.py"
    script.parent.mkdir()
    script.write_text(SHOWS_ITSELF, encoding="utf-8")
    command = [sys.executable, str(script), "an argument", "--flag"]
    seen = []
    for way in ("python", "forked"):
        folder = tmp_path / way
        folder.mkdir()
        environment = {**os.environ, "SHOWN": way}
        if way == "python":
            done = subprocess.run(
                command, cwd=folder, env=environment, capture_output=True, text=True, start_new_session=True
            )
            code, errors = done.returncode, done.stderr
        else:
            process = forked_commands.ForkedScript(
                command, cwd=folder, env=environment, start_new_session=True
            )
            code = process.wait(timeout=60)
            errors = process.stderr.read()
        shown = json.loads((folder / "shown.json").read_text(encoding="utf-8"))
        seen.append((code, errors, shown[0], Path(shown[1]) == folder.resolve(), shown[2] == way, *shown[3:]))
    assert seen[1] == seen[0]
    assert seen[0][:2] == (3, "to the error stream\n")
    assert seen[0][-1] is True  # a session of its own: stopped with its children by os.killpg


@pytest.mark.parametrize(
    ("line", "forkable"),
    [
        ("manillen validate data/samples/  # files, .jsonl archives or folders", True),
        ('manillen sql "SELECT * FROM plays WHERE violation IS NOT NULL" --db club.duckdb', True),
        ("manillen sql 'SELECT $1' --db club.duckdb", True),
        ("manillen sql \"SELECT '$HOME'\" --db club.duckdb", False),
        ("manillen schema > manillen-1.schema.json", False),
        ("cat data/notation/muil.mnl | manillen convert - - --to json", False),
        ("MANILLEN_DB=x.duckdb manillen findings", False),
        ("manillen validate data/*.json", False),
        ("manillen analyze --db klop.duckdb --depth solver --cluster local:2", False),
        ("manillen generate --matches 1 && manillen validate x", False),
    ],
)
def test_only_a_line_a_shell_reads_nothing_in_is_forked(line: str, forkable: bool) -> None:
    assert forked_commands.forkable(line, shlex.split(line, comments=True)) is forkable


RUNS_MANILLEN = re.compile(r"manillen |.*\| *manillen ")
"""A shell line that runs `manillen`: it starts with it, or pipes into it."""

TEMPLATE = re.compile(r"\btcp://\S+")
"""A reader's own scheduler's address: a line naming one is a template (it says so in a comment)."""


def sh_examples(path: Path) -> list[str]:
    """The lines of a Markdown file's ``sh`` blocks that run `manillen`, in order."""
    examples = []
    inside = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            inside = line.strip() == "```sh"
            continue
        if inside and RUNS_MANILLEN.match(line):
            examples.append(line)
    return examples


def run_examples(
    examples: list[tuple[str | None, str, str | None]], folder: Path, scheduler: str | None = None
) -> list[str]:
    """Run ``(command, example, output shown or None)`` in order with bash in ``folder`` (given the
    repository's data/ and docs/); what failed, or printed other than shown.

    Two kinds of line are parsed (their options checked), not run: a server's (SERVERS), which
    would serve until stopped, and a template naming a reader's own `tcp://` scheduler, which
    must say so in a comment; with ``scheduler`` given, a template runs on it instead. A line
    that ran and succeeded earlier in the same folder, word for word (its comment aside), is not
    run again unless output is shown under it: the README and a command's --help give some of
    the same examples (a solver review among them), and running one twice tells nothing new.
    """
    for name in ("data", "docs"):
        (folder / name).symlink_to(ROOT / name)
    environment = {k: v for k, v in os.environ.items() if k != "MANILLEN_DB"}
    environment["PATH"] = f"{BIN}{os.pathsep}{environment.get('PATH', '')}"
    failed = []
    succeeded: set[tuple[str, ...]] = set()
    for name, example, shown in examples:
        words = shlex.split(example, comments=True)
        if tuple(words) in succeeded and shown is None:
            continue
        template = TEMPLATE.search(example.split("#")[0])
        if template and "#" not in example:
            failed.append(f"{example}: a template (a tcp:// scheduler) says so in a comment")
            continue
        if template and scheduler is not None:
            example = TEMPLATE.sub(scheduler, example)
        elif words[1] in SERVERS or template:
            try:
                command(words[1]).make_context(words[1], words[2:])
            except click.ClickException as error:
                failed.append(f"{example}: {error.format_message()}")
            continue
        if forked_commands.forkable(example, words):
            code, out, err = forked_commands.run(words, folder, environment)
        else:
            done = subprocess.run(
                ["bash", "-c", example], cwd=folder, env=environment, capture_output=True, text=True
            )
            code, out, err = done.returncode, done.stdout, done.stderr
        if code != 0:
            failed.append(f"{example} (exit {code}): {err.strip()[-300:]}")
        elif shown is not None and shown.strip() not in out:
            failed.append(f"{example}: --help of {name} shows\n{shown}\nbut it prints\n{out}")
        else:
            succeeded.add(tuple(words))
    return failed


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _serving(address: str) -> bool:
    try:
        with urllib.request.urlopen(f"{address}/_stcore/health", timeout=2) as answer:
            return bool(answer.status == 200)
    except OSError:
        return False


def test_dashboard_stops_its_streamlit_child_on_sigterm(tmp_path: Path) -> None:
    """SIGTERM to `manillen dashboard` alone (not its process group) stops the Streamlit server too."""
    port = _free_port()
    address = f"http://127.0.0.1:{port}"
    command = [str(BIN / "manillen"), "dashboard", "--db", str(tmp_path / "none.duckdb"), "--port", str(port)]
    log = tmp_path / "stderr.txt"
    with log.open("wb") as errors:
        parent = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=errors, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while not _serving(address):
            assert parent.poll() is None and time.monotonic() < deadline, "the dashboard did not start"
            time.sleep(0.3)
        parent.send_signal(signal.SIGTERM)
        assert parent.wait(timeout=30) == 0
        assert not _serving(address), "streamlit still serves after its parent stopped"
        # a user starting the dashboard sees no warnings meant for Streamlit's developers
        assert "No runtime found" not in log.read_text(encoding="utf-8", errors="replace")
    finally:  # the whole session: a streamlit left behind would keep serving
        with contextlib.suppress(ProcessLookupError):
            os.killpg(parent.pid, signal.SIGKILL)


def _largest_streamlit_script() -> tuple[str, int]:
    """The address and size of the largest script Streamlit serves to a browser."""
    import streamlit

    scripts = (Path(streamlit.__file__).parent / "static" / "static" / "js").glob("*.js")
    largest = max(scripts, key=lambda path: path.stat().st_size)
    return f"/static/js/{largest.name}", largest.stat().st_size


def test_dashboard_stops_on_sigterm_though_a_visitor_stopped_reading_a_page(tmp_path: Path) -> None:
    """A browser that asked for one of the large scripts and stopped reading it (a phone whose
    Wi-Fi dropped) no longer keeps `manillen dashboard` from stopping: SIGTERM stops it within a
    few seconds (dashboards/serve.py, GRACEFUL_SHUTDOWN_SECONDS) where it used to serve on."""
    from dashboards.serve import GRACEFUL_SHUTDOWN_SECONDS

    address, size = _largest_streamlit_script()
    kernel_buffer = int(Path("/proc/sys/net/ipv4/tcp_wmem").read_text().split()[2])
    # the premise: the script is more than the kernel holds for a reader who does not read
    assert size > kernel_buffer + 2**18, f"{address} ({size} bytes) no longer fills the send buffer"
    port = _free_port()
    command = [str(BIN / "manillen"), "dashboard", "--db", str(tmp_path / "none.duckdb"), "--port", str(port)]
    parent = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 60
        while not _serving(f"http://127.0.0.1:{port}"):
            assert parent.poll() is None and time.monotonic() < deadline, "the dashboard did not start"
            time.sleep(0.3)
        with socket.socket() as reader:
            reader.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            reader.connect(("127.0.0.1", port))
            reader.sendall(f"GET {address} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
            assert reader.recv(64).startswith(b"HTTP/1.1 200")  # the answer begun, then no more read
            time.sleep(0.5)
            asked = time.monotonic()
            parent.send_signal(signal.SIGTERM)
            assert parent.wait(timeout=GRACEFUL_SHUTDOWN_SECONDS + 15) == 0
            assert time.monotonic() - asked < GRACEFUL_SHUTDOWN_SECONDS + 5
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(parent.pid, signal.SIGKILL)


class _Terminal(io.StringIO):
    """Standard error as a person's terminal: the progress bars show."""

    def isatty(self) -> bool:
        return True


def test_a_bulk_command_shows_its_progress_and_the_time_left_on_a_terminal_only(monkeypatch) -> None:
    from manillen_replay.cli.common import progress

    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert list(progress((n for n in range(300)), "exporting", total=300)) == list(range(300))
    shown = terminal.getvalue()
    assert "exporting" in shown and "300/300" in shown
    terminal.truncate(0)
    assert list(progress(list(range(300)), "converting")) == list(range(300))  # a list tells its length
    assert "converting" in terminal.getvalue()
    terminal.truncate(0)
    assert list(progress(list(range(20)), "converting")) == list(range(20))  # too short to need one
    assert terminal.getvalue() == ""
    # the bar starts at 200 items (PROGRESS_MINIMUM of import, the same for every bulk command)
    assert list(progress(iter(range(199)), "exporting", total=199)) == list(range(199))
    assert terminal.getvalue() == ""
    assert list(progress(iter(range(200)), "exporting", total=200)) == list(range(200))
    assert "200/200" in terminal.getvalue()
    terminal.truncate(0)
    monkeypatch.setattr(sys, "stderr", io.StringIO())  # a file or a pipe: no bar
    assert list(progress(list(range(300)), "converting")) == list(range(300))
    assert sys.stderr.getvalue() == ""


def test_generate_deals_shows_its_progress_in_deals(monkeypatch, tmp_path: Path) -> None:
    """`generate --deals 60000 --out FILE` ran 53 s without a word: the matches it makes are a
    stream of no known length, so the bar counts the deals asked for."""
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    from manillen_replay.cli.generate import generate

    with pytest.raises(SystemExit) as done:
        generate.main(["--deals", "400", "--out", str(tmp_path / "g.jsonl")], standalone_mode=True)
    assert done.value.code == 0
    shown = terminal.getvalue()
    assert "generating" in shown and "400/400" in shown and not re.search(r"\b4[1-9]\d/400\b", shown), shown


def test_costs_of_a_match_without_cards_says_why_nothing_is_costed() -> None:
    """`manillen costs` of a scoresheet-only match printed nothing at all, exit 0."""
    sample = str(ROOT / "data" / "samples" / "club-evening.json")
    result = CliRunner().invoke(cli, ["costs", sample, "--hindsight"])
    assert result.exit_code == 0 and result.stdout == ""
    assert result.stderr.startswith("36 deals left out: the solver needs the hands")
    assert result.stderr.rstrip().endswith("; no deal here has them")
