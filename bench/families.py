"""One game of each family through the driver beside its own library's loop, per CPU second.

    uv run python bench/families.py [--rounds 3] [--peer DIR] [--json]

For each family whose rules come from a library with a loop of its own, the same games are
played both ways in turn, `--rounds` times, and the ratio driver / anchor is taken within each
round (median and range printed); games/s count this process's CPU time:

* OpenSpiel, tic-tac-toe, two random agents: the driver against a bare pyspiel loop making the
  same choices (`bench/openspiel_bench.py`);
* TextArena, Colonel Blotto, its two code agents: the driver against a bare TextArena loop
  with the same agents (`bench/textarena_bench.py`);
* Cattle Trade, standard preset, four random agents (with `--peer`): the driver against the
  canonical kuhhandel-ml peer (`bench/speed.py`, which checks its fingerprint).

The families without such an anchor (PACT, GameBench, whose rules are this project's own
code) get the driver's games/s alone. The driver records every decision as events and keeps
every seat's view; the anchors keep neither.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: the project's packages come first
    sys.path.insert(0, str(ROOT))


@contextlib.contextmanager
def cpu_clock(*modules: ModuleType) -> Iterator[None]:
    """Make the benches' wall-clock timers read this process's CPU time while inside."""
    saved = [m.time for m in modules]  # type: ignore[attr-defined]
    shim = SimpleNamespace(perf_counter=time.process_time)
    for m in modules:
        m.time = shim  # type: ignore[attr-defined]
    try:
        yield
    finally:
        for m, t in zip(modules, saved, strict=True):
            m.time = t  # type: ignore[attr-defined]


def driver_only(game_name: str, preset: str, games: int) -> float:
    """Games/s (CPU) of the driver alone for `games` games of one preset, random agents."""
    from agents import make_agents
    from events import catalog
    from runner.driver import Game

    game = catalog.get(game_name)
    config = game.preset(preset)
    specs = ["random"] * config.players
    start = time.process_time()
    for seed in range(games):
        Game(config, seed, make_agents(specs, seed, config), game=game).run()
    return games / (time.process_time() - start)


def rounds_of(pairs: Callable[[], tuple[float, float]], rounds: int) -> dict[str, Any]:
    """Time (driver, anchor) `rounds` times; the median and range of the ratio."""
    ours, theirs = [], []
    for _ in range(rounds):
        a, b = pairs()
        ours.append(a)
        theirs.append(b)
    ratios = [a / b for a, b in zip(ours, theirs, strict=True)]
    return {
        "driver_games_per_s": statistics.median(ours),
        "anchor_games_per_s": statistics.median(theirs),
        "ratio": statistics.median(ratios),
        "ratio_min": min(ratios),
        "ratio_max": max(ratios),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--openspiel-games", type=int, default=400)
    parser.add_argument("--textarena-games", type=int, default=40)
    parser.add_argument("--games", type=int, default=60, help="games of the other families")
    parser.add_argument("--peer", type=Path, default=None, help="canonical peer directory")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    from bench import openspiel_bench, speed, textarena_bench
    from cli.main import configure_logging
    from engine.cattle.presets import load_preset

    configure_logging(verbose=False, log_json=False)
    if args.peer is not None:
        speed._check_peer(parser, args.peer, args.json)
    out: dict[str, Any] = {}
    n_os, n_ta = args.openspiel_games, args.textarena_games
    with cpu_clock(openspiel_bench, textarena_bench):
        openspiel_bench.bare(20)  # untimed first games: imports and caches
        openspiel_bench.driver(20)
        out["openspiel tic_tac_toe (pyspiel loop)"] = rounds_of(
            lambda: (openspiel_bench.driver(n_os)[0], openspiel_bench.bare(n_os)[0]), args.rounds
        )
        textarena_bench.bare("blotto", 3)
        textarena_bench.driver("blotto", 3)
        out["textarena blotto (TextArena loop)"] = rounds_of(
            lambda: (
                textarena_bench.driver("blotto", n_ta)[0],
                textarena_bench.bare("blotto", n_ta)[0],
            ),
            args.rounds,
        )
    if args.peer is not None:
        speed._clock = time.process_time
        config = load_preset("standard")
        speed.peer(args.peer, 3)
        speed.engine_only(config, 3)
        out["cattle-trade standard (kuhhandel-ml peer)"] = rounds_of(
            lambda: (
                speed.engine_only(config, args.games)["games_per_s"],
                speed.peer(args.peer, args.games)["games_per_s"],
            ),
            args.rounds,
        )
    out["pact (no anchor)"] = {"driver_games_per_s": driver_only("pact", "standard", args.games)}
    if args.json:
        print(json.dumps(out, indent=2))
        return
    for name, fig in out.items():
        line = f"{name}: driver {fig['driver_games_per_s']:,.1f} games/s CPU"
        if "ratio" in fig:
            line += (
                f", anchor {fig['anchor_games_per_s']:,.1f}; driver / anchor {fig['ratio']:.2f}x"
                f" ({fig['ratio_min']:.2f}-{fig['ratio_max']:.2f})"
            )
        print(line)


if __name__ == "__main__":
    main()
