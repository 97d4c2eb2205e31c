"""The figure metrics: hand-worked values on the hand-written games, and an independent
recomputation from the event log of sample games."""

from __future__ import annotations

from pathlib import Path

import pytest
from figure_recompute import FIGURE_METRICS, cross_check

from events.store import DuckStore
from projections.cattle.metrics.build import rebuild
from projections.cattle.metrics.registry import metrics
from runner.cattle.sample import sample_store


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


def test_every_figure_metric_is_registered_with_a_definition() -> None:
    assert len(FIGURE_METRICS) == 15
    for m in metrics():
        if m.name in FIGURE_METRICS:
            assert len(m.definition) > 60, m.name


def test_auction_panels(built: dict) -> None:
    # a could bid only in b's auction (t2) and did; b could bid in a's three and bid in one.
    assert built[("g1", "a", "auction_participation", "")] == 1
    assert built[("g1", "b", "auction_participation", "")] == pytest.approx(1 / 3)
    # Both closed their one auction as highest bidder (a's was then kept by b's buy-right).
    assert built[("g1", "a", "auction_win_rate", "")] == 1
    assert built[("g1", "b", "auction_win_rate", "")] == 1
    # b paid 30 with 10+10+10 and 100 with 50+50: exact both times.
    assert built[("g1", "b", "overpay_rate", "")] == 0
    assert ("g1", "a", "overpay_rate", "") not in built
    # b bid 20 and 30 holding 90; a bid 200 and 100 holding 170.
    assert built[("g1", "b", "bid_to_wealth", "")] == pytest.approx((20 + 30) / 90 / 2)
    assert built[("g1", "a", "bid_to_wealth", "")] == pytest.approx((200 + 100) / 170 / 2)


def test_trade_panels(built: dict) -> None:
    # a was challenged twice and countered both; it won the first (t4), lost the second.
    assert built[("g1", "a", "tc_counter_rate", "")] == 1
    assert built[("g1", "a", "target_win_rate", "")] == pytest.approx(0.5)
    # b's bluff [0] has one card; it was countered.
    assert built[("g1", "b", "bluff_size", "")] == 1
    assert built[("g1", "b", "bluff_success_rate", "")] == 0
    # Of the two countered challenges, t6 tied once.
    assert built[("g1", "a", "tie_rate", "")] == pytest.approx(0.5)
    assert built[("g1", "b", "tie_rate", "")] == pytest.approx(0.5)
    # In game two a accepted an empty offer: accepted, but not a bluff.
    assert built[("g2", "a", "bluffed_rate", "")] == 0
    assert ("g1", "a", "bluffed_rate", "") not in built
    # b held 10 coins at t4 and 520 at t6: never bankrupt.
    assert built[("g1", "b", "bankrupt_initiation_rate", "")] == 0


def test_phase_cost_and_composition(built: dict) -> None:
    # Choices at 0 donkeys drawn are early; from the first donkey (sets of 2) late.
    assert built[("g1", "a", "tc_initiation_phase", "early")] == 0
    assert built[("g1", "a", "tc_initiation_phase", "late")] == 0
    assert built[("g1", "b", "tc_initiation_phase", "early")] == 0
    assert built[("g1", "b", "tc_initiation_phase", "late")] == 1
    # Gross outflow per set: a 510 for its one set, b 730.
    assert built[("g1", "a", "set_cost", "")] == pytest.approx(510)
    assert built[("g1", "b", "set_cost", "")] == pytest.approx(730)
    assert built[("g2", "a", "set_cost", "")] is None
    # The composition is the opponents' agents.
    assert built[("g1", "b", "win_rate_by_composition", "a")] == 1
    assert built[("g2", "a", "win_rate_by_composition", "b")] == pytest.approx(0.5)
    assert not [k for k in built if k[2] == "llm_truncation_rate"]


def test_figure_metrics_equal_an_independent_recomputation(tmp_path: Path) -> None:
    path = tmp_path / "sample.duckdb"
    sample_store(path, 6)
    with DuckStore(path) as store:
        rebuild(store.con)
        assert cross_check(store) > 200


def test_hand_games_equal_the_recomputation(hand_store: DuckStore) -> None:
    rebuild(hand_store.con)
    assert cross_check(hand_store) > 20


def test_phase_intervals_are_seeded(hand_store: DuckStore) -> None:
    """Bid aggressiveness by phase carries bootstrap intervals that repeat run after run."""
    import io

    from projections.cattle.metrics import figures as F
    from projections.cattle.metrics.profiles import profiles
    from projections.metrics.aggregate import Selection

    rebuild(hand_store.con)
    sel = Selection(tournament="hand")

    def phase() -> dict[str, object]:
        return {
            p.agent: p.keyed.get("bid_aggressiveness_donkeys")
            for p in profiles(
                hand_store.con, sel, names=(), keyed=("bid_aggressiveness_donkeys",), resamples=50
            )
        }

    first = phase()
    assert first == phase()
    est = first["a"]["1"]  # type: ignore[index]
    assert est.lo is not None and est.lo <= est.value <= est.hi
    # The figure drawn from two separate computations is the same image, byte for byte.
    pngs = []
    for _ in range(2):
        fig = F.fig_phase(phase(), ["a", "b"], F.colours(["a", "b"]))  # type: ignore[arg-type]
        buf = io.BytesIO()
        fig.savefig(buf, format="png")
        pngs.append(buf.getvalue())
    assert pngs[0] == pngs[1]
