"""What a Hive seat sees, the timeline's lines and the model seats' prompts.

Hive hides nothing but a seat's own rule explanations, so a view is the board (every piece
with its owner and cell), whose turn it is and the headings the seat asked for. GameBench
showed its models a picture of the board, or a text description of one; here the board is
text: one line per piece on it, in axial coordinates, then each player's hand.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import msgspec

from engine.gamebench.common import fallback
from engine.gamebench.hive import (
    HEADINGS,
    HiveTurn,
    Move,
    Pass,
    Pick,
    Place,
    draw_number,
    neighbours,
)
from events.gamebench.hive import (
    BUGS,
    MAX_PLIES,
    NAME,
    PIECES,
    HiveEnded,
    HiveMoved,
    HivePassed,
    HivePicked,
    HivePlaced,
    HiveRejected,
    HiveRuleExplained,
    HiveStarted,
    rules_of,
)
from projections.gamebench.common import (
    GameBenchPrompter,
    RuleBook,
    ViewBase,
    player_name,
    read_line,
)

SQL = Path(__file__).resolve().parents[2] / "events" / "gamebench" / "hive.sql"
"""The `hive_moves` view."""


class HiveSnapshot(msgspec.Struct, frozen=True, kw_only=True):
    """What a seat knows, as plain data."""

    seat: int
    board: tuple[tuple[int, int, int, str], ...]
    """(q, r, owner seat, piece) of every piece on the board, sorted by cell."""
    ply: int
    explained: tuple[str, ...]
    winner: int | None
    pending: str | None = None


class HiveView(ViewBase):
    """One seat's fold of the events it may see."""

    def __init__(self, seat: int) -> None:
        super().__init__(seat)
        self.board: dict[tuple[int, int], tuple[int, str]] = {}
        self.ply = 0
        self.winner: int | None = None
        self.last_event: Any = None
        """The last turn played (the opponent's, when the seat is asked)."""
        self.max_plies = 0
        self.steps = "two"
        self.both_lose = True
        self.picked: HivePicked | None = None
        """The first step of the turn in progress."""
        self.version = ""

    def last_line(self, first: int = 0) -> str | None:
        """The timeline line of the last move, seats counted from `first`."""
        if self.last_event is None:
            return None
        return describe(self.last_event, self.seat, first)

    @property
    def last(self) -> str | None:
        """The timeline line of the last move."""
        return self.last_line()

    def fold(self, e: Any) -> None:
        """Take one visible event into the view."""
        if isinstance(e, HiveStarted):
            self.max_plies = e.config.max_plies
            self.steps, self.both_lose = rules_of(e)
            self.version = e.engine_version
            return
        if isinstance(e, HivePicked):
            self.picked = e
            return
        self.picked = None if isinstance(e, HivePlaced | HiveMoved | HivePassed) else self.picked
        if isinstance(e, HivePlaced):
            self.board[(e.q, e.r)] = (e.seat, e.piece)
        elif isinstance(e, HiveMoved):
            self.board[(e.q, e.r)] = self.board.pop((e.from_q, e.from_r))
        elif isinstance(e, HiveEnded):
            self.ended = True
            self.winner = e.winner
            return
        else:
            return
        if isinstance(e, HivePlaced | HiveMoved | HivePassed):
            self.ply = e.ply + 1
            self.last_event = e

    def hand(self, seat: int) -> list[str]:
        """A seat's pieces not yet placed."""
        placed = {p for s, p in self.board.values() if s == seat}
        return [p for p in PIECES if p not in placed]

    def text(self, first: int = 0) -> str:
        """The board as the models read it (seats counted from `first`)."""
        lines = []
        for (q, r), (s, p) in sorted(self.board.items()):
            free = 6 - sum(n in self.board for n in neighbours((q, r)))
            lines.append(
                f"({q}, {r}): {_player(s, first)} {BUGS[p[0]]} {p} ({free} free neighbours)"
            )
        if not lines:
            lines.append("(the board is empty)")
        for s in (0, 1):
            lines.append(f"{_player(s, first)} hand: {', '.join(self.hand(s)) or 'empty'}")
        return "\n".join(lines)

    def snapshot(self, pending: Any = None) -> HiveSnapshot:
        """The view as plain data, with the decision asked of this seat (if any)."""
        asked = None
        if isinstance(pending, HiveTurn) and self.seat in pending.seats:
            asked = f"turn {pending.ply}"
        return HiveSnapshot(
            seat=self.seat,
            board=tuple((q, r, s, p) for (q, r), (s, p) in sorted(self.board.items())),
            ply=self.ply,
            explained=tuple(self.explained),
            winner=self.winner,
            pending=asked,
        )


def _player(seat: int, first: int = 0, viewer: int | None = None) -> str:
    return player_name(seat, first, viewer)


def describe(e: Any, viewer: int | None, first: int = 0) -> str | None:
    """One line of the timeline per event (rule explanations only for their seat)."""
    match e:
        case HiveStarted():
            return (
                f"Hive: {_player(0, first, viewer)} against {_player(1, first, viewer)}, no beetles"
            )
        case HivePlaced():
            return f"{_player(e.seat, first, viewer)} placed {BUGS[e.piece[0]]} {e.piece} at ({e.q}, {e.r})"
        case HiveMoved():
            return (
                f"{_player(e.seat, first, viewer)} moved {BUGS[e.piece[0]]} {e.piece} from "
                f"({e.from_q}, {e.from_r}) to ({e.q}, {e.r})"
            )
        case HivePassed():
            return f"{_player(e.seat, first, viewer)} passed (no legal placement or move)"
        case HivePicked():
            what = f"place a {BUGS[e.piece]}" if e.kind == "place" else f"move {e.piece}"
            return f"{_player(e.seat, first, viewer)} chose to {what}"
        case HiveRejected():
            return f"{_player(e.seat, first, viewer)}'s answer was refused ({e.reason}); a random legal action was played"
        case HiveRuleExplained():
            if viewer is not None and viewer != e.seat:
                return None
            return f"{_player(e.seat, first, viewer)} read the rules under {e.heading!r}"
        case HiveEnded():
            if e.winner is None:
                if e.reason == "both_surrounded":
                    return f"Both queens surrounded: scores {e.scores[0]:g} and {e.scores[1]:g}"
                return "Draw (turn cap)"
            return f"{_player(e.winner, first, viewer)} wins: the other queen is surrounded"
    return None


def label(action: Place | Move | Pass | Pick) -> str:
    """How a legal action is listed in a prompt."""
    if isinstance(action, Pick):
        return f"Place {BUGS[action.piece]}" if action.kind == "place" else f"Move {action.piece}"
    if isinstance(action, Place):
        return f"Place {BUGS[action.bug]} at ({action.q}, {action.r})"
    if isinstance(action, Move):
        return f"Move {action.piece} to ({action.q}, {action.r})"
    return "Pass"


SUMMARY = (
    "Two players build one shared hive of bug pieces on a grid of hexagons; you win when the "
    "opponent's queen bee has all six of its neighbouring cells filled, by pieces of either "
    "player, while your own queen still has room. Each player has a queen (Q), two spiders "
    "(S1, S2), three grasshoppers (G1-G3) and three ants (A1-A3); there are no beetles. A "
    "turn is one action: place a piece from your hand, or move one of yours already on the "
    "board. Cells are axial coordinates (q, r); the six neighbours of (q, r) are (q+1, r), "
    "(q+1, r-1), (q, r-1), (q-1, r), (q-1, r+1) and (q, r+1)."
)
"""The summary every model seat reads (in the project's own words)."""

SECTIONS: dict[str, str] = {
    HEADINGS[0]: (
        "The very first piece goes on (0, 0) and the second touches it. After that a new "
        "piece must touch at least one of your own pieces and none of your opponent's. Your "
        "queen must be on the board by your fourth turn: on that turn, if it is still in your "
        "hand, placing it is your only choice. Until your queen is placed you cannot move "
        "any piece."
    ),
    HEADINGS[1]: (
        "The pieces must always form one connected hive: a piece whose removal would split "
        "it cannot move. A piece that crawls must slide from cell to cell: it cannot squeeze "
        "between two pieces that both border the cell it leaves and the cell it enters, and "
        "it must keep touching the hive while it slides. Pieces never stack. If you can "
        "neither place nor move, you pass."
    ),
    HEADINGS[2]: (
        "Queen bee: crawls one cell. Spider: crawls exactly three cells, never returning to a "
        "cell on the way. Ant: crawls any number of cells around the hive. Grasshopper: jumps "
        "in a straight line over one or more adjacent pieces and lands on the first empty "
        "cell; jumping ignores the sliding rule."
    ),
    HEADINGS[3]: (
        "A player whose queen is surrounded on all six sides loses; the winner scores 1 and "
        "the loser 0. If both queens are surrounded by the same turn, or 250 turns (of both "
        "players together) pass with neither surrounded, the game is a draw: 0.5 each."
    ),
}
"""The rules under each heading, shown on request."""


LEGACY_BOOK = RuleBook(title="Hive", summary=SUMMARY, sections=tuple(SECTIONS.items()))
"""The rules as rules 1.0.0's games showed them."""


def book_of(view: HiveView) -> RuleBook:
    """The rule book of the game a view follows (its turn cap, its score when both queens
    are surrounded, and whether a turn takes two steps)."""
    if view.version == "1.0.0":
        return LEGACY_BOOK  # the text its games' stored prompts hold
    both = "0 each" if view.both_lose else "0.5 each"
    plies = view.max_plies or MAX_PLIES
    cap = (
        f"after {plies} turns (of both players together, {(plies + 1) // 2} of the first player's)"
    )
    sections = dict(SECTIONS)
    sections[HEADINGS[3]] = (
        "A player whose queen is surrounded on all six sides loses; the winner scores 1 and"
        f" the loser 0. If both queens are surrounded by the same turn, both score {both}."
        f" The game ends {cap} with neither surrounded as a draw: 0.5 each."
    )
    summary = SUMMARY
    if view.steps == "two":
        summary += (
            " A turn takes two steps: first choose a bug to place or a piece to move, then"
            " the cell."
        )
    return RuleBook(title="Hive", summary=summary, sections=tuple(sections.items()))


BOOK = book_of(HiveView(0))
"""The rules as a model sees them (GameBench's game)."""


@dataclass(frozen=True)
class HivePrompter(GameBenchPrompter):
    """Prompts and answer reading of Hive's model seats."""

    title: str = "Hive"
    playing: str = "a board game against another player"
    book: RuleBook = BOOK

    def situation(self, view: Any, decision: Any) -> str:
        """The board, both hands, the last turn and the turn number."""
        lines = [
            f"You are {_player(view.seat, self.first)}. Turn {decision.ply + 1} of the game "
            f"(your turn {decision.ply // 2 + 1}).",
            "Pieces on the board (cell: owner, bug, name):",
            view.text(self.first),
        ]
        last = view.last_line(self.first)
        if last is not None:
            lines.append(f"Last turn: {last}.")
        if decision.step == 1:
            lines.append("Choose a bug to place or a piece to move; you choose its cell next.")
        elif decision.step == 2 and view.picked is not None:
            lines.append(
                f"You chose: {label(Pick(kind=view.picked.kind, piece=view.picked.piece))}."
                " Now choose the cell."
            )
        return "\n".join(lines)

    def decision_prompt(self, view: Any, decision: Any, memory: str, rejection: Any) -> str:
        """The shared prompt, with the rules of the game the view follows."""
        shared = GameBenchPrompter.decision_prompt
        return shared(replace(self, book=book_of(view)), view, decision, memory, rejection)

    def options(self, decision: Any) -> Sequence[tuple[str, Any]]:
        """Every legal action with its label."""
        return [(label(a), a) for a in decision.legal]

    def default_action(self, decision: Any, seat: int) -> Any:
        """A random legal action drawn from the game seed (GameBench's fallback)."""
        return fallback(decision.seed, NAME, draw_number(decision), decision.legal)

    def parse(self, text: str, decision: Any, seat: int) -> tuple[Any, str, str | None]:
        """The listed label, or a shorter form: "A2 (1, -1)" for a move, "spider (1, -1)"
        or "S (1, -1)" for a placement. Labels are compared keeping minus signs, which the
        shared comparison drops ((1, -1) and (1, 1) are different cells)."""
        candidate, stage, error = read_line(text)
        if not isinstance(candidate, str):
            return candidate, stage, error
        wanted = hkey(candidate)
        for text_label, a in self.options(decision):
            if hkey(text_label) == wanted:
                return a, stage, None
        for a in decision.legal:
            if wanted in _short_keys(a):
                return a, "short", None
        return None, "failed", f"{candidate[:60]!r} is not one of the legal actions"


def hkey(text: str) -> str:
    """A label as compared: lower case, letters, digits and minus signs only."""
    return re.sub(r"[^0-9a-z-]", "", text.casefold())


def _short_keys(a: Place | Move | Pass | Pick) -> set[str]:
    if isinstance(a, Pick):
        if a.kind == "place":
            return {a.piece.lower(), BUGS[a.piece], f"place{a.piece.lower()}"}
        return {a.piece.lower(), f"move{a.piece.lower()}"}
    if isinstance(a, Place):
        cell = f"{a.q}{a.r}"
        return {
            f"{a.bug.lower()}{cell}",
            f"{BUGS[a.bug]}{cell}",
            f"place{a.bug.lower()}{cell}",
            f"place{BUGS[a.bug]}{cell}",
        }
    if isinstance(a, Move):
        return {f"{a.piece.lower()}{a.q}{a.r}", f"move{a.piece.lower()}{a.q}{a.r}"}
    return {"pass"}


def frames(viewer: int | str | None) -> tuple[Any, dict[str, list[Any]]]:
    """The viewer's frames (`extras["frames"]`): the board as the models read it, whose turn
    it is and the last turn, after each event (the game hides nothing but explanations)."""
    view = HiveView(viewer if isinstance(viewer, int) else -1)
    seen: list[Any] = []

    def step(e: Any) -> dict[str, Any]:
        seen.append(e)
        view.sync(seen, [None] * len(seen))
        lines = [view.text()]
        if view.ended:
            lines.append("Draw." if view.winner is None else f"{_player(view.winner)} won.")
        else:
            lines.append(f"{_player(view.ply % 2)} to play.")
        if view.last is not None:
            lines.append(f"Last: {view.last}.")
        # The drawing's data: the same pieces and hands the text above lists.
        board = {
            "game": "hive",
            "cells": [[q, r, s, p, BUGS[p[0]]] for (q, r), (s, p) in sorted(view.board.items())],
            "hands": [view.hand(0), view.hand(1)],
            "status": lines[-2] if view.last is not None else lines[-1],
            "last": view.last,
        }
        return {"kind": "text", "text": "\n".join(lines), "board": board}

    return step, {}
