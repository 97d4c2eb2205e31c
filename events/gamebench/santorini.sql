-- Santorini (GameBench) views over the generic `events` table. Seat 0 is GameBench's player 1.
-- Each statement is one CREATE OR REPLACE VIEW, and they hold no data of their own.
-- Statements end with a semicolon, and no comment holds one, so a loader may split on it.

-- One row per placement (kind 'place', build columns NULL) or turn (kind 'play') of every
-- Santorini game, in order; cells are (row, col) in 0..4, GameBench's board tuples. A winning
-- move onto level 3 builds nothing: its build columns are NULL.
CREATE OR REPLACE VIEW santorini_actions AS
SELECT game_id,
       CAST(payload->>'ply' AS INTEGER) AS ply,
       CAST(payload->>'seat' AS SMALLINT) AS seat,
       CASE type WHEN 'santorini_placed' THEN 'place' ELSE 'play' END AS kind,
       CAST(payload->>'row' AS SMALLINT) AS "row",
       CAST(payload->>'col' AS SMALLINT) AS col,
       CAST(payload->>'build_row' AS SMALLINT) AS build_row,
       CAST(payload->>'build_col' AS SMALLINT) AS build_col
FROM events
WHERE type IN ('santorini_placed', 'santorini_played');
