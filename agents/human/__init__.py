"""Seats played by a person at the terminal: ``human`` (or ``human:NAME``).

See docs/humans.md. The person sees exactly the text a model seat is prompted with (the
game's prompter renders it from the seat's view), the legal actions numbered when the
decision's answer schema lists them, and answers by number or in the game's own words; the
line is read by the same parser that reads model answers.
"""

from __future__ import annotations

from typing import Any

from agents.human.agent import (
    DEFAULT_TIMEOUT,
    Desk,
    HumanAgent,
    departed,
    departures,
    gone,
    is_human,
    parse_human_spec,
    terminal,
    text_with_timeout,
    with_timeout,
)
from events.config import SeatSpec


def make_human_agent(spec: SeatSpec, seat: int, seed: int, config: Any) -> HumanAgent:
    """A seat played at this process's terminal (stdin in, stderr out), or with `via=web`
    from the browser viewer (questions and answers through `agents.human.mailbox`)."""
    timeout = float(spec.options.get("timeout", DEFAULT_TIMEOUT))
    desk: Desk = terminal()
    if spec.options.get("via") == "web":
        from agents.human.mailbox import mailbox

        desk = mailbox()
    return HumanAgent(seat, seed, config, spec=spec.agent, timeout=timeout, terminal=desk)


def replay_human(spec: SeatSpec, seat: int, seed: int, config: Any, log: Any) -> Any:
    """A person's seat for a replay: their stored lines read again (agents.human.replay)."""
    from agents.human.replay import replay_human_agent

    return replay_human_agent(spec, seat, seed, config, log)


AGENT_KINDS = {"human": (make_human_agent, parse_human_spec, replay_human)}
"""What agents.BUILTIN_KINDS finds here. The replayer reads the person's stored lines again
with the seat's own parser (what they typed cannot be produced again)."""

__all__ = [
    "AGENT_KINDS",
    "DEFAULT_TIMEOUT",
    "HumanAgent",
    "departed",
    "departures",
    "gone",
    "is_human",
    "make_human_agent",
    "parse_human_spec",
    "text_with_timeout",
    "with_timeout",
]
