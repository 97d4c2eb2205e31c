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

-- The error attribution lens, per game and seat: actions sent, how many TextArena judged
-- invalid, the step of the first invalid one and how many of the seat's own actions came
-- before it (NULL without one), whether its invalid move ended or cost it the game (TextArena
-- marked it so, or the game ended, with no action after it, on one of the seat's verdicts
-- of the `verdicts` view that `llm_decisions` reads, for the verdict's reason: Codenames'
-- clue that is a board word, which TextArena does not mark), whether it won (the environment named it a winner: TextArena
-- gives its winners the game's top reward, +1, and no seat wins when every reward is
-- equal), and whether it won in
-- a game where an opponent's error cost that opponent the game. An opponent is a seat of
-- another team: Secret Mafia's teams are the Mafia and everyone else (TextArena's win check),
-- Codenames' are seats 0-1 and 2-3 (its winners), and in every other game each seat plays
-- for itself.
CREATE OR REPLACE VIEW textarena_errors AS
WITH acts AS (
    SELECT game_id, CAST(payload->>'player' AS SMALLINT) AS seat,
           CAST(payload->>'step' AS INTEGER) AS step
    FROM events WHERE type = 'textarena_action'
),
bad AS (
    SELECT game_id, CAST(payload->>'player' AS SMALLINT) AS seat,
           count(*) AS invalid_moves, min(CAST(payload->>'step' AS INTEGER)) AS first_step
    FROM events WHERE type = 'textarena_invalid'
    GROUP BY ALL
),
per AS (
    SELECT a.game_id, a.seat, count(*) AS actions,
           count(*) FILTER (WHERE a.step < b.first_step) AS before_first
    FROM acts a LEFT JOIN bad b USING (game_id, seat)
    GROUP BY ALL
),
game AS (
    SELECT game_id, min(reward) AS lowest, max(reward) AS highest
    FROM textarena_roles GROUP BY ALL
),
teams AS (
    SELECT r.game_id, r.seat, r.reward,
           coalesce(r.ended_by_error, false) OR EXISTS (
               SELECT 1 FROM verdicts v
               WHERE v.game_id = r.game_id AND v.seat = r.seat AND v.reason = t.reason
                 AND NOT EXISTS (
                     SELECT 1 FROM events a
                     WHERE a.game_id = v.game_id AND a.type = 'textarena_action'
                       AND a.seq > v.seq
                 )
           ) AS ended_by_error,
           CASE WHEN t.env_id LIKE 'SecretMafia-%'
                    THEN CASE WHEN r.role = 'Mafia' THEN 'mafia' ELSE 'village' END
                WHEN t.env_id LIKE 'Codenames-%' THEN 'team ' || (r.seat // 2)
                ELSE 'seat ' || r.seat END AS team
    FROM textarena_roles r JOIN textarena_games t USING (game_id)
)
SELECT r.game_id, r.seat,
       coalesce(p.actions, 0) AS actions,
       coalesce(b.invalid_moves, 0) AS invalid_moves,
       b.first_step AS first_invalid_step,
       CASE WHEN b.first_step IS NULL THEN NULL ELSE p.before_first END
           AS actions_before_first_error,
       r.ended_by_error,
       g.highest > g.lowest AND r.reward = g.highest AS won,
       g.highest > g.lowest AND r.reward = g.highest AND EXISTS (
           SELECT 1 FROM teams o
           WHERE o.game_id = r.game_id AND o.team <> r.team AND o.ended_by_error
       ) AS won_after_opponent_error
FROM teams r
JOIN game g USING (game_id)
LEFT JOIN per p USING (game_id, seat)
LEFT JOIN bad b USING (game_id, seat);
