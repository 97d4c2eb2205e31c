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
