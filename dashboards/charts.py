"""The dashboard's charts, each twice: a static SVG picture (``*_svg``, drawn on the server by
:mod:`manillen_replay.report.svg`, the report's drawer) for the page's first view, and the
interactive Plotly figure (``*_figure``) shown on demand. Pure functions, data in, picture out;
the only plotly import.

A page's first Plotly chart makes the browser load and evaluate plotly.js (4.7 MB, about a second
in each new tab), so the pages show the SVG unless the person asks for the interactive chart.
Every label arrives as an argument, and so does the decimal sign of the numbers they write
(``decimal``: ``","`` in Dutch), so the pages choose the language and the charts stay free of
Streamlit and of the archive.
"""

from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go
import polars as pl

from manillen_replay.report import svg

TEAM_COLOURS = ("#1f77b4", "#d62728")
"""Team 0 blue, team 1 red, on every chart."""
SERIES_COLOURS = (*TEAM_COLOURS, "#2ca02c")
"""Team colours, and a third for the three-player games' per-person scores."""

KIND_COLOURS: tuple[str, ...] = (
    "#1F77B4", "#FB0D0D", "#BCBD22", "#DA16FF", "#222A2A", "#1CA71C", "#511CFB", "#E377C2",
    "#750D86", "#EB663B", "#7F7F7F", "#FC0080", "#862A16", "#1616A7", "#17BECF", "#B68100",
    "#6C7C32", "#A777F1", "#AF0038", "#00A08B", "#620042", "#0D2A63", "#2E91E5", "#8C564B",
)  # fmt: skip
"""The finding kinds' colours in the stacked bars, in the kinds' sorted order, one for each of
the built-in kinds (22), none shared: Plotly's D3, Dark24 and Dark2 colours of a middle
lightness, each the farthest (redmean distance) from those before it. Plotly's Dark24 in its own
order gave neighbouring kinds two magentas ("failed to overtake" beside "missed vetten")."""
SEVERITY_COLOURS = {"info": "#7f7f7f", "inaccuracy": "#e6b800", "mistake": "#e6820e", "blunder": "#c8102e"}
"""Each severity's line, from grey (not a mistake) to red."""
DEALER_COLOURS = ("#1f6f43", "#8fbc8f")
"""As dealer and not."""
LEDGER_COLOURS = {
    "own": "#c8102e",
    "partner": "#f08080",
    "opponents": "#2e8b57",
    "illegal": "#6a5acd",
    "net": "#555555",
}
"""The ledger's bars match by match, and the line of their sum."""
MARKER_COLOURS = {"muil": "#7b3fa0", "klop": "#e6820e", "tie": "#555555"}
"""The marks on the score line over muil, klop and 30-30 deals."""
WIDE, NARROW = 720, 380
"""The SVG pictures' widths: for a computer's page and for a phone's (or a narrow column)."""

_LAYOUT = {
    "margin": {"l": 40, "r": 10, "t": 50, "b": 40},
    "legend": {"orientation": "h", "y": -0.18},
    # a value under the pointer to a tenth, as the bars' labels and the pages say it ("6,476274")
    "yaxis": {"hoverformat": ",.1~f"},
}


def _layout(decimal: str) -> dict[str, object]:
    """The figures' layout, its numbers with ``decimal`` as their decimal sign (Plotly's
    ``separators``: the decimal sign, then the thousands' one, a space as the pages write it)."""
    return {**_LAYOUT, "separators": f"{decimal} " if decimal != "." else ".,"}


def match_score_figure(
    deals: pl.DataFrame,
    *,
    series_names: Sequence[str],
    title: str,
    x_title: str,
    y_title: str,
    marker_names: dict[str, str],
    decimal: str = ".",
) -> go.Figure:
    """The match score after each deal, a line per team (or person), with markers on special deals.

    :param deals: one row per deal: ``deal``, ``score_0``, ``score_1``, ... (the match score after
        it, one column per name in ``series_names``) and the flags ``muil``, ``klop`` and ``tie``.
    :param series_names: whose score each ``score_i`` column is: the teams, or the people.
    :param marker_names: legend names for ``muil``, ``klop`` and ``tie``.
    """
    figure = go.Figure()
    columns = [f"score_{index}" for index in range(len(series_names))]
    for index, name in enumerate(series_names):
        figure.add_trace(
            go.Scatter(
                x=deals["deal"].to_list(),
                y=deals[columns[index]].to_list(),
                mode="lines+markers",
                name=name,
                line={"color": SERIES_COLOURS[index % len(SERIES_COLOURS)], "width": 3},
                marker={"size": 6},
            )
        )
    top = deals.select(pl.max_horizontal(*columns).alias("top"))["top"]
    symbols = {"muil": "diamond", "klop": "x", "tie": "circle-open"}
    colours = MARKER_COLOURS
    for flag, symbol in symbols.items():
        rows = deals.with_columns(top=top).filter(pl.col(flag))
        if rows.height == 0:
            continue
        figure.add_trace(
            go.Scatter(
                x=rows["deal"].to_list(),
                y=rows["top"].to_list(),
                mode="markers",
                name=marker_names[flag],
                marker={"symbol": symbol, "size": 14, "color": colours[flag], "line": {"width": 2}},
                hoverinfo="name+x",
            )
        )
    figure.update_layout(title=title, xaxis_title=x_title, yaxis_title=y_title, **_layout(decimal))
    figure.update_xaxes(dtick=1)
    # a score is whole points: whole steps (Plotly's own drew 0.2s and 2.5s)
    scores = [v for c in columns for v in deals[c].to_list() if v is not None]
    _, _, step = svg.value_axis(min(scores, default=0), max(scores, default=0), whole=True)
    figure.update_yaxes(tick0=0, dtick=step)
    return figure


def kind_colours(kinds: Sequence[str], every_kind: Sequence[str] = ()) -> dict[str, str]:
    """Each kind's colour in the stacked bars, by its place among ``every_kind`` (the kinds the
    archive has), so a kind keeps its colour whichever others a filter leaves; kinds not there
    follow, sorted.

    >>> kind_colours(["b"], ["a", "b"]) == {"b": KIND_COLOURS[1]}
    True
    """
    order = list(every_kind) + sorted(set(kinds) - set(every_kind))
    place = {kind: index for index, kind in enumerate(order)}
    return {kind: KIND_COLOURS[place[kind] % len(KIND_COLOURS)] for kind in sorted(set(kinds))}


def findings_rate_figure(
    rates: pl.DataFrame, *, title: str, y_title: str, every_kind: Sequence[str] = (), decimal: str = "."
) -> go.Figure:
    """Findings per 100 cards played, one group of bars per player, one colour per kind.

    :param rates: ``player``, ``kind``, ``per_100``.
    :param every_kind: the kinds whose order gives the colours (:func:`kind_colours`).
    """
    figure = go.Figure()
    for kind, colour in kind_colours(rates["kind"].to_list(), every_kind).items():
        rows = rates.filter(pl.col("kind") == kind)
        figure.add_trace(
            go.Bar(
                x=rows["player"].to_list(),
                y=rows["per_100"].to_list(),
                name=kind.replace("_", " "),
                marker_color=colour,
            )
        )
    figure.update_layout(title=title, yaxis_title=y_title, barmode="stack", **_layout(decimal))
    return figure


def dealer_points_figure(points: pl.DataFrame, *, title: str, y_title: str, decimal: str = ".") -> go.Figure:
    """Points per deal as dealer and not: two bars.

    :param points: ``role`` (the bar's label) and ``points_per_deal``.
    """
    figure = go.Figure(
        go.Bar(
            x=points["role"].to_list(),
            y=points["points_per_deal"].to_list(),
            marker_color=list(DEALER_COLOURS[: points.height]),
            text=[
                f"{v:.1f}".replace(".", decimal).replace("-", svg.MINUS)
                for v in points["points_per_deal"].to_list()
            ],
            textposition="auto",
        )
    )
    figure.update_layout(title=title, yaxis_title=y_title, **_layout(decimal))
    return figure


def trump_choices_figure(choices: pl.DataFrame, *, title: str, y_title: str, decimal: str = ".") -> go.Figure:
    """How often a player made each trump (and muil) as dealer.

    :param choices: ``choice`` (label, red suits first in their colour) and ``deals``.
    """
    colours = _trump_colours(choices["choice"].to_list())
    figure = go.Figure(
        go.Bar(x=choices["choice"].to_list(), y=choices["deals"].to_list(), marker_color=colours)
    )
    figure.update_layout(title=title, yaxis_title=y_title, **_layout(decimal))
    # a count of deals: whole steps (Plotly's own cut 1 into 0.2s)
    _, _, step = svg.value_axis(0, max(choices["deals"].to_list(), default=0), whole=True)
    figure.update_yaxes(tick0=0, dtick=step)
    return figure


def rate_over_time_figure(
    rates: pl.DataFrame,
    *,
    title: str,
    y_title: str,
    severity_names: dict[str, str] | None = None,
    decimal: str = ".",
) -> go.Figure:
    """Findings per 100 cards month by month, one line per severity.

    :param rates: ``month`` (its label), ``severity``, ``per_100``, months in order.
    :param severity_names: the legend name of each severity (its stored value when absent).
    """
    figure = go.Figure()
    for severity in SEVERITY_COLOURS:
        rows = rates.filter(pl.col("severity") == severity)
        if rows.height:
            figure.add_trace(
                go.Scatter(
                    x=rows["month"].to_list(),
                    y=rows["per_100"].to_list(),
                    mode="lines+markers",
                    name=(severity_names or {}).get(severity, severity),
                    line={"color": SEVERITY_COLOURS[severity]},
                )
            )
    figure.update_layout(title=title, yaxis_title=y_title, **_layout(decimal))
    return figure


def partners_figure(
    partners: pl.DataFrame, *, title: str, y_title: str, hover_deals: str, decimal: str = "."
) -> go.Figure:
    """Points per deal with each partner, bars labelled with the number of deals together.

    :param partners: ``partner``, ``deals``, ``points_per_deal``.
    """
    figure = go.Figure(
        go.Bar(
            x=partners["partner"].to_list(),
            y=partners["points_per_deal"].to_list(),
            text=[f"{d} {hover_deals}" for d in partners["deals"].to_list()],
            textposition="auto",
            marker_color=TEAM_COLOURS[0],
        )
    )
    figure.update_layout(title=title, yaxis_title=y_title, **_layout(decimal))
    return figure


def ledger_figure(
    ledger: pl.DataFrame, *, title: str, step_names: dict[str, str], y_title: str, decimal: str = "."
) -> go.Figure:
    """The luck and skill ledger as a waterfall per player, side by side: from the cards, down by
    the player's and the partner's decisions, up by the opponents', to the points taken.

    :param ledger: ``player_ledger`` rows: ``player``, ``cards``, ``given_away``,
        ``partner_given_away``, ``won_back``, ``illegal``, ``points``.
    :param step_names: the label of each step: ``cards``, ``own``, ``partner``, ``opponents``,
        ``illegal`` and ``points``.
    """
    figure = go.Figure()
    steps = ["cards", "own", "partner", "opponents", "illegal", "points"]
    for index, row in enumerate(ledger.iter_rows(named=True)):
        values = [
            row["cards"], -row["given_away"], -row["partner_given_away"], row["won_back"], row["illegal"],
            row["points"],
        ]  # fmt: skip
        figure.add_trace(
            go.Waterfall(
                name=row["player"],
                x=[step_names[s] for s in steps],
                y=values,
                measure=["absolute", "relative", "relative", "relative", "relative", "total"],
                text=[
                    (f"{v:+d}" if 0 < i < 5 else str(v)).replace("-", svg.MINUS) for i, v in enumerate(values)
                ],
                offsetgroup=str(index),
                increasing={"marker": {"color": "#2e8b57"}},
                decreasing={"marker": {"color": "#c8102e"}},
                # grey, as the report's: rows come by name, not by team (and partners change in a
                # club evening), and team B's red read as a loss beside the red of the losses
                totals={"marker": {"color": svg.TOTAL}},
                connector={"line": {"color": "#999999", "width": 1}},
            )
        )
    figure.update_layout(title=title, yaxis_title=y_title, waterfallmode="group", **_layout(decimal))
    return figure


def ledger_matches_figure(
    ledger: pl.DataFrame, *, title: str, step_names: dict[str, str], y_title: str, decimal: str = "."
) -> go.Figure:
    """Match by match, what decisions did to one player's points: the player's own, the partner's and
    the opponents' as bars, and their sum (the points taken minus what the cards were worth) as a line.

    :param ledger: ``player_ledger`` rows of scope ``match``: ``match_id``, ``evening``,
        ``given_away``, ``partner_given_away``, ``won_back``, ``illegal``, ``cards``, ``points``.
    :param step_names: labels for ``own``, ``partner``, ``opponents``, ``illegal`` and ``net``.
    """
    rows = ledger.sort(["evening", "match_id"])
    labels = _match_labels(rows)
    figure = go.Figure()
    for key, values in _ledger_bars(rows).items():
        figure.add_trace(go.Bar(x=labels, y=values, name=step_names[key], marker_color=LEDGER_COLOURS[key]))
    net = (rows["points"] - rows["cards"]).to_list()
    figure.add_trace(
        go.Scatter(
            x=labels,
            y=net,
            mode="lines+markers",
            name=step_names["net"],
            line={"color": LEDGER_COLOURS["net"]},
        )
    )
    figure.update_layout(title=title, yaxis_title=y_title, barmode="relative", **_layout(decimal))
    return figure


def warm() -> None:
    """Build and serialise one tiny figure with every trace type and option the charts use.

    Plotly imports the validator of each trace, attribute and layout part the first time a
    figure uses it: most of a second on a busy two-core machine, which the first page with a
    chart would wait for. ``dashboards/serve.py`` calls this while the server starts.
    """
    figure = go.Figure(
        [
            go.Scatter(
                x=[1],
                y=[1],
                mode="lines+markers",
                name="a",
                line={"color": TEAM_COLOURS[0], "width": 3},
                marker={"symbol": "x", "size": 6, "color": "#111", "line": {"width": 2}},
                hoverinfo="name+x",
            ),
            go.Bar(x=["a"], y=[1], name="a", marker_color=["#111"], text=["1"], textposition="auto"),
            go.Waterfall(
                x=["a"],
                y=[1],
                measure=["absolute"],
                text=["1"],
                offsetgroup="0",
                connector={"line": {"color": "#111", "width": 1}},
                increasing={"marker": {"color": "#111"}},
                decreasing={"marker": {"color": "#111"}},
                totals={"marker": {"color": "#111"}},
            ),
        ]
    )
    figure.update_layout(title="a", xaxis_title="a", yaxis_title="a", barmode="stack", **_layout("."))
    figure.update_layout(waterfallmode="group")
    figure.update_xaxes(dtick=1)
    figure.to_json()


# --------------------------------------------------------------------------- static SVG pictures


def _trump_colours(choices: Sequence[str]) -> list[str]:
    return [svg.RED if ("♥" in c or "♦" in c) else svg.BLACK for c in choices]


def _match_labels(rows: pl.DataFrame) -> list[str]:
    return [
        f"{m} ({e})" if e is not None else m for m, e in zip(rows["match_id"], rows["evening"], strict=True)
    ]


def _ledger_bars(rows: pl.DataFrame) -> dict[str, list[float]]:
    """What the player's, the partner's and the opponents' decisions did, match by match, and
    illegal cards when any changed something: the bars add up to the line of their sum."""
    bars = {
        "own": [-float(v) for v in rows["given_away"].to_list()],
        "partner": [-float(v) for v in rows["partner_given_away"].to_list()],
        "opponents": [float(v) for v in rows["won_back"].to_list()],
    }
    illegal = [float(v) for v in rows["illegal"].to_list()]
    if any(illegal):
        bars["illegal"] = illegal
    return bars


def match_score_svg(
    deals: pl.DataFrame,
    *,
    series_names: Sequence[str],
    title: str,
    x_title: str,
    y_title: str,
    marker_names: dict[str, str],
    width: int = WIDE,
    decimal: str = ".",
) -> str:
    """:func:`match_score_figure` as an SVG picture: the lines, and the marks over special deals."""
    labels = [str(d) for d in deals["deal"].to_list()]
    columns = [f"score_{index}" for index in range(len(series_names))]
    lines = [
        svg.Series(name, SERIES_COLOURS[index % len(SERIES_COLOURS)], deals[columns[index]].to_list())
        for index, name in enumerate(series_names)
    ]
    top = deals.select(pl.max_horizontal(*columns).alias("top"))["top"].to_list()
    marks = {"muil": "diamond", "klop": "cross", "tie": "ring"}
    for flag, mark in marks.items():
        flagged = deals[flag].to_list()
        if any(flagged):
            values = [t if f else None for t, f in zip(top, flagged, strict=True)]
            hover = [f"{marker_names[flag]} · {x_title} {label}" for label in labels]
            lines.append(
                svg.Series(marker_names[flag], MARKER_COLOURS[flag], values, hover, mark, line=False)
            )
    return svg.line_chart(
        lines, labels, title=title, x_title=x_title, y_title=y_title, width=width, height=300,
        decimal=decimal, whole=True,
    )  # fmt: skip


def findings_rate_svg(
    rates: pl.DataFrame,
    *,
    title: str,
    y_title: str,
    every_kind: Sequence[str] = (),
    width: int = WIDE,
    decimal: str = ".",
) -> str:
    """:func:`findings_rate_figure` as an SVG picture: a stacked bar per player."""
    players = sorted(rates["player"].unique().to_list())
    bars = []
    for kind, colour in kind_colours(rates["kind"].to_list(), every_kind).items():
        per_player = dict(rates.filter(pl.col("kind") == kind).select("player", "per_100").iter_rows())
        bars.append(
            svg.Bars(kind.replace("_", " "), colour, [float(per_player.get(p) or 0.0) for p in players])
        )
    return svg.bar_chart(
        players, bars, title=title, y_title=y_title, stacked=True, width=width, height=320, decimal=decimal
    )


def dealer_points_svg(
    points: pl.DataFrame, *, title: str, y_title: str, width: int = WIDE, decimal: str = "."
) -> str:
    """:func:`dealer_points_figure` as an SVG picture."""
    values = [float(v) for v in points["points_per_deal"].to_list()]
    bar = svg.Bars("", list(DEALER_COLOURS), values, [svg.number(v, decimal=decimal) for v in values])
    return svg.bar_chart(
        points["role"].to_list(), [bar], title=title, y_title=y_title, width=width, decimal=decimal
    )


def trump_choices_svg(
    choices: pl.DataFrame, *, title: str, y_title: str, width: int = WIDE, decimal: str = "."
) -> str:
    """:func:`trump_choices_figure` as an SVG picture, the counts over the bars."""
    labels = choices["choice"].to_list()
    values = [float(v) for v in choices["deals"].to_list()]
    bar = svg.Bars("", _trump_colours(labels), values, [svg.number(v, decimal=decimal) for v in values])
    return svg.bar_chart(
        labels, [bar], title=title, y_title=y_title, width=width, decimal=decimal, whole=True
    )


def rate_over_time_svg(
    rates: pl.DataFrame,
    *,
    title: str,
    y_title: str,
    severity_names: dict[str, str] | None = None,
    width: int = WIDE,
    decimal: str = ".",
) -> str:
    """:func:`rate_over_time_figure` as an SVG picture: a line per severity over the months."""
    months = rates["month"].unique(maintain_order=True).to_list()
    lines = []
    for severity, colour in SEVERITY_COLOURS.items():
        per_month = dict(rates.filter(pl.col("severity") == severity).select("month", "per_100").iter_rows())
        if per_month:
            values = [None if per_month.get(m) is None else float(per_month[m]) for m in months]
            lines.append(svg.Series((severity_names or {}).get(severity, severity), colour, values))
    return svg.line_chart(
        lines,
        [str(m) for m in months],
        title=title,
        x_title="",
        y_title=y_title,
        width=width,
        decimal=decimal,
    )


def partners_svg(
    partners: pl.DataFrame,
    *,
    title: str,
    y_title: str,
    hover_deals: str,
    over_bars: str,
    width: int = WIDE,
    decimal: str = ".",
) -> str:
    """:func:`partners_figure` as an SVG picture, each bar labelled with the deals together.

    :param over_bars: the words before ``hover_deals`` in the line under the title.
    """
    names = partners["partner"].to_list()
    values = [float(v) for v in partners["points_per_deal"].to_list()]
    deals = [str(d) for d in partners["deals"].to_list()]
    hover = [
        f"{n}: {svg.number(v, decimal=decimal)} · {d} {hover_deals}"
        for n, v, d in zip(names, values, deals, strict=True)
    ]
    bar = svg.Bars("", TEAM_COLOURS[0], values, deals, hover)
    return svg.bar_chart(
        names,
        [bar],
        title=title,
        y_title=y_title,
        note=f"{over_bars}: {hover_deals}",
        width=width,
        decimal=decimal,
    )


def ledger_svgs(
    ledger: pl.DataFrame,
    *,
    titles: Sequence[str],
    step_names: dict[str, str],
    y_title: str,
    width: int = 440,
    decimal: str = ".",
) -> list[str]:
    """:func:`ledger_figure` as SVG pictures: a waterfall per player (the report's), on one scale.

    :param titles: each row's chart title (the player's name in a sentence).
    """
    rows = list(ledger.iter_rows(named=True))
    spans = [span for row in rows for span in svg.waterfall_spans(svg.ledger_steps(row, step_names))]
    scale = (min(min(a, b) for a, b in spans), max(max(a, b) for a, b in spans)) if spans else None
    return [
        svg.waterfall(
            svg.ledger_steps(row, step_names),
            title=title,
            y_title=y_title,
            total_colour=svg.TOTAL,  # as ledger_figure's
            value_range=scale,
            width=width,
            height=270,
            decimal=decimal,
        )
        for row, title in zip(rows, titles, strict=True)
    ]


def ledger_matches_svg(
    ledger: pl.DataFrame,
    *,
    title: str,
    step_names: dict[str, str],
    y_title: str,
    width: int = WIDE,
    decimal: str = ".",
) -> str:
    """:func:`ledger_matches_figure` as an SVG picture: relative bars and the line of their sum."""
    rows = ledger.sort(["evening", "match_id"])
    labels = _match_labels(rows)
    bars = [
        svg.Bars(step_names[key], LEDGER_COLOURS[key], values) for key, values in _ledger_bars(rows).items()
    ]
    net = [float(v) for v in (rows["points"] - rows["cards"]).to_list()]
    line = svg.Series(step_names["net"], LEDGER_COLOURS["net"], net)
    return svg.bar_chart(
        labels,
        bars,
        title=title,
        y_title=y_title,
        stacked=True,
        lines=[line],
        width=width,
        height=340,
        decimal=decimal,
    )
