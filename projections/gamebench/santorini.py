"""What a Santorini seat sees, the timeline's lines and the model seats' prompts.

Santorini hides nothing but a seat's own rule explanations, so a view is the board (heights
and pawns), whose turn it is, and the headings the seat asked for. The board is drawn as
GameBench draws it: one row per line, each cell its level followed by the letter of the pawn
on it or '.' for none.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import msgspec

from engine.gamebench.common import fallback
from engine.gamebench.santorini import HEADINGS, Place, Play, SantoriniTurn
from events.gamebench.santorini import (
    NAME,
    PAWNS,
    SIZE,
    SantoriniEnded,
    SantoriniPlaced,
    SantoriniPlayed,
    SantoriniRejected,
    SantoriniRuleExplained,
    SantoriniStarted,
)
from projections.gamebench.common import GameBenchPrompter, RuleBook, ViewBase, key, player_name

SQL = Path(__file__).resolve().parents[2] / "events" / "gamebench" / "santorini.sql"
"""The `santorini_actions` view."""


class SantoriniSnapshot(msgspec.Struct, frozen=True, kw_only=True):
    """What a seat knows, as plain data."""

    seat: int
    heights: tuple[tuple[int, ...], ...]
    pawns: dict[str, tuple[int, int] | None]
    ply: int
    explained: tuple[str, ...]
    winner: int | None
    pending: str | None = None


class SantoriniView(ViewBase):
    """One seat's fold of the events it may see."""

    def __init__(self, seat: int) -> None:
        super().__init__(seat)
        self.heights = [0] * (SIZE * SIZE)
        self.pawns: dict[str, tuple[int, int] | None] = dict.fromkeys(PAWNS)
        self.ply = 0
        self.winner: int | None = None
        self.last_event: Any = None
        """The last move (the opponent's, when the seat is asked)."""

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
        if isinstance(e, SantoriniPlaced):
            self.pawns[e.pawn] = (e.row, e.col)
            self.ply = e.ply + 1
            self.last_event = e
        elif isinstance(e, SantoriniPlayed):
            self.pawns[e.pawn] = (e.row, e.col)
            if e.build_row is not None and e.build_col is not None:
                self.heights[e.build_row * SIZE + e.build_col] += 1
            self.ply = e.ply + 1
            self.last_event = e
        elif isinstance(e, SantoriniEnded):
            self.ended = True
            self.winner = e.winner

    def board(self) -> str:
        """The board as GameBench shows it to a model."""
        marks = {(r, c): p for p, rc in self.pawns.items() if rc is not None for r, c in (rc,)}
        rows = []
        for r in range(SIZE):
            cells = [f"{self.heights[r * SIZE + c]}{marks.get((r, c), '.')}" for c in range(SIZE)]
            rows.append(" ".join(cells))
        return "\n".join(rows)

    def snapshot(self, pending: Any = None) -> SantoriniSnapshot:
        """The view as plain data, with the decision asked of this seat (if any)."""
        asked = None
        if isinstance(pending, SantoriniTurn) and self.seat in pending.seats:
            asked = f"{pending.kind} pawn {pending.pawn}"
        return SantoriniSnapshot(
            seat=self.seat,
            heights=tuple(tuple(self.heights[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE)),
            pawns=dict(self.pawns),
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
        case SantoriniStarted():
            return (
                f"Santorini: {_player(0, first, viewer)} (pawns A, B) against"
                f" {_player(1, first, viewer)} (pawns X, Y)"
            )
        case SantoriniPlaced():
            return f"{_player(e.seat, first, viewer)} placed pawn {e.pawn} at ({e.row}, {e.col})"
        case SantoriniPlayed():
            moved = (
                f"{_player(e.seat, first, viewer)} moved pawn {e.pawn} from ({e.from_row}, {e.from_col}) "
                f"to ({e.row}, {e.col}) at level {e.level}"
            )
            if e.build_row is None:
                return moved
            return f"{moved} and built at ({e.build_row}, {e.build_col}) to level {e.height}"
        case SantoriniRejected():
            return f"{_player(e.seat, first, viewer)}'s answer was refused ({e.reason}); a random legal action was played"
        case SantoriniRuleExplained():
            if viewer is not None and viewer != e.seat:
                return None
            return f"{_player(e.seat, first, viewer)} read the rules under {e.heading!r}"
        case SantoriniEnded():
            why = "reached level 3" if e.reason == "level3" else "left the other without a move"
            return f"{_player(e.winner, first, viewer)} wins: {why}"
    return None


_DIRECTIONS = {
    (-1, 0): "north",
    (1, 0): "south",
    (0, 1): "east",
    (0, -1): "west",
    (-1, 1): "northeast",
    (-1, -1): "northwest",
    (1, 1): "southeast",
    (1, -1): "southwest",
}


def direction(frm: tuple[int, int], to: tuple[int, int]) -> str:
    """The compass direction from a cell to a neighbouring one (row 0 is north)."""
    return _DIRECTIONS[(to[0] - frm[0], to[1] - frm[1])]


def label(action: Place | Play, at: tuple[int, int] | None) -> str:
    """How a legal action is listed in a prompt."""
    if isinstance(action, Place):
        return f"Place ({action.row}, {action.col})"
    assert at is not None
    move = (action.row, action.col)
    build = (action.build_row, action.build_col)
    return f"Move {direction(at, move)} to {move}, build {direction(move, build)} at {build}"


SUMMARY = (
    "Two players each control two pawns on a five by five board of squares; you win by moving "
    "one of your pawns up onto a level 3 square, or when your opponent cannot finish a turn. "
    "Player 0 owns pawns A and B, Player 1 owns X and Y. Pawns take turns in the order A, X, "
    "B, Y: each player plays its two pawns alternately. Squares start at level 0 and rise one "
    "level per block built on them, up to level 4. Squares are named (row, column), both "
    "counted 0 to 4 from the top left; row 0 is north, column 0 is west."
)
"""The summary every model seat reads (in the project's own words)."""

SECTIONS: dict[str, str] = {
    HEADINGS[0]: (
        "Before the first turn the pawns are put on empty squares one at a time, in the order "
        "A (Player 0), X (Player 1), B (Player 0), Y (Player 1)."
    ),
    HEADINGS[1]: (
        "A turn starts by moving the pawn whose turn it is to one of the eight squares around "
        "it. The square must be free of pawns and below level 4, and at most one level higher "
        "than the square the pawn leaves; moving down any number of levels is allowed."
    ),
    HEADINGS[2]: (
        "After moving, the pawn builds one block on a square next to where it now stands: a "
        "square with no pawn on it and below level 4 (the square it just left counts). A "
        "square built to level 4 is complete: no pawn may enter it and nothing more is built "
        "on it."
    ),
    HEADINGS[3]: (
        "Moving a pawn onto a level 3 square wins the game at once (no block is built then). "
        "If the pawn whose turn it is has no move that can be followed by a build, its owner "
        "loses. The winner scores 1 and the loser 0."
    ),
}
"""The rules under each heading, shown on request."""

BOOK = RuleBook(title="Santorini", summary=SUMMARY, sections=tuple(SECTIONS.items()))
"""The rules as a model sees them."""
BOOK_1 = replace(
    BOOK,
    summary=SUMMARY.replace(
        "Player 0 owns pawns A and B, Player 1 owns", "Player 1 owns pawns A and B, player 2 owns"
    ),
    sections=tuple(
        (
            h,
            text.replace(
                "A (Player 0), X (Player 1), B (Player 0), Y (Player 1)",
                "A (player 1), X (player 2), B (player 1), Y (player 2)",
            ),
        )
        for h, text in SECTIONS.items()
    ),
)
"""The rules as edition 1 of the prompts showed them (seats counted from 1)."""


@dataclass(frozen=True)
class SantoriniPrompter(GameBenchPrompter):
    """Prompts and answer reading of Santorini's model seats."""

    title: str = "Santorini"
    playing: str = "a board game against another player"
    book: RuleBook = BOOK

    def for_seat(self, options: Any) -> SantoriniPrompter:
        """The prompter of a seat with these options (edition 1 has its own rule book)."""
        p = super().for_seat(options)
        return replace(p, book=BOOK_1 if p.edition < 2 else BOOK)

    def situation(self, view: Any, decision: Any) -> str:
        """The board, the pawns, the last move and the pawn to play."""
        mine = ("A", "B") if view.seat == 0 else ("X", "Y")
        theirs = ("X", "Y") if view.seat == 0 else ("A", "B")
        lines = [
            f"You are {_player(view.seat, self.first)}: your pawns are {mine[0]} and {mine[1]}, your "
            f"opponent's are {theirs[0]} and {theirs[1]}.",
            "The board (each square: its level 0-4, then the letter of the pawn on it or '.'):",
            view.board(),
        ]
        last = view.last_line(self.first)
        if last is not None:
            lines.append(f"Last move: {last}.")
        if decision.kind == "place":
            lines.append(f"Place your pawn {decision.pawn} on an empty square.")
        else:
            lines.append(
                f"This turn you play pawn {decision.pawn}, standing at {decision.at}: move it, "
                "then build next to where it lands."
            )
        return "\n".join(lines)

    def options(self, decision: Any) -> Sequence[tuple[str, Any]]:
        """Every legal action with its label."""
        return [(label(a, decision.at), a) for a in decision.legal]

    def default_action(self, decision: Any, seat: int) -> Any:
        """A random legal action drawn from the game seed (GameBench's fallback)."""
        return fallback(decision.seed, NAME, decision.ply, decision.legal)

    def parse(self, text: str, decision: Any, seat: int) -> tuple[Any, str, str | None]:
        """The listed label, or a shorter form: "Move north, build south" (GameBench's
        action names), or the cells alone ("(1, 2) (2, 2)", or "(1, 2)" for a placement)."""
        action, stage, error = super().parse(text, decision, seat)
        if action is not None or (stage == "failed" and error == "empty answer"):
            return action, stage, error
        wanted = key(_candidate(text))
        for a in decision.legal:
            if wanted in _short_keys(a, decision.at):
                return a, "short", None
        return None, stage, error


def _candidate(text: str) -> str:
    found = [
        ln.split(":", 1)[1] for ln in text.splitlines() if ln.strip().lower().startswith("action:")
    ]
    if found:
        return found[-1]
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    return lines[-1] if lines else ""


def _short_keys(a: Place | Play, at: tuple[int, int] | None) -> set[str]:
    if isinstance(a, Place):
        return {f"{a.row}{a.col}", f"place{a.row}{a.col}"}
    assert at is not None
    move, build = (a.row, a.col), (a.build_row, a.build_col)
    cells = f"{a.row}{a.col}{a.build_row}{a.build_col}"
    return {
        f"move{direction(at, move)}build{direction(move, build)}",
        cells,
        f"move{a.row}{a.col}build{a.build_row}{a.build_col}",
    }


def frames(viewer: int | str | None) -> tuple[Any, dict[str, list[Any]]]:
    """The viewer's frames (`extras["frames"]`): the board as the models read it, whose turn
    it is and the last move, after each event (the game hides nothing but explanations)."""
    view = SantoriniView(viewer if isinstance(viewer, int) else -1)
    seen: list[Any] = []

    def step(e: Any) -> dict[str, Any]:
        seen.append(e)
        view.sync(seen, [None] * len(seen))
        lines = [view.board()]
        if view.winner is not None:
            lines.append(f"{_player(view.winner)} won.")
        else:
            pawn = PAWNS[view.ply % len(PAWNS)]
            what = "place" if view.ply < len(PAWNS) else "play"
            lines.append(f"{_player(view.ply % 2)} to {what} pawn {pawn}.")
        if view.last is not None:
            lines.append(f"Last: {view.last}.")
        # The drawing's data: the same heights and pawns the board line above is made of.
        board = {
            "game": "santorini",
            "heights": [view.heights[r * SIZE : (r + 1) * SIZE] for r in range(SIZE)],
            "pawns": {p: None if at is None else list(at) for p, at in view.pawns.items()},
            "status": lines[1],
            "last": view.last,
        }
        return {"kind": "text", "text": "\n".join(lines), "board": board}

    return step, {}
