"""A game in play is nobody's to watch: every address of the viewer keeps a running game (and
every game of a tournament with games still to play) closed until it ends, or shows it as
every seat saw it after a spectator's delay; the list keeps its lineup and a name that tells
its tournament's seed; the seats waiting on people are listed to the operator alone."""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest
from starlette.testclient import TestClient
from webkit import Games, addresses

from agents.human.mailbox import write_json
from cli.web.app import Delay, create_app
from cli.web.publish import write_site


def edit(db: Path, *sql: tuple[str, list[Any]]) -> None:
    con = duckdb.connect(str(db))
    try:
        for statement, params in sql:
            con.execute(statement, params)
    finally:
        con.close()


def stop_half_way(db: Path, game_id: str) -> None:
    """Game `game_id` cut to its first half and marked running (a game in play)."""
    con = duckdb.connect(str(db))
    try:
        (count,) = con.execute(
            "SELECT count(*) FROM events WHERE game_id = ?", [game_id]
        ).fetchone()
        con.execute("DELETE FROM events WHERE game_id = ? AND seq >= ?", [game_id, count // 2])
        con.execute(
            "UPDATE games SET status = 'running', end_reason = NULL, ended_at = NULL"
            " WHERE game_id = ?",
            [game_id],
        )
    finally:
        con.close()


def agents_of(db: Path, game_id: str) -> list[str]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        (seats,) = con.execute("SELECT seats FROM games WHERE game_id = ?", [game_id]).fetchone()
    finally:
        con.close()
    return [s["agent"] for s in json.loads(seats)]


@pytest.fixture()
def in_play(games: Games, tmp_path: Path) -> Path:
    """The test store with its first Cattle Trade game half played and still running."""
    db = tmp_path / "running.duckdb"
    shutil.copy(games.db, db)
    stop_half_way(db, games.cattle)
    return db


def test_every_address_keeps_a_running_game_closed(in_play: Path, games: Games) -> None:
    """Whatever route and view is asked for, nothing of the running game's events, table or
    lineup comes back; once it has ended, the same addresses show it (they are real ones)."""
    app = create_app(in_play)
    values = {
        "game_id": [games.cattle],
        "name": ["cup", "style.css"],
        "token": ["0" * 32],
        "desk": ["0" * 32],
        "agent": ["cup"],
    }
    lineup = agents_of(in_play, games.cattle)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        checked = 0
        for address in addresses(app, values):
            r = client.get(address)
            if games.cattle in address:
                assert r.status_code == 403, (address, r.status_code)
                assert "closed while it is in play" in r.text
                assert '"seq"' not in r.text and "game-data" not in r.text
                checked += 1
        assert checked >= 3 * 7
        page = client.get("/").text
        row = re.search(rf'<tr data-id="{games.cattle}".*?</tr>', page, re.S)
        assert row is not None and 'data-in-play="yes"' in row.group(0)
        assert "withheld while in play" in row.group(0)
        assert 'data-agents="[]"' in row.group(0)
        assert lineup[0] not in row.group(0)
        # No filter tells the lineup either: the running game matches no agent name.
        for q in ({"agent": lineup[0]}, {"q": lineup[0]}):
            assert games.cattle not in client.get("/", params=q).text
    edit(in_play, ("UPDATE games SET status = 'finished' WHERE game_id = ?", [games.cattle]))
    with TestClient(create_app(in_play), base_url="http://127.0.0.1") as client:
        assert client.get(f"/api/games/{games.cattle}/events").status_code == 200
        assert client.get(f"/games/{games.cattle}?seat=1").status_code == 200


def test_a_game_of_a_tournament_in_play_is_closed(games: Games, tmp_path: Path) -> None:
    """One game of the tournament still to be played: its finished games, its standings and
    the names made from its seed stay out of sight until it has ended."""
    db = tmp_path / "cup.duckdb"
    shutil.copy(games.db, db)
    con = duckdb.connect(str(db))
    try:
        ids = [
            r[0]
            for r in con.execute("SELECT game_id FROM tournament_games ORDER BY idx").fetchall()
        ]
        (seed,) = con.execute("SELECT seed FROM tournaments WHERE name = 'cup'").fetchone()
    finally:
        con.close()
    # Stored the way default names were once made (FORMAT-SEED-GAMES), ids from the name.
    old = f"mixed-{seed}-4"
    edit(
        db,
        ("UPDATE tournaments SET name = ? WHERE name = 'cup'", [old]),
        ("UPDATE tournament_games SET tournament = ?, game_id = replace(game_id, 'cup', ?)",
         [old, old]),
        ("UPDATE games SET tournament = ?, game_id = replace(game_id, 'cup', ?)"
         " WHERE tournament = 'cup'", [old, old]),
        ("UPDATE events SET game_id = replace(game_id, 'cup', ?) WHERE game_id LIKE 'cup.%'",
         [old]),
        ("DELETE FROM events WHERE game_id = ?", [ids[-1].replace("cup", old)]),
        ("DELETE FROM games WHERE game_id = ?", [ids[-1].replace("cup", old)]),
    )  # fmt: skip
    first = ids[0].replace("cup", old)
    with TestClient(create_app(db), base_url="http://127.0.0.1") as client:
        for address in (f"/games/{first}", f"/api/games/{first}?seat=public",
                        f"/api/games/{first}/events?seat=0"):  # fmt: skip
            got = client.get(address)
            assert got.status_code == 403, address
            assert "a game of its tournament is in play" in got.text
        info = client.get(f"/api/tournaments/{old}").json()
        assert info["closed"] is True and info["ratings"] == [] and info["finished"] == 3
        page = client.get("/").text
        listed = client.get("/", params={"sort": "tournament"}).text
        for text in (page, listed, client.get("/", params={"sort": "id"}).text):
            assert old not in text
        rows = re.findall(r'<tr data-id="[^"]*"[^>]*data-in-play="yes">.*?</tr>', page, re.S)
        assert len(rows) == 3
        for row in rows:
            assert 'data-agents="[]"' in row and "random" not in row and "economy" not in row
            assert row.count(">withheld<") == 3  # the game id, the tournament, the seed
        # No filter or search tells the name or the ids, a character at a time.
        assert "0 games" in client.get("/", params={"tournament": old}).text
        assert "0 games" in client.get("/", params={"q": first[:8]}).text
        assert old not in client.get("/", params={"q": "mixed"}).text
    con = duckdb.connect(str(db), read_only=True)
    try:
        write_site(con, tmp_path / "site")
    finally:
        con.close()
    index = (tmp_path / "site" / "index.html").read_text()
    assert old not in index and "withheld while in play" in index
    assert not any(old in p.name for p in (tmp_path / "site" / "games").iterdir())


def test_the_seats_are_listed_to_the_operator_alone(games: Games, tmp_path: Path) -> None:
    """Another person's waiting question, seat number and link are on no page but the
    operator's (`/seats?key=`, the key printed by `cattle serve`)."""
    seats = tmp_path / "seats"
    seats.mkdir()
    token, desk = "a1" * 16, "b2" * 16
    question = {"token": token, "desk": desk, "pid": os.getpid(), "game": "Kuhn poker",
                "seat": 1, "agent": "human:zed?via=web", "decision": "act",
                "prompt": "Your card: the king", "rules": None, "schema": None, "notes": [],
                "timeout": 60,
                "asked_at": time.time()}  # fmt: skip
    write_json(seats / f"{token}.json", question)
    write_json(seats / f"{desk}.desk", {"desk": desk, "seat": 1, "token": token,
                                        "pid": os.getpid(), "over": False})  # fmt: skip
    app = create_app(games.db, seats=seats)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        public = client.get("/seats").text
        for secret in (token, desk, "human:zed", "the king"):
            assert secret not in public
        assert client.get("/seats", params={"key": "guess"}).status_code == 403
        listed = client.get("/seats", params={"key": app.state.operator_key}).text
        assert f"http://127.0.0.1/seats/desk/{desk}" in listed
        assert "the king" in client.get(f"/seats/desk/{desk}").text  # the person's own link


def posted(client: TestClient, token: str, line: str, **headers: str) -> Any:
    return client.post(f"/seats/{token}", data={"line": line}, headers=headers,
                       follow_redirects=False)  # fmt: skip


def waiting_question(seats: Path, token: str) -> None:
    seats.mkdir(exist_ok=True)
    write_json(seats / f"{token}.json", {"token": token, "desk": None, "pid": os.getpid(),
                                         "seat": 0, "schema": None, "notes": []})  # fmt: skip


def test_a_second_answer_to_one_decision_is_refused(games: Games, tmp_path: Path) -> None:
    """Two posts before the seat read the first (a double click): the second gets 409 and
    the first is the answer the seat reads."""
    seats, token = tmp_path / "seats", "c3" * 16
    waiting_question(seats, token)
    with TestClient(create_app(games.db, seats=seats), base_url="http://127.0.0.1") as client:
        assert posted(client, token, "first").status_code == 303
        second = posted(client, token, "second")
        assert second.status_code == 409 and "already in" in second.text
        assert f'href="/seats/{token}" id="back-to-seat"' in second.text
        assert json.loads((seats / f"{token}.answer").read_text()) == {"line": "first"}
        (seats / f"{token}.json").unlink()  # the decision is over
        late = posted(client, token, "late")
        assert late.status_code == 409 and "not waiting" in late.text


def test_a_post_from_no_origin_of_this_viewer_is_refused(games: Games, tmp_path: Path) -> None:
    seats, token = tmp_path / "seats", "d4" * 16
    waiting_question(seats, token)
    with TestClient(create_app(games.db, seats=seats), base_url="http://127.0.0.1") as client:
        for headers in ({"origin": "null"}, {"origin": "http://evil.test"},
                        {"sec-fetch-site": "cross-site"}):  # fmt: skip
            assert posted(client, token, "1", **headers).status_code == 403, headers
        assert not (seats / f"{token}.answer").exists()
        assert posted(client, token, "1", origin="http://127.0.0.1").status_code == 303


def test_a_spectator_sees_a_game_in_play_as_it_stood_a_delay_ago() -> None:
    delay = Delay(30.0)
    assert delay.shown("g", 10, now=100.0) is None  # first seen now: nothing yet
    assert delay.left("g", now=110.0) == pytest.approx(20.0)
    assert delay.shown("g", 25, now=120.0) is None
    assert delay.shown("g", 40, now=130.0) == 10  # what was there 30 s ago
    assert delay.shown("g", 40, now=150.0) == 25
    assert delay.shown("g", 40, now=160.0) == 40


@pytest.fixture()
def delayed(in_play: Path) -> Iterator[TestClient]:
    with TestClient(create_app(in_play, spectator_delay=0.0), base_url="http://127.0.0.1") as c:
        yield c


def test_with_a_delay_only_the_public_view_of_a_game_in_play_is_shown(
    delayed: TestClient, in_play: Path, games: Games
) -> None:
    gid = games.cattle
    con = duckdb.connect(str(in_play), read_only=True)
    try:
        public = [r[0] for r in con.execute(
            "SELECT seq FROM events WHERE game_id = ? AND visible_to IS NULL ORDER BY seq", [gid]
        ).fetchall()]  # fmt: skip
    finally:
        con.close()
    for query in ("", "?seat=public"):
        events = delayed.get(f"/api/games/{gid}/events{query}").json()
        assert [e["seq"] for e in events] == public
    page = delayed.get(f"/games/{gid}").text
    assert "s behind" in page and "?seat=0" not in page
    # Nor who plays where: a person at a seat would learn which agent each opponent is.
    shown = delayed.get(f"/api/games/{gid}").json()
    assert shown["game"]["agents"] == [""] * 4 and "seats" not in shown["events"][0]["fields"]
    assert "seats" not in delayed.get(f"/api/games/{gid}/events").json()[0]["fields"]
    for seat in range(4):
        got = delayed.get(f"/api/games/{gid}?seat={seat}")
        assert got.status_code == 403 and "?seat=public" in got.json()["error"]


def test_a_long_delay_keeps_a_game_first_seen_now_closed(in_play: Path, games: Games) -> None:
    app = create_app(in_play, spectator_delay=600.0)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        got = client.get(f"/api/games/{games.cattle}/events?seat=public")
        assert got.status_code == 403 and "come back in" in got.json()["error"]


def test_a_delay_does_not_open_a_game_whose_deal_is_still_to_be_played(
    in_play: Path, games: Games
) -> None:
    """Another game dealt from the same seed runs too (another rotation of the deal): the
    public events of one would show the other's cards, so neither opens to spectators."""
    edit(
        in_play,
        ("INSERT INTO games SELECT 'again' AS game_id, * EXCLUDE (game_id) FROM games"
         " WHERE game_id = ?", [games.cattle]),
    )  # fmt: skip
    with TestClient(
        create_app(in_play, spectator_delay=0.0), base_url="http://127.0.0.1"
    ) as client:
        got = client.get(f"/api/games/{games.cattle}/events?seat=public")
        assert got.status_code == 403 and "same seed" in got.json()["error"]
    edit(in_play, ("DELETE FROM games WHERE game_id = 'again'", []))
    with TestClient(
        create_app(in_play, spectator_delay=0.0), base_url="http://127.0.0.1"
    ) as client:
        assert client.get(f"/api/games/{games.cattle}/events?seat=public").status_code == 200
