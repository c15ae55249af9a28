"""The words of the explanations, in English and in Dutch as Flemish players say it.

English names cards with suit symbols (``10♣``, ``A♦``); Dutch by their Flemish names
(``klaveren manille``, ``koeken heer``, ``schoppen boer``), with decimal commas and the
singular where one point is meant (``1 kaartpunt``, ``1 card point``). Every finding's
explanation is built from these, so no record-format code (``10C``) reaches a player.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from decimal import ROUND_HALF_UP, Decimal

from ..cards import CARDS, Rank, Suit
from ..engine.results import dummy_name

RANK_NL: dict[Rank, str] = {
    Rank.SIX: "zes",
    Rank.SEVEN: "zeven",
    Rank.EIGHT: "acht",
    Rank.NINE: "negen",
    Rank.JACK: "boer",
    Rank.QUEEN: "vrouw",
    Rank.KING: "heer",
    Rank.ACE: "aas",
    Rank.TEN: "manille",
}
"""The Flemish name of each rank: the 10 is the manille."""

KIND_NL: dict[str, str] = {
    "revoke": "verzaakt",
    "failed_to_overtake": "niet overgenomen",
    "failed_to_buy": "niet gekocht",
    "illegal_underbuy": "onreglementair ondergekocht",
    "score_mismatch": "verkeerd scoreblad",
    "dealer_out_of_rotation": "deler buiten de beurt",
    "played_on_after_match_won": "doorgespeeld na de partij",
    "record_slip": "regel gebroken of fout in de notatie",
    "missed_vetten": "vetten gemist",
    "bare_ace_lost": "blote aas verloren",
    "wasted_trump": "troef verspild",
    "points_thrown": "punten weggegooid",
    "unsafe_vetten": "gevet op een onzekere slag",
    "trump_overspent": "te hoge troef",
    "master_trump_smeared": "hoogste troef gevet",
    "klop_missed": "klop gemist",
    "klop_lost": "klop verloren",
    "muil_missed": "muil gemist",
    "costly_card": "dure kaart",
    "hindsight_only": "enkel achteraf",
    "trump_choice": "troefkeuze",
    "knock_choice": "klopkeuze",
}
"""The Dutch name of every built-in and solver finding kind."""

SEVERITY_NL: dict[str, str] = {
    "info": "opmerking",
    "inaccuracy": "onnauwkeurigheid",
    "mistake": "fout",
    "blunder": "blunder",
}
"""The Dutch name of each severity."""


def kind_name(kind: str, lang: str) -> str:
    """A finding kind as a player reads it: ``missed vetten``, ``vetten gemist``.

    >>> kind_name("wasted_trump", "nl"), kind_name("wasted_trump", "en")
    ('troef verspild', 'wasted trump')
    """
    if lang == "nl" and kind in KIND_NL:
        return KIND_NL[kind]
    return kind.replace("_", " ")


_SEVERITY_PLURALS = {
    "en": {"info": ("note", "notes"), "inaccuracy": ("inaccuracy", "inaccuracies"),
           "mistake": ("mistake", "mistakes"), "blunder": ("blunder", "blunders")},
    "nl": {"info": ("opmerking", "opmerkingen"), "inaccuracy": ("onnauwkeurigheid", "onnauwkeurigheden"),
           "mistake": ("fout", "fouten"), "blunder": ("blunder", "blunders")},
}  # fmt: skip


def severity_count(severity: str, count: int, lang: str) -> str:
    """``2 mistakes``, ``1 onnauwkeurigheid``, ``15 notes`` (an ``info`` finding is a note).

    >>> severity_count("mistake", 2, "nl"), severity_count("info", 1, "en")
    ('2 fouten', '1 note')
    """
    one, many = _SEVERITY_PLURALS["nl" if lang == "nl" else "en"].get(severity, (severity, severity))
    return f"{count} {one if count == 1 else many}"


def severity_name(severity: str, lang: str) -> str:
    """A severity in the reader's language.

    >>> severity_name("mistake", "nl")
    'fout'
    """
    return SEVERITY_NL.get(severity, severity) if lang == "nl" else severity


_CARD_EN = tuple(card.symbol for card in CARDS)
_CARD_NL = tuple(f"{card.suit.dutch} {RANK_NL[card.rank]}" for card in CARDS)
_SUIT_OF = tuple(int(card.suit) for card in CARDS)
_RANK_NL_OF = tuple(RANK_NL[card.rank] for card in CARDS)
_SUIT_NL = tuple(suit.dutch for suit in Suit)


def card_en(card: int) -> str:
    """A card with its suit symbol.

    >>> from manillen_replay.cards import Card
    >>> card_en(Card.C10), card_en(Card.DA)
    ('10♣', 'A♦')
    """
    return _CARD_EN[card]


def card_nl(card: int) -> str:
    """A card by its Flemish name: suit, then rank.

    >>> from manillen_replay.cards import Card
    >>> card_nl(Card.DK), card_nl(Card.C10), card_nl(Card.SJ)
    ('koeken heer', 'klaveren manille', 'schoppen boer')
    """
    return _CARD_NL[card]


def cards_en(cards: Iterable[int]) -> str:
    """Cards with suit symbols, separated by spaces: ``K♥ Q♠ 7♠``."""
    return " ".join(card_en(card) for card in cards)


def cards_nl(cards: Iterable[int], conjunction: str = "en") -> str:
    """Cards by their Flemish names, the suit said once per suit, in the order given.

    >>> from manillen_replay.cards import Card
    >>> cards_nl([Card.HK, Card.SK, Card.SQ, Card.S7])
    'harten heer, schoppen heer, vrouw en zeven'

    :param conjunction: the word before the last card (``of`` for a choice).
    """
    groups: dict[int, list[str]] = {}
    for card in cards:
        groups.setdefault(_SUIT_OF[card], []).append(_RANK_NL_OF[card])
    parts = [f"{_SUIT_NL[suit]} {ranks[0]}" for suit, ranks in groups.items()]
    names = []
    for (_, ranks), first in zip(groups.items(), parts, strict=True):
        names.append(first)
        names.extend(ranks[1:])
    return and_nl(names, conjunction)


def and_nl(items: Sequence[str], conjunction: str = "en") -> str:
    """``a``, ``a en b``, ``a, b en c``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {conjunction} " + items[-1]


def or_en(cards: Iterable[int]) -> str:
    """``K♥ or Q♠``; ``A♣, 10♣ or 10♠`` ("A♣ or 10♣ or 10♠" read as a stammer).

    >>> from manillen_replay.cards import Card
    >>> or_en([Card.HK, Card.SQ]), or_en([Card.CA, Card.C10, Card.S10])
    ('K♥ or Q♠', 'A♣, 10♣ or 10♠')
    """
    names = [card_en(card) for card in cards]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1] if names else ""


def or_nl(cards: Iterable[int]) -> str:
    """``harten heer of schoppen vrouw``; ``klaveren zeven, acht of negen``."""
    return cards_nl(cards, "of")


def suit_en(suit: int) -> str:
    """The English name of a suit."""
    return Suit(suit).english


def suit_nl(suit: int) -> str:
    """The Flemish name of a suit (harten, koeken, klaveren, schoppen)."""
    return Suit(suit).dutch


def tenths(value: float) -> float:
    """``value`` to one decimal as the findings say it: to two decimals first, as the archive
    stores a finding's points (a cost of 4.1499 said "4.1" in the words beside its finding's
    "(4.2 points)", stored as 4.15), then a half up, as a reader rounds (the points 5.25 of 2.625
    card points counted twice read "5.2" in the list beside "2.63 card points ... 5.3" in the words).

    >>> tenths(4.1499999), tenths(4.15), tenths(5.25), tenths(5.2500001), tenths(-2.25), tenths(1.2)
    (4.2, 4.2, 5.3, 5.3, -2.3, 1.2)
    """
    hundredths = Decimal(repr(round(float(value), 2)))
    return float(hundredths.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))


def number(points: float) -> str:
    """A number in English: no needless ``.0``, at most one decimal (:func:`tenths`).

    >>> number(3.0), number(1.25), number(-2.5)
    ('3', '1.3', '-2.5')
    >>> number(4.1499999), number(4.15)  # a cost and the finding's points, stored to 2 decimals
    ('4.2', '4.2')
    """
    value = tenths(points)
    return str(int(value)) if value.is_integer() else f"{value:.1f}"


def tenths_below(value: float, limit: float) -> float:
    """``value``, which lies under ``limit``, to one decimal: rounded, unless that reaches the
    limit (1.96 read "surely cost 2, under the 2 of an inaccuracy"), then cut down.

    >>> tenths_below(1.96, 2), tenths_below(2.69, 3), tenths_below(0.3, 2)
    (1.9, 2.7, 0.3)
    """
    rounded = round(value, 1)
    return rounded if rounded < limit else math.floor(value * 10 + 1e-9) / 10


def number_nl(points: float) -> str:
    """A number in Dutch: a decimal comma.

    >>> number_nl(1.5), number_nl(4.0)
    ('1,5', '4')
    """
    return number(points).replace(".", ",")


def _is_one(points: float) -> bool:
    return number(abs(points)) == "1"


def points_en(points: float, noun: str = "point") -> str:
    """``1 point``, ``3 points``, ``1 card point``, ``1.5 card points`` (``noun`` singular)."""
    return f"{number(points)} {noun if _is_one(points) else noun + 's'}"


def points_nl(points: float, noun: str = "punt") -> str:
    """``1 punt``, ``3 punten``, ``1 kaartpunt``, ``1,5 kaartpunten`` (``noun`` singular)."""
    return f"{number_nl(points)} {noun if _is_one(points) else noun + 'en'}"


def counted_number(points: float, multiplier: int, lang: str = "en") -> str:
    """Card points of a deal that counts them ``multiplier`` times, as a number that multiplies
    out to the score's figure (one decimal): to two decimals where one would not (9.95 counted
    twice is 19.9; 9.9 beside it read as a sum that does not add up).

    >>> counted_number(9.95, 2), counted_number(9.95, 2, "nl"), counted_number(9.95, 1)
    ('9.95', '9,95', '10')
    >>> counted_number(7.0, 2), counted_number(1.0625, 4), counted_number(2.625, 2)
    ('7', '1.063', '2.63')
    """
    dutch = lang == "nl"
    score = tenths(round(points * multiplier, 2))  # the finding's points, as the list says them
    if multiplier > 1 and tenths(tenths(points) * multiplier) != score:
        # as many decimals as it takes to multiply out (1.0625 counted 4 times is 4.3: 1.06 is not)
        for places in (2, 3, 4):
            shown = Decimal(repr(float(points))).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
            if tenths(float(shown) * multiplier) == score:
                break
        return str(shown).replace(".", "," if dutch else ".")
    return number_nl(points) if dutch else number(points)


def card_points_counted(points: float, multiplier: int, lang: str = "en") -> str:
    """:func:`counted_number` with its noun.

    >>> card_points_counted(11.14, 2), card_points_counted(6.95, 2, "nl"), card_points_counted(7.0, 2)
    ('11.14 card points', '6,95 kaartpunten', '7 card points')
    """
    dutch = lang == "nl"
    written = counted_number(points, multiplier, lang)
    if written.lstrip("-") == "1":
        return f"{written} {'kaartpunt' if dutch else 'card point'}"
    return f"{written} {'kaartpunten' if dutch else 'card points'}"


def counted_en(multiplier: int) -> str:
    """How many times a deal counts its points, in English: ``twice``, ``4 times``."""
    return "twice" if multiplier == 2 else f"{multiplier} times"


def counted_nl(multiplier: int) -> str:
    """How many times a deal counts its points, in Dutch: ``dubbel``, ``4 keer``."""
    return "dubbel" if multiplier == 2 else f"{multiplier} keer"


def factor_en(multiplier: int) -> str:
    """How a deal's multiplier is said in English."""
    return {2: "double", 4: "quadruple"}.get(multiplier, f"x{multiplier}")


def factor_nl(multiplier: int) -> str:
    """How a deal's multiplier is said in Dutch."""
    return {2: "dubbel", 4: "viervoudig"}.get(multiplier, f"x{multiplier}")


def card_points_en(card_points: float, multiplier: int, more: str = "") -> str:
    """``4 points``, or with a multiplier ``4 card points (8 on the scoresheet: ...)``.

    :param more: a word after the number (``more``: ``4 more points``).
    """
    word = f"{more} " if more else ""
    if multiplier == 1:
        return f"{number(card_points)} {word}{'point' if _is_one(card_points) else 'points'}"
    return (
        f"{number(card_points)} {word}{'card point' if _is_one(card_points) else 'card points'} "
        f"({number(card_points * multiplier)} on the scoresheet: the deal counted {factor_en(multiplier)})"
    )


def card_points_nl(card_points: float, multiplier: int, more: str = "") -> str:
    """The Dutch of :func:`card_points_en`: ``4 kaartpunten (8 op het scoreblad: ...)``.

    :param more: a word after the points (``meer``: ``4 punten meer``).
    """
    word = f" {more}" if more else ""
    if multiplier == 1:
        return f"{points_nl(card_points)}{word}"
    return (
        f"{points_nl(card_points, 'kaartpunt')}{word} ({number_nl(card_points * multiplier)} op het "
        f"scoreblad: het spel telde {factor_nl(multiplier)})"
    )


def more_points_en(card_points: float, multiplier: int) -> str:
    """``1 more point``, or with a multiplier ``3 more card points (6 on the scoresheet: ...)``."""
    return card_points_en(card_points, multiplier, "more")


def more_points_nl(card_points: float, multiplier: int) -> str:
    """The Dutch of :func:`more_points_en`: ``3 kaartpunten meer (6 op het scoreblad: ...)``."""
    return card_points_nl(card_points, multiplier, "meer")


def team_members(names: Sequence[str], team_of: Sequence[int], team: int) -> list[str]:
    """The people of a team, each once. The dummy of ``three_dummy`` is no player: the dealer
    plays it, so the side is the dealer alone.

    >>> team_members(["Anna", "Bert", "Carla", "blinde van Anna"], [0, 1, 1, 0], 0)
    ['Anna']

    :param team_of: the team of each seat.
    """
    # not strict: the names may stop at the people, without the dummy's seat
    side = [name for name, seat_team in zip(names, team_of, strict=False) if seat_team == team]
    dummies = {dummy_name(name, lang) for name in side for lang in ("en", "nl")}
    return list(dict.fromkeys(name for name in side if name not in dummies))


def team_names(names: Sequence[str], team_of: Sequence[int], team: int) -> str:
    """The names of a team's players, joined with ``&`` (``Anna & Carla``): its
    :func:`team_members` (the dealer alone for the side with the dummy of ``three_dummy``).

    >>> team_names(["Anna", "Bert", "Carla", "Anna's dummy"], [0, 1, 1, 0], 0)
    'Anna'

    :param team_of: the team of each seat.
    """
    return " & ".join(team_members(names, team_of, team))
