"""Commands of this group (being built)."""

import click

COMMANDS: list[click.Command] = []
