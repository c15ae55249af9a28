"""`manillen` commands run in processes forked from one that has the package loaded already.

The examples tests run some 180 lines of the README, the docs and --help. Started anew, each
`manillen` process spends up to half a second importing DuckDB, polars, pyarrow and numba before
its work: over a third of those tests' processor time. A line that is one `manillen` command and
nothing a shell would read (no pipe, redirection, variable or pattern) runs instead in a process
forked from multiprocessing's fork server, which imported those modules once: the same argv
(``shlex`` splits it as the shell does), the same entry point (``manillen_replay.cli.main``), its
own process, folder, environment, standard output and error, exit code and exit handlers. Every
other line still runs in bash.
"""

from __future__ import annotations

import atexit
import contextlib
import multiprocessing
import os
import re
import runpy
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from dashboards.serve import PRELOADED as SERVER_PRELOADED

PRELOADED = [
    # the dashboard's server (dashboards/serve.py and what Streamlit's start imports)
    *SERVER_PRELOADED,
    "streamlit.web.cli",
    "streamlit.web.bootstrap",
    "streamlit.web.server.starlette.starlette_app",
    "plotly.graph_objects",
    "manillen_replay.cli",
    "duckdb",
    "polars",
    "pyarrow",
    "numpy",
    "numba",
    "manillen_replay.store",
    "manillen_replay.engine",
    "manillen_replay.analysis",
    "manillen_replay.solver",
    __name__,
    "tests.forked_solver",
]
"""What the fork server imports once, before it forks a process per command or dashboard server
(the last one loads the solver's compiled code)."""

SHELL_SYNTAX = re.compile(r"""[|&;<>()$`*?\[\]{}~!\\#]|^\s*\w+=""")
"""What a shell reads in a line outside quotes: pipes, redirections, variables, patterns, ..."""

READ_IN_DOUBLE_QUOTES = re.compile(r"[$`\\!]")
"""What a shell reads even in double quotes."""


def _unquoted(line: str) -> str:
    """``line`` with the quoted words a shell reads nothing in emptied (in single quotes, or in
    double quotes without ``$``, a backquote, a backslash or ``!``); an unclosed quote leaves it as
    it is."""
    kept: list[str] = []
    at = 0
    while at < len(line):
        quote = line[at]
        if quote not in "'\"":
            kept.append(quote)
            at += 1
            continue
        end = line.find(quote, at + 1)
        if end < 0:
            return line
        inside = line[at + 1 : end]
        kept.append(line[at : end + 1] if quote == '"' and READ_IN_DOUBLE_QUOTES.search(inside) else "''")
        at = end + 1
    return "".join(kept)


def forkable(line: str, words: list[str]) -> bool:
    """Whether the shell line ``line`` (``words``, split as the shell splits it, its comment
    dropped) is one plain `manillen` command, which a forked process runs as bash would; lines
    that start a cluster's worker processes stay in bash."""
    code = _unquoted(line).split(" #")[0].rstrip()
    plain = not SHELL_SYNTAX.search(code)
    return plain and bool(words) and words[0] == "manillen" and "--cluster" not in words


def _context() -> multiprocessing.context.ForkServerContext:
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(PRELOADED)
    return context


def run(words: list[str], folder: Path, environment: dict[str, str]) -> tuple[int, str, str]:
    """Run ``manillen words[1:]`` in ``folder`` with ``environment``: its exit code, standard
    output and standard error."""
    # outside ``folder``: a command listing or reading its folder must not find them
    with tempfile.TemporaryDirectory(prefix="manillen-forked-") as captured:
        out, err = Path(captured) / "stdout", Path(captured) / "stderr"
        arguments = (words, str(folder), environment, str(out), str(err))
        process = _context().Process(target=_command, args=arguments)
        process.start()
        process.join()
        return (
            process.exitcode if process.exitcode is not None else 1,
            out.read_text(encoding="utf-8", errors="replace"),
            err.read_text(encoding="utf-8", errors="replace"),
        )


def _enter(folder: str, environment: dict[str, str], out: str, err: str) -> None:
    """In a forked process: the command's folder and environment, its standard output and error
    written to the files ``out`` and ``err``."""
    os.chdir(folder)
    os.environ.clear()
    os.environ.update(environment)
    for descriptor, path in ((1, out), (2, err)):
        target = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(target, descriptor)
        os.close(target)


def _command(words: list[str], folder: str, environment: dict[str, str], out: str, err: str) -> None:
    """In the forked process: what the `manillen` script does, then exit as Python exits."""
    _enter(folder, environment, out, err)
    sys.argv = [str(Path(sys.executable).parent / "manillen"), *words[1:]]
    code = 0
    try:
        from manillen_replay.cli import main

        main()
    except SystemExit as stopped:
        if stopped.code is None or isinstance(stopped.code, int):
            code = stopped.code or 0
        else:
            print(stopped.code, file=sys.stderr)
            code = 1
    except BaseException:
        traceback.print_exc()
        code = 1
    finally:
        atexit._run_exitfuncs()
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
    os._exit(code)


class ForkedScript:
    """``python SCRIPT ARGS...`` run in a process forked from the fork server, with as much of
    ``subprocess.Popen`` as ``bench.record_bench.serving`` uses: ``pid``, ``poll``, ``wait`` and
    ``stderr`` (read once the process has ended; it and its folder go with this object).
    Standard output is dropped.

    Started anew, a dashboard server spends about a processor second importing Streamlit,
    pandas, Arrow, polars, DuckDB and Plotly before it serves (1.7 processor seconds a start
    against 0.8 to 0.9 forked, measured 2026-12-06). Forked, its process runs the same script
    (``dashboards/serve.py``, Streamlit's command line, the dashboard's pages) with the same
    arguments, folder and environment.
    """

    def __init__(
        self,
        command: Sequence[str],
        *,
        cwd: Path | str,
        env: dict[str, str],
        start_new_session: bool = False,
        **_streams: Any,
    ) -> None:
        if len(command) < 2 or command[0] != sys.executable or command[1].startswith("-"):
            raise ValueError(f"not a Python script's command line: {command}")
        self._captured = tempfile.TemporaryDirectory(prefix="manillen-forked-")
        errors = Path(self._captured.name) / "stderr"
        errors.touch()
        self.stderr: IO[str] = errors.open(encoding="utf-8", errors="replace")
        arguments = (list(command[1:]), str(cwd), dict(env), str(errors), start_new_session)
        self._process = _context().Process(target=_script, args=arguments)
        self._process.start()
        self.pid = self._process.pid

    def poll(self) -> int | None:
        return self._process.exitcode

    def wait(self, timeout: float | None = None) -> int:
        self._process.join(timeout)
        if self._process.exitcode is None:
            raise subprocess.TimeoutExpired(str(self._process), timeout or 0)
        return self._process.exitcode


def _script(argv: list[str], folder: str, environment: dict[str, str], err: str, new_session: bool) -> None:
    """In the forked process: what ``python SCRIPT ARGS...`` does (the script's folder first on
    ``sys.path``, the script run as ``__main__``)."""
    if new_session:
        os.setsid()
    _enter(folder, environment, os.devnull, err)
    sys.argv = list(argv)
    sys.path.insert(0, str(Path(argv[0]).resolve().parent))
    runpy.run_path(argv[0], run_name="__main__")
