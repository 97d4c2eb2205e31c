"""A league as a projection: its state folded from its stored facts, and its live table.

The table is recomputed from the stored games every time, with the same functions
`cattle ratings` uses, so it always equals what that command says of the league's games
(`--tournament LEAGUE --game GAME`): per game, TrueSkill (`ratings.rate`) and Bradley-Terry
(`ratings.bradley_terry_table`) of the seat specs; overall, the same two methods over every
game of the league with each seat named by its league agent (TrueSkill in game-id order,
Bradley-Terry as a suite, every game weighing the same).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import msgspec

from events.league import (
    AgentEntry,
    AnyLeagueEvent,
    CalibrationOpened,
    LeagueConfigured,
    Match,
    PersonQueued,
    RoundChosen,
)

OVERALL = "overall"
"""The name of the table over every game of a league."""


class LeagueState(msgspec.Struct, kw_only=True):
    """What a league's facts say: its configuration now, its newcomers, its rounds."""

    config: LeagueConfigured | None = None
    configs: list[LeagueConfigured] = msgspec.field(default_factory=list)
    calibrations: dict[str, CalibrationOpened] = msgspec.field(default_factory=dict)
    rounds: list[RoundChosen] = msgspec.field(default_factory=list)
    identity: dict[str, dict[str, str]] = msgspec.field(default_factory=dict)
    """game -> stored seat agent (the spec's identity) -> league agent name."""
    people: dict[str, AgentEntry] = msgspec.field(default_factory=dict)
    """The people who came through the browser's queue, by name."""
    queue: list[PersonQueued] = msgspec.field(default_factory=list)
    """Every time a person waited, in order (each seated by the round after it)."""

    @property
    def next_round(self) -> int:
        """The number of the round to choose next."""
        return len(self.rounds)

    @property
    def matches(self) -> list[Match]:
        """Every match chosen, in order."""
        return [m for r in self.rounds for m in r.matches]

    @property
    def scheduled(self) -> int:
        """Games scheduled so far (the next game's schedule index)."""
        return sum(len(m.rotations) for m in self.matches)

    def agent(self, name: str) -> AgentEntry | None:
        """The agent `name` as the configuration now gives it."""
        if name in self.people:
            return self.people[name]
        if self.config is None:
            return None
        return next((a for a in self.config.agents if a.name == name), None)

    def everyone(self) -> list[AgentEntry]:
        """The configured agents, then the people."""
        return [*(self.config.agents if self.config else ()), *self.people.values()]

    def round_of(self, index: int) -> int:
        """The round that scheduled game number `index`."""
        for r in self.rounds:
            for m in r.matches:
                if m.first <= index < m.first + len(m.rotations):
                    return r.round
        raise KeyError(index)


def fold(events: Sequence[AnyLeagueEvent]) -> LeagueState:
    """The state of a league after its facts `events`."""
    state = LeagueState()
    for e in events:
        match e:
            case LeagueConfigured():
                state.config = e
                state.configs.append(e)
                for a in e.agents:
                    for game, stored in a.seats.items():
                        state.identity.setdefault(game, {})[stored] = a.name
            case CalibrationOpened():
                state.calibrations[e.agent] = e
            case PersonQueued():
                old = state.people.get(e.name)
                specs = {**(old.specs if old else {}), e.game: e.spec}
                seats = {**(old.seats if old else {}), e.game: e.agent}
                state.people[e.name] = AgentEntry(
                    name=e.name,
                    specs=specs,
                    seats=seats,
                    person=True,
                    secret_sha256=e.secret_sha256,
                )
                state.queue.append(e)
                state.identity.setdefault(e.game, {})[e.agent] = e.name
            case RoundChosen():
                state.rounds.append(e)
    return state


# ---------------------------------------------------------------------------- table


class Row(msgspec.Struct, kw_only=True):
    """One agent's line of a league table (one game, or overall)."""

    agent: str
    """The league agent's name."""
    seat_agent: str
    """What its seats are stored as (per game; the name again overall)."""
    mu: float
    sigma: float
    bt: float | None = None
    bt_p5: float | None = None
    bt_p95: float | None = None
    games: int = 0
    decisions: int = 0
    """Model decisions (0 for code agents)."""
    error_rate: float | None = None
    """Share of decisions whose model call failed (outcomes error, timeout, refused)."""
    fallback_rate: float | None = None
    """Share of decisions whose answer was not played as given (every outcome but ok and
    repaired)."""
    cost_per_game: float | None = None
    """Model cost per game played, at the agent's price (None: no price or no calls)."""


class Table(msgspec.Struct, kw_only=True):
    """A league's table: one list of rows per game, and overall."""

    league: str
    games: int
    """Finished games rated."""
    tables: dict[str, list[Row]]


def _labels(state: LeagueState, game: str) -> dict[str, str]:
    return state.identity.get(game, {})


def _usage(
    store: Any, league: str, exclude: frozenset[str] = frozenset()
) -> dict[tuple[str, str], dict[str, float]]:
    """(game, seat agent) -> decisions, errors, fallbacks, input and output tokens, provider
    and model of the league's model seats."""
    out: dict[tuple[str, str], dict[str, Any]] = defaultdict(
        lambda: dict.fromkeys(("decisions", "errors", "fallbacks", "tin", "tout"), 0)
    )
    _, rows = store.query(
        "SELECT o.game, o.agent, sum(o.decisions), sum(o.error + o.timeout + o.refused),"
        " sum(o.decisions - o.ok - o.repaired) FROM llm_outcomes o"
        " JOIN games g USING (game_id) WHERE o.tournament = ? AND g.status = 'finished'"
        " AND NOT list_contains(?::VARCHAR[], o.game_id) GROUP BY ALL",
        [league, sorted(exclude)],
    )
    for game, agent, decisions, errors, fallbacks in rows:
        d = out[(game, agent)]
        d["decisions"], d["errors"], d["fallbacks"] = decisions, errors, fallbacks
    _, rows = store.query(
        "SELECT g.game, u.agent, any_value(u.provider), any_value(u.model),"
        " sum(u.input_tokens), sum(u.output_tokens) FROM llm_usage u"
        " JOIN games g USING (game_id) WHERE u.tournament = ? AND g.status = 'finished'"
        " AND NOT list_contains(?::VARCHAR[], u.game_id) GROUP BY ALL",
        [league, sorted(exclude)],
    )
    for game, agent, provider, model, tin, tout in rows:
        d = out[(game, agent)]
        d["tin"], d["tout"] = int(tin or 0), int(tout or 0)
        d["provider"], d["model"] = provider, model
    return out


def _cost(entry: AgentEntry | None, usage: dict[str, Any]) -> float | None:
    from projections.costs import cost, price_for

    price = entry.price if entry is not None and entry.price is not None else None
    if price is None and usage.get("provider"):
        price = price_for(str(usage["provider"]), str(usage["model"]), {})
    if price is None or not (usage["tin"] or usage["tout"]):
        return None
    return cost(int(usage["tin"]), int(usage["tout"]), price)


def _matches(
    store: Any, league: str, game: str, exclude: frozenset[str]
) -> list[dict[str, object]]:
    """`ratings.load_matches` of one game of the league, without the games `exclude` names."""
    from projections.ratings import match_records, scored_games, team_games

    _, rows = store.query(
        "SELECT r.game_id, r.game, r.seat, r.agent, r.rank, r.score"
        " FROM results r JOIN games g USING (game_id) WHERE g.status = 'finished'"
        " AND g.game = ? AND g.tournament = ? ORDER BY r.game_id, r.seat",
        [game, league],
    )
    rows = [r for r in rows if r[0] not in exclude]
    names = [r[1] for r in rows]
    return match_records(rows, scored_games(names), team_games(names))


def table(
    store: Any,
    league: str,
    state: LeagueState,
    *,
    samples: int = 1000,
    seed: int = 0,
    exclude: frozenset[str] = frozenset(),
) -> Table:
    """The league's table from its stored games (see the module's docstring), leaving out
    the games `exclude` names (the viewer's: games whose deal is still in play)."""
    from projections.ratings import SeatResult, bradley_terry_table, load_results, rate

    usage = _usage(store, league, exclude)
    tables: dict[str, list[Row]] = {}
    everything: list[SeatResult] = []
    records: list[dict[str, object]] = []
    per_agent: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    played: dict[str, set[str]] = defaultdict(set)
    games = sorted(state.identity)
    for game in games:
        labels = _labels(state, game)
        results = [r for r in load_results(store, league, game) if r.game_id not in exclude]
        if not results:
            continue
        rated = rate(results, shuffles=0)
        bt = {
            r.agent: r
            for r in bradley_terry_table(
                _matches(store, league, game, exclude), samples=samples, seed=seed
            )
        }
        seats: dict[str, set[str]] = defaultdict(set)
        for r in results:
            seats[r.agent].add(r.game_id)
        rows = []
        for t in rated:
            name = labels.get(t.agent, t.agent)
            u = usage.get((game, t.agent))
            n_games = len(seats[t.agent])
            row = Row(agent=name, seat_agent=t.agent, mu=t.mu, sigma=t.sigma, games=n_games)
            b = bt.get(t.agent)
            if b is not None:
                row.bt, row.bt_p5, row.bt_p95 = b.mean, b.p5, b.p95
            if u is not None and u["decisions"]:
                row.decisions = int(u["decisions"])
                row.error_rate = u["errors"] / u["decisions"]
                row.fallback_rate = u["fallbacks"] / u["decisions"]
                spent = _cost(state.agent(name), u)
                if spent is not None:
                    row.cost_per_game = spent / n_games
                    per_agent[name]["cost"] += spent
                for key in ("decisions", "errors", "fallbacks"):
                    per_agent[name][key] += u[key]
            played[name] |= seats[t.agent]
            rows.append(row)
        tables[game] = rows
        everything += [
            msgspec.structs.replace(r, agent=labels.get(r.agent, r.agent)) for r in results
        ]
        for rec in _matches(store, league, game, exclude):
            records.append(dict(_relabel(rec, labels)))
    if everything:
        # Overall: the league's agents across its games (TrueSkill in game-id order).
        everything.sort(key=lambda r: (r.game_id, r.seat))
        rated = rate(everything, shuffles=0)
        bt_all = {
            r.agent: r
            for r in bradley_terry_table(records, samples=samples, seed=seed, suite=False)
        }
        rows = []
        for t in rated:
            a = per_agent.get(t.agent, {})
            n_games = len(played[t.agent])
            row = Row(agent=t.agent, seat_agent=t.agent, mu=t.mu, sigma=t.sigma, games=n_games)
            b = bt_all.get(t.agent)
            if b is not None:
                row.bt, row.bt_p5, row.bt_p95 = b.mean, b.p5, b.p95
            if a.get("decisions"):
                row.decisions = int(a["decisions"])
                row.error_rate = a["errors"] / a["decisions"]
                row.fallback_rate = a["fallbacks"] / a["decisions"]
                if "cost" in a:
                    row.cost_per_game = a["cost"] / n_games
            rows.append(row)
        tables[OVERALL] = rows
    n = len({r.game_id for r in everything})
    return Table(league=league, games=n, tables=tables)


def _relabel(record: dict[str, object], labels: dict[str, str]) -> list[tuple[str, object]]:
    return [(k if k == "game" else labels.get(k, k), v) for k, v in record.items()]


# ---------------------------------------------------------------------------- calibration


def calibration_path(
    store: Any, league: str, state: LeagueState, agent: str
) -> dict[str, list[tuple[float, float]]]:
    """game -> the newcomer's TrueSkill (mu, sigma) from the prior and after each of its
    calibration games, in order, against the reference ratings frozen when it joined (only
    the newcomer's rating moves, as in a frozen reference pool)."""
    from projections.ratings import environment, group_games, load_results

    opened = state.calibrations.get(agent)
    if opened is None:
        return {}
    env = environment()
    _, rows = store.query(
        "SELECT idx, game_id FROM tournament_games WHERE tournament = ?", [league]
    )
    current = dict(rows)
    out: dict[str, list[tuple[float, float]]] = {}
    for game, frozen in opened.frozen.items():
        labels = _labels(state, game)
        chosen = [
            current[m.first + k]
            for m in state.matches
            if m.calibration and m.game == game and agent in m.lineup
            for k in range(len(m.rotations))
            if m.first + k in current
        ]
        wanted = set(chosen)
        by_game = {
            g[0].game_id: g
            for g in group_games(load_results(store, league, game))
            if g[0].game_id in wanted
        }
        rating = env.create_rating()
        path = [(rating.mu, rating.sigma)]
        for gid in chosen:
            seats = by_game.get(gid)
            if seats is None:
                continue  # not finished (yet)
            groups = []
            for r in seats:
                name = labels.get(r.agent, r.agent)
                if name == agent:
                    groups.append((rating,))
                else:
                    mu, sigma = frozen.get(name, (env.mu, env.sigma))
                    groups.append((env.create_rating(mu=mu, sigma=sigma),))
            new = env.rate(groups, ranks=[r.rank - 1 for r in seats])
            mine = [
                g[0]
                for g, r in zip(new, seats, strict=True)
                if labels.get(r.agent, r.agent) == agent
            ]
            rating = mine[0]
            path.append((rating.mu, rating.sigma))
        out[game] = path
    return out
