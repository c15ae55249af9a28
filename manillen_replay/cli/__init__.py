"""The ``manillen`` command: the one place where errors become messages for people.

Each module of this package contributes its commands; click (the CLI library) lives only here.
A command's module is imported when that command runs (or shows its help), so ``manillen
--version`` and ``manillen --help`` load click and nothing else (bench/startup.py times them).
"""

from __future__ import annotations

import errno
import importlib
import sys
from typing import Any

import click

from .. import __version__

COMMANDS: dict[str, tuple[str, str]] = {
    "validate": ("records", "Check recorded matches: files, archives or folders."),
    "replay": ("records", "Replay recorded matches trick by trick."),
    "legal": ("records", "Which cards may be played next, and the rule for it."),
    "convert": ("records", "Convert matches between JSON and the text notation (.mnl)."),
    "schema": ("records", "Print the JSON Schema of the record format."),
    "import": ("archive", "Put recorded matches into the archive."),
    "rules": ("rules", "Save a club's rules by name; list, show, delete them."),
    "sql": ("archive", "Ask the archive a question in SQL."),
    "export": ("archive", "Write the archive out as Parquet or as records."),
    "analyze": ("analysis", "Find the mistakes in an archive."),
    "findings": ("analysis", "List the mistakes found, with an explanation."),
    "analyze-files": ("cluster", "Solve record files into Parquet parts, for big archives."),
    "import-analysis": ("cluster", "Load what manillen analyze-files wrote into an archive."),
    "solve": ("solver", "What every card is worth in a position, all hands open."),
    "costs": ("solver", "What every card of recorded deals cost."),
    "report": ("report", "Write a match review as one self-contained HTML file."),
    "puzzles": ("puzzles", "Make puzzles from a player's own costly decisions."),
    "generate": ("generate", "Generate an archive of simulated matches."),
    "dashboard": ("dashboard", "Open the archive in the dashboard in your browser."),
    "tokens": ("tokens", "Issue, list and revoke the dashboard's tokens for a network."),
}
"""Each command: the module of this package that defines it (in its ``COMMANDS`` list), and its
line in ``manillen --help``. A new command gets a line here (tests/test_cli.py checks)."""


FULL = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})
"""Why a write to standard output (redirected to a file) fails short of a closed pipe."""


class LazyGroup(click.Group):
    """A group that imports a command's module only when the command is asked for.

    Click's documented pattern for a fast ``--help`` (Lazily Loading Subcommands); the listing
    of ``manillen --help`` comes from :data:`COMMANDS`, which also gives each command its short
    help, so the two cannot disagree.
    """

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module_name, short_help = COMMANDS[cmd_name]
        module = importlib.import_module(f"{__name__}.{module_name}")
        command: click.Command = next(c for c in module.COMMANDS if c.name == cmd_name)
        command.short_help = short_help
        return command

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command asked for; a file or an archive the system would not let it read or
        write (no permission, a full disk) that the command did not put in words itself still
        ends in one line naming the file (exit code 1), never in a traceback; a Ctrl-C the
        command did not handle ends it with exit code 130, as those that do (import, sql)."""
        try:
            return super().invoke(ctx)
        except (KeyboardInterrupt, click.Abort):
            # every command ends a Ctrl-C alike: as a shell counts it (128 + SIGINT), not as a failure
            click.echo("\ninterrupted", err=True)
            sys.exit(130)
        except OSError as error:
            if error.filename is None and error.errno in FULL:  # standard output on a full disk
                raise click.ClickException(
                    f"could not write the output: {error.strerror}; what was written is incomplete"
                ) from None
            if error.filename is None:  # not a file's problem (a closed pipe): click's own handling
                raise
            raise click.ClickException(f"cannot use {error.filename!r}: {error.strerror or error}") from None
        except Exception as error:
            duckdb = sys.modules.get("duckdb")  # loaded only by the commands that open an archive
            if duckdb is None:
                raise
            from ..store.connection import _duckdb_message, _interrupted

            if _interrupted(error) or isinstance(error, duckdb.InterruptException):
                # a Ctrl-C that reached DuckDB in a statement (a commit) comes back as its error
                click.echo("\ninterrupted", err=True)
                sys.exit(130)
            if not isinstance(error, duckdb.IOException):
                raise

            raise click.ClickException(
                f"the archive could not be read or written: {_duckdb_message(error)}"
            ) from None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section("Commands"):
            formatter.write_dl([(name, short) for name, (_, short) in COMMANDS.items()])


@click.group(
    cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100}
)
@click.version_option(__version__, prog_name="manillen")
def cli() -> None:
    """Replay, check and analyse recorded games of Manillen.

    Start with `manillen validate FILE` to check a recorded match, `manillen replay FILE` to
    read it trick by trick, or `manillen import FILE` to put it in your archive. Every command
    has its own --help with examples.
    """


def command(name: str) -> click.Command:
    """The command ``name`` of ``manillen``, its module imported (for tests and documentation).

    :raises KeyError: for a name that is not a command.
    """
    found = cli.get_command(click.Context(cli), name)
    if found is None:
        raise KeyError(name)
    return found


def main() -> None:
    """Entry point of the console script."""
    _writable_anywhere()
    cli(prog_name="manillen")


def _writable_anywhere() -> None:
    """Let the output go to a terminal or file whose encoding lacks the suits' symbols (♥, a
    Windows console redirected to a file, ``PYTHONIOENCODING=cp1252``): such a character is written
    as ``\\u2665`` rather than ending the command with a traceback. UTF-8 output is unchanged."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)  # absent when a test replaced the stream
        if reconfigure is not None and (stream.encoding or "").lower().replace("-", "") != "utf8":
            reconfigure(errors="backslashreplace")
