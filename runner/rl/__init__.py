"""Training on the games: PettingZoo and Gymnasium environments over every game of the
catalogue, and trained policies in the seats (docs/rl.md).

The environments need the optional extra `rl` (pettingzoo, gymnasium); they are imported on
first use, so a `policy:` seat plays without them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from runner.rl.env import GameEnv
    from runner.rl.make import make_env
    from runner.rl.wrappers import SingleSeatEnv, make_gym_env, make_parallel_env

_EXPORTS = {
    "make_env": "runner.rl.make",
    "GameEnv": "runner.rl.env",
    "make_parallel_env": "runner.rl.wrappers",
    "make_gym_env": "runner.rl.wrappers",
    "SingleSeatEnv": "runner.rl.wrappers",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'runner.rl' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)


__all__ = ["GameEnv", "SingleSeatEnv", "make_env", "make_gym_env", "make_parallel_env"]
