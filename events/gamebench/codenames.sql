-- GameBench Codenames views over the generic `events` table. Seats 0-1 are red (spymaster,
-- operative), 2-3 blue. Each statement is one CREATE OR REPLACE VIEW; statements end with a
-- semicolon, and no comment holds one, so a loader may split on it.

-- One row per clue: who gave it, the word and number (0: unlimited), whether the rules
-- refused the clue the spymaster gave (an empty clue for 1 then stood in), and the cards
-- the operative revealed under it, split by whose they were.
CREATE OR REPLACE VIEW gb_codenames_clues AS
WITH clues AS (
    SELECT game_id,
           CAST(payload->>'turn' AS INTEGER) AS turn,
           CAST(payload->>'seat' AS SMALLINT) AS seat,
           payload->>'team' AS team,
           payload->>'word' AS word,
           CAST(payload->>'number' AS INTEGER) AS number,
           CAST(payload->>'refused' AS BOOLEAN) AS refused
    FROM events WHERE type = 'gb_cn_clue_given'
),
reveals AS (
    SELECT game_id,
           CAST(payload->>'turn' AS INTEGER) AS turn,
           payload->>'team' AS team,
           payload->>'card' AS card
    FROM events WHERE type = 'gb_cn_card_revealed'
)
SELECT c.game_id, c.turn, c.seat, c.team, c.word, c.number, c.refused,
       count(r.card) FILTER (WHERE r.card = c.team) AS own_found,
       count(r.card) FILTER (WHERE r.card IS NOT NULL AND r.card <> c.team) AS misses
FROM clues c LEFT JOIN reveals r ON r.game_id = c.game_id AND r.turn = c.turn
GROUP BY ALL;

-- One row per guess: the operative, the word and the card it turned out to be.
CREATE OR REPLACE VIEW gb_codenames_guesses AS
SELECT game_id, seq,
       CAST(payload->>'turn' AS INTEGER) AS turn,
       CAST(payload->>'seat' AS SMALLINT) AS seat,
       payload->>'team' AS team,
       payload->>'word' AS word,
       payload->>'card' AS card,
       payload->>'card' = payload->>'team' AS correct
FROM events WHERE type = 'gb_cn_card_revealed';
