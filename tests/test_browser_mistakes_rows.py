"""The Mistakes page of a busy archive in a real browser: the table arrives with its 100 most
serious findings and a button under it brings them all; screenshots in Dutch, both themes, at
1400 and 390 px."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .test_browser import (
    ARTIFACTS,
    LIGHT_TABLE,
    SETTLED_WITH_FONTS,
    browser_api,
    dashboard_served,
)
from .test_dashboard_mistakes_rows import MANY, build_busy_archive

pytestmark = pytest.mark.browser

ROWS = f"{LIGHT_TABLE} tbody tr[data-row]"


@pytest.fixture(scope="module")
def busy_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    archive: Path = tmp_path_factory.mktemp("busy-browser") / "club.duckdb"
    build_busy_archive(archive)
    with dashboard_served(archive) as address:
        yield address


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_table_brings_all_its_findings_on_demand(busy_server: str, scheme: str, chromium: Any) -> None:
    playwright_api = browser_api()
    expect = playwright_api.expect
    total = MANY + 2
    for width in (1400, 390):
        page = chromium.new_page(viewport={"width": width, "height": 1000}, color_scheme=scheme)
        page.goto(f"{busy_server}/mistakes?lang=nl")
        page.locator(ROWS).first.wait_for(timeout=30_000)
        expect(page.get_by_text(f"De 100 ernstigste van {total} getoond.")).to_be_visible()
        # the match filter twice a field's width (on a phone its own row): an organiser's sweep read
        # three tables' ids of one evening as the same "de-zwaan-2…"
        matches, players = (page.locator(f'[data-name="{name}"]').first for name in ("matches", "players"))
        assert matches.bounding_box()["width"] > 1.5 * players.bounding_box()["width"]  # type: ignore[index]
        expect(page.locator(ROWS)).to_have_count(60)  # drawn; the rest as the box scrolls
        button = page.locator(f"{LIGHT_TABLE} button.more")
        expect(button).to_have_text(f"Alle {total} tonen")
        button.scroll_into_view_if_needed()
        page.wait_for_function(SETTLED_WITH_FONTS, timeout=30_000)  # not a fixed pause
        shot = ARTIFACTS / f"mistakes-first-rows-nl-{scheme}-{width}.png"
        page.screenshot(path=str(shot), full_page=True)
        button.click()
        expect(page.locator(f"{LIGHT_TABLE} button.more")).to_have_count(0, timeout=15_000)
        expect(page.get_by_text(f"De 100 ernstigste van {total} getoond.")).to_have_count(0)
        scroller = page.locator(f"{LIGHT_TABLE} .scroller").first
        for _ in range(10):  # scrolled to its end, the box draws every row
            scroller.evaluate("box => box.scrollTo(0, box.scrollHeight)")
            page.wait_for_timeout(100)
        expect(page.locator(ROWS)).to_have_count(total)
        page.close()
    assert (ARTIFACTS / f"mistakes-first-rows-nl-{scheme}-390.png").stat().st_size > 10_000
