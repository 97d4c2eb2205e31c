"""Santorini as GameBench plays it, as a decider.

The board is 25 cells (index row * 5 + col) with a height 0..4 each. Pawns act in the cycle
A, X, B, Y (pawn k = ply % 4, owned by seat k % 2): plies 0..3 place them, every later ply is
a turn of the pawn whose turn it is, a move to a neighbouring cell (not occupied, not a
complete tower, at most one level up) then a build on a cell next to the moved pawn (not
occupied, not complete). A move onto level 3 wins at once (nothing is built). A player whose
pawn for the turn has no move followed by a build loses. An answer that is not a legal action
is recorded and replaced by a random legal one drawn from the seed (GameBench's fallback).

Every turn adds a block except the last one, so a game has at most 4 + 100 + 1 actions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from engine.gamebench.common import Explain, fallback, screened
from events.config import SeatSpec
from events.gamebench.common import ranks, winner_scores
from events.gamebench.santorini import (
    NAME,
    PAWNS,
    SIZE,
    TOP,
    VERSION,
    WIN_LEVEL,
    SantoriniConfig,
    SantoriniEnded,
    SantoriniPlaced,
    SantoriniPlayed,
    SantoriniRejected,
    SantoriniRuleExplained,
    SantoriniStarted,
)

HEADINGS: tuple[str, ...] = ("Placing pawns", "Moving", "Building", "Winning and losing")
"""The headings of the rules a model seat may ask to have explained."""


class Place(msgspec.Struct, frozen=True, kw_only=True, tag="place"):
    """Put the pawn whose turn it is on an empty cell."""

    row: int
    col: int


class Play(msgspec.Struct, frozen=True, kw_only=True, tag="play"):
    """Move the pawn whose turn it is to (row, col), then build on (build_row, build_col)."""

    row: int
    col: int
    build_row: int
    build_col: int


SantoriniAction = Place | Play | Explain
"""Every action of a Santorini seat."""

ACTION_DECODER = msgspec.json.Decoder(SantoriniAction)


def _neighbours(cell: int) -> tuple[int, ...]:
    r, c = divmod(cell, SIZE)
    return tuple(
        (r + dr) * SIZE + c + dc
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and 0 <= r + dr < SIZE and 0 <= c + dc < SIZE
    )


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(i) for i in range(SIZE * SIZE))
"""The cells next to each cell (row-major order)."""


class SantoriniTurn(msgspec.Struct, frozen=True, kw_only=True):
    """The pawn whose turn it is waits for its owner: a placement or a turn."""

    seats: tuple[int, ...]
    ply: int
    pawn: str
    legal: tuple[Place, ...] | tuple[Play, ...]
    """Every legal action, in a fixed order (row-major cells; moves, then builds)."""
    at: tuple[int, int] | None = None
    """Where the pawn stands (None while it is being placed)."""
    seed: int = 0
    """The game seed (the fallback for an unusable answer draws from it)."""

    @property
    def kind(self) -> str:
        """`place` before the first turn, `play` after."""
        return "place" if self.ply < len(PAWNS) else "play"


class SantoriniState:
    """Where the game stands (mutable: the rules change it in place)."""

    __slots__ = (
        "config",
        "explained",
        "heights",
        "over",
        "ply",
        "pos",
        "requests",
        "seed",
        "winner",
    )

    def __init__(self, config: SantoriniConfig, seed: int) -> None:
        self.config = config
        self.seed = seed
        self.heights = [0] * (SIZE * SIZE)
        self.pos: list[int | None] = [None] * len(PAWNS)
        self.ply = 0
        self.over = False
        self.winner: int | None = None
        self.explained: tuple[set[str], set[str]] = (set(), set())
        self.requests = [0, 0]
        """`Explain` requests each seat made (granted or refused)."""

    def occupied(self) -> set[int]:
        """Cells with a pawn on them."""
        return {p for p in self.pos if p is not None}


def pawn_of(ply: int) -> int:
    """The pawn (index into `PAWNS`) acting at `ply`."""
    return ply % len(PAWNS)


def legal_actions(st: SantoriniState) -> tuple[Place, ...] | tuple[Play, ...]:
    """The legal actions of the pawn whose turn it is."""
    occupied = st.occupied()
    if st.ply < len(PAWNS):
        return tuple(
            Place(row=i // SIZE, col=i % SIZE) for i in range(SIZE * SIZE) if i not in occupied
        )
    here = st.pos[pawn_of(st.ply)]
    assert here is not None
    h = st.heights
    others = occupied - {here}
    plays: list[Play] = []
    for m in NEIGHBOURS[here]:
        if m in others or h[m] >= TOP or h[m] > h[here] + 1:
            continue
        for b in NEIGHBOURS[m]:
            if b not in others and h[b] < TOP:
                plays.append(
                    Play(row=m // SIZE, col=m % SIZE, build_row=b // SIZE, build_col=b % SIZE)
                )
    return tuple(plays)


def _end(st: SantoriniState, winner: int, reason: Any, events: list[Any]) -> None:
    st.over = True
    st.winner = winner
    scores = winner_scores(2, winner)
    events.append(
        SantoriniEnded(
            reason=reason, winner=winner, plies=st.ply, scores=scores, ranks=ranks(scores)
        )
    )


def _check_stuck(st: SantoriniState, events: list[Any]) -> None:
    """At the start of a turn: a pawn with no move and build loses its owner the game."""
    if st.ply >= len(PAWNS) and not legal_actions(st):
        _end(st, 1 - pawn_of(st.ply) % 2, "no_move", events)


class SantoriniRules:
    """Santorini as a decider (see the module docstring)."""

    version = VERSION

    @staticmethod
    def max_decisions(config: SantoriniConfig) -> int:
        """Placements, at most 100 building turns and one winning move, and each heading
        explained once per seat."""
        return len(PAWNS) + SIZE * SIZE * TOP + 1 + 2 * len(HEADINGS)

    def start(
        self, config: SantoriniConfig, seed: int, seats: Sequence[SeatSpec]
    ) -> tuple[SantoriniState, list[Any]]:
        """An empty board; nothing is drawn."""
        st = SantoriniState(config.validate(), seed)
        return st, [
            SantoriniStarted(seed=seed, config=config, seats=tuple(seats), engine_version=VERSION)
        ]

    def pending(self, st: SantoriniState) -> SantoriniTurn | None:
        """The pawn whose turn it is, with its legal actions; None once the game is over."""
        if st.over:
            return None
        k = pawn_of(st.ply)
        here = st.pos[k]
        at = None if here is None else divmod(here, SIZE)
        return SantoriniTurn(
            seats=(k % 2,), ply=st.ply, pawn=PAWNS[k], legal=legal_actions(st), at=at, seed=st.seed
        )

    def step(
        self, st: SantoriniState, d: SantoriniTurn, actions: Sequence[Any]
    ) -> tuple[SantoriniState, list[Any]]:
        """Explain a heading, or play the action (an unusable one replaced by the fallback)."""
        seat = d.seats[0]
        played, events = screened(
            actions[0],
            d.legal,
            headings=HEADINGS,
            explained=st.explained[seat],
            requests=st.requests[seat],
            granted=lambda h: SantoriniRuleExplained(seat=seat, heading=h),
            refused=lambda raw, why, asked: SantoriniRejected(
                ply=st.ply, seat=seat, raw=raw, reason=why, explain=asked
            ),
            fold=lambda e: self.evolve(st, e),
            draw=lambda: fallback(st.seed, NAME, st.ply, d.legal),
        )
        if played is None:
            return st, events
        action = played
        event = self._event(st, seat, action)
        self.evolve(st, event)
        events.append(event)
        if isinstance(event, SantoriniPlayed) and event.level == WIN_LEVEL:
            _end(st, seat, "level3", events)
        else:
            _check_stuck(st, events)
        return st, events

    @staticmethod
    def _event(st: SantoriniState, seat: int, action: Place | Play) -> Any:
        k = pawn_of(st.ply)
        if isinstance(action, Place):
            return SantoriniPlaced(
                ply=st.ply, seat=seat, pawn=PAWNS[k], row=action.row, col=action.col
            )
        here = st.pos[k]
        assert here is not None
        to = action.row * SIZE + action.col
        level = st.heights[to]
        if level == WIN_LEVEL:
            return SantoriniPlayed(
                ply=st.ply,
                seat=seat,
                pawn=PAWNS[k],
                from_row=here // SIZE,
                from_col=here % SIZE,
                row=action.row,
                col=action.col,
                level=level,
                build_row=None,
                build_col=None,
                height=None,
            )
        built = action.build_row * SIZE + action.build_col
        return SantoriniPlayed(
            ply=st.ply,
            seat=seat,
            pawn=PAWNS[k],
            from_row=here // SIZE,
            from_col=here % SIZE,
            row=action.row,
            col=action.col,
            level=level,
            build_row=action.build_row,
            build_col=action.build_col,
            height=st.heights[built] + 1,
        )

    def evolve(self, st: SantoriniState, event: Any) -> SantoriniState:
        """Fold one event into the state (in place; other events leave it unchanged)."""
        if isinstance(event, SantoriniPlaced):
            st.pos[PAWNS.index(event.pawn)] = event.row * SIZE + event.col
            st.ply += 1
        elif isinstance(event, SantoriniPlayed):
            st.pos[PAWNS.index(event.pawn)] = event.row * SIZE + event.col
            if event.build_row is not None and event.build_col is not None:
                st.heights[event.build_row * SIZE + event.build_col] += 1
            st.ply += 1
        elif isinstance(event, SantoriniRuleExplained):
            st.explained[event.seat].add(event.heading)
            st.requests[event.seat] += 1
        elif isinstance(event, SantoriniRejected):
            st.requests[event.seat] += event.explain
        elif isinstance(event, SantoriniEnded):
            st.over = True
            st.winner = event.winner
        return st

    def fold(self, events: Sequence[Any]) -> SantoriniState:
        """The state after a log (or a prefix of one)."""
        start = events[0]
        st = SantoriniState(start.config, start.seed)
        for e in events[1:]:
            self.evolve(st, e)
        return st

    def turn_of(self, event: Any, turn: int) -> int:
        """The store's turn is the ply (placements 0..3, then one per turn)."""
        if isinstance(event, SantoriniPlaced | SantoriniPlayed | SantoriniRejected):
            return int(event.ply)
        return turn

    def active(self, st: Any) -> int | None:
        """Model seats keep no scratchpad here."""
        return None

    def recorded_action(
        self, log: Sequence[Any], pos: int, seat: int, decision: SantoriniTurn
    ) -> Any:
        """The action the seat answered with at this decision, as the rules received it."""
        for e in log[pos:]:
            if isinstance(e, SantoriniRuleExplained) and e.seat == seat:
                return Explain(heading=e.heading)
            if isinstance(e, SantoriniRejected) and e.ply == decision.ply:
                try:
                    return ACTION_DECODER.decode(e.raw)
                except msgspec.DecodeError:
                    return e.raw
            if isinstance(e, SantoriniPlaced) and e.ply == decision.ply:
                return Place(row=e.row, col=e.col)
            if isinstance(e, SantoriniPlayed) and e.ply == decision.ply:
                if e.build_row is None or e.build_col is None:
                    return _winning_play(decision, e.row, e.col)
                return Play(row=e.row, col=e.col, build_row=e.build_row, build_col=e.build_col)
        raise LookupError(f"no action of seat {seat} at ply {decision.ply}")


def _winning_play(decision: SantoriniTurn, row: int, col: int) -> Play:
    """The first legal play onto the winning cell (its build is never made, so any does)."""
    for a in decision.legal:
        if isinstance(a, Play) and (a.row, a.col) == (row, col):
            return a
    raise LookupError(f"no legal move to ({row}, {col}) at ply {decision.ply}")


RULES = SantoriniRules()
"""The rules of Santorini."""


def state_data(st: SantoriniState) -> dict[str, Any]:
    """The whole state as plain data (for `cattle replay`)."""
    return {
        "ply": st.ply,
        "heights": [st.heights[r * SIZE : (r + 1) * SIZE] for r in range(SIZE)],
        "pawns": {
            p: None if c is None else list(divmod(c, SIZE))
            for p, c in zip(PAWNS, st.pos, strict=True)
        },
        "explained": [sorted(s) for s in st.explained],
        "over": st.over,
        "winner": st.winner,
    }
