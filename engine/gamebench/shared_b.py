"""What the rules of Sea Battle and Codenames share: GameBench's match score in [0, 1] for two
teams, seat scores and ranks from it, and the `Explain(heading)` request that every seat may
make instead of a move (progressive rules)."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec


class Explain(msgspec.Struct, frozen=True, kw_only=True, tag="explain", tag_field="kind"):
    """Ask for the rules under a heading instead of moving now (the decision is asked again).

    A seat may have each heading explained once; an unknown or repeated heading is refused
    and counts against the same allowance, so requests never hold a game up for long."""

    seat: int
    heading: str


def share(a: float, b: float) -> tuple[float, float]:
    """Two sides' points as shares of their sum, each in [0, 1] and summing to 1 (0.5 each
    when neither has any), to four decimals: GameBench's match score of a side."""
    total = a + b
    if total <= 0:
        return 0.5, 0.5
    first = round(a / total, 4)  # four decimals: a readable score, sums to 1 within 1e-12
    return first, round(1 - first, 4)


def seat_scores(team_scores: Sequence[float], team_of_seat: Sequence[int]) -> tuple[float, ...]:
    """Each seat's score: its team's."""
    return tuple(float(team_scores[t]) for t in team_of_seat)


def ranks_of(scores: Sequence[float]) -> tuple[int, ...]:
    """Competition ranks (1 = best; equal scores share a rank, so teammates do)."""
    return tuple(1 + sum(o > s for o in scores) for s in scores)


def find_heading(text: str, headings: Sequence[str]) -> str | None:
    """The heading `text` names (case, spaces and punctuation aside), or None."""
    key = _key(text)
    for h in headings:
        if _key(h) == key:
            return h
    return None


def _key(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())
