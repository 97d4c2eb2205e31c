"""Reading logs back as whole JSON arrays gives exactly the events a row-by-row decode gives.

A real DuckDB file holds games of every built-in game and the toy auction, Cattle Trade in
several presets and auction modes, a game with a model seat (its exchanges are agent-side
events) played through the loopback server, a running game and one with no events; another
file has the `events` primary key of earlier versions. Each reader of the store
(`load_events`, `load_logs`, `load_rows_many`, `decode_stored`) is compared with the plain
reading: one payload at a time through the game's decoder.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from storekit import record, row_of

from agents.llm.loopback import LegalPolicy, LoopbackServer
from engine.cattle.presets import load_preset
from engine.cattle.rules import ENGINE_VERSION
from events import catalog
from events.codec import encode, encode_log
from events.store import (
    DuckStore,
    GameNotFound,
    GameRow,
    StoreDamaged,
    StoredColumns,
    _fetch_stored_events,
    decode_events,
    decode_stored,
)
from runner.replay import verify as resimulate_and_compare
from runner.session import play_and_store
from runner.verify import check_game, check_stored, checks_of, jobs

TESTS = Path(__file__).resolve().parents[1]
if str(TESTS) not in sys.path:  # the toy game under the name the other tests import it by
    sys.path.insert(0, str(TESTS))
catalog.register(importlib.import_module("games.toy_auction").GAME)

OTHER_GAMES = {
    "pact": ("quick", ["anchor", "mirror"]),
    "toy-auction": ("standard", ["honest", "wild", "honest"]),
    "openspiel": ("kuhn_poker", ["random", "random"]),
}
CATTLE = [
    ("standard", 1, "canonical"),
    ("standard", 2, "legacy"),
    ("standard", 3, "fast"),
    ("micro-duel", 4, "canonical"),
    ("marathon", 5, "fast"),
]


def plain(store: DuckStore, game_id: str) -> list[Any]:
    """A game's events read and decoded one payload at a time."""
    game = store.con.execute("SELECT game FROM games WHERE game_id = ?", [game_id]).fetchone()
    assert game is not None
    rows = store.con.execute(
        "SELECT payload FROM events WHERE game_id = ? ORDER BY seq", [game_id]
    ).fetchall()
    return decode_events(game[0], [r[0] for r in rows], game_id)


def same(a: list[Any], b: list[Any]) -> None:
    assert a == b
    assert [type(e) for e in a] == [type(e) for e in b]
    assert [encode(e) for e in a] == [encode(e) for e in b]


def fill(store: DuckStore, url: str) -> None:
    """Every kind of game this file holds (see the module docstring)."""
    for i, spec in enumerate(CATTLE):
        rec = record(*spec)
        store.save_game(row_of(f"cattle{i}", rec), rec.events, rec.turns)
    for name, (preset, agents) in OTHER_GAMES.items():
        play_and_store(store, catalog.get(name).preset(preset), 7, agents, game_id=name)
    duel = load_preset("micro-duel")
    play_and_store(store, duel, 5, [f"openai:loop@{url}", "random"], game_id="model")
    rec = record("standard", 9)
    store.begin_game(
        GameRow(game_id="running", seed=9, config=rec.config, seats=rec.seats,
                engine_version=ENGINE_VERSION)
    )  # fmt: skip
    store.append("running", rec.events[:40], rec.turns[:40])
    store.begin_game(
        GameRow(game_id="empty", seed=9, config=rec.config, seats=rec.seats,
                engine_version=ENGINE_VERSION)
    )  # fmt: skip


@pytest.fixture(scope="module", params=["plain", "keyed"])
def filled(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A file with every kind of game; "keyed" has the primary key of earlier versions."""
    tmp = tmp_path_factory.mktemp("bulk")
    path = tmp / "games.duckdb"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("OPENAI_API_KEY", "sk-test-bulk")
        mp.delenv("OPENAI_BASE_URL", raising=False)
        mp.setenv("CATTLE_LLM_BACKOFF", "0.001")
        (tmp / "llm.toml").write_text("")
        mp.setenv("CATTLE_LLM_CONFIG", str(tmp / "llm.toml"))
        with DuckStore(path) as store, LoopbackServer(LegalPolicy()) as srv:
            if request.param == "keyed":
                store.con.execute("ALTER TABLE events ADD PRIMARY KEY (game_id, seq)")
            fill(store, srv.openai_url)
    return path


@pytest.fixture
def store(filled: Path) -> Iterator[DuckStore]:
    with DuckStore(filled, read_only=True) as s:
        yield s


def ids(store: DuckStore) -> list[str]:
    return sorted(r.game_id for r in store.list_games())


def test_the_file_holds_every_kind_of_game(store: DuckStore) -> None:
    kinds = {r.game for r in store.list_games()}
    assert kinds == {"cattle-trade", *OTHER_GAMES}
    _, rows = store.query("SELECT count(*) FROM events WHERE type = 'llm_call'")
    assert rows[0][0] > 0


def test_load_events_equals_the_plain_reading(store: DuckStore) -> None:
    for gid in ids(store):
        expected = plain(store, gid)
        same(store.load_events(gid), expected)
        for upto in (0, 1, len(expected) // 2, len(expected) - 1, len(expected) + 5):
            same(store.load_events(gid, upto=upto), expected[: max(upto + 1, 0)])
    assert store.load_events("empty") == []


def test_load_logs_equals_the_plain_reading(store: DuckStore) -> None:
    logs = list(store.load_logs(batch=3))
    assert [gid for gid, _ in logs] == ids(store)
    for gid, events in logs:
        same(events, plain(store, gid))
    some = ["model", "nothing-here", "cattle1", "model"]
    assert [gid for gid, _ in store.load_logs(some)] == ["cattle1", "model"]
    assert list(store.load_logs([])) == []


def test_decode_stored_equals_decode_events(store: DuckStore) -> None:
    for gid in ids(store):
        row = store.get_game(gid)
        payloads = [e.payload for e in store.load_rows(gid).events]
        same(decode_stored(row.game, payloads, gid), decode_events(row.game, payloads, gid))


def test_rows_fetched_by_column_are_the_rows_fetchall_gives(store: DuckStore) -> None:
    # `load_rows_many` may fetch the rows a column at a time; they must be what `fetchall`
    # gives, down to the Python types (a numpy integer compares equal to an int but is not
    # one), NULL lists and empty ones apart.
    sql = (
        "SELECT seq, type, turn, actor, visible_to, payload FROM events"
        " WHERE game_id IN (SELECT unnest(?)) ORDER BY game_id, seq"
    )
    every = ids(store)
    plain = store.con.execute(sql, [every]).fetchall()
    got = StoredColumns(_fetch_stored_events(store.con.execute(sql, [every]))).rows()
    assert [tuple(r) for r in got] == plain
    kinds = {
        (type(a), type(b))
        for r, p in zip(got, plain, strict=True)
        for a, b in zip(r, p, strict=True)
    }
    assert all(a is b for a, b in kinds), kinds
    assert all(type(x) is int for r in got if r.visible_to for x in r.visible_to)
    assert any(r.visible_to == [] for r in got) and any(r.visible_to is None for r in got)
    assert any(r.actor is None for r in got) and any(r.actor is not None for r in got)
    assert StoredColumns(_fetch_stored_events(store.con.execute(sql, [["nothing-here"]]))) == []


def test_the_replay_compared_with_given_stored_bytes_agrees(store: DuckStore) -> None:
    # `check_game` hands the replay's comparison the stored payloads joined; any other bytes
    # only send it to the event-by-event comparison, never to another verdict.
    for gid in ids(store):
        events = store.load_events(gid)
        if not events:
            continue
        plain = resimulate_and_compare(events)
        assert resimulate_and_compare(events, encoded=encode_log(events)) == plain
        assert resimulate_and_compare(events, encoded=b"") == plain


def test_load_rows_many_equals_load_rows(store: DuckStore) -> None:
    every = ids(store)
    order = every[::-1] + every[:2]
    assert list(store.load_rows_many(order, batch=4)) == [store.load_rows(g) for g in order]
    with pytest.raises(GameNotFound, match="nothing-here"):
        list(store.load_rows_many(["cattle0", "nothing-here"]))


def test_checks_in_process_equal_one_game_at_a_time(store: DuckStore) -> None:
    every = ids(store)
    batched = list(checks_of(store, jobs(store, every), workers=1))
    single = [check_stored(store, job) for job in jobs(store, every)]
    assert batched == single
    outcomes = {c.game_id: c.outcome for c in batched}
    assert outcomes["running"] == outcomes["empty"] == "unfinished"
    assert {outcomes[g] for g in every if g not in ("running", "empty")} == {"verified"}


def _copy_with(filled: Path, tmp_path: Path, sql: str, *params: Any) -> Path:
    path = tmp_path / "changed.duckdb"
    path.write_bytes(filled.read_bytes())
    con = duckdb.connect(str(path))
    con.execute(sql, list(params))
    con.close()
    return path


def test_an_event_of_another_game_is_named_by_every_reader(filled: Path, tmp_path: Path) -> None:
    with DuckStore(filled, read_only=True) as store:
        alien = store.load_rows("toy-auction").events[3].payload
    path = _copy_with(
        filled, tmp_path, "UPDATE events SET payload = ? WHERE game_id = 'cattle0' AND seq = 5",
        alien,
    )  # fmt: skip
    with DuckStore(path, read_only=True) as store:
        with pytest.raises(StoreDamaged) as one:
            store.load_events("cattle0")
        with pytest.raises(StoreDamaged) as many:
            list(store.load_logs())
        with pytest.raises(StoreDamaged) as plainly:
            plain(store, "cattle0")
        assert str(one.value) == str(many.value) == str(plainly.value)
        assert "event 5 is not an event of cattle-trade" in str(one.value)
        rows = store.load_rows("cattle0").events
        head = decode_events("cattle-trade", [r.payload for r in rows[:5]])
        same(store.load_events("cattle0", upto=4), head)  # the rows before it still read
        assert check_game(store.load_rows("cattle0")).problem is not None


def test_a_payload_holds_exactly_one_json_value(filled: Path) -> None:
    """Joined logs split where the rows do only because the column refuses anything else."""
    with DuckStore(filled, read_only=True) as store:
        first = store.load_rows("cattle0").events[0].payload
    con = duckdb.connect(str(filled), read_only=True)
    try:
        for bad in (f"{first},{first}", first[:-1], "", f"{first}]"):
            with pytest.raises(duckdb.ConversionException):
                con.execute("SELECT ?::JSON", [bad])
    finally:
        con.close()


def test_spacing_around_a_payload_still_reads_as_it_did(filled: Path, tmp_path: Path) -> None:
    path = _copy_with(
        filled, tmp_path,
        "UPDATE events SET payload = ' ' || payload || '\n' WHERE game_id = 'cattle2' AND seq = 7",
    )  # fmt: skip
    with DuckStore(path, read_only=True) as store:
        same(store.load_events("cattle2"), plain(store, "cattle2"))
        same(dict(store.load_logs(["cattle2"]))["cattle2"], plain(store, "cattle2"))
        check = check_game(store.load_rows("cattle2"))
        assert check.problem is not None and check.problem.check == "encoding"
        assert check.problem.seq == 7


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(["standard", "micro-duel", "marathon"]),
    mode=st.sampled_from(["canonical", "legacy", "fast"]),
    seed=st.integers(0, 2**32),
)
def test_random_games_read_back_the_same(preset: str, mode: str, seed: int) -> None:
    config = load_preset(preset, auction_mode=mode)
    with DuckStore(":memory:") as store:
        gid, rec = play_and_store(store, config, seed, ["random"] * config.players)
        same(store.load_events(gid), rec.events)
        same(dict(store.load_logs())[gid], rec.events)
        assert [msgspec.json.encode(e) for e in plain(store, gid)] == [
            msgspec.json.encode(e) for e in rec.events
        ]
