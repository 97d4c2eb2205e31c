"""Golden playthroughs: recorded actions must reproduce the recorded events and observations."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from playthrough import MODES, PRESETS, actions_of, config_for, load, observations, path_for, play

from events import encode
from runner.replay import verify

CASES = [(p, m) for p in PRESETS for m in MODES]


@pytest.mark.parametrize(("preset", "mode"), CASES, ids=[f"{p}-{m}" for p, m in CASES])
def test_playthrough(preset: str, mode: str) -> None:
    doc = load(path_for(preset, mode))
    config = config_for(preset, mode)
    events = play(config, doc["seed"], actions_of(doc))
    got = [encode(e).decode() for e in events]
    for i, (want, have) in enumerate(zip(doc["events"], got, strict=False)):
        assert have == want, (
            f"event {i} differs (regenerate with tests/golden/regenerate.py if intended)"
        )
    assert len(got) == len(doc["events"])
    obs = [json.dumps(o, sort_keys=True) for o in observations(events, config.players)]
    assert obs == doc["observations"]
    assert verify(events).ok


def test_golden_observations_hide_private_cards() -> None:
    """In the golden files, a seat's money cards appear only in its own observation."""
    doc = load(path_for("standard", "canonical"))
    for line in doc["observations"]:
        obs = json.loads(line)
        for p in obs["players"]:
            assert set(p) == {
                "seat",
                "animals",
                "money_cards",
                "sets",
                "revealed_money",
                "revealed_turn",
            }
