"""SQL: the person's own read-only query, with the documented examples one click away."""

from __future__ import annotations

import functools

import polars as pl
import streamlit as st

from dashboards import access, data, i18n, ui
from manillen_replay.archive_defaults import QUERY_MAX_ROWS
from manillen_replay.store import QueryError, QueryRefusedError, QueryTimeoutError

t = ui.translator()
st.title(t("sql.title"))
if not access.current_visitor().is_organiser:  # not in a recorder's or viewer's navigation either
    st.error(t("sql.organiser_only"))
    st.stop()
if not ui.archive_ready():
    st.stop()
st.caption(t("sql.intro"))
data.warm_console()  # the queries' worker processes start while the person types

QUERY = "sql_query"
OUTCOME = "sql_outcome"  # what the last query run gave: ("rows", frame), ("error", message), ...
if QUERY not in st.session_state:
    st.session_state[QUERY] = (
        "SELECT player, matches, deals, deals_won\nFROM player_summary\nORDER BY deals DESC"
    )


def _use_example(query: str) -> None:
    st.session_state[QUERY] = query
    st.session_state["sql_run"] = True


examples = data.example_queries(lang=ui.lang())
with st.expander(t("sql.examples"), expanded=False):
    if not examples:
        st.caption(t("sql.no_examples"))
    for index, (title, query) in enumerate(examples):
        st.button(title, key=f"sql_example_{index}", on_click=_use_example, args=(query,), type="tertiary")

LIMIT_REASONS = ("memory", "too_large")  # the query ran into the page's limit, not a mistake of it


def _in_words(error: QueryError | QueryRefusedError) -> str:
    """Why a query was refused or stopped, in the page's language where the console says which
    reason it was; else DuckDB's own words (a syntax error quotes the query)."""
    if error.reason is None:
        return str(error)
    values = {
        name: i18n.count(value) if isinstance(value, int) else value for name, value in error.values.items()
    }
    return t(f"sql.reason.{error.reason}", **values)


st.text_area(t("sql.query"), key=QUERY, height=160)
run = st.button(t("sql.run"), key="sql_run_button", type="primary") or st.session_state.pop("sql_run", False)
if run:
    # a query runs when asked, once: the page's other reruns (an edit, a click elsewhere, the
    # language) show what it gave, rather than run it again and hold a worker for its time limit
    asked = st.session_state[QUERY]
    if not asked.strip():
        st.session_state[OUTCOME] = ("empty", "")
    else:
        waiting = st.empty()

        def say_waiting() -> None:
            waiting.info(t("sql.waiting"))

        try:
            st.session_state[OUTCOME] = ("rows", data.user_query(asked, on_wait=say_waiting))
        except QueryRefusedError as error:
            st.session_state[OUTCOME] = ("refused", _in_words(error))
        except access.AccessRefusedError as error:
            st.session_state[OUTCOME] = ("refused", str(error))
        except QueryTimeoutError as error:  # the command's advice (--timeout) is no setting of this page
            st.session_state[OUTCOME] = ("timeout", error.waited)
        except QueryError as error:
            limit = error.reason in LIMIT_REASONS
            st.session_state[OUTCOME] = ("stopped" if limit else "error", _in_words(error))
        finally:
            waiting.empty()

kind, outcome = st.session_state.get(OUTCOME, (None, None))
if kind == "empty":
    st.info(t("sql.empty"))
elif kind == "refused":
    # a message holds what the person (or a recorder's names) typed: shown as text, never as
    # markdown (an image's address in it made the browser fetch it)
    st.error(t("sql.refused", message=ui.markdown_text(outcome)))
elif kind == "stopped":
    st.warning(t("sql.stopped", message=ui.markdown_text(outcome)))
elif kind == "timeout":  # a limit, as memory and size are: no failure of the query
    message = t("sql.timeout", seconds=i18n.number(data.QUERY_TIMEOUT, ui.lang()))
    if outcome >= 1:  # a whole second or more before a worker was free: the person waited that too
        message += t("sql.timeout_waited", seconds=i18n.number(round(outcome), ui.lang()))
    st.warning(t("sql.stopped", message=message))
elif kind == "error":
    # DuckDB's message quotes what the query held and may run over lines ("Candidate bindings:"):
    # shown as lines of text, where an address it quotes is no link
    st.error(t("sql.error", message=ui.code_block(outcome)))
elif kind == "rows":
    result = outcome
    if result.height > QUERY_MAX_ROWS:
        result = result.head(QUERY_MAX_ROWS)
        st.caption(t("sql.cut", count=i18n.count(QUERY_MAX_ROWS)))
    else:
        st.caption(t("sql.row") if result.height == 1 else t("sql.rows", count=result.height))
    # a DATE is a day (the grid wrote 2026-01-09 00:00:00 for one), as the CSV and the command write it
    days = {
        name: st.column_config.DateColumn(format="YYYY-MM-DD")
        for name, dtype in result.schema.items()
        if dtype == pl.Date
    }
    st.dataframe(result, hide_index=True, key="sql_result", column_config=days)
    # written when clicked, not with every run of the page: each copy of a large result took the
    # server hundreds of MB whether anybody downloaded it or not
    downloads = st.container(horizontal=True)
    downloads.download_button(
        t("sql.download"),
        functools.partial(data.csv_bytes, result),
        file_name="manillen-query.csv",
        mime="text/csv",
        key="sql_download",
        on_click="ignore",
    )
    downloads.download_button(
        t("sql.download_excel"),
        functools.partial(data.csv_bytes, result, excel=True),
        file_name="manillen-query-excel.csv",
        mime="text/csv",
        key="sql_download_excel",
        help=t("sql.download_excel_help"),
        on_click="ignore",
    )
