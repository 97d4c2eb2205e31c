"""What a seat is shown of an OpenSpiel game beyond its observations: a rejected move without
its history position, and prompts without the seeds of hidden chance."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from agents.base import Agent
from agents.openspiel.bots import RandomAgent
from agents.openspiel.game import GAME
from cli.web.data import api_events, game_data
from engine.openspiel.rules import RULES
from events.config import SeatSpec
from events.openspiel.game import MoveRejected, OpenSpielConfig
from events.store import DuckStore
from projections.openspiel.view import OpenSpielPrompter, OpenSpielView
from runner.driver import Game
from runner.session import game_row


class _Wrong(Agent):
    """Asks for an action id no game has."""

    spec = "random"

    def act(self, view: Any, decision: Any) -> int:
        return 10**6


def test_a_rejected_move_is_shown_to_its_seat_without_its_history_position(
    tmp_path: Path,
) -> None:
    # Phantom tic-tac-toe hides the other's moves (and its tries at taken cells): the
    # position in the history would tell a seat how many actions it did not see.
    config = OpenSpielConfig(game_string="phantom_ttt", players=2)
    agents = [RandomAgent(0, 5, config), _Wrong(1, 5, config)]
    driver = Game(config, 5, agents, [SeatSpec(agent="random")] * 2, game=GAME)
    driver.run()
    assert any(isinstance(e, MoveRejected) for e in driver.log)
    with DuckStore(tmp_path / "s.duckdb") as store:
        store.save_game(game_row("g1", config, 5, driver.seats, None), driver.log, driver.turns)
        for seat_rows in (api_events(store.con, "g1", 1), game_data(store.con, "g1", 1)["events"]):
            rejected = [r for r in seat_rows if r["type"] == "openspiel_move_rejected"]
            assert rejected and all("ply" not in r["fields"] for r in rejected)
            assert all(r["fields"]["player"] == 1 for r in rejected)
        everyone = api_events(store.con, "g1", None)
        assert all("ply" in r["fields"] for r in everyone if r["type"] == "openspiel_move_rejected")


def test_negotiation_prompts_hold_neither_the_seed_nor_rng_seed() -> None:
    config = OpenSpielConfig(game_string="negotiation", players=2)
    seed = 777
    state, log = RULES.start(config, seed, [SeatSpec(agent="random")] * 2)
    assert "rng_seed=" in log[0].game_string
    drawn = log[0].game_string.split("rng_seed=")[1].split(",")[0].rstrip(")")
    decision = RULES.pending(state)
    assert decision is not None
    view = OpenSpielView(decision.seats[0]).sync(log)
    for mode in ("prompt", "cot", "sc-cot"):
        prompt = OpenSpielPrompter(mode=mode).decision_prompt(view, decision, "", None)
        text = msgspec.json.encode(prompt).decode()
        assert "rng_seed" not in text and drawn not in text and str(seed) not in text
