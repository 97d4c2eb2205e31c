"""The GameBench games through the command line: `random` in every seat by default, the
game's code agents listed, and the tables of a store whose games rate nobody."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.clikit import cattle_many


def test_play_seats_random_by_default_and_agents_lists_the_code_agents(tmp_path: Path) -> None:
    played, pit, santorini = cattle_many(
        [
            [
                "play",
                "--game",
                "gamebench:pit",
                "--preset",
                "quick",
                "--seed",
                "4",
                "--json",
                "--db",
                str(tmp_path / "g.duckdb"),
            ],
            ["agents", "--game", "gamebench:pit"],
            ["agents", "--game", "gamebench:santorini"],
        ]
    )
    assert played.returncode == 0, played.stderr
    summary = json.loads(played.stdout)
    assert summary["game"] == "gamebench:pit"
    assert [s["agent"] for s in summary["scores"]] == ["random", "random"]
    assert abs(sum(s["score"] for s in summary["scores"]) - 1.0) < 1e-9
    # `heuristic` names each game's own heuristic (GameBench's suite); `policy` (a trained
    # policy, runner.rl) is a built-in kind of every game, as the model providers are.
    assert pit.stdout.split() == [
        "anthropic",
        "cornerer",
        "gamebench-random",
        "heuristic",
        "human",
        "openai",
        "policy",
        "random",
    ]
    assert santorini.stdout.split() == [
        "anthropic",
        "climber",
        "gamebench-random",
        "heuristic",
        "human",
        "openai",
        "policy",
        "random",
    ]
    # A finished game with one agent in every seat is no match: the tables say so, without
    # claiming that the store holds no finished game.
    db = str(tmp_path / "g.duckdb")
    family, one = cattle_many(
        [
            ["metrics", "--game", "gamebench", "--db", db],
            ["metrics", "--game", "gamebench:pit", "--db", db],
        ]
    )
    for got, what in ((family, "gamebench"), (one, "gamebench:pit")):
        assert got.returncode == 0, got.stderr
        assert got.stdout.strip() == (
            f"No match between two different agents in the 1 finished {what} game of"
            " this selection."
        ), got.stdout
