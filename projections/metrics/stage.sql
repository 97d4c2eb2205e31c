-- Fast staging of the analysis views for a rebuild (see build.py).
--
-- The views of events/views_analysis.sql each scan and parse the log on their own; a rebuild
-- over millions of events instead parses every needed event ONCE (json_transform into one
-- struct) and derives the same tables from that. tests/metrics/test_stage.py checks that
-- every staged table equals its view, row for row, so the two cannot drift apart.
-- Differences by design: stage.bids_detail holds placed bids only (passes are counted in
-- stage.bid_passes), and money is read at the auction's opening (it cannot change during an
-- auction: the donkey payout comes before the opening).
-- `{finished}` is replaced by a condition on game_id selecting the games to stage.

CREATE TABLE stage.ev AS
SELECT game_id, seq, turn, type,
       json_transform(payload, '{
           "seat": "SMALLINT", "auction": "INTEGER", "round": "INTEGER", "amount": "INTEGER",
           "leader": "SMALLINT", "price": "INTEGER", "confirmation": "BOOLEAN", "animal": "VARCHAR",
           "auctioneer": "SMALLINT", "winner": "SMALLINT", "loser": "SMALLINT", "decision": "VARCHAR",
           "offered": "BOOLEAN", "payer": "SMALLINT", "payee": "SMALLINT", "n_cards": "SMALLINT",
           "reason": "VARCHAR", "cards": "INTEGER[]", "trade": "INTEGER", "initiator": "SMALLINT",
           "target": "SMALLINT", "role": "VARCHAR", "initiator_cards": "INTEGER[]",
           "target_cards": "INTEGER[]", "count": "SMALLINT", "ties": "INTEGER", "donkey": "SMALLINT",
           "choice": "VARCHAR", "forced": "BOOLEAN", "scores": "INTEGER[]", "ranks": "INTEGER[]",
           "sets": "VARCHAR[][]", "turns": "INTEGER",
           "config": {"set_size": "SMALLINT", "start_money": "INTEGER[]"}
       }') AS p
FROM main.events
WHERE type IN ('game_started', 'bid_placed', 'bid_round_opened', 'auction_opened', 'auction_won',
               'auctioneer_decided', 'payment_made', 'payment_cards', 'donkey_payout',
               'trade_initiated', 'trade_accepted', 'trade_countered', 'offer_cards',
               'offers_revealed', 'trade_won', 'trade_tied', 'set_completed', 'game_ended',
               'turn_chosen', 'auction_restarted')
  AND {finished};

CREATE TABLE stage.bid_passes AS
SELECT game_id, actor AS seat, count(*) AS passes
FROM main.events WHERE type = 'bid_passed' AND {finished} GROUP BY ALL;

CREATE TABLE stage.game AS
SELECT s.game_id, s.p.config.set_size AS set_size,
       CAST(coalesce(list_sum(s.p.config.start_money), 0) AS INTEGER) AS start_money,
       e.turn AS last_turn
FROM stage.ev s
LEFT JOIN (SELECT game_id, turn FROM stage.ev WHERE type = 'game_ended') e USING (game_id)
WHERE s.type = 'game_started';

CREATE TABLE stage.seats AS
SELECT s.* FROM main.seats s SEMI JOIN stage.game g ON g.game_id = s.game_id;

CREATE TABLE stage.donkey_payouts AS
SELECT game_id, seq, turn, p.donkey AS donkey, CAST(p.amount AS INTEGER) AS amount
FROM stage.ev WHERE type = 'donkey_payout';

-- The final (exchanged) offers of every trade: the last reveal of the trade.
CREATE TABLE stage.exchanges AS
SELECT game_id, max(seq) + 1 AS seq, arg_max(turn, seq) AS turn, p.trade AS trade,
       arg_max(p.initiator, seq) AS initiator, arg_max(p.target, seq) AS target,
       arg_max(CAST(coalesce(list_sum(p.initiator_cards), 0) AS INTEGER), seq) AS initiator_paid,
       arg_max(CAST(len(p.initiator_cards) AS SMALLINT), seq) AS initiator_paid_cards,
       arg_max(CAST(coalesce(list_sum(p.target_cards), 0) AS INTEGER), seq) AS target_paid,
       arg_max(CAST(len(p.target_cards) AS SMALLINT), seq) AS target_paid_cards
FROM stage.ev WHERE type = 'offers_revealed' GROUP BY game_id, p.trade;

CREATE TABLE stage.payment_cards AS
SELECT game_id, turn, p.cards AS cards, CAST(coalesce(list_sum(p.cards), 0) AS INTEGER) AS paid
FROM stage.ev WHERE type = 'payment_cards';

CREATE TABLE stage.money_flows AS
SELECT game_id, seq, turn, seat, delta FROM (
    SELECT g.game_id, 0 AS seq, 0 AS turn, s.seat, g.start_money AS delta
    FROM stage.game g JOIN stage.seats s USING (game_id)
    UNION ALL
    SELECT d.game_id, d.seq, d.turn, s.seat, d.amount FROM stage.donkey_payouts d JOIN stage.seats s USING (game_id)
    UNION ALL
    SELECT e.game_id, e.seq, e.turn, e.p.payer, -c.paid
    FROM stage.ev e JOIN stage.payment_cards c ON c.game_id = e.game_id AND c.turn = e.turn
    WHERE e.type = 'payment_made'
    UNION ALL
    SELECT e.game_id, e.seq, e.turn, e.p.payee, c.paid
    FROM stage.ev e JOIN stage.payment_cards c ON c.game_id = e.game_id AND c.turn = e.turn
    WHERE e.type = 'payment_made'
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

CREATE TABLE stage.payments AS
WITH opened AS (
    SELECT game_id, turn, p.auction AS auction, p.animal AS animal FROM stage.ev WHERE type = 'auction_opened'
)
SELECT e.game_id, e.seq, e.turn, o.auction, o.animal, e.p.payer AS payer, e.p.payee AS payee,
       e.p.reason AS reason, CAST(e.p.amount AS INTEGER) AS price, e.p.n_cards AS n_cards, c.cards,
       c.paid, CAST(c.paid - e.p.amount AS INTEGER) AS overpay
FROM stage.ev e
LEFT JOIN stage.payment_cards c ON c.game_id = e.game_id AND c.turn = e.turn
LEFT JOIN opened o ON o.game_id = e.game_id AND o.turn = e.turn
WHERE e.type = 'payment_made';

CREATE TABLE stage.auctions AS
WITH opened AS (
    SELECT game_id, seq, turn, p.auction AS auction, p.auctioneer AS auctioneer, p.animal AS animal
    FROM stage.ev WHERE type = 'auction_opened'
),
per_auction AS (
    SELECT game_id, p.auction AS auction,
           count(*) FILTER (WHERE type = 'bid_round_opened') AS rounds,
           count(*) FILTER (WHERE type = 'auction_restarted') AS restarts,
           max(p.winner) FILTER (WHERE type = 'auction_won') AS winner,
           max(CAST(p.price AS INTEGER)) FILTER (WHERE type = 'auction_won') AS price,
           max(p.decision) FILTER (WHERE type = 'auctioneer_decided') AS decision,
           bool_or(p.offered) FILTER (WHERE type = 'auctioneer_decided') AS buy_right_offered
    FROM stage.ev
    WHERE type IN ('bid_round_opened', 'auction_restarted', 'auction_won', 'auctioneer_decided')
    GROUP BY ALL
),
phase AS (
    SELECT o.game_id, o.auction, coalesce(d.donkey, 0) AS donkeys_drawn
    FROM opened o ASOF LEFT JOIN stage.donkey_payouts d ON o.game_id = d.game_id AND o.seq >= d.seq
)
SELECT o.game_id, o.seq, o.turn, o.auction, o.auctioneer, o.animal,
       CAST(animal_value(o.animal) AS INTEGER) AS set_value,
       CAST(ph.donkeys_drawn AS SMALLINT) AS donkeys_drawn,
       donkey_phase(ph.donkeys_drawn, g.set_size) AS phase,
       CAST(coalesce(a.rounds, 0) AS INTEGER) AS rounds,
       CAST(coalesce(a.restarts, 0) AS INTEGER) AS restarts,
       a.winner, a.price,
       CASE WHEN a.winner IS NULL THEN 'free' WHEN a.decision = 'buy_right' THEN 'buy_right'
            ELSE 'sold' END AS outcome,
       a.buy_right_offered,
       CAST(CASE WHEN a.decision = 'buy_right' OR a.winner IS NULL THEN o.auctioneer ELSE a.winner END
            AS SMALLINT) AS buyer,
       p.payer, p.paid, p.overpay
FROM opened o
JOIN stage.game g USING (game_id)
LEFT JOIN phase ph USING (game_id, auction)
LEFT JOIN per_auction a USING (game_id, auction)
LEFT JOIN stage.payments p USING (game_id, auction);

CREATE TABLE stage.bids_detail AS
WITH rounds AS (
    SELECT game_id, p.auction AS auction, p.round AS round, p.leader AS leader,
           CAST(p.price AS INTEGER) AS standing, p.confirmation AS confirmation
    FROM stage.ev WHERE type = 'bid_round_opened'
),
placed AS (
    SELECT game_id, seq, turn, p.auction AS auction, p.round AS round, p.seat AS seat,
           CAST(p.amount AS INTEGER) AS amount
    FROM stage.ev WHERE type = 'bid_placed'
),
opening_money AS (
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
FROM placed b
JOIN rounds r USING (game_id, auction, round)
JOIN stage.auctions a USING (game_id, auction)
JOIN stage.seats s ON s.game_id = b.game_id AND s.seat = b.seat
LEFT JOIN opening_money om ON om.game_id = b.game_id AND om.auction = b.auction AND om.seat = b.seat;

CREATE TABLE stage.trade_offers AS
SELECT game_id, seq, turn, p.trade AS trade, p.seat AS seat, p.role AS role, p.cards AS cards,
       CAST(len(p.cards) AS SMALLINT) AS n_cards,
       CAST(coalesce(list_sum(p.cards), 0) AS INTEGER) AS value,
       len(p.cards) > 0 AND coalesce(list_max(p.cards), 0) = 0 AS bluff
FROM stage.ev WHERE type = 'offer_cards';

CREATE TABLE stage.trades AS
WITH init AS (
    SELECT game_id, seq, turn, p.trade AS trade, p.initiator AS initiator, p.target AS target,
           p.animal AS animal, p.n_cards AS offer_cards
    FROM stage.ev WHERE type = 'trade_initiated'
),
per_trade AS (
    SELECT game_id, p.trade AS trade,
           max(CASE type WHEN 'trade_accepted' THEN 'accepted' WHEN 'trade_countered' THEN 'countered' END) AS response,
           max(p.n_cards) FILTER (WHERE type = 'trade_countered') AS counter_cards,
           max(p.ties) FILTER (WHERE type = 'trade_tied') AS ties,
           max(p.winner) FILTER (WHERE type = 'trade_won') AS winner,
           max(p.loser) FILTER (WHERE type = 'trade_won') AS loser,
           max(p.count) FILTER (WHERE type = 'trade_won') AS animals_moved,
           max(p.reason) FILTER (WHERE type = 'trade_won') AS win_reason
    FROM stage.ev WHERE type IN ('trade_accepted', 'trade_countered', 'trade_tied', 'trade_won')
    GROUP BY ALL
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
FROM init i
LEFT JOIN per_trade t USING (game_id, trade)
LEFT JOIN first_offers f USING (game_id, trade)
LEFT JOIN stage.exchanges x USING (game_id, trade);

CREATE TABLE stage.set_completions AS
WITH c AS (
    SELECT game_id, seq, turn, p.seat AS seat, p.animal AS animal FROM stage.ev WHERE type = 'set_completed'
),
r AS (
    SELECT c.*, CAST(animal_value(animal) AS INTEGER) AS set_value,
           CAST(row_number() OVER w AS INTEGER) AS sets,
           CAST(sum(animal_value(animal)) OVER w AS INTEGER) AS set_values
    FROM c WINDOW w AS (PARTITION BY game_id, seat ORDER BY seq)
)
SELECT game_id, seq, turn, seat, animal, set_value, sets, CAST(set_values * sets AS INTEGER) AS score
FROM r;

CREATE TABLE stage.scores AS
SELECT s.game_id, s.seat, s.agent,
       e.p.scores[s.seat + 1] AS score,
       CAST(len(e.p.sets[s.seat + 1]) AS INTEGER) AS complete_sets,
       e.p.ranks[s.seat + 1] AS rank
FROM stage.seats s JOIN stage.ev e ON e.game_id = s.game_id AND e.type = 'game_ended';

CREATE TABLE stage.turn_choices AS
WITH c AS (
    SELECT game_id, seq, turn, p.seat AS seat, p.choice AS choice, p.forced AS forced
    FROM stage.ev WHERE type = 'turn_chosen'
),
d AS (
    SELECT c.*, coalesce(p.donkey, 0) AS donkeys_drawn
    FROM c ASOF LEFT JOIN stage.donkey_payouts p ON c.game_id = p.game_id AND c.seq >= p.seq
)
SELECT d.game_id, d.seq, d.turn, d.seat, s.agent, d.choice, d.forced, m.money,
       CAST(d.donkeys_drawn AS SMALLINT) AS donkeys_drawn,
       donkey_phase(d.donkeys_drawn, g.set_size) AS phase
FROM d
JOIN stage.seats s ON s.game_id = d.game_id AND s.seat = d.seat
JOIN stage.game g ON g.game_id = d.game_id
ASOF LEFT JOIN stage.money m ON d.game_id = m.game_id AND d.seat = m.seat AND d.seq >= m.seq;

CREATE TABLE stage.wealth_by_turn AS
WITH per_turn AS (
    SELECT game_id, seat, turn, max(money) FILTER (WHERE last) AS money FROM (
        SELECT game_id, seat, turn, money,
               seq = max(seq) OVER (PARTITION BY game_id, seat, turn) AS last
        FROM stage.money)
    GROUP BY ALL
),
grid AS (
    SELECT g.game_id, CAST(unnest(range(0, g.last_turn + 1)) AS INTEGER) AS turn
    FROM stage.game g
)
SELECT gr.game_id, gr.turn, s.seat, s.agent, m.money
FROM grid gr JOIN stage.seats s USING (game_id)
ASOF LEFT JOIN per_turn m ON gr.game_id = m.game_id AND s.seat = m.seat AND gr.turn >= m.turn;

CREATE TABLE stage.rejections AS SELECT * FROM main.rejections WHERE {finished};
CREATE TABLE stage.fallbacks AS SELECT * FROM main.fallbacks WHERE {finished};
CREATE TABLE stage.llm_calls AS SELECT * FROM main.llm_calls WHERE {finished};
