"""One contract for every store: the in-memory store and the DuckDB store must behave alike."""

from __future__ import annotations

from pathlib import Path

import pytest
from storekit import record, row_of

from events.agent import ScratchpadUpdated
from events.codec import encode
from events.store import DuckStore, GameNotFound, MemoryStore, Store, StoreError


class StoreContract:
    """Tests every `Store` must pass; subclasses say how to make one."""

    def make(self, tmp_path: Path) -> Store:
        raise NotImplementedError

    @pytest.fixture
    def store(self, tmp_path: Path):
        s = self.make(tmp_path)
        yield s
        s.close()

    def test_begin_append_end_and_load(self, store: Store) -> None:
        rec = record()
        events, turns = rec.events, rec.turns
        store.begin_game(row_of("g1", rec))
        got = store.get_game("g1")
        assert got.status == "running" and got.events == 0 and got.created_at is not None
        assert store.load_events("g1") == []
        store.append("g1", events[:10], turns[:10])
        store.append("g1", events[10:25], turns[10:25])
        store.append("g1", events[25:], turns[25:])
        assert store.get_game("g1").events == len(events)
        store.end_game("g1", "finished", "complete")
        got = store.get_game("g1")
        assert (got.status, got.end_reason) == ("finished", "complete")
        assert got.ended_at is not None
        assert got.seed == rec.seed and got.config == rec.config and got.seats == rec.seats
        loaded = store.load_events("g1")
        assert loaded == events
        assert [encode(e) for e in loaded] == [encode(e) for e in events]

    def test_seq_continues_across_appends_and_upto_cuts_the_log(self, store: Store) -> None:
        rec = record()
        events, turns = rec.events, rec.turns
        store.begin_game(row_of("g1", rec))
        for a, b in ((0, 4), (4, 5), (5, 30), (30, len(events))):
            store.append("g1", events[a:b], turns[a:b])
        store.append("g1", [], [])
        for upto in (0, 3, 4, 5, 29, 30, len(events) - 1, len(events) + 5):
            assert store.load_events("g1", upto=upto) == events[: upto + 1]

    def test_load_logs_gives_each_selected_game_in_id_order(self, store: Store) -> None:
        games = {"b": record(), "a": record("standard", 2), "c": record("micro-duel", 3)}
        for gid, rec in games.items():
            store.save_game(row_of(gid, rec), rec.events, rec.turns)
        store.begin_game(row_of("d", games["a"]))  # running, nothing appended yet
        assert [(g, e) for g, e in store.load_logs()] == [
            ("a", games["a"].events),
            ("b", games["b"].events),
            ("c", games["c"].events),
            ("d", []),
        ]
        picked = list(store.load_logs(["c", "nothing", "a", "c"], batch=1))
        assert picked == [("a", games["a"].events), ("c", games["c"].events)]
        assert list(store.load_logs([])) == []

    def test_agent_events_are_stored_in_order(self, store: Store) -> None:
        rec = record()
        note = ScratchpadUpdated(seat=1, notes="bid high on cats")
        events = [*rec.events[:5], note, *rec.events[5:]]
        turns = [*rec.turns[:5], rec.turns[4], *rec.turns[5:]]
        store.save_game(row_of("g1", rec), events, turns)
        assert store.load_events("g1") == events

    def test_save_games_lists_oldest_first_with_status(self, store: Store) -> None:
        a, b, c = record("micro-duel", 1), record("micro-duel", 2), record("micro-duel", 3)
        store.save_games(
            [(row_of("g-a", a), a.events, a.turns), (row_of("g-b", b), b.events, b.turns)]
        )
        store.save_game(row_of("g-c", c), c.events, c.turns)
        rows = store.list_games()
        assert [r.game_id for r in rows] == ["g-a", "g-b", "g-c"]
        for r, rec in zip(rows, (a, b, c), strict=True):
            assert r.status == "finished"
            assert r.end_reason == rec.result.reason
            assert r.events == len(rec.events)
            assert r.seed == rec.seed
        assert store.load_events("g-b") == b.events

    def test_list_games_filters_by_tournament(self, store: Store) -> None:
        rec = record()
        for gid, t in (("g1", "cup"), ("g2", None), ("g3", "cup"), ("g4", "league")):
            store.save_game(row_of(gid, rec, tournament=t), rec.events, rec.turns)
        assert [r.game_id for r in store.list_games("cup")] == ["g1", "g3"]
        assert [r.game_id for r in store.list_games("league")] == ["g4"]
        assert store.list_games("nothing") == []
        assert len(store.list_games()) == 4
        assert store.get_game("g3").tournament == "cup"

    def test_duplicate_game_ids_are_refused(self, store: Store) -> None:
        rec = record()
        store.begin_game(row_of("g1", rec))
        with pytest.raises(StoreError, match="g1"):
            store.begin_game(row_of("g1", rec))
        with pytest.raises(StoreError):
            store.save_game(row_of("g1", rec), rec.events, rec.turns)
        # a batch with one duplicate stores nothing at all
        with pytest.raises(StoreError):
            store.save_games(
                [
                    (row_of("g2", rec), rec.events, rec.turns),
                    (row_of("g1", rec), rec.events, rec.turns),
                ]
            )
        assert [r.game_id for r in store.list_games()] == ["g1"]
        assert store.load_events("g1") == []

    def test_unknown_game_raises_game_not_found(self, store: Store) -> None:
        rec = record()
        store.save_game(row_of("g1", rec), rec.events, rec.turns)
        with pytest.raises(GameNotFound):
            store.get_game("nope")
        with pytest.raises(GameNotFound):
            store.load_events("nope")
        with pytest.raises(GameNotFound):
            store.load_events("nope", upto=3)
        with pytest.raises(GameNotFound):
            store.append("nope", rec.events[:2], rec.turns[:2])
        with pytest.raises(GameNotFound):
            store.end_game("nope", "finished", "complete")
        assert issubclass(GameNotFound, StoreError)
        assert store.load_events("g1") == rec.events


class TestMemoryStore(StoreContract):
    def make(self, tmp_path: Path) -> Store:
        return MemoryStore()


class TestDuckStore(StoreContract):
    def make(self, tmp_path: Path) -> Store:
        return DuckStore(tmp_path / "games.duckdb")


class TestDuckStoreReopened(StoreContract):
    """The DuckDB store again, through a file that was closed and reopened before use."""

    def make(self, tmp_path: Path) -> Store:
        path = tmp_path / "games.duckdb"
        DuckStore(path).close()
        return DuckStore(path)
