"""The definition of OpenSpiel games that the catalogue registers, with GTBench's ten presets.

One definition, named `openspiel`, plays every game OpenSpiel knows. Names that carry the game:
`openspiel:GAME_STRING` (OpenSpiel's own syntax, e.g. `openspiel:breakthrough(columns=3)`)
and `gtbench:PRESET` (e.g. `gtbench:tic_tac_toe`); `--game openspiel --preset NAME` works too.
Loading this module needs no OpenSpiel; playing does (see docs/openspiel.md for the settings).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from agents.openspiel.bots import CODE_AGENTS, configured_agent, parse_options
from engine.openspiel.gtbench import GTBENCH, PRESETS
from engine.openspiel.rules import RULES, players_of, state_data
from events.catalog import GameDef
from events.config import ConfigError
from events.openspiel.game import NAME, OPENSPIEL_EVENT_TYPES, OpenSpielConfig
from events.suggest import did_you_mean
from projections.openspiel.view import (
    OpenSpielPrompter,
    OpenSpielView,
    describe,
    frames,
    render,
)

SQL = Path(__file__).resolve().parents[2] / "events" / "openspiel" / "views.sql"
"""The `openspiel_games`, `openspiel_actions` and `openspiel_fallbacks` views."""

PREFIXES = ("openspiel", "gtbench")
"""Name prefixes that carry a game: `openspiel:GAME_STRING` and `gtbench:PRESET`."""


def presets() -> Mapping[str, OpenSpielConfig]:
    """GTBench's ten games."""
    return PRESETS


def configure(name: str) -> OpenSpielConfig | None:
    """The configuration a game name carries (None for the plain name `openspiel`);
    `ConfigError` in one line for an unknown preset or a game string OpenSpiel refuses."""
    prefix, colon, rest = name.partition(":")
    if not colon:
        return None
    rest = rest.strip()
    if prefix == "gtbench":
        if rest not in PRESETS:
            raise ConfigError(
                f"unknown GTBench game {rest[:60]!r}{did_you_mean(rest, PRESETS)};"
                f" known: {', '.join(sorted(PRESETS))}"
            )
        return PRESETS[rest]
    for preset, text in GTBENCH.items():
        if rest == text:
            return PRESETS[preset]
    _check_brackets(rest)
    return OpenSpielConfig(game_string=rest, players=players_of(rest)).validate()


def _check_brackets(text: str) -> None:
    """`ConfigError` for a bracket closed before it is opened or text after the bracket that
    closes the parameters (OpenSpiel stops reading there and would ignore the rest; a bracket
    left open it refuses itself)."""
    depth = 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0 or (depth == 0 and i != len(text) - 1):
                raise ConfigError(
                    f"the game string {text[:60]!r} has text after its closing bracket at"
                    f" position {i + 1}"
                    if depth == 0
                    else f"the game string {text[:60]!r} closes a bracket it never opened"
                )


def plays(agent: str, config: OpenSpielConfig) -> bool:
    """True when the code agent takes a seat of this game (`tft` plays only the iterated
    prisoner's dilemma, `mcts` only games with turns)."""
    try:
        CODE_AGENTS[agent](0, 0, config)
    except ConfigError:
        return False
    return True


def check_agent(spec: str) -> None:
    """Raise `ValueError` unless a code agent spec's options are known."""
    parse_options(spec)


GAME = GameDef(
    name=NAME,
    title="OpenSpiel",
    summary=(
        "Any OpenSpiel game (openspiel:GAME_STRING), GTBench's ten among them "
        f"(gtbench:NAME: {', '.join(GTBENCH)})."
    ),
    # `gtbench` alone reaches the game as `mindgames` reaches TextArena (agents, listings).
    aliases=("gtbench",),
    event_types=OPENSPIEL_EVENT_TYPES,
    config_type=OpenSpielConfig,
    rules=RULES,
    presets=presets,
    default_preset="tic_tac_toe",
    new_view=OpenSpielView,
    describe=describe,
    sql=(SQL,),
    code_agents=dict(CODE_AGENTS),
    prompter=OpenSpielPrompter(),
    extras={
        "end_reasons": {"terminal": "the game reached its end"},
        "pools": "runner.openspiel.pools",
        # Its action ids and observation vectors for learning (`runner.rl`).
        "rl": "runner.openspiel.rl",
        "prefixes": PREFIXES,
        "configure": configure,
        "configured_agent": configured_agent,
        "check_agent": check_agent,
        "plays": plays,
        "render": render,
        "frames": frames,
        "drawing": "cli.openspiel.draw",
        "seat_numbering": True,
        # A rejected move's history position would tell its seat how many actions it did not
        # see; the seat is told the rejection without it.
        "seat_hidden_fields": {"openspiel_move_rejected": ("ply",)},
        "state_data": state_data,
    },
)
"""OpenSpiel games, as the catalogue knows them."""
