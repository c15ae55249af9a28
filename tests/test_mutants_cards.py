"""Cards and hands as a player types and reads them: the behaviours that mutation testing of
``cards.py`` (``make mutate MODULE=manillen_replay/cards.py``) showed no other test defended."""

from __future__ import annotations

import pytest

from manillen_replay.cards import DECK_36_MASK, Card, CardSet, Rank, Suit
from manillen_replay.errors import InvalidCardError


def test_asking_whether_a_hand_holds_something_that_is_no_card_is_an_answer_not_an_error() -> None:
    """A hand is asked about cards the dashboard or a record hands it: a card's text, a number
    past the deck, nothing. Each is simply not in the hand."""
    hand = CardSet.parse("7H 10H AC")
    whole_deck = CardSet(DECK_36_MASK)
    assert all(card in whole_deck for card in Card)
    assert Card.parse("7H") in hand
    assert Card.parse("8H") not in hand
    assert Card.parse("AS") not in hand
    for not_a_card in ("7H", None, -1, 36, 40):
        assert not_a_card not in hand
        assert not_a_card not in whole_deck


def test_two_hands_are_equal_when_they_hold_the_same_cards_and_never_equal_something_else() -> None:
    hand = CardSet.parse("7H 10H AC")
    assert hand == CardSet.parse("AC 7H 10H")
    assert hash(hand) == hash(CardSet.parse("AC 7H 10H"))
    assert hand != CardSet.parse("7H 10H")
    assert hand != "7H 10H AC"
    assert hand != hand.mask
    assert len({hand, CardSet.parse("10H AC 7H"), CardSet.parse("7H")}) == 2


def test_hands_combine_as_sets_of_cards() -> None:
    """What is left of a hand after a card, what two hands share, both together."""
    hand = CardSet.parse("7H 10H AC")
    other = CardSet.parse("10H KS")
    assert hand | other == CardSet.parse("7H 10H AC KS")
    assert hand & other == CardSet.parse("10H")
    assert hand - other == CardSet.parse("7H AC")
    assert not (hand - hand)
    assert CardSet.parse("7H")
    assert str(hand) == "7H 10H AC"
    assert repr(hand) == "CardSet.parse('7H 10H AC')"


def test_a_hand_typed_with_commas_holds_the_same_cards_as_with_spaces() -> None:
    assert CardSet.parse("AC,10H, 7H") == CardSet.parse("AC 10H 7H")
    assert len(CardSet.parse("AC,10H,7H")) == 3


@pytest.mark.parametrize("suit", list(Suit))
def test_the_card_of_a_rank_and_suit_has_that_rank_and_suit(suit: Suit) -> None:
    for rank in Rank:
        card = Card.of(rank, suit)
        assert (card.rank, card.suit) == (rank, suit)


@pytest.mark.parametrize(("typed", "suit"), [("♥\ufe0f", Suit.H), ("♠\ufe0f", Suit.S), ("♦️", Suit.D)])
def test_a_suit_typed_as_a_phone_s_emoji_is_that_suit(typed: str, suit: Suit) -> None:
    """Phones send a suit symbol followed by the emoji-style selector U+FE0F."""
    assert Suit.parse(typed) is suit


def test_a_card_that_is_not_text_is_refused_with_a_message() -> None:
    """A record whose card is a list or a number (a JSON slip) gets a clear refusal."""
    for not_text in (["7H"], 7, None):
        with pytest.raises(InvalidCardError, match="unknown card"):
            Card.parse(not_text)  # type: ignore[arg-type]


def test_a_card_fills_a_column_of_the_width_asked() -> None:
    """The replay's trick table lines cards up with a format width."""
    assert f"{Card.parse('10H'):>4}|{Card.parse('7S'):<3}|" == " 10H|7S |"


def test_a_hand_is_shown_trumps_first_then_each_suit_high_to_low() -> None:
    hand = CardSet.parse("7H 10H AC 9D JD KS 8C")
    assert hand.sorted_for_display(Suit.D) == [
        Card.parse(text) for text in ("JD", "9D", "10H", "7H", "AC", "8C", "KS")
    ]
    assert hand.sorted_for_display() == [
        Card.parse(text) for text in ("10H", "7H", "JD", "9D", "AC", "8C", "KS")
    ]


@pytest.mark.parametrize(
    ("typed", "suit"), [("d", Suit.D), ("H", Suit.H), (" Koeken ", Suit.D), ("SPADES", Suit.S), ("♧", Suit.C)]
)
def test_a_suit_is_its_letter_symbol_or_name_in_any_case(typed: str, suit: Suit) -> None:
    assert Suit.parse(typed) is suit


def test_a_suit_that_is_none_says_what_to_type() -> None:
    with pytest.raises(InvalidCardError, match=r"unknown suit 'X': use H, D, C or S"):
        Suit.parse("X")


def test_a_new_hand_holds_no_card() -> None:
    assert len(CardSet()) == 0
    assert not CardSet()
