"""Replay to any point: the full state, or what one seat knew, after any event of a log."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from events import catalog


def _game(events: Sequence[Any]) -> catalog.GameDef:
    if not events:
        raise ValueError("an empty log has no state")
    return catalog.get(getattr(events[0], "game", None))


def state_at(events: Sequence[Any], seq: int | None = None) -> Any:
    """The full state after event `seq` (default: the last)."""
    upto = list(events if seq is None else events[: seq + 1])
    return _game(upto).rules.fold(upto)


def observation_at(events: Sequence[Any], seat: int, seq: int | None = None) -> Any:
    """What `seat` knew after event `seq`, with the decision it was asked for, if any."""
    upto = list(events if seq is None else events[: seq + 1])
    game = _game(upto)
    view = game.new_view(seat).sync(upto)
    return view.snapshot(game.rules.pending(game.rules.fold(upto)))
