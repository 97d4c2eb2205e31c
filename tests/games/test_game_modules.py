"""Game names and game modules a user gets wrong, through the real command line.

A module named in $CATTLE_GAMES that cannot be loaded costs only its own game: commands that
do not need it run as usual, and a command that asks for it stops with one line naming the
module and the reason (exit code 2), never a traceback. Built-in games load first and keep
their names. `--game` takes a game's name or alias exactly as registered.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.cli.clikit import ROOT, cattle

BROKEN = {
    "missing_module": None,
    "syntax_error": "def broken(:\n",
    "raises": "raise RuntimeError('the module fails at import')\n",
    "exits": "import sys\nsys.exit(5)\n",
    "not_a_game": "GAME = 'a string, not a GameDef'\n",
    # A second toy auction under a new name, beside the toy auction: its event tags are taken.
    "same_tags": (
        "import dataclasses\n"
        "from events.catalog import register\n"
        "from games.toy_auction import GAME as TOY\n"
        "register(TOY)\n"
        "GAME = dataclasses.replace(TOY, name='toy-copy', aliases=())\n"
    ),
    # A game claiming a built-in game's name (its tags are its own: none).
    "takes_pact": (
        "import dataclasses\n"
        "from games.toy_auction import GAME as TOY\n"
        "GAME = dataclasses.replace(TOY, name='pact', aliases=('fake-pact',), event_types=())\n"
    ),
}
REASONS = {
    "missing_module": "No module named 'missing_module'",
    "syntax_error": "SyntaxError",
    "raises": "RuntimeError: the module fails at import",
    "exits": "sys.exit(5)",
    "not_a_game": "its GAME is a str, not a GameDef",
    "same_tags": "reuses event tags of toy-auction",
    "takes_pact": "a different game is already registered as 'pact'",
}


def modules(tmp_path: Path) -> dict[str, str]:
    """The broken modules written under tmp_path; the environment that finds them."""
    for name, text in BROKEN.items():
        if text is not None:
            (tmp_path / f"{name}.py").write_text(text)
    return {"PYTHONPATH": f"{tmp_path}:{ROOT / 'tests'}"}


def one_error_line(got: subprocess.CompletedProcess[str], code: int, *phrases: str) -> None:
    assert got.returncode == code, (got.returncode, got.stdout, got.stderr)
    assert "Traceback" not in got.stderr + got.stdout
    # One message (rich may wrap it at the terminal width, never into a second message).
    text = " ".join(got.stderr.split())
    assert text.startswith("error:") and text.count("error:") == 1, got.stderr
    for phrase in phrases:
        assert phrase in text, (phrase, got.stderr)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store holding one Cattle Trade game and one PACT game."""
    db = tmp_path_factory.mktemp("store") / "games.duckdb"
    for args in (("--preset", "micro-duel"), ("--game", "pact", "--preset", "quick")):
        made = cattle("play", *args, "--seed", "3", "--db", db)
        assert made.returncode == 0, made.stderr
    return db


@pytest.mark.parametrize("module", sorted(BROKEN))
def test_a_broken_game_module_costs_only_its_own_game(
    module: str, store: Path, tmp_path: Path
) -> None:
    env = {**modules(tmp_path), "CATTLE_GAMES": module}
    # Commands that need no game of that module work, on a store and without one.
    listed = cattle("games", "--json", "--db", store, env=env)
    assert listed.returncode == 0, listed.stderr
    assert sorted(g["game"] for g in json.loads(listed.stdout)) == ["cattle-trade", "pact"]
    played = cattle("play", "--game", "pact", "--preset", "quick", "--seed", "4", "--json",
                    "--db", tmp_path / "new.duckdb", env=env)  # fmt: skip
    assert played.returncode == 0, played.stderr
    assert json.loads(played.stdout)["game"] == "pact"
    assert cattle("agents", env=env).returncode == 0
    # Asking for a game the catalogue does not know names the module and why it failed.
    asked = cattle("agents", "--game", "toy-copy", env=env)
    one_error_line(asked, 2, "unknown game 'toy-copy'", f"'{module}'", REASONS[module])


def test_a_module_cannot_take_a_built_in_games_name(tmp_path: Path) -> None:
    env = {**modules(tmp_path), "CATTLE_GAMES": "takes_pact"}
    # Asking for the module's alias first must not let it register as "pact".
    asked = cattle("agents", "--game", "fake-pact", env=env)
    one_error_line(asked, 2, "'takes_pact'", "already registered as 'pact'")
    agents = cattle("agents", "--game", "pact", env=env)
    assert agents.returncode == 0 and "anchor" in agents.stdout.split()


def test_a_working_module_is_found_beside_a_broken_one(tmp_path: Path) -> None:
    env = {**modules(tmp_path), "CATTLE_GAMES": "syntax_error,games.toy_auction"}
    agents = cattle("agents", "--game", "toy-auction", env=env)
    assert agents.returncode == 0, agents.stderr
    assert agents.stdout.split() == ["anthropic", "honest", "human", "openai", "policy", "wild"]


@pytest.mark.parametrize("name", ["", "Pact", "CATTLE-TRADE", "pact ", "[/]", "päct",
                                  "agents/pact/game.py", "agents.pact.game", "x" * 5000])  # fmt: skip
def test_a_game_name_is_taken_exactly_as_registered(name: str, tmp_path: Path) -> None:
    got = cattle("play", "--game", name, "--seed", "1", "--db", tmp_path / "g.duckdb")
    one_error_line(
        got, 2, "--game: unknown game", "known: cattle-trade, gamebench:", "openspiel, pact"
    )
    assert "x" * 100 not in got.stderr  # a long name is shortened in the message
    assert not (tmp_path / "g.duckdb").exists()


def test_an_alias_of_a_built_in_game_is_found_before_the_game_is_loaded() -> None:
    got = cattle("agents", "--game", "cattle")
    assert got.returncode == 0, got.stderr
    assert got.stdout == cattle("agents", "--game", "cattle-trade").stdout


def test_entry_points_named_otherwise_than_their_game_and_broken_ones(
    store: Path, tmp_path: Path
) -> None:
    # An installed package's entry points, as `pip install` would leave them on the path.
    info = tmp_path / "somegames-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: somegames\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[cattle.games]\ntoy = games.toy_auction\nbroken = no_such_game_module\n"
    )
    env = {"PYTHONPATH": f"{tmp_path}:{ROOT / 'tests'}"}
    # The game is found by its own name, though its entry point is called "toy".
    found = cattle("agents", "--game", "toy-auction", env=env)
    assert found.returncode == 0, found.stderr
    assert found.stdout.split() == ["anthropic", "honest", "human", "openai", "policy", "wild"]
    asked = cattle("agents", "--game", "broken", env=env)
    one_error_line(asked, 2, "unknown game 'broken'", "'no_such_game_module'")
    listed = cattle("games", "--json", "--db", store, env=env)
    assert listed.returncode == 0, listed.stderr
