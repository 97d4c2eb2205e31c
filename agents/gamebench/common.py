"""What the code agents of every GameBench game share: the random agent.

Each decision of a GameBench game lists its legal actions (`decision.legal`), so the random
agent needs no view at all: it draws one of them from its own generator (seeded by the game
seed and its seat), as GameBench's random baseline does.
"""

from __future__ import annotations

import random
from typing import Any

from agents.base import Agent


class RandomAgent(Agent):
    """Plays a uniformly random legal action."""

    spec = "random"
    reads_view = False

    def __init__(self, seat: int, seed: int, config: Any) -> None:
        super().__init__(seat, seed, config)
        self.rng = random.Random(f"{seed}:gamebench:random:{seat}")

    def act(self, view: Any, decision: Any) -> Any:
        return self.rng.choice(decision.legal)
