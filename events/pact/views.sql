-- PACT views over the generic `events` and `games` tables. Seat 0 buys, seat 1 sells.
-- Each statement is one CREATE OR REPLACE VIEW, and they hold no data of their own.
-- Statements end with a semicolon, and no comment holds one, so a loader may split on it.

-- One row per round of every PACT game: the private values, both quotes, the trade and each
-- side's profit in that round (0 without a trade, when the price is NULL).
CREATE OR REPLACE VIEW pact_rounds AS
WITH drawn AS (
    SELECT game_id,
           CAST(payload->>'value' AS INTEGER) AS value,
           CAST(payload->>'cost' AS INTEGER) AS cost
    FROM events WHERE type = 'pact_values_drawn'
),
revealed AS (
    SELECT game_id,
           CAST(payload->>'round' AS INTEGER) AS round,
           CAST(payload->>'bid' AS INTEGER) AS bid,
           CAST(payload->>'ask' AS INTEGER) AS ask,
           CAST(payload->>'traded' AS BOOLEAN) AS traded,
           CAST(payload->>'price' AS DOUBLE) AS price
    FROM events WHERE type = 'pact_quotes_revealed'
)
SELECT r.game_id, r.round,
       CAST(0 AS SMALLINT) AS buyer_seat,
       CAST(1 AS SMALLINT) AS seller_seat,
       d.value, d.cost, r.bid, r.ask, r.traded, r.price,
       CASE WHEN r.traded THEN d.value - r.price ELSE 0.0 END AS buyer_profit,
       CASE WHEN r.traded THEN r.price - d.cost ELSE 0.0 END AS seller_profit
FROM revealed r JOIN drawn d USING (game_id);

-- Every public message of every PACT game, as both sides read it. `cut` marks a message cut
-- to the length limit.
CREATE OR REPLACE VIEW pact_messages AS
SELECT game_id,
       CAST(payload->>'round' AS INTEGER) AS round,
       CAST(payload->>'seat' AS SMALLINT) AS seat,
       payload->>'text' AS text,
       CAST(payload->>'cut' AS BOOLEAN) AS cut
FROM events WHERE type = 'pact_message_sent';
