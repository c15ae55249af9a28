"""Cards as HTML: suit symbols in red and black, hands around a table, the trick in the middle.

Pure functions returning HTML text; the deal replay page hands it to ``st.markdown`` (``st.html``'s
sanitiser would cost a new tab its scripts). Every card carries ``data-card`` (``10H``) and every
hand and trick ``data-seat`` so that tests and the browser test can find them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

from manillen_replay.cards import Card, CardSet, Suit

STYLE = """
<style>
.mr-table { display: grid; grid-template-columns: minmax(0, 1fr) auto minmax(0, 1fr);
  grid-template-rows: auto auto auto;
  gap: 0.6rem; align-items: center; justify-items: center; background: #1f6f43; border-radius: 18px;
  padding: 1rem; margin-bottom: 0.5rem; }
.mr-seat { background: rgba(255,255,255,0.92); border-radius: 10px; padding: 0.35rem 0.5rem;
  min-width: 0; max-width: 100%; text-align: center; }
.mr-seat.mr-to-play { box-shadow: 0 0 0 3px #f6c343; }
.mr-place { display: flex; flex-direction: column; gap: 0.5rem; align-items: center; min-width: 0; }
.mr-seat-n { grid-column: 2; grid-row: 1; }
.mr-seat-w { grid-column: 1; grid-row: 2; }
.mr-seat-e { grid-column: 3; grid-row: 2; }
.mr-seat-s { grid-column: 2; grid-row: 3; }
.mr-name { font-weight: 600; color: #222; font-size: 0.95rem; }
.mr-badge { display: inline-block; font-size: 0.7rem; border-radius: 6px; padding: 0 0.3rem;
  margin-left: 0.25rem; background: #e8e8e8; color: #333; }
.mr-badge.mr-move { background: #f6c343; }
.mr-hand { display: flex; flex-wrap: wrap; justify-content: center; gap: 2px; margin: 0.2rem auto 0;
  min-height: 3.1rem; max-width: 9.9rem; }
.mr-card { display: inline-flex; flex-direction: column; align-items: center; justify-content: center;
  width: 2.3rem; height: 3.1rem; border-radius: 6px; background: #fff; border: 1px solid #999;
  font-family: Georgia, 'DejaVu Serif', serif; font-size: 1.05rem; line-height: 1.05; font-weight: 600; }
.mr-card .mr-suit { font-size: 1.15rem; }
.mr-red { color: #c8102e; }
.mr-black { color: #111; }
.mr-card.mr-legal { border: 2px solid #1a9e4b; box-shadow: 0 0 0 2px rgba(26,158,75,0.35); }
.mr-card.mr-winning { border: 2px solid #f6c343; box-shadow: 0 0 0 3px rgba(246,195,67,0.6); }
.mr-card.mr-illegal { border: 2px solid #c8102e; }
.mr-card.mr-small { width: 1.9rem; height: 2.5rem; font-size: 0.9rem; }
.mr-trick { grid-column: 2; grid-row: 2; display: grid; width: 11rem; height: 11rem;
  grid-template-columns: 1fr 1fr 1fr; grid-template-rows: 1fr 1fr 1fr; align-items: center;
  justify-items: center; background: rgba(0,0,0,0.12); border-radius: 50%; }
.mr-trick-n { grid-column: 2; grid-row: 1; }
.mr-trick-w { grid-column: 1; grid-row: 2; }
.mr-trick-e { grid-column: 3; grid-row: 2; }
.mr-trick-s { grid-column: 2; grid-row: 3; }
.mr-trick-note { grid-column: 2; grid-row: 2; color: #fff; font-size: 0.75rem; text-align: center; }
.mr-trick.mr-trick-row { display: flex; flex-wrap: wrap; gap: 4px; justify-content: center;
  align-content: center;
  border-radius: 18px; }
.mr-trick-row .mr-trick-note { width: 100%; }
.mr-row { display: flex; flex-wrap: wrap; gap: 3px; align-items: center; }
</style>
"""
"""The stylesheet of the cards, sent once per page (``st.markdown`` of a lone style block)."""

# Where the seats sit, in clockwise order from the bottom of the screen, by number of seats.
_PLACES: dict[int, tuple[str, ...]] = {
    2: ("s", "n"),
    3: ("s", "w", "e"),
    4: ("s", "w", "n", "e"),
    6: ("s", "w", "w", "n", "e", "e"),
}


def card_html(card: Card, *, classes: Iterable[str] = (), small: bool = False, title: str = "") -> str:
    """One card: rank and suit symbol, red for harten and koeken, black for klaveren and schoppen.

    >>> card_html(Card.parse("10H"))
    '<span class="mr-card mr-red" data-card="10H"><span>10</span><span class="mr-suit">♥</span></span>'
    """
    colour = "mr-red" if card.suit.is_red else "mr-black"
    names = ["mr-card", colour, *(f"mr-{c}" for c in classes)]
    if small:
        names.append("mr-small")
    tip = f' title="{escape(title)}"' if title else ""
    return (
        f'<span class="{" ".join(names)}" data-card="{card}"{tip}>'
        f'<span>{card.rank.text}</span><span class="mr-suit">{card.suit.symbol}</span></span>'
    )


def cards_row(cards: Iterable[Card], *, marked: CardSet | None = None, small: bool = True) -> str:
    """A row of cards, ``marked`` ones outlined in green."""
    parts = [
        card_html(card, classes=("legal",) if marked is not None and card in marked else (), small=small)
        for card in cards
    ]
    return f'<div class="mr-row">{"".join(parts)}</div>'


def inline_card(card: Card) -> str:
    """A card inside running text, coloured: for findings and messages rendered as HTML."""
    colour = "#c8102e" if card.suit.is_red else "#111"
    return f'<b style="color:{colour}">{card.rank.text}{card.suit.symbol}</b>'


def table_html(
    *,
    names: Sequence[str],
    hands: Sequence[CardSet],
    table: Sequence[tuple[int, Card]],
    trump: Suit | None,
    dealer: int,
    to_play: int | None,
    may_play: CardSet | None,
    winning: int | None,
    order: Sequence[int] | None = None,
    teams: Sequence[int] | None = None,
    note: str = "",
    labels: dict[str, str] | None = None,
) -> str:
    """The hands around a green table with the trick on the table in the middle.

    :param names: the name shown for each seat.
    :param hands: the cards each seat still holds.
    :param table: ``(seat, card)`` of the cards on the table.
    :param trump: the trump suit (its cards are sorted first in each hand), ``None`` for muil.
    :param to_play: the seat to play next; its ``may_play`` cards are outlined in green.
    :param winning: the seat whose card on the table wins so far (outlined in gold).
    :param order: the seats in clockwise order, the first drawn at the bottom (default 0, 1, ...).
    :param teams: the side of each seat (default seat mod 2).
    :param note: a short text shown in the middle of the trick (who takes it).
    :param labels: the words ``dealer``, ``to_play`` and ``team`` (with ``{team}``) in the page language.
    """
    words = {"dealer": "dealer", "to_play": "to play", "team": "team {team}", **(labels or {})}
    order = list(order) if order is not None else list(range(len(hands)))
    sides = list(teams) if teams is not None else [seat % 2 for seat in range(len(hands))]
    places = _PLACES.get(len(order), ("s", "w", "n", "e", *(["e"] * max(0, len(order) - 4))))
    place_of = {seat: places[index] for index, seat in enumerate(order)}
    cells: dict[str, list[str]] = {}
    for index, seat in enumerate(order):
        hand = hands[seat]
        badges = f'<span class="mr-badge">{escape(words["team"].format(team=sides[seat]))}</span>'
        if seat == dealer:
            badges += f'<span class="mr-badge">{escape(words["dealer"])}</span>'
        moving = seat == to_play
        if moving:
            badges += f'<span class="mr-badge mr-move">{escape(words["to_play"])}</span>'
        cards = "".join(
            card_html(c, classes=("legal",) if moving and may_play is not None and c in may_play else ())
            for c in hand.sorted_for_display(trump)
        )
        box = (
            f'<div class="mr-seat{" mr-to-play" if moving else ""}" data-seat="{seat}">'
            f'<div class="mr-name">{escape(names[seat])}{badges}</div>'
            f'<div class="mr-hand" data-seat="{seat}">{cards}</div></div>'
        )
        # the west side is walked upwards: the later seat sits higher
        place = places[index]
        cells.setdefault(place, [])
        if place == "w":
            cells[place].insert(0, box)
        else:
            cells[place].append(box)
    seats = "".join(
        f'<div class="mr-place mr-seat-{place}">{"".join(boxes)}</div>' for place, boxes in cells.items()
    )
    by_compass = len(set(place_of.values())) == len(place_of)
    played = "".join(
        (
            f'<div class="mr-trick-{place_of.get(seat, "s")}" data-seat="{seat}">'
            if by_compass
            else f'<div data-seat="{seat}">'
        )
        + f"{card_html(card, classes=('winning',) if seat == winning else ())}</div>"
        for seat, card in table
    )
    middle = f'<div class="mr-trick-note">{escape(note)}</div>' if note else ""
    layout = "" if by_compass else " mr-trick-row"
    return (
        f'<div class="mr-table">{seats}'
        f'<div class="mr-trick{layout}" data-cards="{len(table)}">{played}{middle}</div></div>'
    )
