"""TrueSkill ratings per agent for the report, computed from the stored final ranks.

`ratings()` is the one place the report gets ratings from: when the tournament module's
`projections.ratings` provides `agent_ratings(con, game_ids)` it is used; otherwise the
ratings are fitted here with the `trueskill` package, games in the order they were stored.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import duckdb
import trueskill

from projections.metrics.aggregate import Selection


@dataclass(frozen=True)
class Rating:
    """An agent's TrueSkill posterior over the selection."""

    agent: str
    mu: float
    sigma: float
    games: int

    @property
    def conservative(self) -> float:
        """μ − 3σ, the lower edge of the 99.7% interval."""
        return self.mu - 3 * self.sigma


def _fit(games: Sequence[tuple[Sequence[str], Sequence[int]]]) -> list[Rating]:
    env = trueskill.TrueSkill(draw_probability=0.02)
    current: dict[str, trueskill.Rating] = {}
    played: dict[str, int] = {}
    for agents, ranks in games:
        if len(agents) < 2:
            continue
        groups = [(current.get(a, env.create_rating()),) for a in agents]
        new = env.rate(groups, ranks=[r - 1 for r in ranks])
        # An agent in several seats of one game gets the mean of its seats' updates.
        merged: dict[str, list[trueskill.Rating]] = {}
        for a, (r,) in zip(agents, new, strict=True):
            merged.setdefault(a, []).append(r)
        for a, rs in merged.items():
            current[a] = env.create_rating(
                mu=sum(r.mu for r in rs) / len(rs), sigma=sum(r.sigma for r in rs) / len(rs)
            )
            played[a] = played.get(a, 0) + 1
    out = [Rating(a, r.mu, r.sigma, played[a]) for a, r in current.items()]
    return sorted(out, key=lambda r: (-r.mu, r.agent))


def ratings(con: duckdb.DuckDBPyConnection, sel: Selection) -> list[Rating]:
    """TrueSkill μ and σ per agent over the selected finished games, best first."""
    where, params = sel.where("g.game_id")
    ids = [
        r[0]
        for r in con.execute(
            f"SELECT g.game_id FROM main.games g WHERE g.status = 'finished' AND {where}"
            " ORDER BY g.created_at, g.game_id",
            params,
        ).fetchall()
    ]
    external = _external()
    if external is not None:
        return [Rating(**r) if isinstance(r, dict) else r for r in external(con, ids)]
    rows = con.execute(
        "SELECT game_id, list(agent ORDER BY seat), list(rank ORDER BY seat) FROM main.scores"
        " WHERE game_id IN (SELECT unnest(?::VARCHAR[])) GROUP BY game_id",
        [ids],
    ).fetchall()
    by_id = {g: (a, r) for g, a, r in rows}
    return _fit([by_id[g] for g in ids if g in by_id])


def _external() -> Any:
    try:
        module = importlib.import_module("projections.ratings")
    except ImportError:
        return None
    return getattr(module, "agent_ratings", None)
