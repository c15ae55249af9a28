"""A :class:`~.build.Report` as one self-contained HTML page: styles and pictures inside, nothing to fetch.

Plain string building with :func:`html.escape` on every text from a record or the archive. The page
reads on a phone (one column below 640 pixels, the wide tables' rows stacked, each chart in a
drawing for a phone's width) and prints on A4 (a print stylesheet fits every table inside the
margins, keeps each decision on one page and drops the colours of the background). Every pair of
team figures is in one order, the player's team first (:attr:`~.build.Report.team_order`).
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from .. import __version__
from ..analysis.ledger import FORMULA_VERSION
from ..cards import Card
from ..engine import DealKind
from ..rules import VARIANTS, Contract
from .build import BetterLine, Comment, DealLine, Decision, PlayerReview, Report
from .svg import (
    LEDGER_STEPS,
    PLAYER_COLOURS,
    TEAM_COLOURS,
    Series,
    card_svg,
    ledger_steps,
    line_chart,
    minus_signs,
    number,
    suit_svg,
    waterfall,
    waterfall_rows,
)
from .words import decimal_sign, say

STYLE = """
:root { --ink: #1d1d1d; --muted: #5a5a5a; --line: #d9d9d9; --felt: #1f6f43; }
* { box-sizing: border-box; }
body { margin: 0; font-family: -apple-system, "Segoe UI", Roboto, "DejaVu Sans", Arial, sans-serif;
  color: var(--ink); background: #f6f6f3; line-height: 1.4; }
main { max-width: 900px; margin: 0 auto; padding: 16px; background: #fff; }
h1 { font-size: 1.45rem; margin: 0 0 4px; }
h2 { font-size: 1.15rem; margin: 26px 0 8px; border-bottom: 2px solid var(--felt); padding-bottom: 3px; }
h3 { font-size: 1rem; margin: 0 0 8px; }
p { margin: 4px 0; }
.meta, .note, footer { color: var(--muted); font-size: 0.85rem; }
.scroll { overflow-x: auto; }
table.list { border-collapse: collapse; width: 100%; font-size: 0.88rem; }
table.list th, table.list td { border-bottom: 1px solid var(--line); padding: 4px 6px; text-align: left;
  vertical-align: top; }
table.list th { background: #eef3ef; }
table.list th { font-weight: 600; vertical-align: bottom; }
table.list td.num, table.list th.num { text-align: right; }
table.list td.num, .nowrap { white-space: nowrap; }
tr.comment td { border-bottom: 1px solid var(--line); background: #fffbea; font-size: 0.84rem; }
tr.comment blockquote { position: sticky; left: 0; max-width: calc(100vw - 48px); }
.team0 { color: #1f77b4; font-weight: 600; }
.team1 { color: #d62728; font-weight: 600; }
.gain { color: #2e8b57; }
.loss { color: #c8102e; }
svg.suit { vertical-align: -1px; }
svg.chart { display: block; max-width: 100%; height: auto; }
.chart-narrow { display: none; }
.chart-narrow svg.chart { max-width: 520px; }
.decision { border: 1px solid var(--line); border-radius: 10px; padding: 12px; margin: 12px 0; }
.table { display: grid; grid-template-columns: 1fr auto 1fr; grid-template-areas: ". n ." "w t e" ". s .";
  gap: 8px; align-items: center; justify-items: center; background: var(--felt); border-radius: 14px;
  padding: 10px; margin: 8px 0; }
.seat { background: rgba(255,255,255,0.95); border-radius: 8px; padding: 4px 6px; text-align: center;
  max-width: 100%; }
.seat .name { font-weight: 600; font-size: 0.85rem; }
.seat.mover { box-shadow: 0 0 0 3px #e0a800; }
.badge { font-size: 0.7rem; background: #e8e8e8; border-radius: 5px; padding: 0 4px; margin-left: 4px; }
.hidden { font-size: 0.8rem; color: var(--muted); padding: 0.6rem 0.4rem; border: 1.5px dashed var(--line);
  border-radius: 6px; }
.hand { display: flex; flex-wrap: wrap; justify-content: center; gap: 2px; max-width: 270px; }
.at-n { grid-area: n; } .at-w { grid-area: w; } .at-e { grid-area: e; } .at-s { grid-area: s; }
.table.six { grid-template-areas: ". n ." "nw t ne" "sw t se" ". s ."; }
.at-nw { grid-area: nw; } .at-sw { grid-area: sw; } .at-ne { grid-area: ne; } .at-se { grid-area: se; }
.trick { grid-area: t; display: flex; gap: 4px; flex-wrap: wrap; justify-content: center; min-width: 110px;
  min-height: 64px; align-items: center; background: rgba(0,0,0,0.15); border-radius: 12px; padding: 6px; }
.trick figure { margin: 0; text-align: center; color: #fff; font-size: 0.7rem; }
.trick .lead { color: #fff; font-size: 0.8rem; }
.costs { margin: 6px 0; padding-left: 18px; }
.explanation { font-style: italic; }
blockquote { margin: 6px 0; padding: 4px 10px; border-left: 4px solid #e0a800; background: #fffbea; }
.legend { font-size: 0.8rem; color: var(--muted); }
.contract { font-size: 0.9rem; }
@media (max-width: 640px) {
  main { padding: 10px; }
  .table { grid-template-columns: 1fr; grid-template-areas: "n" "w" "t" "e" "s"; }
  .table.six { grid-template-areas: "n" "nw" "sw" "t" "ne" "se" "s"; }
  table.list { font-size: 0.8rem; }
  /* A table too wide for a phone stacks its rows: each row a block of its cells, each cell with
     its column's label over its value, two or three to a line. */
  table.stack, table.stack tbody, table.stack tr, table.stack td { display: block; }
  table.stack thead { display: none; }
  table.stack tbody tr:not(.comment) { display: grid; gap: 2px 10px; padding: 6px 2px;
    grid-template-columns: repeat(auto-fill, minmax(6.5rem, 1fr)); border-bottom: 1px solid var(--line); }
  table.stack tbody td, table.stack tbody td.num { border: 0; padding: 0; text-align: left; min-width: 0;
    white-space: normal; overflow-wrap: anywhere; }
  table.stack tbody td::before { content: attr(data-label); display: block; font-size: 0.72rem;
    color: var(--muted); }
  table.stack tr.comment td::before { content: none; }
  tr.comment blockquote { position: static; max-width: none; }
}
/* Charts are drawn twice: the wide drawing's text would shrink below 11 pixels in a phone's
   column, so there the narrow one (drawn for about 340 pixels, its text at full size) shows. */
@media (max-width: 700px) {
  .chart-wide { display: none; }
  .chart-narrow { display: block; }
}
@page { size: A4; margin: 14mm 12mm; }
@media print {
  body { background: #fff; font-size: 10pt; }
  main { max-width: none; padding: 0; }
  .decision, tr, .chart { break-inside: avoid; }
  h2, h3 { break-after: avoid; }
  .table { background: #fff; border: 1.5px solid var(--felt); }
  .trick { background: #eef3ef; }
  .trick figure, .trick .lead { color: var(--ink); }
  .scroll { overflow: visible; }
  tr.comment blockquote { position: static; max-width: none; }
  .chart-wide { display: block; }
  .chart-narrow { display: none; }
  table.list { font-size: 8.5pt; }
  table.list th, table.list td { padding: 3px 4px; }
}
"""
"""The report's stylesheet: screen, phone and A4 print."""

NARROW = 340
"""The width the charts are drawn for on a phone: a 390-pixel screen's column (370 pixels) shows
them a little larger than drawn, so their 11-unit text stays at 11 pixels or more."""

# Where the seats sit by their number, clockwise from the bottom: the player who decided sits at
# the bottom (the six-player table has two seats on each side).
_PLACES = {
    2: ("s", "n"),
    3: ("s", "w", "e"),
    4: ("s", "w", "n", "e"),
    6: ("s", "sw", "nw", "n", "ne", "se"),
}


def _number(value: float | None, lang: str, digits: int = 1) -> str:
    if value is None:
        return "–"
    return number(value, decimal=decimal_sign(lang), digits=digits)


def _signed(value: float | None, lang: str) -> str:
    if value is None:
        return "–"
    return number(value, signed=True, decimal=decimal_sign(lang))


def _ordered(report: Report, values: Sequence[int]) -> tuple[int, ...]:
    """Two teams' figures in the report's team order (:attr:`Report.team_order`); others as given.

    >>> from .build import Report
    >>> teams = ("Anna & Carla", "Bert & Dirk")
    >>> mine = Report("m", "en", "Bert", None, None, None, teams, True, (), None, (), (), (), first_team=1)
    >>> _ordered(mine, (12, 10))
    (10, 12)
    """
    if len(values) != 2:
        return tuple(values)
    return tuple(values[team] for team in report.team_order)


def _dash(report: Report, values: Sequence[int], order: tuple[int, int] | None = None) -> str:
    """Two teams' figures as ``12-10``, in the report's team order (or ``order``: a block's)."""
    if order is not None and len(values) == 2:
        return "-".join(str(values[team]) for team in order)
    return "-".join(str(value) for value in _ordered(report, values))


def _card_text(card: Card, lang: str) -> str:
    # one piece: on a phone the sign wrapped away from its rank, alone on the next line
    return f'<span class="nowrap">{escape(card.rank.text)}{suit_svg(card.suit, lang=lang)}</span>'


def _contract(lang: str, deal: DealLine | Decision) -> str:
    """A deal's contract as HTML: ``troef koeken ♦`` (the suit's sign drawn), ``muil``, with en face
    and the knocks; the game's words are Flemish in both languages."""
    if isinstance(deal, DealLine) and deal.kind is DealKind.REDEAL:
        return escape(say(lang, "redeal"))
    if deal.contract is None:
        return escape(say(lang, "no_contract"))
    if deal.contract is Contract.TRUMP and deal.trump is not None:
        name = deal.trump.dutch
        # kept on one line: the sign alone at the start of the next line read as a card
        named = escape(say(lang, "trump", suit=name))
        text = f'<span class="nowrap">{named} {suit_svg(deal.trump, lang=lang)}</span>'
    else:
        text = escape(say(lang, deal.contract.value))
    if deal.en_face:
        text += ", " + escape(say(lang, "en_face"))
    if deal.knocks:
        text += ", " + ", ".join(("klop", "tegenklop")[i % 2] for i in range(deal.knocks))
    return text


def _cell(label: str, content: str, *, num: bool = False, tone: str = "") -> str:
    """One cell of a list, its column's label in ``data-label``: a phone shows the label over the
    value when the table's rows stack (escaped here; ``content`` is HTML already).

    >>> _cell("Luck", "+2", num=True)
    '<td class="num" data-label="Luck">+2</td>'
    """
    classes = " ".join(c for c in ("num" if num else "", tone) if c)
    kind = f' class="{classes}"' if classes else ""
    return f'<td{kind} data-label="{escape(label, quote=True)}">{content}</td>'


def _list(heads: Sequence[tuple[str, bool]], rows: Sequence[str], *, name: str, stack: bool) -> str:
    """A table of the report: ``heads`` are each column's label and whether it holds figures.

    :param stack: on a phone its rows stack, each a block of its cells with their labels, rather
        than scroll sideways (a table wider than a phone's screen).
    """
    figures = ' class="num"'
    header = "".join(f"<th{figures if num else ''}>{escape(label)}</th>" for label, num in heads)
    kind = "list stack" if stack else "list"
    return (
        f'<div class="scroll"><table class="{kind}" id="{name}"><thead><tr>{header}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def _comment_place(lang: str, comment: Comment) -> str:
    if comment.trick is None:
        return say(lang, "comment_deal", deal=comment.deal)
    if comment.play is None:
        return say(lang, "comment_trick", deal=comment.deal, trick=comment.trick)
    return say(lang, "comment_play", deal=comment.deal, trick=comment.trick, play=comment.play)


def _variation_html(lang: str, comment: Comment) -> str:
    """A comment's variation: its cards in the order they would have been played, a trick a group."""
    if not comment.line:
        return ""
    first = (comment.play or 1) - 1
    tricks: list[list[Card]] = [[]]
    for card in comment.line:
        if len(tricks[-1]) == 4 - first * (len(tricks) == 1):
            tricks.append([])
        tricks[-1].append(card)
    shown = " · ".join(" ".join(_card_text(card, lang) for card in trick) for trick in tricks)
    return f'<br><span class="variation">{escape(say(lang, "variation"))}: {shown}</span>'


def _comment_html(lang: str, comment: Comment) -> str:
    # a badge a tag: one badge of them all ran "vetten fout één" together, a tag with a space unclear
    tags = "".join(f" <span class='badge'>{escape(tag)}</span>" for tag in comment.tags or ())
    return (
        f'<blockquote class="comment" data-deal="{comment.deal}"><b>{escape(comment.author)}</b> '
        f"({escape(_comment_place(lang, comment))}){tags}: {escape(comment.text)}"
        f"{_variation_html(lang, comment)}</blockquote>"
    )


def _header(report: Report) -> str:
    lang = report.lang
    title = (
        say(lang, "title_player", player=report.player, match=report.match_id)
        if report.player
        else say(lang, "title", match=report.match_id)
    )
    meta = " · ".join(escape(part) for part in (report.date, report.venue, report.event) if part)
    if report.blocks:
        return (
            f"<header><h1>{escape(title)}</h1>"
            + (f'<p class="meta">{meta}</p>' if meta else "")
            + f'<p class="team-names">{escape(say(lang, "club_evening"))}</p>'
            f'<p class="final"><b>{escape(_blocks_won(report))}</b></p></header>'
        )
    if report.scorer_names:  # each keeps a score of their own: no teams to set against each other
        names = report.scorer_names
        score = "-".join(str(value) for value in report.final_score)
        shown = escape(" · ".join(names))
        hidden = ""
    else:
        first, second = report.team_order
        names = report.team_names
        score = _dash(report, report.final_score)
        shown = (
            f'<span class="team{first}">{escape(names[first])}</span> · '
            f'<span class="team{second}">{escape(names[second])}</span>'
        )
        teams = say(lang, "against", a=names[first], b=names[second])
        hidden = f'<p class="teams" hidden>{escape(teams)}</p>'
    if report.finished:
        who = say(lang, "draw") if report.winner is None else say(lang, "won", names=names[report.winner])
        result = say(lang, "final", score=score, who=who)
    else:
        result = say(lang, "unfinished", score=score)
    return (
        f"<header><h1>{escape(title)}</h1>"
        + (f'<p class="meta">{meta}</p>' if meta else "")
        + f'<p class="team-names">{shown}</p>{hidden}'
        f'<p class="final"><b>{escape(result)}</b></p></header>'
    )


def _blocks_won(report: Report) -> str:
    """A club evening's result: ``Blocks won: Anna 3, Bert 1, Carla 1, Dirk 1``."""
    won = ", ".join(f"{name} {count}" for name, count in report.blocks_won)
    return say(report.lang, "blocks_won", won=won)


def _blocks(report: Report) -> str:
    """A club evening's blocks, each with its teams (the player's first), score and winner: the
    score chart of a match whose teams stay would mix the teams of different blocks."""
    lang = report.lang
    keys = ("col.block", "col.teams", "col.block_score", "col.won_by")
    heads = [(say(lang, k), k == "col.block_score") for k in keys]
    rows = []
    for block in report.blocks:
        first, second = block.first_team, 1 - block.first_team
        teams = say(lang, "against", a=block.team_names[first], b=block.team_names[second])
        won = (
            say(lang, "block_under_way")
            if not block.finished
            else say(lang, "block_tie")
            if block.winner is None
            else block.team_names[block.winner]
        )
        cells = [str(block.number), escape(teams), _dash(report, block.score, (first, second)), escape(won)]
        rows.append(
            f'<tr data-block="{block.number}">'
            + "".join(_cell(label, cell, num=num) for (label, num), cell in zip(heads, cells, strict=True))
            + "</tr>"
        )
    return (
        f'<section id="blocks"><h2>{escape(say(lang, "blocks"))}</h2>'
        + _list(heads, rows, name="block-list", stack=True)
        + "</section>"
    )


def _score_chart(report: Report) -> str:
    if report.blocks:
        return _blocks(report)
    counted = [d for d in report.deals if d.kind is not DealKind.REDEAL] or list(report.deals)
    if not counted:
        return ""
    series = (
        [
            Series(name, PLAYER_COLOURS[seat], [0.0, *(float(d.match_score[seat]) for d in counted)])
            for seat, name in enumerate(report.scorer_names)
        ]
        if report.scorer_names  # a line for each player, who each keep a score
        else [
            Series(
                report.team_names[team],
                TEAM_COLOURS[team],
                [0.0, *(float(d.match_score[team]) for d in counted)],
            )
            for team in report.team_order
        ]
    )
    labels = ["0", *(str(d.number) for d in counted)]
    drawings = [
        line_chart(
            series,
            labels,
            title=say(report.lang, "score_chart"),
            x_title=say(report.lang, "deal_axis"),
            width=width,
            height=height,
            decimal=decimal_sign(report.lang),
            whole=True,
        )
        for width, height in ((640, 260), (NARROW, 220))
    ]
    return f'<section id="score">{_chart(*drawings)}</section>'


def _chart(wide: str, narrow: str) -> str:
    """A chart's wide drawing and its narrow one for a phone (the stylesheet shows one of them)."""
    return f'<div class="chart-wide">{wide}</div><div class="chart-narrow">{narrow}</div>'


def _players(report: Report) -> str:
    lang = report.lang
    if not report.costed:
        why = say(lang, "no_costs" if report.cards_played else "no_cards")
        return f'<section id="players"><p class="note">{escape(why)}</p></section>'
    player, share, chosen = say(lang, "col.player"), say(lang, "col.accuracy"), say(lang, "col.cards_chosen")
    # the decisions the figure rests on, calls included, as the Match page shows them: "81.3%
    # over 3 cards chosen" could not be worked out from the three cards alone
    decided = say(lang, "col.decisions")
    rows = [
        "<tr>"
        + _cell(player, f'<span class="team{p.team}">{escape(p.name)}</span>')
        + _cell(share, f"{_number(p.accuracy, lang)}{'%' if p.accuracy is not None else ''}", num=True)
        + _cell(decided, str(p.decisions), num=True)
        + _cell(chosen, str(p.cards_chosen), num=True)
        + "</tr>"
        for p in report.players
    ]
    columns = [(player, False), (share, True), (decided, True), (chosen, True)]
    accuracy = (
        f"<h2>{escape(say(lang, 'accuracy'))}</h2>"
        + _list(columns, rows, name="accuracy", stack=False)
        + f'<p class="note">{escape(say(lang, "accuracy_note"))}</p>'
    )
    parts = [
        accuracy,
        f"<h2>{escape(say(lang, 'ledger'))}</h2>",
        f'<p class="note">{escape(say(lang, "ledger_note"))}</p>',
    ]
    steps_named = [say(lang, f"step.{step}") for step in LEDGER_STEPS]
    body = []
    charts = []
    for p in report.players:
        ledger = p.ledger
        if ledger is None:
            continue
        cells = [
            _number(ledger["cards"], lang),
            _signed(-ledger["given_away"], lang),
            _signed(-ledger["partner_given_away"], lang),
            _signed(ledger["won_back"], lang),
            _signed(ledger["illegal"], lang),
            _number(ledger["points"], lang),
        ]
        body.append(
            f'<tr data-player="{escape(p.name)}">'
            + _cell(say(lang, "col.player"), f'<span class="team{p.team}">{escape(p.name)}</span>')
            + "".join(_cell(label, cell, num=True) for label, cell in zip(steps_named, cells, strict=True))
            + "</tr>"
        )
        steps = ledger_steps(ledger, {key: say(lang, f"step.{key}") for key in LEDGER_STEPS})
        title = say(lang, "ledger_chart", player=p.name)
        charts.append(
            _chart(
                waterfall(steps, title=title, decimal=decimal_sign(lang)),
                waterfall_rows(steps, title=title, width=NARROW, decimal=decimal_sign(lang)),
            )
        )
        line = say(
            lang,
            "ledger_line",
            player=p.name,
            mistakes=_number(ledger["mistakes"], lang),
            partner=_number(ledger["partner_mistakes"], lang),
            opponents=_number(ledger["opponent_mistakes"], lang),
            luck=_signed(ledger["luck"], lang),
        )
        charts.append(f'<p class="note">{escape(line)}</p>')
        if ledger.get("calls"):
            charts.append(
                f'<p class="note">{escape(say(lang, "calls_line", calls=_number(ledger["calls"], lang)))}</p>'
            )
    if body:
        heads = [(say(lang, "col.player"), False), *((label, True) for label in steps_named)]
        parts.append(_list(heads, body, name="ledger", stack=True))
        parts.extend(charts)
    return f'<section id="players">{"".join(parts)}</section>'


def _seat_box(decision: Decision, seat: int, place: str, lang: str) -> str:
    hand = decision.hands[seat].sorted_for_display(decision.trump)
    mover = seat == decision.seat
    # a seat whose cards are all face up on the table (the dummy) hides none
    hidden = bool(decision.held) and not mover and bool(decision.held[seat] or not hand)
    cards = (
        f'<span class="hidden">{escape(say(lang, "hidden_cards", count=decision.held[seat]))}</span>'
        if hidden
        else ""
    ) + "".join(
        card_svg(
            card,
            mark="played"
            if mover and card == decision.card
            else "better"
            if mover and card in decision.better
            else "",
            lang=lang,
        )
        for card in hand
    )
    badge = (
        f'<span class="badge">{escape(say(lang, "dealer_badge"))}</span>' if seat == decision.dealer else ""
    )
    return (
        f'<div class="seat at-{place}{" mover" if mover else ""}" data-seat="{seat}">'
        f'<div class="name">{escape(decision.names[seat])}{badge}</div><div class="hand">{cards}</div></div>'
    )


def table_html(decision: Decision, lang: str) -> str:
    """The table at the moment of a decision: every seat's hand (with its face-up table cards) in
    the variant's places, the trick, the decider at the bottom; for a call, the caller's hand as
    dealt (all a caller sees)."""
    if decision.trick is None:
        return f'<div class="table call">{_seat_box(decision, decision.seat, "s", lang)}</div>'
    clockwise = VARIANTS[decision.variant].order(decision.dealer)
    start = clockwise.index(decision.seat)
    order = clockwise[start:] + clockwise[:start]
    places = _PLACES[len(order)]
    seats = "".join(_seat_box(decision, seat, place, lang) for seat, place in zip(order, places, strict=True))
    shape = " six" if len(order) == 6 else ""
    if decision.table:
        trick = "".join(
            f"<figure>{card_svg(card, lang=lang)}"
            f"<figcaption>{escape(decision.names[seat])}</figcaption></figure>"
            for seat, card in decision.table
        )
    else:
        trick = f'<span class="lead">{escape(say(lang, "empty_trick", player=decision.player))}</span>'
    return f'<div class="table{shape}">{seats}<div class="trick">{trick}</div></div>'


def _cards_html(cards: Sequence[Card], lang: str) -> str:
    """Cards as text with their suits drawn: ``9♥ or 8♥``."""
    return f" {escape(say(lang, 'or'))} ".join(_card_text(card, lang) for card in cards)


def _line_html(report: Report, decision: Decision, line: BetterLine) -> str:
    """The better card's line in words: its tricks, and what the player's team takes after it."""
    lang = report.lang
    assert decision.card is not None
    where = (
        say(
            lang,
            "line_on_view" if line.layouts != 1 else "line_on_one",
            layouts=line.layouts,
            player=decision.player,
        )
        if line.layout == "view"
        else say(lang, "line_on_real")
    )
    tricks = "; ".join(
        escape(
            say(
                lang,
                "line_trick",
                trick=trick.number,
                cards="{cards}",
                winner=decision.names[trick.winner],
                points=trick.points,
            )
        ).replace("{cards}", " ".join(_card_text(card, report.lang) for _, card in trick.cards))
        for trick in line.tricks
    )
    seats = decision.team_seats or (decision.seat % 2, decision.seat % 2 + 2)
    people = [decision.names[seat] for seat in seats]
    team = ", ".join([*people[:-2], " & ".join(people[-2:])])  # "Anna & Carla", "Anna, Carla & Erik"
    text = escape(
        say(
            lang,
            "better_line",
            where=where,
            better="{better}",
            card="{card}",
            tricks="{tricks}",
            team=team,
            everyone=say(lang, "everyone_four" if decision.variant == "four" else "everyone"),
            take=say(lang, "take_many" if len(seats) > 1 else "take_one"),
            b=line.taken,
            a="–" if line.taken_played is None else line.taken_played,
        )
    )
    return (
        text.replace("{better}", _card_text(line.card, report.lang))
        .replace("{card}", _card_text(decision.card, report.lang))
        .replace("{tricks}", tricks)
    )


def _decision(report: Report, decision: Decision) -> str:
    lang = report.lang
    if decision.card is not None and decision.trick is not None:
        title = say(
            lang,
            "decision_title",
            rank=decision.rank,
            deal=decision.deal,
            trick=decision.trick,
            player=decision.player,
            card="{card}",
        )
        title_html = escape(title).replace("{card}", _card_text(decision.card, report.lang))
        place = f'data-trick="{decision.trick}" data-play="{decision.play}" data-card="{decision.card}"'
    else:
        call = say(lang, f"call.{decision.call}") if decision.call in ("trump", "klop") else decision.kind
        title = say(
            lang, "call_title", rank=decision.rank, deal=decision.deal, player=decision.player, call=call
        )
        title_html = escape(title)
        place = f'data-call="{escape(decision.call or decision.kind, quote=True)}"'
    lines = [escape(say(lang, "cost", cost=decision.cost))]
    if decision.better:
        lines.append(
            escape(say(lang, "better", cards="{cards}")).replace(
                "{cards}", _cards_html(decision.better, lang)
            )
        )
    items = "".join(f"<li>{line}</li>" for line in lines)
    if decision.line is not None:
        items += f'<li class="line">{_line_html(report, decision, decision.line)}</li>'

    explanation = (
        f'<p class="explanation">{escape(minus_signs(decision.explanation))}</p>'
        if decision.explanation
        else ""
    )
    comments = "".join(_comment_html(lang, c) for c in decision.comments)
    trump = f' data-trump="{decision.trump.name}"' if decision.trump is not None else ""
    contract = escape(say(lang, "decision_contract", contract="{contract}")).replace(
        "{contract}", _contract(lang, decision)
    )
    return (
        f'<article class="decision" data-deal="{decision.deal}" {place} '
        f'data-player="{escape(decision.player, quote=True)}"><h3>{title_html}</h3>'
        f'<p class="contract"{trump}>{contract}</p>'
        f"{table_html(decision, lang)}<ul class='costs'>{items}</ul>{explanation}{comments}</article>"
    )


def _review_title(lang: str, review: PlayerReview) -> str:
    count = len(review.decisions)
    key = f"review_title_{count}" if count in (1, 2, 3) else "review_title_n"
    return say(lang, key, player=review.name, count=count)


def _review(report: Report) -> str:
    """Each player's costliest decisions, as the archive ranked them: the review opens with them."""
    lang = report.lang
    if not report.decisions:
        if not report.costed:
            return ""
        nothing = "".join(
            f'<p class="none">{escape(say(lang, "review_none", player=review.name))}</p>'
            for review in report.reviews
        )
        return f'<section id="review"><h2>{escape(say(lang, "review"))}</h2>{nothing}</section>'
    sample = report.decisions[0].card or Card.parse("7H")
    legend = (
        f'<p class="legend">{card_svg(sample, mark="played", lang=lang)} '
        f"{escape(say(lang, 'legend_played'))} · "
        f"{card_svg(sample, mark='better', lang=lang)} {escape(say(lang, 'legend_better'))}</p>"
    )
    parts = [f'<section id="review"><p class="note">{escape(say(lang, "review_note"))}</p>{legend}']
    for review in report.reviews:
        if not review.decisions:
            parts.append(f'<p class="none">{escape(say(lang, "review_none", player=review.name))}</p>')
            continue
        parts.append(
            f'<section class="player-review" data-player="{escape(review.name, quote=True)}">'
            f'<h2 class="team{review.team}">{escape(_review_title(lang, review))}</h2>'
            + "".join(_decision(report, d) for d in review.decisions)
            + "</section>"
        )
    parts.append("</section>")
    return "".join(parts)


def _ledger_cells(deal: DealLine, team: int, lang: str, labels: Sequence[str]) -> str:
    """The cards (the team's first, as every pair of the report), the decisions and the luck."""
    if len(deal.ledger) != 2:
        return "".join(_cell(label, "–", num=True) for label in labels)
    a, b = deal.ledger[team], deal.ledger[1 - team]
    decisions = a["won_back"] - a["given_away"] + a["illegal"]
    luck = a.get("luck")
    tone = "gain" if decisions > 0 else "loss" if decisions < 0 else ""
    return (
        _cell(labels[0], f"{_number(a['cards'], lang)}-{_number(b['cards'], lang)}", num=True)
        + _cell(labels[1], _signed(decisions, lang), num=True, tone=tone)
        + _cell(labels[2], _signed(luck, lang), num=True)
    )


def _deals(report: Report) -> str:
    lang = report.lang
    costed = report.costed
    head = [
        say(lang, k)
        for k in ("col.deal", "col.dealer", "col.contract", "col.points", "col.outcome", "col.score")
    ]
    if costed:
        head += [say(lang, "col.cards"), say(lang, "col.decisions"), say(lang, "col.luck")]
    # the ledger columns are the team shown first: the player's (the first seat's for everyone),
    # in a club evening the player's team of the deal's block
    rows = []
    for deal in report.deals:
        order = report.deal_team_order(deal)
        if deal.block is not None and report.blocks[deal.block].first_deal == deal.number:
            block = report.blocks[deal.block]
            teams = say(lang, "against", a=block.team_names[order[0]], b=block.team_names[order[1]])
            rows.append(
                f'<tr class="block"><td colspan="{len(head)}">'
                f"{escape(say(lang, 'block_heading', number=block.number, teams=teams))}</td></tr>"
            )
        if deal.tie:
            outcome = say(lang, "tie")
        elif deal.kind is DealKind.ABANDONED:
            outcome = say(lang, "abandoned")
        elif deal.kind is DealKind.REDEAL:
            outcome = ""
        elif deal.scoring_names is not None:  # a side of the three-player games, named
            outcome = f"{escape(deal.scoring_names)} +{deal.scored}"
        elif deal.scoring_team is not None:
            # named, not told by colour alone (printed, or read by a screen reader)
            names = (report.blocks[deal.block].team_names if deal.block is not None else report.team_names)[
                deal.scoring_team
            ]
            outcome = f'<span class="team{deal.scoring_team}">{escape(names)} +{deal.scored}</span>'
        else:
            outcome = ""
        points = (
            _dash(report, deal.points, order)
            if deal.points is not None
            else escape(say(lang, "scoresheet"))
            if deal.kind is DealKind.SCORESHEET
            else ""
        )
        cells = [
            str(deal.number),
            escape(deal.dealer),
            _contract(lang, deal),
            points,
            outcome,
            _dash(report, deal.match_score, order),
        ]
        row = f'<tr data-deal="{deal.number}">' + "".join(
            _cell(label, c, num=i in (0, 3, 5)) for i, (label, c) in enumerate(zip(head, cells, strict=False))
        )
        row += (_ledger_cells(deal, order[0], lang, head[6:]) if costed else "") + "</tr>"
        rows.append(row)
        if deal.comments:
            span = len(head)
            rows.append(
                f'<tr class="comment"><td colspan="{span}">'
                + "".join(_comment_html(lang, c) for c in deal.comments)
                + "</td></tr>"
            )
    heads = [(label, i in (0, 3, 5) or i >= 6) for i, label in enumerate(head)]
    shown_first = (
        say(lang, "block_team", player=report.player or report.blocks[0].team_names[0].split(" & ")[0])
        if report.blocks
        # the three-player games: the player's side in each deal, which changes with the dealer
        else say(lang, "side_of", player=report.player or report.scorer_names[0])
        if report.scorer_names
        else report.team_names[report.first_team]
    )
    note = f'<p class="note">{escape(say(lang, "deals_note", team=shown_first))}</p>' if costed else ""
    return (
        f'<section id="deals"><h2>{escape(say(lang, "deals"))}</h2>{note}'
        + _list(heads, rows, name="deal-list", stack=True)
        + "</section>"
    )


def _footer(report: Report) -> str:
    lang = report.lang
    samples = str(report.samples) if report.samples else say(lang, "samples_unknown")
    text = say(
        lang,
        "footer",
        version=__version__,
        accuracy=say(lang, "accuracy_formula"),
        ledger=say(lang, "ledger_formula", version=FORMULA_VERSION),
        samples=samples,
    )
    return f"<footer><p>{escape(text)}</p></footer>"


def render(report: Report) -> str:
    """The report as one HTML document (UTF-8 text): no link, image or font outside itself.

    :param report: from :func:`~.build.gather`.
    """
    from .puzzles import PUZZLE_STYLE, puzzles_section  # it draws with this module's table

    title = (
        say(report.lang, "title_player", player=report.player, match=report.match_id)
        if report.player
        else say(report.lang, "title", match=report.match_id)
    )
    body = "".join(
        (
            _header(report),
            _review(report),
            _score_chart(report),
            _players(report),
            _deals(report),
            puzzles_section(report.puzzles, report.lang, everyone=report.player is None)
            if report.puzzles or not report.puzzles_explained
            else f'<section id="puzzles"><p>{escape(say(report.lang, "puzzles_explained"))}</p></section>',
            _footer(report),
        )
    )
    return (
        f'<!DOCTYPE html>\n<html lang="{escape(report.lang)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{STYLE}{PUZZLE_STYLE}</style></head><body><main>{body}</main></body></html>\n"
    )
