"""OpenSpiel's frozen reference pools (runner.pools): GTBench games."""

from __future__ import annotations

from runner.pools import Pool


def pools() -> list[Pool]:
    """The pools the OpenSpiel game declares."""
    return [
        Pool(
            name="gtbench-ref-code",
            summary="Random and a light MCTS on GTBench's Tic-Tac-Toe and Kuhn poker",
            agents={
                "gtbench:tic_tac_toe": ("random", "mcts?simulations=20"),
                "gtbench:kuhn_poker": ("random", "mcts?simulations=20"),
            },
            deals=3,
        )
    ]
