"""Helpers of the seat-privacy tests: which OpenSpiel games hide anything, histories played
through the real driver with chosen chance outcomes and moves, and, for one seat, another
history that OpenSpiel shows that seat identically (its "swap").

A history is a list of steps: `("chance", action)`, `("move", action)` or
`("joint", actions)` (one action per player at a simultaneous node). What a seat is shown
along a history is its trace: OpenSpiel's string for it each time the string changes, and each
of its own moves with the string after it, which is what rules 2.0.0 record for the seat.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator
from typing import Any
from unittest import mock

import pyspiel

import engine.openspiel.rules as rules_module
from agents.base import Agent
from agents.openspiel.game import GAME
from events.config import SeatSpec
from events.openspiel.game import OpenSpielConfig
from runner.driver import Game

Step = tuple[str, Any]
Trace = list[tuple[str, int | None]]

OVERRIDES: dict[str, str] = {
    "goofspiel": "goofspiel(imp_info=True,num_cards=4,points_order=descending)",
    "liars_dice": "liars_dice(numdice=1,players=2)",
    "liars_dice_ir": "liars_dice_ir(numdice=1,players=2)",
    "first_sealed_auction": "first_sealed_auction(max_value=5,players=2)",
    "blotto": "blotto(coins=4,fields=3,players=2)",
    "dark_hex": "dark_hex(board_size=3)",
    "dark_hex_ir": "dark_hex_ir(board_size=3)",
    "battleship": "battleship(board_width=3,board_height=3,ship_sizes=[2],ship_values=[1],"
    "num_shots=4)",
}
"""Small settings for games whose defaults are large, and the issue's goofspiel."""

EXTRA = ("goofspiel(num_cards=3)",)
"""Further game strings: goofspiel as OpenSpiel types it by default (simultaneous moves,
shown to both after each round)."""

SKIPPED: dict[str, str] = {
    "chat_game": "its moves call a language model",
    "crossword": "its moves are action structs, not action ids",
    "colored_trails": "loading it takes over a second (it builds every board)",
    "bridge": "its end scores run a double-dummy solver (seconds per game)",
}
"""Registered games with hidden information the swap test leaves out, and why."""

MAX_STEPS = 40
"""The longest history the tests draw (the cut is at the seat's decision before it)."""


def hidden_game_strings() -> list[str]:
    """Every registered game with imperfect information or simultaneous moves that loads with
    its default parameters (or the small ones above), as game strings."""
    out = []
    for gt in pyspiel.registered_games():
        hides = gt.information != pyspiel.GameType.Information.PERFECT_INFORMATION
        simultaneous = gt.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
        if not (hides or simultaneous) or gt.short_name in SKIPPED:
            continue
        if gt.short_name.startswith("mfg_"):
            continue
        if gt.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC:
            # Their chance is drawn inside the game object (negotiation's `rng_seed`), not by
            # an action of the history: a history does not fix what a seat is shown.
            continue
        text = OVERRIDES.get(gt.short_name, gt.short_name)
        try:
            game = pyspiel.load_game(text)
            game.new_initial_state().legal_actions()
        except Exception:  # wrappers that need a game parameter, games of action structs
            continue
        out.append(text)
    return sorted([*out, *EXTRA])


def player_string(state: Any, player: int) -> str:
    """OpenSpiel's own string for `player`: information state, else observation, else (a
    perfect-information game without either) the state."""
    kind = state.get_game().get_type()
    if kind.provides_information_state_string:
        return str(state.information_state_string(player))
    if kind.provides_observation_string:
        return str(state.observation_string(player))
    return str(state)


def _draw_chance(rng: random.Random, state: Any) -> int:
    outcomes = state.chance_outcomes()
    u, total = rng.random(), 0.0
    for a, p in outcomes:
        total += p
        if u < total:
            return int(a)
    return int(outcomes[-1][0])


def _apply(state: Any, step: Step) -> None:
    kind, action = step
    if kind == "joint":
        state.apply_actions(list(action))
    else:
        state.apply_action(action)


def _to_move(state: Any, seat: int) -> bool:
    if state.is_terminal() or state.is_chance_node():
        return False
    return bool(state.is_simultaneous_node() or int(state.current_player()) == seat)


def random_history(game: Any, seat: int, rng: random.Random, length: int) -> list[Step] | None:
    """A random history that stops where `seat` is to move, after at least `length` steps
    when the game lasts that long (else at its last decision of `seat`); None if `seat`
    never moves."""
    state = game.new_initial_state()
    steps: list[Step] = []
    cut: list[Step] | None = None
    for _ in range(MAX_STEPS):
        if state.is_terminal():
            break
        if _to_move(state, seat):
            cut = list(steps)
            if len(steps) >= length:
                break
        if state.is_chance_node():
            step: Step = ("chance", _draw_chance(rng, state))
        elif state.is_simultaneous_node():
            joint = tuple(rng.choice(state.legal_actions(p)) for p in range(game.num_players()))
            step = ("joint", joint)
        else:
            step = ("move", rng.choice(state.legal_actions()))
        _apply(state, step)
        steps.append(step)
    return cut


def trace(game: Any, seat: int, steps: list[Step]) -> Trace:
    """What the seat is shown along `steps` (see the module docstring)."""
    state = game.new_initial_state()
    shown = ""
    out: Trace = []
    text = player_string(state, seat)
    if text != shown:
        out.append((text, None))
        shown = text
    for kind, action in steps:
        mine = None
        if kind == "joint":
            mine = action[seat]
        elif kind == "move" and int(state.current_player()) == seat:
            mine = action
        _apply(state, (kind, action))
        text = player_string(state, seat)
        if mine is not None or text != shown:
            out.append((text, mine))
            shown = text
    return out


def swap(
    game: Any, seat: int, steps: list[Step], rng: random.Random, tries: int = 60
) -> list[Step] | None:
    """Another history, different from `steps`, with the same trace for `seat` and ending
    where the seat is to move (None if the draws found none)."""
    target = trace(game, seat, steps)
    for _ in range(tries):
        found = _draw_like(game, seat, target, rng)
        if found is not None and found != steps:
            return found
    return None


CANDIDATES = 48
"""Most alternatives tried at one node of a drawn history."""


def _draw_like(game: Any, seat: int, target: Trace, rng: random.Random) -> list[Step] | None:
    """One history drawn step by step among the actions that keep the seat's trace on
    `target` (chance and the others' moves at random among those), cut at the seat's turn
    once the whole trace is matched; None at a dead end."""
    state = game.new_initial_state()
    steps: list[Step] = []
    shown, k = "", 0

    def fits(text: str, mine: int | None) -> int | None:
        """The trace position after being shown `text` (None: off the target)."""
        if mine is None and text == shown:
            return k
        if k < len(target) and target[k] == (text, mine):
            return k + 1
        return None

    if fits(player_string(state, seat), None) is None:
        return None
    if k < len(target) and target[0] == (player_string(state, seat), None):
        shown, k = target[0][0], 1
    for _ in range(4 * MAX_STEPS):
        if state.is_terminal():
            return None
        mine = None
        options: list[Step]
        if state.is_chance_node():
            outcomes = [a for a, _ in state.chance_outcomes()]
            options = [("chance", a) for a in rng.sample(outcomes, min(CANDIDATES, len(outcomes)))]
        elif state.is_simultaneous_node():
            if k == len(target):
                return steps
            mine = target[k][1]
            if mine is None or mine not in state.legal_actions(seat):
                return None
            options = []
            for _ in range(CANDIDATES // 4):
                joint = [rng.choice(state.legal_actions(p)) for p in range(game.num_players())]
                joint[seat] = mine
                options.append(("joint", tuple(joint)))
        elif int(state.current_player()) == seat:
            if k == len(target):
                return steps
            mine = target[k][1]
            if mine is None or mine not in state.legal_actions():
                return None
            options = [("move", mine)]
        else:
            legal = state.legal_actions()
            options = [("move", a) for a in rng.sample(legal, min(CANDIDATES, len(legal)))]
        for step in options:
            child = state.clone()
            _apply(child, step)
            text = player_string(child, seat)
            at = fits(text, mine)
            if at is not None:
                if at != k:
                    shown, k = text, at
                state = child
                steps.append(step)
                break
        else:
            return None
    return None


# ---------------------------------------------------------------------------- the driver


class _Stop(Exception):
    """The planned history is played out."""


class _Planned(Agent):
    """A seat that plays the planned action of each decision (by the decision's ply)."""

    spec = "random"

    def __init__(self, seat: int, seed: int, config: Any, moves: dict[int, int]) -> None:
        super().__init__(seat, seed, config)
        self.moves = moves

    def act(self, view: Any, decision: Any) -> int:
        ply = decision.ply + (decision.seats.index(self.seat) if decision.simultaneous else 0)
        if ply not in self.moves:
            raise _Stop
        return self.moves[ply]


@contextlib.contextmanager
def _chance_plan(outcomes: dict[int, int]) -> Iterator[None]:
    """The rules draw the planned chance outcome at each planned ply."""
    real = rules_module.draw_outcome

    def planned(seed: int, ply: int, node: Any) -> tuple[int, float]:
        if ply not in outcomes:
            return real(seed, ply, node)
        return outcomes[ply], dict(node)[outcomes[ply]]

    with mock.patch.object(rules_module, "draw_outcome", planned):
        yield


def play(game_string: str, steps: list[Step], seed: int = 11) -> Game:
    """The driver's game after playing `steps` (stopped at the first unplanned decision)."""
    game = pyspiel.load_game(game_string)
    players = game.num_players()
    chance: dict[int, int] = {}
    moves: list[dict[int, int]] = [{} for _ in range(players)]
    state = game.new_initial_state()
    ply = 0
    for kind, action in steps:
        if kind == "chance":
            chance[ply] = action
            ply += 1
        elif kind == "move":
            moves[int(state.current_player())][ply] = action
            ply += 1
        else:
            for p, a in enumerate(action):
                moves[p][ply + p] = a
            ply += players
        _apply(state, (kind, action))
    config = OpenSpielConfig(game_string=game_string, players=players)
    agents = [_Planned(p, seed, config, moves[p]) for p in range(players)]
    seats = [SeatSpec(agent="random") for _ in range(players)]
    driver = Game(config, seed, agents, seats, game=GAME)
    with _chance_plan(chance), contextlib.suppress(_Stop):
        driver.run()
    return driver
