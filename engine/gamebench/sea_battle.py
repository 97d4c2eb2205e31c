"""The rules of GameBench's Sea Battle as a decider: `start`, `pending`, `step`, `evolve`.

The `gamebench` rules (the default; rules 2.0.0) play the game GameBench's matches came from,
as `games/sea_battle.py` has it from commit 8721bb9 (its last change, 2024-02-02) through the
published data: each turn every ship afloat picks one of eight plans, a move (F ahead, L and R
ahead then a quarter turn and ahead again, W stay) and a side to fire to (l or r). When all
are in, ships move in two claim phases (`play_turn_gamebench`), then every ship fires one
cannonball. GameBench plays an unusable answer as a random one of the eight; here the draw
comes from the seed. There is no turn limit in GameBench; `max_turns` bounds the game here.

The `prototype` rules (rules 1.0.0, and the `prototype` preset) play GameBench's first draft,
which commit 621b7ed replaced before any match was recorded. Each turn every ship afloat seals a plan of eight tokens, a move then a cannon token, four
times: moves F (one square ahead), L and R (one ahead, a quarter turn to that side, one ahead
again), W (stay); cannon tokens n (hold fire), l, r (one cannonball to that side), b (both
sides; two cannonballs). A ship has `cannonballs` per turn. When every plan is in, the turn
is played in eight phases, all ships at once: move 1, volley 1, move 2, ... A ship moving into
a rock stays and takes rock damage; ships trying to enter the same square, a square a ship
keeps, or each other's squares stay where they were and each takes ram damage; a cannonball
flies `reach` squares sideways and hits the first ship on its way (a rock stops it). A ship
whose damage reaches `hull` sinks at once. A team wins when the other has no ship afloat;
both going down together, or `max_turns` passing, is a draw.

Bad input never raises: a token that cannot stand (unknown, in the wrong slot, or a shot with
no cannonball left) becomes W or n, and the change is a refusal event seen by its seat only.
`Explain(heading)` shows a seat the rules under a heading and asks it again (docs/gamebench.md).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import reduce
from typing import Any, assert_never

import msgspec
from msgspec.structs import replace

from engine.gamebench.common import (
    Explain,
    IllegalAction,
    count_request,
    explain,
    raw_text,
)
from events import agent as ae
from events.config import SeatSpec
from events.gamebench import sea_battle as se
from events.gamebench.common import ranks, seat_scores
from events.gamebench.sea_battle import (
    HEADINGS,
    TEAM_SIZE,
    Hit,
    Phase,
    SeaBattleConfig,
    Ship,
    Shot,
    headings_of,
    rules_of,
    team_of,
)

VERSION = "2.0.0"
"""Stored with every game; bump when a rule change alters logs. 2.0.0: the `rules` knob,
GameBench's data-era game by default (1.0.0 always played the prototype and is kept to replay
its games)."""

VERSIONS: tuple[str, ...] = ("1.0.0", VERSION)
"""Every rules version these rules replay (a log names the one it was played by)."""

DIRS_UP: tuple[tuple[int, int], ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))
"""Steps of headings north, east, south, west under the gamebench rules (y grows northwards,
as in GameBench's complex-number positions)."""
CHOICES: tuple[str, ...] = ("Ll", "Lr", "Fl", "Fr", "Rl", "Rr", "Wl", "Wr")
"""The eight plans of the gamebench rules, in the order GameBench lists them."""
LISTED_ROCKS = 20
"""How many entries from the end of GameBench's rock list its observation names."""

DIRS: tuple[tuple[int, int], ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))
"""Steps of headings north, east, south, west (rows grow southwards)."""
MOVES = "FLRW"
CANNONS = "nlrb"
CANNON_COST = {"n": 0, "l": 1, "r": 1, "b": 2}
"""Cannonballs each cannon token fires."""
STEPS = 4
"""Moves (and volleys) per turn."""
IDLE_PLAN = "WnWnWnWn"
"""The plan of a ship that gave none it could use: stay and hold fire."""


class SetPlan(msgspec.Struct, frozen=True, kw_only=True, tag="plan"):
    """A ship's plan for the turn: eight tokens, move and cannon by turns (e.g. FnLlRbWn)."""

    seat: int
    plan: str


Action = SetPlan | Explain
"""Every Sea Battle action."""

_DEC: msgspec.json.Decoder[Action] = msgspec.json.Decoder(Action)


action_json = raw_text
"""An action as recorded in a refusal (deterministic JSON)."""


def action_from_json(text: str) -> Action:
    """The action `action_json` wrote."""
    return _DEC.decode(text)


class PlanDecision(msgspec.Struct, frozen=True, kw_only=True):
    """The ships afloat whose plan for `turn` is not in yet plan at once."""

    seats: tuple[int, ...]
    turn: int
    cannonballs: int
    rules: str = "prototype"
    """The rule set: `gamebench` asks for one of `CHOICES`, `prototype` for eight tokens."""

    @property
    def kind(self) -> str:
        """The decision's name."""
        return "plan"


class SbState(msgspec.Struct, frozen=True, kw_only=True):
    """Everything the rules need, folded from the events."""

    config: SeaBattleConfig
    seed: int = 0
    rules: str = "prototype"
    """The rule set the game is played by (`rules_of` its start)."""
    rocks: frozenset[tuple[int, int]] = frozenset()
    """Rocks inside the ring (the ring itself is rock too: see `is_rock`)."""
    ships: tuple[Ship | None, ...] = ()
    damage: tuple[int, ...] = (0,) * 6
    turn: int = 0
    plans: tuple[str | None, ...] = (None,) * 6
    """Plans sealed for the turn in progress."""
    phase: str = "new"
    """new, plan, over."""
    explained: tuple[tuple[str, ...], ...] = ((),) * 6
    requests: tuple[int, ...] = (0,) * 6

    def afloat(self, team: int) -> int:
        """Ships of a team still afloat."""
        return sum(1 for i, s in enumerate(self.ships) if s is not None and team_of(i) == team)


def is_rock(rocks: frozenset[tuple[int, int]], size: int, x: int, y: int) -> bool:
    """True for a rock: one of the scattered rocks, the outer ring, or off the board."""
    return x <= 0 or y <= 0 or x >= size - 1 or y >= size - 1 or (x, y) in rocks


def chart(
    config: SeaBattleConfig, seed: int
) -> tuple[tuple[tuple[int, int], ...], tuple[Ship, ...]]:
    """(rocks, ships) drawn from the seed alone: distinct squares inside the ring."""
    rng = random.Random(f"{seed}:gamebench:sea_battle:chart")
    inside = [(x, y) for y in range(1, config.size - 1) for x in range(1, config.size - 1)]
    picked = rng.sample(inside, config.rocks + config.players)
    ships = tuple(Ship(x=x, y=y, heading=rng.randrange(4)) for x, y in picked[config.rocks :])
    return tuple(sorted(picked[: config.rocks])), ships


def dirs(rules: str) -> tuple[tuple[int, int], ...]:
    """The steps of the four headings under a rule set."""
    return DIRS_UP if rules == "gamebench" else DIRS


def chart_gamebench(
    config: SeaBattleConfig, seed: int
) -> tuple[tuple[tuple[int, int], ...], tuple[Ship, ...]]:
    """(rocks in the order drawn, ships) as GameBench charts its sea: distinct squares inside
    the ring, the ships' first, each ship facing a random way."""
    rng = random.Random(f"{seed}:gamebench:sea_battle:chart")
    inside = [(x, y) for x in range(1, config.size - 1) for y in range(1, config.size - 1)]
    picked = rng.sample(inside, config.players + config.rocks)
    ships = tuple(Ship(x=x, y=y, heading=rng.randrange(4)) for x, y in picked[: config.players])
    return tuple(picked[config.players :]), ships


def ring(size: int) -> list[tuple[int, int]]:
    """The border squares in the order GameBench lists its rocks: the west column (south to
    north), the north row, the east column, the south row (west to east)."""
    n = size
    return (
        [(0, i) for i in range(n)]
        + [(i, n - 1) for i in range(n)]
        + [(n - 1, i) for i in range(n)]
        + [(i, 0) for i in range(n)]
    )


def listed_rocks(size: int, rocks: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The rocks GameBench's observation names: the last 20 of its list (the border, then the
    rocks drawn inside), so six border squares come before the 14 rocks of its sea."""
    return [*ring(size), *rocks][-LISTED_ROCKS:]


def read_choice(plan: Any) -> str | None:
    """The gamebench plan a text names (its letters: a move F, L, R or W, then l or r, case
    aside), or None."""
    if not isinstance(plan, str):
        return None
    chars = [c for c in plan if c.isalpha()]
    if len(chars) != 2:
        return None
    token = chars[0].upper() + chars[1].lower()
    return token if token in CHOICES else None


def drawn_choice(seed: int, turn: int, seat: int) -> str:
    """The plan played for an unusable answer: one of the eight, drawn from the seed."""
    return random.Random(f"{seed}:gamebench:sea_battle:drawn:{turn}:{seat}").choice(CHOICES)


def play_turn_gamebench(s: SbState, plans: Sequence[str]) -> list[Phase]:
    """A turn under the gamebench rules (by seat; "" for sunk ships): one move phase, one
    volley, in the order of GameBench's `move_ships` and `fire_cannons` (8721bb9).

    Movement: every ship that moves claims the square ahead, a ship that stays its own; in seat
    order, a ship claiming a rock takes rock damage, one whose claim another ship afloat shares
    (a ship on its own square aside) takes ram damage, and the rest move. Then ships turn
    (turning happens even when the first step failed), turning ships claim the square ahead
    again, and in seat order a claim of a rock costs rock damage, a shared claim leaves the
    ship where it is unharmed, and the rest move. Volley: every ship afloat after moving fires
    one cannonball to the side it chose, even if sunk by an earlier shot of the same volley; it
    flies up to `reach` squares and hits the first ship afloat (in seat order) on its square;
    a rock stops it. A ship sinks the moment its damage reaches `hull`."""
    c = s.config
    steps = DIRS_UP
    ships: list[Ship | None] = list(s.ships)
    damage = list(s.damage)
    hits: list[Hit] = []
    sunk: list[int] = []
    rocks = s.rocks

    def hurt(i: int, cause: Any, amount: int, by: int | None = None) -> None:
        damage[i] += amount
        hits.append(Hit(seat=i, cause=cause, damage=amount, by=by))
        if damage[i] >= c.hull:
            ships[i] = None
            sunk.append(i)

    def afloat() -> list[int]:
        return [i for i, sh in enumerate(ships) if sh is not None]

    def ahead(sh: Ship) -> tuple[int, int]:
        dx, dy = steps[sh.heading]
        return sh.x + dx, sh.y + dy

    def at(sh: Ship | None) -> tuple[int, int]:
        assert sh is not None
        return sh.x, sh.y

    def resolve(claim: dict[int, tuple[int, int]], rammed: bool) -> None:
        for i in afloat():
            sh = ships[i]
            if sh is None:
                continue
            sq = claim[i]
            if is_rock(rocks, c.size, *sq):
                hurt(i, "rock", c.rock_damage)
            elif any(claim[j] == sq and at(ships[j]) != (sh.x, sh.y) for j in afloat()):
                if rammed:
                    hurt(i, "ram", c.ram_damage)
            else:
                ships[i] = Ship(x=sq[0], y=sq[1], heading=sh.heading)

    moves = {i: plans[i][0] for i in afloat()}
    claim: dict[int, tuple[int, int]] = {}
    for i in afloat():
        sh = ships[i]
        assert sh is not None
        claim[i] = ahead(sh) if moves[i] in "FLR" else (sh.x, sh.y)
    resolve(claim, rammed=True)
    for i in afloat():
        sh = ships[i]
        assert sh is not None
        if moves[i] in "LR":
            turn = -1 if moves[i] == "L" else 1
            ships[i] = Ship(x=sh.x, y=sh.y, heading=(sh.heading + turn) % 4)
    claim = {}
    for i in afloat():
        sh = ships[i]
        assert sh is not None
        claim[i] = ahead(sh) if moves[i] in "LR" else (sh.x, sh.y)
    resolve(claim, rammed=False)
    phases = [Phase(kind="move", step=1, ships=tuple(ships), hits=tuple(hits), sunk=tuple(sunk))]
    hits, sunk = [], []
    shots: list[Shot] = []
    for i, sh in [(i, ships[i]) for i in afloat()]:
        assert sh is not None
        side = plans[i][1]
        dx, dy = steps[(sh.heading + (-1 if side == "l" else 1)) % 4]
        hit = None
        for k in range(1, c.reach + 1):
            sq = (sh.x + dx * k, sh.y + dy * k)
            if is_rock(rocks, c.size, *sq):
                break
            j = next((j for j in afloat() if at(ships[j]) == sq), None)
            if j is not None:
                hit = j
                hurt(j, "cannon", c.cannon_damage, by=i)
                break
        shots.append(Shot(seat=i, side=side, hit=hit))
    phases.append(
        Phase(
            kind="fire",
            step=1,
            ships=tuple(ships),
            hits=tuple(hits),
            shots=tuple(shots),
            sunk=tuple(sunk),
        )
    )
    return phases


def read_plan(plan: Any, cannonballs: int) -> tuple[str, str | None]:
    """(plan played, why it differs from the plan given, or None). Letters only count (case
    is read from the slot); a missing or unknown token becomes W or n, a shot beyond the
    cannonballs n, and tokens past the eighth are dropped."""
    if not isinstance(plan, str):
        return IDLE_PLAN, "a plan is a text of eight tokens"
    chars = [c for c in plan if c.isalpha()]
    out: list[str] = []
    notes: list[str] = []
    balls = cannonballs
    for i in range(2 * STEPS):
        c = chars[i] if i < len(chars) else ""
        if i % 2 == 0:
            token = c.upper()
            if len(token) != 1 or token not in MOVES:
                notes.append(f"move {i // 2 + 1}: {c or 'missing'} -> W")
                token = "W"
        else:
            token = c.lower()
            if len(token) != 1 or token not in CANNONS:
                notes.append(f"cannon {i // 2 + 1}: {c or 'missing'} -> n")
                token = "n"
            cost = CANNON_COST[token]
            if cost > balls:
                notes.append(f"cannon {i // 2 + 1}: no cannonball left for {token} -> n")
                token, cost = "n", 0
            balls -= cost
        out.append(token)
    if len(chars) > 2 * STEPS:
        notes.append(f"{len(chars) - 2 * STEPS} token(s) past the eighth dropped")
    if not notes:
        return "".join(out), None
    shown = "; ".join(notes[:4]) + ("; ..." if len(notes) > 4 else "")
    return "".join(out), shown


def _advance(
    ships: list[Ship | None],
    movers: set[int],
    c: SeaBattleConfig,
    rocks: frozenset[tuple[int, int]],
    hits: list[Hit],
) -> None:
    """Move `movers` one square ahead, all at once, in place; blocked ships stay and take
    their damage (added to `hits`)."""
    if not movers:
        return
    target: dict[int, tuple[int, int]] = {}
    failed: set[int] = set()
    rammed: set[int] = set()
    for i in sorted(movers):
        s = ships[i]
        assert s is not None
        dx, dy = DIRS[s.heading]
        sq = (s.x + dx, s.y + dy)
        target[i] = sq
        if is_rock(rocks, c.size, *sq):
            failed.add(i)
            hits.append(Hit(seat=i, cause="rock", damage=c.rock_damage))
    at = {(s.x, s.y): i for i, s in enumerate(ships) if s is not None}
    changed = True
    while changed:
        changed = False
        moving = [i for i in sorted(movers) if i not in failed]
        kept = {
            (s.x, s.y): i
            for i, s in enumerate(ships)
            if s is not None and (i not in movers or i in failed)
        }
        claims: dict[tuple[int, int], list[int]] = {}
        for i in moving:
            claims.setdefault(target[i], []).append(i)
        for sq, who in claims.items():
            blocker = kept.get(sq)
            if len(who) > 1 or blocker is not None:
                failed.update(who)
                rammed.update(who)
                if blocker is not None:
                    rammed.add(blocker)
                changed = True
        for i in moving:
            if i in failed:
                continue
            j = at.get(target[i])
            if j is not None and j != i and j in movers and j not in failed:
                sj = ships[j]
                si = ships[i]
                assert sj is not None and si is not None
                if target[j] == (si.x, si.y):
                    failed.update((i, j))
                    rammed.update((i, j))
                    changed = True
    for i in sorted(rammed):
        hits.append(Hit(seat=i, cause="ram", damage=c.ram_damage))
    for i in movers:
        if i not in failed:
            s = ships[i]
            assert s is not None
            ships[i] = Ship(x=target[i][0], y=target[i][1], heading=s.heading)


def _sink(
    ships: list[Ship | None], damage: list[int], hits: Sequence[Hit], hull: int
) -> tuple[int, ...]:
    for h in hits:
        damage[h.seat] += h.damage
    sunk = tuple(i for i, s in enumerate(ships) if s is not None and damage[i] >= hull)
    for i in sunk:
        ships[i] = None
    return sunk


def _volley(
    ships: list[Ship | None],
    tokens: Sequence[str],
    c: SeaBattleConfig,
    rocks: frozenset[tuple[int, int]],
) -> tuple[list[Shot], list[Hit]]:
    at = {(s.x, s.y): i for i, s in enumerate(ships) if s is not None}
    shots: list[Shot] = []
    hits: list[Hit] = []
    for i, s in enumerate(ships):
        t = tokens[i]
        if s is None or t not in "lrb":
            continue
        for side in ("l", "r") if t == "b" else (t,):
            dx, dy = DIRS[(s.heading + (-1 if side == "l" else 1)) % 4]
            hit = None
            for k in range(1, c.reach + 1):
                x, y = s.x + dx * k, s.y + dy * k
                if is_rock(rocks, c.size, x, y):
                    break
                j = at.get((x, y))
                if j is not None:
                    hit = j
                    hits.append(Hit(seat=j, cause="cannon", damage=c.cannon_damage, by=i))
                    break
            shots.append(Shot(seat=i, side=side, hit=hit))
    return shots, hits


def play_turn(s: SbState, plans: Sequence[str]) -> list[Phase]:
    """The phases of a turn with these plans (by seat; "" for sunk ships), stopping early
    when a team has no ship left."""
    c = s.config
    ships = list(s.ships)
    damage = list(s.damage)
    phases: list[Phase] = []
    for step in range(STEPS):
        moves = [p[2 * step] if p else "W" for p in plans]
        hits: list[Hit] = []
        _advance(
            ships, {i for i, m in enumerate(moves) if m in "FLR" and ships[i]}, c, s.rocks, hits
        )
        for i, m in enumerate(moves):
            sh = ships[i]
            if sh is not None and m in "LR":
                turn = -1 if m == "L" else 1
                ships[i] = Ship(x=sh.x, y=sh.y, heading=(sh.heading + turn) % 4)
        _advance(
            ships, {i for i, m in enumerate(moves) if m in "LR" and ships[i]}, c, s.rocks, hits
        )
        sunk = _sink(ships, damage, hits, c.hull)
        phases.append(
            Phase(kind="move", step=step + 1, ships=tuple(ships), hits=tuple(hits), sunk=sunk)
        )
        if _over(ships):
            break
        tokens = [p[2 * step + 1] if p else "n" for p in plans]
        shots, hits = _volley(ships, tokens, c, s.rocks)
        sunk = _sink(ships, damage, hits, c.hull)
        phases.append(
            Phase(
                kind="fire",
                step=step + 1,
                ships=tuple(ships),
                hits=tuple(hits),
                shots=tuple(shots),
                sunk=sunk,
            )
        )
        if _over(ships):
            break
    return phases


def _over(ships: Sequence[Ship | None]) -> bool:
    return any(
        all(ships[i] is None for i in range(t * TEAM_SIZE, (t + 1) * TEAM_SIZE)) for t in (0, 1)
    )


class SeaBattleRules:
    """GameBench's Sea Battle (the `events.catalog.Rules` protocol); `version` picks the rules
    games are recorded by (the current ones, or 1.0.0 to replay its games)."""

    versions = VERSIONS

    def __init__(self, version: str = VERSION) -> None:
        if version not in VERSIONS:
            raise ValueError(f"no Sea Battle rules {version!r} (known: {', '.join(VERSIONS)})")
        self.version = version

    def for_version(self, version: str) -> SeaBattleRules | None:
        """The rules that recorded games stamped with `version` (None: no such rules)."""
        if version == self.version:
            return self
        return SeaBattleRules(version) if version in VERSIONS else None

    @staticmethod
    def max_decisions(config: SeaBattleConfig) -> int:
        """One simultaneous plan decision per turn, and each seat may ask for each heading."""
        return config.max_turns + config.players * len(HEADINGS)

    def start(
        self, config: SeaBattleConfig, seed: int, seats: Sequence[SeatSpec]
    ) -> tuple[SbState, list[Any]]:
        """Chart the sea; every ship plans its first turn."""
        config.validate()
        if len(seats) != config.players:
            raise IllegalAction(f"Sea Battle seats {config.players} players, got {len(seats)}")
        started = se.SbStarted(
            seed=seed, config=config, seats=tuple(seats), engine_version=self.version
        )
        if rules_of(started) == "gamebench":
            rocks, ships = chart_gamebench(config, seed)
        else:
            rocks, ships = chart(config, seed)
        events: list[Any] = [started, se.SbCharted(rocks=rocks, ships=ships)]
        return reduce(self.evolve, events, SbState(config=config)), events

    def pending(self, state: SbState) -> PlanDecision | None:
        """The ships afloat that have not sealed their plan yet; None once over."""
        if state.phase != "plan":
            return None
        seats = tuple(
            i for i, s in enumerate(state.ships) if s is not None and state.plans[i] is None
        )
        return PlanDecision(
            seats=seats, turn=state.turn, cannonballs=state.config.cannonballs, rules=state.rules
        )

    def active(self, state: SbState) -> int | None:
        """No seat has a turn of its own: all plan at once."""
        return None

    def turn_of(self, event: Any, turn: int) -> int:
        """The turn an event belongs to."""
        t = getattr(event, "turn", None)
        return t if isinstance(t, int) else turn

    def step(
        self, state: SbState, decision: Any, actions: Sequence[Any]
    ) -> tuple[SbState, list[Any]]:
        """Seal the plans given (or explain the rules asked for); play the turn when all are in."""
        d = self.pending(state)
        if d is None or len(actions) != len(d.seats):
            raise IllegalAction("the game waits for no such actions")
        events: list[Any] = []
        for seat, a in zip(d.seats, actions, strict=True):
            if getattr(a, "seat", seat) != seat:
                raise IllegalAction(f"seat {seat} is asked, got an action of seat {a.seat}")
            events.extend(self._answer(state, seat, a))
        for e in events:
            state = self.evolve(state, e)
        if all(p is not None for i, p in enumerate(state.plans) if state.ships[i] is not None):
            more = self._play(state)
            for e in more:
                state = self.evolve(state, e)
            events.extend(more)
        return state, events

    def _answer(self, s: SbState, seat: int, a: Any) -> list[Any]:
        out: list[Any] = []
        if isinstance(a, Explain):
            heading, why, again = explain(
                a, headings_of(s.rules), s.explained[seat], s.requests[seat]
            )
            if heading is not None:
                return [se.SbRuleExplained(seat=seat, heading=heading, turn=s.turn)]
            out.append(
                se.SbRequestRefused(
                    seat=seat, turn=s.turn, raw=action_json(a), reason=why or "", explain=True
                )
            )
            if again:
                return out
            plan = self._fallback(s, seat)  # no requests left
        elif isinstance(a, SetPlan) and s.rules == "gamebench":
            choice = read_choice(a.plan)
            if choice is None:
                plan = drawn_choice(s.seed, s.turn, seat)
                why3 = f"not one of the eight plans; {plan} was drawn in its place"
                out.append(
                    se.SbRequestRefused(seat=seat, turn=s.turn, raw=action_json(a), reason=why3)
                )
            else:
                plan = choice
        elif isinstance(a, SetPlan):
            plan, why2 = read_plan(a.plan, s.config.cannonballs)
            if why2 is not None:
                out.append(
                    se.SbRequestRefused(seat=seat, turn=s.turn, raw=action_json(a), reason=why2)
                )
        else:
            plan = self._fallback(s, seat)
            out.append(
                se.SbRequestRefused(
                    seat=seat, turn=s.turn, raw=action_json(a), reason="a plan was asked"
                )
            )
        out.append(se.SbPlanSealed(seat=seat, turn=s.turn, plan=plan))
        return out

    @staticmethod
    def _fallback(s: SbState, seat: int) -> str:
        """The plan of a ship that gave none it could use: the prototype idles; GameBench
        plays one of the eight at random (drawn from the seed here)."""
        return drawn_choice(s.seed, s.turn, seat) if s.rules == "gamebench" else IDLE_PLAN

    def _play(self, s: SbState) -> list[Any]:
        plans = tuple(
            p if p is not None and s.ships[i] is not None else "" for i, p in enumerate(s.plans)
        )
        if s.rules == "gamebench":
            phases = play_turn_gamebench(s, plans)
        else:
            phases = play_turn(s, plans)
        played = se.SbTurnPlayed(turn=s.turn, plans=plans, phases=tuple(phases))
        after = self.evolve(s, played)
        out: list[Any] = [played]
        for team in (0, 1):
            seats = range(team * TEAM_SIZE, (team + 1) * TEAM_SIZE)
            out.append(
                se.SbDamageReport(
                    team=team, turn=s.turn, damage=tuple(after.damage[i] for i in seats)
                )
            )
        a, b = after.afloat(0), after.afloat(1)
        if a and b and s.turn < s.config.max_turns:
            return out
        if not a and not b:
            reason, winner, team_scores = "both_sunk", None, (0.5, 0.5)
        elif not b:
            reason, winner, team_scores = "sunk", 0, (1.0, 0.0)
        elif not a:
            reason, winner, team_scores = "sunk", 1, (0.0, 1.0)
        else:
            reason, winner, team_scores = "turn_limit", None, (0.5, 0.5)
        scores = seat_scores(team_scores, [team_of(i) for i in range(s.config.players)])
        out.append(
            se.SbEnded(
                reason=reason,  # type: ignore[arg-type]
                winner=winner,
                turns=s.turn,
                damage=after.damage,
                scores=scores,
                ranks=ranks(scores),
            )
        )
        return out

    # ---- the fold --------------------------------------------------------------------------

    def evolve(self, s: SbState, e: se.SbEvent | ae.AgentEvent) -> SbState:
        """Apply one event to the state (pure; trusts the rules made it)."""
        match e:
            case se.SbPlanSealed():
                plans = tuple(e.plan if i == e.seat else p for i, p in enumerate(s.plans))
                return replace(s, plans=plans)
            case se.SbTurnPlayed():
                damage = list(s.damage)
                for ph in e.phases:
                    for h in ph.hits:
                        damage[h.seat] += h.damage
                ships = e.phases[-1].ships if e.phases else s.ships
                return replace(
                    s,
                    ships=ships,
                    damage=tuple(damage),
                    turn=s.turn + 1,
                    plans=(None,) * len(s.plans),
                )
            case se.SbRuleExplained():
                explained, requests = count_request(s.explained, s.requests, e.seat, e.heading)
                return replace(s, explained=explained, requests=requests)
            case se.SbRequestRefused():
                if e.explain:
                    _, requests = count_request(s.explained, s.requests, e.seat, None)
                    return replace(s, requests=requests)
                return s
            case se.SbStarted():
                n = e.config.players
                return replace(
                    s,
                    config=e.config,
                    seed=e.seed,
                    rules=rules_of(e),
                    damage=(0,) * n,
                    plans=(None,) * n,
                    explained=((),) * n,
                    requests=(0,) * n,
                )
            case se.SbCharted():
                return replace(s, rocks=frozenset(e.rocks), ships=e.ships, turn=1, phase="plan")
            case se.SbEnded():
                return replace(s, phase="over")
            case se.SbDamageReport():
                return s
            case (
                ae.LLMCall()
                | ae.ActionDefaulted()
                | ae.ScratchpadUpdated()
                | ae.AgentNote()
                | ae.ModelDecision()
                | ae.HumanAnswer()
                | ae.SeatAbandoned()
            ):
                return s  # agent-side facts lie outside the rules
            case _:
                assert_never(e)

    def fold(self, events: Sequence[Any]) -> SbState:
        """The state after a log or a prefix of one."""
        if not events or not isinstance(events[0], se.SbStarted):
            raise ValueError("a Sea Battle log starts with its game_started event")
        return reduce(self.evolve, events, SbState(config=events[0].config))

    def recorded_action(self, log: Sequence[Any], pos: int, seat: int, decision: Any) -> Any:
        """The action `seat` took for `decision`, read from `log[pos:]`."""
        for i in range(pos, len(log)):
            e = log[i]
            match e:
                case se.SbRequestRefused() if e.seat == seat:
                    try:
                        return action_from_json(e.raw)
                    except msgspec.DecodeError:
                        raise LookupError(
                            f"seat {seat} submitted no action: {e.raw[:60]}"
                        ) from None
                case se.SbRuleExplained() if e.seat == seat:
                    return Explain(heading=e.heading)
                case se.SbPlanSealed() if e.seat == seat:
                    return SetPlan(seat=seat, plan=e.plan)
        raise LookupError(f"no action of seat {seat} for {decision!r} after event {pos}")


RULES = SeaBattleRules()
"""The rules object the game's definition names."""
