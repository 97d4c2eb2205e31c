"""MG-Ref: scoring a new agent offline against a frozen reference pool of MindGames agents.

A pool names, for each of MindGames' four games, the reference agents that fill the seats
the candidate does not hold, and how many deals each game gets. The protocol is
deterministic: for every game, deal and seat, the candidate takes that seat and the pool's
agents the others (in a fixed rotation); every game seed derives from the pool's name, the
game and the deal. The pool's own ratings are frozen: TrueSkill over the pool playing the
same deals among itself (a deterministic computation, so the same every time). The
candidate's TrueSkill per game starts at the prior and moves against those frozen ratings
(the pool's never move), and its games are stored, so the error lens reads them like any.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.textarena.mindgames import PRESETS, TRACKS
from events.config import ConfigError
from projections.ratings import SeatResult, environment, trueskill_ratings
from runner.session import play_and_store, play_game


@dataclass(frozen=True)
class Pool:
    """A frozen reference pool: per game, its agents; the deals per game."""

    name: str
    summary: str
    agents: dict[str, tuple[str, ...]]
    deals: int = 4


POOLS: dict[str, Pool] = {
    "mg-ref-code": Pool(
        name="mg-ref-code",
        summary="The shipped code agents of the four games (no model seats)",
        agents={
            "blotto": ("blotto-concentrate", "blotto-uniform"),
            "ipd3": ("ipd-tft", "ipd-grim", "ipd-defect", "ipd-cooperate"),
            "codenames": (
                "codenames-topics",
                "codenames-random",
                "codenames-topics?stream=1",
                "codenames-random?stream=1",
            ),
            "mafia": (
                "mafia-accuser",
                "mafia-random",
                "random",
                "mafia-accuser?stream=1",
                "mafia-random?stream=1",
                "random?stream=1",
            ),
        },
    ),
}
"""The shipped pools by name."""


def game_seed(pool: Pool, game: str, deal: int) -> int:
    """The seed of one deal of one game of the pool."""
    return random.Random(f"mgref:{pool.name}:{game}:{deal}").randrange(2**31)


def lineup(pool: Pool, game: str, deal: int, seat: int, candidate: str | None) -> list[str]:
    """The seats of one game: `candidate` at `seat` (a pool agent there when None), pool
    agents elsewhere, rotating with the deal and the seat."""
    players = PRESETS[game].players
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


@functools.cache
def frozen(pool_name: str) -> dict[str, dict[str, Any]]:
    """The pool's frozen TrueSkill per game (agent -> rating), from the pool's own deals."""
    pool = POOLS[pool_name]
    out = {}
    for game in pool.agents:
        games = []
        for deal in range(pool.deals):
            for seat in range(PRESETS[game].players):
                seats = lineup(pool, game, deal, seat, None)
                record = play_game(PRESETS[game], game_seed(pool, game, deal), seats)
                games.append(_results(f"{game}:{deal}:{seat}", seats, record))
        out[game] = trueskill_ratings(games, environment())
    return out


@dataclass(frozen=True)
class Score:
    """The candidate's TrueSkill in one game (or track), with the pool's frozen ones."""

    group: str
    mu: float
    sigma: float
    games: int
    pool: dict[str, tuple[float, float]]


def plays(candidate: str, game: str) -> bool:
    """True when the candidate agent takes a seat of `game` (a game's own code agents refuse
    the others)."""
    from agents import make_agent

    try:
        make_agent(candidate, 0, 0, PRESETS[game])
    except ConfigError:
        return False
    return True


def score(store: Any, pool_name: str, candidate: str) -> tuple[list[Score], list[str]]:
    """Play the candidate's deals against the pool in every game it plays, store them; its
    scores per game and per track, and the ids of the stored games."""
    pool = POOLS[pool_name]
    env = environment()
    ratings = frozen(pool_name)
    ids: list[str] = []
    per_game: dict[str, Any] = {}
    per_track: dict[str, Any] = {}
    counts: dict[str, int] = {}
    track_of = {g: t for t, gs in TRACKS.items() for g in gs}
    for game in [g for g in pool.agents if plays(candidate, g)]:
        mine = env.create_rating()
        track = track_of[game]
        mine_track = per_track.get(track, env.create_rating())
        for deal in range(pool.deals):
            for seat in range(PRESETS[game].players):
                seats = lineup(pool, game, deal, seat, candidate)
                gid, record = play_and_store(
                    store, PRESETS[game], game_seed(pool, game, deal), seats
                )
                ids.append(gid)
                ranks = [int(r) - 1 for r in record.result.ranks]
                for current, key in ((mine, "game"), (mine_track, "track")):
                    groups = [
                        (current,) if i == seat else (ratings[game].get(a, env.create_rating()),)
                        for i, a in enumerate(seats)
                    ]
                    new = env.rate(groups, ranks=ranks)[seat][0]
                    if key == "game":
                        mine = new
                    else:
                        mine_track = new
        per_game[game] = mine
        per_track[track] = mine_track
        counts[game] = pool.deals * PRESETS[game].players
        counts[track] = counts.get(track, 0) + counts[game]
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
        for t, r in per_track.items()
    ]
    return out, ids
