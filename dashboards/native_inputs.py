"""The browser's own form inputs (``<input>``, ``<input type=date>``, ``<select>``, a list of
check boxes) in a page.

Streamlit's date input and drop-downs cost a new tab of a page about 320 KB of JavaScript (its
date field and combo box), loaded and run before the page counts as drawn. The browser's own
inputs cost nothing to load and are what a phone is best at: its own date wheel and picker, its
own keyboard with suggestions. They are drawn here by one ``st.components.v2`` component (inline
script, no iframe, nothing fetched), which hands back what was typed or chosen.

In AppTest the component draws nothing, and a test stands in for the person by setting its
state: ``at.session_state[key] = {"chosen": {"name": "value", ...}}`` (see :func:`chosen_state`).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from functools import partial
from typing import Any, Literal

import streamlit as st

STATE = "chosen"
"""The component's one state value: every field's text by its name."""

MARK = "#"
"""In the state the browser sends, a text new with each change a person makes (see :func:`sent`)."""

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
.fields.row {
  display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 9rem), 1fr)); align-items: start;
}
.fields.row label.check { grid-column: 1 / -1; }
.fields.row .wide { grid-column: span 2; }  /* a match id whole on a phone, its own row there */
.multi {
  display: flex; flex-direction: column; gap: 0.25rem; font-size: 0.875rem; color: var(--st-text-color);
}
.multi details { position: relative; }
.multi summary {
  list-style: none; cursor: pointer; min-height: 2.5rem; box-sizing: border-box;
  padding: 0.35rem 2rem 0.35rem 0.75rem;
  font-size: var(--st-base-font-size, 1rem); background: var(--st-secondary-background-color);
  border: 1px solid var(--st-widget-border-color, transparent); border-radius: var(--st-base-radius, 0.5rem);
  white-space: nowrap; overflow: hidden; text-overflow: ellipsis; position: relative;
}
.multi summary::-webkit-details-marker { display: none; }
.multi .menu label.option { flex-shrink: 0; padding: 0.2rem 0; }  /* a long label wraps, not overlaps */
.multi summary::after { content: "\\25BE"; position: absolute; right: 0.75rem; opacity: 0.7; }
.multi summary.none { opacity: 0.7; }
.multi summary:focus-visible { outline: 1px solid var(--st-primary-color); }
.multi .menu {  /* over what follows, as a drop-down's list */
  position: absolute; z-index: 10; left: 0; min-width: 100%; box-sizing: border-box;
  box-shadow: 0 4px 12px rgba(0, 0, 0, 0.25);
  display: flex; flex-direction: column; max-height: 15rem; overflow-y: auto; margin-top: 0.25rem;
  padding: 0.25rem 0.75rem; background: var(--st-secondary-background-color);
  border-radius: var(--st-base-radius, 0.5rem);
}
"""

_JS = """
const MARK = '#';

function build(f, root, setStateValue) {
  const tag = {radio: 'fieldset', multi: 'div'}[f.kind] || 'label';
  const label = document.createElement(tag);
  label.dataset.name = f.name;
  label.appendChild(document.createElement(f.kind === 'radio' ? 'legend' : 'span'));
  const send = (value) => {
    // marked as sent by the person (a state the page itself set for the inputs has no mark); the
    // marks in the order sent tell which of them a run had seen (see data.seen)
    const mark = `${Date.now()}-${Math.random()}`;
    root.marks.push(mark);
    root.pending = Object.assign({}, root.pending, {[f.name]: [value, root.marks.length]});
    root.values = Object.assign({}, root.values, {[f.name]: value});
    setStateValue('chosen', Object.assign({}, root.values, {[MARK]: mark}));
  };
  if (f.kind === 'radio') {
    label.addEventListener('change', (event) => send(event.target.value));
  } else if (f.kind === 'multi') {  // a drop-down of check boxes: the ticked values, a JSON list
    label.className = 'multi';
    const details = label.appendChild(document.createElement('details'));
    details.appendChild(document.createElement('summary'));
    details.appendChild(document.createElement('div')).className = 'menu';
    label.addEventListener('change', () => {
      const ticked = [...label.querySelectorAll('.menu input:checked')].map((box) => box.value);
      summarise(label, f, ticked);
      send(JSON.stringify(ticked));
    });
    // closes on a click elsewhere in the page, as a drop-down does
    document.addEventListener('click', (event) => {
      if (details.open && !event.composedPath().includes(details)) details.open = false;
    });
    // and from the keyboard: Escape, or Tab past its last box (a match list was 297 Tabs, left open)
    details.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape' || !details.open) return;
      details.open = false;
      details.querySelector('summary').focus();
      event.stopPropagation();
    });
    details.addEventListener('focusout', (event) => {
      // only a move to another control: a click on an option's text passes through the page
      if (details.open && event.relatedTarget && !details.contains(event.relatedTarget)) details.open = false;
    });
  } else {
    const input = document.createElement(f.kind === 'select' ? 'select' : 'input');
    input.name = f.name;
    if (f.kind !== 'select') input.type = f.kind;
    if (f.kind === 'text') Object.assign(input, {autocomplete: 'off', enterKeyHint: 'next'});
    if (f.kind === 'number') input.inputMode = 'numeric';
    if (f.minimum !== null) input.min = f.minimum;
    if (f.maximum !== null) input.max = f.maximum;
    if (f.step !== null) input.step = f.step;
    if (f.suggest) input.setAttribute('list', `suggest-${f.suggest}`);
    if (f.kind === 'checkbox') label.className = 'option check';
    const text = () => (f.kind === 'checkbox' ? (input.checked ? 'true' : '') : input.value);
    input.addEventListener('change', () => send(text()));
    label.appendChild(input);
  }
  if (f.wide) label.classList.add('wide');
  const help = label.appendChild(document.createElement('small'));
  help.className = 'help';
  return label;
}

function summarise(details, f, ticked) {
  const summary = details.querySelector('summary');
  const names = new Map(f.options);
  summary.textContent = ticked.length ? ticked.map((value) => names.get(value)).join(', ') : f.placeholder;
  summary.classList.toggle('none', !ticked.length);
  // a screen reader heard "All" six times: the summary names its filter too
  summary.setAttribute('aria-label', `${f.label}: ${summary.textContent}`);
}

function same(label, options) {  // true when the options drawn are these (else notes them)
  const text = JSON.stringify(options);
  if (label.dataset.options === text) return true;
  label.dataset.options = text;
  return false;
}

function ticked(value) {
  try {
    const list = JSON.parse(value || '[]');
    return Array.isArray(list) ? list : [];
  } catch (error) {
    return [];
  }
}

export default function ({ data, parentElement, setStateValue }) {
  let root = parentElement.querySelector('.fields');
  if (!root) {
    root = parentElement.appendChild(document.createElement('div'));
    root.className = 'fields';
  }
  root.classList.toggle('row', Boolean(data.row));
  // A value sent but not yet seen by the run that drew this stays: a run that started before it
  // was typed must not wipe it (the next state sent would lose it for good). Once a run has seen
  // it, what the run drew is the page's answer, a value it replaced on purpose included.
  root.pending = root.pending || {};
  root.marks = root.marks || [];
  const seen = root.marks.indexOf(data.seen) + 1;  // how many of the marks sent the run had seen
  for (const [name, [value, sent]] of Object.entries(root.pending)) {
    if ((data.values[name] ?? '') === value || sent <= seen) delete root.pending[name];
  }
  root.values = Object.assign({}, data.values, ...Object.entries(root.pending).map(([n, [v]]) => ({[n]: v})));
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
  let previous = null;
  for (const f of data.fields) {
    const label = root.querySelector(`[data-name="${f.name}"]`) || build(f, root, setStateValue);
    // In the order of the fields, moved only when out of place: moving an element takes the
    // focus from the input in it, and what is typed next (a run late on a busy machine lands
    // while the next name is typed) would go nowhere and never reach the server.
    if (previous === null && label.parentNode !== root) {
      root.insertBefore(label, root.querySelector('[data-name]'));
    }
    if (previous !== null && previous.nextElementSibling !== label) previous.after(label);
    previous = label;
    kept.add(label);
    label.firstChild.textContent = f.label;
    label.querySelector('.help').textContent = f.kind === 'checkbox' ? '' : f.help;
    const value = root.values[f.name] ?? '';
    if (f.kind === 'radio') {
      if (same(label, f.options)) {
        label.querySelectorAll('input').forEach((input) => {
          Object.assign(input, {disabled: f.disabled, checked: input.value === value});
        });
        continue;
      }
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
    if (f.kind === 'multi') {
      const chosen = new Set(ticked(value));
      const menu = label.querySelector('.menu');
      if (same(label, f.options)) {
        menu.querySelectorAll('input').forEach((box) => {
          Object.assign(box, {disabled: f.disabled, checked: chosen.has(box.value)});
        });
      } else menu.replaceChildren(...f.options.map(([choice, text]) => {
        const option = document.createElement('label');
        option.className = 'option';
        const box = option.appendChild(document.createElement('input'));
        Object.assign(box, {type: 'checkbox', value: choice, disabled: f.disabled});
        box.checked = chosen.has(choice);
        option.append(text);
        return option;
      }));
      summarise(label, f, f.options.map(([choice]) => choice).filter((choice) => chosen.has(choice)));
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
    if (f.kind === 'select' && !same(label, f.options)) {
      input.replaceChildren(...f.options.map(([v, text]) => new Option(text, v)));
    }
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
    ``date`` (ISO text, ``2026-12-01``, from ``minimum`` to ``maximum``), ``number`` (from
    ``minimum`` in steps of ``step``), ``select``/``radio`` (one of
    ``options``, pairs of value and label), ``multi`` (any of ``options``: a drop-down of check
    boxes showing ``placeholder`` when none is ticked; its text is a JSON list, see :func:`many`)
    or ``checkbox`` (``"true"`` when ticked, else ``""``); ``help`` is a line under it (a
    checkbox's tooltip)."""

    name: str
    label: str
    kind: Literal["text", "date", "number", "select", "radio", "multi", "checkbox"] = "text"
    value: str = ""
    placeholder: str = ""
    suggest: str = ""
    options: Sequence[tuple[str, str]] = ()
    help: str = ""
    disabled: bool = False
    minimum: int | str | None = None
    maximum: int | str | None = None
    step: int | None = None
    wide: bool = False
    """In a row, twice a field's width: on a phone the whole row (a match id read whole)."""


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


def many(text: str) -> list[str]:
    """The values of a ``multi`` field's text (a JSON list; anything else is none).

    >>> many('["Anna", "Dirk"]'), many(""), many("Anna")
    (['Anna', 'Dirk'], [], [])
    """
    try:
        values = json.loads(text or "[]")
    except ValueError:
        return []
    return [str(value) for value in values] if isinstance(values, list) else []


def many_text(values: Sequence[str]) -> str:
    """A ``multi`` field's text for ``values`` (its ``value``, or the state a test sets).

    >>> many_text(["Anna"])
    '["Anna"]'
    """
    return json.dumps(list(values))


def sent_state(values: dict[str, str]) -> dict[str, dict[str, str]]:
    """The component's state for ``values`` as the browser sends it when a person changed an
    input: with a new :data:`MARK` (see :func:`sent`).

    >>> sorted(sent_state({"step": "3"})["chosen"])
    ['#', 'step']
    """
    return {STATE: {**values, MARK: uuid.uuid4().hex}}


def sent(key: str) -> dict[str, str]:
    """What a person chose in the inputs under ``key`` since this was last asked; empty when
    nothing was.

    For a page that also moves what the inputs show by other means (buttons) and hands them
    their values each run: the state the browser holds may be older than what was last drawn
    (a click of a button sends it again), so only a state sent with a new mark is a choice.
    """
    values = chosen(key)
    mark = values.pop(MARK, None)
    seen = f"{key}__seen"
    if mark is None or mark == st.session_state.get(seen):
        return {}
    st.session_state[seen] = mark
    return values


def _merged(fields: Sequence[Field], state: object) -> dict[str, str]:
    """Each field's value, overridden by what ``state`` (the component's) says was typed or
    chosen; a ``select`` keeps only a value among its options, a ``multi`` only the values
    among its options."""
    chosen = {f.name: f.value for f in fields}
    values = state.get(STATE) if hasattr(state, "get") else None
    if isinstance(values, dict):
        chosen |= {k: str(v) for k, v in values.items() if k in chosen and v is not None}
    for f in fields:
        offered = {value for value, _ in f.options}
        if f.kind in ("select", "radio") and chosen[f.name] not in offered:
            chosen[f.name] = f.value
        if f.kind == "multi":
            chosen[f.name] = many_text([value for value in many(chosen[f.name]) if value in offered])
    return chosen


def chosen(key: str) -> dict[str, str]:
    """What was typed or chosen so far in the inputs under ``key`` (empty before anything was),
    for a page that labels one input by what another holds."""
    state = st.session_state.get(key)
    values = state.get(STATE) if isinstance(state, dict) else None
    return {k: str(v) for k, v in values.items() if v is not None} if isinstance(values, dict) else {}


def forget(key: str, *names: str) -> None:
    """Drop what was chosen in these fields under ``key``: this run draws their ``value`` again,
    and the browser takes it (what a run draws is the page's answer). For a field whose default
    depends on another's choice (the first dealer on the number of players)."""
    state = st.session_state.get(key)
    values = state.get(STATE) if isinstance(state, dict) else None
    if isinstance(values, dict):
        for name in names:
            values.pop(name, None)


def _noted_key(key: str) -> str:
    return f"{key}__noted"


def _note_mark(key: str) -> None:
    """The component's callback, run before the page when the browser sent a new state: note its
    mark before the page may replace the state (the browser then learns its value was seen)."""
    mark = chosen(key).get(MARK)
    if mark:
        st.session_state[_noted_key(key)] = mark


def inputs(
    key: str,
    fields: Sequence[Field],
    lists: Mapping[str, Sequence[str]] | None = None,
    *,
    row: bool = False,
) -> dict[str, str]:
    """Draw ``fields`` as the browser's own inputs; each field's text by its name.

    A field shows its ``value`` until something else is typed or chosen in it. The page reruns
    when an input changes (a text input once it loses focus or Enter is pressed, as Streamlit's
    own does).

    :param key: the inputs' key in session state (what was chosen is kept under it).
    :param lists: the words text fields suggest, by the name a field's ``suggest`` gives.
    :param row: side by side as many as fit the width (a row of filters), not one under another.
    """
    defaults = {f.name: f.value for f in fields}
    shown = _merged(fields, st.session_state.get(key))  # what the inputs show this run
    words = {name: list(values) for name, values in (lists or {}).items()}
    seen = st.session_state.get(_noted_key(key), "")  # the last mark the browser sent, as a run saw it
    data = {"fields": [asdict(f) for f in fields], "values": shown, "lists": words, "row": row, "seen": seen}
    result = _component()(
        key=key,
        data=data,
        default={STATE: defaults},
        on_chosen_change=partial(_note_mark, key),
        width="stretch",
    )
    return _merged(fields, result)
