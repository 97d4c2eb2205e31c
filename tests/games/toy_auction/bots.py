"""The toy auction's code agents (the agents layer of a game family)."""

from __future__ import annotations

import os
import random
import time
from typing import Any

from agents.base import Agent
from games.toy_auction.rules import Bid

PAUSE = float(os.environ.get("TOY_PAUSE", "0"))
"""Seconds an honest agent waits before each bid (a test that stops a running tournament
slows it down with this; the bids are the same)."""


class Honest(Agent):
    """Bids half its value."""

    spec = "honest"

    def act(self, view: Any, decision: Any) -> Bid:
        if PAUSE:
            time.sleep(PAUSE)
        return Bid(seat=self.seat, amount=(view.value or 0) // 2)


class Wild(Agent):
    """Bids anything, out-of-range amounts included."""

    spec = "wild"

    def __init__(self, seat: int, seed: int, config: Any) -> None:
        super().__init__(seat, seed, config)
        self.rng = random.Random(f"{seed}:wild:{seat}")

    def act(self, view: Any, decision: Any) -> Bid:
        return Bid(seat=self.seat, amount=self.rng.randint(-20, 130))
