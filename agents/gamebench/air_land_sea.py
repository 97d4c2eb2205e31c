"""Air, Land and Sea's definition for the catalogue, and its code agents.

* `random`: a uniformly random legal action (GameBench's baseline), withdrawals included.
* `commander`: looks one action ahead on the board it can see. It scores each legal action
  by the theatres it would control afterwards (10 each) plus its strength margins (capped at
  +-6 per theatre, a tenth each), counting an unknown face-down card flipped face up as 3;
  ties go to deploying face up, then to the stronger card, then to its seeded generator.
  On its turn it withdraws when its best play leaves it holding at most one theatre while
  the opponent leads by more than its hand's total strength (a battle it cannot turn), so
  that it concedes few points rather than six. Abilities that may be declined are used only
  when they improve the score.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from agents.base import Agent
from agents.gamebench.common import GameBenchRandom, RandomAgent
from engine.gamebench.air_land_sea import (
    RULES,
    AlsDecision,
    Deploy,
    Flip,
    Improvise,
    Move,
    Reinforce,
    Return,
    Skip,
    Withdraw,
    control,
    state_data,
)
from events.catalog import GameDef
from events.gamebench.air_land_sea import (
    ALS_EVENT_TYPES,
    CARDS,
    GAMEBENCH_INERT,
    NAME,
    AlsConfig,
)
from projections.gamebench.air_land_sea import SQL, AlsPrompter, AlsView, describe, frames
from projections.gamebench.common import END_REASONS

Lanes = dict[str, list[list[tuple[str, bool]]]]

UNKNOWN_UP = "L3"
"""What an unknown face-down card flipped face up is reckoned as (strength 3, the mean)."""


def after(view: AlsView, seat: int, action: Any) -> Lanes:
    """The board the seat expects after `action` (abilities it would set off aside)."""
    lanes = {t: [list(side) for side in view.lanes[t]] for t in view.lanes}
    if isinstance(action, Deploy):
        lanes[action.theatre][seat].append((action.card, True))
    elif isinstance(action, Improvise):
        lanes[action.theatre][seat].append((action.card, False))
    elif isinstance(action, Reinforce):
        lanes[action.theatre][seat].append((view.drawn.get(seat, ""), False))
    elif isinstance(action, Flip):
        stack = lanes[action.theatre][action.owner]
        card, up = stack[-1]
        stack[-1] = (card or UNKNOWN_UP, not up)
    elif isinstance(action, Move):
        moved = lanes[action.theatre][seat].pop(action.index)
        lanes[action.to][seat].append(moved)
    elif isinstance(action, Return):
        lanes[action.theatre][seat].pop(action.index)
    return lanes


def score(view: AlsView, seat: int, lanes: Lanes) -> float:
    """10 per theatre the seat would control, plus a tenth of each capped margin."""
    strength = view.strengths(lanes)
    held = control(strength, view.first)
    total = 0.0
    for (a, b), owner in zip(strength, held, strict=True):
        mine, theirs = (a, b) if seat == 0 else (b, a)
        total += 10 * (owner == seat) + max(-6, min(6, mine - theirs)) / 10
    return total


class Commander(Agent):
    """One action ahead on the visible board (see the module docstring)."""

    spec = "commander"

    def __init__(self, seat: int, seed: int, config: Any) -> None:
        super().__init__(seat, seed, config)
        self.rng = random.Random(f"{seed}:{NAME}:commander:{seat}")

    def act(self, view: AlsView, decision: AlsDecision) -> Any:
        seat = self.seat
        best: Any = None
        best_key: tuple[float, ...] | None = None
        for action in decision.legal:
            if isinstance(action, Withdraw):
                continue
            value = score(view, seat, after(view, seat, action))
            card = getattr(action, "card", None)
            key = (
                round(value, 3),
                1.0 if isinstance(action, Deploy) else 0.0,
                float(CARDS[card].strength) if card else 0.0,
                self.rng.random(),
            )
            if best_key is None or key > best_key:
                best, best_key = action, key
        skip = Skip() in decision.legal
        if skip and (
            best is None
            or score(view, seat, after(view, seat, best))
            <= score(view, seat, after(view, seat, Skip()))
        ):
            return Skip()
        if decision.kind == "turn" and best is not None and self._hopeless(view, best):
            return Withdraw()
        return best if best is not None else decision.legal[0]

    def _hopeless(self, view: AlsView, best: Any) -> bool:
        seat = self.seat
        strength = view.strengths(after(view, seat, best))
        held = control(strength, view.first)
        if sum(1 for s in held if s == seat) >= 2:
            return False
        deficit = sum(max(0, (b - a) if seat == 0 else (a - b)) for (a, b) in strength)
        hand = view.hand()
        if isinstance(best, Deploy | Improvise) and best.card in hand:
            hand.remove(best.card)
        reserve = sum(CARDS[c].strength for c in hand)
        return deficit > reserve + 2


CODE_AGENTS: dict[str, Any] = {
    "random": lambda seat, seed, config: RandomAgent(seat, seed, config),
    # One of the listed actions, whichever rules list them (docs/gamebench.md).
    "gamebench-random": lambda seat, seed, config: GameBenchRandom(seat, seed, config),
    "commander": lambda seat, seed, config: Commander(seat, seed, config),
    "heuristic": lambda seat, seed, config: Commander(seat, seed, config),
}


def presets() -> Mapping[str, AlsConfig]:
    """GameBench's match as its program at 1b8b24e played it (the default); the cards as
    written, scored 1 / 0 (rules 1.0.0's match); rules 1.0.0's copy of GameBench's unfinished
    program of March 2024 (six abilities inert); a short match for tests."""
    return {
        "standard": AlsConfig(),
        "cards": AlsConfig(rules="cards", score="win", name="cards"),
        "gamebench_wip": AlsConfig(
            inert=GAMEBENCH_INERT, rules="cards", score="win", name="gamebench_wip"
        ),
        "quick": AlsConfig(target=6, max_battles=2, name="quick"),
    }


GAME = GameDef(
    name=NAME,
    title="Air, Land and Sea (GameBench)",
    summary=(
        "Two-player war card game over three theatres: deploy cards face up or face down, "
        "control more theatres or make the opponent withdraw; first to 12 points wins."
    ),
    event_types=ALS_EVENT_TYPES,
    config_type=AlsConfig,
    rules=RULES,
    presets=presets,
    default_preset="standard",
    new_view=AlsView,
    describe=describe,
    sql=(SQL,),
    code_agents=CODE_AGENTS,
    prompter=AlsPrompter(),
    extras={
        "end_reasons": END_REASONS[NAME],
        "match_scores": True,
        "state_data": state_data,
        "frames": frames,
        "drawing": "cli.gamebench.draw",
    },
)
"""Air, Land and Sea, as the catalogue knows it."""
