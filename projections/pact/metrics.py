"""PACT metrics: per-agent bargaining measures with bootstrap intervals, the Composite Model
Score with its blend weight chosen from data, and a Glicko-2 leaderboard.

Everything is a projection of two views, `pact_rounds` (one row per round of a game) and the
generic `seats` and `games`. Only finished games count.

* Ratio metrics are SQL (registered below, each with a name, a version and a definition)
  over the seat-round relation `psr`: one row per seat per round, with the seat's role, agent,
  opponent, valuation, quote, offset, trade flag, profit and the round's realised surplus.
  Each metric returns (game_id, seat, key, num, den) like the Cattle Trade metrics; an agent's
  value is the pooled ratio sum(num) / sum(den) over its games.
* The opponent-balanced share (OBS) and the Composite Model Score (CMS) are computed from the
  surplus-share rows; the CMS weight α is chosen on a grid by the stability of the ordering it
  gives under bootstrap resampling, then by agreement with the head-to-head results.
* Every interval comes from one set of bootstrap resamples of games, drawn with a numpy
  Generator from a seed, so the same store and seed give the same intervals. Games are
  resampled within their match-up (the unordered pair of agents), and games of a match-up that
  share a seed (the two role-swapped games played on the same values) are drawn together.

docs/pact_metrics.md gives every definition with its reasons.
"""

from __future__ import annotations

import dataclasses
import inspect
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import duckdb
import numpy as np

from projections import glicko2
from projections.metrics.aggregate import AgentProfile, Estimate, Selection

#: Resamples per interval, and the two-sided coverage of the intervals.
RESAMPLES = 1000
LEVEL = 0.95
#: Grid of candidate CMS weights α (0 = surplus share only, 1 = OBS only).
ALPHA_GRID: tuple[float, ...] = tuple(round(0.05 * i, 2) for i in range(21))
#: Resamples drawn per block: bounds memory whatever the number of games.
_BLOCK = 250
#: Most resamples per analysis: every resample of every column is kept until the intervals
#: are read (measured: six agents, 552 columns, 10,000 resamples add about 95 MB).
MAX_RESAMPLES = 20_000

Key = Literal["", "role", "round", "opponent"]


@dataclass(frozen=True)
class PactMetric:
    """One PACT metric: name, version, label, unit, what its key is, SQL and definition."""

    name: str
    version: int
    label: str
    unit: str
    key: Key
    definition: str
    sql: str | None = None
    """(game_id, seat, key, num, den) over `psr`; None for the composite measures."""
    percent: bool = False
    """Shown as a percentage (the value is a fraction)."""


REGISTRY: dict[str, PactMetric] = {}


def pact_metric(
    name: str, *, version: int, label: str, unit: str, key: Key = "", percent: bool = False
) -> Callable[[Callable[[], str]], Callable[[], str]]:
    """Register the PACT metric whose SQL the decorated function returns; its docstring
    defines it."""

    def wrap(fn: Callable[[], str]) -> Callable[[], str]:
        doc = inspect.cleandoc(fn.__doc__ or "")
        if not doc:
            raise ValueError(f"metric {name} needs a definition in its docstring")
        REGISTRY[name] = PactMetric(
            name, version, label, unit, key, " ".join(doc.split()), fn(), percent
        )
        return fn

    return wrap


def _composite(
    name: str, version: int, label: str, unit: str, definition: str, percent: bool = False
) -> None:
    REGISTRY[name] = PactMetric(
        name,
        version,
        label,
        unit,
        "",
        " ".join(inspect.cleandoc(definition).split()),
        None,
        percent,
    )


# ------------------------------------------------------------------------------ the data

#: One row per seat per round of the selected finished games. `offset` is quote - valuation
#: with the buyer's sign flipped (value - bid, ask - cost): positive means the quote sits on
#: the side that favours the seat. `surplus` is value - cost on traded rounds, NULL otherwise.
SEAT_ROUNDS = """
WITH sel AS (SELECT game_id FROM main.games WHERE status = 'finished' AND {where}),
r AS (SELECT p.* FROM main.pact_rounds p JOIN sel USING (game_id))
SELECT r.game_id, CAST(r.round AS INTEGER) AS round, 'buyer' AS role,
       CAST(r.buyer_seat AS INTEGER) AS seat, a.agent, o.agent AS opponent,
       CAST(r.value AS DOUBLE) AS valuation, CAST(r.bid AS DOUBLE) AS quote,
       CAST(r.value - r.bid AS DOUBLE) AS "offset", coalesce(r.traded, false) AS traded,
       CAST(coalesce(r.buyer_profit, 0) AS DOUBLE) AS profit,
       CASE WHEN r.traded THEN CAST(r.value - r.cost AS DOUBLE) END AS surplus
FROM r JOIN main.seats a ON a.game_id = r.game_id AND a.seat = r.buyer_seat
       JOIN main.seats o ON o.game_id = r.game_id AND o.seat = r.seller_seat
UNION ALL
SELECT r.game_id, CAST(r.round AS INTEGER), 'seller', CAST(r.seller_seat AS INTEGER), a.agent,
       o.agent, CAST(r.cost AS DOUBLE), CAST(r.ask AS DOUBLE), CAST(r.ask - r.cost AS DOUBLE),
       coalesce(r.traded, false), CAST(coalesce(r.seller_profit, 0) AS DOUBLE),
       CASE WHEN r.traded THEN CAST(r.value - r.cost AS DOUBLE) END
FROM r JOIN main.seats a ON a.game_id = r.game_id AND a.seat = r.seller_seat
       JOIN main.seats o ON o.game_id = r.game_id AND o.seat = r.buyer_seat
"""


# ------------------------------------------------------------------------------ metrics


@pact_metric("profit_per_round", version=1, label="Profit/round", unit="points per round")
def profit_per_round() -> str:
    """Profit per round: the seat's profit summed over the rounds it played (value - price as
    buyer, price - cost as seller, 0 in a round without trade), divided by the number of those
    rounds. Pooled over games: total profit over total rounds."""
    return (
        "SELECT game_id, seat, '' AS key, sum(profit) AS num, count(*) AS den FROM psr GROUP BY ALL"
    )


@pact_metric(
    "profit_per_round_role", version=1, label="Profit/round by role", unit="points per round",
    key="role",
)  # fmt: skip
def profit_per_round_role() -> str:
    """Profit per round by role: profit per round over the rounds the agent played as buyer,
    and over those it played as seller (the key)."""
    return "SELECT game_id, seat, role AS key, sum(profit) AS num, count(*) AS den FROM psr GROUP BY ALL"


@pact_metric("profit_by_round", version=1, label="Profit by round", unit="points", key="round")
def profit_by_round() -> str:
    """Mean profit in round k: the agent's profit in round k (the key) of its games, both
    roles, averaged over those games."""
    return """
    SELECT game_id, seat, CAST(round AS VARCHAR) AS key, sum(profit) AS num, count(*) AS den
    FROM psr GROUP BY ALL"""


@pact_metric("trade_rate", version=1, label="Trade rate", unit="share of rounds", percent=True)
def trade_rate() -> str:
    """Trade frequency: the share of the rounds the seat played that ended in a trade
    (bid >= ask)."""
    return """
    SELECT game_id, seat, '' AS key, count(*) FILTER (WHERE traded) AS num, count(*) AS den
    FROM psr GROUP BY ALL"""


@pact_metric(
    "trade_rate_by_round", version=1, label="Trade rate by round", unit="share of games",
    key="round", percent=True,
)  # fmt: skip
def trade_rate_by_round() -> str:
    """Trade frequency in round k: the share of the agent's games in which round k (the key)
    ended in a trade."""
    return """
    SELECT game_id, seat, CAST(round AS VARCHAR) AS key, count(*) FILTER (WHERE traded) AS num,
           count(*) AS den
    FROM psr GROUP BY ALL"""


@pact_metric("bid_offset", version=1, label="Bid offset", unit="points")
def bid_offset() -> str:
    """Bid offset: how far the seat's quote sits from its own valuation, quote - valuation with
    buyer quotes counted negative, i.e. value - bid for the buyer and ask - cost for the
    seller. Positive means the quote shades toward the seat's own gain, 0 is a truthful quote,
    negative means it quoted past its valuation. Mean over every round with a quote."""
    return """
    SELECT game_id, seat, '' AS key, coalesce(sum("offset"), 0) AS num, count("offset") AS den
    FROM psr GROUP BY ALL"""


@pact_metric(
    "bid_offset_by_round", version=1, label="Bid offset by round", unit="points", key="round"
)
def bid_offset_by_round() -> str:
    """Bid offset in round k: the bid offset of the agent's quotes in round k (the key),
    averaged over its games."""
    return """
    SELECT game_id, seat, CAST(round AS VARCHAR) AS key, coalesce(sum("offset"), 0) AS num,
           count("offset") AS den
    FROM psr GROUP BY ALL"""


@pact_metric("trade_offset", version=1, label="Trade offset", unit="points")
def trade_offset() -> str:
    """Trade offset: the bid offset (same sign convention) over the rounds that ended in a
    trade only: how far from its valuation the seat quoted when a deal was struck."""
    return """
    SELECT game_id, seat, '' AS key, coalesce(sum("offset") FILTER (WHERE traded), 0) AS num,
           count("offset") FILTER (WHERE traded) AS den
    FROM psr GROUP BY ALL"""


@pact_metric(
    "trade_offset_by_round", version=1, label="Trade offset by round", unit="points", key="round"
)
def trade_offset_by_round() -> str:
    """Trade offset in round k: the trade offset over the agent's traded rounds numbered k
    (the key)."""
    return """
    SELECT game_id, seat, CAST(round AS VARCHAR) AS key,
           coalesce(sum("offset") FILTER (WHERE traded), 0) AS num,
           count("offset") FILTER (WHERE traded) AS den
    FROM psr GROUP BY ALL"""


@pact_metric(
    "surplus_share", version=1, label="Surplus share", unit="share of surplus", percent=True
)
def surplus_share() -> str:
    """Surplus share: over the traded rounds of the agent's games against another agent, its
    profit divided by the realised surplus value - cost of those rounds (pooled: the sum of
    its profits over the sum of the surpluses). The buyer's and the seller's shares of the
    same rounds add up to 1. Games against itself are left out: their share is 1/2 by
    construction. Undefined when the summed surplus is not positive."""
    return """
    SELECT game_id, seat, '' AS key,
           coalesce(sum(profit) FILTER (WHERE traded AND opponent <> agent), 0) AS num,
           coalesce(sum(surplus) FILTER (WHERE traded AND opponent <> agent), 0) AS den
    FROM psr GROUP BY ALL"""


@pact_metric(
    "surplus_share_vs",
    version=1,
    label="Surplus share by opponent",
    unit="share of surplus",
    key="opponent",
    percent=True,
)
def surplus_share_vs() -> str:
    """Surplus share against one opponent: the surplus share over the agent's games against
    the opponent named by the key, both roles pooled. Row A, column B of the head-to-head
    matrix; the share of A against B and of B against A add up to 1."""
    return """
    SELECT game_id, seat, opponent AS key, coalesce(sum(profit) FILTER (WHERE traded), 0) AS num,
           coalesce(sum(surplus) FILTER (WHERE traded), 0) AS den
    FROM psr WHERE opponent <> agent GROUP BY ALL"""


_composite(
    "obs",
    1,
    "OBS",
    "share of surplus",
    """Opponent-balanced share: the agent's surplus share against each other agent it met
    (surplus_share_vs), averaged with equal weight over those opponents. Facing one opponent
    more often than another does not change it. Opponents against whom no surplus was realised
    are left out.""",
    percent=True,
)
_composite(
    "cms",
    1,
    "CMS",
    "share of surplus",
    """Composite Model Score: (1 - α) · surplus share + α · OBS', where OBS' is OBS mapped onto
    the scale of the surplus share across the agents of the selection (OBS' = m_S + s_S ·
    (OBS - m_O) / s_O with m, s the mean and standard deviation over agents of surplus share S
    and OBS O). One α for all agents, chosen on the grid 0, 0.05, ..., 1: among the weights
    whose ordering of agents is not less stable under bootstrap resampling than the most
    stable one (mean Kendall τ-b between the full-data and the resample orderings, paired over
    the same resamples, difference within two standard errors), the one whose ordering agrees
    best with the head-to-head results, then the one nearest 1/2, then the most stable.""",
    percent=True,
)
_composite(
    "glicko2",
    1,
    "Glicko-2",
    "rating points",
    """Glicko-2 rating (τ = 0.5, start 1500 / 350 / 0.06): every finished game between two
    different agents is a match, fed in game-id order, each game its own rating period; the
    agent with the higher cumulative profit wins, equal profits draw. Only the two players of a
    game are updated. With the margin option a game counts w = min(4, 1 + ln max(1, d)) times,
    d the difference in cumulative profit.""",
)


def definitions() -> list[PactMetric]:
    """Every PACT metric and composite measure, in registration order."""
    return list(REGISTRY.values())


def _ratio_metrics() -> list[PactMetric]:
    return [m for m in REGISTRY.values() if m.sql is not None]


# ------------------------------------------------------------------------------ loading


@dataclass
class _Columns:
    """Per-game numerators and denominators of every (metric, key, agent) column."""

    names: list[tuple[str, str, str]]
    num: np.ndarray
    """games × columns."""
    den: np.ndarray


@dataclass
class PactData:
    """The selected finished PACT games, loaded once for every metric, figure and rating."""

    games: tuple[str, ...]
    """Game ids in order (by game id: the schedule order of a tournament)."""
    agents: tuple[str, ...]
    cluster: np.ndarray
    """Per game, the resampling unit it belongs to (a match-up and a seed)."""
    stratum: np.ndarray
    """Per cluster, its match-up: clusters are resampled within their match-up."""
    columns: _Columns
    seat_games: dict[str, int]
    """Seat-games per agent."""
    seat_rounds: dict[str, np.ndarray]
    """The `psr` relation as arrays (game index, agent, role, round, offset, traded, profit)."""
    matches: list[tuple[str, str, str, float, float, int]]
    """Per game in order: game id, buyer agent, seller agent, their cumulative profits, rounds."""


def pact_only(sel: Selection | None) -> Selection:
    """The selection narrowed to PACT's games (a store may hold other games too)."""
    return dataclasses.replace(sel or Selection(), game="pact")


def _psr_sql(sel: Selection) -> tuple[str, list[Any]]:
    where, params = pact_only(sel).where()
    return SEAT_ROUNDS.replace("{where}", where), params


def _metrics_sql(psr: str) -> str:
    parts = [
        f"SELECT '{m.name}' AS metric, {m.version} AS version, q.game_id, q.seat,"
        f" CAST(q.key AS VARCHAR) AS key, CAST(q.num AS DOUBLE) AS num, CAST(q.den AS DOUBLE) AS den"
        f" FROM ({m.sql}) q"
        for m in _ratio_metrics()
    ]
    return (
        f"WITH psr AS ({psr}), agents AS (SELECT DISTINCT game_id, seat, agent FROM psr)"
        f" SELECT x.game_id, x.seat, a.agent, x.metric, x.version, x.key, x.num, x.den"
        f" FROM ({' UNION ALL '.join(parts)}) x"
        f" JOIN agents a ON a.game_id = x.game_id AND a.seat = x.seat"
    )


def metric_rows(
    con: duckdb.DuckDBPyConnection, sel: Selection | None = None
) -> list[tuple[str, int, str, str, int, str, float, float]]:
    """Every ratio metric's rows (game_id, seat, agent, metric, version, key, num, den), the
    shape of the `metric_values` table, for the selected finished games."""
    psr, params = _psr_sql(pact_only(sel))
    sql = _metrics_sql(psr) + " ORDER BY x.metric, x.game_id, x.seat, x.key"
    return con.execute(sql, params).fetchall()


def load(con: duckdb.DuckDBPyConnection, sel: Selection | None = None) -> PactData:
    """Load the selected finished PACT games and every metric's per-game rows."""
    sel = pact_only(sel)
    psr, params = _psr_sql(sel)
    where, wparams = sel.where("p.game_id")
    game_rows = con.execute(
        f"""SELECT p.game_id, any_value(g.seed), any_value(b.agent), any_value(s.agent),
                   sum(coalesce(p.buyer_profit, 0)), sum(coalesce(p.seller_profit, 0)), count(*)
            FROM main.pact_rounds p JOIN main.games g ON g.game_id = p.game_id
            JOIN main.seats b ON b.game_id = p.game_id AND b.seat = p.buyer_seat
            JOIN main.seats s ON s.game_id = p.game_id AND s.seat = p.seller_seat
            WHERE g.status = 'finished' AND {where}
            GROUP BY p.game_id ORDER BY p.game_id""",
        wparams,
    ).fetchall()
    games = tuple(str(r[0]) for r in game_rows)
    agents = tuple(sorted({str(r[2]) for r in game_rows} | {str(r[3]) for r in game_rows}))

    # Resampling units: a match-up is the unordered pair of agents; within it, games that share
    # a seed were played on the same drawn values (the two role orders) and go together.
    clusters: dict[tuple[str, str, int], int] = {}
    strata: dict[tuple[str, str], int] = {}
    cluster = np.zeros(len(games), dtype=np.int64)
    stratum_of: list[int] = []
    seat_games: dict[str, int] = dict.fromkeys(agents, 0)
    for i, (_, seed, buyer, seller, *_rest) in enumerate(game_rows):
        lo, hi = sorted((str(buyer), str(seller)))
        if (lo, hi, int(seed)) not in clusters:
            clusters[(lo, hi, int(seed))] = len(clusters)
            stratum_of.append(strata.setdefault((lo, hi), len(strata)))
        cluster[i] = clusters[(lo, hi, int(seed))]
        seat_games[str(buyer)] += 1
        seat_games[str(seller)] += 1

    # Indices are computed in SQL (games by id, as above; columns by metric, key, agent), so
    # that the rows arrive as numeric arrays.
    idx = f"""
        WITH m AS ({_metrics_sql(psr)}),
        gi AS (SELECT game_id, CAST(row_number() OVER (ORDER BY game_id) - 1 AS BIGINT) AS g
               FROM (SELECT DISTINCT game_id FROM m)),
        ci AS (SELECT metric, key, agent,
                      CAST(row_number() OVER (ORDER BY metric, key, agent) - 1 AS BIGINT) AS c
               FROM (SELECT DISTINCT metric, key, agent FROM m))
    """
    names = [
        (str(m), str(k), str(a))
        for m, k, a in con.execute(
            idx + " SELECT metric, key, agent FROM ci ORDER BY c", params
        ).fetchall()
    ]
    listed = [
        r[0] for r in con.execute(idx + " SELECT game_id FROM gi ORDER BY g", params).fetchall()
    ]
    if tuple(listed) != games:
        raise ValueError("pact_rounds and seats disagree on the selected games")
    arr = con.execute(
        idx + " SELECT gi.g, ci.c, m.num, m.den FROM m JOIN gi USING (game_id)"
        " JOIN ci USING (metric, key, agent)",
        params,
    ).fetchnumpy()
    num_m = np.zeros((len(games), len(names)))
    den_m = np.zeros((len(games), len(names)))
    # An agent holding both seats of a game adds up its two seats' rows.
    np.add.at(num_m, (arr["g"], arr["c"]), np.asarray(arr["num"], dtype=float))
    np.add.at(den_m, (arr["g"], arr["c"]), np.asarray(arr["den"], dtype=float))

    gindex = {g: i for i, g in enumerate(games)}
    aindex = {a: i for i, a in enumerate(agents)}
    cols = con.execute(
        f'WITH psr AS ({psr}) SELECT game_id, agent, role, round, "offset", traded, profit'
        " FROM psr ORDER BY game_id, seat, round",
        params,
    ).fetchnumpy()
    seat_rounds = {
        "game": np.array([gindex[g] for g in cols["game_id"]], dtype=np.int64),
        "agent": np.array([aindex[a] for a in cols["agent"]], dtype=np.int64),
        "buyer": np.asarray(cols["role"] == "buyer", dtype=bool),
        "round": np.asarray(cols["round"], dtype=np.int64),
        "offset": np.ma.filled(np.ma.asarray(cols["offset"], dtype=float), np.nan),
        "traded": np.asarray(cols["traded"], dtype=bool),
        "profit": np.asarray(cols["profit"], dtype=float),
    }
    return PactData(
        games=games,
        agents=agents,
        cluster=cluster,
        stratum=np.asarray(stratum_of, dtype=np.int64),
        columns=_Columns(names, num_m, den_m),
        seat_games=seat_games,
        seat_rounds=seat_rounds,
        matches=[
            (str(r[0]), str(r[2]), str(r[3]), float(r[4]), float(r[5]), int(r[6]))
            for r in game_rows
        ],
    )


# ------------------------------------------------------------------------------ bootstrap


def resample_weights(
    cluster: np.ndarray, stratum: np.ndarray, resamples: int, seed: int
) -> Iterator[np.ndarray]:
    """Blocks of bootstrap weights (resamples × games): how often each game is drawn.

    Within every match-up (stratum) its clusters are drawn with replacement as many times as
    it has clusters, so every resample keeps the schedule's number of games per match-up.
    Deterministic in (seed, resamples, data): one numpy Generator, fixed block size.
    """
    rng = np.random.default_rng(seed)
    members = [np.flatnonzero(stratum == s) for s in range(int(stratum.max(initial=-1)) + 1)]
    done = 0
    while done < resamples:
        b = min(_BLOCK, resamples - done)
        w = np.zeros((b, len(stratum)))
        for m in members:
            w[:, m] = rng.multinomial(len(m), np.full(len(m), 1.0 / len(m)), size=b)
        yield w[:, cluster]
        done += b


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """num / den where den > 0 (a count of rounds, or a summed surplus), NaN elsewhere."""
    ok = den > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(ok, num / np.where(ok, den, 1.0), np.nan)


def _interval(samples: np.ndarray, level: float = LEVEL) -> tuple[np.ndarray, np.ndarray]:
    """Percentile interval per column, ignoring undefined resamples (NaN)."""
    tail = (1 - level) / 2 * 100
    out_lo = np.full(samples.shape[1], np.nan)
    out_hi = np.full(samples.shape[1], np.nan)
    finite = np.isfinite(samples)
    for k in range(samples.shape[1]):
        col = samples[finite[:, k], k]
        if len(col):
            out_lo[k], out_hi[k] = np.percentile(col, [tail, 100 - tail])
    return out_lo, out_hi


def _estimate(value: float, lo: float, hi: float, n: int) -> Estimate:
    def clean(x: float) -> float | None:
        return None if not math.isfinite(x) else float(x)

    v = clean(value)
    if v is None:
        return Estimate(None, n=n)
    return Estimate(v, clean(lo), clean(hi), n)


# ------------------------------------------------------------------------------ orderings


def kendall_tau(reference: np.ndarray, samples: np.ndarray) -> np.ndarray:
    """Kendall's τ-b between one ordering and each row of `samples` (resamples × agents).

    Pairs of agents with an undefined value (NaN) on either side are left out; NaN where no
    pair is left or one side is all ties.
    """
    samples = np.atleast_2d(samples)
    n = len(reference)
    i, j = np.triu_indices(n, 1)
    ref = np.sign(reference[i] - reference[j])
    s = np.sign(samples[:, i] - samples[:, j])
    valid = np.isfinite(s) & np.isfinite(ref)[None, :]
    ref_b = np.where(valid, ref[None, :], 0.0)
    s = np.where(valid, s, 0.0)
    n0 = valid.sum(axis=1)
    n1 = (valid & (ref_b == 0)).sum(axis=1)
    n2 = (valid & (s == 0)).sum(axis=1)
    denom = np.sqrt((n0 - n1).astype(float) * (n0 - n2).astype(float))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(denom > 0, (ref_b * s).sum(axis=1) / np.where(denom > 0, denom, 1), np.nan)


def common_scale(share: np.ndarray, obs: np.ndarray) -> np.ndarray:
    """OBS mapped onto the surplus share's scale across agents (the last axis).

    OBS' = mean(S) + sd(S) · (OBS - mean(O)) / sd(O), over the agents where both are defined;
    with fewer than two such agents, or no spread in OBS, OBS is shifted only.
    """
    ok = np.isfinite(share) & np.isfinite(obs)
    cnt = ok.sum(axis=-1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        s_mean = np.where(ok, share, 0).sum(axis=-1, keepdims=True) / cnt
        o_mean = np.where(ok, obs, 0).sum(axis=-1, keepdims=True) / cnt
        s_sd = np.sqrt(np.where(ok, (share - s_mean) ** 2, 0).sum(axis=-1, keepdims=True) / cnt)
        o_sd = np.sqrt(np.where(ok, (obs - o_mean) ** 2, 0).sum(axis=-1, keepdims=True) / cnt)
        factor = np.where((cnt >= 2) & (o_sd > 1e-12), s_sd / np.where(o_sd > 1e-12, o_sd, 1), 1.0)
    return np.where(ok, s_mean + factor * (obs - o_mean), np.nan)


def cms(share: np.ndarray, obs: np.ndarray, alpha: float) -> np.ndarray:
    """CMS = (1 - α) · surplus share + α · OBS on the share's scale (agents on the last axis)."""
    return (1 - alpha) * share + alpha * common_scale(share, obs)


@dataclass(frozen=True)
class AlphaScore:
    """How one candidate α orders the agents."""

    alpha: float
    stability: float
    """Mean Kendall τ-b between the full-data ordering and each resample's ordering."""
    stability_se: float
    """Standard error of that mean (Monte Carlo)."""
    gap_se: float
    """Standard error of the paired difference to the most stable α."""
    agreement: float
    """Share of match-ups whose head-to-head winner the CMS ordering ranks higher."""
    candidate: bool
    """Not detectably less stable than the most stable α."""


@dataclass(frozen=True)
class AlphaChoice:
    """The chosen CMS weight and the score of every weight on the grid."""

    alpha: float
    scores: tuple[AlphaScore, ...]
    matchups: int
    """Match-ups with a head-to-head result (the base of `agreement`)."""
    same_order: tuple[float, ...] = ()
    """The candidate weights whose full-data ordering of agents is the chosen weight's: when
    it holds every candidate, the choice among them changes CMS values, not the ranking."""


def matchup_agreement(values: np.ndarray, h2h: np.ndarray) -> tuple[float, int]:
    """Share of match-ups (pairs of agents with a head-to-head share) in which the agent with
    the higher value won the head-to-head (share above 1/2); ties on either side count 1/2.
    Returns (agreement, match-ups counted)."""
    n = len(values)
    i, j = np.triu_indices(n, 1)
    ok = np.isfinite(h2h[i, j]) & np.isfinite(values[i]) & np.isfinite(values[j])
    if not ok.any():
        return float("nan"), 0
    a = np.sign(values[i] - values[j])[ok]
    b = np.sign(h2h[i, j] - 0.5)[ok]
    score = np.where((a == 0) | (b == 0), 0.5, (a == b).astype(float))
    return float(score.mean()), int(ok.sum())


def choose_alpha(
    share: np.ndarray,
    obs: np.ndarray,
    share_b: np.ndarray,
    obs_b: np.ndarray,
    h2h: np.ndarray,
    grid: Sequence[float] = ALPHA_GRID,
) -> AlphaChoice:
    """Choose α from the full-data (agents) and resampled (resamples × agents) shares and OBS.

    Every α is scored on the same resamples. Candidates are the weights whose stability is
    within two standard errors (of the paired difference) of the most stable one; among them
    the best head-to-head agreement wins, then the α nearest 1/2, then the higher stability.
    """
    taus = []
    for a in grid:
        taus.append(kendall_tau(cms(share, obs, a), cms(share_b, obs_b, a)))
    t = np.vstack(taus)  # alphas × resamples
    stab = np.array([np.nanmean(x) if np.isfinite(x).any() else np.nan for x in t])
    best = int(np.nanargmax(np.where(np.isfinite(stab), stab, -np.inf))) if len(grid) else 0
    scores = []
    matchups = 0
    for k, a in enumerate(grid):
        x = t[k][np.isfinite(t[k])]
        se = float(x.std(ddof=1) / math.sqrt(len(x))) if len(x) > 1 else 0.0
        both = np.isfinite(t[k]) & np.isfinite(t[best])
        d = t[best][both] - t[k][both]
        gap_se = float(d.std(ddof=1) / math.sqrt(len(d))) if len(d) > 1 else 0.0
        gap = float(d.mean()) if len(d) else float("inf")
        agree, matchups = matchup_agreement(cms(share, obs, a), h2h)
        scores.append(
            AlphaScore(
                alpha=float(a),
                stability=float(stab[k]),
                stability_se=se,
                gap_se=gap_se,
                agreement=agree,
                candidate=bool(np.isfinite(stab[k]) and gap <= 2 * gap_se + 1e-12),
            )
        )

    # Candidates are equally stable as far as the resamples can tell, so their stability
    # estimates only break the last ties: preferring the most even blend keeps the choice from
    # following Monte Carlo noise when the seed changes.
    def rank(s: AlphaScore) -> tuple[float, float, float, float]:
        agree = s.agreement if math.isfinite(s.agreement) else -1.0
        return (-agree, round(abs(s.alpha - 0.5), 9), -s.stability, s.alpha)

    pool = [s for s in scores if s.candidate] or scores
    chosen = min(pool, key=rank).alpha if pool else 0.5

    def ordering(a: float) -> tuple[int, ...]:
        v = cms(share, obs, a)
        return tuple(np.lexsort((np.arange(len(v)), -np.nan_to_num(v, nan=-np.inf))).tolist())

    same = tuple(s.alpha for s in pool if ordering(s.alpha) == ordering(chosen))
    return AlphaChoice(alpha=chosen, scores=tuple(scores), matchups=matchups, same_order=same)


# ------------------------------------------------------------------------------ Glicko-2


@dataclass(frozen=True)
class GlickoRow:
    """One line of the Glicko-2 leaderboard."""

    agent: str
    rating: float
    rd: float
    vol: float
    games: int
    """Rated games (against another agent)."""
    wins: int
    draws: int
    losses: int
    profit_per_round: float
    """Mean profit per round over all the agent's finished games."""


def margin_weight(difference: float) -> float:
    """Weight of a game won by `difference` points: min(4, 1 + ln max(1, difference))."""
    return min(4.0, 1.0 + math.log(max(1.0, abs(difference))))


def glicko_leaderboard(
    data: PactData, *, margin: bool = False, tau: float = glicko2.TAU
) -> list[GlickoRow]:
    """Glicko-2 over the games in order, highest rating first (see the `glicko2` definition)."""
    matches = []
    tally: dict[str, list[int]] = {a: [0, 0, 0] for a in data.agents}
    # Total profit and rounds per agent, over every game (self-play included).
    profit: dict[str, float] = dict.fromkeys(data.agents, 0.0)
    played: dict[str, int] = dict.fromkeys(data.agents, 0)
    for _, buyer, seller, pb, ps, rounds in data.matches:
        profit[buyer] += pb
        profit[seller] += ps
        played[buyer] += rounds
        played[seller] += rounds
        if buyer == seller:
            continue
        score = 1.0 if pb > ps else 0.0 if pb < ps else 0.5
        weight = margin_weight(pb - ps) if margin else 1.0
        matches.append(glicko2.Match(buyer, seller, score, weight))
        for agent, s in ((buyer, score), (seller, 1 - score)):
            tally[agent][0 if s == 1 else 1 if s == 0.5 else 2] += 1
    ratings = glicko2.rate_matches(matches, tau)
    rows = []
    for agent in data.agents:
        r = ratings.get(agent, glicko2.Rating())
        w, d, lo = tally[agent]
        total, rounds = profit[agent], played[agent]
        rows.append(
            GlickoRow(
                agent=agent,
                rating=r.rating,
                rd=r.rd,
                vol=r.vol,
                games=w + d + lo,
                wins=w,
                draws=d,
                losses=lo,
                profit_per_round=total / rounds if rounds else float("nan"),
            )
        )
    rows.sort(key=lambda x: (-x.rating, x.agent))
    return rows


# ------------------------------------------------------------------------------ analysis


@dataclass
class PactAnalysis:
    """Everything the PACT table, figures and report show, for one selection of games."""

    games: int
    agents: list[AgentProfile]
    """Per agent: scalar metrics (with obs and cms) and keyed metrics; best CMS first."""
    h2h: dict[tuple[str, str], tuple[Estimate, int]]
    """(agent, opponent) -> surplus share of the agent against the opponent, and the number
    of games they played (in either role)."""
    alpha: AlphaChoice
    glicko: list[GlickoRow]
    glicko_margin: list[GlickoRow]
    resamples: int
    seed: int
    versions: dict[str, int] = field(default_factory=dict)


SCALAR_METRICS: tuple[str, ...] = (
    "cms",
    "obs",
    "surplus_share",
    "profit_per_round",
    "trade_rate",
    "bid_offset",
    "trade_offset",
)


def analyse(
    data: PactData,
    resamples: int = RESAMPLES,
    seed: int = 0,
    grid: Sequence[float] = ALPHA_GRID,
) -> PactAnalysis:
    """Point estimates, bootstrap intervals, the CMS weight and the Glicko-2 leaderboard."""
    if not 1 <= resamples <= MAX_RESAMPLES:
        raise ValueError(f"resamples must be 1 to {MAX_RESAMPLES:,}, got {resamples}")
    cols = data.columns
    agents = list(data.agents)
    a_ix = {a: i for i, a in enumerate(agents)}
    n_a = len(agents)
    point = _ratio(cols.num.sum(axis=0), cols.den.sum(axis=0))
    blocks = []
    for w in resample_weights(data.cluster, data.stratum, resamples, seed):
        blocks.append(_ratio(w @ cols.num, w @ cols.den))
    boot = np.vstack(blocks) if blocks else np.empty((0, len(cols.names)))

    # Head-to-head shares, overall shares and OBS, full data and per resample.
    col_ix = {c: k for k, c in enumerate(cols.names)}
    vs_point = np.full((n_a, n_a), np.nan)
    vs_boot = np.full((boot.shape[0], n_a, n_a), np.nan)
    for (name, key, agent), k in col_ix.items():
        if name == "surplus_share_vs" and key in a_ix:
            vs_point[a_ix[agent], a_ix[key]] = point[k]
            vs_boot[:, a_ix[agent], a_ix[key]] = boot[:, k]
    share_point = np.full(n_a, np.nan)
    share_boot = np.full((boot.shape[0], n_a), np.nan)
    for a in agents:
        ks = col_ix.get(("surplus_share", "", a))
        if ks is not None:
            share_point[a_ix[a]] = point[ks]
            share_boot[:, a_ix[a]] = boot[:, ks]
    obs_point = _nanmean_rows(vs_point)
    obs_boot = _nanmean_rows(vs_boot)

    alpha = choose_alpha(share_point, obs_point, share_boot, obs_boot, vs_point, grid)
    cms_point = cms(share_point, obs_point, alpha.alpha)
    cms_boot = cms(share_boot, obs_boot, alpha.alpha)

    # Estimates per column.
    lo, hi = _interval(boot) if boot.shape[0] else (point * np.nan, point * np.nan)
    used = (cols.den != 0).sum(axis=0)
    profs = {a: AgentProfile(agent=a, games=data.seat_games.get(a, 0)) for a in agents}
    for (name, key, agent), k in col_ix.items():
        est = _estimate(point[k], lo[k], hi[k], int(used[k]))
        if REGISTRY[name].key:
            profs[agent].keyed.setdefault(name, {})[key] = est
        else:
            profs[agent].metrics[name] = est
    # Games of each match-up, traded or not, from either side.
    met: dict[tuple[str, str], int] = {}
    for _, buyer, seller, *_rest in data.matches:
        if buyer != seller:
            met[(buyer, seller)] = met.get((buyer, seller), 0) + 1
            met[(seller, buyer)] = met.get((seller, buyer), 0) + 1
    games_vs = {
        (agent, key): met.get((agent, key), 0)
        for (name, key, agent) in col_ix
        if name == "surplus_share_vs"
    }
    for extra, pt, bs in (("obs", obs_point, obs_boot), ("cms", cms_point, cms_boot)):
        elo, ehi = _interval(bs) if bs.shape[0] else (np.full(n_a, np.nan), np.full(n_a, np.nan))
        for a in agents:
            i = a_ix[a]
            profs[a].metrics[extra] = _estimate(pt[i], elo[i], ehi[i], profs[a].games)
    for p in profs.values():
        for name in SCALAR_METRICS:
            p.metrics.setdefault(name, Estimate(None))

    def order(p: AgentProfile) -> tuple[float, str]:
        v = p.metrics["cms"].value
        return (-(v if v is not None else -math.inf), p.agent)

    h2h = {
        (agent, opp): (profs[agent].keyed["surplus_share_vs"][opp], games_vs[(agent, opp)])
        for (agent, opp) in games_vs
    }
    return PactAnalysis(
        games=len(data.games),
        agents=sorted(profs.values(), key=order),
        h2h=h2h,
        alpha=alpha,
        glicko=glicko_leaderboard(data),
        glicko_margin=glicko_leaderboard(data, margin=True),
        resamples=resamples,
        seed=seed,
        versions={m.name: m.version for m in REGISTRY.values()},
    )


def _nanmean_rows(m: np.ndarray) -> np.ndarray:
    """Mean over the last axis of the defined entries; NaN where none is defined."""
    ok = np.isfinite(m)
    cnt = ok.sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(cnt > 0, np.where(ok, m, 0).sum(axis=-1) / np.maximum(cnt, 1), np.nan)


def pact_analysis(
    con: duckdb.DuckDBPyConnection,
    sel: Selection | None = None,
    resamples: int = RESAMPLES,
    seed: int = 0,
) -> PactAnalysis:
    """Load the selected games and analyse them (see `analyse`)."""
    return analyse(load(con, sel), resamples=resamples, seed=seed)


# ------------------------------------------------------------------------------ output


def analysis_json(a: PactAnalysis) -> dict[str, Any]:
    """The analysis as plain JSON: per-agent values (fractions for shares) with "ci" pairs."""

    def num(x: float | None) -> float | None:
        return None if x is None or not math.isfinite(x) else round(x, 6)

    agents = []
    for p in a.agents:
        doc: dict[str, Any] = {"agent": p.agent, "games": p.games}
        ci: dict[str, Any] = {}
        for name, est in p.metrics.items():
            doc[name] = num(est.value)
            ci[name] = [num(est.lo), num(est.hi)]
        for name, by_key in p.keyed.items():
            doc[name] = {k: num(e.value) for k, e in by_key.items()}
            ci[name] = {k: [num(e.lo), num(e.hi)] for k, e in by_key.items()}
        doc["ci"] = ci
        agents.append(doc)
    return {
        "games": a.games,
        "resamples": a.resamples,
        "seed": a.seed,
        "alpha": a.alpha.alpha,
        "alpha_same_order": list(a.alpha.same_order),
        "alpha_grid": [
            {
                "alpha": s.alpha,
                "stability": num(s.stability),
                "stability_se": num(s.stability_se),
                "agreement": num(s.agreement),
                "candidate": s.candidate,
            }
            for s in a.alpha.scores
        ],
        "agents": agents,
        "glicko2": [
            {
                "agent": r.agent,
                "rating": num(r.rating),
                "rd": num(r.rd),
                "vol": num(r.vol),
                "games": r.games,
                "wins": r.wins,
                "draws": r.draws,
                "losses": r.losses,
                "profit_per_round": num(r.profit_per_round),
            }
            for r in a.glicko
        ],
        "versions": a.versions,
    }


@dataclass(frozen=True)
class PactTable:
    """The per-agent table for a terminal: a header row and, per agent, value and interval
    text per column."""

    headers: tuple[str, ...]
    rows: tuple[tuple[str, int, tuple[tuple[str, str], ...]], ...]
    """(agent, seat-games, ((value, interval), ...))."""


#: Columns of the terminal table: metric, heading.
TABLE_COLUMNS: tuple[tuple[str, str], ...] = (
    ("cms", "CMS %"),
    ("obs", "OBS %"),
    ("surplus_share", "share %"),
    ("profit_per_round", "profit/rd"),
    ("trade_rate", "trade %"),
    ("bid_offset", "bid off."),
    ("trade_offset", "trade off."),
)


def _cell(est: Estimate | None, percent: bool) -> tuple[str, str]:
    if est is None or est.value is None:
        return ("-", "")
    k = 100.0 if percent else 1.0
    value = f"{k * est.value:.1f}"
    if est.lo is None or est.hi is None:
        return (value, "")
    return (value, f"{k * est.lo:.1f}–{k * est.hi:.1f}")


def metric_table(a: PactAnalysis) -> PactTable:
    """The PACT metric table (agents by CMS, then Glicko-2 rating), values with intervals."""
    rating = {r.agent: r for r in a.glicko}
    rows = []
    for p in a.agents:
        cells = [_cell(p.metrics.get(n), REGISTRY[n].percent) for n, _ in TABLE_COLUMNS]
        r = rating.get(p.agent)
        cells.append((f"{r.rating:.0f}", f"RD {r.rd:.0f}") if r and r.games else ("-", ""))
        rows.append((p.agent, p.games, tuple(cells)))
    return PactTable(headers=(*(h for _, h in TABLE_COLUMNS), "Glicko-2"), rows=tuple(rows))


TABLE_TITLE = "PACT per agent: value, and its 95% bootstrap interval below"


def table_parts(
    table: PactTable, width: int = 80, label: Callable[[str], str] = lambda s: s
) -> list[Any]:
    """The table as rich tables that fit `width` (later columns go to further tables, each
    repeating the agent column); `label` turns an agent into display text."""
    from projections.metrics import tables as T

    grid = T.Grid(
        TABLE_TITLE,
        ("agent", "games", *table.headers),
        [(agent, str(games), *cells) for agent, games, cells in table.rows],
    )
    return T.fitted(grid, width, label)


def render_table(
    table: PactTable, width: int = 80, label: Callable[[str], str] = lambda s: s
) -> list[str]:
    """The table as plain text lines no wider than `width` (see `table_parts`)."""
    from projections.metrics import tables as T

    return T.as_lines(table_parts(table, width, label), width)
