"""The SVG drawer the report and the dashboard share (manillen_replay/report/svg.py).

Each picture is parsed as XML and read back: the bars and points must stand where the data puts
them, every label must come through escaped, and labels under a chart must not overlap.
"""

from __future__ import annotations

import itertools
import re
from xml.etree import ElementTree

import polars as pl
import pytest

from dashboards import charts
from manillen_replay.report import svg

NS = {"s": "http://www.w3.org/2000/svg"}


def parse(picture: str) -> ElementTree.Element:
    """The picture as an XML tree (raises on markup that is not well formed)."""
    return ElementTree.fromstring(picture.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1))


def bars_of(root: ElementTree.Element) -> list[tuple[float, float, float, float, str]]:
    """Each bar's x, top, width, height and tooltip, in drawing order."""
    found = []
    for group in root.iter("{http://www.w3.org/2000/svg}g"):
        if group.get("class") != "bar":
            continue
        rect = group.find("s:rect", NS)
        tip = group.find("s:title", NS)
        assert rect is not None and tip is not None
        found.append(
            (
                float(rect.get("x", 0)),
                float(rect.get("y", 0)),
                float(rect.get("width", 0)),
                float(rect.get("height", 0)),
                tip.text or "",
            )
        )
    return found


def points_of(root: ElementTree.Element) -> list[tuple[float, float, str]]:
    """Each point's centre and tooltip."""
    found = []
    for group in root.iter("{http://www.w3.org/2000/svg}g"):
        if group.get("class") != "point":
            continue
        hit = group.findall("s:circle", NS)[-1]
        tip = group.find("s:title", NS)
        assert tip is not None
        found.append((float(hit.get("cx", 0)), float(hit.get("cy", 0)), tip.text or ""))
    return found


def texts_of(root: ElementTree.Element) -> list[str]:
    return ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]


def test_grouped_bars_stand_as_high_as_their_values() -> None:
    picture = svg.bar_chart(
        ["Anna", "Bert", "Carla"],
        [svg.Bars("won", "#111111", [10, 20, 5]), svg.Bars("lost", "#222222", [4, 0, 8])],
        title="Deals",
        y_title="deals",
    )
    bars = bars_of(parse(picture))
    assert len(bars) == 6
    heights = {tip: height for _, _, _, height, tip in bars}
    assert heights["won · Bert: 20"] == pytest.approx(2 * heights["won · Anna: 10"], rel=0.02)
    assert heights["lost · Carla: 8"] == pytest.approx(2 * heights["lost · Anna: 4"], rel=0.02)
    assert heights["lost · Bert: 0"] == 0
    # all bars stand on one baseline, and each category's bars sit side by side in its slot
    bottoms = {round(y + h, 1) for _, y, _, h, _ in bars if h}
    assert len(bottoms) == 1
    xs = [x for x, *_ in bars]
    assert xs[0] < xs[3] < xs[1] < xs[4] < xs[2] < xs[5]


def test_stacked_bars_stack_gains_up_and_losses_down_from_zero() -> None:
    picture = svg.bar_chart(
        ["m1", "m2"],
        [svg.Bars("own", "#c8102e", [-3, -1]), svg.Bars("opponents", "#2e8b57", [5, 2])],
        title="Ledger",
        stacked=True,
        lines=[svg.Series("net", "#555555", [2, 1])],
    )
    root = parse(picture)
    bars = {tip: (y, h) for _, y, _, h, tip in bars_of(root)}
    loss_top, loss_height = bars["own · m1: −3"]
    gain_top, gain_height = bars["opponents · m1: 5"]
    zero = loss_top  # a loss hangs from zero, a gain stands on it
    assert gain_top + gain_height == pytest.approx(zero, abs=0.11)
    assert gain_height == pytest.approx(5 / 3 * loss_height, rel=0.02)
    # the line of the sums goes through one point per category, 2 over 1
    points = points_of(root)
    assert [tip for *_, tip in points] == ["net · m1: 2", "net · m2: 1"]
    assert points[0][1] < points[1][1] < zero
    assert len(root.findall(".//s:polyline", NS)) == 1


def test_a_line_chart_draws_each_series_with_its_gaps() -> None:
    picture = svg.line_chart(
        [
            svg.Series("A & B", "#1f77b4", [0, 10, 20, None, 40]),
            svg.Series("C", "#d62728", [0, 5, 30, 35, 50]),
            svg.Series("muil", "#7b3fa0", [None, 10, None, None, None], marker="diamond", line=False),
        ],
        ["0", "1", "2", "3", "4"],
        title="Score",
        x_title="deal",
        y_title="points",
    )
    root = parse(picture)
    lines = root.findall(".//s:polyline", NS)
    assert [len(line.get("points", "").split()) for line in lines] == [3, 5]  # A & B broken at the gap
    points = points_of(root)
    assert len(points) == 4 + 5 + 1
    by_tip = {tip: (x, y) for x, y, tip in points}
    assert by_tip["C · 4: 50"][1] < by_tip["C · 2: 30"][1] < by_tip["C · 1: 5"][1]
    assert by_tip["muil · 1: 10"] == by_tip["A & B · 1: 10"]
    assert "A & B" in texts_of(root) and "muil" in texts_of(root)  # the legend
    assert root.find(".//s:path", NS) is not None  # the diamond


@pytest.mark.parametrize(("scores", "top"), [([0, 1, 1], 1), ([0, 6, 15], 15)])
def test_a_match_score_chart_steps_by_whole_points(scores: list[int], top: int) -> None:
    """A score of 0-1 was drawn over 0.2, 0.4, ... and one of 0-15 over 2.5, 7.5, ...: a match
    score is whole points, in the dashboard's picture, its interactive chart and the report."""
    deals = pl.DataFrame(
        {"deal": [0, 1, 2], "score_0": scores, "score_1": [0, 0, 0], "muil": [False] * 3,
         "klop": [False] * 3, "tie": [False] * 3}
    )  # fmt: skip
    names = {"series_names": ["A & C", "B & D"], "title": "Score", "x_title": "deal", "y_title": "points"}
    marks = {"muil": "muil", "klop": "klop", "tie": "30-30"}
    shown = texts_of(parse(charts.match_score_svg(deals, marker_names=marks, **names)))
    numbers = [float(t) for t in shown if re.fullmatch(r"-?\d+(\.\d+)?", t)]
    assert not [t for t in shown if re.fullmatch(r"-?\d+\.\d+", t)] and max(numbers) >= top
    figure = charts.match_score_figure(deals, marker_names=marks, **names)
    assert float(figure.layout.yaxis.dtick).is_integer()
    # the report's picture: the same axis
    report = svg.line_chart(
        [svg.Series("A & C", "#1f77b4", [float(v) for v in scores])],
        ["0", "1", "2"],
        title="t",
        x_title="x",
        whole=True,
    )
    assert not [t for t in texts_of(parse(report)) if re.fullmatch(r"-?\d+\.\d+", t)]


def test_labels_are_escaped_and_come_back_as_written() -> None:
    title, category, name = "Findings <per> 100 & more", 'Bert "<script>"', "a&b"
    picture = svg.bar_chart(
        [category], [svg.Bars(name, "#111111", [1.5], ["<1.5>"])], title=title, y_title="<y>"
    )
    assert "<script>" not in picture
    root = parse(picture)
    assert root.get("aria-label") == title
    texts = texts_of(root)
    assert {title, category, name, "<1.5>", "<y>"} <= set(texts)
    assert bars_of(root)[0][4] == f"{name} · {category}: 1.5"


def test_waterfall_runs_from_the_cards_to_the_points_on_a_shared_scale() -> None:
    names = {key: key for key in svg.LEDGER_STEPS}
    small = {"cards": 20, "given_away": 5, "partner_given_away": 0, "won_back": 3, "illegal": 0, "points": 18}
    large = {
        "cards": 70,
        "given_away": 0,
        "partner_given_away": 10,
        "won_back": 0,
        "illegal": 4,
        "points": 64,
    }
    steps = svg.ledger_steps(small, names)
    assert [s.label for s in steps] == ["cards", "own", "partner", "opponents", "points"]  # no illegal cards
    assert svg.waterfall_spans(steps) == [(0, 20), (20, 15), (15, 15), (15, 18), (0, 18)]
    assert [s.label for s in svg.ledger_steps(large, names)][4] == "illegal"
    shared = (0.0, 74.0)
    one = parse(svg.waterfall(steps, title="Anna", value_range=shared))
    other = parse(svg.waterfall(svg.ledger_steps(large, names), title="Bert", value_range=shared))
    ticks = [t for t in texts_of(one) if re.fullmatch(r"−?\d+", t)]
    assert ticks[:5] == [t for t in texts_of(other) if re.fullmatch(r"−?\d+", t)][:5]
    bars = bars_of(one)
    assert [tip for *_, tip in bars][1] == "own: −5 (20 → 15)"
    cards_height, own_height = bars[0][3], bars[1][3]
    assert cards_height == pytest.approx(4 * own_height, rel=0.02)


@pytest.mark.parametrize("deal_count", [40, 41, 42])
def test_long_labels_are_slanted_and_upright_labels_never_overlap(deal_count: int) -> None:
    matches = [f"club-2026-0{m}-1{d}-1 (2026-0{m}-1{d})" for m in range(1, 4) for d in range(6)]
    picture = svg.bar_chart(matches, [svg.Bars("own", "#c8102e", [1.0] * len(matches))], title="Ledger")
    root = parse(picture)
    slanted = [
        t for t in root.iter("{http://www.w3.org/2000/svg}text") if "rotate(-45)" in t.get("transform", "")
    ]
    assert slanted and all(len("".join(t.itertext())) <= 22 for t in slanted)
    # forty-odd deals on a phone's width: the deal numbers thin out instead of running together
    deals = [str(n) for n in range(1, deal_count + 1)]
    narrow = parse(
        svg.line_chart(
            [svg.Series("A", "#111", list(range(deal_count)))], deals, title="S", x_title="deal", width=380
        )
    )
    upright = [
        (float(t.get("x", 0)), "".join(t.itertext()))
        for t in narrow.iter("{http://www.w3.org/2000/svg}text")
        if t.get("text-anchor") == "middle" and "".join(t.itertext()) in deals
    ]
    assert 5 < len(upright) < deal_count and upright[-1][1] == str(deal_count)
    for (x0, a), (x1, b) in itertools.pairwise(upright):
        assert x1 - x0 >= (len(a) + len(b)) / 2 * svg.FONT * 0.5


def test_charts_follow_the_page_text_colour() -> None:
    """Text and axes in currentColor: a chart reads on a dark theme as on paper."""
    picture = svg.line_chart([svg.Series("A", "#111111", [1, 2])], ["1", "2"], title="S", x_title="x")
    root = parse(picture)
    assert root.get("fill") == "currentColor"
    assert all(t.get("fill") in (None, "currentColor") for t in root.iter("{http://www.w3.org/2000/svg}text"))


def test_a_finding_kind_keeps_its_colour_whichever_kinds_a_filter_leaves() -> None:
    rates = pl.DataFrame(
        {"player": ["Anna", "Anna", "Bert"], "kind": ["revoke", "wasted trump", "wasted trump"],
         "per_100": [1.0, 2.0, 3.0]}
    )  # fmt: skip
    every_kind = ["revoke", "wasted trump"]
    both = charts.findings_rate_svg(rates, title="t", y_title="y", every_kind=every_kind)
    alone = charts.findings_rate_svg(
        rates.filter(pl.col("kind") == "wasted trump"), title="t", y_title="y", every_kind=every_kind
    )
    colour = charts.KIND_COLOURS[1]
    assert colour in both and colour in alone
    assert charts.KIND_COLOURS[0] not in alone  # without the kind order it would take the first colour


LONG_TITLE = (
    "Points taken by each team in every deal of the evening at Cafe De Zwaan, "
    "before and after the break, counted from the cards and not from the scoresheet"
)


@pytest.mark.parametrize("kind", ["line", "bar", "waterfall"])
def test_a_long_title_wraps_inside_the_picture_at_the_narrowest_width(kind: str) -> None:
    """A title too long for the picture is cut into lines at its spaces: every line stays within
    the width (at the narrowest width the report and the dashboard draw), none runs into the
    legend, the note or the plot, and the lines read back as the whole title."""
    from .test_mutants_report import assert_reads_clearly, text_boxes

    width = min(charts.NARROW, 340)
    if kind == "line":
        picture = svg.line_chart(
            [
                svg.Series("Anna & Carla", "#111111", [1, 3, 2]),
                svg.Series("Bert & Dirk", "#222222", [2, 1, 4]),
            ],
            ["1", "2", "3"],
            title=LONG_TITLE,
            x_title="deal",
            y_title="points",
            width=width,
        )
    elif kind == "bar":
        picture = svg.bar_chart(
            ["Anna", "Bert"],
            [svg.Bars("taken", "#111111", [3.0, 5.0], ["3", "5"])],
            title=LONG_TITLE,
            note="the numbers over the bars are card points",
            width=width,
        )
    else:
        picture = svg.waterfall(
            [svg.Step("start", 40.0, total=True), svg.Step("lost", -5.0)], title=LONG_TITLE, width=width
        )
    root = assert_reads_clearly(picture, inside=("3", "5", "+40", "40", "−5"))
    assert root.get("aria-label") == LONG_TITLE
    lines = [
        box for box in text_boxes(root) if box.y0 < 18 * 6 and box.text in LONG_TITLE and " " in box.text
    ]
    assert len(lines) > 1, "too long for one line at this width"
    assert " ".join(box.text for box in lines) == LONG_TITLE
    for box in lines:
        assert box.x0 >= 4 - 0.01 and box.x1 <= width - 4 + 0.01, box


def test_a_title_word_too_long_for_a_line_is_written_smaller_inside_the_picture() -> None:
    """A word that no line can hold (a URL, a Dutch compound) is not cut: the title is written
    smaller, so that the word still fits the picture's width."""
    from .test_mutants_report import assert_reads_clearly, text_boxes

    word = "Puntenverloop-per-spel-van-de-clubavond-in-Cafe-De-Zwaan-te-Roeselare"
    picture = svg.bar_chart(
        ["Anna", "Bert"], [svg.Bars("taken", "#111111", [3.0, 5.0])], title=word, width=340
    )
    root = assert_reads_clearly(picture)
    (title,) = [box for box in text_boxes(root) if box.text == word]
    assert title.x1 <= 340 - 4 + 0.01 and title.x1 > 340 - 4 - 2, "written as large as fits"


def test_the_ledgers_totals_are_grey_whoever_the_player_is() -> None:
    """The Match page coloured each player's totals by the row's place in a list ordered by name:
    Carla got the opponents' red and Frans his partner's opposite, a red that read as a loss."""
    steps = {"given_away": 5, "partner_given_away": 2, "won_back": 3, "illegal": 0}
    rows = [
        {"player": name, "cards": 40 + i, **steps, "points": 36 + i}
        for i, name in enumerate(["Carla", "Frans", "Hendrik", "Jozef"])
    ]
    names = {key: key for key in svg.LEDGER_STEPS}
    pictures = charts.ledger_svgs(
        pl.DataFrame(rows), titles=[r["player"] for r in rows], step_names=names, y_title=""
    )
    for picture in pictures:
        fills = {rect.get("fill") for rect in parse(picture).iter("{http://www.w3.org/2000/svg}rect")}
        assert svg.TOTAL in fills and not fills & set(charts.TEAM_COLOURS)
    figure = charts.ledger_figure(pl.DataFrame(rows), title="", step_names=names, y_title="")
    assert {trace.totals.marker.color for trace in figure.data} == {svg.TOTAL}


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_the_ledger_waterfalls_step_names_never_run_into_each_other(lang: str) -> None:
    """The Match page draws a waterfall per player 440 wide: in Dutch "beslissingen" under one
    bar and "onreglementaire" under the next ran together ("beslissingenonreglementaire"). A word
    wider than its bar's room writes every step name smaller; English keeps its size."""
    from dashboards.i18n import LEDGER_STEPS
    from manillen_replay.report.words import WORDS

    from .test_mutants_report import assert_reads_clearly

    names = {step: WORDS[f"step.{step}"][lang == "nl"] for step in LEDGER_STEPS}
    row = {
        "cards": 431,
        "given_away": 59,
        "partner_given_away": 64,
        "won_back": 138,
        "illegal": 4,
        "points": 450,
    }
    steps = svg.ledger_steps(row, names)
    picture = svg.waterfall(steps, title="Bert", width=440, height=270)
    assert_reads_clearly(picture, inside=("431", "−59", "−64", "+138", "+4", "450"))
    sizes = set(re.findall(r'font-size="([\d.]+)" text-anchor="middle">', picture))
    assert sizes == ({"10.5"} if lang == "en" else {"7.3"})


def _redmean(one: str, other: str) -> float:
    """How far apart two colours look (the "redmean" weighting of their RGB distance)."""
    (r1, g1, b1), (r2, g2, b2) = (tuple(int(c[i : i + 2], 16) for i in (1, 3, 5)) for c in (one, other))
    red = (r1 + r2) / 2
    return float(
        ((2 + red / 256) * (r1 - r2) ** 2 + 4 * (g1 - g2) ** 2 + (2 + (255 - red) / 256) * (b1 - b2) ** 2)
        ** 0.5
    )


def test_every_built_in_kind_has_a_colour_told_apart_from_the_others() -> None:
    """Two magentas side by side ("failed to overtake", "missed vetten") could not be told apart
    on a player's bar."""
    from manillen_replay.analysis.words import KIND_NL

    colours = charts.KIND_COLOURS
    assert len(KIND_NL) <= len(colours) and len(set(colours)) == len(colours)
    closest = min(_redmean(a, b) for i, a in enumerate(colours) for b in colours[i + 1 :])
    assert closest >= 95, closest  # Plotly's Dark24: 68
