"""A worked example of learning through `runner.rl`: tabular Monte Carlo control on Kuhn poker
(OpenSpiel's game, seat 0) against the random agent, then the learned table as a policy.

    uv run python bench/rl_example.py [--episodes N] [--eval M] [--seed S]

Prints the learner's mean reward over M evaluation games (a greedy table) beside a random
policy's over the same seeds: learning shows as a mean above the random policy's.
"""

from __future__ import annotations

import argparse
import random
from collections import defaultdict
from typing import Any

import numpy as np

from runner.rl import make_gym_env

GAME = "openspiel:kuhn_poker"


class Table:
    """Mean return of each (observation, action id) seen; acts greedily among legal ids."""

    def __init__(self) -> None:
        self.value: dict[tuple[bytes, int], float] = defaultdict(float)
        self.count: dict[tuple[bytes, int], int] = defaultdict(int)

    def update(self, key: bytes, action: int, ret: float) -> None:
        k = (key, action)
        self.count[k] += 1
        self.value[k] += (ret - self.value[k]) / self.count[k]

    def greedy(self, key: bytes, legal: np.ndarray) -> int:
        return int(max(legal, key=lambda a: (self.value[(key, int(a))], -int(a))))

    def __call__(self, observation: dict[str, Any], info: dict[str, Any]) -> int:
        """The table as a `policy:` callable."""
        legal = np.flatnonzero(observation["action_mask"])
        return self.greedy(observation["observation"].tobytes(), legal)


def train(episodes: int, seed: int = 0, epsilon: float = 0.2) -> Table:
    """Learn a table from `episodes` games of seat 0 against the random agent."""
    env = make_gym_env(GAME, seed=seed, others="random")
    rng = random.Random(seed)
    table = Table()
    for _ in range(episodes):
        obs, _ = env.reset()
        visited: list[tuple[bytes, int]] = []
        done = False
        reward = 0.0
        while not done:
            key = obs["observation"].tobytes()
            legal = np.flatnonzero(obs["action_mask"])
            if rng.random() < epsilon:
                action = int(rng.choice(list(legal)))
            else:
                action = table.greedy(key, legal)
            visited.append((key, action))
            obs, reward, done, cut, _ = env.step(action)
            done = done or cut
        for key, action in visited:
            table.update(key, action, reward)
    env.close()
    return table


def evaluate(policy: Any, games: int, seed: int) -> float:
    """Mean reward of `policy(observation, info)` in seat 0 over `games` games (seeds from
    `seed` on)."""
    env = make_gym_env(GAME, seed=seed, others="random")
    total = 0.0
    for _ in range(games):
        obs, info = env.reset()
        done = False
        while not done:
            obs, reward, done, cut, info = env.step(policy(obs, info))
            done = done or cut
        total += reward
    env.close()
    return total / games


def random_policy(seed: int) -> Any:
    rng = random.Random(seed)
    return lambda obs, info: int(rng.choice(list(np.flatnonzero(obs["action_mask"]))))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=3000)
    parser.add_argument("--eval", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    table = train(args.episodes, args.seed)
    start = 10_000_000 + args.seed
    learned = evaluate(table, args.eval, start)
    baseline = evaluate(random_policy(args.seed), args.eval, start)
    print(f"Kuhn poker, seat 0 against random, {args.eval} games each")
    print(f"  random policy  mean reward {baseline:+.3f}")
    print(f"  learned table  mean reward {learned:+.3f}  ({args.episodes} training games)")


if __name__ == "__main__":
    main()
