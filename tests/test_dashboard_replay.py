"""The server side of the deal replay's drawings (dashboards/html_view.py with clicks, and
dashboards/cards.py's pieces of the page), through Streamlit's AppTest.

AppTest runs no component JavaScript: a click is sent as the browser sends it (the component's
``clicked`` trigger, :func:`tests.test_dashboard.send_click`). The browser side (the click and the
keys themselves) is tests/test_browser_replay.py's.
"""

from __future__ import annotations

import re

from streamlit.testing.v1 import AppTest

from dashboards import cards

from .test_dashboard import app, html_views, open_page, replay_step, send_click, shared_archive

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
