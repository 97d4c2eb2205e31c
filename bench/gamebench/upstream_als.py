"""Random-against-random figures of GameBench's own Air, Land and Sea program, to set beside
`bench.gamebench.random_stats` (docs/gamebench.md, Air, Land and Sea).

    uv run python -m bench.gamebench.upstream_als REPO [--commit 1b8b24e] [--games 400]

REPO is a clone of GameBench's repository (Joshuaclymer/GameBench, bare or not). The game's
files at the commit (`api/`, `games/air_land_sea/`, `agents/random_agent.py`) are copied with
`git archive` into a temporary directory, which is deleted afterwards; nothing of them enters
this repository. They run in a child process of this interpreter with one shim: Python 3.11
refuses the program's dataclass default `rules: Rules = Rules(...)` (3.10 accepted it), so
`Rules` is given the identity hash before the game is imported. Match i runs after
`random.seed(i)`; battles are counted by wrapping `battle_setup`, withdrawals by wrapping
`update` (it returns the agent that withdrew), decisions by wrapping `take_action_wrapper`;
the program's printing is discarded.
"""

from __future__ import annotations

import argparse
import io
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

CHILD = """
import contextlib, io, json, random, statistics, sys
import api.classes
api.classes.Rules.__hash__ = object.__hash__
from agents.random_agent import RandomAgent
from games.air_land_sea.game import AirLandSea

rows = []
for seed in range(int(sys.argv[1])):
    random.seed(seed)
    game = AirLandSea()
    n = {"battles": 0, "withdrawals": 0, "decisions": 0}

    def counted(method, key, when=lambda result: True):
        def wrapper(*args):
            result = method(*args)
            n[key] += bool(when(result))
            return result
        return wrapper

    game.battle_setup = counted(game.battle_setup, "battles")
    game.update = counted(game.update, "withdrawals", lambda r: r is not None)
    game.take_action_wrapper = counted(game.take_action_wrapper, "decisions")
    game.init_game(RandomAgent, RandomAgent)
    with contextlib.redirect_stdout(io.StringIO()):
        scores = game.play()
    rows.append((scores, n))
first = [s[0] for s, _ in rows]
print(json.dumps({
    "games": len(rows),
    "mean_battles": statistics.mean(n["battles"] for _, n in rows),
    "mean_withdrawals": statistics.mean(n["withdrawals"] for _, n in rows),
    "mean_decisions": statistics.mean(n["decisions"] for _, n in rows),
    "first_win_rate": sum(s > 0.5 for s in first) / len(rows),
    "draw_rate": sum(s == 0.5 for s in first) / len(rows),
    "first_mean_score": statistics.mean(first),
    "first_score_quartiles": [round(q, 4) for q in statistics.quantiles(first, n=4)],
}))
"""

PATHS = ("api", "games/air_land_sea", "agents/random_agent.py")
"""What the program needs from the repository."""


def run(repo: Path, commit: str, games: int) -> str:
    """The figures as one JSON line."""
    archive = subprocess.run(
        ["git", "-C", str(repo), "archive", "--format=tar", commit, *PATHS],
        check=True,
        capture_output=True,
    ).stdout
    with tempfile.TemporaryDirectory(prefix="gamebench-") as tmp:
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(tmp, filter="data")
        for package in ("games", "agents"):
            (Path(tmp) / package / "__init__.py").touch()
        done = subprocess.run(
            [sys.executable, "-c", CHILD, str(games)],
            cwd=tmp,
            env={"PYTHONPATH": tmp, "PATH": "/usr/bin:/bin"},
            check=True,
            capture_output=True,
            text=True,
        )
    return done.stdout.strip()


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repo", type=Path)
    parser.add_argument("--commit", default="1b8b24e")
    parser.add_argument("--games", type=int, default=400)
    args = parser.parse_args()
    print(run(args.repo, args.commit, args.games))


if __name__ == "__main__":
    main()
