"""The calibrated code agents keep the paper's profile (Table 3, the TrueSkill order against
the stand-in) across seeds, on a small version of `cattle paper --seeds`: 3 seeds of 28 games
(4 per composition), pooled.

`cattle paper --seeds 1-5` with its default 700 games per seed is the full check
(docs/paper.md). At 84 games the pooled rates carry a sampling error of several points and bid
aggressiveness and η are heavy-tailed, so this fast test allows more than the aims: 15 points
on rates, 50% on bid aggressiveness and η. The misses docs/paper.md lists are asserted in
their direction, so that a change that closes (or widens) one shows up here.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest

from engine.cattle.presets import load_preset
from events.store import DuckStore
from runner.cattle import paper

GAMES = 28
SEEDS = (1, 2, 3)
RATES = ("buy_right_rate", "tc_accept_rate", "bluff_rate", "self_bid_rate")
RATE_SLACK = 0.15
RATIO_SLACK = 0.5
KNOWN_MISSES = {("tracker", "eta"), ("setrace", "eta")}


@pytest.fixture(scope="module")
def results() -> tuple[dict[int, paper.PaperComparison], paper.PaperComparison]:
    with tempfile.TemporaryDirectory() as tmp, DuckStore(Path(tmp) / "p.duckdb") as store:
        config = load_preset("standard")
        names = {s: paper.play(store, config, games=GAMES, seed=s) for s in SEEDS}
        per_seed = {
            s: paper.compare(store, n, resamples=10, table_slice="all") for s, n in names.items()
        }
        pooled = paper.compare(store, list(names.values()), resamples=10, table_slice="all")
        return per_seed, pooled


def _rows(result: paper.PaperComparison) -> dict[str, paper.AgentRow]:
    return {r.agent: r for r in result.rows}


def test_the_pool_is_every_seed(results: Any) -> None:
    per_seed, pooled = results
    assert pooled.games == GAMES * len(SEEDS) == sum(r.games for r in per_seed.values())
    assert pooled.stand_ins == ("random",)
    assert {r.agent: r.games for r in pooled.rows} == dict.fromkeys(
        paper.CODE_AGENTS, GAMES * len(SEEDS)
    )


def test_no_overbids_and_tracker_never_accepts(results: Any) -> None:
    _, pooled = results
    rows = _rows(pooled)
    for row in rows.values():
        assert row.cells["overbid_rate"].ours == 0
    assert rows["tracker"].cells["tc_accept_rate"].ours == 0


@pytest.mark.parametrize("agent", paper.CODE_AGENTS)
def test_pooled_profile_near_table_3(results: Any, agent: str) -> None:
    _, pooled = results
    row = _rows(pooled)[agent]
    for m in (*RATES, "bid_aggressiveness", "eta"):
        if (agent, m) in KNOWN_MISSES:
            continue
        cell = row.cells[m]
        assert cell.ours is not None and cell.paper is not None
        if m in paper.RATIO_METRICS:
            assert abs(cell.ours - cell.paper) <= RATIO_SLACK * cell.paper, (m, cell)
        else:
            assert abs(cell.ours - cell.paper) <= RATE_SLACK, (m, cell)


def test_economy_beats_random_and_tracker_leads(results: Any) -> None:
    _, pooled = results
    mu = dict((a, m) for a, m, _, _ in pooled.ratings)
    assert mu["economy"] > mu["random"]
    assert mu["tracker"] == max(mu.values())


def test_known_misses_in_their_direction(results: Any) -> None:
    # docs/paper.md: Tracker and SetRace spend more per point of score than the paper's.
    _, pooled = results
    rows = _rows(pooled)
    for agent in ("tracker", "setrace"):
        eta = rows[agent].cells["eta"]
        assert eta.ours is not None and eta.paper is not None and eta.ours < eta.paper
