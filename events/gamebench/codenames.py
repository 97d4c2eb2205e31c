"""Every fact of a GameBench Codenames game (two teams of two: a spymaster and an operative).

Seats: 0 is the red spymaster, 1 the red operative, 2 the blue spymaster, 3 the blue
operative. Red opens and owns 9 of the 21 cards, blue 8; 3 are neutral and 1 is the assassin.
The words are public from the start; the key (which card is whose) is dealt to the two
spymasters only, and a card's colour reaches the operatives when the card is revealed. Tags
carry the `gb_cn_` prefix; the start and end tags are the shared ones.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from events.base import Event
from events.config import ConfigError, SeatSpec
from events.gamebench.common import RequestRefusedBase, RuleExplainedBase

NAME = "gamebench:codenames"
"""The game's name in the catalogue and in every stored game."""

RED, BLUE = "red", "blue"
TEAMS: tuple[str, str] = (RED, BLUE)
"""Teams in seat order: seats 0-1 are red, 2-3 blue."""
NEUTRAL, ASSASSIN = "neutral", "assassin"
CardType = Literal["red", "blue", "neutral", "assassin"]

SPYMASTERS: tuple[int, int] = (0, 2)
"""The seats that know the key."""
OPERATIVES: tuple[int, int] = (1, 3)
"""The seats that guess."""

HEADINGS: tuple[str, ...] = (
    "Roles",
    "Turn Structure",
    "Winning Conditions",
    "Forbidden Actions",
    "Scoring",
    "Special Rules",
)
"""The rule headings a seat may ask to have explained (GameBench's Appendix K)."""


def team_of(seat: int) -> str:
    """The team of a seat."""
    return TEAMS[seat // 2]


def spymaster_of(team: str) -> int:
    """The spymaster seat of a team."""
    return SPYMASTERS[TEAMS.index(team)]


def operative_of(team: str) -> int:
    """The operative seat of a team."""
    return OPERATIVES[TEAMS.index(team)]


class CodenamesConfig(msgspec.Struct, frozen=True, kw_only=True):
    """Every knob of a Codenames game; stored in its first event."""

    players: int = 4
    """Always 4: a spymaster and an operative per team."""
    red: int = 9
    """Cards of the red team (it opens)."""
    blue: int = 8
    """Cards of the blue team."""
    neutral: int = 3
    assassin: int = 1
    max_clue: int = 9
    """Largest number a clue may carry (0 means: unlimited guesses)."""
    max_turns: int = 40
    """Clues given in all (both teams) before the game stops without a winner."""
    name: str = "standard"

    @property
    def cards(self) -> int:
        """Cards on the board."""
        return self.red + self.blue + self.neutral + self.assassin

    def validate(self) -> CodenamesConfig:
        """Raise `ConfigError` unless the rules can play this configuration; return self."""
        if self.players != 4:
            raise ConfigError(f"Codenames seats exactly 4 players, got {self.players}")
        if not (1 <= self.blue <= self.red <= 12):
            raise ConfigError(
                f"need 1 <= blue <= red <= 12 cards, got red {self.red}, blue {self.blue}"
            )
        if not (0 <= self.neutral <= 12 and self.assassin in (0, 1)):
            raise ConfigError("neutral must be 0..12 and assassin 0 or 1")
        if not 1 <= self.max_clue <= 12:
            raise ConfigError(f"max_clue must be 1..12, got {self.max_clue}")
        if not 2 <= self.max_turns <= 1000:
            raise ConfigError(f"max_turns must be 2..1000, got {self.max_turns}")
        return self


class CnStarted(Event, frozen=True, kw_only=True, tag="game_started"):
    """A Codenames game began with this configuration, seed and seating."""

    seed: int
    config: CodenamesConfig
    seats: tuple[SeatSpec, ...]
    engine_version: str
    game: str = NAME


class CnBoardDealt(Event, frozen=True, kw_only=True, tag="gb_cn_board_dealt"):
    """The words on the board, in grid order (public)."""

    words: tuple[str, ...]


class CnKeyDealt(Event, frozen=True, kw_only=True, tag="gb_cn_key_dealt"):
    """The key: the type of every card, in board order; seen by the two spymasters only."""

    key: tuple[CardType, ...]

    def audience(self) -> tuple[int, ...] | None:
        return SPYMASTERS


class CnRuleExplained(RuleExplainedBase, frozen=True, kw_only=True, tag="gb_cn_rule_explained"):
    """A seat asked for the rules under a heading (and was shown them)."""

    turn: int


class CnRequestRefused(RequestRefusedBase, frozen=True, kw_only=True, tag="gb_cn_request_refused"):
    """A seat's answer that could not stand, as given, and what the rules did instead."""


class CnClueGiven(Event, frozen=True, kw_only=True, tag="gb_cn_clue_given"):
    """A spymaster's clue (public): a word and a number (0: unlimited guesses). `refused`
    marks the empty clue that stands in for a clue the rules refused."""

    ACTOR = "seat"
    seat: int
    team: str
    turn: int
    word: str
    number: int
    refused: bool = False


class CnCardRevealed(Event, frozen=True, kw_only=True, tag="gb_cn_card_revealed"):
    """An operative guessed a card; its type is shown to everyone."""

    ACTOR = "seat"
    seat: int
    team: str
    turn: int
    index: int
    word: str
    card: CardType


class CnTurnEnded(Event, frozen=True, kw_only=True, tag="gb_cn_turn_ended"):
    """A team's turn is over: `pass` (the operative stopped), `miss` (a card not its own),
    `limit` (every allowed guess used), `refused` (an unusable guess)."""

    team: str
    turn: int
    reason: str
    guesses: int


class CnEnded(Event, frozen=True, kw_only=True, tag="game_ended"):
    """The game is over. `points` are GameBench's (own cards revealed, +3 to the winner, 0 to
    a team that found the assassin); `scores` are each seat's share of the points in [0, 1]
    (its team's), ranks share ties (1 = best)."""

    reason: Literal["all_found", "assassin", "turn_limit"]
    winner: str | None
    points: tuple[int, int]
    scores: tuple[float, ...]
    ranks: tuple[int, ...]


CnEvent = (
    CnStarted
    | CnBoardDealt
    | CnKeyDealt
    | CnRuleExplained
    | CnRequestRefused
    | CnClueGiven
    | CnCardRevealed
    | CnTurnEnded
    | CnEnded
)
"""Every event of a Codenames game."""

EVENT_TYPES: tuple[type[Event], ...] = CnEvent.__args__
