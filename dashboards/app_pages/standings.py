"""Standings: a club evening's players, blocks won then points, for the café's big screen.

The table refreshes itself as the tables save their deals; its address (``?evening=...``) shows
the same standings on any phone, and the standings download as a CSV file or one HTML page.
Open to every visitor: viewers come for this page.
"""

from __future__ import annotations

import html
from urllib.parse import urlencode

import polars as pl
import streamlit as st

from dashboards import access, data, evenings, i18n, light_table, ui
from dashboards.evenings import STANDINGS_COLUMNS
from manillen_replay.errors import ManillenError

t = ui.translator()
REFRESH_SECONDS = 10  # a deal takes minutes: ten seconds is "at once" for the room

# large type, for a screen read across the café
BIG_TABLE_STYLE = """<style>
    .standings-scroll { overflow-x: auto; max-width: 100%; }
    .standings-table { border-collapse: collapse; width: 100%; font-size: clamp(0.85rem, 1.9vw, 1.7rem); }
    .standings-table th, .standings-table td { padding: 0.2em 0.45em; border-bottom: 1px solid #8884; }
    .standings-table th { text-align: left; font-weight: 600; }
    .standings-table td.number { text-align: right; font-variant-numeric: tabular-nums; }
    </style>"""


def _headers() -> dict[str, str]:
    return {c: t(f"standings.col.{c}") for c in STANDINGS_COLUMNS}


def _table_html(frame: pl.DataFrame) -> str:
    headers = _headers()
    head = "".join(f"<th>{html.escape(headers[c])}</th>" for c in STANDINGS_COLUMNS)
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="{"" if c == "player" else "number"}">'
            f"{html.escape(evenings.standings_cell(row[c]))}</td>"
            for c in STANDINGS_COLUMNS
        )
        + "</tr>"
        for row in frame.iter_rows(named=True)
    )
    table = f'<table class="standings-table"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'
    # on a phone the table scrolls in its own box: as wide as the page it slid the whole page sideways
    return BIG_TABLE_STYLE + f'<div class="standings-scroll">{table}</div>'


try:
    ids = evenings.evening_ids()
except ManillenError as error:  # an archive this program cannot read (another's, a newer one)
    st.error(t("error.unreadable", path=data.archive().path, message=ui.without_folders(str(error))))
    st.stop()
if not ids:
    st.title(t("nav.standings"))
    # an archive of ordinary matches (a league's, a club's weeks) ranks its players by matches won
    league = data.league_table()
    if league.height:
        st.caption(t("standings.league_caption"))
        light_table.show(
            league,
            key="standings_league",
            labels={
                "player": t("col.player"),
                "matches": t("standings.col.matches"),
                "won": t("standings.col.won"),
                "won_pct": t("standings.col.won_pct"),
                "deals": t("standings.col.deals"),
                "net_per_deal": t("standings.col.net_per_deal"),
            },
            formats={"won_pct": "%.1f", "net_per_deal": "%.2f"},
            caption=t("nav.standings"),
        )
    st.info(t("standings.none"))
    st.stop()
wanted = str(st.query_params.get("evening") or ids[0])
evening = evenings.load(wanted) if wanted in ids else None
if evening is None:
    st.title(t("nav.standings"))
    shown = wanted if wanted.replace("-", "").isalnum() and len(wanted) <= 60 else "?"
    st.warning(t("standings.unknown", evening=shown))
    st.stop()
st.query_params["evening"] = evening.evening_id
# the evening as the room knows it (its venue and day), not its id, which broke over three lines
# of a phone's title; the id stays in the address and the file names
day = i18n.day_label(evening.date, ui.lang()) if evening.date else None
venue = evening.venue or evening.evening_id
title = t("standings.title", venue=venue, date=day) if day else t("standings.title_undated", venue=venue)
# the venue as typed (markdown read in it fetched a venue's ![image](http://...) on the room's screen);
# the page to mail escapes it as HTML itself
shown = ui.name_text(venue)
st.title(t("standings.title", venue=shown, date=day) if day else t("standings.title_undated", venue=shown))


@st.fragment(run_every=REFRESH_SECONDS)
def _standings() -> None:
    """The standings as the archive has them now (this part reruns every few seconds)."""
    assert evening is not None
    frame = evenings.standings(evening.evening_id)
    st.html(_table_html(frame))
    st.caption(t("standings.caption", seconds=REFRESH_SECONDS))
    row = st.container(horizontal=True)
    row.download_button(
        t("standings.csv"),
        evenings.standings_csv(frame, _headers()),
        file_name=f"{evening.evening_id}-standings.csv",
        mime="text/csv",
        key="standings_csv",
        icon=":material/download:",
        on_click="ignore",
    )
    row.download_button(
        t("sql.download_excel"),
        evenings.standings_csv(frame, _headers(), excel=True),
        file_name=f"{evening.evening_id}-standings-excel.csv",
        mime="text/csv",
        key="standings_csv_excel",
        help=t("sql.download_excel_help"),
        icon=":material/download:",
        on_click="ignore",
    )
    row.download_button(
        t("standings.html"),
        evenings.standings_html(evening, frame, _headers(), title, ui.lang()),
        file_name=f"{evening.evening_id}-standings.html",
        mime="text/html",
        key="standings_html",
        icon=":material/download:",
        on_click="ignore",
    )


_standings()
if access.access_required():
    # served on a network every visitor needs a token: this page's bare address would be refused,
    # so the way in for the big screen is the viewer's join address of the Club evening page
    st.caption(t("standings.share_token"))
else:
    st.caption(t("standings.share"))
    st.code(
        ui.absolute("standings?" + urlencode({"evening": evening.evening_id, **ui.language_params()})),
        language=None,
        wrap_lines=True,
    )
