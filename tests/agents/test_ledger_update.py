"""The ledger's incremental update (new events filtered in one pass, then applied) leaves it
exactly as applying every event its seat saw, one by one from the start, does."""

from __future__ import annotations

from typing import Any

import pytest

from agents import make_agents
from agents.cattle.code import CodeAgent
from agents.cattle.ledger import Ledger
from engine.cattle.presets import load_preset
from events.config import SeatSpec
from runner.driver import Game


def _plain(seat: int, view: Any) -> Ledger:
    """A ledger by the definition: `_apply` on every event of the seat's history in turn."""
    ledger = Ledger(seat)
    for e in view.history:
        ledger._apply(e)
    ledger.read = len(view.history)
    if ledger.money:
        ledger.money[seat] = sum(view.money)
    return ledger


@pytest.mark.parametrize(
    ("preset", "mode", "seats"),
    [
        ("standard", "canonical", ["tracker", "setrace", "economy", "random"]),
        ("standard", "legacy", ["economy", "tracker", "random", "setrace"]),
        ("micro-duel", "fast", ["setrace", "tracker"]),
    ],
)
def test_the_ledger_equals_one_built_from_every_event(
    preset: str, mode: str, seats: list[str]
) -> None:
    config = load_preset(preset, auction_mode=mode)
    checked = 0
    for seed in range(2):
        agents = make_agents(seats, seed, config)
        for agent in agents:
            if not isinstance(agent, CodeAgent):
                continue
            inner = agent.act

            def act(view: Any, decision: Any, agent: CodeAgent = agent, inner: Any = inner) -> Any:
                nonlocal checked
                action = inner(view, decision)
                if agent.ledger.read % 5 == 0:  # a sample of the decisions
                    assert vars(agent.ledger) == vars(_plain(agent.seat, view))
                    checked += 1
                return action

            agent.act = act  # type: ignore[method-assign]
        game = Game(config, seed, agents, tuple(SeatSpec(agent=s) for s in seats))
        game.run()
        for agent in agents:
            if isinstance(agent, CodeAgent):
                agent.ledger.update(game.view(agent.seat))
                assert vars(agent.ledger) == vars(_plain(agent.seat, game.view(agent.seat)))
    assert checked > 3
