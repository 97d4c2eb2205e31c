"""Ratings per agent (TrueSkill, Bradley-Terry, Glicko-2), recomputed from stored games on demand.

Nothing here is stored: the table is a projection of the `scores` view (one row per seat of
every finished game). Each game is a free-for-all between its seats ranked by final score,
with equal scores sharing a rank. TrueSkill depends on the order in which games are fed to
it, so games are taken in a fixed order (by game id, which for a tournament is its schedule
order) and the report says how far each μ moves when that order is shuffled.

When one agent holds several seats of a game (e.g. two trackers), every seat is rated as a
copy of the agent's rating; the agent's μ moves by the sum of its copies' moves (so the
ratings stay on one scale whatever the order) and its σ shrinks by each copy's factor.

Bradley-Terry and Glicko-2 read pairwise match records, made from the `results` view by one
rule for every game: each finished game gives one record per pair of its seats held by
different agents, in which the seat with the better (smaller) rank scores 1 and the other 0,
equal ranks 0.5 each. A two-seat game is one record (win 1, loss 0, draw 0.5); a game of n
seats gives up to n(n-1)/2, each resampled on its own by the bootstrap. Teammates share a
rank, so each member's agent takes its team's result, and are not compared with each other
(a draw, which Bradley-Terry leaves out). Two seats held by one agent are never compared.

Games whose definition says its scores are match scores (`extras["match_scores"]`: each seat's
score in [0, 1], as GameBench scores a match) give records from the scores instead: seats with
scores s_a and s_b make the record a: s_a / (s_a + s_b), b: s_b / (s_a + s_b) (0.5 each when
both are 0), which for two seats is the game's own pair of scores. Games whose definition
names each seat's team (`extras["teams"]`: GameBench's Codenames and Sea Battle) compare seats
of different teams only, one record per two agents on two teams, as GameBench counts a team
game: one match between the agents filling its teams.
"""

from __future__ import annotations

import random
import statistics
import warnings
from collections import defaultdict
from collections.abc import Mapping, Sequence

import msgspec

with warnings.catch_warnings():
    # trueskill's docstrings hold invalid escapes; from Python 3.12 compiling them prints a
    # SyntaxWarning on stderr (each run, where its bytecode cannot be cached).
    warnings.simplefilter("ignore", SyntaxWarning)
    warnings.simplefilter("ignore", DeprecationWarning)
    import trueskill

DRAW_PROBABILITY = 0.01
"""Chance that two seats end with equal scores (measured: mostly two seats at 0 points)."""


def environment() -> trueskill.TrueSkill:
    """The TrueSkill environment used for every rating (default μ 25, σ 25/3)."""
    return trueskill.TrueSkill(draw_probability=DRAW_PROBABILITY)


class SeatResult(msgspec.Struct, frozen=True):
    """One seat of one finished game."""

    game_id: str
    seat: int
    agent: str
    score: float
    """Whole scores are ints (Cattle Trade's always are)."""
    rank: int
    complete_sets: int


class AgentRating(msgspec.Struct, kw_only=True):
    """One agent's line of the ratings table."""

    agent: str
    mu: float
    sigma: float
    conservative: float
    """μ − 3σ."""
    games: int
    """Seats played (an agent holding two seats of one game counts twice)."""
    wins: int
    win_rate: float
    """Share of its seats that finished first (shared first places count)."""
    median_score: float
    score_std: float
    mean_sets: float
    mu_shuffle_spread: float = 0.0
    """Largest |μ − μ in the fixed order| over the reshuffled orders."""
    relative_shuffle_spread: float = 0.0
    """The same for μ measured from the mean μ of all agents: the whole scale can drift with
    the order, the gaps between agents move much less."""


def load_results(
    store: object, tournament: str | None = None, game: str | None = None
) -> list[SeatResult]:
    """Seat results of the finished games (of one tournament, or all; of one game, or all),
    in the fixed order. Complete sets count for Cattle Trade and are 0 elsewhere."""
    sql = (
        "SELECT r.game_id, r.seat, r.agent, r.score, r.rank, coalesce(s.complete_sets, 0)"
        " FROM results r JOIN games g USING (game_id)"
        " LEFT JOIN scores s ON s.game_id = r.game_id AND s.seat = r.seat"
        " WHERE g.status = 'finished'"
    )
    params: list[object] = []
    if game is not None:
        sql += " AND g.game = ?"
        params.append(game)
    if tournament is not None:
        sql += " AND g.tournament = ?"
        params.append(tournament)
    sql += " ORDER BY r.game_id, r.seat"
    _, rows = store.query(sql, params)  # type: ignore[attr-defined]
    return [
        SeatResult(gid, seat, agent, int(score) if score.is_integer() else score, rank, sets)
        for gid, seat, agent, score, rank, sets in rows
    ]


def group_games(results: Sequence[SeatResult]) -> list[list[SeatResult]]:
    """Seat results grouped by game, keeping the order of first appearance."""
    games: dict[str, list[SeatResult]] = {}
    for r in results:
        games.setdefault(r.game_id, []).append(r)
    return list(games.values())


def trueskill_ratings(
    games: Sequence[Sequence[SeatResult]],
    env: trueskill.TrueSkill | None = None,
    start: dict[str, trueskill.Rating] | None = None,
) -> dict[str, trueskill.Rating]:
    """TrueSkill of every agent after feeding `games` in order (from `start`, else the prior)."""
    env = env or environment()
    ratings: dict[str, trueskill.Rating] = dict(start) if start else {}
    for game in games:
        if len(game) < 2:
            continue
        groups = [(ratings.setdefault(r.agent, env.create_rating()),) for r in game]
        ranks = [r.rank - 1 for r in game]
        new = env.rate(groups, ranks=ranks)
        copies: dict[str, list[trueskill.Rating]] = defaultdict(list)
        for r, (rating,) in zip(game, new, strict=True):
            copies[r.agent].append(rating)
        for agent, rs in copies.items():
            if len(rs) == 1:
                ratings[agent] = rs[0]
                continue
            # Several seats of one agent: add up their moves (TrueSkill's free-for-all moves
            # sum to about zero, so the scale does not drift) and shrink σ by each copy's share.
            old = ratings[agent]
            mu = old.mu + sum(x.mu - old.mu for x in rs)
            sigma = old.sigma
            for x in rs:
                sigma *= min(1.0, x.sigma / old.sigma)
            ratings[agent] = env.create_rating(mu=mu, sigma=sigma)
    return ratings


def rate(results: Sequence[SeatResult], *, shuffles: int = 3, seed: int = 0) -> list[AgentRating]:
    """The ratings table, best μ first; `shuffles` reshuffled orders measure order effects."""
    env = environment()
    games = group_games(results)
    base = trueskill_ratings(games, env)
    if not base:
        return []  # no finished game with two or more seats: nothing to rate
    spread: dict[str, float] = dict.fromkeys(base, 0.0)
    relative: dict[str, float] = dict.fromkeys(base, 0.0)
    centre = statistics.fmean(r.mu for r in base.values()) if base else 0.0
    for k in range(shuffles):
        order = list(games)
        random.Random(f"ratings-shuffle:{seed}:{k}").shuffle(order)
        other = trueskill_ratings(order, env)
        other_centre = statistics.fmean(r.mu for r in other.values())
        for agent, rating in other.items():
            spread[agent] = max(spread[agent], abs(rating.mu - base[agent].mu))
            moved = (rating.mu - other_centre) - (base[agent].mu - centre)
            relative[agent] = max(relative[agent], abs(moved))
    by_agent: dict[str, list[SeatResult]] = defaultdict(list)
    for r in results:
        by_agent[r.agent].append(r)
    table = []
    for agent, rating in base.items():
        rs = by_agent[agent]
        scores = [r.score for r in rs]
        wins = sum(r.rank == 1 for r in rs)
        table.append(
            AgentRating(
                agent=agent,
                mu=rating.mu,
                sigma=rating.sigma,
                conservative=rating.mu - 3 * rating.sigma,
                games=len(rs),
                wins=wins,
                win_rate=wins / len(rs),
                median_score=float(statistics.median(scores)),
                score_std=statistics.pstdev(scores) if len(scores) > 1 else 0.0,
                mean_sets=statistics.fmean(r.complete_sets for r in rs),
                mu_shuffle_spread=spread[agent],
                relative_shuffle_spread=relative[agent],
            )
        )
    table.sort(key=lambda a: (-a.mu, a.agent))
    return table


# Pairwise match records: the input of Bradley-Terry and of the generic Glicko-2.


class PairRating(msgspec.Struct, kw_only=True):
    """One agent's line of a Bradley-Terry table."""

    agent: str
    mean: float
    """The bootstrap mean: the rating."""
    p5: float
    p95: float
    point: float
    """The estimate on all records, without resampling."""
    pairs: int
    """Pairwise records the agent is in (ties included)."""


class GlickoRating(msgspec.Struct, kw_only=True):
    """One agent's line of a Glicko-2 table."""

    agent: str
    rating: float
    rd: float
    vol: float
    pairs: int
    wins: int
    draws: int
    losses: int


Row = tuple[str, str, int, str, int] | tuple[str, str, int, str, int, float | None]
"""A seat's result: (game_id, game, seat, agent, rank), and its score for scored games."""


def match_records(
    rows: Sequence[Row],
    scored: frozenset[str] = frozenset(),
    teams: Mapping[str, Sequence[object]] | None = None,
) -> list[dict[str, object]]:
    """Pairwise match records (see the module's docstring) from seat results in game order;
    games named in `scored` are compared by their match scores (the rows' sixth field), and
    games named in `teams` (game -> team of each seat) team against team."""
    records: list[dict[str, object]] = []
    games: dict[str, list[Row]] = {}
    for row in rows:
        games.setdefault(row[0], []).append(row)
    for seats in games.values():
        met: set[tuple[object, ...]] = set()
        for k, first in enumerate(seats):
            _, game, seat_a, a, rank_a = first[:5]
            side = teams.get(game) if teams else None
            for second in seats[k + 1 :]:
                b, rank_b = second[3], second[4]
                if a == b:
                    continue
                if side is not None:
                    # One record per two agents on two teams: GameBench counts a team game
                    # as one match between the agents filling its teams.
                    pair = (side[seat_a], side[second[2]], a, b)
                    if pair[0] == pair[1] or pair in met:
                        continue
                    met.add(pair)
                if game in scored:
                    score = _share(first, second)
                else:
                    score = 1.0 if rank_a < rank_b else 0.0 if rank_a > rank_b else 0.5
                records.append({"game": game, a: score, b: 1.0 - score})
    return records


def _share(first: Row, second: Row) -> float:
    """The first seat's part of two match scores (0.5 when both are 0 or missing)."""
    sa = float(first[5] or 0.0) if len(first) > 5 else 0.0
    sb = float(second[5] or 0.0) if len(second) > 5 else 0.0
    return 0.5 if sa + sb <= 0 else sa / (sa + sb)


def scored_games(names: Sequence[str]) -> frozenset[str]:
    """The games among `names` whose stored scores are match scores in [0, 1]."""
    from events import catalog

    found = set()
    for name in set(names):
        try:
            game = catalog.get(name)
        except catalog.UnknownGame:
            continue
        if game.extras.get("match_scores"):
            found.add(name)
    return frozenset(found)


def team_games(names: Sequence[str]) -> dict[str, Sequence[object]]:
    """The team games among `names`, with the team of each seat (`extras["teams"]`)."""
    from events import catalog

    found: dict[str, Sequence[object]] = {}
    for name in set(names):
        try:
            game = catalog.get(name)
        except catalog.UnknownGame:
            continue
        side = game.extras.get("teams")
        if side:
            found[name] = side
    return found


def load_matches(
    store: object, tournament: str | None = None, game: str | None = None
) -> list[dict[str, object]]:
    """Pairwise match records of the finished games (of one tournament or game, or all), in
    game-id order."""
    sql = (
        "SELECT r.game_id, r.game, r.seat, r.agent, r.rank, r.score"
        " FROM results r JOIN games g USING (game_id) WHERE g.status = 'finished'"
    )
    params: list[object] = []
    if game is not None:
        sql += " AND g.game = ?"
        params.append(game)
    if tournament is not None:
        sql += " AND g.tournament = ?"
        params.append(tournament)
    _, rows = store.query(sql + " ORDER BY r.game_id, r.seat", params)  # type: ignore[attr-defined]
    names = [r[1] for r in rows]
    return match_records(rows, scored_games(names), team_games(names))


def _sides(record: dict[str, object]) -> list[tuple[str, float]]:
    return [(k, float(v)) for k, v in record.items() if k != "game"]  # type: ignore[arg-type]


def _pair_counts(records: Sequence[dict[str, object]]) -> dict[str, int]:
    counts: dict[str, int] = defaultdict(int)
    for record in records:
        for agent, _ in _sides(record):
            counts[agent] += 1
    return counts


def bradley_terry_table(
    records: Sequence[dict[str, object]], *, samples: int = 1000, seed: int = 0, suite: bool = False
) -> list[PairRating]:
    """Bradley-Terry ratings of the records' agents, best bootstrap mean first (with `suite`,
    the overall ratings of `bradley_terry.rate_suite`, drawn after every game's own)."""
    from projections import bradley_terry

    if suite and records:
        rated = bradley_terry.rate_suite(records, samples=samples, seed=seed).overall
    else:
        rated = bradley_terry.rate(records, samples=samples, seed=seed)
    counts = _pair_counts(records)
    table = [PairRating(agent=a, pairs=counts[a], **r) for a, r in rated.items()]
    table.sort(key=lambda r: (-r.mean, r.agent))
    return table


def glicko2_table(records: Sequence[dict[str, object]]) -> list[GlickoRating]:
    """Glicko-2 over the records in order (each its own rating period), best rating first."""
    from projections import glicko2

    matches = []
    tally: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for record in records:
        (a, score_a), (b, _) = _sides(record)
        matches.append(glicko2.Match(a, b, score_a))
        for agent, s in ((a, score_a), (b, 1.0 - score_a)):
            tally[agent][0 if s > 0.5 else 1 if s == 0.5 else 2] += 1
    ratings = glicko2.rate_matches(matches)
    table = [
        GlickoRating(
            agent=agent,
            rating=r.rating,
            rd=r.rd,
            vol=r.vol,
            pairs=sum(tally[agent]),
            wins=tally[agent][0],
            draws=tally[agent][1],
            losses=tally[agent][2],
        )
        for agent, r in ratings.items()
    ]
    table.sort(key=lambda r: (-r.rating, r.agent))
    return table
