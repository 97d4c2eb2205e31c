"""MG-Ref: the MindGames frozen reference pools (the protocol is runner.pools').

A MindGames pool names its games by MindGames' four names (`blotto`, `ipd3`, `codenames`,
`mafia`) and reports the candidate's TrueSkill per game and per competition track as well.
The textarena game definition declares these pools (`extras["pools"]` names this module).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from engine.textarena.mindgames import PRESETS, TRACKS
from runner import pools as P
from runner.pools import Score

_TRACK_OF = {g: t for t, gs in TRACKS.items() for g in gs}


@dataclass(frozen=True)
class Pool(P.Pool):
    """A MindGames pool: its games are the four presets, grouped by track."""

    def config(self, game: str) -> Any:
        return PRESETS[game]

    def group(self, game: str) -> str | None:
        return _TRACK_OF.get(game)


POOLS: dict[str, Pool] = {
    "mg-ref-code": Pool(
        name="mg-ref-code",
        summary="The shipped code agents of the four games (no model seats)",
        agents={
            "blotto": ("blotto-concentrate", "blotto-uniform"),
            "ipd3": ("ipd-tft", "ipd-grim", "ipd-defect", "ipd-cooperate"),
            "codenames": (
                "codenames-topics",
                "codenames-random",
                "codenames-topics?stream=1",
                "codenames-random?stream=1",
            ),
            "mafia": (
                "mafia-accuser",
                "mafia-random",
                "random",
                "mafia-accuser?stream=1",
                "mafia-random?stream=1",
                "random?stream=1",
            ),
        },
    ),
}
"""The shipped pools by name."""


def pools() -> list[P.Pool]:
    """The pools the textarena game declares."""
    return list(POOLS.values())


@functools.cache
def frozen(pool_name: str) -> dict[str, dict[str, Any]]:
    """The pool's frozen TrueSkill per game (agent -> rating), from the pool's own deals."""
    return P.pool_ratings(POOLS[pool_name])


def score(store: Any, pool_name: str, candidate: str) -> tuple[list[Score], list[str]]:
    """Play the candidate's deals against the pool in every game it plays, store them; its
    scores per game and per track, and the ids of the stored games."""
    return P.score(store, POOLS[pool_name], candidate, frozen(pool_name))


__all__ = ["POOLS", "Pool", "Score", "frozen", "pools", "score"]
