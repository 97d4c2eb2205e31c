"""The loopback stand-in model's answers to GameBench prompts.

Every GameBench decision prompt opens with ``GAME: <title>`` and ends with the reasoning
mode's instruction; most list their choices under ``Legal actions:``, one label a line, and
the stand-in names one of them. Four decisions take a free-form argument instead and are
answered from what their prompt shows: a Codenames clue (a word from a small list that is no
form of a board word) and guess (a hidden board word), a Sea Battle plan (eight tokens
within the turn's cannonballs under the prototype rules; one of the listed plans, each on a
``- <plan>: <what it does>`` line, under the gamebench rules), an Are You the Traitor? question and answer, and a Two Rooms
message (the listed ``Say: <your message>``). A seat with ``output=json_schema`` gets the
answer as JSON. Every choice comes from the generator the loopback passes in, so the same
prompt always gets the same answer.
"""

from __future__ import annotations

import random
import re
from typing import Any

from agents.llm.loopback import Incoming, LegalPolicy
from engine.gamebench.sea_battle import CANNON_COST, MOVES, STEPS
from projections.gamebench.common import INSTRUCTIONS, key

_ENDS = frozenset(text.splitlines()[0] for text in INSTRUCTIONS.values())
"""The first line of each closing instruction: where a listing of legal actions stops."""

CLUES = ("zebra", "orbit", "velvet", "lantern", "meadow", "glacier", "violin", "compass")
"""Clue words the stand-in offers (one that no board word contains or is contained in)."""

MESSAGES = (
    "I trust the player on my left.",
    "Tell me which team you are on.",
    "I have nothing to hide.",
    "Let us compare what we have seen.",
)
"""Lines the stand-in says when a game asks it to talk."""


def legal_labels(prompt: str) -> list[str]:
    """The labels listed under the prompt's last ``Legal actions:`` heading (empty when the
    prompt lists none)."""
    if "\nLegal actions:\n" not in prompt:
        return []
    out = []
    for line in prompt.rsplit("\nLegal actions:\n", 1)[1].splitlines():
        if not line.strip() or line in _ENDS:
            break
        out.append(line)
    return out


def _board(prompt: str, state: str) -> list[str]:
    """The Codenames board words shown as `state` (hidden or revealed)."""
    return re.findall(rf"^\s*\d+\. (\S+) - {state}\b", prompt, re.MULTILINE)


def _clue(prompt: str, rng: random.Random) -> str:
    board = [key(w) for w in _board(prompt, "hidden") + _board(prompt, "revealed")]
    free = [c for c in CLUES if not any(c in w or w in c for w in board)]
    return f"{rng.choice(free or ['zebra'])} {rng.randint(1, 2)}"


def _guess(prompt: str, rng: random.Random) -> str:
    hidden = _board(prompt, "hidden")
    made = re.search(r"guesses made this turn: (\d+)", prompt)
    if not hidden or (made and int(made.group(1)) > 0 and rng.random() < 0.3):
        return "pass"
    return rng.choice(hidden)


def _plan(prompt: str, rng: random.Random) -> str:
    m = re.search(r"\((\d+) cannonballs this turn", prompt)
    balls = int(m.group(1)) if m else 0
    plan = ""
    for _ in range(STEPS):
        cannon = rng.choice([c for c, cost in CANNON_COST.items() if cost <= balls])
        balls -= CANNON_COST[cannon]
        plan += rng.choice(MOVES) + cannon
    return plan


def _question(prompt: str, rng: random.Random) -> str:
    line = next(ln for ln in prompt.splitlines() if ln.startswith("YOUR QUESTION"))
    names = re.findall(r"Player ([A-Z])\b", line) or ["A"]
    return f"Ask Player {rng.choice(names)}: What did you see on your card?"


def choice(prompt: str, rng: random.Random) -> str:
    """The action the stand-in names for a GameBench prompt."""
    if "\nYOUR CLUE" in prompt:
        return _clue(prompt, rng)
    if "\nYOUR GUESS" in prompt:
        return _guess(prompt, rng)
    if "\nYOUR PLAN FOR TURN" in prompt:
        return _plan(prompt, rng)
    if "\nChoose how your ship moves" in prompt:
        return rng.choice(re.findall(r"^- ([^:\n]+):", prompt, re.MULTILINE) or ["pass"])
    if "\nYOUR QUESTION" in prompt:
        return _question(prompt, rng)
    if "\nYOUR ANSWER" in prompt:
        return f"Say: {rng.choice(MESSAGES)}"
    labels = legal_labels(prompt)
    if not labels:
        return "pass"
    picked = rng.choice(labels)
    if picked.startswith("Say: <"):
        return f"Say: {rng.choice(MESSAGES)}"
    return picked


def answer(req: Incoming, rng: random.Random, policy: LegalPolicy) -> dict[str, Any] | str:
    """The stand-in's reply: the action on an ``Action:`` line (after a thought when the
    prompt asks to think out loud), or a JSON object when the seat asks for structured
    output."""
    prompt = req.prompt
    action = choice(prompt, rng)
    think = "think out loud" in prompt
    if "response_format" in req.body or "tools" in req.body:
        fields = {"reasoning": "I take one of my options."} if think else {}
        return {**fields, "action": action}
    if think:
        return f"Thought: I weigh the options and take one.\nAction: {action}"
    return f"Action: {action}"
