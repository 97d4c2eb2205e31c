-- Views of games played through OpenSpiel, over the generic `events` and `games` tables.
-- Each statement is one CREATE OR REPLACE VIEW, and they hold no data of their own.
-- Statements end with a semicolon, and no comment holds one, so a loader may split on it.

-- Every game's OpenSpiel game string as loaded, its returns (one per seat, in seat order, a
-- JSON array; NULL until the game ends) and its GTBench preset (NULL for a raw game string).
CREATE OR REPLACE VIEW openspiel_games AS
WITH started AS (
    SELECT e.game_id,
           e.payload->>'game_string' AS game_string,
           e.payload->'config'->>'preset' AS preset
    FROM events e JOIN games g USING (game_id)
    WHERE e.type = 'game_started' AND g.game = 'openspiel'
),
ended AS (
    SELECT e.game_id, CAST(e.payload->'scores' AS DOUBLE[]) AS returns
    FROM events e JOIN games g USING (game_id)
    WHERE e.type = 'game_ended' AND g.game = 'openspiel'
)
SELECT s.game_id, s.game_string, d.returns, s.preset
FROM started s LEFT JOIN ended d USING (game_id);

-- Every action of every OpenSpiel game in the order OpenSpiel applied it: one row per chance
-- outcome (player -1) and per move (a simultaneous node gives one row per player).
CREATE OR REPLACE VIEW openspiel_actions AS
SELECT game_id,
       CAST(payload->>'ply' AS INTEGER) AS ply,
       CAST(CASE WHEN type = 'openspiel_chance' THEN '-1' ELSE payload->>'player' END
            AS SMALLINT) AS player,
       CAST(payload->>'action' AS BIGINT) AS action,
       payload->>'text' AS action_text
FROM events WHERE type IN ('openspiel_chance', 'openspiel_move');

-- Every move a seat did not choose itself: a model seat's answer that stayed unusable after
-- its one retry (`action_defaulted`, source 'model'), or an action the rules refused
-- (`openspiel_move_rejected`, source 'rules'). A match "has a fallback" for a seat when this
-- view holds a row of that game and seat.
CREATE OR REPLACE VIEW openspiel_fallbacks AS
SELECT e.game_id, e.seq, e.actor AS seat,
       CASE WHEN e.type = 'action_defaulted' THEN 'model' ELSE 'rules' END AS source,
       e.payload->>'reason' AS reason
FROM events e JOIN games g USING (game_id)
WHERE g.game = 'openspiel' AND e.type IN ('action_defaulted', 'openspiel_move_rejected');
