"""The matchmaker as a pure function: whatever the ratings, spend and limits, a round stays
within its size, every agent's concurrency and budgets, and is the same when chosen again."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from events.league import AgentEntry, GameEntry, LeagueConfigured
from projections.league import fold
from runner.league import Inputs, choose

GAMES = (("pact", "quick"), ("openspiel", "kuhn_poker"), ("cattle-trade", "standard"))


@st.composite
def leagues(draw: st.DrawFn) -> tuple[LeagueConfigured, Inputs, int]:
    n = draw(st.integers(2, 7))
    agents = []
    ratings: dict[str, dict[str, tuple[float, float]]] = {g: {} for g, _ in GAMES}
    spend = {}
    for k in range(n):
        name = f"a{k}"
        plays = draw(st.sets(st.sampled_from([g for g, _ in GAMES]), min_size=1))
        agents.append(
            AgentEntry(
                name=name,
                specs={g: "random" for g in plays},
                seats={g: f"random-{k}" for g in plays},
                concurrency=draw(st.none() | st.integers(1, 6)),
                calls_per_day=draw(st.none() | st.integers(1, 50)),
            )
        )
        spend[name] = (draw(st.integers(0, 60)), 0, 0.0)
        for g in plays:
            if draw(st.booleans()):
                ratings[g][name] = (draw(st.floats(10, 40)), draw(st.floats(0.5, 8.4)))
    games = tuple(
        GameEntry(game=g, preset=p, weight=draw(st.floats(0, 3)), duplicate=draw(st.booleans()))
        for g, p in GAMES
    )
    cfg = LeagueConfigured(
        round=0, seed=draw(st.integers(0, 99)), round_games=8, games=games, agents=tuple(agents)
    )
    return cfg, Inputs(ratings=ratings, spend=spend), draw(st.integers(1, 12))


@settings(max_examples=60, deadline=None)
@given(leagues())
def test_a_round_keeps_every_limit(case: tuple[LeagueConfigured, Inputs, int]) -> None:
    cfg, inputs, capacity = case
    state = fold([cfg])
    matches = choose(state, inputs, 0, "2026-12-07", capacity)
    assert matches == choose(state, inputs, 0, "2026-12-07", capacity)
    games = [len(m.rotations) for m in matches]
    # At most the capacity, unless the round's one match is larger than the whole round.
    assert sum(games) <= capacity or len(matches) == 1
    load: dict[str, int] = {}
    index = 0
    for m in matches:
        assert m.first == index
        index += len(m.rotations)
        assert len(set(m.lineup)) == len(m.lineup)
        for a in m.lineup:
            load[a] = load.get(a, 0) + len(m.rotations)
    for a in cfg.agents:
        if a.concurrency is not None:
            assert load.get(a.name, 0) <= a.concurrency
        if a.calls_per_day is not None and inputs.spend[a.name][0] >= a.calls_per_day:
            assert a.name not in load
        for m in matches:
            if a.name in m.lineup:
                assert m.game in a.specs
