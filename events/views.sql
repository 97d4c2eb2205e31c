-- The views every game shares over the append-only `events` table (each game adds its own,
-- e.g. events/cattle/views.sql). Recreated on every open for writing, so they always match
-- the code; they hold no data of their own.

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
