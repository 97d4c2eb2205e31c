"""Every fact of a GameBench Arctic Scavengers game.

GameBench's variant of the deck-building game (its cards, counts and actions; see
docs/gamebench.md for each decision): every player starts with ten cards (4 Refugees,
3 Scavengers, a Brawler, a Spear and a Shovel). Each round every tribe is shuffled and five
cards are dealt; the players in turn spend cards on gathering actions (dig in the junkyard,
draw, hunt, hire a mercenary, trash), the rest of each hand goes face down into the
skirmish, the skirmish piles are revealed, Sniper Teams and Saboteurs strike, and the
strongest pile takes the top contested resource. When the five contested resources are gone
the player with the most people in its last skirmish pile wins, a tie going to the later
seat (GameBench's code; rules 1.0.0 and the `tribe` preset count the people on all a tribe's
cards and share a tie).

Hidden: hands, the order of every deck, the junkyard and the contested pile (engine-only
events), the cards a dig turns up (but the one kept), a skirmish pile until all are
revealed. Tags other than the shared start and end tags carry the `arc_` prefix.
"""

from __future__ import annotations

from typing import Literal

import msgspec
from msgspec import UNSET, UnsetType

from events.base import ENGINE, Event, SeatPrivate
from events.config import ConfigError, SeatSpec
from events.gamebench.common import RuleExplainedBase

NAME = "gamebench:arctic_scavengers"
VERSION = "1.1.0"
"""1.1.0: by default the winner is the seat with the most people in its last skirmish pile,
a tie going to the later seat (`ArcticConfig.winner`), and a gathering answer the rules
cannot take is played as GameBench's program plays it (`ArcticConfig.fallback`); 1.0.0
always counted every card a tribe owns, shared a tie and played a legal action drawn from
the seed, and is kept to replay its games."""
VERSIONS: tuple[str, ...] = ("1.0.0", VERSION)

WINNER_RULES: tuple[str, ...] = ("hand", "tribe")
"""How the winner is found: `hand`, the most people in the last skirmish pile (ties to the
later seat); `tribe`, the most people on every card owned (ties share)."""

ACTIONS: tuple[str, ...] = ("dig", "draw", "hunt", "hire", "trash")
"""The gathering actions; each may be taken once per round."""


class Card(msgspec.Struct, frozen=True, kw_only=True):
    """A card's printed facts: people, what it adds to each action, its price."""

    title: str
    people: int = 0
    """Tribe members on the card (0 for tools, medicine and junk)."""
    standard: tuple[tuple[str, int], ...] = ()
    """(action, value) the card performs on its own (a tribe member's skills)."""
    modifier: tuple[tuple[str, int], ...] = ()
    """(action, value) the card adds to an action a standard card performs (a tool's)."""
    food: int = 0
    """Food a hire costs."""
    medicine: int = 0
    """Medicine a hire costs."""

    def value(self, action: str) -> int:
        """What the card adds to `action` (fight, dig, draw, hunt, medicine), 0 if nothing."""
        for a, v in (*self.standard, *self.modifier):
            if a == action:
                return v
        return 0

    def does(self, action: str) -> bool:
        """Whether the card can take part in `action`."""
        return any(a == action for a, _ in (*self.standard, *self.modifier))

    def leads(self, action: str) -> bool:
        """Whether the card performs `action` itself (not only adds to it)."""
        return any(a == action for a, _ in self.standard)


def _c(
    title: str, people: int = 0, std: str = "", mod: str = "", food: int = 0, med: int = 0
) -> Card:
    """A card from its facts written as text: `std` and `mod` read "dig 1, fight 2"."""

    def parse(text: str) -> tuple[tuple[str, int], ...]:
        return tuple((p.split()[0], int(p.split()[1])) for p in text.split(",") if p.strip())

    return Card(
        title=title,
        people=people,
        standard=parse(std),
        modifier=parse(mod),
        food=food,
        medicine=med,
    )


CARDS: dict[str, Card] = {
    c.title: c
    for c in (
        _c("Refugee", 1, "dig 0, hunt 0"),
        _c("Scavenger", 1, "draw 1, dig 1, hunt 1, fight 1", food=1),
        _c("Brawler", 1, "dig 1, fight 2", food=2),
        _c("Hunter", 1, "hunt 2, fight 1", med=1),
        _c("Saboteur", 1, "dig 1, fight 1", food=1, med=1),
        _c("Scout", 1, "draw 2, fight 2", food=2, med=1),
        _c("Group Leaders", 2, mod="draw 2, dig 2, hunt 2, fight 2", food=2, med=2),
        _c("Sniper Team", 2, food=2, med=2),
        _c("Thug", 3, "dig 1, fight 3", food=6),
        _c("Tribe Family", 5, "hunt 0, fight 0"),
        _c("Wolf Pack", 0, mod="hunt 3, fight 2"),
        _c("Grenade", 0, mod="fight 3"),
        _c("Sled Team", 2, "draw 2, fight 1"),
        _c("Field Crew", 4, "dig 2, hunt 2, fight 2"),
        _c("Junk"),
        _c("Multitool", 0, mod="dig 1, hunt 1, fight 1"),
        _c("Net", 0, mod="hunt 2, fight 1"),
        _c("Spear", 0, mod="hunt 1, fight 2"),
        _c("Pickaxe", 0, mod="dig 1, fight 2"),
        _c("Shovel", 0, mod="dig 2, fight 1"),
        _c("Medkit", 0, "medicine 2"),
        _c("Pills", 0, "medicine 1"),
    )
}
"""Every card of GameBench's variant, in a fixed order (lists of titles sort by it)."""

ORDER: dict[str, int] = {t: i for i, t in enumerate(CARDS)}
"""Title -> its place in `CARDS` (the order cards are listed in)."""

START: tuple[tuple[str, int], ...] = (
    ("Refugee", 4),
    ("Scavenger", 3),
    ("Brawler", 1),
    ("Spear", 1),
    ("Shovel", 1),
)
"""Each player's starting ten cards."""

JUNKYARD: tuple[tuple[str, int], ...] = (
    ("Junk", 7),
    ("Multitool", 4),
    ("Net", 4),
    ("Spear", 4),
    ("Pickaxe", 4),
    ("Shovel", 4),
    ("Medkit", 6),
    ("Pills", 9),
)
"""The junkyard's 42 cards, shuffled at the start."""

MERCENARIES: tuple[tuple[str, int], ...] = (
    ("Brawler", 8),
    ("Hunter", 8),
    ("Saboteur", 8),
    ("Scout", 8),
    ("Group Leaders", 5),
    ("Sniper Team", 5),
    ("Thug", 5),
    ("Scavenger", 14),
)
"""The eight mercenary piles (face up) and their sizes."""

CONTESTED: tuple[str, ...] = ("Wolf Pack", "Grenade", "Sled Team", "Field Crew", "Tribe Family")
"""The contested resources, shuffled at the start; one is fought over each round, so a game
has as many rounds."""

HAND = 5
"""Cards dealt to each player at the start of a round."""

STRIKERS: dict[str, str] = {"Sniper Team": "snipe", "Saboteur": "sabotage"}
"""The cards that strike in a skirmish, and how: a snipe removes a tribe member (a card with
people), sabotage a card without people."""


def sort_titles(titles: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """Titles in the fixed card order."""
    return tuple(sorted(titles, key=ORDER.__getitem__))


class ArcticConfig(msgspec.Struct, frozen=True, kw_only=True):
    """An Arctic Scavengers game: the number of players (GameBench plays two)."""

    players: int = 2
    name: str = "standard"
    winner: Literal["hand", "tribe"] | UnsetType = UNSET
    """`hand` (unset: the default): the most people in the last skirmish pile win, a tie
    going to the later seat, as GameBench's code decides; `tribe`: the most people on all the
    cards a tribe owns, tied leaders sharing the point (rules 1.0.0 always did so). Unset, it
    is left out of the stored config, so that games stored before the field existed keep
    their bytes."""

    fallback: Literal["gamebench", "legal"] | UnsetType = UNSET
    """`gamebench` (unset: the default): a gathering answer the rules cannot take is played as
    GameBench's `update_resource_gather` plays it (an answer its checks pass, such as a dig
    worth 0, as named; an empty trash a random hand card; anything else its own fallback, the
    first card with people on one of its unused actions or a trash, used or not); `legal`: a
    legal action drawn from the seed (rules 1.0.0 always did so). Unset, it is left out of
    the stored config."""

    def validate(self) -> ArcticConfig:
        """Raise `ConfigError` unless the rules can play this; return self."""
        if fallback_setting(self) not in ("gamebench", "legal"):
            raise ConfigError(f"fallback must be 'gamebench' or 'legal', got {self.fallback!r}")
        if winner_setting(self) not in WINNER_RULES:
            raise ConfigError(f"winner must be 'hand' or 'tribe', got {self.winner!r}")
        if not 2 <= self.players <= 4:
            raise ConfigError(f"Arctic Scavengers takes 2..4 players, got {self.players}")
        return self


class ArcStarted(Event, frozen=True, kw_only=True, tag="game_started"):
    """An Arctic Scavengers game began."""

    seed: int
    config: ArcticConfig
    seats: tuple[SeatSpec, ...]
    engine_version: str
    game: str = NAME


def winner_setting(config: ArcticConfig) -> str:
    """The winner rule a configuration asks for (unset: `hand`)."""
    return "hand" if isinstance(config.winner, UnsetType) else config.winner


def fallback_setting(config: ArcticConfig) -> str:
    """How a configuration replaces an unusable gathering answer (unset: `gamebench`)."""
    return "gamebench" if isinstance(config.fallback, UnsetType) else config.fallback


def fallback_rule(start: ArcStarted) -> str:
    """How a game replaced unusable gathering answers: rules 1.0.0 always by a legal one."""
    if start.engine_version == "1.0.0":
        return "legal"
    return fallback_setting(start.config)


def winner_rule(start: ArcStarted) -> str:
    """The winner rule a game was played by: rules 1.0.0 always counted the whole tribe."""
    if start.engine_version == "1.0.0":
        return "tribe"
    return winner_setting(start.config)


class ArcSupplied(Event, frozen=True, kw_only=True, tag="arc_supplied"):
    """The order of the junkyard and the contested resources, top first (engine-only: drawn
    from the seed)."""

    junkyard: tuple[str, ...]
    contested: tuple[str, ...]

    def audience(self) -> tuple[int, ...] | None:
        return ENGINE


class ArcRoundStarted(Event, frozen=True, kw_only=True, tag="arc_round_started"):
    """A round began: who gathers first and how many cards each player was dealt."""

    round: int
    first: int
    dealt: tuple[int, ...]
    contested_left: int


class ArcShuffled(Event, frozen=True, kw_only=True, tag="arc_shuffled"):
    """A player's whole tribe shuffled for the round, top first (engine-only)."""

    round: int
    seat: int
    order: tuple[str, ...]

    def audience(self) -> tuple[int, ...] | None:
        return ENGINE


class ArcDealt(SeatPrivate, frozen=True, kw_only=True, tag="arc_dealt"):
    """The cards a seat was dealt this round (its own knowledge)."""

    ACTOR = "seat"
    round: int
    seat: int
    hand: tuple[str, ...]


class ArcPlayed(Event, frozen=True, kw_only=True, tag="arc_played"):
    """A seat spent cards from its hand on a gathering action, face up."""

    ACTOR = "seat"
    round: int
    seat: int
    action: Literal["dig", "draw", "hunt", "hire", "trash"]
    cards: tuple[str, ...]
    """The cards spent (for a hire, the medicine paid)."""
    value: int = 0
    """The action's strength: cards dug or drawn, food hunted; 0 for a hire or trash."""
    hired: str | None = None
    """The mercenary hired."""
    food: int = 0
    """The seat's food after the action."""
    drawn: int = 0
    """Cards a draw or a dig actually turned up (fewer than `value` when the pile ran out)."""


class ArcDrew(SeatPrivate, frozen=True, kw_only=True, tag="arc_drew"):
    """The cards a draw took from the top of the seat's deck into its hand."""

    ACTOR = "seat"
    round: int
    seat: int
    cards: tuple[str, ...]


class ArcDug(SeatPrivate, frozen=True, kw_only=True, tag="arc_dug"):
    """The cards a dig turned up from the top of the junkyard (the digger's knowledge)."""

    ACTOR = "seat"
    round: int
    seat: int
    cards: tuple[str, ...]


class ArcKept(Event, frozen=True, kw_only=True, tag="arc_kept"):
    """The card a digger kept (None: none), face up among its cards out of play; the other
    dug cards go under the junkyard in order, unseen by the others."""

    ACTOR = "seat"
    round: int
    seat: int
    card: str | None
    returned: int
    """Dug cards put back under the junkyard."""


class ArcJunked(Event, frozen=True, kw_only=True, tag="arc_junked"):
    """Where trashed cards went into the junkyard, one position each, in turn (engine-only:
    the junkyard is shuffled with each card added)."""

    round: int
    cards: tuple[str, ...]
    positions: tuple[int, ...]

    def audience(self) -> tuple[int, ...] | None:
        return ENGINE


class ArcStopped(Event, frozen=True, kw_only=True, tag="arc_stopped"):
    """A seat ended its gathering; the rest of its hand goes face down into the skirmish."""

    ACTOR = "seat"
    round: int
    seat: int
    committed: int


class ArcRevealed(Event, frozen=True, kw_only=True, tag="arc_revealed"):
    """Every skirmish pile turned face up."""

    round: int
    piles: tuple[tuple[str, ...], ...]


class ArcStruck(Event, frozen=True, kw_only=True, tag="arc_struck"):
    """A Sniper Team sniped, or a Saboteur sabotaged, a card of another pile: it leaves the
    skirmish."""

    ACTOR = "seat"
    round: int
    seat: int
    kind: Literal["snipe", "sabotage"]
    target: int
    card: str


class ArcHeld(Event, frozen=True, kw_only=True, tag="arc_held"):
    """A seat is done striking this skirmish."""

    ACTOR = "seat"
    round: int
    seat: int


class ArcSkirmished(Event, frozen=True, kw_only=True, tag="arc_skirmished"):
    """The skirmish is decided: the strongest pile (then the most people) takes the
    contested resource; a tie sends it under the junkyard."""

    round: int
    fight: tuple[int, ...]
    people: tuple[int, ...]
    winner: int | None
    card: str


class ArcRejected(SeatPrivate, frozen=True, kw_only=True, tag="arc_rejected"):
    """An answer that was no legal action here (a random legal one, or under GameBench's
    fallback GameBench's choice, was played instead), or a refused `Explain` request. Seen by
    the answering seat only."""

    ACTOR = "seat"
    round: int
    seat: int
    raw: str
    reason: str
    explain: bool = False
    """True for a refused `Explain` request (it uses up one of the seat's requests)."""


class ArcRuleExplained(RuleExplainedBase, frozen=True, kw_only=True, tag="arc_rule_explained"):
    """A seat asked for the rules under a heading."""


class ArcEnded(Event, frozen=True, kw_only=True, tag="game_ended"):
    """The contested resources are gone: the winner scores 1 (under the `tribe` rule tied
    leaders share it)."""

    reason: Literal["contested_gone"]
    tribes: tuple[int, ...]
    """People on all the cards each seat owns."""
    winner: int | None
    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    hands: tuple[int, ...] | UnsetType = UNSET
    """People in each seat's last skirmish pile, the count that names the winner under the
    `hand` rule (unset under the `tribe` rule and in games stored before it)."""


ARC_EVENT_TYPES: tuple[type[Event], ...] = (
    ArcStarted,
    ArcSupplied,
    ArcRoundStarted,
    ArcShuffled,
    ArcDealt,
    ArcPlayed,
    ArcDrew,
    ArcDug,
    ArcKept,
    ArcJunked,
    ArcStopped,
    ArcRevealed,
    ArcStruck,
    ArcHeld,
    ArcSkirmished,
    ArcRejected,
    ArcRuleExplained,
    ArcEnded,
)
"""Every event of an Arctic Scavengers game."""
