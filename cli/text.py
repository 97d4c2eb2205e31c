"""Printing text that came from a user, a model or the store, exactly as it is.

Rich reads `[...]` in a string as markup and `:name:` as an emoji code, and a terminal acts on
control characters (an escape sequence can recolour or retitle it, a newline breaks a table
row). Stored strings such as agent specs, model names and answers are shown through these
helpers: as rich `Text` (never parsed) with control characters written out as escapes.
"""

from __future__ import annotations

import re

from rich.markup import escape
from rich.text import Text

# C0 and C1 control characters, DEL, and the bidirectional overrides that reorder what a
# terminal displays.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _visible(match: re.Match[str]) -> str:
    ch = match.group()
    if ch in _NAMED:
        return _NAMED[ch]
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def shown(value: object) -> str:
    """The text of `value` with every control character written as an escape (\\n, \\x1b)."""
    return _CONTROL.sub(_visible, str(value))


def plain(value: object, style: str = "") -> Text:
    """`value` as rich Text: printed exactly, never read as markup or emoji codes."""
    return Text(shown(value), style=style)


def esc(value: object) -> str:
    """`value` made safe to place inside a markup string (emoji codes are off in our consoles)."""
    return escape(shown(value))
