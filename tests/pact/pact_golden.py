"""Golden PACT playthroughs: actions in; every event and every prompt out.

A golden file holds a game's set-up (preset, seed, agents), the actions each seat took (in
the order it was asked), the whole event stream, and every prompt a model in either seat
would have read: its system prompt, then one per decision. The test feeds the actions back
through the rules and requires identical events and prompts.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
from pactkit import make, play

from agents.pact.game import PRESETS
from engine.pact.rules import SendMessage, SubmitQuote, quote_from_raw, quote_raw
from events.pact.game import PactConfig
from projections.pact.view import PactPrompter, PactView

GOLDEN_DIR = Path(__file__).parent / "golden" / "data"
CASES: tuple[tuple[str, int, str, str], ...] = (
    ("standard", 6, "anchor", "mirror"),
    ("standard", 18, "mirror", "anchor"),
    ("standard", 12, "truthful", "random"),
    ("standard", 8, "random", "truthful"),
    ("quick", 24, "noisy", "anchor"),
)
"""(preset, seed, buyer, seller) of every golden game; `noisy` sends bad input."""

PROMPTER = PactPrompter()


def name_of(case: tuple[str, int, str, str]) -> str:
    """The file stem of a case."""
    preset, seed, buyer, seller = case
    return f"{preset}-{seed}-{buyer}-{seller}"


def path_for(case: tuple[str, int, str, str]) -> Path:
    """Where a case's golden file lives."""
    return GOLDEN_DIR / f"{name_of(case)}.json"


def action_text(action: Any) -> list[Any]:
    """An action as JSON-ready data that keeps any quote exactly (NaN and text included)."""
    if isinstance(action, SendMessage):
        return ["message", action.seat, action.text]
    assert isinstance(action, SubmitQuote)
    return ["quote", action.seat, quote_raw(action.price)]


def action_of(data: list[Any]) -> Any:
    """The action written by `action_text`."""
    kind, seat, body = data
    if kind == "message":
        return SendMessage(seat=seat, text=body)
    return SubmitQuote(seat=seat, price=quote_from_raw(body))


class Recording:
    """Wraps an agent and keeps every action it returns."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.actions: list[Any] = []

    def act(self, view: PactView, d: Any) -> Any:
        action = self.inner.act(view, d)
        self.actions.append(action)
        return action


class Scripted:
    """Plays back a fixed list of actions."""

    def __init__(self, actions: list[Any]) -> None:
        self.actions = list(actions)
        self.next = 0

    def act(self, view: PactView, d: Any) -> Any:
        action = self.actions[self.next]
        self.next += 1
        return action


def run(config: PactConfig, seed: int, agents: list[Any], names: list[str]) -> dict[str, Any]:
    """Play a game; its events (encoded) and every prompt of both seats."""
    encoder = msgspec.json.Encoder(order="deterministic")
    prompts: list[dict[str, Any]] = [
        {"seat": seat, "kind": "system", "text": PROMPTER.system_prompt(config, None, seat)}
        for seat in (0, 1)
    ]

    def before(seat: int, view: PactView, d: Any, log: list[Any]) -> None:
        text = PROMPTER.decision_prompt(view, d)
        prompts.append({"seat": seat, "round": d.round, "kind": d.kind, "text": text})

    played = play(config, seed, agents, names, before=before)
    return {
        "events": [encoder.encode(e).decode() for e in played.log],
        "prompts": prompts,
    }


def render(case: tuple[str, int, str, str]) -> str:
    """A fresh golden file for a case, played by its agents."""
    preset, seed, buyer, seller = case
    config = PRESETS[preset]
    agents = [Recording(make(n, seat, seed, config)) for seat, n in enumerate((buyer, seller))]
    out = run(config, seed, agents, [buyer, seller])
    doc = {
        "preset": preset,
        "seed": seed,
        "agents": [buyer, seller],
        "actions": [[action_text(a) for a in agent.actions] for agent in agents],
        **out,
    }
    return dump(doc)


def dump(doc: dict[str, Any]) -> str:
    """JSON with one action list, event or prompt per line, for readable diffs."""
    head = {k: doc[k] for k in ("preset", "seed", "agents")}
    lines = ["{", json.dumps(head)[1:-1] + ","]
    for key in ("actions", "events", "prompts"):
        items = doc[key]
        lines.append(f'"{key}": [')
        for i, item in enumerate(items):
            lines.append(
                "  " + json.dumps(item, sort_keys=True) + ("," if i < len(items) - 1 else "")
            )
        lines.append("]" + ("," if key != "prompts" else ""))
    lines.append("}")
    return "\n".join(lines) + "\n"


def load(path: Path) -> dict[str, Any]:
    """Read a golden file."""
    return json.loads(path.read_text())
