"""The pages' light tables (dashboards/light_table.py) as AppTest sees them, and a row click.

AppTest does not run a custom component's JavaScript, but it keeps what the page sent it (the
element's JSON data: headers, cell texts, each numeric column's values) and it runs the script
with whatever widget states it is given: :func:`click_row` sends the state a click of the table's
row sends from the browser (its ``row`` trigger), so the page's own handling of the click runs.
The browser side (the click itself, Enter on a focused row) is tested in tests/test_browser.py.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import polars as pl
from streamlit.proto.WidgetStates_pb2 import WidgetStates
from streamlit.testing.v1 import AppTest

TRIGGERS = "$$STREAMLIT_INTERNAL_KEY_{id}__events"
"""The widget id under which a v2 component's trigger values travel (Streamlit's own naming:
the component's id, then ``__events``)."""


@dataclass
class LightTable:
    """One light table of a page."""

    key: str
    element_id: str
    data: dict[str, Any]

    @property
    def labels(self) -> list[str]:
        """The headers, as the page shows them."""
        return [column["label"] for column in self.data["columns"]]

    @property
    def texts(self) -> pl.DataFrame:
        """Every cell as the page shows it (text), one column per column name."""
        return pl.DataFrame(
            {column["name"]: column["cells"] for column in self.data["columns"]},
            schema={column["name"]: pl.String for column in self.data["columns"]},
        )

    @property
    def value(self) -> pl.DataFrame:
        """The table with numeric columns as numbers (the values it sorts by), others as shown."""
        frame = self.texts
        numbers = [
            pl.Series(column["name"], column["keys"], strict=False)
            for column in self.data["columns"]
            if "keys" in column
        ]
        return frame.with_columns(numbers) if numbers else frame

    @property
    def notes(self) -> dict[str, list[str]]:
        """The marks beside some cells (``★``), per column name, for the columns that have any."""
        return {column["name"]: column["notes"] for column in self.data["columns"] if "notes" in column}

    @property
    def detail(self) -> str | None:
        """The column shown as a line under each row rather than as a column, if any."""
        return next((column["name"] for column in self.data["columns"] if column.get("detail")), None)

    @property
    def links(self) -> list[str] | None:
        """Each row's address (opened by a Ctrl+click), or None for rows that open nothing."""
        links = self.data.get("links")
        if links is None:
            return None
        return [f"{links['page']}?" + urlencode({**target, **links["lang"]}) for target in links["targets"]]


def light_tables(at: AppTest) -> list[LightTable]:
    """The page's light tables, in the order they are drawn."""
    found = []
    for element in at.get("bidi_component"):
        proto = element.proto
        if proto.component_name != "manillen.light_table":
            continue
        payload = proto.json if proto.WhichOneof("data") == "json" else proto.mixed.json
        data = json.loads(payload)
        found.append(LightTable(str(data["name"]), proto.id, data))
    return found


def light_table(at: AppTest, key: str) -> LightTable:
    """The light table drawn under ``key``."""
    tables = {table.key: table for table in light_tables(at)}
    assert key in tables, f"no light table {key!r}: {sorted(tables)}"
    return tables[key]


def _trigger(at: AppTest, key: str, event: str, value: Any) -> AppTest:
    """Run the page as after the browser sent ``event`` with ``value`` from the table ``key``."""
    table = light_table(at, key)
    states = WidgetStates()
    states.CopyFrom(at._tree.get_widget_states())
    state = states.widgets.add()
    state.id = TRIGGERS.format(id=table.element_id)
    state.json_trigger_value = json.dumps([{"event": event, "value": value}])
    at._run(states)
    assert not at.exception, [e.value for e in at.exception]
    return at


def click_row(at: AppTest, key: str, row: int) -> AppTest:
    """Click row ``row`` (its place in the page's own order) of the table ``key``."""
    return _trigger(at, key, "row", row)


def ask_for_grid(at: AppTest, key: str) -> AppTest:
    """Click the table's "Interactive tables" button."""
    return _trigger(at, key, "grid", True)


def ask_for_all(at: AppTest, key: str) -> AppTest:
    """Click the table's button that asks for all its rows (a page sent the first ones)."""
    return _trigger(at, key, "more", True)
