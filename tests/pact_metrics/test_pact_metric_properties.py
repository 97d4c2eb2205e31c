"""Invariants of the PACT metrics on random games (hypothesis), each through a real DuckDB file."""

from __future__ import annotations

import tempfile
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

import duckdb
import pact_synth as S
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from projections.pact import metrics as P

AGENTS = ("a", "b", "c", "[/]")


def analysed(games: Sequence[S.Game], resamples: int = 30, seed: int = 0) -> P.PactAnalysis:
    """Write the games to a DuckDB file and analyse them."""
    with tempfile.TemporaryDirectory() as d:
        path = S.write(Path(d) / "p.duckdb", games)
        con = duckdb.connect(str(path), read_only=True)
        try:
            return P.analyse(P.load(con), resamples=resamples, seed=seed)
        finally:
            con.close()


def rows_of(games: Sequence[S.Game]) -> list[tuple]:
    """metric_rows of the games, through a DuckDB file."""
    with tempfile.TemporaryDirectory() as d:
        path = S.write(Path(d) / "p.duckdb", games)
        con = duckdb.connect(str(path), read_only=True)
        try:
            return P.metric_rows(con)
        finally:
            con.close()


@st.composite
def random_games(draw: st.DrawFn, min_games: int = 1) -> list[S.Game]:
    """Games between random agents with arbitrary quotes (any value, cost, bid and ask)."""
    n = draw(st.integers(min_games, 8))
    games = []
    for i in range(n):
        buyer = draw(st.sampled_from(AGENTS))
        seller = draw(st.sampled_from(AGENTS))
        value = draw(st.integers(0, 100))
        cost = draw(st.integers(0, 100))
        g = S.Game(f"g{i:02d}", draw(st.integers(0, 3)), buyer, seller)
        for k in range(1, draw(st.integers(1, 5)) + 1):
            bid = draw(st.integers(0, 100))
            ask = draw(st.integers(0, 100))
            g.rounds.append(S.Round(g.game_id, k, value, cost, bid, ask))
        games.append(g)
    return games


SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(random_games())
def test_the_two_sides_share_each_games_surplus(games: list[S.Game]) -> None:
    shares: dict[str, dict[int, tuple[float, float]]] = defaultdict(dict)
    for game_id, seat, _agent, metric, _v, _key, num, den in rows_of(games):
        if metric == "surplus_share":
            shares[game_id][seat] = (num, den)
    for g in games:
        both = shares[g.game_id]
        surplus = sum(r.value - r.cost for r in g.rounds if r.traded)
        if g.buyer == g.seller:
            assert both[0] == both[1] == (0.0, 0.0)  # self-play is left out
            continue
        assert both[0][1] == both[1][1] == pytest.approx(surplus)
        # Profits on traded rounds add up to the surplus: the shares sum to 1.
        assert both[0][0] + both[1][0] == pytest.approx(surplus)


@SETTINGS
@given(random_games(min_games=2))
def test_head_to_head_shares_are_complementary(games: list[S.Game]) -> None:
    a = analysed(games)
    for (x, y), (est, _n) in a.h2h.items():
        other = a.h2h.get((y, x))
        assert other is not None
        if est.value is not None:
            assert est.value + other[0].value == pytest.approx(1.0)  # type: ignore[operator]
    assert a.alpha.alpha in P.ALPHA_GRID
    for p in a.agents:
        tr = p.metrics["trade_rate"].value
        assert tr is None or 0 <= tr <= 1


@SETTINGS
@given(
    st.integers(-25, 25),
    st.lists(st.tuples(st.integers(30, 70), st.integers(30, 70)), min_size=1, max_size=6),
)
def test_offset_sign_convention(shade: int, values: list[tuple[int, int]]) -> None:
    # "s" shades every quote by `shade` toward its own gain (bid below value, ask above cost);
    # "t" quotes its valuation. Values stay in 30..70, so no quote is clamped.
    s, t = S.Style("s", shade=shade), S.Style("t", shade=0)
    games = []
    for i, (v, c) in enumerate(values):
        for buyer, seller, tag in ((s, t, "st"), (t, s, "ts")):
            g = S.Game(f"g{i}{tag}", i, buyer.name, seller.name)
            bid = v - (shade if buyer is s else 0)
            ask = c + (shade if seller is s else 0)
            g.rounds.append(S.Round(g.game_id, 1, v, c, bid, ask))
            games.append(g)
    a = analysed(games)
    by = {p.agent: p for p in a.agents}
    assert by["s"].metrics["bid_offset"].value == pytest.approx(shade)
    assert by["t"].metrics["bid_offset"].value == pytest.approx(0)
    # Shading toward its own gain is positive in both roles.
    if by["s"].metrics["trade_offset"].value is not None:
        assert by["s"].metrics["trade_offset"].value == pytest.approx(shade)


@settings(SETTINGS, max_examples=20)  # two stores written and analysed per example
@given(random_games(min_games=3), st.integers(1, 3))
def test_obs_ignores_how_often_an_opponent_was_met(games: list[S.Game], times: int) -> None:
    # Repeat every game of one match-up `times` more times (new ids and seeds): the share
    # against that opponent is unchanged, so OBS is unchanged.
    pair = next(((g.buyer, g.seller) for g in games if g.buyer != g.seller), None)
    if pair is None:
        return
    extra = []
    for k in range(times):
        for g in games:
            if {g.buyer, g.seller} == set(pair):
                copy = S.Game(f"{g.game_id}-x{k}", 100 + k, g.buyer, g.seller)
                copy.rounds = [
                    S.Round(copy.game_id, r.round, r.value, r.cost, r.bid, r.ask) for r in g.rounds
                ]
                extra.append(copy)
    base = {p.agent: p.metrics["obs"].value for p in analysed(games).agents}
    more = {p.agent: p.metrics["obs"].value for p in analysed(games + extra).agents}
    assert base.keys() == more.keys()
    for agent, value in base.items():
        if value is None:
            assert more[agent] is None
        else:
            assert more[agent] == pytest.approx(value, abs=1e-12)


def _copy(games: Sequence[S.Game], seed_shift: int) -> list[S.Game]:
    out = []
    for g in games:
        c = S.Game(g.game_id + "-dup", g.seed + seed_shift, g.buyer, g.seller)
        c.rounds = [S.Round(c.game_id, r.round, r.value, r.cost, r.bid, r.ask) for r in g.rounds]
        out.append(c)
    return out


def test_alpha_and_intervals_unchanged_when_every_game_is_duplicated() -> None:
    # A replayed deal (same seed, same match-up) joins its original's resampling unit: it
    # adds no information, and the analysis is the same.
    base = S.round_robin(S.STYLES[:5], deals=5, seed=4)
    a = analysed(base, resamples=300, seed=9)
    b = analysed(base + _copy(base, 0), resamples=300, seed=9)
    assert a.alpha.alpha == b.alpha.alpha
    for p, q in zip(a.agents, b.agents, strict=True):
        assert p.agent == q.agent
        for name in P.SCALAR_METRICS:
            e, f = p.metrics[name], q.metrics[name]
            assert (e.value, e.lo, e.hi) == pytest.approx((f.value, f.lo, f.hi), abs=1e-9)


def test_alpha_stays_a_candidate_when_the_games_are_doubled_as_new_deals() -> None:
    # Twice the games as if they were new deals: intervals narrow, and the weight chosen
    # before is still among the weights whose ordering is as stable as the best.
    base = S.round_robin(S.STYLES[:5], deals=5, seed=4)
    a = analysed(base, resamples=300, seed=9)
    b = analysed(base + _copy(base, 10**6), resamples=300, seed=9)
    assert b.alpha.alpha in P.ALPHA_GRID
    assert next(s for s in b.alpha.scores if s.alpha == a.alpha.alpha).candidate
    wa = {p.agent: p.metrics["cms"] for p in a.agents}
    for q in b.agents:
        e, f = wa[q.agent], q.metrics["cms"]
        assert (f.hi - f.lo) < (e.hi - e.lo)  # type: ignore[operator]
