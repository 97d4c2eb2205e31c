-- Air, Land and Sea (GameBench) views over the generic `events` table. Each statement is one
-- CREATE OR REPLACE VIEW, and they hold no data of their own. Statements end with a
-- semicolon, and no comment holds one, so a loader may split on it.

-- One row per battle: how it ended (withdrew or theatres), the winner, the points it
-- gained and both seats' victory points after it.
CREATE OR REPLACE VIEW gb_als_battles AS
SELECT game_id,
       CAST(payload->>'battle' AS INTEGER) AS battle,
       payload->>'reason' AS reason,
       CAST(payload->>'winner' AS SMALLINT) AS winner,
       CAST(payload->>'gained' AS INTEGER) AS gained,
       CAST(payload->'vp'->>0 AS INTEGER) AS vp0,
       CAST(payload->'vp'->>1 AS INTEGER) AS vp1
FROM events
WHERE type = 'als_battle_ended';

-- One row per card played, in order (n numbers the decisions of a game): the card (NULL
-- when played face down), the theatre, face up or not, how it was played (turn, redeploy,
-- reinforce) and the ability that destroyed it at once, if any.
CREATE OR REPLACE VIEW gb_als_plays AS
SELECT game_id,
       CAST(payload->>'n' AS INTEGER) AS n,
       CAST(payload->>'seat' AS SMALLINT) AS seat,
       payload->>'card' AS card,
       payload->>'theatre' AS theatre,
       CAST(payload->>'faceup' AS BOOLEAN) AS faceup,
       payload->>'via' AS via,
       payload->>'destroyed' AS destroyed
FROM events
WHERE type = 'als_played';
