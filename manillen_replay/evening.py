"""A club evening: the players present, their tables, the blocks and who partners whom.

Pure data and rules, no I/O (the archive keeps an evening: :mod:`manillen_replay.store.evenings`).

The club format is the four-player game with ``format: fixed``: a table plays a block of
``deals`` deals (12 by default), then partners rotate and the table plays another block, and
a third: three blocks, in which each of the four players partners each of the other three once
(:func:`club_blocks`). An evening seats its players in tables of four; with more than one round
the tables are drawn again for each round (:func:`seat_rounds`).

The rotation rule, so that every player partners each other as evenly as possible:

- within a table, the three blocks are the three ways to split four players into two pairs,
  so each player partners each tablemate exactly once;
- the first round seats the players in the order given (the first four at table 1, the next
  four at table 2, ...), so an organiser who wants a draw pastes the names drawn;
- each further round fills the tables one seat at a time: a table starts with the first player
  not yet seated, and each next seat goes to the player who has sat least often with any one
  player already at that table, then least often with them all (ties: the earliest in the
  list). This is tried starting from each player in turn, and the round kept is the one in
  which no pair meets more often than in the others, then with the fewest pairs sitting
  together again (ties: the earliest start). Players meet again mostly when no one new is
  left for them; the draw is not an exhaustive search, so it may miss an evening with fewer
  repeats.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from manillen_replay.errors import InvalidOptionError
from manillen_replay.rules import Rules

TABLE_SIZE = 4
"""The club format is the four-player game."""
MAX_PLAYERS = 80
"""The most players of one evening (twenty tables): a café's club evening is four to ten."""
MAX_ROUNDS = 5
"""The most rounds of one evening: a round is three blocks, some two hours."""
MAX_NAME = 40
"""The longest player name, in characters."""


def club_blocks(four: Sequence[str]) -> list[list[str]]:
    """The seatings of a table's three blocks: partners (seats 0 and 2, 1 and 3) rotate, so each
    player partners each of the others once.

    >>> club_blocks(["Anna", "Bert", "Carla", "Dirk"])
    [['Anna', 'Bert', 'Carla', 'Dirk'], ['Anna', 'Carla', 'Bert', 'Dirk'], ['Anna', 'Bert', 'Dirk', 'Carla']]
    """
    a, b, c, d = four
    return [[a, b, c, d], [a, c, b, d], [a, b, d, c]]


def parse_names(text: str) -> list[str]:
    """The player names of a pasted list: one a line, or separated by commas or semicolons;
    blank entries and list markers (``1.``, ``-``, ``*``) are dropped, spaces tidied.

    >>> parse_names("1. Anna\\n2. Bert, Carla;  Dirk  \\n- Eva\\n\\n")
    ['Anna', 'Bert', 'Carla', 'Dirk', 'Eva']
    """
    names = []
    for line in text.replace(";", "\n").replace(",", "\n").splitlines():
        name = " ".join(line.split())
        name = name.lstrip("-*•").strip()
        head, _, rest = name.partition(" ")
        if rest and head.rstrip(".)").isdigit() and head[-1] in ".)":
            name = rest.strip()
        if name:
            names.append(name)
    return names


PLAYER_LIST_PROBLEMS: dict[str, str] = {
    "too_few": "an evening needs at least {least} players, {given} given",
    "too_many": "an evening has at most {most} players, {given} given",
    "no_name": "a player has no name",
    "too_long": "the name {name}... is over {most} characters",
    "twice": "{name} is on the list twice: give each player once",
    "not_tables": "{given} players do not make full tables of four: add {add} or leave out {leave}",
}
"""What :func:`player_list_problem` finds, in English (the dashboard says each in its languages)."""


def player_list_problem(players: Sequence[str]) -> tuple[str, dict[str, Any]] | None:
    """What is wrong with an evening's list of players, as the key of :data:`PLAYER_LIST_PROBLEMS`
    and the values its words take (a name quoted); ``None`` when nothing is.

    >>> player_list_problem(["Ward", "Femke", "ward", "Jens"])
    ('twice', {'name': "'ward'"})
    >>> player_list_problem(["A", "B", "C", "D", "E", "F", "G"])
    ('not_tables', {'given': 7, 'add': 1, 'leave': 3})
    """
    names = [" ".join(p.split()) for p in players]
    if len(names) < TABLE_SIZE:
        return "too_few", {"least": TABLE_SIZE, "given": len(names)}
    if len(names) > MAX_PLAYERS:
        return "too_many", {"most": MAX_PLAYERS, "given": len(names)}
    seen: set[str] = set()
    for name in names:
        if not name:
            return "no_name", {}
        if len(name) > MAX_NAME:
            return "too_long", {"name": repr(name[:MAX_NAME]), "most": MAX_NAME}
        if name.casefold() in seen:
            return "twice", {"name": repr(name)}
        seen.add(name.casefold())
    if len(names) % TABLE_SIZE:
        return "not_tables", {
            "given": len(names),
            "add": TABLE_SIZE - len(names) % TABLE_SIZE,
            "leave": len(names) % TABLE_SIZE,
        }
    return None


def check_players(players: Sequence[str]) -> list[str]:
    """The players of an evening, checked.

    :raises InvalidOptionError: for a count that is not a multiple of four, a name given twice,
        a name too long, or too many players; the message says what to change.
    """
    problem = player_list_problem(players)
    if problem is not None:
        key, values = problem
        raise InvalidOptionError(PLAYER_LIST_PROBLEMS[key].format(**values))
    return [" ".join(p.split()) for p in players]


def seat_rounds(players: Sequence[str], rounds: int) -> list[list[list[str]]]:
    """Each round's tables (four names each, seat 0 first), by the rule in this module's doc.

    >>> seat_rounds(["A", "B", "C", "D", "E", "F", "G", "H"], 2)
    [[['A', 'B', 'C', 'D'], ['E', 'F', 'G', 'H']], [['A', 'E', 'B', 'F'], ['C', 'G', 'D', 'H']]]

    :raises InvalidOptionError: as :func:`check_players`, or for rounds out of 1 to MAX_ROUNDS.
    """
    names = check_players(players)
    if not 1 <= rounds <= MAX_ROUNDS:
        raise InvalidOptionError(f"an evening has 1 to {MAX_ROUNDS} rounds, {rounds} asked")
    met: dict[tuple[str, str], int] = {}
    out: list[list[list[str]]] = []
    for number in range(rounds):
        if number == 0:
            tables = [names[i : i + TABLE_SIZE] for i in range(0, len(names), TABLE_SIZE)]
        else:
            drawn = (_draw(names[k:] + names[:k], met) for k in range(len(names)))
            tables = min(drawn, key=lambda tables: _repeats(tables, met))
        for table in tables:
            for i, p in enumerate(table):
                for q in table[i + 1 :]:
                    met[_pair(p, q)] = met.get(_pair(p, q), 0) + 1
        out.append(tables)
    return out


def _draw(order: list[str], met: dict[tuple[str, str], int]) -> list[list[str]]:
    """One round's tables filled seat by seat from ``order`` (this module's rule)."""
    free = list(order)
    tables = []
    while free:
        table = [free.pop(0)]
        while len(table) < TABLE_SIZE:
            best = min(free, key=lambda p: _meetings(met, p, table))
            free.remove(best)
            table.append(best)
        tables.append(table)
    return tables


def _repeats(tables: list[list[str]], met: dict[tuple[str, str], int]) -> tuple[int, int]:
    """How often the pair at these tables that sat together most did so before, and how many
    pairs sat together before."""
    counts = [met.get(_pair(p, q), 0) for t in tables for i, p in enumerate(t) for q in t[i + 1 :]]
    return max(counts), sum(c > 0 for c in counts)


def _meetings(met: dict[tuple[str, str], int], player: str, table: list[str]) -> tuple[int, int]:
    """How often ``player`` sat with the players at ``table``: the most with any one, then in all."""
    counts = [met.get(_pair(player, other), 0) for other in table]
    return max(counts), sum(counts)


def _pair(p: str, q: str) -> tuple[str, str]:
    return (p, q) if p < q else (q, p)


def partner_counts(rounds: Sequence[Sequence[Sequence[str]]]) -> dict[tuple[str, str], int]:
    """How many blocks each pair of players partners in, over every round's tables.

    >>> partner_counts([[["A", "B", "C", "D"]]])[("A", "C")]
    1
    """
    counts: dict[tuple[str, str], int] = {}
    for tables in rounds:
        for table in tables:
            for seating in club_blocks(table):
                for team in (0, 1):
                    pair = _pair(seating[team], seating[team + 2])
                    counts[pair] = counts.get(pair, 0) + 1
    return counts


@dataclass(frozen=True)
class EveningTable:
    """One table of one round: its four players and the archive's id of its match."""

    round: int
    """Counted from 1."""
    number: int
    """The table's number, counted from 1 (the same table in every round)."""
    seats: list[str]
    """The four names clockwise, seat 0 first: the first block's seating."""
    match_id: str
    scoresheet_only: bool = False
    """The table keeps only the scoresheet (no cards)."""

    @property
    def blocks(self) -> list[list[str]]:
        """The seating of each block (:func:`club_blocks`)."""
        return club_blocks(self.seats)

    @property
    def key(self) -> str:
        """The table's name in addresses and on the recorder's token: its number."""
        return str(self.number)


@dataclass(frozen=True)
class Evening:
    """A club evening: who came, the tables of each round, the house rules."""

    evening_id: str
    date: datetime.date
    venue: str
    players: list[str]
    tables: list[EveningTable]
    rules: dict[str, Any] = field(default_factory=dict)
    """House-rule options as the record format writes them, ``format: fixed`` among them."""

    @property
    def rounds(self) -> int:
        return max((t.round for t in self.tables), default=0)

    def tables_of(self, round_number: int) -> list[EveningTable]:
        """The tables of one round, table 1 first."""
        return [t for t in self.tables if t.round == round_number]

    def rules_value(self) -> Rules:
        return Rules.from_options(self.rules)


def club_rules(options: dict[str, Any] | None = None) -> dict[str, Any]:
    """House-rule options for the club format: the options given with ``format: fixed``
    (``deals`` keeps its default of 12 unless given).

    >>> club_rules({"deals": 8, "cafe": {"en_face": True}})
    {'deals': 8, 'cafe': {'en_face': True}, 'format': 'fixed'}

    :raises InvalidOptionError: for an option the rules do not know.
    """
    chosen = {**(options or {}), "format": "fixed"}
    Rules.from_options(chosen)  # refuses an unknown option or value here, not at the first save
    return chosen


def plan_evening(
    evening_id: str,
    date: datetime.date,
    venue: str,
    players: Sequence[str],
    *,
    rounds: int = 1,
    scoresheet_tables: Sequence[int] = (),
    rules: dict[str, Any] | None = None,
    taken_ids: Sequence[str] = (),
) -> Evening:
    """Set up an evening: the tables of each round with their match ids.

    A table's match id is ``<evening id>-r<round>-t<table>`` (``-r1`` left out for a one-round
    evening), with a number added when the archive holds it already.

    :param scoresheet_tables: the numbers of the tables that keep only the scoresheet.
    :param taken_ids: match ids already in the archive (the new ones avoid them).
    :raises InvalidOptionError: as :func:`seat_rounds` and :func:`club_rules`, or for a
        scoresheet table that does not exist.
    """
    seating = seat_rounds(players, rounds)
    count = len(seating[0])
    wrong = sorted(n for n in scoresheet_tables if not 1 <= n <= count)
    if wrong:
        raise InvalidOptionError(f"there is no table {wrong[0]}: the tables are 1 to {count}")
    taken = set(taken_ids)
    tables = []
    for r, round_tables in enumerate(seating, start=1):
        for n, four in enumerate(round_tables, start=1):
            base = f"{evening_id}-t{n}" if rounds == 1 else f"{evening_id}-r{r}-t{n}"
            match_id, extra = base, 1
            while match_id in taken:
                extra += 1
                match_id = f"{base}-{extra}"
            taken.add(match_id)
            tables.append(EveningTable(r, n, list(four), match_id, n in scoresheet_tables))
    return Evening(evening_id, date, venue, check_players(players), tables, club_rules(rules))
