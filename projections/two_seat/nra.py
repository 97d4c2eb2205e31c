"""Two-seat match metrics: Normalized Relative Advantage (NRA), win/draw/loss, completion
rate and TrueSkill, for any game played by two seats.

Everything is read from the store with SQL: the generic `results` view (one row per seat of
every game, with its score and rank), the `games` table, and the fallback events. A match is
one finished game with exactly two seats (0 and 1); games with another number of seats are
left out and counted.

* NRA of seat i against seat j in one match is (s_i - s_j) / (|s_i| + |s_j|), and 0 when both
  scores are 0. It lies in [-1, 1] and NRA(j, i) = -NRA(i, j).
* An agent pair's NRA in a game is the mean of its matches' NRA; an agent's NRA in a game is
  the mean over its matches against other agents; across games, the mean of the per-game
  means (each game weighs the same).
* Completion rate: the share of an agent's seats (one per match) played without a single
  fallback event, that is without a move that was not the seat's own.
* Intervals are 95% percentile bootstrap intervals over matches, drawn with a numpy
  Generator seeded from the names involved (CRC-32), so the same store gives the same
  intervals; across games the matches are resampled within each game (stratified).

The "game" of a match is its label: for OpenSpiel games the preset name when there is one,
else the OpenSpiel game string; for other games the catalogue name (`games.game`).
docs/nra.md gives the definitions with their reasons.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

import duckdb
import numpy as np
from rich.console import RenderableType

from projections.metrics import tables as T
from projections.metrics.aggregate import Estimate, Selection, seed_for
from projections.ratings import AgentRating, SeatResult, rate

#: Resamples per interval, their most, and the two-sided coverage of the intervals.
RESAMPLES = 1000
MAX_RESAMPLES = 20_000
LEVEL = 0.95
#: Bound on resampled values drawn at once (keeps memory flat for large pairings).
_BLOCK = 4_000_000

FALLBACK_TAGS: tuple[str, ...] = ("fallback_applied", "action_defaulted")
"""Events that record a move played in a seat's place (their `actor` is the seat): the rules'
fallback after a rejected action, and an agent's default when it had no usable answer."""

FALLBACK_VIEWS: tuple[str, ...] = ("openspiel_fallbacks",)
"""Views (game_id, seat, ...) in which a game lists the moves played in a seat's place by
events of its own, when the store has them."""

ALL_GAMES = "all games"
"""The label of aggregates over every game of the selection."""

DEFINITIONS: tuple[tuple[str, int, str], ...] = (
    (
        "nra",
        1,
        "Normalized Relative Advantage of a seat in one two-seat match: (own score - opponent's"
        " score) / (|own score| + |opponent's score|), 0 when both scores are 0; averaged over"
        " the matches of an agent pair in a game, or of an agent against every other agent in"
        " a game; across games, the mean of the per-game means. 95% bootstrap interval over"
        " matches (within each game across games).",
    ),
    (
        "completion_rate",
        1,
        "Share of an agent's matches (one per seat it held) in which no move was played in its"
        " place: no fallback_applied or action_defaulted event names its seat (nor the game's"
        " own fallback events).",
    ),
    (
        "win_draw_loss",
        1,
        "Matches the agent ended with a higher, equal or lower score than its opponent.",
    ),
    (
        "trueskill",
        1,
        "TrueSkill over every match of the selection, all games together, in game id order"
        " (equal scores share a rank).",
    ),
)
"""(name, version, definition) of every metric here."""


# ---------------------------------------------------------------------------- loading


@dataclass(frozen=True)
class Matches:
    """Every two-seat match of a selection, one entry per match, ordered by game id."""

    game_id: tuple[str, ...]
    label: tuple[str, ...]
    agent0: tuple[str, ...]
    agent1: tuple[str, ...]
    score0: np.ndarray
    score1: np.ndarray
    rank0: np.ndarray
    rank1: np.ndarray
    nra0: np.ndarray
    """NRA of seat 0 (seat 1's is its negation), as the SQL computed it."""
    fallback0: np.ndarray
    """True where seat 0 had at least one move played in its place."""
    fallback1: np.ndarray
    skipped: int = 0
    """Finished games of the selection that do not have exactly two seats (or whose scores
    are missing or not finite)."""

    def __len__(self) -> int:
        return len(self.game_id)


def nra(own: float, other: float) -> float:
    """NRA of a seat that scored `own` against one that scored `other` (0 when both are 0)."""
    den = abs(own) + abs(other)
    return 0.0 if den == 0 else (own - other) / den


def _columns(con: duckdb.DuckDBPyConnection, view: str) -> set[str]:
    rows = con.execute(
        "SELECT column_name FROM information_schema.columns"
        " WHERE table_name = ? AND table_schema = 'main'",
        [view],
    ).fetchall()
    return {r[0] for r in rows}


def label_sql(con: duckdb.DuckDBPyConnection) -> tuple[str, str]:
    """(join clause, label expression) of a match's game label, over `games g`."""
    cols = _columns(con, "openspiel_games")
    if "game_string" not in cols:
        return "", "g.game"
    preset = "o.preset, " if "preset" in cols else ""
    return (
        " LEFT JOIN openspiel_games o ON o.game_id = g.game_id",
        f"coalesce({preset}o.game_string, g.game)",
    )


def fallback_tags(con: duckdb.DuckDBPyConnection) -> tuple[str, ...]:
    """The event tags counted as a move played in a seat's place, in this store."""
    return FALLBACK_TAGS


def load_matches(con: duckdb.DuckDBPyConnection, sel: Selection) -> Matches:
    """The two-seat matches of a selection of finished games, with their NRA, from SQL."""
    where, params = sel.where("g.game_id")
    join, label = label_sql(con)
    tags = fallback_tags(con)
    marks = ", ".join("?" for _ in tags)
    # A game may list its own fallbacks in a view (game_id, seat): OpenSpiel games do.
    extra = "".join(
        f" UNION ALL SELECT game_id, seat FROM {view}"
        for view in FALLBACK_VIEWS
        if {"game_id", "seat"} <= _columns(con, view)
    )
    sql = f"""
WITH chosen AS (
    SELECT g.game_id FROM games g WHERE g.status = 'finished' AND {where}
),
r AS (
    SELECT * FROM results WHERE game_id IN (SELECT game_id FROM chosen)
),
two AS (
    SELECT game_id FROM r GROUP BY game_id
    HAVING count(*) = 2 AND min(seat) = 0 AND max(seat) = 1 AND count(score) = 2
       AND bool_and(isfinite(score))
),
fb AS (
    SELECT game_id, seat FROM (
        SELECT game_id, actor AS seat FROM events WHERE type IN ({marks}){extra}
    ) WHERE game_id IN (SELECT game_id FROM two)
    GROUP BY game_id, seat
)
SELECT g.game_id, {label} AS label, a.agent, b.agent, a.score, b.score, a.rank, b.rank,
       CASE WHEN abs(a.score) + abs(b.score) = 0 THEN 0.0
            ELSE (a.score - b.score) / (abs(a.score) + abs(b.score)) END AS nra0,
       f0.seat IS NOT NULL, f1.seat IS NOT NULL
FROM two JOIN games g ON g.game_id = two.game_id{join}
JOIN r a ON a.game_id = two.game_id AND a.seat = 0
JOIN r b ON b.game_id = two.game_id AND b.seat = 1
LEFT JOIN fb f0 ON f0.game_id = two.game_id AND f0.seat = 0
LEFT JOIN fb f1 ON f1.game_id = two.game_id AND f1.seat = 1
ORDER BY g.game_id
"""
    rows = con.execute(sql, [*params, *tags]).fetchall()
    others = con.execute(
        f"""SELECT count(*) FROM (SELECT r.game_id FROM results r JOIN games g
        ON g.game_id = r.game_id WHERE g.status = 'finished' AND {where}
        GROUP BY r.game_id HAVING count(*) <> 2 OR min(r.seat) <> 0 OR max(r.seat) <> 1
        OR count(r.score) <> 2 OR NOT bool_and(coalesce(isfinite(r.score), false)))""",
        params,
    ).fetchall()[0][0]
    cols = list(zip(*rows, strict=True)) if rows else [()] * 11
    return Matches(
        game_id=tuple(cols[0]),
        label=tuple(cols[1]),
        agent0=tuple(cols[2]),
        agent1=tuple(cols[3]),
        score0=np.asarray(cols[4], dtype=float),
        score1=np.asarray(cols[5], dtype=float),
        rank0=np.asarray(cols[6], dtype=int),
        rank1=np.asarray(cols[7], dtype=int),
        nra0=np.asarray(cols[8], dtype=float),
        fallback0=np.asarray(cols[9], dtype=bool),
        fallback1=np.asarray(cols[10], dtype=bool),
        skipped=int(others),
    )


# ---------------------------------------------------------------------------- aggregates


@dataclass(frozen=True)
class Record:
    """Wins, draws and losses of one side."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def matches(self) -> int:
        """Matches counted."""
        return self.wins + self.draws + self.losses

    def text(self) -> str:
        """As "W/D/L"."""
        return f"{self.wins}/{self.draws}/{self.losses}"


@dataclass(frozen=True)
class PairNRA:
    """An agent's NRA against one opponent in one game (or across games)."""

    label: str
    agent: str
    opponent: str
    matches: int
    first: int
    """Matches in which the agent held seat 0."""
    nra: Estimate
    record: Record


@dataclass(frozen=True)
class AgentNRA:
    """An agent's NRA against every other agent in one game (or across games), its
    completion rate and record."""

    label: str
    agent: str
    matches: int
    nra: Estimate
    completion: Estimate
    record: Record


@dataclass
class NRAAnalysis:
    """Every NRA table of a selection."""

    matches: int
    skipped: int
    labels: list[str]
    agents: list[str]
    pairs: list[PairNRA] = field(default_factory=list)
    """Per game and ordered agent pair (both orientations, self-play included)."""
    per_agent: list[AgentNRA] = field(default_factory=list)
    """Per game and agent, against every other agent."""
    overall_pairs: list[PairNRA] = field(default_factory=list)
    """Per ordered agent pair across the games both played (label `ALL_GAMES`)."""
    overall_agents: list[AgentNRA] = field(default_factory=list)
    """Per agent across games (label `ALL_GAMES`)."""
    ratings: list[AgentRating] = field(default_factory=list)
    resamples: int = RESAMPLES
    chance: frozenset[str] = frozenset()
    """Labels of the games whose log holds chance outcomes (known for OpenSpiel games): GTBench
    shows deterministic games (its Fig. 2) apart from games with chance (Fig. 3)."""

    def matrix(self, label: str = ALL_GAMES) -> tuple[list[str], np.ndarray, np.ndarray]:
        """(agents, NRA matrix, matches matrix) of one game or across games: entry [i, j] is
        agent i's NRA against agent j (NaN where they never met)."""
        rows = self.overall_pairs if label == ALL_GAMES else self.pairs
        agents = self.agents
        pos = {a: k for k, a in enumerate(agents)}
        m = np.full((len(agents), len(agents)), np.nan)
        n = np.zeros((len(agents), len(agents)), dtype=int)
        for p in rows:
            if p.label == label and p.nra.value is not None:
                m[pos[p.agent], pos[p.opponent]] = p.nra.value
                n[pos[p.agent], pos[p.opponent]] = p.matches
        return agents, m, n


def _percentile(reps: np.ndarray, level: float) -> tuple[float, float]:
    tail = (1 - level) / 2 * 100
    lo, hi = np.percentile(reps, [tail, 100 - tail])
    return float(lo), float(hi)


def _replicates(x: np.ndarray, seed: int, resamples: int) -> np.ndarray:
    """Bootstrap means of `x` (resampling its entries with replacement)."""
    n = len(x)
    if n == 1:
        return np.full(resamples, float(x[0]))
    rng = np.random.default_rng(seed)
    out = np.empty(resamples)
    block = max(1, _BLOCK // n)
    done = 0
    while done < resamples:
        c = min(block, resamples - done)
        out[done : done + c] = x[rng.integers(0, n, size=(c, n))].mean(axis=1)
        done += c
    return out


def _estimate(point: float, reps: np.ndarray, n: int, level: float) -> Estimate:
    lo, hi = _percentile(reps, level)
    return Estimate(point, lo, hi, n)


def _negated(e: Estimate) -> Estimate:
    """The estimate seen from the other side of a pairing (exactly antisymmetric)."""
    if e.value is None:
        return e
    lo = None if e.hi is None else -e.hi
    hi = None if e.lo is None else -e.lo
    return Estimate(-e.value, lo, hi, e.n)


def _record(own: np.ndarray, other: np.ndarray) -> Record:
    return Record(
        wins=int(np.sum(own > other)),
        draws=int(np.sum(own == other)),
        losses=int(np.sum(own < other)),
    )


def analyse(
    m: Matches,
    *,
    resamples: int = RESAMPLES,
    level: float = LEVEL,
    ratings: bool = True,
) -> NRAAnalysis:
    """Every NRA table of the matches `m` (see the module docstring for the definitions)."""
    labels = sorted(set(m.label))
    agents = sorted(set(m.agent0) | set(m.agent1))
    out = NRAAnalysis(
        matches=len(m), skipped=m.skipped, labels=labels, agents=agents, resamples=resamples
    )
    if not len(m):
        return out
    lab = np.asarray(m.label, dtype=object)
    a0 = np.asarray(m.agent0, dtype=object)
    a1 = np.asarray(m.agent1, dtype=object)

    # Pairs, in one orientation (the agents in sorted order) and then negated for the other:
    # the two tables are exact mirror images, intervals included.
    pair_reps: dict[tuple[str, str], list[tuple[str, np.ndarray, float]]] = defaultdict(list)
    for label in labels:
        in_game = lab == label
        # Self-play is no pairing (its NRA would only measure the first-move advantage).
        keys = {
            tuple(sorted((x, y))) for x, y in zip(a0[in_game], a1[in_game], strict=True) if x != y
        }
        for x, y in sorted(keys):
            as0 = in_game & (a0 == x) & (a1 == y)
            as1 = in_game & (a0 == y) & (a1 == x)
            # x's NRA in every match of the pairing, in game id order.
            sel = as0 | as1
            vals = np.where(as0[sel], m.nra0[sel], -m.nra0[sel])
            own = np.where(as0[sel], m.score0[sel], m.score1[sel])
            other = np.where(as0[sel], m.score1[sel], m.score0[sel])
            n = int(sel.sum())
            point = float(vals.mean())
            reps = _replicates(vals, seed_for("nra-pair", label, x, y), resamples)
            est = _estimate(point, reps, n, level)
            rec = _record(own, other)
            out.pairs.append(PairNRA(label, x, y, n, int(as0.sum()), est, rec))
            mirrored = Record(rec.losses, rec.draws, rec.wins)
            out.pairs.append(PairNRA(label, y, x, n, int(as1.sum()), _negated(est), mirrored))
            pair_reps[(x, y)].append((label, reps, point))

    # Across games: the mean of the per-game pair means, resampled within each game.
    for (x, y), per_game in sorted(pair_reps.items()):
        point = float(np.mean([p for _, _, p in per_game]))
        reps = np.mean([r for _, r, _ in per_game], axis=0)
        games = [p for p in out.pairs if (p.agent, p.opponent) == (x, y)]
        n = sum(p.matches for p in games)
        est = _estimate(point, reps, n, level)
        rec = Record(
            sum(p.record.wins for p in games),
            sum(p.record.draws for p in games),
            sum(p.record.losses for p in games),
        )
        first = sum(p.first for p in games)
        out.overall_pairs.append(PairNRA(ALL_GAMES, x, y, n, first, est, rec))
        out.overall_pairs.append(
            PairNRA(
                ALL_GAMES,
                y,
                x,
                n,
                n - first,
                _negated(est),
                Record(rec.losses, rec.draws, rec.wins),
            )
        )
    out.pairs.sort(key=lambda p: (p.label, p.agent, p.opponent))
    out.overall_pairs.sort(key=lambda p: (p.agent, p.opponent))

    # Per agent: every seat it held (self-play included for the completion rate), and its
    # NRA against other agents only (against itself it is 0 by construction).
    side_label = np.concatenate([lab, lab])
    side_agent = np.concatenate([a0, a1])
    side_opp = np.concatenate([a1, a0])
    side_nra = np.concatenate([m.nra0, -m.nra0])
    side_own = np.concatenate([m.score0, m.score1])
    side_other = np.concatenate([m.score1, m.score0])
    side_clean = ~np.concatenate([m.fallback0, m.fallback1])
    agent_reps: dict[str, list[tuple[np.ndarray, float, np.ndarray, float, int, Record]]] = (
        defaultdict(list)
    )
    for label in labels:
        for agent in agents:
            mine = (side_label == label) & (side_agent == agent)
            if not mine.any():
                continue
            clean = side_clean[mine].astype(float)
            c_reps = _replicates(clean, seed_for("completion", label, agent), resamples)
            completion = _estimate(float(clean.mean()), c_reps, int(mine.sum()), level)
            vs = mine & (side_opp != agent)
            n = int(vs.sum())
            if n:
                vals = side_nra[vs]
                reps = _replicates(vals, seed_for("nra-agent", label, agent), resamples)
                est = _estimate(float(vals.mean()), reps, n, level)
            else:
                reps = np.full(resamples, np.nan)
                est = Estimate(None, n=0)
            rec = _record(side_own[vs], side_other[vs])
            out.per_agent.append(AgentNRA(label, agent, n, est, completion, rec))
            agent_reps[agent].append((reps, est.value or 0.0, c_reps, float(clean.mean()), n, rec))
    for agent in agents:
        games_of = agent_reps.get(agent, [])
        scored = [g for g in games_of if g[4]]
        if scored:
            est = _estimate(
                float(np.mean([g[1] for g in scored])),
                np.mean([g[0] for g in scored], axis=0),
                sum(g[4] for g in scored),
                level,
            )
        else:
            est = Estimate(None, n=0)
        completion = _estimate(
            float(np.mean([g[3] for g in games_of])),
            np.mean([g[2] for g in games_of], axis=0),
            int((side_agent == agent).sum()),
            level,
        )
        rec = Record(
            sum(g[5].wins for g in games_of),
            sum(g[5].draws for g in games_of),
            sum(g[5].losses for g in games_of),
        )
        out.overall_agents.append(
            AgentNRA(ALL_GAMES, agent, sum(g[4] for g in games_of), est, completion, rec)
        )
    if ratings:
        out.ratings = rate(seat_results(m), shuffles=0)
    return out


def seat_results(m: Matches) -> list[SeatResult]:
    """The matches as seat results for TrueSkill (every game together, game id order)."""
    rows: list[SeatResult] = []
    for k, gid in enumerate(m.game_id):
        for agent, score, rank, seat in (
            (m.agent0[k], m.score0[k], m.rank0[k], 0),
            (m.agent1[k], m.score1[k], m.rank1[k], 1),
        ):
            value = float(score)
            rows.append(
                SeatResult(
                    gid, seat, agent, int(value) if value.is_integer() else value, int(rank), 0
                )
            )
    return rows


def nra_analysis(
    con: duckdb.DuckDBPyConnection,
    sel: Selection,
    *,
    resamples: int = RESAMPLES,
    level: float = LEVEL,
) -> NRAAnalysis:
    """Load the selection's two-seat matches and compute every table."""
    a = analyse(load_matches(con, sel), resamples=resamples, level=level)
    a.chance = chance_labels(con, sel)
    return a


def chance_labels(con: duckdb.DuckDBPyConnection, sel: Selection) -> frozenset[str]:
    """Labels of the selection's games with at least one chance outcome in their log, read
    from `openspiel_actions` (player -1) when the store has it (else none is known)."""
    if "player" not in _columns(con, "openspiel_actions"):
        return frozenset()
    where, params = sel.where("g.game_id")
    join, label = label_sql(con)
    rows = con.execute(
        f"SELECT DISTINCT {label} FROM games g{join} WHERE g.status = 'finished' AND {where}"
        " AND g.game_id IN (SELECT game_id FROM openspiel_actions WHERE player = -1)",
        params,
    ).fetchall()
    return frozenset(r[0] for r in rows)


# ---------------------------------------------------------------------------- output


def _est_json(e: Estimate) -> dict[str, object]:
    return {"value": e.value, "lo": e.lo, "hi": e.hi, "n": e.n}


def _rec_json(r: Record) -> dict[str, int]:
    return {"wins": r.wins, "draws": r.draws, "losses": r.losses}


def analysis_json(a: NRAAnalysis) -> dict[str, object]:
    """Every table as JSON-ready values."""
    agents, mat, n = a.matrix()
    return {
        "matches": a.matches,
        "skipped_games": a.skipped,
        "games": a.labels,
        "games_with_chance": sorted(a.chance),
        "agents": a.agents,
        "resamples": a.resamples,
        "pairs": [
            {
                "game": p.label,
                "agent": p.agent,
                "opponent": p.opponent,
                "matches": p.matches,
                "first": p.first,
                "nra": _est_json(p.nra),
                **_rec_json(p.record),
            }
            for p in (*a.pairs, *a.overall_pairs)
        ],
        "agents_by_game": [
            {
                "game": x.label,
                "agent": x.agent,
                "matches": x.matches,
                "nra": _est_json(x.nra),
                "completion_rate": _est_json(x.completion),
                **_rec_json(x.record),
            }
            for x in (*a.per_agent, *a.overall_agents)
        ],
        "matrix": {
            "agents": agents,
            "nra": [[None if math.isnan(v) else float(v) for v in row] for row in mat],
            "matches": n.tolist(),
        },
        "trueskill": [
            {
                "agent": r.agent,
                "mu": r.mu,
                "sigma": r.sigma,
                "conservative": r.conservative,
                "seats": r.games,
                "win_rate": r.win_rate,
            }
            for r in a.ratings
        ],
    }


def _signed(v: float | None) -> str:
    if v is None:
        return "-"
    text = f"{v:+.2f}"
    return "+0.00" if text == "-0.00" else text


def _ci(e: Estimate) -> str:
    if e.lo is None or e.hi is None:
        return "-"
    return f"{_signed(e.lo)} {_signed(e.hi)}"


def _pct(e: Estimate) -> str:
    return "-" if e.value is None else f"{100 * e.value:.0f}%"


def render_tables(
    a: NRAAnalysis, width: int = 80, label: Callable[[str], str] = lambda s: s
) -> list[RenderableType]:
    """Every table as rich renderables (prose and tables) that fit `width` when printed;
    `label` turns data (agent names, game labels) into display text."""
    if not a.matches:
        if a.skipped:
            return [
                T.prose(
                    f"No two-seat match: the {T.plural(a.skipped, 'finished game')} of this"
                    " selection have another number of seats (NRA compares two seats)."
                )
            ]
        return []
    parts: list[RenderableType] = [
        T.prose(
            f"{T.plural(a.matches, 'two-seat match', 'two-seat matches')} in"
            f" {T.plural(len(a.labels), 'game')}"
            + (
                f"; {T.plural(a.skipped, 'game')} without exactly two seats left out"
                if a.skipped
                else ""
            )
            + "."
        )
    ]
    grids = [
        T.Grid(
            "NRA per game and opponent (mean over matches, 95% bootstrap interval)",
            ("game", "agent", "opponent", "n", "NRA", "95% interval", "W/D/L"),
            [
                (
                    p.label,
                    p.agent,
                    p.opponent,
                    str(p.matches),
                    _signed(p.nra.value),
                    _ci(p.nra),
                    p.record.text(),
                )
                for p in a.pairs
                if p.agent != p.opponent
            ],
            keys=3,
        ),
        T.Grid(
            "Per game, against every other agent",
            ("game", "agent", "n", "NRA", "95% interval", "W/D/L", "complete"),
            [
                (
                    x.label,
                    x.agent,
                    str(x.matches),
                    _signed(x.nra.value),
                    _ci(x.nra),
                    x.record.text(),
                    _pct(x.completion),
                )
                for x in (*a.per_agent, *(a.overall_agents if len(a.labels) > 1 else ()))
            ],
            keys=2,
        ),
    ]
    agents, mat, _ = a.matrix()
    if len(agents) > 1:
        grids.append(
            T.Grid(
                "NRA matrix, mean over games (row agent against column agent)",
                ("#", "agent", *(str(j + 1) for j in range(len(agents)))),
                [
                    (
                        str(i + 1),
                        agent,
                        *(
                            "·" if i == j else _signed(None if math.isnan(mat[i, j]) else mat[i, j])
                            for j in range(len(agents))
                        ),
                    )
                    for i, agent in enumerate(agents)
                ],
                keys=2,
            )
        )
    if a.ratings:
        grids.append(
            T.Grid(
                "TrueSkill over every match of every game (1st: shared first places count)",
                ("agent", "μ", "σ", "μ−3σ", "seats", "1st"),
                [
                    (
                        r.agent,
                        f"{r.mu:.2f}",
                        f"{r.sigma:.2f}",
                        f"{r.conservative:.2f}",
                        str(r.games),
                        f"{100 * r.win_rate:.0f}%",
                    )
                    for r in a.ratings
                ],
            )
        )
    for grid in grids:
        parts.extend(T.fitted(grid, width, label))
    return parts


def render_lines(
    a: NRAAnalysis, width: int = 80, label: Callable[[str], str] = lambda s: s
) -> list[str]:
    """Every table as plain text lines at most `width` wide (see `render_tables`)."""
    return T.as_lines(render_tables(a, width, label), width)
