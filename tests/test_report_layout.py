"""The take-home report's layout (issue 30): one team order everywhere, the trump suit in every
decision box, tables that fit a phone and an A4 page, and chart text readable on a phone.

The archive is test_report.py's (two random matches and a sloppy one, costed by the solver).
Expected figures come from the archive's rows, never from the report's code. The browser tests
open the report in Debian's Chromium at 390x844 (a phone) and with the print stylesheet on an A4
page's width, and measure the elements; the screenshots and the PDF land in tests/artifacts/.
"""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path
from typing import Any

import pytest

from manillen_replay.cards import Suit
from manillen_replay.report import make_report
from manillen_replay.store import Store

from .test_browser import ARTIFACTS
from .test_report import MATCH, archive, costliest

__all__ = ["archive"]  # the fixture, shared with test_report.py

PHONE = {"width": 390, "height": 844}
A4_WIDTH = 702
"""An A4 page's width inside the report's print margins (210 mm less 2 x 12 mm, at 96 pixels to
the inch: 703 pixels), rounded down: the width the print stylesheet lays the report out in."""


def _report(path: Path, player: str | None, lang: str = "en") -> str:
    with Store(path, read_only=True) as store:
        return make_report(store, MATCH, player=player, lang=lang)


def _row(html: str, start: str) -> str:
    begin = html.index(start)
    return html[begin : html.index("</tr>", begin)]


def _cells(row: str) -> list[str]:
    """The text of each cell of a table row (tags dropped)."""
    return [unescape(re.sub(r"<[^>]+>", "", cell)) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]


def _team_of(path: Path, player: str) -> int:
    with Store(path, read_only=True) as store:
        return int(
            store.query(
                "SELECT seat % 2 FROM seats WHERE match_id = ? AND player = ?", [MATCH, player]
            ).item()
        )


# --------------------------------------------------------------------------- one team order


@pytest.mark.parametrize("player", [None, "Bert", "Anna"])
def test_every_row_shows_the_two_teams_in_one_order(archive: Path, player: str | None) -> None:
    """The player's team first (the first seat's team in a report for everyone) in the header, the
    final score, the score chart's legend and every deal row: card points, match score and the
    cards; the tables list that team's players first."""
    first = 0 if player is None else _team_of(archive, player)
    second = 1 - first
    html = _report(archive, player)
    with Store(archive, read_only=True) as store:
        seats = store.query("SELECT seat0, seat1, seat2, seat3 FROM matches WHERE match_id = ?", [MATCH]).row(
            0
        )
        deals = store.query("SELECT * FROM deals WHERE match_id = ? ORDER BY deal", [MATCH])
        ledger = {(r["deal"], r["team"]): r for r in store.deal_ledger(MATCH).iter_rows(named=True)}
        score = store.query(
            "SELECT match_score_0, match_score_1 FROM deals WHERE match_id = ? ORDER BY deal DESC LIMIT 1",
            [MATCH],
        ).row(0)
    teams = [f"{seats[team]} &amp; {seats[team + 2]}" for team in (0, 1)]
    header = html[html.index("<header>") : html.index("</header>")]
    assert header.index(teams[first]) < header.index(teams[second])
    assert f"{score[first]}-{score[second]}" in header
    chart = html[html.index('<section id="score">') :]
    legend = re.findall(r'<g class="chart-legend">.*?<text[^>]*>(.*?)</text>', chart[: chart.index("</svg>")])
    assert legend == [teams[first], teams[second]]
    for deal in deals.iter_rows(named=True):
        cells = _cells(_row(html, f'<tr data-deal="{deal["deal"]}">'))
        points = [deal["points_0"], deal["points_1"]]
        match_score = [deal["match_score_0"], deal["match_score_1"]]
        cards = [ledger[(deal["deal"], team)]["cards"] for team in (0, 1)]
        assert cells[3] == f"{points[first]}-{points[second]}", cells
        assert cells[5] == f"{match_score[first]}-{match_score[second]}", cells
        assert cells[6] == f"{cards[first]}-{cards[second]}", cells
    if player is None:
        for table in ("accuracy", "ledger"):
            body = html[html.index(f'id="{table}"') :]
            body = body[: body.index("</table>")]
            shown = [_cells(row)[0] for row in re.findall(r"<tr[^>]*>(<td.*?)</tr>", body)]
            assert shown == [seats[0], seats[2], seats[1], seats[3]], table


# --------------------------------------------------------------------------- the trump suit


@pytest.mark.parametrize(("lang", "player"), [("en", None), ("nl", "Bert")])
def test_every_decision_box_names_the_trump_suit(archive: Path, lang: str, player: str | None) -> None:
    """Each costly decision says its deal's contract, the trump suit by its Flemish name (troef
    koeken) with its sign, in both languages: the table drawn beside it sorts the trumps first."""
    html = _report(archive, player, lang)
    with Store(archive, read_only=True) as store:
        trumps = dict(
            store.query("SELECT deal, trump FROM deals WHERE match_id = ?", [MATCH]).iter_rows()  # type: ignore[arg-type]
        )
    articles = re.findall(r'<article class="decision" data-deal="(\d+)".*?</article>', html, flags=re.S)
    boxes = re.findall(r'<article class="decision".*?</article>', html, flags=re.S)
    assert len(boxes) == len(articles) == len(costliest(archive, player)) > 0
    for deal, box in zip(articles, boxes, strict=True):
        suit = Suit.parse(trumps[int(deal)])
        contract = re.search(r'<p class="contract" data-trump="(\w)">(.*?)</p>', box, flags=re.S)
        assert contract is not None, box[:300]
        assert contract.group(1) == suit.name
        said = "Contract" if lang == "en" else "Aankondiging"  # the Deal replay's word in Dutch
        # the name and the suit's sign kept on one line
        assert f'{said}: <span class="nowrap">troef {suit.dutch} <svg' in contract.group(2)
        # the suit's sign, drawn, named in the page's language
        assert f'aria-label="{suit.english if lang == "en" else suit.dutch}"' in contract.group(2)


# --------------------------------------------------------------------------- in a browser

MEASURE = """() => {
  const main = document.querySelector('main');
  const style = getComputedStyle(main);
  const room = main.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const left = main.getBoundingClientRect().left + parseFloat(style.paddingLeft);
  const tables = [...document.querySelectorAll('table')].map((table) => {
    const box = table.getBoundingClientRect();
    return {name: table.id, width: box.width, right: box.right - left, scroll: table.scrollWidth};
  });
  const boxes = [...document.querySelectorAll('article.decision, article.decision .table')].map((box) => {
    const edges = box.getBoundingClientRect();
    return {name: box.className, width: edges.width, right: edges.right - left, scroll: box.scrollWidth,
            inside: box.clientWidth};
  });
  return {room, page: document.documentElement.scrollWidth, tables, boxes};
}"""
"""Every table's and every review box's (and its drawn table's) width and right edge against the
room inside the page's margins."""

CHART_TEXT = """() => [...document.querySelectorAll('svg.chart')]
  .filter((svg) => svg.getBoundingClientRect().width > 0)
  .map((svg) => {
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    const texts = [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim());
    const boxes = texts.map((t) => t.getBoundingClientRect());
    let overlaps = 0;
    boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b) => {
      const apart = a.right - 1 <= b.left || b.right - 1 <= a.left
        || a.bottom - 1 <= b.top || b.bottom - 1 <= a.top;
      if (!apart) overlaps++;
    }));
    return {title: svg.getAttribute('aria-label'), scale, overlaps,
            smallest: Math.min(...texts.map((t) => parseFloat(getComputedStyle(t).fontSize) * scale))};
  })"""
"""Each chart on view: its scale on the page, the size its smallest text is shown at (the font
size times the scale), and how many pairs of its texts overlap."""


def _open(browser: Any, html_file: Path, viewport: dict[str, int]) -> Any:
    page = browser.new_page(viewport=viewport)
    page.goto(html_file.as_uri())
    page.locator("footer").wait_for(timeout=15_000)
    return page


def _fits(measured: dict[str, Any], where: str) -> None:
    room = measured["room"]
    assert len(measured["tables"]) == 3, measured  # accuracy, the ledger and the deal list
    for table in measured["tables"]:
        assert table["width"] <= room + 0.5 and table["right"] <= room + 0.5, (where, table, room)
        assert table["scroll"] <= table["width"] + 0.5, (where, table)
    # the review's boxes: none wider than the page, nothing in them wider than the box
    assert measured["boxes"], measured
    for box in measured["boxes"]:
        assert box["width"] <= room + 0.5 and box["right"] <= room + 0.5, (where, box, room)
        assert box["scroll"] <= box["inside"] + 0.5, (where, box)


@pytest.mark.browser
@pytest.mark.parametrize(("lang", "player"), [("nl", "Bert"), ("en", None)])
def test_report_tables_fit_a_phone_and_an_a4_page(
    archive: Path, lang: str, player: str | None, chromium: Any
) -> None:
    """At 390x844 no table is wider than the page (the ledger and the deal list stack their rows,
    each cell under its column's label); printed on A4 no table is wider than the page inside its
    margins. The Dutch ledger's long headers are the widest case. A PDF is printed as well."""
    ARTIFACTS.mkdir(exist_ok=True)
    html_file = archive.parent / f"layout-{lang}.html"
    html_file.write_text(_report(archive, player, lang), encoding="utf-8")
    page = _open(chromium, html_file, PHONE)
    measured = page.evaluate(MEASURE)
    _fits(measured, f"phone {lang}")
    assert measured["page"] <= PHONE["width"]
    page.locator("#deal-list").screenshot(path=str(ARTIFACTS / f"report-deals-phone-{lang}.png"))
    page.close()
    page = _open(chromium, html_file, {"width": A4_WIDTH, "height": 1000})
    page.emulate_media(media="print")
    measured = page.evaluate(MEASURE)
    assert measured["room"] >= A4_WIDTH - 1  # the print stylesheet: no margin inside the page's
    _fits(measured, f"A4 {lang}")
    assert measured["page"] <= A4_WIDTH
    pdf = ARTIFACTS / f"report-a4-{lang}.pdf"
    page.pdf(path=str(pdf), format="A4")
    assert pdf.read_bytes().startswith(b"%PDF")
    page.close()


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["en", "nl"])
def test_report_chart_text_reads_at_11_pixels_on_a_phone(archive: Path, lang: str, chromium: Any) -> None:
    """On a 390-pixel phone every chart's text is shown at 11 CSS pixels or more (its font size
    times the chart's scale) and no two texts of a chart overlap: the narrow drawings show, the
    waterfall as a row per step. Printed, the wide drawings show instead."""
    ARTIFACTS.mkdir(exist_ok=True)
    html_file = archive.parent / f"charts-{lang}.html"
    html_file.write_text(_report(archive, None, lang), encoding="utf-8")
    page = _open(chromium, html_file, PHONE)
    charts = page.evaluate(CHART_TEXT)
    assert len(charts) == 5, charts  # the score and a waterfall for each of the four players
    for chart in charts:
        assert chart["smallest"] >= 11, chart
        assert chart["overlaps"] == 0, chart
    page.locator("#players").screenshot(path=str(ARTIFACTS / f"report-charts-phone-{lang}.png"))
    page.emulate_media(media="print")
    page.set_viewport_size({"width": A4_WIDTH, "height": 1000})
    printed = page.evaluate(CHART_TEXT)
    assert len(printed) == 5 and all(chart["smallest"] >= 10 for chart in printed), printed
    assert page.locator(".chart-narrow svg").first.bounding_box() is None
    page.close()
