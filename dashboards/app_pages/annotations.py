"""Annotations: every coach comment in the archive, each a click away from its play."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboards import cards, data, light_table, ui
from dashboards.steps import step_of

t = ui.translator()
st.title(t("annot.page_title"))
if not ui.archive_ready():
    st.stop()

comments = data.all_annotations()
if comments.height == 0:
    st.info(t("annot.page_none"))
    st.stop()

authors = sorted({str(a) for a in comments["author"].to_list()})
tags = sorted({str(tag) for row in comments["tags"].to_list() if row for tag in row})
filters = st.columns(2)
# no "Select all" (Streamlit writes it in English only): none ticked is all
chosen_authors = filters[0].multiselect(
    t("col.author"), authors, key="annotations_authors", placeholder=t("filter.all"), select_all=False
)
chosen_tags = filters[1].multiselect(
    t("col.tags"), tags, key="annotations_tags", placeholder=t("filter.all"), select_all=False
)
if chosen_authors:
    comments = comments.filter(pl.col("author").is_in(chosen_authors))
if chosen_tags:
    comments = comments.filter(pl.col("tags").list.eval(pl.element().is_in(chosen_tags)).list.any())

counted = t("annot.count_one") if comments.height == 1 else t("annot.count", count=comments.height)
st.caption(counted + " · " + t("annot.export_hint") + " " + t("mistakes.click_row"))


def place(trick: int | None, play: int | None) -> str:
    """Deal, trick or play, as the comment was placed."""
    if trick is None:
        return t("annot.where_deal")
    if play is None:
        return t("annot.where_trick", trick=trick)
    return t("annot.where_play", trick=trick, play=play)


table = comments.with_columns(
    pl.struct("trick", "play")
    .map_elements(lambda r: place(r["trick"], r["play"]), return_dtype=pl.String)
    .alias("where"),
    pl.col("tags").list.join(", ").alias("tags"),
    # a variation (the replay's what-if saved): its cards as the pages write them
    pl.col("line").list.eval(pl.element().replace_strict(cards.SYMBOLS)).list.join(" ").alias("line"),
)
targets = [
    {"match": r["match_id"], "deal": r["deal"], "step": step_of(r["trick"], r["play"])}
    for r in comments.select("match_id", "deal", "trick", "play").iter_rows(named=True)
]
light_table.grid_toggle("annotations")
light_table.show(
    table.select("match_id", "deal", "where", "author", "text", "tags", "line", "updated_at"),
    key="annotations_table",
    labels={
        "match_id": t("col.match"),
        "deal": t("col.deal"),
        "where": t("annot.scope"),
        "author": t("col.author"),
        "text": t("col.text"),
        "tags": t("col.tags"),
        "line": t("annot.variation"),
        "updated_at": t("col.updated"),
    },
    page="replay",
    targets=targets,
    detail="text",  # a comment is sentences: a line under its row, as wide as the table
    caption=t("annot.page_title"),
    grid="annotations",
)
