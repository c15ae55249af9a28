"""What every page shares: the chosen language, the empty-archive notice, links into the replay."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlencode, urlsplit

import streamlit as st

from dashboards import data, i18n
from manillen_replay.errors import ManillenError

LANGUAGE_KEY = "lang"
"""Session key of the language switch in the sidebar (set by the entry point)."""

PAGE_FILES = {
    "archive": "app_pages/archive.py",
    "match": "app_pages/match.py",
    "replay": "app_pages/replay.py",
    "mistakes": "app_pages/mistakes.py",
    "players": "app_pages/players.py",
    "sql": "app_pages/sql.py",
    "annotations": "app_pages/annotations.py",
    "record": "app_pages/record.py",
}
"""Each page's url path and file, relative to the entry point."""


def lang() -> str:
    """The language the person chose in the sidebar (English until they choose)."""
    value = st.session_state.get(LANGUAGE_KEY)
    return value if value in i18n.LANGUAGES else "en"


def translator() -> Callable[..., str]:
    """``t(key, **values)`` in the chosen language."""
    return i18n.translator(lang())


def archive_ready() -> bool:
    """Whether the archive holds matches; if not, show how to import and say so.

    Pages call ``if not ui.archive_ready(): st.stop()`` before anything that needs data.
    """
    t = translator()
    path = data.archive().path
    try:
        numbers = data.counts()
    except ManillenError as error:
        st.error(t("error.unreadable", path=path, message=error))
        return False
    if numbers["matches"] == 0:
        st.info(f"**{t('empty.title')}**\n\n" + t("empty.body", path=path))
        return False
    return True


@contextmanager
def messages() -> Iterator[None]:
    """Turn the archive's errors into a message on the page instead of a traceback."""
    try:
        yield
    except ManillenError as error:
        st.error(str(error))


def replay_url(match_id: str, deal: int, step: int = 0) -> str:
    """The (relative) address of one play in the deal replay, to share or to click.

    >>> replay_url("zwaan-3", 2, 13)
    'replay?match=zwaan-3&deal=2&step=13'
    """
    return "replay?" + urlencode({"match": match_id, "deal": deal, "step": step})


def match_url(match_id: str) -> str:
    """The (relative) address of a match page.

    >>> match_url("zwaan 3")
    'match?match=zwaan+3'
    """
    return "match?" + urlencode({"match": match_id})


def absolute(relative: str) -> str:
    """A page address made absolute with the address the browser used, to share it.

    Outside a browser (tests) the relative address is returned as it is.
    """
    current = getattr(st.context, "url", None)
    if not current:
        return relative
    parts = urlsplit(str(current))
    folder = parts.path.rsplit("/", 1)[0]
    return f"{parts.scheme}://{parts.netloc}{folder}/{relative}"


def query_int(name: str, default: int) -> int:
    """An integer from the page address, ``default`` when absent or not a number."""
    value: Any = st.query_params.get(name)
    try:
        return int(value)
    except (TypeError, ValueError):
        return default
