"""A store of games for the viewer's tests, the viewer in a real subprocess, and Chromium."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import duckdb
from starlette.routing import Route

from agents.llm.loopback import Incoming, LegalPolicy, LoopbackServer
from engine.cattle.presets import load_preset
from events import catalog
from events.store import DuckStore
from runner import tournament
from runner.session import play_and_store

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

SCRIPT = "<script>window.__pwned = 1</script>"
ONERROR = '<img src="x" onerror="window.__pwned = 2">'
HOSTILE_NAME = '<b onmouseover="window.__pwned=3">evil</b>'


class HostilePolicy(LegalPolicy):
    """Legal moves whose reasoning and notes carry markup that would run if rendered as HTML."""

    def decide(self, req: Incoming) -> dict[str, Any] | str:
        fields = super().decide(req)
        if isinstance(fields, str):
            return f"{fields} {ONERROR}"
        fields["reasoning"] = f"{SCRIPT} because {ONERROR}"
        return fields


def model_env() -> dict[str, str]:
    """Fake keys and a quick backoff for model seats (nothing leaves the machine)."""
    return {
        "OPENAI_API_KEY": "sk-test-web-not-a-key",
        "ANTHROPIC_API_KEY": "sk-ant-test-web-not-a-key",
        "CATTLE_LLM_BACKOFF": "0.001",
    }


class Games:
    """Ids of the games stored for the tests."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.cattle = ""
        self.pact = ""
        self.model = ""
        self.named = ""


def build_store(tmp: Path) -> Games:
    """A store with a Cattle Trade game, a PACT game, a model game with hostile answers, a
    game whose agent names hold markup, and a small tournament."""
    db = tmp / "web.duckdb"
    games = Games(db)
    saved = {k: os.environ.get(k) for k in (*model_env(), "CATTLE_LLM_CONFIG")}
    empty = tmp / "llm.toml"
    empty.write_text("")
    os.environ.update(model_env())
    os.environ["CATTLE_LLM_CONFIG"] = str(empty)
    try:
        with DuckStore(db) as store:
            games.cattle, _ = play_and_store(store, load_preset("standard"), 11, ["random"] * 4)
            pact = catalog.get("pact").preset("standard")
            games.pact, _ = play_and_store(store, pact, 5, ["truthful", "anchor"])
            with LoopbackServer(HostilePolicy()) as srv:
                spec = f"openai:loop@{srv.openai_url}"
                games.model, _ = play_and_store(
                    store, load_preset("micro-duel"), 2, [spec, "random"]
                )
            games.named, _ = play_and_store(store, load_preset("standard"), 12, ["random"] * 4)
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    con = duckdb.connect(str(db))
    try:
        seats = json.loads(
            con.execute("SELECT seats FROM games WHERE game_id = ?", [games.named]).fetchone()[0]
        )
        seats[1]["agent"] = HOSTILE_NAME
        con.execute(
            "UPDATE games SET seats = ? WHERE game_id = ?", [json.dumps(seats), games.named]
        )
    finally:
        con.close()
    # The tournament `cattle tournament --agents random,economy --games 4 --seed 3 --name cup
    # --preset micro-duel` plays (its default format for Cattle Trade is mixed), played here.
    with DuckStore(db) as store:
        duel = load_preset("micro-duel")
        tournament.ensure_schema(store)
        tournament.create(store, "cup", "mixed", ("random", "economy"), 4, 3, duel)
        _, tasks, _ = tournament.pending_tasks(store, "cup")
        assert tournament.play_tournament(store, "cup", duel, tasks) == 4
    return games


class Served(str):
    """The base URL of a running viewer, with the operator's key of its seats page."""

    key: str

    @property
    def seats(self) -> str:
        """The operator's page of the seats waiting on people."""
        return f"{self}/seats?key={self.key}"


@contextmanager
def serving(db: Path, host: str = "127.0.0.1", seats: Path | None = None) -> Iterator[Served]:
    """`cattle serve` on `db` in a subprocess (listening on `host`, on a port the system
    picks, taking seats from the question folder `seats` when given); yields its base URL
    (read from what it prints once it listens) and stops it after."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "cli.main",
            "serve",
            "--db",
            str(db),
            "--host",
            host,
            "--port",
            "0",
            *(["--seats", str(seats)] if seats is not None else []),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "COLUMNS": "300", "NO_COLOR": "1"},
    )
    try:
        assert proc.stdout is not None
        said = [proc.stdout.readline(), proc.stdout.readline()]
        found = re.search(r"(http://\S+?)/ ", said[0])
        key = re.search(r"/seats\?key=(\S+)", said[1])
        assert found and key, (said, proc.poll() is None or proc.communicate())
        url = Served(found.group(1))
        url.key = key.group(1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def chromium_missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if not CHROMIUM.exists():
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (uv sync)"
    return None


@contextmanager
def served_here(app: Any) -> Iterator[str]:
    """`app` served over real HTTP by uvicorn in a thread of this process, on a port the
    system picks; yields its base URL and stops it after."""
    import threading

    import uvicorn

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        # The socket listens already: a request made before the server has started waits in
        # its queue, and is answered once the app is up.
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()


def addresses(
    app: Any,
    values: dict[str, list[str]],
    seats: tuple[str, ...] = ("public", "all", "0", "1", "2", "3"),
) -> list[str]:
    """Every address the app's routes answer (GET), each path parameter filled with every
    value given for it, each without and with every `seat` of `seats`."""
    out = []
    for route in app.routes:
        assert isinstance(route, Route), route
        if "GET" not in (route.methods or set()):
            continue
        paths = [route.path]
        for name in re.findall(r"{(\w+)(?::\w+)?}", route.path):
            assert name in values, f"no value to try for {{{name}}} of {route.path}"
            paths = [
                re.sub(rf"{{{name}(?::\w+)?}}", v, p, count=1) for p in paths for v in values[name]
            ]
        for path in paths:
            out += [path, *(f"{path}?seat={s}" for s in seats)]
    return out


@contextmanager
def launch_chromium() -> Iterator[Any]:
    """The system's Chromium, headless, with the flags this machine needs; closed on exit."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()
