"""Golden playthroughs: actions in; every event and every seat's observation out.

A playthrough file holds the game's set-up, the actions each seat took (in the order it
was asked), the full event stream, and each seat's observation at the start of every turn.
The test feeds the actions back through the engine and requires identical output.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from agents import make_agents
from agents.base import Agent
from engine.cattle import decisions as dec
from engine.cattle.actions import AnyAction, action_from_json, action_json
from engine.cattle.presets import load_preset
from events import encode, to_builtins
from events.cattle import game as ev
from events.cattle.domain import GameConfig
from events.config import SeatSpec
from projections.cattle.observation import SeatView
from runner.driver import Game

GOLDEN_DIR = Path(__file__).parent / "data"
PRESETS = ("micro-duel", "standard", "marathon")
MODES = ("canonical", "fast", "legacy")
SEED = 20261122


class Recording(Agent):
    """Wraps an agent and keeps every action it returns."""

    def __init__(self, inner: Agent) -> None:
        super().__init__(inner.seat, inner.seed, inner.config)
        self.inner = inner
        self.actions: list[AnyAction] = []

    def act(self, view: SeatView, decision: dec.AnyDecision) -> AnyAction:
        action = self.inner.act(view, decision)
        self.actions.append(action)
        return action


class Scripted(Agent):
    """Plays back a fixed list of actions."""

    def __init__(
        self, seat: int, seed: int, config: GameConfig, actions: Sequence[AnyAction]
    ) -> None:
        super().__init__(seat, seed, config)
        self.actions = list(actions)
        self.next = 0

    def act(self, view: SeatView, decision: dec.AnyDecision) -> AnyAction:
        action = self.actions[self.next]
        self.next += 1
        return action


def observations(events: Sequence[Any], players: int) -> list[dict[str, Any]]:
    """Every seat's observation right after each turn starts (and at the end)."""
    views = [SeatView(seat, recent=0) for seat in range(players)]
    out = []
    for seq, e in enumerate(events):
        aud = e.audience()
        for v in views:
            if aud is None or v.seat in aud:
                v.apply(e)
        if isinstance(e, ev.TurnStarted | ev.GameEnded):
            for v in views:
                snap = to_builtins(v.snapshot())
                snap.pop("recent")
                out.append({"seq": seq, **snap})
    return out


def config_for(preset: str, mode: str) -> GameConfig:
    """The configuration of a golden game."""
    return load_preset(preset, auction_mode=mode)


def play(config: GameConfig, seed: int, actions: Sequence[Sequence[AnyAction]]) -> list[Any]:
    """Feed recorded actions to the engine; return the events."""
    seats = tuple(SeatSpec(agent="scripted") for _ in range(config.players))
    agents = [Scripted(i, seed, config, actions[i]) for i in range(config.players)]
    return Game(config, seed, agents, seats).run().events


def render(preset: str, mode: str) -> str:
    """A fresh golden file for (preset, mode), played by random agents."""
    config = config_for(preset, mode)
    agents = [Recording(a) for a in make_agents(["random"] * config.players, SEED, config)]
    seats = tuple(SeatSpec(agent="scripted") for _ in range(config.players))
    events = Game(config, SEED, agents, seats).run().events
    doc = {
        "preset": preset,
        "mode": mode,
        "seed": SEED,
        "actions": [[action_json(a) for a in agent.actions] for agent in agents],
        "events": [encode(e).decode() for e in events],
        "observations": [
            json.dumps(o, sort_keys=True) for o in observations(events, config.players)
        ],
    }
    return dump(doc)


def dump(doc: dict[str, Any]) -> str:
    """JSON with one event / action list / observation per line, for readable diffs."""
    lines = ["{"]
    lines.append(
        f'"preset": {json.dumps(doc["preset"])}, "mode": {json.dumps(doc["mode"])}, "seed": {doc["seed"]},'
    )
    lines.append('"actions": [')
    acts = doc["actions"]
    for i, seat_actions in enumerate(acts):
        lines.append("  " + json.dumps(seat_actions) + ("," if i < len(acts) - 1 else ""))
    lines.append("],")
    for key in ("events", "observations"):
        lines.append(f'"{key}": [')
        items = doc[key]
        for i, item in enumerate(items):
            lines.append("  " + json.dumps(item) + ("," if i < len(items) - 1 else ""))
        lines.append("]," if key == "events" else "]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def load(path: Path) -> dict[str, Any]:
    """Read a golden file."""
    return msgspec.json.decode(path.read_bytes())


def path_for(preset: str, mode: str) -> Path:
    """Where the golden file of (preset, mode) lives."""
    return GOLDEN_DIR / f"{preset}-{mode}.json"


def actions_of(doc: dict[str, Any]) -> list[list[AnyAction]]:
    """The recorded actions of a golden file, per seat."""
    return [[action_from_json(a) for a in seat] for seat in doc["actions"]]
