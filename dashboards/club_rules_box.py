"""The organiser saves the house rules chosen on a page as a club's rules, under a name: the
fields and the saving the Record page and the Club evening page share.

Each page keeps its own widget keys (``{prefix}_club_rules_name``, ...), so the two pages'
fields never meet; the name just saved is said once after the page reruns, where the page
chooses (:func:`said_saved`), since the Club evening page's fields sit in a form that a rerun
closes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

import streamlit as st

from dashboards import data, ui
from manillen_replay.club_rules import ClubRules
from manillen_replay.errors import ManillenError
from manillen_replay.rules import Rules


class SaveFields(NamedTuple):
    """What the organiser typed and pressed."""

    name: str
    replace: bool
    pressed: bool


def saved_key(prefix: str) -> str:
    """Where the name just saved waits for the rerun that says it."""
    return f"{prefix}_club_saved"


def fields(prefix: str, *, in_form: bool = False) -> SaveFields:
    """The name (the club's or the café's), whether to replace the rules saved under it, and the
    button. In a form the button submits the form (its toggles are read only then), and an empty
    name is refused with the reason when pressed rather than the button greyed out: a form's
    fields say nothing to the page before it is submitted."""
    t = ui.translator()
    name = st.text_input(
        t("record.club_rules_name"), key=f"{prefix}_club_rules_name", placeholder=t("record.club_name_hint")
    )
    replace = st.checkbox(t("record.club_rules_replace"), key=f"{prefix}_club_rules_replace")
    label, key = t("record.club_rules_save"), f"{prefix}_club_rules_save"
    if in_form:
        pressed = st.form_submit_button(label, key=key)
    else:
        pressed = st.button(label, key=key, disabled=not name.strip())
    return SaveFields(name, replace, pressed)


def save(prefix: str, chosen: SaveFields, options: Mapping[str, Any]) -> None:
    """Keep the house rules ``options`` (a record's ``rules`` object, with ``variant``) under the
    name typed, then rerun the page, whose club-rules choice offers them at once; a name refused
    or taken, or options that conflict, are said in an error instead."""
    try:
        saved = data.save_club_rules(chosen.name, Rules.from_options(dict(options)), replace=chosen.replace)
    except ManillenError as error:
        st.error(ui.without_folders(str(error)))
        return
    st.session_state[saved_key(prefix)] = saved.name
    st.rerun()


def said_saved(prefix: str) -> None:
    """The name the rules were just saved under, said once."""
    done = st.session_state.pop(saved_key(prefix), None)
    if done:
        st.success(ui.translator()("record.club_rules_saved", name=done))


def choice(key: str, none_label: str, help_text: str, *, variant: str | None = None) -> ClubRules | None:
    """A select of the clubs' rules saved in the archive (of ``variant`` only, when given), by
    name: the one chosen, or ``None`` for ``none_label``. Nothing is drawn when no club saved
    any, and a warning says why when they cannot be read."""
    t = ui.translator()
    try:
        clubs = [c for c in data.club_rule_sets() if variant is None or c.rules.variant == variant]
    except ManillenError as error:  # saved by a newer program
        st.warning(t("record.club_rules_unreadable", message=ui.without_folders(str(error))))
        return None
    if not clubs:
        return None
    chosen = ui.selectbox(
        t("record.club_rules"),
        ["", *(c.name for c in clubs)],
        format_func=lambda name: name or none_label,
        key=key,
        help=help_text,
    )
    return next((c for c in clubs if c.name == chosen), None)
