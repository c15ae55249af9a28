"""The Record page in a real browser at phone size (390x844) for the other games: the two-player
game with its open table cards, and the six-player game's 36-card grid.

Starts ``manillen dashboard`` as tests/test_browser.py does. Nothing may run off the side of the
phone: the page does not scroll sideways and every card button lies inside the screen.
Screenshots land in tests/artifacts/ for a person to look at.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from manillen_replay.rules import Rules

from .test_browser import ARTIFACTS, CHROMIUM
from .test_browser import server as server  # the same live dashboard fixture
from .test_browser_record import PHONE, settle, tap_when_settled
from .test_recording_variants import dealt_slots

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium: apt-get install -y chromium"),
]

SAMPLES = Path(__file__).resolve().parents[1] / "data" / "samples"
OVERFLOW = """() => {
    const width = document.documentElement.clientWidth;
    const main = document.querySelector('[data-testid="stMain"]');
    const wide = [...document.querySelectorAll('[data-testid="stMain"] *')]
        .filter(e => e.getBoundingClientRect().right > width + 1 && e.getClientRects().length)
        .map(e => e.className || e.tagName);
    return {page: document.documentElement.scrollWidth - width,
            main: main ? main.scrollWidth - main.clientWidth : 0, wide: wide.slice(0, 5)};
}"""
"""How far the page and its main part scroll sideways, and the first elements past the right edge."""


def assert_fits(page: Any, where: str) -> None:
    settle(page)
    found = page.evaluate(OVERFLOW)
    assert found["page"] <= 0 and found["main"] <= 0 and not found["wide"], (where, found)


def set_up(page: Any, server: str, variant: str, names: list[str]) -> None:
    page.goto(f"{server}/record")
    choice = page.locator('select[name="variant"]')
    choice.wait_for(timeout=30_000)
    choice.select_option(variant)
    page.locator(f'input[name="seat_{len(names) - 1}"]').wait_for(timeout=30_000)  # the seats follow
    for seat, name in enumerate(names):
        box = page.locator(f'input[name="seat_{seat}"]')
        box.click()
        box.fill(name)
        box.press("Enter")
    page.locator('select[name="dealer"]').select_option("0")
    start = page.locator(".st-key-record_start button")
    start.wait_for(timeout=15_000)
    page.wait_for_function(
        "() => !document.querySelector('.st-key-record_start button').disabled", timeout=15_000
    )
    settle(page)


def test_two_player_deal_with_open_table_cards_on_a_phone(server: str, chromium: Any) -> None:
    playwright_api = pytest.importorskip("playwright.sync_api")
    expect = playwright_api.expect
    document = json.loads((SAMPLES / "variant-two-open.json").read_text())
    deal = document["deals"][0]
    ARTIFACTS.mkdir(exist_ok=True)
    page = chromium.new_page(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    set_up(page, server, "two_open", document["match"]["seats"])
    assert_fits(page, "set-up")
    page.screenshot(path=str(ARTIFACTS / "record-variant-two-open-setup.png"), full_page=True)
    page.locator(".st-key-record_start button").click()
    tap_when_settled(page, ".st-key-record_trump_H button")
    page.get_by_role("radio", name="Cards dealt first").click()
    page.get_by_text(re.compile(r"Tap Anna's table, pile 1")).wait_for(timeout=15_000)
    cards = dealt_slots(deal, Rules(variant="two_open"))
    for index, card in enumerate(cards[:-8]):  # Bert's hand is the cards left
        button = page.locator(f".st-key-record_card_{card} button")
        button.click()
        expect(button).to_be_disabled(timeout=15_000)
        if index == 4:
            settle(page)
            page.screenshot(path=str(ARTIFACTS / "record-variant-two-open-piles.png"))
    page.get_by_text("Every card dealt is in").wait_for(timeout=15_000)
    page.get_by_role("radio", name="Cards played").click()
    plays = [card for trick in deal["tricks"] for card in trick]
    for index, card in enumerate(plays[:6]):
        button = page.locator(f".st-key-record_card_{card} button")
        button.click()
        page.get_by_text(re.compile(rf"· {index + 1} of 32 cards in")).wait_for(timeout=15_000)
        expect(button).to_be_disabled(timeout=15_000)
    settle(page)
    assert page.get_by_text(re.compile(r"Open on the table: Anna")).count() == 1
    face_down = deal["table"][1][3][0]  # Bert's 4th pile: its face-down card is not yet playable
    expect(page.locator(f".st-key-record_card_{face_down} button")).to_be_disabled()
    assert_fits(page, "table")
    page.screenshot(path=str(ARTIFACTS / "record-variant-two-open-table.png"), full_page=True)


def test_six_player_grid_of_36_cards_fits_a_phone(server: str, chromium: Any) -> None:
    playwright_api = pytest.importorskip("playwright.sync_api")
    expect = playwright_api.expect
    document = json.loads((SAMPLES / "variant-six.json").read_text())
    ARTIFACTS.mkdir(exist_ok=True)
    page = chromium.new_page(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    set_up(page, server, "six", document["match"]["seats"])
    assert_fits(page, "set-up")
    page.get_by_text("More house rules").click()
    capot = page.get_by_text("Capot (every point taken)")
    capot.wait_for(timeout=15_000)
    capot.scroll_into_view_if_needed()
    assert_fits(page, "house rules")
    page.screenshot(path=str(ARTIFACTS / "record-variant-house-rules.png"))
    page.locator(".st-key-record_start button").click()
    tap_when_settled(page, ".st-key-record_trump_H button")
    six = page.locator(".st-key-record_card_6D button")
    expect(six).to_be_enabled(timeout=15_000)
    for index, card in enumerate(document["deals"][0]["tricks"][0]):
        page.locator(f".st-key-record_card_{card} button").click()
        page.get_by_text(re.compile(rf"· {index + 1} of 36 cards in")).wait_for(timeout=15_000)
    page.get_by_text(re.compile(r"Trick 1: \w+ takes")).wait_for(timeout=15_000)
    assert_fits(page, "grid of 36")
    page.screenshot(path=str(ARTIFACTS / "record-variant-six.png"), full_page=True)


def test_three_player_scoresheet_fits_a_phone(server: str, chromium: Any) -> None:
    """The three-player games keep a score per player: the scoresheet's columns still fit."""
    names = ["Annabella", "Bertrand", "Carolien"]  # long names: the widest columns
    ARTIFACTS.mkdir(exist_ok=True)
    page = chromium.new_page(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    set_up(page, server, "three", names)
    page.locator(".st-key-record_start button").click()
    for number in range(2):
        page.get_by_role("radio", name="Scoresheet line").click()
        save = page.locator(".st-key-record_sheet_save button")
        save.wait_for(timeout=15_000)
        settle(page)
        # each deal's line starts empty: who scored, and how much
        page.locator("[class*=st-key-record_sheet_team_] [role=radiogroup] label").first.click()
        points = page.locator("[class*=st-key-record_sheet_points_] input")
        points.fill("2")
        points.press("Tab")
        settle(page)
        save.click()
        page.get_by_text(f"Deal {number + 1} is saved").wait_for(timeout=60_000)
    settle(page)
    header = page.locator("th", has_text="Carolien")
    assert header.count() == 1
    page.locator('[data-testid="stMain"]').evaluate("main => main.scrollTo(0, 0)")
    assert_fits(page, "scoresheet of three")
    page.screenshot(path=str(ARTIFACTS / "record-variant-three-scoresheet.png"), full_page=True)
