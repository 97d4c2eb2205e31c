"""Every fact of a GameBench Hive game.

Two players on an unbounded hex grid in axial coordinates (q, r). GameBench's Hive has no
beetles: each player has a queen (Q), two spiders (S1, S2), three grasshoppers (G1..G3) and
three ants (A1..A3). Seat 0 is GameBench's player 1 and acts on even plies. Nothing is
hidden but a seat's rule explanations. Tags other than the shared start and end tags carry
the `hive_` prefix.
"""

from __future__ import annotations

from typing import Literal

import msgspec
from msgspec import UNSET, UnsetType

from events.base import Event
from events.config import ConfigError, SeatSpec
from events.gamebench.common import RuleExplainedBase

NAME = "gamebench:hive"
VERSION = "1.1.0"
"""1.1.0: GameBench's turn cap (250 turns of each player), both queens surrounded scoring 0 each
and the two-step turn (`HiveConfig.steps`); 1.0.0 is kept to replay its games."""
VERSIONS: tuple[str, ...] = ("1.0.0", VERSION)
PIECES: tuple[str, ...] = ("Q", "S1", "S2", "G1", "G2", "G3", "A1", "A2", "A3")
"""Each player's pieces; the letter names the bug, the digit tells equal bugs apart."""
BUGS: dict[str, str] = {"Q": "queen", "S": "spider", "G": "grasshopper", "A": "ant"}
"""Bug letter -> name."""
MAX_PLIES = 499
"""GameBench's turn cap: its game stops once a player has had 250 turns, which the first
player reaches on the 499th turn of the game."""
QUEEN_BY = 4
"""A player's queen must be on the board by that player's fourth turn."""


class HiveConfig(msgspec.Struct, frozen=True, kw_only=True):
    """A Hive game; the turn cap may be lowered for short games."""

    players: int = 2
    max_plies: int = MAX_PLIES
    """Turns of the game (both players', passes included) after which it is a draw."""
    name: str = "standard"
    steps: Literal["two", "one"] | UnsetType = UNSET
    """`two`: a turn asks for a piece (a bug to place or a piece to move) and then for its
    cell, as GameBench's code does (unset: two); `one`: one list of every placement and move
    (rules 1.0.0 always asked so). Unset, it is left out of the stored config while unset (the default), so that games stored before
    the field existed keep their bytes."""
    both_lose: bool | UnsetType = UNSET
    """Both queens surrounded by one turn: 0 to each (GameBench's code) or, when False, 0.5
    each (rules 1.0.0 always scored so); unset: True, left out of the stored config while unset (the default), so that games stored before
    the field existed keep their bytes."""
    movement: Literal["gamebench", "gates"] | UnsetType = UNSET
    """How a piece crawls: `gamebench`, GameBench's code (no crawl out of or into a cell with
    at most one empty neighbour, spiders along pieces); `gates`, standard Hive's sliding
    between two pieces (rules 1.0.0 always moved so); unset: gamebench, left out of the stored config while unset (the default), so that games stored before
    the field existed keep their bytes."""

    def validate(self) -> HiveConfig:
        """Raise `ConfigError` unless the rules can play this; return self."""
        steps, _, movement = settings(self)
        if movement not in ("gamebench", "gates"):
            raise ConfigError(f"movement must be 'gamebench' or 'gates', got {self.movement!r}")
        if steps not in ("two", "one"):
            raise ConfigError(f"steps must be 'two' or 'one', got {self.steps!r}")
        if self.players != 2:
            raise ConfigError(f"Hive has exactly 2 players, got {self.players}")
        if not 1 <= self.max_plies <= 10_000:
            raise ConfigError(f"max_plies must be in 1..10000, got {self.max_plies}")
        return self


class HiveStarted(Event, frozen=True, kw_only=True, tag="game_started"):
    """A Hive game began."""

    seed: int
    config: HiveConfig
    seats: tuple[SeatSpec, ...]
    engine_version: str
    game: str = NAME


class HivePlaced(Event, frozen=True, kw_only=True, tag="hive_placed"):
    """A piece from the hand was put on the board."""

    ACTOR = "seat"
    ply: int
    seat: int
    piece: str
    q: int
    r: int


class HiveMoved(Event, frozen=True, kw_only=True, tag="hive_moved"):
    """A piece on the board moved."""

    ACTOR = "seat"
    ply: int
    seat: int
    piece: str
    from_q: int
    from_r: int
    q: int
    r: int


def rules_of(start: HiveStarted) -> tuple[str, bool]:
    """(steps, both_lose) a game was played by: rules 1.0.0 asked in one step and drew."""
    if start.engine_version == "1.0.0":
        return "one", False
    steps, both_lose, _ = settings(start.config)
    return steps, both_lose


def settings(config: HiveConfig) -> tuple[str, bool, str]:
    """(steps, both_lose, movement) a configuration asks for, unset fields at their
    defaults."""
    return (
        "two" if isinstance(config.steps, UnsetType) else config.steps,
        True if isinstance(config.both_lose, UnsetType) else config.both_lose,
        "gamebench" if isinstance(config.movement, UnsetType) else config.movement,
    )


def movement_of(start: HiveStarted) -> str:
    """How pieces crawl in a game: rules 1.0.0 always used the gates of standard Hive."""
    return "gates" if start.engine_version == "1.0.0" else settings(start.config)[2]


class HivePicked(Event, frozen=True, kw_only=True, tag="hive_picked"):
    """The first step of a two-step turn: the bug to place or the piece to move."""

    ACTOR = "seat"
    ply: int
    seat: int
    kind: Literal["place", "move"]
    piece: str
    """A bug letter (Q, S, G, A) to place, or a piece name (Q, S1, G2, ...) to move."""


class HivePassed(Event, frozen=True, kw_only=True, tag="hive_passed"):
    """A player with no legal placement or move passed the turn."""

    ACTOR = "seat"
    ply: int
    seat: int


class HiveRejected(Event, frozen=True, kw_only=True, tag="hive_rejected"):
    """An answer that named no legal action here (a legal one drawn at random was played
    instead, as GameBench does), or a refused `Explain` request."""

    ACTOR = "seat"
    ply: int
    seat: int
    raw: str
    reason: str
    explain: bool = False
    """True for a refused `Explain` request (it uses up one of the seat's requests)."""


class HiveRuleExplained(RuleExplainedBase, frozen=True, kw_only=True, tag="hive_rule_explained"):
    """A seat asked for the rules under a heading."""


class HiveEnded(Event, frozen=True, kw_only=True, tag="game_ended"):
    """The game is over: 1 to the winner and 0 to the loser, 0.5 each at the turn cap, and
    both queens surrounded 0 each (0.5 each in rules 1.0.0 or with `both_lose` off)."""

    reason: Literal["surrounded", "both_surrounded", "turn_cap"]
    winner: int | None
    plies: int
    scores: tuple[float, ...]
    ranks: tuple[int, ...]


HIVE_EVENT_TYPES: tuple[type[Event], ...] = (
    HiveStarted,
    HivePlaced,
    HiveMoved,
    HivePassed,
    HiveRejected,
    HiveRuleExplained,
    HiveEnded,
    HivePicked,
)
"""Every event of a Hive game."""
