"""The games as a `verifiers` environment (verifiers 0.4, its `verifiers.v1` API): a taskset of
seeded games and an environment whose one trainable agent, `player`, plays the learner seat
through the text mode (runner.rl.chat); the reward is the game's score.

Needs the `verifiers` package (not part of the project's lock: verifiers 0.4.0 requires
openai below 3); install it beside the project with `pip install 'verifiers>=0.4,<0.5'`.
"""

from __future__ import annotations

import itertools
import sys
import types
from collections.abc import Iterator
from typing import Any

import verifiers.v1 as vf

from agents import parse_spec
from agents.llm.spec import resolve as resolve_options
from events.store import DuckStore
from runner.rl.chat import ChatSession
from runner.rl.env import resolve
from runner.session import game_row, new_game_id


class GameTasksetConfig(vf.TasksetConfig):
    game: str = "cattle-trade"
    """The game, named as `cattle play --game` names it."""
    preset: str | None = None
    others: str = "random"
    """The agent spec of every other seat."""
    label: str = "openai:rl?memory=recent"
    """The model spec stored for the player's seat (its options decide the prompts)."""
    first_seed: int = 0
    record: str | None = None
    """A DuckDB store path: every rollout is stored there as a game (its id in the trace's
    info under "game_id")."""


class GameTaskData(vf.TaskData):
    info: dict[str, Any]


class GameTask(vf.Task[GameTaskData, vf.State, vf.TaskConfig]):
    pass


class GameTaskset(vf.Taskset[GameTask, GameTasksetConfig]):
    INFINITE = True

    def load(self) -> Iterator[GameTask]:
        c = self.config
        g, config = resolve(c.game, c.preset)
        options = resolve_options(parse_spec(c.label, g))
        assert g.prompter is not None
        system = g.prompter.system_prompt(config, options.character, 0)
        for seed in itertools.count(c.first_seed):
            yield GameTask(
                GameTaskData(
                    name=f"{c.game}#{seed}",
                    prompt=None,
                    system_prompt=system,
                    info={"game": c.game, "preset": c.preset, "seed": seed},
                ),
                c.task,
            )


class GameEnvConfig(vf.EnvConfig):
    player: vf.AgentConfig = vf.AgentConfig(harness={"id": "null"}, runtime={"type": "subprocess"})


class GameEnv(vf.Env[GameEnvConfig]):
    async def run(self, task: Any, agents: Any) -> None:
        info = task.data.info
        tc = self.taskset.config
        g, config = resolve(info["game"], info["preset"])
        others = {s: parse_spec(tc.others, g) for s in range(1, config.players)}
        session = ChatSession(g, config, int(info["seed"]), others, parse_spec(tc.label, g))
        async with agents.player.interaction(task) as interaction:
            try:
                while asks := await session.wait():
                    for seat in sorted(asks):
                        ask = asks[seat]
                        segment = await interaction.turn(ask.messages[-1]["content"])
                        if segment.terminated:
                            return
                        session.answer(seat, segment.last_reply)
            finally:
                await session.cancel()
        scores = session.scores
        trace = interaction.trace
        if tc.record is not None:
            d = session.driver
            game_id = new_game_id()
            with DuckStore(tc.record) as store:
                store.save_game(game_row(game_id, config, d.seed, d.seats, None), d.log, d.turns)
            trace.info["game_id"] = game_id
        trace.record_reward("game_score", scores[0] if scores else 0.0, 1.0)


FAMILIES = {
    "cattle": "cattle-trade",
    "pact": "pact",
    "openspiel": "openspiel:kuhn_poker",
    "textarena": "textarena",
    "gamebench": "gamebench:pit",
}
"""Family -> the game its environment plays unless the taskset config names another."""


def taskset_id(family: str) -> str:
    """The verifiers taskset id of a family's environment (`--env.taskset.id`)."""
    return f"cattle_trade_{family}"


def _register() -> None:
    """One importable module per family under its taskset id (verifiers finds a taskset,
    and the environment beside it, by importing a top-level module named by the id)."""
    for family, game in FAMILIES.items():
        name = taskset_id(family)
        if name in sys.modules:
            continue
        config = type(
            f"{family.title()}TasksetConfig",
            (GameTasksetConfig,),
            {"__annotations__": {"game": str}, "game": game},
        )
        taskset = type(f"{family.title()}Taskset", (GameTaskset,), {})
        taskset.__orig_bases__ = (vf.Taskset[GameTask, config],)  # type: ignore[attr-defined]
        module = types.ModuleType(name, f"The {family} games as a verifiers environment.")
        setattr(module, taskset.__name__, taskset)
        setattr(module, config.__name__, config)
        module.GameEnv = GameEnv  # type: ignore[attr-defined]
        module.__all__ = [taskset.__name__, "GameEnv"]  # type: ignore[attr-defined]
        sys.modules[name] = module


_register()

__all__ = ["FAMILIES", "GameEnv", "GameEnvConfig", "GameTaskset", "taskset_id"]
