"""Fixtures: a store holding two hand-written games whose metrics are worked out by hand."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from metrics_builder import Log

from events.store import DuckStore


def game_one() -> Log:
    """Seat 0 = "a", seat 1 = "b", sets of 2.

    t1: a auctions a chicken; b bids 20, then 30 while leading (self-bid), wins, pays 10+10+10.
    t2: b draws a donkey (payout 50 each: a has 170, b 110); a bids 200 (overbid), the auction
        restarts, a bids 100 and wins; b uses the buy-right and pays a 50+50.
    t3: a auctions a chicken, no bid: a takes it free.
    t4: b challenges a for chicken with [0] (a bluff); a counters [10] and wins (tau 10/10);
        a completes chicken.
    t5: a draws a donkey (payout 500 each), no bid: a takes it free.
    t6: b challenges a for donkey with [500]; a counters [200, 200, 100]: tie; then b offers
        [500, 100] against [200, 200, 100] and wins (tau 510/600); b completes donkey.
    End: a 10 (chicken), b 500 (donkey); b first.
    """
    g = Log(("a", "b"))
    g.auction(0, "chicken", [{1: 20}, {1: 30}, {1: None}], cards=(10, 10, 10))
    g.auction(
        1,
        "donkey",
        [{0: 200}, {0: None}, {0: 100}, {0: None}],
        restart_after=1,
        decision="buy_right",
        cards=(50, 50),
        donkey=(1, 50),
    )
    g.auction(0, "chicken", [{1: None}, {1: None}])
    g.trade(1, 0, "chicken", (0,), (10,))
    g.set_completed(0, "chicken")
    g.auction(0, "donkey", [{1: None}, {1: None}], donkey=(2, 500))
    g.trade(1, 0, "donkey", (500,), (200, 200, 100), again=[((500, 100), (200, 200, 100))])
    g.set_completed(1, "donkey")
    g.end((10, 500), (2, 1), (("chicken",), ("donkey",)))
    return g


def game_two() -> Log:
    """Seat 0 = "b", seat 1 = "a", sets of 4: nothing bought, nothing paid, a tie at 0.

    t1, t2: each auctions a cat nobody bids on. t3: b challenges a for cat with an empty offer,
    a accepts. End: 0 - 0, both first.
    """
    g = Log(("b", "a"), set_size=4)
    g.auction(0, "cat", [{1: None}, {1: None}])
    g.auction(1, "cat", [{0: None}, {0: None}])
    g.trade(0, 1, "cat", (), None)
    g.end((0, 0), (1, 1), ((), ()))
    return g


@pytest.fixture
def hand_store(tmp_path: Path) -> Iterator[DuckStore]:
    """A DuckDB store with the two hand-written games (tournament "hand")."""
    store = DuckStore(tmp_path / "hand.duckdb")
    game_one().save(store, "g1", tournament="hand")
    game_two().save(store, "g2", tournament="hand")
    yield store
    store.close()
