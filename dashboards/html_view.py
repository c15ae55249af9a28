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
:func:`dashboards.ui.figures_html`, :mod:`dashboards.cards`): nothing a person typed is inserted
unescaped.

A drawing can also be clicked (the deal replay: its step buttons, slider and tricks are one
drawing, not thirty Streamlit elements): with ``on_click``, a click of an element carrying
``data-send="VALUE"``, a change of an ``<input data-send-value>`` (its value), or a key of ``keys``
pressed anywhere in the page outside a text field, sends that value back as the component's
``clicked`` trigger, and ``on_click`` gets it before the page's next run.

In AppTest the component draws nothing; its HTML is in the element's JSON data (``html``), and a
test sends a click as the browser does (the ``clicked`` trigger, see tests/test_dashboard_replay.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal

import streamlit as st

from dashboards import cards

NAME = "manillen.html"
"""The component's name (what AppTest reports as the element's ``component_name``); the one
drawing cards is ``NAME + ".cards"`` (see :data:`NAMES`)."""

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
"""The rules of everything drawn here, sent with each of its elements: the pictures fill their
column (up to a laptop's reading width), and in a column narrower than a phone's screen the
narrow drawing replaces the wide one, so the text stays readable; a row of figures wraps on a
phone; theme colours come from Streamlit's ``--st-*`` variables (light and dark themes)."""

STYLESHEETS = {"": CSS, "cards": CSS + cards.CSS}
"""The stylesheets a drawing can have: the component sends its stylesheet with each element, so
the cards and the rest of the deal replay's drawing (:data:`dashboards.cards.CSS`) go only with
the drawings that ask for ``cards``, as a component of their own."""

NAMES = {name: NAME + (f".{name}" if name else "") for name in STYLESHEETS}
"""Each stylesheet's component name."""

JS = """
const KEYS = window.__manillenHtmlKeys || (window.__manillenHtmlKeys = new Map());
if (!window.__manillenHtmlKeyListener) {  // one listener for the page: the keys of drawings shown
  window.__manillenHtmlKeyListener = true;
  document.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.shiftKey) return;
    const target = event.composedPath()[0];
    // a key typed in a field (or moving a slider, a drop-down) is the field's own
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    for (const [box, keys] of KEYS) {
      if (!box.isConnected) { KEYS.delete(box); continue; }
      if (keys[event.key] === undefined) continue;
      event.preventDefault();
      box.__send(keys[event.key]);
    }
  });
}

function focusable(element) {  // how to find an element again in a new drawing
  if (element.dataset.button) return `[data-button="${element.dataset.button}"]`;
  if (element.name) return `[name="${element.name}"]`;
  if (element.dataset.send) return `[data-send="${element.dataset.send}"]`;
  return null;
}

export default function ({ data, parentElement, setTriggerValue }) {
  let box = parentElement.querySelector('.mr-html');
  if (!box) {
    box = parentElement.appendChild(document.createElement('div'));
    box.className = 'mr-html';
    box.addEventListener('click', (event) => {
      const button = event.target.closest('[data-send]');
      if (button && box.__clicks && !button.disabled) box.__send(button.dataset.send);
    });
    box.addEventListener('change', (event) => {
      if (box.__clicks && event.target.matches('input[data-send-value]')) box.__send(event.target.value);
    });
    box.addEventListener('input', (event) => {  // a slider's value beside its label follows the thumb
      const shown = event.target.closest('label')?.querySelector('output');
      if (shown && event.target.matches('input[type=range]')) shown.textContent = event.target.value;
    });
  }
  box.__clicks = Boolean(data.clicks);
  box.__send = (value) => setTriggerValue('clicked', value);
  if (box.__html !== data.html) {  // a rerun that sends the same HTML leaves the drawing alone
    // the button (or slider) that had the focus has it again in the new drawing: a person
    // stepping with Enter or Space on Forward goes on stepping
    const active = box.getRootNode().activeElement;
    const again = active && box.contains(active) ? focusable(active) : null;
    box.innerHTML = data.html;
    box.__html = data.html;
    if (again) box.querySelector(again)?.focus();
  }
  if (data.clicks && Object.keys(data.keys || {}).length) KEYS.set(box, data.keys);
  else KEYS.delete(box);
}
"""

_COMPONENTS: dict[str, Any] = {}


def _component(stylesheet: str = "") -> Any:
    """The component, registered on first use: in a script run, where Streamlit's runtime exists.

    Registered at import, it could land in a registry of its own and be unknown to the server:
    the server's preload thread imports :mod:`dashboards.ui` (which imports this) while the
    runtime may not exist yet.
    """
    if stylesheet not in _COMPONENTS:
        _COMPONENTS[stylesheet] = st.components.v2.component(
            NAMES[stylesheet], css=STYLESHEETS[stylesheet], js=JS
        )
    return _COMPONENTS[stylesheet]


def clicked(key: str) -> str | None:
    """What the last click of the drawing ``key`` sent (its ``data-send``), in its ``on_click``;
    ``None`` when nothing was."""
    state = st.session_state.get(key)
    value = state.get("clicked") if isinstance(state, dict) else None
    return None if value is None else str(value)


def show(
    html: str,
    *,
    key: str,
    on_click: Callable[[str], object] | None = None,
    keys: Mapping[str, str] | None = None,
    stylesheet: Literal["", "cards"] = "",
) -> None:
    """Draw ``html`` (the server's own markup, every text in it escaped) as an element of the page.

    :param key: the element's key, unique on the page.
    :param on_click: called with the value a click sent (see the module's description), before
        the page's next run; without it the drawing sends nothing.
    :param keys: the value each key sends (``"ArrowRight"``, ``"Home"``: the browser's key names)
        while this drawing is on the page, as a click would.
    :param stylesheet: ``cards`` for a drawing of cards (:data:`STYLESHEETS`).
    """
    data = {"html": html, "clicks": on_click is not None, "keys": dict(keys or {})}
    if on_click is None:
        _component(stylesheet)(key=key, data=data, width="stretch")
        return

    def _clicked() -> None:
        value = clicked(key)
        if value is not None:
            on_click(value)

    _component(stylesheet)(key=key, data=data, width="stretch", on_clicked_change=_clicked)
