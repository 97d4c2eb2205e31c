"""Environment steps per CPU second for random play: `runner.rl` beside OpenSpiel's own
`rl_environment` on the same OpenSpiel games, and `runner.rl` on Cattle Trade.

    uv run python bench/rl_bench.py [--steps N] [--json]

A step is one action of one player; both sides pick uniformly among the legal actions with
their own seeded generator and start a new episode when one ends. Ours: the AEC environment of
`make_env` (observation and mask built for the player to move, `last()` then `step()`), nothing
recorded. OpenSpiel: `open_spiel.python.rl_environment.Environment` (`reset()`, `step([a])`,
its time steps carrying every player's information-state tensor and legal actions). Times are
CPU seconds of this process (`time.process_time`), so other load on the machine counts less.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

import numpy as np

from runner.rl import make_env

OPENSPIEL_GAMES = ("kuhn_poker", "leduc_poker", "tic_tac_toe", "connect_four")
CATTLE_PRESETS = ("micro-duel", "standard")


def ours(game: str, preset: str | None, steps: int, seed: int = 0) -> float:
    """Steps per CPU second of random play through `make_env`."""
    env = make_env(game, preset, seed=seed)
    rng = np.random.default_rng(seed)
    env.reset()
    done_steps = 0
    start = time.process_time()
    while done_steps < steps:
        for _agent in env.agent_iter():
            obs, _, done, cut, _ = env.last()
            if done or cut:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            done_steps += 1
        env.reset()
    return done_steps / (time.process_time() - start)


def openspiel(game: str, steps: int, seed: int = 0) -> float:
    """Steps per CPU second of random play through OpenSpiel's `rl_environment`."""
    from open_spiel.python import rl_environment

    env = rl_environment.Environment(game)
    env.seed(seed)
    rng = random.Random(seed)
    done_steps = 0
    start = time.process_time()
    while done_steps < steps:
        ts = env.reset()
        while not ts.last():
            player = ts.observations["current_player"]
            ts = env.step([rng.choice(ts.observations["legal_actions"][player])])
            done_steps += 1
    return done_steps / (time.process_time() - start)


def run(steps: int) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for game in OPENSPIEL_GAMES:
        mine = ours(f"openspiel:{game}", None, steps)
        theirs = openspiel(game, steps)
        rows.append({"game": game, "ours": mine, "openspiel": theirs, "ratio": mine / theirs})
    for preset in CATTLE_PRESETS:
        rows.append({"game": f"cattle-trade {preset}", "ours": ours("cattle-trade", preset, steps)})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = run(args.steps)
    if args.json:
        print(json.dumps(rows))
        return
    print(f"{'game':<24}{'ours/s':>10}{'OpenSpiel/s':>13}{'ratio':>8}")
    for r in rows:
        theirs = f"{r['openspiel']:>13,.0f}" if "openspiel" in r else f"{'':>13}"
        ratio = f"{r['ratio']:>8.2f}" if "ratio" in r else ""
        print(f"{r['game']:<24}{r['ours']:>10,.0f}{theirs}{ratio}")


if __name__ == "__main__":
    main()
