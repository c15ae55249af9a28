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
from manillen_replay.report import render
from manillen_replay.report.build import Comment
from manillen_replay.report.render import table_html

from .test_mutants_render import LEGAL, archive, assert_no_loose_text, gathered, report, shown, table, text_of

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


# --------------------------------------------------------------------------- the score chart


def score_section(html: str) -> tuple[str, str]:
    """The score chart's wide drawing and its phone's."""
    start = html.index('<section id="score">')
    section = html[start : html.index("</section>", start)]
    wide = section[section.index('<div class="chart-wide">') : section.index('<div class="chart-narrow">')]
    return wide, section[section.index('<div class="chart-narrow">') :]


def test_each_teams_score_line_starts_at_0_in_its_teams_colour_over_a_deal_axis(archive: Path) -> None:
    """Both lines start at 0 before the first deal (its label "0"); each is drawn in the colour
    the team's name has on the page, under the axis title "deal"."""
    html = report(archive, LEGAL, "Bert")
    style = html[html.index("<style>") : html.index("</style>")]
    colours = {team: re.search(rf"\.team{team} {{ color: (#[0-9a-f]{{6}});", style)[1] for team in (0, 1)}  # type: ignore[index]
    names = {0: "Anna &amp; Carla", 1: "Bert &amp; Dirk"}
    for drawing in score_section(html):
        for team, name in names.items():
            assert f"<title>{name} · 0: 0</title>" in drawing
            lines = re.findall(r'<polyline fill="none" stroke="(#[0-9a-f]{6})"', drawing)
            assert lines == [colours[1], colours[0]]  # the player's team first, as the legend
            assert re.search(
                rf'<g class="chart-legend"><line [^>]*stroke="{colours[team]}"[^>]*/>'
                rf".*?<text [^>]*>{name}</text></g>",
                drawing,
            )
        assert re.search(r'text-anchor="middle">0</text>', drawing)  # the first deal's label: 0
        assert 'text-anchor="middle">deal</text>' in drawing
    dutch = render(gathered(archive, lang="nl"))
    for drawing in score_section(dutch):
        assert 'text-anchor="middle">spel</text>' in drawing and "Stand spel per spel" in drawing


def test_a_score_chart_of_a_point_or_two_steps_by_whole_points(archive: Path) -> None:
    """Scores of a point or two gave an axis of fifths (0,2 and 0,4): a score is whole points."""
    base = gathered(archive, lang="nl")
    deals = tuple(
        dataclasses.replace(deal, match_score=(1, 0) if i == 0 else (1, 1))
        for i, deal in enumerate(base.deals)
    )
    html = render(dataclasses.replace(base, deals=deals))
    for drawing in score_section(html):
        assert ">1</text>" in drawing
        assert not re.search(r">\d[.,]\d</text>", drawing)


def test_a_dutch_chart_writes_decimal_commas_on_its_axis() -> None:
    """An axis of fifths, in Dutch: 0,2 and 0,4."""
    from manillen_replay.report.svg import Series, line_chart

    drawing = line_chart(
        [Series("a", "#000000", [0.0, 0.9])], ["0", "1"], title="t", x_title="x", decimal=","
    )
    assert ">0,2</text>" in drawing and ">0,4</text>" in drawing
    assert not re.search(r">\d\.\d</text>", drawing)


# --------------------------------------------------------------------------- comments


VARIATION = tuple(Card.parse(text) for text in ("QH", "KH", "7S", "8S", "9S", "AS", "10D", "JC", "8D"))


def deal_list_comments(html: str) -> list[str]:
    """The comments under the deal list's rows, in order, as their text."""
    start = html.index('id="deal-list"')
    part = html[start : html.index("</table>", start)]
    return [text_of(quote) for quote in re.findall(r"<blockquote.*?</blockquote>", part)]


def test_a_variation_is_grouped_trick_by_trick_from_the_card_it_starts_at(archive: Path) -> None:
    """A variation's cards in groups of a trick: the rest of the trick under way first (from the
    card commented on: all four from its lead when the comment is on the trick or the deal), then
    four a trick, the groups apart with a dot."""
    base = gathered(archive)
    comments = tuple(
        Comment(deal=1, trick=trick, play=play, author="coach", text=f"from {play}", line=VARIATION)
        for trick, play in ((None, None), (3, None), (3, 1), (3, 2), (3, 3), (3, 4))
    )
    deal = dataclasses.replace(base.deals[0], comments=comments)
    html = render(dataclasses.replace(base, deals=(deal,)))
    ranks = [card.rank.text for card in VARIATION]
    said = deal_list_comments(html)
    assert len(said) == len(comments)
    for comment, text in zip(comments, said, strict=True):
        first = 4 - ((comment.play or 1) - 1)
        groups = [ranks[:first], *(ranks[i : i + 4] for i in range(first, len(ranks), 4))]
        assert text.endswith("variation: " + " · ".join(" ".join(group) for group in groups))
    plain = dataclasses.replace(comments[2], line=())
    html = render(dataclasses.replace(base, deals=(dataclasses.replace(deal, comments=(plain,)),)))
    assert deal_list_comments(html) == ["coach (deal 1, trick 3, play 1): from 1"]  # no variation


def test_every_comments_place_and_variation_in_dutch(archive: Path) -> None:
    """On a deal, on a trick, on a card: each comment names its place in the report's language,
    its tags and its variation too."""
    base = gathered(archive, lang="nl")
    comments = (
        Comment(deal=1, trick=None, play=None, author="coach", text="Spel."),
        Comment(deal=1, trick=2, play=None, author="coach", text="Slag.", tags=("tempo",)),
        Comment(deal=1, trick=2, play=3, author="Anna", text="Kaart.", line=VARIATION[:2]),
    )
    deal = dataclasses.replace(base.deals[0], comments=comments)
    html = render(dataclasses.replace(base, deals=(deal,)))
    assert deal_list_comments(html) == [
        "coach (spel 1): Spel.",
        "coach (spel 1, slag 2) tempo: Slag.",
        "Anna (spel 1, slag 2, kaart 3): Kaart.variant: Q K",
    ]
    english = render(dataclasses.replace(gathered(archive), deals=(deal,)))
    assert deal_list_comments(english) == [
        "coach (deal 1): Spel.",
        "coach (deal 1, trick 2) tempo: Slag.",
        "Anna (deal 1, trick 2, play 3): Kaart.variation: Q K",
    ]


# --------------------------------------------------------------------------- figures


def test_a_deal_without_its_luck_shows_a_dash_for_it(archive: Path) -> None:
    """A deal whose ledger has no luck (not measured) shows a dash in the luck column, the other
    figures as they are."""
    base = gathered(archive)
    first = base.deals[0]
    mine = {**first.ledger[0], "luck": None}
    deal = dataclasses.replace(first, ledger=(mine, first.ledger[1]))
    html = render(dataclasses.replace(base, deals=(deal,)))
    (row,) = table(html, "deal-list")
    assert row["Luck in them"] == "–"
    assert row["The cards"] == f"{shown(mine['cards'])}-{shown(first.ledger[1]['cards'])}"


# --------------------------------------------------------------------------- the page


def test_the_pages_title_names_the_player_only_in_a_players_report(archive: Path) -> None:
    """The browser's tab (and a printed page's header) says whose review it is, or the match's."""
    assert "<title>Match review: random-0</title>" in report(archive)
    assert "<title>Partijbespreking voor Bert: random-0</title>" in report(archive, LEGAL, "Bert", "nl")


def test_a_match_without_deals_has_no_score_chart_and_nothing_in_its_place(archive: Path) -> None:
    html = render(dataclasses.replace(gathered(archive), deals=()))
    assert '<section id="score">' not in html
    assert_no_loose_text(html)


def test_a_players_name_is_a_plain_cell_beside_the_figures(archive: Path) -> None:
    """In the accuracy and the ledger table the names read as text (left-aligned, free to wrap),
    only the figures right-aligned and kept on one line."""
    html = report(archive)
    for name in ("accuracy", "ledger"):
        start = html.index(f'id="{name}"')
        part = html[start : html.index("</table>", start)]
        cells = re.findall(r"<td[^>]*>", part)
        names = [cell for cell in cells if 'data-label="Player"' in cell]
        assert len(names) == 4 and set(names) == {'<td data-label="Player">'}
        assert all(cell.startswith('<td class="num" ') for cell in cells if cell not in names)


def test_a_game_of_threes_scores_show_every_figure_as_given(archive: Path) -> None:
    """A match score of three figures (a game of three players) is written whole, in its order."""
    base = gathered(archive, player="Bert")
    deal = dataclasses.replace(base.deals[0], match_score=(12, 10, 8))
    (row,) = table(render(dataclasses.replace(base, deals=(deal,))), "deal-list")
    assert row["Match score"] == "12-10-8"


def test_render_says_what_it_makes() -> None:
    """``help(render)`` tells a caller what comes back (its words stood after an import, where
    Python does not take them for the function's own)."""
    assert render.__doc__ is not None and "one HTML document" in render.__doc__
