"""The deal replay on a phone (issue 30), in a real browser (Chromium via Playwright): the step
buttons are in the first screen at 390x844 (and on a shorter phone, over the card table that runs
past the screen's foot there), and they step the replay without any scrolling.

The server and the archive are test_browser.py's. Screenshots land in tests/artifacts/ for a
person to look at.
"""

from __future__ import annotations

from typing import Any

import pytest

from .test_browser import ARTIFACTS, CHROMIUM, SETTLED_WITH_FONTS, server
from .test_browser_replay import REPLAY, wait_step

__all__ = ["server"]  # the fixture, shared with test_browser.py

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
SHORT_PHONE = {"width": 390, "height": 667}
"""A shorter phone's screen, where the card table runs past the screen's foot."""
NAMES = {
    "en": {"start": "Start", "back": "Back", "forward": "Forward", "end": "End"},
    "nl": {"start": "Begin", "back": "Terug", "forward": "Verder", "end": "Einde"},
}

SCROLLED = """() => Math.max(window.scrollY,
  ...[...document.querySelectorAll('*')].map((element) => element.scrollTop || 0))"""
"""How far the page, or any box in it (Streamlit scrolls its main box), is scrolled down."""

BAR = """() => {
  const host = [...document.querySelectorAll('[data-testid^="stBidiComponent"]')]
    .find((h) => h.shadowRoot && h.shadowRoot.querySelector('.mr-steps'));
  const bar = host.shadowRoot.querySelector('.mr-steps');
  const app = getComputedStyle(document.querySelector('.stApp')).backgroundColor;
  return {background: getComputedStyle(bar).backgroundColor, app};
}"""
"""The step bar's background and the page's: the bar covers the table in the theme's colour."""


def _in_view(page: Any, lang: str, screen: dict[str, int]) -> dict[str, dict[str, float]]:
    """Each step button's box, checked to lie wholly inside the phone's first screen."""
    boxes = {}
    for name, label in NAMES[lang].items():
        box = page.get_by_role("button", name=label, exact=True).bounding_box()
        assert box is not None, name
        assert box["y"] >= 0 and box["y"] + box["height"] <= screen["height"], (name, box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= screen["width"], (name, box)
        boxes[name] = box
    return boxes


@pytest.mark.parametrize(
    ("lang", "scheme", "screen"),
    [("en", "light", PHONE), ("nl", "dark", PHONE), ("en", "light", SHORT_PHONE)],
)
def test_replay_step_buttons_are_in_the_first_screen_of_a_phone(
    server: str, lang: str, scheme: str, screen: dict[str, int], chromium: Any
) -> None:
    """At 390x844 (and 390x667, where the card table runs past the screen's foot) the step buttons
    are in the first screen, under the table's top, and a tap on Forward, Back and End steps the
    replay with the page unscrolled. The bar has the theme's own background."""
    ARTIFACTS.mkdir(exist_ok=True)
    assert CHROMIUM.exists()
    page = chromium.new_page(viewport=screen, color_scheme=scheme, has_touch=True)
    page.goto(f"{server}/{REPLAY}&lang={lang}")
    wait_step(page, 5)
    page.wait_for_function(SETTLED_WITH_FONTS, timeout=30_000)  # not a fixed pause
    table = page.locator(".mr-table").bounding_box()
    assert table is not None
    if screen is SHORT_PHONE:
        assert table["y"] + table["height"] > screen["height"]  # the table runs past the foot
    boxes = _in_view(page, lang, screen)
    assert all(box["y"] > table["y"] for box in boxes.values())  # the table's top comes first
    page.screenshot(path=str(ARTIFACTS / f"replay-phone-{scheme}-{lang}-{screen['height']}.png"))
    colours = page.evaluate(BAR)
    assert colours["background"] == colours["app"], colours
    for label, step in (
        (NAMES[lang]["forward"], 6),
        (NAMES[lang]["back"], 5),
        (NAMES[lang]["end"], 32),
    ):
        page.get_by_role("button", name=label, exact=True).tap(no_wait_after=True)
        wait_step(page, step)
        assert page.evaluate(SCROLLED) == 0
        _in_view(page, lang, screen)
    page.close()


def test_the_match_pages_newest_links_wrap_on_a_phone_rather_than_end_cut_off(
    server: str, chromium: Any
) -> None:
    """With no match chosen the newest matches are links "ID (date: A & B against C & D)": on a
    phone each ended cut off at the screen's edge, before the players who tell one from another."""
    page = chromium.new_page(viewport=PHONE, has_touch=True, is_mobile=True)
    page.goto(f"{server}/match")
    links = page.locator('[data-testid="stMainBlockContainer"] [data-testid="stPageLink-NavLink"]')
    links.first.wait_for(timeout=30_000)
    page.wait_for_function(SETTLED_WITH_FONTS, timeout=30_000)
    cut = page.evaluate(
        """() => [...document.querySelectorAll(
             '[data-testid="stMainBlockContainer"] [data-testid="stPageLink-NavLink"] *')]
           .filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent)"""
    )
    assert cut == []
    for index in range(links.count()):
        box = links.nth(index).bounding_box()
        assert box is not None and box["x"] + box["width"] <= PHONE["width"], box
    page.screenshot(path=str(ARTIFACTS / "match-newest-phone.png"))
    page.close()


CAPTION_CONTRAST = """() => {
  const channel = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  const rgb = (text) => text.match(/[\\d.]+/g).map(Number);
  const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  const caption = document.querySelector('[data-testid="stCaptionContainer"]');
  const style = getComputedStyle(caption);
  const [r, g, b, a = 1] = rgb(style.color);
  const alpha = a * Number(style.opacity);
  const ground = rgb(getComputedStyle(document.querySelector('.stApp')).backgroundColor);
  const seen = [r, g, b].map((c, i) => alpha * c + (1 - alpha) * ground[i]);
  const [light, dark] = [luminance(seen), luminance(ground)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}"""
"""The first caption's contrast against the page, as WCAG counts it (its colour and opacity laid
over the page's background)."""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_caption_is_readable_against_the_page(server: str, chromium: Any, scheme: str) -> None:
    """Streamlit draws a caption at 60% of the text's colour: 3.8:1 on white, under the 4.5:1 small
    text needs; the Match page's explanation of each mistake is a caption."""
    page = chromium.new_page(viewport=PHONE, color_scheme=scheme)
    page.goto(f"{server}/sql")
    page.locator('[data-testid="stCaptionContainer"]').first.wait_for(timeout=30_000)
    page.wait_for_function(SETTLED_WITH_FONTS, timeout=30_000)
    assert page.evaluate(CAPTION_CONTRAST) >= 4.5
    page.close()
