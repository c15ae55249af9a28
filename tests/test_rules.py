"""The rules of rules.md, one test per clause, named after it and quoting it."""

from __future__ import annotations

import pytest

from manillen_replay.cards import Card, CardSet, Suit
from manillen_replay.errors import InvalidOptionError
from manillen_replay.rules import (
    Clause,
    Contract,
    DealScore,
    Rules,
    ViolationKind,
    classify_violation,
    legal_plays,
    multiplier,
    penalty_effect,
    score_deal,
    trick_points,
    unused_options,
    winning_position,
)
from manillen_replay.state import MatchState

DEFAULT = Rules()


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def legal(trick: str, hand: str, trump: Suit | None, partner_winning: bool = False, rules: Rules = DEFAULT):
    return legal_plays(cards(trick), CardSet.parse(hand), trump, partner_winning, rules)


# --------------------------------------------------------------------------- cards and tricks


def test_card_points():
    """Card points: 10 = 5, A = 4, K = 3, Q = 2, J = 1, others 0. 15 per suit, 60 per deal."""
    assert [Card.parse(t).points for t in "10H AH KH QH JH 9H 8H 7H".split()] == [5, 4, 3, 2, 1, 0, 0, 0]
    assert Rules().shape.deck.points == 60
    for suit in Suit:
        assert Rules().shape.deck.of_suit(suit).points == 15


def test_rank_order_manille_highest():
    """Ranks high to low 10 (the manille), A, K, Q, J, 9, 8, 7."""
    order = cards("7S 8S 9S JS QS KS AS 10S")
    assert sorted(order) == order


def test_trick_won_by_highest_trump():
    """A trick is won by the highest trump in it."""
    assert winning_position(cards("10C 7D AC 8D"), Suit.D) == 3


def test_trick_won_by_highest_card_of_led_suit_without_trump():
    """Without trump, by the highest card of the led suit."""
    assert winning_position(cards("KC 10H AC 7C"), Suit.D) == 2
    assert winning_position(cards("KC 10H AC 7C"), None) == 2


def test_off_suit_card_never_wins():
    """A card of another suit that is not trump cannot take the trick, however high."""
    assert winning_position(cards("7C 10S 10H 8C"), Suit.D) == 3


# --------------------------------------------------------------------------- what you may play


def test_leader_may_play_any_card():
    """1. The leader may play any card."""
    result = legal("", "7H 10S KD", Suit.D)
    assert result.cards == CardSet.parse("7H 10S KD")
    assert result.clause is Clause.LEAD


def test_must_follow_led_suit():
    """2. You must follow the led suit if you can."""
    result = legal("8H", "7H 10S KD", Suit.D, partner_winning=False)
    assert result.cards == CardSet.parse("7H")


def test_must_overtake_opponent_when_following():
    """3. If an opponent is the winner so far and you hold a card of the led suit that beats
    the winning card, you must play such a card (overtake)."""
    result = legal("KH", "7H QH AH 10H 10S", Suit.D)
    assert result.cards == CardSet.parse("AH 10H")
    assert result.clause is Clause.OVERTAKE


def test_follow_without_beating_card_any_of_led_suit():
    """3. Following suit, an opponent winning, nothing of the led suit beats it: any card of the led suit."""
    result = legal("10H", "7H QH AS", Suit.D)
    assert result.cards == CardSet.parse("7H QH")
    assert result.clause is Clause.FOLLOW


def test_partner_winning_any_card_of_led_suit():
    """3. If your partner is the winner so far, any card of the led suit is allowed."""
    result = legal("KH 7H", "8H AH 10S", Suit.D, partner_winning=True)
    assert result.cards == CardSet.parse("8H AH")


def test_following_a_bought_trick_any_card_of_led_suit():
    """3. Only a card of the led suit that beats the winning card must be played: over a trump
    no card of the led suit can win, so any card of the led suit is allowed."""
    result = legal("KH 7D", "AH 8H 9D", Suit.D, partner_winning=False)
    assert result.cards == CardSet.parse("AH 8H")


def test_void_must_buy_when_opponent_winning():
    """4. Void in the led suit, an opponent winning, holding a trump that beats the winning card:
    you must play such a trump (buy)."""
    result = legal("AC", "7D KD 10H", Suit.D)
    assert result.cards == CardSet.parse("7D KD")
    assert result.clause is Clause.BUY


def test_void_must_overbuy_trump_on_table():
    """4. ... or over-buy a trump already on the table."""
    result = legal("AC 9D", "8D KD 10H", Suit.D)
    assert result.cards == CardSet.parse("KD")
    assert result.clause is Clause.OVERBUY


def test_void_partner_winning_any_card():
    """4. Otherwise (your partner is winning) any card is allowed."""
    result = legal("AC", "7D KD 10H", Suit.D, partner_winning=True)
    assert result.cards == CardSet.parse("7D KD 10H")
    assert result.clause is Clause.ANY


def test_void_cannot_beat_any_card_except_underbuy():
    """4. Otherwise (you cannot beat the winning card) any card is allowed, except that you may
    not underbuy while you hold any other card you could play instead."""
    result = legal("AC 10D", "7D KD 10H", Suit.D)
    assert result.cards == CardSet.parse("10H")
    assert result.clause is Clause.NO_UNDERBUY


def test_no_underbuy_when_partner_winning_with_trump():
    """4. Underbuying (a trump lower than a trump already on the table) is forbidden even when
    your partner wins, while you hold another card; a higher trump stays allowed."""
    result = legal("AC AD", "7D 10D 10H", Suit.D, partner_winning=True)
    assert result.cards == CardSet.parse("10D 10H")


def test_underbuy_allowed_when_nothing_else():
    """4. "Dit mag echter wel als je niet anders kan": underbuying is allowed holding only lower trumps."""
    result = legal("AC 10D", "7D 8D", Suit.D)
    assert result.cards == CardSet.parse("7D 8D")
    assert result.clause is Clause.FORCED_UNDERBUY


def test_muil_no_buying():
    """5. Without trump (muil) there is no buying: void in the led suit, any card."""
    result = legal("AC", "7D KD 10H", None)
    assert result.cards == CardSet.parse("7D KD 10H")
    assert result.clause is Clause.MUIL_ANY


def test_muil_follow_and_overtake():
    """5. Without trump: follow suit, overtake an opponent when you can."""
    assert legal("KC", "7C AC 10H", None).cards == CardSet.parse("AC")
    assert legal("KC", "7C AC 10H", None, partner_winning=True).cards == CardSet.parse("7C AC")


def test_seed_example_trick():
    """The seed's own example (trump diamonds): A leads AC, B plays QC (vetten), C buys with 9D,
    D holding 8D and KD must over-buy with the king: the 8 would be underbuying. Team B-D takes
    A + Q + 9 + K = 9 points."""
    b = legal("AC", "9C QC 8H", Suit.D)
    assert Card.CQ in b.cards and b.cards == CardSet.parse("9C QC")
    c = legal("AC QC", "9D 10H", Suit.D, partner_winning=True)
    assert Card.D9 in c.cards
    d = legal("AC QC 9D", "8D KD 7H", Suit.D)
    assert d.cards == CardSet.parse("KD")
    trick = cards("AC QC 9D KD")
    assert winning_position(trick, Suit.D) == 3
    assert trick_points(trick) == 9


# --------------------------------------------------------------------------- house rules


def test_partner_exempt_false_must_overtake_partner():
    """partner_exempt = false: "always try to take the trick yourself", also over the partner."""
    rules = Rules(partner_exempt=False)
    assert legal("KH", "7H AH", Suit.D, partner_winning=True, rules=rules).cards == CardSet.parse("AH")


def test_partner_exempt_false_must_buy_over_partner():
    """partner_exempt = false: a void seat must buy even while the partner wins."""
    rules = Rules(partner_exempt=False)
    assert legal("AC", "7D 10H", Suit.D, partner_winning=True, rules=rules).cards == CardSet.parse("7D")


def test_overtake_plain_suit_false_any_card_of_a_plain_suit():
    """overtake_plain_suit = false (the French rule): a follower need not overtake in a plain
    suit; any card of the led suit will do, even with an opponent winning."""
    rules = Rules(overtake_plain_suit=False)
    result = legal("KH", "7H QH AH 10H 10S", Suit.D, rules=rules)
    assert result.cards == CardSet.parse("7H QH AH 10H")
    assert result.clause is Clause.FOLLOW


def test_overtake_plain_suit_false_still_overtakes_a_trump_lead():
    """overtake_plain_suit = false: only over-trumping stays compulsory, so following a trump
    lead you must still go higher."""
    rules = Rules(overtake_plain_suit=False)
    result = legal("KD", "7D AD 10H", Suit.D, rules=rules)
    assert result.cards == CardSet.parse("AD")
    assert result.clause is Clause.OVERTAKE


def test_overtake_plain_suit_false_still_overbuys():
    """overtake_plain_suit = false: void in the led suit, you must still over-buy a trump on
    the table."""
    rules = Rules(overtake_plain_suit=False)
    result = legal("AC 9D", "8D KD 10H", Suit.D, rules=rules)
    assert result.cards == CardSet.parse("KD")
    assert result.clause is Clause.OVERBUY


def test_overtake_plain_suit_false_in_muil_any_card_of_the_led_suit():
    """overtake_plain_suit = false: a muil has no trumps, so no suit needs overtaking."""
    rules = Rules(overtake_plain_suit=False)
    assert legal("KH", "7H AH", None, rules=rules).cards == CardSet.parse("7H AH")


def test_thirty_carry_false_next_deal_counts_single():
    """thirty_carry = false: after a 30-30 nobody scores and the next deal counts as usual."""
    carried = MatchState.start(Rules()).apply_deal(None, tie=True)
    plain = MatchState.start(Rules(thirty_carry=False)).apply_deal(None, tie=True)
    assert carried.carry and not plain.carry
    assert plain.score == (0, 0)


def test_rule_options_from_the_command_line_text():
    """--rule overtake_plain_suit=false and --rule thirty_carry=no read as booleans."""
    rules = Rules.from_options({"overtake_plain_suit": "false", "thirty_carry": "no"})
    assert not rules.overtake_plain_suit and not rules.thirty_carry
    assert rules.to_options() == {"overtake_plain_suit": False, "thirty_carry": False}


def test_underbuy_allowed_option():
    """underbuy = "allowed" lifts rule 4's last clause."""
    rules = Rules(underbuy="allowed")
    assert legal("AC 10D", "7D KD 10H", Suit.D, rules=rules).cards == CardSet.parse("7D KD 10H")


# --------------------------------------------------------------------------- illegal plays by name


def test_violation_revoke():
    """revoke (verzaken): did not follow suit while able to."""
    assert (
        classify_violation(Card.S7, cards("AH"), CardSet.parse("7H 7S").mask, Suit.D) is ViolationKind.REVOKE
    )


def test_violation_failed_to_overtake():
    """failed_to_overtake: followed suit below an opponent's winning card while able to beat it."""
    kind = classify_violation(Card.H7, cards("KH"), CardSet.parse("7H AH").mask, Suit.D)
    assert kind is ViolationKind.FAILED_TO_OVERTAKE


def test_violation_failed_to_buy():
    """failed_to_buy: void, an opponent winning, held a trump that would win, played a non-trump."""
    kind = classify_violation(Card.S7, cards("AH"), CardSet.parse("7S 7D").mask, Suit.D)
    assert kind is ViolationKind.FAILED_TO_BUY


def test_violation_illegal_underbuy():
    """illegal_underbuy: played a trump lower than a trump on the table while holding another option."""
    kind = classify_violation(Card.D7, cards("AH 10D"), CardSet.parse("7D 7S").mask, Suit.D)
    assert kind is ViolationKind.ILLEGAL_UNDERBUY


# --------------------------------------------------------------------------- scoring


def test_score_team_over_thirty_scores_the_excess():
    """The team with more than 30 scores (its points - 30) x multiplier."""
    assert score_deal([24, 36], 1) == DealScore(1, 6)
    assert score_deal([41, 19], 2) == DealScore(0, 22)


def test_thirty_thirty_nobody_scores():
    """If both have 30, nobody scores."""
    assert score_deal([30, 30], 4) is None


def test_multiplier_muil_doubles():
    """Multiplier: muil x2."""
    assert multiplier(Contract.MUIL, False, 0, False, DEFAULT) == 2


def test_multiplier_blind_muil_quadruples():
    """Multiplier: blind muil x4."""
    assert multiplier(Contract.BLIND_MUIL, False, 0, False, Rules(max_multiplier=None)) == 4


def test_multiplier_en_face_doubles():
    """Multiplier: en face x2."""
    assert multiplier(Contract.TRUMP, True, 0, False, DEFAULT) == 2


def test_multiplier_klop_doubles_tegenklop_quadruples():
    """Multiplier: klop x2, each further (counter-)knock x2."""
    assert multiplier(Contract.TRUMP, False, 1, False, DEFAULT) == 2
    assert multiplier(Contract.TRUMP, False, 2, False, DEFAULT) == 4


def test_multiplier_thirty_thirty_carry_doubles():
    """Multiplier: a 30-30 carry x2."""
    assert multiplier(Contract.TRUMP, False, 0, True, DEFAULT) == 2


def test_multiplier_all_multiplied_then_capped():
    """All multiplied together, then capped by max_multiplier."""
    assert multiplier(Contract.MUIL, False, 2, True, DEFAULT) == 4
    assert multiplier(Contract.MUIL, False, 2, True, Rules(max_multiplier=None)) == 16
    assert multiplier(Contract.MUIL, False, 1, False, Rules(max_multiplier=8)) == 4


def test_eternal_klop_each_knock_doubles():
    """cafe.eternal_klop: knock and counter-knock may go on: each doubles."""
    assert multiplier(Contract.TRUMP, False, 4, False, Rules(eternal_klop=True, max_multiplier=None)) == 16


def test_penalty_to_opponents():
    """penalty_to = "opponents": the other team scores them."""
    assert penalty_effect(0, 30, DEFAULT) == (0, 30)


def test_penalty_to_offender():
    """penalty_to = "offender": deducted from the offending team."""
    assert penalty_effect(1, 30, Rules(penalty_to="offender")) == (0, -30)


def test_thirty_thirty_carry_is_not_cumulative():
    """A 30-30 after a 30-30 still gives only double, not more."""
    match = MatchState.start(DEFAULT).apply_deal(None, tie=True).apply_deal(None, tie=True)
    assert match.carry is True
    assert multiplier(Contract.TRUMP, False, 0, match.carry, Rules(max_multiplier=None)) == 2


# --------------------------------------------------------------------------- match end


def test_match_ends_at_target():
    """target: match ends after the deal that takes a team to this score or more."""
    match = MatchState.start(DEFAULT).apply_deal(DealScore(0, 100), False)
    assert not match.finished
    match = match.apply_deal(DealScore(1, 6), False).apply_deal(DealScore(0, 2), False)
    assert match.finished and match.winner == 0 and match.final_score == (102, 6)


def test_extension_when_both_teams_over_target():
    """extension: if both teams stand at or over the target, play on to the next (121, then 151)."""
    rules = Rules(penalty_to="opponents")
    match = MatchState.start(rules).apply_deal(DealScore(0, 95), False).apply_deal(DealScore(1, 90), False)
    match = match.apply_deal(DealScore(0, 10), False, penalties=((0, 30),))
    assert (match.score, match.finished, match.target) == ((105, 120), False, 121)
    match = match.apply_deal(DealScore(1, 4), False)
    assert match.finished and match.winner == 1


def test_fixed_format_ends_after_the_number_of_deals():
    """format "fixed": a fixed number of deals (default 12), the higher score wins."""
    rules = Rules(format="fixed", deals=3)
    match = MatchState.start(rules)
    for score in (DealScore(0, 50), DealScore(1, 10), DealScore(1, 10)):
        assert not match.finished
        match = match.apply_deal(score, False)
    assert match.finished and match.winner == 0


# --------------------------------------------------------------------------- options


def test_every_option_of_the_table_exists_with_its_default():
    """Every house-rule option of rules.md, with its default."""
    expected = {
        "target": 101,
        "extension": (121, 151),
        "partner_exempt": True,
        "underbuy": "forbidden",
        "max_multiplier": 4,
        "klop_on_muil": False,
        "penalty_points": 30,
        "penalty_to": "opponents",
        "blind_muil": False,
        "eternal_klop": False,
        "en_face": False,
        "redeal_small": False,
        "format": "target",
        "deals": 12,
    }
    rules = Rules()
    assert {name: getattr(rules, name) for name in expected} == expected


def test_options_from_record_and_command_line():
    rules = Rules.from_options({"target": 121, "cafe": {"blind_muil": True}})
    assert rules.target == 121 and rules.blind_muil
    assert Rules.from_options({"cafe.en_face": "true", "max_multiplier": "null"}).max_multiplier is None
    assert Rules.from_options(rules.to_options()) == rules


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"traget": 101}, "unknown rule option 'traget'"),
        ({"underbuy": "sometimes"}, "forbidden or allowed"),
        ({"partner_exempt": "maybe"}, "true or false"),
        ({"target": 0}, "whole number"),
    ],
)
def test_bad_options_are_refused_clearly(options, message):
    with pytest.raises(InvalidOptionError, match=message):
        Rules.from_options(options)


def test_card_values_survive_pickling():
    """Cached results (the dashboard) and worker processes pickle cards and card sets."""
    import pickle

    hand = CardSet.parse("AH 10S 7C")
    assert pickle.loads(pickle.dumps(hand)) == hand
    assert pickle.loads(pickle.dumps(Card.H10)) is Card.H10


@pytest.mark.parametrize("variant", ["two_open", "two_open_fours", "three", "three_dummy", "six_short"])
def test_cafe_en_face_applies_where_the_dealer_has_a_partner_to_pass_to(variant: str) -> None:
    """docs/rules.md, "House rules in the variants": en_face in `four` and `six`. Elsewhere it is
    never applied; a record holding it stays readable (an archive may hold one), and the option
    is named so that `validate` and saving a club's rules can say it."""
    assert Rules(variant=variant, en_face=True).en_face  # read, as archives imported before hold it
    assert unused_options(Rules(variant=variant, en_face=True)) == [
        f"rule option 'cafe.en_face' does not apply to the variant {variant!r}: en face passes the "
        "trump choice to the dealer's partner, in 'four' and 'six' only"
    ]
    assert unused_options(Rules(variant="six", en_face=True)) == unused_options(Rules(en_face=True)) == []


@pytest.mark.parametrize("variant", ["three", "six", "six_short"])
def test_cafe_redeal_small_applies_to_eight_card_hands(variant: str) -> None:
    """Five small cards and a jack needs an eight-card hand (docs/rules.md)."""
    (said,) = unused_options(Rules(variant=variant, redeal_small=True))
    assert said.startswith(f"rule option 'cafe.redeal_small' does not apply to the variant {variant!r}")
    for fits in ("four", "two_open", "two_open_fours", "three_dummy"):
        assert unused_options(Rules(variant=fits, redeal_small=True)) == []


@pytest.mark.parametrize(
    ("target", "extension", "idle"),
    [
        (101, (90,), "90 never applies"),
        (101, (151, 121), "121 never applies"),
        (101, (101, 80), "101, 80 never apply"),
    ],
)
def test_an_extension_not_above_the_target_and_the_one_before_it_is_named(
    target: int, extension: tuple[int, ...], idle: str
) -> None:
    """extension=90 with the target 101 validated as ok, and the match ended at once when both
    teams passed 101: the score was never played to, and nothing said so."""
    (said,) = unused_options(Rules(target=target, extension=extension))
    assert said.startswith(
        f"rule option 'extension' {idle}: an extension is a score above the target {target}"
    )
    assert unused_options(Rules(target=61, extension=(81, 101))) == []
    assert unused_options(Rules(target=151)) == []  # the default list, not given: nothing to say
    assert unused_options(Rules(format="fixed", deals=12, extension=(90,))) == []  # no target to play to
