"""The dashboard in a real browser: Debian's Chromium driven by Playwright, against a live server.

Starts ``manillen dashboard`` on a free port with the archive of test_dashboard.py, opens the
deal replay of a known deal, steps forward three plays and checks the three cards of the trick.
The screenshot lands in tests/artifacts/ (git-ignored) for a person to look at.
"""

from __future__ import annotations

import importlib
import os
import re
import socket
import sys
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any, NoReturn

import pytest

from bench.record_bench import free_port, serving
from manillen_replay.cli.dashboard import streamlit_command

from . import forked_commands
from .test_dashboard import build_archive, fixture_records

DEBIAN_CHROMIUM = Path("/usr/bin/chromium")
"""Debian's Chromium, the browser people open the dashboard in: the smoke test runs there
(``test_debian_s_chromium_draws_the_pages_as_the_tests_browser_does``), and ``make bench`` times
pages there."""

HEADLESS_SHELL = Path("/usr/bin/chromium-headless-shell")
"""Debian's build of Chromium's headless shell (package ``chromium-headless-shell``): the same
Blink and V8 as Chromium without the desktop browser around them, the build Playwright itself runs
for headless Chromium. A page load there takes half Chromium's processor time (0.9 against 1.9 s
in a private window, measured 2026-12-06), and the browser tests load some hundred and thirty."""

CHROMIUM = HEADLESS_SHELL if HEADLESS_SHELL.exists() else DEBIAN_CHROMIUM
"""The browser the browser tests drive: the headless shell, or Debian's Chromium where the shell is
not installed (the same pages, drawn the same; slower)."""

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
INSTALL = "apt-get install -y chromium chromium-headless-shell"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    # The headless shell hints glyphs to whole pixels unless told not to, which set text wider
    # than Chromium does (a table's columns were wider, words looked spaced out); without hinting
    # it lays text out as Chromium does, Chromium started with the same switches (the smoke test
    # compares the two).
    "--font-render-hinting=none",
]

pytestmark = pytest.mark.browser

SETTLED_WITH_FONTS = """() => {
    const app = document.querySelector('[data-testid="stApp"]');
    return app !== null && app.dataset.testScriptState === 'notRunning'
        && app.dataset.testConnectionState === 'CONNECTED'
        && document.querySelector('[data-stale="true"]') === null
        && document.fonts.status === 'loaded';
}"""
"""True once Streamlit's run has finished, no element of the previous run is left (as
``test_browser_record.SETTLED``) and the page's fonts have loaded: what a screenshot or a
measurement of the layout needs."""


NEXT_FRAME = "() => new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn)))"
"""Resolves once the browser has drawn what changed before it (two frames on)."""


def on_ci() -> bool:
    """On CI the browser test must run: a missing browser fails it instead of skipping it."""
    return os.environ.get("CI", "").lower() == "true"


def missing(reason: str) -> NoReturn:
    """Skip for a missing browser or Playwright on a developer's machine; fail on CI."""
    if on_ci():
        pytest.fail(f"CI=true but {reason}", pytrace=False)
    pytest.skip(reason)


def browser_api() -> ModuleType:
    """Playwright's sync API, once Chromium and Playwright are both there."""
    if not CHROMIUM.exists():
        missing(f"needs Debian's chromium at {CHROMIUM}: {INSTALL}")
    try:
        return importlib.import_module("playwright.sync_api")
    except ImportError:
        missing("needs Playwright: pip install -e '.[dev]'")


@contextmanager
def browser_page(browser: Any | None = None) -> Iterator[Any]:
    """A new tab (1500x1150) of ``browser``, in a context of its own (no cookies or storage of
    another tab), closed on leaving; without ``browser``, of a Chromium of its own."""
    ARTIFACTS.mkdir(exist_ok=True)
    if browser is not None:
        page = browser.new_page(viewport={"width": 1500, "height": 1150})
        try:
            yield page
        finally:
            page.close()
        return
    with launched() as own:
        yield own.new_page(viewport={"width": 1500, "height": 1150})


@contextmanager
def launched() -> Iterator[Any]:
    """Chromium, closed on leaving (with Playwright's driver)."""
    playwright_api = browser_api()
    with playwright_api.sync_playwright() as playwright:
        own = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield own
        finally:
            own.close()


class KeptProfile:
    """A person's own Chromium for a test file: tabs in a profile kept on disk, as every browser
    keeps the pages' files and the compiled code of their scripts between visits.

    A tab opened in a fresh context (a private window) fetches and compiles Streamlit's scripts
    anew: 1.7 to 2.1 processor seconds of Chromium's a page, against 0.9 to 1.0 s from the second
    page of a kept profile on (measured 2026-12-06 on the dashboard's pages); the tests open some
    hundred and thirty pages. A tab a test is done with (closed, or left open at its end) is
    emptied and handed to the next test that asks for one, as a person goes on in the tab they
    have: a new tab starts a renderer process and compiles the page's scripts in it again, some
    0.4 processor seconds more a page than a tab going on to the next page (0.89 to 0.97 against
    0.49 to 0.59, measured 2026-12-06 on the dashboard's pages). Each test still starts with
    nothing of another's: between tests the listeners it added to its tabs are removed, every
    cookie and every site's storage of the profile cleared, and the tab handed on shows
    ``about:blank`` at the size and colour scheme the next test asks for; only the cache stays.
    ``new_context`` opens a private window (a context of its own, kept nothing), for a test that
    needs two visitors at once.

    Emulating a phone (``is_mobile``, ``has_touch``, ``device_scale_factor``) and the browser's
    language (``locale``) are settings of the whole browser in Playwright, so each set of them
    gets a kept profile of its own, started on its first tab.
    """

    def __init__(self, playwright: Any, folder: Path) -> None:
        self.playwright = playwright
        self.folder = folder
        self.profiles: dict[tuple[float, bool, bool, str | None], Any] = {}
        self.origins: set[str] = set()
        self.private: Any | None = None
        self.idle: dict[Any, Any] = {}
        """Each profile's tab that no test holds, emptied, for the next ``new_page``."""
        self.listeners: dict[Any, list[tuple[str, Any]]] = {}
        """What the tests added to each tab with ``on``: removed before the tab is handed on."""

    def _profile(self, settings: tuple[float, bool, bool, str | None]) -> Any:
        if settings not in self.profiles:
            scale, mobile, touch, locale = settings
            context = self.playwright.chromium.launch_persistent_context(
                self.folder / "profile-{}-{}-{}-{}".format(*settings),
                executable_path=str(CHROMIUM),
                args=CHROMIUM_ARGS,
                device_scale_factor=scale,
                is_mobile=mobile,
                has_touch=touch,
                locale=locale,
            )
            context.on("request", lambda request: self._visited(request.url))
            self.profiles[settings] = context
        return self.profiles[settings]

    def _visited(self, address: str) -> None:
        """Note the site of a request, whose storage :meth:`forget` clears (``data:`` and
        ``about:`` addresses have none)."""
        parts = urllib.parse.urlsplit(address)
        if parts.netloc:
            self.origins.add(f"{parts.scheme}://{parts.netloc}")

    def new_page(
        self,
        *,
        viewport: dict[str, int] | None = None,
        color_scheme: str | None = None,
        device_scale_factor: float | None = None,
        is_mobile: bool = False,
        has_touch: bool = False,
        locale: str | None = None,
    ) -> Any:
        """A tab of the kept profile, at ``viewport`` (Playwright's 1280x720 without one): the one
        an earlier test was done with, emptied, or else a new one. Its ``close`` hands it back."""
        context = self._profile((device_scale_factor or 1, is_mobile, has_touch, locale))
        page = self.idle.pop(context, None)
        if page is None:
            page = context.new_page()
            self._hand_back_on_close(page)
        page.set_viewport_size(viewport or DEFAULT_VIEWPORT)
        page.emulate_media(color_scheme=color_scheme or "light", media="null")
        return page

    def _hand_back_on_close(self, page: Any) -> None:
        """``page.close()`` and ``page.on(...)`` of a tab this profile hands out: closing empties the
        tab for the next test instead; the listeners added are noted, to be removed then."""
        add = page.on

        def on(event: str, listener: Any) -> None:
            self.listeners.setdefault(page, []).append((event, listener))
            add(event, listener)

        page.on = on
        page.close = lambda **_options: self._empty(page)

    def _empty(self, page: Any) -> None:
        """Make ``page`` the idle tab of its profile: the test's listeners removed, ``about:blank``
        shown; a profile keeps one idle tab, the others are closed."""
        for event, listener in self.listeners.pop(page, []):
            page.remove_listener(event, listener)
        if page.context in self.idle or page.is_closed():
            type(page).close(page)
            return
        page.goto("about:blank")
        self.idle[page.context] = page

    def new_context(self, **options: Any) -> Any:
        """A private window of a Chromium beside the kept profiles (``Browser.new_context``)."""
        if self.private is None:
            self.private = self.playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        return self.private.new_context(**options)

    def forget(self) -> None:
        """What a test left: its tabs and private windows closed; cookies and storage cleared."""
        for context in self.profiles.values():
            kept = context.pages[0]
            for page in context.pages[1:]:
                if page is not self.idle.get(context):
                    page.close()
            context.clear_cookies()
            context.clear_permissions()
            session = context.new_cdp_session(kept)
            for origin in self.origins:
                session.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": KEPT_AWAY})
            session.detach()
        if self.private is not None:
            for context in self.private.contexts:
                context.close()

    def close(self) -> None:
        for context in self.profiles.values():
            context.close()
        if self.private is not None:
            self.private.close()


DEFAULT_VIEWPORT = {"width": 1280, "height": 720}
"""Playwright's size of a tab, and its colour scheme is light: what a tab handed on is set back to."""

KEPT_AWAY = "cookies,local_storage,session_storage,indexeddb,service_workers,cache_storage,file_systems"
"""What :meth:`KeptProfile.forget` clears of every site the tabs visited: all but the HTTP cache."""


@contextmanager
def kept_profile(folder: Path) -> Iterator[KeptProfile]:
    """:class:`KeptProfile` in ``folder``, closed on leaving (with Playwright's driver)."""
    playwright_api = browser_api()
    with playwright_api.sync_playwright() as playwright:
        browser = KeptProfile(playwright, folder)
        try:
            yield browser
        finally:
            browser.close()


def dashboard_command(archive: Path, port: int) -> list[str]:
    """``manillen dashboard`` on ``archive`` and ``port``, run by this Python."""
    return [
        sys.executable, "-c", "from manillen_replay.cli import main; main()",
        "dashboard", "--db", str(archive), "--port", str(port),
    ]  # fmt: skip


_KEPT_PORT: list[int] = []
"""The port :func:`kept_port` chose for this test process."""


def kept_port() -> int:
    """The port this test process serves its dashboards at, the same from one test file to the
    next as a person's dashboard keeps its address from one day to the next; a free port of any
    while a dashboard serves there already.

    The kept profiles (:class:`KeptProfile`) last the whole test process, and a browser keeps a
    page's scripts, and their compiled code, by their address: a tab's first page of a new server
    at a new port took 1.0 to 1.2 processor seconds of Chromium's and 1.6 to 1.8 s by the clock,
    at the same port 0.55 s and 1.0 s, as a second page of the same server does (measured
    2026-12-06 on the Deal replay, three servers one after the other).
    """
    if not _KEPT_PORT:
        _KEPT_PORT.append(free_port())
    with socket.socket() as probe:
        # as the server binds: a port its predecessor's closed connections still wait on is free
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", _KEPT_PORT[0]))
        except OSError:
            return free_port()
    return _KEPT_PORT[0]


@contextmanager
def dashboard_served(archive: Path) -> Iterator[str]:
    """The dashboard on ``archive`` at :func:`kept_port`, served as ``manillen dashboard`` serves it
    (the Streamlit command line it runs, :func:`~manillen_replay.cli.dashboard.streamlit_command`),
    in a process forked from the tests' fork server (``tests/forked_commands.py``); its address."""
    port = kept_port()
    command, environment = streamlit_command(archive.resolve(), "127.0.0.1", port)
    with serving(command, port, environment, start=forked_commands.ForkedScript) as address:
        yield address


def requests_outside(page: Any, server: str) -> list[str]:
    """The addresses ``page`` asks for from now on outside ``server`` (``data:`` and ``blob:``
    addresses are the page's own), filled in as it asks."""
    outside: list[str] = []
    page.on(
        "request",
        lambda request: (
            None if request.url.startswith((server, "data:", "blob:")) else outside.append(request.url)
        ),
    )
    return outside


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The dashboard on a new archive of the fixture records (:func:`dashboard_served`); its address."""
    archive = tmp_path_factory.mktemp("browser") / "club.duckdb"
    build_archive(archive)
    with dashboard_served(archive) as address:
        yield address


def test_replay_steps_forward_three_plays(server: str, chromium: Any) -> None:
    deal = fixture_records()[2].deals[4]
    expected = deal.tricks[0][:3]
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / "replay-step-3.png"
    page = chromium.new_page(viewport={"width": 1500, "height": 1150})
    outside = requests_outside(page, server)
    page.goto(f"{server}/replay?match=random-2&deal=5&step=0")
    trick = page.locator(".mr-trick")
    trick.wait_for(timeout=30_000)
    assert trick.get_attribute("data-cards") == "0"
    forward = page.get_by_role("button", name="Forward")
    for played in range(1, 4):
        forward.click()
        page.locator(f'.mr-trick[data-cards="{played}"]').wait_for(timeout=15_000)
    shown = page.locator(".mr-trick [data-card]").evaluate_all("cards => cards.map(c => c.dataset.card)")
    assert shown == expected
    # the three cards left their players' hands
    for card in expected:
        assert page.locator(f'.mr-hand [data-card="{card}"]').count() == 0
    page.wait_for_function("() => window.location.search.includes('step=3')", timeout=10_000)
    assert re.search(r"[?&]step=3\b", page.url)
    page.wait_for_function(SETTLED_WITH_FONTS, timeout=30_000)
    page.screenshot(path=str(shot), full_page=True)
    # everything the page shows comes from the dashboard: nothing fetched from a CDN
    assert outside == []
    page.close()
    assert shot.stat().st_size > 10_000


LAID_OUT = """() => [...document.querySelectorAll(
    'h1, h2, h3, p, button, th, td, [data-testid="stSidebarNav"] a, .mr-trick, [data-card]'
)].filter((element) => element.getClientRects().length > 0).map((element) => {
    const box = element.getBoundingClientRect();
    return [element.tagName, element.textContent.trim().slice(0, 40),
            Math.round(box.x), Math.round(box.y), Math.round(box.width), Math.round(box.height)];
})"""
"""Where the page's text, buttons, table cells and cards are drawn, to the pixel."""


SMOKE_PAGES = {"replay": "/replay?match=random-2&deal=5&step=3", "archive-nl": "/?lang=nl"}
"""The smoke test's pages: the Deal replay's cards and buttons, the Archive's table in Dutch."""


def _drawn(page: Any, address: str) -> list[list[Any]]:
    page.goto(address)
    page.locator(".mr-trick, .mr-light-table").first.wait_for(timeout=30_000)
    page.wait_for_function(SETTLED_WITH_FONTS, timeout=30_000)
    return list(page.evaluate(LAID_OUT))


def test_debian_s_chromium_draws_the_pages_as_the_tests_browser_does(server: str, chromium: Any) -> None:
    """The smoke test in the browser people use, Debian's Chromium: the pages draw, nothing comes
    from outside, a screenshot of each to look at; and every heading, paragraph, button, table
    cell and card sits where the tests' browser (the headless shell) puts it, to the pixel, so
    what the other browser tests measure is what Chromium shows."""
    if not DEBIAN_CHROMIUM.exists():
        missing(f"needs Debian's chromium at {DEBIAN_CHROMIUM}: {INSTALL}")
    ARTIFACTS.mkdir(exist_ok=True)
    by_chromium = {}
    # in the fixture's Playwright: one sync Playwright a thread
    debian = chromium.playwright.chromium.launch(executable_path=str(DEBIAN_CHROMIUM), args=CHROMIUM_ARGS)
    try:
        page = debian.new_page(viewport={"width": 1500, "height": 1150})
        outside = requests_outside(page, server)
        for name, address in SMOKE_PAGES.items():
            by_chromium[name] = _drawn(page, f"{server}{address}")
            shot = ARTIFACTS / f"smoke-debian-chromium-{name}.png"
            page.screenshot(path=str(shot), full_page=True)
            assert shot.stat().st_size > 10_000
        assert outside == []
    finally:
        debian.close()
    page = chromium.new_page(viewport={"width": 1500, "height": 1150})
    for name, address in SMOKE_PAGES.items():
        drawn_by_chromium, drawn_in_the_tests = by_chromium[name], _drawn(page, f"{server}{address}")
        assert len(drawn_by_chromium) > 20
        assert [box[:2] for box in drawn_in_the_tests] == [box[:2] for box in drawn_by_chromium]
        moved = [
            (ours, theirs)
            for ours, theirs in zip(drawn_in_the_tests, drawn_by_chromium, strict=True)
            if any(abs(a - b) > 1 for a, b in zip(ours[2:], theirs[2:], strict=True))
        ]
        assert not moved, (
            f"{name}: drawn elsewhere in the tests' browser ({CHROMIUM}) than in Chromium: {moved[:5]}"
        )


@pytest.mark.parametrize(("ci", "outcome"), [("true", pytest.fail.Exception), ("", pytest.skip.Exception)])
def test_a_missing_browser_fails_on_ci_and_skips_elsewhere(
    ci: str, outcome: type[BaseException], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("CI", ci)
    here = sys.modules[__name__]
    chromium = here.CHROMIUM
    monkeypatch.setattr(here, "CHROMIUM", tmp_path / "no-chromium")
    with pytest.raises(BaseException, match="chromium") as caught:  # a skip must not pass for a fail
        browser_api()
    assert caught.type is outcome
    monkeypatch.setattr(here, "CHROMIUM", chromium)
    monkeypatch.setitem(sys.modules, "playwright.sync_api", None)  # an import that fails
    with pytest.raises(BaseException, match="Playwright") as caught:
        browser_api()
    assert caught.type is outcome


def test_mistakes_page_hides_info_until_asked(server: str, chromium: Any) -> None:
    """A page called Mistakes lists no "not a mistake": the info finding shows after the toggle."""
    shot = ARTIFACTS / "mistakes.png"
    with browser_page(chromium) as page:
        page.goto(f"{server}/mistakes")
        page.get_by_text("2 findings", exact=True).wait_for(timeout=30_000)
        page.locator(f"{LIGHT_TABLE} tr[data-row]").first.wait_for(timeout=30_000)
        page.locator('[data-chart="mistakes_chart"] svg.chart').first.wait_for(timeout=30_000)
        page.wait_for_function(SETTLED_WITH_FONTS, timeout=30_000)
        page.screenshot(path=str(shot), full_page=True)
        page.get_by_text("Also show info", exact=False).click()
        page.get_by_text("3 findings", exact=True).wait_for(timeout=15_000)
        page.locator(f"{LIGHT_TABLE} tr[data-row]").nth(2).wait_for(timeout=15_000)
    assert shot.stat().st_size > 10_000


def test_replay_slider_keys_and_drop_downs_at_phone_width(server: str, chromium: Any) -> None:
    """At phone width the card table comes before the buttons and the step slider (the browser's
    own); the arrow and End keys step with the slider focused, a click of Back after them goes
    one back from where the keys left it, and a deal chosen in the drop-down opens at its start."""
    shot = ARTIFACTS / "replay-390.png"
    with browser_page(chromium) as page:
        page.set_viewport_size({"width": 390, "height": 900})
        page.goto(f"{server}/replay?match=random-2&deal=5&step=0")
        slider = page.locator('input[type="range"][name="step"]')
        slider.wait_for(timeout=30_000)
        assert page.locator('[data-testid="stSlider"], [data-testid="stSelectbox"]').count() == 0
        table_y = page.locator(".mr-table").bounding_box()["y"]
        forward = page.get_by_role("button", name="Forward")
        assert table_y < forward.bounding_box()["y"] < slider.bounding_box()["y"]
        # the match drop-down takes the row, so its id is read whole ("hoekske-2026-08-2" was cut)
        match_box = page.locator('select[name="match"]').bounding_box()
        deal_box = page.locator('select[name="deal"]').bounding_box()
        assert match_box["width"] > 300 and deal_box["y"] > match_box["y"] + match_box["height"]
        page.screenshot(path=str(ARTIFACTS / "replay-390-top.png"))
        slider.focus()
        page.keyboard.press("ArrowRight")
        page.locator('.mr-trick[data-cards="1"]').wait_for(timeout=15_000)
        page.wait_for_function("() => location.search.includes('step=1')", timeout=10_000)
        page.keyboard.press("End")
        page.wait_for_function("() => location.search.includes('step=32')", timeout=15_000)
        # the address changes before the run's drawing arrives, and Back sends one before the step
        # drawn: click it once the drawing shows the last step (a click earlier goes back from step 1)
        page.locator('button[data-button="back"][data-send="31"]').wait_for(timeout=15_000)
        page.get_by_role("button", name="Back").click()
        page.wait_for_function("() => location.search.includes('step=31')", timeout=15_000)
        browser_api().expect(slider).to_have_value("31", timeout=10_000)
        page.locator('select[name="deal"]').select_option("3")
        page.wait_for_function("() => /deal=3&step=0/.test(location.search)", timeout=15_000)
        page.locator('.mr-trick[data-cards="0"]').wait_for(timeout=15_000)
        page.wait_for_function(SETTLED_WITH_FONTS, timeout=30_000)
        page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000


def test_mistakes_filters_are_the_browser_s_own_inputs(server: str, chromium: Any) -> None:
    """A severity ticked in the Severity drop-down filters the findings; the list closes on a click
    elsewhere; no Streamlit multi-select, date or toggle scripts are loaded."""
    shot = ARTIFACTS / "mistakes-filters-390.png"
    with browser_page(chromium) as page:
        page.set_viewport_size({"width": 390, "height": 900})
        page.goto(f"{server}/mistakes")
        page.get_by_text("2 findings", exact=True).wait_for(timeout=30_000)
        page.locator(f"{LIGHT_TABLE} tr[data-row]").first.wait_for(timeout=30_000)
        scripts = page.evaluate("() => performance.getEntriesByType('resource').map((r) => r.name)")
        assert not [s for s in scripts if any(n in s for n in ("Multiselect.", "DateInput.", "Checkbox."))]
        severity = page.locator('.multi[data-name="severities"]')
        severity.locator("summary").click()
        severity.get_by_label("blunder", exact=True).check()
        page.get_by_text("1 finding", exact=True).wait_for(timeout=15_000)
        assert severity.locator("summary").inner_text() == "blunder"
        page.locator("h1").click()
        assert severity.locator("details").get_attribute("open") is None
        # from the keyboard: each filter named for a screen reader, Escape and Tab out close it
        assert severity.locator("summary").get_attribute("aria-label") == "Severity: blunder"
        kinds = page.locator('.multi[data-name="kinds"] summary')
        assert kinds.get_attribute("aria-label") == "Kind: All"
        severity.locator("summary").focus()
        page.keyboard.press("Enter")
        assert severity.locator("details").get_attribute("open") is not None
        page.keyboard.press("Tab")  # onto a box in the list: it stays open
        assert severity.locator("details").get_attribute("open") is not None
        page.keyboard.press("Escape")
        assert severity.locator("details").get_attribute("open") is None
        assert severity.locator("summary").evaluate("s => s.getRootNode().activeElement === s")
        page.keyboard.press("Enter")
        boxes = severity.locator(".menu input").count()
        for _ in range(boxes + 1):  # past the last box, to the next filter
            page.keyboard.press("Tab")
        assert severity.locator("details").get_attribute("open") is None
        page.wait_for_function(SETTLED_WITH_FONTS, timeout=30_000)
        page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000


LIGHT_TABLE = ".mr-light-table"
"""The light table's box (dashboards/light_table.py); Playwright's CSS selectors reach into the
component's shadow root."""

GRID_SCRIPTS = ("DataFrame.", "arrowFormatUtils.", "Quiver.")
"""Names of the data grid's JavaScript files (Streamlit's build names them so, then a hash)."""


def test_clicking_a_row_opens_its_page_in_the_same_tab(server: str, chromium: Any) -> None:
    """A click on a row of the Archive's light table opens that match on the Match page in this
    tab and session (no reload, no new tab); Enter on a focused deal row opens its replay; the
    first view asks for none of the data grid's scripts, and a header click sorts the rows."""
    shot = ARTIFACTS / "match-from-row.png"
    with browser_page(chromium) as page:
        scripts: list[str] = []
        page.on("request", lambda request: scripts.append(request.url))
        page.goto(f"{server}/")
        rows = page.locator(f'{LIGHT_TABLE}[data-table="archive_table"] tbody tr[data-row]')
        rows.first.wait_for(timeout=30_000)
        assert rows.count() == 3
        assert not [url for url in scripts if any(name in url for name in GRID_SCRIPTS)]
        assert page.locator('[data-testid="stDataFrame"]').count() == 0
        # a header click sorts by that column (numbers largest first), a second click turns it
        header = page.locator(f'{LIGHT_TABLE}[data-table="archive_table"] th').filter(has_text="Findings")
        header.locator("button").click()
        assert header.get_attribute("aria-sort") == "descending"
        findings = rows.evaluate_all("rows => rows.map(r => r.cells[r.cells.length - 1].textContent)")
        assert findings == sorted(findings, key=int, reverse=True)
        header.locator("button").click()
        assert header.get_attribute("aria-sort") == "ascending"
        first_match = rows.first.locator("td").first.inner_text()
        page.evaluate("() => { window.__sameDocument = true; }")  # a reload would forget this
        tabs = list(page.context.pages)
        rows.first.click()
        page.wait_for_url(re.compile(r"/match\?"), timeout=30_000)
        assert page.context.pages == tabs  # no tab opened
        assert re.search(rf"[?&]match={re.escape(first_match)}\b", page.url)
        page.get_by_text("Deals", exact=True).wait_for(timeout=30_000)
        assert page.evaluate("() => window.__sameDocument") is True
        deals = page.locator(f'{LIGHT_TABLE}[data-table="match_deals"] tbody tr[data-row]')
        deals.nth(1).wait_for(timeout=30_000)
        page.wait_for_function(SETTLED_WITH_FONTS, timeout=30_000)
        page.screenshot(path=str(shot), full_page=True)
        deals.nth(1).focus()
        page.keyboard.press("Enter")
        page.wait_for_url(re.compile(r"/replay\?.*deal=2\b"), timeout=30_000)
        page.locator(".mr-trick").wait_for(timeout=30_000)
        assert page.evaluate("() => window.__sameDocument") is True
        assert not [url for url in scripts if any(name in url for name in GRID_SCRIPTS)]
    assert shot.stat().st_size > 10_000


def test_a_light_table_s_rows_are_one_tab_stop_and_the_arrow_keys_move_between_them(
    server: str, chromium: Any
) -> None:
    """An accessibility sweep: each row of a light table was a Tab stop of its own, so a list of
    300 matches was 300 Tabs to get past. The rows are one stop now (the first row, or the last
    one moved to); ArrowDown/ArrowUp, Home and End move between them, and Enter opens the row."""
    with browser_page(chromium) as page:
        page.goto(f"{server}/match?match=random-1")
        rows = page.locator(f'{LIGHT_TABLE}[data-table="match_deals"] tbody tr[data-row]')
        rows.nth(2).wait_for(timeout=30_000)
        count = rows.count()
        stops = rows.evaluate_all("rows => rows.map((row) => row.tabIndex)")
        assert stops == [0] + [-1] * (count - 1)
        script = (
            "rows => { const row = rows[0].getRootNode().activeElement; "
            "return row ? row.dataset.row : null; }"
        )

        def focused() -> str | None:
            """The focused row's ``data-row`` (inside the component's shadow root), or ``None``."""
            return rows.evaluate_all(script)  # type: ignore[no-any-return]

        rows.first.focus()
        page.keyboard.press("ArrowDown")
        page.keyboard.press("ArrowDown")
        third = rows.nth(2).get_attribute("data-row")
        assert focused() == third
        assert rows.evaluate_all("rows => rows.filter((row) => row.tabIndex === 0).length") == 1
        assert rows.nth(2).evaluate("row => row.tabIndex") == 0
        page.keyboard.press("End")
        assert focused() == rows.nth(count - 1).get_attribute("data-row")
        page.keyboard.press("Home")
        assert focused() == rows.first.get_attribute("data-row")
        page.keyboard.press("ArrowUp")  # at the first row it stays
        assert focused() == rows.first.get_attribute("data-row")
        # a row focused otherwise (a click that stayed on the page) takes the one stop too
        rows.nth(3).focus()
        page.keyboard.press("ArrowUp")
        assert rows.evaluate_all("rows => rows.filter((row) => row.tabIndex === 0).length") == 1
        assert rows.nth(2).evaluate("row => row.tabIndex") == 0
        page.keyboard.press("Home")
        page.keyboard.press("ArrowDown")
        page.keyboard.press("Tab")  # out of the table, not onto the next row
        assert focused() is None
        page.keyboard.press("Shift+Tab")  # back in: onto the row last moved to
        assert focused() == rows.nth(1).get_attribute("data-row")
        page.keyboard.press("Enter")
        page.wait_for_url(re.compile(r"/replay\?.*deal=2\b"), timeout=30_000)


def test_interactive_tables_bring_the_data_grid_on_demand(server: str, chromium: Any) -> None:
    """The light table's "Interactive tables" button shows the page's tables in Streamlit's data
    grid; the toggle it brings turns the light tables back on."""
    with browser_page(chromium) as page:
        page.goto(f"{server}/")
        page.locator(f"{LIGHT_TABLE} tr[data-row]").first.wait_for(timeout=30_000)
        page.locator(f"{LIGHT_TABLE} button.grid").click()
        page.locator('[data-testid="stDataFrame"]').wait_for(timeout=30_000)
        assert page.locator(LIGHT_TABLE).count() == 0
        page.get_by_text("Interactive tables", exact=True).click()
        page.locator(f"{LIGHT_TABLE} tr[data-row]").first.wait_for(timeout=30_000)
        page.locator('[data-testid="stDataFrame"]').wait_for(state="detached", timeout=30_000)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_light_tables_at_laptop_and_phone_width(server: str, scheme: str, chromium: Any) -> None:
    """Screenshots of the pages with light tables, in both themes, at 1500 and 390 px, for a
    person to look at; at phone width the first table of each page shows its phone columns,
    within the screen (a table without them scrolls sideways inside its box)."""
    pages = {"archive": "", "match": "match?match=random-1", "mistakes": "mistakes"}
    for width, height in ((1500, 1400), (390, 1600)):
        page = chromium.new_page(viewport={"width": width, "height": height}, color_scheme=scheme)
        for name, address in pages.items():
            page.goto(f"{server}/{address}")
            page.locator(f"{LIGHT_TABLE} tr[data-row]").first.wait_for(timeout=30_000)
            # the page's run over and its fonts in, rather than a fixed pause (0.7 s, 12 times)
            page.wait_for_function(SETTLED_WITH_FONTS, timeout=30_000)
            page.screenshot(path=str(ARTIFACTS / f"table-{name}-{scheme}-{width}.png"), full_page=True)
            box = page.locator(f"{LIGHT_TABLE} .scroller").first.bounding_box()
            assert box is not None and box["x"] + box["width"] <= width
            if width < 500:
                scrolls = page.locator(f"{LIGHT_TABLE} .scroller").first.evaluate(
                    "box => box.scrollWidth > box.clientWidth"
                )
                # each page's first table keeps to its phone columns instead, within the screen
                # (the Archive's: test_newcomer.py; the Match page's deals and the Mistakes list:
                # test_browser_layout.py)
                assert not scrolls, name
            colour = page.locator(f"{LIGHT_TABLE} td").first.evaluate("td => getComputedStyle(td).color")
            background = page.evaluate(
                "() => getComputedStyle(document.querySelector('.stApp')).backgroundColor"
            )
            assert _luminance(colour) != _luminance(background)
            assert (_luminance(colour) > _luminance(background)) == (scheme == "dark"), name
        page.close()
    assert (ARTIFACTS / f"table-archive-{scheme}-390.png").stat().st_size > 10_000


def _luminance(colour: str) -> float:
    """The brightness of a CSS ``rgb(...)``/``rgba(...)`` colour, 0 to 1."""
    red, green, blue = (int(part) for part in re.findall(r"\d+", colour)[:3])
    return (0.2126 * red + 0.7152 * green + 0.0722 * blue) / 255


def test_a_new_tab_at_a_page_address_connects_without_probing_that_address(
    server: str, chromium: Any
) -> None:
    """Told where the server is (``dashboards/asgi_app.py``), a tab opened at ``/replay?...`` asks
    ``/_stcore/health`` only, not ``/replay/_stcore/health`` first (a 404, then a tenth of a second
    of waiting); the replay's link box (closed, in the page's drawing) shows the play's address,
    the whole address selected by one click."""
    shot = ARTIFACTS / "replay-link-opened.png"
    with browser_page(chromium) as page:
        asked: list[str] = []
        page.on("request", lambda request: asked.append(request.url.removeprefix(server)))
        page.goto(f"{server}/replay?match=random-2&deal=5&step=2")
        page.locator(".mr-trick").wait_for(timeout=30_000)
        assert [a for a in asked if "_stcore/health" in a] == ["/_stcore/health"]
        told = page.evaluate("() => window.__streamlit")
        assert told["BACKEND_BASE_URL"] == f"{server}/"
        assert told["HOST_CONFIG"]["allowedOrigins"]  # with it the websocket need not wait for host-config
        code = page.locator("code.mr-address")
        assert not code.is_visible()
        page.get_by_text("Link to this play", exact=True).click()
        code.wait_for(timeout=15_000)
        assert code.inner_text().strip() == f"{server}/replay?match=random-2&deal=5&step=2"
        code.click()
        assert page.evaluate("() => getSelection().toString()") == code.inner_text()
        page.get_by_text("Write a comment", exact=True).click()
        page.get_by_text("Add comment", exact=True).wait_for(timeout=15_000)
        page.wait_for_function(SETTLED_WITH_FONTS, timeout=30_000)
        page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000


def test_a_server_with_its_own_url_prefix_serves_its_pages_below_it(tmp_path: Path, chromium: Any) -> None:
    """``server.baseUrlPath`` set (here from Streamlit's environment variable): a new tab at
    ``/manillen/sql`` is told the server is at ``/manillen/`` and draws the page."""
    archive = tmp_path / "club.duckdb"
    build_archive(archive)
    port = free_port()
    prefixed = {"STREAMLIT_SERVER_BASE_URL_PATH": "manillen"}
    command = dashboard_command(archive, port)
    with serving(command, port, prefixed, prefix="/manillen") as address, browser_page(chromium) as page:
        asked: list[str] = []
        page.on("request", lambda request: asked.append(request.url.removeprefix(address)))
        page.goto(f"{address}/sql")
        page.get_by_role("button", name="Run").wait_for(timeout=30_000)
        assert page.evaluate("() => window.__streamlit.BACKEND_BASE_URL") == f"{address}/"
        assert [a for a in asked if "_stcore/health" in a] == ["/_stcore/health"]


def test_chart_pages_draw_svg_first_and_plotly_on_demand(server: str, chromium: Any) -> None:
    """The Players page's first view draws its charts as SVG and loads no plotly.js; the toggle
    brings the interactive charts. Screenshots at laptop and phone width for a person to look at."""
    for width, height in ((1500, 2600), (390, 4200)):
        page = chromium.new_page(viewport={"width": width, "height": height})
        scripts: list[str] = []
        page.on("request", lambda request, seen=scripts: seen.append(request.url))
        page.goto(f"{server}/players?player=Bert")
        charts = page.locator('[data-chart="players_partners"] svg.chart:visible')
        charts.first.wait_for(timeout=30_000)
        page.wait_for_function(SETTLED_WITH_FONTS, timeout=30_000)
        page.screenshot(path=str(ARTIFACTS / f"players-charts-{width}.png"), full_page=True)
        # one drawing of each chart shows: the wide one on a laptop, the narrow one on a phone
        shown = page.locator("[data-chart] svg.chart:visible")
        assert shown.count() == 4
        box = charts.first.bounding_box()
        assert box is not None and box["width"] <= width
        expected = "mr-wide" if width > 1000 else "mr-narrow"  # a full-width chart
        assert charts.first.evaluate("svg => svg.parentElement.className") == expected
        assert page.locator(".js-plotly-plot").count() == 0
        assert not [url for url in scripts if "PlotlyChart" in url]
        page.close()
    page = chromium.new_page(viewport={"width": 1500, "height": 1150})
    page.goto(f"{server}/players?player=Bert")
    page.locator("[data-chart] svg.chart:visible").first.wait_for(timeout=30_000)
    page.get_by_text("Interactive charts", exact=True).click()
    page.locator(".js-plotly-plot .main-svg").first.wait_for(timeout=60_000)
    assert page.locator("[data-chart]").count() == 0
    page.close()
    assert (ARTIFACTS / "players-charts-390.png").stat().st_size > 10_000


def test_sql_runs_what_was_typed_and_an_example_replaces_it(server: str, chromium: Any) -> None:
    """The query typed in the box runs with one click of Run (the box hands its text over as it
    loses focus); an example then replaces it and runs."""
    with browser_page(chromium) as page:
        page.goto(f"{server}/sql")
        box = page.get_by_label("Query")
        box.wait_for(timeout=30_000)
        assert "player_summary" in box.input_value()
        box.fill("SELECT 40 + 2 AS answer")
        page.get_by_role("button", name="Run").click()
        page.get_by_text("1 row", exact=True).wait_for(timeout=30_000)
        page.get_by_text("Examples", exact=True).click()
        page.locator("[data-testid=stExpanderDetails] button").first.click()
        page.get_by_text(re.compile(r"^\d+ rows$")).wait_for(timeout=30_000)
        assert "40 + 2" not in box.input_value()
        page.screenshot(path=str(ARTIFACTS / "sql.png"), full_page=True)


def test_a_failed_querys_message_is_shown_as_lines_of_text_with_no_link(server: str, chromium: Any) -> None:
    """DuckDB's message quotes what the query held: an address in it became a link in the
    markdown the message was shown as, and its lines ("Did you mean ...") ran together."""
    with browser_page(chromium) as page:
        page.goto(f"{server}/sql")
        box = page.get_by_label("Query")
        box.wait_for(timeout=30_000)
        box.fill("SELECT CAST('http://192.0.2.2/x' AS INTEGER) AS n")
        page.get_by_role("button", name="Run").click()
        alert = page.locator("[data-testid=stAlertContentError]")
        alert.wait_for(timeout=30_000)
        assert alert.inner_text().startswith("The query failed:")
        said = alert.locator("pre").inner_text().strip().splitlines()
        assert said[0] == "could not convert string 'http://192.0.2.2/x' to INT32"
        # DuckDB's quote of the query's line, the caret under the place, in the same lines of text
        assert said[2].startswith("LINE 1: SELECT CAST(") and said[3].index("^") == said[2].index("CAST"), (
            said
        )
        assert alert.locator("a").count() == 0
        box.fill("SELECT nothing FROM plays")
        page.get_by_role("button", name="Run").click()
        page.get_by_text("Candidate bindings", exact=False).wait_for(timeout=30_000)
        lines = alert.locator("pre").inner_text().strip().splitlines()
        assert lines[0] == 'referenced column "nothing" not found in FROM clause!'
        assert lines[1].startswith("Candidate bindings: "), lines
        page.screenshot(path=str(ARTIFACTS / "sql-error.png"))


def test_a_tab_a_test_closes_is_handed_on_empty(chromium: Any) -> None:
    """A test's ``page.close()`` empties its tab for the next test; a second tab it closed while
    the first waited is closed for good (a profile keeps one idle tab)."""
    first = chromium.new_page(viewport={"width": 390, "height": 844})
    first.goto("data:text/html,<p>the first tab</p>")
    second = chromium.new_page()
    assert second is not first
    first.close()
    assert not first.is_closed() and first.url == "about:blank"
    second.close()
    assert second.is_closed()
    assert chromium.new_page() is first
    assert first.evaluate("() => [innerWidth, innerHeight]") == [1280, 720]


def test_dashboards_of_a_test_process_keep_one_port_while_it_is_free(monkeypatch: pytest.MonkeyPatch) -> None:
    """The next dashboard gets the port the last one had, also while that one's closed
    connections still wait there (as a stopped server leaves them); while a server listens there,
    another port."""
    # a kept port of the test's own: this file's dashboard may be serving at the process's
    monkeypatch.setattr(sys.modules[__name__], "_KEPT_PORT", [])
    port = kept_port()
    with socket.socket() as listening:
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind(("127.0.0.1", port))
        listening.listen()
        assert kept_port() != port  # a dashboard serves there
        with socket.create_connection(("127.0.0.1", port)) as visitor:
            accepted, _ = listening.accept()
            accepted.close()  # the server's side closes first: its end of the connection waits
            visitor.recv(1)
    assert kept_port() == port


def test_each_test_starts_without_what_another_left_but_the_cache(chromium: Any) -> None:
    """The kept profile (:class:`KeptProfile`) between two tests: the cookie and the site's
    storage are gone, the tab the first test had is handed on empty, without the first test's
    listener and at the second test's own size and colour scheme, and the page's script comes
    from the cache (the server is not asked for it twice)."""
    import http.server
    import threading

    asked: list[str] = []

    class Site(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            asked.append(self.path)
            script = self.path == "/page.js"
            body = b"window.loaded = true;" if script else b'<html><script src="/page.js"></script></html>'
            self.send_response(200)
            self.send_header("Content-Type", "text/javascript" if script else "text/html")
            self.send_header("Cache-Control", "max-age=3600" if script else "no-store")
            if not script:
                self.send_header("Set-Cookie", "visitor=1; Path=/; HttpOnly")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    site = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Site)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    address = f"http://127.0.0.1:{site.server_address[1]}/"
    try:
        page = chromium.new_page(viewport={"width": 390, "height": 844}, color_scheme="dark")
        heard: list[str] = []
        page.on("request", lambda request: heard.append(request.url))
        page.goto(address)
        page.evaluate("() => { localStorage.setItem('left', 'by the first test'); }")
        page.evaluate("() => { sessionStorage.setItem('left', 'by the first test'); }")
        seen = """() => [localStorage.getItem('left'), sessionStorage.getItem('left'),
            matchMedia('(prefers-color-scheme: dark)').matches, innerWidth]"""
        assert page.evaluate(seen) == ["by the first test", "by the first test", True, 390]
        assert [c["name"] for c in page.context.cookies()] == ["visitor"]
        assert len(heard) == 2
        chromium.forget()  # what the fixture does after each test
        assert not page.is_closed() and page.url == "about:blank"
        again = chromium.new_page()
        assert again is page  # handed on
        assert again.context.cookies() == []
        again.goto(address)
        assert again.evaluate("() => window.loaded") is True
        assert again.evaluate(seen) == [None, None, False, 1280]
        assert len(heard) == 2  # the first test's listener heard nothing of the second's
        # the script the second time from the cache (the browser asks for its icon on its own)
        assert [path for path in asked if path != "/favicon.ico"] == ["/", "/page.js", "/"]
    finally:
        site.shutdown()
