"""Finding the fields of a model's answer, in the stages of the error-handling table (every game).

1. the whole text is a JSON object (``json``);
2. else the last JSON object found in the text, code fences included (``last_object``);
3. else key-value pairs of the game's keys picked out of the text (``key_value``).

Each game then turns the fields into its own action (agents.cattle.parse, agents.pact.bots).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any

from projections.answers import load_json

PLACEHOLDER = re.compile(r"<[^<>]{0,80}>|\.\.\.|\u2026")
"""A template's placeholder as the prompts write them: `<multiple of 10>`, `...`."""


def is_placeholder(value: str) -> bool:
    """Whether `value` only repeats a template's placeholders (`<your message>`, `...`):
    nothing but those, spaces and punctuation."""
    rest = PLACEHOLDER.sub("", value)
    return bool(value.strip()) and not any(ch.isalnum() for ch in rest)


class AnswerError(ValueError):
    """An answer that does not yield an action; the message explains why."""


def _objects(text: str) -> list[str]:
    """Every balanced {...} span of `text` (outermost first, in order), strings respected."""
    spans: list[str] = []
    depth = 0
    start = -1
    in_str = False
    esc = False
    for i, ch in enumerate(text):
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
            continue
        if ch == '"' and depth > 0:
            in_str = True
        elif ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}" and depth > 0:
            depth -= 1
            if depth == 0:
                spans.append(text[start : i + 1])
    return spans


_VALUE = r"""("(?:[^"\\]|\\.)*"|'[^']*'|\[[^\]]*\]?|-?\d+(?:,\d{3})*(?:\.\d+)?(?:[eE][+-]?\d+)?|[A-Za-z_][\w\- ]*)"""


@functools.cache
def _patterns(keys: tuple[str, ...]) -> tuple[tuple[str, re.Pattern[str]], ...]:
    return tuple(
        (k, re.compile(rf"""["']?\b{k}\b["']?\s*[:=]\s*{_VALUE}""", re.IGNORECASE)) for k in keys
    )


_CHOICES = re.compile(r"\s+or\s", re.IGNORECASE)
"""What follows a value that only repeats a template's list of choices (`"bid" or "pass"`)."""


def _kv(text: str, keys: tuple[str, ...]) -> dict[str, Any]:
    """The last value written for each of `keys`; a key whose value repeats a template's
    list of choices (`"auction" or "kuhhandel"`) is left out: it names no choice."""
    out: dict[str, Any] = {}
    for key, rx in _patterns(keys):
        found = list(rx.finditer(text))
        if not found:
            continue
        last = found[-1]
        raw = last.group(1).strip()
        if _CHOICES.match(text, last.end()) or (
            raw[:1] not in "\"'[" and _CHOICES.search(raw + " ")
        ):
            continue
        if raw[:1] in "\"'":
            out[key] = raw[1:-1] if len(raw) > 1 and raw[-1] == raw[0] else raw[1:]
        elif raw.startswith("["):
            out[key] = re.findall(r"-?\d+", raw)[:200]
        else:
            out[key] = raw.split()[0] if raw.split() else raw
    return out


def extract(text: str, keys: Sequence[str] = ()) -> tuple[dict[str, Any] | None, str]:
    """The answer's fields and the stage that found them (json, last_object, key_value, failed);
    the key-value stage looks for `keys` only."""
    stripped = text.strip()
    try:
        data = load_json(stripped)
        if isinstance(data, dict):
            return data, "json"
    except (ValueError, RecursionError):
        pass
    for span in reversed(_objects(text)):
        try:
            data = load_json(span)
        except (ValueError, RecursionError):
            continue
        if isinstance(data, dict):
            return data, "last_object"
    found = _kv(text, tuple(keys))
    if found:
        return found, "key_value"
    return None, "failed"
