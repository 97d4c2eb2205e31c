"""The figure metrics recomputed in plain Python from decoded events (no SQL, no views).

A second, independent implementation: it folds each finished game's event log seat by seat,
tracking money itself, and returns (metric, seat, key) -> [num, den] for every metric of
projections/cattle/metrics/figure_metrics.py.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import pytest

from events.agent import LLMCall
from events.cattle import game as ev
from events.store import DuckStore
from projections.cattle.metrics import figure_metrics
from projections.cattle.metrics.registry import metrics

Counts = dict[tuple[str, int, str], list[float]]

#: The metrics defined in figure_metrics.py.
FIGURE_METRICS = [m.name for m in metrics() if m.name in vars(figure_metrics)]


def recompute(events: list[Any]) -> Counts:
    """Every figure metric of one finished game, as (metric, seat, key) -> [num, den]."""
    out: Counts = defaultdict(lambda: [0.0, 0.0])

    def add(metric: str, seat: int, num: float, den: float = 1.0, key: str = "") -> None:
        cell = out[(metric, seat, key)]
        cell[0] += num
        cell[1] += den

    started = next(e for e in events if isinstance(e, ev.GameStarted))
    agents = [s.agent for s in started.seats]
    players = len(agents)
    set_size = started.config.set_size
    money = [0] * players
    donkeys = 0
    auctioneer = -1
    bidders_in: dict[int, set[int]] = {}
    winners: dict[int, int] = {}
    price = 0
    trade: dict[str, Any] = {}
    outflow = [0] * players

    for e in events:
        match e:
            case ev.HandsDealt():
                money = [sum(e.money)] * players
            case ev.DonkeyPayout():
                donkeys += 1
                money = [m + e.amount for m in money]
            case ev.TurnChosen() if not e.forced:
                phase = "early" if 2 * donkeys < set_size else "late"
                add("tc_initiation_phase", e.seat, e.choice == "trade", key=phase)
            case ev.AuctionOpened():
                auctioneer = e.auctioneer
                bidders_in[e.auction] = set()
                for s in range(players):
                    if s != auctioneer:
                        add("auction_participation", s, 0.0)
            case ev.BidPlaced():
                if e.seat not in bidders_in[e.auction]:
                    bidders_in[e.auction].add(e.seat)
                    add("auction_participation", e.seat, 1.0, 0.0)
                if money[e.seat] > 0:
                    add("bid_to_wealth", e.seat, e.amount / money[e.seat])
            case ev.AuctionWon():
                winners[e.auction] = e.winner
            case ev.PaymentMade():
                price = e.amount
            case ev.PaymentCards():
                paid = sum(e.cards)
                money[e.payer] -= paid
                money[e.payee] += paid
                outflow[e.payer] += paid
                add("overpay_rate", e.payer, paid > price)
            case ev.TradeInitiated():
                trade = {"i": e.initiator, "t": e.target, "ties": 0, "response": None}
                add("bankrupt_initiation_rate", e.initiator, money[e.initiator] == 0)
            case ev.OfferCards() if e.role == "offer":
                trade["bluff"] = bool(e.cards) and max(e.cards) == 0
                if trade["bluff"]:
                    add("bluff_size", e.seat, len(e.cards))
            case ev.TradeAccepted():
                trade["response"] = "accepted"
            case ev.TradeCountered():
                trade["response"] = "countered"
            case ev.TradeTied():
                trade["ties"] = e.ties
            case ev.OffersRevealed():
                trade["last"] = (e.initiator_cards, e.target_cards)
            case ev.TradeWon():
                i, t = trade["i"], trade["t"]
                given_i, given_t = (sum(c) for c in trade["last"])
                money[i] += given_t - given_i
                money[t] += given_i - given_t
                outflow[i] += given_i
                outflow[t] += given_t
                countered = trade["response"] == "countered"
                add("tc_counter_rate", t, countered)
                add("target_win_rate", t, e.winner == t)
                if countered:
                    for s in (i, t):
                        add("tie_rate", s, trade["ties"] > 0)
                if trade["bluff"]:
                    add("bluff_success_rate", i, not countered)
                if not countered:
                    add("bluffed_rate", t, trade["bluff"])
            case LLMCall():
                if e.seat is not None:
                    add("llm_truncation_rate", e.seat, e.parse_stage == "truncated")
            case ev.GameEnded():
                firsts = sum(1 for r in e.ranks if r == 1)
                for s in range(players):
                    add("set_cost", s, outflow[s], len(e.sets[s]))
                    others = " + ".join(sorted(agents[o] for o in range(players) if o != s))
                    add("win_rate_by_composition", s, (e.ranks[s] == 1) / firsts, key=others)
            case _:
                pass

    for auction, seats in bidders_in.items():
        for s in seats:
            add("auction_win_rate", s, winners.get(auction) == s)
    return dict(out)


def cross_check(store: DuckStore) -> int:
    """Compare every figure metric row with the Python recomputation; return rows checked."""
    sql: dict[tuple[str, int, str, str], tuple[float, float]] = {
        (g, int(s), m, k): (n, d)
        for g, s, m, k, n, d in store.con.execute(
            "SELECT game_id, seat, metric, key, num, den FROM metric_values"
            " WHERE metric IN (SELECT unnest(?::VARCHAR[]))",
            [FIGURE_METRICS],
        ).fetchall()
    }
    games = [
        r[0]
        for r in store.con.execute("SELECT game_id FROM games WHERE status = 'finished'").fetchall()
    ]
    mine: dict[tuple[str, int, str, str], list[float]] = {}
    for gid in games:
        for (metric, seat, key), cell in recompute(store.load_events(gid)).items():
            mine[(gid, seat, metric, key)] = cell
    checked = 0
    for k, (n, d) in sql.items():
        assert k in mine, k
        assert mine[k][0] == pytest.approx(n), (k, mine[k], (n, d))
        assert mine[k][1] == pytest.approx(d), (k, mine[k], (n, d))
        checked += 1
    missing = [k for k, (n, d) in mine.items() if d > 0 and k not in sql]
    assert not missing, missing[:5]
    return checked
