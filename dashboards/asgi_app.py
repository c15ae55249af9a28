"""The dashboard as Streamlit serves it for ``manillen dashboard``: ``st.App`` over the entry point.

``streamlit run dashboards/asgi_app.py`` finds :data:`app` and serves ``streamlit_app.py`` with one
addition, :class:`BaseAddress`, which puts a ``<script>`` first in each page document telling the
page two things Streamlit's frontend would otherwise ask the server for before it opens its
websocket (``window.__streamlit``, Streamlit's settings for pages served by a host):

- where the server is (``BACKEND_BASE_URL``). A page's address is a path (``/sql``, ``/replay``),
  and the page cannot tell whether that path is the page or the folder the server lives under: in
  each new tab it would first ask ``/sql/_stcore/health``, get a 404, wait a tenth of a second and
  ask again at ``/``.
- the server's host configuration (``HOST_CONFIG``, what ``/_stcore/host-config`` answers). Given
  both, the page opens its websocket at once and asks health and host-config in the background,
  instead of waiting for their answers first.

A server with its own prefix (``server.baseUrlPath``) is handled the same way. ``streamlit run
dashboards/streamlit_app.py`` still works; its tabs ask before connecting, as Streamlit does.
"""

from __future__ import annotations

import sys
from pathlib import Path

_ROOT = str(Path(__file__).resolve().parent.parent)
if _ROOT not in sys.path:  # ``streamlit run dashboards/asgi_app.py`` puts dashboards/ on the path only
    sys.path.insert(0, _ROOT)

import streamlit as st  # noqa: E402

from dashboards.serve import page_middleware  # noqa: E402

# written out as ``app = st.App(...)``: ``streamlit run`` looks for that assignment in the source
app = st.App(Path(__file__).resolve().parent / "streamlit_app.py", middleware=page_middleware())
"""The dashboard's ASGI app, found by ``streamlit run`` (see the module's description)."""
