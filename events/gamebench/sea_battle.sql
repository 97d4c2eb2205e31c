-- GameBench Sea Battle views over the generic `events` table. Seats 0-2 sail A, B, C
-- (team 0), seats 3-5 X, Y, Z (team 1). Each statement is one CREATE OR REPLACE VIEW;
-- statements end with a semicolon, and no comment holds one, so a loader may split on it.

-- One row per ship and turn: the plan it played (empty once sunk).
CREATE OR REPLACE VIEW gb_sea_battle_turns AS
SELECT e.game_id,
       CAST(e.payload->>'turn' AS INTEGER) AS turn,
       CAST(p.seat - 1 AS SMALLINT) AS seat,
       CAST((p.seat - 1) // 3 AS SMALLINT) AS team,
       p.plan
FROM events e,
     unnest(CAST(e.payload->'plans' AS VARCHAR[])) WITH ORDINALITY AS p(plan, seat)
WHERE e.type = 'gb_sb_turn_played' AND p.plan <> '';

-- One row per damage a ship took: the turn, the phase (move or fire, step 1..4), the cause
-- (rock, ram, cannon), the amount and, for a cannonball, the seat that fired it.
CREATE OR REPLACE VIEW gb_sea_battle_hits AS
WITH phases AS (
    SELECT e.game_id,
           CAST(e.payload->>'turn' AS INTEGER) AS turn,
           unnest(CAST(e.payload->'phases' AS JSON[])) AS phase
    FROM events e WHERE e.type = 'gb_sb_turn_played'
),
hits AS (
    SELECT game_id, turn,
           phase->>'kind' AS kind,
           CAST(phase->>'step' AS INTEGER) AS step,
           unnest(CAST(phase->'hits' AS JSON[])) AS hit
    FROM phases
)
SELECT game_id, turn, kind, step,
       CAST(hit->>'seat' AS SMALLINT) AS seat,
       hit->>'cause' AS cause,
       CAST(hit->>'damage' AS INTEGER) AS damage,
       CAST(hit->>'by' AS SMALLINT) AS by_seat
FROM hits;
