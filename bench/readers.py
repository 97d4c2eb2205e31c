"""Benchmark: read commands while a tournament writes, and what the reads cost the tournament.

Runs the same code-agent tournament (`cattle tournament`, a real subprocess writing a fresh
DuckDB file) several times, alternating: alone, and with a reader that runs a read command
every second for as long as the tournament lasts. Prints the tournament's games/s in both
cases, the slowdown, and how long each read took to answer (it waits while the writer holds
the file). With --light the reader runs
inside the benchmark process (as a dashboard would) rather than as a new `cattle` process each
time, which on a 2-core machine also competes with the tournament for the CPU. Usage:

    uv run python bench/readers.py [--light] [--games 1500] [--rounds 3] [--workers 1]
        [--reader "games --limit 5"] [--reader "sql 'SELECT count(*) FROM events'"]
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def cattle(*args: str) -> list[str]:
    return [sys.executable, "-m", "cli.main", *args]


def tournament(db: Path, games: int, workers: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        cattle(
            "tournament",
            "--agents",
            "tracker,setrace,economy,random",
            "--games",
            str(games),
            "--seed",
            "5",
            "--workers",
            str(workers),
            "--quiet",
            "--db",
            str(db),
        ),
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def _in_process(db: Path, args: list[str]) -> subprocess.CompletedProcess[str]:
    """The read `cattle sql` or `cattle games` does, from this (already started) process."""
    from events.store import DuckStore, StoreError

    try:
        with DuckStore(db, read_only=True) as store:
            if args[0] == "sql":
                store.query(args[1])
            else:
                store.list_games()
                store.query("SELECT game_id, seat, score FROM scores")
    except StoreError as exc:
        return subprocess.CompletedProcess(args, 1, "", str(exc))
    return subprocess.CompletedProcess(args, 0, "", "")


def poll(
    db: Path,
    readers: list[list[str]],
    stop: threading.Event,
    times: list[float],
    fails: list[str],
    light: bool = False,
) -> None:
    """Run the read commands in turn, one start per second, until `stop`."""
    i = 0
    while not stop.is_set():
        start = time.perf_counter()
        args = readers[i % len(readers)]
        if light:
            done = _in_process(db, args)
        else:
            done = subprocess.run(
                cattle(*args, "--db", str(db)), cwd=ROOT, capture_output=True, text=True
            )
        took = time.perf_counter() - start
        if stop.is_set() and done.returncode != 0:
            break
        times.append(took)
        if done.returncode != 0:
            fails.append(f"{' '.join(args)}: {done.stderr.strip()[:200]}")
        i += 1
        stop.wait(max(0.0, 1.0 - took))


def one_run(
    folder: Path,
    n: int,
    games: int,
    workers: int,
    readers: list[list[str]] | None,
    light: bool = False,
) -> tuple[float, list[float], list[str]]:
    db = folder / f"run-{n}.duckdb"
    start = time.perf_counter()
    proc = tournament(db, games, workers)
    times: list[float] = []
    fails: list[str] = []
    stop = threading.Event()
    thread = None
    if readers:
        # The first read waits for the file to exist (the tournament creates it).
        while not db.exists():
            time.sleep(0.01)
        thread = threading.Thread(target=poll, args=(db, readers, stop, times, fails, light))
        thread.start()
    _, err = proc.communicate()
    elapsed = time.perf_counter() - start
    stop.set()
    if thread is not None:
        thread.join()
    if proc.returncode != 0:
        raise SystemExit(f"tournament failed: {err.decode()[-500:]}")
    return games / elapsed, times, fails


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1500)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--reader", action="append", default=None)
    ap.add_argument(
        "--light",
        action="store_true",
        help="Read from this process (a dashboard-like reader) instead of starting `cattle`"
        " each time: separates waiting for the file from the CPU a new process costs.",
    )
    a = ap.parse_args()
    readers = [
        shlex.split(r)
        for r in (a.reader or ["games --limit 5", "sql 'SELECT count(*) FROM events'"])
    ]
    alone: list[float] = []
    read: list[float] = []
    answers: list[float] = []
    failures: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for r in range(a.rounds):
            speed, _, _ = one_run(folder, 2 * r, a.games, a.workers, None)
            alone.append(speed)
            speed, times, fails = one_run(folder, 2 * r + 1, a.games, a.workers, readers, a.light)
            read.append(speed)
            answers.extend(times)
            failures.extend(fails)
            print(
                f"round {r + 1}: alone {alone[-1]:.1f} games/s, with reader {speed:.1f} games/s, {len(times)} reads"
            )
    a_med, r_med = statistics.median(alone), statistics.median(read)
    print(
        f"tournament alone:        {a_med:.1f} games/s (median of {a.rounds}; {min(alone):.1f}-{max(alone):.1f})"
    )
    print(
        f"tournament with reader:  {r_med:.1f} games/s (median of {a.rounds}; {min(read):.1f}-{max(read):.1f})"
    )
    print(f"slowdown:                {100 * (1 - r_med / a_med):.1f}%")
    if answers:
        answers.sort()
        p95 = answers[min(len(answers) - 1, int(0.95 * len(answers)))]
        print(
            f"read answer time:        median {statistics.median(answers):.2f}s, p95 {p95:.2f}s,"
            f" max {answers[-1]:.2f}s over {len(answers)} reads ({', '.join(' '.join(r) for r in readers)})"
        )
    print(f"failed reads:            {len(failures)}")
    for f in failures[:5]:
        print(f"  {f}")


if __name__ == "__main__":
    main()
