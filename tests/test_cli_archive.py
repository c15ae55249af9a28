"""The archive commands through click's runner: import, sql, export."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest
from click.testing import CliRunner, Result

from manillen_replay.cli import cli
from manillen_replay.record import Entry, iter_entries, loads
from manillen_replay.record.io import source_name
from manillen_replay.store import IMPORT_MEMORY_LIMIT, SCHEMA_VERSION, TABLES, ImportSummary, Store

from .conftest import BAD_LINE_NUMBER
from .test_store import HOLD

SAMPLES = Path(__file__).resolve().parent.parent / "data" / "samples"


def _run(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), env=env)


def _no_traceback(result: Result) -> None:
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.mark.parametrize("command", ["import", "sql", "export"])
def test_every_command_has_help(command: str) -> None:
    result = _run(command, "--help")
    assert result.exit_code == 0 and "--db" in result.output


def test_import_reports_and_exits_1_when_something_was_refused(sample_archive: Path, tmp_path: Path) -> None:
    db = str(tmp_path / "a.duckdb")
    first = _run("import", str(sample_archive), "--db", db)
    assert first.exit_code == 1, first.output
    assert f"{sample_archive}:{BAD_LINE_NUMBER}: /deals/0/dealer" in first.stderr
    assert "imported 8 matches" in first.stdout and "refused 1" in first.stdout
    again = _run("import", str(sample_archive), "--db", db)
    assert "imported 0 matches (0 deals), replaced 0, skipped 8 already present, refused 1" in again.stdout


def test_import_of_good_records_exits_0(sample_records: list[str], tmp_path: Path) -> None:
    good = tmp_path / "good.jsonl"
    good.write_text("".join(line + "\n" for line in sample_records[:2]))
    result = _run("import", str(good), "--db", str(tmp_path / "g.duckdb"))
    assert result.exit_code == 0, result.output
    assert "imported 2 matches" in result.stdout


def test_default_archive_is_manillen_db_or_here(
    sample_records: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("MANILLEN_DB", raising=False)
    Path("one.jsonl").write_text(sample_records[0] + "\n")
    assert _run("import", "one.jsonl").exit_code == 0
    assert Path("manillen.duckdb").exists()
    env = {"MANILLEN_DB": "elsewhere.duckdb"}
    assert _run("import", "one.jsonl", env=env).exit_code == 0
    assert Path("elsewhere.duckdb").exists()
    answer = _run("sql", "SELECT count(*) AS n FROM matches", "--format", "json", env=env)
    assert json.loads(answer.stdout) == [{"n": 1}]


@pytest.mark.parametrize("command", [["sql", "SELECT 1"], ["findings"], ["import", "one.jsonl"]])
def test_a_file_that_is_no_archive_is_named_with_what_to_do(
    command: list[str], sample_records: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A record given as --db (DuckDB said "cannot launch in-memory database in read-only mode"),
    an empty file, another file: each is one line saying what it is and what to give."""
    monkeypatch.chdir(tmp_path)
    Path("one.jsonl").write_text(sample_records[0] + "\n")
    Path("match.json").write_text(sample_records[0])
    Path("empty.duckdb").write_bytes(b"")
    Path("notes.txt").write_text("not an archive")
    said = {
        "match.json": "Error: 'match.json' is a record file, not an archive: give it without --db "
        "(`manillen findings match.json`), or import it into one "
        "(`manillen import match.json --db club.duckdb`)",
        "empty.duckdb": "Error: 'empty.duckdb' is an empty file, not an archive",
        "notes.txt": "Error: 'notes.txt' is not a DuckDB file, not an archive",
    }
    if command[0] == "import":  # a file to import into: not sent to `manillen findings`
        said["match.json"] = (
            "Error: 'match.json' is a record file, not an archive: --db names the archive to import "
            "into, a DuckDB file (`manillen import one.jsonl match.json --db club.duckdb` imports both)"
        )
    for name, message in said.items():
        result = _run(*command, "--db", name)
        _no_traceback(result)
        assert result.exit_code == 1 and message in result.stderr, result.output
    assert Path("empty.duckdb").read_bytes() == b"" and Path("notes.txt").read_text() == "not an archive"


def test_an_archive_named_like_a_record_file_is_used_as_the_archive(
    sample_records: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The name is only the first guess: a DuckDB file called ``club.json`` is an archive to
    import into and query, not a record file refused."""
    monkeypatch.chdir(tmp_path)
    Path("one.jsonl").write_text(sample_records[0] + "\n")
    assert _run("import", "one.jsonl", "--db", "club.duckdb").exit_code == 0
    Path("club.duckdb").rename("club.json")
    Path("two.jsonl").write_text(sample_records[1] + "\n")
    imported = _run("import", "two.jsonl", "--db", "club.json")
    _no_traceback(imported)
    assert imported.exit_code == 0 and "imported 1 match" in imported.stdout, imported.output
    answer = _run("sql", "SELECT count(*) AS n FROM matches", "--format", "json", "--db", "club.json")
    assert json.loads(answer.stdout) == [{"n": 2}]


def test_a_record_file_given_to_restore_a_match_in_says_what_db_is_for(
    sample_records: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`import --restore MATCH --db game.mnl` sent the user to `manillen findings game.mnl`."""
    monkeypatch.chdir(tmp_path)
    Path("match.json").write_text(sample_records[0])
    result = _run("import", "--restore", "random-0", "--db", "match.json")
    _no_traceback(result)
    assert result.exit_code == 1 and "findings" not in result.stderr
    assert "--db names the archive that holds the match's earlier versions" in result.stderr


@pytest.mark.parametrize(
    "arguments",
    [
        ["import", "one.jsonl"],
        ["rules", "save", "vrij", "--rule", "underbuy=allowed"],
        ["analyze", "--depth", "heuristic"],
        ["tokens", "issue", "viewer"],
    ],
)
def test_an_empty_archive_name_is_a_usage_error_not_an_archive_in_memory(
    arguments: list[str], sample_records: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--db "$DB"` with DB unset: DuckDB would take "" for an archive in memory, keep nothing
    and say it was done (exit 0)."""
    monkeypatch.chdir(tmp_path)
    Path("one.jsonl").write_text(sample_records[0] + "\n")
    monkeypatch.delenv("MANILLEN_DB", raising=False)
    for empty in ("", " "):
        result = _run(*arguments, "--db", empty)
        _no_traceback(result)
        assert result.exit_code == 2, result.output
        assert "Invalid value for --db: the archive's name is empty" in result.stderr
    for empty in ("", " "):
        result = _run(*arguments, env={"MANILLEN_DB": empty})
        _no_traceback(result)
        assert result.exit_code == 2, result.output
        assert "$MANILLEN_DB is set but empty" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one.jsonl"]


def test_another_programs_duckdb_file_is_refused_and_left_as_it_was(
    sample_records: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`import --db invoices.duckdb` wrote the archive's thirty tables in beside another program's
    own (exit 0), which `sql` then refused as no archive: every command refuses it now."""
    import duckdb

    monkeypatch.chdir(tmp_path)
    Path("one.jsonl").write_text(sample_records[0] + "\n")
    with duckdb.connect("invoices.duckdb") as other:
        other.execute("CREATE TABLE invoices (id INTEGER, amount DOUBLE)")
        other.execute("INSERT INTO invoices VALUES (1, 9.5)")
    before = Path("invoices.duckdb").read_bytes()
    for arguments in (
        ["import", "one.jsonl"],
        ["rules", "save", "vrij", "--rule", "underbuy=allowed"],
        ["analyze", "--depth", "heuristic"],
        ["sql", "SELECT 1"],
    ):
        result = _run(*arguments, "--db", "invoices.duckdb")
        _no_traceback(result)
        assert result.exit_code == 1, result.output
        assert "'invoices.duckdb' is not a manillen archive" in result.stderr, result.stderr
    assert (
        "a DuckDB file of another program (tables invoices), left as it was"
        in _run("import", "one.jsonl", "--db", "invoices.duckdb").stderr
    )
    assert Path("invoices.duckdb").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["invoices.duckdb", "one.jsonl"]


def test_import_without_paths_creates_the_archive_and_bad_paths_are_usage_errors(tmp_path: Path) -> None:
    db = tmp_path / "new.duckdb"
    result = _run("import", "--db", str(db))
    assert result.exit_code == 0 and db.exists()
    assert "a new, empty archive (schema version" in result.stdout
    # the upgrade another command's message sends here says what it did ("imported 0 matches")
    connection = duckdb.connect(str(db))
    connection.execute("DELETE FROM schema_version WHERE version = (SELECT max(version) FROM schema_version)")
    connection.close()
    upgraded = _run("import", "--db", str(db))
    assert upgraded.exit_code == 0
    assert f"upgraded from schema version {SCHEMA_VERSION - 1} to {SCHEMA_VERSION}" in upgraded.stdout
    again = _run("import", "--db", str(db))
    assert f"already at schema version {SCHEMA_VERSION}: nothing to upgrade or import" in again.stdout
    empty = tmp_path / "empty.duckdb"
    duckdb.connect(str(empty)).close()  # a DuckDB file without tables: made an archive, and said so
    made = _run("import", "--db", str(empty))
    assert f"an empty DuckDB file, now an empty archive (schema version {SCHEMA_VERSION})" in made.stdout
    missing = _run("import", str(tmp_path / "nope.jsonl"), "--db", str(db))
    assert missing.exit_code == 2 and "no such file" in missing.output


def test_import_memory_limit_is_checked_and_handed_to_the_store(
    sample_records: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    good = tmp_path / "good.jsonl"
    good.write_text(sample_records[0] + "\n")
    db = str(tmp_path / "m.duckdb")
    refusals = (("lots", "not a memory size"), ("1MB", "too small for DuckDB to work in: give at least 32MB"))
    for bad, says in refusals:
        result = _run("import", str(good), "--db", db, "--memory-limit", bad)
        assert result.exit_code == 2 and "--memory-limit" in result.stderr and says in result.stderr, (
            result.output
        )
        _no_traceback(result)
    assert not Path(db).exists()
    given: list[object] = []
    original = Store.import_paths

    def spy(self: Store, *args: Any, **kwargs: Any) -> ImportSummary:
        given.append(kwargs.get("memory_limit"))
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Store, "import_paths", spy)
    assert _run("import", str(good), "--db", db, "--memory-limit", "256MB").exit_code == 0
    assert _run("import", str(good), "--db", db).exit_code == 0
    assert given == ["256MB", IMPORT_MEMORY_LIMIT]
    assert f"[default: {IMPORT_MEMORY_LIMIT}]" in _run("import", "--help").output


def test_interrupted_import_says_what_was_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C while the second file is read: the first file's match stays, and the message says so."""
    first, second = SAMPLES / "seed-trick.json", SAMPLES / "muil.json"

    def interrupted(self: Store, paths: Any, *args: Any, **kwargs: Any) -> ImportSummary:
        def entries() -> Iterator[Entry]:
            yield from iter_entries(paths)
            raise KeyboardInterrupt

        kwargs.pop("on_progress", None)
        return self.import_entries(entries(), **kwargs)

    monkeypatch.setattr(Store, "import_paths", interrupted)
    db = tmp_path / "i.duckdb"
    result = _run("import", str(first), str(second), "--db", str(db))
    assert result.exit_code == 130
    made, said = result.stderr.strip().split("\n", 1)
    assert made == f"{db}: no archive of that name yet: making a new one"
    assert said.strip() == (
        "interrupted: 1 file was kept whole (imported 1 match (1 deal), replaced 0, "
        f"skipped 0 already present, refused 0); {source_name(second)!r}, still being imported, "
        "was rolled back"
    )
    with Store(db, read_only=True) as archive:
        kept = archive.query("SELECT match_id FROM matches")["match_id"].to_list()
    assert kept == [loads(first.read_text()).match.id]


def test_an_import_interrupted_after_its_last_commit_says_every_file_was_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = Store.import_paths

    def late(self: Store, *args: Any, **kwargs: Any) -> ImportSummary:
        plain(self, *args, **kwargs)
        raise KeyboardInterrupt  # Ctrl-C once both files are in

    monkeypatch.setattr(Store, "import_paths", late)
    result = _run(
        "import",
        str(SAMPLES / "seed-trick.json"),
        str(SAMPLES / "muil.json"),
        "--db",
        str(tmp_path / "l.duckdb"),
    )
    assert result.exit_code == 130
    said = result.stderr.strip().split("\n", 1)[1].strip()
    assert said.startswith("interrupted: 2 files were kept whole (imported 2 matches")
    assert "rolled back" not in result.stderr


def test_quiet_import_lists_no_refused_records_but_still_sums_up(
    sample_archive: Path, sample_records: list[str], tmp_path: Path
) -> None:
    db = str(tmp_path / "q.duckdb")
    result = _run("import", str(sample_archive), "--db", db, "--quiet")
    assert result.exit_code == 1
    assert result.stderr == ""
    deals = sum(len(loads(line).deals) for line in sample_records)
    assert result.stdout == (
        f"{db}: imported {len(sample_records)} matches ({deals} deals), replaced 0, "
        "skipped 0 already present, refused 1\n"
    )
    loud = _run("import", str(sample_archive), "--db", str(tmp_path / "loud.duckdb"))
    assert f"{sample_archive}:{BAD_LINE_NUMBER}: /deals/0/dealer" in loud.stderr
    # a new archive is said to be one (a mistyped --db filled one in silence), unless --quiet
    assert loud.stderr.startswith(
        f"{tmp_path / 'loud.duckdb'}: no archive of that name yet: making a new one\n"
    )
    again = _run("import", str(sample_archive), "--db", str(tmp_path / "loud.duckdb"))
    assert "making a new one" not in again.stderr


def test_sql_formats(sample_db: Path, tmp_path: Path) -> None:
    query = "SELECT player, cards_played FROM player_summary ORDER BY player"
    table = _run("sql", query, "--db", str(sample_db))
    assert table.exit_code == 0 and "Anna" in table.stdout and "(4 rows)" in table.stdout
    as_json = json.loads(_run("sql", query, "--db", str(sample_db), "--format", "json").stdout)
    assert [row["player"] for row in as_json] == ["Anna", "Bert", "Carla", "Dirk"]
    assert set(as_json[0]) == {"player", "cards_played"}
    out = tmp_path / "hands.csv"
    written = _run(
        "sql",
        "SELECT match_id, cards FROM hands LIMIT 3",
        "--db",
        str(sample_db),
        "--format",
        "csv",
        "--out",
        str(out),
    )
    assert written.exit_code == 0
    frame = pl.read_csv(out)
    assert frame.height == 3 and len(frame["cards"][0].split(" ")) == 8


def test_sql_as_a_table_reads_only_the_rows_it_shows(
    sample_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The table for people shows 1,000 rows: more are not read (a query of every play of a big
    archive would hold them all in memory), and it says there are more."""
    from manillen_replay.store import Store

    asked: list[int | None] = []
    plain = Store.user_query

    def counting(self: Store, sql: str, **options: Any) -> Any:
        asked.append(options.get("max_rows"))
        return plain(self, sql, **options)

    monkeypatch.setattr(Store, "user_query", counting)
    query = "SELECT * FROM range(5000)"
    table = _run("sql", query, "--db", str(sample_db))
    assert table.exit_code == 0, table.output
    assert "(more than 1,000 rows, the first 1,000 shown: use --format csv or json for all)" in table.stdout
    csv = _run("sql", query, "--db", str(sample_db), "--format", "csv")
    assert len(csv.stdout.splitlines()) == 5001  # the header and every row
    assert asked == [1000, None]


READ_ONLY = (
    "is not allowed: the archive is opened read-only for queries; only SELECT (with WITH, DESCRIBE, "
    "SUMMARIZE, EXPLAIN) may run, and it cannot reach files or the network"
)
NO_FILES = (
    "Error: refused: queries may not read files or reach the network: only the archive's tables and "
    "views are available"
)


@pytest.mark.parametrize(
    ("query", "says"),
    [
        ("DROP TABLE plays", f"Error: refused: DROP {READ_ONLY}"),
        ("INSERT INTO seats VALUES ('x', 0, 'x', 0)", f"Error: refused: INSERT {READ_ONLY}"),
        ("COPY plays TO 'stolen.csv'", f"Error: refused: COPY {READ_ONLY}"),
        ("ATTACH 'other.duckdb'", f"Error: refused: ATTACH {READ_ONLY}"),
        ("SELECT * FROM read_csv('/etc/passwd')", f'{NO_FILES} (cannot access file "/etc/passwd"'),
        ("SELECT * FROM 'stolen.parquet'", f'{NO_FILES} (cannot access file "stolen.parquet"'),
    ],
)
def test_sql_refuses_writes_and_files(sample_db: Path, query: str, says: str) -> None:
    result = _run("sql", query, "--db", str(sample_db))
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.startswith(says), result.stderr
    _no_traceback(result)


@pytest.mark.parametrize(
    ("query", "columns"),
    [
        ("DESCRIBE plays", ["column_name", "column_type", "null", "key", "default", "extra"]),
        ("SUMMARIZE SELECT points_0 FROM deals", ["column_name", "column_type", "min", "max"]),
        ("EXPLAIN SELECT count(*) FROM plays", ["explain_key", "explain_value"]),
    ],
)
def test_sql_allows_describe_summarize_and_explain(sample_db: Path, query: str, columns: list[str]) -> None:
    result = _run("sql", query, "--db", str(sample_db), "--format", "json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert rows and list(rows[0])[: len(columns)] == columns


def test_sql_reads_the_query_from_stdin(sample_db: Path) -> None:
    query = "SELECT count(*) AS n\nFROM matches\n"
    result = CliRunner().invoke(cli, ["sql", "-", "--db", str(sample_db), "--format", "json"], input=query)
    assert result.exit_code == 0, result.output
    with Store(sample_db, read_only=True) as archive:
        expected = archive.query("SELECT count(*) AS n FROM matches")["n"][0]
    assert json.loads(result.stdout) == [{"n": expected}]


def test_sql_takes_a_query_that_opens_with_a_comment(sample_db: Path) -> None:
    """ "-- players" looked like an option to the command line ("No such option", exit 2)."""
    query = "-- how many matches\nSELECT count(*) AS n FROM matches"
    result = CliRunner().invoke(cli, ["sql", query, "--db", str(sample_db), "--format", "json"])
    assert result.exit_code == 0, result.output
    assert list(json.loads(result.stdout)[0]) == ["n"]
    # typed in a shell with a literal \n, the whole text is one comment
    only = CliRunner().invoke(cli, ["sql", "-- how many\\nSELECT 1", "--db", str(sample_db)])
    assert only.exit_code == 1 and "the query holds only a comment" in only.stderr


def test_sql_errors_and_missing_archive_are_messages(sample_db: Path, tmp_path: Path) -> None:
    bad = _run("sql", "SELECT * FROM nothing_here", "--db", str(sample_db))
    assert bad.exit_code == 1 and "nothing_here" in bad.stderr
    _no_traceback(bad)
    missing = _run("sql", "SELECT 1", "--db", str(tmp_path / "none.duckdb"))
    assert missing.exit_code == 2 and "no archive" in missing.stderr
    _no_traceback(missing)


def test_export_parquet_and_read_back(sample_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "parquet"
    result = _run("export", "--parquet", str(out), "--db", str(sample_db))
    assert result.exit_code == 0, result.output
    # the folder as mkdir makes it under the umask, readable by whoever the export is for (a
    # helper's was the owner's only, 0700, the temporary folder it was written in)
    mask = os.umask(0o022)
    os.umask(mask)
    assert out.stat().st_mode & 0o777 == 0o777 & ~mask
    with Store(sample_db, read_only=True) as archive:
        for table in TABLES:
            expected = archive.query(f"SELECT count(*) AS n FROM {table}")["n"][0]
            source = out / "plays" / "**" / "*.parquet" if table == "plays" else out / f"{table}.parquet"
            assert pl.scan_parquet(source, hive_partitioning=True).collect().height == expected, table
    again = _run("export", "--parquet", str(out), "--db", str(sample_db))
    assert again.exit_code == 2 and "--overwrite" in again.stderr  # a usage error, as a file that exists
    assert _run("export", "--parquet", str(out), "--db", str(sample_db), "--overwrite").exit_code == 0


def test_export_records_is_byte_for_byte(sample_records: list[str], tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text("".join(line + "\n" for line in sample_records), encoding="utf-8")
    db = str(tmp_path / "r.duckdb")
    assert _run("import", str(source), "--db", db).exit_code == 0
    target = tmp_path / "out.jsonl"
    result = _run("export", "--records", str(target), "--db", db)
    assert result.exit_code == 0 and f"wrote {len(sample_records)} matches" in result.stderr
    assert target.read_bytes() == source.read_bytes()
    assert _run("export", "--records", str(target), "--db", db).exit_code == 2  # exists: a usage error
    query = _run("sql", "--db", db, "SELECT 42 AS x", "--format", "csv", "--out", "-")  # no file named -
    assert query.exit_code == 0 and query.stdout == '"x"\n42\n' and not Path("-").exists()
    piped = _run("export", "--records", "-", "--db", db)  # "wrote 3 matches to -" read as a file named -
    assert piped.exit_code == 0 and f"wrote {len(sample_records)} matches to standard output" in piped.stderr
    assert piped.stdout.encode() == source.read_bytes()


def _failing_on_the_third_table(monkeypatch: pytest.MonkeyPatch, failure: BaseException) -> None:
    """The Parquet export stopped by ``failure`` once two tables are written."""
    counted = Store._count
    seen: list[str] = []

    def count(store: Store, table: str) -> int:
        seen.append(table)
        if len(seen) == 3:
            raise failure
        return counted(store, table)

    monkeypatch.setattr(Store, "_count", count)


def _parquet_files(folder: Path) -> dict[Path, bytes]:
    return {path: path.read_bytes() for path in folder.rglob("*.parquet")}


@pytest.mark.parametrize(
    ("failure", "code", "says"),
    [
        (KeyboardInterrupt(), 130, "interrupted: nothing was written to {out}"),
        (RuntimeError("Query interrupted"), 130, "interrupted: nothing was written to {out}"),
        (
            duckdb.IOException('IO Error: Could not write file "x.parquet": No space left on device'),
            1,
            "Error: could not write the Parquet export to '{out}' (nothing was written): "
            'could not write file "x.parquet": No space left on device',
        ),
    ],
)
def test_an_export_to_parquet_that_fails_leaves_nothing_behind(
    sample_db: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    failure: BaseException,
    code: int,
    says: str,
) -> None:
    """A Ctrl-C or a full disk half way: the folder is as it was, so the same command runs again."""
    out = tmp_path / "exports" / "parquet"
    with monkeypatch.context() as patched:
        _failing_on_the_third_table(patched, failure)
        result = _run("export", "--parquet", str(out), "--db", str(sample_db))
    _no_traceback(result)
    assert result.exit_code == code, result.output
    assert says.format(out=out) in result.stderr
    assert list((tmp_path / "exports").iterdir()) == []  # no folder, no half-written one beside it
    assert _run("export", "--parquet", str(out), "--db", str(sample_db)).exit_code == 0
    before = _parquet_files(out)
    (out / "notes.txt").write_text("mine\n")
    with monkeypatch.context() as patched:
        _failing_on_the_third_table(patched, failure)
        again = _run("export", "--parquet", str(out), "--db", str(sample_db), "--overwrite")
    assert again.exit_code == code, again.output
    assert {
        path: path.read_bytes() for path in out.rglob("*") if path.is_file() and path.suffix != ".txt"
    } == before
    assert sorted(p.name for p in (tmp_path / "exports").iterdir()) == ["parquet"]
    assert _run("export", "--parquet", str(out), "--db", str(sample_db), "--overwrite").exit_code == 0
    assert (out / "notes.txt").read_text() == "mine\n" and (out / "plays").is_dir()


def test_an_interrupted_export_to_records_leaves_no_partial_file(
    sample_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(_store: Store) -> Iterator[str]:
        yield "{}"
        raise KeyboardInterrupt

    monkeypatch.setattr(Store, "iter_export_lines", interrupted)
    target = tmp_path / "backup.jsonl"
    result = _run("export", "--records", str(target), "--db", str(sample_db))
    _no_traceback(result)
    assert result.exit_code == 130 and f"interrupted: nothing was written to {target}" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_export_needs_exactly_one_target(sample_db: Path) -> None:
    assert _run("export", "--db", str(sample_db)).exit_code == 2


def test_import_while_another_program_holds_the_archive(sample_archive: Path, tmp_path: Path) -> None:
    db = tmp_path / "held.duckdb"
    Store(db).close()
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(db)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
        result = _run("import", str(sample_archive), "--db", str(db), "--wait", "0")
        assert result.exit_code == 1
        assert str(db) in result.stderr and f"process {holder.pid}" in result.stderr
        assert "close that program or wait for it to finish" in result.stderr
        _no_traceback(result)
        # by default it waits its turn, as analyze does: two imports started together both land
        waiting = subprocess.Popen(
            [sys.executable, "-c", "from manillen_replay.cli import main; main()", "import",
             str(SAMPLES / "muil.json"), "--db", str(db), "--wait", "60"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        # its word that it waits, read before the holder lets go (a sleep raced a loaded machine)
        assert waiting.stderr is not None
        said = ""
        while "waiting" not in said and (line := waiting.stderr.readline()):
            said += line
        assert waiting.poll() is None  # still waiting
    finally:
        holder.communicate("", timeout=30)
    out, err = waiting.communicate(timeout=120)
    assert waiting.returncode == 0, err
    assert f"process {holder.pid}" in said and "waiting" in said and "imported 1 match" in out
    with Store(db, read_only=True) as archive:
        assert archive.query("SELECT count(*) AS n FROM matches")["n"][0] == 1


def test_an_import_into_a_folder_that_does_not_exist_says_so(tmp_path: Path) -> None:
    """DuckDB's words ("cannot open file ...: No such file or directory", exit 1) hid that the
    folder was missing; it is a usage error naming the folder, and nothing is created."""
    target = tmp_path / "nowhere" / "sub" / "club.duckdb"
    sample = str(Path(__file__).resolve().parent.parent / "data" / "samples" / "muil.json")
    result = CliRunner().invoke(cli, ["import", sample, "--db", str(target)])
    assert result.exit_code == 2
    assert f"there is no folder {str(target.parent)!r} for the archive {str(target)!r}" in result.output
    assert "making a new one" not in result.output  # said only of an archive that is made
    assert not (tmp_path / "nowhere").exists()


@pytest.mark.parametrize("stopped", ["runtime", "interrupt"])
def test_a_ctrl_c_that_reaches_duckdb_while_findings_are_stored_ends_as_interrupted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stopped: str
) -> None:
    """A Ctrl-C during a commit comes back from DuckDB as its own error (a plain "Query
    interrupted", or its InterruptException): `analyze` ended in a traceback and exit code 1 three
    times in fifty tries of a helper's; it says "interrupted" (130), and nothing was kept."""
    import duckdb

    db = tmp_path / "c.duckdb"
    assert _run("import", str(SAMPLES / "seed-trick.json"), "--db", str(db)).exit_code == 0
    from manillen_replay.store import connection

    def interrupted_commit(con: Any) -> Iterator[None]:
        con.execute("BEGIN TRANSACTION")
        try:
            yield
            raise (
                RuntimeError("Query interrupted")
                if stopped == "runtime"
                else duckdb.InterruptException("INTERRUPT Error: Interrupted!")
            )
        finally:
            con.execute("ROLLBACK")

    monkeypatch.setattr(connection, "transaction", contextlib.contextmanager(interrupted_commit))
    result = _run("analyze", "--db", str(db), "--depth", "heuristic")
    assert result.exit_code == 130, result.output
    assert result.stderr.strip().endswith("interrupted") and "Traceback" not in result.output
    monkeypatch.undo()
    with Store(db, read_only=True) as archive:
        assert archive.query("SELECT count(*) AS n FROM findings")["n"][0] == 0


def test_the_out_files_name_chooses_the_format(sample_db: Path, tmp_path: Path) -> None:
    """`--out m.csv` without --format wrote the box-drawing table into m.csv (a spreadsheet
    opened it as one column), and only its first 1,000 rows."""
    query = "SELECT match_id FROM matches ORDER BY match_id"
    ids = [row[0] for row in duckdb.connect(str(sample_db), read_only=True).sql(query).fetchall()]
    for name, read in (("m.csv", lambda p: pl.read_csv(p)["match_id"].to_list()), ("m.json", _json_ids)):
        result = _run("sql", query, "--db", str(sample_db), "--out", str(tmp_path / name))
        assert result.exit_code == 0, result.output
        assert read(tmp_path / name) == ids, name
    kept = _run("sql", query, "--db", str(sample_db), "--out", str(tmp_path / "m.txt"))
    assert kept.exit_code == 0 and (tmp_path / "m.txt").read_text().startswith("┌")
    # a name that says no format takes the one asked for, as before
    asked = _run("sql", query, "--db", str(sample_db), "--out", str(tmp_path / "e.txt"), "--format", "csv")
    assert asked.exit_code == 0 and (tmp_path / "e.txt").read_text().startswith('"match_id"')


def _json_ids(path: Path) -> list[str]:
    return [row["match_id"] for row in json.loads(path.read_text())]


@pytest.mark.parametrize(
    ("name", "given", "said"),
    [
        ("m.csv", "json", "--format json does not write what a .csv file holds"),
        ("m.json", "table", "m.txt, or leave --format out"),
        ("m.parquet", None, "not Parquet: `manillen export --parquet DIR` writes the tables so"),
        ("m.xlsx", "excel", "--format excel writes a CSV file Excel opens (name it .csv)"),
    ],
)
def test_an_out_name_that_says_another_format_is_a_usage_error(
    name: str, given: str | None, said: str, sample_db: Path, tmp_path: Path
) -> None:
    asked = ["--format", given] if given else []
    result = _run("sql", "SELECT 1", "--db", str(sample_db), "--out", str(tmp_path / name), *asked)
    _no_traceback(result)
    assert result.exit_code == 2 and said in result.stderr, result.output
    assert not (tmp_path / name).exists()


def test_the_excel_format_opens_in_a_belgian_spreadsheet_with_formulas_kept_as_text(
    sample_records: list[str], tmp_path: Path
) -> None:
    record = json.loads(sample_records[0])
    record["match"]["seats"][:2] = ['=HYPERLINK("http://x.example","ok")', "Zoë; de 2de"]
    (tmp_path / "evil.json").write_text(json.dumps(record))
    db = str(tmp_path / "a.duckdb")
    assert _run("import", str(tmp_path / "evil.json"), "--db", db).exit_code == 0
    out = tmp_path / "spelers.csv"
    query = "SELECT seat0, seat1, 2.5 AS mean, -3 AS low FROM matches"
    result = _run("sql", query, "--db", db, "--format", "excel", "--out", str(out))
    assert result.exit_code == 0, result.output
    data = out.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf")
    assert data.decode("utf-8-sig").splitlines() == [
        '"seat0";"seat1";"mean";"low"',
        '"\'=HYPERLINK(""http://x.example"",""ok"")";"Zoë; de 2de";2,5;-3',
    ]
    # numbers written as text are no formulas; an enum's text is guarded as any text is
    numbers = "SELECT [-1, 2] AS l, '-3'::VARCHAR AS t, '=1+1'::ENUM('=1+1') AS e"
    guarded = _run("sql", numbers, "--db", db, "--format", "excel")
    assert guarded.stdout.encode().startswith(b"\xef\xbb\xbf")
    assert guarded.stdout.lstrip("\ufeff").splitlines()[1] == '"-1 2";"-3";"\'=1+1"'
    plain = _run("sql", query, "--db", db, "--format", "csv")
    assert plain.stdout.splitlines()[1] == '"=HYPERLINK(""http://x.example"",""ok"")","Zoë; de 2de",2.5,-3'
