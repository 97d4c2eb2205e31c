"""MindGames' arena: TrueSkill per game and track with trajectories, the error lens, roles,
and MG-Ref scoring against a frozen pool."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.textarena.mindgames import PRESETS
from events.store import DuckStore
from events.textarena.game import ActionTaken, InvalidMove
from projections.textarena import arena as A
from runner.session import play_and_store
from runner.textarena import mgref
from tests.cli.clikit import cattle, cells, table_lines


@pytest.fixture(scope="module")
def store_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("arena") / "a.duckdb"
    with DuckStore(db) as store:
        for seed in range(3):
            play_and_store(store, PRESETS["blotto"], seed, ["blotto-uniform", "random"])
            play_and_store(store, PRESETS["ipd3"], seed, ["ipd-tft", "random", "ipd-defect"])
            play_and_store(store, PRESETS["mafia"], seed, ["mafia-accuser", *["random"] * 5])
    return db


def test_ratings_per_game_and_track_and_their_trajectories(store_path: Path) -> None:
    with DuckStore(store_path) as store:
        seats = A.load(store)
    assert {s.preset for s in seats} == {"blotto", "ipd3", "mafia"}
    games = A.trueskill_by(seats, "game")
    tracks = A.trueskill_by(seats, "track")
    assert {r.group for r in games} == {"blotto", "ipd3", "mafia"}
    assert {r.group for r in tracks} == {"generalization", "social-detection"}
    # The track pools blotto and ipd3: random's seats there add up.
    rnd = {r.group: r.seats for r in games if r.agent == "random"}
    (gen,) = [r for r in tracks if r.group == "generalization" and r.agent == "random"]
    assert gen.seats == rnd["blotto"] + rnd["ipd3"]
    for group in ("blotto", "mafia"):
        t = A.trajectories(seats)[group]
        assert len(t["rows"]) == 3
        last = dict(zip(t["agents"], t["rows"][-1][1:], strict=True))
        for r in games:
            if r.group == group:
                assert last[r.agent] == pytest.approx(r.mu)


def test_the_error_lens_and_roles_follow_the_events(store_path: Path) -> None:
    with DuckStore(store_path) as store:
        seats = A.load(store)
        events = {s.game_id: store.load_events(s.game_id) for s in seats}
    lens = {(e.game, e.agent): e for e in A.error_lens(seats)}
    for (game, agent), e in lens.items():
        mine = [s for s in seats if s.preset == game and s.agent == agent]
        acts = bad = 0
        for s in mine:
            log = events[s.game_id]
            acts += sum(isinstance(x, ActionTaken) and x.player == s.seat for x in log)
            bad += sum(isinstance(x, InvalidMove) and x.player == s.seat for x in log)
        assert e.seats == len(mine)
        assert e.invalid_rate == pytest.approx(bad / acts)
    lines = A.roles(seats)
    assert lines and {line.game for line in lines} == {"mafia"}
    assert sum(line.seats for line in lines) == 3 * 6


def test_mg_ref_scores_against_a_frozen_pool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pool = mgref.Pool(
        name="test-pool",
        summary="small",
        agents={
            "blotto": ("blotto-concentrate", "blotto-uniform"),
            "ipd3": ("ipd-tft", "ipd-grim"),
        },
        deals=2,
    )
    monkeypatch.setitem(mgref.POOLS, "test-pool", pool)
    mgref.frozen.cache_clear()
    frozen = mgref.frozen("test-pool")
    with DuckStore(tmp_path / "m.duckdb") as store:
        first, ids = mgref.score(store, "test-pool", "ipd-defect")
        again, _ = mgref.score(store, "test-pool", "ipd-defect")
    # ipd-defect plays the IPD only; the pool's ratings never move.
    assert [s.group for s in first] == ["ipd3", "generalization"]
    assert len(ids) == 2 * 3
    assert [(s.mu, s.sigma) for s in first] == [(s.mu, s.sigma) for s in again]
    assert mgref.frozen("test-pool") is frozen
    assert first[0].pool == {a: (r.mu, r.sigma) for a, r in frozen["ipd3"].items()}
    mgref.frozen.cache_clear()


def test_the_command_refuses_an_unknown_pool_in_one_line(tmp_path: Path) -> None:
    got = cattle("arena", "--pool", "nope", "--agent", "random", "--db", tmp_path / "x.duckdb")
    assert got.returncode != 0
    assert "unknown pool" in got.stderr and len(got.stderr.strip().splitlines()) == 1


def test_long_agent_names_are_never_cut_to_the_same_text(tmp_path: Path) -> None:
    """At 80 columns two specs that share a long beginning stay whole (wrapped, not cut)."""
    from agents.llm.loopback import LegalPolicy, LoopbackServer

    db = tmp_path / "long.duckdb"
    with LoopbackServer(LegalPolicy()) as srv, DuckStore(db) as store:
        stem = "openai:a-model-name-long-enough-that-an-eighty-column-table-must-wrap-it"
        names = [f"{stem}-{end}@{srv.openai_url}" for end in "xy"]
        play_and_store(store, PRESETS["blotto"], 1, names)
    got = cattle("arena", "--db", db, env={"COLUMNS": "80"})
    assert got.returncode == 0, got.stderr
    assert all(len(r) <= 80 for r in got.stdout.splitlines())
    _, rows = table_lines(got.stdout)  # the first table: TrueSkill per game
    # Read the agent column back whole: a row's cell, then the lines it wrapped onto.
    agents: list[str] = []
    for r in rows:
        game, cell = cells(r)[:2]
        if game:
            agents.append(cell)
        else:
            agents[-1] += cell
    assert sorted(agents) == sorted(n.split("@")[0] for n in names)
