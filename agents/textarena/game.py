"""The definition of TextArena games that the catalogue registers, with MindGames' four.

One definition, named `textarena`, plays every environment TextArena registers. Names that
carry the game: `textarena:ENV_ID` (e.g. `textarena:TicTacToe-v0`) and `mindgames:NAME`
(`blotto`, `ipd3`, `codenames`, `mafia`); `--game textarena --preset NAME` works too.
An environment the privacy check found sending one player another's private facts
(`engine.textarena.privacy`) is refused by `textarena:ENV_ID` and played only when asked
for as `textarena-open:ENV_ID`, which marks the stored configuration (`name` `open-views`).
Loading this module needs no TextArena; playing does (docs/textarena.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agents.textarena.bots import CODE_AGENTS, configured_agent, parse_options
from engine.textarena.mindgames import MINDGAMES, PRESETS
from engine.textarena.privacy import known_leaks
from engine.textarena.rules import RULES, players_of, registry, state_data
from events.catalog import GameDef
from events.config import ConfigError
from events.suggest import did_you_mean
from events.textarena.game import NAME, TEXTARENA_EVENT_TYPES, TextArenaConfig
from projections.textarena.view import (
    TextArenaPrompter,
    TextArenaView,
    describe,
    frames,
    render,
)

SQL = Path(__file__).resolve().parents[2] / "events" / "textarena" / "views.sql"
"""The `textarena_games`, `textarena_actions`, `textarena_invalid_moves` and
`textarena_roles` views."""

OPEN = "textarena-open"
"""The prefix that plays an environment even though it shows a player another's facts."""
OPEN_NAME = "open-views"
"""The configuration name such a game is stored with: the mark that it was asked for."""
PREFIXES = ("textarena", "mindgames", OPEN)
"""Name prefixes that carry a game: `textarena:ENV_ID`, `mindgames:NAME` and
`textarena-open:ENV_ID`."""


def presets() -> Mapping[str, TextArenaConfig]:
    """MindGames' four games."""
    return PRESETS


def configure(name: str) -> TextArenaConfig | None:
    """The configuration a game name carries (None for the plain name `textarena`);
    `ConfigError` in one line for an unknown preset or environment id."""
    prefix, colon, rest = name.partition(":")
    if not colon:
        return None
    rest = rest.strip()
    if prefix == "mindgames":
        if rest not in PRESETS:
            raise ConfigError(
                f"unknown MindGames game {rest[:60]!r}{did_you_mean(rest, PRESETS)};"
                f" known: {', '.join(sorted(PRESETS))}"
            )
        return PRESETS[rest]
    for preset, (env_id, _) in MINDGAMES.items():
        if rest == env_id:
            return PRESETS[preset]
    TextArenaConfig(env_id=rest).validate()  # a well-formed id before asking TextArena
    if rest not in registry():
        raise ConfigError(f"TextArena has no environment {rest[:60]!r}")
    leaks = known_leaks()
    if prefix != OPEN and rest in leaks:
        raise ConfigError(
            f"TextArena's {rest} is refused: it sends one player another's private facts"
            f" ({leaks[rest]}). To play it anyway, name it {OPEN}:{rest} (the stored game"
            f" is marked: its configuration is named {OPEN_NAME!r})"
        )
    name = OPEN_NAME if prefix == OPEN else "custom"
    return TextArenaConfig(env_id=rest, players=players_of(rest), name=name).validate()


def plays(agent: str, config: TextArenaConfig) -> bool:
    """True when the code agent takes a seat of this game (the four games' own agents
    refuse the others)."""
    try:
        CODE_AGENTS[agent](0, 0, config)
    except ConfigError:
        return False
    return True


def check_agent(spec: str) -> None:
    """Raise `ValueError` unless a code agent spec's options are known."""
    parse_options(spec)


class _Analysis:
    """The arena's analysis hooks (projections.textarena.report.HOOKS), imported on first use:
    they bring matplotlib, which commands that only play or list games do not need."""

    def __getattr__(self, name: str) -> Any:
        from projections.textarena.report import HOOKS

        return getattr(HOOKS, name)


GAME = GameDef(
    name=NAME,
    aliases=("mindgames",),
    title="TextArena",
    summary=(
        "Any TextArena environment (textarena:ENV_ID), MindGames' four among them "
        f"(mindgames:NAME: {', '.join(MINDGAMES)})."
    ),
    event_types=TEXTARENA_EVENT_TYPES,
    config_type=TextArenaConfig,
    rules=RULES,
    presets=presets,
    default_preset="blotto",
    new_view=TextArenaView,
    describe=describe,
    sql=(SQL,),
    code_agents=dict(CODE_AGENTS),
    prompter=TextArenaPrompter(),
    extras={
        "pools": "runner.textarena.mgref",
        "prefixes": PREFIXES,
        "configure": configure,
        "configured_agent": configured_agent,
        "check_agent": check_agent,
        "plays": plays,
        "render": render,
        "frames": frames,
        "drawing": "cli.textarena.draw",
        "seat_numbering": True,
        "state_data": state_data,
        "analysis": _Analysis(),
    },
)
"""TextArena games, as the catalogue knows them."""
