-- Arctic Scavengers (GameBench) views over the generic `events` table.
-- Each statement is one CREATE OR REPLACE VIEW, and they hold no data of their own.
-- Statements end with a semicolon, and no comment holds one, so a loader may split on it.

-- One row per gathering action of every game, in order: the cards spent face up (a JSON
-- list of titles), the value (cards dug or drawn, food hunted), the mercenary hired.
CREATE OR REPLACE VIEW arc_actions AS
SELECT game_id,
       seq,
       CAST(payload->>'round' AS INTEGER) AS round,
       CAST(payload->>'seat' AS SMALLINT) AS seat,
       payload->>'action' AS action,
       payload->'cards' AS cards,
       CAST(payload->>'value' AS INTEGER) AS value,
       payload->>'hired' AS hired,
       CAST(payload->>'food' AS INTEGER) AS food
FROM events
WHERE type = 'arc_played';

-- One row per skirmish: the winner (NULL for a tie), the contested resource and each
-- pile's fight and people (JSON lists by seat).
CREATE OR REPLACE VIEW arc_skirmishes AS
SELECT game_id,
       CAST(payload->>'round' AS INTEGER) AS round,
       CAST(payload->>'winner' AS SMALLINT) AS winner,
       payload->>'card' AS card,
       payload->'fight' AS fight,
       payload->'people' AS people
FROM events
WHERE type = 'arc_skirmished';
