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
from msgspec import UNSET

from manillen_replay.analysis import DetectorError, Finding, analyse, analyse_record, parse_coach_detector
from manillen_replay.analysis.findings import COST_THRESHOLDS, Category, Severity, sort_key
from manillen_replay.engine import decode_and_replay, replay
from manillen_replay.record import Record
from manillen_replay.store import Store
from manillen_replay.store.analyse import analyse_archive

from .test_analysis import called, full_deal, hands_with, of_kind, play_out, record
from .test_detectors import FIVE_TRUMP_KNOCK

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


# --------------------------------------------------------------------------- detectors.py: the calls


def test_the_call_findings_say_in_full_what_the_call_would_have_changed() -> None:
    """klop_missed, muil_missed and a sound klop_lost as a player reads them, in both languages,
    with the deal they are about and a severity from the call thresholds (docs/findings.md)."""
    (missed,) = of_kind(analyse_record(full_deal(strong_seat=0, dealer=1, trump="D")), "klop_missed")
    assert (missed.deal, missed.seat, missed.points, missed.severity) == (1, 0, 30, Severity.BLUNDER)
    assert missed.explanation == (
        "Anna held 5 trumps (10♦ A♦ K♦ Q♦ J♦) and the team won deal 1 with 30 points without knocking: "
        "klop would have made it 60 (30 more)."
    )
    assert missed.explanation_nl == (
        "Anna had 5 troeven (koeken manille, aas, heer, vrouw en boer) en de ploeg won spel 1 met 30 punten "
        "zonder te kloppen: met klop was dat 60 geworden (30 meer)."
    )
    (muil,) = of_kind(analyse_record(full_deal(strong_seat=1, dealer=1, trump="D")), "muil_missed")
    assert (muil.deal, muil.seat, muil.points, muil.severity) == (1, 1, 21, Severity.BLUNDER)
    assert muil.explanation == (
        "Bert dealt with 4 manilles (10♥ 10♦ 10♣ 10♠), made diamonds trump and won 21 points: muil would "
        "have counted double, 42 (21 more), had the cards fallen the same way."
    )
    assert muil.explanation_nl == (
        "Bert deelde met 4 manilles (harten, koeken, klaveren en schoppen), maakte koeken troef en won 21 "
        "punten: muil had dubbel geteld, 42 (21 meer), als de kaarten hetzelfde gevallen waren."
    )
    rec = record(FIVE_TRUMP_KNOCK, play_out(FIVE_TRUMP_KNOCK, 1, "D"), calls=[(2, "klop")])
    (sound,) = of_kind(analyse(replay(rec), rec), "klop_lost")
    assert (sound.deal, sound.seat, sound.points, sound.severity) == (1, 2, 0, Severity.INFO)
    assert sound.explanation == (
        "Carla knocked (klop) on deal 1 and lost it: the opponents scored 18 instead of 9 (9 more). "
        "Carla held 5 trumps: knocking was the right call, and the cards, not the call, lost the deal."
    )
    assert sound.explanation_nl == (
        "Carla klopte in spel 1 en verloor: de tegenstanders scoorden 18 in plaats van 9 (9 meer). "
        "Carla had 5 troeven: kloppen was juist, en de kaarten, niet de klop, verloren het spel."
    )


def test_a_dealing_team_that_wins_with_five_trumps_missed_no_klop() -> None:
    """The non-dealing team knocks first (klop); the dealing team can only answer (tegenklop). Bert
    deals holding five trumps and his team wins: nothing to knock, so no klop_missed."""
    rec = full_deal(strong_seat=1, dealer=1, trump="D")
    deal = replay(rec).deals[0]
    assert deal.score is not None and deal.score.team == 1 and deal.knocks == 0
    assert of_kind(analyse_record(rec), "klop_missed") == []


def test_a_knock_is_sound_only_when_the_knocker_held_the_five_trumps() -> None:
    """Anna knocks while her partner Carla holds the five trumps, and they lose: Anna's knock is
    judged by what it cost (the five trumps were not in her hand)."""
    rec = record(FIVE_TRUMP_KNOCK, play_out(FIVE_TRUMP_KNOCK, 1, "D"), calls=[(0, "klop")])
    (finding,) = of_kind(analyse(replay(rec), rec), "klop_lost")
    assert (finding.seat, finding.player, finding.points, finding.severity) == (
        0,
        "Anna",
        9,
        Severity.MISTAKE,
    )
    assert "right call" not in finding.explanation


def test_a_knock_on_a_deal_recorded_without_hands_is_judged_from_the_cards_played() -> None:
    """A whole deal recorded without its hands still shows them in its tricks: Carla's five trumps
    make her lost knock a sound one, as when the hands were written down."""
    rec = record(FIVE_TRUMP_KNOCK, play_out(FIVE_TRUMP_KNOCK, 1, "D"), calls=[(2, "klop")])
    rec.deals[0].hands = UNSET
    (finding,) = of_kind(analyse(replay(rec), rec), "klop_lost")
    assert (finding.seat, finding.points, finding.severity) == (2, 0, Severity.INFO)
    assert "Carla held 5 trumps" in finding.explanation


def test_the_knocker_of_a_later_deal_is_named_from_that_deals_calls() -> None:
    """In the second deal Anna knocks and loses: the finding names her, read from the second deal's
    declarations (the first deal had no knock)."""
    first = full_deal(strong_seat=0, dealer=0, trump="D")
    second = record(FIVE_TRUMP_KNOCK, play_out(FIVE_TRUMP_KNOCK, 1, "D"), calls=[(0, "klop")])
    match = Record(format="manillen/1", match=first.match, deals=[*first.deals, *second.deals])
    (finding,) = of_kind(analyse(replay(match), match), "klop_lost")
    assert (finding.deal, finding.seat, finding.player) == (2, 0, "Anna")


def test_a_knock_the_cap_made_worthless_cost_nothing_and_is_not_reported() -> None:
    """Under max_multiplier 2, Carla's klop on an en face deal (already x2) changes nothing: her
    team loses, but the knock did not cost a point. Under 4 it doubled the opponents' score."""
    for cap, cost in ((2, None), (4, 2)):
        rec = called(
            full_deal(strong_seat=1, dealer=1, trump="D"),
            [(1, "en_face", None), (3, "trump", "D"), (2, "klop", None)],
            cafe={"en_face": True},
            max_multiplier=cap,
        )
        deal = replay(rec).deals[0]
        assert deal.score is not None and deal.score.team == 1 and deal.knocks == 1
        found = of_kind(analyse(replay(rec), rec), "klop_lost")
        if cost is None:
            assert found == []
        else:
            (finding,) = found
            assert finding.points == deal.score.points / cost


def test_muil_missed_counts_the_opponents_knock_only_where_klop_on_muil_is_played() -> None:
    """Carla knocks, Bert deals with four manilles, makes trump and wins x2. Where a knock on muil
    counts (klop_on_muil), muil would have counted x4: muil_missed; where it does not, muil would
    have counted x2, the same: nothing missed."""
    for klop_on_muil, points in ((True, 42), (False, None)):
        rec = called(
            full_deal(strong_seat=1, dealer=1, trump="D"),
            [(1, "trump", "D"), (2, "klop", None)],
            klop_on_muil=klop_on_muil,
        )
        found = of_kind(analyse(replay(rec), rec), "muil_missed")
        assert [f.points for f in found] == ([] if points is None else [points])


def test_muil_missed_with_exactly_three_manilles() -> None:
    """docs/findings.md, muil_missed: "three or more manilles"."""
    hands = hands_with(1)
    hands[1] = hands[1].replace("10S", "9S")
    hands[0] = hands[0].replace("9S", "10S")
    rec = record(hands, play_out(hands, 1, "D"), dealer=1)
    assert replay(rec).deals[0].score.team == 1  # type: ignore[union-attr]
    (finding,) = of_kind(analyse_record(rec), "muil_missed")
    assert finding.seat == 1 and "3 manilles" in finding.explanation


def test_a_muil_won_or_knocked_by_the_opponents_is_judged_as_a_muil() -> None:
    """A muil deal has no trump: no klop_missed however it ends, and a lost knock on it (klop on
    muil) is still a klop_lost."""
    won_by_opponents = full_deal(strong_seat=0, dealer=1, trump=None)
    assert replay(won_by_opponents).deals[0].score.team == 0  # type: ignore[union-attr]
    assert [f.kind for f in analyse_record(won_by_opponents)] == []
    knocked = called(
        full_deal(strong_seat=1, dealer=1, trump=None),
        [(1, "muil", None), (2, "klop", None)],
        klop_on_muil=True,
    )
    deal = replay(knocked).deals[0]
    assert deal.score is not None and deal.multiplier == 4
    (finding,) = of_kind(analyse(replay(knocked), knocked), "klop_lost")
    assert (finding.deal, finding.seat, finding.points) == (1, 2, deal.score.points / 2)


# --------------------------------------------------------------------------- detectors.py: rules, scoresheet


def test_the_illegal_plays_and_the_wrong_scoresheet_of_the_sample_read_in_full() -> None:
    """The shipped sample of illegal plays, finding by finding, as ``manillen findings`` tells them
    (docs/findings.md): who played what in which trick, over whose winning card, which cards were
    legal, in English and in Dutch; each fault at the price the table would have charged."""
    said = {
        f.kind: (
            f.deal,
            f.severity.value,
            f.points,
            [str(c) for c in f.better],
            f.explanation,
            f.explanation_nl,
        )
        for f in _illegal_plays()
        if f.kind != "muil_missed"
    }
    assert said == {
        "revoke": (
            1, "blunder", 30.0, ["9D"],
            "Anna played 8♥ in trick 2 while still holding diamonds: that is a revoke (verzaken). "
            "Legal was: 9♦.",
            "Anna speelde de harten acht in slag 2 met nog koeken in de hand: dat is verzaken. "
            "Toegelaten was: koeken negen.",
        ),
        "score_mismatch": (
            2, "inaccuracy", 2.0, [],
            "Deal 2: the scoresheet says 17 for Anna & Carla, the cards say 15 for Anna & Carla "
            "(2 points apart).",
            "Spel 2: op het scoreblad staat 17 voor Anna & Carla, de kaarten zeggen 15 voor Anna & Carla "
            "(2 punten verschil).",
        ),
        "failed_to_overtake": (
            2, "blunder", 30.0, ["10S"],
            "Anna followed with 9♠ under Dirk's winning A♠ in trick 3 while able to beat it with 10♠: "
            "an opponent was winning, so overtaking was required.",
            "Anna volgde met de schoppen negen onder de winnende schoppen aas van Dirk in slag 3, terwijl de "
            "schoppen manille erover kon: een tegenstander won, dus was overnemen verplicht.",
        ),
        "failed_to_buy": (
            3, "blunder", 30.0, ["7C", "9C", "KC"],
            "Dirk, void in hearts, played 9♠ in trick 3 while Carla was winning with 8♥: an opponent was "
            "winning, so buying (kopen) with K♣ 9♣ 7♣ was required.",
            "Dirk had geen harten meer en speelde de schoppen negen in slag 3 terwijl Carla won met de "
            "harten acht: een tegenstander won, dus was kopen met de klaveren heer, negen en zeven "
            "verplicht.",
        ),
        "illegal_underbuy": (
            4, "blunder", 30.0, ["JC", "KS"],
            "Carla underbought (onderkopen) with 7♠ below 8♠ in trick 6 while holding other cards that "
            "were allowed: K♠ J♣.",
            "Carla kocht onder (onderkopen) met de schoppen zeven onder de schoppen acht in slag 6, terwijl "
            "andere kaarten mochten: schoppen heer en klaveren boer.",
        ),
    }  # fmt: skip


def _both(finding: Finding) -> tuple[str, str]:
    return finding.explanation, finding.explanation_nl
