"""Mistakes: the archive's findings with filters, a rate chart per player, and a way into the replay."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboards import charts, data, i18n, ui
from dashboards.steps import step_of

t = ui.translator()
language = ui.lang()
st.title(t("mistakes.title"))
if not ui.archive_ready():
    st.stop()
if data.counts()["findings"] == 0:
    st.info(t("mistakes.none", path=data.archive().path))
    st.stop()

choices = data.finding_choices()
row = st.columns(4)
players = row[0].multiselect(
    t("col.player"), choices["players"], key="mistakes_players", persist_state="session"
)
kinds = row[1].multiselect(
    t("col.kind"),
    choices["kinds"],
    format_func=lambda k: i18n.label_of("kind", k, language),
    key="mistakes_kinds",
    persist_state="session",
)
categories = row[2].multiselect(
    t("col.category"),
    choices["categories"],
    format_func=lambda c: i18n.label_of("category", c, language),
    key="mistakes_categories",
    persist_state="session",
)
severities = row[3].multiselect(
    t("col.severity"),
    data.SEVERITIES,
    format_func=lambda s: i18n.label_of("severity", s, language),
    key="mistakes_severities",
    persist_state="session",
)
# A page called Mistakes lists no "not a mistake": info findings (hindsight only, a trump that
# cost nothing, calls the review cannot yet judge) show only when asked for.
show_info = st.toggle(t("mistakes.show_info"), key="mistakes_show_info", persist_state="session")
if not severities and not show_info:
    severities = [s for s in data.SEVERITIES if s != "info"]
first, last = data.date_range()
dates = None
if first is not None and last is not None and first != last:
    picked = st.date_input(
        t("archive.filter_dates"),
        value=(first, last),
        min_value=first,
        max_value=last,
        key="mistakes_dates",
        persist_state="session",
    )
    if isinstance(picked, tuple) and len(picked) == 2 and tuple(picked) != (first, last):
        dates = (picked[0], picked[1])

chosen = data.FindingFilter(tuple(players), tuple(kinds), tuple(categories), tuple(severities), dates)
total, shown = data.findings(chosen)
st.subheader(t("mistakes.count", count=total))
if total == 0:
    st.info(t("mistakes.no_match"))
    st.stop()

rates = data.finding_rates(chosen)
if rates.height:
    figure = charts.findings_rate_figure(
        rates.with_columns(
            pl.col("kind").map_elements(lambda k: i18n.label_of("kind", k, language), pl.String)
        ),
        title=t("mistakes.rate_title"),
        y_title=t("mistakes.rate_axis"),
    )
    st.plotly_chart(figure, key="mistakes_chart")

if shown.height < total:
    st.caption(t("mistakes.shown_first", shown=shown.height, count=total))

explanation = (
    pl.coalesce("explanation_nl", "explanation") if language == "nl" else pl.col("explanation")
).alias("text")
links = shown.select(
    pl.struct("match_id", "deal", "trick", "play")
    .map_elements(
        lambda r: ui.replay_url(r["match_id"], r["deal"] or 1, step_of(r["trick"], r["play"])),
        return_dtype=pl.String,
    )
    .alias("link")
)
table = pl.concat([links, shown], how="horizontal").with_columns(
    explanation,
    pl.col("severity").map_elements(lambda s: i18n.label_of("severity", s, language), pl.String),
    pl.col("kind").map_elements(lambda k: i18n.label_of("kind", k, language), pl.String),
    pl.col("better").list.join(" ").alias("better"),
)
selection = st.dataframe(
    table.select(
        "link",
        "date",
        "match_id",
        "deal",
        "trick",
        "play",
        "player",
        "severity",
        "kind",
        "card",
        "better",
        "points",
        "text",
    ),
    hide_index=True,
    key="mistakes_table",
    on_select="rerun",
    selection_mode="single-row",
    column_config={
        "link": st.column_config.LinkColumn(t("col.replay"), display_text="▶"),
        "date": st.column_config.DateColumn(t("col.date")),
        "match_id": t("col.match"),
        "deal": st.column_config.NumberColumn(t("col.deal"), format="%d"),
        "trick": st.column_config.NumberColumn(t("col.trick"), format="%d"),
        "play": st.column_config.NumberColumn(t("col.play"), format="%d"),
        "player": t("col.player"),
        "severity": t("col.severity"),
        "kind": t("col.kind"),
        "card": t("col.card"),
        "better": t("col.better"),
        "points": st.column_config.NumberColumn(t("col.at_stake"), format="%.1f"),
        "text": st.column_config.TextColumn(t("col.explanation"), width="large"),
    },
)
picked_rows = selection.selection.rows if selection is not None and hasattr(selection, "selection") else []
if picked_rows:
    picked_row = shown.row(picked_rows[0], named=True)
    st.page_link(
        ui.PAGE_FILES["replay"],
        label=f"{t('col.replay')}: {picked_row['match_id']}, {t('col.deal').lower()} {picked_row['deal']}",
        icon=":material/playing_cards:",
        query_params={
            "match": picked_row["match_id"],
            "deal": str(picked_row["deal"] or 1),
            "step": str(step_of(picked_row["trick"], picked_row["play"])),
        },
    )
