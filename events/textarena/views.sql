-- Views of games played through TextArena, over the generic `events` and `games` tables.
-- Each statement is one CREATE OR REPLACE VIEW, and they hold no data of their own.
-- Statements end with a semicolon, and no comment holds one, so a loader may split on it.

-- Every TextArena game: its environment id, the player count and seed it was reset with
-- (reset(num_players=num_players, seed=seed)), and the rewards close() gave (one per seat,
-- in seat order; NULL until the game ends).
CREATE OR REPLACE VIEW textarena_games AS
WITH started AS (
    SELECT e.game_id,
           e.payload->>'env_id' AS env_id,
           CAST(e.payload->'config'->>'players' AS INTEGER) AS num_players,
           CAST(e.payload->>'seed' AS BIGINT) AS seed,
           e.payload->'config'->>'preset' AS preset
    FROM events e JOIN games g USING (game_id)
    WHERE e.type = 'game_started' AND g.game = 'textarena'
),
ended AS (
    SELECT e.game_id, CAST(e.payload->'scores' AS DOUBLE[]) AS rewards,
           e.payload->>'reason' AS reason
    FROM events e JOIN games g USING (game_id)
    WHERE e.type = 'game_ended' AND g.game = 'textarena'
)
SELECT s.game_id, s.env_id, s.num_players, s.seed, d.rewards, s.preset, d.reason
FROM started s LEFT JOIN ended d USING (game_id);

-- Every env.step of every TextArena game, in order: the action string as TextArena got it.
CREATE OR REPLACE VIEW textarena_actions AS
SELECT game_id,
       CAST(payload->>'step' AS INTEGER) AS step,
       CAST(payload->>'player' AS SMALLINT) AS player,
       payload->>'action' AS action
FROM events WHERE type = 'textarena_action';

-- TextArena's verdicts: every action it judged invalid, with its reason.
CREATE OR REPLACE VIEW textarena_invalid_moves AS
SELECT game_id,
       CAST(payload->>'step' AS INTEGER) AS step,
       CAST(payload->>'player' AS SMALLINT) AS player,
       payload->>'reason' AS reason
FROM events WHERE type = 'textarena_invalid';

-- Each seat's role as the end of the game names it, with its reward and whether TextArena
-- marked its invalid move as what cost it the game.
CREATE OR REPLACE VIEW textarena_roles AS
SELECT e.game_id, s.i - 1 AS seat,
       e.payload->'roles'->>(s.i - 1) AS role,
       CAST(e.payload->'scores'->>(s.i - 1) AS DOUBLE) AS reward,
       CAST(e.payload->'invalid'->>(s.i - 1) AS BOOLEAN) AS ended_by_error
FROM events e JOIN games g USING (game_id),
     range(1, CAST(json_array_length(e.payload->'scores') AS BIGINT) + 1) AS s(i)
WHERE e.type = 'game_ended' AND g.game = 'textarena';
