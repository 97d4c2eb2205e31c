-- Model exchanges (engine-only `llm_call` events) with typed columns, and per-seat summaries.

-- One row per model call (every attempt, retry and scratchpad update).
CREATE OR REPLACE VIEW llm_calls AS
SELECT e.game_id, e.seq, e.turn,
       CAST(e.payload->>'seat' AS SMALLINT) AS seat,
       s.agent,
       s.tournament,
       e.payload->>'decision' AS decision,
       e.payload->>'stage' AS stage,
       CAST(e.payload->>'attempt' AS INTEGER) AS attempt,
       e.payload->>'provider' AS provider,
       e.payload->>'model' AS model,
       e.payload->>'base_url' AS base_url,
       CAST(e.payload->>'temperature' AS DOUBLE) AS temperature,
       CAST(e.payload->>'max_tokens' AS INTEGER) AS max_tokens,
       e.payload->>'reasoning_effort' AS reasoning_effort,
       -- (a negative count, which only a broken provider reports, counts as none)
       greatest(CAST(e.payload->>'input_tokens' AS BIGINT), 0) AS input_tokens,
       greatest(CAST(e.payload->>'output_tokens' AS BIGINT), 0) AS output_tokens,
       greatest(CAST(e.payload->>'reasoning_tokens' AS BIGINT), 0) AS reasoning_tokens,
       CAST(e.payload->>'latency_ms' AS DOUBLE) AS latency_ms,
       e.payload->>'finish_reason' AS finish_reason,
       CAST(e.payload->>'status' AS INTEGER) AS status,
       CAST(e.payload->>'retry_after' AS DOUBLE) AS retry_after,
       e.payload->>'error' AS error,
       e.payload->>'parse_stage' AS parse_stage,
       e.payload->>'parse_error' AS parse_error,
       e.payload->>'response' AS response,
       coalesce(CAST(e.payload->>'usage_estimated' AS BOOLEAN), false) AS usage_estimated
FROM events e
LEFT JOIN seats s ON s.game_id = e.game_id AND s.seat = CAST(e.payload->>'seat' AS SMALLINT)
WHERE e.type = 'llm_call';

-- Per game and seat: calls, tokens, latency, and how often answers needed repair or retries.
-- `decisions` counts the seat's decisions as `llm_outcomes` does: its `model_decision`
-- events, or (a game stored before they existed) its first asks.
CREATE OR REPLACE VIEW llm_usage AS
WITH decided AS (
    SELECT game_id, CAST(payload->>'seat' AS SMALLINT) AS seat, count(*) AS n
    FROM events WHERE type = 'model_decision'
    GROUP BY ALL
)
SELECT c.game_id, c.seat, any_value(c.agent) AS agent, any_value(c.tournament) AS tournament,
       any_value(c.provider) AS provider, any_value(c.model) AS model,
       count(*) AS calls,
       coalesce(any_value(d.n),
                count(*) FILTER (WHERE c.stage = 'ask' AND c.attempt = 1)) AS decisions,
       count(*) FILTER (WHERE c.stage = 'scratchpad' AND c.error IS NULL) AS note_updates,
       sum(c.input_tokens) AS input_tokens,
       sum(c.output_tokens) AS output_tokens,
       sum(c.reasoning_tokens) AS reasoning_tokens,
       sum(c.latency_ms) / 1000.0 AS model_seconds,
       count(*) FILTER (WHERE c.error IS NOT NULL) AS transport_errors,
       count(*) FILTER (WHERE c.parse_stage = 'truncated') AS truncated,
       count(*) FILTER (WHERE c.parse_error IS NOT NULL AND c.parse_stage IS NOT NULL
                          AND c.parse_stage <> 'truncated') AS format_errors,
       count(*) FILTER (WHERE c.parse_stage IN ('last_object', 'key_value', 'lenient', 'number',
                                               'text', 'last_line')) AS repaired,
       count(*) FILTER (WHERE c.parse_stage IS NOT NULL AND c.parse_stage <> 'truncated')
           AS parsed,
       count(*) FILTER (WHERE c.usage_estimated) AS estimated_calls
FROM llm_calls c
LEFT JOIN decided d ON d.game_id = c.game_id AND d.seat = c.seat
GROUP BY c.game_id, c.seat;

-- Per game and seat: decisions that ended in a rejection, an engine fallback or a default
-- (`budget_defaults`: those played because the seat's budget was spent).
CREATE OR REPLACE VIEW llm_fallbacks AS
SELECT u.game_id, u.seat, u.agent, u.tournament, u.decisions,
       count(*) FILTER (WHERE e.type = 'action_rejected') AS rejections,
       count(*) FILTER (WHERE e.type = 'fallback_applied') AS engine_fallbacks,
       count(*) FILTER (WHERE e.type = 'action_defaulted') AS defaults,
       count(*) FILTER (WHERE e.type = 'action_defaulted'
                          AND starts_with(e.payload->>'reason', 'budget spent')) AS budget_defaults
FROM llm_usage u
LEFT JOIN events e
       ON e.game_id = u.game_id AND e.actor = u.seat
      AND e.type IN ('action_rejected', 'fallback_applied', 'action_defaulted')
GROUP BY u.game_id, u.seat, u.agent, u.tournament, u.decisions;

-- The rules' and environments' verdicts on a seat's action: every event whose tag ends in
-- `_rejected`, `_refused` or `_invalid` (a rules' rejection, a refused request, TextArena's
-- invalid-move verdict). Each game tags its verdicts so, with the seat as the event's actor
-- and the reason in `reason` (events.agent.VERDICT_SUFFIXES; docs/architecture.md).
-- A TextArena game stored by rules 1.0.0 holds no verdict event for a move Codenames refused
-- only in a message to everyone; the message is in the seat's next observation, and is read
-- from there (and one stored before 1.2.0, for a clue that ended the game: below).
CREATE OR REPLACE VIEW verdicts AS
SELECT game_id, seq, actor AS seat, type, payload->>'reason' AS reason
FROM events
WHERE actor IS NOT NULL
  AND (suffix(type, '_rejected') OR suffix(type, '_refused') OR suffix(type, '_invalid'))
UNION ALL
SELECT e.game_id, e.seq, e.actor AS seat, e.type,
       regexp_extract(e.payload->>'text',
                      '[^\n\[\]]*Player ' || e.actor || ', did not provide a valid [^\n]*')
           AS reason
FROM events e JOIN games g USING (game_id)
WHERE e.type = 'textarena_observed' AND g.game = 'textarena' AND g.engine_version = '1.0.0'
  AND contains(e.payload->>'text', 'Player ' || e.actor || ', did not provide a valid ')
-- A TextArena game stored before rules 1.2.0 holds no verdict event for a move Codenames
-- forbade only by ending the game (a clue that is a board word or part of one): the end's
-- reason says so, and the move was the last action sent.
UNION ALL
SELECT e.game_id, e.seq,
       (SELECT arg_max(CAST(a.payload->>'player' AS SMALLINT), a.seq) FROM events a
        WHERE a.game_id = e.game_id AND a.type = 'textarena_action' AND a.seq < e.seq) AS seat,
       e.type, e.payload->>'reason' AS reason
FROM events e JOIN games g USING (game_id)
WHERE e.type = 'game_ended' AND g.game = 'textarena'
  AND g.engine_version IN ('1.0.0', '1.1.0')
  AND contains(e.payload->>'reason', 'mentioned a clue that is a subset/ exact match of words');

-- One row per decision of a model seat (`model_decision` events, docs/llm.md) with its
-- outcome class. A move the game refused or judged invalid (a verdict of the seat before its
-- next decision: a rules' rejection, a GameBench refusal, TextArena's invalid-move verdict)
-- counts as `illegal`, with the first verdict's `reason` (a move the game's parser found
-- illegal: the parser's reason), and the rules' fallback
-- (`fallback_applied`) is what was played instead; `fallback` is otherwise the seat's own
-- default (`action_defaulted`). `recorded` is the class the agent recorded from its calls
-- alone. Games stored before decisions recorded their outcome have no rows here (see
-- llm_outcomes).
CREATE OR REPLACE VIEW llm_decisions AS
WITH d AS (
    SELECT e.game_id, e.seq, e.turn,
           CAST(e.payload->>'seat' AS SMALLINT) AS seat,
           e.payload->>'decision' AS decision,
           e.payload->>'outcome' AS recorded,
           CAST(e.payload->>'calls' AS INTEGER) AS calls,
           CAST(e.payload->>'tokens' AS BIGINT) AS tokens,
           e.payload->>'fallback' AS fallback,
           lead(e.seq) OVER (PARTITION BY e.game_id, e.actor ORDER BY e.seq) AS next_seq,
           lag(e.seq) OVER (PARTITION BY e.game_id, e.actor ORDER BY e.seq) AS prev_seq
    FROM events e
    WHERE e.type = 'model_decision'
), parsed AS (
    -- a decision the game's parser found illegal (recorded `illegal`: the answer named a move
    -- the decision does not allow): the parser's reason, from the first answered call
    SELECT d.game_id, d.seq, arg_min(c.payload->>'parse_error', c.seq) AS reason
    FROM d
    JOIN events c
      ON c.game_id = d.game_id AND c.type = 'llm_call' AND c.actor = d.seat
     AND c.seq < d.seq AND (d.prev_seq IS NULL OR c.seq > d.prev_seq)
     AND c.payload->>'stage' <> 'scratchpad' AND c.payload->>'error' IS NULL
     AND c.payload->>'parse_error' IS NOT NULL
    WHERE d.recorded = 'illegal'
    GROUP BY d.game_id, d.seq
), judged AS (
    SELECT d.game_id, d.seq, arg_min(v.reason, v.seq) AS reason
    FROM d
    JOIN verdicts v
      ON v.game_id = d.game_id AND v.seat = d.seat AND v.seq > d.seq
     AND (d.next_seq IS NULL OR v.seq < d.next_seq)
    GROUP BY d.game_id, d.seq
), trimmed AS (
    -- an action the rules took only cut (an event whose `cut` field is true: PACT's message
    -- cut to the word or character limit): a decision recorded `ok` is `repaired`
    SELECT d.game_id, d.seq
    FROM d
    JOIN events x
      ON x.game_id = d.game_id AND x.actor = d.seat AND x.seq > d.seq
     AND (d.next_seq IS NULL OR x.seq < d.next_seq)
     AND x.payload->>'cut' = 'true'
    GROUP BY d.game_id, d.seq
), rules AS (
    SELECT d.game_id, d.seq,
           arg_min(x.payload->>'action', x.seq) AS rules_fallback
    FROM d
    JOIN events x
      ON x.game_id = d.game_id AND x.actor = d.seat AND x.seq > d.seq
     AND (d.next_seq IS NULL OR x.seq < d.next_seq)
     AND x.type = 'fallback_applied'
    GROUP BY d.game_id, d.seq
)
SELECT d.game_id, d.seq, d.turn, d.seat, s.agent, s.tournament, g.game,
       d.decision,
       CASE WHEN j.seq IS NOT NULL AND d.recorded IN ('ok', 'repaired')
            THEN 'illegal'
            WHEN c.seq IS NOT NULL AND d.recorded = 'ok' THEN 'repaired'
            ELSE d.recorded END AS outcome,
       d.recorded, d.calls, d.tokens,
       coalesce(d.fallback, r.rules_fallback) AS fallback,
       coalesce(j.reason, CASE WHEN c.seq IS NOT NULL AND d.recorded = 'ok'
                               THEN 'the rules cut it to their length limit' END,
                p.reason) AS reason
FROM d
LEFT JOIN judged j ON j.game_id = d.game_id AND j.seq = d.seq
LEFT JOIN parsed p ON p.game_id = d.game_id AND p.seq = d.seq
LEFT JOIN trimmed c ON c.game_id = d.game_id AND c.seq = d.seq
LEFT JOIN rules r ON r.game_id = d.game_id AND r.seq = d.seq
LEFT JOIN seats s ON s.game_id = d.game_id AND s.seat = d.seat
LEFT JOIN games g ON g.game_id = d.game_id;

-- Per game and seat of a model: decisions by outcome class. A seat whose game was stored
-- before outcomes were recorded has all its decisions (asks of llm_usage) as `unrecorded`.
CREATE OR REPLACE VIEW llm_outcomes AS
WITH o AS (
    SELECT game_id, seat,
           count(*) AS decisions,
           count(*) FILTER (WHERE outcome = 'ok') AS ok,
           count(*) FILTER (WHERE outcome = 'repaired') AS repaired,
           count(*) FILTER (WHERE outcome = 'unparsable') AS unparsable,
           count(*) FILTER (WHERE outcome = 'illegal') AS illegal,
           count(*) FILTER (WHERE outcome = 'truncated') AS truncated,
           count(*) FILTER (WHERE outcome = 'refused') AS refused,
           count(*) FILTER (WHERE outcome = 'timeout') AS timeout,
           count(*) FILTER (WHERE outcome = 'error') AS error,
           count(*) FILTER (WHERE outcome = 'budget') AS budget
    FROM llm_decisions
    GROUP BY game_id, seat
)
SELECT game_id, seat, s.agent, s.tournament, g.game,
       coalesce(o.decisions, u.decisions) AS decisions,
       coalesce(o.ok, 0) AS ok, coalesce(o.repaired, 0) AS repaired,
       coalesce(o.unparsable, 0) AS unparsable, coalesce(o.illegal, 0) AS illegal,
       coalesce(o.truncated, 0) AS truncated, coalesce(o.refused, 0) AS refused,
       coalesce(o.timeout, 0) AS timeout, coalesce(o.error, 0) AS error,
       coalesce(o.budget, 0) AS budget,
       CASE WHEN o.decisions IS NULL THEN u.decisions ELSE 0 END AS unrecorded
FROM o
FULL JOIN (SELECT game_id, seat, decisions FROM llm_usage) u USING (game_id, seat)
LEFT JOIN seats s USING (game_id, seat)
LEFT JOIN games g USING (game_id);
