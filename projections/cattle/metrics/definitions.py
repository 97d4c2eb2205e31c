"""Every behaviour metric of the benchmark, each defined once (see registry.py).

Each function's docstring is the metric's definition; its SQL reads the staged views in the
schema `stage` and returns (game_id, seat, key, num, den). Seats are those of finished games.
"""

from __future__ import annotations

from events.agent import OUTCOMES
from projections.metrics.registry import metric

# Coins leaving a seat's hand: auction payments (as buyer or with the buy-right) and the cards
# it handed over in trade exchanges (accepted offers and counter-exchanges), per animal.
_OUTFLOW = """
    SELECT game_id, payer AS seat, animal, paid AS coins FROM stage.payments
    UNION ALL
    SELECT game_id, initiator, animal, initiator_paid FROM stage.trades WHERE initiator_paid IS NOT NULL
    UNION ALL
    SELECT game_id, target, animal, target_paid FROM stage.trades WHERE target_paid IS NOT NULL
"""


@metric("score", version=1, label="Score")
def score() -> str:
    """Final score S: the sum of the values of the seat's complete sets times the number of
    complete sets, read from the game's end. Aggregated as the mean over the selected games."""
    return "SELECT game_id, seat, '' AS key, score AS num, 1 AS den FROM stage.scores"


@metric("win_rate", version=1, label="Win rate", percent=True)
def win_rate() -> str:
    """Win rate: the share of games in which the seat finished with the highest final score.
    A first place shared by n seats counts 1/n for each of them, so the wins of one game sum to
    one. Aggregated as the mean over games."""
    return """
    SELECT game_id, seat, '' AS key,
           CASE WHEN rank = 1 THEN 1.0 / count(*) FILTER (WHERE rank = 1) OVER (PARTITION BY game_id)
                ELSE 0 END AS num,
           1 AS den
    FROM stage.scores"""


@metric("sets_per_game", version=1, label="Sets/game")
def sets_per_game() -> str:
    """Complete sets per game: how many complete sets the seat held at the end of the game,
    averaged over games."""
    return "SELECT game_id, seat, '' AS key, complete_sets AS num, 1 AS den FROM stage.scores"


@metric("eta", version=1, agg="median", label="η")
def eta() -> str:
    """Capital efficiency η: final score divided by gross outflow, where gross outflow is
    every coin that left the seat's hand: auction payments as buyer or through the buy-right
    (the cards' total, overpay included) and the money cards handed over in trade exchanges
    (accepted offers and counter-exchanges). A game with no outflow has no value (it is left
    out). Aggregated as the median of the per-game values."""
    return f"""
    WITH o AS ({_OUTFLOW})
    SELECT s.game_id, s.seat, '' AS key, s.score AS num, coalesce(sum(o.coins), 0) AS den
    FROM stage.scores s LEFT JOIN o ON o.game_id = s.game_id AND o.seat = s.seat
    GROUP BY s.game_id, s.seat, s.score"""


@metric("tau", version=1, agg="median", label="τ")
def tau() -> str:
    """Trade bargaining tightness τ: over the counter-exchanges the seat won with the higher
    offer in a game, the sum of (loser's offer + 10) divided by the sum of the winner's
    offers. Money moves in steps of 10, so loser + 10 is the least that would have won and τ
    is at most 1; τ = 1 means the seat paid only the minimum, small τ means it crushed a small
    counter with a large offer. Games without such a win have no value. Aggregated as the
    median of the per-game values."""
    return """
    SELECT game_id, winner AS seat, '' AS key,
           sum(CASE WHEN winner = initiator THEN target_paid ELSE initiator_paid END + 10) AS num,
           sum(CASE WHEN winner = initiator THEN initiator_paid ELSE target_paid END) AS den
    FROM stage.trades WHERE win_reason = 'higher_offer'
    GROUP BY ALL"""


# Every bid placed (passes are not bids), with its ratio to the set value of the animal.
_BIDS = """
    SELECT game_id, seat, phase, donkeys_drawn, aggressiveness AS ratio
    FROM stage.bids_detail WHERE amount IS NOT NULL
"""


@metric("bid_aggressiveness", version=2, label="Bid agg.")
def bid_aggressiveness() -> str:
    """Bid aggressiveness: the mean of bid / v over every bid the seat placed, in every auction
    in which it bid, where v is the set value of the auctioned animal. Every bid counts, the
    raises of a call-round run included (an auction in which the seat bid 20 and then 30 on
    a chicken adds 2.0 and 3.0), so raising runs weigh by their length; passes do not count,
    bids above the seat's money do. Pooled over games."""
    return f"""
    SELECT game_id, seat, '' AS key, sum(ratio) AS num, count(*) AS den
    FROM ({_BIDS}) GROUP BY ALL"""


@metric("bid_aggressiveness_phase", version=2, label="Bid agg. by phase", keyed=True)
def bid_aggressiveness_phase() -> str:
    """Bid aggressiveness by donkey phase: bid aggressiveness split by the phase of the game
    when the auction opened, "early" while fewer than half of the donkeys had been drawn and
    "late" afterwards (the key)."""
    return f"""
    SELECT game_id, seat, phase AS key, sum(ratio) AS num, count(*) AS den
    FROM ({_BIDS}) GROUP BY ALL"""


@metric("bid_aggressiveness_donkeys", version=2, label="Bid agg. by donkeys drawn", keyed=True)
def bid_aggressiveness_donkeys() -> str:
    """Bid aggressiveness by donkeys drawn: bid aggressiveness split by how many donkeys had
    been drawn when the auction opened (the key, 0 to the set size)."""
    return f"""
    SELECT game_id, seat, CAST(donkeys_drawn AS VARCHAR) AS key, sum(ratio) AS num, count(*) AS den
    FROM ({_BIDS}) GROUP BY ALL"""


@metric("buy_right_rate", version=1, label="Buy-right", percent=True)
def buy_right_rate() -> str:
    """Buy-right %: among the seat's decisions as auctioneer when the buy-right was open to it
    (a bid stood and it could pay), the share in which it kept the card by paying the bidder
    rather than selling. Sales forced because the auctioneer could not pay are not decisions."""
    return """
    SELECT game_id, auctioneer AS seat, '' AS key,
           count(*) FILTER (WHERE outcome = 'buy_right') AS num, count(*) AS den
    FROM stage.auctions WHERE winner IS NOT NULL AND buy_right_offered
    GROUP BY ALL"""


@metric("tc_accept_rate", version=1, label="TC-accept", percent=True)
def tc_accept_rate() -> str:
    """TC-accept %: among the trade challenges in which the seat was the target, the share it
    resolved by accepting the face-down offer rather than countering."""
    return """
    SELECT game_id, target AS seat, '' AS key,
           count(*) FILTER (WHERE response = 'accepted') AS num, count(*) AS den
    FROM stage.trades WHERE response IS NOT NULL GROUP BY ALL"""


@metric("bluff_rate", version=1, label="Bluff", percent=True)
def bluff_rate() -> str:
    """Bluff % (App. B.1: the share of the agent's trade-challenge offers made purely of
    0-value money cards): among every offer the seat placed when initiating a trade
    challenge, empty offers included, the share made only of 0-value cards. An empty offer is
    an offer (the engine allows it, worth 0) but not a bluff: its public card count (0)
    already tells the target it is worth nothing. `bluff_rate_cards` leaves empty offers out
    of the count."""
    return """
    SELECT game_id, seat, '' AS key, count(*) FILTER (WHERE bluff) AS num, count(*) AS den
    FROM stage.trade_offers WHERE role = 'offer' GROUP BY ALL"""


@metric("bluff_rate_cards", version=1, label="Bluff (card offers)", percent=True)
def bluff_rate_cards() -> str:
    """Bluff % among card offers (the second reading of App. B.1, where an offer is a set of
    money cards): among the offers of at least one card the seat placed when initiating a
    trade challenge, the share made only of 0-value cards. Empty offers count in neither
    part."""
    return """
    SELECT game_id, seat, '' AS key, count(*) FILTER (WHERE bluff) AS num, count(*) AS den
    FROM stage.trade_offers WHERE role = 'offer' AND n_cards > 0 GROUP BY ALL"""


@metric("self_bid_rate", version=1, label="Self-bid", percent=True)
def self_bid_rate() -> str:
    """Self-bid %: among the seat's bids, the share placed while it already held the standing
    bid, so that no other bidder had bid since its own last bid (in canonical call rounds: the
    seat led when the round opened and raised anyway)."""
    return """
    SELECT game_id, seat, '' AS key, count(*) FILTER (WHERE self_bid) AS num, count(*) AS den
    FROM stage.bids_detail WHERE amount IS NOT NULL GROUP BY ALL"""


@metric("overbid_rate", version=1, label="Overbid", percent=True)
def overbid_rate() -> str:
    """Overbid %: among the auctions in which the seat bid, the share in which at least one of
    its bids exceeded the money it held at that moment (whether or not the bid won)."""
    return """
    SELECT game_id, seat, '' AS key, count(*) FILTER (WHERE over) AS num, count(*) AS den
    FROM (SELECT game_id, seat, auction, bool_or(overbid) AS over
          FROM stage.bids_detail WHERE amount IS NOT NULL GROUP BY ALL)
    GROUP BY ALL"""


@metric("challenger_win_rate", version=1, label="TC challenger win", percent=True)
def challenger_win_rate() -> str:
    """TC challenger win %: among the trade challenges the seat initiated, the share it won."""
    return """
    SELECT game_id, initiator AS seat, '' AS key,
           count(*) FILTER (WHERE winner = initiator) AS num, count(*) AS den
    FROM stage.trades WHERE winner IS NOT NULL GROUP BY ALL"""


@metric("net_coins_per_trade", version=1, label="Net coins/TC")
def net_coins_per_trade() -> str:
    """Net coins per trade: over the trade challenges in which the seat took part (initiator or
    target) and money changed hands, the coins it received minus the coins it gave, averaged
    per trade. Positive means the seat pocketed money in trades on average."""
    return """
    SELECT game_id, seat, '' AS key, sum(net) AS num, count(*) AS den FROM (
        SELECT game_id, initiator AS seat, initiator_net AS net FROM stage.trades
        WHERE initiator_net IS NOT NULL
        UNION ALL
        SELECT game_id, target, -initiator_net FROM stage.trades WHERE initiator_net IS NOT NULL)
    GROUP BY ALL"""


@metric("accept_rate_by_size", version=1, label="Accept by offer size", percent=True, keyed=True)
def accept_rate_by_size() -> str:
    """Accept rate by offer size: TC-accept % split by the number of face-down cards in the
    offer the seat faced as target (the key)."""
    return """
    SELECT game_id, target AS seat, CAST(offer_cards AS VARCHAR) AS key,
           count(*) FILTER (WHERE response = 'accepted') AS num, count(*) AS den
    FROM stage.trades WHERE response IS NOT NULL GROUP BY ALL"""


@metric("cost_per_set", version=1, label="Cost per set", keyed=True)
def cost_per_set() -> str:
    """Cost per set by animal: the seat's gross outflow spent on one animal type (auction
    payments for cards of that type and money handed over in trades for it) divided by the
    complete sets of that type it finished with (the key is the animal). Pooled over games;
    undefined where no set was completed."""
    return f"""
    WITH o AS (SELECT game_id, seat, animal, sum(coins) AS coins FROM ({_OUTFLOW}) GROUP BY ALL),
    s AS (SELECT game_id, seat, animal, count(*) AS sets FROM stage.set_completions GROUP BY ALL)
    SELECT coalesce(o.game_id, s.game_id) AS game_id, coalesce(o.seat, s.seat) AS seat,
           coalesce(o.animal, s.animal) AS key, coalesce(o.coins, 0) AS num, coalesce(s.sets, 0) AS den
    FROM o FULL JOIN s ON o.game_id = s.game_id AND o.seat = s.seat AND o.animal = s.animal"""


@metric("auction_cost", version=1, label="Auction price by animal", keyed=True)
def auction_cost() -> str:
    """Auction cost by animal: the mean final price the seat paid for a card of an animal type
    it bought at auction (as winning bidder or with the buy-right); the key is the animal."""
    return """
    SELECT game_id, payer AS seat, animal AS key, sum(price) AS num, count(*) AS den
    FROM stage.payments GROUP BY ALL"""


@metric("trade_cost", version=1, label="Trade price by animal", keyed=True)
def trade_cost() -> str:
    """Trade cost by animal: the mean value of the seat's last offer in the trade challenges it
    won for an animal type (accepted offers and exchanges); the key is the animal."""
    return """
    SELECT game_id, winner AS seat, animal AS key,
           sum(CASE WHEN winner = initiator THEN initiator_paid ELSE target_paid END) AS num,
           count(*) AS den
    FROM stage.trades WHERE winner IS NOT NULL AND initiator_paid IS NOT NULL GROUP BY ALL"""


@metric("head_to_head", version=1, label="Cross-play win", percent=True, keyed=True)
def head_to_head() -> str:
    """Cross-play result against an opponent: for every pair of seats in a game, 1 if the seat
    finished with the higher score, 1/2 on equal scores, 0 otherwise; the key is the opponent's
    agent. The pooled mean gives the cross-play win matrix."""
    return """
    SELECT a.game_id, a.seat, b.agent AS key,
           sum(CASE WHEN a.score > b.score THEN 1.0 WHEN a.score = b.score THEN 0.5 ELSE 0 END) AS num,
           count(*) AS den
    FROM stage.scores a JOIN stage.scores b ON a.game_id = b.game_id AND a.seat <> b.seat
    GROUP BY ALL"""


_DECISIONS = """
    SELECT game_id, seat, count(*) AS n FROM stage.bids_detail GROUP BY ALL
    UNION ALL SELECT game_id, seat, passes FROM stage.bid_passes
    UNION ALL SELECT game_id, seat, count(*) FROM stage.e_chosen WHERE NOT forced GROUP BY ALL
    UNION ALL SELECT game_id, auctioneer, count(*) FROM stage.auctions WHERE buy_right_offered GROUP BY ALL
    UNION ALL SELECT game_id, initiator, count(*) FROM stage.trades GROUP BY ALL
    UNION ALL SELECT game_id, target, count(*) FROM stage.trades WHERE response IS NOT NULL GROUP BY ALL
    UNION ALL SELECT game_id, seat, count(*) FROM stage.trade_offers WHERE role = 'tie' GROUP BY ALL
"""


@metric("format_error_rate", version=1, label="Rejected actions", percent=True)
def format_error_rate() -> str:
    """Rejected-action rate: actions the rules rejected (unparseable output, cards not in hand,
    bids off the 10-coin grid, ...) per decision the seat was asked for (bids and passes, free
    turn choices, buy-right decisions, trade initiations, responses and tie offers)."""
    return f"""
    WITH d AS (SELECT game_id, seat, sum(n) AS n FROM ({_DECISIONS}) GROUP BY ALL),
    r AS (SELECT game_id, seat, count(*) AS n FROM stage.rejections GROUP BY ALL)
    SELECT d.game_id, d.seat, '' AS key, coalesce(r.n, 0) AS num, d.n AS den
    FROM d LEFT JOIN r ON r.game_id = d.game_id AND r.seat = d.seat"""


@metric("fallback_rate", version=1, label="Fallbacks", percent=True)
def fallback_rate() -> str:
    """Fallback rate: decisions in which another action replaced the seat's own (the engine's
    fallback after a rejected action, or the agent's default when it got no usable answer),
    per decision the seat was asked for (counted as for the rejected-action rate)."""
    return f"""
    WITH d AS (SELECT game_id, seat, sum(n) AS n FROM ({_DECISIONS}) GROUP BY ALL),
    f AS (SELECT game_id, seat, count(*) AS n FROM stage.fallbacks GROUP BY ALL)
    SELECT d.game_id, d.seat, '' AS key, coalesce(f.n, 0) AS num, d.n AS den
    FROM d LEFT JOIN f ON f.game_id = d.game_id AND f.seat = d.seat"""


@metric("llm_calls", version=1, label="Model calls/game")
def llm_calls() -> str:
    """Model calls per game: how many model requests the seat made in a game (first tries,
    retries and scratchpad updates); only seats that made at least one have a value."""
    return """
    SELECT game_id, seat, '' AS key, count(*) AS num, 1 AS den FROM stage.llm_calls GROUP BY ALL"""


@metric("llm_tokens", version=1, label="Tokens/game")
def llm_tokens() -> str:
    """Tokens per game: input plus output tokens of all of the seat's model calls in a game."""
    return """
    SELECT game_id, seat, '' AS key,
           coalesce(sum(input_tokens), 0) + coalesce(sum(output_tokens), 0) AS num, 1 AS den
    FROM stage.llm_calls GROUP BY ALL"""


@metric("llm_output_tokens", version=1, label="Output tokens/call")
def llm_output_tokens() -> str:
    """Output tokens per call: the mean number of output (completion) tokens of the seat's
    model calls."""
    return """
    SELECT game_id, seat, '' AS key, coalesce(sum(output_tokens), 0) AS num, count(*) AS den
    FROM stage.llm_calls GROUP BY ALL"""


@metric("llm_cost", version=1, label="Cost/game (USD)")
def llm_cost() -> str:
    """Cost per game: the seat's input and output tokens in a game priced with the price table
    (data/prices.json, or $CATTLE_PRICES; the longest matching provider:model prefix), in US
    dollars. Calls of unpriced models add nothing; a game with no priced call has no value."""
    return """
    WITH priced AS (
        SELECT l.game_id, l.seq, any_value(l.seat) AS seat,
               any_value(l.input_tokens) AS input_tokens, any_value(l.output_tokens) AS output_tokens,
               arg_max(p.input_usd, length(p.key)) AS pin, arg_max(p.output_usd, length(p.key)) AS pout
        FROM stage.llm_calls l
        LEFT JOIN stage.prices p ON starts_with(l.provider || ':' || l.model, p.key)
        GROUP BY l.game_id, l.seq)
    SELECT game_id, seat, '' AS key,
           sum((coalesce(input_tokens, 0) * pin + coalesce(output_tokens, 0) * pout) / 1e6) AS num,
           1 AS den
    FROM priced GROUP BY ALL"""


@metric("llm_latency", version=1, label="Latency/call (ms)")
def llm_latency() -> str:
    """Latency per call: the mean wall-clock time of the seat's model calls, in milliseconds."""
    return """
    SELECT game_id, seat, '' AS key, sum(latency_ms) AS num, count(latency_ms) AS den
    FROM stage.llm_calls GROUP BY ALL"""


@metric("llm_outcome", version=1, label="Decision outcomes", percent=True, keyed=True)
def llm_outcome() -> str:
    """Decision outcomes: the share of the seat's model decisions of each outcome class
    (key: ok, repaired, unparsable, illegal, truncated, refused, timeout, error, budget;
    docs/llm.md), every class counted in every game of the seat, zeros included. Games
    stored before decisions recorded their outcome have no value."""
    classes = ", ".join(f"'{c}'" for c in OUTCOMES)
    return f"""
    WITH d AS (SELECT game_id, seat, count(*) AS n FROM stage.llm_decisions GROUP BY ALL),
    k AS (SELECT unnest([{classes}]) AS key)
    SELECT d.game_id, d.seat, k.key, count(o.outcome) AS num, any_value(d.n) AS den
    FROM d CROSS JOIN k
    LEFT JOIN stage.llm_decisions o
           ON o.game_id = d.game_id AND o.seat = d.seat AND o.outcome = k.key
    GROUP BY d.game_id, d.seat, k.key"""


@metric("llm_format_error_rate", version=1, label="Format errors", percent=True)
def llm_format_error_rate() -> str:
    """Format error rate: model answers that could not be read as an action (a parse error
    was recorded) per decision asked of the model (first tries of the "ask" stage)."""
    return """
    SELECT game_id, seat, '' AS key, count(*) FILTER (WHERE parse_error IS NOT NULL) AS num,
           count(*) FILTER (WHERE stage = 'ask' AND attempt = 1) AS den
    FROM stage.llm_calls GROUP BY ALL"""
