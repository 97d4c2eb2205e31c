"""Verification fails for every kind of tampering with a stored game, and names the problem.

A real DuckDB file holds code-agent games, a model-seat game played through the loopback
server, a small tournament, a running game and an abandoned one. Each case copies the file,
changes it with its own DuckDB connection (as a careless or hostile user could), and checks
the game with the same function `cattle verify` runs.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents import register
from agents.base import Agent
from agents.cattle.random_agent import RandomAgent
from agents.llm.loopback import LegalPolicy, LoopbackServer
from engine.cattle import decisions as dec
from engine.cattle.actions import AnyAction
from engine.cattle.presets import load_preset
from engine.cattle.rules import ENGINE_VERSION
from events.cattle import game as ev
from events.cattle.codec import decode
from events.cattle.domain import GameConfig
from events.codec import encode
from events.store import DuckStore, GameRow, StoredColumns, StoredGame
from projections.cattle.observation import SeatView
from runner.session import play_and_store, play_game
from runner.tournament import create, ensure_schema, pending_tasks, play_tournament
from runner.verify import GameCheck, check_game, verify_stored

CODE_SEATS = ["tracker", "setrace", "economy", "random"]


class Gone(RuntimeError):
    """The failure the failing seat raises."""


class FailingSeat(Agent):
    """Plays like the random agent, waiting on I/O as a model seat does, then fails."""

    spec = "verify-failing"
    is_async = True

    def __init__(self, seat: int, seed: int, config: GameConfig) -> None:
        super().__init__(seat, seed, config)
        self.inner = RandomAgent(seat, seed, config)
        self.calls = 0

    async def aact(self, view: SeatView, decision: dec.AnyDecision) -> AnyAction:
        self.calls += 1
        if self.calls == 30:
            raise Gone("the seat went away")
        return self.inner.act(view, decision)


register("verify-failing", lambda spec, seat, seed, config: FailingSeat(seat, seed, config))


@dataclass
class Base:
    """The untampered database and the ids of its games."""

    path: Path
    code: str
    model: str
    cup: list[str]
    running: str
    abandoned: str


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Base]:
    """Plays and stores every game once per module."""
    tmp = tmp_path_factory.mktemp("verify")
    path = tmp / "games.duckdb"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("OPENAI_API_KEY", "sk-test-verify")
        mp.delenv("OPENAI_BASE_URL", raising=False)
        mp.setenv("CATTLE_LLM_BACKOFF", "0.001")
        (tmp / "llm.toml").write_text("")
        mp.setenv("CATTLE_LLM_CONFIG", str(tmp / "llm.toml"))
        with DuckStore(path) as store, LoopbackServer(LegalPolicy()) as srv:
            standard = load_preset("standard")
            code, _ = play_and_store(store, standard, 21, CODE_SEATS, game_id="code")
            model, _ = play_and_store(
                store,
                load_preset("micro-duel"),
                5,
                [f"openai:loop@{srv.openai_url}", "random"],
                game_id="model",
            )
            ensure_schema(store)
            duel = load_preset("micro-duel")
            # Tournament games with a model seat: the games row must name the seats the game
            # recorded (with the model's options), as the log does.
            model_seat = f"openai:loop@{srv.openai_url}"
            create(store, "cup", "round-robin", ("tracker", model_seat), 2, 8, duel)
            _, tasks, _ = pending_tasks(store, "cup")
            play_tournament(store, "cup", duel, tasks, show=False)
            cup = [g.game_id for g in store.list_games("cup")]
            # A game whose writer stopped after turn 12: what a killed model game leaves.
            rec = play_game(standard, 22, CODE_SEATS)
            store.begin_game(
                GameRow(
                    game_id="running",
                    seed=22,
                    config=standard,
                    seats=rec.seats,
                    engine_version=ENGINE_VERSION,
                )
            )
            for turn in range(13):
                idx = [i for i, t in enumerate(rec.turns) if t == turn]
                store.append("running", [rec.events[i] for i in idx], [turn] * len(idx))
            with pytest.raises(Gone):
                play_and_store(
                    store, standard, 23, ["verify-failing", *CODE_SEATS[1:]], game_id="abandoned"
                )
    yield Base(path=path, code=code, model=model, cup=cup, running="running", abandoned="abandoned")


def check(path: Path, game_id: str) -> GameCheck:
    """What `cattle verify` says about one game."""
    with DuckStore(path, read_only=True) as store:
        return verify_stored(store, game_id)


def first_seq(con: duckdb.DuckDBPyConnection, gid: str, kind: str, nth: int = 0) -> int:
    rows = con.execute(
        "SELECT seq FROM events WHERE game_id = ? AND type = ? ORDER BY seq", [gid, kind]
    ).fetchall()
    return int(rows[nth][0])


def count(con: duckdb.DuckDBPyConnection, gid: str) -> int:
    return int(con.execute("SELECT count(*) FROM events WHERE game_id = ?", [gid]).fetchall()[0][0])


def payload(con: duckdb.DuckDBPyConnection, gid: str, seq: int) -> str:
    got = con.execute("SELECT payload FROM events WHERE game_id = ? AND seq = ?", [gid, seq])
    return str(got.fetchall()[0][0])


def set_payload(con: duckdb.DuckDBPyConnection, gid: str, seq: int, text: str) -> None:
    con.execute("UPDATE events SET payload = ? WHERE game_id = ? AND seq = ?", [text, gid, seq])


def winning_bid(con: duckdb.DuckDBPyConnection, gid: str) -> int:
    """The seq of the bid that won the first auction sold for more than 0."""
    won = con.execute(
        "SELECT payload FROM events WHERE game_id = ? AND type = 'auction_won' ORDER BY seq",
        [gid],
    ).fetchall()
    for (text,) in won:
        w = decode(text)
        rows = con.execute(
            "SELECT seq, payload FROM events WHERE game_id = ? AND type = 'bid_placed'"
            " ORDER BY seq",
            [gid],
        ).fetchall()
        for seq, bid_text in rows:
            bid = decode(bid_text)
            if (bid.auction, bid.seat, bid.amount) == (w.auction, w.winner, w.price):
                return int(seq)
    raise AssertionError("no auction was won by a bid")


def flip_model_choice(con: duckdb.DuckDBPyConnection, gid: str) -> int:
    """Turn the model seat's (seat 0) first turn choice around, canonically; return its seq."""
    got = con.execute(
        "SELECT min(seq) FROM events WHERE game_id = ? AND type = 'turn_chosen' AND actor = 0",
        [gid],
    ).fetchall()
    seq = int(got[0][0])
    chosen = decode(payload(con, gid, seq))
    flipped = "trade" if chosen.choice == "auction" else "auction"
    set_payload(con, gid, seq, encode(msgspec.structs.replace(chosen, choice=flipped)).decode())
    return seq


def raise_bid(con: duckdb.DuckDBPyConnection, gid: str, pick: Callable[[Con, str], int]) -> int:
    """Add 10 to a bid, keeping the payload canonical; return its seq."""
    seq = pick(con, gid)
    bid = decode(payload(con, gid, seq))
    set_payload(
        con, gid, seq, encode(msgspec.structs.replace(bid, amount=bid.amount + 10)).decode()
    )
    return seq


Con = duckdb.DuckDBPyConnection
Tamper = Callable[[Con, str], "int | None"]


def _sql(sql: str, seq: Callable[[Con, str], int] | None = None) -> Tamper:
    """A tamper that runs `sql` with (game id[, seq]) and expects the problem at that seq."""

    def go(con: Con, gid: str) -> int | None:
        if seq is None:
            con.execute(sql, [gid])
            return None
        s = seq(con, gid)
        con.execute(sql, [gid, s])
        return s

    return go


def _delete_from(cut: Callable[[Con, str], int]) -> Tamper:
    def go(con: Con, gid: str) -> int:
        n = cut(con, gid)
        con.execute("DELETE FROM events WHERE game_id = ? AND seq >= ?", [gid, n])
        return n

    return go


def _reencode(how: Callable[[dict[str, Any]], str]) -> Tamper:
    def go(con: Con, gid: str) -> int:
        s = first_seq(con, gid, "bid_placed")
        set_payload(con, gid, s, how(json.loads(payload(con, gid, s))))
        return s

    return go


UPDATE_ROW = "UPDATE events SET {} WHERE game_id = ? AND seq = ?"

# (case, game, tamper, the check that must fail, the seq it must name: "same" = the
# tampered seq, "after" = a later one, or a fixed value)
CASES: list[tuple[str, str, Tamper, str, Any]] = [
    (
        "type changed",
        "code",
        _sql(UPDATE_ROW.format("type = 'bid_passed'"), lambda c, g: first_seq(c, g, "bid_placed")),
        "type",
        "same",
    ),
    (
        "visible_to widened on a payment",
        "code",
        _sql(
            UPDATE_ROW.format("visible_to = [0, 1, 2, 3]"),
            lambda c, g: first_seq(c, g, "payment_cards"),
        ),
        "visible_to",
        "same",
    ),
    (
        "visible_to NULL on a private offer",
        "code",
        _sql(UPDATE_ROW.format("visible_to = NULL"), lambda c, g: first_seq(c, g, "offer_cards")),
        "visible_to",
        "same",
    ),
    (
        "visible_to NULL on the engine-only deck order",
        "code",
        _sql(UPDATE_ROW.format("visible_to = NULL"), lambda c, g: 1),
        "visible_to",
        1,
    ),
    (
        "visible_to [] on a public event",
        "code",
        _sql(UPDATE_ROW.format("visible_to = []"), lambda c, g: first_seq(c, g, "card_drawn")),
        "visible_to",
        "same",
    ),
    (
        "turn changed",
        "code",
        _sql(UPDATE_ROW.format("turn = turn + 1"), lambda c, g: count(c, g) // 3),
        "turn",
        "same",
    ),
    (
        "actor changed",
        "code",
        _sql(
            UPDATE_ROW.format("actor = (actor + 1) % 4"),
            lambda c, g: first_seq(c, g, "bid_placed", 3),
        ),
        "actor",
        "same",
    ),
    (
        "actor cleared",
        "code",
        _sql(UPDATE_ROW.format("actor = NULL"), lambda c, g: first_seq(c, g, "turn_started", 5)),
        "actor",
        "same",
    ),
    (
        "seq gap: a middle row deleted",
        "code",
        _sql("DELETE FROM events WHERE game_id = ? AND seq = ?", lambda c, g: count(c, g) // 2),
        "seq",
        "same",
    ),
    (
        "first row deleted",
        "code",
        _sql("DELETE FROM events WHERE game_id = ? AND seq = ?", lambda c, g: 0),
        "seq",
        0,
    ),
    ("finished game truncated", "code", _delete_from(lambda c, g: count(c, g) // 2), "end", "same"),
    ("game_ended missing", "code", _delete_from(lambda c, g: count(c, g) - 1), "end", "same"),
    (
        "games.seed changed",
        "code",
        _sql("UPDATE games SET seed = seed + 1 WHERE game_id = ?"),
        "seed",
        0,
    ),
    (
        "games.config changed",
        "code",
        _sql(
            "UPDATE games SET config = replace(config, '\"max_turns\":400', '\"max_turns\":300')"
            " WHERE game_id = ?"
        ),
        "config",
        0,
    ),
    (
        "games.config re-encoded",
        "code",
        _sql("UPDATE games SET config = replace(config, ',', ', ') WHERE game_id = ?"),
        "config",
        0,
    ),
    (
        "games.seats changed",
        "code",
        _sql("UPDATE games SET seats = replace(seats, 'tracker', 'economy') WHERE game_id = ?"),
        "seats",
        0,
    ),
    (
        "games.engine_version changed",
        "code",
        _sql("UPDATE games SET engine_version = '0.9' WHERE game_id = ?"),
        "engine_version",
        0,
    ),
    (
        "games.game changed",
        "code",
        _sql("UPDATE games SET game = 'chess' WHERE game_id = ?"),
        "game",
        0,
    ),
    (
        "status finished on a running game",
        "running",
        _sql("UPDATE games SET status = 'finished', end_reason = 'complete' WHERE game_id = ?"),
        "end",
        None,
    ),
    (
        "unknown status",
        "code",
        _sql("UPDATE games SET status = 'paused' WHERE game_id = ?"),
        "status",
        None,
    ),
    (
        "end_reason changed",
        "code",
        _sql(
            "UPDATE games SET end_reason = CASE end_reason WHEN 'complete' THEN 'max_turns'"
            " ELSE 'complete' END WHERE game_id = ?"
        ),
        "end_reason",
        None,
    ),
    (
        "end_reason on an abandoned game",
        "abandoned",
        _sql("UPDATE games SET end_reason = 'complete' WHERE game_id = ?"),
        "end_reason",
        None,
    ),
    (
        # The bidder is a code agent, played again: the edited bid is not the one it makes.
        "winning bid raised (re-simulation)",
        "code",
        lambda c, g: raise_bid(c, g, winning_bid),
        "replay",
        "same",
    ),
    (
        "model seat's turn choice flipped (its recorded answer disagrees)",
        "model",
        flip_model_choice,
        "replay",
        "same",
    ),
    (
        "payload keys reordered",
        "code",
        _reencode(lambda d: json.dumps(dict(reversed(d.items())), separators=(",", ":"))),
        "encoding",
        "same",
    ),
    ("payload whitespace", "code", _reencode(json.dumps), "encoding", "same"),
    (
        "payload extra field",
        "code",
        _reencode(lambda d: json.dumps({**d, "note": 1}, separators=(",", ":"))),
        "encoding",
        "same",
    ),
    (
        "payload not an event",
        "code",
        _reencode(lambda d: '{"type":"bid_made","amount":10}'),
        "payload",
        "same",
    ),
    (
        "tournament seed changed",
        "cup",
        _sql("UPDATE tournament_games SET seed = seed + 1 WHERE game_id = ?"),
        "tournament",
        None,
    ),
    (
        "tournament seats changed",
        "cup",
        _sql('UPDATE tournament_games SET seats = \'["random", "random"]\' WHERE game_id = ?'),
        "tournament",
        None,
    ),
    (
        "games.tournament cleared",
        "cup",
        _sql("UPDATE games SET tournament = NULL WHERE game_id = ?"),
        "tournament",
        None,
    ),
    (
        "game taken off the schedule",
        "cup",
        _sql("UPDATE tournament_games SET game_id = 'elsewhere' WHERE game_id = ?"),
        "tournament",
        None,
    ),
]


def game_of(base: Base, which: str) -> str:
    return base.cup[0] if which == "cup" else getattr(base, which)


@pytest.mark.parametrize(
    ("case", "which", "tamper", "check_name", "where"), CASES, ids=[c[0] for c in CASES]
)
def test_tampering_fails_verification_and_names_the_problem(
    base: Base, tmp_path: Path, case: str, which: str, tamper: Tamper, check_name: str, where: Any
) -> None:
    gid = game_of(base, which)
    assert check(base.path, gid).outcome in ("verified", "unfinished")
    path = tmp_path / "tampered.duckdb"
    shutil.copyfile(base.path, path)
    con = duckdb.connect(str(path))
    seq = tamper(con, gid)
    con.close()
    got = check(path, gid)
    assert got.outcome == "failed", (case, got)
    assert got.problem is not None and got.problem.check == check_name, (case, got.problem)
    if where == "same":
        assert got.problem.seq == seq
    elif where == "after":
        assert seq is not None and got.problem.seq is not None and got.problem.seq > seq
    elif where is not None:
        assert got.problem.seq == where
    assert got.problem.detail


@pytest.mark.parametrize("which", ["code", "model", "cup"])
def test_untampered_games_are_verified(base: Base, which: str) -> None:
    gids = base.cup if which == "cup" else [game_of(base, which)]
    for gid in gids:
        got = check(base.path, gid)
        assert got.outcome == "verified" and got.ok and got.problem is None, got
        assert got.events > 0


@pytest.mark.parametrize("which", ["running", "abandoned"])
def test_unfinished_games_are_consistent_prefixes_never_verified(base: Base, which: str) -> None:
    gid = game_of(base, which)
    got = check(base.path, gid)
    assert got.outcome == "unfinished" and not got.ok, got
    assert got.status == which
    assert got.problem is not None and "consistent prefix" in got.problem.detail
    assert got.events > 20


def test_views_would_leak_what_verification_catches(base: Base, tmp_path: Path) -> None:
    """The reason visible_to is checked: with NULL, every seat's view shows a private offer."""
    path = tmp_path / "leak.duckdb"
    shutil.copyfile(base.path, path)
    con = duckdb.connect(str(path))
    seq = first_seq(con, "code", "offer_cards")
    owner = con.execute(
        "SELECT actor FROM events WHERE game_id = 'code' AND seq = ?", [seq]
    ).fetchall()[0][0]
    other = (owner + 1) % 4
    visible = (
        "SELECT count(*) FROM events WHERE game_id = 'code' AND seq = ?"
        " AND (visible_to IS NULL OR list_contains(visible_to, ?))"
    )
    assert con.execute(visible, [seq, other]).fetchall()[0][0] == 0
    con.execute(UPDATE_ROW.format("visible_to = NULL"), ["code", seq])
    assert con.execute(visible, [seq, other]).fetchall()[0][0] == 1
    con.close()
    got = check(path, "code")
    assert got.problem is not None and (got.problem.check, got.problem.seq) == ("visible_to", seq)
    assert "NULL (every seat)" in got.problem.detail


# ---------------------------------------------------------------------------- properties


@pytest.fixture(scope="module")
def duel_rows(base: Base) -> StoredGame:
    """A finished tournament duel's rows, held in memory."""
    with DuckStore(base.path, read_only=True) as store:
        return store.load_rows(base.cup[0])


COLUMNS = ("type", "actor", "visible_to", "turn")
TAGS = sorted(t.__struct_config__.tag for t in ev.GAME_EVENT_TYPES)


def _other(column: str, current: Any, data: st.DataObject) -> Any:
    """Any stored value for `column` other than `current`."""
    values: st.SearchStrategy[Any]
    if column == "type":
        values = st.sampled_from(TAGS) | st.text(max_size=12)
    elif column == "actor":
        values = st.none() | st.integers(-3, 6)
    elif column == "turn":
        values = st.integers(-5, 500)
    else:
        values = st.none() | st.lists(st.integers(0, 4), max_size=4)
    return data.draw(values.filter(lambda v: v != current))


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_any_changed_column_fails_at_its_row(duel_rows: StoredGame, data: st.DataObject) -> None:
    rows = duel_rows.events
    seq = data.draw(st.integers(0, len(rows) - 1))
    column = data.draw(st.sampled_from(COLUMNS))
    value = _other(column, getattr(rows[seq], column), data)
    changed = list(rows)
    changed[seq] = rows[seq]._replace(**{column: value})
    got = check_game(duel_rows._replace(events=changed))
    assert got.outcome == "failed"
    assert got.problem is not None and (got.problem.check, got.problem.seq) == (column, seq)
    # The same rows as a store reading many games hands them over: one list per column.
    columns = StoredColumns(tuple(list(c) for c in zip(*changed, strict=True)))
    assert check_game(duel_rows._replace(events=columns)) == got


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_a_finished_game_missing_any_rows_fails(duel_rows: StoredGame, data: st.DataObject) -> None:
    rows = duel_rows.events
    start = data.draw(st.integers(0, len(rows) - 1))
    stop = data.draw(st.integers(start + 1, len(rows)))
    kept = rows[:start] + rows[stop:]
    got = check_game(duel_rows._replace(events=kept))
    assert got.outcome == "failed"
    assert got.problem is not None
    if stop == len(rows):
        # cut off the end: complete in numbering, incomplete as a game
        expected = ("end", start) if start else ("start", 0)
        assert (got.problem.check, got.problem.seq) == expected
    else:
        assert (got.problem.check, got.problem.seq) == ("seq", start)


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_a_running_game_cut_at_a_turn_is_an_unfinished_prefix(
    duel_rows: StoredGame, data: st.DataObject
) -> None:
    rows = duel_rows.events
    cuts = [r.seq for r in rows if r.type == "turn_started"]
    cut = data.draw(st.sampled_from(cuts))
    running = duel_rows._replace(events=rows[:cut], status="running", end_reason=None)
    got = check_game(running)
    assert got.outcome == "unfinished" and not got.ok
    assert got.events == cut
    as_finished = check_game(running._replace(status="finished"))
    assert as_finished.outcome == "failed"
