"""Benchmark: the replay viewer in a real browser (Chromium, headless).

Builds (once, cached in bench/out/) a store of 100,000 games: 1,000 PACT games and 1,000
Cattle Trade micro-duels actually played, copied in SQL with new ids (events included) up to
the count asked, plus one standard Cattle Trade game of about 2,000 events. Then starts
`cattle serve` on it and measures in the browser, from the navigation start:

* the games list: first page, a filtered page (agent and game), a sorted page, a deep page;
  time until the page is loaded (median of --repeat loads);
* the 2,000-event game page: time until the script has drawn the table (omniscient and one
  seat's view), then 100 steps with the keyboard, each timed until the browser has drawn the
  next frame.

Aims: list under 300 ms, each step under 50 ms. Usage:

    uv run python bench/web_bench.py [--games 100000] [--repeat 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

OUT = ROOT / "bench" / "out"
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
BIG_GAME = "bench-big-game"


def _rows(config: Any, seeds: range, specs: list[str], prefix: str) -> list[Any]:
    from events import catalog
    from runner.session import game_row, play_game, seat_specs

    out = []
    for seed in seeds:
        seats = seat_specs(specs, catalog.for_config(config))
        record = play_game(config, seed, seats)
        row = game_row(f"{prefix}-{seed:05d}", config, seed, seats, f"{prefix}-cup")
        out.append((row, record.events, record.turns))
    return out


def build(n_games: int, log: Any) -> Path:
    """The cached store of `n_games` games plus the big game (made if missing)."""
    from engine.cattle.presets import load_preset
    from events import catalog
    from events.store import DuckStore
    from runner.session import game_row, play_game, seat_specs

    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"web-{n_games}.duckdb"
    if path.exists():
        return path
    tmp = path.with_suffix(".part")
    tmp.unlink(missing_ok=True)
    t0 = time.perf_counter()
    seed_games = min(1000, max(1, n_games // 2))
    with DuckStore(tmp) as store:
        pact = catalog.get("pact").preset("standard")
        store.save_games(_rows(pact, range(seed_games), ["truthful", "anchor"], "pact"))
        duel = load_preset("micro-duel")
        store.save_games(_rows(duel, range(seed_games), ["random", "economy"], "duel"))
        log(f"played {2 * seed_games:,} games in {time.perf_counter() - t0:.0f}s")
        copies = -(-n_games // (2 * seed_games)) - 1
        for k in range(1, copies + 1):
            store.con.execute(
                "INSERT INTO games SELECT game_id || ?, game, seed + ?, config, seats,"
                " engine_version, status, created_at + to_seconds(?), ended_at, end_reason,"
                " tournament FROM games WHERE NOT contains(game_id, '~')",
                [f"~{k:03d}", k * 100_000, k],
            )
            store.con.execute(
                "INSERT INTO events SELECT game_id || ?, seq, type, turn, actor, visible_to,"
                " payload FROM events WHERE NOT contains(game_id, '~')",
                [f"~{k:03d}"],
            )
        extra = store.con.execute("SELECT count(*) FROM games").fetchone()[0] - n_games
        if extra > 0:
            store.con.execute(
                "DELETE FROM events WHERE game_id IN (SELECT game_id FROM games"
                " ORDER BY game_id DESC LIMIT ?)",
                [extra],
            )
            store.con.execute(
                "DELETE FROM games WHERE game_id IN (SELECT game_id FROM games"
                " ORDER BY game_id DESC LIMIT ?)",
                [extra],
            )
        log(f"copied up to {n_games:,} games in {time.perf_counter() - t0:.0f}s")
        standard = load_preset("standard")
        seats = seat_specs(["random"] * 4)
        best = None
        for seed in range(40):
            record = play_game(standard, seed, seats)
            if best is None or abs(len(record.events) - 2000) < abs(len(best[1].events) - 2000):
                best = (seed, record)
        assert best is not None
        seed, record = best
        store.save_games(
            [(game_row(BIG_GAME, standard, seed, seats, None), record.events, record.turns)]
        )
        log(f"the big game: {len(record.events):,} events (seed {seed})")
    tmp.rename(path)
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def loaded_ms(page: Any) -> float:
    return float(
        page.evaluate(
            "() => { const n = performance.getEntriesByType('navigation')[0];"
            " return n.loadEventEnd - n.startTime; }"
        )
    )


def measure(db: Path, repeat: int) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    port = free_port()
    env = {**os.environ, "NO_COLOR": "1"}
    server = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "serve", "--db", str(db), "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("the server did not start") from None
                time.sleep(0.1)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            ctx = browser.new_context(viewport={"width": 1300, "height": 900}, bypass_csp=True)
            page = ctx.new_page()
            page.goto(url + "/")  # warm the server's connection and the browser
            time.sleep(3)  # the server reads every game's result once, in the background
            figures: dict[str, Any] = {}
            lists = {
                "list_first_page": "/",
                "list_filtered": "/?game=cattle-trade&agent=economy",
                "list_sorted_by_seed": "/?sort=seed&order=asc",
                "list_deep_page": "/?page=1500",
                "list_search": "/?q=pact-0042",
            }
            for name, path in lists.items():
                times = []
                for _ in range(repeat):
                    page.goto(url + path)
                    times.append(loaded_ms(page))
                figures[name + "_ms"] = statistics.median(times)
            total = page.inner_text("#count")
            figures["list_count_text"] = total
            for view, query in (("omniscient", ""), ("seat", "?seat=1")):
                times = []
                for _ in range(repeat):
                    page.goto(f"{url}/games/{BIG_GAME}{query}")
                    page.wait_for_selector("body[data-ready=yes]")
                    times.append(float(page.evaluate("Number(document.body.dataset.readyAt)")))
                figures[f"game_{view}_first_render_ms"] = statistics.median(times)
                figures[f"game_{view}_events"] = int(
                    page.evaluate("JSON.parse(document.getElementById('game-data').textContent)"
                                  ".events.length")
                )  # fmt: skip
                steps = page.evaluate(
                    """async () => {
                        const out = [];
                        for (let i = 0; i < 100; i++) {
                            const t0 = performance.now();
                            document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight'}));
                            await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
                            out.push(performance.now() - t0);
                        }
                        return out;
                    }"""
                )
                figures[f"game_{view}_step_median_ms"] = statistics.median(steps)
                figures[f"game_{view}_step_max_ms"] = max(steps)
                figures[f"game_{view}_100_steps_ms"] = sum(steps)
            browser.close()
        return figures
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = ap.parse_args()
    if not Path(CHROMIUM).exists():
        raise SystemExit(f"no Chromium at {CHROMIUM}")

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    db = build(args.games, log)
    figures = {"games": args.games, **measure(db, args.repeat)}
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    for key, value in figures.items():
        shown = f"{value:,.1f}" if isinstance(value, float) else str(value)
        print(f"{key:34} {shown}")


if __name__ == "__main__":
    main()
