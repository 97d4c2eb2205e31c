"""The calibrated code agents reproduce the paper's profiles (Table 3, the §4 ramps, the
TrueSkill order) in its mixed setting, on a fixed set of 70 games (10 per composition).

`cattle paper` with its default 700 games is the full check (docs/paper.md). At 70 games the
pooled rates carry a sampling error of a few points and bid aggressiveness is heavy-tailed
(long raising runs), so this fast test allows a little more than the aims: 5 points on rates,
35% on η, a factor of 2 on bid aggressiveness, a 4 μ gap. The misses docs/paper.md explains
are asserted in their direction, so that a change that closes (or widens) one shows up here.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from engine.cattle.presets import load_preset
from events.store import DuckStore
from runner.cattle import paper

GAMES = 70
SEED = 2026
RATES = ("buy_right_rate", "tc_accept_rate", "bluff_rate", "self_bid_rate")
SLACK = 0.05
KNOWN_MISSES = {("economy", "self_bid_rate")}


@pytest.fixture(scope="module")
def result() -> paper.PaperComparison:
    with tempfile.TemporaryDirectory() as tmp, DuckStore(Path(tmp) / "p.duckdb") as store:
        name = paper.play(store, load_preset("standard"), games=GAMES, seed=SEED)
        return paper.compare(store, name, resamples=20, table_slice="all")


def _rows(result: paper.PaperComparison) -> dict[str, paper.AgentRow]:
    return {r.agent: r for r in result.rows}


def test_the_setting_is_the_papers(result: paper.PaperComparison) -> None:
    assert result.games == GAMES == result.table_games
    assert result.stand_ins == ("random",)
    assert {r.agent: r.games for r in result.rows} == dict.fromkeys(paper.CODE_AGENTS, GAMES)


def test_no_overbids_and_tracker_never_accepts(result: paper.PaperComparison) -> None:
    rows = _rows(result)
    for row in rows.values():
        assert row.cells["overbid_rate"].ours == 0
    assert rows["tracker"].cells["tc_accept_rate"].ours == 0


@pytest.mark.parametrize("agent", paper.CODE_AGENTS)
def test_rates_near_table_3(result: paper.PaperComparison, agent: str) -> None:
    row = _rows(result)[agent]
    for m in RATES:
        if (agent, m) in KNOWN_MISSES:
            continue
        cell = row.cells[m]
        assert cell.ours is not None and cell.paper is not None
        assert abs(cell.ours - cell.paper) <= paper.RATE_TOLERANCE + SLACK, (m, cell)


@pytest.mark.parametrize("agent", ["tracker", "setrace"])
def test_efficiency_scale_and_ramp(result: paper.PaperComparison, agent: str) -> None:
    row = _rows(result)[agent]
    eta = row.cells["eta"]
    assert eta.ours is not None and eta.paper is not None
    assert abs(eta.ours - eta.paper) <= 0.35 * eta.paper
    agg = row.cells["bid_aggressiveness"]
    assert agg.ours is not None and agg.paper is not None
    assert agg.paper / 2 <= agg.ours <= 2 * agg.paper
    assert row.ramp is not None and row.ramp >= paper.RAMP_AIM


def test_trueskill_order(result: paper.PaperComparison) -> None:
    mu = {r.agent: r.mu for r in result.rows}
    assert mu["tracker"] is not None and mu["setrace"] is not None and mu["economy"] is not None
    assert mu["tracker"] > mu["setrace"] > mu["economy"]
    assert mu["tracker"] - mu["setrace"] < 4


def test_known_misses_of_economy(result: paper.PaperComparison) -> None:
    # docs/paper.md: Economy's 5% turn budget keeps its bids small and rare, so its bid
    # aggressiveness and self-bid rate stay below the paper's and its η above it.
    cells = _rows(result)["economy"].cells
    agg, selfbid, eta = cells["bid_aggressiveness"], cells["self_bid_rate"], cells["eta"]
    assert agg.ours is not None and agg.paper is not None and agg.ours < agg.paper / 2
    assert selfbid.ours is not None and selfbid.paper is not None
    assert selfbid.ours < selfbid.paper - paper.RATE_TOLERANCE
    assert eta.ours is not None and eta.paper is not None and eta.ours > 2 * eta.paper
