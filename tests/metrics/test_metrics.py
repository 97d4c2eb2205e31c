"""Every metric on the two hand-written games of conftest.py, values worked out by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from events.store import DuckStore
from projections.cattle.metrics.build import rebuild
from projections.cattle.metrics.profiles import profiles
from projections.metrics.aggregate import Selection


def values(store: DuckStore) -> dict[tuple[str, str, str, str], float | None]:
    """(game, agent, metric, key) -> per-game value."""
    rows = store.con.execute(
        "SELECT game_id, agent, metric, key, value FROM metric_values"
    ).fetchall()
    return {(g, a, m, k): v for g, a, m, k, v in rows}


@pytest.fixture
def built(hand_store: DuckStore) -> dict[tuple[str, str, str, str], float | None]:
    rebuild(hand_store.con)
    return values(hand_store)


# Game one: seat 0 = a, seat 1 = b. Money: both start with 90.
# a's gross outflow: counter [10] in t4 + counter [200, 200, 100] in t6 = 510.
# b's gross outflow: 30 (t1) + 100 (buy-right, t2) + 0 (bluff, t4) + 600 (t6) = 730.


def test_score_sets_and_wins(built: dict) -> None:
    assert built[("g1", "a", "score", "")] == 10
    assert built[("g1", "b", "score", "")] == 500
    assert built[("g1", "a", "sets_per_game", "")] == 1
    assert built[("g1", "a", "win_rate", "")] == 0
    assert built[("g1", "b", "win_rate", "")] == 1
    # Game two ends 0 - 0: the shared first place is split.
    assert built[("g2", "a", "win_rate", "")] == 0.5
    assert built[("g2", "b", "win_rate", "")] == 0.5
    assert built[("g2", "a", "sets_per_game", "")] == 0


def test_capital_efficiency(built: dict) -> None:
    assert built[("g1", "a", "eta", "")] == pytest.approx(10 / 510)
    assert built[("g1", "b", "eta", "")] == pytest.approx(500 / 730)
    # Zero gross outflow (game two: free cards, an empty accepted offer): undefined.
    assert built[("g2", "a", "eta", "")] is None
    assert built[("g2", "b", "eta", "")] is None


def test_tightness(built: dict) -> None:
    # a won t4 with 10 against 0: (0 + 10) / 10.
    assert built[("g1", "a", "tau", "")] == pytest.approx(1.0)
    # b won t6 (after a tie) with 600 against 500: (500 + 10) / 600.
    assert built[("g1", "b", "tau", "")] == pytest.approx(510 / 600)
    # No counter-exchange won in game two: no value at all.
    assert ("g2", "b", "tau", "") not in built


def test_bidding(built: dict) -> None:
    # Every bid counts: b bid 20 then 30 on a chicken (set value 10): (2.0 + 3.0) / 2.
    assert built[("g1", "b", "bid_aggressiveness", "")] == pytest.approx(2.5)
    # a bid 200 on a donkey (500), then 100 after the restart: (0.4 + 0.2) / 2.
    assert built[("g1", "a", "bid_aggressiveness", "")] == pytest.approx(0.3)
    # t1 opened before any donkey (early); t2 after the first of two (late, sets of 2).
    assert built[("g1", "b", "bid_aggressiveness_phase", "early")] == pytest.approx(2.5)
    assert built[("g1", "a", "bid_aggressiveness_phase", "late")] == pytest.approx(0.3)
    assert built[("g1", "a", "bid_aggressiveness_donkeys", "1")] == pytest.approx(0.3)
    # b bid 20 (no leader) then 30 while leading: one self-bid out of two.
    assert built[("g1", "b", "self_bid_rate", "")] == pytest.approx(0.5)
    # a bid 200 (no leader) and 100 after the restart (no leader again).
    assert built[("g1", "a", "self_bid_rate", "")] == 0
    # a bid 200 holding 170 (90 + 30 from the sale + 50 payout): one auction, overbid.
    assert built[("g1", "a", "overbid_rate", "")] == 1
    assert built[("g1", "b", "overbid_rate", "")] == 0
    # No auction won by anyone in game two: no bidding metric exists there.
    assert not [k for k in built if k[0] == "g2" and k[2].startswith("bid_")]


def test_buy_right(built: dict) -> None:
    # a sold once (t1); its free cards (t3, t5) are not decisions.
    assert built[("g1", "a", "buy_right_rate", "")] == 0
    assert built[("g1", "b", "buy_right_rate", "")] == 1
    assert ("g2", "a", "buy_right_rate", "") not in built


def test_trades(built: dict) -> None:
    # a was the target twice in game one and countered both times; accepted once in game two.
    assert built[("g1", "a", "tc_accept_rate", "")] == 0
    assert built[("g2", "a", "tc_accept_rate", "")] == 1
    # b's offers: [0] (bluff) and [500]; in game two an empty offer (not a bluff).
    assert built[("g1", "b", "bluff_rate", "")] == pytest.approx(0.5)
    assert built[("g2", "b", "bluff_rate", "")] == 0
    # Net coins: a -10 (t4) and +100 (t6); b the opposite.
    assert built[("g1", "a", "net_coins_per_trade", "")] == pytest.approx(45)
    assert built[("g1", "b", "net_coins_per_trade", "")] == pytest.approx(-45)
    assert built[("g2", "b", "net_coins_per_trade", "")] == 0
    # b initiated two trades and won the second.
    assert built[("g1", "b", "challenger_win_rate", "")] == pytest.approx(0.5)
    # Accept rate by offer size: a faced one 1-card offer twice in game one (both countered).
    assert built[("g1", "a", "accept_rate_by_size", "1")] == 0
    assert built[("g2", "a", "accept_rate_by_size", "0")] == 1


def test_costs(built: dict) -> None:
    # a spent 10 on chicken (counter) and completed it; 500 on donkey without the set.
    assert built[("g1", "a", "cost_per_set", "chicken")] == pytest.approx(10)
    assert built[("g1", "a", "cost_per_set", "donkey")] is None
    # b: 30 on chicken (no set); 100 + 600 on donkey, one set.
    assert built[("g1", "b", "cost_per_set", "chicken")] is None
    assert built[("g1", "b", "cost_per_set", "donkey")] == pytest.approx(700)
    # Auction prices paid: b paid 30 for a chicken and 100 for a donkey (buy-right).
    assert built[("g1", "b", "auction_cost", "chicken")] == pytest.approx(30)
    assert built[("g1", "b", "auction_cost", "donkey")] == pytest.approx(100)
    # Trade wins: a won chicken with 10, b won donkey with 600.
    assert built[("g1", "a", "trade_cost", "chicken")] == pytest.approx(10)
    assert built[("g1", "b", "trade_cost", "donkey")] == pytest.approx(600)


def test_head_to_head(built: dict) -> None:
    assert built[("g1", "a", "head_to_head", "b")] == 0
    assert built[("g1", "b", "head_to_head", "a")] == 1
    assert built[("g2", "a", "head_to_head", "b")] == 0.5


def test_no_model_calls_no_errors(built: dict) -> None:
    assert not [k for k in built if k[2].startswith("llm_")]
    assert built[("g1", "a", "format_error_rate", "")] == 0
    assert built[("g1", "a", "fallback_rate", "")] == 0


def test_aggregates_over_both_games(hand_store: DuckStore) -> None:
    rebuild(hand_store.con)
    profs = {
        p.agent: p
        for p in profiles(
            hand_store.con,
            Selection(tournament="hand"),
            names=("win_rate", "eta", "tc_accept_rate", "bluff_rate", "score", "tau"),
            resamples=200,
        )
    }
    a, b = profs["a"].metrics, profs["b"].metrics
    assert profs["a"].games == 2
    assert a["win_rate"].value == pytest.approx(0.25)
    assert b["win_rate"].value == pytest.approx(0.75)
    # Game two has no eta (no outflow): the median is over game one only.
    assert a["eta"].value == pytest.approx(10 / 510)
    assert a["eta"].n == 1
    # Pooled: a accepted 1 of 3 offers; b bluffed in 1 of 3 initiations.
    assert a["tc_accept_rate"].value == pytest.approx(1 / 3)
    assert b["tc_accept_rate"].value is None
    assert b["bluff_rate"].value == pytest.approx(1 / 3)
    assert a["score"].value == pytest.approx(5)
    assert b["score"].value == pytest.approx(250)
    lo, hi = b["bluff_rate"].lo, b["bluff_rate"].hi
    assert lo is not None and hi is not None and 0 <= lo <= 1 / 3 <= hi <= 1


def test_trajectories(hand_store: DuckStore) -> None:
    rebuild(hand_store.con)
    rows = hand_store.con.execute(
        "SELECT turn, wealth, sets, score, version FROM trajectories"
        " WHERE game_id = 'g1' AND seat = 0 ORDER BY turn"
    ).fetchall()
    by_turn = {t: (w, s, sc) for t, w, s, sc, _ in rows}
    assert [t for t, *_ in rows] == list(range(8))
    assert by_turn[0] == (90, 0, 0)
    assert by_turn[1] == (120, 0, 0)  # sold the chicken for 30
    assert by_turn[2] == (270, 0, 0)  # +50 payout, +100 from the buy-right
    assert by_turn[4] == (260, 1, 10)  # paid its 10 counter, completed chicken
    assert by_turn[6] == (860, 1, 10)  # +500 payout, then 600 received for 500 given
    assert {r[4] for r in rows} == {1}


def test_model_call_metrics_and_report_section(
    hand_store: DuckStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Model calls (engine-only `llm_call` events) feed the token, cost and latency metrics."""
    from metrics_builder import Log

    from events.agent import ActionDefaulted, LLMCall, ModelDecision
    from projections.cattle.metrics.report import build_report

    prices = tmp_path / "prices.json"
    prices.write_text(json.dumps({"openai:gpt-test": {"input": 1.0, "output": 10.0}}))
    monkeypatch.setenv("CATTLE_PRICES", str(prices))

    def call(tokens: tuple[int, int], latency: float, error: str | None) -> LLMCall:
        return LLMCall(
            seat=0,
            decision="bid",
            stage="ask",
            attempt=1,
            provider="openai",
            model="gpt-test",
            input_tokens=tokens[0],
            output_tokens=tokens[1],
            latency_ms=latency,
            parse_stage="failed" if error else "json",
            parse_error=error,
        )

    # Seat 0 ("m") is asked twice (two passes in b's auction); one answer cannot be read and
    # the seat plays its default once.
    g = Log(("m", "b"))
    g.auction(1, "cat", [{0: None}, {0: None}])
    g.add(call((100, 20), 200.0, None), call((300, 40), 300.0, "no JSON object"))
    g.add(ActionDefaulted(seat=0, decision="bid", action='{"pass": true}', reason="unreadable"))
    g.add(
        ModelDecision(seat=0, decision="bid", outcome="ok", calls=1, tokens=120),
        ModelDecision(seat=0, decision="bid", outcome="unparsable", calls=1, fallback="{}"),
    )
    g.end((0, 0), (1, 1), ((), ()))
    g.save(hand_store, "g4", tournament="hand")

    con = hand_store.con
    rebuild(con)
    got = values(hand_store)
    assert got[("g4", "m", "llm_calls", "")] == 2
    assert got[("g4", "m", "llm_tokens", "")] == 100 + 20 + 300 + 40
    assert got[("g4", "m", "llm_output_tokens", "")] == pytest.approx(30)
    # (400 input tokens x $1 + 60 output tokens x $10) per million.
    assert got[("g4", "m", "llm_cost", "")] == pytest.approx(0.001)
    assert got[("g4", "m", "llm_latency", "")] == pytest.approx(250)
    assert got[("g4", "m", "llm_format_error_rate", "")] == pytest.approx(0.5)
    assert got[("g4", "m", "fallback_rate", "")] == pytest.approx(0.5)
    assert ("g4", "b", "llm_calls", "") not in got
    assert got[("g4", "m", "llm_outcome", "ok")] == pytest.approx(0.5)
    assert got[("g4", "m", "llm_outcome", "unparsable")] == pytest.approx(0.5)
    assert got[("g4", "m", "llm_outcome", "timeout")] == 0
    page, _ = build_report(con, Selection(tournament="hand"), resamples=50)
    assert 'id="llm-table"' in page and 'id="llm-empty"' not in page
    assert "gpt-test" in page and "$0.0010" in page
