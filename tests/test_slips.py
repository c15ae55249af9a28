"""A slip in a record without hands is not blamed on a player (issue 31, item 16).

Without hands the replay infers each hand from the cards played, so two trick lines typed in
the wrong order make a legal game look illegal. When a small reordering of the lines (two lines
swapped, one moved, one line's cards rotated) makes every card legal, the play is reported as
``record_slip``: a rule broken, or a slip in the record, with the reordering. With hands, or
when no reordering helps, the rule finding stands.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec import UNSET

from manillen_replay.analysis import Category, Finding, Severity, analyse
from manillen_replay.analysis.record_slips import Reordering, find_slip
from manillen_replay.cards import Card
from manillen_replay.cli import cli
from manillen_replay.engine import replay
from manillen_replay.engine.inferred import first_illegal_play, is_legal_without_hands
from manillen_replay.record import Deal, Declaration, MatchInfo, Record, dumps, dumps_text, loads
from manillen_replay.rules import Rules

from .factories import SEATS, random_deal
from .test_words import CODE, ENGLISH

RULE_KINDS = {"revoke", "failed_to_overtake", "failed_to_buy", "illegal_underbuy"}

# Legal deals, each as played (dealer Dirk, hearts trump): Anna leads trick 1.
LEGAL_22 = [
    "7S KS 10S KH",
    "JH QH AH 8H",
    "9C 10C JC 8C",
    "9H 10H QS 8D",
    "AC 10D KC QC",
    "7D QD 9S JD",
    "8S JS AS 7H",
    "AD KD 7C 9D",
]
LEGAL_0 = [
    "JC AC 9C 7C",
    "10C AH 7S QC",
    "QH 8H 7H 9H",
    "8D 10D 9D AD",
    "QS KS 9S 8S",
    "JH 8C AS KD",
    "KH KC QD 10S",
    "10H JS JD 7D",
]
LEGAL_2 = [
    "KS QS 7S AS",
    "JH QH 10H AH",
    "QD KD JD 8S",
    "JS 9S 10S 8C",
    "9C AC JC 10C",
    "9H 7H 10D 8H",
    "KH QC AD 8D",
    "KC 7C 9D 7D",
]
HANDS_2 = [
    "7C 8S 9C 10S KS QC 7H QH",
    "9D 10H AD 8C AC QS 10D QD",
    "KD JS 8H 7S AH JC 7D 8D",
    "KC 10C KH 9S JD AS 9H JH",
]
# Bert really revoked in trick 1 (9♠ on a club lead while holding 8♣): no reordering helps.
REVOKE = [
    "JC 9S 9C 7C",
    "9D AD JD 10D",
    "KD 7H 9H 8D",
    "10C QH 10S QC",
    "QD 7D JH KC",
    "KS JS 8S 7S",
    "10H 8C AH 8H",
    "KH AC AS QS",
]


def record(tricks: list[str], hands: list[str] | None = None, *, dealer: int = 3, trump: str = "H") -> Record:
    """A one-deal match: these trick lines, and the hands only when given."""
    deal = Deal(
        dealer=dealer,
        declarations=[Declaration(seat=dealer, call="trump", suit=trump)],  # type: ignore[arg-type]
        tricks=[line.split() for line in tricks],
    )
    if hands is not None:
        deal.hands = [hand.split() for hand in hands]
    return Record(format="manillen/1", match=MatchInfo(id="slip", seats=list(SEATS)), deals=[deal])


def swapped(tricks: list[str], a: int, b: int) -> list[str]:
    """The lines with tricks ``a`` and ``b`` (counted from 1) typed the other way round."""
    lines = list(tricks)
    lines[a - 1], lines[b - 1] = lines[b - 1], lines[a - 1]
    return lines


def not_strategy(tricks: list[str], hands: list[str] | None = None) -> list[Finding]:
    return [f for f in analyse(replay(record(tricks, hands))) if f.category is not Category.STRATEGY]


def cards_of(tricks: list[str]) -> list[list[int]]:
    return [[int(Card.parse(c)) for c in line.split()] for line in tricks]


def test_the_deals_are_legal_as_played() -> None:
    for tricks in (LEGAL_22, LEGAL_0, LEGAL_2):
        assert replay(record(tricks)).violations == []
    assert replay(record(LEGAL_2, HANDS_2)).violations == []


def test_two_lines_swapped_are_a_slip_not_a_blunder() -> None:
    """Tricks 2 and 3 typed the other way round: as recorded Dirk's 8♥ fails to overtake Carla's
    A♥ (a 30-point blunder before); the finding says it may be a slip and names the swap."""
    tricks = swapped(LEGAL_22, 2, 3)
    (violation,) = replay(record(tricks)).violations  # the replay itself is unchanged
    assert violation.kind.value == "failed_to_overtake" and violation.seat == 3
    (finding,) = not_strategy(tricks)
    assert finding.kind == "record_slip"
    assert finding.category is Category.PROCEDURE and finding.severity is Severity.INFO
    assert finding.points == 0 and finding.better == ()
    assert (finding.trick, finding.play, finding.seat, finding.player, finding.card) == (
        3,
        4,
        3,
        "Dirk",
        Card.H8,
    )
    assert finding.explanation.startswith(
        "A rule broken by Dirk in trick 3, or a slip in the record: "
        "with tricks 2 and 3 the other way round every card is legal."
    )
    assert "As recorded: Dirk followed with 8♥ under Carla's winning A♥ in trick 3" in finding.explanation
    assert finding.explanation_nl.startswith(
        "Een regel gebroken door Dirk in slag 3, of een fout in de notatie: "
        "met slag 2 en 3 in omgekeerde volgorde is elke kaart toegelaten."
    )
    assert "Zoals genoteerd: Dirk volgde met de harten acht onder de winnende harten aas van Carla" in (
        finding.explanation_nl
    )
    # the card points change with the order: said in both languages
    assert "In that order Anna & Carla take 9 card points and Bert & Dirk 51, not 16 and 44" in (
        finding.explanation
    )
    assert "In die volgorde halen Anna & Carla 9 kaartpunten en Bert & Dirk 51, niet 16 en 44" in (
        finding.explanation_nl
    )


def test_no_rule_finding_with_points_is_blamed_on_a_player() -> None:
    for tricks in (swapped(LEGAL_22, 2, 3), swapped(LEGAL_0, 4, 7), swapped(LEGAL_2, 6, 7)):
        found = not_strategy(tricks)
        assert found and all(f.kind == "record_slip" for f in found), [f.kind for f in found]
        assert not [f for f in found if f.category is Category.RULE or f.points]


def test_the_slip_names_the_reordering_that_makes_it_legal() -> None:
    result = replay(record(swapped(LEGAL_22, 2, 3)))
    slip = find_slip(result.deals[0], result.rules)
    assert slip is not None
    assert (slip.kind, slip.trick, slip.other, slip.others) == (Reordering.SWAP, 2, 3, 0)
    assert slip.order == (1, 3, 2, 4, 5, 6, 7, 8)
    assert [list(t) for t in slip.tricks] == cards_of(LEGAL_22)
    assert is_legal_without_hands(slip.tricks, 3, 0, Rules())
    assert slip.points == (9, 51) and result.deals[0].points == (16, 44)


def test_a_line_moved_is_named_as_moved() -> None:
    """The first trick's line typed third: moving it back down makes every card legal."""
    lines = list(LEGAL_0)
    lines.insert(2, lines.pop(0))
    found = not_strategy(lines)
    assert found and {f.kind for f in found} == {"record_slip"}
    first = found[0]
    assert "or a slip in the record: with trick 1 moved down after trick 3 every card is legal" in (
        first.explanation
    )
    assert "(so would 1 other small reordering)" in first.explanation
    assert "met slag 1 naar achteren geschoven, na slag 3, is elke kaart toegelaten" in first.explanation_nl
    assert "(dat kan ook met 1 andere kleine verschuiving)" in first.explanation_nl


def test_the_line_of_the_illegal_play_rotated_is_named_before_a_move_of_it() -> None:
    """Trick 3 typed from its second card: moving the line up before trick 1 clears the deal as
    well, and was named ("with trick 3 moved up before trick 1"), pointing the player at an edit
    that was not the slip; the line typed from the wrong player changes that line alone."""
    lines = list(LEGAL_2)
    played = lines[2].split()
    lines[2] = " ".join(played[1:] + played[:1])
    result = replay(record(lines))
    assert result.deals[0].violations[0].trick == 3
    slip = find_slip(result.deals[0], result.rules)
    assert slip is not None and (slip.kind, slip.trick, slip.other) == (Reordering.ROTATE, 3, 4)
    assert [list(t) for t in slip.tricks] == cards_of(LEGAL_2)
    assert slip.others >= 1  # the move still clears it: said as one other reordering


def test_a_line_typed_from_the_wrong_player_is_named() -> None:
    """Bert won trick 1 and led the 10♣ in trick 2; the line was typed from Anna's card."""
    lines = list(LEGAL_0)
    lines[1] = "AH 7S QC 10C"
    result = replay(record(lines))
    slip = find_slip(result.deals[0], result.rules)
    assert slip is not None and (slip.kind, slip.trick, slip.other) == (Reordering.ROTATE, 2, 4)
    assert [list(t) for t in slip.tricks] == cards_of(LEGAL_0)
    found = not_strategy(lines)
    assert len(found) == 3 and {f.kind for f in found} == {"record_slip"}
    assert (
        "or a slip in the record: with the line of trick 2 starting at its fourth card, 10♣, "
        "as Bert's lead, every card is legal."
    ) in found[0].explanation
    assert (
        "met de lijn van slag 2 beginnend bij de vierde kaart, klaveren manille, waarmee Bert "
        "uitkomt, is elke kaart toegelaten."
    ) in found[0].explanation_nl


def test_every_slip_template_speaks_both_languages() -> None:
    """test_words' checks on each reordering's words: no card code, no English in the Dutch."""
    moved = list(LEGAL_0)
    moved.insert(2, moved.pop(0))
    rotated = list(LEGAL_0)
    rotated[1] = "AH 7S QC 10C"
    for tricks in (swapped(LEGAL_22, 2, 3), swapped(LEGAL_0, 1, 6), moved, rotated):
        for finding in not_strategy(tricks):
            en, nl = finding.explanation, finding.explanation_nl
            assert finding.kind == "record_slip"
            assert not CODE.search(en) and not CODE.search(nl), (en, nl)
            assert not ENGLISH.search(nl), nl


def test_a_genuine_illegal_play_keeps_its_rule_finding() -> None:
    """Bert's revoke in trick 1 is no slip: no small reordering makes every card legal."""
    result = replay(record(REVOKE))
    assert [(v.trick, v.play, v.kind.value) for v in result.violations] == [(1, 2, "revoke")]
    assert find_slip(result.deals[0], result.rules) is None
    (finding,) = not_strategy(REVOKE)
    assert (finding.kind, finding.player, finding.trick, finding.points) == ("revoke", "Bert", 1, 30.0)
    assert finding.severity is Severity.BLUNDER and finding.category is Category.RULE
    assert finding.explanation.startswith("Bert played 9♠ in trick 1 while still holding clubs")


def test_a_real_fault_without_hands_may_look_like_a_slip() -> None:
    """findings.md's figure: the hand-checked illegal plays without their hands, 3 of 4 a slip."""
    sample = loads((Path(__file__).resolve().parent.parent / "data/samples/illegal-plays.json").read_bytes())
    with_hands = [f.kind for f in analyse(replay(sample)) if f.category is Category.RULE]
    assert len(with_hands) == 4
    for deal in sample.deals:
        deal.hands = UNSET
    found = [(f.deal, f.kind) for f in analyse(replay(sample)) if f.kind in RULE_KINDS | {"record_slip"}]
    assert found == [(1, "revoke"), (2, "record_slip"), (3, "record_slip"), (4, "record_slip")]


def test_with_hands_a_rule_broken_is_a_rule_broken() -> None:
    """The same swap with the hands given: the hands are known, so the revokes stand."""
    tricks = swapped(LEGAL_2, 6, 7)
    with_hands = not_strategy(tricks, HANDS_2)
    assert [f.kind for f in with_hands] == ["revoke", "revoke"]
    assert all(f.points == 30 and f.severity is Severity.BLUNDER for f in with_hands)
    result = replay(record(tricks, HANDS_2))
    assert not result.deals[0].hands_inferred and find_slip(result.deals[0], result.rules) is None
    # without the hands the very same lines are a possible slip
    assert {f.kind for f in not_strategy(tricks)} == {"record_slip"}


def test_validate_mentions_the_possible_slip(tmp_path: Path) -> None:
    text = tmp_path / "slip.mnl"
    text.write_text(dumps_text([record(swapped(LEGAL_22, 2, 3))]), encoding="utf-8")
    lines = text.read_text(encoding="utf-8").splitlines()
    row = next(n for n, line in enumerate(lines, 1) if line.split() == LEGAL_22[1].split())
    data = tmp_path / "slip.json"
    data.write_text(dumps(record(swapped(LEGAL_22, 2, 3))), encoding="utf-8")
    run = CliRunner().invoke(cli, ["validate", str(text), str(data)])
    assert run.exit_code == 0, run.output
    slip = (
        "Dirk's '8H' in trick 3 breaks a rule (failed to overtake), or the record has a slip: "
        "with tricks 2 and 3 the other way round every card is legal"
    )
    said = "1 illegal play, 1 of them possibly a slip in the record: manillen replay marks the plays, "
    assert said + "the slips are below)" in run.stdout  # the replay shows no reordering
    assert f"{text}:{row}:" in run.stdout and slip in run.stdout  # the line of Dirk's card
    assert f"{data}: /deals/0/tricks/2/3: {slip}" in run.stdout
    report = json.loads(CliRunner().invoke(cli, ["validate", "--json", str(data)]).stdout)
    (found,) = report["records"][0]["slips"]
    assert found == {
        "deal": 1,
        "trick": 3,
        "play": 4,
        "seat": 3,
        "player": "Dirk",
        "card": "8H",
        "kind": "failed_to_overtake",
        "reordering": "swap",
        "order": [1, 3, 2, 4, 5, 6, 7, 8],
        "message": slip,
    }
    handed = tmp_path / "hands.json"
    handed.write_text(dumps(record(swapped(LEGAL_2, 6, 7), HANDS_2)), encoding="utf-8")
    run = CliRunner().invoke(cli, ["validate", str(handed)])
    assert "2 illegal plays: see manillen replay" in run.stdout and "a slip" not in run.stdout


@settings(max_examples=120, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    dealer=st.integers(0, 3),
    trump=st.sampled_from([None, 0, 1, 2, 3]),
    pair=st.tuples(st.integers(1, 8), st.integers(1, 8)).filter(lambda p: p[0] != p[1]),
)
def test_two_lines_swapped_are_legal_or_a_slip_that_is(
    seed: int, dealer: int, trump: int | None, pair: tuple[int, int]
) -> None:
    """For random legal deals without hands and two lines swapped: either every card is still
    legal, or every illegal play is a record_slip whose reordering makes every card legal."""
    deal = random_deal(random.Random(seed), dealer, trump=trump)
    deal.hands = UNSET
    tricks = [list(t) for t in deal.tricks]  # type: ignore[union-attr]
    a, b = pair
    tricks[a - 1], tricks[b - 1] = tricks[b - 1], tricks[a - 1]
    deal.tricks = tricks
    result = replay(Record(format="manillen/1", match=MatchInfo(id="p", seats=list(SEATS)), deals=[deal]))
    played = result.deals[0]
    # the engine's pure check agrees with the replay
    first = first_illegal_play(cards_of([" ".join(t) for t in tricks]), dealer, trump, result.rules)
    assert first == (
        None if not played.violations else (played.violations[0].trick, played.violations[0].play)
    )
    found = [f for f in analyse(result) if f.category is not Category.STRATEGY]
    if not played.violations:
        assert found == []
        return
    slip = find_slip(played, result.rules)
    assert slip is not None  # a swap is undone by a swap
    assert is_legal_without_hands(slip.tricks, dealer, trump, result.rules)
    assert sorted(c for t in slip.tricks for c in t) == sorted(
        c for t in cards_of([" ".join(t) for t in tricks]) for c in t
    )
    assert [f.kind for f in found] == ["record_slip"] * len(played.violations)
    assert all(f.points == 0 and f.severity is Severity.INFO for f in found)


def test_a_side_of_one_person_takes_its_points_in_a_reordered_deal() -> None:
    """The card points a reordering gives are said with a verb agreeing with the side: a team
    take (``Anna & Carla take``), a person alone takes (``Anna takes``, ``haalt Anna``), as in
    the three-player games, where the dealer's side is the dealer alone (and in ``three_dummy``
    the dealer plays the dummy, who is not one more of its people)."""
    from types import SimpleNamespace

    from manillen_replay.analysis.record_slips import Slip, slip_words

    tricks = tuple(tuple(int(Card.parse(c)) for c in line.split()) for line in LEGAL_22)
    slip = Slip(Reordering.SWAP, 2, 3, (1, 3, 2, 4, 5, 6, 7, 8), tricks, (0,) * 8, (9, 51), 0)
    for variant, names, names_nl, people in (
        ("four", SEATS, SEATS, ["Anna & Carla", "Bert & Dirk"]),
        ("three", ["Anna", "Bert", "Carla"], ["Anna", "Bert", "Carla"], ["Anna", "Bert & Carla"]),
        (
            "three_dummy",
            ["Anna", "Bert", "Carla", "Anna's dummy"],
            ["Anna", "Bert", "Carla", "blinde van Anna"],
            ["Anna", "Bert & Carla"],
        ),
    ):
        deal = SimpleNamespace(tricks=[SimpleNamespace(cards=t) for t in tricks], points=(16, 44), dealer=0)
        en, nl = slip_words(slip, deal, names, names_nl, Rules(variant=variant), 1, 3)  # type: ignore[arg-type]
        take, halen = ("takes", "haalt") if " & " not in people[0] else ("take", "halen")
        assert f"In that order {people[0]} {take} 9 card points and {people[1]} 51, not 16 and 44" in en, en
        assert f"In die volgorde {halen} {people[0]} 9 kaartpunten en {people[1]} 51, niet 16 en 44" in nl, nl


def test_a_slip_by_the_dummy_names_it_in_each_language() -> None:
    """The dealer plays the dummy of ``three_dummy``: a slip at the dummy's seat names that seat
    as each language does (``Anna's dummy``, ``blinde van Anna``), from the names it is given."""
    from types import SimpleNamespace

    from manillen_replay.analysis.record_slips import Slip, slip_words

    tricks = tuple(tuple(int(Card.parse(c)) for c in line.split()) for line in LEGAL_22)
    slip = Slip(Reordering.SWAP, 2, 3, (1, 3, 2, 4, 5, 6, 7, 8), tricks, (0,) * 8, (9, 51), 0)
    deal = SimpleNamespace(tricks=[SimpleNamespace(cards=t) for t in tricks], points=(9, 51), dealer=0)
    en, nl = slip_words(
        slip,
        deal,  # type: ignore[arg-type]
        ["Anna", "Bert", "Carla", "Anna's dummy"],
        ["Anna", "Bert", "Carla", "blinde van Anna"],
        Rules(variant="three_dummy"),
        3,
        3,
    )
    assert en.startswith("A rule broken by Anna's dummy in trick 3, or a slip in the record"), en
    assert nl.startswith("Een regel gebroken door blinde van Anna in slag 3, of een fout in de notatie"), nl
