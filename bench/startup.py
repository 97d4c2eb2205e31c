"""Benchmark: start-up of the common `cattle` commands, as real processes.

Each command runs `--runs` times as `python -m cli ...` against a small store made first in a
temporary directory (one Cattle Trade game, one PACT game); prints the median wall time and
the median CPU time (user and system) of each, in seconds, and the mean over the commands.
Prints (never asserts). `--root` times the checkout at that path with its own `.venv` instead
(compare two versions on the same machine). `--only help,games` times some commands.
`--uncompiled` runs every command with `PYTHONDONTWRITEBYTECODE=1` and an empty
`PYTHONPYCACHEPREFIX`, so nothing compiled is read or written: a fresh clone where the
variable is set and `uv sync` compiled nothing. Otherwise the variable is cleared and the
compiled files go to a cache of the run's own, filled by one untimed run of each command.
Run: uv run python -m bench.startup [--runs 7] [--root PATH] [--only A,B] [--uncompiled] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

COMMANDS: dict[str, list[str]] = {
    "help": ["--help"],
    "play-help": ["play", "--help"],
    "play": ["play", "--seed", "7", "--preset", "micro-duel", "--agents", "random,random"],
    "games": ["games"],
    "show": ["show", "{game}"],
    "sql": ["sql", "SELECT count(*) FROM events"],
    "verify": ["verify", "--all"],
    "tournament": ["tournament", "--agents", "random,tracker", "--games", "2", "--seed", "3"],
}
"""The commands timed, by label; `{game}` stands for the stored Cattle Trade game's id."""


def run(
    python: str, root: Path, args: list[str], db: Path, extra: dict[str, str]
) -> tuple[float, float]:
    """Wall and CPU time of one `cattle ARGS` process, in seconds; it must succeed."""
    env = {**os.environ, "CATTLE_DB": str(db), "COLUMNS": "80", "NO_COLOR": "1", **extra}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [python, "-m", "cli", *args], cwd=root, env=env, capture_output=True, text=True
    )
    took = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"`cattle {' '.join(args)}` failed: {done.stderr.strip()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return took, cpu


def main() -> None:
    """Time each command and print the medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--root", type=Path, default=ROOT)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--only", default="", help="Comma-separated labels to time.")
    parser.add_argument("--uncompiled", action="store_true")
    args = parser.parse_args()
    only = [x for x in args.only.split(",") if x] or list(COMMANDS)
    unknown = set(only) - set(COMMANDS)
    if unknown:
        raise SystemExit(f"unknown label(s) {sorted(unknown)}; known: {', '.join(COMMANDS)}")
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
        cpus: dict[str, float] = {}
        empty = Path(tmp) / "no-pycache"
        empty.mkdir()
        if args.uncompiled:
            extra = {"PYTHONDONTWRITEBYTECODE": "1", "PYTHONPYCACHEPREFIX": str(empty)}
        else:
            # A cache of this run's own, written by a first run that is not timed.
            extra = {"PYTHONDONTWRITEBYTECODE": "", "PYTHONPYCACHEPREFIX": str(Path(tmp) / "pyc")}
        for label in only:
            argv = [a.replace("{game}", game) for a in COMMANDS[label]]
            if not args.uncompiled and label != "tournament":
                run(python, root, argv, db, extra)
            times = []
            for i in range(args.runs):
                named = [*argv, "--name", f"bench-{i}"] if label == "tournament" else argv
                times.append(run(python, root, named, db, extra))
            medians[label] = statistics.median(t for t, _ in times)
            cpus[label] = statistics.median(c for _, c in times)
    mean = statistics.fmean(medians.values())
    if args.json:
        doc = {"median_seconds": medians, "median_cpu_seconds": cpus, "mean": mean}
        print(json.dumps({**doc, "runs": args.runs, "uncompiled": args.uncompiled}))
        return
    print(f"cattle start-up, median of {args.runs} runs ({platform.python_version()}, {root})")
    print(f"  {'':<11} {'wall':>7} {'CPU':>7}")
    for label, seconds in medians.items():
        print(f"  {label:<11} {seconds:6.3f}s {cpus[label]:6.3f}s")
    print(f"  {'mean':<11} {mean:6.3f}s")


if __name__ == "__main__":
    main()
