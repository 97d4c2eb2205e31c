"""Bootstrap intervals over per-game values, and the selection of games an analysis covers
(every game's metrics use these; a game's own tables and profiles live with its family).

Every per-agent estimate comes with a percentile bootstrap interval: the agent's per-game
rows (one per seat it played in a game) are resampled with replacement and the metric is
re-aggregated. The generator is seeded from the agent, metric and key (CRC-32, never the
salted `hash()`), so the same store gives the same intervals on every run.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from typing import Any

import numpy as np

#: Resamples per bootstrap interval.
RESAMPLES = 1000
#: Two-sided coverage of the intervals.
LEVEL = 0.95
#: Bound on the size of one block of resampled indices (keeps memory flat for big selections).
_BLOCK = 2_000_000


@dataclass(frozen=True)
class Estimate:
    """A point estimate with its bootstrap interval; None where the metric is undefined."""

    value: float | None
    lo: float | None = None
    hi: float | None = None
    n: int = 0
    """Per-game rows the estimate rests on."""

    def as_list(self) -> list[float | None]:
        """[lo, hi] for JSON."""
        return [self.lo, self.hi]


@dataclass
class AgentProfile:
    """One agent's metrics over a selection of games."""

    agent: str
    games: int
    metrics: dict[str, Estimate] = field(default_factory=dict)
    keyed: dict[str, dict[str, Estimate]] = field(default_factory=dict)


@dataclass(frozen=True)
class Selection:
    """Which games to aggregate over: all, one tournament, or a list of game ids; always of
    one game (the behaviour metrics here are Cattle Trade's)."""

    tournament: str | None = None
    games: tuple[str, ...] = ()
    game: str | None = "cattle-trade"
    """The game (catalogue name) whose games count; None: every stored game."""
    among: tuple[str, ...] = ()
    """When given: only games of these names count (a family of games analysed together)."""

    def where(self, column: str = "game_id") -> tuple[str, list[Any]]:
        """A SQL condition on `column` and its parameters."""
        conds: list[str] = []
        params: list[Any] = []
        if self.tournament is not None:
            conds.append(f"{column} IN (SELECT game_id FROM main.games WHERE tournament = ?)")
            params.append(self.tournament)
        if self.games:
            conds.append(f"{column} IN (SELECT unnest(?::VARCHAR[]))")
            params.append(list(self.games))
        if self.game is not None:
            conds.append(f"{column} IN (SELECT game_id FROM main.games WHERE game = ?)")
            params.append(self.game)
        if self.among:
            conds.append(
                f"{column} IN (SELECT game_id FROM main.games"
                " WHERE game IN (SELECT unnest(?::VARCHAR[])))"
            )
            params.append(list(self.among))
        return (" AND ".join(conds) or "TRUE"), params


def seed_for(*parts: str) -> int:
    """A stable generator seed from text parts."""
    return zlib.crc32("\x1f".join(parts).encode())


def bootstrap(
    agg: str,
    num: np.ndarray,
    den: np.ndarray,
    seed: int,
    resamples: int = RESAMPLES,
    level: float = LEVEL,
) -> Estimate:
    """Point estimate and percentile interval of a metric from its per-game (num, den) rows."""
    num = np.asarray(num, dtype=float)
    den = np.asarray(den, dtype=float)
    if agg == "median":
        ok = den > 0
        data = num[ok] / den[ok]
        n = len(data)
        if n == 0:
            return Estimate(None, n=0)
        point = float(np.median(data))
    else:
        n = len(num)
        total = den.sum()
        if n == 0 or total <= 0:
            return Estimate(None, n=n)
        point = float(num.sum() / total)
    if n == 1:
        return Estimate(point, point, point, n)
    rng = np.random.default_rng(seed)
    stats: list[np.ndarray] = []
    block = max(1, _BLOCK // n)
    done = 0
    while done < resamples:
        c = min(block, resamples - done)
        idx = rng.integers(0, n, size=(c, n))
        if agg == "median":
            stats.append(np.median(data[idx], axis=1))
        else:
            sn = num[idx].sum(axis=1)
            sd = den[idx].sum(axis=1)
            stats.append(np.where(sd > 0, sn / np.where(sd > 0, sd, 1.0), np.nan))
        done += c
    s = np.concatenate(stats)
    s = s[~np.isnan(s)]
    if not len(s):
        return Estimate(point, None, None, n)
    tail = (1 - level) / 2 * 100
    lo, hi = np.percentile(s, [tail, 100 - tail])
    return Estimate(point, float(lo), float(hi), n)
