-- Hive (GameBench) views over the generic `events` table. Seat 0 is GameBench's player 1.
-- Each statement is one CREATE OR REPLACE VIEW, and they hold no data of their own.
-- Statements end with a semicolon, and no comment holds one, so a loader may split on it.

-- One row per turn of every Hive game, in order: kind 'place' (from columns NULL), 'move'
-- or 'pass' (piece and all cells NULL). Cells are axial hex coordinates (q, r).
CREATE OR REPLACE VIEW hive_moves AS
SELECT game_id,
       CAST(payload->>'ply' AS INTEGER) AS ply,
       CAST(payload->>'seat' AS SMALLINT) AS seat,
       CASE type WHEN 'hive_placed' THEN 'place' WHEN 'hive_moved' THEN 'move'
            ELSE 'pass' END AS kind,
       payload->>'piece' AS piece,
       CAST(payload->>'from_q' AS INTEGER) AS from_q,
       CAST(payload->>'from_r' AS INTEGER) AS from_r,
       CAST(payload->>'q' AS INTEGER) AS to_q,
       CAST(payload->>'r' AS INTEGER) AS to_r
FROM events
WHERE type IN ('hive_placed', 'hive_moved', 'hive_passed');
