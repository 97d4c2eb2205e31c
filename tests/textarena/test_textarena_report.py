"""MindGames' arena in `cattle metrics` and `cattle report`: the tables and figures, checked
against sums taken directly from the SQL views."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from agents.llm.loopback import FaultPolicy, LegalPolicy, LoopbackServer
from engine.textarena.mindgames import PRESETS
from events.store import DuckStore
from projections.metrics.aggregate import Selection
from projections.textarena.report import FIGURE_IDS, analysis_json, seats_of
from runner.session import play_and_store
from tests.cli.clikit import cattle
from tests.llm.helpers import seat, set_env


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two Blotto games (one of a model seat whose first two answers are empty, so TextArena
    judges invalid moves), and one game each of the other three."""
    path = tmp_path_factory.mktemp("tareport") / "r.duckdb"
    policy = FaultPolicy(LegalPolicy(), [("textarena", "empty")] * 2)
    with pytest.MonkeyPatch.context() as mp, LoopbackServer(policy) as srv:
        set_env(mp, path.parent)
        with DuckStore(path) as store:
            play_and_store(store, PRESETS["blotto"], 1, [seat(srv, "openai"), "blotto-uniform"])
            play_and_store(store, PRESETS["blotto"], 2, ["blotto-concentrate", "blotto-uniform"])
            play_and_store(store, PRESETS["ipd3"], 3, ["ipd-tft", "ipd-grim", "ipd-defect"])
            play_and_store(
                store,
                PRESETS["codenames"],
                4,
                ["codenames-topics", "codenames-topics", "codenames-random", "random"],
            )
            play_and_store(store, PRESETS["mafia"], 5, ["mafia-accuser", *["mafia-random"] * 5])
    return path


def _sql(db: Path, sql: str) -> list[tuple[object, ...]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def _invalid_rates(db: Path) -> dict[tuple[str, str], float]:
    """Invalid moves over actions per game and agent, straight from the views."""
    rows = _sql(
        db,
        "WITH a AS (SELECT game_id, player AS seat, count(*) AS n FROM textarena_actions"
        " GROUP BY ALL), b AS (SELECT game_id, player AS seat, count(*) AS n"
        " FROM textarena_invalid_moves GROUP BY ALL)"
        " SELECT t.preset, r.agent, sum(coalesce(b.n, 0)) / sum(a.n)"
        " FROM a JOIN textarena_games t USING (game_id)"
        " JOIN results r ON r.game_id = a.game_id AND r.seat = a.seat"
        " LEFT JOIN b ON b.game_id = a.game_id AND b.seat = a.seat GROUP BY ALL",
    )
    return {(str(g), str(a)): float(x) for g, a, x in rows}  # type: ignore[arg-type]


def test_metrics_print_the_arena_tables_with_the_views_numbers(db: Path) -> None:
    rates = _invalid_rates(db)
    (model,) = [a for g, a in rates if a.startswith("openai:")]
    assert rates[("blotto", model)] > 0  # the empty answers were judged invalid
    done = cattle("metrics", "--game", "mindgames", "--db", db)
    assert done.returncode == 0, done.stderr
    text = done.stdout
    for title in ("TrueSkill per game", "TrueSkill per track", "Errors", "Roles"):
        assert title in text
    for game, agent in rates:
        assert agent in text
        row = [
            line.split()
            for line in text.splitlines()
            if line.split()[:2] == [game, agent] and "%" in line
        ]
        assert row and row[0][2] == f"{100 * rates[(game, agent)]:.1f}%", (game, agent)
    for role in ("red spymaster", "blue operative", "Mafia", "Villager"):
        assert role in text
    # One game named: only its games, and the JSON carries the same rate.
    done = cattle("metrics", "--game", "mindgames:blotto", "--json", "--db", db)
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert {e["game"] for e in doc["errors"]} == {"blotto"}
    for e in doc["errors"]:
        assert e["invalid_rate"] == pytest.approx(rates[("blotto", e["agent"])])
    games = {
        r["group"]: r["seats"] for r in doc["trueskill_game"] if r["agent"] == "blotto-uniform"
    }
    assert games == {"blotto": 2}


def test_role_advantage_is_the_roles_win_rate_over_the_games(db: Path) -> None:
    with DuckStore(db) as store:
        doc = analysis_json(seats_of(store.con, Selection(game="textarena")))
    (won,) = _sql(
        db,
        "SELECT avg((reward = list_max(t.rewards) AND list_max(t.rewards) >"
        " list_min(t.rewards))::INT)"
        " FROM textarena_roles ro JOIN textarena_games t USING (game_id)"
        " WHERE t.preset = 'mafia' AND ro.role = 'Mafia'",
    )
    adv = {(r["game"], r["role"]): r for r in doc["role_advantage"]}
    assert adv[("mafia", "Mafia")]["win_rate"] == pytest.approx(won[0])
    assert adv[("mafia", "Mafia")]["seats"] == 2
    assert {r for g, r in adv if g == "codenames"} == {
        "red spymaster",
        "red operative",
        "blue spymaster",
        "blue operative",
    }
    for g in ("codenames", "mafia"):
        assert sum(r["share"] for (gg, _), r in adv.items() if gg == g) == pytest.approx(1)


def test_the_report_holds_every_figure_and_table(db: Path, tmp_path: Path) -> None:
    page = tmp_path / "arena.html"
    done = cattle("report", "--game", "mindgames", "--out", page, "--db", db)
    assert done.returncode == 0, done.stderr
    text = page.read_text()
    for fig in FIGURE_IDS:
        assert f'id="{fig}"' in text and f'id="{fig}-img"' in text
    for table in ("ta-trueskill-game", "ta-trueskill-track", "ta-errors", "ta-roles"):
        assert f'id="{table}"' in text
    assert "5 finished games" in text
