-- Fast staging of the analysis views for a rebuild (see build.py).
--
-- The views of events/cattle/views.sql each scan and parse the log on their own; a rebuild
-- over millions of events instead reads the log once, parses every needed payload once
-- (into narrow per-type tables) and derives the same tables from those. tests/metrics/test_stage.py checks that
-- every staged table equals its view, row for row, so the two cannot drift apart.
-- Differences by design: stage.bids_detail holds placed bids only (passes are counted in
-- stage.bid_passes), and money is read at the auction's opening (it cannot change during an
-- auction: the donkey payout comes before the opening).
-- `{finished}` is replaced by a condition on game_id selecting the games to stage.

-- The two most frequent kinds, parsed straight from the log.
CREATE TABLE stage.e_placed AS
SELECT game_id, seq, turn, actor AS seat, CAST(j[1] AS INTEGER) AS auction,
       CAST(j[2] AS INTEGER) AS round, CAST(j[3] AS INTEGER) AS amount
FROM (SELECT *, json_extract_string(payload, ['$.auction', '$.round', '$.amount']) AS j
      FROM main.events WHERE type = 'bid_placed' AND {finished});

CREATE TABLE stage.e_round AS
SELECT game_id, seq, turn, CAST(j[1] AS INTEGER) AS auction, CAST(j[2] AS INTEGER) AS round,
       CAST(j[3] AS SMALLINT) AS leader, CAST(j[4] AS INTEGER) AS standing,
       CAST(j[5] AS BOOLEAN) AS confirmation
FROM (SELECT *, json_extract_string(payload, ['$.auction', '$.round', '$.leader', '$.price', '$.confirmation']) AS j
      FROM main.events WHERE type = 'bid_round_opened' AND {finished});

-- Every other needed event in one read, then one narrow table per kind (each payload
-- parsed once; the acting seat comes from the typed `actor` column).
CREATE TABLE stage.raw AS
SELECT game_id, seq, turn, actor, type, CAST(payload AS VARCHAR) AS payload
FROM main.events
WHERE type IN ('game_started', 'auction_opened', 'auction_won', 'auctioneer_decided',
               'payment_made', 'payment_cards', 'donkey_payout', 'trade_initiated',
               'trade_accepted', 'trade_countered', 'offer_cards', 'offers_revealed', 'trade_won',
               'trade_tied', 'set_completed', 'game_ended', 'turn_chosen', 'auction_restarted')
  AND {finished};

CREATE TABLE stage.e_started AS
SELECT game_id, CAST(j[1] AS SMALLINT) AS set_size, CAST(j[2] AS INTEGER[]) AS start_money
FROM (SELECT *, json_extract_string(payload, ['$.config.set_size', '$.config.start_money']) AS j
      FROM stage.raw WHERE type = 'game_started');

CREATE TABLE stage.e_ended AS
SELECT game_id, turn, j.scores, j.ranks, j.sets
FROM (SELECT *, json_transform(payload, '{"scores": "INTEGER[]", "ranks": "INTEGER[]", "sets": "VARCHAR[][]"}') AS j
      FROM stage.raw WHERE type = 'game_ended');

CREATE TABLE stage.e_opened AS
SELECT game_id, seq, turn, actor AS auctioneer, CAST(j[1] AS INTEGER) AS auction, j[2] AS animal
FROM (SELECT *, json_extract_string(payload, ['$.auction', '$.animal']) AS j
      FROM stage.raw WHERE type = 'auction_opened');

CREATE TABLE stage.e_won AS
SELECT game_id, turn, actor AS winner, CAST(j[1] AS INTEGER) AS auction, CAST(j[2] AS INTEGER) AS price
FROM (SELECT *, json_extract_string(payload, ['$.auction', '$.price']) AS j
      FROM stage.raw WHERE type = 'auction_won');

CREATE TABLE stage.e_decided AS
SELECT game_id, turn, CAST(j[1] AS INTEGER) AS auction, j[2] AS decision, CAST(j[3] AS BOOLEAN) AS offered
FROM (SELECT *, json_extract_string(payload, ['$.auction', '$.decision', '$.offered']) AS j
      FROM stage.raw WHERE type = 'auctioneer_decided');

CREATE TABLE stage.e_restarted AS
SELECT game_id, CAST(payload->>'auction' AS INTEGER) AS auction
FROM stage.raw WHERE type = 'auction_restarted';

CREATE TABLE stage.e_paid AS
SELECT game_id, seq, turn, actor AS payer, CAST(j[1] AS SMALLINT) AS payee,
       CAST(j[2] AS INTEGER) AS price, CAST(j[3] AS SMALLINT) AS n_cards, j[4] AS reason
FROM (SELECT *, json_extract_string(payload, ['$.payee', '$.amount', '$.n_cards', '$.reason']) AS j
      FROM stage.raw WHERE type = 'payment_made');

CREATE TABLE stage.e_cards AS
SELECT game_id, turn, CAST(json_extract(payload, '$.cards') AS INTEGER[]) AS cards
FROM stage.raw WHERE type = 'payment_cards';

CREATE TABLE stage.donkey_payouts AS
SELECT game_id, seq, turn, CAST(j[1] AS SMALLINT) AS donkey, CAST(j[2] AS INTEGER) AS amount
FROM (SELECT *, json_extract_string(payload, ['$.donkey', '$.amount']) AS j
      FROM stage.raw WHERE type = 'donkey_payout');

CREATE TABLE stage.e_initiated AS
SELECT game_id, seq, turn, actor AS initiator, CAST(j[1] AS INTEGER) AS trade,
       CAST(j[2] AS SMALLINT) AS target, j[3] AS animal, CAST(j[4] AS SMALLINT) AS offer_cards
FROM (SELECT *, json_extract_string(payload, ['$.trade', '$.target', '$.animal', '$.n_cards']) AS j
      FROM stage.raw WHERE type = 'trade_initiated');

CREATE TABLE stage.e_trade AS
SELECT game_id, type, actor, CAST(j[1] AS INTEGER) AS trade, j[2] AS a, j[3] AS b, j[4] AS c
FROM (SELECT *, json_extract_string(payload, ['$.trade', '$.n_cards', '$.ties', '$.loser', '$.count', '$.reason']) AS j0,
             [j0[1], coalesce(j0[2], j0[3], j0[4]), j0[5], j0[6]] AS j
      FROM stage.raw WHERE type IN ('trade_accepted', 'trade_countered', 'trade_tied', 'trade_won'));

CREATE TABLE stage.e_offer AS
SELECT game_id, seq, turn, actor AS seat, CAST(j[1] AS INTEGER) AS trade, j[2] AS role,
       CAST(j[3] AS INTEGER[]) AS cards
FROM (SELECT *, json_extract_string(payload, ['$.trade', '$.role', '$.cards']) AS j
      FROM stage.raw WHERE type = 'offer_cards');

CREATE TABLE stage.e_revealed AS
SELECT game_id, seq, turn, CAST(j[1] AS INTEGER) AS trade, CAST(j[2] AS SMALLINT) AS initiator,
       CAST(j[3] AS SMALLINT) AS target, CAST(j[4] AS INTEGER[]) AS ic, CAST(j[5] AS INTEGER[]) AS tc
FROM (SELECT *, json_extract_string(payload, ['$.trade', '$.initiator', '$.target', '$.initiator_cards', '$.target_cards']) AS j
      FROM stage.raw WHERE type = 'offers_revealed');

CREATE TABLE stage.e_set AS
SELECT game_id, seq, turn, actor AS seat, payload->>'animal' AS animal
FROM stage.raw WHERE type = 'set_completed';

CREATE TABLE stage.e_chosen AS
SELECT game_id, seq, turn, actor AS seat, j[1] AS choice, CAST(j[2] AS BOOLEAN) AS forced
FROM (SELECT *, json_extract_string(payload, ['$.choice', '$.forced']) AS j
      FROM stage.raw WHERE type = 'turn_chosen');

DROP TABLE stage.raw;

CREATE TABLE stage.bid_passes AS
SELECT game_id, actor AS seat, count(*) AS passes
FROM main.events WHERE type = 'bid_passed' AND {finished} GROUP BY ALL;

CREATE TABLE stage.game AS
SELECT s.game_id, s.set_size, CAST(coalesce(list_sum(s.start_money), 0) AS INTEGER) AS start_money,
       e.turn AS last_turn
FROM stage.e_started s LEFT JOIN stage.e_ended e USING (game_id);

CREATE TABLE stage.seats AS
SELECT s.* FROM main.seats s SEMI JOIN stage.game g ON g.game_id = s.game_id;

-- The final (exchanged) offers of every trade: its last reveal (every trade ends in one).
CREATE TABLE stage.exchanges AS
SELECT game_id, max(seq) + 1 AS seq, arg_max(turn, seq) AS turn, trade,
       arg_max(initiator, seq) AS initiator, arg_max(target, seq) AS target,
       arg_max(CAST(coalesce(list_sum(ic), 0) AS INTEGER), seq) AS initiator_paid,
       arg_max(CAST(len(ic) AS SMALLINT), seq) AS initiator_paid_cards,
       arg_max(CAST(coalesce(list_sum(tc), 0) AS INTEGER), seq) AS target_paid,
       arg_max(CAST(len(tc) AS SMALLINT), seq) AS target_paid_cards
FROM stage.e_revealed GROUP BY game_id, trade;

CREATE TABLE stage.payments AS
SELECT m.game_id, m.seq, m.turn, o.auction, o.animal, m.payer, m.payee, m.reason, m.price,
       m.n_cards, c.cards, CAST(coalesce(list_sum(c.cards), 0) AS INTEGER) AS paid,
       CAST(coalesce(list_sum(c.cards), 0) - m.price AS INTEGER) AS overpay
FROM stage.e_paid m
LEFT JOIN stage.e_cards c USING (game_id, turn)
LEFT JOIN stage.e_opened o USING (game_id, turn);

CREATE TABLE stage.money_flows AS
SELECT game_id, seq, turn, seat, delta FROM (
    SELECT g.game_id, 0 AS seq, 0 AS turn, s.seat, g.start_money AS delta
    FROM stage.game g JOIN stage.seats s USING (game_id)
    UNION ALL
    SELECT d.game_id, d.seq, d.turn, s.seat, d.amount FROM stage.donkey_payouts d JOIN stage.seats s USING (game_id)
    UNION ALL
    SELECT game_id, seq, turn, payer, -paid FROM stage.payments
    UNION ALL
    SELECT game_id, seq, turn, payee, paid FROM stage.payments
    UNION ALL
    SELECT game_id, seq, turn, initiator, target_paid - initiator_paid FROM stage.exchanges
    UNION ALL
    SELECT game_id, seq, turn, target, initiator_paid - target_paid FROM stage.exchanges
);

CREATE TABLE stage.money AS
SELECT game_id, seq, turn, seat,
       CAST(sum(delta) OVER (PARTITION BY game_id, seat ORDER BY seq
                             ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS INTEGER) AS money
FROM stage.money_flows;

CREATE TABLE stage.auctions AS
WITH restarts AS (
    SELECT game_id, auction, count(*) AS restarts FROM stage.e_restarted GROUP BY ALL
),
rounds AS (
    SELECT game_id, auction, count(*) AS rounds FROM stage.e_round GROUP BY ALL
),
phase AS (
    SELECT o.game_id, o.auction, coalesce(d.donkey, 0) AS donkeys_drawn
    FROM stage.e_opened o ASOF LEFT JOIN stage.donkey_payouts d ON o.game_id = d.game_id AND o.seq >= d.seq
)
SELECT o.game_id, o.seq, o.turn, o.auction, o.auctioneer, o.animal,
       CAST(animal_value(o.animal) AS INTEGER) AS set_value,
       CAST(ph.donkeys_drawn AS SMALLINT) AS donkeys_drawn,
       donkey_phase(ph.donkeys_drawn, g.set_size) AS phase,
       CAST(coalesce(r.rounds, 0) AS INTEGER) AS rounds,
       CAST(coalesce(x.restarts, 0) AS INTEGER) AS restarts,
       w.winner, w.price,
       CASE WHEN w.winner IS NULL THEN 'free' WHEN d.decision = 'buy_right' THEN 'buy_right'
            ELSE 'sold' END AS outcome,
       d.offered AS buy_right_offered,
       CAST(CASE WHEN d.decision = 'buy_right' OR w.winner IS NULL THEN o.auctioneer ELSE w.winner END
            AS SMALLINT) AS buyer,
       p.payer, p.paid, p.overpay
FROM stage.e_opened o
JOIN stage.game g USING (game_id)
LEFT JOIN phase ph USING (game_id, auction)
LEFT JOIN rounds r USING (game_id, auction)
LEFT JOIN restarts x USING (game_id, auction)
LEFT JOIN stage.e_won w USING (game_id, auction)
LEFT JOIN stage.e_decided d USING (game_id, auction)
LEFT JOIN stage.payments p USING (game_id, auction);

-- Money cannot change during an auction, so a bidder's money at its bid is its money when
-- the auction opened.
CREATE TABLE stage.bids_detail AS
WITH opening_money AS (
    SELECT a.game_id, a.auction, s.seat, m.money
    FROM stage.auctions a JOIN stage.seats s USING (game_id)
    ASOF LEFT JOIN stage.money m ON a.game_id = m.game_id AND s.seat = m.seat AND a.seq >= m.seq
)
SELECT b.game_id, b.seq, b.turn, b.auction, b.round, b.seat, s.agent, b.amount,
       false AS passed, om.money, r.leader, r.standing, r.confirmation,
       a.animal, a.set_value, a.donkeys_drawn, a.phase,
       CAST(b.amount AS DOUBLE) / a.set_value AS aggressiveness,
       coalesce(r.leader = b.seat, false) AS self_bid,
       coalesce(b.amount > om.money, false) AS overbid
FROM stage.e_placed b
JOIN stage.e_round r USING (game_id, auction, round)
JOIN stage.auctions a USING (game_id, auction)
JOIN stage.seats s ON s.game_id = b.game_id AND s.seat = b.seat
LEFT JOIN opening_money om ON om.game_id = b.game_id AND om.auction = b.auction AND om.seat = b.seat;

CREATE TABLE stage.trade_offers AS
SELECT game_id, seq, turn, trade, seat, role, cards, CAST(len(cards) AS SMALLINT) AS n_cards,
       CAST(coalesce(list_sum(cards), 0) AS INTEGER) AS value,
       len(cards) > 0 AND coalesce(list_max(cards), 0) = 0 AS bluff
FROM stage.e_offer;

CREATE TABLE stage.trades AS
WITH per_trade AS (
    SELECT game_id, trade,
           max(CASE type WHEN 'trade_accepted' THEN 'accepted' WHEN 'trade_countered' THEN 'countered' END) AS response,
           max(CAST(a AS SMALLINT)) FILTER (WHERE type = 'trade_countered') AS counter_cards,
           max(CAST(a AS INTEGER)) FILTER (WHERE type = 'trade_tied') AS ties,
           max(actor) FILTER (WHERE type = 'trade_won') AS winner,
           max(CAST(a AS SMALLINT)) FILTER (WHERE type = 'trade_won') AS loser,
           max(CAST(b AS SMALLINT)) FILTER (WHERE type = 'trade_won') AS animals_moved,
           max(c) FILTER (WHERE type = 'trade_won') AS win_reason
    FROM stage.e_trade GROUP BY ALL
),
first_offers AS (
    SELECT game_id, trade,
           max(value) FILTER (WHERE role = 'offer') AS offer_value,
           bool_or(bluff) FILTER (WHERE role = 'offer') AS bluff,
           max(value) FILTER (WHERE role = 'counter') AS counter_value
    FROM stage.trade_offers GROUP BY ALL
)
SELECT i.game_id, i.seq, i.turn, i.trade, i.initiator, i.target, i.animal,
       CAST(animal_value(i.animal) AS INTEGER) AS set_value,
       i.offer_cards, f.offer_value, coalesce(f.bluff, false) AS bluff,
       t.response, t.counter_cards, f.counter_value,
       CAST(coalesce(t.ties, 0) AS INTEGER) AS ties,
       x.initiator_paid, x.initiator_paid_cards, x.target_paid, x.target_paid_cards,
       CAST(x.target_paid - x.initiator_paid AS INTEGER) AS initiator_net,
       t.winner, t.loser, t.animals_moved, t.win_reason
FROM stage.e_initiated i
LEFT JOIN per_trade t USING (game_id, trade)
LEFT JOIN first_offers f USING (game_id, trade)
LEFT JOIN stage.exchanges x USING (game_id, trade);

CREATE TABLE stage.set_completions AS
WITH r AS (
    SELECT c.*, CAST(animal_value(animal) AS INTEGER) AS set_value,
           CAST(row_number() OVER w AS INTEGER) AS sets,
           CAST(sum(animal_value(animal)) OVER w AS INTEGER) AS set_values
    FROM stage.e_set c WINDOW w AS (PARTITION BY game_id, seat ORDER BY seq)
)
SELECT game_id, seq, turn, seat, animal, set_value, sets, CAST(set_values * sets AS INTEGER) AS score
FROM r;

CREATE TABLE stage.scores AS
SELECT s.game_id, s.seat, s.agent,
       e.scores[s.seat + 1] AS score,
       CAST(len(e.sets[s.seat + 1]) AS INTEGER) AS complete_sets,
       e.ranks[s.seat + 1] AS rank
FROM stage.seats s JOIN stage.e_ended e USING (game_id);

-- Money at the end of every turn: the running sum of each seat's changes up to that turn.
CREATE TABLE stage.wealth_by_turn AS
WITH per_turn AS (
    SELECT game_id, seat, turn,
           sum(sum(delta)) OVER (PARTITION BY game_id, seat ORDER BY turn
                                 ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS money
    FROM stage.money_flows GROUP BY game_id, seat, turn
),
grid AS (
    SELECT g.game_id, s.seat, s.agent, CAST(unnest(range(0, g.last_turn + 1)) AS INTEGER) AS turn
    FROM stage.game g JOIN stage.seats s USING (game_id)
)
SELECT gr.game_id, gr.turn, gr.seat, gr.agent, CAST(p.money AS INTEGER) AS money
FROM grid gr
ASOF LEFT JOIN per_turn p ON p.game_id = gr.game_id AND p.seat = gr.seat AND gr.turn >= p.turn;

CREATE TABLE stage.rejections AS SELECT * FROM main.rejections WHERE {finished};
CREATE TABLE stage.fallbacks AS SELECT * FROM main.fallbacks WHERE {finished};
CREATE TABLE stage.llm_calls AS SELECT * FROM main.llm_calls WHERE {finished};
CREATE TABLE stage.llm_decisions AS SELECT * FROM main.llm_decisions WHERE {finished};
