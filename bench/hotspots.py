"""Where the time of each hot path goes: CPU cost per game, event and decision, and shares.

    uv run python bench/hotspots.py [--games 100] [--only engine,play,...] [--top 8]

Standard preset, four random agents (the code-agent figure: tracker, setrace, economy and a
random agent). For each path it first times N games by this process's CPU clock with no
profiler attached (ms a game, µs an event, µs a decision), then runs the same work under
cProfile and shares its own time out by part of the code: the rules (engine/), the seats'
views and other folds (projections/), the agents (agents/ and the `random` module they
draw from), the driver (runner/driver.py), the store's Python side (events/store.py,
events/codec.py), msgspec's encoders and decoders, DuckDB's calls, verification
(runner/verify.py, runner/replay.py) and the rest. cProfile slows small Python calls more
than C calls, so the shares lean towards Python code; the unprofiled figures are the ones
to quote. `--top` prints the functions with the most own time as well.

Paths: engine (the driver and agents, nothing stored), play (`play_and_store`, one game a
transaction), tournament (`play_tournament`, batched), replay (`load_logs` and a fold of
each log), verify (`checks_of` in this process), decisions (the code agents' `act`).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: the project's packages come first
    sys.path.insert(0, str(ROOT))

from bench import speed  # noqa: E402

PATHS = ("engine", "play", "tournament", "replay", "verify", "decisions")
PARTS = (
    ("rules", ("/engine/",)),
    ("views, folds", ("/projections/",)),
    ("agents", ("/agents/", "/random.py")),
    ("driver", ("/runner/driver.py",)),
    ("verify", ("/runner/verify.py", "/runner/replay.py")),
    ("store", ("/events/store.py", "/events/codec.py")),
    ("msgspec", ("msgspec",)),
    ("duckdb", ("duckdb", "DuckDBPy")),
)


def _part(key: tuple[str, int, str]) -> str:
    """Which part of the code a cProfile entry belongs to."""
    where = f"{key[0]} {key[2]}"
    for name, marks in PARTS:
        if any(m in where for m in marks):
            return name
    return "rest"


def shares(stats: pstats.Stats) -> dict[str, float]:
    """Each part's share of the profiled own time."""
    raw: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    spent: dict[str, float] = {}
    for key, (_, _, own, _, _) in raw.items():
        spent[_part(key)] = spent.get(_part(key), 0.0) + own
    total = sum(spent.values()) or 1.0
    return {k: v / total for k, v in sorted(spent.items(), key=lambda kv: -kv[1])}


def _work(path: str, config: Any, games: int, folder: Path) -> tuple[Callable[[], Any], str]:
    """A callable doing `games` games' worth of the path's work, and what it counts."""
    db = folder / "source.duckdb"
    if path == "engine":
        return lambda: speed.engine_only(config, games), "games"
    if path == "play":
        runs = iter(range(1_000_000))
        return lambda: speed.play_path(config, games, _fresh(folder, f"play{next(runs)}")), "games"
    if path == "tournament":
        runs = iter(range(1_000_000))
        return (
            lambda: speed.tournament_path(config, games, folder / f"t{next(runs)}.duckdb"),
            "games",
        )
    if not db.exists():
        speed.tournament_path(config, games, db)
    if path == "replay":
        return lambda: speed.replay(db), "games"
    if path == "verify":
        return lambda: speed.verify(db, games), "games"
    return lambda: speed.decisions(config, games), "games"


def _fresh(folder: Path, name: str) -> Path:
    out = folder / name
    out.mkdir()
    return out


def _counts(config: Any, games: int) -> tuple[float, float]:
    """Events and decisions a standard game of four random agents has, on average."""
    from agents import make_agents
    from events.config import SeatSpec
    from runner.driver import Game

    events = decisions = 0
    specs = speed.SPECS
    seats = tuple(SeatSpec(agent=s) for s in specs)
    for seed in range(games):
        g = Game(config, seed, make_agents(specs, seed, config), seats)
        g.run()
        events += len(g.log)
        decisions += g.decisions
    return events / games, decisions / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--only", default="", help=f"comma-separated: {', '.join(PATHS)}")
    parser.add_argument("--top", type=int, default=0, help="also list this many functions")
    args = parser.parse_args()
    only = [p.strip() for p in args.only.split(",") if p.strip()] or list(PATHS)
    unknown = set(only) - set(PATHS)
    if unknown:
        parser.error(f"unknown path(s): {', '.join(sorted(unknown))}")
    from cli.main import configure_logging
    from engine.cattle.presets import load_preset

    configure_logging(verbose=False, log_json=False)
    config = load_preset("standard")
    speed._clock = time.process_time
    n = args.games
    events, decisions = _counts(config, min(n, 50))
    print(f"standard game, 4 random agents: {events:.0f} events, {decisions:.0f} decisions")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for path in only:
            work, _ = _work(path, config, n, folder)
            work()  # untimed: imports, caches, the source database
            start = time.process_time()
            result = work()
            cpu = time.process_time() - start
            if path == "decisions":
                shown = ", ".join(f"{k} {v:.1f} µs" for k, v in result.items())
                print(f"\n{path}: per decision {shown}")
            else:
                ms = cpu / n * 1000
                print(
                    f"\n{path}: {ms:.2f} ms CPU a game, {ms * 1000 / events:.2f} µs an event,"
                    f" {ms * 1000 / decisions:.1f} µs a decision"
                )
            prof = cProfile.Profile()
            prof.runcall(work)
            stats = pstats.Stats(prof)
            print("  " + ", ".join(f"{k} {v:.0%}" for k, v in shares(stats).items() if v >= 0.01))
            if args.top:
                raw: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
                ranked = sorted(raw.items(), key=lambda kv: -kv[1][2])[: args.top]
                for (file, line, func), (calls, _, own, _, _) in ranked:
                    short = file.replace(str(ROOT) + "/", "")
                    print(f"    {own * 1000 / n:6.3f} ms/game  {calls:>8}  {short}:{line} {func}")


if __name__ == "__main__":
    main()
