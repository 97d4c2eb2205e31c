"""Commands that read the store leave no database connection alive behind them: the SQL
sandbox's time limit ends with the query (its timer holds the connection while it lives), and
`cattle show` and `cattle sql --format csv` exit without DuckDB's bindings reporting a
connection leaked. `cattle agents --game G` lists only agents that take a seat of G."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from clikit import cattle

from events.sandbox import open_sandboxed, run_query, streamed
from events.store import DuckStore
from runner.session import play_and_store


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A store with one micro-duel of code agents, and its game id."""
    from engine.cattle.presets import load_preset

    path = tmp_path_factory.mktemp("conn") / "c.duckdb"
    with DuckStore(path) as store:
        gid, _ = play_and_store(store, load_preset("micro-duel"), 2, ["random", "random"])
    return path, gid


def _timers() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if isinstance(t, threading.Timer) and t.is_alive()]


def test_a_query_leaves_no_timer_holding_its_connection(db: tuple[Path, str]) -> None:
    before = _timers()
    con = open_sandboxed(db[0], timeout=30)
    try:
        for _ in range(5):
            run_query(con, "SELECT count(*) FROM events", timeout=30)
            assert _timers() == before
            with streamed(con, "SELECT * FROM games", timeout=30) as stream:
                list(stream.batches(limit=None))
            assert _timers() == before
    finally:
        con.close()


def test_reading_commands_exit_without_a_leaked_connection(db: tuple[Path, str]) -> None:
    path, gid = db
    for args in (
        ("show", gid, "--db", path),
        ("sql", "SELECT * FROM events", "--format", "csv", "--db", path),
        ("sql", "SELECT * FROM games", "--format", "json", "--db", path),
    ):
        done = cattle(*args)
        assert done.returncode == 0, done.stderr
        assert "leaked" not in done.stderr, (args, done.stderr)


def test_agents_of_a_game_are_only_those_that_play_it() -> None:
    done = cattle("agents", "--game", "gtbench:tic_tac_toe")
    names = done.stdout.split()
    assert done.returncode == 0 and "random" in names and "mcts" in names
    assert "tft" not in names
    dilemma = cattle("agents", "--game", "gtbench:prisoners_dilemma").stdout.split()
    assert "tft" in dilemma and "mcts" not in dilemma
