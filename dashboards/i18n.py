"""The dashboard's labels in English and Dutch (Flemish usage); game terms stay Dutch in both.

Muil, klop, tegenklop, troef, manille, vetten, kopen and the suit names harten, koeken, klaveren
and schoppen are what players say at the table, so the English labels use them too.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from typing import Any

from manillen_replay.analysis.effort import wait_in_units
from manillen_replay.analysis.puzzles import PuzzleKind
from manillen_replay.analysis.words import kind_name
from manillen_replay.cards import Suit
from manillen_replay.evening import PLAYER_LIST_PROBLEMS
from manillen_replay.report.svg import MINUS as MINUS  # every figure of the pages: −3, not the hyphen of -3
from manillen_replay.report.words import WORDS as REPORT_WORDS
from manillen_replay.report.words import decimal_sign as decimal_sign  # the pages and the report write alike
from manillen_replay.rules import Clause, LegalPlays
from manillen_replay.store.console import REASONS as CONSOLE_REASONS


def _sentence(words: str) -> str:
    """A message of the package's (lower case, no full stop) as a sentence of a page."""
    return words[0].upper() + words[1:] + "."


LEDGER_STEPS = ("cards", "own", "partner", "opponents", "illegal", "points")
"""The ledger's steps, from the cards to the points taken."""

LANGUAGES = ("en", "nl")
"""The label languages, English first (the default)."""

LANGUAGE_NAMES = {"en": "English", "nl": "Nederlands"}

LABELS: dict[str, tuple[str, str]] = {
    # navigation and frame
    "app.title": ("Manillen replay", "Manillen replay"),
    "nav.archive": ("Archive", "Archief"),
    "nav.match": ("Match", "Partij"),
    "nav.replay": ("Deal replay", "Spel herspelen"),
    "nav.mistakes": ("Mistakes", "Fouten"),
    "nav.players": ("Players", "Spelers"),
    "nav.sql": ("SQL", "SQL"),
    "nav.annotations": ("Annotations", "Commentaar"),
    "sidebar.language": ("Language", "Taal"),
    # plain text, not `code`: a code span costs every page the monospace font (90 KB)
    "sidebar.archive": ("Archive file: {path}", "Archiefbestand: {path}"),
    # empty archive
    "empty.title": ("The archive is empty", "Het archief is leeg"),
    "empty.body": (
        "There are no matches in `{path}` yet. Import recorded matches with\n\n"
        "```\nmanillen import MATCHES.jsonl --db {path}\nmanillen analyze --db {path}\n```\n\n"
        "or upload a file on the Archive page, then reload this page. "
        "`make demo` builds a demo archive and opens it here.",
        "Er staan nog geen partijen in `{path}`. Importeer opgenomen partijen met\n\n"
        "```\nmanillen import PARTIJEN.jsonl --db {path}\nmanillen analyze --db {path}\n```\n\n"
        "of laad een bestand op via de pagina Archief en herlaad deze pagina. "
        "`make demo` bouwt een demo-archief en opent het hier.",
    ),
    "error.locked": (
        "The archive is in use by another program, so it cannot be changed now: {message}. "
        "Your text is kept here: try again once the other program has finished.",
        "Het archief is in gebruik door een ander programma en kan nu niet gewijzigd worden: {message}. "
        "Uw tekst blijft hier staan: probeer opnieuw wanneer het andere programma klaar is.",
    ),
    "error.unreadable": (
        "The archive `{path}` cannot be opened: {message}",
        "Het archief `{path}` kan niet geopend worden: {message}",
    ),
    # archive page
    "archive.title": ("Archive", "Archief"),
    "archive.matches": ("Matches", "Partijen"),
    "archive.deals": ("Deals", "Spellen"),
    "archive.players": ("Players", "Spelers"),
    "archive.findings": ("Findings", "Bevindingen"),
    "archive.filters": ("Filter matches", "Partijen filteren"),
    "archive.filters_active": ("filters: {count}", "filters: {count}"),
    "archive.filter_player": ("Player", "Speler"),
    "archive.filter_venue": ("Venue", "Locatie"),
    "archive.filter_variant": ("Variant", "Variant"),
    "archive.filter_dates": ("Dates", "Datums"),
    "archive.shown": ("{shown} of {total} matches shown", "{shown} van {total} partijen getoond"),
    "archive.open": ("open", "openen"),
    "archive.click_row": ("Click a row to open the match.", "Klik op een rij om de partij te openen."),
    "filter.all": ("All", "Alle"),
    # Streamlit's drop-down says "Choose an option" while nothing is chosen, in English only (ui.selectbox)
    "input.choose": ("Choose an option", "Kies een optie"),
    "filter.date_from": ("from", "van"),
    "filter.date_to": ("to", "tot en met"),
    "variant.four": ("four players", "vier spelers"),
    "variant.two_open": ("two, open cards", "twee, open kaarten"),
    "variant.two_open_fours": ("two, open cards, tricks of four", "twee, open kaarten, slagen van vier"),
    "variant.three": ("three, dealer alone", "drie, gever alleen"),
    "variant.three_dummy": ("three, with a dummy", "drie, met blinde partner"),
    "variant.six": ("six players", "zes spelers"),
    "variant.six_short": ("six, two cards aside", "zes, twee kaarten opzij"),
    "archive.upload": ("Import matches", "Partijen importeren"),
    "archive.upload_help": (
        "A recorded match (.json), an archive (.jsonl) or matches in the text notation (.mnl). It is "
        "checked like `manillen import` does, then analysed.",
        "Een opgenomen partij (.json), een archief (.jsonl) of partijen in de tekstnotatie (.mnl). Het "
        "wordt nagekeken zoals `manillen import` en daarna geanalyseerd.",
    ),
    "archive.import_button": ("Import", "Importeren"),
    # the file uploader's own words (Streamlit writes them in English only: ui.file_uploader)
    "upload.choose": ("Choose a file", "Bestand kiezen"),
    "upload.limits": (
        "or drop it here · up to {size} MB · {types}",
        "of sleep het hierheen · tot {size} MB · {types}",
    ),
    "upload.drop": ("Drop the file here", "Laat het bestand hier los"),
    "archive.import_done": (
        "{name}: {imported} imported, {replaced} replaced, {skipped} already present, {refused} refused "
        "({deals}).",
        "{name}: {imported} geïmporteerd, {replaced} vervangen, {skipped} al aanwezig, {refused} geweigerd "
        "({deals}).",
    ),
    # counts with their noun, one and many (the pages choose: ui-free, so the archive page does)
    "count.deals": ("{count} deals", "{count} spellen"),
    "count.deals_one": ("1 deal", "1 spel"),
    "count.matches": ("{count} matches", "{count} partijen"),
    "count.findings": ("{count} findings", "{count} bevindingen"),
    "count.findings_one": ("1 finding", "1 bevinding"),
    "count.matches_one": ("1 match", "1 partij"),
    "count.comments": ("{count} coach comments", "{count} commentaren van de coach"),
    "count.comments_one": ("1 coach comment", "1 commentaar van de coach"),
    "archive.import_refused": ("Refused: {problem}", "Geweigerd: {problem}"),
    "archive.refused_more": (
        "... and {count} more problems: the archive's rejects table has them (the SQL page).",
        "... en nog {count} problemen: de tabel rejects van het archief bevat ze (de pagina SQL).",
    ),
    "archive.club_rules_none": ("None: each match's own rules", "Geen: de eigen regels van elke partij"),
    "archive.club_rules_help": (
        "A club's rules saved in the archive, as `manillen import --rules NAME` applies them: a match "
        "that names no house rules takes the club's; one that names other rules is refused, with the "
        "options that differ.",
        "De regels van een club, bewaard in het archief, zoals `manillen import --rules NAAM` ze "
        "toepast: een partij zonder eigen huisregels krijgt die van de club; een partij met andere "
        "regels wordt geweigerd, met de opties die verschillen.",
    ),
    "archive.upload_refused": (
        "Not imported: {message}.",
        "Niet geïmporteerd: {message}.",
    ),
    "archive.import_failed": (
        "The upload could not be imported: {message}",
        "Het bestand kon niet geïmporteerd worden: {message}",
    ),
    "archive.replace_ask": (
        "{name} holds {matches} the archive already has with other content. Replace them? "
        "The archive's versions are kept and can be put back.",
        "{name} bevat {matches} die het archief al heeft met een andere inhoud. Vervangen? "
        "De versies in het archief worden bewaard en kunnen teruggezet worden.",
    ),
    "archive.replace_one": (
        "{match}: {before} in the archive, {after} in the file",
        "{match}: {before} in het archief, {after} in het bestand",
    ),
    "archive.comments_kept": (
        "its {comments} stay with it",
        "de {comments} blijven erbij",
    ),
    "archive.analysis_kept": (
        "its analysis stays: only the match's details changed",
        "de analyse blijft: alleen de gegevens van de partij veranderden",
    ),
    "archive.comments_kept_one": (
        "its coach comment stays with it",
        "het commentaar van de coach blijft erbij",
    ),
    "archive.comments_added": (
        "{comments} added to matches already present (the same games, with comments the archive "
        "did not have).",
        "{comments} toegevoegd aan partijen die er al waren (dezelfde spellen, met commentaar dat het "
        "archief nog niet had).",
    ),
    "archive.replace_yes": ("Replace them", "Vervangen"),
    "archive.replace_no": ("Import only the new matches", "Enkel de nieuwe partijen importeren"),
    "archive.replace_cancel": ("Cancel", "Annuleren"),
    "archive.kept": (
        "Kept as they were in the archive: {matches}.",
        "Gebleven zoals ze in het archief waren: {matches}.",
    ),
    "archive.replaced_one": (
        "Replaced {match}: {before} in the archive before, {after} now. Its earlier version is kept.",
        "{match} vervangen: eerst {before} in het archief, nu {after}. De vorige versie is bewaard.",
    ),
    "archive.replaced_in_file": (
        "{match} is twice in the file, with other content: {before} at {earlier}, {after} at "
        "{place}. The later is kept; the earlier is in the archive's history.",
        "{match} staat twee keer in het bestand, met een andere inhoud: {before} op {earlier}, "
        "{after} op {place}. De latere is bewaard; de eerdere staat in de geschiedenis van het archief.",
    ),
    "archive.more_uploaded": (
        "and {count} more of this file's matches: the table below lists them all",
        "en nog {count} partijen uit dit bestand: de tabel hieronder toont ze alle",
    ),
    "archive.restore": (
        "Put back the earlier version of {match}",
        "De vorige versie van {match} terugzetten",
    ),
    "archive.blocks_won": ("Blocks won: ", "Gewonnen blokken: "),
    "match.club_evening_short": ("club evening", "clubavond"),
    "archive.no_block_yet": ("none yet, the first block under way", "nog geen, het eerste blok is bezig"),
    "match.club_evening": (
        "Club evening: the partners change every block",
        "Clubavond: de partners wisselen elk blok",
    ),
    "match.blocks_won": ("Blocks won: {won}", "Gewonnen blokken: {won}"),
    "match.first_block": ("The first block is under way", "Het eerste blok is bezig"),
    "archive.restored": (
        "Version {number} of {match} is back ({deals}) and analysed again.",
        "Versie {number} van {match} staat terug ({deals}) en is opnieuw geanalyseerd.",
    ),
    "archive.restored_with_analysis": (
        "Version {number} of {match} is back ({deals}), with its analysis as it was.",
        "Versie {number} van {match} staat terug ({deals}), met de analyse zoals ze was.",
    ),
    "archive.analysed": (
        "Analysed {matches} ({deals}): {findings}.",
        "{matches} geanalyseerd ({deals}): {findings}.",
    ),
    # column names
    "col.match": ("Match", "Partij"),
    "col.date": ("Date", "Datum"),
    "col.venue": ("Venue", "Locatie"),
    "col.event": ("Event", "Wedstrijd"),
    "col.variant": ("Variant", "Variant"),
    "col.team0": ("Team A", "Ploeg A"),
    "col.team1": ("Team B", "Ploeg B"),
    "col.score": ("Score", "Score"),
    "col.winner": ("Winner", "Winnaar"),
    "col.deal": ("Deal", "Spel"),
    "col.dealer": ("Dealer", "Gever"),
    "col.trump": ("Troef", "Troef"),
    "col.multiplier": ("Factor", "Factor"),
    "col.points": ("Card points", "Kaartpunten"),
    "col.deal_score": ("Deal score", "Spelscore"),
    "col.match_score": ("Match score", "Stand"),
    "col.findings": ("Findings", "Bevindingen"),
    "col.replay": ("Replay", "Herspelen"),
    "col.trick": ("Trick", "Slag"),
    "col.play": ("Play", "Beurt"),
    "col.player": ("Player", "Speler"),
    "col.kind": ("Kind", "Soort"),
    "col.category": ("Category", "Categorie"),
    "col.severity": ("Severity", "Ernst"),
    "col.card": ("Card", "Kaart"),
    "col.better": ("Better", "Beter"),
    "col.at_stake": ("Points at stake", "Inzet (punten)"),
    "col.explanation": ("Explanation", "Uitleg"),
    "col.author": ("Author", "Auteur"),
    "col.text": ("Comment", "Commentaar"),
    "col.tags": ("Tags", "Labels"),
    "col.updated": ("Updated", "Gewijzigd"),
    # match page
    "match.title": ("Match {match}", "Partij {match}"),
    "match.choose": ("Match", "Partij"),
    # the drop-down's text before a choice: short, as a phone's box cut the longer one mid-word
    "match.none": ("Choose a match", "Kies een partij"),
    "match.none_chosen": (
        "Choose a match above, or open one from the Archive page.",
        "Kies hierboven een partij, of open er een vanaf de pagina Archief.",
    ),
    "match.newest": ("The newest matches:", "De nieuwste partijen:"),
    "match.against": ("{a} against {b}", "{a} tegen {b}"),
    "match.final": ("Final score {score}: {who}", "Eindstand {score}: {who}"),
    "match.unfinished": (
        "Score {score}: the match was not finished",
        "Stand {score}: de partij is niet uitgespeeld",
    ),
    "match.team_wins": ("{names} won", "gewonnen door {names}"),
    "match.draw": ("a draw", "gelijkspel"),
    "match.chart_title": ("Score deal by deal", "Stand spel per spel"),
    "match.chart_x": ("Deal", "Spel"),
    "match.chart_y": ("Match score", "Stand"),
    "match.deals": ("Deals", "Spellen"),
    "match.click_row": ("Click a deal to replay it.", "Klik op een spel om het te herspelen."),
    "mistakes.click_row": ("Click a row to replay the play.", "Klik op een rij om de kaart te herspelen."),
    "match.scoresheet": ("scoresheet only", "enkel scoreblad"),
    "match.redeal": ("redeal", "herdeling"),
    "match.abandoned": ("abandoned", "afgebroken"),
    "match.tie": ("30-30", "30-30"),
    "match.invalid": (
        "This match cannot be replayed: {message}",
        "Deze partij kan niet herspeeld worden: {message}",
    ),
    "match.unknown": (
        "There is no match {match} in the archive.",
        "Er is geen partij {match} in het archief.",
    ),
    "replay.unknown_deal": (
        "Match {match} has no deal {deal} with cards to replay: deal {shown} is shown.",
        "Partij {match} heeft geen spel {deal} met kaarten om te herspelen: spel {shown} wordt getoond.",
    ),
    "mistakes.no_findings_of": (
        "Match {match} has no findings in the archive (not analysed yet, or no such match).",
        "Partij {match} heeft geen bevindingen in het archief (nog niet geanalyseerd, of geen zulke partij).",
    ),
    "match.all_findings": ("All the findings of this match", "Alle bevindingen van deze partij"),
    "match.all_findings_of": (
        "All {player}'s findings of this match",
        "Alle bevindingen van {player} in deze partij",
    ),
    "players.unknown": (
        "There is no player {player} in the archive: {shown} is shown.",
        "Er is geen speler {player} in het archief: {shown} wordt getoond.",
    ),
    # deal replay page
    "replay.title": ("Deal {deal} of {match}", "Spel {deal} van {match}"),
    "replay.deal": ("Deal", "Spel"),
    "replay.start": ("Start", "Begin"),
    "replay.back": ("Back", "Terug"),
    "replay.forward": ("Forward", "Verder"),
    "replay.end": ("End", "Einde"),
    "replay.step": ("Card of the deal", "Kaart van het spel"),
    "replay.nothing": (
        "Deal {deal} has no cards to replay ({kind}).",
        "Spel {deal} heeft geen kaarten om te herspelen ({kind}).",
    ),
    "replay.dealer": ("dealer", "gever"),
    "replay.to_play": ("to play", "aan de beurt"),
    "replay.team": ("team {team}", "ploeg {team}"),
    "replay.may_play": ("may play", "mag gespeeld worden"),
    "replay.winning": ("winning so far", "wint tot nu toe"),
    "replay.hand": ("{name}'s cards", "kaarten van {name}"),
    "replay.trick": ("on the table", "op tafel"),
    "replay.contract": ("Contract", "Aankondiging"),
    "replay.running": ("Points taken", "Genomen punten"),
    "replay.match_before": ("Match score before the deal: {score}", "Stand voor dit spel: {score}"),
    "replay.dummy_of": ("{name}'s dummy", "de blinde van {name}"),
    "replay.trick_of": ("Trick {trick} of {tricks}", "Slag {trick} van {tricks}"),
    "replay.takes": ("{name} takes {points}", "{name} neemt {points}"),
    "replay.opening": ("{name} leads the first trick.", "{name} komt uit in de eerste slag."),
    # "play" is the place in the trick, as in the Mistakes page's Play column and a finding's "1.3"
    "replay.played": ("play {play}: {name} played {card}", "beurt {play}: {name} speelde {card}"),
    "replay.could_play": ("Could legally play", "Mocht spelen"),
    "replay.may_play_next": ("{name} may play next", "{name} mag nu spelen"),
    "replay.illegal": ("Illegal: {kind}", "Onreglementair: {kind}"),
    "replay.tricks_so_far": ("Tricks so far", "Slagen tot nu toe"),
    "replay.findings": ("Findings for this play", "Bevindingen bij deze kaart"),
    "replay.deal_findings": ("Findings for the whole deal", "Bevindingen bij het hele spel"),
    # the card findings of the deal, as the Match page counts them (notes, info, apart)
    # the findings at a card: the whole deal's stand in their own box above (a helper read
    # "Findings (0; 6 notes)" under a box holding an inaccuracy)
    "replay.note_mark": ("note", "opmerking"),
    "replay.play_findings": ("Findings at the cards ({count})", "Bevindingen bij de kaarten ({count})"),
    "replay.findings_notes": (
        "Findings at the cards ({count}, and {notes})",
        "Bevindingen bij de kaarten ({count}, en {notes})",
    ),
    "replay.notes": ("{count} notes", "{count} opmerkingen"),
    "replay.notes_one": ("1 note", "1 opmerking"),
    "replay.no_findings": ("No findings for this play.", "Geen bevindingen bij deze kaart."),
    "replay.link": ("Link to this play", "Link naar deze kaart"),
    "replay.result": ("Card points {a}-{b}; {score}", "Kaartpunten {a}-{b}; {score}"),
    "replay.scores": ("{names} score {points}", "{names} scoren {points}"),
    "replay.capot_double": (
        " (capot: every card point, so x{factor} under the house rule)",
        " (capot: alle kaartpunten, dus x{factor} volgens de huisregel)",
    ),
    "replay.capot_fixed": (
        " (capot: every card point, {points} under the house rule)",
        " (capot: alle kaartpunten, {points} volgens de huisregel)",
    ),
    "replay.nobody": (
        "30-30: nobody scores, the next deal counts double",
        "30-30: niemand scoort, het volgende spel telt dubbel",
    ),
    "replay.legend": (
        "Green outline: the cards the player to move may play. A finished trick stays on the table "
        "until the next card.",
        "Groene rand: de kaarten die de speler aan de beurt mag spelen. Een volle slag blijft liggen "
        "tot de volgende kaart.",
    ),
    "replay.panel_as_played": (
        # no "this column": on a phone the panel stands under the table, not beside it
        "The table shows another line; the points taken, the findings and the cards that could be "
        "played below are those of the game as it was played.",
        "De tafel toont een andere lijn; de genomen punten, de bevindingen en de kaarten die mochten "
        "hieronder zijn die van het spel zoals het gespeeld werd.",
    ),
    # the better line at a costly card (finding_lines)
    "replay.branch_choice": ("The table shows", "De tafel toont"),
    "replay.branch_played": ("the game as played", "het spel zoals gespeeld"),
    "replay.branch_view": (
        "better line: {card} (from the player's view)",
        "betere lijn: {card} (met wat de speler kon weten)",
    ),
    "replay.branch_real": (
        "better line: {card} (every hand known)",
        "betere lijn: {card} (alle kaarten open)",
    ),
    "replay.branch_real_worse": (
        "line after {card} (every hand known)",
        "lijn na {card} (alle kaarten open)",
    ),
    "replay.branch_on_view": (
        "on the layout of the hidden cards closest to the average, of {layouts} that {name} could not "
        "tell from the real one (not the real hands)",
        "in de verdeling van de verborgen kaarten die het dichtst bij het gemiddelde ligt, van "
        "{layouts} die {name} niet van de echte kon onderscheiden (niet de echte kaarten)",
    ),
    "replay.branch_on_one": (
        "on the one layout of the hidden cards solved from what {name} could see",
        "in de enige verdeling van de verborgen kaarten die berekend werd met wat {name} kon weten",
    ),
    "replay.branch_on_real": (
        "on the real cards, every hand known",
        "met de echte kaarten, alle kaarten open",
    ),
    "replay.branch_note": (
        "<b>Better line</b>: {better} instead of {card}, then best play by {everyone}, {where}. "
        "{team} {take} <b>{b}</b> card points from here, against {a} after {card}.",
        "<b>Betere lijn</b>: {better} in plaats van {card}, daarna speelt iedereen perfect, {where}. "
        "{team} {take} vanaf hier <b>{b}</b> kaartpunten, tegen {a} na {card}.",
    ),
    "replay.branch_note_equal": (
        "<b>Line after</b> {better} instead of {card}, then best play by {everyone}, {where}. "
        "{team} {take} <b>{b}</b> card points from here, as many as after {card}: with every hand "
        "known both cards take as much; {better} was the better one from what {name} could see.",
        "<b>Lijn na</b> {better} in plaats van {card}, daarna speelt iedereen perfect, {where}. "
        "{team} {take} vanaf hier <b>{b}</b> kaartpunten, evenveel als na {card}: met alle kaarten "
        "open halen beide kaarten evenveel; {better} was de betere met wat {name} kon weten.",
    ),
    "replay.branch_note_worse": (
        "<b>Line after</b> {better} instead of {card}, then best play by {everyone}, {where}. "
        "{team} {take} <b>{b}</b> card points from here, against {a} after {card}: with every hand "
        "known {card} was the better card; {better} was the better one from what {name} could see.",
        "<b>Lijn na</b> {better} in plaats van {card}, daarna speelt iedereen perfect, {where}. "
        "{team} {take} vanaf hier <b>{b}</b> kaartpunten, tegen {a} na {card}: met alle kaarten open "
        "was {card} de betere kaart; {better} was de betere met wat {name} kon weten.",
    ),
    # who plays the line, and the verb for one side of one person or of several
    "replay.everyone_four": ("all four", "iedereen"),
    "replay.everyone": ("all", "iedereen"),
    "replay.take_many": ("take", "halen"),
    "replay.take_one": ("takes", "haalt"),
    "replay.branch_tricks": ("Tricks of the line", "Slagen van de lijn"),
    # what if another card had been played (analysis/what_if.py)
    "replay.whatif_choose": (
        "What if {name} had played instead of {card}",
        "Wat als {name} in plaats van {card} had gespeeld",
    ),
    "replay.whatif_none": ("back to the game", "terug naar het spel"),
    "replay.whatif_call_choose": (
        "What if {name} had called instead of {call}",
        "Wat als {name} in plaats van {call} had gekozen",
    ),
    "replay.whatif_call_score": (
        "In deal score: <b>{a}</b> after {card} (x{x}), <b>{b}</b> after {other} (x{y}): "
        "<b>{difference}</b>; muil doubles, knocks are left out.",
        "In punten van het spel: <b>{a}</b> na {card} (x{x}), <b>{b}</b> na {other} (x{y}): "
        "<b>{difference}</b>; muil telt dubbel, kloppen niet meegerekend.",
    ),
    "replay.whatif_failed": (
        "The solver could not play this out: {message}",
        "De solver kon dit niet uitspelen: {message}",
    ),
    "replay.whatif_layout": ("The lines are played", "De lijnen worden gespeeld"),
    "replay.whatif_layout_real": ("every hand known", "met alle kaarten open"),
    "replay.whatif_layout_view": ("from {name}'s view", "met wat {name} kon weten"),
    "replay.whatif_line": ("what if: {card}", "wat als: {card}"),
    "replay.whatif_played_line": (
        "as played: {card}, then best play",
        "zoals gespeeld: {card}, dan perfect spel",
    ),
    "replay.whatif_note": (
        "<b>What if</b>: {card} instead of {other}, then best play by all four, {where}. "
        "{team} take <b>{b}</b> card points from here, against {a} after {other}.",
        "<b>Wat als</b>: {card} in plaats van {other}, daarna speelt iedereen perfect, {where}. "
        "{team} halen vanaf hier <b>{b}</b> kaartpunten, tegen {a} na {other}.",
    ),
    "replay.whatif_played_note": (
        "<b>As played</b>: {card}, then best play by all four, {where}. "
        "{team} take <b>{b}</b> card points from here, against {a} after {other}.",
        "<b>Zoals gespeeld</b>: {card}, daarna speelt iedereen perfect, {where}. "
        "{team} halen vanaf hier <b>{b}</b> kaartpunten, tegen {a} na {other}.",
    ),
    "replay.whatif_title": (
        "What if {card}: the two lines trick by trick",
        "Wat als {card}: de twee lijnen slag per slag",
    ),
    # each column is a line of best play after the fork: the real tricks are under Tricks so far
    "replay.whatif_after_played": (
        "{card} as played, then best play",
        "{card} zoals gespeeld, dan perfect spel",
    ),
    "replay.whatif_after_chosen": ("{card} instead, then best play", "{card} in de plaats, dan perfect spel"),
    # a call's lines start at the first lead: none of their tricks was played as they are shown
    "replay.whatif_after_called": (
        "{card} as called, then best play",
        "{card} zoals gekozen, dan perfect spel",
    ),
    "replay.whatif_total": (
        "{team} take <b>{a}</b> card points from here after {card}, <b>{b}</b> after {other}: "
        "a difference of <b>{difference}</b> ({where}).",
        "{team} halen vanaf hier <b>{a}</b> kaartpunten na {card}, <b>{b}</b> na {other}: "
        "een verschil van <b>{difference}</b> ({where}).",
    ),
    # a helper read two "from the player's view" averages on one page that differed
    "replay.whatif_view": (
        "From {name}'s view, averaged over {layouts} layouts of the hidden cards: {a} after {card}, "
        "{b} after {other} ({difference}). They are drawn as the review draws its own, each played "
        "out with best play by all four; the review's own figures (the table of values, a "
        "finding) average more of them, and weigh a call's as the table plays, so they may differ.",
        "Met wat {name} kon weten, gemiddeld over {layouts} verdelingen van de verborgen kaarten: "
        "{a} na {card}, {b} na {other} ({difference}). Ze zijn getrokken zoals de controle "
        "ze trekt, elk uitgespeeld met perfect spel door alle vier; de eigen cijfers van de "
        "controle (de tabel met waarden, een bevinding) nemen er meer, en rekenen een aankondiging "
        "zoals aan tafel gespeeld wordt, dus ze kunnen verschillen.",
    ),
    # a call's view in deal score, then what the trump review expects: a coach read the layouts'
    # best play (spades better) and the finding (muil better) as contradicting each other
    "replay.whatif_call_view": (
        "From {name}'s view, averaged over {layouts} layouts of the hidden cards, each played out "
        "with best play by all four: {a} card points after {card} ({sa} for the deal), {b} after "
        "{other} ({sb}): {difference}.",
        "Met wat {name} kon weten, gemiddeld over {layouts} verdelingen van de verborgen kaarten, "
        "elk uitgespeeld met perfect spel door alle vier: {a} kaartpunten na {card} ({sa} voor het "
        "spel), {b} na {other} ({sb}): {difference}.",
    ),
    "replay.whatif_call_review": (
        "The trump review, whose figures the finding gives, solves {layouts} layouts and counts "
        "each as tables play it rather than with best play by all four (tables take less from a "
        "strong trump deal than best play gives, and a muil hand more from muil): it expects "
        "<b>{a}</b> for the deal after {card} and <b>{b}</b> after {other}: <b>{difference}</b>.",
        "De troefcontrole, waarvan de bevinding de cijfers geeft, lost {layouts} verdelingen op en "
        "rekent elke zoals aan tafel gespeeld wordt, niet met perfect spel door alle vier (aan "
        "tafel haalt een sterk troefspel minder dan perfect spel geeft, en een muilhand meer uit "
        "muil): ze verwacht <b>{a}</b> voor het spel na {card} en <b>{b}</b> na {other}: "
        "<b>{difference}</b>.",
    ),
    "replay.whatif_call_unreviewed": (
        "The trump review (manillen analyze --depth solver) has not looked at this deal: it "
        "solves more layouts and counts each as tables play it, so its figures may differ.",
        "De troefcontrole (manillen analyze --depth solver) heeft dit spel nog niet bekeken: ze "
        "lost meer verdelingen op en rekent elke zoals aan tafel gespeeld wordt, dus haar cijfers "
        "kunnen verschillen.",
    ),
    "replay.at_most": ("at most {value}", "hoogstens {value}"),
    "replay.whatif_save_title": ("Save this line as a variation", "Deze lijn als variant bewaren"),
    "replay.whatif_save_caption": (
        "The variation saved is the line on the real cards (every hand known), with your comment.",
        "De variant die bewaard wordt is de lijn met de echte kaarten (alle kaarten open), "
        "met uw commentaar.",
    ),
    "replay.whatif_save": ("Save variation", "Variant bewaren"),
    "replay.variation_line": ("variation by {author}: {card}", "variant van {author}: {card}"),
    "replay.variation_note": (
        "<b>Variation</b> by {author}: {card} instead of {other}. {comment}",
        "<b>Variant</b> van {author}: {card} in plaats van {other}. {comment}",
    ),
    "replay.whatif_saved": ("Variation saved with your comment.", "Variant bewaard met uw commentaar."),
    "replay.branch_step": ("Card of the line", "Kaart van de lijn"),
    # solver costs on the deal replay
    "replay.costs_title": ("What each card was worth (solver)", "Wat elke kaart waard was (solver)"),
    "replay.costs_caption": (
        "Card points {name}'s team takes from this play on if everyone plays perfectly afterwards. "
        "Hindsight: every hand open. View: averaged over {layouts} layouts of the hidden cards "
        "that fit what {name} could see{exact}. ★ marks the best card by each measure (by the view, "
        "every card within 0.1 of the best), ◀ the card played.",
        "Kaartpunten die de ploeg van {name} vanaf deze kaart nog neemt als iedereen daarna perfect "
        "speelt. Achteraf: alle handen open. Zicht: gemiddeld over {layouts} verdelingen van "
        "de verborgen kaarten die passen bij wat {name} kon weten{exact}. ★ wijst in elke kolom de "
        "beste kaart aan (in het zicht: elke kaart binnen 0,1 van de beste), ◀ de gespeelde kaart.",
    ),
    "replay.costs_caption_hindsight": (
        "Card points {name}'s side takes from this play on if everyone plays perfectly afterwards, "
        "with every hand open (hindsight); for this play only those values are stored, not what "
        "the player could see. ★ marks the best card, ◀ the card played.",
        "Kaartpunten die de kant van {name} vanaf deze kaart nog neemt als iedereen daarna perfect "
        "speelt, met alle handen open (achteraf); voor deze kaart zijn alleen die waarden bewaard, "
        "niet wat de speler kon weten. ★ wijst de beste kaart aan, ◀ de gespeelde kaart.",
    ),
    "replay.costs_exact": (" (every one of them)", " (allemaal)"),
    "replay.cost_played": (
        "{card} cost **{view}** card points from {name}'s view and **{dd}** with hindsight.",
        "{card} kostte **{view}** kaartpunten met wat {name} kon weten en **{dd}** achteraf.",
    ),
    "replay.cost_counted": (
        "This deal counts {times}: from the player's view that is **{points}** points of the score.",
        "Dit spel telt {times}: met wat de speler kon weten is dat **{points}** punten van de score.",
    ),
    "replay.cost_hindsight_only": (
        "{card} cost **{dd}** card points with hindsight (no view cost).",
        "{card} kostte achteraf **{dd}** kaartpunten (geen kost met wat de speler kon zien).",
    ),
    "replay.cost_illegal": (
        "{card} broke a rule (see the finding), so the solver gives it no value: below, what each "
        "card {name} could legally play was worth.",
        "{card} brak een regel (zie de bevinding), dus de solver geeft die kaart geen waarde: "
        "hieronder wat elke kaart waard was die {name} mocht spelen.",
    ),
    "replay.cost_illegal_forced": (
        "{card} broke a rule (see the finding), so the solver gives it no value: {legal} was the only "
        "card {name} could play.",
        "{card} brak een regel (zie de bevinding), dus de solver geeft die kaart geen waarde: {legal} "
        "was de enige kaart die {name} mocht spelen.",
    ),
    "replay.cost_forced": (
        "{card} was the only card {name} could play: it costs nothing.",
        "{card} was de enige kaart die {name} mocht spelen: die kost niets.",
    ),
    "col.hindsight": ("Hindsight", "Achteraf"),
    "col.view": ("View", "Zicht"),
    "col.accuracy": ("Accuracy", "Nauwkeurigheid"),
    "col.chosen_cards": ("Cards chosen", "Gekozen kaarten"),
    "col.decisions": ("Decisions", "Beslissingen"),
    "col.avg_view_cost": ("Avg. view cost", "Gem. kost (zicht)"),
    "match.accuracy_title": ("Accuracy (solver)", "Nauwkeurigheid (solver)"),
    "match.accuracy_caption": REPORT_WORDS["accuracy_note"],  # the report's words: one figure, one text
    "match.accuracy_deals": ("Accuracy deal by deal", "Nauwkeurigheid spel per spel"),
    # the background review (dashboards/reviewer.py) and the biggest mistakes, first on the Match page
    "review.title": ("The biggest mistakes", "De grootste fouten"),
    "review.for": ("Whose mistakes", "Wiens fouten"),
    "review.everyone": ("Every player", "Iedere speler"),
    "review.reviewing": (
        "The solver is reviewing this match: deal {done} of {total}…",
        "De solver bekijkt deze partij: spel {done} van {total}…",
    ),
    "review.reviewing_left": (
        "The solver is reviewing this match: deal {done} of {total}, {left} left…",
        "De solver bekijkt deze partij: spel {done} van {total}, nog {left}…",
    ),
    "wait.s": ("about {amount} s", "ongeveer {amount} s"),
    "wait.minutes": ("about {amount} minutes", "ongeveer {amount} minuten"),
    "wait.hours": ("about {amount} hours", "ongeveer {amount} uur"),
    "review.queued": (
        "Waiting for the solver's review: {ahead} matches before this one…",
        "Wacht op de controle door de solver: eerst nog {ahead} partijen…",
    ),
    "review.queued_one": (
        "Waiting for the solver's review: one match before this one…",
        "Wacht op de controle door de solver: eerst nog één partij…",
    ),
    "review.queued_next": (
        "The solver's review of this match starts in a moment…",
        "De solver begint zo meteen aan deze partij…",
    ),
    "review.next": ("Review this match next", "Deze partij eerst controleren"),
    "review.waiting": (
        "The solver's review waits for the archive: another program is using it…",
        "De controle door de solver wacht op het archief: een ander programma gebruikt het…",
    ),
    "review.ready": (
        "Review ready: the solver has costed every card of this match.",
        "Controle klaar: de solver heeft elke kaart van deze partij gewogen.",
    ),
    "review.failed": (
        "The solver could not review this match: {message}",
        "De solver kon deze partij niet controleren: {message}",
    ),
    "review.none": (
        "The solver has not reviewed this match yet: `manillen dashboard` reviews every match in the "
        "background, or run `manillen analyze --depth solver`.",
        "De solver heeft deze partij nog niet gecontroleerd: `manillen dashboard` controleert elke "
        "partij op de achtergrond, of voer `manillen analyze --depth solver` uit.",
    ),
    "review.outdated": (
        "An earlier version of manillen-replay made the solver's review of this match: `manillen "
        "dashboard` reviews it again in the background, or run `manillen analyze --depth solver`.",
        "Een eerdere versie van manillen-replay maakte de controle door de solver van deze partij: "
        "`manillen dashboard` controleert ze opnieuw op de achtergrond, of voer `manillen analyze "
        "--depth solver` uit.",
    ),
    "review.caption_ready": (
        "The costliest decisions (three at most), ranked by what they cost from the player's own view "
        "(what they could know when they played), with the reason.",
        "De duurste beslissingen (hoogstens drie), gerangschikt naar wat ze kostten vanuit het zicht "
        "van de speler zelf (wat die kon weten bij het spelen), met de reden.",
    ),
    "review.caption_quick": (
        "For now the quick check's findings, ranked by the points at stake; the solver's costs replace "
        "them when its review is ready.",
        "Voorlopig de bevindingen van de snelle controle, gerangschikt naar hun inzet in punten; de "
        "kosten van de solver vervangen ze zodra de controle klaar is.",
    ),
    "review.caption_outdated": (
        "For now the review an earlier version of manillen-replay made, ranked by what each decision "
        "cost from the player's view; this version's costs and reasons may differ.",
        "Voorlopig de controle van een eerdere versie van manillen-replay, gerangschikt naar wat elke "
        "beslissing kostte vanuit het zicht van de speler; de kosten en redenen van deze versie kunnen "
        "verschillen.",
    ),
    "review.where_card": ("deal {deal}, trick {trick}", "spel {deal}, slag {trick}"),
    "review.where_call": ("deal {deal}, the call", "spel {deal}, de aankondiging"),
    "review.better": ("better: {cards}", "beter: {cards}"),
    "review.cost_points": ("cost {cost}", "kostte {cost}"),
    "review.at_stake": ("{points} points at stake", "inzet {points} punten"),
    "review.open": ("Show in the Deal replay", "Bekijk in Spel herspelen"),
    "review.nothing_yet": (
        "The quick check found no mistakes; the solver's costs follow when its review is ready.",
        "De snelle controle vond geen fouten; de kosten van de solver volgen zodra de controle klaar is.",
    ),
    "review.nothing_outdated": (
        "The review an earlier version of manillen-replay made found no mistakes in this match; this "
        "version's may differ.",
        "De controle van een eerdere versie van manillen-replay vond geen fouten in deze partij; die "
        "van deze versie kan verschillen.",
    ),
    "review.nothing": ("No mistakes found in this match.", "Geen fouten gevonden in deze partij."),
    "review.nothing_for": ("No mistakes found for {player}.", "Geen fouten gevonden voor {player}."),
    # the ledger's "own decisions" still counts small costs: said, so the two do not contradict
    "review.small_costs": (
        "No decision surely cost {threshold} card points or more from what the player could see, the "
        "least a finding counts. The smaller costs add up to {points} card points over the match (the "
        "mistakes column of The cards and the decisions, on the Match page; each card's value in "
        "the Deal replay).",
        "Geen beslissing kostte zeker {threshold} kaartpunten of meer met wat de speler kon weten, het "
        "minste dat als bevinding telt. De kleinere kosten samen zijn {points} kaartpunten over de "
        "partij (de kolom fouten van De kaarten en de beslissingen, op de pagina Partij; de waarde "
        "van elke kaart in Spel herspelen).",
    ),
    "review.archive_reviewing": (
        "Solver review: match {match}, deal {done} of {total}; matches waiting: {queued}.",
        "Controle door de solver: partij {match}, spel {done} van {total}; wachtende partijen: {queued}.",
    ),
    "review.archive_warming": (
        "Solver review: loading the solver…",
        "Controle door de solver: de solver wordt geladen…",
    ),
    "review.archive_idle": (
        "Solver review: every match is reviewed ({reviewed} since the dashboard started).",
        "Controle door de solver: elke partij is gecontroleerd "
        "({reviewed} sinds de start van het dashboard).",
    ),
    "players.accuracy": ("Accuracy (solver)", "Nauwkeurigheid (solver)"),
    "players.accuracy_help": (
        "Over {decisions} decisions ({cards} cards, {calls} calls) in deals the solver costed "
        "(manillen analyze --depth solver).",
        "Over {decisions} beslissingen ({cards} kaarten, {calls} keuzes) in spellen die de solver "
        "berekende (manillen analyze --depth solver).",
    ),
    # annotations
    "annot.title": ("Coach comments", "Commentaar van de coach"),
    "annot.author": ("Your name (as author of comments)", "Uw naam (als auteur van commentaar)"),
    "annot.author_set": ("Commenting as {author}.", "U schrijft commentaar als {author}."),
    "annot.scope": ("About", "Over"),
    "annot.scope_play": ("this play", "deze kaart"),
    "annot.scope_trick": ("this trick", "deze slag"),
    "annot.scope_deal": ("the whole deal", "het hele spel"),
    "annot.text": ("Comment", "Commentaar"),
    "annot.tags": ("Tags (comma separated)", "Labels (gescheiden door komma's)"),
    "annot.add": ("Add comment", "Commentaar toevoegen"),
    "annot.write": ("Write a comment", "Commentaar schrijven"),
    "annot.save": ("Save", "Bewaren"),
    "annot.delete": ("Delete", "Verwijderen"),
    "annot.saved": ("Comment saved.", "Commentaar bewaard."),
    "annot.deleted": ("Comment deleted.", "Commentaar verwijderd."),
    "annot.gone_kept": (
        "This comment was deleted meanwhile (in another tab, or by another coach), so your change "
        "could not be saved to it. Your text is kept in **Write a comment** below: add it from there "
        "as a new comment.",
        "Dit commentaar werd intussen verwijderd (in een ander tabblad, of door een andere coach), "
        "dus uw wijziging kon er niet in bewaard worden. Uw tekst staat in **Commentaar schrijven** "
        "hieronder: voeg hem van daar toe als nieuw commentaar.",
    ),
    "annot.changed_kept": (
        "This comment was changed meanwhile (in another tab, or by another coach), so your change "
        "was not saved over it. It now reads: {text}. Your text is still in the box: "
        "**Save** again to replace theirs with it.",
        "Dit commentaar werd intussen gewijzigd (in een ander tabblad, of door een andere coach), dus "
        "uw wijziging werd er niet over bewaard. Het luidt nu: {text}. Uw tekst "
        "staat nog in het vak: klik nog eens op **Bewaren** om het hunne erdoor te vervangen.",
    ),
    "annot.gone_deleted": (
        "This comment was already deleted (in another tab, or by another coach).",
        "Dit commentaar was al verwijderd (in een ander tabblad, of door een andere coach).",
    ),
    "annot.empty_text": ("Write a comment first.", "Schrijf eerst commentaar."),
    "annot.need_author": ("Give your name first.", "Geef eerst uw naam."),
    "annot.none": ("No comments on this deal yet.", "Nog geen commentaar bij dit spel."),
    "annot.where_deal": ("deal", "spel"),
    "annot.variation": ("Variation", "Variant"),
    "annot.variation_label": ("variation {card}", "variant {card}"),
    "annot.where_trick": ("trick {trick}", "slag {trick}"),
    "annot.where_play": ("trick {trick}, play {play}", "slag {trick}, kaart {play}"),
    "annot.page_title": ("Annotations", "Commentaar"),
    "annot.page_none": (
        "No comments yet: add them on the Deal replay page.",
        "Nog geen commentaar: voeg het toe op de pagina Spel herspelen.",
    ),
    "annot.count": ("{count} comments", "{count} commentaren"),
    "annot.count_one": ("1 comment", "1 commentaar"),
    "annot.export_hint": (
        "`manillen export --records FILE.jsonl` writes the comments back into the records.",
        "`manillen export --records BESTAND.jsonl` schrijft het commentaar terug in de opnames.",
    ),
    # mistakes page
    "mistakes.title": ("Mistakes", "Fouten"),
    "mistakes.none": (
        "No findings yet. Run `manillen analyze --db {path}` to look for mistakes.",
        "Nog geen bevindingen. Start `manillen analyze --db {path}` om fouten te zoeken.",
    ),
    "mistakes.no_match": ("No findings match these filters.", "Geen bevindingen voor deze filters."),
    "mistakes.count": ("{count} findings", "{count} bevindingen"),
    "mistakes.count_one": ("1 finding", "1 bevinding"),
    "mistakes.show_info": (
        "Also show info (notes, not mistakes: costly only with hindsight, or a cost too unsure to count)",
        "Toon ook opmerkingen (geen fouten: enkel achteraf duur, of een kost die te onzeker is)",
    ),
    "mistakes.rate_title": ("Findings per 100 cards played", "Bevindingen per 100 gespeelde kaarten"),
    "mistakes.rate_axis": ("per 100 cards", "per 100 kaarten"),
    "mistakes.rate_few": (
        "Not drawn: {players}, with fewer than {cards} cards played, too few for a rate (choose a player "
        "in the filter to draw them).",
        "Niet getekend: {players}, met minder dan {cards} gespeelde kaarten, te weinig voor een verhouding "
        "(kies een speler in de filter om ze te tekenen).",
    ),
    "mistakes.show_all": ("Show all {count}", "Alle {count} tonen"),
    "mistakes.show_most": ("Show the {count} most serious", "De {count} ernstigste tonen"),
    "mistakes.shown_first": (
        "Showing the {shown} most serious of {count}.",
        "De {shown} ernstigste van {count} getoond.",
    ),
    # players page
    "players.title": ("Players", "Spelers"),
    "players.choose": ("Player", "Speler"),
    "players.deals": ("Deals played", "Gespeelde spellen"),
    "players.matches": ("Matches", "Partijen"),
    "players.won": ("Matches won", "Partijen gewonnen"),
    "players.points_dealer": ("Points per deal as dealer", "Punten per spel als gever"),
    "players.points_other": ("Points per deal otherwise", "Punten per spel anders"),
    "players.points_title": ("Points per deal, dealer or not", "Punten per spel, als gever of niet"),
    "players.as_dealer": ("as dealer", "als gever"),
    "players.not_dealer": ("not dealing", "niet gever"),
    "players.trumps_title": ("Trump choices as dealer", "Troefkeuze als gever"),
    "players.records_title": ("Muil and klop", "Muil en klop"),
    "players.record_row": ("{what}: {n} deals, won {won}", "{what}: {n} spellen, {won} gewonnen"),
    "players.rate_title": (
        "Findings per 100 cards, month by month",
        "Bevindingen per 100 kaarten, per maand",
    ),
    "players.partners_title": ("Partners compared", "Partners vergeleken"),
    "players.partner": ("Partner", "Partner"),
    "players.points_per_deal": ("points per deal", "punten per spel"),
    "players.deals_together": ("deals together", "spellen samen"),
    "players.count": ("count", "aantal"),
    "players.won_share": ("deals won / deals", "spellen gewonnen / spellen"),
    # the team's deals, not the player's own calls: "klop gegeven 1 / 1" read as the player's knock
    # where the partner knocked
    "players.rec_muil": ("muil by the team", "muil van de ploeg"),
    "players.rec_klop": ("klop by the team", "klop door de ploeg"),
    "players.rec_klopped": ("klop by the opponents", "klop door de tegenstanders"),
    "players.no_cards": (
        "No played cards for this player yet.",
        "Nog geen gespeelde kaarten voor deze speler.",
    ),
    # sql page
    "sql.title": ("SQL", "SQL"),
    "sql.intro": (
        "Ask the archive anything in SQL (DuckDB). The archive is opened read-only: writes are refused. "
        "The tables are described in docs/sql.md.",
        "Stel het archief eender welke vraag in SQL (DuckDB). Het archief is enkel leesbaar: "
        "wijzigingen worden geweigerd. De tabellen staan beschreven in docs/sql.md.",
    ),
    "sql.examples": ("Examples", "Voorbeelden"),
    "sql.query": ("Query", "Vraag"),
    "sql.run": ("Run", "Uitvoeren"),
    "sql.refused": ("Refused: {message}", "Geweigerd: {message}"),
    # said after "Stopped at a limit: ", as the memory and size limits are
    "sql.timeout": (
        "the query ran past this page's time limit ({seconds} s) and was stopped: ask for less (a "
        "WHERE, a LIMIT), or give it more time on the command line (manillen sql --timeout)",
        "de vraag liep langer dan de tijd die deze pagina geeft ({seconds} s) en werd gestopt: vraag "
        "minder (een WHERE, een LIMIT), of geef ze meer tijd op de opdrachtregel (manillen sql --timeout)",
    ),
    # said after sql.timeout, when the query first waited for a worker
    "sql.timeout_waited": (
        " (before that it waited {seconds} s for its turn: other queries were running)",
        " (daarvoor wachtte ze {seconds} s op haar beurt: er liepen andere vragen)",
    ),
    "sql.organiser_only": (
        "The SQL console is the organiser's only.",
        "De SQL-console is alleen voor de organisator.",
    ),
    "sql.error": ("The query failed: {message}", "De vraag mislukte: {message}"),
    # a limit reached is no failure of the query; the English is the console's own (REASONS)
    "sql.stopped": ("Stopped at a limit: {message}", "Gestopt aan een grens: {message}"),
    "sql.reason.files": (
        CONSOLE_REASONS["files"],
        "een vraag mag geen bestanden lezen of het netwerk bereiken: alleen de tabellen en views van het "
        "archief zijn beschikbaar",
    ),
    "sql.reason.memory": (
        CONSOLE_REASONS["memory"],
        "de vraag had meer dan {limit} geheugen nodig en werd gestopt: vraag minder (een WHERE, minder "
        "kolommen, een LIMIT)",
    ),
    "sql.reason.too_large": (
        CONSOLE_REASONS["too_large"],
        "het resultaat is ongeveer {size} MB, meer dan de {limit} MB die een pagina toont: kies minder "
        "rijen of kolommen, of kort lange teksten in (left(text, 100))",
    ),
    "sql.reason.writes": (
        CONSOLE_REASONS["writes"],
        "{what} is niet toegestaan: het archief is alleen om te lezen geopend voor vragen; alleen SELECT "
        "(met WITH, DESCRIBE, SUMMARIZE, EXPLAIN) mag lopen, en het kan geen bestanden of het netwerk "
        "bereiken",
    ),
    "sql.reason.writes_explain": (
        CONSOLE_REASONS["writes_explain"],
        "{what} is niet toegestaan binnen EXPLAIN: het archief is alleen om te lezen geopend voor vragen;"
        " alleen SELECT (met WITH, DESCRIBE, SUMMARIZE, EXPLAIN) mag lopen, en het kan geen bestanden of "
        "het netwerk bereiken",
    ),
    "sql.reason.comment": (
        CONSOLE_REASONS["comment"],
        "de vraag bevat alleen commentaar: commentaar (--) loopt tot het einde van de regel, zet de vraag"
        " dus op een eigen regel",
    ),
    "sql.reason.empty": (CONSOLE_REASONS["empty"], "de vraag is leeg"),
    "sql.reason.too_long": (
        CONSOLE_REASONS["too_long"],
        "de vraag is {size} tekens lang, meer dan de {limit} die een vraag mag zijn",
    ),
    "sql.reason.several": (
        CONSOLE_REASONS["several"],
        "één vraag tegelijk: deze tekst bevat {count} opdrachten",
    ),
    "sql.reason.pivot": (
        CONSOLE_REASONS["pivot"],
        "een PIVOT die zijn kolommen zelf zoekt, voert eerst een eigen opdracht uit, wat een vraag hier "
        "niet mag: noem de kolommen na IN (PIVOT deals ON kind IN ('played', 'redeal') USING count(*))",
    ),
    "sql.empty": ("Type a query first: the box is empty.", "Typ eerst een vraag: het vak is leeg."),
    "sql.rows": ("{count} rows", "{count} rijen"),
    "sql.row": ("1 row", "1 rij"),
    "sql.cut": (
        "The first {count} rows: the result has more. Ask for less (a WHERE, a LIMIT), or run it "
        "with manillen sql to get every row.",
        "De eerste {count} rijen: het resultaat heeft er meer. Vraag minder (een WHERE, een LIMIT), "
        "of draai de vraag met manillen sql om elke rij te krijgen.",
    ),
    "sql.download": ("Download CSV", "CSV downloaden"),
    "sql.waiting": (
        "Waiting for a free worker: other people's queries are running (or the workers are "
        "starting). Your query's time limit starts when a worker takes it.",
        "Wachten op een vrije verwerker: de vragen van anderen lopen nog (of de verwerkers starten). "
        "De tijdslimiet van je vraag begint wanneer een verwerker ze neemt.",
    ),
    "sql.download_excel": ("CSV for Excel", "CSV voor Excel"),
    "sql.download_excel_help": (
        "Opens in Excel as it is on a Belgian or Dutch computer: ; between values, decimal commas, "
        "accents kept, and a name that looks like a formula kept as text.",
        "Opent zo in Excel op een Belgische of Nederlandse computer: ; tussen de waarden, "
        "decimale komma's, accenten behouden, en een naam die op een formule lijkt blijft tekst.",
    ),
    "sql.no_examples": ("docs/sql.md has no example queries.", "docs/sql.md bevat geen voorbeeldvragen."),
    # severities and categories (values stay as stored; these are their labels)
    "severity.info": ("info", "opmerking"),
    "severity.inaccuracy": ("inaccuracy", "onnauwkeurigheid"),
    "severity.mistake": ("mistake", "fout"),
    "severity.blunder": ("blunder", "blunder"),
    "category.rule": ("rule", "regel"),
    "category.scoring": ("scoring", "telling"),
    "category.procedure": ("procedure", "procedure"),
    "category.strategy": ("strategy", "strategie"),
    "violation.revoke": ("revoke (verzaken)", "verzaakt"),
    "violation.failed_to_overtake": ("failed to overtake", "niet overgenomen"),
    "violation.failed_to_buy": ("failed to buy (kopen)", "niet gekocht"),
    "violation.illegal_underbuy": ("illegal underbuy (onderkopen)", "onreglementair ondergekocht"),
    # contracts
    "contract.trump": ("troef {suit}", "troef {suit}"),
    "contract.muil": ("muil", "muil"),
    "contract.blind_muil": ("blinde muil", "blinde muil"),
    "contract.en_face": ("en face", "en face"),
    "contract.none": ("no contract recorded", "geen contract opgenomen"),
    # the luck and skill ledger (issue 18) and the match report
    "ledger.title": ("The cards and the decisions (solver)", "De kaarten en de beslissingen (solver)"),
    # the ledger's words are the report's (manillen_replay.report.words), so both say the same
    "ledger.caption": REPORT_WORDS["ledger_note"],
    **{f"ledger.{step}": REPORT_WORDS[f"step.{step}"] for step in LEDGER_STEPS},
    "ledger.net": ("decisions in all", "beslissingen samen"),
    "ledger.chart": REPORT_WORDS["ledger_chart"],
    "charts.over_bars": ("over the bars", "boven de staven"),
    "charts.interactive": ("Interactive charts", "Interactieve grafieken"),
    "charts.interactive_help": (
        "Zoom, pan and read every value. The charts then need a larger library, so the page opens "
        "more slowly; the choice is kept while this tab is open.",
        "Zoomen, verschuiven en elke waarde lezen. De grafieken hebben dan een grotere bibliotheek "
        "nodig, dus de pagina opent trager; de keuze blijft zolang dit tabblad open is.",
    ),
    "table.sort_hint": ("Click to sort by this column", "Klik om op deze kolom te sorteren"),
    "table.open_hint": (
        "Click or press Enter to open; Ctrl+click opens a new tab; the arrow keys move between rows",
        "Klik of druk op Enter om te openen; Ctrl+klik opent een nieuw tabblad; de pijltjestoetsen gaan "
        "naar een andere rij",
    ),
    "table.interactive": ("Interactive tables", "Interactieve tabellen"),
    "table.interactive_help": (
        "Search, resize columns and download the rows in Streamlit's data grid. The grid needs a "
        "larger library, so the page opens more slowly; the choice is kept while this tab is open.",
        "Zoeken, kolommen verbreden en de rijen downloaden in Streamlits gegevensraster. Het raster "
        "heeft een grotere bibliotheek nodig, dus de pagina opent trager; de keuze blijft zolang dit "
        "tabblad open is.",
    ),
    "ledger.mistakes": ("mistakes", "fouten"),
    "ledger.luck": ("luck", "geluk"),
    "ledger.axis": ("card points", "kaartpunten"),
    "ledger.matches_title": (
        "What decisions did, match by match",
        "Wat de beslissingen opleverden, partij per partij",
    ),
    "ledger.all_time": (
        "Over {deals} costed deals: the cards {cards}, own decisions −{own}, partner −{partner}, "
        "opponents +{opponents}{illegal}: {points} points taken; mistakes {mistakes}, luck {luck}.",
        "Over {deals} berekende spellen: de kaarten {cards}, eigen beslissingen −{own}, partner −{partner}, "
        "tegenstanders +{opponents}{illegal}: {points} punten genomen; fouten {mistakes}, geluk {luck}.",
    ),
    "ledger.illegal_term": (", illegal cards {points}", ", onreglementaire kaarten {points}"),
    "report.title": ("Report to take home", "Verslag om mee te nemen"),
    "report.for": ("Report for", "Verslag voor"),
    "report.everyone": ("everyone", "iedereen"),
    "report.download": ("Download report", "Verslag downloaden"),
    "report.help": (
        "One HTML file with everything inside: it opens offline on a phone and prints on A4 "
        "(the same file as `manillen report`).",
        "Eén HTML-bestand met alles erin: het opent zonder netwerk op een telefoon en print op A4 "
        "(hetzelfde bestand als `manillen report`).",
    ),
}

# The Record page (a match entered at the table).
RECORD_LABELS: dict[str, tuple[str, str]] = {
    "nav.record": ("Record", "Opnemen"),
    "record.title": ("Record a match", "Een partij opnemen"),
    "record.match": ("Match `{match}` · {date}", "Partij `{match}` · {date}"),
    "record.rules_in_force": ("House rules: {rules}", "Huisregels: {rules}"),
    "record.yes": ("yes", "ja"),
    "record.no": ("no", "nee"),
    "record.no_draft": (
        "There is no draft {draft} beside this archive (saved and closed, or another archive).",
        "Er is geen ontwerp {draft} naast dit archief (bewaard en gesloten, of een ander archief).",
    ),
    "record.other_table": (
        "This link is another table's (table {theirs}): your token records table {table}.",
        "Deze link is van een andere tafel (tafel {theirs}): uw token neemt tafel {table} op.",
    ),
    "record.viewer": (
        "Recording is for the organiser and each table's recorder: your token opens the read-only pages.",
        "Opnemen is voor de organisator en de opnemer van elke tafel: uw token opent de leespagina's.",
    ),
    "record.resume": ("Carry on", "Verder gaan"),
    "record.resume_one": (
        "{players}: deal {deal}, {cards} cards in ({match})",
        "{players}: spel {deal}, {cards} kaarten ingegeven ({match})",
    ),
    "record.new_match": ("New match", "Nieuwe partij"),
    "record.seat": ("Seat {seat} (team {team})", "Plaats {seat} (ploeg {team})"),
    "record.seat_short": ("seat {seat}", "plaats {seat}"),
    "record.seat_alone": ("Seat {seat}", "Plaats {seat}"),
    "record.variant": ("Game", "Spel"),
    "record.variant_four": ("4 players, two teams", "4 spelers, twee ploegen"),
    "record.variant_two_open": ("2 players, open table cards", "2 spelers, open kaarten op tafel"),
    "record.variant_two_open_fours": (
        "2 players, open table cards, tricks of 4",
        "2 spelers, open kaarten op tafel, slagen van 4",
    ),
    "record.variant_three": ("3 players, dealer alone", "3 spelers, gever alleen"),
    "record.variant_three_dummy": ("3 players with a dummy", "3 spelers met een blinde"),
    "record.variant_six": ("6 players, with the 6s", "6 spelers, met de zessen"),
    "record.variant_six_short": ("6 players, short deal", "6 spelers, korte deling"),
    "record.variant_help": (
        "The seats, tricks and cards dealt follow the game chosen.",
        "De plaatsen, slagen en gedeelde kaarten volgen het gekozen spel.",
    ),
    "record.need_people": (
        "{count} different names, clockwise.",
        "{count} verschillende namen, in wijzerzin.",
    ),
    "record.dummy_note": (
        "The dummy sits opposite the dealer and has no name: the dealer plays its table cards.",
        "De blinde zit tegenover de gever en heeft geen naam: de gever speelt zijn tafelkaarten.",
    ),
    "record.dummy": ("dummy", "blinde"),
    "record.underbuy_choice": ("Underbuying (onderkopen)", "Onderkopen"),
    "record.overtake_plain_suit": (
        "Following a plain suit, beat the winning card when able",
        "Bij bijkleur: hoger spelen als het kan",
    ),
    "record.thirty_carry": (
        "After 30-30 the next deal counts double",
        "Na 30-30 telt het volgende spel dubbel",
    ),
    "record.muil_double": ("Muil counts double", "Muil telt dubbel"),
    "record.capot": ("Capot (every point taken)", "Kapot (alle punten)"),
    "record.multipliers": ("Doublings", "Verdubbelingen"),
    "record.trump_choice": ("Trump choice", "Troefkeuze"),
    "record.klop_by": ("Who may klop", "Wie mag kloppen"),
    "record.penalty_to": ("A penalty", "Een straf"),
    "record.penalty_points": ("Penalty points", "Strafpunten"),
    "record.format": ("Match", "Partij"),
    "record.deals_count": ("Deals (club format)", "Spellen (clubformule)"),
    "rule.underbuy.forbidden": ("forbidden while another card may go", "verboden als een andere kaart kan"),
    "rule.underbuy.allowed": ("allowed", "toegelaten"),
    "rule.underbuy.forbidden_with_other_suit": (
        "forbidden while holding another suit",
        "verboden met een andere kleur in de hand",
    ),
    "rule.underbuy.forced": ("forced when it cannot beat", "verplicht als overkopen niet kan"),
    "players.mixed_depths": (
        "Of this player's matches {solver} were analysed by the solver's review and {quick} without "
        "it (the quick check, or the rules only): the solver finds several times more, so its months "
        "look worse than the others. `manillen analyze --depth solver` reviews the rest (the "
        "dashboard's own review does, in time).",
        "Van de partijen van deze speler werden er {solver} door de controle van de solver "
        "geanalyseerd en {quick} zonder (de snelle controle, of enkel de regels): de solver vindt er "
        "meermaals meer, dus die maanden lijken slechter dan de andere. `manillen analyze --depth "
        "solver` controleert de rest (de eigen controle van het dashboard doet het mettertijd).",
    ),
    "mistakes.depth": ("Analysis", "Analyse"),
    "depth.solver": ("solver's review", "controle van de solver"),
    "depth.heuristic": ("quick check", "snelle controle"),
    "depth.rules": ("rules only", "enkel de regels"),
    "mistakes.mixed_depths": (
        "These matches were analysed at different depths: {solver} by the solver's review, {quick} "
        "without it (the quick check, or the rules only). The solver's review finds several times "
        "more (the cost of every card), so a player whose matches it reached looks worse than one "
        "whose matches it did not: compare players over one depth (the Analysis filter, above).",
        "Deze partijen werden niet even diep geanalyseerd: {solver} door de controle van de solver, "
        "{quick} zonder (de snelle controle, of enkel de regels). De solver vindt er meermaals meer "
        "(de kost van elke kaart), dus wie partijen heeft die ze al controleerde, lijkt slechter dan "
        "wie er geen heeft: vergelijk spelers over één diepte (de filter Analyse).",
    ),
    "rule.capot.plain": ("scored as any deal", "gewoon geteld"),
    "rule.capot.double": ("doubled", "dubbel"),
    "rule.capot.fixed_30": ("30 points", "30 punten"),
    "rule.capot.fixed_60": ("60 points", "60 punten"),
    # an example every other option leaves as it is: "klop on muil" was x2 with muil_double off
    "rule.multipliers.multiplied": (
        "multiplied (klop and tegenklop ×4)",
        "vermenigvuldigd (klop en tegenklop ×4)",
    ),
    "rule.multipliers.added": ("added (klop and tegenklop ×3)", "opgeteld (klop en tegenklop ×3)"),
    "rule.trump_choice.free": ("any suit or muil", "vrije kleur of muil"),
    "rule.trump_choice.held_suit": ("a suit in the hand", "een kleur uit de hand"),
    "rule.trump_choice.turned_card": ("the turned last card", "de omgedraaide laatste kaart"),
    "rule.klop_by.opponents": ("either opponent", "elke tegenspeler"),
    "rule.klop_by.left_of_dealer": ("the dealer's left and partner", "links van de gever en partner"),
    "rule.penalty_to.opponents": ("goes to the opponents", "gaat naar de tegenpartij"),
    "rule.penalty_to.offender": ("is taken off the offender", "gaat af bij de overtreder"),
    "rule.format.target": ("to a target score", "tot een doelscore"),
    "rule.format.fixed": ("a fixed number of deals (club)", "een vast aantal spellen (club)"),
    "record.seat_placeholder": ("Choose or type a name", "Kies of typ een naam"),
    "record.need_players": (
        "Four different names, clockwise: seats 1 and 3 play together against 2 and 4.",
        "Vier verschillende namen, in wijzerzin: plaats 1 en 3 spelen samen tegen 2 en 4.",
    ),
    "record.seat_type": ("Name", "Naam"),
    "record.venue_type": ("Where (optional)", "Waar (mag leeg)"),
    "record.date": ("Date", "Datum"),
    "record.venue": ("Venue", "Locatie"),
    "record.venue_placeholder": ("Choose or type a venue (optional)", "Kies of typ een locatie (mag leeg)"),
    "record.first_dealer": ("First dealer", "Eerste gever"),
    "record.rules_source": ("House rules", "Huisregels"),
    "record.rules_default": ("Standard rules", "Standaardregels"),
    "record.rules_last": ("As their last match", "Zoals hun vorige partij"),
    "record.rules_help": (
        "Copy the rules of the latest match in the archive where these players played.",
        "Neem de regels over van de laatste partij in het archief met deze spelers.",
    ),
    "record.target": ("Play to", "Spelen tot"),
    "record.club_rules": ("Club rules", "Clubregels"),
    "record.club_rules_help": (
        "A club's rules saved in the archive: they replace the house rules below.",
        "De regels van een club, bewaard in het archief: ze komen in de plaats van de huisregels hieronder.",
    ),
    "record.club_rules_unreadable": (
        "The club rules saved in the archive cannot be read: {message}",
        "De clubregels in het archief kunnen niet gelezen worden: {message}",
    ),
    "record.save_club_rules": ("Save these rules for the club", "Deze regels bewaren voor de club"),
    "record.club_rules_name": ("Name (the club or the café)", "Naam (de club of het café)"),
    "record.club_name_hint": ("De Zwaan", "De Zwaan"),
    "record.club_rules_replace": (
        "Replace the rules saved under this name",
        "De regels onder deze naam vervangen",
    ),
    "record.club_rules_save": ("Save the club rules", "Clubregels bewaren"),
    "record.club_rules_saved": (
        "Saved as the club rules {name}: choose them under Club rules for the next match.",
        "Bewaard als de clubregels {name}: kies ze bij Clubregels voor de volgende partij.",
    ),
    "record.house_rules": ("More house rules", "Meer huisregels"),
    "record.partner_exempt": (
        "No need to overtake or buy while the partner wins the trick",
        "Niet overnemen of kopen als de partner de slag heeft",
    ),
    "record.underbuy": ("Underbuying (onderkopen) allowed", "Onderkopen toegelaten"),
    "record.klop_on_muil": ("Klop on a muil allowed", "Kloppen op muil toegelaten"),
    "record.max_multiplier": ("Highest factor", "Hoogste factor"),
    "record.no_cap": ("no cap", "geen grens"),
    "record.cafe_blind_muil": ("Cafe rule: blind muil", "Caféregel: blinde muil"),
    "record.cafe_eternal_klop": ("Cafe rule: eternal klop", "Caféregel: eeuwig kloppen"),
    "record.cafe_en_face": ("Cafe rule: en face", "Caféregel: en face"),
    "record.cafe_redeal_small": (
        "Cafe rule: redeal on five small cards and a jack",
        "Caféregel: opnieuw geven bij vijf kleine kaarten en een boer",
    ),
    "record.start": ("Start recording", "Beginnen met opnemen"),
    "record.deal": ("Deal {number} · {dealer} deals", "Spel {number} · {dealer} geeft"),
    "record.dealer": ("Dealer", "Gever"),
    "record.dealer_help": (
        "Comes from the rotation (the previous dealer's left); change it if the table dealt otherwise.",
        "Volgt de beurtrol (links van de vorige gever); pas aan als er anders gegeven werd.",
    ),
    "record.mode": ("Enter", "Ingeven"),
    "record.mode_cards": ("Cards", "Kaarten"),
    "record.mode_sheet": ("Scoresheet line", "Lijn van het scoreblad"),
    "record.who_calls": ("{name} makes trump:", "{name} maakt troef:"),
    "record.calls": ("Calls", "Aankondigingen"),
    "record.call_muil": ("Muil", "Muil"),
    "record.call_blind_muil": ("Blind muil", "Blinde muil"),
    "record.call_en_face": ("En face", "En face"),
    "record.call_klop": ("Klop", "Klop"),
    "record.call_tegenklop": ("Tegenklop", "Tegenklop"),
    "record.call_redeal": ("Redeal", "Opnieuw geven"),
    # the game's own words in both languages, as every other page writes a contract (troef ♣ klaveren)
    "record.call_trump": ("troef", "troef"),
    "record.call_pass": ("Pass", "Pas"),
    "record.redeal_note": (
        "A redeal: nothing is played, the same dealer deals again. Save it to go on.",
        "Opnieuw geven: er wordt niets gespeeld, dezelfde gever geeft opnieuw. Bewaar om verder te gaan.",
    ),
    "record.hands": (
        "Hands (optional: outlines the legal cards)",
        "Handen (niet verplicht: omlijnt de toegelaten kaarten)",
    ),
    "record.hands_known": ("Hands (known)", "Handen (gekend)"),
    "record.hands_help": (
        "Type each hand as dealt, a card as its rank and suit (10H AH 7♥ ...: 7 8 9 10 J Q K A, then "
        "H D C S or ♥ ♦ ♣ ♠); the fourth may stay empty. With the hands the grid outlines the cards "
        "the player to play may play and warns at once on an illegal card.",
        "Typ elke hand zoals gedeeld, een kaart als waarde en kleur (10H AH 7♥ ...: 7 8 9 10, J boer, "
        "Q vrouw, K heer, A aas; H harten, D koeken, C klaveren, S schoppen, of ♥ ♦ ♣ ♠); de vierde "
        "mag leeg blijven. Met de handen omlijnt het rooster de kaarten die de speler mag spelen en "
        "waarschuwt het meteen bij een onreglementaire kaart.",
    ),
    "record.slot_placeholder": ("{count} cards, e.g. {example}", "{count} kaarten, bv. {example}"),
    "record.hand_last": ("empty: the eight cards left", "leeg: de acht overblijvende kaarten"),
    "record.use_hands": ("Use these hands", "Deze handen gebruiken"),
    "record.tap_mode": ("Tap", "Tikken"),
    "record.tap_plays": ("Cards played", "Gespeelde kaarten"),
    "record.tap_hands": ("Hands first", "Eerst de handen"),
    "record.tap_hand_of": ("Tap {name}'s hand: {count} of 8", "Tik de hand van {name}: {count} van 8"),
    "record.tap_dealt": ("Cards dealt first", "Eerst de gedeelde kaarten"),
    "record.part_dealt": (
        "The cards dealt are not finished: {where} has {count} of {size}. Tap the rest under Cards "
        "dealt first, or clear them under Cards dealt below: a part of a hand is not saved with the deal.",
        "De gedeelde kaarten zijn niet af: {where} heeft er {count} van {size}. Tik de rest onder Eerst "
        "de gedeelde kaarten, of wis ze onder Gedeelde kaarten hieronder: een deel van een hand wordt "
        "niet bewaard met het spel.",
    ),
    "record.discards_short": ("the cards laid aside", "de weggelegde kaarten"),
    "record.tap_slot_hand": (
        "Tap {name}'s hand: {count} of {size}",
        "Tik de hand van {name}: {count} van {size}",
    ),
    "record.tap_slot_table": (
        "Tap {name}'s table, pile {pile}: the {side} card · {count} of {size}",
        "Tik de tafel van {name}, stapel {pile}: de {side} kaart · {count} van {size}",
    ),
    "record.face_down": ("face-down", "gedekte"),
    "record.face_up": ("face-up", "open"),
    "record.tap_slot_discards": (
        "Tap the cards laid aside: {count} of {size}",
        "Tik de weggelegde kaarten: {count} van {size}",
    ),
    "record.dealt_tapped": (
        "Every card dealt is in (the last place is the cards left). Switch to Cards played.",
        "Alle gedeelde kaarten zijn ingegeven (de laatste plaats is de rest). Kies Gespeelde kaarten.",
    ),
    "record.dealt": ("Cards dealt", "Gedeelde kaarten"),
    "record.dealt_needed": (
        "Cards dealt (needed: {what})",
        "Gedeelde kaarten (nodig: {what})",
    ),
    "record.dealt_known": ("Cards dealt (known)", "Gedeelde kaarten (gekend)"),
    "record.dealt_help": (
        "Type the cards as dealt (10H AH 7♥ ...): the table piles pile by pile, the face-down card "
        "then the face-up one; then the hands. The last hand may stay empty: it takes the cards "
        "left. The hands follow from the cards played once the piles are in.",
        "Typ de kaarten zoals gedeeld (10H AH 7♥ ...): de stapels op tafel een voor een, eerst de "
        "gedekte kaart en dan de open; dan de handen. De laatste hand mag leeg blijven: die krijgt "
        "de overblijvende kaarten. De handen volgen uit de gespeelde kaarten zodra de stapels er zijn.",
    ),
    "record.dealt_help_hands_only": (
        "Type the cards as dealt (10H AH 7♥ ...): the hands. The last may stay empty: it takes the "
        "cards left.",
        "Typ de kaarten zoals gedeeld (10H AH 7♥ ...): de handen. De laatste mag leeg blijven: die "
        "krijgt de overblijvende kaarten.",
    ),
    "record.dealt_help_hands": (
        "Type the cards as dealt (10H AH 7♥ ...): the hands, then the cards laid aside. The last may "
        "stay empty: it takes the cards left.",
        "Typ de kaarten zoals gedeeld (10H AH 7♥ ...): de handen, dan de weggelegde kaarten. De laatste "
        "mag leeg blijven: die krijgt de overblijvende kaarten.",
    ),
    "record.dealt_missing": (
        "Before saving, give {what}: under Cards dealt below the grid.",
        "Geef voor het bewaren {what} in: onder Gedeelde kaarten onder het rooster.",
    ),
    "record.needed_table": ("the table piles", "de stapels op tafel"),
    "record.piles_first": (
        "This game needs the table piles before the deal is saved: tap them with Cards dealt first "
        "(before the first card), or type them under Cards dealt below the grid.",
        "Dit spel heeft de stapels op tafel nodig voor het spel bewaard wordt: tik ze met Eerst de "
        "gedeelde kaarten (voor de eerste kaart), of typ ze onder Gedeelde kaarten onder het rooster.",
    ),
    "record.needed_discards": ("the cards laid aside", "de weggelegde kaarten"),
    "record.typed_table": (
        "{name}'s table (down up, pile by pile)",
        "Tafel van {name} (gedekt open, per stapel)",
    ),
    "record.typed_discards": ("Laid aside", "Weggelegd"),
    "record.use_dealt": ("Use these cards", "Deze kaarten gebruiken"),
    "record.forget_dealt": ("Forget the cards dealt", "Gedeelde kaarten vergeten"),
    "record.move": (
        "{name}: move the 3rd pile's card to the empty place",
        "{name}: kaart van de 3de stapel naar de lege plaats",
    ),
    "record.open_on_table": ("Open on the table", "Open op tafel"),
    "record.turned": ("Turned last card (optional)", "Omgedraaide laatste kaart (mag leeg)"),
    "record.turned_placeholder": ("e.g. JH: hearts are trump", "bv. JH: harten is troef"),
    "record.hands_tapped": (
        "The four hands are in (the fourth is the eight cards left). Switch to Cards played.",
        "De vier handen zijn ingegeven (de vierde is de acht overblijvende kaarten). Kies Gespeelde kaarten.",
    ),
    "record.untap": ("Undo hand card", "Kaart uit de hand terug"),
    "record.untap_dealt": ("Undo card dealt", "Gedeelde kaart terug"),
    "record.forget_hands": ("Forget the hands", "Handen vergeten"),
    "record.to_play": ("{name} to play · trick {trick}", "{name} is aan de beurt · slag {trick}"),
    "record.on_table": ("On the table", "Op tafel"),
    "record.took": ("Trick {number}: {name} takes {points}", "Slag {number}: {name} neemt {points}"),
    "record.taken": (
        "{team0}: {points0} · {team1}: {points1} · {cards} of {total} cards in",
        "{team0}: {points0} · {team1}: {points1} · {cards} van {total} kaarten ingegeven",
    ),
    "record.illegal": (
        "Illegal play by {name}: {card} ({kind}): {why}. It is kept as played; "
        "undo it if it was a slip of the finger.",
        "Onreglementair gespeeld door {name}: {card} ({kind}): {why}. Het blijft staan zoals gespeeld; "
        "maak het ongedaan als u mis tikte.",
    ),
    "record.illegal_count": (
        "{count} illegal plays in this deal: they are kept, and the analysis reports them."
        " A penalty the table gave is not tapped here: type it in the text notation (penalty TEAM "
        "POINTS; Share as text gives the match so far).",
        "{count} onreglementaire kaarten in dit spel: ze blijven staan en de analyse meldt ze."
        " Een straf die de tafel gaf, tikt u hier niet in: typ ze in de tekstnotatie (penalty TEAM "
        "PUNTEN; Delen als tekst geeft de partij tot nu).",
    ),
    "record.illegal_count_one": (
        "1 illegal play in this deal: it is kept, and the analysis reports it."
        " A penalty the table gave is not tapped here: type it in the text notation (penalty TEAM "
        "POINTS; Share as text gives the match so far).",
        "1 onreglementaire kaart in dit spel: ze blijft staan en de analyse meldt ze."
        " Een straf die de tafel gaf, tikt u hier niet in: typ ze in de tekstnotatie (penalty TEAM "
        "PUNTEN; Delen als tekst geeft de partij tot nu).",
    ),
    "record.undo_card": ("Undo card", "Kaart terug"),
    "record.undo_call": ("Undo the last call", "Laatste aankondiging terug"),
    "record.undo_trick": ("Undo trick", "Slag terug"),
    "record.tricks": ("Tricks played ({count}) · edit a trick", "Gespeelde slagen ({count}) · slag wijzigen"),
    "record.trick_line": (
        "{number}. {leader} leads: {cards} → {winner} takes {points}",
        "{number}. {leader} komt uit: {cards} → {winner} neemt {points}",
    ),
    "record.edit_trick": ("Trick to change", "Slag om te wijzigen"),
    "record.edit_cards": ("Its cards in the order played", "De kaarten in de volgorde gespeeld"),
    "record.edit_apply": ("Change the trick", "Slag wijzigen"),
    "record.deal_done": (
        "All {tricks} tricks are in: {team0} {points0}, {team1} {points1}.",
        "De {tricks} slagen zijn ingegeven: {team0} {points0}, {team1} {points1}.",
    ),
    "record.save": ("Save the deal", "Spel bewaren"),
    "record.saving": ("Saving and analysing the deal ...", "Spel bewaren en analyseren ..."),
    "record.refused": ("The deal cannot be saved: {message}", "Het spel kan niet bewaard worden: {message}"),
    # why the Record page refuses a tap (dashboards.recording.RecordingError): {card} is a card as
    # typed (10H), {suit} a suit's name; an engine's reason ({message}) stays in English
    "refuse.engine": ("{message}", "{message}"),
    "refuse.not_draft": ("not a draft: {message}", "geen ontwerp: {message}"),
    "refuse.players_needed": (
        "{people} players are needed, one name in each seat",
        "Er zijn {people} spelers nodig, een naam op elke plaats",
    ),
    "refuse.no_deal": ("no deal is being entered", "er wordt geen spel ingevoerd"),
    "refuse.face_down": (
        "{card} still lies face down on {name}'s table (card {number} of the deal)",
        "{card} ligt nog gedekt op de tafel van {name} (kaart {number} van het spel)",
    ),
    "refuse.open_elsewhere": (
        "{card} lies open on another seat's table, not {name}'s (card {number} of the deal)",
        "{card} ligt open op de tafel van een andere plaats, niet die van {name} "
        "(kaart {number} van het spel)",
    ),
    "refuse.not_held": (
        "{name} does not hold {card}: correct the cards dealt or tap {name}'s card",
        "{name} heeft {card} niet: verbeter de gedeelde kaarten of tik de kaart van {name}",
    ),
    "refuse.dealt_unfit": (
        "the cards dealt do not fit the cards played",
        "de gedeelde kaarten passen niet bij de gespeelde kaarten",
    ),
    "refuse.dealt_unfit_because": (
        "the cards dealt do not fit the cards played: {reason}",
        "de gedeelde kaarten passen niet bij de gespeelde kaarten: {reason}",
    ),
    "refuse.calls_first": (
        "make trump first (or muil): the calls come before the cards",
        "maak eerst troef (of muil): de aankondigingen komen voor de kaarten",
    ),
    "refuse.deal_over": ("every trick is in: save the deal", "alle slagen zijn gespeeld: bewaar het spel"),
    "refuse.played_already": ("{card} is already played", "{card} is al gespeeld"),
    "refuse.unknown_card": (
        "unknown card {text}: a card is its rank (7 8 9 10 J Q K A) and its suit (H D C S), as 10H or QS",
        "onbekende kaart {text}: een kaart is haar waarde (7 8 9 10, J boer, Q vrouw, K heer, A aas) en "
        "haar kleur (H harten, D koeken, C klaveren, S schoppen, of ♥ ♦ ♣ ♠), zoals 10H of Q♠",
    ),
    "refuse.not_in_pack": (
        "{card} is not in this game's pack",
        "{card} zit niet in het kaartspel van dit spel",
    ),
    "refuse.no_move": (
        "a card moves from the 3rd pile only to an emptied 4th place, uncovering another",
        "een kaart gaat van de 3de stapel enkel naar een lege 4de plaats, en legt er een andere bloot",
    ),
    "refuse.trick_not_played": ("trick {number} is not played yet", "slag {number} is nog niet gespeeld"),
    "refuse.trick_size": (
        "trick {number} needs {size} cards, not {count}",
        "slag {number} heeft {size} kaarten nodig, niet {count}",
    ),
    "refuse.typed_twice": (
        "{card} is typed twice in trick {number}",
        "{card} is twee keer getypt in slag {number}",
    ),
    "refuse.trick_cannot": ("trick {number} cannot be so: {message}", "slag {number} kan zo niet: {message}"),
    "refuse.turned_needs_rule": (
        "a turned card needs the house rule: the turned last card makes trump",
        "een omgedraaide kaart vraagt de huisregel: de omgedraaide laatste kaart maakt troef",
    ),
    "refuse.turned_other_suit": (
        "{card} was turned: {suit} are trump, not {trump}",
        "{card} werd omgedraaid: {suit} is troef, niet {trump}",
    ),
    "refuse.slot_size": ("{slot}: {count} cards, not {size}", "{slot}: {count} kaarten, niet {size}"),
    "refuse.dealt_twice": ("{card} is dealt twice", "{card} is twee keer gedeeld"),
    "refuse.tap_before_play": (
        "the cards dealt are tapped in before the first card is played",
        "de gedeelde kaarten worden getikt voor de eerste kaart gespeeld wordt",
    ),
    "refuse.placed_already": ("{card} is already in {slot}", "{card} zit al in {slot}"),
    "refuse.all_dealt_in": (
        "every card dealt is in: forget them to tap them again",
        "alle gedeelde kaarten zijn er: vergeet ze om ze opnieuw te tikken",
    ),
    "refuse.not_finished": (
        "the deal is not finished: {played} of {cards} cards are in",
        "het spel is niet af: {played} van de {cards} kaarten zijn er",
    ),
    "refuse.dealt_needed": (
        "{what} of this game are needed: type them under the cards dealt",
        "{what} van dit spel zijn nodig: typ ze onder de gedeelde kaarten",
    ),
    "refuse.dealt_needed_or_tap": (
        "{what} of this game are needed: type them under the cards dealt, or tap them (cards dealt first)",
        "{what} van dit spel zijn nodig: typ ze onder de gedeelde kaarten, of tik ze "
        "(gedeelde kaarten eerst)",
    ),
    "refuse.both": ("{first} and {second}", "{first} en {second}"),
    "refuse.reopened_already": (
        "deal {number} is reopened already: save it or drop the correction",
        "spel {number} is al heropend: bewaar het of laat de verbetering vallen",
    ),
    "refuse.not_saved": (
        "deal {number} is not saved: deals 1 to {saved} are",
        "spel {number} is niet bewaard: de spellen 1 tot {saved} wel",
    ),
    "refuse.sheet_line": (
        "a scoresheet line is a team (0 or 1) and its points",
        "een lijn van het scoreblad is een ploeg (0 of 1) en haar punten",
    ),
    "refuse.too_many_drafts": (
        "there are {most} open drafts already, the most kept beside an archive: finish or discard one "
        "(Record page, Carry on) before starting another",
        "er zijn al {most} open ontwerpen, het meeste dat naast een archief bewaard wordt: werk er een af "
        "of gooi er een weg (pagina Opnemen, Verdergaan) voor u een nieuw begint",
    ),
    "refuse.not_draft_id": (
        "{draft} is not a draft id: letters and digits only",
        "{draft} is geen ontwerpnummer: enkel letters en cijfers",
    ),
    "refuse.draft_too_big": (
        "this draft would be {size} bytes, over the limit of {most} for a draft: shorten its notes, or "
        "save the match and start a new one",
        "dit ontwerp zou {size} bytes zijn, boven de grens van {most} voor een ontwerp: maak de notities "
        "korter, of bewaar de partij en begin een nieuwe",
    ),
    "refuse.changed_meanwhile": (
        "another phone at this table changed the match meanwhile: the page now shows it as that phone "
        "left it; tap again what you meant to",
        "een andere telefoon aan deze tafel wijzigde de partij intussen: de pagina toont ze nu zoals die "
        "telefoon ze achterliet; tik opnieuw wat u bedoelde",
    ),
    "refuse.saved_meanwhile": (
        "another phone at this table saved a deal meanwhile: the page now shows the match as that "
        "phone left it",
        "een andere telefoon aan deze tafel bewaarde intussen een spel: de pagina toont de partij nu "
        "zoals die telefoon ze achterliet",
    ),
    "refuse.hand_missing": (
        "{name}'s hand is empty: type every hand, or none.{last}",
        "De hand van {name} is leeg: typ elke hand, of geen enkele.{last}",
    ),
    "refuse.slot_hand": ("{name}'s hand", "de hand van {name}"),
    "refuse.slot_table": ("{name}'s table", "de tafel van {name}"),
    "record.hand_last_fills": (
        " The last one fills itself once the others hold {size} cards each.",
        " De laatste vult zichzelf zodra de andere elk {size} kaarten hebben.",
    ),
    # the count is the review's own (The biggest mistakes): the quick check's notes (info) left out,
    # as the review leaves them out, so that "1 finding" is never followed by "no mistakes found"
    "record.saved": (
        "Deal {number} is saved in the archive. The quick check found {findings} mistakes in the match; "
        "the solver's review follows and adds the costly cards and calls (The biggest mistakes, below).",
        "Spel {number} is bewaard in het archief. De snelle controle vond {findings} fouten in de "
        "partij; de analyse door de solver volgt en voegt de dure kaarten en keuzes toe (De grootste "
        "fouten, hieronder).",
    ),
    "record.saved_none": (
        "Deal {number} is saved in the archive. The quick check found no mistake in the match; the "
        "solver's review follows and adds the costly cards and calls (The biggest mistakes, below).",
        "Spel {number} is bewaard in het archief. De snelle controle vond geen fout in de partij; de "
        "analyse door de solver volgt en voegt de dure kaarten en keuzes toe (De grootste fouten, "
        "hieronder).",
    ),
    "record.saved_sheet": (
        # the scoresheet's mistake is said below: "no mistake" above it read as a contradiction
        "Deal {number} is saved in the archive. Besides the scoresheet's mistake below, the quick check "
        "found no mistake in the match; the solver's review follows and adds the costly cards and calls "
        "(The biggest mistakes, below).",
        "Spel {number} is bewaard in het archief. Buiten de fout op het scoreblad hieronder vond de snelle "
        "controle geen fout in de partij; de analyse door de solver volgt en voegt de dure kaarten en "
        "keuzes toe (De grootste fouten, hieronder).",
    ),
    "record.saved_sheet_one": (
        "Deal {number} is saved in the archive. Besides the scoresheet's mistake below, the quick check "
        "found 1 mistake in the match; the solver's review follows and adds the costly cards and calls "
        "(The biggest mistakes, below).",
        "Spel {number} is bewaard in het archief. Buiten de fout op het scoreblad hieronder vond de snelle "
        "controle 1 fout in de partij; de analyse door de solver volgt en voegt de dure kaarten en "
        "keuzes toe (De grootste fouten, hieronder).",
    ),
    "record.saved_sheet_many": (
        "Deal {number} is saved in the archive. Besides the scoresheet's mistake below, the quick check "
        "found {findings} mistakes in the match; the solver's review follows and adds the costly cards "
        "and calls (The biggest mistakes, below).",
        "Spel {number} is bewaard in het archief. Buiten de fout op het scoreblad hieronder vond de snelle "
        "controle {findings} fouten in de partij; de analyse door de solver volgt en voegt de dure "
        "kaarten en keuzes toe (De grootste fouten, hieronder).",
    ),
    "record.saved_reviewed": (
        "Deal {number} is saved in the archive, and the solver's review of the match is ready: its "
        "costly cards and calls are under The biggest mistakes, below.",
        "Spel {number} is bewaard in het archief, en de analyse door de solver is klaar: de dure "
        "kaarten en keuzes staan onder De grootste fouten, hieronder.",
    ),
    "record.saved_line": (
        "Deal {number} is saved in the archive: a scoresheet line, without cards for the solver to review.",
        "Spel {number} is bewaard in het archief: een lijn van het scoreblad, zonder kaarten voor de solver.",
    ),
    "record.saved_one": (
        "Deal {number} is saved in the archive. The quick check found 1 mistake in the match; the "
        "solver's review follows and adds the costly cards and calls (The biggest mistakes, below).",
        "Spel {number} is bewaard in het archief. De snelle controle vond 1 fout in de partij; de "
        "analyse door de solver volgt en voegt de dure kaarten en keuzes toe (De grootste fouten, "
        "hieronder).",
    ),
    "record.renamed": (
        "The archive already holds another table's match as {old}: this match is saved as {new}, "
        "so neither replaces the other.",
        "Het archief heeft al een partij van een andere tafel als {old}: deze partij is bewaard als "
        "{new}, zodat geen van beide de andere vervangt.",
    ),
    "record.open_replay": ("Open deal {number} in the Deal replay", "Spel {number} openen in Spel herspelen"),
    "record.sheet_choose": (
        "Choose the team that scored and type its points (or tap 30-30).",
        "Kies de ploeg die scoorde en typ haar punten (of tik 30-30).",
    ),
    "record.sheet_help": (
        "Only the scoresheet: who scored and how many points (or a 30-30).",
        "Enkel het scoreblad: wie scoorde en hoeveel punten (of 30-30).",
    ),
    "record.sheet_team": ("Scored by", "Gescoord door"),
    "record.sheet_points": ("Points", "Punten"),
    "record.sheet_save": ("Save the line", "Lijn bewaren"),
    "record.sheet_line": ("scoresheet", "scoreblad"),
    "record.total": ("Total", "Totaal"),
    "record.decided": ("{team} win the match.", "{team} winnen de partij."),
    "record.draw": ("The match is a draw.", "De partij is gelijk."),
    "record.share": ("Share as text", "Delen als tekst"),
    "record.share_help": (
        "The match in the text notation: copy it into a message; an upload on the Archive page "
        "(or `manillen import`) reads it back.",
        "De partij in de tekstnotatie: kopieer ze in een bericht; opladen op de pagina Archief (of "
        "`manillen import`) leest ze terug.",
    ),
    "record.share_saved_only": (
        "It holds the saved deals: deal {number}, under way, joins it once saved.",
        "Ze bevat de bewaarde spellen: spel {number}, dat bezig is, komt erbij zodra het bewaard is.",
    ),
    "record.close": ("Close this match", "Deze partij sluiten"),
    "record.close_confirm": (
        "Close this match? Its saved deals stay in the archive; this page then starts a new match.",
        "Deze partij sluiten? De bewaarde spellen blijven in het archief; deze pagina begint dan een "
        "nieuwe partij.",
    ),
    "record.close_loses": (
        "Deal {number}, under way ({count} cards and calls tapped), is not saved and will be lost.",
        "Spel {number}, dat bezig is ({count} kaarten en aankondigingen getikt), is niet bewaard en gaat "
        "verloren.",
    ),
    "record.close_club": (
        "This is a club table: once closed it cannot be opened again, from this phone or from the "
        "organiser's page, and the evening counts only its saved deals.",
        "Dit is een clubtafel: eens gesloten kan ze niet meer geopend worden, niet op deze telefoon en "
        "niet op de pagina van de organisator, en de avond telt alleen haar bewaarde spellen.",
    ),
    "record.close_yes": ("Close it", "Sluiten"),
    "record.close_no": ("Keep recording", "Verder opnemen"),
    "record.match_done": (
        "The match is decided: close it to record the next match. A saved deal can still be corrected.",
        "De partij is beslist: sluit ze om de volgende partij op te schrijven. Een bewaard spel kan "
        "nog verbeterd worden.",
    ),
    "record.after_end": (
        "A deal played after the end (kept as played after the match was decided)",
        "Een spel gespeeld na het einde (bewaard als gespeeld nadat de partij beslist was)",
    ),
    "record.written": ("The scoresheet says (optional)", "Het scoreblad zegt (optioneel)"),
    "record.written_help": (
        "What was written on the scoresheet for this deal: the cards are checked against it, and a "
        "wrong line is saved as a score mismatch finding.",
        "Wat voor dit spel op het scoreblad staat: de kaarten worden ermee vergeleken, en een "
        "foute lijn wordt bewaard als bevinding (score klopt niet).",
    ),
    "record.written_none": ("Not written", "Niet genoteerd"),
    "record.mismatch": (
        "deal {number}: the scoresheet says {written}, the cards say {cards}",
        "spel {number}: het scoreblad zegt {written}, de kaarten zeggen {cards}",
    ),
    "record.mismatch_side": ("{team} +{points}", "{team} +{points}"),
    "record.mismatch_tie": ("30-30 (nobody scores)", "30-30 (niemand scoort)"),
    "record.written_mismatch": (
        "The scoresheet disagrees with the cards: {message}. Saved as a score mismatch finding.",
        "Het scoreblad klopt niet met de kaarten: {message}. Bewaard als bevinding.",
    ),
    "record.reopen": ("Correct a saved deal", "Een bewaard spel verbeteren"),
    "record.reopen_help": (
        "Opens the deal again to change its calls, cards or scoresheet line; saving it replaces the "
        "match in the archive. The deal in progress waits until then.",
        "Opent het spel opnieuw om aankondigingen, kaarten of scorebladlijn te wijzigen; bewaren "
        "vervangt de partij in het archief. Het lopende spel wacht tot dan.",
    ),
    "record.reopen_number": ("Deal", "Spel"),
    "record.reopen_button": ("Reopen", "Heropenen"),
    "record.reopened": (
        "Deal {number} is reopened: change it and save it again, or drop the correction.",
        "Spel {number} is heropend: wijzig het en bewaar het opnieuw, of laat de verbetering vallen.",
    ),
    "record.drop_reopened": ("Drop the correction", "Verbetering laten vallen"),
    "record.saved_elsewhere": (
        "Another phone at this table saved deal {number} meanwhile: this page now shows deal {next}. "
        "Tap again what you meant to, if it was for deal {next}.",
        "Een andere telefoon aan deze tafel heeft spel {number} intussen bewaard: deze pagina toont nu "
        "spel {next}. Tik opnieuw wat u bedoelde, als het voor spel {next} was.",
    ),
    "record.changed_elsewhere": (
        "Another phone at this table changed the match meanwhile: this page now shows it as that phone "
        "left it. Tap again what you meant to.",
        "Een andere telefoon aan deze tafel heeft de partij intussen gewijzigd: deze pagina toont ze nu "
        "zoals die telefoon ze achterliet. Tik opnieuw wat u bedoelde.",
    ),
    "record.adopted": (
        "The organiser changed match {match} in the archive since this table's last save: deal "
        "{number} is added after the archive's deals, which this page now shows as the archive has them.",
        "De organisator wijzigde partij {match} in het archief sinds de laatste bewaring van deze tafel: "
        "spel {number} komt na de spellen van het archief, die deze pagina nu toont zoals het archief "
        "ze heeft.",
    ),
    "record.saved_unchanged": (
        "Deal {number} is as it was saved: nothing changed in the archive.",
        "Spel {number} is zoals het bewaard was: er is niets veranderd in het archief.",
    ),
    "record.saved_already": (
        "Deal {number} was saved already (by another phone at this table, or by this one before its "
        "connection dropped): it is in the archive once.",
        "Spel {number} was al bewaard (door een andere telefoon aan deze tafel, of door deze voor de "
        "verbinding wegviel): het staat één keer in het archief.",
    ),
    "record.only_table": (
        "Only table {table}'s recorder may record this match.",
        "Alleen wie tafel {table} opneemt, mag deze partij opnemen.",
    ),
    "record.not_your_table": (
        "This is table {table}'s match: your link records another table.",
        "Dit is de partij van tafel {table}: uw link neemt een andere tafel op.",
    ),
    "record.block_short": ("Block {block}", "Blok {block}"),
    "record.block_won": ("won by {team}", "gewonnen door {team}"),
    "record.block_tie": ("level", "gelijk"),
    "record.club_done": (
        "The table's {blocks} blocks are played: the standings have them. A saved deal can still "
        "be corrected.",
        "De {blocks} blokken van deze tafel zijn gespeeld: de stand heeft ze. Een bewaard spel kan "
        "nog verbeterd worden.",
    ),
    "record.block": (
        "Block {block} of {blocks}: {team0} against {team1}",
        "Blok {block} van {blocks}: {team0} tegen {team1}",
    ),
    "record.table_number": ("Table {table}", "Tafel {table}"),
}
LABELS.update(RECORD_LABELS)

# The Organiser and Standings pages (a club evening).
EVENING_LABELS: dict[str, tuple[str, str]] = {
    "nav.organiser": ("Club evening", "Clubavond"),
    "nav.standings": ("Standings", "Stand"),
    "organiser.title": ("Club evening", "Clubavond"),
    "organiser.only": (
        "Only the organiser sets up a club evening. The standings are on the Standings page.",
        "Enkel de organisator zet een clubavond op. De stand staat op de pagina Stand.",
    ),
    "organiser.new": ("Set up a new evening", "Een nieuwe avond opzetten"),
    "organiser.players": ("Players present", "Aanwezige spelers"),
    "organiser.players_help": (
        "Paste or type the names, one a line or separated by commas. The first four sit at table 1, "
        "the next four at table 2, and so on.",
        "Plak of typ de namen, één per regel of gescheiden door komma's. De eerste vier zitten aan "
        "tafel 1, de volgende vier aan tafel 2, enzovoort.",
    ),
    "organiser.count": (
        "{players} players: {tables} tables.",
        "{players} spelers: {tables} tafels.",
    ),
    "organiser.count_one": ("{players} players: 1 table.", "{players} spelers: 1 tafel."),
    # the English is the evening module's own (PLAYER_LIST_PROBLEMS), said as a sentence
    "organiser.problem.too_few": (
        _sentence(PLAYER_LIST_PROBLEMS["too_few"]),
        "Een avond heeft minstens {least} spelers nodig, {given} gegeven.",
    ),
    "organiser.problem.too_many": (
        _sentence(PLAYER_LIST_PROBLEMS["too_many"]),
        "Een avond heeft hoogstens {most} spelers, {given} gegeven.",
    ),
    "organiser.problem.no_name": (_sentence(PLAYER_LIST_PROBLEMS["no_name"]), "Een speler heeft geen naam."),
    "organiser.problem.too_long": (
        _sentence(PLAYER_LIST_PROBLEMS["too_long"]),
        "De naam {name}... is langer dan {most} tekens.",
    ),
    "organiser.problem.twice": (
        _sentence(PLAYER_LIST_PROBLEMS["twice"]),
        "{name} staat twee keer op de lijst: geef elke speler één keer.",
    ),
    "organiser.problem.not_tables": (
        _sentence(PLAYER_LIST_PROBLEMS["not_tables"]),
        "{given} spelers vullen geen tafels van vier: voeg er {add} toe of laat er {leave} weg.",
    ),
    "organiser.date": ("Date", "Datum"),
    "organiser.venue": ("Venue", "Locatie"),  # as the Record page (its seats are "Plaats 1" to 4)
    "organiser.rounds": ("Rounds (three blocks each)", "Rondes (elk drie blokken)"),
    "organiser.deals": ("Deals per block", "Spellen per blok"),
    "organiser.sheet_tables": ("Scoresheet only at tables", "Enkel scoreblad aan tafels"),
    "organiser.house_rules": ("House rules", "Huisregels"),
    "organiser.switches_unused": (
        "The evening plays the club rules \u201c{club}\u201d: the switches under House rules were not used.",
        "De avond speelt de clubregels \u201c{club}\u201d: de schakelaars onder Huisregels tellen niet.",
    ),
    "organiser.club_rules_help": (
        "A club's rules saved in the archive: the evening plays them (its deals per block as set above), "
        "and the switches below are not used.",
        "De regels van een club, bewaard in het archief: de avond speelt ze (met het aantal spellen per "
        "blok van hierboven), en de schakelaars hieronder tellen niet.",
    ),
    "organiser.start": ("Set up the evening", "Avond opzetten"),
    "organiser.under_way": (
        "The evening {evening} is under way: {tables} of its tables have deals saved. A new evening "
        "takes over the standings.",
        "De avond {evening} is bezig: {tables} van zijn tafels hebben al spellen bewaard. Een nieuwe "
        "avond neemt de stand over.",
    ),
    "organiser.under_way_one": (
        "The evening {evening} is under way: 1 of its tables has deals saved. A new evening takes over "
        "the standings.",
        "De avond {evening} is bezig: 1 van zijn tafels heeft al spellen bewaard. Een nieuwe avond "
        "neemt de stand over.",
    ),
    "organiser.under_way_links": (
        "Its links replace tonight's: the tables' phones stop recording.",
        "Zijn links vervangen die van vanavond: de telefoons aan de tafels kunnen dan niets meer noteren.",
    ),
    "organiser.replace_running": (
        "Set up a new evening all the same",
        "Toch een nieuwe avond opzetten",
    ),
    "organiser.replace_running_needed": (
        'Nothing was set up: the evening {evening} is under way. Tick "Set up a new evening all the '
        'same" to set up another one.',
        'Er is niets opgezet: de avond {evening} is bezig. Vink "Toch een nieuwe avond opzetten" aan '
        "om er nog een op te zetten.",
    ),
    "organiser.created": (
        "The evening {evening} is set up: give each table its link.",
        "De avond {evening} is opgezet: geef elke tafel haar link.",
    ),
    "organiser.evening": ("Evening", "Avond"),
    "organiser.none": (
        "No club evening yet: set one up above.",
        "Nog geen clubavond: zet er hierboven een op.",
    ),
    "organiser.round": ("Round {round}", "Ronde {round}"),
    "organiser.table": (
        "Table {table}: {players}",
        "Tafel {table}: {players}",
    ),
    "organiser.sheet_only": ("scoresheet only", "enkel scoreblad"),
    "organiser.open_table": ("Record table {table}", "Tafel {table} opnemen"),
    "organiser.table_address": (
        "Table {table}'s address, to send to its phone:",
        "Het adres van tafel {table}, om naar haar telefoon te sturen:",
    ),
    "organiser.open_standings": ("Standings (big screen)", "Stand (groot scherm)"),
    "organiser.own_address": ("Your join address (organiser)", "Uw deelnameadres (organisator)"),
    "organiser.own_address_help": (
        "It opens everything: scan it with your own phone, keep it off the big screen.",
        "Het opent alles: scan het met uw eigen telefoon, toon het niet op het grote scherm.",
    ),
    "organiser.table_join": (
        "Table {table}: scan with the table's phone (it records this table only)",
        "Tafel {table}: scan met de telefoon van de tafel (die neemt enkel deze tafel op)",
    ),
    "organiser.standings_join": (
        "The standings: scan or open on the big screen (read-only pages)",
        "De stand: scan of open op het grote scherm (enkel lezen)",
    ),
    "organiser.this_computer_only": (
        "This dashboard is served on this computer only: the tables' phones cannot open the "
        "addresses below. For the café's network start it with `manillen dashboard --host 0.0.0.0`: "
        "each table then gets a join address with its own token and a QR code here.",
        "Dit dashboard draait enkel op deze computer: de telefoons aan de tafels kunnen de adressen "
        "hieronder niet openen. Start het voor het netwerk van het café met `manillen dashboard --host "
        "0.0.0.0`: elke tafel krijgt dan hier een deelnameadres met haar eigen token en een QR-code.",
    ),
    "organiser.link_not_shown": (
        "This link was shown on another screen (or before this page was reloaded), and for safety "
        "it can be shown only once. The table's phones keep working with it; a new link, if you "
        "need to show it again, ends the old one.",
        "Deze link werd op een ander scherm getoond (of voor deze pagina herladen werd), en is om "
        "veiligheidsredenen maar één keer te zien. De telefoons aan de tafel blijven ermee werken; "
        "een nieuwe link, als u hem opnieuw moet tonen, beëindigt de oude.",
    ),
    "organiser.print_sheet": (
        "The tables' QR codes on one page, to print (HTML)",
        "De QR-codes van de tafels op één pagina, om af te drukken (HTML)",
    ),
    "organiser.new_table_link": ("New link for table {table}", "Nieuwe link voor tafel {table}"),
    "organiser.new_standings_link": ("New link for the standings", "Nieuwe link voor de stand"),
    "organiser.tokens": ("Tokens issued", "Uitgegeven tokens"),
    "organiser.tokens_help": (
        "A revoked token opens nothing from the next click on. Setting up a new evening revokes "
        "the links of the evenings before.",
        "Een ingetrokken token opent niets meer vanaf de volgende klik. Een nieuwe avond opzetten "
        "trekt de links van de vorige avonden in.",
    ),
    "organiser.no_tokens": ("No tokens issued.", "Geen tokens uitgegeven."),
    "organiser.token_recorder": ("recorder of table {table}", "opnemer van tafel {table}"),
    "organiser.token_viewer": ("viewer", "kijker"),
    "organiser.revoke": ("Revoke", "Intrekken"),
    "organiser.revoke_table": ("Revoke table {table}", "Tafel {table} intrekken"),
    "organiser.reports": ("Every player's evening report", "Het avondverslag van elke speler"),
    "organiser.reports_help": (
        "One HTML file per match the player played this evening (the same file as `manillen report`).",
        "Eén HTML-bestand per partij die de speler deze avond speelde (hetzelfde bestand als "
        "`manillen report`).",
    ),
    "organiser.reports_all": ("Make every player's reports", "De verslagen van elke speler maken"),
    "organiser.reports_making": ("Making the reports ...", "De verslagen worden gemaakt ..."),
    "organiser.reports_zip": (
        "Download the {count} reports (ZIP)",
        "De {count} verslagen downloaden (ZIP)",
    ),
    "organiser.report_player": ("Player", "Speler"),
    "organiser.report_download": (
        "Report of {player}, table {table} (round {round})",
        "Verslag van {player}, tafel {table} (ronde {round})",
    ),
    "organiser.no_report": (
        "{player} has no deal saved yet this evening.",
        "{player} heeft deze avond nog geen spel bewaard.",
    ),
    "standings.title": ("Standings: {venue}, {date}", "Stand: {venue}, {date}"),
    "standings.title_undated": ("Standings: {venue}", "Stand: {venue}"),
    "standings.none": (
        "There is no club evening in this archive yet: its standings (blocks won) come here once the "
        "Club evening page has set one up.",
        "Er is nog geen clubavond in dit archief: de stand ervan (gewonnen blokken) komt hier zodra "
        "de pagina Clubavond er een opgezet heeft.",
    ),
    "standings.league_caption": (
        "Every player's finished matches to a target, the most won first; points a deal are what the "
        "player's side scored less what it conceded. A header click sorts.",
        "De afgewerkte partijen tot een doelscore van elke speler, de meeste gewonnen eerst; punten "
        "per spel zijn wat de ploeg van de speler scoorde min wat ze toeliet. Klik op een kop om te "
        "sorteren.",
    ),
    "standings.col.matches": ("Matches", "Partijen"),
    "standings.col.won": ("Won", "Gewonnen"),
    "standings.col.won_pct": ("Won %", "Gewonnen %"),
    "standings.col.net_per_deal": ("Points a deal", "Punten per spel"),
    "standings.unknown": (
        "There is no evening {evening} in this archive.",
        "Er is geen avond {evening} in dit archief.",
    ),
    "standings.caption": (
        "Blocks won first, then points. Updated as the tables save their deals (every {seconds} seconds).",
        "Eerst gewonnen blokken, dan punten. Bijgewerkt terwijl de tafels hun spellen bewaren (elke "
        "{seconds} seconden).",
    ),
    "standings.csv": ("Download the standings (CSV)", "Stand downloaden (CSV)"),
    "standings.html": ("Download the standings as a page (HTML)", "Stand downloaden als pagina (HTML)"),
    "standings.share": (
        "This page's address shows these standings to anyone on the café's network:",
        "Het adres van deze pagina toont deze stand aan iedereen op het netwerk van het café:",
    ),
    "standings.share_token": (
        "Shared on the café's network, every screen needs a token: the organiser's Club evening page "
        "gives the standings' join address, with its QR code, for the big screen.",
        "Gedeeld op het netwerk van het café heeft elk scherm een token nodig: de pagina Clubavond van "
        "de organisator geeft het deelnameadres van de stand, met de QR-code, voor het grote scherm.",
    ),
    "standings.col.place": ("#", "#"),
    "standings.col.player": ("Player", "Speler"),
    "standings.col.blocks_won": ("Blocks won", "Blokken gewonnen"),
    "standings.col.points": ("Points", "Punten"),
    "standings.col.blocks_played": ("Blocks played", "Blokken gespeeld"),
    "standings.col.deals": ("Deals", "Spellen"),
}
LABELS.update(EVENING_LABELS)

# The Train page: puzzles from a player's own costly decisions.
TRAIN_LABELS: dict[str, tuple[str, str]] = {
    "nav.train": ("Train", "Trainen"),
    "train.title": ("Train", "Trainen"),
    "train.intro": (
        "Puzzles from your own decisions that cost points, as you saw the table: your hand, the cards "
        "played, the calls and the score. The solver checks your answer from what you could see. A "
        "missed puzzle comes back later in the session, a solved one after a day, then three, seven...",
        "Puzzels uit uw eigen beslissingen die punten kostten, zoals u de tafel zag: uw hand, de "
        "gespeelde kaarten, de aankondigingen en de stand. De solver keurt uw antwoord met wat u "
        "kon zien. Een gemiste puzzel komt later in de sessie terug, een opgeloste na een dag, dan "
        "drie, zeven...",
    ),
    "train.player": ("Who are you?", "Wie bent u?"),
    "train.led": ("{name} led", "{name} kwam uit"),
    # it counts down as new puzzles are shown: "left", so the figure changing is what it says
    "train.new": ("New puzzles left this session", "Nieuwe puzzels in deze sessie"),
    # both conditions said: a mistake of 9.9 where a second card was nearly as good as the best
    # is no puzzle, and "clearly cost 2 or more" alone read as contradicted by the Mistakes page
    "train.none": (
        "No puzzles for {player} yet: they come from the decisions the solver reviewed that clearly "
        "cost 2 card points or more, where one card was clearly better than every other (by 2 card "
        "points or more: a choice between two nearly equal cards is no puzzle). The review runs on "
        "its own after an upload, or with `manillen analyze --depth solver`.",
        "Nog geen puzzels voor {player}: ze komen uit beslissingen die de solver bekeek en die duidelijk "
        "2 kaartpunten of meer kostten, waar één kaart duidelijk beter was dan elke andere (met 2 "
        "kaartpunten of meer: een keuze tussen twee bijna even goede kaarten is geen puzzel). De "
        "analyse loopt vanzelf na een upload, of met `manillen analyze --depth solver`.",
    ),
    "train.done": (
        "Done for now: {right} of {answered} right this session. The next puzzle is due {due}.",
        "Klaar voor nu: {right} van {answered} juist deze sessie. De volgende puzzel is {due} aan de beurt.",
    ),
    "train.more": ("More new puzzles", "Meer nieuwe puzzels"),
    "train.progress": (
        "{count} puzzles: {new} new, {due} due now, {boxed} for later.",
        "{count} puzzels: {new} nieuw, {due} nu aan de beurt, {boxed} voor later.",
    ),
    "train.progress_one": (
        "1 puzzle: {new} new, {due} due now, {boxed} for later.",
        "1 puzzel: {new} nieuw, {due} nu aan de beurt, {boxed} voor later.",
    ),
    "train.again": ("Missed earlier: here it is again.", "Eerder gemist: hier is hij opnieuw."),
    "train.check": ("Check", "Nakijken"),
    "train.pick": ("Your answer", "Uw antwoord"),
    "train.right": ("Right!", "Juist!"),
    "train.wrong": (
        "Not this time: you chose {answer}. This puzzle comes back later.",
        "Deze keer niet: u koos {answer}. Deze puzzel komt later terug.",
    ),
    "train.next": ("Next puzzle", "Volgende puzzel"),
    "train.replay": ("Open the deal in the replay", "Het spel openen in herspelen"),
    "train.never": ("none due", "geen"),
    "train.klop": ("klop", "kloppen"),
    "train.no klop": ("no klop", "niet kloppen"),
    "train.muil": ("muil", "muil"),
    **{f"train.{key}": REPORT_WORDS[key] for key in ("puzzle_title", "puzzle_source", "nothing")},
    **{f"train.question.{kind.value}": REPORT_WORDS[f"question.{kind.value}"] for kind in PuzzleKind},
}
LABELS.update(TRAIN_LABELS)

# The clause explanations of rules.LegalPlays.explain, in Dutch; English comes from the rules.
_CLAUSES_NL: dict[Clause, str] = {
    Clause.LEAD: "wie uitkomt, mag eender welke kaart spelen",
    Clause.FOLLOW: "moet {led} bijspelen",
    Clause.OVERTAKE: "moet {led} bijspelen en {best} overnemen: {whose} heeft de slag",
    Clause.BUY: "geen {led}: moet kopen met een troef ({trump}), {whose} heeft de slag met {best}",
    Clause.OVERBUY: "geen {led}: moet {best} overkopen met een hogere troef ({trump})",
    Clause.NO_UNDERBUY: "geen {led}: eender welke kaart behalve een troef onder {best} (niet onderkopen)",
    Clause.FORCED_UNDERBUY: "geen {led}: enkel troeven onder {best} over, dus onderkopen mag",
    Clause.ANY: "geen {led}: eender welke kaart ({whose} heeft de slag met {best})",
    Clause.MUIL_ANY: "geen {led}: muil heeft geen troef, eender welke kaart mag",
    Clause.MUST_UNDERBUY: (
        "geen {led}: moet een troef ({trump}) spelen, ook onder {best} (onderkopen verplicht)"
    ),
}
"""Every clause in Dutch: one missing (the forced underbuy, a house rule) stopped the Dutch pages."""


def text(key: str, lang: str, **values: Any) -> str:
    """The label ``key`` in ``lang``, with ``values`` filled in.

    >>> text("replay.takes", "nl", name="Bert", points=9)
    'Bert neemt 9'

    :raises KeyError: for a label that does not exist (a typo in a page).
    """
    english, dutch = LABELS[key]
    template = dutch if lang == "nl" else english
    said = template.format(**values) if values else template
    if template.startswith("{") and said.startswith(OPENERS_NL):  # "de blinde van Rik is aan de beurt"
        said = "D" + said[1:]
    return said


OPENERS_NL = ("de blinde van ", "de tafel van ", "de hand van ")
"""How the page's own Dutch names of a seat's place start (``replay.dummy_of``, ``refuse.slot_*``):
capitalised where one opens a sentence."""


def number_text(text: str, lang: str) -> str:
    """A number Python wrote (``"%.1f" % x``, ``f"{x:+.2f}"``) as ``lang`` writes it: a real minus
    sign in both languages, and a decimal comma in Dutch.

    Only for the text of one number (with its sign, unit or ``x`` before it): every ``.`` becomes
    the decimal sign and every ``-`` the minus sign.

    >>> number_text("-10.6", "en"), number_text("-0.44", "nl"), number_text("48.6%", "nl")
    ('−10.6', '−0,44', '48,6%')
    """
    text = text.replace("-", MINUS)
    return text.replace(".", ",") if lang == "nl" else text


def number(value: float, lang: str, decimals: int | None = None, *, signed: bool = False) -> str:
    """``value`` in ``lang`` (:func:`number_text`): ``decimals`` decimals, or for ``None`` as few
    as it needs (a whole number without any); with ``signed`` a ``+`` before a positive one.

    >>> number(0.44, "nl", 2), number(-3.25, "en", 1, signed=True), number(60.0, "nl"), number(2.5, "nl")
    ('0,44', '−3.2', '60', '2,5')
    """
    sign = "+" if signed else ""
    if decimals is None:
        written = f"{value:{sign}g}" if float(value).is_integer() else f"{value:{sign}}"
    else:
        written = f"{value:{sign}.{decimals}f}"
    return number_text(written, lang)


def count(value: int) -> str:
    """A count as every page writes it, thousands apart by a space in both languages.

    >>> count(4640), count(2272), count(987)
    ('4 640', '2 272', '987')
    """
    return f"{int(value):,}".replace(",", " ")


def wait(seconds: float, lang: str) -> str:
    """A wait as people round it (:func:`~manillen_replay.analysis.effort.wait_in_units`), in ``lang``.

    >>> wait(40, "en"), wait(150, "nl"), wait(3 * 3600 + 600, "nl")
    ('about 40 s', 'ongeveer 3 minuten', 'ongeveer 3,2 uur')
    """
    amount, unit = wait_in_units(seconds)
    return text(f"wait.{unit}", lang, amount=number(amount, lang, 1 if unit == "hours" else 0))


def translator(lang: str) -> Callable[..., str]:
    """A function ``t(key, **values)`` for one language, for the pages to call."""

    def t(key: str, **values: Any) -> str:
        return text(key, lang, **values)

    return t


def suit_name(suit: Suit) -> str:
    """A suit with its symbol and Dutch name, in both languages: ``♦ koeken``."""
    return f"{suit.symbol} {suit.dutch}"


def explain_clause(legal: LegalPlays, lang: str, winner_name: str | None = None) -> str:
    """Why these cards may be played, in the chosen language, the winning card with its suit
    symbol in both (``A♣``: the pages write cards so, not ``AC`` as the command line does).

    :param legal: the answer of :func:`manillen_replay.rules.legal_plays`.
    :param winner_name: the name of the player winning the trick so far.
    """
    # the pages watch the player, who is no "you": the partner is "the partner"
    if lang != "nl":
        text = legal.explain(winner_name, partner="the partner")
        if legal.winning_card is not None:
            text = re.sub(rf"\b{re.escape(str(legal.winning_card))}\b", legal.winning_card.symbol, text)
        return text
    led = legal.led_suit.dutch if legal.led_suit is not None else ""
    # the card with its symbol (10♦): "10D" spells the suit with an English letter
    best = legal.winning_card.symbol if legal.winning_card is not None else ""
    if winner_name and best:
        best = f"{best} van {winner_name}"
    trump = legal.trump.dutch if legal.trump is not None else ""
    whose = "de partner" if legal.partner_winning else "een tegenstander"
    explanation = _CLAUSES_NL[legal.clause].format(led=led, best=best, trump=trump, whose=whose)
    if legal.clause is Clause.FOLLOW and best:
        explanation += f" ({whose} heeft de slag met {best}; elke {led} mag)"
    return explanation


MONTHS = {
    "en": ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"),
    "nl": ("jan", "feb", "mrt", "apr", "mei", "jun", "jul", "aug", "sep", "okt", "nov", "dec"),
}


def month_label(month: datetime.date, lang: str) -> str:
    """A month as the axis of a chart shows it, in the chosen language.

    >>> month_label(datetime.date(2026, 3, 1), "nl")
    'mrt 2026'
    """
    return f"{MONTHS[lang if lang in MONTHS else 'en'][month.month - 1]} {month.year}"


def day_label(day: datetime.date, lang: str) -> str:
    """A day as people write it, day first in both languages (a Belgian reads 01/09 as the first
    of September).

    >>> day_label(datetime.date(2026, 12, 6), "nl"), day_label(datetime.date(2026, 3, 1), "en")
    ('6 dec 2026', '1 Mar 2026')
    """
    return f"{day.day} {MONTHS[lang if lang in MONTHS else 'en'][day.month - 1]} {day.year}"


def label_of(prefix: str, value: str, lang: str) -> str:
    """The label of a stored value such as a severity, or the value itself when it has none.

    >>> label_of("severity", "mistake", "nl")
    'fout'
    >>> label_of("kind", "missed_vetten", "en")
    'missed vetten'
    """
    if prefix == "kind":  # one list of the kinds' Dutch names, beside the explanations' words
        return kind_name(value, lang)
    key = f"{prefix}.{value}"
    if key in LABELS:
        return text(key, lang)
    if prefix == "kind":
        return kind_name(value, lang)  # the finder's own names (vetten gemist, ...)
    return value.replace("_", " ")
