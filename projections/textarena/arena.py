"""MindGames' arena over stored TextArena games: TrueSkill per game and per track with its
trajectory, the error attribution lens, and role analysis.

Everything here is a projection of the stored events (through the `textarena_*` SQL views and
the generic `results` view): nothing is stored, and a changed definition is rebuilt from the
logs. TrueSkill is the project's (projections.ratings): each game is a free-for-all of its
seats ranked by reward, games fed in game-id order (a tournament's schedule order).
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import msgspec

from engine.textarena.mindgames import TRACKS
from projections.ratings import SeatResult, environment, trueskill_ratings

_TRACK_OF = {game: track for track, games in TRACKS.items() for game in games}


class ArenaSeat(msgspec.Struct, frozen=True, kw_only=True):
    """One seat of one finished TextArena game, with what the lens needs."""

    game_id: str
    preset: str
    """The MindGames game (or the environment id for other TextArena games)."""
    seat: int
    agent: str
    reward: float
    rank: int
    role: str
    actions: int
    invalid_moves: int
    actions_before_first_error: int | None
    ended_by_error: bool
    won: bool
    won_after_opponent_error: bool

    @property
    def track(self) -> str:
        """The competition track of the game ("other" outside MindGames' four)."""
        return _TRACK_OF.get(self.preset, "other")


CODENAMES_ROLES = ("red spymaster", "red operative", "blue spymaster", "blue operative")
"""The role of each Codenames seat (TextArena's game info names only the player): seats 0 and
1 are the red team, 2 and 3 the blue one; the first of each team gives the clues."""


def role_of(preset: str, seat: int, role: str) -> str:
    """A seat's role for the analysis: TextArena's (Secret Mafia), the seat's fixed part in
    Codenames, else the player name TextArena gives."""
    if preset == "codenames" and 0 <= seat < len(CODENAMES_ROLES):
        return CODENAMES_ROLES[seat]
    return role


_SELECT = (
    "SELECT t.game_id, coalesce(t.preset, t.env_id), e.seat, r.agent, r.score, r.rank,"
    " coalesce(ro.role, ''), e.actions, e.invalid_moves, e.actions_before_first_error,"
    " e.ended_by_error, e.won, e.won_after_opponent_error"
    " FROM textarena_games t JOIN games g USING (game_id)"
    " JOIN textarena_errors e USING (game_id)"
    " JOIN results r ON r.game_id = e.game_id AND r.seat = e.seat"
    " LEFT JOIN textarena_roles ro ON ro.game_id = e.game_id AND ro.seat = e.seat"
    " WHERE g.status = 'finished'"
)


def load(store: Any, tournament: str | None = None) -> list[ArenaSeat]:
    """Every seat of the finished TextArena games (of one tournament, or all), in game order."""
    if tournament is None:
        return load_where(store.con, "TRUE", [])
    return load_where(store.con, "g.tournament = ?", [tournament])


def load_where(con: Any, where: str, params: Sequence[Any]) -> list[ArenaSeat]:
    """Every seat of the finished TextArena games meeting a SQL condition (over `t`, the
    `textarena_games` row, and `g`, the `games` row), in game order."""
    rows = con.execute(
        f"{_SELECT} AND ({where}) ORDER BY t.game_id, e.seat", list(params)
    ).fetchall()
    return [
        ArenaSeat(
            game_id=gid,
            preset=preset,
            seat=seat,
            agent=agent,
            reward=float(score),
            rank=int(rank),
            role=role_of(preset, int(seat), role),
            actions=int(acts),
            invalid_moves=int(bad),
            actions_before_first_error=None if before is None else int(before),
            ended_by_error=bool(ended),
            won=bool(won),
            won_after_opponent_error=bool(after),
        )
        for gid, preset, seat, agent, score, rank, role, acts, bad, before, ended, won, after in rows
    ]


class Rated(msgspec.Struct, frozen=True, kw_only=True):
    """An agent's TrueSkill in one group of games (a game or a track)."""

    group: str
    agent: str
    mu: float
    sigma: float
    seats: int


def _games(seats: Sequence[ArenaSeat]) -> list[list[SeatResult]]:
    games: dict[str, list[SeatResult]] = {}
    for s in seats:
        games.setdefault(s.game_id, []).append(
            SeatResult(s.game_id, s.seat, s.agent, s.reward, s.rank, 0)
        )
    return list(games.values())


def trueskill_by(seats: Sequence[ArenaSeat], by: str = "game") -> list[Rated]:
    """TrueSkill of every agent per game (`by="game"`) or per track (`by="track"`), best μ
    first within each group."""
    groups: dict[str, list[ArenaSeat]] = defaultdict(list)
    for s in seats:
        groups[s.preset if by == "game" else s.track].append(s)
    out = []
    for group in sorted(groups):
        members = groups[group]
        ratings = trueskill_ratings(_games(members), environment())
        counts: dict[str, int] = defaultdict(int)
        for s in members:
            counts[s.agent] += 1
        rows = [
            Rated(group=group, agent=a, mu=r.mu, sigma=r.sigma, seats=counts[a])
            for a, r in ratings.items()
        ]
        out.extend(sorted(rows, key=lambda x: (-x.mu, x.agent)))
    return out


def trajectory(seats: Sequence[ArenaSeat], group: str, by: str = "game") -> list[list[float]]:
    """μ of each agent after each game of one group: rows of [game number, μ per agent in
    sorted agent order] (an agent not seen yet keeps the prior μ)."""
    members = [s for s in seats if (s.preset if by == "game" else s.track) == group]
    agents = sorted({s.agent for s in members})
    env = environment()
    rows = []
    ratings: dict[str, Any] = {}
    for n, game in enumerate(_games(members), start=1):
        ratings = trueskill_ratings([game], env, ratings)
        rows.append([float(n), *(ratings[a].mu if a in ratings else env.mu for a in agents)])
    return rows


def trajectories(seats: Sequence[ArenaSeat], by: str = "game") -> dict[str, dict[str, Any]]:
    """Every group's trajectory: {group: {"agents": [...], "rows": trajectory rows}}."""
    groups = sorted({s.preset if by == "game" else s.track for s in seats})
    return {
        g: {
            "agents": sorted(
                {s.agent for s in seats if (s.preset if by == "game" else s.track) == g}
            ),
            "rows": trajectory(seats, g, by),
        }
        for g in groups
    }


class ErrorLens(msgspec.Struct, frozen=True, kw_only=True):
    """One agent's errors in one game: TextArena's verdicts on its actions and what they did."""

    game: str
    agent: str
    seats: int
    invalid_rate: float
    """Invalid moves over actions sent."""
    ended_by_error: float
    """Share of its seats whose invalid move ended or cost it the game."""
    actions_before_first_error: float | None
    """Mean number of its own actions before its first invalid move (seats with one)."""
    win_rate: float
    wins_after_opponent_error: float
    """Share of its seats that won in a game where an opponent's error (a seat of another
    team) cost that seat the game."""


def error_lens(seats: Sequence[ArenaSeat]) -> list[ErrorLens]:
    """The error attribution lens per game and agent."""
    groups: dict[tuple[str, str], list[ArenaSeat]] = defaultdict(list)
    for s in seats:
        groups[(s.preset, s.agent)].append(s)
    out = []
    for (game, agent), ss in sorted(groups.items()):
        acts = sum(s.actions for s in ss)
        before = [
            s.actions_before_first_error for s in ss if s.actions_before_first_error is not None
        ]
        out.append(
            ErrorLens(
                game=game,
                agent=agent,
                seats=len(ss),
                invalid_rate=sum(s.invalid_moves for s in ss) / acts if acts else 0.0,
                ended_by_error=sum(s.ended_by_error for s in ss) / len(ss),
                actions_before_first_error=statistics.fmean(before) if before else None,
                win_rate=sum(s.won for s in ss) / len(ss),
                wins_after_opponent_error=sum(s.won_after_opponent_error for s in ss) / len(ss),
            )
        )
    return out


class RoleLine(msgspec.Struct, frozen=True, kw_only=True):
    """One agent in one role of one game: how often it held it, its mean reward, its wins."""

    game: str
    role: str
    agent: str
    seats: int
    mean_reward: float
    win_rate: float


def roles(seats: Sequence[ArenaSeat]) -> list[RoleLine]:
    """Role analysis for the games that deal secret roles (seats named "Player N" have none)."""
    groups: dict[tuple[str, str, str], list[ArenaSeat]] = defaultdict(list)
    for s in seats:
        if s.role and not s.role.startswith("Player "):
            groups[(s.preset, s.role, s.agent)].append(s)
    return [
        RoleLine(
            game=g,
            role=r,
            agent=a,
            seats=len(ss),
            mean_reward=statistics.fmean(s.reward for s in ss),
            win_rate=sum(s.won for s in ss) / len(ss),
        )
        for (g, r, a), ss in sorted(groups.items())
    ]


class RoleAdvantage(msgspec.Struct, frozen=True, kw_only=True):
    """One role of one game over every agent: how often it is dealt, how often it wins, and
    by how much that beats the game's seats as a whole."""

    game: str
    role: str
    seats: int
    share: float
    """The role's share of the game's seats (the role distribution)."""
    win_rate: float
    advantage: float
    """The role's win rate minus the win rate of all the game's seats."""


def role_advantage(seats: Sequence[ArenaSeat]) -> list[RoleAdvantage]:
    """Per game with roles (Codenames, Secret Mafia): each role's distribution, win rate and
    advantage over the game's average seat."""
    by_game: dict[str, list[ArenaSeat]] = defaultdict(list)
    for s in seats:
        if s.role and not s.role.startswith("Player "):
            by_game[s.preset].append(s)
    out = []
    for game, members in sorted(by_game.items()):
        overall = sum(s.won for s in members) / len(members)
        by_role: dict[str, list[ArenaSeat]] = defaultdict(list)
        for s in members:
            by_role[s.role].append(s)
        for role, ss in sorted(by_role.items()):
            rate = sum(s.won for s in ss) / len(ss)
            out.append(
                RoleAdvantage(
                    game=game,
                    role=role,
                    seats=len(ss),
                    share=len(ss) / len(members),
                    win_rate=rate,
                    advantage=rate - overall,
                )
            )
    return out
