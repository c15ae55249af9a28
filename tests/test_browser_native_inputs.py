"""The browser's own inputs (dashboards/native_inputs.py) while a run is late, in a real browser.

On a busy machine the server's answer to a name typed on the Record page can arrive while the
next name is being typed. These tests make that happen on purpose: the page's websocket holds
what the server sends until the next input has the focus, then lets it through, and the test
goes on typing as a person would (into whatever has the focus).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from bench.record_bench import streamlit_server, type_seat_names

from .test_browser import ARTIFACTS, browser_api
from .test_browser import server as server  # the same live dashboard fixture
from .test_browser_record import PHONE, settle

pytestmark = pytest.mark.browser

NAMES = ("Anna", "Bert", "Carla", "Dirk")
FOCUSED = """() => {
    let element = document.activeElement;
    while (element && element.shadowRoot && element.shadowRoot.activeElement) {
        element = element.shadowRoot.activeElement;
    }
    return element ? element.getAttribute('name') : null;
}"""
"""The name of the input that has the focus, inside the component's shadow root."""


class LateServer:
    """The page's websocket, with what the server sends held back while :attr:`holding`."""

    def __init__(self) -> None:
        self.holding = False
        self.held: list[Any] = []
        self.page_side: Any = None

    def route(self, socket: Any) -> None:
        """Playwright's handler of the page's websocket: pass everything on, hold the server's."""
        self.page_side = socket
        server_side = socket.connect_to_server()
        socket.on_message(server_side.send)
        server_side.on_message(self._from_server)

    def _from_server(self, message: Any) -> None:
        if self.holding:
            self.held.append(message)
        else:
            self.page_side.send(message)

    def release(self) -> None:
        """Let the held messages through, in order, and stop holding."""
        self.holding = False
        for message in self.held:
            self.page_side.send(message)
        self.held.clear()


@contextmanager
def record_page(server: str, chromium: Any) -> Iterator[tuple[Any, LateServer]]:
    """The Record page at phone size, its websocket routed through a :class:`LateServer`."""
    late = LateServer()
    page = chromium.new_page(viewport=PHONE, is_mobile=True, has_touch=True)
    page.route_web_socket(re.compile(r"/_stcore/stream"), late.route)
    page.goto(f"{server}/record")
    page.locator('input[name="seat_0"]').wait_for(timeout=30_000)
    settle(page)
    yield page, late


def wait_for_answer(page: Any, late: LateServer) -> None:
    """Wait until the server has answered the last change (its messages held) and gone quiet."""
    page.wait_for_function("() => true")  # lets Playwright take in what has arrived
    count = -1
    for _ in range(60):
        page.wait_for_timeout(250)
        if late.held and len(late.held) == count:
            return
        count = len(late.held)
    raise AssertionError("the server did not answer the name typed")


def test_a_late_run_leaves_the_next_name_being_typed_in_its_input(server: str, chromium: Any) -> None:
    """The server's answer to the first name arrives once the second input has the focus: the
    focus stays there, and the name typed next goes into it and reaches the server."""
    expect = browser_api().expect
    with record_page(server, chromium) as (page, late):
        late.holding = True
        first = page.locator('input[name="seat_0"]')
        first.fill(NAMES[0])
        first.press("Enter")
        wait_for_answer(page, late)
        page.locator('input[name="seat_1"]').focus()
        late.release()
        settle(page)
        assert page.evaluate(FOCUSED) == "seat_1"  # the late run's drawing kept the focus
        page.keyboard.insert_text(NAMES[1])  # typed into what has the focus, as a person does
        page.keyboard.press("Enter")
        for seat in (2, 3):
            box = page.locator(f'input[name="seat_{seat}"]')
            box.fill(NAMES[seat])
            box.press("Enter")
        expect(page.locator('input[name="seat_1"]')).to_have_value(NAMES[1])
        expect(page.locator(".st-key-record_start button")).to_be_enabled(timeout=15_000)
        expect(page.locator('select[name="dealer"] option')).to_have_text(list(NAMES), timeout=15_000)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_record_set_up_in_dutch_at_laptop_and_phone_width(server: str, scheme: str, chromium: Any) -> None:
    """The set-up's own inputs, four names typed in a row: Start ready, the dealer named;
    screenshots for a person to look at."""
    playwright_api = browser_api()
    expect = playwright_api.expect
    for width, height in ((1400, 1000), (390, 1400)):
        page = chromium.new_page(viewport={"width": width, "height": height}, color_scheme=scheme)
        page.goto(f"{server}/record?lang=nl")
        type_seat_names(page, NAMES)
        expect(page.locator(".st-key-record_start button")).to_be_enabled(timeout=15_000)
        expect(page.locator('select[name="dealer"] option')).to_have_text(list(NAMES), timeout=15_000)
        expect(page.get_by_text("Plaats 1 (ploeg A)")).to_be_visible()
        settle(page)
        page.screenshot(path=str(ARTIFACTS / f"record-setup-nl-{scheme}-{width}.png"), full_page=True)
        page.close()
    assert (ARTIFACTS / f"record-setup-nl-{scheme}-390.png").stat().st_size > 10_000


REPLACING_PAGE = """
import streamlit as st
from dashboards import native_inputs

typed = {k: v for k, v in native_inputs.chosen("box").items() if k != native_inputs.MARK}
name = typed.get("name", "")
if name != name.upper():  # the page replaces what was typed, on purpose (and keeps the note)
    st.session_state["box"] = native_inputs.chosen_state({**typed, "name": name.upper()})
fields = [native_inputs.Field("name", "Name"), native_inputs.Field("note", "Note")]
values = native_inputs.inputs("box", fields)
st.write(f"server has {values['name'] or 'nothing'}")
"""
"""A page of two text inputs that writes the first in capitals whatever was typed."""


@pytest.fixture(scope="module")
def replacing_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    script = tmp_path_factory.mktemp("replacing") / "replacing_page.py"
    script.write_text(REPLACING_PAGE, encoding="utf-8")
    with streamlit_server(script, {}) as address:
        yield address


def test_a_value_the_page_replaces_on_purpose_is_shown_replaced(replacing_server: str, chromium: Any) -> None:
    """Typed "anna", the page makes it "ANNA": the input shows the page's value once its run is
    drawn (not the browser's last one), also while a run is late; a later change sends it."""
    playwright_api = browser_api()
    expect = playwright_api.expect
    late = LateServer()
    page = chromium.new_page()
    page.route_web_socket(re.compile(r"/_stcore/stream"), late.route)
    page.goto(replacing_server)
    name = page.locator('input[name="name"]')
    name.wait_for(timeout=30_000)
    name.fill("anna")
    name.press("Tab")  # on to the note: the name is sent
    page.get_by_text("server has ANNA").wait_for(timeout=15_000)
    settle(page)
    expect(name).to_have_value("ANNA")
    late.holding = True  # the next answer is late: typed again meanwhile
    name.fill("bert")
    name.press("Tab")
    wait_for_answer(page, late)
    page.locator('input[name="note"]').fill("late")
    page.locator('input[name="note"]').press("Tab")
    late.release()
    page.get_by_text("server has BERT").wait_for(timeout=15_000)
    settle(page)
    expect(name).to_have_value("BERT")
    expect(page.locator('input[name="note"]')).to_have_value("late")
