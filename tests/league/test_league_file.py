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
