"""Why a costly card cost: the two lines, the trick where the points change hands, the words in
English and Dutch, and the lines stored with the review (manillen_replay.analysis.reasons)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from manillen_replay.analysis.costs import CardValue, PlayCost, dd_costs, view_costs
from manillen_replay.analysis.layouts import iter_moments
from manillen_replay.analysis.reasons import (
    REASON_THRESHOLD,
    better_cards,
    closest_pair,
    deal_reasons,
    explain,
    held_as_shown,
    misplaced,
    rest_of_trick,
    swing_trick,
)
from manillen_replay.analysis.solver_findings import cost_findings
from manillen_replay.cards import Card, CardSet
from manillen_replay.engine import MatchResult, replay
from manillen_replay.record import Entry, dumps, loads
from manillen_replay.rules import Rules
from manillen_replay.solver.lines import best_lines
from manillen_replay.solver.search import Position
from manillen_replay.store import Store
from manillen_replay.store.analyse import analyse_archive

from .factories import random_record

NAMES = ["Anna", "Bert", "Carla", "Dirk"]


def the_spent_manille() -> tuple[Position, int]:
    """Trick 7 of 8: Bert led 7♦, Carla (Anna's partner) took the lead with Q♦, Dirk followed
    with 8♦. Anna holds 10♦ and K♦: either wins trick 7, but only the 10♦ beats Bert's A♦ in
    trick 8. Spades are trump and nobody holds one."""
    hands = tuple(CardSet.parse(h).mask for h in ("10D KD", "AD", "9C", "JC"))
    trick = (Card.D7, Card.DQ, Card.D8)
    return Position((hands[0], hands[1], hands[2], hands[3]), trick, 1), 3


def test_the_reason_names_the_trick_where_the_points_change_hands_in_english() -> None:
    position, trump = the_spent_manille()
    played, better = best_lines(position, trump, Rules(), [Card.D10, Card.DK], first_trick=7)
    assert [t.winner for t in played.tricks] == [0, 1] and [t.winner for t in better.tricks] == [0, 0]
    assert swing_trick(played, better, 0) == 8
    words = explain(
        played, better, seat=0, card=Card.D10, better_card=Card.DK, names=NAMES, lang="en", layouts=0
    )
    assert words.startswith(
        "Why, with every hand known and the best play after it: trick 7 is Anna & Carla's either way;"
    )
    assert "after the 10♦, Bert's A♦ takes trick 8 (8 points), Anna's K♦ with it;" in words
    assert "after the K♦ it is Anna & Carla's: Anna's 10♦ takes it." in words
    assert "Anna & Carla take 7 card points from here after the 10♦, 15 after the K♦." in words


def test_the_reason_names_the_trick_where_the_points_change_hands_in_dutch() -> None:
    position, trump = the_spent_manille()
    played, better = best_lines(position, trump, Rules(), [Card.D10, Card.DK], first_trick=7)
    words = explain(
        played, better, seat=0, card=Card.D10, better_card=Card.DK, names=NAMES, lang="nl", layouts=0
    )
    assert words.startswith(
        "Waarom, met alle kaarten open en het beste spel daarna: slag 7 is hoe dan ook voor Anna & Carla;"
    )
    assert "na de koeken manille neemt Bert slag 8 met de koeken aas (8 punten)" in words
    assert "en de koeken heer van Anna gaat mee" in words
    assert "na de koeken heer is die slag voor Anna & Carla: Anna neemt hem met de koeken manille" in words
    assert "Anna & Carla halen vanaf hier 7 kaartpunten na de koeken manille, 15 na de koeken heer." in words
    # on a layout the opening phrase puts the verb before the subject, as Dutch does
    on_layout = explain(
        played, better, seat=0, card=Card.D10, better_card=Card.DK, names=NAMES, lang="nl", layouts=12
    )
    assert ": in deze verdeling is slag 7 hoe dan ook voor Anna & Carla;" in on_layout


def test_the_reason_says_on_which_layout_it_was_played_and_what_the_real_cards_gave() -> None:
    position, trump = the_spent_manille()
    played, better = best_lines(position, trump, Rules(), [Card.D10, Card.DK], first_trick=7)
    words = explain(
        played, better, seat=0, card=Card.D10, better_card=Card.DK, names=NAMES, lang="en", layouts=12,
        real=(better, played),
    )  # fmt: skip
    assert (
        "on one way the hidden cards could lie as far as Anna could tell (of the first 12 layouts "
        "drawn for the average, the one closest to it)" in words
    )
    assert words.endswith(
        "With every hand known: 15 after the 10♦, 7 after the K♦: on the real cards the K♦ would have "
        "done worse, by 8 card points; it was the better card from what Anna could see."
    )


def test_a_better_card_that_does_no_better_on_the_real_cards_is_said_to() -> None:
    """A helper's review: "J♠ would have kept them ... With every hand known: 13 after the A♦, 13
    after the J♠" left the player to work out that the J♠ was no better on the real cards."""
    position, trump = the_spent_manille()
    played, better = best_lines(position, trump, Rules(), [Card.D10, Card.DK], first_trick=7)
    en, nl = (
        explain(
            played, better, seat=0, card=Card.D10, better_card=Card.DK, names=NAMES, lang=lang, layouts=12,
            real=(played, played),
        )
        for lang in ("en", "nl")
    )  # fmt: skip
    assert en.endswith(
        "With every hand known: 7 after the 10♦, 7 after the K♦: on the real cards the K♦ would have "
        "done no better; it was the better card from what Anna could see."
    )
    assert nl.endswith(
        "Met alle kaarten open: 7 na de koeken manille, 7 na de koeken heer: met de echte kaarten deed "
        "de koeken heer het niet beter; met wat Anna kon weten was het de betere kaart."
    )


def test_the_reason_says_when_its_layouts_were_every_one_the_player_could_not_tell_apart() -> None:
    """The blind re-read for issue 30 read "of 42 such layouts drawn" where the 42 were all of them."""
    position, trump = the_spent_manille()
    played, better = best_lines(position, trump, Rules(), [Card.D10, Card.DK], first_trick=7)
    en, nl = (
        explain(
            played, better, seat=0, card=Card.D10, better_card=Card.DK, names=NAMES, lang=lang, layouts=42,
            every=True,
        )
        for lang in ("en", "nl")
    )  # fmt: skip
    assert "as far as Anna could tell (of all 42 such layouts, the one closest to the average)" in en
    assert "drawn" not in en
    assert "(van de 42 mogelijke verdelingen: de verdeling die het dichtst bij het gemiddelde ligt)" in nl
    assert "getrokken" not in nl


def test_the_reason_says_its_layout_holds_what_the_rest_of_the_trick_showed() -> None:
    """A helper's review found "trick 2 is Ilse & Hendrik's either way" under a K♠ that Bert's
    10♠ took in the game: the layout is chosen among those where the others hold the cards they
    went on to play to the trick, and the words say so (all of them, or the most of them)."""
    position, trump = the_spent_manille()
    played, better = best_lines(position, trump, Rules(), [Card.D10, Card.DK], first_trick=7)
    said = {
        (lang, shown): explain(
            played, better, seat=0, card=Card.D10, better_card=Card.DK, names=NAMES, lang=lang,
            layouts=12, shown=shown,
        )
        for lang in ("en", "nl")
        for shown in ((3, 3), (1, 3), (0, 3))
    }  # fmt: skip
    assert (
        "(of the first 12 layouts drawn for the average, the one closest to it where the others hold "
        "the cards they played after it to trick 7)" in said["en", (3, 3)]
    )
    assert (
        "where the others hold the most of the cards they played after it to trick 7)" in said["en", (1, 3)]
    )
    assert "(of the first 12 layouts drawn for the average, the one closest to it)" in said["en", (0, 3)]
    assert (
        "de verdeling die er het dichtst bij ligt, waarin de anderen de kaarten hebben die ze daarna "
        "in slag 7 speelden)" in said["nl", (3, 3)]
    )
    assert "waarin de anderen zo veel mogelijk van de kaarten hebben" in said["nl", (1, 3)]
    assert "waarin" not in said["nl", (0, 3)]


def test_a_line_that_gives_the_trick_to_the_other_side_than_the_game_says_what_the_game_did() -> None:
    position, trump = the_spent_manille()
    played, better = best_lines(position, trump, Rules(), [Card.D10, Card.DK], first_trick=7)
    assert played.tricks[0].winner == 0  # Anna & Carla take trick 7 in the line
    game = {
        (lang, winner): explain(
            played, better, seat=0, card=Card.D10, better_card=Card.DK, names=NAMES, lang=lang, layouts=12,
            game_winner=winner,
        )
        for lang in ("en", "nl")
        for winner in (1, 2, None)
    }  # fmt: skip
    assert "on this layout trick 7 is Anna & Carla's either way;" in game["en", 1]
    assert (
        "takes it. In the game Bert & Dirk took trick 7: the hidden cards lay otherwise than on this layout. "
        "Anna & Carla take 7 card points" in game["en", 1]
    )
    assert (
        "In het spel namen Bert & Dirk slag 7: de verborgen kaarten lagen anders dan in deze verdeling. "
        "Anna & Carla halen" in game["nl", 1]
    )
    for lang in ("en", "nl"):
        assert "game" not in game[lang, 2] and "spel " not in game[lang, 2]  # Carla took it: Anna's side
        assert game[lang, None] == game[lang, 2]


def test_the_layout_chosen_holds_the_most_of_the_cards_the_trick_showed() -> None:
    """Among the layouts where the better card does better, one holding the cards the others went
    on to play to the trick comes before one closer to the averages."""
    record = random_record(7)
    result = replay(record)
    deal = result.deals[0]
    first = deal.tricks[0]
    shown = rest_of_trick(deal, 1, 2)
    assert shown == [(s, int(c)) for s, c in zip(first.seats[2:], first.cards[2:], strict=True)]
    hands = list(deal.hands)
    assert held_as_shown(hands, shown) == len(shown)
    moved = list(hands)
    seat, card = shown[0]
    other = (seat + 1) % 4
    moved[seat] &= ~(1 << card)
    moved[other] |= 1 << card
    assert held_as_shown(moved, shown) == len(shown) - 1
    pairs = [(10.0, 20.0), (12.0, 16.0)]  # the second is closer to the averages
    assert closest_pair(pairs, (12.0, 16.0))[0] == 1
    assert (
        closest_pair(pairs, (12.0, 16.0), [held_as_shown(hands, shown), held_as_shown(moved, shown)])[0] == 0
    )
    # but never one where the better card does not do better
    assert closest_pair([(20.0, 10.0), (12.0, 16.0)], (12.0, 16.0), [3, 0])[0] == 1


def test_a_card_the_layout_put_in_another_hand_is_not_named_with_a_made_up_holder() -> None:
    """Issue 30's re-read: a reason played on a layout from the player's view said "Carla's 10♣
    takes trick 7" where Carla did not hold the 10♣. When the real deal has the taker's card in
    another hand, the words say the side that takes the trick and what kind of card (a higher
    diamond here, spades being trump), in English and Dutch; the player's own cards stay named."""
    position, trump = the_spent_manille()
    played, better = best_lines(position, trump, Rules(), [Card.D10, Card.DK], first_trick=7)
    # the real deal: Dirk held the A♦ and Bert the J♣; the layout swapped them
    real = [CardSet.parse(h).mask for h in ("10D KD", "JC", "9C", "AD")]
    unsure = misplaced(position.hands, real)
    assert unsure == {int(Card.DA), int(Card.CJ)}
    en, nl = (
        explain(
            played, better, seat=0, card=Card.D10, better_card=Card.DK, names=NAMES, lang=lang, layouts=12,
            unsure=unsure, trump=trump,
        )
        for lang in ("en", "nl")
    )  # fmt: skip
    assert "Bert's A♦" not in en and "A♦" not in en
    assert (
        "after the 10♦, Bert & Dirk take trick 8 (8 points) with the trick's highest diamond, "
        "Anna's K♦ with it;" in en
    )
    assert "after the K♦ it is Anna & Carla's: Anna's 10♦ takes it." in en
    assert "koeken aas" not in nl
    assert "na de koeken manille nemen Bert & Dirk slag 8 met de hoogste koeken in de slag (8 punten)" in nl
    assert "en de koeken heer van Anna gaat mee" in nl
    # where the layout has the card where the real deal has it, it is named as before
    same = explain(
        played, better, seat=0, card=Card.D10, better_card=Card.DK, names=NAMES, lang="en", layouts=12,
        unsure=misplaced(position.hands, position.hands), trump=trump,
    )  # fmt: skip
    assert "Bert's A♦ takes trick 8 (8 points)" in same


def thrown_on_the_spade_ace(hands: tuple[str, str, str, str]) -> tuple[int | None, str, str]:
    """Trick 7 (hearts trumps): Bert led A♠, Carla 8♠, Dirk 9♠; Anna, holding ``hands[0]`` (no
    spades), plays 10♦ where 7♦ was the better card. The trick where the points change hands and
    the reason in English and Dutch."""
    masks = tuple(CardSet.parse(h).mask for h in hands)
    position = Position((masks[0], masks[1], masks[2], masks[3]), (Card.SA, Card.S8, Card.S9), 1)
    played, better = best_lines(position, 0, Rules(), [Card.D10, Card.D7], first_trick=7)
    en, nl = (
        explain(played, better, seat=0, card=Card.D10, better_card=Card.D7, names=NAMES, lang=lang, layouts=0)
        for lang in ("en", "nl")
    )
    return swing_trick(played, better, 0), en, nl


def test_points_thrown_on_the_opponents_trick_name_that_trick() -> None:
    """Bert's A♠ takes trick 7 whatever Anna (no spades) throws on it; Carla's 10♠ takes trick 8.
    The 10♦ thrown on trick 7 is 5 points for Bert & Dirk instead of for Anna & Carla."""
    swing, en, nl = thrown_on_the_spade_ace(("10D 7D", "QS", "10S", "JS"))
    assert swing == 7
    assert (
        "trick 7 goes to Bert & Dirk either way, but it holds 9 points after the 10♦ against 4 after the 7♦"
        in en
    )
    assert (
        "slag 7 is hoe dan ook voor Bert & Dirk, maar met 9 punten na de koeken manille "
        "tegen 4 na de koeken zeven" in nl
    )
    assert "Anna & Carla take 8 card points from here after the 10♦, 13 after the 7♦." in en


def test_points_thrown_on_a_trick_lost_either_way_are_said_before_the_later_trick() -> None:
    """A coach's review: Carla's 10♣ thrown on Dirk's trick 1 (12.6 card points on average)
    was told by a later trick alone, silent on the 5 points it gave away where it fell. Here
    Bert's A♠ takes trick 7 whatever Anna (no spades, no hearts: trumps) throws; the 10♦ thrown is 5
    points for Bert & Dirk there and leaves Bert's K♦ to take trick 8, which the 10♦ kept takes."""
    swing, en, nl = thrown_on_the_spade_ace(("10D 7D", "KD", "9C", "QD"))
    assert swing == 8
    assert "trick 7 is Bert & Dirk's either way, with 9 points after the 10♦ against 4 after the 7♦;" in en
    assert "after the 10♦, Bert's K♦ takes trick 8 (5 points)" in en
    assert (
        "slag 7 is hoe dan ook voor Bert & Dirk, met 9 punten na de koeken manille tegen 4 na de koeken "
        "zeven;" in nl
    )
    # a trick the player's side takes either way, with more after the card played, is not said so
    position, trump = the_spent_manille()
    played, better = best_lines(position, trump, Rules(), [Card.D10, Card.DK], first_trick=7)
    words = explain(
        played, better, seat=0, card=Card.D10, better_card=Card.DK, names=NAMES, lang="en", layouts=0
    )
    assert "trick 7 is Anna & Carla's either way;" in words


def test_a_smear_on_the_player_s_own_trick_is_called_one() -> None:
    """A coach's review: the reasons never used the player's word. When the card's own trick is
    the player's side's either way and the better card puts more points in it, the words call it
    a smear (vetten), before the later trick where more change hands."""
    from manillen_replay.solver.lines import Line, LinePlay, LineTrick

    def trick(number: int, winner: int, points: int, cards: tuple[int, ...]) -> LineTrick:
        plays = tuple(LinePlay(seat, card) for seat, card in zip((1, 2, 3, 0), cards, strict=True))
        return LineTrick(number, 1, plays, winner, points)

    position, _ = the_spent_manille()
    # trick 6 is Carla's either way; Anna's A♦ smeared there, or kept and lost in trick 7
    played = Line(position, (), (trick(6, 2, 4, (Card.S7, Card.SA, Card.S8, Card.C7)),
                                 trick(7, 1, 10, (Card.DA, Card.H7, Card.H8, Card.D9)),
                                 trick(8, 2, 2, (Card.C8, Card.CQ, Card.C9, Card.CJ))), 6)  # fmt: skip
    better = Line(position, (), (trick(6, 2, 8, (Card.S7, Card.SA, Card.S8, Card.DA)),
                                 trick(7, 2, 6, (Card.D9, Card.HA, Card.H8, Card.C7)),
                                 trick(8, 2, 2, (Card.C8, Card.CQ, Card.C9, Card.CJ))), 16)  # fmt: skip
    assert swing_trick(played, better, 0) == 7
    en, nl = (
        explain(played, better, seat=0, card=Card.C7, better_card=Card.DA, names=NAMES, lang=lang, layouts=0)
        for lang in ("en", "nl")
    )
    assert (
        "trick 6 is Anna & Carla's either way, with 4 points after the 7♣ against 8 after the A♦ "
        "(smeared on it: vetten);" in en
    ), en
    assert "met 4 punten na de klaveren zeven tegen 8 na de koeken aas (erop gevet);" in nl, nl


COACH_D = """match coach-d
seats Anna Bert Carla Dirk

deal 1  dealer Carla  muil
  hand Anna: 9S 8S KH QH AD QD KC QC
  hand Bert: 7S JH JD 7D AC JC 9C 8C
  hand Carla: 10C 7C 10H AH 8H 10D KD 9D
  hand Dirk: 10S AS KS QS JS 9H 7H 8D
  10S 8S 7S 10C
  JS 9S JH 7C
  QS QH JD 8H
  KS QD JC 9D
  AS QC AC KD
  7H KH 7D AH
  10H 9H KC 8C
  10D 8D AD 9C
"""


@pytest.mark.solver
def test_a_card_the_real_cards_punish_by_little_is_told_on_a_layout_of_the_view() -> None:
    """A coach's review: Carla's 10♣ cost 12.6 card points on average from her view and 1 with
    every hand known, and its reason was told on the real hands ("24 after the 10♣, 25 after
    the 9♦"), which read as if it hardly mattered. The real hands tell a reason only when they
    show at least half of what the layout chosen for the average shows."""
    from manillen_replay.analysis.ranking import real_teaches
    from manillen_replay.record.text import loads_text

    (record,) = loads_text(COACH_D)
    result = replay(record)
    deal = result.deals[0]
    costs = view_costs(deal, result.rules, samples=50)
    reasons = deal_reasons(deal, result.rules, costs, names=result.seats)
    (reason,) = [r for r in reasons if (r.trick, r.play) == (1, 4)]
    real_gap = reason.real_better.taken(0) - reason.real_played.taken(0)
    view_gap = reason.view_better.taken(0) - reason.view_played.taken(0)
    assert reason.better == Card.D9 and 0 < 2 * real_gap < view_gap
    assert reason.explanation.startswith("Why, on one way the hidden cards could lie as far as Carla")
    assert (
        f"With every hand known: {reason.real_played.taken(0)} after the 10♣, "
        f"{reason.real_better.taken(0)} after the 9♦." in reason.explanation
    )
    assert not real_teaches(real_gap, view_gap)


def _cost(card: Card, view: dict[Card, float], hindsight: dict[Card, int]) -> PlayCost:
    best = max(view.values())
    return PlayCost(
        trick=3, play=2, seat=0, card=card, dd_cost=max(hindsight.values()) - hindsight[card],
        view_cost=best - view[card], best_cards=tuple(sorted(c for c in view if view[c] == best)),
        values={c: CardValue(hindsight[c], view[c]) for c in view}, deal=1, layouts=20,
        hindsight_best=tuple(c for c in hindsight if hindsight[c] == max(hindsight.values())),
    )  # fmt: skip


def test_the_better_card_named_first_did_not_do_worse_with_hindsight() -> None:
    cost = _cost(
        Card.HK,
        {Card.HK: 10.0, Card.H7: 14.0, Card.C7: 14.0},
        {Card.HK: 12, Card.H7: 8, Card.C7: 12},
    )
    assert better_cards(cost) == (Card.C7, Card.H7)


def test_a_better_card_that_did_worse_with_hindsight_is_said_to_have(tmp_path: Path) -> None:
    deal = replay(random_record(1, 1)).deals[0]
    cost = _cost(Card.HK, {Card.HK: 10.0, Card.H7: 14.0}, {Card.HK: 12, Card.H7: 8})
    (finding,) = cost_findings([cost], match="m", deal=deal, players=NAMES)
    assert (
        "from what Anna could see; 7♥ would have kept them. With every hand known K♥ cost 0 card points."
        in (finding.explanation)
    )
    assert "On the real cards 7♥ would have taken 4 card points less than K♥" in finding.explanation
    assert "Met de echte kaarten had de harten zeven 4 kaartpunten minder gehaald dan de harten heer" in (
        finding.explanation_nl
    )
    assert "all hands known" not in finding.explanation


@cache
def demo_match() -> tuple[MatchResult, list[PlayCost]]:
    text = (Path(__file__).resolve().parent.parent / "data" / "demo.jsonl").read_text().splitlines()[0]
    result = replay(loads(text))
    deal = result.deals[1]
    return result, view_costs(deal, result.rules, samples=12, hindsight=dd_costs(deal, result.rules))


def test_the_reasons_of_a_demo_deal_play_the_real_cards_to_their_hindsight_values() -> None:
    result, costs = demo_match()
    deal = result.deals[1]
    reasons = deal_reasons(deal, result.rules, costs, names=list(result.seats), seed=0)
    costly = [c for c in costs if c.legal and not c.forced and (c.sure_view_cost or 0) >= REASON_THRESHOLD]
    assert reasons and [(r.trick, r.play) for r in reasons] == [(c.trick, c.play) for c in costly]
    moments = {(m.trick, m.play): m for m in iter_moments(deal, result.rules)}
    for reason, cost in zip(reasons, costly, strict=True):
        team = cost.seat % 2
        assert reason.better == better_cards(cost)[0]
        assert reason.real_played.taken(team) == cost.values[cost.card].hindsight
        assert reason.real_better.taken(team) == cost.values[reason.better].hindsight
        assert ("layouts drawn for the average" in reason.explanation) != cost.exact
        start = reason.view_played.start
        assert start.hands[cost.seat] == moments[(cost.trick, cost.play)].position.hands[cost.seat]
        assert start == reason.view_better.start and reason.layouts > 0
        assert (
            reason.view_played.plays[0].card == cost.card
            and reason.view_better.plays[0].card == reason.better
        )
        if reason.swing is not None:
            assert (
                f"trick {reason.swing}" in reason.explanation
                and f"slag {reason.swing}" in reason.explanation_nl
            )
    again = deal_reasons(deal, result.rules, costs, names=list(result.seats), seed=0)
    assert again == reasons, "the same seed gives the same reasons"


def test_the_solver_review_stores_the_reason_and_the_lines_of_each_costly_card(tmp_path: Path) -> None:
    record = random_record(4, 1)
    with Store(tmp_path / "club.duckdb") as store:
        store.import_entries([Entry("club.jsonl", 1, dumps(record, pretty=False).encode())])
        analyse_archive(store, depth="solver", samples=16)
        costly = store.query(
            "SELECT trick, play, card, seat FROM play_costs WHERE legal AND NOT forced "
            "AND view_cost - 2 * view_error >= 2 "
            "ORDER BY trick, play"
        )
        lines = store.query("SELECT * FROM finding_lines ORDER BY trick, play, line, layout, step")
        findings = store.query("SELECT * FROM findings WHERE kind = 'costly_card'")
    assert costly.height > 0
    places = lines.select("trick", "play").unique().sort("trick", "play")
    assert places.rows() == costly.select("trick", "play").rows()
    for (trick, play, line, layout), rows in lines.group_by(
        "trick", "play", "line", "layout", maintain_order=True
    ):
        assert line in ("played", "better") and layout in ("view", "real")
        cost = costly.filter((pl.col("trick") == trick) & (pl.col("play") == play)).row(0, named=True)
        assert rows["step"].to_list() == list(range(1, rows.height + 1))
        assert rows["line_trick"][0] == trick and rows["line_trick"][-1] == 8
        assert rows["seat"][0] == cost["seat"]
        if line == "played":
            assert rows["card"][0] == rows["first_card"][0] == cost["card"]
        assert rows.height == 32 - ((trick - 1) * 4 + play - 1)
        assert all(card in held for card, held in zip(rows["card"], rows["held"], strict=True))
        assert rows["team_points"].n_unique() == 1
        assert (rows["layouts"].is_null().all()) == (layout == "real")
    why = findings.filter(pl.col("explanation").str.contains("Why, on one way the hidden cards could lie"))
    assert why.height > 0 and why["explanation_nl"].str.contains("Waarom, in één verdeling").all()


def test_a_bad_lines_frame_is_refused(tmp_path: Path) -> None:
    from manillen_replay.errors import ManillenError

    with Store(tmp_path / "club.duckdb") as store, pytest.raises(ManillenError, match="missing columns"):
        store.save_lines(["m"], pl.DataFrame({"match_id": ["m"]}))


# --------------------------------------------------------------------------- the replay's branch


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, pl.DataFrame]:
    """An archive of one random deal reviewed by the solver (few layouts), and its stored lines."""
    path = tmp_path_factory.mktemp("reasons") / "club.duckdb"
    with Store(path) as store:
        store.import_entries([Entry("club.jsonl", 1, dumps(random_record(4, 1), pretty=False).encode())])
        analyse_archive(store, depth="solver", samples=16)
        lines = store.query("SELECT * FROM finding_lines ORDER BY trick, play, line, layout, step")
    return path, lines


def _replay_at_costly_play(
    reviewed: tuple[Path, pl.DataFrame], monkeypatch: pytest.MonkeyPatch, **query: object
):
    from streamlit.testing.v1 import AppTest

    from dashboards import data

    from .test_dashboard import APP, open_page

    path, lines = reviewed
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(path))
    trick, play = lines.row(0, named=True)["trick"], lines.row(0, named=True)["play"]
    at = open_page(
        AppTest.from_file(APP, default_timeout=60), "replay", match="random-4", deal=1,
        step=(trick - 1) * 4 + play, **query,
    )  # fmt: skip
    here = lines.filter((pl.col("trick") == trick) & (pl.col("play") == play))
    return at, here


def on_table_of(drawn: str) -> str:
    """The trick on the table of a drawing (its cards), and what follows it."""
    return drawn[drawn.index('class="mr-trick') :]


def test_the_replay_switches_to_the_better_line_and_steps_through_it(
    reviewed: tuple[Path, pl.DataFrame], monkeypatch: pytest.MonkeyPatch
) -> None:
    from .test_dashboard import html_views, replay_step, send_click

    at, here = _replay_at_costly_play(reviewed, monkeypatch)
    better = here.filter((pl.col("line") == "better") & (pl.col("layout") == "view"))
    played = here.filter((pl.col("line") == "played") & (pl.col("layout") == "view"))
    first = Card.parse(better["first_card"][0]).symbol
    (choice,) = [radio for radio in at.radio if radio.key.startswith("replay_branch_")]
    real = {
        line: here.filter((pl.col("line") == line) & (pl.col("layout") == "real"))
        for line in ("better", "played")
    }
    gains = real["better"]["team_points"][0] > real["played"]["team_points"][0]
    assert choice.options == [
        "the game as played",
        f"better line: {first} (from the player's view)",
        f"better line: {first} (every hand known)" if gains else f"line after {first} (every hand known)",
    ]
    assert choice.value == "played" and "replay_table_line" not in html_views(at)
    step = replay_step(at)
    assert "below are those of the game as it was played" not in str(html_views(at))
    choice.set_value("view").run()
    assert not at.exception
    drawn = html_views(at)["replay_table_line"][1]["html"]
    assert "<b>Better line</b>" in drawn and "closest to the average" in drawn
    # the right-hand column, still on the game as played, says so beside the line
    assert "below are those of the game as it was played" in str(html_views(at))
    assert (
        f"take <b>{better['team_points'][0]}</b> card points from here, against {played['team_points'][0]}"
        in drawn
    )
    on_table = re.findall(r'class="mr-trick[^"]*" data-cards="(\d)"', drawn)
    assert on_table == [str(here.row(0, named=True)["play"])], (
        "the better card lies where the card played lay"
    )
    assert f'data-card="{better["card"][0]}"' in on_table_of(drawn)
    # step through the line: its cards, one by one, to its end
    send_click(at, "replay_table_line", "2")
    drawn = html_views(at)["replay_table_line"][1]["html"]
    assert f'data-card="{better["card"][1]}"' in on_table_of(drawn)
    send_click(at, "replay_table_line", str(better.height))
    drawn = html_views(at)["replay_table_line"][1]["html"]
    assert "Tricks of the line" in drawn and f'value="{better.height}"' in drawn
    # the end of the deal: every hand empty, the last trick on the table, the last trick listed with its taker
    assert drawn.count('class="mr-card') == 4 and 'data-cards="4"' in drawn
    last = better.row(-1, named=True)
    assert "8. " in drawn and f"+{last['trick_points']}</button>" in drawn
    # back to the game as played
    choice = next(radio for radio in at.radio if radio.key.startswith("replay_branch_"))
    choice.set_value("played").run()
    assert "replay_table" in html_views(at) and replay_step(at) == step


def test_the_better_line_in_dutch_and_on_the_real_cards(
    reviewed: tuple[Path, pl.DataFrame], monkeypatch: pytest.MonkeyPatch
) -> None:
    from .test_dashboard import html_views

    at, here = _replay_at_costly_play(reviewed, monkeypatch, lang="nl")
    (choice,) = [radio for radio in at.radio if radio.key.startswith("replay_branch_")]
    assert choice.options[0] == "het spel zoals gespeeld" and "alle kaarten open" in choice.options[2]
    choice.set_value("real").run()
    drawn = html_views(at)["replay_table_line"][1]["html"]
    real = here.filter((pl.col("line") == "better") & (pl.col("layout") == "real"))
    played = here.filter((pl.col("line") == "played") & (pl.col("layout") == "real"))
    named = "<b>Betere lijn</b>" if real["team_points"][0] > played["team_points"][0] else "<b>Lijn na</b>"
    assert named in drawn and "met de echte kaarten, alle kaarten open" in drawn
    assert f"halen vanaf hier <b>{real['team_points'][0]}</b> kaartpunten" in drawn


def test_a_real_line_that_does_worse_is_named_for_what_it_is(
    reviewed: tuple[Path, pl.DataFrame], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The view's better card can do worse on the real cards: that line is offered as "line
    after", and its note says that with every hand known the card played was the better one."""
    import shutil

    from .test_dashboard import html_views

    path, lines = reviewed
    copy = tmp_path / "worse.duckdb"
    shutil.copyfile(path, copy)
    first = lines.row(0, named=True)
    with Store(copy) as store:
        for line, points in (("better", 15), ("played", 17)):
            store._con.execute(
                "UPDATE finding_lines SET team_points = ? WHERE line = ? AND layout = 'real' "
                "AND deal = ? AND trick = ? AND play = ?",
                [points, line, first["deal"], first["trick"], first["play"]],
            )
    at, here = _replay_at_costly_play((copy, lines), monkeypatch)
    better = Card.parse(here.filter(pl.col("line") == "better")["first_card"][0]).symbol
    (choice,) = [radio for radio in at.radio if radio.key.startswith("replay_branch_")]
    assert choice.options[1:] == [
        f"better line: {better} (from the player's view)",
        f"line after {better} (every hand known)",
    ]
    choice.set_value("real").run()
    drawn = html_views(at)["replay_table_line"][1]["html"]
    assert "<b>Line after</b>" in drawn and "<b>Better line</b>" not in drawn
    assert "<b>15</b> card points from here, against 17 after" in drawn
    assert "with every hand known" in drawn and "was the better one from what" in drawn
    # as many points either way: no "better line" either
    from dashboards import data

    data.archive().close()
    with Store(copy) as store:
        store._con.execute(
            "UPDATE finding_lines SET team_points = 17 WHERE line = 'better' AND layout = 'real' "
            "AND deal = ? AND trick = ? AND play = ?",
            [first["deal"], first["trick"], first["play"]],
        )
    at, _ = _replay_at_costly_play((copy, lines), monkeypatch)
    (choice,) = [radio for radio in at.radio if radio.key.startswith("replay_branch_")]
    assert choice.options[2] == f"line after {better} (every hand known)"
    choice.set_value("real").run()
    drawn = html_views(at)["replay_table_line"][1]["html"]
    assert "as many as after" in drawn and "both cards take as much" in drawn


@pytest.mark.browser
def test_the_better_line_in_a_real_browser(reviewed: tuple[Path, pl.DataFrame], chromium: Any) -> None:
    """The radio switches the table to the better line, the arrow keys step through it, and a
    screenshot (tests/artifacts/replay-better-line.png) shows it for a person to look at."""
    from .test_browser import ARTIFACTS, SETTLED_WITH_FONTS, browser_page, dashboard_served

    path, lines = reviewed
    first = lines.row(0, named=True)
    step = (first["trick"] - 1) * 4 + first["play"]
    better = lines.filter(
        (pl.col("trick") == first["trick"])
        & (pl.col("play") == first["play"])
        & (pl.col("line") == "better")
        & (pl.col("layout") == "view")
    )
    with dashboard_served(path) as address, browser_page(chromium) as page:
        page.goto(f"{address}/replay?match=random-4&deal=1&step={step}")
        page.get_by_text("from the player's view").click()
        page.get_by_text("Better line", exact=True).wait_for(timeout=15_000)
        page.locator(f'.mr-trick [data-card="{better["card"][0]}"]').wait_for(timeout=15_000)
        page.locator("h1").click()
        page.keyboard.press("ArrowRight")
        page.locator(f'.mr-trick [data-card="{better["card"][1]}"]').wait_for(timeout=15_000)
        page.locator('input[type="range"][name="step"][value="2"]').wait_for(timeout=15_000)
        page.wait_for_function(SETTLED_WITH_FONTS, timeout=30_000)  # the run over, not a fixed pause
        page.screenshot(path=str(ARTIFACTS / "replay-better-line.png"))
        assert page.evaluate("() => new URL(location.href).searchParams.get('step')") == str(step)
        # in Dutch at phone width: the choice, the box and the table one under the other
        page.set_viewport_size({"width": 390, "height": 1800})
        page.goto(f"{address}/replay?match=random-4&deal=1&step={step}&lang=nl")
        page.get_by_text("met wat de speler kon weten").click()
        page.get_by_text("Betere lijn", exact=True).wait_for(timeout=15_000)
        page.wait_for_function(SETTLED_WITH_FONTS, timeout=30_000)  # the run over, not a fixed pause
        page.screenshot(path=str(ARTIFACTS / "replay-better-line-390-nl.png"))


@pytest.mark.solver
def test_a_reason_the_real_cards_show_too_is_told_on_the_real_hands_from_the_card_s_own_trick() -> None:
    """Anna's 8♣ leading trick 5 of match-101's deal 3 (A♥ or 10♥ better): a coach read its reason
    on a layout made up for the average, whose tricks held other cards than the replay drew, and
    whose words went straight to trick 6, silent on the trick the 8♣ itself lost."""
    from manillen_replay.analysis.ranking import real_teaches
    from manillen_replay.analysis.reasons import deal_reasons

    samples = Path(__file__).resolve().parent.parent / "data" / "samples"
    result = replay(loads((samples / "match-101.json").read_text()))
    deal = result.deals[2]
    costs = view_costs(deal, result.rules, samples=50)
    reasons = deal_reasons(deal, result.rules, costs, names=result.seats)
    (reason,) = [r for r in reasons if (r.trick, r.play) == (5, 1)]
    assert reason.real_better.taken(0) > reason.real_played.taken(0)  # the real cards punish it too
    assert reason.explanation.startswith(
        "Why, with every hand known and the best play after it: trick 5 goes to Bert & Dirk after the 8♣ "
        "(1 point), to Anna & Carla after the A♥ (7); after the 8♣, Dirk's K♥ takes trick 6 (9 points)"
    ), reason.explanation
    assert reason.explanation_nl.startswith(
        "Waarom, met alle kaarten open en het beste spel daarna: slag 5 gaat na de klaveren acht naar "
        "Bert & Dirk (1 punt), na de harten aas naar Anna & Carla (7);"
    ), reason.explanation_nl
    # a card the real cards did not punish (or by less than half what the layout chosen shows)
    # keeps its reason on a layout of the player's view
    for r in reasons:
        team = r.seat % 2
        on_real = real_teaches(
            r.real_better.taken(team) - r.real_played.taken(team),
            r.view_better.taken(team) - r.view_played.taken(team),
        )
        told = "Why, with every hand known" if on_real else "Why, on "
        assert r.explanation.startswith(told), r.explanation


def test_the_line_the_table_shows_stays_chosen_when_the_language_changes(
    reviewed: tuple[Path, pl.DataFrame], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The choice is sent back as its words: in the other language they matched no option, and
    none was chosen, the coach left to guess whether the table showed the game or a better line."""
    from dashboards.ui import LANGUAGE_SWITCH_KEY

    from .test_dashboard import html_views

    at, _ = _replay_at_costly_play(reviewed, monkeypatch)
    next(radio for radio in at.radio if radio.key.startswith("replay_branch_")).set_value("view").run()
    at.button(key=LANGUAGE_SWITCH_KEY).click().run()
    assert not at.exception
    choice = next(radio for radio in at.radio if radio.key.startswith("replay_branch_"))
    assert choice.options[0] == "het spel zoals gespeeld"
    assert choice.value == "view" and "<b>Betere lijn</b>" in html_views(at)["replay_table_line"][1]["html"]
    at.button(key=LANGUAGE_SWITCH_KEY).click().run()
    choice = next(radio for radio in at.radio if radio.key.startswith("replay_branch_"))
    assert choice.options[0] == "the game as played" and choice.value == "view"
