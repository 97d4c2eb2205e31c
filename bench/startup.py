"""Benchmark: start-up of the common `cattle` commands, as real processes.

Each command runs `--runs` times as `python -m cli ...` against a small store made first in a
temporary directory (one Cattle Trade game, one PACT game); prints the median wall time of
each, in seconds, and the mean over the commands. Prints (never asserts). `--root` times the
checkout at that path with its own `.venv` instead (compare two versions on the same machine).
Run: uv run python -m bench.startup [--runs 7] [--root PATH] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

COMMANDS: dict[str, list[str]] = {
    "help": ["--help"],
    "play": ["play", "--seed", "7", "--preset", "micro-duel", "--agents", "random,random"],
    "games": ["games"],
    "show": ["show", "{game}"],
    "sql": ["sql", "SELECT count(*) FROM events"],
    "verify": ["verify", "--all"],
    "tournament": ["tournament", "--agents", "random,tracker", "--games", "2", "--seed", "3"],
}
"""The commands timed, by label; `{game}` stands for the stored Cattle Trade game's id."""


def run(python: str, root: Path, args: list[str], db: Path) -> float:
    """Wall time of one `cattle ARGS` process, in seconds; it must succeed."""
    env = {**os.environ, "CATTLE_DB": str(db), "COLUMNS": "80", "NO_COLOR": "1"}
    start = time.perf_counter()
    done = subprocess.run(
        [python, "-m", "cli", *args], cwd=root, env=env, capture_output=True, text=True
    )
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"`cattle {' '.join(args)}` failed: {done.stderr.strip()}")
    return took


def main() -> None:
    """Time each command and print the medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--root", type=Path, default=ROOT)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    root = args.root.resolve()
    python = str(root / ".venv" / "bin" / "python") if args.root != ROOT else sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.duckdb"
        setup = [python, "-m", "cli", "play", "--seed", "1", "--preset", "micro-duel", "--json"]
        env = {**os.environ, "CATTLE_DB": str(db)}
        out = subprocess.run(setup, cwd=root, env=env, capture_output=True, text=True, check=True)
        game = json.loads(out.stdout)["game_id"]
        pact = [python, "-m", "cli", "play", "--game", "pact", "--seed", "2"]
        subprocess.run(pact, cwd=root, env=env, capture_output=True, check=True)
        medians: dict[str, float] = {}
        for label, command in COMMANDS.items():
            argv = [a.replace("{game}", game) for a in command]
            if label == "tournament":
                times = []
                for i in range(args.runs):
                    named = [*argv, "--name", f"bench-{i}"]
                    times.append(run(python, root, named, db))
            else:
                times = [run(python, root, argv, db) for _ in range(args.runs)]
            medians[label] = statistics.median(times)
    mean = statistics.fmean(medians.values())
    if args.json:
        print(json.dumps({"median_seconds": medians, "mean": mean, "runs": args.runs}))
        return
    print(f"cattle start-up, median of {args.runs} runs ({platform.python_version()}, {root})")
    for label, seconds in medians.items():
        print(f"  {label:<11} {seconds:6.3f} s")
    print(f"  {'mean':<11} {mean:6.3f} s")


if __name__ == "__main__":
    main()
