"""Deal replay: the hands around the table, step by step, with legal cards, findings and comments.

The position lives in the page address (``?match=...&deal=...&step=...``) so a link to a play can
be shared; step ``k`` is the table after ``k`` cards.
"""

from __future__ import annotations

from html import escape
from typing import Any

import polars as pl
import streamlit as st

from dashboards import access, cards, data, html_view, i18n, light_table, native_inputs, ui
from dashboards.steps import (
    LineCard,
    Moment,
    deal_moments,
    line_moments,
    solver_line_cards,
    step_of,
    variation_cards,
)
from manillen_replay.analysis.ranking import told_on_real
from manillen_replay.analysis.words import counted_en, counted_nl, counted_number, tenths
from manillen_replay.cards import Card, CardSet, Suit
from manillen_replay.engine import DealResult, MatchResult
from manillen_replay.engine.report import capot_bonus
from manillen_replay.engine.variation import (
    VariationProblem,
    call_choices,
    call_name,
    can_vary,
    chooser_of,
    play_variation,
    trump_of,
)
from manillen_replay.errors import ManillenError
from manillen_replay.report.svg import minus_signs
from manillen_replay.rules import Contract
from manillen_replay.store import AnnotationChangedError, NoSuchAnnotationError

t = ui.translator()
language = ui.lang()
if not ui.archive_ready():
    st.stop()

MATCH, DEAL, STEP = "replay_match", "replay_deal", "replay_step"
# The match and the deal are the browser's own drop-downs (dashboards/native_inputs.py):
# Streamlit's would cost every new tab of this page the scripts of its combo box. The position is
# kept in MATCH, DEAL and STEP and handed to the drop-downs on each run.
POSITION_INPUTS = "replay_position"
# What a new tab waits for is the browser drawing the page's elements: the table, the step
# buttons and slider and the tricks so far are one drawing (dashboards/html_view.py), the facts of
# the play and the findings another; a click in them (a step button, the slider, a trick, a
# finding) or Home/Left/Right/End sends the step to show.
TABLE, FACTS = "replay_table", "replay_facts"

# The address wins when it changed since this page last wrote it (a shared link, a click from the
# Mistakes page); otherwise the inputs hold the position.
incoming = (st.query_params.get("match"), ui.query_int("deal", 1), ui.query_int("step", 0))
asked_deal = None  # a deal the address asked for: said when there is no such deal to show
if incoming[0] is not None and incoming != st.session_state.get("replay_synced"):
    st.session_state[MATCH], st.session_state[DEAL], st.session_state[STEP] = incoming
    asked_deal = incoming[1]

ids = data.match_ids()
if st.session_state.get(MATCH) not in ids:
    if st.session_state.get(MATCH) is not None:
        st.warning(t("match.unknown", match=st.session_state[MATCH]))
    st.session_state[MATCH] = ids[0]


# A match or deal the person chose in the drop-downs (not what this page last drew in them)
chosen = native_inputs.sent(POSITION_INPUTS)
if chosen.get("match") in ids and chosen["match"] != st.session_state.get(MATCH):
    st.session_state[MATCH], st.session_state[DEAL], st.session_state[STEP] = chosen["match"], 1, 0
elif chosen.get("deal", "").isdigit() and int(chosen["deal"]) != st.session_state.get(DEAL):
    st.session_state[DEAL], st.session_state[STEP] = int(chosen["deal"]), 0


title = st.empty()
top = st.container()
match_id = str(st.session_state[MATCH])
try:
    result: MatchResult | None = data.replayed(match_id)
except ManillenError as error:
    st.error(t("match.invalid", message=error))
    st.stop()
assert result is not None
replayed: MatchResult = result
playable = [d.number for d in result.deals if d.tricks]
if not playable:
    st.info(t("replay.nothing", deal="-", kind=t("match.scoresheet")))
    st.stop()
if st.session_state.get(DEAL) not in playable:
    if asked_deal is not None and st.session_state.get(MATCH) == incoming[0]:
        st.warning(t("replay.unknown_deal", match=match_id, deal=asked_deal, shown=playable[0]))
    st.session_state[DEAL] = playable[0]
deal_number = int(st.session_state[DEAL])
st.session_state[POSITION_INPUTS] = native_inputs.chosen_state({"match": match_id, "deal": str(deal_number)})
with top:
    native_inputs.inputs(
        POSITION_INPUTS,
        [
            native_inputs.Field(
                "match", t("match.choose"), "select", value=match_id, options=[(i, i) for i in ids], wide=True
            ),
            native_inputs.Field(
                "deal",
                t("replay.deal"),
                "select",
                value=str(deal_number),
                options=[(str(n), str(n)) for n in playable],
            ),
        ],
        row=True,
    )
deal: DealResult = next(d for d in result.deals if d.number == deal_number)
moments = deal_moments(deal, result.rules)
last_step = len(moments) - 1
step_value = st.session_state.get(STEP, 0)
st.session_state[STEP] = min(max(int(step_value), 0), last_step)


def _go(value: str) -> None:
    """A click in the drawings (or a key): the step it sends (kept within the deal by the run),
    or a card of the what-if choice."""
    if value.isdigit():
        st.session_state[STEP] = int(value)
    else:
        _choose_what_if(value)


shape = result.rules.shape
# a club evening rotates partners between blocks: the deal knows who sat where
people = list(deal.names[: shape.people]) if deal.names else list(result.seats)
# the dummy of three_dummy is a seat without a person: it is named after the dealer who plays it
names = [
    people[s] if s < len(people) else t("replay.dummy_of", name=people[deal.dealer])
    for s in range(shape.players)
]
sides = [shape.team_of(seat, deal.dealer) for seat in range(shape.players)]


# a side is named by its people, as the text replay and the findings name it: the dealer plays the
# dummy, so the dealer's side of three_dummy is the dealer alone
side_names = [" & ".join(names[s] for s in range(shape.people) if sides[s] == side) for side in (0, 1)]


def side_people(seat: int) -> list[str]:
    """The people on ``seat``'s side (the dummy of ``three_dummy`` is the dealer's, not one more)."""
    return [names[s] for s in range(shape.people) if sides[s] == sides[seat]]


step = st.session_state[STEP]
moment: Moment = moments[step]

position = {"match": match_id, "deal": str(deal_number), "step": str(step)}
st.query_params.from_dict({**position, **ui.language_params()})
st.session_state["replay_synced"] = (match_id, deal_number, step)


# ---------------------------------------------------------------------- the better line (a branch)
# At a costly card the solver's review stored the line after it and after the better card
# (finding_lines): the table can switch to the better card's line and step through it. The choice
# is kept per play (a key with the step), so stepping on in the deal leaves the branch.
BRANCH = f"replay_branch_{match_id}_{deal_number}_{step}"
BRANCH_STEP = "replay_branch_step"
made_here = moment.last
lines_here = (
    data.deal_lines(match_id, deal_number).filter(
        (pl.col("trick") == made_here.trick) & (pl.col("play") == made_here.position)
    )
    if made_here is not None
    else pl.DataFrame()
)
BRANCHES = [layout for layout in ("view", "real") if lines_here.height and layout in lines_here["layout"]]
if told_on_real(lines_here.iter_rows(named=True)):
    # the finding's reason is told on the real hands then: its line first
    BRANCHES.sort(key=lambda layout: layout != "real")

# ---------------------------------------------------------------------- what if (another card)
# At any play of a four-player deal with its hands another legal card can be chosen: the solver
# plays the rest out after it and after the card played (manillen_replay/analysis/what_if.py),
# the table steps through either line as a branch, the two lines are shown trick by trick, and
# the line can be saved as a variation of a comment. The choice is kept per play, as the branch's.
# Before the first card (step 0) the fork is another call the chooser could have made instead: the
# deal is played out from the first lead under it and under the call made (shown, not saved).
WHAT_IF = f"replay_whatif_{match_id}_{deal_number}_{step}"
WHAT_IF_LAYOUT = "replay_whatif_layout"
NO_CARD = "-"
WHAT_IF_LINES = ("whatif", "whatif_played")
what_if_cards = (
    [str(c) for c in made_here.legal.cards.sorted_for_display(deal.trump) if c != made_here.card]
    if made_here is not None and made_here.violation is None and can_vary(deal, result.rules)
    else []
)
what_if_calls = call_choices(deal, result.rules) if step == 0 else []
made_call = call_name(None if deal.trump is None else int(deal.trump))
fork_values = what_if_cards or what_if_calls
fork_seat = made_here.seat if made_here is not None else chooser_of(deal)
if fork_values:
    data.prepare_what_if()
chosen_fork = str(st.session_state.get(WHAT_IF, NO_CARD))
if chosen_fork not in fork_values:
    chosen_fork = NO_CARD
chosen_card = chosen_fork if what_if_cards else NO_CARD
chosen_call = chosen_fork if what_if_calls else NO_CARD
asked: Any = None  # a card's WhatIf or a call's CallWhatIf: the same lines and view
what_if_error = None
try:
    if chosen_card != NO_CARD and made_here is not None:
        asked = data.what_if(match_id, deal_number, made_here.trick, made_here.position, chosen_card)
    elif chosen_call != NO_CARD:
        asked = data.call_what_if(match_id, deal_number, chosen_call)
except ManillenError as error:
    what_if_error = str(error)
what_if_layout = str(st.session_state.get(WHAT_IF_LAYOUT, "real"))
if asked is None or asked.view is None:
    what_if_layout = "real"
what_if_lines = None if asked is None else asked.view if what_if_layout == "view" else asked.real
if what_if_lines is not None:
    BRANCHES += list(WHAT_IF_LINES)

# The variations saved with the comments on this play (a what-if kept, or a record's own): the
# table steps through each as through a line, the cards as they were saved.
saved_variations: dict[str, dict[str, Any]] = {}
if made_here is not None and can_vary(deal, result.rules):
    for row in data.deal_annotations(match_id, deal_number).iter_rows(named=True):
        if row.get("line") and (row["trick"], row["play"]) == (made_here.trick, made_here.position):
            saved_variations[f"variation_{row['annotation_id']}"] = row
BRANCHES += list(saved_variations)

branch = str(st.session_state.get(BRANCH, "played")) if BRANCHES else "played"
if branch not in BRANCHES:
    branch = "played"


def line_of(line: str, layout: str) -> pl.DataFrame:
    """One stored line of this play: ``played`` or ``better``, on the ``view`` layout or the ``real`` deal."""
    return lines_here.filter((pl.col("line") == line) & (pl.col("layout") == layout))


def line_cards(rows: pl.DataFrame) -> list[LineCard]:
    return [
        LineCard(r["seat"], Card.parse(r["card"]), r["line_trick"], r["winner"], r["trick_points"],
                 CardSet.parse(" ".join(r["held"])))
        for r in rows.iter_rows(named=True)
    ]  # fmt: skip


branch_line: list[LineCard] = []
branch_moments: list[Moment] = []
if branch in WHAT_IF_LINES:
    assert what_if_lines is not None
    branch_line = solver_line_cards(what_if_lines.chosen if branch == "whatif" else what_if_lines.played)
elif branch in saved_variations:
    assert made_here is not None
    played_out = play_variation(
        deal, result.rules, made_here.trick, made_here.position,
        [int(Card.parse(c)) for c in saved_variations[branch]["line"]],
    )  # fmt: skip
    assert not isinstance(played_out, VariationProblem)  # the record's reader checked it
    branch_line = variation_cards(moments[step - 1], played_out)
elif branch != "played":
    branch_line = line_cards(line_of("better", branch))
shown_trump = deal.trump
if branch != "played":
    trump_code = None if deal.trump is None else int(deal.trump)
    if chosen_call != NO_CARD and branch == "whatif":
        trump_code = trump_of(chosen_call)
        shown_trump = None if trump_code is None else Suit(trump_code)
    # a call's lines start at the first lead: the moment before them is the deal's start
    branch_moments = line_moments(moments[max(step - 1, 0)], branch_line, trump_code, sides, shape.trick_size)
    branch_step = min(max(int(st.session_state.get(BRANCH_STEP, 1)), 0), len(branch_moments) - 1)
    st.session_state[BRANCH_STEP] = branch_step
    moment = branch_moments[branch_step]
    shown_step, shown_last = branch_step, len(branch_moments) - 1
else:
    shown_step, shown_last = step, last_step


def _go_branch(value: str) -> None:
    """A click in the table while it shows a line: the card of the line to show (or another
    card of the what-if choice)."""
    if value.isdigit():
        st.session_state[BRANCH_STEP] = int(value)
    else:
        _choose_what_if(value)


def _enter_branch() -> None:
    """A line was chosen: show its first card (the better card on the table)."""
    st.session_state[BRANCH_STEP] = 1


def _choose_what_if(value: str) -> None:
    """A card (or a call) clicked in the what-if choice: the table shows its line from its first
    card (or the game as played again, for the button back)."""
    if value != NO_CARD and value not in fork_values:
        return
    st.session_state[WHAT_IF] = value
    st.session_state[BRANCH] = "played" if value == NO_CARD else "whatif"
    st.session_state[BRANCH_STEP] = 1


def call_text(call: str) -> str:
    """A call (``H``, ``D``, ``C``, ``S`` or ``muil``) in words, game terms in Dutch."""
    trump = trump_of(call)
    if trump is None:
        return ui.contract_text(Contract.MUIL, None)
    return ui.contract_text(Contract.TRUMP, Suit(trump))


def fork_html(value: str) -> str:
    """A card or a call of the what-if choice, as the page shows it."""
    return escape(call_text(value)) if what_if_calls else cards.inline_card(Card.parse(value))


def fork_label(which: str, *, html: bool = True) -> str:
    """What a what-if line starts with: ``whatif`` the card (or call) chosen, ``whatif_played``
    the one made; as the page shows it, or as plain text (``html=False``)."""
    if what_if_calls:
        text = call_text(chosen_call if which == "whatif" else made_call)
        return escape(text) if html else text
    assert made_here is not None
    card = Card.parse(chosen_card) if which == "whatif" else made_here.card
    return cards.inline_card(card) if html else card.symbol


def what_if_choice_html() -> str:
    """The other cards the rules allowed at this play (before the first card: the other calls),
    each a button that plays the rest out after it (the browser's own buttons in the table's
    drawing, no Streamlit widget), and one back to the game once one is chosen; nothing where
    there is no choice."""
    if not fork_values:
        return ""
    if what_if_calls:
        question = t("replay.whatif_call_choose", name=escape(names[fork_seat]), call=fork_html(made_call))
    else:
        assert made_here is not None
        question = t(
            "replay.whatif_choose", name=escape(names[fork_seat]), card=cards.inline_card(made_here.card)
        )
    buttons = [
        f'<button type="button" class="mr-whatif-card" data-send="{value}" '
        f'aria-pressed="{str(value == chosen_fork).lower()}">{fork_html(value)}</button>'
        for value in fork_values
    ]
    if chosen_fork != NO_CARD:
        buttons.append(
            f'<button type="button" class="mr-whatif-card" data-send="{NO_CARD}">'
            f"{escape(t('replay.whatif_none'))}</button>"
        )
    return (
        f'<div class="mr-heading" id="mr-whatif-question">{question}</div>'
        '<div class="mr-whatif-cards" role="group" aria-labelledby="mr-whatif-question">'
        f"{''.join(buttons)}</div>"
    )


def branch_text(layout: str) -> str:
    """The choice of what the table shows, in words."""
    if layout == "played":
        return t("replay.branch_played")
    if layout in WHAT_IF_LINES:
        return t(f"replay.{layout}_line", card=fork_label(layout, html=False))
    if layout in saved_variations:
        saved = saved_variations[layout]
        return t("replay.variation_line", author=saved["author"], card=Card.parse(saved["line"][0]).symbol)
    first = Card.parse(str(line_of("better", layout)["first_card"][0])).symbol
    # the view's better card may do no better on the real cards: that line is no "better" one
    no_better = layout == "real" and real_line_compared() != "better"
    return t("replay.branch_real_worse" if no_better else f"replay.branch_{layout}", card=first)


def real_line_compared() -> str:
    """How the view's better card does with every hand known against the card played: ``better``,
    ``equal`` (as many points) or ``worse``."""
    better, played = line_of("better", "real"), line_of("played", "real")
    if not (better.height and played.height):
        return "better"
    b, a = better["team_points"][0], played["team_points"][0]
    return "better" if b > a else "equal" if b == a else "worse"


def branch_note_html() -> str:
    """What the line shown is, on which cards, and what each line comes to for the player's team."""
    if branch in WHAT_IF_LINES:
        return what_if_note_html()
    assert made_here is not None
    if branch in saved_variations:
        saved = saved_variations[branch]
        text = t(
            "replay.variation_note",
            author=escape(saved["author"]),
            card=cards.inline_card(Card.parse(saved["line"][0])),
            other=cards.inline_card(made_here.card),
            comment=escape(saved["text"]),
        )
        return cards.box_html("info", text)
    better, played = line_of("better", branch), line_of("played", branch)
    layouts = better["layouts"][0]
    where = (
        t(
            "replay.branch_on_view" if layouts != 1 else "replay.branch_on_one",
            name=names[made_here.seat],
            layouts=layouts,
        )
        if branch == "view"
        else t("replay.branch_on_real")
    )
    compared = real_line_compared() if branch == "real" else "better"
    text = t(
        "replay.branch_note" if compared == "better" else f"replay.branch_note_{compared}",
        name=escape(names[made_here.seat]),
        better=cards.inline_card(Card.parse(better["first_card"][0])),
        card=cards.inline_card(made_here.card),
        where=escape(where),
        team=escape(" & ".join(side_people(made_here.seat))),
        everyone=t("replay.everyone_four" if shape.name == "four" else "replay.everyone"),
        take=t("replay.take_many" if len(side_people(made_here.seat)) > 1 else "replay.take_one"),
        b=better["team_points"][0],
        a=played["team_points"][0] if played.height else "-",
    )
    return cards.box_html("info", text)


def what_if_where() -> str:
    """On which cards the what-if lines are played, in words."""
    if what_if_layout == "view" and asked is not None:
        key = "replay.branch_on_view" if asked.layouts != 1 else "replay.branch_on_one"
        return t(key, name=names[fork_seat], layouts=asked.layouts)
    return t("replay.branch_on_real")


def what_if_note_html() -> str:
    """What the what-if line shown is, on which cards, and what it comes to against the other."""
    assert asked is not None and what_if_lines is not None
    other_branch = "whatif_played" if branch == "whatif" else "whatif"
    shown, against = (
        (what_if_lines.chosen, what_if_lines.played)
        if branch == "whatif"
        else (what_if_lines.played, what_if_lines.chosen)
    )
    team = what_if_lines.team
    text = t(
        f"replay.{branch}_note",
        card=fork_label(branch),
        other=fork_label(other_branch),
        where=escape(what_if_where()),
        team=escape(side_names[sides[fork_seat]]),
        b=shown.taken(team),
        a=against.taken(team),
    )
    return cards.box_html("info", text)


def signed(value: float) -> str:
    """A difference with its sign (``+4``, ``−2`` with a real minus sign, ``0``), one decimal at most."""
    number = i18n.number(tenths(abs(value)), language)
    return f"+{number}" if value > 0 else f"{i18n.MINUS}{number}" if value < 0 else number


def what_if_html() -> str:
    """The two lines side by side, trick by trick: the cards, who takes the trick and its points,
    the points that change hands; then what each line comes to and the difference."""
    assert asked is not None and what_if_lines is not None
    played, chosen = fork_label("whatif_played"), fork_label("whatif")

    def trick_cell(trick: Any) -> str:
        shown = " ".join(f"{escape(names[p.seat])} {cards.inline_card(Card(p.card))}" for p in trick.plays)
        return f"{shown} → <b>{escape(names[trick.winner])}</b> +{trick.points}"

    rows = []
    for pair in what_if_lines.tricks():
        change = f' <span class="mr-change">({signed(pair.change)})</span>' if pair.change else ""
        marked = ' class="mr-changed"' if pair.change else ""
        rows.append(
            f'<tr{marked}><td class="num">{pair.number}</td>'
            f"<td>{trick_cell(pair.played)}</td><td>{trick_cell(pair.chosen)}{change}</td></tr>"
        )
    made = "replay.whatif_after_called" if what_if_calls else "replay.whatif_after_played"
    head = (
        f"<tr><th>{escape(t('col.trick'))}</th>"
        f"<th>{t(made, card=played)}</th>"
        f"<th>{t('replay.whatif_after_chosen', card=chosen)}</th></tr>"
    )
    table = (
        f'<div class="mr-scroll"><table class="mr-plain-table mr-whatif" data-name="whatif">'
        f"<thead>{head}</thead><tbody>{''.join(rows)}</tbody></table></div>"
    )
    team = what_if_lines.team
    total = t(
        "replay.whatif_total",
        team=escape(side_names[sides[fork_seat]]),
        a=what_if_lines.played.taken(team),
        b=what_if_lines.chosen.taken(team),
        card=played,
        other=chosen,
        difference=signed(what_if_lines.difference),
        where=escape(what_if_where()),
    )
    if what_if_calls:
        # a call changes the doubling too (muil x2): the deal score says what the points are worth
        made_score, chosen_score = asked.scores(what_if_lines)
        total += " " + t(
            "replay.whatif_call_score",
            a=made_score,
            b=chosen_score,
            x=asked.factors[0],
            y=asked.factors[1],
            card=played,
            other=chosen,
            difference=signed(asked.score_difference(what_if_lines)),
        )
    if what_if_calls:
        view = call_view_text(asked, played, chosen)
    else:
        view = t(
            "replay.whatif_view",
            name=escape(names[fork_seat]),
            layouts=asked.layouts,
            a=i18n.number(round(asked.view_values[0], 1), language),
            b=i18n.number(round(asked.view_values[1], 1), language),
            card=played,
            other=chosen,
            difference=signed(asked.view_difference),
        )
    heading = f'<div class="mr-heading">{t("replay.whatif_title", card=chosen)}</div>'
    return heading + table + f"<p>{total}</p>" + caption_html(view)


def call_view_text(asked: Any, played: str, chosen: str) -> str:
    """The chooser's view of another call, in deal score, beside what the trump review (whose
    figures the finding gives) expects: the layouts here are played with best play by all four,
    the review counts each as tables play it, and a helper read the two as contradicting."""

    def number(value: float) -> str:
        return i18n.number(round(value, 1), language)

    made_score, chosen_score = asked.view_scores
    text = t(
        "replay.whatif_call_view",
        name=escape(names[fork_seat]),
        layouts=asked.layouts,
        a=number(asked.view_values[0]),
        b=number(asked.view_values[1]),
        sa=number(made_score),
        sb=number(chosen_score),
        card=played,
        other=chosen,
        difference=signed(round(chosen_score - made_score, 1)),
    )
    review = data.trump_review(match_id, deal_number)
    if review is None or not {asked.call, asked.chosen} <= set(review.scores):
        return text + " " + t("replay.whatif_call_unreviewed")

    def expected(option: str) -> str:
        shown = number(review.scores[option])
        return t("replay.at_most", value=shown) if option in review.at_most else shown

    return (
        text
        + " "
        + t(
            "replay.whatif_call_review",
            layouts=review.layouts,
            a=expected(asked.call),
            b=expected(asked.chosen),
            card=played,
            other=chosen,
            difference=signed(round(review.scores[asked.chosen] - review.scores[asked.call], 1)),
        )
    )


def caption_html(html: str) -> str:
    return f'<p class="mr-caption">{html}</p>'


# The session's author of comments and variations (the comments' form sets it too).
COACH = "coach_author"


def add_comment(
    form: str, trick: int | None, play: int | None, *, done: str, line: list[str] | None = None
) -> None:
    """Save the comment typed in the form ``form`` (its fields ``{form}_text`` and ``{form}_tags``,
    its messages ``{form}_error`` and ``{form}_done``) by the session's author, with a variation
    when ``line`` is given."""
    text = str(st.session_state.get(f"{form}_text", "")).strip()
    who = st.session_state.get(COACH)
    if not who:
        st.session_state[f"{form}_error"] = t("annot.need_author")
        return
    if not text:
        st.session_state[f"{form}_error"] = t("annot.empty_text")
        return
    tags = data.parse_tags(str(st.session_state.get(f"{form}_tags", "")))
    try:
        data.add_annotation(match_id, deal_number, trick, play, who, text, tags, line)
    except ManillenError as error:
        # the text stays in the box: nothing the coach wrote is lost
        st.session_state[f"{form}_error"] = t("error.locked", message=error)
    else:
        st.session_state[f"{form}_text"] = ""
        st.session_state[f"{form}_tags"] = ""
        st.session_state[f"{form}_done"] = done


def _save_variation() -> None:
    """Save the what-if line on the real cards as a variation of a comment on this play."""
    from manillen_replay.analysis.what_if import line_cards  # the solver is loaded already

    assert made_here is not None and asked is not None
    typed = str(st.session_state.get("replay_whatif_author", "")).strip()
    if typed:
        st.session_state[COACH] = typed
    line = line_cards(asked.real.chosen)
    done = t("replay.whatif_saved")
    add_comment("replay_whatif", made_here.trick, made_here.position, done=done, line=line)


def what_if_save_form() -> None:
    """Who writes, the comment and its tags, and the button that saves the line as a variation."""
    box = st.expander(t("replay.whatif_save_title"), key="replay_whatif_save_open", on_change="rerun")
    if not box.open:
        return
    with box:
        author = st.session_state.get(COACH)
        if author is None:
            st.text_input(t("annot.author"), key="replay_whatif_author")
        else:
            st.caption(t("annot.author_set", author=ui.name_text(author)))
        st.text_area(t("annot.text"), key="replay_whatif_text", persist_state="session")
        st.text_input(t("annot.tags"), key="replay_whatif_tags", persist_state="session")
        st.caption(t("replay.whatif_save_caption"))
        st.button(t("replay.whatif_save"), key="replay_whatif_save", on_click=_save_variation, type="primary")
    if "replay_whatif_error" in st.session_state:
        st.error(st.session_state.pop("replay_whatif_error"))
    if "replay_whatif_done" in st.session_state:
        st.success(st.session_state.pop("replay_whatif_done"))


def branch_tricks_html() -> str:
    """The line's tricks up to the card shown: a click shows the table at a trick's last card."""
    lines = []
    shown = branch_line[:shown_step]
    by_trick: dict[int, list[tuple[int, LineCard]]] = {}
    for index, card in enumerate(shown, 1):
        by_trick.setdefault(card.trick, []).append((index, card))
    for trick, played in by_trick.items():
        text = " &nbsp;".join(f"{escape(names[c.seat])} {cards.inline_card(c.card)}" for _, c in played)
        last = played[-1][1]
        finished = sum(1 for c in branch_line if c.trick == trick) == len(played)
        if finished:
            text += f" → {escape(names[last.winner])} +{last.points}"
        lines.append((f"{trick}. {text}", played[-1][0]))
    return cards.link_list_html(t("replay.branch_tricks"), lines, raw=True) if lines else ""


# each step button: the step it shows, the key that presses it and the hint it shows for that key
STEP_BUTTONS = {
    "start": (0, "Home", "Home"),
    "back": (max(shown_step - 1, 0), "ArrowLeft", "←"),
    "forward": (min(shown_step + 1, shown_last), "ArrowRight", "→"),
    "end": (shown_last, "End", "End"),
}
STEP_KEYS = {key: str(target) for target, key, _ in STEP_BUTTONS.values()}


def controls_html() -> str:
    """Start, back, forward and end (also the Home, Left, Right and End keys), and the step slider
    (the browser's own, which moves with those keys while it has the focus).

    Drawn under the card table, so the table comes first; the buttons' bar sticks to the foot of
    the screen while the table runs past it (a phone), so they are reached without scrolling.
    While the table shows a line, they step through the line.
    """
    targets = [(name, t(f"replay.{name}"), *button) for name, button in STEP_BUTTONS.items()]
    label = t("replay.step") if branch == "played" else t("replay.branch_step")
    return cards.step_buttons_html(targets) + cards.step_range_html(label, shown_step, shown_last)


def tricks_so_far_html() -> str:
    """Every trick up to this step, one line each: a click shows the table at its last card."""
    size = shape.trick_size
    done = [trick for trick in deal.tricks if (trick.number - 1) * size < step]
    if not done:
        return ""
    lines = []
    for trick in done:
        played = min(size, step - (trick.number - 1) * size)
        shown = list(zip(trick.seats, trick.cards, strict=False))[:played]
        cards_text = " &nbsp;".join(
            f"{escape(names[seat])} {cards.inline_card(card)}" for seat, card in shown
        )
        complete = played == size and trick.winner is not None
        outcome = (
            f" → {escape(names[trick.winner])} +{trick.points}"
            if complete and trick.winner is not None
            else ""
        )
        lines.append((f"{trick.number}. {cards_text}{outcome}", trick.number * size))
    return cards.link_list_html(t("replay.tricks_so_far"), lines, raw=True)


def contract_text() -> str:
    """The deal's contract with its calls, game terms in Dutch."""
    return ui.contract_text(
        deal.contract, deal.trump, en_face=deal.en_face, knocks=deal.knocks, multiplier=deal.multiplier
    )


def trick_note() -> str:
    """Who takes the trick on the table, or who leads at the start."""
    if moment.trick_winner is not None and moment.last is not None:
        points = sum(c.points for _, c in moment.table)
        return t("replay.takes", name=names[moment.trick_winner], points=points)
    return f"{t('col.trick')} {moment.trick}" if moment.trick <= shape.tricks else ""


title.title(t("replay.title", deal=deal_number, match=match_id))
left, right = st.columns([3, 2], gap="large")

with left:
    if BRANCHES:
        st.radio(
            t("replay.branch_choice"),
            ["played", *BRANCHES],
            format_func=branch_text,
            horizontal=True,
            key=BRANCH,
            on_change=_enter_branch,
        )
    table = cards.table_html(
        names=names,
        hands=moment.hands,
        table=moment.table,
        trump=shown_trump,
        dealer=deal.dealer,
        to_play=moment.to_play,
        may_play=moment.may_play.cards if moment.may_play is not None else None,
        winning=moment.winning,
        order=shape.order(deal.dealer),
        teams=sides,
        note=trick_note(),
        labels=ui.table_labels(),
    )
    legend = f'<p class="mr-caption">{escape(t("replay.legend"))}</p>'
    if branch == "played":
        html_view.show(
            table + legend + controls_html() + what_if_choice_html() + tricks_so_far_html(),
            key=TABLE,
            on_click=_go,
            keys=STEP_KEYS,
            stylesheet="cards",
        )
    else:
        html_view.show(
            branch_note_html() + table + controls_html() + what_if_choice_html() + branch_tricks_html(),
            key=f"{TABLE}_line",
            on_click=_go_branch,
            keys=STEP_KEYS,
            stylesheet="cards",
        )
    if fork_values:
        if what_if_error is not None:
            st.error(t("replay.whatif_failed", message=what_if_error))
        if asked is not None:
            if asked.view is not None:
                chooser = names[fork_seat]
                st.radio(
                    t("replay.whatif_layout"),
                    ["real", "view"],
                    format_func=lambda layout: t(f"replay.whatif_layout_{layout}", name=chooser),
                    horizontal=True,
                    key=WHAT_IF_LAYOUT,
                )
            html_view.show(what_if_html(), key="replay_whatif", stylesheet="cards")
            if what_if_cards and access.current_visitor().is_organiser:
                # a call's what-if is shown, not saved: a variation in the record is cards
                what_if_save_form()

findings = data.deal_findings(match_id, deal_number)
play_costs, card_values = data.deal_costs(match_id, deal_number)


def _points(value: float) -> str:
    """Card points to one decimal at most, in the page's language (``2,5`` in Dutch)."""
    return i18n.number(tenths(value), language)


def show_costs(trick: int, play: int, seat: int, card: str) -> None:
    """The solver's value of every legal card at this play, and the two costs of the card played."""
    here = play_costs.filter((pl.col("trick") == trick) & (pl.col("play") == play))
    if here.height == 0:
        return
    cost = here.row(0, named=True)
    # a record's name, in markdown that draws HTML (the card's drawing): escaped, or a name such as
    # <iframe srcdoc=...> ran its script in the organiser's browser
    name = ui.name_text(names[seat])
    shown = cards.inline_card(Card.parse(card))
    st.markdown(f"**{t('replay.costs_title')}**")
    if not cost["legal"]:
        # "cost 0 with hindsight" above a table without the card read as a free card, and a revoke
        # where one card was legal as "the only card Anna could play"
        if cost["forced"]:
            broken = next(v for v in deal.violations if (v.trick, v.play) == (trick, play))
            only = cards.inline_card(next(iter(broken.legal)))
            said = t("replay.cost_illegal_forced", card=shown, name=name, legal=only)
            st.markdown(said, unsafe_allow_html=True)
            return
        st.markdown(t("replay.cost_illegal", card=shown, name=name), unsafe_allow_html=True)
    elif cost["forced"]:
        st.markdown(t("replay.cost_forced", card=shown, name=name), unsafe_allow_html=True)
        return
    elif cost["view_cost"] is None:
        st.markdown(t("replay.cost_hindsight_only", card=shown, dd=cost["dd_cost"]), unsafe_allow_html=True)
    else:
        st.markdown(
            t(
                "replay.cost_played",
                card=shown,
                name=name,
                # as the finding beside it writes it: to two decimals where one would not multiply
                # out to the score's figure below (9,95 counted twice is 19,9)
                view=counted_number(cost["view_cost"], deal.multiplier or 1, language),
                dd=cost["dd_cost"],
            ),
            unsafe_allow_html=True,
        )
        factor = deal.multiplier or 1
        if factor > 1 and cost["view_cost"] > 0:
            # the finding beside it gives its points at stake, in the score: the two tied together
            st.markdown(
                t(
                    "replay.cost_counted",
                    times=counted_nl(factor) if language == "nl" else counted_en(factor),
                    points=_points(round(cost["view_cost"] * factor, 2)),
                )
            )
    best = set(cost["best"] or [])
    hindsight_best = set(cost["hindsight_best"] or [])
    values = card_values.filter((pl.col("trick") == trick) & (pl.col("play") == play))
    listed = values["card"].to_list()
    # the card with its symbol (7♣), as everywhere else on the page: "7C" is an English letter
    table = values.select(
        pl.col("card").replace_strict(cards.SYMBOLS), pl.col("view").round(1), pl.col("hindsight")
    )
    # The marks sit beside the values, not in columns of their own: the table shares the replay's
    # right-hand column (344 px on a laptop), where six columns ran off its edge in Dutch.
    notes = {
        "card": ["◀" if c == card else "" for c in listed],
        "view": ["★" if c in best else "" for c in listed],
        "hindsight": ["★" if c in hindsight_best else "" for c in listed],
    }
    hindsight_only = cost["view_cost"] is None
    if hindsight_only:
        # a play costed with every hand open only (no view value stored): no empty view column
        table = table.drop("view")
    light_table.show(
        table,
        key="replay_costs",
        labels={"card": t("col.card"), "view": t("col.view"), "hindsight": t("col.hindsight")},
        formats={"view": "%.1f", "hindsight": "%d"},
        notes=notes,
        caption=t("replay.costs_title"),
    )
    if hindsight_only:
        st.caption(t("replay.costs_caption_hindsight", name=name))
        return
    exact = t("replay.costs_exact") if cost["exact"] else ""
    st.caption(t("replay.costs_caption", name=name, layouts=cost["layouts"], exact=exact))


def explanation(row: dict[str, Any]) -> str:
    """The finding's explanation in the chosen language (English when no Dutch one was written)."""
    if language == "nl" and row.get("explanation_nl"):
        return minus_signs(str(row["explanation_nl"]))
    return minus_signs(str(row.get("explanation") or ""))


def finding_html(row: dict[str, Any]) -> str:
    """One finding: severity, kind, the points at stake and its explanation."""
    severity = i18n.label_of("severity", str(row["severity"]), language)
    head = f"<b>{escape(severity)}</b> · {escape(i18n.label_of('kind', str(row['kind']), language))}"
    if row.get("points"):
        # to a tenth, as the explanation beside it writes the cost (7.6, not 7.58)
        # as the Match page says it: "inzet 7,6 punten" (the column's "7,6 inzet (punten)" read oddly)
        points = i18n.number(tenths(row["points"]), language)
        head += f" · {escape(t('review.at_stake', points=points))}"
    box = {"blunder": "error", "mistake": "warning"}.get(str(row["severity"]), "info")
    return cards.box_html(box, f"<p>{head}</p><p>{escape(explanation(row))}</p>")


def caption(text: str) -> str:
    return f'<p class="mr-caption">{escape(text)}</p>'


def facts_html() -> list[str]:
    """The contract, the score, the points taken and the play on the table with what could have
    been played: the top of the right-hand column, one drawing."""
    parts = [
        f"<p><b>{escape(t('replay.contract'))}:</b> {escape(contract_text())} — "
        f"{escape(t('replay.dealer'))} {escape(names[deal.dealer])}</p>"
    ]
    if branch != "played":
        # the table steps through another line: this column stays on the game as it was played
        # (a helper read its "points taken" and "could play" as the line's)
        parts.append(cards.box_html("info", escape(t("replay.panel_as_played"))))
    before = next((d.match_score for d in reversed(replayed.deals) if d.number < deal_number), (0, 0))
    parts.append(caption(t("replay.match_before", score="-".join(str(points) for points in before))))
    parts.append(f'<div class="mr-heading">{escape(t("replay.running"))}</div>')
    parts.append(ui.figures_html([(side_names[team], moment.taken[team]) for team in (0, 1)]))
    if moment.step == last_step and deal.points is not None:
        if deal.score is None:
            outcome = t("replay.nobody")
        else:
            outcome = t("replay.scores", names=side_names[deal.score.team], points=deal.score.points)
            bonus = capot_bonus(replayed, deal)
            if bonus is not None:  # "score 60" after card points 60-0 at x1 read as a wrong sum
                kind, value = bonus
                outcome += (
                    t("replay.capot_double", factor=value)
                    if kind == "double"
                    else t("replay.capot_fixed", points=value)
                )
        parts.append(
            cards.box_html(
                "success", escape(t("replay.result", a=deal.points[0], b=deal.points[1], score=outcome))
            )
        )
    made = moment.last
    if made is None:
        opener = names[moment.to_play if moment.to_play is not None else 0]
        parts.append(f"<p>{escape(t('replay.opening', name=opener))}</p>")
        return parts
    played = t("replay.played", play=made.position, name=names[made.seat], card="{card}")
    parts.append(
        f"<p><b>{escape(t('replay.trick_of', trick=made.trick, tricks=shape.tricks))}</b> — "
        + escape(played).replace("{card}", cards.inline_card(made.card))
        + "</p>"
    )
    if made.violation is not None:
        kind = i18n.label_of("violation", made.violation.value, language)
        parts.append(cards.box_html("error", escape(t("replay.illegal", kind=kind))))
    best = made.legal.winning_position
    winner_name = names[moment.table[best][0]] if best is not None else None
    reason = i18n.explain_clause(made.legal, language, winner_name)
    parts.append(f"<p>{escape(t('replay.could_play'))}: <i>{escape(reason)}</i></p>")
    parts.append(cards.cards_row(made.legal.cards.sorted_for_display(deal.trump), marked=made.legal.cards))
    return parts


def notes_html() -> list[str]:
    """The findings of the play and of the deal (a click on one in the list shows its play), the
    play's address, and the heading of the comments."""
    parts = []
    made = moment.last
    if made is not None:
        here = findings.filter((pl.col("trick") == made.trick) & (pl.col("play") == made.position))
        parts.append(f'<div class="mr-heading">{escape(t("replay.findings"))}</div>')
        if here.height == 0:
            parts.append(caption(t("replay.no_findings")))
        parts += [finding_html(row) for row in here.iter_rows(named=True)]
    if moment.may_play is not None and moment.to_play is not None and moment.step > 0:
        parts.append(caption(t("replay.may_play_next", name=names[moment.to_play])))
    whole = findings.filter(pl.col("trick").is_null())
    if whole.height:
        inside = "".join(finding_html(row) for row in whole.iter_rows(named=True))
        summary = f"{t('replay.deal_findings')} ({whole.height})"
        # before the first card (where the calls are made, and where a call's finding links to)
        # they are what the step is about: shown open
        opened = " open" if step == 0 else ""
        parts.append(
            f'<details data-name="deal-findings"{opened}><summary>{escape(summary)}</summary>'
            f"<div>{inside}</div></details>"
        )
    others = findings.filter(pl.col("trick").is_not_null())
    if others.height:
        links = []
        for row in others.iter_rows(named=True):
            target = step_of(
                int(row["trick"]), int(row["play"]) if row["play"] is not None else None, shape.trick_size
            )
            kind = i18n.label_of("kind", str(row["kind"]), language)
            # the notes marked, as the heading counts them apart: five lines read alike
            level = (
                t("replay.note_mark")
                if row["severity"] == "info"
                else i18n.label_of("severity", str(row["severity"]), language)
            )
            links.append((f"{row['trick']}.{row['play'] or '-'} {row['player']}: {kind} ({level})", target))
        notes = others.filter(pl.col("severity") == "info").height
        mistakes = others.height - notes
        # counted as the Match page's deals count them: the notes (info) apart
        heading = (
            t("replay.play_findings", count=mistakes)
            if not notes
            else t(
                "replay.findings_notes",
                count=mistakes,
                notes=t("replay.notes_one") if notes == 1 else t("replay.notes", count=notes),
            )
        )
        parts.append(cards.link_list_html(heading, links))
    address = escape(ui.absolute(ui.replay_url(match_id, deal_number, step)))
    parts.append(
        f'<details data-name="link"><summary>{escape(t("replay.link"))}</summary>'
        f'<code class="mr-address">{address}</code></details>'
    )
    parts.append(f"<hr><h3>{escape(t('annot.title'))}</h3>")
    return parts


moment = moments[step]  # the right-hand column is about the play as it was made

with right:
    made = moment.last
    costs_here = (
        made is not None
        and play_costs.filter((pl.col("trick") == made.trick) & (pl.col("play") == made.position)).height > 0
    )
    if made is not None and costs_here:
        # the solver's values are a table of their own (sortable): the drawing goes around it
        html_view.show("".join(facts_html()), key=FACTS, on_click=_go, stylesheet="cards")
        show_costs(made.trick, made.position, made.seat, str(made.card))
        html_view.show("".join(notes_html()), key="replay_notes", on_click=_go, stylesheet="cards")
    else:
        html_view.show("".join(facts_html() + notes_html()), key=FACTS, on_click=_go, stylesheet="cards")

    # ------------------------------------------------------------------ coach comments
    AUTHOR = COACH

    def _set_author() -> None:
        name = str(st.session_state.get("replay_author_input", "")).strip()
        if name:
            st.session_state[AUTHOR] = name

    comments = data.deal_annotations(match_id, deal_number)
    organiser = access.current_visitor().is_organiser

    def where(row: dict[str, Any]) -> str:
        if row["trick"] is None:
            return t("annot.where_deal")
        if row["play"] is None:
            return t("annot.where_trick", trick=row["trick"])
        return t("annot.where_play", trick=row["trick"], play=row["play"])

    def _save(annotation_id: int) -> None:
        text = str(st.session_state.get(f"replay_edit_text_{annotation_id}", "")).strip()
        typed_tags = str(st.session_state.get(f"replay_edit_tags_{annotation_id}", ""))
        tags = data.parse_tags(typed_tags)
        was_key = f"replay_edit_was_{annotation_id}"
        try:
            data.update_annotation(annotation_id, text, tags, st.session_state.get(was_key))
        except AnnotationChangedError as changed:
            # saved from another tab or by another coach since this box was filled: their words
            # are shown and this edit stays in the box; a second Save replaces theirs knowingly
            st.session_state[was_key] = (changed.text, changed.tags)
            now = f"“{ui.name_text(changed.text)}”"
            if changed.tags:
                now += f" ({t('col.tags')}: {ui.name_text(', '.join(changed.tags))})"
            st.session_state["replay_annot_error"] = t("annot.changed_kept", text=now)
        except NoSuchAnnotationError:
            # deleted from another tab meanwhile: its box is gone, so the edit moves to the box
            # for a new comment rather than being lost
            st.session_state["replay_annot_text"] = text
            st.session_state["replay_annot_tags"] = typed_tags
            st.session_state["replay_annot_error"] = t("annot.gone_kept")
        except ManillenError as error:
            st.session_state["replay_annot_error"] = t("error.locked", message=error)
        else:
            st.session_state[was_key] = (text, tags)
            st.session_state["replay_annot_done"] = t("annot.saved")

    def _delete(annotation_id: int) -> None:
        try:
            data.delete_annotation(annotation_id)
        except NoSuchAnnotationError:
            st.session_state["replay_annot_done"] = t("annot.gone_deleted")
        except ManillenError as error:
            st.session_state["replay_annot_error"] = t("error.locked", message=error)
        else:
            st.session_state["replay_annot_done"] = t("annot.deleted")

    def _add(trick: int | None, play: int | None) -> None:
        add_comment("replay_annot", trick, play, done=t("annot.saved"))

    def show_comment_form() -> None:
        """Who writes, about what, the comment and its tags, and the button that adds it."""
        author = st.session_state.get(AUTHOR)
        if author is None:
            st.text_input(t("annot.author"), key="replay_author_input", on_change=_set_author)
        else:
            st.caption(t("annot.author_set", author=ui.name_text(author)))
        scopes = ["deal"] if made is None else ["play", "trick", "deal"]
        scope = st.radio(
            t("annot.scope"),
            scopes,
            format_func=lambda s: t(f"annot.scope_{s}"),
            horizontal=True,
            key=f"replay_annot_scope_{len(scopes)}",
        )
        # kept for the whole session: a comment that could not be saved survives any rerun
        st.text_area(t("annot.text"), key="replay_annot_text", persist_state="session")
        st.text_input(t("annot.tags"), key="replay_annot_tags", persist_state="session")
        target_trick = made.trick if made is not None and scope in ("play", "trick") else None
        target_play = made.position if made is not None and scope == "play" else None
        st.button(
            t("annot.add"),
            key="replay_annot_add",
            on_click=_add,
            args=(target_trick, target_play),
            type="primary",
        )

    if "replay_annot_error" in st.session_state:
        st.error(st.session_state.pop("replay_annot_error"))
    if "replay_annot_done" in st.session_state:
        st.success(st.session_state.pop("replay_annot_done"))

    if comments.height == 0:
        st.caption(t("annot.none"))
    for row in comments.iter_rows(named=True):
        annotation_id = int(row["annotation_id"])
        tags = ", ".join(ui.name_text(tag) for tag in row["tags"] or [])  # as typed: no markdown
        current_here = (
            made is not None and row["trick"] == made.trick and row["play"] in (None, made.position)
        )
        variation = list(row.get("line") or [])
        said = f"{ui.name_text(str(row['author']))}: {ui.name_text(str(row['text']))}"
        label = f"{'▶ ' if current_here else ''}{where(row)} — {said}"
        if variation:
            label += f" ({t('annot.variation_label', card=Card.parse(variation[0]).symbol)})"
        comment_box = st.expander(
            label,
            expanded=current_here,
            key=f"replay_comment_open_{annotation_id}_{current_here}",
            on_change="rerun",
        )
        if not comment_box.open:
            continue
        with comment_box:
            if tags:
                st.caption(f"{t('col.tags')}: {tags}")
            if variation:
                shown = " ".join(cards.inline_card(Card.parse(c)) for c in variation)
                st.markdown(f"{escape(t('annot.variation'))}: {shown}", unsafe_allow_html=True)
            if not organiser:  # reading only (the text is the box's label): writing is the organiser's
                continue
            # what the box began from: a save checks the comment still says it (another tab may
            # have changed it meanwhile)
            st.session_state.setdefault(
                f"replay_edit_was_{annotation_id}",
                (row["text"], None if row["tags"] is None else list(row["tags"])),
            )
            st.text_area(t("annot.text"), value=row["text"], key=f"replay_edit_text_{annotation_id}")
            # the tags as typed: the caption's are escaped for markdown, which a text box would keep
            typed = ", ".join(row["tags"] or [])
            st.text_input(t("annot.tags"), value=typed, key=f"replay_edit_tags_{annotation_id}")
            actions = st.columns(2)
            actions[0].button(
                t("annot.save"), key=f"replay_save_{annotation_id}", on_click=_save, args=(annotation_id,)
            )
            actions[1].button(
                t("annot.delete"),
                key=f"replay_delete_{annotation_id}",
                on_click=_delete,
                args=(annotation_id,),
            )

    # the writing box stays open for the session once a coach opened it
    writing = st.expander(t("annot.write"), key="replay_annot_open", on_change="rerun") if organiser else None
    if writing is not None and writing.open:
        with writing:
            show_comment_form()
