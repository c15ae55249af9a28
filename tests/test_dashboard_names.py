"""A record's text (names, venue, event, comments) on the dashboard's pages, through AppTest:
shown as typed, never read as markdown (a security review's names and venue fetched an outside
image in every visitor's browser, put live links on the pages and drew Streamlit's icons)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dashboards import data
from manillen_replay.record import Entry, dumps
from manillen_replay.record.model import Annotation
from manillen_replay.store import Store

from .factories import random_record
from .test_dashboard import APP, open_page

BEACON = "![b](http://127.0.0.1:9/beacon.png)"
NAME = f"Ann {BEACON} :material/warning: :red[R]"
VENUE = "Hof [Login here](http://127.0.0.1:9/phish)"
LIVE = re.compile(r"(?<!\\)!(?<!\\)\[|(?<!\\)\]\(http|(?<!&#58;)(?<!\\):material/|(?<!\\):red(?<!\\)\[")
"""Markdown that would draw: an image, a link, an icon, a colour (none escaped)."""


@pytest.fixture
def hostile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    record = random_record(0, 2)
    record.match.seats = [NAME if seat == 1 else name for seat, name in enumerate(record.match.seats)]
    record.match.venue = VENUE
    record.match.event = BEACON
    record.deals[0].annotations = [Annotation(author=NAME, text=f"see {BEACON}", tags=[BEACON])]
    path = tmp_path / "club.duckdb"
    with Store(path) as store:
        store.import_entries([Entry("club.jsonl", 1, dumps(record, pretty=False).encode())])
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(path))
    yield record.match.id


def drawn(at: AppTest) -> list[str]:
    """Every text the page draws as markdown: titles, captions, messages, expanders' labels."""
    kinds = ("title", "header", "subheader", "markdown", "caption", "info", "warning", "success", "expander")
    return [str(getattr(e, "label", None) or e.value) for kind in kinds for e in at.get(kind)]


@pytest.mark.parametrize(
    ("page", "query"),
    [
        ("match", {}),
        ("replay", {"deal": 1, "step": 0}),
        ("train", {}),
    ],
)
def test_a_records_text_is_shown_as_typed(hostile: str, page: str, query: dict[str, object]) -> None:
    asked = {"player": NAME} if page == "train" else {"match": hostile, **query}
    at = open_page(AppTest.from_file(APP, default_timeout=60), page, **asked)
    texts = drawn(at)
    assert any("Ann" in text for text in texts), texts  # the name is there, as text
    live = [text for text in texts if LIVE.search(text)]
    assert not live, live


def test_names_typed_on_the_record_page_are_shown_as_typed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table's phone may type any name: the deal's heading, who makes trump and the buttons
    showed a name's markdown on every phone of the table and on the organiser's."""
    from .test_dashboard_record import start_match

    monkeypatch.setenv(data.DB_ENVIRONMENT, str(tmp_path / "table.duckdb"))
    at = AppTest.from_file(APP, default_timeout=60)
    start_match(at, ["Anna", "Bert", "Carla", NAME])  # the dealer: named in the deal's heading
    texts = [text for text in drawn(at) + [str(b.label) for b in at.button] if "beacon" in text]
    assert len(texts) >= 2, texts  # the heading, who makes trump
    live = [text for text in texts if LIVE.search(text)]
    assert not live, live
