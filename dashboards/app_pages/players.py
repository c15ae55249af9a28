"""Players: one player's deals, points as dealer and not, trump choices, muil and klop, and partners."""

from __future__ import annotations

from html import escape
from typing import Any

import polars as pl
import streamlit as st

from dashboards import chart_view, charts, data, i18n, native_inputs, ui
from manillen_replay.cards import Suit

t = ui.translator()
language = ui.lang()
decimal = i18n.decimal_sign(language)  # the charts' decimal sign
PLAYER, SYNCED, CHOICE = "players_player", "players_synced", "players_choice"
st.title(t("players.title"))
if not ui.archive_ready():
    st.stop()


def partners_table(partners: pl.DataFrame) -> str:
    """The partners as an HTML table: deals together, points per deal, share of deals won."""
    head = (
        t("players.partner"),
        t("players.deals_together"),
        t("players.points_per_deal"),
        t("players.won_share"),
    )
    right = ' class="num"'
    rows = []
    for row in partners.iter_rows(named=True):
        points = i18n.number(row["points_per_deal"], language, 2)
        won = i18n.number(row["won_share"], language, 1)
        rows.append(
            f"<tr><td>{escape(row['partner'])}</td><td{right}>{row['deals']}</td>"
            f"<td{right}>{points}</td><td{right}>{won}%</td></tr>"
        )
    cells = "".join(f"<th{'' if i == 0 else right}>{escape(h)}</th>" for i, h in enumerate(head))
    table = (
        f'<table class="mr-plain-table" data-table="players_partners"><tr>{cells}</tr>{"".join(rows)}</table>'
    )
    return f'<div class="mr-scroll">{table}</div>'


names = data.players()
# The player is the browser's own drop-down (dashboards/native_inputs.py): Streamlit's would cost
# every new tab of this page its combo-box scripts. The choice is kept for the session (PLAYER)
# and in the page address; an address naming another player (a link, a reload) chooses that one.
wanted = ui.named_as_in_archive(st.query_params.get("player"), names)
if wanted in names and wanted != st.session_state.get(SYNCED):
    st.session_state[SYNCED] = wanted
    st.session_state[PLAYER] = wanted
    st.session_state[CHOICE] = native_inputs.chosen_state({"player": wanted})
kept = st.session_state.get(PLAYER)
if wanted is not None and wanted not in names and wanted != st.session_state.get(SYNCED) and names:
    instead = kept if kept in names else names[0]
    st.warning(t("players.unknown", player=ui.markdown_text(wanted), shown=ui.markdown_text(instead)))
field = native_inputs.Field(
    "player",
    t("players.choose"),
    "select",
    value=kept if kept in names else names[0],
    options=[(name, name) for name in names],
)
player = native_inputs.inputs(CHOICE, [field])["player"]
st.session_state[PLAYER] = player
st.query_params["player"] = player
st.session_state[SYNCED] = player

summary = data.player_summary(player)
accuracy = data.player_accuracy(player)
# counted as the Archive and Mistakes pages count them: the notes (info) left out
chosen_findings = data.FindingFilter(players=(player,), severities=data.MISTAKE_SEVERITIES)
findings = int(data.finding_rates(chosen_findings)["findings"].sum())
top: list[ui.Figure] = [
    (t("players.matches"), i18n.count(summary.get("matches") or 0)),
    (t("players.won"), i18n.count(summary.get("matches_won") or 0)),
    (t("players.deals"), i18n.count(summary.get("deals") or 0)),
    (t("archive.findings"), i18n.count(findings)),
]
if accuracy:
    accuracy_help = t(
        "players.accuracy_help",
        decisions=accuracy["decisions"],
        cards=accuracy["cards"],
        calls=accuracy["calls"],
    )
    top.append((t("players.accuracy"), f"{i18n.number(accuracy['accuracy'], language, 1)}%", accuracy_help))
ui.figures(top, key="players_figures")

interactive = chart_view.interactive("players")
side_by_side: list[chart_view.Chart] = []
points = data.dealer_points(player)
if points.height:
    bars = points.with_columns(
        pl.when(pl.col("is_dealer"))
        .then(pl.lit(t("players.as_dealer")))
        .otherwise(pl.lit(t("players.not_dealer")))
        .alias("role")
    )
    points_labels = {
        "title": t("players.points_title"),
        "y_title": t("players.points_per_deal"),
        "decimal": decimal,
    }
    side_by_side.append(
        (
            lambda width: charts.dealer_points_svg(bars, **points_labels, width=width),
            lambda: charts.dealer_points_figure(bars, **points_labels),
            "players_points",
        )
    )

choices = data.trump_choices(player)
if choices.height:

    def choice_label(choice: str) -> str:
        return i18n.suit_name(Suit[choice]) if choice in Suit.__members__ else choice.replace("_", " ")

    labelled = choices.with_columns(pl.col("choice").map_elements(choice_label, pl.String))
    trump_labels = {"title": t("players.trumps_title"), "y_title": t("players.count"), "decimal": decimal}
    side_by_side.append(
        (
            lambda width: charts.trump_choices_svg(labelled, **trump_labels, width=width),
            lambda: charts.trump_choices_figure(labelled, **trump_labels),
            "players_trumps",
        )
    )
if side_by_side:
    chart_view.show_row(side_by_side, interactive=interactive, key="players_roles")

st.subheader(t("players.records_title"))
records = data.contract_records(player)
won = t("players.won_share")
ui.figures(
    [
        (t("players.rec_muil"), f"{records['muil_won']} / {records['muil']}", won),
        (t("players.rec_klop"), f"{records['klop_won']} / {records['klop']}", won),
        (t("players.rec_klopped"), f"{records['knocked_against_won']} / {records['knocked_against']}", won),
    ],
    key="players_records",
)

ledger = data.player_ledger(player, "match")
if ledger.height:
    # each match labelled with its own date: the ledger's evening is the import day of a match
    # recorded without one, which read as the day it was played
    dates = data.match_dates(ledger["match_id"].to_list())
    ledger = ledger.with_columns(
        pl.col("match_id").map_elements(lambda m: dates.get(m), return_dtype=pl.Date).alias("evening")
    )
    st.subheader(t("ledger.title"))
    total = data.player_ledger(player, "all").row(0, named=True)
    st.caption(
        t(
            "ledger.all_time",
            deals=i18n.count(total["deals"]),
            cards=i18n.count(total["cards"]),
            own=i18n.count(total["given_away"]),
            partner=i18n.count(total["partner_given_away"]),
            opponents=i18n.count(total["won_back"]),
            illegal=t("ledger.illegal_term", points=i18n.number(total["illegal"], language, signed=True))
            if total["illegal"]
            else "",
            points=i18n.count(total["points"]),
            mistakes="–" if total["mistakes"] is None else i18n.number(total["mistakes"], language, 1),
            luck="–" if total["luck"] is None else i18n.number(total["luck"], language, 1, signed=True),
        )
    )
    ledger_labels: dict[str, Any] = {
        "title": t("ledger.matches_title"),
        "step_names": {key: t(f"ledger.{key}") for key in ("own", "partner", "opponents", "illegal", "net")},
        "y_title": t("ledger.axis"),
        "decimal": decimal,
    }
    chart_view.show(
        lambda width: charts.ledger_matches_svg(ledger, **ledger_labels, width=width),
        lambda: charts.ledger_matches_figure(ledger, **ledger_labels),
        interactive=interactive,
        key="players_ledger",
    )

rates = data.rate_over_time(player)
if rates.height:
    # months in their order before they become labels (text would sort Feb before Jan)
    monthly = rates.sort("month").with_columns(
        pl.col("month").map_elements(lambda m: i18n.month_label(m, language), pl.String)
    )
    rate_labels: dict[str, Any] = {
        "title": t("players.rate_title"),
        "y_title": t("mistakes.rate_axis"),
        "severity_names": {s: i18n.label_of("severity", s, language) for s in data.SEVERITIES},
        "decimal": decimal,
    }
    chart_view.show(
        lambda width: charts.rate_over_time_svg(monthly, **rate_labels, width=width),
        lambda: charts.rate_over_time_figure(monthly, **rate_labels),
        interactive=interactive,
        key="players_rates",
    )
    depths = data.player_depths(player)
    if "solver" in depths and len(depths) > 1:
        # the dashboard's own review reaches the newest matches first: their months looked worse
        st.warning(
            t(
                "players.mixed_depths",
                solver=i18n.count(depths.get("solver", 0)),
                quick=i18n.count(sum(n for depth, n in depths.items() if depth != "solver")),
            )
        )
elif not summary.get("cards_played"):
    st.caption(t("players.no_cards"))

partners = data.partners(player)
if partners.height:
    partner_labels = {
        "title": t("players.partners_title"),
        "y_title": t("players.points_per_deal"),
        "hover_deals": t("players.deals_together"),
        "decimal": decimal,
    }
    chart_view.show(
        lambda width: charts.partners_svg(
            partners, **partner_labels, over_bars=t("charts.over_bars"), width=width
        ),
        lambda: charts.partners_figure(partners, **partner_labels),
        interactive=interactive,
        key="players_partners",
        # a plain table under the chart, not st.dataframe: the grid's scripts would cost every new
        # tab a quarter second (bench/pages.py) for a handful of rows that need no sorting or selecting
        after=partners_table(partners),
    )
