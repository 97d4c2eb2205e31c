"""PACT through the command line: play, tournament, games, show, sql, ratings, metrics, report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.clikit import cattle


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store holding a 24-game PACT tournament and one Cattle Trade game."""
    path = tmp_path_factory.mktemp("pact") / "pact.duckdb"
    got = cattle("tournament", "--game", "pact", "--agents", "truthful,anchor,mirror,random",
                 "--games", "24", "--seed", "3", "--name", "haggle", "--quiet", "--db", path)  # fmt: skip
    assert got.returncode == 0, got.stderr
    assert "Tournament haggle: pact, duplicate, 24 standard games" in got.stdout
    assert cattle("demo", "--seed", "1", "--db", path).returncode == 0
    return path


def test_play_json_names_buyer_and_seller(tmp_path: Path) -> None:
    got = cattle("play", "--game", "pact", "--agents", "anchor,mirror", "--seed", "9", "--json",
                 "--db", tmp_path / "p.duckdb")  # fmt: skip
    assert got.returncode == 0, got.stderr
    summary = json.loads(got.stdout)
    assert {"game_id", "seed", "scores"} <= set(summary)
    assert summary["seed"] == 9 and summary["game"] == "pact"
    assert [(s["seat"], s["agent"]) for s in summary["scores"]] == [(0, "anchor"), (1, "mirror")]
    assert sorted(s["rank"] for s in summary["scores"]) in ([1, 2], [1, 1])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--mode", "fast"], "--mode is a Cattle Trade option"),
        (["--preset", "marathon"], "unknown preset 'marathon' for pact"),
        (["--agents", "tracker,anchor"], "unknown agent 'tracker' for pact"),
        (["--agents", "anchor,mirror,truthful"], "--agents needs 2"),
        (["--game", "chess"], "unknown game 'chess'"),
    ],
)
def test_wrong_pact_arguments_are_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    base = ["play", "--game", "pact", "--db", str(tmp_path / "p.duckdb")]
    got = cattle(*base, *args)
    assert got.returncode == 2, got.stderr
    assert message in got.stderr and "Traceback" not in got.stderr


def test_a_config_file_of_the_game(tmp_path: Path) -> None:
    good = tmp_path / "short.json"
    good.write_text(json.dumps({"rounds": 3, "name": "short"}))
    got = cattle("play", "--game", "pact", "--preset-file", good, "--json", "--db",
                 tmp_path / "p.duckdb")  # fmt: skip
    assert got.returncode == 0, got.stderr
    assert json.loads(got.stdout)["rounds"] == 3
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"rounds": "many"}))
    got = cattle("play", "--game", "pact", "--preset-file", bad, "--db", tmp_path / "p.duckdb")
    assert got.returncode == 2 and "not a pact configuration" in got.stderr


def test_games_list_the_game_of_each(db: Path) -> None:
    every = json.loads(cattle("games", "--json", "--limit", "0", "--db", db).stdout)
    assert sorted({g["game"] for g in every}) == ["cattle-trade", "pact"]
    pact = json.loads(
        cattle("games", "--game", "pact", "--json", "--limit", "0", "--db", db).stdout
    )
    assert len(pact) == 24 and all(g["mode"] is None for g in pact)


def test_show_and_sql_views(db: Path) -> None:
    gid = json.loads(cattle("games", "--game", "pact", "--json", "--db", db).stdout)[0]["game_id"]
    shown = cattle("show", gid, "--seat", "0", "--db", db).stdout
    assert "the buyer, has a private value" in shown and "private cost" not in shown
    rows = json.loads(
        cattle(
            "sql",
            "SELECT count(*) AS n, count(DISTINCT game_id) AS g FROM pact_rounds",
            "--format",
            "json",
            "--db",
            db,
        ).stdout
    )
    assert rows == [{"n": 24 * 20, "g": 24}]


def test_ratings_one_game_at_a_time(db: Path) -> None:
    mixed = cattle("ratings", "--db", db)
    assert mixed.returncode == 2 and "pick one with --game" in mixed.stderr
    rated = json.loads(cattle("ratings", "--game", "pact", "--json", "--db", db).stdout)
    assert sorted(r["agent"] for r in rated) == ["anchor", "mirror", "random", "truthful"]
    assert all(r["games"] == 12 for r in rated)


def test_metrics_and_report(db: Path, tmp_path: Path) -> None:
    got = cattle("metrics", "--game", "pact", "--resamples", "100", "--json", "--db", db)
    assert got.returncode == 0, got.stderr
    doc = json.loads(got.stdout)
    assert doc["games"] == 24
    assert sorted(a["agent"] for a in doc["agents"]) == ["anchor", "mirror", "random", "truthful"]
    table = cattle(
        "metrics", "--game", "pact", "--resamples", "100", "--db", db, env={"COLUMNS": "80"}
    )
    assert table.returncode == 0 and "CMS" in table.stdout
    assert max(len(line) for line in table.stdout.splitlines()) <= 80
    # Cattle Trade's table counts its own game only.
    cattle_doc = json.loads(cattle("metrics", "--json", "--resamples", "50", "--db", db).stdout)
    assert sorted(d["agent"] for d in cattle_doc) == ["economy", "random", "setrace", "tracker"]

    page = tmp_path / "pact.html"
    got = cattle("report", "--game", "pact", "--resamples", "100", "--out", page, "--db", db)
    assert got.returncode == 0, got.stderr
    text = page.read_text()
    assert 'id="pact"' in text and "Composite Model Score" in text
