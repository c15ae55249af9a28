"""One import batch: decoded records waiting, their rows as Arrow tables, and the order they load in."""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import msgspec
import pyarrow as pa

from ..engine import DealKind, DealResult, MatchResult
from ..errors import RecordError, more_problems
from ..record import Entry, Record, dumps
from ..record.io import RAW_PREFIX
from .arrow import _I32, _I64, _STR, _STRINGS, _TIME, _Columns
from .deal_rows import _DealRows

if TYPE_CHECKING:
    from ..engine.replay import PlayedDeal
    from ..rules import Variant
    from .importer import ImportSummary

MAX_REJECTS_KEPT = 1_000
"""How many refused records of one file the archive keeps (``rejects``, and the problems an
import reports); past them it counts the rest and keeps one row saying how many more there were
(:meth:`_Batch.reject_rest`). A file of a million bad lines cost a million rows and 2 GB."""


@dataclass
class _Pending:
    """A decoded record waiting for the batch to be loaded."""

    entry: Entry
    record: Record
    match_id: str
    canonical: str
    """The record in canonical form (what the content hash is of)."""
    content_hash: str
    played: dict[int, PlayedDeal] | None = None
    """The record's plays by the compiled pass, when it read the record (by the deal's index)."""


class _Batch:
    """Rows of up to :attr:`Store.BATCH_SIZE` matches, turned into Arrow tables and loaded together.

    The per-match and per-deal tables are built row by row; the seats, hands, tricks and plays
    of each deal go to :class:`_DealRows`, which builds them from flat numbers.
    """

    def __init__(self) -> None:
        self.pending: dict[str, _Pending] = {}
        self.rows = _DealRows()
        self._row_lists: list[list[Any]] | None = None
        """Every row list of the batch, gathered on the first :meth:`mark`."""
        self.rejected = 0
        self.rejects = _Columns(
            ("source", "line", "pointer", "message", "problems", "raw", "rejected_at"),
            {"line": _I32, "problems": _STRINGS, "rejected_at": _TIME},
        )
        self.matches = _Columns(
            ("match_id", "import_order", "source", "line", "date", "venue", "event", "notes", "variant",
             "players", "seat0", "seat1", "seat2", "seat3", "seat4", "seat5", "rules", "format", "target",
             "deals", "score_0", "score_1", "score_2", "final_score_0", "final_score_1", "final_score_2",
             "winner", "finished", "violations", "irregularities", "record", "content_hash", "imported_at"),
            {"line": _I32, "date": pa.date32(), "venue": _STR, "event": _STR, "notes": _STR, "seat2": _STR,
             "seat3": _STR, "seat4": _STR, "seat5": _STR, "target": _I32, "score_2": _I32,
             "final_score_2": _I32, "winner": _I32, "imported_at": _TIME},
        )  # fmt: skip
        self.seats = _Columns(("match_id", "seat", "player", "team"))
        self.blocks = _Columns(
            ("match_id", "block", "team", "players", "score", "won"), {"block": _I32, "team": _I32}
        )
        self.deals = _Columns(
            ("match_id", "deal", "block", "dealer", "dealer_player", "dealing_team", "kind", "contract",
             "trump", "chooser", "en_face", "knocks", "carried", "multiplier", "tricks", "points_0",
             "points_1", "tie", "score_team", "score_points", "has_recorded", "recorded_team",
             "recorded_points", "score_mismatch", "penalty_0", "penalty_1", "match_score_0",
             "match_score_1", "match_score_2", "counted", "violations", "irregularities"),
            {"block": _I32, "match_score_2": _I32, "contract": _STR, "trump": _STR, "chooser": _I32,
             "multiplier": _I32, "points_0": _I32, "points_1": _I32, "score_team": _I32,
             "score_points": _I32, "recorded_team": _I32, "recorded_points": _I32,
             "irregularities": _STRINGS},
        )  # fmt: skip
        self.declarations = _Columns(
            ("match_id", "deal", "position", "seat", "player", "call", "suit"), {"suit": _STR}
        )
        self.annotations = _Columns(
            ("annotation_id", "match_id", "deal", "trick", "play", "author", "text", "tags",
             "created_at", "updated_at", "line"),
            {"annotation_id": _I64, "trick": _I32, "play": _I32, "tags": _STRINGS, "created_at": _TIME,
             "updated_at": _TIME, "line": _STRINGS},
        )  # fmt: skip

    def reject(self, entry: Entry, problems: list[RecordError], counts: ImportSummary) -> None:
        """Keep a refused record, with every problem, for the ``rejects`` table: only counted
        past the first :data:`MAX_REJECTS_KEPT` of its file."""
        if counts.refused >= MAX_REJECTS_KEPT:
            counts.refused += 1
            counts.not_kept += 1
            self.rejected += 1
            return
        located = entry.locate(problems)
        if not located:
            located = [RecordError("invalid record", "", entry.source, entry.line)]
        counts.refused += 1
        counts.rejects.extend(located)
        self.rejected += 1
        more = more_problems(len(located))
        first = located[0]
        line = entry.line if first.line is None else first.line
        self.rejects.add(
            entry.source, line, first.pointer, first.detail + more,
            [f"{p.pointer}: {p.detail}" if p.pointer else p.detail for p in located],
            raw_text(entry), datetime.datetime.now(),
        )  # fmt: skip

    def reject_rest(self, source: str, counts: ImportSummary) -> None:
        """The one row (and problem) standing for the refused records of a file past the first
        :data:`MAX_REJECTS_KEPT`: how many more there were."""
        message = (
            f"and {counts.not_kept:,} more refused records, not kept: the archive keeps the first "
            f"{MAX_REJECTS_KEPT:,} of a file (check the file with manillen validate)"
        )
        counts.rejects.append(RecordError(message, "", source, None))
        self.rejects.add(source, None, "", message, [message], "", datetime.datetime.now())

    def mark(self) -> list[int]:
        """Where every row list of the batch ends now, for :meth:`undo`."""
        if self._row_lists is None:
            lists = [columns.rows for columns in self._all_columns()]
            lists.extend(value for value in vars(self.rows).values() if isinstance(value, list))
            self._row_lists = lists
        return list(map(len, self._row_lists))

    def undo(self, mark: list[int]) -> None:
        """Drop every row added since :meth:`mark`: a match that failed half way leaves none."""
        assert self._row_lists is not None, "undo without a mark"
        for rows, length in zip(self._row_lists, mark, strict=True):
            del rows[length:]

    def _all_columns(self) -> list[_Columns]:
        return [self.rejects, self.matches, self.seats, self.blocks, self.deals, self.declarations,
                self.annotations]  # fmt: skip

    def add_match(
        self,
        item: _Pending,
        result: MatchResult,
        order: int,
        annotation_ids: Iterator[int],
        now: datetime.datetime,
    ) -> int:
        """Add one replayed match's rows; returns its number of deals.

        :raises RecordError: for a score too large for the archive's columns (nothing is added).
        """
        _check_fits(result)
        record, mid = item.record, item.match_id
        info = record.match
        people = result.seats
        rules = result.rules
        shape = rules.shape
        violations = sum(len(d.violations) for d in result.deals)
        irregularities = sum(len(d.irregularities) for d in result.deals)
        stored = _strip_annotations(record, item.canonical, mid, self.annotations, annotation_ids, now)
        score, final = _three(result.score), _three(result.final_score)
        if result.evening:  # no team result (the teams change every block): blocks_won is it
            score = final = (None, None, None)
        target = rules.target if rules.format == "target" else None  # a fixed number of deals has none
        self.matches.add(
            mid, order, item.entry.source, item.entry.line,
            _unset(info.date), _unset(info.venue), _unset(info.event), _unset(info.notes),
            rules.variant, len(people), *(people + [None] * 6)[:6],
            msgspec.json.encode(_unset(info.rules) or {}).decode(), rules.format, target,
            len(result.deals), *score, *final, result.winner, result.finished, violations, irregularities,
            stored, item.content_hash, now,
        )  # fmt: skip
        for seat, name in enumerate(people):
            # The sides of the three-player games depend on the dealer; the match's own
            # seats table gives the side when seat 0 deals.
            self.seats.add(mid, seat, name, shape.team_of(seat, 0))
        for played in result.blocks:
            for team in (0, 1):
                self.blocks.add(
                    mid, played.number, team, played.seats[team::2], played.score[team], played.winner == team
                )
        blocks = [] if _unset(info.blocks) is None else info.blocks
        counted = 0
        for deal in result.deals:
            block = counted // rules.deals if blocks else None
            seating = blocks[block] if blocks and block is not None and block < len(blocks) else people
            self._add_deal(mid, record, deal, block, seating, result)
            counted += deal.kind in _SCORED_KINDS
        return len(result.deals)

    def _add_deal(
        self,
        mid: str,
        record: Record,
        deal: DealResult,
        block: int | None,
        seating: list[str],
        result: MatchResult,
    ) -> None:
        shape = result.rules.shape
        number = deal.number
        dealer = deal.dealer
        # Seats beyond the people (the dummy of three_dummy) are played by the dealer.
        names = (
            seating
            if len(seating) == shape.players
            else [seating[s] if s < len(seating) else seating[dealer] for s in range(shape.players)]
        )
        teams = _teams(shape, dealer)
        tricks = self.rows.add(len(self.matches) - 1, deal, shape.trick_size, names, teams, len(seating))
        penalty = [0, 0]
        for team, points, _reason in deal.penalties:
            penalty[team] += points
        score, recorded, taken, match_score = deal.score, deal.recorded, deal.points, deal.match_score
        # An enum member's ``_value_`` and ``_name_`` are plain attributes; ``value`` and ``name``
        # go through a descriptor written in Python, a few times a deal.
        self.deals.rows.append((
            mid, number, None if block is None else block + 1, dealer, names[dealer],
            teams[dealer], deal.kind._value_,
            None if deal.contract is None else deal.contract._value_,
            None if deal.trump is None else deal.trump._name_,
            deal.chooser, deal.en_face, deal.knocks, deal.carried, deal.multiplier, tricks,
            None if taken is None else taken[0], None if taken is None else taken[1],
            deal.tie, None if score is None else score.team, None if score is None else score.points,
            deal.has_recorded, None if recorded is None else recorded.team,
            None if recorded is None else recorded.points, deal.score_mismatch, penalty[0], penalty[1],
            match_score[0], match_score[1], match_score[2] if len(match_score) > 2 else None,
            deal.counted, len(deal.violations),
            [irregularity.kind._value_ for irregularity in deal.irregularities],
        ))  # fmt: skip
        calls = record.deals[number - 1].declarations
        if calls is not msgspec.UNSET:
            unset, add = msgspec.UNSET, self.declarations.add
            for position, call in enumerate(calls, start=1):
                suit = call.suit
                add(
                    mid,
                    number,
                    position,
                    call.seat,
                    names[call.seat],
                    call.call,
                    None if suit is unset else suit,
                )

    def tables(self) -> dict[str, Any]:
        """The batch as Arrow tables, by table name."""
        tables = {
            name: getattr(self, name).table()
            for name in ("matches", "seats", "deals", "declarations", "annotations", "blocks", "rejects")
        }
        tables.update(self.rows.tables(self.matches.column("match_id")))
        return tables


_SCORED_KINDS = (DealKind.PLAYED, DealKind.SCORESHEET)


def _teams(shape: Variant, dealer: int) -> list[int]:
    """Each seat's side in a deal of ``shape`` dealt by ``dealer``: the same few lists for every
    deal, each made once (the callers only read them)."""
    key = (shape.sides, shape.players, dealer)
    teams = _TEAMS.get(key)
    if teams is None:
        teams = _TEAMS[key] = [shape.team_of(seat, dealer) for seat in range(shape.players)]
    return teams


_TEAMS: dict[tuple[str, int, int], list[int]] = {}

INTEGER_LIMIT = 2**31 - 1
"""The largest number the archive's INTEGER columns hold."""


def _check_fits(result: MatchResult) -> None:
    """Refuse a match whose scores the archive cannot hold. The record format bounds every
    number it holds (docs/format.md); only scores grown by long uncapped doublings come near."""
    numbers = [*result.score, *result.final_score, result.rules.target or 0]
    for deal in result.deals:
        numbers += deal.match_score
        numbers.append(deal.multiplier or 0)
        if deal.penalties:
            numbers += [points for _, points, _ in deal.penalties]
        if deal.score is not None:
            numbers.append(deal.score.points)
        if deal.recorded is not None:
            numbers.append(deal.recorded.points)
    if max(numbers) > INTEGER_LIMIT or min(numbers) < -INTEGER_LIMIT:
        raise RecordError(f"a score of this match is over {INTEGER_LIMIT:,}, more than the archive holds")


def raw_text(entry: Entry) -> str:
    """What ``rejects.raw`` keeps of a refused document: all of it up to
    :data:`~manillen_replay.record.io.RAW_PREFIX` bytes, else its start, its size and its SHA-256."""
    data = entry.data
    size = len(data) if entry.size is None else entry.size
    if size <= RAW_PREFIX:
        return data.decode("utf-8", errors="replace").rstrip("\r\n")
    digest = entry.digest or hashlib.sha256(data).hexdigest()
    start = data[:RAW_PREFIX].decode("utf-8", errors="ignore")
    return f"{start}\n[... cut: the record is {size:,} bytes, sha256 {digest}]"


def _three(scores: Sequence[int]) -> tuple[int | None, ...]:
    """Two team scores, or three personal ones (the three-player games), as three columns."""
    return (*scores[:3], *([None] * (3 - len(scores[:3]))))


def _unset(value: Any) -> Any:
    return None if value is msgspec.UNSET else value


def _strip_annotations(
    record: Record, canonical: str, mid: str, rows: _Columns, ids: Iterator[int], now: datetime.datetime
) -> str:
    """The canonical record without its annotations (:func:`game_text`), which go to the
    annotations table.

    :param canonical: the whole record in canonical form: the answer when it has no annotations.
    """
    for number, deal in enumerate(record.deals, start=1):
        notes = deal.annotations
        if notes is msgspec.UNSET or not notes:
            continue
        for note in notes:
            rows.add(
                next(ids), mid, number, _unset(note.trick), _unset(note.play), note.author, note.text,
                _unset(note.tags), now, now, _unset(note.line),
            )  # fmt: skip
    return game_text(record, canonical)


def game_text(record: Record, canonical: str) -> str:
    """The canonical record without its coach comments: what ``matches.record`` keeps, and what
    tells whether two records are the same game, whatever comments each carries. An explicit empty
    list of comments stays, so that exporting gives back the same bytes.

    :param canonical: the whole record in canonical form: the answer when it has no comments.
    """
    carried = [deal for deal in record.deals if deal.annotations is not msgspec.UNSET and deal.annotations]
    if not carried:
        return canonical
    notes = [deal.annotations for deal in carried]
    try:
        for deal in carried:
            deal.annotations = msgspec.UNSET
        return dumps(record, pretty=False)
    finally:
        for deal, kept in zip(carried, notes, strict=True):
            deal.annotations = kept


CommentKey = tuple[int, int | None, int | None, str, str]
"""What makes two coach comments the same: the deal, trick and play, the author and the text."""


def add_new_comments(
    record: Record,
    mid: str,
    present: set[CommentKey],
    rows: _Columns,
    ids: Iterator[int],
    now: datetime.datetime,
) -> int:
    """Add the record's coach comments that the archive does not have yet (``present``) to the
    annotations rows, for a match whose game the archive already holds.

    :returns: how many were added.
    """
    added = 0
    for number, deal in enumerate(record.deals, start=1):
        notes = deal.annotations
        if notes is msgspec.UNSET or not notes:
            continue
        for note in notes:
            key = (number, _unset(note.trick), _unset(note.play), note.author, note.text)
            if key in present:
                continue
            present.add(key)
            rows.add(
                next(ids), mid, number, key[1], key[2], note.author, note.text,
                _unset(note.tags), now, now, _unset(note.line),
            )  # fmt: skip
            added += 1
    return added


_LOAD_ORDER: tuple[tuple[str, str], ...] = (
    ("matches", "matches"),
    ("seats", "seats"),
    ("deal_seats", "deal_seats"),
    ("deals", "deals"),
    ("declarations", "declarations"),
    ("hands", "hand_rows"),
    ("plays", "play_rows"),
    ("tricks", "tricks"),
    ("annotations", "annotations"),
    ("blocks", "blocks"),
    ("rejects", "rejects"),
)
"""Each Arrow table of a batch and the archive table it goes into, in loading order.

The batch's tables arrive complete, with the archive table's columns in its order, and go in
with ``insert_into``: of the ways into DuckDB, the one that needs the GIL least often, which the
loader thread waits for at every turn (see :meth:`Store._import_settings`).
"""


def _arranged(table: Any, columns: list[str]) -> Any:
    """The table's columns in the archive table's order; columns it lacks (added by a later
    migration, such as ``matches.analysed_at``) are null.

    :raises ValueError: for a column the archive table does not have (a bug, not bad input).
    """
    given = set(table.column_names)
    strays = sorted(given - set(columns))
    if strays:
        raise ValueError(f"batch columns {strays} are not in the table's columns {columns}")
    rows = table.num_rows
    return pa.table([table[name] if name in given else pa.nulls(rows) for name in columns], names=columns)
