"""Chat text as the rules of every game record it: one line of printable characters.

Whatever a seat says to others (a PACT message, a Two Rooms remark, a question in Are You the
Traitor?) reaches other seats' prompts, the terminal and the browser. A character that is not
printable there (a control character, a terminal escape, a line or paragraph separator, a
bidirectional override such as U+202E that makes text read backwards, a zero-width mark)
becomes a space, and runs of spaces one space."""

from __future__ import annotations


def one_line(text: str) -> str:
    """`text` as one line of printable characters, spaces collapsed, ends trimmed."""
    if text.isprintable():
        return " ".join(text.split())  # the common case: nothing to replace
    return " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())
