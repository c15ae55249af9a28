"""A club evening on the dashboard: setting it up in the archive, each table's draft and link,
the standings and what is shared of them (a page, a CSV file), each player's reports, and,
served on a network, the tokens in each table's and the big screen's join address.

Setting up an evening writes it to the archive (:meth:`~manillen_replay.store.Store.add_evening`)
and opens one draft per table and round, set up for the club format: the table's four players,
the blocks in which partners rotate, the house rules, scoresheet only when the table keeps
only the scoresheet. A table's draft id follows from its match id (:func:`draft_id_of`), so a
table's link is the same every time it is shown and a dropped phone opens it again.

Served on a network, each table's link carries a recorder's token for that table, and the
standings' link a viewer's. They are issued when the evening is set up, and setting up the
next evening revokes them: last week's links (and the week-long cookie they left in a phone)
must not record at this week's table 2. A token is shown once (the token file keeps its hash),
so the page keeps the evening's tokens for its session; a table whose link is no longer shown
gets a new one (:func:`new_table_link`), which ends that table's old link only.
"""

from __future__ import annotations

import datetime
import hashlib
import html
import io
import zipfile
from collections.abc import Sequence
from typing import Any

import polars as pl
import streamlit as st

from dashboards import access, data, drafts
from dashboards import recording as rec
from manillen_replay.access import Issued, Role, qr_svg
from manillen_replay.evening import Evening, EveningTable, plan_evening
from manillen_replay.report import make_report

STANDINGS_COLUMNS = ("place", "player", "blocks_won", "points", "blocks_played", "deals")


def draft_id_of(table: EveningTable) -> str:
    """The draft id of a table's match: always the same for it, letters and digits only.

    >>> draft_id_of(EveningTable(1, 2, ["A", "B", "C", "D"], "zwaan-2026-12-05-t2"))
    'e8848739e5'
    """
    return "e" + hashlib.sha256(table.match_id.encode()).hexdigest()[:9]


def evening_id_for(date: datetime.date, venue: str, taken: Sequence[str]) -> str:
    """A new evening's id from its venue and date, not one of ``taken``.

    >>> evening_id_for(datetime.date(2026, 12, 5), "De Zwaan", ["de-zwaan-2026-12-05"])
    'de-zwaan-2026-12-05-2'
    """
    stem = "-".join(part for part in (rec.slug(venue), date.isoformat()) if part)
    candidate, number = stem, 1
    while candidate in taken:
        number += 1
        candidate = f"{stem}-{number}"
    return candidate


EVENING_EVENT = "Clubavond"
"""The event of a club evening's matches: one word for every table's record, whatever the
language of the phone that records it (as the game's own words, klop and muil, are Flemish)."""


def _setup_of(evening: Evening, table: EveningTable) -> rec.Setup:
    return rec.Setup(
        match_id=table.match_id,
        seats=list(table.seats),
        date=evening.date.isoformat(),
        venue=evening.venue,
        # a name people read (the Archive's Event column, the Match page, the report): the id,
        # kaartersclub-de-troef-2026-12-07, read as a code; venue and date have fields of their own
        event=EVENING_EVENT,
        rules=dict(evening.rules),
        blocks=table.blocks,
        scoresheet_only=table.scoresheet_only,
        table=table.key,
    )


def create(
    date: datetime.date,
    venue: str,
    players: Sequence[str],
    *,
    rounds: int = 1,
    scoresheet_tables: Sequence[int] = (),
    rules: dict[str, Any] | None = None,
) -> Evening:
    """Set up an evening: kept in the archive, one draft opened per table and round.

    :raises ManillenError: for players, rounds, tables or rules the evening cannot take (the
        message says what to change), or when the archive is held by another program.
    """
    with data.archive().writing() as store:
        taken = store.evening_ids()
        evening_id = evening_id_for(date, venue, taken)
        match_ids = [str(m) for m in store.query("SELECT match_id FROM matches")["match_id"].to_list()]
        evening = plan_evening(
            evening_id,
            date,
            venue.strip(),
            players,
            rounds=rounds,
            scoresheet_tables=scoresheet_tables,
            rules=rules,
            taken_ids=drafts.taken_ids(match_ids),
        )
        for table in evening.tables:
            # the engine takes the set-up before the archive does: a bad name stops it here
            draft = rec.new_draft(draft_id_of(table), _setup_of(evening, table))
            if drafts.load(draft.draft_id) is None:
                drafts.save(draft)
        store.add_evening(evening)
    return evening


def evening_ids() -> list[str]:
    """Every evening in the archive, the latest first (none without an archive)."""
    current = data.archive()
    return list(_evening_ids(str(current.path), current.version)) if current.exists() else []


@st.cache_data(show_spinner=False)
def _evening_ids(path: str, version: int) -> tuple[str, ...]:
    with data.archive().reading() as store:
        return tuple(store.evening_ids())


def load(evening_id: str) -> Evening | None:
    """The evening with this id, ``None`` when the archive has none."""
    if not data.archive().exists():
        return None
    with data.archive().reading() as store:
        return store.evening(evening_id)


def standings(evening_id: str) -> pl.DataFrame:
    """The evening's standings as the archive has them now (blocks won, then points)."""
    current = data.archive()
    current.notice_changes()
    return _standings(str(current.path), current.version, evening_id)


@st.cache_data(show_spinner=False)
def _standings(path: str, version: int, evening_id: str) -> pl.DataFrame:
    with data.archive().reading() as store:
        return store.standings(evening_id)


def standings_cell(value: object) -> str:
    """A standings value as shown: a player with no place yet (no deal played) shows none."""
    return "" if value is None else str(value)


def standings_csv(
    frame: pl.DataFrame, headers: dict[str, str] | None = None, *, excel: bool = False
) -> bytes:
    """The standings as a CSV file (UTF-8, a header row).

    :param headers: each column's heading (:data:`STANDINGS_COLUMNS`), in the reader's language
        (a Dutch organiser's spreadsheet had English headings); the columns' own names without.
    :param excel: as Excel opens it in Belgium (``;`` between the values, a byte order mark,
        formulas kept as text: ``manillen sql --format excel``), where a plain CSV opened as one
        column.
    """
    table = frame.select(STANDINGS_COLUMNS)
    return data.csv_bytes(table.rename(headers) if headers else table, excel=excel)


def standings_html(
    evening: Evening, frame: pl.DataFrame, headers: dict[str, str], title: str, lang: str = "en"
) -> str:
    """The standings as one self-contained HTML page, to mail or put on a club's website.

    :param headers: each column's heading (:data:`STANDINGS_COLUMNS`), in the reader's language.
    :param lang: that language, for ``<html lang>`` (a screen reader, a browser's translation).
    """
    head = "".join(f"<th>{html.escape(headers[c])}</th>" for c in STANDINGS_COLUMNS)
    rows = "".join(
        "<tr>"
        + "".join(f"<td>{html.escape(standings_cell(row[c]))}</td>" for c in STANDINGS_COLUMNS)
        + "</tr>"
        for row in frame.iter_rows(named=True)
    )
    name = html.escape(title)
    return (
        f'<!DOCTYPE html>\n<html lang="{html.escape(lang)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{name}</title><style>body{{font-family:system-ui,sans-serif;margin:1rem}}"
        "table{border-collapse:collapse;font-size:1.2rem}td,th{padding:.3rem .8rem;"
        "border-bottom:1px solid #ccc;text-align:left}td:nth-child(n+3){text-align:right}</style>"
        f"</head><body><h1>{name}</h1><p>{html.escape(evening.venue)}, {evening.date.isoformat()}</p>"
        f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></body></html>\n"
    )


def saved_matches(evening: Evening) -> set[str]:
    """The evening's match ids that have at least one deal in the archive."""
    wanted = [t.match_id for t in evening.tables]
    with data.archive().reading() as store:
        frame = store.query("SELECT match_id FROM matches WHERE list_contains(?, match_id)", [wanted])
    return {str(m) for m in frame["match_id"].to_list()}


def player_report(evening: Evening, player: str, lang: str) -> list[tuple[EveningTable, str]]:
    """A player's report of each of their matches of the evening that has deals saved.

    :raises ManillenError: when the report cannot be made (the message says why).
    """
    saved = saved_matches(evening)
    out = []
    with data.archive().reading() as store:
        for table in evening.tables:
            if player in table.seats and table.match_id in saved:
                out.append((table, make_report(store, table.match_id, player=player, lang=lang)))
    return out


def all_reports(evening: Evening, lang: str) -> tuple[bytes, int]:
    """Every player's reports of the evening in one ZIP file (``<player>-<match id>.html``), and
    how many reports it holds.

    :raises ManillenError: when a report cannot be made (the message says why).
    """
    buffer = io.BytesIO()
    count = 0
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for player in evening.players:
            for table, page in player_report(evening, player, lang):
                archive.writestr(f"{rec.slug(player) or 'player'}-{table.match_id}.html", page)
                count += 1
    return buffer.getvalue(), count


STANDINGS_LINK = "standings"
"""The key of the viewer's link among an evening's links (the tables' keys are their numbers)."""
NOTE_START = "evening "
"""How the notes of the tokens the Organiser page issued begin: those are the tokens the next
evening revokes (tokens issued with ``manillen tokens`` and another note are left alone)."""


def token_note(evening_id: str, link: str) -> str:
    """The note kept with an evening's token, as ``manillen tokens list`` shows it.

    >>> token_note("zwaan-2026-12-05", "2"), token_note("zwaan-2026-12-05", STANDINGS_LINK)
    ('evening zwaan-2026-12-05, table 2', 'evening zwaan-2026-12-05, standings')
    """
    return f"{NOTE_START}{evening_id}, " + ("standings" if link == STANDINGS_LINK else f"table {link}")


def note_words(note: str, lang: str) -> str:
    """A token's note as the Organiser page shows it: an evening's own (:func:`token_note`, kept
    in English for ``manillen tokens list``) in the page's language; any other as written.

    >>> note_words(token_note("zwaan-2026-12-05", "2"), "nl"), note_words("bar", "nl")
    ('avond zwaan-2026-12-05, tafel 2', 'bar')
    >>> note_words(token_note("zwaan-2026-12-05", STANDINGS_LINK), "nl")
    'avond zwaan-2026-12-05, stand'
    """
    if lang != "nl" or not note.startswith(NOTE_START):
        return note
    evening_id, _, link = note.removeprefix(NOTE_START).rpartition(", ")
    if link == STANDINGS_LINK:
        return f"avond {evening_id}, stand"
    if link.startswith("table "):
        return f"avond {evening_id}, tafel {link.removeprefix('table ')}"
    return note


def table_keys(evening: Evening) -> list[str]:
    """The evening's tables by name, each once (a table keeps its number, and its token, in every round)."""
    return sorted({t.key for t in evening.tables}, key=int)


def _issue_link(evening: Evening, link: str) -> tuple[str, Issued]:
    note = token_note(evening.evening_id, link)
    if link == STANDINGS_LINK:
        return access.issue_token(Role.VIEWER, note=note)
    return access.issue_token(Role.RECORDER, link, note)


def issue_links(evening: Evening) -> dict[str, tuple[str, str]]:
    """Revoke the tokens issued for every evening, then issue this evening's: a recorder's
    for each table and a viewer's for the standings.

    :returns: each link's token and the key to revoke it by, the tables by their names and the
        standings as :data:`STANDINGS_LINK`.
    :raises AccessRefusedError: to anyone but the organiser.
    :raises AccessError: when the token file is not one.
    """
    for kept in access.issued_tokens():
        if kept.note.startswith(NOTE_START):
            access.revoke_token(kept.key)
    links = {}
    for link in [*table_keys(evening), STANDINGS_LINK]:
        token, entry = _issue_link(evening, link)
        links[link] = (token, entry.key)
    return links


def new_table_link(evening: Evening, link: str) -> tuple[str, str]:
    """A new token for one of the evening's links (a table's name or :data:`STANDINGS_LINK`),
    the link's earlier tokens revoked: the other tables' phones keep theirs.

    :raises AccessRefusedError: to anyone but the organiser.
    """
    note = token_note(evening.evening_id, link)
    for kept in access.issued_tokens():
        if kept.note == note:
            access.revoke_token(kept.key)
    token, entry = _issue_link(evening, link)
    return token, entry.key


def links_sheet_html(title: str, links: Sequence[tuple[str, str]], lang: str = "en") -> str:
    """The evening's join addresses as one page to print: each one's heading, QR code and address,
    two to a row (a page of A4 holds four tables).

    :param links: each link's heading (the table and its players, in the reader's language) and
        join address.
    """
    boxes = "".join(
        f"<section><h2>{html.escape(heading)}</h2>{qr_svg(address, scale=4)}"
        f"<p>{html.escape(address)}</p></section>"
        for heading, address in links
    )
    name = html.escape(title)
    return (
        f'<!DOCTYPE html>\n<html lang="{html.escape(lang)}"><head><meta charset="utf-8">'
        f"<title>{name}</title><style>body{{font-family:system-ui,sans-serif;margin:1rem}}"
        "main{display:grid;grid-template-columns:1fr 1fr;gap:1rem}"
        "section{border:1px solid #999;padding:.5rem;break-inside:avoid;text-align:center}"
        "h2{font-size:1.1rem}p{font-family:monospace;font-size:.7rem;word-break:break-all}</style>"
        f"</head><body><h1>{name}</h1><main>{boxes}</main></body></html>\n"
    )
