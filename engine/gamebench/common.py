"""What the rules of every GameBench game share: the `Explain(heading)` action of progressive
rules, the seeded fallback for an unusable answer, and the text an answer is recorded by.

GameBench shows a model the summary of a game's rules and withholds the rules under each
heading until the model asks with `Explain(heading)`. Here asking is an action of the game:
the rules answer it with a seat-private rule-explained event and ask the same decision again.
Each heading can be explained once per seat, so explanations are bounded; asking for an
unknown heading, or one already shown, is an unusable answer like any other.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, TypeVar

import msgspec

T = TypeVar("T")


class Explain(msgspec.Struct, frozen=True, kw_only=True, tag="explain"):
    """Ask for the rules under a heading (a model seat's action; code agents never ask)."""

    heading: str


def fallback(seed: int, game: str, ply: int, legal: Sequence[T]) -> T:
    """The action played for an unusable answer: one of `legal` drawn from the game seed and
    the ply (GameBench draws a random legal action)."""
    return random.Random(f"{seed}:{game}:fallback:{ply}").choice(legal)


def raw_text(action: Any) -> str:
    """An answer as recorded in a rejection: an action's JSON, a string as it is, else repr."""
    if isinstance(action, msgspec.Struct):
        return msgspec.json.encode(action).decode()
    return action if isinstance(action, str) else repr(action)


def heading_of(text: str, headings: Sequence[str]) -> str | None:
    """The heading `text` names (case and surrounding space ignored), or None."""
    wanted = " ".join(text.split()).casefold()
    for h in headings:
        if h.casefold() == wanted:
            return h
    return None
