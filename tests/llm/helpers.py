"""Helpers for model-seat tests: fake keys, a loopback server, no-network blocks."""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from agents.llm.loopback import LoopbackServer

OPENAI_KEY = "sk-test-openai-DO-NOT-LEAK-1234"
ANTHROPIC_KEY = "sk-ant-test-DO-NOT-LEAK-5678"


def set_env(mp: pytest.MonkeyPatch, cfg_dir: Path) -> None:
    """Keys that must never be stored, no config file, and millisecond backoff."""
    mp.setenv("OPENAI_API_KEY", OPENAI_KEY)
    mp.setenv("ANTHROPIC_API_KEY", ANTHROPIC_KEY)
    mp.delenv("OPENAI_BASE_URL", raising=False)
    mp.delenv("ANTHROPIC_BASE_URL", raising=False)
    mp.setenv("CATTLE_LLM_BACKOFF", "0.001")
    empty = cfg_dir / "llm.toml"
    empty.write_text("")
    mp.setenv("CATTLE_LLM_CONFIG", str(empty))


def seat(server: LoopbackServer, provider: str, model: str = "loop", opts: str = "") -> str:
    """An agent spec pointing at the loopback server."""
    url = server.openai_url if provider == "openai" else server.url
    return f"{provider}:{model}@{url}" + (f"?{opts}" if opts else "")


@contextlib.contextmanager
def no_network() -> Iterator[None]:
    """Any attempt to open a socket connection fails inside this block."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError("networking is disabled in this test")

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(socket.socket, "connect", refuse)
        mp.setattr(socket.socket, "connect_ex", refuse)
        mp.setattr(socket, "create_connection", refuse)
        yield
