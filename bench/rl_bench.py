"""Environment steps per CPU second for random play: `runner.rl` beside OpenSpiel's own
`rl_environment` on the same OpenSpiel games, and `runner.rl` on Cattle Trade.

    uv run python bench/rl_bench.py [--steps N] [--json] [--peer PEER_DIR]

A step is one action of one player; both sides pick uniformly among the legal actions with
a seeded `random.Random` of their own (ours reads the legal ids off the mask) and start a new
episode when one ends. Ours: the AEC environment of
`make_env` (observation and mask built for the player to move, `last()` then `step()`), nothing
recorded. OpenSpiel: `open_spiel.python.rl_environment.Environment` (`reset()`, `step([a])`,
its time steps carrying every player's information-state tensor and legal actions). Times are
CPU seconds of this process (`time.process_time`), so other load on the machine counts less.

With `--peer`, the kuhhandel-ml engine rebuilt as docs/speed.md says (checked by its
fingerprint, `bench/peer.py`) plays four random agents in the same run, and its decisions per
CPU second stand beside our Cattle Trade steps (standard preset, four learner seats).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from runner.rl import make_env

OPENSPIEL_GAMES = ("kuhn_poker", "leduc_poker", "tic_tac_toe", "connect_four")
CATTLE_PRESETS = ("micro-duel", "standard")


def ours(game: str, preset: str | None, steps: int, seed: int = 0) -> float:
    """Steps per CPU second of random play through `make_env`."""
    env = make_env(game, preset, seed=seed)
    rng = random.Random(seed)
    env.reset()
    done_steps = 0
    start = time.process_time()
    while done_steps < steps:
        for _agent in env.agent_iter():
            obs, _, done, cut, _ = env.last()
            if done or cut:
                env.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            env.step(int(legal[rng.randrange(len(legal))]))
            done_steps += 1
        env.reset()
    return done_steps / (time.process_time() - start)


def openspiel(game: str, steps: int, seed: int = 0) -> float:
    """Steps per CPU second of random play through OpenSpiel's `rl_environment`."""
    from open_spiel.python import rl_environment

    env = rl_environment.Environment(game)
    env.seed(seed)
    rng = random.Random(seed)
    done_steps = 0
    start = time.process_time()
    while done_steps < steps:
        ts = env.reset()
        while not ts.last():
            player = ts.observations["current_player"]
            ts = env.step([rng.choice(ts.observations["legal_actions"][player])])
            done_steps += 1
    return done_steps / (time.process_time() - start)


def peer_rate(folder: str, games: int) -> dict[str, float]:
    """Decisions per CPU second of the peer engine (four random agents, nothing stored)."""
    from pathlib import Path

    from bench import speed
    from bench.peer import CANONICAL, fingerprint

    found = fingerprint(Path(folder))
    if found["digest"] != CANONICAL:
        raise SystemExit(f"--peer {folder}: not the canonical peer ({found['digest']})")
    speed._clock = time.process_time
    games_per_s = speed.peer(Path(folder), games)["games_per_s"]
    return {
        "games_per_s": games_per_s,
        "decisions_per_s": games_per_s * found["decisions_per_game"],
    }


def run(steps: int) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for game in OPENSPIEL_GAMES:
        mine = ours(f"openspiel:{game}", None, steps)
        theirs = openspiel(game, steps)
        rows.append({"game": game, "ours": mine, "openspiel": theirs, "ratio": mine / theirs})
    for preset in CATTLE_PRESETS:
        rows.append({"game": f"cattle-trade {preset}", "ours": ours("cattle-trade", preset, steps)})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--peer", help="the kuhhandel-ml peer's directory (docs/speed.md)")
    parser.add_argument("--peer-games", type=int, default=100)
    args = parser.parse_args()
    rows = run(args.steps)
    if args.peer:
        theirs = peer_rate(args.peer, args.peer_games)["decisions_per_s"]
        for r in rows:
            if r["game"] == "cattle-trade standard":
                r["peer"], r["peer_ratio"] = theirs, r["ours"] / theirs
    if args.json:
        print(json.dumps(rows))
        return
    print(f"{'game':<24}{'ours/s':>10}{'OpenSpiel/s':>13}{'ratio':>8}")
    for r in rows:
        theirs = f"{r['openspiel']:>13,.0f}" if "openspiel" in r else f"{'':>13}"
        ratio = f"{r['ratio']:>8.2f}" if "ratio" in r else ""
        print(f"{r['game']:<24}{r['ours']:>10,.0f}{theirs}{ratio}")
        if "peer" in r:
            print(f"{'  kuhhandel-ml peer':<24}{'':>10}{r['peer']:>13,.0f}{r['peer_ratio']:>8.2f}")


if __name__ == "__main__":
    main()
