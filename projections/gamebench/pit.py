"""What a Pit seat sees, the timeline's lines and the model seats' prompts.

A seat knows its own (first) hand (its deal and every card it gave or received), everyone's
points, and the public side of every offer and trade; never another hand, nor its own second
hand under open trading, nor what others gave each other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import msgspec

from engine.gamebench.common import fallback
from engine.gamebench.pit import HEADINGS, Accept, Give, Offer, OpenTurn, Pass, PitDecision
from events.gamebench.pit import (
    BEAR_PENALTY,
    COMMODITIES,
    KINDS,
    MAX_OFFER,
    NAME,
    PER_COMMODITY,
    PitCornered,
    PitDealt,
    PitEnded,
    PitHiddenDealt,
    PitOffered,
    PitOfferKind,
    PitPaid,
    PitPassed,
    PitProposalVoid,
    PitProposed,
    PitRejected,
    PitRuleExplained,
    PitShuffled,
    PitStarted,
    PitSwapped,
    PitTaken,
    PitTraded,
    rules_of,
)
from projections.gamebench.common import GameBenchPrompter, RuleBook, ViewBase, player_name

SQL = Path(__file__).resolve().parents[2] / "events" / "gamebench" / "pit.sql"
"""The `pit_trades` and `pit_corners` views."""

RECENT = 12
"""Timeline lines a prompt shows (the latest ones)."""


class PitSnapshot(msgspec.Struct, frozen=True, kw_only=True):
    """What a seat knows, as plain data."""

    seat: int
    hand: dict[str, int]
    points: tuple[int, ...]
    round: int
    turn: int
    offer: tuple[int, int] | None
    """(offerer, count) of the standing offer."""
    explained: tuple[str, ...]
    pending: str | None = None
    proposals: tuple[tuple[int, str, int], ...] = ()
    """Open trading: the standing offers, (seat, kind, count), oldest first."""


class PitView(ViewBase):
    """One seat's fold of the events it may see."""

    def __init__(self, seat: int) -> None:
        super().__init__(seat)
        self.players = 0
        self.target = 0
        self.max_turns = 0
        self.hand = [0] * len(KINDS)
        self.points: tuple[int, ...] = ()
        self.round = 0
        self.turn = 0
        self.offer: tuple[int, int] | None = None
        self.my_offer: str | None = None
        self.trading = "open"
        self.corner = PER_COMMODITY
        self.proposals: list[tuple[int, str, int]] = []

    def fold(self, e: Any) -> None:
        """Take one visible event into the view."""
        if isinstance(e, PitStarted):
            self.players = e.config.players
            self.target = e.config.target
            self.max_turns = e.config.max_turns
            self.points = (0,) * self.players
            self.trading, self.corner = rules_of(e)
            return
        if isinstance(e, PitDealt):
            self.hand = list(e.hand)
            self.offer = None
            self.my_offer = None
        elif isinstance(e, PitProposed):
            self.proposals = [p for p in self.proposals if p[0] != e.seat]
            self.proposals.append((e.seat, e.kind, e.count))
            self.turn = e.turn + 1
        elif isinstance(e, PitProposalVoid):
            self.turn = e.turn + 1
        elif isinstance(e, PitTaken | PitPaid):
            giver, taker = (
                (e.offerer, e.responder) if isinstance(e, PitTaken) else (e.responder, e.offerer)
            )
            k = KINDS.index(e.kind)
            self.hand[k] += (self.seat == taker) * e.count - (self.seat == giver) * e.count
            if isinstance(e, PitTaken):
                self.proposals = [p for p in self.proposals if p[0] != e.offerer]
                self.turn = e.turn + 1
        elif isinstance(e, PitOffered):
            self.offer = (e.seat, e.count)
        elif isinstance(e, PitOfferKind):
            self.my_offer = e.kind
        elif isinstance(e, PitPassed):
            if (e.seat + 1) % self.players == (self.offer or (e.seat, 0))[0]:
                self.offer, self.my_offer = None, None
                self.turn = e.turn + 1
        elif isinstance(e, PitTraded):
            self.offer = None
            self.turn = e.turn + 1
        elif isinstance(e, PitSwapped):
            mine, theirs = (e.offered, e.given) if self.seat == e.offerer else (e.given, e.offered)
            self.hand[KINDS.index(mine)] -= e.count
            self.hand[KINDS.index(theirs)] += e.count
            self.my_offer = None
        elif isinstance(e, PitCornered):
            self.points = e.points
            self.round = e.round + 1
        elif isinstance(e, PitEnded):
            self.ended = True

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

    def snapshot(self, pending: Any = None) -> PitSnapshot:
        """The view as plain data, with the decision asked of this seat (if any)."""
        asked = None
        if isinstance(pending, PitDecision | OpenTurn) and self.seat in pending.seats:
            asked = pending.kind
        return PitSnapshot(
            seat=self.seat,
            hand={k: n for k, n in zip(KINDS, self.hand, strict=True) if n},
            points=self.points,
            round=self.round,
            turn=self.turn,
            offer=self.offer,
            explained=tuple(self.explained),
            pending=asked,
            proposals=tuple(self.proposals),
        )


def _player(seat: int, first: int = 0, viewer: int | None = None) -> str:
    return player_name(seat, first, viewer)


def _cards(n: int) -> str:
    return f"{n} card{'s' if n != 1 else ''}"


def describe(e: Any, viewer: int | None, first: int = 0) -> str | None:
    """One line of the timeline per event, worded for `viewer` (None: everything)."""
    match e:
        case PitStarted():
            return f"Pit for {e.config.players} players, first to {e.config.target} points"
        case PitShuffled():
            return None if viewer is not None else f"Round {e.round + 1}: the deck is shuffled"
        case PitDealt():
            held = ", ".join(f"{n} {k}" for k, n in zip(KINDS, e.hand, strict=True) if n)
            return f"Round {e.round + 1}: {_player(e.seat, first, viewer)} is dealt {held}"
        case PitOffered():
            return f"{_player(e.seat, first, viewer)} offers {_cards(e.count)} face down"
        case PitOfferKind():
            return f"({_player(e.seat, first, viewer)}'s offer is {e.kind})"
        case PitPassed():
            return f"{_player(e.seat, first, viewer)} passes"
        case PitTraded():
            return (
                f"{_player(e.responder, first, viewer)} takes the offer: {_player(e.offerer, first, viewer)} and "
                f"{_player(e.responder, first, viewer)} swap {_cards(e.count)}"
            )
        case PitSwapped():
            return (
                f"{_player(e.offerer, first, viewer)} gave {e.count} {e.offered} and "
                f"{_player(e.responder, first, viewer)} gave {e.count} {e.given}"
            )
        case PitHiddenDealt():
            if viewer is not None:
                return None
            held = ", ".join(f"{n} {k}" for k, n in zip(KINDS, e.hand, strict=True) if n)
            return f"Round {e.round + 1}: {_player(e.seat, first, viewer)}'s second hand is dealt {held}"
        case PitProposed():
            return f"{_player(e.seat, first, viewer)} offers {e.count} {e.kind}"
        case PitProposalVoid():
            return (
                f"{_player(e.seat, first, viewer)} offers {e.count} {e.kind} without holding them:"
                " nothing happens"
            )
        case PitTaken():
            return (
                f"{_player(e.responder, first, viewer)} takes"
                f" {_player(e.offerer, first, viewer)}'s offer of {e.count} {e.kind}"
            )
        case PitPaid():
            return (
                f"{_player(e.responder, first, viewer)} gives"
                f" {_player(e.offerer, first, viewer)} {e.count} {e.kind} for it"
            )
        case PitRejected():
            return f"{_player(e.seat, first, viewer)}'s answer was refused ({e.reason}); a random legal one was played"
        case PitRuleExplained():
            if viewer is not None and viewer != e.seat:
                return None
            return f"{_player(e.seat, first, viewer)} read the rules under {e.heading!r}"
        case PitCornered():
            extra = (" with the Bull" if e.bull else "") + (" holding the Bear" if e.bear else "")
            extra += " in its second hand" if e.hand else ""
            return (
                f"{_player(e.seat, first, viewer)} corners {e.commodity}{extra}: {e.gained:+d} points "
                f"(points: {', '.join(map(str, e.points))})"
            )
        case PitEnded():
            why = "a player reached the target" if e.reason == "target" else "the turn limit"
            return f"Game over ({why}): points {', '.join(map(str, e.points))}"
    return None


def label(action: Offer | Give | Pass | Accept, count: int) -> str:
    """How a legal action is listed in a prompt."""
    if isinstance(action, Offer):
        return f"Offer {action.count} {action.kind}"
    if isinstance(action, Give):
        return f"Give {count} {action.kind}"
    if isinstance(action, Accept):
        return f"Accept {_player(action.offerer)}'s offer, giving {action.count} {action.kind}"
    return "Pass"


SUMMARY = (
    "Pit is a commodity trading game. Every card is a commodity (Wheat, Barley, Corn, "
    "Soybeans), or the Bull or the Bear. Players trade cards to gather all the cards of one "
    "commodity, which corners the market and scores points: Wheat 100, Barley 85, Corn 75, "
    "Soybeans 55. After a corner the cards are dealt again. The Bull and the Bear change what "
    "a corner is worth. The first player to reach the target score wins; the match score is "
    "your share of all points scored."
)
"""The summary every model seat reads (in the project's own words)."""

SECTIONS: dict[str, str] = {
    HEADINGS[0]: (
        "Players take turns. On your turn you offer 1 to "
        f"{MAX_OFFER} cards of one kind from your hand, face down: the others only learn how "
        "many. Each other player in turn may take the offer by giving you the same number of "
        "cards of one kind of their own, or pass. The first who takes it swaps cards with "
        "you; only the two of you learn what you received. If everyone passes, nothing moves."
    ),
    HEADINGS[1]: (
        f"Holding all {PER_COMMODITY} cards of one commodity is a corner (with the Bull, "
        f"{PER_COMMODITY - 1} are enough). It is scored as soon as the trade or deal that "
        "made it is done, and a new round is dealt from the whole deck."
    ),
    HEADINGS[2]: (
        "The Bull is a wild card: with it, a corner needs one card fewer, and a corner of all "
        f"{PER_COMMODITY} cards plus the Bull scores double. A corner made while also holding "
        f"the Bear loses {BEAR_PENALTY} points. Both can be offered and traded like any card."
    ),
    HEADINGS[3]: (
        "The game ends as soon as a player's points reach the target, or after the turn "
        "limit. Each player's match score is its share of all points scored (equal shares "
        "when nobody scored)."
    ),
}
"""The rules under each heading, shown on request."""

BLIND_BOOK = RuleBook(title="Pit", summary=SUMMARY, sections=tuple(SECTIONS.items()))
"""The rules as a model sees them under blind trading."""

OPEN_SECTIONS: dict[str, str] = {
    HEADINGS[0]: (
        "Players take turns, one action a turn. You may offer 1 to "
        f"{MAX_OFFER} cards of any one kind: everyone sees what you offer, and the offer stands"
        " (replacing your earlier one) until someone takes it; an offer of cards you do not"
        " hold does nothing. Or you may take another player's standing offer by giving any"
        " number of cards of one kind from your hand: you receive the offered cards and they"
        " receive yours."
    ),
    HEADINGS[1]: (
        "Holding exactly {corner} cards of one commodity is a corner ({fewer} are enough with"
        " the Bull). It is scored as soon as the trade or turn that made it is done, and a new"
        " round is dealt from the whole deck."
    ),
    HEADINGS[2]: (
        "The Bull is a wild card: with it, a corner needs one card fewer, and a full corner"
        f" plus the Bull scores double. A corner made while also holding the Bear loses"
        f" {BEAR_PENALTY} points. Both can be offered and traded like any card."
    ),
    HEADINGS[3]: SECTIONS[HEADINGS[3]],
}
"""The rules under each heading under open trading (`{corner}` filled in per game)."""


def book_of(view: PitView) -> RuleBook:
    """The rule book of the game a view follows."""
    if view.trading == "blind" and view.corner == PER_COMMODITY:
        return BLIND_BOOK
    sections = OPEN_SECTIONS if view.trading == "open" else SECTIONS
    text = {
        h: t.replace("{corner}", str(view.corner)).replace("{fewer}", str(view.corner - 1))
        for h, t in sections.items()
    }
    if view.trading == "blind":
        text[HEADINGS[1]] = (
            f"Holding {view.corner} cards of one commodity is a corner (with the Bull,"
            f" {view.corner - 1} are enough). It is scored as soon as the trade or deal that"
            " made it is done, and a new round is dealt from the whole deck."
        )
    return RuleBook(title="Pit", summary=SUMMARY, sections=tuple(text.items()))


BOOK = book_of(PitView(0))
"""The rules as a model sees them (open trading, corners of 6)."""


@dataclass(frozen=True)
class PitPrompter(GameBenchPrompter):
    """Prompts and answer reading of Pit's model seats."""

    title: str = "Pit"
    playing: str = "a card game against other players"
    book: RuleBook = BOOK

    def situation(self, view: Any, decision: Any) -> str:
        """The seat's hand, the points, recent events and the question."""
        held = ", ".join(f"{n} {k}" for k, n in zip(KINDS, view.hand, strict=True) if n)
        points = ", ".join(f"{_player(s, self.first)} {p}" for s, p in enumerate(view.points))
        lines = [
            f"You are {_player(view.seat, self.first)} of {view.players}. Round {view.round + 1}, turn "
            f"{decision.turn + 1} of at most {view.max_turns}; the target is {view.target} "
            "points.",
            f"Points: {points}.",
            f"Your hand: {held}.",
            "Recent events:",
            *view.recent(first=self.first),
        ]
        if isinstance(decision, OpenTurn):
            lines += [
                f"{_player(s, self.first, view.seat)} offers {c} {k}."
                for s, k, c in decision.proposals
            ] or ["Nobody else has an offer standing."]
            lines.append("It is your turn: make an offer, or take a standing one.")
        elif decision.kind == "offer":
            lines.append("It is your turn: offer some cards of one kind.")
        elif self.edition < 2:
            lines.append(
                f"{_player(decision.offerer, self.first)} offers {_cards(decision.count)} face"
                f" down. Take it by giving {_cards(decision.count)} of one kind, or pass."
            )
        else:
            # The offer itself is the last of the recent events: named here, not told again.
            lines.append(
                f"Your answer to {_player(decision.offerer, self.first)}'s offer: take it by giving"
                f" {_cards(decision.count)} of one kind, or pass."
            )
        return "\n".join(lines)

    def decision_prompt(self, view: Any, decision: Any, memory: str, rejection: Any) -> str:
        """The shared prompt, with the rules of the game the view follows."""
        shared = GameBenchPrompter.decision_prompt
        return shared(replace(self, book=book_of(view)), view, decision, memory, rejection)

    def options(self, decision: Any) -> Sequence[tuple[str, Any]]:
        """Every legal action with its label."""
        count = getattr(decision, "count", 0)
        return [(label(a, count), a) for a in decision.legal]

    def default_action(self, decision: Any, seat: int) -> Any:
        """A random legal action drawn from the game seed (GameBench's fallback)."""
        return fallback(decision.seed, NAME, decision.turn, decision.legal)


COMMODITY_VALUES = dict(COMMODITIES)
"""Points of a corner of each commodity."""

__all__ = ["COMMODITY_VALUES", "SQL", "Give", "Offer", "Pass", "PitPrompter", "PitView", "describe"]


def frames(viewer: int | str | None) -> tuple[Any, dict[str, list[Any]]]:
    """The viewer's frames (`extras["frames"]`): round, turn, points, the standing offer and
    the hands the viewer may see (a seat its own, everyone's for the omniscient viewer)."""
    seat = viewer if isinstance(viewer, int) else -1
    view = PitView(seat)
    hands: dict[int, list[int]] = {}
    seen: list[Any] = []

    def step(e: Any) -> dict[str, Any]:
        seen.append(e)
        view.sync(seen, [None] * len(seen))
        if isinstance(e, PitDealt):
            hands[e.seat] = list(e.hand)
        elif isinstance(e, PitSwapped):
            for who, out, into in (
                (e.offerer, e.offered, e.given),
                (e.responder, e.given, e.offered),
            ):
                if who in hands:
                    hands[who][KINDS.index(out)] -= e.count
                    hands[who][KINDS.index(into)] += e.count
        elif isinstance(e, PitTaken | PitPaid):
            giver, taker = (
                (e.offerer, e.responder) if isinstance(e, PitTaken) else (e.responder, e.offerer)
            )
            k = KINDS.index(e.kind)
            if giver in hands:
                hands[giver][k] -= e.count
            if taker in hands:
                hands[taker][k] += e.count
        lines = [
            f"Round {view.round + 1}, turn {view.turn + 1}" + (" (over)" if view.ended else ""),
            "Points: " + ", ".join(f"{_player(s)} {p}" for s, p in enumerate(view.points)),
        ]
        if view.offer is not None:
            lines.append(f"Standing offer: {_player(view.offer[0])}, {_cards(view.offer[1])}")
        lines += [f"Standing offer: {_player(p)}, {c} {k}" for p, k, c in view.proposals]
        for s in sorted(hands):
            held = ", ".join(f"{n} {k}" for k, n in zip(KINDS, hands[s], strict=True) if n)
            lines.append(f"{_player(s)}: {held}")
        # The drawing's data: the hands and offer the lines above tell, nothing more.
        board = {
            "game": "pit",
            "status": lines[0],
            "points": list(view.points),
            "offer": list(view.offer) if view.offer is not None else None,
            "hands": [
                [s, {k: n for k, n in zip(KINDS, hands[s], strict=True) if n}]
                for s in sorted(hands)
            ],
            "me": seat if seat >= 0 else None,
        }
        return {"kind": "text", "text": "\n".join(lines), "board": board}

    return step, {}
