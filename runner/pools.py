"""Frozen reference pools: scoring a new agent against stored reference agents whose
ratings never move, so that scores taken on different days are comparable.

A pool names, for each of its games (a game string the catalogue resolves, with an optional
`@PRESET`: `cattle-trade@micro-duel`, `gtbench:kuhn_poker`), the reference agents that fill
the seats the candidate does not hold, and how many deals each game gets. The protocol is
deterministic: for every game, deal and seat, the candidate takes that seat and the pool's
agents the others (in a fixed rotation); every game seed derives from the pool's name, the
game and the deal through `random.Random(text)` (no `hash()` of strings). The pool's own
ratings are frozen: TrueSkill over the pool playing the same deals among itself (the same
numbers every time). The candidate's TrueSkill per game starts at the prior and moves
against those frozen ratings (the pool's never move), and its games are stored.

Each family declares its pools through its game definition: `extras["pools"]` names a
module (imported only when pools are asked for) whose `pools()` returns them.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from events import catalog
from events.config import ConfigError
from projections.ratings import SeatResult, environment, trueskill_ratings
from runner.session import play_and_store, play_game


class PoolError(ValueError):
    """An unknown pool, or a candidate that plays none of its games (one line)."""


@dataclass(frozen=True)
class Pool:
    """A frozen reference pool: per game string, its reference agents; the deals per game."""

    name: str
    summary: str
    agents: Mapping[str, tuple[str, ...]]
    deals: int = 4

    def config(self, game: str) -> Any:
        """The configuration of one of the pool's games (`NAME` or `NAME@PRESET`)."""
        name, _, preset = game.partition("@")
        gdef, config = catalog.resolve(name)
        if config is None:
            config = gdef.preset(preset or gdef.default_preset)
        return config

    def group(self, game: str) -> str | None:
        """A second grouping of games whose candidate ratings are also reported (a
        competition's tracks); None: only per game."""
        return None

    def key(self) -> tuple[Any, ...]:
        """What the frozen ratings depend on."""
        return (
            type(self).__module__,
            type(self).__qualname__,
            self.name,
            tuple(self.agents.items()),
            self.deals,
        )


def game_seed(pool: Pool, game: str, deal: int) -> int:
    """The seed of one deal of one game of the pool."""
    return random.Random(f"mgref:{pool.name}:{game}:{deal}").randrange(2**31)


def lineup(pool: Pool, game: str, deal: int, seat: int, candidate: str | None) -> list[str]:
    """The seats of one game: `candidate` at `seat` (a pool agent there when None), pool
    agents elsewhere, rotating with the deal and the seat."""
    players = pool.config(game).players
    ref = pool.agents[game]
    out = []
    k = deal + seat
    for s in range(players):
        if s == seat and candidate is not None:
            out.append(candidate)
        else:
            out.append(ref[k % len(ref)])
            k += 1
    return out


def _results(game_id: str, seats: Sequence[str], record: Any) -> list[SeatResult]:
    result = record.result
    return [
        SeatResult(game_id, i, a, float(result.scores[i]), int(result.ranks[i]), 0)
        for i, a in enumerate(seats)
    ]


def pool_ratings(pool: Pool) -> dict[str, dict[str, Any]]:
    """The pool's TrueSkill per game (agent -> rating), from the pool's own deals (computed
    afresh; `frozen` keeps it)."""
    out = {}
    for game in pool.agents:
        config = pool.config(game)
        games = []
        for deal in range(pool.deals):
            for seat in range(config.players):
                seats = lineup(pool, game, deal, seat, None)
                record = play_game(config, game_seed(pool, game, deal), seats)
                games.append(_results(f"{game}:{deal}:{seat}", seats, record))
        out[game] = trueskill_ratings(games, environment())
    return out


_FROZEN: dict[tuple[Any, ...], dict[str, dict[str, Any]]] = {}


def frozen(pool: Pool) -> dict[str, dict[str, Any]]:
    """The pool's frozen TrueSkill per game, computed once per process."""
    key = pool.key()
    if key not in _FROZEN:
        _FROZEN[key] = pool_ratings(pool)
    return _FROZEN[key]


@dataclass(frozen=True)
class Score:
    """The candidate's TrueSkill in one game (or group), with the pool's frozen ones."""

    group: str
    mu: float
    sigma: float
    games: int
    pool: dict[str, tuple[float, float]]


def refusal(pool: Pool, candidate: str, game: str) -> str | None:
    """Why the candidate cannot take a seat of `game` (a game's own code agents refuse the
    others; an unknown spec is refused everywhere); None when it can."""
    from agents import make_agent

    try:
        make_agent(candidate, 0, 0, pool.config(game))
    except (ConfigError, ValueError) as exc:
        return str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return None


def _rate(
    env: Any,
    pool: Mapping[str, Any],
    seats: Sequence[str],
    seat: int,
    ranks: list[int],
    current: Any,
) -> Any:
    """The candidate's rating after one game, the pool's frozen ratings around it."""
    groups = [
        (current,) if i == seat else (pool.get(a, env.create_rating()),)
        for i, a in enumerate(seats)
    ]
    return env.rate(groups, ranks=ranks)[seat][0]


def score(
    store: Any, pool: Pool, candidate: str, ratings: Mapping[str, Mapping[str, Any]] | None = None
) -> tuple[list[Score], list[str]]:
    """Play the candidate's deals against the pool in every game it plays and store them;
    its scores per game (and per group), and the ids of the stored games. `PoolError` when
    it plays none of the pool's games."""
    env = environment()
    ratings = frozen(pool) if ratings is None else ratings
    ids: list[str] = []
    per_game: dict[str, Any] = {}
    per_group: dict[str, Any] = {}
    counts: dict[str, int] = {}
    reasons = {g: refusal(pool, candidate, g) for g in pool.agents}
    games = [g for g, why in reasons.items() if why is None]
    if not games:
        why = next(iter(reasons.values()), None) or "the pool has no games"
        raise PoolError(f"agent {candidate[:60]!r} plays none of pool {pool.name}'s games: {why}")
    for game in games:
        config = pool.config(game)
        mine = env.create_rating()
        group = pool.group(game)
        mine_group = per_group[group] if group in per_group else env.create_rating()
        for deal in range(pool.deals):
            for seat in range(config.players):
                seats = lineup(pool, game, deal, seat, candidate)
                gid, record = play_and_store(store, config, game_seed(pool, game, deal), seats)
                ids.append(gid)
                ranks = [int(r) - 1 for r in record.result.ranks]

                mine = _rate(env, ratings[game], seats, seat, ranks, mine)
                if group is not None:
                    mine_group = _rate(env, ratings[game], seats, seat, ranks, mine_group)
        per_game[game] = mine
        counts[game] = pool.deals * config.players
        if group is not None:
            per_group[group] = mine_group
            counts[group] = counts.get(group, 0) + counts[game]
    out = [
        Score(
            group=g,
            mu=r.mu,
            sigma=r.sigma,
            games=counts[g],
            pool={a: (x.mu, x.sigma) for a, x in ratings[g].items()},
        )
        for g, r in per_game.items()
    ]
    out += [
        Score(group=t, mu=r.mu, sigma=r.sigma, games=counts[t], pool={})
        for t, r in per_group.items()
    ]
    return out, ids


def declared() -> dict[str, Pool]:
    """Every pool the games on the core declare (`extras["pools"]`), by name; the first
    declaration of a name wins."""
    found: dict[str, Pool] = {}
    modules: list[str] = []
    for game in catalog.loaded():
        path = game.extras.get("pools")
        if isinstance(path, str) and path not in modules:
            modules.append(path)
    for path in modules:
        pools: Iterable[Pool] = importlib.import_module(path).pools()
        for p in pools:
            found.setdefault(p.name, p)
    return found


def find(name: str) -> Pool:
    """The pool named `name`; `PoolError` (one line, listing the pools) when unknown."""
    pools = declared()
    if name not in pools:
        raise PoolError(f"unknown pool {name[:60]!r}; known: {', '.join(sorted(pools))}")
    return pools[name]
