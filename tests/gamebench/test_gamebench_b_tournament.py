"""Short GameBench tournaments through the real command line: two code agents a game in the
`teams` format, every game verified offline, then bootstrapped Bradley-Terry ratings over both
games (each game weighing the same, as GameBench rates)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from events.store import DuckStore
from tests.cli.clikit import cattle

TOURNAMENTS = {
    "cn": ("gamebench:codenames", "standard", "random,associate"),
    "sb": ("gamebench:sea_battle", "quick", "random,broadside"),
}


def test_team_tournaments_verify_and_rate(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    # A single game without --agents seats the random agent everywhere.
    one = cattle("play", "--game", "gamebench:codenames", "--seed", "1", "--json", "--db", db)
    assert one.returncode == 0, one.stderr
    assert [s["agent"] for s in json.loads(one.stdout)["scores"]] == ["random"] * 4
    for name, (game, preset, agents) in TOURNAMENTS.items():
        got = cattle("tournament", "--game", game, "--preset", preset, "--agents", agents,
                     "--games", "8", "--seed", "2", "--name", name, "--quiet", "--db", db)  # fmt: skip
        assert got.returncode == 0, got.stderr
    with DuckStore(db) as store:
        _, rows = store.query(
            "SELECT g.game_id, list(r.agent ORDER BY r.seat), list(r.score ORDER BY r.seat)"
            " FROM games g JOIN results r USING (game_id) GROUP BY g.game_id"
        )
    assert len(rows) == 17
    for _, seated, scores in rows:
        half = len(seated) // 2
        if set(seated) == {"random"}:
            continue  # the single game above
        # Each agent fills one team; each member carries the team's score in [0, 1].
        assert len(set(seated[:half])) == len(set(seated[half:])) == 1
        assert len(set(scores[:half])) == len(set(scores[half:])) == 1
        assert 0 <= scores[0] <= 1 and scores[0] + scores[half] == pytest.approx(1)
    checked = cattle("verify", "--all", "--db", db)
    assert checked.returncode == 0, checked.stdout[-2000:]
    rated = cattle("ratings", "--method", "bt", "--bootstrap", "100", "--json", "--db", db)
    assert rated.returncode == 0, rated.stderr
    table = {r["agent"]: r for r in json.loads(rated.stdout)}
    assert table["random"]["mean"] < min(table["associate"]["mean"], table["broadside"]["mean"])
    # One pairwise record per game: a team game is one match between two agents.
    assert table["random"]["pairs"] == 16 and table["associate"]["pairs"] == 8
