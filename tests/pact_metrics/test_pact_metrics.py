"""PACT metrics against plain-Python and SQL recomputations on a synthetic store."""

from __future__ import annotations

import math

import duckdb
import oracle as O
import pact_synth as S
import pytest

from projections.metrics.aggregate import Selection
from projections.pact import metrics as P


def test_every_ratio_metric_matches_the_plain_python_recomputation(
    analysis: P.PactAnalysis, games: list[S.Game]
) -> None:
    expect = O.metrics(O.finished(games))
    by_agent = {p.agent: p for p in analysis.agents}
    checked = 0
    for name, values in expect.items():
        keyed = bool(P.REGISTRY[name].key)
        for (agent, key), value in values.items():
            prof = by_agent[agent]
            est = prof.keyed[name][key] if keyed else prof.metrics[name]
            assert est.value == pytest.approx(value, abs=1e-9), (name, agent, key)
            checked += 1
        # Nothing extra: every computed (agent, key) is in the recomputation.
        got = {
            (p.agent, k)
            for p in analysis.agents
            for k, e in (p.keyed.get(name, {}).items() if keyed else [("", p.metrics[name])])
            if e.value is not None
        }
        assert got == set(values), name
    assert checked > 300


def test_obs_and_cms_match_the_recomputation(analysis: P.PactAnalysis, games: list[S.Game]) -> None:
    done = O.finished(games)
    obs = O.obs(done)
    cms = O.cms(done, analysis.alpha.alpha)
    for p in analysis.agents:
        assert p.metrics["obs"].value == pytest.approx(obs[p.agent], abs=1e-12)
        assert p.metrics["cms"].value == pytest.approx(cms[p.agent], abs=1e-12)
    # Best CMS first.
    values = [p.metrics["cms"].value for p in analysis.agents]
    assert values == sorted(values, reverse=True)  # type: ignore[type-var]


def test_sql_cross_check_of_profit_and_surplus_share(
    con: duckdb.DuckDBPyConnection, analysis: P.PactAnalysis
) -> None:
    rows = con.execute(
        """
        WITH fin AS (SELECT game_id FROM games WHERE status = 'finished'),
        side AS (
            SELECT s.agent, o.agent AS opp, r.buyer_profit AS profit, r.traded, r.value - r.cost AS surplus
            FROM pact_rounds r JOIN fin USING (game_id)
            JOIN seats s ON s.game_id = r.game_id AND s.seat = 0
            JOIN seats o ON o.game_id = r.game_id AND o.seat = 1
            UNION ALL
            SELECT s.agent, o.agent, r.seller_profit, r.traded, r.value - r.cost
            FROM pact_rounds r JOIN fin USING (game_id)
            JOIN seats s ON s.game_id = r.game_id AND s.seat = 1
            JOIN seats o ON o.game_id = r.game_id AND o.seat = 0)
        SELECT agent, avg(profit),
               sum(profit) FILTER (WHERE traded AND agent <> opp)
               / sum(surplus) FILTER (WHERE traded AND agent <> opp)
        FROM side GROUP BY agent
        """
    ).fetchall()
    by_agent = {p.agent: p for p in analysis.agents}
    assert len(rows) == len(by_agent)
    for agent, profit, share in rows:
        assert by_agent[agent].metrics["profit_per_round"].value == pytest.approx(profit)
        assert by_agent[agent].metrics["surplus_share"].value == pytest.approx(share)


def test_unfinished_games_and_selection(
    con: duckdb.DuckDBPyConnection, games: list[S.Game]
) -> None:
    data = P.load(con)
    assert "g-running" not in data.games
    assert len(data.games) == len(O.finished(games))
    synth = P.load(con, Selection(tournament="synth"))
    assert "h-other" not in synth.games and len(synth.games) == len(data.games) - 1
    one = P.load(con, Selection(games=("h-other",)))
    assert one.games == ("h-other",)
    a = P.analyse(one, resamples=50)
    assert {p.agent for p in a.agents} == {"fair", "soft"}


def test_metric_rows_have_the_metric_values_shape(con: duckdb.DuckDBPyConnection) -> None:
    rows = P.metric_rows(con, Selection(games=("h-other",)))
    names = {r[3] for r in rows}
    assert names == {m.name for m in P.definitions() if m.sql is not None}
    for game_id, seat, agent, metric, version, _key, _num, den in rows:
        assert game_id == "h-other" and seat in (0, 1) and agent in ("fair", "soft")
        assert version == P.REGISTRY[metric].version
        assert den >= 0 or metric.startswith("surplus")


def test_seat_games_and_resampling_units(con: duckdb.DuckDBPyConnection) -> None:
    data = P.load(con)
    # 6 pairs x 6 deals x 2 orders + self-play + other = 74 games; the self-play game gives
    # its agent two seat-games.
    assert len(data.games) == 74
    assert sum(data.seat_games.values()) == 2 * 74
    # The two role orders of a deal share a seed and form one resampling unit.
    assert int(data.cluster.max()) + 1 == 6 * 6 + 2
    # Six match-ups and the self-play one; the other tournament's game is a fair-soft game.
    assert int(data.stratum.max()) + 1 == 6 + 1


def test_bootstrap_is_deterministic_in_the_seed(con: duckdb.DuckDBPyConnection) -> None:
    data = P.load(con)
    a = P.analyse(data, resamples=200, seed=5)
    b = P.analyse(P.load(con), resamples=200, seed=5)
    c = P.analyse(data, resamples=200, seed=6)

    def intervals(x: P.PactAnalysis) -> list[tuple[str, str, float | None, float | None]]:
        out = []
        for p in x.agents:
            for n, e in sorted(p.metrics.items()):
                out.append((p.agent, n, e.lo, e.hi))
            for n, by in sorted(p.keyed.items()):
                for k, e in sorted(by.items()):
                    out.append((p.agent, f"{n}/{k}", e.lo, e.hi))
        return out

    assert intervals(a) == intervals(b)
    assert [s.stability for s in a.alpha.scores] == [s.stability for s in b.alpha.scores]
    assert intervals(a) != intervals(c)


def test_intervals_are_ordered_and_narrow_with_more_games() -> None:
    few = S.round_robin(S.STYLES[:3], deals=3, seed=1)
    many = S.round_robin(S.STYLES[:3], deals=40, seed=1)
    widths = []
    for gs in (few, many):
        con = duckdb.connect()
        _fill(con, gs)
        a = P.analyse(P.load(con), resamples=300, seed=2)
        for p in a.agents:
            for e in p.metrics.values():
                if e.value is not None and e.lo is not None:
                    assert e.lo <= e.hi  # type: ignore[operator]
        e = next(p for p in a.agents if p.agent == "greedy").metrics["profit_per_round"]
        widths.append(e.hi - e.lo)  # type: ignore[operator]
    assert widths[1] < widths[0] / 2


def _fill(con: duckdb.DuckDBPyConnection, games: list[S.Game]) -> None:
    """Tables of the synthetic schema in an open connection (for the in-test variants)."""
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as d:
        path = S.write(Path(d) / "x.duckdb", games)
        con.execute(f"ATTACH '{path}' AS src (READ_ONLY)")
        for t in ("games", "seats", "pact_rounds", "pact_messages"):
            con.execute(f"CREATE TABLE main.{t} AS SELECT * FROM src.{t}")
        con.execute("DETACH src")


def test_kendall_tau_matches_pair_counting() -> None:
    ref = [0.3, 0.1, 0.5, 0.5, 0.2]
    samples = [[0.3, 0.1, 0.5, 0.4, 0.2], [0.1, 0.2, 0.3, 0.4, 0.5], [0.5, 0.5, 0.5, 0.1, 0.2]]
    import numpy as np

    got = P.kendall_tau(np.array(ref), np.array(samples))
    for g, s in zip(got, samples, strict=True):
        assert g == pytest.approx(O.tau_b(ref, s))
    assert math.isnan(P.kendall_tau(np.array([1.0, 1.0]), np.array([[1.0, 2.0]]))[0])


def test_glicko_leaderboard_from_cumulative_profits(
    analysis: P.PactAnalysis, games: list[S.Game]
) -> None:
    from projections.glicko2 import Match, rate_matches

    done = sorted(O.finished(games), key=lambda g: g.game_id)
    matches = []
    for g in done:
        pb = sum(r.buyer_profit for r in g.rounds)
        ps = sum(r.seller_profit for r in g.rounds)
        matches.append(Match(g.buyer, g.seller, 1.0 if pb > ps else 0.0 if pb < ps else 0.5))
    expect = rate_matches(matches)
    rows = {r.agent: r for r in analysis.glicko}
    for agent, r in expect.items():
        assert rows[agent].rating == pytest.approx(r.rating)
        assert rows[agent].rd == pytest.approx(r.rd)
    # Games: against other agents only; profit per round over all games.
    profit = O.metrics(done)["profit_per_round"]
    for agent, row in rows.items():
        assert row.games == sum(
            1 for g in done if agent in (g.buyer, g.seller) and g.buyer != g.seller
        )
        assert row.wins + row.draws + row.losses == row.games
        assert row.profit_per_round == pytest.approx(profit[(agent, "")])
    ratings = [r.rating for r in analysis.glicko]
    assert ratings == sorted(ratings, reverse=True)


def test_margin_weight() -> None:
    assert P.margin_weight(0) == 1.0
    assert P.margin_weight(0.5) == 1.0
    assert P.margin_weight(math.e) == pytest.approx(2.0)
    assert P.margin_weight(-math.e) == pytest.approx(2.0)
    assert P.margin_weight(10_000) == 4.0


def test_alpha_choice_is_reported_for_every_grid_point(analysis: P.PactAnalysis) -> None:
    scores = analysis.alpha.scores
    assert [s.alpha for s in scores] == list(P.ALPHA_GRID)
    assert analysis.alpha.alpha in P.ALPHA_GRID
    chosen = next(s for s in scores if s.alpha == analysis.alpha.alpha)
    assert chosen.candidate
    best = max(s.stability for s in scores)
    assert chosen.stability >= best - 2 * chosen.gap_se - 1e-12
    assert all(chosen.agreement >= s.agreement for s in scores if s.candidate)
    assert analysis.alpha.matchups == 6
    assert chosen.alpha in analysis.alpha.same_order
    assert set(analysis.alpha.same_order) <= {s.alpha for s in scores if s.candidate}


def test_resamples_are_bounded(con: duckdb.DuckDBPyConnection) -> None:
    data = P.load(con)
    for bad in (0, P.MAX_RESAMPLES + 1):
        with pytest.raises(ValueError, match="resamples"):
            P.analyse(data, resamples=bad)


def test_head_to_head_cells_count_the_games_of_the_match_up(
    analysis: P.PactAnalysis, games: list[S.Game]
) -> None:
    done = O.finished(games)
    for (a, b), (_est, n) in analysis.h2h.items():
        assert n == sum(1 for g in done if {g.buyer, g.seller} == {a, b}), (a, b)
    # 6 deals x 2 role orders, plus the other tournament's fair-soft game.
    assert analysis.h2h[("fair", "soft")][1] == 13
