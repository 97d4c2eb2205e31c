"""TrueSkill ratings per agent for the report, from projections.ratings over a selection.

`ratings()` is the one place the report gets its ratings from. It feeds the selected finished
games to `projections.ratings.rate` in the same fixed order as `cattle ratings` (by game id),
so the report and the ratings command agree.
"""

from __future__ import annotations

from dataclasses import dataclass

import duckdb

from projections.metrics.aggregate import Selection
from projections.ratings import SeatResult, rate


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


def ratings(con: duckdb.DuckDBPyConnection, sel: Selection) -> list[Rating]:
    """TrueSkill μ and σ per agent over the selected finished games, best first."""
    where, params = sel.where("s.game_id")
    rows = con.execute(
        "SELECT s.game_id, s.seat, s.agent, s.score, s.rank, coalesce(s.complete_sets, 0)"
        " FROM main.scores s JOIN main.games g USING (game_id)"
        f" WHERE g.status = 'finished' AND {where} ORDER BY s.game_id, s.seat",
        params,
    ).fetchall()
    table = rate([SeatResult(*r) for r in rows], shuffles=0)
    return [Rating(r.agent, r.mu, r.sigma, r.games) for r in table]
