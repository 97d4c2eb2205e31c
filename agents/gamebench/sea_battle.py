"""Sea Battle as the catalogue knows it, with its code agents.

* `random`: GameBench's random baseline: under the gamebench rules one of the eight plans
  uniformly (as `agents/random_agent.py` picks a listed action); under the prototype rules
  every token drawn uniformly among those the ship can play (a shot only while cannonballs
  are left).
* `broadside`, gamebench rules: tries the eight plans against the sea as it stands (the other
  ships taken as staying put) and keeps the one whose cannonball would hit an enemy (never a
  friend), then the fewest bumps, then the shortest distance left to the nearest enemy.
* `broadside`, prototype rules: tries all 256 sequences of four moves against the sea as it stands (the other
  ships taken as staying put), fires on each step at an enemy within reach on either side
  (never when a friend is on or next to the line of fire), and keeps the sequence with the most shots on
  enemies, the fewest bumps into rocks and ships, and then the shortest distance left to the
  nearest enemy.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agents.base import Agent
from agents.gamebench import common
from engine.gamebench.sea_battle import (
    CANNONS,
    CHOICES,
    DIRS,
    DIRS_UP,
    MOVES,
    RULES,
    STEPS,
    SetPlan,
    is_rock,
)
from events.catalog import GameDef
from events.gamebench.sea_battle import EVENT_TYPES, NAME, SeaBattleConfig, team_of
from projections.gamebench.common import END_REASONS
from projections.gamebench.sea_battle import SeaBattlePrompter, SeaBattleView, describe, frames

SQL = Path(__file__).resolve().parents[2] / "events" / "gamebench" / "sea_battle.sql"
"""The `gb_sea_battle_turns` and `gb_sea_battle_hits` views."""

COST = {"n": 0, "l": 1, "r": 1, "b": 2}


class RandomAgent(common.RandomAgent):
    """Uniformly random playable tokens (GameBench's random baseline)."""

    label = "gamebench:sea_battle:random"

    def act(self, view: Any, decision: Any) -> SetPlan:
        if decision.rules == "gamebench":
            return SetPlan(seat=self.seat, plan=self.rng.choice(CHOICES))
        balls = decision.cannonballs
        out = []
        for _ in range(STEPS):
            out.append(self.rng.choice(MOVES))
            shot = self.rng.choice([c for c in CANNONS if COST[c] <= balls])
            balls -= COST[shot]
            out.append(shot)
        return SetPlan(seat=self.seat, plan="".join(out))


class GameBenchRandomAgent(common.GameBenchRandom):
    """GameBench's own random agent at Sea Battle: one of the turn's listed actions,
    uniformly (GameBench's data-era game lists eight a turn). A preset whose turn is a plan
    built from parts (the prototype, which lists nothing) gets the random plan above, since
    GameBench never played it."""

    label = "gamebench:sea_battle:gamebench-random"

    def act(self, view: Any, decision: Any) -> Any:
        if getattr(decision, "legal", None):
            return self.rng.choice(decision.legal)
        return RandomAgent.act(self, view, decision)  # type: ignore[arg-type]


class BroadsideAgent(Agent):
    """Searches the 256 move sequences for the best broadsides (see the module docstring)."""

    spec = "broadside"

    def act(self, view: Any, decision: Any) -> SetPlan:
        assert isinstance(view, SeaBattleView) and view.config is not None
        if decision.rules == "gamebench":
            return SetPlan(seat=self.seat, plan=_gamebench_broadside(view, self.seat))
        c = view.config
        me = view.ships[self.seat]
        assert me is not None
        rocks = frozenset(view.rocks)
        others = {
            (s.x, s.y): i for i, s in enumerate(view.ships) if s is not None and i != self.seat
        }
        friends = [
            (s.x, s.y)
            for i, s in enumerate(view.ships)
            if s and team_of(i) == view.team and i != self.seat
        ]
        enemies = [(s.x, s.y) for i, s in enumerate(view.ships) if s and team_of(i) != view.team]
        side_cache: dict[tuple[int, int, int], tuple[int, int]] = {}

        def side_value(x: int, y: int, h: int) -> tuple[int, int]:
            key = (x, y, h)
            got = side_cache.get(key)
            if got is None:
                vals = []
                for turn in (-1, 1):
                    dx, dy = DIRS[(h + turn) % 4]
                    v = 0
                    for k in range(1, c.reach + 1):
                        sq = (x + dx * k, y + dy * k)
                        if is_rock(rocks, c.size, *sq):
                            break
                        if any(abs(fx - sq[0]) <= 1 and abs(fy - sq[1]) <= 1 for fx, fy in friends):
                            v = -1  # a friend may sail into the line by then
                            break
                        j = others.get(sq)
                        if j is not None:
                            v = 1 if team_of(j) != view.team else -1
                            break
                    vals.append(v)
                got = (vals[0], vals[1])
                side_cache[key] = got
            return got

        moved: dict[tuple[int, int, int, str], tuple[int, int, int, int]] = {}

        def step(x: int, y: int, h: int, m: str) -> tuple[int, int, int, int]:
            key = (x, y, h, m)
            got = moved.get(key)
            if got is None:
                bumps = 0
                if m != "W":
                    x, y, b = _ahead(x, y, h, rocks, others, c.size)
                    bumps += b
                    if m != "F":
                        h = (h + (-1 if m == "L" else 1)) % 4
                        x, y, b = _ahead(x, y, h, rocks, others, c.size)
                        bumps += b
                got = (x, y, h, bumps)
                moved[key] = got
            return got

        fired: dict[tuple[tuple[int, int], ...], tuple[list[str], int]] = {}
        near: dict[tuple[int, int], int] = {}
        best: tuple[float, str] | None = None
        # The 256 sequences of four moves in lexicographic order of MOVES (ties go to the
        # first), walked as a tree so that each prefix is sailed once.
        for m1 in MOVES:
            x1, y1, h1, b1 = step(me.x, me.y, me.heading, m1)
            v1 = side_value(x1, y1, h1)
            for m2 in MOVES:
                x2, y2, h2, b2 = step(x1, y1, h1, m2)
                v2 = side_value(x2, y2, h2)
                for m3 in MOVES:
                    x3, y3, h3, b3 = step(x2, y2, h2, m3)
                    v3 = side_value(x3, y3, h3)
                    for m4 in MOVES:
                        x4, y4, h4, b4 = step(x3, y3, h3, m4)
                        volleys = (v1, v2, v3, side_value(x4, y4, h4))
                        shot = fired.get(volleys)
                        if shot is None:
                            shot = fired[volleys] = _fire(list(volleys), decision.cannonballs)
                        far = near.get((x4, y4))
                        if far is None:
                            far = near[(x4, y4)] = min(
                                (abs(ex - x4) + abs(ey - y4) for ex, ey in enemies), default=0
                            )
                        score = 3.0 * shot[1] - 2.0 * (b1 + b2 + b3 + b4) - 0.05 * far
                        if best is None or score > best[0]:
                            t = shot[0]
                            best = (score, f"{m1}{t[0]}{m2}{t[1]}{m3}{t[2]}{m4}{t[3]}")
        assert best is not None
        return SetPlan(seat=self.seat, plan=best[1])


def _gamebench_broadside(view: SeaBattleView, seat: int) -> str:
    """The best of the eight plans (see the module docstring); ties go to the first listed."""
    c = view.config
    assert c is not None
    me = view.ships[seat]
    assert me is not None
    rocks = frozenset(view.rocks)
    others = {(s.x, s.y): i for i, s in enumerate(view.ships) if s is not None and i != seat}
    enemies = [(s.x, s.y) for i, s in enumerate(view.ships) if s and team_of(i) != view.team]
    best: tuple[float, str] | None = None
    for plan in CHOICES:
        x, y, h, bumps = me.x, me.y, me.heading, 0
        if plan[0] != "W":
            x, y, b = _ahead(x, y, h, rocks, others, c.size, DIRS_UP)
            bumps += b
            if plan[0] != "F":
                h = (h + (-1 if plan[0] == "L" else 1)) % 4
                x, y, b = _ahead(x, y, h, rocks, others, c.size, DIRS_UP)
                bumps += b
        dx, dy = DIRS_UP[(h + (-1 if plan[1] == "l" else 1)) % 4]
        aim = 0
        for k in range(1, c.reach + 1):
            sq = (x + dx * k, y + dy * k)
            if is_rock(rocks, c.size, *sq):
                break
            j = others.get(sq)
            if j is not None:
                aim = 1 if team_of(j) != view.team else -1
                break
        far = min((abs(ex - x) + abs(ey - y) for ex, ey in enemies), default=0)
        score = 3.0 * aim - 2.0 * bumps - 0.05 * far
        if best is None or score > best[0]:
            best = (score, plan)
    assert best is not None
    return best[1]


def _ahead(
    x: int,
    y: int,
    h: int,
    rocks: frozenset[tuple[int, int]],
    others: dict[tuple[int, int], int],
    size: int,
    steps: tuple[tuple[int, int], ...] = DIRS,
) -> tuple[int, int, int]:
    """One square ahead if free: (x, y, 1 when blocked else 0)."""
    dx, dy = steps[h]
    nx, ny = x + dx, y + dy
    if is_rock(rocks, size, nx, ny) or (nx, ny) in others:
        return x, y, 1
    return nx, ny, 0


def _fire(volleys: list[tuple[int, int]], balls: int) -> tuple[list[str], int]:
    """Cannon tokens for the steps' (left, right) targets (1 enemy, -1 friend, 0 none): shoot
    at enemies, earliest steps first, while cannonballs last; the shots on enemies."""
    tokens = []
    hits = 0
    for left, right in volleys:
        want = ("l" if left > 0 else "") + ("r" if right > 0 else "")
        if want == "lr" and balls >= 2:
            tokens.append("b")
            balls -= 2
            hits += 2
        elif want and balls >= 1:
            tokens.append(want[0])
            balls -= 1
            hits += 1
        else:
            tokens.append("n")
    return tokens, hits


CODE_AGENTS: dict[str, Any] = {
    "random": RandomAgent,
    "gamebench-random": GameBenchRandomAgent,
    "broadside": BroadsideAgent,
    # GameBench's suite names every game's own heuristic alike (docs/gamebench.md).
    "heuristic": BroadsideAgent,
}
"""Code agents by spec."""


PRESETS: dict[str, SeaBattleConfig] = {
    "standard": SeaBattleConfig(cannonballs=1, max_turns=1000).validate(),
    "quick": SeaBattleConfig(
        size=12, rocks=6, hull=6, cannonballs=1, max_turns=60, name="quick"
    ).validate(),
    "prototype": SeaBattleConfig(rules="prototype", name="prototype").validate(),
    "prototype_quick": SeaBattleConfig(
        size=12, rocks=6, hull=6, max_turns=12, rules="prototype", name="prototype_quick"
    ).validate(),
}
"""`standard`: the game GameBench's data came from (24 x 24 sea, 14 rocks, one of eight plans
a turn; GameBench has no turn limit, 1000 turns bound it here); `quick`: the same on a 12 x 12
sea with 6 rocks and hulls of 6; `prototype` and `prototype_quick`: GameBench's first draft
(eight-token plans, 6 cannonballs a turn, 30 turns; rules 1.0.0's game), kept for its games
and for anyone who wants the richer plans."""


def presets() -> Mapping[str, SeaBattleConfig]:
    """Sea Battle's named configurations."""
    return PRESETS


GAME = GameDef(
    name=NAME,
    title="Sea Battle (GameBench)",
    summary=(
        "Three ships against three on a rocky 24 x 24 sea; every ship picks a move and a side"
        " to fire to, and all plans play out at once."
    ),
    event_types=EVENT_TYPES,
    config_type=SeaBattleConfig,
    rules=RULES,
    presets=presets,
    default_preset="standard",
    new_view=SeaBattleView,
    describe=describe,
    sql=(SQL,),
    code_agents=dict(CODE_AGENTS),
    prompter=SeaBattlePrompter(),
    extras={
        "end_reasons": END_REASONS[NAME],
        "teams": (0, 0, 0, 1, 1, 1),
        "match_scores": True,
        "frames": frames,
        "drawing": "cli.gamebench.draw",
    },
)
"""GameBench's Sea Battle, as the catalogue knows it."""
