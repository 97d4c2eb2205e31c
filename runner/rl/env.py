"""A PettingZoo AEC environment over any game of the catalogue, on the game's own rules, seat
views and events: the learner's seats are asked what the driver would ask their agents, and the
game goes on exactly as `cattle play` plays it (same seed, same rules, same log).

Seats the learner does not play (`others`) are played inside the environment by agents built
from specs, as in `cattle play`. In a decision several seats answer together (a sealed bid
round, a simultaneous OpenSpiel node), the environment asks them one after another and applies
their actions together, so no seat sees another's answer first.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from agents import make_agent, parse_spec
from agents.base import Agent
from events import catalog
from events.config import SeatSpec
from events.store import DuckStore, Store, StoreError
from runner.driver import Game
from runner.rl.codec import Codec, check_action, codec_for
from runner.rl.text import ANSWER_CHARS
from runner.session import game_row, new_game_id

LABEL = "rl"
"""The agent spec stored for the learner's seats of a recorded episode (an agent kind with no
code: a replay reads these seats' moves from the log and checks each by the rules)."""


def agent_name(seat: int) -> str:
    """The PettingZoo name of a seat."""
    return f"player_{seat}"


def resolve(game: str | catalog.GameDef | None, preset: Any = None) -> tuple[catalog.GameDef, Any]:
    """The game and configuration `make_env` plays: a name that carries its configuration
    (`openspiel:kuhn_poker`, `gtbench:nim`), else the named preset (a configuration object is
    taken as it is), else the game's default preset."""
    if isinstance(game, catalog.GameDef):
        g, carried = game, None
    else:
        g, carried = catalog.resolve(game)
    if preset is not None and not isinstance(preset, str):
        return g, preset
    if carried is not None:
        if preset is not None:
            raise ValueError(f"{game} names its configuration; leave out the preset")
        return g, carried
    return g, g.preset(preset or g.default_preset)


class _Seat(Agent):
    """Stands in the driver's seat list for a seat the learner plays (never asked)."""

    spec = LABEL


class GameEnv(AECEnv):
    """One game of the catalogue as a PettingZoo AEC environment (build it with `make_env`).

    Observations are dicts: "observation" (the codec's vector; text channel: the prompt as
    UTF-8 bytes) and, for games with fixed action ids, "action_mask". Rewards are the game's
    scores, given when it ends (0 before). Infos hold "seat", "decision" (the kind asked, or
    None) and, on the text channel, "text" (the whole prompt).
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "is_parallelizable": False}  # noqa: RUF012

    def __init__(
        self,
        game: catalog.GameDef,
        config: Any,
        *,
        seed: int | None = None,
        record: str | Path | Store | None = None,
        text: bool = False,
        others: Mapping[int, str | SeatSpec] | None = None,
        label: str | SeatSpec = LABEL,
        max_steps: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        config.validate()
        self.game = game
        self.config = config
        self.codec: Codec = codec_for(game, config, text=text)
        self._reads_view = getattr(self.codec, "reads_view", True)
        self.others = {int(s): _spec(v, game) for s, v in (others or {}).items()}
        if any(not 0 <= s < config.players for s in self.others):
            raise ValueError(f"{game.name} has seats 0 to {config.players - 1}")
        if len(self.others) == config.players:
            raise ValueError("every seat is taken by an agent: leave one to the learner")
        for spec in self.others.values():  # a policy that cannot be loaded fails here
            if spec.agent.startswith("policy:"):
                from runner.rl.policy import load_policy

                load_policy(spec.agent)
        self.label = label if isinstance(label, SeatSpec) else SeatSpec(agent=label)
        self.learners = tuple(s for s in range(config.players) if s not in self.others)
        self.possible_agents = [agent_name(s) for s in self.learners]
        self._names = [agent_name(s) for s in range(config.players)]
        self._seat_of = {agent_name(s): s for s in self.learners}
        self.metadata = {**self.metadata, "name": f"cattle_{game.name}"}
        self.render_mode = render_mode
        self.max_steps = max_steps
        self._first_seed = seed
        self._next_seed: int | None = seed
        self._store: Store | None = None
        self._owns_store = False
        if isinstance(record, Store):
            self._store = record
        elif record is not None:
            try:
                self._store = DuckStore(record)
            except StoreError as exc:
                if "same database file" not in str(exc):
                    raise
                raise StoreError(
                    f"{record} is open in this process already; to record several "
                    "environments into one file, open it once (events.store.DuckStore) and "
                    "pass that store as record= to each"
                ) from exc
            self._owns_store = True
        self.recorded: list[str] = []
        """The ids of the games this environment stored, in order."""
        self._obs_spaces: dict[str, spaces.Space[Any]] = {}
        self._act_spaces: dict[str, spaces.Space[Any]] = {}
        for name in self.possible_agents:
            self._obs_spaces[name] = self._observation_space()
            self._act_spaces[name] = (
                spaces.Discrete(self.codec.n_actions)
                if self.codec.discrete
                else spaces.Text(ANSWER_CHARS)
            )
        self._game: Game | None = None
        self.agents: list[str] = []

    # ---- spaces --------------------------------------------------------------------------------

    def _observation_space(self) -> spaces.Dict:
        if self.codec.discrete:
            return spaces.Dict(
                {
                    "observation": spaces.Box(
                        -np.inf, np.inf, (self.codec.obs_size,), dtype=np.float32
                    ),
                    "action_mask": spaces.Box(0, 1, (self.codec.n_actions,), dtype=np.int8),
                }
            )
        return spaces.Dict(
            {"observation": spaces.Box(0, 255, (self.codec.obs_size,), dtype=np.uint8)}
        )

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_spaces[agent]

    # ---- the game --------------------------------------------------------------------------

    @property
    def game_log(self) -> list[Any]:
        """The events of the episode so far (the log a recorded episode stores)."""
        return self._game.log if self._game is not None else []

    @property
    def seed(self) -> int | None:
        """The game seed of the current episode."""
        return self._game.seed if self._game is not None else None

    def _new_seed(self, seed: int | None) -> int:
        if seed is not None:
            self._next_seed = int(seed) + 1
            return int(seed)
        if self._next_seed is not None:
            chosen = self._next_seed
            self._next_seed += 1
            return chosen
        # No seed given: a fresh one, as `cattle play` draws without --seed.
        return random.SystemRandom().randrange(2**31)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if self._owns_store and self._store is None:
            raise RuntimeError("this environment is closed: its episodes could not be recorded")
        game_seed = self._new_seed(seed)
        config = self.config
        seats = tuple(self.others.get(s, self.label) for s in range(config.players))
        agents: list[Agent] = [
            make_agent(seats[s], s, game_seed, config)
            if s in self.others
            else _Seat(s, game_seed, config)
            for s in range(config.players)
        ]
        self._game = Game(config, game_seed, agents, seats, game=self.game)
        self._game._start()
        self._decision: Any = None
        self._answers: dict[int, Any] = {}
        self._steps = 0
        self._saved = False
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._infos_for: Any = None
        self.agent_selection = self.agents[0]
        self._advance()
        self._refresh_infos()

    def _advance(self) -> None:
        """Play the seats of agents until a learner's seat is asked or the game ends."""
        g = self._game
        assert g is not None
        others = self.others
        names = self._names
        pending = g.rules.pending
        while True:
            if self._decision is None:
                d = pending(g.state)
                if d is None:
                    self._end()
                    return
                g._count()
                self._decision, self._answers = d, {}
                seats = d.seats
                if len(seats) == 1 and seats[0] not in others:  # the usual case: one learner
                    self.agent_selection = names[seats[0]]
                    return
            d = self._decision
            answers = self._answers
            for seat in d.seats:
                if seat in others and seat not in answers:
                    agent = g.agents[seat]
                    view = g._view_for(seat, agent)
                    if agent.is_async:
                        answers[seat] = asyncio.run(agent.aact(view, d))
                    else:
                        answers[seat] = agent.act(view, d)
            waiting = [s for s in d.seats if s not in answers]
            if waiting:
                self.agent_selection = names[waiting[0]]
                return
            for seat in d.seats:
                if seat in others and (extra := g.agents[seat].drain()):
                    g._add(extra)
            g._apply(d, [answers[s] for s in d.seats])
            self._decision = None

    def _end(self) -> None:
        g = self._game
        assert g is not None
        result = g.record().result
        scores = result.scores if result is not None else (0,) * self.config.players
        for name, seat in self._seat_of.items():
            self.rewards[name] = float(scores[seat])
            self.terminations[name] = True
        self.agent_selection = self.agents[0]
        self._save()

    def _save(self) -> None:
        """Store the finished episode as a game (with `record`)."""
        g = self._game
        if self._store is None or g is None or self._saved:
            return
        game_id = new_game_id()
        self._store.save_game(game_row(game_id, self.config, g.seed, g.seats, None), g.log, g.turns)
        self._saved = True
        self.recorded.append(game_id)

    def step(self, action: Any) -> None:
        if self._game is None:
            raise RuntimeError("no episode yet: call reset() before step()")
        if not self.agents:
            raise RuntimeError("the episode is over: call reset() for the next one")
        name = self.agent_selection
        if self.terminations[name] or self.truncations[name]:
            self._was_dead_step(action)
            return
        g = self._game
        assert g is not None and self._decision is not None
        seat = self._seat_of[name]
        codec = self.codec
        if not codec.discrete:
            check_action(codec, action)
        view = g.view(seat) if self._reads_view else None
        # A discrete codec reads the id first and raises for one outside the space, before
        # anything here changes.
        answer = codec.action(view, self._decision, seat, action)
        self._cumulative_rewards[name] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._answers[seat] = answer
        self._steps += 1
        self._advance()
        if (
            self.max_steps is not None
            and self._steps >= self.max_steps
            and not any(self.terminations.values())
        ):
            for a in self.agents:
                self.truncations[a] = True
            self.agent_selection = self.agents[0]
        self._refresh_infos()
        self._accumulate_rewards()

    def _refresh_infos(self) -> None:
        d = self._decision
        asked = d.seats if d is not None else ()
        kind = d.kind if d is not None else None
        text = not self.codec.discrete
        if not text:
            # The infos hold only who is asked for what: unchanged while those are.
            key = (asked, kind)
            if key == self._infos_for:
                return
            self._infos_for = key
        infos = self.infos
        for name, seat in self._seat_of.items():
            if name not in infos:
                continue
            now = kind if seat in asked and not self.terminations[name] else None
            info = infos[name]
            if text or info.get("decision", 0) != now:
                info = {"seat": seat, "decision": now}
                if text:
                    info["text"] = self._text(seat)
                infos[name] = info

    def _text(self, seat: int) -> str:
        g = self._game
        assert g is not None
        text = getattr(self.codec, "text", None)
        view = g.view(seat)
        d = self._decision
        if text is not None:
            return str(text(view, d, seat))
        prompter = self.game.prompter
        if prompter is not None and d is not None and seat in d.seats:
            return prompter.decision_prompt(view, d, "", prompter.rejection(view, seat, d.kind))
        lines = [self.game.describe(e, seat) for e in view.history[-20:]]
        return "\n".join(line for line in lines if line)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        g = self._game
        assert g is not None
        seat = self._seat_of[agent]
        view = g.view(seat) if self._reads_view else None
        d = self._decision
        obs = {"observation": self.codec.observe(view, d, seat, g.state)}
        if self.codec.discrete:
            obs["action_mask"] = self.codec.mask(view, d, seat)
        return obs

    def render(self) -> str | None:
        """The selected seat's text: the prompt of its decision, else its latest lines."""
        if self._game is None or not self.agents:
            return None
        text = self._text(self._seat_of[self.agent_selection])
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        if self._owns_store and self._store is not None:
            self._store.close()
            self._store = None


def _spec(spec: str | SeatSpec, game: catalog.GameDef) -> SeatSpec:
    return spec if isinstance(spec, SeatSpec) else parse_spec(spec, game)
