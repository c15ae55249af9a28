"""The Mistakes page sends its table the most serious findings first, and all on demand (AppTest)."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from streamlit.testing.v1 import AppTest

from dashboards import data
from manillen_replay.store import Store

from .tables import ask_for_all, light_table
from .test_dashboard import APP, FINDINGS, build_archive, open_page, texts

MANY = 150


def build_busy_archive(path: Path) -> Path:
    """The test archive with 150 more findings: one blunder among 149 inaccuracies."""
    build_archive(path)
    many = pl.DataFrame(
        {
            "match_id": [f"random-{n % 3}" for n in range(MANY)],
            "deal": [1 + n % 12 for n in range(MANY)],
            "trick": [1 + n % 8 for n in range(MANY)],
            "play": [1 + n % 4 for n in range(MANY)],
            "seat": [None] * MANY,
            "player": ["Anna"] * MANY,
            "kind": ["wasted_trump"] * MANY,
            "category": ["strategy"] * MANY,
            "severity": ["blunder" if n == MANY - 1 else "inaccuracy" for n in range(MANY)],
            "card": [None] * MANY,
            "better": [["7C"]] * MANY,
            "points": [float(n % 20) for n in range(MANY)],
            "explanation": [f"Finding {n}." for n in range(MANY)],
            "explanation_nl": [None] * MANY,
        },
        schema=FINDINGS.schema,
    )
    with Store(path) as store:
        store.save_findings(["random-0", "random-1", "random-2"], pl.concat([FINDINGS, many]))
    return path


@pytest.fixture(scope="module")
def busy_archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_busy_archive(tmp_path_factory.mktemp("busy") / "club.duckdb")


@pytest.fixture
def busy(busy_archive: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(busy_archive))
    return AppTest.from_file(APP, default_timeout=30)


def test_the_first_view_sends_the_most_serious_rows_and_a_button_brings_all(busy: AppTest) -> None:
    at = open_page(busy, "mistakes")
    total = MANY + 2  # the info finding waits for its checkbox
    table = light_table(at, "mistakes_table")
    assert len(table.data["columns"][0]["cells"]) == 100
    # the most points at stake first (as the Match page ranks), the severity only between equals:
    # Bert's 8-point blunder before Anna's 8-point inaccuracies
    points = table.value["points"].to_list()
    assert points == sorted(points, reverse=True) and points[0] == 19
    eights = table.value.filter(pl.col("points") == 8)
    assert eights["severity"].to_list()[0] == "blunder" and eights["player"].to_list()[0] == "Bert"
    assert f"Showing the 100 most serious of {total}." in texts(at)
    assert table.data["more"] == f"Show all {total}"
    assert len(table.data["links"]["targets"]) == 100
    ask_for_all(at, "mistakes_table")
    table = light_table(at, "mistakes_table")
    assert len(table.data["columns"][0]["cells"]) == total
    assert "more" not in table.data
    assert "Showing the" not in texts(at)
    at.switch_page("app_pages/archive.py").run()
    at.switch_page("app_pages/mistakes.py").run()
    assert len(light_table(at, "mistakes_table").data["columns"][0]["cells"]) == total  # for the session


def test_a_short_list_is_sent_whole_without_a_button(busy: AppTest) -> None:
    at = open_page(busy, "mistakes")
    at.session_state["mistakes_filters"] = {"chosen": {"players": '["Dirk"]'}}
    at.run()
    table = light_table(at, "mistakes_table")
    assert table.value["player"].to_list() == ["Dirk"]
    assert "more" not in table.data


def test_past_the_limit_the_button_says_it_brings_the_most_serious(
    busy: AppTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With more findings than the page ever sends, the button does not promise them all (it said
    "Show all 1000" over 1225 findings)."""
    monkeypatch.setattr(data, "MISTAKE_ROWS", (100, 120))
    at = open_page(busy, "mistakes")
    total = MANY + 2
    assert light_table(at, "mistakes_table").data["more"] == "Show the 120 most serious"
    ask_for_all(at, "mistakes_table")
    assert len(light_table(at, "mistakes_table").data["columns"][0]["cells"]) == 120
    assert f"Showing the 120 most serious of {total}." in texts(at)
