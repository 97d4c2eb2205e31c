"""Every fact of a GameBench Air, Land and Sea game.

Two players fight battles over three theatres (Air, Land, Sea) laid out in a row whose order
is drawn from the seed. Each battle deals six of the 18 battle cards to each player; the rest
is the deck. A seat sees its own hand, its own face-down cards and everything played face up;
the other hand, the other seat's face-down cards and the deck are hidden from it (face-down
cards are named only in seat-private events). Tags other than the shared start and end tags
carry the `als_` prefix.
"""

from __future__ import annotations

from typing import Literal

import msgspec
from msgspec import UNSET, UnsetType

from events.base import ENGINE, Event, SeatPrivate
from events.config import ConfigError, SeatSpec
from events.gamebench.common import RuleExplainedBase

NAME = "gamebench:air_land_sea"
VERSION = "1.1.0"
"""1.1.0: by default the rules of GameBench's program at 1b8b24e (`AlsConfig.rules`) and the
share of victory points as the match score (`AlsConfig.score`); 1.0.0 played the cards as
written with 1 / 0 scores and is kept to replay its games."""
VERSIONS: tuple[str, ...] = ("1.0.0", VERSION)

THEATRES: tuple[str, ...] = ("Air", "Land", "Sea")
"""The three theatres (and the three kinds of battle card)."""


class CardInfo(msgspec.Struct, frozen=True):
    """One battle card: its theatre, strength, name, and ability (kind and effect)."""

    theatre: str
    strength: int
    name: str
    kind: str
    """`instant`, `ongoing` or empty (no ability)."""
    text: str


CARDS: dict[str, CardInfo] = {
    "A1": CardInfo("Air", 1, "Support", "ongoing", "+3 strength to you in each adjacent theatre"),
    "A2": CardInfo(
        "Air", 2, "Air Drop", "instant", "your next card played may go to any theatre face up"
    ),
    "A3": CardInfo(
        "Air", 3, "Maneuver", "instant", "flip an uncovered card in an adjacent theatre"
    ),
    "A4": CardInfo(
        "Air",
        4,
        "Aerodrome",
        "ongoing",
        "you may play cards of strength 3 or less face up anywhere",
    ),
    "A5": CardInfo("Air", 5, "Containment", "ongoing", "any card played face down is destroyed"),
    "A6": CardInfo("Air", 6, "Heavy Bombers", "", ""),
    "L1": CardInfo(
        "Land", 1, "Reinforce", "instant", "draw the deck's top card, play it face down next door"
    ),
    "L2": CardInfo("Land", 2, "Ambush", "instant", "flip any uncovered card"),
    "L3": CardInfo(
        "Land", 3, "Maneuver", "instant", "flip an uncovered card in an adjacent theatre"
    ),
    "L4": CardInfo("Land", 4, "Cover Fire", "ongoing", "the cards it covers have strength 4"),
    "L5": CardInfo(
        "Land", 5, "Disrupt", "instant", "each player, you first, flips one own uncovered card"
    ),
    "L6": CardInfo("Land", 6, "Heavy Tanks", "", ""),
    "S1": CardInfo("Sea", 1, "Transport", "instant", "you may move one of your cards elsewhere"),
    "S2": CardInfo("Sea", 2, "Escalation", "ongoing", "your face-down cards have strength 4"),
    "S3": CardInfo(
        "Sea", 3, "Maneuver", "instant", "flip an uncovered card in an adjacent theatre"
    ),
    "S4": CardInfo(
        "Sea", 4, "Redeploy", "instant", "you may take back a face-down card, then play a card"
    ),
    "S5": CardInfo(
        "Sea", 5, "Blockade", "ongoing", "a card played next door onto 3 or more cards is destroyed"
    ),
    "S6": CardInfo("Sea", 6, "Super Battleship", "", ""),
}
"""The 18 battle cards by code (theatre letter and strength), GameBench's deck."""

GAMEBENCH_INERT: tuple[str, ...] = ("A2", "A3", "L3", "S3", "S2", "L4")
"""The abilities GameBench's unfinished program of 13 March 2024 (e4a6459) never applied:
Air Drop and the three Maneuvers (misspelt where it looked them up), Escalation and Cover
Fire (not yet written). By 1b8b24e, which played every published match, all of them act."""

HAND = 6
"""Cards dealt to each player at the start of a battle."""
TARGET = 12
"""Victory points that win the match."""
MAX_BATTLES = 12
"""Battles after which the match stops anyway (a player reaches 12 points within 11)."""
MAX_ABILITIES = 6
"""Instant abilities a single turn may set off; any more are ignored (a bound on flips
setting off flips)."""
BATTLE_WIN = 6
"""Victory points for winning a battle that was fought to the end."""


class AlsConfig(msgspec.Struct, frozen=True, kw_only=True):
    """An Air, Land and Sea match."""

    players: int = 2
    target: int = TARGET
    max_battles: int = MAX_BATTLES
    inert: tuple[str, ...] = ()
    """Cards (codes) whose abilities do nothing in this match; they keep their strength."""
    name: str = "standard"
    rules: Literal["code", "cards"] | UnsetType = UNSET
    """`code` (unset: the default): as GameBench's program at 1b8b24e plays the cards (see
    docs/gamebench.md); `cards`: as the cards and Appendix K say (rules 1.0.0 always did).
    Left out of the stored config while unset, so games stored before it keep their bytes."""
    score: Literal["share", "win"] | UnsetType = UNSET
    """`share` (unset: the default): each seat's share of the victory points, as GameBench's
    `play` returns; `win`: 1 to the winner, 0 to the loser (rules 1.0.0 always did). Left
    out of the stored config while unset."""

    def validate(self) -> AlsConfig:
        """Raise `ConfigError` unless the rules can play this; return self."""
        rules, score = settings(self)
        if rules not in ("code", "cards"):
            raise ConfigError(f"rules must be 'code' or 'cards', got {rules!r}")
        if score not in ("share", "win"):
            raise ConfigError(f"score must be 'share' or 'win', got {score!r}")
        if self.players != 2:
            raise ConfigError(f"Air, Land and Sea has exactly 2 players, got {self.players}")
        if not 1 <= self.target <= 1000:
            raise ConfigError(f"target must be in 1..1000, got {self.target}")
        if not 1 <= self.max_battles <= 1000:
            raise ConfigError(f"max_battles must be in 1..1000, got {self.max_battles}")
        unknown = sorted(set(self.inert) - set(CARDS))
        if unknown:
            raise ConfigError(f"inert names unknown cards: {', '.join(unknown)}")
        return self


def settings(config: AlsConfig) -> tuple[str, str]:
    """(rules, score) a configuration asks for, unset fields at their defaults."""
    rules = "code" if isinstance(config.rules, UnsetType) else config.rules
    return rules, "share" if isinstance(config.score, UnsetType) else config.score


def rules_of(config: AlsConfig, version: str) -> tuple[str, str]:
    """(rules, score) a game was played by: rules 1.0.0 always played the cards as written
    and scored 1 / 0."""
    if version == "1.0.0":
        return "cards", "win"
    return settings(config)


class AlsStarted(Event, frozen=True, kw_only=True, tag="game_started"):
    """An Air, Land and Sea match began."""

    seed: int
    config: AlsConfig
    seats: tuple[SeatSpec, ...]
    engine_version: str
    game: str = NAME


class AlsBattleBegan(Event, frozen=True, kw_only=True, tag="als_battle_began"):
    """A battle began: the theatres from left to right and the 1st player."""

    battle: int
    order: tuple[str, ...]
    first: int
    vp: tuple[int, ...]


class AlsShuffled(Event, frozen=True, kw_only=True, tag="als_shuffled"):
    """The battle's shuffled cards, top first (engine-only): seat 0 is dealt the first six,
    seat 1 the next six, and the rest is the deck."""

    battle: int
    cards: tuple[str, ...]

    def audience(self) -> tuple[int, ...] | None:
        return ENGINE


class AlsDealt(SeatPrivate, frozen=True, kw_only=True, tag="als_dealt"):
    """A seat's hand for the battle."""

    ACTOR = "seat"
    battle: int
    seat: int
    hand: tuple[str, ...]


class AlsHiddenCard(SeatPrivate, frozen=True, kw_only=True, tag="als_hidden_card"):
    """Which card the seat is about to play face down (its own knowledge only)."""

    ACTOR = "seat"
    n: int
    seat: int
    card: str


class AlsDrew(SeatPrivate, frozen=True, kw_only=True, tag="als_drew"):
    """Reinforce drew the deck's top card for the seat (its own knowledge only)."""

    ACTOR = "seat"
    n: int
    seat: int
    card: str


class AlsPlayed(Event, frozen=True, kw_only=True, tag="als_played"):
    """A card was played to a theatre: face up (named) or face down (not named)."""

    ACTOR = "seat"
    n: int
    seat: int
    card: str | None
    """None for a face-down card."""
    theatre: str
    faceup: bool
    via: Literal["turn", "redeploy", "reinforce"]
    destroyed: str | None = None
    """`Containment` or `Blockade` when the card was destroyed as it was played."""


class AlsFlipped(Event, frozen=True, kw_only=True, tag="als_flipped"):
    """A seat flipped the uncovered card of `owner` in a theatre (the card is named: it is
    face up on one side of the flip)."""

    ACTOR = "seat"
    n: int
    seat: int
    owner: int
    theatre: str
    card: str
    faceup: bool
    """Its side after the flip."""
    ability: str


class AlsMoved(Event, frozen=True, kw_only=True, tag="als_moved"):
    """Transport moved one of the seat's cards to the top of another theatre."""

    ACTOR = "seat"
    n: int
    seat: int
    theatre: str
    index: int
    """Its place in the seat's stack there (0 = bottom)."""
    to: str
    card: str | None
    """None for a face-down card."""


class AlsReturned(Event, frozen=True, kw_only=True, tag="als_returned"):
    """Redeploy took one of the seat's face-down cards back to its hand."""

    ACTOR = "seat"
    n: int
    seat: int
    theatre: str
    index: int


class AlsSkipped(Event, frozen=True, kw_only=True, tag="als_skipped"):
    """A seat chose not to use an ability that says "may"."""

    ACTOR = "seat"
    n: int
    seat: int
    ability: str


class AlsWithdrew(Event, frozen=True, kw_only=True, tag="als_withdrew"):
    """A seat withdrew from the battle."""

    ACTOR = "seat"
    n: int
    seat: int
    cards_left: int


class AlsRejected(SeatPrivate, frozen=True, kw_only=True, tag="als_rejected"):
    """An answer that named no legal action here (a random legal one was played instead),
    or a refused `Explain` request. Seen by the answering seat only (it may name its cards)."""

    ACTOR = "seat"
    n: int
    seat: int
    raw: str
    reason: str
    explain: bool = False
    """True for a refused `Explain` request (it uses up one of the seat's requests)."""


class AlsRuleExplained(RuleExplainedBase, frozen=True, kw_only=True, tag="als_rule_explained"):
    """A seat asked for the rules under a heading."""


class AlsBattleEnded(Event, frozen=True, kw_only=True, tag="als_battle_ended"):
    """A battle was decided: by a withdrawal, or by the theatres once both hands were empty."""

    battle: int
    reason: Literal["withdrew", "theatres"]
    winner: int
    gained: int
    strengths: tuple[tuple[int, int], ...]
    """Each theatre's strength of seat 0 and seat 1, in the battle's order."""
    control: tuple[int, ...]
    """The seat controlling each theatre, in the battle's order."""
    vp: tuple[int, ...]
    """Both seats' victory points after the battle."""


class AlsEnded(Event, frozen=True, kw_only=True, tag="game_ended"):
    """The match is over. Scores: each seat's share of the victory points (the default), or
    1 to the winner and 0 to the loser, 0.5 each when the battle cap stops it level."""

    reason: Literal["target", "battle_cap"]
    winner: int | None
    battles: int
    vp: tuple[int, ...]
    scores: tuple[float, ...]
    ranks: tuple[int, ...]


ALS_EVENT_TYPES: tuple[type[Event], ...] = (
    AlsStarted,
    AlsBattleBegan,
    AlsShuffled,
    AlsDealt,
    AlsHiddenCard,
    AlsDrew,
    AlsPlayed,
    AlsFlipped,
    AlsMoved,
    AlsReturned,
    AlsSkipped,
    AlsWithdrew,
    AlsRejected,
    AlsRuleExplained,
    AlsBattleEnded,
    AlsEnded,
)
"""Every event of an Air, Land and Sea match."""
