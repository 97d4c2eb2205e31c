"""The viewer's frames of OpenSpiel games: a seat sees its player's string, everyone the state.

Each game is played and stored in a real DuckDB store and read back as the viewer's page data
(`cli.web.data.game_data`), for every seat, the public record and everyone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyspiel
import pytest

from agents.openspiel.game import GAME
from cli.web.data import PUBLIC, game_data
from engine.openspiel.gtbench import GTBENCH
from engine.openspiel.rules import apply_recorded
from events.store import DuckStore
from projections.openspiel.view import PUBLIC_HIDDEN
from runner.session import play_and_store
from tests.openspiel.privacy import player_string

CONFIGS = {
    **{name: GAME.preset(name) for name in GTBENCH},
    "leduc_poker": GAME.config_type(game_string="leduc_poker", players=2),
    "goofspiel": GAME.config_type(
        game_string="goofspiel(imp_info=True,num_cards=4,points_order=descending)", players=2
    ),
}


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Every game above, stored once (seed 7, random seats)."""
    path: Path = tmp_path_factory.mktemp("viewer") / "viewer.duckdb"
    with DuckStore(path) as store:
        ids = {
            name: play_and_store(store, config, 7, ["random", "random"])[0]
            for name, config in CONFIGS.items()
        }
        yield store, ids


def _final_state(events: list[Any]) -> Any:
    state = pyspiel.load_game(events[0].game_string).new_initial_state()
    apply_recorded(state, events)
    return state


def _seat_sees(state: Any, player: int) -> str:
    """What a seat is shown: in a game of perfect information the board as its observation
    string draws it (all there is to know), else OpenSpiel's own string for the player."""
    game = state.get_game()
    kind = game.get_type()
    perfect = kind.information == kind.information.PERFECT_INFORMATION
    if perfect and kind.provides_observation_string:
        return str(state.observation_string(player))
    return player_string(state, player)


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_each_frame_is_the_string_openspiel_gives_the_viewer(stored: Any, name: str) -> None:
    store, ids = stored
    game_id = ids[name]
    events = store.load_events(game_id)
    state = _final_state(events)
    for viewer in (None, PUBLIC, 0, 1):
        data = game_data(store.con, game_id, viewer)
        texts = [f["text"] for f in data["frames"]]
        assert all("no state text" not in t and " object at 0x" not in t for t in texts)
        last = texts[data["index"][-1]]
        if viewer is None:
            assert last == str(state).rstrip("\n")
        elif viewer == PUBLIC:
            open_game = name in ("tic_tac_toe", "connect_four", "breakthrough", "nim", "pig")
            assert last == (str(state).rstrip("\n") if open_game else _public_end(state))
        else:
            assert last == _seat_sees(state, viewer).rstrip("\n")


def _public_end(state: Any) -> str:
    return PUBLIC_HIDDEN + f"\nReturns: {[float(r) for r in state.returns()]}"


def test_kuhn_poker_seat_1_sees_its_own_card_and_the_auction_bidder_its_bid(stored: Any) -> None:
    """The issue's examples: seat 1's frame holds its own card (not one rebuilt from the moves
    it saw), and a bidder's frame its value and its bid."""
    store, ids = stored
    events = store.load_events(ids["kuhn_poker"])
    card = next(e for e in events if getattr(e, "ply", None) == 1).action
    data = game_data(store.con, ids["kuhn_poker"], 1)
    assert data["frames"][data["index"][-1]]["text"].startswith(str(card))
    events = store.load_events(ids["blind_auction"])
    value = next(e for e in events if getattr(e, "ply", None) == 0).text.split()[-1]
    bid = next(e for e in events if getattr(e, "ply", None) == 2).action
    data = game_data(store.con, ids["blind_auction"], 0)
    assert data["frames"][data["index"][-1]]["text"] == f"p0 val {value} bid {bid}"
