"""A game's seed decides every chance outcome to come (the deck order, the hands not shown
yet), so the viewer withholds it while a game with that seed is still in play: two running
games that differ only in their seed give the same bytes on every page, API answer and
published file. Once the game is over its seed is shown again (a replay needs it)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from starlette.testclient import TestClient

from cli.web.app import create_app
from cli.web.publish import write_site
from events import catalog
from events.store import DuckStore
from runner.session import play_and_store

ROOT = Path(__file__).resolve().parents[2]
SEED = 7
OTHER = 900_001

GAMES = {
    "cattle": ("cattle-trade", "micro-duel", ["random", "random"]),
    "pact": ("pact", "quick", ["truthful", "anchor"]),
    "kuhn": ("openspiel", "kuhn_poker", ["random", "random"]),
    "negotiation": ("openspiel", "negotiation", ["random", "random"]),
    "pit": ("gamebench:pit", "quick", ["random"] * 2),
    # A game whose seats' pages come from its own lens and hide the lineup while it runs.
    "rooms": ("gamebench:two_rooms_and_a_boom", "short", ["random"] * 6),
}


TWIN = 500
"""The seed of a finished game beside the one under test: a withheld seed must not be placed
before or after it when the list is sorted by seed."""


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, str]]:
    """One finished game of each kind, each in a store of its own beside a finished Cattle
    Trade game of seed `TWIN`."""
    root = tmp_path_factory.mktemp("seed")
    out = {}
    duel = catalog.get("cattle-trade").preset("micro-duel")
    for key, (game, preset, agents) in GAMES.items():
        db = root / f"{key}.duckdb"
        gdef = catalog.get(game)
        with DuckStore(db) as store:
            gid, _ = play_and_store(store, gdef.preset(preset), SEED, agents)
            play_and_store(store, duel, TWIN, ["random", "random"])
        out[key] = (db, gid)
    return out


def running_copy(src: Path, dst: Path, game_id: str, seed: int) -> None:
    """`src` with its game cut to its first half and marked running, its seed set to `seed`
    (in the games row and the first event)."""
    shutil.copy(src, dst)
    con = duckdb.connect(str(dst))
    try:
        (count,) = con.execute(
            "SELECT count(*) FROM events WHERE game_id = ?", [game_id]
        ).fetchone()
        con.execute("DELETE FROM events WHERE game_id = ? AND seq >= ?", [game_id, count // 2])
        con.execute(
            "UPDATE games SET status = 'running', end_reason = NULL, ended_at = NULL, seed = ?"
            " WHERE game_id = ?",
            [seed, game_id],
        )
        (payload,) = con.execute(
            "SELECT payload FROM events WHERE game_id = ? AND seq = 0", [game_id]
        ).fetchone()
        start = json.loads(payload)
        start["seed"] = seed
        con.execute(
            "UPDATE events SET payload = ? WHERE game_id = ? AND seq = 0",
            [json.dumps(start, separators=(",", ":")), game_id],
        )
    finally:
        con.close()


def addresses(game_id: str, players: int) -> list[str]:
    views = ["", "?seat=public", *(f"?seat={i}" for i in range(players))]
    out = ["/", "/?sort=seed"]
    for v in views:
        out += [
            f"/games/{game_id}{v}",
            f"/api/games/{game_id}{v}",
            f"/api/games/{game_id}/events{v}",
        ]
    return out


def answers(db: Path, game_id: str, players: int) -> dict[str, str]:
    """Every address's answer from a viewer that shows games in play to spectators without
    delay (the view every seat shares; a seat's view of a game in play is refused)."""
    with TestClient(create_app(db, spectator_delay=0.0), base_url="http://127.0.0.1") as client:
        got = {}
        for address in addresses(game_id, players):
            r = client.get(address)
            seat_of_game_in_play = r.status_code == 403 and re.search(r"seat=\d", address)
            assert r.status_code == 200 or seat_of_game_in_play, (address, r.text[:300])
            got[address] = r.text
        return got


def published(db: Path, out: Path) -> dict[str, bytes]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        write_site(con, out, omniscient=True)
    finally:
        con.close()
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("key", list(GAMES))
def test_a_running_game_shows_nothing_of_its_seed(
    played: dict[str, tuple[Path, str]], tmp_path: Path, key: str
) -> None:
    db, gid = played[key]
    players = len(GAMES[key][2])
    one, two = tmp_path / "one.duckdb", tmp_path / "two.duckdb"
    running_copy(db, one, gid, SEED)
    running_copy(db, two, gid, OTHER)
    first, second = answers(one, gid, players), answers(two, gid, players)
    for address in first:
        assert first[address] == second[address], address
    assert published(one, tmp_path / "site1") == published(two, tmp_path / "site2")


def rng_seed(db: Path, game_id: str) -> str | None:
    """The seed-derived `rng_seed` of a game's game string, if it has one."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        (payload,) = con.execute(
            "SELECT payload FROM events WHERE game_id = ? AND seq = 0", [game_id]
        ).fetchone()
    finally:
        con.close()
    m = re.search(r"rng_seed=(\d+)", json.loads(payload).get("game_string", ""))
    return m.group(1) if m else None


def test_a_value_drawn_from_the_seed_is_withheld_too(
    played: dict[str, tuple[Path, str]], tmp_path: Path
) -> None:
    """OpenSpiel's negotiation draws inside the game object from a seed-derived `rng_seed`:
    shown once the game is over, on no view of it while it runs."""
    db, gid = played["negotiation"]
    drawn = rng_seed(db, gid)
    assert drawn is not None and len(drawn) >= 4
    over = answers(db, gid, 2)
    assert f"rng_seed={drawn}" in over[f"/api/games/{gid}/events?seat=0"]
    running = tmp_path / "running.duckdb"
    running_copy(db, running, gid, SEED)
    shown = answers(running, gid, 2)
    for address, text in shown.items():
        assert drawn not in text, address
    assert "rng_seed=withheld" in shown[f"/api/games/{gid}/events?seat=public"]


def test_an_ended_game_shows_its_seed(played: dict[str, tuple[Path, str]]) -> None:
    db, gid = played["cattle"]
    with TestClient(create_app(db), base_url="http://127.0.0.1") as client:
        assert f"seed {SEED} ·" in client.get(f"/games/{gid}?seat=0").text
        assert client.get(f"/api/games/{gid}?seat=0").json()["game"]["seed"] == SEED
        events = client.get(f"/api/games/{gid}/events?seat=public").json()
        assert events[0]["fields"]["seed"] == SEED
        page = client.get("/?sort=seed&order=asc").text
        assert f'<td class="num">{SEED}</td>' in page
        assert "withheld" not in page


def test_a_finished_game_dealt_like_one_in_play_keeps_its_seed(
    played: dict[str, tuple[Path, str]], tmp_path: Path
) -> None:
    """The same deal played again (another rotation of a tournament, a retried game) while
    this one is over: the finished game's seed would tell the other's chance outcomes."""
    db, gid = played["cattle"]
    copy = tmp_path / "twins.duckdb"
    shutil.copy(db, copy)
    con = duckdb.connect(str(copy))
    try:
        con.execute(
            "INSERT INTO games SELECT 'again' AS game_id, * EXCLUDE (game_id) REPLACE"
            " ('running' AS status) FROM games WHERE game_id = ?",
            [gid],
        )
    finally:
        con.close()
    with TestClient(create_app(copy), base_url="http://127.0.0.1") as client:
        page = client.get(f"/games/{gid}?seat=0").text
        assert "seed withheld while the game is in play" in page
        assert client.get(f"/api/games/{gid}").json()["game"]["seed"] is None
        assert client.get(f"/api/games/{gid}/events").json()[0]["fields"]["seed"] is None
        assert f'<td class="num">{SEED}</td>' not in client.get("/").text
    # The same with the deal still to be played in a tournament's schedule.
    con = duckdb.connect(str(copy))
    try:
        con.execute("DELETE FROM games WHERE game_id = 'again'")
        con.execute(
            "CREATE TABLE tournament_games (tournament VARCHAR, idx INTEGER, game_id VARCHAR,"
            " seed BIGINT, seats JSON, lineup VARCHAR, rotation INTEGER, attempt INTEGER)"
        )
        con.execute(
            "INSERT INTO tournament_games VALUES ('cup', 1, 'later', ?, '[]', 'a', 1, 0)", [SEED]
        )
    finally:
        con.close()
    with TestClient(create_app(copy), base_url="http://127.0.0.1") as client:
        assert client.get(f"/api/games/{gid}").json()["game"]["seed"] is None
        assert f'<td class="num">{TWIN}</td>' in client.get("/").text


def test_a_seat_timeline_of_a_running_game_leaves_the_seed_out(
    played: dict[str, tuple[Path, str]], tmp_path: Path
) -> None:
    """`cattle show --seat`: the same lines for two running games that differ in their seed
    alone; the seed in the line of the game's start once it is over."""
    db, gid = played["cattle"]
    one, two = tmp_path / "one.duckdb", tmp_path / "two.duckdb"
    running_copy(db, one, gid, SEED)
    running_copy(db, two, gid, OTHER)
    env = {**os.environ, "COLUMNS": "300", "NO_COLOR": "1", "TERM": "dumb"}
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "cli.main", "show", gid, "--seat", "0", "--db", str(path)],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        for path in (one, two, db)
    ]  # fmt: skip
    (first, _), (second, _), (over, _) = (p.communicate(timeout=120) for p in procs)
    assert [p.returncode for p in procs] == [0, 0, 0]
    assert first == second
    assert "seed withheld" in first and f"seed {OTHER}" not in second
    assert f"seed {SEED})" in over
