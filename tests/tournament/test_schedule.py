"""Tournament schedules are balanced and derived from the tournament seed."""

from __future__ import annotations

import itertools
import time
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.schedule import (
    COMPOSITIONS,
    FORMATS,
    PlannedGame,
    ScheduleError,
    check,
    game_seed,
    iter_schedule,
    opponents,
    rotate,
    schedule,
)

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
        ("teams", ("tracker",), 4),
        ("teams", ("tracker", "setrace"), 3),
    ],
)
def test_bad_schedules_are_refused(fmt: str, agents: tuple[str, ...], games: int) -> None:
    with pytest.raises(ScheduleError):
        schedule(fmt, agents, games, 1, 4)


def _eager(fmt: str, agents: tuple[str, ...], games: int, seed: int, players: int) -> list:
    """The schedule as first written: every combination listed up front."""
    out = []
    if fmt == "mixed":
        comps = tuple(COMPOSITIONS)
        for i in range(games):
            deal = i // len(agents)
            r = (deal // len(comps)) % players
            comp = comps[deal % len(comps)]
            seats = rotate((agents[i % len(agents)], *opponents(comp, players)), r)
            out.append(
                PlannedGame(
                    index=i, seed=game_seed(seed, deal), seats=seats, lineup=comp, rotation=r
                )
            )
        return out
    if fmt == "teams":
        pairs = list(itertools.combinations(agents, 2))
        half = players // 2
        for i in range(games):
            deal, side = divmod(i, 2)
            a, b = pairs[deal % len(pairs)]
            first, second = (a, b) if side == 0 else (b, a)
            seats = (first,) * half + (second,) * (players - half)
            out.append(
                PlannedGame(
                    index=i,
                    seed=game_seed(seed, deal),
                    seats=seats,
                    lineup=f"{a}+{b}",
                    rotation=side,
                )
            )
        return out
    combos = list(itertools.combinations(agents, players))
    for i in range(games):
        if fmt == "round-robin" and players == 2:
            # Two seats: the pairing's leading side (a balanced orientation of the pairings)
            # moves first in its even-numbered matches.
            a, b = (agents.index(x) for x in combos[i % len(combos)])
            lead = 0 if (b - a) % len(agents) <= (len(agents) - 1) // 2 else 1
            deal, combo, r = i, combos[i % len(combos)], (lead + i // len(combos)) % 2
        elif fmt == "round-robin":
            deal, combo, r = i, combos[i % len(combos)], (i // len(combos)) % players
        else:
            deal, r = divmod(i, players)
            combo = combos[deal % len(combos)]
        out.append(
            PlannedGame(
                index=i,
                seed=game_seed(seed, deal),
                seats=rotate(combo, r),
                lineup="+".join(combo),
                rotation=r,
            )
        )
    return out


@settings(max_examples=60, deadline=None)
@given(
    fmt=st.sampled_from(FORMATS),
    pool=st.integers(min_value=1, max_value=7),
    players=st.integers(min_value=2, max_value=5),
    games=st.integers(min_value=1, max_value=150),
    seed=st.integers(min_value=0, max_value=2**63 - 1),
)
def test_the_streamed_schedule_equals_the_listed_one(
    fmt: str, pool: int, players: int, games: int, seed: int
) -> None:
    agents = tuple(f"random:{i}" for i in range(pool))
    try:
        check(fmt, agents, games, players)
    except ScheduleError:
        with pytest.raises(ScheduleError):
            schedule(fmt, agents, games, seed, players)
        return
    assert schedule(fmt, agents, games, seed, players) == _eager(fmt, agents, games, seed, players)


def test_a_huge_schedule_is_produced_lazily() -> None:
    # 200 agents have 64,684,950 four-player combinations; listing them would take minutes.
    agents = tuple(f"random:{i}" for i in range(200))
    start = time.monotonic()
    for fmt in FORMATS:
        games = iter_schedule(fmt, agents, 10**9, 1, 4)
        first = [next(games) for _ in range(3)]
        assert [g.index for g in first] == [0, 1, 2]
    assert time.monotonic() - start < 5
    with pytest.raises(ScheduleError):
        iter_schedule("duplicate", agents, 10**9 + 1, 1, 4)  # checked before the first game


def test_teams_seat_each_agent_of_a_pairing_on_both_halves_of_each_deal() -> None:
    plan = schedule("teams", ("a", "b", "c"), 6, 1, 6)
    assert [g.seats for g in plan[:2]] == [("a",) * 3 + ("b",) * 3, ("b",) * 3 + ("a",) * 3]
    assert [g.lineup for g in plan] == ["a+b", "a+b", "a+c", "a+c", "b+c", "b+c"]
    assert plan[0].seed == plan[1].seed != plan[2].seed


def test_teams_seat_an_odd_table_with_the_smaller_half_first() -> None:
    """Are You the Traitor?: two evil seats against three good ones, each side once."""
    plan = schedule("teams", ("a", "b"), 2, 1, 5)
    assert [g.seats for g in plan] == [("a", "a", "b", "b", "b"), ("b", "b", "a", "a", "a")]
    assert plan[0].seed == plan[1].seed
