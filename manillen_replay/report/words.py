"""The report's words in English and Dutch (Flemish usage); game terms stay Dutch in both."""

from __future__ import annotations

from typing import Any

LANGUAGES = ("en", "nl")
"""The report's languages, English first (the default)."""

WORDS: dict[str, tuple[str, str]] = {
    "title": ("Match review: {match}", "Partijbespreking: {match}"),
    "title_player": ("Match review for {player}: {match}", "Partijbespreking voor {player}: {match}"),
    "against": ("{a} against {b}", "{a} tegen {b}"),
    "final": ("Final score {score}: {who}", "Eindstand {score}: {who}"),
    "unfinished": ("Score {score}: not finished", "Stand {score}: niet uitgespeeld"),
    "won": ("{names} won", "gewonnen door {names}"),
    "draw": ("a draw", "gelijkspel"),
    "score_chart": ("Score deal by deal", "Stand spel per spel"),
    "deal_axis": ("deal", "spel"),
    "deals": ("Deals", "Spellen"),
    "deals_note": (
        "The cards and the decisions in card points for {team}: together they are the card points "
        "taken. The decisions are the play and the luck added up, the luck being the part nobody "
        "could have seen coming: decisions 0 with luck −11.7 is play that gained 11.7 and luck that "
        "cost as much (the other team's are the cards' rest of 60 and the opposite of the decisions "
        "and the luck).",
        "De kaarten en de beslissingen in kaartpunten voor {team}: samen zijn ze de genomen "
        "kaartpunten. De beslissingen zijn het goede of slechte spelen en het geluk samen, het geluk het "
        "deel dat niemand kon zien aankomen: beslissingen 0 met geluk −11,7 betekent: goed spelen won "
        "11,7 punten en het geluk kostte evenveel (voor de andere ploeg: de rest van 60 en het "
        "omgekeerde van de beslissingen en het geluk).",
    ),
    "col.deal": ("Deal", "Spel"),
    "col.dealer": ("Dealer", "Gever"),
    "col.contract": ("Contract", "Aankondiging"),
    "col.points": ("Card points", "Kaartpunten"),
    "col.outcome": ("Deal score", "Score"),
    "col.score": ("Match score", "Stand"),
    "col.player": ("Player", "Speler"),
    "col.accuracy": ("Accuracy", "Nauwkeurigheid"),
    "col.cards_chosen": ("Cards chosen", "Gekozen kaarten"),
    "col.team": ("Team", "Ploeg"),
    "col.block": ("Block", "Blok"),
    "col.teams": ("Teams", "Ploegen"),
    "col.won_by": ("Won by", "Gewonnen door"),
    "col.block_score": ("Score", "Stand"),
    "club_evening": (
        "Club evening: the partners change every block",
        "Clubavond: de partners wisselen elk blok",
    ),
    "blocks": ("The blocks", "De blokken"),
    "block_tie": ("nobody (a tie)", "niemand (gelijkspel)"),
    "block_under_way": ("under way", "bezig"),
    "blocks_won": ("Blocks won: {won}", "Gewonnen blokken: {won}"),
    "block_heading": ("Block {number}: {teams}", "Blok {number}: {teams}"),
    "block_team": ("{player}'s team in each block", "de ploeg van {player} in elk blok"),
    "side_of": ("{player}'s side in each deal", "de kant van {player} in elk spel"),
    "col.cards": ("The cards", "De kaarten"),
    "col.decisions": ("Decisions", "Beslissingen"),
    "col.luck": ("Luck in them", "Geluk daarin"),
    "col.taken": ("Taken", "Genomen"),
    "trump": ("troef {suit}", "troef {suit}"),
    "muil": ("muil", "muil"),
    "blind_muil": ("blind muil", "blinde muil"),
    "no_contract": ("not recorded", "niet genoteerd"),
    "en_face": ("en face", "en face"),
    "redeal": ("redeal", "herdeling"),
    "abandoned": ("abandoned", "afgebroken"),
    "scoresheet": ("scoresheet only", "enkel scoreblad"),
    "tie": ("30-30", "30-30"),
    "accuracy": ("Accuracy", "Nauwkeurigheid"),
    # the Match page says the same words (dashboards.i18n's match.accuracy_caption is this one):
    # the report's said "every card chosen" of a figure that counts the calls too
    "accuracy_note": (
        "Every real decision (a card chosen among cards not all worth the same, a trump, muil or klop "
        "call) scores 100% when it was the best from what the player could see; every 5 points given "
        "away on average halve it. Forced cards and choices that hardly mattered do not count.",
        "Elke echte beslissing (een kaart gekozen uit kaarten die niet evenveel waard waren, een keuze "
        "van troef, muil of klop) scoort 100% als ze de beste was met wat de speler kon weten; elke 5 "
        "punten die ze gemiddeld weggaf halveren dat. Verplichte kaarten en keuzes die er nauwelijks "
        "toe deden tellen niet.",
    ),
    "ledger": ("The cards and the decisions", "De kaarten en de beslissingen"),
    "ledger_note": (
        "In card points, 60 a deal. The cards: what the team's deals were worth with perfect play by "
        "everyone from the first lead on. Own and partner's decisions: what their cards gave away "
        "against the best card, with hindsight. Opponents' decisions: what the other side gave back. "
        "Together they make the points taken. Mistakes are the part a player could have known; "
        "the rest of the hindsight cost is luck.",
        "In kaartpunten, 60 per spel. De kaarten: wat de spellen van de ploeg waard waren als iedereen vanaf "
        "de eerste kaart perfect speelt. Eigen beslissingen en die van de partner: wat hun kaarten "
        "weggaven tegenover de beste kaart, achteraf bekeken. Beslissingen van de tegenstanders: wat "
        "die teruggaven. Samen maken ze de genomen punten. Fouten zijn het deel dat een speler kon "
        "weten; de rest van de kost achteraf is geluk.",
    ),
    "step.cards": ("the cards", "de kaarten"),
    "step.own": ("own decisions", "eigen beslissingen"),
    "step.partner": ("partner's decisions", "beslissingen partner"),
    "step.opponents": ("opponents' decisions", "beslissingen tegenstanders"),
    "step.illegal": ("illegal cards", "onreglementaire kaarten"),
    "step.points": ("points taken", "genomen punten"),
    "ledger_chart": ("{player}: where the points came from", "{player}: waar de punten vandaan kwamen"),
    "ledger_line": (
        "{player}: mistakes {mistakes} (partner {partner}, opponents {opponents}); luck {luck}.",
        "{player}: fouten {mistakes} (partner {partner}, tegenstanders {opponents}); geluk {luck}.",
    ),
    "calls_line": (
        "Calls (trump, muil, klop) gave away {calls} expected scoresheet points in all, by the call review.",
        "Aankondigingen (troef, muil, klop) gaven in totaal {calls} verwachte punten op het scoreblad weg, "
        "volgens de beoordeling van de aankondigingen.",
    ),
    "deal_ledger": ("Deal by deal", "Spel per spel"),
    "no_costs": (
        "The solver has not costed this match yet: run `manillen analyze --depth solver` for accuracy, "
        "the ledger and the costliest decisions.",
        "De solver heeft deze partij nog niet berekend: voer `manillen analyze --depth solver` uit voor "
        "nauwkeurigheid, de kaarten en beslissingen en de duurste beslissingen.",
    ),
    "no_cards": (
        "This match was recorded as a scoresheet only, without the cards played: accuracy, the "
        "ledger and the costliest decisions need the cards, so there is nothing for the solver to "
        "review.",
        "Deze partij is alleen als scoreblad opgenomen, zonder de gespeelde kaarten: nauwkeurigheid, "
        "de kaarten en beslissingen en de duurste beslissingen hebben de kaarten nodig, dus de solver "
        "heeft niets te bekijken.",
    ),
    "review": ("The review", "De bespreking"),
    "review_note": (
        "The costliest decisions, ranked by what they cost from what the player could see (one "
        "finding per decision), as the dashboard's Match page ranks them.",
        "De duurste beslissingen, gerangschikt volgens wat ze kostten met wat de speler zelf kon weten "
        "(één bevinding per beslissing), zoals de pagina Partij van het dashboard ze rangschikt.",
    ),
    "review_title_1": (
        "{player}'s costliest decision in this match",
        "De duurste beslissing van {player} in deze partij",
    ),
    "review_title_2": (
        "{player}'s two costliest decisions in this match",
        "De twee duurste beslissingen van {player} in deze partij",
    ),
    "review_title_3": (
        "{player}'s three costliest decisions in this match",
        "De drie duurste beslissingen van {player} in deze partij",
    ),
    "review_title_n": (
        "{player}'s {count} costliest decisions in this match",
        "De {count} duurste beslissingen van {player} in deze partij",
    ),
    "review_none": (
        "{player}: no costly decision in this match.",
        "{player}: geen dure beslissing in deze partij.",
    ),
    "decision_title": (
        "{rank}. Deal {deal}, trick {trick}: {player} played {card}",
        "{rank}. Spel {deal}, slag {trick}: {player} speelde {card}",
    ),
    "call_title": ("{rank}. Deal {deal}: {player}'s {call}", "{rank}. Spel {deal}: {call} van {player}"),
    "call.trump": ("trump call", "troefkeuze"),
    # the choice to knock or not: "klop van Frans" read as a knock Frans made, over his "no klop"
    "call.klop": ("klop (knock) choice", "klopkeuze"),
    "cost": ("Cost: {cost}.", "Kost: {cost}."),
    "better": ("Better: {cards}.", "Beter: {cards}."),
    "or": ("or", "of"),
    "better_line": (
        "Better line, {where}: {better} instead of {card}, then best play by {everyone}: {tricks}. "
        "{team} {take} {b} card points from here, against {a} after {card}.",
        "Betere lijn, {where}: {better} in plaats van {card}, daarna speelt iedereen perfect: {tricks}. "
        "{team} {take} vanaf hier {b} kaartpunten, tegen {a} na {card}.",
    ),
    "everyone_four": ("all four", "iedereen"),
    "everyone": ("all", "iedereen"),
    "take_many": ("take", "halen"),
    "take_one": ("takes", "haalt"),
    "line_on_view": (
        "on the layout of the hidden cards closest to the average, of {layouts} that {player} could not "
        "tell from the real one (so the other hands are not the real ones drawn above)",
        "in de verdeling van de verborgen kaarten die het dichtst bij het gemiddelde ligt, van {layouts} "
        "die {player} niet van de echte kon onderscheiden (de andere handen zijn dus niet de echte "
        "hierboven)",
    ),
    "line_on_one": (
        # one layout solved may be the only one possible, so the real one: "not the real ones" was wrong
        "on the one layout of the hidden cards solved from what {player} could see",
        "in de enige verdeling van de verborgen kaarten die berekend werd met wat {player} kon weten",
    ),
    "line_on_real": ("on the real cards, every hand known", "met de echte kaarten, alle kaarten open"),
    "line_trick": (
        "trick {trick} {cards} to {winner} ({points})",
        "slag {trick} {cards} naar {winner} ({points})",
    ),
    "decision_contract": ("Contract: {contract}", "Aankondiging: {contract}"),  # as the Deal replay says it
    "legend_played": ("the card played", "de gespeelde kaart"),
    "legend_better": ("the better card", "de betere kaart"),
    "on_table": ("On the table", "Op tafel"),
    "empty_trick": ("{player} leads", "{player} komt uit"),
    "dealer_badge": ("dealer", "gever"),
    "comments": ("Comments", "Commentaar"),
    "comment_deal": ("deal {deal}", "spel {deal}"),
    "variation": ("variation", "variant"),
    "comment_trick": ("deal {deal}, trick {trick}", "spel {deal}, slag {trick}"),
    "comment_play": ("deal {deal}, trick {trick}, play {play}", "spel {deal}, slag {trick}, kaart {play}"),
    "footer": (
        "Made by manillen-replay {version}. Formulas: {accuracy}; {ledger}; view costs over up to {samples} "
        "layouts of the hidden cards drawn per play, or every layout where few were left. "
        "manillen-replay's documentation (docs/solver.md) explains them in full.",
        "Gemaakt door manillen-replay {version}. Formules: {accuracy}; {ledger}; kost met wat de "
        "speler kon zien over "
        "hoogstens {samples} getrokken verdelingen van de verborgen kaarten per kaart, of alle "
        "verdelingen waar er nog weinig waren. De documentatie van manillen-replay (docs/solver.md) legt "
        "ze volledig uit.",
    ),
    "accuracy_formula": (
        "accuracy-1: card accuracy = 100 × 0.5^(view cost / 5), averaged over the chosen cards",
        "accuracy-1: nauwkeurigheid per kaart = 100 × 0,5^(kost / 5), gemiddeld over de gekozen kaarten",
    ),
    "ledger_formula": (
        # the table signs each step (own decisions that cost are negative): the formula adds them as shown
        "{version}: points taken = the cards + each decision's step as the table signs it (own, "
        "partner's, opponents', illegal cards; hindsight costs)",
        "{version}: genomen punten = de kaarten + elke stap van de beslissingen met het teken in de tabel "
        "(eigen, partner, tegenstanders, onreglementaire kaarten; kost achteraf)",
    ),
    "samples_unknown": ("the stored number of", "het bewaarde aantal"),
    # "tonight" read wrong for a match reviewed days later
    "puzzles_explained": (
        "No puzzles: every clear decision of this match is explained in the review above.",
        "Geen puzzels: elke duidelijke beslissing van deze partij staat uitgelegd in de bespreking "
        "hierboven.",
    ),
    "puzzles_1": ("A puzzle from this match", "Een puzzel uit deze partij"),
    "puzzles_2": ("Two puzzles from this match", "Twee puzzels uit deze partij"),
    "puzzles_3": ("Three puzzles from this match", "Drie puzzels uit deze partij"),
    "puzzles_note": (
        "Your own decisions that cost points, as you saw the table: what would you play now? The answer "
        "is under each puzzle.",
        "Uw eigen beslissingen die punten kostten, zoals u de tafel zag: wat speelt u nu? Het antwoord "
        "staat onder elke puzzel.",
    ),
    "puzzles_note_all": (
        "The players' decisions that cost points, each as its player saw the table: what would you "
        "play in their place? The answer is under each puzzle.",
        "De beslissingen die punten kostten, elk zoals de speler de tafel zag: wat speelt u in diens "
        "plaats? Het antwoord staat onder elke puzzel.",
    ),
    "puzzles_title": ("Puzzles for {player}", "Puzzels voor {player}"),
    "puzzles_count": (
        "{count} puzzles from {player}'s own costly decisions, as {player} saw the table. The answers "
        "follow the puzzles.",
        "{count} puzzels uit de eigen dure beslissingen van {player}, zoals {player} de tafel zag. De "
        "antwoorden staan na de puzzels.",
    ),
    "puzzles_none": (
        "No puzzles for {player} yet: they come from decisions the solver reviewed (manillen analyze "
        "--depth solver) that clearly cost 2 card points or more.",
        "Nog geen puzzels voor {player}: ze komen uit beslissingen die de solver bekeek (manillen analyze "
        "--depth solver) en die duidelijk 2 kaartpunten of meer kostten.",
    ),
    "puzzle_title": ("Puzzle {number}: {question}", "Puzzel {number}: {question}"),
    "puzzle_title_of": ("Puzzle {number} ({player}): {question}", "Puzzel {number} ({player}): {question}"),
    "question.card": ("what do you play?", "wat speelt u?"),
    "question.knock": ("do you knock (klop)?", "klopt u?"),
    "question.trump": ("which trump do you call (or muil)?", "welke troef roept u (of muil)?"),
    "question.trumps_out": ("which trumps are still out?", "welke troeven zitten er nog?"),
    "question.masters": (
        "which cards are the masters now (the highest of each suit still in play)?",
        "welke kaarten zijn nu baas (de hoogste van elke kleur die nog in het spel is)?",
    ),
    "puzzle_source": ("From {source}.", "Uit {source}."),
    "source_card": (
        "match {match}, deal {deal}, trick {trick}, play {play}",
        "partij {match}, spel {deal}, slag {trick}, kaart {play}",
    ),
    "source_call": (
        "match {match}, deal {deal}, before the first card",
        "partij {match}, spel {deal}, voor de eerste kaart",
    ),
    "nothing": ("nothing", "niets"),
    "puzzle_score": (
        "Score before the deal {score}; card points in this deal so far {c}–{d} (your team first).",
        "Stand voor het spel {score}; kaartpunten in dit spel tot nu {c}–{d} (uw ploeg eerst).",
    ),
    "puzzle_score_alone": (
        "Score before the deal {score} (yours first, then the others'); card points in this deal so "
        "far {c}–{d} (your side first).",
        "Stand voor het spel {score} (de uwe eerst, dan die van de anderen); kaartpunten in dit spel "
        "tot nu {c}–{d} (uw kant eerst).",
    ),
    "hidden_cards": ("{count} cards", "{count} kaarten"),
    "tricks_so_far": ("Tricks so far, each from its leader", "Slagen tot nu, elk vanaf wie uitkwam"),
    "answer": ("Answer", "Antwoord"),
    "answers": ("Answers", "Antwoorden"),
    "answer_card": (
        "{answers}: better than any other card by {margin} card points from what you could see "
        "({layouts} layouts of the hidden cards). At the table: {played}, {cost} card points less.",
        "{answers}: {margin} kaartpunten beter dan elke andere kaart, met wat u kon zien "
        "({layouts} verdelingen van de verborgen kaarten). Aan tafel: {played}, {cost} kaartpunten minder.",
    ),
    "answer_call": (
        "{answers}: {margin} points better on the scoresheet on average than any other call "
        "({layouts} layouts). At the table: {played}, {cost} points less than the best.",
        "{answers}: gemiddeld {margin} punten beter op het scoreblad dan elke andere keuze "
        "({layouts} verdelingen). Aan tafel: {played}, {cost} punten minder dan de beste.",
    ),
    "no_klop": ("no klop", "geen klop"),
    "answer_trumps": ("Still out: {answers}.", "Zitten er nog: {answers}."),
    "answer_masters": ("The masters now: {answers}.", "Nu baas: {answers}."),
    "no_trumps_out": ("none", "geen"),
}


def say(lang: str, key: str, **values: Any) -> str:
    """The text of ``key`` in ``lang`` (``en`` or ``nl``), with ``values`` filled in.

    >>> say("nl", "col.deal")
    'Spel'

    :raises KeyError: for an unknown key.
    """
    english, dutch = WORDS[key]
    text = dutch if lang == "nl" else english
    return text.format(**values) if values else text


def decimal_sign(lang: str) -> str:
    """The decimal sign of ``lang``: ``","`` in Dutch, ``"."`` in English.

    >>> decimal_sign("nl"), decimal_sign("en")
    (',', '.')
    """
    return "," if lang == "nl" else "."
