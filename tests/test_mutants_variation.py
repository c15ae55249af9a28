"""A comment's variation as the replay checks it and the report and the replay page show it
(``manillen_replay.engine.variation``): the cards from a play on, who plays each, who takes each
trick and its points, the first card that is not a play of the deal with why, and the other trump
calls the replay page offers.

The expected plays come from the game itself (:class:`~manillen_replay.state.DealState`, the
rules' own state machine), not from the code under test.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import msgspec
import pytest

from manillen_replay.cards import CARD_POINTS, Card, iter_mask
from manillen_replay.engine import decode_and_replay, replay
from manillen_replay.engine.results import DealResult
from manillen_replay.engine.variation import (
    VariationCard,
    VariationProblem,
    call_choices,
    call_name,
    can_vary,
    chooser_of,
    play_variation,
    trump_of,
)
from manillen_replay.record import RuleOptions
from manillen_replay.rules import Contract, Rules
from manillen_replay.state import DealState

from .factories import SEATS, random_deal, random_record

SAMPLES = Path(__file__).resolve().parent.parent / "data" / "samples"

HOUSE_RULES = [
    Rules(),
    Rules(partner_exempt=False),
    Rules(underbuy="allowed"),
    Rules(underbuy="forced"),
    Rules(underbuy="forbidden_with_other_suit"),
    Rules(overtake_plain_suit=False),
]


def _sample(name: str):  # type: ignore[no-untyped-def]
    return decode_and_replay((SAMPLES / f"{name}.json").read_bytes())


def _state_at(deal: DealResult, rules: Rules, trick: int, play: int) -> DealState:
    """The deal as the game has it just before the card at ``play`` of ``trick`` (from 1)."""
    assert deal.hands is not None
    trump = None if deal.trump is None else int(deal.trump)
    state = DealState.start(rules, deal.dealer, trump, deal.hands)
    for number, done in enumerate(deal.tricks[:trick], 1):
        cards = done.cards if number < trick else done.cards[: play - 1]
        for card in cards:
            state = state.apply(int(card))
    return state


def _played_out(state: DealState, line: list[int]) -> list[VariationCard]:
    """The variation's cards as the game plays them from ``state``: seat, trick, winner, points."""
    shown: list[VariationCard] = []
    on_table = list(state.trick)
    waiting: list[int] = []  # places in ``shown`` of the trick under way
    for card in line:
        seat, number = state.to_play, state.tricks_done + 1
        state = state.apply(card)
        on_table.append(card)
        waiting.append(len(shown))
        shown.append(VariationCard(seat, Card(card), number, None, 0))
        if not state.trick:  # the trick is complete: its winner leads the next
            points = sum(CARD_POINTS[c] for c in on_table)
            for place in waiting:
                shown[place] = replace(shown[place], winner=state.leader, points=points)
            on_table, waiting = [], []
    return shown


def _random_line(state: DealState, rng: random.Random, length: int) -> list[int]:
    """Up to ``length`` legal cards from ``state`` on, each drawn from what the seat may play."""
    line: list[int] = []
    while len(line) < length and not state.is_over:
        card = rng.choice(list(iter_mask(state.legal_mask())))
        line.append(card)
        state = state.apply(card)
    return line


def _deals(seed: int, rules: Rules) -> tuple[list[DealResult], Rules]:
    """Random legal deals under ``rules``, the record saying so: trumps and muil, every dealer."""
    rng = random.Random(seed)
    record = random_record(seed, deals=4, rules=rules)
    muil = random_deal(rng, seed % 4, rules, trump=None)
    options = {
        name: getattr(rules, name)
        for name in ("partner_exempt", "underbuy", "overtake_plain_suit")
        if getattr(rules, name) != getattr(Rules(), name)
    }
    match = msgspec.structs.replace(record.match, rules=RuleOptions(**options))
    result = replay(msgspec.structs.replace(record, match=match, deals=[*record.deals, muil]))
    return [deal for deal in result.deals if deal.tricks], result.rules


# --------------------------------------------------------------------------- a sound variation


@pytest.mark.parametrize(
    "rules", HOUSE_RULES, ids=lambda r: f"{r.partner_exempt}-{r.underbuy}-{r.overtake_plain_suit}"
)
def test_a_variation_is_played_out_as_the_game_plays_it(rules: Rules) -> None:
    """From any play of a deal, a line of legal cards: each card by the seat whose turn it is,
    in its trick, every complete trick with its winner (who leads the next) and all its card
    points, the cards on the table before the play included; a trick left short has neither."""
    rng = random.Random(7)
    checked = 0
    for seed in range(3):
        deals, replayed_rules = _deals(seed, rules)
        assert replayed_rules == rules
        for deal in deals:
            for _ in range(4):
                trick = rng.randint(1, len(deal.tricks))
                play = rng.randint(1, len(deal.tricks[trick - 1].cards))
                state = _state_at(deal, rules, trick, play)
                line = _random_line(state, rng, rng.randint(1, 33))
                found = play_variation(deal, rules, trick, play, line, SEATS)
                assert found == _played_out(state, line), (seed, deal.number, trick, play)
                checked += 1
    assert checked >= 3 * 5 * 4


def test_a_variation_to_the_end_of_the_deal_from_the_first_lead() -> None:
    """The whole deal played again from the first card: eight tricks of four, each with a winner,
    the points of all eight making the deck's 60."""
    result = _sample("seed-trick")
    deal = result.deals[0]
    line = [int(card) for done in deal.tricks for card in done.cards]
    found = play_variation(deal, result.rules, 1, 1, line)
    assert not isinstance(found, VariationProblem)
    assert [(c.seat, c.card, c.trick) for c in found] == [
        (seat, card, done.number)
        for done in deal.tricks
        for seat, card in zip(done.seats, done.cards, strict=True)
    ]
    assert [(c.winner, c.points) for c in found[::4]] == [(t.winner, t.points) for t in deal.tricks]
    assert sum(c.points for c in found[::4]) == 60


def test_a_variation_from_the_middle_of_a_trick_counts_the_cards_already_down() -> None:
    """A line starting at the third card of the first trick: the trick's winner may be a seat
    that played before the line, and its points are those of all four cards."""
    result = _sample("seed-trick")
    deal = result.deals[0]
    first = deal.tricks[0]
    found = play_variation(deal, result.rules, 1, 3, [int(c) for c in first.cards[2:]])
    assert not isinstance(found, VariationProblem)
    assert [(c.seat, c.card, c.trick, c.winner, c.points) for c in found] == [
        (seat, card, 1, first.winner, first.points)
        for seat, card in zip(first.seats[2:], first.cards[2:], strict=True)
    ]
    # the last card only: the trick is complete with it
    (last,) = play_variation(deal, result.rules, 1, 4, [int(first.cards[3])])  # type: ignore[misc]
    assert (last.seat, last.winner, last.points) == (first.seats[3], first.winner, first.points)


def test_a_muil_deal_takes_a_variation() -> None:
    result = _sample("muil")
    deal = result.deals[0]
    assert deal.trump is None and can_vary(deal, result.rules)
    line = [int(card) for card in deal.tricks[0].cards]
    found = play_variation(deal, result.rules, 1, 1, line)
    assert not isinstance(found, VariationProblem)
    assert found[-1].winner == deal.tricks[0].winner


# --------------------------------------------------------------------------- refused, with why


def _problem(found: object) -> tuple[int, str]:
    assert isinstance(found, VariationProblem), found
    return found.index, found.message


@pytest.mark.parametrize("with_names", [True, False])
def test_each_wrong_card_is_named_at_its_place_with_who_and_why(with_names: bool) -> None:
    """A card the seat does not hold, one the rules forbid (with the rule broken, in words) and a
    card past the deal's end: each refused at its place in the line, counted from 1 in the words
    and from 0 in ``index``; the seat by the name given, or ``seat N``."""
    rng = random.Random(3)
    names = SEATS if with_names else ()
    seen = {"held": 0, "rule": 0}
    for seed in range(4):
        deals, rules = _deals(seed, Rules())
        for deal in deals:
            trick = rng.randint(1, len(deal.tricks))
            play = rng.randint(1, len(deal.tricks[trick - 1].cards))
            state = _state_at(deal, rules, trick, play)
            line = _random_line(state, rng, 33)
            assert play_variation(deal, rules, trick, play, line, names) == _played_out(state, line)
            at = rng.randrange(len(line))
            moment = _state_at(deal, rules, trick, play)
            for card in line[:at]:
                moment = moment.apply(card)
            seat = moment.to_play
            who = SEATS[seat] if with_names else f"seat {seat}"
            others = [c for s in range(4) if s != seat for c in iter_mask(moment.hands[s])]
            if others:
                wrong = rng.choice(others)
                assert _problem(play_variation(deal, rules, trick, play, [*line[:at], wrong], names)) == (
                    at,
                    f"{who} does not hold {Card(wrong)} at card {at + 1} of the variation",
                )
                seen["held"] += 1
            for card in iter_mask(moment.hands[seat]):
                kind = moment.violation(card)
                if kind is None:
                    continue
                found = play_variation(deal, rules, trick, play, [*line[:at], card, *line[at + 1 :]], names)
                assert _problem(found) == (
                    at,
                    f"{who} may not play {Card(card)} at card {at + 1} of the variation: "
                    + kind.value.replace("_", " "),
                )
                seen["rule"] += 1
            over = play_variation(deal, rules, trick, play, [*line, line[0]], names)
            assert _problem(over) == (
                len(line),
                f"the deal is over before card {len(line) + 1} of the variation",
            )
    assert seen["held"] > 10 and seen["rule"] > 10


@pytest.mark.parametrize("rules", HOUSE_RULES[:3], ids=lambda r: f"{r.partner_exempt}-{r.underbuy}")
def test_at_every_card_of_a_line_each_card_in_hand_is_taken_or_refused_as_the_game_says(rules: Rules) -> None:
    """At every card of a line, every card the seat holds is checked: taken when the game allows
    it (whether the trick is the seat's partner's or an opponent's), refused with the rule it
    breaks otherwise (a revoke, a failure to buy or to go over, in the trump's terms)."""
    rng = random.Random(11)
    kinds: set[str] = set()
    for seed in range(3):
        deals, _ = _deals(seed, rules)
        for deal in deals:
            state = _state_at(deal, rules, 1, 1)
            line = _random_line(state, rng, 32)
            for at, played in enumerate(line):
                seat = state.to_play
                for card in iter_mask(state.hands[seat]):
                    found = play_variation(deal, rules, 1, 1, [*line[:at], card], SEATS)
                    kind = state.violation(card)
                    if kind is None:
                        assert not isinstance(found, VariationProblem), (seed, deal.number, at, found)
                        continue
                    kinds.add(kind.value)
                    assert _problem(found) == (
                        at,
                        f"{SEATS[seat]} may not play {Card(card)} at card {at + 1} of the variation: "
                        + kind.value.replace("_", " "),
                    )
                state = state.apply(played)
    assert len(kinds) >= 3, kinds


def test_a_name_list_short_of_a_seat_names_that_seat_by_number() -> None:
    result = _sample("seed-trick")
    deal = result.deals[0]
    first = deal.tricks[0]
    # the second card of trick 1 (Bert's) replaced by one of Anna's
    wrong = int(deal.tricks[1].cards[1])
    line = [int(first.cards[0]), wrong]
    assert _problem(play_variation(deal, result.rules, 1, 1, line, ["Anna"]))[1].startswith(
        f"seat {first.seats[1]} does not hold"
    )
    assert _problem(play_variation(deal, result.rules, 1, 1, line, ["Anna", "Bert"]))[1].startswith(
        "Bert does not hold"
    )


def test_the_play_a_variation_starts_at_must_be_in_the_deal() -> None:
    """Trick and play counted from 1: the first and the last play of the deal start a variation,
    a trick or play outside it (0, or one past the end) is refused for the whole line."""
    result = _sample("seed-trick")
    deal, rules = result.deals[0], result.rules
    last = deal.tricks[-1]
    assert not isinstance(play_variation(deal, rules, 1, 1, [int(deal.tricks[0].cards[0])]), VariationProblem)
    assert not isinstance(play_variation(deal, rules, 8, 4, [int(last.cards[3])]), VariationProblem)
    for trick, play in [(0, 1), (9, 1), (1, 0), (1, 5), (8, 5), (-1, 1)]:
        assert _problem(play_variation(deal, rules, trick, play, [int(last.cards[3])])) == (
            -1,
            f"the deal has no play {play} in trick {trick} to start a variation from",
        )


def test_an_abandoned_deal_takes_variations_only_from_its_plays() -> None:
    """A deal stopped after its third trick: its last play starts a variation, the trick after it
    does not; the line may go on past where the deal stopped, to the deal's end."""
    record = json.loads((SAMPLES / "seed-trick.json").read_text())
    record["deals"][0]["tricks"] = record["deals"][0]["tricks"][:3]
    result = decode_and_replay(json.dumps(record).encode())
    deal, rules = result.deals[0], result.rules
    assert len(deal.tricks) == 3
    state = _state_at(deal, rules, 3, 4)
    line = _random_line(state, random.Random(1), 33)
    assert len(line) == 21
    assert play_variation(deal, rules, 3, 4, line) == _played_out(state, line)
    assert _problem(play_variation(deal, rules, 4, 1, line[1:])) == (
        -1,
        "the deal has no play 1 in trick 4 to start a variation from",
    )


# --------------------------------------------------------------------------- which deals take one


def test_only_a_four_player_deal_with_its_hands_call_and_cards_takes_a_variation() -> None:
    seed = _sample("seed-trick")
    deal, rules = seed.deals[0], seed.rules
    assert can_vary(deal, rules)
    three = _sample("variant-three")
    played = next(d for d in three.deals if d.tricks)
    assert not can_vary(played, three.rules)
    assert _problem(play_variation(played, three.rules, 1, 1, [int(played.tricks[0].cards[0])])) == (
        -1,
        "variations are for the four-player game, not 'three'",
    )
    # the same deal in another variant's rules, or without its hands, its cards or its call
    for changed, rules_now in [
        (deal, replace(rules, variant="six")),
        (replace(deal, hands=None), rules),
        (replace(deal, trump=None, contract=None), rules),
        (replace(deal, trump=None, contract=Contract.TRUMP), rules),
        (_without_tricks(deal), rules),
    ]:
        assert not can_vary(changed, rules_now)
        assert call_choices(changed, rules_now) == []
        if rules_now.variant == "four":
            assert _problem(play_variation(changed, rules_now, 1, 1, [0])) == (
                -1,
                "a variation needs the deal's hands, its trump call and its cards played",
            )
        else:
            assert _problem(play_variation(changed, rules_now, 1, 1, [0]))[1].endswith("not 'six'")
    # muil and blind muil are calls too
    for contract in (Contract.MUIL, Contract.BLIND_MUIL):
        assert can_vary(replace(deal, trump=None, contract=contract), rules)


def _without_tricks(deal: DealResult) -> DealResult:
    bare = replace(deal)
    bare.tricks = []
    return bare


# --------------------------------------------------------------------------- the other calls


def test_the_calls_offered_are_the_choosers_under_the_trump_choice_rule() -> None:
    """The replay page offers the calls the chooser could have made instead: every other suit and
    muil under ``free``; under ``held_suit`` the suits of the chooser's hand (the partner's after
    en face, not the dealer's) and muil; none under ``turned_card``."""
    result = _sample("cafe-rules")
    deal = result.deals[1]  # dealt by seat 1, who passed the choice: seat 3 made clubs
    assert (deal.dealer, deal.chooser, deal.en_face, call_name(int(deal.trump))) == (1, 3, True, "C")
    assert chooser_of(deal) == 3
    assert call_choices(deal, replace(result.rules, trump_choice="free")) == ["H", "D", "S", "muil"]
    choosers = sorted({int(Card(c).suit) for c in iter_mask(deal.hands[3])})
    dealers = sorted({int(Card(c).suit) for c in iter_mask(deal.hands[1])})
    assert choosers != dealers, "the deal tells the chooser's hand from the dealer's"
    assert call_choices(deal, replace(result.rules, trump_choice="held_suit")) == [
        *("HDCS"[s] for s in choosers if s != 2),
        "muil",
    ]
    assert (
        call_choices(deal, replace(result.rules, trump_choice="turned_card", en_face=False, blind_muil=False))
        == []
    )
    muil = result.deals[0]  # blind muil
    assert call_choices(muil, replace(result.rules, trump_choice="free")) == ["H", "D", "C", "S"]


def test_a_deal_without_a_chooser_is_the_dealers_choice() -> None:
    deal = _sample("seed-trick").deals[0]
    assert chooser_of(deal) == deal.dealer == 3
    assert chooser_of(replace(deal, chooser=None)) == 3
    assert chooser_of(replace(deal, chooser=1)) == 1


def test_the_calls_are_named_as_the_record_names_them() -> None:
    assert [call_name(t) for t in (0, 1, 2, 3, None)] == ["H", "D", "C", "S", "muil"]
    assert [trump_of(name) for name in ("H", "D", "C", "S", "muil")] == [0, 1, 2, 3, None]
    with pytest.raises(ValueError):
        trump_of("X")
