"""Hive's definition for the catalogue, and its code agents.

* `random`: a uniformly random legal action.
* `stinger`: surrounds the opponent's queen and keeps its own free. It plays a winning
  action when it has one, never one that surrounds its own queen, and otherwise scores each
  action by the board after it: 3 per occupied neighbour of the opponent's queen, -2 per
  occupied neighbour of its own, +1 for each of its ants and grasshoppers next to the
  opponent's queen (they pin it), and places its queen on its second turn. Ties are broken by
  its seeded generator.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from agents.base import Agent
from agents.gamebench.common import GameBenchRandom, RandomAgent
from engine.gamebench.hive import (
    RULES,
    HiveState,
    HiveTurn,
    Move,
    Pass,
    Pick,
    Place,
    legal_actions,
    neighbours,
    picked,
    picks,
    state_data,
)
from events.catalog import GameDef
from events.gamebench.hive import HIVE_EVENT_TYPES, NAME, HiveConfig
from projections.gamebench.common import END_REASONS
from projections.gamebench.hive import SQL, HivePrompter, HiveView, describe, frames

Cell = tuple[int, int]


def _queen(board: dict[Cell, tuple[int, str]], seat: int) -> Cell | None:
    for c, sp in board.items():
        if sp == (seat, "Q"):
            return c
    return None


def _pressure(board: dict[Cell, tuple[int, str]], queen: Cell | None) -> int:
    return 0 if queen is None else sum(n in board for n in neighbours(queen))


class Stinger(Agent):
    """A greedy one-ply player (see the module docstring)."""

    spec = "stinger"

    def __init__(self, seat: int, seed: int, config: Any) -> None:
        super().__init__(seat, seed, config)
        self.rng = random.Random(f"{seed}:gamebench:stinger:{seat}")

    def act(self, view: HiveView, decision: HiveTurn) -> Any:
        if decision.step != 1 or decision.legal == (Pass(),):
            return self.best(view, decision.ply, decision.legal)
        # The first of two steps: the piece of the best whole action.
        st = HiveState(self.config, 0)
        st.board = dict(view.board)
        st.ply = decision.ply
        a = self.best(view, decision.ply, legal_actions(st))
        if isinstance(a, Place):
            return Pick(kind="place", piece=a.bug)
        return Pick(kind="move", piece=a.piece)

    def best(self, view: HiveView, ply: int, legal: Any) -> Any:
        """The best of some whole actions (see the module docstring)."""
        me, them = self.seat, 1 - self.seat
        if ply // 2 == 1:
            queens = [a for a in legal if isinstance(a, Place) and a.bug == "Q"]
            if queens:
                return self.rng.choice(queens)
        best: Any = None
        best_score = -1e9
        for a in legal:
            board = dict(view.board)
            if isinstance(a, Place):
                board[(a.q, a.r)] = (me, a.bug)
            elif isinstance(a, Move):
                frm = next(c for c, sp in board.items() if sp == (me, a.piece))
                board[(a.q, a.r)] = board.pop(frm)
            mine, theirs = _queen(board, me), _queen(board, them)
            hit, hurt = _pressure(board, theirs), _pressure(board, mine)
            if hurt == 6:
                score = -1e6
            elif hit == 6:
                return a
            else:
                score = 3.0 * hit - 2.0 * hurt
                if theirs is not None:
                    score += sum(
                        1
                        for n in neighbours(theirs)
                        if board.get(n, (them, ""))[0] == me and board[n][1][0] in "AG"
                    )
            score += self.rng.random()
            if score > best_score:
                best, best_score = a, score
        return best


class HiveGameBenchRandom(GameBenchRandom):
    """GameBench's own random agent at Hive: its turn is two menus (a bug to place or a piece
    to move, then its cell), each drawn from uniformly. A two-step turn here asks the same two
    questions; a one-step turn (the flat list of rules 1.0.0) is drawn the same way, the piece
    first, so that the draw is GameBench's in every preset."""

    label = "gamebench:hive:gamebench-random"

    def act(self, view: Any, decision: Any) -> Any:
        assert isinstance(decision, HiveTurn)
        if decision.step != 0:
            return self.rng.choice(decision.legal)
        flat = [a for a in decision.legal if not isinstance(a, Pick)]
        first = picks(flat)
        pick = self.rng.choice(first)
        if isinstance(pick, Pass):
            return pick
        return self.rng.choice(picked(flat, pick))


CODE_AGENTS: dict[str, Any] = {
    "random": lambda seat, seed, config: RandomAgent(seat, seed, config),
    "gamebench-random": lambda seat, seed, config: HiveGameBenchRandom(seat, seed, config),
    "stinger": lambda seat, seed, config: Stinger(seat, seed, config),
    # GameBench's suite names every game's own heuristic alike (docs/gamebench.md).
    "heuristic": lambda seat, seed, config: Stinger(seat, seed, config),
}


def presets() -> Mapping[str, HiveConfig]:
    """GameBench's game as its code played it; `rules`, its Appendix K's reading (250 turns
    in all, pieces sliding as standard Hive's gates allow); `one_step`, one list of every action a turn; a short one for tests."""
    return {
        "standard": HiveConfig(),
        "rules": HiveConfig(max_plies=250, movement="gates", name="rules"),
        "one_step": HiveConfig(steps="one", name="one_step"),
        "short": HiveConfig(max_plies=40, name="short"),
    }


GAME = GameDef(
    name=NAME,
    title="Hive (GameBench)",
    summary=(
        "Hex-grid bug game without beetles: place or move a queen, spiders, grasshoppers "
        "and ants in one connected hive; surrounding the opponent's queen wins."
    ),
    event_types=HIVE_EVENT_TYPES,
    config_type=HiveConfig,
    rules=RULES,
    presets=presets,
    default_preset="standard",
    new_view=HiveView,
    describe=describe,
    sql=(SQL,),
    code_agents=CODE_AGENTS,
    prompter=HivePrompter(),
    extras={
        "end_reasons": END_REASONS[NAME],
        "match_scores": True,
        "state_data": state_data,
        "frames": frames,
        "drawing": "cli.gamebench.draw",
    },
)
"""Hive, as the catalogue knows it."""
