"""The pages' tables: a light HTML table whose row clicks open a match or a deal in the same session.

Streamlit's data grid (``st.dataframe``) costs every new tab about 1.7 MB of JavaScript, a
quarter of a second on this machine, before the page counts as drawn; the pages needed it only
for its row selection, which switches pages in-session (a link would reload the app: a new
session, about 1.2 s). This table is a custom component (``st.components.v2``, mounted in the
page itself, no iframe; its script and style are ``static/light_table.js`` and ``.css``, sent
with the page, nothing fetched): a plain ``<table>`` with a header row, numbers right-aligned in
the format the page asks for, blank cells for missing values, the theme's colours, sorting by a
click on a header, and rows that are focusable and open their page on a click or Enter. A
Ctrl/Cmd or middle click opens the row's address in a new tab instead.

The data grid stays one click away (:func:`grid_chosen`: the "Interactive tables" toggle), for
searching, resizing columns or downloading; it is loaded only when asked for.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import polars as pl
import streamlit as st

from dashboards import i18n, ui

STATIC = Path(__file__).resolve().parent / "static"
PHONE_WIDTH = "40rem"
"""A table box this narrow or narrower is on a phone (static/light_table.css scrolls it sideways)."""
PHONE_CSS = f"""
/* On a phone a table with chosen columns (light_table.show's phone) shows only those, and their
   columns of words break between words: the whole row fits the screen, without scrolling. */
@container (max-width: {PHONE_WIDTH}) {{
  .mr-light-table .wide, .mr-light-table th.end ~ th, .mr-light-table td.end ~ td {{ display: none; }}
  .mr-light-table td.wrap.phone {{ white-space: normal; }}
}}
"""
COMPONENT = st.components.v2.component(
    "manillen.light_table",
    js=(STATIC / "light_table.js").read_text(encoding="utf-8"),
    css=(STATIC / "light_table.css").read_text(encoding="utf-8") + PHONE_CSS,
)
"""The component's mounting command: its script and style travel inline with the page."""

Format = str | Callable[[Any], str]
"""How a column's values are written: a printf format as ``st.column_config.NumberColumn``
takes (``"%d"``, ``"x%d"``, ``"%.1f%%"``, ``"%+.1f"``), ``"plain"`` (whole numbers without
decimals, others as they are), or a function of the value."""


def cell_text(value: Any, format: Format | None = None, lang: str = "en") -> str:
    """One cell as the table shows it: blank for a missing value, numbers in ``format`` as ``lang``
    writes them (a real minus sign; in Dutch a decimal comma, :func:`dashboards.i18n.number_text`).

    >>> [cell_text(None), cell_text(60.0, "plain"), cell_text(2.5, "plain"), cell_text(3, "x%d")]
    ['', '60', '2.5', 'x3']
    >>> cell_text(48.63, "%.1f%%"), cell_text(datetime.date(2026, 1, 2))
    ('48.6%', '2026-01-02')
    >>> cell_text(-10.63, "%+.1f", "nl"), cell_text(0.44, "plain", "nl"), cell_text(-3, None, "en")
    ('−10,6', '0,44', '−3')
    """
    if value is None:
        return ""
    if callable(format):
        return format(value)
    if isinstance(value, datetime.datetime):
        return value.strftime("%Y-%m-%d %H:%M")
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, bool):
        return "✓" if value else ""
    if isinstance(value, int | float):
        if format == "plain" or format is None:
            return i18n.number(value, lang)
        return i18n.number_text(format % value, lang)
    return str(value)


def column_texts(series: pl.Series, format: Format | None = None, lang: str = "en") -> list[str]:
    """A column's cells as the table shows them (:func:`cell_text`), the common kinds at once.

    >>> column_texts(pl.Series([3, None, -12])), column_texts(pl.Series([4.0, 2.5]), "plain", "nl")
    (['3', '', '−12'], ['4', '2,5'])
    """
    dtype = series.dtype
    if format is None or (format in ("plain", "%d") and dtype.is_integer()):
        if dtype.is_integer():
            texts = series.cast(pl.String).str.replace("-", i18n.MINUS, literal=True)
            return texts.fill_null("").to_list()
        if dtype == pl.String:
            return series.fill_null("").to_list()
        if dtype == pl.Date:
            return series.dt.to_string("%Y-%m-%d").fill_null("").to_list()
        if dtype == pl.Datetime:
            return series.dt.to_string("%Y-%m-%d %H:%M").fill_null("").to_list()
    return [cell_text(value, format, lang) for value in series]


def _ignore() -> None:
    """A trigger's callback: the page reads the value where it draws the table."""


def _open_row(key: str, page: str, row: object, targets: Sequence[Mapping[str, Any]]) -> None:
    """Switch to ``page`` (language kept) at the clicked row's address, when ``row`` names one."""
    if isinstance(row, int) and not isinstance(row, bool) and 0 <= row < len(targets):
        ui.switch_to(page, targets[row])


def show(
    frame: pl.DataFrame,
    *,
    key: str,
    labels: Mapping[str, str],
    formats: Mapping[str, Format] | None = None,
    page: str | None = None,
    targets: Sequence[Mapping[str, Any]] | None = None,
    bars: Mapping[str, float] | None = None,
    wrap: Sequence[str] = (),
    detail: str | None = None,
    notes: Mapping[str, Sequence[str]] | None = None,
    caption: str = "",
    grid: str | None = None,
    offer_grid: bool = True,
    more: str = "",
    phone: Sequence[str] = (),
) -> None:
    """Draw ``frame`` as a light table; with ``page`` and ``targets`` a row click opens that page.

    :param key: the table's element key (also the prefix of its session keys).
    :param labels: each column's header, in the page's language (columns not named keep their name).
    :param formats: how numeric (or other) columns are written (see :data:`Format`).
    :param page: the page a row opens (a key of ``ui.PAGE_FILES``).
    :param targets: each row's address parameters on ``page``, in the frame's order.
    :param bars: columns drawn with a bar under the figure, and the value of a full bar.
    :param wrap: columns of words (a venue, two names, a finding's kind) that may break between
        words when the table is short of room; other cells keep to one line. On a phone, where the
        table scrolls sideways, they keep to one line too.
    :param detail: a column of long text (a finding's explanation, a comment) shown as a line
        under each row's cells, across the table, rather than as a column: a column of sentences
        beside ten others would make the table wider than a laptop's page. On a phone the line
        stays in view while the row scrolls sideways.
    :param notes: a mark after some cells of a column, row by row (``★`` after the best card's
        value): the column still sorts by its values.
    :param caption: what the table lists, for screen readers.
    :param grid: the page's name when its tables may be shown in the data grid instead (a button
        under the table, then the page's "Interactive tables" toggle, :func:`grid_toggle`).
    :param offer_grid: whether this table shows that button (a page's later tables need not).
    :param more: for a table of only its first rows, the label of a button under it that asks
        for them all: the page reruns, and :func:`wants_all` says to send every row.
    :param phone: the columns that matter most, the only ones shown where the table's box is
        :data:`PHONE_WIDTH` wide or narrower (a phone), their columns of words (``wrap``) breaking
        between words there, so that a row fits the screen; empty: every column on a phone too,
        the table scrolling sideways.
    """
    formats = formats or {}
    bars = bars or {}
    notes = notes or {}
    language = ui.lang()
    if grid is not None and st.session_state.get(grid_key(grid)):
        _show_grid(
            frame,
            key=key,
            labels=labels,
            formats=formats,
            page=page,
            targets=targets,
            bars=bars,
            wide=(detail,) if detail else (),
            notes=notes,
        )
        return
    # a click names a row of the table as the browser showed it: the last run's rows
    clicked_in = st.session_state.get(f"{key}_targets", [])
    if page is not None and targets is not None:
        st.session_state[f"{key}_targets"] = [dict(t) for t in targets]
    columns = []
    classes = _classes([(name, frame[name].dtype.is_numeric()) for name in frame.columns], wrap, phone)
    for name in frame.columns:
        series = frame[name]
        numeric = series.dtype.is_numeric()
        column: dict[str, Any] = {
            "name": name,
            "label": labels.get(name, name),
            "align": classes[name],
            "cells": column_texts(series, formats.get(name), language),
        }
        if name in notes:
            column["notes"] = list(notes[name])
        if name == detail:
            column["detail"] = True
        if numeric:
            column["keys"] = series.to_list()
        if name in bars:
            full = bars[name]
            column["bars"] = [None if v is None else max(0.0, min(100.0, 100 * v / full)) for v in series]
        columns.append(column)
    t = ui.translator()
    data: dict[str, Any] = {
        "name": key,
        "rows": frame.height,
        "columns": columns,
        "caption": caption,
        "sorting": t("table.sort_hint"),
    }
    callbacks: dict[str, Any] = {}
    if page is not None and targets is not None:
        # each row's address for a Ctrl+click, put together by the script only when asked for
        data["links"] = {"page": page, "targets": list(targets), "lang": ui.language_params()}
        data["hint"] = t("table.open_hint")
        callbacks["on_row_change"] = _ignore
    if grid is not None and offer_grid:
        data["grid"] = t("table.interactive")
        data["grid_hint"] = t("table.interactive_help")
        callbacks["on_grid_change"] = _ignore
    if more:
        data["more"] = more
        callbacks["on_more_change"] = _ignore
    result = COMPONENT(key=key, data=data, **callbacks)
    if more and result.get("more"):
        st.session_state[_all_key(key)] = True
        st.rerun()
    if grid is not None and result.get("grid"):
        st.session_state[grid_key(grid)] = True
        st.rerun()
    if page is not None:
        _open_row(key, page, result.get("row"), clicked_in)


def _classes(
    columns: Sequence[tuple[str, bool]], wrap: Sequence[str], phone: Sequence[str]
) -> dict[str, str]:
    """Each column's classes in the table (the script sets them on its header and cells): ``num``
    (right-aligned), ``wrap`` (may break between words) and, for a table with chosen phone
    columns, ``phone`` (shown on a phone, where it may break too) or ``wide`` (hidden on a phone).

    The script takes a column whose classes are exactly ``num`` for numbers (sorted largest first
    at the first click), so a column of numbers after the last phone column keeps that class and
    is hidden by its place instead: the last phone column is marked ``end``, and every column after
    it is hidden on a phone (:data:`PHONE_CSS`).

    :param columns: each column's name and whether it holds numbers, in the table's order.

    >>> columns = [("id", False), ("team_0", False), ("score", False), ("deals", True)]
    >>> _classes(columns, wrap=["team_0"], phone=["team_0", "score"])
    {'id': 'wide', 'team_0': 'wrap phone', 'score': 'phone end', 'deals': 'num'}
    >>> _classes(columns, wrap=["team_0"], phone=[])
    {'id': '', 'team_0': 'wrap', 'score': '', 'deals': 'num'}
    """
    shown = [index for index, (name, _) in enumerate(columns) if name in phone]
    last = shown[-1] if shown else None
    classes: dict[str, str] = {}
    for index, (name, numeric) in enumerate(columns):
        names = ["num"] if numeric else ["wrap"] if name in wrap else []
        if last is not None and index <= last:
            names.append("phone" if name in phone else "wide")
            if index == last:
                names.append("end")
        elif last is not None and not numeric:
            names.append("wide")  # hidden by its place too; the class says so where it is read
        classes[name] = " ".join(names)
    return classes


def _with_notes(cells: list[str], notes: Sequence[str] | None) -> list[str]:
    """Each cell with its row's mark after it (none for an empty mark).

    >>> _with_notes(["14.1", "11.5"], ["★", ""])
    ['14.1 ★', '11.5']
    """
    if notes is None:
        return cells
    return [f"{cell} {note}" if note else cell for cell, note in zip(cells, notes, strict=True)]


def _all_key(key: str) -> str:
    return f"{key}_all"


def wants_all(key: str) -> bool:
    """Whether the table under ``key`` was asked for all its rows (its ``more`` button), this
    session: a page that sends only a table's first rows sends them all from then on."""
    return bool(st.session_state.get(_all_key(key)))


def grid_key(page: str) -> str:
    """The session key of a page's "Interactive tables" choice."""
    return f"{page}_grid"


def grid_toggle(page: str) -> None:
    """The page's "Interactive tables" toggle, drawn only while it is on (its tables in the data
    grid): switching it off brings the light tables back. A page calls it once, before its tables.

    Off at first, the toggle is not drawn at all: the light table's own button turns it on, so a
    first view loads neither the grid nor the toggle's script.
    """
    if st.session_state.get(grid_key(page)):
        t = ui.translator()
        st.toggle(t("table.interactive"), key=grid_key(page), help=t("table.interactive_help"))


def _writer(format: Format | None, lang: str) -> Callable[[Any], str]:
    """:func:`cell_text` in one format, for a column the grid shows as text."""
    return lambda value: cell_text(value, format, lang)


def _show_grid(
    frame: pl.DataFrame,
    *,
    key: str,
    labels: Mapping[str, str],
    formats: Mapping[str, Format],
    page: str | None,
    targets: Sequence[Mapping[str, Any]] | None,
    bars: Mapping[str, float],
    wide: Sequence[str],
    notes: Mapping[str, Sequence[str]],
) -> None:
    """The same table in Streamlit's data grid (searching, resizing, downloading), rows still
    opening their page in-session.

    :param wide: columns of long text, given the grid's widest column.
    :param notes: marks after some cells (:func:`show`): such a column is shown as its texts.
    """
    config: dict[str, Any] = {}
    texts: list[Any] = []
    language = ui.lang()
    for name in frame.columns:
        label = labels.get(name, name)
        format = formats.get(name)
        dtype = frame[name].dtype
        if name in notes:
            cells = column_texts(frame[name], format, language)
            texts.append(pl.Series(name, _with_notes(cells, notes[name]), pl.String))
            config[name] = label
        elif callable(format) or (not dtype.is_numeric() and format is not None):
            texts.append(pl.col(name).map_elements(_writer(format, language), pl.String))
            config[name] = label
        elif name in bars:
            config[name] = st.column_config.ProgressColumn(
                label, min_value=0, max_value=bars[name], format=format or "plain"
            )
        elif dtype.is_numeric():
            config[name] = st.column_config.NumberColumn(label, format=format or "plain")
        elif dtype == pl.Date:
            config[name] = st.column_config.DateColumn(label)
        elif dtype == pl.Datetime:
            config[name] = st.column_config.DatetimeColumn(label, format="YYYY-MM-DD HH:mm")
        elif name in wide:
            config[name] = st.column_config.TextColumn(label, width="large")
        else:
            config[name] = label
    shown = frame.with_columns(*texts).with_columns(pl.col(pl.String).fill_null(""))
    follow = {} if page is None or targets is None else ui.follow_selected_row(f"{key}_grid", page, targets)
    st.dataframe(shown, hide_index=True, column_config=config, **({"key": f"{key}_grid"} | follow))
