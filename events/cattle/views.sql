-- Cattle Trade's views: money, bids and scores, then one typed view per decision kind, over
-- the append-only `events` table. Loaded after the shared views (events/views.sql) on every
-- writable open (see events/store.py). They hold no data; docs/analysis.md describes every
-- column and has example queries.

-- Every change to a seat's money, in coins, at the event that caused it.
CREATE OR REPLACE VIEW money_flows AS
WITH started AS (
    SELECT game_id, seq,
           CAST(payload->>'$.config.players' AS INTEGER) AS players,
           list_sum(CAST(json_extract(payload, '$.config.start_money') AS INTEGER[])) AS start
    FROM events WHERE type = 'game_started'
),
payout AS (
    SELECT game_id, seq, CAST(payload->>'amount' AS INTEGER) AS amount
    FROM events WHERE type = 'donkey_payout'
),
paid AS (
    SELECT game_id, seq,
           CAST(payload->>'payer' AS SMALLINT) AS payer,
           CAST(payload->>'payee' AS SMALLINT) AS payee,
           coalesce(list_sum(CAST(json_extract(payload, '$.cards') AS INTEGER[])), 0) AS amount
    FROM events WHERE type = 'payment_cards'
),
exchanged AS (
    SELECT r.game_id, r.seq,
           CAST(r.payload->>'initiator' AS SMALLINT) AS initiator,
           CAST(r.payload->>'target' AS SMALLINT) AS target,
           coalesce(list_sum(CAST(json_extract(r.payload, '$.initiator_cards') AS INTEGER[])), 0) AS offer,
           coalesce(list_sum(CAST(json_extract(r.payload, '$.target_cards') AS INTEGER[])), 0) AS counter
    FROM events r
    JOIN events x ON x.game_id = r.game_id AND x.seq = r.seq + 1 AND x.type = 'offers_exchanged'
    WHERE r.type = 'offers_revealed'
)
SELECT game_id, seq, CAST(unnest(range(players)) AS SMALLINT) AS seat, start AS delta, 'start' AS reason FROM started
UNION ALL
SELECT p.game_id, p.seq, s.seat, p.amount, 'donkey_payout'
FROM payout p JOIN seats s USING (game_id)
UNION ALL
SELECT game_id, seq, payer, -amount, 'payment' FROM paid
UNION ALL
SELECT game_id, seq, payee, amount, 'payment' FROM paid
UNION ALL
SELECT game_id, seq + 1, initiator, counter - offer, 'trade' FROM exchanged
UNION ALL
SELECT game_id, seq + 1, target, offer - counter, 'trade' FROM exchanged;

-- A seat's money after every change.
CREATE OR REPLACE VIEW money AS
SELECT game_id, seq, seat, delta, reason,
       CAST(sum(delta) OVER (PARTITION BY game_id, seat ORDER BY seq
                             ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS INTEGER) AS money
FROM money_flows;

-- Every bid and pass, with the bidder's money at that moment (NULL amount = pass).
CREATE OR REPLACE VIEW bids AS
WITH b AS (
    SELECT game_id, seq, turn,
           CAST(payload->>'auction' AS INTEGER) AS auction,
           CAST(payload->>'round' AS INTEGER) AS round,
           CAST(payload->>'seat' AS SMALLINT) AS seat,
           CASE WHEN type = 'bid_placed' THEN CAST(payload->>'amount' AS INTEGER) END AS amount
    FROM events WHERE type IN ('bid_placed', 'bid_passed')
)
SELECT b.game_id, b.seq, b.turn, b.auction, b.round, b.seat, b.amount, m.money
FROM b ASOF LEFT JOIN money m
  ON b.game_id = m.game_id AND b.seat = m.seat AND b.seq >= m.seq;

-- Cattle Trade's final score, complete sets and rank of every seat of every finished game.
CREATE OR REPLACE VIEW scores AS
WITH ended AS (
    SELECT e.game_id, e.payload FROM events e JOIN games g USING (game_id)
    WHERE e.type = 'game_ended' AND g.game = 'cattle-trade'
)
SELECT s.game_id, s.seat, s.agent,
       CAST(json_extract(e.payload, '$.scores[' || s.seat || ']') AS INTEGER) AS score,
       CAST(json_array_length(json_extract(e.payload, '$.sets[' || s.seat || ']')) AS INTEGER) AS complete_sets,
       CAST(json_extract(e.payload, '$.ranks[' || s.seat || ']') AS INTEGER) AS rank
FROM seats s JOIN ended e USING (game_id);

-- Set value of an animal type (mirrors events.cattle.domain.ANIMAL_VALUES; a test checks they agree).
CREATE OR REPLACE MACRO animal_value(a) AS
    CASE a WHEN 'chicken' THEN 10 WHEN 'goose' THEN 40 WHEN 'cat' THEN 90 WHEN 'dog' THEN 160
           WHEN 'sheep' THEN 250 WHEN 'goat' THEN 350 WHEN 'donkey' THEN 500 WHEN 'pig' THEN 650
           WHEN 'cow' THEN 800 WHEN 'horse' THEN 1000 END;

-- Donkey phase label: "early" while fewer than half of the donkeys are drawn, then "late".
CREATE OR REPLACE MACRO donkey_phase(drawn, set_size) AS
    CASE WHEN 2 * drawn < set_size THEN 'early' ELSE 'late' END;

-- One row per game: the configuration as typed columns and how the game ended.
CREATE OR REPLACE VIEW game_info AS
WITH ended AS (
    SELECT game_id, CAST(payload->>'turns' AS INTEGER) AS turns
    FROM events WHERE type = 'game_ended'
)
SELECT g.game_id, g.tournament, g.seed,
       g.config->>'name' AS preset,
       g.config->>'auction_mode' AS auction_mode,
       CAST(g.config->>'players' AS SMALLINT) AS players,
       CAST(g.config->>'set_size' AS SMALLINT) AS set_size,
       CAST(json_array_length(g.config->'animals') AS SMALLINT) AS animal_types,
       g.status, g.end_reason, e.turns, g.engine_version, g.created_at, g.ended_at
FROM games g LEFT JOIN ended e USING (game_id);

-- One row per turn: who played it and what they chose (auction | trade | skip).
CREATE OR REPLACE VIEW turns AS
WITH started AS (
    SELECT game_id, seq, turn, CAST(payload->>'seat' AS SMALLINT) AS seat,
           CAST(payload->>'deck_left' AS INTEGER) AS deck_left
    FROM events WHERE type = 'turn_started'
),
chosen AS (
    SELECT game_id, turn, payload->>'choice' AS choice, CAST(payload->>'forced' AS BOOLEAN) AS forced
    FROM events WHERE type = 'turn_chosen'
),
skipped AS (
    SELECT game_id, turn FROM events WHERE type = 'turn_skipped'
)
SELECT s.game_id, s.seq, s.turn, s.seat, s.deck_left,
       CASE WHEN k.turn IS NOT NULL THEN 'skip' ELSE c.choice END AS choice,
       coalesce(c.forced, k.turn IS NOT NULL) AS forced
FROM started s
LEFT JOIN chosen c USING (game_id, turn)
LEFT JOIN skipped k USING (game_id, turn);

-- Every donkey payout (each seat received `amount`).
CREATE OR REPLACE VIEW donkey_payouts AS
SELECT game_id, seq, turn, CAST(payload->>'donkey' AS SMALLINT) AS donkey,
       CAST(payload->>'amount' AS INTEGER) AS amount
FROM events WHERE type = 'donkey_payout';

-- Every turn choice with its context: the seat's money and the donkey phase.
CREATE OR REPLACE VIEW turn_choices AS
WITH c AS (
    SELECT e.game_id, e.seq, e.turn, CAST(e.payload->>'seat' AS SMALLINT) AS seat,
           e.payload->>'choice' AS choice, CAST(e.payload->>'forced' AS BOOLEAN) AS forced
    FROM events e WHERE e.type = 'turn_chosen'
),
d AS (
    SELECT c.*, coalesce(p.donkey, 0) AS donkeys_drawn
    FROM c ASOF LEFT JOIN donkey_payouts p ON c.game_id = p.game_id AND c.seq >= p.seq
)
SELECT d.game_id, d.seq, d.turn, d.seat, s.agent, d.choice, d.forced, m.money,
       CAST(d.donkeys_drawn AS SMALLINT) AS donkeys_drawn,
       donkey_phase(d.donkeys_drawn, gi.set_size) AS phase
FROM d
JOIN seats s ON s.game_id = d.game_id AND s.seat = d.seat
JOIN game_info gi ON gi.game_id = d.game_id
ASOF LEFT JOIN money m ON d.game_id = m.game_id AND d.seat = m.seat AND d.seq >= m.seq;

-- Every auction payment: the price asked, the cards' total (no change is given) and the overpay.
CREATE OR REPLACE VIEW payments AS
WITH made AS (
    SELECT game_id, seq, turn, CAST(payload->>'payer' AS SMALLINT) AS payer,
           CAST(payload->>'payee' AS SMALLINT) AS payee, CAST(payload->>'amount' AS INTEGER) AS price,
           CAST(payload->>'n_cards' AS SMALLINT) AS n_cards, payload->>'reason' AS reason
    FROM events WHERE type = 'payment_made'
),
cards AS (
    SELECT game_id, turn, CAST(json_extract(payload, '$.cards') AS INTEGER[]) AS cards
    FROM events WHERE type = 'payment_cards'
),
opened AS (
    SELECT game_id, turn, CAST(payload->>'auction' AS INTEGER) AS auction, payload->>'animal' AS animal
    FROM events WHERE type = 'auction_opened'
)
SELECT m.game_id, m.seq, m.turn, o.auction, o.animal, m.payer, m.payee, m.reason, m.price,
       m.n_cards, c.cards, CAST(coalesce(list_sum(c.cards), 0) AS INTEGER) AS paid,
       CAST(coalesce(list_sum(c.cards), 0) - m.price AS INTEGER) AS overpay
FROM made m
LEFT JOIN cards c USING (game_id, turn)
LEFT JOIN opened o USING (game_id, turn);

-- One row per auction: card, auctioneer, rounds, winner, price and outcome
-- (sold | buy_right | free). `buyer` is the seat that got the card; `payer` paid `paid` coins;
-- `capped` when the auction reached its cap on bid rounds (rules 1.1.0, docs/bounds.md).
CREATE OR REPLACE VIEW auctions AS
WITH opened AS (
    SELECT game_id, seq, turn, CAST(payload->>'auction' AS INTEGER) AS auction,
           CAST(payload->>'auctioneer' AS SMALLINT) AS auctioneer, payload->>'animal' AS animal
    FROM events WHERE type = 'auction_opened'
),
rounds AS (
    SELECT game_id, CAST(payload->>'auction' AS INTEGER) AS auction, count(*) AS rounds
    FROM events WHERE type = 'bid_round_opened' GROUP BY ALL
),
restarts AS (
    SELECT game_id, CAST(payload->>'auction' AS INTEGER) AS auction, count(*) AS restarts
    FROM events WHERE type = 'auction_restarted' GROUP BY ALL
),
capped AS (
    SELECT DISTINCT game_id, CAST(payload->>'auction' AS INTEGER) AS auction, true AS capped
    FROM events WHERE type = 'bid_rounds_capped'
),
won AS (
    SELECT game_id, CAST(payload->>'auction' AS INTEGER) AS auction,
           CAST(payload->>'winner' AS SMALLINT) AS winner, CAST(payload->>'price' AS INTEGER) AS price
    FROM events WHERE type = 'auction_won'
),
decided AS (
    SELECT game_id, CAST(payload->>'auction' AS INTEGER) AS auction, payload->>'decision' AS decision,
           CAST(payload->>'offered' AS BOOLEAN) AS buy_right_offered
    FROM events WHERE type = 'auctioneer_decided'
),
paid AS (
    SELECT game_id, auction, payer, paid, overpay FROM payments
),
phase AS (
    SELECT o.game_id, o.auction, coalesce(p.donkey, 0) AS donkeys_drawn
    FROM opened o ASOF LEFT JOIN donkey_payouts p ON o.game_id = p.game_id AND o.seq >= p.seq
)
SELECT o.game_id, o.seq, o.turn, o.auction, o.auctioneer, o.animal,
       CAST(animal_value(o.animal) AS INTEGER) AS set_value,
       CAST(ph.donkeys_drawn AS SMALLINT) AS donkeys_drawn,
       donkey_phase(ph.donkeys_drawn, gi.set_size) AS phase,
       CAST(coalesce(r.rounds, 0) AS INTEGER) AS rounds,
       CAST(coalesce(x.restarts, 0) AS INTEGER) AS restarts,
       w.winner, w.price,
       CASE WHEN w.winner IS NULL THEN 'free' WHEN d.decision = 'buy_right' THEN 'buy_right'
            ELSE 'sold' END AS outcome,
       d.buy_right_offered,
       CAST(CASE WHEN d.decision = 'buy_right' OR w.winner IS NULL THEN o.auctioneer ELSE w.winner END
            AS SMALLINT) AS buyer,
       p.payer, p.paid, p.overpay,
       coalesce(c.capped, false) AS capped
FROM opened o
JOIN (SELECT game_id, set_size FROM game_info) gi USING (game_id)
LEFT JOIN phase ph USING (game_id, auction)
LEFT JOIN rounds r USING (game_id, auction)
LEFT JOIN restarts x USING (game_id, auction)
LEFT JOIN won w USING (game_id, auction)
LEFT JOIN decided d USING (game_id, auction)
LEFT JOIN paid p USING (game_id, auction)
LEFT JOIN capped c USING (game_id, auction);

-- Every bid and pass with its context: the standing leader and price when the round opened,
-- the set value of the card, the donkey phase, and the flags
-- self_bid (a bid placed while the bidder already held the standing bid) and
-- overbid (a bid above the bidder's money at that moment).
CREATE OR REPLACE VIEW bids_detail AS
WITH opened AS (
    SELECT game_id, CAST(payload->>'auction' AS INTEGER) AS auction,
           CAST(payload->>'round' AS INTEGER) AS round,
           CAST(payload->>'leader' AS SMALLINT) AS leader, CAST(payload->>'price' AS INTEGER) AS standing,
           CAST(payload->>'confirmation' AS BOOLEAN) AS confirmation
    FROM events WHERE type = 'bid_round_opened'
)
SELECT b.game_id, b.seq, b.turn, b.auction, b.round, b.seat, s.agent, b.amount,
       b.amount IS NULL AS passed, b.money, o.leader, o.standing, o.confirmation,
       a.animal, a.set_value, a.donkeys_drawn, a.phase,
       CAST(b.amount AS DOUBLE) / a.set_value AS aggressiveness,
       coalesce(b.amount IS NOT NULL AND o.leader = b.seat, false) AS self_bid,
       coalesce(b.amount > b.money, false) AS overbid
FROM bids b
JOIN opened o USING (game_id, auction, round)
JOIN auctions a USING (game_id, auction)
JOIN seats s ON s.game_id = b.game_id AND s.seat = b.seat;

-- Every winning bid that could not be paid (the bidder's money was shown to everyone).
CREATE OR REPLACE VIEW overbids AS
SELECT game_id, seq, turn, CAST(payload->>'auction' AS INTEGER) AS auction,
       CAST(payload->>'seat' AS SMALLINT) AS seat, CAST(payload->>'bid' AS INTEGER) AS bid,
       CAST(json_extract(payload, '$.money') AS INTEGER[]) AS money_cards
FROM events WHERE type = 'overbid_revealed';

-- Every offer placed in a trade challenge (role offer | counter | tie), with its value;
-- bluff = a non-empty offer made only of 0-value cards.
CREATE OR REPLACE VIEW trade_offers AS
SELECT game_id, seq, turn, CAST(payload->>'trade' AS INTEGER) AS trade,
       CAST(payload->>'seat' AS SMALLINT) AS seat, payload->>'role' AS role,
       CAST(json_extract(payload, '$.cards') AS INTEGER[]) AS cards,
       CAST(json_array_length(payload->'cards') AS SMALLINT) AS n_cards,
       CAST(coalesce(list_sum(CAST(json_extract(payload, '$.cards') AS INTEGER[])), 0) AS INTEGER) AS value,
       json_array_length(payload->'cards') > 0
           AND coalesce(list_max(CAST(json_extract(payload, '$.cards') AS INTEGER[])), 0) = 0 AS bluff
FROM events WHERE type = 'offer_cards';

-- One row per trade challenge: who, for what, both first offers, the exchanged (final) offers,
-- the response, ties, the winner and how many animals moved. Net coins are from the
-- initiator's side: what it received minus what it gave in the exchange.
CREATE OR REPLACE VIEW trades AS
WITH init AS (
    SELECT game_id, seq, turn, CAST(payload->>'trade' AS INTEGER) AS trade,
           CAST(payload->>'initiator' AS SMALLINT) AS initiator,
           CAST(payload->>'target' AS SMALLINT) AS target, payload->>'animal' AS animal,
           CAST(payload->>'n_cards' AS SMALLINT) AS offer_cards
    FROM events WHERE type = 'trade_initiated'
),
resp AS (
    SELECT game_id, CAST(payload->>'trade' AS INTEGER) AS trade,
           CASE type WHEN 'trade_accepted' THEN 'accepted' ELSE 'countered' END AS response,
           CAST(payload->>'n_cards' AS SMALLINT) AS counter_cards
    FROM events WHERE type IN ('trade_accepted', 'trade_countered')
),
first_offers AS (
    SELECT game_id, trade,
           max(value) FILTER (WHERE role = 'offer') AS offer_value,
           bool_or(bluff) FILTER (WHERE role = 'offer') AS bluff,
           max(value) FILTER (WHERE role = 'counter') AS counter_value
    FROM trade_offers GROUP BY ALL
),
revealed AS (
    SELECT r.game_id, CAST(r.payload->>'trade' AS INTEGER) AS trade,
           CAST(coalesce(list_sum(CAST(json_extract(r.payload, '$.initiator_cards') AS INTEGER[])), 0) AS INTEGER) AS initiator_paid,
           CAST(json_array_length(r.payload->'initiator_cards') AS SMALLINT) AS initiator_paid_cards,
           CAST(coalesce(list_sum(CAST(json_extract(r.payload, '$.target_cards') AS INTEGER[])), 0) AS INTEGER) AS target_paid,
           CAST(json_array_length(r.payload->'target_cards') AS SMALLINT) AS target_paid_cards
    FROM events r
    JOIN events x ON x.game_id = r.game_id AND x.seq = r.seq + 1 AND x.type = 'offers_exchanged'
    WHERE r.type = 'offers_revealed'
),
tied AS (
    SELECT game_id, CAST(payload->>'trade' AS INTEGER) AS trade, max(CAST(payload->>'ties' AS INTEGER)) AS ties
    FROM events WHERE type = 'trade_tied' GROUP BY ALL
),
won AS (
    SELECT game_id, CAST(payload->>'trade' AS INTEGER) AS trade,
           CAST(payload->>'winner' AS SMALLINT) AS winner, CAST(payload->>'loser' AS SMALLINT) AS loser,
           CAST(payload->>'count' AS SMALLINT) AS animals_moved, payload->>'reason' AS win_reason
    FROM events WHERE type = 'trade_won'
)
SELECT i.game_id, i.seq, i.turn, i.trade, i.initiator, i.target, i.animal,
       CAST(animal_value(i.animal) AS INTEGER) AS set_value,
       i.offer_cards, f.offer_value, coalesce(f.bluff, false) AS bluff,
       r.response, r.counter_cards, f.counter_value,
       CAST(coalesce(t.ties, 0) AS INTEGER) AS ties,
       v.initiator_paid, v.initiator_paid_cards, v.target_paid, v.target_paid_cards,
       CAST(v.target_paid - v.initiator_paid AS INTEGER) AS initiator_net,
       w.winner, w.loser, w.animals_moved, w.win_reason
FROM init i
LEFT JOIN resp r USING (game_id, trade)
LEFT JOIN first_offers f USING (game_id, trade)
LEFT JOIN revealed v USING (game_id, trade)
LEFT JOIN tied t USING (game_id, trade)
LEFT JOIN won w USING (game_id, trade);

-- Every complete set, with the seat's set count and score right after it.
CREATE OR REPLACE VIEW set_completions AS
WITH c AS (
    SELECT game_id, seq, turn, CAST(payload->>'seat' AS SMALLINT) AS seat, payload->>'animal' AS animal
    FROM events WHERE type = 'set_completed'
),
r AS (
    SELECT c.*, CAST(animal_value(animal) AS INTEGER) AS set_value,
           CAST(row_number() OVER w AS INTEGER) AS sets,
           CAST(sum(animal_value(animal)) OVER w AS INTEGER) AS set_values
    FROM c WINDOW w AS (PARTITION BY game_id, seat ORDER BY seq)
)
SELECT game_id, seq, turn, seat, animal, set_value, sets, CAST(set_values * sets AS INTEGER) AS score
FROM r;

-- Each seat's money at the end of every turn of the game (turn 0 = after the deal).
CREATE OR REPLACE VIEW wealth_by_turn AS
WITH last_seq AS (
    SELECT game_id, turn, max(seq) AS seq FROM events GROUP BY ALL
),
grid AS (
    SELECT l.game_id, l.turn, l.seq, s.seat, s.agent FROM last_seq l JOIN seats s USING (game_id)
)
SELECT g.game_id, g.turn, g.seat, g.agent, m.money
FROM grid g ASOF LEFT JOIN money m ON g.game_id = m.game_id AND g.seat = m.seat AND g.seq >= m.seq;

-- Every rejected action (retry = the seat was asked again).
CREATE OR REPLACE VIEW rejections AS
SELECT game_id, seq, turn, CAST(payload->>'seat' AS SMALLINT) AS seat, payload->>'decision' AS decision,
       payload->>'reason' AS reason, payload->>'raw' AS raw, CAST(payload->>'retry' AS BOOLEAN) AS retry
FROM events WHERE type = 'action_rejected';

-- Every action played in place of the seat's own: the engine's fallback after a rejected action
-- (kind "engine") or the agent's documented default when it got no usable answer ("default").
CREATE OR REPLACE VIEW fallbacks AS
SELECT game_id, seq, turn, CAST(payload->>'seat' AS SMALLINT) AS seat,
       CASE type WHEN 'fallback_applied' THEN 'engine' ELSE 'default' END AS kind,
       payload->>'decision' AS decision, payload->>'action' AS action, payload->>'reason' AS reason
FROM events WHERE type IN ('fallback_applied', 'action_defaulted');

-- Model calls: the `llm_calls` and `llm_usage` views live in events/views_llm.sql.
