"""Record: a match entered at the table, card by card on a 32-card grid, made for a phone.

The page only draws and wires buttons: every tap goes through :mod:`dashboards.recording` (the
engine's rules) and is written at once to the draft file (:mod:`dashboards.drafts`); the draft's
id lives in the page address (``?draft=...``), so a closed tab or a reload resumes where it was.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, get_args

import streamlit as st

from dashboards import access, club_rules_box, data, drafts, i18n, native_inputs, review_view, ui
from dashboards import recording as rec
from dashboards.cards import SYMBOLS
from manillen_replay.cards import CARD_BY_TEXT, CARD_TEXT, Card, Suit
from manillen_replay.club_rules import ClubRules
from manillen_replay.engine import MatchResult
from manillen_replay.engine.results import DealResult, IrregularityKind
from manillen_replay.errors import ManillenError
from manillen_replay.record.text import rule_options_text
from manillen_replay.rules import (
    CAFE_OPTIONS,
    VARIANTS,
    Capot,
    KlopBy,
    MatchFormat,
    Multipliers,
    PenaltyTo,
    Rules,
    TrumpChoice,
    Underbuy,
)

t = ui.translator()
language = ui.lang()
visitor = access.current_visitor()
if not visitor.may_record_any:  # a viewer: the page is not in the navigation, nor at its address
    st.error(t("record.viewer"))
    st.stop()
DRAFT, NOTICE, SHARE, SAVED = "record_draft", "record_notice", "record_share", "record_saved"
# pixels of the Share as text box past SHARE_LINES lines: a match of twelve deals is some 150
# lines, which scroll in it
SHARE_HEIGHT, SHARE_LINES = 320, 14
# the example in a cards box, as many as the box takes (a comment: a bare string here is drawn)
PLACEHOLDER_CARDS = ("10H", "AH", "KD", "8D", "QC", "9S", "JS", "7S", "9H", "7C")
MISTAKES_COUNTED = 1000  # every ranked decision of a match, for the count a save announces
HOUSE_RULES_OPEN, REOPEN_OPEN = "record_house_rules_open", "record_reopen_open"
CHANGED_ELSEWHERE = "record_changed_elsewhere"  # another phone wrote the draft: the page is redrawn
CLOSING = "record_closing"  # the draft whose Close was tapped, waiting for the answer
CLUB_SAVE_OPEN = "record_club_save_open"  # the box to save the house rules under a club's name
SETUP_FIELDS = "record_setup"  # the players, date, venue and first dealer of a new match
SETUP_PEOPLE = "record_setup_people"  # how many players the setup was last drawn for
GRID_WIDTH = 560  # pixels at most: on a desktop the cards stay card-sized; a phone is narrower anyway

# The grid's and the calls' buttons, card-sized; drawn with the table only (the set-up view does
# not need it, and an HTML element would cost a new tab of that view its own scripts).
TABLE_STYLE = """<style>
    .st-key-record_grid button, .st-key-record_calls button, .st-key-record_knocks button {
        min-height: 2.9rem; padding: 0 0.1rem; font-size: 1.05rem; font-weight: 600;
    }
    .st-key-record_grid [data-testid="stHorizontalBlock"], .st-key-record_grid .stHorizontalBlock {
        gap: 0.25rem;
    }
    .st-key-record_grid button:disabled { opacity: 0.25; }
    .st-key-record_grid button p, .st-key-record_calls button p { font-size: 1.05rem; }
    .st-key-record_scoresheet th, .st-key-record_scoresheet td {
        padding-left: 0.4rem; padding-right: 0.4rem;
    }
    .st-key-record_scoresheet td:nth-child(2) { overflow-wrap: anywhere; }
    @media (max-width: 640px) {
        .st-key-record_scoresheet table { font-size: 0.875rem; }
        .st-key-record_scoresheet th, .st-key-record_scoresheet td {
            padding-left: 0.25rem; padding-right: 0.25rem;
        }
    }
    </style>"""
# (the scoresheet names the players by their first names; a dealer's first name too long for a
# phone breaks anywhere, every other word stays whole)


# --------------------------------------------------------------------------- the draft in session


def _notice(kind: str, message: str) -> None:
    st.session_state.setdefault(NOTICE, []).append((kind, message))


def _ours(draft: rec.Draft) -> bool:
    """Whether this visitor may see and record this draft (a recorder: their own table's only).
    Asked afresh each time: a tap reruns only the table's fragment, not the app's own check, and
    a token revoked since the page opened must stop the next tap too."""
    return access.current_visitor().may_record(draft.setup.table or None)


def _draft() -> rec.Draft | None:
    """The draft of this session, or the one the page address names (a resumed tab)."""
    wanted = st.query_params.get("draft")
    current: rec.Draft | None = st.session_state.get(DRAFT)
    if wanted and (current is None or current.draft_id != wanted):
        current = drafts.load(str(wanted))
        # the address is anyone's to write: echo it only when it is a draft id, never as markdown
        shown = str(wanted) if drafts.is_draft_id(str(wanted)) and len(str(wanted)) <= 32 else "?"
        if current is not None and not _ours(current):
            current_table, current = current.setup.table or "?", None
            _notice(
                "warning",
                t("record.other_table", draft=shown, theirs=current_table, table=visitor.table or "?"),
            )
            del st.query_params["draft"]
        elif current is None:
            _notice("warning", t("record.no_draft", draft=shown))
            del st.query_params["draft"]
        st.session_state[DRAFT] = current
    if not wanted and current is not None:
        # the address names the session's draft again: Back from the Deal replay sometimes left the
        # replay's address here (record?match=...&deal=2&step=0), and a reload then opened an empty
        # new match instead of the table's
        for stray in ("match", "deal", "step"):
            if stray in st.query_params:
                del st.query_params[stray]
        st.query_params["draft"] = current.draft_id
    if current is not None and not _ours(current):  # the session's draft, with a token changed since
        _notice("warning", t("record.not_your_table", table=current.setup.table))
        st.session_state[DRAFT] = None
        del st.query_params["draft"]
        return None
    return current


def _keep(draft: rec.Draft | None) -> None:
    """Hold a changed draft in the session and write it to its file at once; when another phone
    at the table wrote the file meanwhile, take up its version instead and say so."""
    if draft is not None and not _ours(draft):  # checked where it is written, whatever the page shows
        if access.session_visitor() is None:  # a token revoked (or gone) since the page opened
            raise access.AccessRefusedError(access.refused_text())
        raise access.AccessRefusedError(t("record.only_table", table=draft.setup.table or "?"))
    if draft is not None:
        try:
            drafts.save(draft)
        except drafts.DraftChangedError:
            _reload_changed(draft)
            return
        st.query_params["draft"] = draft.draft_id
    st.session_state[DRAFT] = draft


def _reload_changed(draft: rec.Draft) -> None:
    """Take up the draft file another phone at the table wrote, telling this phone; the whole page
    is drawn again (a tap reruns only the table: the scoresheet stayed as it was, without the deal
    the other phone saved)."""
    other = drafts.load(draft.draft_id) or draft
    st.session_state[DRAFT] = other
    st.session_state[CHANGED_ELSEWHERE] = True
    if len(other.deals) > len(draft.deals):
        # the other phone saved the deal this one was still showing: said so, where "tap again
        # what you meant to" left the player wondering what had happened to the deal
        _notice("warning", t("record.saved_elsewhere", number=len(other.deals), next=other.number))
    else:
        _notice("warning", t("record.changed_elsewhere"))


def _change(step: Callable[..., rec.Draft], *args: Any) -> None:
    """A button's callback: apply one step to the draft, or say why it cannot be taken."""
    draft = st.session_state.get(DRAFT)
    if draft is None:
        return
    try:
        _keep(step(draft, *args))
    except ManillenError as error:
        _notice("error", ui.markdown_text(_said(error)))


def _said(error: ManillenError) -> str:
    """Why a step was refused, in the page's language where the words are the Record page's own."""
    return rec.said(error, ui.lang())


def _tap(card: str) -> None:
    _change(rec.play_card, card)


def _illegal_warnings(draft: rec.Draft, table: rec.Table) -> None:
    """Each illegal card of the latest trick (under way or just taken), said on every run of the
    page: a warning made once at the tap was gone after a reload or a change of language."""
    if not table.tricks:
        return
    for play in table.tricks[-1].plays:
        if play.violation is not None and play.legal is not None:
            st.warning(
                t(
                    "record.illegal",
                    name=_names(draft)[play.seat],
                    card=SYMBOLS[str(play.card)],  # 9♣ as the grid writes it, not 9C
                    kind=i18n.label_of("kind", play.violation.value, language),
                    why=i18n.explain_clause(play.legal, language),
                ),
                icon=":material/warning:",
            )


# --------------------------------------------------------------------------- set-up


def _setup() -> None:
    """Resume an open draft, or set up a new match."""
    open_drafts = [d for d in drafts.open_drafts() if _ours(d)]
    if open_drafts:
        st.subheader(t("record.resume"))
        for draft in open_drafts[:5]:
            played = len(draft.current.plays) if draft.current else 0
            game = "" if draft.setup.variant == "four" else f" ({t('record.variant_' + draft.setup.variant)})"
            label = t(
                "record.resume_one",
                players=", ".join(ui.name_text(seat) for seat in draft.setup.seats) + game,
                deal=draft.number,
                cards=played,
                match=draft.setup.match_id,
            )
            if st.button(label, key=f"record_resume_{draft.draft_id}", width="stretch"):
                _keep(draft)
                st.rerun()
    st.subheader(t("record.new_match"))
    archive_ready = data.counts()["matches"] > 0
    match = _match_fields(archive_ready)
    seats, date, venue, dealer = match.seats, match.date, match.venue, match.dealer
    complete = all(seats) and len({seat.casefold() for seat in seats}) == len(seats)
    options = _rule_widgets(match.base, match.suffix, match.target, match.variant)
    _save_club_rules(options)
    # never disabled: on a phone the last name reaches the page as its box loses the focus, which
    # the tap on a disabled button did, so the first tap started nothing; names missing are said
    started = st.button(t("record.start"), type="primary", width="stretch", key="record_start")
    if started and not complete:
        people = VARIANTS[match.variant].people
        st.error(
            t("record.need_players") if match.variant == "four" else t("record.need_people", count=people)
        )
        return
    if started:
        date_text = date.isoformat() if date is not None else ""
        taken = drafts.taken_ids(data.match_ids() if archive_ready else [])
        setup = rec.Setup(
            match_id=rec.suggest_match_id(date_text, str(venue or ""), taken),
            seats=seats,
            date=date_text,
            venue=str(venue or "").strip(),
            rules=options,
            first_dealer=int(dealer),
            table=visitor.table or "",
            variant=match.variant,
        )
        try:
            _keep(rec.new_draft(drafts.new_id(), setup))
        except ManillenError as error:
            st.error(ui.markdown_text(ui.without_folders(_said(error))))  # what was typed: text, not markdown
            return
        st.rerun()
    if not complete:
        people = VARIANTS[match.variant].people
        st.caption(
            t("record.need_players") if match.variant == "four" else t("record.need_people", count=people)
        )


@dataclass(frozen=True)
class _NewMatch:
    """What the new match's inputs hold: players, date, venue, first dealer and the rules to
    start from (``base``: the standard ones or their last match's, ``suffix`` naming which),
    with the target score."""

    seats: list[str]
    date: datetime.date | None
    venue: str
    dealer: int
    base: Rules
    suffix: str
    target: int
    variant: str = "four"


def _match_fields(archive_ready: bool) -> _NewMatch:
    """The new match's inputs, as the browser's own (:mod:`dashboards.native_inputs`: a phone's
    own keyboard, name suggestions, date picker and number pad, and none of Streamlit's drop-down,
    date, radio and number scripts for a new tab to load). Defaults: today, the venue of the
    archive's latest match, the fourth seat deals first, the standard rules (the players' last
    match's once chosen, when the archive has one) and their target. The archive's names and
    venues are offered as each is typed; a new one is simply typed in."""
    names = data.players() if archive_ready else []
    venues = data.venues() if archive_ready else []
    typed = native_inputs.chosen(SETUP_FIELDS)
    variant = typed.get("variant", "four") if typed.get("variant") in VARIANTS else "four"
    people = VARIANTS[variant].people
    if st.session_state.get(SETUP_PEOPLE, people) != people:
        # the last seat deals first, so the first seat leads: the four-player game's seat 4 kept for
        # six players had the fifth seat lead every deal recorded
        native_inputs.forget(SETUP_FIELDS, "dealer")
    st.session_state[SETUP_PEOPLE] = people
    seats = [typed.get(f"seat_{seat}", "").strip() for seat in range(people)]
    complete = all(seats) and len(set(seats)) == people
    last = drafts.last_rules(seats) if complete and archive_ready else None
    source = typed.get("source", "default") if last is not None else "default"
    base = Rules.from_options(last) if source == "last" and last is not None else Rules()
    suffix = source if last is not None else "default"
    clubs = _club_rule_sets(variant)
    club = next((c for c in clubs if c.name == typed.get("club")), None)
    if club is not None:  # a club's saved rules come before the standard or the last match's
        base, suffix = club.rules, f"club-{rec.slug(club.name)}"
    fields = [_variant_field(variant)] + [
        native_inputs.Field(
            f"seat_{seat}",
            _seat_label(variant, seat),
            placeholder=t("record.seat_placeholder") if names else t("record.seat_type"),
            suggest="names",
        )
        for seat in range(people)
    ]
    fields += [
        native_inputs.Field("date", t("record.date"), "date", value=datetime.date.today().isoformat()),
        native_inputs.Field(
            "venue",
            t("record.venue"),
            value=(drafts.last_venue() or "") if archive_ready else "",
            placeholder=t("record.venue_placeholder") if venues else t("record.venue_type"),
            suggest="venues",
        ),
        native_inputs.Field(
            "dealer",
            t("record.first_dealer"),
            "select",
            value=str(people - 1),
            options=[(str(s), seats[s] or t("record.seat_short", seat=s + 1)) for s in range(people)],
        ),
        *_club_field(clubs),
        native_inputs.Field(
            "source",
            t("record.rules_source"),
            "radio",
            value="default",
            options=[(s, t(f"record.rules_{s}")) for s in ("default", "last")],
            help=t("record.rules_help"),
            disabled=last is None or club is not None,
        ),
        # one target per source: choosing the other rules shows their target
        native_inputs.Field(
            f"target_{suffix}", t("record.target"), "number", value=str(base.target), minimum=1, step=10
        ),
    ]
    chosen = native_inputs.inputs(SETUP_FIELDS, fields, {"names": names, "venues": venues})
    try:
        date: datetime.date | None = datetime.date.fromisoformat(chosen["date"])
    except ValueError:  # emptied: the match has no date
        date = None
    try:
        target = max(1, int(chosen[f"target_{suffix}"]))
    except ValueError:
        target = base.target
    return _NewMatch(
        seats=[chosen[f"seat_{seat}"].strip() for seat in range(people)],
        date=date,
        venue=chosen["venue"].strip(),
        dealer=int(chosen["dealer"]),
        base=base,
        suffix=suffix,
        target=target,
        variant=variant,
    )


def _variant_field(variant: str) -> native_inputs.Field:
    """The game played: the main game or another player count (the seats below follow it)."""
    help_text = t("record.variant_help") + (" " + t("record.dummy_note") if variant == "three_dummy" else "")
    return native_inputs.Field(
        "variant",
        t("record.variant"),
        "select",
        value="four",
        options=[(name, t(f"record.variant_{name}")) for name in VARIANTS],
        help=help_text,
    )


def _seat_label(variant: str, seat: int) -> str:
    """A seat's label: with its team in the games of two teams (seat mod 2)."""
    if VARIANTS[variant].sides == "teams":
        return t("record.seat", seat=seat + 1, team="A" if seat % 2 == 0 else "B")
    return t("record.seat_alone", seat=seat + 1)


def _club_rule_sets(variant: str) -> list[ClubRules]:
    """The club rules saved in the archive for the game chosen above, by name; none when they
    cannot be read (a warning says why)."""
    try:
        return [c for c in data.club_rule_sets() if c.rules.variant == variant]
    except ManillenError as error:  # saved by a newer program, or an archive not yet upgraded
        st.warning(t("record.club_rules_unreadable", message=ui.without_folders(str(error))))
        return []


def _club_field(clubs: list[ClubRules]) -> list[native_inputs.Field]:
    """The "Club rules" select: the standard rules, and each club's rules saved in the archive
    (``manillen rules save``, or below); none when no club saved any."""
    if not clubs:
        return []
    return [
        native_inputs.Field(
            "club",
            t("record.club_rules"),
            "select",
            value="",
            options=[("", t("record.rules_default")), *((c.name, c.name) for c in clubs)],
            help=t("record.club_rules_help"),
        )
    ]


def _save_club_rules(options: dict[str, Any]) -> None:
    """The organiser keeps the house rules chosen above under a name, for the next match: a box
    drawn only once opened, as the house rules' own."""
    if not visitor.is_organiser:
        return
    box = st.expander(t("record.save_club_rules"), key=CLUB_SAVE_OPEN, on_change="rerun")
    if not box.open:
        return
    with box:
        club_rules_box.said_saved("record")
        chosen = club_rules_box.fields("record")
        if chosen.pressed:
            club_rules_box.save("record", chosen, options)


def _cafe_rules_of(variant: str) -> tuple[str, ...]:
    """The café rules that apply in ``variant`` (docs/rules.md, House rules in the variants):
    en face needs a partner to pass the choice to (``six_short`` has its own passing), the
    small-cards redeal an eight-card hand (``four``: all four; ``three_dummy``: no en face;
    ``six``: no redeal).
    """
    shape = VARIANTS[variant]
    applies = {"en_face": shape.has_en_face, "redeal_small": shape.has_redeal}
    return tuple(name for name in CAFE_OPTIONS if applies.get(name, True))


def _rule_widgets(base: Rules, suffix: str, target: int, variant: str) -> dict[str, Any]:
    """The house-rule widgets, filled from ``base``; the options (with ``target``, the score
    played to) that differ from the defaults. A café rule that does not apply in ``variant`` is
    not offered, and off.

    The house rules are drawn only once their box is opened (its toggles and selectors are the
    heaviest scripts a new tab of this page would load; most matches keep the defaults). What was
    chosen in the box is kept for the session and stays in force while the box is closed.
    """
    toggles = {
        "partner_exempt": base.partner_exempt,
        "overtake_plain_suit": base.overtake_plain_suit,
        "klop_on_muil": base.klop_on_muil,
        "muil_double": base.muil_double,
        "thirty_carry": base.thirty_carry,
    } | {name: bool(getattr(base, name)) for name in _cafe_rules_of(variant)}
    # 0 stands for "no cap": a selectbox shows an option None as nothing chosen once it reruns
    caps = [2, 4, 8, 16, 0]
    cap = base.max_multiplier or 0
    cap = cap if cap in caps else caps[1]
    cap_key = f"record_cap_{suffix}"
    box = st.expander(t("record.house_rules"), key=HOUSE_RULES_OPEN, on_change="rerun")
    if box.open:
        with box:
            for name, on in toggles.items():
                label = t(f"record.cafe_{name}") if name in CAFE_OPTIONS else t(f"record.{name}")
                st.toggle(label, value=on, key=f"record_{name}_{suffix}", persist_state="session")
                if name == "thirty_carry":  # the cap and the choices come after the game's own rules
                    ui.picker(
                        t("record.max_multiplier"),
                        caps,
                        index=caps.index(cap),
                        format_func=lambda c: t("record.no_cap") if c == 0 else f"×{c}",
                        key=cap_key,
                        persist_state="session",
                    )
                    _rule_choice_widgets(base, suffix)
    chosen = {name: bool(st.session_state.get(f"record_{name}_{suffix}", on)) for name, on in toggles.items()}
    values: dict[str, Any] = {
        **base.to_options(),
        "target": int(target),
        **{name: False for name in CAFE_OPTIONS},
        **chosen,
        **_rule_choices(base, suffix),
    }
    values["max_multiplier"] = st.session_state.get(cap_key, cap) or None
    try:
        return Rules.from_options(values).to_options()
    except ManillenError as conflict:  # a cafe rule switched on that the chosen options exclude
        st.error(str(conflict))
        return base.to_options() | {"target": int(target)}


# the house rules with more than two ways, each a selector in the house-rules box
RULE_CHOICES = ("underbuy", "capot", "multipliers", "trump_choice", "klop_by", "penalty_to", "format")
# the house rules that are numbers, with the step of their input
RULE_NUMBERS = {"penalty_points": 5, "deals": 1}


def _rule_choice_widgets(base: Rules, suffix: str) -> None:
    """The selectors and number inputs of the house rules beyond the toggles (a club's choices)."""
    for name in RULE_CHOICES:
        values = _RULE_VALUES[name]
        ui.picker(
            t(f"record.{'underbuy_choice' if name == 'underbuy' else name}"),
            values,
            index=values.index(getattr(base, name)),
            format_func=lambda value, name=name: t(f"rule.{name}.{value}"),
            key=f"record_{name}_{suffix}",
            persist_state="session",
        )
    for name, step in RULE_NUMBERS.items():
        label = t("record.deals_count") if name == "deals" else t(f"record.{name}")
        st.number_input(
            label,
            min_value=1,
            value=int(getattr(base, name)),
            step=step,
            key=f"record_{name}_{suffix}",
            persist_state="session",
        )


def _rule_choices(base: Rules, suffix: str) -> dict[str, Any]:
    """What the selectors and number inputs hold (``base``'s values while never opened)."""
    chosen: dict[str, Any] = {
        name: st.session_state.get(f"record_{name}_{suffix}", getattr(base, name)) for name in RULE_CHOICES
    }
    for name in RULE_NUMBERS:
        chosen[name] = int(st.session_state.get(f"record_{name}_{suffix}", getattr(base, name)))
    return chosen


# each selector's values, as the rules declare them
def rules_in_words(options: dict[str, Any]) -> str:
    """A match's house rules as the house-rules box names them, in the page's language: the line
    under the title wrote the notation ("Huisregels: underbuy=allowed capot=double deals=2
    format=fixed") on a Dutch page. An option the box does not name keeps the notation's words."""
    said: list[str] = []
    for name, value in options.items():
        if name == "cafe" and isinstance(value, dict):
            said.extend(t(f"record.cafe_{rule}") for rule, on in value.items() if on and rule in CAFE_OPTIONS)
        elif name in RULE_CHOICES and str(value) in _RULE_VALUES[name]:
            label = t(f"record.{'underbuy_choice' if name == 'underbuy' else name}")
            said.append(f"{label}: {t(f'rule.{name}.{value}')}")
        elif name == "deals":
            said.append(f"{t('record.deals_count')}: {value}")
        elif name in ("target", "penalty_points"):
            said.append(f"{t(f'record.{name}')}: {value}")
        elif name == "max_multiplier":
            cap = t("record.no_cap") if value is None else f"×{value}"
            said.append(f"{t('record.max_multiplier')}: {cap}")
        elif isinstance(value, bool) and f"record.{name}" in i18n.LABELS:
            said.append(f"{t(f'record.{name}')}: {t('record.yes' if value else 'record.no')}")
        else:
            said.append(rule_options_text({name: value}))
    return " · ".join(said)


_RULE_VALUES: dict[str, list[str]] = {
    name: list(get_args(kind))
    for name, kind in {
        "underbuy": Underbuy,
        "capot": Capot,
        "multipliers": Multipliers,
        "trump_choice": TrumpChoice,
        "klop_by": KlopBy,
        "penalty_to": PenaltyTo,
        "format": MatchFormat,
    }.items()
}


# --------------------------------------------------------------------------- one deal


def _names(draft: rec.Draft) -> list[str]:
    """The names by seat; the dummy of ``three_dummy`` (seat 3) by whose it is, the dealer's, as
    the Deal replay names it ("Anna's dummy", "blinde van Anna"): "blinde is aan de beurt" read
    as broken Dutch and did not say who plays it."""
    # as typed, wherever the page writes them (markdown): a name ![b](http://...) fetched that
    # address on every phone, and [text](address) was a live link
    names = [ui.name_text(name) for name in rec.seating(draft)]
    missing = draft.setup.rules_value().shape.players - len(names)
    if not missing:
        return names
    dealer = draft.current.dealer if draft.current is not None else draft.setup.first_dealer
    whose = names[dealer] if 0 <= dealer < len(names) else None
    return names + [t("replay.dummy_of", name=whose) if whose else t("record.dummy")] * missing


def _variant(draft: rec.Draft) -> bool:
    """Whether the match is another game than the main one (four players in two teams)."""
    return draft.setup.variant != "four"


def _team(draft: rec.Draft, team: int, dealer: int | None = None) -> str:
    """Who plays for side ``team`` (0 or 1) in the deal dealt by ``dealer`` (the deal being
    entered when not given): a team, or a player alone (the dealer of ``three_dummy`` plays the
    dummy, so that side is the dealer, as the replay and the findings name it)."""
    rules = draft.setup.rules_value()
    if dealer is None:
        dealer = draft.current.dealer if draft.current is not None else draft.setup.first_dealer
    return " & ".join(rec.side_names(_names(draft), team, dealer, rules))


def _scoresheet(draft: rec.Draft) -> None:
    """The match so far, written as on a scoresheet: each deal's points and the running total."""
    result = rec.match_score(draft)
    if result is None:
        return
    if draft.setup.blocks:
        _club_scoresheet(draft, result)
        if draft.reopened is None:
            _reopen_control(draft)
        return
    rules = draft.setup.rules_value()
    columns = rec.scorer_names(_names(draft), rules)
    # first names on the sheet (full ones where two would share one): a long name took a phone's
    # width and broke "Bert" and "Total" mid-word in the columns beside it
    short = rec.short_names(_names(draft)[: rules.shape.people])  # the people: no dummy
    heads = [" & ".join(short.get(n, n) for n in column.split(" & ")) for column in columns]
    head = f"| # | {t('col.dealer')} | | " + " | ".join(heads) + " |"
    rows = [head, "|---|---|---|" + "---:|" * len(columns)]
    for deal in result.deals:
        call = _call_summary(draft, deal.number - 1)
        cells = [str(total) for total in deal.match_score]
        if deal.score is not None:
            for scorer in rules.shape.side_scorers(deal.score.team, deal.dealer):
                cells[scorer] += f" (+{deal.score.points})"
        elif deal.tie:
            cells = [f"{c} (30-30)" for c in cells]
        dealer = _names(draft)[deal.dealer]
        rows.append(f"| {deal.number} | {short.get(dealer, dealer)} | {call} | " + " | ".join(cells) + " |")
    score = result.deals[-1].match_score if result.deals else (0,) * len(columns)
    # the total's word under the dealers' names, the sheet's widest column but the scores
    rows.append(f"| | **{t('record.total')}** | | " + " | ".join(f"**{s}**" for s in score) + " |")
    st.container(key="record_scoresheet").markdown("\n".join(rows))
    if result.finished:
        winner = result.winner
        st.success(t("record.decided", team=columns[winner]) if winner is not None else t("record.draw"))
    if draft.reopened is None:
        _reopen_control(draft)


def _club_scoresheet(draft: rec.Draft, result: MatchResult) -> None:
    """A club table's scoresheet: one sheet per block, the partners of that block at its head,
    and who won each block played out."""
    groups: list[tuple[list[str], list[DealResult]]] = []
    for deal in result.deals:
        seating = [ui.name_text(name) for name in deal.names[: rec.PLAYERS]]
        if not groups or groups[-1][0] != seating:
            groups.append((seating, []))
        groups[-1][1].append(deal)
    for number, (seating, deals) in enumerate(groups, start=1):
        sides = [f"{seating[0]} & {seating[2]}", f"{seating[1]} & {seating[3]}"]
        # the block named above its sheet: "1." as the deal column's heading read as a row
        st.markdown(f"**{t('record.block_short', block=number)}**")
        rows = [f"| # | {t('col.dealer')} | | {sides[0]} | {sides[1]} |", "|---|---|---|---:|---:|"]
        for deal in deals:
            cells = [str(total) for total in deal.match_score]
            if deal.score is not None:
                cells[deal.score.team] += f" (+{deal.score.points})"
            elif deal.tie:
                cells = [f"{c} (30-30)" for c in cells]
            call = _call_summary(draft, deal.number - 1)
            rows.append(f"| {deal.number} | {seating[deal.dealer]} | {call} | {cells[0]} | {cells[1]} |")
        st.markdown("\n".join(rows))
        if number <= len(result.blocks):
            block = result.blocks[number - 1]
            won = (
                t("record.block_tie")
                if block.winner is None
                else t("record.block_won", team=sides[block.winner])
            )
            st.caption(f"{t('record.block_short', block=number)}: {won} ({block.score[0]}–{block.score[1]})")
    if result.finished:
        st.success(t("record.club_done", blocks=len(result.blocks)))


def _reopen_control(draft: rec.Draft) -> None:
    """A saved deal chosen to be opened again for a correction."""
    # drawn only once opened: a correction is rare, and its selector costs every new tab
    box = st.expander(t("record.reopen"), key=REOPEN_OPEN, on_change="rerun")
    if not box.open:
        return
    with box:
        st.caption(t("record.reopen_help"))
        row = st.container(horizontal=True, vertical_alignment="bottom")
        with row:
            ui.picker(
                t("record.reopen_number"),
                range(1, len(draft.deals) + 1),
                index=len(draft.deals) - 1,
                key="record_reopen_number",
            )
        row.button(t("record.reopen_button"), key="record_reopen", on_click=_reopen, icon=":material/edit:")


def _reopen() -> None:
    number = int(st.session_state.get("record_reopen_number") or 1)
    _change(rec.reopen, number)
    draft: rec.Draft | None = st.session_state.get(DRAFT)
    if draft is not None and draft.reopened is not None and draft.current is not None:
        st.session_state["record_mode"] = "sheet" if draft.current.score is not None else "cards"
        st.session_state.pop(SAVED, None)


def _call_summary(draft: rec.Draft, index: int) -> str:
    deal = draft.deals[index]
    if "recorded_score" in deal and "tricks" not in deal:
        return t("record.sheet_line")
    return _calls_text(draft, deal.get("declarations", []), short=True)


def _calls_text(draft: rec.Draft, calls: list[dict[str, Any]], *, short: bool = False) -> str:
    words = []
    passed = any(call["call"] in ("pass", "en_face") for call in calls)
    for call in calls:
        who = _names(draft)[call["seat"]]
        if call["call"] == "trump":
            suit = Suit[call["suit"]]
            symbol = f":red[{suit.symbol}]" if suit.is_red else suit.symbol
            # after a pass (or en face) another than the dealer made it: named, as the passes are
            maker = f" {who}" if passed else ""
            said = f"{symbol}{maker}" if short else f"{t('record.call_trump')} {symbol} {suit.dutch}{maker}"
            words.append(said)
        elif call["call"] in ("klop", "tegenklop", "en_face", "pass"):
            words.append(f"{t('record.call_' + call['call'])} {who}")
        else:
            words.append(t("record.call_" + call["call"]))
    return " · ".join(words)


def _deal(draft: rec.Draft) -> None:
    assert draft.current is not None
    deal = draft.current
    rules = draft.setup.rules_value()
    number = draft.number
    names = _names(draft)
    st.subheader(t("record.deal", number=number, dealer=names[deal.dealer]))
    with st.container():
        if draft.reopened is not None:
            st.info(t("record.reopened", number=number))
            if st.button(t("record.drop_reopened"), key="record_drop_reopened", icon=":material/undo:"):
                _keep(rec.drop_reopened(draft))
                st.rerun()  # the whole page: the scoresheet offers reopening again
    # Every part sits in a container of its own, so the parts that come and go (a message, the
    # calls once made) never shift the grid's buttons to other places on the page between runs.
    with st.container():
        if not deal.calls and not deal.plays:
            ui.picker(
                t("record.dealer"),
                range(rules.shape.people),
                index=deal.dealer,
                format_func=names.__getitem__,
                key=f"record_dealer_{draft.draft_id}_{number}",
                on_change=_set_dealer,
                args=(f"record_dealer_{draft.draft_id}_{number}", number),
                help=t("record.dealer_help"),
            )
    st.session_state.setdefault(
        "record_mode", "sheet" if draft.setup.scoresheet_only else "cards"
    )  # set by a reopened scoresheet line too
    mode = st.segmented_control(
        t("record.mode"),
        ["cards", "sheet"],
        format_func=lambda m: t(f"record.mode_{m}"),
        required=True,
        key="record_mode",
        label_visibility="collapsed",
    )
    if mode == "sheet":
        _show_notices()  # a save another phone made, a renamed match: said here as well
        _sheet_line(draft)
        return
    table = rec.table_of(deal, rules)
    with st.container():
        _calls(draft, table, rules)
    with st.container():
        _show_notices()
    if table.redeal:
        st.info(t("record.redeal_note"))
        _save_button(draft, table)
        return
    if table.contract is None:
        return
    tapping_hands = False
    with st.container():
        if not deal.plays:
            tapping_hands = (
                st.segmented_control(
                    t("record.tap_mode"),
                    ["plays", "hands"],
                    format_func=lambda m: (
                        t("record.tap_dealt") if m == "hands" and _variant(draft) else t(f"record.tap_{m}")
                    ),
                    default="hands" if rec.dealing_under_way(deal, rules) else "plays",
                    required=True,
                    key=f"record_tap_mode_{draft.draft_id}_{number}",
                    label_visibility="collapsed",
                )
                == "hands"
            )
    with st.container():
        if tapping_hands:
            _hand_status(draft)
        else:
            # said from the start: a recorder who taps the whole deal without them learnt it at
            # the end, where Save is refused
            if not table.complete and "table" in rec.missing_dealt(deal, rules):
                st.caption(t("record.piles_first"))
            _status(draft, table)
            _illegal_warnings(draft, table)
            _part_dealt_warning(draft)
    if tapping_hands:
        _hand_grid(deal, rules)
    else:
        _grid(table, rules)
    if not tapping_hands:  # the cards dealt have their own undo: this one would take back the call
        _play_undo(draft, table)
    with st.container():
        _save_button(draft, table)
    _hands(draft)
    with st.container():
        _tricks(draft, table)


def _play_undo(draft: rec.Draft, table: rec.Table) -> None:
    """The buttons that take back what was played: the last card (or move, or call), the trick."""
    deal = draft.current
    assert deal is not None
    undo = st.container(horizontal=True)
    if table.can_move and table.to_play is not None:
        undo.button(
            t("record.move", name=_names(draft)[table.to_play]),
            key="record_move",
            on_click=_change,
            args=(rec.move_to_empty_place,),
            icon=":material/move_down:",
        )
    undo.button(
        t("record.undo_card"),
        key="record_undo_card",
        on_click=_change,
        args=(rec.undo_card,),
        icon=":material/undo:",
    )
    undo.button(
        t("record.undo_trick"),
        key="record_undo_trick",
        on_click=_change,
        args=(rec.undo_trick,),
        disabled=not deal.plays,
        icon=":material/delete_sweep:",
    )


def _set_dealer(key: str, number: int) -> None:
    """The dealer chosen for deal ``number``, when that deal is still the one being recorded: a
    tap on the next deal's first button before the page had replaced the saved deal's sent the
    old picker again, and its dealer (the deal before's) went to the new deal."""
    draft: rec.Draft | None = st.session_state.get(DRAFT)
    if draft is not None and rec.set_dealer(draft, number, int(st.session_state[key])):
        _keep(draft)


def _calls(draft: rec.Draft, table: rec.Table, rules: Rules) -> None:
    deal = draft.current
    assert deal is not None
    names = _names(draft)
    if deal.calls:
        st.markdown(f"**{t('record.calls')}:** {_calls_text(draft, deal.calls)}")
    if deal.plays or table.redeal:
        return
    if table.contract is None:
        maker = rec.chooser(deal, rules)
        turned = _turned_card(draft, rules)
        st.caption(t("record.who_calls", name=names[maker]))
        row = st.container(horizontal=True, key="record_calls", width=GRID_WIDTH)
        for suit in Suit:
            label = f":red[{suit.symbol}]" if suit.is_red else suit.symbol
            row.button(
                label,
                key=f"record_trump_{suit.name}",
                on_click=_change,
                args=(rec.add_call, maker, "trump", suit.name),
                width="stretch",
                disabled=turned is not None and turned.suit is not suit,
            )
        more = st.container(horizontal=True, key="record_knocks", width=GRID_WIDTH)
        dealer_chooses = maker == deal.dealer
        shape = rules.shape
        passes = sum(c["call"] == "pass" for c in deal.calls)
        offered = [
            ("muil", maker, rules.trump_choice != "turned_card"),
            ("pass", maker, rules.variant == "six_short" and passes < 2),
            ("blind_muil", maker, rules.blind_muil and dealer_chooses and not passes),
            ("en_face", deal.dealer, rules.en_face and dealer_chooses and shape.has_en_face),
            ("redeal", deal.dealer, rules.redeal_small and shape.has_redeal),
        ]
        for call, seat, shown in offered:
            if shown:
                more.button(
                    t(f"record.call_{call}"),
                    key=f"record_{call}",
                    width="stretch",
                    on_click=_change,
                    args=(rec.add_call, seat, call),
                )
        if deal.calls:  # a pass or en face tapped by mistake: before trump no other undo is shown
            st.button(
                t("record.undo_call"),
                key="record_undo_call",
                on_click=_change,
                args=(rec.undo_card,),
                icon=":material/undo:",
            )
        return
    word, seats = rec.knockers(deal, rules)
    if not seats:
        return
    row = st.container(horizontal=True, key="record_knocks", width=GRID_WIDTH)
    for seat in seats:
        row.button(
            f"{t('record.call_' + word)} {names[seat]}",
            key=f"record_{word}_{seat}",
            width="stretch",
            on_click=_change,
            args=(rec.add_call, seat, word),
        )


def _turned_card(draft: rec.Draft, rules: Rules) -> Card | None:
    """Under the house rule "the turned last card makes trump": the card turned, typed (optional:
    the record keeps it, and only its suit can then be called). ``None`` when not given."""
    deal = draft.current
    if rules.trump_choice != "turned_card" or deal is None:
        return None
    key = f"record_turned_{draft.draft_id}_{draft.number}"
    st.text_input(
        t("record.turned"),
        value=deal.turned or "",
        key=key,
        placeholder=t("record.turned_placeholder"),
        on_change=lambda: _change(rec.set_turned, str(st.session_state.get(key) or "")),
    )
    return CARD_BY_TEXT[deal.turned] if deal.turned else None


def _part_dealt_warning(draft: rec.Draft) -> None:
    """Cards dealt begun and left for the cards played: said, where the tapper's switch had left
    a hand of 3 cards in silence."""
    assert draft.current is not None
    slot = rec.part_dealt(draft.current, draft.setup.rules_value())
    if slot is None:
        return
    count = len(rec.slot_cards(draft.current, slot))
    where = t("record.discards_short") if slot.seat is None else _names(draft)[slot.seat]
    st.warning(t("record.part_dealt", where=where, count=count, size=slot.size))


def _hands(draft: rec.Draft) -> None:
    """The cards dealt, typed: the hands (and the table piles and the cards laid aside of the
    games that have them)."""
    deal = draft.current
    assert deal is not None
    rules = draft.setup.rules_value()
    number = draft.number
    known = rec.dealt_of(deal, rules) is not None
    # what a deal played out still needs: the piles until they are in (the cards laid aside are
    # the two nobody played); it said "needed: the table piles" with the piles tapped and in use
    needed = [t("record.needed_table")] if "table" in rec.missing_dealt(deal, rules) else []
    if not _variant(draft):
        title = t("record.hands_known") if known else t("record.hands")
    else:
        title = (
            t("record.dealt_known")
            if known
            else t("record.dealt_needed", what=", ".join(needed))
            if needed
            else t("record.dealt")
        )
    names = _names(draft)
    with st.expander(title):
        # the piles' help for the games that have them only (the six-player game was told of piles)
        piles = rules.shape.table_seats != "none"
        # the cards laid aside only for the games that lay some aside (three, six_short): no game
        # has both table piles and cards laid aside
        help_key = (
            "record.dealt_help"
            if piles
            else "record.dealt_help_hands"
            if rules.shape.discards
            else "record.dealt_help_hands_only"
        )
        st.caption(t(help_key) if _variant(draft) else t("record.hands_help"))
        every = rec.slots(rules)
        typed: list[tuple[rec.Slot, str]] = []
        for index, slot in enumerate(every):
            start = " ".join(rec.slot_cards(deal, slot))
            # a box keeps what it showed under its key: the cards tapped since come in under a new one
            tapped = len(rec.slot_cards(deal, slot))
            last = index == len(every) - 1
            if slot.kind == "hand":
                assert slot.seat is not None
                label, key = names[slot.seat], f"record_hand_{draft.draft_id}_{number}_{slot.seat}_{tapped}"
            elif slot.kind == "table":
                assert slot.seat is not None
                label = t("record.typed_table", name=names[slot.seat])
                key = f"record_table_{draft.draft_id}_{number}_{slot.seat}_{tapped}"
            else:
                label, key = t("record.typed_discards"), f"record_discards_{draft.draft_id}_{number}_{tapped}"
            # each place its own count ("five cards", "two cards"): every place said "eight cards"
            example = " ".join(PLACEHOLDER_CARDS[: slot.size])
            hint = (
                t("record.hand_last")
                if last and not _variant(draft)
                else t("record.slot_placeholder", count=slot.size, example=example)
            )
            typed.append((slot, st.text_input(label, value=start, key=key, placeholder=hint)))
        row = st.container(horizontal=True)
        if row.button(
            t("record.use_dealt") if _variant(draft) else t("record.use_hands"), key="record_use_hands"
        ):
            try:
                _keep(_typed_dealt(draft, typed, rules))
                st.rerun()
            except ManillenError as error:
                st.error(
                    ui.markdown_text(ui.without_folders(_said(error)))
                )  # what was typed: text, not markdown
        if (deal.hands or deal.table or deal.discards) and row.button(
            t("record.forget_dealt") if _variant(draft) else t("record.forget_hands"),
            key="record_forget_hands",
        ):
            _keep(rec.set_hands(draft, None))
            st.rerun()


def _typed_dealt(draft: rec.Draft, typed: list[tuple[rec.Slot, str]], rules: Rules) -> rec.Draft:
    """The draft with the cards dealt as typed: a slot left empty is left out, except the last,
    which is the cards left once every other slot is full."""
    players = rules.shape.players
    cards = [(slot, rec.parse_hand(text)) for slot, text in typed]
    last_slot, last_cards = cards[-1]
    if not last_cards and all(len(c) == slot.size for slot, c in cards[:-1]):
        placed = {c for _, hand in cards[:-1] for c in hand}
        rest = [c for row in rec.grid_of(rules) for c in map(CARD_TEXT.__getitem__, row) if c not in placed]
        cards[-1] = (last_slot, rest)
    hands: list[list[str]] = [[] for _ in range(players)]
    table: list[list[str]] = [[] for _ in range(players)]
    discards: list[str] = []
    given = {"hand": False, "table": False, "discards": False}
    for slot, found in cards:
        if not found:
            continue
        given[slot.kind] = True
        if slot.kind == "discards":
            discards = found
        elif slot.kind == "table":
            assert slot.seat is not None
            table[slot.seat] = found
        else:
            assert slot.seat is not None
            hands[slot.seat] = found
    people = rules.shape.people
    empty = [s for s in range(people) if not hands[s]]
    if given["hand"] and empty:
        # hands are all given or none (a table variant's follow from the plays): some typed and
        # one left empty was dropped without a word, which looked like a button doing nothing
        last = rec.Words("record.hand_last_fills", {"size": cards[0][0].size}) if not _variant(draft) else ""
        raise rec.RecordingError("hand_missing", name=_names(draft)[empty[0]], last=last)
    return rec.set_hands(
        draft,
        hands if given["hand"] else None,
        table if given["table"] else None,
        discards if given["discards"] else None,
    )


def _show_notices() -> None:
    """What the last tap said (an illegal card, a call refused), where the person is looking: a
    refusal in a toast too, which a phone shows whatever part of the page is in view (an
    organiser's sweep tapped a card with a revoked link, and the refusal above the grid was off
    the screen, so the tap seemed to do nothing)."""
    for kind, message in st.session_state.pop(NOTICE, []):
        getattr(st, kind)(message)
        if kind == "error":
            st.toast(message, icon=":material/block:")


def _status(draft: rec.Draft, table: rec.Table) -> None:
    names = _names(draft)
    finished = [trick for trick in table.tricks if trick.winner is not None]
    # Placeholders hold the places of the lines that come and go, so the lines below keep their
    # places between taps and Streamlit never shows the old count beside the new one mid-run.
    took, heading, clause = st.empty(), st.empty(), st.empty()
    if finished and (table.tricks[-1].winner is not None):
        last = finished[-1]
        assert last.winner is not None
        took.success(t("record.took", number=last.number, name=names[last.winner], points=last.points))
    if table.to_play is not None:
        on_table = table.tricks[-1].plays if table.tricks and table.tricks[-1].winner is None else ()
        trick = " ".join(_card_text(p.card) + ("⚠" if p.violation is not None else "") for p in on_table)
        heading.markdown(
            f"### {t('record.to_play', name=names[table.to_play], trick=len(finished) + 1)}"
            + (f"  \n{t('record.on_table')}: {trick}" if trick else "")
        )
        if table.legal is not None:
            clause.caption(i18n.explain_clause(table.legal, language))
    if any(table.open_cards):
        st.caption(
            f"{t('record.open_on_table')}: "
            + " · ".join(
                f"{names[seat]} " + " ".join(_card_text(c) for c in sorted(cards))
                for seat, cards in enumerate(table.open_cards)
                if cards
            )
        )
    st.caption(
        t(
            "record.taken",
            team0=_team(draft, 0),
            points0=table.taken[0],
            team1=_team(draft, 1),
            points1=table.taken[1],
            cards=table.cards_played,
            total=table.deal_cards,
        )
    )


def _card_text(card: Card) -> str:
    text = f"{card.rank.text}{card.suit.symbol}"
    return f":red[{text}]" if card.suit.is_red else text


def _grid(table: rec.Table, rules: Rules) -> None:
    """The deck, a row per suit; played cards greyed out, legal ones outlined. With the table
    piles in, the cards lying face down and the cards open on another seat's table are greyed
    out too, but for a 3rd pile's hidden card that the move turns up: tapped, it is played with
    the move (as the move button and then the card)."""
    legal = table.legal.cards if table.legal is not None else ()
    over = table.to_play is None
    hidden: set[Card] = set()
    only: set[Card] | None = None
    if table.open_cards and table.to_play is not None:
        hidden = set(table.dealt_on_table - table.played - table.open_cards[table.to_play])
        hidden.discard(table.under_move)
        if table.to_play >= rules.shape.people:
            # the dummy holds no hand: its open cards (and the card a move turns up) are all it
            # may play; the others' cards stayed tappable, to be refused only after the tap
            only = set(table.open_cards[table.to_play])
            if table.under_move is not None:
                only.add(table.under_move)

    def greyed(card: Card) -> bool:
        return card in table.played or over or card in hidden or (only is not None and card not in only)

    _card_buttons(greyed, _tap, rules, outlined=legal)


def _hand_grid(deal: rec.DealDraft, rules: Rules) -> None:
    """The grid while the cards dealt are tapped in: each tap goes to the place being filled."""
    held = {CARD_BY_TEXT[c] for slot in rec.slots(rules) for c in rec.slot_cards(deal, slot)}
    full = rec.slot_being_tapped(deal, rules) is None
    _card_buttons(lambda card: card in held or full, _tap_hand, rules)


def _card_buttons(
    disabled: Callable[[Card], bool],
    on_tap: Callable[[str], None],
    rules: Rules,
    outlined: Iterable[Card] = (),
) -> None:
    grid = st.container(key="record_grid", gap="small", width=GRID_WIDTH)
    marked = ", ".join(f".st-key-record_card_{CARD_TEXT[c]} button" for c in outlined)
    rule = f"{marked} {{ outline: 3px solid #1a7f37; outline-offset: -3px; }}" if marked else ""
    with grid:
        st.html(f"<style>{rule}</style>")
    for row in rec.grid_of(rules):
        line = grid.container(horizontal=True, gap="small", wrap=False)
        for card in row:
            line.button(
                _card_text(card),
                key=f"record_card_{CARD_TEXT[card]}",
                on_click=on_tap,
                args=(CARD_TEXT[card],),
                disabled=disabled(card),
                width="stretch",
            )


def _tap_hand(card: str) -> None:
    _change(rec.tap_hand_card, card)


def _hand_status(draft: rec.Draft) -> None:
    deal = draft.current
    assert deal is not None
    rules = draft.setup.rules_value()
    slot = rec.slot_being_tapped(deal, rules)
    names = _names(draft)
    if slot is None:
        st.success(t("record.dealt_tapped") if _variant(draft) else t("record.hands_tapped"))
    else:
        count = len(rec.slot_cards(deal, slot))
        if slot.kind == "hand":
            assert slot.seat is not None
            line = t("record.tap_slot_hand", name=names[slot.seat], count=count, size=slot.size)
        elif slot.kind == "table":
            assert slot.seat is not None
            side = t("record.face_down") if count % 2 == 0 else t("record.face_up")
            line = t(
                "record.tap_slot_table",
                name=names[slot.seat],
                pile=count // 2 + 1,
                side=side,
                count=count,
                size=slot.size,
            )
        else:
            line = t("record.tap_slot_discards", count=count, size=slot.size)
        st.markdown(f"### {line}")
    st.button(
        t("record.untap_dealt") if _variant(draft) else t("record.untap"),
        key="record_untap",
        on_click=_change,
        args=(rec.untap_hand_card,),
        disabled=not (deal.hands or deal.table or deal.discards),
        icon=":material/undo:",
    )


def _tricks(draft: rec.Draft, table: rec.Table) -> None:
    names = _names(draft)
    done = [trick for trick in table.tricks if trick.winner is not None]
    if not done:
        return
    short = rec.short_names(names)
    with st.expander(t("record.tricks", count=len(done))):
        lines = []
        for trick in done:
            assert trick.winner is not None
            # each card with who played it: a trick tapped in the wrong order shows at a glance
            cards = ", ".join(
                f"{short[names[p.seat]]} {_card_text(p.card)}" + ("⚠" if p.violation is not None else "")
                for p in trick.plays
            )
            lines.append(
                t("record.trick_line", number=trick.number, leader=names[trick.leader], cards=cards,
                  winner=names[trick.winner], points=trick.points)
            )  # fmt: skip
        st.markdown("  \n".join(lines))
        number = ui.picker(
            t("record.edit_trick"),
            [trick.number for trick in done],
            # the latest, again after each trick: a trick tapped wrong is mostly the one just finished
            index=len(done) - 1,
            key=f"record_edit_number_{len(done)}",
        )
        chosen = done[int(number) - 1]
        typed = st.text_input(
            t("record.edit_cards"),
            value=" ".join(CARD_TEXT[p.card] for p in chosen.plays),
            key=f"record_edit_cards_{number}_{len(draft.current.plays) if draft.current else 0}",
        )
        if st.button(t("record.edit_apply"), key="record_edit_apply"):
            try:
                _keep(rec.edit_trick(draft, int(number), rec.parse_hand(typed)))
                st.rerun()
            except ManillenError as error:
                st.error(
                    ui.markdown_text(ui.without_folders(_said(error)))
                )  # what was typed: text, not markdown


def _sheet_line(draft: rec.Draft) -> None:
    st.caption(t("record.sheet_help"))
    # a form of its own for each deal, empty: the last deal's choice, kept by its place, named a
    # team of the new block's seating that nobody chose (one tap on Save would have recorded it)
    deal = f"{draft.draft_id}_{draft.index + 1}"
    team = st.radio(
        t("record.sheet_team"),
        [0, 1],
        format_func=lambda x: _team(draft, x),
        horizontal=True,
        index=None,
        key=f"record_sheet_team_{deal}",
    )
    points = st.number_input(
        t("record.sheet_points"), min_value=0, value=None, step=1, key=f"record_sheet_points_{deal}"
    )
    row = st.container(horizontal=True)
    if row.button(t("record.sheet_save"), type="primary", key="record_sheet_save"):
        if team is None or points is None:
            st.error(t("record.sheet_choose"))
            return
        _finish(rec.scoresheet_line(draft, int(team), int(points)))
    if row.button("30-30", key="record_sheet_tie"):
        _finish(rec.scoresheet_line(draft, None))


def _save_button(draft: rec.Draft, table: rec.Table) -> None:
    ready = table.complete or table.redeal
    if table.complete:
        st.success(
            t("record.deal_done", tricks=table.deal_tricks, team0=_team(draft, 0), points0=table.taken[0],
              team1=_team(draft, 1), points1=table.taken[1])
        )  # fmt: skip
        illegal = table.illegal()
        if illegal:
            st.warning(
                t("record.illegal_count_one")
                if len(illegal) == 1
                else t("record.illegal_count", count=len(illegal))
            )
        missing = rec.missing_dealt(draft.current, draft.setup.rules_value()) if draft.current else []
        if missing:
            st.warning(t("record.dealt_missing", what=", ".join(t(f"record.needed_{m}") for m in missing)))
        _written(draft)
    if st.button(
        t("record.save"),
        type="primary",
        width="stretch",
        key="record_save",
        disabled=not ready,
        icon=":material/save:",
    ):
        _finish(draft)


def _written(draft: rec.Draft) -> None:
    """What the scoresheet says beside the cards (optional): kept in the draft as it is chosen."""
    deal = draft.current
    assert deal is not None
    choice_key = f"record_written_{draft.draft_id}_{draft.number}"
    points_key = f"record_written_points_{draft.draft_id}_{draft.number}"
    line = deal.written
    chosen = "none" if line is None else "tie" if line.get("tie") else str(line["team"])
    choice = st.segmented_control(
        t("record.written"),
        ["none", "0", "1", "tie"],
        format_func=lambda c: (
            {"none": t("record.written_none"), "tie": "30-30"}.get(c) or _team(draft, int(c))
        ),
        default=chosen,
        required=True,
        key=choice_key,
        on_change=_written_changed,
        args=(choice_key, points_key, draft.draft_id, draft.number),
        help=t("record.written_help"),
    )
    if choice in ("0", "1"):
        # empty until typed: a 0 shown here was saved as "+0" beside the cards, a mismatch
        # nobody wrote
        st.number_input(
            t("record.sheet_points"),
            min_value=0,
            value=int(line["points"]) if line and "points" in line else None,
            step=1,
            key=points_key,
            on_change=_written_changed,
            args=(choice_key, points_key, draft.draft_id, draft.number),
        )


def _written_changed(choice_key: str, points_key: str, draft_id: str, number: int) -> None:
    """The scoresheet line chosen or typed, kept in the draft: the deal's own, never the next
    (:func:`~dashboards.recording.choose_sheet_line`)."""
    points = st.session_state.get(points_key)
    _change(rec.choose_sheet_line, draft_id, number, st.session_state.get(choice_key), points)


def _finish(draft: rec.Draft) -> None:
    """Validate the deal with the engine, save the match into the archive and analyse it."""
    number = draft.number
    try:
        finished, _, result = rec.finish_deal(draft)
    except ManillenError as error:
        st.error(t("record.refused", message=ui.markdown_text(_said(error))))
        return
    try:
        with st.spinner(t("record.saving")):
            saved = drafts.save_match(draft, finished=finished)
    except drafts.DraftChangedError:
        _reload_changed(draft)
        st.rerun()
        return
    except rec.RecordingError as error:  # the archive refused the match, or too many drafts are open
        st.error(t("record.refused", message=ui.markdown_text(_said(error))))
        return
    except ManillenError as error:
        st.error(t("error.locked", message=error))
        return
    if saved.renamed_from is not None:  # another table's match had the id: this one has a new one
        _notice("warning", t("record.renamed", old=saved.renamed_from, new=saved.match_id))
    if saved.adopted:  # the organiser corrected this table's match: the deal went after the archive's
        _notice("info", t("record.adopted", number=number, match=saved.match_id))
    if saved.again and draft.reopened is not None:  # a saved deal reopened and saved as it was
        _notice("info", t("record.saved_unchanged", number=number))
    elif saved.again:  # another phone at the table (or this one, before its connection dropped)
        _notice("info", t("record.saved_already", number=number))
    finished = saved.draft or finished
    st.session_state[DRAFT] = finished
    st.query_params["draft"] = finished.draft_id
    deal = result.deals[number - 1]
    mismatch = None
    if any(i.kind is IrregularityKind.SCORE_MISMATCH for i in deal.irregularities):
        # said when shown, in the page's language then (built here, it stayed in the language of
        # the save after a switch): the scores and the dealer whose sides name the teams
        # and who sat where in that deal: after a block's last deal the draft is seated for the next
        # block, whose partners named the line ("Anna & Bert" for Anna & Carla's)
        mismatch = (deal.recorded, deal.score, deal.dealer, list(deal.names))
    # counted as the review below counts them (its ranked decisions, no notes): "1 finding" over
    # "no mistakes found" read as a contradiction
    findings = data.biggest_mistakes(finished.setup.match_id, top=MISTAKES_COUNTED).height
    st.session_state[SAVED] = (finished.setup.match_id, number, bool(deal.tricks), findings, mismatch)
    st.rerun()


def _mismatch_words(
    draft: rec.Draft, number: int, recorded: Any, score: Any, dealer: int, names: list[str] | None = None
) -> str:
    """A saved deal's scoresheet line against its cards, the teams named (the engine's message
    numbers them 0 and 1, in English) as they sat in that deal (``names``, by seat)."""
    rules = draft.setup.rules_value()
    seated = [ui.name_text(name) for name in names] if names else _names(draft)

    def said(one: Any) -> str:
        if one is None:
            return t("record.mismatch_tie")
        team = " & ".join(rec.side_names(seated, one.team, dealer, rules))
        return t("record.mismatch_side", team=team, points=one.points)

    return t("record.mismatch", number=number, written=said(recorded), cards=said(score))


def _last_saved(draft: rec.Draft) -> tuple[str, int, bool] | None:
    """The draft's last saved deal (its match, number and whether it has cards to replay), or
    ``None`` before the first save or while a saved deal is being corrected. A deal is in the
    draft's ``deals`` only once the archive has it, so this holds after a reload too."""
    if not draft.deals or draft.reopened is not None:
        return None
    return draft.setup.match_id, len(draft.deals), bool(draft.deals[-1].get("tricks"))


def _after_save(draft: rec.Draft) -> None:
    saved = st.session_state.get(SAVED)
    if saved:
        match_id, number, replayable, findings, mismatch = saved
        # the scoresheet's mistake, said below, is not one of the quick check's count: "besides"
        key = (
            "record.saved_line"  # no cards: nothing for the solver to review
            if not replayable
            else ("record.saved_none", "record.saved_one", "record.saved")[min(findings, 2)]
            if not mismatch
            else ("record.saved_sheet", "record.saved_sheet_one", "record.saved_sheet_many")[min(findings, 2)]
        )
        if replayable and review_view.status(match_id).state == "ready":
            # the page runs again once the review is in: "the solver's review follows" stayed
            # above the review it announced
            key = "record.saved_reviewed"
        st.success(t(key, number=number, findings=findings))
        if mismatch:
            st.warning(t("record.written_mismatch", message=_mismatch_words(draft, number, *mismatch)))
    else:
        # a reload (a new session) lost what the save said; the link and the review come from the draft
        last = _last_saved(draft)
        if last is None:
            return
        match_id, number, replayable = last
    if replayable:
        st.page_link(
            ui.PAGE_FILES["replay"],
            label=t("record.open_replay", number=number),
            icon=":material/playing_cards:",
            query_params={"match": match_id, "deal": number, "step": 0, **ui.language_params()},
        )
    # the review of the match so far, on this page: record the deals, see the costliest cards and why
    with st.expander(t("review.title"), expanded=False, icon=":material/school:"):
        trick_size = draft.setup.rules_value().shape.trick_size
        review_view.section(match_id, player=None, trick_size=trick_size, key="record", columns=1)


def _footer(draft: rec.Draft) -> None:
    row = st.container(horizontal=True)
    if row.button(t("record.share"), key="record_share_button", icon=":material/share:"):
        st.session_state[SHARE] = not st.session_state.get(SHARE, False)
    if row.button(t("record.close"), key="record_close", icon=":material/close:"):
        st.session_state[CLOSING] = draft.draft_id
    if st.session_state.get(CLOSING) == draft.draft_id:
        # one tap ended a club table's evening for good, and lost a deal under way: asked first
        current = draft.current
        taps = len(current.plays) + len(current.calls) if current is not None else 0
        said = [t("record.close_confirm")]
        if taps:
            said.append(t("record.close_loses", number=draft.number, count=taps))
        if draft.setup.blocks:
            said.append(t("record.close_club"))
        with st.container(border=True, key="record_close_box"):
            st.warning(" ".join(said))
            answer = st.container(horizontal=True)
            if answer.button(t("record.close_yes"), key="record_close_yes", type="primary"):
                drafts.discard(draft.draft_id)
                st.session_state[DRAFT] = None
                st.session_state.pop(SAVED, None)
                st.session_state.pop(CLOSING, None)
                st.query_params.clear()
                st.rerun()
            if answer.button(t("record.close_no"), key="record_close_no"):
                st.session_state.pop(CLOSING, None)
                st.rerun()
    if st.session_state.get(SHARE):
        current = draft.current
        under_way = draft.deals and current is not None and bool(current.calls or current.plays)
        st.caption(
            t("record.share_help")
            + (" " + t("record.share_saved_only", number=draft.number) if under_way else "")
        )
        shared = rec.share_text(draft, with_current=False) if draft.deals else rec.share_text(draft)
        # a long match's text in a box of its own height, its copy button kept in sight; a short
        # one as high as it is
        st.code(shared, language=None, height=SHARE_HEIGHT if shared.count("\n") > SHARE_LINES else "content")


draft = _draft()
if draft is None:
    st.title(t("record.title"))
    _show_notices()
    _setup()
    st.stop()
st.html(TABLE_STYLE)
# at the table the grid matters: a caption instead of a title keeps it on a phone's first screen
st.caption(t("record.match", match=draft.setup.match_id, date=draft.setup.date or "—"))
if draft.setup.rules:  # once recording, the options chosen were no longer shown anywhere
    st.caption(t("record.rules_in_force", rules=rules_in_words(draft.setup.rules)))
if draft.setup.blocks:  # a club table: who partners whom in this block
    _block, _seating = rec.block_of(draft) or 0, rec.seating(draft)
    st.caption(
        # the table's number first: a phone said it only by the "-t1" at the end of the match's id
        (t("record.table_number", table=draft.setup.table) + " · " if draft.setup.table else "")
        + t(
            "record.block",
            block=_block + 1,
            blocks=len(draft.setup.blocks),
            team0=f"{_seating[0]} & {_seating[2]}",
            team1=f"{_seating[1]} & {_seating[3]}",
        )
    )
with st.container():
    _after_save(draft)
with st.container():
    _scoresheet(draft)


# whether the box for a deal played after the match was decided is open (a comment, not a
# docstring: a bare string in a page would be written by Streamlit's magic)
AFTER_END_OPEN = "record_after_end_open"


def _match_done(draft: rec.Draft) -> bool:
    """Whether the match is decided (a club table: its blocks all played), no saved deal reopened."""
    if not draft.deals or draft.reopened is not None:
        return False
    result = rec.match_score(draft)
    return result is not None and result.finished


@st.fragment
def _table() -> None:
    """The deal being entered and the footer: a tap reruns only this part of the page (the
    match's header and scoresheet change only when a deal is saved, which reruns the whole page)."""
    current: rec.Draft | None = st.session_state.get(DRAFT)
    if current is None or st.session_state.pop(CHANGED_ELSEWHERE, False):
        st.rerun()
        return
    if not _match_done(current):
        with ui.messages():
            _deal(current)
    elif not current.setup.blocks:  # a club table's blocks played: nothing more to enter there
        # a deal the table played on anyway is kept, as played after the match was decided
        st.info(t("record.match_done"))
        with st.expander(t("record.after_end"), key=AFTER_END_OPEN), ui.messages():
            _deal(current)
    _footer(current)


_table()
