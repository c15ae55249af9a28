"""What a decoded record must also satisfy beyond the schema, and its one normal form.

The schema bounds each number on its own; these checks look across a deal: every card is dealt
at most once (the hands of a redeal too, which the replay does not play), and a recorded score
is no more than the rules let one deal score. Every reader (JSON, JSON Lines, the text notation)
runs them through :func:`~manillen_replay.record.io.loads`, so each refusal carries its JSON
pointer (or, in the text notation, its line and column).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

import msgspec

from ..errors import ManillenError, RecordError
from ..rules import VARIANTS, Rules, highest_deal_score, highest_multiplier
from .model import Deal, Record

EMPTY_AS_ABSENT = ("tricks", "declarations", "table_moves", "penalties", "annotations")
"""The lists of a deal where an empty list says what no list says: read as absent
(docs/format.md), so that a record reads the same from JSON and from the text notation, which
has no way to write an empty list."""


def normalize(record: Record) -> None:
    """Put a record in its one normal form, in place: an empty list of :data:`EMPTY_AS_ABSENT`,
    empty ``rules`` and empty ``rules.cafe`` are dropped, as if absent (they mean the same)."""
    rules = record.match.rules
    if rules is not msgspec.UNSET:
        if rules.cafe is not msgspec.UNSET and _all_unset(rules.cafe):
            rules.cafe = msgspec.UNSET
        if _all_unset(rules):
            record.match.rules = msgspec.UNSET
    unset = msgspec.UNSET
    for deal in record.deals:
        # EMPTY_AS_ABSENT one by one: a loop of getattr costs more than the rest of reading a deal.
        if deal.tricks is not unset and not deal.tricks:
            deal.tricks = unset
        if deal.declarations is not unset and not deal.declarations:
            deal.declarations = unset
        if deal.table_moves is not unset and not deal.table_moves:
            deal.table_moves = unset
        if deal.penalties is not unset and not deal.penalties:
            deal.penalties = unset
        if deal.annotations is not unset and not deal.annotations:
            deal.annotations = unset


_RULES_SEEN: dict[tuple[bytes, str | None], Rules] = {}
"""The rules of the option sets met so far: an archive's records share a handful."""
_RULES_KEPT = 256
_encode = msgspec.json.Encoder().encode


def record_rules(record: Record) -> Rules:
    """The rules a record is played under: its variant and options over the defaults (worked
    out once for each set of options met).

    :raises InvalidOptionError: for an option value the rules do not know.
    """
    match = record.match
    options, variant = match.rules, match.variant
    key = (
        b"" if options is msgspec.UNSET else _encode(options),
        None if variant is msgspec.UNSET else variant,
    )
    rules = _RULES_SEEN.get(key)
    if rules is None:
        given = msgspec.to_builtins(options) if options is not msgspec.UNSET else {}
        if variant is not msgspec.UNSET:
            given["variant"] = variant
        rules = Rules.from_options(given)
        if len(_RULES_SEEN) >= _RULES_KEPT:
            _RULES_SEEN.clear()
        _RULES_SEEN[key] = rules
    return rules


def seats_problem(variant: str, seats: Sequence[str]) -> str | None:
    """What is wrong with the number of names in ``match.seats`` (at ``/match/seats``), or
    ``None``: the format names the player of every seat a person plays, no more (the dummy of
    ``three_dummy`` is played by the dealer and has no name).

    >>> problem = seats_problem("four", ["Anna", "Bert", "Carla"])
    >>> problem.startswith("'four' is played by 4 players, the record names 3: name every player")
    True
    >>> problem.endswith(", or give the variant played by 3 (three, three_dummy)")
    True
    >>> seats_problem("three", ["Anna", "Bert", "Carla", "Dirk"]).split(": ")[1]
    'name only its 3 players, or give the variant played by 4 (four)'
    >>> seats_problem("three_dummy", ["Anna", "Bert", "Carla"]) is None
    True
    """
    people = VARIANTS[variant].people
    if len(seats) == people:
        return None
    named = len(seats)
    fitting = [name for name, shape in VARIANTS.items() if shape.people == named]
    # a player left out (or one too many), or a variant not said: the writer is told both ways out
    other = f", or give the variant played by {named} ({', '.join(fitting)})" if fitting else ""
    fix = "name every player" if named < people else f"name only its {people} players"
    return f"{variant!r} is played by {people} players, the record names {named}: {fix}{other}"


def _all_unset(options: msgspec.Struct) -> bool:
    return all(value is msgspec.UNSET for value in msgspec.structs.astuple(options))


def record_problems(record: Record) -> list[RecordError]:
    """What is wrong with a decoded record beyond the schema, each with its JSON pointer: a card
    dealt twice in a deal's hands (redeals included), a recorded score over what the rules allow.

    >>> from manillen_replay.record.model import MatchInfo, RecordedScore
    >>> record = Record(format="manillen/1", match=MatchInfo(seats=["A", "B", "C", "D"]),
    ...                 deals=[Deal(dealer=3, recorded_score=RecordedScore(team=0, points=30720))])
    >>> [(problem.pointer, problem.message[:46]) for problem in record_problems(record)]
    [('/deals/0/recorded_score/points', 'a recorded score of 30,720 points is more than')]
    """
    problems: list[RecordError] = []
    for d, deal in enumerate(record.deals):
        problems.extend(_dealt_twice(deal, f"/deals/{d}"))
    problems.extend(scores_over(record))
    return problems


def _dealt_cards(deal: Deal) -> Iterator[tuple[str, str]]:
    """Every card a deal's hands, table piles and laid-aside cards give, with its pointer below the deal."""
    if deal.hands is not msgspec.UNSET:
        for s, hand in enumerate(deal.hands):
            for i, card in enumerate(hand):
                yield card, f"hands/{s}/{i}"
    if deal.table is not msgspec.UNSET:
        for s, piles in enumerate(deal.table):
            for p, pile in enumerate(piles):
                for i, card in enumerate(pile):
                    yield card, f"table/{s}/{p}/{i}"
    if deal.discards is not msgspec.UNSET:
        for i, card in enumerate(deal.discards):
            yield card, f"discards/{i}"


def _all_different(deal: Deal) -> bool:
    """Whether no card is given twice among a deal's hands, table piles and laid-aside cards."""
    chain = itertools.chain.from_iterable
    cards = list(chain(deal.hands))  # type: ignore[arg-type]  # the caller checked it is set
    if deal.table is not msgspec.UNSET:
        cards.extend(chain(chain(deal.table)))
    if deal.discards is not msgspec.UNSET:
        cards.extend(deal.discards)
    return len(set(cards)) == len(cards)


def _dealt_twice(deal: Deal, pointer: str) -> list[RecordError]:
    """Each card dealt a second time in a deal that gives its hands (a redeal too)."""
    if deal.hands is msgspec.UNSET:
        return []
    if _all_different(deal):  # nearly every deal: no pointers to work out
        return []
    seen: dict[str, str] = {}
    problems: list[RecordError] = []
    for card, where in _dealt_cards(deal):
        if card in seen:
            problems.append(
                RecordError(
                    f"{card!r} was dealt twice (also at {pointer}/{seen[card]})", f"{pointer}/{where}"
                )
            )
        else:
            seen[card] = where
    return problems


_BOUNDS: dict[Rules, int | None] = {}
"""The most one deal scores under each set of rules met so far (an archive's records share a
handful; working it out takes longer than replaying a deal)."""


def _highest_deal_score(rules: Rules) -> int | None:
    if rules not in _BOUNDS:
        if len(_BOUNDS) >= _RULES_KEPT:
            _BOUNDS.clear()
        _BOUNDS[rules] = highest_deal_score(rules)
    return _BOUNDS[rules]


def scores_over(record: Record) -> list[RecordError]:
    """Each recorded score over the most one deal can score under the record's rules."""
    scored = [
        (d, deal.recorded_score.points)
        for d, deal in enumerate(record.deals)
        if deal.recorded_score is not msgspec.UNSET and deal.recorded_score is not None
    ]
    if not scored:
        return []
    try:
        rules = record_rules(record)
    except (ManillenError, ValueError, TypeError):  # the replay names a bad option
        return []
    bound = _highest_deal_score(rules)
    if bound is None or all(points <= bound for _, points in scored):
        return []
    factor = highest_multiplier(rules) or 1
    why = (
        f"a capot's fixed score ({rules.capot})"
        if bound > 30 * factor
        else f"{bound // factor} card points over the half, times the highest factor {factor}"
    )
    return [
        RecordError(
            f"a recorded score of {points:,} points is more than one deal can score under these rules: "
            f"at most {bound:,} ({why})",
            f"/deals/{d}/recorded_score/points",
        )
        for d, points in scored
        if points > bound
    ]
