"""Every fact of a GameBench Two Rooms and a Boom game.

Two teams, blue and red, share two rooms. Seats 0 .. n/2-1 are blue (one of them the
President), seats n/2 .. n-1 red (one of them the Bomber). The seat numbers are the
harness's own; inside the game every player is known by a letter drawn from the seed, so
nothing a player is shown ties a name to a team. Which room each player starts in, and the
leader of each room, are drawn from the seed and public. A player's card (its colour and
its role) is dealt to that player only; the talk of a room is heard by the players in that
room at the time; a card or colour shown by one player to another is seen by the two only;
a leader's choice of hostages is its own until both leaders have chosen and the hostages
cross (public). Tags carry the `gb_tr_` prefix; the start and end tags are the shared ones.

Two ways to talk share the rest (`talk_of`): `ask`, GameBench's (each player in turn picks a
room-mate, asks it one question and hears its answer, the two alone, the exchange passed on to
the room's leader when the asker shares the leader's colour), and `open` (a message to the
whole room, a shown colour or silence), which rules 1.0.0 and 1.1.0 always played.
"""

from __future__ import annotations

from typing import Literal

import msgspec
from msgspec import UNSET, UnsetType

from events.base import ENGINE, Event, SeatPrivate
from events.config import ConfigError, SeatSpec
from events.gamebench.common import RequestRefusedBase, RuleExplainedBase

NAME = "gamebench:two_rooms_and_a_boom"
"""The game's name in the catalogue and in every stored game."""

BLUE, RED = "blue", "red"
TEAMS: tuple[str, str] = (BLUE, RED)
"""Teams in seat order: the first half of the seats is blue, the second half red."""
PRESIDENT, BOMBER = "president", "bomber"
Colour = Literal["blue", "red"]
Role = Literal["president", "bomber", ""]
"""A card's role: the President (blue), the Bomber (red), or none."""

HEADINGS: tuple[str, ...] = (
    "Teams and cards",
    "Rooms and leaders",
    "Talking and showing",
    "Hostages",
    "Winning",
)
"""The rule headings a seat may ask to have explained (GameBench's Appendix K gives only the
summary of this game; these headings are the project's)."""

HEADINGS_ASK: tuple[str, ...] = (
    "Teams and cards",
    "Rooms and leaders",
    "Questions",
    "Hostages",
    "Winning",
)
"""The headings under GameBench's talk (`talk = "ask"`), the project's too."""


def headings_for(talk: str) -> tuple[str, ...]:
    """The rule headings a seat may ask for under a way of talking."""
    return HEADINGS_ASK if talk == "ask" else HEADINGS


LETTERS = "ABCDEFGHIJKL"
"""The players' names (a seeded permutation of the first n letters)."""


def team_of(seat: int, players: int) -> str:
    """The team of a seat: the first half of the seats is blue."""
    return BLUE if seat < players // 2 else RED


def team_seats(players: int) -> tuple[str, ...]:
    """The team of every seat, in seat order (`extras["teams"]`)."""
    return tuple(team_of(s, players) for s in range(players))


class TwoRoomsConfig(msgspec.Struct, frozen=True, kw_only=True):
    """Every knob of a Two Rooms and a Boom game; stored in its first event."""

    players: int = 6
    """Always 6, as GameBench plays it (three a room); the teams of the seats are part of
    the game's definition, so the count is fixed."""
    rounds: int = 3
    """Rounds, each talk then one exchange of hostages (GameBench: 3)."""
    hostages: int = 1
    """Hostages each leader sends per round (GameBench: 1)."""
    talks: int = 2
    """Times each player speaks (or shows, or keeps quiet) per round under open talk."""
    max_message: int = 200
    """Longest message, in characters; a longer one is cut."""
    name: str = "standard"
    talk: Literal["ask", "open"] | UnsetType = UNSET
    """`ask` (unset: the default): GameBench's questions and answers, one exchange per player
    a round (`talks` is not read); `open`: `talks` turns a round of a message to the room, a
    shown card or colour, or silence (rules 1.0.0 and 1.1.0 always talked so). Left out of the
    stored config while unset, so that games stored before the field existed keep their
    bytes."""
    roles: Literal["hidden", "dealt"] | UnsetType = UNSET
    """`hidden`: a card tells its holder only its colour, and nobody learns who the President
    or the Bomber is before the end (GameBench's code); `dealt`: each card also tells its
    holder its role, as in the board game (rules 1.0.0 always dealt them). Unset (the default):
    hidden, left out of the stored config while unset (the default), so that games stored before
    the field existed keep their bytes."""

    def validate(self) -> TwoRoomsConfig:
        """Raise `ConfigError` unless the rules can play this configuration; return self."""
        if self.players != 6:
            raise ConfigError(f"Two Rooms seats exactly 6 players, got {self.players}")
        if not 1 <= self.rounds <= 10:
            raise ConfigError(f"rounds must be 1..10, got {self.rounds}")
        if not 1 <= self.hostages <= self.players // 2 - 1:
            raise ConfigError(
                f"hostages must be 1..{self.players // 2 - 1} (a room keeps its leader),"
                f" got {self.hostages}"
            )
        if not 0 <= self.talks <= 5:
            raise ConfigError(f"talks must be 0..5, got {self.talks}")
        if not isinstance(self.talk, UnsetType) and self.talk not in ("ask", "open"):
            raise ConfigError(f"talk must be 'ask' or 'open', got {self.talk!r}")
        if not isinstance(self.roles, UnsetType) and self.roles not in ("hidden", "dealt"):
            raise ConfigError(f"roles must be 'hidden' or 'dealt', got {self.roles!r}")
        if not 20 <= self.max_message <= 1000:
            raise ConfigError(f"max_message must be 20..1000, got {self.max_message}")
        return self


class TrStarted(Event, frozen=True, kw_only=True, tag="game_started"):
    """A Two Rooms game began with this configuration, seed and seating."""

    seed: int
    config: TwoRoomsConfig
    seats: tuple[SeatSpec, ...]
    engine_version: str
    game: str = NAME


class TrSetUp(Event, frozen=True, kw_only=True, tag="gb_tr_set_up"):
    """The public set-up: every seat's name, the room it starts in (0 or 1), and the leader
    of each room (a seat)."""

    names: tuple[str, ...]
    rooms: tuple[int, ...]
    leaders: tuple[int, int]


class TrCardDealt(SeatPrivate, frozen=True, kw_only=True, tag="gb_tr_card_dealt"):
    """A seat's card: its colour and its role ('' for none); seen by that seat only."""

    ACTOR = "seat"
    seat: int
    colour: Colour
    role: Role


class TrRolesDrawn(Event, frozen=True, kw_only=True, tag="gb_tr_roles_drawn"):
    """Who holds the President and who the Bomber when the cards keep roles hidden
    (engine-only: no seat learns them before the end)."""

    president: int
    bomber: int

    def audience(self) -> tuple[int, ...] | None:
        return ENGINE


def roles_of(start: TrStarted) -> str:
    """How a game deals roles: games of rules 1.0.0 dealt every role to its holder."""
    if start.engine_version == "1.0.0":
        return "dealt"
    return "hidden" if isinstance(start.config.roles, UnsetType) else start.config.roles


def talk_of(start: TrStarted) -> str:
    """How a game's players talk: games of rules 1.0.0 and 1.1.0 talked openly."""
    if start.engine_version in ("1.0.0", "1.1.0"):
        return "open"
    return "ask" if isinstance(start.config.talk, UnsetType) else start.config.talk


class TrRuleExplained(RuleExplainedBase, frozen=True, kw_only=True, tag="gb_tr_rule_explained"):
    """A seat asked for the rules under a heading (and was shown them)."""

    round: int


class TrRequestRefused(RequestRefusedBase, frozen=True, kw_only=True, tag="gb_tr_request_refused"):
    """A seat's answer that could not stand as given (`turn` is the round), and why."""


class TrSaid(Event, frozen=True, kw_only=True, tag="gb_tr_said"):
    """A player spoke to its room; heard by the players in that room at the time."""

    ACTOR = "seat"
    seat: int
    round: int
    room: int
    text: str
    hearers: tuple[int, ...]

    def audience(self) -> tuple[int, ...] | None:
        return self.hearers


class TrKeptQuiet(Event, frozen=True, kw_only=True, tag="gb_tr_kept_quiet"):
    """A player let its turn to talk pass; noticed by the players in its room."""

    ACTOR = "seat"
    seat: int
    round: int
    room: int
    hearers: tuple[int, ...]

    def audience(self) -> tuple[int, ...] | None:
        return self.hearers


class TrShown(Event, frozen=True, kw_only=True, tag="gb_tr_shown"):
    """A player showed its card (colour and role) or its colour only to another player of
    its room; seen by the two only."""

    ACTOR = "seat"
    seat: int
    to: int
    round: int
    room: int
    what: Literal["card", "colour"]
    colour: Colour
    role: Role
    """The role shown ('' when only the colour is shown, or for a card without one)."""

    def audience(self) -> tuple[int, ...] | None:
        return (self.seat, self.to)


class TrAskedWhom(SeatPrivate, frozen=True, kw_only=True, tag="gb_tr_asked_whom"):
    """A player picked the room-mate it will question (`talk = "ask"`); its own choice."""

    ACTOR = "seat"
    seat: int
    to: int
    round: int
    room: int


class TrAsked(Event, frozen=True, kw_only=True, tag="gb_tr_asked"):
    """A player's question to a room-mate; heard by the two only."""

    ACTOR = "seat"
    seat: int
    to: int
    round: int
    room: int
    text: str

    def audience(self) -> tuple[int, ...] | None:
        return (self.seat, self.to)


class TrAskSkipped(SeatPrivate, frozen=True, kw_only=True, tag="gb_tr_ask_skipped"):
    """A player's question could not be read, so its exchange ends unasked (GameBench moves
    on to the next player); known to the player only."""

    ACTOR = "seat"
    seat: int
    round: int
    room: int


class TrAnswered(Event, frozen=True, kw_only=True, tag="gb_tr_answered"):
    """The answer to a question: heard by the asker and the answerer, and told with the
    question to `leader` (the room's leader, when the asker is not the leader and shares its
    colour; -1 for nobody else)."""

    ACTOR = "seat"
    seat: int
    """The player who answered."""
    asker: int
    round: int
    room: int
    question: str
    text: str
    leader: int = -1

    def audience(self) -> tuple[int, ...] | None:
        told = (self.asker, self.seat)
        return told if self.leader < 0 or self.leader in told else (*told, self.leader)


class TrHostagesChosen(SeatPrivate, frozen=True, kw_only=True, tag="gb_tr_hostages_chosen"):
    """A leader chose the hostages its room sends; its own until the exchange."""

    ACTOR = "seat"
    seat: int
    round: int
    room: int
    hostages: tuple[int, ...]


class TrHostagesSwapped(Event, frozen=True, kw_only=True, tag="gb_tr_hostages_swapped"):
    """The end of a round: the hostages of each room cross to the other (public)."""

    round: int
    sent: tuple[tuple[int, ...], tuple[int, ...]]
    """The seats room 0 sent and the seats room 1 sent."""


class TrEnded(Event, frozen=True, kw_only=True, tag="game_ended"):
    """The game is over: red wins when the Bomber ends in the President's room, else blue.
    Every card is revealed; `scores` are 1 for each seat of the winning team, 0 for the
    others; ranks share ties (1 = best)."""

    reason: Literal["rounds_over"]
    winner: str
    president_room: int
    bomber_room: int
    rooms: tuple[int, ...]
    """Every seat's room at the end."""
    cards: tuple[tuple[str, str], ...]
    """Every seat's (colour, role), revealed."""
    scores: tuple[float, ...]
    ranks: tuple[int, ...]


TrEvent = (
    TrStarted
    | TrSetUp
    | TrCardDealt
    | TrRolesDrawn
    | TrRuleExplained
    | TrRequestRefused
    | TrSaid
    | TrKeptQuiet
    | TrShown
    | TrAskedWhom
    | TrAsked
    | TrAskSkipped
    | TrAnswered
    | TrHostagesChosen
    | TrHostagesSwapped
    | TrEnded
)
"""Every event of a Two Rooms game."""

EVENT_TYPES: tuple[type[Event], ...] = TrEvent.__args__
