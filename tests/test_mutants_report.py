"""The report's and the dashboard's pictures as a reader sees them: the behaviours that mutation
testing of ``report/svg.py`` (``make mutate MODULE=manillen_replay/report/svg.py``) showed no
other test defended. Each picture is parsed as XML and read back, as in tests/test_svg.py."""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Sequence
from typing import Any
from xml.etree import ElementTree

import pytest

from manillen_replay.cards import Card, Suit
from manillen_replay.report import svg

from .test_svg import bars_of, parse, points_of, texts_of

SVG = "{http://www.w3.org/2000/svg}"


def only_drawing(root: ElementTree.Element) -> None:
    """Nothing but elements: text only inside a ``<text>`` or a tooltip, never loose between shapes."""
    for element in root.iter():
        if element.tag not in (f"{SVG}text", f"{SVG}title"):
            assert not (element.text or "").strip(), element.tag
        assert not (element.tail or "").strip(), element.tag


def numbers_in(path: str) -> list[tuple[float, float]]:
    """The points of a path made of straight moves and lines (M and L)."""
    values = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", path)]
    return list(zip(values[::2], values[1::2], strict=True))


# --------------------------------------------------------------------------- cards


@pytest.mark.parametrize(("text", "red"), [("10H", True), ("AD", True), ("KC", False), ("7S", False)])
def test_a_card_shows_its_rank_in_its_suit_colour_and_says_what_it_is(text: str, red: bool) -> None:
    card = Card.parse(text)
    root = parse(svg.card_svg(card))
    only_drawing(root)
    assert (root.get("width"), root.get("height"), root.get("viewBox")) == ("30", "42", "0 0 30 42")
    assert root.get("data-card") == text
    assert root.get("aria-label") == f"{card.rank.text} {card.suit.english}"
    colour = svg.RED if red else svg.BLACK
    (rank,) = root.iter(f"{SVG}text")
    assert rank.text == card.rank.text and rank.get("fill") == colour
    (sign,) = root.iter(f"{SVG}path")
    assert sign.get("fill") == colour
    alone = parse(svg.suit_svg(card.suit)).find(f"{SVG}path")
    assert alone is not None and sign.get("d") == alone.get("d")  # the same sign as in running text


def test_a_card_played_and_the_better_card_are_outlined_in_their_own_colours() -> None:
    """The report's legend: the card played outlined in gold, the better card in green, any other
    card in a thin grey line."""
    card = Card.parse("QS")
    outlines = {}
    for mark in ("", "played", "better"):
        root = parse(svg.card_svg(card, mark=mark))
        rect = root.find(f"{SVG}rect")
        assert rect is not None
        outlines[mark] = (root.get("class"), rect.get("stroke"), rect.get("stroke-width"), rect.get("fill"))
    assert outlines == {
        "": ("card", "#888888", "1", "#ffffff"),
        "played": ("card played", "#e0a800", "3", "#ffffff"),
        "better": ("card better", svg.GAIN, "3", "#ffffff"),
    }


@pytest.mark.parametrize("suit", list(Suit))
def test_a_suit_sign_in_running_text_keeps_its_shape_and_colour_at_any_size(suit: Suit) -> None:
    for size, width in ((None, "10"), (18.0, "15")):
        root = parse(svg.suit_svg(suit) if size is None else svg.suit_svg(suit, size))
        only_drawing(root)
        assert (root.get("width"), root.get("height")) == (width, "12" if size is None else "18")
        assert root.get("viewBox") == "0 0 10 12" and root.get("aria-label") == suit.english
        path = root.find(f"{SVG}path")
        assert path is not None and path.get("fill") == (svg.RED if suit.is_red else svg.BLACK)


# --------------------------------------------------------------------------- line charts


def test_each_mark_sits_on_its_point_and_is_seen_and_hovered_whole() -> None:
    """A dot, a diamond, a cross or a ring is centred on its value; it is at least as big as a dot
    and no bigger than the point's hover circle (pointing anywhere on it shows its tooltip)."""
    kinds = ("dot", "diamond", "cross", "ring")
    picture = svg.line_chart(
        [svg.Series(kind, "#123456", [1.0, 2.0, 3.0], marker=kind, line=False) for kind in kinds],
        ["1", "2", "3"],
        title="Marks",
        x_title="deal",
    )
    root = parse(picture)
    only_drawing(root)
    groups = [g for g in root.iter(f"{SVG}g") if g.get("class") == "point"]
    assert len(groups) == 12
    for group in groups:
        hit = group.findall(f"{SVG}circle")[-1]
        cx, cy, reach = float(hit.get("cx", 0)), float(hit.get("cy", 0)), float(hit.get("r", 0))
        mark = group[1]
        kind = (group.findtext(f"{SVG}title") or "").split(" ·")[0]
        if kind in ("dot", "ring"):
            assert (float(mark.get("cx", 0)), float(mark.get("cy", 0))) == (cx, cy)
            radius = float(mark.get("r", 0)) + float(mark.get("stroke-width", 0)) / 2
            assert mark.get("fill") == ("none" if kind == "ring" else "#123456")
            if kind == "ring":
                assert mark.get("stroke") == "#123456" and mark.get("stroke-width") == "2"
        else:
            corners = numbers_in(mark.get("d", ""))
            assert len(corners) == 4
            xs, ys = [x for x, _ in corners], [y for _, y in corners]
            assert (min(xs) + max(xs)) / 2 == pytest.approx(cx, abs=0.06)
            assert (min(ys) + max(ys)) / 2 == pytest.approx(cy, abs=0.06)
            radius = max(max(xs) - cx, max(ys) - cy)
            if kind == "diamond":
                # top, right, bottom, left: a square standing on a corner
                assert corners[0][0] == corners[2][0] == cx and corners[1][1] == corners[3][1] == cy
                assert corners[0][1] < cy < corners[2][1] and corners[3][0] < cx < corners[1][0]
            else:
                # two strokes, each from one corner to the opposite one, crossing on the point
                (ax, ay), (bx, by), (cx2, cy2), (dx, dy) = corners
                assert {ax, bx} == {cx2, dx} == {min(xs), max(xs)} and ay < by and cy2 > dy
                assert mark.get("stroke") == "#123456"
        assert 3.0 <= radius <= reach, kind


def test_the_points_of_a_line_chart_are_spread_evenly_over_the_plot_above_their_labels() -> None:
    labels = [str(n) for n in range(1, 7)]
    picture = svg.line_chart(
        [svg.Series("Anna", "#1f77b4", [0.5, 1.5, 2.5, 3.5, 4.5, 5.5])], labels, title="Score", x_title="deal"
    )
    root = parse(picture)
    only_drawing(root)
    points = points_of(root)
    xs = [x for x, _, _ in points]
    gaps = [b - a for a, b in itertools.pairwise(xs)]
    assert all(gap == pytest.approx(gaps[0], abs=0.11) for gap in gaps) and gaps[0] > 0
    width = float((root.get("viewBox") or "").split()[2])
    assert gaps[0] * 5 > width * 0.7 and xs[0] > 0 and xs[-1] < width
    assert [tip for *_, tip in points][1] == "Anna · 2: 1.5"  # the decimal point by default
    under = {
        "".join(t.itertext()): float(t.get("y", 0))
        for t in root.iter(f"{SVG}text")
        if t.get("text-anchor") == "middle"
    }
    lowest = max(y for _, y, _ in points)
    assert all(under[label] > lowest for label in labels)
    axis = [x for label, x in zip(labels, xs, strict=True)]
    label_xs = [
        float(t.get("x", 0))
        for t in root.iter(f"{SVG}text")
        if t.get("text-anchor") == "middle" and "".join(t.itertext()) in labels
    ]
    assert label_xs == pytest.approx(axis, abs=0.11)
    # only what the chart was given, and the numbers of its axis: no y title when none was given
    words = {text for text in texts_of(root) if not re.fullmatch(r"−?\d+(\.\d+)?", text)}
    assert words == {"Score", "Anna", "deal"}


def test_a_line_chart_of_one_point_draws_it_in_the_middle() -> None:
    root = parse(svg.line_chart([svg.Series("A", "#111111", [3.0])], ["1"], title="S", x_title="deal"))
    ((x, _, _),) = points_of(root)
    label = next(
        t
        for t in root.iter(f"{SVG}text")
        if "".join(t.itertext()) == "1" and t.get("text-anchor") == "middle"
    )
    assert float(label.get("x", 0)) == pytest.approx(x, abs=0.11)
    width = float((root.get("viewBox") or "").split()[2])
    left = min(float(line.get("x1", 0)) for line in root.iter(f"{SVG}line"))
    right = max(float(line.get("x2", 0)) for line in root.iter(f"{SVG}line"))
    assert x == pytest.approx((left + right) / 2, abs=0.11) and right < width


# --------------------------------------------------------------------------- waterfalls


STEPS = [
    svg.Step("what the cards were worth", 40.0, total=True),
    svg.Step("given away by my own play", -5.5),
    svg.Step("given away by my partner", 0.0),
    svg.Step("won back from the opponents", 2.0),
    svg.Step("points taken", 36.5, total=True),
]


def test_a_waterfall_writes_each_step_label_under_its_own_bar_in_whole_words() -> None:
    root = parse(svg.waterfall(STEPS, title="Anna", width=420))
    only_drawing(root)
    bars = bars_of(root)
    slot = bars[1][0] - bars[0][0]
    small = [t for t in root.iter(f"{SVG}text") if t.get("font-size") == "10.5"]
    lines_by_bar: dict[int, list[tuple[float, str]]] = {}
    plot_bottom = max(y + h for _, y, _, h, _ in bars)
    for text in small:
        x, y = float(text.get("x", 0)), float(text.get("y", 0))
        index = min(range(len(bars)), key=lambda i: abs(bars[i][0] + bars[i][2] / 2 - x))
        assert abs(bars[index][0] + bars[index][2] / 2 - x) < 0.2  # centred under its bar
        assert y > plot_bottom
        assert svg._width_of(text.text or "", 10.5) <= slot  # no line reaches the next bar's
        lines_by_bar.setdefault(index, []).append((y, text.text or ""))
    for index, step in enumerate(STEPS):
        lines = sorted(lines_by_bar[index])
        assert " ".join(line for _, line in lines) == step.label  # in order, no word cut
        assert len(lines) > 1 or index == len(STEPS) - 1
    # the numbers over the bars: signed changes, a decimal point by default, no y title
    assert {"40", "−5.5", "0", "+2", "36.5"} <= set(texts_of(root))
    words = {t for t in texts_of(root) if not re.fullmatch(r"[−+]?\d+(\.\d+)?", t)}
    label_lines = {line for lines in lines_by_bar.values() for _, line in lines}
    assert words - label_lines == {"Anna"}


def test_a_waterfall_for_a_phone_draws_a_row_per_step_from_the_running_total() -> None:
    """The report's narrow waterfall: a row per step, its label over a bar from where the running
    total was to where it went, the value at the bar's end, in the reader's decimal sign."""
    root = parse(
        svg.waterfall_rows(STEPS, title="Anna: from the cards she was dealt to the points taken", decimal=",")
    )
    only_drawing(root)
    width = float((root.get("viewBox") or "").split()[2])
    height = float((root.get("viewBox") or "").split()[3])
    bars = bars_of(root)
    assert [tip for *_, tip in bars] == [
        "what the cards were worth: 40",
        "given away by my own play: −5,5 (40 → 34,5)",
        "given away by my partner: 0 (34,5 → 34,5)",
        "won back from the opponents: +2 (34,5 → 36,5)",
        "points taken: 36,5",
    ]
    zero = bars[0][0]
    scale = bars[0][2] / 40  # picture units per point
    spans = svg.waterfall_spans(STEPS)
    for (x, _, bar_width, bar_height, _), (start, end) in zip(bars, spans, strict=True):
        assert x == pytest.approx(zero + scale * min(start, end), abs=0.11)
        assert bar_width == pytest.approx(max(scale * abs(end - start), 1.0), abs=0.11)  # nothing: a sliver
        assert bar_height == 13 and x + bar_width <= width
    tops = [y for _, y, *_ in bars]
    assert all(b - a == pytest.approx(34) for a, b in itertools.pairwise(tops))  # one row each
    assert tops[-1] + 13 <= height
    texts = [
        (float(t.get("x", 0)), float(t.get("y", 0)), "".join(t.itertext())) for t in root.iter(f"{SVG}text")
    ]
    fills = [rect.get("fill") for rect in root.iter(f"{SVG}rect")]
    assert fills == [svg.TOTAL, svg.LOSS, svg.GAIN, svg.GAIN, svg.TOTAL]
    for (x, y, bar_width, _, _), step, value in zip(
        bars, STEPS, ["40", "−5,5", "0", "+2", "36,5"], strict=True
    ):
        label = next((tx, ty) for tx, ty, text in texts if text == step.label and tx != 4)
        assert label[1] < y and y - label[1] < 13  # the label just over its bar
        ends = [(tx, ty) for tx, ty, text in texts if text == value and y < ty < y + 13]
        assert ends and ends[0][0] == pytest.approx(x + bar_width + 4, abs=0.11)  # the value at its end
        assert ends[0][0] + svg._width_of(value) <= width
    # the title wraps to the picture's width, each line over the next, above the axis numbers
    title_lines = [(ty, text) for tx, ty, text in texts if tx == 4]
    assert (
        " ".join(text for _, text in title_lines) == "Anna: from the cards she was dealt to the points taken"
    )
    assert len(title_lines) == 2 and all(svg._width_of(t, 14) <= width - 8 for _, t in title_lines)
    axis = sorted((tx, text) for tx, ty, text in texts if re.fullmatch(r"−?\d+", text) and ty < tops[0])
    assert axis[0][1] == "0" and axis[0][0] == pytest.approx(zero, abs=0.11)
    assert all(ty > title_lines[-1][0] for tx, ty, text in texts if (tx, text) in axis)
    lines = list(root.iter(f"{SVG}line"))
    assert [line.get("x1") for line in lines] == [line.get("x2") for line in lines]  # upright grid lines
    assert all(float(line.get("y2", 0)) <= height for line in lines)


# --------------------------------------------------------------------------- legends and bars


def test_a_legend_wraps_into_rows_that_fit_between_the_title_and_the_plot() -> None:
    """Each entry's sample (a bar's square, a line with its dot, a mark) stands just left of its
    name; entries that would run past the picture's edge start a new row under the first."""
    names = ["Anna", "Bert", "Carla", "Dirk", "Els", "Frans"]
    picture = svg.bar_chart(
        ["m1", "m2"],
        [svg.Bars(name, f"#00000{i}", [1.0 + i, 2.0]) for i, name in enumerate(names)],
        title="Points per match",
        lines=[
            svg.Series("average", "#555555", [3.0, 2.0]),
            svg.Series("muil", "#7b3fa0", [4.0, None], marker="diamond", line=False),
        ],
        width=380,
    )
    root = parse(picture)
    only_drawing(root)
    width = 380.0
    entries = []
    for group in root.iter(f"{SVG}g"):
        if group.get("class") != "chart-legend":
            continue
        text = group.find(f"{SVG}text")
        assert text is not None
        sample = group[0]
        x, y = float(text.get("x", 0)), float(text.get("y", 0))
        entries.append((y, x, text.text or "", sample))
    assert [name for _, _, name, _ in entries] == [*names, "average", "muil"]
    rows = sorted({y for y, *_ in entries})
    assert len(rows) >= 2 and all(b - a == 16 for a, b in itertools.pairwise(rows))
    grid_top = min(float(line.get("y1", 0)) for line in root.iter(f"{SVG}line") if line.get("stroke-opacity"))
    assert rows[0] > 18 and rows[-1] < grid_top  # under the title, over the plot
    lefts = {round(x, 1) for y, x, *_ in entries if y == rows[0]} & {
        round(x, 1) for y, x, *_ in entries if y == rows[1]
    }
    assert lefts  # each row starts at the same left edge
    for (y, x, name, _), (y2, x2, _, _) in itertools.pairwise(entries):
        assert x + svg._width_of(name) <= width
        if y2 == y:
            assert x2 - 18 >= x + svg._width_of(name)  # the next sample starts after this name
    for y, x, name, sample in entries:
        if sample.tag == f"{SVG}rect":  # a bar's square, its colour, on the text's line
            assert float(sample.get("x", 0)) == pytest.approx(x - 18, abs=0.11)
            assert (sample.get("width"), sample.get("height")) == ("12", "10")
            assert float(sample.get("y", 0)) == pytest.approx(y - 9, abs=0.11)
            assert sample.get("fill") == f"#00000{names.index(name)}"
        elif name == "average":  # a line with its dot in the middle
            line = sample
            assert line.tag == f"{SVG}line" and line.get("stroke") == "#555555"
            x1, x2 = float(line.get("x1", 0)), float(line.get("x2", 0))
            assert (x1, x2) == pytest.approx((x - 18, x - 4), abs=0.11)
            assert line.get("y1") == line.get("y2") and float(line.get("y1", 0)) == pytest.approx(
                y - 4, abs=0.11
            )
            dot = group_dot = next(e for e in root.iter(f"{SVG}circle") if e.get("cx") == f"{x - 11:.1f}")
            assert (
                float(group_dot.get("cy", 0)) == pytest.approx(y - 4, abs=0.11)
                and dot.get("fill") == "#555555"
            )
        else:  # the mark of a row of marks, centred between the sample's edges
            corners = numbers_in(sample.get("d", ""))
            xs, ys = [c for c, _ in corners], [c for _, c in corners]
            assert (min(xs) + max(xs)) / 2 == pytest.approx(x - 11, abs=0.11)
            assert (min(ys) + max(ys)) / 2 == pytest.approx(y - 4, abs=0.11)
            assert sample.get("fill") == "#7b3fa0"


def test_a_bar_is_labelled_over_its_middle_and_a_loss_over_the_zero_line() -> None:
    """A gain's number sits just over its bar; a loss's over the zero line, clear of the labels
    under the chart."""
    picture = svg.bar_chart(
        ["Anna", "Bert"],
        [svg.Bars("net", ["#2e8b57", "#c8102e"], [6.0, -4.0], labels=["+6", "−4"])],
        title="Net",
    )
    root = parse(picture)
    only_drawing(root)
    (gain_x, gain_top, gain_width, gain_height, _), (loss_x, loss_top, loss_width, _, _) = bars_of(root)
    labels = {t.text: t for t in root.iter(f"{SVG}text") if t.text in ("+6", "−4")}
    gain, loss = labels["+6"], labels["−4"]
    assert float(gain.get("x", 0)) == pytest.approx(gain_x + gain_width / 2, abs=0.11)
    assert float(gain.get("y", 0)) == pytest.approx(gain_top - 4, abs=0.11)
    assert float(loss.get("x", 0)) == pytest.approx(loss_x + loss_width / 2, abs=0.11)
    zero = gain_top + gain_height
    assert loss_top == pytest.approx(zero, abs=0.11)
    assert float(loss.get("y", 0)) == pytest.approx(zero - 4, abs=0.11)
    bars = [g.find(f"{SVG}rect") for g in root.iter(f"{SVG}g") if g.get("class") == "bar"]
    assert [rect.get("fill") for rect in bars if rect is not None] == ["#2e8b57", "#c8102e"]  # its own colour


def test_a_chart_frame_keeps_its_axis_titles_and_numbers_beside_the_plot_inside_the_picture() -> None:
    """The value axis: a number at each grid line, right-aligned just left of the plot, the zero
    line darker than the others; the note under the title only when given; the axis titles
    centred on the plot's side and bottom; slanted labels that stay inside the picture."""
    long_names = ["club-2026-01-10-1 (2026-01-10)", "club-2026-01-17-2 (2026-01-17)", "m3"]
    picture = svg.bar_chart(
        long_names,
        [svg.Bars("net", "#123456", [12.0, -7.0, 3.0])],
        title="Net per match",
        y_title="points",
        x_title="match",
        note="points won less points given away",
        width=420,
        height=300,
    )
    root = parse(picture)
    only_drawing(root)
    width, height = (float(n) for n in (root.get("viewBox") or "").split()[2:])
    texts = list(root.iter(f"{SVG}text"))
    by_text = {"".join(t.itertext()): t for t in texts}
    title, note = by_text["Net per match"], by_text["points won less points given away"]
    assert float(title.get("y", 0)) < float(note.get("y", 0))
    grid = [line for line in root.iter(f"{SVG}line") if line.get("stroke-opacity")]
    left = {float(line.get("x1", 0)) for line in grid}
    right = {float(line.get("x2", 0)) for line in grid}
    assert len(left) == len(right) == 1 and 0 < left.pop() < right.pop() <= width
    plot_left = float(grid[0].get("x1", 0))
    ticks = {
        "".join(t.itertext()): t for t in texts if t.get("text-anchor") == "end" and not t.get("transform")
    }
    assert set(ticks) == {"−10", "−5", "0", "5", "10", "15"}
    for line in grid:
        y = float(line.get("y1", 0))
        assert line.get("y2") == line.get("y1")
        (tick,) = [t for t in ticks.values() if float(t.get("y", 0)) == pytest.approx(y + 4, abs=0.11)]
        assert float(tick.get("x", 0)) == pytest.approx(plot_left - 6, abs=0.11)
        assert line.get("stroke-opacity") == ("0.45" if "".join(tick.itertext()) == "0" else "0.16")
    assert float(note.get("y", 0)) < min(float(line.get("y1", 0)) for line in grid)
    tops = sorted(float(line.get("y1", 0)) for line in grid)
    y_title = by_text["points"]
    middle = re.search(r"translate\(([\d.]+) ([\d.]+)\) rotate\(-90\)", y_title.get("transform", ""))
    assert middle is not None and float(middle.group(1)) < plot_left
    assert float(middle.group(2)) == pytest.approx((tops[0] + tops[-1]) / 2, abs=0.11)
    x_title = by_text["match"]
    plot_right = float(grid[0].get("x2", 0))
    assert float(x_title.get("x", 0)) == pytest.approx((plot_left + plot_right) / 2, abs=0.11)
    assert tops[-1] < float(x_title.get("y", 0)) <= height
    slanted = [t for t in texts if "rotate(-45)" in t.get("transform", "")]
    assert len(slanted) == 3
    for text in slanted:
        place = re.search(r"translate\(([\d.]+) ([\d.]+)\)", text.get("transform", ""))
        assert place is not None
        reach = svg._width_of("".join(text.itertext())) * 0.7071
        assert float(place.group(1)) - reach >= 0  # the label's far end stays in the picture
        assert float(place.group(2)) > tops[-1]
        assert float(place.group(2)) + reach <= float(x_title.get("y", 0))  # and above the axis title
    # without a note nothing is written under the title
    bare = parse(svg.bar_chart(["a"], [svg.Bars("n", "#123456", [1.0])], title="T"))
    assert [t for t in texts_of(bare) if not re.fullmatch(r"−?[\d.]+", t)] == ["T", "n", "a"]


# --------------------------------------------------------------------------- numbers and axes


def test_numbers_and_axes_read_as_a_person_writes_them() -> None:
    """Half a point is 0.5, not −0.5; a loss too small to show is 0, not −0; an axis always
    includes 0, cuts its span into about five round steps, and still stands over nothing but zeros."""
    assert [svg.number(v) for v in (0.5, -0.04, -0.5, 0.0)] == ["0.5", "0", "−0.5", "0"]
    assert svg.value_axis(0, 0.5) == (0.0, 0.5, 0.1)
    assert svg.value_axis(0, 50) == (0.0, 50.0, 10.0)
    assert svg.value_axis(0, 12) == (0.0, 12.5, 2.5)
    assert svg.value_axis(0.5, 0.9)[0] == 0.0 and svg.value_axis(-0.9, -0.5)[1] == 0.0
    assert svg.value_axis(0, 0) == (0.0, 0.2, 0.2)
    # ticks from a negative bottom: the one at zero is "0" whatever the float sums leave
    root = parse(
        svg.line_chart([svg.Series("A", "#111111", [-0.6, 0.5])], ["1", "2"], title="S", x_title="d")
    )
    ticks = [t.text for t in root.iter(f"{SVG}text") if t.get("text-anchor") == "end"]
    assert "0" in ticks and "−0" not in ticks


def test_a_dutch_chart_writes_decimal_commas_everywhere() -> None:
    """With ``decimal=","`` every number a Dutch reader sees has a comma: the axis, the tooltips
    of points and bars, the waterfall's numbers and its running totals."""
    line = parse(
        svg.line_chart(
            [svg.Series("A", "#111111", [0.5, 1.5])], ["1", "2"], title="S", x_title="d", decimal=","
        )
    )
    assert [tip for *_, tip in points_of(line)] == ["A · 1: 0,5", "A · 2: 1,5"]
    assert "0,5" in [t.text for t in line.iter(f"{SVG}text") if t.get("text-anchor") == "end"]
    bars = parse(svg.bar_chart(["m"], [svg.Bars("net", "#111111", [1.5])], title="S", decimal=","))
    assert bars_of(bars)[0][4] == "net · m: 1,5"
    fall = parse(svg.waterfall(STEPS, title="Anna", decimal=","))
    assert [tip for *_, tip in bars_of(fall)][1] == "given away by my own play: −5,5 (40 → 34,5)"
    assert "−5,5" in texts_of(fall)
    rows = parse(svg.waterfall_rows([svg.Step("a", 1.5, True), svg.Step("b", 0.5)], title="T", decimal=","))
    assert {"0,5", "1,5"} <= {t.text for t in rows.iter(f"{SVG}text") if t.get("text-anchor") == "middle"}


def test_a_value_sits_at_its_height_on_both_sides_of_zero() -> None:
    root = parse(
        svg.line_chart(
            [svg.Series("A", "#111111", [-5.0, 0.0, 10.0])],
            ["1", "2", "3"],
            title="S",
            x_title="d",
            y_title="pts",
        )
    )
    (_, low, _), (_, zero, _), (_, high, _) = points_of(root)
    assert (low - zero) / (zero - high) == pytest.approx(0.5, abs=0.01)
    axis = [line for line in root.iter(f"{SVG}line") if line.get("stroke-opacity") == "0.45"]
    assert len(axis) == 1 and float(axis[0].get("y1", 0)) == pytest.approx(zero, abs=0.11)
    assert "pts" in texts_of(root)  # the y title of a line chart


def test_a_line_chart_of_two_points_draws_them_at_the_two_ends() -> None:
    root = parse(svg.line_chart([svg.Series("A", "#111111", [1.0, 2.0])], ["1", "2"], title="S", x_title="d"))
    (first, _, _), (last, _, _) = points_of(root)
    grid = [line for line in root.iter(f"{SVG}line") if line.get("stroke-opacity")]
    left, right = float(grid[0].get("x1", 0)), float(grid[0].get("x2", 0))
    assert first - left == pytest.approx(right - last, abs=0.11) and last - first > (right - left) * 0.9


def test_a_waterfall_colours_gains_green_losses_red_totals_their_own_with_the_number_on_top() -> None:
    steps = [
        svg.Step("cards", 40.0, total=True),
        svg.Step("lost", -5.0),
        svg.Step("nothing", 0.0),
        svg.Step("half", 0.5),
        svg.Step("points", 35.5, total=True),
    ]
    root = parse(svg.waterfall(steps, title="Anna", total_colour="#1f77b4"))
    bars = [g.find(f"{SVG}rect") for g in root.iter(f"{SVG}g") if g.get("class") == "bar"]
    assert [rect.get("fill") for rect in bars if rect is not None] == [
        "#1f77b4", svg.LOSS, svg.GAIN, svg.GAIN, "#1f77b4",
    ]  # fmt: skip
    tips = [tip for *_, tip in bars_of(root)]
    assert tips[0] == "cards: 40" and tips[-1] == "points: 35.5"  # a total says no running total
    width = float((root.get("viewBox") or "").split()[2])
    numbers = {t.text: t for t in root.iter(f"{SVG}text") if t.text in ("40", "−5", "0", "+0.5", "35.5")}
    spans = []
    for (x, top, bar_width, _, _), text in zip(bars_of(root), ["40", "−5", "0", "+0.5", "35.5"], strict=True):
        label = numbers[text]
        assert float(label.get("x", 0)) == pytest.approx(x + bar_width / 2, abs=0.11)
        assert float(label.get("y", 0)) == pytest.approx(top - 4, abs=0.11)
        spans.append((x, x + bar_width))
    slot = spans[1][0] - spans[0][0]
    assert spans[0][0] == pytest.approx(slot * 0.15 + (width - 12 - slot * 5), abs=0.2)
    assert all(b[0] - a[1] == pytest.approx(slot * 0.3, abs=0.11) for a, b in itertools.pairwise(spans))


def test_a_waterfall_that_starts_with_a_change_starts_from_zero_and_a_ledger_from_the_cards_total() -> None:
    assert svg.waterfall_spans([svg.Step("a", 5.0), svg.Step("b", -2.0)]) == [(0, 5), (5, 3)]
    names = {key: key for key in svg.LEDGER_STEPS}
    ledger = {
        "cards": 20,
        "given_away": 5,
        "partner_given_away": 1,
        "won_back": 3,
        "illegal": 2,
        "points": 19,
    }
    assert [step.total for step in svg.ledger_steps(ledger, names)] == [
        True,
        False,
        False,
        False,
        False,
        True,
    ]


def test_a_title_with_quotes_stays_whole_for_screen_readers() -> None:
    title = 'Bert "de kaart" & co'
    for picture in (
        svg.bar_chart(["a"], [svg.Bars("n", "#111111", [1.0])], title=title),
        svg.waterfall_rows(STEPS, title=title),
    ):
        assert parse(picture).get("aria-label") == title


def test_bars_stand_side_by_side_centred_in_their_category_and_say_what_they_were_told() -> None:
    """Grouped bars share their category's slot, centred on it and no wider than 64 units; a
    stacked bar is one wider bar; small gains stack up from the top of the others, losses down;
    a tooltip given by the caller replaces the default one."""
    grouped = parse(
        svg.bar_chart(
            ["Anna", "Bert"],
            [
                svg.Bars("won", "#111111", [2.0, 3.0], hover=["Anna won 2", "Bert won 3"]),
                svg.Bars("lost", "#222222", [1.0, 0.5]),
            ],
            title="Deals",
            width=400,
        )
    )
    grid = [line for line in grouped.iter(f"{SVG}line") if line.get("stroke-opacity")]
    left, right = float(grid[0].get("x1", 0)), float(grid[0].get("x2", 0))
    slot = (right - left) / 2
    bars = bars_of(grouped)
    assert [tip for *_, tip in bars] == ["Anna won 2", "Bert won 3", "lost · Anna: 1", "lost · Bert: 0.5"]
    for index in range(2):
        (x0, _, w0, _, _), (x1, _, w1, _, _) = bars[index], bars[2 + index]
        assert w0 == w1 == pytest.approx(min(slot * 0.75 / 2, 64), abs=0.11)
        assert x1 == pytest.approx(x0 + w0, abs=0.11)  # side by side
        assert (x0 + x1 + w1) / 2 == pytest.approx(left + slot * (index + 0.5), abs=0.11)  # centred
    stacked = parse(
        svg.bar_chart(
            ["m1"],
            [
                svg.Bars("a", "#111111", [0.5]),
                svg.Bars("b", "#222222", [0.25]),
                svg.Bars("c", "#333333", [-0.5]),
            ],
            title="Ledger",
            stacked=True,
            width=300,
        )
    )
    (ax, a_top, aw, ah, _), (bx, b_top, bw, bh, _), (cx, c_top, cw, ch, _) = bars_of(stacked)
    lines = [line for line in stacked.iter(f"{SVG}line") if line.get("stroke-opacity")]
    plot_left, plot_right = float(lines[0].get("x1", 0)), float(lines[0].get("x2", 0))
    assert ax == bx == cx and aw == bw == cw == pytest.approx(
        min((plot_right - plot_left) * 0.7, 64), abs=0.11
    )
    assert ax + aw / 2 == pytest.approx((plot_left + plot_right) / 2, abs=0.11)
    assert b_top + bh == pytest.approx(a_top, abs=0.11)  # b stands on a
    assert c_top == pytest.approx(a_top + ah, abs=0.11)  # c hangs from zero
    assert bh == pytest.approx(ah / 2, abs=0.11) and ch == pytest.approx(ah, abs=0.11)


def test_a_series_tooltips_given_by_the_caller_replace_the_default_ones() -> None:
    root = parse(
        svg.line_chart(
            [svg.Series("A", "#111111", [1.0, 2.0], hover=["first deal", "second deal"])],
            ["1", "2"],
            title="S",
            x_title="d",
        )
    )
    assert [tip for *_, tip in points_of(root)] == ["first deal", "second deal"]


# --------------------------------------------------------------------------- what a reader sees of the layout
# The tests below check the properties a reader sees, on charts of every kind and size the report
# and the dashboard draw: every text inside the picture, no two texts on top of each other, no text
# of the frame (title, legend, axis numbers and titles, labels under the plot) over the plot, bars
# as long as their values on the axis drawn. A text's box is estimated as the module lays it out:
# each character 0.54 of the font size wide, 0.8 of it above the baseline and 0.25 below.

_ASCENT, _DESCENT = 0.8, 0.25


class Box:
    """A text's (or a shape's) box on the picture."""

    def __init__(self, text: str, x0: float, y0: float, x1: float, y1: float, *, slanted: bool = False):
        self.text, self.x0, self.y0, self.x1, self.y1, self.slanted = text, x0, y0, x1, y1, slanted

    def meets(self, other: Box, margin: float = 0.0) -> bool:
        return (
            self.x0 < other.x1 - margin
            and other.x0 < self.x1 - margin
            and self.y0 < other.y1 - margin
            and other.y0 < self.y1 - margin
        )

    def __repr__(self) -> str:
        return f"{self.text!r} ({self.x0:.1f} {self.y0:.1f} {self.x1:.1f} {self.y1:.1f})"


def text_boxes(root: ElementTree.Element) -> list[Box]:
    """Every text's box: upright texts by their anchor, slanted ones (-45 degrees, anchored at their
    end) and the turned axis title (-90 degrees) by their turned extent."""
    base = float(root.get("font-size") or svg.FONT)
    boxes = []
    for element in root.iter(f"{SVG}text"):
        text = "".join(element.itertext())
        size = float(element.get("font-size") or base)
        wide = len(text) * size * svg._CHAR
        anchor = element.get("text-anchor") or "start"
        turned = re.fullmatch(
            r"translate\(([-\d.]+) ([-\d.]+)\) rotate\((-?\d+)\)", element.get("transform") or ""
        )
        if turned:
            x, y, angle = float(turned[1]), float(turned[2]), int(turned[3])
            if angle == -90:  # the value axis's title, read bottom to top, centred
                boxes.append(Box(text, x - size * _ASCENT, y - wide / 2, x + size * _DESCENT, y + wide / 2))
            else:
                assert angle == -45 and anchor == "end"
                reach = wide * math.sqrt(0.5)
                boxes.append(
                    Box(
                        text,
                        x - reach - size * 0.6,
                        y - size * 0.6,
                        x + size * 0.3,
                        y + reach + size * 0.3,
                        slanted=True,
                    )
                )
            continue
        x, y = float(element.get("x", 0)), float(element.get("y", 0))
        start = x - wide / 2 if anchor == "middle" else x - wide if anchor == "end" else x
        boxes.append(Box(text, start, y - size * _ASCENT, start + wide, y + size * _DESCENT))
    return boxes


def view_of(root: ElementTree.Element) -> tuple[float, float]:
    _, _, width, height = (float(v) for v in (root.get("viewBox") or "").split())
    return width, height


def plot_of(root: ElementTree.Element) -> Box:
    """The plot: the grid lines' extent (horizontal lines of the value axis)."""
    lines = [
        ln for ln in root.iter(f"{SVG}line") if ln.get("y1") == ln.get("y2") and "stroke-opacity" in ln.attrib
    ]
    xs = [float(ln.get("x1", 0)) for ln in lines] + [float(ln.get("x2", 0)) for ln in lines]
    ys = [float(ln.get("y1", 0)) for ln in lines]
    return Box("plot", min(xs), min(ys), max(xs), max(ys))


def ticks_of(root: ElementTree.Element) -> list[tuple[float, float]]:
    """The value axis: each grid line's height and the number written at its left."""
    out = []
    texts = [
        (float(t.get("y", 0)), "".join(t.itertext()), t.get("text-anchor")) for t in root.iter(f"{SVG}text")
    ]
    for line in root.iter(f"{SVG}line"):
        if line.get("y1") != line.get("y2") or "stroke-opacity" not in line.attrib:
            continue
        y = float(line.get("y1", 0))
        (label,) = [
            text for ty, text, anchor in texts if anchor == "end" and ty == pytest.approx(y + 4, abs=0.06)
        ]
        out.append((y, float(label.replace(svg.MINUS, "-").replace(",", "."))))
    return out


def assert_reads_clearly(
    picture: str, inside: Sequence[str] = (), *, frame: bool = True
) -> ElementTree.Element:
    """Every text inside the picture, no two upright texts over each other, and (``frame``) none
    but the ``inside`` ones (the numbers over bars) over the plot; slanted labels start under it."""
    root = parse(picture)
    width, height = view_of(root)
    boxes = text_boxes(root)
    for box in boxes:
        assert box.x0 >= -0.01 and box.x1 <= width + 0.01 and box.y0 >= -0.01 and box.y1 <= height + 0.01, box
    upright = [box for box in boxes if not box.slanted]
    for one, other in itertools.combinations(upright, 2):  # half a unit: a glyph's side bearing
        assert not one.meets(other, margin=0.5), (one, other)
    if frame:
        plot = plot_of(root)
        for box in upright:
            if box.text not in inside:
                assert not box.meets(plot, margin=0.5), (box, plot)
        for element in root.iter(f"{SVG}text"):
            turned = re.fullmatch(
                r"translate\(([-\d.]+) ([-\d.]+)\) rotate\(-45\)", element.get("transform") or ""
            )
            if turned:
                assert float(turned[2]) >= plot.y1 + 2, element.text  # starts under the plot
    return root


STEPS_LONG = [
    svg.Step("what the cards were worth", 40.0, total=True),
    svg.Step("given away by my own play", -5.5),
    svg.Step("given away by my partner", -3.0),
    svg.Step("won back from the opponents", 7.5),
    svg.Step("illegal cards", -2.0),
    svg.Step("points taken", 37.0, total=True),
]


PLAYERS = ["Anna", "Bert", "Carla", "Dirk", "Els", "Frans", "Gust"]
EVENINGS = [f"2026-{1 + n % 12:02d}-{1 + n:02d} Het Hof, Brugge" for n in range(14)]


def _accuracy_chart(width: int) -> str:
    """Five players' accuracy evening by evening: long (slanted) labels, a legend of two rows."""
    marks = ["dot", "diamond", "cross", "ring", "dot"]
    series = [
        svg.Series(
            name, f"#0000{i}0", [float(i + n % 5) - 2.5 for n in range(14)], marker=mark, line=i % 2 == 0
        )
        for i, (name, mark) in enumerate(zip(PLAYERS[:5], marks, strict=True))
    ]
    return svg.line_chart(
        series,
        EVENINGS,
        title="Accuracy evening by evening",
        x_title="evening",
        y_title="accuracy",
        width=width,
        decimal=",",
    )


def _line_charts() -> list[tuple[str, tuple[str, ...]]]:
    nothing: tuple[str, ...] = ()
    deals = [str(n) for n in range(0, 42)]
    team = [float(n * 2.5) for n in range(42)]
    other = [float(n * 2.4 - 7) if n % 9 else None for n in range(42)]
    return [
        (
            svg.line_chart(
                [svg.Series("Anna & Carla", "#1f77b4", team), svg.Series("Bert & Dirk", "#d62728", other)],
                deals,
                title="Score deal by deal",
                x_title="deal",
                y_title="points",
                width=width,
                height=height,
            ),
            nothing,
        )
        for width, height in ((640, 260), (340, 220))
    ] + [(_accuracy_chart(640), nothing)]


def _bar_charts() -> list[tuple[str, tuple[str, ...]]]:
    won = ["4", "7.5", "2", "9", "3", "1", "5"]
    grouped = [
        (
            svg.bar_chart(
                PLAYERS,
                [
                    svg.Bars("won", svg.GAIN, [4.0, 7.5, 2.0, 9.0, 3.0, 1.0, 5.0], labels=won),
                    svg.Bars("lost", svg.LOSS, [-3.0, -1.5, -6.0, -2.0, 0.0, -4.0, -1.0]),
                ],
                title="Points with each partner",
                y_title="points",
                x_title="partner",
                note="the number over a bar: deals",
                width=width,
            ),
            tuple(won),
        )
        for width in (640, 340)
    ]
    everyone = [svg.Bars(name, f"#00{i}0{i}0", [1.0 + i, -2.0, 3.0]) for i, name in enumerate(PLAYERS)]
    return [
        *grouped,
        (
            svg.bar_chart(["m1", "m2", "m3"], everyone, title="Points per match", x_title="match", width=340),
            (),
        ),
        (
            svg.bar_chart(
                ["dealer", "not dealer"],
                [svg.Bars("", "#1f77b4", [12.0, -4.0], labels=["12 deals", "4 deals"])],
                title="Dealing",
                y_title="points",
                width=640,
            ),
            ("12 deals", "4 deals"),
        ),
        (
            svg.bar_chart(
                PLAYERS[:5],
                [
                    svg.Bars(n, f"#00{i}000", [float(i - 2), 2.0, -1.0, 3.0, 1.5])
                    for i, n in enumerate(PLAYERS[:4])
                ],
                stacked=True,
                title="Stacked",
                y_title="points",
                x_title="who",
                lines=[svg.Series("average", "#000000", [0.5, 1.0, None, 2.0, 0.0])],
                width=480,
            ),
            (),
        ),
    ]


def _waterfalls() -> list[tuple[str, tuple[str, ...]]]:
    values = tuple(svg.number(s.value, signed=not s.total, decimal=d) for s in STEPS_LONG for d in ".,")
    return [
        (
            svg.waterfall(
                STEPS_LONG,
                title="Anna: where the points came from",
                width=width,
                y_title=y_title,
                decimal=decimal,
            ),
            values,
        )
        for width, y_title, decimal in (
            (640, "", "."),
            (640, "card points", ","),
            (520, "", "."),
            (400, "", "."),
        )
    ]


@pytest.mark.parametrize(
    ("charts", "index"),
    [(_line_charts, i) for i in range(3)]
    + [(_bar_charts, i) for i in range(5)]
    + [(_waterfalls, i) for i in range(4)],
)
def test_every_chart_reads_clearly_every_text_in_the_picture_and_none_over_another(
    charts: Any, index: int
) -> None:
    # drawn here, not when the tests are collected: a mutation run switches the code under test
    # between collecting the tests and running them
    picture, inside = charts()[index]
    root = assert_reads_clearly(picture, inside)
    only_drawing(root)


def test_a_legend_stays_inside_a_phones_chart_with_slanted_labels() -> None:
    """Found by the test above: at a phone's width, slanted labels push the plot's left edge to the
    right after the legend's rows were fitted to the old width, so the last entry runs off the
    picture (its name cut off)."""
    assert_reads_clearly(_accuracy_chart(340))


@pytest.mark.parametrize("width", [340, 300, 420])
def test_the_phones_waterfall_reads_clearly_a_row_a_step(width: int) -> None:
    """The narrow waterfall: every text inside the picture, none over another or over a bar, the
    title over the axis numbers, each row's label over its own bar."""
    picture = svg.waterfall_rows(
        STEPS_LONG, title="Carla: where the points came from tonight at Het Hof", width=width
    )
    root = assert_reads_clearly(picture, frame=False)
    bars = [Box("bar", x, y, x + w, y + h) for x, y, w, h, _ in bars_of(root)]
    for box in text_boxes(root):
        for bar in bars:
            assert not box.meets(bar, margin=0.01), (box, bar)
    # the grid's lines run from above the first bar to below the last, starting under the numbers
    numbers = [b for b in text_boxes(root) if re.fullmatch(r"−?\d+", b.text) and b.y1 < bars[0].y0]
    for line in root.iter(f"{SVG}line"):
        y1, y2 = float(line.get("y1", 0)), float(line.get("y2", 0))
        assert max(b.y1 for b in numbers) <= y1 <= min(bar.y0 for bar in bars)
        assert max(bar.y1 for bar in bars) <= y2 <= view_of(root)[1]


def _value_scale(root: ElementTree.Element, *, across: bool) -> list[tuple[float, float]]:
    """The axis as drawn: each grid line's position and the value written at it."""
    if not across:
        return ticks_of(root)
    texts = {
        (float(t.get("x", 0)), "".join(t.itertext()))
        for t in root.iter(f"{SVG}text")
        if t.get("text-anchor") == "middle"
    }
    out = []
    for line in root.iter(f"{SVG}line"):
        x = float(line.get("x1", 0))
        (label,) = [text for tx, text in texts if tx == pytest.approx(x, abs=0.06)]
        out.append((x, float(label.replace(svg.MINUS, "-").replace(",", "."))))
    return out


@pytest.mark.parametrize(
    "steps",
    [
        STEPS_LONG,
        [svg.Step("start", -12.0, total=True), svg.Step("up", 30.0), svg.Step("end", 18.0, total=True)],
    ],
)
def test_a_waterfalls_bars_are_as_long_as_their_values_on_the_axis_drawn(steps: list[svg.Step]) -> None:
    """Read against its own axis (the grid's positions and their numbers), each bar runs from where
    the running total was to where it went; the axis covers every value and no more than one step
    beyond; its zero line is the stronger one."""
    spans = svg.waterfall_spans(steps)
    values = [v for span in spans for v in span]
    for picture, across in (
        (svg.waterfall(steps, title="w"), False),
        (svg.waterfall_rows(steps, title="w"), True),
    ):
        root = parse(picture)
        scale = _value_scale(root, across=across)
        (p0, v0), (p1, v1) = scale[0], scale[-1]

        def at(value: float, p0: float = p0, p1: float = p1, v0: float = v0, v1: float = v1) -> float:
            return p0 + (p1 - p0) * (value - v0) / (v1 - v0)

        positions = sorted(v for _, v in scale)
        step = positions[1] - positions[0]
        assert (
            positions[0] <= min(values) < positions[0] + step
            and positions[-1] - step < max(values) <= positions[-1]
        )
        assert all(b - a == pytest.approx(step) for a, b in itertools.pairwise(positions))
        for (x, y, w, h, _), (start, end) in zip(bars_of(root), spans, strict=True):
            low, high = sorted((at(start), at(end)))
            if across:
                assert x == pytest.approx(low, abs=0.11) and x + w == pytest.approx(
                    max(high, low + 1), abs=0.15
                )
            else:
                assert y == pytest.approx(low, abs=0.11) and y + h == pytest.approx(
                    max(high, low + 1), abs=0.15
                )
        strong = [ln for ln in root.iter(f"{SVG}line") if ln.get("stroke-opacity") == "0.45"]
        assert len(strong) == 1
        zero = float(strong[0].get("x1" if across else "y1", 0))
        assert zero == pytest.approx(at(0.0), abs=0.06)


@pytest.mark.parametrize(
    "draw",
    [
        lambda: svg.line_chart(
            [svg.Series("nobody", "#000000", [None, None])], ["1", "2"], title="t", x_title="deal"
        ),
        lambda: svg.line_chart([], [], title="t", x_title="deal"),
        lambda: svg.bar_chart([], [], title="t"),
        lambda: svg.waterfall([], title="t"),
        lambda: svg.waterfall_rows([], title="t"),
    ],
)
def test_a_chart_with_no_values_still_draws_its_frame_at_zero(draw: Any) -> None:
    """A chart with nothing to show (a player without a costed deal): the frame with an axis
    through zero, no bar and no point, rather than an error."""
    root = parse(draw())
    assert not bars_of(root) and not points_of(root)
    assert "0" in texts_of(root)


def _legend_tops(picture: str) -> list[float]:
    root = parse(picture)
    rows = sorted(
        {
            float(t.get("y", 0))
            for g in root.iter(f"{SVG}g")
            if g.get("class") == "chart-legend"
            for t in g.iter(f"{SVG}text")
        }
    )
    return [*rows, plot_of(root).y0]


def test_a_legend_takes_as_few_rows_as_fit_and_no_room_without_entries() -> None:
    """Entries share a row while they fit (a new row only for the one that would run past the
    edge); each row takes one line's height over the plot, and a chart without a legend keeps no
    empty band for one."""
    two = [svg.Bars("won", svg.GAIN, [1.0, 2.0]), svg.Bars("lost", svg.LOSS, [-1.0, -2.0])]
    nameless = [svg.Bars("", svg.GAIN, [1.0, 2.0]), svg.Bars("", svg.LOSS, [-1.0, -2.0])]
    one_row = _legend_tops(svg.bar_chart(["a", "b"], two, title="t", width=640))
    none = _legend_tops(svg.bar_chart(["a", "b"], nameless, title="t", width=640))
    assert len(one_row) == 2 and len(none) == 1  # one row of two entries; no row
    assert one_row[-1] - none[-1] == pytest.approx(16)  # the plot moves down by the row's height only
    many = [svg.Bars(name, "#000000", [1.0, 2.0]) for name in PLAYERS]
    tops = _legend_tops(svg.bar_chart(["a", "b"], many, title="t", width=340))
    assert len(tops) - 1 >= 2 and tops[-1] - none[-1] == pytest.approx((len(tops) - 1) * 16)
    root = parse(svg.bar_chart(["a", "b"], many, title="t", width=340))
    room = view_of(root)[0] - 12 - plot_of(root).x0
    by_row: dict[float, list[str]] = {}
    for group in root.iter(f"{SVG}g"):
        if group.get("class") == "chart-legend":
            text = group.find(f"{SVG}text")
            assert text is not None
            by_row.setdefault(float(text.get("y", 0)), []).append(text.text or "")
    rows = [by_row[y] for y in sorted(by_row)]

    def wide(names: list[str]) -> float:
        return sum(18 + svg._width_of(n) + 14 for n in names)

    for row, following in itertools.pairwise(rows):
        assert wide(row) <= room < wide([*row, following[0]])  # the next row's first would not fit


def _x_texts(picture: str) -> list[tuple[float, str, bool]]:
    """The labels under the plot: x (the anchor), text, slanted."""
    root = parse(picture)
    bottom = plot_of(root).y1
    out = []
    for t in root.iter(f"{SVG}text"):
        turned = re.fullmatch(r"translate\(([-\d.]+) ([-\d.]+)\) rotate\(-45\)", t.get("transform") or "")
        if turned:
            out.append((float(turned[1]), t.text or "", True))
        elif t.get("text-anchor") == "middle" and bottom < float(t.get("y", 0)) < bottom + svg.FONT + 4:
            out.append((float(t.get("x", 0)), t.text or "", False))
    return out


def test_labels_under_a_chart_short_ones_upright_longer_slanted_cut_at_22_characters() -> None:
    """Labels of up to five characters (deal numbers) stay upright and are thinned when crowded;
    longer ones (names, dates) are slanted rather than dropped, each written, and one over 22
    characters is cut to 21 and an ellipsis."""
    values = [svg.Bars("", "#000000", [1.0] * 16)]
    short = _x_texts(svg.bar_chart([f"{n:05d}" for n in range(16)], values, title="t", width=340))
    assert not any(slanted for *_, slanted in short) and 1 < len(short) < 16
    names = [f"Player{n:02d}" for n in range(16)]  # 8 characters: slanted, every one
    drawn = _x_texts(svg.bar_chart(names, values, title="t", width=640))
    assert [text for _, text, slanted in drawn if slanted] == names
    exact, longer = "x" * 22, "y" * 23
    drawn = _x_texts(
        svg.bar_chart([exact, longer, "z" * 40], [svg.Bars("", "#000000", [1.0] * 3)], title="t", width=200)
    )
    assert [text for _, text, _ in drawn] == [exact, "y" * 21 + "…", "z" * 21 + "…"]


def test_slanted_labels_are_thinned_just_enough_to_stay_a_line_apart() -> None:
    """Crowded slanted labels: every n-th, n the fewest that keeps consecutive written labels about
    a line and a half of text apart along the axis (a line of capitals across the slant) — never
    on top of each other, and none dropped that had room."""
    for count, width in itertools.product(range(12, 41, 2), (340, 640)):
        labels = [f"2026-01-{n:02d} Het Hof" for n in range(1, count + 1)]
        series = [svg.Series("A", "#000000", [1.0] * count)]
        picture = svg.line_chart(series, labels, title="t", x_title="evening", width=width)
        xs = [x for x, _, slanted in _x_texts(picture) if slanted]
        if len(xs) == count:  # none left out: nothing to thin
            continue
        spacing = min(b - a for a, b in itertools.pairwise(xs[:-1]))
        assert spacing * math.sqrt(0.5) >= svg.FONT * _ASCENT  # a line of capitals apart across the slant
        # one fewer in between would have been too close: the gap is the smallest whole number of slots
        points = [x for x, *_ in points_of(parse(picture))]
        slot = (points[-1] - points[0]) / (count - 1)
        assert spacing - slot < svg.FONT * 1.5, (count, width)


def _bars_apart(root: ElementTree.Element, stacked: bool) -> None:
    """No two bars over each other (a stacked bar's pieces share their x and touch end to end),
    and no number over a bar over any bar."""
    bars = [Box("bar", x, y, x + w, y + h) for x, y, w, h, _ in bars_of(root)]
    for one, other in itertools.combinations(bars, 2):
        if stacked and one.x0 == other.x0:
            continue
        assert not one.meets(other, margin=0.05), (one, other)


@pytest.mark.parametrize("width", [300, 340, 380, 420, 480])
@pytest.mark.parametrize("count", [2, 5, 9])
def test_bars_stand_apart_and_their_numbers_clear_of_every_bar(width: int, count: int) -> None:
    names = [f"P{n}" for n in range(count)]
    grouped = [
        svg.Bars("won", svg.GAIN, [0.4 + n for n in range(count)], labels=[f"{n}" for n in range(count)]),
        svg.Bars("lost", svg.LOSS, [-1.0 - n % 3 for n in range(count)]),
    ]
    root = assert_reads_clearly(
        svg.bar_chart(names, grouped, title="t", width=width), tuple(map(str, range(count)))
    )
    _bars_apart(root, stacked=False)
    numbers = [
        b for b in text_boxes(root) if b.text in set(map(str, range(count))) and b.y0 > plot_of(root).y0 - 20
    ]
    for box in numbers:
        for x, y, w, h, _ in bars_of(root):
            assert not box.meets(Box("bar", x, y, x + w, y + h), margin=0.05), box
    single = svg.bar_chart(
        names, [svg.Bars("net", svg.GAIN, [1.0 + n for n in range(count)])], title="t", width=width
    )
    _bars_apart(parse(single), stacked=False)
    stacked = svg.bar_chart(names, grouped, title="t", width=width, stacked=True)
    _bars_apart(parse(stacked), stacked=True)


def test_a_stacked_bar_stacks_gains_and_losses_apart_whatever_comes_between() -> None:
    """Gains stack up from 0 and losses down from 0, a zero between them changing neither stack;
    the axis reaches the stacks' ends and no further than a step."""
    series = [
        svg.Bars(f"s{n}", "#000000", [value]) for n, value in enumerate((3.0, 0.0, 2.0, -2.0, 0.0, -1.5))
    ]
    root = parse(svg.bar_chart(["a"], series, title="t", stacked=True))
    ticks = ticks_of(root)
    (y0, v0), (y1, v1) = ticks[0], ticks[-1]

    def value_at(y: float) -> float:
        return v0 + (v1 - v0) * (y - y0) / (y1 - y0)

    spans = [(round(value_at(y + h), 1), round(value_at(y), 1)) for _, y, _, h, _ in bars_of(root)]
    assert [spans[i] for i in (0, 2, 3, 5)] == [(0.0, 3.0), (3.0, 5.0), (-2.0, 0.0), (-3.5, -2.0)]
    values = sorted(v for _, v in ticks)
    step = values[1] - values[0]
    assert values[0] <= -3.5 < values[0] + step and values[-1] - step < 5.0 <= values[-1]


def test_every_bar_of_a_value_is_seen_and_a_legend_shows_the_first_bars_colour() -> None:
    bars = parse(
        svg.bar_chart(["a", "b"], [svg.Bars("net", ["#111111", "#222222"], [0.001, 100.0])], title="t")
    )
    assert bars_of(bars)[0][3] >= 0.5  # a value too small for its height still shows
    (sample,) = [g[0] for g in bars.iter(f"{SVG}g") if g.get("class") == "chart-legend"]
    assert sample.get("fill") == "#111111"


def test_a_bars_number_sits_over_a_small_gain_not_on_it() -> None:
    root = parse(
        svg.bar_chart(["a", "b"], [svg.Bars("", svg.GAIN, [0.5, 40.0], labels=["half", "forty"])], title="t")
    )
    (_, y, _, _, _), _ = bars_of(root)
    (label,) = [b for b in text_boxes(root) if b.text == "half"]
    assert label.y1 <= y + 0.01  # over the bar, not across it


def test_tooltips_and_axes_in_dutch_and_by_default_in_english() -> None:
    """The decimal sign reaches every number: a bar chart's axis and its lines' tooltips, a
    waterfall's axis and its tooltips' running totals; left out, it is the English point."""
    bars = parse(
        svg.bar_chart(
            ["m"],
            [svg.Bars("net", "#111111", [1.5])],
            title="S",
            decimal=",",
            lines=[svg.Series("average", "#000000", [0.5])],
        )
    )
    assert "0,5" in [t.text for t in bars.iter(f"{SVG}text") if t.get("text-anchor") == "end"]
    assert [tip for *_, tip in points_of(bars)] == ["average · m: 0,5"]
    fall = parse(svg.waterfall(STEPS, title="Anna", decimal=","))
    assert [tip for *_, tip in bars_of(fall)][2] == "given away by my partner: 0 (34,5 → 34,5)"
    small = parse(svg.waterfall([svg.Step("a", 1.5, True), svg.Step("b", -0.5)], title="T", decimal=","))
    assert "0,5" in [t.text for t in small.iter(f"{SVG}text") if t.get("text-anchor") == "end"]
    rows = parse(svg.waterfall_rows([svg.Step("a", 1.5, True), svg.Step("b", 0.5)], title="T"))
    assert {"0.5", "1.5"} <= set(texts_of(rows))


def test_a_point_of_a_nameless_series_is_hovered_by_its_label_and_value() -> None:
    root = parse(
        svg.line_chart([svg.Series("", "#000000", [1.0, 2.5])], ["d1", "d2"], title="t", x_title="d")
    )
    assert [tip for *_, tip in points_of(root)] == ["d1: 1", "d2: 2.5"]
    (line,) = root.iter(f"{SVG}polyline")
    pairs = (line.get("points") or "").split(" ")
    drawn = [float(v) for pair in pairs for v in pair.split(",")]
    assert drawn == pytest.approx([v for x, y, _ in points_of(root) for v in (x, y)])


def test_an_empty_tooltip_is_no_tooltip() -> None:
    root = parse(
        svg.bar_chart(["a", "b"], [svg.Bars("", "#000000", [1.0, 2.0], hover=["", "two"])], title="t")
    )
    only_drawing(root)
    tips = [[t.text for t in g.iter(f"{SVG}title")] for g in root.iter(f"{SVG}g") if g.get("class") == "bar"]
    assert tips == [[], ["two"]]


def _thinned(picture: str) -> tuple[list[float], float]:
    """The upright labels written under a line chart's points (their x), and the points' spacing."""
    root = parse(picture)
    xs = [x for x, _, slanted in _x_texts(picture) if not slanted]
    points = [x for x, *_ in points_of(root)]
    return xs, (points[-1] - points[0]) / (len(points) - 1)


@pytest.mark.parametrize("width", [200, 340, 640])
def test_thinned_labels_keep_a_steady_step_and_the_last(width: int) -> None:
    """Deal numbers too many for their room: every n-th is written and the last, each a steady
    step apart; the last gap at most a step and under two (no label dropped that had room), and
    never two on top of each other."""
    for count in range(12, 130, 7):
        labels = [str(n) for n in range(1, count + 1)]
        picture = svg.line_chart(
            [svg.Series("A", "#000000", [1.0] * count)], labels, title="t", x_title="deal", width=width
        )
        assert_reads_clearly(picture)
        xs, slot = _thinned(picture)
        gaps = [round((b - a) / slot) for a, b in itertools.pairwise(xs)]
        step = gaps[0]
        assert all(gap == step for gap in gaps[:-1]), (count, gaps)
        if step > 1:
            assert step <= gaps[-1] < 2 * step, (count, gaps)


def test_a_long_label_that_fits_its_slot_stays_whole_and_upright() -> None:
    label = "Anna & Carla against Bert & Dirk at Het Hof, evening 1"
    drawn = _x_texts(svg.bar_chart([label], [svg.Bars("", "#000000", [1.0])], title="t", width=640))
    assert drawn and drawn[0][1:] == (label, False)
    two = _x_texts(
        svg.line_chart(
            [svg.Series("A", "#000000", [1.0, 2.0])],
            ["start of the evening", label],
            title="t",
            x_title="e",
            width=900,
        )
    )
    assert [text for _, text, slanted in two if not slanted] == ["start of the evening", label]


@pytest.mark.parametrize("width", range(300, 430, 9))
def test_charts_with_slanted_labels_and_legends_stay_inside_at_any_width(width: int) -> None:
    """Crowded long labels (slanted) under bars and points, with and without an axis title, and a
    legend of several names: every text inside the picture, none over another or over the plot."""
    names = PLAYERS[: 3 + width % 4]
    bars = [
        svg.Bars(name, f"#00{i}0{i}0", [1.0 + i - (n % 3) for n in range(10)]) for i, name in enumerate(names)
    ]
    # (a legend with slanted labels: test_a_legend_stays_inside_a_phones_chart_with_slanted_labels)
    matches = [f"m{n}" for n in range(10)]
    assert_reads_clearly(svg.bar_chart(matches, bars, title="Points per match", width=width))
    assert_reads_clearly(svg.bar_chart(EVENINGS[:10], bars[:1], title="Points", width=width))
    assert_reads_clearly(
        svg.bar_chart(EVENINGS[:10], bars[1:2], title="Points", x_title="evening", width=width)
    )
    series = [svg.Series("", "#000000", [1.0] * 14)]
    assert_reads_clearly(svg.line_chart(series, EVENINGS, title="t", x_title="", width=width))
    crowd = [svg.Series("", "#000000", [1.0] * 1200)]
    many = [str(n) for n in range(1200)]
    assert_reads_clearly(svg.line_chart(crowd, many, title="t", x_title="deal", width=width))
    long_many = [f"evening {n:04d} at Het Hof" for n in range(1200)]
    root = parse(svg.line_chart(crowd, long_many, title="t", x_title="", width=width))
    assert len([t for t in root.iter(f"{SVG}text") if t.get("transform")]) < width / svg.FONT


def test_a_note_an_axis_title_and_a_y_title_take_room_only_when_given() -> None:
    """Without a note, a legend, an x title or a y title the chart keeps no blank band for them:
    the plot starts right under the title, the value axis's numbers at the picture's left margin."""

    def plot(**given: Any) -> Box:
        return plot_of(
            parse(svg.bar_chart(["a", "b"], [svg.Bars("", "#000000", [1.0, 2.0])], title="t", **given))
        )

    bare, noted, titled = plot(), plot(note="a note"), plot(x_title="who")
    assert noted.y0 - bare.y0 == pytest.approx(16)  # one line for the note
    assert bare.y1 - titled.y1 > 10  # a line for the axis title, none without it
    root = parse(svg.bar_chart(["a", "b"], [svg.Bars("", "#000000", [10.0, 20.0])], title="t"))
    numbers = [b for b in text_boxes(root) if re.fullmatch(r"\d+", b.text) and b.x1 < plot_of(root).x0]
    assert min(b.x0 for b in numbers) == pytest.approx(4, abs=0.5)  # lined up with the title


@pytest.mark.parametrize("length", range(30, 140, 6))
def test_the_phones_waterfall_title_wraps_inside_the_picture_a_full_line_at_a_time(length: int) -> None:
    words = ("Carla", "where", "the", "points", "came", "from", "tonight", "at", "Het", "Hof", "in", "Brugge")
    title = " ".join(itertools.islice(itertools.cycle(words), length // 5))[:length].strip()
    steps = [svg.Step("start", -12.0, total=True), svg.Step("up", 30.0), svg.Step("end", 18.0, total=True)]
    root = parse(svg.waterfall_rows(steps, title=title))
    width = view_of(root)[0]
    for box in text_boxes(root):
        assert box.x0 >= 0 and box.x1 <= width, box
    for shape in [*root.iter(f"{SVG}rect"), *root.iter(f"{SVG}line")]:
        for key in ("x", "x1", "x2"):
            if shape.get(key) is not None:
                assert 0 <= float(shape.get(key, 0)) <= width
    lines = [t.text or "" for t in root.iter(f"{SVG}text") if t.get("font-size") == "14"]
    assert " ".join(lines) == title
    for line, following in itertools.pairwise(lines):  # a line takes every word that fits
        assert svg._width_of(line + " " + following.split(" ")[0], 14) > width - 8


def test_the_phones_waterfall_keeps_a_negative_axis_inside() -> None:
    """Found by the test above: a ledger whose running total goes below zero puts a negative first
    number ("−20") on the axis, centred 6 units from the picture's left edge: its minus sign is cut."""
    steps = [
        svg.Step("the cards", 4.0, total=True),
        svg.Step("own decisions", -15.0),
        svg.Step("points", -11.0, total=True),
    ]
    assert_reads_clearly(svg.waterfall_rows(steps, title="Anna"), frame=False)


def test_a_tick_the_float_sums_leave_a_hair_below_zero_is_written_0() -> None:
    """An axis from −0.6 in steps of 0.2 reaches −0.6 + 3 × 0.2, a hair below zero: written 0."""
    root = parse(
        svg.line_chart([svg.Series("A", "#111111", [-0.6, 0.3])], ["1", "2"], title="S", x_title="d")
    )
    ticks = [t.text for t in root.iter(f"{SVG}text") if t.get("text-anchor") == "end"]
    assert ticks[:4] == ["−0.6", "−0.4", "−0.2", "0"]
