"""Trained policies in the seats: the agent spec `policy:MODULE:CALLABLE`.

The callable is imported from `MODULE` (which must be importable: installed, or on
PYTHONPATH) and asked for every decision of its seat with what the environments of
`runner.rl` hand a learner for that seat, so a policy trained through them plays unchanged:

    def CALLABLE(observation: dict[str, numpy.ndarray], info: dict[str, Any]) -> int | str

`observation` holds "observation" (the game's vector; on the text channel the prompt as UTF-8
bytes) and, for games with action ids, "action_mask"; `info` holds "seat", "decision" (the
kind of decision) and, on the text channel, "text" (the prompt). It returns an action id (text
for games without ids). The seat's moves are the game's own events, so a stored game verifies
without the policy: a replay reads its moves from the log and checks each by the rules, as it
does for a model seat. Games without action ids play through their text channel.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from typing import Any

from agents.base import Agent
from events import catalog
from events.config import SeatSpec
from runner.rl.codec import check_action, codec_for

KIND = "policy"

_SPEC = re.compile(r"^policy:([A-Za-z_][\w.]*):([A-Za-z_]\w*)$")

Policy = Callable[[dict[str, Any], dict[str, Any]], Any]
"""A `policy:` callable: (observation, info) -> action id (or answer text)."""


class PolicySpecError(ValueError):
    """A `policy:` spec that is not `policy:MODULE:CALLABLE`, or names nothing callable."""


class PolicyError(RuntimeError):
    """A `policy:` callable raised, or answered with something that is not an action of the
    game (the game stops there, as it does when a code agent raises)."""


def parse_policy_spec(text: str) -> SeatSpec:
    """Check the form `policy:MODULE:CALLABLE` (the module is imported only when a seat is
    built, so that a stored game is checked and verified without it)."""
    if _SPEC.match(text.strip()) is None:
        raise PolicySpecError(f"agent {text!r}: a policy seat is policy:MODULE:CALLABLE")
    return SeatSpec(agent=text.strip())


def load_policy(spec: str) -> Policy:
    """The callable a `policy:` spec names."""
    found = _SPEC.match(spec.strip())
    if found is None:
        raise PolicySpecError(f"agent {spec!r}: a policy seat is policy:MODULE:CALLABLE")
    module, name = found.groups()
    try:
        fn = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as exc:
        raise PolicySpecError(f"agent {spec!r}: cannot load {module}.{name}: {exc}") from None
    if not callable(fn):
        raise PolicySpecError(f"agent {spec!r}: {module}.{name} is not callable")
    policy: Policy = fn
    return policy


class PolicyAgent(Agent):
    """A seat played by a `policy:` callable, through the game's codec."""

    is_async = False

    def __init__(self, spec: str, seat: int, seed: int, config: Any) -> None:
        super().__init__(seat, seed, config)
        self.spec = spec
        self.policy = load_policy(spec)
        self.codec = codec_for(catalog.for_config(config), config)

    def act(self, view: Any, decision: Any) -> Any:
        seat = self.seat
        codec = self.codec
        obs = {"observation": codec.observe(view, decision, seat, None)}
        info: dict[str, Any] = {"seat": seat, "decision": decision.kind}
        if codec.discrete:
            obs["action_mask"] = codec.mask(view, decision, seat)
        else:
            info["text"] = codec.text(view, decision, seat)  # type: ignore[attr-defined]
        spec = self.spec
        try:
            choice = self.policy(obs, info)
        except Exception as exc:
            raise PolicyError(f"agent {spec!r} raised {type(exc).__name__}: {exc}") from exc
        try:
            check_action(codec, choice)
            return codec.action(view, decision, seat, choice)
        except (TypeError, ValueError) as exc:
            raise PolicyError(f"agent {spec!r} answered {choice!r}: {exc}") from None


def make_policy_agent(spec: SeatSpec, seat: int, seed: int, config: Any) -> Agent:
    """The agent of a `policy:` seat."""
    return PolicyAgent(spec.agent, seat, seed, config)


AGENT_KINDS = {KIND: (make_policy_agent, parse_policy_spec, None)}
"""The agent kind this module adds (`agents.BUILTIN_KINDS` names it). It has no replayer: a
replay reads a policy seat's moves from the log and the rules check each one."""
