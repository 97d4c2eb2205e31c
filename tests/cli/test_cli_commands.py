"""The `cattle` command end to end, in subprocesses against a DuckDB file in tmp_path."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any

import msgspec
import pytest
from clikit import cattle, cattle_many, table_lines

from events.base import visible
from events.cattle import game as ev
from events.cattle.codec import decode
from events.store import DuckStore
from projections.replay import observation_at, state_at


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A database made by the CLI: a demo game and two played games."""
    path = tmp_path_factory.mktemp("cli") / "games.duckdb"
    demo = cattle("demo", "--db", path, "--seed", "5")
    assert demo.returncode == 0, demo.stderr
    match = re.search(r"Game id: (\w+)", demo.stdout)
    assert match, demo.stdout
    duel = cattle(
        "play", "--preset", "micro-duel", "--mode", "fast", "--seed", "3", "--json", "--db", path
    )
    assert duel.returncode == 0, duel.stderr
    legacy = cattle(
        "play",
        "--preset",
        "standard",
        "--mode",
        "legacy",
        "--seed",
        "9",
        "--agents",
        "random,random,random,random",
        "--max-turns",
        "40",
        "--json",
        "--db",
        path,
    )
    assert legacy.returncode == 0, legacy.stderr
    ids = [match.group(1), json.loads(duel.stdout)["game_id"], json.loads(legacy.stdout)["game_id"]]
    return {"path": path, "ids": ids, "demo": demo, "duel": duel, "legacy": legacy}


def events_of(path: Path, game_id: str) -> list[Any]:
    with DuckStore(path, read_only=True) as store:
        return store.load_events(game_id)


def test_demo_prints_the_final_table_and_the_game_id(db) -> None:
    out = db["demo"].stdout
    for word in ("rank", "seat", "agent", "score", "complete sets", "Game id:"):
        assert word in out
    for agent in ("tracker", "setrace", "economy", "random"):
        assert agent in out
    end = events_of(db["path"], db["ids"][0])[-1]
    assert isinstance(end, ev.GameEnded)
    for score in end.scores:
        assert f"{score:,}" in out
    assert "Traceback" not in db["demo"].stderr


def test_play_json_gives_game_id_seed_and_scores(db) -> None:
    summary = json.loads(db["duel"].stdout)
    assert summary["seed"] == 3 and summary["mode"] == "fast"
    end = events_of(db["path"], summary["game_id"])[-1]
    assert [s["score"] for s in summary["scores"]] == list(end.scores)
    assert [s["rank"] for s in summary["scores"]] == list(end.ranks)
    assert [s["seat"] for s in summary["scores"]] == [0, 1]
    legacy = json.loads(db["legacy"].stdout)
    assert legacy["mode"] == "legacy" and legacy["seed"] == 9
    assert legacy["turns"] <= 40 and len(legacy["scores"]) == 4


def test_games_lists_every_stored_game(db) -> None:
    table, js = cattle_many(
        [("games", "--db", db["path"]), ("games", "--db", db["path"], "--json")]
    )
    assert table.returncode == 0 and js.returncode == 0
    for gid in db["ids"]:
        assert gid in table.stdout
    assert "3 games" in table.stdout
    rows = json.loads(js.stdout)
    assert [r["game_id"] for r in rows] == db["ids"]
    assert [r["seed"] for r in rows] == [5, 3, 9]
    assert all(r["status"] == "finished" for r in rows)


def cell_words(table: str) -> set[str]:
    """The words in the body cells of a printed table."""
    return {word for row in table_lines(table)[1] for word in row.split()}


def test_games_at_80_columns_breaks_no_word(db) -> None:
    wide = cattle("games", "--db", db["path"])
    narrow = cattle("games", "--db", db["path"], env={"COLUMNS": "80"})
    assert wide.returncode == 0 and narrow.returncode == 0, narrow.stderr
    assert max(map(len, narrow.stdout.splitlines())) <= 80
    # A long cell takes more lines at 80 columns, but every word in it stays whole (a game's
    # name, a preset, an agent, a score), as the table shows it with room to spare.
    assert "cattle-trade" in cell_words(wide.stdout)
    assert cell_words(wide.stdout) <= cell_words(narrow.stdout), narrow.stdout


def printed_seqs(text: str) -> list[int]:
    return [int(m.group(1)) for m in re.finditer(r"^\s*(\d+)  ", text, re.M)]


def test_show_prints_the_whole_timeline_or_one_seats_view(db) -> None:
    gid = db["ids"][0]
    events = events_of(db["path"], gid)
    full, seat = cattle_many(
        [("show", gid, "--db", db["path"]), ("show", gid[:8], "--seat", "1", "--db", db["path"])]
    )
    assert full.returncode == 0 and seat.returncode == 0, seat.stderr
    assert printed_seqs(full.stdout) == list(range(len(events)))
    assert "Deck shuffled" in full.stdout
    mine = [i for i, e in enumerate(events) if visible(e, 1)]
    assert printed_seqs(seat.stdout) == mine
    assert "as seen by seat 1" in seat.stdout
    assert "Deck shuffled" not in seat.stdout
    # no private card of another seat: every offer or payment line shown concerns seat 1
    private = (ev.OfferCards, ev.PaymentCards, ev.OffersRevealed, ev.ActionRejected)
    hidden = [i for i, e in enumerate(events) if isinstance(e, private) and not visible(e, 1)]
    assert hidden, "the demo game has private events of other seats"
    assert not set(hidden) & set(printed_seqs(seat.stdout))
    for line in seat.stdout.splitlines():
        if " placed [" in line:
            assert "Player 1 (you) placed" in line


def test_replay_to_a_point_as_state_or_as_a_seat(db) -> None:
    gid = db["ids"][0]
    events = events_of(db["path"], gid)
    to = 60
    text, obs, state = cattle_many(
        [
            ("replay", gid, "--to", str(to), "--db", db["path"]),
            ("replay", gid, "--to", str(to), "--seat", "2", "--json", "--db", db["path"]),
            ("replay", gid, "--to", str(to), "--json", "--db", db["path"]),
        ]
    )
    assert text.returncode == obs.returncode == state.returncode == 0
    assert f"State after event {to}" in text.stdout
    expected = json.loads(json.dumps(msgspec.to_builtins(observation_at(events, 2, to))))
    assert json.loads(obs.stdout) == expected
    s = state_at(events, to)
    got = json.loads(state.stdout)
    assert got["turn"] == s.turn and got["phase"] == s.phase
    assert got["money"] == [list(m) for m in s.money]
    assert "deck" not in got  # the deck order stays hidden


def test_replay_verify_passes_for_every_game_made_here(db) -> None:
    runs = [("replay", gid, "--verify", "--db", db["path"]) for gid in db["ids"]]
    runs.append(("replay", db["ids"][1], "--verify", "--json", "--db", db["path"]))
    results = cattle_many(runs)
    for r in results[:-1]:
        assert r.returncode == 0, r.stderr
        assert "verified" in r.stdout
    assert json.loads(results[-1].stdout)["ok"] is True


def tampered_copy(src: Path, dst: Path, game_id: str) -> dict[str, str]:
    """Copy a game's rows into a new file twice, each copy with one change to its log."""
    DuckStore(dst).close()  # the schema
    import duckdb

    con = duckdb.connect(str(dst))
    con.execute(f"ATTACH '{src}' AS src (READ_ONLY)")
    rows = con.execute(
        "SELECT seq, type, turn, actor, visible_to, payload FROM src.events WHERE game_id = ? ORDER BY seq",
        [game_id],
    ).fetchall()
    ids = {"scores": "t-scores", "dropped": "t-dropped"}
    for gid in ids.values():
        con.execute(
            "INSERT INTO games SELECT ? AS game_id, * EXCLUDE (game_id) FROM src.games WHERE game_id = ?",
            [gid, game_id],
        )
    changed = []
    for seq, typ, turn, actor, vis, payload in rows:
        if typ == "game_ended":
            data = json.loads(payload)
            data["scores"][0] += 10
            payload = json.dumps(data)
        changed.append((ids["scores"], seq, typ, turn, actor, vis, payload))
    bid = next(i for i, r in enumerate(rows) if r[1] == "bid_passed")
    kept = rows[:bid] + rows[bid + 1 :]
    dropped = [(ids["dropped"], i, *r[1:]) for i, r in enumerate(kept)]
    con.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?)", changed + dropped)
    con.close()
    assert isinstance(decode(rows[-1][5]), ev.GameEnded)
    return ids


def test_replay_verify_fails_for_a_tampered_log(db, tmp_path: Path) -> None:
    dst = tmp_path / "tampered.duckdb"
    ids = tampered_copy(db["path"], dst, db["ids"][0])
    scores, dropped = cattle_many(
        [
            ("replay", ids["scores"], "--verify", "--db", dst),
            ("replay", ids["dropped"], "--verify", "--db", dst),
        ]
    )
    n = len(events_of(db["path"], db["ids"][0]))
    assert scores.returncode == 1
    assert "verification failed" in scores.stderr
    assert f"at seq {n - 1}" in scores.stderr
    assert dropped.returncode == 1
    assert "verification failed" in dropped.stderr
    for r in (scores, dropped):
        assert "Traceback" not in r.stderr


def test_sql_in_table_csv_and_json(db) -> None:
    q = "SELECT game_id, seed FROM games ORDER BY seed"
    table, as_csv, as_json = cattle_many(
        [
            ("sql", q, "--db", db["path"]),
            ("sql", q, "--format", "csv", "--db", db["path"]),
            (
                "sql",
                "SELECT seat, count(*) AS n FROM bids GROUP BY seat ORDER BY seat",
                "--format",
                "json",
                "--db",
                db["path"],
            ),
        ]
    )
    assert table.returncode == as_csv.returncode == as_json.returncode == 0
    assert "3 rows" in table.stdout
    for gid in db["ids"]:
        assert gid in table.stdout
    rows = list(csv.reader(io.StringIO(as_csv.stdout)))
    expected = sorted(zip(db["ids"], ("5", "3", "9"), strict=True), key=lambda r: int(r[1]))
    assert rows == [["game_id", "seed"], *map(list, expected)]
    counts = json.loads(as_json.stdout)
    assert [c["seat"] for c in counts] == [0, 1, 2, 3]
    assert all(c["n"] > 0 for c in counts)


def test_sql_refuses_to_write(db) -> None:
    with DuckStore(db["path"], read_only=True) as store:
        before = store.query("SELECT count(*) FROM events")[1]
    results = cattle_many(
        [
            ("sql", "DELETE FROM events", "--db", db["path"]),
            ("sql", "CREATE TABLE junk (a INTEGER)", "--db", db["path"]),
        ]
    )
    for r in results:
        assert r.returncode != 0
        assert "error" in r.stderr.lower() and "read-only" in r.stderr.lower()
        assert "Traceback" not in r.stderr
    with DuckStore(db["path"], read_only=True) as store:
        assert store.query("SELECT count(*) FROM events")[1] == before
        assert store.query(
            "SELECT count(*) FROM information_schema.tables WHERE table_name = 'junk'"
        )[1] == [(0,)]
