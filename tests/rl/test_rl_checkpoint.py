"""Checkpoint seats (`policy:PATH.npz`, `policy:PATH.pt`): a plain network read from a file
plays as the same network computed by hand would, and its games verify without the file."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

from agents import UnknownAgent, make_agent, parse_spec
from events.codec import encode_log
from runner.replay import verify
from runner.rl.env import resolve
from runner.rl.policy import PolicySpecError, load_checkpoint
from runner.session import play_game

pytest.importorskip("pettingzoo")


def _network(rng: np.random.Generator, sizes: list[int]) -> list[tuple[np.ndarray, np.ndarray]]:
    return [
        (rng.normal(size=(n_out, n_in)), rng.normal(size=n_out))
        for n_in, n_out in itertools.pairwise(sizes)
    ]


def _by_hand(layers: list[tuple[np.ndarray, np.ndarray]], obs: dict, info: dict) -> int:
    h = np.asarray(obs["observation"], dtype=np.float64)
    for i, (w, b) in enumerate(layers):
        h = h @ w.T + b
        if i < len(layers) - 1:
            h = np.where(h > 0, h, 0.0)
    legal = np.flatnonzero(obs["action_mask"])
    return int(legal[np.argmax(h[legal])])


def _save_npz(path: Path, layers: list[tuple[np.ndarray, np.ndarray]]) -> None:
    arrays = {}
    for i, (w, b) in enumerate(layers):
        arrays[f"layer{i}.weight"], arrays[f"layer{i}.bias"] = w, b
    np.savez(path, **arrays)


def test_an_npz_network_plays_as_computed_by_hand_and_verifies_without_the_file(
    tmp_path: Path,
) -> None:
    from runner.rl import make_env

    layers = _network(np.random.default_rng(5), [11, 16, 2])  # Kuhn poker: 11 numbers, 2 ids
    path = tmp_path / "kuhn.npz"
    _save_npz(path, layers)
    spec = f"policy:{path}"
    for seed in (1, 2, 3):
        env = make_env("openspiel:kuhn_poker", seed=seed, others={1: "random"}, label=spec)
        env.reset()
        for _agent in env.agent_iter():
            obs, _, done, cut, info = env.last()
            env.step(None if done or cut else _by_hand(layers, obs, info))
        played = play_game(env.config, seed, [spec, "random"])
        assert encode_log(played.events) == encode_log(env.game_log)
    path.unlink()
    assert verify(played.events).ok


def test_a_checkpoint_of_the_wrong_shape_or_kind_is_refused(tmp_path: Path) -> None:
    _, kuhn = resolve("openspiel:kuhn_poker")
    wrong = tmp_path / "wrong.npz"
    _save_npz(wrong, _network(np.random.default_rng(0), [11, 3]))
    with pytest.raises(PolicySpecError, match="scores 3 actions"):
        make_agent(parse_spec(f"policy:{wrong}", "openspiel:kuhn_poker"), 0, 1, kuhn)
    odd = tmp_path / "odd.npz"
    np.savez(odd, weight=np.zeros((2, 11)))
    with pytest.raises(PolicySpecError, match="pairs"):
        load_checkpoint(str(odd))
    with pytest.raises((PolicySpecError, UnknownAgent)):
        parse_spec("policy:model.onnx", "openspiel:kuhn_poker")


def test_a_torch_state_dict_scores_as_the_torch_model(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Linear(11, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2)
    ).double()
    path = tmp_path / "kuhn.pt"
    torch.save(model.state_dict(), path)
    policy = load_checkpoint(str(path))
    x = np.random.default_rng(1).normal(size=11)
    expected = model(torch.from_numpy(x)).detach().numpy()
    assert np.allclose(policy.scores(x), expected)
