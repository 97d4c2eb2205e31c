-- GameBench "Are You the Traitor?" views over the generic `events` table. Seats 0-1 are the
-- evil team, 2-4 the good team; round names (A to E) are dealt anew each round, and the
-- engine-only deal of each round maps them back to seats. Each statement is one CREATE OR
-- REPLACE VIEW; statements end with a semicolon, and no comment holds one, so a loader may
-- split on it.

-- One row per round: how it ended (stop or silence), the winning team, and for a stop the
-- exchange, the accuser and the accused (round names, seats and roles).
CREATE OR REPLACE VIEW gb_ayt_rounds AS
WITH ended AS (
    SELECT game_id,
           CAST(payload->>'round' AS INTEGER) AS round,
           payload->>'reason' AS reason,
           payload->>'winner' AS winner,
           payload->>'accuser_role' AS accuser_role,
           payload->>'accused_role' AS accused_role
    FROM events WHERE type = 'gb_ayt_round_ended'
),
stops AS (
    SELECT game_id,
           CAST(payload->>'round' AS INTEGER) AS round,
           CAST(payload->>'exchange' AS INTEGER) AS exchange,
           payload->>'accuser' AS accuser,
           payload->>'accused' AS accused
    FROM events WHERE type = 'gb_ayt_stopped'
),
deals AS (
    SELECT game_id,
           CAST(payload->>'round' AS INTEGER) AS round,
           from_json(payload->'names', '["VARCHAR"]') AS names
    FROM events WHERE type = 'gb_ayt_round_dealt'
)
SELECT e.game_id, e.round, e.reason, e.winner, s.exchange,
       s.accuser,
       CAST(list_position(d.names, s.accuser) - 1 AS SMALLINT) AS accuser_seat,
       e.accuser_role,
       s.accused,
       CAST(list_position(d.names, s.accused) - 1 AS SMALLINT) AS accused_seat,
       e.accused_role
FROM ended e
LEFT JOIN stops s ON s.game_id = e.game_id AND s.round = e.round
LEFT JOIN deals d ON d.game_id = e.game_id AND d.round = e.round;

-- One row per question or answer, in order: the round, the exchange, the speaker's round
-- name and seat, whom a question was put to (NULL for an answer) and the text.
CREATE OR REPLACE VIEW gb_ayt_talk AS
WITH talk AS (
    SELECT game_id, seq,
           CAST(payload->>'round' AS INTEGER) AS round,
           CAST(payload->>'exchange' AS INTEGER) AS exchange,
           CASE type WHEN 'gb_ayt_asked' THEN 'ask' ELSE 'answer' END AS kind,
           payload->>'speaker' AS speaker,
           payload->>'to' AS addressee,
           payload->>'text' AS text
    FROM events WHERE type IN ('gb_ayt_asked', 'gb_ayt_answered')
),
deals AS (
    SELECT game_id,
           CAST(payload->>'round' AS INTEGER) AS round,
           from_json(payload->'names', '["VARCHAR"]') AS names
    FROM events WHERE type = 'gb_ayt_round_dealt'
)
SELECT t.game_id, t.seq, t.round, t.exchange, t.kind, t.speaker,
       CAST(list_position(d.names, t.speaker) - 1 AS SMALLINT) AS seat,
       t.addressee, t.text
FROM talk t LEFT JOIN deals d ON d.game_id = t.game_id AND d.round = t.round;
