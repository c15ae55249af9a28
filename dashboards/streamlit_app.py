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

    # What a visitor may not use is not offered: the SQL console is the organiser's, as is setting
    # up a club evening; the Record page the organiser's and each table's recorder's. Their
    # addresses still reach the page, which says whose it is (it refuses before anything else): a
    # forwarded /sql link read "Page not found, running the app's main page", in English.
    withheld = set() if visitor.is_organiser else {"sql", "organiser"}
    if not visitor.may_record_any:
        withheld.add("record")

    def page_at(url_path: str, title: str, icon: str, default: bool = False) -> st.Page:
        return st.Page(
            ui.PAGE_FILES[url_path],
            title=t(title),
            icon=icon,
            url_path=url_path,
            default=default,
            visibility="hidden" if url_path in withheld else "visible",
        )

    pages = [
        # served at /; /archive redirects there (serve.DefaultPageAddress)
        page_at(serve.DEFAULT_PAGE, "nav.archive", ":material/inventory_2:", default=True),
        page_at("record", "nav.record", ":material/edit_note:"),
        page_at("organiser", "nav.organiser", ":material/groups_3:"),
        page_at("standings", "nav.standings", ":material/leaderboard:"),
        page_at("match", "nav.match", ":material/show_chart:"),
        page_at("replay", "nav.replay", ":material/playing_cards:"),
        page_at("mistakes", "nav.mistakes", ":material/report:"),
        page_at("train", "nav.train", ":material/fitness_center:"),
        page_at("players", "nav.players", ":material/groups:"),
        page_at("sql", "nav.sql", ":material/database:"),
        page_at("annotations", "nav.annotations", ":material/comment:"),
    ]
    page = st.navigation(pages)
    st.sidebar.caption(t("sidebar.archive", path=ui.markdown_text(data.archive().path.name)))
    page.run()


# The SQL page's worker processes start by multiprocessing's spawn, which runs the main script
# again as __mp_main__ (Streamlit makes this script __main__): there it draws nothing, and loads
# neither Streamlit nor the pages (each worker ran every page's imports, and logged a hundred
# "missing ScriptRunContext" warnings)
if __name__ != "__mp_main__":
    main()
