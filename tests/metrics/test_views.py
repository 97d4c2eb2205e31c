"""The analysis views: typed columns, sensible contents on hand-written games."""

from __future__ import annotations

import re

from agents.cattle.game import SQL
from events.store import DuckStore

ANALYSIS_VIEWS = re.findall(r"CREATE OR REPLACE VIEW (\w+)", SQL.read_text())


def test_every_view_has_typed_columns(hand_store: DuckStore) -> None:
    assert len(ANALYSIS_VIEWS) >= 18  # money, bids and scores, then one per decision kind
    for view in [*ANALYSIS_VIEWS, "llm_calls"]:
        types = {r[0]: r[1] for r in hand_store.con.execute(f"DESCRIBE {view}").fetchall()}
        assert "JSON" not in types.values(), (view, types)
        assert "game_id" in types


def test_llm_calls_view_is_empty_with_its_columns(hand_store: DuckStore) -> None:
    cols = [r[0] for r in hand_store.con.execute("DESCRIBE llm_calls").fetchall()]
    for c in (
        "seat",
        "model",
        "input_tokens",
        "output_tokens",
        "latency_ms",
        "parse_stage",
    ):
        assert c in cols
    assert hand_store.con.execute("SELECT count(*) FROM llm_calls").fetchall() == [(0,)]


def test_auctions_view(hand_store: DuckStore) -> None:
    rows = hand_store.con.execute(
        "SELECT auction, animal, rounds, restarts, winner, price, outcome, buyer, payer, paid,"
        " donkeys_drawn, phase FROM auctions WHERE game_id = 'g1' ORDER BY auction"
    ).fetchall()
    assert rows == [
        (1, "chicken", 3, 0, 1, 30, "sold", 1, 1, 30, 0, "early"),
        (2, "donkey", 4, 1, 0, 100, "buy_right", 1, 1, 100, 1, "late"),
        (3, "chicken", 2, 0, None, None, "free", 0, None, None, 1, "late"),
        (4, "donkey", 2, 0, None, None, "free", 0, None, None, 2, "late"),
    ]


def test_trades_view(hand_store: DuckStore) -> None:
    rows = hand_store.con.execute(
        "SELECT trade, initiator, target, animal, offer_cards, offer_value, bluff, response,"
        " counter_value, ties, initiator_paid, target_paid, initiator_net, winner, win_reason"
        " FROM trades WHERE game_id = 'g1' ORDER BY trade"
    ).fetchall()
    assert rows == [
        (1, 1, 0, "chicken", 1, 0, True, "countered", 10, 0, 0, 10, 10, 0, "higher_offer"),
        (2, 1, 0, "donkey", 1, 500, False, "countered", 500, 1, 600, 500, -100, 1, "higher_offer"),
    ]


def test_bids_detail_flags(hand_store: DuckStore) -> None:
    rows = hand_store.con.execute(
        "SELECT auction, round, seat, amount, money, leader, self_bid, overbid FROM bids_detail"
        " WHERE game_id = 'g1' AND NOT passed ORDER BY seq"
    ).fetchall()
    assert rows == [
        (1, 0, 1, 20, 90, None, False, False),
        (1, 1, 1, 30, 90, 1, True, False),
        (2, 0, 0, 200, 170, None, False, True),
        (2, 2, 0, 100, 170, None, False, False),
    ]


def test_payments_and_set_completions(hand_store: DuckStore) -> None:
    assert hand_store.con.execute(
        "SELECT payer, payee, reason, price, paid, overpay FROM payments WHERE game_id = 'g1' ORDER BY seq"
    ).fetchall() == [(1, 0, "sale", 30, 30, 0), (1, 0, "buy_right", 100, 100, 0)]
    assert hand_store.con.execute(
        "SELECT seat, animal, sets, score FROM set_completions WHERE game_id = 'g1' ORDER BY seq"
    ).fetchall() == [(0, "chicken", 1, 10), (1, "donkey", 1, 500)]
