"""Where numba keeps its compiled solver, and the engine's own rule functions compiled for it.

Compiled code is cached on disk so that only the very first run compiles (about a minute on a
small machine); later processes load it in well under a second. The cache lives in
``$NUMBA_CACHE_DIR`` when that is set, otherwise in the user's cache folder
(``~/.cache/manillen-replay/numba``), never in site-packages. Inside it, a folder named after a
fingerprint of the rule code (rules.py and cards.py) holds the solver: numba notices when the
solver's own file changes, but not when a function it inlined from another file does, and
the legal-play rules it runs are the engine's (:func:`manillen_replay.rules.legal_core`).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar, cast

import numba
from numba.core import config as _numba_config

from .. import cards, rules

F = TypeVar("F", bound=Callable[..., Any])
numba_config: Any = _numba_config


def cache_root() -> Path:
    """The folder that holds the compiled solver: ``$NUMBA_CACHE_DIR`` or the user cache folder."""
    configured = os.environ.get("NUMBA_CACHE_DIR")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "manillen-replay" / "numba"


def rules_fingerprint() -> str:
    """A short hash of the rule code the solver inlines, so a rules change means a recompile."""
    digest = hashlib.sha256(numba.__version__.encode())
    for module in (rules, cards):
        digest.update(Path(module.__file__ or "").read_bytes())
    return digest.hexdigest()[:16]


CACHE_DIR = cache_root() / f"solver-{rules_fingerprint()}"
"""Where this version of the solver is cached."""


@contextmanager
def _caching_into(folder: Path) -> Iterator[None]:
    """Point numba's cache at ``folder`` while functions are declared (numba reads it then)."""
    previous = numba_config.CACHE_DIR
    numba_config.CACHE_DIR = str(folder)
    try:
        yield
    finally:
        numba_config.CACHE_DIR = previous


def compiled(function: F) -> F:
    """``function`` compiled by numba, cached in :data:`CACHE_DIR`, releasing the GIL."""
    with _caching_into(CACHE_DIR):
        return cast(F, numba.njit(cache=True, nogil=True)(function))


def inlined(function: F) -> F:
    """Like :func:`compiled`, but written into each caller: for small helpers of the search loop,
    where a call (and the reference counting of any array it takes) would cost more than the work."""
    with _caching_into(CACHE_DIR):
        return cast(F, numba.njit(cache=True, nogil=True, inline="always")(function))


legal_core: Callable[..., tuple[int, int]] = inlined(rules.legal_core)
"""The engine's legal-play rules, compiled: the very function the replay runs."""
winning_position: Callable[..., int] = inlined(rules.winning_position)
"""The engine's trick winner, compiled."""


WARM_MARK = ".warm"
"""The start of the name of the file in :data:`CACHE_DIR` that says the solver was compiled
(``make setup``'s warm-up); :func:`warm_mark` gives the whole name."""


def warm_mark() -> Path:
    """The warm-up's mark for this checkout: numba files its compiled code in :data:`CACHE_DIR`
    under the path of each source file and checks each file's time and size, so a second clone
    or worktree of the same solver shares the folder but none of the compiled code. One mark for
    the folder said "compiled" there and left its first review (and the tests) to compile."""
    place = hashlib.sha256(str(Path(__file__).resolve().parent).encode()).hexdigest()[:16]
    return CACHE_DIR / f"{WARM_MARK}-{place}"


def solver_fingerprint() -> str:
    """A short hash of the compiled files (the solver's, and the rules it inlines) as numba sees
    them, their contents, times and sizes: a change means the warm-up runs again."""
    digest = hashlib.sha256()
    inlined_rules = [Path(module.__file__ or "") for module in (rules, cards)]
    for path in [*sorted(Path(__file__).parent.glob("*.py")), *inlined_rules]:
        stat = path.stat()
        digest.update(f"{path.name} {stat.st_mtime} {stat.st_size}\n".encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def is_warm() -> bool:
    """Whether the warm-up compiled this version of the solver, in this checkout, into
    :data:`CACHE_DIR`."""
    try:
        return warm_mark().read_text().strip() == solver_fingerprint()
    except OSError:
        return False


def mark_warm() -> None:
    """Record that the warm-up compiled this version of the solver."""
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    warm_mark().write_text(solver_fingerprint() + "\n")


def main(argv: list[str]) -> int:
    """``check`` or ``mark`` (the Makefile's ``$(JIT)``): the warm-up asks whether the solver is
    compiled (exit code 0) or not (1), and marks it once compiled.

    The compiling itself is a review of a shipped sample (``make warm``): it runs the same
    compiled functions with the same types as every review, so numba caches all of them.
    """
    if argv == ["check"]:
        return 0 if is_warm() else 1
    if argv == ["mark"]:
        mark_warm()
        return 0
    print("usage: check | mark")
    return 2
