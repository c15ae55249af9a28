"""Other processes around an archive: who holds its lock, and the spill folders of imports that died."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

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


def _locked_message(path: str, detail: str) -> str:
    """Who holds the archive and what to do about it, from DuckDB's lock error."""
    match = _LOCK_PATTERN.search(detail)
    holder, command = ("another program", "")
    if match:
        holder, command = _describe_process(int(match["pid"]), match["program"])
    words = command.split()
    program_name = words[0] if words else ""
    subcommand = words[1] if program_name == "manillen" and len(words) > 1 else ""
    if (
        subcommand == "dashboard"
        or program_name == "streamlit"
        or any(part in command for part in DASHBOARD_FILES)
    ):
        advice = "close that dashboard, then try again"
    elif subcommand in ("import", "analyze"):
        advice = "wait for it to finish, then try again"
    elif command:
        advice = "close that program or wait for it to finish, then try again"
    else:
        advice = "close the program that has it open, then try again"
    return (
        f"the archive {path!r} is in use by {holder}; DuckDB lets one program write to an archive "
        f"at a time: {advice}"
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
