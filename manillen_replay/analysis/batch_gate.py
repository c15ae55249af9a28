"""The card-play gate of a whole batch at once: which plays any card-play detector may flag.

The bulk replay (:mod:`manillen_replay.bulk`) keeps the plays of thousands of deals in flat
arrays (:class:`~manillen_replay.engine.results.BatchPlays`). The card-play detectors
(:meth:`~.detectors.MatchAnalysis.card_play`) judge a play in Python, from what the player
could know (:mod:`.knowledge`), which costs far more than the replay itself; yet nine plays in
ten can give no finding. :func:`batch_gate` works out with numpy, for every play of the batch
at once, each detector's first conditions: what the player could know (the cards not seen, the
suits each seat has shown out of), whether the partner or the opponents were certain to take
the trick, whether the card was a master, and the cheaper or richer legal cards beside it. A
play it does not mark cannot give a finding, so the detectors build a deal's play-by-play view
and its tricks only for a deal with a marked play and ask only about the marked plays.

The marks are a necessary condition, not the finding: the detectors check every condition
again, and add what only their Python says (hindsight's later tricks, the guard of a bare
card, the solver's values). Four players in two sides of partners, each playing once a trick,
as the bulk replay's compiled pass plays them.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..cards import CARD_POINTS, RANKS_PER_SUIT, SUIT_MASKS, Rank
from ..engine.results import BatchPlays
from ..rules import NO_TRUMP
from .knowledge import POORER_THAN, RICHER_THAN, higher_of_suit

_CARDS = len(CARD_POINTS)
_POINTS = np.array(CARD_POINTS, np.int64)
_SUITS = np.array(SUIT_MASKS, np.int64)
_HIGHER = np.array([higher_of_suit(card) for card in range(_CARDS)], np.int64)
"""By card, the cards of its suit that beat it."""
_RICHER = np.array([RICHER_THAN[points] for points in CARD_POINTS], np.int64)
"""By card, the cards worth more points."""
_POORER = np.array([POORER_THAN[points] for points in CARD_POINTS], np.int64)
"""By card, the cards worth fewer points."""
_TRUMPS = np.array([*SUIT_MASKS, 0], np.int64)
"""By trump suit, its cards; :data:`~manillen_replay.rules.NO_TRUMP` (-1) reads the last: none."""
_VOID_CARDS = np.array(
    [sum(SUIT_MASKS[suit] for suit in range(4) if shown >> (4 * suit) & 1) for shown in range(0x1112)],
    np.int64,
)
"""By the suits a seat has shown out of (a bit a suit, four bits apart: 0x1111 is all four), the
cards of those suits."""
_IS_ACE = np.array([card % RANKS_PER_SUIT == Rank.ACE for card in range(_CARDS)])

assert NO_TRUMP == -1  # _TRUMPS reads it as its last entry


@dataclass(frozen=True, slots=True)
class BatchGate:
    """The plays of a batch that a card-play detector may flag, by the deal's row."""

    plays: dict[int, list[int]]
    """For each row with any, the plays that may be flagged, by their index in the deal
    (:attr:`.knowledge.DealKnowledge.views`), in order."""
    bare_aces: frozenset[int]
    """The rows where a bare non-trump ace was forced under an opponent's manille and its
    player had had a chance to smear it before (``bare_ace_lost``'s first conditions)."""
    first_known: dict[int, int]
    """For each of those rows, where its plays start in the three lists below."""
    hands: list[int]
    """Before each play of those rows: the player's hand, ..."""
    seen: list[int]
    """... the cards seen, ..."""
    voids: list[int]
    """... and each seat's suits shown out of, four bits a seat (seat 0 the lowest)."""

    def known(self, row: int, plays: int) -> tuple[list[int], list[int], list[int]]:
        """What each of the ``plays`` plays of ``row`` knew (:class:`~.knowledge.DealKnowledge`'s
        ``known``)."""
        first = self.first_known[row]
        last = first + plays
        return self.hands[first:last], self.seen[first:last], self.voids[first:last]


_GATES: weakref.WeakKeyDictionary[BatchPlays, BatchGate] = weakref.WeakKeyDictionary()
"""Each batch's gate, worked out when the first of its deals is analysed and dropped with it."""


def batch_gate(plays: BatchPlays, deck: int) -> BatchGate:
    """The gate of every play of a batch (worked out once a batch).

    :param plays: the batch's plays, as the bulk replay left them.
    :param deck: the cards in play (a mask).
    """
    gate = _GATES.get(plays)
    if gate is None:
        gate = _GATES[plays] = _work_out(plays, deck)
    return gate


def _work_out(batch: BatchPlays, deck: int) -> BatchGate:
    # A batch holds some two hundred thousand plays, and each pass of numpy over all of them
    # costs about as much as the replay of a deal: the plays are looked at as tricks (a row of
    # four plays) with as few passes as the detectors' first conditions need, and the questions
    # of what the player could know are asked only of the plays those conditions leave.
    counts = np.asarray(batch.trick_counts, np.int64)
    first_play = np.asarray(batch.first_play, np.int64)
    flat_cards = np.asarray(batch.cards, np.int64)
    flat_bits = np.left_shift(1, flat_cards)
    cards = flat_cards.reshape(-1, 4)
    bits = flat_bits.reshape(-1, 4)
    seats = np.asarray(batch.seats).reshape(-1, 4)
    flat_legal = np.asarray(batch.legal, np.int64)
    legal = flat_legal.reshape(-1, 4)
    winning = np.asarray(batch.winning).reshape(-1, 4)
    taker = np.asarray(batch.trick_winners)
    trick_row = np.repeat(np.arange(len(counts)), counts)
    trump_of_row = np.asarray(batch.trumps, np.int64)
    trump = np.repeat(trump_of_row, counts)[:, None]
    trumps = np.repeat(_TRUMPS[trump_of_row], counts)[:, None]
    suit = cards.astype(np.int8) // RANKS_PER_SUIT  # small numbers: a pass over bytes
    led = suit[:, :1]

    # The plays after the lead (a lead gives no card-play finding), a row of three a trick.
    card, bit, seat, allowed = cards[:, 1:], bits[:, 1:], seats[:, 1:], legal[:, 1:]
    partner_winning = winning[:, :-1] == seat ^ 2
    lost = (taker[:, None] ^ seat) & 1 != 0
    is_trump = trumps & bit != 0
    poorer = allowed & _POORER[card] != 0  # a cheaper legal card (none for a card without points)
    lower_trump = allowed & trumps & (bit - 1) != 0
    # Each detector's first conditions on the card and the legal cards, as MatchAnalysis.may_find
    # states them (they leave about a tenth of the plays for the questions below).
    plain = allowed & ~trumps  # the legal cards that are no trump
    asked = (allowed & bit != 0) & (
        (poorer & lost)
        | (is_trump & (lower_trump | (partner_winning & (led != trump) & (plain != 0))))
        | (~is_trump & partner_winning & (plain & _RICHER[card] != 0))
    )
    pick = np.flatnonzero(asked)
    trick = pick // 3
    play = trick * 4 + pick % 3 + 1
    place = play & 3
    deals = trick_row[trick]
    start = first_play[deals]

    # What was seen before each play: the deal's cards so far (each card once, so a sum is a
    # union; the sums run over the batch and one deal's is their difference).
    total = np.cumsum(flat_bits)
    seen = total[play] - flat_bits[play] - total[start] + flat_bits[start]
    # The suits each seat has shown out of before each play: a count of four bits for each seat
    # and suit (none is shown out of more than eight times in a deal), summed the same way.
    shown = np.where(suit != led, np.left_shift(1, (seats * 4 + led) * 4, dtype=np.int64), 0).ravel()
    shows = np.cumsum(shown)
    voids = shows[play] - shown[play] - shows[start]

    card, seat, legal = flat_cards[play], seats.ravel()[play].astype(np.int64), legal.ravel()[play]
    trump, trumps = trump_of_row[deals], _TRUMPS[trump_of_row[deals]]
    is_trump = (trumps >> card) & 1 == 1
    partner_winning = partner_winning.ravel()[pick]
    lost = lost.ravel()[pick]
    own = seat & 1
    unknown = deck & ~seen & ~np.asarray(batch.held, np.int64)[play]

    def possible(later: int) -> Any:
        """The cards the seat ``later`` places after the player may hold, as the player knew."""
        counted = voids >> (((seat + later) & 3) * 16) & 0xFFFF
        return unknown & ~_VOID_CARDS[(counted | counted >> 1 | counted >> 2 | counted >> 3) & 0x1111]

    after, mate = possible(1), possible(2)
    opponents = after | possible(3)
    lead = play - place
    before = winning.ravel()[play - 1].astype(np.int64)  # the seat winning before the play
    best = flat_cards[lead + ((before - seats.ravel()[lead]) & 3)]  # its card
    beaters = _HIGHER[best] | np.where((trumps >> best) & 1 == 1, 0, trumps)
    # DealKnowledge.partner_certain: the team took it, and no opponent after may beat the card;
    # opponents_certain: the mirror, with no legal card of the player's that beats it.
    partner_certain = partner_winning & ~lost & ~((place <= 2) & (after & beaters != 0))
    opponents_certain = (
        lost & ((before & 1) != own) & (legal & beaters == 0) & ~((place <= 1) & (mate & beaters != 0))
    )
    master = (_HIGHER[card] & unknown == 0) & (is_trump | (opponents & trumps == 0))
    # trump_overspent, master_trump_smeared: a master trump, and a lower legal trump that would
    # have done its job in the trick (taken it; on the partner's certain trick, left it to the
    # side: to the partner whose card the master overtook, or to the player) and that an opponent
    # may beat later. Doing the job asks a trump to be higher than some cards; being beaten, to
    # be lower than some: the lowest lower trump that does the job is the one to ask about.
    lower_trump = legal & trumps & (flat_bits[play] - 1)
    later = total[lead + 3] - total[play]  # the cards played after it in the trick
    to_beat = (later & trumps) | np.where((trumps >> best) & 1 == 1, np.left_shift(1, best), 0)
    may_be_beaten = master & (opponents & trumps != 0)
    overspent = _beaten_above(
        lower_trump, to_beat | np.where(place <= 2, after & trumps, 0), opponents & trumps, may_be_beaten
    )
    # on the partner's certain trick any lower trump keeps it on the side (the detector checks it
    # against the cards played): a master that overtook the partner's winner asks no more of it
    smeared = _beaten_above(lower_trump, np.zeros_like(to_beat), opponents & trumps, may_be_beaten)
    ruff = (trump != flat_cards[lead] // RANKS_PER_SUIT) & (legal & ~trumps != 0)
    # missed_vetten: a richer legal card, not the top of its suit, that the opponents took later
    side_one = np.where(taker & 1 == 1, bits.sum(axis=1), 0)
    taken_by_one = np.bincount(trick_row, weights=side_one, minlength=len(counts))  # exact in a float
    taken_by_one = taken_by_one.astype(np.int64)[deals]
    played = total[start + counts[deals] * 4 - 1] - total[start] + flat_bits[start]
    taken_by_them = np.where(own == 1, played - taken_by_one, taken_by_one)
    smear = ~is_trump & (legal & ~trumps & _RICHER[card] & _below_top(unknown) & taken_by_them != 0)
    # wasted_trump: a ruff where a discard was possible, the trump no point card a higher one may
    # take, and an opponent may still hold a trump
    wasted = is_trump & ruff & ((_POINTS[card] == 0) | master) & (opponents & trumps != 0)
    # points_thrown, unsafe_vetten: a master point card given away with a cheaper card to give
    kept = master & (legal & _POORER[card] != 0)
    found = np.where(
        partner_certain,
        smear | wasted | (is_trump & ~ruff & smeared),
        np.where(
            is_trump & (winning.ravel()[play] == seat),
            overspent,
            np.where(
                partner_winning, lost & ~is_trump & (legal & trumps == 0) & kept, opponents_certain & kept
            ),
        ),
    )
    judged: dict[int, list[int]] = {}
    for deal, offset in zip(deals[found].tolist(), (play - start)[found].tolist(), strict=True):
        judged.setdefault(deal, []).append(offset)
    bare = _bare_ace_rows(flat_cards, flat_bits, seats.ravel(), flat_legal, batch, trump_of_row, trick_row)
    # What every play of the deals to judge knew, for their views (DealKnowledge's known)
    rows = np.array(sorted(judged.keys() | bare), np.int64)
    lengths = counts[rows] * 4
    ends = np.cumsum(lengths)
    begins = np.repeat(first_play[rows], lengths)
    at = np.arange(ends[-1] if len(ends) else 0) + np.repeat(first_play[rows] - ends + lengths, lengths)
    voids = (shows[at] - shown[at] - shows[begins]).view(np.uint64)
    # each count of four bits down to one bit (shown out of or not), then the sixteen bits together
    one, two, three = np.uint64(1), np.uint64(2), np.uint64(3)
    voids = (voids | voids >> one | voids >> two | voids >> three) & np.uint64(0x1111111111111111)
    for shift, mask in (
        (3, 0x0303030303030303),
        (6, 0x000F000F000F000F),
        (12, 0x000000FF000000FF),
        (24, 0xFFFF),
    ):
        voids = (voids | voids >> np.uint64(shift)) & np.uint64(mask)
    return BatchGate(
        judged,
        bare,
        dict(zip(rows.tolist(), (ends - lengths).tolist(), strict=True)),
        np.asarray(batch.held, np.int64)[at].tolist(),
        (total[at] - flat_bits[at] - total[begins] + flat_bits[begins]).tolist(),
        voids.tolist(),
    )


def _highest(masks: Any) -> Any:
    """The highest card of each mask, as a mask (0 for none)."""
    # the highest bit (exact: a float holds the 36 bits of a deck)
    top = np.frexp(masks.astype(np.float64))[1].astype(np.int64) - 1
    return np.where(masks != 0, np.left_shift(1, np.maximum(top, 0)), 0)


def _below_top(unknown: Any) -> Any:
    """The cards below the highest unknown card of their suit (those that are not the top)."""
    below = np.zeros_like(unknown)
    for mask in SUIT_MASKS:
        top = _highest(unknown & mask)
        below |= np.where(top != 0, top - 1, 0) & mask
    return below


def _beaten_above(lower: Any, floor: Any, beaters: Any, asked: Any) -> Any:
    """Where ``asked``: whether the lowest of the ``lower`` cards above every ``floor`` card
    exists and one of ``beaters`` is higher than it (cards of one suit)."""
    top = _highest(floor)
    above = lower & np.where(top != 0, ~((top << 1) - 1), -1)
    lowest = above & -above
    return asked & (lowest != 0) & (beaters & ~((lowest << 1) - 1) != 0)


def _bare_ace_rows(
    cards: Any, bits: Any, seats: Any, legal: Any, batch: BatchPlays, trump_of_row: Any, trick_row: Any
) -> frozenset[int]:
    """The rows where a non-trump ace, the only card of its suit in the hand and the only legal
    card, fell in a trick the opponents took with its manille played by one of them, and where
    the same seat had had a chance to smear it before: the ace legal while the partner was
    winning a trick the team took, and a cheaper card played (:meth:`~.detectors.MatchAnalysis.
    bare_aces`)."""
    forced = np.flatnonzero((legal == bits) & _IS_ACE[cards])
    trick = forced >> 2
    deals = trick_row[trick]
    seat = seats[forced].astype(np.int64)
    taker = np.asarray(batch.trick_winners)[trick].astype(np.int64)
    card = cards[forced]
    held = np.asarray(batch.held, np.int64)[forced]
    keep = (
        ((_TRUMPS[trump_of_row[deals]] >> card) & 1 == 0)
        & (held & _SUITS[card // RANKS_PER_SUIT] == bits[forced])
        & ((taker ^ seat) & 1 == 1)
    )
    forced, deals, seat, card = forced[keep], deals[keep], seat[keep], card[keep]
    lead = forced & ~3
    manille = np.zeros(len(forced), np.bool_)
    for position in range(4):
        manille |= (cards[lead + position] == card + 1) & ((seats[lead + position] ^ seat) & 1 == 1)
    forced, deals, seat, card, lead = (
        forced[manille],
        deals[manille],
        seat[manille],
        card[manille],
        lead[manille],
    )
    # the seat's play in each earlier trick of the deal (each seat plays once a trick)
    tricks = int(np.asarray(batch.trick_counts).max(initial=0))
    first = np.asarray(batch.first_play, np.int64)[deals][:, None] + np.arange(0, 4 * tricks, 4)
    earlier = first < lead[:, None]
    first = np.where(earlier, first, 0)
    at = first + ((seat[:, None] - seats[first]) & 3)
    winning = np.asarray(batch.winning)
    chance = (
        earlier
        & (at & 3 != 0)
        & (winning[at - 1] == seat[:, None] ^ 2)
        & ((legal[at] >> card[:, None]) & 1 == 1)
        & (_POINTS[cards[at]] < _POINTS[card][:, None])
        & ((np.asarray(batch.trick_winners)[at >> 2] ^ seat[:, None]) & 1 == 0)
    )
    rows = set(deals[chance.any(axis=1)].tolist())
    return frozenset(rows)


__all__ = ["BatchGate", "batch_gate"]
