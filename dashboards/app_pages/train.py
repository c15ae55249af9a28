"""Train: puzzles from a player's own costly decisions, the missed ones brought back (Leitner boxes)."""

from __future__ import annotations

import datetime
from html import escape

import streamlit as st

from dashboards import cards, data, html_view, i18n, ui
from dashboards.steps import step_of
from manillen_replay.analysis.puzzles import Puzzle, PuzzleKind, next_puzzle
from manillen_replay.cards import Card, CardSet, Suit
from manillen_replay.report.puzzles import answer_html, score_text, source_text
from manillen_replay.store import ArchiveLockedError

t = ui.translator()
language = ui.lang()
st.title(t("train.title"))
if not ui.archive_ready():
    st.stop()
st.caption(t("train.intro"))

# What the session keeps: the player trained, how many new puzzles it may still show, the puzzle
# on the table and, once answered, the answer (the page shows the verdict until Next).
PLAYER, NEW_LEFT, CURRENT, FRESH = "train_player", "train_new_left", "train_current", "train_fresh"
ANSWERED, TALLY = "train_answered", "train_tally"
NEW_PER_SESSION = 5

names = data.players()
asked = ui.named_as_in_archive(st.query_params.get("player"), names)  # a link: ?player=NAME, any case
if asked in names and st.session_state.get("train_asked") != asked:
    st.session_state["train_asked"] = st.session_state[PLAYER] = asked
if st.session_state.get(PLAYER) not in names:
    st.session_state[PLAYER] = names[0] if names else None
if asked is not None and asked not in names and st.session_state.get("train_asked") != asked and names:
    st.session_state["train_asked"] = asked  # said once, not at every step of the session
    st.warning(
        t("players.unknown", player=ui.markdown_text(asked), shown=ui.markdown_text(st.session_state[PLAYER]))
    )
left, right = st.columns([3, 2])
player = left.selectbox(t("train.player"), names, key=PLAYER)
if player is not None:
    # in the address, as a link names them: a reload (a phone's, on the way home) kept the first
    # name; marked as asked, so the link's choice above does not take it back on the next run
    st.query_params["player"] = st.session_state["train_asked"] = player
if NEW_LEFT not in st.session_state:
    st.session_state[NEW_LEFT] = NEW_PER_SESSION
right.number_input(t("train.new"), min_value=0, max_value=50, step=1, key=NEW_LEFT)
if player is None:
    st.stop()
if st.session_state.get("train_for") != player:  # another player: a session of their own
    st.session_state["train_for"] = player
    for key in (CURRENT, ANSWERED):
        st.session_state.pop(key, None)
    st.session_state[TALLY] = [0, 0]

puzzles = data.puzzles(player)
if not puzzles:
    st.info(t("train.none", player=ui.name_text(player)))  # a name as typed, never markdown
    st.stop()
by_id = {p.puzzle_id: p for p in puzzles}
reviews = data.puzzle_reviews(player)
now = datetime.datetime.now()
due_now = sum(1 for i, r in reviews.items() if i in by_id and r.due_at <= now)
fresh = sum(1 for i in by_id if i not in reviews)
progress = "train.progress_one" if len(puzzles) == 1 else "train.progress"
st.caption(t(progress, count=len(puzzles), new=fresh, due=due_now, boxed=len(puzzles) - fresh))

answered: dict[str, object] | None = st.session_state.get(ANSWERED)
current: Puzzle | None = by_id.get(st.session_state.get(CURRENT, ""))
if current is None:
    current = next_puzzle(puzzles, reviews, now, new_left=int(st.session_state[NEW_LEFT]))
    if current is not None:
        st.session_state[CURRENT] = current.puzzle_id
        st.session_state[FRESH] = current.puzzle_id not in reviews
        st.session_state.pop(ANSWERED, None)
        answered = None
tally: list[int] = st.session_state.setdefault(TALLY, [0, 0])

if current is None:
    upcoming = sorted(r.due_at for i, r in reviews.items() if i in by_id)
    due = upcoming[0].strftime("%Y-%m-%d %H:%M") if upcoming else t("train.never")
    st.success(t("train.done", right=tally[0], answered=tally[1], due=due))

    def _more() -> None:
        st.session_state[NEW_LEFT] = int(st.session_state[NEW_LEFT]) + NEW_PER_SESSION

    if fresh:
        st.button(t("train.more"), on_click=_more)
    st.stop()


def option_text(option: str) -> str:
    """An option as the page writes it: a card with its suit symbol, red for harten and koeken as
    on the table above (K♥ and K♠ differed by shape alone), a knock in the page's words."""
    if option in Suit.__members__:
        suit = Suit[option]
        # its symbol and name (♥ harten), the symbol in its colour (a coloured name lost its space)
        # a no-break space: the plain one after the coloured symbol was dropped (♥harten)
        return f":red[{suit.symbol}]\u00a0{suit.dutch}" if suit.is_red else i18n.suit_name(suit)
    try:
        card = Card.parse(option)
    except ValueError:
        return t(f"train.{option}")
    return f":red[{card.symbol}]" if card.suit.is_red else card.symbol


def table_of(puzzle: Puzzle) -> str:
    """The table as the player saw it: their hand (the legal cards outlined), the trick, the other
    hands face down but for their face-up table cards."""
    seats = len(puzzle.names)
    legal = CardSet(Card.parse(o) for o in puzzle.options) if puzzle.kind is PuzzleKind.CARD else None
    return cards.table_html(
        names=puzzle.names_in(language),
        hands=puzzle.shown,
        table=puzzle.table,
        trump=puzzle.trump,
        dealer=puzzle.dealer,
        to_play=puzzle.seat,
        may_play=legal,
        winning=None,
        order=[(puzzle.seat + step) % seats for step in range(seats)],
        labels=ui.table_labels(),
        face_down=puzzle.hidden,
    )


def tricks_of(puzzle: Puzzle) -> str:
    """The tricks played before, one row of cards each, named by their number and who led (the
    first card is the leader's): the cards the player had seen."""
    if not puzzle.tricks:
        return ""
    names = puzzle.names_in(language)
    rows = "".join(
        f'<div class="mr-trick-line"><span>{number}. {escape(t("train.led", name=names[trick[0][0]]))}'
        f"</span>{cards.cards_row([card for _, card in trick])}</div>"
        for number, trick in enumerate(puzzle.tricks, start=1)
        if trick
    )
    heading = escape(t("replay.tricks_so_far"))
    return f'<div class="mr-heading">{heading}</div>{rows}'


def check(puzzle: Puzzle, answer: str | list[str]) -> None:
    """Judge an answer, keep it in the archive (the puzzle's next box), and show the verdict."""
    right = puzzle.is_right(answer)
    text = answer if isinstance(answer, str) else " ".join(sorted(answer))
    try:
        data.answer_puzzle(player, puzzle.puzzle_id, text, right)
    except ArchiveLockedError as error:
        st.session_state["train_error"] = str(error)
        return
    tally[0] += int(right)
    tally[1] += 1
    st.session_state[ANSWERED] = {"answer": text, "right": right}


again = reviews.get(current.puzzle_id)
question = t(f"train.question.{current.kind.value}")
st.subheader(t("train.puzzle_title", number=tally[1] + (answered is None), question=question))
if again is not None and not again.right and answered is None:
    st.warning(t("train.again"))
st.caption(t("train.puzzle_source", source=ui.name_text(source_text(current, language))))
contract = ui.contract_text(current.contract, current.trump, knocks=current.knocks)
# a trump puzzle asks for the contract: it is not shown
called = (
    ""
    if current.kind is PuzzleKind.TRUMP
    else ui.markdown_text(f"{t('replay.contract')}: {contract}") + " · "
)
st.markdown(called + score_text(current, language))
html_view.show(table_of(current) + tricks_of(current), key="train_table", stylesheet="cards")

if "train_error" in st.session_state:
    st.error(st.session_state.pop("train_error"))


def _next() -> None:
    """Clear the table for the next puzzle; a new puzzle answered leaves one fewer new to show."""
    if st.session_state.pop(FRESH, False):
        st.session_state[NEW_LEFT] = max(0, int(st.session_state[NEW_LEFT]) - 1)
    st.session_state.pop(CURRENT, None)
    st.session_state.pop(ANSWERED, None)


def _picked(puzzle: Puzzle, key: str) -> None:
    """A card (or a knock) chosen: judged at once."""
    choice = st.session_state.get(key)
    if choice is not None:
        check(puzzle, str(choice))


def _checked(puzzle: Puzzle, key: str) -> None:
    """The trumps chosen, judged when the player says so."""
    check(puzzle, [str(c) for c in st.session_state.get(key) or []])


if answered is None:
    key = f"train_pick_{current.puzzle_id}_{tally[1]}"
    options = list(current.options)
    if current.kind.is_drill:
        st.pills(t("train.pick"), options, selection_mode="multi", format_func=option_text, key=key)
        st.button(t("train.check"), type="primary", on_click=_checked, args=(current, key))
    else:
        st.pills(
            t("train.pick"), options, format_func=option_text, key=key, on_change=_picked, args=(current, key)
        )
else:
    said = str(answered["answer"])
    if answered["right"]:
        st.success(t("train.right"))
    else:
        shown = " ".join(option_text(o) for o in said.split()) if current.kind.is_drill else option_text(said)
        shown = shown or t("train.nothing")
        st.error(t("train.wrong", answer=shown))
    html_view.show(answer_html(current, language), key="train_answer")
    st.button(t("train.next"), type="primary", on_click=_next)
    if st.button(t("train.replay")):
        ui.switch_to(
            "replay",
            {"match": current.match_id, "deal": current.deal, "step": step_of(current.trick, current.play)},
        )
