"""The charts' pictures (``report/svg.py``): the margins, rooms and slivers the mutation runs' last
open survivors changed, stated as a reader sees them. Each picture is parsed as XML and read back,
its texts' boxes estimated as in tests/test_mutants_report.py; every picture is drawn in the test's
body, so that a mutation run tests the code it switched on."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from xml.etree import ElementTree

import pytest

from manillen_replay.report import svg

from .test_mutants_report import STEPS_LONG, Box, _bar_charts, _line_charts, _waterfalls, plot_of, text_boxes
from .test_svg import bars_of, parse, points_of

SVG = "{http://www.w3.org/2000/svg}"

TITLE_MARGIN = 4.0
"""How far the title starts from the picture's left edge: no text comes nearer a side."""


def _labelled_charts() -> Iterator[tuple[str, int]]:
    """Bar and line charts of 2 to 10 categories whose labels are upright, slanted or thinned (all
    as long, or the first one shorter), with and without a value axis title, at the widths the
    report and the dashboard draw."""
    for width in (340, 380, 420, 480, 640, 720):
        for count in (2, 3, 5, 10):
            for length, first in itertools.chain(((n, n) for n in (6, 12, 22, 30)), ((22, 4), (30, 8))):
                labels = [chr(ord("a") + n) * (first if n == 0 else length) for n in range(count)]
                for y_title in ("", "points"):
                    yield (
                        svg.bar_chart(
                            labels,
                            [svg.Bars("", "#000000", [float(n - 1) for n in range(count)])],
                            title="t",
                            y_title=y_title,
                            width=width,
                        ),
                        width,
                    )
                    yield (
                        svg.line_chart(
                            [svg.Series("", "#000000", [float(n) for n in range(count)])],
                            labels,
                            title="t",
                            x_title="evening",
                            y_title=y_title,
                            width=width,
                        ),
                        width,
                    )


def _every_chart() -> Iterator[str]:
    """The report's and the dashboard's kinds of chart (as the layout tests draw them)."""
    for charts in (_line_charts, _bar_charts, _waterfalls):
        for picture, _ in charts():
            yield picture


def test_no_text_comes_nearer_the_pictures_sides_than_the_title() -> None:
    """The title starts 4 units from the picture's left edge; the value axis's numbers and title,
    the labels under the plot (the first slanted one reaching left of its bar), the legend and the
    numbers over bars keep at least that from either side: none is cut by the edge, nor runs into
    what stands beside the chart on the page."""
    pictures = [*(picture for picture, _ in _labelled_charts()), *_every_chart()]
    for picture in pictures:
        root = parse(picture)
        width = float((root.get("viewBox") or "").split()[2])
        for box in text_boxes(root):
            assert box.x0 >= TITLE_MARGIN - 0.3 and box.x1 <= width - TITLE_MARGIN + 0.3, box


def test_no_text_comes_within_a_few_units_of_the_pictures_top_or_bottom() -> None:
    """Under the plot the frame keeps the room its labels take (slanted ones reach down by their
    length, a waterfall's labels wrap into lines): none runs down to the picture's bottom edge."""
    long_steps = [
        svg.Step("what the cards were worth at the start of the evening", 40.0, total=True),
        svg.Step("given away by my own play in the tricks", -5.5),
        svg.Step("points taken home at the end", 34.5, total=True),
    ]
    waterfalls = [svg.waterfall(long_steps, title="Anna", width=width) for width in (340, 400, 520, 640)]
    pictures = [*(picture for picture, _ in _labelled_charts()), *_every_chart(), *waterfalls]
    for picture in pictures:
        root = parse(picture)
        height = float((root.get("viewBox") or "").split()[3])
        for box in text_boxes(root):
            assert box.y0 >= 3 and box.y1 <= height - 3, box


def _side_texts(root: ElementTree.Element) -> list[Box]:
    """The texts beside and under the plot: every text but the title and the legend's names."""
    plot = plot_of(root)
    return [box for box in text_boxes(root) if box.y1 > plot.y0 - svg.FONT]


def test_the_plot_moves_in_only_as_far_as_the_texts_left_of_it_need() -> None:
    """The plot's left edge is where the widest need puts it: the value axis's numbers (then they
    start at the title's margin) or the first slanted label, which reaches left of its bar (then
    that label starts close to the edge: its reach is estimated, and a line chart's first point
    stands a few units in from the plot's edge). No band wider than two lines of text is left
    blank at the chart's left."""
    for picture, _ in _labelled_charts():
        root = parse(picture)
        leftmost = min(box.x0 for box in _side_texts(root))
        assert leftmost <= TITLE_MARGIN + 2 * svg.FONT, leftmost


def _centres_and_labels(root: ElementTree.Element) -> tuple[list[float], list[str]]:
    """The x of each category's bar or point, and the labels written upright under the plot."""
    bars = bars_of(root)
    centres = [x + wide / 2 for x, _, wide, _, _ in bars] or [x for x, _, _ in points_of(root)]
    plot = plot_of(root)
    upright = [
        element.text or ""
        for element in root.iter(f"{SVG}text")
        if element.get("text-anchor") == "middle"
        and not element.get("transform")
        and float(element.get("y", 0)) > plot.y1
    ]
    return centres, upright


@pytest.mark.parametrize("count", [2, 3, 4, 6, 9, 12, 15])
def test_labels_as_wide_as_the_room_between_their_bars_or_points_are_all_written_upright(count: int) -> None:
    """A label fits when it is no wider than the distance between two neighbouring bars (points):
    then every label is written, upright, however close to that width they come. (A line chart's
    first and last points stand near the picture's edges: the margins make room for their labels'
    halves, so its points draw closer together as its labels grow.)"""
    glyph = svg.FONT * svg._CHAR

    def chart(kind: str, length: int, width: int) -> tuple[list[str], float, list[str]]:
        labels = [chr(ord("a") + n) * length for n in range(count)]
        if kind == "bar":
            picture = svg.bar_chart(labels, [svg.Bars("", "#000000", [1.0] * count)], title="t", width=width)
        else:
            series = [svg.Series("", "#000000", [1.0] * count)]
            picture = svg.line_chart(series, labels, title="t", x_title="", width=width)
        centres, upright = _centres_and_labels(parse(picture))
        return labels, min(b - a for a, b in itertools.pairwise(centres)), upright

    for width in range(340, 660, 2):
        for kind in ("bar", "line"):
            _, room, _ = chart(kind, 1, width)
            length = int(room / glyph)
            # the longest labels that fit the room they leave (within the 0.1 the positions are written to)
            while True:
                labels, room, upright = chart(kind, length, width)
                if length * glyph <= room - 0.05:
                    break
                length -= 1
            assert upright == labels, (kind, width, length, room)


def test_upright_labels_stand_clear_under_the_plot_as_slanted_ones_do() -> None:
    """Labels under the plot start a few units under its bottom line (the zero line of bars that
    stand on it), not touching it: at least the 2 units slanted labels keep."""
    for picture, _ in _labelled_charts():
        root = parse(picture)
        plot = plot_of(root)
        for box in text_boxes(root):
            if box.y0 > plot.y1 - 1 and not box.slanted:
                assert box.y0 >= plot.y1 + 2, box


def test_a_waterfalls_labels_get_the_room_they_take_and_no_more() -> None:
    """Under a waterfall the step labels wrap into one, two or three lines: the frame keeps room
    for just that many, so the last line stands as far above the picture's bottom edge whatever
    the number of lines (no band left blank, no line run into the edge)."""
    gaps = {}
    for words in (1, 3, 6, 9):
        label = " ".join(["given"] * words)
        steps = [svg.Step(label, 10.0, total=True), svg.Step("own", -2.0), svg.Step("end", 8.0, total=True)]
        root = parse(svg.waterfall(steps, title="Anna", width=400))
        height = float((root.get("viewBox") or "").split()[3])
        plot = plot_of(root)
        under = [box for box in text_boxes(root) if box.y0 > plot.y1]
        lines = len({round(box.y0, 1) for box in under})
        gaps[lines] = height - max(box.y1 for box in under)
    assert len(gaps) >= 3, gaps
    assert max(gaps.values()) - min(gaps.values()) <= 0.2, gaps


def _grid_stroke(root: ElementTree.Element) -> float:
    """The thinnest line the chart draws: its grid lines (1 unit when not set)."""
    widths = {float(line.get("stroke-width") or 1) for line in root.iter(f"{SVG}line")}
    return min(widths)


def test_a_bar_of_a_tiny_value_or_a_change_of_nothing_is_a_sliver_no_thicker_than_a_grid_line() -> None:
    """A bar is as long as its value on the axis drawn; only a value too small to show is drawn
    as a sliver, so that it is seen, no thicker than a grid line, so that it does not read as a
    value of its own (on an axis to 100, a bar 1.5 units high reads as almost a point)."""
    bars = parse(svg.bar_chart(["a", "b"], [svg.Bars("", "#000000", [0.001, 100.0])], title="t"))
    (_, _, _, tiny, _), _ = bars_of(bars)
    assert 0 < tiny <= _grid_stroke(bars)
    steps = [svg.Step("cards", 40.0, total=True), svg.Step("own", 0.0), svg.Step("points", 40.0, total=True)]
    fall = parse(svg.waterfall(steps, title="Anna"))
    _, (_, _, _, nothing, _), _ = bars_of(fall)
    assert 0 < nothing <= _grid_stroke(fall)


def test_the_phones_waterfall_keeps_its_axis_clear_of_the_title_and_its_grid_over_every_row() -> None:
    """Under the title (one line or two) come the axis's numbers, a few units clear of it; each
    grid line starts under its number and runs down past every row, the first row's label
    included."""
    for title in ("Anna", "Anna and Carla against Bert and Dirk: where the points came from"):
        root = parse(svg.waterfall_rows(STEPS_LONG, title=title, width=340))
        boxes = text_boxes(root)
        title_boxes = [box for box in boxes if box.text in title and len(box.text) > 1]
        title_bottom = max(box.y1 for box in title_boxes)
        numbers = [  # the axis's, centred on their grid lines (the steps' values follow their bars)
            box
            for box, element in zip(boxes, root.iter(f"{SVG}text"), strict=True)
            if element.get("text-anchor") == "middle"
        ]
        assert numbers
        assert min(box.y0 for box in numbers) >= title_bottom + TITLE_MARGIN, title
        first_label = next(box for box in boxes if box.text == STEPS_LONG[0].label)
        last_label = next(box for box in boxes if box.text == STEPS_LONG[-1].label)
        grid = [line for line in root.iter(f"{SVG}line") if line.get("x1") == line.get("x2")]
        assert grid
        for line in grid:
            top, bottom = float(line.get("y1", 0)), float(line.get("y2", 0))
            assert max(box.y1 for box in numbers) <= top <= first_label.y0, (top, first_label)
            assert bottom >= last_label.y1


def _extent(mark: ElementTree.Element) -> tuple[float, float, float]:
    """A mark's centre and how far it reaches from it, its stroke included."""
    stroke = float(mark.get("stroke-width") or 0) / 2
    if mark.tag == f"{SVG}circle":
        return float(mark.get("cx", 0)), float(mark.get("cy", 0)), float(mark.get("r", 0)) + stroke
    path = (mark.get("d") or "").translate(str.maketrans("MLZ", "   "))
    numbers = [float(n) for n in path.split()]
    xs, ys = numbers[::2], numbers[1::2]
    return (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2, (max(xs) - min(xs)) / 2 + stroke


def test_a_legends_sample_of_a_mark_is_no_bigger_than_the_mark_and_its_rows_stand_apart() -> None:
    """The legend shows each row of marks by a sample of its mark: no bigger than the marks on
    the plot, inside its entry (from the entry's start to its name), and apart from the samples
    of the rows above and below."""
    kinds = ("diamond", "cross", "ring", "dot")
    series = [
        svg.Series(f"{kind} {n}", "#123456", [1.0, 2.0], marker=kind, line=False)
        for n in range(3)
        for kind in kinds
    ]
    root = parse(svg.line_chart(series, ["1", "2"], title="t", x_title="", width=340))
    plotted = {
        (group.findtext(f"{SVG}title") or "").split(" ")[0]: _extent(group[1])[2]
        for group in root.iter(f"{SVG}g")
        if group.get("class") == "point"
    }
    assert set(plotted) == set(kinds)
    reach_of_row: dict[float, tuple[float, float]] = {}
    for group in root.iter(f"{SVG}g"):
        if group.get("class") != "chart-legend":
            continue
        name = group.find(f"{SVG}text")
        assert name is not None
        name_x = float(name.get("x", 0))
        x, y, reach = _extent(group[0])
        assert reach <= plotted[(name.text or "").split(" ")[0]] + 0.05, name.text
        assert name_x - 18 <= x - reach and x + reach < name_x, (
            name.text
        )  # entries start 18 before their names
        top, bottom = reach_of_row.get(float(name.get("y", 0)), (y, y))
        reach_of_row[float(name.get("y", 0))] = (min(top, y - reach), max(bottom, y + reach))
    rows = sorted(reach_of_row)
    assert len(rows) > 1
    for upper, lower in itertools.pairwise(rows):
        assert reach_of_row[upper][1] < reach_of_row[lower][0], (reach_of_row[upper], reach_of_row[lower])


@pytest.mark.parametrize("width", [340, 380, 480, 640])
def test_slanted_labels_after_a_short_first_one_stay_inside_the_picture(width: int) -> None:
    """Evenings named by date and venue after a first one named briefly: the plot moves in for
    the slanted label that reaches furthest left, not only for the first one (the second, a slot
    further right but far longer, ran off the picture's left edge)."""
    evenings = ["1 Jan", *(f"2026-{n:02d}-01 Het Hof, Brugge" for n in range(2, 12))]
    players = ["Els", *(f"Anna & Carla, table {n}" for n in range(2, 10))]
    pictures = (
        svg.line_chart(
            [svg.Series("Anna", "#000000", [float(n) for n in range(len(evenings))])],
            evenings,
            title="Accuracy",
            x_title="evening",
            width=width,
        ),
        svg.bar_chart(players, [svg.Bars("", "#000000", [1.0] * len(players))], title="Points", width=width),
    )
    for picture in pictures:
        root = parse(picture)
        slanted = [box for box in text_boxes(root) if box.slanted]
        assert len(slanted) > 1
        assert min(box.x0 for box in slanted) >= TITLE_MARGIN - 0.3, slanted


def test_slanted_labels_that_push_the_plot_in_start_as_far_from_the_edge_on_every_chart() -> None:
    """When slanted labels move the plot in (they reach further left than the axis numbers), the
    one reaching furthest starts the same distance from the picture's left edge on every chart of
    every kind, whatever its width and number of bars or points: the margin is made for that
    label, neither more nor less."""
    starts: dict[str, list[float]] = {"bar": [], "line": []}
    for width in (300, 340, 380, 480, 640, 720):
        for count in (2, 3, 4, 6, 10, 14):
            for length, first in ((12, 12), (22, 22), (30, 30), (22, 4), (30, 8), (8, 22)):
                labels = [chr(ord("a") + n) * (first if n == 0 else length) for n in range(count)]
                for y_title in ("", "points"):
                    charts = {
                        "bar": svg.bar_chart(
                            labels,
                            [svg.Bars("", "#000000", [1.0] * count)],
                            title="t",
                            y_title=y_title,
                            width=width,
                        ),
                        "line": svg.line_chart(
                            [svg.Series("", "#000000", [1.0] * count)],
                            labels,
                            title="t",
                            x_title="",
                            y_title=y_title,
                            width=width,
                        ),
                    }
                    for kind, picture in charts.items():
                        root = parse(picture)
                        plot = plot_of(root)
                        boxes = text_boxes(root)
                        slanted = [box for box in boxes if box.slanted]
                        beside = [box for box in boxes if not box.slanted and box.y1 > plot.y0 - svg.FONT]
                        if slanted and min(box.x0 for box in beside) > TITLE_MARGIN + 0.5:
                            starts[kind].append(min(box.x0 for box in slanted))
    found = starts["bar"] + starts["line"]
    assert len(starts["bar"]) > 50 and len(starts["line"]) > 50
    assert min(found) >= TITLE_MARGIN and max(found) - min(found) <= 1.5, (min(found), max(found))
