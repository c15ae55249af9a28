"""The ``manillen`` command: the one place where errors become messages for people.

Each module of this package contributes its commands; click (the CLI library) lives only here.
"""

from __future__ import annotations

import click

from .. import __version__
from . import analysis, archive, dashboard, generate, records, report, solver


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="manillen")
def cli() -> None:
    """Replay, check and analyse recorded games of Manillen.

    Start with `manillen validate FILE` to check a recorded match, `manillen replay FILE` to
    read it trick by trick, or `manillen import FILE` to put it in your archive. Every command
    has its own --help with examples.
    """


for module in (records, archive, analysis, solver, report, generate, dashboard):
    for command in module.COMMANDS:
        cli.add_command(command)


def main() -> None:
    """Entry point of the console script."""
    cli(prog_name="manillen")
