-- name: trump_into_void
-- category: strategy
-- severity: inaccuracy
-- description: Leading a trump when both opponents have already shown out of trumps: the lead
--   only pulls a trump from your partner, who could have used it to buy a trick later.
-- explanation: {player} led the trump {card} in trick {trick} although both opponents had shown out of trumps: it only drew {partner}'s trump {drawn}.
-- explanation_nl: {player} kwam in slag {trick} uit met troef {card} terwijl beide tegenstanders al geen troef meer hadden: zo trok {player} alleen de troef {drawn} van {partner}.
--
-- An opponent has shown out of trumps when a trump was led earlier in the deal and the
-- opponent played another suit. The finding stands only when the partner did follow with a
-- trump, so a trump was really lost to the lead.
WITH shown_out AS (
    SELECT DISTINCT p.match_id, p.deal, p.trick, p.seat, p.team
    FROM plays p
    JOIN tricks t USING (match_id, deal, trick)
    JOIN deals d USING (match_id, deal)
    WHERE d.trump IS NOT NULL AND t.led_suit = d.trump AND p.suit <> d.trump
),
leads AS (
    SELECT l.match_id, l.deal, l.trick, l.position AS play, l.seat, l.team, l.player, l.card
    FROM plays l
    WHERE l.position = 1 AND l.is_trump
)
SELECT leads.match_id, leads.deal, leads.trick, leads.play, leads.seat, leads.card,
       mate.player AS partner, mate.card AS drawn, 0 AS points
FROM leads
JOIN plays mate
  ON mate.match_id = leads.match_id AND mate.deal = leads.deal AND mate.trick = leads.trick
 AND mate.team = leads.team AND mate.seat <> leads.seat AND mate.is_trump
WHERE (
    SELECT count(DISTINCT s.seat) FROM shown_out s
    WHERE s.match_id = leads.match_id AND s.deal = leads.deal AND s.trick < leads.trick AND s.team <> leads.team
) = 2
ORDER BY leads.match_id, leads.deal, leads.trick
