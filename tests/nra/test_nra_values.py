"""NRA and its companions, checked against an independent recomputation and by properties.

The store is real (games played by `cattle tournament`); the oracle reads the raw event log
in plain Python (tests/nra/nra_oracle.py). The properties run the same SQL on stores written
with scores hypothesis chooses.
"""

from __future__ import annotations

import itertools
import json
import math
import tempfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events.store import DuckStore
from projections.metrics.aggregate import Selection
from projections.two_seat import nra as N
from tests.nra import nra_oracle as O

GAMES = ("toy-auction", "pact", "cattle-trade")


def _analysis(db: Path, game: str, tournament: str | None = None) -> N.NRAAnalysis:
    with DuckStore(db, read_only=True) as store:
        return N.nra_analysis(store.con, Selection(tournament=tournament, game=game), resamples=200)


@pytest.mark.parametrize("game", GAMES)
def test_nra_matches_the_event_log(two_seat_db: Path, game: str) -> None:
    a = _analysis(two_seat_db, game)
    matches = O.read(two_seat_db, game)
    assert a.matches == len(matches) > 0
    want = O.pair_means(matches)
    got = {(p.label, p.agent, p.opponent): p for p in a.pairs}
    assert set(got) == set(want)
    for key, (mean, n, wdl) in want.items():
        p = got[key]
        assert p.matches == n and p.record.text() == wdl, key
        assert p.nra.value == pytest.approx(mean, abs=1e-12), key
        assert p.nra.lo is not None and p.nra.hi is not None
        assert p.nra.lo - 1e-12 <= p.nra.value <= p.nra.hi + 1e-12
    for x in a.per_agent:
        assert x.completion.value == pytest.approx(O.completion(matches)[(x.label, x.agent)])
        # Against every other agent: the match-weighted mean of its pairings.
        mine = [(m, n) for (g, ag, _), (m, n, _) in want.items() if (g, ag) == (x.label, x.agent)]
        assert x.matches == sum(n for _, n in mine)
        assert x.nra.value == pytest.approx(sum(m * n for m, n in mine) / x.matches)


def test_games_without_two_seats_are_left_out_and_counted(two_seat_db: Path) -> None:
    a = _analysis(two_seat_db, "toy-auction")
    assert a.skipped == 3  # the three-seat tournament
    assert a.matches == 24
    only = _analysis(two_seat_db, "toy-auction", "toy3")
    assert only.matches == 0 and only.skipped == 3
    assert N.render_lines(only)[0].startswith("No two-seat match")


def test_tables_are_mirror_images(two_seat_db: Path) -> None:
    a = _analysis(two_seat_db, "pact")
    by = {(p.label, p.agent, p.opponent): p for p in a.pairs}
    for (g, x, y), p in by.items():
        q = by[(g, y, x)]
        assert q.nra.value == -p.nra.value
        assert (q.nra.lo, q.nra.hi) == (-p.nra.hi, -p.nra.lo)
        assert (q.record.wins, q.record.losses) == (p.record.losses, p.record.wins)
        assert p.first + q.first == p.matches
    _, m, _ = a.matrix()
    off = ~np.eye(len(m), dtype=bool)
    assert np.array_equal(m[off], -m.T[off])


def test_intervals_are_seeded(two_seat_db: Path) -> None:
    one = N.analysis_json(_analysis(two_seat_db, "pact"))
    two = N.analysis_json(_analysis(two_seat_db, "pact"))
    assert one == two
    json.dumps(one)  # plain JSON values only


def test_trueskill_orders_the_strong_toy_agent_first(two_seat_db: Path) -> None:
    a = _analysis(two_seat_db, "toy-auction")
    assert a.ratings[0].agent == "honest"
    assert sum(r.games for r in a.ratings) == 2 * a.matches


# ---------------------------------------------------------------------------- properties

finite = st.one_of(
    st.integers(min_value=-1000, max_value=1000).map(float),
    st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, width=32),
    st.just(0.0),
)


@given(own=finite, other=finite)
def test_nra_is_bounded_antisymmetric_and_zero_when_both_are_zero(own: float, other: float) -> None:
    v = N.nra(own, other)
    assert -1.0 <= v <= 1.0
    assert N.nra(other, own) == -v
    assert N.nra(own, own) == 0.0
    if own == 0 and other == 0:
        assert v == 0.0
    assert v == pytest.approx(O.nra(own, other))


def _write(store: DuckStore, name: str, games: list[tuple[str, str, float, float]]) -> None:
    """Finished two-seat games with these agents and scores, as tournament `name`."""
    for k, (x, y, s0, s1) in enumerate(games):
        gid = f"{name}.{k:04d}"
        seats = json.dumps([{"agent": x, "options": {}}, {"agent": y, "options": {}}])
        ranks = [1 if s0 >= s1 else 2, 1 if s1 >= s0 else 2]
        store.con.execute(
            "INSERT INTO games (game_id, game, seed, config, seats, engine_version, status,"
            " tournament) VALUES (?, 'synthetic', ?, '{}', ?, '1', 'finished', ?)",
            [gid, k, seats, name],
        )
        store.con.execute(
            "INSERT INTO events VALUES (?, 0, 'game_started', 0, NULL, NULL, ?),"
            " (?, 1, 'game_ended', 0, NULL, NULL, ?)",
            [gid, json.dumps({"type": "game_started", "seats": json.loads(seats)}),
             gid, json.dumps({"type": "game_ended", "scores": [s0, s1], "ranks": ranks})],
        )  # fmt: skip


@pytest.fixture(scope="module")
def scratch() -> Iterator[tuple[DuckStore, itertools.count[int]]]:
    """One real store for every example (each writes its games as a tournament of its own)."""
    with tempfile.TemporaryDirectory() as tmp, DuckStore(Path(tmp) / "p.duckdb", init=True) as s:
        yield s, itertools.count()


AGENTS = st.sampled_from(("a", "b", "c"))


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    games=st.lists(
        st.tuples(AGENTS, AGENTS, finite, finite).filter(lambda g: g[0] != g[1]),
        min_size=1,
        max_size=12,
    )
)
def test_sql_nra_is_the_definition_and_pairs_are_antisymmetric(
    scratch: tuple[DuckStore, itertools.count[int]], games: list[tuple[str, str, float, float]]
) -> None:
    store, counter = scratch
    name = f"h{next(counter)}"
    _write(store, name, games)
    m = N.load_matches(store.con, Selection(tournament=name, game=None))
    assert len(m) == len(games)
    for k, (_, _, s0, s1) in enumerate(games):
        # Scores pass through a DOUBLE column: compare with what was stored.
        assert m.nra0[k] == pytest.approx(O.nra(m.score0[k], m.score1[k]), abs=1e-12)
        assert m.score0[k] == pytest.approx(s0, rel=1e-6)
        assert -1 <= m.nra0[k] <= 1
        if s0 == 0 and s1 == 0:
            assert m.nra0[k] == 0
    a = N.analyse(m, resamples=50)
    by = {(p.agent, p.opponent): p for p in a.pairs}
    for (x, y), p in by.items():
        q = by[(y, x)]
        assert q.nra.value == -p.nra.value
        assert -1 <= p.nra.value <= 1  # type: ignore[operator]
        assert p.nra.lo is not None and p.nra.hi is not None
        assert -1 - 1e-9 <= p.nra.lo <= p.nra.hi <= 1 + 1e-9
    for x in (*a.per_agent, *a.overall_agents):
        assert x.nra.value is None or -1 <= x.nra.value <= 1
        assert x.completion.value == 1.0  # nothing was played in anyone's place
    assert not any(math.isnan(v) for v in (p.nra.value for p in a.pairs) if v is not None)


@pytest.mark.parametrize("width", [60, 80, 120])
def test_text_tables_fit_any_width(two_seat_db: Path, width: int) -> None:
    for game in GAMES:
        lines = N.render_lines(_analysis(two_seat_db, game), width=width)
        assert lines and max(len(line) for line in lines) <= width, game


@settings(max_examples=30, deadline=None)
@given(
    agents=st.lists(
        st.text(alphabet="ab[]/<>&:x-", min_size=1, max_size=40),
        min_size=2,
        max_size=14,
        unique=True,
    ),
    width=st.integers(min_value=50, max_value=130),
    data=st.data(),
)
def test_any_number_of_agents_and_any_names_fit_the_width(
    agents: list[str], width: int, data: st.DataObject
) -> None:
    games = data.draw(
        st.lists(
            st.tuples(st.sampled_from(agents), st.sampled_from(agents), finite, finite,
                      st.sampled_from(("tic_tac_toe", "a-rather-long-game-label(x=1,y=2)"))),
            min_size=1, max_size=30,
        )
    )  # fmt: skip
    m = N.Matches(
        game_id=tuple(f"g{k}" for k in range(len(games))),
        label=tuple(g[4] for g in games),
        agent0=tuple(g[0] for g in games),
        agent1=tuple(g[1] for g in games),
        score0=np.array([g[2] for g in games]),
        score1=np.array([g[3] for g in games]),
        rank0=np.array([1 if g[2] >= g[3] else 2 for g in games]),
        rank1=np.array([1 if g[3] >= g[2] else 2 for g in games]),
        nra0=np.array([O.nra(g[2], g[3]) for g in games]),
        fallback0=np.zeros(len(games), dtype=bool),
        fallback1=np.zeros(len(games), dtype=bool),
    )
    lines = N.render_lines(N.analyse(m, resamples=20), width=width)
    assert max(len(line) for line in lines) <= width


def test_a_game_without_usable_scores_is_left_out_and_counted(
    scratch: tuple[DuckStore, itertools.count[int]],
) -> None:
    store, counter = scratch
    name = f"broken{next(counter)}"
    _write(store, name, [("a", "b", 1.0, -1.0), ("a", "b", 0.0, 0.0)])
    # A hand-edited log: the second game's scores are gone.
    store.con.execute(
        "UPDATE events SET payload = ? WHERE game_id = ? AND type = 'game_ended'",
        ['{"type":"game_ended","scores":[null,1],"ranks":[2,1]}', f"{name}.0001"],
    )
    m = N.load_matches(store.con, Selection(tournament=name, game=None))
    assert m.game_id == (f"{name}.0000",) and m.skipped == 1
    doc = N.analysis_json(N.analyse(m, resamples=20))
    assert json.loads(json.dumps(doc, allow_nan=False)) == doc
