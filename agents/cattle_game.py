"""Cattle Trade as a game of the catalogue: its parts from every layer, in one definition."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agents.base import Agent
from agents.economy import EconomyAgent
from agents.economy_v1 import EconomyAgentV1
from agents.llm.parse import default_action, parse_answer
from agents.random_agent import RandomAgent
from agents.setrace import SetRaceAgent
from agents.setrace_v1 import SetRaceAgentV1
from agents.tracker import TrackerAgent
from agents.tracker_v1 import TrackerAgentV1
from engine.actions import action_json
from engine.cattle import RULES
from engine.presets import load_preset, preset_names
from events import game as ev
from events.catalog import GameDef
from events.domain import GameConfig
from events.store import view_files
from projections import prompts
from projections.history import finished_turns
from projections.observation import SeatView
from projections.timeline import describe


class CattlePrompter:
    """Prompts and answer reading of Cattle Trade's model seats (projections.prompts,
    agents.llm.parse)."""

    def system_prompt(
        self, config: GameConfig, character: str | None, seat: int | None = None
    ) -> str:
        return prompts.system_prompt(config, character or "optimal")

    def decision_prompt(self, view: SeatView, decision: Any, memory: str, rejection: Any) -> str:
        return prompts.decision_prompt(view, decision, memory, rejection)

    def answer_schema(self, view: SeatView, decision: Any) -> dict[str, Any]:
        """The JSON schema of the answer (seats with ``output=json_schema``)."""
        return prompts.answer_schema(view, decision)

    def rejection(self, view: SeatView, seat: int, kind: str) -> ev.ActionRejected | None:
        """The engine's rejection of this seat's last answer, if it is asking again."""
        if view.history:
            last = view.history[-1]
            if (
                isinstance(last, ev.ActionRejected)
                and last.retry
                and last.seat == seat
                and last.decision == kind
            ):
                return last
        return None

    def parse(self, text: str, decision: Any, seat: int) -> tuple[Any, str, str | None]:
        return parse_answer(text, decision, seat)

    def default_action(self, decision: Any, seat: int) -> Any:
        return default_action(decision, seat)

    def action_json(self, action: Any) -> str:
        return action_json(action)

    def truncation_retry_prompt(self, kind: str) -> str:
        return prompts.truncation_retry_prompt(kind)

    def format_retry_prompt(self, kind: str, error: str) -> str:
        return prompts.format_retry_prompt(kind, error)

    def notes_lines(self, events: Sequence[Any], seat: int) -> list[str]:
        return prompts.event_lines(events, seat)

    def notes_ready(self, events: Sequence[Any]) -> int:
        """How many of the new events a scratchpad update takes: the finished turns."""
        return finished_turns(events)

    def notes_prompt(self, notes: str, lines: list[str]) -> str:
        return prompts.scratchpad_prompt(notes, lines)

    def cap_notes(self, text: str) -> str:
        return prompts.cap_notes(text)


def _maker(cls: type[Agent]) -> Any:
    return lambda seat, seed, config: cls(seat, seed, config)


def _presets() -> dict[str, GameConfig]:
    return {name: load_preset(name) for name in preset_names()}


def _describe(event: Any, viewer: int | None) -> str | None:
    return describe(event, viewer)


GAME = GameDef(
    name="cattle-trade",
    title="Cattle Trade",
    summary="auctions, hidden-offer trade challenges and bluffing for 2-5 players",
    aliases=("cattle",),
    event_types=tuple(ev.GAME_EVENT_TYPES),
    config_type=GameConfig,
    rules=RULES,
    presets=_presets,
    default_preset="standard",
    new_view=SeatView,
    describe=_describe,
    sql=tuple(view_files()),
    code_agents={
        "random": _maker(RandomAgent),
        TrackerAgent.spec: _maker(TrackerAgent),
        SetRaceAgent.spec: _maker(SetRaceAgent),
        EconomyAgent.spec: _maker(EconomyAgent),
        TrackerAgentV1.spec: _maker(TrackerAgentV1),
        SetRaceAgentV1.spec: _maker(SetRaceAgentV1),
        EconomyAgentV1.spec: _maker(EconomyAgentV1),
    },
    prompter=CattlePrompter(),
)
