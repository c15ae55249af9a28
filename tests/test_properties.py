"""Property tests over random games: the engine against the rules, on many deals hypothesis picks."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from manillen_replay.cards import DECK_32_MASK, Card, iter_mask, mask_of
from manillen_replay.engine import replay
from manillen_replay.players import GenerateOptions, iter_matches, parse_players
from manillen_replay.record import Deal, MatchInfo, Record, dumps, loads
from manillen_replay.rules import Rules, legal_mask, multiplier, score_deal, trump_options
from manillen_replay.state import DealState

from .factories import SEATS, deal_hands, deal_record, play_out, random_deal

rules_strategy = st.builds(
    Rules,
    partner_exempt=st.booleans(),
    underbuy=st.sampled_from(["forbidden", "allowed", "forbidden_with_other_suit", "forced"]),
)
trump_strategy = st.sampled_from([None, 0, 1, 2, 3])


def naive_beats(card: Card, other: Card, trump: int | None) -> bool:
    """rules.md read literally: a higher card of the same suit beats, and a trump beats any other suit."""
    if card.suit == other.suit:
        return card.rank > other.rank
    return trump is not None and card.suit == trump


def naive_winner(trick: list[Card], trump: int | None) -> int:
    """The position in the trick of the card that wins it so far, by :func:`naive_beats`."""
    best = 0
    for position in range(1, len(trick)):
        if naive_beats(trick[position], trick[best], trump):
            best = position
    return best


def naive_legal(
    hand: list[Card], trick: list[Card], trump: int | None, partner_winning: bool, rules: Rules
) -> set[Card]:
    """The rules of rules.md read literally, card by card: an oracle written apart from the engine."""
    if not trick:
        return set(hand)
    led = trick[0].suit

    def beats(card: Card, other: Card) -> bool:
        return naive_beats(card, other, trump)

    winner = trick[naive_winner(trick, trump)]
    obliged = not partner_winning or not rules.partner_exempt
    following = [c for c in hand if c.suit == led]
    if following:
        overtaking = [c for c in following if beats(c, winner)]
        return set(overtaking) if obliged and overtaking else set(following)
    if trump is None:
        return set(hand)
    trumps_on_table = [c for c in trick if c.suit == trump]
    winning_trumps = [c for c in hand if c.suit == trump and beats(c, winner)]
    if obliged and winning_trumps:
        return set(winning_trumps)
    if rules.underbuy == "allowed" or not trumps_on_table:
        return set(hand)
    top = max(trumps_on_table, key=lambda c: c.rank)
    underbuys = [c for c in hand if c.suit == trump and c.rank < top.rank]
    if rules.underbuy == "forced":
        # void and unable to beat an opponent's trump: a trump is compulsory, even a lower one
        return set(underbuys) if obliged and underbuys else set(hand)
    others = [c for c in hand if c not in underbuys]
    if rules.underbuy == "forbidden_with_other_suit" and all(c.suit == trump for c in hand):
        return set(hand)
    return set(others) if others else set(hand)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), rules=rules_strategy, trump=trump_strategy, dealer=st.integers(0, 3))
def test_random_legal_games_keep_the_invariants(seed, rules, trump, dealer):
    """8 tricks, 32 distinct cards, 60 points, never an empty set of legal plays."""
    rng = random.Random(seed)
    state = DealState.start(rules, dealer, trump, deal_hands(rng))
    played = []
    tricks = 0
    while not state.is_over:
        mask = state.legal_mask()
        assert mask != 0
        card = rng.choice(list(iter_mask(mask)))
        played.append(card)
        state = state.apply(card, strict=True)
        tricks += not state.trick
    assert tricks == 8
    assert len(set(played)) == 32 and mask_of(played) == DECK_32_MASK
    assert sum(state.taken) == 60
    assert all(hand == 0 for hand in state.hands)


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    rules=rules_strategy,
    trump=trump_strategy,
    partner=st.booleans(),
    trick_size=st.integers(0, 3),
)
def test_legal_mask_agrees_with_the_rules_read_literally(seed, rules, trump, partner, trick_size):
    rng = random.Random(seed)
    deck = [Card(c) for c in iter_mask(DECK_32_MASK)]
    rng.shuffle(deck)
    trick, hand = deck[:trick_size], deck[trick_size : trick_size + rng.randint(1, 8)]
    mask, _ = legal_mask(trick, mask_of(hand), trump, partner, rules)
    assert set(iter_mask(mask)) == naive_legal(hand, trick, trump, partner, rules)


def sloppy_deal(
    rng: random.Random, dealer: int, trump: int | None, rules: Rules, slip: float
) -> tuple[Deal, set]:
    """A deal where each card is illegal with chance ``slip``; returns the plays that broke a rule."""
    hands = deal_hands(rng)
    illegal = set()

    def choose(state: DealState) -> Card:
        held = [Card(c) for c in iter_mask(state.hands[state.to_play])]
        allowed = naive_legal(held, [Card(c) for c in state.trick], trump, state.partner_winning(), rules)
        forbidden = [c for c in held if c not in allowed]
        if forbidden and rng.random() < slip:
            illegal.add((state.tricks_done + 1, len(state.trick) + 1))
            return rng.choice(forbidden)
        return rng.choice(sorted(allowed))

    tricks, _ = play_out(DealState.start(rules, dealer, trump, hands), choose)
    return deal_record(dealer, trump, hands, tricks), illegal


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32), rules=rules_strategy, trump=trump_strategy, slip=st.floats(0.0, 0.6))
def test_reporter_flags_exactly_the_plays_outside_the_legal_set(seed, rules, trump, slip):
    rng = random.Random(seed)
    deal, illegal = sloppy_deal(rng, 0, trump, rules, slip)
    options = rules.to_options()
    record = Record(
        format="manillen/1", match=MatchInfo(seats=list(SEATS), rules=loads_rules(options)), deals=[deal]
    )
    result = replay(record)
    assert {(v.trick, v.play) for v in result.violations} == illegal
    points = result.deals[0].points
    assert points is not None and sum(points) == 60


def loads_rules(options: dict):
    from msgspec import convert

    from manillen_replay.record.model import RuleOptions

    return convert(options, RuleOptions)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), deals=st.integers(0, 6))
def test_canonical_output_round_trips(seed, deals):
    rng = random.Random(seed)
    record = Record(
        format="manillen/1",
        match=MatchInfo(id=f"r{seed}", seats=list(SEATS)),
        deals=[random_deal(rng, i % 4) for i in range(deals)],
    )
    for pretty in (True, False):
        text = dumps(record, pretty=pretty)
        assert dumps(loads(text), pretty=pretty) == text


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32), trump=trump_strategy)
def test_winner_of_a_trick_takes_the_next_lead(seed, trump):
    rng = random.Random(seed)
    deal = random_deal(rng, 2, trump=trump)
    result = replay(Record(format="manillen/1", match=MatchInfo(seats=list(SEATS)), deals=[deal]))
    tricks = result.deals[0].tricks
    assert tricks[0].leader == 3
    for before, after in itertools.pairwise(tricks):
        assert after.leader == before.winner
    for trick in tricks:
        position = naive_winner([Card(c) for c in trick.cards], trump)
        assert trick.winner == trick.seats[position]


house_rules_strategy = st.fixed_dictionaries(
    {
        "underbuy": st.sampled_from(["forbidden", "allowed", "forbidden_with_other_suit", "forced"]),
        "capot": st.sampled_from(["plain", "double", "fixed_30", "fixed_60"]),
        "multipliers": st.sampled_from(["multiplied", "added"]),
        "muil_double": st.booleans(),
        "trump_choice": st.sampled_from(["free", "held_suit", "turned_card"]),
        "klop_by": st.sampled_from(["opponents", "left_of_dealer"]),
        "target": st.sampled_from([61, 101]),
        "max_multiplier": st.sampled_from([4, None]),
        "klop_on_muil": st.booleans(),
    }
)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), options=house_rules_strategy)
def test_generated_matches_under_random_house_rules_replay_by_those_rules(seed, options):
    """Matches generated under any mix of the house rules replay without a problem, every deal
    scored by the rules' own multiplier and capot, the match ending at its target."""
    rules = Rules.from_options(options)
    players = tuple(parse_players("Anna:club,Bert:novice,Carla:club,Dirk:novice"))
    made = next(iter_matches(GenerateOptions(players=players, rules=rules, seed=seed)))
    result = replay(made.record)
    assert result.rules == rules and result.finished
    assert max(result.final_score) >= rules.target
    for deal, written in zip(result.deals, made.record.deals, strict=True):
        if deal.points is None:
            continue
        assert deal.contract is not None and deal.hands is not None
        chooser = deal.dealer if deal.chooser is None else deal.chooser
        turned = None if deal.trump is None else int(deal.trump)
        assert (None if deal.trump is None else int(deal.trump)) in trump_options(
            rules, deal.hands[chooser], turned
        )
        if rules.trump_choice == "turned_card":
            assert Card.parse(written.turned).suit == deal.trump
        factor = multiplier(deal.contract, deal.en_face, deal.knocks, deal.carried, rules)
        assert deal.score == score_deal(deal.points, factor, rules)
