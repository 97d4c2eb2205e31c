"""OpenSpiel games as numbers for learning: OpenSpiel's own action ids with a mask of the legal
ones, and what OpenSpiel shows the player as numbers (its information-state tensor, else its
observation tensor) as the observation (`runner.rl` builds the environments on top)."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.openspiel.rules import OpenSpielState, OpenSpielTurn, load
from events.openspiel.game import OpenSpielConfig
from projections.openspiel.view import OpenSpielView
from runner.rl.codec import action_id


class OpenSpielCodec:
    """Action ids and observation vectors of one OpenSpiel game string."""

    discrete = True
    reads_view = False
    """The seat's view is not read: OpenSpiel's tensors hold what the player knows."""

    def __init__(self, config: OpenSpielConfig) -> None:
        self.config = config
        game = load(config.game_string)
        self.n_actions = int(game.num_distinct_actions())
        self._masks: dict[tuple[int, ...], np.ndarray] = {}
        """Masks by legal set (the same sets come back move after move); copies are handed out."""
        kind = game.get_type()
        self._info = bool(kind.provides_information_state_tensor)
        self._obs = bool(kind.provides_observation_tensor)
        if kind.provides_information_state_tensor:
            self.obs_size = int(game.information_state_tensor_size())
        elif kind.provides_observation_tensor:
            self.obs_size = int(game.observation_tensor_size())
        else:
            self.obs_size = 1  # nothing to show as numbers: a constant

    def mask(
        self, view: OpenSpielView | None, decision: OpenSpielTurn | None, seat: int
    ) -> np.ndarray:
        """1 for every legal action id of the seat (all 0 when it is not asked)."""
        if decision is None or seat not in decision.seats:
            return np.zeros(self.n_actions, dtype=np.int8)
        legal = decision.legal[decision.seats.index(seat)]
        kept = self._masks.get(legal)
        if kept is None:
            kept = np.zeros(self.n_actions, dtype=np.int8)
            kept[list(legal)] = 1
            if len(self._masks) >= 4096:  # a game of many legal sets: keep the latest only
                self._masks.clear()
            self._masks[legal] = kept
        return kept.copy()

    def action(
        self, view: OpenSpielView | None, decision: OpenSpielTurn, seat: int, choice: Any
    ) -> int:
        """The action id itself (the rules record an illegal one and play their fallback); a
        value that is not an id of the space raises."""
        return action_id(choice, self.n_actions)

    def observe(
        self,
        view: OpenSpielView | None,
        decision: OpenSpielTurn | None,
        seat: int,
        state: Any = None,
    ) -> np.ndarray:
        """OpenSpiel's tensor for this player: from the decision it is asked (a `policy:`
        seat), else from the game's state (an environment, asked between turns too)."""
        if decision is not None and seat in decision.seats and decision.position is not None:
            position = decision.position.state
        elif isinstance(state, OpenSpielState):
            position = state.state
        else:
            return np.zeros(self.obs_size, dtype=np.float32)
        if self._info:
            return np.asarray(position.information_state_tensor(seat), dtype=np.float32)
        if self._obs:
            return np.asarray(position.observation_tensor(seat), dtype=np.float32)
        return np.zeros(self.obs_size, dtype=np.float32)


def codec(config: OpenSpielConfig) -> OpenSpielCodec:
    """The codec `runner.rl` asks this game for."""
    return OpenSpielCodec(config)
