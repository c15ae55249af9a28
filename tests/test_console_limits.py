"""The SQL console's limits (issue 31, items 6 and 8): every query stops at its time limit, even
one DuckDB folds while planning and will not interrupt, and a query on the dashboard never
holds up a save (it runs in a worker process, on a snapshot of the archive)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import polars as pl
import pytest
from streamlit.testing.v1 import AppTest

from dashboards import data
from manillen_replay.record import dumps
from manillen_replay.store import QueryError, QueryRefusedError, QueryTimeoutError, Store
from manillen_replay.store.console_pool import ConsolePool, resident_bytes

from .factories import random_record
from .test_dashboard import APP, build_archive, open_page, type_query

FOLDED = "SELECT length(repeat(repeat('x', 100000), 30000)) AS n"
"""A constant DuckDB folds while planning, deaf to interrupts: it ran 32 s under a 1 s limit."""
# No test here times the stop with a clock, which would make it pass or fail by the machine's
# speed: a query that was not stopped ends with its result, and the time-limit error comes only
# from the worker being ended at the limit (pebble's timeout).


@pytest.fixture
def archive(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The dashboard's archive, written by this test alone."""
    path = tmp_path / "club.duckdb"
    build_archive(path)
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(path))
    return path


def test_sql_command_stops_a_folded_constant_at_its_time_limit(tmp_path: Path, sample_db: Path) -> None:
    script = (
        "import sys; from manillen_replay.cli import main; import manillen_replay.cli.archive; "
        "import manillen_replay.store, duckdb, polars; print('ready', flush=True); "
        f"sys.argv = ['manillen', 'sql', {FOLDED!r}, '--db', {str(sample_db)!r}, '--timeout', '1']; main()"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert process.stdout is not None and process.stdout.readline().strip() == "ready"
    output, errors = process.communicate(timeout=600)  # a hang guard only
    assert process.returncode == 1, (output, errors)
    assert "Error: the query ran longer than 1 second and was stopped" in errors
    assert "Traceback" not in errors and "FATAL" not in errors and not output


def test_dashboard_stops_a_folded_constant_at_its_time_limit(archive: Path) -> None:
    data.user_query("SELECT 1 AS n")  # a worker is ready: its start is not the query's time
    with pytest.raises(QueryTimeoutError, match="longer than 1 second and was stopped"):
        data.user_query(FOLDED, timeout=1)
    assert data.user_query("SELECT 42 AS n")["n"].to_list() == [42]  # the console still works


def _query_in_the_background(sql: str, timeout: float) -> tuple[threading.Thread, list[object]]:
    """A thread running ``sql`` on the dashboard's console, and where its answer or error goes."""
    answer: list[object] = []
    started = threading.Event()

    def run() -> None:
        started.set()
        try:
            answer.append(data.user_query(sql, timeout=timeout))
        except QueryError as error:
            answer.append(error)

    runner = threading.Thread(target=run)
    runner.start()
    assert started.wait(60)
    return runner, answer


def test_a_save_does_not_wait_for_a_long_query(archive: Path) -> None:
    data.user_query("SELECT 1 AS n")
    # The query sleeps: it holds its worker and its snapshot as a long computation would, without
    # the processor time of one (a count over a huge range, stopped at a 20-second limit, took 10
    # processor seconds and more). It sleeps longer than the saves take; on a machine so busy
    # that they took longer still, that showed nothing, and the next query sleeps longer.
    for attempt, seconds in enumerate((4, 16, 64)):
        runner, answer = _query_in_the_background(f"SELECT sleep_ms({seconds * 1000}) AS slept", seconds + 60)
        time.sleep(1)  # the query on its way to its worker (it may be slower: the checks hold either way)
        with data.archive().writing() as store:
            store.query("SELECT count(*) AS n FROM matches")
        summary, _ = data.import_upload(
            "extra.json", dumps(random_record(7 + attempt, 2), pretty=False).encode()
        )
        assert summary.imported == 1
        if not runner.is_alive():
            runner.join()
            continue
        # the saves are done and the query still runs: they did not wait for it
        runner.join(seconds + 120)
        # and it ends as queries end, with its answer
        assert not runner.is_alive()
        (frame,) = answer
        assert isinstance(frame, pl.DataFrame) and frame["slept"].to_list() == [None], frame
        return
    pytest.fail("the saves took longer than a query sleeping 64 seconds")


def test_a_query_on_the_snapshot_sees_the_archive_and_then_its_changes(archive: Path) -> None:
    query = "SELECT match_id, deals, venue FROM matches ORDER BY match_id"
    with Store(archive, read_only=True) as store:
        expected = store.query(query)
    assert data.user_query(query).equals(expected)
    summary, _ = data.import_upload("extra.json", dumps(random_record(7, 2), pretty=False).encode())
    assert summary.imported == 1
    after = data.user_query(query)
    assert after.height == expected.height + 1 and "random-7" in after["match_id"].to_list()


def test_errors_come_back_from_the_worker_with_the_consoles_messages(archive: Path, tmp_path: Path) -> None:
    with pytest.raises(QueryRefusedError, match="DROP is not allowed"):
        data.user_query("DROP TABLE matches")
    with pytest.raises(QueryError, match='syntax error at or near "SELEC"'):
        data.user_query("SELEC 1")
    planted = tmp_path / "planted.csv"
    planted.write_text("a\n1\n")
    with pytest.raises(QueryRefusedError, match="files or reach the network"):
        data.user_query(f"SELECT * FROM read_csv('{planted}')")
    pool = ConsolePool(workers=1)
    try:
        with pytest.raises(QueryError, match="needed more than 50MB of memory"):
            pool.query(
                archive,
                "SELECT count(DISTINCT range::VARCHAR || repeat('x', 200)) FROM range(3000000)",
                timeout=60,
                memory_limit="50MB",
            )
        assert pool.query(archive, "SELECT INTERVAL 1 MONTH AS i", timeout=60)["i"].to_list() == ["1 month"]
        # a result of few rows but long texts: refused by its size, with what to ask instead
        wide = "SELECT repeat('x', 1000000) || i AS t FROM range(40) r(i)"
        with pytest.raises(
            QueryError, match=r"the result holds about 40 MB, more than the 32 MB a page shows"
        ):
            pool.query(archive, wide, timeout=60, max_bytes=32_000_000)
        assert pool.query(archive, wide, timeout=60, max_bytes=None).height == 40
        # true, false and NULL take a bit, or nothing, in memory and five letters as text: a list of
        # 100 million took 12.5 MB past the cap and the server 4 GB for the page's CSV
        for packed in (
            "SELECT list(true) AS b FROM range(8000000)",
            "SELECT list(NULL) AS n FROM range(8000000)",
        ):
            with pytest.raises(QueryError, match=r"the result holds about 4\d MB, more than the 32 MB"):
                pool.query(archive, packed, timeout=60, max_bytes=32_000_000)
        assert (
            pool.query(
                archive, "SELECT list(true) AS b FROM range(1000)", timeout=60, max_bytes=32_000_000
            ).height
            == 1
        )
        # an enum's values are codes in memory: its texts are counted as the texts they are
        long = "x" * 4000
        enum = f"SELECT list('{long}'::ENUM('{long}')) AS e FROM range(20000)"
        with pytest.raises(QueryError, match=r"the result holds about 8\d MB, more than the 32 MB"):
            pool.query(archive, enum, timeout=60, max_bytes=32_000_000)
    finally:
        pool.close()
    with pytest.raises(QueryError, match="shorten long texts"):  # the page's own limit
        data.user_query("SELECT repeat('x', 1000000) || i AS t FROM range(40) r(i)")


@pytest.mark.skipif(resident_bytes() is None, reason="needs Linux's /proc to watch a worker's memory")
def test_a_query_past_its_memory_limit_outside_duckdbs_buffers_is_stopped(
    archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A constant DuckDB folds is outside its buffers: a security review's query held 5.9 GB under
    the SQL page's 2 GB limit. The worker ends itself once it holds the limit and a margin more,
    the page says the memory limit stopped it, and the next query gets a new worker."""
    import manillen_replay.store.console_pool as console_pool

    folded = "SELECT length(repeat(repeat('x', 1000000), 600)) AS n"  # a 600 MB text
    pool = ConsolePool(workers=1)
    try:
        with pytest.raises(QueryError, match="needed more than 50MB of memory and was stopped") as stopped:
            pool.query(archive, folded, timeout=60, memory_limit="50MB")
        assert stopped.value.reason == "memory"
        assert pool.query(archive, "SELECT 1 AS one", timeout=60)["one"].to_list() == [1]
        # the stop was the watch's: with room enough DuckDB itself lets it through
        monkeypatch.setattr(console_pool, "MEMORY_MARGIN", 10**10)
        assert pool.query(archive, folded, timeout=60, memory_limit="50MB")["n"].to_list() == [600_000_000]
    finally:
        pool.close()


def test_an_old_snapshot_is_removed_when_a_newer_one_is_made_and_at_close(
    archive: Path, tmp_path: Path
) -> None:
    pool = ConsolePool(workers=1)

    def copy(target: Path) -> None:
        shutil.copyfile(archive, target)

    try:
        with pool.snapshot(str(archive), 1, copy) as first:
            with pool.snapshot(str(archive), 1, copy) as same:
                assert same == first
            with pool.snapshot(str(archive), 2, copy) as second:
                assert first.exists()  # still in use
                assert pool.query(second, "SELECT count(*) AS n FROM matches", timeout=60)["n"][0] == 3
        assert not first.exists() and second.exists()
    finally:
        pool.close()
    assert not second.exists() and not second.parent.parent.exists()


def test_a_query_stopped_at_its_limit_says_how_long_it_waited_for_a_worker_first(archive: Path) -> None:
    """The limit counts from when a worker takes the query: one queued behind another's was told
    "ran past 30 s" after a minute. The stop says the wait, and a query not kept waiting none."""
    pool = ConsolePool(workers=1)
    stops: list[QueryTimeoutError] = []
    endless = "SELECT sum(a.range * b.range) AS n FROM range(1000000) a, range(1000000) b"  # little memory

    def run(timeout: float) -> None:
        with pytest.raises(QueryTimeoutError) as stopped:
            pool.query(archive, endless, timeout=timeout)
        stops.append(stopped.value)

    try:
        pool.query(archive, "SELECT 1 AS one", timeout=60)  # a worker ready, as on a page in use
        first = threading.Thread(target=run, args=(3.0,))
        first.start()
        time.sleep(0.5)  # the first holds the one worker
        run(1.0)
        first.join()
    finally:
        pool.close()
    first_stop, second = stops  # in the order they stopped
    assert first_stop.waited < 1.0
    assert 1.5 < second.waited < 20.0  # the 2.5 s the first still had, and its worker replaced


def test_a_query_kept_waiting_for_a_worker_says_so_and_one_not_kept_waiting_says_nothing(
    archive: Path,
) -> None:
    """With the workers held by others' long queries, a quick query waited up to their time limit
    with nothing said but the page's "running"."""
    pool = ConsolePool(workers=1)
    told: list[str] = []
    endless = "SELECT sum(a.range * b.range) AS n FROM range(1000000) a, range(1000000) b"

    def hold() -> None:
        with pytest.raises(QueryTimeoutError):
            pool.query(archive, endless, timeout=2.0)

    try:
        pool.query(archive, "SELECT 1 AS one", timeout=60, on_wait=lambda: told.append("free"))
        pool.query(archive, "SELECT 1 AS one", timeout=60, on_wait=lambda: told.append("warm"))
        with pytest.raises(QueryTimeoutError):  # running, not waiting, past the notice's half second
            pool.query(archive, endless, timeout=1.0, on_wait=lambda: told.append("running"))
        first = threading.Thread(target=hold)
        first.start()
        time.sleep(0.5)  # the long query holds the one worker
        answer = pool.query(archive, "SELECT 2 AS two", timeout=60, on_wait=lambda: told.append("held"))
        first.join()
    finally:
        pool.close()
    assert answer["two"].to_list() == [2]
    assert told[-1:] == ["held"] and "warm" not in told and "running" not in told


def test_the_sql_page_clears_its_waiting_note_once_the_answer_comes(
    archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    notes: list[object] = []

    def queued(sql: str, *, on_wait: Callable[[], None] | None = None, **kwargs: object) -> pl.DataFrame:
        assert on_wait is not None
        on_wait()  # drawn while the query waits: the page must still end with its rows alone
        notes.append(on_wait)
        return pl.DataFrame({"n": [36]})

    monkeypatch.setattr(data, "user_query", queued)
    at = open_page(AppTest.from_file(APP, default_timeout=60), "sql")
    type_query(at, "SELECT count(*) AS n FROM deals")
    at.button(key="sql_run_button").click().run()
    assert len(notes) == 1 and not at.exception
    assert at.dataframe[0].value["n"].tolist() == [36] and not at.info


def test_sql_page_shows_the_time_limit_for_a_folded_constant(
    archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(data, "QUERY_TIMEOUT", 1.0)
    at = open_page(AppTest.from_file(APP, default_timeout=60), "sql")
    type_query(at, "SELECT count(*) AS n FROM deals")
    at.button(key="sql_run_button").click().run()
    assert at.dataframe[0].value["n"].tolist() == [36]
    type_query(at, FOLDED)
    at.button(key="sql_run_button").click().run()
    assert not at.exception, [e.value for e in at.exception]
    # a limit reached, said as the memory and size limits are: a stop, not a failure
    assert not at.error and at.warning[0].value.startswith(
        "Stopped at a limit: the query ran past this page's time limit (1 s) and was stopped"
    )
    assert "on the command line (manillen sql --timeout)" in at.warning[0].value  # no setting of the page
    assert "waited" not in at.warning[0].value  # its worker was free: no wait to tell


def test_sql_page_says_the_wait_for_a_worker_before_the_limit(
    archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def queued(*args: object, **kwargs: object) -> pl.DataFrame:
        stopped = QueryTimeoutError("stopped")
        stopped.waited = 29.6
        raise stopped

    monkeypatch.setattr(data, "user_query", queued)
    at = open_page(AppTest.from_file(APP, default_timeout=60), "sql")
    type_query(at, "SELECT count(*) AS n FROM deals")
    at.button(key="sql_run_button").click().run()
    assert "(before that it waited 30 s for its turn: other queries were running)" in at.warning[0].value


def test_a_worker_started_while_a_page_runs_loads_no_page(monkeypatch: pytest.MonkeyPatch) -> None:
    """Streamlit makes the app's script ``__main__``, and multiprocessing's spawn runs it again in
    each SQL worker: every worker drew the frame in bare mode, imported every page's modules and
    logged a hundred "missing ScriptRunContext" warnings. The script draws nothing there."""
    import multiprocessing
    import sys
    import types

    app = types.ModuleType("__main__")
    app.__file__ = str(Path(__file__).resolve().parent.parent / "dashboards" / "streamlit_app.py")
    monkeypatch.setitem(sys.modules, "__main__", app)  # as while a page runs
    asked = "[n for n in ('streamlit', 'dashboards.data', 'dashboards.ui') if n in __import__('sys').modules]"
    with multiprocessing.get_context("spawn").Pool(1) as workers:
        loaded = workers.apply(eval, (asked,))  # a builtin: unpickled without importing this module
    assert loaded == []


def test_a_worker_newer_than_the_archive_says_to_restart_the_dashboard(tmp_path: Path) -> None:
    """The program upgraded under a running dashboard: its query workers loaded the new one, and
    every query said to run `manillen import --db /tmp/manillen-console-.../club.duckdb`, a path
    of the worker's private copy where the upgrade does nothing."""
    import duckdb

    from manillen_replay.store.console import query_file
    from manillen_replay.store.schema import SCHEMA_VERSION, apply_migrations

    older = tmp_path / "club.duckdb"
    connection = duckdb.connect(str(older))
    apply_migrations(connection, upto=SCHEMA_VERSION - 1)
    connection.close()
    with pytest.raises(QueryError) as said:
        query_file(str(older), "SELECT 1", max_rows=None)
    assert "restart the dashboard" in str(said.value) and str(tmp_path) not in str(said.value)
