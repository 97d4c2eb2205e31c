-- Pit (GameBench) views over the generic `events` table. Seat 0 is GameBench's player 1.
-- Each statement is one CREATE OR REPLACE VIEW, and they hold no data of their own.
-- Statements end with a semicolon, and no comment holds one, so a loader may split on it.

-- One row per offer of every Pit game: who offered how many cards of which kind, and who took
-- it with which kind (responder and given NULL when every other seat passed).
CREATE OR REPLACE VIEW pit_trades AS
WITH offered AS (
    SELECT game_id,
           CAST(payload->>'turn' AS INTEGER) AS turn,
           CAST(payload->>'seat' AS SMALLINT) AS offerer,
           CAST(payload->>'count' AS SMALLINT) AS count
    FROM events WHERE type = 'pit_offered'
),
kinds AS (
    SELECT game_id, CAST(payload->>'turn' AS INTEGER) AS turn, payload->>'kind' AS kind
    FROM events WHERE type = 'pit_offer_kind'
),
swapped AS (
    SELECT game_id,
           CAST(payload->>'turn' AS INTEGER) AS turn,
           CAST(payload->>'responder' AS SMALLINT) AS responder,
           payload->>'given' AS given
    FROM events WHERE type = 'pit_swapped'
)
SELECT o.game_id, o.turn, o.offerer, o.count, k.kind AS offered, s.responder, s.given
FROM offered o
JOIN kinds k USING (game_id, turn)
LEFT JOIN swapped s USING (game_id, turn);

-- One row per turn of open trading in every Pit game: an offer (backed or void) or the taking
-- of a standing offer (offerer, what it offered, the taker and what the taker gave).
CREATE OR REPLACE VIEW pit_open_turns AS
SELECT game_id,
       CAST(payload->>'turn' AS INTEGER) AS turn,
       CASE type WHEN 'pit_proposed' THEN 'offer' ELSE 'void' END AS action,
       CAST(payload->>'seat' AS SMALLINT) AS offerer,
       payload->>'kind' AS offered,
       CAST(payload->>'count' AS SMALLINT) AS count,
       CAST(NULL AS SMALLINT) AS responder,
       CAST(NULL AS VARCHAR) AS given,
       CAST(NULL AS SMALLINT) AS given_count
FROM events WHERE type IN ('pit_proposed', 'pit_proposal_void')
UNION ALL
SELECT t.game_id,
       CAST(t.payload->>'turn' AS INTEGER),
       'take',
       CAST(t.payload->>'offerer' AS SMALLINT),
       t.payload->>'kind',
       CAST(t.payload->>'count' AS SMALLINT),
       CAST(t.payload->>'responder' AS SMALLINT),
       p.payload->>'kind',
       CAST(p.payload->>'count' AS SMALLINT)
FROM events t
JOIN events p ON p.game_id = t.game_id AND p.type = 'pit_paid'
    AND p.payload->>'turn' = t.payload->>'turn'
WHERE t.type = 'pit_taken';

-- One row per corner of every Pit game: the seat, the commodity, whether it held the Bull and
-- the Bear, the points it gained and its points after (hand 1: the second hand of open trading).
CREATE OR REPLACE VIEW pit_corners AS
SELECT game_id,
       CAST(payload->>'round' AS INTEGER) AS round,
       CAST(payload->>'seat' AS SMALLINT) AS seat,
       payload->>'commodity' AS commodity,
       CAST(payload->>'held' AS SMALLINT) AS held,
       CAST(payload->>'bull' AS BOOLEAN) AS bull,
       CAST(payload->>'bear' AS BOOLEAN) AS bear,
       CAST(payload->>'gained' AS INTEGER) AS gained,
       CAST(json_extract(payload, '$.points[' || (payload->>'seat') || ']') AS INTEGER) AS points,
       COALESCE(CAST(payload->>'hand' AS SMALLINT), 0) AS hand
FROM events WHERE type = 'pit_cornered';
