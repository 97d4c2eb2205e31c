"""A trained policy in the seats: `policy:MODULE:CALLABLE` plays in a tournament, and the
tournament's games verify where the policy's module cannot be imported."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agents import UnknownAgent, make_agent, parse_spec
from events import catalog
from events.store import DuckStore
from runner.rl.policy import PolicySpecError
from tests.cli.clikit import cattle

POLICY = '''
import numpy as np

def act(observation, info):
    """Always the highest legal id (in Kuhn poker: bet or call)."""
    return int(np.flatnonzero(observation["action_mask"])[-1])
'''


def test_a_policy_seat_plays_a_tournament_whose_games_verify_without_it(tmp_path: Path) -> None:
    (tmp_path / "trained_kuhn.py").write_text(POLICY)
    db = tmp_path / "t.duckdb"
    played = cattle(
        "tournament", "--game", "openspiel:kuhn_poker", "--agents",
        "policy:trained_kuhn:act,random", "--games", "4", "--quiet", "--db", db,
        env={"PYTHONPATH": str(tmp_path)},
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    checked = cattle("verify", "--all", "--json", "--db", db)  # no PYTHONPATH: no policy
    assert checked.returncode == 0, checked.stdout + checked.stderr
    verdicts = json.loads(checked.stdout)
    games = verdicts if isinstance(verdicts, list) else verdicts["games"]
    assert len(games) == 4
    with DuckStore(db, read_only=True) as store:
        rows = store.list_games(None)
    seated = [s.agent for r in rows for s in r.seats]
    assert seated.count("policy:trained_kuhn:act") == 4  # a seat in each game


def test_a_policy_spec_is_checked_before_its_module_is_needed() -> None:
    game = catalog.get("cattle-trade")
    assert parse_spec("policy:some.module:act", game).agent == "policy:some.module:act"
    for bad in ("policy:", "policy:mod", "policy:mod:1x", "policy:a b:act"):
        with pytest.raises((UnknownAgent, PolicySpecError)):
            parse_spec(bad, game)
    with pytest.raises(PolicySpecError, match="cannot load"):
        make_agent("policy:no_such_module_here:act", 0, 1, game.preset("micro-duel"))
