"""The SQL console (issue 13): EXPLAIN judged by what it explains, no directory to write or read,
a time limit, queries side by side, and messages that name what is refused."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from streamlit.testing.v1 import AppTest

import manillen_replay.store.processes as processes
from dashboards import data
from manillen_replay.cli import cli
from manillen_replay.store import QueryError, QueryRefusedError, QueryTimeoutError, Store
from manillen_replay.store.console import MAX_QUERY_CHARS

from .test_dashboard import APP, open_page

RUNAWAY = "SELECT count(*) FROM range(100000000000)"
RECURSIVE = "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r"


@pytest.fixture
def archive(sample_db: Path, tmp_path: Path) -> Path:
    """A copy of the sample archive with its temporary folder beside it, as an import leaves it."""
    path = tmp_path / "demo.duckdb"
    shutil.copyfile(sample_db, path)
    Path(f"{path}.tmp").mkdir()
    return path


@pytest.mark.parametrize(
    ("statement", "named"),
    [
        ("EXPLAIN ANALYZE COMMIT", "COMMIT is not allowed inside EXPLAIN"),
        ("EXPLAIN ANALYZE COPY (SELECT * FROM plays) TO 'demo.duckdb.tmp/dump.csv'", "COPY is not allowed"),
        ("EXPLAIN INSERT INTO seats VALUES ('x', 0, 'y', 0)", "INSERT is not allowed inside EXPLAIN"),
        ("-- why\nEXPLAIN (FORMAT json) DELETE FROM seats", "DELETE is not allowed inside EXPLAIN"),
        ("WITH t AS (SELECT 1) DELETE FROM seats", "DELETE is not allowed"),
        ("/* tidy up */ DROP TABLE plays", "DROP is not allowed"),
    ],
)
def test_refused_statements_are_named(archive: Path, statement: str, named: str) -> None:
    with Store(archive, read_only=True) as store:
        with pytest.raises(QueryRefusedError, match=named):
            store.user_query(statement)
        assert store.query("SELECT count(*) AS n FROM seats")["n"][0] > 0
    assert not list(Path(f"{archive}.tmp").iterdir())


@pytest.mark.parametrize(
    "query",
    [
        "EXPLAIN SELECT count(*) FROM plays",
        "EXPLAIN ANALYZE SELECT count(*) FROM plays",
        "WITH t AS (SELECT 1 AS n) SELECT n FROM t",
        "/* a comment first */ SELECT 1 AS n",
    ],
)
def test_reading_statements_run(archive: Path, query: str) -> None:
    with Store(archive, read_only=True) as store:
        assert store.user_query(query).height >= 1


def test_a_pivot_that_finds_its_own_columns_is_refused_with_how_to_name_them(archive: Path) -> None:
    """It was refused as "PIVOT is not allowed: the archive is opened read-only", and inside a
    SELECT as "SELECT is not allowed": DuckDB runs it as two statements, the first one its own."""
    for query in (
        "PIVOT deals ON kind USING count(*) GROUP BY dealer_player",
        "SELECT * FROM (PIVOT deals ON kind USING count(*))",
    ):
        with Store(archive, read_only=True) as store, pytest.raises(QueryRefusedError) as refused:
            store.user_query(query)
        assert refused.value.reason == "pivot" and "name the columns after IN" in str(refused.value)
    with Store(archive, read_only=True) as store:
        named = store.user_query(
            "PIVOT (SELECT kind FROM deals) ON kind IN ('played', 'redeal') USING count(*)"
        )
    assert named.columns == ["played", "redeal"] and named.height == 1


def test_an_unknown_table_is_answered_with_the_archive_s_tables(archive: Path) -> None:
    """DuckDB guessed a system table ("Did you mean "pg_enum"?") for a name far from any of the
    archive's: the archive's own tables and views are named instead; a near guess stays."""
    with Store(archive, read_only=True) as store:
        with pytest.raises(QueryError) as far:
            store.user_query("SELECT * FROM nope")
        with pytest.raises(QueryError) as near:
            store.user_query("SELECT * FROM deal")
    said = str(far.value)
    assert said.startswith("table with name nope does not exist: the archive has annotations, ")
    assert "player_summary" in said and "pg_" not in said and "schema_version" not in said
    assert str(near.value).endswith('Did you mean "deals"?')


def test_explain_analyze_commit_on_the_command_line(archive: Path) -> None:
    result = CliRunner().invoke(cli, ["sql", "EXPLAIN ANALYZE COMMIT", "--db", str(archive)])
    assert result.exit_code == 1
    assert "refused: COMMIT is not allowed inside EXPLAIN" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_no_directory_is_open_to_queries(archive: Path) -> None:
    """DuckDB lists its temporary folder among the allowed directories: the console has none."""
    (Path(f"{archive}.tmp") / "planted.csv").write_text("a\n1\n")
    with Store(archive, read_only=True) as store:
        settings = store.user_query(
            "SELECT current_setting('allowed_directories') AS allowed, "
            "current_setting('temp_directory') AS temporary"
        ).row(0, named=True)
        assert settings == {"allowed": [], "temporary": ""}
        with pytest.raises(QueryRefusedError, match="files or reach the network"):
            store.user_query(f"SELECT * FROM read_csv('{archive}.tmp/planted.csv')")


def test_no_extension_is_installed_or_loaded_at_a_querys_request(archive: Path) -> None:
    """read_xlsx made DuckDB try to install the excel extension, its refusal naming the server's
    home folder; and DuckDB's advice to INSTALL it, or to SET a limit, is no advice here."""
    with Store(archive, read_only=True) as store:
        settings = store.user_query(
            "SELECT current_setting('autoinstall_known_extensions') AS install, "
            "current_setting('autoload_known_extensions') AS load, "
            "current_setting('allow_community_extensions') AS community"
        ).row(0, named=True)
        assert settings == {"install": False, "load": False, "community": False}
        with pytest.raises(QueryError) as refused:
            store.user_query("SELECT * FROM read_xlsx('/etc/passwd')")
        said = str(refused.value)
        assert "excel" in said and "/root" not in said and ".duckdb/extensions" not in said
        assert "INSTALL" not in said and "Please try" not in said
        with pytest.raises(QueryError) as deep:
            store.user_query("SELECT " + "+".join(["1"] * 1500))
        assert "max expression depth" in str(deep.value) and "SET" not in str(deep.value)


def test_a_query_text_too_long_is_refused_before_duckdb_reads_it(archive: Path) -> None:
    """A 12 MB text took 41 s and 6 GB before the time and memory limits applied."""
    with Store(archive, read_only=True) as store:
        with pytest.raises(QueryRefusedError, match=r"the query text is 200,006 characters long") as refused:
            store.user_query("SELECT " + "+".join(["1"] * 100_000), timeout=1)
        assert refused.value.reason == "too_long"
        assert store.user_query("SELECT 42 AS n")["n"][0] == 42
        # a text of the limit's own length runs
        exact = "SELECT 1 AS n" + " " * (MAX_QUERY_CHARS - len("SELECT 1 AS n"))
        assert len(exact) == MAX_QUERY_CHARS and store.user_query(exact)["n"][0] == 1
        with pytest.raises(QueryRefusedError, match="100,001 characters"):
            store.user_query(exact + " ")


@pytest.mark.parametrize("query", [RUNAWAY, RECURSIVE])
def test_runaway_query_is_stopped_at_its_time_limit(archive: Path, query: str) -> None:
    with Store(archive, read_only=True) as store:
        with pytest.raises(QueryTimeoutError, match=r"longer than 0\.5 seconds and was stopped"):
            store.user_query(query, timeout=0.5)
        assert store.user_query("SELECT 42 AS n")["n"][0] == 42  # the console still works


def test_sql_timeout_option(archive: Path) -> None:
    result = CliRunner().invoke(cli, ["sql", RUNAWAY, "--db", str(archive), "--timeout", "0.5"])
    assert result.exit_code == 1
    assert "longer than 0.5 seconds and was stopped" in result.output and "--timeout" in result.output
    assert "Traceback" not in result.output


def test_a_long_query_does_not_hold_up_another(archive: Path) -> None:
    """The dashboard's sessions share one Store: each query runs on its own cursor."""
    with Store(archive, read_only=True) as store:
        outcome: list[BaseException] = []

        def long_query() -> None:
            try:
                store.user_query(RUNAWAY, timeout=3)
            except QueryError as error:
                outcome.append(error)

        runner = threading.Thread(target=long_query)
        runner.start()
        time.sleep(0.3)
        assert store.user_query("SELECT count(*) AS n FROM matches")["n"][0] > 0
        assert runner.is_alive()  # the short query did not wait for the long one
        runner.join(60)
        assert isinstance(outcome[0], QueryTimeoutError)


@pytest.mark.parametrize(
    ("command", "advice"),
    [
        ("manillen dashboard --db club.duckdb", "close that dashboard"),
        ("streamlit run dashboards/streamlit_app.py", "close that dashboard"),
        ("python3 dashboards/serve.py run dashboards/asgi_app.py --server.port 8501", "close that dashboard"),
        ("manillen import big.jsonl --db club.duckdb", "wait for it to finish"),
        ("python3 -c import this", "close that program or wait for it to finish"),
        ("", "close the program that has it open"),
    ],
)
def test_lock_message_says_what_holds_it(monkeypatch: pytest.MonkeyPatch, command: str, advice: str) -> None:
    described = f"process 4242 ({command})" if command else "python3 (process 4242)"
    monkeypatch.setattr(processes, "_describe_process", lambda pid, program: (described, command))
    message = processes._locked_message(
        "club.duckdb",
        "Could not set lock on file: Conflicting lock is held in /usr/bin/python3 (PID 4242) by user",
    )
    assert described in message and advice in message
    if "dashboard" not in advice:
        assert "dashboard" not in message.replace(command, "")


def test_dashboard_sql_page_refuses_explain_analyze_commit(
    archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(archive))
    at = open_page(AppTest.from_file(APP, default_timeout=30), "sql")
    at.text_area(key="sql_query").input("EXPLAIN ANALYZE COMMIT").run()
    at.button(key="sql_run_button").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.error and at.error[0].value.startswith("Refused: COMMIT is not allowed")


def test_the_dutch_sql_page_says_refusals_and_limits_in_dutch_and_a_limit_as_no_failure(
    archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A helper's Dutch page said "Geweigerd: DELETE is not allowed ..." and "De vraag mislukte:
    the query needed more than 2GB of memory": the console's reasons in the page's language, a
    limit reached as a stop rather than a failure; DuckDB's own words (a syntax error) stay."""
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(archive))
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.session_state["lang"] = "nl"
    at.switch_page("app_pages/sql.py").run()

    def asked(query: str) -> AppTest:
        at.text_area(key="sql_query").input(query).run()
        at.button(key="sql_run_button").click().run()
        assert not at.exception, [e.value for e in at.exception]
        return at

    said = asked("DELETE FROM matches").error[0].value
    assert said.startswith("Geweigerd: DELETE is niet toegestaan") and "not allowed" not in said
    said = asked("SELECT 1; SELECT 2").error[0].value
    assert said == "Geweigerd: één vraag tegelijk\\: deze tekst bevat 2 opdrachten"  # escaped markdown
    stopped = asked("SELECT repeat('x', 1000000) AS t FROM range(50)")
    assert not stopped.error and stopped.warning[0].value.startswith(
        "Gestopt aan een grens: het resultaat is ongeveer 50 MB"
    )
    assert asked("SELEC 1").error[0].value.startswith("De vraag mislukte:")


def test_ctrl_c_stops_the_query_cleanly(archive: Path) -> None:
    """DuckDB holds the main thread while it works: the console waits on it from outside, so a
    Ctrl-C stops the query and the command ends with a message, not an abort or a traceback."""
    script = (
        # the command's own imports first, so that the signal comes while the query runs even
        # on a busy machine, not while polars and DuckDB still load
        "import sys; from manillen_replay.cli import main; import manillen_replay.cli.archive; "
        "import manillen_replay.store, duckdb, polars; print('ready', flush=True); "
        f"sys.argv = ['manillen', 'sql', {RUNAWAY!r}, '--db', {str(archive)!r}]; main()"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert process.stdout is not None and process.stdout.readline().strip() == "ready"
    time.sleep(2)
    process.send_signal(signal.SIGINT)
    output, _ = process.communicate(timeout=60)
    assert process.returncode == 130, output
    assert "interrupted: the query was stopped" in output
    assert "Traceback" not in output and "FATAL" not in output
