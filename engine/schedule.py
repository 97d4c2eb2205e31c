"""Tournament schedules: which agents sit where in every game, and every game's seed.

A schedule is a pure function of (format, agents, number of games, tournament seed, seats
per game), so a stored tournament can always be re-planned and checked. Formats:

* `mixed`: each agent under test plays against three code agents, cycling through the seven
  fixed opponent compositions C1..C7 and every seat rotation. The agents under test share
  each deal: game i of every agent under test in the same composition and rotation uses the
  same seed, so deck luck hits them alike.
* `round-robin`: every combination of `players` agents from the pool (each pair meets equally
  often over a full cycle), with every seat rotation. In two-seat games this is GTBench's
  match plan: the pairings take turns game by game, and each side of a pairing moves first in
  half of that pairing's matches (see `first_seat`).
* `duplicate`: like round-robin, but every deal (seed) is played once per seat rotation, so
  each agent of a lineup gets each seat of the same deck.
* `teams`: GameBench's match plan for team games (its Codenames and Sea Battle): every game
  is a pairing of two agents, each holding every seat of one half of the table (seats
  0..n/2-1 against n/2..n-1; at an odd table the first half is the smaller one, as in Are
  You the Traitor?'s two evil seats against three good ones), the pairings taking turns as
  in two-seat round-robin and each agent of a pairing on the first half in half of its
  matches. Each deal is played twice,
  once from each side.

A suite (`suite`, GameBench's protocol) spans several games: every pairing of two agents
plays the same number of matches in every game, each agent holding every seat of one side
(one seat of a two-seat game, one team of a team game). Each deal is played twice, once from
each side; with an odd number of matches the last deal is played once, from the side its
seed draws. Matches go round the games (match 1 of every game, then match 2, ...), so a
suite cut short has played every game about equally far.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from typing import TypeVar

import msgspec

from engine.chance import chance

T = TypeVar("T")

FORMATS = ("mixed", "round-robin", "duplicate", "teams")

COMPOSITIONS: dict[str, tuple[str, str, str]] = {
    "C1": ("tracker", "setrace", "economy"),
    "C2": ("tracker", "tracker", "economy"),
    "C3": ("economy", "economy", "setrace"),
    "C4": ("setrace", "setrace", "tracker"),
    "C5": ("setrace", "setrace", "economy"),
    "C6": ("economy", "economy", "tracker"),
    "C7": ("tracker", "tracker", "setrace"),
}
"""The opponents of an agent under test in the mixed format (every mix of the three code
agents except a single agent three times)."""


class ScheduleError(ValueError):
    """A tournament that cannot be scheduled as asked."""


class PlannedGame(msgspec.Struct, frozen=True, kw_only=True):
    """One game of a tournament's schedule."""

    index: int
    seed: int
    seats: tuple[str, ...]
    """Agent spec of every seat."""
    lineup: str
    """The composition (mixed) or the combination of agents, before rotation."""
    rotation: int
    """How far the lineup was rotated around the table."""
    game: str = ""
    """The game this match is of, in a suite of games ("": the tournament's one game)."""


def game_seed(tournament_seed: int, deal: int) -> int:
    """The seed of deal number `deal` of a tournament."""
    return chance(tournament_seed, "tournament", deal).randrange(2**31)


def rotate(lineup: tuple[str, ...], r: int) -> tuple[str, ...]:
    """The lineup moved `r` seats to the right (seat r gets the lineup's first agent)."""
    n = len(lineup)
    return tuple(lineup[(j - r) % n] for j in range(n))


def leads(pool: int, i: int, j: int) -> bool:
    """True if agent i (i < j) moves first in the first match of its pairing with agent j.

    The pairings are oriented as a balanced tournament: i leads the agents 1 .. (pool - 1) // 2
    places after it, counting round the pool. So when a pairing plays an odd number of matches
    (one side is first once more), every agent has that extra first move in (pool - 1) / 2
    pairings, or in pool / 2 - 1 or pool / 2 of them for an even pool: never the agent listed
    first in all of them.
    """
    return (j - i) % pool <= (pool - 1) // 2


def first_seat(pool: int, i: int, j: int, match: int) -> int:
    """The rotation of match number `match` (0-based) of the two-seat pairing of agents i < j.

    Rotation 0 seats agent i in seat 0 (it moves first), rotation 1 seats agent j there. The
    leading side (`leads`) is first in matches 0, 2, 4, ... and the other side in 1, 3, 5, ...:
    with an even number of matches each side is first in exactly half of them.
    """
    return (match + (0 if leads(pool, i, j) else 1)) % 2


def opponents(composition: str, players: int) -> tuple[str, ...]:
    """The `players - 1` opponents of a composition (cycled if the table is not four)."""
    comp = COMPOSITIONS[composition]
    return tuple(comp[j % len(comp)] for j in range(players - 1))


def check(fmt: str, agents: tuple[str, ...], games: int, players: int) -> None:
    """Raise `ScheduleError` unless this tournament can be scheduled (nothing is built)."""
    if fmt not in FORMATS:
        raise ScheduleError(f"format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    if games < 1:
        raise ScheduleError("a tournament needs at least one game")
    if not agents:
        raise ScheduleError("a tournament needs at least one agent")
    if len(set(agents)) != len(agents):
        raise ScheduleError("each agent may be listed only once")
    if fmt == "mixed":
        return
    if fmt == "teams":
        if len(agents) < 2 or players < 2:
            raise ScheduleError("teams needs at least 2 agents and 2 seats")
        if games % 2:
            raise ScheduleError("teams plays every deal from both sides: --games must be even")
        return
    if len(agents) < players:
        raise ScheduleError(f"{fmt} needs at least {players} agents for {players}-seat games")
    if fmt == "duplicate" and games % players:
        raise ScheduleError(
            f"duplicate plays every deal once per seat rotation: --games must be a multiple of {players}"
        )


def iter_schedule(
    fmt: str, agents: tuple[str, ...], games: int, seed: int, players: int
) -> Iterator[PlannedGame]:
    """Every game of a tournament, in playing order, one at a time (checked before the first)."""
    check(fmt, agents, games, players)
    return _games(fmt, agents, games, seed, players)


def schedule(
    fmt: str, agents: tuple[str, ...], games: int, seed: int, players: int
) -> list[PlannedGame]:
    """Every game of a tournament, in playing order."""
    return list(iter_schedule(fmt, agents, games, seed, players))


def _games(
    fmt: str, agents: tuple[str, ...], games: int, seed: int, players: int
) -> Iterator[PlannedGame]:
    if fmt == "mixed":
        a = len(agents)
        comps = tuple(COMPOSITIONS)
        for i in range(games):
            x = agents[i % a]
            deal = i // a
            comp = comps[deal % len(comps)]
            r = (deal // len(comps)) % players
            seats = rotate((x, *opponents(comp, players)), r)
            yield PlannedGame(
                index=i, seed=game_seed(seed, deal), seats=seats, lineup=comp, rotation=r
            )
        return
    if fmt == "teams":
        half = players // 2
        pairs = _cycled_combinations(tuple(range(len(agents))), 2)
        a, b = next(pairs)
        for i in range(games):
            deal, side = divmod(i, 2)
            if i and not side:
                a, b = next(pairs)
            first, second = (agents[a], agents[b]) if side == 0 else (agents[b], agents[a])
            yield PlannedGame(
                index=i,
                seed=game_seed(seed, deal),
                seats=(first,) * half + (second,) * (players - half),
                lineup=f"{agents[a]}+{agents[b]}",
                rotation=side,
            )
        return
    # Combinations are produced on demand and cycled: a large pool has very many of them.
    count = math.comb(len(agents), players)
    combos = _cycled_combinations(agents, players)
    if fmt == "round-robin" and players == 2:
        pairs = _cycled_combinations(tuple(range(len(agents))), 2)
        for i in range(games):
            a, b = next(pairs)
            pair: tuple[str, ...] = (agents[a], agents[b])
            r = first_seat(len(agents), a, b, i // count)
            yield PlannedGame(
                index=i,
                seed=game_seed(seed, i),
                seats=rotate(pair, r),
                lineup="+".join(pair),
                rotation=r,
            )
        return
    if fmt == "round-robin":
        for i in range(games):
            combo = next(combos)
            r = (i // count) % players
            yield PlannedGame(
                index=i,
                seed=game_seed(seed, i),
                seats=rotate(combo, r),
                lineup="+".join(combo),
                rotation=r,
            )
        return
    combo = next(combos)
    for i in range(games):
        deal, r = divmod(i, players)
        if i and not r:
            combo = next(combos)
        yield PlannedGame(
            index=i,
            seed=game_seed(seed, deal),
            seats=rotate(combo, r),
            lineup="+".join(combo),
            rotation=r,
        )


def _cycled_combinations(agents: tuple[T, ...], k: int) -> Iterator[tuple[T, ...]]:
    """Every k-combination of `agents` in `itertools.combinations` order, over and over."""
    while True:
        yield from itertools.combinations(agents, k)


def check_suite(
    games: Sequence[tuple[str, tuple[int, ...]]], agents: tuple[str, ...], matches: int
) -> None:
    """Raise `ScheduleError` unless this suite can be scheduled (nothing is built)."""
    if not games:
        raise ScheduleError("a suite needs at least one game")
    if matches < 1:
        raise ScheduleError("a suite needs at least one match per game")
    if len(agents) < 2:
        raise ScheduleError("a suite seats two agents a match: --agents needs at least 2")
    if len(set(agents)) != len(agents):
        raise ScheduleError("each agent may be listed only once")
    for name, sides in games:
        if sorted(set(sides)) != [0, 1]:
            raise ScheduleError(f"{name}: a suite game has two sides (got {list(sides)})")


def iter_suite(
    games: Sequence[tuple[str, tuple[int, ...]]],
    agents: tuple[str, ...],
    matches: int,
    seed: int,
) -> Iterator[PlannedGame]:
    """Every match of a suite, in playing order (see the module docstring): `games` gives
    each game's name and the side (0 or 1) of each of its seats; every pairing of `agents`
    plays `matches` matches in every game."""
    check_suite(games, agents, matches)
    return _suite(games, agents, matches, seed)


def _suite(
    games: Sequence[tuple[str, tuple[int, ...]]],
    agents: tuple[str, ...],
    matches: int,
    seed: int,
) -> Iterator[PlannedGame]:
    pairs = list(itertools.combinations(range(len(agents)), 2))
    index = 0
    for match in range(matches):
        deal, side = divmod(match, 2)
        if match == matches - 1 and side == 0:
            # The last deal of an odd count is played once: its seed draws the side.
            side = chance(seed, "suite-side", deal).randrange(2)
        for p, (a, b) in enumerate(pairs):
            first, second = (agents[a], agents[b]) if side == 0 else (agents[b], agents[a])
            for g, (name, sides) in enumerate(games):
                number = (deal * len(pairs) + p) * len(games) + g
                yield PlannedGame(
                    index=index,
                    seed=game_seed(seed, number),
                    seats=tuple(first if s == 0 else second for s in sides),
                    lineup=f"{agents[a]}+{agents[b]}",
                    rotation=side,
                    game=name,
                )
                index += 1
