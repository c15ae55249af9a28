"""A newcomer's first hour in a real browser (issue 14): every table column readable at a laptop's
1400 px and sensible at a phone's 390 px, in English and Dutch; the file uploader in the page's
language; the Archive page at its own address.

The archive holds real demo matches (their venues, kinds and explanations are as long as a club's)
analysed by ``manillen analyze``, and the solver's values of one deal. Screenshots land in
tests/artifacts/ for a person to look at.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from manillen_replay.analysis.costs import view_costs
from manillen_replay.cli import cli
from manillen_replay.engine import decode_and_replay
from manillen_replay.record import Entry
from manillen_replay.store import Store
from manillen_replay.store.analyse import cost_frames

from .test_browser import (
    ARTIFACTS,
    LIGHT_TABLE,
    NEXT_FRAME,
    SETTLED_WITH_FONTS,
    browser_api,
    dashboard_served,
)

pytestmark = pytest.mark.browser

DEMO = Path(__file__).resolve().parent.parent / "data" / "demo.jsonl"
DEMO_MATCHES = 8
"""The first matches of the demo archive: enough for findings of many kinds in both languages."""

TABLES = """() => {
  // every light table of the page (each sits in a component's shadow root)
  const found = [];
  const walk = (root) => {
    root.querySelectorAll('*').forEach((element) => element.shadowRoot && walk(element.shadowRoot));
    root.querySelectorAll('.mr-light-table').forEach((box) => found.push(box));
  };
  walk(document);
  return found.map((box) => {
    const scroller = box.querySelector('.scroller');
    const clipped = [...box.querySelectorAll('th button, td')]
      .filter((cell) => cell.scrollWidth > cell.clientWidth + 1)
      .map((cell) => cell.textContent);
    const edge = scroller.getBoundingClientRect();
    scroller.scrollLeft = scroller.scrollWidth;  // a phone's reader scrolled to the row's end
    const lines = [...box.querySelectorAll('tr.detail div')].slice(0, 5).map((line) => {
      const shown = line.getBoundingClientRect();
      return shown.left >= edge.left - 1 && shown.right <= edge.right + 1;
    });
    scroller.scrollLeft = 0;
    return {
      name: box.dataset.table, box: scroller.clientWidth, table: scroller.scrollWidth, clipped,
      lines_in_view: lines,
      headers: [...box.querySelectorAll('th')]
        .filter((th) => getComputedStyle(th).display !== 'none').map((th) => th.textContent.trim()),
    };
  });
}"""
"""Each light table: the width of its box and of its table, the cells whose text is cut off, and
whether each explanation line stays inside the box with the row scrolled to its end, and the
headers shown."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """``manillen dashboard`` over the demo's first matches, analysed, with the solver's values of
    deal 1 of the first; the server's address and that match's id."""
    archive = tmp_path_factory.mktemp("layout") / "club.duckdb"
    lines = DEMO.read_text(encoding="utf-8").splitlines()[:DEMO_MATCHES]
    with Store(archive) as store:
        store.import_entries([Entry("demo.jsonl", n, line.encode()) for n, line in enumerate(lines, 1)])
    analysed = CliRunner().invoke(cli, ["analyze", "--db", str(archive), "--quiet"])
    assert analysed.exit_code == 0, analysed.output
    result = decode_and_replay(lines[0])
    costs = view_costs(result.deals[0], result.rules, samples=4)
    with Store(archive) as store:
        store.save_costs([result.id], *cost_frames(result, {1: costs}))
    # a play with a choice of cards, so that the replay shows its table of values
    chosen = next(cost for cost in costs if not cost.forced and cost.view_cost is not None)
    step = (chosen.trick - 1) * 4 + chosen.play
    with dashboard_served(archive) as address:
        yield address, f"replay?match={result.id}&deal=1&step={step}"


PHONE_COLUMNS = ("mistakes_table", "match_deals", "match_accuracy", "archive_table")
"""The tables that show their main columns only on a phone (``light_table.show``'s ``phone``)."""


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_every_table_column_is_readable_at_laptop_and_phone_width(
    server: tuple[str, str], lang: str, chromium: Any
) -> None:
    """At 1400 px every table fits its column, no cell cut off: the Mistakes page's explanations
    are a line under each row (as a column they made the table 1230 px wide in a 938 px page),
    the Archive's venue and teams may take two lines, the Deal replay's values carry their marks
    beside the figures (six columns ran off its 344 px column in Dutch). At 390 px a wide table
    scrolls sideways, and each explanation line stays in view while it does."""
    address, replay = server
    suffix = "?lang=nl" if lang == "nl" else ""
    pages = {"archive": f"/{suffix}", "mistakes": f"/mistakes{suffix}", "replay": f"/{replay}"}
    match = replay.split("match=")[1].split("&")[0]
    pages["match"] = f"/match?match={match}"
    if lang == "nl":
        pages["replay"] += "&lang=nl"
        pages["match"] += "&lang=nl"
    ARTIFACTS.mkdir(exist_ok=True)
    for width in (1400, 390):
        for name, path in pages.items():
            page = chromium.new_page(viewport={"width": width, "height": 1000})
            page.goto(address + path)
            page.locator(f"{LIGHT_TABLE} tr[data-row], {LIGHT_TABLE} td").first.wait_for(timeout=30_000)
            # the page's run over and its fonts in before measuring, rather than a fixed pause
            page.wait_for_function(SETTLED_WITH_FONTS, timeout=30_000)
            tables = page.evaluate(TABLES)
            assert tables, name
            for table in tables:
                assert not table["clipped"], (name, width, table)
                # on a phone the tables that matter most show their main columns and fit: the
                # Mistakes page showed date, match and place, the players and cards off-screen
                if width == 1400 or table["name"] in PHONE_COLUMNS:
                    assert table["table"] <= table["box"], (name, width, table)
                assert all(table["lines_in_view"]), (name, width, table)
                if table["name"] == "match_deals":
                    # a player looks for the deals with findings: their count stays on a phone
                    assert table["headers"][-1] == ("Bevindingen" if lang == "nl" else "Findings")
            if name == "mistakes":
                assert any(table["lines_in_view"] for table in tables)  # explanations shown
            page.locator(LIGHT_TABLE).first.scroll_into_view_if_needed()
            page.evaluate(NEXT_FRAME)  # the scroll drawn, rather than a fixed pause
            page.screenshot(path=str(ARTIFACTS / f"layout-{name}-{lang}-{width}.png"))
            page.close()


@pytest.mark.parametrize(
    ("lang", "choose", "limits", "english"),
    [
        ("nl", "Bestand kiezen", "of sleep het hierheen · tot 32 MB · .json, .jsonl, .mnl", "Upload"),
        ("en", "Choose a file", "or drop it here · up to 32 MB · .json, .jsonl, .mnl", "Upload"),
    ],
)
def test_the_upload_box_speaks_the_page_s_language(
    server: tuple[str, str], lang: str, choose: str, limits: str, english: str, chromium: Any
) -> None:
    """Streamlit writes its uploader's button ("Upload") and limits ("32MB per file • JSON")
    in English only: the Archive page's upload box shows the page's words instead, and its button
    is named by them for a screen reader too."""
    address, _ = server
    expect = browser_api().expect
    for width in (1400, 390):
        page = chromium.new_page(viewport={"width": width, "height": 1000})
        page.goto(f"{address}/" + ("?lang=nl" if lang == "nl" else ""))
        page.locator(f"{LIGHT_TABLE} tr[data-row]").first.wait_for(timeout=30_000)
        page.get_by_text("Partijen importeren" if lang == "nl" else "Import matches").click()
        uploader = page.locator("[data-testid=stFileUploader]")
        uploader.wait_for(timeout=30_000)
        button = uploader.get_by_role("button", name=choose, exact=True)
        expect(button).to_be_visible()
        expect(uploader.get_by_text(english, exact=True)).not_to_be_visible()
        expect(uploader.get_by_text("per file", exact=False)).not_to_be_visible()
        shown = uploader.locator("[data-testid=stFileUploaderDropzoneInstructions] > div").evaluate(
            "line => getComputedStyle(line, '::after').content"
        )
        assert shown == f'"{limits}"'
        box = uploader.bounding_box()
        assert box is not None and box["x"] + box["width"] <= width
        uploader.scroll_into_view_if_needed()
        page.evaluate(NEXT_FRAME)  # the scroll drawn, rather than a fixed pause
        page.screenshot(path=str(ARTIFACTS / f"layout-upload-{lang}-{width}.png"))
        page.close()


def test_the_archive_page_opens_at_its_own_address(server: tuple[str, str], chromium: Any) -> None:
    """``/archive`` opens the Archive page (Streamlit serves its first page at ``/`` only, and
    said "Page not found" there), the language of the address kept."""
    address, _ = server
    expect = browser_api().expect
    page = chromium.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(f"{address}/archive?lang=nl")
    page.locator(f"{LIGHT_TABLE} tr[data-row]").first.wait_for(timeout=30_000)
    expect(page.locator("h1").first).to_have_text("Archief")
    page.wait_for_function(SETTLED_WITH_FONTS, timeout=30_000)  # the run over, not a fixed pause
    expect(page.get_by_text("Page not found", exact=False)).to_have_count(0)
    assert page.url == f"{address}/?lang=nl"


def test_the_page_tells_the_browser_its_language(server: tuple[str, str], chromium: Any) -> None:
    """``<html lang>`` follows the language shown (Streamlit's page says ``en`` whatever it
    shows): from the address, and when the switch turns the page into Dutch without a reload, so
    that a screen reader reads Dutch in Dutch."""
    address, _ = server
    expect = browser_api().expect
    page = chromium.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(f"{address}/")
    page.locator(f"{LIGHT_TABLE} tr[data-row]").first.wait_for(timeout=30_000)
    assert page.evaluate("document.documentElement.lang") == "en"
    page.get_by_role("button", name="Nederlands", exact=True).click()
    expect(page.get_by_role("button", name="English", exact=True)).to_be_visible(timeout=30_000)
    page.wait_for_function("document.documentElement.lang === 'nl'", timeout=10_000)
    page.get_by_role("button", name="English", exact=True).click()
    page.wait_for_function("document.documentElement.lang === 'en'", timeout=30_000)
    page.goto(f"{address}/archive?lang=nl")
    expect(page.locator("h1").first).to_have_text("Archief", timeout=30_000)
    assert page.evaluate("document.documentElement.lang") == "nl"
    page.close()


def test_a_browser_set_to_dutch_opens_the_dashboard_in_dutch(server: tuple[str, str], chromium: Any) -> None:
    """A phone set to Dutch (``nl-BE``) opens the pages in Dutch, where the language switch sits in
    the folded sidebar, and the address names it; English chosen there is named in the address
    too (a link without it opens in the browser's language), so a reload keeps it. A browser set
    to English opens them in English with a bare address."""
    address, _ = server
    expect = browser_api().expect
    page = chromium.new_page(viewport={"width": 390, "height": 844}, locale="nl-BE")
    page.goto(f"{address}/mistakes")
    expect(page.locator("h1").first).to_have_text("Fouten", timeout=30_000)
    page.wait_for_function("document.documentElement.lang === 'nl'", timeout=10_000)
    assert page.url == f"{address}/mistakes?lang=nl"
    # a phone's title is smaller than Streamlit's 2.75rem (a match's id took three lines)
    size = "getComputedStyle(document.querySelector('h1')).fontSize"
    assert float(page.evaluate(size).removesuffix("px")) < 30
    page.set_viewport_size({"width": 1400, "height": 1000})  # the sidebar, with its switch, open
    assert float(page.evaluate(size).removesuffix("px")) > 40
    page.get_by_role("button", name="English", exact=True).click()
    expect(page.locator("h1").first).to_have_text("Mistakes", timeout=30_000)
    page.wait_for_function("location.search === '?lang=en'", timeout=10_000)
    page.reload()
    expect(page.locator("h1").first).to_have_text("Mistakes", timeout=30_000)
    page.close()
    english = chromium.new_page(viewport={"width": 390, "height": 844}, locale="en-GB")
    english.goto(f"{address}/mistakes")
    expect(english.locator("h1").first).to_have_text("Mistakes", timeout=30_000)
    english.wait_for_function(SETTLED_WITH_FONTS, timeout=30_000)
    assert english.url == f"{address}/mistakes"
    english.close()
