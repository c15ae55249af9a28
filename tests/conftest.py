"""Shared fixtures: an empty archive, and a sample archive imported once per test session.

Fixtures (names are stable; other test files rely on them):

- ``store``: a fresh, empty in-memory :class:`~manillen_replay.store.Store` per test; write freely.
- ``sample_records``: the sample matches as canonical JSON Lines lines (``list[str]``, valid only).
- ``sample_archive``: a ``.jsonl`` file holding the sample matches plus one bad line
  (``BAD_LINE`` at line ``BAD_LINE_NUMBER``), written once per session.
- ``sample_store``: an in-memory Store with ``sample_archive`` imported, once per session.
  Read-mostly: do not import into it or change it. ``user_query`` turns off file access for the
  Store it runs on (DuckDB cannot turn it back on), so export from a Store of your own.
- ``sample_db``: the path of a DuckDB file with ``sample_archive`` imported, closed, once per
  session: open it read-only (``Store(sample_db, read_only=True)``) or copy it before writing.
- ``chromium``: one Chromium (Playwright) for the test file that asks for it, its profile kept
  on disk as a person's browser keeps it (one profile for all the files a test process runs,
  their dashboards served at one address, ``tests.test_browser.kept_port``, so that a file's
  first page finds Streamlit's scripts cached): ``chromium.new_page(...)`` gives a tab (the one an
  earlier test was done with, emptied, as a person goes on in the tab they have),
  ``chromium.new_context(...)`` a private window; after each test its windows are closed, its
  tabs emptied (the listeners it added removed) and its cookies and storage cleared (the cache of
  the pages' files stays).
- ``three_dummy_db``: the path of a DuckDB file with the shipped ``three_dummy`` sample, its
  costs set by hand (no solver) so that the dummy's card, the dealer's own and Bert's are costly
  (``THREE_DUMMY_COSTLY``), closed, once per session: open it read-only or copy it before writing.

The sample holds, on purpose: dated and undated matches in two years, muil and klop deals, a
scoresheet-only deal, a recorded score that disagrees with the cards, a penalty, annotations on
a deal, a trick and a play, and illegal plays (revokes and friends) by a sloppy player.

Markers (pyproject.toml declares them; ``make check`` leaves both out, ``make test`` runs all):

- ``browser``: drives a real Chromium (``pytestmark = pytest.mark.browser`` in the module).
- ``solver``: runs the numba solver, which compiles for a minute when its cache is cold. The
  doctests under ``manillen_replay/solver/`` get it here, by their path.

``make test`` runs the tests on two processes (pytest-xdist, ``--dist loadfile``): each file runs
whole in one process, so a module-scoped fixture is built once, but a session-scoped one is built
once per process, and two files may run at the same time: write to ``tmp_path``, take a free port.
"""

from __future__ import annotations

import datetime
import os
import random
import shutil
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from hypothesis import HealthCheck, settings

from bench.suite_timeline import ENVIRONMENT as TIMELINE_ENVIRONMENT
from bench.suite_timeline import Recorder
from manillen_replay.cards import CARD_TEXT, DECK_32_MASK, iter_mask, mask_of
from manillen_replay.record import (
    Annotation,
    Deal,
    Declaration,
    MatchInfo,
    Penalty,
    Record,
    RecordedScore,
    dumps,
)
from manillen_replay.rules import Rules
from manillen_replay.state import DealState
from manillen_replay.store import Store

from .factories import SEATS, random_deal, random_record

BAD_LINE = '{"format": "manillen/1", "match": {"seats": ["A", "B", "C", "D"]}, "deals": [{"dealer": 9}]}'
"""A record the importer must refuse: seat 9 does not exist."""

BAD_LINE_NUMBER = 4
"""The line of ``BAD_LINE`` in ``sample_archive``."""

SLOPPY_MATCH_ID = "sloppy-1"
"""The sample match with illegal plays."""


THREE_DUMMY = Path(__file__).resolve().parent.parent / "data" / "samples" / "variant-three-dummy.json"
"""The shipped sample of ``three_dummy``: one deal, Anna deals and plays her dummy (seat 3) too."""

THREE_DUMMY_COSTLY = ((3, 1), (3, 3), (4, 4))
"""The plays ``three_dummy_db`` makes costly, as (trick, place in the trick): the dummy's card,
the dealer's own card and Bert's."""

TWO_OPEN = THREE_DUMMY.parent / "variant-two-open.json"
"""The shipped sample of ``two_open``: one deal, Anna and Bert each with four table piles."""

TWO_OPEN_COSTLY = ((1, 2), (5, 2), (13, 2))
"""The plays ``two_open_db`` makes costly: Anna's KD and Bert's JD, both from their table piles,
and Bert's KH just after he moved his third pile's AH to his emptied fourth place (the 9C under
it turned up)."""


# No test passes or fails by the machine's speed: hypothesis gives an example no deadline and does
# not fail a test whose data takes long to draw (both are its defaults on a busy machine).
settings.register_profile("any-speed", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("any-speed")

SOLVER_DOCTESTS = Path(__file__).resolve().parent.parent / "manillen_replay" / "solver"
"""The solver's own modules: their doctests run it."""


def pytest_configure(config: pytest.Config) -> None:
    # `MANILLEN_TEST_TIMELINE=/tmp/timeline make test`: each process writes when each test ran,
    # for `python -m bench.suite_timeline /tmp/timeline` (where the two processes wait).
    prefix = os.environ.get(TIMELINE_ENVIRONMENT)
    if prefix:
        config.pluginmanager.register(Recorder(prefix), "suite-timeline")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if isinstance(item, pytest.DoctestItem) and item.path.is_relative_to(SOLVER_DOCTESTS):
            item.add_marker(pytest.mark.solver)


# Streamlit's AppTest gives each run a new, empty script cache, so every run of a page (every
# tap of a test) parsed the entry point and the page again, rewrote them for Streamlit's magic and
# compiled them: two thirds of the processor time of a run of the Record page in AppTest. A running
# server compiles each script once (dashboards/serve.py keeps them). AppTest's runs here share one
# cache per process, keyed by the script's path and text, so a script changed on disk is compiled
# again; the bytecode executed is the same.
APP_TEST_MODULES = ("streamlit.testing.v1.app_test", "streamlit.testing.v1.local_script_runner")
"""The modules of AppTest that make a new ``ScriptCache`` for each run."""


def _share_app_test_script_cache() -> None:
    modules = [sys.modules.get(name) for name in APP_TEST_MODULES]
    if not all(modules) or all(getattr(m, "ScriptCache", None) is _shared_script_cache for m in modules):
        return
    from streamlit import config
    from streamlit.runtime.scriptrunner.script_cache import ScriptCache

    class ScriptCacheByText(ScriptCache):
        """A script cache whose entries are the script's path and text (and whether magic is on, which
        changes the bytecode): an edited script compiles again."""

        def get_bytecode(self, script_path: str) -> Any:
            path = os.path.abspath(script_path)
            source = (Path(path).read_bytes(), config.get_option("runner.magicEnabled"))
            with self._lock:
                known = self._cache.get(path)
                if known is not None and known[0] == source:
                    return known[1]
            code = ScriptCache().get_bytecode(path)
            with self._lock:
                self._cache[path] = (source, code)
            return code

    global _SHARED_SCRIPT_CACHE
    _SHARED_SCRIPT_CACHE = ScriptCacheByText()
    for module in modules:
        module.ScriptCache = _shared_script_cache  # type: ignore[union-attr]

    # Each new AppTest also looked through every installed package for Streamlit components
    # (0.06 processor seconds, for none found): the packages installed do not change in a run.
    from streamlit.components.v2 import manifest_scanner

    scan = manifest_scanner.scan_component_manifests
    found: list[Any] = []

    def scan_once(max_workers: int | None = None) -> list[Any]:
        if not found:
            found.append(scan(max_workers))
        return list(found[0])

    manifest_scanner.scan_component_manifests = scan_once


_SHARED_SCRIPT_CACHE: Any = None


def _shared_script_cache() -> Any:
    return _SHARED_SCRIPT_CACHE


def pytest_runtest_setup(item: pytest.Item) -> None:
    _share_app_test_script_cache()  # once AppTest is imported (by the test modules that use it)


def sloppy_deal(rng: random.Random, dealer: int, slip: float = 0.3) -> Deal:
    """A complete deal where each card is, with chance ``slip``, any card of the hand (often illegal)."""
    rules = Rules()
    deck = list(iter_mask(DECK_32_MASK))
    rng.shuffle(deck)
    hands = tuple(mask_of(deck[i * 8 : (i + 1) * 8]) for i in range(4))
    trump = rng.randrange(4)
    state = DealState.start(rules, dealer, trump, hands)
    tricks: list[list[str]] = []
    current: list[str] = []
    while not state.is_over:
        pool = state.playable(state.to_play) if rng.random() < slip else state.legal_mask()
        card = rng.choice(list(iter_mask(pool)))
        current.append(CARD_TEXT[card])
        state = state.apply(card)
        if not state.trick:
            tricks.append(current)
            current = []
    return Deal(
        dealer=dealer,
        hands=[[CARD_TEXT[c] for c in iter_mask(h)] for h in hands],
        declarations=[Declaration(seat=dealer, call="trump", suit="HDCS"[trump])],
        tricks=tricks,
    )


def _sample_matches() -> list[Record]:
    matches = []
    for seed in range(6):
        record = random_record(seed, deals=12)
        if seed % 3 != 2:  # every third match undated
            record.match.date = datetime.date(2025 + seed % 2, 1 + seed, 10 + seed)
        record.match.venue = "Cafe De Zwaan" if seed % 2 else "Het Hof"
        matches.append(record)

    # Muil and klop deals, a scoresheet line, a wrong scoresheet, a penalty and annotations.
    rng = random.Random(99)
    special = random_record(100, deals=6)
    special.match.id = "special-1"
    special.match.date = datetime.date(2026, 3, 14)
    special.deals[1] = random_deal(rng, 1, trump=None)
    knocked = special.deals[2]
    assert isinstance(knocked.declarations, list)
    knocked.declarations = [*knocked.declarations, Declaration(seat=(knocked.dealer + 1) % 4, call="klop")]
    special.deals[3].recorded_score = RecordedScore(team=0, points=99)
    special.deals[4].penalties = [Penalty(team=1, points=30, reason="looked at cards before trump")]
    special.deals[0].annotations = [
        Annotation(author="coach", text="Whole deal: well played."),
        Annotation(trick=2, author="coach", text="Trick two.", tags=["tempo"]),
        Annotation(trick=3, play=2, author="Anna", text="Good vetten.", tags=["good", "vetten"]),
    ]
    special.deals.append(Deal(dealer=2, recorded_score=RecordedScore(team=1, points=12)))
    matches.append(special)

    rng = random.Random(7)
    sloppy = Record(
        format="manillen/1",
        match=MatchInfo(id=SLOPPY_MATCH_ID, date=datetime.date(2026, 5, 1), seats=list(SEATS)),
        deals=[sloppy_deal(rng, i % 4) for i in range(8)],
    )
    matches.append(sloppy)
    return matches


@pytest.fixture(scope="session")
def sample_records() -> list[str]:
    """The sample matches, one canonical JSON Lines line each (without the bad line)."""
    return [dumps(record, pretty=False) for record in _sample_matches()]


@pytest.fixture(scope="session")
def sample_archive(sample_records: list[str], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A JSON Lines archive of the sample matches with ``BAD_LINE`` at line ``BAD_LINE_NUMBER``."""
    lines = list(sample_records)
    lines.insert(BAD_LINE_NUMBER - 1, BAD_LINE)
    path = tmp_path_factory.mktemp("sample") / "sample.jsonl"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


SAMPLE_FINDINGS = [
    {"match_id": SLOPPY_MATCH_ID, "deal": 1, "trick": 1, "play": 2, "seat": 2, "player": "Carla",
     "kind": "missed_vetten", "category": "strategy", "severity": "mistake", "card": "7H", "better": ["10H"],
     "points": 5.0, "explanation": "Your partner was winning: the 10 was worth 5 points.",
     "explanation_nl": "Je partner won de slag: de 10 was 5 punten waard."},
    {"match_id": "random-0", "deal": 2, "trick": None, "play": None, "seat": 0, "player": "Anna",
     "kind": "score_mismatch", "category": "scoring", "severity": "info", "card": None, "better": None,
     "points": None, "explanation": "The scoresheet differs from the cards.", "explanation_nl": None},
]  # fmt: skip
"""Two findings the sample archive holds (built-in detector), so findings queries have rows."""


def _fill(archive: Store, sample_archive: Path) -> None:
    archive.import_paths([sample_archive])
    archive.save_findings([SLOPPY_MATCH_ID, "random-0"], pl.DataFrame(SAMPLE_FINDINGS))


@pytest.fixture
def store() -> Iterator[Store]:
    """A fresh, empty in-memory archive."""
    with Store() as fresh:
        yield fresh


@pytest.fixture(scope="session")
def sample_store(sample_archive: Path) -> Iterator[Store]:
    """The sample archive imported into memory once per session; read-mostly."""
    with Store() as archive:
        _fill(archive, sample_archive)
        yield archive


@pytest.fixture(scope="session")
def sample_db(sample_archive: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A closed DuckDB file with the sample archive imported."""
    path = tmp_path_factory.mktemp("sample-db") / "sample.duckdb"
    with Store(path) as archive:
        _fill(archive, sample_archive)
    return path


@pytest.fixture
def sample_db_copy(sample_db: Path, tmp_path: Path) -> Path:
    """A private copy of ``sample_db`` that a test may write to."""
    target = tmp_path / "sample.duckdb"
    shutil.copyfile(sample_db, target)
    return target


def costed_by_hand(sample: Path, costly: Sequence[tuple[int, int]], path: Path) -> Path:
    """``sample`` (one deal) in a closed DuckDB file at ``path``, its costs set by hand: each play
    of ``costly`` (trick, place in the trick) scores 10 card points where a better card scores 14
    (its other legal cards 9), so it is a clear puzzle; its ``costly_card`` findings are made from
    those costs as the solver review makes them, and the match counts as reviewed by the solver
    (``manillen report`` reviews nothing first). No solver runs: it takes a fraction of a second."""
    from manillen_replay.analysis.costs import CardValue, PlayCost
    from manillen_replay.analysis.solver_findings import cost_findings
    from manillen_replay.cards import CardSet
    from manillen_replay.engine import decode_and_replay
    from manillen_replay.engine.report import seat_names
    from manillen_replay.record import Entry
    from manillen_replay.store.analyse import CALLS_SCHEMA, cost_frames, findings_frame

    text = sample.read_text(encoding="utf-8")
    result = decode_and_replay(text)
    deal = result.deals[0]
    costs = []
    for trick, play in costly:
        done = deal.tricks[trick - 1]
        seat, card = done.seats[play - 1], done.cards[play - 1]
        legal = list(CardSet(done.legal[play - 1]))
        best = next(c for c in legal if c != card)
        values = {c: CardValue(0, 10.0 if c == card else 14.0 if c == best else 9.0) for c in legal}
        costs.append(PlayCost(trick, play, seat, card, 4, 4.0, (best,), values, deal=deal.number, layouts=20))
    plays, values = cost_frames(result, {deal.number: costs})
    findings = cost_findings(costs, match=result.id, deal=deal, players=seat_names(result, deal))
    with Store(path) as archive:
        archive.import_entries([Entry(sample.name, None, text.encode())])
        archive.save_costs([result.id], plays, values, pl.DataFrame(schema=CALLS_SCHEMA))
        archive.save_findings([result.id], findings_frame(findings), depth="solver")
    return path


@pytest.fixture(scope="session")
def three_dummy_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``THREE_DUMMY`` with ``THREE_DUMMY_COSTLY`` costed by hand (:func:`costed_by_hand`)."""
    return costed_by_hand(
        THREE_DUMMY, THREE_DUMMY_COSTLY, tmp_path_factory.mktemp("three-dummy") / "three.duckdb"
    )


@pytest.fixture(scope="session")
def two_open_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``TWO_OPEN`` with ``TWO_OPEN_COSTLY`` costed by hand (:func:`costed_by_hand`)."""
    return costed_by_hand(TWO_OPEN, TWO_OPEN_COSTLY, tmp_path_factory.mktemp("two-open") / "two.duckdb")


@pytest.fixture(scope="session")
def _chromium_profiles(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of the kept profiles, one per test process: each file's Chromium starts with
    the cache the files before it left, as a person's browser opens the dashboard of the day
    before (served at the same address, :func:`tests.test_browser.kept_port`)."""
    return tmp_path_factory.mktemp("chromium")


@pytest.fixture(scope="module")
def _chromium_of_the_file(_chromium_profiles: Path) -> Iterator[Any]:
    """The Chromium that :func:`chromium` hands each test of a file. Per file, not per session:
    while one synchronous Playwright is open, another file's ``sync_playwright()`` in the same
    process refuses to start."""
    from .test_browser import kept_profile

    with kept_profile(_chromium_profiles) as browser:
        yield browser


@pytest.fixture
def chromium(_chromium_of_the_file: Any) -> Iterator[Any]:
    """One Chromium for a test file, as a person's browser with its profile kept on disk
    (:class:`tests.test_browser.KeptProfile`): ``new_page`` gives a tab, ``new_context`` a private
    window. After each test its windows are closed, its tabs emptied and the profile's cookies and
    sites' storage cleared, so a test sees nothing of another but the cache of the pages' files."""
    yield _chromium_of_the_file
    _chromium_of_the_file.forget()
