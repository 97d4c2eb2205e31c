"""What the rules of every GameBench game share: the `Explain(heading)` action of progressive
rules and how the rules answer it, the seeded fallback for an unusable answer, and the text
an answer is recorded by.

GameBench shows a model the summary of a game's rules and withholds the rules under each
heading until the model asks with `Explain(heading)`. Here asking is an action of the game:
the rules answer it with a seat-private rule-explained event and ask the same decision again.
A seat has as many requests per game as the game has headings; an unknown heading, or one
already shown, is refused (a seat-private event), uses one request and the decision is asked
again. A request once none are left is refused and the decision's fallback plays, so
requests never hold a game up and the rules keep a hard bound on decisions.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Sequence
from typing import Any, TypeVar

import msgspec

T = TypeVar("T")


class IllegalAction(ValueError):
    """Actions that answer no pending decision (a caller's bug, not a move)."""


class Explain(msgspec.Struct, frozen=True, kw_only=True, tag="explain"):
    """Ask for the rules under a heading instead of acting now (the decision is asked
    again; model seats only, code agents never ask)."""

    heading: str


def fallback(seed: int, game: str, ply: int, legal: Sequence[T]) -> T:
    """The action played for an unusable answer: one of `legal` drawn from the game seed and
    the ply (GameBench draws a random legal action)."""
    return random.Random(f"{seed}:{game}:fallback:{ply}").choice(legal)


_ENC = msgspec.json.Encoder(order="deterministic")


def raw_text(action: Any) -> str:
    """An answer as recorded in a refusal: an action's deterministic JSON, a string as it is,
    anything else its repr."""
    if isinstance(action, str):
        return action
    try:
        return _ENC.encode(action).decode() if isinstance(action, msgspec.Struct) else repr(action)
    except (TypeError, msgspec.EncodeError):
        return repr(action)


def heading_key(text: str) -> str:
    """A heading as compared: lower case, letters and digits only."""
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def find_heading(text: Any, headings: Sequence[str]) -> str | None:
    """The heading `text` names (case, spaces and punctuation aside), or None."""
    if not isinstance(text, str):
        return None
    key = heading_key(text)
    for h in headings:
        if heading_key(h) == key:
            return h
    return None


def explain(
    request: Explain, headings: Sequence[str], explained: Collection[str], requests: int
) -> tuple[str | None, str | None, bool]:
    """How the rules answer a request: (heading to explain, None, False) when granted, else
    (None, why it is refused, whether the seat may still be asked again). `explained` are the
    headings the seat has been shown, `requests` the requests it made so far (granted or
    refused); a seat has one request per heading."""
    heading = find_heading(request.heading, headings)
    if requests >= len(headings):
        why = "no explanation requests left in this game"
    elif heading is None:
        shown = str(request.heading)[:40]
        why = f"no rules under the heading {shown!r}; headings: {', '.join(headings)}"
    elif heading in explained:
        why = f"the rules under {heading!r} were already explained"
    else:
        return heading, None, False
    return None, why, requests + 1 < len(headings)


def count_request(
    explained: tuple[tuple[str, ...], ...],
    requests: tuple[int, ...],
    seat: int,
    heading: str | None,
) -> tuple[tuple[tuple[str, ...], ...], tuple[int, ...]]:
    """(explained, requests) after a seat's request: granted (`heading`) or refused (None);
    for the games whose state is a frozen value."""
    if heading is not None:
        explained = tuple((*h, heading) if i == seat else h for i, h in enumerate(explained))
    return explained, tuple(n + (i == seat) for i, n in enumerate(requests))


def screen(
    action: Any,
    legal: Collection[Any],
    headings: Sequence[str],
    explained: Collection[str],
    requests: int,
) -> tuple[str | None, str | None, bool]:
    """How the rules of a game that lists its legal actions take an answer: (heading to
    explain, None, False) for a granted request, (None, None, False) for a legal action,
    else (None, why it is refused, whether the seat is asked again rather than the fallback
    played: only a refused request with requests left)."""
    if isinstance(action, Explain):
        return explain(action, headings, explained, requests)
    if action in legal:
        return None, None, False
    what = "a legal action here" if isinstance(action, msgspec.Struct) else "an action"
    return None, f"not {what}", False


def screened(
    action: Any,
    legal: Sequence[Any],
    *,
    headings: Sequence[str],
    explained: Collection[str],
    requests: int,
    granted: Callable[[str], Any],
    refused: Callable[[str, str, bool], Any],
    fold: Callable[[Any], object],
    draw: Callable[[], Any],
) -> tuple[Any | None, list[Any]]:
    """Take a seat's answer to a decision that lists its legal actions, the part of `step`
    every such game shares: (the action to play, or None when the same decision is asked
    again; the events recorded so far, each already folded with `fold`).

    A granted request gives `granted(heading)`; a refused answer gives
    `refused(raw text, reason, whether it was a request)` and then, unless the seat is asked
    again, the fallback `draw()` is played."""
    heading, reason, again = screen(action, legal, headings, explained, requests)
    if heading is not None:
        event = granted(heading)
        fold(event)
        return None, [event]
    if reason is None:
        return action, []
    event = refused(raw_text(action), reason, isinstance(action, Explain))
    fold(event)
    return (None if again else draw()), [event]
