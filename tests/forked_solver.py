"""Imported by the examples' fork server only (:data:`tests.forked_commands.PRELOADED`): the
solver's compiled code loaded there once, from numba's cache, so that a forked `manillen` command
that solves finds it loaded instead of loading it itself (0.34 processor seconds in a new process,
measured 2026-12-06). A four-card ending: the search starts no thread on it, and a process with
threads must not be forked."""

from manillen_replay.analysis.what_if import warm_up

warm_up()
