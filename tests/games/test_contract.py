"""One contract every registered game honours, run through the generic core only.

For Cattle Trade, PACT, OpenSpiel (Kuhn poker), TextArena (Colonel Blotto), GameBench's four games
and the toy auction defined in tests/games: the same seed gives the same bytes; a stored game
verifies (columns, games row, re-simulation); every event survives
the game's own codec; a seat's view holds exactly the events it may see; the store gives back
what it was given.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents import make_agents
from events import catalog
from events.codec import encode
from events.store import DuckStore
from runner.driver import Game
from runner.replay import verify
from runner.session import play_and_store, play_game
from runner.verify import check_game

from . import toy_auction

catalog.register(toy_auction.GAME)

CASES: dict[str, tuple[str, tuple[str, ...]]] = {
    "cattle-trade": ("micro-duel", ("tracker", "random")),
    "pact": ("quick", ("anchor", "mirror")),
    "toy-auction": ("standard", ("honest", "wild", "honest")),
    "openspiel": ("kuhn_poker", ("random", "mcts?simulations=50")),
    "gamebench:pit": ("standard", ("cornerer", "random")),
    "gamebench:santorini": ("standard", ("climber", "random")),
    "gamebench:hive": ("short", ("stinger", "random")),
    "gamebench:codenames": ("standard", ("associate", "random", "random", "associate")),
    "gamebench:sea_battle": ("quick", ("broadside", "random", "broadside") + ("random",) * 3),
    "gamebench:two_rooms_and_a_boom": ("short", ("sleuth", "random", "sleuth") + ("random",) * 3),
    "gamebench:arctic_scavengers": ("standard", ("warlord", "random")),
    "gamebench:air_land_sea": ("quick", ("commander", "random")),
    "gamebench:are_you_the_traitor": ("quick", ("sleuth", "random", "sleuth", "random", "random")),
    "textarena": ("blotto", ("blotto-uniform", "blotto-concentrate")),
}

OPEN_GAMES = frozenset({"gamebench:santorini", "gamebench:hive"})
"""Games of perfect information: code agents' games hide nothing from anyone."""


def _setup(name: str) -> tuple[catalog.GameDef, Any, tuple[str, ...]]:
    game = catalog.get(name)
    preset, agents = CASES[name]
    return game, game.preset(preset), agents


def test_every_built_in_game_is_covered() -> None:
    assert set(catalog.names()) <= set(CASES) | {"toy-auction"}
    assert {"cattle-trade", "pact", "toy-auction"} <= set(catalog.names())


def test_the_store_knows_each_built_in_games_views_without_importing_it() -> None:
    # A store sets up its views from the catalogue's list of files; it must name the same files
    # as each game's definition, and together they are what every loaded game declares.
    from events.store import all_view_files, view_files

    here = Path(catalog.__file__).resolve().parent
    for name, paths in catalog._BUILTIN_SQL.items():
        assert catalog.get(name).sql == tuple(here / p for p in paths), name
    assert set(catalog._BUILTIN_CONFIG) == set(catalog._BUILTIN)
    for name, where in catalog._BUILTIN_CONFIG.items():
        module, _, cls = where.partition(":")
        assert getattr(importlib.import_module(module), cls) is catalog.get(name).config_type
    declared = [p for g in catalog.loaded() for p in g.sql]
    assert all_view_files() == list(dict.fromkeys([*view_files(), *declared]))


@pytest.mark.parametrize("name", sorted(CASES))
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**63 - 1))
def test_same_seed_same_bytes_and_replay_verifies(name: str, seed: int) -> None:
    game, config, agents = _setup(name)
    a = play_game(config, seed, list(agents))
    b = play_game(config, seed, list(agents))
    assert [encode(e) for e in a.events] == [encode(e) for e in b.events]
    assert a.events[0].game == game.name
    assert a.result is not None and len(a.result.scores) == config.players
    assert verify(a.events).ok


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_event_survives_the_games_codec(name: str) -> None:
    game, config, agents = _setup(name)
    record = play_game(config, 7, list(agents))
    decode = game.decoder.decode
    for e in record.events:
        data = encode(e)
        again = decode(data)
        assert again == e and encode(again) == data


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_seat_sees_exactly_its_events(name: str) -> None:
    game, config, agents = _setup(name)
    record = play_game(config, 11, list(agents))
    private = 0
    for seat in range(config.players):
        view = game.new_view(seat).sync(record.events)
        expected = [e for e in record.events if (aud := e.audience()) is None or seat in aud]
        assert view.history == expected
        private += len(record.events) - len(expected)
    # Every game here but the open ones hides something from someone (a deck, a value, a hand).
    assert private > 0 or name in OPEN_GAMES


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_store_gives_back_a_verified_game(name: str, tmp_path: Path) -> None:
    game, config, agents = _setup(name)
    with DuckStore(tmp_path / "g.duckdb") as store:
        gid, record = play_and_store(store, config, 5, list(agents))
        row = store.get_game(gid)
        assert row.game == game.name and row.config == config
        assert row.engine_version == game.rules.version
        loaded = store.load_events(gid)
        assert [encode(e) for e in loaded] == [encode(e) for e in record.events]
        check = check_game(store.load_rows(gid))
        assert check.outcome == "verified", check.problem
        _, rows = store.query("SELECT seat, score, rank FROM results WHERE game_id = ?", [gid])
    assert sorted(r[0] for r in rows) == list(range(config.players))
    assert [r[1] for r in sorted(rows)] == [float(s) for s in record.result.scores]


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_tampered_column_fails_verification(name: str, tmp_path: Path) -> None:
    _, config, agents = _setup(name)
    with DuckStore(tmp_path / "g.duckdb") as store:
        gid, _ = play_and_store(store, config, 5, list(agents))
        # Hide a public event in an open game (it has no private one), else show a private one.
        tamper = (
            "UPDATE events SET visible_to = [0] WHERE game_id = ? AND seq = 1"
            if name in OPEN_GAMES
            else "UPDATE events SET visible_to = NULL WHERE game_id = ? AND seq ="
            " (SELECT min(seq) FROM events WHERE game_id = ? AND visible_to IS NOT NULL)"
        )
        store.con.execute(tamper, [gid] if name in OPEN_GAMES else [gid, gid])
        check = check_game(store.load_rows(gid))
    assert check.outcome == "failed" and check.problem is not None
    assert check.problem.check == "visible_to"


def test_the_driver_reaches_a_game_only_through_its_definition() -> None:
    game, config, agents = _setup("toy-auction")
    players = make_agents(list(agents), 3, config)
    record = Game(config, 3, players, game=game).run()
    assert record.result is not None and record.result.reason == "complete"


def test_the_driver_stops_a_game_that_asks_more_decisions_than_its_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The guard that knows no game: the toy game states no bound of its own, so the
    driver's limit applies; lowered below what a game needs, it stops the game."""
    import runner.driver as driver

    game, config, agents = _setup("toy-auction")
    assert not hasattr(game.rules, "max_decisions")
    assert driver.decision_limit(game, config) == driver.MAX_DECISIONS
    whole = Game(config, 3, make_agents(list(agents), 3, config), game=game)
    whole.run()
    needed = whole.decisions
    assert needed > 1
    monkeypatch.setattr(driver, "MAX_DECISIONS", needed - 1)
    cut = Game(config, 3, make_agents(list(agents), 3, config), game=game)
    with pytest.raises(driver.RunawayGame, match=f"more than {needed - 1} decisions"):
        cut.run()
    assert cut.decisions == needed
    monkeypatch.setattr(driver, "MAX_DECISIONS", needed)
    Game(config, 3, make_agents(list(agents), 3, config), game=game).run()


@pytest.mark.parametrize(
    "name",
    [
        "cattle-trade",
        "pact",
        "openspiel",
        "gamebench:pit",
        "gamebench:santorini",
        "gamebench:hive",
        "gamebench:codenames",
        "gamebench:sea_battle",
        "gamebench:two_rooms_and_a_boom",
        "gamebench:arctic_scavengers",
        "gamebench:air_land_sea",
        "gamebench:are_you_the_traitor",
        "textarena",
    ],
)
def test_built_in_games_state_their_bound_and_keep_to_it(name: str) -> None:
    game, config, agents = _setup(name)
    bound = game.rules.max_decisions(config)  # type: ignore[attr-defined]
    g = Game(config, 11, make_agents(list(agents), 11, config), game=game)
    g.run()
    assert 0 < g.decisions <= bound
    assert g.limit == min(bound, 100_000)
