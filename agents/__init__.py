"""Agents: code agents and model-backed agents, built from spec strings."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from agents.base import Agent
from agents.random_agent import RandomAgent
from events.domain import GameConfig, SeatSpec

AgentFactory = Callable[[SeatSpec, int, int, GameConfig], Agent]
"""Builds the agent of a seat from (spec, seat, game seed, config)."""

SpecParser = Callable[[str], SeatSpec]
"""Turns a spec string (with any options it carries) into a SeatSpec."""

_FACTORIES: dict[str, AgentFactory] = {}
_PARSERS: dict[str, SpecParser] = {}


class UnknownAgent(ValueError):
    """An agent spec that names no known agent."""


def register(name: str, factory: AgentFactory, *, parse: SpecParser | None = None) -> None:
    """Make `name` (the part of a spec before any ':') build agents with `factory`.

    `parse`, if given, reads the provider's own spec syntax (model, base URL, options).
    """
    _FACTORIES[name] = factory
    if parse is not None:
        _PARSERS[name] = parse


def known_agents() -> list[str]:
    """Names accepted as the first part of an agent spec."""
    return sorted(_FACTORIES)


def make_agent(spec: SeatSpec | str, seat: int, seed: int, config: GameConfig) -> Agent:
    """Build the agent for one seat from its spec."""
    if isinstance(spec, str):
        spec = parse_spec(spec)
    kind = spec.agent.split(":", 1)[0]
    factory = _FACTORIES.get(kind)
    if factory is None:
        raise UnknownAgent(f"unknown agent {spec.agent!r}; known: {', '.join(known_agents())}")
    return factory(spec, seat, seed, config)


def parse_spec(text: str) -> SeatSpec:
    """A seat spec from text such as "random" (options may be added by providers)."""
    text = text.strip()
    if not text:
        raise UnknownAgent("empty agent spec")
    kind = text.split(":", 1)[0]
    if kind not in _FACTORIES:
        raise UnknownAgent(f"unknown agent {text!r}; known: {', '.join(known_agents())}")
    parser = _PARSERS.get(kind)
    return parser(text) if parser is not None else SeatSpec(agent=text)


def make_agents(specs: Sequence[SeatSpec | str], seed: int, config: GameConfig) -> list[Agent]:
    """Build every seat's agent."""
    return [make_agent(s, i, seed, config) for i, s in enumerate(specs)]


register("random", lambda spec, seat, seed, config: RandomAgent(seat, seed, config))


def _register_code_agents() -> None:
    from agents.economy import EconomyAgent
    from agents.setrace import SetRaceAgent
    from agents.tracker import TrackerAgent

    def factory(cls: type[Agent]) -> AgentFactory:
        return lambda spec, seat, seed, config: cls(seat, seed, config)

    for cls in (TrackerAgent, SetRaceAgent, EconomyAgent):
        register(cls.spec, factory(cls))


_register_code_agents()

# Model-backed agents register themselves ("openai", "anthropic").
import agents.llm  # noqa: E402, F401

__all__ = [
    "Agent",
    "AgentFactory",
    "RandomAgent",
    "UnknownAgent",
    "known_agents",
    "make_agent",
    "make_agents",
    "parse_spec",
    "register",
]
