"""Cattle Trade as a game of the catalogue: its parts from every layer, in one definition."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from agents.base import Agent
from agents.cattle.economy import EconomyAgent
from agents.cattle.economy_v1 import EconomyAgentV1
from agents.cattle.economy_v2 import EconomyAgentV2
from agents.cattle.economy_v3 import EconomyAgentV3
from agents.cattle.parse import default_action, parse_answer
from agents.cattle.random_agent import RandomAgent
from agents.cattle.setrace import SetRaceAgent
from agents.cattle.setrace_v1 import SetRaceAgentV1
from agents.cattle.setrace_v2 import SetRaceAgentV2
from agents.cattle.setrace_v3 import SetRaceAgentV3
from agents.cattle.tracker import TrackerAgent
from agents.cattle.tracker_v1 import TrackerAgentV1
from agents.cattle.tracker_v2 import TrackerAgentV2
from agents.cattle.tracker_v3 import TrackerAgentV3
from engine.cattle.actions import action_json
from engine.cattle.decider import RULES
from engine.cattle.presets import load_preset, preset_names
from events.catalog import GameDef
from events.cattle import game as ev
from events.cattle.domain import GameConfig
from projections import editions
from projections.cattle import frames, prompts
from projections.cattle.history import finished_turns
from projections.cattle.observation import SeatView
from projections.cattle.timeline import describe

SQL = Path(__file__).resolve().parents[2] / "events" / "cattle" / "views.sql"
"""Money, bids and scores, and the analysis views (one per decision kind)."""


@dataclass(frozen=True)
class CattlePrompter:
    """Prompts and answer reading of Cattle Trade's model seats (projections.cattle.prompts,
    agents.cattle.parse)."""

    edition: int = editions.CURRENT
    """The edition of the prompts (projections.editions)."""
    max_tokens: int | None = None
    """The seat's limit on an answer's tokens (None: no seat, as for a person)."""

    def for_seat(self, options: Any) -> CattlePrompter:
        """The prompter of a seat with these options (its edition and answer limit)."""
        return replace(self, edition=editions.of(options), max_tokens=options.max_tokens)

    @property
    def notes_tokens(self) -> int:
        """The size the notes are asked to stay under, in tokens."""
        if self.edition < 2:
            return prompts.NOTES_TOKENS
        return prompts.notes_tokens(self.max_tokens)

    def system_prompt(
        self, config: GameConfig, character: str | None, seat: int | None = None
    ) -> str:
        return prompts.system_prompt(config, character or "optimal")

    def decision_prompt(self, view: SeatView, decision: Any, memory: str, rejection: Any) -> str:
        return prompts.decision_prompt(view, decision, memory, rejection, self.edition)

    def observation(self, view: SeatView) -> str:
        """The seat's situation a decision's prompt opens with (memory mode `full`): a page
        that draws it asks only the rest (`agents.human.board.question_of`)."""
        return prompts.observation_text(view, "full")

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
        return prompts.scratchpad_prompt(notes, lines, self.notes_tokens)

    def cap_notes(self, text: str) -> str:
        return prompts.cap_notes(text, min(prompts.NOTES_CHARS, self.notes_tokens * 4))


def _maker(cls: type[Agent]) -> Any:
    return lambda seat, seed, config: cls(seat, seed, config)


def _presets() -> dict[str, GameConfig]:
    return {name: load_preset(name) for name in preset_names()}


def _describe(event: Any, viewer: int | None) -> str | None:
    return describe(event, viewer)


def _derived_tables(con: Any) -> tuple[str, ...]:
    """Bring the derived metric tables up to date with the log; their names (for export)."""
    from projections.cattle.metrics import build

    build.ensure(con)
    return build.DERIVED_TABLES


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
    sql=(SQL,),
    code_agents={
        "random": _maker(RandomAgent),
        TrackerAgent.spec: _maker(TrackerAgent),
        SetRaceAgent.spec: _maker(SetRaceAgent),
        EconomyAgent.spec: _maker(EconomyAgent),
        TrackerAgentV1.spec: _maker(TrackerAgentV1),
        SetRaceAgentV1.spec: _maker(SetRaceAgentV1),
        EconomyAgentV1.spec: _maker(EconomyAgentV1),
        TrackerAgentV2.spec: _maker(TrackerAgentV2),
        SetRaceAgentV2.spec: _maker(SetRaceAgentV2),
        EconomyAgentV2.spec: _maker(EconomyAgentV2),
        TrackerAgentV3.spec: _maker(TrackerAgentV3),
        SetRaceAgentV3.spec: _maker(SetRaceAgentV3),
        EconomyAgentV3.spec: _maker(EconomyAgentV3),
    },
    prompter=CattlePrompter(),
    extras={
        "end_reasons": {"complete": "every animal type is a complete set in one hand"},
        # The command line's parts for this game, named by module path (the CLI is a layer
        # above this one): configuration options, the behaviour table, the report.
        "cli": "cli.cattle.hooks",
        # Its frozen reference pools (`cattle arena --pool`), named the same way.
        "pools": "runner.cattle.pools",
        # Its action ids and observation vectors for learning (`runner.rl`).
        "rl": "runner.cattle.rl",
        "derived_tables": _derived_tables,
        "frames": frames.frames,
        "frame_meta": frames.META,
        # A person's seat page in the browser draws the seat's own hand (the viewer's game
        # page draws its table in its script).
        "seat_drawing": "cli.cattle.draw",
    },
)
