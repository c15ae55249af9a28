"""The Streamlit dashboard of manillen-replay: ``manillen dashboard`` runs ``streamlit_app.py``.

The modules beside the pages are plain Python so that tests and the benchmark can import them:
``steps`` (a deal as a list of moments), ``cards`` (cards as HTML), ``charts`` (Plotly figures),
``i18n`` (labels in English and Dutch) and ``data`` (cached access to the archive).
"""
