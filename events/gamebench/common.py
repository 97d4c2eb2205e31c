"""What every GameBench game shares at the events layer: the rule-explained event's fields,
the match score in [0, 1] (of seats or of teams) and the ranks.

GameBench scores a match with one number per player in [0, 1] (§3 of its paper): 1 to the
winner and 0 to the loser of a game with a winner, a player's share of all points in a game
of points. The scores in `game_ended` are these match scores, so ratings read them as they are.
"""

from __future__ import annotations

from collections.abc import Sequence

from events.base import SeatPrivate


class RuleExplainedBase(SeatPrivate, frozen=True, kw_only=True):
    """Base of each game's rule-explained event (each game tags its own): a seat asked for
    the rules under `heading` and was shown them. Seen by that seat only."""

    ACTOR = "seat"
    seat: int
    heading: str


class RequestRefusedBase(SeatPrivate, frozen=True, kw_only=True):
    """Base of a team game's refusal event (each game tags its own): a seat's answer that
    could not stand as given, and why. Seen by that seat only."""

    ACTOR = "seat"
    seat: int
    turn: int
    raw: str
    """The action as submitted (JSON)."""
    reason: str
    explain: bool = False
    """True for a refused `Explain` request (it uses up one of the seat's requests)."""


def winner_scores(players: int, winner: int) -> tuple[float, ...]:
    """Match scores of a game with one winner: 1 to the winner, 0 to everyone else."""
    return tuple(1.0 if s == winner else 0.0 for s in range(players))


def share_scores(points: Sequence[float]) -> tuple[float, ...]:
    """Match scores of a game of points: each seat's (or team's) share of all points, equal
    shares when nobody scored, so that the scores always sum to 1. Not rounded: the score is
    exact for the ratings, and a table rounds it when it shows it."""
    total = float(sum(points))
    if total <= 0:
        return tuple(1.0 / len(points) for _ in points)
    return tuple(float(p) / total for p in points)


def seat_scores(team_scores: Sequence[float], team_of_seat: Sequence[int]) -> tuple[float, ...]:
    """Each seat's score in a team game: its team's."""
    return tuple(float(team_scores[t]) for t in team_of_seat)


def ranks(scores: Sequence[float]) -> tuple[int, ...]:
    """1 = best; equal scores share a rank."""
    return tuple(1 + sum(o > s for o in scores) for s in scores)
