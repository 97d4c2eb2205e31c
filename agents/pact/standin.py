"""The loopback stand-in model's answers to PACT prompts: a short message, and a quote that
shades the seat's private number by a few units (bids below the value, asks above the cost)."""

from __future__ import annotations

import random
from typing import Any

from agents.llm.loopback import Incoming, LegalPolicy, prompt_number


def answer(req: Incoming, rng: random.Random, policy: LegalPolicy) -> dict[str, Any]:
    """The answer's fields for a PACT message or quote."""
    p = req.prompt
    if req.kind == "message":
        return {
            "reasoning": "open",
            "message": f"I can move a little. Round {rng.randint(1, 9)}.",
        }
    if "Your value:" in p:
        value = prompt_number(r"Your value: (\d+)", p)
        return {"reasoning": "shade", "quote": max(0, value - rng.randint(0, 15))}
    cost = prompt_number(r"Your cost: (\d+)", p)
    return {"reasoning": "shade", "quote": min(100, cost + rng.randint(0, 15))}
