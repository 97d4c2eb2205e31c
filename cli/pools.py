"""Scoring an agent against a frozen reference pool (`cattle arena --pool NAME --agent SPEC`),
for the pools of every game on the core (runner.pools)."""

from __future__ import annotations

import json
from pathlib import Path

from cli.common import UsageError, _open, out
from cli.text import hint, plain, styled


def score_against_pool(db: Path, pool: str, agent: str | None, as_json: bool) -> None:
    """Play `agent` against pool `pool` (`list`: print the pools), store the games, print
    its ratings."""
    from runner.pools import PoolError, declared, find, score

    if pool == "list":
        pools = declared()
        if as_json:
            print(
                json.dumps(
                    {
                        p.name: {"summary": p.summary, "games": list(p.agents)}
                        for p in pools.values()
                    }
                )
            )
            return
        t = styled("Frozen reference pools")
        for col in ("pool", "games", "deals", "summary"):
            t.add_column(col, justify="right" if col == "deals" else "left", overflow="fold")
        for p in sorted(pools.values(), key=lambda p: p.name):
            t.add_row(plain(p.name), plain(", ".join(p.agents)), str(p.deals), plain(p.summary))
        out.print(t)
        return
    try:
        found = find(pool)
    except PoolError as exc:
        raise UsageError(f"--pool: {exc}") from None
    if not agent:
        raise UsageError("--pool needs --agent, the agent to score")
    with _open(db, write=True) as store:
        try:
            scores, ids = score(store, found, agent)
        except PoolError as exc:
            raise UsageError(f"--agent: {exc}") from None
    if as_json:
        print(
            json.dumps(
                {
                    "pool": pool,
                    "agent": agent,
                    "games": ids,
                    "scores": [
                        {
                            "group": s.group,
                            "mu": s.mu,
                            "sigma": s.sigma,
                            "games": s.games,
                            "pool": {a: list(r) for a, r in s.pool.items()},
                        }
                        for s in scores
                    ],
                }
            )
        )
        return
    t = styled(plain(f"{agent} against the frozen pool {pool}"))
    for col in ("game / track", "μ", "σ", "games", "pool μ (range)"):
        if col.startswith("game"):
            t.add_column(col, overflow="fold")
        else:
            t.add_column(col, justify="right", no_wrap=True)
    for s in scores:
        spread = (
            f"{min(m for m, _ in s.pool.values()):.1f}-{max(m for m, _ in s.pool.values()):.1f}"
            if s.pool
            else ""
        )
        t.add_row(plain(s.group), f"{s.mu:.2f}", f"{s.sigma:.2f}", str(s.games), spread)
    out.print(t)
    out.print(
        plain(f"{len(ids)} games stored; check them: {hint('verify', '--all', db=db)}"),
        soft_wrap=True,
    )
