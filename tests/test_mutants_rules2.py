"""What ``manillen legal`` says for each rule clause, the highest factor a deal can take, the
six-card game's lowest card, the seating of the three-player games and house rules given in
code: the behaviours that the second mutation run of ``rules.py``
(``make mutate MODULE=manillen_replay/rules.py``) showed no other test defended."""

from __future__ import annotations

import pytest

from manillen_replay.cards import Card, CardSet, Suit
from manillen_replay.errors import InvalidOptionError
from manillen_replay.rules import (
    VARIANTS,
    Clause,
    Rules,
    capot_factor,
    highest_deal_score,
    highest_multiplier,
    legal_plays,
    may_klop,
    side_score,
    trump_options,
)

# --------------------------------------------------------------------------- "Why:" for each clause


def _why(
    trick: str,
    hand: str,
    trump: Suit | None,
    *,
    partner_winning: bool = False,
    rules: Rules | None = None,
    winner: str | None = None,
) -> tuple[str, Clause, str]:
    answer = legal_plays(
        [Card.parse(text) for text in trick.split()],
        CardSet.parse(hand),
        trump,
        partner_winning,
        rules or Rules(),
    )
    return " ".join(str(card) for card in sorted(answer.cards)), answer.clause, answer.explain(winner)


def test_following_below_the_winning_card_says_any_card_of_the_suit_will_do() -> None:
    """Anna leads the A♣; Bert holds only the 7♣ of clubs, which cannot beat it."""
    assert _why("AC", "7C 8H", Suit.D) == (
        "7C",
        Clause.FOLLOW,
        "must follow clubs (an opponent is winning with AC; any clubs card will do)",
    )
    assert _why("AC", "7C 8H", Suit.D, winner="Anna")[2] == (
        "must follow clubs (an opponent is winning with Anna's AC; any clubs card will do)"
    )
    assert _why("AC", "7C 8H", Suit.D, partner_winning=True, winner="Carla")[2] == (
        "must follow clubs (your partner is winning with Carla's AC; any clubs card will do)"
    )


def test_following_with_a_card_that_beats_says_which_card_to_beat_and_whose_it_is() -> None:
    assert _why("QC", "KC 7C", Suit.D, winner="Anna") == (
        "KC",
        Clause.OVERTAKE,
        "must follow clubs and beat Anna's QC: an opponent is winning",
    )
    # without partner_exempt the partner's card must be beaten too, and the answer says why
    assert _why("QC", "KC 7C", Suit.D, partner_winning=True, rules=Rules(partner_exempt=False)) == (
        "KC",
        Clause.OVERTAKE,
        "must follow clubs and beat QC: your partner is winning (partner_exempt is off: always try to win)",
    )


def test_buying_names_the_trump_suit_and_the_card_winning() -> None:
    assert _why("AC", "7D 8H", Suit.D, winner="Anna") == (
        "7D",
        Clause.BUY,
        "void in clubs: must buy (kopen) with a diamonds trump, an opponent is winning with Anna's AC",
    )
    assert _why("AC", "7D 8H", Suit.D, partner_winning=True, rules=Rules(partner_exempt=False)) == (
        "7D",
        Clause.BUY,
        "void in clubs: must buy (kopen) with a diamonds trump, your partner is winning with AC "
        "(partner_exempt is off: always try to win)",
    )


def test_a_trump_below_the_winning_trump_is_refused_while_another_card_may_be_played() -> None:
    assert _why("AC 9D", "7D 8H", Suit.D, winner="Dirk") == (
        "8H",
        Clause.NO_UNDERBUY,
        "void in clubs: any card but a diamonds trump below Dirk's 9D (no underbuying, onderkopen)",
    )


def test_a_hand_of_only_lower_trumps_may_underbuy_and_is_told_so() -> None:
    assert _why("AC 9D", "7D 8D", Suit.D) == (
        "7D 8D",
        Clause.FORCED_UNDERBUY,
        "void in clubs: only trumps below 9D left, so underbuying is allowed",
    )


def test_under_forced_underbuying_the_lower_trump_must_be_played() -> None:
    assert _why("AC 9D", "7D 8H", Suit.D, rules=Rules(underbuy="forced"), winner="Dirk") == (
        "7D",
        Clause.MUST_UNDERBUY,
        "void in clubs: must play a diamonds trump even below Dirk's 9D "
        "(underbuying is forced under these rules)",
    )


def test_void_without_trumps_any_card_will_do() -> None:
    assert _why("AC", "8H 7S", Suit.D, winner="Anna") == (
        "8H 7S",
        Clause.ANY,
        "void in clubs: any card (an opponent is winning with Anna's AC)",
    )
    # the partner winning: no duty to buy, and the answer says whose card is winning
    assert _why("AC", "7D 8H", Suit.D, partner_winning=True) == (
        "8H 7D",
        Clause.ANY,
        "void in clubs: any card (your partner is winning with AC)",
    )


def test_in_a_muil_a_void_player_may_play_any_card() -> None:
    assert _why("AC", "7D 8H", None) == (
        "8H 7D",
        Clause.MUIL_ANY,
        "void in clubs: muil has no trumps, any card may be played",
    )


# --------------------------------------------------------------------------- the six-card game's 6♥


@pytest.mark.parametrize(
    ("trick", "hand", "trump", "legal"),
    [
        ("9H", "6H KH", Suit.C, "KH"),  # the 6♥ cannot beat the 9♥: only the king does
        ("9H", "6H 7H", Suit.C, "6H 7H"),  # neither beats it: either may follow
        ("AC 9H", "6H 8S", Suit.H, "8S"),  # the 6♥ is a trump below the 9♥: no underbuying
        ("AC 9H", "6H KH", Suit.H, "KH"),  # only the king over-buys
    ],
)
def test_the_six_of_hearts_is_the_lowest_card_and_beats_nothing(
    trick: str, hand: str, trump: Suit, legal: str
) -> None:
    """In ``six`` (36 cards, the 6s in) the 6♥ is the lowest card of the deck: it never counts
    as a card that beats the winning one, following or over-buying."""
    assert _why(trick, hand, trump, rules=Rules(variant="six"))[0] == legal


# --------------------------------------------------------------------------- the highest factor


@pytest.mark.parametrize(
    ("options", "highest"),
    [
        # trump x klop x tegenklop x a 30-30 carry
        ({}, 8),
        ({"thirty_carry": False}, 4),
        ({"en_face": True}, 16),
        ({"capot": "double"}, 16),
        # a muil knocked: x2 for the muil
        ({"klop_on_muil": True}, 16),
        # a blind muil is x4 but, without klop_on_muil, cannot be knocked: no more than a trump
        ({"blind_muil": True, "thirty_carry": False}, 4),
        ({"blind_muil": True, "klop_on_muil": True}, 32),
        ({"blind_muil": True, "klop_on_muil": True, "muil_double": False}, 16),
        # doublings that add one each: the blind muil's x4 adds three
        ({"multipliers": "added", "blind_muil": True, "klop_on_muil": True, "en_face": True}, 8),
        ({"multipliers": "added", "en_face": True, "capot": "double"}, 6),
        # knocking without end: nothing bounds a trump deal
        ({"eternal_klop": True}, None),
    ],
)
def test_the_highest_factor_combines_every_doubling_the_rules_allow(
    options: dict[str, object], highest: int | None
) -> None:
    """``manillen validate`` flags a recorded score over the most a deal can score: the factor
    of the largest contract with every doubling these rules allow, uncapped here."""
    assert highest_multiplier(Rules.from_options({"max_multiplier": None, **options})) == highest


@pytest.mark.parametrize(
    ("options", "highest"),
    [
        ({"max_multiplier": 6}, 6),
        ({"max_multiplier": 16, "eternal_klop": True}, 16),
        ({"max_multiplier": 64, "blind_muil": True, "klop_on_muil": True}, 32),
        ({"max_multiplier": 2, "multipliers": "added"}, 2),
    ],
)
def test_the_cap_on_the_multiplier_bounds_the_highest_factor(
    options: dict[str, object], highest: int
) -> None:
    """Eternal knocking is bounded only by the cap; a cap above the highest factor changes nothing."""
    assert highest_multiplier(Rules.from_options(options)) == highest


def test_the_most_a_deal_scores_is_half_the_deck_over_the_half_times_the_highest_factor() -> None:
    """30 points over the half of the 60 (a capot), x8; in ``six`` the 6s add no points."""
    assert highest_deal_score(Rules(max_multiplier=None)) == 240
    assert highest_deal_score(Rules(variant="six", max_multiplier=None)) == 240
    assert highest_deal_score(Rules(max_multiplier=None, eternal_klop=True)) is None
    assert highest_deal_score(Rules(capot="fixed_60", max_multiplier=4)) == 120


# --------------------------------------------------------------------------- three-player seating


@pytest.mark.parametrize(
    ("dealer", "order"),
    [(0, (0, 1, 3, 2)), (1, (1, 2, 3, 0)), (2, (2, 0, 3, 1))],
)
def test_the_dummy_sits_opposite_its_dealer(dealer: int, order: tuple[int, ...]) -> None:
    """``three_dummy``: the dummy (seat 3) sits opposite the dealer, so play goes dealer, the
    dealer's left, the dummy, the dealer's right."""
    shape = VARIANTS["three_dummy"]
    assert shape.order(dealer) == order
    for place, seat in enumerate(order):
        assert shape.next_seat(seat, dealer) == order[(place + 1) % 4]
        for position in range(4):
            assert shape.seat_of_play(seat, position, dealer) == order[(place + position) % 4]
    assert [shape.team_of(seat, dealer) for seat in range(4)] == [
        0 if seat in (dealer, 3) else 1 for seat in range(4)
    ]


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_in_the_three_player_game_play_goes_round_three_seats_and_the_dealer_plays_alone(
    dealer: int,
) -> None:
    shape = VARIANTS["three"]
    assert shape.order(dealer) == (0, 1, 2)
    assert [shape.next_seat(seat, dealer) for seat in range(3)] == [1, 2, 0]
    assert [shape.seat_of_play(2, position, dealer) for position in range(3)] == [2, 0, 1]
    assert [shape.team_of(seat, dealer) for seat in range(3)] == [0 if s == dealer else 1 for s in range(3)]
    assert shape.partner_of(dealer) is None


def test_in_the_two_player_games_each_plays_alone_and_in_six_partners_sit_two_apart() -> None:
    assert [VARIANTS["two_open"].team_of(seat, 1) for seat in range(2)] == [0, 1]  # whoever deals
    assert [VARIANTS["two_open_fours"].seat_of_play(1, p) for p in range(4)] == [1, 0, 1, 0]
    assert VARIANTS["six"].partner_of(5) == 1
    assert [VARIANTS["six"].team_of(seat, 3) for seat in range(6)] == [0, 1, 0, 1, 0, 1]


# --------------------------------------------------------------------------- options in code


def test_rules_changed_in_code_are_checked_like_the_command_lines() -> None:
    """``Rules.with_options`` (the replay's check of a held trump suit uses it): text is read
    as the option's type, a wrong value refused with the same message."""
    rules = Rules(variant="three").with_options(target="61", partner_exempt="no", underbuy="forced")
    assert (rules.variant, rules.target, rules.partner_exempt, rules.underbuy) == (
        "three",
        61,
        False,
        "forced",
    )
    with pytest.raises(
        InvalidOptionError, match="rule option 'underbuy' cannot be 'never': choose forbidden or"
    ):
        Rules().with_options(underbuy="never")
    with pytest.raises(InvalidOptionError, match="'max_multiplier' is a number >= 1 or null"):
        Rules().with_options(max_multiplier=0)


def test_a_whole_number_out_of_range_is_said_to_be_out_of_range() -> None:
    """`--rule target=-5` was told "is a whole number, not -5"."""
    for value in (0, -5):
        with pytest.raises(
            InvalidOptionError, match=f"^rule option 'target' is a whole number from 1, not {value}$"
        ):
            Rules().with_options(target=value)
    with pytest.raises(InvalidOptionError, match=r"^rule option 'target' is a whole number, not 'x'$"):
        Rules().with_options(target="x")
    assert Rules().with_options(penalty_points=-3).penalty_points == -3


def test_only_cafe_takes_a_group_of_options() -> None:
    """``cafe: {...}`` groups the cafe rules; any other option given a group is refused as the
    wrong kind of value, not read as a group."""
    assert Rules.from_options({"cafe": {"en_face": True}}).en_face
    with pytest.raises(InvalidOptionError, match="rule option 'target' is a whole number"):
        Rules.from_options({"target": {"en_face": True}})


def test_an_unknown_option_lists_the_known_ones_separated_by_commas() -> None:
    with pytest.raises(InvalidOptionError) as refused:
        Rules.from_options({"partner_exmpt": False})
    message = str(refused.value)
    assert message.startswith("unknown rule option 'partner_exmpt'; known: cafe.blind_muil, cafe.en_face, ")
    assert "partner_exempt, penalty_points, penalty_to, target" in message and ", capot, deals, " in message
    # a café rule is said with its prefix, as records and the docs write it, and as it was typed
    for options in ({"cafe.en_fase": True}, {"cafe": {"en_fase": True}}):
        with pytest.raises(InvalidOptionError, match=r"unknown rule option 'cafe\.en_fase'; known: "):
            Rules.from_options(options)


def test_without_a_dealer_the_dummy_game_is_seated_as_if_seat_0_dealt() -> None:
    """``manillen legal`` gives no dealer: the dummy sits between seats 1 and 2."""
    shape = VARIANTS["three_dummy"]
    assert shape.order() == (0, 1, 3, 2)
    assert [shape.seat_of_play(1, position) for position in range(4)] == [1, 3, 2, 0]
    assert shape.next_seat(1) == 3


# --------------------------------------------------------------------------- calls


def test_the_trumps_a_chooser_may_call_under_each_trump_choice() -> None:
    """``free``: any suit or muil, whatever the hand; ``turned_card``: only the turned card's
    suit, and nothing while no card is turned."""
    hearts_only = CardSet.parse("10H AH 7H").mask
    assert trump_options(Rules(), hearts_only) == (0, 1, 2, 3, None)
    assert trump_options(Rules(trump_choice="held_suit"), hearts_only) == (0, None)
    assert trump_options(Rules(trump_choice="turned_card"), hearts_only, turned_suit=2) == (2,)
    assert trump_options(Rules(trump_choice="turned_card"), hearts_only) == ()


@pytest.mark.parametrize(
    ("variant", "klop_by", "dealer", "may"),
    [
        # the dealing side never klops: a partner in the four-player game, the dealer alone in three
        ("four", "opponents", 0, [False, True, False, True]),
        ("three", "opponents", 0, [False, True, True]),
        ("three", "opponents", 2, [True, True, False]),
        ("three_dummy", "opponents", 1, [True, False, True]),
        # left_of_dealer: the dealer's left and that player's partner, in six seats 1 and 3 not 5
        ("six", "opponents", 0, [False, True, False, True, False, True]),
        ("six", "left_of_dealer", 0, [False, True, False, True, False, False]),
        ("six", "left_of_dealer", 3, [True, False, False, False, True, False]),
        # without partners both opponents may, the dummy's dealer sitting anywhere
        ("three", "left_of_dealer", 1, [True, False, True]),
        ("three_dummy", "left_of_dealer", 0, [False, True, True]),
        ("three_dummy", "left_of_dealer", 2, [True, True, False]),
    ],
)
def test_who_may_klop(variant: str, klop_by: str, dealer: int, may: list[bool]) -> None:
    rules = Rules(variant=variant, klop_by=klop_by)  # type: ignore[arg-type]
    assert [may_klop(rules, seat, dealer) for seat in range(len(may))] == may


def test_a_capot_doubles_the_factor_once_more_or_adds_one() -> None:
    """``capot: double``: x2 on the deal's factor; under ``multipliers: added`` one more."""
    uncapped = {"capot": "double", "max_multiplier": None}
    assert capot_factor(2, Rules(**uncapped)) == 4  # type: ignore[arg-type]
    assert capot_factor(3, Rules(**uncapped, multipliers="added")) == 4  # type: ignore[arg-type]
    assert capot_factor(4, Rules(capot="double")) == 4  # the cap still holds


# --------------------------------------------------------------------------- underbuying, conflicts, capot


@pytest.mark.parametrize(
    ("underbuy", "hand", "legal"),
    [
        # forbidden: a lower trump is refused while the higher one may be played
        ("forbidden", "7D KD", "KD"),
        # forbidden_with_other_suit: only a card of another suit forbids it; trumps only may underbuy
        ("forbidden_with_other_suit", "7D KD", "7D KD"),
        ("forbidden_with_other_suit", "7D 8H", "8H"),
    ],
)
def test_underbuying_while_the_partner_wins_with_a_trump(underbuy: str, hand: str, legal: str) -> None:
    """Carla's 9♦ (trump) wins a club trick; Anna, void in clubs, has no duty to buy, but may she
    play a trump below her partner's?"""
    rules = Rules(underbuy=underbuy)  # type: ignore[arg-type]
    assert _why("AC 9D", hand, Suit.D, partner_winning=True, rules=rules)[0] == legal


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            {"en_face": True},
            "rule options 'trump_choice: turned_card' and 'cafe.en_face' conflict: "
            "the turned card makes trump, there is no choice to pass to the partner",
        ),
        (
            {"blind_muil": True},
            "rule options 'trump_choice: turned_card' and 'cafe.blind_muil' conflict: "
            "the turned card makes trump, no muil can be called",
        ),
        (
            {"variant": "six_short"},
            "rule option 'trump_choice: turned_card' conflicts with the variant 'six_short': "
            "there the choice of trump passes between teammates",
        ),
    ],
)
def test_rules_that_cannot_hold_together_are_refused_with_why(
    options: dict[str, object], message: str
) -> None:
    with pytest.raises(InvalidOptionError) as refused:
        Rules(trump_choice="turned_card", **options)  # type: ignore[arg-type]
    assert str(refused.value) == message
    assert Rules(**options).trump_choice == "free"  # type: ignore[arg-type]


def test_a_capot_under_plain_rules_scores_as_any_deal() -> None:
    """Every card point taken, ``capot: plain`` (the default): the 30 over the half times the factor."""
    assert side_score(60, 60, 2) == side_score(60, 60, 2, Rules()) == 60
    assert side_score(0, 60, 1, Rules()) == -30
    assert side_score(20, 60, 1) == -10 and side_score(45, 60, 2) == 30
