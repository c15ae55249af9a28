"""Mistakes: the archive's findings with filters, a rate chart per player, and a way into the replay."""

from __future__ import annotations

import json

import polars as pl
import streamlit as st

from dashboards import cards, chart_view, charts, data, i18n, light_table, native_inputs, ui
from dashboards.steps import step_of
from manillen_replay.analysis.words import KIND_NL
from manillen_replay.report.svg import MINUS, NEGATIVE_FIGURE

t = ui.translator()
language = ui.lang()
# cards played (ten four-player deals) before a player's findings rate is drawn: one deal's rate
# of 25 per 100 squeezed every regular's bar under 3 (a bare string here would be drawn: magic)
RATE_MIN_CARDS = 80
st.title(t("mistakes.title"))
if not ui.archive_ready():
    st.stop()
if data.counts()["findings"] == 0:
    st.info(t("mistakes.none", path=data.archive().path))
    st.stop()

choices = data.finding_choices()
# The filters are the browser's own inputs, one component (dashboards/native_inputs.py):
# Streamlit's multi-selects, date range and toggle would cost every new tab of this page the
# scripts of its combo box, date field and checkbox (24 files). What was chosen is kept for the
# session (KEPT), so it is there again after a visit to another page.
KEPT = "mistakes_filters_kept"
kept: dict[str, str] = st.session_state.get(KEPT, {})
# a link from the Match page (?match=ID, with &player=NAME when its review was one player's)
# chooses that match and player, once: the filters rule after it
asked = st.query_params.get("match")
asked_player = st.query_params.get("player")
if asked is not None and (asked, asked_player) != st.session_state.get("mistakes_match_asked"):
    st.session_state["mistakes_match_asked"] = (asked, asked_player)
    if asked in choices["matches"]:
        players_asked = [asked_player] if asked_player in choices["players"] else []
        kept = {**kept, "matches": json.dumps([asked]), "players": json.dumps(players_asked)}
        st.session_state["mistakes_filters"] = native_inputs.chosen_state(kept)
    else:
        st.warning(t("mistakes.no_findings_of", match=asked))


def many(
    name: str, label: str, options: list[str], prefix: str | None, *, wide: bool = False
) -> native_inputs.Field:
    """A filter of any of ``options`` (all when none is ticked), labelled in the page language;
    ``wide``: twice a field's width (match ids: three tables of one evening read "de-zwaan-2…")."""
    return native_inputs.Field(
        name,
        label,
        "multi",
        value=kept.get(name, "[]"),
        options=[(o, i18n.label_of(prefix, o, language) if prefix else o) for o in options],
        placeholder=t("filter.all"),
        wide=wide,
    )


# the players chosen (this run's choice, before the inputs are drawn) narrow the matches offered
# to theirs, and to those chosen already
now = {**kept, **native_inputs.chosen("mistakes_filters")}
players_now = native_inputs.many(now.get("players", "[]"))
matches_now = set(native_inputs.many(now.get("matches", "[]")))
played = data.matches_played(players_now) if players_now else None
match_options = [m for m in choices["matches"] if played is None or m in played or m in matches_now]
fields = [
    many("matches", t("col.match"), match_options, None, wide=True),
    many("players", t("col.player"), choices["players"], None),
    many("kinds", t("col.kind"), choices["kinds"], "kind"),
    many("categories", t("col.category"), choices["categories"], "category"),
    many("severities", t("col.severity"), list(data.SEVERITIES), "severity"),
    many("depths", t("mistakes.depth"), ["solver", "heuristic", "rules"], "depth"),
    *ui.date_range_fields(t("archive.filter_dates"), kept),
    # A page called Mistakes lists no "not a mistake": info findings (hindsight only, a trump
    # that cost nothing, calls the review cannot yet judge) show only when asked for.
    native_inputs.Field("show_info", t("mistakes.show_info"), "checkbox", value=kept.get("show_info", "")),
]
values = native_inputs.inputs("mistakes_filters", fields, row=True)
st.session_state[KEPT] = values
matches, players, kinds, categories, severities, depths = (
    native_inputs.many(values[name])
    for name in ("matches", "players", "kinds", "categories", "severities", "depths")
)
if not severities and values["show_info"] != "true":
    severities = list(data.MISTAKE_SEVERITIES)
dates = ui.dates_of(values)

chosen = data.FindingFilter(
    tuple(players), tuple(kinds), tuple(categories), tuple(severities), dates, tuple(matches), tuple(depths)
)
# A first view sends the table its most serious rows only (the whole list was ten times the rest
# of the page to send); the button under the table brings every row, up to the archive's limit.
FIRST_ROWS, ALL_ROWS = data.MISTAKE_ROWS
every = light_table.wants_all("mistakes_table")
total, shown = data.findings(chosen, ALL_ROWS if every else FIRST_ROWS)
st.subheader(t("mistakes.count_one") if total == 1 else t("mistakes.count", count=i18n.count(total)))
if total == 0:
    st.info(t("mistakes.no_match"))
    st.stop()

rates = data.finding_rates(chosen)
# a player of a deal or two has a rate of chance that dwarfed everyone else's scale: left out, and
# named, unless chosen in the filter
few = rates.filter((pl.col("cards") < RATE_MIN_CARDS) & ~pl.col("player").is_in(list(chosen.players)))
rates = rates.join(few.select("player").unique(), on="player", how="anti")
analysed = data.analysed_depths(chosen)
if rates.height and "solver" in analysed and len(analysed) > 1:
    # the solver's review finds several times what the quick check does: a player whose matches
    # it reached looked worse beside one whose matches only the quick check saw
    st.warning(
        t(
            "mistakes.mixed_depths",
            solver=i18n.count(analysed.get("solver", 0)),
            quick=i18n.count(sum(n for depth, n in analysed.items() if depth != "solver")),
        )
    )
interactive = chart_view.interactive("mistakes")
if rates.height:
    labelled = rates.with_columns(
        pl.col("kind").map_elements(lambda k: i18n.label_of("kind", k, language), pl.String)
    )
    rate_labels = {
        "title": t("mistakes.rate_title"),
        "y_title": t("mistakes.rate_axis"),
        "decimal": i18n.decimal_sign(language),
    }
    # every built-in kind, then a coach's: a kind keeps its colour whatever the filters leave and
    # whatever kinds the archive gains (the solver's review brought costly_card, which moved the
    # colours of the kinds after it)
    kinds_in_order = sorted(KIND_NL) + sorted(set(choices["kinds"]) - set(KIND_NL))
    every_kind = [i18n.label_of("kind", k, language) for k in kinds_in_order]
    chart_view.show(
        lambda width: charts.findings_rate_svg(labelled, **rate_labels, every_kind=every_kind, width=width),
        lambda: charts.findings_rate_figure(labelled, **rate_labels, every_kind=every_kind),
        interactive=interactive,
        key="mistakes_chart",
    )
if few.height:
    left_out = ", ".join(sorted(few["player"].unique().to_list()))
    st.caption(t("mistakes.rate_few", players=ui.name_text(left_out), cards=RATE_MIN_CARDS))

if shown.height < total:
    st.caption(t("mistakes.shown_first", shown=i18n.count(shown.height), count=i18n.count(total)))
more = ""
if shown.height < total and not every:
    # past the limit the button brings the most serious ALL_ROWS, and says so
    every_fits = total <= ALL_ROWS
    more = (
        t("mistakes.show_all", count=i18n.count(total))
        if every_fits
        else t("mistakes.show_most", count=i18n.count(ALL_ROWS))
    )

explanation = (
    (pl.coalesce("explanation_nl", "explanation") if language == "nl" else pl.col("explanation"))
    .str.replace_all(NEGATIVE_FIGURE, f"${{1}}{MINUS}${{2}}")
    .alias("text")
)
table = shown.with_columns(
    explanation,
    pl.col("severity").map_elements(lambda s: i18n.label_of("severity", s, language), pl.String),
    pl.col("kind").map_elements(lambda k: i18n.label_of("kind", k, language), pl.String),
    # a card of the dummy of three_dummy is the dealer's finding (the filter finds it) but shown
    # as the dummy's, as the replay names its seat
    pl.when(pl.col("dummy"))
    .then(pl.format(t("replay.dummy_of", name="{}"), pl.col("player")))
    .otherwise(pl.col("player"))
    .alias("player"),
    # the cards with their symbols (7♣), as the deal replay writes them: "7C" is an English letter
    pl.col("card").replace(cards.SYMBOLS),
    pl.col("better").list.eval(pl.element().replace(cards.SYMBOLS)).list.join(" ").alias("better"),
    # to a tenth, as the Match page and the replay say the points at stake (22.3, not 22.28)
    pl.col("points").round(1),
)
targets = [
    {"match": r["match_id"], "deal": r["deal"] or 1, "step": step_of(r["trick"], r["play"])}
    for r in shown.select("match_id", "deal", "trick", "play").iter_rows(named=True)
]
st.caption(t("mistakes.click_row"))
light_table.grid_toggle("mistakes")
# a deal-level finding has no trick, play or player: blank cells (the table writes no "None")
light_table.show(
    table.select(
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
    key="mistakes_table",
    labels={
        "date": t("col.date"),
        "match_id": t("col.match"),
        "deal": t("col.deal"),
        "trick": t("col.trick"),
        "play": t("col.play"),
        "player": t("col.player"),
        "severity": t("col.severity"),
        "kind": t("col.kind"),
        "card": t("col.card"),
        "better": t("col.better"),
        "points": t("col.at_stake"),
        "text": t("col.explanation"),
    },
    # whole points stay whole (30, not 30.0); the solver's averages keep their decimals
    formats={"points": "plain"},
    page="replay",
    targets=targets,
    # the explanation is a sentence or three: a line under its row, so the eleven columns beside
    # it fit a laptop's page (as a column it made the table 1230 px wide in a 938 px page)
    wrap=("kind", "date"),  # a date may break after a dash on a phone: five columns in 356 pixels
    detail="text",
    # on a phone when, which deal, who and what (the card and the better one are in the explanation
    # under the row): the date, match and place were all that showed, then without the deal a row
    # could not be placed; without the date a player's rows of tonight and of last month looked alike
    phone=("date", "deal", "player", "kind", "points"),
    caption=t("mistakes.title"),
    grid="mistakes",
    more=more,
)
