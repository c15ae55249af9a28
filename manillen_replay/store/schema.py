"""The archive's schema: its tables and views, the numbered migrations that build them, its version.

Table and column names are a public interface documented in ``docs/sql.md``; they change only
through a new migration.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import duckdb

from ..cards import CARD_TEXT
from .connection import _first, transaction
from .errors import ArchiveError

# The card texts indexed by the card number (suit * 9 + rank), so the views can turn a mask
# of cards into their texts.
_CARD_TEXT_SQL = "[" + ", ".join(f"'{text}'" for text in CARD_TEXT) + "]"


def _cards_of_mask_sql(mask: str) -> str:
    """SQL for the card texts of a bit mask column, lowest card first (no lambda, so it may
    define a generated column)."""
    bits = ", ".join(f"(({mask} >> {card}) & 1) = 1" for card in range(len(CARD_TEXT)))
    return f"list_where({_CARD_TEXT_SQL}, [{bits}])"


def _player_summary_view(played_only: bool) -> str:
    """The ``player_summary`` view. Migration 1 counted a scoresheet-only deal (a score without
    its cards) in ``deals_won`` and ``deals_lost`` but not in ``deals`` (deals played to the end),
    so a win rate over them passed 100 %; migration 21 counts deals played to the end in all three."""
    won, lost = "won", "score_against > 0"
    if played_only:
        won, lost = f"kind = 'played' AND pd.{won}", f"kind = 'played' AND pd.{lost}"
    view = """CREATE OR REPLACE VIEW player_summary AS
SELECT
    pd.player,
    count(DISTINCT pd.match_id) AS matches,
    count(*) FILTER (WHERE pd.kind = 'played') AS deals,
    count(*) FILTER (WHERE pd.kind = 'played' AND pd.is_dealer) AS deals_dealt,
    count(*) FILTER (WHERE pd.{won}) AS deals_won,
    count(*) FILTER (WHERE pd.{lost}) AS deals_lost,
    round(avg(pd.points_taken) FILTER (WHERE pd.kind = 'played'), 2)::DOUBLE AS avg_points_taken,
    sum(pd.score_for)::BIGINT AS score_for,
    sum(pd.score_against)::BIGINT AS score_against,
    sum(pd.tricks_won)::BIGINT AS tricks_won,
    sum(pd.cards_played)::BIGINT AS cards_played,
    sum(pd.violations)::BIGINT AS violations,
    round(100.0 * sum(pd.violations) / nullif(sum(pd.cards_played), 0), 2)::DOUBLE
        AS violations_per_100_cards,
    (SELECT count(*) FROM matches m JOIN seats s USING (match_id)
     WHERE s.player = pd.player AND m.winner = s.team AND m.format = 'target') AS matches_won
FROM player_deals pd
GROUP BY pd.player;
"""
    return view.replace("{won}", won).replace("{lost}", lost)


_MIGRATION_1 = (
    """
CREATE TABLE matches (
    match_id VARCHAR PRIMARY KEY,
    import_order BIGINT NOT NULL,
    source VARCHAR,
    line INTEGER,
    date DATE,
    venue VARCHAR,
    event VARCHAR,
    notes VARCHAR,
    variant VARCHAR NOT NULL,
    players INTEGER NOT NULL,
    seat0 VARCHAR,
    seat1 VARCHAR,
    seat2 VARCHAR,
    seat3 VARCHAR,
    seat4 VARCHAR,
    seat5 VARCHAR,
    rules VARCHAR NOT NULL,
    format VARCHAR NOT NULL,
    target INTEGER,
    deals INTEGER NOT NULL,
    score_0 INTEGER NOT NULL,
    score_1 INTEGER NOT NULL,
    score_2 INTEGER,
    final_score_0 INTEGER NOT NULL,
    final_score_1 INTEGER NOT NULL,
    final_score_2 INTEGER,
    winner INTEGER,
    finished BOOLEAN NOT NULL,
    violations INTEGER NOT NULL,
    irregularities INTEGER NOT NULL,
    record VARCHAR NOT NULL,
    content_hash VARCHAR NOT NULL,
    imported_at TIMESTAMP NOT NULL
);
CREATE TABLE seats (
    match_id VARCHAR NOT NULL,
    seat INTEGER NOT NULL,
    player VARCHAR NOT NULL,
    team INTEGER NOT NULL
);
CREATE TABLE deal_seats (
    match_id VARCHAR NOT NULL,
    deal INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    player VARCHAR NOT NULL,
    team INTEGER NOT NULL,
    is_dummy BOOLEAN NOT NULL
);
CREATE TABLE deals (
    match_id VARCHAR NOT NULL,
    deal INTEGER NOT NULL,
    block INTEGER,
    dealer INTEGER NOT NULL,
    dealer_player VARCHAR NOT NULL,
    dealing_team INTEGER NOT NULL,
    kind VARCHAR NOT NULL,
    contract VARCHAR,
    trump VARCHAR,
    chooser INTEGER,
    en_face BOOLEAN NOT NULL,
    knocks INTEGER NOT NULL,
    carried BOOLEAN NOT NULL,
    multiplier INTEGER,
    tricks INTEGER NOT NULL,
    points_0 INTEGER,
    points_1 INTEGER,
    tie BOOLEAN NOT NULL,
    score_team INTEGER,
    score_points INTEGER,
    has_recorded BOOLEAN NOT NULL,
    recorded_team INTEGER,
    recorded_points INTEGER,
    score_mismatch BOOLEAN NOT NULL,
    penalty_0 INTEGER NOT NULL,
    penalty_1 INTEGER NOT NULL,
    match_score_0 INTEGER NOT NULL,
    match_score_1 INTEGER NOT NULL,
    match_score_2 INTEGER,
    counted BOOLEAN NOT NULL,
    violations INTEGER NOT NULL,
    irregularities VARCHAR[] NOT NULL
);
CREATE TABLE declarations (
    match_id VARCHAR NOT NULL,
    deal INTEGER NOT NULL,
    position INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    player VARCHAR NOT NULL,
    call VARCHAR NOT NULL,
    suit VARCHAR
);
CREATE TABLE hand_rows (
    match_id VARCHAR NOT NULL,
    deal INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    player VARCHAR NOT NULL,
    points INTEGER NOT NULL,
    trumps INTEGER,
    mask BIGINT NOT NULL
);
CREATE VIEW hands AS SELECT *, HAND_CARDS AS cards FROM hand_rows;
CREATE TABLE tricks (
    match_id VARCHAR NOT NULL,
    deal INTEGER NOT NULL,
    trick INTEGER NOT NULL,
    leader INTEGER NOT NULL,
    leader_player VARCHAR NOT NULL,
    led_suit VARCHAR NOT NULL,
    cards INTEGER NOT NULL,
    winner INTEGER,
    winner_player VARCHAR,
    winner_team INTEGER,
    points INTEGER NOT NULL
);
CREATE TABLE play_rows (
    match_id VARCHAR NOT NULL,
    deal INTEGER NOT NULL,
    trick INTEGER NOT NULL,
    position INTEGER NOT NULL,
    play INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    player VARCHAR NOT NULL,
    team INTEGER NOT NULL,
    card VARCHAR NOT NULL,
    suit VARCHAR NOT NULL,
    rank VARCHAR NOT NULL,
    points INTEGER NOT NULL,
    is_trump BOOLEAN NOT NULL,
    legal BOOLEAN NOT NULL,
    violation VARCHAR,
    winning_seat INTEGER NOT NULL,
    clause VARCHAR NOT NULL,
    legal_mask BIGINT NOT NULL
);
CREATE VIEW plays AS SELECT *, LEGAL_CARDS AS legal_cards FROM play_rows;
CREATE TABLE annotations (
    annotation_id BIGINT PRIMARY KEY,
    match_id VARCHAR NOT NULL,
    deal INTEGER NOT NULL,
    trick INTEGER,
    play INTEGER,
    author VARCHAR NOT NULL,
    text VARCHAR NOT NULL,
    tags VARCHAR[],
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
CREATE TABLE findings (
    finding_id BIGINT PRIMARY KEY,
    match_id VARCHAR NOT NULL,
    deal INTEGER,
    trick INTEGER,
    play INTEGER,
    seat INTEGER,
    player VARCHAR,
    kind VARCHAR NOT NULL,
    category VARCHAR NOT NULL CHECK (category IN ('rule', 'scoring', 'procedure', 'strategy')),
    severity VARCHAR NOT NULL CHECK (severity IN ('info', 'inaccuracy', 'mistake', 'blunder')),
    card VARCHAR,
    better VARCHAR[],
    points DOUBLE,
    explanation VARCHAR,
    explanation_nl VARCHAR,
    detector VARCHAR NOT NULL
);
CREATE TABLE rejects (
    source VARCHAR,
    line INTEGER,
    pointer VARCHAR NOT NULL,
    message VARCHAR NOT NULL,
    problems VARCHAR[] NOT NULL,
    raw VARCHAR NOT NULL,
    rejected_at TIMESTAMP NOT NULL
);
CREATE VIEW player_deals AS
SELECT
    d.match_id,
    d.deal,
    m.date,
    m.variant,
    d.block,
    s.seat,
    s.player,
    s.team,
    d.dealer = s.seat AS is_dealer,
    d.dealing_team = s.team AS on_dealing_team,
    d.kind,
    d.contract,
    d.trump,
    d.multiplier,
    d.knocks,
    CASE s.team WHEN 0 THEN d.points_0 ELSE d.points_1 END AS points_taken,
    CASE s.team WHEN 0 THEN d.points_1 ELSE d.points_0 END AS points_given,
    CASE WHEN d.score_team = s.team THEN d.score_points ELSE 0 END AS score_for,
    CASE WHEN d.score_team = 1 - s.team THEN d.score_points ELSE 0 END AS score_against,
    d.score_team = s.team AS won,
    d.tie,
    coalesce(t.tricks_won, 0) AS tricks_won,
    coalesce(p.cards_played, 0) AS cards_played,
    coalesce(p.violations, 0) AS violations,
    d.counted
FROM deals d
JOIN matches m USING (match_id)
JOIN deal_seats s ON s.match_id = d.match_id AND s.deal = d.deal AND NOT s.is_dummy
LEFT JOIN (
    SELECT match_id, deal, winner_player AS player, count(*) AS tricks_won
    FROM tricks WHERE winner IS NOT NULL GROUP BY ALL
) t ON t.match_id = d.match_id AND t.deal = d.deal AND t.player = s.player
LEFT JOIN (
    SELECT match_id, deal, player, count(*) AS cards_played, count(violation) AS violations
    FROM plays GROUP BY ALL
) p ON p.match_id = d.match_id AND p.deal = d.deal AND p.player = s.player;
PLAYER_SUMMARYCREATE VIEW player_findings AS
WITH cards AS (
    SELECT p.player, date_trunc('month', coalesce(m.date, m.imported_at::DATE))::DATE AS month,
           count(*) AS cards_played
    FROM plays p JOIN matches m USING (match_id)
    GROUP BY ALL
), found AS (
    SELECT f.player, date_trunc('month', coalesce(m.date, m.imported_at::DATE))::DATE AS month,
           f.kind, f.category, f.severity, count(*) AS findings
    FROM findings f JOIN matches m USING (match_id)
    WHERE f.player IS NOT NULL
    GROUP BY ALL
)
SELECT found.player, found.month, found.kind, found.category, found.severity, found.findings,
       coalesce(cards.cards_played, 0) AS cards_played,
       round(100.0 * found.findings / nullif(cards.cards_played, 0), 3)::DOUBLE AS per_100_cards
FROM found LEFT JOIN cards USING (player, month);
""".replace("LEGAL_CARDS", _cards_of_mask_sql("legal_mask"))
    .replace("HAND_CARDS", _cards_of_mask_sql("mask"))
    .replace("PLAYER_SUMMARY", _player_summary_view(played_only=False))
)

_MIGRATION_2 = """
ALTER TABLE matches ADD COLUMN analysed_at TIMESTAMP;
"""


def _player_findings_view(analysed_only: bool) -> str:
    """The ``player_findings`` view: findings per player and month against the cards played.
    Migration 3 made it; migration 20 counts the cards of analysed matches only (a match
    imported and not yet analysed has no findings, and its cards made every rate look better: a
    month waiting for the review read 0), which needs ``matches.analysis_depth`` (migration 5)."""
    analysed = "    WHERE m.analysis_depth IS NOT NULL\n" if analysed_only else ""
    return f"""
CREATE OR REPLACE VIEW player_findings AS
WITH months AS (
    SELECT p.player, date_trunc('month', coalesce(m.date, m.imported_at::DATE))::DATE AS month,
           count(*) AS cards_played, count(DISTINCT (p.match_id, p.deal)) AS deals_played
    FROM plays p JOIN matches m USING (match_id)
{analysed}    GROUP BY ALL
), found AS (
    SELECT f.player, date_trunc('month', coalesce(m.date, m.imported_at::DATE))::DATE AS month,
           f.kind, f.category, f.severity, count(*) AS findings, sum(coalesce(f.points, 0)) AS points
    FROM findings f JOIN matches m USING (match_id)
    WHERE f.player IS NOT NULL
    GROUP BY ALL
)
SELECT found.player, found.month, found.kind, found.category, found.severity, found.findings,
       coalesce(months.cards_played, 0) AS cards_played,
       round(100.0 * found.findings / nullif(months.cards_played, 0), 3)::DOUBLE AS per_100_cards,
       found.points::DOUBLE AS points,
       coalesce(months.deals_played, 0) AS deals_played,
       round(found.points / nullif(months.deals_played, 0), 3)::DOUBLE AS points_per_deal
FROM found LEFT JOIN months USING (player, month);
"""


_MIGRATION_3 = _player_findings_view(analysed_only=False)

_MIGRATION_4 = """
CREATE TABLE blocks (
    match_id VARCHAR NOT NULL,
    block INTEGER NOT NULL,
    team INTEGER NOT NULL,
    players VARCHAR[] NOT NULL,
    score INTEGER NOT NULL,
    won BOOLEAN NOT NULL
);
CREATE VIEW blocks_won AS
SELECT b.match_id, p.player, count(*) FILTER (WHERE b.won) AS blocks_won, count(*) AS blocks
FROM blocks b, unnest(b.players) AS p(player)
GROUP BY b.match_id, p.player;
"""

_MIGRATION_5 = """
ALTER TABLE matches ADD COLUMN analysis_depth VARCHAR;
UPDATE matches SET analysis_depth = 'heuristic' WHERE analysed_at IS NOT NULL;
CREATE TABLE play_costs (
    match_id VARCHAR NOT NULL,
    deal INTEGER NOT NULL,
    trick INTEGER NOT NULL,
    play INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    player VARCHAR,
    card VARCHAR NOT NULL,
    dd_cost INTEGER NOT NULL,
    view_cost DOUBLE,
    best VARCHAR[] NOT NULL,
    hindsight_best VARCHAR[] NOT NULL,
    layouts INTEGER NOT NULL,
    exact BOOLEAN NOT NULL,
    legal BOOLEAN NOT NULL,
    forced BOOLEAN NOT NULL
);
CREATE TABLE card_values (
    match_id VARCHAR NOT NULL,
    deal INTEGER NOT NULL,
    trick INTEGER NOT NULL,
    play INTEGER NOT NULL,
    card VARCHAR NOT NULL,
    hindsight INTEGER NOT NULL,
    view DOUBLE
);
CREATE VIEW player_accuracy AS
SELECT CASE WHEN grouping(match_id) = 1 THEN 'all' WHEN grouping(deal) = 1 THEN 'match' ELSE 'deal' END
           AS scope,
       match_id, deal, player,
       count(*) AS cards,
       avg(100.0 * pow(0.5, view_cost / 5.0)) AS accuracy,
       avg(view_cost) AS avg_view_cost,
       avg(dd_cost) AS avg_dd_cost
FROM play_costs
WHERE legal AND NOT forced AND view_cost IS NOT NULL AND player IS NOT NULL
GROUP BY GROUPING SETS ((match_id, deal, player), (match_id, player), (player));
"""


_MIGRATION_6 = """
CREATE TABLE call_decisions (
    match_id VARCHAR NOT NULL,
    deal INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    player VARCHAR,
    call VARCHAR NOT NULL,
    chosen VARCHAR NOT NULL,
    best VARCHAR NOT NULL,
    loss DOUBLE NOT NULL,
    spread DOUBLE NOT NULL,
    layouts INTEGER NOT NULL
);
CREATE OR REPLACE VIEW player_accuracy AS
WITH spreads AS (
    SELECT match_id, deal, trick, play, max(view) - min(view) AS spread
    FROM card_values GROUP BY match_id, deal, trick, play
),
decisions AS (
    SELECT c.match_id, c.deal, c.player, c.view_cost AS cost, c.dd_cost, 'card' AS what
    FROM play_costs c JOIN spreads s USING (match_id, deal, trick, play)
    WHERE c.legal AND NOT c.forced AND c.view_cost IS NOT NULL AND c.player IS NOT NULL
      AND s.spread >= 1.0
    UNION ALL
    SELECT match_id, deal, player, greatest(loss, 0.0), NULL, 'call'
    FROM call_decisions WHERE player IS NOT NULL AND spread >= 1.0
)
SELECT CASE WHEN grouping(match_id) = 1 THEN 'all' WHEN grouping(deal) = 1 THEN 'match' ELSE 'deal' END
           AS scope,
       match_id, deal, player,
       count(*) FILTER (WHERE what = 'card') AS cards,
       count(*) FILTER (WHERE what = 'call') AS calls,
       count(*) AS decisions,
       avg(100.0 * pow(0.5, cost / 5.0)) AS accuracy,
       avg(cost) FILTER (WHERE what = 'card') AS avg_view_cost,
       avg(dd_cost) AS avg_dd_cost
FROM decisions
GROUP BY GROUPING SETS ((match_id, deal, player), (match_id, player), (player));
"""


_PLAYER_LEDGER_TOTALS = """
SELECT CASE WHEN grouping(evening) = 1 THEN 'all' WHEN grouping(match_id) = 1 THEN 'evening'
            WHEN grouping(deal) = 1 THEN 'match' ELSE 'deal' END AS scope,
       evening, match_id, deal, player,
       count(*) AS deals,
       CAST(sum(cards) AS BIGINT) AS cards,
       CAST(sum(given_away) AS BIGINT) AS given_away,
       CAST(sum(partner_given_away) AS BIGINT) AS partner_given_away,
       CAST(sum(won_back) AS BIGINT) AS won_back,
       CAST(sum(illegal) AS BIGINT) AS illegal,
       CAST(sum(points) AS BIGINT) AS points,
       CASE WHEN count(mistakes) = count(*) THEN sum(mistakes) END AS mistakes,
       CASE WHEN count(partner_mistakes) = count(*) THEN sum(partner_mistakes) END AS partner_mistakes,
       CASE WHEN count(opponent_mistakes) = count(*) THEN sum(opponent_mistakes) END AS opponent_mistakes,
       CASE WHEN count(luck) = count(*) THEN sum(luck) END AS luck,
       sum(calls) AS calls
FROM rows
GROUP BY GROUPING SETS (
    (evening, match_id, deal, player), (evening, match_id, player), (evening, player), (player)
);
"""
"""The ``player_ledger`` view's sums over its ``rows``, by scope (the same in every version)."""


_MIGRATION_7 = (
    """
CREATE VIEW deal_ledger AS
WITH first_lead AS (
    SELECT c.match_id, c.deal, c.seat % 2 AS team, max(v.hindsight) AS value
    FROM play_costs c
    JOIN card_values v
      ON v.match_id = c.match_id AND v.deal = c.deal AND v.trick = c.trick AND v.play = c.play
    WHERE c.trick = 1 AND c.play = 1
    GROUP BY ALL
),
sides AS (
    SELECT match_id, deal, seat % 2 AS team,
           CAST(coalesce(sum(dd_cost) FILTER (WHERE legal), 0) AS BIGINT) AS given_away,
           CASE WHEN count(*) FILTER (WHERE legal AND view_cost IS NULL) = 0
                THEN coalesce(sum(view_cost) FILTER (WHERE legal), 0) END AS mistakes,
           count(*) FILTER (WHERE NOT legal) AS illegal_cards
    FROM play_costs
    GROUP BY ALL
),
calls AS (
    SELECT match_id, deal, seat % 2 AS team, sum(points) AS calls
    FROM findings
    WHERE kind IN ('trump_choice', 'knock_choice') AND detector = 'builtin' AND seat IS NOT NULL
    GROUP BY ALL
),
teams AS (
    SELECT d.match_id, d.deal, t.team, d.multiplier,
           CASE WHEN t.team = f.team THEN f.value ELSE 60 - f.value END AS cards,
           own.given_away, other.given_away AS won_back,
           CASE WHEN t.team = 0 THEN d.points_0 ELSE d.points_1 END AS points,
           own.mistakes, other.mistakes AS opponent_mistakes,
           own.illegal_cards + other.illegal_cards AS illegal_cards,
           c.calls
    FROM deals d
    JOIN first_lead f ON f.match_id = d.match_id AND f.deal = d.deal
    CROSS JOIN (VALUES (0), (1)) AS t(team)
    JOIN sides own ON own.match_id = d.match_id AND own.deal = d.deal AND own.team = t.team
    JOIN sides other ON other.match_id = d.match_id AND other.deal = d.deal AND other.team = 1 - t.team
    LEFT JOIN calls c ON c.match_id = d.match_id AND c.deal = d.deal AND c.team = t.team
    WHERE d.kind = 'played' AND d.points_0 IS NOT NULL
)
SELECT match_id, deal, team, multiplier, cards, given_away, won_back,
       points - cards + given_away - won_back AS illegal,
       points, mistakes, opponent_mistakes,
       (won_back - opponent_mistakes) - (given_away - mistakes) AS luck,
       illegal_cards, calls
FROM teams;
CREATE VIEW player_ledger AS
WITH seats AS (
    SELECT match_id, deal, seat,
           CAST(coalesce(sum(dd_cost) FILTER (WHERE legal), 0) AS BIGINT) AS given_away,
           CASE WHEN count(*) FILTER (WHERE legal AND view_cost IS NULL) = 0
                THEN coalesce(sum(view_cost) FILTER (WHERE legal), 0) END AS mistakes
    FROM play_costs
    GROUP BY ALL
),
seat_calls AS (
    SELECT match_id, deal, seat, sum(points) AS calls
    FROM findings
    WHERE kind IN ('trump_choice', 'knock_choice') AND detector = 'builtin' AND seat IS NOT NULL
    GROUP BY ALL
),
rows AS (
    SELECT l.match_id, l.deal, coalesce(m.date, CAST(m.imported_at AS DATE)) AS evening, s.player,
           l.cards, me.given_away, mate.given_away AS partner_given_away, l.won_back, l.illegal, l.points,
           me.mistakes, mate.mistakes AS partner_mistakes, l.opponent_mistakes, l.luck, sc.calls
    FROM deal_ledger l
    JOIN matches m ON m.match_id = l.match_id
    JOIN deal_seats s ON s.match_id = l.match_id AND s.deal = l.deal AND s.seat % 2 = l.team
    JOIN seats me ON me.match_id = l.match_id AND me.deal = l.deal AND me.seat = s.seat
    JOIN seats mate ON mate.match_id = l.match_id AND mate.deal = l.deal AND mate.seat = (s.seat + 2) % 4
    LEFT JOIN seat_calls sc ON sc.match_id = l.match_id AND sc.deal = l.deal AND sc.seat = s.seat
    WHERE s.player IS NOT NULL
)
"""
    + _PLAYER_LEDGER_TOTALS
)


def _ledger_views(calls_reviewed: bool) -> str:
    """The ``deal_ledger`` and ``player_ledger`` views of every variant's sides. Migration 8 took
    what the calls gave away from the call findings (``trump_choice``, ``knock_choice``); at the
    solver depth a seat's knock keeps one finding, and a missed klop (``klop_missed``) kept over
    ``knock_choice`` left its loss out of the ledger while the accuracy counted it. Migration 21
    takes every reviewed call's loss from ``call_decisions``, as ``player_accuracy`` does."""
    if calls_reviewed:
        cost, source, where = "sum(greatest(c.loss, 0.0))", "call_decisions", ""
    else:
        cost, source = "sum(c.points)", "findings"
        where = "    WHERE c.kind IN ('trump_choice', 'knock_choice') AND c.detector = 'builtin'\n"
    views = """
CREATE OR REPLACE VIEW deal_ledger AS
WITH seat_costs AS (
    SELECT c.*, s.team
    FROM play_costs c
    JOIN deal_seats s ON s.match_id = c.match_id AND s.deal = c.deal AND s.seat = c.seat
),
first_lead AS (
    SELECT c.match_id, c.deal, c.team, max(v.hindsight) AS value
    FROM seat_costs c
    JOIN card_values v
      ON v.match_id = c.match_id AND v.deal = c.deal AND v.trick = c.trick AND v.play = c.play
    WHERE c.trick = 1 AND c.play = 1
    GROUP BY ALL
),
laid_aside AS (
    -- cards laid aside (three, six_short) count for the side against the trump maker; the
    -- solver's values are the points still to be taken in tricks
    -- an INTEGER, not sum()'s HUGEINT, which Parquet lacks (an export wrote the cards as DOUBLE)
    SELECT d.match_id, d.deal, 1 - s.team AS team, CAST(60 - sum(t.points) AS INTEGER) AS points
    FROM deals d
    JOIN tricks t ON t.match_id = d.match_id AND t.deal = d.deal
    JOIN deal_seats s
      ON s.match_id = d.match_id AND s.deal = d.deal AND s.seat = coalesce(d.chooser, d.dealer)
    GROUP BY ALL
),
sides AS (
    SELECT match_id, deal, team,
           CAST(coalesce(sum(dd_cost) FILTER (WHERE legal), 0) AS BIGINT) AS given_away,
           CASE WHEN count(*) FILTER (WHERE legal AND view_cost IS NULL) = 0
                THEN coalesce(sum(view_cost) FILTER (WHERE legal), 0) END AS mistakes,
           count(*) FILTER (WHERE NOT legal) AS illegal_cards
    FROM seat_costs
    GROUP BY ALL
),
calls AS (
    SELECT c.match_id, c.deal, s.team, {cost} AS calls
    FROM {source} c
    JOIN deal_seats s ON s.match_id = c.match_id AND s.deal = c.deal AND s.seat = c.seat
{where}    GROUP BY ALL
),
teams AS (
    SELECT d.match_id, d.deal, t.team, d.multiplier,
           CASE WHEN t.team = f.team THEN f.value + a.points * (a.team = f.team)::INTEGER
                ELSE 60 - f.value - a.points * (a.team = f.team)::INTEGER END AS cards,
           coalesce(own.given_away, 0) AS given_away, coalesce(other.given_away, 0) AS won_back,
           CASE WHEN t.team = 0 THEN d.points_0 ELSE d.points_1 END AS points,
           own.mistakes, other.mistakes AS opponent_mistakes,
           coalesce(own.illegal_cards, 0) + coalesce(other.illegal_cards, 0) AS illegal_cards,
           c.calls
    FROM deals d
    JOIN first_lead f ON f.match_id = d.match_id AND f.deal = d.deal
    JOIN laid_aside a ON a.match_id = d.match_id AND a.deal = d.deal
    CROSS JOIN (VALUES (0), (1)) AS t(team)
    LEFT JOIN sides own ON own.match_id = d.match_id AND own.deal = d.deal AND own.team = t.team
    LEFT JOIN sides other ON other.match_id = d.match_id AND other.deal = d.deal AND other.team = 1 - t.team
    LEFT JOIN calls c ON c.match_id = d.match_id AND c.deal = d.deal AND c.team = t.team
    WHERE d.kind = 'played' AND d.points_0 IS NOT NULL
)
SELECT match_id, deal, team, multiplier, cards, given_away, won_back,
       points - cards + given_away - won_back AS illegal,
       points, mistakes, opponent_mistakes,
       (won_back - opponent_mistakes) - (given_away - mistakes) AS luck,
       illegal_cards, calls
FROM teams;
CREATE OR REPLACE VIEW player_ledger AS
WITH seats AS (
    SELECT c.match_id, c.deal, s.team, s.player,
           CAST(coalesce(sum(c.dd_cost) FILTER (WHERE c.legal), 0) AS BIGINT) AS given_away,
           CASE WHEN count(*) FILTER (WHERE c.legal AND c.view_cost IS NULL) = 0
                THEN coalesce(sum(c.view_cost) FILTER (WHERE c.legal), 0) END AS mistakes
    FROM play_costs c
    JOIN deal_seats s ON s.match_id = c.match_id AND s.deal = c.deal AND s.seat = c.seat
    GROUP BY ALL
),
people AS (
    SELECT me.match_id, me.deal, me.team, me.player, me.given_away, me.mistakes,
           coalesce(sum(mate.given_away), 0) AS partner_given_away,
           CASE WHEN count(mate.player) = 0 THEN 0
                WHEN count(mate.mistakes) = count(mate.player) THEN sum(mate.mistakes) END
               AS partner_mistakes
    FROM seats me
    LEFT JOIN seats mate
      ON mate.match_id = me.match_id AND mate.deal = me.deal AND mate.team = me.team
     AND mate.player <> me.player
    GROUP BY ALL
),
seat_calls AS (
    SELECT c.match_id, c.deal, s.player, {cost} AS calls
    FROM {source} c
    JOIN deal_seats s ON s.match_id = c.match_id AND s.deal = c.deal AND s.seat = c.seat
{where}    GROUP BY ALL
),
rows AS (
    SELECT l.match_id, l.deal, coalesce(m.date, CAST(m.imported_at AS DATE)) AS evening, p.player,
           l.cards, p.given_away, p.partner_given_away, l.won_back, l.illegal, l.points,
           p.mistakes, p.partner_mistakes, l.opponent_mistakes, l.luck, sc.calls
    FROM deal_ledger l
    JOIN matches m ON m.match_id = l.match_id
    JOIN people p ON p.match_id = l.match_id AND p.deal = l.deal AND p.team = l.team
    LEFT JOIN seat_calls sc ON sc.match_id = l.match_id AND sc.deal = l.deal AND sc.player = p.player
)
"""
    return (
        views.replace("{cost}", cost).replace("{source}", source).replace("{where}", where)
        + _PLAYER_LEDGER_TOTALS
    )


_MIGRATION_8 = _ledger_views(calls_reviewed=False)


_MIGRATION_9 = """
CREATE TABLE IF NOT EXISTS finding_lines (
    match_id VARCHAR NOT NULL,
    deal INTEGER NOT NULL,
    trick INTEGER NOT NULL,
    play INTEGER NOT NULL,
    line VARCHAR NOT NULL,
    layout VARCHAR NOT NULL,
    first_card VARCHAR NOT NULL,
    step INTEGER NOT NULL,
    line_trick INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    player VARCHAR,
    card VARCHAR NOT NULL,
    held VARCHAR[] NOT NULL,
    winner INTEGER NOT NULL,
    trick_points INTEGER NOT NULL,
    team_points INTEGER NOT NULL,
    layouts INTEGER
);
"""


_MIGRATION_10 = """
CREATE TABLE match_versions (
    match_id VARCHAR NOT NULL,
    version INTEGER NOT NULL,
    record VARCHAR NOT NULL,
    content_hash VARCHAR NOT NULL,
    deals INTEGER NOT NULL,
    source VARCHAR,
    line INTEGER,
    imported_at TIMESTAMP NOT NULL,
    replaced_at TIMESTAMP NOT NULL,
    PRIMARY KEY (match_id, version)
);
"""


_MIGRATION_11 = """
ALTER TABLE play_costs ADD COLUMN IF NOT EXISTS view_error DOUBLE;
"""


_MIGRATION_12 = """
CREATE TABLE evenings (
    evening_id VARCHAR PRIMARY KEY,
    date DATE NOT NULL,
    venue VARCHAR NOT NULL,
    players VARCHAR[] NOT NULL,
    rules VARCHAR NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE TABLE evening_tables (
    evening_id VARCHAR NOT NULL,
    round INTEGER NOT NULL,
    table_number INTEGER NOT NULL,
    seats VARCHAR[] NOT NULL,
    match_id VARCHAR NOT NULL,
    scoresheet_only BOOLEAN NOT NULL,
    PRIMARY KEY (evening_id, round, table_number)
);
CREATE TABLE saves (
    save_id VARCHAR PRIMARY KEY,
    match_id VARCHAR NOT NULL,
    deals INTEGER NOT NULL,
    saved_at TIMESTAMP NOT NULL
);
"""


_MIGRATION_13 = """
ALTER TABLE call_decisions ADD COLUMN IF NOT EXISTS loss_error DOUBLE;
"""


_MIGRATION_14 = """
ALTER TABLE annotations ADD COLUMN IF NOT EXISTS line VARCHAR[];
"""


_MIGRATION_15 = """
CREATE TABLE IF NOT EXISTS puzzle_reviews (
    player VARCHAR NOT NULL,
    puzzle_id VARCHAR NOT NULL,
    box INTEGER NOT NULL,
    due_at TIMESTAMP NOT NULL,
    answers INTEGER NOT NULL,
    misses INTEGER NOT NULL,
    last_answer VARCHAR NOT NULL,
    last_right BOOLEAN NOT NULL,
    answered_at TIMESTAMP NOT NULL,
    PRIMARY KEY (player, puzzle_id)
);
ALTER TABLE call_decisions ADD COLUMN IF NOT EXISTS options VARCHAR;
"""


_MIGRATION_16 = """
CREATE TABLE IF NOT EXISTS club_rules (
    name VARCHAR PRIMARY KEY,
    variant VARCHAR NOT NULL,
    rules VARCHAR NOT NULL,
    saved_at TIMESTAMP NOT NULL
);
"""

_MIGRATION_17 = """
-- a card of the dummy of three_dummy is the dealer's decision: its finding is filed under the
-- dealer (as deal_seats and plays credit the card), and so is its cost in player_accuracy;
-- findings stored before are filed so too
UPDATE findings f SET player = s.player
FROM deal_seats s
WHERE s.is_dummy AND s.match_id = f.match_id AND s.deal = f.deal AND s.seat = f.seat;
UPDATE play_costs c SET player = s.player
FROM deal_seats s
WHERE s.is_dummy AND s.match_id = c.match_id AND s.deal = c.deal AND s.seat = c.seat;
CREATE OR REPLACE VIEW player_accuracy AS
WITH spreads AS (
    SELECT match_id, deal, trick, play, max(view) - min(view) AS spread
    FROM card_values GROUP BY match_id, deal, trick, play
),
decisions AS (
    SELECT c.match_id, c.deal, coalesce(d.player, c.player) AS player, c.view_cost AS cost, c.dd_cost,
           'card' AS what
    FROM play_costs c JOIN spreads s USING (match_id, deal, trick, play)
    LEFT JOIN deal_seats d ON d.match_id = c.match_id AND d.deal = c.deal AND d.seat = c.seat
    WHERE c.legal AND NOT c.forced AND c.view_cost IS NOT NULL AND coalesce(d.player, c.player) IS NOT NULL
      AND s.spread >= 1.0
    UNION ALL
    SELECT match_id, deal, player, greatest(loss, 0.0), NULL, 'call'
    FROM call_decisions WHERE player IS NOT NULL AND spread >= 1.0
)
SELECT CASE WHEN grouping(match_id) = 1 THEN 'all' WHEN grouping(deal) = 1 THEN 'match' ELSE 'deal' END
           AS scope,
       match_id, deal, player,
       count(*) FILTER (WHERE what = 'card') AS cards,
       count(*) FILTER (WHERE what = 'call') AS calls,
       count(*) AS decisions,
       avg(100.0 * pow(0.5, cost / 5.0)) AS accuracy,
       avg(cost) FILTER (WHERE what = 'card') AS avg_view_cost,
       avg(dd_cost) AS avg_dd_cost
FROM decisions
GROUP BY GROUPING SETS ((match_id, deal, player), (match_id, player), (player));
"""

_MIGRATION_18 = """
-- the trump review prunes an option the call made beats by a finding's margin on every layout of
-- its early look: that option's score in `options` is then an upper bound, not a value
ALTER TABLE call_decisions ADD COLUMN IF NOT EXISTS options_at_most VARCHAR[];
"""

_MIGRATION_19 = """
-- a replaced version keeps its analysis, so that putting the version back puts its review back
ALTER TABLE match_versions ADD COLUMN IF NOT EXISTS analysed_at TIMESTAMP;
ALTER TABLE match_versions ADD COLUMN IF NOT EXISTS analysis_depth VARCHAR;
CREATE TABLE IF NOT EXISTS match_version_analysis (
    match_id VARCHAR NOT NULL,
    version INTEGER NOT NULL,
    table_name VARCHAR NOT NULL,
    row_count INTEGER NOT NULL,
    rows BLOB NOT NULL,
    PRIMARY KEY (match_id, version, table_name)
);
"""

_MIGRATION_20 = _player_findings_view(analysed_only=True)

_MIGRATION_21 = _ledger_views(calls_reviewed=True) + _player_summary_view(played_only=True)

_MIGRATION_22 = """
ALTER TABLE matches ALTER COLUMN score_0 DROP NOT NULL;
ALTER TABLE matches ALTER COLUMN score_1 DROP NOT NULL;
ALTER TABLE matches ALTER COLUMN final_score_0 DROP NOT NULL;
ALTER TABLE matches ALTER COLUMN final_score_1 DROP NOT NULL;
UPDATE matches
SET score_0 = NULL, score_1 = NULL, score_2 = NULL,
    final_score_0 = NULL, final_score_1 = NULL, final_score_2 = NULL, winner = NULL
WHERE format = 'fixed' AND json_extract(record, '$.match.blocks') IS NOT NULL;
"""

_MIGRATION_23 = "UPDATE matches SET target = NULL WHERE format = 'fixed';"

_MIGRATION_24 = """
-- NULL: reviewed before the revision was kept, so by an analysis older than any that keeps it
ALTER TABLE matches ADD COLUMN IF NOT EXISTS analysis_revision INTEGER;
ALTER TABLE match_versions ADD COLUMN IF NOT EXISTS analysis_revision INTEGER;
"""

_MIGRATION_25 = _ledger_views(calls_reviewed=True)


@dataclass(frozen=True)
class Migration:
    """One numbered step of the schema; an archive records each step it has taken."""

    version: int
    """The schema version after this step."""
    description: str
    """What the step changes, for the ``schema_version`` table."""
    sql: str
    """The statements, run in one transaction."""


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "tables and views of the first archive", _MIGRATION_1),
    Migration(2, "matches.analysed_at: when the built-in detectors last ran", _MIGRATION_2),
    Migration(3, "player_findings: points lost and deals played per month", _MIGRATION_3),
    Migration(4, "blocks and blocks_won: the result of a club evening", _MIGRATION_4),
    Migration(
        5,
        "play_costs, card_values and player_accuracy: the solver's costs; matches.analysis_depth",
        _MIGRATION_5,
    ),
    Migration(
        6,
        "call_decisions and player_accuracy over real decisions only (calls included)",
        _MIGRATION_6,
    ),
    Migration(
        7, "deal_ledger and player_ledger: the cards and the decisions, from the solver's costs", _MIGRATION_7
    ),
    Migration(
        8,
        "deal_ledger and player_ledger: sides and partners from deal_seats, so every variant adds up",
        _MIGRATION_8,
    ),
    Migration(
        9,
        "finding_lines: the line after a costly card and after the better card, for its reason",
        _MIGRATION_9,
    ),
    Migration(
        10,
        "match_versions: every replaced version of a match, kept so that it can be restored",
        _MIGRATION_10,
    ),
    Migration(
        11,
        "play_costs.view_error: how sure the view cost is (the findings judge the cost less two of it)",
        _MIGRATION_11,
    ),
    Migration(
        12,
        "evenings, evening_tables and saves: a club evening's tables, and every save from a table",
        _MIGRATION_12,
    ),
    Migration(
        13,
        "call_decisions.loss_error: how sure a call's loss is (the findings judge the loss less two of it)",
        _MIGRATION_13,
    ),
    Migration(
        14,
        "annotations.line: a variation, the cards that could have been played from the commented play on",
        _MIGRATION_14,
    ),
    Migration(
        15,
        "puzzle_reviews: each player's answers to their puzzles, and when each comes back (Leitner boxes); "
        "call_decisions.options: every option's expected score",
        _MIGRATION_15,
    ),
    Migration(
        16,
        "club_rules: a club's rules saved by name (the variant and a record's rules object)",
        _MIGRATION_16,
    ),
    Migration(
        17,
        "the dummy's cards of three_dummy are the dealer's: their findings and costs (player), accuracy",
        _MIGRATION_17,
    ),
    Migration(
        18,
        "call_decisions.options_at_most: the options whose score in options is an upper bound (pruned)",
        _MIGRATION_18,
    ),
    Migration(
        19,
        "match_versions.analysed_at, analysis_depth and match_version_analysis: a replaced version's "
        "analysis, put back with the version",
        _MIGRATION_19,
    ),
    Migration(
        20,
        "player_findings: the cards played counted in analysed matches only (a match waiting for its "
        "analysis made the rates look better)",
        _MIGRATION_20,
    ),
    Migration(
        21,
        "deal_ledger and player_ledger: calls counts every reviewed call's loss (call_decisions), a "
        "missed klop's too; player_summary: deals_won and deals_lost count deals played to the end, "
        "as deals does",
        _MIGRATION_21,
    ),
    Migration(
        22,
        "matches: a club evening has no team score or winner (its teams change every block; its "
        "result is blocks_won): the last block's were stored, read as the first block's teams'",
        _MIGRATION_22,
    ),
    Migration(
        23,
        "matches.target: none for a match of a fixed number of deals (a club evening among them), "
        "which plays to no target: the rules' default 101 was stored",
        _MIGRATION_23,
    ),
    Migration(
        24,
        "matches.analysis_revision (and match_versions'): which revision of the analysis made the "
        "stored review, so that a review older than the tool's is made again",
        _MIGRATION_24,
    ),
    Migration(
        25,
        "deal_ledger.cards an INTEGER and illegal a BIGINT, not HUGEINT: Parquet has no HUGEINT, so "
        "`export --parquet` wrote them as DOUBLE",
        _MIGRATION_25,
    ),
)
"""Every schema step, in order; the last version is the one this code reads and writes."""

SCHEMA_VERSION = MIGRATIONS[-1].version


TABLES: tuple[str, ...] = (
    "matches", "seats", "deal_seats", "deals", "declarations", "hands", "tricks", "plays",
    "annotations", "findings", "rejects", "blocks", "play_costs", "card_values", "call_decisions",
    "finding_lines",
    "match_versions", "match_version_analysis", "evenings", "evening_tables", "club_rules", "puzzle_reviews",
)  # fmt: skip
"""The public tables, in the order ``export --parquet`` writes them (``hands`` and ``plays`` are
views over ``hand_rows`` and ``play_rows`` that add the card lists; the export has the lists).
The archive's own bookkeeping, ``saves`` (the Record page's saves made once) and
``schema_version``, is left out."""

SUMMARY_VIEWS: tuple[str, ...] = (
    "player_summary", "player_deals", "player_findings", "player_accuracy", "deal_ledger", "player_ledger",
    "blocks_won",
)  # fmt: skip
"""The views that sum the tables up (docs/sql.md): ``export --parquet`` writes each as it reads
at the export, so a program reading the export answers the documented questions without
rebuilding them."""

ANALYSIS_TABLES = ("findings", "play_costs", "card_values", "call_decisions", "finding_lines")
"""The tables of a match's analysis (each keyed by ``match_id``), kept with a replaced version."""

_MATCH_TABLES = (
    "seats",
    "deal_seats",
    "deals",
    "declarations",
    "hand_rows",
    "tricks",
    "play_rows",
    "annotations",
    "findings",
    "blocks",
    "play_costs",
    "card_values",
    "call_decisions",
    "finding_lines",
)


def schema_version_of(connection: duckdb.DuckDBPyConnection) -> int:
    """The schema version of an open archive: 0 for a new, empty one."""
    exists = _first(
        connection.execute(
            "SELECT count(*) FROM duckdb_tables() "
            "WHERE table_name = 'schema_version' AND schema_name = 'main'"
        ).fetchall()
    )
    if not exists or not exists[0]:
        return 0
    row = _first(connection.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchall())
    return int(row[0]) if row else 0


def apply_migrations(connection: duckdb.DuckDBPyConnection, upto: int | None = None) -> list[int]:
    """Bring an archive's schema up to ``upto`` (default: the latest); each step in one
    transaction, or, for a new archive, every step in one (it is made whole or not at all, and
    in three quarters of the time: one commit instead of one a step).

    A new archive brought to the latest version takes the schema this process read back from
    the first archive it built step by step (:func:`_schema_statements`): the same tables and
    views in two thirds of the time (49 ms instead of 78 in memory), without the views each step
    made and the next replaced (the tests make hundreds of archives; a dashboard's Record page
    and every import into a new file, one).

    :param connection: a writable connection to the archive.
    :param upto: stop after this version (tests build old archives this way).
    :returns: the versions applied, oldest first.
    :raises ArchiveError: when the archive was made by a newer version of this program.
    """
    current = schema_version_of(connection)
    if current > SCHEMA_VERSION:
        raise ArchiveError(
            f"the archive has schema version {current}, newer than this program's {SCHEMA_VERSION}: "
            "upgrade manillen-replay to open it"
        )
    pending = [m for m in MIGRATIONS if m.version > current and (upto is None or m.version <= upto)]
    whole = current == 0 and len(pending) == len(MIGRATIONS)
    key = tuple(MIGRATIONS)
    latest = _LATEST_SCHEMAS.get(key) if whole else None
    steps = [pending] if current == 0 else [[migration] for migration in pending]
    for step in steps:
        with transaction(connection):
            if latest is not None:
                for statement in latest:
                    connection.execute(statement)
            else:
                connection.execute(_SCHEMA_VERSION_TABLE)
                for migration in step:
                    connection.execute(migration.sql)
            # the step's rows in one statement: an INSERT with parameters for each migration
            # cost a new archive a fifth of its time
            connection.execute(
                "INSERT INTO schema_version "
                "SELECT unnest($versions), unnest($descriptions), current_localtimestamp()",
                {"versions": [m.version for m in step], "descriptions": [m.description for m in step]},
            )
    if whole and key not in _LATEST_SCHEMAS:
        _LATEST_SCHEMAS[key] = _schema_statements(connection)
    return [migration.version for migration in pending]


_SCHEMA_VERSION_TABLE = (
    "CREATE TABLE IF NOT EXISTS schema_version "
    "(version INTEGER PRIMARY KEY, description VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL)"
)

_LATEST_SCHEMAS: dict[tuple[Migration, ...], list[str] | None] = {}
"""The statements that make the latest schema at once, by the migrations they were read back
from (:func:`_schema_statements`); filled by the first new archive this process builds. ``None``:
the schema could not be read back, and every new archive takes the steps."""


def _schema_statements(connection: duckdb.DuckDBPyConnection) -> list[str] | None:
    """The statements that make ``connection``'s schema again: its tables as they are now (each
    column and constraint that the steps gave them), then its views as the steps last wrote them
    (DuckDB's own text of a view may differ on each round), each after the views it names (a
    step that replaced a view made it newer than the views built on it); ``None`` for a schema
    with more than tables and views, or with views that seem to read each other."""
    current = "schema_name = 'main' AND database_name = current_database()"
    (others,) = _first(
        connection.execute(
            f"SELECT (SELECT count(*) FROM duckdb_indexes() WHERE {current}) "
            f"+ (SELECT count(*) FROM duckdb_sequences() WHERE {current}) "
            f"+ (SELECT count(*) FROM duckdb_functions() WHERE NOT internal AND {current}) "
            f"+ (SELECT count(*) FROM duckdb_types() WHERE NOT internal AND {current})"
        ).fetchall()
    )
    if others:
        return None
    tables = [
        sql
        for (sql,) in connection.execute(
            f"SELECT sql FROM duckdb_tables() WHERE {current} ORDER BY table_oid"
        ).fetchall()
    ]
    written: dict[str, str] = {}
    for migration in MIGRATIONS:
        for statement in connection.extract_statements(migration.sql):
            text = re.sub(r"^\s*(--[^\n]*\n\s*)*", "", statement.query)
            view = _VIEW_WRITTEN.match(text)
            if view is not None:
                written[view.group(1)] = text
    names = [
        name
        for (name,) in connection.execute(
            f"SELECT view_name FROM duckdb_views() WHERE NOT internal AND {current}"
        ).fetchall()
    ]
    if not set(names) <= written.keys():
        return None
    views = {name: written[name] for name in names}
    ordered: list[str] = []
    while views:
        ready = next(
            (name for name, sql in views.items() if not any(_names(sql, o) for o in views if o != name)), None
        )
        if ready is None:
            return None
        ordered.append(views.pop(ready))
    return tables + ordered


_VIEW_WRITTEN = re.compile(
    r"CREATE\s+(?:OR\s+REPLACE\s+)?VIEW\s+(?:IF\s+NOT\s+EXISTS\s+)?(\w+)", re.IGNORECASE
)
"""The start of a statement that writes a view, and its name."""


def _names(sql: str, name: str) -> bool:
    """Whether ``sql`` names ``name`` as a whole word."""
    return re.search(rf"\b{re.escape(name)}\b", sql, re.IGNORECASE) is not None
