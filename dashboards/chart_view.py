"""How the chart pages show their charts: static SVG pictures first, the Plotly charts on demand.

A page's first Plotly chart makes the browser load and evaluate plotly.js (about a second in
every new tab), so the first view draws each chart as SVG made on the server
(:mod:`dashboards.charts`' ``*_svg``), and a checkbox per page, kept for the session, swaps in the
interactive charts (zoom, pan, hover). The pictures go in through ``st.markdown``: ``st.html``
sanitises SVG away, and ``st.image`` would lose the tooltips and the theme's text colour.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import Any

import streamlit as st

from dashboards import charts, native_inputs, ui

STYLE = """<style>
.mr-chart { container-type: inline-size; max-width: 960px; margin-bottom: 0.5rem; }
.mr-chart svg.chart { display: block; width: 100%; height: auto; overflow: visible; }
.mr-chart .mr-narrow { display: none; }
@container (max-width: 560px) {
  .mr-chart .mr-wide { display: none; }
  .mr-chart .mr-narrow { display: block; }
}
.mr-charts { display: grid; gap: 0.25rem 1.5rem; max-width: 1000px;
  grid-template-columns: repeat(auto-fill, minmax(min(100%, 400px), 1fr)); }
.mr-chart g.bar:hover, .mr-chart g.point:hover { opacity: 0.75; }
</style>"""
"""Each picture fills its column (up to a laptop's reading width); in a column narrower than a
phone's screen the narrow drawing replaces the wide one, so the text stays readable. Each chart
carries the rules (600 bytes): sent through ``st.html`` they would cost every new tab the
loading of its sanitiser's scripts."""


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


def show(draw: Callable[[int], str], figure: Callable[[], Any], *, interactive: bool, key: str) -> None:
    """One chart: the SVG picture (wide and narrow drawings), or the Plotly figure when asked for.

    :param draw: the picture at a given width (``charts.*_svg`` with its labels).
    :param figure: the Plotly figure (``charts.*_figure``), built only when shown.
    :param key: the chart's element key (``data-chart`` of the picture).
    """
    if interactive:
        st.plotly_chart(figure(), key=key)
        return
    st.markdown(
        f'<div class="mr-chart" data-chart="{escape(key)}">{STYLE}'
        f'<div class="mr-wide">{draw(charts.WIDE)}</div>'
        f'<div class="mr-narrow">{draw(charts.NARROW)}</div></div>',
        unsafe_allow_html=True,
    )


def show_several(pictures: Sequence[str], figure: Callable[[], Any], *, interactive: bool, key: str) -> None:
    """Small pictures side by side (as many as fit a row), or the one Plotly figure when asked for.

    :param pictures: the SVG pictures, each readable from a phone's width up.
    """
    if interactive:
        st.plotly_chart(figure(), key=key)
        return
    cells = "".join(f'<div class="mr-chart">{picture}</div>' for picture in pictures)
    st.markdown(
        f'<div class="mr-charts" data-chart="{escape(key)}">{STYLE}{cells}</div>', unsafe_allow_html=True
    )
