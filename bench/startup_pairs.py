"""Benchmark: start-up of `cattle` commands in two checkouts, timed in alternation.

Each run times the command once in the other checkout (`--before PATH`, with its own `.venv`)
and once in this one, so that load from other work on the machine falls on both alike.
Both ways are timed: "uncompiled" sets `PYTHONDONTWRITEBYTECODE=1` with an empty
`PYTHONPYCACHEPREFIX` (every module compiled in every process: a fresh clone where the
variable is set and `uv sync` compiled nothing); "cached" clears the variable and gives each
checkout a cache of its own, filled by one untimed run. Prints the medians of wall and CPU
(user and system) seconds. Prints (never asserts).
Run: uv run python -m bench.startup_pairs --before PATH [--runs 7] [--only help,games]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.startup import COMMANDS, ROOT

MODES = ("uncompiled", "cached")


def timed(root: Path, args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one `cattle ARGS` process of the checkout at `root`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [str(root / ".venv" / "bin" / "python"), "-m", "cli", *args],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"`cattle {' '.join(args)}` failed in {root}: {done.stderr.strip()}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    """Time each command in both checkouts, alternating, and print the medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--only", default="help,games,play-help")
    args = parser.parse_args()
    labels = [x for x in args.only.split(",") if x]
    unknown = [x for x in labels if x not in COMMANDS or x in ("show", "tournament")]
    if unknown:
        raise SystemExit(f"cannot time {unknown} here; known: help, play-help, games, sql, ...")
    roots = {"before": args.before.resolve(), "after": ROOT}
    found: dict[tuple[str, str, str], list[tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.duckdb"
        base = {**os.environ, "CATTLE_DB": str(db), "COLUMNS": "80", "NO_COLOR": "1"}
        for setup in (
            ["play", "--seed", "1", "--preset", "micro-duel"],
            ["play", "--game", "pact", "--seed", "2"],
        ):
            timed(ROOT, setup, base)
        empty = Path(tmp) / "empty"
        empty.mkdir()

        def env(mode: str, who: str) -> dict[str, str]:
            if mode == "uncompiled":
                return {**base, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONPYCACHEPREFIX": str(empty)}
            cache = str(Path(tmp) / f"pyc-{who}")
            return {**base, "PYTHONDONTWRITEBYTECODE": "", "PYTHONPYCACHEPREFIX": cache}

        for mode in MODES:
            for label in labels:
                argv = COMMANDS[label]
                if mode == "cached":
                    for who, root in roots.items():
                        timed(root, argv, env(mode, who))
                for _ in range(args.runs):
                    for who, root in roots.items():
                        found.setdefault((mode, label, who), []).append(
                            timed(root, argv, env(mode, who))
                        )
    print(f"median of {args.runs} alternating runs; load average now {os.getloadavg()[0]:.1f}")
    print(
        f"{'mode':<11} {'command':<10} {'wall before':>11} {'after':>6} {'CPU before':>10} {'after':>6}"
    )
    for mode in MODES:
        for label in labels:
            b, a = found[(mode, label, "before")], found[(mode, label, "after")]
            med = [statistics.median(x[k] for x in v) for v in (b, a) for k in (0, 1)]
            print(
                f"{mode:<11} {label:<10} {med[0]:11.3f} {med[2]:6.3f} {med[1]:10.3f} {med[3]:6.3f}"
            )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
