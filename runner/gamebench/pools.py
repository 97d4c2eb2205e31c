"""GameBench's frozen reference pools (runner.pools)."""

from __future__ import annotations

from runner.pools import Pool


def pools() -> list[Pool]:
    """The pools GameBench's games declare (Pit and Santorini name the same module)."""
    return [
        Pool(
            name="gb-ref-code",
            summary="Pit's and Santorini's heuristics with random (Pit's quick game)",
            agents={
                "gamebench:pit@quick": ("cornerer", "random"),
                "gamebench:santorini": ("climber", "random"),
            },
            deals=2,
        )
    ]
