"""Games stored with earlier versions of the code agents replay exactly with those versions.

Each fixture is a game played (and encoded) when `tracker`, `setrace` and `economy` were the
first (`v1-*`), second (`v2-*`) or third (`v3-*`) versions. Played again live with `tracker-vN`, `setrace-vN`
and `economy-vN` in those seats, from the stored seed and configuration, it gives the stored
log byte for byte; played with today's `tracker`, `setrace` and `economy` it does not (so the
check can fail).
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
FIXTURES = sorted(DATA.glob("v[123]-*.jsonl.gz"))


def _versions(path: Path) -> dict[str, str]:
    """The agents a fixture's seats name, mapped to the version they were played with."""
    v = path.name.split("-", 1)[0]
    return {a: f"{a}-{v}" for a in ("tracker", "setrace", "economy")}


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
    assert len(FIXTURES) == 9


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_old_games_replay_with_their_versions(path: Path) -> None:
    events = _load(path)
    seats = {s.agent for s in events[0].seats}
    names = _versions(path)
    assert seats & set(names), "the fixture seats at least one code agent"
    assert _replay_live(events, names) == [encode(e) for e in events]
    # The stored log also verifies from its recorded actions, as any stored game does.
    assert verify(events).ok


@pytest.mark.parametrize(
    "path", [p for p in FIXTURES if "micro-duel" not in p.name], ids=lambda p: p.name
)
def test_calibrated_agents_play_differently(path: Path) -> None:
    events = _load(path)
    assert _replay_live(events, {}) != [encode(e) for e in events]
