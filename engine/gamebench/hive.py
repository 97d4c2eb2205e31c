"""Hive as GameBench plays it (no beetles), as a decider.

Cells are axial hex coordinates (q, r); the six neighbours of (q, r) are (q+1, r),
(q+1, r-1), (q, r-1), (q-1, r), (q-1, r+1) and (q, r+1). Seat 0 acts on even plies and
seat 1 on odd ones; a ply is one turn: place a piece from the hand, move a piece, or pass
when neither is possible.

* Placing: the first piece goes on (0, 0), the second next to it; later a piece goes on an
  empty cell next to a piece of its owner and next to none of the opponent's. A player's
  queen must be placed by the player's fourth turn (on that turn nothing else is legal).
* Moving: only once the player's queen is on the board, and only a piece whose removal
  leaves the hive connected (one hive). The queen slides one cell, a spider exactly three
  cells without going back over a cell, an ant any number of cells; a slide from one cell to
  the next needs exactly one of the two cells beside both occupied (both occupied is a gate
  the piece cannot pass; neither leaves the piece out of touch with the hive). A
  grasshopper jumps in a straight line over one or more pieces to the first empty cell.
* End: a queen with all six neighbours occupied loses its owner the game (both at once: 0
  to each, as GameBench's code scores it); after `max_plies` turns without that the game is a
  draw (GameBench's cap: 250 turns of each player, 499 in all).
* Two steps (the default, GameBench's): a turn first asks for a bug to place or a piece to
  move (those with a legal cell), then for the cell; `Pass` alone when there is none.

An answer that is not a legal action is recorded and replaced by a random legal one drawn
from the seed (GameBench's fallback). A game has at most `max_plies` turns.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

from engine.gamebench.common import Explain, fallback, screened
from events.config import SeatSpec
from events.gamebench.common import ranks, winner_scores
from events.gamebench.hive import (
    BUGS,
    NAME,
    PIECES,
    QUEEN_BY,
    VERSION,
    VERSIONS,
    HiveConfig,
    HiveEnded,
    HiveMoved,
    HivePassed,
    HivePicked,
    HivePlaced,
    HiveRejected,
    HiveRuleExplained,
    HiveStarted,
    movement_of,
    rules_of,
    settings,
)

HEADINGS: tuple[str, ...] = ("Placing pieces", "Moving pieces", "Bugs", "End of the game")
"""The headings of the rules a model seat may ask to have explained."""

Cell = tuple[int, int]
DIRS: tuple[Cell, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
"""The six axial directions, in turning order (neighbours of a direction are +-1 mod 6)."""


class Place(msgspec.Struct, frozen=True, kw_only=True, tag="place"):
    """Put a bug from the hand (Q, S, G or A) on the cell (q, r)."""

    bug: str
    q: int
    r: int


class Move(msgspec.Struct, frozen=True, kw_only=True, tag="move"):
    """Move the piece on the board named `piece` (Q, S1, G2, A3, ...) to (q, r)."""

    piece: str
    q: int
    r: int


class Pass(msgspec.Struct, frozen=True, kw_only=True, tag="pass"):
    """Pass the turn (legal only when nothing else is)."""


class Pick(msgspec.Struct, frozen=True, kw_only=True, tag="pick"):
    """The first step of a two-step turn: a bug letter to place (`kind="place"`) or a piece
    on the board to move (`kind="move"`)."""

    kind: str
    piece: str


HiveAction = Place | Move | Pass | Pick | Explain
"""Every action of a Hive seat."""

ACTION_DECODER = msgspec.json.Decoder(HiveAction)


def neighbours(c: Cell) -> list[Cell]:
    """The six cells around `c`, in `DIRS` order."""
    q, r = c
    return [(q + dq, r + dr) for dq, dr in DIRS]


def connected(cells: Iterable[Cell]) -> bool:
    """Whether the occupied cells form one group (true for none)."""
    left = set(cells)
    if not left:
        return True
    stack = [left.pop()]
    while stack:
        for n in neighbours(stack.pop()):
            if n in left:
                left.remove(n)
                stack.append(n)
    return not left


def pinned(occupied: set[Cell]) -> set[Cell]:
    """Cells whose piece cannot leave without splitting the hive (articulation points)."""
    out: set[Cell] = set()
    if len(occupied) < 3:
        return out
    index: dict[Cell, int] = {}
    low: dict[Cell, int] = {}
    root = min(occupied)
    index[root] = low[root] = 0
    counter = 1
    root_children = 0
    stack: list[tuple[Cell, Cell | None, Iterable[Cell]]] = [
        (root, None, iter(n for n in neighbours(root) if n in occupied))
    ]
    while stack:
        v, parent, it = stack[-1]
        advanced = False
        for w in it:
            if w not in index:
                index[w] = low[w] = counter
                counter += 1
                stack.append((w, v, iter(n for n in neighbours(w) if n in occupied)))
                advanced = True
                break
            if w != parent:
                low[v] = min(low[v], index[w])
        if advanced:
            continue
        stack.pop()
        if parent is not None:
            low[parent] = min(low[parent], low[v])
            if parent == root:
                root_children += 1
            elif low[v] >= index[parent]:
                out.add(parent)
    if root_children > 1:
        out.add(root)
    return out


_SLIDE: tuple[tuple[int, int, int, int, int, int], ...] = tuple(
    (dq, dr, *DIRS[(i + 1) % 6], *DIRS[(i - 1) % 6]) for i, (dq, dr) in enumerate(DIRS)
)
"""Per direction: the step, and the two cells beside both ends of it (as offsets)."""


def slides(occupied: set[Cell], c: Cell) -> list[Cell]:
    """Cells one slide away from `c` on a board of `occupied` cells (the moving piece not
    among them): empty, and exactly one of the two cells beside both is occupied."""
    q, r = c
    out = []
    for dq, dr, aq, ar, bq, br in _SLIDE:
        to = (q + dq, r + dr)
        if to not in occupied and (
            ((q + aq, r + ar) in occupied) != ((q + bq, r + br) in occupied)
        ):
            out.append(to)
    return out


def _open_sides(occupied: set[Cell], c: Cell) -> int:
    return sum(n not in occupied for n in neighbours(c))


def gb_step(rest: set[Cell], cur: Cell, nxt: Cell) -> bool:
    """GameBench's crawl of one cell (`can_move_piece` in its board.py) for a mover on `cur`
    among the pieces `rest` (one connected hive: the mover is not pinned): `nxt` empty,
    neither cell left with at most one empty neighbour, and the hive whole after the step,
    which, `rest` being whole, is `nxt` touching it."""
    occupied = rest | {cur}
    if nxt in occupied or _open_sides(occupied, nxt) <= 1 or _open_sides(occupied, cur) <= 1:
        return False
    return any(n in rest for n in neighbours(nxt))


def gb_destinations(occupied: set[Cell], piece: str, at: Cell) -> list[Cell]:
    """Where the piece on `at` may go by GameBench's movement code (`occupied` includes
    `at`; the piece is not pinned), sorted: the queen one crawl, the spider three crawls
    each along a piece beside both cells and never back over a cell, the ant any chain of
    crawls, the grasshopper as in standard Hive."""
    rest = occupied - {at}
    bug = piece[0]
    if bug == "G":
        return destinations(occupied, piece, at)
    if bug == "Q":
        return sorted(n for n in neighbours(at) if gb_step(rest, at, n))
    if bug == "S":
        paths: list[tuple[Cell, ...]] = [(at,)]
        for _ in range(3):
            paths = [
                (*p, n)
                for p in paths
                for n in neighbours(p[-1])
                if n not in p
                and gb_step(rest, p[-1], n)
                and any(c in rest for c in neighbours(n) if c in neighbours(p[-1]))
            ]
        return sorted({p[-1] for p in paths})
    seen = {at}
    todo = [at]
    while todo:
        cur = todo.pop()
        for n in neighbours(cur):
            if n not in seen and gb_step(rest, cur, n):
                seen.add(n)
                todo.append(n)
    return sorted(seen - {at})


def destinations(occupied: set[Cell], piece: str, at: Cell) -> list[Cell]:
    """Where the piece on `at` may go (`occupied` includes `at`), sorted."""
    rest = occupied - {at}
    bug = piece[0]
    if bug == "Q":
        return sorted(slides(rest, at))
    if bug == "G":
        out = []
        for dq, dr in DIRS:
            q, r = at[0] + dq, at[1] + dr
            if (q, r) not in rest:
                continue
            while (q, r) in rest:
                q, r = q + dq, r + dr
            out.append((q, r))
        return sorted(out)
    if bug == "S":
        ends: set[Cell] = set()
        paths: list[tuple[Cell, ...]] = [(at,)]
        for _ in range(3):
            paths = [(*p, n) for p in paths for n in slides(rest, p[-1]) if n not in p]
        ends.update(p[-1] for p in paths)
        return sorted(ends)
    seen = {at}
    frontier = [at]
    while frontier:
        nxt = []
        for c in frontier:
            for n in slides(rest, c):
                if n not in seen:
                    seen.add(n)
                    nxt.append(n)
        frontier = nxt
    seen.discard(at)
    return sorted(seen)


class HiveTurn(msgspec.Struct, frozen=True, kw_only=True):
    """The player whose turn it is: place, move or pass."""

    seats: tuple[int, ...]
    ply: int
    legal: tuple[Place | Move | Pass, ...] | tuple[Pick | Pass, ...]
    """Every legal action, in a fixed order (placements by bug Q, S, G, A and cell, then
    moves by piece and cell; `Pass` alone when nothing else is legal); in the first step of
    a two-step turn the bugs and pieces that have a legal cell, in the same order."""
    seed: int = 0
    """The game seed (the fallback for an unusable answer draws from it)."""
    step: int = 0
    """0: a one-step turn; 1: the first of two (a piece); 2: the second (its cell)."""

    @property
    def kind(self) -> str:
        """Every decision is a turn."""
        return "turn"


class HiveState:
    """Where the game stands (mutable: the rules change it in place)."""

    __slots__ = (
        "board",
        "both_lose",
        "config",
        "explained",
        "movement",
        "over",
        "picked",
        "ply",
        "requests",
        "seed",
        "steps",
        "winner",
    )

    def __init__(self, config: HiveConfig, seed: int, version: str = VERSION) -> None:
        self.config = config
        self.seed = seed
        start = HiveStarted(seed=seed, config=config, seats=(), engine_version=version)
        self.steps, self.both_lose = rules_of(start)
        self.movement = movement_of(start)
        self.picked: Pick | None = None
        """The first step of the turn in progress, once taken."""
        self.board: dict[Cell, tuple[int, str]] = {}
        """Cell -> (owner seat, piece name)."""
        self.ply = 0
        self.over = False
        self.winner: int | None = None
        self.explained: tuple[set[str], set[str]] = (set(), set())
        self.requests = [0, 0]
        """`Explain` requests each seat made (granted or refused)."""

    def where(self, seat: int, piece: str) -> Cell | None:
        """The cell of a seat's piece, None while it is in the hand."""
        for c, sp in self.board.items():
            if sp == (seat, piece):
                return c
        return None

    def hand(self, seat: int) -> list[str]:
        """The seat's pieces not yet placed, in `PIECES` order."""
        placed = {p for s, p in self.board.values() if s == seat}
        return [p for p in PIECES if p not in placed]


def placement_cells(board: dict[Cell, tuple[int, str]], seat: int, ply: int) -> list[Cell]:
    """Empty cells where `seat` may place a piece, sorted."""
    if ply == 0 or not board:
        return [(0, 0)]
    if ply == 1:
        return sorted(n for c in board for n in neighbours(c) if n not in board)
    mine: set[Cell] = set()
    theirs: set[Cell] = set()
    for c, (s, _) in board.items():
        for n in neighbours(c):
            if n not in board:
                (mine if s == seat else theirs).add(n)
    return sorted(mine - theirs)


def legal_actions(st: HiveState) -> tuple[Place | Move | Pass, ...]:
    """The legal actions of the player whose turn it is."""
    seat = st.ply % 2
    hand = st.hand(seat)
    out: list[Place | Move | Pass] = []
    bugs = [b for b in BUGS if any(p[0] == b for p in hand)]
    if st.ply // 2 == QUEEN_BY - 1 and "Q" in hand:
        bugs = ["Q"]
    if bugs:
        cells = placement_cells(st.board, seat, st.ply)
        out.extend(Place(bug=b, q=q, r=r) for b in bugs for q, r in cells)
    if "Q" not in hand:
        occupied = set(st.board)
        stuck = pinned(occupied)
        mine = sorted(
            ((PIECES.index(p), p, c) for c, (s, p) in st.board.items() if s == seat),
        )
        for _, p, c in mine:
            if c in stuck:
                continue
            found = (gb_destinations if st.movement == "gamebench" else destinations)(
                occupied, p, c
            )
            out.extend(Move(piece=p, q=q, r=r) for q, r in found)
    return tuple(out) if out else (Pass(),)


def picks(legal: Sequence[Place | Move | Pass]) -> tuple[Pick | Pass, ...]:
    """The first step of a turn: each bug with a legal placement and each piece with a legal
    move, in the order of `legal` (`Pass` alone when it is the only action)."""
    out: list[Pick | Pass] = []
    for a in legal:
        if isinstance(a, Pass):
            return (Pass(),)
        pick = (
            Pick(kind="place", piece=a.bug)
            if isinstance(a, Place)
            else Pick(kind="move", piece=a.piece)
        )
        if pick not in out:
            out.append(pick)
    return tuple(out)


def picked(legal: Sequence[Place | Move | Pass], pick: Pick) -> tuple[Place | Move, ...]:
    """The actions of `legal` that the first step `pick` leaves."""
    return tuple(
        a
        for a in legal
        if (isinstance(a, Place) and pick.kind == "place" and a.bug == pick.piece)
        or (isinstance(a, Move) and pick.kind == "move" and a.piece == pick.piece)
    )


def surrounded(board: dict[Cell, tuple[int, str]], seat: int) -> bool:
    """Whether the seat's queen is on the board with all six neighbours occupied."""
    for c, sp in board.items():
        if sp == (seat, "Q"):
            return all(n in board for n in neighbours(c))
    return False


class HiveRules:
    """Hive as a decider (see the module docstring); `version` picks the rules games are
    recorded by (the current ones, or 1.0.0 to replay its games)."""

    versions = VERSIONS

    def __init__(self, version: str = VERSION) -> None:
        if version not in VERSIONS:
            raise ValueError(f"no Hive rules {version!r} (known: {', '.join(VERSIONS)})")
        self.version = version

    def for_version(self, version: str) -> HiveRules | None:
        """The rules that recorded games stamped with `version` (None: no such rules)."""
        if version == self.version:
            return self
        return HiveRules(version) if version in VERSIONS else None

    @staticmethod
    def max_decisions(config: HiveConfig) -> int:
        """The turn cap (twice over for two-step turns), and each heading explained once per
        seat."""
        steps = settings(config)[0]
        return config.max_plies * (1 if steps == "one" else 2) + 2 * len(HEADINGS)

    def start(
        self, config: HiveConfig, seed: int, seats: Sequence[SeatSpec]
    ) -> tuple[HiveState, list[Any]]:
        """An empty board; nothing is drawn."""
        st = HiveState(config.validate(), seed, self.version)
        return st, [
            HiveStarted(seed=seed, config=config, seats=tuple(seats), engine_version=self.version)
        ]

    def pending(self, st: HiveState) -> HiveTurn | None:
        """The player whose turn it is, with its legal actions; None once the game is over."""
        if st.over:
            return None
        legal = legal_actions(st)
        seat = (st.ply % 2,)
        if st.steps == "one":
            return HiveTurn(seats=seat, ply=st.ply, legal=legal, seed=st.seed)
        if st.picked is None:
            return HiveTurn(seats=seat, ply=st.ply, legal=picks(legal), seed=st.seed, step=1)
        return HiveTurn(
            seats=seat, ply=st.ply, legal=picked(legal, st.picked), seed=st.seed, step=2
        )

    def step(
        self, st: HiveState, d: HiveTurn, actions: Sequence[Any]
    ) -> tuple[HiveState, list[Any]]:
        """Explain a heading, or play the action (an unusable one replaced by the fallback)."""
        seat = d.seats[0]
        played, events = screened(
            actions[0],
            d.legal,
            headings=HEADINGS,
            explained=st.explained[seat],
            requests=st.requests[seat],
            granted=lambda h: HiveRuleExplained(seat=seat, heading=h),
            refused=lambda raw, why, asked: HiveRejected(
                ply=st.ply, seat=seat, raw=raw, reason=why, explain=asked
            ),
            fold=lambda e: self.evolve(st, e),
            draw=lambda: fallback(st.seed, NAME, draw_number(d), d.legal),
        )
        if played is None:
            return st, events
        action = played
        if isinstance(action, Pick):
            pick = HivePicked(ply=st.ply, seat=seat, kind=action.kind, piece=action.piece)  # type: ignore[arg-type]
            self.evolve(st, pick)
            events.append(pick)
            return st, events
        event = self._event(st, seat, action)
        self.evolve(st, event)
        events.append(event)
        self._check_end(st, events)
        return st, events

    @staticmethod
    def _event(st: HiveState, seat: int, action: Place | Move | Pass) -> Any:
        if isinstance(action, Pass):
            return HivePassed(ply=st.ply, seat=seat)
        if isinstance(action, Place):
            piece = next(p for p in st.hand(seat) if p[0] == action.bug)
            return HivePlaced(ply=st.ply, seat=seat, piece=piece, q=action.q, r=action.r)
        at = st.where(seat, action.piece)
        assert at is not None
        return HiveMoved(
            ply=st.ply,
            seat=seat,
            piece=action.piece,
            from_q=at[0],
            from_r=at[1],
            q=action.q,
            r=action.r,
        )

    @staticmethod
    def _check_end(st: HiveState, events: list[Any]) -> None:
        lost = [s for s in (0, 1) if surrounded(st.board, s)]
        winner: int | None = None
        if len(lost) == 1:
            winner = 1 - lost[0]
            scores = winner_scores(2, winner)
            reason = "surrounded"
        elif len(lost) == 2:
            scores = (0.0, 0.0) if st.both_lose else (0.5, 0.5)
            reason = "both_surrounded"
        elif st.ply >= st.config.max_plies:
            scores, reason = (0.5, 0.5), "turn_cap"
        else:
            return
        end = HiveEnded(
            reason=reason,  # type: ignore[arg-type]
            winner=winner,
            plies=st.ply,
            scores=scores,
            ranks=ranks(scores),
        )
        HiveRules().evolve(st, end)
        events.append(end)

    def evolve(self, st: HiveState, event: Any) -> HiveState:
        """Fold one event into the state (in place; other events leave it unchanged)."""
        if isinstance(event, HivePlaced):
            st.board[(event.q, event.r)] = (event.seat, event.piece)
            st.ply += 1
            st.picked = None
        elif isinstance(event, HiveMoved):
            st.board[(event.q, event.r)] = st.board.pop((event.from_q, event.from_r))
            st.ply += 1
            st.picked = None
        elif isinstance(event, HivePassed):
            st.ply += 1
            st.picked = None
        elif isinstance(event, HivePicked):
            st.picked = Pick(kind=event.kind, piece=event.piece)
        elif isinstance(event, HiveRuleExplained):
            st.explained[event.seat].add(event.heading)
            st.requests[event.seat] += 1
        elif isinstance(event, HiveRejected):
            st.requests[event.seat] += event.explain
        elif isinstance(event, HiveEnded):
            st.over = True
            st.winner = event.winner
        return st

    def fold(self, events: Sequence[Any]) -> HiveState:
        """The state after a log (or a prefix of one)."""
        start = events[0]
        st = HiveState(start.config, start.seed, start.engine_version)
        for e in events[1:]:
            self.evolve(st, e)
        return st

    def turn_of(self, event: Any, turn: int) -> int:
        """The store's turn is the ply."""
        if isinstance(event, HivePlaced | HiveMoved | HivePassed | HiveRejected | HivePicked):
            return int(event.ply)
        return turn

    def active(self, st: Any) -> int | None:
        """Model seats keep no scratchpad here."""
        return None

    def recorded_action(self, log: Sequence[Any], pos: int, seat: int, decision: HiveTurn) -> Any:
        """The action the seat answered with at this decision, as the rules received it."""
        for e in log[pos:]:
            if isinstance(e, HiveRuleExplained) and e.seat == seat:
                return Explain(heading=e.heading)
            if isinstance(e, HiveRejected) and e.ply == decision.ply:
                try:
                    return ACTION_DECODER.decode(e.raw)
                except msgspec.DecodeError:
                    return e.raw
            if isinstance(e, HivePicked) and e.ply == decision.ply:
                return Pick(kind=e.kind, piece=e.piece)
            if isinstance(e, HivePlaced) and e.ply == decision.ply:
                return Place(bug=e.piece[0], q=e.q, r=e.r)
            if isinstance(e, HiveMoved) and e.ply == decision.ply:
                return Move(piece=e.piece, q=e.q, r=e.r)
            if isinstance(e, HivePassed) and e.ply == decision.ply:
                return Pass()
        raise LookupError(f"no action of seat {seat} at ply {decision.ply}")


RULES = HiveRules()
"""The rules of Hive."""


def draw_number(d: HiveTurn) -> int:
    """The number a decision's fallback draws with: the ply, and for two-step turns the step
    as well (one-step turns keep rules 1.0.0's numbers)."""
    return d.ply if d.step == 0 else 2 * d.ply + d.step - 1


def state_data(st: HiveState) -> dict[str, Any]:
    """The whole state as plain data (for `cattle replay`)."""
    return {
        "ply": st.ply,
        "board": [
            {"q": q, "r": r, "seat": s, "piece": p} for (q, r), (s, p) in sorted(st.board.items())
        ],
        "explained": [sorted(s) for s in st.explained],
        "picked": None if st.picked is None else f"{st.picked.kind} {st.picked.piece}",
        "over": st.over,
        "winner": st.winner,
    }
