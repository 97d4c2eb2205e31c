"""DuckDB store specifics: the file, locking, the table layout and the SQL views."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from storekit import held_open, record, row_of

from engine.cattle.state import evolve, initial_state
from events.cattle import game as ev
from events.store import SCHEMA_VERSION, DuckStore, StoreError, StoreLocked, StoreMissing

GAMES = [
    ("standard", 1, "canonical"),
    ("standard", 2, "legacy"),
    ("standard", 3, "fast"),
    ("micro-duel", 4, "canonical"),
    ("marathon", 5, "canonical"),
]


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database file holding the games of GAMES, as g0, g1, ..."""
    path = tmp_path_factory.mktemp("duck") / "games.duckdb"
    with DuckStore(path) as store:
        for i, spec in enumerate(GAMES):
            rec = record(*spec)
            store.save_game(row_of(f"g{i}", rec), rec.events, rec.turns)
    return path


def test_missing_file_is_reported_and_not_created(tmp_path: Path) -> None:
    path = tmp_path / "none" / "games.duckdb"
    with pytest.raises(StoreMissing, match="no database"):
        DuckStore(path, read_only=True)
    with pytest.raises(StoreMissing):
        DuckStore(path, create=False)
    assert not path.exists()
    DuckStore(path).close()  # a writable open creates it, with its folder
    assert path.exists()


def test_a_file_held_by_another_process_is_reported_as_locked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CATTLE_LOCK_WAIT", "0.3")
    path = tmp_path / "games.duckdb"
    rec = record()
    with DuckStore(path) as store:
        store.save_game(row_of("g1", rec), rec.events, rec.turns)
    with held_open(path):
        with pytest.raises(StoreLocked, match="in use by another process") as info:
            DuckStore(path)
        assert str(path) in str(info.value)
        with pytest.raises(StoreLocked):
            DuckStore(path, read_only=True)
    with DuckStore(path, read_only=True) as store:  # free again once the holder is gone
        assert store.load_events("g1") == rec.events


def test_schema_version_and_event_rows(filled: Path) -> None:
    rec = record(*GAMES[0])
    with DuckStore(filled, read_only=True) as store:
        _, rows = store.query("SELECT value FROM meta WHERE key = 'schema_version'")
        assert rows == [(str(SCHEMA_VERSION),)]
        _, rows = store.query(
            "SELECT seq, type, turn, actor, visible_to FROM events WHERE game_id = 'g0' ORDER BY seq"
        )
    assert [r[0] for r in rows] == list(range(len(rec.events)))
    for (_, typ, turn, actor, vis), e, t in zip(rows, rec.events, rec.turns, strict=True):
        assert typ == e.__struct_config__.tag
        assert turn == t
        assert actor == e.actor()
        aud = e.audience()
        assert vis == (None if aud is None else list(aud))
    types = {r[1]: r[4] for r in rows}
    assert types["deck_shuffled"] == [] and types["turn_started"] is None


def _duplicates(store: DuckStore) -> list[tuple[object, ...]]:
    _, rows = store.query(
        "SELECT game_id, seq, count(*) FROM events GROUP BY ALL HAVING count(*) > 1"
    )
    return rows


def test_event_rows_stay_unique_by_how_seqs_are_given(filled: Path, tmp_path: Path) -> None:
    con = duckdb.connect(str(filled), read_only=True)
    with pytest.raises(duckdb.Error):
        con.execute("DELETE FROM events WHERE game_id = 'g0'")
    con.close()
    path = tmp_path / "copy.duckdb"
    rec = record()
    with DuckStore(path) as store:
        store.save_game(row_of("g1", rec), rec.events, rec.turns)
        with pytest.raises(StoreError, match="already stored"):
            store.save_game(row_of("g1", rec), rec.events, rec.turns)
        store.append("g1", rec.events[:2], rec.turns[:2])  # appends go after the end
        store.append("g1", rec.events[2:3], rec.turns[2:3])
        _, rows = store.query("SELECT max(seq), count(*) FROM events WHERE game_id = 'g1'")
        assert rows == [(len(rec.events) + 2, len(rec.events) + 3)]
        assert _duplicates(store) == []


def test_a_file_whose_events_have_a_primary_key_still_works(tmp_path: Path) -> None:
    """Files made when `events` had a primary key keep it; they read, write and verify."""
    from runner.verify import verify_stored

    path = tmp_path / "keyed.duckdb"
    rec = record()
    with DuckStore(path) as store:
        store.con.execute("ALTER TABLE events ADD PRIMARY KEY (game_id, seq)")
        store.save_game(row_of("g1", rec), rec.events, rec.turns)
        with pytest.raises(duckdb.ConstraintException):
            store.con.execute("INSERT INTO events SELECT * FROM events WHERE seq = 0")
        store.save_game(row_of("g2", rec), rec.events, rec.turns)
        assert _duplicates(store) == []
    with DuckStore(path, read_only=True) as store:
        assert store.load_events("g2") == rec.events
        assert verify_stored(store, "g1").ok


def test_bids_view_has_typed_columns(filled: Path) -> None:
    with DuckStore(filled, read_only=True) as store:
        _, rows = store.query("DESCRIBE SELECT * FROM bids")
    types = {r[0]: r[1] for r in rows}
    assert types == {
        "game_id": "VARCHAR",
        "seq": "INTEGER",
        "turn": "INTEGER",
        "auction": "INTEGER",
        "round": "INTEGER",
        "seat": "SMALLINT",
        "amount": "INTEGER",
        "money": "INTEGER",
    }


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_bids_view_matches_a_fold_of_the_events(filled: Path, index: int) -> None:
    rec = record(*GAMES[index])
    expected = []
    state = initial_state(rec.config)
    for seq, (e, turn) in enumerate(zip(rec.events, rec.turns, strict=True)):
        state = evolve(state, e)
        if isinstance(e, ev.BidPlaced | ev.BidPassed):
            amount = e.amount if isinstance(e, ev.BidPlaced) else None
            money = state.wealth(e.seat)
            expected.append((seq, turn, e.auction, e.round, e.seat, amount, money))
    assert any(r[5] is None for r in expected) and any(r[5] is not None for r in expected)
    with DuckStore(filled, read_only=True) as store:
        _, rows = store.query(
            "SELECT seq, turn, auction, round, seat, amount, money FROM bids"
            " WHERE game_id = ? ORDER BY seq",
            [f"g{index}"],
        )
        _, final = store.query(
            "SELECT seat, arg_max(money, seq) FROM money WHERE game_id = ? GROUP BY seat ORDER BY seat",
            [f"g{index}"],
        )
    assert rows == expected
    assert final == [(p, state.wealth(p)) for p in range(rec.config.players)]


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_scores_view_matches_game_ended(filled: Path, index: int) -> None:
    rec = record(*GAMES[index])
    end = rec.result
    assert end is not None
    with DuckStore(filled, read_only=True) as store:
        _, rows = store.query(
            "SELECT seat, agent, score, complete_sets, rank FROM scores WHERE game_id = ? ORDER BY seat",
            [f"g{index}"],
        )
        _, types = store.query("DESCRIBE SELECT seat, score, complete_sets, rank FROM scores")
    assert rows == [
        (p, rec.seats[p].agent, end.scores[p], len(end.sets[p]), end.ranks[p])
        for p in range(rec.config.players)
    ]
    assert [t[1] for t in types] == ["SMALLINT", "INTEGER", "INTEGER", "INTEGER"]
