"""Pictures as inline SVG for the report and the dashboard: cards, and charts (lines, bars, waterfalls).

Pure functions returning SVG text. Nothing refers outside the text itself (no fonts to load, no
images): a report made of them opens offline and prints as it looks. Suit signs are drawn as
paths, so they look the same whatever fonts the reader's phone has.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from ..cards import Card, Suit

RED = "#c8102e"
BLACK = "#111111"
TEAM_COLOURS = ("#1f77b4", "#d62728")
"""Team 0 blue, team 1 red: the dashboard's colours."""
PLAYER_COLOURS = (*TEAM_COLOURS, "#2ca02c")
"""The three-player games' players, who each keep a score: the teams' two colours and a third."""
GAIN = "#2e8b57"
LOSS = "#c8102e"
TOTAL = "#555555"

# Each suit sign in a 10 x 12 box.
_SUIT_PATHS = {
    Suit.H: "M5 11.5C5 11.5 0 7.5 0 3.6C0 1.6 1.5 0 3.2 0C4.1 0 4.7 .6 5 1.5C5.3 .6 5.9 0 6.8 0"
    "C8.5 0 10 1.6 10 3.6C10 7.5 5 11.5 5 11.5Z",
    Suit.D: "M5 0L9.5 6L5 12L.5 6Z",
    Suit.C: "M5 .2A2.6 2.6 0 1 1 5 5.4A2.6 2.6 0 1 1 5 .2Z"
    "M2.6 4.4A2.6 2.6 0 1 1 2.6 9.6A2.6 2.6 0 1 1 2.6 4.4Z"
    "M7.4 4.4A2.6 2.6 0 1 1 7.4 9.6A2.6 2.6 0 1 1 7.4 4.4ZM4.3 6.5L3.4 12H6.6L5.7 6.5Z",
    Suit.S: "M5 0C5 0 0 4 0 7.2C0 8.9 1.3 10.2 2.9 10.2C3.8 10.2 4.4 9.8 4.8 9.2L3.9 12H6.1L5.2 9.2"
    "C5.6 9.8 6.2 10.2 7.1 10.2C8.7 10.2 10 8.9 10 7.2C10 4 5 0 5 0Z",
}


def suit_svg(suit: Suit, size: float = 12.0, lang: str = "en") -> str:
    """A suit sign on its own, for running text, named to a screen reader in ``lang``.

    >>> suit_svg(Suit.D).startswith('<svg class="suit"')
    True
    >>> 'aria-label="schoppen"' in suit_svg(Suit.S, lang="nl")
    True
    """
    colour = RED if suit.is_red else BLACK
    name = suit.dutch if lang == "nl" else suit.english
    return (
        f'<svg class="suit" width="{size * 10 / 12:g}" height="{size:g}" viewBox="0 0 10 12" '
        f'role="img" aria-label="{name}"><path fill="{colour}" d="{_SUIT_PATHS[suit]}"/></svg>'
    )


def card_svg(card: Card, *, mark: str = "", lang: str = "en") -> str:
    """One card: the rank above the suit sign on a white card, in red or black, named to a screen
    reader in ``lang`` (a Dutch page read "7 spades" out; in Dutch ``schoppen zeven``).

    :param mark: ``played`` (outlined in gold) or ``better`` (outlined in green), or nothing.

    >>> drawn = card_svg(Card.parse("AD"), lang="nl") + card_svg(Card.parse("7S"))
    >>> re.findall(r'aria-label="([^"]*)"', drawn)
    ['koeken aas', '7 spades']
    """
    from ..analysis.words import card_nl

    colour = RED if card.suit.is_red else BLACK
    outline = {"played": ("#e0a800", 3), "better": (GAIN, 3)}.get(mark, ("#888888", 1))
    label = card_nl(int(card)) if lang == "nl" else f"{card.rank.text} {card.suit.english}"
    return (
        f'<svg class="card{" " + mark if mark else ""}" data-card="{card}" width="30" height="42" '
        f'viewBox="0 0 30 42" role="img" aria-label="{escape(label)}">'
        f'<rect x="1" y="1" width="28" height="40" rx="4" fill="#ffffff" stroke="{outline[0]}" '
        f'stroke-width="{outline[1]}"/>'
        f'<text x="15" y="17" text-anchor="middle" font-family="Georgia, serif" font-size="13" '
        f'font-weight="700" fill="{colour}">{escape(card.rank.text)}</text>'
        f'<g transform="translate(9.5 21) scale(1.1)">'
        f'<path fill="{colour}" d="{_SUIT_PATHS[card.suit]}"/></g>'
        "</svg>"
    )


# --------------------------------------------------------------------------- charts
# Text and axes are drawn in ``currentColor``: the page's own text colour, so a chart reads on a
# dark theme as on paper. Sizes are in the picture's own units; it scales to its container's width.

FONT = 11.0
"""The size of the axes' and legends' text."""
_CHAR = 0.54
"""A glyph's average width as a share of the font size (sans-serif), to keep labels apart."""
_GRID = 'stroke="currentColor" stroke-opacity="0.16"'
_AXIS = 'stroke="currentColor" stroke-opacity="0.45"'


MINUS = "\u2212"
"""The minus sign of every number the charts write (``−3``, not the hyphen of ``-3``)."""
NEGATIVE_FIGURE = r"(^|[^\w-])-(\d)"
"""A hyphen before a figure that is its minus sign (not ``3-2`` or a word's hyphen): a pattern
Rust's regex (polars) takes as Python's does, the sign's place in group 1 and the digit in 2."""


def minus_signs(text: str) -> str:
    """A finding's words with a real minus sign on negative figures (``−8.7``, not ``-8.7``), as
    the report and the dashboard's pages write them.

    >>> minus_signs("-0.8 scores -8.7 on average, 3-2 in tricks")
    '−0.8 scores −8.7 on average, 3-2 in tricks'
    """
    return re.sub(NEGATIVE_FIGURE, rf"\1{MINUS}\2", text)


def number(value: float, *, signed: bool = False, decimal: str = ".", digits: int = 1) -> str:
    """A figure as the charts and the report write it: ``digits`` decimals at most (no trailing
    zeros), and a real minus sign.

    :param decimal: the decimal sign (``","`` in Dutch).

    >>> number(-3.0, signed=True), number(2.25, signed=True), number(60.0), number(-0.44, decimal=",")
    ('−3', '+2.2', '60', '−0,4')
    >>> number(2.50, digits=2), number(2.6, digits=0), number(77.7499999999999), number(77.7500000000001)
    ('2.5', '3', '77.8', '77.8')
    """
    # a figure summed by DuckDB's threads in another order may land either side of a half
    # (77.7499999 or 77.7500001): settled first, the same report always prints the same digit
    value = round(value, 9)
    text = f"{abs(value):.{digits}f}"
    if "." in text:
        text = text.rstrip("0").removesuffix(".")
    text = text.replace(".", decimal)
    if value < 0 and text != "0":
        return MINUS + text
    return "+" + text if signed and text != "0" else text


def _tick(value: float, decimal: str = ".") -> str:
    """An axis tick: as many decimals as the step needs, a real minus sign.

    >>> _tick(-10.0), _tick(0.25), _tick(1e-12), _tick(1.5, ",")
    ('−10', '0.25', '0', '1,5')
    """
    text = f"{abs(round(value, 6)):g}".replace(".", decimal)
    return MINUS + text if value < 0 and text != "0" else text


def _width_of(text: str, size: float = FONT) -> float:
    return len(text) * size * _CHAR


def _nice_step(span: float, whole: bool = False) -> float:
    """A round step that cuts ``span`` into about five; with ``whole`` a whole number (a count).

    >>> _nice_step(60), _nice_step(0.9), _nice_step(0), _nice_step(1, whole=True), _nice_step(12, whole=True)
    (20.0, 0.2, 0.2, 1.0, 5.0)
    """
    raw = max(span, 1e-9) / 5 if span > 0 else 0.2
    if whole:
        raw = max(raw, 1.0)
    magnitude = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10) if whole else (1, 2, 2.5, 5, 10):
        if factor * magnitude >= raw * (1 - 1e-9):
            return float(factor * magnitude)
    return float(10 * magnitude)  # pragma: no cover - the loop ends at 10


def value_axis(low: float, high: float, whole: bool = False) -> tuple[float, float, float]:
    """The bottom, top and step of a value axis over ``low`` to ``high`` that includes 0; with
    ``whole``, an axis of counts, stepping by whole numbers (no 0.2 of a deal).

    >>> value_axis(3, 47), value_axis(-7, 12), value_axis(0, 1, whole=True)
    ((0.0, 50.0, 10.0), (-10.0, 15.0, 5.0), (0.0, 1.0, 1.0))
    """
    low, high = min(low, 0.0), max(high, 0.0)
    step = _nice_step(high - low, whole)
    bottom = step * math.floor(low / step + 1e-9)
    top = step * math.ceil(high / step - 1e-9)
    return bottom, max(top, bottom + step), step


def _attr(text: str) -> str:
    return escape(text, quote=True)


def _title(text: str) -> str:
    """A hover tooltip for the element it sits in."""
    return f"<title>{escape(text)}</title>" if text else ""


@dataclass(frozen=True, slots=True)
class Series:
    """One line (or a row of marks) of a chart."""

    name: str
    """Its name in the legend."""
    colour: str
    """Its colour."""
    values: Sequence[float | None]
    """One value per x position; ``None`` leaves a gap."""
    hover: Sequence[str] | None = None
    """The tooltip of each point (``name · label: value`` when absent)."""
    marker: str = "dot"
    """Each point's mark: ``dot``, ``diamond``, ``cross``, ``ring``."""
    line: bool = True
    """Whether the points are joined (a row of marks only when false)."""


@dataclass(frozen=True, slots=True)
class Bars:
    """One series of bars: a bar per category."""

    name: str
    """Its name in the legend (no entry when empty)."""
    colour: str | Sequence[str]
    """One colour, or one per bar."""
    values: Sequence[float]
    """One value per category."""
    labels: Sequence[str] | None = None
    """A text over each bar (none when absent)."""
    hover: Sequence[str] | None = None
    """The tooltip of each bar (``name · category: value`` when absent)."""

    def colour_of(self, index: int) -> str:
        """The colour of bar ``index``."""
        return self.colour if isinstance(self.colour, str) else self.colour[index % len(self.colour)]


@dataclass(frozen=True, slots=True)
class _Legend:
    name: str
    colour: str
    mark: str  # bar, line, or a marker


def _mark(kind: str, x: float, y: float, colour: str, size: float = 3.0) -> str:
    """One point's mark centred on ``x, y``."""
    if kind == "diamond":
        s = size * 2.2
        return (
            f'<path d="M{x:.1f} {y - s:.1f}L{x + s:.1f} {y:.1f}L{x:.1f} {y + s:.1f}L{x - s:.1f} {y:.1f}Z" '
            f'fill="{colour}"/>'
        )
    if kind == "cross":
        s = size * 1.8
        return (
            f'<path d="M{x - s:.1f} {y - s:.1f}L{x + s:.1f} {y + s:.1f}M{x - s:.1f} {y + s:.1f}L{x + s:.1f} '
            f'{y - s:.1f}" stroke="{colour}" stroke-width="2.5"/>'
        )
    if kind == "ring":
        return (
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{size * 2:.1f}" fill="none" stroke="{colour}" '
            'stroke-width="2"/>'
        )
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{size:.1f}" fill="{colour}"/>'


def _legend_rows(entries: Sequence[_Legend], room: float) -> list[list[tuple[float, _Legend]]]:
    """The legend's entries in rows that fit ``room``: each entry with its x offset."""
    rows: list[list[tuple[float, _Legend]]] = [[]]
    x = 0.0
    for entry in entries:
        wide = 18 + _width_of(entry.name) + 14
        if rows[-1] and x + wide > room:
            rows.append([])
            x = 0.0
        rows[-1].append((x, entry))
        x += wide
    return rows if rows[0] else []


def _draw_legend(rows: list[list[tuple[float, _Legend]]], left: float, top: float) -> str:
    parts = []
    for line, row in enumerate(rows):
        y = top + 16 * line
        for x, entry in row:
            x0 = left + x
            if entry.mark == "bar":
                sample = f'<rect x="{x0:.1f}" y="{y - 9:.1f}" width="12" height="10" fill="{entry.colour}"/>'
            elif entry.mark == "line":
                sample = (
                    f'<line x1="{x0:.1f}" x2="{x0 + 14:.1f}" y1="{y - 4:.1f}" y2="{y - 4:.1f}" '
                    f'stroke="{entry.colour}" stroke-width="2.5"/>'
                    + _mark("dot", x0 + 7, y - 4, entry.colour)
                )
            else:
                sample = _mark(entry.mark, x0 + 7, y - 4, entry.colour, 2.5)
            parts.append(
                f'<g class="chart-legend">{sample}<text x="{x0 + 18:.1f}" y="{y:.1f}">'
                f"{escape(entry.name)}</text></g>"
            )
    return "".join(parts)


@dataclass(frozen=True, slots=True)
class _XLabels:
    """How the category labels under a chart are laid out so that none overlap."""

    every: int
    """Every how many-th label is written (the others are left to the tooltips)."""
    slanted: bool
    """Written at 45 degrees."""
    texts: tuple[str, ...]
    """The labels, shortened when slanted."""
    room: float
    """The height they take under the plot."""


_LONGEST_SLANTED = 22


def _shortened(label: str) -> str:
    """A slanted label of at most :data:`_LONGEST_SLANTED` characters, cut after a whole word
    when one ends in its second half: "zwaan-2026-08-18-1 …", not "zwaan-2026-08-18-1 (2…",
    whose match id a reader could no longer tell from the others'; a name whose first word is
    short is cut at the limit ("Jan Vandenbroucke-Ver…", not "Jan …").

    >>> _shortened("zwaan-2026-08-18-1 (club evening 3)"), _shortened("Anna")
    ('zwaan-2026-08-18-1 …', 'Anna')
    >>> _shortened("Jan Vandenbroucke-Verhaegen")
    'Jan Vandenbroucke-Ver…'
    """
    if len(label) <= _LONGEST_SLANTED:
        return label
    cut = label.rfind(" ", 0, _LONGEST_SLANTED - 1)
    whole = cut >= _LONGEST_SLANTED // 2
    return (label[: cut + 1] if whole else label[: _LONGEST_SLANTED - 1]) + "…"


def _x_labels(labels: Sequence[str], slot: float) -> _XLabels:
    """Upright when they fit their slot, else slanted, and thinned when even that is too tight."""
    widest = max((_width_of(label) for label in labels), default=0.0)
    if widest <= slot:
        return _XLabels(1, False, tuple(labels), FONT + 6)
    if widest <= _width_of("00000"):  # short labels (deal numbers): upright, every n-th
        return _XLabels(math.ceil((widest + 6) / max(slot, 1e-9)), False, tuple(labels), FONT + 6)
    texts = tuple(_shortened(label) for label in labels)
    longest = max(_width_of(text) for text in texts)
    every = math.ceil((FONT * 1.5) / max(slot, 1e-9))
    return _XLabels(every, True, texts, longest * math.sqrt(0.5) + FONT + 6)


def _written(index: int, count: int, every: int) -> bool:
    """Whether label ``index`` of ``count`` is written: every n-th and the last, but none so near
    the last that the two would touch."""
    if index == count - 1:
        return True
    return not (index % every or (every > 1 and count - 1 - index < every))


def _draw_x_labels(layout: _XLabels, centres: Sequence[float], y: float) -> str:
    parts = []
    count = len(centres)
    for index, (x, text) in enumerate(zip(centres, layout.texts, strict=True)):
        if not _written(index, count, layout.every):
            continue
        if layout.slanted:
            parts.append(
                f'<text transform="translate({x:.1f} {y + 4:.1f}) rotate(-45)" text-anchor="end">'
                f"{escape(text)}</text>"
            )
        else:
            parts.append(
                f'<text x="{x:.1f}" y="{y + FONT + 2:.1f}" text-anchor="middle">{escape(text)}</text>'
            )
    return "".join(parts)


LABEL_FLOOR = 7.0
"""The smallest size a label is shrunk to so that its longest word fits under its bar."""


def _wrapped(label: str, room: float, size: float) -> list[str]:
    """A label cut into lines at spaces so that each fits ``room`` (a long word keeps its line)."""
    lines: list[str] = []
    for word in label.split(" "):
        if lines and _width_of(lines[-1] + " " + word, size) <= room:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


TITLE_SIZE = 14.0
"""The size of a chart's title, one line under another 18 units apart from ``y=18``."""


def _title_lines(title: str, width: float) -> tuple[list[str], float]:
    """A chart's title cut into lines that fit the picture 4 units from either side, and its size:
    smaller than :data:`TITLE_SIZE` only for a word too long for a line of its own.

    >>> _title_lines("Points taken deal by deal", 120)
    (['Points taken', 'deal by deal'], 14.0)
    >>> _title_lines("Puntenverloop", 60)
    (['Puntenverloop'], 7.4)
    """
    room = width - 8
    lines = _wrapped(title, room, TITLE_SIZE)
    widest = max(_width_of(line, TITLE_SIZE) for line in lines)
    return lines, TITLE_SIZE if widest <= room else round(TITLE_SIZE * room / widest - 0.05, 1)


def _draw_title(lines: Sequence[str], size: float) -> str:
    return "".join(
        f'<text x="4" y="{18 + 18 * line}" font-size="{size:g}" font-weight="600">{escape(chunk)}</text>'
        for line, chunk in enumerate(lines)
    )


@dataclass(frozen=True, slots=True)
class _Plot:
    """The plotting area of a chart and its value axis."""

    left: float
    top: float
    width: float
    height: float
    bottom_value: float
    top_value: float

    def y(self, value: float) -> float:
        """The height of ``value`` on the picture."""
        span = self.top_value - self.bottom_value
        return self.top + self.height * (self.top_value - value) / span


def _frame(
    *,
    width: int,
    height: int,
    title: str,
    y_title: str,
    x_title: str,
    legend: Sequence[_Legend],
    values: Sequence[float],
    labels: Sequence[str],
    slots: int,
    label_room: float | None = None,
    note: str = "",
    first_x: float = 0.5,
    inset: float = 0.0,
    decimal: str = ".",
    whole: bool = False,
) -> tuple[list[str], _Plot, _XLabels]:
    """A chart's frame: title, legend, the value axis with its grid, and the room for the x labels.

    :param slots: how many x positions share the plot's width (categories, or gaps between points).
    :param label_room: the height the x labels need, when the chart writes its own.
    :param note: a line under the title (what the numbers over the bars are, say).
    :param first_x: where the first x position is, in slots from the plot's left edge.
    :param inset: how far in from each side of the plot the x positions start (a line's padding).
    :param whole: the values are counts: the axis steps by whole numbers.
    """
    bottom_value, top_value, step = value_axis(min(values, default=0), max(values, default=0), whole)
    ticks = [bottom_value + step * i for i in range(round((top_value - bottom_value) / step) + 1)]
    left = max(_width_of(_tick(v, decimal)) for v in ticks) + 10 + (FONT + 6 if y_title else 0)
    right = 12.0
    layout = _x_labels(labels, (width - left - right - 2 * inset) / max(slots, 1))
    if label_room is not None:
        layout = _XLabels(1, False, tuple(labels), label_room)
    elif first_x == 0 and len(labels) > 1 and not layout.slanted:
        # the first and the last upright label are centred on the plot's end points: the margins
        # make room for their halves (then the slots are narrower, and the labels laid out again)
        left = max(left, _width_of(labels[0]) / 2 + 4 - inset)
        right = max(right, _width_of(labels[-1]) / 2 + 4 - inset)
        layout = _x_labels(labels, (width - left - right - 2 * inset) / max(slots, 1))
    bottom = layout.room + (FONT + 10 if x_title else 4)
    if layout.slanted:
        # a slanted label reaches left of its bar (a short first one's neighbour may reach further):
        # the plot moves in for the one that reaches furthest, then again as moving in narrowed the slots
        count = len(layout.texts)
        reaches = [
            (index + first_x, (_width_of(text) + FONT) * math.sqrt(0.5))
            for index, text in enumerate(layout.texts)
            if _written(index, count, layout.every)
        ]
        for _ in range(2):
            slot = (width - left - right - 2 * inset) / max(slots, 1)
            left = max(left, max(reach - inset - slot * place for place, reach in reaches) + 10)
    # the legend starts at the plot's left edge: fitted only once slanted labels have moved it
    rows = _legend_rows(legend, width - left - right)
    title_lines, title_size = _title_lines(title, width)
    below_title = 18.0 * (len(title_lines) - 1)
    head = 28.0 + below_title + (16 if note else 0)
    top = head + 16 * len(rows) + 8
    plot = _Plot(left, top, width - left - right, max(height - top - bottom, 40.0), bottom_value, top_value)
    parts = [
        f'<svg class="chart" viewBox="0 0 {width} {height}" width="100%" role="img" '
        f'aria-label="{_attr(title)}" fill="currentColor" font-size="{FONT:g}">',
        _draw_title(title_lines, title_size),
        f'<text x="4" y="{36 + below_title:g}" opacity="0.75">{escape(note)}</text>' if note else "",
        _draw_legend(rows, left, head + 12),
    ]
    for value in ticks:
        y = plot.y(value)
        grid = _AXIS if value == 0 else _GRID
        parts.append(
            f'<line x1="{left:.1f}" x2="{width - right:.1f}" y1="{y:.1f}" y2="{y:.1f}" {grid}/>'
            f'<text x="{left - 6:.1f}" y="{y + 4:.1f}" text-anchor="end">{_tick(value, decimal)}</text>'
        )
    if y_title:
        middle = plot.top + plot.height / 2
        parts.append(
            f'<text transform="translate({FONT + 2:g} {middle:.1f}) rotate(-90)" text-anchor="middle">'
            f"{escape(y_title)}</text>"
        )
    if x_title:
        parts.append(
            f'<text x="{left + plot.width / 2:.1f}" y="{height - 6}" text-anchor="middle">'
            f"{escape(x_title)}</text>"
        )
    return parts, plot, layout


def _hover(
    series_name: str, label: str, value: float, given: Sequence[str] | None, index: int, decimal: str
) -> str:
    if given is not None:
        return given[index]
    shown = number(value, decimal=decimal)
    return f"{series_name} · {label}: {shown}" if series_name else f"{label}: {shown}"


def _draw_series(
    series: Series, xs: Sequence[float], labels: Sequence[str], plot: _Plot, decimal: str = "."
) -> str:
    parts: list[str] = []
    if series.line:
        runs: list[list[str]] = [[]]
        for x, value in zip(xs, series.values, strict=True):
            if value is None:
                runs.append([])
            else:
                runs[-1].append(f"{x:.1f},{plot.y(value):.1f}")
        parts.extend(
            f'<polyline fill="none" stroke="{series.colour}" stroke-width="2.5" points="{" ".join(run)}"/>'
            for run in runs
            if len(run) > 1
        )
    for index, (x, value) in enumerate(zip(xs, series.values, strict=True)):
        if value is None:
            continue
        y = plot.y(value)
        tip = _hover(series.name, labels[index], value, series.hover, index, decimal)
        size = 3.0 if series.marker == "dot" else 3.2
        parts.append(
            f'<g class="point">{_title(tip)}{_mark(series.marker, x, y, series.colour, size)}'
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="8" fill="transparent"/></g>'
        )
    return "".join(parts)


def _legend_of(series: Sequence[Series]) -> list[_Legend]:
    return [_Legend(s.name, s.colour, "line" if s.line else s.marker) for s in series if s.name]


_LINE_PAD = 6.0
"""How far in from the plot's sides a line chart's first and last points stand."""


def line_chart(
    series: Sequence[Series],
    x_labels: Sequence[str],
    *,
    title: str,
    x_title: str,
    y_title: str = "",
    width: int = 640,
    height: int = 260,
    decimal: str = ".",
    whole: bool = False,
) -> str:
    """A line chart: one line per series over the x positions, a y axis through 0 with a grid, a
    legend under the title, and a tooltip on each point.

    :param series: the lines (and rows of marks, ``line=False``), each one value per x position.
    :param x_labels: what each x position is; labels that would overlap are thinned or slanted.
    :param decimal: the decimal sign of the numbers written (``","`` in Dutch).
    :param whole: the values are whole numbers (a match score): the axis steps by whole numbers
        (a score of 0-1 was drawn over 0.2, 0.4, ...; one of 0-15 over 2.5, 7.5, ...).
    """
    count = max(len(x_labels), 1)
    values = [v for s in series for v in s.values if v is not None]
    parts, plot, layout = _frame(
        width=width, height=height, title=title, y_title=y_title, x_title=x_title,
        legend=_legend_of(series), values=values, labels=x_labels, slots=max(count - 1, 1), first_x=0,
        inset=_LINE_PAD, decimal=decimal, whole=whole,
    )  # fmt: skip
    pad = _LINE_PAD

    def x(index: int) -> float:
        inner = plot.width - 2 * pad
        return plot.left + pad + (inner * index / (count - 1) if count > 1 else inner / 2)

    xs = [x(i) for i in range(len(x_labels))]
    parts.append(_draw_x_labels(layout, xs, plot.top + plot.height))
    parts.extend(_draw_series(s, xs, x_labels, plot, decimal) for s in series)
    parts.append("</svg>")
    return "".join(parts)


def bar_chart(
    categories: Sequence[str],
    bars: Sequence[Bars],
    *,
    title: str,
    y_title: str = "",
    x_title: str = "",
    stacked: bool = False,
    lines: Sequence[Series] = (),
    note: str = "",
    width: int = 640,
    height: int = 280,
    decimal: str = ".",
    whole: bool = False,
) -> str:
    """A bar chart: a group of bars per category, or one stacked bar (``stacked``: gains stack up
    from 0 and losses down, as Plotly's relative bars), optionally with lines over the categories.

    :param bars: the series of bars, each one value per category.
    :param lines: lines drawn over the bars, each one value per category.
    :param note: a line under the title.
    :param decimal: the decimal sign of the numbers written (``","`` in Dutch).
    :param whole: the values are counts: the axis steps by whole numbers.
    """
    count = max(len(categories), 1)
    if stacked:
        ups = [sum(max(b.values[i], 0.0) for b in bars) for i in range(len(categories))]
        downs = [sum(min(b.values[i], 0.0) for b in bars) for i in range(len(categories))]
        values = [*ups, *downs]
    else:
        values = [v for b in bars for v in b.values]
    values += [v for s in lines for v in s.values if v is not None]
    legend = [_Legend(b.name, b.colour_of(0), "bar") for b in bars if b.name] + _legend_of(lines)
    parts, plot, layout = _frame(
        width=width, height=height, title=title, y_title=y_title, x_title=x_title,
        legend=legend, values=values, labels=categories, slots=count, note=note, decimal=decimal,
        whole=whole,
    )  # fmt: skip
    slot = plot.width / count
    centres = [plot.left + slot * (i + 0.5) for i in range(len(categories))]
    parts.append(_draw_x_labels(layout, centres, plot.top + plot.height))
    # a bar keeps a bar's width in a wide slot (one partner, or the two dealer roles)
    thick = min(slot * 0.7, 64.0) if stacked else min(slot * 0.75 / max(len(bars), 1), 64.0)
    up = [0.0] * len(categories)
    down = [0.0] * len(categories)
    for number, series in enumerate(bars):
        for index, value in enumerate(series.values):
            if stacked:
                start = up[index] if value >= 0 else down[index]
                end = start + value
                if value >= 0:
                    up[index] = end
                else:
                    down[index] = end
                x0 = centres[index] - thick / 2
            else:
                start, end = 0.0, value
                x0 = centres[index] - thick * len(bars) / 2 + thick * number
            upper, lower = plot.y(max(start, end)), plot.y(min(start, end))
            tip = _hover(series.name, categories[index], value, series.hover, index, decimal)
            parts.append(
                f'<g class="bar">{_title(tip)}<rect x="{x0:.1f}" y="{upper:.1f}" width="{thick:.1f}" '
                f'height="{max(lower - upper, 0.5 if value else 0):.1f}" '
                f'fill="{series.colour_of(index)}"/></g>'
            )
            if series.labels is not None and series.labels[index]:
                # a loss's label sits over the zero line: under the bar it would meet the x labels
                above = upper - 4 if value >= 0 or stacked else plot.y(0) - 4
                parts.append(
                    f'<text x="{x0 + thick / 2:.1f}" y="{above:.1f}" text-anchor="middle">'
                    f"{escape(series.labels[index])}</text>"
                )
    parts.extend(_draw_series(s, centres, categories, plot, decimal) for s in lines)
    parts.append("</svg>")
    return "".join(parts)


@dataclass(frozen=True, slots=True)
class Step:
    """One bar of a waterfall."""

    label: str
    """What the bar is."""
    value: float
    """A change (up or down from the running total), or the total itself when ``total``."""
    total: bool = False
    """A bar from zero: the start and the end."""


LEDGER_STEPS = ("cards", "own", "partner", "opponents", "illegal", "points")
"""The ledger's steps, from the cards to the points taken (the keys of :func:`ledger_steps`' names)."""


def ledger_steps(ledger: Mapping[str, Any], names: Mapping[str, str]) -> list[Step]:
    """The luck and skill ledger of one player as a waterfall's steps: from what the cards were
    worth, down by the player's and the partner's decisions, up by the opponents' (and by illegal
    cards, when there were any), to the points taken.

    :param ledger: a ``player_ledger`` row: ``cards``, ``given_away``, ``partner_given_away``,
        ``won_back``, ``illegal``, ``points``.
    :param names: each step's label: ``cards``, ``own``, ``partner``, ``opponents``, ``illegal``,
        ``points``.
    """
    steps = [
        Step(names["cards"], float(ledger["cards"]), total=True),
        Step(names["own"], -float(ledger["given_away"])),
        Step(names["partner"], -float(ledger["partner_given_away"])),
        Step(names["opponents"], float(ledger["won_back"])),
    ]
    if ledger["illegal"]:
        steps.append(Step(names["illegal"], float(ledger["illegal"])))
    steps.append(Step(names["points"], float(ledger["points"]), total=True))
    return steps


def waterfall_spans(steps: Sequence[Step]) -> list[tuple[float, float]]:
    """Where each bar of a waterfall starts and ends."""
    running = 0.0
    spans: list[tuple[float, float]] = []
    for step in steps:
        start = 0.0 if step.total else running
        running = step.value if step.total else running + step.value
        spans.append((start, running))
    return spans


def waterfall(
    steps: Sequence[Step],
    *,
    title: str,
    y_title: str = "",
    total_colour: str = TOTAL,
    value_range: tuple[float, float] | None = None,
    width: int = 640,
    height: int = 230,
    decimal: str = ".",
) -> str:
    """A waterfall chart: totals as bars from zero, changes as green (gain) or red (loss) bars
    hanging from the running total, each labelled with its value and with a tooltip.

    :param total_colour: the colour of the totals (a player's team colour, say).
    :param value_range: the lowest and highest value the axis must show, to give several
        waterfalls side by side one scale.
    :param decimal: the decimal sign of the numbers written (``","`` in Dutch).
    """
    spans = waterfall_spans(steps)
    count = max(len(steps), 1)
    values = [v for span in spans for v in span]
    # the step labels wrap under their bars: their lines are the room the frame keeps; a word
    # wider than its bar's room ("onreglementaire" under a narrow chart) sets a smaller size for
    # every label, rather than running into its neighbour's
    room_guess = (width - 60) / count - 4
    widest_word = max((_width_of(w, 1.0) for s in steps for w in s.label.split(" ")), default=0.0)
    size = max(LABEL_FLOOR, min(10.5, round(room_guess / widest_word - 0.05, 1))) if widest_word else 10.5
    lines = max((len(_wrapped(s.label, room_guess, size)) for s in steps), default=1)
    parts, plot, _ = _frame(
        width=width, height=height, title=title, y_title=y_title, x_title="",
        legend=(), values=[*values, *(value_range or ())], labels=(), slots=count,
        label_room=6 + 13 * lines, decimal=decimal,
    )  # fmt: skip
    slot = plot.width / count
    for index, (step, (start, end)) in enumerate(zip(steps, spans, strict=True)):
        colour = total_colour if step.total else (GAIN if step.value >= 0 else LOSS)
        x0 = plot.left + index * slot + slot * 0.15
        upper, lower = plot.y(max(start, end)), plot.y(min(start, end))
        text = number(step.value, signed=not step.total, decimal=decimal)
        moved = f" ({number(start, decimal=decimal)} → {number(end, decimal=decimal)})"
        tip = f"{step.label}: {text}" + ("" if step.total else moved)
        parts.append(
            f'<g class="bar">{_title(tip)}<rect x="{x0:.1f}" y="{upper:.1f}" width="{slot * 0.7:.1f}" '
            f'height="{max(lower - upper, 1.0):.1f}" fill="{colour}"/></g>'
            f'<text x="{x0 + slot * 0.35:.1f}" y="{upper - 4:.1f}" text-anchor="middle">{escape(text)}</text>'
        )
        for line, chunk in enumerate(_wrapped(step.label, slot - 4, size)):
            parts.append(
                f'<text x="{x0 + slot * 0.35:.1f}" y="{plot.top + plot.height + 16 + 13 * line:.1f}" '
                f'font-size="{size:g}" text-anchor="middle">{escape(chunk)}</text>'
            )
    parts.append("</svg>")
    return "".join(parts)


def waterfall_rows(
    steps: Sequence[Step],
    *,
    title: str,
    total_colour: str = TOTAL,
    width: int = 340,
    decimal: str = ".",
) -> str:
    """A waterfall for a narrow column (a phone): a row per step, its label over a horizontal bar
    with its value at the bar's end, so no label has to share a narrow slot under a bar.

    Every text is :data:`FONT` units high (the title larger): drawn at ``width`` about a phone's
    column, the text reads at its full size.

    :param total_colour: the colour of the totals (a player's team colour, say).
    :param decimal: the decimal sign of the numbers written (``","`` in Dutch).
    """
    spans = waterfall_spans(steps)
    values = [v for span in spans for v in span]
    bottom_value, top_value, step = value_axis(min(values, default=0), max(values, default=0))
    ticks = [bottom_value + step * i for i in range(round((top_value - bottom_value) / step) + 1)]
    texts = [number(s.value, signed=not s.total, decimal=decimal) for s in steps]
    left = 6.0
    # the axis's numbers are centred on their grid lines: the plot starts far enough in for the
    # first one (a negative number, say) to keep the few units from the picture's edge a "0" has
    plot_left = max(left, _width_of(_tick(ticks[0], decimal)) / 2 + 3)
    right = max((_width_of(text) for text in texts), default=0.0) + 10
    plot_width = width - plot_left - right
    title_lines, title_size = _title_lines(title, width)
    axis_y = 18 + 18 * len(title_lines) + 4
    row = 34.0
    top = axis_y + 8
    height = top + row * len(steps) + 6

    def x(value: float) -> float:
        return plot_left + plot_width * (value - bottom_value) / (top_value - bottom_value)

    parts = [
        f'<svg class="chart" viewBox="0 0 {width} {height:g}" width="100%" role="img" '
        f'aria-label="{_attr(title)}" fill="currentColor" font-size="{FONT:g}">',
        _draw_title(title_lines, title_size),
    ]
    for value in ticks:
        grid = _AXIS if value == 0 else _GRID
        parts.append(
            f'<line x1="{x(value):.1f}" x2="{x(value):.1f}" y1="{top - 4:.1f}" y2="{height - 4:.1f}" {grid}/>'
            f'<text x="{x(value):.1f}" y="{axis_y:.1f}" text-anchor="middle">{_tick(value, decimal)}</text>'
        )
    for index, (item, (start, end), text) in enumerate(zip(steps, spans, texts, strict=True)):
        colour = total_colour if item.total else (GAIN if item.value >= 0 else LOSS)
        y = top + row * index
        x0, x1 = x(min(start, end)), x(max(start, end))
        x1 = max(x1, x0 + 1.0)  # a change of nothing is a sliver
        moved = f" ({number(start, decimal=decimal)} → {number(end, decimal=decimal)})"
        tip = f"{item.label}: {text}" + ("" if item.total else moved)
        parts.append(
            f'<text x="{left:.1f}" y="{y + 11:.1f}">{escape(item.label)}</text>'
            f'<g class="bar">{_title(tip)}<rect x="{x0:.1f}" y="{y + 15:.1f}" width="{x1 - x0:.1f}" '
            f'height="13" fill="{colour}"/></g>'
            f'<text x="{x1 + 4:.1f}" y="{y + 25.5:.1f}">{escape(text)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)
