"""The dashboard's background review (dashboards/reviewer.py), the biggest mistakes first on the Match
page, and the archive released when idle, through Streamlit's AppTest and the reviewer itself.

The reviewer solves with few layouts (``SAMPLES``) and without the warming deal, so that a match
of three deals is reviewed in seconds; the expected costs come from the archive the reviewer
wrote (``play_costs``), never from the page's code.
"""

from __future__ import annotations

import logging
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import duckdb
import pytest
from streamlit.runtime.caching.cache_utils import CachedFunc
from streamlit.testing.v1 import AppTest

from dashboards import data, native_inputs, review_view, reviewer
from dashboards.ui import markdown_text
from manillen_replay.analysis.ranking import cost_in_words
from manillen_replay.archive_defaults import ANALYSIS_REVISION
from manillen_replay.record import Entry, dumps
from manillen_replay.store import Store
from manillen_replay.store.analyse import analyse_archive
from manillen_replay.store.review_queue import matches_to_review, record_to_review, save_review

from .factories import random_record
from .test_dashboard import APP, build_archive, open_page, texts

SAMPLES = 4
DEALS = 3


def build(path: Path, count: int = 2) -> None:
    """``count`` random matches of ``DEALS`` deals (``random-0`` the oldest), heuristic findings only."""
    records = [random_record(index, DEALS) for index in range(count)]
    for index, record in enumerate(records):
        import datetime

        record.match.date = datetime.date(2026, 1, 1 + index)
    with Store(path) as store:
        store.import_entries(
            [Entry("club.jsonl", n, dumps(r, pretty=False).encode()) for n, r in enumerate(records, 1)]
        )
        analyse_archive(store)


@pytest.fixture
def archive(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path / "club.duckdb"
    build(path)
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(path))
    yield path
    reviewer.stop(path)
    data.archive_at(path).close()


def wait_until_ready(current: reviewer.Reviewer, match_id: str, seconds: float = 240) -> None:
    deadline = time.monotonic() + seconds
    while current.status(match_id).state != "ready":
        assert current.status(match_id).state != "failed", current.status(match_id)
        assert time.monotonic() < deadline, current.status(match_id)
        time.sleep(0.1)


def depth_of(path: Path, match_id: str) -> str | None:
    with data.archive_at(path).reading() as store:
        return store.query("SELECT analysis_depth FROM matches WHERE match_id = ?", [match_id]).item()


# --------------------------------------------------------------------------- the Match page


def test_match_page_without_a_reviewer_says_how_to_get_the_solver_s_review(archive: Path) -> None:
    at = open_page(AppTest.from_file(APP, default_timeout=60), "match", match="random-1")
    shown = texts(at)
    assert "manillen analyze --depth solver" in shown
    # the review section comes before the score chart and the deals
    headers = [h.value for h in at.subheader]
    assert headers.index("The biggest mistakes") < headers.index("Deals")


def test_a_review_by_an_earlier_version_says_so_and_is_made_again(archive: Path) -> None:
    """After an upgrade the Match page showed the old review as ready: its words and costs were
    the earlier version's, and the reviewer never looked at the match again."""
    with Store(archive) as store:
        analyse_archive(store, depth="solver", samples=SAMPLES, match_ids=["random-1"])
    connection = duckdb.connect(str(archive))
    connection.execute("UPDATE matches SET analysis_revision = NULL WHERE match_id = 'random-1'")
    connection.close()
    at = open_page(AppTest.from_file(APP, default_timeout=60), "match", match="random-1")
    shown = texts(at)
    assert "An earlier version of manillen-replay made the solver's review of this match" in shown
    assert "For now the review an earlier version of manillen-replay made" in shown
    assert "Review ready" not in shown
    current = reviewer.start(archive, samples=SAMPLES, warm=False, backlog=True)
    wait_until_ready(current, "random-1")
    with Store(archive, read_only=True) as store:
        assert store.query("SELECT analysis_revision FROM matches WHERE match_id = 'random-1'").item() == (
            ANALYSIS_REVISION
        )
    at = open_page(AppTest.from_file(APP, default_timeout=60), "match", match="random-1")
    shown = texts(at)
    assert "Review ready" in shown and "earlier version" not in shown


def test_an_earlier_versions_review_without_mistakes_is_not_called_the_quick_check(archive: Path) -> None:
    """An old solver review holding notes only read "The quick check found no mistakes" while the
    match waited for its new review: a solver's review, and an earlier version's, said neither."""
    with Store(archive) as store:
        analyse_archive(store, depth="solver", samples=SAMPLES, match_ids=["random-1"])
    connection = duckdb.connect(str(archive))
    connection.execute("DELETE FROM findings WHERE match_id = 'random-1' AND severity <> 'info'")
    connection.execute("UPDATE matches SET analysis_revision = NULL WHERE match_id = 'random-1'")
    connection.close()
    reviewer.start(archive, samples=SAMPLES, warm=False, backlog=False)  # waiting: not asked for
    at = open_page(AppTest.from_file(APP, default_timeout=60), "match", match="random-1")
    shown = texts(at)
    assert "The review an earlier version of manillen-replay made found no mistakes" in shown
    assert "quick check" not in shown


def test_a_requested_match_is_reviewed_and_the_match_page_shows_its_biggest_mistakes(archive: Path) -> None:
    current = reviewer.start(archive, samples=SAMPLES, warm=False, backlog=False)
    current.request(["random-1"])
    at = open_page(AppTest.from_file(APP, default_timeout=60), "match", match="random-1")
    assert current.status("random-1").state in ("queued", "reviewing", "ready")
    shown = texts(at) + "\n".join(bar.proto.text for bar in at.get("progress"))
    assert any(
        word in shown
        for word in ("reviewing this match", "Waiting for the solver", "starts in a moment", "Review ready")
    )
    wait_until_ready(current, "random-1")
    assert depth_of(archive, "random-1") == "solver"
    assert depth_of(archive, "random-0") != "solver"  # not asked for, and no backlog here
    with Store(archive, read_only=True) as store:  # the costly cards' lines are kept, as analyze keeps them
        costly = store.query(
            "SELECT DISTINCT deal, trick, play FROM play_costs WHERE match_id = 'random-1' AND legal "
            "AND NOT forced AND view_cost - 2 * view_error >= 2 ORDER BY ALL"
        ).rows()
        lined = store.query(
            "SELECT DISTINCT deal, trick, play FROM finding_lines WHERE match_id = 'random-1' ORDER BY ALL"
        ).rows()
    assert costly and lined == costly
    at.run()
    assert not at.exception
    assert "Review ready" in texts(at)
    with data.archive_at(archive).reading() as store:
        expected = store.biggest_mistakes(["random-1"], top=3)
    boxes = mistake_boxes(at)
    assert len(boxes) == expected.height == 3  # random play: plenty of costly cards
    for box, row in zip(boxes, expected.iter_rows(named=True), strict=True):
        assert row["player"] in box["text"] and f"deal {row['deal']}" in box["text"]
        if row["view_cost"] is not None:
            # the cost with its measure named ("from what the player could see"), as findings --top says it
            cost = cost_in_words(row["view_cost"], row["dd_cost"], row["points"], row["call"])
            assert "from what the player could see" in cost and f"cost {markdown_text(cost)}" in box["text"]
        assert box["link"]["deal"] == str(row["deal"])
    if expected.height:
        assert expected["view_cost"].null_count() < expected.height  # the solver's costs are in
    # one player's: at most three, all theirs
    at.session_state["match_review_for"] = native_inputs.chosen_state({"whose": "Bert"})
    at.run()
    assert not at.exception
    with data.archive_at(archive).reading() as store:
        bert = store.biggest_mistakes(["random-1"], player="Bert", top=3)
    boxes = mistake_boxes(at)
    assert len(boxes) == bert.height
    assert all(box["text"].startswith(f"**{rank}. Bert**") for rank, box in enumerate(boxes, 1))
    if not bert.height:
        assert "No mistakes found for Bert." in texts(at)


def mistake_boxes(at: AppTest) -> list[dict[str, Any]]:
    """The biggest mistakes as the page shows them, in order: each box's first two markdown lines
    (``text``) and its Deal replay link's query (``link``)."""
    lines = [str(m.value) for m in at.markdown]
    heads = [index for index, line in enumerate(lines) if re.match(r"\*\*\d+\. ", line)]
    links = [link.proto for link in at.get("page_link") if link.proto.label == "Show in the Deal replay"]
    assert len(links) == len(heads)
    return [
        {"text": "\n".join(lines[index : index + 2]), "link": dict(parse_qsl(link.query_string))}
        for index, link in zip(heads, links, strict=True)
    ]


def test_until_the_review_the_boxes_show_the_quick_check_s_findings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "club.duckdb"
    build_archive(path)  # test_dashboard.py's archive: three matches with hand-made findings
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(path))
    with Store(path, read_only=True) as store:
        quick = store.biggest_mistakes(None, top=3)
    match_id = str(quick["match_id"][0])
    with Store(path, read_only=True) as store:
        quick = store.biggest_mistakes([match_id], top=3)
    at = open_page(AppTest.from_file(APP, default_timeout=60), "match", match=match_id)
    assert "For now the quick check's findings" in texts(at)
    boxes = mistake_boxes(at)
    assert len(boxes) == quick.height > 0
    for box, row in zip(boxes, quick.iter_rows(named=True), strict=True):
        assert row["view_cost"] is None and "cost " not in box["text"]
        if row["points"] is not None:
            assert f"{row['points']:g} points at stake" in box["text"]
        step = 0 if row["trick"] is None else (row["trick"] - 1) * 4 + row["play"]
        assert box["link"] == {"match": match_id, "deal": str(row["deal"]), "step": str(step)}
    data.archive_at(path).close()


def test_a_solver_review_stored_while_the_reviewer_is_at_it_is_shown_as_ready(
    archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`manillen analyze --depth solver` stored its review while the dashboard's reviewer was still
    at the match: the Match page said "for now the quick check's findings" above the solver's."""

    class StillReviewing:
        def status(self, match_id: str) -> reviewer.ReviewStatus:
            return reviewer.ReviewStatus("reviewing", 1, DEALS)

    monkeypatch.setattr(reviewer, "running", lambda: StillReviewing())
    assert review_view.status("random-0").state == "reviewing"  # the fast scan's findings only
    with data.archive().writing() as store:
        store.query("UPDATE matches SET analysis_depth = 'solver' WHERE match_id = 'random-0'")
    assert review_view.status("random-0").state == "ready"
    assert review_view.status("random-1").state == "reviewing"


def test_the_match_page_in_dutch(archive: Path) -> None:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["lang"] = "nl"
    at = open_page(at, "match", match="random-1", lang="nl")
    shown = texts(at)
    assert "De grootste fouten" in [h.value for h in at.subheader]
    assert "manillen analyze --depth solver" in shown


def test_the_archive_page_shows_the_review_s_progress(archive: Path) -> None:
    current = reviewer.start(archive, samples=SAMPLES, warm=False, backlog=True)
    at = open_page(AppTest.from_file(APP, default_timeout=60), "archive")
    assert "Solver review" in texts(at)
    for match_id in ("random-0", "random-1"):
        wait_until_ready(current, match_id)
    at.run()
    assert "every match is reviewed (2 since the dashboard started)" in texts(at)


def review_state_page() -> None:
    import streamlit as st

    from dashboards import review_view, reviewer

    review_view.state_line(reviewer.ReviewStatus("reviewing", 1, 3, seconds_left=st.session_state["left"]))


@pytest.mark.parametrize(
    ("lang", "left", "said"),
    [
        ("en", 150.0, "The solver is reviewing this match: deal 2 of 3, about 3 minutes left…"),
        ("nl", 150.0, "De solver bekijkt deze partij: spel 2 van 3, nog ongeveer 3 minuten…"),
        ("en", None, "The solver is reviewing this match: deal 2 of 3…"),
    ],
)
def test_the_review_s_bar_says_how_long_it_still_needs_when_that_can_be_told(
    lang: str, left: float | None, said: str
) -> None:
    at = AppTest.from_function(review_state_page)
    at.session_state["left"] = left
    at.session_state["lang"] = lang
    at.run()
    assert not at.exception
    bars = [element for element in at.main if element.type == "progress"]
    assert [bar.proto.text for bar in bars] == [said]


def test_the_time_left_is_the_variant_s_measured_cost_until_a_deal_is_done_then_the_pace_so_far(
    tmp_path: Path,
) -> None:
    current = reviewer.Reviewer(tmp_path / "none.duckdb", warm=False)
    with current._lock:
        current._current, current._total, current._deal_seconds = "m", 3, 98.0
        current._began = time.monotonic()
    assert current.status("m").seconds_left == pytest.approx(3 * 98, abs=1)
    with current._lock:  # the first deal under way for longer than expected: at least that long each
        current._began = time.monotonic() - 150
    assert current.status("m").seconds_left == pytest.approx(3 * 150 - 150, abs=1)
    with current._lock:  # one done in 100 s: the pace so far
        current._done, current._began = 1, time.monotonic() - 100
    assert current.status("m").seconds_left == pytest.approx(200, abs=1)
    with current._lock:  # a single deal that takes longer than expected: no telling
        current._done, current._total, current._began = 0, 1, time.monotonic() - 150
    assert current.status("m").seconds_left is None
    with current._lock:  # other layouts than measured, and no deal done yet: no telling either
        current._total, current._deal_seconds, current._began = 3, 0.0, time.monotonic()
    assert current.status("m").seconds_left is None


# --------------------------------------------------------------------------- the reviewer


def test_the_backlog_is_the_newest_first_and_a_request_goes_before_it(archive: Path) -> None:
    with Store(archive, read_only=True) as store:
        assert matches_to_review(store) == ["random-1", "random-0"]
    current = reviewer.Reviewer(archive, samples=SAMPLES, warm=False)  # not started: the queue only
    current._queued = ["random-1", "random-0"]
    current._scanned = True
    current.request(["random-0"])
    assert current.status("random-0").state == "queued" and current.status("random-0").ahead == 0
    assert current.status("random-1").ahead == 1
    assert current._next() == "random-0"
    assert current.status("random-0").state == "reviewing"


def test_a_review_of_a_record_changed_meanwhile_is_not_stored(archive: Path) -> None:
    from manillen_replay.analysis.deal_analysis import analyse_match
    from manillen_replay.engine import replay
    from manillen_replay.record import loads

    with Store(archive) as store:
        text = record_to_review(store, "random-0")
        assert text is not None
        record = loads(text)
        result = replay(record)
        solved = analyse_match(result, record, samples=SAMPLES)
        assert not save_review(store, text + " ", result, solved)
        assert store.query("SELECT count(*) AS n FROM play_costs")["n"][0] == 0
        assert save_review(store, text, result, solved)
        assert store.query("SELECT count(*) AS n FROM play_costs")["n"][0] > 0


def test_merge_deals_gives_what_analyse_match_gives(archive: Path) -> None:
    """The review solves deals one at a time (keeping those solved before) and merges them: the
    same findings, costs and reasons as the whole match analysed at once."""
    from manillen_replay.analysis.deal_analysis import analyse_deal, analyse_match, merge_deals
    from manillen_replay.engine import replay
    from manillen_replay.record import loads

    with Store(archive, read_only=True) as store:
        text = record_to_review(store, "random-1")
    assert text is not None
    record = loads(text)
    result = replay(record)
    whole = analyse_match(result, record, samples=SAMPLES)
    deals = [analyse_deal(result, record, deal, samples=SAMPLES) for deal in result.deals]
    merged = merge_deals(result, record, deals, [])
    assert [f.to_row() for f in merged.findings] == [f.to_row() for f in whole.findings]
    assert merged.costs == whole.costs
    assert merged.reasons == whole.reasons


SOLVED_TABLES = ("play_costs", "card_values", "call_decisions", "finding_lines", "findings")
"""The tables a solver review writes."""


def _solved_rows(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    with Store(path, read_only=True) as store:
        return {
            table: store.query(f"SELECT * EXCLUDE (finding_id) FROM {table} ORDER BY ALL").rows()
            if table == "findings"
            else store.query(f"SELECT * FROM {table} ORDER BY ALL").rows()
            for table in SOLVED_TABLES
        }


def test_an_urgent_match_s_deals_solved_two_at_a_time_give_what_one_at_a_time_gives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A match someone waits for has its deals solved two at once (each on both cores): the same
    costs, calls, lines and findings in the archive as the match analysed deal after deal."""
    from manillen_replay.analysis.deal_analysis import analyse_match
    from manillen_replay.engine import replay
    from manillen_replay.record import loads

    sample = Path(__file__).resolve().parent.parent / "data" / "samples" / "cafe-rules.json"
    paths = {how: tmp_path / f"{how}.duckdb" for how in ("threaded", "sequential")}
    for path in paths.values():
        with Store(path) as store:
            store.import_entries([Entry(sample.name, None, sample.read_bytes())])
            analyse_archive(store)
    with Store(paths["sequential"]) as store:
        (match_id,) = store.query("SELECT match_id FROM matches")["match_id"].to_list()
        text = record_to_review(store, match_id)
        assert text is not None
        record = loads(text)
        result = replay(record)
        assert save_review(store, text, result, analyse_match(result, record, samples=SAMPLES))

    lock = threading.Lock()
    at_once = [0, 0]  # now, most
    from manillen_replay.analysis.deal_analysis import analyse_deal as solve

    def counted(*args: Any, **options: Any) -> Any:
        with lock:
            at_once[0] += 1
            at_once[1] = max(at_once)
        try:
            return solve(*args, **options)
        finally:
            with lock:
                at_once[0] -= 1

    monkeypatch.setattr(reviewer, "analyse_deal", counted)
    current = reviewer.start(paths["threaded"], samples=SAMPLES, warm=False, backlog=False)
    try:
        current.request([match_id])
        wait_until_ready(current, match_id)
    finally:
        reviewer.stop(paths["threaded"])
        data.archive_at(paths["threaded"]).close()
    assert at_once[1] == reviewer.DEALS_AT_ONCE
    threaded, sequential = _solved_rows(paths["threaded"]), _solved_rows(paths["sequential"])
    assert sequential["play_costs"] and sequential["findings"]
    for table in SOLVED_TABLES:
        assert threaded[table] == sequential[table], table


def test_a_request_is_reviewed_beside_a_long_backlog_deal_not_after_it(
    archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An organiser's sweep saved a deal while the backlog solved a two-player deal with open table
    cards (98 s a deal expected) and waited 247 s for its review. A backlog deal expected to take
    longer than ``APART_SECONDS`` is solved on a thread of its own: the saved match is reviewed
    beside it, and the long deal, left to go on, is kept when it ends and never solved twice."""
    from manillen_replay.analysis.deal_analysis import analyse_deal as solve

    monkeypatch.setattr(reviewer, "expected_seconds", lambda variant, deals=1: 100.0)
    slow_started, release = threading.Event(), threading.Event()
    solved: list[tuple[str, int]] = []

    def solving(result: Any, record: Any, deal: Any, **options: Any) -> Any:
        solved.append((result.id, deal.number))
        if result.id == "random-1":  # the backlog's long deals: held until released
            slow_started.set()
            assert release.wait(120)
        return solve(result, record, deal, **options)

    monkeypatch.setattr(reviewer, "analyse_deal", solving)
    current = reviewer.start(archive, samples=SAMPLES, warm=False)
    assert slow_started.wait(60)  # the backlog's newest match, random-1, under way
    current.request(["random-0"])
    wait_until_ready(current, "random-0", seconds=120)
    assert not release.is_set() and current.status("random-1").state != "ready"
    release.set()
    wait_until_ready(current, "random-1", seconds=120)
    assert sorted(solved) == sorted({*solved}), solved  # each deal solved once
    assert {number for match, number in solved if match == "random-1"} == set(range(1, DEALS + 1))


# --------------------------------------------------------------------------- the archive released


def _write_from_another_process(path: Path) -> subprocess.CompletedProcess[str]:
    code = (
        "import sys; from manillen_replay.store import Store\n"
        "with Store(sys.argv[1]) as store: store.query('SELECT count(*) FROM matches')\n"
    )
    return subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=60)


def test_an_idle_archive_lets_another_process_open_it_for_writing(tmp_path: Path) -> None:
    path = tmp_path / "club.duckdb"
    build(path, 1)
    shared = data.Archive(path, idle_seconds=0.2)
    with shared.reading() as store:
        store.query("SELECT count(*) FROM matches")
        held = _write_from_another_process(path)  # while the dashboard reads: refused
    assert held.returncode != 0 and "one program write to an archive at a time" in held.stderr
    deadline = time.monotonic() + 10
    while shared.is_open():
        assert time.monotonic() < deadline
        time.sleep(0.05)
    done = _write_from_another_process(path)
    assert done.returncode == 0, done.stderr
    with shared.reading() as store:  # and the dashboard reads again afterwards
        assert store.query("SELECT count(*) AS n FROM matches")["n"][0] == 1
    shared.close()


def test_a_change_by_another_program_moves_the_version_on(tmp_path: Path) -> None:
    path = tmp_path / "club.duckdb"
    build(path, 1)
    shared = data.Archive(path, idle_seconds=0.1)
    with shared.reading():
        pass
    shared.close()
    before = shared.version
    shared.notice_changes()
    assert shared.version == before
    with Store(path) as store:
        store.import_entries([Entry("x.jsonl", 1, dumps(random_record(5, 1), pretty=False).encode())])
    shared.notice_changes()
    assert shared.version == before + 1


def test_reading_waits_briefly_for_a_writer_that_is_done_in_a_moment(tmp_path: Path) -> None:
    path = tmp_path / "club.duckdb"
    build(path, 1)
    code = (
        "import sys, time; from manillen_replay.store import Store\n"
        "store = Store(sys.argv[1]); print('held', flush=True); time.sleep(0.3); store.close()\n"
    )
    writer = subprocess.Popen([sys.executable, "-c", code, str(path)], stdout=subprocess.PIPE, text=True)
    try:
        assert writer.stdout is not None and writer.stdout.readline().strip() == "held"
        shared = data.Archive(path)
        with shared.reading() as store:  # retried until the writer let go (under two seconds)
            assert store.query("SELECT count(*) AS n FROM matches")["n"][0] == 1
        shared.close()
    finally:
        writer.wait(30)


# --------------------------------------------------------------------------- the server's start


@pytest.mark.parametrize(("setting", "started"), [("", True), ("off", False)])
def test_the_dashboard_s_server_starts_the_review_while_it_starts(
    setting: str, started: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``manillen dashboard`` (serve.main) starts the review in its preload, after the caches'
    warming begins; ``MANILLEN_REVIEW=off`` leaves it out, and a bare ``preload()`` starts none."""
    from streamlit.runtime import Runtime

    from dashboards import charts, drafts, serve

    calls: list[str] = []
    monkeypatch.setattr(Runtime, "exists", staticmethod(lambda: True))
    for module, name in ((charts, "warm"), (data, "warm"), (drafts, "last_venue")):
        monkeypatch.setattr(module, name, lambda: None)
    monkeypatch.setattr(reviewer, "start", lambda *a, **k: calls.append("review"))
    monkeypatch.setenv(serve.REVIEW_ENVIRONMENT, setting)
    serve.preload()
    assert calls == []  # not the server: no review
    monkeypatch.setattr(serve, "_SERVING", True)
    serve.preload()
    assert calls == (["review"] if started else [])


def test_warming_the_solver_solves_one_small_deal() -> None:
    assert reviewer.warm_solver() < 120


# --------------------------------------------------------------------------- what puts a match first


def test_a_record_page_save_and_an_upload_go_to_the_front_of_the_review(archive: Path) -> None:
    from dashboards import drafts

    current = reviewer.start(archive, samples=SAMPLES, warm=False, backlog=False)
    import msgspec

    from dashboards import recording

    recorded = random_record(21, 1)
    draft = recording.Draft(
        draft_id=drafts.new_id(),
        setup=recording.Setup(match_id="recorded-21", seats=list(recorded.match.seats)),
        deals=[msgspec.to_builtins(deal) for deal in recorded.deals],
    )
    saved = drafts.save_match(draft)
    assert saved.summary.imported == 1 and saved.analysis.matches == 1  # the quick findings at once
    uploaded = random_record(22, 2)
    uploaded.match.id = "uploaded-22"
    summary, outcome = data.import_upload("club.json", dumps(uploaded, pretty=False).encode())
    assert summary.imported == 1 and outcome.matches == 1
    assert current.status("uploaded-22").state in ("queued", "reviewing", "ready")
    for match_id in ("uploaded-22", "recorded-21"):
        wait_until_ready(current, match_id)
        assert depth_of(archive, match_id) == "solver"
    assert depth_of(archive, "random-0") == "heuristic"  # nobody asked, and no backlog here


def test_an_upload_after_an_upgrade_analyses_its_own_matches_and_puts_them_first(archive: Path) -> None:
    """The first upload after an upgrade scanned every match an earlier version had analysed,
    holding the archive meanwhile, and queued the uploaded match behind them all."""
    connection = duckdb.connect(str(archive))
    connection.execute("UPDATE matches SET analysis_revision = NULL")  # analysed by an earlier version
    connection.close()
    waiting_too = random_record(24, 1)
    waiting_too.match.id = "imported-24"  # by `manillen import`, not analysed yet: the background's
    with Store(archive) as store:
        store.import_entries([Entry("cli.json", None, dumps(waiting_too, pretty=False).encode())])
    waiting = reviewer.Reviewer(archive, samples=SAMPLES, warm=False)  # its queue only: not started
    reviewer._REVIEWERS[archive.resolve()] = waiting
    try:
        uploaded = random_record(23, 1)
        uploaded.match.id = "uploaded-23"
        summary, outcome = data.import_upload("club.json", dumps(uploaded, pretty=False).encode())
        assert summary.imported == 1 and outcome.matches == 1
        assert waiting.status("uploaded-23").state == "queued" and waiting.status("uploaded-23").ahead == 0
        assert waiting.status("random-0").state != "queued" or waiting.status("random-0").ahead > 0
        assert waiting.status("imported-24").state != "queued" or waiting.status("imported-24").ahead > 0
    finally:
        reviewer._REVIEWERS.pop(archive.resolve(), None)
    with Store(archive, read_only=True) as store:
        stale = store.query(
            "SELECT count(*) FROM matches WHERE analysis_revision IS NULL AND analysed_at IS NOT NULL"
        ).item()
        untouched = store.query("SELECT analysed_at FROM matches WHERE match_id = 'imported-24'").item()
    assert stale == 2 and untouched is None  # left to the background review and `manillen analyze`


def test_a_review_said_ready_here_is_not_once_an_earlier_versions_is_put_back(archive: Path) -> None:
    """`manillen import --restore` beside the dashboard put back a version an earlier analysis had
    reviewed: the page still said "Review ready" over the old version's findings."""
    with Store(archive) as store:
        analyse_archive(store, depth="solver", samples=SAMPLES, match_ids=["random-1"])
    waiting = reviewer.Reviewer(archive, samples=SAMPLES, warm=False)  # its queue only: not started
    waiting._ready.add("random-1")  # reviewed by this dashboard
    reviewer._REVIEWERS[archive.resolve()] = waiting
    try:
        assert review_view.status("random-1").state == "ready"
        with data.archive().writing() as store:  # as the restore leaves it
            store.query("UPDATE matches SET analysis_revision = 0 WHERE match_id = 'random-1'")
        assert review_view.status("random-1").state == "queued"
        with data.archive().writing() as store:  # a version the solver never reviewed put back
            store.query("UPDATE matches SET analysis_depth = 'heuristic' WHERE match_id = 'random-1'")
        assert review_view.status("random-1").state == "queued"
        waiting._scan()
        assert "random-1" in waiting._queued and waiting.status("random-1").state == "queued"
    finally:
        reviewer._REVIEWERS.pop(archive.resolve(), None)


def test_a_match_far_back_in_the_queue_can_be_reviewed_next(archive: Path) -> None:
    waiting = reviewer.Reviewer(archive, samples=SAMPLES, warm=False)  # its queue only: not started
    waiting._queued = ["elsewhere-1", "elsewhere-2", "random-0"]
    waiting._scanned = True
    reviewer._REVIEWERS[archive.resolve()] = waiting
    try:
        at = open_page(AppTest.from_file(APP, default_timeout=60), "match", match="random-0")
        assert "Waiting for the solver's review: 2 matches before this one…" in texts(at)
        at.button(key="match_review_next").click().run()
        assert not at.exception
        assert waiting.status("random-0").state == "queued" and waiting.status("random-0").ahead == 0
        assert "starts in a moment" in texts(at)
    finally:
        reviewer._REVIEWERS.pop(archive.resolve(), None)


def test_the_record_page_shows_the_match_s_biggest_mistakes_under_each_saved_deal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Record a deal, see the costliest decisions and why on the same page, no command: after a
    save the Record page holds the review of the match so far, each mistake with its replay link."""
    from .test_dashboard_record import tap, tap_an_illegal_deal

    path = tmp_path / "table.duckdb"
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(path))
    at = AppTest.from_file(APP, default_timeout=60)
    _, place, _ = tap_an_illegal_deal(at)
    tap(at, "record_save")
    assert not at.exception
    (expander,) = [e for e in at.expander if e.label == "The biggest mistakes"]
    with Store(path, read_only=True) as store:
        match_id = str(store.query("SELECT match_id FROM matches").item())
        expected = store.biggest_mistakes([match_id], top=3)
    assert expected.height > 0  # the illegal card at least
    boxes = mistake_boxes(at)
    assert len(boxes) == expected.height
    first = expected.row(0, named=True)
    step = (first["trick"] - 1) * 4 + first["play"]
    assert boxes[0]["link"] == {"match": match_id, "deal": "1", "step": str(step)}
    assert f"**1. {first['player']}**" in boxes[0]["text"]
    assert any(link.proto.label == "Show in the Deal replay" for link in expander.get("page_link"))
    assert place >= 8
    said = " ".join(s.value for s in at.success)
    assert "the solver's review follows" in said, said
    # once the review is in, the page (run again by it) says so, not that it follows
    monkeypatch.setattr(review_view, "status", lambda match: reviewer.ReviewStatus("ready"))
    at.run()
    said = " ".join(s.value for s in at.success)
    assert "the solver's review of the match is ready" in said and "follows" not in said, said
    data.archive_at(path).close()


# --------------------------------------------------------------------------- ready at once


def test_a_reviewed_match_is_ready_before_the_other_pages_caches_are_filled(
    archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The review fills the caches of the other pages' first views after storing a match; the
    match waited for is "ready" from the moment it is stored, not once those are filled."""
    states: list[str] = []
    current: list[reviewer.Reviewer] = []
    monkeypatch.setattr(
        data, "warm_after_review", lambda path: states.append(current[0].status("random-1").state)
    )
    current.append(reviewer.start(archive, samples=SAMPLES, warm=False, backlog=False))
    current[0].request(["random-1"])
    wait_until_ready(current[0], "random-1")
    deadline = time.monotonic() + 60
    while not states and time.monotonic() < deadline:
        time.sleep(0.05)
    assert states == ["ready"]


def test_a_stored_review_keeps_the_sql_pages_workers_and_drops_the_cached_results(
    archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The caches of the archive's earlier versions are dropped after each stored review; the
    SQL page's pool of worker processes (and its snapshot) is kept: dropped, it kept its two
    processes and its copy of the archive, two more with every review."""
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(archive))
    pool, handle = data._console_pool(), data._archive(str(archive))
    cleared: list[str] = []
    for name, value in vars(data).items():
        if isinstance(value, CachedFunc):
            monkeypatch.setattr(value, "clear", lambda *_, name=name: cleared.append(name))
    data.refresh_after_review(archive, rewarm=False)
    assert data._console_pool() is pool and data._archive(str(archive)) is handle
    assert "_counts" in cleared and not {"_console_pool", "_archive"} & set(cleared)


def test_a_stopping_server_stops_the_review_first_and_says_no_failure(
    archive: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """`make demo` stopped by SIGTERM while the review solved a deal ended with "exit code -6": the
    solver's threads were shut down under the review, which logged a failure and went on into
    DuckDB while Python finalised, and the process aborted. The stop signal now stops every
    review thread after the step under way first, and a review failing because of the stop is
    no failure."""
    started = threading.Event()

    def solving(*args: Any, **options: Any) -> Any:
        started.set()
        time.sleep(0.5)
        raise RuntimeError("cannot schedule new futures after shutdown")  # as at interpreter exit

    monkeypatch.setattr(reviewer, "analyse_deal", solving)
    current = reviewer.start(archive, samples=SAMPLES, warm=False, backlog=False)
    current.request(["random-0"])
    assert started.wait(30)
    assert reviewer.stop_all(10) is True
    assert not current._thread.is_alive() and reviewer.running(archive) is None
    assert not [r for r in caplog.records if "failed" in r.getMessage()]


def test_an_archive_that_cannot_be_opened_is_said_once_not_once_a_match(
    archive: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A newer `manillen` upgraded the archive under a running dashboard: its review tried every
    match queued in turn and logged each one's traceback (6,760 lines). It says so once, waits,
    and a match a page asked for is reviewed once the archive opens again."""
    current = reviewer.Reviewer(archive, samples=SAMPLES, warm=False)
    current._queued, current._scanned = ["random-1", "random-0"], True
    connection = duckdb.connect(str(archive))
    connection.execute("INSERT INTO schema_version VALUES (99, 'future', now())")
    connection.close()
    current.request(["random-0"])
    caplog.set_level(logging.WARNING, logger=reviewer.LOG.name)
    current.start()
    try:
        deadline = time.monotonic() + 30
        while not any("cannot be reviewed now" in r.getMessage() for r in caplog.records):
            assert time.monotonic() < deadline
            time.sleep(0.1)
        time.sleep(2 * reviewer.LOCKED_PAUSE + 0.5)  # it tries again meanwhile, silently
        said = [r.getMessage() for r in caplog.records]
        assert len([m for m in said if "cannot be reviewed now" in m]) == 1, said
        assert "newer than this program" in said[0] and not [m for m in said if "failed" in m]
        assert current.status("random-0").state != "failed" and not current._failed
    finally:
        current.stop()


def test_only_an_archive_that_will_not_open_is_unavailable_and_a_failed_save_is_the_match_s_failure() -> None:
    """Every archive error in the block was taken for an archive that would not open: a save that
    failed for one match sent it back to the queue, to be solved again and again."""
    from contextlib import contextmanager, nullcontext

    from manillen_replay.store import ArchiveError

    @contextmanager
    def refusing() -> Iterator[None]:
        raise ArchiveError("the archive has schema version 99, newer than this program's")
        yield

    with (
        pytest.raises(reviewer._ArchiveUnavailable, match="newer than this program"),
        reviewer._opened(refusing()),
    ):
        pass
    with (
        pytest.raises(ArchiveError, match="could not save") as failed,
        reviewer._opened(nullcontext("store")),
    ):
        raise ArchiveError("could not save the findings")
    assert not isinstance(failed.value, reviewer._ArchiveUnavailable)


def test_the_pages_write_a_finding_s_negative_figures_with_a_real_minus_sign(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The report wrote "−0.8" and the Match page "-0.8" (a hyphen) for the same finding; docs say
    a real minus sign in both. The Match page's boxes, the Mistakes page and the Deal replay write
    the sign; a hyphen between figures ("3-2") stays."""
    import duckdb

    from .test_dashboard import html_views, light_tables

    path = tmp_path / "club.duckdb"
    build_archive(path)
    with duckdb.connect(str(path)) as connection:
        connection.execute("UPDATE findings SET explanation = 'scores -0.8 on average, 3-2 in tricks'")
        match_id, deal, trick, play = connection.execute(
            "SELECT match_id, deal, trick, play FROM findings WHERE trick IS NOT NULL "
            "ORDER BY points DESC LIMIT 1"
        ).fetchone()
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(path))
    at = open_page(AppTest.from_file(APP, default_timeout=60), "match", match=match_id)
    # written as markdown: its dots and hyphens escaped
    assert r"scores −0\.8 on average, 3\-2 in tricks" in texts(at) and "-0\\.8" not in texts(at)
    at = open_page(AppTest.from_file(APP, default_timeout=60), "mistakes")
    shown = " ".join(light_tables(at)[0].value["text"].to_list())
    assert "scores −0.8 on average, 3-2 in tricks" in shown and "-0.8" not in shown
    step = (trick - 1) * 4 + play
    at = open_page(AppTest.from_file(APP, default_timeout=60), "replay", match=match_id, deal=deal, step=step)
    facts = str(html_views(at)["replay_facts"][1]["html"])
    assert "scores −0.8 on average, 3-2 in tricks" in facts and "-0.8" not in facts
    data.archive_at(path).close()
