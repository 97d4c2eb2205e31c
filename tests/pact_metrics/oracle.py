"""The PACT metrics recomputed in plain Python from the synthetic games, without numpy, SQL or
any code of projections.pact.metrics: the reference the tests compare against."""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Sequence

from pact_synth import Game


def finished(games: Sequence[Game], tournament: str | None = None) -> list[Game]:
    """The finished games that have rounds (of one tournament, or all)."""
    return [
        g
        for g in games
        if g.status == "finished"
        and g.rounds
        and (tournament is None or g.tournament == tournament)
    ]


def seat_rounds(games: Sequence[Game]) -> list[dict]:
    """One record per seat per round: agent, opponent, role, round, offset, traded, profit,
    surplus."""
    out = []
    for g in games:
        for r in g.rounds:
            surplus = r.value - r.cost if r.traded else None
            out.append(
                dict(
                    game=g.game_id,
                    agent=g.buyer,
                    opponent=g.seller,
                    role="buyer",
                    round=r.round,
                    offset=r.value - r.bid,
                    traded=r.traded,
                    profit=r.buyer_profit,
                    surplus=surplus,
                )
            )
            out.append(
                dict(
                    game=g.game_id,
                    agent=g.seller,
                    opponent=g.buyer,
                    role="seller",
                    round=r.round,
                    offset=r.ask - r.cost,
                    traded=r.traded,
                    profit=r.seller_profit,
                    surplus=surplus,
                )
            )
    return out


def pooled(rows: list[dict], num, den, key=lambda r: "") -> dict[tuple[str, str], float]:
    """sum(num) / sum(den) per (agent, key) over rows."""
    n: dict = defaultdict(float)
    d: dict = defaultdict(float)
    for r in rows:
        k = (r["agent"], key(r))
        n[k] += num(r)
        d[k] += den(r)
    return {k: n[k] / d[k] for k in n if d[k] != 0}


def metrics(games: Sequence[Game]) -> dict[str, dict[tuple[str, str], float]]:
    """Every ratio metric per (agent, key)."""
    rows = seat_rounds(games)
    traded = [r for r in rows if r["traded"]]
    vs = [r for r in traded if r["opponent"] != r["agent"]]
    return {
        "profit_per_round": pooled(rows, lambda r: r["profit"], lambda r: 1),
        "profit_per_round_role": pooled(
            rows, lambda r: r["profit"], lambda r: 1, lambda r: r["role"]
        ),
        "profit_by_round": pooled(
            rows, lambda r: r["profit"], lambda r: 1, lambda r: str(r["round"])
        ),
        "trade_rate": pooled(rows, lambda r: r["traded"], lambda r: 1),
        "trade_rate_by_round": pooled(
            rows, lambda r: r["traded"], lambda r: 1, lambda r: str(r["round"])
        ),
        "bid_offset": pooled(rows, lambda r: r["offset"], lambda r: 1),
        "bid_offset_by_round": pooled(
            rows, lambda r: r["offset"], lambda r: 1, lambda r: str(r["round"])
        ),
        "trade_offset": pooled(traded, lambda r: r["offset"], lambda r: 1),
        "trade_offset_by_round": pooled(
            traded, lambda r: r["offset"], lambda r: 1, lambda r: str(r["round"])
        ),
        "surplus_share": pooled(vs, lambda r: r["profit"], lambda r: r["surplus"]),
        "surplus_share_vs": pooled(
            vs, lambda r: r["profit"], lambda r: r["surplus"], lambda r: r["opponent"]
        ),
    }


def obs(games: Sequence[Game]) -> dict[str, float]:
    """Opponent-balanced share: the mean over opponents of the share against each."""
    by: dict[str, list[float]] = defaultdict(list)
    for (agent, _opp), v in sorted(metrics(games)["surplus_share_vs"].items()):
        by[agent].append(v)
    return {a: statistics.fmean(v) for a, v in by.items()}


def cms(games: Sequence[Game], alpha: float) -> dict[str, float]:
    """CMS with OBS mapped to the share's mean and spread over agents."""
    share = {a: v for (a, _), v in metrics(games)["surplus_share"].items()}
    o = obs(games)
    agents = sorted(set(share) & set(o))
    ms, ss = statistics.fmean(share[a] for a in agents), statistics.pstdev(share[a] for a in agents)
    mo, so = statistics.fmean(o[a] for a in agents), statistics.pstdev(o[a] for a in agents)
    return {a: (1 - alpha) * share[a] + alpha * (ms + ss * (o[a] - mo) / so) for a in agents}


def tau_b(x: Sequence[float], y: Sequence[float]) -> float:
    """Kendall's τ-b by counting pairs."""
    conc = disc = tx = ty = 0
    n = len(x)
    for i in range(n):
        for j in range(i + 1, n):
            a = (x[i] > x[j]) - (x[i] < x[j])
            b = (y[i] > y[j]) - (y[i] < y[j])
            if a == 0 and b == 0:
                tx += 1
                ty += 1
            elif a == 0:
                tx += 1
            elif b == 0:
                ty += 1
            elif a == b:
                conc += 1
            else:
                disc += 1
    pairs = n * (n - 1) // 2
    return (conc - disc) / ((pairs - tx) * (pairs - ty)) ** 0.5
