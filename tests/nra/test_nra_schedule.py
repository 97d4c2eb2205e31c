"""Two-seat round-robin: every pairing plays its matches with each side first in half of them.

With N matches per pairing and N even, each side of every pairing holds seat 0 in exactly
N / 2 of them. With N odd one side is first once more; which side is a balanced orientation
of the pairings, so every agent has that extra first move in as many pairings as any other
(to within one). A total that is not a multiple of the pairings gives some pairings one
match more; the same holds within each pairing.
"""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.schedule import PlannedGame, leads, schedule
from events import catalog
from events.store import DuckStore
from runner.tournament import create, ensure_schema, pending_tasks, play_tournament
from tests.cli.clikit import cattle


def _firsts(plan: list[PlannedGame]) -> dict[frozenset[str], Counter[str]]:
    """Per pairing: how often each side held seat 0 (every side listed, zero included)."""
    out: dict[frozenset[str], Counter[str]] = {}
    for g in plan:
        c = out.setdefault(frozenset(g.seats), Counter(dict.fromkeys(g.seats, 0)))
        c[g.seats[0]] += 1
    return out


@settings(max_examples=80, deadline=None)
@given(
    pool=st.integers(min_value=2, max_value=9),
    per_pair=st.integers(min_value=1, max_value=9),
    seed=st.integers(min_value=0, max_value=2**63 - 1),
)
def test_each_side_is_first_in_half_of_its_matches(pool: int, per_pair: int, seed: int) -> None:
    agents = tuple(f"random:{k}" for k in range(pool))
    pairs = math.comb(pool, 2)
    plan = schedule("round-robin", agents, pairs * per_pair, seed, 2)
    firsts = _firsts(plan)
    assert len(firsts) == pairs
    extra: Counter[str] = Counter(dict.fromkeys(agents, 0))
    for pair, c in firsts.items():
        assert sum(c.values()) == per_pair
        (x, nx), (y, ny) = sorted(c.items())
        if per_pair % 2 == 0:
            assert nx == ny == per_pair // 2, (pair, c)
        else:
            assert abs(nx - ny) == 1
            extra[x if nx > ny else y] += 1
    if per_pair % 2:
        # Balanced: nobody has the extra first move in more than one pairing more than another.
        assert max(extra.values()) - min(extra.values()) <= 1, extra
        assert sum(extra.values()) == pairs
    # Every game has its own seed, from the tournament seed.
    assert len({g.seed for g in plan}) == len(plan)
    assert plan == schedule("round-robin", agents, pairs * per_pair, seed, 2)


@settings(max_examples=60, deadline=None)
@given(pool=st.integers(min_value=2, max_value=7), games=st.integers(min_value=1, max_value=60))
def test_any_total_spreads_matches_and_first_moves_evenly(pool: int, games: int) -> None:
    agents = tuple(f"random:{k}" for k in range(pool))
    plan = schedule("round-robin", agents, games, 3, 2)
    counts = [sum(c.values()) for c in _firsts(plan).values()]
    assert max(counts) - min(counts) <= 1 if len(counts) == math.comb(pool, 2) else max(counts) == 1
    for c in _firsts(plan).values():
        assert max(c.values()) - min(c.values()) <= 1
    # Any prefix (an interrupted tournament) is balanced the same way.
    prefix = plan[: games // 2]
    for c in _firsts(prefix).values():
        assert max(c.values()) - min(c.values()) <= 1


def test_the_orientation_is_balanced_for_small_pools() -> None:
    for pool in range(2, 12):
        out = Counter(
            i if leads(pool, i, j) else j for i, j in itertools.combinations(range(pool), 2)
        )
        degrees = [out.get(k, 0) for k in range(pool)]
        assert max(degrees) - min(degrees) <= 1, (pool, degrees)


def test_three_and_more_seats_keep_their_rotation() -> None:
    plan = schedule("round-robin", ("a", "b", "c", "d"), 8, 1, 3)
    assert [g.rotation for g in plan] == [0, 0, 0, 0, 1, 1, 1, 1]


def _stored_firsts(db: Path, name: str) -> dict[frozenset[str], Counter[str]]:
    with DuckStore(db, read_only=True) as store:
        _, rows = store.query(
            "SELECT g.seats FROM games g WHERE g.tournament = ? AND g.status = 'finished'",
            [name],
        )
    plan = [
        PlannedGame(
            index=0, seed=0, seats=tuple(s["agent"] for s in json.loads(r[0])), lineup="",
            rotation=0,
        )
        for r in rows
    ]  # fmt: skip
    return _firsts(plan)


def test_a_pact_round_robin_is_seat_balanced_when_stored(tmp_path: Path) -> None:
    db = tmp_path / "rr.duckdb"
    got = cattle("tournament", "--game", "pact", "--preset", "quick", "--format", "round-robin",
                 "--agents", "truthful,anchor,mirror", "--games", "12", "--seed", "4",
                 "--name", "rr", "--quiet", "--db", db)  # fmt: skip
    assert got.returncode == 0, got.stderr
    firsts = _stored_firsts(db, "rr")
    assert len(firsts) == 3
    assert all(sorted(c.values()) == [2, 2] for c in firsts.values())


def test_an_interrupted_round_robin_resumes_balanced(tmp_path: Path) -> None:
    db = tmp_path / "toy.duckdb"
    game = catalog.get("pact")
    config = game.preset("quick")
    with DuckStore(db, init=True) as store:
        ensure_schema(store)
        create(store, "cut", "round-robin", ("truthful", "anchor", "random"), 18, 9, config)
        _, tasks, _ = pending_tasks(store, "cut")
        play_tournament(store, "cut", config, tasks[:7])  # stopped after 7 of 18
    got = cattle("tournament", "--resume", "cut", "--quiet", "--db", db)
    assert got.returncode == 0, got.stderr
    firsts = _stored_firsts(db, "cut")
    assert all(sorted(c.values()) == [3, 3] for c in firsts.values()), firsts
    with DuckStore(db, read_only=True) as store:
        _, rows = store.query("SELECT count(*) FROM games WHERE tournament = 'cut'")
    assert rows[0][0] == 18
