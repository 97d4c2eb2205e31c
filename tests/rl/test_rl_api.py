"""PettingZoo's and Gymnasium's own checks on the environments of every built-in game family at
its default preset (short episodes: a few cycles each), and the action encodings' contracts."""

from __future__ import annotations

import warnings

import msgspec
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

from events import catalog
from runner.rl import make_env, make_gym_env, make_parallel_env

warnings.filterwarnings("ignore", module="pettingzoo")

DISCRETE = ["cattle-trade", "openspiel", "openspiel:kuhn_poker"]
TEXT = ["pact", "textarena", *sorted(g.name for g in catalog.family("gamebench"))]


@pytest.mark.parametrize("game", DISCRETE + TEXT)
def test_api_test_passes_at_the_default_preset(game: str) -> None:
    env = make_env(game, seed=11)
    api_test(env, num_cycles=8)
    assert env.possible_agents == [f"player_{s}" for s in range(env.config.players)]


@pytest.mark.parametrize(
    "game", ["cattle-trade", "openspiel:kuhn_poker", "gtbench:prisoners_dilemma", "pact"]
)
def test_parallel_and_seed_tests_pass(game: str) -> None:
    parallel_api_test(make_parallel_env(game, seed=2), num_cycles=10)
    seed_test(lambda: make_env(game), num_cycles=10)
    parallel_seed_test(lambda: make_parallel_env(game), num_cycles=10)


@pytest.mark.parametrize("game", ["cattle-trade", "openspiel:kuhn_poker", "gamebench:pit"])
def test_the_single_seat_environment_passes_gymnasiums_check(game: str) -> None:
    check_env(make_gym_env(game, seed=4, max_steps=30), skip_render_check=True)


def test_a_simultaneous_round_is_one_parallel_step() -> None:
    env = make_parallel_env("gtbench:prisoners_dilemma", seed=1)
    obs, _ = env.reset()
    assert all(o["action_mask"].any() for o in obs.values())  # both asked at once
    _, rewards, *_ = env.step({a: 0 for a in env.agents})
    assert set(rewards) == {"player_0", "player_1"}


@pytest.mark.parametrize("preset", ["micro-duel", "standard", "marathon"])
@pytest.mark.parametrize("mode", ["canonical", "fast", "legacy"])
def test_every_cattle_preset_and_mode_passes_api_test(preset: str, mode: str) -> None:
    config = msgspec.structs.replace(catalog.get("cattle-trade").preset(preset), auction_mode=mode)
    api_test(make_env("cattle-trade", config, seed=3), num_cycles=4)


@pytest.mark.parametrize("mode", ["canonical", "fast", "legacy"])
def test_cattle_masks_name_only_actions_the_rules_accept(mode: str) -> None:
    from events.cattle.game import ActionRejected

    config = msgspec.structs.replace(
        catalog.get("cattle-trade").preset("micro-duel"), auction_mode=mode
    )
    env = make_env("cattle-trade", config, seed=8)
    env.reset()
    rng = np.random.default_rng(0)
    for _agent in env.agent_iter(3000):
        obs, _, done, cut, _ = env.last()
        if done or cut:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    rejected = [e for e in env.game_log if isinstance(e, ActionRejected)]
    assert rejected == []
    assert env.game_log[-1].__struct_config__.tag == "game_ended"


def test_an_id_the_mask_refuses_is_recorded_as_rejected() -> None:
    from events.cattle.game import ActionRejected
    from runner.cattle.rl import BID0, LEVELS, OFFER0

    env = make_env("cattle-trade", "micro-duel", seed=8)
    env.reset()
    refused: list[int] = []
    for _agent in env.agent_iter(2000):
        obs, _, done, cut, info = env.last()
        if done or cut:
            env.step(None)
            continue
        mask = obs["action_mask"]
        if info["decision"] == "bid" and not mask[BID0]:
            refused.append(BID0)  # a bid of 10 below the standing price
            env.step(BID0)
        elif info["decision"] == "tie_offer" and not mask[OFFER0 + len(LEVELS) - 1]:
            refused.append(OFFER0 + len(LEVELS) - 1)  # an offer beyond the seat's money
            env.step(OFFER0 + len(LEVELS) - 1)
        else:
            env.step(int(np.flatnonzero(mask)[-1]))
    rejected = [e for e in env.game_log if isinstance(e, ActionRejected)]
    assert refused and len(rejected) >= len(refused)


def test_rewards_are_the_games_scores() -> None:
    env = make_env("openspiel:kuhn_poker", seed=3)
    env.reset()
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, done, cut, _ = env.last()
        total[agent] += reward
        env.step(None if done or cut else int(np.flatnonzero(obs["action_mask"])[0]))
    scores = env.game_log[-1].scores
    assert [total[a] for a in env.possible_agents] == list(scores)
    assert sum(scores) == 0 and scores[0] != 0


def test_render_is_the_seats_text() -> None:
    env = make_env("cattle-trade", seed=1, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert text and "auction" in text.lower()
    text_env = make_env("pact", seed=1)
    text_env.reset(seed=1)
    obs, *_, info = text_env.last()
    raw = bytes(obs["observation"]).rstrip(b"\0").decode()
    assert raw and info["text"].endswith(raw)


@pytest.mark.parametrize("game", ["cattle-trade", "openspiel:kuhn_poker"])
def test_the_text_channel_serves_games_with_action_ids_too(game: str) -> None:
    env = make_env(game, seed=2, text=True)
    api_test(env, num_cycles=5)
    env.reset(seed=2)
    obs, *_, info = env.last()
    assert "action_mask" not in obs and info["text"]
    assert bytes(obs["observation"]).rstrip(b"\0").decode() in info["text"]


@pytest.mark.parametrize("preset", sorted(catalog.get("openspiel").presets()))
def test_every_openspiel_preset_passes_api_test(preset: str) -> None:
    env = make_env("openspiel", preset, seed=1)
    api_test(env, num_cycles=6)
    env.reset()
    obs, *_ = env.last()
    assert obs["action_mask"].shape == (env.codec.n_actions,) and obs["action_mask"].any()
