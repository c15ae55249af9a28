"""How the chart pages show their charts: static SVG pictures first, the Plotly charts on demand.

A page's first Plotly chart makes the browser load and evaluate plotly.js (about a second in
every new tab), so the first view draws each chart as SVG made on the server
(:mod:`dashboards.charts`' ``*_svg``), and a checkbox per page, kept for the session, swaps in the
interactive charts (zoom, pan, hover). The pictures go in through :mod:`dashboards.html_view`
(its stylesheet holds their rules): ``st.markdown`` would cost a new tab its HTML parser and
the parsing of each picture into React elements (a quarter second on the Players page),
``st.html`` sanitises SVG away, and ``st.image`` would lose the tooltips and the theme's text colour.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import Any

import streamlit as st

from dashboards import charts, html_view, native_inputs, ui


def interactive(page: str) -> bool:
    """The page's "Interactive charts" checkbox (off at first, kept for the session); whether it is on.

    It is the browser's own checkbox (:mod:`dashboards.native_inputs`): Streamlit's toggle would
    cost every new tab of a chart page its scripts.

    :param page: the page's name, the prefix of its session keys (``PAGE_interactive`` holds the
        choice, ``PAGE_interactive_box`` the checkbox's state).
    """
    t = ui.translator()
    kept = f"{page}_interactive"
    field = native_inputs.Field(
        "on",
        t("charts.interactive"),
        "checkbox",
        value="true" if st.session_state.get(kept) else "",
        help=t("charts.interactive_help"),
    )
    on = native_inputs.inputs(f"{kept}_box", [field])["on"] == "true"
    st.session_state[kept] = on
    return on


PLOTLY_DUTCH = {
    "Download plot as a PNG": "Grafiek downloaden als PNG",
    "Download plot": "Grafiek downloaden",
    "Zoom": "Inzoomen op een vak",
    "Pan": "Verschuiven",
    "Box Select": "Selecteren met een vak",
    "Lasso Select": "Selecteren met een lasso",
    "Zoom in": "Inzoomen",
    "Zoom out": "Uitzoomen",
    "Autoscale": "Alles tonen",
    "Reset axes": "Assen terugzetten",
    "Reset view": "Beeld terugzetten",
    "Toggle Spike Lines": "Hulplijnen aan of uit",
    "Show closest data on hover": "Dichtstbijzijnde waarde tonen bij aanwijzen",
    "Compare data on hover": "Waarden vergelijken bij aanwijzen",
    "Double-click to zoom back out": "Dubbelklik om weer uit te zoomen",
    "Double-click on legend to isolate one trace": "Dubbelklik op de legende om één reeks alleen te tonen",
    "Snapshot succeeded": "Afbeelding gemaakt",
    "Taking snapshot - this may take a few seconds": "Afbeelding maken, dit kan enkele seconden duren",
    "Sorry, there was a problem downloading your snapshot!": "Het downloaden van de afbeelding is mislukt.",
    "Click to enter Plot title": "Klik om een titel te typen",
}
"""The texts plotly.js shows around a chart (its toolbar's tips, its notices), in Dutch: plotly.js
keeps them in English unless given a dictionary, and Streamlit bundles none."""


def plotly_config() -> dict[str, Any]:
    """The Plotly configuration for the page's language: its toolbar tips and numbers (a decimal
    comma, a thousands point) in Dutch on a Dutch page."""
    if ui.lang() != "nl":
        return {}
    return {
        "locale": "nl",
        "locales": {"nl": {"dictionary": PLOTLY_DUTCH, "format": {"decimal": ",", "thousands": "."}}},
    }


Chart = tuple[Callable[[int], str], Callable[[], Any], str]
"""One chart of :func:`show_row`: its picture at a given width, its Plotly figure, its key."""


def picture(draw: Callable[[int], str], key: str) -> str:
    """One chart's picture as HTML: the wide and the narrow drawing, the one that fits shown.

    :param draw: the picture at a given width (``charts.*_svg`` with its labels).
    :param key: the chart's key (``data-chart`` of the picture).
    """
    return (
        f'<div class="mr-chart" data-chart="{escape(key)}">'
        f'<div class="mr-wide">{draw(charts.WIDE)}</div>'
        f'<div class="mr-narrow">{draw(charts.NARROW)}</div></div>'
    )


def show(
    draw: Callable[[int], str], figure: Callable[[], Any], *, interactive: bool, key: str, after: str = ""
) -> None:
    """One chart: the SVG picture (wide and narrow drawings), or the Plotly figure when asked for.

    :param draw: the picture at a given width (``charts.*_svg`` with its labels).
    :param figure: the Plotly figure (``charts.*_figure``), built only when shown.
    :param key: the chart's key (``data-chart`` of the picture, the element's key).
    :param after: HTML drawn under the chart in the same element (a small table).
    """
    if interactive:
        st.plotly_chart(figure(), key=key, config=plotly_config())
        if after:
            html_view.show(after, key=f"{key}_after")
        return
    html_view.show(picture(draw, key) + after, key=key)


def show_row(row: Sequence[Chart], *, interactive: bool, key: str) -> None:
    """Charts side by side (one under the other on a phone), in one element.

    :param row: each chart's picture, figure and key (see :data:`Chart`).
    :param key: the element's key.
    """
    if interactive:
        for column, (_, figure, chart_key) in zip(st.columns(len(row)), row, strict=True):
            with column:
                st.plotly_chart(figure(), key=chart_key, config=plotly_config())
        return
    html_view.show(
        '<div class="mr-row">' + "".join(picture(draw, chart_key) for draw, _, chart_key in row) + "</div>",
        key=key,
    )


def show_several(pictures: Sequence[str], figure: Callable[[], Any], *, interactive: bool, key: str) -> None:
    """Small pictures side by side (as many as fit a row), or the one Plotly figure when asked for.

    :param pictures: the SVG pictures, each readable from a phone's width up.
    """
    if interactive:
        st.plotly_chart(figure(), key=key, config=plotly_config())
        return
    cells = "".join(f'<div class="mr-chart">{picture}</div>' for picture in pictures)
    html_view.show(f'<div class="mr-charts" data-chart="{escape(key)}">{cells}</div>', key=key)
