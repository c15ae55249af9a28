"""Findings from the solver: costly cards, costs only hindsight shows, and costly calls.

A card is judged by its *view* cost (what it lost on average from what the player could
see), in card points, never by the hindsight cost: a card that only looks bad with all hands
known becomes an ``info`` finding of kind ``hindsight_only``, not a mistake. The thresholds
(docs/solver.md) are in expected card points; the finding's ``points`` are scoresheet points
like every other finding's (card points times the deal's multiplier).
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import replace

from ..cards import SUIT_MASKS, Card, CardSet, Suit, mask_of
from ..engine.results import DealResult, TrickResult, dummy_name
from ..rules import Clause, Contract, Rules, Variant, multiplier
from .call_review import CallOption, CallReview
from .costs import PlayCost
from .findings import COST_THRESHOLDS, Category, Finding, Severity, Thresholds, sort_key
from .reasons import better_cards
from .words import (
    and_nl,
    card_en,
    card_nl,
    card_points_counted,
    cards_en,
    cards_nl,
    counted_en,
    counted_nl,
    number,
    number_nl,
    or_en,
    or_nl,
    points_en,
    points_nl,
    severity_name,
    suit_en,
    suit_nl,
    tenths_below,
)

CALL_THRESHOLDS = Thresholds(3.0, 6.0, 12.0)
"""Trump and knock calls: expected deal score given away against the best option."""
KIND_CATEGORY = {
    "costly_card": Category.STRATEGY,
    "hindsight_only": Category.STRATEGY,
    "trump_choice": Category.STRATEGY,
    "knock_choice": Category.STRATEGY,
}
"""The solver's finding kinds."""


OPTION_EN = {"H": "hearts", "D": "diamonds", "C": "clubs", "S": "spades", "muil": "muil"}
OPTION_NL = {
    "H": "harten",
    "D": "koeken",
    "C": "klaveren",
    "S": "schoppen",
    "muil": "muil",
    "no klop": "geen klop",
}
"""How a call's option is said: a trump suit by its name, ``no klop`` in Dutch ``geen klop``."""


def _option(name: str, lang: str) -> str:
    return (OPTION_NL if lang == "nl" else OPTION_EN).get(name, name)


def _score(value: float, lang: str) -> str:
    return number_nl(value) if lang == "nl" else number(value)


def cost_findings(
    costs: Sequence[PlayCost],
    *,
    match: str,
    deal: DealResult,
    players: Sequence[str],
    reasons: Mapping[tuple[int, int], tuple[str, str]] | None = None,
    shape: Variant | None = None,
) -> list[Finding]:
    """Costly cards (``costly_card``) and costs only hindsight shows (``hindsight_only``).

    Plays without a view cost (hindsight costs alone) give a ``hindsight_only`` finding where
    the hindsight cost is one of a mistake.

    Every cost says which it is: "from what the player could see" (the view cost) or "with
    every hand known" (the hindsight cost). The better cards of a ``costly_card`` come those
    that did not do worse with every hand known first (:func:`~.reasons.better_cards`); when
    the first of them did do worse on the real cards, the explanation says so.

    :param costs: the deal's plays with view costs (:func:`~manillen_replay.analysis.costs.view_costs`).
    :param match: the match id.
    :param deal: the replayed deal (its number and multiplier).
    :param players: the player names by seat.
    :param reasons: the words of each costly card's reason (English, Dutch) by ``(trick, play)``
        (:func:`~.reasons.reason_words`), added to its explanation.
    :param shape: the variant, for who plays alone (``Mieke``, not ``Mieke's team``); the
        four-player game's teams without it.
    """
    factor = deal.multiplier or 1
    reasons = reasons or {}
    findings: list[Finding] = []
    for cost in costs:
        if not cost.legal or cost.forced:
            continue
        # the finding is the decider's: the dealer's for a card of the dummy of three_dummy (its
        # seat still says whose card it was), as deal_seats and plays credit it
        player = _decider(players, cost.seat, deal.dealer)
        who = player or f"seat {cost.seat}"
        if cost.view_cost is None:
            if COST_THRESHOLDS.severity(cost.dd_cost) is not Severity.INFO:
                findings.append(_hindsight_finding(cost, match=match, deal=deal, player=player, who=who))
            continue
        # judged by what the card surely cost: an estimate the sampled layouts leave unsure of
        # (a near tie among several cards, say) is no mistake, but it is said, as a note: the
        # player looking for the points they remember losing finds the card and why it is unsure
        severity = COST_THRESHOLDS.severity(cost.sure_view_cost or 0.0)
        unsure = severity is Severity.INFO and COST_THRESHOLDS.severity(cost.view_cost) is not Severity.INFO
        if severity is not Severity.INFO or unsure:
            better = better_cards(cost)
            view = cost.view_cost
            # the reason, when there is one, says itself what the real cards gave
            alone = shape is not None and shape.plays_alone(cost.seat, deal.dealer)
            en, nl = _costly_words(
                cost,
                better,
                who,
                real_cards=(cost.trick, cost.play) not in reasons,
                factor=factor,
                alone=alone,
            )
            if shape is None or shape.name == "four":
                void_en, void_nl = _void_words(deal, cost, players)
                en, nl = en + void_en, nl + void_nl
            if factor > 1:
                # the finding's points are the score's: said, where the card points alone were
                # half of the "points at stake" shown beside them
                in_score = round(view * factor, 2)  # the finding's points, said as the list says them
                en += f" This deal counts {counted_en(factor)}: {points_en(in_score)} of the score."
                nl += f" Dit spel telt {counted_nl(factor)}: {points_nl(in_score)} van de score."
            if (cost.trick, cost.play) in reasons:
                why_en, why_nl = reasons[(cost.trick, cost.play)]
                en, nl = f"{en} {why_en}", f"{nl} {why_nl}"
            if COST_THRESHOLDS.severity(view).level > severity.level:
                # graded by the part it surely cost below what its average alone makes it (a note
                # among them): said, or a 7.4-point inaccuracy beside a 4.5-point mistake read as
                # a contradiction, and a note gave no word on the card a player looked for
                en_, nl_ = _graded_below(severity, cost.sure_view_cost or 0.0)
                en, nl = en + en_, nl + nl_
            findings.append(
                _play_finding(
                    cost,
                    "costly_card",
                    severity,
                    better,
                    round(view * factor, 2),
                    match=match,
                    deal=deal,
                    player=player,
                    explanation=en,
                    explanation_nl=nl,
                )
            )
        elif COST_THRESHOLDS.severity(cost.dd_cost) is not Severity.INFO:
            better = tuple(c for c in cost.hindsight_best if c != cost.card)
            findings.append(
                _play_finding(
                    cost,
                    "hindsight_only",
                    Severity.INFO,
                    better,
                    float(cost.dd_cost * factor),
                    match=match,
                    deal=deal,
                    player=player,
                    explanation=(
                        f"Only hindsight: with every hand known {or_en(better)} was "
                        f"{points_en(cost.dd_cost, 'card point')} better than {card_en(cost.card)}, "
                        f"but from what {who} could see {card_en(cost.card)} cost "
                        f"{points_en(cost.view_cost, 'card point')} on average. Not a mistake."
                    ),
                    explanation_nl=(
                        f"Enkel achteraf: met alle kaarten open was de {or_nl(better)} "
                        f"{points_nl(cost.dd_cost, 'kaartpunt')} beter dan de {card_nl(cost.card)}, "
                        f"maar met wat {who} kon weten kostte de {card_nl(cost.card)} gemiddeld "
                        f"{points_nl(cost.view_cost, 'kaartpunt')}. Geen fout."
                    ),
                )
            )
    return findings


def _decider(players: Sequence[str], seat: int, dealer: int) -> str | None:
    """Who chose the seat's card and saw what it was chosen from: the seat's player, or the
    dealer for the dummy of ``three_dummy`` (named after the dealer), whose cards the dealer plays.

    >>> _decider(["Anna", "Bert", "Carla", "Anna's dummy"], 3, 0), _decider(["Anna", "Bert"], 1, 0)
    ('Anna', 'Bert')
    """
    if seat >= len(players):
        return None
    if dealer < len(players) and players[seat] == dummy_name(players[dealer]):
        return players[dealer]
    return players[seat]


def _graded_below(severity: Severity, sure: float, *, call: bool = False) -> tuple[str, str]:
    """Why a costly card is graded ``severity`` though its average cost is of a higher grade:
    what it surely cost (its average less two standard errors; "give or take 0.1" read as sure
    beside a cost of 2) is under that grade's threshold. Below an inaccuracy's it is a note.

    :param call: a call's loss (:data:`CALL_THRESHOLDS`), what it surely gave away: a trump call
        listed as "inaccuracy trump_choice (11.2 points)" said nowhere why 11.2 was no mistake.

    >>> _graded_below(Severity.INACCURACY, 3.97)[0].split("), ")[1]
    'under the 4 of a mistake, so this is an inaccuracy.'
    >>> _graded_below(Severity.MISTAKE, 7.2)[1].split("; ")[1]
    'daarom is dit een fout.'
    >>> _graded_below(Severity.INFO, 0.6)[0].split("), ")[1]
    'under the 2 of an inaccuracy, so this is a note, not a mistake.'
    >>> _graded_below(Severity.INACCURACY, 5.1, call=True)[0].split(" (")[0][-25:]
    'it gave away at least 5.1'
    """
    higher = {
        Severity.INFO: Severity.INACCURACY,
        Severity.INACCURACY: Severity.MISTAKE,
        Severity.MISTAKE: Severity.BLUNDER,
    }[severity]
    low = getattr(CALL_THRESHOLDS if call else COST_THRESHOLDS, higher.value)
    surely = tenths_below(sure, low)
    if severity is Severity.INFO and surely <= 0:
        # "all that is sure is that it cost at least 0" read as nonsense to a coach
        return (
            " The layouts solved leave that unsure: it may have cost nothing (its average less twice "
            f"the layouts' margin of error is 0), under the {number(low)} of an inaccuracy, so this is "
            "a note, not a mistake.",
            " De berekende verdelingen lopen te ver uiteen: misschien kostte het niets (het gemiddelde "
            f"min tweemaal de foutmarge van de verdelingen is 0), minder dan de {number_nl(low)} van een "
            "onnauwkeurigheid; daarom is dit een opmerking, geen fout.",
        )
    if severity is Severity.INFO:
        return (
            f" The layouts solved leave that unsure: all that is sure is that it cost at least "
            f"{number(surely)} (its average less twice the layouts' margin of error), under the "
            f"{number(low)} of an inaccuracy, so this is a note, not a mistake.",
            f" De berekende verdelingen lopen te ver uiteen: zeker is alleen dat het minstens "
            f"{number_nl(surely)} kostte (het gemiddelde min tweemaal de foutmarge van de "
            f"verdelingen), minder dan de {number_nl(low)} van een onnauwkeurigheid; daarom is "
            "dit een opmerking, geen fout.",
        )
    article = "an" if severity.value[0] in "aeiou" else "a"
    cost_en, of_en = ("gave away", "loss") if call else ("cost", "average")
    en = (
        f" The layouts solved leave it unsure how much: all that is sure is that it {cost_en} at least "
        f"{number(surely)} (its {of_en} less twice the layouts' margin of error), under the "
        f"{number(low)} of a {higher.value}, so this is {article} {severity.value}."
    )
    cost_nl = (
        f"er minstens {number_nl(surely)} werd weggegeven (het verlies"
        if call
        else f"het minstens {number_nl(surely)} kostte (het gemiddelde"
    )
    nl = (
        f" De berekende verdelingen lopen uiteen: zeker is alleen dat {cost_nl} min tweemaal de foutmarge "
        f"van de verdelingen), minder dan de {number_nl(low)} van een {severity_name(higher.value, 'nl')}; "
        f"daarom is dit een {severity_name(severity.value, 'nl')}."
    )
    return en, nl


def _costly_words(
    cost: PlayCost,
    better: tuple[Card, ...],
    who: str,
    *,
    real_cards: bool = True,
    factor: int = 1,
    alone: bool = False,
) -> tuple[str, str]:
    """A costly card's costs in words, each cost saying which it is; with ``real_cards`` the
    better card's real result when it did worse with every hand known. In a deal that counts its
    points ``factor`` times the view cost multiplies out to the score's figure said after it.
    ``alone``: the player's side is the player (two players, the dealer of three), not a team."""
    view = cost.view_cost or 0.0
    # the hindsight cost is against the best card with every hand known: named when that is not
    # the better card just named, which read as if that card kept those points
    best = tuple(c for c in cost.hindsight_best if c != cost.card)
    other_best = cost.dd_cost > 0 and bool(best) and bool(better) and better[0] not in best
    against_en = f" (against {or_en(best)})" if other_best else ""
    against_nl = f" (tegenover de {or_nl(best)})" if other_best else ""
    side_en, side_nl, keeper_nl = (
        (who, who, who) if alone else (f"{who}'s team", f"de ploeg van {who}", "de ploeg")
    )
    en = (
        f"{card_en(cost.card)} cost {side_en} {card_points_counted(view, factor)} on average, "
        f"from what {who} could see; {or_en(better)} would have kept them. With every hand known "
        f"{card_en(cost.card)} cost {points_en(cost.dd_cost, 'card point')}{against_en}."
    )
    nl = (
        f"De {card_nl(cost.card)} kostte {side_nl} gemiddeld "
        f"{card_points_counted(view, factor, 'nl')}, met wat {who} kon weten; met de {or_nl(better)} "
        f"had {keeper_nl} ze behouden. Met alle kaarten open kostte de {card_nl(cost.card)} "
        f"{points_nl(cost.dd_cost, 'kaartpunt')}{against_nl}."
    )
    if real_cards and better and cost.card in cost.values and better[0] in cost.values:
        worse = cost.values[cost.card].hindsight - cost.values[better[0]].hindsight
        if worse > 0:
            en += (
                f" On the real cards {card_en(better[0])} would have taken {points_en(worse, 'card point')} "
                f"less than {card_en(cost.card)}: the cards lay against it, but {who} could not know that."
            )
            nl += (
                f" Met de echte kaarten had de {card_nl(better[0])} {points_nl(worse, 'kaartpunt')} minder "
                f"gehaald dan de {card_nl(cost.card)}: de kaarten zaten ertegen, maar dat kon {who} niet "
                "weten."
            )
    return en, nl


def shown_void(deal: DealResult, lead: PlayCost) -> tuple[int, int, bool] | None:
    """An opponent who had shown out of the suit of a lead (a plain suit, trumps being played)
    before it, and not out of trumps: ``(seat, trick, trumped)``, the trick where they showed out
    and whether they trumped there; ``None`` for another play or without such an opponent (the
    first of two by seat). Four players only.

    A coach's review: an ace led into an opponent who had ruffed that suit before was said by its
    cost alone, never by the void the player had seen.
    """
    if lead.play != 1 or deal.trump is None or len(deal.hands or ()) != 4:
        return None
    suit, trump = Card(lead.card).suit, deal.trump
    if suit == trump:
        return None
    for seat in ((lead.seat + 1) % 4, (lead.seat + 3) % 4):
        shown: tuple[int, bool] | None = None
        for trick in deal.tricks[: lead.trick - 1]:
            led = Card(trick.cards[0]).suit
            place = next((n for n, s in enumerate(trick.seats) if s == seat), None)
            if place is None or Card(trick.cards[place]).suit == led:
                continue
            played = Card(trick.cards[place])
            before = trick.winning[place - 1]  # a seat that did not follow did not lead
            # out of trumps too, so the void costs nothing: not following a trump lead, or a legal
            # discard while an opponent won with a plain card (one holding a trump must buy then)
            discarded = played.suit != trump and (before - seat) % 2 == 1
            plain_winner = Card(trick.cards[_winning_place(trick, place)]).suit != trump
            if led == trump or (discarded and plain_winner and trick.clauses[place] is Clause.ANY):
                shown = None
                break
            if led == suit and shown is None:
                shown = (trick.number, played.suit == trump)
        if shown is not None:
            return seat, shown[0], shown[1]
    return None


def _winning_place(trick: TrickResult, place: int) -> int:
    """The place in ``trick`` of the card winning it just before the card at ``place``."""
    winner = trick.winning[place - 1]
    return next(n for n in range(place) if trick.seats[n] == winner)


def _void_words(deal: DealResult, lead: PlayCost, players: Sequence[str]) -> tuple[str, str]:
    """:func:`shown_void` in words (empty without one)."""
    found = shown_void(deal, lead)
    if found is None:
        return "", ""
    seat, trick, trumped = found
    name = players[seat] if seat < len(players) else f"seat {seat}"
    suit = Card(lead.card).suit
    how_en, how_nl = (" (trumping it)", " en kocht") if trumped else ("", "")
    return (
        f" {name} had shown no {suit.english} in trick {trick}{how_en}: a {suit.english[:-1]} lead could "
        "be trumped.",
        f" {name} had in slag {trick} al geen {suit.dutch} meer{how_nl}: op {suit.dutch} kon {name} kopen.",
    )


def _hindsight_finding(
    cost: PlayCost, *, match: str, deal: DealResult, player: str | None, who: str
) -> Finding:
    """A hindsight cost where no view cost was computed (``view_costs`` not run): information,
    never called a mistake."""
    better = tuple(c for c in cost.hindsight_best if c != cost.card)
    return _play_finding(
        cost,
        "hindsight_only",
        Severity.INFO,
        better,
        float(cost.dd_cost * (deal.multiplier or 1)),
        match=match,
        deal=deal,
        player=player,
        explanation=(
            f"With every hand known {or_en(better)} was {points_en(cost.dd_cost, 'card point')} better "
            f"than {card_en(cost.card)}; what {who} could see was not worked out."
        ),
        explanation_nl=(
            f"Met alle kaarten open was {or_nl(better)} {points_nl(cost.dd_cost, 'kaartpunt')} beter "
            f"dan {card_nl(cost.card)}; wat {who} kon weten, is niet uitgerekend."
        ),
    )


def _play_finding(
    cost: PlayCost,
    kind: str,
    severity: Severity,
    better: tuple[Card, ...],
    points: float,
    *,
    match: str,
    deal: DealResult,
    player: str | None,
    explanation: str,
    explanation_nl: str,
) -> Finding:
    """A finding about the card of one play."""
    return Finding(
        kind=kind,
        category=KIND_CATEGORY[kind],
        severity=severity,
        match=match,
        deal=deal.number,
        trick=cost.trick,
        play=cost.play,
        seat=cost.seat,
        player=player,
        card=cost.card,
        better=better,
        points=points,
        explanation=explanation,
        explanation_nl=explanation_nl,
    )


def call_findings(
    review: CallReview,
    *,
    match: str,
    players: Sequence[str],
    kind: str = "trump_choice",
    alone: bool = False,
    rules: Rules | None = None,
    hand: int | None = None,
) -> list[Finding]:
    """A finding when the call made was clearly worse than the best one (``trump_choice``,
    ``knock_choice``), by :data:`CALL_THRESHOLDS` on what it surely gave away of the expected
    deal score: the loss less two standard errors (:attr:`~.call_review.CallReview.sure_loss`),
    as a card is judged by its sure view cost. A loss the layouts leave unsure of is no finding;
    the finding's ``points`` are the loss itself.

    :param review: from :func:`~manillen_replay.analysis.call_review.trump_review` or ``knock_review``.
    :param kind: ``trump_choice`` or ``knock_choice``.
    :param alone: the caller's side is the caller (two players, the dealer of three), not a team.
    :param rules: the match's house rules, for muil's factor and its capot (inferred without).
    :param hand: the caller's hand when calling (a mask): a trump call's words say what it held
        of the suit called and of the better one, the reason in cards beside the numbers.
    """
    loss, sure = review.loss, review.sure_loss
    if loss is None or sure is None or review.chosen is None:
        return []
    severity = CALL_THRESHOLDS.severity(sure)
    if severity is Severity.INFO:
        return []
    chosen = review.option(review.chosen)
    assert chosen is not None
    best = review.best
    player = players[review.seat] if review.seat < len(players) else None
    who = player or f"seat {review.seat}"
    layouts = review.layouts
    side_en, side_nl = (who, who) if alone else (f"{who}'s team", f"de ploeg van {who}")
    # the scores are the deal's, for the caller's team; "deals" of the other cards read as games played
    if kind == "trump_choice":
        en = (
            f"{who} chose {_option(chosen.name, 'en')}: from {who}'s own cards that scores "
            f"{_score(chosen.score, 'en')} points of the deal for {side_en} on average, "
            f"{_option(best.name, 'en')} {_score(best.score, 'en')} ({layouts} layouts of the other "
            "cards solved)."
        )
        nl = (
            f"{who} koos {_option(chosen.name, 'nl')}: met de eigen kaarten levert dat {side_nl} "
            f"gemiddeld {_score(chosen.score, 'nl')} punten van het spel op, "
            f"{_option(best.name, 'nl')} {_score(best.score, 'nl')} "
            f"({layouts} verdelingen van de andere kaarten berekend)."
        )
        if best.name == "muil":
            # "muil 24.3" alone left the player wondering which suit they should have called
            suits = [o for o in review.options if o.name != "muil" and o.name != chosen.name]
            if suits and suits[0].score > chosen.score:
                en += f" The best suit was {_option(suits[0].name, 'en')}, {_score(suits[0].score, 'en')}."
                nl += f" De beste kleur was {_option(suits[0].name, 'nl')}, {_score(suits[0].score, 'nl')}."
        if review.perfect is not None:
            more_en, more_nl = _perfect_play_words(review, chosen.name, loss)
            en, nl = f"{en} {more_en}", f"{nl} {more_nl}"
        if hand is not None:
            held_en, held_nl = _holding_words(hand, who, (chosen.name, best.name))
            en, nl = f"{en} {held_en}", f"{nl} {held_nl}"
        muil = review.option("muil")
        if muil is not None and "muil" in (chosen.name, best.name):
            more_en, more_nl = _muil_words(muil, rules)
            en, nl = f"{en} {more_en}", f"{nl} {more_nl}"
    else:
        # "No klop was worth 7.4" read as "no knock would have been worth anything": say what was done
        knocked = chosen.name == "klop"
        did_en, other_en = ("knocked (klop)", "not knocking") if knocked else ("did not knock", "a klop")
        did_nl, other_nl = ("klopte", "niet kloppen") if knocked else ("klopte niet", "kloppen")
        en = (
            f"{who} {did_en}: from {who}'s cards that was worth {_score(chosen.score, 'en')} points of "
            f"the deal for {side_en} on average, {other_en} {_score(best.score, 'en')} ({layouts} "
            "layouts of the other cards solved)."
        )
        nl = (
            f"{who} {did_nl}: met de kaarten van {who} was dat voor {who if alone else 'de ploeg'} gemiddeld "
            f"{_score(chosen.score, 'nl')} punten van het spel waard, {other_nl} "
            f"{_score(best.score, 'nl')} ({layouts} verdelingen van de andere kaarten berekend)."
        )
        if review.perfect is not None:
            more_en, more_nl = _perfect_play_words(review, chosen.name, loss)
            en, nl = f"{en} {more_en}", f"{nl} {more_nl}"
    if CALL_THRESHOLDS.severity(loss).level > severity.level:
        graded_en, graded_nl = _graded_below(severity, sure, call=True)
        en, nl = en + graded_en, nl + graded_nl
    return [
        Finding(
            kind=kind,
            category=Category.STRATEGY,
            severity=severity,
            match=match,
            deal=review.deal,
            trick=None,
            play=None,
            seat=review.seat,
            player=player,
            card=None,
            better=(),
            points=round(loss, 2),
            explanation=en,
            explanation_nl=nl,
        )
    ]


def _perfect_play_words(
    review: CallReview, chosen: str, loss: float, order: Sequence[str] | None = None, own: float | None = None
) -> tuple[str, str]:
    """What perfect play by everyone says of the call beside the table's figures: those are a
    model of how club tables play, fitted on recorded deals, and the finding counts the smaller
    of the two losses (:attr:`~.call_review.CallReview.loss`).

    :param order: the options to name, in the order the sentence before named them (default: the
        call made, then perfect play's best): "klop 21.4 and no klop 10.7" then "no klop 22.8 and
        klop 45.5" read as if the figures had changed places.
    :param own: what the table's figures say ``chosen`` gave away (default: the call made's).
    """
    assert review.perfect is not None
    solved, best = review.perfect.option(chosen), review.perfect.best
    if solved is None:
        return "", ""
    table_loss = own if own is not None else review.own_loss or 0.0
    counted = loss < table_loss - 0.05  # perfect play's loss is the smaller one
    found = (review.perfect.option(name) for name in order or (chosen, best.name))
    first, *rest = {o.name: o for o in found if o is not None}.values()
    said_en = f"{_option(first.name, 'en')} scores {_score(first.score, 'en')}" + "".join(
        f" and {_option(o.name, 'en')} {_score(o.score, 'en')}" for o in rest
    )
    said_nl = f"{_option(first.name, 'nl')} {_score(first.score, 'nl')} op" + "".join(
        f" en {_option(o.name, 'nl')} {_score(o.score, 'nl')}" for o in rest
    )
    en = (
        f"These figures are for play as it goes at club tables; with perfect play by everyone on the same "
        f"layouts {said_en}"
        + (
            ", so the call counts as none given away: not a mistake."
            if counted and loss <= 0
            else f", so the call counts as {_score(loss, 'en')} points given away."
            if counted
            else "."
        )
    )
    nl = (
        f"Die cijfers gaan uit van hoe er aan de clubtafel gespeeld wordt; met perfect spel van iedereen "
        f"op dezelfde "
        f"verdelingen levert {said_nl}"
        + (
            ", dus telt de keuze als goed: geen fout."
            if counted and loss <= 0
            else f", dus telt de keuze als {_score(loss, 'nl')} punten weggegeven."
            if counted
            else "."
        )
    )
    return en, nl


MANILLES = mask_of([Card.H10, Card.D10, Card.C10, Card.S10])
"""The four 10s, the manilles: what a muil hand is made of."""


def _holding_words(hand: int, who: str, options: Sequence[str]) -> tuple[str, str]:
    """What the caller held of each suit among ``options`` (the call made, the better one), the
    strongest first: the reason a club player reads in a trump call, where the scores alone were
    numbers ("Anna chose clubs ... spades 11.2" did not say she held five spades to the 10).

    >>> from manillen_replay.cards import CardSet
    >>> hand = CardSet.parse("10S AS KS 9S 8S JC 7C QH").mask
    >>> _holding_words(hand, "Anna", ("C", "S"))[0]
    'Anna held 2 clubs (J♣ 7♣) and 5 spades (10♠ A♠ K♠ 9♠ 8♠).'
    >>> en, nl = _holding_words(hand, "Anna", ("D", "muil"))
    >>> en
    'Anna held no diamonds and one manille (10♠) for muil.'
    >>> nl
    'Anna had geen koeken en één manille (schoppen manille) voor muil.'

    Muil rests on the manilles (the 10s): a muil call, or muil as the better call, says how many
    the caller held (a coach read "Dirk chose muil ... held 5 spades" without his one manille).
    """
    en: list[str] = []
    nl: list[str] = []
    for name in dict.fromkeys(options):
        if name == "muil":
            tens = [int(c) for c in CardSet(hand & MANILLES).sorted_for_display()]
            if not tens:
                en.append("no manille for muil")
                nl.append("geen manille voor muil")
            else:
                many_en, many_nl = (
                    ("one manille", "één manille") if len(tens) == 1 else (f"{len(tens)} manilles",) * 2
                )
                en.append(f"{many_en} ({cards_en(tens)}) for muil")
                nl.append(f"{many_nl} ({cards_nl(tens)}) voor muil")
            continue
        if name not in ("H", "D", "C", "S"):
            continue
        suit = Suit[name]
        held = [int(c) for c in CardSet(hand & SUIT_MASKS[suit]).sorted_for_display(suit)]
        if not held:
            en.append(f"no {suit_en(suit)}")
            nl.append(f"geen {suit_nl(suit)}")
            continue
        name_en = suit_en(suit) if len(held) > 1 else suit_en(suit).removesuffix("s")
        en.append(f"{len(held)} {name_en} ({cards_en(held)})")
        nl.append(f"{len(held)} {suit_nl(suit)} ({cards_nl(held)})")
    if not en:
        return "", ""
    return f"{who} held {' and '.join(en)}.", f"{who} had {and_nl(nl)}."


def _muil_words(muil: CallOption, rules: Rules | None = None) -> tuple[str, str]:
    """What muil is and that its scores count double (``rules.md``: muil x2), with the card points
    its expected score comes from, so that a call review that names muil says why it weighs so.
    Under ``rules`` whose capot scores more than its card points (a capot bonus, a fixed score),
    the average score is more than the average points times the factor, and the words say why.

    >>> en, nl = _muil_words(CallOption("muil", 35.0, 10.0))
    >>> en.endswith("muil's 10 comes from 35 card points of 60 on average, 5 over 30, doubled.")
    True
    >>> _muil_words(CallOption("muil", 35.0, 5.0))[0].startswith("Muil (no trump) counts single")
    True
    """
    over = muil.points - 30
    if rules is not None:
        factor = multiplier(Contract.MUIL, False, 0, False, rules)
    else:
        factor = round(muil.score / over) if abs(over) > 1e-9 else 2
    # "8.4 over 30, times 3" under capot=double: the capot layouts' bonus, not a third factor
    capot = rules is not None and abs(muil.score - over * factor) > 0.05
    capot_en = ", and more where one side takes all 60 (a capot scores more under these house rules)"
    capot_nl = ", en meer waar een kant alle 60 haalt (een capot telt meer met deze huisregels)"
    capot_en, capot_nl = (capot_en, capot_nl) if capot else ("", "")
    side_en = f"{number(abs(over))} {'over' if over >= 0 else 'under'} 30"
    side_nl = f"{number_nl(abs(over))} {'boven' if over >= 0 else 'onder'} 30"
    if factor == 1:  # muil_double: false, or a cap of 1: saying "doubles" would be wrong
        return (
            f"Muil (no trump) counts single under these house rules: muil's {number(muil.score)} comes "
            f"from {number(muil.points)} card points of 60 on average, {side_en}{capot_en}.",
            f"Muil (zonder troef) telt enkel met deze huisregels: de {number_nl(muil.score)} van muil komt "
            f"van gemiddeld {number_nl(muil.points)} kaartpunten van 60, {side_nl}{capot_nl}.",
        )
    doubled_en = "doubled" if factor == 2 else f"times {factor}"
    doubled_nl = "verdubbeld" if factor == 2 else f"maal {factor}"
    en = (
        "Muil (no trump) doubles the deal's score, and these scores count it: muil's "
        f"{number(muil.score)} comes from {number(muil.points)} card points of 60 on average, {side_en}, "
        f"{doubled_en}{capot_en}."
    )
    nl = (
        "Muil (zonder troef) telt de score van het spel dubbel, en deze scores rekenen daarmee: de "
        f"{number_nl(muil.score)} van muil komt van gemiddeld {number_nl(muil.points)} kaartpunten van 60, "
        f"{side_nl}, {doubled_nl}{capot_nl}."
    )
    return en, nl


STRATEGY_INFO_BELOW = 2.0
"""At the solver depth a strategy finding with fewer points at stake than this is ``info``."""
WORD_KINDS = (
    "missed_vetten",
    "bare_ace_lost",
    "wasted_trump",
    "points_thrown",
    "unsafe_vetten",
    "trump_overspent",
    "master_trump_smeared",
)
"""Built-in card findings that say in words what a ``costly_card`` says in numbers: at equal
cost they are the more telling finding of a play."""
CALL_KINDS = ("trump_choice", "knock_choice")
KLOP_KINDS = ("klop_lost", "klop_missed")
DECISION_OF_CALL = {
    "trump_choice": "trump",
    "muil_missed": "trump",
    "knock_choice": "knock",
    "klop_lost": "knock",
    "klop_missed": "knock",
}
"""The call each call finding judges: a seat's one decision gets one finding at the solver depth."""


def _telling(finding: Finding) -> tuple[int, bool, float, int]:
    """How telling a finding is among those of one play: severity, then any finding before a
    ``hindsight_only`` note (which is never more than ``info``: at equal severity the finding
    that explains stays, however many points hindsight shows), then cost, then words."""
    words = 2 if finding.kind in WORD_KINDS else 1 if finding.kind == "costly_card" else 0
    return (finding.severity.level, finding.kind != "hindsight_only", finding.points, words)


def _as_info(finding: Finding, en: str = "", nl: str = "") -> Finding:
    return replace(
        finding,
        severity=Severity.INFO,
        explanation=finding.explanation + en,
        explanation_nl=finding.explanation_nl + nl,
    )


def _by_expectation(finding: Finding, review: CallReview | None, calibrated: bool) -> Finding:
    """klop_lost or klop_missed judged by the knock review's expectation, not the outcome."""
    if review is None:
        return _as_info(
            finding,
            " No knock review from this player's cards: the outcome alone does not make it a mistake.",
            " Geen klopberekening met de kaarten van deze speler: de uitslag alleen maakt het geen fout.",
        )
    klop, no_klop = review.option("klop"), review.option("no klop")
    assert klop is not None and no_klop is not None
    taken = klop if finding.kind == "klop_lost" else no_klop
    loss = max(0.0, round(review.given_away(taken.name), 2))
    # judged, as a trump or knock call is, by what it surely gave away
    sure = review.surely_given_away(taken.name)
    en = (
        f" From the cards in hand klop was worth {number(klop.score)} points of the deal on average, no "
        f"klop {number(no_klop.score)} ({review.layouts} layouts of the other cards solved, given the calls)"
    )
    nl = (
        f" Met de kaarten in de hand was klop gemiddeld {number_nl(klop.score)} punten van het spel "
        f"waard, geen klop {number_nl(no_klop.score)} ({review.layouts} verdelingen van de andere "
        "kaarten berekend, rekening houdend met de aangekondigde troef)"
    )
    # the table's figures' own verdict first; perfect play's, when it is kinder, counts (as for a trump call)
    own = max(0.0, round(review.best.score - taken.score, 2))
    if own <= 0:
        en += ": a sound call that the cards did not reward, not a mistake."
        nl += ": een goede keuze die de kaarten niet beloonden, geen fout."
    else:
        en += f": {points_en(own)} given away on average."
        nl += f": gemiddeld {points_nl(own)} weggegeven."
    if review.perfect is not None and review.perfect.option(taken.name) is not None:
        more_en, more_nl = _perfect_play_words(review, taken.name, loss, ("klop", "no klop"), own)
        en, nl = f"{en} {more_en}", f"{nl} {more_nl}"
    severity = CALL_THRESHOLDS.severity(sure) if calibrated else Severity.INFO
    if calibrated and severity is Severity.INFO and CALL_THRESHOLDS.severity(loss) is not Severity.INFO:
        # what judges it, said as a card's note says it (one standard error read as sure)
        low = CALL_THRESHOLDS.inaccuracy
        surely = tenths_below(sure, low)
        en += (
            f" The layouts leave that unsure: all that is sure is that it gave away at least "
            f"{number(surely)} (its loss less twice the layouts' margin of error), under the "
            f"{number(low)} of an inaccuracy, so this is info."
        )
        nl += (
            f" De verdelingen lopen te ver uiteen: zeker is alleen dat minstens {number_nl(surely)} werd "
            f"weggegeven (het verlies min tweemaal de foutmarge van de verdelingen), minder dan de "
            f"{number_nl(low)} van een onnauwkeurigheid; daarom is dit een opmerking."
        )
    elif calibrated and CALL_THRESHOLDS.severity(loss).level > severity.level:
        # graded below its loss: said, as a call's own finding says it (a coach read "mistake
        # klop_lost (14 points)" where 12 is a blunder's, without a word of why)
        graded_en, graded_nl = _graded_below(severity, sure, call=True)
        en, nl = en + graded_en, nl + graded_nl
    if not calibrated:
        en += " The knock review is not calibrated yet, so this is info."
        nl += " De klopberekening is nog niet geijkt, dus dit is een opmerking."
    return replace(
        finding,
        severity=severity,
        points=loss,
        explanation=finding.explanation + en,
        explanation_nl=finding.explanation_nl + nl,
    )


def curate(
    findings: Iterable[Finding],
    *,
    knock_reviews: Mapping[tuple[int, int], CallReview] | None = None,
    calibrated_deals: Container[int] = (),
) -> list[Finding]:
    """The findings of a match at the solver depth: fewer, and better.

    - one finding per play, the most telling: the highest severity, then any finding before a
      ``hindsight_only`` note, then the highest cost, then a built-in finding that explains in
      words (:data:`WORD_KINDS`) before ``costly_card``;
    - a strategy finding with fewer than :data:`STRATEGY_INFO_BELOW` points, and every
      ``hindsight_only``, is ``info``;
    - ``klop_lost`` and ``klop_missed`` are judged by the knock review's expectation (the
      review of that player's knock), not by the outcome: a sound knock that lost is not a
      mistake;
    - call findings (``trump_choice``, ``knock_choice``, and the two above) of a deal whose call
      review is not calibrated (docs/solver.md) are ``info``;
    - one finding per call decision too: a seat's knock (``knock_choice``, ``klop_lost``,
      ``klop_missed``) or trump call (``trump_choice``, ``muil_missed``), the most telling;
    - a word finding kept over a play's ``costly_card`` takes its cost, its reason and its
      severity along (the severity of what the card surely cost).

    :param knock_reviews: the knock review of each (deal, seat) reviewed.
    :param calibrated_deals: the deals whose kind of contract the call review is calibrated for.
    """
    reviews = knock_reviews or {}
    kept: dict[tuple[object, ...], Finding] = {}
    others: list[Finding] = []
    for finding in findings:
        calibrated = finding.deal in calibrated_deals
        if finding.kind in KLOP_KINDS:
            seat = finding.seat
            review = reviews.get((finding.deal or 0, seat)) if seat is not None else None
            finding = _by_expectation(finding, review, calibrated)
        elif finding.kind in CALL_KINDS and not calibrated and finding.severity is not Severity.INFO:
            finding = _as_info(
                finding,
                " The call review is not calibrated yet, so this is info.",
                " De berekening van de keuze is nog niet geijkt, dus dit is een opmerking.",
            )
        elif (
            finding.category is Category.STRATEGY
            and finding.severity is not Severity.INFO
            and (finding.kind == "hindsight_only" or finding.points < STRATEGY_INFO_BELOW)
        ):
            finding = replace(finding, severity=Severity.INFO)
        decision = DECISION_OF_CALL.get(finding.kind)
        if finding.play is None and (decision is None or finding.seat is None):
            others.append(finding)
            continue
        place = (
            (finding.match, finding.deal, finding.trick, finding.play)
            if finding.play is not None
            else (finding.match, finding.deal, decision, finding.seat)
        )
        if place not in kept or _telling(finding) > _telling(kept[place]):
            kept[place] = _with_the_reason(finding, kept.get(place))
        else:
            kept[place] = _with_the_reason(kept[place], finding)
    return sorted([*others, *kept.values()], key=sort_key)


def _with_the_reason(kept: Finding, dropped: Finding | None) -> Finding:
    """A word finding that wins over a play's ``costly_card`` keeps the cost and the reason the
    solver gave for it: what the card lost from the player's view, and why."""
    if dropped is None or dropped.kind != "costly_card" or kept.kind == "costly_card":
        return kept
    from .detectors import VIEW_SENTENCES

    # the detector's "From what Bert could see, playing J♦ was worth 6 card points more" said
    # the cost the costly card's words say next
    english, dutch = (
        pattern.sub("", text)
        for pattern, text in zip(VIEW_SENTENCES, (kept.explanation, kept.explanation_nl), strict=True)
    )
    # judged as the costly card is, by what the card surely cost: a bare ace lost for 2.1 on
    # average that the layouts leave unsure stood as an inaccuracy whose words said "this is a note"
    return replace(
        kept,
        severity=dropped.severity,
        explanation=f"{english} {dropped.explanation}",
        explanation_nl=f"{dutch} {dropped.explanation_nl}",
    )
