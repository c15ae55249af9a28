"""The report's HTML (``report/render.py``), the part its first mutation run left: a decision's
table (each seat's box, the trick), the score chart, the comments' places and variations, the
page around it all and the small pieces every table is made of. On the archive of
``tests/test_mutants_render.py`` (costed without the solver, built in a second), what a reader sees.
"""

from __future__ import annotations

import dataclasses
import re
from html import escape
from pathlib import Path

from manillen_replay.cards import Card, Suit
from manillen_replay.report.render import table_html

from .test_mutants_render import archive, gathered

__all__ = ["archive"]  # the fixture, shared with the first file's tests

SEAT_BOX = re.compile(
    r'<div class="seat at-([swne])( mover)?" data-seat="(\d)"><div class="name">(.*?)</div>'
    r'<div class="hand">(.*?)</div></div>'
)
CARD = re.compile(r'<svg class="card[^"]*" data-card="([0-9TJQKA]+[HDCS])"[^>]*>.*?</svg>')


def held_order(cards: list[Card], trump: Suit | None) -> list[Card]:
    """A hand as a player holds it: the trumps first, then hearts, diamonds, clubs and spades, each
    suit from the 10 (manille) down."""
    return sorted(cards, key=lambda card: (card.suit != trump, card.suit, -card.rank))


# --------------------------------------------------------------------------- a decision's table


def test_each_seat_shows_its_name_and_its_hand_as_a_player_holds_it(archive: Path) -> None:
    """Each seat's box: the name alone (the dealer's with its badge), then the cards held and
    nothing else, the trumps first and each suit high to low."""
    decisions = [d for d in gathered(archive).decisions if d.trick is not None]
    assert decisions
    trump_not_first = 0
    for decision in decisions:
        html = table_html(decision, "en")
        boxes = SEAT_BOX.findall(html)
        assert len(boxes) == 4
        for _place, _mover, seat_text, name, hand in boxes:
            seat = int(seat_text)
            badge = '<span class="badge">dealer</span>' if seat == decision.dealer else ""
            assert name == escape(decision.names[seat]) + badge
            assert CARD.sub("", hand) == ""  # the cards, nothing between them
            shown = [Card.parse(text) for text in CARD.findall(hand)]
            expected = held_order(list(decision.hands[seat]), decision.trump)
            assert shown == expected
            trump_not_first += expected != held_order(list(decision.hands[seat]), None)
    assert trump_not_first  # some hand holds a suit before the trump's, which goes first all the same


def test_the_trick_on_the_table_is_its_cards_each_with_who_played_it(archive: Path) -> None:
    """Under way, the trick in the middle is the cards played so far, in order, each with the
    player's name under it, and nothing else."""
    checked = 0
    for decision in gathered(archive).decisions:
        if not decision.table:
            continue
        html = table_html(decision, "en")
        trick = html[html.index('<div class="trick">') + len('<div class="trick">') : -len("</div></div>")]
        figures = re.findall(rf"<figure>({CARD.pattern})<figcaption>(.*?)</figcaption></figure>", trick)
        assert re.sub(r"<figure>.*?</figure>", "", trick) == ""
        assert [(Card.parse(card), name) for _, card, name in figures] == [
            (card, escape(decision.names[seat])) for seat, card in decision.table
        ]
        checked += len(decision.table) > 1
    assert checked  # a trick of two cards or more: what stands between them is seen


def test_a_call_decision_shows_the_callers_hand_alone(archive: Path) -> None:
    decision = next(d for d in gathered(archive).decisions if d.trick is None)
    html = table_html(decision, "en")
    assert html.startswith('<div class="table call"><div class="seat at-s mover"')
    (box,) = SEAT_BOX.findall(html)
    assert int(box[2]) == decision.seat
    named = dataclasses.replace(decision, names=tuple(f"<{n}>" for n in decision.names))
    assert f"&lt;{decision.names[decision.seat]}&gt;" in table_html(named, "en")
