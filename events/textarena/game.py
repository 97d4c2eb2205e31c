"""Every fact of a game played through TextArena: the environment, each seat's observations,
the raw actions, TextArena's verdicts on invalid moves, and the rewards.

TextArena (the `textarena` package) holds the rules; these events hold what happened, so that
a game is rebuilt by making the stored environment afresh, resetting it with the stored seed
and player count, and stepping it with the stored action strings in order.

Who may see what follows TextArena's own observations: a seat sees the observation text
TextArena gives its player (`textarena_observed`), its own actions and TextArena's verdicts
on them, and its own secret role; the start and the end (rewards, roles, reasons) are public.

This module needs no TextArena: stored games decode and list without it. Tags other than the
shared start and end tags carry the `textarena_` prefix. New fields go last with defaults.
"""

from __future__ import annotations

import re

import msgspec

from events.base import Event
from events.config import ConfigError, SeatSpec

NAME = "textarena"
"""The catalogue name of every TextArena game (`games.game`)."""

MAX_STEPS = 2000
"""The default bound on environment steps in one game (docs/textarena.md)."""

_ENV_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,79}$")
_NAME_RE = re.compile(r"^[a-z][a-z0-9_-]{0,39}$")


class TextArenaConfig(msgspec.Struct, frozen=True, kw_only=True):
    """Which TextArena environment to play: its id, the number of players, the preset's name."""

    env_id: str
    """TextArena's registered id, e.g. `ColonelBlotto-v0-train` or `TicTacToe-v0`."""
    players: int = 2
    name: str = "custom"
    """A plain name: the preset's name, or `custom` for an environment id given by hand."""
    preset: str | None = None
    """The MindGames game this configuration is (e.g. `blotto`), None for a raw id."""
    max_steps: int = MAX_STEPS
    """The game ends (reason `step limit`, every reward 0) after this many steps."""

    def validate(self) -> TextArenaConfig:
        """Raise `ConfigError` unless the configuration is well formed; return self."""
        if not _ENV_RE.match(self.env_id):
            raise ConfigError(f"not a TextArena environment id: {self.env_id[:60]!r}")
        if not 1 <= self.players <= 15:
            raise ConfigError(f"players must be 1..15, got {self.players}")
        if not _NAME_RE.match(self.name):
            raise ConfigError(f"name must be a plain identifier, got {self.name!r}")
        if not 1 <= self.max_steps <= 100_000:
            raise ConfigError(f"max_steps must be 1..100000, got {self.max_steps}")
        return self


class TextArenaStarted(Event, frozen=True, kw_only=True, tag="game_started"):
    """A game began: the environment id, the seed it was reset with, TextArena's version."""

    seed: int
    config: TextArenaConfig
    seats: tuple[SeatSpec, ...]
    engine_version: str
    game: str = NAME
    env_id: str = ""
    textarena_version: str = ""


class RoleDealt(Event, frozen=True, kw_only=True, tag="textarena_role"):
    """TextArena gave `seat` a secret role (Secret Mafia); only that seat sees it here
    (teammates it is told about appear in its own observation text)."""

    ACTOR = "seat"
    seat: int
    role: str

    def audience(self) -> tuple[int, ...] | None:
        return (self.seat,)


class Observed(Event, frozen=True, kw_only=True, tag="textarena_observed"):
    """The observation text TextArena gives `seat` (through the environment's observation
    wrapper), when it is to act and, at the end, for what it was told since its last turn.
    `extends`: the text continues the seat's previous observation (only the new part is
    stored); else it replaces it."""

    ACTOR = "seat"
    seat: int
    text: str
    extends: bool = False
    step: int = 0
    """Steps taken before this observation."""

    def audience(self) -> tuple[int, ...] | None:
        return (self.seat,)


class ActionTaken(Event, frozen=True, kw_only=True, tag="textarena_action"):
    """`player` sent `action` to `env.step` (the `step`-th call, from 0). Only the player
    sees the event: what the others learn of it is in their own observations. `raw` holds
    the seat's whole answer when it was longer than the action limit and was cut."""

    ACTOR = "player"
    step: int
    player: int
    action: str
    raw: str | None = None

    def audience(self) -> tuple[int, ...] | None:
        return (self.player,)


class InvalidMove(Event, frozen=True, kw_only=True, tag="textarena_invalid"):
    """TextArena judged `player`'s action at `step` invalid, for `reason` (its own words).
    Seen by that player (TextArena tells it); the end event lists who was penalised."""

    ACTOR = "player"
    step: int
    player: int
    reason: str

    def audience(self) -> tuple[int, ...] | None:
        return (self.player,)


class EnvFailed(Event, frozen=True, kw_only=True, tag="textarena_error"):
    """The environment raised an exception at `step` (on `player`'s action); the game ends."""

    ACTOR = "player"
    step: int
    player: int
    error: str


class TextArenaEnded(Event, frozen=True, kw_only=True, tag="game_ended"):
    """The game is over: TextArena's rewards (from `close()`) are the scores."""

    reason: str
    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    roles: tuple[str, ...] = ()
    """Each seat's role as TextArena's game info names it ("Player 0" where there is none)."""
    invalid: tuple[bool, ...] = ()
    """Per seat: TextArena's game info marks its invalid move as what ended or cost it the game."""
    steps: int = 0


TEXTARENA_EVENT_TYPES: tuple[type, ...] = (
    TextArenaStarted,
    RoleDealt,
    Observed,
    ActionTaken,
    InvalidMove,
    EnvFailed,
    TextArenaEnded,
)
"""Every event of a TextArena game's rules."""
