"""What the model prompts of every GameBench game share: progressive rules, the
chain-of-thought option and reading an answer.

Progressive rules: the standing instructions hold a game's summary and the headings of its
detailed rules; a seat reads the rules under a heading by answering `Explain(heading)`, after
which every later prompt of that seat shows them (the rules record the request as a
seat-private event, so a replay shows the same prompts). Chain of thought: a seat with
`mode=cot` is asked to reason about its best action before naming it (GameBench's CoT
scaffold); otherwise it names the action at once. An answer is read from its last
`Action:` line (or its last line), compared with the legal actions' labels ignoring case,
spaces and punctuation.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import msgspec

from engine.gamebench.common import Explain

MODES = ("prompt", "cot")
"""Reasoning modes of GameBench prompts: answer at once, or reason first."""

_ACTION_RE = re.compile(r"^\s*\**\s*action\s*\**\s*:\s*(.+?)\s*$", re.IGNORECASE | re.MULTILINE)
_EXPLAIN_RE = re.compile(r"^\W*explain\s*\(\s*(.*?)\s*\)\W*$", re.IGNORECASE)

ANSWER = {
    "prompt": "Reply with one line and nothing else:\nAction: <one legal action, as listed>",
    "cot": (
        "Before you answer, reason out loud about which action gives you the best chance of "
        "winning. Then end with one line:\nAction: <one legal action, as listed>"
    ),
}
"""The closing instruction of a decision prompt, by mode."""


def key(text: str) -> str:
    """A label as compared: lower case, letters and digits only."""
    return re.sub(r"[^0-9a-z]", "", text.casefold())


def rules_block(sections: Mapping[str, str], explained: Sequence[str]) -> str:
    """The rules a seat has asked for, under their headings ("" when none)."""
    shown = [f"{h}: {sections[h]}" for h in sections if h in explained]
    return "Rules you asked for:\n" + "\n".join(shown) if shown else ""


def system_text(title: str, summary: str, sections: Mapping[str, str]) -> str:
    """The standing instructions: the summary, and how to read the rules under a heading."""
    headings = ", ".join(sections)
    return (
        f"You are playing {title}. {summary}\n\n"
        f"More detailed rules are written under these headings: {headings}. To read the "
        "rules under a heading, answer Explain(<heading>) instead of an action (as "
        "Action: Explain(<heading>)); you will be asked the same question again with those "
        "rules shown. Each heading can be explained once. Any other answer must be one of "
        "the legal actions listed in the question."
    )


def _json_action(text: str) -> str | None:
    """The `action` of an answer that is one JSON object (structured output), else None."""
    stripped = text.strip()
    if not stripped.startswith("{"):
        return None
    try:
        data = json.loads(stripped)
    except ValueError:
        return None
    action = data.get("action") if isinstance(data, dict) else None
    return action if isinstance(action, str) else None


def read_answer(text: str, options: Sequence[tuple[str, Any]]) -> tuple[Any, str, str | None]:
    """(action or None, how it was read, error or None) from an answer, given the legal
    actions' (label, action) pairs."""
    found = _ACTION_RE.findall(text or "")
    chosen = _json_action(text or "")
    if chosen is not None:
        candidate, stage = chosen, "json"
    elif found:
        candidate, stage = found[-1], "action_line"
    else:
        lines = [ln for ln in (text or "").strip().splitlines() if ln.strip()]
        if not lines:
            return None, "failed", "empty answer"
        candidate, stage = lines[-1], "last_line"
    m = _EXPLAIN_RE.match(candidate)
    if m:
        return Explain(heading=m.group(1).strip("'\"` ")), stage, None
    wanted = key(candidate)
    for label, action in options:
        if key(label) == wanted:
            return action, stage, None
    return None, "failed", f"{candidate.strip()[:60]!r} is not one of the legal actions"


@dataclass(frozen=True)
class GameBenchPrompter:
    """The prompter of a GameBench game; a game's subclass brings its title, summary, rule
    sections, the text of a decision and the legal actions' labels."""

    mode: str = "prompt"
    title: str = ""
    summary: str = ""
    sections: Mapping[str, str] | None = None

    def for_seat(self, options: Any) -> GameBenchPrompter:
        """The prompter of a seat with these options (its reasoning mode: prompt or cot)."""
        mode = getattr(options, "mode", None) or "prompt"
        return replace(self, mode=mode if mode in MODES else "cot")

    # hooks a game supplies --------------------------------------------------------------

    def situation(self, view: Any, decision: Any) -> str:
        """What the seat sees and what it is asked (without the legal actions)."""
        raise NotImplementedError

    def options(self, decision: Any) -> Sequence[tuple[str, Any]]:
        """The legal actions of a decision as (label, action) pairs."""
        raise NotImplementedError

    def default_action(self, decision: Any, seat: int) -> Any:
        """The action played when no usable answer came."""
        raise NotImplementedError

    # shared ----------------------------------------------------------------------------

    def system_prompt(self, config: Any, character: str | None, seat: int | None = None) -> str:
        """The standing instructions (one character only: the default, `optimal`)."""
        if character not in (None, "optimal"):
            raise KeyError(f"{self.title} has no character {character!r}; known: optimal")
        return system_text(self.title, self.summary, self.sections or {})

    def decision_prompt(self, view: Any, decision: Any, memory: str, rejection: Any) -> str:
        """The situation, the rules the seat asked for, the legal actions and how to answer."""
        parts = [self.situation(view, decision)]
        block = rules_block(self.sections or {}, sorted(view.explained))
        if block:
            parts.append(block)
        labels = [label for label, _ in self.options(decision)]
        parts.append("Legal actions:\n" + "\n".join(labels))
        parts.append(ANSWER.get(self.mode, ANSWER["cot"]))
        return "\n\n".join(parts)

    def answer_schema(self, view: Any, decision: Any) -> dict[str, Any]:
        """The JSON schema of an answer (seats with ``output=json_schema``): one of the legal
        actions' labels or an `Explain(heading)`, after a reasoning field in `cot` mode."""
        labels = [label for label, _ in self.options(decision)]
        labels += [f"Explain({h})" for h in self.sections or {} if h not in view.explained]
        props: dict[str, Any] = {}
        if self.mode != "prompt":
            props["reasoning"] = {"type": "string"}
        props["action"] = {"type": "string", "enum": labels}
        return {
            "type": "object",
            "properties": props,
            "required": list(props),
            "additionalProperties": False,
        }

    def rejection(self, view: Any, seat: int, kind: str) -> Any:
        """The rules never ask again after a bad answer: they play the fallback."""
        return None

    def parse(self, text: str, decision: Any, seat: int) -> tuple[Any, str, str | None]:
        """The legal action (or the `Explain`) an answer names."""
        return read_answer(text, self.options(decision))

    def action_json(self, action: Any) -> str:
        """An action as JSON."""
        return msgspec.json.encode(action).decode()

    def truncation_retry_prompt(self, kind: str) -> str:
        """Appended after an answer cut by the token limit."""
        return (
            "Your answer was cut off by the length limit. Reply now with one line and no "
            "reasoning: Action: <one legal action>"
        )

    def format_retry_prompt(self, kind: str, error: str) -> str:
        """The follow-up after an answer that named no legal action."""
        return (
            f"That answer could not be used: {error}.\n"
            "Reply with one line and nothing else: Action: <one of the legal actions above>"
        )

    def notes_lines(self, events: Sequence[Any], seat: int) -> list[str]:
        """No scratchpad: each prompt shows the whole situation."""
        return []

    def notes_prompt(self, notes: str, lines: list[str]) -> str:
        """Unused (no scratchpad)."""
        return ""

    def cap_notes(self, text: str) -> str:
        """Unused (no scratchpad)."""
        return ""
