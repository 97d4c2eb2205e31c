"""What a game looks like to a learner: its codec (action ids or text, observations, masks).

A game names the module of its codec in its definition (`extras["rl"]`, a module path whose
`codec(config)` builds it: Cattle Trade's and OpenSpiel's fixed discrete spaces); a game that
names none, or any game asked for text, is played through the text channel of its prompts
(`runner.rl.text`). This module reaches the games only through the catalogue.
"""

from __future__ import annotations

import importlib
from typing import Any, Protocol

import numpy as np

from events.catalog import GameDef
from runner.rl.text import TextCodec


class Codec(Protocol):
    """How one configuration of a game is shown to a learner and read back from it."""

    discrete: bool
    """True: actions are ids 0 .. n_actions-1 with a mask; False: actions are text."""
    n_actions: int
    obs_size: int

    def observe(self, view: Any, decision: Any, seat: int, state: Any = None) -> np.ndarray:
        """The seat's observation from its view (and the decision, when it is asked)."""
        ...

    def mask(self, view: Any, decision: Any, seat: int) -> np.ndarray:
        """1 for every action id the seat may take now."""
        ...

    def action(self, view: Any, decision: Any, seat: int, choice: Any) -> Any:
        """The game's action for an action id (or answer text). A discrete codec raises for
        a value that is not an id of its space (`action_id`) before anything else."""
        ...


def action_id(choice: Any, n_actions: int) -> int:
    """`choice` as an action id of a space of `n_actions` ids: a Python or NumPy integer (a
    NumPy array of one integer too) from 0 to n_actions-1. Anything else (a float, a bool, a
    string, None, an id out of range) is a mistake of the caller and raises, before the game
    is touched."""
    if isinstance(choice, np.ndarray) and choice.shape == ():
        choice = choice[()]
    if isinstance(choice, bool | np.bool_) or not isinstance(choice, int | np.integer):
        raise TypeError(f"an action is an integer id, not {type(choice).__name__} {choice!r}")
    if not 0 <= choice < n_actions:
        raise ValueError(f"action id {choice} is not in 0..{n_actions - 1}")
    return int(choice)


def check_action(codec: Codec, choice: Any) -> None:
    """Raise unless `choice` is an action of `codec`'s space: an id (`action_id`), or on the
    text channel a string."""
    if codec.discrete:
        action_id(choice, codec.n_actions)
    elif not isinstance(choice, str):
        raise TypeError(f"an action here is answer text, not {type(choice).__name__} {choice!r}")


def codec_for(game: GameDef, config: Any, *, text: bool = False) -> Codec:
    """The codec of `game` for `config` (its text channel with `text`, or when it has no
    discrete one)."""
    module = game.extras.get("rl")
    if text or module is None:
        return TextCodec(game, config)
    made: Codec = importlib.import_module(str(module)).codec(config)
    return made
