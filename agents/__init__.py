"""Agents: code agents and model-backed agents, built from spec strings.

Code agents belong to a game (its definition's `code_agents`, looked up by the game of the
configuration); agent kinds play every game: the built-in ones are named in `BUILTIN_KINDS`
(the model providers "openai" and "anthropic", and "human": a person at the terminal) and imported on first use, and a user adds
others with `register`.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable, Sequence
from typing import Any

from agents.base import Agent
from events import catalog
from events.config import SeatSpec
from events.suggest import did_you_mean

AgentFactory = Callable[[SeatSpec, int, int, Any], Agent]
"""Builds the agent of a seat from (spec, seat, game seed, config)."""

SpecParser = Callable[[str], SeatSpec]
"""Turns a spec string (with any options it carries) into a SeatSpec."""

Replayer = Callable[[SeatSpec, int, int, Any, Sequence[Any]], Agent]
"""Builds a seat's agent for a replay from (spec, seat, seed, config, stored log)."""

BUILTIN_KINDS: dict[str, str] = {
    "openai": "agents.llm",
    "anthropic": "agents.llm",
    "human": "agents.human",
    # A trained policy (`policy:MODULE:CALLABLE`): it reads the seat as the learning
    # environments show it, which live in the runner (named here, not imported).
    "policy": "runner.rl.policy",
}
"""Agent kinds that come with the harness: kind -> module whose `AGENT_KINDS[kind]` holds
(factory, spec parser, replayer). Imported when a spec first names the kind."""

_FACTORIES: dict[str, AgentFactory] = {}
_PARSERS: dict[str, SpecParser] = {}
_REPLAYERS: dict[str, Replayer] = {}


class UnknownAgent(ValueError):
    """An agent spec that names no known agent."""


def register(
    name: str,
    factory: AgentFactory,
    *,
    parse: SpecParser | None = None,
    replay: Replayer | None = None,
) -> None:
    """Make `name` (the part of a spec before any ':') build agents with `factory`, in
    every game.

    `parse`, if given, reads the provider's own spec syntax (model, base URL, options);
    `replay`, if given, builds the seat's agent for re-simulating a stored game.
    """
    _FACTORIES[name] = factory
    if parse is not None:
        _PARSERS[name] = parse
    if replay is not None:
        _REPLAYERS[name] = replay


_LOCK = threading.Lock()


def _load(kind: str) -> None:
    """Register a built-in agent kind from its module, the first time it is named."""
    module = BUILTIN_KINDS.get(kind)
    if module is None or kind in _FACTORIES:
        return
    with _LOCK:
        if kind in _FACTORIES:
            return
        factory, parse, replay = importlib.import_module(module).AGENT_KINDS[kind]
        register(kind, factory, parse=parse, replay=replay)


def replayer_for(spec: str) -> Replayer | None:
    """The replayer registered for the kind of agent `spec` names, if any."""
    kind = _kind(spec)
    _load(kind)
    return _REPLAYERS.get(kind)


def _kind(spec: str) -> str:
    """The agent kind a spec names: the part before any ':' or '?' ("human?timeout=60")."""
    return spec.split(":", 1)[0].split("?", 1)[0]


def _game(game: str | catalog.GameDef | None) -> catalog.GameDef:
    return game if isinstance(game, catalog.GameDef) else catalog.get(game)


def known_agents(game: str | catalog.GameDef | None = None) -> list[str]:
    """Names accepted as the first part of an agent spec in `game` (default: Cattle Trade)."""
    return sorted({*_game(game).code_agents, *_FACTORIES, *BUILTIN_KINDS})


def code_agents(game: str | catalog.GameDef | None = None) -> list[str]:
    """The code agents of `game`."""
    return sorted(_game(game).code_agents)


def make_agent(spec: SeatSpec | str, seat: int, seed: int, config: Any) -> Agent:
    """Build the agent for one seat from its spec (in the game `config` configures)."""
    game = catalog.for_config(config)
    if isinstance(spec, str):
        spec = parse_spec(spec, game)
    kind = spec.agent.split(":", 1)[0]
    maker = game.code_agents.get(kind.split("?", 1)[0])
    if maker is not None:
        if "?" in kind:  # a code agent with options (`mcts?simulations=200`)
            configured = game.extras.get("configured_agent")
            if configured is None:
                raise UnknownAgent(f"agent {spec.agent!r}: {game.name} agents take no options")
            made: Agent = configured(spec.agent, seat, seed, config)
            return made
        agent: Agent = maker(seat, seed, config)
        return agent
    kind = _kind(kind)
    _load(kind)
    factory = _FACTORIES.get(kind)
    if factory is None:
        raise UnknownAgent(
            f"unknown agent {spec.agent!r} for {game.name}"
            f"{did_you_mean(spec.agent, known_agents(game))};"
            f" known: {', '.join(known_agents(game))}"
        )
    return factory(spec, seat, seed, config)


def parse_spec(text: str, game: str | catalog.GameDef | None = None) -> SeatSpec:
    """A seat spec from text such as "random" (options may be added by providers)."""
    text = text.strip()
    if not text:
        raise UnknownAgent("empty agent spec")
    g = _game(game)
    _refuse_repeats(text)
    kind = text.split(":", 1)[0]
    if kind.split("?", 1)[0] in g.code_agents:
        if "?" in kind:  # options of a code agent, checked by its game
            check = g.extras.get("check_agent")
            if check is None:
                raise UnknownAgent(f"agent {text!r}: {g.name} agents take no options")
            try:
                check(text)
            except ValueError as exc:
                raise UnknownAgent(f"agent {text!r}: {exc}") from None
        return SeatSpec(agent=text)
    kind = _kind(kind)
    _load(kind)
    if kind not in _FACTORIES:
        raise UnknownAgent(
            f"unknown agent {text!r} for {g.name}{did_you_mean(text, known_agents(g))};"
            f" known: {', '.join(known_agents(g))}"
        )
    parser = _PARSERS.get(kind)
    spec = parser(text) if parser is not None else SeatSpec(agent=text)
    _check_model_seat(spec, g)
    return spec


def _refuse_repeats(text: str) -> None:
    """Refuse a spec that gives one option twice (which would otherwise be last-wins, so a
    seat's limit could be loosened by an option added after it)."""
    _, sep, query = text.partition("?")
    seen: set[str] = set()
    for item in query.split("&") if sep else ():
        key = item.partition("=")[0].strip()
        if not key:
            continue
        if key in seen:
            raise UnknownAgent(f"agent {text!r}: option {key!r} is given twice")
        seen.add(key)


_CHARACTERS_CHECKED: set[tuple[str, str]] = set()


def _check_model_seat(spec: SeatSpec, game: catalog.GameDef) -> None:
    """A model seat (its spec carries a character) needs the game's prompts in that character:
    checked here, before a game or tournament is stored, not at the seat's first prompt."""
    character = spec.options.get("character")
    if character is None or (game.name, str(character)) in _CHARACTERS_CHECKED:
        return
    if game.prompter is None:
        raise UnknownAgent(f"{game.name} has no model seats (agent {spec.agent!r})")
    try:
        game.prompter.system_prompt(game.preset(game.default_preset), str(character))
    except KeyError as exc:
        raise UnknownAgent(f"agent {spec.agent!r}: {exc.args[0]}") from None
    _CHARACTERS_CHECKED.add((game.name, str(character)))


def make_agents(specs: Sequence[SeatSpec | str], seed: int, config: Any) -> list[Agent]:
    """Build every seat's agent."""
    return [make_agent(s, i, seed, config) for i, s in enumerate(specs)]


__all__ = [
    "BUILTIN_KINDS",
    "Agent",
    "AgentFactory",
    "UnknownAgent",
    "code_agents",
    "known_agents",
    "make_agent",
    "make_agents",
    "parse_spec",
    "register",
    "replayer_for",
]
