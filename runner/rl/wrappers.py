"""The AEC environment's siblings: a PettingZoo Parallel environment (every seat asked by a
decision answers in one `step`, as in a sealed bid round or a simultaneous OpenSpiel node) and a
Gymnasium environment for one seat, the others played by agents built from specs."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import ParallelEnv

from events import catalog
from events.config import SeatSpec
from events.store import Store
from runner.rl.codec import check_action
from runner.rl.env import LABEL, GameEnv, agent_name, resolve


class ParallelGameEnv(ParallelEnv):
    """A game as a PettingZoo Parallel environment. Each `step` takes the actions of the
    seats the pending decision asks (every seat at once where the game moves simultaneously,
    one seat in a game of turns); the actions of seats not asked are not used, and their
    action masks are all 0."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012

    def __init__(self, aec: GameEnv) -> None:
        self.aec = aec
        self.possible_agents = list(aec.possible_agents)
        self.metadata = {**self.metadata, "name": aec.metadata["name"]}
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> Any:
        return self.aec.observation_space(agent)

    def action_space(self, agent: str) -> Any:
        return self.aec.action_space(agent)

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        self.aec.reset(seed=seed, options=options)
        self.agents = list(self.aec.agents)
        return {a: self.aec.observe(a) for a in self.agents}, {
            a: dict(self.aec.infos[a]) for a in self.agents
        }

    def _asked(self) -> list[str]:
        d = self.aec._decision
        if d is None:
            return []
        return [agent_name(s) for s in d.seats if agent_name(s) in self.aec._seat_of]

    def step(self, actions: Mapping[str, Any]) -> tuple[dict[str, Any], ...]:
        aec = self.aec
        rewards = dict.fromkeys(self.agents, 0.0)
        asked = self._asked()
        # Every asked seat's action is checked before any is taken, so a missing or bad one
        # leaves the round as it was.
        missing = [name for name in asked if name not in actions]
        if missing:
            raise KeyError(f"no action for {', '.join(missing)} (asked: {', '.join(asked)})")
        for name in asked:
            check_action(aec.codec, actions[name])
        for name in asked:
            if aec.terminations.get(name) or aec.truncations.get(name):
                break
            assert aec.agent_selection == name
            aec.step(actions[name])
            for a in self.agents:
                rewards[a] += aec.rewards.get(a, 0.0)
        obs = {a: aec.observe(a) for a in self.agents}
        terminations = {a: bool(aec.terminations[a]) for a in self.agents}
        truncations = {a: bool(aec.truncations[a]) for a in self.agents}
        infos = {a: dict(aec.infos[a]) for a in self.agents}
        self.agents = [a for a in self.agents if not (terminations[a] or truncations[a])]
        return obs, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()

    def state(self) -> np.ndarray:
        raise NotImplementedError("the game's whole state is not shown to learners")


class SingleSeatEnv(gymnasium.Env):
    """One seat of a game as a Gymnasium environment; every other seat is played by an agent
    (`others`, seat -> spec). The reward is the seat's score when the game ends (0 before)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012

    def __init__(self, aec: GameEnv) -> None:
        if len(aec.possible_agents) != 1:
            raise ValueError("a single-seat environment needs agents in every other seat")
        self.aec = aec
        self.name = aec.possible_agents[0]
        self.observation_space = aec.observation_space(self.name)
        self.action_space = aec.action_space(self.name)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        self.aec.reset(seed=seed, options=options)
        return self.aec.observe(self.name), dict(self.aec.infos[self.name])

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        aec = self.aec
        aec.step(action)
        name = self.name
        return (
            aec.observe(name),
            float(aec.rewards[name]),
            bool(aec.terminations[name]),
            bool(aec.truncations[name]),
            dict(aec.infos[name]),
        )

    def action_masks(self) -> np.ndarray:
        """The legal action ids now (the name sb3-contrib's maskable algorithms ask for)."""
        return np.asarray(self.aec.observe(self.name)["action_mask"], dtype=bool)

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()


def make_parallel_env(
    game: str | catalog.GameDef | None = None,
    preset: Any = None,
    seed: int | None = None,
    record: str | Path | Store | None = None,
    text: bool = False,
    **options: Any,
) -> ParallelGameEnv:
    """`make_env`'s game as a PettingZoo Parallel environment (same arguments)."""
    g, config = resolve(game, preset)
    return ParallelGameEnv(GameEnv(g, config, seed=seed, record=record, text=text, **options))


def default_opponent(game: catalog.GameDef) -> str:
    """The agent `make_gym_env` seats where it is not told: `random` where the game has it."""
    if "random" in game.code_agents:
        return "random"
    return sorted(game.code_agents)[0]


def make_gym_env(
    game: str | catalog.GameDef | None = None,
    preset: Any = None,
    seed: int | None = None,
    record: str | Path | Store | None = None,
    text: bool = False,
    *,
    seat: int = 0,
    others: Mapping[int, str | SeatSpec] | str | None = None,
    label: str | SeatSpec = LABEL,
    max_steps: int | None = None,
) -> SingleSeatEnv:
    """Seat `seat` of the game as a Gymnasium environment; `others` gives the other seats'
    agents (one spec for all of them, or seat -> spec; default: the game's random agent)."""
    g, config = resolve(game, preset)
    if not 0 <= seat < config.players:
        raise ValueError(f"seat {seat}: {g.name} has seats 0 to {config.players - 1}")
    if others is None or isinstance(others, str | SeatSpec):
        spec = others if others is not None else default_opponent(g)
        others = {s: spec for s in range(config.players) if s != seat}
    env = GameEnv(
        g, config, seed=seed, record=record, text=text, others=others, label=label,
        max_steps=max_steps,
    )  # fmt: skip
    return SingleSeatEnv(env)
