"""The definition of PACT that the catalogue registers: every part of the game, by layer."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agents.pact.bots import CODE_AGENTS, default_action, parse_answer
from engine.pact.rules import RULES
from events.catalog import GameDef
from events.pact.game import PACT_EVENT_TYPES, PactConfig
from projections.pact.frames import frames
from projections.pact.view import PactPrompter, PactView, describe

SQL = Path(__file__).resolve().parents[2] / "events" / "pact" / "views.sql"
"""The `pact_rounds` and `pact_messages` views."""

PRESETS: dict[str, PactConfig] = {
    "standard": PactConfig(name="standard").validate(),
    "quick": PactConfig(rounds=5, name="quick").validate(),
}
"""Named configurations: the full 20-round game, and a 5-round one for quick checks."""


def presets() -> Mapping[str, PactConfig]:
    """PACT's named configurations."""
    return PRESETS


class _Analysis:
    """PACT's analysis hooks (projections.pact.report.HOOKS), imported on first use: they
    bring numpy and matplotlib, which commands that only play or list games do not need."""

    def __getattr__(self, name: str) -> Any:
        from projections.pact.report import HOOKS

        return getattr(HOOKS, name)


GAME = GameDef(
    name="pact",
    title="PACT",
    summary=(
        "A buyer and a seller with private values bargain for 20 rounds: one public message "
        "each, then sealed quotes that trade at the midpoint when the bid reaches the ask."
    ),
    event_types=PACT_EVENT_TYPES,
    config_type=PactConfig,
    rules=RULES,
    presets=presets,
    default_preset="standard",
    new_view=PactView,
    describe=describe,
    sql=(SQL,),
    code_agents=dict(CODE_AGENTS),
    prompter=PactPrompter(parse=parse_answer, default=default_action),
    extras={
        "end_reasons": {"complete": "every round was played"},
        "analysis": _Analysis(),
        "frames": frames,
        "drawing": "cli.pact.draw",
        "pools": "runner.pact.pools",
    },
)
"""PACT, as the catalogue knows it."""
