"""Who is visiting the dashboard, and what they may do: the organiser, a table's recorder, a viewer.

Served on this computer only (``manillen dashboard`` without ``--host``) the one visitor is the
organiser. Served beyond it, a visitor's token decides the role (see ``manillen dashboard --help``).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Role(enum.Enum):
    """What a visitor came as."""

    ORGANISER = "organiser"
    """Everything: the SQL console, uploads, settings, deletions, every table's Record page."""
    RECORDER = "recorder"
    """One table's Record page and the read-only pages."""
    VIEWER = "viewer"
    """The read-only pages and the standings."""


@dataclass(frozen=True)
class Visitor:
    """A visitor's role and, for a recorder, the table they record."""

    role: Role
    table: str | None = None

    @property
    def is_organiser(self) -> bool:
        """Whether this visitor may run SQL, upload, change settings and delete.

        >>> Visitor(Role.ORGANISER).is_organiser, Visitor(Role.VIEWER).is_organiser
        (True, False)
        """
        return self.role is Role.ORGANISER

    def may_record(self, table: str) -> bool:
        """Whether this visitor may record (and read the draft of) ``table``.

        >>> Visitor(Role.RECORDER, "2").may_record("2"), Visitor(Role.RECORDER, "2").may_record("3")
        (True, False)
        >>> Visitor(Role.VIEWER).may_record("1")
        False
        """
        return self.role is Role.ORGANISER or (self.role is Role.RECORDER and self.table == table)


LOCAL_VISITOR = Visitor(Role.ORGANISER)
"""The one visitor of a dashboard served on this computer only."""


def current_visitor() -> Visitor:
    """The visitor of the running Streamlit session."""
    return LOCAL_VISITOR
