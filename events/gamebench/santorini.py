"""Every fact of a GameBench Santorini game.

Two players on a 5x5 board, two pawns each: seat 0 (GameBench's player 1) has pawns A and B,
seat 1 has X and Y. Pawns act in the fixed cycle A, X, B, Y, for the placements and for the
turns after them. Cells are (row, col) with both in 0..4, GameBench's board tuples. The game
has no hidden state: every event is public but a seat's rule explanations. Tags other than
the shared start and end tags carry the `santorini_` prefix.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from events.base import Event
from events.config import ConfigError, SeatSpec
from events.gamebench.common import RuleExplainedBase

NAME = "gamebench:santorini"
VERSION = "1.0.0"
SIZE = 5
"""Rows and columns of the board."""
TOP = 4
"""A complete tower: no pawn moves onto it, no block goes on it."""
WIN_LEVEL = 3
"""Moving a pawn onto this level wins at once."""
PAWNS = ("A", "X", "B", "Y")
"""Pawn letters in the order they act; pawn k belongs to seat k % 2."""


class SantoriniConfig(msgspec.Struct, frozen=True, kw_only=True):
    """A Santorini game (the rules have no knobs: two players, a 5x5 board)."""

    players: int = 2
    name: str = "standard"

    def validate(self) -> SantoriniConfig:
        """Raise `ConfigError` unless the rules can play this; return self."""
        if self.players != 2:
            raise ConfigError(f"Santorini has exactly 2 players, got {self.players}")
        return self


class SantoriniStarted(Event, frozen=True, kw_only=True, tag="game_started"):
    """A Santorini game began."""

    seed: int
    config: SantoriniConfig
    seats: tuple[SeatSpec, ...]
    engine_version: str
    game: str = NAME


class SantoriniPlaced(Event, frozen=True, kw_only=True, tag="santorini_placed"):
    """A pawn was put on the board before the first turn."""

    ACTOR = "seat"
    ply: int
    seat: int
    pawn: str
    row: int
    col: int


class SantoriniPlayed(Event, frozen=True, kw_only=True, tag="santorini_played"):
    """A turn: a pawn moved, then built next to where it stands (no build after a move onto
    level 3, which wins at once: the build is None then)."""

    ACTOR = "seat"
    ply: int
    seat: int
    pawn: str
    from_row: int
    from_col: int
    row: int
    col: int
    level: int
    """The level of the cell the pawn moved onto."""
    build_row: int | None
    build_col: int | None
    height: int | None
    """The height of the built cell after the build."""


class SantoriniRejected(Event, frozen=True, kw_only=True, tag="santorini_rejected"):
    """An answer that named no legal action here (a legal one drawn at random was played
    instead, as GameBench does), or a refused `Explain` request."""

    ACTOR = "seat"
    ply: int
    seat: int
    raw: str
    reason: str
    explain: bool = False
    """True for a refused `Explain` request (it uses up one of the seat's requests)."""


class SantoriniRuleExplained(
    RuleExplainedBase, frozen=True, kw_only=True, tag="santorini_rule_explained"
):
    """A seat asked for the rules under a heading."""


class SantoriniEnded(Event, frozen=True, kw_only=True, tag="game_ended"):
    """The game is over: 1 to the winner, 0 to the loser (GameBench's match score)."""

    reason: Literal["level3", "no_move"]
    winner: int
    plies: int
    scores: tuple[float, ...]
    ranks: tuple[int, ...]


SANTORINI_EVENT_TYPES: tuple[type[Event], ...] = (
    SantoriniStarted,
    SantoriniPlaced,
    SantoriniPlayed,
    SantoriniRejected,
    SantoriniRuleExplained,
    SantoriniEnded,
)
"""Every event of a Santorini game."""
