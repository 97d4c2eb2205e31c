"""Recorded episodes are stored games: `cattle verify` accepts them, and each equals, event for
event, the game `cattle play` plays from the same seed with the same actions (a `policy:` seat
taking, from the same observations, the actions the learner took)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from events.codec import encode_log
from events.store import DuckStore
from runner.replay import verify
from runner.rl import make_env
from runner.session import play_game
from runner.verify import verify_stored
from tests.cli.clikit import cattle
from tests.rl.policies import spread

SPREAD = "policy:tests.rl.policies:spread"


def _drive(env: object) -> None:
    """Play every learner seat of `env` with `spread`, as a `policy:` seat would."""
    for _agent in env.agent_iter():  # type: ignore[attr-defined]
        obs, _, done, cut, info = env.last()  # type: ignore[attr-defined]
        env.step(None if done or cut else spread(obs, info))  # type: ignore[attr-defined]


def test_a_recorded_episode_is_the_game_cattle_play_plays(tmp_path: Path) -> None:
    db = tmp_path / "env.duckdb"
    env = make_env("cattle-trade", "micro-duel", seed=77, record=db, label=SPREAD)
    env.reset()
    _drive(env)
    env.close()
    (game_id,) = env.recorded
    played = cattle(
        "play", "--preset", "micro-duel", "--seed", "77", "--agents", f"{SPREAD},{SPREAD}",
        "--db", tmp_path / "play.duckdb", "--json",
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    other = json.loads(played.stdout)["game_id"]
    with (
        DuckStore(db, read_only=True) as a,
        DuckStore(tmp_path / "play.duckdb", read_only=True) as b,
    ):
        ours, theirs = a.load_events(game_id), b.load_events(other)
    assert len(ours) > 20
    assert encode_log(ours) == encode_log(theirs)
    with DuckStore(db) as store:
        check = verify_stored(store, game_id)  # what `cattle verify` runs on each game
    assert check.ok, check.problem


def test_every_episode_of_a_learner_with_agents_verifies(tmp_path: Path) -> None:
    db = tmp_path / "env.duckdb"
    env = make_env("openspiel:kuhn_poker", seed=3, record=db, others={1: "random"})
    rng = np.random.default_rng(0)
    for _ in range(3):
        env.reset()
        for _agent in env.agent_iter():
            obs, _, done, cut, _ = env.last()
            env.step(None if done or cut else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    env.close()
    assert len(env.recorded) == 3
    with DuckStore(db) as store:
        seeds = [store.get_game(g).seed for g in env.recorded]
        checks = [verify_stored(store, g) for g in env.recorded]
        seats = store.get_game(env.recorded[0]).seats
    assert seeds == [3, 4, 5]
    assert all(c.ok for c in checks), [c.problem for c in checks]
    assert [s.agent for s in seats] == ["rl", "random"]
    assert [c.check for c in checks[0].seats] == ["legality", "rerun"]


def test_an_openspiel_episode_equals_the_driven_game_with_policy_seats() -> None:
    env = make_env("openspiel:kuhn_poker", seed=12, label=SPREAD)
    env.reset()
    _drive(env)
    record = play_game(env.config, 12, [SPREAD, SPREAD])
    assert encode_log(env.game_log) == encode_log(record.events)
    assert verify(record.events).ok


@pytest.mark.parametrize("game", ["pact", "gamebench:pit"])
def test_a_text_channel_episode_verifies(game: str, tmp_path: Path) -> None:
    db = tmp_path / "env.duckdb"
    env = make_env(game, seed=5, record=db)
    env.reset()
    answers = ["hello", "1", "pass", "A", "yes", "0"]
    for i, _agent in enumerate(env.agent_iter(3000)):
        _, _, done, cut, info = env.last()
        assert done or cut or info["text"]
        env.step(None if done or cut else answers[i % len(answers)])
    env.close()
    (game_id,) = env.recorded
    with DuckStore(db) as store:
        check = verify_stored(store, game_id)
        stored = store.load_events(game_id)
    assert check.ok, check.problem
    assert stored[-1].scores == env.game_log[-1].scores
