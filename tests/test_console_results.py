"""The SQL console's results (issue 31): every result type prints as DuckDB writes it, memory and
rows are bounded, and the dashboard's SQL page says when it cut a result."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import polars as pl
import pytest
from click.testing import CliRunner
from streamlit.testing.v1 import AppTest

from manillen_replay.archive_defaults import QUERY_MAX_ROWS
from manillen_replay.cli import cli
from manillen_replay.store import QueryError, Store, csv_text

from .test_dashboard import APP, open_page, type_query
from .test_dashboard import shared_archive as shared_archive  # the fixture


@pytest.fixture
def app(shared_archive: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    from dashboards import data

    monkeypatch.setenv(data.DB_ENVIRONMENT, str(shared_archive))
    return AppTest.from_file(APP, default_timeout=30)


@pytest.mark.parametrize(
    ("query", "shown"),
    [
        ("SELECT union_value(k := 7) AS v", "7"),
        ("SELECT INTERVAL 1 MONTH AS v", "1 month"),
        ("SELECT [INTERVAL 3 DAY] AS v", "[3 days]"),
        ("SELECT DATE 'infinity' AS v", "infinity"),
        ("SELECT TIMESTAMP '290000-01-01' AS v", "290000-01-01 00:00:00"),
        ("SELECT MAP {'a': 1} AS v", "{a=1}"),
        ("SELECT 12345678901234567890123456789::VARINT AS v", "12345678901234567890123456789"),
        (
            "SELECT 340282366920938463463374607431768211455::UHUGEINT AS v",
            "340282366920938463463374607431768211455",
        ),
        (
            "SELECT (-170141183460469231731687303715884105727)::HUGEINT AS v",
            "-170141183460469231731687303715884105727",
        ),
        ("SELECT TIMETZ '12:00:00+02' AS v", "12:00:00+02"),
        ("SELECT 1::VARIANT AS v", "1"),
        ("SELECT [1::VARIANT, 'a'::VARIANT] AS v", "[1, a]"),
    ],
)
def test_a_value_a_frame_cannot_show_comes_back_as_duckdb_writes_it(query: str, shown: str) -> None:
    with Store() as store:
        assert store.user_query(query)["v"].to_list() == [shown]


def test_a_sum_and_a_decimal_that_fit_come_back_as_numbers_and_one_that_does_not_as_text(
    tmp_path: Path,
) -> None:
    """sum() of whole numbers is a HUGEINT and 1.5 a DECIMAL: they came back as text however
    small, so the page's grid sorted 13220 before 7660 and the JSON held "13220"."""
    with Store() as store:
        frame = store.user_query(
            "SELECT sum(x) AS total, 1.5 AS half, 0.1::DECIMAL(38, 10) AS tenth, sum(x)::UHUGEINT AS u, "
            "NULL::HUGEINT AS none, 170141183460469231731687303715884105727::HUGEINT AS huge, "
            "12345678901234567.891::DECIMAL(38, 3) AS exact, 7 AS narrowed0_value FROM range(10) t(x)"
        )
        assert frame.columns == ["total", "half", "tenth", "u", "none", "huge", "exact", "narrowed0_value"]
        assert frame.row(0) == (45, 1.5, 0.1, 45, None, "170141183460469231731687303715884105727",
                                "12345678901234567.891", 7)  # fmt: skip
        assert [str(t) for t in frame.dtypes[:5]] == ["Int64", "Float64", "Float64", "Int64", "Int64"]
        # a column is text as soon as one of its values does not fit, so it sorts one way
        mixed = store.user_query(
            "SELECT x FROM (VALUES (1::HUGEINT), (NULL), (170141183460469231731687303715884105727)) t(x)"
        )
        assert mixed["x"].to_list() == ["1", None, "170141183460469231731687303715884105727"]
        sums = store.user_query("SELECT player, sum(x) AS s FROM (VALUES ('a', 2), ('b', 10)) t(player, x) "
                                "GROUP BY player ORDER BY s DESC")  # fmt: skip
        assert sums.rows() == [("b", 10), ("a", 2)]
    Store(tmp_path / "a.duckdb").close()
    asked = ["sql", "SELECT sum(x) AS s, 1.5 AS d FROM range(3) t(x)", "--format", "json"]
    out = CliRunner().invoke(cli, [*asked, "--db", str(tmp_path / "a.duckdb")])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output) == [{"s": 3, "d": 1.5}]


def test_ordinary_types_keep_their_type_and_a_printable_date_stays_a_date() -> None:
    with Store() as store:
        frame = store.user_query("SELECT DATE '2026-12-04' AS d, 3 AS n, [1, 2] AS l, 2.5 AS x")
    assert [str(t) for t in frame.dtypes][:3] == ["Date", "Int32", "List(Int32)"]
    assert str(frame.row(0)[0]) == "2026-12-04"


def test_a_date_column_with_infinity_prints_every_value(tmp_path: Path) -> None:
    """One far value turns the column to text, the ordinary values written as dates."""
    with Store() as store:
        frame = store.user_query(
            "SELECT * FROM (VALUES (DATE '2026-12-04'), (DATE 'infinity')) t(d) ORDER BY d"
        )
    assert frame["d"].to_list() == ["2026-12-04", "infinity"]


def test_dates_in_lists_and_structs_print_as_duckdb_prints_them() -> None:
    """list(date) raised polars' "min ... list[i32]" as a traceback; far values inside a list or a
    struct turn that column to text, ordinary ones stay dates."""
    with Store() as store:
        frame = store.user_query(
            "SELECT [DATE '2026-12-04', NULL] AS ok, [DATE 'infinity', DATE '2026-01-01'] AS far, "
            "{'a': TIMESTAMP '294247-01-01', 'b': 1} AS s, [{'x': DATE '2026-02-02'}] AS n"
        )
    # as DuckDB writes them: the page's grid drew dates in a list as milliseconds since 1970
    assert frame["ok"].to_list() == ["[2026-12-04, NULL]"]
    assert frame["far"].to_list() == ["[infinity, 2026-01-01]"]
    assert frame["s"].to_list() == ["{'a': '294247-01-01 00:00:00', 'b': 1}"]
    assert frame["n"].to_list() == ["[{'x': 2026-02-02}]"]


def test_a_query_over_the_memory_limit_stops_with_a_message() -> None:
    with Store() as store:
        with pytest.raises(QueryError, match="needed more than 50MB of memory"):
            store.user_query(
                "SELECT count(DISTINCT range::VARCHAR || repeat('x', 200)) FROM range(3000000)",
                memory_limit="50MB",
            )
        # the store still answers afterwards
        assert store.user_query("SELECT 42 AS n")["n"].to_list() == [42]


def test_max_rows_gives_one_row_more_than_asked_so_a_cut_can_be_told() -> None:
    with Store() as store:
        assert store.user_query("SELECT * FROM range(50)", max_rows=10).height == 11
        assert store.user_query("SELECT * FROM range(5)", max_rows=10).height == 5
        assert store.user_query("SELECT * FROM range(50)").height == 50


def test_sql_command_prints_every_type_in_every_format(sample_db: Path) -> None:
    # a VARIANT printed as bytes, and as CSV or JSON ended in a traceback
    query = "SELECT MAP {'a': 1} AS m, INTERVAL 2 DAY AS i, DATE 'infinity' AS d, 'vv'::VARIANT AS v"
    for output in ("table", "csv", "json"):
        result = CliRunner().invoke(cli, ["sql", query, "--db", str(sample_db), "--format", output])
        assert result.exit_code == 0, result.output
        assert "2 days" in result.output and "infinity" in result.output and "a=1" in result.output
        assert "vv" in result.output and "\\x" not in result.output


def test_sql_command_writes_every_result_a_club_secretary_asks_for(sample_db: Path) -> None:
    """A list of lists (each deal's hands) ended CSV in a traceback, as on the SQL page; two columns
    of one name (a join's ON) did JSON and CSV; CSV wrote times as 2026-03-24T20:15:00.000000."""

    def ask(query: str, output: str) -> str:
        result = CliRunner().invoke(cli, ["sql", query, "--db", str(sample_db), "--format", output])
        assert result.exit_code == 0 and "Traceback" not in result.output, result.output
        return result.stdout

    nested = "SELECT [['AS', 'KH'], ['7C']] AS hands, [{'player': 'Anna', 'card': 'AS'}] AS plays, [''] AS e"
    assert ask(nested, "csv").splitlines()[1] == (
        '"[[""AS"",""KH""],[""7C""]]","[{""player"":""Anna"",""card"":""AS""}]","[""""]"'
    )
    twice = (
        "SELECT m.match_id, d.match_id, INTERVAL 2 DAY AS took, DATE 'infinity' AS di "
        "FROM matches m JOIN deals d ON d.match_id = m.match_id LIMIT 1"
    )
    (row,) = json.loads(ask(twice, "json"))
    assert row["match_id"] == row["match_id_1"] and row["took"] == "2 days" and row["di"] == "infinity"
    assert ask(twice, "csv").splitlines()[0] == '"match_id","match_id_1","took","di"'
    # the table format printed a struct's values without their names: {1,[1, 2]}
    assert '{"a":1,"b":[1,2]}' in ask("SELECT {'a': 1, 'b': [1, 2]} AS s", "table")
    times = "SELECT TIMESTAMP '2026-03-24 20:15:00.123456' AS t, TIME '20:15:00' AS h, DATE '2026-03-24' AS d"
    assert ask(times, "csv").splitlines()[1] == '"2026-03-24 20:15:00.123456","20:15:00","2026-03-24"'


def test_a_syntax_error_shows_the_querys_line_with_a_caret(sample_db: Path) -> None:
    """ "syntax error at or near "="" alone did not say which of fifteen lines held it."""
    query = "SELECT *\nFROM matches\nWHERE venue = = 1"
    result = CliRunner().invoke(cli, ["sql", query, "--db", str(sample_db)])
    assert result.exit_code == 1
    said = result.stderr.splitlines()
    assert said[0] == 'Error: the query failed: syntax error at or near "="'
    assert said[2] == "LINE 3: WHERE venue = = 1" and said[3].index("^") == said[2].index("= 1")
    # a failure while it runs is quoted at the typed query's line too, not the line of the
    # statement DuckDB ran (which wraps the query): it said "LINE 3" of a query of one line
    for query, number in (
        ("SELECT CAST('x' AS INTEGER) AS n", 1),
        ("SELECT 1,\n  CAST('x' AS INTEGER) AS n", 2),
    ):
        ran = CliRunner().invoke(cli, ["sql", query, "--db", str(sample_db)])
        quoted = [line for line in ran.stderr.splitlines() if line.startswith("LINE ")]
        assert quoted == [f"LINE {number}: {query.splitlines()[-1]}"], ran.stderr


def test_sql_command_memory_limit_is_checked_and_applied(sample_db: Path) -> None:
    bad = CliRunner().invoke(cli, ["sql", "SELECT 1", "--db", str(sample_db), "--memory-limit", "lots"])
    assert bad.exit_code == 2 and "is not a memory size" in bad.output
    big = "SELECT count(DISTINCT range::VARCHAR || repeat('x', 200)) FROM range(3000000)"
    stopped = CliRunner().invoke(cli, ["sql", big, "--db", str(sample_db), "--memory-limit", "64MB"])
    assert stopped.exit_code == 1 and "needed more than 64MB of memory" in stopped.output
    assert "Traceback" not in stopped.output
    # a limit reached says itself that the query was stopped: no "the query failed: the query ..."
    assert stopped.stderr.startswith("Error: the query needed more than 64MB of memory and was stopped")


def test_sql_page_shows_at_most_the_row_limit_and_says_so(app: AppTest) -> None:
    at = open_page(app, "sql")
    type_query(at, f"SELECT range AS n FROM range({QUERY_MAX_ROWS + 500})")
    at.button(key="sql_run_button").click().run()
    assert not at.exception
    assert at.dataframe[0].value.shape[0] == QUERY_MAX_ROWS
    assert any("The first 10 000 rows" in caption.value for caption in at.caption)  # thousands apart


def test_sql_page_shows_an_interval_and_a_union_without_a_traceback(app: AppTest) -> None:
    at = open_page(app, "sql")
    # a VARIANT crashed the page's CSV download with a traceback
    type_query(
        at, "SELECT INTERVAL 1 MONTH AS i, union_value(k := 1) AS u, DATE 'infinity' AS d, 1::VARIANT AS v"
    )
    at.button(key="sql_run_button").click().run()
    assert not at.exception and not at.error
    assert at.dataframe[0].value["i"].tolist() == ["1 month"]


def test_a_csv_result_reads_back_in_duckdb_when_a_quoted_text_comes_late(tmp_path: Path) -> None:
    """DuckDB's read_csv guesses the quoting from the first 20,480 rows: with texts quoted only
    where needed, a plays.csv whose first comma in a name came later failed ("Expected Number of
    Columns: 2 Found: 3")."""
    frame = pl.DataFrame({"player": ["Anna"] * 25_000 + ["Smet, Jan", ""], "n": range(25_002)})
    (tmp_path / "r.csv").write_text(csv_text(frame))
    back = duckdb.sql(f"SELECT * FROM read_csv('{tmp_path / 'r.csv'}')").pl()
    assert back.height == frame.height and back["player"][-2] == "Smet, Jan"
    assert pl.read_csv(tmp_path / "r.csv")["player"].to_list()[-2:] == ["Smet, Jan", ""]


def test_a_list_item_holding_a_tab_or_a_line_break_is_written_as_json() -> None:
    """Joined with spaces, "late\\tnight" could not be told from two items once split on whitespace;
    the column's every row is JSON then, and a column without such an item stays plain."""
    frame = pl.DataFrame({"tags": [["late\tnight", "cup"], ["two\nlines"]], "cards": [["AS", "KH"], ["7C"]]})
    assert csv_text(frame).splitlines()[1:] == [
        '"[""late\\tnight"",""cup""]","AS KH"',
        '"[""two\\nlines""]","7C"',
    ]


def test_a_geometry_and_a_null_struct_come_back_in_every_format(sample_db: Path) -> None:
    """A GEOMETRY column (DuckDB's own type now) ended `--format csv` in a traceback, json in a
    panic, and the SQL page in a traceback naming the server's files; a NULL struct was the text
    "null" in CSV, not an empty field."""
    query = "SELECT 'POINT(1 2)'::GEOMETRY AS g, NULL::STRUCT(a INTEGER) AS s, {'a': 1} AS t"

    def ask(output: str) -> str:
        result = CliRunner().invoke(cli, ["sql", query, "--db", str(sample_db), "--format", output])
        assert result.exit_code == 0 and "Traceback" not in result.output, result.output
        return result.stdout

    assert ask("csv").splitlines() == ['"g","s","t"', '"POINT (1 2)",,"{""a"":1}"']
    assert json.loads(ask("json")) == [{"g": "POINT (1 2)", "s": None, "t": {"a": 1}}]
    assert "POINT (1 2)" in ask("table")
