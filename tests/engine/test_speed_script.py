"""bench/speed.py, the script behind the speed figures, runs and reports every figure asked."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def speed(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "bench/speed.py", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_speed_script_prints_each_figure_asked_as_json() -> None:
    done = speed("--only", "engine,play,replay,verify", "--games", "3", "--json")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    # replay and verify read what the tournament figure stored, so it runs too
    for key in (
        "engine_games_per_s",
        "play_games_per_s",
        "tournament_games_per_s",
        "replay_events_per_s",
        "verify_ms_per_game",
        "verify_one_ms_per_game",
    ):
        assert figures[key] > 0, key
    assert 100 < figures["events_per_game"] < 10_000
    assert "help_s" not in figures and "workers_speedup" not in figures


def test_the_speed_script_refuses_an_unknown_figure() -> None:
    done = speed("--only", "engine,warp")
    assert done.returncode == 2
    assert "unknown figure(s): warp" in done.stderr


def _fake_peer(root: Path) -> Path:
    """A stand-in for the peer engine: the names the script imports, each game over at once."""
    (root / "gameengine").mkdir()
    (root / "gameengine" / "__init__.py").write_text(
        "class _Phase:\n"
        "    name = 'GAME_OVER'\n\n"
        "class Game:\n"
        "    def __init__(self, num_players, seed):\n"
        "        self.phase = _Phase()\n"
        "        self.players = []\n\n"
        "    def setup(self):\n"
        "        pass\n\n"
        "    def is_game_over(self):\n"
        "        return True\n"
    )
    (root / "gameengine" / "controller.py").write_text(
        "class GameController:\n"
        "    def __init__(self, game, agents):\n"
        "        self.game = game\n\n"
        "    def run(self, max_turns):\n"
        "        return sum(range(20_000))\n"
    )
    (root / "rl" / "agents").mkdir(parents=True)
    (root / "rl" / "__init__.py").write_text("")
    (root / "rl" / "agents" / "__init__.py").write_text("")
    (root / "rl" / "agents" / "random_agent.py").write_text(
        "class RandomAgent:\n"
        "    def __init__(self, name):\n"
        "        self.name = name\n\n"
        "    def get_action(self, game, valid):\n"
        "        return valid[0]\n"
    )
    return root


def _fingerprint(peer: Path) -> str:
    done = subprocess.run(
        [sys.executable, "bench/peer.py", str(peer), "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    digest: str = json.loads(done.stdout)["digest"]
    return digest


def test_the_speed_script_refuses_a_peer_that_is_not_the_canonical_one(tmp_path: Path) -> None:
    peer = _fake_peer(tmp_path)
    done = speed("--peer", str(peer), "--only", "engine", "--games", "2")
    assert done.returncode == 2
    # the fingerprint it checked is named, beside the one it wanted
    assert f"digest {_fingerprint(peer)}" in done.stderr
    assert "not the canonical peer's 82e0e307b10a29c2" in done.stderr
    assert "Speed:" not in done.stdout  # nothing was timed


def test_a_peer_that_cannot_be_played_is_refused_with_its_error(tmp_path: Path) -> None:
    peer = _fake_peer(tmp_path)
    (peer / "gameengine" / "controller.py").write_text("raise ImportError('no controller here')\n")
    done = speed("--peer", str(peer), "--only", "engine", "--games", "2")
    assert done.returncode == 2
    assert "the peer did not play its games" in done.stderr
    assert "no controller here" in done.stderr


def speed_accepting(fingerprint: str, *args: str) -> subprocess.CompletedProcess[str]:
    """bench/speed.py with `fingerprint` taken for the canonical one (to time a stand-in)."""
    code = (
        "import sys, runpy; import bench.peer as p;"
        f" p.CANONICAL = {fingerprint!r}; sys.argv = ['bench/speed.py', *sys.argv[1:]];"
        " runpy.run_path('bench/speed.py', run_name='__main__')"
    )
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_rounds_give_each_ratio_per_round_and_their_median(tmp_path: Path) -> None:
    peer = _fake_peer(tmp_path)
    done = speed_accepting(
        _fingerprint(peer),
        "--peer", str(peer), "--rounds", "2", "--clock", "cpu", "--only", "engine",
        "--games", "2", "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["clock"] == "cpu"
    rounds = figures["engine_vs_peer_rounds"]
    assert len(rounds) == 2
    assert figures["engine_vs_peer_min"] == min(rounds)
    assert figures["engine_vs_peer_max"] == max(rounds)
    assert min(rounds) <= figures["engine_vs_peer"] <= max(rounds)
    assert figures["peer_finished"] == 1.0
    assert figures["peer_digest"] == _fingerprint(peer)


def test_the_tournament_figure_plays_the_engine_figures_seats(tmp_path: Path) -> None:
    # The tournament, replay and verify figures time the games the engine figure and the
    # peer play: every seat the script's agent, the schedule stored as a tournament's is.
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from bench import speed as script
    from engine.cattle.presets import load_preset
    from events.store import DuckStore
    from runner.verify import checks_of, jobs

    db = tmp_path / "t.duckdb"
    assert script.tournament_path(load_preset("standard"), 3, db) > 0
    with DuckStore(db, read_only=True) as store:
        games = store.list_games()
        assert len(games) == 3
        assert {tuple(s.agent for s in g.seats) for g in games} == {tuple(script.SPECS)}
        ids = [g.game_id for g in games]
        assert all(c.ok for c in checks_of(store, jobs(store, ids), workers=1))
