-- Typed SQL views over the append-only `events` table. Recreated on every open for writing,
-- so they always match the code; they hold no data of their own.

-- Can `seat` see an event with this `visible_to`? (NULL = every seat, [] = engine only)
CREATE OR REPLACE MACRO can_see(visible_to, seat) AS
    visible_to IS NULL OR list_contains(visible_to, seat);

-- One row per seat per game: the agent spec in that seat.
CREATE OR REPLACE VIEW seats AS
SELECT g.game_id,
       CAST(s.seat - 1 AS SMALLINT) AS seat,
       json_extract_string(g.seats, '$[' || (s.seat - 1) || '].agent') AS agent,
       g.tournament
FROM games g,
     LATERAL (SELECT unnest(range(1, CAST(json_array_length(g.seats) AS BIGINT) + 1)) AS seat) s;

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

-- Final score and rank of every seat of every finished game, whatever the game (scores as
-- DOUBLE: some games score in half units).
CREATE OR REPLACE VIEW results AS
WITH ended AS (
    SELECT game_id, payload FROM events WHERE type = 'game_ended'
)
SELECT s.game_id, g.game, s.seat, s.agent,
       CAST(json_extract(e.payload, '$.scores[' || s.seat || ']') AS DOUBLE) AS score,
       CAST(json_extract(e.payload, '$.ranks[' || s.seat || ']') AS INTEGER) AS rank,
       s.tournament
FROM seats s JOIN ended e USING (game_id) JOIN games g USING (game_id);

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
