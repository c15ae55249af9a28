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
import sys
import tempfile
import traceback
from pathlib import Path

PRELOADED = [
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
"""What the fork server imports once, before it forks a process per command (the last one loads
the solver's compiled code)."""

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


def _command(words: list[str], folder: str, environment: dict[str, str], out: str, err: str) -> None:
    """In the forked process: what the `manillen` script does, then exit as Python exits."""
    os.chdir(folder)
    os.environ.clear()
    os.environ.update(environment)
    for descriptor, path in ((1, out), (2, err)):
        target = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(target, descriptor)
        os.close(target)
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
