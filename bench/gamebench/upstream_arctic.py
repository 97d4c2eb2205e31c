"""Random-against-random figures of GameBench's own Arctic Scavengers program, to set beside
`bench.gamebench.random_stats` (docs/gamebench.md, Arctic Scavengers).

    uv run python -m bench.gamebench.upstream_arctic REPO [--commit 92a1cea] [--games 300]

REPO is a clone of GameBench's repository (Joshuaclymer/GameBench, bare or not). The game's
files at the commit (`api/`, `games/arctic_scavengers/`, `agents/random_agent.py`) are copied
with `git archive` into a temporary directory, which is deleted afterwards; nothing of them
enters this repository. They run in a child process of this interpreter with one shim:
Python 3.11 refuses the program's dataclass default `rules: Rules = Rules(...)` (3.10
accepted it), so `Rules` is given the identity hash before the game is imported. Match i runs
after `random.seed(i)` with GameBench's `RandomAgent` in both places; decisions are counted
by wrapping each agent's `take_action`; after `play` the people in each player's last hand
(`calculate_people`, which names the winner) and on all its cards are read from the players
(the people figures are sums over both players, as `random_stats` counts them).
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
from games.arctic_scavengers.arctic_scavengers import ArcticScavengers

def people(cards):
    return sum(c.tribe_members or 0 for c in cards)

rows = []
for seed in range(int(sys.argv[1])):
    random.seed(seed)
    game = ArcticScavengers()
    game.init_game(RandomAgent, RandomAgent)
    n = {"decisions": 0}
    for agent in game.agents:
        def counted(*args, _take=agent.take_action, **kwargs):
            n["decisions"] += 1
            return _take(*args, **kwargs)
        object.__setattr__(agent, "take_action", counted)
    with contextlib.redirect_stdout(io.StringIO()):
        scores = game.play()
    hands = [people(p.cards["draw"]) for p in game.players]
    tribes = [people(p.cards["draw"] + p.cards["deck"]) for p in game.players]
    rows.append((scores, n["decisions"], hands, tribes))
first = [s[0] for s, _, _, _ in rows]
print(json.dumps({
    "games": len(rows),
    "mean_decisions": statistics.mean(d for _, d, _, _ in rows),
    "first_win_rate": sum(s > 0.5 for s in first) / len(rows),
    "last_hands_tied": sum(h[0] == h[1] for _, _, h, _ in rows) / len(rows),
    "last_hands_both_empty": sum(h == [0, 0] for _, _, h, _ in rows) / len(rows),
    "mean_last_hand_people": statistics.mean(sum(h) for _, _, h, _ in rows),
    "mean_tribe_people": statistics.mean(sum(t) for _, _, _, t in rows),
    "largest_tribe_first_wins": sum(t[0] > t[1] for _, _, _, t in rows) / len(rows),
}))
"""

PATHS = ("api", "games/arctic_scavengers", "agents/random_agent.py")
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
    parser.add_argument("--commit", default="92a1cea")
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args()
    print(run(args.repo, args.commit, args.games))


if __name__ == "__main__":
    main()
