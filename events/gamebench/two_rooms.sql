-- GameBench Two Rooms and a Boom views over the generic `events` table. Seats of the first
-- half are blue, of the second half red. Each statement is one CREATE OR REPLACE VIEW;
-- statements end with a semicolon, and no comment holds one, so a loader may split on it.

-- One row per turn to talk: what the player did (said, silent, shown), to whom it showed
-- its card or colour, and what it said. Games with GameBench's talk (talk = ask) have
-- no such turns; their exchanges are in gb_two_rooms_questions.
CREATE OR REPLACE VIEW gb_two_rooms_talk AS
SELECT game_id, seq,
       CAST(payload->>'round' AS INTEGER) AS round,
       CAST(payload->>'room' AS SMALLINT) AS room,
       CAST(payload->>'seat' AS SMALLINT) AS seat,
       CASE type WHEN 'gb_tr_said' THEN 'said'
                 WHEN 'gb_tr_kept_quiet' THEN 'silent'
                 ELSE 'shown' END AS kind,
       CAST(payload->>'to' AS SMALLINT) AS shown_to,
       payload->>'what' AS shown,
       payload->>'text' AS text
FROM events WHERE type IN ('gb_tr_said', 'gb_tr_kept_quiet', 'gb_tr_shown');

-- One row per answered question (talk = ask): who asked whom, the question, the answer,
-- and the leader it was passed on to (NULL for nobody else).
CREATE OR REPLACE VIEW gb_two_rooms_questions AS
SELECT game_id, seq,
       CAST(payload->>'round' AS INTEGER) AS round,
       CAST(payload->>'room' AS SMALLINT) AS room,
       CAST(payload->>'asker' AS SMALLINT) AS asker,
       CAST(payload->>'seat' AS SMALLINT) AS answerer,
       payload->>'question' AS question,
       payload->>'text' AS answer,
       CAST(nullif(CAST(payload->>'leader' AS INTEGER), -1) AS SMALLINT) AS told_leader
FROM events WHERE type = 'gb_tr_answered';

-- One row per hostage: the round, the room it left and the seat that crossed.
CREATE OR REPLACE VIEW gb_two_rooms_hostages AS
SELECT e.game_id,
       CAST(e.payload->>'round' AS INTEGER) AS round,
       CAST(r.room - 1 AS SMALLINT) AS from_room,
       CAST(h.seat AS SMALLINT) AS seat
FROM events e,
     unnest(CAST(e.payload->'sent' AS JSON[])) WITH ORDINALITY AS r(seats, room),
     unnest(CAST(r.seats AS INTEGER[])) AS h(seat)
WHERE e.type = 'gb_tr_hostages_swapped';
