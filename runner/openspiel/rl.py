"""OpenSpiel games as numbers for learning: OpenSpiel's own action ids with a mask of the legal
ones, and what OpenSpiel shows the player as numbers (its information-state tensor, else its
observation tensor) as the observation (`runner.rl` builds the environments on top)."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.openspiel.rules import OpenSpielState, OpenSpielTurn, load, seat_tensor
from events.openspiel.game import OpenSpielConfig
from projections.openspiel.view import OpenSpielView


class OpenSpielCodec:
    """Action ids and observation vectors of one OpenSpiel game string."""

    discrete = True

    def __init__(self, config: OpenSpielConfig) -> None:
        self.config = config
        game = load(config.game_string)
        self.n_actions = int(game.num_distinct_actions())
        kind = game.get_type()
        if kind.provides_information_state_tensor:
            self.obs_size = int(game.information_state_tensor_size())
        elif kind.provides_observation_tensor:
            self.obs_size = int(game.observation_tensor_size())
        else:
            self.obs_size = 1  # nothing to show as numbers: a constant

    def mask(self, view: OpenSpielView, decision: OpenSpielTurn | None, seat: int) -> np.ndarray:
        """1 for every legal action id of the seat (all 0 when it is not asked)."""
        m = np.zeros(self.n_actions, dtype=np.int8)
        if decision is not None and seat in decision.seats:
            legal, _ = decision.options(seat)
            m[list(legal)] = 1
        return m

    def action(self, view: OpenSpielView, decision: OpenSpielTurn, seat: int, choice: Any) -> int:
        """The action id itself (the rules record an illegal one and play their fallback)."""
        return int(choice)

    def observe(
        self, view: OpenSpielView, decision: OpenSpielTurn | None, seat: int, state: Any = None
    ) -> np.ndarray:
        """OpenSpiel's tensor for this player: from the decision it is asked (a `policy:`
        seat), else from the game's state (an environment, asked between turns too)."""
        values: list[float] = []
        if decision is not None and seat in decision.seats:
            values = decision.tensor(seat)
        elif isinstance(state, OpenSpielState):
            values = seat_tensor(state.state, seat)
        out = np.zeros(self.obs_size, dtype=np.float32)
        if values:
            out[: len(values)] = values
        return out


def codec(config: OpenSpielConfig) -> OpenSpielCodec:
    """The codec `runner.rl` asks this game for."""
    return OpenSpielCodec(config)
