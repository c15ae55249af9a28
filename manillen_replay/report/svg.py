"""Pictures for the report as inline SVG: cards, the score line and the ledger's waterfall.

Pure functions returning SVG text. Nothing refers outside the text itself (no fonts to load, no
images): a report made of them opens offline and prints as it looks. Suit signs are drawn as
paths, so they look the same whatever fonts the reader's phone has.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from ..cards import Card, Suit

RED = "#c8102e"
BLACK = "#111111"
TEAM_COLOURS = ("#1f77b4", "#d62728")
"""Team 0 blue, team 1 red: the dashboard's colours."""
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


def suit_svg(suit: Suit, size: float = 12.0) -> str:
    """A suit sign on its own, for running text.

    >>> suit_svg(Suit.D).startswith('<svg class="suit"')
    True
    """
    colour = RED if suit.is_red else BLACK
    return (
        f'<svg class="suit" width="{size * 10 / 12:g}" height="{size:g}" viewBox="0 0 10 12" '
        f'role="img" aria-label="{suit.english}"><path fill="{colour}" d="{_SUIT_PATHS[suit]}"/></svg>'
    )


def card_svg(card: Card, *, mark: str = "") -> str:
    """One card: the rank above the suit sign on a white card, in red or black.

    :param mark: ``played`` (outlined in gold) or ``better`` (outlined in green), or nothing.
    """
    colour = RED if card.suit.is_red else BLACK
    outline = {"played": ("#e0a800", 3), "better": (GAIN, 3)}.get(mark, ("#888888", 1))
    label = f"{card.rank.text} {card.suit.english}"
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


def _number(value: float, *, signed: bool = False) -> str:
    """A chart label: one decimal at most, and a real minus sign.

    >>> _number(-3.0, signed=True), _number(2.25, signed=True), _number(60.0)
    ('−3', '+2.2', '60')
    """
    text = f"{abs(value):.1f}".removesuffix(".0")
    if value < 0 and text != "0":
        return "−" + text
    return "+" + text if signed and text != "0" else text


def _chart_open(width: int, height: int, title: str) -> str:
    return (
        f'<svg class="chart" viewBox="0 0 {width} {height}" width="100%" role="img" '
        f'aria-label="{escape(title)}">'
    )


@dataclass(frozen=True, slots=True)
class Series:
    """One line of a line chart."""

    name: str
    """Its name in the legend."""
    colour: str
    """Its colour."""
    values: Sequence[float]
    """One value per x position."""


def _nice_step(span: float) -> float:
    raw = max(span, 1.0) / 5
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if step >= raw:
            return float(step)
    return float(round(raw, -3))


def line_chart(
    series: Sequence[Series],
    x_labels: Sequence[str],
    *,
    title: str,
    x_title: str,
    width: int = 640,
    height: int = 260,
) -> str:
    """A line chart: one line per series over the x positions, a y axis from 0 with a grid.

    The picture scales to its container's width (``viewBox``).
    """
    left, right, top, bottom = 44, 12, 30, 46
    plot_w, plot_h = width - left - right, height - top - bottom
    count = max(len(x_labels), 1)
    high = max([0.0, *(v for s in series for v in s.values)])
    low = min([0.0, *(v for s in series for v in s.values)])
    step = _nice_step(high - low)
    top_value = step * max(1, -(-high // step))
    bottom_value = -step * (-low // step) if low < 0 else 0.0

    def x(index: int) -> float:
        return left + (plot_w * index / (count - 1) if count > 1 else plot_w / 2)

    def y(value: float) -> float:
        return top + plot_h * (top_value - value) / (top_value - bottom_value)

    parts = [
        _chart_open(width, height, title),
        f'<text x="{left}" y="18" font-size="14" font-weight="600">{escape(title)}</text>',
    ]
    value = bottom_value
    while value <= top_value + 1e-9:
        parts.append(
            f'<line x1="{left}" x2="{width - right}" y1="{y(value):.1f}" y2="{y(value):.1f}" '
            'stroke="#dddddd"/>'
            f'<text x="{left - 6}" y="{y(value) + 4:.1f}" font-size="11" text-anchor="end">{value:g}</text>'
        )
        value += step
    every = max(1, count // 12)
    for index, label in enumerate(x_labels):
        if index % every == 0 or index == count - 1:
            parts.append(
                f'<text x="{x(index):.1f}" y="{height - bottom + 16}" font-size="11" '
                f'text-anchor="middle">{escape(label)}</text>'
            )
    parts.append(
        f'<text x="{left + plot_w / 2:.1f}" y="{height - bottom + 32}" font-size="11" '
        f'text-anchor="middle">{escape(x_title)}</text>'
    )
    for s in series:
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(s.values))
        parts.append(
            f'<polyline fill="none" stroke="{s.colour}" stroke-width="2.5" points="{points}"/>'
            + "".join(
                f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="2.5" fill="{s.colour}"/>'
                for i, v in enumerate(s.values)
            )
        )
    legend_x = left
    for s in series:
        parts.append(
            f'<rect x="{legend_x}" y="{height - 12}" width="12" height="4" fill="{s.colour}"/>'
            f'<text x="{legend_x + 16}" y="{height - 7}" font-size="11">{escape(s.name)}</text>'
        )
        legend_x += 24 + 7 * len(s.name)
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


def waterfall(steps: Sequence[Step], *, title: str, width: int = 640, height: int = 230) -> str:
    """A waterfall chart: totals as grey bars from zero, changes as green (gain) or red (loss)
    bars hanging from the running total, each labelled with its value."""
    left, right, top, bottom = 40, 10, 44, 48
    plot_w, plot_h = width - left - right, height - top - bottom
    running = 0.0
    spans: list[tuple[float, float]] = []
    for step in steps:
        if step.total:
            spans.append((0.0, step.value))
            running = step.value
        else:
            spans.append((running, running + step.value))
            running += step.value
    high = max([1.0, *(max(a, b) for a, b in spans)])
    low = min([0.0, *(min(a, b) for a, b in spans)])

    def y(value: float) -> float:
        return top + plot_h * (high - value) / (high - low)

    slot = plot_w / max(len(steps), 1)
    parts = [
        _chart_open(width, height, title),
        f'<text x="{left}" y="18" font-size="14" font-weight="600">{escape(title)}</text>',
        f'<line x1="{left}" x2="{width - right}" y1="{y(0):.1f}" y2="{y(0):.1f}" stroke="#999999"/>',
    ]
    for index, (step, (start, end)) in enumerate(zip(steps, spans, strict=True)):
        colour = TOTAL if step.total else (GAIN if step.value >= 0 else LOSS)
        x0 = left + index * slot + slot * 0.15
        upper, lower = y(max(start, end)), y(min(start, end))
        text = _number(step.value, signed=not step.total)
        parts.append(
            f'<rect x="{x0:.1f}" y="{upper:.1f}" width="{slot * 0.7:.1f}" '
            f'height="{max(lower - upper, 1.0):.1f}" '
            f'fill="{colour}"/>'
            f'<text x="{x0 + slot * 0.35:.1f}" y="{upper - 4:.1f}" font-size="11" text-anchor="middle">'
            f"{escape(text)}</text>"
        )
        words = step.label.split(" ")
        half = (len(words) + 1) // 2
        for line, chunk in enumerate((" ".join(words[:half]), " ".join(words[half:]))):
            if chunk:
                parts.append(
                    f'<text x="{x0 + slot * 0.35:.1f}" y="{height - bottom + 16 + 13 * line}" '
                    'font-size="10.5" '
                    f'text-anchor="middle">{escape(chunk)}</text>'
                )
    parts.append("</svg>")
    return "".join(parts)
