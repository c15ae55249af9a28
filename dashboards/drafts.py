"""Where the Record page keeps its work: draft files beside the archive, and saving into the archive.

Every tap is written at once to ``<archive>.drafts/<draft id>.json`` (a temporary file renamed
over the old one, so a crash never leaves half a draft). A draft file and not a table in the
archive: the dashboard holds the archive read-only, and opening it for writing on every tap
would close every session's connection and refresh every cached query. A finished deal goes
into the archive like an upload (the whole match re-imported under its id, which replaces the
previous deals' rows) and is analysed at once at the default depth, the same run as
``manillen analyze``; then it goes to the front of the dashboard's background review
(:mod:`dashboards.reviewer`), which adds the solver's costs within seconds.

Two tables may record at once into one archive. A new match's id is made unique against the
archive and every open draft (:func:`taken_ids`), and a save replaces only this table's own match:
when the archive holds something else under the id (another table's match, an upload), the
match is saved under a new id instead (:func:`save_match`).

A club evening's four to ten tables save at the same moment: the saves queue for the archive's
one writer (the lock of :meth:`dashboards.data.Archive.writing`; every session of the dashboard
is a thread of one process) and each lands once (a save id kept in the archive's ``saves``
table). Two phones at one table share the table's draft file: each write names the version it
was made from (:attr:`recording.Draft.version`), and a phone writing over a version it has not
read is told (:class:`DraftChangedError`) instead of overwriting the other's taps.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import re
import secrets
import stat
import threading
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import streamlit as st

from dashboards import data
from dashboards.recording import (
    Draft,
    RecordingError,
    now,
    record_json,
    rename,
    suggest_match_id,
    to_record,
)
from manillen_replay.engine import rules_of
from manillen_replay.errors import InvalidRecordError, ManillenError
from manillen_replay.record import Entry, Record, loads
from manillen_replay.store import ImportSummary, Store
from manillen_replay.store.analyse import AnalysisOutcome, analyse_archive

_WRITING = threading.Lock()
"""Held while a draft file's version is checked and the file written: the sessions of this
dashboard are threads, and two phones at one table must not both write over the same version."""


class DraftChangedError(RecordingError):
    """Another phone at the same table changed the draft since this one read it."""


SUFFIX = ".drafts"

MAX_DRAFTS = 200
"""The most open drafts beside one archive: a club records a few tables an evening, and a
finished match's draft can be discarded. A new draft past it is refused with a message."""
MAX_DRAFT_BYTES = 2 * 2**20
"""The largest draft file written or read, in bytes: a long club evening's draft is under 100 kB.
A draft over it is refused when saved and not read (nor listed) from the folder."""


def _refuse_new_draft(target: Path, draft_id: str) -> None:
    """Refuse a new draft when the folder holds :data:`MAX_DRAFTS` already.

    :raises RecordingError: saying so, and what to do.
    """
    if (target / f"{draft_id}.json").exists() or not target.is_dir():
        return
    count = sum(1 for _ in itertools.islice(target.glob("*.json"), MAX_DRAFTS))
    if count >= MAX_DRAFTS:
        raise RecordingError("too_many_drafts", most=MAX_DRAFTS)


def folder(archive: Path | None = None) -> Path:
    """The folder of draft files beside an archive (``club.duckdb`` -> ``club.drafts/``)."""
    path = archive if archive is not None else data.archive().path
    return path.with_name(path.stem + SUFFIX)


def new_id() -> str:
    """A fresh draft id, short enough for a page address."""
    return secrets.token_hex(4)


def _check_version(draft: Draft, target: Path) -> None:
    """Refuse to write over a version of the draft file this draft was not made from.

    :raises DraftChangedError: when the file holds another version (another phone wrote it).
    """
    on_file = load(draft.draft_id, target)
    if on_file is not None and on_file.version != draft.version:
        raise DraftChangedError("changed_meanwhile")


def save(draft: Draft, where: Path | None = None) -> Draft:
    """Write a draft (stamped with the time and its next version), replacing its previous file
    in one step.

    :raises DraftChangedError: when the file was written by another session since this draft
        was read (nothing is written; read it again with :func:`load`).
    :raises RecordingError: for a new draft when :data:`MAX_DRAFTS` are open, or a draft over
        :data:`MAX_DRAFT_BYTES` (nothing is written).
    """
    target = where or folder()
    if not is_draft_id(draft.draft_id):
        raise RecordingError("not_draft_id", draft=repr(draft.draft_id))
    with _WRITING:
        _check_version(draft, target)
        _refuse_new_draft(target, draft.draft_id)
        _write(draft, target)
    return draft


def _write(draft: Draft, target: Path) -> None:
    """Write the draft file (call with :data:`_WRITING` held); the draft's version moves on."""
    updated, draft.updated = draft.updated, now()
    draft.version += 1
    text = draft.to_json()
    size = len(text.encode("utf-8"))
    if size > MAX_DRAFT_BYTES:
        draft.updated = updated
        draft.version -= 1
        raise RecordingError("draft_too_big", size=f"{size:,}", most=f"{MAX_DRAFT_BYTES:,}")
    target.mkdir(parents=True, exist_ok=True)
    path = target / f"{draft.draft_id}.json"
    temporary = path.with_suffix(".tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


DRAFT_ID = re.compile(r"[0-9A-Za-z]{1,64}")
"""What a draft id looks like (:func:`new_id` makes 8 hex digits): ASCII letters and digits only,
so an id from the page address (``?draft=``) can name no other folder (no ``/``, ``.``, ``%``)."""


def is_draft_id(text: str) -> bool:
    """Whether ``text`` has the shape of a draft id.

    >>> is_draft_id("3fa9c1d2"), is_draft_id("../club"), is_draft_id("%2e%2e"), is_draft_id("ab²")
    (True, False, False, False)
    """
    return DRAFT_ID.fullmatch(text) is not None


def _draft_file(draft_id: str, where: Path | None) -> Path | None:
    """The file of a draft id, inside the drafts folder; ``None`` for an id of another shape."""
    if not is_draft_id(draft_id):
        return None
    return (where or folder()) / f"{draft_id}.json"


def load(draft_id: str, where: Path | None = None) -> Draft | None:
    """The draft with this id, ``None`` when there is none (or its file is not a draft).

    Only a regular file in the drafts folder is read: an id of another shape (a path, an encoded
    one) is no draft, and neither is a link, which could point anywhere.
    """
    path = _draft_file(draft_id, where)
    if path is None:
        return None
    try:
        found = path.lstat()
        if not stat.S_ISREG(found.st_mode) or found.st_size > MAX_DRAFT_BYTES:  # asked before reading
            return None
        return Draft.from_json(path.read_text(encoding="utf-8"))
    except (OSError, RecordingError):
        return None


def open_drafts(where: Path | None = None) -> list[Draft]:
    """Every draft beside the archive, the latest changed first."""
    target = where or folder()
    if not target.is_dir():
        return []
    # the newest files first, at most MAX_DRAFTS of them: a folder filled by hand stays cheap
    paths = sorted(target.glob("*.json"), key=_modified, reverse=True)[:MAX_DRAFTS]
    found = [load(path.stem, target) for path in paths]
    return sorted((d for d in found if d is not None), key=lambda d: d.updated, reverse=True)


def _modified(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def discard(draft_id: str, where: Path | None = None) -> None:
    """Remove a draft file (the match stays in the archive)."""
    path = _draft_file(draft_id, where)
    if path is not None:
        path.unlink(missing_ok=True)


def taken_ids(archive_ids: list[str], where: Path | None = None) -> list[str]:
    """The match ids a new match may not take: the archive's and every open draft's (a table
    recording at the same venue on the same day has not saved its first deal yet)."""
    return [*archive_ids, *(d.setup.match_id for d in open_drafts(where))]


@dataclass(frozen=True)
class Saved:
    """What saving a match into the archive did."""

    summary: ImportSummary
    analysis: AnalysisOutcome
    match_id: str
    """The id the match is saved under."""
    renamed_from: str | None = None
    """The id the draft had, when the archive held another match under it (so this one got a
    new id rather than replace that one); ``None`` when it kept its id."""
    draft: Draft | None = None
    """The finished draft as written to its file (renamed when the match was), when one was given."""
    again: bool = False
    """The same save was made before (sent twice): the archive was left as it was."""
    adopted: bool = False
    """The archive's match had been replaced (the organiser's upload) since this table saved it:
    the deal was added after the archive's deals, which the draft now holds."""


def _content_hash(record: Record) -> str:
    """The content hash the archive keeps of a record (``matches.content_hash``)."""
    return hashlib.sha256(record_json(record)).hexdigest()


def save_id(draft: Draft) -> str:
    """The id of saving this draft's match as it stands: the same draft with the same deals
    gives the same id, so a save sent twice (a double tap, a phone that sent it again after
    its connection dropped) is made once."""
    text = draft.draft_id.encode() + b"\n" + record_json(to_record(draft))
    return hashlib.sha256(text).hexdigest()[:32]


def save_match(draft: Draft, where: Path | None = None, *, finished: Draft | None = None) -> Saved:
    """Import the match of a draft whose deal is finished into the archive (replacing this
    table's earlier version) and analyse it.

    Saves from every table of a club evening queue for the archive's one writer (the lock of
    :meth:`dashboards.data.Archive.writing`, held from the draft's check to its file written),
    and each lands once: a save is known by :func:`save_id` in the archive's ``saves`` table,
    and the same save sent again leaves the archive as it is (:attr:`Saved.again`).

    A save never replaces another match: the archive's match under the draft's id must be the
    one this table saved last (the record of the draft's saved deals; before its first deal the
    id must be free). Otherwise (another table's match got the same id, or an upload took it)
    the match is saved under a new id, unique against the archive and the open drafts, and
    :attr:`Saved.renamed_from` says so: give the draft that id (:func:`recording.rename`).

    :param where: the drafts folder (default: the one beside the archive).
    :param finished: the draft with this deal finished (:func:`recording.finish_deal`): written
        to its file in the same turn, renamed with the match (:attr:`Saved.draft`).
    :raises DraftChangedError: when another phone at the table saved a deal since this one read
        the draft (the archive is left as it is); the very same save from two phones is made
        once, and the second is told it was made already (:attr:`Saved.again`).
    :raises ArchiveLockedError: when another program holds the archive.
    :raises RecordingError: when the archive refuses the record.
    """
    target = where or folder()
    original = draft.setup.match_id
    ours = _content_hash(to_record(draft, with_current=False)) if draft.deals else None
    identity = save_id(draft)
    with data.archive().writing() as store:
        # asked and saved in one writing session: another session's save waits for the lock
        with _WRITING:
            on_file = load(draft.draft_id, target)
        done = store.save_done(identity)
        if done is not None:  # the same save again: the archive has it already
            if finished is not None and (on_file is None or len(on_file.deals) <= len(draft.deals)):
                # the first time, the phone dropped before its draft file was written
                with _WRITING:
                    finished = rename(finished, done)
                    finished.version = on_file.version if on_file is not None else finished.version
                    _write(finished, target)
                on_file = finished
            return Saved(ImportSummary(skipped=1), AnalysisOutcome(), done, None, on_file, again=True)
        if on_file is not None and on_file.deals != draft.deals[: len(on_file.deals)]:
            # another phone at this table saved (or corrected) a deal since this one read the draft
            raise DraftChangedError("saved_meanwhile")
        stored = store.query("SELECT content_hash, record FROM matches WHERE match_id = ?", [original])
        renamed_from = None
        adopted = False
        if stored.height and str(stored["content_hash"][0]) != ours:
            if ours is not None and _replaced_ours(store, original, ours):
                # the organiser replaced this table's match (an upload correcting it): it is still
                # this table's, so the deal goes after the archive's deals rather than into a
                # match of a new id that the evening's standings would not count
                archived = list(json.loads(str(stored["record"][0]))["deals"])
                kept = len(draft.deals)
                draft = replace(draft, deals=archived)
                if finished is not None:
                    finished = replace(finished, deals=[*archived, *finished.deals[kept:]])
                adopted = True
            else:
                ids = [str(i) for i in store.query("SELECT match_id FROM matches")["match_id"].to_list()]
                new = suggest_match_id(draft.setup.date, draft.setup.venue, taken_ids(ids, where))
                draft = rename(draft, new)
                renamed_from = original
                if finished is not None:
                    finished = rename(finished, new)
        # the finished draft's deals are what finish_deal checked and completed (the cards laid
        # aside of a deal played out): the draft's own current deal lacked them, and the archive
        # refused the six-player short deal for want of them
        record = to_record(finished, with_current=False) if finished is not None else to_record(draft)
        match_id = str(record.match.id)
        entry = Entry(f"recorded match {match_id}", None, record_json(record))
        summary = store.import_entries([entry])
        if summary.refused:
            raise RecordingError("engine", message="; ".join(p.describe() for p in summary.rejects))
        store.note_save(identity, match_id, len(record.deals))
        analysis = analyse_archive(store, match_ids=[match_id])
        if finished is not None:
            with _WRITING:
                written = load(finished.draft_id, target)
                # the saved deals are ours (asked above): this save wins over taps made meanwhile
                finished.version = written.version if written is not None else finished.version
                _write(finished, target)
    # the heuristic findings are in at once; the solver's follow from the background review,
    # this match first (only its new or changed deals are solved again)
    from dashboards import reviewer

    reviewer.request([match_id])
    return Saved(summary, analysis, match_id, renamed_from, finished, adopted=adopted)


def _replaced_ours(store: Store, match_id: str, ours: str) -> bool:
    """Whether the archive's match under this id replaced the very match this draft saved last
    (an upload, the organiser's correction): a version kept of it is the draft's saved deals."""
    for (text,) in store.query(
        "SELECT record FROM match_versions WHERE match_id = ? ORDER BY version DESC", [match_id]
    ).rows():
        document = json.loads(str(text))
        for deal in document.get("deals", []):
            deal.pop("annotations", None)  # the archive's notes, merged into a kept version
        try:
            kept = loads(json.dumps(document, ensure_ascii=False), source=f"version of {match_id}")
        except ManillenError:
            continue
        if _content_hash(kept) == ours:
            return True
    return False


def last_venue() -> str | None:
    """The venue of the archive's latest match that names one (where the next is likely played)."""
    current = data.archive()
    return _last_venue(str(current.path), current.version) if current.exists() else None


@st.cache_data(show_spinner=False)
def _last_venue(path: str, version: int) -> str | None:
    """:func:`last_venue` of the archive at ``path`` as of ``version`` (asked once per change)."""
    with data.archive().reading() as store:
        frame = store.query(
            "SELECT venue FROM matches WHERE venue IS NOT NULL AND venue <> '' "
            "ORDER BY date DESC NULLS LAST, import_order DESC LIMIT 1"
        )
    return str(frame["venue"][0]) if frame.height else None


def last_rules(players: list[str]) -> dict[str, Any] | None:
    """The house rules of the latest match in the archive where all these players sat, ``None``
    when there is none."""
    if not players or not data.archive().exists():
        return None
    conditions = " AND ".join("match_id IN (SELECT match_id FROM seats WHERE player = ?)" for _ in players)
    with data.archive().reading() as store:
        frame = store.query(
            f"SELECT record FROM matches WHERE {conditions} AND coalesce(variant, 'four') = 'four' "
            "ORDER BY date DESC NULLS LAST, import_order DESC LIMIT 1",
            list(players),
        )
    if frame.height == 0:
        return None
    try:
        return rules_of(loads(str(frame["record"][0]))).to_options()
    except InvalidRecordError:
        return None
