"""Cards as HTML: suit symbols in red and black, hands around a table, the trick in the middle.

Pure functions returning HTML text, every text in it escaped; the deal replay page draws it with
:mod:`dashboards.html_view` (whose stylesheet includes :data:`CSS`): the table, the step buttons
and slider, the tricks so far and the facts of the play as two elements instead of about thirty.
Every card carries ``data-card`` (``10H``) and every hand and trick ``data-seat`` so that tests and
the browser test can find them; whatever a click moves to carries ``data-send`` (the step).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

from manillen_replay.cards import Card, CardSet, Suit

SYMBOLS: dict[str, str] = {str(card): card.symbol for card in Card}
"""Each card's code as stored (``7C``, ``10H``) and as the pages write it (``7♣``, ``10♥``): the
codes' suit letters are English (clubs, hearts), the symbols read alike in both languages."""

CSS = """
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
.mr-sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0);
  white-space: nowrap; }
.mr-red { color: #c8102e; }
.mr-black { color: #111; }
.mr-card.mr-legal { border: 2px solid #1a9e4b; box-shadow: 0 0 0 2px rgba(26,158,75,0.35); }
.mr-card.mr-winning { border: 2px solid #f6c343; box-shadow: 0 0 0 3px rgba(246,195,67,0.6); }
.mr-card.mr-illegal { border: 2px solid #c8102e; }
.mr-card.mr-back { background: repeating-linear-gradient(45deg, #2b4f8a 0 4px, #3d67ad 4px 8px);
  border-color: #fff; }
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
.mr-trick-played { display: flex; flex-direction: column; align-items: center; }
.mr-trick-who { color: #fff; font-size: 0.7rem; max-width: 3.6rem; overflow: hidden; text-overflow: ellipsis;
  white-space: nowrap; }
/* On a phone the table's cards and trick are smaller, so that the west and east hands take two
   cards a row: the table is some 600 pixels high instead of 880, the trick in the first screen. */
@media (max-width: 640px) {
  .mr-table { gap: 0.4rem; padding: 0.6rem; }
  .mr-table .mr-trick { width: 8.5rem; height: 8.5rem; }
  .mr-table .mr-card { width: 1.9rem; height: 2.6rem; font-size: 0.9rem; }
  .mr-table .mr-card .mr-suit { font-size: 0.95rem; }
  .mr-table .mr-hand { min-height: 2.6rem; max-width: 8.6rem; }
  .mr-table .mr-seat { padding: 0.3rem; }
}
.mr-card-row { display: flex; flex-wrap: wrap; gap: 3px; align-items: center; margin: 0.25rem 0 0.75rem; }
.mr-caption { font-size: 0.875rem; opacity: 0.65; margin: 0 0 0.75rem; }
.mr-html p { margin: 0 0 0.75rem; }
.mr-steps { display: grid; grid-template-columns: repeat(4, minmax(0, 1fr)); gap: 0.75rem;
  margin: 0 0 0.5rem; padding: 0.25rem 0 0.5rem;
  position: sticky; bottom: 0; z-index: 2; background: var(--st-background-color, #fff); }
.mr-steps button { container-type: inline-size; }
.mr-steps button, .mr-link { font: inherit; color: inherit; cursor: pointer; }
.mr-steps button { min-height: 2.5rem; padding: 0.25rem 0.5rem; border-radius: var(--st-base-radius, 0.5rem);
  border: 1px solid var(--st-border-color, rgba(49, 51, 63, 0.2));
  background: var(--st-background-color, transparent); }
.mr-steps button:hover, .mr-steps button:focus-visible { border-color: var(--st-primary-color, #ff4b4b);
  color: var(--st-primary-color, #ff4b4b); outline: none; }
.mr-steps button:active { background: var(--st-primary-color, #ff4b4b); color: #fff; }
.mr-step { display: flex; align-items: center; justify-content: center; gap: 0.35rem; white-space: nowrap; }
.mr-step svg { width: 1.1rem; height: 1.1rem; flex: none; fill: none; stroke: currentColor; stroke-width: 2;
  stroke-linecap: round; stroke-linejoin: round; }
.mr-step kbd { font: inherit; font-size: 0.75rem; opacity: 0.6; }
@container (max-width: 6.25rem) { .mr-step kbd { display: none; } }
@container (max-width: 5.5rem) { .mr-step svg { display: none; } }
@container (max-width: 3.5rem) { .mr-step svg { display: block; } .mr-step .mr-word { display: none; } }
.mr-range { display: flex; flex-direction: column; gap: 0.25rem; font-size: 0.875rem; margin-bottom: 1rem; }
.mr-range > span { display: flex; justify-content: space-between; }
.mr-range input { width: 100%; margin: 0; min-height: 1.75rem;
  accent-color: var(--st-primary-color, #ff4b4b); }
.mr-heading { font-weight: 600; margin: 0 0 0.5rem; }
.mr-trick-line { display: flex; align-items: center; gap: 0.5rem; }
.mr-trick-line > span { min-width: 6rem; font-size: 0.875rem; opacity: 0.75; }
.mr-links { display: flex; flex-direction: column; align-items: flex-start; gap: 0.1rem;
  margin-bottom: 1rem; }
.mr-link { background: none; border: 0; padding: 0.2rem 0; text-align: left; }
.mr-link:hover, .mr-link:focus-visible { color: var(--st-primary-color, #ff4b4b); outline: none; }
.mr-box { padding: 0.75rem 1rem; border-radius: var(--st-base-radius, 0.5rem); margin: 0 0 0.75rem; }
.mr-box p:last-child { margin-bottom: 0; }
.mr-box.mr-error { background: rgba(255, 43, 43, 0.12); }
.mr-box.mr-warning { background: rgba(255, 189, 69, 0.18); }
.mr-box.mr-info { background: rgba(28, 131, 225, 0.12); }
.mr-box.mr-success { background: rgba(33, 195, 84, 0.14); }
.mr-whatif td { vertical-align: top; }
.mr-whatif-cards { display: flex; flex-wrap: wrap; gap: 0.4rem; margin: 0 0 0.75rem; }
.mr-whatif-card { font: inherit; color: inherit; cursor: pointer; background: none;
  min-width: 2.75rem; min-height: 2.75rem; padding: 0.3rem 0.7rem;
  border: 1px solid var(--st-border-color, rgba(128, 128, 128, 0.4));
  border-radius: var(--st-base-radius, 0.5rem); }
.mr-whatif-card:hover, .mr-whatif-card:focus-visible { border-color: var(--st-primary-color, #ff4b4b);
  outline: none; }
.mr-whatif-card[aria-pressed="true"] { border-color: var(--st-primary-color, #ff4b4b);
  box-shadow: inset 0 0 0 1px var(--st-primary-color, #ff4b4b); }
.mr-whatif tr.mr-changed td { background: rgba(255, 189, 69, 0.18); }
.mr-whatif .mr-change { font-weight: 600; white-space: nowrap; }
.mr-html details { border: 1px solid var(--st-border-color, rgba(49, 51, 63, 0.2));
  border-radius: var(--st-base-radius, 0.5rem); margin: 0 0 0.75rem; }
.mr-html summary { cursor: pointer; padding: 0.6rem 1rem; }
.mr-html details > :not(summary) { margin: 0 1rem 0.75rem; }
.mr-html code.mr-address { display: block; user-select: all; overflow-wrap: anywhere; font-size: 0.85rem;
  padding: 0.5rem 0.75rem; border-radius: var(--st-base-radius, 0.5rem);
  background: var(--st-secondary-background-color, rgba(128, 128, 128, 0.1)); }
.mr-html hr { border: 0; border-top: 1px solid var(--st-border-color, rgba(49, 51, 63, 0.2));
  margin: 1.5rem 0; }
.mr-html h3 { font-size: 1.5rem; font-weight: 600; margin: 0 0 0.75rem; }
"""
"""The stylesheet of the cards and the rest of the deal replay's drawing (part of
:data:`dashboards.html_view.CSS`, sent once with the component): Streamlit's look in its theme
colours (``--st-*``, light and dark), step buttons that drop their key hint, then their icon,
when a phone's column is too narrow for them, and whose bar sticks to the foot of the screen (in
the page's background colour) while the card table above it runs past the screen's foot."""

# Where the seats sit, in clockwise order from the bottom of the screen, by number of seats.
_PLACES: dict[int, tuple[str, ...]] = {
    2: ("s", "n"),
    3: ("s", "w", "e"),
    4: ("s", "w", "n", "e"),
    6: ("s", "w", "w", "n", "e", "e"),
}


def card_html(
    card: Card, *, classes: Iterable[str] = (), small: bool = False, title: str = "", spoken: str = ""
) -> str:
    """One card: rank and suit symbol, red for harten and koeken, black for klaveren and schoppen.

    :param spoken: words a screen reader says after the card (what its outline shows: "may play"),
        not drawn.

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
        f'<span>{card.rank.text}</span><span class="mr-suit">{card.suit.symbol}</span>'
        f"{spoken_html(spoken)}</span>"
    )


def spoken_html(words: str) -> str:
    """Words for a screen reader alone (drawn nowhere), or nothing.

    >>> spoken_html("may play")
    '<span class="mr-sr"> (may play)</span>'
    """
    return f'<span class="mr-sr"> ({escape(words)})</span>' if words else ""


def cards_row(cards: Iterable[Card], *, marked: CardSet | None = None, small: bool = True) -> str:
    """A row of cards, ``marked`` ones outlined in green."""
    parts = [
        card_html(card, classes=("legal",) if marked is not None and card in marked else (), small=small)
        for card in cards
    ]
    return f'<div class="mr-card-row">{"".join(parts)}</div>'


def inline_card(card: Card) -> str:
    """A card inside running text: red for harten and koeken, the text's own colour for klaveren
    and schoppen (black in the light theme, white in the dark); in markdown as in the drawings.

    >>> inline_card(Card.parse("KS")), inline_card(Card.parse("9D"))
    ('<b>K♠</b>', '<b style="color:#c8102e">9♦</b>')
    """
    colour = ' style="color:#c8102e"' if card.suit.is_red else ""
    return f"<b{colour}>{card.rank.text}{card.suit.symbol}</b>"


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
    face_down: Sequence[int] | None = None,
) -> str:
    """The hands around a green table with the trick on the table in the middle.

    :param names: the name shown for each seat.
    :param hands: the cards each seat still holds.
    :param table: ``(seat, card)`` of the cards on the table.
    :param trump: the trump suit (its cards are sorted first in each hand), ``None`` for muil.
    :param to_play: the seat to play next; its ``may_play`` cards are outlined in green.
    :param winning: the seat whose card on the table wins so far (outlined in gold).
    :param order: the seats in clockwise order, the first drawn at the bottom (default 0, 1, ...).
    :param teams: the side of each seat (default seat mod 2), written ``team A`` or ``team B``.
    :param note: a short text shown in the middle of the trick (who takes it).
    :param labels: the words ``dealer``, ``to_play`` and ``team`` (with ``{team}``) in the page
        language, and what a screen reader is told that the outlines and places show: ``may_play``
        (a card the seat to play may play), ``winning`` (the card winning the trick so far),
        ``hand`` (with ``{name}``: a seat's cards) and ``trick`` (the cards on the table).
    :param face_down: how many hidden cards each seat holds, for a table as one player saw it:
        drawn as that many card backs before the cards ``hands`` shows of the seat (none, or its
        face-up table cards); the seat to play is drawn as it is.
    """
    words = {
        "dealer": "dealer",
        "to_play": "to play",
        "team": "team {team}",
        "may_play": "may play",
        "winning": "winning so far",
        "hand": "{name}'s cards",
        "trick": "on the table",
        **(labels or {}),
    }
    order = list(order) if order is not None else list(range(len(hands)))
    sides = list(teams) if teams is not None else [seat % 2 for seat in range(len(hands))]
    places = _PLACES.get(len(order), ("s", "w", "n", "e", *(["e"] * max(0, len(order) - 4))))
    place_of = {seat: places[index] for index, seat in enumerate(order)}
    cells: dict[str, list[str]] = {}
    for index, seat in enumerate(order):
        hand = hands[seat]
        # a side is written A or B, as the Archive and Record pages name the teams
        side = "AB"[sides[seat]] if sides[seat] in (0, 1) else sides[seat]
        badges = f'<span class="mr-badge">{escape(words["team"].format(team=side))}</span>'
        if seat == dealer:
            badges += f'<span class="mr-badge">{escape(words["dealer"])}</span>'
        moving = seat == to_play
        if moving:
            badges += f'<span class="mr-badge mr-move">{escape(words["to_play"])}</span>'
        cards = "".join(
            card_html(c, classes=("legal",), spoken=words["may_play"])
            if moving and may_play is not None and c in may_play
            else card_html(c)
            for c in hand.sorted_for_display(trump)
        )
        if face_down is not None and not moving:
            cards = '<span class="mr-card mr-back" aria-hidden="true"></span>' * face_down[seat] + cards
        box = (
            f'<div class="mr-seat{" mr-to-play" if moving else ""}" data-seat="{seat}">'
            f'<div class="mr-name">{escape(names[seat])}{badges}</div>'
            f'<div class="mr-hand" data-seat="{seat}" role="group"'
            f' aria-label="{escape(words["hand"].format(name=names[seat]))}">{cards}</div></div>'
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
    # in a row (six seats, or seats sharing a side) each card says whose it is: no place tells it
    played = "".join(
        (
            f'<div class="mr-trick-{place_of.get(seat, "s")}" data-seat="{seat}">'
            if by_compass
            else f'<div class="mr-trick-played" data-seat="{seat}">'
        )
        # a place on the table says whose card it is, and the gold outline that it wins: in words too
        + (f'<span class="mr-sr">{escape(names[seat])}: </span>' if by_compass else "")
        + (
            card_html(card, classes=("winning",), spoken=words["winning"])
            if seat == winning
            else card_html(card)
        )
        + ("" if by_compass else f'<span class="mr-trick-who">{escape(names[seat])}</span>')
        + "</div>"
        for seat, card in table
    )
    middle = f'<div class="mr-trick-note">{escape(note)}</div>' if note else ""
    layout = "" if by_compass else " mr-trick-row"
    return (
        f'<div class="mr-table">{seats}'
        f'<div class="mr-trick{layout}" data-cards="{len(table)}" role="group"'
        f' aria-label="{escape(words["trick"])}">{played}{middle}</div></div>'
    )


_STEP_ICONS = {
    "start": '<path d="M6 6v12M17 6l-6 6 6 6"/>',
    "back": '<path d="M15 6l-6 6 6 6"/>',
    "forward": '<path d="M9 6l6 6-6 6"/>',
    "end": '<path d="M18 6v12M7 6l6 6-6 6"/>',
}


def step_buttons_html(targets: Sequence[tuple[str, str, int, str, str]]) -> str:
    """A row of step buttons: ``(name, label, step it moves to, key, key hint)`` each (the key as
    the browser names it, ``ArrowLeft``; the hint as the button shows it, ``←``), the icon on the
    side it points to (as the replay's Start, Back, Forward and End)."""
    buttons = []
    for name, label, target, key_name, hint in targets:
        icon = f'<svg viewBox="0 0 24 24" aria-hidden="true">{_STEP_ICONS[name]}</svg>'
        word = f'<span class="mr-word">{escape(label)}</span>'
        key = f"<kbd>{escape(hint)}</kbd>"
        inside = f"{icon}{word}{key}" if name in ("start", "back") else f"{word}{icon}{key}"
        buttons.append(
            f'<button type="button" data-send="{target}" data-button="{name}" aria-label="{escape(label)}"'
            f' aria-keyshortcuts="{escape(key_name)}">'
            f'<span class="mr-step">{inside}</span></button>'
        )
    return f'<div class="mr-steps">{"".join(buttons)}</div>'


def step_range_html(label: str, step: int, last: int) -> str:
    """The step slider (the browser's own: Home, End and the arrows move it while it has the
    focus), its value beside the label."""
    return (
        f'<label class="mr-range"><span><span>{escape(label)}</span><output>{step}</output></span>'
        f'<input type="range" name="step" min="0" max="{last}" step="1" value="{step}" data-send-value'
        f' aria-label="{escape(label)}"></label>'
    )


def link_list_html(heading: str, links: Sequence[tuple[str, int]], *, raw: bool = False) -> str:
    """A heading over lines that each move to a step when clicked: ``(text, step)`` each.

    :param raw: the texts are HTML already (their own parts escaped), not plain text.
    """
    lines = "".join(
        f'<button type="button" class="mr-link" data-send="{target}">{text if raw else escape(text)}</button>'
        for text, target in links
    )
    return f'<div class="mr-heading">{escape(heading)}</div><div class="mr-links">{lines}</div>'


def box_html(kind: str, html: str) -> str:
    """A message box (``error``, ``warning``, ``info``, ``success``) around ``html`` (escaped
    already), as Streamlit draws one."""
    return f'<div class="mr-box mr-{kind}">{html}</div>'
