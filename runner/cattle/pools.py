"""Cattle Trade's frozen reference pools (runner.pools)."""

from __future__ import annotations

from runner.pools import Pool


def pools() -> list[Pool]:
    """The pools Cattle Trade declares."""
    return [
        Pool(
            name="ct-ref-code",
            summary="Cattle Trade's three heuristic agents on the two-player micro-duel",
            agents={"cattle-trade@micro-duel": ("tracker", "setrace", "economy")},
            deals=3,
        )
    ]
