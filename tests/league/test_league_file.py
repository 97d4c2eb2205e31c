"""A league file is checked before anything is stored, and a running league refuses the
changes it cannot take (its seed, a game's preset, an agent's identity in a game)."""

from __future__ import annotations

from pathlib import Path

import pytest

from events.store import DuckStore
from runner import league as L

HEAD = '[league]\nname = "f"\nseed = 1\nround_games = 2\n'
GAME = '[[games]]\ngame = "pact"\npreset = "quick"\n'
AGENTS = '[[agents]]\nname = "rnd"\nspec = "random"\n[[agents]]\nname = "bot"\nspec = "truthful"\n'


def _agent(name: str, extra: str = "", spec: str = "random") -> str:
    return f'[[agents]]\nname = {name}\nspec = "{spec}"\n{extra}'


OTHER = _agent('"bot"', spec="truthful")


@pytest.mark.parametrize(
    ("text", "says"),
    [
        # Wrong types: each one a reason, not a crash nor a value stored that cannot be read.
        (HEAD.replace("seed = 1", "seed = true") + GAME + AGENTS, "league.seed"),
        (HEAD.replace("seed = 1", "seed = -5") + GAME + AGENTS, "league.seed"),
        (HEAD.replace('name = "f"', "name = 5") + GAME + AGENTS, "league.name"),
        (HEAD.replace('name = "f"', 'name = "a/b"') + GAME + AGENTS, "league.name"),
        (HEAD + "calibration = true\n" + GAME + AGENTS, "league.calibration"),
        (HEAD + 'person_timeout = "x"\n' + GAME + AGENTS, "person_timeout"),
        (HEAD + "person_timeout = -1\n" + GAME + AGENTS, "person_timeout"),
        (HEAD + "person_timeout = nan\n" + GAME + AGENTS, "person_timeout"),
        (HEAD + "reference = 5\n" + GAME + AGENTS, "league.reference"),
        (HEAD + 'reference = "rnd"\n' + GAME + AGENTS, "league.reference"),
        (HEAD + GAME + 'weight = "x"\n' + AGENTS, "weight"),
        (HEAD + GAME + 'duplicate = "no"\n' + AGENTS, "duplicate"),
        (HEAD + '[games]\ngame = "pact"\n' + AGENTS, "[[games]]"),
        (HEAD + GAME + _agent("7") + OTHER, "name"),
        (HEAD + GAME + _agent('"a+b"') + OTHER, "name"),
        (HEAD + GAME + _agent('"a/b"') + OTHER, "name"),
        (HEAD + GAME + _agent('"Bot"') + OTHER, "share a name"),
        (HEAD + GAME + '[[agents]]\nname = "x"\nspec = 5\n' + OTHER, "spec must be text"),
        (HEAD + GAME + '[[agents]]\nname = "x"\nspecs = "random"\n' + OTHER, "specs"),
        (HEAD + GAME + _agent('"x"', 'specs = { pcat = "random" }\n') + OTHER, "pcat"),
        (HEAD + GAME + AGENTS + 'cost_per_day = "x"\n', "cost_per_day"),
        (HEAD + GAME + AGENTS + "cost_per_day = -3\n", "cost_per_day"),
        (HEAD + GAME + AGENTS + "cost_per_day = nan\n", "cost_per_day"),
        (HEAD + GAME + AGENTS + "price = [1]\n", "price"),
        (HEAD + GAME + AGENTS + 'price = "x"\n', "price"),
        (HEAD + GAME + AGENTS + "price = [-1, -1]\n", "price"),
        # Sizes that would make a round endless or a stored priority infinite.
        (HEAD.replace("round_games = 2", "round_games = 10000000000") + GAME + AGENTS, "10,000"),
        (HEAD + GAME + "weight = 1e308\n" + AGENTS, "weight"),
        (HEAD + "calibration = 100000000\n" + GAME + AGENTS, "calibration"),
    ],
)
def test_a_careless_file_is_refused_with_its_reason(tmp_path: Path, text: str, says: str) -> None:
    path = tmp_path / "f.toml"
    path.write_text(text)
    with pytest.raises(L.LeagueError) as got:
        L.read_file(path)
    assert says in str(got.value)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (HEAD + "sede = 2\n" + GAME + AGENTS, "unknown key(s) sede"),
        (HEAD + GAME + AGENTS + "calls_per_dya = 3\n", "unknown key(s) calls_per_dya"),
        (HEAD + AGENTS, "no [[games]]"),
        (HEAD + GAME + AGENTS + '[[agents]]\nname = "t"\nspec = "tracker"\n', "plays none"),
        (HEAD + GAME + AGENTS + '[[agents]]\nname = "r2"\nspec = "random"\n', "same agent"),
        (HEAD + GAME + AGENTS + '[[agents]]\nname = "rnd"\nspec = "anchor"\n', "share a name"),
        (HEAD + 'reference = ["nobody"]\n' + GAME + AGENTS, "unknown agents: nobody"),
        (HEAD + GAME + '[[agents]]\nname = "x"\nspecs = { pact = "tracker" }\n', "tracker"),
    ],
)
def test_a_bad_file_is_refused_with_its_reason(tmp_path: Path, text: str, says: str) -> None:
    path = tmp_path / "f.toml"
    path.write_text(text)
    with pytest.raises(L.LeagueError) as got:
        L.read_file(path)
    assert says in str(got.value)


def test_a_running_league_keeps_its_seed_and_presets(tmp_path: Path) -> None:
    path = tmp_path / "f.toml"
    path.write_text(HEAD + GAME + AGENTS)
    db = tmp_path / "f.duckdb"
    with DuckStore(db) as store:
        L.run(store, path, games=2, day=lambda: "2026-12-07")
        for text, says in (
            (HEAD.replace("seed = 1", "seed = 2") + GAME + AGENTS, "seed"),
            (HEAD + GAME.replace("quick", "standard") + AGENTS, "one configuration per game"),
            (HEAD + GAME + AGENTS.replace('"truthful"', '"anchor"'), "another name"),
        ):
            path.write_text(text)
            with pytest.raises(L.LeagueError) as got:
                L.run(store, path, games=4, day=lambda: "2026-12-07")
            assert says in str(got.value)


def test_an_agent_taken_out_keeps_its_identity_when_it_comes_back(tmp_path: Path) -> None:
    path = tmp_path / "f.toml"
    third = '[[agents]]\nname = "third"\nspec = "anchor"\n'
    path.write_text(HEAD + GAME + AGENTS + third)
    db = tmp_path / "f.duckdb"
    with DuckStore(db) as store:
        L.run(store, path, games=2, day=lambda: "2026-12-07")
        # bot leaves the file for a while ...
        path.write_text(HEAD + GAME + '[[agents]]\nname = "rnd"\nspec = "random"\n' + third)
        L.run(store, path, games=4, day=lambda: "2026-12-07")
        # ... and comes back as another agent under its old name: the table would merge them.
        path.write_text(HEAD + GAME + AGENTS.replace('"truthful"', '"mirror"') + third)
        with pytest.raises(L.LeagueError) as got:
            L.run(store, path, games=6, day=lambda: "2026-12-07")
        assert "another name" in str(got.value)
        # Nor does another name take over bot's agent (and with it bot's games on the table).
        path.write_text(HEAD + GAME + AGENTS.replace('"bot"', '"newbot"') + third)
        with pytest.raises(L.LeagueError) as got:
            L.run(store, path, games=6, day=lambda: "2026-12-07")
        assert "rates as bot" in str(got.value)
