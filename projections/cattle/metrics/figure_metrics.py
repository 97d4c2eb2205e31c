"""Metrics behind the report's detail panels: auctions, trade challenges, exploitation,
model usage and compositions (the engine-level and governance-level figures).

Registered like the metrics of definitions.py: each docstring is the definition, each SQL
reads the staged views in schema `stage` and returns (game_id, seat, key, num, den).
"""

from __future__ import annotations

from projections.metrics.registry import metric


@metric("auction_participation", version=1, label="Auction participation", percent=True)
def auction_participation() -> str:
    """Auction participation: among the auctions the seat could bid in (every auction of its
    game run by another seat), the share in which it placed at least one bid."""
    return """
    WITH bid AS (SELECT DISTINCT game_id, seat, auction FROM stage.bids_detail
                 WHERE amount IS NOT NULL)
    SELECT a.game_id, s.seat, '' AS key, count(b.auction) AS num, count(*) AS den
    FROM stage.auctions a
    JOIN stage.seats s ON s.game_id = a.game_id AND s.seat <> a.auctioneer
    LEFT JOIN bid b ON b.game_id = a.game_id AND b.seat = s.seat AND b.auction = a.auction
    GROUP BY ALL"""


@metric("auction_win_rate", version=1, label="Auction win", percent=True)
def auction_win_rate() -> str:
    """Auction win %: among the auctions in which the seat bid, the share it closed as the
    highest bidder (whether or not the auctioneer then kept the card with the buy-right)."""
    return """
    SELECT b.game_id, b.seat, '' AS key, count(*) FILTER (WHERE a.winner = b.seat) AS num,
           count(*) AS den
    FROM (SELECT DISTINCT game_id, seat, auction FROM stage.bids_detail
          WHERE amount IS NOT NULL) b
    JOIN stage.auctions a ON a.game_id = b.game_id AND a.auction = b.auction
    GROUP BY ALL"""


@metric("overpay_rate", version=1, label="Overpay", percent=True)
def overpay_rate() -> str:
    """Overpay %: among the seat's auction payments (as winning bidder or through the
    buy-right), the share in which the money cards it handed over came to more than the price
    (no change is given, so a hand without the exact sum overpays)."""
    return """
    SELECT game_id, payer AS seat, '' AS key, count(*) FILTER (WHERE overpay > 0) AS num,
           count(*) AS den
    FROM stage.payments GROUP BY ALL"""


@metric("tc_counter_rate", version=1, label="TC counter", percent=True)
def tc_counter_rate() -> str:
    """TC counter %: among the trade challenges in which the seat was the target, the share it
    answered with a face-down counter-offer instead of accepting."""
    return """
    SELECT game_id, target AS seat, '' AS key,
           count(*) FILTER (WHERE response = 'countered') AS num, count(*) AS den
    FROM stage.trades WHERE response IS NOT NULL GROUP BY ALL"""


@metric("target_win_rate", version=1, label="TC target win", percent=True)
def target_win_rate() -> str:
    """TC target win %: among the trade challenges in which the seat was the target, the share
    it won (it can only win by countering with the higher offer)."""
    return """
    SELECT game_id, target AS seat, '' AS key,
           count(*) FILTER (WHERE winner = target) AS num, count(*) AS den
    FROM stage.trades WHERE winner IS NOT NULL GROUP BY ALL"""


@metric("bluff_size", version=1, label="Bluff size (cards)")
def bluff_size() -> str:
    """Bluff size: the mean number of 0-value cards in the seat's bluffs (initiating offers made
    only of 0-value cards). The card count is what the target sees, so a larger bluff looks
    like a larger offer."""
    return """
    SELECT game_id, seat, '' AS key, sum(n_cards) AS num, count(*) AS den
    FROM stage.trade_offers WHERE role = 'offer' AND bluff GROUP BY ALL"""


@metric("tie_rate", version=1, label="TC tie", percent=True)
def tie_rate() -> str:
    """TC tie %: among the countered trade challenges the seat took part in (as initiator or
    target), the share in which the revealed offers tied at least once."""
    return """
    SELECT game_id, seat, '' AS key, count(*) FILTER (WHERE coalesce(ties, 0) > 0) AS num,
           count(*) AS den
    FROM (SELECT game_id, initiator AS seat, ties FROM stage.trades WHERE response = 'countered'
          UNION ALL
          SELECT game_id, target, ties FROM stage.trades WHERE response = 'countered')
    GROUP BY ALL"""


@metric("set_cost", version=1, label="Cost per set")
def set_cost() -> str:
    """Cost per set (all animals): the seat's gross outflow (auction and buy-right payments and
    money handed over in trades) divided by the complete sets it finished with, pooled over
    games; undefined when no set was completed."""
    return """
    WITH o AS (
        SELECT game_id, payer AS seat, paid AS coins FROM stage.payments
        UNION ALL
        SELECT game_id, initiator, initiator_paid FROM stage.trades WHERE initiator_paid IS NOT NULL
        UNION ALL
        SELECT game_id, target, target_paid FROM stage.trades WHERE target_paid IS NOT NULL)
    SELECT s.game_id, s.seat, '' AS key, coalesce(sum(o.coins), 0) AS num,
           any_value(s.complete_sets) AS den
    FROM stage.scores s LEFT JOIN o ON o.game_id = s.game_id AND o.seat = s.seat
    GROUP BY s.game_id, s.seat"""


@metric("llm_truncation_rate", version=1, label="Truncated answers", percent=True)
def llm_truncation_rate() -> str:
    """Truncation %: the share of the seat's model calls whose answer was cut off by the token
    limit (recorded with the parse stage "truncated")."""
    return """
    SELECT game_id, seat, '' AS key, count(*) FILTER (WHERE parse_stage = 'truncated') AS num,
           count(*) AS den
    FROM stage.llm_calls GROUP BY ALL"""


@metric("bid_to_wealth", version=1, label="Bid / wealth")
def bid_to_wealth() -> str:
    """Bid-to-wealth ratio: for every bid the seat placed while holding money, the bid divided
    by the money it held at that moment; the mean over those bids (pooled over games). Above
    1 the bid was an overbid."""
    return """
    SELECT game_id, seat, '' AS key, sum(amount / money) AS num, count(*) AS den
    FROM stage.bids_detail WHERE amount IS NOT NULL AND money > 0 GROUP BY ALL"""


@metric("tc_initiation_phase", version=1, label="TC initiation by phase", percent=True, keyed=True)
def tc_initiation_phase() -> str:
    """TC initiation by donkey phase: among the seat's free turn choices (auction or trade
    challenge, when both were possible), the share in which it chose a trade challenge, split
    by the phase when it chose (the key): "early" while fewer than half of the donkeys had been
    drawn, "late" afterwards."""
    return """
    SELECT c.game_id, c.seat, donkey_phase(coalesce(d.donkey, 0), g.set_size) AS key,
           count(*) FILTER (WHERE c.choice = 'trade') AS num, count(*) AS den
    FROM stage.e_chosen c
    JOIN stage.game g ON g.game_id = c.game_id
    ASOF LEFT JOIN stage.donkey_payouts d ON c.game_id = d.game_id AND c.seq >= d.seq
    WHERE NOT c.forced
    GROUP BY ALL"""


@metric("bluff_success_rate", version=1, label="Bluffs accepted", percent=True)
def bluff_success_rate() -> str:
    """Bluff success % (exploiting): among the seat's bluffs (initiating offers made only of
    0-value cards), the share the target accepted, giving up its animals for nothing."""
    return """
    SELECT t.game_id, t.initiator AS seat, '' AS key,
           count(*) FILTER (WHERE t.response = 'accepted') AS num, count(*) AS den
    FROM stage.trades t WHERE t.bluff AND t.response IS NOT NULL GROUP BY ALL"""


@metric("bluffed_rate", version=1, label="Accepted a bluff", percent=True)
def bluffed_rate() -> str:
    """Bluffed % (exploited): among the trade challenges the seat accepted as target, the share
    in which the accepted offer was a bluff (only 0-value cards)."""
    return """
    SELECT game_id, target AS seat, '' AS key, count(*) FILTER (WHERE bluff) AS num,
           count(*) AS den
    FROM stage.trades WHERE response = 'accepted' GROUP BY ALL"""


@metric("bankrupt_initiation_rate", version=1, label="Bankrupt TC initiation", percent=True)
def bankrupt_initiation_rate() -> str:
    """Bankrupt initiation %: among the trade challenges the seat initiated, the share it
    started while holding no money of value (every money card it had was a 0), so its offer
    could only be a bluff or empty."""
    return """
    SELECT t.game_id, t.initiator AS seat, '' AS key,
           count(*) FILTER (WHERE m.money = 0) AS num, count(*) AS den
    FROM stage.trades t
    ASOF JOIN stage.money m ON m.game_id = t.game_id AND m.seat = t.initiator AND t.seq > m.seq
    GROUP BY ALL"""


@metric(
    "win_rate_by_composition", version=1, label="Win rate by composition", percent=True, keyed=True
)
def win_rate_by_composition() -> str:
    """Win rate by composition: the win rate (a shared first place counts 1/n) split by the
    agents the seat faced in the game (the key: the opponents' agent names, sorted and joined
    with " + "). In mixed games these are the code-agent compositions."""
    return """
    WITH w AS (
        SELECT game_id, seat, agent,
               CASE WHEN rank = 1
                    THEN 1.0 / count(*) FILTER (WHERE rank = 1) OVER (PARTITION BY game_id)
                    ELSE 0 END AS won
        FROM stage.scores)
    SELECT a.game_id, a.seat, string_agg(b.agent, ' + ' ORDER BY b.agent) AS key,
           any_value(a.won) AS num, 1 AS den
    FROM w a JOIN w b ON a.game_id = b.game_id AND a.seat <> b.seat
    GROUP BY a.game_id, a.seat"""
