"""The plays of many four-player deals in one compiled pass: cards in, the replay's numbers out.

The engine replays a deal card by card in Python (:mod:`manillen_replay.engine.replay`); for an
archive of a million deals that loop is most of the time. :func:`replay_plays` runs the same
rules (the engine's own :func:`~manillen_replay.rules.legal_core`, compiled as the search runs
it) over a whole batch of deals at once and gives, for each play, what the engine's
:class:`~manillen_replay.engine.TrickResult` holds: the seat, the legal cards, the clause and the
seat winning so far (and the hand it was played from), with each trick's winner and points and
each side's card points.

It checks only what it must to play the cards: every hand is dealt from the deck with no card
twice, and every card played is held. A deal that fails (:data:`NOT_PLAYED`) is left to the
engine, which says what is wrong with it, word for word as it always has.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._jit import compiled, legal_core

PLAYED = 0
"""A deal whose plays were all worked out."""
NOT_PLAYED = 1
"""A deal with a card dealt twice or outside the deck, or a card played that was not held: the
engine replays it and reports the problem."""

PLAYERS = 4


@compiled
def _replay_plays(
    hand_cards: Any,
    trick_cards: Any,
    first_trick_card: Any,
    trick_counts: Any,
    dealers: Any,
    trumps: Any,
    deck_mask: int,
    hand_size: int,
    partner_exempt: Any,
    underbuy: Any,
    overtake_plain_suit: Any,
    ranks_per_suit: int,
    card_points: Any,
    status: Any,
    hands: Any,
    taken: Any,
    illegal: Any,
    seats: Any,
    legal: Any,
    held: Any,
    clauses: Any,
    winning: Any,
    trick_winners: Any,
    trick_points: Any,
) -> None:
    for deal in range(len(dealers)):
        holding = np.zeros(PLAYERS, np.int64)
        dealt = 0
        fine = True
        for seat in range(PLAYERS):
            for k in range(hand_size):
                card = hand_cards[(deal * PLAYERS + seat) * hand_size + k]
                bit = np.int64(1) << card
                if not (deck_mask >> card) & 1 or dealt & bit:
                    fine = False
                dealt |= bit
                holding[seat] |= bit
            hands[deal * PLAYERS + seat] = holding[seat]
        if not fine or dealt != deck_mask:
            status[deal] = NOT_PLAYED
            continue
        trump = trumps[deal]
        leader = (dealers[deal] + 1) % PLAYERS
        first = first_trick_card[deal]
        taken[deal, 0] = 0
        taken[deal, 1] = 0
        for t in range(trick_counts[deal]):
            start = first + t * PLAYERS
            led = trick_cards[start] // ranks_per_suit
            best = 0
            best_suit = 0
            best_seat = 0
            points = 0
            for i in range(PLAYERS):
                play = start + i
                seat = (leader + i) % PLAYERS
                card = trick_cards[play]
                hand = holding[seat]
                if not (hand >> card) & 1:
                    fine = False
                    break
                suit = card // ranks_per_suit
                if i:
                    mask, code = legal_core(
                        led,
                        best,
                        hand,
                        trump,
                        best_seat % 2 == seat % 2,
                        partner_exempt[deal],
                        underbuy[deal],
                        overtake_plain_suit[deal],
                    )
                    if suit == best_suit:
                        if card > best:
                            best = card
                            best_seat = seat
                    elif suit == trump:
                        best = card
                        best_suit = suit
                        best_seat = seat
                else:
                    mask = hand
                    code = 0
                    best = card
                    best_suit = suit
                    best_seat = seat
                if not (mask >> card) & 1:
                    illegal[deal] += 1
                seats[play] = seat
                legal[play] = mask
                held[play] = hand
                clauses[play] = code
                winning[play] = best_seat
                points += card_points[card]
                holding[seat] = hand & ~(np.int64(1) << card)
            if not fine:
                break
            trick_winners[first // PLAYERS + t] = best_seat
            trick_points[first // PLAYERS + t] = points
            taken[deal, best_seat % 2] += points
            leader = best_seat
        status[deal] = PLAYED if fine else NOT_PLAYED


class PlayedBatch:
    """The numbers of a batch's plays, flat: the plays of deal ``d`` start at
    ``first_trick_card[d]``, its tricks at ``first_trick_card[d] // 4``."""

    def __init__(self, first_trick_card: Any, cards: int) -> None:
        deals = len(first_trick_card)
        self.first_trick_card = first_trick_card
        self.status = np.full(deals, NOT_PLAYED, np.int8)
        self.hands = np.zeros(deals * PLAYERS, np.int64)
        self.taken = np.zeros((deals, 2), np.int64)
        self.illegal = np.zeros(deals, np.int64)
        """How many plays of each deal broke the rules of play."""
        self.seats = np.zeros(cards, np.int8)
        self.legal = np.zeros(cards, np.int64)
        self.held = np.zeros(cards, np.int64)
        """The seat's hand as each card was played (what an illegal play is judged by)."""
        self.clauses = np.zeros(cards, np.int8)
        self.winning = np.zeros(cards, np.int8)
        self.trick_winners = np.zeros(cards // PLAYERS, np.int8)
        self.trick_points = np.zeros(cards // PLAYERS, np.int16)


def replay_plays(
    hand_cards: Any,
    trick_cards: Any,
    trick_counts: Any,
    dealers: Any,
    trumps: Any,
    *,
    deck_mask: int,
    hand_size: int,
    partner_exempt: Any,
    underbuy: Any,
    overtake_plain_suit: Any,
    ranks_per_suit: int,
    card_points: Any,
) -> PlayedBatch:
    """Play the tricks of many four-player deals (two sides of partners, no table cards).

    :param hand_cards: each deal's four hands, ``hand_size`` cards a seat, seat 0 first.
    :param trick_cards: each deal's tricks, four cards each, as played.
    :param trick_counts: the tricks of each deal.
    :param trumps: the trump suit of each deal, or :data:`~manillen_replay.rules.NO_TRUMP`.
    :param partner_exempt: per deal, the rules as :func:`~manillen_replay.rules.legal_core`
        takes them (so are ``underbuy`` and ``overtake_plain_suit``).
    """
    deals = len(dealers)
    counts = np.asarray(trick_counts, np.int64)
    first = np.zeros(deals, np.int64)
    np.cumsum(counts[:-1] * PLAYERS, out=first[1:])
    batch = PlayedBatch(first, len(trick_cards))
    _replay_plays(
        np.asarray(hand_cards, np.int64),
        np.asarray(trick_cards, np.int64),
        first,
        counts,
        np.asarray(dealers, np.int64),
        np.asarray(trumps, np.int64),
        deck_mask,
        hand_size,
        np.asarray(partner_exempt, np.bool_),
        np.asarray(underbuy, np.int64),
        np.asarray(overtake_plain_suit, np.bool_),
        ranks_per_suit,
        np.asarray(card_points, np.int64),
        batch.status,
        batch.hands,
        batch.taken,
        batch.illegal,
        batch.seats,
        batch.legal,
        batch.held,
        batch.clauses,
        batch.winning,
        batch.trick_winners,
        batch.trick_points,
    )
    return batch


__all__ = ["NOT_PLAYED", "PLAYED", "PlayedBatch", "replay_plays"]
