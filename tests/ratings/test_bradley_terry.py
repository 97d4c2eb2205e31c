"""Bradley-Terry ratings: GameBench's published data, independent estimates, properties."""

from __future__ import annotations

import json
import random
from pathlib import Path

import choix
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import optimize

from projections import bradley_terry as bt
from projections.gamebench.report import PRINTED, analyse, printed_label

DATA = Path(__file__).parent / "data" / "gamebench_matches.json"
MATCHES = json.loads(DATA.read_text())
AGENTS = ["random", "human", "gpt-3", "gpt-3-cot", "gpt-4", "gpt-4-cot", "gpt-4-rap"]
TABLE_1 = [-0.50, 1.76, -0.48, 0.06, -0.89, 0.16, -0.10]
"""GameBench's Table 1, column Overall, in the order of AGENTS."""


def _records(ms: list[dict[str, object]]) -> list[tuple[str, str, float, float]]:
    """(a, b, score a, score b) of the decisive records."""
    out = []
    for m in ms:
        (a, sa), (b, sb) = [(k, v) for k, v in m.items() if k != "game"]
        if sa != sb:
            out.append((a, b, float(sa), float(sb)))  # type: ignore[arg-type]
    return out


def _fixed_point(ms: list[dict[str, object]], agents: list[str], alpha: float) -> np.ndarray:
    """Strengths solving the regularised stationarity equations with scipy's root finder."""
    records = _records(ms)
    n = len(agents)
    where = {a: k for k, a in enumerate(agents)}

    def equations(free: np.ndarray) -> np.ndarray:
        beta = np.append(free, -free.sum())  # centred
        w = n * np.exp(beta) / np.exp(beta).sum()
        out = np.zeros(n)
        for a, b, sa, sb in records:
            i, j = where[a], where[b]
            out[i] += (sa * w[j] - sb * w[i]) / (w[i] + w[j])
            out[j] += (sb * w[i] - sa * w[j]) / (w[i] + w[j])
        out -= alpha * (n * w - w.sum())
        return out[:-1]  # the equations sum to 0: one is implied

    sol = optimize.root(equations, np.zeros(n - 1), method="hybr", tol=1e-14)
    assert sol.success
    return np.append(sol.x, -sol.x.sum())


def _max_likelihood(ms: list[dict[str, object]], agents: list[str]) -> np.ndarray:
    """Unregularised maximum likelihood by Newton's method on the log-likelihood."""
    records = _records(ms)
    n = len(agents)
    where = {a: k for k, a in enumerate(agents)}
    beta = np.zeros(n)
    for _ in range(100):
        grad = np.zeros(n)
        hess = np.zeros((n, n))
        for a, b, sa, sb in records:
            i, j = where[a], where[b]
            p = 1.0 / (1.0 + np.exp(beta[j] - beta[i]))  # P(i beats j)
            total = sa + sb
            grad[i] += sa - total * p
            grad[j] -= sa - total * p
            h = total * p * (1 - p)
            hess[i, i] -= h
            hess[j, j] -= h
            hess[i, j] += h
            hess[j, i] += h
        # Pin the mean at 0 with a Lagrange row so the Hessian is invertible.
        kkt = np.block([[hess, np.ones((n, 1))], [np.ones((1, n)), np.zeros((1, 1))]])
        step = np.linalg.solve(kkt, np.append(-grad, 0.0))[:n]
        beta = beta + step
        if np.abs(step).max() < 1e-13:
            break
    return beta - beta.mean()


def _points(ratings: dict[str, dict[str, float]], agents: list[str]) -> np.ndarray:
    return np.array([ratings[a]["point"] for a in agents])


def test_fixture_is_gamebench_data() -> None:
    assert len(MATCHES) == 277
    assert {a for m in MATCHES for a in m if a != "game"} == set(AGENTS)
    assert len({m["game"] for m in MATCHES}) == 9


def test_point_matches_an_independent_solution() -> None:
    ratings = bt.rate(MATCHES, samples=1)
    np.testing.assert_allclose(
        _points(ratings, AGENTS), _fixed_point(MATCHES, AGENTS, bt.ALPHA), atol=1e-6
    )


def test_without_alpha_point_is_the_maximum_likelihood() -> None:
    ratings = bt.rate(MATCHES, samples=1, alpha=0.0)
    np.testing.assert_allclose(
        _points(ratings, AGENTS), _max_likelihood(MATCHES, AGENTS), atol=1e-6
    )


def test_alpha_pulls_towards_the_middle() -> None:
    free = _points(bt.rate(MATCHES, samples=1, alpha=0.0), AGENTS)
    pulled = _points(bt.rate(MATCHES, samples=1, alpha=0.5), AGENTS)
    assert np.abs(pulled).max() < np.abs(free).max()


def test_bootstrap_means_match_table_1() -> None:
    ratings = bt.rate(MATCHES, samples=1000, seed=0)
    means = np.array([ratings[a]["mean"] for a in AGENTS])
    assert np.abs(means - TABLE_1).max() <= 0.05
    for a in AGENTS:
        assert ratings[a]["p5"] < ratings[a]["mean"] < ratings[a]["p95"]


TABLE_1_GAMES = {
    "sea_battle": [1.07, 1.49, 1.26, 0.03, -7.38, 2.13, 1.41],
    "two_rooms_and_a_boom": [0.48, 0.45, -0.05, 0.22, -0.12, 0.27, -1.25],
    "are_you_the_traitor": [-2.52, 1.92, -1.84, 2.42, -2.73, -0.19, 2.94],
    "air_land_sea": [-2.67, 1.26, -2.06, 0.45, -0.65, 2.41, 1.26],
    "santorini": [-1.15, 3.63, 1.27, -0.44, -1.31, -1.13, -0.86],
    "hive": [0.63, 1.29, 0.63, 0.63, -4.42, 0.63, 0.63],
    "codenames": [0.37, -0.89, -0.01, 0.53, -0.08, -0.53, 0.62],
    "arctic_scavengers": [-0.79, 1.70, -2.51, -2.76, 0.62, 1.22, 2.51],
    "pit": [0.05, 1.25, -0.41, 0.26, -1.40, 0.62, -0.37],
}
"""Table 1's per-game columns, in the order of AGENTS, under the game each column really
holds: the published headings (ALS, ARC, AYT, CN, HV, PT, SN, TRB, SB, alphabetical) sit over
columns filled in the order the games first appear in matches.json."""


def test_gamebench_random_stream_gives_table_1_exactly() -> None:
    """GameBench's script seeds the global generator with 0 and bootstraps 1000 samples of each
    game (in sorted order, every agent in every fit), then of all matches twice, the table
    showing the second; fed that stream, every figure rounds to the table's."""
    rng = random.Random(0)

    def means(records: list[dict[str, object]]) -> list[float]:
        rows = bt.bootstrap(bt.Pairs(records, AGENTS), rng, 1000)
        return [round(float(x), 2) for x in rows.mean(axis=0)]

    for game in sorted(TABLE_1_GAMES):
        assert means([m for m in MATCHES if m["game"] == game]) == TABLE_1_GAMES[game], game
    means(MATCHES)
    assert means(MATCHES) == TABLE_1
    order = list(dict.fromkeys(m["game"] for m in MATCHES))
    assert order == list(TABLE_1_GAMES)


TABLE_2 = [0.49, 0.85, 0.48, 0.60, 0.31, 0.60, 0.62]
"""GameBench's Table 2, column Overall (every match pooled), in the order of AGENTS."""
TABLE_2_GAMES = {
    "sea_battle": [0.72, 1.00, 0.64, 0.43, 0.00, 0.81, None],
    "two_rooms_and_a_boom": [0.60, None, 0.43, 0.50, 0.42, 0.50, 0.33],
    "are_you_the_traitor": [0.25, None, 0.43, 0.93, 0.33, 0.64, 1.00],
    "air_land_sea": [0.18, None, 0.63, 0.89, 0.83, 1.00, None],
    "santorini": [0.41, 1.00, 0.80, 0.60, 0.33, 0.50, 0.50],
    "hive": [0.50, 1.00, 0.50, 0.50, 0.31, 0.50, None],
    "codenames": [0.56, 0.43, 0.47, 0.61, 0.42, 0.37, 0.58],
    "arctic_scavengers": [0.52, None, 0.27, 0.33, 0.71, 0.75, 1.00],
    "pit": [0.58, 0.78, 0.40, 0.55, 0.20, 0.51, 0.26],
}
"""Table 2's per-game columns (GameBench commit 50469e6, figures/scores_table.tex) under the
game each really holds, as for Table 1; None where the paper prints NaN (no match)."""
PRINTED_HEADINGS = ["ALS", "ARC", "AYT", "CN", "HV", "PT", "SN", "TRB", "SB"]
"""The per-game headings of both published tables, left to right."""


def _two(x: float | None) -> float | None:
    return None if x is None else round(x, 2)


def test_the_report_recomputes_tables_1_and_2_to_the_digit() -> None:
    """The report's analysis of GameBench's matches: per-game fits over all seven agents,
    GameBench's order of draws, the Overall score pooled over every match."""
    a = analyse(MATCHES, 1000, 0)
    assert [_two(a.overall[x]["mean"]) for x in AGENTS] == TABLE_1
    for game, want in TABLE_1_GAMES.items():
        assert [_two(a.per_game[game][x]["mean"]) for x in AGENTS] == want, game
    assert [_two(a.overall_score(x)) for x in AGENTS] == TABLE_2
    for game, want in TABLE_2_GAMES.items():
        assert [_two(a.scores[x].get(game)) for x in AGENTS] == want, game
    # The same figures straight from the library call the report makes.
    suite = bt.rate_suite(MATCHES, samples=1000, seed=0)
    assert suite.overall == a.overall and suite.per_game == a.per_game


def test_printed_headings_follow_the_order_of_first_appearance() -> None:
    order = list(dict.fromkeys(m["game"] for m in MATCHES))
    assert dict(zip(order, PRINTED_HEADINGS, strict=True)) == PRINTED
    assert printed_label("gamebench:sea_battle") == "ALS" and printed_label("x") is None


def test_suite_fits_every_agent_in_every_game() -> None:
    # Two agents meet in one game, a third only in the other: it still gets a rating in the
    # first, held between the two by the regularisation.
    ms = [{"game": "g1", "a": 1.0, "b": 0.0}] * 3 + [{"game": "g2", "a": 0.0, "c": 1.0}] * 2
    suite = bt.rate_suite(ms, samples=5)
    assert set(suite.per_game["g1"]) == {"a", "b", "c"} == set(suite.overall)
    g1 = {x: r["point"] for x, r in suite.per_game["g1"].items()}
    assert g1["b"] < g1["c"] < g1["a"]
    assert suite.game_rows["g1"].shape == (5, 3) and suite.overall_rows.shape == (5, 3)


def _integer_data(draw_pairs: list[tuple[int, int]], n: int) -> list[dict[str, object]]:
    return [{"game": "g", f"a{w}": 1.0, f"a{lo}": 0.0} for w, lo in draw_pairs if w != lo] + [
        {"game": "g", f"a{k}": 0.5, f"a{(k + 1) % n}": 0.5} for k in range(n)
    ]


@settings(max_examples=40, deadline=None)
@given(
    st.integers(2, 6).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=40),
        )
    )
)
def test_integer_data_agrees_with_choix(case: tuple[int, list[tuple[int, int]]]) -> None:
    n, games = case
    games = [(w, lo) for w, lo in games if w != lo]
    records = _integer_data(games, n)
    agents = [f"a{k}" for k in range(n)]
    ours = bt.strengths(bt.Pairs(records).wins(), 0.001)
    order = [bt.Pairs(records).agents.index(a) for a in agents]
    theirs = choix.ilsr_pairwise(n, games, alpha=0.001, max_iter=1000)
    np.testing.assert_allclose(ours[order], theirs, atol=1e-6)


def test_gamebench_wins_and_losses_agree_with_choix() -> None:
    decisive = [m for m in MATCHES if set(m.values()) - {m["game"]} == {0.0, 1.0}]
    ours = bt.rate(decisive, samples=1)
    games = []
    for m in decisive:
        (a, sa), (b, _) = [(k, v) for k, v in m.items() if k != "game"]
        w, lo = (a, b) if sa == 1.0 else (b, a)
        games.append((AGENTS.index(w), AGENTS.index(lo)))
    theirs = choix.ilsr_pairwise(len(AGENTS), games, alpha=0.001)
    np.testing.assert_allclose(_points(ours, AGENTS), theirs, atol=1e-6)


def test_ties_are_left_out() -> None:
    ties = [{"game": "pit", "gpt-4": 0.5, "human": 0.5}] * 5
    base = _points(bt.rate(MATCHES, samples=1), AGENTS)
    more = _points(bt.rate(list(MATCHES) + ties, samples=1), AGENTS)
    np.testing.assert_allclose(more, base, atol=1e-12)
    only = bt.rate([{"game": "g", "x": 0.5, "y": 0.5}], samples=3)
    assert only == {a: dict.fromkeys(("point", "mean", "p5", "p95"), 0.0) for a in ("x", "y")}


@pytest.mark.parametrize(
    ("record", "reason"),
    [
        ({"game": "g", "a": 1.0, "b": 0.0, "c": 0.0}, "3 agent"),
        ({"game": "g", "a": 1.0}, "1 agent"),
        ({"a": 1.0, "b": 0.0}, "no game"),
        ({"game": "g", "a": 0.7, "b": 0.7}, "sum to 1"),
        ({"game": "g", "a": 1.5, "b": -0.5}, "outside"),
        ({"game": "g", "a": "1", "b": 0.0}, "not a number"),
    ],
)
def test_bad_records_are_refused(record: dict[str, object], reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        bt.rate([{"game": "g", "x": 1.0, "y": 0.0}, record], samples=1)


def test_no_matches_no_ratings() -> None:
    assert bt.rate([], samples=5) == {}
    with pytest.raises(ValueError):
        bt.rate(MATCHES, samples=0)


# Properties over small random data sets.
NAMES = st.sampled_from(["ann", "bob", "cy", "dee", "eve"])
SCORES = st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0])


@st.composite
def match_lists(draw: st.DrawFn) -> list[dict[str, object]]:
    """Lists of records over a few agents and two games, fractional scores included."""
    out = []
    for _ in range(draw(st.integers(1, 25))):
        a, b = draw(st.lists(NAMES, min_size=2, max_size=2, unique=True))
        s = draw(SCORES)
        out.append({"game": draw(st.sampled_from(["g1", "g2"])), a: s, b: 1.0 - s})
    return out


@settings(max_examples=50, deadline=None)
@given(match_lists(), st.randoms(use_true_random=False))
def test_point_does_not_depend_on_match_order(
    ms: list[dict[str, object]], r: random.Random
) -> None:
    shuffled = list(ms)
    r.shuffle(shuffled)
    a = bt.rate(ms, samples=1)
    b = bt.rate(shuffled, samples=1)
    assert a.keys() == b.keys()
    for agent in a:
        assert a[agent]["point"] == pytest.approx(b[agent]["point"], abs=1e-9)


@settings(max_examples=50, deadline=None)
@given(match_lists(), st.permutations(["ann", "bob", "cy", "dee", "eve"]))
def test_relabelling_permutes_ratings(ms: list[dict[str, object]], perm: list[str]) -> None:
    names = dict(zip(["ann", "bob", "cy", "dee", "eve"], perm, strict=True))
    renamed = [{names.get(k, k) if k != "game" else k: v for k, v in m.items()} for m in ms]
    a = bt.rate(ms, samples=20, seed=3)
    b = bt.rate(renamed, samples=20, seed=3)
    assert set(b) == {names[x] for x in a}
    for agent, r in a.items():
        for key, value in r.items():
            assert b[names[agent]][key] == pytest.approx(value, abs=1e-9)


@settings(max_examples=50, deadline=None)
@given(match_lists(), st.integers(1, 3))
def test_an_agent_that_beats_everyone_rates_highest(ms: list[dict[str, object]], k: int) -> None:
    agents = {a for m in ms for a in m if a != "game"}
    champion = [{"game": "g1", "zed": 1.0, a: 0.0} for a in sorted(agents) for _ in range(k)]
    ratings = bt.rate(ms + champion, samples=1)
    best = max(ratings, key=lambda a: ratings[a]["point"])
    assert best == "zed"
    assert all(ratings["zed"]["point"] > r["point"] for a, r in ratings.items() if a != "zed")


@settings(max_examples=25, deadline=None)
@given(match_lists(), st.integers(0, 2**32))
def test_same_seed_same_ratings(ms: list[dict[str, object]], seed: int) -> None:
    assert bt.rate(ms, samples=15, seed=seed) == bt.rate(ms, samples=15, seed=seed)


def test_bootstrap_weights_every_game_equally() -> None:
    assert bt.game_weights(["a", "b", "a", "a"]) == [1 / 3, 1.0, 1 / 3, 1 / 3]
    # One game of many records and one of a single record: each is drawn about half the time.
    ms = [{"game": "big", "x": 1.0, "y": 0.0}] * 99 + [{"game": "small", "x": 0.0, "y": 1.0}]
    pairs = bt.Pairs(ms)
    drawn = random.Random(1).choices(range(100), weights=bt.game_weights(pairs.games), k=10_000)
    assert 4500 < sum(d == 99 for d in drawn) < 5500


def test_different_seeds_give_different_samples() -> None:
    a = bt.rate(MATCHES, samples=50, seed=1)
    b = bt.rate(MATCHES, samples=50, seed=2)
    assert a["human"]["point"] == b["human"]["point"]
    assert a["human"]["mean"] != b["human"]["mean"]
