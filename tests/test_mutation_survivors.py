"""Behaviours that a mutation audit showed no test would defend: each test here fails on that change.

The audit broke the code one plausible slip at a time and kept the slips the suite let through
(docs/findings.md and the dashboard guide promise each behaviour below).
"""

from __future__ import annotations

import itertools
import re
import sys
from collections import Counter
from datetime import date
from pathlib import Path

import pytest

from manillen_replay.analysis import analyse_record, detectors
from manillen_replay.analysis.findings import Thresholds
from manillen_replay.engine import replay
from manillen_replay.players import parse_players
from manillen_replay.players.generate import GenerateOptions, iter_matches
from manillen_replay.store import Store

from .test_analysis import hands_with, of_kind, play_out, record

DOCS = Path(__file__).resolve().parent.parent / "docs"
DATA = DOCS.parent / "data"


def test_klop_missed_needs_five_trumps_in_one_hand_four_are_not_enough() -> None:
    """docs/findings.md, klop_missed: "holding five or more trumps in one hand". Anna's fifth
    trump (J♦) goes to Bert for his 9♠: her team still wins, but four trumps are no klop hand."""
    hands = hands_with(0)
    hands[0] = hands[0].replace("JD", "9S")
    hands[1] = hands[1].replace("9S", "JD")
    rec = record(hands, play_out(hands, 1, "D"), dealer=1)
    deal = replay(rec).deals[0]
    assert deal.score is not None and deal.score.team == 0
    assert of_kind(analyse_record(rec), "klop_missed") == []


def _documented_thresholds() -> dict[str, Thresholds]:
    """Each detector's severity thresholds as the table in docs/findings.md gives them."""
    table: dict[str, Thresholds] = {}
    for line in (DOCS / "findings.md").read_text().splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 6 or not cells[0].startswith("`"):
            continue
        numbers = [re.search(r"≥ (\d+(?:\.\d+)?)", cell) for cell in cells[3:]]
        if not all(numbers):
            continue
        levels = Thresholds(*(float(n.group(1)) for n in numbers if n))
        for kind in re.findall(r"`(\w+)`", cells[0]):
            table[kind] = levels
    return table


@pytest.mark.parametrize(
    ("kind", "applied"),
    [
        ("revoke", detectors.RULE_THRESHOLDS),
        ("score_mismatch", detectors.SCORE_THRESHOLDS),
        ("missed_vetten", detectors.CARD_THRESHOLDS),
        ("wasted_trump", detectors.CARD_THRESHOLDS),
        ("klop_missed", detectors.CALL_THRESHOLDS),
        ("muil_missed", detectors.CALL_THRESHOLDS),
    ],
)
def test_the_severity_thresholds_applied_are_the_documented_ones(kind: str, applied: Thresholds) -> None:
    """A player reads docs/findings.md to know why a finding is a blunder: the numbers there must
    be the ones the detectors apply."""
    documented = _documented_thresholds()[kind]
    assert (applied.inaccuracy, applied.mistake, applied.blunder) == (
        documented.inaccuracy,
        documented.mistake,
        documented.blunder,
    )


def test_a_club_evening_rotates_partners_so_each_player_partners_every_other_once() -> None:
    """docs/generate.md: a table drawn from a larger pool plays its evening's first three matches
    with its first player partnering each of the other three in turn (the club format)."""
    players = tuple(parse_players("Anna:club,Bert:club,Carla:club,Dirk:club,Els:club,Frans:club"))
    evenings: dict[object, list[list[str]]] = {}
    for generated in itertools.islice(iter_matches(GenerateOptions(players=players, seed=3)), 40):
        evenings.setdefault(generated.record.match.date, []).append(list(generated.record.match.seats))
    long_evenings = [seatings for seatings in evenings.values() if len(seatings) >= 3]
    assert long_evenings
    for seatings in long_evenings:
        table = set(seatings[0])
        assert all(set(seats) == table for seats in seatings)
        partnerships: Counter[frozenset[str]] = Counter()
        for seats in seatings[:3]:
            partnerships[frozenset((seats[0], seats[2]))] += 1
            partnerships[frozenset((seats[1], seats[3]))] += 1
        assert partnerships == Counter({frozenset(pair): 1 for pair in itertools.combinations(table, 2)})


def test_a_draft_that_fails_to_save_leaves_the_last_saved_one_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A phone's battery dies, or the disk fills, while a draft is written: the deals saved
    before must still be there (a draft is written beside and renamed over, never in place)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from dashboards import drafts
    from dashboards.recording import Draft, Setup

    draft = Draft(
        draft_id=drafts.new_id(), setup=Setup(match_id="m", seats=["Anna", "Bert", "Carla", "Dirk"])
    )
    drafts.save(draft, tmp_path)
    changed = Draft(
        draft_id=draft.draft_id,
        setup=Setup(match_id="m", seats=["Anna", "Bert", "Carla", "Els"]),
        version=draft.version,  # the phone's next tap on the version it read
    )

    real_write = Path.write_text

    def dying_write(self: Path, text: str, *args: object, **kwargs: object) -> int:
        real_write(self, text[: len(text) // 2], *args, **kwargs)  # type: ignore[arg-type]
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Path, "write_text", dying_write)
    with pytest.raises(OSError):
        drafts.save(changed, tmp_path)
    monkeypatch.undo()
    kept = drafts.load(draft.draft_id, tmp_path)
    assert kept is not None and kept.setup.seats == ["Anna", "Bert", "Carla", "Dirk"]


@pytest.fixture(scope="module")
def sample_archive_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shipped sample matches in an archive file (they span several days)."""
    path = tmp_path_factory.mktemp("dates") / "samples.duckdb"
    with Store(path) as store:
        store.import_paths([DATA / "samples"])
    return path


def test_the_archive_date_filter_keeps_the_matches_of_its_first_and_last_day(
    sample_archive_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Archive page's date range is inclusive: choosing one day shows that day's matches."""
    import streamlit as st

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from dashboards import data

    monkeypatch.setenv(data.DB_ENVIRONMENT, str(sample_archive_file))
    monkeypatch.setattr(sys, "argv", ["streamlit_app.py"])
    st.cache_data.clear()
    every = data.matches()
    day: date = every["date"].drop_nulls()[0]
    on_the_day = every.filter(every["date"] == day)["match_id"].sort().to_list()
    assert data.matches(dates=(day, day))["match_id"].sort().to_list() == on_the_day
    earliest, latest = every["date"].min(), every["date"].max()
    assert data.matches(dates=(earliest, latest)).height == every.drop_nulls("date").height


def test_the_ledger_waterfall_walks_from_the_cards_to_the_points_taken() -> None:
    """docs/solver.md, "Luck and skill": points = cards − given away − the partner's given away +
    won back + illegal cards. The waterfall's bars must add up that way, each step with its sign."""
    from manillen_replay.report import svg

    ledger = {
        "cards": 40,
        "given_away": 5,
        "partner_given_away": 3,
        "won_back": 2,
        "illegal": -4,
        "points": 30,
    }
    names = {name: name for name in svg.LEDGER_STEPS}
    steps = svg.ledger_steps(ledger, names)
    spans = svg.waterfall_spans(steps)
    assert [step.label for step in steps] == list(svg.LEDGER_STEPS)
    # each bar starts where the one before it ended, and the last step lands on the points
    assert spans[1:-1] == [(40, 35), (35, 32), (32, 34), (34, 30)]
    assert spans[-2][1] == spans[-1][1] == ledger["points"]
