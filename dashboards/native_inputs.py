"""The browser's own form inputs (``<input>``, ``<input type=date>``, ``<select>``) in a page.

Streamlit's date input and drop-downs cost a new tab of a page about 320 KB of JavaScript (its
date field and combo box), loaded and run before the page counts as drawn. The browser's own
inputs cost nothing to load and are what a phone is best at: its own date wheel and picker, its
own keyboard with suggestions. They are drawn here by one ``st.components.v2`` component (inline
script, no iframe, nothing fetched), which hands back what was typed or chosen.

In AppTest the component draws nothing, and a test stands in for the person by setting its
state: ``at.session_state[key] = {"chosen": {"name": "value", ...}}`` (see :func:`chosen_state`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

import streamlit as st

STATE = "chosen"
"""The component's one state value: every field's text by its name."""

_CSS = """
:host { display: block; }
.fields {
  display: flex; flex-direction: column; gap: 0.75rem; font-family: var(--st-font, sans-serif);
}
label {
  display: flex; flex-direction: column; gap: 0.25rem; font-size: 0.875rem; color: var(--st-text-color);
}
input, select {
  box-sizing: border-box; width: 100%; min-height: 2.5rem; padding: 0.35rem 0.75rem;
  font: inherit; font-size: var(--st-base-font-size, 1rem); color: var(--st-text-color);
  background: var(--st-secondary-background-color);
  border: 1px solid var(--st-widget-border-color, transparent);
  border-radius: var(--st-base-radius, 0.5rem); color-scheme: light dark;
}
input:focus, select:focus { outline: 1px solid var(--st-primary-color); }
fieldset { border: 0; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 0.25rem 1.25rem; }
legend { padding: 0; margin-bottom: 0.25rem; font-size: 0.875rem; width: 100%; }
label.option { flex-direction: row; align-items: center; gap: 0.4rem; font-size: 1rem; min-height: 2rem; }
label.option input { width: auto; min-height: 0; accent-color: var(--st-primary-color); }
label.check input { order: -1; }
fieldset:disabled, input:disabled, label.option:has(input:disabled) { opacity: 0.55; }
.help { width: 100%; font-size: 0.8rem; opacity: 0.7; }
.help:empty { display: none; }
"""

_JS = """
function build(f, root, setStateValue) {
  const label = document.createElement(f.kind === 'radio' ? 'fieldset' : 'label');
  label.dataset.name = f.name;
  label.appendChild(document.createElement(f.kind === 'radio' ? 'legend' : 'span'));
  const send = (value) => {
    root.pending = Object.assign({}, root.pending, {[f.name]: value});
    root.values = Object.assign({}, root.values, {[f.name]: value});
    setStateValue('chosen', root.values);
  };
  if (f.kind === 'radio') {
    label.addEventListener('change', (event) => send(event.target.value));
  } else {
    const input = document.createElement(f.kind === 'select' ? 'select' : 'input');
    input.name = f.name;
    if (f.kind !== 'select') input.type = f.kind;
    if (f.kind === 'text') Object.assign(input, {autocomplete: 'off', enterKeyHint: 'next'});
    if (f.kind === 'number') input.inputMode = 'numeric';
    if (f.minimum !== null) input.min = f.minimum;
    if (f.step !== null) input.step = f.step;
    if (f.suggest) input.setAttribute('list', `suggest-${f.suggest}`);
    if (f.kind === 'checkbox') label.className = 'option check';
    const text = () => (f.kind === 'checkbox' ? (input.checked ? 'true' : '') : input.value);
    input.addEventListener('change', () => send(text()));
    label.appendChild(input);
  }
  const help = label.appendChild(document.createElement('small'));
  help.className = 'help';
  return label;
}

export default function ({ data, parentElement, setStateValue }) {
  let root = parentElement.querySelector('.fields');
  if (!root) {
    root = parentElement.appendChild(document.createElement('div'));
    root.className = 'fields';
  }
  // A value sent but not yet in what the server drew stays: a run that started before it was
  // typed must not wipe it (the next state sent would lose it for good).
  root.pending = root.pending || {};
  for (const [name, value] of Object.entries(root.pending)) {
    if ((data.values[name] ?? '') === value) delete root.pending[name];
  }
  root.values = Object.assign({}, data.values, root.pending);
  for (const [name, words] of Object.entries(data.lists)) {  // one list of suggestions per kind
    let list = root.querySelector(`#suggest-${name}`);
    if (!list) {
      list = root.appendChild(document.createElement('datalist'));
      list.id = `suggest-${name}`;
    }
    list.replaceChildren(...words.map((word) => new Option(word, word)));
  }
  const focused = parentElement.activeElement || document.activeElement;
  const kept = new Set();
  for (const f of data.fields) {
    const label = root.querySelector(`[data-name="${f.name}"]`) || build(f, root, setStateValue);
    root.appendChild(label);  // in the order of the fields
    kept.add(label);
    label.firstChild.textContent = f.label;
    label.querySelector('.help').textContent = f.kind === 'checkbox' ? '' : f.help;
    const value = root.values[f.name] ?? '';
    if (f.kind === 'radio') {
      label.querySelectorAll('label').forEach((option) => option.remove());
      for (const [choice, text] of f.options) {
        const option = label.insertBefore(document.createElement('label'), label.querySelector('.help'));
        option.className = 'option';
        const input = option.appendChild(document.createElement('input'));
        Object.assign(input, {type: 'radio', name: f.name, value: choice, disabled: f.disabled});
        input.checked = choice === value;
        option.append(text);
      }
      continue;
    }
    const input = label.querySelector('input, select');
    input.disabled = f.disabled;
    if (f.kind === 'checkbox') {  // its help is the label's tooltip, as Streamlit's toggles have it
      input.checked = value === 'true';
      label.title = f.help;
      continue;
    }
    if (f.placeholder) input.placeholder = f.placeholder;
    const typing = input.value;  // an input in use keeps what is in it
    if (f.kind === 'select') input.replaceChildren(...f.options.map(([v, text]) => new Option(text, v)));
    const wanted = input === focused ? typing : value;
    if (input.value !== wanted) input.value = wanted;
  }
  for (const label of root.querySelectorAll('[data-name]')) if (!kept.has(label)) label.remove();
}
"""

_COMPONENT: Any = None


@dataclass(frozen=True)
class Field:
    """One input: ``text`` (offering the words of the list named ``suggest`` as it is typed),
    ``date`` (ISO text, ``2026-12-01``), ``number`` (from ``minimum`` in steps of ``step``),
    ``select``/``radio`` (one of ``options``, pairs of value and label), or ``checkbox``
    (``"true"`` when ticked, else ``""``); ``help`` is a line under it (a checkbox's tooltip)."""

    name: str
    label: str
    kind: Literal["text", "date", "number", "select", "radio", "checkbox"] = "text"
    value: str = ""
    placeholder: str = ""
    suggest: str = ""
    options: Sequence[tuple[str, str]] = ()
    help: str = ""
    disabled: bool = False
    minimum: int | None = None
    step: int | None = None


def _component() -> Any:
    """The component, registered once per process (registering again would only log a warning)."""
    global _COMPONENT
    if _COMPONENT is None:
        _COMPONENT = st.components.v2.component("manillen_native_inputs", css=_CSS, js=_JS)
    return _COMPONENT


def chosen_state(values: dict[str, str]) -> dict[str, dict[str, str]]:
    """The component's state for ``values``, as a test sets it in session state.

    >>> chosen_state({"seat_0": "Anna"})
    {'chosen': {'seat_0': 'Anna'}}
    """
    return {STATE: dict(values)}


def _merged(fields: Sequence[Field], state: object) -> dict[str, str]:
    """Each field's value, overridden by what ``state`` (the component's) says was typed or
    chosen; a ``select`` keeps only a value among its options."""
    chosen = {f.name: f.value for f in fields}
    values = state.get(STATE) if hasattr(state, "get") else None
    if isinstance(values, dict):
        chosen |= {k: str(v) for k, v in values.items() if k in chosen and v is not None}
    for f in fields:
        if f.kind in ("select", "radio") and chosen[f.name] not in {value for value, _ in f.options}:
            chosen[f.name] = f.value
    return chosen


def chosen(key: str) -> dict[str, str]:
    """What was typed or chosen so far in the inputs under ``key`` (empty before anything was),
    for a page that labels one input by what another holds."""
    state = st.session_state.get(key)
    values = state.get(STATE) if isinstance(state, dict) else None
    return {k: str(v) for k, v in values.items() if v is not None} if isinstance(values, dict) else {}


def inputs(
    key: str, fields: Sequence[Field], lists: Mapping[str, Sequence[str]] | None = None
) -> dict[str, str]:
    """Draw ``fields`` as the browser's own inputs; each field's text by its name.

    A field shows its ``value`` until something else is typed or chosen in it. The page reruns
    when an input changes (a text input once it loses focus or Enter is pressed, as Streamlit's
    own does).

    :param key: the inputs' key in session state (what was chosen is kept under it).
    :param lists: the words text fields suggest, by the name a field's ``suggest`` gives.
    """
    defaults = {f.name: f.value for f in fields}
    shown = _merged(fields, st.session_state.get(key))  # what the inputs show this run
    words = {name: list(values) for name, values in (lists or {}).items()}
    data = {"fields": [asdict(f) for f in fields], "values": shown, "lists": words}
    result = _component()(
        key=key, data=data, default={STATE: defaults}, on_chosen_change=lambda: None, width="stretch"
    )
    return _merged(fields, result)
