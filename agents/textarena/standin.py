"""The loopback stand-in model's answers to TextArena prompts: one of the bracketed choices
the observation's last listing offers, a Colonel Blotto split, prisoner's-dilemma decisions,
or a line of chat."""

from __future__ import annotations

import random
import re

from agents.llm.loopback import Incoming, LegalPolicy, prompt_number

MARKER = "\nWHAT THE GAME SHOWS YOU\n"
"""The heading a TextArena prompt shows the game's observation text under."""


def textarena_answer(prompt: str, rng: random.Random) -> str:
    """A move for a TextArena prompt: one of the bracketed choices its last listing offers,
    a Colonel Blotto split, prisoner's-dilemma decisions, or a line of chat."""
    seen = prompt.split(MARKER, 1)[-1]
    for line in reversed(seen.splitlines()):
        options = re.findall(r"\[[^\[\]\n]{1,40}\]", line)
        if len(options) >= 2 and "cooperate" not in line:
            return f"I choose {rng.choice(options)}."
    if "Commander" in seen:
        a = rng.randint(0, 20)
        b = rng.randint(0, 20 - a)
        return f"[A{a} B{b} C{20 - a - b}]"
    if seen.rfind("Chat finished for round") > seen.rfind("Starting Round"):
        me = prompt_number(r"You are Player (\d+)", prompt)
        return " ".join(f"[{p} {rng.choice(('cooperate', 'defect'))}]" for p in range(3) if p != me)
    return "I have nothing to add yet."


def answer(req: Incoming, rng: random.Random, policy: LegalPolicy) -> str:
    """The stand-in's reply to a TextArena request."""
    return textarena_answer(req.prompt, rng)
