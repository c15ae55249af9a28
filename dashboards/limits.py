"""The Archive page's upload limits, in a module without Streamlit: the server's start reads them
(``serve.py`` names the size in the upload box) before Streamlit's runtime exists."""

from __future__ import annotations

import os

UPLOAD_MAX_MB = "MANILLEN_UPLOAD_MAX_MB"
"""The environment variable that sets the largest upload the Archive page imports, in MiB
(default :data:`DEFAULT_UPLOAD_MAX_MB`; docs/dashboard.md)."""
UPLOAD_MAX_RECORDS = "MANILLEN_UPLOAD_MAX_RECORDS"
"""The environment variable that sets the most lines of a ``.jsonl`` upload (or matches of a
``.mnl`` one) the Archive page imports (default :data:`DEFAULT_UPLOAD_MAX_RECORDS`)."""
DEFAULT_UPLOAD_MAX_MB = 32
"""A club's season in JSON Lines is a few megabytes; a larger archive goes in by ``manillen import``."""
DEFAULT_UPLOAD_MAX_RECORDS = 10_000
"""Each record is decoded and replayed on the server: a file of a million ``{}`` lines took it
20 s and 2 GB before this limit."""


def upload_limits() -> tuple[int, int]:
    """The largest upload in bytes and the most records it may hold: the settings
    :data:`UPLOAD_MAX_MB` and :data:`UPLOAD_MAX_RECORDS`, or their defaults (a setting that is
    not a positive whole number is ignored)."""

    def setting(name: str, default: int) -> int:
        text = os.environ.get(name, "").strip()
        return int(text) if text.isdigit() and int(text) > 0 else default

    return setting(UPLOAD_MAX_MB, DEFAULT_UPLOAD_MAX_MB) * 2**20, setting(
        UPLOAD_MAX_RECORDS, DEFAULT_UPLOAD_MAX_RECORDS
    )
