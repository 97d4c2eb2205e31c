"""Bootstrap intervals: deterministic, correct point estimates, sensible edge cases."""

from __future__ import annotations

import numpy as np
import pytest

from projections.metrics.aggregate import bootstrap, seed_for


def test_ratio_point_is_pooled() -> None:
    est = bootstrap("ratio", np.array([1.0, 0.0, 3.0]), np.array([2.0, 0.0, 4.0]), seed=1)
    assert est.value == pytest.approx(4 / 6)
    assert est.lo is not None and est.hi is not None
    assert 0 <= est.lo <= est.value <= est.hi <= 1


def test_median_ignores_undefined_games() -> None:
    # den 0 (zero outflow) is left out: median of [1.0, 3.0, 2.0] is 2.0.
    est = bootstrap(
        "median", np.array([1.0, 5.0, 6.0, 2.0]), np.array([1.0, 0.0, 2.0, 1.0]), seed=1
    )
    assert est.value == pytest.approx(2.0)
    assert est.n == 3


def test_same_seed_same_interval_other_seed_differs() -> None:
    rng = np.random.default_rng(0)
    num = rng.integers(0, 5, 200).astype(float)
    den = np.full(200, 4.0)
    a = bootstrap("ratio", num, den, seed=seed_for("agent", "metric", ""))
    b = bootstrap("ratio", num, den, seed=seed_for("agent", "metric", ""))
    c = bootstrap("ratio", num, den, seed=seed_for("other", "metric", ""))
    assert (a.lo, a.hi) == (b.lo, b.hi)
    assert (a.lo, a.hi) != (c.lo, c.hi)


def test_interval_narrows_with_more_data() -> None:
    small = bootstrap("ratio", np.array([1.0, 0.0] * 10), np.ones(20), seed=3)
    large = bootstrap("ratio", np.array([1.0, 0.0] * 500), np.ones(1000), seed=3)
    assert small.value == large.value == 0.5
    assert (large.hi - large.lo) < (small.hi - small.lo)  # type: ignore[operator]


def test_empty_and_single() -> None:
    assert bootstrap("ratio", np.array([]), np.array([]), seed=1).value is None
    assert bootstrap("ratio", np.array([0.0]), np.array([0.0]), seed=1).value is None
    assert bootstrap("median", np.array([3.0]), np.array([0.0]), seed=1).value is None
    one = bootstrap("median", np.array([3.0]), np.array([2.0]), seed=1)
    assert (one.value, one.lo, one.hi) == (1.5, 1.5, 1.5)
