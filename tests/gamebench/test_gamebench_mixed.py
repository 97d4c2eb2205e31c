"""All four GameBench games in one store, played as tournaments of code agents through the
command line (the random baseline against each game's heuristic), verified offline, then
rated together with Bradley-Terry, every game weighing the same. The ratings are checked
against `projections.bradley_terry.rate` over match records rebuilt here from the stored
`game_ended` scores."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from events.store import DuckStore
from projections import bradley_terry
from tests.cli.clikit import cattle

TOURNAMENTS = (
    ("gamebench:pit", "standard", "random,cornerer", 6),
    ("gamebench:santorini", "standard", "random,climber", 4),
    ("gamebench:codenames", "standard", "random,associate", 2),
    ("gamebench:sea_battle", "quick", "random,broadside", 2),
)
"""(game, preset, agents, games): the random baseline meets every game's heuristic, in
unequal numbers of games so that weighing each game the same matters."""
SAMPLES = 60


def records_from_sql(db: Path) -> list[dict[str, Any]]:
    """One record per finished game, in game-id order: the agents filling the two halves of
    the table and their shares of the two sides' match scores (every GameBench game seats two
    sides: one seat each in Pit and Santorini, a team each in Codenames and Sea Battle)."""
    with DuckStore(db, read_only=True) as store:
        _, rows = store.query(
            "SELECT g.game_id, g.game, list(s.agent ORDER BY s.seat), any_value(e.payload)"
            " FROM games g JOIN seats s USING (game_id)"
            " JOIN events e ON e.game_id = g.game_id AND e.type = 'game_ended'"
            " WHERE g.status = 'finished' GROUP BY g.game_id, g.game ORDER BY g.game_id"
        )
    out = []
    for _, game, agents, payload in rows:
        scores = json.loads(payload)["scores"]
        half = len(agents) // 2
        assert len(set(agents[:half])) == len(set(agents[half:])) == 1, agents
        a, b = agents[0], agents[half]
        sa, sb = scores[0], scores[half]
        assert scores == [sa] * half + [sb] * half
        share = 0.5 if sa + sb <= 0 else sa / (sa + sb)
        out.append({"game": game, a: share, b: 1.0 - share})
    return out


def test_four_games_in_one_store_rated_together(tmp_path: Path) -> None:
    db = tmp_path / "mixed.duckdb"
    for game, preset, agents, games in TOURNAMENTS:
        got = cattle("tournament", "--game", game, "--preset", preset, "--agents", agents,
                     "--games", str(games), "--seed", "3", "--name", game.split(":")[1],
                     "--quiet", "--db", db)  # fmt: skip
        assert got.returncode == 0, got.stderr
    checked = cattle("verify", "--all", "--db", db)
    assert checked.returncode == 0, checked.stdout[-2000:]
    rated = cattle("ratings", "--method", "bt", "--bootstrap", str(SAMPLES), "--json", "--db", db)
    assert rated.returncode == 0, rated.stderr
    table = {r["agent"]: r for r in json.loads(rated.stdout)}

    records = records_from_sql(db)
    assert Counter(r["game"] for r in records) == {t[0]: t[3] for t in TOURNAMENTS}
    # The random agent plays in every game, each heuristic in its own game only.
    heuristic = {t[2].split(",")[1]: t[3] for t in TOURNAMENTS}
    assert set(table) == {"random", *heuristic}
    assert table["random"]["pairs"] == sum(heuristic.values())
    assert all(table[a]["pairs"] == n for a, n in heuristic.items())
    # Each game weighs the same in the bootstrap, whatever its number of records.
    weights = bradley_terry.game_weights([str(r["game"]) for r in records])
    per_game = Counter[str]()
    for r, w in zip(records, weights, strict=True):
        per_game[str(r["game"])] += w
    assert list(per_game.values()) == pytest.approx([1.0] * len(TOURNAMENTS))

    expected = bradley_terry.rate(records, samples=SAMPLES, seed=0)
    assert set(expected) == set(table)
    for agent, want in expected.items():
        for key in ("point", "mean", "p5", "p95"):
            assert table[agent][key] == pytest.approx(want[key], abs=1e-9), (agent, key)
    # Every heuristic beats the random baseline across the four games.
    assert table["random"]["mean"] == min(r["mean"] for r in table.values())
