"""Model-backed seats: ``openai:MODEL`` and ``anthropic:MODEL`` (see agents.llm.spec)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agents.llm.agent import LLMAgent, records_outcomes
from agents.llm.budget import recorded_cut
from agents.llm.spec import (
    PROVIDERS,
    SpecError,
    label_problem,
    parse_model_spec,
    provider_settings,
    resolve,
)
from agents.llm.transport import RecordedTransport, live_transport
from events.agent import LLMCall
from events.config import SeatSpec


def make_llm_agent(spec: SeatSpec, seat: int, seed: int, config: Any) -> LLMAgent:
    """A live model seat (reads keys and URLs from the environment or the config file)."""
    options = resolve(spec)
    settings = provider_settings(options.provider)
    return LLMAgent(
        seat,
        seed,
        config,
        options,
        live_transport(options, settings),
        backoff=settings.backoff,
        spec=spec.agent,
    )


def replay_llm_agent(
    spec: SeatSpec, seat: int, seed: int, config: Any, log: Sequence[Any]
) -> LLMAgent:
    """A model seat that re-reads the answers its game recorded: prompts and parsing run
    again, the network is never touched."""
    problem = label_problem(spec)
    if problem is not None:
        raise SpecError(f"seat {seat} is named {spec.agent!r}, but {problem}")
    calls = [e for e in log if isinstance(e, LLMCall) and e.seat == seat]
    agent = LLMAgent(seat, seed, config, resolve(spec), RecordedTransport(calls), spec=spec.agent)
    agent.record_outcomes = records_outcomes(log, seat)
    agent.shared = recorded_cut(log, seat)
    return agent


AGENT_KINDS = {
    provider: (make_llm_agent, parse_model_spec, replay_llm_agent) for provider in PROVIDERS
}
"""What agents.BUILTIN_KINDS finds here: every provider's (factory, spec parser, replayer)."""

__all__ = ["AGENT_KINDS", "LLMAgent", "make_llm_agent", "replay_llm_agent"]
