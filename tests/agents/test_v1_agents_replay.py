"""Games stored before the paper-calibrated agents replay exactly with the first versions.

Each fixture is a game played (and encoded) when `tracker`, `setrace` and `economy` were the
first versions. Played again live with `tracker-v1`, `setrace-v1` and `economy-v1` in those
seats, from the stored seed and configuration, it gives the stored log byte for byte; played
with today's `tracker`, `setrace` and `economy` it does not (so the check can fail).
"""

from __future__ import annotations

import gzip
from pathlib import Path
from typing import Any

import pytest

from agents import make_agent
from events.cattle.codec import decode
from events.codec import encode
from runner.driver import Game
from runner.replay import verify

DATA = Path(__file__).parent / "data"
FIXTURES = sorted(DATA.glob("v1-*.jsonl.gz"))
V1 = {"tracker": "tracker-v1", "setrace": "setrace-v1", "economy": "economy-v1"}


def _load(path: Path) -> list[Any]:
    return [decode(line) for line in gzip.decompress(path.read_bytes()).splitlines() if line]


def _replay_live(events: list[Any], names: dict[str, str]) -> list[bytes]:
    """Play the stored game again with live agents (renamed by `names`), stored seats kept."""
    start = events[0]
    agents = [
        make_agent(names.get(s.agent, s.agent), i, start.seed, start.config)
        for i, s in enumerate(start.seats)
    ]
    # By the rules version the game was played with (its log names it).
    record = Game(start.config, start.seed, agents, start.seats, version=start.engine_version).run()
    return [encode(e) for e in record.events]


def test_fixtures_are_present() -> None:
    assert len(FIXTURES) == 3


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_old_games_replay_with_first_versions(path: Path) -> None:
    events = _load(path)
    seats = {s.agent for s in events[0].seats}
    assert seats & set(V1), "the fixture seats at least one code agent"
    assert _replay_live(events, V1) == [encode(e) for e in events]
    # The stored log also verifies from its recorded actions, as any stored game does.
    assert verify(events).ok


@pytest.mark.parametrize("path", FIXTURES[1:], ids=lambda p: p.name)
def test_calibrated_agents_play_differently(path: Path) -> None:
    events = _load(path)
    assert _replay_live(events, {}) != [encode(e) for e in events]
