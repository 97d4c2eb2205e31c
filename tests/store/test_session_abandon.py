"""A game with an I/O agent that fails keeps every event played so far, marked abandoned with
its error."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents import register
from agents.base import Agent
from agents.cattle.random_agent import RandomAgent
from engine.cattle import decisions as dec
from engine.cattle.actions import AnyAction
from engine.cattle.presets import load_preset
from engine.cattle.state import fold
from events.cattle import game as ev
from events.cattle.domain import GameConfig
from events.store import DuckStore
from projections.cattle.observation import SeatView
from runner.session import play_and_store


class Boom(RuntimeError):
    """The failure the test agent raises."""


class FailingAgent(Agent):
    """Plays like the random agent, asynchronously, then fails at its 40th decision."""

    spec = "failing"
    is_async = True

    def __init__(self, seat: int, seed: int, config: GameConfig) -> None:
        super().__init__(seat, seed, config)
        self.inner = RandomAgent(seat, seed, config)
        self.calls = 0

    async def aact(self, view: SeatView, decision: dec.AnyDecision) -> AnyAction:
        self.calls += 1
        if self.calls == 40:
            raise Boom("the model went away")
        return self.inner.act(view, decision)


register("failing", lambda spec, seat, seed, config: FailingAgent(seat, seed, config))


def test_a_failed_game_keeps_its_events_and_is_marked_abandoned(tmp_path: Path) -> None:
    config = load_preset("standard")
    with DuckStore(tmp_path / "g.duckdb") as store:
        with pytest.raises(Boom):
            play_and_store(
                store, config, 3, ["failing", "random", "random", "random"], game_id="g1"
            )
        row = store.get_game("g1")
        events = store.load_events("g1")
    assert row.status == "abandoned"
    assert row.end_reason == "error: Boom: the model went away"
    assert len(events) > 20
    assert not any(isinstance(e, ev.GameEnded) for e in events)
    # The stored events are a consistent prefix: they fold without error and replay the turns.
    state = fold(events)
    assert state.turn >= 1


class FailingCodeAgent(Agent):
    """A code agent that plays like the random agent, then fails at its 40th decision in the
    games whose seed is a multiple of 3."""

    spec = "failing-code"

    def __init__(self, seat: int, seed: int, config: GameConfig) -> None:
        super().__init__(seat, seed, config)
        self.inner = RandomAgent(seat, seed, config)
        self.calls = 0

    def act(self, view: SeatView, decision: dec.AnyDecision) -> AnyAction:
        self.calls += 1
        if self.calls == 40 and self.seed % 3 == 0:
            raise Boom("a fault in one game")
        return self.inner.act(view, decision)


register("failing-code", lambda spec, seat, seed, config: FailingCodeAgent(seat, seed, config))


def test_a_code_game_that_fails_is_kept_and_the_tournament_goes_on(tmp_path: Path) -> None:
    from runner import tournament

    config = load_preset("standard")
    with DuckStore(tmp_path / "t.duckdb") as store:
        tournament.ensure_schema(store)
        lineup = ("failing-code", "random", "tracker", "economy")
        tournament.create(store, "t", "round-robin", lineup, 6, 11, config)
        _, tasks, _ = tournament.pending_tasks(store, "t")
        failing = [t for t in tasks if t.seed % 3 == 0 and "failing-code" in t.seats]
        assert failing and len(failing) < len(tasks)
        assert tournament.play_tournament(store, "t", config, tasks) == len(tasks)
        for t in tasks:
            row = store.get_game(t.game_id)
            if t in failing:
                assert (row.status, row.end_reason) == (
                    "abandoned",
                    "error: Boom: a fault in one game",
                )
                events = store.load_events(t.game_id)
                assert len(events) > 20 and fold(events).turn >= 1
            else:
                assert row.status == "finished"
