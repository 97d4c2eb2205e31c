"""The loopback stand-in model's answers to OpenSpiel prompts: one of the legal actions the
prompt lists, with a thought first when the prompt asks for one."""

from __future__ import annotations

import random

from agents.llm.loopback import Incoming, LegalPolicy

MARKER = "\nLEGAL ACTIONS\n"
"""The heading an OpenSpiel decision prompt lists its legal actions under."""


def prompt_legal_actions(prompt: str) -> list[str]:
    """The legal actions an OpenSpiel prompt lists (its `- ACTION` lines after LEGAL ACTIONS)."""
    tail = prompt.split(MARKER, 1)[-1]
    out = []
    for ln in tail.splitlines():
        if not ln.startswith("- "):
            break
        out.append(ln[2:])
    return out


def openspiel_answer(prompt: str, rng: random.Random) -> str:
    """A legal move for an OpenSpiel prompt, with a thought first when the prompt asks for one."""
    legal = prompt_legal_actions(prompt)
    choice = rng.choice(legal) if legal else "nothing"
    if "step by step" in prompt:
        return f"Thought: {len(legal)} legal actions; I take one of them.\nAction: {choice}"
    return f"Action: {choice}"


def answer(req: Incoming, rng: random.Random, policy: LegalPolicy) -> str:
    """The stand-in's reply to an OpenSpiel request."""
    return openspiel_answer(req.prompt, rng)
