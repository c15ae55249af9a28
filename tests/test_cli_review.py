"""The solver review from the command line (issue 30): the default depth, --match and --since,
the progress line, `findings --top`, and waiting for the dashboard's turn instead of refusing."""

from __future__ import annotations

import contextlib
import datetime
import json
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from manillen_replay.analysis.effort import FOUR_PLAYER_DEALS, review_effort
from manillen_replay.cli import cli
from manillen_replay.cli.common import AUTO_SOLVER_DEALS, auto_depth
from manillen_replay.record import Entry, dump_lines, dumps
from manillen_replay.rules import VARIANTS
from manillen_replay.store import ArchiveLockedError, Store

from .conftest import TWO_OPEN
from .factories import random_record


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def archive(path: Path, *matches: tuple[int, int, str | None]) -> Path:
    """An archive of random matches ``(seed, deals, date)``."""
    entries = []
    for line, (seed, deals, date) in enumerate(matches, start=1):
        document = json.loads(dumps(random_record(seed, deals), pretty=False))
        if date is not None:
            document["match"]["date"] = date
        entries.append(Entry("gen.jsonl", line, json.dumps(document).encode()))
    with Store(path) as store:
        assert store.import_entries(entries).imported == len(matches)
    return path


def rows(path: Path, sql: str) -> list[tuple[Any, ...]]:
    with Store(path, read_only=True) as store:
        return store.query(sql).rows()


# --------------------------------------------------------------------------- the default depth


def test_the_solver_review_is_the_default_for_a_few_deals() -> None:
    """ "solver when the matches to review hold at most AUTO_SOLVER_DEALS deals, else heuristic" """
    assert auto_depth(AUTO_SOLVER_DEALS) == "solver"
    assert auto_depth(AUTO_SOLVER_DEALS + 1) == "heuristic"


def test_a_deal_of_another_variant_counts_as_its_measured_work_in_four_player_deals() -> None:
    """ "the work counted in four-player deals": the bench's ratio of each variant, the dearest
    for a variant it has not measured; 60 deals of six_short are half the work of 60 of four."""
    assert set(FOUR_PLAYER_DEALS) == set(VARIANTS)  # a new variant is measured before it is counted
    assert review_effort({"four": 3, "two_open": 1}) == 3 + FOUR_PLAYER_DEALS["two_open"]
    assert review_effort({"four": 0, "six_short": 10}) == 10 * FOUR_PLAYER_DEALS["six_short"]
    assert review_effort({"seven_players": 1}) == max(FOUR_PLAYER_DEALS.values())
    assert auto_depth(review_effort({"six_short": 2 * AUTO_SOLVER_DEALS})) == "solver"
    assert auto_depth(review_effort({"two_open": 1})) == "heuristic"
    assert auto_depth(review_effort({"four": AUTO_SOLVER_DEALS})) == "solver"


def test_findings_on_one_deal_of_two_players_scan_and_say_how_long_the_solver_would_take() -> None:
    """One two-player deal with open table cards is minutes of the solver's work, not a second."""
    code, _, err = run("findings", str(TWO_OPEN))
    assert code == 0, err
    assert "solving" not in err
    assert "1 deal to review, whose solver review would take about 2 minutes" in err
    assert "give --depth solver" in err and "--match ID" not in err  # one match: nothing to choose


def test_analyze_scans_an_archive_of_one_two_player_deal_and_says_why(tmp_path: Path) -> None:
    path = tmp_path / "two.duckdb"
    with Store(path) as store:
        assert store.import_entries([Entry(str(TWO_OPEN), None, TWO_OPEN.read_bytes())]).imported == 1
    code, out, err = run("analyze", "--db", str(path))
    assert code == 0, err
    assert "analysed 1 match (1 deal) at the heuristic depth" in out
    assert "whose solver review would take about 2 minutes" in err and "--depth solver" in err
    assert rows(path, "SELECT analysis_depth FROM matches") == [("heuristic",)]


def test_analyze_reviews_a_small_archive_at_the_solver_depth(tmp_path: Path) -> None:
    path = archive(tmp_path / "club.duckdb", (5, 2, None))
    code, out, err = run("analyze", "--db", str(path), "--samples", "2")
    assert code == 0, err
    assert "analysed 1 match (2 deals) at the solver depth" in out
    assert rows(path, "SELECT analysis_depth FROM matches") == [("solver",)]
    assert rows(path, "SELECT count(*) > 0 FROM play_costs") == [(True,)]


def test_analyze_scans_a_big_archive_and_says_how_to_get_the_solver_review(tmp_path: Path) -> None:
    path = archive(tmp_path / "club.duckdb", *[(seed, 13, None) for seed in range(10, 15)])
    code, out, err = run("analyze", "--db", str(path))
    assert code == 0, err
    assert "analysed 5 matches (65 deals) at the heuristic depth" in out
    assert "65 deals to review" in err and "--depth solver" in err and "--match ID" in err
    assert rows(path, "SELECT DISTINCT analysis_depth FROM matches") == [("heuristic",)]
    assert rows(path, "SELECT count(*) FROM play_costs") == [(0,)]
    # again: nothing new to scan, so it does not say the scan ran, only what the solver has left
    code, out, err = run("analyze", "--db", str(path))
    assert code == 0 and "analysed 0 matches (0 deals)" in out
    assert "fast scan" not in err and "65 deals not reviewed by the solver yet (about" in err
    assert "--depth solver" in err


def test_findings_on_a_file_review_at_the_solver_depth_by_default(tmp_path: Path) -> None:
    path = tmp_path / "one.jsonl"
    path.write_text(dump_lines([random_record(5, 1)]))
    code, out, err = run("findings", str(path), "--samples", "2", "--json")
    assert code == 0, err
    kinds = {f["kind"] for f in json.loads(out)["findings"]}
    assert kinds & {"costly_card", "hindsight_only", "trump_choice", "knock_choice"}
    assert "solving: 1/1 deals" in err
    code, out, err = run("findings", str(path), "--depth", "heuristic", "--json")
    assert code == 0 and "solving" not in err
    assert not {f["kind"] for f in json.loads(out)["findings"]} & {"costly_card", "hindsight_only"}


def test_findings_on_many_deals_scan_and_say_so(tmp_path: Path) -> None:
    path = tmp_path / "many.jsonl"
    path.write_text(dump_lines([random_record(seed, 13) for seed in range(20, 25)]))
    code, _, err = run("findings", str(path))
    assert code == 0 and "solving" not in err
    assert "65 deals to review" in err and "--depth solver" in err


def test_depth_is_for_files_only(tmp_path: Path) -> None:
    path = archive(tmp_path / "club.duckdb", (5, 1, None))
    code, _, err = run("findings", "--db", str(path), "--depth", "solver")
    assert code == 2 and "--depth is for record files" in err


# --------------------------------------------------------------------------- --match, --since


def test_match_and_since_choose_the_matches_newest_first(tmp_path: Path) -> None:
    from manillen_replay.store.analyse import match_ids_to_analyse

    path = archive(
        tmp_path / "club.duckdb",
        (31, 1, "2026-03-01"),
        (32, 1, "2026-05-01"),
        (33, 1, None),
        (34, 1, "2026-04-01"),
    )
    with Store(path, read_only=True) as store:
        assert match_ids_to_analyse(store, newest_first=True) == [
            "random-32", "random-34", "random-31", "random-33"
        ]  # fmt: skip
        since = datetime.date(2026, 4, 1)
        assert match_ids_to_analyse(store, since=since, newest_first=True) == ["random-32", "random-34"]
    code, out, err = run("analyze", "--db", str(path), "--since", "2026-04-01", "--depth", "rules")
    assert code == 0 and "analysed 2 matches (2 deals)" in out, err
    analysed = rows(path, "SELECT match_id FROM matches WHERE analysed_at IS NOT NULL ORDER BY 1")
    assert analysed == [("random-32",), ("random-34",)]
    code, out, _ = run(
        "analyze", "--db", str(path), "--match", "random-33", "--match", "random-31", "--depth", "rules"
    )
    assert code == 0 and "analysed 2 matches" in out
    code, out, _ = run("analyze", "--db", str(path), "--match", "random-33", "--depth", "rules", "--all")
    assert code == 0 and "analysed 1 match (1 deal)" in out


def test_a_review_by_an_earlier_version_of_the_analysis_is_made_again(tmp_path: Path) -> None:
    """After an upgrade the archive kept the old words and costs: `analyze` found nothing new, the
    dashboard's reviewer nothing to review, and players read verdicts the tool no longer gives."""
    import duckdb

    from manillen_replay.archive_defaults import ANALYSIS_REVISION
    from manillen_replay.store.review_queue import matches_to_review, solver_review

    path = archive(
        tmp_path / "club.duckdb", (41, 1, "2026-03-01"), (42, 1, "2026-03-02"), (43, 1, "2026-03-03")
    )
    code, out, err = run("analyze", "--db", str(path), "--depth", "heuristic")
    assert code == 0 and "analysed 3 matches" in out, err
    assert rows(path, "SELECT DISTINCT analysis_revision FROM matches") == [(ANALYSIS_REVISION,)]
    connection = duckdb.connect(str(path))
    # 41 scanned and 42 reviewed by the solver before the archive kept the revision
    connection.execute(
        "UPDATE matches SET analysis_revision = NULL WHERE match_id IN ('random-41', 'random-42')"
    )
    connection.execute("UPDATE matches SET analysis_depth = 'solver' WHERE match_id = 'random-42'")
    connection.close()
    with Store(path, read_only=True) as store:
        assert matches_to_review(store) == ["random-43", "random-42", "random-41"]
        assert [solver_review(store, f"random-{n}") for n in (41, 42, 43)] == [None, "outdated", None]
    code, _, err = run("findings", "--db", str(path))
    assert "2 matches in the archive were analysed by an earlier version of manillen-replay" in err
    assert err.split("\n")[0].endswith(
        f"`manillen analyze --db {path}` analyses 1 of them again, `manillen analyze --db {path} "
        "--depth solver` the 1 the solver reviewed"
    )
    # a run shallower than both: which depth analyses each again
    code, out, err = run("analyze", "--db", str(path), "--depth", "rules")
    assert code == 0 and "analysed 0 matches" in out, err
    assert (
        "2 matches keep their analysis by an earlier version of manillen-replay, deeper than the rules "
        "depth as they were analysed: `--depth heuristic` analyses 1 of them again, `--depth solver` "
        "analyses 1 of them again"
    ) in err
    code, out, err = run("analyze", "--db", str(path), "--depth", "heuristic")
    assert code == 0 and "analysed 1 match (1 deal) at the heuristic depth" in out, err
    assert (
        "1 match keeps its analysis by an earlier version of manillen-replay, deeper than the heuristic"
        in err
    )
    assert "`--depth solver` analyses it again" in err and "nothing new" not in err
    revisions = "SELECT match_id, analysis_depth, analysis_revision FROM matches ORDER BY 1"
    assert rows(path, revisions) == [
        ("random-41", "heuristic", ANALYSIS_REVISION),
        ("random-42", "solver", None),  # a fast scan would have replaced the solver's review
        ("random-43", "heuristic", ANALYSIS_REVISION),
    ]
    code, out, err = run(
        "analyze", "--db", str(path), "--depth", "solver", "--samples", "2", "--match", "random-42"
    )
    assert code == 0 and "analysed 1 match (1 deal) at the solver depth" in out, err
    with Store(path, read_only=True) as store:
        assert solver_review(store, "random-42") == "current"
        assert matches_to_review(store) == ["random-43", "random-41"]
    code, _, err = run("findings", "--db", str(path))
    assert code == 0 and "earlier version" not in err


@pytest.mark.parametrize("command", [["findings"], ["analyze", "--depth", "rules"]])
def test_a_command_that_upgrades_an_old_archive_says_so(tmp_path: Path, command: list[str]) -> None:
    """`findings` looks like it only reads, yet upgraded the archive without a word, after which
    the older version that made it refused it; `import --db` and the dashboard said so."""
    import duckdb

    from manillen_replay.store import SCHEMA_VERSION
    from manillen_replay.store.schema import apply_migrations

    path = tmp_path / "old.duckdb"
    connection = duckdb.connect(str(path))
    apply_migrations(connection, upto=SCHEMA_VERSION - 1)
    connection.close()
    code, _, err = run(*command, "--db", str(path))
    assert code == 0, err
    assert f"{path}: upgraded from schema version {SCHEMA_VERSION - 1} to {SCHEMA_VERSION}" in err
    _, _, again = run(*command, "--db", str(path))
    assert "upgraded" not in again


def test_an_unknown_match_or_a_bad_date_is_a_usage_error(tmp_path: Path) -> None:
    path = archive(tmp_path / "club.duckdb", (5, 1, None))
    code, _, err = run("analyze", "--db", str(path), "--match", "nope")
    assert code == 2 and "no match with id 'nope'" in err
    code, _, err = run("analyze", "--db", str(path), "--since", "28/11/2026")
    assert code == 2 and "YYYY-MM-DD" in err


# --------------------------------------------------------------------------- progress


def test_the_progress_line_shows_from_the_first_deal_on() -> None:
    from manillen_replay.analysis.deal_analysis import ProgressMeter
    from manillen_replay.cli.analysis import _SolverProgress

    now = [0.0]
    shown = _SolverProgress(100, clock=lambda: now[0])
    meter = ProgressMeter(100, lambda progress: shown.update(1, progress), clock=lambda: now[0])
    runner = CliRunner()
    with runner.isolation() as (_, _, err):
        for _ in range(100):
            now[0] += 2.0
            meter.advance()
        lines = err.getvalue().decode().splitlines()
    assert lines[0] == "solving: 1/100 deals, 0.5 deals/s, 3:18 left"
    assert lines[-1].startswith("solving: 100/100 deals, ")
    assert len(lines) == 11  # the first deal, then every tenth


def test_a_slow_review_still_shows_a_line_every_half_minute() -> None:
    from manillen_replay.analysis.deal_analysis import ProgressMeter
    from manillen_replay.cli.analysis import _SolverProgress

    now = [0.0]
    shown = _SolverProgress(1000, clock=lambda: now[0])
    meter = ProgressMeter(1000, lambda progress: shown.update(1, progress), clock=lambda: now[0])
    with CliRunner().isolation() as (_, _, err):
        for _ in range(20):
            now[0] += 10.0
            meter.advance()
        lines = err.getvalue().decode().splitlines()
    assert [line.split(",")[0] for line in lines] == [
        "solving: 1/1000 deals", "solving: 4/1000 deals", "solving: 7/1000 deals",
        "solving: 10/1000 deals", "solving: 13/1000 deals", "solving: 16/1000 deals",
        "solving: 19/1000 deals",
    ]  # fmt: skip


def test_the_time_left_counts_each_deals_expected_work_not_deals_alike() -> None:
    """A run of 112 deals said "0:25 left" at 66 and then stalled three minutes on a two-player
    open deal: every deal counted alike, a deal of that game is some 140 four-player deals' work."""
    from manillen_replay.analysis.deal_analysis import ProgressMeter
    from manillen_replay.engine import replay
    from manillen_replay.record import loads

    now = [0.0]
    seen: list[Any] = []
    two_open = review_effort({"two_open": 1})
    meter = ProgressMeter(3, seen.append, clock=lambda: now[0], work=1 + two_open)
    played = replay(random_record(8, 1))
    sheet = loads(
        (Path(__file__).resolve().parent.parent / "data" / "samples" / "scoresheet.json").read_text()
    )
    now[0] = 10.0
    meter.counter(played.rules)(played.deals[0])  # one four-player deal: 10 s
    assert seen[-1].work_done == 1 and seen[-1].remaining == pytest.approx(10.0 * two_open)
    meter.counter(played.rules)(replay(sheet).deals[0])  # a scoresheet line: nothing to solve
    assert seen[-1].work_done == 1 and seen[-1].done == 2
    plain = ProgressMeter(3, seen.append, clock=lambda: now[0])  # without the work: by deals
    now[0] = 20.0
    plain.count(played.deals[0])
    assert seen[-1].remaining == pytest.approx(20.0)


def test_the_solver_progress_counts_every_deal_not_past_the_total(tmp_path: Path) -> None:
    """ "solving: 5/4 deals": a scoresheet deal was told as done but not counted in the total."""
    from manillen_replay.record import loads

    sample = Path(__file__).resolve().parent.parent / "data" / "samples" / "scoresheet.json"
    record = loads(sample.read_text(encoding="utf-8"))
    path = tmp_path / "club.duckdb"
    with Store(path) as store:
        store.import_entries([Entry("s.json", 1, dumps(record, pretty=False).encode())])
    code, _, err = run("analyze", "--db", str(path), "--depth", "solver", "--samples", "2")
    assert code == 0, err
    lines = [line for line in err.splitlines() if line.startswith("solving:")]
    deals = len(record.deals)
    assert lines[-1].startswith(f"solving: {deals}/{deals} deals")
    assert all(int(line.split()[1].split("/")[0]) <= deals for line in lines)
    # before the first deal is done (minutes in the two-player game), what it is about to do
    said = err.splitlines()
    first = next(i for i, line in enumerate(said) if line.startswith("solving"))
    assert said[first].startswith(
        f"solving {deals} deals of 1 match (none of them with cards to solve): at --samples 2 the time left"
    )


# --------------------------------------------------------------------------- --top


def test_findings_top_on_a_file_ranks_one_decision_each_the_costliest_first(tmp_path: Path) -> None:
    path = tmp_path / "two.jsonl"
    path.write_text(dump_lines([random_record(5, 2)]))
    code, out, err = run("findings", str(path), "--samples", "3", "--top", "4", "--json")
    assert code == 0, err
    top = json.loads(out)["findings"]
    assert [f["rank"] for f in top] == list(range(1, len(top) + 1)) and 0 < len(top) <= 4
    assert all(f["severity"] != "info" for f in top)
    places = [
        (f["deal"], f["trick"], f["play"], f["seat"], f["kind"] if f["trick"] is None else None) for f in top
    ]
    assert len(set(places)) == len(places)
    views = [f["view_cost"] for f in top if f["measure"] == "view"]
    assert views == sorted(views, reverse=True)
    measures = [f["measure"] for f in top]
    assert measures == sorted(measures, key=lambda m: m != "view")  # costed first
    code, text, _ = run("findings", str(path), "--samples", "3", "--top", "4")
    heading = "The costliest decision:" if len(top) == 1 else f"The {len(top)} costliest decisions:"
    assert code == 0 and text.startswith(heading)
    assert "from what the player could see" in text
    code, text, _ = run("findings", str(path), "--samples", "3", "--top", "1", "--lang", "nl")
    assert code == 0 and text.startswith("De duurste beslissing:")  # one, not "De 1 duurste beslissingen"


def test_findings_top_from_the_archive_is_the_stores_ranking(tmp_path: Path) -> None:
    path = archive(tmp_path / "club.duckdb", (5, 2, None))
    assert run("analyze", "--db", str(path), "--samples", "3")[0] == 0
    code, out, err = run("findings", "--db", str(path), "--top", "3", "--json")
    assert code == 0, err
    top = json.loads(out)["findings"]
    with Store(path, read_only=True) as store:
        expected = store.biggest_mistakes(top=3)
    assert [(f["deal"], f["trick"], f["play"], f["kind"]) for f in top] == [
        (r["deal"], r["trick"], r["play"], r["kind"]) for r in expected.iter_rows(named=True)
    ]
    code, text, _ = run("findings", "--db", str(path), "--top", "3", "--lang", "nl")
    assert code == 0 and "duurste beslissing" in text


def test_findings_top_at_the_heuristic_depth_ranks_by_points(tmp_path: Path) -> None:
    path = tmp_path / "many.jsonl"
    path.write_text(dump_lines([random_record(seed, 10) for seed in range(40, 44)]))
    code, out, _ = run("findings", str(path), "--depth", "heuristic", "--top", "5", "--json")
    assert code == 0
    top = json.loads(out)["findings"]
    assert top and all(f["measure"] == "points" and f["view_cost"] is None for f in top)
    assert [f["points"] for f in top] == sorted((f["points"] for f in top), reverse=True)
    assert all("points at stake" in f["cost"] for f in top)


# --------------------------------------------------------------------------- waiting for a turn

HOLDER = textwrap.dedent(
    """
    import sys, time
    import duckdb
    con = duckdb.connect(sys.argv[1], read_only=sys.argv[3:] != ["write"])
    print("open", flush=True)
    time.sleep(float(sys.argv[2]))
    con.close()
    print("closed", flush=True)
    time.sleep(60)
    """
)


@pytest.fixture
def dashboard_like(tmp_path: Path) -> Iterator[Any]:
    """Starts a process that holds an archive open read-only, as the dashboard does, named like
    the dashboard's server (``streamlit_app.py``), and lets go after ``seconds``."""
    script = tmp_path / "streamlit_app.py"
    script.write_text(HOLDER)
    started: list[subprocess.Popen[str]] = []

    def start(path: Path, seconds: float, *, write: bool = False) -> subprocess.Popen[str]:
        process = subprocess.Popen(
            [sys.executable, str(script), str(path), str(seconds), *(["write"] if write else [])],
            stdout=subprocess.PIPE,
            text=True,
        )
        started.append(process)
        assert process.stdout is not None and process.stdout.readline().strip() == "open"
        return process

    yield start
    for process in started:
        process.kill()
        process.wait()


def test_analyze_waits_for_the_dashboard_then_stores(tmp_path: Path, dashboard_like: Any) -> None:
    path = archive(tmp_path / "club.duckdb", (5, 2, None))
    holder = dashboard_like(path, 2.0)
    code, out, err = run("analyze", "--db", str(path), "--depth", "heuristic", "--wait", "60")
    assert code == 0, err
    assert f"the dashboard (process {holder.pid}) has the archive" in err and "waiting for it" in err
    assert "analysed 1 match (2 deals)" in out
    assert rows(path, "SELECT analysis_depth FROM matches") == [("heuristic",)]


def test_sql_and_export_wait_while_the_dashboards_review_writes(tmp_path: Path, dashboard_like: Any) -> None:
    """A query beside the dashboard failed now and then, while its review stored a match, with
    advice to close the dashboard: a reading command waits its turn as the others do."""
    path = archive(tmp_path / "club.duckdb", (5, 1, None))
    for command in (
        ["sql", "SELECT count(*) AS n FROM matches", "--format", "csv"],
        ["export", "--records", "-"],
    ):
        holder = dashboard_like(path, 2.0, write=True)
        code, out, err = run(*command, "--db", str(path), "--wait", "60")
        assert code == 0, err
        assert f"the dashboard (process {holder.pid}) has the archive" in err and "waiting for it" in err
        assert out.strip() and "Traceback" not in err
    holder = dashboard_like(path, 120.0, write=True)
    code, _, err = run("sql", "SELECT 1", "--db", str(path), "--wait", "0")
    assert code == 1 and "in use by process" in err


def test_analyze_gives_up_after_wait_with_a_clear_message(tmp_path: Path, dashboard_like: Any) -> None:
    path = archive(tmp_path / "club.duckdb", (5, 1, None))
    holder = dashboard_like(path, 120.0)
    code, _, err = run("analyze", "--db", str(path), "--depth", "heuristic", "--wait", "1")
    assert code == 1
    assert f"the dashboard (process {holder.pid}) still has the archive" in err
    assert "after 1 s" in err and "--wait SECONDS" in err and "Traceback" not in err
    with pytest.raises(ArchiveLockedError, match="in use by process"):
        Store.open_in_turn(path, wait=0)


def test_findings_read_beside_the_dashboard(tmp_path: Path, dashboard_like: Any) -> None:
    path = archive(tmp_path / "club.duckdb", (5, 1, None))
    assert run("analyze", "--db", str(path), "--depth", "heuristic")[0] == 0
    dashboard_like(path, 120.0)
    code, _, err = run("findings", "--db", str(path), "--top", "3", "--wait", "0")
    assert code == 0, err


def test_the_solver_works_with_the_archive_closed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The write turn is held only while storing (and reading the next match): the first match
    is read, the archive closed, solved, and each one stored in a turn of its own, which reads
    the next."""
    from manillen_replay.analysis import deal_analysis
    from manillen_replay.store.analyse import analyse_archive_in_turns

    path = archive(tmp_path / "club.duckdb", (5, 1, None), (6, 1, None))
    events: list[str] = []
    open_now = [0]
    real = deal_analysis.analyse_match

    class Counted:
        def __init__(self, read_only: bool) -> None:
            self.store = Store(path, read_only=read_only)
            events.append("read" if read_only else "write")
            open_now[0] += 1

        def __enter__(self) -> Store:
            return self.store

        def __exit__(self, *exc: object) -> None:
            self.store.close()
            open_now[0] -= 1

    def solve(result: Any, record: Any, **options: Any) -> Any:
        events.append("solve" if open_now[0] == 0 else "solve with the archive open")
        return real(result, record, **options)

    monkeypatch.setattr(deal_analysis, "analyse_match", solve)
    outcome = analyse_archive_in_turns(Counted, ["random-5", "random-6"], depth="solver", samples=2)
    assert outcome.matches == 2 and outcome.solved == 2 and not outcome.problems
    assert events == ["read", "read", "solve", "write", "solve", "write"]
    assert rows(path, "SELECT count(DISTINCT match_id) FROM play_costs") == [(2,)]


# --------------------------------------------------------------------------- the warm-up


def test_the_warm_up_mark_says_whether_this_solver_is_compiled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`make setup` runs the warm-up only when the mark of this solver's files is missing."""
    from manillen_replay.solver import _jit

    monkeypatch.setattr(_jit, "CACHE_DIR", tmp_path / "solver-x")
    assert _jit.main(["check"]) == 1 and not _jit.is_warm()
    assert _jit.main(["mark"]) == 0 and _jit.main(["check"]) == 0
    mark = _jit.warm_mark()
    assert mark.parent == tmp_path / "solver-x" and mark.name.startswith(_jit.WARM_MARK)
    mark.write_text("an older solver\n")
    assert _jit.main(["check"]) == 1
    # numba files compiled code under each source file's own path: another clone (or worktree)
    # of the same solver shares the cache folder, not the code, so its mark says nothing here
    mark.unlink()
    here = _jit.__file__
    another = tmp_path / "another-clone" / "manillen_replay" / "solver"
    another.mkdir(parents=True)
    monkeypatch.setattr(_jit, "__file__", str(another / "_jit.py"))
    assert _jit.main(["mark"]) == 0 and _jit.main(["check"]) == 0
    monkeypatch.setattr(_jit, "__file__", here)
    assert _jit.warm_mark() == mark and not mark.exists()
    assert _jit.main(["check"]) == 1
    assert _jit.main(["nonsense"]) == 2
    makefile = (Path(__file__).resolve().parent.parent / "Makefile").read_text()
    assert "$(JIT) check || $(MAKE) --no-print-directory warm" in makefile
    assert "$(BIN)/manillen findings data/samples/seed-trick.json" in makefile


# --------------------------------------------------------------------------- the report


def test_report_of_a_scoresheet_only_match_announces_no_solver_review(tmp_path: Path) -> None:
    """A helper's `report` of a scoresheet-only match said "reviewing match ... with the solver
    first (12 deals ...)" where the solver had no cards to review: no deal with its hands, no line."""
    from manillen_replay.store import Store

    db = tmp_path / "sheet.duckdb"
    with Store(db) as store:
        store.import_paths([Path(__file__).resolve().parent.parent / "data" / "samples" / "scoresheet.json"])
        (match_id,) = store.query("SELECT match_id FROM matches")["match_id"].to_list()
        assert store.deal_counts_by_variant([match_id]) == {}
    code, _, err = run("report", "--db", str(db), "--match", match_id, "--out", str(tmp_path / "r.html"))
    assert code == 0, err
    assert "reviewing" not in err and "solving" not in err


def test_report_progress_counts_a_redeal_in_its_total(tmp_path: Path) -> None:
    """The café sample's redeal has no cards: the report announced 4 deals and counted
    "solving: 5/4 deals". The announcement counts the deals with cards, the progress every deal."""
    from manillen_replay.store import Store

    db = tmp_path / "cafe.duckdb"
    with Store(db) as store:
        store.import_paths([Path(__file__).resolve().parent.parent / "data" / "samples" / "cafe-rules.json"])
    out = tmp_path / "r.html"
    code, _, err = run(
        "report", "--db", str(db), "--match", "cafe-rules", "--samples", "2", "--out", str(out)
    )
    assert code == 0, err
    assert "reviewing match cafe-rules with the solver first (4 deals" in err
    done = [line.split()[1] for line in err.splitlines() if line.startswith("solving: ")]
    assert done and done[-1] == "5/5" and all(int(d.split("/")[0]) <= 5 for d in done)


def test_report_reviews_a_match_the_solver_has_not_reviewed(tmp_path: Path) -> None:
    path = archive(tmp_path / "club.duckdb", (5, 2, None))
    out = tmp_path / "r.html"
    code, _, err = run(
        "report", "--db", str(path), "--match", "random-5", "--samples", "2", "--out", str(out)
    )
    assert code == 0, err
    assert "reviewing match random-5 with the solver first (2 deals" in err and "solving: 2/2 deals" in err
    assert rows(path, "SELECT analysis_depth FROM matches") == [("solver",)]
    assert "manillen analyze --depth solver" not in out.read_text(encoding="utf-8")  # costed
    code, _, err = run("report", "--db", str(path), "--match", "random-5", "--out", str(out))
    assert code == 0 and "solving" not in err  # reviewed once
    code, _, err = run(
        "report", "--db", str(path), "--match", "random-5", "--player", "Zoe", "--out", str(out)
    )
    assert code == 2 and "'Zoe' did not play" in err


@pytest.mark.parametrize("command", ["report", "analyze"])
def test_an_archive_that_cannot_be_written_is_said_before_the_review_not_after(
    command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read-only archive (a file system mounted so, a file made immutable): the review's minutes
    would be lost when it comes to store them, so the command says so before it begins."""
    import manillen_replay.store.analyse as analyse
    import manillen_replay.store.core as core

    path = archive(tmp_path / "club.duckdb", (5, 2, None))
    real_open = core.os.open

    def read_only(file: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if Path(file) == path and flags & (core.os.O_RDWR | core.os.O_WRONLY):
            raise PermissionError(1, "Operation not permitted")
        return real_open(file, flags, *args, **kwargs)

    def no_review(*_: Any, **__: Any) -> None:
        raise AssertionError("the review began")

    monkeypatch.setattr(core.os, "open", read_only)
    monkeypatch.setattr(analyse, "analyse_archive_in_turns", no_review)
    arguments = ["--db", str(path), "--match", "random-5", "--samples", "2"]
    code, _, err = run(
        command, *arguments, *(["--out", str(tmp_path / "r.html")] if command == "report" else [])
    )
    what = "the solver's review" if command == "report" else "the analysis"
    assert code == 1 and "Traceback" not in err
    assert (
        f"Error: cannot store {what} in the archive {str(path)!r}: "
        "it cannot be written (Operation not permitted)" in err
    )
    assert not (tmp_path / "r.html").exists()


def test_a_player_who_played_no_deal_there_is_a_usage_error_not_a_clean_sheet(tmp_path: Path) -> None:
    """findings (archive and files) and puzzles name who did play, exit 2, as report does."""
    path = archive(tmp_path / "club.duckdb", (5, 1, None))
    other = json.loads(dumps(random_record(6, 1), pretty=False))
    other["match"]["seats"][0] = "Emiel"  # who played in the archive, not in random-5
    (tmp_path / "other.json").write_text(json.dumps(other), encoding="utf-8")
    with Store(path) as store:
        store.import_paths([tmp_path / "other.json"])
    played = "SELECT DISTINCT player FROM player_deals WHERE match_id = 'random-5'"
    players = sorted(row[0] for row in rows(path, played))
    assert "Emiel" not in players
    names = ", ".join(sorted(players, key=str.lower))
    code, out, err = run("findings", "--db", str(path), "--player", "Zoe")
    assert code == 2 and out == ""
    assert "Invalid value for --player: 'Zoe' played no deal in the archive" in err
    code, _, err = run("findings", "--db", str(path), "--player", "emiel", "--match", "random-5")
    assert code == 2 and f"'emiel' played no deal in match random-5 (players: {names})" in err
    code, _, err = run("puzzles", "--db", str(path), "--player", "Emiel", "--match", "random-5")
    assert code == 2 and f"'Emiel' played no deal in match random-5 (players: {names})" in err
    record = tmp_path / "five.json"
    with Store(path, read_only=True) as store:
        record.write_text(store.query("SELECT record FROM matches WHERE match_id = 'random-5'").item())
    code, _, err = run("findings", str(record), "--player", "zoe", "--depth", "heuristic")
    assert code == 2 and f"'zoe' played no deal in these records (players: {names})" in err
    code, out, _ = run(
        "findings", str(record), "--player", f"  {players[0].upper()} ", "--depth", "heuristic"
    )
    assert code == 0  # any case, and the spaces around a name pasted are no part of it
    code, _, err = run("puzzles", "--db", str(path), "--player", "Zoe")
    assert code == 2 and "'Zoe' played no deal in the archive" in err


@pytest.mark.solver
def test_the_findings_guides_top_3_example_prints_what_the_guide_shows() -> None:
    """The guide quotes the command's output: each quoted line (up to its "...") is printed."""
    root = Path(__file__).resolve().parent.parent
    guide = (root / "docs" / "findings.md").read_text(encoding="utf-8")
    quoted = guide.split("```\nThe 2 costliest decisions:\n", 1)[1].split("```", 1)[0].splitlines()
    code, out, err = run("findings", str(root / "data" / "samples" / "seed-trick.json"), "--top", "3")
    assert code == 0, err
    assert out.startswith("The 2 costliest decisions:\n")
    for line in quoted:
        assert line.removesuffix(" ...") in out, line


def test_report_to_a_missing_folder_is_refused_before_the_review(tmp_path: Path) -> None:
    path = archive(tmp_path / "club.duckdb", (5, 2, None))
    out = tmp_path / "nowhere" / "r.html"
    code, _, err = run("report", "--db", str(path), "--match", "random-5", "--out", str(out))
    assert code == 2 and f"there is no folder {str(out.parent)!r} to write it in" in err
    assert "solving" not in err and rows(path, "SELECT count(*) FROM play_costs") == [(0,)]


def test_report_to_standard_output_with_a_dash(tmp_path: Path) -> None:
    path = archive(tmp_path / "club.duckdb", (7, 1, None))
    with contextlib.chdir(tmp_path):
        code, out, err = run(
            "report", "--db", str(path), "--match", "random-7", "--samples", "1", "--out", "-"
        )
        assert not (tmp_path / "-").exists()
    assert code == 0, err
    assert out.startswith("<!DOCTYPE html>") and out.rstrip().endswith("</html>")


def test_report_at_the_default_layouts_says_how_long_the_solver_review_takes(tmp_path: Path) -> None:
    path = archive(tmp_path / "club.duckdb", (6, 1, None))
    code, _, err = run("report", "--db", str(path), "--match", "random-6", "--out", str(tmp_path / "r.html"))
    assert code == 0, err
    assert "reviewing match random-6 with the solver first (1 deal, 50 layouts a play, about 1 s)" in err


class _Turns:
    """Opens the archive as ``manillen analyze`` does, noting each turn (``read`` or ``write``)
    in ``events`` and whether it is open (``open_now``)."""

    events: list[str]
    open_now: list[int]
    path: Path

    def __init__(self, read_only: bool) -> None:
        self.store = Store(self.path, read_only=read_only)
        self.events.append("read" if read_only else "write")
        self.open_now[0] += 1

    def __enter__(self) -> Store:
        return self.store

    def __exit__(self, *exc: object) -> None:
        self.store.close()
        self.open_now[0] -= 1


def _turns(path: Path) -> type[_Turns]:
    return type("Turns", (_Turns,), {"events": [], "open_now": [0], "path": path})


def test_the_scan_analyses_each_chunk_with_the_archive_closed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without the solver too, each chunk is analysed with the archive closed (a dashboard or
    another command gets its turn between two chunks) and stored in a turn to write, which
    reads the next chunk: one turn a chunk, the first chunk read in a read-only one."""
    from manillen_replay.store import analyse as scan

    path = archive(tmp_path / "club.duckdb", (5, 1, None), (6, 1, None), (7, 1, None))
    monkeypatch.setattr(scan, "CHUNK", 1)
    monkeypatch.setattr(scan, "CHUNK_MOST", 1)
    turns = _turns(path)
    real = scan._analyse_chunk

    def analyse_chunk(records: Any, chunk: Any, **options: Any) -> Any:
        turns.events.append("analyse " + ",".join(chunk) + (" with the archive open" * turns.open_now[0]))
        return real(records, chunk, **options)

    monkeypatch.setattr(scan, "_analyse_chunk", analyse_chunk)
    ids = ["random-5", "random-6", "random-7"]
    outcome = scan.analyse_archive_in_turns(turns, ids, depth="heuristic")
    assert outcome.matches == 3 and outcome.deals == 3 and not outcome.problems
    assert turns.events == [
        "read",
        "analyse random-5",
        "write",
        "analyse random-6",
        "write",
        "analyse random-7",
        "write",
    ]
    assert rows(path, "SELECT count(*) FROM matches WHERE analysed_at IS NOT NULL") == [(3,)]


def test_the_scans_chunks_grow_until_one_takes_its_turns_seconds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A chunk analysed faster than TURN_SECONDS is followed by a bigger one (up to CHUNK_MOST):
    fewer turns to write, each of which checkpoints the archive when it closes."""
    from manillen_replay.store import analyse as scan

    path = archive(tmp_path / "club.duckdb", *[(seed, 1, None) for seed in range(10, 17)])
    monkeypatch.setattr(scan, "CHUNK", 1)
    monkeypatch.setattr(scan, "CHUNK_MOST", 4)
    monkeypatch.setattr(scan, "TURN_SECONDS", 3600.0)  # every chunk is fast
    turns = _turns(path)
    sizes: list[int] = []
    real = scan._analyse_chunk

    def analyse_chunk(records: Any, chunk: Any, **options: Any) -> Any:
        sizes.append(len(chunk))
        return real(records, chunk, **options)

    monkeypatch.setattr(scan, "_analyse_chunk", analyse_chunk)
    ids = [f"random-{seed}" for seed in range(10, 17)]
    outcome = scan.analyse_archive_in_turns(turns, ids, depth="heuristic")
    assert outcome.matches == 7 and not outcome.problems
    assert sizes == [1, 4, 2]
    assert turns.events == ["read", "write", "write", "write"]
    assert rows(path, "SELECT count(*) FROM matches WHERE analysed_at IS NOT NULL") == [(7,)]


def test_the_scan_stores_the_same_findings_whatever_its_chunks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The findings table after a scan a piece (CHUNK matches) a turn is the one after a scan
    whose chunks grew to several pieces, row for row, finding ids included: each piece's
    findings are stored in the order its records are stored, the pieces in the order asked
    for (here the newest first, as `manillen analyze` asks, not the order of import)."""
    from manillen_replay.store import analyse as scan

    matches = [(seed, 4, None) for seed in range(20, 29)]
    ids = [f"random-{seed}" for seed in reversed(range(20, 29))]
    monkeypatch.setattr(scan, "CHUNK", 2)
    monkeypatch.setattr(scan, "TURN_SECONDS", 3600.0)  # every chunk is fast: they grow
    tables, turns_taken = [], []
    for name, most in (("pieces.duckdb", 2), ("grown.duckdb", 8)):
        path = archive(tmp_path / name, *matches)
        monkeypatch.setattr(scan, "CHUNK_MOST", most)
        turns = _turns(path)
        outcome = scan.analyse_archive_in_turns(turns, ids, depth="heuristic")
        assert outcome.matches == 9 and not outcome.problems
        tables.append(rows(path, "SELECT * FROM findings ORDER BY finding_id"))
        turns_taken.append(turns.events.count("write"))
    assert turns_taken == [5, 2]  # 2+2+2+2+1 matches, then 2+7 (the last chunk what is left)
    assert tables[0] and tables[0] == tables[1]


def test_the_scan_names_a_stored_record_that_no_longer_reads_and_stores_the_others(tmp_path: Path) -> None:
    """A record changed in the archive by hand so that it no longer reads is named, with its
    place; the matches of its chunk beside it are analysed and stored (the scan reads a chunk's
    records together: one that does not read must not stop the others). It is left unmarked and
    counted as not analysed, so that the next run tries it again."""
    from manillen_replay.store import analyse as scan

    path = archive(tmp_path / "club.duckdb", (5, 2, None), (6, 2, None), (7, 2, None))
    with Store(path) as store:
        store.query("""UPDATE matches SET record = '{"match": {"seats": 3}}' WHERE match_id = 'random-6'""")
    ids = ["random-5", "random-6", "random-7"]
    outcome = scan.analyse_archive_in_turns(_turns(path), ids, depth="heuristic")
    (problem,) = outcome.problems
    assert problem.startswith("match 'random-6' was not analysed: its stored record no longer reads (")
    assert "archive match random-6" in problem
    assert outcome.deals == 4 and (outcome.analysed, outcome.unanalysed) == (2, 1)
    analysed = rows(path, "SELECT match_id, analysis_depth FROM matches WHERE analysed_at IS NOT NULL")
    assert set(analysed) == {("random-5", "heuristic"), ("random-7", "heuristic")}
    with Store(path, read_only=True) as store:
        assert scan.match_ids_to_analyse(store) == ["random-6"]


@pytest.mark.parametrize("depth", ["heuristic", pytest.param("solver", marks=pytest.mark.solver)])
def test_a_match_changed_while_it_was_solved_is_not_stored_over(tmp_path: Path, depth: str) -> None:
    """The dashboard's Record page may add a deal to a match while the CLI solves it with the
    archive closed: the older match's results must not overwrite the newer match, and the
    command's counts leave it out ("costs of 20 deals stored" were none)."""
    from manillen_replay.store.analyse import analyse_archive_in_turns

    path = archive(tmp_path / "club.duckdb", (5, 1, None), (6, 1, None))

    class ChangesOnWrite:
        def __init__(self, read_only: bool) -> None:
            self.store = Store(path, read_only=read_only)
            if not read_only:  # the dashboard got its turn first and changed random-6
                self.store.query("UPDATE matches SET record = record || ' ' WHERE match_id = 'random-6'")

        def __enter__(self) -> Store:
            return self.store

        def __exit__(self, *exc: object) -> None:
            self.store.close()

    outcome = analyse_archive_in_turns(ChangesOnWrite, ["random-5", "random-6"], depth=depth, samples=1)
    assert [p for p in outcome.problems if "changed in the archive" in p] == [
        "match 'random-6' changed in the archive while it was being analysed: it was not stored; "
        "run the same command again to analyse it as it is now"
    ]
    assert rows(path, "SELECT match_id FROM matches WHERE analysed_at IS NOT NULL") == [("random-5",)]
    assert (outcome.analysed, outcome.deals) == (1, 1)  # random-5's one deal, not random-6's
    costed = rows(path, "SELECT count(DISTINCT (match_id, deal)) FROM play_costs")[0][0]
    assert outcome.solved == costed == (1 if depth == "solver" else 0)


@pytest.mark.parametrize(
    ("command", "option"),
    [
        (["report", "--match", "random-5", "--samples", "1", "--out"], "--out"),
        (["puzzles", "--player", "Anna", "--html"], "--html"),
        (["puzzles", "--player", "Anna", "--out"], "--out"),
        (["sql", "SELECT * FROM matches", "--out"], "--out"),
        (["sql", "SELECT * FROM matches", "--format", "csv", "--out"], "--out"),
        (["export", "--overwrite", "--records"], "--records"),
    ],
)
def test_an_output_that_is_the_archive_is_refused_and_the_archive_kept(
    tmp_path: Path, command: list[str], option: str
) -> None:
    """`--out club.duckdb` (the archive read, or any archive) wrote the report, the puzzles, the
    query's result or the records over it, said "wrote", and exited 0: every match was lost."""
    path = archive(tmp_path / "club.duckdb", (5, 2, None))
    before = path.read_bytes()
    code, out, err = run(*command[:1], "--db", str(path), *command[1:], str(path))
    assert code == 2, (out, err)
    assert f"Invalid value for {option}: {str(path)!r} is an archive (a DuckDB file)" in err
    assert "wrote" not in out + err and "solving" not in err
    assert path.read_bytes() == before and rows(path, "SELECT count(*) FROM deals") == [(2,)]


def test_convert_and_generate_never_write_over_an_archive(tmp_path: Path) -> None:
    path = archive(tmp_path / "club.duckdb", (5, 2, None))
    before = path.read_bytes()
    sample = Path(__file__).resolve().parent.parent / "data" / "samples" / "seed-trick.json"
    code, _, err = run("convert", str(sample), str(path))
    assert code == 2 and "Invalid value for OUT: " in err and "is an archive (a DuckDB file)" in err
    code, _, err = run("generate", "--matches", "1", "--out", str(path))
    assert code == 2 and "Invalid value for --out: " in err and "is an archive (a DuckDB file)" in err
    assert path.read_bytes() == before


def test_matches_a_line_go_only_to_a_file_read_back_as_json_lines(tmp_path: Path) -> None:
    """`export --records backup.json` and `generate --out three.json` wrote JSON Lines under a
    name every reader takes for one JSON document: the backup could not be read back."""
    path = archive(tmp_path / "club.duckdb", (5, 2, None), (6, 1, None))
    for name in ("backup.json", "backup.mnl", "backup.txt"):
        code, _, err = run("export", "--db", str(path), "--records", str(tmp_path / name))
        assert code == 2 and "this writes JSON Lines (one match a line): name it backup.jsonl" in err, err
        assert not (tmp_path / name).exists()
    code, _, err = run("generate", "--matches", "3", "--out", str(tmp_path / "three.json"))
    assert code == 2 and "name it three.jsonl" in err
    code, _, err = run("export", "--db", str(path), "--records", str(tmp_path))
    assert code == 2 and "is a folder: give a file to write" in err
    # what is written under a right name reads back whole
    code, _, err = run("export", "--db", str(path), "--records", str(tmp_path / "backup.jsonl"))
    assert code == 0, err
    code, out, _ = run("validate", str(tmp_path / "backup.jsonl"))
    assert code == 0 and out.count(": ok, match random-") == 2
    code, _, err = run("generate", "--matches", "1", "--out", str(tmp_path / "one.json"))
    assert code == 0, err  # one match is one JSON document
    assert run("validate", str(tmp_path / "one.json"))[0] == 0


def test_a_kind_no_finding_has_is_refused_for_files_and_said_for_an_archive(tmp_path: Path) -> None:
    """`findings --kind nonsense` printed "0 findings", exit 0."""
    sample = str(Path(__file__).resolve().parent.parent / "data" / "samples" / "illegal-plays.json")
    code, out, err = run("findings", sample, "--kind", "revok", "--depth", "heuristic")
    assert code == 2 and "Invalid value for --kind: no finding is of the kind 'revok': the kinds are " in err
    assert "revoke" in err and "0 findings" not in out
    code, out, _ = run("findings", sample, "--kind", "revoke", "--depth", "heuristic")
    assert code == 0 and "revoke" in out
    # an archive's kinds may be a coach detector's, known once it found something: a kind no
    # finding has is said beside the clean sheet
    path = archive(tmp_path / "club.duckdb", (5, 2, None))
    code, out, err = run("findings", "--db", str(path), "--kind", "nonsense")
    assert code == 0 and "note: no finding is of the kind 'nonsense': the kinds are " in err
    code, out, err = run("findings", "--db", str(path), "--kind", "revoke")
    assert code == 0 and "note:" not in err


def test_the_fast_scans_advice_fits_the_options_given(tmp_path: Path) -> None:
    """`analyze --since 2026-08-15 --samples 10` was advised to give --since, and its --samples
    went without a word."""
    matches = [(seed, 8, f"2026-08-{10 + seed:02d}") for seed in range(1, 11)]
    path = archive(tmp_path / "club.duckdb", *matches)
    code, _, err = run("analyze", "--db", str(path), "--since", "2026-08-12", "--samples", "10", "-q")
    assert code == 0, err
    assert "so the fast scan (heuristic depth) ran" in err
    assert "give --depth solver, or a later --since DATE, or --match ID" in err
    assert "; --samples is the solver review's, and the fast scan takes none" in err
    code, _, err = run("analyze", "--db", str(path), "--all", "-q")
    assert "give --depth solver, or choose matches with --match ID or --since DATE" in err
    assert "--samples" not in err


def test_a_report_replaces_an_earlier_one_only_once_written_whole(tmp_path: Path) -> None:
    """Written straight into the file, a failed write (a full disk, a Ctrl-C) left half a report
    where the earlier one was: the new one is written beside it and renamed in (a new file)."""
    path = archive(tmp_path / "club.duckdb", (5, 2, None))
    out = tmp_path / "r.html"
    out.write_text("the earlier report", encoding="utf-8")
    before = out.stat().st_ino
    code, _, err = run(
        "report", "--db", str(path), "--match", "random-5", "--samples", "1", "--out", str(out)
    )
    assert code == 0, err
    assert out.stat().st_ino != before and out.read_text(encoding="utf-8").startswith("<!")
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".partial")] == []
