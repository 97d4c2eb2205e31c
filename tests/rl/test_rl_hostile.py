"""Careless and hostile use of the environments: actions of the wrong type or out of the
action space, steps outside an episode, the mask against the rules over random play,
recording into a missing folder, and `policy:` callables that misbehave."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import msgspec
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events.store import DuckStore, StoreError
from runner.rl import make_env
from runner.rl.policy import PolicyError, PolicySpecError

GAMES = ("cattle-trade", "openspiel:kuhn_poker")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    "bad", [0.7, 1.5, True, None, "1", "abc", -1, 10**6, [1], np.array([1]), np.float32(1.0)]
)
def test_an_action_outside_the_space_is_refused_and_the_game_is_untouched(
    game: str, bad: Any
) -> None:
    env = make_env(game, seed=3)
    env.reset()
    before = list(env.game_log)
    selected = env.agent_selection
    with pytest.raises((TypeError, ValueError), match="action"):
        env.step(bad)
    assert env.game_log == before
    assert env.agent_selection == selected
    # The environment goes on as one never handed the bad value.
    twin = make_env(game, seed=3)
    twin.reset()
    for _ in range(4):
        for e in (env, twin):
            obs, _, done, *_ = e.last()
            if done:
                break
            e.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    assert len(env.game_log) > len(before)
    assert msgspec.json.encode(env.game_log) == msgspec.json.encode(twin.game_log)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("good", [np.int64, np.int8, np.uint16, int, np.array])
def test_integer_ids_of_any_integer_type_are_taken(game: str, good: Any) -> None:
    env = make_env(game, seed=3)
    env.reset()
    obs, *_ = env.last()
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    env.step(good(legal))
    twin = make_env(game, seed=3)
    twin.reset()
    twin.step(legal)
    assert msgspec.json.encode(env.game_log) == msgspec.json.encode(twin.game_log)


def test_stepping_before_reset_or_after_the_episode_says_so() -> None:
    env = make_env("openspiel:kuhn_poker", seed=3)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    env.reset()
    while not all(env.terminations.values()):
        obs, *_ = env.last()
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    with pytest.raises(ValueError, match="None"):
        env.step(0)  # a dead agent takes None only (PettingZoo's rule)
    while env.agents:
        env.step(None)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(None)
    env.reset(seed=3)
    assert env.agents and not any(env.terminations.values())


def _rejected(events: list[Any]) -> bool:
    return any(type(e).__name__ in ("ActionRejected", "MoveRejected") for e in events)


def _mask_agrees(game: str, preset: str | None, mode: str | None, seed: int, picks: Any) -> None:
    env = make_env(game, preset=preset, seed=seed)
    if mode is not None:
        env = make_env(game, preset=msgspec.structs.replace(env.config, auction_mode=mode))
    env.reset(seed=seed)
    fits = getattr(env.codec, "fits", None)
    for _ in range(60):
        obs, _, done, cut, _ = env.last()
        if done or cut:
            return
        mask = obs["action_mask"]
        d = env._decision
        legal = np.flatnonzero(mask)
        assert len(legal) > 0, "a seat is asked and may do nothing"
        if len(d.seats) > 1:  # a sealed round applies once every seat answered: play legal
            env.step(int(legal[picks.draw(st.integers(0, len(legal) - 1))]))
            continue
        if fits is not None:
            ids = [i for i in range(env.codec.n_actions) if fits(d, i)]
        else:
            ids = list(range(env.codec.n_actions))
        i = ids[picks.draw(st.integers(0, len(ids) - 1))]
        if mask[i] == 0 and picks.draw(st.booleans()):
            i = int(legal[picks.draw(st.integers(0, len(legal) - 1))])
        at = len(env.game_log)
        env.step(i)
        assert _rejected(env.game_log[at:]) == (mask[i] == 0), (i, d)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    mode=st.sampled_from(["canonical", "legacy", "fast"]),
    seed=st.integers(0, 10_000),
    picks=st.data(),
)
def test_cattle_mask_is_the_rules_legal_set(mode: str, seed: int, picks: Any) -> None:
    """Every id of the kind asked is accepted by the rules exactly when the mask allows it."""
    _mask_agrees("cattle-trade", "micro-duel", mode, seed, picks)


@settings(max_examples=25, deadline=None)
@given(
    game=st.sampled_from(["openspiel:leduc_poker", "openspiel:liars_dice", "openspiel:kuhn_poker"]),
    seed=st.integers(0, 10_000),
    picks=st.data(),
)
def test_openspiel_mask_is_the_rules_legal_set(game: str, seed: int, picks: Any) -> None:
    _mask_agrees(game, None, None, seed, picks)


def test_record_into_a_missing_folder_creates_it_and_the_episode_is_stored(
    tmp_path: Path,
) -> None:
    path = tmp_path / "no" / "such" / "folder" / "rl.duckdb"
    env = make_env("openspiel:kuhn_poker", seed=1, record=path)
    env.reset()
    while not all(env.terminations.values()):
        obs, *_ = env.last()
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    env.close()
    store = DuckStore(path)
    try:
        assert [r.game_id for r in store.list_games()] == env.recorded
    finally:
        store.close()


def test_record_into_a_file_that_is_not_a_store_says_so(tmp_path: Path) -> None:
    path = tmp_path / "broken.duckdb"
    path.write_bytes(b"not a database " * 64)
    with pytest.raises(Exception, match=re.escape(str(path))):
        make_env("openspiel:kuhn_poker", seed=1, record=path)
    assert path.read_bytes() == b"not a database " * 64


def _play_out(env: Any) -> None:
    while env.agents:
        obs, _, done, cut, _ = env.last()
        env.step(None if done or cut else int(np.flatnonzero(obs["action_mask"])[0]))


@pytest.mark.parametrize(
    "spec", ["policy:no_such_module_here:f", "policy:tests.rl.policies:missing",
             "policy:tests.rl.policies:NOT_CALLABLE", "policy:tests.rl.policies"],
)  # fmt: skip
def test_a_policy_that_cannot_be_loaded_is_refused_when_the_environment_is_made(
    spec: str,
) -> None:
    with pytest.raises(PolicySpecError, match=re.escape(spec)):
        make_env("openspiel:kuhn_poker", seed=1, others={1: spec})


@pytest.mark.parametrize(("name", "error"), [("boom", "divided by zero"), ("nothing", "NoneType")])
def test_a_policy_that_raises_or_returns_garbage_is_named_in_the_error(
    name: str, error: str
) -> None:
    spec = f"policy:tests.rl.policies:{name}"
    env = make_env("openspiel:kuhn_poker", seed=1, others={0: spec})
    with pytest.raises(PolicyError, match=re.escape(spec)) as caught:
        env.reset()
    assert error in str(caught.value)


def test_a_policy_that_plays_an_illegal_id_is_answered_by_the_rules(tmp_path: Path) -> None:
    from runner.verify import verify_stored

    path = tmp_path / "rl.duckdb"
    env = make_env(
        "openspiel:tic_tac_toe", seed=4, record=path,
        others={1: "policy:tests.rl.policies:first_illegal"},
    )  # fmt: skip
    env.reset()
    _play_out(env)
    assert _rejected(env.game_log)
    env.close()
    with DuckStore(path) as store:
        check = verify_stored(store, env.recorded[0])
    assert check.ok, check.problem


def test_the_import_lines_of_the_docs_run() -> None:
    """docs/rl.md opens with the lines a user types; they run as printed."""
    text = (Path(__file__).parents[2] / "docs" / "rl.md").read_text()
    first = re.findall(r"```python\n(.*?)```", text, re.S)[0]
    names: dict[str, Any] = {}
    exec(compile(first, "docs/rl.md", "exec"), names)
    from runner.rl.env import GameEnv
    from runner.rl.wrappers import ParallelGameEnv, SingleSeatEnv

    assert isinstance(names["env"], GameEnv)
    assert isinstance(names["par"], ParallelGameEnv)
    assert isinstance(names["gym"], SingleSeatEnv)
    for env in (names["env"], names["par"], names["gym"]):
        env.reset(seed=2)
    # The sizes the docs quote.
    sizes = re.search(r"Standard\s+preset: ([\d,]+) ids; micro-duel (\d+); marathon ([\d,]+)", text)
    assert sizes is not None
    for preset, quoted in zip(("standard", "micro-duel", "marathon"), sizes.groups(), strict=True):
        assert make_env("cattle-trade", preset=preset).codec.n_actions == int(
            quoted.replace(",", "")
        )


def _random_log(envs: list[Any], seed: int) -> list[bytes]:
    rngs = [np.random.default_rng(0) for _ in envs]
    for e in envs:
        e.reset(seed=seed)
    for _ in range(80):  # the environments take turns, step for step
        for e, rng in zip(envs, rngs, strict=True):
            obs, _, done, cut, _ = e.last()
            if not (done or cut):
                e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return [msgspec.json.encode(e.game_log) for e in envs]


@pytest.mark.parametrize("game", ["cattle-trade", "openspiel:leduc_poker"])
def test_interleaved_environments_share_nothing(game: str) -> None:
    alone = _random_log([make_env(game)], 7)
    together = _random_log([make_env(game, others={1: "random"}), make_env(game)], 7)
    assert together[1] == alone[0]
    again = _random_log([make_env(game, seed=99)], 7)  # reset(seed=) wins over the first seed
    assert again == alone


def test_reset_without_a_seed_then_with_one() -> None:
    env = make_env("openspiel:kuhn_poker")
    env.reset()
    drawn = env.seed
    env.reset(seed=5)
    assert env.seed == 5
    env.reset()
    assert env.seed == 6
    assert drawn is not None


def test_a_parallel_step_without_an_asked_seats_action_names_the_seat() -> None:
    from runner.rl import make_parallel_env

    par = make_parallel_env("gtbench:prisoners_dilemma", seed=1)
    par.reset()
    before = list(par.aec.game_log)
    with pytest.raises(KeyError, match="player_1"):
        par.step({"player_0": 0})
    with pytest.raises(TypeError, match="action"):
        par.step({"player_0": 0, "player_1": 0.5})
    assert par.aec.game_log == before
    assert par.aec.agent_selection == "player_0"
    par.step({"player_0": 0, "player_1": 1})  # the round goes on as if never asked wrongly
    assert len(par.aec.game_log) > len(before)


def test_two_environments_recording_into_one_file_share_one_open_store(tmp_path: Path) -> None:
    path = tmp_path / "shared.duckdb"
    first = make_env("openspiel:kuhn_poker", seed=1, record=path)
    # A second connection to the same file from this process is refused by DuckDB; the error
    # says what to do instead.
    with pytest.raises(StoreError, match="record="):
        make_env("openspiel:kuhn_poker", seed=1, record=path)
    first.close()
    with DuckStore(path) as store:
        envs = [make_env("openspiel:kuhn_poker", seed=s, record=store) for s in (1, 2)]
        for env in envs:
            env.reset()
            _play_out(env)
        assert len(store.list_games()) == 2
        for env in envs:
            env.close()  # a store handed in is left open for its owner
        assert len(store.list_games()) == 2


@pytest.mark.parametrize("bad", [None, 3, b"bid 10", ["pass"]])
def test_a_text_action_that_is_not_text_is_refused(bad: Any) -> None:
    env = make_env("gtbench:prisoners_dilemma", seed=2, text=True)
    env.reset()
    before = list(env.game_log)
    with pytest.raises(TypeError, match="text"):
        env.step(bad)
    assert env.game_log == before
    env.step("cooperate")


def test_a_recording_environment_once_closed_does_not_play_unrecorded(tmp_path: Path) -> None:
    env = make_env("openspiel:kuhn_poker", seed=1, record=tmp_path / "rl.duckdb")
    env.reset()
    _play_out(env)
    env.close()
    with pytest.raises(RuntimeError, match="closed"):
        env.reset()
    assert len(env.recorded) == 1


@pytest.mark.parametrize("seat", [-1, 2, 9])
def test_a_gym_seat_out_of_range_is_named(seat: int) -> None:
    from runner.rl import make_gym_env

    with pytest.raises(ValueError, match=f"seat {seat}"):
        make_gym_env("openspiel:kuhn_poker", seed=1, seat=seat)
