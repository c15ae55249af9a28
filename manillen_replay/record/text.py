"""The text notation ``.mnl``: a match typed at the table, read and written beside JSON.

A ``.mnl`` file holds one or more matches, each a few header lines (``match``, ``date``,
``seats`` ...) and then its deals: a ``deal`` line with the dealer and the calls, the tricks one
line each in the order played, and optional ``hand``, ``score``, ``penalty`` and ``note`` lines.
``docs/notation.md`` documents every line. Text converts losslessly to ``manillen/1`` and back:
:func:`loads_text` reads it, :func:`dumps_text` writes the one canonical text form.

Every problem is a :class:`~manillen_replay.errors.NotationError` that names its line and
column, says what was expected there and, for a trick, who leads it and why.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from ..cards import CARD_BY_TEXT, CARD_TEXT, SUIT_BY_TEXT
from ..errors import InvalidRecordError, NotationError, RecordError
from ..rules import VARIANTS, Rules, Variant, winning_position
from .model import FORMAT, Deal, Record, seat_name_problems
from .validation import seats_problem

HEADER_WORDS = ("match", "date", "venue", "event", "notes", "variant", "seats", "rules", "blocks")
BODY_WORDS = ("hand", "table", "discards", "turned", "move", "score", "penalty", "note")
_FREE_TEXT = ("match", "date", "venue", "event", "notes")
_CALL_WORDS = {"trump", "muil", "blind", "blind_muil", "en", "en_face", "klop", "tegenklop", "pass", "redeal"}
_DEAL_WORDS = _CALL_WORDS | {"dealer", "score", "face"}
_CARD_EXAMPLE = "a card such as 10H, T♥, a♠ or qd (rank 10 T A K Q J 9 8 7, then H D C S or ♥ ♦ ♣ ♠)"


def _unknown_card(text: str) -> str:
    """What is wrong with a word where a card goes; a Dutch rank letter (boer, vrouw, heer) told so.

    >>> _unknown_card("HS").endswith("the ranks are written as in English: boer J, vrouw Q, heer K")
    True
    """
    said = f"unknown card {text!r}: expected {_CARD_EXAMPLE}"
    if len(text) == 2 and text[0].upper() in "BVH" and text[1].upper() in "HDCSK♥♦♣♠":
        said += "; the ranks are written as in English: boer J, vrouw Q, heer K"
    return said


_SUIT_EXAMPLE = "a suit: H, D, C or S (or ♥ ♦ ♣ ♠, harten, koeken, klaveren, schoppen)"


# --------------------------------------------------------------------------- reading


def loads_text(text: str, *, source: str | None = None) -> list[Record]:
    """Every match in a text in the notation.

    >>> [r.match.seats for r in loads_text("seats Anna Bert Carla Dirk\\ndeal 1 dealer Dirk score Anna 6")]
    [['Anna', 'Bert', 'Carla', 'Dirk']]

    :param source: the file name, for messages.
    :raises InvalidRecordError: at the first match that is not valid notation, its problems each
        a :class:`NotationError` with line and column.
    """
    return [parse_match(chunk, first_line=first, source=source) for first, chunk in split_matches(text)]


def split_matches(text: str) -> list[tuple[int, str]]:
    """The matches of a text, each with the number of its first line: a ``match`` line after
    other content starts the next one.

    >>> [first for first, _ in split_matches("match a\\nseats A B\\n\\nmatch b\\nseats A B\\n")]
    [1, 4]
    """
    lines = lines_of(text.removeprefix("\ufeff"))
    starts: list[int] = []
    content = False
    for number, line in enumerate(lines):
        word = line.split("#", 1)[0].split(None, 1)
        if not word:
            continue
        if word[0].lower() == "match" and content:
            starts.append(number)
        if not starts:
            starts.append(0)
        content = True
    if not starts:
        return [(1, text)] if text.strip() else []
    bounds = [*starts, len(lines)]
    return [(a + 1, "\n".join(lines[a:b]) + "\n") for a, b in itertools.pairwise(bounds)]


def lines_of(text: str) -> list[str]:
    """The lines of a text: split at each ``\\n`` only, a ``\\r`` before it dropped, as every
    reader splits (:func:`~manillen_replay.record.io.split_lines`). U+2028, U+2029, U+0085 and the
    other characters Python's ``splitlines`` also breaks at stay inside their line.

    >>> lines_of("match a\\r\\nnotes x\\u2028y\\n")
    ['match a', 'notes x\\u2028y']
    """
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def comment_lines(text: str) -> list[int]:
    """The numbers (from 1) of the lines that hold a ``#`` comment, outside quoted text: what a
    typist wrote for people, which no record keeps (converting or importing leaves it behind).

    >>> comment_lines('seats Anna Bert Carla Dirk  # clockwise\\nvenue "Cafe #1"\\n# the end')
    [1, 3]
    """
    decoder = json.JSONDecoder()
    found = []
    for number, raw in enumerate(lines_of(text), start=1):
        i = raw.find("#")
        quote = raw.find('"')
        while i >= 0 and 0 <= quote < i:  # a # inside quotes is text: look past the quoted part
            try:
                _, end = decoder.raw_decode(raw, quote)
            except json.JSONDecodeError:
                i = -1  # an unclosed quote: the reader says so
                break
            i = raw.find("#", end)
            quote = raw.find('"', end)
        if i >= 0:
            found.append(number)
    return found


def parse_match(
    text: str, *, first_line: int = 1, source: str | None = None, variant: str | None = None
) -> Record:
    """The one match in ``text``, whose first line is line ``first_line`` of its file.

    :param variant: the variant a match without a ``variant`` line is read as (a club's, from
        ``manillen import --rules``; the record still names none, the club's rules fill it in);
        ``None``: the four-player game.
    :raises InvalidRecordError: its problems each a :class:`NotationError`.
    """
    record = _parse(text, first_line, source, variant).record
    assert record is not None
    return record


_OTHER_PLACE = re.compile(r"\(also at (/[^)\s]*)\)")
"""A message's second place, such as where a card dealt twice was first dealt: a JSON pointer
that a match typed as text would rather see as a line and column."""


@dataclass
class ParsedMatch:
    """A match read from text, and where each part of it stands in the text."""

    record: Record | None
    """The match as a record (``None`` while it is not yet one)."""
    places: dict[str, tuple[int, int]]
    """JSON pointer -> (line, column) of the text that wrote it."""
    source: str | None
    """The file, for messages."""

    def locate(self, problem: RecordError) -> NotationError:
        """A problem found in the record (by the replay), placed at the text that caused it."""
        if isinstance(problem, NotationError):
            return problem
        line, column = self._place(problem.pointer)
        message = _OTHER_PLACE.sub(lambda found: self._in_text(found), problem.message)
        return NotationError(
            message, problem.pointer, self.source, line, column, hint=self._hint(problem.pointer)
        )

    def _in_text(self, found: re.Match[str]) -> str:
        """A second place a message names, as a JSON pointer, told as the text's line and column."""
        line, column = self._place(found.group(1))
        return f"(also at line {line}, column {column})"

    def _place(self, pointer: str) -> tuple[int, int]:
        while pointer:
            if pointer in self.places:
                return self.places[pointer]
            pointer = pointer.rsplit("/", 1)[0]
        return self.places.get("", (1, 1))

    def _hint(self, pointer: str) -> str | None:
        """Who leads the trick a problem is in, and why: the usual slip is a line in the wrong order."""
        parts = pointer.split("/")
        if self.record is None or len(parts) < 5 or parts[1] != "deals" or parts[3] != "tricks":
            return None
        d, t = int(parts[2]), int(parts[4])
        deal = self.record.deals[d]
        names = self.record.match.seats
        shape = _shape(self.record)
        leaders = _leaders(deal, shape)
        if t >= len(leaders):
            return None
        leader = leaders[t]

        def name(seat: int) -> str:
            return names[seat] if seat < len(names) else "the dummy"

        if t == 0:
            dealer = name(deal.dealer)
            why = f"{name(leader)} sits left of the dealer {dealer}, so trick 1 starts with {name(leader)}"
        else:
            why = f"{name(leader)} won trick {t}, so trick {t + 1} starts with {name(leader)}"
        hint = f"{why}: the first card on the line is {name(leader)}'s"
        if len(parts) > 5 and parts[5].isdigit() and t < len(deal.tricks or ()):
            i = int(parts[5])
            if i > 0:
                hint += f", card {i + 1} is {name(shape.seat_of_play(leader, i, deal.dealer))}'s"
            card = (deal.tricks or [])[t][i] if i < len((deal.tricks or [])[t]) else None
            holders = [s for s, hand in enumerate(deal.hands or ()) if card in hand]
            if holders:
                hint += f"; {card} was dealt to {name(holders[0])}"
        return hint


def parse_located(text: str, *, first_line: int = 1, source: str | None = None) -> ParsedMatch:
    """Like :func:`parse_match`, keeping where each part stands (to place the replay's problems)."""
    return _parse(text, first_line, source)


def _leaders(deal: Deal, shape: Variant) -> list[int]:
    """Who leads each trick of a deal, as far as its tricks are complete and its trump known."""
    trump: int | None = None
    for call in deal.declarations or ():
        if call.call == "trump" and isinstance(call.suit, str):
            trump = "HDCS".index(call.suit)
    leader = shape.next_seat(deal.dealer, deal.dealer)
    leaders = [leader]
    for trick in deal.tricks or ():
        cards = [CARD_BY_TEXT[c] for c in trick if c in CARD_BY_TEXT]
        if len(cards) != shape.trick_size:
            break
        leader = shape.seat_of_play(leader, winning_position(cards, trump), deal.dealer)
        leaders.append(leader)
    return leaders


def _variant_name(record: Record) -> str:
    variant = record.match.variant
    return variant if isinstance(variant, str) else "four"


def _shape(record: Record) -> Variant:
    return VARIANTS[_variant_name(record)]


@dataclass
class _Token:
    text: str
    column: int
    """1-based column of its first character."""
    end: int
    """0-based index just past it."""
    quoted: bool = False
    names: tuple[str, ...] = ()
    """A team written with a quoted name (``"Jan P."&Carla``): its names, each whole."""


class _Line:
    """One line of the text, split into words (quoted words are JSON strings; ``#`` ends it)."""

    def __init__(self, raw: str, number: int, parser: _Parser) -> None:
        self.raw = raw
        self.number = number
        self.parser = parser
        self.tokens = _joined_teams(self.scan(0)[0])

    def error(self, column: int, message: str, hint: str | None = None, pointer: str = "") -> NotationError:
        return NotationError(message, pointer, self.parser.source, self.number, column, hint=hint)

    def scan(self, start: int, stop: str = "") -> tuple[list[_Token], int]:
        """The words from ``start`` to a comment, or to the first ``stop`` character outside quotes;
        the index just past that character, or -1 where there is none."""
        raw = self.raw
        tokens: list[_Token] = []
        i = start
        while i < len(raw):
            char = raw[i]
            if char.isspace():
                i += 1
            elif char == "#":
                return tokens, -1
            elif stop and char == stop:
                return tokens, i + 1
            elif char == '"':
                try:
                    value, end = json.JSONDecoder().raw_decode(raw, i)
                except json.JSONDecodeError:
                    raise self.error(i + 1, "this quoted text has no closing quote") from None
                tokens.append(_Token(str(value), i + 1, end, quoted=True))
                i = end
            else:
                j = i
                while j < len(raw) and not raw[j].isspace() and raw[j] != "#" and raw[j] != '"':
                    if stop and raw[j] == stop:
                        break
                    j += 1
                tokens.append(_Token(raw[i:j], i + 1, j))
                i = j
        return tokens, -1

    def rest(self, start: int) -> tuple[str, int]:
        """Free text from ``start`` to a comment (a quoted text when it starts with a quote)."""
        raw = self.raw
        i = start
        while i < len(raw) and raw[i].isspace():
            i += 1
        if i < len(raw) and raw[i] == '"':
            tokens, _ = self.scan(i)
            if len(tokens) > 1:
                raise self.error(tokens[1].column, "nothing may follow the closing quote but a # comment")
            return tokens[0].text, i + 1
        end = raw.find("#", i)
        return raw[i : len(raw) if end < 0 else end].strip(), i + 1


def _joined_teams(tokens: list[_Token]) -> list[_Token]:
    """``Anna & Carla`` read as ``Anna&Carla``, and a trick's ``AC, QC`` as ``AC QC``."""
    joined: list[_Token] = []
    for token in tokens:
        if not token.quoted and token.text.endswith(",") and len(token.text) > 1:
            token = _Token(token.text.rstrip(","), token.column, token.end)
        previous = joined[-1] if joined else None
        ends_team = previous is not None and not previous.quoted and previous.text.endswith("&")
        if previous is None or not (ends_team or (not token.quoted and token.text.startswith("&"))):
            joined.append(token)
        elif previous.quoted or previous.names or token.quoted:
            # a quoted name in a team: its names kept apart, an '&' inside a quoted name its own
            names = (*_team_names(previous), *_team_names(token))
            joined[-1] = _Token(previous.text + token.text, previous.column, token.end, names=names)
        else:
            joined[-1] = _Token(previous.text + token.text, previous.column, token.end)
    return joined


def _team_names(token: _Token) -> tuple[str, ...]:
    """The names a word of a team holds: a quoted name whole, else the parts between '&'."""
    if token.names:
        return token.names
    if token.quoted:
        return (token.text,)
    return tuple(part for part in token.text.split("&") if part)


@dataclass
class _DealDraft:
    number: int
    line: _Line
    dealer: int | None = None
    data: dict[str, Any] = field(default_factory=dict)
    hands: dict[int, list[str]] = field(default_factory=dict)
    table: dict[int, list[list[str]]] = field(default_factory=dict)
    declarations: list[dict[str, Any]] = field(default_factory=list)
    tricks: list[list[str]] = field(default_factory=list)
    redeal: bool = False
    names: list[str] = field(default_factory=list)


class _Parser:
    def __init__(self, text: str, first_line: int, source: str | None, variant: str | None = None) -> None:
        self.text = text
        self.first_line = first_line
        self.source = source
        self.places: dict[str, tuple[int, int]] = {}
        self.match: dict[str, Any] = {}
        self.seats: list[str] | None = None
        self.seating: Seating | None = None
        self.block_line: tuple[_Line, list[list[_Token]]] | None = None
        self.unnamed_variant = variant or "four"
        """The variant while the match names none (its ``variant`` line comes before ``seats``)."""
        self.shape: Variant = VARIANTS[self.unnamed_variant]
        self.deals: list[_DealDraft] = []

    def place(self, pointer: str, line: _Line, column: int) -> None:
        self.places.setdefault(pointer, (line.number, column))

    def once(self, pointer: str, line: _Line, column: int, what: str) -> None:
        """Refuse ``what`` given a second time: the record holds one, and keeping the last (as
        the parser did) lost the first without a word, as a key given twice in JSON would."""
        if pointer in self.places:
            first, _ = self.places[pointer]
            raise line.error(column, f"{what} is given twice (line {first} has it already): keep one")

    # ------------------------------------------------------------------ lines

    def run(self) -> ParsedMatch:
        lines = lines_of(self.text.removeprefix("\ufeff"))
        first: _Line | None = None
        for offset, raw in enumerate(lines):
            line = _Line(raw, self.first_line + offset, self)
            if not line.tokens:
                continue
            first = first or line
            word = line.tokens[0].text.lower()
            if word in HEADER_WORDS:
                self.header(word, line)
            elif word == "deal":
                self.deal_line(line)
            elif not self.deals:
                raise line.error(
                    line.tokens[0].column,
                    f"expected a header line ({', '.join(HEADER_WORDS)}) or a 'deal' line, "
                    f"found {line.tokens[0].text!r}",
                )
            elif word in BODY_WORDS:
                getattr(self, f"body_{word}")(line, self.deals[-1])
            else:
                self.trick(line, self.deals[-1])
        if first is None:
            empty = "holds only # comments" if comment_lines(self.text) else "is empty"
            raise InvalidRecordError(
                [NotationError(f"no match here: the text {empty}", "", self.source, 1, 1)]
            )
        if self.seats is None:
            raise first.error(1, "expected a 'seats' line naming the players clockwise, seat 0 first")
        self.places[""] = (first.number, 1)
        document = {"format": FORMAT, "match": self.match, "deals": [self.finish(d) for d in self.deals]}
        from .io import loads

        parsed = ParsedMatch(None, self.places, self.source)
        try:
            parsed.record = loads(msgspec.json.encode(document))
        except InvalidRecordError as error:
            raise InvalidRecordError([parsed.locate(p) for p in error.problems]) from None
        return parsed

    def header(self, word: str, line: _Line) -> None:
        key = line.tokens[0]
        if self.deals:
            raise line.error(key.column, f"the header line {word!r} must come before the first deal")
        self.once(f"/match/{'id' if word == 'match' else word}", line, key.column, f"the {word!r} line")
        if word in _FREE_TEXT:
            value, column = line.rest(key.end)
            if not value and line.raw[column - 1 : column] != '"':  # "" is an empty text, as written
                raise line.error(column, f"expected a value after {word!r}")
            name = "id" if word == "match" else word
            self.match[name] = value
            self.place(f"/match/{name}", line, column)
            return
        values = line.tokens[1:]
        if not values:
            raise line.error(key.end + 1, f"expected a value after {word!r}")
        if word == "variant":
            name = values[0].text.lower()
            if name not in VARIANTS:
                raise line.error(
                    values[0].column,
                    f"unknown variant {values[0].text!r}: expected one of {', '.join(VARIANTS)}",
                )
            if self.seats is not None:
                raise line.error(key.column, "write the 'variant' line before the 'seats' line")
            self.match["variant"] = name
            self.shape = VARIANTS[name]
            self.place("/match/variant", line, values[0].column)
        elif word == "seats":
            names = [t.text if t.quoted else t.text.rstrip(",") for t in values]
            problems = seat_name_problems(names)
            if problems:
                seat, message = problems[0]
                raise line.error(values[seat].column, message)
            # said at the seats line: a name left out read later as an unknown dealer or a
            # missing hand, far from the line to mend
            wrong = seats_problem(str(self.match.get("variant", self.unnamed_variant)), names)
            if wrong is not None:
                raise line.error(values[0].column if values else key.end + 1, wrong, pointer="/match/seats")
            self.seats = names
            self.match["seats"] = names
            for i, token in enumerate(values):
                self.place(f"/match/seats/{i}", line, token.column)
            self.place("/match/seats", line, values[0].column)
        elif word == "rules":
            self.rules(line, values)
        else:
            self.blocks(line, values)

    def rules(self, line: _Line, values: list[_Token]) -> None:
        options: dict[str, Any] = {}
        given: dict[str, _Token] = {}
        for token in values:
            name, sign, text = token.text.partition("=")
            if not sign or not name or (not text and name != "extension"):
                raise line.error(
                    token.column,
                    f"expected NAME=VALUE such as target=121 or cafe.en_face=true, found {token.text!r}",
                )
            if name in given:
                # the last one won without a word: a typo there changes the target, so the winner
                raise line.error(
                    token.column,
                    f"{name} is given twice on this line ({given[name].text} at column "
                    f"{given[name].column}, then {token.text}): keep one",
                )
            given[name] = token
            # each part's own column: the same digits may also stand inside an earlier part
            column = token.column + len(name) + 1
            for part in text.split(","):
                if part.isdigit() and len(part) > _DIGITS:
                    raise line.error(
                        column, f"{part[:12]}... is too large: a number has at most {_DIGITS} digits"
                    )
                column += len(part) + 1
            value = _option_value(text)
            if name == "extension":  # a list, as written: "extension=" none, "extension=121" one
                value = [] if not text else [value] if isinstance(value, int) else value
            if name.startswith("cafe."):
                options.setdefault("cafe", {})[name[5:]] = value
                self.place(f"/match/rules/cafe/{name[5:]}", line, token.column)
            else:
                options[name] = value
                self.place(f"/match/rules/{name}", line, token.column)
        self.place("/match/rules", line, values[0].column)
        self.match["rules"] = options

    def blocks(self, line: _Line, values: list[_Token]) -> None:
        blocks: list[list[str]] = [[]]
        tokens: list[list[_Token]] = [[]]
        for token in values:
            if token.text in ("/", "|") and not token.quoted:
                blocks.append([])
                tokens.append([])
            else:
                blocks[-1].append(token.text)
                tokens[-1].append(token)
        self.match["blocks"] = blocks
        self.place("/match/blocks", line, values[0].column)
        self.block_line = (line, tokens)

    def check_blocks(self) -> None:
        """Each block of a club evening seats the seats line's people: said at the blocks line
        before any deal is read (a name mistyped there was reported at a deal of that block, as an
        unknown player of a team, or not at all when the file stopped before that block)."""
        if self.block_line is None or self.seats is None:
            return
        line, blocks = self.block_line
        people = ", ".join(self.seats)
        for number, tokens in enumerate(blocks, start=1):
            names = [token.text for token in tokens]
            stranger = next((token for token in tokens if token.text not in self.seats), None)
            if stranger is not None:
                raise line.error(
                    stranger.column,
                    f"block {number} seats {stranger.text!r}, who is not on the seats line: a block "
                    f"seats the same four players: {people}",
                    pointer=f"/match/blocks/{number - 1}",
                )
            if sorted(names) != sorted(self.seats):
                column = tokens[0].column if tokens else line.tokens[0].end + 1
                raise line.error(
                    column,
                    f"block {number} seats {', '.join(names) or 'nobody'}: a block seats the same four "
                    f"players: {people}",
                    pointer=f"/match/blocks/{number - 1}",
                )

    # ------------------------------------------------------------------ deals

    def seat_or_none(self, token: _Token) -> int | None:
        """The seat a word names (a player's name, ``dummy`` or a seat number), or ``None``."""
        seats = self.seating.names if self.seating else self.seats or []
        if token.text in seats:
            return seats.index(token.text)
        folded = [s for s, name in enumerate(seats) if name.lower() == token.text.lower()]
        if len(folded) == 1:
            return folded[0]
        if token.text.lower() == "dummy" and self.shape.people < self.shape.players:
            return self.shape.people
        if token.text.isdigit() and len(token.text) < 3 and int(token.text) < self.shape.players:
            return int(token.text)
        return None

    def seat(self, line: _Line, token: _Token, what: str) -> int:
        seat = self.seat_or_none(token)
        if seat is not None:
            return seat
        seats = self.seating.names if self.seating else self.seats or []
        known = ", ".join(seats) + (" or dummy" if self.shape.people < self.shape.players else "")
        # a club evening's later blocks seat the same people otherwise: the list is that block's
        where = "the seats line" if not self.seating or seats == self.seats else "this block's seating"
        # a number typed for a seat: seats count from 0 (the dashboard's and legal's from 1)
        numbers = (
            f"; a seat number counts from 0 ({seats[0]}) to {self.shape.players - 1}"
            if seats and token.text.isdigit()
            else ""
        )
        said = f"unknown player {token.text!r} as {what}: expected one of {known} ({where}){numbers}"
        raise line.error(token.column, said)

    def deal_line(self, line: _Line) -> None:
        if self.seats is None:
            raise line.error(1, "expected the 'seats' line before the first deal")
        tokens = line.tokens
        if self.seating is None:
            self.check_blocks()
            blocks = self.match.get("blocks")
            self.seating = Seating(self.seats, blocks, _per_block(self.match.get("rules")))
        elif self.deals:
            done = self.deals[-1]
            self.seating.after(
                redeal=done.redeal,
                tricks=len(done.tricks),
                hands=bool(done.hands),
                scored="recorded_score" in done.data,
                shape=self.shape,
            )
        seating = self.seating
        if seating.blocks and seating.counted_deals >= len(seating.blocks) * seating.per_block:
            # said here, not as the teams of a seating past the last block (a block left out of
            # the blocks line made a deal's teams "not on one team")
            raise line.error(
                tokens[0].column,
                f"the club evening has {len(seating.blocks)} blocks of {seating.per_block} "
                f"deal{'s' if seating.per_block != 1 else ''} (the blocks line); this deal is one too many",
            )
        number = len(self.deals) + 1
        if len(tokens) < 2 or tokens[1].text != str(number):
            found = tokens[1].text if len(tokens) > 1 else "nothing"
            column = tokens[1].column if len(tokens) > 1 else tokens[0].end + 1
            raise line.error(
                column, f"expected deal number {number} (deals are counted from 1), found {found!r}"
            )
        draft = _DealDraft(number, line, names=self.seating.names)
        pointer = f"/deals/{number - 1}"
        self.place(pointer, line, tokens[0].column)
        items = tokens[2:]
        if items and items[0].text.lower() == "dealer":
            if len(items) < 2:
                raise line.error(items[0].end + 1, "expected the dealer's name after 'dealer'")
            draft.dealer = self.seat(line, items[1], "dealer")
            self.place(f"{pointer}/dealer", line, items[1].column)
            items = items[2:]
        elif self.deals:
            previous = self.deals[-1]
            assert previous.dealer is not None
            draft.dealer = previous.dealer if previous.redeal else self.shape.next_dealer(previous.dealer)
        else:
            raise line.error(
                tokens[1].end + 1, "expected 'dealer NAME' on deal 1 (later deals follow the rotation)"
            )
        self.deals.append(draft)
        self.calls(line, items, draft, pointer)

    def calls(self, line: _Line, items: list[_Token], draft: _DealDraft, pointer: str) -> None:
        assert draft.dealer is not None
        callers = Callers(self.shape, draft.dealer)
        i = 0
        while i < len(items):
            token = items[i]
            word = token.text.lower()
            i += 1
            if word == "dealer":
                raise line.error(token.column, "write the dealer first: 'deal N dealer NAME' then the calls")
            if word == "score":
                i = self.score(line, items, i, draft, token)
                continue
            call, suit = word, None
            if word in ("blind", "en"):
                second = "muil" if word == "blind" else "face"
                if i >= len(items) or items[i].text.lower() != second:
                    raise line.error(token.end + 1, f"expected '{word} {second}'")
                call = "blind_muil" if word == "blind" else "en_face"
                i += 1
            elif word not in _CALL_WORDS:
                raise line.error(
                    token.column,
                    f"expected a call (trump S, muil, blind muil, en face, klop NAME, tegenklop NAME, "
                    f"pass, redeal) or 'score', found {token.text!r}",
                )
            if call == "trump":
                if i >= len(items):
                    raise line.error(token.end + 1, f"expected {_SUIT_EXAMPLE} after 'trump'")
                suit = SUIT_BY_TEXT.get(items[i].text.lower().replace("\ufe0f", ""))
                if suit is None:
                    raise line.error(items[i].column, f"expected {_SUIT_EXAMPLE}, found {items[i].text!r}")
                i += 1
            seat = callers.default(call)
            named = None
            if i < len(items) and items[i].text.lower() not in _DEAL_WORDS:
                who = f"the player who says {call.replace('_', ' ')}"
                # An optional name is taken only when it names someone; a mistyped call is then
                # reported as a call, not as an unknown player.
                named = self.seat(line, items[i], who) if seat is None else self.seat_or_none(items[i])
            if named is not None:
                seat = named
                i += 1
            elif seat is None:
                raise line.error(
                    token.end + 1, f"expected the name of the player who says {call} after {call!r}"
                )
            where = f"{pointer}/declarations/{len(draft.declarations)}"
            self.place(where, line, token.column)
            declaration: dict[str, Any] = {"seat": seat, "call": call}
            if suit is not None:
                declaration["suit"] = suit.name
            draft.declarations.append(declaration)
            draft.redeal = draft.redeal or call == "redeal"
            callers.called(call)

    def team(self, line: _Line, token: _Token, draft: _DealDraft) -> int:
        assert draft.dealer is not None
        teams = set()
        # a quoted name is one name, an '&' in it too (the writer quotes such a name alone)
        for part in token.names or ([token.text] if token.quoted else token.text.split("&")):
            seat = self.seat(line, _Token(part, token.column, token.end), "a team")
            teams.add(self.shape.team_of(seat, draft.dealer))
        if len(teams) != 1:
            names = self.seating.names if self.seating else self.seats or []
            sides: dict[int, list[str]] = {}
            for seat in range(self.shape.players):
                name = names[seat] if seat < len(names) else "dummy"
                sides.setdefault(self.shape.team_of(seat, draft.dealer), []).append(name)
            said = " and ".join(" & ".join(side) for _, side in sorted(sides.items()))
            said = f"{token.text!r} are not on one team in this deal: the teams are {said}"
            raise line.error(token.column, said)
        return teams.pop()

    def score(self, line: _Line, items: list[_Token], i: int, draft: _DealDraft, key: _Token) -> int:
        pointer = f"/deals/{draft.number - 1}/recorded_score"
        self.once(pointer, line, key.column, f"the score of deal {draft.number}")
        if i < len(items) and items[i].text in ("30-30", "30/30"):
            draft.data["recorded_score"] = None
            self.place(pointer, line, items[i].column)
            return i + 1
        if i + 1 >= len(items) or not items[i + 1].text.isdigit():
            column = items[i].column if i < len(items) else key.end + 1
            raise line.error(
                column, "expected 'score TEAM POINTS' (TEAM as Anna&Carla or one name) or 'score 30-30'"
            )
        team = self.team(line, items[i], draft)
        draft.data["recorded_score"] = {"team": team, "points": _whole(line, items[i + 1])}
        self.place(pointer, line, items[i].column)
        self.place(f"{pointer}/points", line, items[i + 1].column)
        return i + 2

    def cards(self, line: _Line, tokens: list[_Token], pointer: str) -> list[str]:
        cards = []
        for i, token in enumerate(tokens):
            card = CARD_BY_TEXT.get(token.text)
            if card is None:
                raise line.error(token.column, _unknown_card(token.text), pointer=f"{pointer}/{i}")
            self.place(f"{pointer}/{i}", line, token.column)
            cards.append(CARD_TEXT[card])
        return cards

    def trick(self, line: _Line, draft: _DealDraft) -> None:
        pointer = f"/deals/{draft.number - 1}/tricks/{len(draft.tricks)}"
        first = line.tokens[0]
        if first.text.lower() in HEADER_WORDS or first.text.lower() in _DEAL_WORDS:
            raise line.error(
                first.column, f"{first.text!r} belongs on the deal line or before the first deal"
            )
        rest = line.tokens[1:]
        if (
            first.text not in CARD_BY_TEXT
            and len(first.text) <= 3
            and any(t.text in CARD_BY_TEXT for t in rest)
        ):
            # a trick whose first card was mistyped ("11S JS AS 7S"): said as the card it is
            self.cards(line, line.tokens, pointer)
        if first.text not in CARD_BY_TEXT:
            raise line.error(
                first.column,
                f"expected a trick (its cards in the order played) or one of "
                f"{', '.join(BODY_WORDS)}, found {first.text!r}",
            )
        self.place(pointer, line, first.column)
        draft.tricks.append(self.cards(line, line.tokens, pointer))

    def seat_and_cards(self, line: _Line, what: str) -> tuple[_Token, list[_Token]]:
        tokens, stop = line.scan(line.tokens[0].end, stop=":")
        if stop >= 0:
            if len(tokens) != 1:
                column = tokens[1].column if len(tokens) > 1 else line.tokens[0].end + 1
                raise line.error(column, f"expected '{what} NAME: cards'")
            rest, _ = line.scan(stop)
            return tokens[0], rest
        if len(line.tokens) < 2:
            raise line.error(line.tokens[0].end + 1, f"expected '{what} NAME: cards'")
        return line.tokens[1], line.tokens[2:]

    def body_hand(self, line: _Line, draft: _DealDraft) -> None:
        who, tokens = self.seat_and_cards(line, "hand")
        seat = self.seat(line, who, "the hand's owner")
        pointer = f"/deals/{draft.number - 1}/hands/{seat}"
        if seat in draft.hands:
            raise line.error(who.column, f"{who.text}'s hand is given twice")
        self.place(pointer, line, who.column)
        self.place(f"/deals/{draft.number - 1}/hands", line, line.tokens[0].column)
        draft.hands[seat] = self.cards(line, tokens, pointer)

    def body_table(self, line: _Line, draft: _DealDraft) -> None:
        who, tokens = self.seat_and_cards(line, "table")
        seat = self.seat(line, who, "the table's owner")
        pointer = f"/deals/{draft.number - 1}/table/{seat}"
        self.once(pointer, line, who.column, f"{who.text}'s table")
        self.place(pointer, line, who.column)
        self.place(f"/deals/{draft.number - 1}/table", line, line.tokens[0].column)
        piles = []
        for p, token in enumerate(tokens):
            parts = token.text.split("/")
            if len(parts) != 2:
                raise line.error(
                    token.column, f"expected a pile as FACEDOWN/FACEUP such as 7S/10S, found {token.text!r}"
                )
            down = _Token(parts[0], token.column, token.end)
            up = _Token(parts[1], token.column + len(parts[0]) + 1, token.end)
            piles.append(self.cards(line, [down, up], f"{pointer}/{p}"))
        draft.table[seat] = piles

    def body_discards(self, line: _Line, draft: _DealDraft) -> None:
        pointer = f"/deals/{draft.number - 1}/discards"
        self.once(pointer, line, line.tokens[0].column, "the cards laid aside")
        self.place(pointer, line, line.tokens[0].column)
        draft.data["discards"] = self.cards(line, line.tokens[1:], pointer)

    def body_turned(self, line: _Line, draft: _DealDraft) -> None:
        pointer = f"/deals/{draft.number - 1}/turned"
        if len(line.tokens) != 2:
            raise line.error(line.tokens[0].column, "expected one card after 'turned', such as turned KD")
        self.once(pointer, line, line.tokens[0].column, "the turned card")
        self.place(pointer, line, line.tokens[1].column)
        draft.data["turned"] = self.cards(line, line.tokens[1:], pointer)[0]

    def number(self, line: _Line, tokens: list[_Token], i: int, what: str) -> int:
        if i >= len(tokens) or not tokens[i].text.isdigit() or _whole(line, tokens[i]) < 1:
            column = tokens[i].column if i < len(tokens) else tokens[-1].end + 1
            raise line.error(column, f"expected the {what} number (counted from 1)")
        return _whole(line, tokens[i])

    def body_move(self, line: _Line, draft: _DealDraft) -> None:
        tokens = line.tokens
        moves = draft.data.setdefault("table_moves", [])
        self.place(f"/deals/{draft.number - 1}/table_moves/{len(moves)}", line, tokens[0].column)
        if len(tokens) < 4 or tokens[2].text.lower() != "trick":
            raise line.error(tokens[0].end + 1, "expected 'move NAME trick T' or 'move NAME trick T play P'")
        move: dict[str, Any] = {
            "seat": self.seat(line, tokens[1], "the player who moves"),
            "trick": self.number(line, tokens, 3, "trick"),
        }
        if len(tokens) > 4:
            if tokens[4].text.lower() != "play":
                raise line.error(tokens[4].column, "expected 'play P' or the end of the line")
            move["play"] = self.number(line, tokens, 5, "play")
        moves.append(move)

    def body_score(self, line: _Line, draft: _DealDraft) -> None:
        end = self.score(line, line.tokens, 1, draft, line.tokens[0])
        if end < len(line.tokens):
            raise line.error(line.tokens[end].column, "nothing may follow the score but a # comment")

    def body_penalty(self, line: _Line, draft: _DealDraft) -> None:
        tokens = line.tokens
        penalties = draft.data.setdefault("penalties", [])
        pointer = f"/deals/{draft.number - 1}/penalties/{len(penalties)}"
        self.place(pointer, line, tokens[0].column)
        if len(tokens) < 2:
            raise line.error(tokens[0].end + 1, "expected 'penalty TEAM [POINTS] [reason]'")
        penalty: dict[str, Any] = {"team": self.team(line, tokens[1], draft)}
        end = tokens[1].end
        if len(tokens) > 2 and tokens[2].text.isdigit() and not tokens[2].quoted:
            penalty["points"] = _whole(line, tokens[2])
            self.place(f"{pointer}/points", line, tokens[2].column)
            end = tokens[2].end
        reason, _ = line.rest(end)
        if reason or (len(tokens) > 2 and tokens[-1].quoted):
            penalty["reason"] = reason
        penalties.append(penalty)

    def body_note(self, line: _Line, draft: _DealDraft) -> None:
        notes = draft.data.setdefault("annotations", [])
        pointer = f"/deals/{draft.number - 1}/annotations/{len(notes)}"
        self.place(pointer, line, line.tokens[0].column)
        tokens, stop = line.scan(line.tokens[0].end, stop=":")
        if stop < 0:
            # just past the note's last word: a comment after it is no part of what is missing
            words_end = tokens[-1].end if tokens else line.tokens[0].end
            raise line.error(words_end + 1, "expected 'note [trick T [play P]] AUTHOR [tags]: text'")
        note: dict[str, Any] = {}
        i = 0
        for word in ("trick", "play"):
            if i < len(tokens) and tokens[i].text.lower() == word and not tokens[i].quoted:
                note[word] = self.number(line, tokens, i + 1, word)
                i += 2
        if _is_word(tokens, i, "line") and _is_card(tokens, i + 1):
            # a variation: the cards up to the author (an author spelt like a card is quoted)
            end = i + 1
            while _is_card(tokens, end):
                end += 1
            self.place(f"{pointer}/line", line, tokens[i].column)
            note["line"] = self.cards(line, tokens[i + 1 : end], f"{pointer}/line")
            i = end
        if i >= len(tokens):
            raise line.error(stop, "expected the author of the note before ':'")
        author = tokens[i]
        note["author"] = author.text
        tags = line.raw[author.end : stop - 1].strip()
        if tags:
            if not (tags.startswith("[") and tags.endswith("]")):
                raise line.error(
                    author.end + 2, "expected tags in brackets such as [good, vetten] before ':'"
                )
            note["tags"] = _tags(line, tags[1:-1], line.raw.index("[", author.end) + 2)
        note["text"], _ = line.rest(stop)
        notes.append(note)

    def finish(self, draft: _DealDraft) -> dict[str, Any]:
        deal: dict[str, Any] = {"dealer": draft.dealer}
        shape = self.shape
        if draft.hands:
            missing = [s for s in range(shape.people) if s not in draft.hands]
            if missing:
                names = draft.names
                who = names[missing[0]] if missing[0] < len(names) else f"seat {missing[0] + 1}"
                raise draft.line.error(
                    1, f"deal {draft.number}: {who}'s hand is missing: give every hand or none"
                )
            deal["hands"] = [draft.hands.get(s, []) for s in range(shape.players)]
        if draft.table:
            deal["table"] = [draft.table.get(s, []) for s in range(shape.players)]
        for name in ("discards", "table_moves", "turned"):
            if name in draft.data:
                deal[name] = draft.data[name]
        if draft.declarations:
            deal["declarations"] = draft.declarations
        if draft.tricks:
            deal["tricks"] = draft.tricks
        for name in ("recorded_score", "penalties", "annotations"):
            if name in draft.data:
                deal[name] = draft.data[name]
        return deal


def _parse(text: str, first_line: int, source: str | None, variant: str | None = None) -> ParsedMatch:
    try:
        return _Parser(text, first_line, source, variant).run()
    except NotationError as error:
        raise InvalidRecordError([error]) from None


def _is_word(tokens: Sequence[_Token], i: int, word: str) -> bool:
    """Whether token ``i`` is the notation's ``word`` (not quoted, any case)."""
    return i < len(tokens) and not tokens[i].quoted and tokens[i].text.lower() == word


def _is_card(tokens: Sequence[_Token], i: int) -> bool:
    """Whether token ``i`` is a card (not quoted)."""
    return i < len(tokens) and not tokens[i].quoted and tokens[i].text in CARD_BY_TEXT


def _tags(line: _Line, text: str, column: int) -> list[str]:
    """The tags between brackets: words or quoted texts, separated by commas."""
    tags: list[str] = []
    decoder = json.JSONDecoder()
    i = 0
    while i < len(text):
        while i < len(text) and text[i].isspace():
            i += 1
        if i < len(text) and text[i] == '"':
            try:
                value, i = decoder.raw_decode(text, i)
            except json.JSONDecodeError:
                raise line.error(column + i, "this quoted tag has no closing quote") from None
            tags.append(str(value))
            comma = text.find(",", i)
            i = len(text) if comma < 0 else comma + 1
        else:
            comma = text.find(",", i)
            end = len(text) if comma < 0 else comma
            if text[i:end].strip():
                tags.append(text[i:end].strip())
            i = end + 1
    return tags


def _option_value(text: str) -> Any:
    """A rule option's value as typed: true/false, none, a whole number, numbers with commas, or text.

    Numbers longer than ``_DIGITS`` were refused at their column before this reads them.
    """
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("none", "null"):
        return None
    if text.isdigit():
        return int(text)
    if text[:1] == "-" and text[1:].isdigit() and len(text) <= _DIGITS + 1:
        return -int(text[1:])  # out of range for most options: said so, not "a text"
    if "," in text and all(part.isdigit() for part in text.split(",")):
        return [int(part) for part in text.split(",")]
    return text


_DIGITS = 9
"""The most digits a number in the text may have: every number the rules allow is far smaller."""


def _whole(line: _Line, token: _Token) -> int:
    """A whole number as typed, refused where it has more digits than any the rules allow."""
    if len(token.text) > _DIGITS:
        raise line.error(
            token.column, f"{token.text[:12]}... is too large: a number has at most {_DIGITS} digits"
        )
    return int(token.text)


class Seating:
    """The names at the table, deal by deal: a club evening seats its players anew for each block
    of ``deals`` counted deals (played or written down; redeals and abandoned deals do not count)."""

    def __init__(self, seats: list[str], blocks: list[list[str]] | None, per_block: int) -> None:
        self.seats = seats
        self.blocks = blocks
        self.per_block = per_block
        self.counted_deals = 0

    @property
    def names(self) -> list[str]:
        """The seating of the deal about to start."""
        if not self.blocks:
            return self.seats
        return self.blocks[min(self.counted_deals // self.per_block, len(self.blocks) - 1)]

    def after(self, *, redeal: bool, tricks: int, hands: bool, scored: bool, shape: Variant) -> None:
        """Follow a finished deal."""
        abandoned = hands and tricks < shape.tricks and not (tricks == 0 and scored)
        if not redeal and not abandoned and (tricks or scored):
            self.counted_deals += 1


def _per_block(rules: Any) -> int:
    deals = rules.get("deals") if isinstance(rules, dict) else None
    return deals if isinstance(deals, int) and deals > 0 else Rules().deals


class Callers:
    """Who makes a call when the text names nobody: the dealer, the partner after en face, the
    next teammate after a pass. Reading and writing share it, so a name is written only where it
    differs from this."""

    def __init__(self, shape: Variant, dealer: int) -> None:
        self.shape = shape
        self.dealer = dealer
        self.chooser = dealer

    def default(self, call: str) -> int | None:
        """The seat that makes ``call`` unless named; ``None`` when it must be named."""
        if call in ("klop", "tegenklop"):
            return None
        return self.dealer if call in ("en_face", "redeal") else self.chooser

    def called(self, call: str) -> None:
        """Follow a call made."""
        if call == "en_face":
            partner = self.shape.partner_of(self.dealer)
            self.chooser = self.chooser if partner is None else partner
        elif call == "pass":
            self.chooser = (self.chooser + 2) % self.shape.players


# --------------------------------------------------------------------------- writing


def dumps_text(records: Record | Iterable[Record]) -> str:
    """Matches in the canonical text form, separated by a blank line.

    >>> from manillen_replay.record.model import MatchInfo, RecordedScore
    >>> record = Record(format="manillen/1", match=MatchInfo(seats=["A", "B", "C", "D"]),
    ...                 deals=[Deal(dealer=3, recorded_score=RecordedScore(team=0, points=6))])
    >>> print(dumps_text(record), end="")
    seats A B C D
    <BLANKLINE>
    deal 1  dealer D  score A&C 6
    """
    if isinstance(records, Record):
        records = [records]
    return "\n".join(_write_match(record) for record in records)


def _write_match(record: Record) -> str:
    match = record.match
    # an unnamed seat has no word the reader takes back (``dummy`` is the dummy's, a number no name)
    seats_wrong = seats_problem(_variant_name(record), match.seats)
    if seats_wrong is not None:
        raise InvalidRecordError([RecordError(seats_wrong, "/match/seats")])
    lines: list[str] = []
    for word in ("match", "date", "venue", "event", "notes"):
        value = getattr(match, "id" if word == "match" else word)
        if value is not msgspec.UNSET:
            lines.append(f"{word} {_free_text(str(value))}")
    if match.variant is not msgspec.UNSET:
        lines.append(f"variant {match.variant}")
    lines.append("seats " + " ".join(_word(name) for name in match.seats))
    if match.rules is not msgspec.UNSET:
        lines.append("rules " + rule_options_text(msgspec.to_builtins(match.rules)))
    if match.blocks is not msgspec.UNSET:
        lines.append("blocks " + " / ".join(" ".join(_word(n) for n in block) for block in match.blocks))
    shape = _shape(record)
    blocks = None if match.blocks is msgspec.UNSET else match.blocks
    rules = msgspec.to_builtins(match.rules) if match.rules is not msgspec.UNSET else {}
    seating = Seating(match.seats, blocks, _per_block(rules))
    for number, deal in enumerate(record.deals, start=1):
        lines.append("")
        lines.extend(_write_deal(number, deal, seating.names, shape))
        seating.after(
            redeal=any(c.call == "redeal" for c in deal.declarations or ()),
            tricks=len(deal.tricks or ()),
            hands=deal.hands is not msgspec.UNSET,
            scored=deal.recorded_score is not msgspec.UNSET,
            shape=shape,
        )
    return "\n".join(lines) + "\n"


def _write_deal(number: int, deal: Deal, names: list[str], shape: Variant) -> Iterator[str]:
    def name(seat: int) -> str:
        return _word(names[seat]) if seat < len(names) else "dummy" if seat < shape.players else str(seat)

    def team(side: int) -> str:
        people = [s for s in range(min(shape.people, len(names))) if shape.team_of(s, deal.dealer) == side]
        written = [name(s) for s in people]
        if not written:
            return str(side)
        # One quoted name stands for its team: the '&' between quoted names would not read back.
        return (
            "&".join(written)
            if all(w == names[s] for w, s in zip(written, people, strict=True))
            else written[0]
        )

    head = [f"deal {number}", f"dealer {name(deal.dealer)}"]
    callers = Callers(shape, deal.dealer)
    for call in deal.declarations or ():
        words = call.call.replace("_", " ")
        if call.call == "trump":
            words += f" {call.suit}"
        if call.seat != callers.default(call.call):
            words += f" {name(call.seat)}"
        head.append(words)
        callers.called(call.call)
    has_cards = any(x is not msgspec.UNSET for x in (deal.hands, deal.table, deal.tricks, deal.discards))
    score = _score(deal, team)
    if score and not has_cards:
        head.append(score)
    yield "  ".join(head)
    if deal.hands is not msgspec.UNSET:
        for seat, hand in enumerate(deal.hands):
            if hand or seat < shape.people:
                yield f"  hand {name(seat)}: " + " ".join(hand) if hand else f"  hand {name(seat)}:"
    if deal.table is not msgspec.UNSET:
        for seat, piles in enumerate(deal.table):
            if piles:
                yield f"  table {name(seat)}: " + " ".join("/".join(pile) for pile in piles)
    if deal.discards is not msgspec.UNSET:
        yield "  discards " + " ".join(deal.discards)
    if deal.turned is not msgspec.UNSET:
        yield f"  turned {deal.turned}"
    for move in deal.table_moves or ():
        play = "" if move.play is msgspec.UNSET else f" play {move.play}"
        yield f"  move {name(move.seat)} trick {move.trick}{play}"
    for trick in deal.tricks or ():
        yield "  " + " ".join(trick)
    if score and has_cards:
        yield f"  {score}"
    for penalty in deal.penalties or ():
        words = f"  penalty {team(penalty.team)}"
        if penalty.points is not msgspec.UNSET:
            words += f" {penalty.points}"
        if penalty.reason is not msgspec.UNSET:
            reason = penalty.reason
            quoted = not reason or reason[0].isdigit() or _free_text(reason) != reason
            words += " " + (_quoted(reason) if quoted else reason)
        yield words
    for note in deal.annotations or ():
        words = "  note"
        if note.trick is not msgspec.UNSET:
            words += f" trick {note.trick}"
        if note.play is not msgspec.UNSET:
            words += f" play {note.play}"
        if note.line is not msgspec.UNSET:
            words += " line " + " ".join(note.line)
        author_is_card = note.line is not msgspec.UNSET and note.author in CARD_BY_TEXT
        reserved = ("trick", "play", "line", "[")
        author = _quoted(note.author) if author_is_card else _word(note.author, reserved=reserved)
        words += f" {author}"
        if note.tags is not msgspec.UNSET:
            words += " [" + ", ".join(_word(t, extra=",[]") for t in note.tags) + "]"
        yield f"{words}: {_free_text(note.text)}"


def _score(deal: Deal, team: Any) -> str:
    if deal.recorded_score is msgspec.UNSET:
        return ""
    if deal.recorded_score is None:
        return "score 30-30"
    return f"score {team(deal.recorded_score.team)} {deal.recorded_score.points}"


def rule_options_text(options: dict[str, Any]) -> str:
    """A record's rules object as the notation's ``rules`` line writes it (after the word).

    >>> rule_options_text({"target": 61, "cafe": {"en_face": True}, "extension": [121, 151]})
    'target=61 cafe.en_face=true extension=121,151'
    """
    return " ".join(_rule_pairs(options))


def _rule_pairs(options: dict[str, Any], prefix: str = "") -> Iterator[str]:
    for name, value in options.items():
        if isinstance(value, dict):
            yield from _rule_pairs(value, f"{prefix}{name}.")
        elif isinstance(value, bool):
            yield f"{prefix}{name}={'true' if value else 'false'}"
        elif value is None:
            yield f"{prefix}{name}=none"
        elif isinstance(value, list):
            yield f"{prefix}{name}=" + ",".join(str(v) for v in value)
        else:
            yield f"{prefix}{name}={value}"


def _free_text(value: str) -> str:
    """Free text as is, or quoted where reading it back as is would change it."""
    plain = (
        value
        and value == value.strip()
        and "#" not in value
        and not value.startswith('"')
        and value.isprintable()
    )
    return value if plain else _quoted(value)


_LINE_BREAKS = {"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}
"""Characters other programs may take for line breaks that JSON does not escape: escaped in
quoted text, so every line of the notation is one line to every reader."""


def _quoted(value: str) -> str:
    """A text as a JSON string, the characters of :data:`_LINE_BREAKS` escaped too.

    >>> print(_quoted("a\u2028b"))
    "a\\u2028b"
    """
    text = json.dumps(value, ensure_ascii=False)
    if any(char in text for char in _LINE_BREAKS):
        text = "".join(_LINE_BREAKS.get(char, char) for char in text)
    return text


def _word(value: str, *, reserved: tuple[str, ...] = (), extra: str = "") -> str:
    """One word as is, or quoted when it holds spaces or characters the notation reads (a comma
    too: the seats line reads ``Anna, Bert`` as Anna and Bert)."""
    special = set('#":&/|,' + extra)
    plain = (
        value
        and value.isprintable()
        and not any(c.isspace() or c in special for c in value)
        and value.lower() not in reserved
        and value.lower() not in _DEAL_WORDS
        and value.lower() != "dummy"
    )
    return value if plain else _quoted(value)


def is_text_name(name: str) -> bool:
    """Whether a file name is one of the notation's (``.mnl``, any case)."""
    return name.lower().endswith(".mnl")


def looks_like_notation(data: bytes) -> bool:
    """Whether a file's bytes start as a match in the notation: its first line that is neither
    blank nor a comment starts with a header word (``match``, ``seats``, ...). What a file saved
    as ``.txt`` (Notepad's and most phones' default) is read as, where JSON could not start so.

    >>> looks_like_notation(b"# gisteren\\nmatch zwaan-1\\nseats A B C D\\n")
    True
    >>> looks_like_notation(b'{"format": "manillen/1"}')
    False
    """
    for raw in data[:4096].removeprefix(b"\xef\xbb\xbf").split(b"\n"):
        line = raw.strip()
        if not line or line.startswith(b"#"):
            continue
        word = line.split(None, 1)[0].decode("utf-8", "replace").lower()
        return word in HEADER_WORDS
    return False


__all__ = [
    "Callers",
    "ParsedMatch",
    "comment_lines",
    "dumps_text",
    "is_text_name",
    "loads_text",
    "looks_like_notation",
    "parse_located",
    "parse_match",
    "split_matches",
]
