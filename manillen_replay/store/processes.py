"""Other processes around an archive: who holds its lock, and the spill folders of imports that died."""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from .errors import ArchiveLockedError

_LOCK_PATTERN = re.compile(r"Conflicting lock is held in (?P<program>.*?) \(PID (?P<pid>\d+)\)")


def _describe_process(pid: int, program: str) -> tuple[str, str]:
    """What a process is, for a person (its command line when the system tells us), and that
    command line (empty when unknown)."""
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return f"{program} (process {pid})", ""
    words = [part.decode(errors="replace") for part in raw.split(b"\0") if part]
    if not words:
        return f"{program} (process {pid})", ""
    command = " ".join(Path(words[0]).name if i == 0 else w for i, w in enumerate(words))
    if len(command) > 120:
        command = command[:117] + "..."
    return f"process {pid} ({command})", command


DASHBOARD_FILES = ("streamlit_app.py", "dashboards/serve.py", "asgi_app.py")
"""Files in the command line of a dashboard's server (``manillen dashboard`` runs ``serve.py``)."""


@dataclass(frozen=True)
class LockHolder:
    """The program that holds an archive's lock, as far as the system tells."""

    pid: int | None
    """Its process id (``None`` when DuckDB did not say)."""
    description: str
    """What it is, for a person: ``process 4242 (streamlit run ...)`` or ``another program``."""
    command: str
    """Its command line (empty when unknown)."""

    @property
    def is_dashboard(self) -> bool:
        """Whether it is a dashboard's server (``manillen dashboard``, streamlit)."""
        words = self.command.split()
        program_name = words[0] if words else ""
        return (
            (program_name == "manillen" and len(words) > 1 and words[1] == "dashboard")
            or program_name == "streamlit"
            or any(part in self.command for part in DASHBOARD_FILES)
        )

    @property
    def subcommand(self) -> str:
        """The ``manillen`` command it runs (``import``, ``analyze``, ...), else empty."""
        words = self.command.split()
        return words[1] if len(words) > 1 and words[0] == "manillen" else ""

    def name(self) -> str:
        """Who it is in a sentence: ``the dashboard (process 4242)``, or :attr:`description`."""
        if self.is_dashboard:
            return f"the dashboard (process {self.pid})" if self.pid is not None else "the dashboard"
        return self.description


def lock_holder(detail: str) -> LockHolder:
    """The holder named in DuckDB's lock error ``detail``."""
    match = _LOCK_PATTERN.search(detail)
    if not match:
        return LockHolder(None, "another program", "")
    description, command = _describe_process(int(match["pid"]), match["program"])
    return LockHolder(int(match["pid"]), description, command)


def _locked_message(path: str, detail: str) -> str:
    """Who holds the archive and what to do about it, from DuckDB's lock error."""
    holder = lock_holder(detail)
    if holder.is_dashboard:
        advice = "close that dashboard, then try again"
    elif holder.subcommand in ("import", "analyze"):
        advice = "wait for it to finish, then try again"
    elif holder.command:
        advice = "close that program or wait for it to finish, then try again"
    else:
        advice = "close the program that has it open, then try again"
    return (
        f"the archive {path!r} is in use by {holder.description}; DuckDB lets one program write to "
        f"an archive at a time: {advice}"
    )


class ArchiveBusyError(ArchiveLockedError):
    """Another program holds the archive's lock (the file is fine: wait, or close that program)."""

    def __init__(self, path: str, detail: str) -> None:
        super().__init__(_locked_message(path, detail))
        self.path = path
        """The archive."""
        self.holder = lock_holder(detail)
        """Who holds it."""

    def waiting_message(self, seconds: float) -> str:
        """What a program waiting for its turn says: who has the archive, and how long it waits."""
        return (
            f"{self.holder.name()} has the archive {self.path!r} open; waiting for it "
            f"(up to {seconds:g} s)..."
        )

    def gave_up_message(self, seconds: float) -> str:
        """What a program that waited in vain says, and what to do."""
        if self.holder.is_dashboard:
            advice = "close the dashboard's tab or stop it, or wait longer with --wait SECONDS"
        elif self.holder.subcommand in ("import", "analyze"):
            advice = "let it finish, or wait longer with --wait SECONDS"
        else:
            advice = "close that program, or wait longer with --wait SECONDS"
        return (
            f"{self.holder.name()} still has the archive {self.path!r} open after {seconds:g} s "
            f"(DuckDB lets one program write to an archive at a time): {advice}, then run the "
            "same command again"
        )


def _spill_folder(archive: str) -> Path:
    """This process's folder for what DuckDB moves out of memory during an import, inside
    ``ARCHIVE.tmp/``; folders left there by processes that no longer run (a crash, a kill) go.

    DuckDB removes only its own files when it closes, so a private folder per process, removed
    after the import, is what keeps crashed imports from piling up files beside the archive.
    """
    parent = Path(archive + ".tmp")
    if parent.is_dir():
        for folder in parent.glob("import-*"):
            pid = folder.name.removeprefix("import-")
            if pid.isdigit() and int(pid) != os.getpid() and not _process_alive(int(pid)):
                shutil.rmtree(folder, ignore_errors=True)
    folder = parent / f"import-{os.getpid()}"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists, under another user
    return True
