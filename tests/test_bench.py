"""The benchmark suite runs end to end on a tiny input (timings are never asserted)."""

from __future__ import annotations

import json
import re
import sys

import pytest

from bench import suite
from bench.analyze_bench import PARTS
from bench.suite import STAGES, format_table, main, parse_arguments


def test_suite_prints_one_table_with_every_stage_and_writes_results(tmp_path, capsys):
    out = tmp_path / "results.json"
    argv = [
        "--sizes",
        "30",
        "--repeat",
        "1",
        "--solve-max",
        "30",
        "--solver-deals",
        "3",
        "--view-deals",
        "1",
        "--samples",
        "3",
        "--startup-runs",
        "1",
        "--page-runs",
        "0",
        "--cluster-deals",
        "0",
        "--variant-deals",
        "0",  # minutes a run: its own test below times one variant
        "--analyze-deals",
        "1",
        "--analyze-repeat",
        "1",
        "--record-deals",
        "0",  # the record stage drives a browser: its own test below
        "--data-dir",
        str(tmp_path),
        "--out",
        str(out),
    ]
    assert main(argv) == 0
    table = capsys.readouterr().out
    assert "solver.dd_costs" in table and "vs target" in table
    assert "analyze --depth solver on" in table and "x floor" in table
    header = table.splitlines()[0].split()
    assert header[:4] == ["stage", "deals", "time", "s"]
    for stage, _floor in STAGES:
        assert any(line.startswith(stage) for line in table.splitlines()), stage
    results = json.loads(out.read_text())
    rows = results["rows"]
    assert {row["stage"].split(":")[0] for row in rows} == {stage for stage, _ in STAGES}
    assert all(row["status"] in ("ok", "not available yet") for row in rows), rows
    for row in rows:
        if row["stage"] in ("decode+validate", "replay"):
            assert row["status"] == "ok"
            assert row["deals"] >= 30 and row["matches"] >= 1
            assert row["rate"] > 0 and row["floor_rate"] > 0
            assert row["ratio"] == pytest.approx(row["floor_rate"] / row["rate"])
            assert row["peak_rss_mb"] >= row["baseline_rss_mb"] > 0
    assert results["sizes"] == [30]
    latency = {row["stage"]: row for row in results["solver"]}
    assert set(latency) == {"solver.first_call", "solver.dd_costs", "solver.view_costs"}
    assert latency["solver.dd_costs"]["deals"] == 3
    assert 0 < latency["solver.dd_costs"]["median_ms"] <= latency["solver.dd_costs"]["p95_ms"]
    assert (tmp_path / f"archive-seed2026-{suite.generator_fingerprint()}-30.jsonl").exists()
    startup = {row["stage"]: row for row in results["startup"]}
    assert "manillen --version" in startup and "python -c pass" in table
    assert all(row["seconds"] > 0 and row["floor_seconds"] > 0 for row in startup.values())
    analyze = results["analyze"]
    assert analyze["deals"] >= 1 and len(analyze["passes"]) == 1
    parts = {row["part"]: row for row in analyze["passes"][0]["rows"]}
    assert set(parts) == {"deal", *PARTS}
    # the call reviews run beside the view costs: the parts cover the deal, and overlap
    assert sum(parts[p]["share"] for p in PARTS) >= 0.99
    assert all(parts[p]["share"] <= 1.0 for p in PARTS)
    assert parts["view costs"]["positions_median"] > 0 and parts["trump review"]["positions_median"] > 0
    assert parts["deal"]["median_s"] > 0 and analyze["passes"][0]["reference_s"] > 0


def test_solve_stage_is_skipped_above_its_limit(tmp_path, capsys):
    out = tmp_path / "results.json"
    argv = [
        "--sizes",
        "30",
        "--stages",
        "solve",
        "--solve-max",
        "10",
        "--solver-deals",
        "0",
        "--startup-runs",
        "0",
        "--page-runs",
        "0",
        "--cluster-deals",
        "0",
        "--variant-deals",
        "0",  # minutes a run: its own test below times one variant
        "--analyze-deals",
        "0",
        "--data-dir",
        str(tmp_path),
        "--out",
        str(out),
    ]
    assert main(argv) == 0
    rows = json.loads(out.read_text())["rows"]
    assert [(row["stage"], row["status"]) for row in rows] == [("solve", "skipped")]
    assert "--solve-max" in capsys.readouterr().out


def test_table_shows_unavailable_stages_with_their_reason():
    rows = [
        {
            "stage": "solve",
            "deals": 1000,
            "status": "not available yet",
            "floor": "replay",
            "reason": "no solver",
        },
        {
            "stage": "replay",
            "deals": 1000,
            "status": "ok",
            "floor": "trick walk",
            "seconds": 0.5,
            "rate": 2000.0,
            "floor_rate": 20000.0,
            "ratio": 10.0,
            "peak_rss_mb": 60.0,
            "baseline_rss_mb": 50.0,
        },
    ]
    table = format_table(rows)
    assert "not available yet" in table
    assert "solve: no solver" in table
    assert "10.0x" in table and "2,000" in table and "+10" in table


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--sizes", "ten"], "--sizes"),
        (["--stages", "fly"], "unknown stage"),
        (["--repeat", "0"], "--repeat"),
    ],
)
def test_bad_arguments_are_usage_errors(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_info:
        parse_arguments(argv)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_page_load_table_marks_pages_over_the_target_and_outside_requests():
    from bench.pages import format_result

    result = {
        "floor": "health",
        "floor_seconds": 0.01,
        "target_seconds": 1.0,
        "floors": {"bare page": 0.01, "bare page, cold cache": 0.6, "health": 0.002},
        "load_average": [1.5, 2.0],
        "rows": [
            {
                "page": "dashboard, cold cache",
                "first_visit": 1.2,
                "meets_target": False,
                "floor": "bare page, cold cache",
                "judged": False,
            },
            {
                "page": "archive",
                "first_visit": 0.5,
                "new_tab": 0.4,
                "script_done": 0.25,
                "meets_target": True,
                "floor_beside": 0.02,
                "private_tab": 1.31,
                "private_floor": 1.07,
            },
            {"page": "players", "first_visit": 1.5, "new_tab": 0.4, "in_session": 0.3, "meets_target": False},
        ],
        "external_requests": ["https://fonts.gstatic.com/icon.svg"],
    }
    lines = format_result(result).splitlines()
    header, cold, archive, players = (re.split(r"\s{2,}", line.strip()) for line in lines[:4])
    column = {name: index for index, name in enumerate(header)}
    verdict = column["target < 1 s"]
    # the cold row is shown against the cold bare page, and not judged: a person pays it once
    assert cold[0] == "dashboard, cold cache" and cold[column["vs floor"]] == "2.0x cold"
    assert cold[verdict] == "once a browser"
    assert "load average (1 min) at start and end: 1.5, 2.0" in format_result(result)
    # a page's new tabs over the bare page's tabs taken in turn with them
    assert archive[0] == "archive" and archive[verdict] == "ok" and archive[column["vs floor"]] == "20.0x"
    assert archive[column["private tab s"]] == "1.31" and archive[column["private floor s"]] == "1.07"
    assert archive[column["script done s"]] == "0.25"
    assert players[column["vs floor"]] == "40.0x"  # no floor beside: the run's bare page
    assert players[0] == "players" and players[verdict] == "over 1 s"
    assert "bare page 0.010 s" in format_result(result)
    assert "fonts.gstatic.com" in lines[-1]


@pytest.mark.browser
def test_record_stage_times_taps_against_a_plain_button_page(tmp_path, capsys, monkeypatch):
    """The record stage records a deal by taps in Chromium and clicks the floor's page as often
    (in the browser tests' browser, as the page bench's test)."""
    from bench import record_bench

    from .test_browser import CHROMIUM

    if not CHROMIUM.exists():
        pytest.skip("needs Debian's chromium")
    monkeypatch.setattr(record_bench, "CHROMIUM", CHROMIUM)
    out = tmp_path / "results.json"
    argv = ["--stages", "record", "--record-deals", "1", "--startup-runs", "0", "--page-runs", "0"]
    argv += ["--data-dir", str(tmp_path), "--out", str(out)]
    assert main(argv) == 0
    assert "record.tap_to_greyed" in capsys.readouterr().out
    results = json.loads(out.read_text())
    assert results["rows"] == []
    rows = {row["stage"]: row for row in results["record"]}
    assert set(rows) == {"record.tap_to_greyed", "record.tap_to_settled", "record.deal_32_taps"}
    for name in ("record.tap_to_greyed", "record.tap_to_settled"):
        row = rows[name]
        assert row["taps"] == 32 and 0 < row["median_ms"] <= row["p95_ms"]
        assert row["ratio"] == pytest.approx(row["median_ms"] / row["floor_median_ms"], abs=0.06)
    assert rows["record.tap_to_greyed"]["median_ms"] <= rows["record.tap_to_settled"]["median_ms"]
    assert rows["record.deal_32_taps"]["median_s"] > 0
    assert not list(tmp_path.glob("archive-*"))  # no generated archive for the record stage alone


def test_variants_bench_times_a_variants_deals_against_the_reference_floor():
    from bench import variants_bench

    rows = variants_bench.run(2, variants=("six_short",), fresh=False)
    (row,) = rows
    assert row["stage"] == "variants.six_short" and row["deals"] == 2
    assert 0 < row["median_ms"] <= row["max_ms"] and row["floor"] == "reference" and row["floor_ms"] > 0
    assert row["ratio"] == pytest.approx(row["median_ms"] / row["floor_ms"], rel=0.05, abs=0.06)
    assert row["positions"] > 1000 and row["cpu_ms"] > 0  # a deal of 30 plays searches thousands
    assert "variants.six_short" in variants_bench.format_rows(rows)


def test_hindsight_bench_counts_the_busier_threads_positions_beside_the_floor():
    from bench import hindsight_bench

    result = hindsight_bench.run(1, workers=(1, 2))
    one, two = result["rows"]
    assert result["deals"] >= 1 and (one["workers"], two["workers"]) == (1, 2)
    # one thread: the busier thread is the only one (the rare illegal card is solved on another)
    assert 0 < one["busier_median"] <= one["positions_median"]
    assert 0 < two["busier_median"] < two["positions_median"]
    assert one["ratio"] == pytest.approx(one["median_ms"] / one["floor_ms"], rel=1e-9)
    # processor time: one thread's cannot exceed the clock by more than the timer's grain
    assert 0 < one["cpu_median_ms"] <= one["median_ms"] + 1
    assert "busier thread" in hindsight_bench.format_result(result)
    assert "cpu ms" in hindsight_bench.format_result(result)


@pytest.mark.browser
def test_page_load_bench_times_the_pages_asked_in_a_kept_profile_and_in_a_private_window(
    tmp_path, monkeypatch
):
    """One short run of the page bench in Chromium, on the one page it always times, the Deal
    replay (``make bench`` times every page the same way): timed each way, its step and what-if
    too, nothing from outside. On the demo's first dozen matches, each page of the day before
    visited once and one what-if: the same steps as ``make bench`` on its 300, with fewer tabs.
    In the browser tests' browser (``make bench`` times Debian's Chromium): the steps are the
    same, for half the processor time."""
    from bench import pages

    from .test_browser import CHROMIUM

    if not CHROMIUM.exists():
        pytest.skip("needs Debian's chromium")
    monkeypatch.setattr(pages, "CHROMIUM", CHROMIUM)
    source = tmp_path / "demo-slice.jsonl"
    with pages.DEMO.open(encoding="utf-8") as demo:
        source.write_text("".join(line for _, line in zip(range(12), demo, strict=False)), encoding="utf-8")
    result = pages.run(
        runs=1, steps=1, folder=tmp_path, pages=[], source=source, earlier_visits=1, what_ifs=1
    )
    from manillen_replay.store import Store

    with Store(tmp_path / "demo.duckdb", read_only=True) as archive:  # the slice, not the whole demo
        assert archive.query("SELECT count(*) FROM matches").item() == 12
    rows = {row["page"]: row for row in result["rows"]}
    assert list(rows) == ["dashboard, cold cache", "replay", "replay step", "replay what-if"]
    assert rows["replay what-if"]["new_tab"] > 0
    assert rows["dashboard, cold cache"]["judged"] is False
    row = rows["replay"]
    assert row["first_visit"] > 0 and row["new_tab"] > 0 and row["private_tab"] > 0
    assert row["private_floor"] > 0 and row["vs_floor"] == row["new_tab"] / row["floor_beside"]
    assert row["in_session"] > 0
    assert rows["replay step"]["new_tab"] > 0
    assert set(result["floors"]) >= {
        "bare page",
        "bare rerun",
        "bare page, cold cache",
        "bare page, private window",
    }
    assert result["external_requests"] == []
    assert "once a browser" in pages.format_result(result)


def test_bulk_bench_runs_the_stages_and_the_commands_at_both_sizes_and_judges_the_targets(tmp_path, capsys):
    from bench import bulk_bench

    out = tmp_path / "bulk.json"
    argv = ["--deals", "60", "--baseline", "30", "--cache", str(tmp_path / "cache"), "--out", str(out)]
    assert bulk_bench.main(argv) == 0
    result = json.loads(out.read_text())
    stages = {(row["stage"], row["status"]) for row in result["stages"]}
    assert stages == {(stage, "ok") for stage in bulk_bench.STAGE_TARGETS}
    assert len(result["stages"]) == 2 * len(bulk_bench.STAGE_TARGETS)
    commands = result["commands"]
    assert [row["exit_code"] for row in commands] == [0] * 6  # generated records are all valid
    assert len({row["deals"] for row in commands}) == 2
    assert all(row["peak_rss_mb"] > 0 for row in commands)
    targets = [verdict["target"] for verdict in result["verdicts"]]
    assert any("import peak" in target for target in targets)
    assert any("validate + import + scan" in target for target in targets)
    assert "issue 35's targets" in capsys.readouterr().out
    assert list((tmp_path / "cache").glob("archive-seed2026-*-first-30.jsonl"))
    # A smaller run takes the first matches of the archive made before, not all of it.
    held = max(row["deals"] for row in commands)
    argv = ["--deals", "20", "--baseline", "10", "--stages", "", "--cache", str(tmp_path / "cache")]
    assert bulk_bench.main([*argv, "--out", str(out)]) == 0
    smaller = json.loads(out.read_text())["commands"]
    assert all(row["deals"] < held for row in smaller), (held, [row["deals"] for row in smaller])
    counts = [int(n) for n in next((tmp_path / "cache").glob("*.deals")).read_text().split()]
    matches = next(n for n in range(1, len(counts) + 1) if sum(counts[:n]) >= 20)
    validated = [row["stderr_tail"] for row in smaller if row["command"] == "manillen validate"][-1]
    assert f"{matches} records: {matches} valid" in validated


def test_make_timing_times_a_command_and_tells_a_failure_by_its_last_line(tmp_path):
    from bench import make_timing

    passed = make_timing.time_command(
        [sys.executable, "-c", "print('== 12 passed, 1 skipped in 3.40s ==')"], cwd=tmp_path
    )
    assert passed["status"] == "ok" and passed["summary"] == "12 passed, 1 skipped in 3.40s"
    assert passed["seconds"] >= 0 and passed["load_before"] >= 0 and not passed["reason"]
    failed = make_timing.time_command(
        [sys.executable, "-c", "import sys; sys.exit('make: *** [Makefile:9: check] Error 1')"], cwd=tmp_path
    )
    assert failed["status"] == "failed" and failed["reason"] == "make: *** [Makefile:9: check] Error 1"
    # a failed pytest run is told by the tests that failed, from its short summary
    short_summary = (
        "FAILED tests/test_a.py::test_one - assert 1 == 2\\nERROR tests/test_b.py::test_two[x] - OSError\\n"
        "== 2 failed, 10 passed in 3.00s =="
    )
    tests = make_timing.time_command(
        [sys.executable, "-c", f"import sys; print('{short_summary}'); sys.exit('make: *** Error 1')"],
        cwd=tmp_path,
    )
    assert tests["summary"] == "2 failed, 10 passed in 3.00s"
    assert tests["failures"] == ["tests/test_a.py::test_one", "tests/test_b.py::test_two[x]"]
    assert tests["reason"] == "tests/test_a.py::test_one; tests/test_b.py::test_two[x]"
    assert passed["failures"] == [] and failed["failures"] == []
    row = dict(passed, target="check", run=1, target_seconds=90.0, floor_seconds=passed["seconds"] or 1.0)
    table = make_timing.format_rows([row, dict(failed, target="test", run=1, target_seconds=480.0)])
    lines = table.splitlines()
    assert lines[0].split()[:3] == ["make", "run", "time"]
    assert lines[2].split()[:2] == ["check", "1"] and "yes" in lines[2].split()
    assert lines[3].split()[:2] == ["test", "1"] and "failed" in lines[3].split()
    shown = make_timing.format_rows([dict(tests, target="check", run=2, target_seconds=90.0)])
    assert shown.splitlines()[2].endswith(
        "2 failed, 10 passed in 3.00s; tests/test_a.py::test_one; tests/test_b.py::test_two[x]"
    )


def test_make_timing_floor_collects_what_the_target_runs():
    from bench import make_timing

    for target in ("check", "test"):
        command = make_timing.floor_command(target)
        assert command is not None and command[:2] == ["sh", "-c"], command
        assert "/pytest " in command[2] and command[2].endswith(" --collect-only"), command
    assert "not browser and not solver" in (make_timing.floor_command("check") or [""])[-1]
    assert make_timing.floor_command("clean") is None


def test_make_check_lists_test_files_that_exist_and_no_browser_module():
    from bench.make_timing import ROOT

    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    block = re.search(r"^CHECK_TESTS := (.*?)\n(?!\t)", makefile, re.S | re.M)
    assert block is not None
    listed = block.group(1).replace("\\", " ").split()
    assert "tests/test_rules.py" in listed and "manillen_replay" in listed
    for name in listed:
        assert (ROOT / name).exists(), name
        if name.endswith(".py"):
            assert "pytest.mark.browser" not in (ROOT / name).read_text(encoding="utf-8"), name


def test_variants_bench_times_the_full_analysis_against_the_four_player_game():
    """The full analysis a deal of a variant, with the four-player game's measured in the same
    run as its floor, and the ratios of both the wall-clock and the CPU time."""
    from bench import variants_bench

    rows = {row["stage"]: row for row in variants_bench.full_rows(1, variants=("six_short",), samples=2)}
    four, variant = rows["variants_full.four"], rows["variants_full.six_short"]
    assert four["ratio"] == 1.0 and four["floor_ms"] == four["median_ms"] > 0
    assert variant["deals"] == 1 and variant["samples"] == 2 and variant["floor_ms"] == four["median_ms"]
    assert variant["ratio"] == pytest.approx(variant["median_ms"] / four["median_ms"], rel=0.05, abs=0.01)
    assert variant["cpu_ratio"] == pytest.approx(variant["cpu_ms"] / four["cpu_ms"], rel=0.05, abs=0.01)
    assert "variants_full.six_short" in variants_bench.format_rows(list(rows.values()))


def test_an_archive_made_by_an_older_generator_is_made_again(tmp_path):
    stale = tmp_path / "archive-seed7-0123456789-40.jsonl"
    stale.write_text('{"not": "a record of this generator"}\n')
    stale.with_suffix(".deals").write_text("40\n")
    other_seed = tmp_path / "archive-seed8-0123456789-40.jsonl"
    other_seed.write_text("kept\n")
    made = suite.ensure_archive(tmp_path, 7, 5)
    assert not stale.exists() and not stale.with_suffix(".deals").exists()
    assert other_seed.exists()
    assert made.name == f"archive-seed7-{suite.generator_fingerprint()}-5.jsonl"
    counts = [int(n) for n in made.with_suffix(".deals").read_text().split()]
    assert sum(counts) >= 5 and len(made.read_text().splitlines()) == len(counts)
    assert suite.ensure_archive(tmp_path, 7, 3) == made


def test_suite_timeline_reads_each_process_s_files_and_what_ran_while_the_other_waited(tmp_path):
    from bench import suite_timeline

    def rows(tests):
        keys = ("test", "start", "end", "cpu")
        return "".join(json.dumps(dict(zip(keys, row, strict=True))) + "\n" for row in tests)

    # gw0: a long file alone; gw1: two short files, then nothing left while gw0 goes on
    (tmp_path / "tl.gw0.jsonl").write_text(
        rows([("tests/test_long.py::a", 100.0, 130.0, 3.0), ("tests/test_long.py::b", 130.0, 160.0, 2.0)])
    )
    (tmp_path / "tl.gw1.jsonl").write_text(
        rows(
            [
                ("tests/test_a.py::x", 100.0, 110.0, 9.0),
                ("tests/test_a.py::y", 110.0, 115.0, 4.0),
                ("tests/test_b.py::z", 115.0, 125.0, 10.0),
            ]
        )
    )
    runs = suite_timeline.read(str(tmp_path / "tl"))
    assert [(run.process, run.file, run.start, run.end) for run in runs] == [
        ("gw0", "tests/test_long.py", 0.0, 60.0),
        ("gw1", "tests/test_a.py", 0.0, 15.0),
        ("gw1", "tests/test_b.py", 15.0, 25.0),
    ]
    assert runs[0].cpu == pytest.approx(5.0) and runs[1].tests == [10.0, 5.0]
    text = suite_timeline.report(runs)
    assert "the last test ends at 60 s" in text and "gw1 ends at 25 s" in text
    assert "(25 s to 60 s), the other ran:\n  gw0 tests/test_long.py 0-60 s\n" in text
    # xdist hands a process its next file once two or fewer of its tests are left: the 10 s file
    # goes to the process that started the one-test file, behind it, while the other runs dry
    assert suite_timeline.simulate([[1.0] * 4, [5.0], [10.0]]) == [4.0, 15.0]
    assert suite_timeline.simulate([[10.0], [5.0], [1.0] * 4, [2.0], [2.0]]) == [14.0, 9.0]
    assert suite_timeline.simulate([[3.0] * 5, [3.0] * 5, [1.0]]) == [16.0, 15.0]


def test_suite_timeline_without_a_recorded_run_says_how_to_record_one(tmp_path):
    from bench import suite_timeline

    with pytest.raises(SystemExit, match="MANILLEN_TEST_TIMELINE="):
        suite_timeline.read(str(tmp_path / "none"))


def test_import_duckdb_replays_every_statement_of_the_loader_under_a_setting(tmp_path, sample_records):
    """The replay on DuckDB alone stores, table by table, as many rows as the import it captured,
    under a limit and a row group size of its own."""
    from bench import import_duckdb
    from manillen_replay.record import Entry
    from manillen_replay.store import Store

    lines = [record.encode() for record in sample_records]
    statements = import_duckdb.capture(lines, tmp_path)
    assert {"matches", "play_rows"} <= {target for _, target in statements}
    row = import_duckdb.replay(tmp_path, statements, "64MB/2048")
    with Store(tmp_path / "imported.duckdb") as store:
        store.import_entries([Entry("sample.jsonl", n, line) for n, line in enumerate(lines, start=1)])
        imported = {table: store.query(f'SELECT count(*) FROM "{table}"').item() for table in row["rows"]}
    assert row["rows"] == imported
    assert row["rows"]["play_rows"] > 0
    assert row["file_mb"] > 0 and row["setting"] == "64MB/2048"


def test_bulk_cpu_times_the_import_against_duckdb_with_its_defaults_and_under_the_import_s_limit(
    tmp_path, capsys
):
    from bench import bulk_cpu

    pieces = ["import", "DuckDB from Arrow", bulk_cpu.LIMITED_FLOOR]
    argv = ["--deals", "40", "--passes", "1", "--cache", str(tmp_path)]
    assert bulk_cpu.main([*argv, *(option for piece in pieces for option in ("--only", piece))]) == 0
    printed = capsys.readouterr().out
    seconds = {
        name.strip(): float(value)
        for name, value in (line.rsplit(maxsplit=1) for line in printed.splitlines() if line.startswith("  "))
    }
    assert set(seconds) == set(pieces) and all(value > 0 for value in seconds.values())
    for floor in pieces[1:]:  # the ratio of the unrounded seconds
        ratio = re.search(rf"^import / {re.escape(floor)}: ([0-9.]+)x$", printed, re.MULTILINE)
        assert ratio is not None
        assert float(ratio[1]) == pytest.approx(seconds["import"] / seconds[floor], rel=0.1)
    assert "decode+validate" not in printed


def test_the_floor_loads_under_the_settings_it_is_given(tmp_path):
    """The limited floor is DuckDB under the import's settings, not its defaults: a memory limit
    the rows do not fit in, with nowhere to spill, stops the load."""
    import duckdb
    import pyarrow as pa

    from bench.worker import _floor_load

    rows = {"numbers": pa.table({"n": pa.array(range(1_000_000), type=pa.int64())})}
    assert _floor_load(rows, tmp_path / "defaults.duckdb") > 0
    nowhere_to_spill = {"memory_limit": "'1MB'", "temp_directory": "''"}
    with pytest.raises(duckdb.OutOfMemoryException):
        _floor_load(rows, tmp_path / "limited.duckdb", settings=nowhere_to_spill)
