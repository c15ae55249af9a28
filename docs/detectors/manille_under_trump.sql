-- name: manille_under_trump
-- category: strategy
-- thresholds: 1, 3, 5
-- description: Throwing a manille (a 10, 5 points) of a side suit on a trick an opponent has
--   already bought with a trump, while another card was allowed.
-- explanation: {player} threw the manille {card} under an opponent's trump in trick {trick} while other cards were allowed ({better}): {points} points given away.
-- explanation_nl: {player} gooide de manille {card} onder een troef van de tegenstander in slag {trick}, terwijl andere kaarten mochten ({better}): {points} punten weggegeven.
--
-- The card winning just before the play is the opponent's trump (the seat winning after the
-- previous play), the opponents took the trick, and the legal cards held more than the 10.
-- Points: the manille's 5 card points times the deal's multiplier.
SELECT p.match_id, p.deal, p.trick, p.position AS play, p.seat, p.card,
       list_filter(p.legal_cards, lambda c: c <> p.card) AS better,
       5 * coalesce(d.multiplier, 1) AS points
FROM plays p
JOIN plays prev
  ON prev.match_id = p.match_id AND prev.deal = p.deal AND prev.trick = p.trick AND prev.position = p.position - 1
JOIN plays w
  ON w.match_id = p.match_id AND w.deal = p.deal AND w.trick = p.trick AND w.seat = prev.winning_seat
JOIN tricks t ON t.match_id = p.match_id AND t.deal = p.deal AND t.trick = p.trick
JOIN deals d ON d.match_id = p.match_id AND d.deal = p.deal
WHERE p.rank = '10' AND NOT p.is_trump AND w.is_trump AND w.team <> p.team
  AND len(p.legal_cards) > 1 AND t.winner_team <> p.team
ORDER BY p.match_id, p.deal, p.trick, p.position
