"""Reading JSON out of an answer (a model's, a person's typed line, a browser form), within
bounds that every game's parser shares.

An answer comes from outside: a text nested a hundred thousand brackets deep makes any
recursive decoder give up with `RecursionError`, and a text of megabytes costs time at every
stage a parser tries. `load_json` looks at the size and the nesting before decoding, so that
excess is an ordinary `ValueError` with a reason, which each parser turns into an unparsable
answer (never an exception that ends the game).
"""

from __future__ import annotations

import json
import re
from typing import Any

MAX_JSON_CHARS = 8 * 1024 * 1024
"""The longest JSON text read from an answer (8 Mi characters: above any answer a model
sends, a long message or reasoning included, yet a bound on the time one answer costs)."""
MAX_JSON_DEPTH = 64
"""The deepest nesting of arrays and objects read (a game's answer nests three or four)."""

_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[{]|[\]}]')


class AnswerBoundsError(ValueError):
    """JSON in an answer that is too long or nested too deep to be read."""


def json_bounds_error(text: str) -> str | None:
    """Why `text` is too long or too deeply nested to be read as JSON, or None."""
    if len(text) > MAX_JSON_CHARS:
        return f"its JSON is {len(text):,} characters long (at most {MAX_JSON_CHARS:,} are read)"
    if text.count("[") + text.count("{") <= MAX_JSON_DEPTH:
        return None  # the usual answer: too few brackets to be deep
    depth = 0
    for m in _TOKENS.finditer(text):
        tok = m.group()
        if tok in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                return f"its JSON is nested more than {MAX_JSON_DEPTH} levels deep"
        elif tok in "]}":
            depth = max(depth - 1, 0)
    return None


def load_json(text: str) -> Any:
    """`text` decoded as JSON (as `json.loads` reads it); `AnswerBoundsError` when it is too
    long or too deep (`json_bounds_error`), another `ValueError` when it is not JSON."""
    why = json_bounds_error(text)
    if why is not None:
        raise AnswerBoundsError(why)
    return json.loads(text)
