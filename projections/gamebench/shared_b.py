"""What the prompts of Sea Battle and Codenames share: GameBench's progressive rules (a short
summary up front; the rules under each heading only once the seat asks with
`Explain(heading)`), the reasoning modes (answer at once, or chain of thought first) and
reading the last `Action:` line of an answer."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

MODES = ("prompt", "cot", "sc-cot")
"""Reasoning modes a seat may take (`mode=` in its spec); sc-cot is cot asked several times."""


@dataclass(frozen=True)
class RuleBook:
    """A game's rules as shown to a model: a title, a summary and the withheld sections."""

    title: str
    summary: str
    sections: tuple[tuple[str, str], ...]
    """(heading, text) in the order they are listed."""

    @property
    def headings(self) -> tuple[str, ...]:
        """The headings a seat may ask about."""
        return tuple(h for h, _ in self.sections)

    def text(self, heading: str) -> str:
        """The rules under `heading`."""
        return dict(self.sections)[heading]


def rules_lines(book: RuleBook, explained: Sequence[str]) -> list[str]:
    """The rules part of a prompt: the summary, the rules explained so far, the headings left."""
    lines = [f"GAME: {book.title}", book.summary]
    if explained:
        lines += ["", "RULES YOU ASKED ABOUT:"]
        lines += [f"* {h}: {book.text(h)}" for h in explained]
    left = [h for h in book.headings if h not in explained]
    if left:
        lines += [
            "",
            "More rules are written under these headings; to read one instead of acting now,"
            " answer with the action Explain(<heading>), e.g. Explain(" + left[0] + "):",
            ", ".join(left),
        ]
    return lines


INSTRUCTIONS: dict[str, str] = {
    "prompt": "Reply with exactly one line, nothing else:\nAction: <your action>",
    "cot": (
        "First think out loud, step by step, about which action gives you the best chance of"
        " winning. Then end your reply with one line:\nAction: <your action>"
    ),
}
"""How to answer, by reasoning mode (sc-cot answers as cot)."""


def instruction(mode: str) -> str:
    """The closing instruction of a decision prompt in `mode`."""
    return INSTRUCTIONS["prompt" if mode == "prompt" else "cot"]


_ACTION_LINE = re.compile(r"^\W*action\W*[:=]\s*(.+?)\s*$", re.IGNORECASE | re.MULTILINE)
_EXPLAIN = re.compile(r"^explain\s*\(\s*(.*?)\s*\)\W*$", re.IGNORECASE | re.DOTALL)


def answer_line(text: str) -> tuple[str | None, str]:
    """(the action text of an answer, how it was found): the `action` of an answer that is
    one JSON object (structured output), else its last `Action:` line, else its last
    non-empty line; None for an empty answer."""
    body = (text or "").strip()
    if body.startswith("{") and body.endswith("}"):
        try:
            data = json.loads(body)
        except ValueError:
            data = None
        if isinstance(data, dict) and isinstance(data.get("action"), str):
            return _strip(data["action"]), "json"
    found = _ACTION_LINE.findall(text or "")
    if found:
        return _strip(found[-1]), "action_line"
    lines = [ln for ln in (text or "").splitlines() if ln.strip()]
    if not lines:
        return None, "failed"
    return _strip(lines[-1]), "last_line"


def _strip(text: str) -> str:
    return text.strip().strip("`*\"'").strip()


def explain_heading(action: str) -> str | None:
    """The heading an `Explain(heading)` action names (as written), or None."""
    m = _EXPLAIN.match(action.strip())
    return m.group(1).strip("\"'` ") if m else None


RETRY_CUT = (
    "Your previous answer was cut off by the length limit. Do not explain this time: reply "
    "with one line, Action: <your action>"
)
"""Appended after an answer cut by the token limit."""


def retry_format(error: str) -> str:
    """The follow-up after an answer that gave no usable action."""
    return f"Your answer could not be used: {error}.\nReply with one line and nothing else: Action: <your action>"


def answer_schema(mode: str, action: dict[str, Any]) -> dict[str, Any]:
    """The JSON schema of an answer (structured output): the action as `action` describes it,
    after a reasoning field in the modes that think first."""
    props: dict[str, Any] = {}
    if mode != "prompt":
        props["reasoning"] = {"type": "string"}
    props["action"] = action
    return {
        "type": "object",
        "properties": props,
        "required": list(props),
        "additionalProperties": False,
    }


def explain_pattern(headings: Sequence[str]) -> str:
    """A regular expression of `Explain(<heading>)` for the headings given."""
    return r"Explain\((" + "|".join(re.escape(h) for h in headings) + r")\)"
