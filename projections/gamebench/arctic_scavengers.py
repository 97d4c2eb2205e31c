"""What an Arctic Scavengers seat sees, the timeline's lines and the model seats' prompts.

A seat knows its own cards (its hand, what its deck holds but not in which order, what it
spent this round), what a dig showed it, the public side of every action (the cards played
face up, hires, trashes, the card a dig kept, how many cards were drawn or dug), the mercenary piles, the sizes
of the junkyard and the contested pile, every tribe's people, and the skirmish piles once
they are revealed. Never another hand, another deck, the cards another seat's dig returned, the junkyard's or
the contested pile's order, or a skirmish pile before the reveal.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import msgspec
from msgspec import UnsetType

from engine.gamebench.arctic_scavengers import (
    HEADINGS,
    ArcDecision,
    Gather,
    Hire,
    Keep,
    Stop,
    Strike,
    fight,
    tribe,
)
from engine.gamebench.common import fallback
from events.agent import ActionDefaulted
from events.gamebench.arctic_scavengers import (
    CARDS,
    CONTESTED,
    HAND,
    JUNKYARD,
    MERCENARIES,
    NAME,
    START,
    ArcDealt,
    ArcDrew,
    ArcDug,
    ArcEnded,
    ArcHeld,
    ArcJunked,
    ArcKept,
    ArcPlayed,
    ArcRejected,
    ArcRevealed,
    ArcRoundStarted,
    ArcRuleExplained,
    ArcShuffled,
    ArcSkirmished,
    ArcStarted,
    ArcStopped,
    ArcStruck,
    ArcSupplied,
    fallback_rule,
    sort_titles,
    winner_rule,
)
from projections.gamebench.common import GameBenchPrompter, RuleBook, ViewBase, player_name

SQL = Path(__file__).resolve().parents[2] / "events" / "gamebench" / "arctic_scavengers.sql"
"""The `arc_actions` and `arc_skirmishes` views."""

RECENT = 14
"""Timeline lines a prompt shows (the latest ones)."""

_START = [t for t, k in START for _ in range(k)]


class ArcSnapshot(msgspec.Struct, frozen=True, kw_only=True):
    """What a seat knows, as plain data."""

    seat: int
    round: int
    hand: tuple[str, ...]
    deck: tuple[str, ...]
    """The cards in the seat's deck, in card order (their order is hidden)."""
    out: tuple[str, ...]
    skirmish: tuple[str, ...]
    dug: tuple[str, ...]
    food: int
    used: tuple[str, ...]
    people: tuple[int, ...]
    cards: tuple[int, ...]
    mercenaries: tuple[tuple[str, int], ...]
    junkyard: int
    contested: int
    revealed: tuple[tuple[str, ...], ...]
    explained: tuple[str, ...]
    pending: str | None = None


def _cards(titles: Sequence[str]) -> str:
    """Titles grouped: `Refugee x2, Shovel`; `nothing` for none."""
    if not titles:
        return "nothing"
    counts = Counter(titles)
    return ", ".join(f"{t} x{counts[t]}" if counts[t] > 1 else t for t in sort_titles(list(counts)))


def _player(seat: int, first: int = 0, viewer: int | None = None) -> str:
    return player_name(seat, first, viewer)


def _n(count: int, what: str) -> str:
    return f"{count} {what}" + ("" if count == 1 else "s")


def card_text(title: str) -> str:
    """A card's facts in one line."""
    c = CARDS[title]
    parts = [f"{c.people} people" if c.people != 1 else "1 person"] if c.people else ["no people"]
    if c.standard:
        parts.append("does " + ", ".join(f"{a} {v}" for a, v in c.standard))
    if c.modifier:
        parts.append("adds " + ", ".join(f"{a} +{v}" for a, v in c.modifier))
    if c.food or c.medicine:
        parts.append(f"hire: {c.food} food, {c.medicine} medicine")
    if title == "Sniper Team":
        parts.append("in a skirmish snipes a card with people")
    if title == "Saboteur":
        parts.append("in a skirmish sabotages a card without people")
    return f"{title}: " + "; ".join(parts)


class ArcView(ViewBase):
    """One seat's fold of the events it may see."""

    def __init__(self, seat: int) -> None:
        super().__init__(seat)
        self.players = 0
        self.round = -1
        self.first = 0
        self.mine: Counter[str] = Counter(_START)
        """Every card the seat owns."""
        self.hand: list[str] = []
        self.out: list[str] = []
        self.skirmish: list[str] = []
        self.dug: list[str] = []
        self.food = 0
        self.used: list[str] = []
        self.people: list[int] = []
        self.cards: list[int] = []
        self.mercs: dict[str, int] = dict(MERCENARIES)
        self.junkyard = sum(k for _, k in JUNKYARD)
        self.contested = len(CONTESTED)
        self.revealed: list[list[str]] = []
        self.won: list[list[str]] = []
        """Contested resources each seat took."""
        self.result: ArcEnded | None = None
        self.winner_rule = "hand"
        """How the game names its winner (`ArcticConfig.winner`; rules 1.0.0: `tribe`)."""
        self.fallback_rule = "gamebench"
        """How the game replaces an unusable gathering answer (`ArcticConfig.fallback`)."""

    def fold(self, e: Any) -> None:
        """Take one visible event into the view."""
        if isinstance(e, ArcStarted):
            n = self.players = e.config.players
            self.winner_rule = winner_rule(e)
            self.fallback_rule = fallback_rule(e)
            self.people = [tribe(_START)] * n
            self.cards = [len(_START)] * n
            self.won = [[] for _ in range(n)]
        elif isinstance(e, ArcRoundStarted):
            self.round, self.first = e.round, e.first
            self.hand, self.out, self.skirmish, self.dug, self.used = [], [], [], [], []
            self.food = 0
            self.revealed = []
        elif isinstance(e, ArcDealt):
            if e.seat == self.seat:
                self.hand = list(e.hand)
        elif isinstance(e, ArcPlayed):
            if e.action == "dig":
                self.junkyard -= e.drawn  # turned up: out of the pile until the digger chooses
            if e.action == "trash":
                self.junkyard += len(e.cards)
                self.people[e.seat] -= tribe(e.cards)
                self.cards[e.seat] -= len(e.cards)
            if e.hired is not None:
                self.mercs[e.hired] -= 1
                self.people[e.seat] += CARDS[e.hired].people
                self.cards[e.seat] += 1
            if e.seat == self.seat:
                for t in e.cards:
                    self.hand.remove(t)
                if e.action == "trash":
                    self.mine.subtract(e.cards)
                else:
                    self.out.extend(e.cards)
                if e.hired is not None:
                    self.mine[e.hired] += 1
                    self.out.append(e.hired)
                self.used.append(e.action)
                self.food = e.food
        elif isinstance(e, ArcDrew):
            if e.seat == self.seat:
                self.hand.extend(e.cards)
        elif isinstance(e, ArcDug):
            if e.seat == self.seat:
                self.dug = list(e.cards)
        elif isinstance(e, ArcKept):
            self.junkyard += e.returned
            if e.card is not None:
                self.people[e.seat] += CARDS[e.card].people
                self.cards[e.seat] += 1
                if e.seat == self.seat:
                    self.mine[e.card] += 1
                    self.out.append(e.card)
            self.dug = []
        elif isinstance(e, ArcStopped):
            if e.seat == self.seat:
                self.skirmish, self.hand = self.hand, []
        elif isinstance(e, ArcRevealed):
            self.revealed = [list(p) for p in e.piles]
        elif isinstance(e, ArcStruck):
            self.revealed[e.target].remove(e.card)
            if e.target == self.seat:
                self.skirmish.remove(e.card)
                self.out.append(e.card)
        elif isinstance(e, ArcSkirmished):
            self.contested -= 1
            if e.winner is None:
                self.junkyard += 1
            else:
                self.won[e.winner].append(e.card)
                self.people[e.winner] += CARDS[e.card].people
                self.cards[e.winner] += 1
                if e.winner == self.seat:
                    self.mine[e.card] += 1
                    self.out.append(e.card)
        elif isinstance(e, ArcEnded):
            self.ended = True
            self.result = e

    def deck(self) -> list[str]:
        """The cards in the seat's deck this round (its own cards not in view elsewhere)."""
        rest = Counter(self.mine)
        rest.subtract(self.hand)
        rest.subtract(self.out)
        rest.subtract(self.skirmish)
        return list(sort_titles(list(rest.elements())))

    def recent(self, n: int = RECENT, first: int = 0) -> list[str]:
        """The timeline lines of the last `n` events this seat saw that have one."""
        out: list[str] = []
        for e in reversed(self.history):
            line = describe(e, self.seat, first)
            if line is not None:
                out.append(line)
                if len(out) == n:
                    break
        return out[::-1]

    def snapshot(self, pending: Any = None) -> ArcSnapshot:
        """The view as plain data, with the decision asked of this seat (if any)."""
        asked = None
        if isinstance(pending, ArcDecision) and self.seat in pending.seats:
            asked = pending.kind
        return ArcSnapshot(
            seat=self.seat,
            round=self.round,
            hand=tuple(self.hand),
            deck=tuple(self.deck()),
            out=tuple(self.out),
            skirmish=tuple(self.skirmish),
            dug=tuple(self.dug),
            food=self.food,
            used=tuple(self.used),
            people=tuple(self.people),
            cards=tuple(self.cards),
            mercenaries=tuple(self.mercs.items()),
            junkyard=self.junkyard,
            contested=self.contested,
            revealed=tuple(tuple(p) for p in self.revealed),
            explained=tuple(self.explained),
            pending=asked,
        )


def describe(e: Any, viewer: int | None, first: int = 0) -> str | None:
    """One line of the timeline per event, worded for `viewer` (None: everything)."""
    match e:
        case ArcStarted():
            return f"Arctic Scavengers for {e.config.players} players"
        case ArcSupplied():
            return None if viewer is not None else "The junkyard and contested pile are shuffled"
        case ArcRoundStarted():
            return (
                f"Round {e.round + 1}: {_player(e.first, first, viewer)} gathers first; "
                f"{_n(e.contested_left, 'contested resource')} left"
            )
        case ArcShuffled():
            return (
                None
                if viewer is not None
                else f"{_player(e.seat, first, viewer)}'s tribe is shuffled"
            )
        case ArcDealt():
            return f"{_player(e.seat, first, viewer)} is dealt {_cards(e.hand)}"
        case ArcPlayed():
            who = _player(e.seat, first, viewer)
            if e.action == "hire":
                paid = f" paying {_cards(e.cards)}" if e.cards else ""
                return f"{who} hires a {e.hired}{paid} (food left {e.food})"
            if e.action == "trash":
                return f"{who} trashes {_cards(e.cards)} into the junkyard"
            if e.action == "hunt":
                return f"{who} hunts with {_cards(e.cards)}: +{e.value} food (food {e.food})"
            what = "the junkyard" if e.action == "dig" else "their deck"
            return (
                f"{who} {e.action}s with {_cards(e.cards)}: {e.drawn} of "
                f"{_n(e.value, 'card')} from {what}"
            )
        case ArcDrew():
            return f"{_player(e.seat, first, viewer)} draws {_cards(e.cards)}"
        case ArcDug():
            return f"{_player(e.seat, first, viewer)} turns up {_cards(e.cards)}"
        case ArcKept():
            goes = "goes" if e.returned == 1 else "go"
            back = f"; {_n(e.returned, 'dug card')} {goes} under the junkyard" if e.returned else ""
            return f"{_player(e.seat, first, viewer)} keeps {e.card or 'nothing'}{back}"
        case ArcJunked():
            return None if viewer is not None else f"Trashed cards go in at {list(e.positions)}"
        case ArcStopped():
            goes = "goes" if e.committed == 1 else "go"
            return f"{_player(e.seat, first, viewer)} stops: {_n(e.committed, 'card')} {goes} into the skirmish"
        case ArcRevealed():
            piles = "; ".join(
                f"{_player(s, first, viewer)}: {_cards(p)}" for s, p in enumerate(e.piles)
            )
            return f"Skirmish piles revealed: {piles}"
        case ArcStruck():
            verb = "snipes" if e.kind == "snipe" else "sabotages"
            return f"{_player(e.seat, first, viewer)} {verb} {_player(e.target, first, viewer)}'s {e.card}"
        case ArcHeld():
            return f"{_player(e.seat, first, viewer)} strikes no more"
        case ArcSkirmished():
            fights = ", ".join(str(f) for f in e.fight)
            if e.winner is None:
                return f"Skirmish tied (fight {fights}): {e.card} goes under the junkyard"
            return f"{_player(e.winner, first, viewer)} wins the skirmish (fight {fights}) and takes {e.card}"
        case ArcRejected():
            return f"{_player(e.seat, first, viewer)}'s answer was refused ({e.reason})"
        case ArcRuleExplained():
            if viewer is not None and viewer != e.seat:
                return None
            return f"{_player(e.seat, first, viewer)} read the rules under {e.heading!r}"
        case ArcEnded():
            sizes = ", ".join(str(t) for t in e.tribes)
            if not isinstance(e.hands, UnsetType) and e.winner is not None:
                last = ", ".join(str(t) for t in e.hands)
                return (
                    f"Game over: last skirmish piles {last} people (tribes {sizes}); "
                    f"{_player(e.winner, first, viewer)} wins"
                )
            if e.winner is None:
                return f"Game over: tribes {sizes} people; the largest tribes tie"
            return f"Game over: tribes {sizes} people; {_player(e.winner, first, viewer)} wins"
        case ActionDefaulted():
            # Worded here so that the seat has one name in the whole timeline.
            return f"! {_player(e.seat, first, viewer)}'s {e.decision} defaulted to {e.action} ({e.reason})"
    return None


def label(action: Any, first: int = 0) -> str:
    """How a legal action is listed in a prompt."""
    if isinstance(action, Gather):
        if action.kind == "trash":
            return "Trash " + ", ".join(action.cards)
        return f"{action.kind.capitalize()} with " + ", ".join(action.cards)
    if isinstance(action, Hire):
        paid = f" paying {', '.join(action.cards)}" if action.cards else ""
        return f"Hire {action.mercenary}{paid}"
    if isinstance(action, Keep):
        return f"Keep {action.card}" if action.card else "Keep nothing"
    if isinstance(action, Strike):
        verb = "Snipe" if action.kind == "snipe" else "Sabotage"
        return f"{verb} {_player(action.target, first)}'s {action.card}"
    assert isinstance(action, Stop)
    return "Stop"


SUMMARY = (
    f"Arctic Scavengers is a deck-building game: each player leads a tribe of survivors, "
    f"and every card is a tribe member, a tool, medicine or junk. The game lasts "
    f"{len(CONTESTED)} rounds, one per contested resource. Each round your whole tribe is "
    f"shuffled and you are dealt {HAND} cards; you spend cards on gathering actions (dig in "
    "the junkyard, draw, hunt for food, hire a mercenary, trash), then the cards left in "
    "your hand fight a skirmish against the other players' and the strongest takes the "
    "contested resource. When they are all gone, the tribe with the most people on its "
    "cards wins."
)
"""The summary of the `tribe` rule (rules 1.0.0's games and the `tribe` preset), in the
project's own words."""

HAND_SUMMARY = SUMMARY.replace(
    "the tribe with the most people on its cards wins.",
    "the player with the most people among the cards of its last skirmish wins.",
)
"""The summary every model seat of GameBench's game (the `hand` rule) reads."""

SECTIONS: dict[str, str] = {
    HEADINGS[0]: (
        "Tribe members (cards with people) perform actions; tools only add to an action a "
        "tribe member performs. Medicine pays for hires. Junk does nothing. Every player "
        "starts with 4 Refugees, 3 Scavengers, a Brawler, a Spear and a Shovel. Cards:\n"
        + "\n".join(card_text(t) for t in CARDS)
    ),
    HEADINGS[1]: (
        "Players gather in turn, the first player changing every round; you act until you "
        "stop or can do nothing more. Dig, draw, hunt, hire and trash can each be taken once "
        "per round. For dig, draw and hunt you spend hand cards that can do that action, at "
        "least one of them a card that does it itself; their values add up. Draw takes that "
        "many cards from your deck into your hand. Hunt gives that much food, which lasts "
        "until the end of the round. Trash puts any of your hand cards into the junkyard at "
        "random places, for good. Spent cards, and cards you gain, sit out until the next "
        "round, when all your cards are shuffled again. When you stop, the rest of your hand "
        "is your skirmish pile."
    ),
    HEADINGS[2]: (
        "Dig turns up as many cards from the top of the junkyard as its value; you may keep "
        "one of them and the rest go under the junkyard. Hire takes the top card of a "
        "mercenary pile: you pay its food from this round's hunting and its medicine by "
        "spending Medkits (2) and Pills (1) from your hand. One hire per round."
    ),
    HEADINGS[3]: (
        "When every player has stopped, all skirmish piles are shown. Then, in turn from the "
        "first player, each Sniper Team in your pile may snipe one card with people from "
        "another pile, and each Saboteur may sabotage one card without people; the card "
        "leaves the skirmish. A pile's fight is the sum of the fight values of all its cards. "
        "The highest fight takes the top contested resource into its tribe; a tie is won by "
        "the most people among the tied piles; if that ties too, the resource goes under the "
        "junkyard."
    ),
    HEADINGS[4]: (
        f"After the {len(CONTESTED)}th skirmish the game ends. Each tribe counts the people on "
        "all the cards it owns (hand, deck and all). The largest tribe wins and scores 1, the "
        "others 0; tribes tied for the largest share the point."
    ),
}
"""The rules under each heading, shown on request (the `tribe` rule's End)."""

TRIBE_BOOK = RuleBook(title="Arctic Scavengers", summary=SUMMARY, sections=tuple(SECTIONS.items()))
"""The rules of the `tribe` rule, as rules 1.0.0's games showed them."""

HAND_END = (
    f"After the {len(CONTESTED)}th skirmish the game ends. Each player counts the people on "
    "the cards left in its skirmish pile of that last round (after the strikes; cards in its "
    "deck, spent or won do not count). The most people win and score 1, the others 0; on a "
    "tie the player with the higher number wins."
)
"""The End of GameBench's game (the `hand` rule)."""

BOOK = RuleBook(
    title="Arctic Scavengers",
    summary=HAND_SUMMARY,
    sections=tuple({**SECTIONS, HEADINGS[4]: HAND_END}.items()),
)
"""The rules as a model sees them (GameBench's game)."""


def book_of(view: ArcView) -> RuleBook:
    """The rule book of the game a view follows (how it names its winner)."""
    return TRIBE_BOOK if view.winner_rule == "tribe" else BOOK


_ASK = {
    "gather": "Take a gathering action, or stop (the rest of your hand goes to the skirmish).",
    "keep": "You dug: keep one of the cards you turned up, or nothing.",
    "skirmish": "Strike with a Sniper Team or Saboteur in your pile, or stop striking.",
}


@dataclass(frozen=True)
class ArcPrompter(GameBenchPrompter):
    """Prompts and answer reading of Arctic Scavengers' model seats."""

    title: str = "Arctic Scavengers"
    playing: str = "a deck-building card game against other players"
    book: RuleBook = BOOK

    def situation(self, view: Any, decision: Any) -> str:
        """The seat's cards, the public table, recent events and the question."""
        tribes = ", ".join(
            f"{_player(s, self.first)} {p} people in {c} cards"
            for s, (p, c) in enumerate(zip(view.people, view.cards, strict=True))
        )
        mercs = ", ".join(f"{t} {k}" for t, k in view.mercs.items())
        lines = [
            f"You are {_player(view.seat, self.first)} of {view.players}. Round {view.round + 1} of "
            f"{len(CONTESTED)}; {view.contested} contested resources left.",
            f"Tribes: {tribes}.",
            f"Your hand: {_cards(view.hand)}.",
            f"Your deck (order hidden): {_cards(view.deck())}.",
            f"Out of play this round: {_cards(view.out)}.",
            f"Food: {view.food}. Actions taken this round: {', '.join(view.used) or 'none'}.",
            f"Mercenary piles: {mercs}. Junkyard: {view.junkyard} cards.",
        ]
        if view.skirmish:
            lines.append(f"Your skirmish pile: {_cards(view.skirmish)}.")
        if view.revealed:
            for s, p in enumerate(view.revealed):
                lines.append(f"{_player(s, self.first)}'s pile: {_cards(p)} (fight {fight(p)}).")
        if view.dug:
            lines.append(f"You turned up: {_cards(view.dug)}.")
        seen = sort_titles(list({*view.hand, *view.dug, *(t for p in view.revealed for t in p)}))
        lines += ["Cards in view:", *(card_text(t) for t in seen)]
        lines += ["Recent events:", *view.recent(first=self.first), _ASK[decision.kind]]
        return "\n".join(lines)

    def decision_prompt(self, view: Any, decision: Any, memory: str, rejection: Any) -> str:
        """The shared prompt, with the rules of the game the view follows."""
        shared = GameBenchPrompter.decision_prompt
        return shared(replace(self, book=book_of(view)), view, decision, memory, rejection)

    def options(self, decision: Any) -> Sequence[tuple[str, Any]]:
        """Every legal action with its label."""
        return [(label(a, self.first), a) for a in decision.legal]

    def default_action(self, decision: Any, seat: int) -> Any:
        """A random legal action drawn from the game seed (GameBench's fallback)."""
        return fallback(decision.seed, NAME, decision.ply, decision.legal)


def frames(viewer: int | str | None) -> tuple[Any, dict[str, list[Any]]]:
    """The viewer's frames (`extras["frames"]`): round, tribes, piles shown, and the hands the
    viewer may see (a seat its own, every hand for the omniscient viewer)."""
    seat = viewer if isinstance(viewer, int) else -1
    view = ArcView(seat)
    hands: dict[int, list[str]] = {}
    seen: list[Any] = []

    def step(e: Any) -> dict[str, Any]:
        seen.append(e)
        view.sync(seen, [None] * len(seen))
        if isinstance(e, ArcDealt):
            hands[e.seat] = list(e.hand)
        elif isinstance(e, ArcDrew) and e.seat in hands:
            hands[e.seat].extend(e.cards)
        elif isinstance(e, ArcPlayed) and e.seat in hands:
            for t in e.cards:
                hands[e.seat].remove(t)
        elif isinstance(e, ArcStopped):
            hands.pop(e.seat, None)
        lines = [
            f"Round {view.round + 1}" + (" (over)" if view.ended else ""),
            "Tribes: " + ", ".join(f"{_player(s)} {p}" for s, p in enumerate(view.people)),
        ]
        for s in sorted(hands):
            lines.append(f"{_player(s)} hand: {_cards(hands[s])}")
        for s, p in enumerate(view.revealed):
            lines.append(f"{_player(s)} skirmish: {_cards(p)}")
        # The drawing's data: the tribes, hands and skirmish piles the lines above tell.
        board = {
            "game": "arctic_scavengers",
            "status": lines[0],
            "tribes": list(view.people),
            "hands": {str(s): list(h) for s, h in sorted(hands.items())},
            "skirmish": [list(p) for p in view.revealed],
            "me": seat if seat >= 0 else None,
        }
        return {"kind": "text", "text": "\n".join(lines), "board": board}

    return step, {}


__all__ = ["SQL", "ArcPrompter", "ArcView", "card_text", "describe", "frames", "label"]
