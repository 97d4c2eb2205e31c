"""The loopback stand-in model's answers to GameBench prompts.

Every GameBench decision prompt opens with ``GAME: <title>`` and ends with the reasoning
mode's instruction; most list their choices under ``Legal actions:``, one label a line, and
the stand-in names one of them. Four decisions take a free-form argument instead and are
answered from what their prompt shows: a Codenames clue (a word from a small list that is no
form of a board word) and guess (a hidden board word), a Sea Battle plan (eight tokens
within the turn's cannonballs under the prototype rules; one of the listed plans, each on a
``- <plan>: <what it does>`` line, under the gamebench rules), an Are You the Traitor? question and answer, and a Two Rooms
message (the listed ``Say: <your message>``). A seat with ``output=json_schema`` gets the
answer as JSON. A seat of GameBench's own protocol (`style=gamebench`) gets its JSON object
(`action`, and `openended_response` for an open-ended key; where a decision takes two calls,
as Are You the Traitor?'s question and stop poll do, each call's answer is a key of that
call's own menu), a few words of reasoning when its chain of thought asks for them, and
answers to the planner's questions (`mode=rap`). Every
choice comes from the generator the loopback passes in, so the same prompt always gets the
same answer.
"""

from __future__ import annotations

import ast
import json
import random
import re
from typing import Any

from agents.llm.loopback import Incoming, LegalPolicy
from engine.gamebench.sea_battle import CANNON_COST, MOVES, STEPS
from projections.gamebench.common import INSTRUCTIONS, key
from projections.gamebench.protocol import REASON, STANDIN_MARK

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


_FREE_FORM = (
    "\nYOUR CLUE",
    "\nYOUR GUESS",
    "\nYOUR PLAN FOR TURN",
    "\nYOUR QUESTION",
    "YOUR ANSWER",
)
"""Markers of the decisions whose answer the stand-in makes from what the prompt shows."""


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


def _lists(text: str) -> tuple[list[str], list[str]]:
    """The predefined and the open-ended keys a GameBench-style prompt names last (its
    closing summary prints each as a Python list on a line of its own)."""
    found = re.findall(r"^(\[.*\])$", text.rsplit("In short:", 1)[-1], re.MULTILINE)
    lists: list[list[str]] = []
    for line in found[-2:]:
        try:
            value = ast.literal_eval(line)
        except (ValueError, SyntaxError):
            value = []
        lists.append([str(v) for v in value] if isinstance(value, list) else [])
    while len(lists) < 2:
        lists.append([])
    return lists[0], lists[1]


def _styled(req: Incoming, rng: random.Random) -> str:
    """The reply to GameBench's own protocol: reasoning when asked to think first, else a
    JSON object naming a key (with a response for an open-ended one)."""
    users = [str(m.get("content", "")) for m in req.messages if m.get("role") == "user"]
    text = "\n".join(users)
    if req.last.endswith(REASON):
        return "I weigh what each action leads to, and pick the most promising one."
    predefined, openended = _lists(text)
    marked = any(mark in text for mark in _FREE_FORM)
    if marked:
        picked = choice(text, rng)
        if picked.startswith("Ask Player "):
            head, _, words = picked.partition(": ")
            return json.dumps({"action": head, "openended_response": words})
        if picked.startswith("Say: "):
            key = openended[0] if openended else "answer"
            return json.dumps({"action": key, "openended_response": picked[5:]})
        if picked == "pass" and "end_turn" in predefined:
            return json.dumps({"action": "end_turn"})
        if picked in predefined:
            return json.dumps({"action": picked})
        if openended:
            return json.dumps({"action": openended[0], "openended_response": picked})
    keys = predefined + openended
    if not keys:
        return json.dumps({"action": "pass"})
    key_ = rng.choice(keys)
    if key_ in openended:
        return json.dumps({"action": key_, "openended_response": rng.choice(MESSAGES)})
    return json.dumps({"action": key_})


def _planning(req: Incoming, rng: random.Random) -> str:
    """The reply to one of the planner's questions (mode=rap)."""
    last = req.last
    if last.endswith("yes/no.") or last.endswith("yes/no"):
        return rng.choice(("yes", "no"))
    if "write its number" in last:
        listed = re.findall(
            r"^(\d+)\. ", "\n".join(str(m.get("content", "")) for m in req.messages), re.MULTILINE
        )
        return rng.choice(listed[-3:] or ["0"])
    if "between <actions> and </actions>" in last:
        return "<actions>\nPlay on carefully\nTake a risk\n</actions>"
    if "between <others> and </others>" in last:
        return "<others>They play on as before.</others>"
    if "between <state> and </state>" in last:
        return "<state>\nMuch as before, one move later.\n</state>"
    users = "\n".join(str(m.get("content", "")) for m in req.messages if m.get("role") == "user")
    return choice(users, rng)


def answer(req: Incoming, rng: random.Random, policy: LegalPolicy) -> dict[str, Any] | str:
    """The stand-in's reply: the action on an ``Action:`` line (after a thought when the
    prompt asks to think out loud), or a JSON object when the seat asks for structured
    output."""
    prompt = req.prompt
    if "\nWhat you see of the game, between <state> and </state>:\n" in prompt:
        return _planning(req, rng)
    if STANDIN_MARK in prompt:
        return _styled(req, rng)
    action = choice(prompt, rng)
    think = "think out loud" in prompt
    if "response_format" in req.body or "tools" in req.body:
        fields = {"reasoning": "I take one of my options."} if think else {}
        return {**fields, "action": action}
    if think:
        return f"Thought: I weigh the options and take one.\nAction: {action}"
    return f"Action: {action}"
