"""Benchmark of model seats against a loopback server (prints figures, asserts nothing).

1. Harness time per model call beyond the HTTP round trip: a standard game with four
   model seats against a server that answers at once; the time outside the SDK call
   (prompt rendering, parsing, recording, the engine) and the SDK's own cost over a bare
   HTTP round trip, per call.
2. Throughput: standard games against a server that answers after --delay seconds; one
   game alone, then --games games at once in one event loop.

    uv run python bench/llm.py [--delay 0.2] [--games 16] [--skip-throughput]
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import subprocess
import sys
import time
from typing import Any

os.environ.setdefault("OPENAI_API_KEY", "bench")
os.environ.setdefault("ANTHROPIC_API_KEY", "bench")
os.environ.setdefault("CATTLE_OPENAI_CONCURRENCY", "64")
os.environ.setdefault("CATTLE_ANTHROPIC_CONCURRENCY", "64")

import logging

import structlog

structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))

from agents import make_agents, parse_spec  # noqa: E402
from agents.llm import transport  # noqa: E402
from engine.cattle.presets import load_preset  # noqa: E402
from events.agent import LLMCall  # noqa: E402
from runner.driver import Game  # noqa: E402


def start_server(port: int, delay: float) -> subprocess.Popen[bytes]:
    """The loopback server in its own process (so it does not share our interpreter)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "agents.llm.loopback", "--port", str(port), "--delay", str(delay)],
        stdout=subprocess.PIPE,
    )
    assert proc.stdout is not None
    proc.stdout.readline()  # serving
    return proc


def specs(port: int) -> list[str]:
    o, a = f"http://127.0.0.1:{port}/v1", f"http://127.0.0.1:{port}"
    return [f"openai:m0@{o}", f"anthropic:m1@{a}", f"openai:m2@{o}", f"anthropic:m3@{a}"]


async def run_game(seed: int, port: int, mode: str = "canonical") -> Any:
    config = load_preset("standard", auction_mode=mode)
    seats = [parse_spec(s) for s in specs(port)]
    agents = make_agents(seats, seed, config)
    game = Game(config, seed, agents, seats)
    try:
        return await game.run_async()
    finally:
        for a in agents:
            await a.close()


def raw_rtt(port: int, n: int = 300) -> float:
    """Mean seconds of a bare keep-alive POST (http.client) of a typical request."""
    body = {
        "model": "m",
        "messages": [
            {"role": "system", "content": "x" * 4000},
            {"role": "user", "content": "Minimum bid: 20\nYour money: 90\n" + "y" * 2000},
        ],
    }
    data = json.dumps(body).encode()
    conn = http.client.HTTPConnection("127.0.0.1", port)
    headers = {"content-type": "application/json"}

    def post() -> None:
        conn.request("POST", "/v1/chat/completions", body=data, headers=headers)
        conn.getresponse().read()

    post()
    t0 = time.perf_counter()
    for _ in range(n):
        post()
    conn.close()
    return (time.perf_counter() - t0) / n


def overhead(port: int) -> None:
    inside = 0.0
    original = transport._SDKTransport.send

    async def timed(self: Any, request: Any) -> Any:
        nonlocal inside
        t0 = time.perf_counter()
        try:
            return await original(self, request)
        finally:
            inside += time.perf_counter() - t0

    transport._SDKTransport.send = timed  # type: ignore[method-assign]
    try:
        # legacy auctions ask one bidder at a time: no call overlaps another, so the time
        # inside the SDK and the time outside it add up to the wall time
        asyncio.run(run_game(99, port, "legacy"))  # warm-up: imports, first connections
        inside = 0.0
        t0 = time.perf_counter()
        record = asyncio.run(run_game(1, port, "legacy"))
        wall = time.perf_counter() - t0
    finally:
        transport._SDKTransport.send = original  # type: ignore[method-assign]
    calls = sum(isinstance(e, LLMCall) for e in record.events)
    rtt = raw_rtt(port)
    print(
        f"standard game (legacy auctions: one call at a time), 4 model seats, instant server: "
        f"{calls} calls in {wall:.2f} s"
    )
    print(f"  per call, total:                         {wall / calls * 1000:7.2f} ms")
    print(f"  per call, inside the SDK call:           {inside / calls * 1000:7.2f} ms")
    print(f"  bare HTTP round trip (same server) :     {rtt * 1000:7.2f} ms")
    print(
        f"  harness outside the SDK call:            {(wall - inside) / calls * 1000:7.2f} ms"
        "   (prompt, parse, record, engine)"
    )
    print(f"  harness + SDK beyond the round trip:     {(wall / calls - rtt) * 1000:7.2f} ms")


def throughput(port: int, games: int, delay: float) -> None:
    t0 = time.perf_counter()
    one = asyncio.run(run_game(1, port))
    t1 = time.perf_counter() - t0
    c1 = sum(isinstance(e, LLMCall) for e in one.events)
    print(f"server answering after {delay * 1000:.0f} ms:")
    print(f"  1 game:   {t1:7.1f} s, {c1} calls, {c1 / t1:6.1f} calls/s")

    async def many() -> list[Any]:
        return await asyncio.gather(*(run_game(s, port) for s in range(1, games + 1)))

    t0 = time.perf_counter()
    records = asyncio.run(many())
    tn = time.perf_counter() - t0
    cn = sum(sum(isinstance(e, LLMCall) for e in r.events) for r in records)
    done = sum(r.result is not None for r in records)
    print(f"  {games} games: {tn:7.1f} s, {cn} calls, {cn / tn:6.1f} calls/s, {done} completed")
    print(
        f"  throughput vs one game: {games * t1 / tn:5.1f}x in games/s, "
        f"{(cn / tn) / (c1 / t1):5.1f}x in calls/s"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--delay", type=float, default=0.2)
    ap.add_argument("--games", type=int, default=16)
    ap.add_argument("--port", type=int, default=8791)
    ap.add_argument("--skip-throughput", action="store_true")
    args = ap.parse_args()
    fast = start_server(args.port, 0.0)
    try:
        overhead(args.port)
    finally:
        fast.terminate()
        fast.wait()
    if args.skip_throughput:
        return
    slow = start_server(args.port + 1, args.delay)
    try:
        throughput(args.port + 1, args.games, args.delay)
    finally:
        slow.terminate()
        slow.wait()


if __name__ == "__main__":
    main()
