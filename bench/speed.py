"""Speed of the Cattle Trade hot paths, every figure in one run: prints a table (or `--json`).

    uv run python bench/speed.py [--games 300] [--tournament-games 400] [--help-runs 5] [--json]
    uv run python bench/speed.py --peer /tmp/peer --only engine,play,tournament,decisions
    uv run python bench/speed.py --peer /tmp/peer --rounds 3 --only engine,play,tournament

Standard preset, four random agents unless said otherwise:

* engine only: games/s of the driver with its agents, nothing stored;
* play path: games/s of `play_and_store` (what `cattle play` does: one game, one transaction);
* tournament path: games/s of `play_tournament` with one process (games written in batches);
* replay: events/s reading every stored game's log back, decoding it and folding it into the
  state;
* verify: ms per game of the full check `cattle verify` runs, in this process (rows read many
  games to a query), and of the same check one game at a time, each read on its own (what
  `cattle replay GAME --verify` runs);
* `cattle --help`: seconds of a fresh `python -m cli.main --help` (median of several);
* tournament workers: games/s of a code-agent tournament with 2 workers and with 1, and their
  ratio (only meaningful on an otherwise idle machine with two free cores);
* code-agent decisions: microseconds per decision of `tracker`, `setrace` and `economy` (the
  agent's `act`, its ledger update included), in standard games against each other and random
  (wall time, or with `--clock cpu` the thread's CPU time; what an empty timed call shows is
  taken off);
* `--peer DIR`: games/s of a Kuhhandel engine built elsewhere (a directory holding the packages
  `gameengine` and `rl.agents.random_agent`, as in the public kuhhandel-ml project), four
  random agents, a standard game, nothing stored, in the same run. The directory must hold the
  canonical rebuild (`bench/peer.py` fingerprints its first hundred games; any other
  fingerprint is refused, and the one checked is printed); each of our games/s figures
  is then also printed as a ratio to it. With `--rounds R` the peer and our games/s figures are
  timed R times in turn (peer, engine, play, tournament, then again), each round's ratios taken
  within the round, and the median and range of the R ratios printed. With `--clock cpu` the
  games/s figures count this process's CPU time instead of wall time: on a machine other work
  shares it moves far less, but it leaves out waiting for the disk (the play path's commits);
  the replay and verify figures follow the same clock.

Timings on a busy machine move with the load of other processes: compare figures of one run,
or repeat the run.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SPECS = ["random"] * 4
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}
_clock = time.perf_counter
"""The clock of the games/s figures (ours and the peer's): wall time, or with `--clock cpu`
the CPU time of this process (every thread: DuckDB's included), which other processes on the
machine slow down far less than the wall clock."""


def engine_only(config: Any, games: int) -> dict[str, float]:
    """Games/s and events/game of the driver alone."""
    from agents import make_agents
    from events.config import SeatSpec
    from runner.driver import Game

    seats = tuple(SeatSpec(agent=s) for s in SPECS)
    events = 0
    start = _clock()
    for seed in range(games):
        record = Game(config, seed, make_agents(SPECS, seed, config), seats).run()
        events += len(record.events)
    elapsed = _clock() - start
    return {"games_per_s": games / elapsed, "events_per_game": events / games}


def play_path(config: Any, games: int, folder: Path) -> float:
    """Games/s of one game per transaction, as `cattle play` stores them."""
    from events.store import DuckStore
    from runner.session import play_and_store

    with DuckStore(folder / "play.duckdb") as store:
        start = _clock()
        for seed in range(games):
            play_and_store(store, config, seed, SPECS)
        return games / (_clock() - start)


def tournament_path(config: Any, games: int, db: Path) -> float:
    """Games/s of the tournament runner in one process (batched writes), over a schedule
    stored as `cattle tournament` stores it: the agents' round robin, or every seat the one
    agent when all seats play the same."""
    from events.store import DuckStore
    from runner.tournament import create, ensure_schema, pending_tasks, play_tournament

    with DuckStore(db) as store:
        ensure_schema(store)
        pool = tuple(dict.fromkeys(SPECS))
        if len(pool) == len(SPECS):
            create(store, "speed", "round-robin", pool, games, 1000, config)
        else:
            _same_agent_schedule(store, games, config)
        _, tasks, _ = pending_tasks(store, "speed")
        start = _clock()
        stored = play_tournament(store, "speed", config, tasks, workers=1)
        elapsed = _clock() - start
    assert stored == games
    return games / elapsed


def _same_agent_schedule(store: Any, games: int, config: Any) -> None:
    """Store a tournament whose every seat is the one agent of `SPECS`, with the rows
    `cattle tournament` writes. No format does that (`mixed` seats the agent against three
    code agents, which made this figure, replay and verify time other games than the
    engine figure and the peer)."""
    import json

    from engine.schedule import game_seed
    from events.codec import encode
    from runner.tournament import game_id

    con = store.con
    con.execute("BEGIN")
    con.execute(
        "INSERT INTO tournaments (name, format, agents, games, seed, config, game)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        [
            "speed",
            "mixed",
            json.dumps(SPECS[:1]),
            games,
            1000,
            encode(config).decode(),
            "cattle-trade",
        ],
    )
    con.execute(
        "INSERT INTO tournament_games (tournament, idx, game_id, seed, seats, lineup, rotation)"
        " SELECT 'speed', unnest(?), unnest(?), unnest(?), ?, ?, 0",
        [
            list(range(games)),
            [game_id("speed", i) for i in range(games)],
            [game_seed(1000, i) for i in range(games)],
            json.dumps(SPECS),
            "+".join(SPECS),
        ],
    )
    con.execute("COMMIT")


CODE_AGENTS = ("tracker", "setrace", "economy")
WARMUP_GAMES = 3
"""With `--peer`: games of the peer and of ours played untimed before the first round."""


def decisions(config: Any, games: int) -> dict[str, float]:
    """Microseconds per decision of each code agent (its `act`, ledger update included), in
    games of the three code agents and a random agent (seats rotated with the seed)."""
    from agents import make_agents
    from events.config import SeatSpec
    from runner.driver import Game

    spent: dict[str, float] = dict.fromkeys(CODE_AGENTS, 0.0)
    calls: dict[str, int] = dict.fromkeys(CODE_AGENTS, 0)
    # Wall time, or with `--clock cpu` this thread's CPU time (a system call, slower to read:
    # what reading the clock itself adds to a timed call is measured and taken off).
    clock = time.thread_time if _clock is time.process_time else time.perf_counter

    def timed(agent: Any) -> Any:
        inner = agent.act
        name = agent.spec

        def act(view: Any, decision: Any) -> Any:
            start = clock()
            action = inner(view, decision)
            spent[name] += clock() - start
            calls[name] += 1
            return action

        agent.act = act
        return agent

    for seed in range(games):
        specs = [*CODE_AGENTS, "random"]
        r = seed % 4
        specs = specs[r:] + specs[:r]
        agents = [a if a.spec == "random" else timed(a) for a in make_agents(specs, seed, config)]
        Game(config, seed, agents, tuple(SeatSpec(agent=s) for s in specs)).run()
    empty = _clock_cost(clock)
    return {name: (spent[name] / max(1, calls[name]) - empty) * 1e6 for name in CODE_AGENTS}


def _clock_cost(clock: Any, samples: int = 20_000) -> float:
    """Seconds a timed call shows when it does nothing: the median of many empty
    `clock() - clock()` readings, in batches, as the decision timer takes them."""
    batches = []
    for _ in range(20):
        total = 0.0
        for _ in range(samples // 20):
            start = clock()
            total += clock() - start
        batches.append(total / (samples // 20))
    return statistics.median(batches)


def peer(folder: Path, games: int) -> dict[str, float]:
    """Games/s of the peer engine in `folder`: four random agents, a standard game, nothing
    stored (its controller steps the game until it is over)."""
    sys.path.insert(0, str(folder))
    try:
        from gameengine import Game as PeerGame
        from gameengine.controller import GameController
        from rl.agents.random_agent import RandomAgent
    finally:
        sys.path.remove(str(folder))
    finished = 0
    start = _clock()
    for seed in range(games):
        game = PeerGame(num_players=4, seed=seed)
        game.setup()
        controller = GameController(game, [RandomAgent(f"random-{i}") for i in range(4)])
        controller.run(max_turns=100_000)
        finished += game.phase.name == "GAME_OVER" or game.is_game_over()
    elapsed = _clock() - start
    return {"games_per_s": games / elapsed, "finished": finished / games}


def replay(db: Path) -> dict[str, float]:
    """Events/s reading every stored game's log (`DuckStore.load_logs`: read and decode),
    and folding each into its state."""
    from events import catalog
    from events.store import DuckStore

    rules = catalog.get("cattle-trade").rules
    events = 0
    with DuckStore(db, read_only=True) as store:
        start = _clock()
        for _, log in store.load_logs():
            rules.fold(log)
            events += len(log)
        elapsed = _clock() - start
    return {"events_per_s": events / elapsed, "events": events}


def _first_ids(store: Any, games: int) -> list[str]:
    """The ids of the first `games` stored games, in id order."""
    rows = store.con.execute("SELECT game_id FROM games ORDER BY game_id LIMIT ?", [games])
    return [r[0] for r in rows.fetchall()]


def verify(db: Path, games: int) -> float:
    """Milliseconds per game of the full stored-game check, in this process (what
    `cattle verify` runs: rows read many games to a query, then each game checked)."""
    from events.store import DuckStore
    from runner.verify import checks_of, jobs

    with DuckStore(db, read_only=True) as store:
        ids = _first_ids(store, games)
        start = _clock()
        for check in checks_of(store, jobs(store, ids), workers=1):
            assert check.ok, check
        return (_clock() - start) / len(ids) * 1000


def verify_one(db: Path, games: int) -> float:
    """Milliseconds per game of checking stored games one at a time, each read on its own
    (what `cattle replay GAME --verify` runs)."""
    from events.store import DuckStore
    from runner.verify import check_game

    with DuckStore(db, read_only=True) as store:
        ids = _first_ids(store, games)
        start = _clock()
        for gid in ids:
            check = check_game(store.load_rows(gid), None)
            assert check.ok, check
        return (_clock() - start) / len(ids) * 1000


def help_cold(runs: int) -> float:
    """Median seconds of a fresh `cattle --help` process."""
    times = []
    for _ in range(runs + 1):
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "cli.main", "--help"],
            cwd=ROOT,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        times.append(time.perf_counter() - start)
    return statistics.median(times[1:])  # the first run warms the file cache


def workers(config: Any, games: int, folder: Path) -> dict[str, float]:
    """Games/s of a code-agent tournament with 1 and 2 workers."""
    from bench.tournament import run

    one, _ = run(games, 1, folder)
    two, _ = run(games, 2, folder)
    return {"one": games / one, "two": games / two, "ratio": one / two}


def _check_peer(parser: argparse.ArgumentParser, folder: Path, quiet: bool) -> str:
    """Refuse a peer directory whose games are not the canonical peer's (another rebuild
    plays other games at another speed, so its ratios say nothing); say which one was checked."""
    from bench.peer import CANONICAL, PeerError, fingerprint

    try:
        got = fingerprint(folder)
    except PeerError as exc:
        parser.error(f"--peer: {exc}")
    if got["digest"] != CANONICAL:
        parser.error(
            f"--peer {folder}: digest {got['digest']} ({got['decisions_per_game']:.1f}"
            f" decisions/game) is not the canonical peer's {CANONICAL}; rebuild it as the"
            " peer recipe says"
        )
    if not quiet:
        print(
            f"peer {folder}: digest {got['digest']}, {got['decisions_per_game']:.1f}"
            " decisions/game (the canonical peer)"
        )
    return str(got["digest"])


def _games_figures(
    args: argparse.Namespace, config: Any, n: int, only: set[str], folder: Path
) -> dict[str, float]:
    """One round of the games/s figures: the peer's (with `--peer`), then ours."""
    out: dict[str, float] = {}
    if args.peer is not None:
        p = peer(args.peer, n)
        out["peer_games_per_s"] = p["games_per_s"]
        out["peer_finished"] = p["finished"]
    if "engine" in only:
        eng = engine_only(config, n)
        out["engine_games_per_s"] = eng["games_per_s"]
        out["events_per_game"] = eng["events_per_game"]
    if "play" in only:
        out["play_games_per_s"] = play_path(config, n, folder)
    if "tournament" in only:
        out["tournament_games_per_s"] = tournament_path(config, n, folder / "tournament.duckdb")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per engine figure")
    parser.add_argument(
        "--tournament-games", type=int, default=400, help="games per worker-count run"
    )
    parser.add_argument("--help-runs", type=int, default=5)
    parser.add_argument("--skip-workers", action="store_true", help="leave out the 2-vs-1 run")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument(
        "--peer", type=Path, default=None, help="directory of a peer engine to time beside ours"
    )
    parser.add_argument(
        "--decision-games", type=int, default=40, help="games for the code-agent decision cost"
    )
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="wall",
        help="what the games/s and decision figures time: wall time, or CPU time (this"
        " process's; the deciding thread's for decisions; waits for the disk not counted)",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="with --peer: time the peer and our games/s figures this many times in turn,"
        " and give each ratio's median and range over the rounds",
    )
    parser.add_argument(
        "--only",
        default="",
        help="comma-separated figures to run (engine, play, tournament, replay, verify, help,"
        " workers, decisions); the replay and verify figures read what the tournament figure"
        " stored",
    )
    args = parser.parse_args()

    from cli.main import configure_logging
    from engine.cattle.presets import load_preset

    configure_logging(verbose=False, log_json=False)
    config = load_preset("standard")
    n = args.games
    figures: dict[str, Any] = {"games": n}
    names = ("engine", "play", "tournament", "replay", "verify", "help", "workers", "decisions")
    only = {x.strip() for x in args.only.split(",") if x.strip()} or set(names)
    if args.skip_workers:
        only.discard("workers")
    unknown = only - set(names)
    if unknown:
        parser.error(f"unknown figure(s): {', '.join(sorted(unknown))}")
    if only & {"replay", "verify"}:
        only.add("tournament")
    if args.peer is not None:
        figures["peer_digest"] = _check_peer(parser, args.peer, args.json)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    global _clock
    _clock = CLOCKS[args.clock]
    figures["clock"] = args.clock
    rounds = args.rounds if args.peer is not None else 1
    per_round: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        if args.peer is not None:
            # Untimed games first, so that no round pays for first-time work (imports, caches).
            peer(args.peer, WARMUP_GAMES)
            engine_only(config, WARMUP_GAMES)
        for r in range(rounds):
            # Each round times the peer right before our games/s figures, so a change in the
            # machine's load between rounds moves both sides of a round's ratios alike.
            folder = Path(tmp) / f"round{r}"
            folder.mkdir()
            got = _games_figures(args, config, n, only, folder)
            for key, value in got.items():
                per_round.setdefault(key, []).append(value)
        db = Path(tmp) / f"round{rounds - 1}" / "tournament.duckdb"
        for key, values in per_round.items():
            figures[key] = statistics.median(values)
        if "replay" in only:
            figures["replay_events_per_s"] = replay(db)["events_per_s"]
        if "verify" in only:
            figures["verify_ms_per_game"] = verify(db, min(n, 100))
            figures["verify_one_ms_per_game"] = verify_one(db, min(n, 100))
        if "help" in only:
            figures["help_s"] = help_cold(args.help_runs)
        if "workers" in only:
            w = workers(config, args.tournament_games, Path(tmp))
            figures["workers_1_games_per_s"] = w["one"]
            figures["workers_2_games_per_s"] = w["two"]
            figures["workers_speedup"] = w["ratio"]
        if "decisions" in only:
            for name, us in decisions(config, args.decision_games).items():
                figures[f"decision_us_{name}"] = us
    if "peer_games_per_s" in per_round:
        for key in ("engine", "play", "tournament"):
            if f"{key}_games_per_s" in per_round:
                ratios = [
                    ours / theirs
                    for ours, theirs in zip(
                        per_round[f"{key}_games_per_s"], per_round["peer_games_per_s"], strict=True
                    )
                ]
                figures[f"{key}_vs_peer"] = statistics.median(ratios)
                if rounds > 1:
                    figures[f"{key}_vs_peer_min"] = min(ratios)
                    figures[f"{key}_vs_peer_max"] = max(ratios)
                    figures[f"{key}_vs_peer_rounds"] = ratios
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    title = f"Speed: standard preset, 4 random agents, {n} games, {args.clock} clock"
    if rounds > 1:
        title += f", {rounds} rounds (ratios: median (range))"
    table = Table(title=title)
    table.add_column("figure")
    table.add_column("value", justify="right")
    rows = [
        ("engine only (games/s)", "engine_games_per_s", "{:,.1f}"),
        ("events per game", "events_per_game", "{:,.0f}"),
        ("play path, 1 game per transaction (games/s)", "play_games_per_s", "{:,.1f}"),
        ("tournament path, batched writes (games/s)", "tournament_games_per_s", "{:,.1f}"),
        ("replay: read + decode + fold (events/s, aim 3M)", "replay_events_per_s", "{:,.0f}"),
        ("verify, in process (ms/game, aim <= 3)", "verify_ms_per_game", "{:.1f}"),
        ("replay --verify, one game at a time (ms/game)", "verify_one_ms_per_game", "{:.1f}"),
        ("cattle --help, cold (s)", "help_s", "{:.2f}"),
        ("tournament, 1 worker (games/s)", "workers_1_games_per_s", "{:,.1f}"),
        ("tournament, 2 workers (games/s)", "workers_2_games_per_s", "{:,.1f}"),
        ("tournament, 2 workers vs 1", "workers_speedup", "{:.2f}x"),
        ("peer engine, 4 random agents (games/s)", "peer_games_per_s", "{:,.1f}"),
        ("engine only vs peer (aim 5x)", "engine_vs_peer", "{:.2f}x"),
        ("play path vs peer (aim 1.5x)", "play_vs_peer", "{:.2f}x"),
        ("tournament path vs peer (aim 3x)", "tournament_vs_peer", "{:.2f}x"),
        *(
            (f"{name} decision (µs, aim <= 10)", f"decision_us_{name}", "{:.1f}")
            for name in CODE_AGENTS
        ),
    ]
    for label, key, fmt in rows:
        if key in figures:
            text = fmt.format(figures[key])
            if f"{key}_min" in figures:  # a ratio over several rounds: median (range)
                low, high = fmt.format(figures[f"{key}_min"]), fmt.format(figures[f"{key}_max"])
                text = f"{text} ({low}-{high})"
            table.add_row(label, text)
    Console().print(table)


if __name__ == "__main__":
    main()
