"""PACT's frozen reference pools (runner.pools)."""

from __future__ import annotations

from runner.pools import Pool


def pools() -> list[Pool]:
    """The pools PACT declares."""
    return [
        Pool(
            name="pact-ref-code",
            summary="PACT's four bots on the quick (five-round) game",
            agents={"pact@quick": ("truthful", "anchor", "mirror", "random")},
            deals=3,
        )
    ]
