"""Cattle Trade's frozen reference pools (runner.pools)."""

from __future__ import annotations

from runner.pools import Pool


def pools() -> list[Pool]:
    """The pools Cattle Trade declares."""
    return [
        Pool(
            name="ct-ref-code",
            summary="Cattle Trade's three heuristic agents on the two-player micro-duel",
            # Frozen versions: the pool's ratings must not move when the live agents are retuned.
            agents={"cattle-trade@micro-duel": ("tracker-v3", "setrace-v3", "economy-v3")},
            deals=3,
        )
    ]
