"""The loopback stand-in model's answers to TextArena prompts: a Codenames clue or guess from
the board shown, one of the bracketed choices the observation's last listing offers, a Colonel
Blotto split, prisoner's-dilemma decisions, or a line of chat."""

from __future__ import annotations

import random
import re

from agents.llm.loopback import Incoming, LegalPolicy, prompt_number

MARKER = "\nWHAT THE GAME SHOWS YOU\n"
"""The heading a TextArena prompt shows the game's observation text under."""


BOARD = "Codenames Words:"
"""The heading of the board in a Codenames observation."""
CLUES = ("signal", "motion", "garden", "silver", "window", "planet", "bridge", "rhythm")
"""Clue words the stand-in spymaster gives (the first that no board word holds or is part of)."""


def codenames_answer(seen: str, rng: random.Random) -> str | None:
    """A Codenames move for the board last shown in `seen` (None: no board shown): a
    spymaster's clue of one word for one card, or an operative's guess of a board word not
    yet revealed (drawn with `rng`, which the prompt keys)."""
    at = seen.rfind(BOARD)
    if at < 0:
        return None
    rows: list[list[str]] = []
    for text in seen[at + len(BOARD) :].splitlines():
        parts = text.split()
        if parts:
            rows.append(parts)
        elif rows:
            break  # the board ends at its first blank line
    roles = re.findall(r"the (Spymaster|Operative) for", seen)
    words = [r[0].lower() for r in rows]
    if roles and roles[-1] == "Spymaster":
        clue = next((c for c in CLUES if all(c not in w and w not in c for w in words)), "x")
        return f"[{clue} 1]"
    # An operative sees a word's team only once the word is revealed.
    hidden = sorted(r[0] for r in rows if len(r) == 1)
    return f"[{rng.choice(hidden)}]" if hidden else "[pass]"


def textarena_answer(prompt: str, rng: random.Random) -> str:
    """A move for a TextArena prompt: a Codenames clue or guess from the board shown, one of
    the bracketed choices its last listing offers, a Colonel Blotto split, prisoner's-dilemma
    decisions, or a line of chat."""
    seen = prompt.split(MARKER, 1)[-1]
    move = codenames_answer(seen, rng)
    if move is not None:
        return move
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
