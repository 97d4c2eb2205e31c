"""Benchmark: NRA tables with bootstrap intervals over a store of many two-seat matches.

Writes a real DuckDB store of synthetic finished two-seat games (the `games` rows and the
`game_started` / `game_ended` events the generic `results` view reads, and an
`action_defaulted` event for about 3% of seats), spread over several games and a round robin
of agents whose strengths differ, then times, best of `--repeat`:

  * loading the matches with their NRA from SQL (`projections.two_seat.nra.load_matches`);
  * every table: pairs per game, agents per game, across games, completion rates, W/D/L, with
    `--resamples` bootstrap resamples each, and TrueSkill over every match;
  * the text tables and the whole report page (figures included, timed once).

Prints (never asserts). Run: uv run python -m bench.nra_bench [--matches 10000] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from events.store import DuckStore
from projections.metrics.aggregate import Selection
from projections.two_seat import nra as N
from projections.two_seat.report import build_nra_report


def write_store(path: Path, matches: int, agents: int, games: int, seed: int) -> None:
    """A store of `matches` finished two-seat games: agent k scores more the larger k is."""
    rng = random.Random(f"{seed}:nra-bench")
    names = [f"agent-{k}" for k in range(agents)]
    pairs = [(x, y) for i, x in enumerate(names) for y in names[i + 1 :]]
    game_rows = []
    event_rows = []
    for i in range(matches):
        # Every pairing in every game, each side first in turn.
        x, y = pairs[i % len(pairs)]
        block = i // len(pairs)
        if (block // games) % 2:
            x, y = y, x
        game = f"game-{block % games}"
        gid = f"m{i:07d}"
        # Win/draw/loss games and reward games alike: scores in -1..1 or 0..100.
        if block % games < games // 2:
            edge = (names.index(x) - names.index(y)) / agents
            r = rng.random() + edge / 2
            s0, s1 = (1.0, -1.0) if r > 0.55 else (-1.0, 1.0) if r < 0.45 else (0.0, 0.0)
        else:
            s0 = float(rng.randint(0, 100) + 5 * names.index(x))
            s1 = float(rng.randint(0, 100) + 5 * names.index(y))
        ranks = [1 if s0 >= s1 else 2, 1 if s1 >= s0 else 2]
        seats = [{"agent": x, "options": {}}, {"agent": y, "options": {}}]
        game_rows.append((gid, game, i, json.dumps(seats), "bench"))
        event_rows.append((gid, 0, "game_started", None,
                           json.dumps({"type": "game_started", "seats": seats})))  # fmt: skip
        seq = 1
        for s in (0, 1):
            if rng.random() < 0.03:
                payload = {"type": "action_defaulted", "seat": s, "decision": "move",
                           "action": "{}", "reason": "no usable answer"}  # fmt: skip
                event_rows.append((gid, seq, "action_defaulted", s, json.dumps(payload)))
                seq += 1
        end = {"type": "game_ended", "scores": [s0, s1], "ranks": ranks}
        event_rows.append((gid, seq, "game_ended", None, json.dumps(end)))
    with DuckStore(path, init=True) as store:
        con = store.con
        con.execute(
            "INSERT INTO games (game_id, game, seed, config, seats, engine_version, status,"
            " tournament) SELECT unnest(?), unnest(?), unnest(?), '{}', unnest(?), '1',"
            " 'finished', unnest(?)",
            [list(c) for c in zip(*game_rows, strict=True)],
        )
        con.execute(
            "INSERT INTO events SELECT unnest(?), unnest(?), unnest(?), 0, unnest(?), NULL,"
            " unnest(?)",
            [list(c) for c in zip(*event_rows, strict=True)],
        )


def best(repeat: int, fn: Any) -> tuple[float, Any]:
    """The fastest of `repeat` runs of `fn` and its last result."""
    times = []
    out = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), out


def main() -> None:
    """Write the store, then time each step."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--matches", type=int, default=10_000)
    ap.add_argument("--agents", type=int, default=6)
    ap.add_argument("--games", type=int, default=10, help="distinct game labels")
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args()
    sel = Selection(game=None)
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "bench.duckdb"
        t0 = time.perf_counter()
        write_store(path, args.matches, args.agents, args.games, args.seed)
        write = time.perf_counter() - t0
        with DuckStore(path, read_only=True) as store:
            con = store.con
            load, m = best(args.repeat, lambda: N.load_matches(con, sel))
            tables, a = best(
                args.repeat, lambda: N.analyse(m, resamples=args.resamples, ratings=False)
            )
            ratings, _ = best(args.repeat, lambda: N.rate(N.seat_results(m), shuffles=0))
            text, lines = best(args.repeat, lambda: N.render_lines(a))
            t0 = time.perf_counter()
            _page, stats = build_nra_report(con, sel, resamples=args.resamples)
            report = time.perf_counter() - t0
    figures = {
        "matches": len(m),
        "agents": len(a.agents),
        "games": len(a.labels),
        "pairs_per_game": len(a.pairs) // (2 * max(1, len(a.labels))),
        "resamples": args.resamples,
        "write_store_s": round(write, 3),
        "load_matches_s": round(load, 4),
        "nra_tables_s": round(tables, 4),
        "trueskill_s": round(ratings, 4),
        "text_tables_s": round(text, 4),
        "report_page_s": round(report, 3),
        "report_bytes": stats.bytes,
        "matches_per_s": round(len(m) / (load + tables), 1),
    }
    if args.json:
        print(json.dumps(figures))
        return
    print(
        f"{figures['matches']:,} two-seat matches, {figures['agents']} agents,"
        f" {figures['games']} games, {args.resamples} resamples per interval"
    )
    print(f"  write the store             {write:9.3f} s")
    print(f"  load matches (SQL)          {load:9.4f} s")
    print(f"  NRA tables with intervals   {tables:9.4f} s")
    print(f"  TrueSkill over every match  {ratings:9.4f} s")
    print(f"  text tables ({len(lines)} lines)     {text:9.4f} s")
    print(f"  report page (all of it)     {report:9.3f} s, {stats.bytes / 1e6:.2f} MB")
    print(f"  load + tables               {figures['matches_per_s']:9,.0f} matches/s")


if __name__ == "__main__":
    main()
