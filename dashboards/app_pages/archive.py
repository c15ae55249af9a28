"""Archive: how much is in it, a filterable list of matches, and an upload box to import more."""

from __future__ import annotations

from collections.abc import Callable

import polars as pl
import streamlit as st

from dashboards import access, club_rules_box, data, i18n, light_table, native_inputs, reviewer, ui
from manillen_replay.club_rules import ClubRules
from manillen_replay.errors import ManillenError
from manillen_replay.store import ArchiveLockedError
from manillen_replay.store.importer import Replacement

t = ui.translator()
st.title(t("archive.title"))
organiser = access.current_visitor().is_organiser  # uploads and putting versions back are theirs


def _count(noun: str, count: int | None) -> str:
    """``1 deal``, ``15 deals`` (``?`` when not known) in the page's language."""
    if count is None:
        return "?"
    return t(f"count.{noun}_one") if count == 1 else t(f"count.{noun}", count=count)


ASKED = "archive_replace_asked"  # the upload waiting for an answer: replace the matches it changes?
RESTORABLE = "archive_restorable"  # the matches the last upload replaced, offered to put back
UPLOADED = "archive_uploaded"  # the last upload's matches, each a link to its Match page
SHOWN_LINKS = 10  # links to the uploaded matches shown at most (a league's file holds hundreds)


def _review_state() -> None:
    """The background review's progress, under the title: the match under way, how many wait."""
    running = reviewer.running()
    if running is None:
        return
    busy = running.overview().busy

    @st.fragment(run_every=2.0 if busy else None)
    def progress(was_busy: bool) -> None:
        now = running.overview()
        if was_busy and not now.busy:
            st.rerun()  # everything reviewed: the counts and findings above may have changed
        if now.warming or (now.looking and now.current is None):
            text = t("review.archive_warming")
        elif now.current is not None:
            text = t(
                "review.archive_reviewing",
                match=now.current,
                done=min(now.done + 1, now.total),
                total=now.total,
                queued=now.queued,
            )
        else:
            text = t("review.archive_idle", reviewed=now.reviewed)
        st.caption(text)

    progress(busy)


_review_state()


def _club_rules_choice() -> ClubRules | None:
    # the club rules the upload is imported with (manillen import --rules NAME), chosen by name;
    # None for each match's own
    return club_rules_box.choice(
        "archive_club_rules", t("archive.club_rules_none"), t("archive.club_rules_help")
    )


def _upload() -> None:
    """Import an uploaded file; report it in the same words as ``manillen import``. A file that
    would replace matches of the archive with other content asks first."""
    uploaded = ui.file_uploader(
        t("archive.upload"), ["json", "jsonl", "mnl"], help=t("archive.upload_help"), key="archive_upload"
    )
    club = _club_rules_choice()
    if uploaded is None:
        st.session_state.pop(ASKED, None)
        return
    content = uploaded.getvalue()
    asked = st.session_state.get(ASKED)
    # the question holds for this file under these club rules: other rules, other replacements
    upload_key = (uploaded.name, len(content), club.name if club is not None else None)
    if asked is not None and asked[0] == upload_key:
        _ask(uploaded.name, content, asked[1], club)
        return
    if not st.button(t("archive.import_button"), key="archive_import"):
        return
    try:
        replacing = data.upload_replacements(uploaded.name, content, club)
    except ManillenError as error:
        _failed(error)
        return
    if replacing:
        st.session_state[ASKED] = (upload_key, replacing)
        st.rerun()
    _import(uploaded.name, content, replace=True, club=club)


def _ask(name: str, content: bytes, replacing: list[Replacement], club: ClubRules | None) -> None:
    """Which matches the upload would replace, and the choice: replace them, or not."""
    lines = [
        t(
            "archive.replace_one",
            match=r.match_id,
            before=_count("deals", r.deals_before),
            after=_count("deals", r.deals_after),
        )
        + (f"; {_comments_kept(r)}" if r.comments else "")
        + (f"; {t('archive.analysis_kept')}" if r.analysis_kept else "")
        for r in replacing
    ]
    st.warning(
        t("archive.replace_ask", name=name, matches=_count("matches", len(replacing)))
        + "\n\n- "
        + "\n- ".join(lines)
    )
    row = st.container(horizontal=True)
    if row.button(t("archive.replace_yes"), key="archive_replace_yes", type="primary"):
        st.session_state.pop(ASKED, None)
        _import(name, content, replace=True, club=club)
    if row.button(t("archive.replace_no"), key="archive_replace_no"):
        st.session_state.pop(ASKED, None)
        _import(name, content, replace=False, club=club)
    if row.button(t("archive.replace_cancel"), key="archive_replace_cancel"):
        st.session_state.pop(ASKED, None)
        st.rerun()


def _comments_kept(replacement: Replacement) -> str:
    """``its 4 coach comments stay with it``, in the page's language."""
    if replacement.comments == 1:
        return t("archive.comments_kept_one")
    return t("archive.comments_kept", comments=_count("comments", replacement.comments))


def _replaced(replacement: Replacement) -> str:
    """One match the upload replaced: its version in the archive, or the earlier record of the
    same match in the upload itself, and the one kept."""
    before, after = _count("deals", replacement.deals_before), _count("deals", replacement.deals_after)
    if replacement.earlier_place is None:
        said = t("archive.replaced_one", match=replacement.match_id, before=before, after=after)
        if replacement.comments:
            said += f" {_comments_kept(replacement).capitalize()}."
        if replacement.analysis_kept:
            said += f" {t('archive.analysis_kept').capitalize()}."
        return said
    return t(
        "archive.replaced_in_file",
        match=replacement.match_id,
        before=before,
        earlier=replacement.earlier_place,
        after=after,
        place=replacement.place,
    )


def _failed(error: ManillenError) -> None:
    """Why an upload was not imported: the archive held by another program, the upload over the
    page's limits, or another reason, each in its own words."""
    if isinstance(error, ArchiveLockedError):
        st.error(t("error.locked", message=error))
    elif isinstance(error, data.UploadRefusedError):
        st.error(t("archive.upload_refused", message=error))
    else:
        st.error(t("archive.import_failed", message=error))


# How many refused records the report after an upload lists, one box each; the rest are counted.
SHOWN_REFUSALS = 20


def _import(name: str, content: bytes, *, replace: bool, club: ClubRules | None) -> None:
    try:
        summary, analysis = data.import_upload(name, content, replace=replace, club=club)
    except ManillenError as error:
        _failed(error)
        return
    message = t(
        "archive.import_done",
        name=name,
        imported=summary.imported,
        replaced=summary.replaced,
        skipped=summary.skipped,
        refused=summary.refused,
        deals=_count("deals", summary.deals),
    )
    report = [("warning" if summary.refused else "success", message)]
    report += [("info", _replaced(r)) for r in summary.replacements]
    if summary.kept:
        report.append(("info", t("archive.kept", matches=_count("matches", summary.kept))))
    if summary.comments_added:
        report.append(
            ("info", t("archive.comments_added", comments=_count("comments", summary.comments_added)))
        )
    report += [
        ("error", t("archive.import_refused", problem=p.describe())) for p in summary.rejects[:SHOWN_REFUSALS]
    ]
    if len(summary.rejects) > SHOWN_REFUSALS:
        report.append(
            ("error", t("archive.refused_more", count=f"{len(summary.rejects) - SHOWN_REFUSALS:,}"))
        )
    if analysis.analysed:
        found = sum(analysis.by_category.values())
        report.append(
            (
                "info",
                t(
                    "archive.analysed",
                    matches=_count("matches", analysis.analysed),
                    deals=_count("deals", analysis.deals),
                    findings=_count("findings", found),
                ),
            )
        )
    report += [("warning", problem) for problem in analysis.problems]
    # the counts and the table above are stale now: show the report after a fresh run
    st.session_state["archive_report"] = report
    st.session_state[RESTORABLE] = [r.match_id for r in summary.replacements]
    st.session_state[UPLOADED] = data.upload_match_ids(name, content, club)  # those already there too
    st.rerun()


def _restore(match_id: str) -> None:
    """Put back the earlier version of a match the last upload replaced."""
    try:
        restored = data.restore_version(match_id)
    except ManillenError as error:
        st.session_state["archive_report"] = [("error", str(error))]
    else:
        deals = _count("deals", restored.summary.deals)
        words = "archive.restored_with_analysis" if restored.analysis else "archive.restored"
        st.session_state["archive_report"] = [
            ("success", t(words, number=restored.version, match=match_id, deals=deals))
        ]
    restorable = st.session_state.get(RESTORABLE, [])
    st.session_state[RESTORABLE] = [m for m in restorable if m != match_id]


for kind, text in st.session_state.pop("archive_report", []):
    getattr(st, kind)(text)
uploaded_ids = st.session_state.pop(UPLOADED, [])
for uploaded_id in uploaded_ids[:SHOWN_LINKS]:
    st.page_link(
        ui.PAGE_FILES["match"],
        label=ui.markdown_text(uploaded_id),
        icon=":material/playing_cards:",
        query_params={"match": uploaded_id, **ui.language_params()},
    )
if len(uploaded_ids) > SHOWN_LINKS:
    st.caption(t("archive.more_uploaded", count=i18n.count(len(uploaded_ids) - SHOWN_LINKS)))
for replaced in st.session_state.get(RESTORABLE, []) if organiser else []:
    st.button(
        t("archive.restore", match=replaced),
        key=f"archive_restore_{replaced}",
        on_click=_restore,
        args=(replaced,),
        icon=":material/undo:",
    )

if not ui.archive_ready():
    if organiser:
        _upload()
    st.stop()

numbers = data.counts()
ui.figures(
    [
        (t(f"archive.{name}"), i18n.count(numbers[name]))
        for name in ("matches", "deals", "players", "findings")
    ],
    key="archive_counts",
)

language = ui.lang()


def variant_label(variant: str) -> str:
    """A variant's name in the chosen language."""
    return i18n.label_of("variant", variant, language)


# the date fields' texts, kept while the filter box is closed (its inputs are not drawn then)
DATES_KEPT = "archive_dates_kept"


def _show_filters() -> None:
    """The player, venue, variant and date filters (their choices kept for the session)."""
    filters = st.columns(4)
    lists: tuple[tuple[str, list[str], str, Callable[[str], str]], ...] = (
        ("archive.filter_player", data.players(), "archive_players", str),
        ("archive.filter_venue", data.venues(), "archive_venues", str),
        ("archive.filter_variant", data.variants(), "archive_variants", variant_label),
    )
    for column, (label, options, key, shown) in zip(filters, lists, strict=False):
        column.multiselect(
            t(label),
            options,
            format_func=shown,
            key=key,
            persist_state="session",
            placeholder=t("filter.all"),
            select_all=False,  # Streamlit's "Select all" is English only; none ticked is all
        )
    # the browser's own date fields, as on the Mistakes page (Streamlit's date input would cost
    # the opened box its date-picker scripts)
    date_fields = ui.date_range_fields(t("archive.filter_dates"), st.session_state.get(DATES_KEPT))
    if date_fields:
        with filters[3]:
            st.session_state[DATES_KEPT] = native_inputs.inputs("archive_dates", date_fields)


# The filters are drawn only once opened: their widgets are the heaviest scripts a new tab of
# this page would load, and the table shows every match until a filter is chosen. Choices stay
# in force while the box is closed; the caption over the table says how many. (The label stays
# the same: a new label would be a new expander, closed again.)
filter_box = st.expander(t("archive.filters"), key="archive_filters_open", on_change="rerun")
if filter_box.open:
    with filter_box:
        _show_filters()
chosen_players = list(st.session_state.get("archive_players") or [])
chosen_venues = list(st.session_state.get("archive_venues") or [])
chosen_variants = list(st.session_state.get("archive_variants") or [])
dates = ui.dates_of(st.session_state.get(DATES_KEPT, {}))
active = sum(map(bool, (chosen_players, chosen_venues, chosen_variants, dates)))

shown = data.matches(chosen_players, chosen_venues, chosen_variants, dates)
shown_text = t("archive.shown", shown=shown.height, total=numbers["matches"])
if active:
    shown_text += f" ({t('archive.filters_active', count=active)})"
st.caption(shown_text + ". " + t("archive.click_row"))
evening = pl.col("evening")  # a club evening: the teams change every block
table = shown.with_columns(
    pl.when(evening)
    .then(pl.lit(""))
    .when(pl.col("final_score_2").is_not_null())  # the three-player games: a score each
    .then(pl.format("{}-{}-{}", "final_score_0", "final_score_1", "final_score_2"))
    .otherwise(pl.format("{}-{}", "final_score_0", "final_score_1"))
    .alias("score"),
    pl.when(evening)
    .then(pl.lit(t("archive.blocks_won")) + pl.col("blocks_won").fill_null(t("archive.no_block_yet")))
    .otherwise("team_0")
    .alias("team_0"),
    pl.when(evening).then(pl.lit("")).otherwise(pl.col("team_1").fill_null("")).alias("team_1"),
    pl.col("variant").map_elements(variant_label, pl.String),
    pl.col("venue").fill_null(""),
)
shown_columns = [
    "match_id",
    "date",
    "venue",
    "event",
    "variant",
    "team_0",
    "team_1",
    "score",
    "deals",
    "findings",
]
if table["event"].null_count() == table.height:
    shown_columns.remove("event")  # an archive without events needs no column of blanks
light_table.grid_toggle("archive")
light_table.show(
    table.select(shown_columns),
    key="archive_table",
    labels={
        "match_id": t("col.match"),
        "date": t("col.date"),
        "venue": t("col.venue"),
        "event": t("col.event"),
        "variant": t("col.variant"),
        "team_0": t("col.team0"),
        "team_1": t("col.team1"),
        "score": t("col.score"),
        "deals": t("archive.deals"),
        "findings": t("col.findings"),
    },
    page="match",
    targets=[{"match": m} for m in table["match_id"]],
    # short of room, a venue and the teams take two lines rather than push the last column out
    wrap=("match_id", "venue", "event", "team_0", "team_1"),  # an evening table's id is long
    # on a phone: when, who played and how it ended, the row fitting a 390-pixel screen; a match's
    # id (zwaan-2026-08-20-1, 150 pixels) would push the score off it, and a tap opens the match
    phone=("date", "team_0", "team_1", "score"),
    caption=t("archive.title"),
    grid="archive",
)

# drawn only once opened: the upload box is a heavy element, and most visits only browse
upload_box = (
    st.expander(t("archive.upload"), key="archive_upload_open", on_change="rerun") if organiser else None
)
if upload_box is not None and upload_box.open:
    with upload_box:
        _upload()
