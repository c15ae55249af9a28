"""Puzzles as HTML: the three puzzles a match report ends with, and ``manillen puzzles --html``,
a printable page of a player's set with the answers after the puzzles.

The table is the report's own drawing (:func:`.render.table_html`) as the player saw it: their
own hand, the trick on the table, and the other hands face down (how many hidden cards each
holds) with their face-up table cards in the variants that have them.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from ..analysis.puzzles import Puzzle, PuzzleKind
from ..analysis.words import number
from ..cards import Card, CardSet, Suit, mask_of
from .build import Decision
from .render import STYLE, _card_text, _contract, table_html
from .svg import minus_signs, suit_svg
from .words import decimal_sign, say

PUZZLE_STYLE = """
.puzzle { break-inside: avoid; margin: 0 0 1.5rem; }
.puzzle .source { color: var(--muted); font-size: 0.85rem; margin: 0.2rem 0; }
.puzzle details { margin-top: 0.5rem; }
.answers { break-before: page; }
@media print {
  /* on paper nothing unfolds: a puzzle's answer is printed under it, unfolded */
  .puzzle details::details-content { content-visibility: visible; display: block; }
  .puzzle details > summary { list-style: none; font-weight: bold; }
}
"""
"""The puzzles' own rules, added to the report's stylesheet: a puzzle is never split over two
printed pages, the printable page's answers start on a page of their own, and the report's
folded answers print unfolded."""


def _decision(puzzle: Puzzle, lang: str) -> Decision:
    """The puzzle as a report's decision, for the report's table drawing in ``lang``: only the
    player's hand shown, the others face down but for their face-up table cards."""
    return Decision(
        deal=puzzle.deal,
        trick=puzzle.trick,
        play=puzzle.play,
        seat=puzzle.seat,
        player=puzzle.player,
        card=None,
        kind=puzzle.kind.value,
        call={PuzzleKind.KNOCK: "klop", PuzzleKind.TRUMP: "trump"}.get(puzzle.kind),
        cost="",
        view_cost=None,
        dd_cost=None,
        better=(),
        explanation="",
        hands=puzzle.shown,
        table=puzzle.table,
        names=puzzle.names_in(lang),
        dealer=puzzle.dealer,
        trump=puzzle.trump,
        comments=(),
        contract=puzzle.contract,
        knocks=puzzle.knocks,
        held=puzzle.hidden,
        variant=puzzle.variant,
    )


def _number(value: float, lang: str) -> str:
    """To a tenth, without a needless ``,0`` ("7,0 kaartpunten" beside "7 kaartpunten" elsewhere)."""
    return number(value).replace(".", decimal_sign(lang))


def _options(texts: Sequence[str], lang: str) -> str:
    """Options as HTML: cards and trump calls with their suit drawn, words as they are."""
    parts = []
    for text in texts:
        if text in Suit.__members__:
            suit = Suit[text]
            parts.append(f"{escape(say(lang, 'trump', suit=suit.dutch))} {suit_svg(suit, lang=lang)}")
            continue
        try:
            parts.append(_card_text(Card.parse(text), lang))
        except ValueError:
            parts.append(escape(say(lang, "no_klop") if text == "no klop" else text))
    return f" {escape(say(lang, 'or'))} ".join(parts)


def best_first(puzzle: Puzzle) -> list[str]:
    """The accepted answers, the best first; equal ones in the order the page shows them, never in
    the set's order (which follows the interpreter's hash seed, so two runs would differ): cards
    as a hand holds them (trump first, each suit high to low), calls as the question offers them.

    >>> from manillen_replay.analysis.puzzles import _sample
    >>> best_first(_sample(answers=frozenset({"9S", "AS", "10H", "KH"}), values={"KH": 5.0}))
    ['KH', '10H', 'AS', '9S']
    """
    cards: dict[str, Card] = {}
    for answer in puzzle.answers:
        try:
            cards[answer] = Card.parse(answer)
        except ValueError:
            continue
    shown = CardSet(mask_of(cards.values())).sorted_for_display(puzzle.trump)

    def place(answer: str) -> int:
        if answer in cards:
            return shown.index(cards[answer])
        return len(shown) + (
            puzzle.options.index(answer) if answer in puzzle.options else len(puzzle.options)
        )

    return sorted(puzzle.answers, key=lambda a: (-puzzle.values.get(a, 0.0), place(a), a))


def answer_html(puzzle: Puzzle, lang: str) -> str:
    """The answer of a puzzle in words: the accepted answers, by how much they are better, and
    what was played at the table."""
    ordered = best_first(puzzle)
    if puzzle.kind.is_drill:
        cards = sorted((Card.parse(a) for a in puzzle.answers), key=lambda c: (c.suit, -c.rank))
        listed = " ".join(_card_text(c, lang) for c in cards) or escape(say(lang, "no_trumps_out"))
        key = "answer_trumps" if puzzle.kind is PuzzleKind.TRUMPS_OUT else "answer_masters"
        return "<p>" + escape(say(lang, key, answers="{a}")).replace("{a}", listed) + "</p>"
    key = "answer_card" if puzzle.kind is PuzzleKind.CARD else "answer_call"
    text = escape(
        say(
            lang,
            key,
            answers="{answers}",
            margin=_number(puzzle.margin, lang),
            layouts=puzzle.layouts,
            played="{played}",
            cost=_number(puzzle.cost, lang),
        )
    )
    text = text.replace("{answers}", _options(ordered, lang)).replace(
        "{played}", _options([puzzle.played], lang)
    )
    reason = puzzle.explanation_nl if lang == "nl" and puzzle.explanation_nl else puzzle.explanation
    return f"<p>{text}</p>" + (f'<p class="explanation">{escape(minus_signs(reason))}</p>' if reason else "")


def source_text(puzzle: Puzzle, lang: str) -> str:
    """Where a puzzle comes from, in ``lang`` (:attr:`Puzzle.source` in English)."""
    if puzzle.trick is None:
        return say(lang, "source_call", match=puzzle.match_id, deal=puzzle.deal)
    return say(
        lang, "source_card", match=puzzle.match_id, deal=puzzle.deal, trick=puzzle.trick, play=puzzle.play
    )


def score_text(puzzle: Puzzle, lang: str) -> str:
    """The match score before the puzzle's deal and the card points of the deal so far, the
    player's first: a score each in the three-player games, whose sides change every deal."""
    key = "puzzle_score_alone" if len(puzzle.score) == 3 else "puzzle_score"
    return say(lang, key, score="–".join(map(str, puzzle.score)), c=puzzle.taken[0], d=puzzle.taken[1])


def puzzle_html(puzzle: Puzzle, number: int, lang: str, *, answer: bool = True, named: bool = False) -> str:
    """One puzzle: its question, its source, the contract and the score, the table as the player
    saw it, and (with ``answer``) its answer folded under it; ``named``: whose decision it was in
    its title (the puzzles of several players)."""
    question = say(lang, f"question.{puzzle.kind.value}")
    title = (
        say(lang, "puzzle_title_of", number=number, player=puzzle.player, question=question)
        if named
        else say(lang, "puzzle_title", number=number, question=question)
    )
    decision = _decision(puzzle, lang)
    contract = escape(say(lang, "decision_contract", contract="{c}")).replace(
        "{c}", _contract(lang, decision)
    )
    contract = "" if puzzle.kind is PuzzleKind.TRUMP else contract + ". "  # a trump puzzle asks for it
    score = score_text(puzzle, lang)
    tricks = "; ".join(
        f"{number}. {escape(decision.names[trick[0][0]])}: "
        + " ".join(_card_text(card, lang) for _, card in trick)
        for number, trick in enumerate(puzzle.tricks, start=1)
    )
    played = f'<p class="source">{escape(say(lang, "tricks_so_far"))}: {tricks}</p>' if tricks else ""
    folded = (
        f"<details><summary>{escape(say(lang, 'answer'))}</summary>{answer_html(puzzle, lang)}</details>"
        if answer
        else ""
    )
    return (
        f'<article class="puzzle" data-puzzle="{escape(puzzle.puzzle_id, quote=True)}" '
        f'data-kind="{puzzle.kind.value}"><h3>{escape(title)}</h3>'
        f'<p class="source">{escape(say(lang, "puzzle_source", source=source_text(puzzle, lang)))}</p>'
        f'<p class="contract">{contract}{escape(score)}</p>{played}'
        f"{table_html(decision, lang)}{folded}</article>"
    )


def puzzles_section(puzzles: Sequence[Puzzle], lang: str, *, everyone: bool = False) -> str:
    """The report's last section: its puzzles, answers folded under each; empty without puzzles.

    :param everyone: the report of the whole table, not of one player: each puzzle says whose
        decision it was (a report for all addressed "your own decisions" to whoever read it).
    """
    if not puzzles:
        return ""
    items = "".join(puzzle_html(p, n, lang, named=everyone) for n, p in enumerate(puzzles, start=1))
    note = say(lang, "puzzles_note_all" if everyone else "puzzles_note")
    return (
        f'<section id="puzzles"><h2>{escape(say(lang, f"puzzles_{min(len(puzzles), 3)}"))}</h2>'
        f"<p>{escape(note)}</p>{items}</section>"
    )


def render_puzzles(puzzles: Sequence[Puzzle], player: str, lang: str = "en") -> str:
    """A printable page of a player's puzzles (one self-contained HTML document), the answers
    after all the puzzles, on a page of their own when printed."""
    title = say(lang, "puzzles_title", player=player)
    if puzzles:
        intro = say(lang, "puzzles_count", count=len(puzzles), player=player)
        body = "".join(puzzle_html(p, n, lang, answer=False) for n, p in enumerate(puzzles, start=1))
        answers = "".join(
            f'<li data-puzzle="{escape(p.puzzle_id, quote=True)}">{answer_html(p, lang)}</li>'
            for p in puzzles
        )
        body += (
            f'<section class="answers"><h2>{escape(say(lang, "answers"))}</h2><ol>{answers}</ol></section>'
        )
    else:
        intro, body = say(lang, "puzzles_none", player=player), ""
    return (
        f'<!DOCTYPE html>\n<html lang="{escape(lang)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{STYLE}{PUZZLE_STYLE}</style></head><body><main>"
        f"<h1>{escape(title)}</h1><p>{escape(intro)}</p>{body}</main></body></html>\n"
    )
