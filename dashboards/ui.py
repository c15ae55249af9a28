"""What every page shares: the chosen language, the empty-archive notice, links into the replay."""

from __future__ import annotations

import datetime
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from html import escape
from typing import Any
from urllib.parse import urlencode, urlsplit

import streamlit as st
from streamlit.errors import StreamlitAPIException

from dashboards import data, html_view, i18n, native_inputs
from manillen_replay.cards import Suit
from manillen_replay.errors import ManillenError
from manillen_replay.rules import Contract

LANGUAGE_KEY = "lang"
"""Session key of the chosen language (set by the sidebar's switch, :func:`language_switch`)."""

PAGE_FILES = {
    "archive": "app_pages/archive.py",
    "match": "app_pages/match.py",
    "replay": "app_pages/replay.py",
    "mistakes": "app_pages/mistakes.py",
    "players": "app_pages/players.py",
    "sql": "app_pages/sql.py",
    "annotations": "app_pages/annotations.py",
    "record": "app_pages/record.py",
    "organiser": "app_pages/organiser.py",
    "standings": "app_pages/standings.py",
    "train": "app_pages/train.py",
}
"""Each page's url path and file, relative to the entry point."""


def lang() -> str:
    """The language the person chose in the sidebar or the address named
    (:func:`language_from_address`), else the browser's (:func:`browser_language`)."""
    value = st.session_state.get(LANGUAGE_KEY)
    return value if value in i18n.LANGUAGES else browser_language()


def browser_language() -> str:
    """The language the browser asks for (its locale: ``nl-BE`` and ``nl`` are Dutch), when the
    dashboard speaks it; else English."""
    code = (st.context.locale or "").split("-")[0].lower()
    return code if code in i18n.LANGUAGES else "en"


def language_from_address() -> None:
    """Start a session in the language its address names (``?lang=nl``, so a reload keeps it);
    without one it speaks the browser's (:func:`lang`): a phone set to Dutch opens the dashboard
    in Dutch, where the language switch sits in the folded sidebar.

    The entry point calls this before it draws the language switch.
    """
    asked = st.query_params.get(LANGUAGE_KEY)
    if LANGUAGE_KEY not in st.session_state and asked in i18n.LANGUAGES:
        st.session_state[LANGUAGE_KEY] = asked


LANGUAGE_SWITCH_KEY = "language_switch"
"""Widget key of the sidebar's language switch."""


def language_switch() -> None:
    """The sidebar's language switch: a button named for the other language (``Nederlands`` in
    English, ``English`` in Dutch) that turns the page into it.

    A button, not a choice of the two (``st.segmented_control``): Streamlit's button is among the
    scripts every page loads, the segmented control brings five more to every new tab and its
    drawing (0.06 s of a new tab, 7% of the bare page's, in the page-load trace; see
    docs/dashboard.md, Speed).
    """
    other = next(code for code in i18n.LANGUAGES if code != lang())

    def switch() -> None:
        st.session_state[LANGUAGE_KEY] = other
        _keep_choices()

    st.sidebar.button(i18n.LANGUAGE_NAMES[other], key=LANGUAGE_SWITCH_KEY, on_click=switch)


KEPT_THROUGH_LANGUAGE = (
    "replay_branch_",
    "replay_whatif_layout",
    "replay_annot_scope_",
    "record_mode",
    "archive_variants",
)
"""The keys (or their beginnings) of the choices whose options are shown in the page's language
and that take no default of their own: :func:`_keep_choices` keeps them through a change of it.
(A choice given a default would be told off by Streamlit for being set from the session too.)"""


def _keep_choices() -> None:
    """Keep the choices of :data:`KEPT_THROUGH_LANGUAGE` through a change of language.

    The browser sends a radio's or a select box's choice back as the words it shows: in the other
    language those words match no option, and the choice was lost (the Deal replay's "The table
    shows" chose nothing, the board then showing one line or the other with no word of which).
    Read now, while the page's widgets still know their words, and set again by value, each
    choice is drawn in the new words.
    """
    for key in list(st.session_state.keys()):
        if isinstance(key, str) and key.startswith(KEPT_THROUGH_LANGUAGE):
            with suppress(StreamlitAPIException):
                st.session_state[key] = st.session_state[key]


def _language_said() -> bool:
    """Whether an address must name the language: all but English in an English browser (a link
    without it opens in the language of the browser that follows it)."""
    return lang() != "en" or browser_language() != "en"


def language_to_address() -> None:
    """Keep the chosen language in the page address (English in an English browser leaves it out)."""
    if not _language_said():
        if LANGUAGE_KEY in st.query_params:
            del st.query_params[LANGUAGE_KEY]
    else:
        st.query_params[LANGUAGE_KEY] = lang()


def language_params() -> dict[str, str]:
    """``{"lang": "nl"}`` in Dutch (and ``{"lang": "en"}`` in English in a browser set to another
    language), else nothing: for addresses the pages make."""
    return {LANGUAGE_KEY: lang()} if _language_said() else {}


def follow_selected_row(key: str, page: str, targets: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Arguments for ``st.dataframe`` that open ``page`` in this tab when a row is selected (the
    data grid of "Interactive tables"; the pages' first view uses :mod:`dashboards.light_table`).

    A link column would open a new tab (and a new session); this switches pages instead.

    :param key: the dataframe's widget key.
    :param targets: each row's page address parameters, in the frame's order.
    """
    st.session_state[f"{key}_targets"] = [dict(t) for t in targets]

    def chosen() -> None:
        rows = st.session_state[key].selection.rows
        if rows:
            st.session_state[f"{key}_open"] = st.session_state[f"{key}_targets"][rows[0]]

    pending = st.session_state.pop(f"{key}_open", None)
    if pending is not None:
        switch_to(page, pending)
    return {"key": key, "on_select": chosen, "selection_mode": "single-row"}


def switch_to(page: str, params: Mapping[str, Any]) -> None:
    """Open ``page`` at these address parameters in this session, the chosen language kept.

    :raises KeyError: when ``page`` is not one of :data:`PAGE_FILES`.
    """
    st.switch_page(
        PAGE_FILES[page], query_params={k: str(v) for k, v in {**params, **language_params()}.items()}
    )


METRIC_STYLE = {
    "box": "margin-bottom: 0.75rem;",
    "label": "font-size: 0.875rem;",
    "value": "font-size: 2.25rem; line-height: 1.4;",
    "help": "cursor: help; opacity: 0.6; font-size: 0.7rem; border: 1px solid; border-radius: 50%; "
    "padding: 0 0.35em;",
}
"""How a figure is drawn as ``st.metric`` draws one, for markdown (which has no stylesheet):
:func:`figures_html`'s stylesheet is :mod:`dashboards.html_view`'s."""


def figure_html(label: str, value: object, help: str | None = None, *, inline_style: bool = False) -> str:
    """One figure under its label, as HTML (every text escaped).

    :param help: what the figure means, shown when the pointer rests on the ? beside the label.
    :param inline_style: the look in ``style`` attributes (for markdown) rather than class names.

    >>> figure_html("Deals", 12)  # doctest: +NORMALIZE_WHITESPACE
    '<div class="mr-metric" data-metric="Deals"><div class="label">Deals</div><div
    class="value">12</div></div>'
    """

    def style(part: str) -> str:
        return f' style="{METRIC_STYLE[part]}"' if inline_style else ""

    hint = "" if help is None else f' <span class="help" title="{escape(help)}"{style("help")}>?</span>'
    return (
        f'<div class="mr-metric" data-metric="{escape(label)}"{style("box")}>'
        f'<div class="label"{style("label")}>{escape(label)}{hint}</div>'
        f'<div class="value"{style("value")}>{escape(str(value))}</div></div>'
    )


def metric(where: Any, label: str, value: object, help: str | None = None) -> None:
    """A figure under its label in ``where`` (``st`` or a column), drawn as markdown.

    ``st.metric`` would do the same, but its script (and the number formatting it brings) is one
    more a new tab has to load before the page is drawn; the pages show plain figures. A row of
    figures is lighter still as :func:`figures` (no HTML in markdown).

    :param help: what the figure means, shown when the pointer rests on the ? beside the label.
    """
    where.markdown(figure_html(label, value, help, inline_style=True), unsafe_allow_html=True)


Figure = tuple[str, object] | tuple[str, object, str | None]
"""A figure of :func:`figures`: its label, its value, and optionally what it means."""


def figures_html(row: Sequence[Figure]) -> str:
    """A row of figures as HTML (:func:`figure_html` each), wrapping on a narrow screen."""
    cells = "".join(figure_html(*figure) for figure in row)
    return f'<div class="mr-metrics">{cells}</div>'


def figures(row: Sequence[Figure], *, key: str) -> None:
    """A row of figures under their labels, as one element (:mod:`dashboards.html_view`): side by
    side on a laptop, two or three a line on a phone.

    :param key: the element's key, unique on the page.
    """
    html_view.show(figures_html(row), key=key)


MARKDOWN_SIGNS = re.compile(r"([\\`*_{}\[\]()#+\-.!|~<>$:])")
"""What markdown could read as formatting (and ``:`` of Streamlit's ``:material/...:`` icons)."""
COLON = "&#58;"
"""A colon markdown shows as one but Streamlit reads as no icon's start: a backslash before a
colon still drew ``:material/warning:`` as an icon."""


def markdown_text(text: str) -> str:
    """``text`` shown as it is by markdown (a file's path: no italics from its underscores).

    >>> print(markdown_text("/data/club_2026*.duckdb"))
    /data/club\\_2026\\*\\.duckdb
    """
    return MARKDOWN_SIGNS.sub(r"\\\1", text)


NAME_SIGNS = re.compile(r"([\\`*_\[\]!<>~$|])")
"""What markdown (or Streamlit's ``:red[...]`` and ``:material/...:``) could read in a name in the
middle of a line: a link, an image, HTML, an icon, emphasis."""


def name_text(name: str) -> str:
    """A name a person typed (a player, a venue), shown as typed in markdown, where a page shows
    names: a name ``![b](http://...)`` fetched that address in every visitor's browser. Lighter
    than :func:`markdown_text`: a name's hyphens and dots, which mean nothing in the middle of a
    line, stay as they are where the same name is also plain text (a drop-down's option).

    >>> print(name_text("![b](http://x.org/b.png) :red[R] Jean-Pierre"))
    \\!\\[b\\](http&#58;//x.org/b.png) &#58;red\\[R\\] Jean-Pierre
    """
    return NAME_SIGNS.sub(r"\\\1", name).replace(":", COLON)


def code_block(text: str) -> str:
    """``text`` as a markdown block of monospace text, as it is: no link, image or formatting is
    read in it (escaping alone still let an address become a link), and its lines stay lines.
    The fence is longer than any run of backticks in the text, which cannot close it.

    >>> print(code_block("LINE 1: SELECT 'http://x'"))
    <BLANKLINE>
    <BLANKLINE>
    ```text
    LINE 1: SELECT 'http://x'
    ```
    >>> code_block("a ``` b").splitlines()[2], code_block("a ``` b").splitlines()[-1]
    ('````text', '````')
    """
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"\n\n{fence}text\n{text}\n{fence}"


TABLE_WORDS = ("dealer", "to_play", "team", "may_play", "winning", "hand", "trick")
"""The words of :func:`dashboards.cards.table_html`, each the translation ``replay.WORD``."""


def table_labels() -> dict[str, str]:
    """The card table's words in the page language, those a screen reader alone hears too."""
    t = i18n.translator(lang())
    return {word: t(f"replay.{word}") for word in TABLE_WORDS}


def translator() -> Callable[..., str]:
    """``t(key, **values)`` in the chosen language, with no folder of the server in it: a message
    that names the archive (a lock, a refusal) names its file only, for a visitor on the network."""
    words = i18n.translator(lang())
    # the archive's folder, looked up at the first message: a page's run makes a few hundred (the
    # Record page's card buttons), and each lookup resolved the path and looked at the file
    folders: list[str] = []

    def t(key: str, **values: Any) -> str:
        if not folders:
            folders.append(_archive_folder())
        return _without(words(key, **values), folders[0])

    return t


def without_folders(text: str) -> str:
    """``text`` with the archive's folder (and the drafts' beside it) taken out of every path."""
    return _without(text, _archive_folder())


def _archive_folder() -> str:
    return str(data.archive().path.parent)


def _without(text: str, folder: str) -> str:
    return text.replace(folder + os.sep, "").replace(folder, ".") if folder not in ("", ".") else text


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


def css_string(text: str) -> str:
    """``text`` as a CSS string (for ``content:``), safe inside a ``<style>`` element.

    >>> print(css_string('Sleep "het" <hier>'))
    "Sleep \\22 het\\22  \\3c hier\\3e "
    """
    return '"' + "".join(c if c.isalnum() or c in " .,·-()" else f"\\{ord(c):x} " for c in text) + '"'


UPLOADER_STYLE = """
{zone} button[kind="secondary"] [data-testid="stMarkdownContainer"],
{zone} [data-testid="stFileUploaderDropzoneInstructions"] span,
{zone} > input + div:not(:has([data-testid="stFileChips"])) > * {{ display: none; }}
{zone} button[kind="secondary"] span[data-has-shortcut]::after {{ content: {choose}; }}
{zone} [data-testid="stFileUploaderDropzoneInstructions"] > div::after {{
  content: {limits}; font-size: 0.875rem; opacity: 0.6;
}}
{zone} > input + div:not(:has([data-testid="stFileChips"]))::after {{ content: {drop}; }}
"""
"""Streamlit's file uploader with the page's words in place of its English: its button
("Upload"), its line of limits ("200MB per file • JSON") and the line shown while a file is
dragged over it ("Drag and drop a file here"). The English is left out of the page (``display:
none``), so a screen reader names the button by the page's word too."""


def selectbox(label: str, options: Iterable[Any], **arguments: Any) -> Any:
    """``st.selectbox`` whose placeholder (shown while nothing is chosen) is in the page's
    language: Streamlit's own says "Choose an option" in English only.

    :param arguments: the rest of ``st.selectbox``'s arguments (``key``, ``index``, ...).
    """
    return st.selectbox(label, options, placeholder=translator()("input.choose"), **arguments)


def picker(label: str, options: Iterable[Any], **arguments: Any) -> Any:
    """:func:`selectbox` of a few choices to tap, nothing to type: on a phone Streamlit's box
    takes typing to filter its options and opened the keyboard over them (the Record page's dealer
    and trick to change, between two deals at the table)."""
    return selectbox(label, options, filter_mode=None, **arguments)


def file_uploader(label: str, types: Sequence[str], *, key: str, help: str | None = None) -> Any:
    """``st.file_uploader`` for one file of ``types``, its words in the page's language.

    Streamlit has no setting for the uploader's language (it writes "Upload" and "200MB per file"
    in English): a style scoped to this uploader's box hides those words and shows the page's.

    :param types: the accepted extensions, without dots (``["json", "jsonl"]``).
    :param key: the uploader's widget key (its box is ``{key}_box``).
    :returns: the uploaded file, or None.
    """
    t = translator()
    size = st.get_option("server.maxUploadSize")
    limits = t("upload.limits", size=size, types=", ".join(f".{kind}" for kind in types))
    style = UPLOADER_STYLE.format(
        zone=f'.st-key-{key}_box [data-testid="stFileUploaderDropzone"]',
        choose=css_string(t("upload.choose")),
        limits=css_string(limits),
        drop=css_string(t("upload.drop")),
    )
    with st.container(key=f"{key}_box"):
        st.html(f"<style>{style}</style>")
        return st.file_uploader(label, type=list(types), help=help, key=key)


@contextmanager
def messages() -> Iterator[None]:
    """Turn the archive's errors into a message on the page instead of a traceback."""
    try:
        yield
    except ManillenError as error:
        st.error(without_folders(str(error)))


def replay_url(match_id: str, deal: int, step: int = 0) -> str:
    """The (relative) address of one play in the deal replay, to share or to click.

    >>> replay_url("zwaan-3", 2, 13)
    'replay?match=zwaan-3&deal=2&step=13'
    """
    return "replay?" + urlencode({"match": match_id, "deal": deal, "step": step, **language_params()})


def match_url(match_id: str) -> str:
    """The (relative) address of a match page.

    >>> match_url("zwaan 3")
    'match?match=zwaan+3'
    """
    return "match?" + urlencode({"match": match_id, **language_params()})


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


def served_here_only() -> bool:
    """Whether the browser reached the dashboard at this computer's own address (127.0.0.1,
    localhost): addresses made from it (:func:`absolute`) open on no other device.

    Outside a browser (tests) ``False``.
    """
    current = getattr(st.context, "url", None)
    if not current:
        return False
    host = (urlsplit(str(current)).hostname or "").lower()
    return host in ("localhost", "::1") or host.startswith("127.")


def named_as_in_archive(asked: str | None, names: Sequence[str]) -> str | None:
    """A player named in an address (``?player=frans``) as the archive spells them (``Frans``),
    as ``--player`` takes any case on the command line; unknown names are left as they were.

    >>> named_as_in_archive("frans", ["Bert", "Frans"]), named_as_in_archive("Zoe", ["Bert"])
    ('Frans', 'Zoe')
    """
    if asked is None:
        return None
    return next((name for name in names if name.casefold() == asked.casefold()), asked)


def query_int(name: str, default: int) -> int:
    """An integer from the page address, ``default`` when absent or not a number."""
    value: Any = st.query_params.get(name)
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


DATE_FROM, DATE_TO = "date_from", "date_to"
"""The names of the two date fields of :func:`date_range_fields`."""


def date_range_fields(label: str, kept: Mapping[str, str] | None = None) -> list[native_inputs.Field]:
    """The browser's own date fields from and to, over the archive's dates (none when every match
    has the same date), for a row of :mod:`dashboards.native_inputs`; read them with
    :func:`dates_of`.

    :param label: what the two fields filter ("Dates"), put before "from" and "to".
    :param kept: the fields' texts chosen before (this session), shown instead of the archive's
        first and last date.
    """
    first, last = data.date_range()
    if first is None or last is None or first == last:
        return []
    t = translator()
    kept = kept or {}
    return [
        native_inputs.Field(
            name,
            f"{label}: {t(f'filter.{name}')}",
            "date",
            value=kept.get(name) or day.isoformat(),
            minimum=first.isoformat(),
            maximum=last.isoformat(),
        )
        for name, day in ((DATE_FROM, first), (DATE_TO, last))
    ]


def dates_of(values: Mapping[str, str]) -> tuple[Any, Any] | None:
    """The dates chosen in :func:`date_range_fields`' fields, or None for the whole archive.

    An emptied field means the archive's first (or last) date; dates the wrong way round are
    taken the right way round.
    """
    first, last = data.date_range()
    if first is None or last is None:
        return None
    chosen = []
    for name, default in ((DATE_FROM, first), (DATE_TO, last)):
        try:
            chosen.append(datetime.date.fromisoformat(values.get(name, "")))
        except ValueError:
            chosen.append(default)
    low, high = sorted(chosen)
    low, high = max(low, first), min(high, last)
    return None if (low, high) == (first, last) else (low, high)


def contract_text(
    contract: Contract | None,
    trump: Suit | None,
    *,
    en_face: bool = False,
    knocks: int = 0,
    multiplier: int | None = None,
) -> str:
    """A deal's contract with its calls in the page language, game terms in Dutch (the deal
    replay's and the Train page's)."""
    t = translator()
    if contract is Contract.TRUMP and trump is not None:
        text = t("contract.trump", suit=i18n.suit_name(trump))
    elif contract is not None:
        text = t(f"contract.{contract.value}")
    else:
        text = t("contract.none")
    if en_face:
        text += ", " + t("contract.en_face")
    if knocks:
        text += ", " + ", ".join(("klop", "tegenklop")[i % 2] for i in range(knocks))
    if multiplier and multiplier > 1:
        text += f" (x{multiplier})"
    return text
