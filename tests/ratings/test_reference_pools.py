"""Frozen reference pools beyond MindGames: the pool's ratings are fixed (the same in every
run and every process, untouched by scoring), the candidate's score is reproducible, its
games are stored and verify, and bad input is one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from events.store import DuckStore
from runner import pools as P
from tests.cli.clikit import cattle, cattle_many


def _numbers(ratings: dict[str, dict[str, object]]) -> dict[str, dict[str, tuple[float, float]]]:
    return {
        g: {a: (r.mu, r.sigma) for a, r in per.items()}  # type: ignore[attr-defined]
        for g, per in ratings.items()
    }


@pytest.mark.parametrize("name", ["ct-ref-code", "gtbench-ref-code"])
def test_scoring_never_moves_the_frozen_pool(name: str, tmp_path: Path) -> None:
    pool = P.find(name)
    before = _numbers(P.frozen(pool))
    assert _numbers(P.pool_ratings(pool)) == before  # recomputed: the same numbers
    # The reference agents do differ (the pool is not a table of priors).
    assert any(len({m for m, _ in per.values()}) > 1 for per in before.values())
    with DuckStore(tmp_path / "p.duckdb") as store:
        first, ids = P.score(store, pool, "random")
        again, ids_again = P.score(store, pool, "random")
    assert [(s.group, s.mu, s.sigma, s.games) for s in first] == [
        (s.group, s.mu, s.sigma, s.games) for s in again
    ]
    assert len(ids) == len(set(ids)) == sum(s.games for s in first)
    assert not set(ids) & set(ids_again)
    assert [s.group for s in first] == list(pool.agents)
    assert all(s.pool == before[s.group] for s in first)
    assert _numbers(P.frozen(pool)) == before == _numbers(P.pool_ratings(pool))


def test_the_command_is_deterministic_across_processes_and_its_games_verify(
    tmp_path: Path,
) -> None:
    dbs = [tmp_path / f"{i}.duckdb" for i in range(2)]
    runs = [
        ["arena", "--pool", "ct-ref-code", "--agent", "random", "--json", "--db", str(db)]
        for db in dbs
    ]
    runs.append(["arena", "--pool", "ct-ref-code", "--agent", "bogus", "--db", str(dbs[0])])
    runs.append(["arena", "--pool", "list"])
    *got, bad, listed = cattle_many(runs)
    outs = []
    for g in got:
        assert g.returncode == 0, g.stderr
        doc = json.loads(g.stdout)
        outs.append((doc.pop("games"), doc))
    assert outs[0][1] == outs[1][1]
    assert outs[0][1]["scores"][0]["pool"] == {
        a: list(r)
        for a, r in _numbers(P.frozen(P.find("ct-ref-code")))["cattle-trade@micro-duel"].items()
    }
    assert bad.returncode != 0 and len(bad.stderr.strip().splitlines()) == 1
    assert "plays none of pool ct-ref-code's games" in bad.stderr
    for name in ("ct-ref-code", "pact-ref-code", "gtbench-ref-code", "gb-ref-code", "mg-ref-code"):
        assert name in listed.stdout
    verified = cattle("verify", "--all", "--db", dbs[1])
    assert verified.returncode == 0, verified.stderr
    with DuckStore(dbs[1]) as store:
        stored = {r[0] for r in store.con.execute("SELECT game_id FROM games").fetchall()}
    assert stored == set(outs[1][0])


def test_every_declared_pool_names_games_and_agents_that_exist() -> None:
    from agents import make_agent

    pools = P.declared()
    assert {"ct-ref-code", "pact-ref-code", "gtbench-ref-code", "gb-ref-code"} <= set(pools)
    assert "mg-ref-code" in pools
    for pool in pools.values():
        for game, agents in pool.agents.items():
            config = pool.config(game)
            assert len(agents) >= 2
            for seat, agent in enumerate(agents[: config.players]):
                make_agent(agent, seat, 0, config)
    with pytest.raises(P.PoolError, match="unknown pool 'nope'; known: ct-ref-code"):
        P.find("nope")
