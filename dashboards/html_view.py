"""HTML made on the server (the charts' SVG pictures, rows of figures, small tables), drawn in the page.

``st.markdown(..., unsafe_allow_html=True)`` costs a new tab Streamlit's HTML-in-markdown scripts
(rehype-raw and its parser, 190 KB) and, worse, the parsing of every picture into React
elements on the browser's main thread before the page is drawn: the Players page's twelve
pictures and figures added 0.27 s to a bare page that way, and 0.12 s as one element of this
component, 0.05 s of which any components-v2 element costs (medians of 9 new tabs each, in turn,
in the page-load bench's browser).
``st.html`` would sanitise the SVG away. This component (``st.components.v2``, mounted in the
page itself, no iframe, its script inline) sets the HTML as the content of its element; the
pages that use it load the components' scripts anyway (the light tables, the browser's own
inputs).

The HTML is the server's own, built with every text escaped (:mod:`dashboards.charts`,
:func:`dashboards.ui.figures_html`): nothing a person typed is inserted unescaped.

In AppTest the component draws nothing; its HTML is in the element's JSON data (``html``).
"""

from __future__ import annotations

from typing import Any

import streamlit as st

NAME = "manillen.html"
"""The component's name (what AppTest reports as the element's ``component_name``)."""

CSS = """
:host { display: block; }
.mr-html { color: var(--st-text-color, inherit); font-family: var(--st-font, inherit); }
.mr-html > :last-child { margin-bottom: 1rem; }
.mr-chart { container-type: inline-size; max-width: 960px; margin-bottom: 0.5rem; }
.mr-chart svg.chart { display: block; width: 100%; height: auto; overflow: visible; }
.mr-chart .mr-narrow { display: none; }
@container (max-width: 560px) {
  .mr-chart .mr-wide { display: none; }
  .mr-chart .mr-narrow { display: block; }
}
.mr-charts, .mr-row { display: grid; gap: 0.25rem 1.5rem; max-width: 1000px;
  grid-template-columns: repeat(auto-fill, minmax(min(100%, 400px), 1fr)); }
.mr-row { max-width: none; grid-template-columns: repeat(auto-fit, minmax(min(100%, 340px), 1fr)); }
.mr-chart g.bar:hover, .mr-chart g.point:hover { opacity: 0.75; }
.mr-metrics { display: grid; gap: 0 1rem; grid-template-columns: repeat(auto-fit, minmax(8.5rem, 1fr)); }
.mr-metric { margin-bottom: 0.75rem; min-width: 0; }
.mr-metric .label { font-size: 0.875rem; }
.mr-metric .value { font-size: 2.25rem; line-height: 1.4; overflow-wrap: anywhere; }
.mr-metric .help { cursor: help; opacity: 0.6; font-size: 0.7rem; border: 1px solid; border-radius: 50%;
  padding: 0 0.35em; margin-left: 0.25em; }
.mr-scroll { overflow-x: auto; max-width: 100%; }
.mr-plain-table { border-collapse: collapse; font-size: 0.875rem; margin: 0.5rem 0 1rem; }
.mr-plain-table th, .mr-plain-table td { padding: 0.3rem 0.75rem; text-align: left;
  border: 1px solid var(--st-border-color, rgba(128, 128, 128, 0.3)); }
.mr-plain-table th { font-weight: 600; background: var(--st-secondary-background-color, transparent); }
.mr-plain-table .num { text-align: right; font-variant-numeric: tabular-nums; }
"""
"""The rules of everything drawn here, sent once with the component: the pictures fill their
column (up to a laptop's reading width), and in a column narrower than a phone's screen the
narrow drawing replaces the wide one, so the text stays readable; a row of figures wraps on a
phone; theme colours come from Streamlit's ``--st-*`` variables (light and dark themes)."""

JS = """
export default function ({ data, parentElement }) {
  let box = parentElement.querySelector('.mr-html');
  if (!box) {
    box = parentElement.appendChild(document.createElement('div'));
    box.className = 'mr-html';
  }
  if (box.__html !== data.html) {  // a rerun that sends the same HTML leaves the drawing alone
    box.innerHTML = data.html;
    box.__html = data.html;
  }
}
"""

_COMPONENT: Any = None


def _component() -> Any:
    """The component, registered on first use: in a script run, where Streamlit's runtime exists.

    Registered at import, it could land in a registry of its own and be unknown to the server:
    the server's preload thread imports :mod:`dashboards.ui` (which imports this) while the
    runtime may not exist yet.
    """
    global _COMPONENT
    if _COMPONENT is None:
        _COMPONENT = st.components.v2.component(NAME, css=CSS, js=JS)
    return _COMPONENT


def show(html: str, *, key: str) -> None:
    """Draw ``html`` (the server's own markup, every text in it escaped) as an element of the page.

    :param key: the element's key, unique on the page.
    """
    _component()(key=key, data={"html": html}, width="stretch")
