"""One worker's limits on a provider, shared by all the games it plays at once: calls in
flight, tokens per minute, and the pause a rate-limited answer asks for (Retry-After)."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.llm.loopback import Answer, Incoming, LegalPolicy, LoopbackServer
from agents.llm.spec import parse_model_spec, provider_settings, resolve
from agents.llm.transport import ProviderGate, Reply, Request, gate, live_transport
from events.agent import ChatMessage
from events.config import ConfigError


def request(chars: int = 400) -> Request:
    return Request(
        model="loop",
        messages=(ChatMessage(role="user", content="x" * chars),),
        temperature=None,
        max_tokens=64,
        reasoning_effort=None,
    )


@settings(max_examples=12, deadline=None)
@given(
    limit=st.integers(200, 1000),
    sizes=st.lists(st.integers(10, 200), min_size=3, max_size=10),
    latency=st.floats(0.0, 0.05),
)
def test_tokens_started_within_any_window_stay_under_the_limit(
    limit: int, sizes: list[int], latency: float
) -> None:
    window = 0.3
    starts: list[tuple[float, int]] = []

    async def one(g: ProviderGate, tokens: int) -> None:
        async with g.call(tokens) as settle:
            starts.append((time.monotonic(), tokens))
            await asyncio.sleep(latency)
            settle(Reply(input_tokens=tokens))

    async def main() -> None:
        g = ProviderGate(calls=8, tokens_per_minute=limit, window=window)
        await asyncio.gather(*(one(g, n) for n in sizes))

    asyncio.run(main())
    assert len(starts) == len(sizes)
    # Every call that started counted its tokens until a window after it was answered, so
    # the calls started within any span shorter than the window never exceed the limit.
    for t, _ in starts:
        inside = sum(n for s, n in starts if t <= s < t + window - 0.02)
        assert inside <= limit, (starts, limit)


def test_calls_in_flight_are_capped_for_all_games_of_a_worker() -> None:
    peak = 0
    now = 0

    async def one(g: ProviderGate) -> None:
        nonlocal peak, now
        async with g.call(1) as settle:
            now += 1
            peak = max(peak, now)
            await asyncio.sleep(0.01)
            now -= 1
            settle(Reply())

    async def main() -> None:
        g = gate("openai", 3)
        assert gate("openai", 50) is g  # every game of the loop gets the same limits
        assert gate("anthropic", 3) is not g
        await asyncio.gather(*(one(g) for _ in range(20)))

    asyncio.run(main())
    assert peak == 3


class RateLimitedOnce:
    """Answers the first request with 429 and Retry-After; records when each one arrived."""

    def __init__(self, retry_after: float) -> None:
        self.retry_after = retry_after
        self.arrivals: list[float] = []
        self.lock = threading.Lock()
        self.legal = LegalPolicy()

    def __call__(self, req: Incoming) -> Answer:
        with self.lock:
            self.arrivals.append(time.monotonic())
            first = len(self.arrivals) == 1
        if first:
            return Answer(
                status=429,
                headers={"retry-after": str(self.retry_after)},
                text=json.dumps({"error": {"message": "slow down", "type": "rate_limit"}}),
            )
        return Answer(text=json.dumps({"action": "pass"}))


def test_retry_after_holds_back_every_call_of_the_worker() -> None:
    policy = RateLimitedOnce(retry_after=0.6)
    with LoopbackServer(policy) as server:
        options = resolve(parse_model_spec(f"openai:loop@{server.openai_url}"))
        first = live_transport(options, provider_settings("openai"))
        other = live_transport(options, provider_settings("openai"))  # another game's seat

        async def main() -> tuple[Reply, Reply, float]:
            limited = await first.send(request())
            answered_at = time.monotonic()
            try:
                later = await other.send(request())
            finally:
                await first.close()
                await other.close()
            return limited, later, answered_at

        limited, later, answered_at = asyncio.run(main())
    assert limited.status == 429 and limited.retry_after == 0.6
    assert later.error is None
    # The second game's call reached the server only after the pause the first one was told.
    assert policy.arrivals[1] - answered_at >= 0.55, policy.arrivals


def test_tokens_per_minute_come_from_the_environment_or_the_config(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    assert provider_settings("openai").tokens_per_minute is None
    monkeypatch.setenv("CATTLE_OPENAI_TPM", "90000")
    assert provider_settings("openai").tokens_per_minute == 90_000
    monkeypatch.delenv("CATTLE_OPENAI_TPM")
    cfg = tmp_path / "tpm.toml"
    cfg.write_text("[anthropic]\ntokens_per_minute = 40000\n")
    monkeypatch.setenv("CATTLE_LLM_CONFIG", str(cfg))
    assert provider_settings("anthropic").tokens_per_minute == 40_000
    for bad in ("lots", "0", "-5"):
        monkeypatch.setenv("CATTLE_ANTHROPIC_TPM", bad)
        with pytest.raises(ConfigError, match="CATTLE_ANTHROPIC_TPM"):
            provider_settings("anthropic")
