"""The Archive page's filter box in a real browser: its dates are the browser's own date fields
(dashboards/native_inputs.py, as on the Mistakes page), in Dutch, at laptop and phone width."""

from __future__ import annotations

from typing import Any

import pytest

from .test_browser import ARTIFACTS, LIGHT_TABLE, SETTLED_WITH_FONTS, browser_api
from .test_browser import server as server  # the same live dashboard fixture
from .test_browser_native_inputs import FOCUSED

pytestmark = pytest.mark.browser

ROWS = f'{LIGHT_TABLE}[data-table="archive_table"] tbody tr[data-row]'


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_archive_dates_filter_in_the_browser_s_own_date_fields(
    server: str, scheme: str, chromium: Any
) -> None:
    """Opened, the filter box shows two date fields over the archive's dates (no Streamlit date
    input is loaded); a later first date leaves the two later matches, and the choice stays in
    force once the box is closed again. Screenshots at 1400 and 390 px."""
    playwright_api = browser_api()
    expect = playwright_api.expect
    for width in (1400, 390):
        page = chromium.new_page(
            viewport={"width": width, "height": 1000}, color_scheme=scheme, locale="nl-BE"
        )
        page.goto(f"{server}/?lang=nl")
        page.locator(ROWS).first.wait_for(timeout=30_000)
        expect(page.locator(ROWS)).to_have_count(3)
        page.get_by_text("Partijen filteren").click()
        first = page.locator('input[name="date_from"]')
        first.wait_for(timeout=30_000)
        assert first.get_attribute("type") == "date"
        assert (first.input_value(), first.get_attribute("min")) == ("2026-01-01", "2026-01-01")
        assert page.locator('input[name="date_to"]').input_value() == "2026-03-03"
        expect(page.get_by_text("Datums: tot en met")).to_be_visible()
        first.fill("2026-02-01")
        first.press("Enter")
        expect(page.locator(ROWS)).to_have_count(2, timeout=15_000)
        expect(page.get_by_text("2 van 3 partijen getoond", exact=False)).to_be_visible()
        assert page.evaluate(FOCUSED) == "date_from"  # the run's drawing left the focus there
        page.wait_for_function(SETTLED_WITH_FONTS, timeout=30_000)  # not a fixed pause
        shot = ARTIFACTS / f"archive-dates-nl-{scheme}-{width}.png"
        page.screenshot(path=str(shot), full_page=True)
        scripts = page.evaluate("() => performance.getEntriesByType('resource').map((r) => r.name)")
        assert not [name for name in scripts if "DateInput." in name]
        page.get_by_text("Partijen filteren").click()  # closed again
        expect(page.locator('input[name="date_from"]')).to_have_count(0, timeout=15_000)
        expect(page.locator(ROWS)).to_have_count(2)
        page.close()
    assert (ARTIFACTS / f"archive-dates-nl-{scheme}-390.png").stat().st_size > 10_000
