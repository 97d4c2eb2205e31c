"""GTBench's ten games through OpenSpiel: replay, determinism, returns, hidden information.

The cross-check against OpenSpiel re-applies the stored actions with pyspiel directly (not
through the adapter's own replay), so a recording or rebuilding bug in the adapter shows.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.openspiel.gtbench import GTBENCH, PRESETS
from engine.openspiel.rules import OpenSpielTurn
from engine.openspiel.rules import pyspiel as load_pyspiel
from events import catalog
from events.codec import encode
from events.openspiel.game import ChanceSampled, MovePlayed, MoveRejected, OpenSpielEnded
from events.store import DuckStore
from projections.openspiel.view import OpenSpielView
from runner.replay import verify
from runner.session import play_and_store, play_game
from runner.verify import check_game

GAME = catalog.get("openspiel")
pyspiel = load_pyspiel()  # with OpenSpiel's Python games (the prisoner's dilemma) registered
FAST_MCTS = "mcts?simulations=20"
"""Few simulations: these tests are about recording and replay, not strength."""


def agents_for(preset: str) -> list[tuple[str, str]]:
    """Every agent kind that can play `preset`, in both seats."""
    if preset == "prisoners_dilemma":
        return [("random", "tft"), ("tft", "random")]
    return [("random", FAST_MCTS), (FAST_MCTS, "random")]


CASES = [(p, a) for p in GTBENCH for a in agents_for(p)]


def pyspiel_returns(events: list[Any]) -> list[float]:
    """Load the stored game string with pyspiel and apply the stored actions, by hand."""
    game = pyspiel.load_game(events[0].game_string)
    state = game.new_initial_state()
    joint: list[int] = []
    for e in events:
        if isinstance(e, ChanceSampled):
            assert state.is_chance_node()
            state.apply_action(e.action)
        elif isinstance(e, MovePlayed):
            assert e.action in state.legal_actions(e.player)
            assert state.action_to_string(e.player, e.action) == e.text
            if e.simultaneous:
                joint.append(e.action)
                if len(joint) == game.num_players():
                    state.apply_actions(joint)
                    joint = []
            else:
                assert state.current_player() == e.player
                state.apply_action(e.action)
    assert state.is_terminal()
    return [float(r) for r in state.returns()]


def test_the_ten_presets_load_as_gtbench_configures_them() -> None:
    got = {name: pyspiel.load_game(c.game_string).get_parameters() for name, c in PRESETS.items()}
    assert len(got) == 10
    assert got["breakthrough"]["columns"] == 3 and got["breakthrough"]["rows"] == 8
    assert got["liars_dice"]["numdice"] == 1 and got["liars_dice"]["players"] == 2
    assert got["nim"]["pile_sizes"] == "1;3;5;7" and got["nim"]["is_misere"] is True
    assert got["pig"]["winscore"] == 100
    assert got["blind_auction"]["players"] == 2
    assert all(pyspiel.load_game(c.game_string).num_players() == 2 for c in PRESETS.values())


@pytest.mark.parametrize(("preset", "agents"), CASES)
def test_every_game_and_agent_replays_and_matches_openspiel(
    preset: str, agents: tuple[str, str]
) -> None:
    config = GAME.preset(preset)
    a = play_game(config, 17, list(agents))
    b = play_game(config, 17, list(agents))
    assert [encode(e) for e in a.events] == [encode(e) for e in b.events]
    assert verify(a.events).ok
    assert isinstance(a.events[-1], OpenSpielEnded)
    assert list(a.result.scores) == pyspiel_returns(a.events)
    assert not any(isinstance(e, MoveRejected) for e in a.events)


@pytest.mark.parametrize("preset", sorted(GTBENCH))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**63 - 1))
def test_stored_actions_give_the_stored_returns(preset: str, seed: int) -> None:
    agents = ["random", "tft"] if preset == "prisoners_dilemma" else ["random", "random"]
    record = play_game(GAME.preset(preset), seed, agents)
    assert list(record.result.scores) == pyspiel_returns(record.events)
    again = play_game(GAME.preset(preset), seed, agents)
    assert [encode(e) for e in again.events] == [encode(e) for e in record.events]


def test_other_seeds_give_other_chance() -> None:
    deals = {
        tuple(e.action for e in play_game(GAME.preset("kuhn_poker"), s, ["random"] * 2).events
              if isinstance(e, ChanceSampled))
        for s in range(30)
    }  # fmt: skip
    assert len(deals) == 6  # every deal of two of three cards turns up


def test_negotiation_values_come_from_the_seed() -> None:
    first = play_game(GAME.preset("negotiation"), 1, ["random"] * 2).events[0].game_string
    second = play_game(GAME.preset("negotiation"), 2, ["random"] * 2).events[0].game_string
    assert "rng_seed=" in first and first != second
    assert play_game(GAME.preset("negotiation"), 1, ["random"] * 2).events[0].game_string == first


def _first_decision_view(events: list[Any], seat: int) -> OpenSpielView:
    """The seat's view just before its first move."""
    for i, e in enumerate(events):
        if isinstance(e, MovePlayed) and e.player == seat:
            return OpenSpielView(seat).sync(events[:i])
    raise AssertionError("the seat never moved")


@pytest.mark.parametrize(("preset", "outcomes"), [("kuhn_poker", 3), ("liars_dice", 6)])
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), seat=st.integers(0, 1))
def test_a_seat_never_sees_the_other_private_draw(
    preset: str, outcomes: int, seed: int, seat: int
) -> None:
    events = play_game(GAME.preset(preset), seed, ["random"] * 2).events
    view = _first_decision_view(events, seat)
    other = 1 - seat
    # The other seat's private draw is ply `other` (cards and dice are dealt in seat order).
    (hidden,) = [e for e in events if isinstance(e, ChanceSampled) and e.ply == other]
    assert hidden.seen_by == ()  # chance is shown to a seat only through its `Observed` strings
    assert all(e is not hidden for e in view.history)
    mine = next(e for e in events if isinstance(e, ChanceSampled) and e.ply == seat)
    for alt in range(outcomes):
        if alt in (hidden.action, mine.action) and preset == "kuhn_poker":
            continue
        swapped = [
            msgspec_replace(e, action=alt) if e is hidden else e for e in events[: view.seen]
        ]
        other_view = OpenSpielView(seat).sync(swapped)
        assert other_view.observation == view.observation
        assert other_view.snapshot() == view.snapshot()


def msgspec_replace(e: Any, **changes: Any) -> Any:
    """An event with some fields changed."""
    import msgspec

    return msgspec.structs.replace(e, **changes)


def test_the_sealed_bid_stays_sealed() -> None:
    events = play_game(GAME.preset("blind_auction"), 3, ["random"] * 2).events
    (bid0,) = [e for e in events if isinstance(e, MovePlayed) and e.player == 0]
    assert bid0.seen_by == ()  # the bidder sees it through its own `Observed` event
    view = _first_decision_view(events, 1)
    assert "bid" not in view.observation


def test_an_illegal_action_is_recorded_and_replaced() -> None:
    rules = GAME.rules
    config = GAME.preset("tic_tac_toe")
    state, _ = rules.start(config, 5, [])
    d = rules.pending(state)
    assert isinstance(d, OpenSpielTurn)
    state, more = rules.step(state, d, [99])
    rejected, played = more[0], more[1]
    assert isinstance(rejected, MoveRejected) and rejected.raw == 99
    assert isinstance(played, MovePlayed) and played.action == rejected.used == d.fallback(0)
    state, more = rules.step(state, rules.pending(state), ["x(1,1)"])
    assert isinstance(more[0], MoveRejected) and more[0].reason == "not an action id"


def test_a_stored_game_verifies_and_its_views_hold_the_contract(tmp_path: Path) -> None:
    with DuckStore(tmp_path / "os.duckdb") as store:
        gid, record = play_and_store(store, GAME.preset("liars_dice"), 9, ["random", FAST_MCTS])
        custom = catalog.resolve("openspiel:tic_tac_toe()")[1]
        gid2, _ = play_and_store(store, custom, 9, ["random", "random"])
        assert check_game(store.load_rows(gid)).outcome == "verified"
        _, rows = store.query(
            "SELECT ply, player, action, action_text FROM openspiel_actions"
            " WHERE game_id = ? ORDER BY ply",
            [gid],
        )
        _, games = store.query(
            "SELECT game_id, game_string, returns, preset FROM openspiel_games ORDER BY preset"
        )
        _, results = store.query(
            "SELECT seat, score FROM results WHERE game_id = ? ORDER BY seat", [gid]
        )
    actions = [e for e in record.events if isinstance(e, ChanceSampled | MovePlayed)]
    assert [r[0] for r in rows] == list(range(len(actions)))
    for r, e in zip(rows, actions, strict=True):
        player = -1 if isinstance(e, ChanceSampled) else e.player
        assert (r[1], r[2], r[3]) == (player, e.action, e.text)
    by_id = {g[0]: g for g in games}
    assert by_id[gid][3] == "liars_dice" and by_id[gid2][3] is None
    assert by_id[gid][1] == record.events[0].game_string
    assert list(by_id[gid][2]) == list(record.result.scores)
    assert [r[1] for r in results] == list(record.result.scores)


def test_games_of_rules_1_0_0_still_replay_and_verify(tmp_path: Path) -> None:
    """Rules 1.0.0 stay available to replay the games they stored: their audiences (trial
    actions) and no `Observed` events; a version no rules offer is refused by verify."""
    import msgspec

    from agents import make_agents
    from events.openspiel.game import Observed
    from runner.driver import Game
    from runner.session import game_row, seat_specs
    from runner.verify import verify_stored

    config = GAME.preset("kuhn_poker")
    seats = seat_specs(["random", "random"], GAME)
    old = Game(config, 3, make_agents(seats, 3, config), seats, game=GAME, version="1.0.0")
    record = old.run()
    log = record.events
    assert log[0].engine_version == "1.0.0"
    assert not any(isinstance(e, Observed) for e in log)
    deals = [e for e in log if isinstance(e, ChanceSampled)]
    assert [e.seen_by for e in deals] == [(0,), (1,)]
    assert verify(log).ok
    new = play_game(config, 3, ["random", "random"]).events
    assert new[0].engine_version == "2.0.0" and any(isinstance(e, Observed) for e in new)
    with DuckStore(tmp_path / "old.duckdb") as store:
        row = game_row("old1", config, 3, seats, None)
        store.save_game(msgspec.structs.replace(row, engine_version="1.0.0"), log, record.turns)
        assert verify_stored(store, "old1").outcome == "verified"
        odd = msgspec.structs.replace(log[0], engine_version="0.9.0")
        row = msgspec.structs.replace(row, game_id="odd1", engine_version="0.9.0")
        store.save_game(row, [odd, *log[1:]], record.turns)
        check = verify_stored(store, "odd1")
        assert check.outcome != "verified" and check.problem is not None
        assert check.problem.check == "engine_version" and "0.9.0" in check.problem.detail
