"""A person in a tournament at the terminal learns nothing of its seed before the games are
over: every deal follows from it. Not from the plan printed before the first decision, not
from the default name (nor the game ids made from it); it is printed once no game is left."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from events.store import DuckStore
from tests.cli.clikit import ENV, ROOT

SEED = 424_242


def tournament(db: Path, stdin: str, *extra: str) -> subprocess.CompletedProcess[str]:
    args = ["tournament", "--game", "openspiel", "--preset", "kuhn_poker", "--games", "2"]
    args += ["--agents", "human,random", "--db", str(db), *extra]
    return subprocess.run(
        [sys.executable, "-m", "cli.main", *args],
        cwd=ROOT, env=ENV, input=stdin, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def names(db: Path) -> tuple[list[str], list[str]]:
    with DuckStore(db) as store:
        _, tours = store.query("SELECT name FROM tournaments")
        _, ids = store.query("SELECT game_id FROM games")
    return [t[0] for t in tours], [g[0] for g in ids]


def test_the_seed_is_told_only_once_every_game_is_played(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    left = tournament(db, "", "--seed", str(SEED), "--init")  # input ends at once: exit 4
    assert left.returncode == 4, left.stderr
    assert str(SEED) not in left.stdout + left.stderr
    assert "The seed is shown once every game has been played" in left.stdout
    (name,), ids = names(db)
    assert str(SEED) not in name and not any(str(SEED) in i for i in ids)
    again = subprocess.run(
        [sys.executable, "-m", "cli.main", "tournament", "--resume", name, "--db", str(db)],
        cwd=ROOT, env=ENV, input="1\n" * 20, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert str(SEED) not in again.stderr  # the person's panels
    *before, last = again.stdout.strip().splitlines()
    assert not any(str(SEED) in line for line in before)
    assert re.search(rf"\bSeed {SEED}\b", last), again.stdout


def test_default_names_of_two_games_do_not_collide(tmp_path: Path) -> None:
    """The same seed and size for two games in one store: two tournaments, no refusal."""
    db = tmp_path / "two.duckdb"
    for preset in ("kuhn_poker", "tic_tac_toe"):
        args = ["tournament", "--game", "openspiel", "--preset", preset, "--games", "2"]
        args += ["--agents", "random,random:b", "--seed", "5", "--quiet", "--db", str(db)]
        done = subprocess.run(
            [sys.executable, "-m", "cli.main", *args],
            cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
    tours, _ = names(db)
    assert len(set(tours)) == 2, tours
    assert all("5" not in t.split("-")[-1] for t in tours)
