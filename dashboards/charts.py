"""Plotly figures for the dashboard: pure functions, data in, figure out (the only plotly import).

Every label arrives as an argument, so the pages choose the language and the figures stay free of
Streamlit and of the archive.
"""

from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go
import polars as pl

TEAM_COLOURS = ("#1f77b4", "#d62728")
"""Team 0 blue, team 1 red, on every chart."""
SERIES_COLOURS = (*TEAM_COLOURS, "#2ca02c")
"""Team colours, and a third for the three-player games' per-person scores."""

_LAYOUT = {"margin": {"l": 40, "r": 10, "t": 50, "b": 40}, "legend": {"orientation": "h", "y": -0.18}}


def match_score_figure(
    deals: pl.DataFrame,
    *,
    series_names: Sequence[str],
    title: str,
    x_title: str,
    y_title: str,
    marker_names: dict[str, str],
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
    colours = {"muil": "#7b3fa0", "klop": "#e6820e", "tie": "#555555"}
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
    figure.update_layout(title=title, xaxis_title=x_title, yaxis_title=y_title, **_LAYOUT)
    figure.update_xaxes(dtick=1)
    return figure


def findings_rate_figure(rates: pl.DataFrame, *, title: str, y_title: str) -> go.Figure:
    """Findings per 100 cards played, one group of bars per player, one colour per kind.

    :param rates: ``player``, ``kind``, ``per_100``.
    """
    figure = go.Figure()
    for kind in sorted(rates["kind"].unique().to_list()):
        rows = rates.filter(pl.col("kind") == kind)
        figure.add_trace(
            go.Bar(x=rows["player"].to_list(), y=rows["per_100"].to_list(), name=kind.replace("_", " "))
        )
    figure.update_layout(title=title, yaxis_title=y_title, barmode="stack", **_LAYOUT)
    return figure


def dealer_points_figure(points: pl.DataFrame, *, title: str, y_title: str) -> go.Figure:
    """Points per deal as dealer and not: two bars.

    :param points: ``role`` (the bar's label) and ``points_per_deal``.
    """
    figure = go.Figure(
        go.Bar(
            x=points["role"].to_list(),
            y=points["points_per_deal"].to_list(),
            marker_color=["#1f6f43", "#8fbc8f"][: points.height],
            text=[f"{v:.1f}" for v in points["points_per_deal"].to_list()],
            textposition="auto",
        )
    )
    figure.update_layout(title=title, yaxis_title=y_title, **_LAYOUT)
    return figure


def trump_choices_figure(choices: pl.DataFrame, *, title: str, y_title: str) -> go.Figure:
    """How often a player made each trump (and muil) as dealer.

    :param choices: ``choice`` (label, red suits first in their colour) and ``deals``.
    """
    colours = ["#c8102e" if ("♥" in c or "♦" in c) else "#111111" for c in choices["choice"].to_list()]
    figure = go.Figure(
        go.Bar(x=choices["choice"].to_list(), y=choices["deals"].to_list(), marker_color=colours)
    )
    figure.update_layout(title=title, yaxis_title=y_title, **_LAYOUT)
    return figure


def rate_over_time_figure(
    rates: pl.DataFrame, *, title: str, y_title: str, severity_names: dict[str, str] | None = None
) -> go.Figure:
    """Findings per 100 cards month by month, one line per severity.

    :param rates: ``month`` (a date or text), ``severity``, ``per_100``.
    :param severity_names: the legend name of each severity (its stored value when absent).
    """
    figure = go.Figure()
    for severity in ("info", "inaccuracy", "mistake", "blunder"):
        rows = rates.filter(pl.col("severity") == severity).sort("month")
        if rows.height:
            figure.add_trace(
                go.Scatter(
                    x=rows["month"].to_list(),
                    y=rows["per_100"].to_list(),
                    mode="lines+markers",
                    name=(severity_names or {}).get(severity, severity),
                )
            )
    figure.update_layout(title=title, yaxis_title=y_title, **_LAYOUT)
    return figure


def partners_figure(partners: pl.DataFrame, *, title: str, y_title: str, hover_deals: str) -> go.Figure:
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
    figure.update_layout(title=title, yaxis_title=y_title, **_LAYOUT)
    return figure


def ledger_figure(ledger: pl.DataFrame, *, title: str, step_names: dict[str, str], y_title: str) -> go.Figure:
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
                text=[f"{v:+d}" if 0 < i < 5 else str(v) for i, v in enumerate(values)],
                offsetgroup=str(index),
                increasing={"marker": {"color": "#2e8b57"}},
                decreasing={"marker": {"color": "#c8102e"}},
                totals={"marker": {"color": SERIES_COLOURS[index % 2] if index < 4 else "#555555"}},
                connector={"line": {"color": "#999999", "width": 1}},
            )
        )
    figure.update_layout(title=title, yaxis_title=y_title, waterfallmode="group", **_LAYOUT)
    return figure


def ledger_matches_figure(
    ledger: pl.DataFrame, *, title: str, step_names: dict[str, str], y_title: str
) -> go.Figure:
    """Match by match, what decisions did to one player's points: the player's own, the partner's and
    the opponents' as bars, and their sum (the points taken minus what the cards were worth) as a line.

    :param ledger: ``player_ledger`` rows of scope ``match``: ``match_id``, ``evening``,
        ``given_away``, ``partner_given_away``, ``won_back``, ``illegal``, ``cards``, ``points``.
    :param step_names: labels for ``own``, ``partner``, ``opponents`` and ``net``.
    """
    rows = ledger.sort(["evening", "match_id"])
    labels = [
        f"{m} ({e})" if e is not None else m for m, e in zip(rows["match_id"], rows["evening"], strict=True)
    ]
    figure = go.Figure()
    for key, column, sign, colour in (
        ("own", "given_away", -1, "#c8102e"),
        ("partner", "partner_given_away", -1, "#f08080"),
        ("opponents", "won_back", 1, "#2e8b57"),
    ):
        figure.add_trace(
            go.Bar(
                x=labels,
                y=[sign * v for v in rows[column].to_list()],
                name=step_names[key],
                marker_color=colour,
            )
        )
    net = (rows["points"] - rows["cards"]).to_list()
    figure.add_trace(
        go.Scatter(x=labels, y=net, mode="lines+markers", name=step_names["net"], line={"color": "#111"})
    )
    figure.update_layout(title=title, yaxis_title=y_title, barmode="relative", **_LAYOUT)
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
    figure.update_layout(title="a", xaxis_title="a", yaxis_title="a", barmode="stack", **_LAYOUT)
    figure.update_layout(waterfallmode="group")
    figure.update_xaxes(dtick=1)
    figure.to_json()
