"""Replay of many records at once: the plays of the common deals in one compiled pass.

:func:`replay_many` replays a batch of records with the same results as the engine's
:func:`~manillen_replay.engine.replay` record by record (the same results, the same problems at
the same pointers), only faster. The plays of every deal of the four-player game whose hands
and tricks are given are worked out together by compiled code
(:func:`manillen_replay.solver.plays.replay_plays`, the engine's own legal-play rules); the engine
then does the rest of each match (the calls, the scoring, the scoresheet, the match score) and
takes those plays instead of playing the cards itself. Any deal the compiled pass does not take
(another variant, table cards, a short trick, a card dealt twice or not held, a trump other than
assumed) the engine plays card by card, as it always has, and reports what is wrong with it.

:func:`replay_entries` is the same for documents of an archive, decoded on the way, as
``manillen validate`` reads them.
"""

from __future__ import annotations

import contextlib
import gc
import itertools
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import msgspec
import numpy as np

from .cards import CARD_BY_TEXT, CARD_POINTS, CARD_TEXT, RANKS_PER_SUIT, Card, CardSet, Suit
from .engine import MatchResult, TrickResult, Violation, replay, rules_of
from .engine.replay import CardsUnread, PlayedDeal
from .errors import InvalidRecordError, ManillenError
from .record import Entry, Record
from .record.io import read_cards_unread
from .record.model import Deal
from .rules import CLAUSES, NO_TRUMP, Rules, classify_violation, underbuy_code

BATCH_RECORDS = 500
"""Records replayed together by :func:`replay_entries`: enough deals (about 8,000) that the
compiled pass costs nothing a deal, few enough to keep memory flat."""

COMPILED_MINIMUM = 500
"""The fewest deals of a batch worth the compiled pass: below them (a file of a few matches) the
engine plays them, and the command does not load numba (a second and a hundred megabytes)."""


class _CardCodes(dict[str, int]):
    """Each card's canonical text and its number; any other text (another spelling, no card) -1."""

    def __missing__(self, text: str) -> int:
        return -1


_CODE = _CardCodes((text, code) for code, text in enumerate(CARD_TEXT))
_SUIT = {suit.name: int(suit) for suit in Suit}
_CARD_POINTS = np.array(CARD_POINTS, np.int64)
_FOUR = Rules().shape
_CARDS = np.array(list(Card), dtype=object)
_CLAUSES = np.array(CLAUSES, dtype=object)
_FOURS = frozenset((4,))
"""The one size of a trick the compiled pass plays."""


def takes(rules: Rules) -> bool:
    """Whether the compiled pass plays deals under ``rules``: four players in two sides of
    partners, one trick a round, no table cards and nothing laid aside."""
    shape = rules.shape
    return (
        shape.players == 4
        and shape.people == 4
        and shape.sides == "teams"
        and shape.trick_size == 4
        and shape.table_seats == "none"
        and shape.discards == 0
        and shape.deck_mask == _FOUR.deck_mask
        and shape.hand_size == _FOUR.hand_size
    )


def assumed_trump(deal: Deal) -> int | None:
    """The trump the calls most likely make (the last trump or muil call, else the turned card),
    or ``None``: the replay uses the compiled plays only when its own reading of the calls agrees."""
    trump: int | None = None
    if deal.declarations:
        for call in deal.declarations:
            if call.call == "trump":
                if call.suit:
                    trump = _SUIT[call.suit]
            elif call.call in ("muil", "blind_muil"):
                trump = NO_TRUMP
    if trump is None and deal.turned:
        card = CARD_BY_TEXT.get(deal.turned)
        trump = None if card is None else int(card) // RANKS_PER_SUIT
    return trump


@contextlib.contextmanager
def collection_paused() -> Iterator[None]:
    """Python's automatic cyclic garbage collection paused for a bulk run.

    A batch makes some hundred thousand objects at once (every trick of every deal), so the
    automatic collection would run every few hundred of them and scan the whole young batch
    each time: as long as the replay itself. The bulk paths collect the young generations
    themselves once a batch is dropped (``gc.collect(1)``), so memory stays flat, as the
    import does.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _rules_taken(record: Record) -> Rules | None:
    """The record's rules when the compiled pass plays its deals; ``None`` for rules it does not
    play or options that are wrong (the engine says what is wrong with them)."""
    try:
        rules = rules_of(record)
    except ManillenError:
        return None
    return rules if takes(rules) else None


def _trump_played(deal: Deal) -> int | None:
    """The deal's trump for the compiled pass: the dealer's lone trump call, or the one
    :func:`assumed_trump` finds; ``None`` when the engine must read the calls."""
    calls = deal.declarations
    if calls is not msgspec.UNSET and len(calls) == 1 and calls[0].call == "trump" and calls[0].suit:
        return _SUIT[calls[0].suit]
    return assumed_trump(deal)


class _Plan:
    """The deals of a batch the compiled pass takes, gathered flat."""

    def __init__(self) -> None:
        self.hand_texts: list[str] = []
        self.trick_texts: list[str] = []
        self.trick_counts: list[int] = []
        self.dealers: list[int] = []
        self.trumps: list[int] = []
        self.partner_exempt: list[bool] = []
        self.underbuy: list[int] = []
        self.overtake: list[bool] = []
        self.owners: list[tuple[int, int]] = []
        """``(record's index in the batch, deal's index in the record)`` of each deal taken."""

    def add_record(self, number: int, record: Record) -> None:
        rules = _rules_taken(record)
        if rules is None:
            return
        shape = rules.shape
        sizes, most_tricks = [shape.hand_size] * 4, shape.tricks
        hand_texts, trick_texts = self.hand_texts, self.trick_texts
        dealers, trumps, trick_counts, owners = self.dealers, self.trumps, self.trick_counts, self.owners
        chain = itertools.chain.from_iterable
        unset = msgspec.UNSET
        first = len(owners)
        for index, deal in enumerate(record.deals):
            hands, tricks = deal.hands, deal.tricks
            if (
                not hands
                or deal.table is not unset
                or deal.table_moves is not unset
                or deal.discards
                or list(map(len, hands)) != sizes
            ):
                continue
            if not tricks:
                tricks = []
            elif len(tricks) > most_tricks or not _FOURS.issuperset(map(len, tricks)):
                continue
            trump = _trump_played(deal)
            if trump is None:
                continue
            hand_texts += chain(hands)
            trick_texts += chain(tricks)
            trick_counts.append(len(tricks))
            dealers.append(deal.dealer)
            trumps.append(trump)
            owners.append((number, index))
        self._rules_of_deals(rules, len(owners) - first)

    def _rules_of_deals(self, rules: Rules, taken: int) -> None:
        """The record's rules for each of its ``taken`` deals, as the compiled pass reads them."""
        self.partner_exempt += [rules.partner_exempt] * taken
        self.underbuy += [underbuy_code(rules)] * taken
        self.overtake += [rules.overtake_plain_suit] * taken

    def play(self, records: int) -> list[dict[int, PlayedDeal]]:
        """Each record's deals as the compiled pass played them, by the deal's index; none when
        any card of the batch is not written in canonical form (``10H``, ``AS``)."""
        if len(self.owners) < max(COMPILED_MINIMUM, 1):
            return [{} for _ in range(records)]
        trick_cards = np.fromiter(map(_CODE.__getitem__, self.trick_texts), np.int64, len(self.trick_texts))
        hand_cards = np.fromiter(map(_CODE.__getitem__, self.hand_texts), np.int64, len(self.hand_texts))
        if (len(trick_cards) and trick_cards.min() < 0) or (len(hand_cards) and hand_cards.min() < 0):
            return [{} for _ in range(records)]  # a card not in canonical form: every record is read in full
        return _played(
            records,
            hand_cards,
            trick_cards,
            np.asarray(self.trick_counts, np.int64),
            np.asarray(self.dealers, np.int64),
            np.asarray(self.trumps, np.int64),
            np.asarray(self.partner_exempt, np.bool_),
            np.asarray(self.underbuy, np.int64),
            np.asarray(self.overtake, np.bool_),
            self.owners,
        )


class _UnreadPlan(_Plan):
    """The deals of a batch the compiled pass takes, from records whose cards were left as
    their JSON text (:func:`~manillen_replay.record.io.read_cards_unread`): the cards of every
    deal are read at once (:func:`read_card_lists`)."""

    def __init__(self) -> None:
        super().__init__()
        self.hand_lists: list[Any] = []
        """Each deal's hands as their JSON text (:class:`msgspec.Raw`)."""
        self.trick_lists: list[Any] = []
        """Each deal's tricks as their JSON text."""

    def add_record(self, number: int, record: Record) -> None:
        rules = _rules_taken(record)
        if rules is None:
            return
        hand_texts, trick_texts = self.hand_lists, self.trick_lists
        dealers, trumps, owners = self.dealers, self.trumps, self.owners
        unset = msgspec.UNSET
        first = len(owners)
        for index, deal in enumerate(record.deals):
            hands, tricks = deal.hands, deal.tricks
            if (
                hands is unset
                or tricks is unset
                or deal.table is not unset
                or deal.table_moves is not unset
                or deal.discards
            ):
                continue
            trump = _trump_played(deal)
            if trump is None:
                continue
            hand_texts.append(hands)
            trick_texts.append(tricks)
            dealers.append(deal.dealer)
            trumps.append(trump)
            owners.append((number, index))
        self._rules_of_deals(rules, len(owners) - first)

    def play(self, records: int) -> list[dict[int, PlayedDeal]]:
        if len(self.owners) < max(COMPILED_MINIMUM, 1):
            return [{} for _ in range(records)]
        # every hand, or none read: the compiled pass takes each deal's hands as the next 32 cards
        hand_cards, _, hands_read = read_card_lists(self.hand_lists, _FOUR.hand_size, 4, fewest=4)
        trick_cards, trick_counts, tricks_read = read_card_lists(self.trick_lists, 4, _FOUR.tricks)
        read = hands_read & tricks_read
        if not read.all():  # the cards of a deal not read are left out
            hand_cards = hand_cards.reshape(-1, 4 * _FOUR.hand_size)[read[hands_read]].ravel()
            trick_cards = trick_cards[np.repeat(read[tricks_read], trick_counts[tricks_read] * 4)]
            trick_counts = trick_counts[read]
        rows = np.flatnonzero(read)
        pick = rows.tolist()
        owners = self.owners
        return _played(
            records,
            hand_cards,
            trick_cards,
            trick_counts,
            np.asarray(self.dealers, np.int64)[rows],
            np.asarray(self.trumps, np.int64)[rows],
            np.asarray(self.partner_exempt, np.bool_)[rows],
            np.asarray(self.underbuy, np.int64)[rows],
            np.asarray(self.overtake, np.bool_)[rows],
            [owners[row] for row in pick] if len(pick) < len(owners) else owners,
        )


def _played(
    records: int,
    hand_cards: Any,
    trick_cards: Any,
    trick_counts: Any,
    dealers: Any,
    trumps: Any,
    partner_exempt: Any,
    underbuy: Any,
    overtake: Any,
    owners: Sequence[tuple[int, int]],
) -> list[dict[int, PlayedDeal]]:
    """Each record's deals played by the compiled pass (one row of the arrays a deal, its
    ``(record, deal)`` in ``owners``), by the deal's index."""
    from .solver.plays import PLAYED, replay_plays  # numba loads only where it is used

    played: list[dict[int, PlayedDeal]] = [{} for _ in range(records)]
    batch = replay_plays(
        hand_cards,
        trick_cards,
        trick_counts,
        dealers,
        trumps,
        deck_mask=_FOUR.deck_mask,
        hand_size=_FOUR.hand_size,
        partner_exempt=partner_exempt,
        underbuy=underbuy,
        overtake_plain_suit=overtake,
        ranks_per_suit=RANKS_PER_SUIT,
        card_points=_CARD_POINTS,
    )
    plays = _BatchPlays(batch, trick_cards, trick_counts, trumps)
    trump_list = trumps.tolist()
    violations = plays.violations(trump_list, batch.status == PLAYED)
    status = batch.status.tolist()
    hands = map(tuple, batch.hands.reshape(-1, 4).tolist())
    taken = batch.taken.tolist()
    illegal = batch.illegal.tolist()
    counts = trick_counts.tolist()
    for row, (number, index), dealt, points in zip(itertools.count(), owners, hands, taken):
        if status[row] == PLAYED:
            played[number][index] = PlayedDeal(
                plays,
                row,
                trump_list[row],
                dealt,
                (points[0], points[1]),
                violations.get(row, ()) if illegal[row] else (),
                counts[row],
            )
    return played


def _card_table() -> Any:
    """Each canonical card's code by its text's first and last character (``10H`` by ``1`` and
    ``H``), -1 elsewhere."""
    table = np.full((256, 256), -1, np.int64)
    for code, text in enumerate(CARD_TEXT):
        table[ord(text[0]), ord(text[-1])] = code
    return table


_CARD_BY_ENDS = _card_table()
_QUOTE, _ONE, _ZERO, _CLOSE = (ord(c) for c in '"10]')


def _list_pattern(lists: int, cards: int) -> Any:
    """What a JSON list of ``lists`` lists of ``cards`` cards reads as, each card's text
    (between its quotes) left out and its opening quote kept: ``[[",","],[","]]``."""
    one = "[" + ",".join('"' * cards) + "]"
    return np.frombuffer(("[" + ",".join([one] * lists) + "]").encode(), np.uint8)


def read_card_lists(texts: Sequence[Any], cards: int, most: int, fewest: int = 1) -> tuple[Any, Any, Any]:
    """The cards of many JSON lists of lists of cards (``[["7H","10H"],["AS","KS"]]``, each
    given as its JSON text) read at once: the card codes of all, in order, how many lists each
    holds, and whether each is read.

    A text is read only when it is in the one form the records are written in: every inner list
    ``cards`` cards long, ``fewest`` to ``most`` lists, each card in canonical form, no space, escape or
    anything else. Any other (a short list, ``"7h"``, a space after a comma) is not read (its
    count is 0): the record is read again card by card, which names what is wrong.
    """
    count = len(texts)
    if not count:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.bool_)
    lengths = np.fromiter(map(len, texts), np.int64, count)
    starts = np.zeros(count, np.int64)
    np.cumsum(lengths[:-1], out=starts[1:])
    joined = np.frombuffer(b"".join(texts), np.uint8)
    quotes = joined == _QUOTE
    odd = np.add.reduceat(quotes, starts, dtype=np.int64) & 1
    if odd.any():  # a quote without its pair: the text is not read, and shifts no other
        texts = [b"!" if bad else text for text, bad in zip(texts, odd.tolist(), strict=True)]
        cards, lists, read = read_card_lists(texts, cards, most, fewest)
        return cards, lists, read
    # Inside a card's text (its opening quote included) after an odd number of quotes; kept: the
    # bytes outside and each opening quote, standing for its card.
    inside = np.cumsum(quotes, dtype=np.int32) & 1
    kept = (inside == 0) ^ quotes
    kept_bytes = joined[kept]
    kept_lengths = np.add.reduceat(kept, starts, dtype=np.int64)
    kept_text = np.repeat(np.arange(count, dtype=np.int32), kept_lengths)
    # The kept bytes of a text of n lists: the pattern's first n * (2 * cards + 2) bytes and "]".
    unit = 2 * cards + 2
    lists = (kept_lengths - 1) // unit
    shaped = ((kept_lengths - 1) % unit == 0) & (lists >= fewest) & (lists <= most)
    pattern = _list_pattern(most, cards)
    kept_starts = np.zeros(count, np.int64)
    np.cumsum(kept_lengths[:-1], out=kept_starts[1:])
    place = np.arange(len(kept_bytes), dtype=np.int64) - np.repeat(kept_starts, kept_lengths)
    expected = pattern[np.minimum(place, len(pattern) - 1)]
    expected[np.cumsum(kept_lengths) - 1] = _CLOSE
    wrong = np.bincount(kept_text[kept_bytes != expected], minlength=count)
    # Each card: two characters between its quotes, or "10" and a suit.
    every_quote = np.flatnonzero(quotes)
    opening, closing = every_quote[0::2], every_quote[1::2]
    first = joined[opening + 1]
    codes = _CARD_BY_ENDS[first, joined[closing - 1]]
    width = closing - opening - 1
    canonical = (codes >= 0) & np.where(
        first == _ONE, (width == 3) & (joined[np.minimum(opening + 2, len(joined) - 1)] == _ZERO), width == 2
    )
    card_text = kept_text[kept_bytes == _QUOTE]
    wrong += np.bincount(card_text[~canonical], minlength=count)
    read = shaped & (wrong == 0)
    return codes[read[card_text]], np.where(read, lists, 0), read


class _BatchPlays:
    """The plays of a batch's deals as the compiled pass left them (flat arrays, one value a
    play), and each deal's tricks built from them on demand (:class:`~manillen_replay.engine.
    results.BatchPlays`)."""

    def __init__(self, batch: Any, cards: Any, trick_counts: Any, trumps: Any) -> None:
        self.first_play = batch.first_trick_card
        self.trick_counts = trick_counts
        self.seats = batch.seats
        self.cards = cards
        self.legal = batch.legal
        self.clauses = batch.clauses
        self.winning = batch.winning
        self.held = batch.held
        self.trick_winners = batch.trick_winners
        self.trumps = trumps
        self._batch = batch
        self._lists: tuple[list[Any], ...] | None = None

    def tricks_of(self, row: int) -> list[TrickResult]:
        # Built a deal at a time from the batch's plays as Python lists, made once (numpy makes
        # each in one call): the scan asks for the tricks of a deal in three or four, the import
        # only for a match refused late.
        if self._lists is None:
            self._lists = self._all_lists()
        firsts, counts, leaders, seats, cards, legal, clauses, winning, winners, points = self._lists
        first, count = firsts[row], counts[row]
        plays = range(first * 4, (first + count) * 4, 4)
        return list(
            map(
                TrickResult,
                range(1, count + 1),
                leaders[first : first + count],
                [seats[at : at + 4] for at in plays],
                [cards[at : at + 4] for at in plays],
                [legal[at : at + 4] for at in plays],
                [clauses[at : at + 4] for at in plays],
                [winning[at : at + 4] for at in plays],
                winners[first : first + count],
                points[first : first + count],
            )
        )

    def _all_lists(self) -> tuple[list[Any], ...]:
        """The batch's plays as Python lists, its objects the engine's own (the :class:`Card`
        and the :class:`Clause` members): each deal's first trick and its tricks, each trick's leader, each
        play's seat, card, legal cards, clause and seat winning, each trick's winner and points."""
        batch = self._batch
        return (
            (self.first_play // 4).tolist(),
            self.trick_counts.tolist(),
            batch.seats[::4].tolist(),
            batch.seats.tolist(),
            _CARDS[self.cards].tolist(),
            batch.legal.tolist(),
            _CLAUSES[batch.clauses].tolist(),
            batch.winning.tolist(),
            batch.trick_winners.tolist(),
            batch.trick_points.tolist(),
        )

    def violations(self, trumps: Sequence[int], played: Any) -> dict[int, list[Violation]]:
        """The illegal plays of the deals played through (``played``, one flag a deal), by the
        deal's row, as the engine names them."""
        cards, legal = self.cards, self.legal
        counted = np.repeat(played, self.trick_counts * 4)
        wrong = np.flatnonzero((((legal >> cards) & 1) == 0) & counted).tolist()
        if not wrong:
            return {}
        rows = (np.searchsorted(self.first_play, wrong, side="right") - 1).tolist()
        firsts = self.first_play.tolist()
        found: dict[int, list[Violation]] = {}
        for play, row in zip(wrong, rows, strict=True):
            position = play - firsts[row]
            trick, i = divmod(position, 4)
            card = int(cards[play])
            trump = trumps[row]
            kind = classify_violation(
                card,
                cards[play - i : play].tolist(),
                int(self._batch.held[play]),
                None if trump == NO_TRUMP else trump,
            )
            found.setdefault(row, []).append(
                Violation(
                    trick + 1, i + 1, int(self.seats[play]), Card(card), kind, CardSet(int(legal[play]))
                )
            )
        return found


def replay_many(
    records: Sequence[Record], places: Sequence[tuple[str | None, int | None]] | None = None
) -> list[MatchResult | Exception]:
    """Replay a batch of records: for each, its result or what the replay raised
    (:class:`~manillen_replay.errors.InvalidRecordError` listing its problems).

    :param places: each record's file and line, for messages.
    """
    plan = _Plan()
    for number, record in enumerate(records):
        plan.add_record(number, record)
    played = plan.play(len(records))
    results: list[MatchResult | Exception] = []
    for number, record in enumerate(records):
        source, line = places[number] if places is not None else (None, None)
        try:
            results.append(replay(record, source=source, line=line, played=played[number]))
        except Exception as error:
            results.append(error)
    return results


def replay_ready(
    records: Sequence[Record],
    ready: Sequence[dict[int, PlayedDeal] | None],
    places: Sequence[tuple[str | None, int | None]],
) -> list[MatchResult | Exception]:
    """Replay records some of which :func:`read_quickly` read: each with its plays (``ready``),
    the others (``None``) by :func:`replay_many`; for each, its result or what the replay raised."""
    late = [number for number, plays in enumerate(ready) if plays is None]
    results: list[MatchResult | Exception | None] = [None] * len(records)
    if late:
        replayed = replay_many([records[n] for n in late], [places[n] for n in late])
        for number, result in zip(late, replayed, strict=True):
            results[number] = result
    for number, plays in enumerate(ready):
        if plays is not None:
            source, line = places[number]
            try:
                results[number] = replay(records[number], source=source, line=line, played=plays)
            except Exception as error:
                results[number] = error
    return results  # type: ignore[return-value]  # every place is filled


def replay_entries(
    entries: Iterable[Entry], *, batch: int = BATCH_RECORDS
) -> Iterator[tuple[Entry, Record | None, MatchResult | InvalidRecordError]]:
    """Decode and replay the documents of an archive, a batch at a time: each document with its
    record (``None`` when it is none) and its result or its problems, placed in the file as
    :func:`~manillen_replay.engine.replay_entry` places them.

    A record whose cards the batch read at once keeps its deals' hands and tricks as their JSON
    text (:func:`~manillen_replay.record.io.read_cards_unread`): read it with
    :meth:`Entry.decode` to look at its cards.

    An error other than a problem of the record (a bug) is raised, as the engine raises it.
    """
    with collection_paused():
        yield from _replay_chunks(iter(entries), batch)


def _replay_chunks(
    entries: Iterator[Entry], batch: int
) -> Iterator[tuple[Entry, Record | None, MatchResult | InvalidRecordError]]:
    while chunk := list(itertools.islice(entries, batch)):
        read = _read_chunk(chunk)
        late = [(entry, record) for entry, record, _, ready in read if record is not None and ready is None]
        results = iter(replay_many([record for _, record in late], [(e.source, e.line) for e, _ in late]))
        result: Any = None
        for entry, record, problem, ready in read:
            if record is None:
                assert problem is not None
                yield entry, None, problem
                continue
            if ready is None:
                result = next(results)
            else:
                try:
                    result = replay(record, source=entry.source, line=entry.line, played=ready)
                except CardsUnread:  # a deal it must play card by card: read in full, as one by one
                    try:
                        record = entry.decode()
                    except InvalidRecordError as error:
                        yield entry, None, error
                        continue
                    try:
                        result = replay(record, source=entry.source, line=entry.line)
                    except Exception as error:
                        result = error
                except Exception as error:
                    result = error
            if isinstance(result, InvalidRecordError):
                yield entry, record, InvalidRecordError(entry.locate(result.problems))
            elif isinstance(result, Exception):
                raise result
            else:
                yield entry, record, result
        del chunk, read, late, results, record, result
        gc.collect(1)  # the batch is gone: what is left of it (any cycle) is looked at once


def _read_chunk(
    chunk: list[Entry],
) -> list[tuple[Entry, Record | None, InvalidRecordError | None, dict[int, PlayedDeal] | None]]:
    """Each document of a chunk read: its record or its problems, and for a record whose every
    deal the compiled pass played, those plays (else ``None``: the record is replayed by
    :func:`replay_many`).

    Each document is first read with its deals' hands and tricks left as their JSON text
    (:func:`~manillen_replay.record.io.read_cards_unread`): the cards are most of a document,
    and making a string of each costs more than all the rest. The cards of the whole chunk are
    then read at once from that text (:func:`read_card_lists`, only the one form records are
    written in: canonical cards, no spaces), and the reader's checks of each deal's cards
    (known, in canonical form, none dealt twice) are made for the chunk at once too: the
    compiled pass deals every hand it plays from the deck. A record they do not all cover (a
    deal the pass did not play, cards written another way, a variation in a comment) is read
    again in full, which names its problems as one by one; so is a record whose replay comes
    to a deal it must play card by card (:class:`~manillen_replay.engine.replay.CardsUnread`).
    """
    read: list[tuple[Entry, Record | None, InvalidRecordError | None, dict[int, PlayedDeal] | None]] = []
    for entry, quick in zip(chunk, read_quickly(chunk), strict=True):
        if quick is not None:
            read.append((entry, quick[0], None, quick[1]))
            continue
        try:
            read.append((entry, entry.decode(), None, None))
        except InvalidRecordError as error:
            read.append((entry, None, error, None))
    return read


def read_quickly(chunk: Sequence[Entry]) -> list[tuple[Record, dict[int, PlayedDeal]] | None]:
    """Each document of a chunk that reads with its deals' cards left as their JSON text
    (:func:`~manillen_replay.record.io.read_cards_unread`), with its plays by the compiled
    pass, which reads the cards of the whole chunk at once and makes the reader's checks of
    them; ``None`` for any other, which the caller reads with :meth:`Entry.decode` (that names
    its problems, one by one) and replays with :func:`replay_many`.

    The cards are read only in the one form records are written in (:func:`read_card_lists`), so
    such a record in canonical form (:func:`~manillen_replay.record.dumps`) is the same text as
    the record read in full. A record the pass does not cover (a deal it did not play, cards
    written another way, a variation in a comment) is ``None``. Replaying one may still come to a
    deal that must be played card by card (:class:`~manillen_replay.engine.replay.CardsUnread`):
    the caller then reads the document in full and replays that.

    A chunk that cannot give the compiled pass :data:`COMPILED_MINIMUM` deals (a file of a few
    matches) is all ``None`` at once, without reading it: the caller reads each document once,
    in full, as the engine plays them anyway.
    """
    if _most_tricked_deals(chunk) < COMPILED_MINIMUM:
        return [None] * len(chunk)
    plan = _UnreadPlan()
    quick = [read_cards_unread(entry) for entry in chunk]
    for number, record in enumerate(quick):
        if record is not None:
            plan.add_record(number, record)
    played = plan.play(len(chunk))
    return [
        (record, plays) if record is not None and _cards_checked(record, plays) else None
        for record, plays in zip(quick, played, strict=True)
    ]


def _most_tricked_deals(chunk: Sequence[Entry]) -> int:
    """At most how many deals of a chunk's JSON documents give their tricks, the deals the
    compiled pass may play, counted on the bytes: each gives the key ``"tricks"`` (a text holding
    those eight bytes counts too). A key written with escapes (``"\\u0074ricks"``) is not counted:
    such a chunk may be read in full when the compiled pass could have played it, with the same
    results, only slower.

    >>> _most_tricked_deals([Entry("a.json", None, b'{"deals": [{"tricks": []}, {"tricks": []}]}')])
    2
    """
    return sum(
        entry.data.count(b'"tricks"')
        for entry in chunk
        if isinstance(entry.data, bytes) and not entry.notation
    )


def _cards_checked(record: Record, plays: dict[int, PlayedDeal]) -> bool:
    """Whether the compiled pass has checked every card of the record: each deal it played, or
    one that gives no cards at all (a scoresheet line), and no comment's variation."""
    unset = msgspec.UNSET
    for index, deal in enumerate(record.deals):
        if index not in plays and not (
            deal.hands is unset and deal.tricks is unset and deal.table is unset and deal.discards is unset
        ):
            return False
        if deal.annotations is not unset and any(note.line is not unset for note in deal.annotations):
            return False
    return True


__all__ = [
    "BATCH_RECORDS",
    "COMPILED_MINIMUM",
    "assumed_trump",
    "collection_paused",
    "read_quickly",
    "replay_entries",
    "replay_many",
    "replay_ready",
    "takes",
]
