"""The lines of the variants other than the four-player game (manillen_replay.solver.lines'
``variant_line``) and the reasons of their costly cards (manillen_replay.analysis.reasons)."""

from __future__ import annotations

import json
import random
import re
from functools import cache
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from manillen_replay.analysis.costs import PlayCost, variant_view_costs
from manillen_replay.analysis.deal_analysis import _names
from manillen_replay.analysis.layouts import iter_variant_views
from manillen_replay.analysis.reasons import (
    REASON_THRESHOLD,
    Reason,
    better_cards,
    deal_reasons,
    explain,
    swing_trick,
)
from manillen_replay.cards import CARD_POINTS, Card, CardSet, iter_mask
from manillen_replay.cli import cli
from manillen_replay.engine import MatchResult, replay
from manillen_replay.record.text import loads_text
from manillen_replay.rules import Rules
from manillen_replay.solver import SolverError
from manillen_replay.solver.lines import (
    Line,
    LinePlay,
    LineTrick,
    cheapest_first,
    variant_line,
    variant_lines,
)
from manillen_replay.solver.variants import SOLVED_VARIANTS, VariantSearch
from manillen_replay.state import DealState, table_tops
from manillen_replay.store import Store

from .test_solver_variants import _choices, brute_force, random_state

pytestmark = pytest.mark.solver

NOTATION = Path(__file__).resolve().parent.parent / "data" / "notation"


def replay_line(state: DealState, line: Line) -> DealState:
    """Play the line through the engine's own state: every card legal (after its move, if any)."""
    for play in line.plays:
        assert play.seat == state.to_play
        if play.moved:
            state = state.move_to_empty_place(play.seat)
        assert state.legal_mask() >> play.card & 1, f"{Card(play.card)} is not legal here"
        state = state.apply(play.card)
    return state


def in_play(state: DealState) -> int:
    """The card points still to be taken: hands, table piles and the trick on the table."""
    points = sum(CardSet(hand).points for hand in state.hands) + sum(CARD_POINTS[c] for c in state.trick)
    return points + sum(CARD_POINTS[c] for piles in state.table for pile in piles for c in pile)


def assert_line_adds_up(state: DealState, line: Line) -> DealState:
    """The line is legal, ends the deal, and its tricks and value add up as the engine counts them."""
    end = replay_line(state, line)
    assert end.is_over
    shape = state.rules.shape
    assert [t.number for t in line.tricks] == list(range(state.tricks_done + 1, shape.tricks + 1))
    assert all(len(t.plays) == shape.trick_size for t in line.tricks)
    assert sum(t.points for t in line.tricks) == in_play(state)
    assert line.value == line.taken(0) == end.taken[0] - state.taken[0]
    assert line.taken(1) == end.taken[1] - state.taken[1]
    assert line.sides == tuple(state.team_of(seat) for seat in range(shape.players))
    # each trick's winner is the engine's: the leader of the next
    for trick, following in zip(line.tricks, line.tricks[1:], strict=False):
        assert following.leader == trick.winner
        assert trick.winning_card in [p.card for p in trick.plays]
    return end


@settings(max_examples=12, deadline=None)
@given(
    variant=st.sampled_from(SOLVED_VARIANTS),
    seed=st.integers(0, 2**32),
    late=st.integers(0, 100),
)
def test_a_variant_line_is_legal_and_worth_the_positions_value(variant: str, seed: int, late: int):
    """On random deals of every variant (house rules at random, table moves at random), from a
    position in the second half of the deal: the line is legal by the engine, ends the deal with
    the points it says, and is worth the search's value of the position."""
    shape = Rules(variant=variant).shape
    cards = shape.tricks * shape.trick_size
    plays = cards // 2 + late * (cards // 2 - 1) // 100
    state, rules = random_state(variant, seed, plays, seed % 2**16)
    search = VariantSearch(rules, state.dealer, state.trump)
    line = variant_line(state, search)
    assert_line_adds_up(state, line)
    assert line.value == VariantSearch(rules, state.dealer, state.trump).position_value(state)


@pytest.mark.parametrize("variant", SOLVED_VARIANTS)
def test_a_variant_line_takes_the_cheapest_best_choice_at_every_card(variant: str):
    """On endings of each variant, every choice of the line is one of the best by a plain minimax
    over the engine's states, the cheapest of them (without a move before with one); after a given
    first card the line is worth that card's value."""
    shape = Rules(variant=variant).shape
    left = {2: 4, 3: 3, 4: 2, 6: 2}[shape.trick_size]
    for seed in range(4):
        offset = random.Random(seed).randrange(shape.trick_size)
        start, _rules = random_state(variant, seed, (shape.tricks - left) * shape.trick_size + offset, seed)
        line = variant_line(start)
        assert line.value == brute_force(start)
        state = start
        for play in line.plays:
            choices = _choices(state)
            best = (max if state.team_of(state.to_play) == 0 else min)(v for _, _, v in choices)
            cheapest = min(((cheapest_first(card), moved, card) for moved, card, v in choices if v == best))
            assert (play.moved, play.card) == (cheapest[1], cheapest[2])
            if play.moved:
                state = state.move_to_empty_place(play.seat)
            state = state.apply(play.card)
        firsts = [card for card in iter_mask(start.legal_mask())]
        values = {card: v for moved, card, v in _choices(start) if not moved}
        for card, after in zip(firsts, variant_lines(start, firsts), strict=True):
            assert after.plays[0].card == card and not after.plays[0].moved
            assert after.value == values[card]
            assert_line_adds_up(start, after)


def test_a_variant_line_refuses_a_card_the_seat_may_not_play():
    state, _rules = random_state("three", 5, 9)
    deck = Rules(variant="three").shape.deck_mask
    illegal = next(c for c in iter_mask(deck) if not state.legal_mask() >> c & 1)
    with pytest.raises(SolverError, match="may not be played"):
        variant_line(state, first=illegal)
    if not state.table:
        with pytest.raises(SolverError, match="cannot move a table card"):
            variant_line(state, first=next(iter_mask(state.legal_mask())), moved=True)


def cards(text: str) -> int:
    return CardSet.parse(text).mask


def plays_of(line: Line) -> list[tuple[int, str, bool]]:
    return [(p.seat, str(Card(p.card)), p.moved) for p in line.plays]


NO_PILES = ((), (), (), ())


def test_two_open_endgame_moves_a_table_card_to_take_the_trick():
    """two_open, the last two tricks, Anna (seat 0) leads 9S. Bert has nothing in the hand, only a
    pile of AS under a face-up 7D, and an empty fourth place. Playing 7D loses the trick and then
    the AS to Anna's KD (Anna takes 7 points); moving 7D to the fourth place first turns up the
    AS, which takes the 9S, and Bert leads 7D to Anna's KD (Anna takes 3)."""
    rules = Rules(variant="two_open")
    bert = ((), (), (int(Card.SA), int(Card.D7)), ())
    state = DealState(rules, 1, 0, (cards("9S KD"), 0), 0, (), 14, (40, 17), (NO_PILES, bert))
    line = variant_line(state)
    assert plays_of(line) == [(0, "9S", False), (1, "AS", True), (1, "7D", False), (0, "KD", False)]
    assert [(t.number, t.leader, t.winner, t.points) for t in line.tricks] == [(15, 0, 1, 4), (16, 1, 0, 3)]
    assert line.value == 3 and line.taken(1) == 4
    assert_line_adds_up(state, line)
    # without the move, Bert's 7D: Anna takes both tricks
    after = variant_line(state.apply(int(Card.S9)), first=int(Card.D7))
    assert after.value == 7


def test_two_open_fours_endgame_leads_the_top_heart():
    """two_open_fours, the last trick of four cards (each plays two, in turn): Anna holds 10H 7S,
    Bert AH 8S, muil. Anna's 10H led takes all four (9 points); her 7S led loses them to Bert's 8S."""
    rules = Rules(variant="two_open_fours")
    state = DealState(
        rules, 1, None, (cards("10H 7S"), cards("AH 8S")), 0, (), 7, (20, 31), (NO_PILES, NO_PILES)
    )
    line = variant_line(state)
    assert plays_of(line) == [(0, "10H", False), (1, "AH", False), (0, "7S", False), (1, "8S", False)]
    assert [(t.winner, t.points) for t in line.tricks] == [(0, 9)]
    assert line.value == 9
    assert variant_line(state, first=int(Card.S7)).value == 0


def test_three_endgame_the_dealer_cashes_the_top_club_first():
    """three, the last two tricks, the dealer (seat 0, alone) leads holding 10C KC against AC 7S and
    QC JC. The 10C first takes the AC and then the KC the rest (15 points); the KC first is
    overtaken by the AC, and the 7S led then wins the last trick."""
    rules = Rules(variant="three")
    hands = (cards("10C KC"), cards("AC 7S"), cards("QC JC"))
    state = DealState(rules, 0, None, hands, 0, (), 8, (30, 15))
    line = variant_line(state)
    assert plays_of(line) == [
        (0, "10C", False), (1, "AC", False), (2, "JC", False),  # the cheaper club of two alike
        (0, "KC", False), (1, "7S", False), (2, "QC", False),
    ]  # fmt: skip
    assert [(t.winner, t.points) for t in line.tricks] == [(0, 10), (0, 5)]
    assert line.value == 15 and line.sides == (0, 1, 1)
    assert variant_line(state, first=int(Card.CK)).value == 0


def test_three_dummy_endgame_leads_the_cheaper_of_two_equal_cards():
    """three_dummy, dealt by seat 0: the dummy (seat 3, the dealer's) plays between seats 1 and 2,
    from its face-up table cards. Either lead of the dealer's gives side 0 the hearts (13 points)
    and the spades to seat 2's AS (4): the line leads the cheaper, 7S."""
    rules = Rules(variant="three_dummy")
    dummy = ((int(Card.HK),), (int(Card.S9),), (), ())
    hands = (cards("10H 7S"), cards("AH 8S"), cards("JH AS"), 0)
    state = DealState(rules, 0, None, hands, 0, (), 6, (20, 23), (NO_PILES, NO_PILES, NO_PILES, dummy))
    line = variant_line(state)
    assert plays_of(line) == [
        (0, "7S", False), (1, "8S", False), (3, "9S", False), (2, "AS", False),
        (2, "JH", False), (0, "10H", False), (1, "AH", False), (3, "KH", False),
    ]  # fmt: skip
    assert [(t.winner, t.points) for t in line.tricks] == [(2, 4), (0, 13)]
    assert line.value == 13 and line.sides == (0, 1, 1, 0)
    assert variant_line(state, first=int(Card.H10)).value == 13


@pytest.mark.parametrize("variant", ["six", "six_short"])
def test_six_endgame_a_follower_throws_its_ace_onto_its_partners_trick(variant: str):
    """six and six_short, the last two tricks, muil: Bert (seat 1) holds AH KH and no club. Whatever
    Anna leads, Bert's side keeps the AH from Anna's 10H: on the 7C led (the cheaper lead of two
    alike) Bert throws the AH onto the trick his partner Fien's QC takes."""
    rules = Rules(variant=variant)
    hands = tuple(cards(h) for h in ("10H 7C", "AH KH", "7H 8C", "8H 9C", "9H JC", "JH QC"))
    shape = rules.shape
    taken = (20, 60 - 20 - 16 - (8 if variant == "six_short" else 0))
    state = DealState(rules, 0, None, hands, 0, (), shape.tricks - 2, taken)
    line = variant_line(state)
    assert plays_of(line)[:6] == [
        (0, "7C", False), (1, "AH", False), (2, "8C", False),
        (3, "9C", False), (4, "JC", False), (5, "QC", False),
    ]  # fmt: skip
    assert [(t.winner, t.points) for t in line.tricks] == [(5, 7), (0, 9)]
    assert line.value == 9 and line.taken(1) == 7
    assert variant_line(state, first=int(Card.H10)).value == 9
    assert_line_adds_up(state, line)


# --------------------------------------------------------------------------- the reasons


@cache
def sample(name: str) -> MatchResult:
    """A shipped sample of a variant, replayed."""
    (record,) = loads_text((NOTATION / f"variant-{name}.mnl").read_text())
    return replay(record)


@cache
def sample_reasons(name: str, late: bool) -> tuple[tuple[PlayCost, ...], tuple[Reason, ...]]:
    """The view costs of a sample's plays (the second half's only with ``late``: quick) and the
    reasons of its costly cards."""
    result = sample(name)
    deal = result.deals[0]
    count = result.rules.shape.tricks * result.rules.shape.trick_size
    plays = set(range(count // 2, count)) if late else None
    costs = variant_view_costs(deal, result.rules, plays=plays)
    names = _names(result, deal)
    return tuple(costs), tuple(deal_reasons(deal, result.rules, costs, names=names, seed=0))


@pytest.mark.parametrize(("name", "late"), [("three", True), ("three-dummy", True), ("six-short", False)])
def test_the_reasons_of_a_variants_costly_cards(name: str, late: bool):
    """Each costly card of a shipped sample gets its reason: the lines after the card played and
    after the better card on a layout the player could not tell from the real one and on the real
    deal, legal and adding up, the real ones worth the hindsight values; the words name the
    player's side by its people, in English and Dutch, and the trick where the points change hands."""
    result = sample(name)
    deal = result.deals[0]
    rules = result.rules
    costs, reasons = sample_reasons(name, late)
    costly = [c for c in costs if c.legal and not c.forced and (c.sure_view_cost or 0) >= REASON_THRESHOLD]
    assert reasons and [(r.trick, r.play) for r in reasons] == [(c.trick, c.play) for c in costly]
    views = {(v.moment.trick, v.moment.play): v for v in iter_variant_views(deal, rules)}
    names = _names(result, deal)
    for reason, cost in zip(reasons, costly, strict=True):
        moment = views[(cost.trick, cost.play)].moment
        side = moment.state.team_of(cost.seat)
        assert reason.better == better_cards(cost)[0]
        for line in reason.lines().values():
            assert_line_adds_up(line.start, line)
        assert reason.view_played.start == reason.view_better.start
        assert reason.real_played.start == reason.real_better.start
        assert reason.view_played.plays[0].card == reason.real_played.plays[0].card == cost.card
        assert reason.view_better.plays[0].card == reason.real_better.plays[0].card == reason.better
        # the layout keeps what the player saw: their own hand, the face-up table cards, the trick
        start, real = reason.view_played.start, reason.real_played.start
        assert isinstance(start, DealState) and isinstance(real, DealState)
        assert start.hands[cost.seat] == real.hands[cost.seat] and start.trick == real.trick
        assert [table_tops(piles) for piles in start.table] == [table_tops(piles) for piles in real.table]
        if not moment.moved:
            assert reason.real_played.taken(side) == cost.values[cost.card].hindsight
            assert reason.real_better.taken(side) == cost.values[reason.better].hindsight
        people = [names[s] for s in range(rules.shape.people) if moment.state.team_of(s) == side]
        team = " & ".join(people) if len(people) < 3 else f"{', '.join(people[:-1])} & {people[-1]}"
        verb, werkwoord = ("take", "halen") if len(people) > 1 else ("takes", "haalt")
        assert f"{team} {verb} {reason.view_played.taken(side)} card points from here" in reason.explanation
        assert f"{team} {werkwoord} vanaf hier {reason.view_played.taken(side)} kaartpunten" in (
            reason.explanation_nl
        )
        assert (
            "dummy &" not in reason.explanation and "& " + names[deal.dealer] + "'s" not in reason.explanation
        )
        if reason.swing is not None:
            assert (
                f"trick {reason.swing}" in reason.explanation
                and f"slag {reason.swing}" in reason.explanation_nl
            )
    again = deal_reasons(deal, rules, list(costs), names=names, seed=0)
    assert tuple(again) == reasons, "the same seed gives the same reasons"


def _bert_moves_his_seven_aside() -> tuple[Line, Line]:
    """two_open's endgame after Anna leads 9S: the line after Bert's 7D and the line after he
    moves the 7D aside and plays the AS it turns up."""
    rules = Rules(variant="two_open")
    bert = ((), (), (int(Card.SA), int(Card.D7)), ())
    state = DealState(rules, 1, 0, (cards("9S KD"), 0), 0, (), 14, (40, 17), (NO_PILES, bert))
    after_lead = state.apply(int(Card.S9))
    return variant_line(after_lead, first=int(Card.D7)), variant_line(
        after_lead, first=int(Card.SA), moved=True
    )


def test_a_two_player_reason_says_the_player_alone_takes_the_points():
    """two_open, the endgame where Bert must move his 7D aside to turn up the AS: the reason,
    every hand known, says the trick where the points change hands and what Bert alone takes."""
    played, better = _bert_moves_his_seven_aside()
    assert better.plays[0].moved and swing_trick(played, better, 1) == 15
    names = ["Anna", "Bert"]
    words = explain(
        played, better, seat=1, card=Card.D7, better_card=Card.SA, names=names, lang="en", layouts=0, trump=0
    )
    assert words == (
        "Why, with every hand known and the best play after it: after the 7♦, Anna's 9♠ takes trick 15 "
        "(0 points); after the A♠ it is Bert's: Bert's A♠ takes it. Bert takes 0 card points from here "
        "after the 7♦, 4 after the A♠."
    )
    dutch = explain(
        played, better, seat=1, card=Card.D7, better_card=Card.SA, names=names, lang="nl", layouts=0, trump=0
    )
    assert "na de koeken zeven neemt Anna slag 15 met de schoppen negen (0 punten)" in dutch
    assert "Bert haalt vanaf hier 0 kaartpunten na de koeken zeven, 4 na de schoppen aas." in dutch


@pytest.fixture(scope="module")
def reviewed_three_dummy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ``three_dummy`` sample's archive, reviewed by ``manillen analyze --depth solver`` (few layouts)."""
    db = tmp_path_factory.mktemp("three-dummy") / "three.duckdb"
    runner = CliRunner()
    imported = runner.invoke(cli, ["import", str(NOTATION / "variant-three-dummy.mnl"), "--db", str(db)])
    assert imported.exit_code == 0, imported.output
    analysed = runner.invoke(
        cli, ["analyze", "--db", str(db), "--depth", "solver", "--samples", "4", "--quiet"]
    )
    assert analysed.exit_code == 0, analysed.output
    return db


def test_the_solver_review_of_a_variant_stores_the_reasons_and_their_lines(reviewed_three_dummy: Path):
    """``manillen analyze --depth solver`` on a variant's sample stores each costly card's reason
    in its finding's words and its four lines in ``finding_lines``, as for the four-player game."""
    db = reviewed_three_dummy
    with Store(db, read_only=True) as store:
        findings = store.query(
            "SELECT trick, play, explanation, explanation_nl FROM findings WHERE kind = 'costly_card'"
        )
        lines = store.query("SELECT * FROM finding_lines ORDER BY trick, play, line, layout, step")
    why = findings.filter(pl.col("explanation").str.contains("Why, on one way the hidden cards could lie"))
    assert why.height > 0 and why["explanation_nl"].str.contains("Waarom, in één verdeling").all()
    places = lines.select("trick", "play").unique().sort("trick", "play")
    assert places.rows() == why.select("trick", "play").sort("trick", "play").rows()
    shape = Rules(variant="three_dummy").shape
    for (trick, play, _line, layout), rows in lines.group_by(
        "trick", "play", "line", "layout", maintain_order=True
    ):
        assert rows["step"].to_list() == list(range(1, rows.height + 1))
        assert rows.height == shape.tricks * shape.trick_size - ((trick - 1) * shape.trick_size + play - 1)
        assert rows["line_trick"][-1] == shape.tricks
        assert all(card in held for card, held in zip(rows["card"], rows["held"], strict=True))
        assert (rows["layouts"].is_null().all()) == (layout == "real")
    # the dummy's cards are played by the dealer and named as the dummy's
    assert "Anna's dummy" in lines["player"].to_list()


def test_a_card_of_the_dummy_is_judged_by_what_the_dealer_could_see(reviewed_three_dummy: Path):
    """The dealer plays the dummy's cards: a finding at the dummy's seat names the card's place
    (``Anna's dummy``) but the dealer as the one who chose it and could see, and the dealer's
    side as the dealer's, never ``Anna's dummy could see`` or ``Anna's dummy's team``."""
    with Store(reviewed_three_dummy, read_only=True) as store:
        at_dummy = store.query(
            "SELECT explanation, explanation_nl FROM findings WHERE seat = 3 AND trick IS NOT NULL"
        )
    assert at_dummy.height > 0
    for en, nl in at_dummy.iter_rows():
        assert "from what Anna could see" in en and "Anna's dummy could" not in en, en
        assert "Anna's dummy's team" not in en, en
        assert "met wat Anna kon weten" in nl and "Anna's dummy kon" not in nl, nl


def test_a_card_of_the_dummy_is_the_dealer_s_finding_shown_as_the_dummy_s(reviewed_three_dummy: Path):
    """The dealer chose the dummy's cards: a finding on one is filed under the dealer (``player``),
    as ``deal_seats`` and ``plays`` credit the card, so ``--player Anna`` and Anna's accuracy
    count it; the listing still names the card's hand ``Anna's dummy`` (``blinde van Anna``)."""
    db = str(reviewed_three_dummy)
    with Store(reviewed_three_dummy, read_only=True) as store:
        at_dummy = store.query("SELECT trick, play, player FROM findings WHERE seat = 3").rows()
        accuracy = store.query("SELECT player, cards FROM player_accuracy WHERE scope = 'all'").rows()
        chosen = store.query(
            "SELECT count(*) FROM play_costs c JOIN card_values v USING (match_id, deal, trick, play) "
            "WHERE c.seat IN (0, 3) AND c.legal AND NOT c.forced AND c.view_cost IS NOT NULL "
            "GROUP BY c.trick, c.play HAVING max(v.view) - min(v.view) >= 1"
        ).height
    assert at_dummy and {player for *_, player in at_dummy} == {"Anna"}
    with Store(reviewed_three_dummy, read_only=True) as store:
        costed = store.query("SELECT DISTINCT player FROM play_costs WHERE seat = 3").rows()
    assert costed == [("Anna",)]  # its cost too, as analyze-files' accuracy reads it
    # Anna's accuracy counts her own cards and the dummy's; the dummy is no player of its own
    assert dict(accuracy)["Anna"] == chosen and "Anna's dummy" not in dict(accuracy)
    runner = CliRunner()
    listed = runner.invoke(cli, ["findings", "--db", db, "--player", "anna", "--json"])
    assert listed.exit_code == 0, listed.output
    found = json.loads(listed.stdout)["findings"]
    dummy = [(f["trick"], f["play"]) for f in found if f["seat"] == 3]
    assert sorted(dummy) == sorted((t, p) for t, p, _ in at_dummy)
    assert all(f["player"] == "Anna" and f["dummy"] == (f["seat"] == 3) for f in found)
    for lang, hand in (("en", "Anna's dummy"), ("nl", "blinde van Anna")):
        # the notes too: the dummy's card may be one (the list in words leaves them out unless asked)
        asked = ["findings", "--db", db, "--player", "Anna", "--lang", lang, "--min-severity", "info"]
        text = runner.invoke(cli, asked).stdout
        trick, play = dummy[0]
        words = ("trick", "play") if lang == "en" else ("slag", "kaart")
        assert f"{words[0]} {trick} {words[1]} {play} {hand}:" in text, text


def test_an_archive_reviewed_before_version_17_files_the_dummy_s_cards_under_the_dealer(
    reviewed_three_dummy: Path, tmp_path: Path
):
    """An archive reviewed when the dummy's findings and costs were filed under ``Anna's dummy``
    is brought up to date when opened: both are Anna's, and the accuracy counts them for her."""
    import shutil

    import duckdb

    old = tmp_path / "old.duckdb"
    shutil.copy(reviewed_three_dummy, old)
    connection = duckdb.connect(str(old))
    for table in ("findings", "play_costs"):
        connection.execute(f"UPDATE {table} SET player = 'Anna''s dummy' WHERE seat = 3")
    connection.execute("DELETE FROM schema_version WHERE version >= 17")
    connection.close()
    with Store(old) as store:
        for table in ("findings", "play_costs"):
            assert store.query(f"SELECT DISTINCT player FROM {table} WHERE seat = 3").rows() == [("Anna",)]
        players = store.query("SELECT player FROM player_accuracy WHERE scope = 'all'")["player"].to_list()
    assert "Anna" in players and "Anna's dummy" not in players


def test_the_dutch_findings_name_the_dummy_in_dutch():
    """The dummy is ``Anna's dummy`` in English and ``blinde van Anna`` in Dutch, in the words of
    every finding (a reason's line names who takes a trick) and in the listing."""
    sample = Path(__file__).resolve().parent.parent / "data" / "samples" / "variant-three-dummy.json"
    runner = CliRunner()
    listed = runner.invoke(cli, ["findings", str(sample), "--depth", "solver", "--quiet", "--json"])
    assert listed.exit_code == 0, listed.output
    said = [(f["explanation_en"], f["explanation_nl"]) for f in json.loads(listed.stdout)["findings"]]
    named = [(en, nl) for en, nl in said if "Anna's dummy" in en]
    assert named, "no finding names the dummy"
    assert not [nl for _, nl in said if "dummy" in nl]
    assert all("blinde van Anna" in nl for _, nl in named)
    dutch = runner.invoke(
        cli,
        ["findings", str(sample), "--depth", "solver", "--quiet", "--lang", "nl", "--min-severity", "info"],
    )
    assert "blinde van Anna:" in dutch.stdout and "dummy" not in dutch.stdout.replace("three-dummy", "")


def test_the_mistakes_page_finds_the_dummy_s_card_under_the_dealer(
    reviewed_three_dummy: Path, monkeypatch: pytest.MonkeyPatch
):
    """The Mistakes page filtered on Anna lists the cards she chose from her dummy too, named as the
    dummy's (``Anna's dummy``, ``de blinde van Anna``); the filter offers no dummy as a player."""
    from streamlit.testing.v1 import AppTest

    from dashboards import data

    from .test_dashboard import APP, chosen_state, light_tables, many_text, native_inputs_of, open_page

    with Store(reviewed_three_dummy, read_only=True) as store:
        cards = store.query("SELECT card FROM findings WHERE seat = 3").rows()
    assert cards
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(reviewed_three_dummy))
    for lang, hand in (("en", "Anna's dummy"), ("nl", "de blinde van Anna")):
        at = AppTest.from_file(APP, default_timeout=60)
        at.run()
        at.session_state["lang"] = lang
        at = open_page(at, "mistakes")
        # the sample has no date: the filters are the matches, players, kinds, categories, severities, info
        (handed,) = [
            inputs for names, inputs in native_inputs_of(at).items() if names.startswith("matches,players,")
        ]
        fields = {f["name"]: f for f in handed["fields"]}  # type: ignore[attr-defined]
        offered = [value for value, _ in fields["players"]["options"]]
        assert "Anna" in offered and not [name for name in offered if "dummy" in name], offered
        values = dict(handed["values"]) | {"players": many_text(["Anna"]), "show_info": "true"}  # type: ignore[call-overload]
        at.session_state["mistakes_filters"] = chosen_state(values)
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        table = light_tables(at)[0].value
        shown = set(zip(table["player"].to_list(), table["card"].to_list(), strict=True))
        assert {(hand, Card.parse(card).symbol) for (card,) in cards} <= shown, shown
        assert {player for player, _ in shown} == {"Anna", hand}


def test_the_players_page_counts_the_dummy_s_cards_as_the_dealer_s(
    reviewed_three_dummy: Path, monkeypatch: pytest.MonkeyPatch
):
    """Anna's page counts her findings and her accuracy over the cards she chose, her dummy's
    included: the dummy is no player of its own."""
    from streamlit.testing.v1 import AppTest

    from dashboards import data

    from .test_dashboard import APP, html_of, open_page

    with Store(reviewed_three_dummy, read_only=True) as store:
        # the dummy's findings are Anna's; the page counts them as every page counts findings,
        # the notes (info) left out
        (mine, at_dummy), *_ = store.query(
            "SELECT count(*) FILTER (WHERE severity <> 'info'), count(*) FILTER (WHERE seat = 3) "
            "FROM findings WHERE player = 'Anna'"
        ).rows()
        chosen = store.query(
            "SELECT c.seat FROM play_costs c JOIN card_values v USING (match_id, deal, trick, play) "
            "WHERE c.seat IN (0, 3) AND c.legal AND NOT c.forced AND c.view_cost IS NOT NULL "
            "GROUP BY c.seat, c.trick, c.play HAVING max(v.view) - min(v.view) >= 1"
        )["seat"].to_list()
    cards, own = len(chosen), chosen.count(0)
    assert at_dummy > 0 and cards > own
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(reviewed_three_dummy))
    page = html_of(open_page(AppTest.from_file(APP, default_timeout=60), "players", player="Anna"))
    assert f'data-metric="Findings"><div class="label">Findings</div><div class="value">{mine}</div>' in page
    assert f"({cards} cards, " in page


def test_a_costly_dummy_card_ranks_among_the_dealer_s_decisions_as_the_dummy_s(
    reviewed_three_dummy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """A costly card of the dummy is one of the dealer's costliest decisions (``--top``, the Match
    page's boxes, the report's review of each player), named as the dummy's card."""
    import shutil

    import duckdb
    from streamlit.testing.v1 import AppTest

    from dashboards import data

    from .test_dashboard import APP, open_page
    from .test_dashboard_review import mistake_boxes

    db = tmp_path / "costly.duckdb"
    shutil.copy(reviewed_three_dummy, db)
    first = "(SELECT min(finding_id) FROM findings WHERE seat = 3)"  # the sample's are notes
    with duckdb.connect(str(db)) as connection:  # a mistake with the dummy's card
        connection.execute(
            f"UPDATE findings SET severity = 'mistake', points = 30 WHERE finding_id = {first}"
        )
        connection.execute(
            "UPDATE play_costs c SET view_cost = 30, view_error = 0 FROM findings f "
            f"WHERE f.finding_id = {first} "
            "AND c.match_id = f.match_id AND c.deal = f.deal AND c.trick = f.trick AND c.play = f.play"
        )
    with Store(db, read_only=True) as store:
        ((match_id, trick),) = store.query(
            "SELECT match_id, trick FROM findings WHERE seat = 3 AND severity = 'mistake'"
        ).rows()
        ranked = store.biggest_mistakes([match_id], player="anna", top=3)
    assert ranked["player"][0] == "Anna" and ranked["seat"][0] == 3 and ranked["dummy"][0]
    listed = CliRunner().invoke(cli, ["findings", "--db", str(db), "--top", "3", "--player", "Anna"])
    assert f" 1. {match_id} deal 1 trick {trick} play " in listed.stdout, listed.output
    assert f"play {ranked['play'][0]}, Anna's dummy: mistake" in listed.stdout, listed.output
    # the report for Anna reviews it among her cards, the dummy's seat the one to move
    out = tmp_path / "anna.html"
    made = CliRunner().invoke(
        cli, ["report", "--db", str(db), "--match", match_id, "--player", "Anna", "--out", str(out)]
    )
    assert made.exit_code == 0, made.output
    assert 'mover" data-seat="3"><div class="name">Anna&#x27;s dummy' in out.read_text(encoding="utf-8")
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(db))
    at = open_page(AppTest.from_file(APP, default_timeout=60), "match", match=match_id)
    assert mistake_boxes(at)[0]["text"].startswith("**1. Anna's dummy** · deal 1, trick"), mistake_boxes(at)
    data.archive_at(db).close()


def test_the_replay_steps_through_a_variants_better_line(
    reviewed_three_dummy: Path, monkeypatch: pytest.MonkeyPatch
):
    """The deal replay's branch at a variant's costly card: the better line, stepped through to the
    end of the deal."""
    from streamlit.testing.v1 import AppTest

    from dashboards import data

    from .test_dashboard import APP, html_views, open_page, send_click

    with Store(reviewed_three_dummy, read_only=True) as store:
        lines = store.query("SELECT * FROM finding_lines ORDER BY trick, play, line, layout, step")
        match = store.query("SELECT match_id FROM matches")["match_id"][0]
    assert lines.height
    trick, play = lines.row(0, named=True)["trick"], lines.row(0, named=True)["play"]
    monkeypatch.setenv(data.DB_ENVIRONMENT, str(reviewed_three_dummy))
    at = open_page(
        AppTest.from_file(APP, default_timeout=60), "replay", match=match, deal=1, step=(trick - 1) * 4 + play
    )
    better = lines.filter(
        (pl.col("trick") == trick)
        & (pl.col("play") == play)
        & (pl.col("line") == "better")
        & (pl.col("layout") == "view")
    )
    (choice,) = [radio for radio in at.radio if radio.key.startswith("replay_branch_")]
    first = Card.parse(better["first_card"][0]).symbol
    assert f"better line: {first} (from the player's view)" in choice.options
    choice.set_value("view").run()
    assert not at.exception
    drawn = html_views(at)["replay_table_line"][1]["html"]
    assert "<b>Better line</b>" in drawn and f'data-card="{better["card"][0]}"' in drawn
    assert "then best play by all, " in drawn and "all four" not in drawn
    assert re.search(r"(Anna takes|Bert &amp; Carla take) <b>\d+</b> card points from here", drawn), drawn
    send_click(at, "replay_table_line", str(better.height))
    drawn = html_views(at)["replay_table_line"][1]["html"]
    # the last trick lies on the table, the dummy's card among them, taken by the line's last winner
    assert 'data-cards="4"' in drawn and "Tricks of the line" in drawn
    last = better.row(-1, named=True)
    assert f"+{last['trick_points']}</button>" in drawn


def test_a_line_of_tricks_of_three_steps_trick_by_trick():
    """The replay's moments of a ``three`` line: a trick is complete at its third card, its taker's
    side gets its points, and the next card starts a trick of its own."""
    from dashboards.steps import Moment as TableMoment
    from dashboards.steps import line_moments, solver_line_cards

    rules = Rules(variant="three")
    hands = (cards("10C KC"), cards("AC 7S"), cards("QC JC"))
    state = DealState(rules, 0, None, hands, 0, (), 8, (30, 15))
    line = variant_line(state)
    before = TableMoment(24, tuple(CardSet(h) for h in hands), (), 9, None, None, (30, 15), 0, None, None)
    moments = line_moments(before, solver_line_cards(line), None, line.sides, rules.shape.trick_size)
    assert len(moments) == 7
    assert [len(m.table) for m in moments[1:]] == [1, 2, 3, 1, 2, 3]
    assert [m.trick_winner for m in moments[1:]] == [None, None, 0, None, None, 0]
    assert moments[3].taken == (40, 15) and moments[-1].taken == (45, 15)
    assert not any(moments[-1].hands)


def test_the_report_gives_a_variants_better_line_by_its_people(reviewed_three_dummy: Path, tmp_path: Path):
    """``manillen report`` on the reviewed ``three_dummy`` sample: each costly card's line in words,
    the side named by its two people (not the dealer's dummy), best play "by all"."""
    with Store(reviewed_three_dummy, read_only=True) as store:
        why = store.query("SELECT player, explanation FROM findings WHERE kind = 'costly_card'")
    player = why.filter(pl.col("explanation").str.contains("Why, on one way"))["player"][0]
    out = tmp_path / "report.html"
    db = str(reviewed_three_dummy)
    args = ["report", "--db", db, "--match", "sample-three-dummy", "--player", player, "--out", str(out)]
    made = CliRunner().invoke(cli, args)
    assert made.exit_code == 0, made.output
    page = out.read_text()
    assert "Why, on one way the hidden cards could lie" in page
    assert "then best play by all: trick" in page and "Bert &amp; Carla take" in page


def test_two_cards_a_player_loses_in_one_trick_are_named_once_with_their_owner():
    """two_open_fours: each plays two cards of a trick; the counting cards Bert loses in Anna's
    trick are his J♦ and Q♦, said with his name once, in English and in Dutch."""
    lost = LineTrick(
        4, 0, (LinePlay(0, Card.DA), LinePlay(1, Card.DJ), LinePlay(0, Card.S7), LinePlay(1, Card.DQ)), 0, 7
    )
    kept = LineTrick(
        4, 0, (LinePlay(0, Card.DA), LinePlay(1, Card.HJ), LinePlay(0, Card.S7), LinePlay(1, Card.DQ)), 1, 7
    )
    start, _rules = random_state("two_open_fours", 1, 0)
    played = Line(start, lost.plays[1:], (lost,), 7, (0, 1))
    better = Line(start, kept.plays[1:], (kept,), 0, (0, 1))
    said = {
        lang: explain(
            played,
            better,
            seat=1,
            card=Card.DJ,
            better_card=Card.HJ,
            names=["Anna", "Bert"],
            lang=lang,
            layouts=0,
        )
        for lang in ("en", "nl")
    }
    assert "after the J♦, Anna's A♦ takes trick 4 (7 points), Bert's J♦ and Q♦ with it;" in said["en"]
    assert "Bert takes 0 card points from here after the J♦, 7 after the J♥." in said["en"]
    assert "en de koeken boer en de koeken vrouw van Bert gaan mee;" in said["nl"]


@pytest.mark.parametrize("variant", SOLVED_VARIANTS)
def test_some_choices_values_are_those_of_every_choice(variant: str):
    """``VariantSearch.choice_values`` (two cards' values for a reason's layout) gives the values
    ``values`` gives those choices, in any order, on a late position of each variant."""
    shape = Rules(variant=variant).shape
    state, rules = random_state(variant, 7, shape.tricks * shape.trick_size * 2 // 3, 7)
    every = VariantSearch(rules, state.dealer, state.trump).values(state)
    some = sorted(every)[::-1][:3]
    assert VariantSearch(rules, state.dealer, state.trump).choice_values(state, some) == {
        c: every[c] for c in some
    }


def test_a_reason_on_the_only_layout_the_player_could_see_says_so():
    """Late in a two-player deal with open table cards the player may know where every card lies:
    one layout, every one there is; the words say "the only way", not "of all 1 such layouts"."""
    played, better = _bert_moves_his_seven_aside()
    args = {"seat": 1, "card": Card.D7, "better_card": Card.SA, "names": ["Anna", "Bert"], "trump": 0}
    en = explain(played, better, lang="en", layouts=1, every=True, **args)
    nl = explain(played, better, lang="nl", layouts=1, every=True, **args)
    assert en.startswith("Why, on the only way the hidden cards could lie as far as Bert could tell: ")
    assert nl.startswith("Waarom, in de enige verdeling van de verborgen kaarten die Bert kon verwachten: ")
    assert "1 such" not in en and "alle 1" not in nl
    drawn = explain(played, better, lang="en", layouts=1, every=False, **args)
    assert "(the first layout drawn for the average)" in drawn  # one layout: no "of 1 such layouts"
