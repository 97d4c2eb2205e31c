"""Screenshots of each family's drawing for docs/viewer.md: one small game of each, played by
code agents, opened in headless Chromium at its last event in a seat's view.

    uv run python bench/draw_shots.py [--out docs/img] [GAME ...]
    uv run python bench/draw_shots.py --seat-page

Writes `draw-<name>.png` per game (the drawing only) and prints each file's size. With
`--seat-page`, photographs instead a person's browser seat page of Cattle Trade
(`seat-cattle-trade.png`): the first question of a `cattle play` with seat 0 taken through
the browser.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import uvicorn

from cli.web.app import create_app
from events import catalog
from events.store import DuckStore
from runner.session import play_and_store

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")

GAMES: dict[str, tuple[str, int, int]] = {
    "tic-tac-toe": ("openspiel:tic_tac_toe", 3, 0),
    "connect-four": ("openspiel:connect_four", 3, 0),
    "breakthrough": ("openspiel:breakthrough(rows=6,columns=5)", 4, 0),
    "chess": ("openspiel:chess", 5, 0),
    "go": ("openspiel:go(board_size=7)", 3, 0),
    "hex": ("openspiel:hex(board_size=5)", 3, 0),
    "leduc-poker": ("openspiel:leduc_poker", 3, 1),
    "santorini": ("gamebench:santorini", 3, 0),
    "codenames": ("gamebench:codenames", 3, 1),
    "sea-battle": ("gamebench:sea_battle", 3, 0),
    "hive": ("gamebench:hive", 3, 0),
    "pit": ("gamebench:pit", 3, 0),
    "arctic-scavengers": ("gamebench:arctic_scavengers", 3, 0),
    "air-land-sea": ("gamebench:air_land_sea", 3, 0),
    "mafia": ("mindgames:mafia", 3, 0),
    "blotto": ("mindgames:blotto", 3, 1),
    "prisoners": ("mindgames:ipd3", 3, 1),
    "textarena-codenames": ("mindgames:codenames", 3, 2),
    "traitor": ("gamebench:are_you_the_traitor", 3, 1),
    "pact": ("pact", 3, 0),
    "two-rooms": ("gamebench:two_rooms_and_a_boom", 3, 2),
}
"""Name of the picture: (game, seed, seat whose view is drawn)."""


PART = {
    "blotto": ".drawing table.blotto",
    "prisoners": ".drawing svg.ipd-table",
    "textarena-codenames": ".drawing svg.codenames-board",
}
"""The part of a drawing a picture holds, where not all of it (a long chat above a table)."""


def config_of(name: str) -> Any:
    """The configuration a game name carries (its default preset otherwise)."""
    gdef = catalog.get(name)
    configure = gdef.extras.get("configure")
    got = configure(name) if configure is not None else None
    return got if got is not None else gdef.preset(gdef.default_preset)


AGENTS = {
    "pact": ["truthful", "anchor"],
    "textarena-codenames": ["codenames-topics", "codenames-topics", "codenames-random", "random"],
}
"""The code agents of a picture's game, where not random ones."""


def agents_for(name: str, config: Any) -> list[str]:
    """The code agents of a picture: random ones, one per seat, unless `AGENTS` names them."""
    return AGENTS.get(name) or ["random"] * int(getattr(config, "players", 2))


@contextlib.contextmanager
def serving(db: Path, seats: Path | None = None) -> Iterator[str]:
    """The viewer over `db` (taking seats from `seats` when given) in this process, on a port
    the system picks; its base URL."""
    server = uvicorn.Server(
        uvicorn.Config(create_app(db, seats=seats), host="127.0.0.1", port=0, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        if not thread.is_alive():
            raise RuntimeError("the viewer did not start")
        time.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def _first_question(seats: Path, proc: subprocess.Popen[bytes]) -> str | None:
    """The token of the first question the game asks, or None if it ends (or a minute
    passes) first."""
    from agents.human.mailbox import waiting

    end = time.monotonic() + 60
    while proc.poll() is None and time.monotonic() < end:
        for q in waiting(seats):
            return str(q["token"])
        time.sleep(0.05)
    return None


def seat_page(out: Path) -> None:
    """Photograph a person's browser seat page of Cattle Trade at its first question."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        db, seats = Path(tmp) / "seat.duckdb", Path(tmp) / "seats"
        args = ["play", "--game", "cattle-trade", "--seed", "3", "--db", str(db), "--init"]
        args += ["--agents", "human?via=web,random*3"]
        proc = subprocess.Popen(
            [sys.executable, "-m", "cli.main", *args],
            cwd=ROOT,
            env={**os.environ, "CATTLE_SEATS": str(seats)},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            token = _first_question(seats, proc)
            if token is None:
                raise RuntimeError("the game asked its browser seat nothing")
            with serving(db, seats) as url, sync_playwright() as p:
                browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
                page = browser.new_page(viewport={"width": 900, "height": 700})
                page.goto(f"{url}/seats/{token}")
                page.wait_for_selector("#seat-drawing")
                shot = out / "seat-cattle-trade.png"
                page.screenshot(path=str(shot), full_page=True)
                print(f"{shot} {shot.stat().st_size:,} bytes")
                browser.close()
        finally:
            proc.terminate()
            proc.wait(timeout=30)


def main() -> None:
    """Play, serve, open and photograph each game's drawing."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    parser.add_argument("--seat-page", action="store_true", help="Cattle Trade's seat page")
    parser.add_argument("names", nargs="*", default=list(GAMES))
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    if args.seat_page:
        seat_page(args.out)
        return
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "shots.duckdb"
        ids: dict[str, tuple[str, int]] = {}
        with DuckStore(db) as store:
            for name in args.names:
                game, seed, seat = GAMES[name]
                config = config_of(game)
                gid, _ = play_and_store(store, config, seed, agents_for(name, config))
                ids[name] = (gid, seat)
        with serving(db) as url, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1300, "height": 900})
            for name, (gid, seat) in ids.items():
                page.goto(f"{url}/games/{gid}?seat={seat}")
                page.wait_for_selector("body[data-ready=yes]")
                page.keyboard.press("End")
                # The bar of buttons stays at the top as the page scrolls: it would cover the
                # top of a tall drawing in its picture.
                page.evaluate("document.querySelector('.controls').style.position = 'static'")
                shot = args.out / f"draw-{name}.png"
                part = PART.get(name, ".drawing")
                page.locator(f"#table {part}").first.screenshot(path=str(shot))
                print(
                    f"{shot.relative_to(ROOT) if shot.is_relative_to(ROOT) else shot}"
                    f" {shot.stat().st_size:,} bytes"
                )
            browser.close()


if __name__ == "__main__":
    main()
