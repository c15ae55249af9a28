"""Match: the biggest mistakes first (with the solver's review under way), the score deal by deal as a
chart, and every deal with its contract, points and findings."""

from __future__ import annotations

from typing import Any

import polars as pl
import streamlit as st

from dashboards import chart_view, charts, data, i18n, light_table, native_inputs, review_view, ui
from manillen_replay.engine import DealKind, DealResult
from manillen_replay.errors import ManillenError
from manillen_replay.rules import Contract

t = ui.translator()
language = ui.lang()
if not ui.archive_ready():
    st.stop()

ids = data.match_ids()
wanted = st.query_params.get("match")
# The match is the browser's own drop-down (dashboards/native_inputs.py): Streamlit's would cost
# every new tab of this page its combo-box scripts. A link (or the address bar) names the match;
# the drop-down follows it until the person picks; the choice is kept for the session (match_id).
if wanted is not None and wanted != st.session_state.get("match_synced"):
    st.session_state["match_synced"] = wanted
    st.session_state["match_id"] = wanted if wanted in ids else None
    st.session_state["match_choice"] = native_inputs.chosen_state({"match": wanted if wanted in ids else ""})
kept = st.session_state.get("match_id")
match_field = native_inputs.Field(
    "match",
    t("match.choose"),
    "select",
    value=kept if kept in ids else "",
    options=[("", t("match.none")), *((match_id, match_id) for match_id in ids)],
)
chosen = native_inputs.inputs("match_choice", [match_field])["match"] or None
st.session_state["match_id"] = chosen
NEWEST = 5  # how many of the newest matches the page offers while none is chosen


def _no_match_chosen() -> None:
    """What to do with no match chosen: a line that says so, and the newest matches as links."""
    st.info(t("match.none_chosen"))
    newest = data.matches().head(NEWEST)
    if not newest.height:
        return
    st.caption(t("match.newest"))
    for row in newest.iter_rows(named=True):
        # the teams of a four- or six-player match (the archive's team A and B), the players of
        # the three-player games (who score apart)
        about = [str(row["date"])] if row["date"] is not None else []
        if row["evening"]:  # its partners change every block: no one pair of teams to name
            about.append(t("match.club_evening_short"))
        elif row["team_0"] and row["team_1"]:
            about.append(t("match.against", a=row["team_0"], b=row["team_1"]))
        elif row["team_0"]:
            about.append(row["team_0"])
        st.page_link(
            ui.PAGE_FILES["match"],
            label=ui.markdown_text(row["match_id"] + (f" ({': '.join(about)})" if about else "")),
            icon=":material/playing_cards:",
            query_params={"match": row["match_id"], **ui.language_params()},
        )


if chosen is None:
    if wanted is not None and wanted not in ids:
        st.warning(t("match.unknown", match=wanted))
    _no_match_chosen()
    st.stop()
st.query_params["match"] = chosen
st.session_state["match_synced"] = chosen

try:
    result = data.replayed(chosen)
except ManillenError as error:
    st.error(t("match.invalid", message=error))
    st.stop()
assert result is not None  # the id comes from the archive's own list
names = list(result.seats)
shape = result.rules.shape
info = data.match_info(chosen)


def seated(deal: DealResult | None = None) -> list[str]:
    """Who sat in each seat in a deal: a club evening's partners change every block."""
    if deal is not None and deal.names:
        return list(deal.names[: len(names)])
    return names


def side_names(side: int, dealer: int, deal: DealResult | None = None) -> str:
    """The people on one side of a deal (in its block's seating)."""
    people = seated(deal)
    return " & ".join(people[s] for s in range(len(people)) if shape.team_of(s, dealer) == side)


# a club evening: the partners change every block, and its result is the blocks won
# (from its first deal on: its first block's seating is the only one seen so far)
evening = result.evening or any(seated(d) != names for d in result.deals)


# one match score per team, or per person in the three-player games
scorers = [side_names(side, 0) for side in (0, 1)] if shape.scorers == 2 else names


def contract_text(deal: DealResult) -> str:
    """Troef ♦ koeken, muil, with en face and klop as they were called."""
    if deal.contract is None:
        return t("contract.none")
    if deal.contract is Contract.TRUMP and deal.trump is not None:
        text = t("contract.trump", suit=i18n.suit_name(deal.trump))
    else:
        text = t(f"contract.{deal.contract.value}")
    if deal.en_face:
        text += ", " + t("contract.en_face")
    if deal.knocks:
        text += ", " + ", ".join(("klop", "tegenklop")[i % 2] for i in range(deal.knocks))
    return text


# a record's text (its id, venue, event, names) is shown as typed: markdown read in it loaded a
# venue's ![image](http://...) in every visitor's browser and made its [link](...) live
md = ui.name_text
st.title(t("match.title", match=md(chosen)))
# an evening's event as the Record page names it ("Clubavond") is said by the line after it:
# "Clubavond — Clubavond: de partners wisselen elk blok" said it twice
said_after = {"clubavond", "club evening"} if evening else set()
details = " · ".join(
    md(str(info[k]))
    for k in ("date", "venue", "event")
    if info.get(k) and not (k == "event" and str(info[k]).strip().lower() in said_after)
)
shown = [md(name) for name in scorers]
team_line = " · ".join(shown) if shape.scorers != 2 else t("match.against", a=shown[0], b=shown[1])
if evening:
    team_line = t("match.club_evening")
st.caption(f"{details} — {team_line}" if details else team_line)
if evening:
    won = ", ".join(
        f"{md(name)} {count}"
        for name, count in sorted(result.blocks_won.items(), key=lambda i: (-i[1], i[0]))
    )
    st.subheader(t("match.blocks_won", won=won) if won else t("match.first_block"))
elif result.finished:
    who = t("match.draw") if result.winner is None else t("match.team_wins", names=shown[result.winner])
    st.subheader(t("match.final", score="-".join(map(str, result.final_score)), who=who))
else:
    st.subheader(t("match.unfinished", score="-".join(map(str, result.score))))


# --------------------------------------------------------------------------- the review, first
st.subheader(t("review.title"))
everyone = t("review.everyone")
whose_field = native_inputs.Field(
    "whose", t("review.for"), "select", value=everyone, options=[(n, n) for n in [everyone, *names]]
)
whose = native_inputs.inputs("match_review_for", [whose_field])["whose"]
reviewed_player = None if whose == everyone or whose not in names else whose
review_view.section(chosen, player=reviewed_player, trick_size=shape.trick_size, key="match")
st.page_link(
    ui.PAGE_FILES["mistakes"],
    label=t("match.all_findings")
    if reviewed_player is None
    else t("match.all_findings_of", player=ui.name_text(reviewed_player)),
    icon=":material/list:",
    query_params={
        "match": chosen,
        **({"player": reviewed_player} if reviewed_player is not None else {}),
        **ui.language_params(),
    },
)

counts = data.findings_per_deal(chosen)
rows = []
for deal in result.deals:
    if deal.kind is DealKind.REDEAL:
        outcome = t("match.redeal")
    elif deal.tie:
        outcome = t("match.tie")
    elif deal.kind is DealKind.ABANDONED:
        outcome = t("match.abandoned")
    elif deal.score is not None:
        outcome = f"{side_names(deal.score.team, deal.dealer, deal)} +{deal.score.points}"
    else:
        outcome = ""
    rows.append(
        {
            "deal": deal.number,
            "dealer": seated(deal)[deal.dealer],
            "contract": contract_text(deal),
            "multiplier": deal.multiplier,
            "points": f"{deal.points[0]}-{deal.points[1]}"
            if deal.points is not None
            else t("match.scoresheet")
            if deal.kind is DealKind.SCORESHEET
            else "",
            "outcome": outcome,
            "match_score": "-".join(map(str, deal.match_score)),
            "findings": counts.get(deal.number, 0),
            **{f"score_{i}": points for i, points in enumerate(deal.match_score)},
            "muil": deal.contract in (Contract.MUIL, Contract.BLIND_MUIL),
            "klop": deal.knocks > 0,
            "tie": deal.tie,
        }
    )
frame = pl.DataFrame(rows, infer_schema_length=None)
# a club evening's partners change every block: a line per seat pair would put the first block's
# names on every block's scores (as the report, no chart over mixed teams)
interactive = chart_view.interactive("match")
if frame.height and not evening:
    score_labels: dict[str, Any] = {
        "decimal": i18n.decimal_sign(language),
        "series_names": scorers,
        "title": t("match.chart_title"),
        "x_title": t("match.chart_x"),
        "y_title": t("match.chart_y"),
        "marker_names": {"muil": "muil", "klop": "klop", "tie": "30-30"},
    }
    # the line starts at 0-0 before the first deal, as the report's does
    columns = ["deal", *(f"score_{i}" for i in range(len(scorers))), "muil", "klop", "tie"]
    lines = frame.select(columns)
    start = pl.DataFrame(
        [dict.fromkeys(columns[:-3], 0) | dict.fromkeys(columns[-3:], False)], schema=lines.schema
    )
    lines = pl.concat([start, lines])
    chart_view.show(
        lambda width: charts.match_score_svg(lines, **score_labels, width=width),
        lambda: charts.match_score_figure(lines, **score_labels),
        interactive=interactive,
        key="match_chart",
    )

st.subheader(t("match.deals"))
st.caption(t("match.click_row"))
light_table.grid_toggle("match")
light_table.show(
    frame.select("deal", "dealer", "contract", "multiplier", "points", "outcome", "match_score", "findings"),
    key="match_deals",
    labels={
        "deal": t("col.deal"),
        "dealer": t("col.dealer"),
        "contract": t("col.trump"),
        "multiplier": t("col.multiplier"),
        "points": t("col.points"),
        "outcome": t("col.deal_score"),
        "match_score": t("col.match_score"),
        "findings": t("col.findings"),
    },
    formats={"multiplier": "x%d"},
    page="replay",
    targets=[{"match": chosen, "deal": number, "step": 0} for number in frame["deal"]],
    wrap=("contract", "outcome"),
    phone=("deal", "contract", "outcome", "match_score", "findings"),  # the rest cut off mid-word on a phone
    caption=t("match.deals"),
    grid="match",
)

accuracy = data.match_accuracy(chosen)
if accuracy.height:
    st.subheader(t("match.accuracy_title"))
    st.caption(t("match.accuracy_caption"))
    light_table.show(
        accuracy.filter(pl.col("scope") == "match").select(
            "player", "accuracy", "decisions", "cards", "avg_view_cost"
        ),
        key="match_accuracy",
        labels={
            "player": t("col.player"),
            "accuracy": t("col.accuracy"),
            "decisions": t("col.decisions"),
            "cards": t("col.chosen_cards"),
            "avg_view_cost": t("col.avg_view_cost"),
        },
        formats={"accuracy": "%.1f%%", "avg_view_cost": "%.2f"},
        bars={"accuracy": 100},
        phone=("player", "accuracy", "avg_view_cost"),
        caption=t("match.accuracy_title"),
        grid="match",
        offer_grid=False,
    )
    by_deal = (
        accuracy.filter(pl.col("scope") == "deal")
        .pivot(on="player", index="deal", values="accuracy")
        .sort("deal")
    )
    st.markdown(f"**{t('match.accuracy_deals')}**")
    light_table.show(
        by_deal,
        key="match_accuracy_deals",
        labels={"deal": t("col.deal")},
        formats={name: "%.1f%%" for name in by_deal.columns if name != "deal"},
        caption=t("match.accuracy_deals"),
        grid="match",
        offer_grid=False,
    )

ledger = data.match_ledger(chosen)
if ledger.height:
    st.subheader(t("ledger.title"))
    st.caption(t("ledger.caption"))
    step_names = {key: t(f"ledger.{key}") for key in i18n.LEDGER_STEPS}
    chart_view.show_several(
        charts.ledger_svgs(
            ledger,
            titles=[t("ledger.chart", player=name) for name in ledger["player"].to_list()],
            step_names=step_names,
            y_title=t("ledger.axis"),
            decimal=i18n.decimal_sign(language),
        ),
        lambda: charts.ledger_figure(
            ledger,
            title=t("ledger.title"),
            step_names=step_names,
            y_title=t("ledger.axis"),
            decimal=i18n.decimal_sign(language),
        ),
        interactive=interactive,
        key="match_ledger_chart",
    )
    light_table.show(
        # the steps with their signs, as the waterfalls above draw them (80 read as a gain beside −80)
        ledger.select(
            "player",
            "cards",
            -pl.col("given_away"),
            -pl.col("partner_given_away"),
            "won_back",
            "illegal",
            "points",
            "mistakes",
            "luck",
        ),
        key="match_ledger",
        labels={
            "player": t("col.player"),
            "cards": t("ledger.cards"),
            "given_away": t("ledger.own"),
            "partner_given_away": t("ledger.partner"),
            "won_back": t("ledger.opponents"),
            "illegal": t("ledger.illegal"),
            "points": t("ledger.points"),
            "mistakes": t("ledger.mistakes"),
            "luck": t("ledger.luck"),
        },
        formats={
            "given_away": "%+d",
            "partner_given_away": "%+d",
            "won_back": "%+d",
            "illegal": "%+d",
            "mistakes": "%.1f",
            "luck": "%+.1f",
        },
        caption=t("ledger.title"),
        grid="match",
        offer_grid=False,
    )

# The report is drawn only once its box is opened: its drop-down and Streamlit's download button
# (whose script a new tab would load last, after everything else) cost every first view, and
# most visits only look at the match.
report_box = st.expander(t("report.title"), key="match_report_open", on_change="rerun")
if report_box.open:
    with report_box:
        everyone = t("report.everyone")
        report_field = native_inputs.Field(
            "player", t("report.for"), "select", value=everyone, options=[(n, n) for n in [everyone, *names]]
        )
        report_for = native_inputs.inputs("match_report_for", [report_field])["player"]
        language = ui.lang()
        report_match, report_player = chosen, None if report_for == everyone else report_for
        st.download_button(
            t("report.download"),
            # made when clicked, on a thread of its own: building the report is no part of showing the page
            data=lambda: data.report_html(report_match, report_player, language),
            file_name=f"{chosen}{'' if report_for == everyone else '-' + report_for}-{language}.html",
            mime="text/html",
            help=t("report.help"),
            key="match_report_download",
        )
