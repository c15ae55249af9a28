"""`manillen analyze` and `manillen findings` through click's test runner, on files and archives."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from manillen_replay.analysis import Severity, analyse_record
from manillen_replay.cli import cli
from manillen_replay.record import Entry, dump_lines, dumps
from manillen_replay.store import Store

from .factories import random_record
from .test_analysis import BASE, CONTRACT, play_out, record

DETECTORS = Path(__file__).resolve().parent.parent / "docs" / "detectors"


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), env=env)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def build_archive(path: Path, matches: int = 12) -> None:
    entries = [
        Entry("gen.jsonl", i + 1, dumps(random_record(100 + i, 10), pretty=False).encode())
        for i in range(matches)
    ]
    with Store(path) as store:
        summary = store.import_entries(entries)
    assert summary.imported == matches


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("archive") / "club.duckdb"
    build_archive(path)
    code, out, _ = run("analyze", "--db", str(path))
    assert code == 0 and "analysed 12 matches (120 deals)" in out
    return path


@pytest.fixture
def vetten_file(tmp_path: Path) -> Path:
    path = tmp_path / "vetten.jsonl"
    path.write_text(dump_lines([record(BASE, ["7C 10C 8C 7S", "JH AH KH 7H"]), random_record(7, 6)]))
    return path


def test_findings_on_a_file_need_no_archive(vetten_file: Path, tmp_path: Path) -> None:
    code, out, err = run(
        "findings",
        str(vetten_file),
        "--depth",
        "heuristic",
        env={"MANILLEN_DB": str(tmp_path / "none.duckdb")},
    )
    assert code == 0
    assert "missed_vetten" in out and "Bert played 7♠ on Dirk's winning 10♣ in trick 1" in out
    assert not (tmp_path / "none.duckdb").exists()
    assert "findings" in err


def test_a_hindsight_only_note_s_figure_says_it_is_with_every_hand_known(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A coach's re-check: "info hindsight_only (11 points)" read as a cost beside words saying
    the card cost 0 from what the player could see. The list says which figure it is."""
    from manillen_replay.cli.analysis import _echo_text

    note = {"match": "m", "deal": 3, "trick": 1, "play": 3, "player": "Anna", "severity": "info",
            "kind": "hindsight_only", "points": 13.0, "explanation": "Only hindsight."}  # fmt: skip
    _echo_text([note, {**note, "kind": "costly_card", "points": 4.0}])
    out = capsys.readouterr().out
    assert "Anna: info hindsight_only (13 points with every hand known)" in out
    assert "Anna: info costly_card (4 points)\n" in out
    _echo_text([note], "nl")
    assert "(13 punten met alle kaarten open)" in capsys.readouterr().out


def test_findings_json_contract_and_dutch(vetten_file: Path) -> None:
    code, out, _ = run(
        "findings", str(vetten_file), "--depth", "heuristic", "--json", "--lang", "nl", "--match", "test"
    )
    assert code == 0
    (finding,) = json.loads(out)["findings"]
    assert set(finding) >= CONTRACT
    assert (finding["deal"], finding["trick"], finding["play"], finding["seat"]) == (1, 1, 4, 1)
    assert finding["better"] == ["KH"] and finding["card"] == "7S" and finding["points"] == 3
    assert finding["explanation"].startswith("Bert speelde de schoppen zeven")


def test_findings_filters_on_files(vetten_file: Path) -> None:
    everything = json.loads(run("findings", str(vetten_file), "--depth", "heuristic", "--json")[1])[
        "findings"
    ]
    assert len(everything) > 1
    name = everything[-1]["player"]
    mine = json.loads(
        run("findings", str(vetten_file), "--depth", "heuristic", "--json", "--player", name.lower())[1]
    )["findings"]
    assert mine == [f for f in everything if f["player"] == name]
    serious = json.loads(
        run("findings", str(vetten_file), "--depth", "heuristic", "--json", "--min-severity", "mistake")[1]
    )["findings"]
    assert all(f["severity"] in ("mistake", "blunder") for f in serious)
    assert len(serious) < len(everything)
    kind = json.loads(
        run("findings", str(vetten_file), "--depth", "heuristic", "--json", "--kind", "missed_vetten")[1]
    )["findings"]
    assert kind and {f["kind"] for f in kind} == {"missed_vetten"}


def test_findings_on_an_invalid_file_says_where(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "manillen/2"}')
    code, _, err = run("findings", str(bad))
    assert code == 1 and "bad.json" in err and "Traceback" not in err


def test_analyze_stores_what_the_file_analysis_finds(archive: Path) -> None:
    with Store(archive, read_only=True) as store:
        stored = store.query("SELECT count(*) AS n FROM findings WHERE detector = 'builtin'")["n"][0]
        unanalysed = store.query("SELECT count(*) AS n FROM matches WHERE analysed_at IS NULL")["n"][0]
    expected = sum(len(analyse_record(random_record(100 + i, 10))) for i in range(12))
    assert stored == expected > 0 and unanalysed == 0


def test_analyze_again_only_does_new_matches_and_all_redoes(archive: Path) -> None:
    code, out, err = run("analyze", "--db", str(archive))
    assert code == 0 and "analysed 0 matches" in out
    assert "not reviewed by the solver yet" in err  # what is left to do without --depth
    # a second run asked for a depth that is done says so and how to do it again, not only "0 matches"
    code, out, err = run("analyze", "--db", str(archive), "--depth", "heuristic")
    assert code == 0 and "analysed 0 matches" in out
    assert "nothing new: every match is analysed at the heuristic depth already; add --all" in err
    code, _, err = run("analyze", "--db", str(archive), "--match", "random-100", "--depth", "rules")
    assert code == 0 and "nothing new: each match asked for is analysed" in err
    code, out, _ = run("analyze", "--db", str(archive), "--all")
    assert code == 0 and "analysed 12 matches" in out
    with Store(archive, read_only=True) as store:
        twice = store.query(
            "SELECT count(*) AS n FROM (SELECT match_id, deal, trick, play, kind FROM findings "
            "GROUP BY ALL HAVING count(*) > 1)"
        )["n"][0]
    assert twice == 0


def test_findings_from_the_archive_match_the_files(archive: Path) -> None:
    code, out, _ = run("findings", "--db", str(archive), "--json", "--player", "Bert")
    assert code == 0
    stored = json.loads(out)["findings"]
    from_files = [
        f.to_json()
        for i in range(12)
        for f in analyse_record(random_record(100 + i, 10))
        if f.player == "Bert"
    ]
    key = ("match", "deal", "trick", "play", "kind", "card", "better", "points", "explanation")
    assert sorted(tuple(str(f[k]) for k in key) for f in stored) == sorted(
        tuple(str(f[k]) for k in key) for f in from_files
    )
    assert stored and set(stored[0]) >= CONTRACT


def test_the_findings_list_leaves_the_notes_out_unless_asked(archive: Path) -> None:
    """A solver review's notes (86 of 102 on a sample match) buried the mistakes in the list; the
    dashboard's Mistakes page hides them until asked, and the list now does too."""
    code, out, _ = run("findings", "--db", str(archive), "--json")
    every = json.loads(out)["findings"]
    notes = sum(f["severity"] == "info" for f in every)
    assert code == 0 and notes and notes < len(every)
    code, out, err = run("findings", "--db", str(archive))
    assert code == 0 and " info " not in out
    assert out.count("\n    ") == len(every) - notes  # one explanation line a finding shown
    assert f"{len(every)} findings (" in err
    assert "the notes are not shown: --min-severity info lists them too" in err
    _, out, err = run("findings", "--db", str(archive), "--min-severity", "info")
    assert out.count(" info ") == notes and "not shown" not in err
    kind = next(f["kind"] for f in every if f["severity"] == "info")
    _, out, _ = run("findings", "--db", str(archive), "--kind", kind)
    assert " info " in out


def test_findings_default_archive_from_the_environment(archive: Path) -> None:
    code, out, _ = run("findings", "--kind", "missed_vetten", env={"MANILLEN_DB": str(archive)})
    assert code == 0 and "missed_vetten" in out


def test_findings_without_an_archive_is_a_clear_message(tmp_path: Path) -> None:
    code, _, err = run("findings", "--db", str(tmp_path / "missing.duckdb"))
    assert code == 2 and "no archive" in err and "manillen import" in err


def test_findings_say_when_matches_are_not_analysed_yet(tmp_path: Path) -> None:
    path = tmp_path / "new.duckdb"
    build_archive(path, matches=2)
    code, out, err = run("findings", "--db", str(path))
    assert code == 0 and out == ""
    assert err.splitlines() == [
        "2 matches in the archive are not analysed yet: run `manillen analyze`",
        "0 findings",
    ]
    assert run("analyze", "--db", str(path), "--depth", "heuristic")[0] == 0
    code, _, err = run("findings", "--db", str(path))
    assert code == 0 and "not analysed yet" not in err


def test_files_and_db_together_are_refused(archive: Path, vetten_file: Path) -> None:
    code, _, err = run("findings", str(vetten_file), "--depth", "heuristic", "--db", str(archive))
    assert code == 2 and "not both" in err


@pytest.mark.parametrize("name", ["trump_into_void", "manille_under_trump"])
def test_shipped_coach_detectors_run_and_show_everywhere(archive: Path, name: str) -> None:
    detector = str(DETECTORS / f"{name}.sql")
    code, out, _ = run("analyze", "--db", str(archive), "--detectors", detector)
    assert code == 0 and f"coach detector {name}:" in out
    count = int(out.split(f"coach detector {name}: ")[1].split()[0])
    with Store(archive, read_only=True) as store:
        rows = store.query(f"SELECT * FROM findings WHERE kind = '{name}'")
    assert rows.height == count
    assert set(rows["detector"].to_list()) <= {name}
    listed = json.loads(run("findings", "--db", str(archive), "--kind", name, "--json")[1])["findings"]
    assert len(listed) == count
    for finding in listed:
        assert finding["trick"] is not None and 1 <= finding["play"] <= 4
        assert finding["player"] and "{" not in finding["explanation"]
    # Running it again replaces its findings instead of adding to them.
    run("analyze", "--db", str(archive), "--detectors", detector)
    with Store(archive, read_only=True) as store:
        assert store.query(f"SELECT count(*) AS n FROM findings WHERE kind = '{name}'")["n"][0] == count


def test_manille_under_trump_finds_the_planted_case(tmp_path: Path) -> None:
    """Bert buys Anna's AC with 7D; Carla, void in clubs, throws 10S under it with other cards to spare."""
    hands = [
        "AC KC QC JC 9C 8C 7C AH",
        "10D AD KD QD JD 9D 8D 7D",
        "10S 9S 8S 7S KH QH JH 9H",
        "10C AS KS QS JS 10H 8H 7H",
    ]
    planted = record(hands, ["AC 7D 10S 10C"], dealer=3)
    path = tmp_path / "planted.duckdb"
    with Store(path) as store:
        store.import_entries([Entry("planted.json", None, dumps(planted, pretty=False).encode())])
    code, out, _ = run(
        "analyze", "--db", str(path), "--detectors", str(DETECTORS / "manille_under_trump.sql")
    )
    assert code == 0 and "coach detector manille_under_trump: 1 finding" in out
    (finding,) = json.loads(run("findings", "--db", str(path), "--kind", "manille_under_trump", "--json")[1])[
        "findings"
    ]
    assert (finding["player"], finding["card"], finding["trick"], finding["play"]) == ("Carla", "10S", 1, 3)
    assert "9S" in finding["better"] and finding["points"] == 5 and finding["severity"] == "blunder"


def test_a_bad_detector_is_a_clear_message(archive: Path, tmp_path: Path) -> None:
    missing_name = tmp_path / "x.sql"
    missing_name.write_text("SELECT 1")
    code, _, err = run("analyze", "--db", str(archive), "--detectors", str(missing_name))
    assert code == 1 and "name the detector" in err
    writes = tmp_path / "w.sql"
    writes.write_text("-- name: sneaky\nDELETE FROM findings")
    code, _, err = run("analyze", "--db", str(archive), "--detectors", str(writes))
    assert code == 1 and "Traceback" not in err and err.strip()
    columns = tmp_path / "c.sql"
    columns.write_text("-- name: short\nSELECT match_id FROM matches")
    code, _, err = run("analyze", "--db", str(archive), "--detectors", str(columns))
    assert code == 1 and "missing: deal, trick, play, seat" in err


def test_player_findings_view_counts_per_100_cards(archive: Path) -> None:
    with Store(archive, read_only=True) as store:
        view = store.query("SELECT * FROM player_findings WHERE kind = 'missed_vetten'")
        direct = store.query(
            "SELECT player, count(*) AS n FROM findings WHERE kind = 'missed_vetten' GROUP BY player"
        )
    assert view.height and int(view["findings"].sum()) == int(direct["n"].sum())
    assert all(0 < v <= 100 for v in view["per_100_cards"].to_list())


def test_every_command_has_help() -> None:
    for command in ("analyze", "findings"):
        code, out, _ = run(command, "--help")
        assert code == 0 and "Example" in out


# --------------------------------------------------------------------------- --depth


def small_archive(path: Path) -> Path:
    """One match of two deals: small enough to solve in a test."""
    entries = [Entry("gen.jsonl", 1, dumps(random_record(5, 2), pretty=False).encode())]
    with Store(path) as store:
        assert store.import_entries(entries).imported == 1
    return path


def stored(path: Path, sql: str) -> list[tuple[object, ...]]:
    with Store(path, read_only=True) as store:
        return store.query(sql).rows()


def test_depth_rules_stores_only_rule_scoring_and_procedure_findings(tmp_path: Path) -> None:
    path = tmp_path / "club.duckdb"
    build_archive(path, matches=6)
    code, _, _ = run("analyze", "--db", str(path), "--depth", "rules")
    assert code == 0
    assert stored(path, "SELECT DISTINCT analysis_depth FROM matches") == [("rules",)]
    rules = stored(path, "SELECT DISTINCT category FROM findings")
    assert ("strategy",) not in rules
    # a deeper analysis takes the matches again, without --all
    code, out, _ = run("analyze", "--db", str(path), "--depth", "heuristic")
    assert code == 0 and "analysed 6 matches" in out
    assert ("strategy",) in stored(path, "SELECT DISTINCT category FROM findings")
    assert stored(path, "SELECT DISTINCT analysis_depth FROM matches") == [("heuristic",)]
    code, out, _ = run("analyze", "--db", str(path), "--depth", "rules")
    assert code == 0 and "analysed 0 matches" in out


def test_analyze_of_an_archive_with_no_match_says_to_import_first(tmp_path: Path) -> None:
    path = tmp_path / "empty.duckdb"
    Store(path).close()  # made by `rules save` or the Record page, nothing imported yet
    code, out, err = run("analyze", "--db", str(path))
    assert code == 0 and "analysed 0 matches" in out
    assert "the archive holds no match yet: put some in with `manillen import FILE`" in err
    assert "nothing new" not in err


def test_depth_solver_stores_costs_and_solver_findings(tmp_path: Path) -> None:
    path = small_archive(tmp_path / "club.duckdb")
    code, out, _ = run("analyze", "--db", str(path), "--depth", "solver", "--samples", "3")
    assert code == 0, out
    assert (
        "analysed 1 match (2 deals)" in out
        and "solver: costs of 2 deals stored (up to 3 layouts drawn per play, "
        "every one where 12 or fewer are left)"
        in out
    )
    plays = stored(path, "SELECT count(*) FROM plays")[0][0]
    assert stored(path, "SELECT count(*) FROM play_costs")[0][0] == plays
    legal = stored(path, "SELECT sum(len(legal_cards)) FROM plays WHERE legal")[0][0]
    assert stored(path, "SELECT count(*) FROM card_values")[0][0] >= legal
    # a play is drawn 3 layouts, or solved on every one of the 12 or fewer left
    assert stored(path, "SELECT max(layouts) FROM play_costs WHERE NOT exact")[0][0] <= 3
    assert 3 < stored(path, "SELECT max(layouts) FROM play_costs WHERE exact")[0][0] <= 12
    assert stored(path, "SELECT analysis_depth FROM matches") == [("solver",)]
    kinds = {row[0] for row in stored(path, "SELECT DISTINCT kind FROM findings")}
    assert kinds & {"costly_card", "hindsight_only", "trump_choice", "knock_choice"}
    # every costly card is a view cost past the threshold, never a play a card finding explains
    costly = stored(
        path,
        "SELECT f.points / d.multiplier, c.view_cost FROM findings f "
        "JOIN play_costs c USING (match_id, deal, trick, play) JOIN deals d USING (match_id, deal) "
        "WHERE f.kind = 'costly_card'",
    )
    assert all(view >= 2 and abs(points - view) < 0.01 for points, view in costly)
    overlap = stored(
        path,
        "SELECT count(*) FROM findings a JOIN findings b USING (match_id, deal, trick, play) "
        "WHERE a.kind = 'costly_card' AND b.kind IN ('missed_vetten', 'bare_ace_lost', 'wasted_trump')",
    )
    assert overlap == [(0,)]
    accuracy = stored(path, "SELECT count(*) FROM player_accuracy WHERE scope = 'match'")
    assert accuracy == [(4,)]
    # solved matches are not solved again, but --all does
    code, out, _ = run("analyze", "--db", str(path), "--depth", "solver", "--samples", "3")
    assert code == 0 and "analysed 0 matches" in out
    code, out, _ = run("analyze", "--db", str(path))
    assert code == 0 and "analysed 0 matches" in out
    assert stored(path, "SELECT count(*) FROM play_costs")[0][0] == plays


def test_all_at_a_shallower_depth_keeps_a_solver_review(tmp_path: Path) -> None:
    """`--all --depth heuristic` replaced a solver-reviewed match's findings with the fast scan's
    and left its costs behind: `findings --top` then gave a solver cost a fast-scan severity."""
    path = small_archive(tmp_path / "club.duckdb")
    with Store(path) as store:
        other = random_record(6, 2)
        entry = Entry("gen.jsonl", 2, dumps(other, pretty=False).encode())
        assert store.import_entries([entry]).imported == 1
    code, _, err = run(
        "analyze", "--db", str(path), "--depth", "solver", "--samples", "2", "--match", "random-5"
    )
    assert code == 0, err
    run("analyze", "--db", str(path), "--depth", "heuristic")
    reviewed = "SELECT * EXCLUDE (finding_id) FROM findings WHERE match_id = 'random-5' ORDER BY ALL"
    before = stored(path, reviewed)
    costs = stored(path, "SELECT count(*) FROM play_costs")
    code, out, err = run("analyze", "--db", str(path), "--all", "--depth", "heuristic")
    assert code == 0 and "analysed 1 match (2 deals) at the heuristic depth" in out  # the other one
    assert "left 1 match analysed deeper than the heuristic depth as it was" in err
    assert "`--all --depth solver` analyses it again" in err
    assert stored(path, reviewed) == before and stored(path, "SELECT count(*) FROM play_costs") == costs
    assert stored(path, "SELECT match_id, analysis_depth FROM matches ORDER BY 1") == [
        ("random-5", "solver"),
        ("random-6", "heuristic"),
    ]
    code, out, err = run("analyze", "--db", str(path), "--all", "--depth", "rules", "--match", "random-5")
    assert code == 0 and "analysed 0 matches" in out
    assert "`--all` with the depth it was analysed at analyses it again" in err and "nothing new" not in err


def test_depth_and_samples_are_checked(tmp_path: Path) -> None:
    path = small_archive(tmp_path / "club.duckdb")
    code, _, err = run("analyze", "--db", str(path), "--depth", "deep")
    assert code == 2 and "'deep' is not one of" in err
    code, _, err = run("analyze", "--db", str(path), "--depth", "solver", "--samples", "0")
    assert code == 2 and "--samples" in err
    assert stored(path, "SELECT count(*) FROM play_costs") == [(0,)]


@pytest.mark.parametrize(
    ("trump", "calls", "seats"),
    [("D", [(2, "klop")], [2]), ("D", [], [2, 0]), (None, [], [])],
    ids=["the knocker", "both who could have knocked", "muil cannot be knocked"],
)
@pytest.mark.parametrize(
    ("loss", "severity"),
    [(2.5, None), (3.0, Severity.INACCURACY), (6.0, Severity.MISTAKE), (11.5, Severity.MISTAKE),
     (12.0, Severity.BLUNDER), (30.0, Severity.BLUNDER)],
)  # fmt: skip
def test_solver_findings_review_the_right_calls(
    trump: str | None,
    calls: list[tuple[int, str]],
    seats: list[int],
    loss: float,
    severity: Severity | None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every call is reviewed by the right seat, and the 3/6/12 thresholds decide the severity."""
    from manillen_replay.analysis import call_model
    from manillen_replay.analysis.call_review import CallOption, CallReview
    from manillen_replay.analysis.costs import dd_costs
    from manillen_replay.analysis.deal_analysis import solver_findings
    from manillen_replay.engine import replay

    reviewed: list[tuple[str, int | None]] = []

    def fake_review(name: str) -> Any:
        def review(deal: Any, rules: Any, *, seat: int | None = None, samples: int, **_: Any) -> CallReview:
            reviewed.append((name, seat))
            options = (CallOption("klop", 20.0, 10.0), CallOption("no klop", 20.0, 10.0 - loss))
            return CallReview(deal.number, seat or 0, options, "no klop", samples)

        return review

    monkeypatch.setattr(call_model, "trump_review_given_calls", fake_review("trump"))
    monkeypatch.setattr(call_model, "knock_review_given_calls", fake_review("knock"))
    rec = record(BASE, play_out(BASE, 1, trump), trump=trump, calls=calls)
    result = replay(rec)
    deal = result.deals[0]
    found = solver_findings(result, rec, deal, dd_costs(deal, result.rules), samples=2)
    # the two seats' knock reviews run at once, so in either order
    assert reviewed[0] == ("trump", None) and sorted(reviewed[1:]) == [
        ("knock", seat) for seat in sorted(seats)
    ]
    knocks = [f for f in found if f.kind == "knock_choice"]
    trumps = [f for f in found if f.kind == "trump_choice"]
    if severity is None:
        assert knocks == [] and trumps == []
        return
    assert sorted(f.seat for f in knocks) == sorted(seats)
    assert {f.severity for f in knocks} <= {severity} and all(f.points == loss for f in knocks)
    assert [(f.severity, f.points) for f in trumps] == [(severity, loss)]


def test_depth_solver_shows_its_progress_on_stderr_and_quiet_hides_it(tmp_path: Path) -> None:
    path = small_archive(tmp_path / "club.duckdb")
    code, out, err = run("analyze", "--db", str(path), "--depth", "solver", "--samples", "2")
    assert code == 0, out
    lines = [line for line in err.splitlines() if line.startswith("solving:")]
    assert lines and lines[-1].startswith("solving: 2/2 deals, ")
    assert "deals/s" in lines[-1] and lines[-1].endswith("left")
    assert "solving" not in out
    quiet_path = small_archive(tmp_path / "quiet.duckdb")
    code, out, err = run("analyze", "--db", str(quiet_path), "--depth", "solver", "--samples", "2", "--quiet")
    assert code == 0 and "solver: costs of 2 deals stored" in out
    assert err == ""


def test_progress_meter_tells_deals_done_rate_and_time_left() -> None:
    from manillen_replay.analysis.deal_analysis import Progress, ProgressMeter

    now = [100.0]
    seen: list[Progress] = []
    meter = ProgressMeter(30, seen.append, clock=lambda: now[0])
    assert meter.progress().describe() == "0/30 deals"
    now[0] = 110.0
    meter.advance(5)
    assert seen[-1] == Progress(5, 30, 10.0)
    assert seen[-1].rate == 0.5 and seen[-1].remaining == 50.0
    assert seen[-1].describe() == "5/30 deals, 0.5 deals/s, 0:50 left"
    now[0] = 4000.0
    meter.advance(1)
    assert seen[-1].describe() == "6/30 deals, 0.00154 deals/s, 4:20:00 left"


def test_progress_gives_a_fast_rate_as_a_whole_number_with_thousands_separators() -> None:
    """Deals read from the archive's cache go by at thousands a second: the bar says
    ``118,000 deals/s``, not ``1.18e+05``; below a thousand, three significant figures."""
    from manillen_replay.analysis.deal_analysis import Progress

    assert Progress(1, 36, 1 / 118_000).describe() == "1/36 deals, 118,000 deals/s, 0:00 left"
    assert Progress(999, 1000, 1.0).describe() == "999/1000 deals, 999 deals/s, 0:00 left"
    assert Progress(1000, 2000, 1.0).describe() == "1000/2000 deals, 1,000 deals/s, 0:01 left"


def _archive_without_a_write_ahead_log(tmp_path: Path) -> Path:
    """An archive whose write-ahead log cannot be created (as when its folder is not writable or
    its disk is full; a link into a missing folder refuses even root, who may write anywhere)."""
    path = tmp_path / "club.duckdb"
    build_archive(path, matches=1)
    (tmp_path / "club.duckdb.wal").symlink_to(tmp_path / "missing" / "club.duckdb.wal")
    return path


@pytest.mark.parametrize(
    ("arguments", "doing"),
    [
        (["analyze", "--depth", "heuristic"], "could not save findings"),
        (["rules", "save", "vrij", "--rule", "underbuy=allowed"], "could not save the club rules 'vrij'"),
        (["report", "--match", "{match}", "--out", "{out}", "--samples", "1", "-q"], "could not save costs"),
    ],
)
def test_an_archive_that_cannot_be_written_is_one_line_naming_its_file(
    tmp_path: Path, arguments: list[str], doing: str
) -> None:
    """The COMMIT's own error, not the failed ROLLBACK's "no transaction is active" after it."""
    path = _archive_without_a_write_ahead_log(tmp_path)
    with Store(path, read_only=True) as store:
        match = store.query("SELECT match_id FROM matches")["match_id"][0]
    out = tmp_path / "review.html"
    given = [part.format(match=match, out=out) for part in arguments]
    code, stdout, stderr = run(*given, "--db", str(path))
    assert code == 1, stdout + stderr
    assert stderr.count("\n") == 1 and "Traceback" not in stderr, stderr
    assert f"Error: {doing} in the archive {str(path)!r}" in stderr
    assert f'"{tmp_path / "club.duckdb.wal"}": No such file or directory' in stderr
    assert not out.exists()


def test_a_coach_detector_that_cannot_run_is_named_before_the_analysis(tmp_path: Path) -> None:
    """A detector with bad SQL said "Error: syntax error at or near "SELEC"" without its file,
    and only once the whole analysis had run."""
    path = tmp_path / "club.duckdb"
    build_archive(path, matches=2)
    broken = tmp_path / "broken.sql"
    broken.write_text("-- name: broken_one\nSELEC nothing\n", encoding="utf-8")
    code, out, err = run("analyze", "--db", str(path), "--depth", "heuristic", "--detectors", str(broken))
    assert code == 1
    assert f"Error: coach detector broken_one ({broken}): syntax error at or near" in err
    assert "analysed" not in out  # refused before the analysis, which ran on nothing
    with Store(path, read_only=True) as store:
        assert store.query("SELECT count(*) AS n FROM matches WHERE analysed_at IS NOT NULL")["n"][0] == 0


def test_findings_top_with_nothing_to_rank_says_why_and_what_else_to_ask(tmp_path: Path) -> None:
    """ "No decisions to rank." read as nothing found at all, where notes (info) may be there."""
    path = tmp_path / "klop.duckdb"
    sample = Path(__file__).resolve().parent.parent / "data" / "samples" / "klop-tegenklop.json"
    with Store(path) as store:
        store.import_paths([sample])
    assert run("analyze", "--db", str(path), "--depth", "heuristic")[0] == 0
    code, out, _ = run("findings", "--db", str(path), "--top", "5", "--player", "Anna")  # Dirk's blunder only
    assert code == 0
    assert out.strip() == (
        "No decisions to rank: no mistake reaches an inaccuracy; without --top you see every finding, "
        "the notes (info) too."
    )
    code, out, _ = run("findings", "--db", str(path), "--top", "5", "--player", "Anna", "--lang", "nl")
    assert out.startswith("Geen beslissingen om te rangschikken: geen fout komt tot een onnauwkeurigheid")


CLAIM_HOLDER = """
import sys, time
from manillen_replay.cli.analysis import analysis_claim
with analysis_claim(sys.argv[1], 0):
    print("holding", flush=True)
    sys.stdin.readline()
"""


def test_a_second_solver_review_of_an_archive_waits_for_the_first(tmp_path: Path) -> None:
    """Two `analyze --depth solver` runs of one archive solved the same matches side by side, each
    twice as slowly: the second waits for the first (saying so), or gives up past --wait; then it
    does what the first left."""
    import subprocess
    import sys

    path = small_archive(tmp_path / "club.duckdb")
    holder = subprocess.Popen(
        [sys.executable, "-c", CLAIM_HOLDER, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
        code, out, err = run(
            "analyze", "--db", str(path), "--depth", "solver", "--samples", "2", "--wait", "1"
        )
        assert code == 1 and not out
        assert f"another manillen analyze (process {holder.pid}) is analysing {path}: waiting for it" in err
        assert (
            f"another manillen analyze (process {holder.pid}) is still analysing {path}: run this one" in err
        )
        with Store(path, read_only=True) as store:
            assert store.query("SELECT count(*) AS n FROM play_costs")["n"][0] == 0  # nothing solved
    finally:
        holder.communicate("\n", timeout=30)
    code, out, err = run("analyze", "--db", str(path), "--depth", "solver", "--samples", "2", "--wait", "1")
    assert code == 0 and "analysed 1 match (2 deals) at the solver depth" in out
    assert "another manillen analyze" not in err
