"""The manillen-replay dashboard: ``manillen dashboard`` (or ``streamlit run dashboards/streamlit_app.py``).

The archive comes from ``-- --db FILE`` after the script name or ``$MANILLEN_DB``. This file only
sets up the frame: the language switch and the navigation over one file per page.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Streamlit puts this folder on the path, not the repository root the pages import from.
_ROOT = str(Path(__file__).resolve().parent.parent)
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

# The tab's icon is a file of the package: a material or emoji icon would be fetched from a CDN.
ICON = Path(__file__).resolve().parent / "static" / "icon.svg"


def main() -> None:
    """The frame of every page: the language switch, the visitor's pages, the page asked for."""
    import streamlit as st

    from dashboards import access, data, serve, ui

    st.set_page_config(page_title="Manillen replay", page_icon=str(ICON), layout="wide")

    ui.language_from_address()
    ui.language_switch()
    ui.language_to_address()
    t = ui.translator()
    # a session whose token was revoked since its tab opened stops here, before any page runs
    visitor = access.admit()

    pages = [
        st.Page(
            ui.PAGE_FILES[serve.DEFAULT_PAGE],
            title=t("nav.archive"),
            icon=":material/inventory_2:",
            url_path=serve.DEFAULT_PAGE,  # served at /; /archive redirects there (serve.DefaultPageAddress)
            default=True,
        ),
        st.Page(
            ui.PAGE_FILES["record"], title=t("nav.record"), icon=":material/edit_note:", url_path="record"
        ),
        st.Page(
            ui.PAGE_FILES["organiser"],
            title=t("nav.organiser"),
            icon=":material/groups_3:",
            url_path="organiser",
        ),
        st.Page(
            ui.PAGE_FILES["standings"],
            title=t("nav.standings"),
            icon=":material/leaderboard:",
            url_path="standings",
        ),
        st.Page(ui.PAGE_FILES["match"], title=t("nav.match"), icon=":material/show_chart:", url_path="match"),
        st.Page(
            ui.PAGE_FILES["replay"], title=t("nav.replay"), icon=":material/playing_cards:", url_path="replay"
        ),
        st.Page(
            ui.PAGE_FILES["mistakes"], title=t("nav.mistakes"), icon=":material/report:", url_path="mistakes"
        ),
        st.Page(
            ui.PAGE_FILES["train"], title=t("nav.train"), icon=":material/fitness_center:", url_path="train"
        ),
        st.Page(
            ui.PAGE_FILES["players"], title=t("nav.players"), icon=":material/groups:", url_path="players"
        ),
        st.Page(ui.PAGE_FILES["sql"], title=t("nav.sql"), icon=":material/database:", url_path="sql"),
        st.Page(
            ui.PAGE_FILES["annotations"],
            title=t("nav.annotations"),
            icon=":material/comment:",
            url_path="annotations",
        ),
    ]
    # what a visitor may not use is not offered, nor found at its address: the SQL console is the
    # organiser's, as is setting up a club evening; the Record page the organiser's and each table's
    # recorder's
    if not visitor.is_organiser:
        pages = [p for p in pages if p.url_path not in ("sql", "organiser")]
    if not visitor.may_record_any:
        pages = [p for p in pages if p.url_path != "record"]
    page = st.navigation(pages)
    st.sidebar.caption(t("sidebar.archive", path=ui.markdown_text(data.archive().path.name)))
    page.run()


# The SQL page's worker processes start by multiprocessing's spawn, which runs the main script
# again as __mp_main__ (Streamlit makes this script __main__): there it draws nothing, and loads
# neither Streamlit nor the pages (each worker ran every page's imports, and logged a hundred
# "missing ScriptRunContext" warnings)
if __name__ != "__mp_main__":
    main()
