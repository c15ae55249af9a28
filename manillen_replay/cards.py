"""Suits, ranks, cards and card sets: small immutable values over the bits of an int.

A card is a number ``suit * 9 + rank``, so a set of cards is an int whose bits are the cards
(python-chess keeps squares in a bitboard the same way). Ranks are declared in trick order,
so within one suit the higher number takes the trick.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum

from .errors import InvalidCardError


class Suit(IntEnum):
    """The four suits; the letter is the record format's."""

    H = 0
    D = 1
    C = 2
    S = 3

    @property
    def symbol(self) -> str:
        """The suit symbol: ♥ ♦ ♣ ♠."""
        return "♥♦♣♠"[self]

    @property
    def is_red(self) -> bool:
        """Hearts and diamonds are drawn in red."""
        return self in (Suit.H, Suit.D)

    @property
    def dutch(self) -> str:
        """The name Flemish players use: harten, koeken, klaveren, schoppen."""
        return ("harten", "koeken", "klaveren", "schoppen")[self]

    @property
    def english(self) -> str:
        """The English name of the suit."""
        return ("hearts", "diamonds", "clubs", "spades")[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """The suit named by its letter (either case), its symbol, or its Dutch or English name.

        >>> Suit.parse("d"), Suit.parse("♣"), Suit.parse("koeken")
        (<Suit.D: 1>, <Suit.C: 2>, <Suit.D: 1>)

        :raises InvalidCardError: for anything else.
        """
        suit = SUIT_BY_TEXT.get(text.strip().lower().replace(_EMOJI_STYLE, ""))
        if suit is None:
            raise InvalidCardError(f"unknown suit {text!r}: use H, D, C or S (or ♥ ♦ ♣ ♠)")
        return suit


class Rank(IntEnum):
    """Ranks in trick order, lowest first: the 10 (manille) is the highest."""

    SIX = 0
    SEVEN = 1
    EIGHT = 2
    NINE = 3
    JACK = 4
    QUEEN = 5
    KING = 6
    ACE = 7
    TEN = 8

    @property
    def text(self) -> str:
        """The rank as the record format writes it."""
        return _RANK_TEXT[self]

    @property
    def points(self) -> int:
        """Card points: 10 = 5, A = 4, K = 3, Q = 2, J = 1, the rest 0."""
        return _RANK_POINTS[self]


_RANK_TEXT = ("6", "7", "8", "9", "J", "Q", "K", "A", "10")
_RANK_POINTS = (0, 0, 0, 0, 1, 2, 3, 4, 5)
RANKS_PER_SUIT = 9


class Card(IntEnum):
    """One card; its value is its bit in a :class:`CardSet`.

    >>> Card.parse("10H")
    Card.H10
    >>> str(Card.parse("tc"))
    '10C'
    """

    H6 = 0
    H7 = 1
    H8 = 2
    H9 = 3
    HJ = 4
    HQ = 5
    HK = 6
    HA = 7
    H10 = 8
    D6 = 9
    D7 = 10
    D8 = 11
    D9 = 12
    DJ = 13
    DQ = 14
    DK = 15
    DA = 16
    D10 = 17
    C6 = 18
    C7 = 19
    C8 = 20
    C9 = 21
    CJ = 22
    CQ = 23
    CK = 24
    CA = 25
    C10 = 26
    S6 = 27
    S7 = 28
    S8 = 29
    S9 = 30
    SJ = 31
    SQ = 32
    SK = 33
    SA = 34
    S10 = 35

    @property
    def suit(self) -> Suit:
        """The card's suit."""
        return Suit(self // RANKS_PER_SUIT)

    @property
    def rank(self) -> Rank:
        """The card's rank."""
        return Rank(self % RANKS_PER_SUIT)

    @property
    def points(self) -> int:
        """The card's points (15 per suit)."""
        return CARD_POINTS[self]

    @property
    def symbol(self) -> str:
        """The card with its suit symbol, for people: ``10♥``."""
        return self.rank.text + self.suit.symbol

    @classmethod
    def of(cls, rank: Rank, suit: Suit) -> Card:
        """The card of this rank and suit."""
        return cls(suit * RANKS_PER_SUIT + rank)

    @classmethod
    def parse(cls, text: str) -> Card:
        """The card named by ``text``: rank then suit; ``T`` for 10 and lower case accepted.

        >>> Card.parse("as")
        Card.SA

        :raises InvalidCardError: when the text names no card.
        """
        card = CARD_BY_TEXT.get(text) if isinstance(text, str) else None
        if card is None:
            raise InvalidCardError(f"unknown card {text!r}")
        return card

    def __str__(self) -> str:
        # looked up: the archive writes thousands of cards per match reviewed
        return CARD_TEXT[self]

    def __repr__(self) -> str:
        return f"Card.{self.name}"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


CARD_POINTS: tuple[int, ...] = tuple(_RANK_POINTS[i % RANKS_PER_SUIT] for i in range(36))
CARD_SUIT: tuple[int, ...] = tuple(i // RANKS_PER_SUIT for i in range(36))
CARD_TEXT: tuple[str, ...] = tuple(
    Rank(i % RANKS_PER_SUIT).text + Suit(i // RANKS_PER_SUIT).name for i in range(36)
)
SUIT_MASKS: tuple[int, ...] = tuple(((1 << RANKS_PER_SUIT) - 1) << (s * RANKS_PER_SUIT) for s in Suit)
SIXES_MASK = sum(1 << Card.of(Rank.SIX, s) for s in Suit)
DECK_36_MASK = (1 << 36) - 1
DECK_32_MASK = DECK_36_MASK & ~SIXES_MASK
CARDS: tuple[Card, ...] = tuple(Card)


_EMOJI_STYLE = "\ufe0f"
# Phones type suits as emoji (the symbol then U+FE0F) or offer the outlined symbols ♡ ♢ ♧ ♤.
_SUIT_SYMBOLS: dict[Suit, tuple[str, ...]] = {
    Suit.H: ("♥", "♡"),
    Suit.D: ("♦", "♢"),
    Suit.C: ("♣", "♧"),
    Suit.S: ("♠", "♤"),
}

SUIT_BY_TEXT: dict[str, Suit] = {
    **{suit.name.lower(): suit for suit in Suit},
    **{symbol: suit for suit, symbols in _SUIT_SYMBOLS.items() for symbol in symbols},
    **{suit.dutch: suit for suit in Suit},
    "ruiten": Suit.D,
    **{suit.english: suit for suit in Suit},
}
"""Every accepted name of a suit, lower case: letters, symbols, Dutch and English names."""


def _spellings() -> dict[str, Card]:
    rank_spellings = {rank: {rank.text, rank.text.lower()} for rank in Rank}
    rank_spellings[Rank.TEN] |= {"T", "t"}
    table: dict[str, Card] = {}
    for card in Card:
        suit_spellings = [card.suit.name, card.suit.name.lower()]
        for symbol in _SUIT_SYMBOLS[card.suit]:
            suit_spellings += [symbol, symbol + _EMOJI_STYLE]
        for rank_text in rank_spellings[card.rank]:
            for suit_text in suit_spellings:
                table[rank_text + suit_text] = card
    return table


CARD_BY_TEXT: dict[str, Card] = _spellings()
"""Every accepted spelling of every card (``10H``, ``TH``, ``th``, ``10♥``, ``a♠``, ...)."""


def mask_of(cards: Iterable[int]) -> int:
    """The bit mask of some cards."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def iter_mask(mask: int) -> Iterator[Card]:
    """The cards of a mask, lowest bit first."""
    while mask:
        low = mask & -mask
        yield CARDS[low.bit_length() - 1]
        mask ^= low


def highest_in(mask: int) -> Card:
    """The highest card of a mask (within one suit: the best card)."""
    return CARDS[mask.bit_length() - 1]


class CardSet:
    """An immutable set of cards over the bits of one int.

    >>> hand = CardSet.parse("AC 10H 7H")
    >>> Card.parse("7H") in hand, len(hand)
    (True, 3)
    >>> hand
    CardSet.parse('7H 10H AC')
    """

    __slots__ = ("mask",)
    mask: int

    def __init__(self, cards: Iterable[Card] | int = 0) -> None:
        object.__setattr__(self, "mask", cards if isinstance(cards, int) else mask_of(cards))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    def __reduce__(self) -> tuple[type[CardSet], tuple[int]]:
        # Pickling (Streamlit's cache, worker processes) must not go through __setattr__.
        return (CardSet, (self.mask,))

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """Cards separated by spaces or commas.

        :raises InvalidCardError: for a text that names no card.
        """
        return cls(Card.parse(part) for part in text.replace(",", " ").split())

    def __iter__(self) -> Iterator[Card]:
        return iter_mask(self.mask)

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < 36 and bool(self.mask >> card & 1)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def of_suit(self, suit: Suit) -> CardSet:
        """The cards of one suit."""
        return CardSet(self.mask & SUIT_MASKS[suit])

    @property
    def points(self) -> int:
        """The card points of the set."""
        return sum(CARD_POINTS[card] for card in iter_mask(self.mask))

    def sorted_for_display(self, trump: Suit | None = None) -> list[Card]:
        """Cards grouped by suit (trump first), high to low, as a player holds them."""
        order = [trump] if trump is not None else []
        order += [s for s in Suit if s != trump]
        return [c for s in order for c in sorted(self.of_suit(s), reverse=True)]

    def __str__(self) -> str:
        return " ".join(CARD_TEXT[c] for c in self)

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"
