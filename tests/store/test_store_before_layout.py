"""A store written before the games moved to one subpackage per family still reads and verifies.

`data/before_layout.duckdb` was written by the harness as it stood before the move (Cattle Trade,
PACT, OpenSpiel and GTBench games, code seats and model seats answered by the loopback server),
and is kept as it was. Event tags, game names, agent specs and stored views did not change with
the move, so every game must verify byte for byte, read-only and after a writable open (which
recreates the views from the new files).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from events.store import DuckStore
from runner.verify import verify_stored

FIXTURE = Path(__file__).parent / "data" / "before_layout.duckdb"
GAMES = {"cattle-trade": 3, "pact": 2, "openspiel": 2}
"""The games the fixture holds, by game."""


@pytest.fixture
def old_store(tmp_path: Path) -> Path:
    """A copy of the fixture (opening a store may write to it; the fixture stays as it was)."""
    copy = tmp_path / "before_layout.duckdb"
    shutil.copyfile(FIXTURE, copy)
    return copy


@pytest.mark.parametrize("read_only", [True, False])
def test_every_game_stored_before_the_move_verifies(old_store: Path, read_only: bool) -> None:
    with DuckStore(old_store, read_only=read_only) as store:
        rows = store.con.execute("SELECT game, count(*) FROM games GROUP BY game").fetchall()
        assert dict(rows) == GAMES
        ids = [r[0] for r in store.con.execute("SELECT game_id FROM games ORDER BY 1").fetchall()]
        checks = [verify_stored(store, game_id) for game_id in ids]
    assert [(c.game_id, c.outcome, c.problem) for c in checks] == [
        (game_id, "verified", None) for game_id in ids
    ]
    assert sum(c.events for c in checks) == 2443


def test_the_views_rebuilt_after_the_move_read_the_old_games(old_store: Path) -> None:
    with DuckStore(old_store) as store:  # a writable open recreates the views from the files
        scores = store.con.execute("SELECT count(*) FROM scores").fetchall()[0][0]
        bids = store.con.execute("SELECT count(*) FROM bids").fetchall()[0][0]
        quotes = store.con.execute("SELECT count(*) FROM pact_rounds").fetchall()[0][0]
        moves = store.con.execute("SELECT count(*) FROM openspiel_actions").fetchall()[0][0]
        calls = store.con.execute("SELECT count(*) FROM llm_calls").fetchall()[0][0]
    assert scores == 3 * 2 + 4 - 2  # two duels and one four-seat game, one seat row each
    assert bids > 0 and quotes > 0 and moves > 0 and calls > 0


def test_a_tampered_copy_fails(old_store: Path) -> None:
    """The check above can fail: one changed payload is found."""
    with DuckStore(old_store) as store:
        game_id, seq = store.con.execute(
            "SELECT game_id, max(seq) FROM events WHERE type = 'bid_placed' GROUP BY game_id"
            " ORDER BY game_id LIMIT 1"
        ).fetchall()[0]
        store.con.execute(
            "UPDATE events SET payload = replace(payload, '\"amount\":', '\"amount\":1') "
            "WHERE game_id = ? AND seq = ?",
            [game_id, seq],
        )
        check = verify_stored(store, game_id)
    assert check.outcome != "verified" and check.problem is not None


def test_the_viewer_reads_the_old_openspiel_games_for_every_viewer(old_store: Path) -> None:
    """OpenSpiel games of rules 1.0.0: everyone sees the whole state, a seat of Kuhn poker the
    moves it was shown then (no string was stored for it), nobody a failure text."""
    from cli.web.data import PUBLIC, game_data

    with DuckStore(old_store, read_only=True) as store:
        rows = store.con.execute(
            "SELECT game_id, engine_version FROM games WHERE game = 'openspiel' ORDER BY 1"
        ).fetchall()
        assert {v for _, v in rows} == {"1.0.0"}
        for game_id, _ in rows:
            for viewer in (None, PUBLIC, 0, 1):
                data = game_data(store.con, game_id, viewer)
                texts = [f["text"] for f in data["frames"]]
                assert texts and all("no state text" not in t for t in texts)
                assert all(" object at 0x" not in t for t in texts)
