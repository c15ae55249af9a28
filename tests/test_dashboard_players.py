"""The Players page's choice of player: the browser's own drop-down, the page address, the session."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from dashboards import data
from dashboards.native_inputs import chosen_state

from .test_dashboard import APP, build_archive, open_page

CHOICE = "players_choice"
"""The key of the page's player input (``players.CHOICE``; importing a page would run it)."""


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    path = tmp_path / "club.duckdb"
    build_archive(path)
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(path))
    return AppTest.from_file(APP, default_timeout=60)


def player_input(at: AppTest) -> dict[str, Any]:
    """The player input as the page hands it to the browser: its field and the value it shows."""
    native = [e for e in at.get("bidi_component") if e.proto.component_name == "manillen_native_inputs"]
    [shown] = [s for s in (json.loads(e.proto.json) for e in native) if s["fields"][0]["name"] == "player"]
    [field] = shown["fields"]
    return {"options": [value for value, _ in field["options"]], "shown": shown["values"]["player"]}


def test_the_player_is_a_native_drop_down_of_the_archives_players(app: AppTest) -> None:
    at = open_page(app, "players")
    assert not at.selectbox  # no Streamlit combo box for a new tab to load
    choice = player_input(at)
    assert choice["options"] == data.players() and choice["shown"] == data.players()[0]
    assert at.query_params["player"] == data.players()[0]


def test_the_address_chooses_the_player_and_a_choice_goes_into_the_address(app: AppTest) -> None:
    at = open_page(app, "players", player="Carla")
    assert player_input(at)["shown"] == "Carla" and at.query_params["player"] == "Carla"
    at.session_state[CHOICE] = chosen_state({"player": "Bert"})  # chosen in the drop-down
    at.run()
    assert at.query_params["player"] == "Bert" and player_input(at)["shown"] == "Bert"
    at.switch_page("app_pages/sql.py").run()
    at.switch_page("app_pages/players.py").run()  # away and back: still Bert
    assert player_input(at)["shown"] == "Bert" and at.query_params["player"] == "Bert"
    at.query_params["player"] = "Anna"  # a link or a reload naming another player
    at.run()
    assert player_input(at)["shown"] == "Anna" and at.query_params["player"] == "Anna"


def test_a_player_not_in_the_archive_falls_back_to_the_first(app: AppTest) -> None:
    at = open_page(app, "players", player="Nobody")
    assert player_input(at)["shown"] == data.players()[0]
    at.session_state[CHOICE] = chosen_state({"player": "Nobody"})
    at.run()
    assert player_input(at)["shown"] == data.players()[0]
