"""The review of one match as a page shows it: the solver's review under way, then the biggest mistakes.

The Match page opens with it, and the Record page shows it under each saved deal, so that
"record the deals, see my costliest cards and why" takes one page. The state is looked at twice
a second while the background review (:mod:`dashboards.reviewer`) runs, and the page runs
again, without a reload, once the match is reviewed.
"""

from __future__ import annotations

from typing import Any

import polars as pl
import streamlit as st

from dashboards import cards, data, i18n, reviewer, ui
from dashboards.steps import step_of
from manillen_replay.analysis.findings import COST_THRESHOLDS
from manillen_replay.analysis.ranking import row_cost_in_words
from manillen_replay.analysis.words import tenths
from manillen_replay.report.svg import minus_signs

ACTIVE = ("queued", "reviewing", "waiting")
"""States that change by themselves: looked at every :data:`POLL_SECONDS` while shown."""
POLL_SECONDS = 0.25
"""Short, as a player waits for the review: the fragment asks the reviewer's state in memory, no query."""


def status(match_id: str) -> reviewer.ReviewStatus:
    """The background review's state of a match; the archive says when the reviewer has not seen it."""
    running = reviewer.running()
    found = running.status(match_id) if running is not None else reviewer.ReviewStatus("unknown")
    # a solver review stored meanwhile (`manillen analyze --depth solver` while the reviewer was
    # at it) is the one shown: "for now the quick check's findings" above the solver's was wrong
    stored = data.solver_review(match_id)
    if stored == "current":
        return reviewer.ReviewStatus("ready")
    if found.state == "ready":  # reviewed here, but the archive's is another now (a restore, an import)
        found = reviewer.ReviewStatus("unknown")
    if found.state != "unknown":
        return found
    if running is not None:
        return reviewer.ReviewStatus("queued")
    # no reviewer here to make it again: the command that does is named instead
    return reviewer.ReviewStatus("outdated" if stored == "outdated" else "none")


def state_line(now: reviewer.ReviewStatus) -> None:
    """The review's state in words (with a bar while it runs)."""
    t = ui.translator()
    if now.state == "reviewing":
        done = min(now.done + 1, now.total)
        if now.seconds_left is None:
            text = t("review.reviewing", done=done, total=now.total)
        else:
            left = i18n.wait(now.seconds_left, ui.lang())
            text = t("review.reviewing_left", done=done, total=now.total, left=left)
        st.progress(now.done / now.total if now.total else 0.0, text=text)
    elif now.state == "queued":
        key = "review.queued_next" if not now.ahead else "review.queued_one" if now.ahead == 1 else None
        st.info(t(key) if key else t("review.queued", ahead=now.ahead))
    elif now.state == "waiting":
        st.warning(t("review.waiting"))
    elif now.state == "ready":
        st.success(t("review.ready"))
    elif now.state == "failed":
        st.error(t("review.failed", message=now.message))
    elif now.state == "outdated":
        st.info(t("review.outdated"))
    else:
        st.info(t("review.none"))


def progress(match_id: str, *, key: str) -> reviewer.ReviewStatus:
    """The review's state, looked at again every :data:`POLL_SECONDS` while it runs; once it is ready the
    whole page runs again, to show the solver's findings and costs. Returns the state shown first."""
    first = status(match_id)

    @st.fragment(run_every=POLL_SECONDS if first.state in ACTIVE else None)
    def looked_at(shown: str) -> None:
        t = ui.translator()
        now = status(match_id)
        if now.state != shown and shown in ACTIVE and now.state not in ACTIVE:
            st.rerun()  # the whole page: the archive changed
        with st.container(key=f"{key}_review_state"):
            state_line(now)
            running = reviewer.running()
            if running is not None and now.state == "queued" and now.ahead > 1:
                # the callback runs before the rerun the click makes, which then shows the new place
                st.button(
                    t("review.next"),
                    key=f"{key}_review_next",
                    icon=":material/fast_forward:",
                    on_click=running.request,  # after the deal under way, before the other matches
                    args=([match_id],),
                )

    looked_at(first.state)
    return first


def mistake_box(match_id: str, rank: int, row: dict[str, Any], *, trick_size: int, key: str) -> None:
    """One of the biggest mistakes: who, where, the card (and the better ones), what it cost and
    why, with a link to that moment in the Deal replay."""
    t = ui.translator()
    language = ui.lang()
    where = (
        t("review.where_card", deal=row["deal"], trick=row["trick"])
        if row["trick"]
        else t("review.where_call", deal=row["deal"])
    )
    kind = i18n.label_of("kind", str(row["kind"]), language)
    card = cards.SYMBOLS.get(row["card"], row["card"]) if row["card"] else ""
    better = " ".join(cards.SYMBOLS.get(c, c) for c in row["better"] or [])
    with st.container(border=True, key=f"{key}_mistake_{rank}"):
        who = str(row["player"] or "")
        if row.get("dummy"):  # the dealer chose the dummy's card: shown as the dummy's, as the replay does
            who = t("replay.dummy_of", name=who)
        # "**1. **" with nobody named would show its asterisks: the rank alone is bold then
        head = f"**{rank}. {ui.markdown_text(who)}**" if who else f"**{rank}.**"
        st.markdown(f"{head} · {ui.markdown_text(where)}")
        parts = [f"**{ui.markdown_text(card)}**" if card else "", ui.markdown_text(kind)]
        if better:
            parts.append(t("review.better", cards=ui.markdown_text(better)))
        if row["view_cost"] is not None:  # the cost with its measure, as the report and findings --top say it
            cost = row_cost_in_words(row, language)
            parts.append(t("review.cost_points", cost=ui.markdown_text(cost)))
        elif row["points"] is not None:  # not costed by the solver (yet): what the quick check says
            parts.append(t("review.at_stake", points=i18n.number(tenths(row["points"]), language)))
        st.markdown(" · ".join(part for part in parts if part))
        text = row["explanation_nl"] if language == "nl" and row["explanation_nl"] else row["explanation"]
        if text:
            st.caption(ui.markdown_text(minus_signs(str(text))))
        st.page_link(
            ui.PAGE_FILES["replay"],
            label=t("review.open"),
            icon=":material/playing_cards:",
            query_params={
                "match": match_id,
                "deal": str(row["deal"] or 1),
                "step": str(step_of(row["trick"], row["play"], trick_size)),
                **ui.language_params(),
            },
        )


def small_costs(match_id: str, player: str | None) -> float:
    """What the decisions of one player (of everyone: ``None``) cost from their view over a match,
    summed as the ledger sums them (its ``mistakes``); 0 without the solver's costs."""
    ledger = data.match_ledger(match_id)
    if ledger.height == 0:
        return 0.0
    if player is not None:
        ledger = ledger.filter(pl.col("player").str.to_lowercase() == player.lower())
    return float(ledger["mistakes"].fill_null(0.0).sum())


def section(match_id: str, *, player: str | None, trick_size: int, key: str, columns: int = 3) -> None:
    """The review's state and the three costliest decisions of a match (of one player, or of
    everyone), each in a box; ``key`` keeps two pages' widgets apart."""
    t = ui.translator()
    now = progress(match_id, key=key)
    mistakes = data.biggest_mistakes(match_id, player=player)
    outdated = now.state != "ready" and data.solver_review(match_id) == "outdated"
    if mistakes.height == 0 and outdated:
        st.caption(t("review.nothing_outdated"))  # a solver's review, not the quick check's
    elif mistakes.height == 0 and now.state in ACTIVE:
        st.caption(t("review.nothing_yet"))
    elif mistakes.height == 0:
        st.caption(t("review.nothing") if player is None else t("review.nothing_for", player=player))
        small = small_costs(match_id, player)
        if small >= 0.05:
            language = ui.lang()
            st.caption(
                t(
                    "review.small_costs",
                    threshold=i18n.number(COST_THRESHOLDS.inaccuracy, language),
                    points=i18n.number(tenths(small), language),
                )
            )
    else:
        if now.state == "ready":
            st.caption(t("review.caption_ready"))
        elif outdated:
            st.caption(t("review.caption_outdated"))
        else:
            st.caption(t("review.caption_quick"))
        places = st.columns(columns)
        for rank, row in enumerate(mistakes.iter_rows(named=True), start=1):
            with places[(rank - 1) % columns]:
                mistake_box(match_id, rank, row, trick_size=trick_size, key=key)
