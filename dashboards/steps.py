"""A replayed deal as a list of moments, one per card played, for the deal replay page.

Moment ``k`` is the table after ``k`` cards: what each seat still holds, the trick on the table
(a finished trick stays on the table until the next card is led, so the player can see who took
it), the points each team has taken, and who plays next with the cards they may play. The state
comes from what the engine recorded for each play; the moments are computed once, so stepping back
is indexing into the list.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from manillen_replay.cards import Card, CardSet, Suit
from manillen_replay.engine import DealResult, TrickResult
from manillen_replay.engine.turns import iter_turns
from manillen_replay.engine.variation import VariationCard
from manillen_replay.rules import LegalPlays, Rules, ViolationKind, winning_position

if TYPE_CHECKING:  # the solver (and numba) loads only once a line is asked for
    from manillen_replay.solver.lines import Line


@dataclass(frozen=True, slots=True)
class PlayMade:
    """One card as it was played, with what the rules allowed at that moment."""

    number: int
    """The play's place in the deal, counted from 1 (the step that shows it)."""
    trick: int
    """The trick, counted from 1."""
    position: int
    """The place in the trick, counted from 1."""
    seat: int
    """Who played it."""
    card: Card
    """The card played."""
    legal: LegalPlays
    """What the seat could legally have played, and the clause that decided it."""
    violation: ViolationKind | None
    """The rule the card broke, ``None`` for a legal play."""


@dataclass(frozen=True, slots=True)
class Moment:
    """The table after a number of cards have been played."""

    step: int
    """Cards played so far in the deal (0 before the opening lead)."""
    hands: tuple[CardSet, ...]
    """The cards each seat still holds."""
    table: tuple[tuple[int, Card], ...]
    """``(seat, card)`` of the trick on the table, leader first; empty before a lead."""
    trick: int
    """The number of the trick on the table, or of the trick about to be led."""
    trick_winner: int | None
    """Who took the trick on the table, once it is complete."""
    winning: int | None
    """The seat whose card is winning the trick on the table."""
    taken: tuple[int, int]
    """Card points each team has taken in finished tricks."""
    to_play: int | None
    """The seat to play next, ``None`` when the deal is over."""
    may_play: LegalPlays | None
    """The cards the seat to play may play next, and why."""
    last: PlayMade | None
    """The card that brought the table to this moment (``None`` at step 0)."""


def deal_moments(deal: DealResult, rules: Rules) -> list[Moment]:
    """Every moment of a replayed deal: ``len(result) == cards played + 1``.

    The moments come from what the engine recorded for each play (who played, the legal cards
    and the clause that decided them), so they hold in every variant the engine replays.

    :param deal: a deal from :func:`manillen_replay.engine.decode_and_replay`.
    :param rules: the match's house rules.
    :raises ValueError: for a deal with nothing to replay (scoresheet line or redeal).
    """
    if not deal.tricks:
        raise ValueError(f"deal {deal.number} has no cards to replay")
    shape = rules.shape
    trump = None if deal.trump is None else int(deal.trump)
    # Open table cards (two-player games, the dummy) are shown with the hand once face up, as the
    # puzzles' walk of the piles has them (:func:`iter_turns`); a deal without its hands shows none.
    turns = list(iter_turns(deal)) if deal.hands is not None else []
    held: Sequence[int] = turns[0].before if turns else [0] * shape.players
    violations = {(v.trick, v.play): v.kind for v in deal.violations}
    plays = [(trick, i) for trick in deal.tricks for i in range(len(trick.cards))]
    aside = deal.taken_before_play(rules)  # the laid-aside cards count from the start
    taken = list(aside)
    moments: list[Moment] = []

    def upcoming(index: int) -> tuple[int | None, LegalPlays | None]:
        if index >= len(plays):
            return None, None
        trick, position = plays[index]
        return trick.seats[position], _legal_plays(trick, position, trump, deal.dealer, rules)

    to_play, may_play = upcoming(0)
    moments.append(
        Moment(0, tuple(CardSet(m) for m in held), (), 1, None, None, aside, to_play, may_play, None)
    )
    for index, (trick, position) in enumerate(plays):
        seat, card = trick.seats[position], trick.cards[position]
        made = PlayMade(
            number=index + 1,
            trick=trick.number,
            position=position + 1,
            seat=seat,
            card=card,
            legal=_legal_plays(trick, position, trump, deal.dealer, rules),
            violation=violations.get((trick.number, position + 1)),
        )
        if turns:
            held = turns[index].after
        complete = position + 1 == len(trick.cards) and trick.winner is not None
        if complete:
            assert trick.winner is not None
            taken[shape.team_of(trick.winner, deal.dealer) % 2] += trick.points
        to_play, may_play = upcoming(index + 1)
        table = tuple(zip(trick.seats[: position + 1], trick.cards[: position + 1], strict=True))
        moments.append(
            Moment(
                step=index + 1,
                hands=tuple(CardSet(m) for m in held),
                table=table,
                trick=trick.number,
                trick_winner=trick.winner if complete else None,
                winning=trick.winning[position],
                taken=(taken[0], taken[1]),
                to_play=to_play,
                may_play=may_play,
                last=made,
            )
        )
    return moments


def _legal_plays(
    trick: TrickResult, position: int, trump: int | None, dealer: int, rules: Rules
) -> LegalPlays:
    """The engine's legal cards for one play, with what the explanation needs."""
    so_far = trick.cards[:position]
    best = winning_position(so_far, trump) if so_far else None
    partner = False
    if best is not None:
        shape = rules.shape
        partner = shape.team_of(trick.seats[best], dealer) == shape.team_of(trick.seats[position], dealer)
    return LegalPlays(
        cards=CardSet(trick.legal[position]),
        clause=trick.clauses[position],
        led_suit=so_far[0].suit if so_far else None,
        winning_card=so_far[best] if best is not None else None,
        winning_position=best,
        partner_winning=partner,
        trump=None if trump is None else Suit(trump),
    )


def step_of(trick: int | None, play: int | None, trick_size: int = 4) -> int:
    """The step that shows a play given by trick and position (both from 1), 0 for a whole deal.

    >>> step_of(3, 2)
    10
    >>> step_of(None, None)
    0
    >>> step_of(2, None)
    8
    """
    if trick is None:
        return 0
    if play is None:
        return trick * trick_size
    return (trick - 1) * trick_size + play


@dataclass(frozen=True, slots=True)
class LineCard:
    """One card of a solver line (a ``finding_lines`` row): the branch the replay can step through."""

    seat: int
    """Who plays it."""
    card: Card
    """The card."""
    trick: int
    """The trick of the deal it falls in, counted from 1."""
    winner: int
    """The seat that takes that trick."""
    points: int
    """That trick's card points."""
    held: CardSet
    """The seat's cards just before it plays this one (this one included)."""


def line_moments(
    before: Moment,
    line: Sequence[LineCard],
    trump: int | None,
    team_of: Sequence[int],
    trick_size: int = 4,
) -> list[Moment]:
    """A solver line as moments, to step through like the deal: moment ``j`` is the table after
    ``j`` cards of the line, moment 0 the table just before its first card (``before``, with the
    hands the line is played on: the real ones, or a layout of the hidden cards).

    :param before: the deal's moment just before the line's first card.
    :param line: the line's cards in order (they run to the end of the deal).
    :param trump: the trump suit, ``None`` for muil.
    :param team_of: each seat's side.
    :param trick_size: the cards of a trick (the variant's: 2, 3, 4 or 6).
    """
    if not line:
        return [before]

    def hands_after(index: int) -> tuple[CardSet, ...]:
        """Each seat's cards after ``index`` cards of the line: what it holds at its next card."""
        held = []
        for seat in range(len(before.hands)):
            upcoming = next((c.held for c in line[index:] if c.seat == seat), None)
            held.append(upcoming if upcoming is not None else CardSet(0))
        return tuple(held)

    first = line[0]
    # the cards of the first trick already on the table (none when the line leads a trick)
    on_table = before.table if before.trick == first.trick and before.trick_winner is None else ()
    start = Moment(
        before.step, hands_after(0), on_table, first.trick, None, before.winning if on_table else None,
        before.taken, first.seat, None, None,
    )  # fmt: skip
    moments = [start]
    taken = list(before.taken)
    table: list[tuple[int, Card]] = list(on_table)
    for index, card in enumerate(line):
        if len(table) == trick_size or (table and moments[-1].trick != card.trick):
            table = []
        table.append((card.seat, card.card))
        cards = [int(c) for _, c in table]
        winning = table[winning_position(cards, trump)][0]
        complete = len(table) == trick_size
        if complete:
            taken[team_of[card.winner] % 2] += card.points
        following = line[index + 1] if index + 1 < len(line) else None
        moments.append(
            Moment(
                step=before.step + index + 1,
                hands=hands_after(index + 1),
                table=tuple(table),
                trick=card.trick,
                trick_winner=card.winner if complete else None,
                winning=winning,
                taken=(taken[0], taken[1]),
                to_play=following.seat if following is not None else None,
                may_play=None,
                last=None,
            )
        )
    return moments


def solver_line_cards(line: Line) -> list[LineCard]:
    """A line the solver played out (:class:`~manillen_replay.solver.lines.Line`) as the cards the
    table steps through: each with its trick's taker and points and what its seat held before it.

    The cards already on the table when the line starts are its first trick's, not the line's.
    """
    held = list(line.start.hands)
    on_table = len(line.start.trick)
    found: list[LineCard] = []
    for index, trick in enumerate(line.tricks):
        for play in trick.plays[on_table if index == 0 else 0 :]:
            found.append(
                LineCard(play.seat, Card(play.card), trick.number, trick.winner, trick.points,
                         CardSet(held[play.seat]))
            )  # fmt: skip
            held[play.seat] &= ~(1 << play.card)
    return found


def variation_cards(before: Moment, played: Sequence[VariationCard]) -> list[LineCard]:
    """A variation of the deal (:func:`~manillen_replay.engine.variation.play_variation`) as the
    cards the table steps through, from the moment just before its first card.

    A trick the variation leaves unfinished has no taker: its cards carry ``winner`` -1, which
    the table never shows (it shows a taker only under a complete trick).
    """
    held = [hand.mask for hand in before.hands]
    found = []
    for card in played:
        found.append(
            LineCard(card.seat, card.card, card.trick, -1 if card.winner is None else card.winner,
                     card.points, CardSet(held[card.seat]))
        )  # fmt: skip
        held[card.seat] &= ~(1 << card.card)
    return found
