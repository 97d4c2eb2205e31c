"""Every fact of a GameBench "Are You the Traitor?" game (five players, two teams).

Seats 0 and 1 are the evil team, seats 2, 3 and 4 the good team, for the whole game (GameBench
seats one agent per team the same way). Each round deals the roles inside the teams (evil: the
traitor and the evil wizard; good: the good wizard, the key holder and a guard) and gives every
seat a name for that round (Player A to Player E), both drawn from the seed. Names change every
round, so a name never tells a seat which team another seat is on across rounds; every public
event names players by their round name only, never by seat.

A seat is told its own name and role; the names of the two wizards are public (not which is
which); the traitor is also told the key holder's name. The talk (questions and answers) is
public; a seat's pass in the stop poll is its own; an accusation and the roles of the round
are public once the round is over. Treasure cards are seen by their holder (and by the two
seats of a magic-ring theft) until the end of the game. Tags carry the `gb_ayt_` prefix; the
start and end tags are the shared ones.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from events.base import ENGINE, Event, SeatPrivate
from events.config import ConfigError, SeatSpec
from events.gamebench.common import RequestRefusedBase, RuleExplainedBase

NAME = "gamebench:are_you_the_traitor"
"""The game's name in the catalogue and in every stored game."""

EVIL, GOOD = "evil", "good"
TEAMS: tuple[str, str] = (EVIL, GOOD)
TEAM_OF_SEAT: tuple[str, ...] = (EVIL, EVIL, GOOD, GOOD, GOOD)
"""The team of each seat (GameBench: players 0-1 evil, 2-4 good)."""

TRAITOR, EVIL_WIZARD = "traitor", "evil wizard"
GOOD_WIZARD, KEY_HOLDER, GUARD = "good wizard", "key holder", "guard"
EVIL_ROLES: tuple[str, ...] = (TRAITOR, EVIL_WIZARD)
GOOD_ROLES: tuple[str, ...] = (GOOD_WIZARD, KEY_HOLDER, GUARD)
Role = Literal["traitor", "evil wizard", "good wizard", "key holder", "guard"]

TARGET: dict[str, str | None] = {
    TRAITOR: None,
    EVIL_WIZARD: KEY_HOLDER,
    GOOD_WIZARD: TRAITOR,
    KEY_HOLDER: GOOD_WIZARD,
    GUARD: TRAITOR,
}
"""The role each role's accusation must find (GameBench's targets; the traitor never stops)."""

LETTERS: tuple[str, ...] = ("A", "B", "C", "D", "E")
"""Round names: `Player A` to `Player E`."""

TREASURE: tuple[tuple[str, int, int], ...] = (
    ("crown jewels", 2, 5),
    ("platinum pyramid", 5, 4),
    ("bag of gold", 12, 3),
    ("silver goblet", 11, 2),
    ("chest of copper", 5, 1),
    ("magic ring", 5, 1),
    ("gilded statue", 2, 0),
)
"""(card, copies, points): GameBench's 42 treasure cards."""
POINTS: dict[str, int] = {name: pts for name, _, pts in TREASURE}
RING, STATUE = "magic ring", "gilded statue"

HEADINGS: tuple[str, ...] = ("Roles", "Talking", "Stopping", "Treasure", "End of the game")
"""The rule headings a seat may ask to have explained (GameBench's Appendix K gives only the
summary; these headings are the project's)."""


def team_of(seat: int) -> str:
    """The team of a seat."""
    return TEAM_OF_SEAT[seat]


class TraitorConfig(msgspec.Struct, frozen=True, kw_only=True):
    """Every knob of an "Are You the Traitor?" game; stored in its first event."""

    players: int = 5
    """Always 5 (GameBench's table)."""
    target: int = 10
    """Treasure points that end the game (GameBench: 10)."""
    max_rounds: int = 12
    """Rounds before the game stops at the latest (at most 13: the deck never runs out)."""
    max_exchanges: int = 5
    """Questions (each with its answer and a stop poll) per round before the round ends
    without a stop."""
    max_message: int = 200
    """Characters a question or an answer may hold (longer ones are cut)."""
    name: str = "standard"

    def validate(self) -> TraitorConfig:
        """Raise `ConfigError` unless the rules can play this configuration; return self."""
        if self.players != 5:
            raise ConfigError(f"Are You the Traitor? seats exactly 5 players, got {self.players}")
        if not 1 <= self.target <= 60:
            raise ConfigError(f"target must be 1..60, got {self.target}")
        if not 1 <= self.max_rounds <= 13:
            raise ConfigError(f"max_rounds must be 1..13, got {self.max_rounds}")
        if not 1 <= self.max_exchanges <= 50:
            raise ConfigError(f"max_exchanges must be 1..50, got {self.max_exchanges}")
        if not 20 <= self.max_message <= 2000:
            raise ConfigError(f"max_message must be 20..2000, got {self.max_message}")
        return self


class AytStarted(Event, frozen=True, kw_only=True, tag="game_started"):
    """A game began with this configuration, seed and seating."""

    seed: int
    config: TraitorConfig
    seats: tuple[SeatSpec, ...]
    engine_version: str
    game: str = NAME


class AytDeckShuffled(Event, frozen=True, kw_only=True, tag="gb_ayt_deck_shuffled"):
    """The treasure deck, top card first (engine-only: drawn from the seed)."""

    deck: tuple[str, ...]

    def audience(self) -> tuple[int, ...] | None:
        return ENGINE


class AytRoundDealt(Event, frozen=True, kw_only=True, tag="gb_ayt_round_dealt"):
    """A round's deal (engine-only, from the seed): each seat's name and role, who asks each
    question, and the order of each stop poll (seats, the traitor left out)."""

    round: int
    names: tuple[str, ...]
    roles: tuple[Role, ...]
    askers: tuple[int, ...]
    polls: tuple[tuple[int, ...], ...]

    def audience(self) -> tuple[int, ...] | None:
        return ENGINE


class AytRoundStarted(Event, frozen=True, kw_only=True, tag="gb_ayt_round_started"):
    """A round began (public): the names of its two wizards, not which is which."""

    round: int
    wizards: tuple[str, str]


class AytRoleTold(SeatPrivate, frozen=True, kw_only=True, tag="gb_ayt_role_told"):
    """A seat learns its name and role for the round; the traitor also learns the key
    holder's name."""

    ACTOR = "seat"
    seat: int
    round: int
    name: str
    role: Role
    key_holder: str | None = None


class AytAsked(Event, frozen=True, kw_only=True, tag="gb_ayt_asked"):
    """A question, public, from one round name to another (an empty text: said nothing)."""

    round: int
    exchange: int
    speaker: str
    to: str
    text: str


class AytAnswered(Event, frozen=True, kw_only=True, tag="gb_ayt_answered"):
    """The answer to the question of the exchange, public (empty: no answer)."""

    round: int
    exchange: int
    speaker: str
    text: str


class AytPassed(SeatPrivate, frozen=True, kw_only=True, tag="gb_ayt_passed"):
    """A seat let the talk go on when the stop poll reached it (its own: the order of the
    poll, which leaves the traitor out, would give the traitor away)."""

    ACTOR = "seat"
    seat: int
    round: int
    exchange: int


class AytStopped(Event, frozen=True, kw_only=True, tag="gb_ayt_stopped"):
    """A player called stop and pointed at another (public, by round names)."""

    round: int
    exchange: int
    accuser: str
    accused: str


class AytRoundEnded(Event, frozen=True, kw_only=True, tag="gb_ayt_round_ended"):
    """A round is over (public): `stop` (an accusation decided it) or `silence` (nobody
    stopped in time: no treasure). `roles` reveals every name's role, in name order."""

    round: int
    reason: Literal["stop", "silence"]
    winner: str | None
    accuser_role: Role | None = None
    accused_role: Role | None = None
    roles: tuple[tuple[str, Role], ...] = ()


class AytTreasureDrawn(SeatPrivate, frozen=True, kw_only=True, tag="gb_ayt_treasure_drawn"):
    """A seat of the round's winning team drew the top treasure card (seen by that seat)."""

    ACTOR = "seat"
    seat: int
    round: int
    card: str


class AytRingUsed(Event, frozen=True, kw_only=True, tag="gb_ayt_ring_used"):
    """A magic ring's holder took a card from a player of the other team and gave up the ring
    (seen by the two of them; `thief` and `victim` are seats, the names are the round's)."""

    ACTOR = "thief"
    round: int
    thief: int
    victim: int
    thief_name: str
    victim_name: str
    card: str

    def audience(self) -> tuple[int, ...] | None:
        return (self.thief, self.victim)


class AytRuleExplained(RuleExplainedBase, frozen=True, kw_only=True, tag="gb_ayt_rule_explained"):
    """A seat asked for the rules under a heading (and was shown them)."""

    turn: int


class AytRequestRefused(
    RequestRefusedBase, frozen=True, kw_only=True, tag="gb_ayt_request_refused"
):
    """A seat's answer that could not stand as given, and what the rules did instead (a cut
    message stands cut; anything else makes the decision's fallback play)."""


class AytEnded(Event, frozen=True, kw_only=True, tag="game_ended"):
    """The game is over: `target` (a player reached the target) or `round_limit`. `points`
    are each seat's treasure points; `scores` GameBench's match scores (1 to each seat of the
    winning team, 0 to the others, 0.5 each for a draw)."""

    reason: Literal["target", "round_limit"]
    winner: str | None
    points: tuple[int, ...]
    scores: tuple[float, ...]
    ranks: tuple[int, ...]


AytEvent = (
    AytStarted
    | AytDeckShuffled
    | AytRoundDealt
    | AytRoundStarted
    | AytRoleTold
    | AytAsked
    | AytAnswered
    | AytPassed
    | AytStopped
    | AytRoundEnded
    | AytTreasureDrawn
    | AytRingUsed
    | AytRuleExplained
    | AytRequestRefused
    | AytEnded
)
"""Every event of the game."""

EVENT_TYPES: tuple[type[Event], ...] = AytEvent.__args__
