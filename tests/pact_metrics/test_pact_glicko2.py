"""Glicko-2: the paper's worked example, and the properties every update keeps."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from projections.glicko2 import Match, Rating, Result, expected, g, rate_matches, update


def test_worked_example_of_the_paper() -> None:
    # Glickman's example: 1500/200/0.06 beats 1400/30, loses to 1550/100 and 1700/300.
    player = Rating(1500, 200, 0.06)
    results = [
        Result(Rating(1400, 30), 1.0),
        Result(Rating(1550, 100), 0.0),
        Result(Rating(1700, 300), 0.0),
    ]
    new = update(player, results, tau=0.5)
    # The paper prints μ' = -0.2069 (r' = 1464.06 from the rounded μ'), φ' = 0.8722
    # (RD' = 151.52) and σ' = 0.05999.
    assert new.mu == pytest.approx(-0.2069, abs=5e-5)
    assert new.rating == pytest.approx(1464.06, abs=0.02)
    assert new.phi == pytest.approx(0.8722, abs=5e-5)
    assert new.rd == pytest.approx(151.52, abs=0.01)
    assert new.vol == pytest.approx(0.05999, abs=1e-5)


def test_intermediate_quantities_of_the_example() -> None:
    # Steps 3 and 4 of the paper: g(φj) = 0.9955, 0.9531, 0.7242; E = 0.639, 0.432, 0.303.
    player = Rating(1500, 200)
    opponents = [Rating(1400, 30), Rating(1550, 100), Rating(1700, 300)]
    assert [round(g(o.phi), 4) for o in opponents] == [0.9955, 0.9531, 0.7242]
    assert [round(expected(player, o), 3) for o in opponents] == [0.639, 0.432, 0.303]


def test_volatility_uses_the_deviation_not_the_rating() -> None:
    # The same results from a rating far from 1500 must give the same volatility as from
    # 1500 against opponents shifted by the same amount: only differences matter.
    shift = 400.0
    base = update(
        Rating(1500, 200), [Result(Rating(1400, 30), 1.0), Result(Rating(1550, 100), 0.0)]
    )
    moved = update(
        Rating(1500 + shift, 200),
        [Result(Rating(1400 + shift, 30), 1.0), Result(Rating(1550 + shift, 100), 0.0)],
    )
    assert moved.vol == pytest.approx(base.vol, rel=1e-9)
    assert moved.rating - shift == pytest.approx(base.rating, abs=1e-6)
    assert moved.rd == pytest.approx(base.rd, rel=1e-9)


def test_no_games_widens_the_deviation_only() -> None:
    r = update(Rating(1600, 100, 0.06), [])
    assert r.rating == 1600
    assert r.rd == pytest.approx(173.7178 * math.sqrt((100 / 173.7178) ** 2 + 0.06**2))


def test_weight_counts_a_result_several_times() -> None:
    p, o = Rating(1500, 200), Rating(1550, 100)
    twice = update(p, [Result(o, 1.0), Result(o, 1.0)])
    weighted = update(p, [Result(o, 1.0, weight=2.0)])
    assert weighted.rating == pytest.approx(twice.rating, rel=1e-12)
    assert weighted.rd == pytest.approx(twice.rd, rel=1e-12)


ratings = st.builds(
    Rating,
    st.floats(1000, 2000),
    st.floats(30, 350),
    st.floats(0.03, 0.1),
)


@given(ratings, ratings, st.sampled_from([0.0, 0.5, 1.0]))
def test_one_game_moves_ratings_toward_the_result(a: Rating, b: Rating, score: float) -> None:
    new_a = update(a, [Result(b, score)])
    e = expected(a, b)
    # (A result within rounding of the expectation may leave the rating where it was.)
    if score > e + 1e-6:
        assert new_a.rating > a.rating
    elif score < e - 1e-6:
        assert new_a.rating < a.rating
    else:
        assert new_a.rating == pytest.approx(a.rating, abs=1e-3)
    assert new_a.rd <= math.sqrt(a.rd**2 + (173.7178 * new_a.vol) ** 2) + 1e-9
    assert math.isfinite(new_a.vol) and new_a.vol > 0


def test_matches_in_order_and_self_play_ignored() -> None:
    out = rate_matches([Match("a", "b", 1.0), Match("a", "a", 1.0), Match("b", "a", 0.5)])
    assert set(out) == {"a", "b"}
    assert out["a"].rating > 1500 > out["b"].rating
    # Symmetric start: the first game moves both by the same amount.
    first = rate_matches([Match("a", "b", 1.0)])
    assert first["a"].rating - 1500 == pytest.approx(1500 - first["b"].rating)
