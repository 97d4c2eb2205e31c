"""Code agents of OpenSpiel games: random, MCTS (OpenSpiel's C++ bots) and Tit-for-Tat.

Every agent decides from its seat's view only. MCTS searches a world consistent with what its
seat saw: in open games (perfect information, turns) that is the game itself; otherwise a
history is drawn (from the agent's own seeded generator: chance by its odds, the others' moves
uniformly, the seat's own moves as it made them) and kept only if it shows the seat the same
sequence of strings as its `Observed` events, and MCTS searches that one world (determinized
MCTS; with no such world in 200 draws the seat plays at random). Games of rules 1.0.0 redraw
only the actions their seat was not shown, as those rules did. OpenSpiel's information-set
MCTS is not used: its choices were not reproducible from its seed in our runs. Every
generator derives from the game seed, so a game replays.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import random
import signal
import sys
import threading
from typing import Any

from agents.base import Agent
from engine.openspiel.rules import OpenSpielState, OpenSpielTurn, info_string, load, pyspiel
from events.config import ConfigError
from events.openspiel.game import ChanceSampled, MovePlayed, Observed, OpenSpielConfig

DEFAULT_SIMULATIONS = 1000
"""MCTS simulations per move, as GTBench runs it."""
UCT_C = 2.0
"""MCTS exploration constant."""
WORLD_TRIES = 200
"""Draws tried for a world consistent with what an MCTS seat saw before settling for the last."""
WORLD_STEPS = 5000
"""Most actions a drawn history may hold (a drawn history that runs on is dropped)."""


class RandomAgent(Agent):
    """Plays a uniformly random legal action (its generator derives from seed and seat)."""

    spec = "random"

    def __init__(self, seat: int, seed: int, config: Any) -> None:
        super().__init__(seat, seed, config)
        self.rng = random.Random(f"{seed}:random:{seat}")

    def act(self, view: Any, decision: OpenSpielTurn) -> int:
        legal, _ = decision.options(self.seat)
        return self.rng.choice(legal)


class TitForTat(Agent):
    """The iterated prisoner's dilemma: cooperate first, then repeat the other's last move."""

    spec = "tft"

    def __init__(self, seat: int, seed: int, config: OpenSpielConfig) -> None:
        super().__init__(seat, seed, config)
        if not config.game_string.startswith("python_iterated_prisoners_dilemma"):
            raise ConfigError("tft plays the iterated prisoner's dilemma only")

    def act(self, view: Any, decision: OpenSpielTurn) -> int:
        legal, texts = decision.options(self.seat)
        last = None
        if view.hidden:
            # OpenSpiel's string for a seat of this game is its whole record, e.g.
            # "p0:CD p1:DD": the other's last move is the last letter of its part.
            for part in view.observation.split():
                name, _, moves = part.partition(":")
                if name == f"p{1 - self.seat}" and moves:
                    last = "DEFECT" if moves[-1] == "D" else "COOPERATE"
        for e in reversed(view.history):
            if last is None and isinstance(e, MovePlayed) and e.player != self.seat:
                last = e.text
                break
        want = "DEFECT" if last == "DEFECT" else "COOPERATE"
        return legal[texts.index(want)] if want in texts else legal[0]


class MCTSAgent(Agent):
    """OpenSpiel's MCTS with random rollouts (the C++ `MCTSBot`), seeded per decision from the
    game seed and the seat."""

    spec = "mcts"

    def __init__(
        self, seat: int, seed: int, config: OpenSpielConfig, simulations: int = DEFAULT_SIMULATIONS
    ) -> None:
        super().__init__(seat, seed, config)
        self.simulations = simulations
        self.rng = random.Random(f"{seed}:mcts:{seat}")
        game = load(config.game_string)
        ps = pyspiel()
        if game.get_type().dynamics != ps.GameType.Dynamics.SEQUENTIAL:
            raise ConfigError("mcts plays games with turns only (use tft or random here)")
        if simulations != DEFAULT_SIMULATIONS:
            self.spec = f"mcts?simulations={simulations}"

    def _world(self, view: Any) -> Any:
        """A pyspiel state consistent with what this seat saw (the real one when it saw all)."""
        if view.hidden:
            return self._world_from_observations(view)
        st = view.state()
        if st.perfect:
            return st.state.clone()
        target = info_string(st.state, self.seat)
        seen = {e.ply for e in view.history if isinstance(e, ChanceSampled | MovePlayed)}
        world = None
        for _ in range(WORLD_TRIES):
            drawn = self._draw(view, seen)
            if drawn is None:
                continue
            world = drawn
            if info_string(world, self.seat) == target:
                return world
        # No consistent world found: search the last possible one (None: there was none).
        return world

    def _fresh(self, view: Any) -> Any:
        """A new initial state of the view's game (another `rng_seed` where the game draws its
        hidden values inside the game object, as negotiation does)."""
        assert view.start is not None
        game_string = view.start.game_string
        game = load(game_string)
        params = dict(game.get_parameters())
        if "rng_seed" in params:
            params["rng_seed"] = self.rng.randrange(2**31 - 1)
            game_string = str(pyspiel().load_game(game.get_type().short_name, params))
        return OpenSpielState(game_string, view.start.seed).state

    def _world_from_observations(self, view: Any) -> Any:
        """A drawn history that shows this seat exactly its `Observed` strings and its own
        moves and ends at its turn (None when no draw does: the seat then plays at random)."""
        for _ in range(WORLD_TRIES):
            state = self._replay_observations(view, view.observed)
            if state is not None:
                return state
        return None

    def _replay_observations(self, view: Any, target: list[Observed]) -> Any:
        """Draw one history against `target`: the state at the seat's turn once every target
        event is matched, None if the draw shows the seat anything else."""
        rng, seat = self.rng, self.seat
        state = self._fresh(view)
        shown, k = "", 0

        def seen(text: str, action: int | None) -> bool:
            nonlocal shown, k
            if action is None and text == shown:
                return True
            if k < len(target) and target[k].text == text and target[k].action == action:
                shown, k = text, k + 1
                return True
            return False

        if not seen(info_string(state, seat), None):
            return None
        for _ in range(WORLD_STEPS):
            if state.is_terminal():
                return None
            mine = None
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                u, total, action = rng.random(), 0.0, outcomes[-1][0]
                for a, p in outcomes:
                    total += p
                    if u < total:
                        action = a
                        break
            elif int(state.current_player()) == seat:
                if k == len(target):
                    return state
                action = target[k].action
                if action is None or action not in state.legal_actions():
                    return None
                mine = action
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            if not seen(info_string(state, seat), mine):
                return None
        return None

    def _draw(self, view: Any, seen: set[int]) -> Any:
        """Replay the game, drawing again every action this seat did not see; None when a
        seen action is impossible in the drawn world (a card drawn twice)."""
        assert view.start is not None
        rng = self.rng
        game_string = view.start.game_string
        game = load(game_string)
        params = dict(game.get_parameters())
        if "rng_seed" in params:
            # The game draws its hidden values inside the game object (negotiation): a world
            # of another draw, else the search would know the other side's values.
            params["rng_seed"] = rng.randrange(2**31 - 1)
            game_string = str(pyspiel().load_game(game.get_type().short_name, params))
        state = OpenSpielState(game_string, view.start.seed).state
        for e in view.actions:
            if e.ply in seen:
                action = e.action
                chance = state.is_chance_node()
                possible = (
                    [a for a, _ in state.chance_outcomes()] if chance else state.legal_actions()
                )
                if action not in possible:
                    return None
            elif state.is_chance_node():
                outcomes = state.chance_outcomes()
                u, total, action = rng.random(), 0.0, outcomes[-1][0]
                for a, p in outcomes:
                    total += p
                    if u < total:
                        action = a
                        break
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
        return state

    def act(self, view: Any, decision: OpenSpielTurn) -> int:
        ps = pyspiel()
        world = self._world(view)
        legal, _ = decision.options(self.seat)
        if world is None:
            return self.rng.choice(legal)
        seed = self.rng.randrange(2**31)
        evaluator = ps.RandomRolloutEvaluator(1, seed)
        bot = ps.MCTSBot(
            world.get_game(), evaluator, UCT_C, self.simulations, 1000, False, seed, False
        )
        action = _search(bot, world)
        return action if action in legal else legal[0]


_ABANDONED: list[tuple[threading.Thread, int]] = []
"""Searches a signal interrupted, with the exit status the signal asks for."""


def _search(bot: Any, world: Any) -> int:
    """`bot.step(world)` in a helper thread: OpenSpiel's search lets go of the interpreter
    while it runs, so the main thread, waiting here, still takes SIGTERM and Ctrl-C (a
    search of many simulations would otherwise hold a signal back until the move is made)."""
    done: list[int] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            done.append(int(bot.step(world)))
        except BaseException as exc:  # handed to the caller's thread below
            failed.append(exc)

    helper = threading.Thread(target=run, name="mcts-search", daemon=True)
    helper.start()
    try:
        while helper.is_alive():
            helper.join(0.05)
    except KeyboardInterrupt as exc:  # SIGINT, or the command's SIGTERM / SIGHUP (`signum`)
        _ABANDONED.append((helper, 128 + int(getattr(exc, "signum", signal.SIGINT))))
        raise
    if failed:
        raise failed[0]
    return done[0]


@atexit.register
def _leave_searches() -> None:
    """At exit, after a signal interrupted a search: end the process at once, with the
    signal's status. Finalizing the interpreter under a search OpenSpiel may still be running
    crashes the process (SIGSEGV)."""
    running = [code for _, code in _ABANDONED]
    if running:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        os._exit(running[0])


def parse_options(spec: str) -> dict[str, int]:
    """The options of a code agent spec such as `mcts?simulations=200`; `ValueError` in one
    line for anything else."""
    kind, _, query = spec.partition("?")
    known = {"mcts": ("simulations",)}.get(kind, ())
    out: dict[str, int] = {}
    for item in filter(None, query.split("&")):
        key, eq, value = item.partition("=")
        if key in out:
            raise ValueError(f"option {key!r} is given twice")
        if key not in known:
            names = ", ".join(known) or "none"
            raise ValueError(f"agent {kind!r} has no option {key!r} (options: {names})")
        try:
            n = int(value) if eq else -1
        except ValueError:
            n = -1
        if not 1 <= n <= 1_000_000:
            raise ValueError(f"{key} must be a whole number from 1 to 1000000, got {value!r}")
        out[key] = n
    return out


def configured_agent(spec: str, seat: int, seed: int, config: Any) -> Agent:
    """A code agent from a spec carrying options (`mcts?simulations=200`)."""
    kind = spec.partition("?")[0]
    options = parse_options(spec)
    if kind == "mcts":
        return MCTSAgent(seat, seed, config, **options)
    return CODE_AGENTS[kind](seat, seed, config)


CODE_AGENTS = {
    "random": lambda seat, seed, config: RandomAgent(seat, seed, config),
    "mcts": lambda seat, seed, config: MCTSAgent(seat, seed, config),
    "tft": lambda seat, seed, config: TitForTat(seat, seed, config),
}
"""The code agents of every OpenSpiel game."""
