"""Tournament schedules are balanced and derived from the tournament seed."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from engine.schedule import COMPOSITIONS, ScheduleError, schedule

POOL = ("tracker", "setrace", "economy", "random", "random:x")


def test_mixed_covers_every_composition_and_seat_equally() -> None:
    agents = ("tracker", "setrace", "economy", "random")
    plan = schedule("mixed", agents, 4 * 7 * 4, 3, 4)
    under: Counter[tuple[str, str, int]] = Counter()
    for g in plan:
        x = agents[g.index % 4]
        under[(x, g.lineup, g.seats.index(x) if g.seats.count(x) == 1 else g.rotation)] += 1
        others = list(g.seats)
        others.remove(x)
        assert sorted(others) == sorted(COMPOSITIONS[g.lineup])
    assert len(under) == 4 * 7 * 4 and set(under.values()) == {1}
    # agents under test share each deal: same seed, composition and rotation
    for i in range(0, len(plan), 4):
        block = plan[i : i + 4]
        assert len({(g.seed, g.lineup, g.rotation) for g in block}) == 1


def test_round_robin_pairs_meet_equally_often() -> None:
    pool = POOL
    n_combos = 5  # C(5, 4)
    plan = schedule("round-robin", pool, n_combos * 4 * 2, 9, 4)
    pairs = Counter(p for g in plan for p in itertools.combinations(sorted(set(g.seats)), 2))
    assert len(pairs) == 10 and len(set(pairs.values())) == 1
    seats = Counter((a, g.seats.index(a)) for g in plan for a in g.seats)
    assert len(set(seats.values())) == 1  # every agent sits in every seat equally often
    assert len({g.seed for g in plan}) == len(plan)


def test_duplicate_plays_each_deal_in_every_rotation() -> None:
    agents = ("tracker", "setrace", "economy", "random")
    plan = schedule("duplicate", agents, 12, 5, 4)
    by_seed: dict[int, list[tuple[str, ...]]] = {}
    for g in plan:
        by_seed.setdefault(g.seed, []).append(g.seats)
    assert len(by_seed) == 3
    for lineups in by_seed.values():
        assert len(lineups) == 4
        for a in agents:
            assert sorted(s.index(a) for s in lineups) == [0, 1, 2, 3]


def test_seeds_come_from_the_tournament_seed() -> None:
    a = schedule("round-robin", POOL, 20, 1, 4)
    assert a == schedule("round-robin", POOL, 20, 1, 4)
    assert [g.seed for g in a] != [g.seed for g in schedule("round-robin", POOL, 20, 2, 4)]


@pytest.mark.parametrize(
    ("fmt", "agents", "games"),
    [
        ("swiss", ("tracker",), 4),
        ("round-robin", ("tracker", "setrace"), 4),
        ("duplicate", ("tracker", "setrace", "economy", "random"), 6),
        ("mixed", ("tracker", "tracker"), 4),
        ("mixed", ("tracker",), 0),
    ],
)
def test_bad_schedules_are_refused(fmt: str, agents: tuple[str, ...], games: int) -> None:
    with pytest.raises(ScheduleError):
        schedule(fmt, agents, games, 1, 4)
