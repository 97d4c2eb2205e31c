"""Small helpers shared by the metric tests."""

from __future__ import annotations

from metrics_builder import Log

from events.store import DuckStore


def extra_game(store: DuckStore) -> None:
    """Store one more short game (a free cat, then the end)."""
    g = Log(("a", "b"))
    g.auction(0, "cat", [{1: None}, {1: None}])
    g.end((0, 0), (1, 1), ((), ()))
    g.save(store, "g3", tournament="hand")
