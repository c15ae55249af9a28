"""What the mistake finder tells a player, and how it files it: the behaviours that mutation testing
of ``analysis/findings.py`` and ``analysis/detectors.py``
(``make mutate MODULE=manillen_replay/analysis/findings.py``) showed no other test defended."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from manillen_replay.analysis import DetectorError, Finding, analyse, parse_coach_detector
from manillen_replay.analysis.findings import COST_THRESHOLDS, Category, Severity, sort_key
from manillen_replay.engine import decode_and_replay
from manillen_replay.store import Store
from manillen_replay.store.analyse import analyse_archive

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "data" / "samples"


def _documented_json_fields() -> list[str]:
    """The field names of the finding in the ``manillen findings --json`` example of docs/findings.md."""
    text = (ROOT / "docs" / "findings.md").read_text()
    example = text.split("### JSON contract", 1)[1].split("```json", 1)[1].split("```", 1)[0]
    return json.loads(example)["findings"][0].keys()  # type: ignore[no-any-return]


def _illegal_plays() -> list[Finding]:
    """The findings of the shipped sample of illegal plays: cards, and whole-deal findings without one."""
    return analyse(decode_and_replay((SAMPLES / "illegal-plays.json").read_text()))


# --------------------------------------------------------------------------- findings.py


def test_a_coach_detector_with_an_unknown_severity_is_refused_with_the_four_it_may_use() -> None:
    """A coach who types ``-- severity: huge`` learns which words the header takes."""
    with pytest.raises(DetectorError) as refused:
        parse_coach_detector("-- name: late_manille\n-- severity: huge\nSELECT 1", "late.sql")
    assert str(refused.value) == "late.sql: unknown severity 'huge': use info, inaccuracy, mistake, blunder"


def test_a_finding_as_json_has_the_documented_fields_in_the_language_asked() -> None:
    """docs/findings.md: ``explanation`` in the language of ``--lang`` (English by default), both
    languages beside it, the detector that made it, and ``null`` for a whole-deal finding's card."""
    findings = _illegal_plays()
    documented = list(_documented_json_fields())
    for finding in findings:
        english, dutch = finding.to_json(), finding.to_json("nl")
        assert list(english) == documented == list(dutch)
        assert english["explanation"] == english["explanation_en"] == finding.explanation
        assert dutch["explanation"] == dutch["explanation_nl"] == finding.explanation_nl
        assert english["explanation"] != dutch["explanation"]
        assert english["detector"] == "builtin"
        assert english["card"] == (None if finding.card is None else str(finding.card))
    (mismatch,) = (f.to_json() for f in findings if f.kind == "score_mismatch")
    assert mismatch["card"] is None and '"card": null' in json.dumps(mismatch)
    revoke = next(f.to_json() for f in findings if f.kind == "revoke")
    assert revoke["card"] == "8H" and revoke["explanation"].startswith("Anna played 8♥")


def test_the_archive_keeps_each_finding_as_the_finder_made_it(tmp_path: Path) -> None:
    """``manillen analyze`` files the findings in the archive's ``findings`` table: read back,
    each is the finding the finder made from the record file, field by field."""
    sample = SAMPLES / "illegal-plays.json"
    made = _illegal_plays()
    with Store(tmp_path / "club.duckdb") as store:
        store.import_paths([sample])
        analyse_archive(store, depth="heuristic")
        rows = store.query(
            "SELECT match_id, deal, trick, play, seat, player, kind, category, severity, card, better, "
            "points, explanation, explanation_nl, detector FROM findings ORDER BY finding_id"
        ).rows(named=True)
    expected = [
        {
            "match_id": f.match,
            "deal": f.deal,
            "trick": f.trick,
            "play": f.play,
            "seat": f.seat,
            "player": f.player,
            "kind": f.kind,
            "category": f.category.value,
            "severity": f.severity.value,
            "card": None if f.card is None else str(f.card),
            "better": [str(card) for card in f.better],
            "points": f.points,
            "explanation": f.explanation,
            "explanation_nl": f.explanation_nl,
            "detector": "builtin",
        }
        for f in made
    ]
    assert sorted(rows, key=_row_order) == sorted(expected, key=_row_order)


def _row_order(row: Mapping[str, Any]) -> str:
    return json.dumps(row, sort_keys=True, default=str)


def _finding(kind: str, deal: int | None, trick: int | None, play: int | None) -> Finding:
    return Finding(
        kind=kind,
        category=Category.STRATEGY,
        severity=Severity.INFO,
        match="m",
        deal=deal,
        trick=trick,
        play=play,
        seat=None,
        player=None,
        card=None,
        better=(),
        points=0.0,
        explanation="",
        explanation_nl="",
    )


def test_findings_are_listed_whole_match_first_then_whole_deal_then_trick_then_play() -> None:
    """docs/findings.md: findings are ordered by deal, trick and play, a finding about a whole
    match before the deals and one about a whole deal or trick before its tricks' plays, whatever
    their kinds (a coach detector's findings may leave the trick or the play out)."""
    ordered = [
        _finding("z_whole_match", None, None, None),
        _finding("score_mismatch", 1, None, None),
        _finding("a_whole_trick", 1, 1, None),
        _finding("a_play", 1, 1, 1),
        _finding("a_later_play", 1, 1, 2),
        _finding("a_next_deal", 2, None, None),
    ]
    assert sorted(reversed(ordered), key=sort_key) == ordered
    assert [f.kind for f in sorted(ordered[::2] + ordered[1::2], key=sort_key)] == [f.kind for f in ordered]


def test_the_solver_judges_a_card_on_the_scale_docs_findings_gives_for_a_costly_card() -> None:
    """A player reads why a ``costly_card`` is a blunder in docs/findings.md; the same scale
    judges the card detectors at the solver depth."""
    row = next(
        line
        for line in (ROOT / "docs" / "findings.md").read_text().splitlines()
        if line.startswith("| `costly_card`")
    )
    documented = [float(n) for n in re.findall(r"≥ (\d+) (?:inaccuracy|mistake|blunder)", row)]
    assert documented == [COST_THRESHOLDS.inaccuracy, COST_THRESHOLDS.mistake, COST_THRESHOLDS.blunder]
