"""Every fact of a GameBench Sea Battle game (two teams of three ships, simultaneous plans).

Seats 0-2 sail ships A, B, C (team 0); seats 3-5 sail X, Y, Z (team 1). The chart (rocks,
ships, headings) is public. Each turn every ship afloat seals a plan; a plan stays with its
seat until all are in, then the whole turn is played out in one public event.

Two rule sets share these events (`rules_of`): `gamebench`, the game GameBench's data came
from (a plan is one of eight two-letter choices, a move then a side to fire to; one move
phase and one volley a turn; squares in GameBench's own coordinates, y growing northwards),
and `prototype`, the eight-token plans of GameBench's first draft (y growing southwards), which
rules 1.0.0 always played. Each team
gets its own ships' damage after every turn (GameBench shows a ship only its own damage).
Tags carry the `gb_sb_` prefix; the start and end tags are the shared ones.
"""

from __future__ import annotations

from typing import Literal

import msgspec
from msgspec import UNSET, UnsetType

from events.base import Event, SeatPrivate
from events.config import ConfigError, SeatSpec
from events.gamebench.common import RequestRefusedBase, RuleExplainedBase

NAME = "gamebench:sea_battle"
"""The game's name in the catalogue and in every stored game."""

SHIPS = "ABCXYZ"
"""Ship letters by seat."""
TEAM_SIZE = 3
HEADINGS_COMPASS = ("north", "east", "south", "west")
"""Headings 0..3."""

HEADINGS: tuple[str, ...] = (
    "Teams",
    "Board",
    "Gameplay",
    "Plan",
    "Movement",
    "Cannons",
    "Damage",
    "Sinking",
    "Winning",
)
"""The rule headings a seat may ask to have explained under the `prototype` rules (GameBench's
six, and the plan's own)."""

HEADINGS_GAMEBENCH: tuple[str, ...] = ("Teams", "Board", "Gameplay", "Damage", "Sinking", "Winning")
"""The headings GameBench's data-era game offers (games/sea_battle.py at 8721bb9)."""

Rules = Literal["gamebench", "prototype"]


def team_of(seat: int) -> int:
    """The team of a seat: 0 (A, B, C) or 1 (X, Y, Z)."""
    return seat // TEAM_SIZE


def team_seats(team: int) -> tuple[int, ...]:
    """The seats of a team."""
    return tuple(range(team * TEAM_SIZE, (team + 1) * TEAM_SIZE))


class SeaBattleConfig(msgspec.Struct, frozen=True, kw_only=True):
    """Every knob of a Sea Battle game; stored in its first event."""

    players: int = 6
    """Always 6: three ships a side."""
    size: int = 24
    """The board is size x size; its outer ring is rock."""
    rocks: int = 14
    """Rocks scattered inside the ring."""
    hull: int = 10
    """Damage that sinks a ship."""
    cannonballs: int = 6
    """Cannonballs per ship per turn (a both-sides shot uses two)."""
    reach: int = 3
    """How many squares a cannonball flies sideways."""
    rock_damage: int = 1
    ram_damage: int = 1
    cannon_damage: int = 2
    max_turns: int = 30
    """Turns before the game stops as a draw."""
    name: str = "standard"
    rules: Rules | UnsetType = UNSET
    """`gamebench` (unset: the default): the game GameBench's data came from, one of eight
    choices a turn and one cannonball fired every turn (`cannonballs` must be 1);
    `prototype`: eight-token plans with `cannonballs` a turn (rules 1.0.0 always played so).
    Left out of the stored config while unset, so that games stored before the field existed
    keep their bytes."""

    def validate(self) -> SeaBattleConfig:
        """Raise `ConfigError` unless the rules can play this configuration; return self."""
        if settings(self) not in ("gamebench", "prototype"):
            raise ConfigError(f"rules must be 'gamebench' or 'prototype', got {self.rules!r}")
        if self.players != 6:
            raise ConfigError(f"Sea Battle seats exactly 6 players, got {self.players}")
        if not 8 <= self.size <= 40:
            raise ConfigError(f"size must be 8..40, got {self.size}")
        if not 0 <= self.rocks <= (self.size - 2) ** 2 // 4:
            raise ConfigError(f"rocks must be 0..{(self.size - 2) ** 2 // 4}, got {self.rocks}")
        if not 1 <= self.hull <= 100:
            raise ConfigError(f"hull must be 1..100, got {self.hull}")
        if not 0 <= self.cannonballs <= 8:
            raise ConfigError(f"cannonballs must be 0..8, got {self.cannonballs}")
        if not 1 <= self.reach <= 10:
            raise ConfigError(f"reach must be 1..10, got {self.reach}")
        for what in ("rock_damage", "ram_damage", "cannon_damage"):
            if not 0 <= getattr(self, what) <= 100:
                raise ConfigError(f"{what} must be 0..100")
        if not 1 <= self.max_turns <= 1000:
            raise ConfigError(f"max_turns must be 1..1000, got {self.max_turns}")
        return self


def settings(config: SeaBattleConfig) -> str:
    """The rule set a configuration asks for (unset: `gamebench`)."""
    return "gamebench" if isinstance(config.rules, UnsetType) else config.rules


def headings_of(rules: str) -> tuple[str, ...]:
    """The rule headings a seat may ask for under a rule set."""
    return HEADINGS_GAMEBENCH if rules == "gamebench" else HEADINGS


class Ship(msgspec.Struct, frozen=True, kw_only=True):
    """Where a ship is: column x (0 at the left), row y, heading 0..3 (north, east, south,
    west). Row 0 is the top under the prototype rules, the bottom (GameBench's y, growing
    northwards) under the gamebench rules."""

    x: int
    y: int
    heading: int


class SbStarted(Event, frozen=True, kw_only=True, tag="game_started"):
    """A Sea Battle game began with this configuration, seed and seating."""

    seed: int
    config: SeaBattleConfig
    seats: tuple[SeatSpec, ...]
    engine_version: str
    game: str = NAME


def rules_of(start: SbStarted) -> str:
    """The rule set a game was played by: rules 1.0.0 always played the prototype."""
    if start.engine_version == "1.0.0":
        return "prototype"
    return settings(start.config)


class SbCharted(Event, frozen=True, kw_only=True, tag="gb_sb_charted"):
    """The sea (public): the rocks inside the ring and every ship's start, by seat (under the
    gamebench rules the rocks in the order they were drawn, which the observation keeps)."""

    rocks: tuple[tuple[int, int], ...]
    ships: tuple[Ship, ...]


class SbRuleExplained(RuleExplainedBase, frozen=True, kw_only=True, tag="gb_sb_rule_explained"):
    """A seat asked for the rules under a heading (and was shown them)."""

    turn: int


class SbRequestRefused(RequestRefusedBase, frozen=True, kw_only=True, tag="gb_sb_request_refused"):
    """A seat's answer that could not stand as given, and why (the plan used is sealed)."""


class SbPlanSealed(SeatPrivate, frozen=True, kw_only=True, tag="gb_sb_plan_sealed"):
    """A ship's plan for the turn, seen by its seat alone until the turn is played."""

    ACTOR = "seat"
    seat: int
    turn: int
    plan: str
    """Prototype: eight tokens, move, cannon, move, cannon, ... (e.g. FnLlRbWn); gamebench:
    a move (F, L, R or W for stay) and a side to fire to (l or r), e.g. Lr."""


class Hit(msgspec.Struct, frozen=True, kw_only=True):
    """Damage a ship took: from a rock, a ram (collision) or a cannonball (`by` fired it)."""

    seat: int
    cause: Literal["rock", "ram", "cannon"]
    damage: int
    by: int | None = None


class Shot(msgspec.Struct, frozen=True, kw_only=True):
    """A cannonball: who fired it, to which side (l or r), and the ship it hit (None: none)."""

    seat: int
    side: str
    hit: int | None


class Phase(msgspec.Struct, frozen=True, kw_only=True):
    """One half-step of a turn: the `step`-th move (kind "move") or volley (kind "fire")."""

    kind: Literal["move", "fire"]
    step: int
    ships: tuple[Ship | None, ...]
    """Every ship after this phase, by seat (None: sunk)."""
    hits: tuple[Hit, ...] = ()
    shots: tuple[Shot, ...] = ()
    sunk: tuple[int, ...] = ()
    """Seats whose ship went down in this phase."""


class SbTurnPlayed(Event, frozen=True, kw_only=True, tag="gb_sb_turn_played"):
    """Every plan of a turn, revealed together, and the turn played out phase by phase."""

    turn: int
    plans: tuple[str, ...]
    """By seat ("" for a ship that was sunk before the turn)."""
    phases: tuple[Phase, ...]


class SbDamageReport(Event, frozen=True, kw_only=True, tag="gb_sb_damage_report"):
    """A team's own ships' damage after a turn; seen by that team only."""

    team: int
    turn: int
    damage: tuple[int, ...]
    """By the team's seats, in order."""

    def audience(self) -> tuple[int, ...] | None:
        return team_seats(self.team)


class SbEnded(Event, frozen=True, kw_only=True, tag="game_ended"):
    """The game is over: a team sank the other (1 each to its seats, 0 to the others), both
    went down together or the turns ran out (0.5 everywhere). Ranks share ties."""

    reason: Literal["sunk", "both_sunk", "turn_limit"]
    winner: int | None
    turns: int
    damage: tuple[int, ...]
    scores: tuple[float, ...]
    ranks: tuple[int, ...]


SbEvent = (
    SbStarted
    | SbCharted
    | SbRuleExplained
    | SbRequestRefused
    | SbPlanSealed
    | SbTurnPlayed
    | SbDamageReport
    | SbEnded
)
"""Every event of a Sea Battle game."""

EVENT_TYPES: tuple[type[Event], ...] = SbEvent.__args__
