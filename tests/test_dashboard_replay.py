"""The server side of the deal replay's drawings (dashboards/html_view.py with clicks, and
dashboards/cards.py's pieces of the page), through Streamlit's AppTest.

AppTest runs no component JavaScript: a click is sent as the browser sends it (the component's
``clicked`` trigger, :func:`tests.test_dashboard.send_click`). The browser side (the click and the
keys themselves) is tests/test_browser_replay.py's.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dashboards import cards, data
from manillen_replay.store import Store

from .test_dashboard import (
    APP,
    app,
    figures,
    html_views,
    open_page,
    replay_links,
    replay_step,
    replay_texts,
    send_click,
    shared_archive,
)

__all__ = ["app", "shared_archive"]  # the fixtures, shared with test_dashboard.py


def clickable_page() -> None:
    """A page with a drawing that sends clicks and one that does not."""
    import streamlit as st

    from dashboards import html_view

    got = st.session_state.setdefault("got", [])
    html_view.show(
        '<button data-send="7">seven</button>',
        key="box",
        on_click=lambda value: got.append((value, st.session_state.get("runs", 0))),
        keys={"ArrowRight": "8"},
    )
    html_view.show("<p>plain</p>", key="plain")
    st.session_state["runs"] = st.session_state.get("runs", 0) + 1


def test_a_click_reaches_its_callback_once_before_the_run() -> None:
    at = AppTest.from_function(clickable_page).run()
    views = html_views(at)
    assert views["box"][1] == {
        "html": '<button data-send="7">seven</button>',
        "clicks": True,
        "keys": {"ArrowRight": "8"},
    }
    assert views["plain"][1] == {"html": "<p>plain</p>", "clicks": False, "keys": {}}
    send_click(at, "box", "7")
    assert at.session_state["got"] == [("7", 1)], "called before the second run drew anything"
    at.run()
    assert at.session_state["got"] == [("7", 1)], "a click is sent once, not with every run"
    send_click(at, "box", "8")
    assert at.session_state["got"] == [("7", 1), ("8", 3)]


def test_step_buttons_point_their_icons_the_way_they_step() -> None:
    drawn = cards.step_buttons_html(
        [("back", "Terug", 3, "ArrowLeft", "←"), ("forward", "Verder", 5, "ArrowRight", "→")]
    )
    back, forward = re.findall(r"<button.*?</button>", drawn)
    assert 'data-send="3"' in back and 'aria-keyshortcuts="ArrowLeft"' in back
    assert back.index("<svg") < back.index(">Terug<") < back.index("<kbd>")
    assert forward.index(">Verder<") < forward.index("<svg") < forward.index("<kbd>")


def test_texts_in_the_drawings_are_escaped() -> None:
    drawn = cards.link_list_html("<Tricks>", [("Anna & <b>Bert</b>", 4)])
    assert "&lt;Tricks&gt;" in drawn and "Anna &amp; &lt;b&gt;Bert&lt;/b&gt;" in drawn
    assert cards.step_range_html('Play "now"', 3, 32).count("&quot;now&quot;") == 2


def test_a_step_past_the_deal_from_a_click_is_its_last(app: AppTest) -> None:
    at = open_page(app, "replay", match="random-0", deal=2, step=5)
    send_click(at, "replay_table", "not a step")
    assert replay_step(at) == 5
    send_click(at, "replay_facts", "40")
    assert replay_step(at) == 32


SAMPLES = Path(__file__).resolve().parent.parent / "data" / "samples"


@pytest.fixture(scope="module")
def three_dummy_archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An archive holding the shipped ``three_dummy`` sample (Anna deals and plays the dummy)."""
    path = tmp_path_factory.mktemp("three_dummy") / "club.duckdb"
    with Store(path) as store:
        assert store.import_paths([SAMPLES / "variant-three-dummy.json"]).imported == 1
    return path


@pytest.mark.parametrize(
    ("lang", "dummy", "sides"),
    [("en", "Anna's dummy", ("Anna", "Bert & Carla")), ("nl", "blinde van Anna", ("Anna", "Bert & Carla"))],
)
def test_replay_names_the_dummy_after_its_dealer_and_a_side_by_its_people(
    three_dummy_archive: Path, monkeypatch: pytest.MonkeyPatch, lang: str, dummy: str, sides: tuple[str, str]
) -> None:
    """The dummy is a seat, not a person: it is ``Anna's dummy`` as in the text replay and the
    findings, and the dealer's side is Anna alone (she plays the dummy), as the text replay
    scores it (``score: Anna +9``), never ``Anna & dummy (Anna)``."""
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(three_dummy_archive))
    at = AppTest.from_file(APP, default_timeout=30)
    at.run()
    at.session_state["lang"] = lang
    at = open_page(at, "replay", match="sample-three-dummy", deal=1, step=32)
    shown = replay_texts(at)
    assert dummy in shown
    assert list(figures(at)) == list(sides)
    assert "(Anna)" not in shown and "& dummy" not in shown and "& blinde" not in shown
    # the tricks so far name the dummy's cards by its seat, in every one of the eight tricks
    tricks = replay_links(at, "replay_table")
    assert len(tricks) == 8 and all(dummy in line for line, _ in tricks)
