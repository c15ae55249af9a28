"""The solver depth in batches: on a Dask cluster, from files to Parquet, resumed after a kill.

Each run is compared with a plain `manillen analyze --depth solver` of the same matches: the
tables must be the same, row for row (only the findings' numbers, given in the order matches
are stored, may differ).
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import duckdb
import msgspec
import polars as pl
import pytest

from manillen_replay.cli import cluster as cli_cluster
from manillen_replay.cluster import ClusterError, parse_address
from manillen_replay.engine import replay
from manillen_replay.record import Entry, dump_lines, dumps, dumps_text, loads
from manillen_replay.solving import (
    CALLS_SCHEMA,
    BatchSizer,
    BatchTables,
    DealBatch,
    MatchToSolve,
    RunHere,
    accuracy_frame,
    analyse_batch,
    solve_matches,
)
from manillen_replay.store import Store

from .factories import random_record
from .test_cli import run_examples, sh_examples
from .test_cli_analysis import run

SAMPLES = "2"
"""Layouts per play: enough to exercise the sampling, small enough for a shared 2-core machine."""
RECORDS = [random_record(5, 2), random_record(6, 1), random_record(7, 2)]
"""Three matches, five deals."""
ORDERED = {
    "play_costs": "SELECT * FROM play_costs ORDER BY match_id, deal, trick, play",
    "call_decisions": "SELECT * FROM call_decisions ORDER BY match_id, deal, seat, call",
    "card_values": "SELECT * FROM card_values ORDER BY match_id, deal, trick, play, card",
    "findings": "SELECT * EXCLUDE (finding_id) FROM findings ORDER BY match_id, finding_id",
    "finding_lines": "SELECT * FROM finding_lines ORDER BY match_id, deal, trick, play, line, layout, step",
    # a view: its averages are summed in whatever order DuckDB reads the rows, hence the rounding
    "player_accuracy": "SELECT scope, match_id, deal, player, cards, calls, decisions, "
    "round(accuracy, 9) AS accuracy, "
    "round(avg_view_cost, 9) AS avg_view_cost, round(avg_dd_cost, 9) AS avg_dd_cost "
    "FROM player_accuracy ORDER BY scope, match_id, deal, player",
    "matches": "SELECT match_id, analysis_depth FROM matches ORDER BY match_id",
}


KEYS = ["match_id", "deal", "trick", "play"]


def new_archive(path: Path) -> Path:
    entries = [Entry("gen.jsonl", i + 1, dumps(r, pretty=False).encode()) for i, r in enumerate(RECORDS)]
    with Store(path) as store:
        assert store.import_entries(entries).imported == len(RECORDS)
    return path


def tables(path: Path) -> dict[str, pl.DataFrame]:
    with Store(path, read_only=True) as store:
        return {name: store.query(sql) for name, sql in ORDERED.items()}


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> dict[str, pl.DataFrame]:
    """The plain run's tables: what every other way must find."""
    path = new_archive(tmp_path_factory.mktemp("plain") / "club.duckdb")
    code, out, _ = run("analyze", "--db", str(path), "--depth", "solver", "--samples", SAMPLES)
    assert code == 0 and "analysed 3 matches (5 deals)" in out
    found = tables(path)
    assert (
        found["play_costs"].height > 0 and found["findings"].height > 0 and found["finding_lines"].height > 0
    )
    return found


def assert_same(found: dict[str, pl.DataFrame], expected: dict[str, pl.DataFrame]) -> None:
    for name, frame in expected.items():
        assert found[name].equals(frame), name


def test_a_local_cluster_finds_exactly_what_the_plain_run_finds_though_a_worker_is_killed_mid_task(
    plain: dict[str, pl.DataFrame], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The plain run's tables, row for row, though a worker process dies with a batch (which runs
    again in another): one cluster shows both, as each start is two processes loading the solver."""
    import dask
    import distributed  # noqa: F401  its defaults in dask.config first: leaving the set below keeps them

    path = new_archive(tmp_path / "club.duckdb")
    marker = tmp_path / "killed"
    victim = replay(RECORDS[1]).id  # the second match's only deal: its worker is busy when it dies
    monkeypatch.setenv("MANILLEN_KILL_MARKER", str(marker))
    monkeypatch.setenv("MANILLEN_KILL_DEAL", f"{victim}/1")
    hook = Path(__file__).resolve().parent / "worker_kill_hook.py"
    with dask.config.set({"distributed.worker.preload": [str(hook)]}):
        code, out, err = run(
            "analyze", "--db", str(path), "--depth", "solver", "--samples", SAMPLES, "--cluster", "local:2",
            "--batch-deals", "1",
        )  # fmt: skip
    assert code == 0, err
    killed, finished = marker.read_text(), marker.with_suffix(".done").read_text()
    assert killed != finished  # the batch died with one worker process and ran again in another
    assert "analysed 3 matches (5 deals)" in out and "solver: costs of 5 deals stored" in out
    assert_same(tables(path), plain)
    # the progress as in a plain run (lines, stderr being no terminal), then the cluster's summary;
    # nothing else, not even Dask's word on the lost worker
    started, *progress, summary = err.splitlines()
    assert started.startswith("solving 5 deals of 3 matches: "), err  # what it is about to solve
    assert progress and all(line.startswith("solving: ") for line in progress), err
    assert progress[-1].startswith("solving: 5/5 deals, ")
    assert summary.startswith("cluster local:2: 2 workers, 5 tasks of 1.0 deals on average; the driver")
    code, out, err = run("analyze", "--db", str(path), "--depth", "solver", "--cluster", "local:1")
    assert code == 0 and "analysed 0 matches" in out and "cluster local:1: nothing to solve" in err


class Interrupting(RunHere):
    """Runs batches here and stops, as Ctrl-C would, after ``batches`` of them."""

    def __init__(self, batches: int) -> None:
        super().__init__()
        self.left = batches

    def next_done(self) -> tuple[DealBatch, BatchTables | BaseException]:
        if not self.left:
            raise KeyboardInterrupt
        self.left -= 1
        return super().next_done()


def test_a_killed_run_resumes_with_only_what_is_missing(
    plain: dict[str, pl.DataFrame], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = new_archive(tmp_path / "club.duckdb")
    runners: list[RunHere] = [Interrupting(2)]

    @contextmanager
    def runner(address: str | None) -> Iterator[RunHere]:
        yield runners.pop(0) if runners else RunHere()

    monkeypatch.setattr(cli_cluster, "_runner", runner)
    monkeypatch.setattr(cli_cluster, "FLUSH_SECONDS", 0.0)  # store each match as it comes back
    args = ("analyze", "--db", str(path), "--depth", "solver", "--samples", SAMPLES, "--cluster", "local:2")
    code, _, err = run(*args, "--batch-deals", "1")
    # the user's Ctrl-C: exit code 130, and what came back and was kept
    assert code == 130 and "interrupted: 1 of 3 matches came back and is stored" in err
    assert "run the same command again" in err
    with Store(path, read_only=True) as store:
        done = store.query("SELECT count(*) AS n FROM matches WHERE analysis_depth = 'solver'")["n"][0]
    # two deals back: the first match (two deals) is whole and stored, the others are not
    assert done == 1
    code, out, err = run(*args, "--quiet")
    assert code == 0 and "analysed 2 matches (3 deals)" in out
    assert err == ""  # --quiet: no progress and no summary of the cluster run
    assert_same(tables(path), plain)


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """A running Dask scheduler's address (tcp, so other processes reach it too), its one worker a
    thread of this process (quick to start)."""
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, protocol="tcp", dashboard_address=None
    ) as cluster:
        yield cluster.scheduler_address


def test_analyze_files_writes_parts_that_import_to_the_plain_run(
    plain: dict[str, pl.DataFrame], tmp_path: Path, scheduler: str
) -> None:
    inputs = tmp_path / "league"
    inputs.mkdir()
    (inputs / "one.jsonl").write_text(dump_lines(RECORDS[:2]))
    (inputs / "two.mnl").write_text(dumps_text(RECORDS[2:]))  # the text notation too
    out = tmp_path / "analysis"
    code, text, err = run(
        "analyze-files",
        str(inputs / "*"),
        "--out",
        str(out),
        "--samples",
        SAMPLES,
        "--cluster",
        scheduler,
    )
    assert code == 0, err
    assert "2 parts: 2 written, 0 already there; 3 matches (5 deals) solved" in text
    # how the cluster did, as analyze --cluster says it
    assert re.search(rf"cluster {re.escape(scheduler)}: 1 worker, \d+ tasks? of [\d.]+ deals on average", err)
    for table in cli_cluster.PART_TABLES:
        assert len(list((out / table).glob("part-*.parquet"))) == 2, table
    assert not list(out.rglob(".*"))  # nothing half-written left behind
    # the parts hold the plain run's rows
    for name, keys in (("play_costs", KEYS), ("card_values", [*KEYS, "card"])):
        found = pl.read_parquet(out / name / "*.parquet").sort(keys, maintain_order=True)
        assert found.equals(plain[name]), name
    accuracy = pl.read_parquet(out / "player_accuracy" / "*.parquet").sort(
        "scope", "match_id", "deal", "player"
    )
    expected = plain["player_accuracy"].filter(pl.col("scope") != "all")
    assert accuracy.with_columns(pl.col(pl.Float64).round(9)).equals(expected)
    # docs/sql.md's queries over the folders run as written
    docs = (Path(__file__).resolve().parent.parent / "docs" / "sql.md").read_text(encoding="utf-8")
    queries = [q for q in re.findall(r"```sql\n(.*?)```", docs, flags=re.DOTALL) if "'DIR/" in q]
    assert len(queries) == 2
    for query in queries:
        assert duckdb.sql(query.replace("'DIR/", f"'{out}/")).fetchall()
    # loaded into an archive, they are what the plain run stored
    path = new_archive(tmp_path / "club.duckdb")
    code, text, _ = run("import-analysis", str(out), "--db", str(path))
    assert code == 0 and "2 parts: analysis of 3 matches loaded" in text
    assert_same(tables(path), plain)
    # a part lost (or never finished) is written again; the others are skipped
    (out / "matches" / cli_cluster.part_name(inputs / "two.mnl")).unlink()
    code, text, _ = run("analyze-files", str(inputs), "--out", str(out), "--samples", SAMPLES)
    assert code == 0
    assert "2 parts: 1 written, 1 already there; 1 match (2 deals) solved, 0 invalid records" in text
    # an input changed since its part was written (a refused record mended) is solved again
    (inputs / "one.jsonl").write_text(dump_lines(RECORDS[:1]))
    code, text, _ = run("analyze-files", str(inputs), "--out", str(out), "--samples", SAMPLES)
    assert code == 0
    assert "2 parts: 1 written, 1 already there; 1 match" in text
    part = cli_cluster.part_name(inputs / "one.jsonl")
    assert pl.read_parquet(out / "matches" / part)["match_id"].len() == 1


def test_analyze_files_reads_the_archives_parquet_export(
    plain: dict[str, pl.DataFrame], tmp_path: Path
) -> None:
    archive = new_archive(tmp_path / "club.duckdb")
    with Store(archive, read_only=True) as store:
        store.export_parquet(tmp_path / "export")
    out = tmp_path / "analysis"
    code, text, err = run(
        "analyze-files", str(tmp_path / "export" / "matches.parquet"), "--out", str(out), "--samples", SAMPLES
    )
    assert code == 0, err
    assert "1 part: 1 written" in text  # one part, one match: no "1 parts"
    found = pl.read_parquet(out / "play_costs" / "*.parquet").sort(KEYS, maintain_order=True)
    assert found.equals(plain["play_costs"])


def test_a_bad_record_in_a_batch_is_reported_with_its_match_and_costs_no_other_deal() -> None:
    good = RECORDS[1]
    result = replay(good)
    batch = DealBatch(
        {"broken": b'{"format": "manillen"', result.id: dumps(good, pretty=False).encode()},
        (("broken", 1), (result.id, 1)),
        samples=2,
    )
    tables = analyse_batch(batch)
    assert [p.match_id for p in tables.problems] == ["broken"]
    assert "match 'broken' does not replay" in tables.problems[0].message
    assert tables.play_costs["match_id"].unique().to_list() == [result.id]


def test_a_stored_record_that_no_longer_reads_is_left_unanalysed_by_the_cluster_run(tmp_path: Path) -> None:
    """``analyze --cluster`` reads the archive's records as the plain run does: a record edited by
    SQL so that it no longer reads is named and not handed out, and stays unmarked (not stored
    as a match with no findings), so that the run after its record is fixed takes it."""
    path = new_archive(tmp_path / "club.duckdb")
    outcome = cli_cluster.ClusterOutcome(matches=len(RECORDS))
    with Store(path) as store:
        ids = store.query("SELECT match_id FROM matches ORDER BY import_order")["match_id"].to_list()
        store.query(f"UPDATE matches SET record = '{{\"format\": 1}}' WHERE match_id = '{ids[1]}'")
        handed = [match.result.id for match in cli_cluster._archive_matches(store, ids, outcome)]
        unmarked = store.query("SELECT match_id FROM matches WHERE analysed_at IS NULL ORDER BY import_order")
    assert handed == [ids[0], ids[2]] and outcome.unreadable == 1
    (problem,) = outcome.problems
    assert problem.startswith(f"match {ids[1]!r} was not analysed: its stored record no longer reads (")
    assert unmarked["match_id"].to_list() == ids


class FailingRunner(RunHere):
    """Runs batches here, but the batch holding ``match_id`` fails as a lost worker's would."""

    def __init__(self, match_id: str) -> None:
        super().__init__()
        self.match_id = match_id

    def next_done(self) -> tuple[DealBatch, BatchTables | BaseException]:
        batch = self._queue.popleft()
        if any(mid == self.match_id for mid, _ in batch.deals):
            return batch, RuntimeError("worker lost 3 times")
        return batch, analyse_batch(batch)


def test_a_failed_task_makes_only_its_matches_incomplete() -> None:
    matches = []
    for record in RECORDS:
        data = dumps(record, pretty=False).encode()
        matches.append(MatchToSolve(loads(data), replay(loads(data)), data))
    lost = matches[1].result.id
    solved = list(solve_matches(matches, FailingRunner(lost), samples=2, sizer=BatchSizer(1, fixed=1)))
    assert {s.match_id for s in solved} == {m.result.id for m in matches}
    by_id = {s.match_id: s for s in solved}
    assert not by_id[lost].complete
    assert any(f"match {lost!r} deals 1: the task failed: RuntimeError" in p for p in by_id[lost].problems)
    assert all(s.complete and s.play_costs.height for s in solved if s.match_id != lost)


def test_the_progress_counts_each_deal_with_its_variants_work_for_the_time_left() -> None:
    """The time left counted every deal alike: a six-player short deal (half a four-player deal's
    work) and a four-player one moved it as much, a two-player deal with open cards (140) too."""
    from manillen_replay.analysis.effort import FOUR_PLAYER_DEALS

    sample = Path(__file__).resolve().parent.parent / "data" / "samples" / "variant-six-short.json"
    datas = [dumps(RECORDS[1], pretty=False).encode(), sample.read_bytes()]
    matches = [MatchToSolve(loads(data), replay(loads(data)), data) for data in datas]
    told: list[tuple[int, float]] = []
    solved = list(
        solve_matches(
            matches,
            RunHere(),
            samples=1,
            sizer=BatchSizer(1, fixed=1),
            on_deals=lambda *done: told.append(done),
        )
    )
    assert all(s.complete for s in solved)
    assert sorted(told) == sorted([(1, FOUR_PLAYER_DEALS["four"]), (1, FOUR_PLAYER_DEALS["six_short"])])


def test_without_dask_cluster_says_how_to_install_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = new_archive(tmp_path / "club.duckdb")
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed now raises ImportError
    code, _, err = run("analyze", "--db", str(path), "--depth", "solver", "--cluster", "local:2")
    assert code == 1
    assert "--cluster needs Dask, which is not installed: pip install -e '.[cluster]' in" in err


def test_a_scheduler_that_does_not_answer_is_said_after_the_connect_wait_not_a_minute() -> None:
    """A wrong port made the command sit silent for 60 s before saying so."""
    import socket
    import time

    from manillen_replay.cluster import open_runner

    with socket.socket() as probe:  # a port nothing listens on: bound, closed again
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    start = time.perf_counter()
    with (
        pytest.raises(ClusterError) as refused,
        open_runner(parse_address(f"tcp://127.0.0.1:{port}"), connect_seconds=1),
    ):
        pass
    assert time.perf_counter() - start < 30
    said = str(refused.value)
    assert f"cannot reach the Dask scheduler at tcp://127.0.0.1:{port} (tried for 1 s)" in said
    assert "`dask scheduler`" in said and "--cluster local:N" in said


def test_cluster_addresses_are_checked(tmp_path: Path) -> None:
    assert parse_address("local:3").local_workers == 3
    assert parse_address("tls://scheduler:8786").scheduler == "tls://scheduler:8786"
    for bad in ("local:0", "local:x", "scheduler:8786"):
        with pytest.raises(ClusterError):
            parse_address(bad)
    path = new_archive(tmp_path / "club.duckdb")
    code, _, err = run("analyze", "--db", str(path), "--depth", "solver", "--cluster", "local:none")
    assert code == 2 and "give the number of worker processes" in err  # a usage error, as docs/cli.md says
    code, _, err = run("analyze-files", str(tmp_path), "--out", str(tmp_path / "out"), "--cluster", "nowhere")
    assert code == 2 and "'nowhere' is not a scheduler address" in err and not (tmp_path / "out").exists()
    code, _, err = run("analyze", "--db", str(path), "--cluster", "local:2")
    assert code == 2 and "--depth solver" in err


def test_batches_hold_a_few_seconds_of_work_and_enough_for_every_worker() -> None:
    sizer = BatchSizer(2, target_seconds=4.0)
    assert sizer.size() == 2  # nothing learnt yet: start small
    sizer.learn(deals=2, seconds=1.0)
    assert sizer.size() == 8  # half a second a deal: eight deals make four seconds
    assert sizer.size(remaining=12) == 3  # near the end, two batches for each worker
    assert BatchSizer(2, fixed=5).size(remaining=1) == 5


def test_accuracy_parts_leave_out_the_all_rows() -> None:
    plays: dict[str, Any] = {
        "match_id": ["m", "m", "m"], "deal": [1, 1, 2], "trick": [1, 2, 1], "play": [1, 1, 1],
        "player": ["Anna"] * 3, "legal": [True] * 3, "forced": [False, True, False],
        "view_cost": [0.0, 0.0, 5.0], "dd_cost": [0, 0, 6],
    }  # fmt: skip
    values = pl.DataFrame(
        {"match_id": ["m"] * 4, "deal": [1, 1, 1, 2], "trick": [1, 1, 2, 1], "play": [1, 1, 1, 1],
         "view": [3.0, 0.0, 0.0, 9.0]}
    )  # fmt: skip
    calls = pl.DataFrame(schema=CALLS_SCHEMA)
    frame = accuracy_frame(pl.DataFrame(plays), values, calls)
    rows = {(r["scope"], r["deal"]): (r["cards"], r["accuracy"]) for r in frame.iter_rows(named=True)}
    # deal 2's only play has one value: no spread, so it is no decision
    assert rows == {("deal", 1): (1, 100.0), ("match", None): (1, 100.0)}


DOCS = Path(__file__).resolve().parent.parent / "docs" / "cluster.md"


def _doc_commands() -> list[str]:
    """The shell lines of docs/cluster.md's ``sh`` blocks, in order."""
    lines, inside = [], False
    for line in DOCS.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            inside = line.strip() == "```sh"
        elif inside and line.strip():
            lines.append(line.strip())
    return lines


def test_the_cluster_docs_examples_run_as_written(tmp_path: Path, scheduler: str) -> None:
    """Each `manillen` line of docs/cluster.md runs as the other docs' do (tests/test_cli.py's
    run_examples), its templates on a local scheduler standing for the reader's; each `dask`
    line's options exist."""
    examples = sh_examples(DOCS)
    assert len(examples) >= 6
    failed = run_examples([(None, line, None) for line in examples], tmp_path, scheduler=scheduler)
    bin_folder = Path(sys.executable).parent
    for line in _doc_commands():
        words = shlex.split(line, comments=True)
        if words[0] == "dask":
            dask = [str(bin_folder / "dask"), words[1], "--help"]
            shown = subprocess.run(dask, capture_output=True, text=True)
            unknown = [w for w in words if w.startswith("--") and w not in shown.stdout]
            if shown.returncode != 0 or unknown:
                failed.append(f"{line}: `dask {words[1]}` does not take {unknown}")
    assert not failed, "\n".join(failed)


def test_analyze_files_out_must_be_a_folder(tmp_path: Path) -> None:
    """An --out that is a file or a device is refused before anything is solved (it was a traceback)."""
    afile = tmp_path / "notes.txt"
    afile.write_text("mine")
    for out in (str(afile), "/dev/null"):
        sample = Path(__file__).resolve().parent.parent / "data" / "samples" / "muil.json"
        code, _, err = run("analyze-files", str(sample), "--out", out, "--samples", "2")
        assert code == 2 and ("is not a folder" in err or "is a file" in err) and "Traceback" not in err
    assert afile.read_text() == "mine"


def test_analyze_files_refuses_two_inputs_of_one_part_name_and_solves_again_at_other_samples(
    tmp_path: Path,
) -> None:
    """A helper's parts/p1.jsonl and parts_p1.jsonl wrote one part's files, each run overwriting
    the other's (a part's results lost, the count never settled); and a part solved with 1 layout
    a play counted as written when 3 were asked."""
    sample = (Path(__file__).resolve().parent.parent / "data" / "samples" / "muil.json").read_text()
    (tmp_path / "parts").mkdir()
    (tmp_path / "parts" / "p1.json").write_text(sample)
    (tmp_path / "parts_p1.json").write_text(sample)
    out = tmp_path / "analysis"
    code, _, err = run(
        "analyze-files",
        str(tmp_path / "parts"),
        str(tmp_path / "parts_p1.json"),
        "--out",
        str(out),
        "--samples",
        "1",
    )
    assert code == 1 and "would write the same part" in err and "Traceback" not in err
    assert not out.exists() or not list(out.rglob("part-*"))
    code, text, _ = run("analyze-files", str(tmp_path / "parts"), "--out", str(out), "--samples", "1")
    assert code == 0 and "1 part: 1 written, 0 already there" in text
    code, text, _ = run("analyze-files", str(tmp_path / "parts"), "--out", str(out), "--samples", "1")
    assert "1 part: 0 written, 1 already there" in text
    code, text, _ = run("analyze-files", str(tmp_path / "parts"), "--out", str(out), "--samples", "3")
    assert code == 0 and "1 part: 1 written, 0 already there" in text


def test_analyze_files_solves_a_file_once_however_its_path_is_spelt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """league.json, then /full/path/league.json, wrote two parts of the same matches: whoever read
    the folder (DuckDB, import-analysis) counted every finding twice."""
    sample = (Path(__file__).resolve().parent.parent / "data" / "samples" / "muil.json").read_text()
    (tmp_path / "league.json").write_text(sample)
    (tmp_path / "alias.json").symlink_to(tmp_path / "league.json")
    monkeypatch.chdir(tmp_path)
    code, text, _ = run("analyze-files", "league.json", "--out", "analysis", "--samples", "1")
    assert code == 0 and "1 part: 1 written, 0 already there" in text
    for spelt in (str(tmp_path / "league.json"), "./league.json", "alias.json"):
        code, text, _ = run("analyze-files", spelt, "--out", "analysis", "--samples", "1")
        assert code == 0 and "1 part: 0 written, 1 already there" in text, spelt
    # named twice in one run: one part
    code, text, _ = run(
        "analyze-files", "league.json", str(tmp_path / "league.json"), "--out", "other", "--samples", "1"
    )
    assert code == 0 and "1 part: 1 written, 0 already there" in text
    assert [path.name for path in (tmp_path / "analysis" / "findings").iterdir()] == [
        "part-league.json.parquet"
    ]
    # mended under another spelling: solved again into the same part
    (tmp_path / "league.json").write_text(sample + "\n")
    code, text, _ = run("analyze-files", str(tmp_path / "league.json"), "--out", "analysis", "--samples", "1")
    assert code == 0 and "1 part: 1 written, 0 already there" in text
    assert [path.name for path in (tmp_path / "analysis" / "matches").iterdir()] == [
        "part-league.json.parquet"
    ]


def test_analyze_files_shows_the_solvers_progress_in_deals_and_quiet_hides_it(tmp_path: Path) -> None:
    """Progress was by part: one file of many matches sat at 0/1 for the whole run. It counts
    deals now, the total read beforehand from the records that read (a broken one left out),
    with the deals a second and the time left, as `manillen analyze` shows them."""
    inputs = tmp_path / "league"
    inputs.mkdir()
    (inputs / "one.jsonl").write_text(dump_lines(RECORDS[:2]) + '{"format": "manillen/2"}\n')
    (inputs / "two.mnl").write_text(dumps_text(RECORDS[2:]))
    deals = sum(len(record.deals) for record in RECORDS)
    code, text, err = run("analyze-files", str(inputs), "--out", str(tmp_path / "a"), "--samples", "1")
    assert code == 1 and "1 invalid record" in text  # the broken line, said and counted
    lines = [line for line in err.splitlines() if line.startswith("solving: ")]
    assert lines and lines[-1].startswith(f"solving: {deals}/{deals} deals, ") and "left" in lines[-1]
    code, _, err = run("analyze-files", str(inputs), "--out", str(tmp_path / "b"), "--samples", "1", "-q")
    assert "solving:" not in err


@pytest.fixture(scope="module")
def parts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """analyze-files' output of two input files: RECORDS[:2] (one part) and RECORDS[2:] (another)."""
    folder = tmp_path_factory.mktemp("parts")
    inputs = folder / "league"
    inputs.mkdir()
    (inputs / "one.jsonl").write_text(dump_lines(RECORDS[:2]))
    (inputs / "two.jsonl").write_text(dump_lines(RECORDS[2:]))
    code, _, err = run("analyze-files", str(inputs), "--out", str(folder / "out"), "--samples", SAMPLES)
    assert code == 0, err
    return folder


def _costed(path: Path) -> dict[str, int]:
    with Store(path, read_only=True) as store:
        return dict(store.query("SELECT match_id, count(*) FROM play_costs GROUP BY 1").rows())


def test_import_analysis_leaves_out_a_match_whose_record_changed_since_its_part(
    parts: Path, tmp_path: Path
) -> None:
    """A part's analysis of an earlier version of a match was loaded onto its new one (costs of 21
    deals on a match of 16): each part keeps the game it was solved from, and a match the archive
    holds another game of is left out and named."""
    path = new_archive(tmp_path / "club.duckdb")
    changed = msgspec.structs.replace(RECORDS[0], deals=RECORDS[0].deals[:1])
    with Store(path) as store:
        assert (
            store.import_entries([Entry("fix.jsonl", 1, dumps(changed, pretty=False).encode())]).replaced == 1
        )
    code, text, err = run("import-analysis", str(parts / "out"), "--db", str(path))
    assert code == 0, err
    assert "2 parts: analysis of 2 matches loaded" in text
    assert (
        f"{RECORDS[0].match.id}: left out, its record in the archive is not the one the part was solved"
        in err
    )
    assert set(_costed(path)) == {RECORDS[1].match.id, RECORDS[2].match.id}


def test_import_analysis_loads_a_match_whose_venue_only_was_put_right_since_its_part(
    parts: Path, tmp_path: Path
) -> None:
    """A venue put right after the part was solved left the match's analysis out ("its record in
    the archive is not the one the part was solved from"), where an import keeps an analysis when
    only the match's details change: the game is the same."""
    path = new_archive(tmp_path / "club.duckdb")
    moved = msgspec.structs.replace(
        RECORDS[0], match=msgspec.structs.replace(RECORDS[0].match, venue="Café De Zwaan, Roeselare")
    )
    with Store(path) as store:
        assert (
            store.import_entries([Entry("fix.jsonl", 1, dumps(moved, pretty=False).encode())]).replaced == 1
        )
    code, text, err = run("import-analysis", str(parts / "out"), "--db", str(path))
    assert code == 0, err
    assert "left out" not in err and "2 parts: analysis of 3 matches loaded" in text
    assert set(_costed(path)) == {record.match.id for record in RECORDS}


def test_a_part_that_cannot_be_read_is_left_out_whole_and_named(parts: Path, tmp_path: Path) -> None:
    """A findings file cut short stopped the load half way with a traceback: costs stored, findings
    not, the parts after it not loaded. The part is read whole first: left out, named, the others
    loaded, exit code 1."""
    out = tmp_path / "out"
    shutil.copytree(parts / "out", out)
    name = cli_cluster.part_name(parts / "league" / "one.jsonl")
    broken = out / "findings" / name
    broken.write_bytes(broken.read_bytes()[:100])
    path = new_archive(tmp_path / "club.duckdb")
    code, text, err = run("import-analysis", str(out), "--db", str(path))
    assert code == 1
    assert "1 part: analysis of 1 match loaded" in text
    assert f"{broken}: left out, this part cannot be read (" in err and "Traceback" not in err
    assert set(_costed(path)) == {RECORDS[2].match.id}  # nothing of the broken part
    # a part without its matches file (its run cut short) is said to be unfinished
    unfinished = tmp_path / "unfinished"
    shutil.copytree(parts / "out", unfinished)
    (unfinished / "matches" / name).unlink()
    code, text, err = run("import-analysis", str(unfinished), "--db", str(tmp_path / "club.duckdb"))
    assert code == 0 and "1 part: analysis of 1 match loaded" in text
    assert f"1 part not finished (no matches file: its run was cut short) left out: {name}" in err
    # analyze-files writes the broken part again ("already there" it said) and leaves the other
    code, text, err = run("analyze-files", str(parts / "league"), "--out", str(out), "--samples", SAMPLES)
    assert code == 0, err
    assert "2 parts: 1 written, 1 already there" in text
    code, text, err = run("import-analysis", str(out), "--db", str(path))
    assert code == 0 and "2 parts: analysis of 3 matches loaded" in text


def test_import_analysis_keeps_a_deeper_solver_review(parts: Path, tmp_path: Path) -> None:
    """A match the archive's solver review solved with more layouts a play keeps that review, as
    `manillen analyze` leaves a reviewed match alone (its 60 layouts had dropped to 3, unsaid)."""
    path = new_archive(tmp_path / "club.duckdb")
    one = RECORDS[2].match.id
    code, _, err = run("analyze", "--db", str(path), "--depth", "solver", "--samples", "6", "--match", one)
    assert code == 0, err
    before = _costed(path)[one]
    with Store(path, read_only=True) as store:
        deep = store.solver_samples([one])[one]
    assert deep > int(SAMPLES)
    code, text, err = run("import-analysis", str(parts / "out"), "--db", str(path))
    assert code == 0, err
    assert "2 parts: analysis of 2 matches loaded" in text
    assert (
        "1 match already reviewed by the solver with more layouts a play than its part kept its deeper review"
        in err
    )
    with Store(path, read_only=True) as store:
        assert store.solver_samples([one])[one] == deep and _costed(path)[one] == before


def test_a_part_of_an_earlier_analysis_is_loaded_as_that_ones_and_solved_again(
    parts: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Parts written before an upgrade were loaded as this version's review: the old words and
    costs were never flagged again, by `analyze`, the dashboard or `findings`."""
    out = tmp_path / "out"
    shutil.copytree(parts / "out", out)
    for written in (out / "matches").glob("part-*.parquet"):
        pl.read_parquet(written).drop("analysis_revision").write_parquet(written)  # as before it was kept
    path = new_archive(tmp_path / "club.duckdb")
    code, _, err = run("import-analysis", str(out), "--db", str(path))
    assert code == 0, err
    with Store(path, read_only=True) as store:
        revisions = store.query(
            "SELECT DISTINCT analysis_depth, analysis_revision FROM matches WHERE analysed_at IS NOT NULL"
        ).rows()
    assert revisions == [("solver", 0)]
    code, _, err = run("findings", "--db", str(path))
    assert "analysed by an earlier version" in err and "--depth solver" in err
    # and analyze-files solves again an input a part of an earlier revision was solved from
    monkeypatch.setattr(cli_cluster, "ANALYSIS_REVISION", cli_cluster.ANALYSIS_REVISION + 1)
    code, text, err = run("analyze-files", str(parts / "league"), "--out", str(out), "--samples", SAMPLES)
    assert code == 0 and "2 parts: 2 written, 0 already there" in text, err


def test_a_ctrl_c_says_what_the_run_kept(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A Ctrl-C is the user's, not an error ("Error: interrupted" said it as one, with no count):
    exit code 130, and how much of the run was kept."""
    from click.testing import CliRunner

    from manillen_replay.cli import cli

    def stopped_on_cluster(*_args: Any, **_kwargs: Any) -> Any:
        raise cli_cluster.Interrupted(cli_cluster.ClusterOutcome(matches=7, stored=3))

    def stopped_files(*_args: Any, **_kwargs: Any) -> Any:
        raise cli_cluster.Interrupted(cli_cluster.FilesOutcome(parts=5, written=2, skipped=1))

    monkeypatch.setattr(cli_cluster, "analyse_archive_on_cluster", stopped_on_cluster)
    monkeypatch.setattr(cli_cluster, "analyse_files", stopped_files)
    path = new_archive(tmp_path / "club.duckdb")
    runner = CliRunner()
    analysed = runner.invoke(
        cli, ["analyze", "--db", str(path), "--depth", "solver", "--all", "--cluster", "local:1", "--quiet"]
    )
    assert analysed.exit_code == 130, analysed.output
    assert (
        "interrupted: 3 of 7 matches came back and are stored; run the same command again" in analysed.stderr
    )
    assert "Error" not in analysed.stderr
    files = runner.invoke(
        cli, ["analyze-files", str(tmp_path), "--out", str(tmp_path / "out"), "--samples", "1"]
    )
    assert files.exit_code == 130, files.output
    assert "interrupted: 2 parts written before the stop are kept (1 already there)" in files.stderr
