"""What the code agents of every GameBench game share: the random agent.

GameBench's random baseline plays a uniformly random legal action. The decisions of Pit and
Santorini list their legal actions (`decision.legal`), so the random agent needs no view and
draws one of them from its own generator, seeded by the game seed and its seat. A game whose
decisions are built from parts (a Sea Battle plan, a Codenames clue) subclasses it and draws
the parts from the same generator.
"""

from __future__ import annotations

import random
from typing import Any

from agents.base import Agent


class RandomAgent(Agent):
    """Plays a uniformly random legal action."""

    spec = "random"
    reads_view = False
    label = "gamebench:random"
    """Names the agent's generator (a game's subclass may keep a name of its own)."""

    def __init__(self, seat: int, seed: int, config: Any) -> None:
        super().__init__(seat, seed, config)
        self.rng = random.Random(f"{seed}:{self.label}:{seat}")

    def act(self, view: Any, decision: Any) -> Any:
        return self.rng.choice(decision.legal)


class GameBenchRandom(RandomAgent):
    """GameBench's own random agent where its menu is the decision's list of legal actions:
    one of them, uniformly (its `agents/random_agent.py` draws one key of the menu it is
    offered; docs/gamebench.md, GameBench's random agent). A game whose GameBench menu differs
    from its decisions subclasses it and plays what that menu's draw leads to."""

    spec = "gamebench-random"
    label = "gamebench:gamebench-random"

    def act(self, view: Any, decision: Any) -> Any:
        legal = getattr(decision, "legal", None)
        if legal:
            return self.rng.choice(legal)
        raise TypeError(f"{type(decision).__name__} lists no legal actions")
