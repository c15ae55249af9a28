"""The charts' pictures (``report/svg.py``): what the mutation runs' open survivors showed no test
stated, as a reader sees it. Each picture is parsed as XML and read back, as in tests/test_svg.py."""

from __future__ import annotations

import itertools
from xml.etree import ElementTree

import pytest

from manillen_replay.report import svg

from .test_mutants_report import Box, plot_of, text_boxes
from .test_svg import bars_of, parse

SVG = "{http://www.w3.org/2000/svg}"


def groups(root: ElementTree.Element, kind: str) -> list[ElementTree.Element]:
    return [group for group in root.iter(f"{SVG}g") if group.get("class") == kind]


def test_a_lines_legend_sample_is_its_line_with_the_dot_its_points_have() -> None:
    """A line's entry in the legend is a short stretch of the line with one of its points on it:
    the same colour, the same stroke and a dot of the same size as the dots on the plot."""
    colours = ("#1f77b4", "#d62728")
    picture = svg.line_chart(
        [
            svg.Series(name, colour, [0.0, 3.0, 5.0])
            for name, colour in zip(("We", "They"), colours, strict=True)
        ],
        ["0", "1", "2"],
        title="Score deal by deal",
        x_title="deal",
    )
    root = parse(picture)
    polylines = {line.get("stroke"): line.get("stroke-width") for line in root.iter(f"{SVG}polyline")}
    dots: dict[str | None, set[str | None]] = {}
    for point in groups(root, "point"):
        mark = point.findall(f"{SVG}circle")[0]
        dots.setdefault(mark.get("fill"), set()).add(mark.get("r"))
    entries = groups(root, "chart-legend")
    assert len(entries) == 2
    for entry, colour in zip(entries, colours, strict=True):
        (line,) = entry.findall(f"{SVG}line")
        (dot,) = entry.findall(f"{SVG}circle")
        assert line.get("stroke") == colour and line.get("stroke-width") == polylines[colour]
        assert dot.get("fill") == colour and {dot.get("r")} == dots[colour]
        x1, x2 = float(line.get("x1", 0)), float(line.get("x2", 0))
        assert float(dot.get("cx", 0)) == (x1 + x2) / 2  # the dot on the middle of the stretch


def legend_rows(root: ElementTree.Element) -> list[list[str]]:
    """The legend's names row by row."""
    by_row: dict[float, list[str]] = {}
    for entry in groups(root, "chart-legend"):
        text = entry.find(f"{SVG}text")
        assert text is not None
        by_row.setdefault(float(text.get("y", 0)), []).append(text.text or "")
    return [by_row[y] for y in sorted(by_row)]


def entry_width(name: str) -> float:
    """An entry's width in the legend: its sample, its name and the gap to the next."""
    return 18 + svg._width_of(name) + 14


@pytest.mark.parametrize("width", range(300, 700, 11))
def test_each_row_of_a_legend_fits_over_the_plot(width: int) -> None:
    """The legend starts at the plot's left edge; a row takes an entry only while the row still
    fits the plot's width, so no name runs past the plot's right edge into the margin."""
    names = ["Anna", "Bert", "Carla", "Dirk", "Els", "Frans", "Gust", "Hilde"]
    for count in range(2, len(names) + 1):
        bars = [svg.Bars(name, "#000000", [1.0, 2.0]) for name in names[:count]]
        root = parse(svg.bar_chart(["a", "b"], bars, title="Points", width=width))
        room = plot_of(root).x1 - plot_of(root).x0
        rows = legend_rows(root)
        assert [name for row in rows for name in row] == names[:count]
        for row in rows:
            assert sum(entry_width(name) for name in row) <= room + 1e-6, (count, row)


def upright_labels(root: ElementTree.Element) -> list[Box]:
    """The labels written upright under the plot (the value axis's numbers are anchored at their end)."""
    plot = plot_of(root)
    return [
        box
        for box, element in zip(text_boxes(root), root.iter(f"{SVG}text"), strict=True)
        if element.get("text-anchor") == "middle" and not element.get("transform") and box.y0 > plot.y1
    ]


def assert_apart(boxes: list[Box]) -> None:
    for one, other in itertools.pairwise(sorted(boxes, key=lambda box: box.x0)):
        assert one.x1 <= other.x0 + 0.5, (one, other)


@pytest.mark.parametrize("width", [300, 340, 420, 640])
def test_labels_written_upright_under_bars_never_run_into_each_other(width: int) -> None:
    """However long the labels and however few the bars, the labels left upright stand apart
    (longer ones are slanted or thinned out instead)."""
    for count in (2, 3, 5):
        for length in range(4, 40, 3):
            labels = [chr(ord("a") + n) * length for n in range(count)]
            bars = [svg.Bars("", "#000000", [1.0] * count)]
            assert_apart(upright_labels(parse(svg.bar_chart(labels, bars, title="t", width=width))))


@pytest.mark.parametrize("width", [300, 340, 420, 640])
def test_labels_written_upright_under_points_never_run_into_each_other_nor_off_the_picture(
    width: int,
) -> None:
    """The same under a line chart's points, whose first and last stand near the picture's edges."""
    for count in (2, 3, 5):
        for length in range(4, 40, 3):
            labels = [chr(ord("a") + n) * length for n in range(count)]
            series = [svg.Series("", "#000000", [1.0] * count)]
            root = parse(svg.line_chart(series, labels, title="t", x_title="", width=width))
            boxes = upright_labels(root)
            assert_apart(boxes)
            assert all(box.x0 >= 0 and box.x1 <= width for box in boxes), (count, length, boxes)


def test_a_lone_points_label_is_written_whole_and_upright_when_it_fits() -> None:
    label = "Anna & Carla against Bert & Dirk, the one evening at Het Hof"
    root = parse(
        svg.line_chart([svg.Series("A", "#000000", [3.0])], [label], title="t", x_title="", width=640)
    )
    (box,) = upright_labels(root)
    assert box.text == label


def test_a_lone_series_bars_are_as_wide_as_two_series_bars_side_by_side() -> None:
    """A category's bars take the same width whether one series or two stands in it."""
    categories = [str(n) for n in range(8)]
    one = bars_of(
        parse(svg.bar_chart(categories, [svg.Bars("x", "#000000", [1.0] * 8)], title="t", width=340))
    )
    two = bars_of(
        parse(
            svg.bar_chart(
                categories,
                [svg.Bars("x", "#000000", [1.0] * 8), svg.Bars("y", "#111111", [2.0] * 8)],
                title="t",
                width=340,
            )
        )
    )
    assert [width for _, _, width, _, _ in one] == pytest.approx([2 * two[0][2]] * 8, abs=0.15)


def test_a_waterfall_of_one_step_stands_in_the_middle_of_its_plot() -> None:
    root = parse(svg.waterfall([svg.Step("points taken", 40.0, total=True)], title="t"))
    plot = plot_of(root)
    ((x, _, width, _, _),) = bars_of(root)
    assert x + width / 2 == pytest.approx((plot.x0 + plot.x1) / 2, abs=0.1)


def test_a_line_charts_end_labels_keep_the_titles_margin_from_the_edges_and_no_more() -> None:
    """Upright labels under the first and the last point, too long for the margins the axis numbers
    leave: the plot moves in just enough for each to start (end) 4 units from the picture's edge,
    as the title does; the space left goes to the plot."""
    for first, middle, last in (("a" * 20, "b" * 6, "c" * 12), ("a" * 12, "b" * 30, "c" * 20)):
        root = parse(
            svg.line_chart(
                [svg.Series("", "#000000", [1.0, 2.0, 3.0])],
                [first, middle, last],
                title="t",
                x_title="",
                width=640,
            )
        )
        boxes = sorted(upright_labels(root), key=lambda box: box.x0)
        assert [box.text for box in boxes] == [first, middle, last]
        assert boxes[0].x0 == pytest.approx(4, abs=0.1) and boxes[-1].x1 == pytest.approx(640 - 4, abs=0.1)


def test_two_points_labels_that_fit_between_them_stay_upright() -> None:
    """Two points at the plot's ends: labels each as wide as a third of the picture still fit the
    space between the points, and are written upright."""
    labels = ["a" * 36, "b" * 36]  # 214 units each, in a picture of 640
    root = parse(
        svg.line_chart([svg.Series("", "#000000", [1.0, 2.0])], labels, title="t", x_title="", width=640)
    )
    assert [box.text for box in upright_labels(root)] == labels


def test_the_phones_waterfall_keeps_its_first_axis_number_as_far_from_the_edge_as_a_0() -> None:
    """A negative first number on the phone's waterfall ("−10") starts as far from the picture's
    left edge as the "0" of an axis from zero: the plot moves in for it just that much."""

    def first_number(steps: list[svg.Step]) -> Box:
        root = parse(svg.waterfall_rows(steps, title="Anna"))
        numbers = [box for box in text_boxes(root) if box.text.replace(svg.MINUS, "").isdigit()]
        return min(numbers, key=lambda box: box.x0)

    zero = first_number([svg.Step("the cards", 20.0, total=True), svg.Step("points", 12.0, total=True)])
    negative = first_number(
        [
            svg.Step("the cards", 2.0, total=True),
            svg.Step("own", -12.0),
            svg.Step("points", -10.0, total=True),
        ]
    )
    assert zero.text == "0" and negative.text == svg.MINUS + "10"
    assert negative.x0 == pytest.approx(zero.x0, abs=0.1)
