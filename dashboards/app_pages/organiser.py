"""Club evening: the organiser sets up an evening on a phone and hands each table its link.

Set-up is one form: paste the names (the last evening's players are filled in), check the date
and venue, tap the button. The evening goes into the archive with one draft per table and round
(:mod:`dashboards.evenings`); each table's Record page link opens that draft, with the table's
players seated and the partners rotating block by block. Below: the standings link and every
player's evening report.

Served on a network (tokens asked), the page shows the organiser's own join address and QR code,
and each table's link is a join address with that table's recorder token (and a QR code to scan
from this phone or a printed sheet); the standings' link carries a viewer's token. The tokens
issued are listed with a button each to revoke them, and a table's at once.
"""

from __future__ import annotations

import datetime
from urllib.parse import urlencode

import streamlit as st

from dashboards import access, club_rules_box, data, drafts, evenings, ui
from dashboards import recording as rec
from manillen_replay.club_rules import ClubRules
from manillen_replay.errors import ManillenError
from manillen_replay.evening import TABLE_SIZE, Evening, parse_names, player_list_problem
from manillen_replay.rules import CAFE_OPTIONS, Rules

t = ui.translator()
language = ui.lang()
ALL_REPORTS = "organiser_all_reports"  # (evening id, the ZIP file, its number of reports)
PICK = "organiser_pick"  # the evening shown, kept in the page address as ?evening=
LINKS = "organiser_links"  # evening id -> link -> (token, key): a token is shown once, kept here

st.title(t("organiser.title"))
if not access.current_visitor().is_organiser:
    st.info(t("organiser.only"))
    st.stop()
networked = access.access_required()


def _qr(address: str, caption: str) -> None:
    """A join address as a QR code, its address below it to copy or send."""
    st.image(access.qr_svg(address, scale=5), caption=caption, width=220)
    st.code(address, language=None, wrap_lines=True)


def _kept_links(evening_id: str) -> dict[str, tuple[str, str]]:
    links: dict[str, dict[str, tuple[str, str]]] = st.session_state.setdefault(LINKS, {})
    return links.setdefault(evening_id, {})


def _organiser_address() -> None:
    address = access.organiser_join_address()
    if address is None:
        return
    with st.expander(t("organiser.own_address"), icon=":material/qr_code_2:"):
        st.caption(t("organiser.own_address_help"))
        _qr(address, t("organiser.own_address"))


def _last_evening() -> Evening | None:
    """The latest evening: its players, rounds and deals a block fill in the form (a club mostly
    sees the same people, and plays the same format; the form offered 12 deals a block mid-way
    through an evening of 2)."""
    ids = evenings.evening_ids()
    return evenings.load(ids[0]) if ids else None


def _under_way(latest: Evening | None) -> tuple[Evening, int] | None:
    """The latest evening when it is today's (or yesterday's: an evening goes on past midnight) and
    has deals saved, and at how many of its tables: an organiser's sweep tapped "Set up the
    evening" again mid-evening, and the running evening's links and standings gave way to an
    empty one without a word."""
    if latest is None or latest.date < datetime.date.today() - datetime.timedelta(days=1):
        return None
    saved = evenings.saved_matches(latest)
    return (latest, len({t.key for t in latest.tables if t.match_id in saved})) if saved else None


def _club_rules_choice() -> ClubRules | None:
    # a club's rules saved in the archive (the four-player game's: the club format), chosen by
    # name; None for the toggles below
    return club_rules_box.choice(
        "organiser_club_rules", t("record.rules_default"), t("organiser.club_rules_help"), variant="four"
    )


def _setup_form() -> None:
    """The new evening's form; setting it up shows the evening below."""
    last = _last_evening()
    running = _under_way(last)
    with st.form("organiser_new", border=False):
        if running is not None:
            evening, tables = running
            key = "organiser.under_way_one" if tables == 1 else "organiser.under_way"
            said = t(key, evening=evening.evening_id, tables=tables)
            # the links are replaced only where the evening has them (served on a network)
            st.warning(f"{said} {t('organiser.under_way_links') if networked else ''}".strip())
            replace_running = st.checkbox(t("organiser.replace_running"), key="organiser_replace_running")
        names = st.text_area(
            t("organiser.players"),
            value="\n".join(last.players) if last is not None else "",
            height=200,
            help=t("organiser.players_help"),
            key="organiser_players",
        )
        row = st.columns(2)
        date = row[0].date_input(t("organiser.date"), value=datetime.date.today(), key="organiser_date")
        venue = row[1].text_input(
            t("organiser.venue"), value=drafts.last_venue() or "", key="organiser_venue"
        )
        row = st.columns(2)
        rounds = row[0].number_input(
            t("organiser.rounds"), 1, 5, last.rounds if last is not None else 1, key="organiser_rounds"
        )
        deals = row[1].number_input(
            t("organiser.deals"),
            1,
            40,
            int(last.rules.get("deals", Rules().deals)) if last else Rules().deals,
            key="organiser_deals",
        )
        sheet_tables = st.multiselect(
            t("organiser.sheet_tables"), list(range(1, 21)), key="organiser_sheet_tables", placeholder="—"
        )
        with st.expander(t("organiser.house_rules")):
            club = _club_rules_choice()
            cafe = {
                name: st.toggle(t(f"record.cafe_{name}"), value=False, key=f"organiser_cafe_{name}")
                for name in CAFE_OPTIONS
            }
            partner_exempt = st.toggle(
                t("record.partner_exempt"), value=Rules().partner_exempt, key="organiser_partner_exempt"
            )
            st.caption(t("record.save_club_rules"))
            saving = club_rules_box.fields("organiser", in_form=True)
        submitted = st.form_submit_button(
            t("organiser.start"), type="primary", width="stretch", key="organiser_start"
        )
    club_rules_box.said_saved("organiser")  # after the form: the rerun closes its boxes
    players = parse_names(names)
    problem = player_list_problem(players) if players else None
    if players and (problem is None or problem[0] != "not_tables"):  # a count of tables that are full
        tables = len(players) // TABLE_SIZE
        key = "organiser.count_one" if tables == 1 else "organiser.count"
        st.caption(t(key, players=len(players), tables=tables))
    house: dict[str, object] = {}
    if partner_exempt != Rules().partner_exempt:
        house["partner_exempt"] = partner_exempt
    chosen_cafe = {name: True for name, on in cafe.items() if on}
    if chosen_cafe:
        house["cafe"] = chosen_cafe
    if club is not None:  # the club's saved rules stand for the toggles
        house = club.options
    if saving.pressed:  # the house rules only: the number of deals is the evening's
        club_rules_box.save("organiser", saving, house)
        return
    if not submitted:
        return
    if running is not None and not replace_running:
        st.error(t("organiser.replace_running_needed", evening=running[0].evening_id))
        return
    rules = {**house, "deals": int(deals)}
    if problem is not None or not players:
        # said in the page's language (the evening module's words are English)
        key, values = problem or ("too_few", {"least": TABLE_SIZE, "given": 0})
        st.error(t(f"organiser.problem.{key}", **values))
        return
    try:
        evening = evenings.create(
            date or datetime.date.today(),
            venue,
            players,
            rounds=int(rounds),
            scoresheet_tables=[int(n) for n in sheet_tables],
            rules=rules,
        )
    except ManillenError as error:
        st.error(ui.without_folders(str(error)))
        return
    st.query_params["evening"] = evening.evening_id
    st.session_state[PICK] = evening.evening_id
    st.success(t("organiser.created", evening=evening.evening_id))
    if club is not None and (chosen_cafe or partner_exempt != Rules().partner_exempt):
        # the switches stayed open to change beside a club's rules, which stand for them: said
        st.info(t("organiser.switches_unused", club=club.name))
    if networked:
        st.session_state.setdefault(LINKS, {})[evening.evening_id] = evenings.issue_links(evening)


def _new_link(evening: Evening, link: str) -> None:
    """A button that issues a new token for one link (its earlier ones revoked)."""
    label = (
        t("organiser.new_standings_link")
        if link == evenings.STANDINGS_LINK
        else t("organiser.new_table_link", table=link)
    )
    if st.button(label, key=f"organiser_new_link_{link}", icon=":material/qr_code_2:"):
        with ui.messages():
            _kept_links(evening.evening_id)[link] = evenings.new_table_link(evening, link)
            st.rerun()


def _tables(evening: Evening) -> None:
    """Each round's tables, each with its Record page link and address (a join address with the
    table's token, and its QR code, when served on a network); then those to print, on one page."""
    links = _kept_links(evening.evening_id)
    printed: list[tuple[str, str]] = []
    for number in range(1, evening.rounds + 1):
        if evening.rounds > 1:
            st.subheader(t("organiser.round", round=number))
        for table in evening.tables_of(number):
            blocks = table.blocks[0]
            # the names as typed: escaped whole, the line still drew a name's :material/...: icon
            shown = [ui.name_text(name) for name in blocks]
            players = f"{shown[0]} & {shown[2]} – {shown[1]} & {shown[3]}"
            line = t("organiser.table", table=ui.name_text(str(table.number)), players=players)
            if table.scoresheet_only:
                line += f" · {t('organiser.sheet_only')}"
            with st.container(border=True, key=f"organiser_table_{number}_{table.number}"):
                st.markdown(line)
                draft_id = evenings.draft_id_of(table)
                st.page_link(
                    ui.PAGE_FILES["record"],
                    label=t("organiser.open_table", table=table.number),
                    icon=":material/edit_note:",
                    query_params={"draft": draft_id, **ui.language_params()},
                )
                params = {"draft": draft_id, **ui.language_params()}
                if not networked:
                    st.caption(t("organiser.table_address", table=table.number))
                    st.code(ui.absolute("record?" + urlencode(params)), language=None, wrap_lines=True)
                elif table.key in links:
                    address = access.join_address_here(links[table.key][0], "record", params)
                    _qr(address, t("organiser.table_join", table=table.number))
                    shown_round = f"{t('organiser.round', round=number)} · " if evening.rounds > 1 else ""
                    printed.append((shown_round + line, address))
                else:
                    st.caption(t("organiser.link_not_shown"))
                    _new_link(evening, table.key)
    if printed:
        st.download_button(
            t("organiser.print_sheet"),
            evenings.links_sheet_html(f"{t('organiser.title')}: {evening.evening_id}", printed, language),
            file_name=f"{evening.evening_id}-tables.html",
            mime="text/html",
            key="organiser_print_sheet",
            icon=":material/print:",
            on_click="ignore",
        )


def _standings_link(evening: Evening) -> None:
    """The Standings page: a link for this phone; served on a network, a viewer's join address
    for the big screen too."""
    params = {"evening": evening.evening_id, **ui.language_params()}
    st.page_link(
        ui.PAGE_FILES["standings"],
        label=t("organiser.open_standings"),
        icon=":material/leaderboard:",
        query_params=params,
    )
    if not networked:
        return
    links = _kept_links(evening.evening_id)
    with st.container(border=True, key="organiser_standings_link"):
        if evenings.STANDINGS_LINK in links:
            address = access.join_address_here(links[evenings.STANDINGS_LINK][0], "standings", params)
            _qr(address, t("organiser.standings_join"))
        else:
            st.caption(t("organiser.link_not_shown"))
            _new_link(evening, evenings.STANDINGS_LINK)


def _issued_tokens(evening: Evening) -> None:
    """Every token issued, each with a button to revoke it; each table's at once."""
    st.subheader(t("organiser.tokens"))
    st.caption(t("organiser.tokens_help"))
    issued = []
    with ui.messages():
        issued = access.issued_tokens()
    if not issued:
        st.info(t("organiser.no_tokens"))
        return
    links = _kept_links(evening.evening_id)
    for entry in issued:
        row = st.columns([4, 1], vertical_alignment="center")
        whom = (
            t("organiser.token_recorder", table=entry.table) if entry.table else t("organiser.token_viewer")
        )
        # the key as code (escaped, its backticks showed), the note in the page's language
        note = evenings.note_words(entry.note, language) if entry.note else "—"
        row[0].markdown(f"`{entry.key}` · " + ui.markdown_text(f"{whom} · {note}"))
        if row[1].button(t("organiser.revoke"), key=f"organiser_revoke_{entry.key}"):
            with ui.messages():
                access.revoke_token(entry.key)
                for link, (_, key) in list(links.items()):
                    if key == entry.key:
                        del links[link]
                st.rerun()
    tables = sorted({e.table for e in issued if e.table}, key=lambda n: (not n.isdigit(), n.zfill(9)))
    if tables:
        row = st.columns(min(len(tables), 4))
        for index, table in enumerate(tables):
            if row[index % len(row)].button(
                t("organiser.revoke_table", table=table), key=f"organiser_revoke_table_{table}"
            ):
                with ui.messages():
                    access.revoke_table(table)
                    links.pop(table, None)
                    st.rerun()


def _reports(evening: Evening) -> None:
    """Every player's report of each of their matches this evening, to download."""
    st.subheader(t("organiser.reports"))
    st.caption(t("organiser.reports_help"))
    if st.button(t("organiser.reports_all"), key="organiser_reports_all", icon=":material/folder_zip:"):
        with st.spinner(t("organiser.reports_making")), ui.messages():
            st.session_state[ALL_REPORTS] = (evening.evening_id, *evenings.all_reports(evening, language))
    made_all = st.session_state.get(ALL_REPORTS)
    if made_all and made_all[0] == evening.evening_id:
        st.download_button(
            t("organiser.reports_zip", count=made_all[2]),
            made_all[1],
            file_name=f"{evening.evening_id}-reports.zip",
            mime="application/zip",
            key="organiser_reports_zip",
            icon=":material/download:",
            on_click="ignore",
        )
    player = ui.selectbox(
        t("organiser.report_player"), evening.players, index=None, key="organiser_report_player"
    )
    if player is None:
        return
    with ui.messages():
        made = evenings.player_report(evening, str(player), language)
        if not made:
            st.info(t("organiser.no_report", player=ui.name_text(str(player))))
        for table, page in made:
            st.download_button(
                t("organiser.report_download", player=player, table=table.number, round=table.round),
                page.encode("utf-8"),
                file_name=f"{table.match_id}-{rec.slug(str(player))}.html",
                mime="text/html",
                key=f"organiser_report_{table.match_id}",
                icon=":material/download:",
            )


try:
    ids = evenings.evening_ids()
except ManillenError as error:  # an archive this program cannot read (another's, a newer one)
    st.error(t("error.unreadable", path=data.archive().path, message=ui.without_folders(str(error))))
    st.stop()
_organiser_address()
with st.expander(t("organiser.new"), expanded=not ids, icon=":material/group_add:"), ui.messages():
    _setup_form()
ids = evenings.evening_ids()
if not ids:
    st.info(t("organiser.none"))
    st.stop()
wanted = st.session_state.get(PICK) or st.query_params.get("evening")
if wanted not in ids:
    wanted = ids[0]
st.session_state[PICK] = wanted
chosen = ui.selectbox(t("organiser.evening"), ids, key=PICK)
st.query_params["evening"] = str(chosen)
shown = evenings.load(str(chosen))
if shown is None:
    st.stop()
if not networked and ui.served_here_only():
    # the tables' addresses below name this computer: a phone cannot open them
    st.warning(t("organiser.this_computer_only"))
_standings_link(shown)
_tables(shown)
if networked:
    _issued_tokens(shown)
_reports(shown)
