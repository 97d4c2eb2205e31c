"""Cattle Trade's per-agent profiles: the metric values of the derived tables aggregated over a
selection of games, each with its bootstrap interval (projections.metrics.aggregate)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import duckdb
import numpy as np

from projections.cattle.metrics.registry import PAPER_METRICS, Metric, get
from projections.metrics.aggregate import (
    RESAMPLES,
    AgentProfile,
    Estimate,
    Selection,
    bootstrap,
    seed_for,
)

#: Metrics of the behaviour table (the paper's Table 3 columns, then more), in display order.
TABLE_METRICS: tuple[str, ...] = (
    *PAPER_METRICS,
    "tau",
    "win_rate",
    "sets_per_game",
    "score",
)


def _rows(
    con: duckdb.DuckDBPyConnection, names: Sequence[str], sel: Selection
) -> dict[tuple[str, str, str], tuple[np.ndarray, np.ndarray]]:
    where, params = sel.where()
    cur = con.execute(
        f"SELECT agent, metric, key, list(num ORDER BY game_id, seat), list(den ORDER BY game_id, seat)"
        f" FROM main.metric_values WHERE metric IN (SELECT unnest(?::VARCHAR[])) AND {where}"
        f" GROUP BY ALL",
        [list(names), *params],
    )
    out = {}
    for agent, name, key, nums, dens in cur.fetchall():
        out[(agent, name, key)] = (np.array(nums, dtype=float), np.array(dens, dtype=float))
    return out


def agent_games(con: duckdb.DuckDBPyConnection, sel: Selection) -> dict[str, int]:
    """Seat-games per agent in the selection (finished games), most first."""
    where, params = sel.where()
    rows = con.execute(
        f"SELECT agent, count(*) FROM main.metric_values WHERE metric = 'score' AND {where}"
        " GROUP BY agent ORDER BY count(*) DESC, agent",
        params,
    ).fetchall()
    return {a: int(n) for a, n in rows}


def profiles(
    con: duckdb.DuckDBPyConnection,
    sel: Selection | None = None,
    names: Sequence[str] = TABLE_METRICS,
    keyed: Sequence[str] = (),
    resamples: int = RESAMPLES,
) -> list[AgentProfile]:
    """Per-agent estimates (with intervals) of `names` and of the keyed metrics `keyed`."""
    sel = sel or Selection()
    games = agent_games(con, sel)
    out = {a: AgentProfile(agent=a, games=n) for a, n in games.items()}
    data = _rows(con, [*names, *keyed], sel)
    for (agent, name, key), (num, den) in sorted(data.items()):
        prof = out.get(agent)
        if prof is None:
            continue
        m: Metric = get(name)
        est = bootstrap(m.agg, num, den, seed_for(agent, name, key), resamples)
        if m.keyed:
            prof.keyed.setdefault(name, {})[key] = est
        else:
            prof.metrics[name] = est
    for prof in out.values():
        for name in names:
            prof.metrics.setdefault(name, Estimate(None))
    return list(out.values())


def profile_json(p: AgentProfile) -> dict[str, Any]:
    """One agent's profile as plain JSON (rates as fractions, intervals under "ci")."""
    doc: dict[str, Any] = {"agent": p.agent, "games": p.games}
    ci: dict[str, list[float | None]] = {}
    for name, est in p.metrics.items():
        doc[name] = _clean(est.value)
        ci[name] = [_clean(est.lo), _clean(est.hi)]
    for name, by_key in p.keyed.items():
        doc[name] = {k: _clean(e.value) for k, e in by_key.items()}
        ci[name] = {k: [_clean(e.lo), _clean(e.hi)] for k, e in by_key.items()}  # type: ignore[assignment]
    doc["ci"] = ci
    return doc


def _clean(x: float | None) -> float | None:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return None
    return round(x, 6)
