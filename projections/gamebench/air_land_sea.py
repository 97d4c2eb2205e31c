"""What an Air, Land and Sea seat sees, the timeline's lines and the model seats' prompts.

A seat knows its own hand (its deal, the cards it took back), which of its face-down cards
is which, every card played face up or revealed by a flip, how many cards the other player
holds, and the victory points; never the other hand, the other side's face-down cards (unless
it saw them face up) nor the deck.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import msgspec

from engine.gamebench.air_land_sea import (
    HEADINGS,
    AlsDecision,
    card_name,
    control,
    strengths,
    withdraw_points,
)
from engine.gamebench.common import fallback
from events.agent import ActionDefaulted
from events.gamebench.air_land_sea import (
    BATTLE_WIN,
    CARDS,
    HAND,
    MAX_ABILITIES,
    NAME,
    THEATRES,
    AlsBattleBegan,
    AlsBattleEnded,
    AlsDealt,
    AlsDrew,
    AlsEnded,
    AlsFlipped,
    AlsHiddenCard,
    AlsMoved,
    AlsPlayed,
    AlsRejected,
    AlsReturned,
    AlsRuleExplained,
    AlsShuffled,
    AlsSkipped,
    AlsStarted,
    AlsWithdrew,
    rules_of,
)
from projections.gamebench.common import GameBenchPrompter, RuleBook, ViewBase, player_name

SQL = Path(__file__).resolve().parents[2] / "events" / "gamebench" / "air_land_sea.sql"
"""The `gb_als_battles` and `gb_als_plays` views."""

RECENT = 10
"""Timeline lines a prompt shows (the latest ones)."""


class AlsSnapshot(msgspec.Struct, frozen=True, kw_only=True):
    """What a seat knows, as plain data."""

    seat: int
    battle: int
    order: tuple[str, ...]
    first: int
    vp: tuple[int, ...]
    hand: tuple[str, ...]
    counts: tuple[int, ...]
    theatres: tuple[tuple[tuple[tuple[str, bool], ...], ...], ...]
    """Per theatre in order, per seat: (card or "" when unknown, face up), bottom first."""
    explained: tuple[str, ...]
    pending: str | None = None


class AlsView(ViewBase):
    """One seat's fold of the events it may see (seat -1: every event, for the viewer)."""

    def __init__(self, seat: int) -> None:
        super().__init__(seat)
        self.target = 0
        self.max_battles = 0
        self.inert: tuple[str, ...] = ()
        self.rules = "code"
        """`code` or `cards` (`AlsConfig.rules`), `score` `share` or `win`."""
        self.score = "share"
        self.battle = 0
        self.order: list[str] = list(THEATRES)
        self.first = 0
        self.vp: tuple[int, ...] = (0, 0)
        self.hands: dict[int, list[str]] = {}
        """The hands this view knows (its own; both for the omniscient viewer)."""
        self.counts = [0, 0]
        self.lanes: dict[str, list[list[tuple[str, bool]]]] = {t: [[], []] for t in THEATRES}
        self.hidden: dict[int, str] = {}
        self.drawn: dict[int, str] = {}

    def fold(self, e: Any) -> None:
        """Take one visible event into the view."""
        if isinstance(e, AlsStarted):
            self.target = e.config.target
            self.max_battles = e.config.max_battles
            self.inert = e.config.inert
            self.rules, self.score = rules_of(e.config, e.engine_version)
        elif isinstance(e, AlsBattleBegan):
            self.battle = e.battle
            self.order = list(e.order)
            self.first = e.first
            self.vp = e.vp
            self.hands = {}
            self.counts = [HAND, HAND]
            self.lanes = {t: [[], []] for t in THEATRES}
            self.hidden, self.drawn = {}, {}
        elif isinstance(e, AlsDealt):
            self.hands[e.seat] = list(e.hand)
        elif isinstance(e, AlsHiddenCard):
            self.hidden[e.seat] = e.card
        elif isinstance(e, AlsDrew):
            self.drawn[e.seat] = e.card
        elif isinstance(e, AlsPlayed):
            card = e.card if e.card is not None else self.hidden.pop(e.seat, "")
            if e.via == "reinforce":
                self.drawn.pop(e.seat, None)
            else:
                self.counts[e.seat] -= 1
                if e.seat in self.hands and card in self.hands[e.seat]:
                    self.hands[e.seat].remove(card)
            if e.destroyed is None:
                self.lanes[e.theatre][e.seat].append((card, e.faceup))
        elif isinstance(e, AlsFlipped):
            self.lanes[e.theatre][e.owner][-1] = (e.card, e.faceup)
        elif isinstance(e, AlsMoved):
            moved = self.lanes[e.theatre][e.seat].pop(e.index)
            self.lanes[e.to][e.seat].append(moved)
        elif isinstance(e, AlsReturned):
            card, _ = self.lanes[e.theatre][e.seat].pop(e.index)
            self.counts[e.seat] += 1
            if e.seat in self.hands:
                self.hands[e.seat].append(card)
        elif isinstance(e, AlsBattleEnded):
            self.vp = e.vp
        elif isinstance(e, AlsEnded):
            self.vp = e.vp
            self.ended = True

    def strengths(self, lanes: Any = None) -> list[tuple[int, int]]:
        """Each theatre's strengths on `lanes` (the board this view sees, by default) by the
        match's rules."""
        board = self.lanes if lanes is None else lanes
        return strengths(self.order, board, self.inert, self.rules == "code")

    def hand(self) -> list[str]:
        """The seat's own hand, sorted."""
        return sorted(self.hands.get(self.seat, []))

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

    def board_lines(self, count_from: int = 0) -> list[str]:
        """Each theatre, left to right: both sides' cards (bottom first), strengths and who
        controls it now (seats counted from `count_from`)."""
        strength = self.strengths()
        held = control(strength, self.first)
        lines = []
        for i, t in enumerate(self.order):
            sides = []
            for s in (0, 1):
                cards = ", ".join(_shown(c, up) for c, up in self.lanes[t][s]) or "no cards"
                sides.append(f"{_who(s, self.seat, count_from)} {strength[i][s]} [{cards}]")
            who = _who(held[i], self.seat, count_from)
            lines.append(f"{t}: {sides[0]}; {sides[1]}; controlled by {who}")
        return lines

    def snapshot(self, pending: Any = None) -> AlsSnapshot:
        """The view as plain data, with the decision asked of this seat (if any)."""
        asked = None
        if isinstance(pending, AlsDecision) and self.seat in pending.seats:
            asked = pending.kind
        return AlsSnapshot(
            seat=self.seat,
            battle=self.battle,
            order=tuple(self.order),
            first=self.first,
            vp=self.vp,
            hand=tuple(self.hand()),
            counts=tuple(self.counts),
            theatres=tuple(tuple(tuple(side) for side in self.lanes[t]) for t in self.order),
            explained=tuple(self.explained),
            pending=asked,
        )


def _player(seat: int, first: int = 0, viewer: int | None = None) -> str:
    return player_name(seat, first, viewer)


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


_GB_PLAYER = re.compile(r"Player (\d+)'s")
"""A seat named in a label of the rules (counted from 1, as GameBench does)."""


def _who(seat: int, viewer: int, first: int = 0) -> str:
    return "you" if seat == viewer else _player(seat, first)


def _shown(card: str, up: bool) -> str:
    if not card:
        return "face-down card"
    return card_name(card) if up else f"face-down {card_name(card)}"


def _ability(card: str, inert: tuple[str, ...]) -> str:
    if card in inert:
        return "no ability in this match"
    return CARDS[card].text or "no ability"


def _name(card: str | None) -> str:
    return card_name(card) if card else "a card"


def describe(e: Any, viewer: int | None, first: int = 0) -> str | None:
    """One line of the timeline per event, worded for `viewer` (None: everything)."""
    match e:
        case AlsStarted():
            return f"Air, Land and Sea: first to {e.config.target} victory points"
        case AlsBattleBegan():
            return (
                f"Battle {e.battle + 1}: theatres {', '.join(e.order)}; {_player(e.first, first, viewer)} is "
                f"the 1st player (points {e.vp[0]}-{e.vp[1]})"
            )
        case AlsShuffled():
            return None if viewer is not None else f"Battle {e.battle + 1}: cards shuffled"
        case AlsDealt():
            return f"{_player(e.seat, first, viewer)} is dealt {', '.join(card_name(c) for c in e.hand)}"
        case AlsHiddenCard():
            return f"({_player(e.seat, first, viewer)}'s face-down card is {card_name(e.card)})"
        case AlsDrew():
            return f"{_player(e.seat, first, viewer)} draws {card_name(e.card)} for Reinforce"
        case AlsPlayed():
            how = "face up" if e.faceup else "face down"
            via = {"turn": "", "redeploy": " (Redeploy)", "reinforce": " (Reinforce)"}[e.via]
            line = (
                f"{_player(e.seat, first, viewer)} plays {_name(e.card)} {how} to {e.theatre}{via}"
            )
            if e.destroyed is not None:
                line += f"; {e.destroyed} destroys it"
            return line
        case AlsFlipped():
            side = "face up" if e.faceup else "face down"
            return (
                f"{_player(e.seat, first, viewer)} ({e.ability}) flips {_player(e.owner, first, viewer)}'s "
                f"{card_name(e.card)} in {e.theatre} {side}"
            )
        case AlsMoved():
            return f"{_player(e.seat, first, viewer)} (Transport) moves {_name(e.card)} from {e.theatre} to {e.to}"
        case AlsReturned():
            return f"{_player(e.seat, first, viewer)} (Redeploy) takes a face-down card in {e.theatre} back"
        case AlsSkipped():
            return f"{_player(e.seat, first, viewer)} does not use {e.ability}"
        case AlsWithdrew():
            return f"{_player(e.seat, first, viewer)} withdraws holding {_cards(e.cards_left)}"
        case AlsRejected():
            if e.explain:
                # Usually asked again; once requests run out the fallback's play has a line.
                return (
                    f"{_player(e.seat, first, viewer)}'s request for rules was refused ({e.reason})"
                )
            return f"{_player(e.seat, first, viewer)}'s answer was refused ({e.reason}); a random legal action was played"
        case AlsRuleExplained():
            if viewer is not None and viewer != e.seat:
                return None
            return f"{_player(e.seat, first, viewer)} read the rules under {e.heading!r}"
        case AlsBattleEnded():
            how = "the other player withdrew" if e.reason == "withdrew" else "theatres held"
            return (
                f"Battle {e.battle + 1} to {_player(e.winner, first, viewer)} ({how}): +{e.gained} points "
                f"(points {e.vp[0]}-{e.vp[1]})"
            )
        case AlsEnded():
            if e.winner is None:
                return f"Match drawn after {e.battles} battles at {e.vp[0]}-{e.vp[1]}"
            why = "reached the target" if e.reason == "target" else "led at the battle cap"
            return f"{_player(e.winner, first, viewer)} wins the match ({why}, {e.vp[0]}-{e.vp[1]})"
        case ActionDefaulted():
            # Worded here so that the seat has one name in the whole timeline.
            return f"! {_player(e.seat, first, viewer)}'s {e.decision} defaulted to {e.action} ({e.reason})"
    return None


SUMMARY = (
    "Air, Land and Sea is a two-player war card game fought over a series of battles. Three "
    "theatres (Air, Land, Sea) lie in a row; each battle you get 6 of the 18 battle cards "
    "(strengths 1 to 6 in each theatre, most with an ability) and no more. Players take turns "
    "playing one card each, or withdrawing. When both hands are empty, whoever controls more "
    "theatres wins the battle and scores 6 victory points; withdrawing gives the other player "
    "fewer points. The first to 12 victory points wins the match (match score 1, loser 0)."
)
"""The summary a model seat reads under the `cards` rules (in the project's own words)."""

CODE_SUMMARY = SUMMARY.replace(
    "wins the match (match score 1, loser 0).",
    "ends the match; each player's match score is its share of all the victory points scored.",
)
"""The summary under the default rules (GameBench's program at 1b8b24e)."""


def _ability_list() -> str:
    rows = []
    for code, info in CARDS.items():
        if info.kind:
            rows.append(f"{info.name} ({info.theatre} {info.strength}, {info.kind}): {info.text}")
        else:
            rows.append(f"{info.name} ({info.theatre} {info.strength}): no ability")
        del code
    return "; ".join(rows) + "."


SECTIONS: dict[str, str] = {
    HEADINGS[0]: (
        "The three theatres lie in a row, in an order drawn at the start; two theatres side by "
        "side are adjacent (the middle one is adjacent to both others). After each battle the "
        "rightmost theatre moves to the far left. Each player plays cards only to their own "
        "side of a theatre. A new card on your side of a theatre covers the cards you already "
        "have there; the last one played is uncovered."
    ),
    HEADINGS[1]: (
        "Each card belongs to one theatre and has a strength. Your strength in a theatre is the "
        "total of your cards there; the player with more strength controls it. "
        f"The cards: {_ability_list()}"
    ),
    HEADINGS[2]: (
        "A card played face down may go to any theatre and counts 2, whatever it is, and has "
        "no ability. You know your own face-down cards; your opponent's stay unknown to you "
        "unless a flip shows them. Flipping turns a card face up (its instant ability then "
        "acts) or face down."
    ),
    HEADINGS[3]: (
        "On your turn do one thing. Deploy: play a card face up to its own theatre. Improvise: "
        "play a card face down to any theatre. Withdraw: give up the battle. Air Drop and "
        "Aerodrome let some cards be deployed face up to another theatre."
    ),
    HEADINGS[4]: (
        "One player is the 1st player of a battle: they play first and win tied theatres "
        "(and empty ones); the role changes hands every battle. If the 2nd player withdraws, "
        "the 1st scores 2 points when the 2nd still holds 5 or more cards, 3 for 3-4, 4 for 2, "
        "6 for 0-1. If the 1st player withdraws, the 2nd scores 2 for 4 or more cards, 3 for "
        "2-3, 4 for 1, 6 for none."
    ),
    HEADINGS[5]: (
        "An instant ability acts once, when its card is played face up or flipped face up; "
        "abilities set off together act in the order they were set off, each finished before "
        "the next. An ongoing ability acts while its card is face up. An ability that cannot "
        "act is ignored; one that says 'may' can be declined. A flip affects an uncovered "
        "card of either player unless it says 'your'. A destroyed card leaves the battle; it "
        "never uses its ability. A moved card goes on top of its new theatre. At most "
        f"{MAX_ABILITIES} instant abilities act per turn; more are ignored."
    ),
    HEADINGS[6]: (
        "A battle ends when a player withdraws (the other wins it) or when both players have "
        "played all their cards: the player controlling more of the three theatres wins it."
    ),
    HEADINGS[7]: (
        f"A battle fought to the end scores {BATTLE_WIN} points for its winner; a withdrawal "
        "scores as the Supreme Commander Cards say. The first player to reach 12 points wins "
        "the match; if the battle limit comes first, the player with more points wins and "
        "level points are a draw (0.5 each)."
    ),
}
"""The rules under each heading, shown on request."""

CARDS_BOOK = RuleBook(title="Air, Land and Sea", summary=SUMMARY, sections=tuple(SECTIONS.items()))
"""The rules as a model sees them under the `cards` rules (1.0.0)."""

CODE_SECTIONS: dict[str, str] = {
    **SECTIONS,
    HEADINGS[0]: SECTIONS[HEADINGS[0]].replace(
        "the rightmost theatre moves to the far left", "the leftmost theatre moves to the far right"
    ),
    HEADINGS[5]: SECTIONS[HEADINGS[5]]
    + " Disrupt: its owner chooses which uncovered card of its own is flipped, then which"
    " uncovered card of the other player's is flipped.",
    HEADINGS[7]: (
        f"A battle fought to the end scores {BATTLE_WIN} points for its winner; a withdrawal "
        "scores as the Supreme Commander Cards say. The first player to reach 12 points ends "
        "the match; each player's match score is its share of all the victory points scored "
        "(12 to 4 gives 0.75 and 0.25)."
    ),
}
"""The rules under each heading under the default rules (what this program plays)."""

BOOK = RuleBook(
    title="Air, Land and Sea", summary=CODE_SUMMARY, sections=tuple(CODE_SECTIONS.items())
)
"""The rules as a model sees them (the default rules)."""


def book_of(view: AlsView) -> RuleBook:
    """The rule book of the match a view follows."""
    return CARDS_BOOK if view.rules == "cards" else BOOK


QUESTIONS: dict[str, str] = {
    "turn": "It is your turn: deploy a card, improvise one face down, or withdraw.",
    "maneuver": "Your Maneuver acts: flip an uncovered card in a theatre next to it.",
    "ambush": "Your Ambush acts: flip any uncovered card.",
    "disrupt": "Disrupt acts: flip one of your own uncovered cards.",
    "disrupt_other": "Your Disrupt acts: choose which uncovered card of the other player's"
    " is flipped.",
    "transport": "Your Transport acts: you may move one of your cards to another theatre.",
    "redeploy": "Your Redeploy acts: you may take a face-down card back, then play a card.",
    "reinforce": "Your Reinforce acts: play the drawn card face down to an adjacent theatre.",
    "play": "Redeploy: play a card now (deploy or improvise).",
}
"""What each kind of decision asks."""


@dataclass(frozen=True)
class AlsPrompter(GameBenchPrompter):
    """Prompts and answer reading of Air, Land and Sea's model seats."""

    title: str = "Air, Land and Sea"
    playing: str = "a card game against another player"
    book: RuleBook = BOOK

    def situation(self, view: Any, decision: Any) -> str:
        """Points, the theatres, the hand, recent events and the question."""
        me, other = view.seat, 1 - view.seat
        role = "1st" if view.first == me else "2nd"
        hand = view.hand()
        lose = withdraw_points(view.first == me, len(hand))
        lines = [
            f"You are {_player(me, self.first)}, the {role} player of battle {view.battle + 1} (at most "
            f"{view.max_battles}). Victory points: you {view.vp[me]}, {_player(other, self.first)} "
            f"{view.vp[other]}; {view.target} win the match.",
            *(
                [
                    "In this match these cards have no ability: "
                    + ", ".join(card_name(c) for c in sorted(view.inert))
                    + "."
                ]
                if view.inert
                else []
            ),
            "Theatres, left to right (strength, then cards bottom first; the last is uncovered):",
            *view.board_lines(self.first),
            "Your hand: "
            + ("; ".join(f"{card_name(c)}: {_ability(c, view.inert)}" for c in hand) or "empty"),
            f"{_player(other, self.first)} holds {_cards(view.counts[other])}. If you withdrew now "
            f"{_player(other, self.first)} would score {lose}.",
            "Recent events:",
            *view.recent(first=self.first),
            QUESTIONS.get(_question(view, decision), "Choose an action."),
        ]
        return "\n".join(lines)

    def decision_prompt(self, view: Any, decision: Any, memory: str, rejection: Any) -> str:
        """The shared prompt, with the rules of the match the view follows."""
        shared = GameBenchPrompter.decision_prompt
        return shared(replace(self, book=book_of(view)), view, decision, memory, rejection)

    def options(self, decision: Any) -> Sequence[tuple[str, Any]]:
        """Every legal action with its label (the rules word them for the seat asked, naming
        the other seat as GameBench does; from edition 2 renumbered as the harness does)."""
        labels = decision.labels
        if self.first == 0:
            labels = [_GB_PLAYER.sub(lambda m: f"{_player(int(m[1]) - 1)}'s", t) for t in labels]
        return list(zip(labels, decision.legal, strict=True))

    def default_action(self, decision: Any, seat: int) -> Any:
        """A random legal action drawn from the game seed (GameBench's fallback)."""
        return fallback(decision.seed, NAME, decision.n, decision.legal)


def _question(view: Any, decision: Any) -> str:
    """The kind of question: a Disrupt's choice among the other player's cards has its own."""
    flips = [a for a in decision.legal if hasattr(a, "owner")]
    if decision.kind == "disrupt" and flips and flips[0].owner != view.seat:
        return "disrupt_other"
    return str(decision.kind)


def frames(viewer: int | str | None) -> tuple[Any, dict[str, list[Any]]]:
    """The viewer's frames (`extras["frames"]`): points, the theatres and the hands the
    viewer may see (a seat its own, both for the omniscient viewer)."""
    seat = viewer if isinstance(viewer, int) else -1
    view = AlsView(seat)
    seen: list[Any] = []

    def step(e: Any) -> dict[str, Any]:
        seen.append(e)
        view.sync(seen, [None] * len(seen))
        lines = [
            f"Battle {view.battle + 1}, 1st player {_player(view.first)}"
            + (" (over)" if view.ended else ""),
            f"Points: {view.vp[0]}-{view.vp[1]}",
            *view.board_lines(),
        ]
        for s in sorted(view.hands):
            held = ", ".join(card_name(c) for c in sorted(view.hands[s])) or "empty"
            lines.append(f"{_player(s)} hand: {held}")
        return {"kind": "text", "text": "\n".join(lines), "board": _board(view)}

    return step, {}


def _board(view: AlsView) -> dict[str, Any]:
    """The drawing's data: the theatres and hands the frame's lines tell, nothing more."""
    strength = view.strengths()
    held = control(strength, view.first)
    return {
        "game": "air_land_sea",
        "status": f"Battle {view.battle + 1}" + (" (over)" if view.ended else ""),
        "points": list(view.vp),
        "theatres": [
            {
                "name": t,
                "strength": list(strength[i]),
                "control": held[i],
                "cards": [[_shown(c, up) for c, up in view.lanes[t][s]] for s in (0, 1)],
            }
            for i, t in enumerate(view.order)
        ],
        "hands": [[s, [card_name(c) for c in sorted(view.hands[s])]] for s in sorted(view.hands)],
        "me": view.seat if view.seat >= 0 else None,
    }


__all__ = ["SQL", "AlsPrompter", "AlsSnapshot", "AlsView", "describe", "frames"]
