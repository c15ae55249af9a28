"""What a visitor of a dashboard served on the network sees of the server: no folder of it (issue 31)."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dashboards import data, ui
from manillen_replay.store import Store

from .test_dashboard import APP, open_page


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "server-folder" / "club.duckdb"
    path.parent.mkdir()
    with Store(path) as store:
        store.import_paths([Path(__file__).resolve().parent.parent / "data" / "samples" / "muil.json"])
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(path))
    return path


def test_the_sidebar_names_the_archive_file_not_its_folder(served: Path) -> None:
    at = open_page(AppTest.from_file(APP, default_timeout=60), "archive")
    shown = "\n".join(str(c.value) for c in at.sidebar.caption)
    assert "club\\.duckdb" in shown and str(served.parent) not in shown  # markdown-escaped


def test_a_message_that_names_the_archive_names_its_file_only(served: Path) -> None:
    message = f"the archive {str(served)!r} is in use by process 7 (manillen analyze); try again"
    assert (
        ui.without_folders(message)
        == "the archive 'club.duckdb' is in use by process 7 (manillen analyze); try again"
    )
    drafts = f"cannot write {served.parent / 'club.drafts' / 'x.json'}"
    assert str(served.parent) not in ui.without_folders(drafts)
