"""The seats, hands, tricks and plays of an import batch, built from flat numbers with numpy."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..cards import CARD_TEXT, Suit
from ..engine import DealResult
from ..engine.results import BatchPlays
from ..rules import Clause
from .arrow import (
    _CARD_TEXTS,
    _CLAUSE_CODE_BY_ID,
    _CLAUSE_TEXTS,
    _NO_SEAT,
    _NO_SUIT,
    _POINTS_OF_CARD,
    _RANK_TEXTS,
    _RANKS_PER_SUIT,
    _SUIT_TEXTS,
    _arrow,
    _dictionary,
    _small,
    _starts,
    _strings,
    _table,
    _texts,
    _wide,
)

_FOURS = [[4] * count for count in range(64)]
"""The trick sizes of a deal of the compiled pass (every trick of four cards), by its number of tricks."""


class _DealRows:
    """The seats, hands, tricks and plays of a batch's deals, kept flat.

    Python only gathers each deal's numbers (a few list appends per trick); numpy spreads the
    per-deal values over the rows and Arrow dictionaries give the texts, so building the
    largest tables costs no Python work per card and no SQL look-ups. A deal whose plays are
    still in the arrays of the bulk path's compiled pass (:attr:`DealResult.batch_plays
    <manillen_replay.engine.DealResult.batch_plays>`) costs no Python work per trick either:
    its plays are taken from those arrays, a slice a deal.
    """

    def __init__(self) -> None:
        # Per deal.
        self.deals: list[tuple[int, int, int, int, int, int, int, int]] = []
        """Each deal's row in the batch's ``matches``, number, trump suit (or
        :data:`_NO_SUIT`), trick size, seats taken by people (the seats after them are
        dummies), seats, hands given and tricks: one tuple a deal, columns in :meth:`tables`."""
        # Per seat of each deal.
        self.names: list[str] = []
        """Who played the seat (the dealer plays the dummy)."""
        self.teams: list[int] = []
        self.masks: list[int] = []
        """The hand dealt to the seat, when the record has the hands."""
        # Per trick, and per play.
        self.trick_sizes: list[int] = []
        self.seats: list[int] = []
        self.cards: list[int] = []
        self.legal: list[int] = []
        self.clauses: list[Clause] = []
        self.winning: list[int] = []
        self.play_parts: list[tuple[BatchPlays | None, int, int]] = []
        """Where each deal's plays are, in order: ``(None, start, end)`` in the lists above, or
        ``(plays, start, end)`` in the arrays of a batch of the compiled pass."""
        self.violations: list[tuple[int, int, str]] = []
        """``(deal's row, play index in the deal, kind)`` of each illegal play."""

    def add(
        self,
        match: int,
        deal: DealResult,
        trick_size: int,
        names: list[str],
        teams: list[int],
        seated: int,
    ) -> int:
        """One deal's rows; returns its number of tricks."""
        row = len(self.deals)
        self.names += names
        self.teams += teams
        hands = deal.hands
        if hands:
            self.masks += hands
        trump = deal.trump
        in_batch = deal.batch_plays
        if in_batch is not None:
            plays, batch_row = in_batch
            count = int(plays.trick_counts[batch_row])
            first = int(plays.first_play[batch_row])
            self.trick_sizes += _FOURS[count]
            self.play_parts.append((plays, first, first + 4 * count))
        else:
            count = self._add_tricks(deal)
        self.deals.append(
            (
                match,
                deal.number,
                _NO_SUIT if trump is None else trump,
                trick_size,
                seated,
                len(names),
                len(hands) if hands else 0,
                count,
            )
        )
        for violation in deal.violations:
            self.violations.append(
                (row, (violation.trick - 1) * trick_size + violation.play - 1, violation.kind.value)
            )
        return count

    def _add_tricks(self, deal: DealResult) -> int:
        """The deal's plays, trick by trick; returns its number of tricks."""
        tricks = deal.tricks
        sizes, seats, cards, legal, clauses, winning = (
            self.trick_sizes, self.seats, self.cards, self.legal, self.clauses, self.winning
        )  # fmt: skip
        start = len(cards)
        for trick in tricks:
            sizes.append(len(trick.cards))
            seats += trick.seats
            cards += trick.cards
            legal += trick.legal
            clauses += trick.clauses
            winning += trick.winning
        self.play_parts.append((None, start, len(cards)))
        return len(tricks)

    def _plays(self) -> tuple[Any, Any, Any, Any, Any]:
        """Every play's seat, card, legal cards, clause (its index) and seat winning so far, in
        deal order: the runs of the lists and the slices of the batches, joined."""
        listed = (
            _small(self.seats),
            _small(self.cards),
            _wide(self.legal),
            np.frombuffer(bytes(map(_CLAUSE_CODE_BY_ID.__getitem__, map(id, self.clauses))), np.uint8),
            _small(self.winning),
        )
        pieces: list[tuple[Any, ...]] = []
        run: tuple[BatchPlays | None, int, int] | None = None
        for part in [*self.play_parts, None]:
            if run is not None and part is not None and part[0] is run[0] and part[1] == run[2]:
                run = (run[0], run[1], part[2])  # the next deal of the same batch: one slice
                continue
            if run is not None:
                source, start, end = run
                if source is None:
                    pieces.append(tuple(column[start:end] for column in listed))
                else:
                    pieces.append(
                        (
                            source.seats[start:end],
                            source.cards[start:end],
                            source.legal[start:end],
                            source.clauses[start:end],
                            source.winning[start:end],
                        )
                    )
            run = part
        if not pieces:
            return listed
        kinds = (np.uint8, np.uint8, np.int64, np.uint8, np.uint8)
        return tuple(
            np.concatenate([piece[k] for piece in pieces]).astype(kind, copy=False)
            for k, kind in enumerate(kinds)
        )  # type: ignore[return-value]

    def tables(self, match_ids: list[str]) -> dict[str, Any]:
        """``deal_seats``, ``hands``, ``tricks`` and ``plays`` as Arrow tables."""
        deals = len(self.deals)
        per_deal = np.array(self.deals, np.int64).reshape(deals, 8).T
        match, number = per_deal[0].astype(np.int32), per_deal[1].astype(np.int32)
        trump = per_deal[2].astype(np.uint8)
        trick_size = per_deal[3]
        seated, seat_count, hand_count, trick_count = per_deal[4:]
        ids = _strings(match_ids)
        names = _strings(self.names)
        teams = _small(self.teams)
        first_name = _starts(seat_count)

        def spread(counts: Any) -> tuple[Any, Any]:
            """For rows grouped by deal: each row's deal, and its place within the deal."""
            of_deal = np.repeat(np.arange(deals), counts)
            return of_deal, np.arange(len(of_deal)) - _starts(counts)[of_deal]

        tables = {}
        seat_deal, seat = spread(seat_count)
        tables["deal_seats"] = _table(
            {
                "match_id": _texts(match[seat_deal], ids),
                "deal": number[seat_deal],
                "seat": seat.astype(np.int32),
                "player": names,
                "team": teams,
                "is_dummy": seat >= seated[seat_deal],
            }
        )
        hand_deal, hand_seat = spread(hand_count)
        masks = _wide(self.masks)
        held = ((masks[:, None] >> np.arange(len(CARD_TEXT))) & 1).astype(np.int32)
        hand_trump = trump[hand_deal]
        no_trump = hand_trump == _NO_SUIT
        per_suit = held.reshape(len(masks), len(Suit), _RANKS_PER_SUIT).sum(axis=2)
        trumps_held = per_suit[np.arange(len(masks)), np.where(no_trump, 0, hand_trump)]
        tables["hands"] = _table(
            {
                "match_id": _texts(match[hand_deal], ids),
                "deal": number[hand_deal],
                "seat": hand_seat.astype(np.int32),
                "player": _texts(first_name[hand_deal] + hand_seat, names),
                "points": held @ _POINTS_OF_CARD,
                "trumps": _arrow(trumps_held, no_trump),
                "mask": masks,
            }
        )
        trick_deal, trick_index = spread(trick_count)
        sizes = _small(self.trick_sizes).astype(np.int64)
        play_trick = np.repeat(np.arange(len(sizes)), sizes)
        trick_first = _starts(sizes)
        position = np.arange(len(play_trick)) - trick_first[play_trick]
        play_deal = trick_deal[play_trick]
        seats, cards, legal, codes, winning = self._plays()
        name_of_play = first_name[play_deal] + seats
        suit = cards // _RANKS_PER_SUIT
        kinds = sorted({kind for _, _, kind in self.violations})
        violation = np.zeros(len(cards), np.int32)
        lawful = np.ones(len(cards), bool)
        if self.violations:
            play_first = _starts(np.bincount(play_deal, minlength=deals))
            for row, index, kind in self.violations:
                violation[play_first[row] + index] = kinds.index(kind)
                lawful[play_first[row] + index] = False
        tables["plays"] = _table(
            {
                "match_id": _texts(match[play_deal], ids),
                "deal": number[play_deal],
                "trick": (trick_index[play_trick] + 1).astype(np.int32),
                "position": (position + 1).astype(np.int32),
                "play": (trick_index[play_trick] * trick_size[play_deal] + position + 1).astype(np.int32),
                "seat": seats,
                "player": _texts(name_of_play, names),
                "team": teams[name_of_play],
                "card": _texts(cards, _dictionary(_CARD_TEXTS)),
                "suit": _texts(suit, _dictionary(_SUIT_TEXTS)),
                "rank": _texts(cards % _RANKS_PER_SUIT, _dictionary(_RANK_TEXTS)),
                "points": _POINTS_OF_CARD[cards],
                "is_trump": suit == trump[play_deal],
                "legal": ((legal >> cards) & 1).astype(bool),
                "violation": _texts(violation, _strings(kinds), missing=lawful),
                "winning_seat": winning,
                "clause": _texts(codes, _dictionary(_CLAUSE_TEXTS)),
                "legal_mask": legal,
            }
        )
        # A trick's rows come from its plays: the first card's seat led, the seat winning after
        # the last card took it (once complete), the points are its cards'.
        played = sizes > 0
        first_play = trick_first[played]
        last_play = first_play + sizes[played] - 1
        owner = trick_deal[played]
        complete = sizes[played] == trick_size[owner]
        winner = np.where(complete, winning[last_play], _NO_SEAT)
        leader = seats[first_play]
        winner_name = first_name[owner] + np.where(complete, winner, 0)
        tables["tricks"] = _table(
            {
                "match_id": _texts(match[owner], ids),
                "deal": number[owner],
                "trick": (trick_index[played] + 1).astype(np.int32),
                "leader": leader,
                "leader_player": _texts(first_name[owner] + leader, names),
                "led_suit": _texts(suit[first_play], _dictionary(_SUIT_TEXTS)),
                "cards": sizes[played].astype(np.int32),
                "winner": _arrow(winner, ~complete),
                "winner_player": _texts(winner_name, names, missing=~complete),
                "winner_team": _arrow(teams[winner_name], ~complete),
                "points": np.add.reduceat(_POINTS_OF_CARD[cards], first_play)
                if len(first_play)
                else np.zeros(0, np.int32),
            }
        )
        return tables
