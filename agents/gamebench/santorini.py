"""Santorini's definition for the catalogue, and its code agents.

* `random`: a uniformly random legal action.
* `gamebench-random`: GameBench's own random agent (docs/gamebench.md): the same uniform pick
  over the pawn's plays, from a generator of its own.
* `climber`: wins when it can; otherwise stops the opponent from winning next turn when it
  can (a dome on the level 3 square it could reach), then prefers moving up, staying next
  to squares one level up, and never builds a level 3 square the opponent could climb onto;
  placements go near the centre. Ties are broken by its seeded generator.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from agents.base import Agent
from agents.gamebench.common import RandomAgent
from engine.gamebench.santorini import NEIGHBOURS, RULES, Play, SantoriniTurn, state_data
from events.catalog import GameDef
from events.gamebench.santorini import (
    NAME,
    SANTORINI_EVENT_TYPES,
    SIZE,
    TOP,
    WIN_LEVEL,
    SantoriniConfig,
)
from projections.gamebench.common import END_REASONS
from projections.gamebench.santorini import SQL, SantoriniPrompter, SantoriniView, describe, frames


class Climber(Agent):
    """A greedy one-ply player (see the module docstring)."""

    spec = "climber"

    def __init__(self, seat: int, seed: int, config: Any) -> None:
        super().__init__(seat, seed, config)
        self.rng = random.Random(f"{seed}:gamebench:climber:{seat}")

    def act(self, view: SantoriniView, decision: SantoriniTurn) -> Any:
        legal = decision.legal
        if decision.kind == "place":
            return min(legal, key=lambda a: (abs(a.row - 2) + abs(a.col - 2), self.rng.random()))
        h = view.heights
        theirs = ("X", "Y") if self.seat == 0 else ("A", "B")
        threats: set[int] = set()
        opponents: list[int] = []
        for p in theirs:
            rc = view.pawns[p]
            if rc is None:
                continue
            cell = rc[0] * SIZE + rc[1]
            opponents.append(cell)
            if h[cell] >= WIN_LEVEL - 1:
                threats.update(n for n in NEIGHBOURS[cell] if h[n] == WIN_LEVEL)
        best: Play | None = None
        best_score = -1e9
        for a in legal:
            assert isinstance(a, Play)
            to = a.row * SIZE + a.col
            if h[to] == WIN_LEVEL:
                return a
            built = a.build_row * SIZE + a.build_col
            score = 10.0 * h[to]
            score += sum(1 for n in NEIGHBOURS[to] if h[n] == h[to] + 1 and h[n] < TOP)
            after = h[built] + 1
            if built in threats and after == TOP:
                score += 500
            if after == WIN_LEVEL and any(
                built in NEIGHBOURS[o] and h[o] >= WIN_LEVEL - 1 for o in opponents
            ):
                score -= 1000
            elif after <= h[to] + 1 and after < TOP:
                score += 2
            score += self.rng.random()
            if score > best_score:
                best, best_score = a, score
        assert best is not None
        return best


class GameBenchRandom(RandomAgent):
    """GameBench's own random agent at Santorini: one of the turn's plays, uniformly (its menu
    lists every move and build of the turn's pawn, as `decision.legal` does)."""

    spec = "gamebench-random"
    label = "gamebench:santorini:gamebench-random"


CODE_AGENTS: dict[str, Any] = {
    "random": lambda seat, seed, config: RandomAgent(seat, seed, config),
    "gamebench-random": lambda seat, seed, config: GameBenchRandom(seat, seed, config),
    "climber": lambda seat, seed, config: Climber(seat, seed, config),
    # GameBench's suite names every game's own heuristic alike (docs/gamebench.md).
    "heuristic": lambda seat, seed, config: Climber(seat, seed, config),
}


def presets() -> Mapping[str, SantoriniConfig]:
    """The one configuration: GameBench's game."""
    return {"standard": SantoriniConfig()}


GAME = GameDef(
    name=NAME,
    title="Santorini (GameBench)",
    summary=(
        "Two pawns each on a 5x5 board, played alternately: move, then build next to the "
        "moved pawn; moving up onto level 3 wins, a pawn that cannot play loses its owner."
    ),
    event_types=SANTORINI_EVENT_TYPES,
    config_type=SantoriniConfig,
    rules=RULES,
    presets=presets,
    default_preset="standard",
    new_view=SantoriniView,
    describe=describe,
    sql=(SQL,),
    code_agents=CODE_AGENTS,
    prompter=SantoriniPrompter(),
    extras={
        "end_reasons": END_REASONS[NAME],
        "match_scores": True,
        "state_data": state_data,
        "frames": frames,
        "drawing": "cli.gamebench.draw",
        "pools": "runner.gamebench.pools",
    },
)
"""Santorini, as the catalogue knows it."""
