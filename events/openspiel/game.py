"""Every fact of a game played through OpenSpiel: the game string, chance outcomes, moves, returns.

OpenSpiel (the `pyspiel` package) holds the rules; these events hold what happened, so that a
game is rebuilt by loading the stored game string and re-applying the stored actions in order.
Who may see what follows OpenSpiel's own information model. In a game of perfect information
with turns every event is seen by every seat. Otherwise (rules 2.0.0 on) chance outcomes and
moves are seen by nobody, and each seat is given `openspiel_observed` events of its own: OpenSpiel's
string for that player each time it changes, and the seat's own moves. Logs of rules 1.0.0
kept, with each chance outcome and move, the seats whose string some other action there would
have changed (`seen_by`), which shows a seat more than OpenSpiel does; they are read as stored.

This module needs no OpenSpiel: stored games decode and list without it. Tags other than the
shared start and end tags carry the `openspiel_` prefix. New fields go last with defaults.
"""

from __future__ import annotations

import re

import msgspec

from events.base import Event
from events.config import ConfigError, SeatSpec

NAME = "openspiel"
"""The catalogue name of every OpenSpiel game (`games.game`)."""

CHANCE = -1
"""The player number OpenSpiel gives chance (the `player` of chance rows in SQL views)."""

_NAME_RE = re.compile(r"^[a-z][a-z0-9_-]{0,39}$")


class OpenSpielConfig(msgspec.Struct, frozen=True, kw_only=True):
    """Which OpenSpiel game to play: its game string, the number of seats, the preset's name."""

    game_string: str
    """OpenSpiel's own game string, e.g. `tic_tac_toe` or `breakthrough(columns=3,rows=8)`."""
    players: int = 2
    name: str = "custom"
    """A plain name: the preset's name, or `custom` for a game string given by hand."""
    preset: str | None = None
    """The GTBench game this configuration is (e.g. `tic_tac_toe`), None for a raw string."""

    def validate(self) -> OpenSpielConfig:
        """Raise `ConfigError` unless the configuration is well formed; return self."""
        if not self.game_string or len(self.game_string) > 500:
            raise ConfigError("an OpenSpiel game string must hold 1 to 500 characters")
        if not 1 <= self.players <= 10:
            raise ConfigError(f"players must be 1..10, got {self.players}")
        if not _NAME_RE.match(self.name):
            raise ConfigError(f"name must be a plain identifier, got {self.name!r}")
        return self


class OpenSpielStarted(Event, frozen=True, kw_only=True, tag="game_started"):
    """A game began: the game string as loaded (every parameter the rules filled in), the seed."""

    seed: int
    config: OpenSpielConfig
    seats: tuple[SeatSpec, ...]
    engine_version: str
    game: str = NAME
    game_string: str = ""
    """The game string actually loaded (a seed-derived `rng_seed` filled in where the game
    draws its chance inside the game object, as negotiation does)."""
    openspiel_version: str = ""


class ChanceSampled(Event, frozen=True, kw_only=True, tag="openspiel_chance"):
    """Chance took `action` (drawn from the game seed with the node's probabilities)."""

    ply: int
    """Position in the game's history of actions (chance and moves), from 0."""
    action: int
    text: str
    probability: float
    seen_by: tuple[int, ...] | None = None
    """Seats whose information depends on this outcome (None: every seat)."""

    def audience(self) -> tuple[int, ...] | None:
        return self.seen_by


class MovePlayed(Event, frozen=True, kw_only=True, tag="openspiel_move"):
    """A player took `action` (of a simultaneous node: one event per player, in player order)."""

    ACTOR = "player"
    ply: int
    player: int
    action: int
    text: str
    simultaneous: bool = False
    seen_by: tuple[int, ...] | None = None
    """Seats whose information depends on this move (None: every seat)."""

    def audience(self) -> tuple[int, ...] | None:
        return self.seen_by


class Observed(Event, frozen=True, kw_only=True, tag="openspiel_observed"):
    """What OpenSpiel now shows `seat` (rules 2.0.0 on, games that are not open: imperfect
    information or simultaneous moves):
    written when the seat's string changes and after each of its own moves. It carries no
    history position, since how many actions a seat did not see is itself hidden."""

    ACTOR = "seat"
    seat: int
    text: str
    """OpenSpiel's information-state string for the seat (its observation string where the
    game has no information state)."""
    action: int | None = None
    """The seat's own action that was just applied (None after another's move or chance)."""
    action_text: str = ""
    """OpenSpiel's text of `action` (empty when `action` is None)."""

    def audience(self) -> tuple[int, ...] | None:
        return (self.seat,)


class MoveRejected(Event, frozen=True, kw_only=True, tag="openspiel_move_rejected"):
    """A seat asked for an action that is not legal there; `used` (a seeded random legal
    action) was played instead. Visible to that seat only."""

    ACTOR = "player"
    ply: int
    player: int
    raw: int
    used: int
    reason: str

    def audience(self) -> tuple[int, ...] | None:
        return (self.player,)


class OpenSpielEnded(Event, frozen=True, kw_only=True, tag="game_ended"):
    """The game reached a terminal state: OpenSpiel's returns are the scores."""

    reason: str
    scores: tuple[float, ...]
    ranks: tuple[int, ...]


OPENSPIEL_EVENT_TYPES: tuple[type, ...] = (
    OpenSpielStarted,
    ChanceSampled,
    MovePlayed,
    MoveRejected,
    OpenSpielEnded,
    Observed,
)
"""Every event of an OpenSpiel game's rules."""
